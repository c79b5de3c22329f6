"""Hypothesis through the command line: random card sequences over several rounds, and after every
command the AP, charges, cooldowns and Concentration written in the sheet match the simple model;
a refused command changes no byte; the log passes `verify`."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from narateer_cli.store import yamlio
from tests.conftest import run, snapshot

from .test_properties import BAD, CARDS, CHARGES, Model

steps = st.lists(st.one_of(
    st.tuples(st.just("act"), st.sampled_from(sorted(CARDS)), st.booleans(), st.integers(1, 20)),
    st.tuples(st.just("turn")),
    st.tuples(st.just("hurt"), st.integers(1, 9), st.integers(1, 20)),
    st.tuples(st.just("rest")),
), min_size=1, max_size=12)


def _campaign(root: Path):
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    for cid, card in CARDS.items():
        (root / "actions" / f"{cid}.yaml").write_text(yamlio.emit_text(card))
    path = root / "characters" / "mira.yaml"
    path.write_text(path.read_text().replace("hp: {current: 30, max: 30}", "hp: {current: 1000, max: 1000}")
                    .replace("actions: [strike, firebolt, stun-word, ward, last-stand, parry, peck, wild-surge, rally-hymn]",
                             "actions: [" + ", ".join(sorted(CARDS)) + "]"))
    assert run(root, "encounter", "new", "fight", "mira", "bandit").code == 0
    assert run(root, "turn", "start", "mira").code == 0


def _observed(root: Path):
    doc = YAML(typ="safe").load((root / "characters" / "mira.yaml").read_text())
    charges = {k: (doc.get("charges") or {}).get(k, n) for k, n in CHARGES.items()}
    cooldowns = {k: v["rounds"] for k, v in (doc.get("cooldowns") or {}).items()}
    conc = doc.get("concentrating")
    return doc["resources"]["ap"]["current"], charges, cooldowns, (conc["card"], conc.get("rounds")) if conc else None


def _command(step):
    if step[0] == "act":
        _, card, drop, face = step
        args = ["act", "mira", card] + ([] if card in ("ward", "focus") else ["--target", "bandit"])
        args += ["--faces", str(face)] if CARDS[card].get("atk") else []
        return args + (["--drop-concentration"] if drop else [])
    if step[0] == "turn":
        return None
    if step[0] == "hurt":
        return ["damage", "mira", str(step[1]), "--concentration-faces", str(step[2])]
    return ["rest", "mira", "--proper", "--mid-encounter"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_files_follow_the_model_through_the_cli(sequence):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "c"
        _campaign(root)
        model = Model()
        for step in sequence:
            if step[0] == "turn":
                assert run(root, "turn", "start", "bandit").code == 0
                assert run(root, "turn", "start", "mira").code == 0
                model.turn()
                continue
            before = snapshot(root)
            allowed = model.act(step[1], step[2]) if step[0] == "act" else True
            if step[0] == "hurt":
                model.hurt(step[2])
            elif step[0] == "rest":
                model.rest()
            r = run(root, *_command(step))
            assert r.code == (2 if allowed == BAD else 0 if allowed else 3), (step, r.err)
            if allowed is not True:
                assert snapshot(root) == before
            assert _observed(root) == (model.ap, model.charges, model.cooldowns, model.conc), step
        assert run(root, "verify").code == 0
