"""d20-cards commands for cards and acting: show, card, act, odds, dice; what new does (the host owns that command).

Each command parses its options, loads the campaign through a Session, makes
one engine call, renders the result and saves (store.save). Rules live in the
engine modules; text and JSON in render.
"""

from __future__ import annotations

import click

from narateer_cli.kit import Group, Session, command, declared, emit, split_pairs
from narateer_cli.kit import BadInput

from .declarations import ACT, ACT_FORM, AIM


def _number(text, option):
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise BadInput(f"{option} {text!r} is not a number", fix=f"for example {option} 1.5") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise BadInput(f"{option} {text!r} is not a number", fix=f"for example {option} 1.5")
    return int(value) if value.is_integer() else value


def _distances(items):
    """`--distance M` (every target) or `--distance T=M` (one target)."""
    default, per = None, {}
    for item in items:
        if "=" in item:
            name, _, value = item.partition("=")
            per[name] = _number(value, "--distance")
        else:
            default = _number(item, "--distance")
    return default, per


def _faces(items, option):
    from .dice import parse_faces

    return {name: parse_faces(value) for name, value in split_pairs(items, option, "bandit=12").items()}


# Other systems' options on `act` and `odds`, pointed to this game's way: option -> (its system, the d20-cards way)
FOREIGN = {
    "--boost": ("narateer", "no Boost here; add to the attack roll with --mod N"),
    "--dr": ("narateer", "the target's AC or the card's Action DC is the number; name it with --target T"),
    "--ds": ("open-adventure", "the target's AC or the card's Action DC is the number; name it with --target T"),
    "--benefit": ("open-adventure", "use --advantage"),
    "--drawback": ("open-adventure", "use --disadvantage"),
}


def _foreign(name: str) -> str:
    return "foreign_" + name.strip("-")


def declaration(card, actor, aim, act=None, foreign=None):
    """The Declaration of a card aimed as `aim` (`declarations.AIM`), with `act`'s own choices (`declarations.ACT`);
    another system's option (in `foreign`) is bad input pointing to this game's way."""
    from .results import Declaration

    for flag, (system, way) in FOREIGN.items():
        if (foreign or {}).get(_foreign(flag)) is not None:
            article = "an" if system[0] in "aeiou" else "a"
            raise BadInput(f"{flag} is {article} {system}-system option; this campaign plays d20-cards",
                           rule="S-SYS-3", fix=way)
    distance, distances = _distances(aim.distance)
    return (AIM + ACT).build(Declaration, {**aim, **(act or {})}, actor=actor, card=card, distance=distance,
                             distances=distances)


def dice_source(app, o, card_sides=None):
    """Physical faces per group (each given whole, or rolled whole with --seed); `--faces ask` asks
    each die (attack, save, Evolutionary, damage, Concentration) as it is rolled. Once some faces
    are given, a die left out is asked on a terminal, else exit 2 naming its option."""
    from narateer_cli.kit import ask

    from .dice import GROUPS, DiceSource, parse_faces, table_asker

    every, missing = ask.wanted(app, [o.get("faces")])
    faces = {}
    if o.get("faces") is not None and not every:  # --faces "" is no faces: bad input, never a random roll
        faces["attack"] = parse_faces(o["faces"])
    if o.get("evolutionary_face") is not None:
        faces["evolutionary"] = parse_faces(o["evolutionary_face"])
    if o.get("damage_faces") is not None:
        faces["damage"] = parse_faces(o["damage_faces"], card_sides or 1_000_000)
    if o.get("save_faces"):
        faces["save"] = _faces(o["save_faces"], "--save-faces")
    if o.get("concentration_faces"):
        faces["concentration"] = _faces(o["concentration_faces"], "--concentration-faces")
    asking = every or (missing and bool(faces))
    source = DiceSource(app.rng(), faces, ask=table_asker() if asking else None, asked=GROUPS if asking else ())
    source.gate = ask.zero_gate(app)  # an attack or save with no chance to land asks first
    return source


def foreign_options(fn):
    """Other systems' options, accepted only to say (exit 2) this game's way."""
    for flag in reversed(FOREIGN):
        fn = click.option(flag, _foreign(flag), hidden=True, default=None)(fn)
    return fn


def encounter_of(session, char):
    from narateer_cli.kit import encounter_for

    return encounter_for(session, char)


