"""T3-LINKS: the players' links of `serve --act` are handed out on the Guide's screen (a copy button and a QR code
each, under the page's own Content-Security-Policy), kept in the private folder so they survive a restart until
`--new-links` replaces them, served at the machine's LAN address with `--lan` (which the Host allow-list then
accepts), and an old link opens a page that tells the player to ask the Guide for a new one."""

from __future__ import annotations

import http.client
import os
import re
import stat
import subprocess
from html import unescape

import pytest

from narateer_cli.serve import links
from tests.conftest import refused, snapshot

from .conftest import Server

OLD_LINK_WORDS = "Ask your Guide for a new link"


def _link_file(camp):
    from narateer_cli.store.private import forget, location

    forget()
    return location(camp) / "serve" / "links.json"


def _guide_page(srv) -> str:
    status, headers, body = srv.get(f"/guide?token={srv.token}")
    assert status == 200
    return body


def _handed_out(body: str) -> dict:
    """{character id: (the link in its field, the link its copy button copies, its QR code's SVG)} of the page."""
    found = {}
    for item in re.findall(r"<li class=\"link\" data-player=\"([^\"]+)\">(.*?)</li>", body, re.S):
        cid, html = item
        field = unescape(re.search(r"class=\"link-url\"[^>]*value=\"([^\"]+)\"", html).group(1))
        button = unescape(re.search(r"class=\"link-copy\" data-link=\"([^\"]+)\"", html).group(1))
        svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
        found[unescape(cid)] = (field, button, svg)
    return found


def _drawn_matrix(svg: str) -> set:
    """The dark modules an SVG of segno's draws, read back from its path (`M x y`, then `m dx dy` moves and
    `h n` runs along the row at y - 0.5), as (row, column) pairs."""
    path = re.search(r"<path class=\"qrline\"[^>]* d=\"([^\"]+)\"", svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for op, a, b in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path):
        if op in "Mm":
            x, y = (float(a), float(b)) if op == "M" else (x + float(a), y + float(b))
        else:
            n = float(a) if op == "h" else float(a) - x
            dark |= {(int(y - 0.5), int(x) + i) for i in range(int(n))}
            x += n
    return dark


def _matrix_of(link: str, border: int = 4) -> set:
    """The dark modules of `link` as segno encodes it on its own, shifted by the quiet zone."""
    import segno

    code = segno.make(link, error="m", micro=False)
    return {(r + border, c + border) for r, row in enumerate(code.matrix) for c, v in enumerate(row) if v}


def test_t3_links_the_guides_screen_hands_out_each_link_with_a_copy_button_and_its_qr_code(acting):
    body = _guide_page(acting)
    handed = _handed_out(body)
    assert set(handed) == set(acting.players) and {"selka", "mira"} <= set(handed)
    for cid, (field, button, svg) in handed.items():
        printed = f"{acting.url}/play?token={acting.players[cid]}"
        assert field == button == printed
        drawn = _drawn_matrix(svg)
        assert drawn == _matrix_of(printed), cid  # the code a phone scans opens exactly the printed link
        other = next(f for c, (f, _, _) in handed.items() if c != cid)
        assert drawn != _matrix_of(other)
        assert "<image" not in svg and "href" not in svg  # drawn here, nothing fetched
    # the page stays under its strict policy: no inline style or script, the copy button is an asset of its own
    status, headers, _ = acting.get(f"/guide?token={acting.token}")
    csp = headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "default-src 'self'" in csp
    assert " style=" not in body and "<style" not in body
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", body))
    assert "<script src=\"/assets/links.js\" defer></script>" in body
    for name, kind in (("links.js", "text/javascript"), ("links.css", "text/css")):
        status, headers, text = acting.get(f"/assets/{name}")
        assert status == 200 and headers["Content-Type"].startswith(kind) and len(text) > 100
    assert "link-copy" in acting.get("/assets/links.js")[2]
    # the party's page and a player's page never list the links
    assert "data-player=" not in acting.get("/")[2]
    status, _, player_page = acting.get(f"/play?token={acting.players['selka']}")
    assert status == 200 and acting.players["mira"] not in player_page and "link-qr" not in player_page


