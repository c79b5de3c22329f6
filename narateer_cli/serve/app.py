"""The web application behind `narateer serve`, on Starlette.

Routes (GET only; any other method is 405 before routing: the page has no write endpoint):

    /            the party's page        /guide            the Guide's page (token)
    /part        its <main>, fresh       /guide/part
    /data        its view model (JSON)   /guide/data
    /events      server-sent events      /guide/events
    /stats       the luck page           /guide/stats
    /assets/style.css, /assets/app.js    the page's own two files, from a fixed table

A request whose Host header is not loopback or the `--host` given is 421 before anything else.
Nothing else is served: no campaign file, no path built from the request. Every party
response is built from `view.snapshot(root, guide=False)`, which has already left out what the
party must not see. The Guide's routes need the token printed at start-up: `?token=T`
(which also sets a cookie), the cookie, or `Authorization: Bearer T`, compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from . import page, view

COOKIE = "narateer_guide"
ASSETS = {"style.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "act.js": "text/javascript; charset=utf-8",
          "links.js": "text/javascript; charset=utf-8", "links.css": "text/css; charset=utf-8"}
# the only POST routes, and only with `serve --act`
ACT_PATHS = ("/guide/act", "/guide/declare", "/guide/withdraw", "/guide/roll", "/guide/dismiss", "/play/act",
             "/play/answer", "/play/face")
BODY_LIMIT = 16 * 1024  # bytes in one action's request
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Models:
    """The view models as served: for each view, the JSON body `/data` sends and its digest, rebuilt only
    when the stat signature of the files that view reads changes (the party's leaves the private folder
    out). The event stream compares digests, so it fires only when what that view shows changed."""

    def __init__(self, root: Path):
        self.root = root
        self.lock = threading.Lock()
        self.cached: dict = {}
        self.version = 0  # bumped by every action from the page: its streams look at once

    def bump(self):
        self.version += 1

    def built(self, guide: bool) -> tuple:
        """(model, JSON body, digest) of the view, fresh as of the files' signature now."""
        sig = view.signature(self.root, guide)
        with self.lock:
            hit = self.cached.get(guide)
            if hit is not None and hit[0] == sig:
                return hit[1]
        model = view.snapshot(self.root, guide)
        body = json.dumps(model, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        built = (model, body, hashlib.sha256(body).hexdigest()[:16])
        with self.lock:
            self.cached[guide] = (sig, built)
        return built

    def get(self, guide: bool) -> dict:
        return self.built(guide)[0]

    def digest(self, guide: bool) -> str:
        return self.built(guide)[2]


class GetOnly:
    """No write endpoint; every method but GET is 405, whatever the path. With `serve --act` the
    two action routes take POST and only POST: GET never writes."""

    def __init__(self, app, act: bool = False):
        self.app = app
        self.act = act

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            wanted = "POST" if self.act and scope["path"] in ACT_PATHS else "GET"
            if scope["method"] != wanted:
                response = Response(f"only {wanted} is served here\n", status_code=405,
                                    headers={"Allow": wanted, **HEADERS}, media_type="text/plain")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HostCheck:
    """Answer only a request addressed to this machine by a loopback name (`localhost`, 127.x,
    `[::1]`) or to the `--host` the server was started with; any other Host header (a page on
    evil.example whose name was rebound to this address sends its own name) is 421, whatever the path.
    Bound to every address (0.0.0.0 or ::), any IP address is accepted too: a page can only send an
    address as Host when that address is its own origin, so no rebound name gets through."""

    def __init__(self, app, host: str):
        self.app = app
        given = host_name(host if host.startswith("[") or ":" not in host else f"[{host}]")
        self.given = {given} if given else set()
        self.any_address = given in ("0.0.0.0", "[::]")

    def allowed(self, scope) -> bool:
        values = [v.decode("latin-1") for k, v in scope.get("headers") or () if k == b"host"]
        return len(values) == 1 and self.known(host_name(values[0]))

    def known(self, name: str | None) -> bool:
        if name is None:
            return False
        if name == "localhost" or name in self.given:
            return True
        address = _address(name)
        return address is not None and (address.is_loopback or self.any_address)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and not self.allowed(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            response = Response("421: this server answers only to localhost, 127.0.0.1, [::1] or the --host "
                                "it was started with\n", status_code=421, media_type="text/plain", headers=HEADERS)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def host_name(header: str) -> str | None:
    """A Host header's name without its port, lower-cased (`[::1]:8700` is `[::1]`); None when it is not
    one name with at most a numeric port."""
    value = header.strip().lower()
    if value.startswith("["):
        name, _, rest = value.partition("]")
        name += "]"
        port = rest[1:] if rest.startswith(":") else None if rest else ""
    else:
        name, sep, port = value.partition(":")
    if port is None or (port and not port.isdigit()) or name in ("", "[]"):
        return None
    return name


def _address(name: str):
    import ipaddress

    try:
        return ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)
    except ValueError:
        return None


def make_app(root: Path, token: str, poll: float = 0.25, host: str = "127.0.0.1", players: dict | None = None,
             link_base: str | None = None):
    """The ASGI application serving campaign `root`; `token` guards /guide; `poll` is how often the
    event stream looks at the files' stat signature; `host` is the address given to `serve --host`.
    `players` ({token: character id}, `serve --act`): the page can act; None: read-only. `link_base`: the
    address the players' links are handed out at on the Guide's screen (None: the one the Guide's browser used)."""
    site = Site(root, token, poll)
    site.players, site.link_base = players, link_base
    routes = []
    for path, handler in (("", site.full), ("/part", site.part), ("/data", site.data), ("/events", site.events),
                          ("/stats", site.stats)):
        routes.append(Route(path or "/", site.party(handler)))
        routes.append(Route("/guide" + path, site.guarded(handler)))
    routes.append(Route("/assets/{name}", site.asset))
    routes.append(Route("/favicon.ico", site.no_icon))
    if players is not None:
        from .acting import acting_routes

        routes.extend(acting_routes(site, players))
    app = Starlette(routes=routes)
    return HostCheck(GetOnly(app, act=players is not None), host)


class Site:
    """The handlers of one served campaign: each page has a party route and a /guide route (which sees all)."""

    def __init__(self, root: Path, token: str, poll: float):
        self.root = root
        self.token = token
        self.poll = poll
        self.models = Models(root)
        self.panel = None  # serve --act: the Guide's acting screen (acting.py)
        self.players: dict | None = None  # serve --act: {token: character id}, handed out on the Guide's screen
        self.link_base: str | None = None
        self.handouts: dict = {}  # the links' section, drawn once per address they are given at
        self.assets = Path(__file__).resolve().parent / "assets"

    def authorised(self, request) -> tuple[bool, bool]:
        """(allowed, came in the query): the token from ?token=, the cookie or the Authorization header."""
        query = request.query_params.get("token")
        header = request.headers.get("authorization", "")
        given = query or request.cookies.get(COOKIE) or (header[7:] if header[:7].lower() == "bearer " else None)
        ok = given is not None and hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))
        return ok, bool(query) and ok

    def guarded(self, handler):
        def endpoint(request):
            ok, from_query = self.authorised(request)
            if not ok:
                return Response("401: the Guide's view needs the token `narateer serve` printed\n", status_code=401,
                                media_type="text/plain", headers={"WWW-Authenticate": "Bearer", **HEADERS})
            response = handler(request, True)
            if from_query:
                response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", path="/guide")
            return response
        return endpoint

    @staticmethod
    def party(handler):
        return lambda request: handler(request, False)

    @staticmethod
    def base(guide):
        return "/guide" if guide else ""

    def links(self, guide):
        b = self.base(guide)
        return (f"<nav><a href=\"{b or '/'}\">Encounter</a> <a href=\"{b}/stats\">Luck</a></nav>")

    @staticmethod
    def html(text):
        return HTMLResponse(text, headers=HEADERS)

    def full(self, request, guide, panel: str = ""):
        model = self.models.get(guide)
        if guide and self.panel is not None:
            panel = self.panel + self.handout(request)
        return self.html(page.document(page._title(model), page.encounter(model, self.links(guide)), model["view"],
                                       self.base(guide), panel))

    def handout(self, request) -> str:
        """The players' links with a copy button and a QR code each (links.py), at `serve`'s own address."""
        if self.players is None:
            return ""
        from .links import handout

        base = self.link_base or str(request.base_url).rstrip("/")
        drawn = self.handouts.get(base)
        if drawn is None:
            drawn = self.handouts[base] = handout(base, self.players)
        return drawn

    def part(self, request, guide):
        return self.html(page.encounter(self.models.get(guide), self.links(guide)))

    def data(self, request, guide):
        return Response(self.models.built(guide)[1], media_type="application/json", headers=HEADERS)

    def stats(self, request, guide):
        from . import charts

        model = self.models.get(guide)
        # the party's chart leaves out every creature the whole party cannot see now
        skip = set() if guide else set((self.models.get(True).get("guide") or {}).get("concealed_from_party") or ())
        from ..store.campaign import Campaign

        campaign = Campaign(self.root)
        body = page.stats("Luck: expected and actual successes",
                          charts.charts(self.root, campaign.system, campaign.rules, skip), self.links(guide))
        return self.html(page.document("Luck", body, model["view"], self.base(guide)))

    def events(self, request, guide):
        return StreamingResponse(_stream(request, self.models, guide, self.poll), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    def no_icon(self, request):
        """A browser asks for an icon with every page: it gets an empty answer, not an error in its console."""
        return Response(b"", status_code=204, headers=HEADERS)

    def asset(self, request):
        name = request.path_params["name"]
        if name not in ASSETS:  # a fixed table: nothing outside it is reachable
            return Response("404\n", status_code=404, media_type="text/plain", headers=HEADERS)
        return Response((self.assets / name).read_bytes(), media_type=ASSETS[name], headers=HEADERS)


async def _stream(request, models: Models, guide: bool, poll: float):
    """Server-sent events: one `change` as soon as what this view shows changes. Its data is the
    digest of the view's own `/data` body, nothing else: no count or fingerprint of private files, and
    no event for a change the view does not show (a secret record, a creature hidden from the party)."""
    import anyio

    last = None
    quiet = 0.0
    yield "retry: 1000\n\n"
    while True:
        if await request.is_disconnected():
            return
        digest = await anyio.to_thread.run_sync(models.digest, guide)
        if digest != last:
            last = digest
            yield f"event: change\ndata: {digest}\n\n"
            quiet = 0.0
        elif quiet > 15:
            yield ": keep-alive\n\n"
            quiet = 0.0
        quiet += await _pause(models, poll)


async def _pause(models: Models, poll: float) -> float:
    """Wait `poll` seconds, or less when an action from the page changed the files (the party sees it at
    once); the seconds waited."""
    import anyio

    seen, start = models.version, anyio.current_time()
    while anyio.current_time() - start < poll and models.version == seen:
        await anyio.sleep(min(poll, 0.01))
    return anyio.current_time() - start
