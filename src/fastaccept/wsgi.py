"""Negotiated WSGI endpoints (PEP 3333): a decorator, no framework needed.

::

    @negotiated(GREETING)                       # a Renderers
    def greeting(environ):
        return {"greeting": "hello"}            # rendered in the type chosen

``greeting`` is then a WSGI application. Refusals (415, 406, 431;
docs/rules.md rule 16) are answered before the handler runs. The handler
finds the accepted request type as ``consumed(environ)`` (a ``Decision``,
``environ["fastaccept.consumed"]``, typed), the chosen type as
``produced(environ)``. HEAD is answered like GET without a body; ``Vary``
has ``Accept`` merged in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import wraps
from typing import TYPE_CHECKING, Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Dispatch,
    EnvironBinding,
    Handler,
    Mapped,
    Negotiated,
    check_coroutine,
    decision_in,
    integration,
)
from ._render import Rendered
from ._responses import Decision

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]


class WSGIBinding(EnvironBinding[Rendered]):
    """A handler ``(environ)``, served as a WSGI application that starts the
    response it answers."""

    __slots__ = ()

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        environ: Mapped = args[0]
        return environ

    def reply(self, request: Mapped, rendered: Rendered) -> Rendered:
        return rendered

    def serve(self, negotiated: Handler, handler: Handler) -> WSGIApplication:
        """A WSGI application that calls the handler (``check_coroutine``:
        not a coroutine function, which no WSGI server awaits)."""
        check_coroutine(handler, "handler(environ)", __name__, awaited=False)

        @wraps(handler)
        def app(
            environ: WSGIEnvironment, start_response: StartResponse
        ) -> Iterable[bytes]:
            rendered: Rendered = negotiated(environ)
            start_response(
                f"{rendered.status} {rendered.reason}", list(rendered.header_items)
            )
            return [rendered.body]

        return app


negotiated: Negotiated[Callable[[Callable[[WSGIEnvironment], Any]], WSGIApplication]]
dispatch: Dispatch[Callable[[WSGIEnvironment], Any], WSGIApplication]
negotiated, dispatch = integration(
    WSGIBinding(), __name__, "handler(environ)", "a WSGI application", either=False
)


def consumed(environ: Mapping[str, object]) -> Decision | None:
    """The ``Consumes`` decision on the request's body type, typed
    (``environ[CONSUMED]``); None when none was taken."""
    return decision_in(environ, CONSUMED)


def produced(environ: Mapping[str, object]) -> Decision | None:
    """The ``Produces`` decision (the type the data is rendered in,
    ``Decision.params`` its parameters), typed (``environ[PRODUCED]``); None
    outside a negotiated handler."""
    return decision_in(environ, PRODUCED)
