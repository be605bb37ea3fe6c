"""``dispatch`` in every integration (docs/web.md, "Handlers by media type"),
through each framework's test client and over a real socket (uvicorn with
h11 and with httptools, waitress, wsgiref, aiohttp's own server): one handler per media type, each
of the framework's own signature; the checks first, a refusal before any
handler, the chosen offer's handler alone (counted here), its str or bytes
sent as that offer. The handlers are two versions of one JSON type and a CSV
one (docs/web.md, "Versions"): a bare type gets the first version, a named
version its own handler, an unknown one a 406."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from fastaccept import Answer, Consumes

from .recipes import Call, Reply, load_recipe
from .servers import (
    aiohttp_serving,
    uvicorn_serving,
    waitress_serving,
    wsgiref_serving,
)
from .test_integrations import (
    aiohttp_call,
    asgi_call,
    falcon_call,
    litestar_call,
    starlette_call,
    werkzeug_call,
    wsgi_call,
)
from .test_sockets import over_http

pytestmark = pytest.mark.thread_unsafe(
    reason="counts calls in a module-level Counter; serves on loopback ports"
)

CALLED: Counter[str] = Counter()
BODY_TYPES = Consumes(["application/json"])
V2 = "application/vnd.acme+json;version=2"
V1 = "application/vnd.acme+json;version=1"
CSV = "text/csv; charset=utf-8"


def _handlers(asynchronous: bool, arguments: Callable[..., None]) -> dict[str, Any]:
    """Handlers of version 2 and 1 of a JSON type and of CSV that count their
    calls; ``arguments`` checks what the framework passed."""

    def make(name: str, body: Any) -> Callable[..., Any]:
        def handler(*args: Any, **kwargs: Any) -> Any:
            arguments(*args, **kwargs)
            CALLED[name] += 1
            return body

        if not asynchronous:
            return handler

        async def coroutine(*args: Any, **kwargs: Any) -> Any:
            return handler(*args, **kwargs)

        return coroutine

    return {
        V2: make("v2", json.dumps({"total": 3, "version": 2})),
        V1: make("v1", json.dumps({"total": 3})),
        CSV: make("csv", Answer(b"total\r\n3\r\n", headers={"X-Rows": "1"})),
    }


def _any(*args: Any, **kwargs: Any) -> None:
    pass


def _with_limit(*args: Any, **kwargs: Any) -> None:
    assert args == () and set(kwargs) == {"limit"}


def asgi_app() -> Any:
    from fastaccept.asgi import dispatch

    return dispatch(_handlers(True, _any), formats=True)


def wsgi_app() -> Any:
    from fastaccept.wsgi import dispatch

    return dispatch(_handlers(False, _any), formats=True)


def starlette_app() -> Any:
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route

    from fastaccept.starlette import dispatch

    endpoint = dispatch(_handlers(True, _any), formats=True)
    return Starlette(routes=[Route("/report", endpoint)])


def fastapi_app() -> Any:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, dispatch

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    limit = inspect.Parameter(
        "limit", inspect.Parameter.KEYWORD_ONLY, default=10, annotation=int
    )
    handlers = _handlers(False, _with_limit)
    for handler in handlers.values():
        handler.__signature__ = inspect.Signature([limit])
    app.get("/report")(dispatch(handlers, formats=True))
    return app


def litestar_app() -> Any:
    pytest.importorskip("litestar")
    from litestar import Litestar, route

    from fastaccept.litestar import NegotiationPlugin, dispatch

    handlers = _handlers(True, _any)
    for handler in handlers.values():  # Litestar reads one: no parameters
        handler.__signature__ = inspect.Signature(return_annotation=Any)
    endpoint = dispatch(handlers, formats=True)
    report = route("/report", http_method=["GET", "HEAD"])(endpoint)
    return Litestar([report], plugins=[NegotiationPlugin()])


def flask_app() -> Any:
    flask = pytest.importorskip("flask")
    from fastaccept.flask import dispatch

    app = flask.Flask(__name__)
    app.add_url_rule(
        "/report", view_func=dispatch(_handlers(False, _any), formats=True)
    )
    return app


def falcon_app() -> Any:
    falcon = pytest.importorskip("falcon")
    from fastaccept.falcon import dispatch

    class Report:
        on_get = on_head = dispatch(_handlers(False, _any), formats=True)

    app = falcon.App()
    app.add_route("/report", Report())
    return app


def aiohttp_app() -> Any:
    web = pytest.importorskip("aiohttp.web")
    from fastaccept.aiohttp import dispatch

    def check(request: Any) -> None:
        assert isinstance(request, web.Request)

    app = web.Application()
    app.router.add_get("/report", dispatch(_handlers(True, check), formats=True))
    return app


def django_app() -> Any:
    """The Django recipe's project with ``/report`` routed to a dispatch view."""
    recipe = load_recipe("django_app")  # configures Django's settings once
    from django.urls import clear_url_caches, path

    from fastaccept.django import dispatch

    def check(request: Any) -> None:
        assert request.method in ("GET", "HEAD")

    if not any(str(p.pattern) == "report" for p in recipe.urlpatterns):
        view = dispatch(_handlers(False, check), formats=True)
        recipe.urlpatterns.append(path("report", view))
        clear_url_caches()
    return recipe.application


