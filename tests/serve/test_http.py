"""`narateer serve` over real HTTP: the hidden-information filter on every response (V-2),
GET only, no raw file, no path escape, the Guide's token (V-3), loopback by default."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok

from .conftest import Server, hide_the_thief, poll

PARTY_PATHS = ("/", "/part", "/data", "/stats", "/assets/style.css", "/assets/app.js")
GUIDE_PATHS = ("/guide", "/guide/part", "/guide/data", "/guide/stats")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the tests that only read (each would otherwise start its own: a quarter second each)."""
    from tests.conftest import example_campaign

    with Server(hide_the_thief(example_campaign(tmp_path_factory.mktemp("http") / "camp"))) as srv:
        yield srv


@pytest.fixture
def own_server(hidden_camp):
    with Server(hidden_camp) as srv:
        yield srv


def test_party_data_is_the_encounter_without_the_hidden_thief(server):
    status, headers, body = server.get("/data")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    data = json.loads(body)
    assert data["encounter"] == "alley" and data["round"] == 1
    assert [p["id"] for p in data["order"]] == ["selka", "mira"]
    assert data["actor"] is None  # the thief acts, unseen
    assert data["order"][0]["dice"] == {"ready": 5, "used": 0, "wounded": 0}


@pytest.mark.parametrize("path", PARTY_PATHS)
def test_no_party_response_names_the_hidden_creature_or_its_total(server, path):
    status, _, body = server.get(path)
    assert status == 200
    assert "thief" not in body.lower() and "cutpurse" not in body.lower()
    assert "recorded" not in body


def test_the_event_stream_names_nobody(server):
    # the opening `retry:` and the first `change` event, whole (reading more would wait for a keep-alive)
    status, headers, body = server.get("/events", read=len("retry: 1000\n\nevent: change\ndata: "))
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
    assert "thief" not in body and "event: change" in body


@pytest.mark.parametrize("path", GUIDE_PATHS)
def test_the_guide_needs_the_token(server, path):
    assert server.get(path)[0] == 401
    assert server.get(path + "?token=wrong")[0] == 401
    wrong = server.token[:-1] + ("y" if server.token[-1] != "y" else "z")  # one character off
    assert server.get(path, headers={"Authorization": "Bearer " + wrong})[0] == 401
    assert server.get(path, headers={"Cookie": "narateer_guide=nope"})[0] == 401


def test_the_guide_sees_everything_with_the_token(server):
    status, _, body = server.get("/guide/data", headers={"Authorization": f"Bearer {server.token}"})
    data = json.loads(body)
    assert status == 200 and [p["id"] for p in data["order"]] == ["selka", "mira", "thief"]
    assert data["guide"]["recorded"] == {"thief": 4} and data["guide"]["concealed_from_party"] == ["thief"]
    status, headers, body = server.get(f"/guide?token={server.token}")
    assert status == 200 and "Cutpurse" in body
    cookie = headers["Set-Cookie"]
    assert "narateer_guide=" in cookie and "HttpOnly" in cookie and "Path=/guide" in cookie
    value = cookie.split(";", 1)[0]
    assert server.get("/guide/part", headers={"Cookie": value})[0] == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
@pytest.mark.parametrize("path", ["/", "/data", "/guide", "/nowhere"])
def test_only_get(server, method, path):
    status, headers, _ = server.get(path, method=method)
    assert status == 405 and headers["Allow"] == "GET"


@pytest.mark.parametrize("path", [
    "/narateer.yaml", "/characters/thief.yaml", "/encounters/alley.yaml", "/encounters/alley.log.yaml",
    "/assets/../narateer.yaml", "/assets/%2e%2e/narateer.yaml", "/assets/..%2f..%2fnarateer.yaml",
    "/assets/%2e%2e%2f%2e%2e%2fcharacters%2fthief.yaml", "/assets/view.py", "/assets/", "//etc/passwd",
    "/static/../../etc/passwd", "/guide/../characters/thief.yaml", "/.narateer/undo/alley/00000003.json",
])
def test_no_file_or_path_escape(server, path):
    status, _, body = server.get(path)
    assert status == 404 or (status == 200 and body.startswith("<!doctype html>"))
    assert "thief" not in body.lower() and "action_dice" not in body and "root:" not in body


def test_pages_load_nothing_from_elsewhere(server):
    _, headers, body = server.get("/")
    assert "http://" not in body and "https://" not in body and "//" not in body.replace("<!doctype", "")
    assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_a_command_changes_what_is_served(own_server, hidden_camp):
    server = own_server
    ok(hidden_camp, "turn", "end", "--next", "selka")
    ok(hidden_camp, "turn", "start", "selka")
    ok(hidden_camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "2")
    data = poll(lambda: (d := json.loads(server.get("/data")[2]))["last_check"] and d)
    assert data["last_check"]["faces"] == [2] and data["last_check"]["outcome"] == "Failure"
    assert data["actor"] == "selka" and "thief" not in json.dumps(data)


def test_loopback_by_default_and_a_warning_with_the_token_otherwise(hidden_camp):
    with Server(hidden_camp, "--host", "0.0.0.0") as srv:
        warning = poll(lambda: "".join(srv.err))
        assert "warning" in warning and "not loopback" in warning and srv.token in warning
    with Server(hidden_camp) as srv:
        assert srv.url.startswith("http://127.0.0.1:") and not "".join(srv.err)


def test_the_browsers_icon_request_is_answered_empty_not_an_error(server):
    """Every page load asks for /favicon.ico: it is answered with nothing (no error in the browser's console),
    and what it serves is no file of the campaign."""
    status, _, body = server.get("/favicon.ico")
    assert status == 204 and body == ""
