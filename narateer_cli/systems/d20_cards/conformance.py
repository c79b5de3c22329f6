"""The conformance kit's script for this game (the suite every installed game goes through): legal commands in its
example campaign, which `python -m narateer_cli.testing NAME` and `make test` play (docs/write-a-game.md)."""

SCRIPT = {
    "setup": ["encounter new fight tor bandit", "turn start tor"],
    "counter": "damage bandit 1",  # played on two clones at once: a knife's damage could pass 0 HP (a conflict)
    "secret": "dice 2d6 --secret",
    "refused": ["act tor cleaver --target bandit", "act nobody strike --target bandit",
                "act tor long-shot --target nobody"],
    "more": ["act tor quiet-knife --target bandit", "refresh tor",
             "act tor quiet-knife --target bandit --faces 15 --damage-faces 4"],
}
