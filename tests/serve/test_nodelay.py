"""V-6: the server's connections are TCP with TCP_NODELAY, so a kept-alive connection answers as fast as
a new one. With Nagle's algorithm on, each request after the first on one connection waited ~40 ms for the
client's delayed ACK between the response's header and its body; here the option is read off the very
socket the server accepted, so the test does not depend on timing."""

from __future__ import annotations

import http.client
import os
import socket
import threading
import time

import pytest

from narateer_cli.commands import serve


def test_v6_the_listening_socket_is_tcp_with_nodelay():
    sock = serve._bind("127.0.0.1", 0, socket)
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY on accepted sockets only then
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        sock.close()


def accepted_socket_option(local: tuple, peer: tuple) -> int:
    """TCP_NODELAY of this process's socket whose own address is `local` and whose peer is `peer`."""
    for name in os.listdir("/proc/self/fd"):
        try:
            sock = socket.fromfd(int(name), socket.AF_INET, socket.SOCK_STREAM)
        except OSError:
            continue
        with sock:
            try:
                if sock.getsockname() == local and sock.getpeername() == peer:
                    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            except OSError:
                continue
    raise AssertionError("the server's side of the connection was not found")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads the server's socket through /proc/self/fd")
def test_v6_a_kept_alive_connection_has_nodelay_on_the_servers_side(hidden_camp):
    pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
    sock = serve._bind("127.0.0.1", 0, socket)
    server = serve.make_server(hidden_camp, "token", "127.0.0.1")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    conn = http.client.HTTPConnection(*sock.getsockname(), timeout=30)
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        for _ in range(3):  # one connection, kept alive
            conn.request("GET", "/data")
            resp = conn.getresponse()
            assert resp.status == 200 and b'"alley"' in resp.read()
        assert accepted_socket_option(sock.getsockname(), conn.sock.getsockname()) != 0
    finally:
        conn.close()
        server.should_exit = True
        thread.join(30)
        sock.close()
