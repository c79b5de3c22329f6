"""The `narateer` command: the click group, shared options, and the one error handler.

Command modules are imported only when their command runs (or help lists
them), and the rules engine, YAML and tables only inside command bodies, so
`narateer --help` costs no more than importing click. Every NarateerError
becomes one stderr line and the contract's exit status here, nowhere else.
"""

from __future__ import annotations

import os
import sys

import click

class Command(click.Command):
    """Every narateer command (common.command makes them)."""


class Group(click.Group):
    """A group of subcommands (`encounter`, `turn`, ...)."""


class LazyGroup(click.Group):
    """Verbs = the host's shared verbs + the campaign's system's verbs, imported only when run: a shared
    verb plays through the campaign's game, and another game's verb is bad input there.

    Help reads the verb tables of the systems (cheap `SYSTEM` records), never their commands.
    """

    @staticmethod
    def _where(ctx):
        """The system this command line plays: the campaign's, else `--system NAME`, else None (outside a
        campaign, where the host takes no game's side)."""
        from .systems import campaign_folder, system_name

        given = getattr(ctx.obj, "campaign_dir", None) or ctx.params.get("campaign_dir")
        chosen = getattr(ctx.obj, "system_name", None) or ctx.params.get("system_name")
        return _chosen_system(system_name(campaign_folder(given)), chosen)

    def list_commands(self, ctx):
        return [name for name, _ in self._rows(ctx, grouped=False)]

    def resolve_command(self, ctx, args):
        """A name that is no verb may be one of the campaign's `aliases:`; a verb always wins."""
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            from .aliases import expand

            expanded = expand(self._root(ctx), args[0], list(args[1:]), partial=_completing())
            if expanded is not None:
                if self.get_command(ctx, expanded[0]) is None:
                    from .errors import BadInput

                    raise BadInput(f"alias {args[0]} runs {expanded[0]!r}, which is not a command",
                                   fix="start the alias with a command `narateer --help` lists")
                return super().resolve_command(ctx, expanded)
            self._unknown(ctx, args[0])
        return super().resolve_command(ctx, args)

    def shell_complete(self, ctx, incomplete):
        """Shell completion of a command name: the verbs, then the campaign's aliases that are no verb."""
        from .complete import alias_items

        found = super().shell_complete(ctx, incomplete)
        return found + alias_items(self._root(ctx), incomplete, {item.value for item in found})

    extra_words: tuple = ()  # words the shell reads itself (`help`, `clear`, ...): offered for a near miss

    def _unknown(self, ctx, name: str):
        """No verb, alias or shell word: exit 2, naming the closest of them when some are close."""
        from .aliases import aliases
        from .suggest import did_you_mean

        try:
            known = [*self.list_commands(ctx), *aliases(self._root(ctx)), *self.extra_words]
        except Exception:  # a broken narateer.yaml: its own message comes when a command reads it
            known = [*self.list_commands(ctx), *self.extra_words]
        near = did_you_mean(name, known)
        if near:
            ctx.fail(f"No such command {name!r}{near}")

    @staticmethod
    def _root(ctx):
        from .systems import find_campaign

        return find_campaign(getattr(ctx.obj, "campaign_dir", None) or ctx.params.get("campaign_dir"))

    def get_command(self, ctx, name):
        command = self._command(ctx, name)
        if command is not None and _completing():
            from .complete import attach

            attach(command)
        return command

    def _command(self, ctx, name):
        from . import systems

        current = self._where(ctx)
        if current is None and name not in systems.SHARED and name not in systems.HOST_VERBS:
            owners = [s for s in _systems_with(name)]
            if len(owners) > 1:  # outside a campaign a verb two games define is each game's: none is preferred
                return _each_systems(name, owners)
        system = systems.load_system(current) if name not in ("init", "systems") else None
        found = verb_command(system, name)
        if found is not None:
            return found
        return _other_systems_verb(name, current, system or systems.load_system(current))

    def _rows(self, ctx, grouped=True):
        """(verb, help) rows; with `grouped`, (heading, rows) sections instead."""
        from . import systems

        current = self._where(ctx)
        try:
            chosen = [systems.load_system(current)] if current is not None else _builtin_systems()
        except Exception:  # an unknown system: help still lists everything (commands say what is wrong)
            chosen = _builtin_systems()
        sections = [("Shared commands", _shared_rows(chosen))]
        for system in chosen:
            own = [(verb, help_) for verb, (_, help_) in system.verbs.items() if verb not in systems.SHARED]
            if own:
                sections.append((f"{system.title} commands (system: {system.name})", own))
        if grouped:
            return sections
        return [row for _, rows in sections for row in rows]

    def format_commands(self, ctx, formatter):
        for heading, rows in self._rows(ctx):
            with formatter.section(heading):
                formatter.write_dl(rows)


