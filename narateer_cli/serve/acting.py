"""The routes of `serve --act`: the Guide's acting screen and the players' own links.

    GET  /guide/forms   each verb's form (the Guide's token)      GET  /play?token=P  a player's page
    POST /guide/act     run one action (token in a header)        GET  /play/forms    that player's forms
    POST /guide/declare declare one a player answers              GET  /play/choices  what is theirs now
    POST /guide/withdraw  take a declaration back
    GET  /guide/waiting   the declarations waiting for an answer, and the players' actions waiting for a die
    POST /guide/roll      type that die: the action runs          (their own page: 202, held for the Guide)
    POST /guide/dismiss   set such an action aside                POST /play/face     their own die it asks next
                                                                  POST /play/act      run one of theirs
                                                                  POST /play/answer   answer the Guide's

A write is a POST whose token rides in the `X-Narateer-Token` header (a cookie alone never acts), from
this page's own origin (`Sec-Fetch-Site`, else `Origin`, against the Host header already checked), with a JSON
body of at most BODY_LIMIT bytes and a nonce used once; every refusal happens before anything runs.
"""

from __future__ import annotations

import hmac
import json

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import page
from .act import Actions, Refusal, forms
from .app import BODY_LIMIT, HEADERS

TOKEN_HEADER = "x-narateer-token"
ACTING_THREADS = 4  # actions running at once; the view's requests keep anyio's default threads to themselves


def acting_routes(site, players: dict) -> list:
    """The routes above for `site`; `players` maps each link's token to its character."""
    acting = Acting(site, players)
    site.panel = page.act_panel("/guide", site.token)
    return [Route("/guide/forms", acting.guide_forms), Route("/guide/act", acting.guide_act, methods=["POST"]),
            Route("/guide/declare", acting.guide_declare, methods=["POST"]),
            Route("/guide/withdraw", acting.guide_withdraw, methods=["POST"]),
            Route("/guide/waiting", acting.guide_waiting),
            Route("/guide/roll", acting.guide_roll, methods=["POST"]),
            Route("/guide/dismiss", acting.guide_dismiss, methods=["POST"]),
            Route("/play/answer", acting.player_answer, methods=["POST"]),
            Route("/play/face", acting.player_face, methods=["POST"]),
            Route("/play", acting.player_page), Route("/play/forms", acting.player_forms),
            Route("/play/choices", acting.player_choices),
            Route("/play/act", acting.player_act, methods=["POST"])]


