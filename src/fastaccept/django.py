"""Negotiated Django views: a view decorator, like ``vary_on_headers``.

::

    @negotiated(GREETING)                       # a Renderers
    def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

Before the view runs, a request whose ``Content-Type`` ``consumes`` refuses
gets its 415 (or 431), and one whose ``Accept`` allows no representation its
406 (or 431), each as plain text or ``application/problem+json`` (docs/rules.md
rule 16). The view keeps its URL arguments and finds the accepted request
type as ``request.META["fastaccept.consumed"]``. HEAD is answered like GET
without a body. ``Vary`` has ``Accept`` merged in; middleware that patches
``Vary`` afterwards (sessions, locale, GZip) keeps it. A view may return a
Django ``HttpResponse`` (a redirect, a 404): it is sent as it is, with
``Accept`` merged into its ``Vary``. Async views stay async.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from ._endpoint import CONSUMED, EnvironBinding, negotiated_for
from ._render import BODYLESS, Rendered

try:
    from django.http import HttpResponse, HttpResponseBase
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "fastaccept.django needs Django: pip install django", name=error.name
    ) from error

__all__ = ["CONSUMED", "negotiated"]


class DjangoBinding(EnvironBinding[HttpResponse]):
    """A Django view: ``view(request, *args, **kwargs)``; ``request.META``
    is the WSGI environ (or the ASGI equivalent Django builds)."""

    __slots__ = ()
    responses = (HttpResponseBase,)

    def request(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> MutableMapping[str, Any]:
        meta: MutableMapping[str, Any] = args[0].META
        return meta

    def reply(
        self, request: MutableMapping[str, Any], rendered: Rendered
    ) -> HttpResponse:
        response = HttpResponse(
            rendered.body, status=rendered.status, headers=rendered.headers
        )
        if rendered.status in BODYLESS:  # Django's default type (RFC 9110 §15.4.5)
            del response.headers["Content-Type"]
        return response


DJANGO = DjangoBinding()


negotiated = negotiated_for(
    DJANGO,
    __name__,
    """Make ``view(request, ...) -> data`` (async or not) a Django view
    answering ``data`` rendered by ``renderers`` in the negotiated type, with
    ``status``; ``consumes`` checks the request's ``Content-Type`` first;
    ``vary`` is what the response varies on besides ``Accept``.""",
)
