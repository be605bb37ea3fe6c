"""Negotiated Flask views: a decorator under the route decorator.

::

    @app.get("/greeting")
    @negotiated(GREETING)                       # a Renderers
    def greeting():
        return {"greeting": "hello"}            # rendered in the type chosen

Before the view runs, a request whose ``Content-Type`` ``consumes`` refuses
gets its 415 (or 431), and one whose ``Accept`` allows no representation its
406 (or 431), each as plain text or ``application/problem+json`` (docs/rules.md
rule 16). The view keeps its URL arguments and finds the accepted request
type as ``request.environ["fastaccept.consumed"]``. HEAD (which Flask routes
to a GET view) is answered like GET without a body. ``Vary`` has ``Accept``
merged in; ``after_request`` functions and extensions that add to ``Vary``
keep it. A view may return a Flask ``Response`` (a redirect, an ``abort``
page): it is sent as it is, with ``Accept`` merged into its ``Vary``.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from ._endpoint import CONSUMED, EnvironBinding, negotiated_for
from ._render import BODYLESS, Rendered

try:
    import flask
    import werkzeug.wrappers
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "fastaccept.flask needs Flask: pip install flask", name=error.name
    ) from error

__all__ = ["CONSUMED", "negotiated"]


class FlaskBinding(EnvironBinding[flask.Response]):
    """A Flask view: the request is Flask's context-local ``request``."""

    __slots__ = ()
    responses = (werkzeug.wrappers.Response,)

    def request(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> MutableMapping[str, Any]:
        environ: MutableMapping[str, Any] = flask.request.environ
        return environ

    def reply(
        self, request: MutableMapping[str, Any], rendered: Rendered
    ) -> flask.Response:
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
    """Make ``view(**url_arguments) -> data`` (async or not) a Flask view
    answering ``data`` rendered by ``renderers`` in the negotiated type, with
    ``status``; ``consumes`` checks the request's ``Content-Type`` first;
    ``vary`` is what the response varies on besides ``Accept``.""",
)
