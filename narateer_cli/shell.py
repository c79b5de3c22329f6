"""`narateer shell` (T-SHELL): one interpreter, a prompt, the same commands without the prefix.

prompt_toolkit is imported here and only here, when the shell starts (it costs
about a third of a second, which no other command pays). Each line runs through
the same `main` as a fresh `narateer` process would: the same errors, exit
statuses and output, and each command takes the campaign lock for its own run
only. History lives in the private folder (`history`); completion is the same as the
shell's (`narateer_cli.complete`), read from the campaign on disk.
"""

from __future__ import annotations

import shlex
import sys

PROMPT = "narateer> "
LEAVE = {"exit", "quit"}


def completer():
    from click.shell_completion import ShellComplete
    from prompt_toolkit.completion import Completer, Completion

    from . import complete
    from .cli import cli

    class CampaignCompleter(Completer):
        def __init__(self, prefix):
            self.prefix = prefix

        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            try:
                words = shlex.split(text)
            except ValueError:
                return
            incomplete = "" if not words or text.endswith((" ", "\t")) else words.pop()
            args = self.prefix + words
            complete.LINE[:] = args
            try:
                found = ShellComplete(cli, {}, complete.PROG, complete.ENV).get_completions(args, incomplete)
            except Exception:  # a half-typed line completes nothing, never breaks the prompt
                return
            for item in found:
                yield Completion(item.value, start_position=-len(incomplete), display_meta=item.help or "")

    return CampaignCompleter


def run(root, prefix: list[str], input=None, output=None) -> int:
    """The prompt loop; `prefix` holds the global options every line runs with (the campaign, --color)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from . import complete
    from .cli import main

    complete.ACTIVE = True
    from .store.private import folder

    session = PromptSession(history=FileHistory(str(folder(root) / "history")), input=input, output=output,
                            completer=completer()(prefix), complete_while_typing=False)
    while True:
        try:
            line = session.prompt(PROMPT)
        except KeyboardInterrupt:  # Ctrl-C clears the line
            continue
        except EOFError:  # Ctrl-D leaves
            return 0
        words = _words(line)
        if words is None:
            continue
        if words[0] in LEAVE:
            return 0
        if words[0] == "shell":
            sys.stderr.write("narateer: already in the shell; type a command, or Ctrl-D to leave\n")
            continue
        try:
            main(prefix + words)
        except SystemExit:
            pass  # the error's one line is printed; the prompt returns
        sys.stdout.flush()


def _words(line: str) -> list[str] | None:
    try:
        words = shlex.split(line)
    except ValueError as exc:
        sys.stderr.write(f"narateer: {exc}; close the quote\n")
        return None
    if words and words[0] == "narateer":
        words = words[1:]
    return words or None