def verb_command(system, name: str):
    """The click command of verb `name` in a campaign playing `system`: the game's own verb, else the host's
    (`<verb>_cmd` in the module `systems.HOST_VERBS` names); None when neither has it. The group and the
    Python API both find a verb by this one rule."""
    from . import systems

    if system is not None and name in system.verbs:
        return system.command(name)
    if name in systems.HOST_VERBS:
        import importlib

        return getattr(importlib.import_module(systems.HOST_VERBS[name]), name.replace("-", "_") + "_cmd")
    return None


def _other_systems_verb(name, current, system):
    """A verb the campaign's system lacks: another system's command outside a campaign, bad input naming
    its system inside one (a verb of another game is bad input), None when no system has it."""
    from . import systems

    others = [s for s in _builtin_systems() if s.name != system.name]
    owner = systems.owner_of(name, others)
    if owner is None:  # not a verb at all, or an add-on's: only now are entry points read
        others = [s for s in systems.loaded_systems() if s.name != system.name]
        owner = systems.owner_of(name, others)
    if owner is None:
        return None
    if current is None:  # outside a campaign every system's verbs are there
        return next(s for s in others if s.name == owner).command(name)
    from .errors import BadInput

    raise BadInput(f"{name} is {'an' if owner[:1] in 'aeiou' else 'a'} {owner} command; "
                   f"this campaign plays {system.name}", rule="S-SYS-3",
                   fix=system.pointers.get(name) or f"`narateer --help` lists what {system.name} offers")


def _chosen_system(campaign_plays: str | None, chosen: str | None) -> str | None:
    """`--system NAME` picks a game outside a campaign; inside one it may only name the campaign's."""
    if chosen is None or campaign_plays is None or chosen == campaign_plays:
        return campaign_plays or chosen
    from .errors import BadInput

    raise BadInput(f"this campaign plays {campaign_plays}, not {chosen}", rule="S-SYS-10",
                   fix="drop --system (it picks a game outside a campaign), or change `system:` in narateer.yaml")


def _systems_with(name: str) -> list:
    """Every installed system whose own verb `name` is: the built-in ones first, then add-ons (read only
    for a verb that is not shared, outside a campaign)."""
    from . import systems

    return [s for s in systems.loaded_systems() if name in s.verbs]


