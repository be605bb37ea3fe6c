"""The checks every integration takes before its handler runs, in one place:
a ``Binding`` says how one framework's request is read, its response made and
its endpoint served; an ``Endpoint`` finishes what it sends once, when made."""

from __future__ import annotations

import inspect
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from contextlib import suppress
from copy import deepcopy
from dataclasses import dataclass, field
from functools import partial, wraps
from importlib.util import find_spec
from types import AsyncGeneratorType, CoroutineType, UnionType
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, Union, cast, get_origin

from ._grammar import is_token
from ._headers import (
    lines_value,
    merge_vary,
    query_value,
    vary_apart,
    vary_merged_into,
)
from ._limits import checked_flag
from ._member import OfferSpec
from ._problems import is_error_status, problem
from ._render import (
    BODYLESS,
    Answer,
    Finished,
    Rendered,
    Renderers,
    called,
    checked_status,
    made_rendered,
    offer_pairs,
    sent_as_is,
)
from ._responses import (
    METHOD_FIELDS,
    NO_ACCEPT,
    NONE_ACCEPTABLE,
    UNKNOWN_FORMAT,
    Consumes,
    Decision,
    FormatSpec,
    Produces,
    is_phrase_of,
)
from ._text import HeaderValue

Request = TypeVar("Request")
Response = TypeVar("Response")
Handler = Callable[..., Any]
#: An error as a problem's facts: its status, its detail (whatever the
#: framework's error holds: ``problem_answer`` shows a str only), the
#: headers it asks for.
ErrorFacts = tuple[int, object, tuple[tuple[str, str], ...]]

#: The key under which a handler finds the ``Consumes`` decision, in the ASGI
#: scope or the WSGI environ.
CONSUMED = "fastaccept.consumed"
#: The key under which a handler finds the ``Produces`` decision (the type its
#: data is rendered in; ``Decision.params``, a version), as ``CONSUMED``.
PRODUCED = "fastaccept.produced"


def decision_in(where: Mapping[str, object], key: str) -> Decision | None:
    """The decision ``negotiated`` left under ``key`` (``CONSUMED``,
    ``PRODUCED``) in a request's mapping, typed: each integration's
    ``consumed`` and ``produced`` read it; None where there is none."""
    return cast("Decision | None", where.get(key))


def needs(
    framework: str, module: str, error: ModuleNotFoundError
) -> ModuleNotFoundError:
    """The error of an integration ``module`` whose framework's import failed
    (``error``): the framework is not installed (no package of its name
    found, or only a namespace package or a stand-in without a spec), or it
    is and lacks a module, being older than ``module`` needs or missing a
    dependency of its own, whatever module ``error`` names (none, too)."""
    package = framework.lower()
    try:
        spec = find_spec(package)
    except ValueError:  # a module in sys.modules without a spec: a stand-in
        spec = None
    if spec is None or spec.origin is None:  # a namespace package: no origin
        said = f"{module} needs {framework}: pip install {package}"
    else:
        missing = repr(error.name) if error.name else "a module"  # see its cause
        said = (
            f"{module} needs {framework}, which could not import {missing} (a "
            f"release older than {module} needs, or a dependency of its own "
            f"missing): pip install -U {package}"
        )
    return ModuleNotFoundError(said, name=error.name)


@dataclass(frozen=True, slots=True)
class Proceed:
    """Run the handler: the chosen offer's ``index`` (``Decision.index``),
    the request's method, and whether a format name chose the offer
    (``Produces.select``). An ``Endpoint`` makes those for GET once."""

    index: int
    method: str
    formatted: bool = False


