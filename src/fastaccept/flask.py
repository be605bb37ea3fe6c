"""Negotiated Flask views: a decorator under the route decorator.

::

    @app.get("/greeting")
    @negotiated(GREETING)                       # a Renderers
    def greeting():
        return {"greeting": "hello"}            # rendered in the type chosen

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the view
runs. The view keeps its URL arguments and finds the accepted request type
as ``request.environ["fastaccept.consumed"]``, the chosen type as
``request.environ["fastaccept.produced"]``. HEAD (which Flask routes to a
GET view) is answered like GET without a body. ``Vary`` has ``Accept`` merged
in; ``after_request`` functions and extensions that add to ``Vary`` keep it.
A view may return a Flask ``Response`` (a redirect, an ``abort`` page): it
is sent as it is, with ``Accept`` merged into its ``Vary``.
"""

from __future__ import annotations

from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    EnvironBinding,
    Mapped,
    needs,
    negotiated_for,
)
from ._render import BODYLESS, Rendered

try:
    import flask
    import werkzeug.wrappers
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise needs("Flask", __name__, error) from error

__all__ = ["CONSUMED", "PRODUCED", "negotiated"]


class FlaskBinding(EnvironBinding[flask.Response]):
    """A Flask view: the request is Flask's context-local ``request``."""

    __slots__ = ()
    responses = (werkzeug.wrappers.Response,)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        environ: Mapped = flask.request.environ
        return environ

    def reply(self, request: Mapped, rendered: Rendered) -> flask.Response:
        response = flask.Response(rendered.body, rendered.status, rendered.header_items)
        if rendered.status in BODYLESS:  # werkzeug's default type, its length 0
            del response.headers["Content-Type"], response.headers["Content-Length"]
        elif not rendered.body:  # HEAD: werkzeug counted the empty body
            response.headers["Content-Length"] = rendered.headers["Content-Length"]
        return response


FLASK = FlaskBinding()
negotiated = negotiated_for(
    FLASK,
    __name__,
    "``view(**url_arguments) -> data`` (async or not) a Flask view",
)