def _each_systems(name: str, owners):
    """A verb several games define, outside a campaign: its help names each; running it asks which."""
    rows = "\n".join(f"  narateer --system {s.name} {name} ...  {s.verbs[name][1]}" for s in owners)
    names = ", ".join(s.name for s in owners[:-1]) + " and " + owners[-1].name

    def refuse(**_):
        from .errors import BadInput

        raise BadInput(f"{name} is a command of {names}", rule="S-SYS-10",
                       fix=f"pick one: narateer --system NAME {name} ... (or run it in a campaign)")

    return Command(name, callback=refuse, add_help_option=True,
                   help=f"{name} is a command of several games; pick one with --system NAME:\n\n\b\n{rows}\n\n"
                        f"\b\nExample:\n  narateer --system {owners[0].name} {name} --help",
                   context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


def _shared_rows(chosen) -> list:
    """The shared verbs' rows for help: the host's and those the chosen systems implement, with the one
    system's own help text when only one is shown, then the host-only verbs."""
    from . import systems

    shared = {verb: help_ for verb, help_ in systems.SHARED.items()
              if verb in systems.HOST_VERBS or any(verb in s.verbs for s in chosen)}
    if len(chosen) == 1:
        shared.update({verb: chosen[0].verbs[verb][1] for verb in shared if verb in chosen[0].verbs})
    return list(shared.items()) + list(systems.HOST_ONLY.items())


def _completing() -> bool:
    """Whether a shell asked for completions: only then are completers attached."""
    module = sys.modules.get("narateer_cli.complete")
    return "_NARATEER_COMPLETE" in os.environ or (module is not None and module.active())


def _builtin_systems() -> list:
    """The built-in systems that are present (their SYSTEM records only; entry points are not consulted)."""
    from . import systems

    return [systems.load_system(name) for name, module in systems.BUILTIN.items() if systems.present(module)]


class App:
    """Per-invocation settings shared by every command."""

    def __init__(self, campaign_dir=None, seed=None, as_json=False, color="auto", system_name=None):
        from .sink import current

        self.sink = current()  # where this command's results and notes go (the terminal, or an API call's)
        self.campaign_dir = campaign_dir
        self.system_name = system_name  # --system: the game outside a campaign, where the host picks none
        self.seed = seed
        self.as_json = as_json
        self.color = color
        self.seeded = None  # the seed in force when this command rolled: its text ends `(seeded N)`
        self._campaign = None
        self._stream = None  # (seed, random.Random): the command's one seeded stream

    def use_color(self) -> bool:
        """Colour of the outcome line: always, never, or auto = stdout is a terminal and NO_COLOR is unset
        (JSON never)."""
        if self.as_json or self.color == "never":
            return False
        if self.color == "always":
            return True
        return "NO_COLOR" not in os.environ and sys.stdout.isatty()

    @property
    def system(self):
        """The campaign's rule system (the default one outside a campaign)."""
        from .systems import campaign_folder, load_system, system_name

        return load_system(_chosen_system(system_name(campaign_folder(self.campaign_dir)), self.system_name))

    @property
    def campaign(self):
        if self._campaign is None:
            from .store.campaign import Campaign, find_root

            self._campaign = Campaign(find_root(self.campaign_dir))
        return self._campaign

    def rng(self):
        """The command's random source: under `--seed` (or NARATEER_SEED) one `random.Random(seed)` for the whole
        command, so a game that calls this once per die gets each die its own draw; else the system's
        randomness (a `random.Random()` seeded by the system)."""
        seed = self.seed
        if seed is None and os.environ.get("NARATEER_SEED", "").strip():
            text = os.environ["NARATEER_SEED"].strip()
            try:
                seed = int(text)
            except ValueError:
                from .errors import BadInput

                raise BadInput(f"NARATEER_SEED={text!r} is not a whole number", fix="set it to a number or unset it")
        self.seeded = seed
        import random

        if seed is None:
            return random.Random()
        if self._stream is None or self._stream[0] != seed:  # seeded once per command; every later call
            self._stream = (seed, random.Random(seed))         # continues the stream (each die its own draw)
        return self._stream[1]


def _show_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        from . import __version__

        click.echo(f"narateer, version {__version__}", color=ctx.color)
        ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--campaign", "campaign_dir", metavar="DIR", is_eager=True, help="Campaign folder (default: nearest narateer.yaml upwards, or $NARATEER_CAMPAIGN).")
@click.option("--seed", type=int, help="Seed every random roll (or set NARATEER_SEED).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for scripts.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the outcome line (auto: a terminal and NO_COLOR unset).")
@click.option("--system", "system_name", metavar="NAME", is_eager=True,
              help="The game outside a campaign (default narateer); picks one of a verb two games define.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
@click.pass_context
def cli(ctx, campaign_dir, seed, as_json, color, system_name):
    """narateer: resolve tabletop actions from the shell, exactly by the rules.

    A campaign's narateer.yaml names its rule system (`system:`, default
    narateer); `narateer systems` lists them. Characters are YAML files under characters/, encounters under
    encounters/, in a campaign folder you keep in git.

    \b
    Examples:
      narateer init camp --system open-adventure --example
      narateer --campaign camp check
    """
    ctx.obj = App(campaign_dir, seed, as_json, color, system_name)


def _one_line(text: str) -> str:
    """A message on one line, its control characters written as visible escapes, as all text from the
    campaign is printed: an error can quote a name or a path from the campaign."""
    from .safetext import printable

    return printable(" ".join(str(text).split()).rstrip("."))


def _commits() -> int:
    """Actions this process has committed so far, a merge reconciliation aside (it is its own action, saved
    before the command's); read without importing the store for --help."""
    store = sys.modules.get("narateer_cli.store.txn")
    return getattr(store, "COMMITS", 0) - getattr(store, "RECONCILED", 0)


def _valid_text(args):
    """Every text argument must be valid text, checked before anything is read or written
    (a byte that is not UTF-8 arrives as a lone surrogate)."""
    for number, arg in enumerate(args, 1):
        if isinstance(arg, str) and any("\ud800" <= ch <= "\udfff" for ch in arg):
            from .errors import BadInput

            shown = arg.encode("utf-8", "backslashreplace").decode("utf-8")
            raise BadInput(f"argument {number} ({shown!r}) is not valid text (a byte that is not UTF-8, "
                           "or a lone surrogate)", rule="G-TRUST-5", fix="give it as UTF-8 text")


def _ignore_ctrl_c():
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv=None):
    """Entry point: runs the group and turns every failure into one line and an exit status."""
    from .sink import Sink, begin

    commits = _commits()
    if "narateer_cli.store.private" in sys.modules:  # a second command in one process (the shell, tests)
        sys.modules["narateer_cli.store.private"].forget()
    begin(Sink())  # each command its own: a warning is said once per command, a failed one's caches dropped
    if "_NARATEER_COMPLETE" in os.environ:
        from .complete import register

        register()
    code = _run(argv, commits)
    if code in (0, 1) and "narateer_cli.store.cache" in sys.modules:
        try:  # the command succeeded: keep what it parsed for the next one
            sys.modules["narateer_cli.store.cache"].flush()
        except KeyboardInterrupt:
            pass
    if argv is None:  # a real process: the command is over; a late Ctrl-C must not kill the interpreter's exit
        _ignore_ctrl_c()
    if isinstance(code, int) and code:
        sys.exit(code)
    return 0


def _run(argv, commits: int):
    """The group's exit status; every failure becomes one stderr line (never a traceback for a user)."""
    from .errors import NarateerError

    try:
        _valid_text(sys.argv[1:] if argv is None else argv)
        result = cli.main(args=argv, prog_name="narateer", standalone_mode=False)
        return result if isinstance(result, int) and not isinstance(result, bool) else 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except (click.ClickException, NarateerError) as exc:
        return _report(exc, _wants_json(sys.argv[1:] if argv is None else argv), _commits() > commits)
    except (KeyboardInterrupt, click.Abort):
        sys.stderr.write("narateer: interrupted after the action was saved whole\n" if _commits() > commits
                         else "narateer: interrupted; nothing was written\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never a traceback for a user
        if os.environ.get("NARATEER_DEBUG"):
            raise
        said = WRITTEN if _commits() > commits else "nothing was written"
        sys.stderr.write(f"narateer: internal error ({type(exc).__name__}: {_one_line(exc)}); "
                         f"{said}; rerun with NARATEER_DEBUG=1 and report it\n")
        return 2


def _wants_json(args) -> bool:
    """Whether the command line asked for `--json` (before a `--` that ends the options)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


# what an error after the commit point says (a formatter that failed once the action was saved)
WRITTEN = "the action was written before this failed (its files and log entry are saved; `narateer encounter log` shows it)"


def _report(exc, as_json: bool = False, written: bool = False) -> int:
    """A usage error, a click error or a NarateerError as one stderr line; its exit status (the error's
    own: 2 bad input, 3 refused). With `--json` a NarateerError is also one JSON object on stdout
    that carries the rule it cites: the rule id is for scripts and the docs, not the line a person reads."""
    if isinstance(exc, click.UsageError):
        where = exc.ctx.command_path if exc.ctx else "narateer"
        sys.stderr.write(f"narateer: {_one_line(exc.format_message())}; see '{where} --help'\n")
        return 2
    if isinstance(exc, click.ClickException):
        sys.stderr.write(f"narateer: {_one_line(exc.format_message())}\n")
        return exc.exit_code
    if as_json:  # the command's one JSON object on stdout is the error itself
        import json

        sys.stdout.write(json.dumps({**exc.to_json(), **({"written": True} if written else {})}, ensure_ascii=False)
                         + "\n")
    sys.stderr.write(f"narateer: {_one_line(exc.line())}" + (f"; {WRITTEN}" if written else "") + "\n")
    return exc.exit_code


if __name__ == "__main__":
    main()
