"""Negotiated ASGI endpoints (ASGI 3, HTTP): a decorator, no framework needed.

::

    @negotiated(GREETING)                       # a Renderers
    async def greeting(scope, receive):
        return {"greeting": "hello"}            # rendered in the type chosen

``greeting`` is then an ASGI application for HTTP requests; a websocket,
which a client's upgrade request makes, is closed before it is accepted (the
server answers 403, as the ASGI spec has it). Refusals (415,
406, 431; docs/rules.md rule 16) are answered before the handler runs.
Headers are read from the scope's field lines, several lines of one field
being one list (RFC 9110 §5.3), as ``header_from_scope`` reads them. The
handler finds the accepted request type as ``consumed(scope)`` (a
``Decision``, ``scope["fastaccept.consumed"]``, typed), the chosen type as
``produced(scope)``.
HEAD is answered like GET without a body; ``Vary`` has ``Accept`` merged in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping, MutableMapping
from functools import wraps
from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Dispatch,
    Handler,
    Negotiated,
    ScopeBinding,
    check_coroutine,
    decision_in,
    integration,
    route_vary,
)
from ._headers import merge_vary
from ._problems import is_error_status
from ._render import Finished, Rendered
from ._responses import Decision

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Coroutine[Any, Any, None]]

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]


class ASGIBinding(ScopeBinding[Rendered]):
    """A handler ``(scope, receive)`` of an HTTP scope, served as an ASGI
    application that sends what it answers."""

    __slots__ = ()

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Scope:
        scope: Scope = args[0]
        if scope["type"] != "http":
            raise ValueError(
                f"a negotiated endpoint serves HTTP requests, not {scope['type']!r}"
            )
        return scope

    def reply(self, request: Scope, rendered: Rendered) -> Rendered:
        return rendered

    def serve(self, negotiated: Handler, handler: Handler) -> ASGIApp:
        """An ASGI application that awaits the handler (``check_coroutine``)."""
        check_coroutine(handler, "handler(scope, receive)", __name__)

        @wraps(handler)
        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "websocket":  # a client's, so no error: refused
                received = await receive()  # its websocket.connect
                if received.get("type") == "websocket.connect":  # not gone yet
                    await send({"type": "websocket.close", "code": 1008})
                return
            await send_rendered(send, await negotiated(scope, receive))

        return app


async def send_rendered(send: Send, rendered: Rendered) -> None:
    """Send ``rendered`` as an ASGI HTTP response: its start, then its body;
    the header names lower-cased, as the ASGI HTTP spec asks of a response
    (middleware such as Starlette's ``GZipMiddleware`` looks for them so)."""
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1"))
        for name, value in rendered.header_items
    ]
    start = {"type": "http.response.start", "status": rendered.status}
    await send({**start, "headers": headers})
    await send({"type": "http.response.body", "body": rendered.body})


def with_vary(message: Message, vary: str) -> Message:
    """An ASGI ``http.response.start`` message with ``vary`` merged into its
    ``Vary`` (RFC 9110 §12.5.5), the field once."""
    fields = list(message.get("headers", ()))
    given = [
        value.decode("latin-1") for name, value in fields if name.lower() == b"vary"
    ]
    kept = [(name, value) for name, value in fields if name.lower() != b"vary"]
    merged = merge_vary(*given, vary).encode("latin-1")
    return {**message, "headers": [*kept, (b"vary", merged)]}


def varying_errors(send: Send, scope: Scope, finished: Finished) -> Send:
    """``send``, with the route's ``Vary`` (``route_vary``) merged into the
    ``Vary`` of an error status's answer (400-599): a framework's own, made
    before the handler ran among them."""

    async def varied(message: Message) -> None:
        start = message["type"] == "http.response.start"
        if start and is_error_status(message["status"]):
            vary = route_vary(finished, scope)
            if vary:
                message = with_vary(message, vary)
        await send(message)

    return varied


#: A handler, as ``negotiated`` and ``dispatch`` take it: its scope and
#: receive typed as it likes (a dict, asgiref's ``HTTPScope``, Starlette's);
#: a coroutine function's (``check_coroutine``: a plain function returning
#: another awaitable is refused).
ASGIHandler = Callable[[Any, Any], Coroutine[Any, Any, Any]]

#: The scopes an endpoint serves, for both decorators' docstrings.
_SCOPES = (
    "\n\nOnly ``http`` scopes are served: a ``websocket`` one, a client's\n"
    "upgrade request, is closed (code 1008) before it is accepted, which\n"
    "the server answers with 403 (the ASGI spec); any other (``lifespan``)\n"
    "is a ``ValueError``: mount the endpoint in a router."
)
negotiated: Negotiated[Callable[[ASGIHandler], ASGIApp]]
dispatch: Dispatch[ASGIHandler, ASGIApp]
negotiated, dispatch = integration(
    ASGIBinding(),
    __name__,
    "async handler(scope, receive)",
    "an ASGI application",
    either=False,
    negotiated_note=_SCOPES,
    dispatch_note=_SCOPES,
)


def consumed(scope: Mapping[str, object]) -> Decision | None:
    """The ``Consumes`` decision on the request's body type, typed
    (``scope[CONSUMED]``); None when none was taken."""
    return decision_in(scope, CONSUMED)


def produced(scope: Mapping[str, object]) -> Decision | None:
    """The ``Produces`` decision (the type the data is rendered in,
    ``Decision.params`` its parameters), typed (``scope[PRODUCED]``); None
    outside a negotiated handler."""
    return decision_in(scope, PRODUCED)