#: Each integration's app, and whether it is ASGI (else WSGI; None: aiohttp).
APPS: dict[str, tuple[Callable[[], Any], bool | None]] = {
    "asgi": (asgi_app, True),
    "wsgi": (wsgi_app, False),
    "starlette": (starlette_app, True),
    "fastapi": (fastapi_app, True),
    "flask": (flask_app, False),
    "falcon": (falcon_app, False),
    "django": (django_app, False),
    "litestar": (litestar_app, True),
    "aiohttp": (aiohttp_app, None),
}
CLIENTS: dict[str, Callable[[Any], Call]] = {
    "asgi": asgi_call,
    "wsgi": wsgi_call,
    "starlette": starlette_call,
    "fastapi": starlette_call,
    "flask": lambda app: werkzeug_call(app.test_client()),
    "falcon": falcon_call,
    "django": wsgi_call,
    "litestar": litestar_call,
    "aiohttp": aiohttp_call,
}


SERVERS = {
    "test client": None,
    "uvicorn h11": ("h11", True),
    "uvicorn httptools": ("httptools", True),
    "waitress": (waitress_serving, False),
    "wsgiref": (wsgiref_serving, False),
    "aiohttp": (aiohttp_serving, None),
}


@pytest.fixture(
    scope="module",
    params=[
        (app, server)
        for app, (_, asgi) in APPS.items()
        for server, how in SERVERS.items()
        if how is None or how[1] == asgi
    ],
    ids=lambda pair: f"{pair[0]}-{pair[1]}",
)
def call(request: pytest.FixtureRequest) -> Iterator[Call]:
    name, server = request.param
    app = APPS[name][0]()
    how = SERVERS[server]
    if how is None:
        yield CLIENTS[name](app)
    elif how[1]:
        with uvicorn_serving(app, http=str(how[0])) as port:
            yield over_http(port)
    else:
        serving: Any = how[0]
        with serving(app) as port:
            yield over_http(port)


def _get(call: Call, accept: str | None, query: str = "", method: str = "GET") -> Reply:
    CALLED.clear()
    lines = [] if accept is None else [("accept", accept.encode())]
    return call(method, "/report" + (f"?{query}" if query else ""), lines, b"")


@pytest.mark.parametrize(
    ("accept", "called", "content_type"),
    [
        (f"{CSV}, {V2};q=0.5", "csv", CSV),
        ("application/vnd.acme+json", "v2", V2),  # bare: the first version
        (None, "v2", V2),
        ("*/*", "v2", V2),
        (V1, "v1", V1),
        (f"{V1};q=0.9, {V2};q=0.1", "v1", V1),
        ("*/*;version=1", "v1", V1),  # rule 9: a range's parameters compared
    ],
)
def test_the_chosen_handler_alone_runs(
    call: Call, accept: str | None, called: str, content_type: str
) -> None:
    reply = _get(call, accept)
    assert reply.status == 200, reply.body
    assert reply.headers["content-type"].replace(" ", "") == content_type.replace(
        " ", ""
    )
    assert "accept" in reply.headers["vary"].lower()
    assert Counter({called: 1}) == CALLED
    if called == "csv":
        assert (reply.body, reply.headers["x-rows"]) == (b"total\r\n3\r\n", "1")
    else:
        assert json.loads(reply.body)["total"] == 3


def test_head_runs_the_handler_and_sends_no_body(call: Call) -> None:
    reply = _get(call, "text/csv", method="HEAD")
    assert (reply.status, reply.body, reply.headers["content-length"]) == (
        200,
        b"",
        "10",
    )


def test_a_format_name_chooses_the_handler(call: Call) -> None:
    reply = _get(call, V1, "format=csv")
    assert reply.status == 200
    assert Counter(csv=1) == CALLED
    varied = [name.strip().lower() for name in reply.headers.get("vary", "").split(",")]
    assert "accept" not in varied  # the URL decided


@pytest.mark.parametrize(
    ("accept", "query"),
    [
        ("image/png", ""),
        ("application/vnd.acme+json;version=9", ""),  # an unknown version
        (V1, "format=pdf"),
    ],
)
def test_a_refusal_runs_no_handler(call: Call, accept: str, query: str) -> None:
    reply = _get(call, accept, query)
    assert reply.status == 406
    assert Counter() == CALLED