def test_t3_links_are_kept_across_two_starts_in_the_private_folder(party_camp):
    subprocess.run(["git", "init", "-q", str(party_camp)], check=True)
    with Server(party_camp, "--act") as first:
        kept = dict(first.players)
    record = _link_file(party_camp)
    assert str(record).startswith(str(party_camp / ".git")), record  # no clone, pull or commit carries it
    assert stat.S_IMODE(os.stat(record).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(record.parent).st_mode) == 0o700
    status = subprocess.run(["git", "-C", str(party_camp), "status", "--porcelain", "--untracked-files=all",
                             "--ignored"], capture_output=True, text=True, check=True).stdout
    assert "links" not in status and kept["selka"] not in status
    with Server(party_camp, "--act") as second:
        assert second.players == kept  # the same links as before the restart
        assert second.token != first.token  # the Guide's own token is still new at every start
        for cid, token in kept.items():
            status, _, body = second.get(f"/play?token={token}")
            assert status == 200 and f"Act as {cid}" in body


def test_t3_links_outside_git_they_are_kept_in_the_ignored_private_folder(party_camp):
    with Server(party_camp, "--act") as first:
        kept = dict(first.players)
    record = _link_file(party_camp)
    assert record.parent.parent == party_camp / ".narateer" and record.is_file()
    assert ".narateer/" in (party_camp / ".gitignore").read_text().splitlines()
    with Server(party_camp, "--act") as second:
        assert second.players == kept


def test_t3_links_new_links_replaces_every_link_and_the_old_ones_stop_working(party_camp):
    with Server(party_camp, "--act") as first:
        old = dict(first.players)
    with Server(party_camp, "--act", "--new-links") as second:
        assert set(second.players) == set(old)
        assert not set(second.players.values()) & set(old.values())
        for cid, token in old.items():
            status, headers, body = second.get(f"/play?token={token}")
            assert status == 401 and OLD_LINK_WORDS in body, cid
            assert second.get(f"/play?token={second.players[cid]}")[0] == 200
    with Server(party_camp, "--act") as third:  # and the new ones are the kept ones from then on
        assert third.players == second.players


def test_t3_links_new_links_without_act_is_refused_in_one_line(party_camp):
    pytest.importorskip("uvicorn")
    refused(party_camp, 2, "serve", "--new-links", contains="--act")
    refused(party_camp, 2, "serve", "--act", "--lan", "--host", "0.0.0.0", contains="--lan or --host")


def test_t3_links_one_who_leaves_the_party_loses_the_link_and_the_others_keep_theirs(party_camp):
    with Server(party_camp, "--act") as first:
        old = dict(first.players)
    config = party_camp / "narateer.yaml"
    config.write_text(config.read_text().replace("party: [selka, mira]", "party: [selka]"))
    sheet = party_camp / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text().replace("pc: true", "pc: false"))
    with Server(party_camp, "--act") as second:
        assert second.players == {cid: token for cid, token in old.items() if cid != "mira"}
        assert second.get(f"/play?token={old['mira']}")[0] == 401  # one who left the party: the link is gone


@pytest.mark.parametrize("given", ["not-a-link", "", "x" * 300])
def test_t3_links_an_old_or_unknown_link_opens_a_page_in_the_players_words(acting, given):
    status, headers, body = acting.get(f"/play?token={given}")
    assert status == 401
    assert headers["Content-Type"].startswith("text/html")
    assert OLD_LINK_WORDS in body and "<h1>This link no longer works</h1>" in body
    assert "narateer serve" not in body and "token" not in body.lower()  # no shell command, no jargon
    assert headers["Content-Security-Policy"] and "<script" not in body and " style=" not in body
    for cid in ("selka", "mira", "sentry", "brawl"):
        assert cid not in body


def test_t3_links_a_tampered_record_is_not_trusted(party_camp):
    with Server(party_camp, "--act") as first:
        old = dict(first.players)
    record = _link_file(party_camp)
    forged = record.read_text().replace(old["selka"], "forged-forged-forged-1234")
    record.write_text(forged)
    with Server(party_camp, "--act") as second:
        assert "forged-forged-forged-1234" not in second.players.values()
        assert second.get("/play?token=forged-forged-forged-1234")[0] == 401
        assert "ignored the private links record" in "".join(second.err)


