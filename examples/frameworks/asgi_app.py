"""fastaccept in a plain ASGI application: ``uvicorn asgi_app:app``."""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastaccept import (
    AcceptError,
    Consumes,
    LanguageNegotiator,
    Renderers,
    header_from_scope,
)
from fastaccept.asgi import negotiated

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

GREETING = Renderers(
    {
        "application/json": json.dumps,
        "text/html; charset=utf-8": lambda g: f"<p>{html.escape(g['greeting'])}</p>",
    },
    formats=True,  # ?format=json or ?format=html wins over Accept
)
CREATED = Renderers(
    {
        "application/json": json.dumps,
        "text/plain; charset=utf-8": lambda m: f"message {m['id']} created\n",
    }
)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


LANGUAGES = LanguageNegotiator(["en", "fr"])  # docs/rules.md rule 19


@negotiated(GREETING, vary="Accept-Language")  # the greeting's language too
async def greeting(scope: Scope, receive: Receive) -> dict[str, str]:
    try:  # fr-CA and FR reach fr; fr;q=0 refuses it
        french = LANGUAGES.choose(header_from_scope(scope, "accept-language")) == "fr"
    except AcceptError:  # over max_length (rule 8): hello, as for none acceptable
        french = False
    return {"greeting": "bonjour" if french else "hello"}


@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def post_message(scope: Scope, receive: Receive) -> dict[str, int]:
    # ... store the body, from receive(); consumed(scope) has its type
    return {"id": 1}


ROUTES = {
    "/greeting": {"GET": greeting, "HEAD": greeting},
    "/messages": {"POST": post_message},
}


async def refused(
    scope: Scope, send: Send, status: int, headers: list[tuple[bytes, bytes]]
) -> None:
    """404, or 405 with Allow (RFC 9110 §15.5.6): the same body whatever
    Accept, none to HEAD (§9.3.2)."""
    headers.append((b"content-type", b"text/plain"))
    body = b"" if scope["method"] == "HEAD" else b"%d\n" % status
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http":
        methods = ROUTES.get(scope["path"])
        if methods is None:
            await refused(scope, send, 404, [])
        elif scope["method"] not in methods:
            allow = ", ".join(methods).encode()
            await refused(scope, send, 405, [(b"allow", allow)])
        else:
            await methods[scope["method"]](scope, receive, send)
    elif (
        scope["type"] == "websocket"
        and (await receive())["type"] == "websocket.connect"
    ):
        await send({"type": "websocket.close", "code": 1008})  # the server's 403
    elif scope["type"] == "lifespan":  # the server's start and stop: nothing to do
        while (await receive())["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
