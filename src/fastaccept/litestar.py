"""Negotiated Litestar route handlers: a decorator under the route decorator.

::

    @route("/greeting", http_method=["GET", "HEAD"])
    @negotiated(GREETING)                       # a Renderers
    async def greeting() -> dict[str, str]:
        return {"greeting": "hello"}            # rendered in the type chosen

    app = Litestar([greeting], plugins=[NegotiationPlugin()])

The handler keeps its Litestar parameters (path, query, header, ``data``,
dependencies), which Litestar reads from its signature; ``negotiated`` adds
``request`` to them for itself where the handler takes none. Refusals (415,
406, 431; docs/rules.md rule 16) are answered before the handler runs; it
finds the accepted request type as ``consumed(request)``
(``request.scope["fastaccept.consumed"]``, typed), the chosen type as
``produced(request)``. Litestar routes HEAD only where a handler lists it: a
negotiated handler that lists it beside GET (``http_method=["GET",
"HEAD"]``) answers it like GET without a body. A handler may return a
Litestar ``Response`` (a ``Redirect``): it is sent as it is, ``Accept``
merged into its ``Vary``; one that raises an ``HTTPException`` gets
Litestar's answer with ``Accept`` in its ``Vary``.

``NegotiationPlugin`` takes the checks before Litestar reads the parameters
and the body (a refused body type is a 415, not Litestar's 400), gives
every error answer of a negotiated route ``Accept`` in its ``Vary`` (the 400
of ``ValidationException`` for a parameter or the body, made before the
handler runs, among them; with ``problems=True`` answered with ``problem``),
and keeps the ``Vary`` a negotiated route sent where ``CORSConfig`` sets its
own ``Vary: Origin`` over it, and the ``Vary`` of the route's
``response_headers`` where the route's answer sets its own; with
``cache=``, it adds the type chosen and the request's values of the other
fields the answers vary on to the route's cache key (Litestar's default key
is the method, path and query). In Litestar's OpenAPI
document, it lists every offered media type under the route's status, and
406 (415 with ``consumes``, 431 with a length limit) with the
``application/problem+json`` schema of RFC 9457, and with ``consumes`` the
body types it takes under ``requestBody``, as ``fastaccept.fastapi`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, cast

from ._endpoint import (
    CHECKED,
    CONSUMED,
    ENDPOINT_ATTRIBUTE,
    PROBLEM_CONTENT,
    PRODUCED,
    Dispatch,
    Endpoint,
    ErrorFacts,
    Handler,
    HTTPExceptionBinding,
    Mapped,
    Negotiated,
    RoutedEndpoint,
    body_media_type,
    decision_in,
    format_parameter,
    framework_argument,
    integration,
    needs,
    openapi_responses,
    problem_answer,
    route_vary,
    sends_bodies,
    shared_signature,
    signed,
)
from ._headers import lines_value, merge_vary, vary_merged_into
from ._problems import is_error_status
from ._render import Rendered, declares_type, untyped_content_type
from ._responses import Decision, reason_phrase
from .asgi import (
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    send_rendered,
    varying_errors,
    with_vary,
)

try:
    from litestar import Request, Response
    from litestar.config.app import AppConfig
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.exceptions.responses import create_exception_response
    from litestar.handlers import BaseRouteHandler, HTTPRouteHandler
    from litestar.openapi.spec import (
        OpenAPIFormat,
        OpenAPIHeader,
        OpenAPIMediaType,
        OpenAPIResponse,
        OpenAPIType,
        Operation,
        Parameter,
        Reference,
        RequestBody,
        Schema,
    )
    from litestar.plugins.base import ReceiveRoutePlugin
    from litestar.response import Stream
    from litestar.routes import BaseRoute, HTTPRoute
    from litestar.types import BeforeMessageSendHookHandler, CacheKeyBuilder, Middleware
except ModuleNotFoundError as _missing:  # pragma: no cover - depends on the install
    raise needs("Litestar", __name__, _missing) from _missing

__all__ = [
    "CONSUMED",
    "PRODUCED",
    "NegotiationPlugin",
    "consumed",
    "dispatch",
    "negotiated",
    "produced",
]

#: The parameter through which Litestar hands a handler its request.
REQUEST = "request"
#: The scope key where ``NegotiationPlugin`` keeps the ``Vary`` a negotiated
#: route sent.
VARIED = "fastaccept.varied"
#: Marks a negotiated handler's operation class (``_documenting``): the
#: handler is set up (``NegotiationPlugin.receive_route``).
SET_UP = "fastaccept_set_up"
#: The key of a route handler's ``opt`` that marks it warned.
WARNED = "fastaccept.warned"
#: Said once per negotiated route handler of an app without the plugin.
WITHOUT_PLUGIN = (
    "{name} is negotiated in an app without NegotiationPlugin: a refused body "
    "type gets Litestar's 400 for the body, not 415; an error made before the "
    "handler runs lacks Vary: Accept; CORSConfig's Vary: Origin replaces the "
    "route's Vary, and the route's Vary replaces that of its response_headers; "
    "cache=True serves one answer for every Accept. Add "
    "plugins=[NegotiationPlugin()] to Litestar(...)."
)


class LitestarBinding(HTTPExceptionBinding[Response[bytes]]):
    """A Litestar route handler: the request comes as its ``request``
    keyword, the handler's own (``shared``) or one added for ``negotiated``;
    it is read through its ASGI scope."""

    __slots__ = ("shared",)
    responses: tuple[type, ...] = (Response,)
    errors: tuple[type[BaseException], ...] = (HTTPException,)
    head_as_get = True  # the body dropped by its server, as for its own

    def __init__(self, shared: bool) -> None:
        self.shared: bool = shared

    def request(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Mapped:
        request: Request[Any, Any, Any]
        request = framework_argument(kwargs, REQUEST, self.shared)
        return cast("Mapped", request.scope)

    def error_facts(self, error: Any) -> ErrorFacts:
        """Its status, its ``detail`` but a 500's, which Litestar's own answer
        never shows (its message may name what no client should read), and
        its ``headers``."""
        status, detail, headers = super().error_facts(error)
        return status, None if status == 500 else detail, headers

    def reply(self, request: Mapped, rendered: Rendered) -> Response[bytes]:
        return Response(
            rendered.body,
            status_code=rendered.status,
            headers=dict(rendered.header_items),
            media_type=untyped_content_type(rendered),  # else its own, or JSON
        )

    def vary(self, response: Response[Any], vary: str) -> None:
        """Merge ``vary`` into the ``Vary`` of the handler's own response,
        its name in any case."""
        response.headers = vary_merged_into(response.headers, vary)

    def own(self, response: Response[Any]) -> Response[Any]:
        """A ``Stream`` (a ``ServerSentEvent`` too) with a media type of its
        own, that type as its ``Content-Type``, as Litestar writes it (a text
        type with its charset): Litestar sends a stream in its route's media
        type where the route has one, over the stream's own, and a negotiated
        route whose handler returns data has JSON (an ``Answer`` is handed
        to Litestar as ``Any``, ``_serving``). A stream with a status
        without content is left as it is."""
        media_type = response.media_type if isinstance(response, Stream) else None
        status = response.status_code
        if (
            not media_type
            or (status is not None and (status < 200 or status in (204, 304)))
            or declares_type(response.headers.items())
        ):
            return response  # no content (none as Litestar sends it), or typed
        value = str(getattr(media_type, "value", media_type))  # an enum's too
        if value.startswith("text/"):
            value = f"{value}; charset={response.encoding}"
        response.headers["Content-Type"] = value
        return response


#: What the plugin's middleware and exception handler read a request with.
LITESTAR = LitestarBinding(shared=True)


class LitestarEndpoint(RoutedEndpoint):
    """An endpoint whose checks ``NegotiationPlugin`` takes before Litestar
    reads the parameters; in an app without it, the handler's wrapper takes
    them, and says so once for each route handler."""

    __slots__ = ()

    def unrouted(self, request: Any) -> str | None:
        """Once for each route handler of an app without the plugin."""
        opt = getattr(request.get("route_handler"), "opt", None)
        if not isinstance(opt, dict) or opt.get(WARNED):
            return None
        opt[WARNED] = True  # on the route handler: it lives as long as its app
        name = request.get("path_template") or request.get("path", "a route")
        return WITHOUT_PLUGIN.format(name=name)


def _serving(endpoint: Endpoint, handlers: tuple[Handler, ...]) -> Handler:
    """The handler of ``handlers`` (``serving``) whose signature Litestar reads:
    the handlers', which they share (one operation for every media type),
    with ``request``, the handlers' own or one added for ``negotiated``;
    ``Answer`` out of its return annotation. Dispatch's handlers return
    bodies, and their wrapper answers a ``Response`` either way: annotated
    so (``Response[Any]``: a bare ``Response`` is documented as an object
    where the app has a signature namespace), its route has no media type,
    and a ``Redirect``, ``File``, ``Template`` or ``Stream`` a handler
    returns keeps its own (Litestar sends it in its route's where the route
    has one: JSON, for a route returning data). A route handler (``@get``'s)
    in their place is a ``TypeError``: Litestar would route it, not this."""
    for handler in handlers:
        if isinstance(handler, BaseRouteHandler):
            raise TypeError(
                f"a route handler (Litestar's {type(handler).__name__}) where a "
                "handler function goes: put the route decorator above negotiated "
                "(or around dispatch)"
            )
    bodies = sends_bodies(endpoint)  # dispatch's: -> str is no schema of the offers
    signature = shared_signature(handlers, "Litestar", returns=not bodies)
    if bodies:
        signature = signature.replace(return_annotation=Response[Any])
    shared = REQUEST in signature.parameters
    return signed(
        LitestarBinding(shared),
        endpoint,
        handlers,
        signature,
        added=() if shared else [(REQUEST, Request)],
        answer_alone_as=Any,
    )


# Typed as ``integration`` makes it, not ``KeepsParameters``: the function
# also takes, where the handlers have no ``request``, the one Litestar fills.
negotiated: Negotiated[Callable[[Handler], Handler]]
dispatch: Dispatch[Handler, Handler]
negotiated, dispatch = integration(
    _serving,
    __name__,
    "handler(**parameters)",
    "a Litestar route handler's function",
    kind=LitestarEndpoint,
    negotiated_note=(
        "\nPut it under the route decorator; add ``NegotiationPlugin`` to the app."
    ),
    dispatch_note=(
        "\nThe handlers share one signature. Give it to the route decorator: "
        "``get(path)(dispatch({...}))``."
    ),
)


def consumed(request: Request[Any, Any, Any]) -> Decision | None:
    """The ``Consumes`` decision on ``request``'s body type, typed (Litestar
    types ``request.scope`` without the key); None when none was taken."""
    return decision_in(request.scope, CONSUMED)


def produced(request: Request[Any, Any, Any]) -> Decision | None:
    """The ``Produces`` decision for ``request`` (the type the data is
    rendered in, ``Decision.params`` its parameters), typed; None outside a
    negotiated handler."""
    return decision_in(request.scope, PRODUCED)


def _endpoint_of(handler: object) -> Endpoint | None:
    """The ``Endpoint`` of a route handler whose function ``negotiated`` or
    ``dispatch`` made (Litestar keeps a sync one run in a thread in an
    object of its own, under ``func``); None for any other."""
    function = getattr(handler, "fn", None)
    function = getattr(function, "func", function)
    found: Endpoint | None = getattr(function, ENDPOINT_ATTRIBUTE, None)
    return found


def _checking(
    endpoint: Endpoint, handler: HTTPRouteHandler
) -> Callable[[ASGIApp], ASGIApp]:
    """Route middleware for a negotiated ``handler``: its checks before
    Litestar reads the parameters and the body (a refusal answered at once),
    Accept merged into the ``Vary`` of every error answer of the route (RFC
    9110 §12.5.5; but where a format name chose: ``route_vary``), the
    ``Vary`` of the handler's ``response_headers`` (its layers') merged into
    every answer (Litestar lets a response's own ``Vary`` replace it), and
    the ``Vary`` sent kept in the scope (``VARIED``)."""
    finished = endpoint.finished
    declared: list[str] = []  # the response_headers' Vary, read at the first request

    def declared_vary() -> str:
        if not declared:
            declared.append(_declared_vary(handler))
        return declared[0]

    def middleware(app: ASGIApp) -> ASGIApp:
        async def checked(scope: Scope, receive: Receive, send: Send) -> None:
            async def declared_sent(message: Message) -> None:
                if message["type"] == "http.response.start":
                    if own := declared_vary():
                        message = with_vary(message, own)
                    fields = message.get("headers", ())
                    given = [v for name, v in fields if name.lower() == b"vary"]
                    scope[VARIED] = b", ".join(given).decode("latin-1")
                await send(message)

            sent = varying_errors(declared_sent, scope, finished)

            step = Endpoint.check(endpoint, LITESTAR, scope)
            if isinstance(step, Rendered):
                await send_rendered(sent, step)
                return
            scope[CHECKED] = step  # for the handler: the checks run once
            try:
                await app(scope, receive, sent)
            except Exception:
                # Raised past the route's own exception handling (Litestar's
                # CSRF check): Litestar answers it with the app's send, whose
                # before_send hook (_keep_vary) gives it the Vary of an error.
                if VARIED not in scope:
                    vary = route_vary(finished, scope)
                    scope[VARIED] = merge_vary(vary, declared_vary())
                raise

        return checked

    return middleware


def _declared_vary(handler: HTTPRouteHandler) -> str:
    """The ``Vary`` that ``handler``'s ``response_headers`` set, at every
    layer (app, router, controller, handler), merged; "" for none."""
    declared = handler.resolve_response_headers()
    sent = [h for h in declared if not h.documentation_only]  # never set otherwise
    return merge_vary(*[h.value for h in sent if h.name.lower() == "vary"])


def _keyed_by_decision(
    handler: HTTPRouteHandler, endpoint: Endpoint
) -> CacheKeyBuilder:
    """``handler``'s cache key (its ``cache_key_builder``, else the app's),
    with the media type the route chose for the request (``produced``) and
    the request's values of the other fields its answers vary on (the
    endpoint's ``vary``, its ``response_headers``' ``Vary``, and
    Accept-Encoding where the app compresses: Litestar caches the answer it
    compressed, RFC 9110 §12.5.3): Litestar's
    default key is the method, path and query only, under which one answer
    would be served for every Accept (RFC 9111 §4.1). The checks ran first,
    in the route's middleware, which Litestar runs before its cache. An
    answer that varies on ``*`` is never reused (§4.1): ``ValueError``."""
    own = handler.cache_key_builder
    # The fields, read at the first request as _checking does; Accept first,
    # which the chosen type stands for (its value would split the cache).
    fields: list[bytes] = []

    def key(request: Request[Any, Any, Any]) -> str:
        if not fields:
            compressed = request.app.compression_config is not None
            vary = merge_vary(
                "Accept",
                endpoint.vary,
                _declared_vary(handler),
                "Accept-Encoding" if compressed else None,
            )
            _no_cache_of_every_answer(vary, handler)
            fields.extend(name.lower().encode("latin-1") for name in vary.split(", "))
        builder = own or request.app.response_cache_config.key_builder
        chosen = produced(request)
        headers = request.scope["headers"]
        values = [lines_value(headers, name) for name in fields[1:]]
        media_type = "" if chosen is None else chosen.media_type
        return f"{builder(request)}\n{media_type}\n{values!r}"

    return key


def _no_cache_of_every_answer(vary: str, handler: HTTPRouteHandler) -> None:
    """``ValueError`` for a cached route whose answers vary on ``*``: a
    cache reuses none of them (RFC 9111 §4.1), and each would be kept."""
    if vary == "*":
        raise ValueError(
            f"{handler} has cache= and its answers vary on '*', so no cache "
            "may reuse them (RFC 9111 §4.1): drop one of the two"
        )


def _problems(endpoint: Endpoint) -> Callable[..., Response[Any]]:
    """A route's exception handler for ``HTTPException`` (``problems=True``):
    its answer a ``problem``, with the route's ``Vary``."""

    def answered(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
        facts = LITESTAR.problem_facts(error)
        if facts is None:  # a status no error has: Litestar's own answer
            return create_exception_response(request, error)
        scope = cast("Mapped", request.scope)
        return problem_answer(LITESTAR, scope, facts, endpoint.finished.vary)

    return answered


async def _keep_vary(message: Message, scope: Scope) -> None:
    """Before a response leaves the app: the ``Vary`` a negotiated route sent
    merged back into it, where middleware after the route (``CORSConfig``'s
    ``Vary: Origin``) set the field over it (RFC 9110 §12.5.5)."""
    sent = scope.get(VARIED)
    if sent and message["type"] == "http.response.start":
        message["headers"] = with_vary(message, sent)["headers"]


def _answers_400(handler: HTTPRouteHandler) -> bool:
    """Whether the route answers its 400 for a parameter or the body (a
    ``ValidationException``, raised before the handler runs) its own way,
    which the plugin's ``problem`` does not replace: a 400 it documents
    (``responses=``), or the handler Litestar picks at any layer, one for
    the status, else the first of the exception's classes that has one
    (``ClientException``'s too), not the plugin's ``HTTPException`` one."""
    handlers = handler.resolve_exception_handlers()
    if 400 in (handler.responses or {}) or 400 in handlers:
        return True
    kinds = ValidationException.__mro__
    picked = next((kind for kind in kinds if kind in handlers), HTTPException)
    return picked is not HTTPException


def _documenting(
    base: type[Operation],
    endpoint: Endpoint,
    handler: HTTPRouteHandler,
) -> type[Operation]:
    """``base`` (``handler``'s operation class) documenting a negotiated
    route (``openapi_responses``): every offered media type under the
    endpoint's status (the 415's fields for the handler's methods), the
    schema Litestar inferred for its status kept under its own media type
    where offered, then the refusals (where the route documents none of its
    own), and with ``problems`` Litestar's 400 as the problem it is sent as
    (but where the route answers it its own way: ``_answers_400``), and each
    status of ``raises=`` as one too, which the handler's exceptions are (but
    where the route documents it: ``responses=``); with ``consumes``, the
    ``requestBody`` (``body_media_type``)."""
    documented = openapi_responses(
        endpoint.renderers,
        endpoint.consumes,
        endpoint.status,
        handler.http_methods,
        format_param=endpoint.format_param,
    )
    inferred = handler.status_code
    named = format_parameter(endpoint)

    def __init__(self: Operation, *args: Any, **kwargs: Any) -> None:
        base.__init__(self, *args, **kwargs)
        responses: dict[str, Any] = dict(self.responses or {})
        made = responses.pop(str(inferred), None)
        success = documented[endpoint.status]
        # Litestar describes its inferred status (201 for POST): another one
        # the endpoint answers gets the route's response_description, else
        # its own phrase.
        if inferred == endpoint.status:
            description = getattr(made, "description", "")
        else:
            written = getattr(handler, "response_description", None)
            description = written or reason_phrase(endpoint.status)
        # Every offered type, the schema Litestar inferred kept under its own.
        content = _content(success.get("content", {}))
        for media_type, media in (getattr(made, "content", None) or {}).items():
            if media_type in content:
                content[media_type] = media
        own = OpenAPIResponse(
            description=description,
            content=content or None,
            headers=getattr(made, "headers", None) or None,  # its response_headers
        )
        responses = {str(endpoint.status): own, **responses}
        for code, response in documented.items():  # the route's own ones kept
            if str(code) not in responses:
                responses[str(code)] = _response(response)
        # Litestar's error statuses ("default" or "4XX" are none of its):
        for code, error in list(responses.items()) if endpoint.problems else ():
            status = int(code) if code.isdigit() else 0
            if (
                is_error_status(status)
                and status not in documented
                and status not in (handler.responses or {})
                and (status != 400 or not _answers_400(handler))
            ):
                described = getattr(error, "description", "")
                responses[code] = OpenAPIResponse(
                    description=described, content=_content(PROBLEM_CONTENT)
                )
        self.responses = responses
        consumes = endpoint.consumes
        if consumes is not None:  # the body types: every one consumes takes
            body = self.request_body
            content = {t: OpenAPIMediaType() for t in consumes.media_types}
            # Litestar's schema of ``data`` (under its media type) kept under
            # the type consumes takes that Litestar reads so, never a refused one.
            for own_type, media in (getattr(body, "content", None) or {}).items():
                content[body_media_type(consumes, own_type)] = media
            self.request_body = RequestBody(
                content=content,
                description=getattr(body, "description", None),
                required=True,
            )
        # Litestar's own Parameter objects (or References), then the format's.
        given: list[Any] = list(self.parameters or ())
        queried = {p.name for p in given if getattr(p, "param_in", None) == "query"}
        if named is not None and named["name"] not in queried:  # not the handler's
            given.append(
                Parameter(
                    name=named["name"],
                    param_in="query",
                    required=False,
                    description=named["description"],
                    schema=_schema(named["schema"]),
                )
            )
            self.parameters = given

    made = {"__init__": __init__, SET_UP: True}
    return type(f"Negotiated{base.__name__}", (base,), made)


def _schema(given: dict[str, Any]) -> Schema:
    """A schema of ``openapi_responses`` (JSON Schema as a dict) as
    Litestar's ``Schema``, which its tools read (its TypeScript export): the
    keywords those use, ``type``, ``properties``, ``items``, ``required``,
    ``enum``, ``format`` and ``example`` (another is a ``ValueError``, not
    left out of Litestar's document alone); its lists are copies, so that
    editing one route's document changes no other's."""
    unread = set(given) - _SCHEMA_KEYWORDS
    if unread:
        raise ValueError(f"no Litestar Schema field is written for {sorted(unread)}")
    return Schema(
        type=OpenAPIType(given["type"]),
        properties={k: _schema(v) for k, v in given["properties"].items()}
        if "properties" in given
        else None,
        items=_schema(given["items"]) if "items" in given else None,
        required=[*given["required"]] if "required" in given else None,
        enum=[*given["enum"]] if "enum" in given else None,
        format=OpenAPIFormat(given["format"]) if "format" in given else None,
        example=given.get("example"),
    )


_SCHEMA_KEYWORDS = frozenset(
    {"type", "properties", "items", "required", "enum", "format", "example"}
)


def _content(given: dict[str, dict[str, Any]]) -> dict[str, OpenAPIMediaType]:
    """Media types as ``openapi_responses`` writes them, as Litestar's."""
    return {
        media_type: OpenAPIMediaType(
            schema=_schema(media["schema"]) if "schema" in media else None
        )
        for media_type, media in given.items()
    }


def _response(given: dict[str, Any]) -> OpenAPIResponse:
    """A response of ``openapi_responses`` as Litestar's ``OpenAPIResponse``."""
    headers: dict[str, OpenAPIHeader | Reference] = {
        name: OpenAPIHeader(schema=_schema(h["schema"]), description=h["description"])
        for name, h in given.get("headers", {}).items()
    }
    return OpenAPIResponse(
        description=given["description"],
        content=_content(given["content"]) if "content" in given else None,
        headers=headers or None,
    )


def _default_status(methods: Collection[str]) -> int:
    """The status Litestar gives a route handler of ``methods`` that names
    none (its ``get_default_status_code``): 201 for POST, 204 for DELETE,
    else 200. A ``status_code=`` equal to it cannot be told from none."""
    return 201 if "POST" in methods else 204 if "DELETE" in methods else 200


class NegotiationPlugin(ReceiveRoutePlugin):
    """The Litestar plugin for negotiated route handlers: on each, route
    middleware that takes the checks before Litestar reads the parameters
    and the body and merges ``Accept`` into the ``Vary`` of its every error
    answer; with ``problems=True``, an exception handler answering an
    ``HTTPException`` with ``problem``; for the app, a ``before_send`` hook
    that keeps the ``Vary`` a negotiated route sent (``CORSConfig`` sets its
    own over it)."""

    __slots__ = ()

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        """Add the ``before_send`` hook (Litestar's ``InitPluginProtocol``)."""
        # Litestar types its scope and messages as TypedDicts; these are ASGI's.
        app_config.before_send.append(cast("BeforeMessageSendHookHandler", _keep_vary))
        return app_config

    def receive_route(self, route: BaseRoute) -> None:
        """Give each negotiated handler of ``route`` (Litestar's copy for this
        app), as it is registered, the middleware and, with ``problems``, the
        exception handler, its own ones kept; one with a return DTO, or with
        a ``status_code`` it does not answer, is a ``ValueError``."""
        handlers = route.route_handlers if isinstance(route, HTTPRoute) else ()
        for handler in handlers:
            endpoint = _endpoint_of(handler)
            # Received again where another handler joins its path (Litestar
            # makes the path's route anew): set up once.
            if endpoint is None or getattr(handler.operation_class, SET_UP, False):
                continue
            if (dto := handler.resolve_return_dto()) is not None:
                raise ValueError(
                    f"the negotiated handler {handler.handler_name!r} has the "
                    f"return DTO {dto.__name__}, which cannot apply: its renderers "
                    "render what it returns. Give it return_dto=None (dto= still "
                    "reads its data) and return what its representations send"
                )
            given = handler.status_code  # Litestar's default where none is given
            if given not in (endpoint.status, _default_status(handler.http_methods)):
                raise ValueError(
                    f"the negotiated handler {handler.handler_name!r} has "
                    f"status_code={given!r}, but answers {endpoint.status}: give the "
                    f"status once, as negotiated(..., status={given!r})"
                )
            checks = cast("Middleware", _checking(endpoint, handler))
            handler.middleware = [*(handler.middleware or ()), checks]
            if handler.cache:
                vary = merge_vary(endpoint.vary, _declared_vary(handler))
                _no_cache_of_every_answer(vary, handler)
                handler.cache_key_builder = _keyed_by_decision(handler, endpoint)
            handler.operation_class = _documenting(
                handler.operation_class, endpoint, handler
            )
            if endpoint.problems:
                own = handler.exception_handlers or {}
                handler.exception_handlers = {HTTPException: _problems(endpoint), **own}