# ---- --lan -----------------------------------------------------------------------------------------------------

class _Udp:
    def __init__(self, answer):
        self.answer = answer

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, where):
        if isinstance(self.answer, Exception):
            raise self.answer

    def getsockname(self):
        return (self.answer, 40000)


class _Sockets:
    """A stand-in for the socket module: what the UDP trick finds, and what the machine's name resolves to."""
    AF_INET, SOCK_DGRAM = 2, 2

    def __init__(self, udp, named=()):
        self.udp, self.named = udp, named

    def socket(self, family, kind):
        return _Udp(self.udp)

    def gethostname(self):
        return "table"

    def getaddrinfo(self, name, port, family):
        return [(2, 1, 6, "", (a, 0)) for a in self.named]


def test_t3_links_the_lan_address_is_found_without_network_access():
    assert links.lan_address(_Sockets("192.168.1.23")) == "192.168.1.23"
    # no route at all: the addresses of the machine's own name, loopback skipped
    assert links.lan_address(_Sockets(OSError(101, "Network is unreachable"), ("127.0.1.1", "10.0.0.5"))) == "10.0.0.5"
    assert links.lan_address(_Sockets("0.0.0.0", ("127.0.1.1",))) is None
    assert links.lan_address(_Sockets(OSError(101, "Network is unreachable"), ())) is None


def test_t3_links_lan_with_no_network_is_one_line_and_exit_2(monkeypatch):
    from narateer_cli.commands import serve
    from narateer_cli.errors import BadInput

    monkeypatch.setattr(links, "lan_address", lambda: None)
    with pytest.raises(BadInput) as told:
        serve._lan_host("127.0.0.1")
    assert "no address of this machine on a local network" in str(told.value) and "\n" not in str(told.value)
    assert told.value.exit_code == 2


def _lan_or_skip() -> str:
    found = links.lan_address()
    if found is None:
        pytest.skip("this machine has no address on a local network")
    return found


def _ask(address: str, port: int, path: str, host: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection(address, port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        resp = conn.getresponse()
        return resp.status, resp.read(65536).decode("utf-8", "replace")
    finally:
        conn.close()


def test_t3_links_lan_serves_at_the_lan_address_which_the_host_allow_list_accepts(party_camp):
    lan = _lan_or_skip()
    before = snapshot(party_camp)
    with Server(party_camp, "--act", "--lan") as srv:
        port = int(srv.url.rsplit(":", 1)[1])
        assert srv.url == f"http://{lan}:{port}"
        assert all(f"http://{lan}:{port}/play?token=" in line for line in
                   [f"{srv.url}/play?token={t}" for t in srv.players.values()])
        assert "not loopback" in "".join(srv.err)  # the warning: anyone on that network reaches it
        assert _ask(lan, port, "/data", f"{lan}:{port}")[0] == 200
        assert _ask(lan, port, "/data", lan)[0] == 200
        status, body = _ask(lan, port, f"/play?token={srv.players['mira']}", f"{lan}:{port}")
        assert status == 200 and "Act as mira" in body
        for foreign in ("evil.example", f"evil.example:{port}", f"{lan}.evil.example:{port}", f"192.0.2.254:{port}"
                        if lan != "192.0.2.254" else f"192.0.2.253:{port}"):
            status, body = _ask(lan, port, "/data", foreign)
            assert status == 421 and "selka" not in body, foreign
        handed = _handed_out(_ask(lan, port, f"/guide?token={srv.token}", f"{lan}:{port}")[1])
        for cid, (field, _, svg) in handed.items():
            assert field.startswith(f"http://{lan}:{port}/play?token=")
            assert _drawn_matrix(svg) == _matrix_of(field)
    assert snapshot(party_camp) == before  # the links are private: no campaign file changed


def test_t3_links_without_lan_nothing_changes(party_camp):
    with Server(party_camp, "--act") as srv:
        assert srv.url.startswith("http://127.0.0.1:")
        assert not "".join(srv.err).strip()
