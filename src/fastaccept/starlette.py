"""Negotiated Starlette endpoints: a decorator on the endpoint function.

::

    @negotiated(GREETING)                       # a Renderers
    async def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

    app = Starlette(routes=[Route("/greeting", greeting)])

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the
handler runs; several ``Accept`` lines are one list (RFC 9110 §5.3). The
handler finds the accepted request type as
``request.scope["fastaccept.consumed"]``, the chosen type as
``request.scope["fastaccept.produced"]``. HEAD (which Starlette routes to a
GET endpoint) is answered like GET without a body. ``Vary`` has ``Accept``
merged in; middleware that adds to ``Vary`` afterwards keeps it. A handler
may return a Starlette ``Response`` (a redirect, a 404): it is sent as it is,
with ``Accept`` merged into its ``Vary``; one that raises ``HTTPException``
gets Starlette's answer with ``Accept`` in its ``Vary``. Sync handlers run in
Starlette's thread pool, as Starlette runs sync endpoints.
"""

from __future__ import annotations

from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Mapped,
    ScopeBinding,
    http_error_facts,
    integration,
    needs,
)
from ._headers import vary_merged_into
from ._render import Rendered

try:
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import Response
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise needs("Starlette", __name__, error) from error

__all__ = ["CONSUMED", "PRODUCED", "dispatch", "negotiated"]


class StarletteBinding(ScopeBinding[Response]):
    """A Starlette endpoint: ``handler(request)``, answering a ``Response``;
    the request is read through its ASGI scope."""

    __slots__ = ()
    responses = (Response,)
    errors = (HTTPException,)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        request: Request = args[0]
        return request.scope

    def reply(self, request: Mapped, rendered: Rendered) -> Response:
        return Response(rendered.body, rendered.status, dict(rendered.header_items))

    def error_facts(
        self, error: BaseException
    ) -> tuple[int, str | None, tuple[tuple[str, str], ...]] | None:
        """An ``HTTPException``: its status, its ``detail`` and ``headers``."""
        return http_error_facts(error)

    def raised(self, args: tuple[Any, ...], error: BaseException, vary: str) -> None:
        """An ``HTTPException`` goes on with ``vary`` merged into the ``Vary``
        of its headers, which the exception handler sends."""
        assert isinstance(error, HTTPException)
        error.headers = vary_merged_into(error.headers, vary)


STARLETTE = StarletteBinding()
_INTEGRATION = integration(
    STARLETTE,
    __name__,
    negotiated_makes="``handler(request) -> data`` (async or not) a Starlette endpoint",
    dispatch_makes=(
        "a Starlette endpoint (each handler ``handler(request)``, async or not)"
    ),
)
negotiated = _INTEGRATION.negotiated
dispatch = _INTEGRATION.dispatch
