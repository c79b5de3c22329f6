#!/usr/bin/env bash
# A short Open Adventure encounter on a scratch campaign: a Stunt, an opposed check
# and a Critical Failure, with faces given as if rolled at the table.
set -euo pipefail
N=${NARATEER:-narateer}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '\n\033[1m$ narateer %s\033[0m\n' "$*"; "$N" --campaign "$work/oa" "$@"; }

"$N" init "$work/oa" --system open-adventure --example
say check
say show bloodwind
say chart 6 7 15
say odds 7 --ds 9 --upto 12
say encounter new hall bloodwind warheart goblin orc --reaction bloodwind=9 --reaction warheart=5
say turn start
say roll bloodwind strength --mo --specialization axes --vs goblin:body --stunt --targets 3 --dry-run
say roll bloodwind strength --mo --specialization axes --vs goblin:body --stunt --targets 3 --faces 4,7
say points goblin challenge -3
say turn end
say turn start
say roll goblin spear --vs bloodwind:body --faces 1,1 --mishap "the spear snaps on the flagstones"
say turn end
say turn start
say roll warheart strength --mo --opposed orc:strength --faces 3,4 --other-faces 2,5
say turn end
say encounter show
say verify
say undo
say verify
say check
