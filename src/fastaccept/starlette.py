"""Negotiated Starlette endpoints: a decorator on the endpoint function.

::

    @negotiated(GREETING)                       # a Renderers
    async def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

    app = Starlette(routes=[Route("/greeting", greeting)])

Before the handler runs, a request whose ``Content-Type`` ``consumes``
refuses gets its 415 (or 431), and one whose ``Accept`` allows no
representation its 406 (or 431), each as plain text or
``application/problem+json`` (docs/rules.md rule 16). Several ``Accept`` lines are
one list (RFC 9110 §5.3). The handler finds the accepted request type as
``request.scope["fastaccept.consumed"]``. HEAD (which Starlette routes to a
GET endpoint) is answered like GET without a body. ``Vary`` has ``Accept``
merged in; middleware that adds to ``Vary`` afterwards keeps it. A handler
may return a Starlette ``Response`` (a redirect, a 404): it is sent as it is,
with ``Accept`` merged into its ``Vary``. Sync handlers run in Starlette's
thread pool, as Starlette runs sync endpoints.
"""

from __future__ import annotations

from typing import Any

from ._endpoint import CONSUMED, Mapped, ScopeBinding, negotiated_for
from ._render import Rendered

try:
    from starlette.requests import Request
    from starlette.responses import Response
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "fastaccept.starlette needs Starlette: pip install starlette",
        name=error.name,
    ) from error

__all__ = ["CONSUMED", "negotiated"]


class StarletteBinding(ScopeBinding[Response]):
    """A Starlette endpoint: ``handler(request)``, answering a ``Response``;
    the request is read through its ASGI scope."""

    __slots__ = ()
    responses = (Response,)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        request: Request = args[0]
        return request.scope

    def reply(self, request: Mapped, rendered: Rendered) -> Response:
        return Response(rendered.body, rendered.status, dict(rendered.header_items))


STARLETTE = StarletteBinding()

negotiated = negotiated_for(
    STARLETTE,
    __name__,
    """Make ``handler(request) -> data`` (async or not) a Starlette endpoint
    answering ``data`` rendered by ``renderers`` in the negotiated type, with
    ``status``; ``consumes`` checks the request's ``Content-Type`` first;
    ``vary`` is what the response varies on besides ``Accept``.""",
)
