"""cast: a spell from the caster's sheet, paid by its Casting Cost, with the check it asks."""

from __future__ import annotations

import click

from narateer_cli.kit import FACES, Declared, Option, command, declared, encounter_for, nonneg

from .checks import told

# cast: the Boost and DR of the spell's check (if it asks one) and the faces rolled for it
CAST = Declared(
    Option(field="boost", names=("--boost",), type=int, default=0, show_default=True,
           help="Extra AD on the spell's check, up to the Skill Level."),
    Option(field="dr", names=("--dr",), metavar="N|TIER", logged=False,
           help="The check's DR, when the spell states none (or the Guide sets another)."),
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="Write nothing; show the Casting Cost it would pay and the exact chance for each Boost 0..SL."),
) + FACES

# What a secret cast shows the table: the proactive use and action it spent and whom its effects revealed the
# caster to (its Action Dice and Magic Dice are counters, shown as every secret roll's cost)
CAST_SHOWS = ("state.uses", "state.last_action", "state.hidden", "state.recorded")


@command(rolls=True, checks=True, writes=lambda given: not given["dry_run"], shows=CAST_SHOWS, help="""Cast a spell from the caster's sheet.

Pays the spell's Casting Cost (Action Dice, which Slowed doubles, and Magic
Dice, which it does not) and nothing more for being an action; a spell that
asks a Skill Check makes it (the cost's Action Dice are its base, --boost
adds dice up to the Skill Level, --dr sets the DR when the spell states none).
--dry-run shows what the cast would pay and its odds, writing nothing.
A spell whose effects can be seen or heard reveals a hidden caster to
everyone it is hidden from; an invisible caster stays invisible.

\b
Examples:
  narateer cast wren spark
  narateer cast wren veil --boost 1 --faces 2,1,0
  narateer cast wren veil --dry-run""")
@click.argument("char")
@click.argument("spell")
@declared(CAST)
def cast_cmd(s, char, spell, declared):
    from ..engine.spells import cast_in, find_spell
    from .checks import dice_source, paired_options

    d = declared
    nonneg("--boost", d.boost, s.rules.max_roll_dice)
    if d.dry_run:
        return _dry_run(s, char, spell, d)
    paired_options(("--reroll-faces", d.reroll_faces, "--faces", d.faces))
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"))
    caster = s.sheet(char)
    chosen = find_spell(caster, spell)
    dr = label = None
    if d.dr is not None:
        dr, word = s.rules.dr_value(d.dr)
        label = f"DR {dr}" if word == str(dr) else f"{word.title()} DR {dr}"
    enc = encounter_for(s, char)
    state, result = cast_in(enc.state if enc else None, caster, chosen, s.rules, dice, d.boost, dr, label)
    marks = {}
    if result.magic_after is not None and result.paid_md:
        marks[char] = {("magic_dice", key): value for key, value in result.magic_after.items()}
    declared_json = {"spell": chosen.name, **CAST.logged(d)}
    if dr is not None:
        declared_json["dr"] = dr
    return told("cast", "cast", char, declared_json, result, {char: result.dice_after}, enc, sheets=marks,
                state=state)


def _dry_run(s, char, spell, d):
    """`cast --dry-run`: the payment and odds, nothing rolled or written (faces and a Boost have no place)."""
    from narateer_cli.kit import BadInput, Show

    from ..engine.spells import cast_dry_run, find_spell

    given = "--faces" if d.faces else "--reroll-faces" if d.reroll_faces else "--boost" if d.boost else None
    if given:
        raise BadInput(f"--dry-run rolls nothing and shows every Boost, so {given} has nothing to apply to",
                       rule="R2-SPELL", fix=f"drop {given}")
    caster = s.sheet(char)
    dr = None if d.dr is None else s.rules.dr_value(d.dr)[0]
    return Show("cast_dry_run", cast_dry_run(caster, find_spell(caster, spell), s.rules, dr))


def refresh_magic(s, char):
    """`refresh CHAR --magic`: Used Magic Dice back to Ready (all, or the knob's amount), logged."""
    from narateer_cli.kit import BadInput

    from ..engine.character import DiceMoved
    from ..engine.spells import refresh_magic as refreshed

    sheet = s.sheet(char)
    if sheet.magic_dice is None:
        raise BadInput(f"{char} has no Magic Dice", rule="R2-SPELL",
                       fix=f"add `magic_dice: {{ready: N, used: 0}}` to characters/{char}.yaml")
    after, moved = refreshed(sheet.magic_dice, s.rules)
    result = DiceMoved(char, moved, dict(sheet.magic_dice), after)
    return told("magic_refresh", "refresh", char, {"count": None, "magic": True}, result, {}, encounter_for(s, char),
                sheets={char: {("magic_dice", key): value for key, value in after.items()}})


def magic_at_activation(sheet, rules, edits: dict) -> dict:
    """The sheet edits of an activation's start, with the caster's Magic Dice refreshed when the ruleset's magic
    knob refreshes them then."""
    from ..engine.spells import magic_refreshes_at_activation, refresh_magic as refreshed

    if not magic_refreshes_at_activation(rules):
        return edits
    after, moved = refreshed(sheet.magic_dice, rules)
    if not moved:
        return edits
    mine = dict(edits.get(sheet.id, {}))
    mine.update({("magic_dice", key): value for key, value in after.items()})
    return {**edits, sheet.id: mine}


def refresh_traits(s, char):
    """`refresh CHAR --traits`: every trait's uses back to its max, logged."""
    from narateer_cli.kit import BadInput

    from ..engine.character import DiceMoved
    from ..engine.traits import refreshed_uses, uses_edits

    sheet = s.sheet(char)
    if not sheet.traits:
        raise BadInput(f"{char} has no traits", rule="R2-TRAIT",
                       fix=f"add `traits:` to characters/{char}.yaml")
    before, after, moved = refreshed_uses(sheet)
    result = DiceMoved(char, moved, before, after)
    return told("trait_refresh", "refresh", char, {"count": None, "traits": True}, result, {}, encounter_for(s, char),
                sheets={char: uses_edits(before, after)})


def traits_at_activation(sheet, rules, edits: dict) -> dict:
    """The sheet edits of an activation's start, with the owner's trait uses back when the ruleset's traits knob
    gives them back then."""
    from ..engine.traits import refreshed_uses, uses_edits, uses_refresh_at_activation

    if not sheet.traits or not uses_refresh_at_activation(rules):
        return edits
    before, after, moved = refreshed_uses(sheet)
    if not moved:
        return edits
    return {**edits, sheet.id: {**edits.get(sheet.id, {}), **uses_edits(before, after)}}