# What a secret act shows on its performer's sheet besides its costs: the cooldown and the Concentration the
# card starts follow from the card declared, as the table sees it played (`command(shows=...)`); an act whose
# damage would show its outcome is refused by the card's own gate
ACT_SHOWS = ("sheet.cooldowns", "sheet.concentrating")


@command(rolls=True, checks=True, writes=lambda given: not given["dry_run"], shows=ACT_SHOWS, form=ACT_FORM, help="""Perform an action card: its gates in order, then costs, rolls and damage.

Gates in order: access, level, prepared, turn, Arcane/Mobility/Swan
Song/Vocal, Concentration, cooldown, charges, AP, then range and sight per
target. A refusal is exit 3 and writes nothing. A sheet that records
`levels` needs the level a card's tier asks in the card's source; one that
keeps a `prepared` list performs only the cards on it (a card of a tier that
takes no focus slot needs no preparing).

\b
Examples:
  narateer act mira strike --target bandit --faces 15
  narateer act tor stun-word --target bandit --dry-run   (not prepared)
  narateer act mira firebolt --target bandit --distance 12 --faces 20
  narateer act mira stun-word --target bandit --save-faces bandit=8
  narateer act mira ward --dry-run""", context_settings={"ignore_unknown_options": False})
@click.argument("char")
@click.argument("card")
@declared(AIM, "aim")
@foreign_options
@declared(ACT)
def act_cmd(s, char, card, aim, declared, **foreign):
    from narateer_cli.kit import secret_asked
    from narateer_cli.kit import Show

    from .act import act, dry_run
    from .store import load_world, outcome

    decl = declaration(card, char, aim, declared, foreign)
    enc = encounter_of(s, char)
    world = load_world(s, enc.state if enc else None, [char, *decl.targets, decl.companion])
    if declared.dry_run:
        return Show("act_dry_run", dry_run(world, decl, s.rules))
    dice = dice_source(s.app, declared, _sides(world, char, card))
    new_world, result = act(world, decl, s.rules, dice, secret=secret_asked(s, char))
    made = outcome("act", char, _logged(decl, declared), result, world, new_world, enc, kind="act",
                   state=enc.state if enc else None)  # an action leaves the encounter's state as it is
    if enc is None:  # outside an encounter the campaign log holds it, a miss too, so `stats` counts every roll
        from narateer_cli.kit import CAMPAIGN_LOG

        made = made.replace(encounter=CAMPAIGN_LOG)
    return made.replace(declared_public=tuple(k for k in made.declaration if k in decl._fields),  # no typed faces
                        exit=1 if declared.exit_code and not any(t.lands for t in result.targets) else 0)


def _sides(world, char, card_id):
    from .sheet import card_for

    owner = world.chars.get(char)
    card = card_for(owner, card_id, world.cards) if owner else None
    return card.damage.sides if card is not None and card.damage is not None and card.damage.count else None


def _logged(decl, declared) -> dict:
    """The entry's declaration: the record's fields that were given (the card always), then the dice streams
    read at the table (`declarations.ACT`), one-value streams before repeated ones; faces to be asked are in
    the result instead."""
    from narateer_cli.kit import plain

    out = {k: v for k, v in plain(decl).items() if v not in (None, False, [], {}, 0) or k in ("card",)}
    streams = [o for o in ACT if o.logged and o.record_field not in decl._fields]
    for o in sorted(streams, key=lambda o: o.multiple):
        value = declared[o.field]
        if value and not (o.field == "faces" and str(value).strip().lower() == "ask"):
            out[o.log_key] = list(value) if o.multiple else value
    return out


@command(help="""Exact chance that a card lands on each target, its expected damage and distribution.

No AP, cooldown or charge gate applies; range and sight set the blind penalty.

\b
Examples:
  narateer odds mira strike --target bandit
  narateer odds mira strike --target bandit --disadvantage""")
@click.argument("char")
@click.argument("card")
@declared(AIM, "aim")
@foreign_options
def odds_cmd(app, char, card, aim, **foreign):
    from .odds import odds
    from .store import load_world

    decl = declaration(card, char, aim, foreign=foreign)
    with Session(app, write=False) as s:
        enc = encounter_of(s, char)
        world = load_world(s, enc.state if enc else None, [char, *decl.targets])
        result = odds(world, decl, s.rules)
    emit(app, "odds", result)


