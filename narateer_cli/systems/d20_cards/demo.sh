#!/usr/bin/env bash
# A short d20-cards fight on a scratch copy of the example campaign: an
# Overkill hit, a Concentration drop, a cooldown that ends, and a Swan Song;
# first, a card Tor holds but has not prepared (a dry run lists the gates).
# Faces are given as if rolled at the table.
set -euo pipefail
N=${NARATEER:-narateer}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '\n\033[1m$ narateer %s\033[0m\n' "$*"; "$N" --campaign "$work/camp" "$@"; }

"$N" init "$work/camp" --system d20-cards --example
say check
say card show strike --for mira
say show tor
say act tor stun-word --target bandit --dry-run
say encounter new fight mira bandit hexer
say turn start mira
say act mira ward
say act mira strike --target bandit --faces 11
say odds hexer hex-bolt --target mira
say turn start hexer
say act hexer hex-bolt --target mira --faces 14 --concentration-faces mira=3
say turn start bandit
say act bandit cleaver --target mira --faces 19
say damage mira 5
say turn start mira
say act mira last-stand --target bandit --faces 18
say turn start hexer
say turn start bandit
say encounter show   # the bandit is in Critical Condition now: it may perform only a Swan Song
say damage mira 12   # the hexer's curse, dealt by the Guide: doubled by mira's Swan Song
say condition mira +stabilized
say encounter show
say verify
say undo
say verify
say check
