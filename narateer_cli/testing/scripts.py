"""The conformance scripts of the built-in games (S-SYS-11): legal commands in each example campaign.

A game outside narateer gives its own through the `conformance` hook (docs/write-a-game.md); these live
here so that the kit can play the built-in games as they are today.
"""

BUILTIN = {
    "narateer": {
        "counter": "roll kai stealth --dr 3",
        "secret": "roll kai stealth --dr 3 --boost 1 --secret",
        "refused": ["roll kai stealth --dr 3 --boost 9", "roll nobody stealth --dr 3", "roll kai stelth --dr 3"],
        "more": ["roll selka stealth --dr 2 --faces crit"],
    },
    "open-adventure": {
        "counter": "points bloodwind body -2",
        "secret": "roll bloodwind strength --ds 9 --secret",
        "refused": ["roll bloodwind strenght --ds 9", "points nobody body -1"],
        "more": ["roll bloodwind strength --ds 9 --stunt --faces 4"],
    },
    "d20-cards": {
        "setup": ["encounter new fight tor bandit", "turn start tor"],
        "counter": "act tor quiet-knife --target bandit",
        "secret": "dice 2d6 --secret",
        "refused": ["act tor cleaver --target bandit", "act nobody strike --target bandit",
                    "act tor long-shot --target nobody"],
        "more": ["refresh tor", "act tor quiet-knife --target bandit --faces 15"],
    },
}
