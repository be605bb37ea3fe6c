"""Negotiated Flask views: a decorator under the route decorator.

::

    @app.get("/greeting")
    @negotiated(GREETING)                       # a Renderers
    def greeting():
        return {"greeting": "hello"}            # rendered in the type chosen

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the view
runs. The view keeps its URL arguments and finds the accepted request type
as ``consumed()`` (``request.environ["fastaccept.consumed"]``, typed), the
chosen type as ``produced()``. HEAD (which Flask routes to a GET view) is
answered like GET without a body. ``Vary`` has ``Accept`` merged in;
``after_request`` functions and extensions that add to ``Vary`` keep it. A
view's tuple is Flask's ``(data, status, headers)``, ``(data, status)`` or
``(data, headers)``, its data rendered. A view may return a Flask
``Response`` (a redirect, an ``abort`` page): it is sent as it is, with
``Accept`` merged into its ``Vary``; one that raises an ``HTTPException``
(``abort(404)``, the 400 of ``request.get_json()``) gets Flask's answer, an
error handler's too, with ``Accept`` in its ``Vary``.
"""

from __future__ import annotations

from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Dispatch,
    EnvironBinding,
    ErrorFacts,
    Handler,
    KeepsParameters,
    Mapped,
    Negotiated,
    decision_in,
    integration,
    needs,
)
from ._render import BODYLESS, Answer, Rendered, declares_type
from ._responses import Decision

try:
    import flask
    import werkzeug.datastructures
    import werkzeug.exceptions
    import werkzeug.wrappers
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("Flask", __name__, _missing) from _missing

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]


class FlaskBinding(EnvironBinding[flask.Response]):
    """A Flask view: the request is Flask's context-local ``request``."""

    __slots__ = ()
    responses: tuple[type, ...] = (werkzeug.wrappers.Response,)
    errors: tuple[type[BaseException], ...] = (werkzeug.exceptions.HTTPException,)
    head_as_get = True  # the body dropped as for its own views

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        environ: Mapped = flask.request.environ
        return environ

    def returned_tuple(self, returned: tuple[Any, ...]) -> Answer:
        """A view's tuple as Flask reads one: ``(data, status, headers)``,
        ``(data, status)`` or ``(data, headers)`` (headers: a dict, a list or
        tuple of pairs, werkzeug's ``Headers``), the data rendered in the
        type chosen; any other length, or a response or an ``Answer`` in it
        (return it alone), ``TypeError``."""
        status: Any = None
        headers: Any = ()
        if len(returned) == 3:
            data, status, headers = returned
        elif len(returned) == 2 and isinstance(
            returned[1], werkzeug.datastructures.Headers | dict | tuple | list
        ):
            data, headers = returned
        elif len(returned) == 2:
            data, status = returned
        else:
            raise TypeError(
                f"a negotiated view returned a {len(returned)}-tuple: Flask's "
                "are (data, status, headers), (data, status) or (data, "
                "headers); return a list for data that is a sequence"
            )
        if isinstance(data, (*self.responses, Rendered, Answer)):
            raise TypeError(
                f"a negotiated view returned a {type(data).__name__} in a tuple: "
                "return it alone, its status and headers set in it"
            )
        return Answer(data, status, () if headers is None else headers)

    def reply(self, request: Mapped, rendered: Rendered) -> flask.Response:
        response = flask.Response(rendered.body, rendered.status, rendered.header_items)
        if not declares_type(rendered.header_items):  # werkzeug's default type
            del response.headers["Content-Type"]
        if rendered.status in BODYLESS:  # werkzeug's length 0
            if "Content-Length" not in rendered.headers:  # a 205 has its own
                del response.headers["Content-Length"]
        elif not rendered.body:  # HEAD: werkzeug counted the empty body
            response.headers["Content-Length"] = rendered.headers["Content-Length"]
        return response

    def error_facts(self, error: BaseException) -> ErrorFacts | None:
        """An ``HTTPException`` with a code: its code, its ``description`` and
        headers (an app's error handler for it does not run). One that carries
        its own ``response`` (``abort(401, response=...)``), which werkzeug
        sends as it is, cookies and status included, is left to Flask."""
        assert isinstance(error, werkzeug.exceptions.HTTPException)
        if error.code is None or error.response is not None:
            return None
        return error.code, error.description, tuple(error.get_headers())

    def raised(self, args: tuple[Any, ...], error: BaseException, vary: str) -> None:
        """An ``HTTPException`` (``abort``, a body it cannot read) goes on to
        Flask's error handling; the response made of it gets ``vary``."""

        def varied(response: flask.Response) -> flask.Response:
            self.vary(response, vary)
            return response

        flask.after_this_request(varied)


negotiated: Negotiated[KeepsParameters]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    FlaskBinding(), __name__, "view(**url_arguments)", "a Flask view"
)


def consumed() -> Decision | None:
    """The ``Consumes`` decision on the body type of the request being
    handled (Flask's ``request``: outside a request, Flask's
    ``RuntimeError``), typed (``request.environ[CONSUMED]``); None when none
    was taken."""
    return decision_in(flask.request.environ, CONSUMED)


def produced() -> Decision | None:
    """The ``Produces`` decision for the request being handled (the type the
    data is rendered in, ``Decision.params`` its parameters), typed
    (``request.environ[PRODUCED]``); None where no negotiated view handles
    it. Outside a request, Flask's ``RuntimeError``."""
    return decision_in(flask.request.environ, PRODUCED)
