"""K-6: `--help` and the players' page show no rule id; they say the rule in words. The ids stay in
`--json`, in test names and in docs/rules and docs/design.md.

Every command's `--help` is read as a person reads it: outside a campaign (every game's verbs) and inside
the example campaign of each game, the three built-in ones and the two example games, following every group
down to its subcommands as `--help` lists them, so a verb added tomorrow is read too.

The page is read as a browser gets it: every GET route the served application has (found in its route
table, so a route added tomorrow is read too), the party's and the Guide's, with `serve --act` and each
player's link, and the page's own files (its script and style sheet, comments included).
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from tests.conftest import run
from tests.systems.kit.games import MOVES, POOL, forget, register
from tests.test_ids_resolve import ID

GAMES = ("narateer", "open-adventure", "d20-cards")
EXAMPLE_GAMES = {"moves": (MOVES, "narateer_moves"), "pool": (POOL, "narateer_pool")}
HEADING = re.compile(r"^\S.*[Cc]ommands.*:$")  # "Commands:", "Shared commands:", "Open Adventure commands (...):"


def listed(help_text: str) -> list[str]:
    """The command names a `--help` lists under its command headings."""
    names, inside = [], False
    for line in help_text.splitlines():
        if HEADING.match(line):
            inside = True
        elif inside and (m := re.match(r"  (\S+)", line)):
            names.append(m.group(1))
        elif line and not line.startswith(" "):
            inside = False
    return names


def every_help(camp) -> dict[str, str]:
    """'words' -> what `narateer [words] --help` prints, for the top and every command and subcommand."""
    seen, todo = {}, [()]
    while todo:
        words = todo.pop()
        r = run(camp, *words, "--help")
        assert r.code == 0 and r.err == "", (words, r.err)
        seen[" ".join(words) or "narateer"] = r.out
        todo += [(*words, name) for name in listed(r.out) if (*words, name) not in map(tuple, todo)]
    return seen


def ids_shown(texts: dict[str, str]) -> list[str]:
    return [f"{where}: {line.strip()}" for where, text in texts.items()
            for line in text.splitlines() if ID.search(line)]


@pytest.fixture
def example_games(tmp_path, monkeypatch):
    """The two example games on the path, as installed games would be; forgotten afterwards."""
    folder = tmp_path / "dists"
    for name, (path, package) in EXAMPLE_GAMES.items():
        register(folder, name, package)
        monkeypatch.syspath_prepend(str(path))
    monkeypatch.syspath_prepend(str(folder))
    yield
    forget(list(EXAMPLE_GAMES), {package for _, package in EXAMPLE_GAMES.values()})


@pytest.mark.parametrize("game", [None, *GAMES, *EXAMPLE_GAMES], ids=lambda g: g or "outside-a-campaign")
def test_no_help_shows_a_rule_id(game, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    if game in EXAMPLE_GAMES:
        request.getfixturevalue("example_games")
    camp = None
    if game:
        camp = tmp_path / game
        r = run(None, "init", str(camp), "--system", game, "--example")
        assert r.code == 0, r.err
    helps = every_help(camp)
    assert len(helps) > 20, sorted(helps)  # the walk found the commands, not only the top
    assert not ids_shown(helps), "\n".join(ids_shown(helps))


def test_the_walk_would_see_an_id():
    """The check itself: an id in a help line is found, and a listing's names are followed."""
    text = "Usage: x\n\nShared commands:\n  roll   Make one check (R-CHK-10).\n  turn   Turns.\n\nOptions:\n  -h\n"
    assert listed(text) == ["roll", "turn"]
    assert ids_shown({"roll": text}) == ["roll: roll   Make one check (R-CHK-10)."]


# -- the page, as the server sends it -------------------------------------------------------------------

GUIDE = "guide-token"
ENDLESS = {"/events", "/guide/events"}  # a stream of digests of `/data`, which is read itself


async def _get(app, path: str, query: str = "", headers: dict | None = None) -> tuple[int, str]:
    """One GET through the ASGI application, as a browser on this machine sends it: (status, body)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": query.encode(), "server": ("127.0.0.1", 8700), "client": ("127.0.0.1", 50000),
             "headers": [(b"host", b"127.0.0.1:8700"),
                         *((k.lower().encode(), v.encode()) for k, v in (headers or {}).items())]}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()


def served(camp) -> dict[str, str]:
    """'who path' -> the body of every GET route of `serve --act` over `camp`: the party's, the Guide's (with
    the token) and each player's link."""
    from starlette.routing import Route

    from narateer_cli.serve.app import ASSETS, make_app
    from narateer_cli.serve.view import whole_party
    from narateer_cli.store.campaign import Campaign

    players = {f"link-{cid}": cid for cid in sorted(whole_party(Campaign(camp)))}
    app = make_app(camp, GUIDE, players=players)
    inner = app.app.app  # HostCheck(GetOnly(Starlette))
    paths = [r.path for r in inner.routes if isinstance(r, Route) and "GET" in (r.methods or ())]
    assert "/" in paths and "/guide" in paths and "/play" in paths, paths
    asked = []
    for path in paths:
        if path in ENDLESS:
            continue
        if path == "/assets/{name}":
            asked += [(f"/assets/{name}", "", {}, "asset") for name in ASSETS]
        elif path.startswith("/play"):
            asked += [(path, f"token={t}", {"X-Narateer-Token": t}, cid) for t, cid in players.items()]
        elif path.startswith("/guide"):
            asked.append((path, "", {"Authorization": f"Bearer {GUIDE}", "X-Narateer-Token": GUIDE}, "guide"))
        else:
            asked.append((path, "", {}, "party"))
    shown = {}
    for path, query, headers, who in asked:
        status, body = asyncio.run(_get(app, path, query, headers))
        assert status == (204 if path == "/favicon.ico" else 200), (who, path, status, body[:200])
        shown[f"{who} {path}"] = body
    return shown


@pytest.mark.parametrize("game", GAMES)
def test_the_page_and_the_guides_forms_show_no_rule_id(game, tmp_path):
    pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
    from tests.serve import scenes

    shown = served(scenes.SCENES[game](tmp_path / game))
    assert "<section" in shown["party /"] and "<section" in shown["guide /guide"]
    assert '"verb"' in shown["guide /guide/forms"] and any(k.endswith(" /play/forms") for k in shown)
    assert not ids_shown(shown), "\n".join(ids_shown(shown))


@pytest.mark.parametrize("game", EXAMPLE_GAMES)
def test_an_example_games_page_and_forms_show_no_rule_id(game, tmp_path, example_games):
    pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
    camp = tmp_path / game
    assert run(None, "init", str(camp), "--system", game, "--example").code == 0
    shown = served(camp)
    assert '"verb"' in shown["guide /guide/forms"]
    assert not ids_shown(shown), "\n".join(ids_shown(shown))


def test_the_page_walk_would_see_an_id(tmp_path, monkeypatch):
    """The check itself: an id in what a route sends is found (here in the Guide's forms)."""
    pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
    from narateer_cli.serve import acting
    from tests.serve import scenes

    camp = scenes.SCENES["narateer"](tmp_path / "narateer")
    monkeypatch.setattr(acting, "forms", lambda root, *a: [{"verb": "roll", "help": "Make one check (R-CHK-10)."}])
    assert ids_shown(served(camp)) != []