@pytest.mark.parametrize("module", ["asgi", "wsgi"])
def test_the_body_type_is_checked_before_any_handler(module: str) -> None:
    if module == "asgi":
        from fastaccept.asgi import dispatch

        call = asgi_call(dispatch(_handlers(True, _any), consumes=BODY_TYPES))
    else:
        from fastaccept.wsgi import dispatch as wsgi_dispatch

        call = wsgi_call(wsgi_dispatch(_handlers(False, _any), consumes=BODY_TYPES))
    CALLED.clear()
    headers = [("content-type", b"text/plain"), ("accept", b"text/csv")]
    refused = call("POST", "/report", headers, b"x")
    assert (refused.status, refused.headers["accept"]) == (415, "application/json")
    assert Counter() == CALLED
    taken = call("POST", "/report", [("content-type", b"application/json")], b"{}")
    assert taken.status == 200
    assert Counter(v2=1) == CALLED


def test_bad_handlers_are_refused_when_made() -> None:
    from fastaccept.wsgi import dispatch

    with pytest.raises(TypeError, match="the handler for 'text/csv' must be callable"):
        dispatch({"text/csv": None})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one handler"):
        dispatch({})
    with pytest.raises(TypeError, match="handlers must map offers"):
        dispatch("text/csv")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is not a pair \\(offer, handler\\)"):
        dispatch([("text/csv",)])  # type: ignore[list-item]

    async def coroutine(environ: Any) -> str:
        return ""

    with pytest.raises(ValueError, match="all be coroutine functions"):
        dispatch({"text/csv": coroutine, "text/plain": lambda environ: ""})
    with pytest.raises(ValueError, match="give each media type once"):
        dispatch({"text/csv": str, "TEXT/CSV": str})
    with pytest.raises(ValueError, match="no offer has a qs above 0"):
        dispatch({("text/csv", 0): str})
    # A negotiated handler negotiated again: the outer decision would win.
    made = dispatch({"text/csv": repr})
    with pytest.raises(TypeError, match="for 'text/plain' is negotiated already"):
        dispatch({"text/plain": made})  # type: ignore[arg-type]


def test_a_handler_that_returns_data_is_a_type_error() -> None:
    from fastaccept.wsgi import dispatch

    app = dispatch({"application/json": lambda environ: {"total": 3}})
    message = "the handler for 'application/json' returned dict, not a body"
    with pytest.raises(TypeError, match=message):
        app({"REQUEST_METHOD": "GET"}, lambda *started: lambda body: None)
    # a generator (Flask's stream_with_context gives one): no renderer's
    rows = dispatch({"text/csv": lambda environ: (row for row in ["a\r\n"])})
    message = r"for 'text/csv' returned generator, not a body .* streaming"
    with pytest.raises(TypeError, match=message):
        rows({"REQUEST_METHOD": "GET"}, lambda *started: lambda body: None)


def test_fastapi_handlers_share_one_signature_and_one_operation() -> None:
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import dispatch

    def as_json(limit: int = 10) -> str:
        return "{}"

    def as_csv(offset: int = 0) -> str:
        return ""

    with pytest.raises(ValueError, match="share one signature"):
        dispatch({"application/json": as_json, "text/csv": as_csv})

    def as_png(limit: int = 10) -> bytes:  # its return annotation: no matter
        return b""

    dispatch({"application/json": as_json, "image/png": as_png})
    operation = fastapi_app().openapi()["paths"]["/report"]["get"]
    assert list(operation["responses"]["200"]["content"]) == [V2, V1, CSV]
    # The handlers' one, then the format name's (formats=True).
    assert [p["name"] for p in operation["parameters"]] == ["limit", "format"]


def test_fastapi_documents_no_schema_of_the_bodies_handlers_return() -> None:
    # A handler's ``-> str`` is its body's type, JSON text here: FastAPI
    # would document the JSON as a string.
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, dispatch

    def as_json() -> str:
        return "{}"

    def as_csv() -> str:
        return ""

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    app.get("/report")(dispatch({"application/json": as_json, "text/csv": as_csv}))
    content = app.openapi()["paths"]["/report"]["get"]["responses"]["200"]["content"]
    # text/csv: a string, as any text type's body is, whatever returns it.
    text = {"schema": {"type": "string"}}
    assert content == {"application/json": {"schema": {}}, "text/csv": text}


def test_fastaccept_asgi_refuses_a_plain_function() -> None:
    from fastaccept import Renderers
    from fastaccept.asgi import dispatch, negotiated

    def greeting(scope: Any, receive: Any) -> str:
        return "hello"

    # A type checker says so too (mypy reads this file: an unused ignore fails).
    with pytest.raises(TypeError, match="greeting must be a coroutine function"):
        negotiated(Renderers({"text/plain": str}))(greeting)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a coroutine function"):
        dispatch({"text/plain": greeting})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the handler must be callable, not NoneType"):
        negotiated(Renderers({"text/plain": str}))(None)  # type: ignore[arg-type]

    def awaitable(scope: Any, receive: Any) -> Awaitable[str]:
        return asyncio.sleep(0, "hello")  # an awaitable, from no coroutine function

    with pytest.raises(TypeError, match="awaitable must be a coroutine function"):
        negotiated(Renderers({"text/plain": str}))(awaitable)  # type: ignore[arg-type]
