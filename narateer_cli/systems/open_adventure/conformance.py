"""The conformance kit's script for this game (the suite every installed game goes through): legal commands in its
example campaign, which `python -m narateer_cli.testing NAME` and `make test` play (docs/write-a-game.md)."""

SCRIPT = {
    "counter": "points bloodwind body -2",
    "secret": "roll bloodwind strength --ds 9 --secret",
    "refused": ["roll bloodwind strenght --ds 9", "points nobody body -1"],
    "more": ["roll bloodwind strength --ds 9 --stunt --faces 4"],
}