@click.group(cls=Group, name="card", help="""Show or list action cards.

\b
Examples:
  narateer card show strike --for mira
  narateer card list --for mira""")
def card_cmd():
    pass


@command(group=card_cmd, name="show", help="""A card in the chapter's layout; --for CHAR adds its numbers and gates.

\b
Example:
  narateer card show strike --for mira""")
@click.argument("card")
@click.option("--for", "char", metavar="CHAR", help="Whose numbers and gates to show.")
def card_show(app, card, char):
    from .readouts import card_view
    from .store import load_world

    with Session(app, write=False) as s:
        if char:
            s.sheet(char)  # an unknown character: the store's message
        result = card_view(load_world(s, None, [char] if char else []), card, char, s.rules)
    emit(app, "card_show", result)


@command(group=card_cmd, name="list", help="""Every campaign card (or CHAR's cards, with their status).

\b
Example:
  narateer card list --for mira""")
@click.option("--for", "char", metavar="CHAR", help="Only CHAR's cards, with ready/cooldown/charges/blocked.")
def card_list(app, char):
    from .readouts import card_list as cards
    from .store import load_world

    with Session(app, write=False) as s:
        if char:
            s.sheet(char)
        result = cards(load_world(s, None, [char] if char else []), char, s.rules)
    emit(app, "card_list", result)


@command(help="""A sheet: attributes, HP, AP, AC, DCs, and each card's readiness.

\b
Example:
  narateer show mira""")
@click.argument("char")
def show_cmd(app, char):
    from .readouts import sheet_view
    from .store import load_world

    with Session(app, write=False) as s:
        s.sheet(char)
        enc = encounter_of(s, char)
        result = sheet_view(load_world(s, None, [char]), char, s.rules, enc.state if enc else None)
    emit(app, "sheet", result)


# d20-cards' words for the host's `new` command (`Game.verb_words`): its help and its own options
WORDS = {"new": {
    "help": """Create a character sheet (--ap defaults to the rules' `ap: {default_max}`).

A card's tier asks a level in the card's source (its Discipline, Archetype
or Expertise) and focus slots to prepare it (the rules' `tiers` table). With
--level, --prepare or --focus-slots the sheet records them (`levels`,
`prepared`, `focus_slots`) and each card is checked against them; without,
it records none and every card it holds counts as prepared.

\b
Examples:
  narateer new rook --name Rook --attr fin=3 --attr phy=2 --ac physical=13 --hp 20 --action strike
  narateer new rook --action strike --action parry --level "Blade Discipline=1" --prepare strike --focus-slots 1""",
    "name": {"help": "Display name."},
    "options": (click.option("--attr", multiple=True, metavar="K=V", help="An attribute (kno wil fin phy mind body ...)."),
                click.option("--ac", multiple=True, metavar="KIND=N", help="physical=N or mental=N."),
                click.option("--hp", type=int, default=10, show_default=True, help="Max (and current) HP."),
                click.option("--ap", type=int, default=None, help="Max AP (default: the ruleset's ap.default_max)."),
                click.option("--concentration", type=int, default=0, help="Concentration bonus."),
                click.option("--action", multiple=True, metavar="CARD", help="A card the character has (repeat)."),
                click.option("--level", "levels", multiple=True, metavar="SOURCE=N",
                             help="Its level in a Discipline, Archetype or Expertise (repeat)."),
                click.option("--prepare", multiple=True, metavar="CARD", help="A card it has prepared (repeat)."),
                click.option("--focus-slots", type=int, default=None, help="The focus slots it prepares cards with.")),
    "source": {"help": "Copy OTHER's sheet with full HP and AP, no conditions."},
    "count": {"help": "With --from: make ID-1..ID-N."},
    "example": "bandit",
}}


