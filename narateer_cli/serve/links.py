"""The players' links of `serve --act`: kept across restarts, handed out on the Guide's screen, reachable at the table.

- `kept_links`: one token per party member, kept in the campaign's private folder (`serve/links.json`, sealed
  to this machine and campaign, folder 0700 and file 0600, never in a work tree git could commit), so a link
  a player saved keeps working when the Guide starts the server again; `new=True` (`serve --new-links`)
  issues new ones and the old ones stop working.
- `lan_address`: this machine's address on the local network, found without sending anything.
- `handout`: the Guide's part of the page that hands the links out: each link in a read-only field, a copy
  button (links.js, an asset of the page: the page's Content-Security-Policy refuses inline script) and a
  QR code drawn here, offline, as SVG by segno.
- `expired_page`: what an old or unknown link opens, in the player's words.
"""

from __future__ import annotations

import os
import secrets
import stat
from html import escape
from pathlib import Path

FOLDER = "serve"
NAME = "links.json"
KIND = "links"  # the seal's kind: a links record cannot pass for any other private record
LIMIT = 256 * 1024  # bytes read of the record, at most
TOKEN_BYTES = 18
# where the UDP trick "sends" (nothing is sent: connecting a UDP socket only picks the route and its source
# address); private ranges, so no packet could reach the internet even if one were sent
PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


# ---- the tokens, kept ------------------------------------------------------------------------------------------

def record_path(root: Path) -> Path:
    from ..store.private import folder

    return folder(root, FOLDER) / NAME


def _read(root: Path) -> dict:
    """{character id: token} as kept, or {} when there is no record, or it is not one this machine sealed for
    this campaign (a copied or hand-made file is never trusted: it would let its maker act)."""
    path = record_path(root)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return {}
        data = fh.read(LIMIT + 1)
    if len(data) > LIMIT:
        return {}
    from ..store.private import opened

    try:
        record = opened(root, KIND, NAME, data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}
    tokens = record.get("tokens") if isinstance(record, dict) else None
    if not isinstance(tokens, dict):
        return {}
    return {cid: tok for cid, tok in tokens.items() if isinstance(tok, str) and len(tok) >= 16}


def kept_links(root: Path, party, new: bool = False) -> dict:
    """The players' links, {token: character id}: the kept token of each party member, a new one for a member
    who has none (and for everyone when `new`); a token of someone no longer in the party is dropped. The
    record is written (whole, 0600, under the campaign's lock) only when it changed."""
    from ..store.private import sealed
    from ..store.txn import Lock, atomic_write

    wanted = {str(cid) for cid in party}
    if not new:
        kept = _read(root)
        if set(kept) == wanted:  # nothing to write: no need to wait for a command holding the lock
            return {tok: cid for cid, tok in kept.items()}
    with Lock(root):
        kept = {} if new else _read(root)
        tokens = {cid: kept.get(cid) or secrets.token_urlsafe(TOKEN_BYTES) for cid in sorted(wanted)}
        if tokens != kept or new:
            atomic_write(root, record_path(root), sealed(root, KIND, NAME, {"tokens": tokens}), mode=0o600)
    return {tok: cid for cid, tok in tokens.items()}


# ---- the address a phone at the table can reach ----------------------------------------------------------------

def lan_address(socket_module=None) -> str | None:
    """This machine's IPv4 address on the local network, or None when it has none. Connecting a UDP socket
    sends nothing: the kernel only picks the route to a private address, and with it the source address; when
    no route exists, the addresses the machine's own name resolves to are looked at instead."""
    import ipaddress

    sock_mod = socket_module
    if sock_mod is None:
        import socket as sock_mod

    def usable(text) -> bool:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        return address.version == 4 and not (address.is_loopback or address.is_unspecified or address.is_multicast)

    for probe in PROBES:
        try:
            with sock_mod.socket(sock_mod.AF_INET, sock_mod.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found = udp.getsockname()[0]
        except OSError:
            continue
        if usable(found):
            return found
    try:
        infos = sock_mod.getaddrinfo(sock_mod.gethostname(), None, sock_mod.AF_INET)
    except OSError:
        return None
    for info in infos:
        if usable(info[4][0]):
            return info[4][0]
    return None


# ---- the Guide's screen: each link with a copy button and a QR code -------------------------------------------

def qr_svg(link: str) -> str:
    """The QR code of `link` as an SVG element (no inline style: colours are SVG attributes), drawn offline."""
    import segno

    code = segno.make(link, error="m", micro=False)
    return code.svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="qr-code", title=link,
                            omitsize=True)


def handout(base_url: str, players: dict) -> str:
    """The Guide's "Players' links" section: per player (by name), the link, a copy button and its QR code."""
    rows = []
    for token, cid in sorted(players.items(), key=lambda item: item[1]):
        link = f"{base_url}/play?token={token}"
        rows.append(
            f"<li class=\"link\" data-player=\"{escape(cid)}\"><div class=\"link-who\">{escape(cid)}</div>"
            f"<input class=\"link-url\" type=\"text\" readonly value=\"{escape(link)}\" "
            f"aria-label=\"{escape(cid)}'s link\">"
            f"<button type=\"button\" class=\"link-copy\" data-link=\"{escape(link)}\">Copy link</button>"
            f"<span class=\"link-copied\" aria-live=\"polite\"></span>"
            f"<figure class=\"link-qr\">{qr_svg(link)}<figcaption>Scan with {escape(cid)}'s phone</figcaption>"
            "</figure></li>")
    if not rows:
        rows.append("<li class=\"quiet\">No party, so no players' links: list them in narateer.yaml "
                    "(<code>party: [selka, mira]</code>).</li>")
    return ("<link rel=\"stylesheet\" href=\"/assets/links.css\"><script src=\"/assets/links.js\" defer></script>"
            "<section id=\"links\" class=\"links\"><h2>Players' links</h2>"
            "<p class=\"quiet\">Each player opens their own link (or scans its code); it works until you run "
            "<code>narateer serve --act --new-links</code>.</p>"
            f"<ul class=\"link-list\">{''.join(rows)}</ul></section>")


def expired_page() -> str:
    """The page an old or unknown player's link opens: short, and in words a player can act on."""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta name=\"color-scheme\" content=\"light dark\"><title>This link no longer works</title>"
            "<link rel=\"stylesheet\" href=\"/assets/style.css\"></head>"
            "<body data-view=\"party\"><main id=\"main\" class=\"expired\"><h1>This link no longer works</h1>"
            "<p>This link is old, or was never a player's link for this game.</p>"
            "<p><b>Ask your Guide for a new link.</b></p></main></body></html>\n")