def checked_format_param(param: str | None) -> None:
    """``format_param`` is a str, a parameter name (a token), or None."""
    if param is not None and not isinstance(param, str):
        kind = type(param).__name__
        raise TypeError(f"format_param must be a str or None, not {kind}")
    if param is not None and not is_token(param):
        raise ValueError(f"invalid format_param {param!r}: a parameter name, a token")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A negotiated endpoint's arguments, checked as ``Renderers.render``
    checks them, and its ``finished`` responses (``consumes``' refusals
    among them), built once. ``format_param``: the query parameter read as
    the format name where the renderers have ``formats`` (None: none).
    ``problems``: the framework's own errors the handler raises are answered
    with ``problem`` (problem+json or plain text, as Accept prefers)."""

    renderers: Renderers
    consumes: Consumes | None
    status: int
    vary: str | None
    format_param: str | None = "format"
    problems: bool = False
    finished: Finished = field(init=False, repr=False, compare=False)
    #: By ``formatted`` (False, True), then offer index: the ``Proceed`` of a GET.
    _gets: tuple[tuple[Proceed, ...], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        checked_negotiation(self.renderers, self.consumes)
        object.__setattr__(self, "status", checked_status(self.status))
        checked_flag(self.problems, "problems")
        checked_format_param(self.format_param)
        refusals = () if self.consumes is None else self.consumes._refusals
        finished = Finished(self.renderers, self.vary, refusals)
        object.__setattr__(self, "finished", finished)
        offers = range(len(self.renderers.produces.media_types))
        gets = tuple(
            tuple(Proceed(i, "GET", by) for i in offers) for by in (False, True)
        )
        object.__setattr__(self, "_gets", gets)

    def check(
        self, binding: Binding[Request, Any], request: Request
    ) -> Rendered | Proceed:
        """The request's Content-Type (with ``consumes``), then its Accept: a
        refusal to answer, or what the handler needs (both decisions kept
        where it finds them)."""
        accept, method = binding.headers(request)
        if method == "HEAD" and binding.head_as_get:
            method = "GET"
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
        formatted = bool(named)
        if method == "GET":
            return self._gets[formatted][decision.index]
        return Proceed(decision.index, method, formatted)

    def after(
        self, binding: Binding[Request, Any], request: Request, step: Proceed, data: Any
    ) -> Any:
        """The answer to the handler's ``data``: one of the framework's
        ``responses``, or a ``Rendered`` (``problem``'s), as it is,
        ``Accept`` merged into its ``Vary`` (where a format name chose, the
        endpoint's own ``vary`` alone); else ``data`` (or an ``Answer``) in
        the type ``step`` chose, as the framework's response."""
        finished = self.finished
        if isinstance(data, tuple):  # a named tuple too, as Flask reads one
            try:
                data = binding.returned_tuple(data)
            except TypeError:  # a coroutine in it: not warned "never awaited" too
                for item in data:
                    if type(item) is CoroutineType:
                        item.close()
                raise
        given = data.data if isinstance(data, Answer) else data
        if type(given) is CoroutineType:  # rendered, it would pass for data
            given.close()  # its "never awaited" warning said here instead
            raise TypeError(
                f"the handler returned the coroutine {given.__qualname__}(): "
                "await it, and return what it gives"
            )
        if type(given) is AsyncGeneratorType:  # no renderer can iterate it
            raise TypeError(
                f"the handler returned the async generator {given.__qualname__}(): "
                "return its items (a list), which the renderers render"
            )
        if isinstance(data, Rendered):  # a whole response, not data to render
            method = binding.headers(request)[1]  # HEAD's, where step says GET
            return whole_answer(
                binding, request, data, method, finished.varies(step.formatted)
            )
        if isinstance(data, binding.responses):
            varies = finished.varies(step.formatted)
            if varies:  # a format name chose, and nothing else decides: no Vary
                binding.vary(data, varies)
            return binding.own(data)
        if isinstance(data, Answer):
            status = data.status or binding.status(request) or self.status
            rendered = finished.chosen(
                step.index, data.data, step.method, status, data.headers, step.formatted
            )
        else:
            status = binding.status(request) or self.status
            rendered = finished.chosen(
                step.index, data, step.method, status, formatted=step.formatted
            )
        return binding.reply(request, rendered)


#: The key under which a framework's route leaves the checks it took before
#: the framework read the request's parameters and body (FastAPI's
#: ``NegotiatedRoute``, Litestar's ``NegotiationPlugin``), in the ASGI scope.
CHECKED = "fastaccept.checked"


def route_vary(finished: Finished, scope: Mapped) -> str:
    """The ``Vary`` a route's error answer gets (``Finished.varies``): where
    the route took the checks (``CHECKED``) and a format name chose, the
    endpoint's own ``vary`` alone; else, before the checks too, with
    ``Accept``."""
    taken: Proceed | None = scope.get(CHECKED)
    return finished.varies(taken is not None and taken.formatted)


class RoutedEndpoint(Endpoint):
    """An endpoint whose checks the framework's route may take before the
    framework reads the parameters and the body (a refused body type a 415,
    not the framework's error for the body), leaving them under
    ``CHECKED``; where it did not, the handler's wrapper takes them, and
    warns with what ``unrouted`` says."""

    __slots__ = ()

    def check(self, binding: Binding[Any, Any], request: Any) -> Rendered | Proceed:
        """The checks, or what the route found when it took them."""
        taken: Proceed | None = request.get(CHECKED)
        if taken is not None:
            return taken
        said = self.unrouted(request)
        if said is not None:
            warnings.warn(said, RuntimeWarning, stacklevel=1)
        return super().check(binding, request)

    def unrouted(self, request: Any) -> str | None:
        """What to say, once for each route, of a request whose checks its
        route did not take (None: nothing)."""
        return None


class Binding(ABC, Generic[Request, Response]):
    """How one framework's handler is called: where its request is among the
    handler's arguments, how its headers are read, how a response is made."""

    __slots__ = ()

    #: The framework's own response types: one a handler returns (a redirect,
    #: a 404) is sent as it is, ``Accept`` merged into its ``Vary`` (``after``).
    responses: tuple[type, ...] = ()
    #: The framework's own errors a handler raises (a 404, a 400 for a body
    #: it cannot read): what the framework answers for one gets ``Accept`` in
    #: its ``Vary`` too (``raised``).
    errors: tuple[type[BaseException], ...] = ()
    #: Whether an answer to HEAD is made as to GET, its body then dropped by
    #: the framework or its server, as for the framework's own views: so
    #: middleware that reads the body (to compress it, to make an ETag) gives
    #: HEAD the header fields it gives GET (RFC 9110 §9.3.2). Else HEAD is
    #: answered with GET's headers and no body.
    head_as_get: bool = False

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

    def returned_tuple(self, returned: tuple[Any, ...]) -> Any:
        """What a tuple the handler returned is: its data (a JSON array,
        say), unless the framework reads one otherwise (Flask's views)."""
        return returned

    def status(self, request: Request) -> int | None:
        """A status the handler set through the framework (FastAPI's injected
        ``Response``), which its data is answered with where no ``Answer``
        gives one; None for none."""
        return None

    def vary(self, response: Any, vary: str) -> None:
        """Merge ``vary`` into the ``Vary`` of one of ``responses``: every
        line of it (Starlette's and werkzeug's headers keep each; ``get``
        gives the first), or its one value (Django's)."""
        headers = response.headers
        if hasattr(headers, "getlist"):
            given = headers.getlist("Vary")
        else:
            given = [headers.get("Vary")]
        headers["Vary"] = merge_vary(*given, vary)

    def own(self, response: Any) -> Any:
        """One of ``responses`` that a handler returned, as it is to be sent:
        itself, unless the framework would send it otherwise."""
        return response

    def error_facts(self, error: BaseException) -> ErrorFacts | None:
        """One of ``errors`` as a problem's facts: its status, its detail and
        the headers it asks for; None: left to the framework."""
        return None

    def problem_facts(self, error: BaseException) -> ErrorFacts | None:
        """``error_facts`` where its status is an error's (``is_error_status``,
        400-599); None, left to the framework, for any other (a redirect
        raised as an exception)."""
        facts = self.error_facts(error)
        return facts if facts is not None and is_error_status(facts[0]) else None

    def raised(self, args: tuple[Any, ...], error: BaseException, vary: str) -> Any:
        """For one of ``errors`` raised by the handler called with ``args``:
        the framework's response to it with ``vary`` merged into its ``Vary``,
        or None to raise it again, made to carry ``vary`` itself."""
        return None

    async def raised_async(
        self, args: tuple[Any, ...], error: BaseException, vary: str
    ) -> Any:
        """``raised`` for a coroutine function's error, awaited in its event
        loop (where the framework answers it from a thread, there)."""
        return self.raised(args, error, vary)

    def is_async(self, handler: Handler) -> bool:
        """Whether the framework awaits ``handler`` (``is_awaited``)."""
        return is_awaited(handler)

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


def field_lines(scope: Mapped) -> Iterable[tuple[bytes, bytes]]:
    """``scope["headers"]``, which ASGI types as any iterable: one that reads
    once (a generator a middleware made) is made a list and kept in the
    scope, as Starlette keeps it, so that Content-Type and the handler see
    every line after Accept was read."""
    fields = scope.get("headers", ())
    if type(fields) is not list and iter(fields) is fields:
        fields = scope["headers"] = list(fields)
    return fields  # type: ignore[no-any-return]


class ScopeBinding(MappingBinding[Response]):
    """A framework whose request carries the ASGI scope, its field lines read
    with ``_headers.lines_value`` (RFC 9110 §5.3)."""

    __slots__ = ()

    def headers(self, request: Mapped) -> tuple[HeaderValue, str]:
        return lines_value(field_lines(request), b"accept"), request["method"]

    def content_type(self, request: Mapped) -> HeaderValue:
        return lines_value(field_lines(request), b"content-type")

    def query(self, request: Mapped, name: str) -> str | None:
        return query_value(request.get("query_string", b"").decode("latin-1"), name)


class HTTPExceptionBinding(ScopeBinding[Response]):
    """A framework whose ``HTTPException`` (Starlette's, Litestar's) carries
    a ``status_code``, a ``detail`` and ``headers`` (a mapping)."""

    __slots__ = ()

    def error_facts(self, error: Any) -> ErrorFacts:
        """Its ``status_code``, its ``detail`` and its ``headers``."""
        return error.status_code, error.detail, tuple((error.headers or {}).items())

    def raised(self, args: tuple[Any, ...], error: Any, vary: str) -> None:
        """It goes on with ``vary`` merged into the ``Vary`` of its headers,
        which the framework's exception handler sends."""
        error.headers = vary_merged_into(error.headers, vary)


def serving(
    binding: Binding[Any, Any], endpoint: Endpoint, handlers: tuple[Handler, ...]
) -> Handler:
    """An endpoint of the framework's from ``handlers``, the one for each offer
    of ``endpoint`` by ``Decision.index`` (``negotiated``: one handler for
    all): its arguments are the framework's; after the checks the chosen
    offer's handler alone runs, and its result is the data ``endpoint``
    renders (or a response of the framework, sent as it is). Coroutine
    functions make a coroutine function; ``binding`` serves it."""
    vary = endpoint.finished.vary
    model = handlers[0]

    def facts_of(error: BaseException) -> ErrorFacts | None:
        """The framework's own ``error`` as a problem's facts
        (``endpoint.problems``); None: the framework answers it
        (``Binding.raised``), ``Accept`` in its Vary."""
        return binding.problem_facts(error) if endpoint.problems else None

    if binding.is_async(model):

        @wraps(model)
        async def negotiated_coroutine(*args: Any, **kwargs: Any) -> Any:
            request = binding.request(args, kwargs)
            step = endpoint.check(binding, request)
            if isinstance(step, Rendered):
                return binding.reply(request, step)
            try:  # the renderers' errors too
                data = await handlers[step.index](*args, **kwargs)
                return endpoint.after(binding, request, step, data)
            except binding.errors as error:
                if (facts := facts_of(error)) is not None:
                    return problem_answer(binding, request, facts, vary)
                answer = await binding.raised_async(args, error, vary)
                if answer is None:
                    raise
                return answer

        return binding.serve(negotiated_coroutine, model)

    @wraps(model)
    def negotiated_function(*args: Any, **kwargs: Any) -> Any:
        request = binding.request(args, kwargs)
        step = endpoint.check(binding, request)
        if isinstance(step, Rendered):
            return binding.reply(request, step)
        try:  # the renderers' errors too
            data = handlers[step.index](*args, **kwargs)
            return endpoint.after(binding, request, step, data)
        except binding.errors as error:
            if (facts := facts_of(error)) is not None:
                return problem_answer(binding, request, facts, vary)
            answer = binding.raised(args, error, vary)
            if answer is None:
                raise
            return answer

    return binding.serve(negotiated_function, model)


#: The fields of an error that describe its own content, which its problem
#: replaces: its type and length, its content coding (RFC 9110 §8.3-8.6), the
#: digests of its content and representation (RFC 9530 §2-3).
_ERROR_CONTENT_FIELDS = frozenset(
    {
        "content-type",
        "content-length",
        "content-encoding",
        "content-digest",
        "repr-digest",
    }
)


def problem_answer(
    binding: Binding[Request, Response], request: Request, facts: ErrorFacts, vary: str
) -> Response:
    """An error's facts answered with ``problem`` as the request's Accept
    prefers, ``binding``'s response: its headers but those of its own
    content (``_ERROR_CONTENT_FIELDS``), ``vary`` merged into the Vary it
    asks for (rule 17), no body for HEAD (but where the framework drops it:
    ``head_as_get``). A detail that is no str (an error may carry any
    object: werkzeug's ``abort(400, description={...})``), is empty, or is
    the status's phrase, the title again (a framework's default message),
    is left out."""
    status, detail, asked = facts
    accept, method = binding.headers(request)
    shown = None
    if isinstance(detail, str) and detail and not is_phrase_of(status, detail):
        shown = detail
    negotiated = problem(status, accept, detail=shown)
    asked_vary, asked_others = vary_apart(asked)
    headers = (
        *vary_apart(negotiated.header_items)[1],
        *(i for i in asked_others if i[0].lower() not in _ERROR_CONTENT_FIELDS),
    )
    made = made_rendered(status, headers, negotiated.body, False)
    return whole_answer(binding, request, made, method, merge_vary(*asked_vary, vary))


def whole_answer(
    binding: Binding[Request, Response],
    request: Request,
    rendered: Rendered,
    method: str,
    vary: str,
) -> Response:
    """A whole response (``problem``'s, a handler's) as ``binding``'s
    response: ``vary`` merged into its ``Vary`` (rule 17), no body for HEAD
    (but where the framework drops it: ``head_as_get``), its
    ``Content-Length`` kept, named so whatever its case (as each binding
    reads it); one made by hand without it gets its body's (HEAD's is
    GET's, RFC 9110 §9.3.2; a 205's 0, §15.3.6 and RFC 9112 §6.3), and one
    that promises a body it has not is a ``ValueError`` but for HEAD and a
    304 (the 200's, RFC 9110 §8.6)."""
    own, given = vary_apart(rendered.header_items)
    others = [
        ("Content-Length", value) if name.lower() == "content-length" else (name, value)
        for name, value in given
    ]
    length = [value for name, value in others if name == "Content-Length"]
    if not length and rendered.status not in (204, 304):
        others = [*others, ("Content-Length", f"{len(rendered.body)}")]
    elif (
        length
        and length[0].lstrip("0")
        and not rendered.body
        and method != "HEAD"
        and rendered.status != 304
    ):
        raise ValueError(
            f"a {method} response with Content-Length {length[0]} and no "
            "body: a HEAD response's, the GET body left out (RFC 9110 §8.6)"
        )
    merged = merge_vary(*own, vary)
    headers = (*others, *((("Vary", merged),) if merged else ()))
    body = b"" if method == "HEAD" and not binding.head_as_get else rendered.body
    sent = made_rendered(rendered.status, headers, body, rendered.ok)
    return binding.reply(request, sent)


#: A refusal's body as ``application/problem+json`` (RFC 9457 §3; docs/rules.md
#: rule 16), as JSON Schema: ``acceptable`` lists the media types the resource
#: has or takes; ``formats``, in a 406 to a format name it does not have, its
#: format names (docs/web.md).
REFUSAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "format": "uri-reference"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "acceptable": {"type": "array", "items": {"type": "string"}},
        "formats": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["type", "title", "status", "detail"],
}

_TEXT_MEDIA = {"schema": {"type": "string"}}
_PLAIN_CONTENT = {"text/plain": _TEXT_MEDIA}
_REFUSAL_CONTENT = {
    "application/problem+json": {"schema": REFUSAL_SCHEMA},
    **_PLAIN_CONTENT,
}
#: What ``problem`` answers an error with (``problems=True``): a refusal's
#: content but ``acceptable`` and ``formats``, and ``detail`` only where the
#: error has one.
PROBLEM_CONTENT = {
    "application/problem+json": {
        "schema": {
            **REFUSAL_SCHEMA,
            "required": ["type", "title", "status"],
            "properties": {
                name: schema
                for name, schema in REFUSAL_SCHEMA["properties"].items()
                if name not in ("acceptable", "formats")
            },
        }
    },
    **_PLAIN_CONTENT,
}
_REFUSALS = {
    406: "Not Acceptable: {}.",  # why: ``_not_acceptable_causes``
    415: "Unsupported Media Type: the request's Content-Type is not taken.",
    431: "Request Header Fields Too Large: {} too long.",  # the fields limited
}


def checked_negotiation(renderers: object, consumes: object) -> None:
    """``renderers`` a ``Renderers`` and ``consumes`` a ``Consumes`` or None:
    a ``TypeError`` naming what was given otherwise."""
    if not isinstance(renderers, Renderers):
        raise TypeError(
            f"renderers must be a Renderers, not {type(renderers).__name__}"
        )
    if consumes is not None and not isinstance(consumes, Consumes):
        kind = type(consumes).__name__
        raise TypeError(f"consumes must be a Consumes or None, not {kind}")


def _not_acceptable_causes(produces: Produces, named: bool) -> str:
    """What a route's 406 answers, in its bodies' words: without a default,
    an Accept that allows none of the media types, and, where an absent
    Accept reaches no offer (docs/rules.md rule 21), a request without one;
    with format names read (``named``), a name that is none of them."""
    causes = []
    if produces.default is None:
        causes.append(NONE_ACCEPTABLE)
        if produces._negotiator.choose_index(None) < 0:
            causes.append(NO_ACCEPT)
    if named:
        causes.append(UNKNOWN_FORMAT)
    return "; or ".join(cause.rstrip(".") for cause in causes)


def openapi_responses(
    renderers: Renderers,
    consumes: Consumes | None = None,
    status: int = 200,
    methods: Iterable[str] = (),
    *,
    format_param: str | None = "format",
) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a negotiated route: under ``status`` every
    media type of ``renderers`` it can send (a qs above 0, the default, or a
    format name's where ``format_param`` reads one; none for a status
    without content), then its refusals with their bodies (a 406 without a
    default or with format names read; a 431 as problem+json only for a
    Content-Type: an over-long Accept is not read); the 415's headers:
    ``Accept``, and for the route's ``methods`` POST, PATCH and QUERY the
    one each adds (``Consumes.check``). Arguments as ``negotiated`` takes
    them, else ``TypeError`` or ``ValueError``."""
    checked_negotiation(renderers, consumes)
    status = checked_status(status)
    checked_format_param(format_param)
    if isinstance(methods, str | bytes):  # its characters would pass for methods
        raise TypeError(
            "methods must be an iterable of str (such as a list), not a "
            f"{type(methods).__name__}: use [{methods!r}]"
        )
    methods = tuple(methods)
    for method in methods:
        if not isinstance(method, str):
            raise TypeError(f"each method must be a str, not {type(method).__name__}")
    produces = renderers.produces
    named = {} if format_param is None else produces._format_index
    sent = {produces._default_index, *named.values()}
    responses: dict[int | str, dict[str, Any]] = {
        status: {}
        if status in BODYLESS
        else {
            "content": {
                # A text type's body is a string whatever renders it (the
                # schema a generated client reads it by); another's unknown.
                media_type: deepcopy(_TEXT_MEDIA) if parsed.type == "text" else {}
                for i, (media_type, parsed) in enumerate(
                    zip(produces.media_types, produces._parsed, strict=True)
                )
                if parsed.qs > 0 or i in sent
            }
        }
    }
    content_limited = consumes is not None and consumes._max_length is not None
    limits = {
        "Accept": produces.max_length is not None,
        "Content-Type": content_limited,
    }
    too_long = " or ".join(name for name, limit in limits.items() if limit)
    refused = {
        406: produces.default is None or bool(named),
        415: consumes is not None,
        431: bool(too_long),
    }
    causes = {406: _not_acceptable_causes(produces, bool(named)), 431: too_long}
    for code, description in _REFUSALS.items():
        if refused[code]:
            plain = code == 431 and not content_limited
            content = _PLAIN_CONTENT if plain else _REFUSAL_CONTENT
            described = description.format(causes.get(code))
            # A copy of its own: a program that edits one route's document
            # changes neither another's nor REFUSAL_SCHEMA (PROBLEM_SCHEMA).
            responses[code] = {"description": described, "content": deepcopy(content)}
    if consumes is not None:
        # One operation per method shares these: each method's own field is
        # said to be sent to that method alone.
        takes = "The media types this resource takes"
        fields = {"Accept": (f"{takes}.", consumes.accept)}
        for method in sorted(methods):
            for name, value in consumes._method_field(METHOD_FIELDS.get(method, "")):
                fields[name] = (f"{takes}, sent in a 415 to {method}.", value)
        responses[415]["headers"] = {
            name: {
                "description": description,
                "schema": {"type": "string", "example": value},
            }
            for name, (description, value) in fields.items()
        }
    return responses


def body_media_type(consumes: Consumes, documented: str) -> str:
    """Which media type of ``consumes`` an OpenAPI ``requestBody`` lists with
    the schema a framework documents under ``documented``, its body's own
    (FastAPI's ``Body(media_type=...)``, a form's; Litestar's ``data``):
    ``documented`` where ``consumes`` takes it; else the first type it takes
    that the framework reads as that kind of body (JSON: ``application/json``
    and ``application/*+json``, RFC 6839 §3.1, a suffix range too); else its
    first: never a type it refuses."""
    # Consumes' own reading, not a subclass's ``check``: that is a request's.
    if Consumes.check(consumes, documented).status == 200:
        return documented
    type_, _, subtype = documented.partition(";")[0].strip().lower().partition("/")
    kind = _body_kind(type_, subtype)
    for given, (taken_type, taken_subtype, _, _) in zip(
        consumes.media_types, consumes._ranges, strict=True
    ):
        if _body_kind(taken_type, taken_subtype) == kind:
            return given
    return consumes.media_types[0]


def _body_kind(type_: str, subtype: str) -> str:
    """The kind of body a framework reads from a type (``body_media_type``):
    "json" (FastAPI and Litestar read any JSON type so), else the type."""
    if type_ == "application" and (subtype == "json" or subtype.endswith("+json")):
        return "json"
    return f"{type_}/{subtype}"


def format_parameter(endpoint: Endpoint) -> dict[str, Any] | None:
    """The OpenAPI query parameter that names a format (docs/web.md, "Format
    override"), where the endpoint reads one and has names; its ``enum`` the
    names, lower-case (its description says that case is ignored and that an
    empty value names none, which the enum cannot)."""
    names = list(endpoint.renderers.produces.formats)
    if endpoint.format_param is None or not names:
        return None
    return {
        "name": endpoint.format_param,
        "in": "query",
        "required": False,
        "description": (
            "A representation by name, chosen over the Accept header; the "
            "name's case is ignored, and an empty value names none."
        ),
        "schema": {"type": "string", "enum": names},
    }


#: The attribute of a handler ``signed`` made that holds its ``Endpoint``: the
#: framework's route finds it there (FastAPI's ``NegotiatedRoute``, Litestar's
#: ``NegotiationPlugin``).
ENDPOINT_ATTRIBUTE = "__fastaccept_endpoint__"


def framework_argument(kwargs: dict[str, Any], name: str, keep: bool) -> Any:
    """The argument ``name`` the framework passes for the integration
    (``signed``'s ``added``), taken out of ``kwargs`` unless the handler
    takes it too (``keep``); a ``TypeError`` naming it where the endpoint is
    called without it: directly, not by the framework."""
    try:
        return kwargs[name] if keep else kwargs.pop(name)
    except KeyError:
        raise TypeError(
            f"the negotiated endpoint takes the keyword argument {name!r} the "
            "framework passes it: call it through the app (a test client)"
        ) from None


def signed(
    binding: Binding[Any, Any],
    endpoint: Endpoint,
    handlers: tuple[Handler, ...],
    signature: inspect.Signature,
    *,
    added: Iterable[tuple[str, Any]] = (),
    answer_alone_as: Any = inspect.Signature.empty,
) -> Handler:
    """``serving`` for a framework that reads the handler's signature to call
    it (FastAPI, Litestar): ``signature`` with the ``added`` parameters (the
    name and annotation of each the framework fills for the integration, the
    request where the handler takes none, added keyword-only, before
    ``**kwargs``) and ``Answer`` and ``Rendered`` out of a union in its
    return annotation (a framework would take their fields for the
    response's schema; either alone is ``answer_alone_as``, by default no
    annotation), as its ``__signature__`` and as its ``__annotations__``
    (which ``typing.get_type_hints`` reads), ``endpoint`` as its
    ``ENDPOINT_ATTRIBUTE``."""
    parameters = list(signature.parameters.values())
    at = len(parameters)
    if parameters and parameters[-1].kind is inspect.Parameter.VAR_KEYWORD:
        at -= 1
    for name, annotation in added:
        keyword = inspect.Parameter.KEYWORD_ONLY
        parameters.insert(at, inspect.Parameter(name, keyword, annotation=annotation))
        at += 1
    returned = signature.return_annotation
    members = getattr(returned, "__args__", ())
    if returned is Answer or returned is Rendered:
        returned = answer_alone_as
    elif get_origin(returned) in (Union, UnionType) and (
        Answer in members or Rendered in members
    ):
        others = tuple(m for m in members if m is not Answer and m is not Rendered)
        # a tuple of members, made at run time
        returned = Union[others] if others else answer_alone_as  # noqa: UP007
    signature = signature.replace(parameters=parameters, return_annotation=returned)
    wrapper = serving(binding, endpoint, handlers)
    annotations = {
        name: parameter.annotation
        for name, parameter in signature.parameters.items()
        if parameter.annotation is not parameter.empty
    }
    if signature.return_annotation is not signature.empty:
        annotations["return"] = signature.return_annotation
    # setattr: mypy knows no such attributes of a Callable.
    setattr(wrapper, "__signature__", signature)  # noqa: B010
    setattr(wrapper, "__annotations__", annotations)  # noqa: B010
    setattr(wrapper, ENDPOINT_ATTRIBUTE, endpoint)
    return wrapper


def check_coroutine(
    handler: Handler, form: str, module: str, awaited: bool = True
) -> None:
    """Check that ``handler`` is a coroutine function (``async def form``)
    where the integration ``module`` awaits it, or a plain one (``def form``)
    where it calls it (not ``awaited``): a ``TypeError`` at decoration if
    not, not a 500 on every request."""
    if is_awaited(handler) is not awaited:
        kind = "a coroutine function (async def" if awaited else "a function (def"
        raise TypeError(
            f"{getattr(handler, '__name__', 'the handler')} must be {kind} "
            f"{form}) for {module}"
        )


#: Set on what ``negotiated`` and ``dispatch`` make, so that it is not
#: negotiated again (``checked_handler``).
NEGOTIATED_ATTRIBUTE = "__fastaccept_negotiated__"


def checked_handler(handler: object, offer: object = None) -> Handler:
    """A handler: callable, not negotiated already (the outer decision
    would override the inner), and no async generator function, whose items
    no renderer can iterate; ``dispatch``'s (the ``offer`` it answers
    given) no generator function either, as it returns the body itself (a
    ``TypeError`` when it is decorated, not a 500 on every request). Each
    check reads what runs when it is called (``called``): under
    ``functools.partial``, an object's ``__call__``."""
    whose = "" if offer is None else f" for {offer!r}"
    if not callable(handler):
        raise TypeError(
            f"the handler{whose} must be callable, not {type(handler).__name__}"
        )
    if getattr(handler, NEGOTIATED_ATTRIBUTE, False):
        raise TypeError(
            f"the handler{whose} is negotiated already: give one negotiated "
            "(or dispatch) all its renderers"
        )
    runs = called(handler)
    if any(map(inspect.isasyncgenfunction, runs)):
        raise TypeError(
            f"the handler{whose} must not be an async generator function: it "
            "returns the data its renderers render (its items as a list, say)"
        )
    if offer is not None and any(map(inspect.isgeneratorfunction, runs)):
        raise TypeError(
            f"the handler{whose} must not be a generator function: a dispatch "
            "handler returns the body (str or bytes) or an Answer of it"
        )
    return handler


def marked(made: Handler) -> Handler:
    """What ``negotiated`` or ``dispatch`` made, marked so
    (``NEGOTIATED_ATTRIBUTE``) where it takes attributes."""
    with suppress(AttributeError, TypeError):  # a bound method, say: not marked
        setattr(made, NEGOTIATED_ATTRIBUTE, True)
    return made


def is_awaited(handler: Handler, *, unwrapped: bool = False) -> bool:
    """Whether a framework awaits ``handler``, as Starlette and Litestar tell:
    a coroutine function, or an object (not a class) whose ``__call__`` is
    one, either under ``functools.partial``; ``unwrapped`` (FastAPI's test),
    or the function under it that a decorator keeps as ``__wrapped__``
    (``functools.wraps``)."""
    given = (handler, inspect.unwrap(handler)) if unwrapped else (handler,)
    return any(map(inspect.iscoroutinefunction, (c for h in given for c in called(h))))


def evaluated_signature(handler: Handler) -> inspect.Signature:
    """The handler's signature, its annotations evaluated where they can be
    (a framework that reads them from a wrapper reads them in the wrapper's
    globals, not the handler's)."""
    try:
        return inspect.signature(handler, eval_str=True)
    except NameError:  # a name imported only for type checkers
        return inspect.signature(handler)


def shared_signature(
    handlers: tuple[Handler, ...], framework: str, *, returns: bool = True
) -> inspect.Signature:
    """The signature ``handlers`` share (``evaluated_signature``): a framework
    that reads one makes one operation of them for every media type; a
    ``ValueError`` where one differs. Without ``returns``, their return
    annotations are left out (the framework is given none), not compared."""

    def read(handler: Handler) -> inspect.Signature:
        signature = evaluated_signature(handler)
        empty = inspect.Signature.empty
        return signature if returns else signature.replace(return_annotation=empty)

    signature = read(handlers[0])
    for other in handlers[1:]:
        if other is not handlers[0] and read(other) != signature:
            raise ValueError(
                f"the handlers must share one signature ({framework} reads one): "
                f"{getattr(other, '__name__', other)!r} has "
                f"{read(other)}, not {signature}"
            )
    return signature


def sends_bodies(endpoint: Endpoint) -> bool:
    """Whether ``endpoint``'s handlers return the bodies they send
    (``dispatch``'s), not data for renderers: their return annotation (``str``)
    is then no schema of what the offers carry."""
    return all(render is sent_as_is for _, render in endpoint.renderers._renderers)


#: What ``negotiated`` makes of a handler: the framework's endpoint or app.
Served = TypeVar("Served", covariant=True)
#: The handlers an integration takes (``Handler``: any callable).
Taken = TypeVar("Taken", contravariant=True)
#: The decorator ``negotiated`` gives: from a handler to what it makes.
Decorator = TypeVar("Decorator", covariant=True)
_P = ParamSpec("_P")


class KeepsParameters(Protocol):
    """The decorator of an integration whose endpoint keeps the handler's
    parameters (the framework reads them): a type checker checks calls of the
    endpoint as of the handler."""

    def __call__(self, handler: Callable[_P, Any], /) -> Callable[_P, Any]: ...


class Negotiated(Protocol[Decorator]):
    """The ``negotiated`` decorator factory every integration offers."""

    def __call__(
        self,
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        format_param: str | None = "format",
        problems: bool = False,
    ) -> Decorator: ...


class Dispatch(Protocol[Taken, Served]):
    """The ``dispatch`` every integration offers."""

    def __call__(
        self,
        # Keys typed ``Any``: a ``dict[str, ...]`` must fit too.
        handlers: Mapping[Any, Taken] | Iterable[tuple[OfferSpec, Taken]],
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        formats: FormatSpec = None,
        format_param: str | None = "format",
        problems: bool = False,
    ) -> Served: ...


def integration(
    binding: Binding[Any, Any] | Callable[[Endpoint, tuple[Handler, ...]], Handler],
    module: str,
    handler: str,
    makes: str,
    *,
    either: bool = True,
    kind: type[Endpoint] = Endpoint,
    awaits: Callable[[Handler], bool] = is_awaited,
    negotiated_note: str = "",
    dispatch_note: str = "",
) -> tuple[Negotiated[Callable[[Handler], Handler]], Dispatch[Handler, Handler]]:
    """The ``negotiated`` and ``dispatch`` of the integration ``module``: each
    makes a ``kind`` of its arguments, with which ``binding`` serves the
    handlers (``serving``), or ``binding(endpoint, handlers)`` makes the
    endpoint, where ``awaits`` tells the handlers the framework awaits.
    Each one's docstring says that it ``makes`` the framework's endpoint of
    ``handler`` (``either``: async or not), whether a handler may return the
    framework's own response (a ``binding`` with ``responses``, or one given
    as a call: FastAPI's and Litestar's), and ends with its note
    (``negotiated_note``, ``dispatch_note``)."""
    either_way, or_either = " (async or not)" * either, ", async or not" * either
    own_response = not isinstance(binding, Binding) or bool(binding.responses)
    as_is = (
        "A ``Rendered`` or the framework's own response"
        if own_response
        else "A ``Rendered``"
    )
    wrap = partial(serving, binding) if isinstance(binding, Binding) else binding
    is_async = binding.is_async if isinstance(binding, Binding) else awaits

    def negotiated(
        renderers: Renderers,
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        format_param: str | None = "format",
        problems: bool = False,
    ) -> Callable[[Handler], Handler]:
        endpoint = kind(renderers, consumes, status, vary, format_param, problems)
        offers = len(renderers.produces.media_types)
        return lambda handler: marked(
            wrap(endpoint, (checked_handler(handler),) * offers)
        )

    def dispatch(
        handlers: Mapping[Any, Handler] | Iterable[tuple[OfferSpec, Handler]],
        *,
        consumes: Consumes | None = None,
        status: int = 200,
        vary: str | None = None,
        formats: FormatSpec = None,
        format_param: str | None = "format",
        problems: bool = False,
    ) -> Handler:
        pairs = offer_pairs(handlers, "handlers", "handler")
        if not pairs:
            raise ValueError("dispatch needs at least one handler")
        by_index = tuple(checked_handler(handler, offer) for offer, handler in pairs)
        if len({is_async(h) for h in by_index}) > 1:
            raise ValueError(
                "the handlers must all be coroutine functions (async def), or none"
            )
        renderers = Renderers(
            [(offer, sent_as_is) for offer, _ in pairs], formats=formats
        )
        endpoint = kind(renderers, consumes, status, vary, format_param, problems)
        return marked(wrap(endpoint, by_index))

    negotiated.__doc__ = f"""Make ``{handler} -> data``{either_way} {makes}
answering ``data`` rendered by ``renderers`` in the negotiated type, with
``status``; ``consumes`` checks the request's ``Content-Type`` first;
``vary`` is what the response varies on besides ``Accept``. Where
``renderers`` have ``formats``, the query parameter ``format_param`` names
the format, which wins over Accept (docs/web.md, "Format override").
``problems=True`` answers the framework's own errors the handler raises with
``fastaccept.problem`` (docs/web.md, "Errors negotiated for any
status").{negotiated_note}"""
    dispatch.__doc__ = f"""Make {makes} (each handler ``{handler}``{or_either})
from one handler per offer (a mapping, or pairs, in order of preference;
offers as ``Produces`` takes them): the request's ``Content-Type`` is
checked first when ``consumes`` is given, then its ``Accept`` (and the
format ``format_param`` names, where ``formats`` are given); a refusal is
answered before any handler runs; otherwise the chosen offer's handler
alone runs, and what it returns (str, encoded in the offer's charset or
UTF-8, bytes, or an ``Answer`` of them) is sent as that offer, with
``status``, ``Vary`` and ``problems`` as ``negotiated``'s.
{as_is} it returns is sent as it is.{dispatch_note}"""
    negotiated.__module__ = dispatch.__module__ = module
    negotiated.__qualname__, dispatch.__qualname__ = "negotiated", "dispatch"
    return negotiated, dispatch
