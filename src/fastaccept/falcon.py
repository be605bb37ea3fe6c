"""Negotiated falcon responders: a decorator on ``on_get``, ``on_post``...

::

    class Greeting:
        @negotiated(GREETING)                   # a Renderers
        def on_get(self, req, resp):
            return {"greeting": "hello"}        # rendered in the type chosen

        on_head = on_get

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the
responder runs. The responder keeps its URI template fields and finds the
accepted request type as ``consumed(req)``
(``req.context["fastaccept.consumed"]``, typed), the chosen type as
``produced(req)``. Falcon routes HEAD to ``on_head``: a negotiated
``on_get`` given as ``on_head`` answers it like GET without a body.
``Vary`` has ``Accept`` merged into what middleware already set, also on
what falcon answers to an ``HTTPError`` or an ``HTTPStatus`` (a redirect,
a 304) the responder raises (falcon's error serializer appends
``Accept`` to an error's). The responder answers
by what it returns: the status, body, stream and type it set on ``resp``
are replaced by the rendered answer; a header it set that the answer also
sends is the answer's alone for a field of one value (``ETag``, a HEAD's
``Content-Length``), else the two join, the answer's first (its own
``Link`` after the one ``fastaccept.agents`` sends). Works on
``falcon.App`` and ``falcon.asgi.App`` (async responders).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._endpoint import (
    CONSUMED,
    PRODUCED,
    Binding,
    Dispatch,
    ErrorFacts,
    Handler,
    KeepsParameters,
    Negotiated,
    integration,
    needs,
)
from ._headers import answer_first, merge_vary, query_value, vary_apart
from ._render import Rendered, untyped_content_type
from ._responses import Decision
from ._text import HeaderValue

try:
    import falcon
    import falcon.asgi
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("falcon", __name__, _missing) from _missing

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]

#: A responder's request and response, WSGI or ASGI.
Exchange = tuple[falcon.Request | falcon.asgi.Request, falcon.Response]


class FalconBinding(Binding[Exchange, None]):
    """A falcon responder: ``responder(resource, req, resp, **fields)``; the
    answer is written into ``resp``."""

    __slots__ = ()
    # Answered by falcon (an HTTPError, or as problems; an HTTPStatus: a
    # redirect, a 304) with Accept in its Vary.
    errors: tuple[type[BaseException], ...] = (falcon.HTTPError, falcon.HTTPStatus)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Exchange:
        return args[1], args[2]

    def headers(self, request: Exchange) -> tuple[HeaderValue, str]:
        req = request[0]
        return req.get_header("Accept"), req.method

    def content_type(self, request: Exchange) -> HeaderValue:
        return request[0].get_header("Content-Type")

    def query(self, request: Exchange, name: str) -> str | None:
        return query_value(request[0].query_string, name)

    def keep(
        self, request: Exchange, consumed: Decision | None, produced: Decision
    ) -> None:
        request[0].context[CONSUMED] = consumed
        request[0].context[PRODUCED] = produced

    def reply(self, request: Exchange, rendered: Rendered) -> None:
        """The rendered answer in place of the status, body and type the
        responder set on ``resp`` (falcon sends its ``text``, or an ASGI
        ``sse``, before ``data``). A header field it set that the answer
        also has: an ok answer's on one line with it (``answer_first``: one
        ``ETag``, the answer's; a list's values joined, the answer's first,
        ``fastaccept.agents``' alternate ``Link`` beside the responder's
        own); a refusal's or a problem's in its place, as falcon answers an
        ``HTTPError``. ``Vary`` is merged."""
        resp = request[1]
        resp.status = rendered.status
        resp.text = None
        resp.content_type = untyped_content_type(rendered)  # its own: below
        if isinstance(resp, falcon.asgi.Response):
            resp.sse = None
        for name, value in rendered.header_items:
            if name == "Vary":
                self.vary(resp, value)
                continue
            if rendered.ok and (own := resp.get_header(name)) is not None:
                value = answer_first(name, value, own)
            resp.set_header(name, value)
        resp.data = rendered.body

    def error_facts(self, error: BaseException) -> ErrorFacts | None:
        """An ``HTTPError``: its status, its description (else its title, but
        falcon's default one, the status line, ``"404 Not Found"``) and
        headers. Falcon answers one of a status no error has (``HTTPError(302)``,
        ``problem_facts``) as without ``problems``, ``Vary: Accept`` appended
        by its error serializer; an ``HTTPStatus`` is no error (``raised``)."""
        if not isinstance(error, falcon.HTTPError):
            return None
        status, title = error.status_code, error.title
        shown = None if title == falcon.code_to_http_status(status) else title
        return status, error.description or shown, _pairs(error.headers)

    def raised(self, args: tuple[Any, ...], error: BaseException, vary: str) -> None:
        """An ``HTTPStatus`` (``HTTPFound``, ``HTTPStatus(304)``...) or an
        ``HTTPError`` goes on to falcon, which sends its headers over the
        response's: ``vary`` merged with the ``Vary`` middleware set and the
        one it carries (for an ``HTTPError`` but ``Accept`` in any case, which
        falcon's error serializer appends, so that it is named once)."""
        assert isinstance(error, falcon.HTTPStatus | falcon.HTTPError)
        resp: falcon.Response = args[2]
        pairs = _pairs(error.headers)
        own, kept = vary_apart(pairs)
        merged = merge_vary(resp.get_header("Vary"), *own, vary)
        if isinstance(error, falcon.HTTPError):
            merged = ", ".join(n for n in merged.split(", ") if n.lower() != "accept")
            if not merged:  # the serializer's Accept alone
                resp.delete_header("Vary")
        if merged or own:
            error.headers = [*kept, *([("Vary", merged)] if merged else ())]

    def vary(self, response: falcon.Response, vary: str) -> None:
        """Merge ``vary`` into the ``Vary`` that middleware already set."""
        response.set_header("Vary", merge_vary(response.get_header("Vary"), vary))


def _pairs(
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None,
) -> tuple[tuple[str, str], ...]:
    """falcon's headers of an error or a status (a mapping, pairs or None)."""
    if headers is None:
        return ()
    return tuple(headers.items() if isinstance(headers, Mapping) else headers)


def consumed(req: falcon.Request | falcon.asgi.Request) -> Decision | None:
    """The ``Consumes`` decision on ``req``'s body type, typed (falcon types
    ``req.context[...]`` as ``Any | None``); None when none was taken."""
    decision: Decision | None = req.context.get(CONSUMED)
    return decision


def produced(req: falcon.Request | falcon.asgi.Request) -> Decision | None:
    """The ``Produces`` decision for ``req`` (the type the data is rendered
    in, ``Decision.params`` its parameters), typed; None outside a negotiated
    responder."""
    decision: Decision | None = req.context.get(PRODUCED)
    return decision


negotiated: Negotiated[KeepsParameters]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    FalconBinding(),
    __name__,
    "responder(self, req, resp, **fields)",
    "a falcon responder",
)
