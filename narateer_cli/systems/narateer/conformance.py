"""The conformance kit's script for this game (the suite every installed game goes through): legal commands in its
example campaign, which `python -m narateer_cli.testing NAME` and `make test` play (docs/write-a-game.md)."""

SCRIPT = {
    "counter": "roll kai stealth --dr 1",
    "secret": "roll kai stealth --dr 3 --boost 1 --secret",
    "refused": ["roll kai stealth --dr 3 --boost 9", "roll nobody stealth --dr 3", "roll kai stelth --dr 3"],
    "more": ["roll selka stealth --dr 1 --faces crit"],
}
