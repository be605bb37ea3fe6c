"""The decisions an integration takes before its handler runs, in one place.

Every integration (``fastaccept.asgi``, ``fastaccept.wsgi`` and the framework
modules) first checks the request's ``Content-Type`` (when it consumes a
body) and then its ``Accept``; a refusal is answered at once, in the format
the Accept value prefers (docs/rules.md rule 16), with ``Vary`` merged (rule 17).
Only then does the handler run, and its data is rendered in the negotiated
type. ``Binding`` and ``negotiating`` are what the framework modules share:
each says how its framework's request is read and its response made.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from functools import wraps
from typing import Any, Generic, Protocol, TypeVar

from ._headers import merge_vary
from ._render import Answer, Rendered, Renderers
from ._responses import Consumes, Decision
from ._text import HeaderValue

Request = TypeVar("Request")
Response = TypeVar("Response")

#: The key under which a handler finds the ``Consumes`` decision, in the ASGI
#: scope or the WSGI environ.
CONSUMED = "fastaccept.consumed"


@dataclass(slots=True)  # not frozen: made on every request, frozen costs 3x
class Proceed:
    """Run the handler: the representation ``decision`` chose, the
    ``Consumes`` decision on the request's body type (None: not checked),
    and the request's method."""

    decision: Decision
    consumed: Decision | None
    method: str


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What a negotiated endpoint is built from (``asgi``/``wsgi.negotiated``)."""

    renderers: Renderers
    consumes: Consumes | None
    status: int
    vary: str | None

    def before(
        self,
        accept: HeaderValue,
        method: str,
        content_type: Callable[[Request], HeaderValue],
        request: Request,
    ) -> Rendered | Proceed:
        """Check the request's ``content_type(request)`` (with ``consumes``),
        then negotiate ``accept``: a refusal, answered without the handler,
        or what the handler needs."""
        consumed = None
        if self.consumes is not None:
            consumed = self.consumes.check(content_type(request), accept, method=method)
            if not consumed.ok:
                return self._render(consumed, None, method)
        decision = self.renderers.produces.select(accept)
        if not decision.ok:
            return self._render(decision, None, method)
        return Proceed(decision, consumed, method)

    def after(self, step: Proceed, data: Any) -> Rendered:
        """The handler's ``data`` (or ``Answer``) in the representation
        ``step`` chose."""
        if isinstance(data, Answer):
            return self.renderers.render(
                step.decision,
                data.data,
                method=step.method,
                vary=self.vary,
                status=self.status if data.status is None else data.status,
                headers=data.headers,
            )
        return self._render(step.decision, data, step.method)

    def _render(self, decision: Decision, data: Any, method: str) -> Rendered:
        return self.renderers.render(
            decision, data, method=method, vary=self.vary, status=self.status
        )


class Binding(ABC, Generic[Request, Response]):
    """How one framework's handler is called: where its request is among the
    handler's arguments, how its headers are read, how a response is made."""

    __slots__ = ()

    #: The framework's own response types: a handler returning one (a
    #: redirect, a 404) has it sent as it is, with ``Accept`` merged into
    #: its ``Vary``.
    responses: tuple[type, ...] = ()

    @abstractmethod
    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Request:
        """The request among the handler's arguments (taking out any argument
        that is the integration's and not the handler's)."""

    @abstractmethod
    def headers(self, request: Request) -> tuple[HeaderValue, str]:
        """The request's ``Accept`` value (None when absent) and its method."""

    @abstractmethod
    def content_type(self, request: Request) -> HeaderValue:
        """The request's ``Content-Type`` value (None when absent); read only
        for an endpoint that ``consumes``."""

    @abstractmethod
    def keep(self, request: Request, consumed: Decision | None) -> None:
        """Leave the ``Consumes`` decision where the handler finds it."""

    def checked(self, request: Request) -> Proceed | None:
        """The checks' outcome when the framework took them before (None:
        take them now)."""
        return None

    @abstractmethod
    def reply(self, request: Request, rendered: Rendered) -> Response:
        """The framework's response for ``rendered``."""

    def vary(self, response: Any, vary: str) -> None:
        """Merge ``vary`` into the ``Vary`` of a response the handler made
        (one of ``responses``, whose ``headers`` is a mutable mapping)."""
        response.headers["Vary"] = merge_vary(response.headers.get("Vary"), vary)


class EnvironBinding(Binding[MutableMapping[str, Any], Response]):
    """A framework whose request carries the WSGI environ (PEP 3333): the
    headers are read from it, and the ``Consumes`` decision left in it."""

    __slots__ = ()

    def headers(self, request: MutableMapping[str, Any]) -> tuple[HeaderValue, str]:
        return request.get("HTTP_ACCEPT"), request.get("REQUEST_METHOD", "GET")

    def content_type(self, request: MutableMapping[str, Any]) -> HeaderValue:
        return request.get("CONTENT_TYPE")

    def keep(
        self, request: MutableMapping[str, Any], consumed: Decision | None
    ) -> None:
        request[CONSUMED] = consumed


def negotiating(
    binding: Binding[Any, Any], endpoint: Endpoint, handler: Callable[..., Any]
) -> Callable[..., Any]:
    """``handler``, negotiated: its arguments are the framework's, its result
    the data ``endpoint`` renders (or a response of the framework, sent as
    it is). A coroutine function stays one."""
    vary = merge_vary(endpoint.vary, "Accept")

    def before(
        args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, Rendered | Proceed]:
        request = binding.request(args, kwargs)
        checked = binding.checked(request)
        if checked is not None:
            return request, checked
        accept, method = binding.headers(request)
        step = endpoint.before(accept, method, binding.content_type, request)
        if isinstance(step, Proceed):
            binding.keep(request, step.consumed)
        return request, step

    def after(request: Any, step: Proceed, data: Any) -> Any:
        if isinstance(data, binding.responses):
            binding.vary(data, vary)
            return data
        return binding.reply(request, endpoint.after(step, data))

    if inspect.iscoroutinefunction(handler):

        @wraps(handler)
        async def negotiated_coroutine(*args: Any, **kwargs: Any) -> Any:
            request, step = before(args, kwargs)
            if isinstance(step, Rendered):
                return binding.reply(request, step)
            return after(request, step, await handler(*args, **kwargs))

        return negotiated_coroutine

    @wraps(handler)
    def negotiated_function(*args: Any, **kwargs: Any) -> Any:
        request, step = before(args, kwargs)
        if isinstance(step, Rendered):
            return binding.reply(request, step)
        return after(request, step, handler(*args, **kwargs))

    return negotiated_function


Handler = Callable[..., Any]


class Negotiated(Protocol):
    """The ``negotiated`` decorator factory every integration offers."""

    def __call__(
        self,
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
    ) -> Callable[[Handler], Handler]: ...


def negotiated_for(binding: Binding[Any, Any], module: str, doc: str) -> Negotiated:
    """The ``negotiated`` of one framework's module: ``doc`` says what a
    handler of that framework takes."""

    def negotiated(
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
    ) -> Callable[[Handler], Handler]:
        endpoint = Endpoint(renderers, consumes, status, vary)
        return lambda handler: negotiating(binding, endpoint, handler)

    negotiated.__doc__ = doc
    negotiated.__module__ = module
    return negotiated
