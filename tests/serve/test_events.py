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
        ok(hidden_camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "2", "--secret")
        seen = [first]
        while seen[-1] != digest(server, "/data") and len(seen) < 10:  # each command may be seen on its own
            seen.append(party.next_change())
        assert seen[-1] == digest(server, "/data") and len(seen) > 1
        assert all(a != b for a, b in zip(seen, seen[1:]))  # an event only when what /data serves changed
    finally:
        party.close()


class Looks:
    """An event stream's request, counting the stream's looks at the files (each computes the view's
    digest): it stays connected until `limit` looks have been taken after `start()`, then disconnects."""

    def __init__(self, models: app.Models, guide: bool):
        self.count = 0
        self.limit = None
        digest = models.digest

        def counted(view_of_guide):
            assert view_of_guide is guide
            self.count += 1
            return digest(view_of_guide)

        models.digest = counted

    def start(self, looks: int):
        self.limit = self.count + looks

    async def is_disconnected(self) -> bool:
        return self.limit is not None and self.count >= self.limit


def events_after(camp, *command: str, looks: int = 3) -> dict:
    """For the party's view (False) and the Guide's (True): the digest its stream sends first, and every
    change event it sends in the `looks` looks at the files it takes after `command` ran. The absence of
    an event is a count after those looks, with no clock in it."""
    import anyio

    async def watch():
        streams = {}
        for guide in (False, True):
            models = app.Models(camp)
            request = Looks(models, guide)
            stream = app._stream(request, models, guide, 0.0)
            assert await stream.__anext__() == "retry: 1000\n\n"
            first = await stream.__anext__()
            streams[guide] = (request, stream, first.split("data: ", 1)[1].strip())
        ok(camp, *command)
        seen = {}
        for guide, (request, stream, first) in streams.items():
            request.start(looks)
            seen[guide] = (first, [chunk async for chunk in stream])
            assert request.count == request.limit  # the stream did look `looks` times after the command
        return seen

    return anyio.run(watch)


def test_v7_no_party_event_for_a_secret_roll_by_a_creature_hidden_from_the_party(hidden_camp):
    seen = events_after(hidden_camp, "roll", "--force", "thief", "athletics", "--dr", "2", "--faces", "2", "--secret")
    guide_first, guide_saw = seen[True]
    assert guide_saw == [f"event: change\ndata: {app.Models(hidden_camp).digest(True)}\n\n"]  # the Guide's saw it
    assert guide_saw[0] != f"event: change\ndata: {guide_first}\n\n"
    assert seen[False][1] == []  # three looks at the files after the thief's roll, and no event for the party
    # something the party does see: one event, carrying the digest of its new view
    first, party_saw = events_after(hidden_camp, "turn", "end", "--next", "selka")[False]
    assert first == seen[False][0]
    assert party_saw == [f"event: change\ndata: {app.Models(hidden_camp).digest(False)}\n\n"]
    assert first not in party_saw[0]


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
    ok(hidden_camp, "roll", "--force", "thief", "athletics", "--dr", "2", "--faces", "2", "--secret")
    assert models.digest(False) == party and models.built(False)[1] == body
    assert models.digest(True) != guide
    assert json.loads(body) == view.snapshot(hidden_camp)
