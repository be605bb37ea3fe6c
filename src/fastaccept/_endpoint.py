"""The checks every integration takes before its handler runs, in one place.

An integration (``fastaccept.asgi``, ``fastaccept.wsgi`` and the framework
modules) checks the request's ``Content-Type`` (when it consumes a body),
then its ``Accept``, answering a refusal at once in the format the Accept
value prefers (docs/rules.md rule 16), ``Vary`` merged (rule 17); then the
handler runs and its data is rendered in the negotiated type. A ``Binding``
says how one framework's request is read, its response made and its
endpoint served; an ``Endpoint`` finishes what it sends once, when made.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from functools import partial, wraps
from typing import Any, Generic, Protocol, TypeVar, cast

from ._grammar import TCHARS
from ._headers import header_from_scope, merge_vary, query_value
from ._render import Answer, Finished, Rendered, Renderers, checked_status
from ._responses import Consumes, Decision
from ._text import HeaderValue

Request = TypeVar("Request")
Response = TypeVar("Response")
Handler = Callable[..., Any]

#: The key under which a handler finds the ``Consumes`` decision, in the ASGI
#: scope or the WSGI environ.
CONSUMED = "fastaccept.consumed"
#: The key under which a handler finds the ``Produces`` decision (the type its
#: data is rendered in; ``Decision.params``, a version), as ``CONSUMED``.
PRODUCED = "fastaccept.produced"


def needs(
    framework: str, module: str, error: ModuleNotFoundError
) -> ModuleNotFoundError:
    """The error of an integration ``module`` imported without its framework."""
    return ModuleNotFoundError(
        f"{module} needs {framework}: pip install {framework.lower()}", name=error.name
    )


@dataclass(slots=True)  # not frozen: made on every request
class Proceed:
    """Run the handler: the chosen offer's ``index`` (``Decision.index``),
    the ``Consumes`` decision (None: not checked), the request's method, and
    whether a format name chose the offer (``Produces.select``)."""

    index: int
    consumed: Decision | None
    method: str
    formatted: bool = False


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A negotiated endpoint's arguments, checked as ``Renderers.render``
    checks them, and its ``finished`` responses (``consumes``' refusals
    among them), built once. ``format_param``: the query parameter read as
    the format name where the renderers have ``formats`` (None: none)."""

    renderers: Renderers
    consumes: Consumes | None
    status: int
    vary: str | None
    format_param: str | None = "format"
    finished: Finished = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.renderers, Renderers):
            raise TypeError(
                f"renderers must be a Renderers, not {type(self.renderers).__name__}"
            )
        if self.consumes is not None and not isinstance(self.consumes, Consumes):
            kind = type(self.consumes).__name__
            raise TypeError(f"consumes must be a Consumes or None, not {kind}")
        object.__setattr__(self, "status", checked_status(self.status))
        param = self.format_param
        if param is not None and not isinstance(param, str):
            kind = type(param).__name__
            raise TypeError(f"format_param must be a str or None, not {kind}")
        if param is not None and not (param and TCHARS.issuperset(param)):
            raise ValueError(
                f"invalid format_param {param!r}: a parameter name, a token"
            )
        refusals = () if self.consumes is None else self.consumes._refusals
        finished = Finished(self.renderers, self.vary, refusals)
        object.__setattr__(self, "finished", finished)

    def check(
        self, binding: Binding[Request, Any], request: Request
    ) -> Rendered | Proceed:
        """The request's Content-Type (with ``consumes``), then its Accept: a
        refusal to answer, or what the handler needs (both decisions kept
        where it finds them)."""
        accept, method = binding.headers(request)
        consumed = None
        if self.consumes is not None:
            content_type = binding.content_type(request)
            consumed = self.consumes.check(content_type, accept, method=method)
            if not consumed.ok:
                return self.finished.refused(consumed, method)
        produces = self.renderers.produces
        named = None
        if self.format_param is not None and produces._format_index:
            named = binding.query(request, self.format_param)
        decision = produces.select(accept, named)
        if not decision.ok:
            return self.finished.refused(decision, method)
        binding.keep(request, consumed, decision)
        return Proceed(decision.index, consumed, method, bool(named))

    def after(self, step: Proceed, data: Any) -> Rendered:
        """The handler's ``data`` (or ``Answer``) in the type ``step`` chose."""
        if isinstance(data, Answer):
            status = self.status if data.status is None else data.status
            headers = cast("tuple[tuple[str, str], ...]", data.headers)  # checked
            return self.finished.chosen(
                step.index, data.data, step.method, status, headers, step.formatted
            )
        return self.finished.chosen(
            step.index, data, step.method, self.status, formatted=step.formatted
        )


class Binding(ABC, Generic[Request, Response]):
    """How one framework's handler is called: where its request is among the
    handler's arguments, how its headers are read, how a response is made."""

    __slots__ = ()

    #: The framework's own response types: one a handler returns (a redirect,
    #: a 404) is sent as it is, ``Accept`` merged into its ``Vary``.
    responses: tuple[type, ...] = ()

    @abstractmethod
    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Request:
        """The request among the handler's arguments (taking out any that is
        the integration's, not the handler's)."""

    @abstractmethod
    def headers(self, request: Request) -> tuple[HeaderValue, str]:
        """The request's ``Accept`` value (None when absent) and its method."""

    @abstractmethod
    def content_type(self, request: Request) -> HeaderValue:
        """The request's ``Content-Type`` value (None when absent)."""

    @abstractmethod
    def query(self, request: Request, name: str) -> str | None:
        """The first value of the request's query parameter ``name`` (None
        when absent; ``_headers.query_value``)."""

    @abstractmethod
    def keep(
        self, request: Request, consumed: Decision | None, produced: Decision
    ) -> None:
        """Leave the ``Consumes`` and ``Produces`` decisions where the
        handler finds them."""

    @abstractmethod
    def reply(self, request: Request, rendered: Rendered) -> Response:
        """The framework's response for ``rendered``."""

    def vary(self, response: Any, vary: str) -> None:
        """Merge ``vary`` into the ``Vary`` of one of ``responses``."""
        response.headers["Vary"] = merge_vary(response.headers.get("Vary"), vary)

    def serve(self, negotiated: Handler, handler: Handler) -> Handler:
        """What the framework calls: ``negotiated`` itself, or an application
        that sends what it answers."""
        return negotiated


