"""Negotiated FastAPI endpoints, documented in ``/openapi.json``.

::

    app = FastAPI()
    app.router.route_class = NegotiatedRoute    # documents negotiated routes

    @app.get("/greeting")
    @negotiated(GREETING)                       # a Renderers
    def greeting() -> Greeting:
        return Greeting(greeting="hello")       # rendered in the type chosen

The handler keeps its FastAPI parameters (path, query, body, ``Depends``);
``negotiated`` adds the request to them where the handler takes none.
Refusals (415, 406, 431; docs/rules.md rule 16) are answered before the
handler runs; it finds the accepted request type as ``consumed(request)``
(``request.scope["fastaccept.consumed"]``, typed), the chosen type as
``produced(request)``. HEAD is answered like GET without a body; ``Vary``
has ``Accept`` merged in. A handler may return a Starlette ``Response``: it
is sent as it is, ``Accept`` merged into its ``Vary``. What a handler or a
dependency sets on the ``Response`` FastAPI gives it (``response:
Response``: cookies, headers, a status) is added to the answer its data
chose (a handler that takes no ``Response`` gains a ``fastaccept_response``
parameter for it, as it gains ``fastaccept_request``).

``NegotiatedRoute`` (FastAPI's custom route class) lists every offered media
type under the route's success status in the OpenAPI document, and 406 (and
415 with ``consumes``, 431 with a length limit) with the
``application/problem+json`` schema of RFC 9457, so ``/docs`` shows them,
and with ``consumes`` the body types it takes under ``requestBody``;
``openapi_responses`` gives the responses as a ``responses=`` mapping, for
routes of another route class.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from typing import Any

from ._endpoint import (
    CHECKED,
    CONSUMED,
    ENDPOINT_ATTRIBUTE,
    PRODUCED,
    REFUSAL_SCHEMA,
    Dispatch,
    Endpoint,
    Handler,
    Mapped,
    Negotiated,
    RoutedEndpoint,
    body_media_type,
    format_parameter,
    framework_argument,
    integration,
    is_awaited,
    needs,
    openapi_responses,
    problem_answer,
    route_vary,
    sends_bodies,
    shared_signature,
    signed,
)

try:  # before .starlette: without FastAPI, say so (not that Starlette is missing)
    from fastapi import routing as fastapi_routing
    from fastapi.datastructures import DefaultPlaceholder
    from fastapi.dependencies import utils as fastapi_dependencies
    from fastapi.exceptions import HTTPException
    from fastapi.routing import APIRoute
    from fastapi.utils import deep_dict_update
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Match, Route
    from starlette.types import Receive, Scope, Send
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("FastAPI", __name__, _missing) from _missing


from ._headers import answer_first
from ._render import Rendered, checked_status
from .asgi import varying_errors
from .starlette import STARLETTE, StarletteBinding, consumed, produced

#: FastAPI's own flattening of query models (0.115+; none before it).
_flat_fields: Callable[[Any], Any] = getattr(
    fastapi_dependencies, "_get_flat_fields_from_params", lambda fields: fields
)
#: FastAPI's filters of what it serializes by a route's ``response_model``,
#: with their defaults: a negotiated route's renderers take the handler's data.
_FILTERS = {
    "response_model_include": None,
    "response_model_exclude": None,
    "response_model_by_alias": True,
    "response_model_exclude_unset": False,
    "response_model_exclude_defaults": False,
    "response_model_exclude_none": False,
}
#: The inclusion a request reached a route through (FastAPI 0.137+ serves a
#: route through one per ``include_router``, with its dependencies and
#: overrides; None before it, where the router copies the route).
_inclusion: Callable[[Scope], Any] = getattr(
    fastapi_routing, "_get_scope_effective_route_context", lambda scope: None
)

__all__ = [
    "CONSUMED",
    "PROBLEM_SCHEMA",
    "PRODUCED",
    "NegotiatedRoute",
    "consumed",
    "dispatch",
    "negotiated",
    "openapi_responses",
    "produced",
]

#: The keyword argument through which FastAPI hands ``negotiated`` the request
#: when the handler takes none itself.
REQUEST_ARGUMENT = "fastaccept_request"

#: A refusal's body as ``application/problem+json`` (RFC 9457 §3; docs/rules.md
#: rule 16): ``_endpoint.REFUSAL_SCHEMA``, which says its members.
PROBLEM_SCHEMA: dict[str, Any] = REFUSAL_SCHEMA


#: Where the scope keeps the ``Response`` FastAPI gave the handler.
GIVEN_RESPONSE = "fastaccept.fastapi.response"
#: The keyword argument through which FastAPI hands ``negotiated`` that
#: ``Response`` when the handler takes none itself.
RESPONSE_ARGUMENT = "fastaccept_response"
#: What the negotiation writes, which the given ``Response`` may not set.
_OWN_FIELDS = frozenset({b"content-type", b"content-length"})


def _awaited(handler: Handler) -> bool:
    """Whether FastAPI awaits ``handler`` (``is_awaited``, unwrapped): a plain
    decorator's wrapper over a coroutine function too."""
    return is_awaited(handler, unwrapped=True)


