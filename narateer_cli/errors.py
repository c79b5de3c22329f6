"""The one error family, shared by the host and every rule system.

`cli.py` turns each kind into one stderr line and its exit status: 2 bad input, 3 refused.
"""


class NarateerError(Exception):
    """A problem to report in one line. `exit_code` follows the contract."""

    exit_code = 2

    def __init__(self, message: str, *, rule: str | None = None, fix: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.fix = fix

    def line(self) -> str:
        """The line a person reads: what is wrong and how to fix it. The rule id is left to `--json`
        (`to_json`) and the docs: no rule ids in the first line a person reads."""
        text = self.message
        if self.fix:
            text += f"; {self.fix}"
        return text

    def to_json(self) -> dict:
        """The error for scripts (`--json`): the message, the rule it cites, the fix and the exit status."""
        return {"error": self.message, "rule": self.rule, "fix": self.fix, "exit": self.exit_code}


class BadInput(NarateerError):
    """Bad usage or bad input: unknown names, invalid files, faces that do not fit (exit 2)."""

    exit_code = 2


class Refused(NarateerError):
    """A declaration the rules refuse: unaffordable, Boost over SL, no use left (exit 3)."""

    exit_code = 3
