"""`narateer serve`: the players' view of the current encounter in a browser."""

from __future__ import annotations

import click

from .common import command

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    import ipaddress

    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@command(help="""Serve a live page of the current encounter for the players; --act lets it act.

\b
The party's page leaves out everything hidden from the whole party;
/guide shows everything and needs the token printed at start-up.
It answers only a browser that asks for localhost, 127.0.0.1, [::1] or the
--host given (with --host 0.0.0.0: any of this machine's IP addresses);
any other name gets 421.
With --act the Guide's page runs any verb (a form per verb, faces typed or
rolled for you, odds first, undo and unveil), and one link per party
member is printed: each runs only that character's checks. The Guide's
page shows the links too, each with a copy button and a QR code. A link
keeps working when the server starts again (it is kept in the campaign's
private folder) until --new-links issues new ones.
--lan serves at this machine's address on the local network, so a phone
at the table can open the links (anyone on that network can reach it).
Needs the optional extra: pip install 'narateer[serve]'.

\b
Example:
  narateer serve
  narateer serve --act
  narateer serve --act --lan
  narateer serve --act --new-links
  narateer serve --host 0.0.0.0 --port 8700""")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8700, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--act", is_flag=True, help="Let the Guide's page and each player's link act.")
@click.option("--lan", is_flag=True,
              help="Listen on this machine's address on the local network (not loopback), so phones at the table "
                   "can open the players' links; the links printed use that address.")
@click.option("--new-links", is_flag=True,
              help="With --act: issue new players' links; the old ones stop working.")
def serve_cmd(app, host, port, act, lan, new_links):
    import secrets
    import socket

    from ..errors import BadInput

    root = app.campaign.root
    app.campaign.system  # an unknown system is exit 2 now, not on the first page load
    if new_links and not act:
        raise BadInput("--new-links issues the players' links, which only --act prints",
                       fix="narateer serve --act --new-links")
    if lan:
        host = _lan_host(host)
    _server()  # a missing web extra is one line before any socket or file is made
    token = secrets.token_urlsafe(18)
    players = _player_links(app.campaign, new_links) if act else None
    sock = _bind(host, port, socket)
    url = _url(host, sock)
    # bound to every address, the Guide's page hands the links out at the address its own browser used
    everywhere = host.strip("[]") in ("0.0.0.0", "::")
    server = make_server(root, token, host, players, link_base=None if everywhere else url)
    _announce(host, sock, token, players)
    server.run(sockets=[sock])


def _lan_host(host: str) -> str:
    """`--lan`: this machine's LAN address (one line, exit 2, when it has none or --host names another)."""
    from ..errors import BadInput
    from ..serve.links import lan_address

    if host != "127.0.0.1":
        raise BadInput("give --lan or --host, not both", fix="narateer serve --act --lan")
    found = lan_address()
    if found is None:
        raise BadInput("--lan found no address of this machine on a local network (it is on none)",
                       fix="join the table's network (Wi-Fi) first, or give --host ADDRESS")
    return found


def _player_links(campaign, new: bool = False) -> dict:
    """The players' links of `serve --act`: one token per party member (`party:` in narateer.yaml, else every
    player character), {token: character id}. Each is kept in the campaign's private folder, so it works
    again at the next start; `new` (`--new-links`) issues new ones and the old ones stop working."""
    from ..serve.links import kept_links
    from ..serve.view import whole_party

    return kept_links(campaign.root, whole_party(campaign), new)


def make_server(root, token: str, host: str, players: dict | None = None, link_base: str | None = None):
    """The uvicorn server of campaign `root`, answering only requests addressed to loopback or `host`
    (a request for any other Host is refused); run it on a socket from `_bind`. `players`: the links of `--act`
    (None: a read-only page); `link_base`: the address they are handed out at on the Guide's page."""
    uvicorn, make_app = _server()
    config = uvicorn.Config(make_app(root, token, host=host, players=players, link_base=link_base),
                            log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=1)
    return uvicorn.Server(config)


def _server():
    """(uvicorn, make_app), or one line naming the missing web extra (exit 2)."""
    try:
        import uvicorn

        from ..serve.app import make_app
    except ImportError as exc:
        from ..errors import BadInput

        raise BadInput(f"narateer serve needs the web extra ({exc.name} is not installed)",
                       fix="pip install 'narateer[serve]'") from None
    return uvicorn, make_app


def _announce(host: str, sock, token: str, players: dict | None = None):
    """The addresses (with --act, one link per player), and a warning on stderr when the page is reachable
    beyond loopback."""
    url = _url(host, sock)
    click.echo(f"narateer serve: party view {url}/  (Ctrl-C stops)")
    for ptoken, cid in sorted((players or {}).items(), key=lambda item: item[1]):
        click.echo(f"narateer serve: {cid}'s link {url}/play?token={ptoken}")
    if players == {}:
        click.echo("narateer serve: no party, so no players' links: list them in narateer.yaml "
                   "(`party: [selka, mira]`) or mark each sheet `pc: true`", err=True)
    click.echo(f"narateer serve: Guide view {url}/guide?token={token}")
    if not is_loopback(host):
        acts = " and can act with the links above" if players else ""
        click.echo(f"narateer serve: warning: listening on {host}, not loopback: anyone who can reach this machine "
                   f"sees the party view{acts}; the Guide's token is {token} (keep it to yourself)", err=True)


def _url(host: str, sock) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{sock.getsockname()[1]}"


def _bind(host: str, port: int, socket):
    """The listening socket. It is made as TCP by name (IPPROTO_TCP), with TCP_NODELAY: asyncio turns
    Nagle's algorithm off on each accepted connection only when the socket says it is TCP, and with Nagle
    on, a kept-alive connection waits ~40 ms for the client's delayed ACK between a response's header and
    its body. The option is also set here, and Linux hands it on to every accepted connection."""
    from ..errors import BadInput

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot listen on {host}:{port} ({exc.strerror})",
                       fix="pick another --port (0: any free one) or --host") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock
