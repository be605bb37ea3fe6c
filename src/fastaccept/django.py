"""Negotiated Django views: a view decorator, like ``vary_on_headers``.

::

    @negotiated(GREETING)                       # a Renderers
    def greeting(request):
        return {"greeting": "hello"}            # rendered in the type chosen

Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the view
runs. The view keeps its URL arguments and finds the accepted request type
as ``consumed(request)`` (``request.META["fastaccept.consumed"]``, typed),
the chosen type as ``produced(request)``. HEAD is answered like GET without
a body. ``Vary`` has ``Accept`` merged in; middleware that patches
``Vary`` afterwards (sessions, locale, GZip) keeps it. A view may return a
Django ``HttpResponse`` (a redirect, a 404, a ``StreamingHttpResponse``): it
is sent as it is, with ``Accept`` merged into its ``Vary`` (on HEAD its body
too, which Django leaves to the server to drop). One that raises ``Http404``,
``PermissionDenied``, ``BadRequest``, ``SuspiciousOperation`` or
``MultiPartParserError`` (``request.POST`` of a body it cannot parse) gets
Django's answer (its ``handler404``, ``handler403`` or ``handler400`` view)
with ``Accept`` in its ``Vary``, made by the decorator (so middleware's
``process_exception`` does not see these; an async view's, from a thread
as Django makes it). Async views stay async, an async class-based view's
``as_view()`` too.
"""

from __future__ import annotations

import inspect
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
from ._render import Rendered, declares_type
from ._responses import Decision

try:
    from asgiref.sync import iscoroutinefunction, sync_to_async
    from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
    from django.core.handlers.asgi import ASGIRequest
    from django.core.handlers.exception import response_for_exception
    from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
    from django.http.multipartparser import MultiPartParserError
    from django.utils.functional import Promise
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("Django", __name__, _missing) from _missing

__all__ = ["CONSUMED", "PRODUCED", "consumed", "dispatch", "negotiated", "produced"]

#: How a class-based view's method takes ``negotiated``, which Django calls
#: with the view first (docs/web.md, "Django").
_METHODS = (
    "decorate a class-based view's method as Django's own decorators, "
    "@method_decorator(negotiated(...)) (django.utils.decorators)"
)


class DjangoBinding(EnvironBinding[HttpResponse]):
    """A Django view: ``view(request, *args, **kwargs)``; ``request.META``
    is the WSGI environ (or the ASGI equivalent Django builds)."""

    __slots__ = ()
    responses: tuple[type, ...] = (HttpResponseBase,)
    errors: tuple[type[BaseException], ...] = (
        Http404,
        PermissionDenied,
        BadRequest,
        MultiPartParserError,
        SuspiciousOperation,
    )

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        """``META`` of the request, the view's first argument; anything else
        there (the view: a method decorated under a decorator whose wrapper
        hides its ``self``, or that names it otherwise) is a ``TypeError``."""
        meta: Mapped | None = getattr(args[0], "META", None)
        if meta is None:
            raise TypeError(
                "a negotiated view takes the request first, not "
                f"{type(args[0]).__name__}: {_METHODS}"
            )
        return meta

    def serve(self, negotiated: Handler, handler: Handler) -> Handler:
        """The view, unless ``handler`` is a method (its first parameter
        ``self``): Django calls a class-based view's methods with the view
        first, never the request; ``method_decorator`` hands them to a
        decorator as functions of the request."""
        first = next(
            iter(inspect.signature(handler, follow_wrapped=False).parameters), ""
        )
        if first == "self":
            raise TypeError(f"{handler.__qualname__} is a method: {_METHODS}")
        return negotiated

    def reply(self, request: Mapped, rendered: Rendered) -> HttpResponse:
        response = HttpResponse(
            rendered.body, status=rendered.status, headers=rendered.headers
        )
        if not declares_type(rendered.header_items):
            del response.headers["Content-Type"]  # Django's default
        return response

    def error_facts(self, error: BaseException) -> ErrorFacts | None:
        """``Http404`` 404, ``PermissionDenied`` 403, the others 400, with the
        exception's message, its first argument as Django's 404 page reads
        it, a lazy translation's text (another that is no str is left out:
        ``problem_answer``), but for ``SuspiciousOperation`` (which Django
        logs as a security event, and never shows)."""
        if isinstance(error, SuspiciousOperation):
            return 400, None, ()
        forbidden = isinstance(error, PermissionDenied)
        status = 404 if isinstance(error, Http404) else 403 if forbidden else 400
        message = error.args[0] if error.args else None
        return status, str(message) if isinstance(message, Promise) else message, ()

    def raised(
        self, args: tuple[Any, ...], error: BaseException, vary: str
    ) -> HttpResponseBase:
        """``Http404``, ``PermissionDenied``, ``BadRequest``,
        ``MultiPartParserError`` or ``SuspiciousOperation``: Django's response
        to it (its handler404, handler403 or handler400 view), made here, with
        ``vary`` merged."""
        response: HttpResponseBase = response_for_exception(args[0], error)
        self.vary(response, vary)
        return response

    async def raised_async(
        self, args: tuple[Any, ...], error: BaseException, vary: str
    ) -> HttpResponseBase:
        """``raised`` off the event loop, in the thread Django answers an
        async view's error in (its handler views may use the database): the
        request's own under WSGI, where Django runs the view through
        ``async_to_sync``; any under ASGI."""
        in_its_thread = not isinstance(args[0], ASGIRequest)
        answer = sync_to_async(self.raised, thread_sensitive=in_its_thread)
        return await answer(args, error, vary)

    def is_async(self, handler: Handler) -> bool:
        """Django's test (asgiref's): a coroutine function, or a function
        marked as one, as ``as_view()`` of an async class-based view is."""
        return iscoroutinefunction(handler)


negotiated: Negotiated[KeepsParameters]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    DjangoBinding(), __name__, "view(request, ...)", "a Django view"
)


def consumed(request: HttpRequest) -> Decision | None:
    """The ``Consumes`` decision on ``request``'s body type, typed
    (``request.META[CONSUMED]``); None when none was taken."""
    return decision_in(request.META, CONSUMED)


def produced(request: HttpRequest) -> Decision | None:
    """The ``Produces`` decision for ``request`` (the type the data is
    rendered in, ``Decision.params`` its parameters), typed
    (``request.META[PRODUCED]``); None outside a negotiated view."""
    return decision_in(request.META, PRODUCED)
