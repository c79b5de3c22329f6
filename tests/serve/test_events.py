"""V-7: `/events` tells a view that what it shows changed, and nothing else. Its data was the number of
files the server watched, the private records of secret rolls included, so the party could count the
Guide's secret rolls; and it fired for changes the party cannot see. Now each event carries the digest of
the view's own `/data` body, and fires only when that body changes; still within a second (V-1)."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import time

from narateer_cli.serve import app, view
from tests.conftest import ok


class Events:
    """One open event stream of a running server."""

    def __init__(self, server, path: str, headers: dict | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=30)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200

    def next_change(self, timeout: float = 20) -> str:
        """The data of the next `change` event; fails when none comes within `timeout` seconds (a kept-alive
        comment line every 15 s lets the wait end even on a quiet stream)."""
        event = None
        deadline = time.monotonic() + timeout
        while True:
            line = self.resp.readline().decode("utf-8")
            assert line, "the event stream ended"
            assert time.monotonic() < deadline, "no change event came"
            line = line.rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "change":
                return line[6:]

    def close(self):
        self.conn.close()


def digest(server, path: str, headers: dict | None = None) -> str:
    status, _, body = server.get(path, headers=headers)
    assert status == 200
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def test_v7_an_event_carries_only_the_digest_of_what_the_view_shows(server, hidden_camp):
    party = Events(server, "/events")
    try:
        first = party.next_change()
        assert re.fullmatch("[0-9a-f]{16}", first) and first == digest(server, "/data")
        ok(hidden_camp, "turn", "end", "--next", "selka")
        ok(hidden_camp, "turn", "start", "selka")
        ok(hidden_camp, "roll", "selka", "athletics", "--dr", "2", "--faces", "2", "--secret")
        seen = [first]
        while seen[-1] != digest(server, "/data") and len(seen) < 10:  # each command may be seen on its own
            seen.append(party.next_change())
        assert seen[-1] == digest(server, "/data") and len(seen) > 1
        assert all(a != b for a, b in zip(seen, seen[1:]))  # an event only when what /data serves changed
    finally:
        party.close()


def test_v7_no_party_event_for_a_secret_roll_by_a_creature_hidden_from_the_party(server, hidden_camp):
    bearer = {"Authorization": f"Bearer {server.token}"}
    party, guide = Events(server, "/events"), Events(server, "/guide/events", bearer)
    try:
        first, guide_first = party.next_change(), guide.next_change()
        ok(hidden_camp, "roll", "thief", "athletics", "--dr", "2", "--faces", "2", "--secret")  # the thief acts, unseen
        assert guide.next_change() != guide_first  # the Guide's stream saw it: the server has looked
        time.sleep(1.5)  # several polls of the party's stream, which must stay quiet
        ok(hidden_camp, "turn", "end", "--next", "selka")  # something the party does see
        after = party.next_change()  # the next event is this one: an event for the thief's roll would repeat `first`
        assert after != first
        for _ in range(10):
            if after == digest(server, "/data"):
                break
            after = party.next_change()
        assert after == digest(server, "/data")
    finally:
        party.close()
        guide.close()


def test_v7_the_partys_change_detector_never_looks_at_the_private_records(hidden_camp):
    secrets = __import__("narateer_cli.store.secrets", fromlist=["write_record"])
    models = app.Models(hidden_camp)
    party_sig, guide_sig = view.signature(hidden_camp), view.signature(hidden_camp, guide=True)
    party_digest, guide_model = models.digest(False), models.get(True)
    secrets.write_record(hidden_camp, "0123456789ab", {"entry": "0123456789ab", "salt": "00", "result": {}})
    assert view.signature(hidden_camp) == party_sig
    assert view.signature(hidden_camp, guide=True) != guide_sig
    assert models.digest(False) == party_digest and models.get(True) == guide_model


def test_v7_a_hidden_creatures_secret_roll_leaves_the_partys_data_as_it_was(hidden_camp):
    models = app.Models(hidden_camp)
    party, guide = models.digest(False), models.digest(True)
    body = models.built(False)[1]
    ok(hidden_camp, "roll", "thief", "athletics", "--dr", "2", "--faces", "2", "--secret")
    assert models.digest(False) == party and models.built(False)[1] == body
    assert models.digest(True) != guide
    assert json.loads(body) == view.snapshot(hidden_camp)