def new(s, char_id, name, options):
    """`new ID` (the host's command): a sheet from the options, its cards known to the campaign."""
    from narateer_cli.kit import yamlio
    from narateer_cli.kit import check_id

    from .results import Created
    from .sheet import new_sheet, parse_sheet

    check_id(char_id)
    attrs = [(k, int(_number(v, "--attr"))) for k, v in split_pairs(options["attr"], "--attr", "fin=3").items()]
    acs = [(k, int(_number(v, "--ac"))) for k, v in split_pairs(options["ac"], "--ac", "physical=13").items()]
    if s.campaign.sheet_path(char_id).exists():
        raise BadInput(f"characters/{char_id}.yaml already exists", fix="pick another id or edit the file")
    hp = options["hp"]
    doc = new_sheet(char_id, s.rules, name=name, attrs=attrs, acs=acs, hp=hp, ap=options["ap"],
                    concentration=options["concentration"], actions=options["action"], cards=_card_ids(s))
    _build(doc, options)
    char = parse_sheet(char_id, doc, f"characters/{char_id}.yaml", s.rules)
    _check_build(s, char)
    result = Created(f"characters/{char_id}.yaml", char_id)
    return _new(char_id, {"name": name, "attr": dict(attrs), "ac": dict(acs), "hp": hp}, result,
                {char_id: yamlio.emit_text(doc)})


def _build(doc, options):
    """The build `new` records when asked: `levels`, `prepared`, `focus_slots` (none of them without the options)."""
    from narateer_cli.kit import unknown

    levels = {}
    for item in options.get("levels") or ():
        source, eq, value = item.rpartition("=")
        if not eq or not source.strip():
            raise BadInput(f"--level {item!r} is not SOURCE=N", fix='for example --level "Blade Discipline=2"')
        levels[source.strip()] = int(_number(value, "--level"))
    prepare, slots = list(options.get("prepare") or ()), options.get("focus_slots")
    for card in prepare:
        if card not in doc["actions"]:
            raise unknown("card on the sheet", card, doc["actions"])
    if levels or prepare or slots is not None:
        doc.update({"levels": levels, "prepared": prepare})
        if slots is not None:
            doc["focus_slots"] = slots


def _check_build(s, char):
    """A new sheet whose cards its build does not allow is refused, naming the first thing it lacks."""
    from narateer_cli.kit import Refused

    from .files import load_cards
    from .sheet import card_lookup
    from .tiers import lacks

    found = lacks(char, card_lookup(char, load_cards(s.campaign.root)), s.rules)
    if found:
        from .names import dotted

        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise Refused(f"{char.id}'s {dotted(found[0].path)}: {found[0].message}{more}", rule=found[0].rule,
                      fix=found[0].fix)


def _new(char_id, declaration, result, created):
    """A new sheet is a change outside any encounter: the campaign log holds it, and undo removes it."""
    from narateer_cli.kit import Outcome

    return Outcome("new", char_id, declaration, result, kind="new", show=result, created=created)


def _card_ids(session) -> list:
    """The campaign's card ids (`actions/*.yaml` stems): what `new --action` may name."""
    from .files import load_cards

    return list(load_cards(session.campaign.root))


def copied(s, source, count, made):
    """`new ID --from OTHER` (the host's command): the copies, in the campaign log."""
    from .results import Copied

    ids = list(made)
    result = Copied(", ".join(f"characters/{i}.yaml" for i in ids), ids[0], ids, source)
    return _new(ids[0], {"from": source, "count": count}, result, made)


# d20-cards' words for the host's `dice` command (`Game.verb_words`)
DICE_WORDS = {"dice": {
    "help": """Roll dice: d20, 2d6+3 (seeded with --seed, or the table's faces with --faces).

\b
Example:
  narateer dice 2d6+3 --faces 4,5""",
    "options": (click.argument("expr"),
                click.option("--faces", metavar="F", help="The faces rolled at the table, in dice order.")),
}}


def dice(app, options):
    """`dice EXPR` (the host's command): d20, 2d6+3, read from the table's faces when given."""
    expr, faces = options["expr"], options["faces"]
    from .cards import parse_dice
    from .dice import DiceSource, parse_faces
    from .readouts import roll
    from .schema import DICE_FIX, DICE_RE

    if not DICE_RE.match("1" + expr if expr.lower().startswith("d") else expr):
        raise BadInput(f"bad dice {expr!r}", fix=f"name the dice: d20, 2d6+3 ({DICE_FIX})")
    spec = parse_dice("1" + expr if expr.lower().startswith("d") else expr)  # exit 2 over the dice limits
    result = roll(spec, DiceSource(app.rng(), {"damage": parse_faces(faces, spec.sides)} if faces is not None else {}))
    from narateer_cli.kit import Outcome

    # logged only when secret, as a commitment
    return Outcome("dice", None, {"dice": expr, "faces": faces}, result, kind="dice", show=result,
                   declared_public=("dice",))