#: A request that is a mapping: an ASGI scope, a WSGI environ.
Mapped = MutableMapping[str, Any]


class MappingBinding(Binding[Mapped, Response]):
    """A framework whose request carries a mapping of the server's (an ASGI
    scope, a WSGI environ): the decisions are left in it."""

    __slots__ = ()

    def keep(
        self, request: Mapped, consumed: Decision | None, produced: Decision
    ) -> None:
        request[CONSUMED] = consumed
        request[PRODUCED] = produced


class EnvironBinding(MappingBinding[Response]):
    """A framework whose request carries the WSGI environ (PEP 3333), where
    the server has combined repeated field lines (RFC 9110 §5.3)."""

    __slots__ = ()

    def headers(self, request: Mapped) -> tuple[HeaderValue, str]:
        return request.get("HTTP_ACCEPT"), request.get("REQUEST_METHOD", "GET")

    def content_type(self, request: Mapped) -> HeaderValue:
        return request.get("CONTENT_TYPE")

    def query(self, request: Mapped, name: str) -> str | None:
        return query_value(request.get("QUERY_STRING", ""), name)


class ScopeBinding(MappingBinding[Response]):
    """A framework whose request carries the ASGI scope, its field lines read
    with ``header_from_scope`` (RFC 9110 §5.3)."""

    __slots__ = ()

    def headers(self, request: Mapped) -> tuple[HeaderValue, str]:
        return header_from_scope(request), request["method"]

    def content_type(self, request: Mapped) -> HeaderValue:
        return header_from_scope(request, "content-type")

    def query(self, request: Mapped, name: str) -> str | None:
        return query_value(request.get("query_string", b"").decode("latin-1"), name)


def negotiating(
    binding: Binding[Any, Any], endpoint: Endpoint, handler: Handler
) -> Handler:
    """``handler``, negotiated: its arguments are the framework's, its result
    the data ``endpoint`` renders (or a response of the framework, sent as
    it is). A coroutine function stays one; ``binding`` serves it."""
    vary = endpoint.finished.vary

    def before(
        args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, Rendered | Proceed]:
        request = binding.request(args, kwargs)
        return request, endpoint.check(binding, request)

    def after(request: Any, step: Proceed, data: Any) -> Any:
        if isinstance(data, binding.responses):
            binding.vary(
                data, endpoint.finished.format_vary if step.formatted else vary
            )
            return data
        return binding.reply(request, endpoint.after(step, data))

    if inspect.iscoroutinefunction(handler):

        @wraps(handler)
        async def negotiated_coroutine(*args: Any, **kwargs: Any) -> Any:
            request, step = before(args, kwargs)
            if isinstance(step, Rendered):
                return binding.reply(request, step)
            return after(request, step, await handler(*args, **kwargs))

        return binding.serve(negotiated_coroutine, handler)

    @wraps(handler)
    def negotiated_function(*args: Any, **kwargs: Any) -> Any:
        request, step = before(args, kwargs)
        if isinstance(step, Rendered):
            return binding.reply(request, step)
        return after(request, step, handler(*args, **kwargs))

    return binding.serve(negotiated_function, handler)


#: What ``negotiated`` makes of a handler: the framework's endpoint or app.
Served = TypeVar("Served", covariant=True)


class Negotiated(Protocol[Served]):
    """The ``negotiated`` decorator factory every integration offers."""

    def __call__(
        self,
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        format_param: str | None = "format",
    ) -> Callable[[Handler], Served]: ...


def negotiated_for(
    binding: Binding[Any, Any] | Callable[[Endpoint, Handler], Handler],
    module: str,
    made: str,
    *,
    kind: type[Endpoint] = Endpoint,
    more: str = "",
) -> Negotiated[Handler]:
    """The ``negotiated`` of one integration ``module``: it makes a ``kind``
    of its arguments, with which ``binding`` serves a handler (``negotiating``),
    or ``binding(endpoint, handler)`` makes one. Its docstring says what the
    handler is ``made``, then ``more``."""
    wrap = partial(negotiating, binding) if isinstance(binding, Binding) else binding

    def negotiated(
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        format_param: str | None = "format",
    ) -> Callable[[Handler], Handler]:
        endpoint = kind(renderers, consumes, status, vary, format_param)
        return lambda handler: wrap(endpoint, handler)

    negotiated.__doc__ = f"""Make {made}
answering ``data`` rendered by ``renderers`` in the negotiated type, with
``status``; ``consumes`` checks the request's ``Content-Type`` first;
``vary`` is what the response varies on besides ``Accept``. Where
``renderers`` have ``formats``, the query parameter ``format_param`` names
the format, which wins over Accept (docs/web.md, "Format override").{more}"""
    negotiated.__module__ = module
    return negotiated
