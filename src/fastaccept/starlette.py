"""Negotiated Starlette endpoints: a decorator on the endpoint function.

::

    @negotiated(GREETING)                       # a Renderers
    async def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

    app = Starlette(routes=[Route("/greeting", greeting)])

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the
handler runs; several ``Accept`` lines are one list (RFC 9110 §5.3). The
handler finds the accepted request type as ``consumed(request)``
(``request.scope["fastaccept.consumed"]``, typed), the chosen type as
``produced(request)``. HEAD (which Starlette routes to a GET endpoint) is
answered like GET without a body. ``Vary`` has ``Accept``
merged in; middleware that adds to ``Vary`` afterwards keeps it. A handler
may return a Starlette ``Response`` (a redirect, a 404): it is sent as it is,
with ``Accept`` merged into its ``Vary``; one that raises ``HTTPException``
gets Starlette's answer with ``Accept`` in its ``Vary``. Sync handlers run in
Starlette's thread pool, as Starlette runs sync endpoints. A method works
too: an ``HTTPEndpoint``'s ``get(self, request)``, or an object's method
routed bound (``Route("/users", users.show)``).
"""

from __future__ import annotations

from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Dispatch,
    Handler,
    HTTPExceptionBinding,
    KeepsParameters,
    Mapped,
    Negotiated,
    decision_in,
    integration,
    needs,
)
from ._render import Rendered
from ._responses import Decision

try:
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import Response
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("Starlette", __name__, _missing) from _missing

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]


class StarletteBinding(HTTPExceptionBinding[Response]):
    """A Starlette endpoint: ``handler(request)``, answering a ``Response``;
    the request is read through its ASGI scope."""

    __slots__ = ()
    responses: tuple[type, ...] = (Response,)
    errors: tuple[type[BaseException], ...] = (HTTPException,)
    head_as_get = True  # the body dropped as for its own views

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        """The scope of the one argument Starlette passes, the request: the
        last, after ``self`` where the endpoint is a method (of an
        ``HTTPEndpoint``, or of an object whose bound method is routed)."""
        request: Request = args[-1]
        return request.scope

    def reply(self, request: Mapped, rendered: Rendered) -> Response:
        return Response(rendered.body, rendered.status, dict(rendered.header_items))


STARLETTE = StarletteBinding()
negotiated: Negotiated[KeepsParameters]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    STARLETTE, __name__, "handler(request)", "a Starlette endpoint"
)


def consumed(request: Request) -> Decision | None:
    """The ``Consumes`` decision on ``request``'s body type, typed
    (``request.scope[CONSUMED]``); None when none was taken."""
    return decision_in(request.scope, CONSUMED)


def produced(request: Request) -> Decision | None:
    """The ``Produces`` decision for ``request`` (the type the data is
    rendered in, ``Decision.params`` its parameters), typed
    (``request.scope[PRODUCED]``); None outside a negotiated endpoint."""
    return decision_in(request.scope, PRODUCED)
