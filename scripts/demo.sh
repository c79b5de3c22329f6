#!/usr/bin/env bash
# Plays a short scripted scene on a scratch copy of the example campaign,
# so the checkout stays clean. Faces are given as if rolled at the table.
set -euo pipefail
N=${NARATEER:-narateer}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '\n\033[1m$ narateer %s\033[0m\n' "$*"; "$N" --campaign "$work/camp" "$@"; }

"$N" init "$work/camp" --example
say check
say show selka
say dr
say behind elira observation --dr routine
say roll veyra stealth --vs soldiers:observation --boost 2 --advantage --faces miss,hit,crit --reroll-faces hit
say roll kai stealth --dr challenging --boost 2 --dry-run
say odds 3 --dr 3 --advantage
say encounter new skirmish selka sentry mira bandit
say turn start selka
say hide selka --from sentry --from bandit --searching bandit --boost 1 --faces 2,2 --observer-faces bandit=2,1 --observer-boost bandit=1
say move selka 2 --difficult
say turn end --next mira
say turn start mira
say exchange mira bandit --weapon sword --response guard --boost 1 --response-boost 1 --faces 2,1 --response-faces 1,0
say roll mira athletics --dr 2 --boost 1 --faces 2,1
say encounter show
say encounter log
say verify
say undo
say verify
say roll mira athletics --dr 2 --faces 2,1 --boost 1 --secret
say dr hard --random --faces 1,2,0
say verify
say unveil --all
say verify
say stats

# At the table: a ranged attack, an Opportunity Attack with a weapon,
# a Clash won by the defender, damage applied in the same command, a wound past the dice.
say encounter new brawl mira bandit sentry veyra
say turn start veyra
say --color always exchange veyra sentry --skill ranged --response guard --faces 2 --response-faces 1
say move veyra 2
say react sentry opportunity --against veyra --weapon spear --allow-boost --boost 1 --apply --faces 2,2
say turn end --next mira
say turn start mira
say exchange mira bandit --weapon sword --response clash --response-weapon club --faces 0 --response-faces 2 --apply
say condition bandit +stunned --rounds 1
say wound bandit 10
say new thug --from bandit --count 2
say encounter log --last 6
say report brawl

# Magic, class traits and invisibility: a spell paid in Magic Dice, one that asks a check (its odds first),
# a trait in Full Guard, another after the Exchange, and an invisible creature revealed yet still unseen.
say new brute --from bandit
say encounter new haunt wren shade brute mira
say turn start wren
say show wren
say cast wren veil --dry-run
say cast wren veil --boost 1 --faces 2,1,1
say cast wren spark
say turn end --next shade
say turn start shade
say hide shade --from wren --from brute --boost 1 --faces 2,2
say reveal shade
say exchange shade brute --weapon claws --response none --faces 2,2 --boost 1
say turn end --next mira
say turn start mira
say exchange mira brute --weapon sword --response guard --trait iron-wall --faces 2 --response-faces 1,1
say react brute trait --against mira --trait riposte
say show brute
say refresh brute --traits

# Every other rule system plays its own short encounter (narateer_cli/systems/NAME/demo.sh), on its own scratch copy.
here=$(cd "$(dirname "$0")/.." && pwd)
for play in "$here"/narateer_cli/systems/*/demo.sh; do
  printf '\n\033[1m# %s\033[0m\n' "$(basename "$(dirname "$play")")"
  NARATEER="$N" bash "$play"
done

# H-1: every encounter played above verifies, and every sheet agrees with its logs.
printf '\n\033[1m# the Narateer campaign again\033[0m\n'
say verify campaign
say verify skirmish
say verify brawl
say verify haunt
say check
