"""Negotiated aiohttp handlers: a decorator on the handler (aiohttp 3.14+).

::

    @routes.get("/greeting")                    # GET and HEAD
    @negotiated(GREETING)                       # a Renderers
    async def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the
handler runs. Headers are read from ``request.raw_headers``, the field lines
as received: several lines of one field are one list (RFC 9110 §5.3), bytes
beyond ASCII read as Latin-1 (RFC 9110 §5.5; ``request.headers["Accept"]``
is the first line, decoded as UTF-8). The handler finds the accepted request
type as ``request[CONSUMED]``, the chosen type as ``request[PRODUCED]``:
typed ``web.RequestKey`` objects of this module (aiohttp warns about plain
str keys). HEAD, which aiohttp routes to a GET handler, is answered like GET
without a body. ``Vary`` has ``Accept`` merged in; an ``on_response_prepare``
handler that adds to ``Vary`` afterwards keeps it.

A handler may return an aiohttp ``StreamResponse`` (a ``Response``, a
``FileResponse``): it is sent as it is, with ``Accept`` merged into its
``Vary``; one the handler has prepared itself (to stream) has sent its
headers already, so it sets its own ``Vary``. One that raises an
``HTTPException`` (``HTTPNotFound``, ``HTTPBadRequest``, a redirect) gets
aiohttp's answer, that exception sent as its response, with ``Accept`` in its
``Vary``. Class-based views work too: decorate the ``web.View`` methods
(``async def get(self)``), with ``head = get`` for HEAD.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from ._endpoint import (
    Binding,
    Dispatch,
    ErrorFacts,
    Handler,
    Negotiated,
    check_coroutine,
    integration,
    needs,
)
from ._headers import lines_value, merge_vary, query_value
from ._render import Rendered
from ._responses import Decision
from ._text import HeaderValue

try:
    from aiohttp import web
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("aiohttp", __name__, _missing) from _missing

if not hasattr(web, "RequestKey"):  # pragma: no cover - depends on the install
    raise ImportError(
        f"{__name__} needs aiohttp 3.14 or later (web.RequestKey): "
        "pip install -U aiohttp"
    )

__all__ = ["CONSUMED", "PRODUCED", "dispatch", "negotiated"]

#: The key under which the handler finds the ``Consumes`` decision:
#: ``request[CONSUMED]``, None without ``consumes``.
CONSUMED = web.RequestKey[Decision | None]("consumed")
#: The key of the ``Produces`` decision: ``request[PRODUCED]``, the type the
#: data is rendered in (``Decision.params``, a version).
PRODUCED = web.RequestKey("produced", Decision)


class AiohttpBinding(Binding[web.Request, web.StreamResponse]):
    """An aiohttp handler ``handler(request)``, or a ``web.View`` method
    ``method(self)`` whose view holds the request."""

    __slots__ = ()
    head_as_get = True  # the body dropped by aiohttp, as for its own
    responses: tuple[type, ...] = (web.StreamResponse,)
    errors: tuple[type[BaseException], ...] = (web.HTTPException,)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> web.Request:
        last = args[-1]  # the request, after an object's own (a method routed bound)
        request: web.Request = last.request if isinstance(last, web.View) else last
        return request

    def headers(self, request: web.Request) -> tuple[HeaderValue, str]:
        return lines_value(
            request.raw_headers, b"accept", "raw_headers"
        ), request.method

    def content_type(self, request: web.Request) -> HeaderValue:
        return lines_value(request.raw_headers, b"content-type", "raw_headers")

    def query(self, request: web.Request, name: str) -> str | None:
        return query_value(request.rel_url.raw_query_string, name)

    def keep(
        self, request: web.Request, consumed: Decision | None, produced: Decision
    ) -> None:
        request[CONSUMED] = consumed
        request[PRODUCED] = produced

    def reply(self, request: web.Request, rendered: Rendered) -> web.Response:
        return web.Response(
            body=rendered.body,
            status=rendered.status,
            reason=rendered.reason,
            headers=rendered.header_items,
        )

    def vary(self, response: web.StreamResponse, vary: str) -> None:
        """Merge ``vary`` into every ``Vary`` line of ``response``."""
        headers = response.headers
        headers["Vary"] = merge_vary(*headers.getall("Vary", ()), vary)

    def error_facts(self, error: BaseException) -> ErrorFacts | None:
        """An ``HTTPException``: its status, its plain text, or where that is
        aiohttp's default, ``"<status>: <reason>"``, its ``reason`` (left out
        where it is the status's phrase: ``problem_answer``), and its
        headers, the cookies it sets (``set_cookie``, ``del_cookie``) among
        them as aiohttp writes them."""
        assert isinstance(error, web.HTTPException)
        try:  # its body as its charset reads it (a str given is UTF-8)
            text = error.text if error.content_type == "text/plain" else None
        except (UnicodeDecodeError, LookupError):  # bytes given: no text to read
            text = None
        detail = error.reason if text == f"{error.status}: {error.reason}" else text
        cookies = [
            ("Set-Cookie", c.output(header="")[1:]) for c in error.cookies.values()
        ]
        return error.status, detail, (*error.headers.items(), *cookies)

    def raised(self, args: tuple[Any, ...], error: BaseException, vary: str) -> None:
        """An ``HTTPException`` is a response too (aiohttp 3): it goes on,
        ``vary`` merged into its ``Vary``, and aiohttp sends it."""
        assert isinstance(error, web.HTTPException)
        self.vary(error, vary)

    def serve(self, negotiated: Handler, handler: Handler) -> Handler:
        """The handler as aiohttp awaits it (``check_coroutine``; aiohttp
        deprecates plain functions)."""
        check_coroutine(handler, "handler(request)", __name__)
        return negotiated


#: A handler or ``web.View`` method, as ``negotiated`` and ``dispatch`` take it:
#: a coroutine function's (a plain function returning an awaitable is refused).
AiohttpHandler = Callable[..., Coroutine[Any, Any, Any]]

negotiated: Negotiated[Callable[[AiohttpHandler], Handler]]
dispatch: Dispatch[AiohttpHandler, Handler]
negotiated, dispatch = integration(
    AiohttpBinding(),
    __name__,
    "async handler(request)",
    "an aiohttp handler",
    either=False,
    negotiated_note="\n\nA ``web.View`` method (``async def get(self)``) works too.",
    dispatch_note="\n\nEach handler may be a ``web.View`` method instead.",
)
