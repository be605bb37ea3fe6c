"""The response language by Accept-Language, for Starlette and FastAPI (any ASGI app).

    app.add_middleware(Localize, languages=["en", "fr", "de-CH"])   # Starlette, FastAPI

    async def greeting(request: Request) -> ...:
        language = request.state.language      # "fr" for "fr-FR, en;q=0.3"

``Localize`` asks ``fastaccept.LanguageNegotiator`` (docs/rules.md rule 19, RFC 9110
§12.5.4 and RFC 4647) which of the application's languages the request
prefers and puts it in ``scope["state"]["language"]`` (Starlette's and
FastAPI's ``request.state.language``) before the application runs. Unlike an
exact-match lookup, a regional range reaches its language (``fr-FR`` gives
``fr`` over ``en;q=0.3``), a range the client rated lower loses (``en-US,
en;q=0.5, de;q=0.8`` gives ``de``), and ``q=0`` refuses (``*;q=0.5, fr;q=0``
gives ``en`` from ``[fr, en]``).

When nothing is acceptable the first language is used: §12.5.4 lets a server
answer in a language the client did not ask for rather than refuse. Each
HTTP response gets ``Accept-Language`` merged into its ``Vary`` (the answer
depends on it, whatever it was) and ``Content-Language`` unless the
application set one (a response that is not in that language should say so).
An explicit choice of the user (a cookie, a path prefix) belongs before the
negotiation: set ``request.state.language`` from it in your own middleware.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from fastaccept import LanguageNegotiator, header_from_scope, merge_vary

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
        self.fallback = languages[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        accepted = header_from_scope(scope, "accept-language")
        language = self.negotiator.choose(accepted, self.fallback)
        scope.setdefault("state", {})["language"] = language

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": localized(message, language)}
            await send(message)

        await self.app(scope, receive, sending)


def localized(start: Message, language: str) -> list[tuple[bytes, bytes]]:
    """The response's headers with Accept-Language in Vary and a Content-Language."""
    headers = [(bytes(k).lower(), bytes(v)) for k, v in start.get("headers", ())]
    vary = [v.decode("latin-1") for k, v in headers if k == b"vary"]
    headers = [(k, v) for k, v in headers if k != b"vary"]
    headers.append((b"vary", merge_vary(*vary, "Accept-Language").encode("latin-1")))
    if not any(k == b"content-language" for k, _ in headers):
        headers.append((b"content-language", language.encode("ascii")))
    return headers
