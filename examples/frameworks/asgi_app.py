"""fastaccept in a plain ASGI application: run with ``uvicorn asgi_app:app``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastaccept import Consumes, Decision, Produces, header_from_scope

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

GREETING = {
    "application/json": b'{"greeting": "hello"}',
    "text/html; charset=utf-8": b"<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


async def respond(
    send: Send, status: int, headers: dict[str, str], body: bytes
) -> None:
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def refuse(send: Send, decision: Decision) -> None:
    await respond(send, decision.status, decision.headers, decision.body.encode())


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    assert scope["type"] == "http"
    route = (scope["method"], scope["path"])
    if route == ("GET", "/greeting"):
        decision = GREETING_TYPES.select(header_from_scope(scope))
        if not decision.ok:
            return await refuse(send, decision)
        await respond(send, 200, decision.headers, GREETING[decision.media_type])
    elif route == ("POST", "/messages"):
        decision = MESSAGE_TYPES.check(header_from_scope(scope, "content-type"))
        if not decision.ok:
            return await refuse(send, decision)
        # ... read the body with `receive` and store it as decision.media_type ...
        await respond(send, 201, {"Content-Type": "text/plain"}, b"created\n")
    else:
        await respond(send, 404, {"Content-Type": "text/plain"}, b"not found\n")
