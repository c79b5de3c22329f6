from tests.conftest import run


def test_roll_json_veyra(camp):
    r = run(camp, "--json", "roll", "veyra", "stealth", "--vs", "soldiers:observation", "--boost", "2",
            "--advantage", "--faces", "miss,hit,crit", "--reroll-faces", "hit")
    assert r.code == 0, r.err
    assert r.json["total"] == 4 and r.json["success"] is False