class FastAPIBinding(StarletteBinding):
    """A FastAPI endpoint: the request comes as the keyword ``argument``,
    the handler's own (``shared``) or one added for ``negotiated``, and so
    does the ``Response`` FastAPI gives the handler and its dependencies
    (``response``, ``response_shared``)."""

    __slots__ = ("argument", "response", "response_shared", "shared")

    def __init__(
        self, argument: str, shared: bool, response: str, response_shared: bool
    ) -> None:
        self.argument: str = argument
        self.shared: bool = shared
        self.response: str = response
        self.response_shared: bool = response_shared

    def is_async(self, handler: Handler) -> bool:
        """FastAPI's test (``_awaited``)."""
        return _awaited(handler)

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        request: Request = framework_argument(kwargs, self.argument, self.shared)
        given = framework_argument(kwargs, self.response, self.response_shared)
        request.scope[GIVEN_RESPONSE] = given
        return request.scope

    def status(self, request: Mapped) -> int | None:
        """The status the handler or a dependency set on the given
        ``Response`` (FastAPI's way), where it set one."""
        given: Response = request[GIVEN_RESPONSE]
        status: int | None = given.status_code
        return checked_status(status) if status else None  # 0, as FastAPI: unset

    def reply(self, request: Mapped, rendered: Rendered) -> Response:
        """The answer; one the handler's data chose takes the header fields
        the handler or a dependency set on the given ``Response`` (cookies
        among them), as FastAPI adds them to its own: ``Vary`` merged into
        the answer's, ``Content-Type`` and ``Content-Length`` the
        negotiation's (a ``ValueError``), a field the answer also has on the
        answer's line (``answer_first``: one ``ETag``), as falcon's."""
        response = super().reply(request, rendered)
        given: Response | None = request.get(GIVEN_RESPONSE)
        if given is None or not rendered.ok:
            return response
        fields = response.headers.raw  # lower-case names, as Starlette's
        answers = {name for name, _ in fields}
        for name, value in given.headers.raw:
            folded = name.lower()
            if folded in _OWN_FIELDS:
                raise ValueError(
                    f"the handler set {name.decode('latin-1')!r} on its Response, "
                    "which the negotiation writes"
                )
            if folded == b"vary":
                self.vary(response, value.decode("latin-1"))
            elif folded not in answers:
                fields.append((name, value))
            else:
                at = [field for field, _ in fields].index(folded)
                line = [
                    text.decode("latin-1") for text in (folded, fields[at][1], value)
                ]
                fields[at] = (folded, answer_first(*line).encode("latin-1"))
        return response


#: The attribute that marks a route warned.
WARNED_ATTRIBUTE = "__fastaccept_warned__"
#: Said once per route of a class other than ``NegotiatedRoute`` that serves
#: a negotiated endpoint.
WITHOUT_ROUTE_CLASS = (
    "{name} is negotiated but served by {route}, not NegotiatedRoute: a refused "
    "body type is FastAPI's 422, not 415; HEAD is 405; /openapi.json lacks the "
    "media types. Set app.router.route_class = NegotiatedRoute (or route_class= "
    "on the APIRouter); ignore this warning if the route class is your choice."
)