def _same(given, wanted: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8"), wanted.encode("utf-8"))


def same_origin(request) -> bool:
    """The request comes from this page: the browser's `Sec-Fetch-Site` says same-origin, and an
    `Origin` (when sent) is this server's own; a request with neither is refused."""
    site, origin = request.headers.get("sec-fetch-site"), request.headers.get("origin")
    if site is None and origin is None:
        return False
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    return (site is None or site == "same-origin") and (origin is None or origin == own)


def _refused(status: int, message: str) -> Response:
    return JSONResponse({"ok": False, "error": message}, status_code=status, headers=HEADERS)


class Acting:
    def __init__(self, site, players: dict):
        self.site = site
        self.players = dict(players)
        self.actions = Actions(site.root, self.players)
        self.threads = None  # the worker threads actions may hold (an anyio limiter, made in the event loop)

    def player_of(self, given) -> str | None:
        found = None
        for token, cid in self.players.items():  # every token compared: the time says nothing of which
            if _same(given, token):
                found = cid
        return found

    def guide_forms(self, request):
        if not (_same(request.headers.get(TOKEN_HEADER), self.site.token) or self.site.authorised(request)[0]):
            return _refused(401, "the Guide's screen needs the token `narateer serve` printed")
        return JSONResponse(forms(self.site.root), headers=HEADERS)

    def guide_waiting(self, request):
        if not _same(request.headers.get(TOKEN_HEADER), self.site.token):
            return _refused(401, "the Guide's screen needs the token `narateer serve` printed")
        return JSONResponse(self.actions.pending(), headers=HEADERS)

    def player_page(self, request):
        token = request.query_params.get("token", "")
        cid = self.player_of(token)
        if cid is None:  # an old link (`serve --new-links` since) or one never printed: told in the player's words
            from .links import expired_page

            return Response(expired_page(), status_code=401, media_type="text/html", headers=HEADERS)
        model = self.site.models.get(False)
        return self.site.html(page.document(page._title(model), page.encounter(model, self.site.links(False)),
                                            "party", "", page.act_panel("/play", token, cid)))

    def player_forms(self, request):
        cid = self.player_of(request.headers.get(TOKEN_HEADER))
        if cid is None:
            return _refused(401, "a player's forms need that player's link")
        visible = {row.get("id") for row in self.site.models.get(False).get("order") or []} | {cid}
        return JSONResponse(forms(self.site.root, cid, visible), headers=HEADERS)

    def player_choices(self, request):
        """Whose turn it is, and what this player alone may do now in answer to others."""
        cid = self.player_of(request.headers.get(TOKEN_HEADER))
        if cid is None:
            return _refused(401, "a player's choices need that player's link")
        from .act import choices

        return JSONResponse(choices(self.site.root, self.site.models.get(False), cid, self.actions.waiting.get(cid),
                                    self.actions.held_for(cid)), headers=HEADERS)

    async def guide_act(self, request):
        return await self._guide(request, lambda body: self.actions.run(body.get("argv"), body.get("nonce"), None,
                                                                        body.get("asked")))

    async def guide_declare(self, request):
        return await self._guide(request, lambda body: self.actions.declare(body.get("argv"), body.get("nonce"),
                                                                            body.get("role")))

    async def guide_withdraw(self, request):
        return await self._guide(request, lambda body: self.actions.withdraw(body.get("who")))

    async def guide_roll(self, request):
        return await self._guide(request, lambda body: self.actions.roll(body.get("id"), body.get("face"),
                                                                         body.get("nonce")))

    async def guide_dismiss(self, request):
        return await self._guide(request, lambda body: self.actions.dismiss(body.get("id")))

    def seen_by(self, cid: str) -> set | None:
        """The characters this player's party sees in the running encounter (in the order on the party's
        page), and their own; None when no encounter runs (nobody is hidden from the party then)."""
        model = self.site.models.get(False)
        if not model.get("encounter"):
            return None
        return {row.get("id") for row in model.get("order") or []} | {cid}

    async def player_act(self, request):
        return await self._player(request, lambda body, cid: self.actions.run(
            body.get("argv"), body.get("nonce"), cid, body.get("asked"), self.seen_by(cid)))

    async def player_answer(self, request):
        return await self._player(request, lambda body, cid: self.actions.answer(
            cid, body.get("id"), body.get("argv"), body.get("nonce")))

    async def player_face(self, request):
        return await self._player(request, lambda body, cid: self.actions.face(
            cid, body.get("id"), body.get("face"), body.get("nonce")))

    async def _guide(self, request, work):
        if not _same(request.headers.get(TOKEN_HEADER), self.site.token):
            return _refused(401, "an action needs the Guide's token in the X-Narateer-Token header")
        return await self._act(request, work)

    async def _player(self, request, work):
        cid = self.player_of(request.headers.get(TOKEN_HEADER))
        if cid is None:
            return _refused(401, "an action needs a player's token in the X-Narateer-Token header")
        return await self._act(request, lambda body: work(body, cid))

    async def _act(self, request, work):
        import anyio

        if not same_origin(request):
            return _refused(403, "an action must come from this page (same origin)")
        try:
            body = await _body(request)
            if self.threads is None:
                self.threads = anyio.CapacityLimiter(ACTING_THREADS)
            # actions run side by side, each through the Python API with output of its own; writes to the
            # campaign take its lock one at a time, as from the shell. They hold at most ACTING_THREADS worker
            # threads, never those of the party's view: the rest wait here, holding none, so actions waiting
            # for the campaign lock (held by a terminal asking for a face) cannot starve the view
            answer = await anyio.to_thread.run_sync(work, body, limiter=self.threads)
        except Refusal as exc:
            return _refused(exc.status, exc.message)
        finally:
            self.site.models.bump()
        status = 200 if answer.get("ok") else 202 if answer.get("wait") else 422  # 202: held for the Guide's die
        return JSONResponse(answer, status_code=status, headers=HEADERS)


async def _body(request) -> dict:
    """The action's JSON body, read no further than BODY_LIMIT bytes."""
    if not request.headers.get("content-type", "").startswith("application/json"):
        raise Refusal(415, "an action's body is JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > BODY_LIMIT):
        raise Refusal(413, f"an action's body is at most {BODY_LIMIT} bytes")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > BODY_LIMIT:
            raise Refusal(413, f"an action's body is at most {BODY_LIMIT} bytes")
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # nested past the recursion limit: no 500
        raise Refusal(400, "an action's body must be one JSON object") from None
    if not isinstance(body, dict):
        raise Refusal(400, "an action's body must be one JSON object")
    return body
