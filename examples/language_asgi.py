"""The response language by Accept-Language, for Starlette and FastAPI (any ASGI app).

    app.add_middleware(Localize, languages=["en", "fr", "de"])   # Starlette, FastAPI

    async def greeting(request: Request) -> ...:
        language = request.state.language      # "fr" for "fr-FR, en;q=0.3"

``Localize`` asks ``fastaccept.LanguageNegotiator`` (docs/rules.md rule 19,
RFC 9110 §12.5.4 and RFC 4647) which of the application's languages the
request prefers and puts it in ``scope["state"]["language"]`` (Starlette's and
FastAPI's ``request.state.language``, in HTTP and WebSocket scopes) before the
application runs. Unlike an exact-match lookup, a regional range reaches its
language (``fr-FR`` gives ``fr`` over ``en;q=0.3``), a range the client rated
lower loses (``en-US, en;q=0.5, de;q=0.8`` gives ``de``), and ``q=0`` refuses
(``*;q=0.5, en;q=0`` gives ``fr``).

When nothing is acceptable the first language is used: §12.5.4 lets a server
answer in a language the client did not ask for rather than refuse. So it is
when the header is unusable: a value with no valid member (docs/rules.md
rule 19), and one over the negotiator's ``max_length`` (8,192 characters,
several field lines joined), which the negotiator refuses before reading it
(rule 8) and ``Localize`` reads as having no valid member. Each
HTTP response gets ``Accept-Language`` merged into its ``Vary`` (what the
language was chosen from), and a 2xx response a ``Content-Language`` naming
``request.state.language`` as it is when the response starts, unless the
application set one (an error page may be in another language: it is left
alone).

A user's explicit choice (a cookie, a path prefix) comes first: set
``scope["state"]["language"]`` to one of the languages in middleware that
runs before ``Localize`` (added after it: Starlette runs the last added
first), and add what it read (``Cookie``) to ``Vary``; ``Localize`` keeps it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from fastaccept import AcceptError, LanguageNegotiator, header_from_scope, merge_vary

Message = MutableMapping[str, Any]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class Localize:
    """``app``, told the request's language and saying which it answered in."""

    def __init__(self, app: App, *, languages: Sequence[str]) -> None:
        if not languages:
            raise ValueError("Localize needs at least one language")
        self.app = app
        self.negotiator = LanguageNegotiator(languages)  # checks each tag
        self.languages = frozenset(languages)
        self.fallback = languages[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        state = scope.setdefault("state", {})
        if state.get("language") not in self.languages:  # no explicit choice
            state["language"] = self.language(
                header_from_scope(scope, "accept-language")
            )
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = localized(message, state["language"])
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)

    def language(self, accepted: bytes | None) -> str:
        """The language for an Accept-Language value (None: absent); the first
        when none is acceptable or the value is unusable."""
        try:
            return self.negotiator.choose(accepted, self.fallback)
        except AcceptError:  # over max_length: docs/rules.md 8, 19; RFC 9110 §12.5.4
            return self.fallback


def localized(start: Message, language: str) -> list[tuple[bytes, bytes]]:
    """The response's headers with Accept-Language in Vary and, on a 2xx
    response without one, a Content-Language."""
    headers = [(bytes(k).lower(), bytes(v)) for k, v in start.get("headers", ())]
    vary = [v.decode("latin-1") for k, v in headers if k == b"vary"]
    headers = [(k, v) for k, v in headers if k != b"vary"]
    headers.append((b"vary", merge_vary(*vary, "Accept-Language").encode("latin-1")))
    successful = 200 <= start.get("status", 200) < 300
    if successful and not any(k == b"content-language" for k, _ in headers):
        headers.append((b"content-language", language.encode("ascii")))
    return headers