class FastAPIEndpoint(RoutedEndpoint):
    """An endpoint whose checks ``NegotiatedRoute`` may take before FastAPI
    reads the body; served by another route class, it warns once."""

    __slots__ = ()

    def unrouted(self, request: Any) -> str | None:
        """Once for a route of another class than ``NegotiatedRoute``."""
        route = request.get("route")
        if isinstance(route, NegotiatedRoute | None) or getattr(
            route, WARNED_ATTRIBUTE, False
        ):
            return None
        setattr(route, WARNED_ATTRIBUTE, True)  # it lives as long as its app
        name = getattr(route, "path", "a route")
        return WITHOUT_ROUTE_CLASS.format(name=name, route=type(route).__name__)


def _serving(endpoint: Endpoint, handlers: tuple[Handler, ...]) -> Handler:
    """The endpoint of ``handlers`` (``serving``), its signature FastAPI's:
    the handlers', which they share (one operation for every media type),
    with a request parameter, the handlers' own or one added for
    ``negotiated``."""
    for handler in handlers:  # FastAPI finds the function under the wrapper
        found = inspect.unwrap(handler)
        if inspect.isgeneratorfunction(found) or inspect.isasyncgenfunction(found):
            raise TypeError(
                f"{getattr(handler, '__name__', 'the handler')} must not be a "
                "generator function, whose items FastAPI would stream itself: it "
                "returns the data its renderers render"
            )
    # dispatch's handlers return the bodies sent: FastAPI would document a
    # str body as a string, so it gets no return annotation of theirs.
    signature = shared_signature(
        handlers, "FastAPI", returns=not sends_bodies(endpoint)
    )
    parameters = signature.parameters.items()
    own = [n for n, p in parameters if _annotated(p.annotation, Request)]
    given = [n for n, p in parameters if _annotated(p.annotation, Response)]
    # FastAPI fills one request parameter and one response parameter: the
    # handler's, else one added
    binding = FastAPIBinding(
        own[0] if own else REQUEST_ARGUMENT,
        shared=bool(own),
        response=given[0] if given else RESPONSE_ARGUMENT,
        response_shared=bool(given),
    )
    added: list[tuple[str, Any]] = [] if own else [(REQUEST_ARGUMENT, Request)]
    if not given:
        added.append((RESPONSE_ARGUMENT, Response))
    return signed(binding, endpoint, handlers, signature, added=added)


# Typed as ``integration`` makes it, not ``KeepsParameters``: the endpoint
# also takes, where the handler has no Request (or Response) parameter of its
# own, the keyword argument FastAPI fills with it (``fastaccept_request``,
# ``fastaccept_response``), which no static type can say.
negotiated: Negotiated[Callable[[Handler], Handler]]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    _serving,
    __name__,
    "handler(**parameters)",
    "a FastAPI endpoint",
    kind=FastAPIEndpoint,
    awaits=_awaited,
    negotiated_note="\nPut it under the route decorator.",
    dispatch_note=(
        "\nThe handlers share one signature. Give it to the route decorator: "
        "``app.get(path)(dispatch({...}))``."
    ),
)


def _query_names(dependant: Any) -> set[str]:
    """The query parameters FastAPI documents for ``dependant`` (a route's
    ``Dependant``): its own and its dependencies', by name, flattened as
    FastAPI flattens them (a model's fields for a parameter that is a model
    of them, FastAPI 0.115+: each version its own way)."""
    fields, dependants = [], [dependant]
    while dependants:
        found = dependants.pop()
        fields.extend(found.query_params)
        dependants.extend(found.dependencies)
    return {field.alias for field in _flat_fields(fields)}


def _annotated(annotation: Any, kind: type) -> bool:
    """Whether FastAPI gives a parameter annotated so its ``kind`` of object
    (the request, or the response the handler may set headers on)."""
    try:
        return isinstance(annotation, type) and issubclass(annotation, kind)
    except TypeError:  # Python 3.10: list[int] passes for a type, issubclass fails
        return False


