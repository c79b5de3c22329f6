"""What a game's author reads from the kit: the contract's errors, the table's faces through the kit's dice,
and the kit's failures said whole."""

from __future__ import annotations

import random

import pytest

from narateer_cli import kit
from narateer_cli.testing.kit import Ran


def test_K_4_the_contracts_errors_are_the_kits_so_a_games_tests_can_expect_them():
    assert {"GameFault", "ReadOnly"} <= set(kit.__all__)
    assert issubclass(kit.ReadOnly, kit.GameFault) and issubclass(kit.GameFault, kit.NarateerError)
    assert kit.GameFault.exit_code == 2
    major, minor = (int(part) for part in kit.KIT_VERSION.split("."))
    assert (major, minor) >= (2, 4)


def test_K_5_the_kits_dice_read_the_faces_typed_at_the_table_and_roll_the_rest():
    typed = kit.Dice(random.Random(7), {"faces": kit.Dice.typed("6, 3", 6)})
    assert typed.pool("faces", 2, 6) == [6, 3]
    rolled = kit.Dice(random.Random(7), {"faces": kit.Dice.typed(None, 6)}).pool("faces", 4, 6)
    stream = random.Random(7)
    assert rolled == [stream.randint(1, 6) for _ in range(4)]  # no faces typed: each die its own seeded draw
    for text, said in (("7,1", "not '7'"), ("6,x", "not 'x'"), ("0", "not '0'")):
        with pytest.raises(kit.BadInput, match=said) as err:
            kit.Dice.typed(text, 6, "--faces")
        assert err.value.line().startswith("--faces: a d6 shows 1 to 6")
    with pytest.raises(kit.BadInput, match="gives 2 dice, and this roll rolls 3"):
        typed.pool("faces", 3, 6)


def test_K_4_the_kit_says_narateers_message_whole():
    """A failure quotes the command's last stderr line, which says what went wrong and how to mend it, whole;
    only a long answer on stdout (JSON) is cut."""
    long = "narateer: " + "x" * 400 + " (BadInput: the part that says what went wrong); fix it so"
    assert Ran(2, "", long + "\n").say() == f"exit 2 ({long})"
    assert len(Ran(0, "{" + "1" * 1000 + "}\n", "").say()) < 320


def test_a_sealed_entry_names_only_the_characters_whose_counters_moved():
    from narateer_cli.render import secret_words

    still = {"stress": 0, "trauma": 0, "harm": 0}
    entry = {"command": "fortune", "actor": "guide", "commitment": "c0ffee",
             "dice": {"guide": {"before": still, "after": still}}}
    assert secret_words(entry) == "guide: secret fortune roll, sealed until unveiled"
    entry["dice"]["cutter"] = {"before": still, "after": {**still, "stress": 2}}
    assert secret_words(entry) == "guide: secret fortune roll, sealed until unveiled (cutter stress 0 -> 2)"
