"""V-6: `narateer serve` answers only a request addressed to loopback or to the `--host` it was given.
A page on a foreign name whose DNS was rebound to 127.0.0.1 sends its own name as Host: it gets 421
and nothing of the campaign, on every route."""

from __future__ import annotations

import http.client
import socket

import pytest

from .conftest import Server

ROUTES = ("/", "/part", "/data", "/events", "/stats", "/assets/app.js", "/assets/style.css", "/nowhere",
          "/guide", "/guide/part", "/guide/data", "/guide/events", "/guide/stats")
FOREIGN = ("evil.example", "evil.example:{port}", "localhost.evil.example:{port}", "127.0.0.1.evil.example",
           "localhost:abc", "[::1]evil:{port}", "0x7f.0.0.1", "", "[]:{port}", "localhost:{port}, evil.example")


def port_of(server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def ask(server, path: str, host: str | None, method: str = "GET", headers: dict | None = None):
    """(status, first 64 KiB of the body) for one request sent with this Host header (None: none at all)."""
    conn = http.client.HTTPConnection("127.0.0.1", port_of(server), timeout=30)
    try:
        if host is None:
            conn.putrequest(method, path, skip_host=True)
            for name, value in (headers or {}).items():
                conn.putheader(name, value)
            conn.endheaders()
        else:
            conn.request(method, path, headers={"Host": host.format(port=port_of(server)), **(headers or {})})
        resp = conn.getresponse()
        return resp.status, resp.read(65536).decode("utf-8", "replace")
    finally:
        conn.close()


def test_v6_a_foreign_host_gets_421_and_nothing_of_the_campaign_on_every_route(server):
    bearer = {"Authorization": f"Bearer {server.token}"}
    for path in ROUTES:
        for host in FOREIGN:
            status, body = ask(server, path + (f"?token={server.token}" if path.startswith("/guide") else ""),
                               host, headers=bearer)
            assert status == 421, (path, host, status)
            assert "421" in body and len(body) < 200, (path, host)
            for word in ("alley", "selka", "mira", "thief", "Cutpurse", "round"):
                assert word not in body, (path, host, word)
    assert ask(server, "/data", "evil.example", method="POST")[0] == 421  # refused before the method is looked at


def test_v6_loopback_names_are_answered_with_or_without_a_port(server):
    for host in ("localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}", "localhost", "127.0.0.1", "LocalHost:{port}",
                 "127.0.0.2:{port}", "[::1]"):
        status, body = ask(server, "/data", host)
        assert status == 200 and '"encounter":"alley"' in body, host
    status, body = ask(server, "/guide/data", "localhost:{port}", headers={"Authorization": f"Bearer {server.token}"})
    assert status == 200 and "thief" in body


def test_v6_an_http_1_0_request_with_no_host_is_refused(server):
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=30) as sock:
        sock.sendall(b"GET /data HTTP/1.0\r\n\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 421 ") and b"selka" not in reply


def test_v6_bound_to_every_address_an_ip_is_answered_and_a_name_is_not(hidden_camp):
    with Server(hidden_camp, "--host", "0.0.0.0") as srv:
        assert ask(srv, "/data", "192.0.2.7:{port}")[0] == 200  # the machine's LAN address, as typed by a player
        assert ask(srv, "/data", "localhost:{port}")[0] == 200
        assert ask(srv, "/data", "evil.example:{port}")[0] == 421
        assert ask(srv, "/events", "rebound.evil.example")[0] == 421


@pytest.mark.parametrize("header, name", [
    ("localhost:8700", "localhost"), ("[::1]:8700", "[::1]"), ("[::1]", "[::1]"), ("127.0.0.1", "127.0.0.1"),
    ("Example.COM:80", "example.com"), ("localhost:", "localhost"), ("localhost:x", None), ("[::1]x", None),
    ("", None), ("::1", None), ("a:1:2", None), ("[]", None),
])
def test_v6_the_host_header_name_without_its_port(header, name):
    from narateer_cli.serve.app import host_name

    assert host_name(header) == name


@pytest.mark.parametrize("given, asked, answered", [
    ("192.0.2.7", "192.0.2.7", True), ("192.0.2.7", "192.0.2.8", False), ("table.lan", "table.lan", True),
    ("table.lan", "evil.example", False), ("::1", "[::1]", True), ("2001:db8::5", "[2001:db8::5]", True),
    ("2001:db8::5", "2001:db8::5", False), ("127.0.0.1", "127.255.0.9", True), ("0.0.0.0", "10.0.0.4", True),
    ("::", "[2001:db8::9]", True), ("0.0.0.0", "table.lan", False), ("127.0.0.1", "0.0.0.0", False),
])
def test_v6_the_host_given_to_serve_is_answered_too(given, asked, answered):
    from narateer_cli.serve.app import HostCheck, host_name

    assert HostCheck(None, given).known(host_name(asked)) is answered