def _takes_head(scope: Scope) -> bool:
    """Whether a route of the request's router takes HEAD for its path
    itself (read as Starlette reads routes, not as ``NegotiatedRoute``)."""
    return any(
        isinstance(route, Route)
        and "HEAD" in (route.methods or ())
        and Route.matches(route, scope)[0] is Match.FULL
        for route in getattr(scope.get("router"), "routes", ())
    )


class NegotiatedRoute(APIRoute):
    """FastAPI's route class for the routes ``negotiated`` made: it takes the
    ``Content-Type`` and ``Accept`` checks before FastAPI reads the body (a
    refused body type is a 415, not a validation error), answers HEAD on a
    GET route (RFC 9110 §9.3.2), and documents media types and refusals."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        found: FastAPIEndpoint | None = getattr(endpoint, ENDPOINT_ATTRIBUTE, None)
        self.negotiation = found
        if found is not None:
            for name, default in _FILTERS.items():
                value = kwargs.get(name, default)
                if value != default and (value or name != "response_model_exclude"):
                    raise ValueError(
                        f"the route {path!r} has {name}={kwargs[name]!r}, but its "
                        "negotiated handler's renderers receive what it returns, "
                        "which FastAPI filters only where it serializes it: "
                        "return the data each representation is to send"
                    )
            if kwargs.get("status_code") is None:
                kwargs["status_code"] = found.status
            elif kwargs["status_code"] != found.status:
                raise ValueError(
                    f"the route {path!r} has status_code={kwargs['status_code']!r}, "
                    f"but its negotiated handler answers {found.status}: give the "
                    f"status once, as negotiated(..., status={kwargs['status_code']!r})"
                )
            documented = openapi_responses(
                found.renderers,
                found.consumes,
                kwargs["status_code"],
                {method.upper() for method in kwargs.get("methods") or ()},
                format_param=found.format_param,
            )
            # The route's own entries over them, key by key, as FastAPI merges.
            responses = copy.deepcopy(documented)
            deep_dict_update(responses, kwargs.get("responses") or {})
            kwargs["responses"] = responses
            if found.consumes is not None:  # the body types, beside any schema
                extra = kwargs.get("openapi_extra") or {}
                body = extra.get("requestBody", {})
                content: dict[str, Any] = {t: {} for t in found.consumes.media_types}
                content.update(body.get("content", {}))
                kwargs["openapi_extra"] = {
                    **extra,
                    "requestBody": {"required": True, **body, "content": content},
                }
            # The response class documents its media type (JSONResponse,
            # FastAPI's default; an app's or a router's default_response_class):
            # kept where it is offered, fixed so that no including router's
            # default replaces it; else one that documents none.
            given = kwargs.get("response_class", JSONResponse)
            if isinstance(given, DefaultPlaceholder):
                given = given.value
            offered = documented[kwargs["status_code"]].get("content", {})
            kwargs["response_class"] = (
                given if getattr(given, "media_type", None) in offered else Response
            )
        super().__init__(path, endpoint, **kwargs)
        self._document_body(self.body_field)
        named = None if found is None else format_parameter(found)
        extra = self.openapi_extra or {}
        listed = extra.get("parameters", [])
        taken = _query_names(self.dependant)  # the handler's, its dependencies'
        taken.update(p.get("name") for p in listed if p.get("in") == "query")
        if named is not None and named["name"] not in taken:
            self.openapi_extra: dict[str, Any] | None = {
                **extra,
                "parameters": [*listed, named],
            }

    def _document_body(self, field: Any) -> None:
        """FastAPI documents the body's schema under its media type
        (``application/json`` but for ``Body(media_type=...)`` and forms):
        under the one ``consumes`` takes (``body_media_type``) instead. The
        field (``ModelField``) is made for this route from the handler's
        signature; FastAPI reads its media type for the document alone (a
        body is read by the request's Content-Type)."""
        consumes = None if self.negotiation is None else self.negotiation.consumes
        if consumes is None or not field:
            return
        info = field.field_info
        own_type: str = getattr(info, "media_type", "application/json")
        kept = body_media_type(consumes, own_type)
        if kept != own_type:
            info = copy.copy(info)  # a Body() default may serve other routes
            info.media_type = kept
            field.field_info = info

    def get_route_handler(self) -> Callable[[Request], Any]:
        """FastAPI's handler, after the checks of a negotiated route: a refusal
        is answered before FastAPI reads the body (415, not 422)."""
        handle = super().get_route_handler()
        endpoint = self.negotiation
        if endpoint is None:
            return handle
        # FastAPI 0.137+ documents an included route by a body field made for
        # each inclusion, then asks the route for its handler in that context.
        made_in = getattr(fastapi_routing, "_effective_route_context_var", None)
        context = None if made_in is None else made_in.get()
        if getattr(context, "original_route", None) is self:
            self._document_body(getattr(context, "body_field", None))

        async def negotiated_route(request: Request) -> Response:
            scope = request.scope
            step = Endpoint.check(endpoint, STARLETTE, scope)  # not unrouted's
            if isinstance(step, Rendered):
                return STARLETTE.reply(scope, step)
            scope[CHECKED] = step  # for the handler: the checks run once
            response: Response = await handle(request)
            return response

        return negotiated_route

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """A HEAD on a negotiated GET route is the route's own (``handle``
        answers it), not a method it lacks: Starlette's router would send it
        to the first route of the path, whose 405 another method's route may
        give first. But where a route of the router takes HEAD itself (an
        ``@app.head`` after the GET), that one answers."""
        match, child = super().matches(scope)
        if (
            match is Match.PARTIAL
            and self.negotiation is not None
            and scope["method"] == "HEAD"
            and "GET" in (self.methods or ())
            and not _takes_head(scope)
        ):
            return Match.FULL, child
        return match, child

    def _app_for(self, scope: Scope) -> Any:
        """The app FastAPI serves this route's request with: the inclusion's
        it came through (FastAPI 0.137+: with the ``include_router``'s and
        the app's dependencies and overrides; made per request before
        0.142.1, as FastAPI made it), else the route's own."""
        inclusion = _inclusion(scope)
        if inclusion is None or inclusion.original_route is not self:
            return self.app
        app = getattr(inclusion, "app", None)
        if app is None:
            made_in = fastapi_routing._effective_route_context_var
            token = made_in.set(inclusion)
            try:
                app = fastapi_routing.request_response(self.get_route_handler())
            finally:
                made_in.reset(token)
        return app

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the route; the endpoint answers HEAD on a negotiated GET route
        (RFC 9110 §9.3.2), which lists no HEAD in ``methods`` (nor OpenAPI),
        and a 405 there names HEAD in ``Allow``.
        On a negotiated route, an error's answer (FastAPI's 422 for the
        parameters, before the handler runs, an ``HTTPException``, the 405
        for a method the route lacks) gets ``Accept`` in its ``Vary``, but
        where a format name chose (``route_vary``); with ``problems`` that
        405 is a problem, as the route's other errors."""
        if self.negotiation is None:
            await super().handle(scope, receive, send)
            return
        finished = self.negotiation.finished
        send = varying_errors(send, scope, finished)
        methods = self.methods or set()
        allowed = {*methods, "HEAD"} if "GET" in methods else methods
        if not allowed or scope["method"] in methods:
            await super().handle(scope, receive, send)
        elif scope["method"] in allowed:  # HEAD on a GET route: GET's app
            await self._app_for(scope)(scope, receive, send)
        else:  # 405 (RFC 9110 §15.5.6): Allow names HEAD where it is answered.
            headers = {"Allow": ", ".join(sorted(allowed))}
            vary = route_vary(finished, scope)
            if self.negotiation.problems:  # as the route's other errors
                facts = (405, None, tuple(headers.items()))
                answer = problem_answer(STARLETTE, scope, facts, vary)
                await answer(scope, receive, send)
                return
            # Starlette's ExceptionMiddleware answers it through its own send,
            # not ``varying_errors``: the exception carries the Vary.
            if vary:
                headers["Vary"] = vary
            raise HTTPException(405, headers=headers)
