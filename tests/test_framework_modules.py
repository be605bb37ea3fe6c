"""The framework modules themselves: fastaccept.starlette, .fastapi, .flask,
.django, .falcon, .litestar and .aiohttp, beyond what the recipes in
examples/frameworks show (tests/test_integrations.py, tests/test_sockets.py):
lazy imports with a clear error, sync and async handlers, a framework
response passed through with Vary merged, Vary set before the handler kept,
FastAPI's OpenAPI document and parameters, Litestar's parameters and plugin,
aiohttp's class-based views and typed keys.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import importlib.util
import inspect
import itertools
import json
import subprocess
import sys
import types
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any

import pytest

from fastaccept import Answer, Consumes, Renderers
from fastaccept.asgi import CONSUMED

from .conftest import load_example
from .recipes import Reply

GREETING = Renderers(
    {
        "application/json": lambda data: json.dumps(data),
        "text/html; charset=utf-8": lambda data: f"<p>{data['greeting']}</p>",
    }
)
PAGES = Renderers({"text/html; charset=utf-8": str, "text/csv": str})
CREATED = Renderers({"application/json": lambda data: json.dumps(data)})
BODY_TYPES = Consumes(["application/json"])
PROBLEM_406 = "image/png, application/problem+json;q=0.5"

#: Each module, and the package whose absence it names.
FRAMEWORKS = {
    "starlette": "starlette",
    "fastapi": "fastapi",
    "flask": "flask",
    "django": "django",
    "falcon": "falcon",
    "litestar": "litestar",
    "aiohttp": "aiohttp",
}

pytestmark = pytest.mark.thread_unsafe(
    reason="replaces modules in sys.modules; Django's settings are process-wide"
)


def vary_tokens(value: str) -> list[str]:
    return [token.strip().lower() for token in value.split(",")]


def assert_refused_before_the_body(client: Any) -> None:
    """``POST /messages`` of a type not taken: the 415, as problem+json."""
    refused = client.post(
        "/messages",
        content=b"n=1",
        headers={"Content-Type": "text/plain", "Accept": "application/json"},
    )
    assert refused.status_code == 415
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.headers["accept"] == "application/json"


def test_importing_fastaccept_imports_no_framework() -> None:
    code = (
        "import sys, fastaccept, fastaccept.asgi, fastaccept.wsgi\n"
        f"print(sorted(set({sorted(FRAMEWORKS.values())!r}) & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def _import_error(module: str, blocked: str) -> str:
    """What ``import fastaccept.<module>`` raises, with ``blocked`` unimportable
    (its ``sys.modules`` entry None), in a new interpreter: the error, then
    its ``name``."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import fastaccept.{module}\n"
        "except ModuleNotFoundError as error:\n    print(error, error.name)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


@pytest.mark.parametrize("module", sorted(FRAMEWORKS))
def test_a_missing_framework_is_named(module: str) -> None:
    package = FRAMEWORKS[module]
    message, _, name = _import_error(module, package).rpartition(" ")
    assert message.endswith(f": pip install {package}")
    # the error's name is the module not found: the framework, or one it
    # needs that is not installed either (Django's asgiref, imported first)
    missing = name.split(".")[0]
    assert missing == package or importlib.util.find_spec(missing) is None, name


def test_a_framework_that_lacks_a_module_is_named_so() -> None:
    """An older Starlette than the integration needs, or one missing a
    dependency: not "pip install starlette", which it is."""
    pytest.importorskip("starlette")
    assert _import_error("starlette", "starlette.requests") == (
        "fastaccept.starlette needs Starlette, which could not import "
        "'starlette.requests' (a release older than fastaccept.starlette needs, "
        "or a dependency of its own missing): pip install -U starlette "
        "starlette.requests"
    )


@pytest.mark.parametrize(
    ("installed", "name", "said"),
    [
        # Not installed: the first import failed, a dependency's too (as
        # fastaccept.django imports asgiref before Django).
        (None, "asgiref", ": pip install fakefw"),
        ("blocked", "fakefw", ": pip install fakefw"),
        ("namespace", "fakefw.sub", ": pip install fakefw"),  # no __init__.py
        ("stand-in", "fakefw.sub", ": pip install fakefw"),  # no __spec__
        # Installed: the module it could not import, whatever it is.
        ("package", "asgiref", ", which could not import 'asgiref' ("),
        ("package", "fakefw.sub", ", which could not import 'fakefw.sub' ("),
        ("package", None, ", which could not import a module ("),
    ],
)
def test_a_missing_framework_is_told_from_a_module_it_lacks(
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
    installed: str | None,
    name: str | None,
    said: str,
) -> None:
    from fastaccept._endpoint import needs

    if installed in ("namespace", "package"):
        (tmp_path / "fakefw").mkdir()
        if installed == "package":
            (tmp_path / "fakefw" / "__init__.py").write_text("")
        monkeypatch.syspath_prepend(tmp_path)
        # Imported, as by the integration's import before the one that failed.
        spec = importlib.util.find_spec("fakefw")
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, "fakefw", module)
    elif installed == "stand-in":
        monkeypatch.setitem(sys.modules, "fakefw", types.ModuleType("fakefw"))
    elif installed == "blocked":  # import fakefw raises ModuleNotFoundError
        monkeypatch.setitem(sys.modules, "fakefw", None)
    error = ModuleNotFoundError("No module named it", name=name)
    raised = needs("FakeFW", "fastaccept.fakefw", error)
    assert str(raised).startswith(f"fastaccept.fakefw needs FakeFW{said}")
    upgrade = "pip install -U fakefw"
    assert str(raised).endswith(upgrade if installed == "package" else said)
    assert raised.name == name


# Starlette ------------------------------------------------------------------


def test_a_negotiated_handler_is_refused_when_decorated() -> None:
    # Negotiating twice let the outer decision undo the inner.
    pytest.importorskip("starlette")
    from fastaccept.starlette import negotiated

    @negotiated(GREETING)
    async def greeting(request: Any) -> dict[str, str]:
        return {"greeting": "hi"}

    with pytest.raises(TypeError, match="the handler is negotiated already: give"):
        negotiated(PAGES)(greeting)


@pytest.fixture(scope="module")
def starlette_client() -> Any:
    pytest.importorskip("httpx")
    starlette = pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import RedirectResponse, Response
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.starlette import PRODUCED, consumed, negotiated, produced

    assert starlette

    @negotiated(GREETING, vary="Cookie")
    async def greeting(request: Request) -> Any:
        if request.path_params["name"] == "old":
            return RedirectResponse("/greeting/new", headers={"Vary": "Cookie"})
        return {"greeting": request.path_params["name"]}

    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    def messages(request: Request) -> Any:  # a sync endpoint: the thread pool
        decision, chosen = consumed(request), produced(request)  # typed
        assert decision is request.scope[CONSUMED], decision
        assert chosen is request.scope[PRODUCED], chosen
        return {"type": decision.media_type}

    async def plain(request: Request) -> Response:
        return Response("x")

    routes = [
        Route("/greeting/{name}", greeting),
        Route("/messages", messages, methods=["POST"]),
        Route("/plain", plain),
    ]
    return TestClient(Starlette(routes=routes), follow_redirects=False)


def test_starlette_methods_as_endpoints() -> None:
    """An ``HTTPEndpoint``'s methods and an object's bound method routed as
    an endpoint: the request is the last argument, after ``self``."""
    pytest.importorskip("httpx")
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.endpoints import HTTPEndpoint
    from starlette.requests import Request
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.starlette import negotiated

    class Users:
        def __init__(self, prefix: str) -> None:
            self.prefix = prefix

        @negotiated(GREETING)
        async def show(self, request: Request) -> dict[str, str]:
            return {"greeting": self.prefix + request.path_params["name"]}

    class Greeting(HTTPEndpoint):
        @negotiated(GREETING)
        def get(self, request: Request) -> dict[str, str]:  # sync: the thread pool
            return {"greeting": request.path_params["name"]}

    routes = [
        Route("/users/{name}", Users("user ").show),
        Route("/greeting/{name}", Greeting),
    ]
    client = TestClient(Starlette(routes=routes))
    for path, body in [
        ("/users/ann", "<p>user ann</p>"),
        ("/greeting/bob", "<p>bob</p>"),
    ]:
        r = client.get(path, headers={"Accept": "text/html"})
        assert (r.status_code, r.text, r.headers["Vary"]) == (200, body, "Accept")
        r = client.get(path, headers={"Accept": "image/png"})
        assert r.status_code == 406


def test_starlette_async_and_sync_handlers(starlette_client: Any) -> None:
    r = starlette_client.get("/greeting/bob", headers={"Accept": "text/html"})
    assert (r.status_code, r.text) == (200, "<p>bob</p>")
    assert r.headers["vary"] == "Cookie, Accept"
    r = starlette_client.post(
        "/messages", content=b"{}", headers={"Content-Type": "application/json"}
    )
    assert (r.status_code, r.json()) == (201, {"type": "application/json"})
    r = starlette_client.post(
        "/messages", content=b"x", headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 415
    assert r.headers["accept"] == "application/json"


def test_starlette_passes_a_response_through_with_vary_merged(
    starlette_client: Any,
) -> None:
    r = starlette_client.get("/greeting/old")
    assert r.status_code == 307
    assert r.headers["location"] == "/greeting/new"
    assert vary_tokens(r.headers["vary"]) == ["cookie", "accept"]


def test_a_handlers_own_response_keeps_every_vary_line() -> None:
    """Starlette's and werkzeug's headers keep each line; ``get`` reads the
    first: every line's tokens are merged with Accept (rule 17); where a
    format name chose, the lines are left as they are, and none is added
    when there are none."""
    pytest.importorskip("starlette")
    pytest.importorskip("flask")
    import flask
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    chosen = Renderers({"application/json": json.dumps}, formats=True)

    @starlette_negotiated(chosen)
    async def page(request: Any) -> Response:
        response = Response("hi", media_type="text/plain")
        for token in request.query_params.getlist("vary"):
            response.headers.append("Vary", token)
        return response

    app = flask.Flask(__name__)

    @app.get("/")
    @flask_negotiated(chosen)
    def view() -> flask.Response:
        response = flask.Response("hi")
        for token in flask.request.args.getlist("vary"):
            response.headers.add("Vary", token)
        return response

    client = TestClient(Starlette(routes=[Route("/", page)]))
    flask_client = app.test_client()
    for query, expected in [
        ("?vary=Cookie&vary=Origin", ["cookie", "origin", "accept"]),
        ("?vary=Cookie&vary=Origin&format=json", ["cookie", "origin"]),
        ("?format=json", []),
    ]:
        lines = client.get("/" + query).headers.get_list("vary")
        flask_lines = flask_client.get("/" + query).headers.getlist("Vary")
        for sent in (lines, flask_lines):
            assert all(line.strip() for line in sent), sent  # never an empty one
            tokens = vary_tokens(", ".join(sent)) if sent else []
            assert tokens == expected, query


def test_a_returned_problem_is_sent_as_it_is_with_the_routes_vary() -> None:
    """A handler may return a whole ``Rendered`` (``problem``'s, a negotiated
    404): it is sent as it is, the route's ``Vary`` merged into its own, and
    no body to HEAD; it was data to render (json's TypeError, a 500; or its
    repr as a 200 from a ``str`` renderer)."""
    pytest.importorskip("starlette")
    pytest.importorskip("flask")
    import flask
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept import problem
    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    pages = Renderers({"application/json": json.dumps, "text/html": str})

    @starlette_negotiated(pages, vary="Cookie")
    async def item(request: Any) -> Any:
        return problem(404, request.headers.get("accept"), detail="no item 7")

    app = flask.Flask(__name__)

    @app.get("/")
    @flask_negotiated(pages, vary="Cookie")
    def view() -> Any:
        return problem(404, flask.request.headers.get("accept"), detail="no item 7")

    clients = (TestClient(Starlette(routes=[Route("/", item)])), app.test_client())
    for client in clients:
        for accept in ("application/json", "text/html"):
            expected = problem(404, accept, detail="no item 7")
            sent = client.get("/", headers={"Accept": accept})
            head = client.head("/", headers={"Accept": accept})
            assert (sent.status_code, head.status_code) == (404, 404)
            for answer in (sent, head):
                assert (
                    answer.headers["content-type"] == expected.headers["Content-Type"]
                )
                assert vary_tokens(answer.headers["vary"]) == ["accept", "cookie"]
                assert answer.headers["content-length"] == str(len(expected.body))
            read = "content" if isinstance(client, TestClient) else "data"
            bodies = [getattr(answer, read) for answer in (sent, head)]
            assert bodies == [expected.body, b""]


def test_flask_sends_a_rendered_made_by_hand_without_a_length() -> None:
    # Its empty body's length: werkzeug's count (a KeyError, a 500, before).
    pytest.importorskip("flask")
    import flask

    from fastaccept import Rendered
    from fastaccept.flask import negotiated

    app = flask.Flask(__name__)

    @app.get("/")
    @negotiated(Renderers({"application/json": json.dumps}))
    def view() -> Rendered:
        return Rendered(404, (("Content-Type", "text/plain"),), b"", False)

    for sent in (app.test_client().get("/"), app.test_client().head("/")):
        assert (sent.status_code, sent.data) == (404, b"")
        assert sent.headers["Content-Length"] == "0"
        assert vary_tokens(sent.headers["Vary"]) == ["accept"]


def test_a_head_response_made_by_hand_answers_head_where_frameworks_drop_bodies() -> (
    None
):
    """Its Content-Length is the GET body's (RFC 9110 §9.3.2), its body
    empty: Starlette, Flask and aiohttp, whose HEAD answers are made as GET's
    (``head_as_get``), send it to HEAD as plain WSGI does (judged as GET's,
    it was a ValueError, a 500); to GET it is still refused, as the client
    would wait for 9 bytes never sent."""
    pytest.importorskip("starlette")
    pytest.importorskip("flask")
    pytest.importorskip("aiohttp")
    import flask
    from aiohttp import web
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept import Rendered
    from fastaccept.aiohttp import negotiated as aiohttp_negotiated
    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    from .test_integrations import aiohttp_call

    chosen = Renderers({"text/plain": str})
    head = Rendered(200, (("Content-Type", "text/plain"), ("Content-Length", "9")), b"")

    @starlette_negotiated(chosen)
    async def page(request: Any) -> Rendered:
        return head

    app = flask.Flask(__name__)

    @app.get("/")
    @flask_negotiated(chosen)
    def view() -> Rendered:
        return head

    @aiohttp_negotiated(chosen)
    async def handler(request: Any) -> Rendered:
        return head

    routes = [Route("/", page, methods=["GET", "HEAD"])]
    starlette = TestClient(Starlette(routes=routes), raise_server_exceptions=False)
    flask_client = app.test_client()
    aiohttp_app = web.Application()
    aiohttp_app.router.add_get("/", handler)
    call = aiohttp_call(aiohttp_app)
    heads: list[Any] = [starlette.head("/"), flask_client.head("/")]
    answers = [(head.status_code, head.headers["content-length"]) for head in heads]
    aiohttp_head = call("HEAD", "/", [], b"")
    answers.append((aiohttp_head.status, aiohttp_head.headers["content-length"]))
    assert answers == [(200, "9")] * 3
    gets = [starlette.get("/").status_code, flask_client.get("/").status_code]
    assert [*gets, call("GET", "/", [], b"").status] == [500] * 3


def test_another_exception_is_the_frameworks_own_500(django_views: Any) -> None:
    """docs/web.md: only the framework's own HTTP errors get ``vary`` and
    ``Accept``; any other exception a handler raises goes on to the
    framework's 500, sent without them but by Litestar (whose plugin merges
    them) and falcon (whose own error handler sends ``Accept``)."""
    for package in ("starlette", "fastapi", "flask", "falcon", "litestar", "aiohttp"):
        pytest.importorskip(package)
    import falcon
    import falcon.testing
    import flask
    from aiohttp import web
    from fastapi import FastAPI
    from litestar import Litestar, get
    from litestar.testing import TestClient as LitestarClient
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept import aiohttp as aiohttp_module
    from fastaccept import django, fastapi, litestar, starlette
    from fastaccept import falcon as falcon_module
    from fastaccept import flask as flask_module

    def raises(*args: Any) -> Any:
        raise ValueError("not the framework's")

    async def raises_async(*args: Any) -> Any:
        raise ValueError("not the framework's")

    async def raises_alone() -> Any:  # FastAPI and Litestar read parameters
        raise ValueError("not the framework's")

    answers: dict[str, tuple[int, str | None]] = {}
    routes = [Route("/", starlette.negotiated(PAGES, vary="Cookie")(raises_async))]
    r = TestClient(Starlette(routes=routes), raise_server_exceptions=False).get("/")
    answers["starlette"] = (r.status_code, r.headers.get("vary"))
    app = FastAPI()
    app.router.route_class = fastapi.NegotiatedRoute
    app.get("/")(fastapi.negotiated(PAGES, vary="Cookie")(raises_alone))
    r = TestClient(app, raise_server_exceptions=False).get("/")
    answers["fastapi"] = (r.status_code, r.headers.get("vary"))
    flask_app = flask.Flask(__name__)
    flask_app.get("/")(flask_module.negotiated(PAGES, vary="Cookie")(raises))
    flask_got = flask_app.test_client().get("/")
    answers["flask"] = (flask_got.status_code, flask_got.headers.get("vary"))

    class Resource:
        on_get = falcon_module.negotiated(PAGES, vary="Cookie")(raises)

    falcon_app = falcon.App()
    falcon_app.add_route("/", Resource())
    falcon_got = falcon.testing.TestClient(falcon_app).simulate_get("/")
    answers["falcon"] = (falcon_got.status_code, falcon_got.headers.get("vary"))
    route = get("/")(litestar.negotiated(PAGES, vary="Cookie")(raises_alone))
    with LitestarClient(Litestar([route], plugins=[litestar.NegotiationPlugin()])) as c:
        litestar_got = c.get("/")
    answers["litestar"] = (litestar_got.status_code, litestar_got.headers.get("vary"))
    aiohttp_app = web.Application()
    route_handler = aiohttp_module.negotiated(PAGES, vary="Cookie")(raises_async)
    aiohttp_app.router.add_get("/", route_handler)
    from .test_integrations import aiohttp_call

    got = aiohttp_call(aiohttp_app)("GET", "/", [], b"")
    answers["aiohttp"] = (got.status, got.headers.get("vary"))
    assert answers == {
        "starlette": (500, None),
        "fastapi": (500, None),
        "flask": (500, None),
        "falcon": (500, "Accept"),
        "litestar": (500, "Cookie, Accept"),
        "aiohttp": (500, None),
    }
    # Django's 500 is its handler's, of the exception the view lets through.
    from django.test import RequestFactory

    view = django.negotiated(PAGES, vary="Cookie")(raises)
    with pytest.raises(ValueError, match="not the framework's"):
        view(RequestFactory().get("/"))


def test_a_hand_made_length_is_read_whatever_the_case_of_its_name() -> None:
    """Field names are case-insensitive (RFC 9110 §5.1): Flask's HEAD answer
    keeps a hand-made ``content-length`` (a KeyError, a 500, before); and a
    205 made by hand
    without one gets ``Content-Length: 0`` from plain WSGI (§15.3.6), as
    ``Answer(None, status=205)`` does."""
    pytest.importorskip("flask")
    import flask

    from fastaccept import Rendered
    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.wsgi import negotiated as wsgi_negotiated

    chosen = Renderers({"text/plain": str})
    head = Rendered(200, (("content-type", "text/plain"), ("content-length", "9")), b"")
    app = flask.Flask(__name__)

    @app.get("/")
    @flask_negotiated(chosen)
    def view() -> Rendered:
        return head

    answer = app.test_client().head("/")
    assert (answer.status_code, answer.headers["Content-Length"]) == (200, "9")

    @wsgi_negotiated(chosen)
    def reset(environ: Any) -> Rendered:
        return Rendered(205, (), b"")

    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
        started.append((status, headers))

    body = b"".join(reset({"REQUEST_METHOD": "POST"}, start_response))
    assert (started[0][0], body) == ("205 Reset Content", b"")
    assert ("Content-Length", "0") in started[0][1]


def test_a_bodyless_answer_made_by_hand_keeps_its_content_type(
    django_views: Any,
) -> None:
    """A 204 or 304 ``Rendered`` made by hand is sent as it is (docs/web.md,
    "What a handler may send"): Flask and Django dropped its Content-Type
    with their own default one; the others kept it. One without keeps none."""
    pytest.importorskip("flask")
    import flask
    from django.test import RequestFactory

    from fastaccept import Rendered
    from fastaccept.django import negotiated as django_negotiated
    from fastaccept.flask import negotiated as flask_negotiated

    typed = Rendered(204, (("content-type", "text/plain"),), b"")
    untyped = Rendered(304, (("ETag", '"v1"'),), b"")
    app = flask.Flask(__name__)

    @app.get("/<kind>")
    @flask_negotiated(GREETING)
    def view(kind: str) -> Rendered:
        return typed if kind == "typed" else untyped

    @django_negotiated(GREETING)
    def django_view(request: Any, kind: str) -> Rendered:
        return typed if kind == "typed" else untyped

    client, factory = app.test_client(), RequestFactory()
    for kind, expected in (("typed", "text/plain"), ("untyped", None)):
        sent = [
            client.get(f"/{kind}").headers,
            django_view(factory.get(f"/{kind}"), kind=kind).headers,
        ]
        assert [headers.get("Content-Type") for headers in sent] == [expected] * 2


def test_a_304_made_by_hand_gets_no_content_length() -> None:
    """A 304 made by hand without ``Content-Length`` is sent without one
    (RFC 9110 §8.6: a 304's would be the 200's, not its empty body's 0);
    Flask's werkzeug drops it itself, so a WSGI app and Starlette tell."""
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept import Rendered
    from fastaccept.starlette import negotiated as starlette_negotiated
    from fastaccept.wsgi import negotiated as wsgi_negotiated

    chosen = Renderers({"text/plain": str})
    unchanged = Rendered(304, (("ETag", '"v1"'),), b"")

    @wsgi_negotiated(chosen)
    def app(environ: Any) -> Rendered:
        return unchanged

    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
        started.append((status, headers))

    body = b"".join(app({"REQUEST_METHOD": "GET"}, start_response))
    assert (started[0][0], body) == ("304 Not Modified", b"")
    assert [name for name, _ in started[0][1]] == ["ETag", "Vary"]

    async def endpoint(request: Any) -> Rendered:
        return unchanged

    routes = [Route("/", starlette_negotiated(chosen)(endpoint))]
    answer = TestClient(Starlette(routes=routes)).get("/")
    assert (answer.status_code, answer.headers["etag"]) == (304, '"v1"')
    assert "content-length" not in answer.headers


def test_head_gets_gets_headers_through_middleware_that_reads_the_body() -> None:
    """Starlette and Flask drop a HEAD answer's body themselves (Starlette
    by its server): made as GET's, compression and ETags see it (RFC 9110
    §9.3.2: the header fields GET would have)."""
    pytest.importorskip("starlette")
    pytest.importorskip("flask")
    import flask
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    data = {"lines": ["a line of text, long enough to be worth compressing"] * 20}

    @starlette_negotiated(GREETING)
    async def page(request: Any) -> dict[str, list[str]]:
        return data

    gzip = [Middleware(GZipMiddleware, minimum_size=100)]
    client = TestClient(Starlette(routes=[Route("/", page)], middleware=gzip))
    app = flask.Flask(__name__)

    @app.get("/")
    @flask_negotiated(GREETING)
    def view() -> dict[str, list[str]]:
        return data

    @app.after_request
    def tag(response: flask.Response) -> flask.Response:
        response.add_etag()
        response.make_conditional(flask.request)  # in place
        return response

    flask_client = app.test_client()
    starlette_get, starlette_head = client.get("/"), client.head("/")
    flask_get, flask_head = flask_client.get("/"), flask_client.head("/")
    assert (starlette_get.status_code, flask_get.status_code) == (200, 200)
    answers: list[tuple[bytes, Any, Any]] = [
        (starlette_head.content, starlette_get.headers, starlette_head.headers),
        (flask_head.data, flask_get.headers, flask_head.headers),
    ]
    for body, get_headers, head_headers in answers:
        assert body == b""
        for name in ("Content-Length", "Content-Encoding", "ETag", "Vary"):
            assert head_headers.get(name) == get_headers.get(name), name
    assert client.head("/").headers["content-encoding"] == "gzip"
    etag = flask_client.get("/").headers["ETag"]
    assert flask_client.head("/", headers={"If-None-Match": etag}).status_code == 304


def test_head_is_compressed_as_get_where_the_framework_drops_its_body() -> None:
    """aiohttp and Litestar drop a HEAD answer's body themselves: made as
    GET's, their compression gives HEAD GET's header fields; so does a
    problem (``problems=True``) on Starlette under GZipMiddleware."""
    pytest.importorskip("aiohttp")
    pytest.importorskip("litestar")
    from aiohttp import web
    from litestar import Litestar, route
    from litestar.config.compression import CompressionConfig
    from litestar.testing import TestClient as LitestarClient
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.aiohttp import negotiated as aiohttp_negotiated
    from fastaccept.litestar import NegotiationPlugin
    from fastaccept.litestar import negotiated as litestar_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    from .test_integrations import aiohttp_call

    data = {"greeting": "a line of text, long enough to be worth compressing" * 20}
    zipped = [("Accept-Encoding", b"gzip"), ("Accept", b"text/html")]

    @aiohttp_negotiated(GREETING)
    async def page(request: web.Request) -> dict[str, str]:
        return data

    @web.middleware
    async def compress(request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        response.enable_compression()
        return response

    app = web.Application(middlewares=[compress])
    app.router.add_get("/", page)
    call = aiohttp_call(app)
    answers = [(call("GET", "/", zipped, b""), call("HEAD", "/", zipped, b""))]

    @route("/", http_method=["GET", "HEAD"])
    @litestar_negotiated(GREETING)
    async def litestar_page() -> dict[str, str]:
        return data

    compression = CompressionConfig(backend="gzip", minimum_size=100)
    litestar = Litestar(
        [litestar_page], plugins=[NegotiationPlugin()], compression_config=compression
    )

    @starlette_negotiated(GREETING, problems=True)
    async def missing(request: Any) -> dict[str, str]:
        raise HTTPException(404, data["greeting"])

    gzip = [Middleware(GZipMiddleware, minimum_size=100)]
    starlette = Starlette(routes=[Route("/", missing)], middleware=gzip)
    headers = {name: value.decode() for name, value in zipped}
    for client in (LitestarClient(litestar), TestClient(starlette)):
        with client:
            sent = [client.request(m, "/", headers=headers) for m in ("GET", "HEAD")]
            got, head = (Reply(r.status_code, dict(r.headers), r.content) for r in sent)
            answers.append((got, head))
    for got, head in answers:
        assert got.headers["content-encoding"] == "gzip", got
        for name in ("content-length", "content-encoding", "content-type", "vary"):
            assert head.headers.get(name) == got.headers.get(name), (name, head)


def test_starlette_head_and_refusal(starlette_client: Any) -> None:
    get = starlette_client.get("/greeting/bob")
    head = starlette_client.head("/greeting/bob")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    r = starlette_client.get("/greeting/bob", headers={"Accept": PROBLEM_406})
    assert r.status_code == 406
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["acceptable"] == ["application/json", "text/html; charset=utf-8"]


# FastAPI --------------------------------------------------------------------


@pytest.fixture(scope="module")
def fastapi_app() -> Any:
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from . import negotiated_fastapi_app

    return negotiated_fastapi_app.app


@pytest.fixture(scope="module")
def fastapi_client(fastapi_app: Any) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(fastapi_app, follow_redirects=False)


def test_fastapi_keeps_the_handlers_parameters(fastapi_client: Any) -> None:
    r = fastapi_client.get("/greeting/bob?loud=true", headers={"Accept": "*/*"})
    assert (r.status_code, r.json()) == (200, {"greeting": "HELLO bob"})
    assert r.headers["vary"] == "Cookie, Accept"
    r = fastapi_client.get("/greeting/old")
    assert r.status_code == 307
    assert vary_tokens(r.headers["vary"]) == ["cookie", "accept"]


def test_fastapi_the_request_parameter_is_added_before_var_keyword() -> None:
    # A Signature keeps keyword-only parameters before **kwargs.
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import REQUEST_ARGUMENT, RESPONSE_ARGUMENT, negotiated

    @negotiated(GREETING)
    def greet(name: str, **extra: Any) -> dict[str, str]:
        return {"greeting": name}

    kinds = [(p.name, p.kind) for p in inspect.signature(greet).parameters.values()]
    assert kinds == [
        ("name", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        (REQUEST_ARGUMENT, inspect.Parameter.KEYWORD_ONLY),
        (RESPONSE_ARGUMENT, inspect.Parameter.KEYWORD_ONLY),
        ("extra", inspect.Parameter.VAR_KEYWORD),
    ]


def test_fastapi_head_is_the_negotiated_get_routes_whatever_came_first() -> None:
    """Starlette's router sends a method a route lacks to the path's first
    route: a POST route registered first would answer HEAD 405."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.post("/items", status_code=201)
    @negotiated(GREETING, status=201)  # the route's status_code, given once more
    def create() -> dict[str, int]:
        return {"id": 1}

    @app.get("/items")
    @negotiated(GREETING)
    def items() -> dict[str, list[int]]:
        return {"items": []}

    client = TestClient(app)
    get, head = client.get("/items"), client.head("/items")
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == get.headers["content-length"]
    assert client.post("/items").status_code == 201
    assert client.delete("/items").status_code == 405


def test_fastapi_a_head_route_of_the_apps_own_answers_head() -> None:
    """A HEAD route of the app's own after a negotiated GET of the same path answers
    HEAD, as without fastaccept (the GET route took it: the app's never ran)."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI, Response
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get("/health")
    @negotiated(GREETING)
    def health() -> dict[str, str]:
        return {"greeting": "ok"}

    own = Response(headers={"X-Head": "own"})  # (no annotation FastAPI would read)
    app.add_api_route("/health", lambda: own, methods=["HEAD"])
    head = TestClient(app).head("/health")
    assert (head.status_code, head.headers.get("x-head")) == (200, "own")


@pytest.mark.parametrize("dispatched", [False, True])
def test_fastapi_the_response_fastapi_gives_the_handler_is_kept(
    dispatched: bool,
) -> None:
    """FastAPI's way to set a cookie, a header or the status from a handler
    that returns data, or from a dependency: a ``Response`` parameter, what
    is set on it added to the answer (``Vary`` merged); an ``Answer``'s
    status wins over it."""
    pytest.importorskip("fastapi")
    from fastapi import Depends, FastAPI, Response
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, dispatch, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def session(response: Response) -> None:
        response.set_cookie("session", "s1")

    def login(response: Response, status: int = 0, field: str = "") -> Any:
        response.headers["X-Trace"] = "t1"
        response.headers["Vary"] = "Origin"
        if field:
            response.headers[field] = "text/plain"
        if status:
            response.status_code = status
        data = {"greeting": "hello"}
        body = json.dumps(data) if dispatched else data  # dispatch's: the body
        return Answer(body, status=202) if status == 299 else body

    def logout() -> Any:  # takes no Response: a dependency's is kept all the same
        return json.dumps({}) if dispatched else {"greeting": "bye"}

    login.__annotations__["response"] = Response  # a name this module lacks
    session.__annotations__["response"] = Response
    for path, handler in (("/login", login), ("/logout", logout)):
        types = ("application/json", "text/html; charset=utf-8")
        served = (
            dispatch(dict.fromkeys(types, handler))
            if dispatched
            else negotiated(GREETING)(handler)
        )
        app.post(path, dependencies=[Depends(session)])(served)
    client = TestClient(app, raise_server_exceptions=False)
    for path in ("/login", "/logout"):
        made = client.post(path, headers={"Accept": "text/html"})
        assert made.status_code == 200
        assert made.headers["content-type"] == "text/html; charset=utf-8"
        assert made.headers["set-cookie"].startswith("session=s1")
    assert made.headers["vary"] == "Accept"
    made = client.post("/login")
    assert (made.headers["x-trace"], made.headers.get_list("vary")) == (
        "t1",
        ["Accept, Origin"],
    )
    assert client.post("/login?status=201").status_code == 201
    empty = client.post("/login?status=204")
    assert (empty.status_code, empty.content) == (204, b"")
    assert "content-type" not in empty.headers
    assert client.post("/login?status=299").status_code == 202  # Answer's
    assert client.post("/login?status=600").status_code == 500  # no status
    assert client.post("/login?field=Content-Type").status_code == 500
    refused = client.post("/login", headers={"Accept": "image/png"})
    assert refused.status_code == 406 and "set-cookie" not in refused.headers


def test_fastapi_the_routes_405_is_a_problem_with_problems() -> None:
    """``NegotiatedRoute`` answers a method the route lacks itself: with
    ``problems=True`` that 405 is a problem as Accept prefers, ``Allow``
    kept (docs/web.md: every error answer of the route); it was FastAPI's
    ``{"detail": ...}`` JSON whatever Accept said. Without, it stays
    FastAPI's."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def item() -> dict[str, str]:
        return {"greeting": "hi"}

    app.get("/problem")(negotiated(GREETING, problems=True)(item))
    app.get("/plain")(negotiated(GREETING)(item))
    client = TestClient(app)
    as_json = client.post("/problem", headers={"Accept": "application/json"})
    assert (as_json.status_code, as_json.headers["allow"]) == (405, "GET, HEAD")
    assert as_json.headers["content-type"] == "application/problem+json"
    assert as_json.json() == {
        "type": "about:blank",
        "title": "Method Not Allowed",
        "status": 405,
    }
    assert as_json.headers["vary"] == "Accept"
    as_text = client.delete("/problem", headers={"Accept": "text/plain"})
    assert as_text.headers["content-type"] == "text/plain; charset=utf-8"
    assert as_text.text.startswith("405 Method Not Allowed")
    plain = client.post("/plain", headers={"Accept": "text/plain"})
    assert (plain.status_code, plain.json()) == (405, {"detail": "Method Not Allowed"})


def _fastapi_fields(
    dependency: dict[str, str], answer: dict[str, str]
) -> list[tuple[str, str]]:
    """The header lines FastAPI sends for a negotiated route whose dependency
    sets ``dependency`` on FastAPI's ``Response`` and whose handler returns an
    ``Answer`` with the headers ``answer``."""
    pytest.importorskip("fastapi")
    from fastapi import Depends, FastAPI, Response
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def defaults(response: Response) -> None:
        response.headers.update(dependency)

    def item() -> Answer:
        return Answer({"greeting": "hi"}, headers=answer)

    defaults.__annotations__["response"] = Response  # a name this module lacks
    app.get("/item", dependencies=[Depends(defaults)])(negotiated(GREETING)(item))
    fields: list[tuple[str, str]] = TestClient(app).get("/item").headers.multi_items()
    return fields


def test_fastapi_a_field_the_answer_has_is_sent_once() -> None:
    """A field a dependency sets on FastAPI's ``Response`` that the answer
    also has is one line: the answer's alone for a field of one value (RFC
    9110 §5.3: one ``ETag``), a list's values joined, the answer's first
    (``Link``, ``Cache-Control``), as falcon's. Two ``ETag`` lines were
    sent, which httpx read as ``"v1", "dep"``."""
    dependency = {
        "ETag": '"dep"',
        "Link": "</dep>; rel=help",
        "Cache-Control": "private",
        "X-Trace": "t1",
    }
    answer = {
        "ETag": '"v1"',
        "Link": "</v1>; rel=alternate",
        "Cache-Control": "max-age=600",
    }
    assert sorted(_fastapi_fields(dependency, answer)) == [
        ("cache-control", "max-age=600, private"),
        ("content-length", "18"),
        ("content-type", "application/json"),
        ("etag", '"v1"'),
        ("link", "</v1>; rel=alternate, </dep>; rel=help"),
        ("vary", "Accept"),
        ("x-trace", "t1"),
    ]


def test_fastapi_an_empty_value_of_a_field_the_answer_has_adds_nothing() -> None:
    """An empty value, the dependency's or the answer's, is no element of the
    one line (RFC 9110 §5.6.1); ``"</v1>; rel=alternate, "`` was sent, a
    value ending in a space (§5.5) that h11 refuses."""
    fields = dict(
        _fastapi_fields(
            {"Link": "", "Cache-Control": "private"},
            {"Link": "</v1>; rel=alternate", "Cache-Control": ""},
        )
    )
    assert (fields["link"], fields["cache-control"]) == (
        "</v1>; rel=alternate",
        "private",
    )


@pytest.mark.parametrize(
    ("module", "argument"),
    [("fastapi", "fastaccept_request"), ("litestar", "request")],
)
def test_an_endpoint_called_without_the_frameworks_argument_says_so(
    module: str, argument: str
) -> None:
    """FastAPI and Litestar pass the endpoint an argument for the
    integration (the request, where the handler takes none): called
    directly without it, a ``TypeError`` naming it, not a ``KeyError``."""
    pytest.importorskip(module)
    negotiated = importlib.import_module(f"fastaccept.{module}").negotiated

    @negotiated(GREETING)  # type: ignore[untyped-decorator]  # a module by name
    def greeting(name: str) -> dict[str, str]:
        return {"greeting": name}

    assert argument in inspect.signature(greeting).parameters
    with pytest.raises(TypeError, match=f"keyword argument '{argument}' the framework"):
        greeting("ann")


def test_fastapi_a_status_code_the_handler_does_not_answer_is_refused() -> None:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    with pytest.raises(ValueError, match=r"negotiated\(\.\.\., status=201\)"):

        @app.post("/items", status_code=201)
        @negotiated(GREETING)
        def create() -> dict[str, int]:
            return {"id": 1}


@pytest.mark.parametrize(
    "option",
    [
        {"response_model_include": {"greeting"}},
        {"response_model_exclude": {"secret"}},
        {"response_model_exclude_none": True},
        {"response_model_exclude_unset": True},
        {"response_model_exclude_defaults": True},
        {"response_model_by_alias": False},
    ],
)
def test_fastapi_a_response_model_filter_is_refused(option: dict[str, Any]) -> None:
    """FastAPI filters by ``response_model`` only what it serializes, never
    what a negotiated handler's renderers receive: an option that would
    filter is a ``ValueError``, not a silent no-op; ``response_model``
    itself documents the route."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from pydantic import BaseModel

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    class Greeting(BaseModel):
        greeting: str

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    name = next(iter(option))
    with pytest.raises(ValueError, match=f"the route '/g' has {name}="):

        @app.get("/g", response_model=Greeting, **option)
        @negotiated(GREETING)
        def greeting() -> dict[str, str]:
            return {"greeting": "hi"}

    @app.get("/documented", response_model=Greeting, response_model_exclude=set())
    @negotiated(GREETING)  # excluding nothing filters nothing
    def documented() -> dict[str, str]:
        return {"greeting": "hi"}

    schema = app.openapi()["paths"]["/documented"]["get"]["responses"]["200"]
    assert schema["content"]["application/json"]["schema"]["$ref"].endswith("Greeting")


def test_fastapi_route_class_leaves_a_route_not_negotiated_as_fastapi_has_it() -> None:
    """A router's ``NegotiatedRoute`` on a handler without ``negotiated``:
    FastAPI's own handler and answers (no HEAD of its own, no ``Vary``)."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get("/plain")
    def plain(n: int) -> dict[str, int]:
        return {"n": n}

    client = TestClient(app)
    ok = client.get("/plain?n=1", headers={"Accept": "text/html"})
    assert (ok.status_code, ok.json()) == (200, {"n": 1})
    assert "vary" not in ok.headers
    invalid = client.get("/plain?n=x")  # FastAPI's 422
    assert invalid.status_code == 422 and "vary" not in invalid.headers
    assert client.head("/plain?n=1").status_code == 405  # as FastAPI's own routes


def test_fastapi_checks_the_content_type_before_reading_the_body(
    fastapi_client: Any,
) -> None:
    ok = fastapi_client.post(
        "/messages", content=b'{"n": 1}', headers={"Content-Type": "application/json"}
    )
    made = {"type": "application/json", "produced": "application/json", "n": 1}
    assert (ok.status_code, ok.json()) == (201, made)
    # Not a validation error (422): the body is not read when its type is refused.
    assert_refused_before_the_body(fastapi_client)
    # An accepted type with a body that does not validate is FastAPI's 422.
    invalid = fastapi_client.post(
        "/messages", content=b'{"n": "x"}', headers={"Content-Type": "application/json"}
    )
    assert invalid.status_code == 422


def test_fastapi_errors_on_a_negotiated_route_vary_on_accept(
    fastapi_client: Any,
) -> None:
    # FastAPI's 422s are made before the handler runs: NegotiatedRoute adds Vary.
    invalid = fastapi_client.post(
        "/messages", content=b'{"n": "x"}', headers={"Content-Type": "application/json"}
    )
    assert (invalid.status_code, vary_tokens(invalid.headers["vary"])) == (
        422,
        ["accept"],
    )
    bad_query = fastapi_client.get("/greeting/bob?loud=maybe")
    assert bad_query.status_code == 422
    assert vary_tokens(bad_query.headers["vary"]).count("accept") == 1
    # A route that is not negotiated is left as it is.
    assert "vary" not in fastapi_client.get("/no-such-route").headers


def _formatted_error_app(framework: str, vary: str | None) -> Any:
    """An app of ``framework`` whose negotiated ``/item`` (formats, ``vary``
    as given) answers ``?missing`` with a 404 ``Answer``, ``?own`` with the
    framework's own 404 response; FastAPI's checks ``?n`` as an int."""
    renderers = Renderers({"application/json": json.dumps}, formats=True)

    def answer(missing: bool, own: bool, made: Callable[[], Any]) -> Any:
        if own:
            return made()
        return Answer({"e": 1}, status=404) if missing else {"a": 1}

    if framework == "starlette":
        from starlette.applications import Starlette
        from starlette.responses import Response
        from starlette.routing import Route

        from fastaccept.starlette import negotiated as starlette_negotiated

        @starlette_negotiated(renderers, vary=vary)
        async def item(request: Any) -> Any:
            query = request.query_params
            made = partial(Response, b"", 404)
            return answer("missing" in query, "own" in query, made)

        return Starlette(routes=[Route("/item", item)])
    if framework == "fastapi":
        from fastapi import FastAPI
        from fastapi import Response as FastAPIResponse

        from fastaccept.fastapi import NegotiatedRoute
        from fastaccept.fastapi import negotiated as fastapi_negotiated

        app = FastAPI()
        app.router.route_class = NegotiatedRoute

        @app.get("/item")
        @fastapi_negotiated(renderers, vary=vary)
        def fastapi_item(missing: str = "", own: str = "", n: int = 0) -> Any:
            made = partial(FastAPIResponse, b"", 404)
            return answer(bool(missing), bool(own), made)

        return app
    from litestar import Litestar, Request, get
    from litestar import Response as LitestarResponse

    from fastaccept.litestar import NegotiationPlugin
    from fastaccept.litestar import negotiated as litestar_negotiated

    @get("/item")
    @litestar_negotiated(renderers, vary=vary)
    async def litestar_item(request: Request[Any, Any, Any]) -> Any:
        query = request.query_params
        made = partial(LitestarResponse, b"", status_code=404)
        return answer("missing" in query, "own" in query, made)

    return Litestar([litestar_item], plugins=[NegotiationPlugin()])


@pytest.mark.parametrize("framework", ["starlette", "fastapi", "litestar"])
def test_an_error_answer_a_format_name_chose_does_not_vary_on_accept(
    framework: str,
) -> None:
    """Where a format name chose, Accept decides nothing: an error answer of
    the handler, or of the framework on its route (FastAPI's 422), has the
    endpoint's ``vary`` alone, as Starlette's has; without one, ``Accept``
    too (docs/web.md, "Format override"). With no ``vary`` of its own, a
    format name's error answer has no ``Vary`` at all (none empty)."""
    pytest.importorskip("httpx")
    pytest.importorskip(framework)
    pytest.importorskip("starlette")  # its test client serves Litestar's app too
    from starlette.testclient import TestClient

    queries = ("missing=1", "own=1", *(["n=x"] if framework == "fastapi" else []))
    for vary, own in (("Cookie", ["cookie"]), (None, [])):
        client = TestClient(_formatted_error_app(framework, vary))
        for query in queries:
            formatted = client.get(f"/item?format=json&{query}")
            by_accept = client.get(f"/item?{query}")
            assert formatted.status_code == by_accept.status_code >= 400, query
            sent = [value.lower() for value in formatted.headers.get_list("vary")]
            assert sent == own, (vary, query)
            assert vary_tokens(by_accept.headers["vary"]) == [*own, "accept"], query


def test_fastapi_a_body_read_by_the_handler(fastapi_client: Any) -> None:
    r = fastapi_client.put(
        "/uploads/a", content=b"\x89PNG", headers={"Content-Type": "image/png"}
    )
    assert (r.status_code, r.json()) == (200, {"name": "a", "bytes": 4})
    r = fastapi_client.put(
        "/uploads/a", content=b"GIF8", headers={"Content-Type": "image/gif"}
    )
    assert (r.status_code, r.headers["accept"]) == (415, "image/png, image/jpeg")


def test_fastapi_answers_head_on_a_get_route(fastapi_client: Any) -> None:
    get = fastapi_client.get("/greeting/bob")
    head = fastapi_client.head("/greeting/bob")
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == get.headers["content-length"]
    refused = fastapi_client.post("/greeting/bob")
    assert refused.status_code == 405
    assert refused.headers["allow"] == "GET, HEAD"  # RFC 9110 §15.5.6


def test_fastapi_head_runs_the_dependencies_get_runs() -> None:
    """HEAD on an included router's GET route runs what GET runs: the
    dependencies of ``include_router`` and of the app (an authorization),
    and the app's dependency overrides (FastAPI 0.16x keeps them with the
    inclusion, not with the route)."""
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    def authorized(authorization: str = Header("")) -> None:
        if authorization != "Bearer ok":
            raise HTTPException(401, "no token")

    def database() -> str:
        return "the real one"

    router = APIRouter(route_class=NegotiatedRoute)

    @router.get("/secret")
    @negotiated(GREETING)
    def secret(name: str = Depends(database)) -> dict[str, str]:
        return {"greeting": name}

    included = FastAPI()
    included.include_router(router, prefix="/api", dependencies=[Depends(authorized)])
    at_app = FastAPI(dependencies=[Depends(authorized)])
    at_app.include_router(router, prefix="/api")
    for app in (included, at_app):
        client = TestClient(app)
        assert client.get("/api/secret").status_code == 401
        assert client.head("/api/secret").status_code == 401
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[database] = lambda: "the test one"
    client = TestClient(app)
    get, head = client.get("/secret"), client.head("/secret")
    assert get.json() == {"greeting": "the test one"}
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == get.headers["content-length"]


def test_fastapi_openapi_lists_the_media_types_and_refusals(fastapi_app: Any) -> None:
    paths = fastapi_app.openapi()["paths"]
    assert "head" not in paths["/greeting/{name}"]
    greeting = paths["/greeting/{name}"]["get"]["responses"]
    assert list(greeting["200"]["content"]) == [
        "application/json",
        "text/html; charset=utf-8",
    ]
    content = greeting["406"]["content"]
    schema = content["application/problem+json"]["schema"]
    assert schema["properties"]["status"] == {"type": "integer"}
    assert "text/plain" in content
    # The route takes no body: its 431 is to an over-long Accept, not read.
    assert list(greeting["431"]["content"]) == ["text/plain"]
    assert "415" not in greeting
    body = paths["/messages"]["post"]["requestBody"]
    assert body["required"] is True
    # The handler's JSON body schema, and every type consumes takes.
    assert set(body["content"]) == {"application/json"}
    assert "schema" in body["content"]["application/json"]
    upload = paths["/uploads/{name}"]["put"]["requestBody"]
    assert upload == {
        "required": True,
        "content": {"image/png": {}, "image/jpeg": {}},
    }
    messages = paths["/messages"]["post"]["responses"]
    assert set(messages) >= {"201", "406", "415", "431", "422"}
    assert "200" not in messages
    assert messages["415"]["headers"]["Accept"]["schema"]["example"] == (
        "application/json"
    )
    pages = paths["/pages"]["get"]["responses"]
    # No application/json: FastAPI's default response class is not documented.
    assert list(pages["200"]["content"]) == ["text/html; charset=utf-8", "text/csv"]
    assert pages["404"]["description"] == "No such page"


def test_fastapi_openapi_responses_are_each_a_copy_of_their_own() -> None:
    # A program that edits one route's document (an example, a required
    # member) changes neither another route's nor PROBLEM_SCHEMA.
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import (
        PROBLEM_SCHEMA,
        NegotiatedRoute,
        negotiated,
        openapi_responses,
    )

    kept = json.loads(json.dumps(PROBLEM_SCHEMA))  # as it was, apart
    edited = openapi_responses(GREETING, BODY_TYPES)
    for code in (406, 415, 431):
        schema = edited[code]["content"]["application/problem+json"]["schema"]
        schema["required"].append("instance")
        schema["properties"]["title"]["type"] = "integer"
    assert kept == PROBLEM_SCHEMA
    again = openapi_responses(GREETING, BODY_TYPES)
    for code in (406, 415, 431):
        assert again[code]["content"]["application/problem+json"]["schema"] == kept
    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get("/hello")
    @negotiated(GREETING)
    def hello() -> dict[str, str]:
        return {}

    documented = app.openapi()["paths"]["/hello"]["get"]["responses"]["406"]
    assert documented["content"]["application/problem+json"]["schema"] == kept


def test_fastapi_openapi_responses_follow_the_options() -> None:
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import openapi_responses

    with_default = Renderers({"text/csv": str}, default="text/csv", max_length=None)
    assert list(openapi_responses(with_default)) == [200]
    # No limit on either header: no 431 to document.
    unlimited = Consumes(["text/csv"], max_length=None)
    assert list(openapi_responses(with_default, unlimited)) == [200, 415]
    everything = openapi_responses(GREETING, BODY_TYPES, 201)
    assert list(everything) == [201, 406, 415, 431]
    assert list(everything[415]["headers"]) == ["Accept"]
    # The header each method's 415 adds (docs/web.md, "Accept-Post and
    # Accept-Query"), the value in its own syntax.
    taken = Consumes(["application/json", "text/csv;charset=utf-8"])
    headers = openapi_responses(GREETING, taken, 200, {"QUERY", "POST", "GET"})[415][
        "headers"
    ]
    examples = {name: header["schema"]["example"] for name, header in headers.items()}
    assert examples == {
        "Accept": taken.accept,
        "Accept-Post": taken.accept,
        "Accept-Query": "application/json, text/csv;charset=utf-8",  # sf-tokens
    }
    assert taken.accept_query == examples["Accept-Query"]
    unsayable = Consumes(["text/csv;x!=1"])  # "x!" is no RFC 9651 key
    headers = openapi_responses(GREETING, unsayable, 200, ["QUERY", "PATCH"])[415][
        "headers"
    ]
    assert list(headers) == ["Accept", "Accept-Patch"]
    # Accept-Patch lists no range (RFC 5789 §3.1): none here, none documented.
    ranges = Consumes(["image/*"])
    headers = openapi_responses(GREETING, ranges, 200, ["PATCH", "POST"])[415][
        "headers"
    ]
    assert list(headers) == ["Accept", "Accept-Post"]
    with pytest.raises(TypeError, match=r"not a str: use \['PATCH'\]"):
        openapi_responses(GREETING, ranges, 200, "PATCH")
    # Its arguments are checked as negotiated checks them.
    mistakes: list[tuple[Any, ...]] = [
        ({"a/b": str},),
        (GREETING, ["a/b"]),
        (GREETING, None, "201"),
        (GREETING, None, 200, [b"POST"]),
    ]
    for mistake in mistakes:
        with pytest.raises(TypeError, match="must be a"):
            openapi_responses(*mistake)
    with pytest.raises(ValueError, match="not 100"):
        openapi_responses(GREETING, None, 100)


def test_openapi_responses_document_what_the_route_can_send() -> None:
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import openapi_responses

    def types(responses: Any, code: int) -> list[str]:
        return list(responses[code].get("content", {}))

    # A qs=0 offer is never chosen (rule 15) but by its format name.
    hidden: dict[Any, Any] = {"application/json": json.dumps, ("text/csv", 0): str}
    assert types(openapi_responses(Renderers(hidden)), 200) == ["application/json"]
    named = Renderers(hidden, formats=True)
    assert types(openapi_responses(named), 200) == ["application/json", "text/csv"]
    # With a default, a 406 only to a format name not known.
    with_default = Renderers({"text/csv": str}, default="text/csv")
    assert 406 not in openapi_responses(with_default)
    formatted = Renderers({"text/csv": str}, default="text/csv", formats=True)
    assert types(openapi_responses(formatted), 406) == [
        "application/problem+json",
        "text/plain",
    ]
    # An over-long Accept is answered in plain text; a Content-Type's 431
    # takes the format Accept prefers.
    assert types(openapi_responses(with_default), 431) == ["text/plain"]
    taken = Consumes(["text/csv"])
    assert len(types(openapi_responses(with_default, taken), 431)) == 2
    # Its description names the fields that can be too long.
    for consumes, fields in [(None, "Accept"), (taken, "Accept or Content-Type")]:
        described = openapi_responses(with_default, consumes)[431]["description"]
        assert described.endswith(f": {fields} too long.")
    unlimited = Consumes(["text/csv"], max_length=None)
    unbounded = Renderers({"text/csv": str}, max_length=None)
    assert 431 not in openapi_responses(unbounded, unlimited)
    described = openapi_responses(unbounded, taken)[431]["description"]
    assert described.endswith(": Content-Type too long.")
    # A status without content documents none.
    assert openapi_responses(GREETING, None, 204)[204] == {}
    # Format names no parameter reads (format_param=None) choose nothing.
    unread = Renderers(hidden, default="application/json", formats=True)
    assert types(openapi_responses(unread), 200) == ["application/json", "text/csv"]
    assert 406 in openapi_responses(unread)
    not_read = openapi_responses(unread, format_param=None)
    assert types(not_read, 200) == ["application/json"] and 406 not in not_read
    with pytest.raises(ValueError, match="invalid format_param 'a b'"):
        openapi_responses(unread, format_param="a b")


def test_openapi_406_description_names_each_cause_the_route_has() -> None:
    from fastaccept import Offer
    from fastaccept._endpoint import openapi_responses

    accept = "the Accept header allows none of the media types this resource has"
    absent = (
        "the request has no Accept header, and the media types available are "
        "sent only to a request that names them"
    )
    unknown = "the format the request names is none of this resource's formats"
    explicit = Offer("text/csv", explicit=True)
    for renderers, causes in [
        (Renderers({"text/csv": str}), [accept]),
        # Each offer explicit: an absent Accept is refused too (rule 21).
        (Renderers({explicit: str}), [accept, absent]),
        (Renderers({explicit: str, "text/plain": str}), [accept]),
        (Renderers({explicit: str, ("text/plain", 0): str}), [accept, absent]),
        (Renderers({"text/csv": str}, formats=True), [accept, unknown]),
        (Renderers({explicit: str}, default="text/csv", formats=True), [unknown]),
    ]:
        described = openapi_responses(renderers)[406]["description"]
        assert described == f"Not Acceptable: {'; or '.join(causes)}."
        # In the words of the route's refusals: each cause is one's body.
        produces = renderers.produces
        refusals = (*produces._refusals, *produces._format_refusals)
        texts = [r.body.split(": ", 1)[1] for r in refusals if r.body[0] != "{"]
        texts += [json.loads(r.body)["detail"] for r in refusals if r.body[0] == "{"]
        assert {text.split(".")[0] for text in texts} == set(causes)


@pytest.mark.parametrize("framework", ["fastapi", "litestar"])
@pytest.mark.filterwarnings("ignore:.*declared using deprecated inferred style")
def test_openapi_lists_the_format_parameter_where_the_route_has_names(
    framework: str,
) -> None:
    """``?format=`` as a query parameter, its names as the enum; not where
    the handler takes a parameter of that name itself, nor without names."""
    pytest.importorskip(framework)
    pytest.importorskip("httpx")
    named = Renderers({"application/json": json.dumps, "text/csv": str}, formats=True)
    plain = Renderers({"application/json": json.dumps})
    # Names no parameter reads (format_param=None): the qs-0 csv is never sent.
    hidden: dict[Any, Any] = {"application/json": json.dumps, ("text/csv", 0): str}
    unread = Renderers(hidden, default="application/json", formats=True)

    async def data() -> dict[str, int]:
        return {"a": 1}

    async def own(format: str = "") -> dict[str, int]:
        return {"a": 1}

    handlers = {"/named": (named, data), "/own": (named, own), "/plain": (plain, data)}
    handlers["/unread"] = (unread, data)
    reads = {"/unread": None}
    if framework == "fastapi":
        from fastapi import FastAPI
        from fastapi.testclient import TestClient

        from fastaccept.fastapi import NegotiatedRoute
        from fastaccept.fastapi import negotiated as fastapi_negotiated

        app = FastAPI()
        app.router.route_class = NegotiatedRoute
        for path, (renderers, handler) in handlers.items():
            param = reads.get(path, "format")
            app.get(path)(fastapi_negotiated(renderers, format_param=param)(handler))
        document = TestClient(app).get("/openapi.json").json()
    else:
        from litestar import Litestar, get
        from litestar.testing import TestClient as LitestarClient

        from fastaccept.litestar import NegotiationPlugin
        from fastaccept.litestar import negotiated as litestar_negotiated

        routes = [
            get(path, name=path[1:])(
                litestar_negotiated(renderers, format_param=reads.get(path, "format"))(
                    handler
                )
            )
            for path, (renderers, handler) in handlers.items()
        ]
        with LitestarClient(Litestar(routes, plugins=[NegotiationPlugin()])) as c:
            document = c.get("/schema/openapi.json").json()

    def parameters(path: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = document["paths"][path]["get"].get(
            "parameters", []
        )
        return found

    (listed,) = parameters("/named")
    assert (listed["name"], listed["in"], listed["required"]) == (
        "format",
        "query",
        False,
    )
    assert listed["schema"] == {"type": "string", "enum": ["json", "csv"]}
    # What the enum cannot say: ?format=CSV and ?format= are no 400.
    assert "case is ignored" in listed["description"]
    assert "empty value names none" in listed["description"]
    (kept,) = parameters("/own")  # the handler's own, once
    assert kept["name"] == "format" and "enum" not in kept["schema"]
    assert parameters("/plain") == []
    assert parameters("/unread") == []
    responses = document["paths"]["/unread"]["get"]["responses"]
    assert list(responses["200"]["content"]) == ["application/json"]
    assert "406" not in responses


@dataclass
class ItemPatch:
    """A merge patch's body (RFC 7396), as a handler takes it: at module
    level, where string annotations find it."""

    name: str | None = None


@pytest.mark.parametrize("framework", ["fastapi", "litestar"])
# The newest Litestar warns of a bare ``data`` (as tests/negotiated_litestar_app.py has).
@pytest.mark.filterwarnings("ignore:.*Reserved kwarg 'data' declared without")
def test_openapi_request_body_lists_the_types_consumes_takes_with_the_schema(
    framework: str,
) -> None:
    """The body's schema under the type the route takes that the framework
    reads as JSON (RFC 7396's merge patch), never the framework's own
    ``application/json``, which the route refuses; a handler that reads the
    body itself gets every type consumes takes, the body required (415)."""
    pytest.importorskip(framework)
    pytest.importorskip("httpx")
    merge_patch = Consumes(["application/merge-patch+json"])
    both = Consumes(["application/json", "application/x-www-form-urlencoded"])

    if framework == "fastapi":
        from fastapi import FastAPI
        from fastapi.testclient import TestClient

        from fastaccept.fastapi import NegotiatedRoute, negotiated

        app = FastAPI()
        app.router.route_class = NegotiatedRoute

        @app.patch("/items")
        @negotiated(CREATED, consumes=merge_patch)
        def patch_item(data: ItemPatch) -> Any:
            return {"id": 1, "name": data.name}

        @app.post("/messages")
        @negotiated(CREATED, consumes=both)
        def post_message() -> Any:
            return {"id": 1}

        client: Any = TestClient(app)
        document = client.get("/openapi.json").json()
    else:
        from litestar import Litestar, patch, post
        from litestar.testing import TestClient as LitestarClient

        from fastaccept.litestar import NegotiationPlugin
        from fastaccept.litestar import negotiated as litestar_negotiated

        @patch("/items")
        @litestar_negotiated(CREATED, consumes=merge_patch)
        async def litestar_patch(data: ItemPatch) -> Any:
            return {"id": 1, "name": data.name}

        @post("/messages")
        @litestar_negotiated(CREATED, consumes=both)
        async def litestar_post() -> Any:
            return {"id": 1}

        lite = Litestar([litestar_patch, litestar_post], plugins=[NegotiationPlugin()])
        client = LitestarClient(lite).__enter__()
        document = client.get("/schema/openapi.json").json()
    try:
        paths = document["paths"]
        body = paths["/items"]["patch"]["requestBody"]
        assert body["required"] is True
        (listed,) = body["content"].items()
        assert listed[0] == "application/merge-patch+json"
        assert listed[1]["schema"]["$ref"].endswith("/ItemPatch")
        sent = b'{"name": "pen"}'
        for content_type, status in (
            ("application/merge-patch+json", 200),
            ("application/json", 415),
        ):
            reply = client.patch(
                "/items", content=sent, headers={"Content-Type": content_type}
            )
            assert reply.status_code == status, content_type
        taken = paths["/messages"]["post"]["requestBody"]
        assert taken == {
            "required": True,
            "content": {t: {} for t in both.media_types},
        }
    finally:
        if framework == "litestar":
            client.__exit__(None, None, None)


def test_fastapi_request_body_schema_goes_where_consumes_takes_it() -> None:
    """Under FastAPI's own type where consumes takes it; else under the first
    JSON type it takes, a suffix range included; on a route of an included
    router too (FastAPI 0.137+ documents each inclusion by a body field of
    its own); and a Body() default another route shares is not changed."""
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import APIRouter, Body, FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    shared: Any = Body()  # one FieldInfo, the default of two handlers
    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    router = APIRouter(route_class=NegotiatedRoute)
    takes = {
        "/own": ["application/json", "application/merge-patch+json"],
        "/suffix": ["application/*+json"],
    }
    for path, taken_types in takes.items():
        negotiation = negotiated(CREATED, consumes=Consumes(taken_types))

        @app.post(path)
        @negotiation
        def taken(data: ItemPatch) -> Any:
            return {}

    @router.patch("/items")
    @negotiated(CREATED, consumes=Consumes(["application/merge-patch+json"]))
    def included(data: ItemPatch = shared) -> Any:
        return {}

    @app.patch("/plain")
    def plain(data: ItemPatch = shared) -> Any:
        return {}

    app.include_router(router, prefix="/v1")
    paths = app.openapi()["paths"]

    def body(path: str, method: str) -> dict[str, Any]:
        content: dict[str, Any] = paths[path][method]["requestBody"]["content"]
        return {t: "schema" in media for t, media in content.items()}

    assert body("/own", "post") == {
        "application/json": True,
        "application/merge-patch+json": False,
    }
    assert body("/suffix", "post") == {"application/*+json": True}
    assert body("/v1/items", "patch") == {"application/merge-patch+json": True}
    assert body("/plain", "patch") == {"application/json": True}


def test_openapi_documents_a_text_types_body_as_a_string() -> None:
    """What a generated client reads a body by: a string under each text
    type offered (whatever renders it), no schema under another, which
    the renderer alone knows; the route's own schemas over them."""
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import openapi_responses

    renderers = Renderers(
        {
            "application/json": json.dumps,
            "text/html; charset=utf-8": str,
            "text/csv": str,
            "application/vnd.acme+json;version=2": json.dumps,
        }
    )
    content = openapi_responses(renderers)[200]["content"]
    text = {"schema": {"type": "string"}}
    assert content == {
        "application/json": {},
        "text/html; charset=utf-8": text,
        "text/csv": text,
        "application/vnd.acme+json;version=2": {},
    }
    content["text/csv"]["schema"]["format"] = "csv"  # a copy of its own
    assert openapi_responses(renderers)[200]["content"]["text/csv"] == text


def test_openapi_415_says_which_method_each_of_its_fields_is_sent_to() -> None:
    """One route of two methods documents one 415 for both operations: its
    Accept-Post and Accept-Patch each say the method that gets it."""
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import openapi_responses

    fields = openapi_responses(CREATED, BODY_TYPES, 201, ["PATCH", "POST"])[415]
    described = {name: h["description"] for name, h in fields["headers"].items()}
    assert described == {
        "Accept": "The media types this resource takes.",
        "Accept-Patch": "The media types this resource takes, sent in a 415 to PATCH.",
        "Accept-Post": "The media types this resource takes, sent in a 415 to POST.",
    }


def test_fastapi_openapi_lists_the_format_parameter_once() -> None:
    """Not where a dependency takes a query parameter of that name (a model
    of them too), nor where ``openapi_extra`` lists one, nor twice through an
    included router."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi import APIRouter, Depends, FastAPI, Query
    from fastapi.dependencies import utils
    from fastapi.testclient import TestClient
    from pydantic import BaseModel

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    named = Renderers({"application/json": json.dumps, "text/csv": str}, formats=True)

    def paged(format: str = "") -> None:
        return None

    async def data() -> dict[str, int]:
        return {"a": 1}

    class Filters(BaseModel):  # query parameters as a model (FastAPI 0.115+)
        format: str = ""

    async def filtered(filters: Any) -> dict[str, int]:
        return {"a": 1}

    filtered.__annotations__["filters"] = Annotated[Filters, Query()]

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    router = APIRouter(route_class=NegotiatedRoute)
    router.get("/included")(negotiated(named)(data))
    app.get("/dependency", dependencies=[Depends(paged)])(negotiated(named)(data))
    listed = {"parameters": [{"name": "format", "in": "query"}]}
    app.get("/extra", openapi_extra=listed)(negotiated(named)(data))
    models = hasattr(utils, "_get_flat_fields_from_params")
    if models:  # FastAPI 0.115+ (0.110, the least the tests take, has none)
        app.get("/model")(negotiated(named)(filtered))
    app.include_router(router)
    paths = TestClient(app).get("/openapi.json").json()["paths"]
    for path in ("/included", "/dependency", "/extra", "/model")[: 3 + models]:
        names = [p["name"] for p in paths[path]["get"]["parameters"]]
        assert names == ["format"], path


def test_fastapi_openapi_lists_no_type_a_response_class_would_add() -> None:
    """An app's or a router's ``default_response_class`` documents its media
    type on a negotiated route only where the route offers it (it listed
    ``text/html`` for a route that answers it with a 406)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi import APIRouter, FastAPI
    from fastapi.responses import HTMLResponse, PlainTextResponse
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    csv = Renderers({"text/csv": str})
    data = Renderers({"application/json": json.dumps, "text/csv": str})

    async def handler() -> dict[str, int]:
        return {"a": 1}

    app = FastAPI(default_response_class=HTMLResponse)
    app.router.route_class = NegotiatedRoute
    app.get("/csv")(negotiated(csv)(handler))
    router = APIRouter(route_class=NegotiatedRoute)
    router.get("/included")(negotiated(data)(handler))
    app.include_router(router, default_response_class=PlainTextResponse)
    client = TestClient(app)
    paths = client.get("/openapi.json").json()["paths"]
    content = {p: list(paths[p]["get"]["responses"]["200"]["content"]) for p in paths}
    assert content == {
        "/csv": ["text/csv"],
        "/included": ["application/json", "text/csv"],
    }
    assert client.get("/csv", headers={"Accept": "text/html"}).status_code == 406


def test_fastapi_openapi_keeps_the_routes_own_entries_and_reads_its_methods() -> None:
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    own: dict[int | str, dict[str, Any]] = {
        200: {"description": "The greeting", "headers": {"X-Rate": {}}}
    }

    @app.get("/greeting", responses=own)
    @negotiated(GREETING)
    def greeting() -> Any:
        return {"greeting": "hi"}

    @app.api_route("/messages", methods=["post"])  # FastAPI serves it as POST
    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    def messages() -> Any:
        return {"id": 1}

    paths = TestClient(app).get("/openapi.json").json()["paths"]
    ok = paths["/greeting"]["get"]["responses"]["200"]
    assert (ok["description"], list(ok["headers"])) == ("The greeting", ["X-Rate"])
    assert list(ok["content"]) == ["application/json", "text/html; charset=utf-8"]
    refused = paths["/messages"]["post"]["responses"]["415"]
    assert list(refused["headers"]) == ["Accept", "Accept-Post"]


@pytest.mark.filterwarnings("ignore:.*not NegotiatedRoute:RuntimeWarning")
def test_fastapi_negotiated_without_the_route_class() -> None:
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import negotiated

    app = FastAPI()

    @app.get("/greeting")
    @negotiated(GREETING)
    def greeting() -> Any:
        return {"greeting": "hi"}

    client = TestClient(app)
    r = client.get("/greeting", headers={"Accept": "text/html"})
    assert (r.status_code, r.text) == (200, "<p>hi</p>")
    assert client.get("/greeting", headers={"Accept": "image/png"}).status_code == 406


@pytest.mark.filterwarnings("ignore:.*not NegotiatedRoute:RuntimeWarning")
@pytest.mark.parametrize("routed", [True, False])
def test_fastapi_takes_the_checks_once(routed: bool) -> None:
    # With NegotiatedRoute the route takes them before FastAPI reads the body,
    # and the handler's wrapper takes none; without it, the wrapper takes them.
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    checks: list[str] = []

    class Counted(Consumes):
        __slots__ = ()

        def check(self, *args: Any, **kwargs: Any) -> Any:
            checks.append("checked")
            return super().check(*args, **kwargs)

    app = FastAPI()
    if routed:
        app.router.route_class = NegotiatedRoute

    @app.post("/messages")
    @negotiated(CREATED, consumes=Counted(["application/json"]), status=201)
    def messages(body: dict[str, int]) -> Any:
        return body

    client = TestClient(app)
    headers = {"Content-Type": "application/json"}
    r = client.post("/messages", content=b'{"a": 1}', headers=headers)
    assert (r.status_code, r.json(), checks) == (201, {"a": 1}, ["checked"])


# Flask ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def flask_client() -> Any:
    pytest.importorskip("flask")
    import flask

    from fastaccept.flask import PRODUCED, consumed, negotiated, produced

    app = flask.Flask(__name__)

    @app.get("/greeting/<name>")
    @negotiated(GREETING)
    def greeting(name: str) -> Any:
        if name == "old":
            return flask.redirect("/greeting/new")
        return {"greeting": name}

    @app.post("/messages")
    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    async def messages() -> Any:  # Flask runs async views too
        decision, chosen = consumed(), produced()  # typed
        assert decision is flask.request.environ[CONSUMED], decision
        assert chosen is flask.request.environ[PRODUCED], chosen
        media_type = decision.media_type
        return Answer({"type": media_type}, headers={"Location": "/messages/1"})

    @app.after_request
    def add_origin(response: Any) -> Any:
        response.vary.add("Origin")
        return response

    return app.test_client()


def test_flask_views(flask_client: Any) -> None:
    r = flask_client.get("/greeting/bob", headers={"Accept": "text/html"})
    assert (r.status_code, r.text) == (200, "<p>bob</p>")
    assert vary_tokens(r.headers["Vary"]) == ["accept", "origin"]
    head = flask_client.head("/greeting/bob")
    assert (head.status_code, head.data) == (200, b"")
    assert head.headers["Content-Length"] == str(len(b'{"greeting": "bob"}'))
    r = flask_client.get("/greeting/old")
    assert r.status_code == 302
    assert vary_tokens(r.headers["Vary"]) == ["accept", "origin"]


def test_flask_async_views(flask_client: Any) -> None:
    pytest.importorskip("asgiref", reason="Flask runs async views with flask[async]")
    r = flask_client.post(
        "/messages", data=b"{}", headers={"Content-Type": "application/json"}
    )
    assert (r.status_code, r.json) == (201, {"type": "application/json"})
    assert r.headers["Location"] == "/messages/1"


def test_flask_reads_a_views_tuple_as_flask_does() -> None:
    """A negotiated view's tuple is Flask's (data, status, headers), (data,
    status) or (data, headers), a named tuple too: the data rendered in the
    type chosen, the status and headers sent with it (a refusal, made before
    the view runs, takes none); another length, or a response or an Answer
    inside, is a TypeError."""
    pytest.importorskip("flask")
    from typing import NamedTuple

    import flask
    from werkzeug.datastructures import Headers

    class Made(NamedTuple):
        data: dict[str, int]
        status: int

    from fastaccept.flask import negotiated

    app = flask.Flask(__name__)
    app.testing = True  # a view's error raised in the test, not a 500
    returns: dict[str, Any] = {
        "created": ({"id": 1}, 201),
        "located": ({"id": 1}, {"Location": "/items/1"}),
        "pairs": ({"id": 1}, [("Location", "/items/1")]),
        "werkzeug": ({"id": 1}, Headers([("Location", "/items/1")])),
        "all": ({"id": 1}, 201, {"Location": "/items/1"}),
        "none": ({"id": 1}, None, None),
        "named": Made({"id": 1}, 201),
        "answer": (Answer({"id": 1}, 202), 201),
        "one": ({"id": 1},),
        "response": (flask.Response("x"), 201),
        "text-status": ({"id": 1}, "201 CREATED"),
    }

    @app.get("/<name>")
    @negotiated(CREATED)
    def view(name: str) -> Any:
        return returns[name]

    client = app.test_client()
    expected = {
        "created": (201, None),
        "located": (200, "/items/1"),
        "pairs": (200, "/items/1"),
        "werkzeug": (200, "/items/1"),
        "all": (201, "/items/1"),
        "none": (200, None),
        "named": (201, None),
    }
    for name, (status, location) in expected.items():
        r = client.get(f"/{name}", headers={"Accept": "application/json"})
        assert (r.status_code, r.json) == (status, {"id": 1}), name
        assert r.headers.get("Location") == location, name
        assert r.headers["Content-Type"] == "application/json", name
    refused = client.get("/all", headers={"Accept": "text/html"})
    assert (refused.status_code, refused.headers.get("Location")) == (406, None)
    with pytest.raises(TypeError, match="returned a 1-tuple: Flask's are"):
        client.get("/one")
    for name, kind in (("response", "Response"), ("answer", "Answer")):
        with pytest.raises(TypeError, match=f"returned a {kind} in a tuple"):
            client.get(f"/{name}")
    with pytest.raises(TypeError, match="status must be an int, not str"):
        client.get("/text-status")


def test_a_refused_flask_tuple_closes_the_coroutine_in_it() -> None:
    # `return fetch(), "201 CREATED"`, the await forgotten: the TypeError
    # alone, without Python's "coroutine ... was never awaited" beside it.
    pytest.importorskip("flask")
    import gc
    import warnings

    import flask

    from fastaccept.flask import negotiated

    async def fetch() -> dict[str, int]:
        return {"id": 1}

    app = flask.Flask(__name__)
    app.testing = True

    @app.get("/<int:length>")
    @negotiated(CREATED)
    def view(length: int) -> Any:
        return (fetch(), "201 CREATED", {}, None)[:length]

    client = app.test_client()
    for length in (2, 4):  # a str status; a 4-tuple
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(TypeError):
                client.get(f"/{length}")
            gc.collect()
        assert not [w for w in caught if "never awaited" in str(w.message)]


# Django ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def django_views() -> Any:
    pytest.importorskip("django")
    load_example("frameworks/django_app.py")  # configures the settings once
    import django
    from django.http import HttpRequest, HttpResponseRedirect

    from fastaccept.django import PRODUCED, consumed, negotiated, produced

    django.setup()

    @negotiated(GREETING, vary="Cookie")
    def greeting(request: HttpRequest, name: str) -> Any:
        if name == "old":
            return HttpResponseRedirect("/greeting/new", headers={"Vary": "Origin"})
        return {"greeting": name}

    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    async def messages(request: HttpRequest) -> Any:
        decision, chosen = consumed(request), produced(request)  # typed
        assert decision is request.META[CONSUMED], decision
        assert chosen is request.META[PRODUCED], chosen
        return {"type": decision.media_type}

    return greeting, messages


def test_django_views(django_views: Any) -> None:
    from django.test import RequestFactory

    greeting, messages = django_views
    factory = RequestFactory()
    r = greeting(factory.get("/greeting/bob", HTTP_ACCEPT="text/html"), name="bob")
    assert (r.status_code, r.content) == (200, b"<p>bob</p>")
    assert r.headers["Vary"] == "Cookie, Accept"
    r = greeting(factory.head("/greeting/bob"), name="bob")
    assert (r.status_code, r.content) == (200, b"")
    assert r.headers["Content-Length"] == str(len(b'{"greeting": "bob"}'))
    r = greeting(factory.get("/greeting/old"), name="old")
    assert r.status_code == 302
    assert vary_tokens(r.headers["Vary"]) == ["origin", "cookie", "accept"]
    post = factory.post("/messages", b"{}", content_type="application/json")
    r = asyncio.run(messages(post))
    assert (r.status_code, json.loads(r.content)) == (201, {"type": "application/json"})
    post = factory.post("/messages", b"x", content_type="text/plain")
    r = asyncio.run(messages(post))
    assert r.status_code == 415


def test_django_a_class_based_views_method_takes_method_decorator(
    django_views: Any,
) -> None:
    """Django calls the method with the view first: decorated as such, it is
    refused when the class is made (not a 500 on every request)."""
    from django.test import RequestFactory
    from django.utils.decorators import method_decorator
    from django.views import View

    from fastaccept.django import negotiated

    with pytest.raises(TypeError, match=r"Items\.get is a method: .*method_decorator"):

        class Items(View):  # type: ignore[misc]  # Django has no types here
            @negotiated(GREETING)
            def get(self, request: Any) -> dict[str, str]:
                return {"greeting": "hi"}

    class Decorated(View):  # type: ignore[misc]
        @method_decorator(negotiated(GREETING))  # type: ignore[untyped-decorator]
        def get(self, request: Any) -> dict[str, str]:
            return {"greeting": "hi"}

    r = Decorated.as_view()(RequestFactory().get("/", HTTP_ACCEPT="text/html"))
    assert (r.status_code, r.content, r.headers["Vary"]) == (
        200,
        b"<p>hi</p>",
        "Accept",
    )


def test_django_under_asgi_joins_accept_lines_into_one_value(
    django_views: Any,
) -> None:
    """Django's ``ASGIRequest`` joins the field lines of one header with
    ``,`` (docs/web.md, "Django"): the decorator reads one value, one list
    (RFC 9110 §5.3), its members from both lines."""
    import io

    from django.core.handlers.asgi import ASGIRequest

    from fastaccept.django import negotiated

    seen: list[str] = []

    @negotiated(GREETING)
    def greeting(request: Any) -> dict[str, str]:
        seen.append(request.META["HTTP_ACCEPT"])
        return {"greeting": "hi"}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "query_string": b"",
        "headers": [(b"accept", b"image/png"), (b"accept", b"text/html;q=0.5")],
    }
    response = greeting(ASGIRequest(scope, io.BytesIO()))
    assert seen == ["image/png,text/html;q=0.5"]
    assert response["Content-Type"] == "text/html; charset=utf-8"


def test_django_a_method_hidden_by_a_decorator_is_a_clear_type_error(
    django_views: Any,
) -> None:
    """A wrapper of ``*args`` under ``negotiated`` hides the method's
    ``self``, as does another name for it: the view reaches the decorator as
    its first argument, which was an AttributeError (no ``META``)."""
    from django.test import RequestFactory
    from django.views import View

    from fastaccept.django import negotiated

    def logged(method: Any) -> Any:
        @functools.wraps(method)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return method(*args, **kwargs)

        return wrapper

    class Logged(View):  # type: ignore[misc]  # Django has no types here
        @negotiated(GREETING)
        @logged
        def get(self, request: Any) -> dict[str, str]:
            return {"greeting": "hi"}

    class Named(View):  # type: ignore[misc]
        @negotiated(GREETING)
        def get(view, request: Any) -> dict[str, str]:
            return {"greeting": "hi"}

    for view in (Logged, Named):
        as_view = view.as_view()
        with pytest.raises(
            TypeError,
            match=rf"takes the request first, not {view.__name__}: .*method_decorator",
        ):
            as_view(RequestFactory().get("/", HTTP_ACCEPT="text/html"))


def test_django_an_async_views_error_is_answered_outside_its_event_loop(
    django_views: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Django answers an async view's ``Http404`` from a thread (its handler
    views may use the database, which refuses to run in an event loop): so
    does the decorator."""
    from django.conf import settings
    from django.http import Http404, HttpResponseNotFound
    from django.test import RequestFactory

    from fastaccept.django import negotiated

    def handler404(request: Any, exception: Exception) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return HttpResponseNotFound("answered outside the event loop")
        return HttpResponseNotFound("answered in the event loop")

    urlconf = sys.modules[settings.ROOT_URLCONF]
    monkeypatch.setattr(urlconf, "handler404", handler404, raising=False)

    @negotiated(GREETING)
    async def missing(request: Any) -> Any:
        raise Http404("no such greeting")

    r = asyncio.run(missing(RequestFactory().get("/missing")))
    assert (r.status_code, r.content) == (404, b"answered outside the event loop")
    assert r.headers["Vary"] == "Accept"


def test_django_an_async_views_error_under_wsgi_is_answered_in_its_thread(
    django_views: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under WSGI, Django runs an async view through ``async_to_sync`` and
    answers its ``Http404`` in the request's own thread (its thread-locals,
    its database connection and transaction): so does the decorator."""
    import threading
    import types

    from django.http import Http404, HttpResponseNotFound
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import path

    from fastaccept.django import negotiated

    def handler404(request: Any, exception: Exception) -> Any:
        return HttpResponseNotFound(threading.current_thread().name)

    @negotiated(GREETING)
    async def missing(request: Any) -> Any:
        raise Http404("no such greeting")

    urls = types.ModuleType("fastaccept_test_async_404_urls")
    urls.urlpatterns = [path("missing", missing)]  # type: ignore[attr-defined]
    urls.handler404 = handler404  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, urls.__name__, urls)
    with override_settings(ROOT_URLCONF=urls.__name__):
        r = Client().get("/missing")
    assert (r.status_code, vary_tokens(r.headers["Vary"])[0]) == (404, "accept")
    assert r.content.decode() == threading.current_thread().name


def test_django_an_async_class_based_view_decorated_in_the_urlconf(
    django_views: Any,
) -> None:
    """``negotiated(R)(View.as_view())``, as Django's docs decorate a
    class-based view: ``as_view()`` of an async one is a function marked as a
    coroutine function, which Python before 3.12 does not see (asgiref's
    test does), awaited like one."""
    from django.test import RequestFactory
    from django.views import View

    from fastaccept.django import dispatch, negotiated

    class Greeting(View):  # type: ignore[misc]  # Django has no types here
        async def get(self, request: Any) -> dict[str, str]:
            return {"greeting": "hi"}

    view = negotiated(GREETING)(Greeting.as_view())
    r = asyncio.run(view(RequestFactory().get("/", HTTP_ACCEPT="text/html")))
    assert (r.status_code, r.content) == (200, b"<p>hi</p>")

    class Page(View):  # type: ignore[misc]
        async def get(self, request: Any) -> str:
            return "<p>hi</p>"

    async def json_page(request: Any) -> str:
        return "{}"

    # Handlers awaited alike: the marked view and a coroutine function.
    both = dispatch({"text/html": Page.as_view(), "application/json": json_page})
    for accept, body in (("text/html", b"<p>hi</p>"), ("application/json", b"{}")):
        r = asyncio.run(both(RequestFactory().get("/", HTTP_ACCEPT=accept)))
        assert (r.status_code, r.content) == (200, body)


# falcon ---------------------------------------------------------------------


def _falcon_resource(asynchronous: bool) -> Any:
    from fastaccept.falcon import PRODUCED, consumed, negotiated, produced

    if asynchronous:

        class AsyncGreeting:
            @negotiated(GREETING)
            async def on_get(self, req: Any, resp: Any, name: str) -> Any:
                return {"greeting": name}

            on_head = on_get

            @negotiated(CREATED, consumes=BODY_TYPES, status=201)
            async def on_post(self, req: Any, resp: Any, name: str) -> Any:
                decision, chosen = consumed(req), produced(req)
                assert decision is not None and chosen is not None
                return {"type": decision.media_type, "produced": chosen.media_type}

        return AsyncGreeting()

    class Greeting:
        @negotiated(GREETING)
        def on_get(self, req: Any, resp: Any, name: str) -> Any:
            return {"greeting": name}

        on_head = on_get

        @negotiated(CREATED, consumes=BODY_TYPES, status=201)
        def on_post(self, req: Any, resp: Any, name: str) -> Any:
            return {
                "type": req.context[CONSUMED].media_type,
                "produced": req.context[PRODUCED].media_type,
            }

    return Greeting()


class _VaryOrigin:
    """falcon middleware that sets Vary before the responder runs."""

    def process_request(self, req: Any, resp: Any) -> None:
        resp.set_header("Vary", "Origin")

    async def process_request_async(self, req: Any, resp: Any) -> None:
        self.process_request(req, resp)


def _falcon_asgi_loop(request: pytest.FixtureRequest) -> None:
    """A current event loop for the test: falcon's test client asks asyncio
    for it, and before 3.12 there is none once asyncio.run (earlier tests)
    has reset it."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    request.addfinalizer(loop.close)
    request.addfinalizer(lambda: asyncio.set_event_loop(None))


@pytest.mark.parametrize("asynchronous", [False, True], ids=["wsgi", "asgi"])
def test_falcon_responders(asynchronous: bool, request: pytest.FixtureRequest) -> None:
    pytest.importorskip("falcon")
    import falcon
    import falcon.asgi
    from falcon.testing import TestClient

    if asynchronous:
        _falcon_asgi_loop(request)
    kind = falcon.asgi.App if asynchronous else falcon.App
    app = kind(middleware=[_VaryOrigin()])
    app.add_route("/greeting/{name}", _falcon_resource(asynchronous))
    client = TestClient(app)
    r = client.simulate_get("/greeting/bob", headers={"Accept": "text/html"})
    assert (r.status_code, r.text) == (200, "<p>bob</p>")
    assert vary_tokens(r.headers["Vary"]) == ["origin", "accept"]
    head = client.simulate_head("/greeting/bob")
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["Content-Length"] == str(len(b'{"greeting": "bob"}'))
    r = client.simulate_get("/greeting/bob", headers={"Accept": PROBLEM_406})
    assert r.status_code == 406
    assert r.json["status"] == 406
    r = client.simulate_post(
        "/greeting/bob", body=b"{}", headers={"Content-Type": "application/json"}
    )
    both = {"type": "application/json", "produced": "application/json"}
    assert (r.status_code, r.json) == (201, both)
    r = client.simulate_post(
        "/greeting/bob", body=b"x", headers={"Content-Type": "text/plain"}
    )
    assert (r.status_code, r.headers["Accept"]) == (415, "application/json")


def test_falcon_a_raised_redirect_or_304_varies_on_accept() -> None:
    """falcon's ``HTTPStatus`` (a redirect, a 304) is no ``HTTPError``, which
    its serializer gives ``Vary: Accept``: the 304 must carry the 200's Vary
    (RFC 9110 §15.4.5), the middleware's kept (rule 17)."""
    pytest.importorskip("falcon")
    import falcon
    from falcon.testing import TestClient

    from fastaccept.falcon import negotiated

    class Item:
        @negotiated(GREETING)
        def on_get(self, req: Any, resp: Any) -> dict[str, str]:
            if req.get_header("If-None-Match") == '"v1"':
                raise falcon.HTTPStatus(falcon.HTTP_304, headers={"ETag": '"v1"'})
            if req.get_param("old"):
                raise falcon.HTTPFound("/item", headers={"Vary": "Cookie"})
            resp.set_header("ETag", '"v1"')
            return {"greeting": "hi"}

    app = falcon.App(middleware=[_VaryOrigin()])
    app.add_route("/item", Item())
    client = TestClient(app)
    ok = client.simulate_get("/item")
    unchanged = client.simulate_get("/item", headers={"If-None-Match": '"v1"'})
    moved = client.simulate_get("/item", params={"old": "1"})
    assert (ok.status_code, unchanged.status_code, moved.status_code) == (200, 304, 302)
    assert vary_tokens(unchanged.headers["Vary"]) == vary_tokens(ok.headers["Vary"])
    assert vary_tokens(ok.headers["Vary"]) == ["origin", "accept"]
    assert unchanged.headers["ETag"] == '"v1"'
    assert vary_tokens(moved.headers["Vary"]) == ["origin", "cookie", "accept"]
    assert moved.headers["Location"] == "/item"


@pytest.mark.parametrize("asynchronous", [False, True], ids=["wsgi", "asgi"])
def test_falcon_a_raised_error_keeps_the_endpoints_vary(
    asynchronous: bool, request: pytest.FixtureRequest
) -> None:
    """An ``HTTPError`` the responder raises gets the endpoint's ``vary``
    beside the middleware's, and ``Accept`` once (falcon's error serializer
    appends it), also where the error or middleware named it already: the
    200's ``Vary`` (docs/web.md; RFC 9110 §12.5.5)."""
    pytest.importorskip("falcon")
    import falcon
    import falcon.asgi
    from falcon.testing import TestClient

    from fastaccept.falcon import negotiated

    class Item:
        def answer(self, req: Any, resp: Any) -> dict[str, str]:
            if req.get_param("missing"):
                raise falcon.HTTPNotFound(headers={"Vary": "Cookie"})
            if req.get_param("gone"):
                raise falcon.HTTPGone()
            if req.get_param("named"):  # Accept named already, in any case
                raise falcon.HTTPForbidden(headers={"Vary": "accept, Cookie"})
            if req.get_param("set"):  # or set on the response before
                resp.append_header("Vary", "Accept")
                raise falcon.HTTPNotFound()
            return {"greeting": "hi"}

        if asynchronous:

            @negotiated(GREETING, vary="Accept-Language")
            async def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                return self.answer(req, resp)

        else:

            @negotiated(GREETING, vary="Accept-Language")
            def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                return self.answer(req, resp)

    if asynchronous:
        _falcon_asgi_loop(request)
    made = falcon.asgi.App if asynchronous else falcon.App
    app = made(middleware=[_VaryOrigin()])
    app.add_route("/item", Item())
    client = TestClient(app)
    ok = client.simulate_get("/item")
    missing = client.simulate_get("/item", params={"missing": "1"})
    gone = client.simulate_get("/item", params={"gone": "1"})
    assert (ok.status_code, missing.status_code, gone.status_code) == (200, 404, 410)
    assert vary_tokens(ok.headers["Vary"]) == ["origin", "accept-language", "accept"]
    assert vary_tokens(gone.headers["Vary"]) == vary_tokens(ok.headers["Vary"])
    assert vary_tokens(missing.headers["Vary"]) == [
        "origin",
        "cookie",
        "accept-language",
        "accept",
    ]
    named = client.simulate_get("/item", params={"named": "1"})
    assert vary_tokens(named.headers["Vary"]) == vary_tokens(missing.headers["Vary"])
    already = client.simulate_get("/item", params={"set": "1"})
    assert vary_tokens(already.headers["Vary"]) == vary_tokens(ok.headers["Vary"])


def test_falcon_an_empty_link_the_responder_set_adds_nothing() -> None:
    """RFC 9110 §5.6.1: the alternate of ``fastaccept.agents`` alone, not
    followed by ``", "`` (a value ending in a space, §5.5)."""
    pytest.importorskip("falcon")
    import falcon
    from falcon.testing import TestClient

    from fastaccept.agents import markdown_for_agents
    from fastaccept.falcon import negotiated

    page = markdown_for_agents(html=lambda p: f"<p>{p}</p>", markdown=lambda p: p)

    class Page:
        @negotiated(page)
        def on_get(self, req: Any, resp: Any) -> str:
            resp.set_header("Link", "")
            return "hi"

    app = falcon.App()
    app.add_route("/page", Page())
    html = TestClient(app).simulate_get("/page", headers={"Accept": "text/html"})
    assert html.headers["Link"] == '<>; rel="alternate"; type="text/markdown"'


@pytest.mark.parametrize("asynchronous", [False, True], ids=["wsgi", "asgi"])
def test_falcon_the_answer_replaces_what_the_responder_set(
    asynchronous: bool, request: pytest.FixtureRequest
) -> None:
    """falcon sends ``resp.text`` (and an ASGI ``resp.sse``) before
    ``resp.data``: the rendered answer clears them. A header the responder
    set stays, but one the answer sends too is the answer's, once (a
    ``Retry-After`` of ``5, 10`` is no delay at all, RFC 9110 §10.2.3);
    a list's values join, the answer's first (RFC 9110 §5.3): its ``Link``
    after the alternate of ``fastaccept.agents``, its ``Cache-Control``
    after the answer's (the responder's ``private`` was dropped). A HEAD's
    ``Content-Length`` is GET's body's alone (it was ``9, 3``: the servers
    refuse such a response, RFC 9110 §8.6)."""
    pytest.importorskip("falcon")
    import falcon
    import falcon.asgi
    from falcon.testing import TestClient

    from fastaccept import Answer
    from fastaccept.agents import markdown_for_agents
    from fastaccept.falcon import negotiated

    page = markdown_for_agents(html=lambda p: f"<p>{p}</p>", markdown=lambda p: p)

    def set_earlier(resp: Any) -> Answer:
        resp.text = "set earlier"
        resp.append_link("/next", "next")
        resp.set_header("X-Own", "kept")
        resp.set_header("Retry-After", "10")
        resp.set_header("Cache-Control", "private")
        resp.content_length = 3
        if asynchronous:
            resp.sse = iter(())
        return Answer("hi", headers={"Retry-After": "5", "Cache-Control": "max-age=60"})

    class Page:
        if asynchronous:

            @negotiated(page)
            async def on_get(self, req: Any, resp: Any) -> Answer:
                return set_earlier(resp)

        else:

            @negotiated(page)
            def on_get(self, req: Any, resp: Any) -> Answer:
                return set_earlier(resp)

        on_head = on_get

    if asynchronous:
        _falcon_asgi_loop(request)
    app = (falcon.asgi.App if asynchronous else falcon.App)()
    app.add_route("/page", Page())
    client = TestClient(app)
    html = client.simulate_get("/page", headers={"Accept": "text/html"})
    assert (html.status_code, html.content) == (200, b"<p>hi</p>")
    assert html.headers["Content-Length"] == "9"
    alternate = '<>; rel="alternate"; type="text/markdown"'
    assert html.headers["Link"] == f"{alternate}, </next>; rel=next"
    assert html.headers["X-Own"] == "kept"
    assert html.headers["Retry-After"] == "5"
    assert html.headers["Cache-Control"] == "max-age=60, private"  # a list
    markdown = client.simulate_get("/page", headers={"Accept": "text/markdown"})
    assert (markdown.content, markdown.headers["Link"]) == (b"hi", "</next>; rel=next")
    head = client.simulate_head("/page", headers={"Accept": "text/html"})
    assert (head.content, head.headers["Content-Length"]) == (b"", "9")


# Litestar -------------------------------------------------------------------

#: Litestar 2.25 deprecates parameters, dependencies and ``data`` declared by
#: their names alone, the style of every earlier 2.x, kept here to run on both.
BY_NAME = "ignore:.*(inferred|without a body marker):DeprecationWarning"


@pytest.fixture(scope="module")
def litestar_app() -> Any:
    pytest.importorskip("litestar")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", BY_NAME.split(":")[1], DeprecationWarning)
        from . import negotiated_litestar_app

        negotiated_litestar_app.app.openapi_schema  # noqa: B018 - made on use
    return negotiated_litestar_app


@pytest.fixture(scope="module")
def litestar_client(litestar_app: Any) -> Any:
    from litestar.testing import TestClient

    with TestClient(litestar_app.app) as client:
        yield client


def test_litestar_keeps_the_handlers_parameters(litestar_client: Any) -> None:
    r = litestar_client.get("/greeting/bob?loud=true", headers={"Accept": "*/*"})
    assert (r.status_code, r.json()) == (200, {"greeting": "HELLO bob"})
    assert r.headers["vary"] == "Cookie, Accept"
    r = litestar_client.get("/greeting/bob", headers={"Accept": "text/html"})
    assert (r.status_code, r.text) == (200, "<p>hello bob</p>")


def test_litestar_refuses_a_route_handler_where_a_function_goes() -> None:
    # negotiated above @get (docs/web.md: under it) wrapped the route handler,
    # which Litestar then refused only when the app was made, saying to
    # decorate it with a routing decorator.
    pytest.importorskip("litestar")
    from litestar import get

    from fastaccept.litestar import dispatch, negotiated

    routed = get("/", sync_to_thread=False)(lambda: {"greeting": "hi"})
    message = r"^a route handler \(Litestar's get\) where a handler function goes: "
    with pytest.raises(TypeError, match=message):
        negotiated(GREETING)(routed)
    with pytest.raises(TypeError, match=message):
        dispatch({"application/json": routed})


def test_litestar_passes_a_response_through_with_vary_merged(
    litestar_client: Any,
) -> None:
    r = litestar_client.get("/greeting/old", follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (302, "/greeting/new")
    assert vary_tokens(r.headers["vary"]) == ["cookie", "accept"]
    gone = litestar_client.get("/greeting/gone")  # NotFoundException, raised
    assert gone.status_code == 404
    assert vary_tokens(gone.headers["vary"]) == ["cookie", "accept"]


def test_litestar_checks_the_content_type_before_reading_the_body(
    litestar_app: Any, litestar_client: Any
) -> None:
    checks = litestar_app.CHECKS
    checks.clear()
    ok = litestar_client.post(
        "/messages", content=b'{"n": 1}', headers={"Content-Type": "application/json"}
    )
    assert (ok.status_code, ok.headers["location"]) == (201, "/messages/1")
    assert ok.json() == {
        "type": "application/json",
        "produced": "application/json",
        "n": 1,
    }
    assert checks == {"consumes": 1}  # by the plugin, once: not again in the wrapper
    # Not Litestar's 400 for the body: it is not read when its type is refused.
    assert_refused_before_the_body(litestar_client)
    # An accepted type with a body that does not validate is Litestar's 400.
    invalid = litestar_client.post(
        "/messages", content=b'{"n": "x"}', headers={"Content-Type": "application/json"}
    )
    assert (invalid.status_code, vary_tokens(invalid.headers["vary"])) == (
        400,
        ["accept"],
    )


def test_litestar_errors_before_the_handler_vary_on_accept(
    litestar_client: Any,
) -> None:
    bad_query = litestar_client.get("/greeting/bob?loud=maybe")
    assert bad_query.status_code == 400
    assert vary_tokens(bad_query.headers["vary"]) == ["cookie", "accept"]
    # Routes that are not negotiated are left as they are.
    assert "vary" not in litestar_client.get("/plain").headers
    assert "vary" not in litestar_client.get("/no-such-route").headers


@pytest.mark.parametrize("problems", [False, True])
def test_litestar_a_csrf_refusal_on_a_negotiated_route_varies_on_accept(
    problems: bool,
) -> None:
    """Litestar's CSRF check raises inside the plugin's route middleware,
    past the route's exception handling: Litestar answers it with the app's
    send, and the 403 still gets ``Accept`` in its ``Vary``."""
    pytest.importorskip("httpx")
    pytest.importorskip("litestar")
    from litestar import Litestar, post
    from litestar.config.csrf import CSRFConfig
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @post("/echo", response_headers={"Vary": "Cookie"})
    @negotiated(Renderers({"application/json": json.dumps}), problems=problems)
    async def echo() -> dict[str, str]:
        return {"echo": "hi"}

    app = Litestar(
        [echo], plugins=[NegotiationPlugin()], csrf_config=CSRFConfig(secret="s" * 32)
    )
    with TestClient(app) as client:
        refused = client.post("/echo")
    assert refused.status_code == 403
    assert vary_tokens(refused.headers["vary"]) == ["accept", "cookie"]


@dataclass
class User:
    """A user as Litestar's DTOs read it (at module level: Litestar
    resolves a handler's annotations in its module)."""

    name: str
    password: str


def test_litestar_a_negotiated_handler_takes_a_data_dto_but_no_return_dto() -> None:
    """Litestar would apply a return DTO to the response the negotiated
    handler makes (a 500 on every request): the app refuses to start; with
    ``return_dto=None`` the data DTO reads the body."""
    pytest.importorskip("httpx")
    pytest.importorskip("litestar")
    from litestar import Litestar, post
    from litestar.dto import DataclassDTO, DTOConfig
    from litestar.params import Body
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    class Public(DataclassDTO[User]):
        config = DTOConfig(exclude={"password"})

    def named(user: User) -> str:
        return json.dumps({"name": user.name})

    rendered = Renderers({"application/json": named})
    for dto, return_dto in ((DataclassDTO[User], Public), (DataclassDTO[User], ...)):
        layers: dict[str, Any] = {"dto": dto}
        if return_dto is not ...:
            layers["return_dto"] = return_dto

        # Body is local: Litestar before 2.22 finds it only if it is named.
        @post("/users", **layers, signature_namespace={"Body": Body})
        @negotiated(rendered, status=201)
        async def create(data: Annotated[User, Body()]) -> User:
            return data

        with pytest.raises(
            ValueError, match=r"'create' has the return DTO .*return_dto=None"
        ):
            Litestar([create], plugins=[NegotiationPlugin()])

    @post(
        "/users",
        dto=DataclassDTO[User],
        return_dto=None,
        signature_namespace={"Body": Body},
    )
    @negotiated(rendered, status=201)
    async def created(data: Annotated[User, Body()]) -> User:
        return data

    with TestClient(Litestar([created], plugins=[NegotiationPlugin()])) as client:
        r = client.post("/users", json={"name": "ada", "password": "s3cret"})
        assert (r.status_code, r.json()) == (201, {"name": "ada"})


def test_litestar_a_status_code_the_handler_does_not_answer_is_refused() -> None:
    """A route's own ``status_code`` that the negotiated handler does not
    answer stops the app, as FastAPI's ``NegotiatedRoute`` refuses it; the
    status Litestar gives a route of its methods by default is no claim."""
    pytest.importorskip("httpx")
    pytest.importorskip("litestar")
    from litestar import Litestar, delete, get, post
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/g", status_code=202)
    @negotiated(GREETING)
    async def accepted() -> dict[str, str]:
        return {"text": "hi"}

    with pytest.raises(
        ValueError,
        match=r"'accepted' has status_code=202, but answers 200: .*"
        r"negotiated\(\.\.\., status=202\)",
    ):
        Litestar([accepted], plugins=[NegotiationPlugin()])

    @post("/p")  # Litestar's 201 by default: the handler's 200 is sent
    @negotiated(GREETING)
    async def made() -> dict[str, str]:
        return {"text": "hi"}

    @delete("/d", status_code=200)
    @negotiated(GREETING)
    async def gone() -> dict[str, str]:
        return {"text": "hi"}

    @get("/s", status_code=202)
    @negotiated(GREETING, status=202)
    async def same() -> dict[str, str]:
        return {"text": "hi"}

    app = Litestar([made, gone, same], plugins=[NegotiationPlugin()])
    with TestClient(app) as client:
        sent = [client.post("/p"), client.delete("/d"), client.get("/s")]
        assert [r.status_code for r in sent] == [200, 200, 202]


def test_litestar_default_status_is_litestars() -> None:
    """``_default_status`` gives what Litestar's own rule gives (a private
    function of Litestar's, read here only) for every set of methods."""
    pytest.importorskip("litestar")
    from litestar.enums import HttpMethod

    from fastaccept.litestar import _default_status

    rule = pytest.importorskip("litestar.handlers.http_handlers._utils")
    methods = list(HttpMethod)
    for size in (1, 2, 3):
        for chosen in itertools.combinations(methods, size):
            given = set(chosen)
            assert _default_status(given) == rule.get_default_status_code(given)


def test_litestar_cache_and_response_headers_on_a_negotiated_route() -> None:
    """Litestar's response cache keys by method, path and query: the plugin
    adds the type chosen, so one Accept's answer is never another's; a
    ``Vary`` in ``response_headers`` (any layer) is merged, not replaced."""
    pytest.importorskip("litestar")
    from litestar import Controller, Litestar, get
    from litestar.datastructures import ResponseHeader
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    renderers = Renderers(
        {"application/json": json.dumps, "text/html": lambda data: "<p>x</p>"}
    )
    calls: list[str] = []

    @get("/cached", cache=True)
    @negotiated(renderers)
    async def cached() -> dict[str, int]:
        calls.append("cached")
        return {"a": 1}

    class Pages(Controller):
        path = "/pages"
        response_headers = (ResponseHeader(name="Vary", value="Origin"),)

        @get("/", response_headers=[ResponseHeader(name="X-Page", value="1")])
        @negotiated(renderers)
        async def page(self) -> dict[str, int]:
            return {"a": 1}

    app = Litestar([cached, Pages], plugins=[NegotiationPlugin()])
    with TestClient(app) as client:
        for accept, expected in [
            ("application/json", "application/json"),
            ("text/html", "text/html"),
            ("application/json", "application/json"),  # from the cache
            ("text/html;q=0.5, */*;q=0.1", "text/html"),  # another value, one choice
        ]:
            r = client.get("/cached", headers={"Accept": accept})
            assert r.headers["content-type"] == expected, accept
        assert len(calls) == 2  # one answer cached for each type chosen
        for accept, status in [("application/json", 200), ("image/png", 406)]:
            r = client.get("/pages", headers={"Accept": accept})
            assert r.status_code == status
            assert vary_tokens(", ".join(r.headers.get_list("vary"))) == [
                "accept",
                "origin",
            ]


def test_litestar_cache_keeps_a_compressed_answer_from_a_client_without_the_coding() -> (
    None
):
    """Litestar caches the answer its compression made, under a key without
    Accept-Encoding: the plugin's key has that field's value where the app
    compresses, so a client that sent none never gets the gzip body."""
    pytest.importorskip("litestar")
    from litestar import Litestar, get
    from litestar.config.compression import CompressionConfig
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    renderers = Renderers({"application/json": json.dumps})
    calls: list[str] = []

    @get("/big", cache=True)
    @negotiated(renderers)
    async def big() -> dict[str, str]:
        calls.append("big")
        return {"text": "x" * 2000}  # past the compression's minimum size

    app = Litestar(
        [big],
        plugins=[NegotiationPlugin()],
        compression_config=CompressionConfig(backend="gzip"),
    )
    with TestClient(app) as client:
        for coding, expected in [
            ("gzip", "gzip"),
            ("gzip", "gzip"),
            ("identity", None),
        ]:
            r = client.get("/big", headers={"Accept-Encoding": coding})
            assert r.headers.get("content-encoding") == expected, coding
            assert r.json() == {"text": "x" * 2000}
    assert len(calls) == 2  # one answer cached for each Accept-Encoding


def test_litestar_a_response_a_handler_returns_keeps_its_own_type(
    tmp_path: Path,
) -> None:
    """A ``Stream``, ``ServerSentEvent``, ``Redirect``, ``File`` or
    ``Template`` with no media type given takes its route's, and Litestar
    sends a stream in its route's over its own: a dispatch route has none
    (its wrapper answers a ``Response[Any]`` either way; its OpenAPI schema
    stays any JSON, ``{}``, with a signature namespace too), so each goes out
    as the same handler's does on a plain route: a stream in its own type (a
    304 with none), the redirect as text/plain, the file and the template by
    their names. A negotiated handler's stream keeps its own type too, though
    its route's is JSON (``-> Answer`` is handed to Litestar as ``Any``)."""
    pytest.importorskip("litestar")
    pytest.importorskip("jinja2")
    from collections.abc import Iterator

    from litestar import Litestar, Request, get
    from litestar.response import File, Redirect, ServerSentEvent, Stream, Template
    from litestar.template.config import TemplateConfig
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, dispatch, negotiated, produced

    try:
        from litestar.plugins.jinja import JinjaTemplateEngine
    except ImportError:  # its home in older Litestar (deprecated in 2.22)
        from litestar.contrib.jinja import JinjaTemplateEngine

    (tmp_path / "rows.csv").write_text("a,b\n")
    (tmp_path / "page.html").write_text("<p>{{ n }}</p>")

    def lines() -> Iterator[str]:
        yield from ("a\n", "b\n")

    async def events() -> ServerSentEvent:
        return ServerSentEvent(lines())

    async def csv() -> Stream:
        return Stream(lines(), media_type="text/csv")

    async def ndjson() -> Stream:
        return Stream(lines(), media_type="application/x-ndjson")

    async def unchanged() -> Stream:  # no content: no Content-Type either
        return Stream(iter(()), media_type="text/csv", status_code=304)

    async def moved() -> Redirect:
        return Redirect("/elsewhere")

    async def file() -> File:
        return File(tmp_path / "rows.csv", filename="rows.csv")

    async def page() -> Template:
        return Template("page.html", context={"n": 1})

    async def json_body() -> str:
        return "{}"

    @get("/live")
    @negotiated(Renderers({"application/json": json.dumps, "text/event-stream": str}))
    async def live(request: Request[Any, Any, Any]) -> Answer:
        chosen = produced(request)
        if chosen is not None and chosen.media_type == "text/event-stream":
            return await events()  # type: ignore[return-value]
        return Answer({"n": 1})

    plain = [events, csv, ndjson, unchanged, moved, file, page]
    routes = [get(f"/plain/{h.__name__}", name=h.__name__)(h) for h in plain] + [
        get("/events")(dispatch({"text/event-stream": events})),
        get("/rows")(dispatch({"text/csv": csv, "application/x-ndjson": ndjson})),
        get("/unchanged")(dispatch({"text/csv": unchanged})),
        get("/moved")(dispatch({"text/html": moved, "application/json": json_body})),
        get("/file")(dispatch({"text/csv": file, "application/json": json_body})),
        get("/page")(dispatch({"text/html": page, "application/json": json_body})),
        live,
    ]
    app = Litestar(
        routes,
        plugins=[NegotiationPlugin()],
        template_config=TemplateConfig(directory=tmp_path, engine=JinjaTemplateEngine),
        signature_namespace={
            t.__name__: t for t in (ServerSentEvent, Stream, Redirect, File, Template)
        },
    )
    with TestClient(app) as client:
        for path, accept, same_as, content_type in [
            ("/events", "text/event-stream", "events", "text/event-stream"),
            ("/rows", "text/csv", "csv", "text/csv"),
            ("/rows", "application/x-ndjson", "ndjson", "application/x-ndjson"),
            ("/unchanged", "text/csv", "unchanged", None),
            ("/moved", "text/html", "moved", "text/plain; charset=utf-8"),
            ("/file", "text/csv", "file", "text/csv; charset=utf-8"),
            ("/page", "text/html", "page", "text/html; charset=utf-8"),
            ("/live", "text/event-stream", "events", "text/event-stream"),
        ]:
            own = client.get(f"/plain/{same_as}", follow_redirects=False)
            r = client.get(path, headers={"Accept": accept}, follow_redirects=False)
            assert (r.status_code, r.text) == (own.status_code, own.text), path
            assert r.headers.get("content-type") == own.headers.get("content-type")
            assert r.headers.get("content-type", "").startswith(content_type or "")
            assert ("content-type" in r.headers) is (content_type is not None)
            assert r.headers["vary"] == "Accept"
        r = client.get("/file", headers={"Accept": "application/json"})
        assert (r.text, r.headers["content-type"]) == ("{}", "application/json")
        r = client.get("/live", headers={"Accept": "application/json"})
        assert (r.text, r.headers["content-type"]) == ('{"n": 1}', "application/json")
    paths = app.openapi_schema.to_schema()["paths"]
    content = paths["/file"]["get"]["responses"]["200"]["content"]
    assert content["application/json"] == {"schema": {}}  # any JSON


@pytest.mark.thread_unsafe(reason="counts Endpoint.check's calls")
def test_litestar_handlers_sharing_a_path_are_each_set_up_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Litestar makes a path's route anew when another handler joins it and
    hands the plugin every handler of it again: each is set up once (its
    checks ran twice a request, its format parameter was listed twice, and
    its inferred schema and description were lost)."""
    pytest.importorskip("litestar")
    from litestar import Litestar, get, post
    from litestar.params import Body
    from litestar.testing import TestClient

    from fastaccept._endpoint import Endpoint
    from fastaccept.litestar import NegotiationPlugin, negotiated

    named = Renderers({"application/json": json.dumps, "text/csv": str}, formats=True)

    @get("/items")
    @negotiated(named)
    async def items() -> list[int]:
        return [1]

    @post("/items", signature_namespace={"Body": Body})  # before 2.22: no local names
    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    async def add(data: Annotated[dict[str, int], Body()]) -> dict[str, int]:
        return data

    checks: list[object] = []
    check = Endpoint.check

    def counted(*args: Any) -> Any:
        checks.append(args)
        return check(*args)

    monkeypatch.setattr(Endpoint, "check", counted)
    app = Litestar([items, add], plugins=[NegotiationPlugin()])
    with TestClient(app) as client:
        assert client.get("/items").status_code == 200
        assert len(checks) == 1
        operation = client.get("/schema/openapi.json").json()["paths"]["/items"]["get"]
    names = [(p["name"], p["in"]) for p in operation["parameters"]]
    assert names == [("format", "query")]
    ok = operation["responses"]["200"]
    assert ok["description"]  # Litestar's, kept
    assert ok["content"]["application/json"]["schema"]["type"] == "array"


def test_litestar_a_documentation_only_vary_is_not_sent() -> None:
    """``ResponseHeader(documentation_only=True)`` is never set (Litestar):
    neither merged into a negotiated route's Vary nor read for its cache key;
    a Vary of ``*`` there with ``cache=`` is refused when the app is made."""
    pytest.importorskip("litestar")
    from litestar import Litestar, get
    from litestar.datastructures import ResponseHeader
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    documented = [ResponseHeader(name="Vary", value="X-Doc", documentation_only=True)]

    @get("/doc", response_headers=documented)
    @negotiated(GREETING)
    async def doc() -> dict[str, int]:
        return {"a": 1}

    with TestClient(Litestar([doc], plugins=[NegotiationPlugin()])) as client:
        assert client.get("/doc").headers["vary"] == "Accept"

    @get("/star", cache=True, response_headers=[ResponseHeader(name="Vary", value="*")])
    @negotiated(GREETING)
    async def star() -> dict[str, int]:
        return {"a": 1}

    with pytest.raises(ValueError, match="vary on '\\*'"):
        Litestar([star], plugins=[NegotiationPlugin()])


def test_litestar_cache_keys_by_every_field_the_answer_varies_on() -> None:
    """The endpoint's ``vary`` and its layers' ``Vary`` are in the key too
    (RFC 9111 §4.1): one language's answer is never another's; a route whose
    answers vary on ``*``, which no cache may reuse, refuses ``cache=``."""
    pytest.importorskip("litestar")
    from litestar import Controller, Litestar, Request, get
    from litestar.datastructures import ResponseHeader
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    renderers = Renderers({"application/json": json.dumps})

    def said(request: Request[Any, Any, Any]) -> dict[str, str | None]:
        headers = request.headers
        return {name: headers.get(name) for name in ("accept-language", "origin")}

    @get("/greeting", cache=True)
    @negotiated(renderers, vary="Accept-Language")
    async def greeting(request: Request[Any, Any, Any]) -> dict[str, str | None]:
        return said(request)

    class Pages(Controller):
        path = "/pages"
        response_headers = (ResponseHeader(name="Vary", value="Origin"),)

        @get("/", cache=True)
        @negotiated(renderers)
        async def page(self, request: Request[Any, Any, Any]) -> Any:
            return said(request)

    app = Litestar([greeting, Pages], plugins=[NegotiationPlugin()])
    with TestClient(app) as client:
        for path, name in [("/greeting", "accept-language"), ("/pages", "origin")]:
            for value in ["fr", "en", "fr", None]:
                headers = {} if value is None else {name: value}
                assert client.get(path, headers=headers).json()[name] == value

    @get("/any", cache=True)
    @negotiated(renderers, vary="*")
    async def anything() -> dict[str, int]:
        return {"a": 1}

    with pytest.raises(ValueError, match=r"vary on '\*'"):
        Litestar([anything], plugins=[NegotiationPlugin()])


def test_litestar_errors_as_problems(litestar_client: Any) -> None:
    raised = litestar_client.get("/users/ann", headers={"Accept": "application/json"})
    assert (raised.status_code, raised.headers["x-why"]) == (404, "gone")
    assert raised.headers["content-type"] == "application/problem+json"
    assert raised.json()["detail"] == "no user ann"
    # Litestar's 400 for a parameter, made before the handler: a problem too.
    as_json = {"Accept": "application/json"}
    invalid = litestar_client.get("/users/ann?page=x", headers=as_json)
    assert invalid.status_code == 400
    assert invalid.headers["content-type"] == "application/problem+json"
    assert invalid.json()["detail"].startswith("Validation failed for GET")
    assert vary_tokens(invalid.headers["vary"]) == ["accept"]
    as_text = {"Accept": "text/plain, application/json;q=0.5"}
    text = litestar_client.get("/users/ann?page=x", headers=as_text)
    assert text.text.startswith("400 Bad Request: Validation failed")


def test_litestar_answers_head_where_the_route_lists_it(litestar_client: Any) -> None:
    get = litestar_client.get("/greeting/bob")
    head = litestar_client.head("/greeting/bob")
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == get.headers["content-length"]
    assert litestar_client.head("/users/ann").status_code == 405  # GET alone


def test_litestar_openapi_lists_the_media_types_and_refusals(
    litestar_app: Any,
) -> None:
    paths = litestar_app.app.openapi_schema.to_schema()["paths"]
    greeting = paths["/greeting/{name}"]["get"]
    assert [p["name"] for p in greeting["parameters"]] == ["name", "loud"]
    responses = greeting["responses"]
    assert list(responses) == ["200", "400", "406", "431"]  # 400: Litestar's own
    assert list(responses["200"]["content"]) == [
        "application/json",
        "text/html; charset=utf-8",
    ]
    schema = responses["406"]["content"]["application/problem+json"]["schema"]
    assert schema["properties"]["status"] == {"type": "integer"}
    messages = paths["/messages"]["post"]
    assert set(messages["responses"]) == {"201", "400", "406", "415", "431"}
    assert "requestBody" in messages
    assert "Answer" not in json.dumps(paths)  # -> Answer: no schema of its own
    users = paths["/users/{name}"]["get"]["responses"]  # the route's own 406 kept
    assert users["406"] == {"description": "No such representation"}


def test_litestar_openapi_describes_the_status_the_endpoint_answers() -> None:
    # Litestar infers 201 for a POST and describes it; a negotiated POST that
    # answers 200 is described as 200, and one that answers 201 keeps
    # Litestar's description.
    pytest.importorskip("litestar")
    from litestar import Litestar, post
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @post("/ok")
    @negotiated(GREETING)
    async def ok() -> dict[str, str]:
        return {"greeting": "hi"}

    @post("/made")
    @negotiated(GREETING, status=201)
    async def made() -> dict[str, str]:
        return {"greeting": "hi"}

    @post("/own", response_description="The greeting, as made")
    @negotiated(GREETING)
    async def own() -> dict[str, str]:
        return {"greeting": "hi"}

    routes = [ok, made, own]
    with TestClient(Litestar(routes, plugins=[NegotiationPlugin()])) as client:
        paths = client.get("/schema/openapi.json").json()["paths"]
        assert client.post("/ok").status_code == 200
    assert paths["/ok"]["post"]["responses"]["200"]["description"] == "OK"
    described = paths["/own"]["post"]["responses"]["200"]["description"]
    assert described == "The greeting, as made"
    described = paths["/made"]["post"]["responses"]["201"]["description"]
    assert described == "Document created, URL follows"


@pytest.mark.filterwarnings("ignore:.*declared using deprecated inferred style")
def test_litestar_openapi_documents_its_400_as_a_problem_with_problems() -> None:
    """With ``problems=True`` Litestar's 400 for a parameter is a problem:
    documented as one, not as Litestar's own JSON, but where the route or
    the app answers it its own way (a handler of 400, or the one Litestar
    picks by the exception's classes: ``ClientException``'s); and so is
    each status of ``raises=`` (a 404 was documented as JSON it is never
    sent as), which the handler's exceptions are whatever the app's
    handlers."""
    pytest.importorskip("litestar")
    from litestar import Litestar, Response, get
    from litestar.exceptions import ClientException, NotFoundException
    from litestar.openapi.datastructures import ResponseSpec
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/pages", raises=[NotFoundException])
    @negotiated(GREETING, problems=True)
    async def pages(page: int = 1) -> dict[str, str]:
        return {"greeting": str(page)}

    @get("/own", responses={400: ResponseSpec(None, description="Ours")})
    @negotiated(GREETING, problems=True)
    async def own(page: int = 1) -> dict[str, str]:
        return {"greeting": str(page)}

    with TestClient(Litestar([pages, own], plugins=[NegotiationPlugin()])) as client:
        document = client.get("/schema/openapi.json").json()
        sent = client.get("/pages?page=x", headers={"Accept": "application/json"})

    def types_with(handlers: dict[Any, Any]) -> dict[str, list[str]]:
        """Each status's media types for /pages, the app handling as given."""
        app = Litestar(
            [pages], plugins=[NegotiationPlugin()], exception_handlers=handlers
        )
        with TestClient(app) as client:
            paths = client.get("/schema/openapi.json").json()["paths"]
        return {
            c: list(r["content"])
            for c, r in paths["/pages"]["get"]["responses"].items()
        }

    def mine(request: Any, error: Any) -> Any:
        return Response({"mine": True}, status_code=error.status_code)

    problem_types = ["application/problem+json", "text/plain"]
    answered = types_with({400: mine})  # the app answers its 400 itself
    assert (answered["400"], answered["404"]) == (["application/json"], problem_types)
    # The handler's 404 is a problem all the same: the route's wrapper answers it.
    assert types_with({404: mine})["404"] == problem_types
    # Litestar picks the app's ClientException handler for ValidationException.
    assert types_with({ClientException: mine})["400"] == ["application/json"]
    assert document["paths"]["/own"]["get"]["responses"]["400"]["description"] == "Ours"
    ours = document["paths"]["/own"]["get"]["responses"]["400"]
    assert "application/problem+json" not in (ours.get("content") or {})
    invalid = document["paths"]["/pages"]["get"]["responses"]["400"]["content"]
    assert list(invalid) == ["application/problem+json", "text/plain"]
    schema = invalid["application/problem+json"]["schema"]
    assert set(schema["properties"]) == {"type", "title", "status", "detail"}
    assert (sent.status_code, sent.headers["content-type"]) == (
        400,
        "application/problem+json",
    )


def test_litestar_openapi_routes_share_no_list_of_their_documents() -> None:
    # Each route's problem schemas are its own: editing one route's required
    # members (or one method's) changes no other's, nor PROBLEM_CONTENT.
    pytest.importorskip("litestar")
    from litestar import Litestar, get, route
    from litestar.exceptions import NotFoundException

    from fastaccept._endpoint import PROBLEM_CONTENT
    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/p", raises=[NotFoundException])
    @negotiated(GREETING, problems=True)
    async def p() -> dict[str, str]:
        return {}

    @get("/q", raises=[NotFoundException])
    @negotiated(GREETING, problems=True)
    async def q() -> dict[str, str]:
        return {}

    @route("/m", http_method=["GET", "PUT"])
    @negotiated(Renderers({"application/json": str}, formats=True), problems=True)
    async def m() -> dict[str, str]:
        return {}

    kept = json.loads(json.dumps(PROBLEM_CONTENT))
    paths = Litestar([p, q, m], plugins=[NegotiationPlugin()]).openapi_schema.paths
    assert paths is not None

    def required(path: str, method: str, status: str) -> Any:
        operation = getattr(paths[path], method)
        schema = operation.responses[status].content["application/problem+json"]
        return schema.schema.required

    def format_names(method: str) -> Any:
        (parameter,) = getattr(paths["/m"], method).parameters
        return parameter.schema.enum

    required("/p", "get", "404").append("instance")
    required("/m", "get", "406").append("instance")
    format_names("get").append("xml")
    assert required("/q", "get", "404") == ["type", "title", "status"]
    assert "instance" not in required("/m", "put", "406")
    assert format_names("put") == ["json"]
    assert kept == PROBLEM_CONTENT


def test_litestar_openapi_is_made_of_litestars_own_objects() -> None:
    """The responses and the format parameter the plugin documents are
    Litestar's spec objects, as its tools read them (its TypeScript export
    failed on the mappings they were: 'dict' object has no attribute
    'content')."""
    pytest.importorskip("litestar")
    from litestar import Litestar, get
    from litestar.exceptions import NotFoundException
    from litestar.openapi.spec import OpenAPIResponse, Parameter

    from fastaccept.litestar import NegotiationPlugin, negotiated

    named = Renderers({"application/json": json.dumps, "text/csv": str}, formats=True)

    @get("/items", raises=[NotFoundException])
    @negotiated(named, consumes=BODY_TYPES, problems=True)
    async def items() -> list[int]:
        return [1]

    app = Litestar([items], plugins=[NegotiationPlugin()])
    paths = app.openapi_schema.paths
    assert paths is not None
    operation = paths["/items"].get
    assert operation is not None and operation.responses and operation.parameters
    codes = {code: type(r) for code, r in operation.responses.items()}
    assert codes == dict.fromkeys(["200", "404", "406", "415", "431"], OpenAPIResponse)
    assert [type(p) for p in operation.parameters] == [Parameter]
    ok = operation.responses["200"]
    assert isinstance(ok, OpenAPIResponse) and ok.content is not None
    assert list(ok.content) == ["application/json", "text/csv"]


def test_litestar_openapi_keeps_the_handlers_response_headers() -> None:
    pytest.importorskip("litestar")
    from litestar import Litestar, get
    from litestar.datastructures import ResponseHeader

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/a", response_headers=[ResponseHeader(name="X-Rate", value="1")])
    @negotiated(GREETING)
    async def a() -> Any:
        return {"greeting": "hi"}

    app = Litestar([a], plugins=[NegotiationPlugin()])
    ok = app.openapi_schema.to_schema()["paths"]["/a"]["get"]["responses"]["200"]
    assert list(ok["headers"]) == ["X-Rate"]
    assert list(ok["content"]) == ["application/json", "text/html; charset=utf-8"]


@pytest.mark.filterwarnings(BY_NAME)
@pytest.mark.filterwarnings("ignore:.*without NegotiationPlugin:RuntimeWarning")
def test_litestar_without_the_plugin() -> None:
    pytest.importorskip("litestar")
    from litestar import Litestar, post, route
    from litestar.testing import TestClient

    from fastaccept.litestar import negotiated

    @route("/greeting", http_method=["GET", "HEAD"])
    @negotiated(GREETING)
    async def greeting() -> Any:
        return {"greeting": "hi"}

    @post("/messages")
    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    async def messages(data: dict[str, int]) -> Any:
        return data

    with TestClient(Litestar([greeting, messages])) as client:
        with pytest.warns(RuntimeWarning, match="without NegotiationPlugin"):
            r = client.get("/greeting", headers={"Accept": "text/html"})
        assert (r.status_code, r.text) == (200, "<p>hi</p>")
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # said once per route handler
            refused = client.get("/greeting", headers={"Accept": "image/png"})
        assert refused.status_code == 406
        headers = {"Content-Type": "application/json"}
        r = client.post("/messages", content=b'{"a": 1}', headers=headers)
        assert (r.status_code, r.json()) == (201, {"a": 1})
        r = client.post("/messages", content=b"a", headers={"Content-Type": "text/csv"})
        assert r.status_code == 400  # Litestar read the body first


@pytest.mark.filterwarnings(BY_NAME)
def test_litestar_an_apps_handler_for_a_status_still_answers_it() -> None:
    pytest.importorskip("litestar")
    from litestar import Litestar, MediaType, Request, Response, get
    from litestar.exceptions import HTTPException
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/pages", sync_to_thread=False)
    @negotiated(PAGES, problems=True)
    def pages(page: int = 1) -> str:
        return "a"

    def own(request: Request[Any, Any, Any], error: HTTPException) -> Response[str]:
        return Response("the app's 400", status_code=400, media_type=MediaType.TEXT)

    app = Litestar(
        [pages], plugins=[NegotiationPlugin()], exception_handlers={400: own}
    )
    with TestClient(app) as client:
        r = client.get("/pages?page=x", headers={"Accept": "text/csv"})
    assert (r.status_code, r.text) == (400, "the app's 400")
    assert vary_tokens(r.headers["vary"]) == ["accept"]


@pytest.mark.filterwarnings(BY_NAME)
def test_litestar_a_problem_made_before_the_handler_varies_on_accept() -> None:
    """The problem the plugin answers Litestar's 400 with is in the form
    Accept prefers: it varies on Accept, where a format name chose the
    route's type too."""
    pytest.importorskip("litestar")
    from litestar import Litestar, get
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    named = Renderers({"application/json": json.dumps}, formats=True)

    @get("/pages", sync_to_thread=False)
    @negotiated(named, vary="Cookie", problems=True)
    def pages(page: int = 1) -> dict[str, int]:
        return {"page": page}

    with TestClient(Litestar([pages], plugins=[NegotiationPlugin()])) as client:
        accept = {"Accept": "application/json"}
        r = client.get("/pages?page=x&format=json", headers=accept)
    assert (r.status_code, r.headers["content-type"]) == (
        400,
        "application/problem+json",
    )
    assert vary_tokens(r.headers["vary"]) == ["cookie", "accept"]


@pytest.mark.filterwarnings(BY_NAME)
def test_litestar_a_routes_own_httpexception_handler_is_kept() -> None:
    """With ``problems=True`` the plugin's handler of ``HTTPException`` is
    added under the route's own, which still answers."""
    pytest.importorskip("litestar")
    from litestar import Litestar, MediaType, Request, Response, get
    from litestar.exceptions import HTTPException
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    def own(request: Request[Any, Any, Any], error: HTTPException) -> Response[str]:
        return Response("the route's own", status_code=400, media_type=MediaType.TEXT)

    @get("/pages", sync_to_thread=False, exception_handlers={HTTPException: own})
    @negotiated(PAGES, problems=True)
    def pages(page: int = 1) -> str:
        return "a"

    with TestClient(Litestar([pages], plugins=[NegotiationPlugin()])) as client:
        r = client.get("/pages?page=x", headers={"Accept": "text/csv"})
    assert (r.status_code, r.text) == (400, "the route's own")
    assert vary_tokens(r.headers["vary"]) == ["accept"]


def test_litestar_dispatch_handlers_share_one_signature() -> None:
    pytest.importorskip("litestar")
    from fastaccept.litestar import dispatch

    def as_json(limit: int = 10) -> str:
        return "{}"

    def as_csv(offset: int = 0) -> str:
        return ""

    with pytest.raises(
        ValueError, match="share one signature \\(Litestar reads one\\)"
    ):
        dispatch({"application/json": as_json, "text/csv": as_csv})


def test_litestar_dispatch_handlers_may_differ_in_their_return_annotations() -> None:
    # Each returns its body: its return annotation is no schema of the
    # offers, as under FastAPI; Litestar reads Response, what the wrapper
    # answers.
    pytest.importorskip("litestar")
    from litestar import Litestar, Response, get
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, dispatch

    def as_json() -> str:
        return '{"limit": 3}'

    def as_csv() -> bytes:
        return b"limit\r\n3\r\n"

    report = dispatch({"application/json": as_json, "text/csv": as_csv})
    assert inspect.signature(report).return_annotation == Response[Any]
    route = get("/report", sync_to_thread=False)(report)
    with TestClient(Litestar([route], plugins=[NegotiationPlugin()])) as client:
        for accept, body in [("text/csv", "limit\r\n3\r\n"), ("*/*", '{"limit": 3}')]:
            r = client.get("/report", headers={"Accept": accept})
            assert (r.status_code, r.text) == (200, body)


# aiohttp --------------------------------------------------------------------


def test_aiohttp_errors_of_its_field_lines_name_raw_headers() -> None:
    # aiohttp's lines are no ASGI scope's: its errors say where they were read.
    pytest.importorskip("aiohttp")
    from fastaccept.aiohttp import AiohttpBinding

    binding = AiohttpBinding()
    request: Any = SimpleNamespace(raw_headers=((b"accept", "a/b"),), method="GET")
    message = r"^a field line's value in raw_headers must be bytes, not str$"
    with pytest.raises(TypeError, match=message):
        binding.headers(request)
    request.raw_headers = (b"content-type",)
    with pytest.raises(TypeError, match=r"^raw_headers must be an iterable of \("):
        binding.content_type(request)


def _aiohttp_app() -> Any:
    pytest.importorskip("aiohttp")
    from aiohttp import web

    from fastaccept.aiohttp import CONSUMED as AIOHTTP_CONSUMED
    from fastaccept.aiohttp import PRODUCED, negotiated

    routes = web.RouteTableDef()

    @routes.get("/greeting/{name}")
    @negotiated(GREETING, vary="Cookie")
    async def greeting(request: web.Request) -> Any:
        name = request.match_info["name"]
        if name == "old":  # a redirect aiohttp sends, Vary merged
            raise web.HTTPFound("/greeting/new", headers={"Vary": "Origin"})
        if name == "raw":  # a response of its own, two Vary lines
            response = web.Response(text="raw", headers={"Vary": "Origin"})
            response.headers.add("Vary", "Cookie")
            return response
        return {"greeting": name}

    @routes.view("/pages/{name}")
    class Page(web.View):
        @negotiated(PAGES, problems=True)
        async def get(self) -> Any:
            name = self.request.match_info["name"]
            if name == "missing":
                raise web.HTTPNotFound(text="no such page", headers={"X-Why": "gone"})
            if name == "gone":
                raise web.HTTPGone()  # aiohttp's default text: no detail
            if name == "latin":  # bytes its charset (UTF-8) cannot read: no detail
                latin = web.HTTPBadRequest(content_type="text/plain")
                latin.body = "caf\xe9".encode("latin-1")  # (body= is deprecated)
                raise latin
            return f"page {name}"

        head = get

    @routes.post("/messages")
    @negotiated(CREATED, consumes=BODY_TYPES, status=201)
    async def messages(request: web.Request) -> Any:
        decision, chosen = request[AIOHTTP_CONSUMED], request[PRODUCED]
        assert decision is not None
        both = {"type": decision.media_type, "produced": chosen.media_type}
        return Answer(both, headers={"Location": "/messages/1"})

    class Greeter:  # routed bound, as aiohttp's "Organizing Handlers in Classes"
        @negotiated(GREETING)
        async def greet(self, request: web.Request) -> Any:
            return {"greeting": request.match_info["name"]}

    app = web.Application()
    app.add_routes(routes)
    app.router.add_get("/bound/{name}", Greeter().greet)
    return app


@pytest.fixture(scope="module")
def aiohttp_call() -> Any:
    from .test_integrations import aiohttp_call

    return aiohttp_call(_aiohttp_app())


def _aiohttp_get(call: Any, path: str, accept: str | None = None, **more: Any) -> Any:
    headers = [] if accept is None else [("accept", accept.encode())]
    return call(more.get("method", "GET"), path, headers, b"")


def test_aiohttp_handlers(aiohttp_call: Any) -> None:
    r = _aiohttp_get(aiohttp_call, "/greeting/bob", "text/html")
    assert (r.status, r.body) == (200, b"<p>bob</p>")
    assert r.headers["vary"] == "Cookie, Accept"
    head = _aiohttp_get(aiohttp_call, "/greeting/bob", method="HEAD")
    assert (head.status, head.body) == (200, b"")
    assert head.headers["content-length"] == str(len(b'{"greeting": "bob"}'))
    r = _aiohttp_get(aiohttp_call, "/greeting/bob", PROBLEM_406)
    assert (r.status, json.loads(r.body)["status"]) == (406, 406)
    r = aiohttp_call(
        "POST", "/messages", [("content-type", b"application/json")], b"{}"
    )
    both = {"type": "application/json", "produced": "application/json"}
    assert (r.status, json.loads(r.body)) == (201, both)
    assert r.headers["location"] == "/messages/1"
    r = aiohttp_call("POST", "/messages", [("content-type", b"text/plain")], b"x")
    assert (r.status, r.headers["accept"]) == (415, "application/json")
    r = _aiohttp_get(aiohttp_call, "/bound/ann", "text/html")  # a 500 before
    assert (r.status, r.body, r.headers["vary"]) == (200, b"<p>ann</p>", "Accept")


def test_aiohttp_passes_its_own_responses_with_vary_merged(aiohttp_call: Any) -> None:
    r = _aiohttp_get(aiohttp_call, "/greeting/old")
    assert (r.status, r.headers["location"]) == (302, "/greeting/new")
    assert vary_tokens(r.headers["vary"]) == ["origin", "cookie", "accept"]
    r = _aiohttp_get(aiohttp_call, "/greeting/raw", "text/html")
    assert (r.status, r.body) == (200, b"raw")
    assert r.headers["vary"] == "Origin, Cookie, Accept"  # one line


def test_aiohttp_class_based_views_and_problems(aiohttp_call: Any) -> None:
    r = _aiohttp_get(aiohttp_call, "/pages/a", "text/csv")
    assert (r.status, r.body, r.headers["content-type"]) == (200, b"page a", "text/csv")
    head = _aiohttp_get(aiohttp_call, "/pages/a", "text/csv", method="HEAD")
    assert (head.status, head.body, head.headers["content-length"]) == (200, b"", "6")
    r = _aiohttp_get(aiohttp_call, "/pages/missing", "text/csv, application/json")
    assert (r.status, r.headers["content-type"]) == (404, "application/problem+json")
    assert json.loads(r.body)["detail"] == "no such page"
    assert (r.headers["x-why"], r.headers["vary"]) == ("gone", "Accept")
    r = _aiohttp_get(aiohttp_call, "/pages/gone", "text/csv, application/json")
    assert r.status == 410
    assert "detail" not in json.loads(r.body)
    r = _aiohttp_get(aiohttp_call, "/pages/latin", "text/csv, application/json")
    assert (r.status, json.loads(r.body)) == (
        400,
        {"type": "about:blank", "title": "Bad Request", "status": 400},
    )
    r = _aiohttp_get(aiohttp_call, "/pages/missing", "text/*", method="HEAD")
    assert (r.status, r.body) == (404, b"")
    r = aiohttp_call("POST", "/pages/a", [], b"")
    assert (r.status, r.headers["allow"]) == (405, "GET,HEAD")  # aiohttp's own


def test_aiohttp_keys_are_typed_and_raise_no_warning() -> None:
    pytest.importorskip("aiohttp")
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from fastaccept.aiohttp import CONSUMED as AIOHTTP_CONSUMED
    from fastaccept.aiohttp import PRODUCED, negotiated

    assert isinstance(AIOHTTP_CONSUMED, web.RequestKey)
    assert isinstance(PRODUCED, web.RequestKey)
    seen: list[Any] = []

    @negotiated(GREETING)
    async def greeting(request: web.Request) -> Any:
        seen.append((request[AIOHTTP_CONSUMED], request[PRODUCED].media_type))
        return {"greeting": "hi"}

    request = make_mocked_request("GET", "/", headers={"Accept": "text/html"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # aiohttp warns of a str key
        response = asyncio.run(greeting(request))
    assert (response.status, response.body) == (200, b"<p>hi</p>")
    assert seen == [(None, "text/html; charset=utf-8")]


@pytest.mark.parametrize("name", ["asgi", "wsgi", *FRAMEWORKS])
def test_an_async_generator_function_is_refused_when_decorated(name: str) -> None:
    """No renderer can iterate an async generator: a ``TypeError`` when it
    is decorated (FastAPI would stream its items, and its wrapper's render
    would break mid-body; elsewhere its repr was the body)."""
    module = pytest.importorskip(f"fastaccept.{name}")

    async def rows(*args: Any, **kwargs: Any) -> Any:
        yield {"greeting": "hi"}

    class Rows:
        """A handler object whose ``__call__`` is an async generator."""

        async def __call__(self, *args: Any, **kwargs: Any) -> Any:
            yield {"greeting": "hi"}

    for handler in rows, functools.partial(rows, None), Rows():
        with pytest.raises(TypeError, match="must not be an async generator f"):
            module.negotiated(GREETING)(handler)
        with pytest.raises(TypeError, match=r"for 'text/csv' must not be an async"):
            module.dispatch({"text/csv": handler})


@pytest.mark.parametrize("name", ["asgi", "wsgi", *FRAMEWORKS])
def test_a_misspelt_keyword_names_the_function(name: str) -> None:
    """``negotiated`` and ``dispatch`` are named as the module exports them
    (a ``TypeError`` named ``integration.<locals>.negotiated()`` before)."""
    module = pytest.importorskip(f"fastaccept.{name}")
    for function in module.negotiated, module.dispatch:
        assert function.__module__ == module.__name__
        match = rf"^{function.__name__}\(\) got an unexpected keyword argument"
        with pytest.raises(TypeError, match=match):
            function(GREETING, format_params="fmt")


@pytest.mark.parametrize("name", ["asgi", "wsgi", *FRAMEWORKS])
def test_a_generator_function_as_a_dispatch_handler_is_refused(name: str) -> None:
    """A dispatch handler returns the body: a generator is none, and each
    request answered 500 ("the renderer ... returned generator") where the
    framework would not stream it (FastAPI refused it already)."""
    module = pytest.importorskip(f"fastaccept.{name}")

    def rows(*args: Any, **kwargs: Any) -> Any:
        yield "a,b\n"

    with pytest.raises(TypeError, match=r"for 'text/csv' must not be a generator f"):
        module.dispatch({"text/csv": rows})


def test_fastapi_refuses_a_generator_function() -> None:
    """FastAPI finds the handler under the wrapper (``__wrapped__``) and
    would stream the response the wrapper returns as items: a 200 of
    FastAPI's ``application/jsonl`` cut off mid-body."""
    pytest.importorskip("fastapi")
    from fastaccept.fastapi import negotiated

    def rows() -> Any:
        yield {"greeting": "hi"}

    with pytest.raises(TypeError, match="rows must not be a generator function"):
        negotiated(GREETING)(rows)


def logged(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A plain decorator over a handler, as logging and metrics ones are."""

    @functools.wraps(handler)
    def call(*args: Any, **kwargs: Any) -> Any:
        return handler(*args, **kwargs)

    return call


class Greeter:
    """An object called as an async handler."""

    async def __call__(self) -> dict[str, str]:
        return {"greeting": "hi"}


def test_an_awaited_callable_is_awaited_as_the_framework_awaits_it() -> None:
    """FastAPI and Litestar await an object whose ``__call__`` is a coroutine
    function, FastAPI a coroutine function under a plain ``functools.wraps``
    decorator too: negotiated, each is awaited as well (it was called as a
    plain function, its coroutine a 500 on every request)."""
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    pytest.importorskip("litestar")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from litestar import Litestar, get
    from litestar.testing import TestClient as LitestarClient

    from fastaccept.fastapi import NegotiatedRoute
    from fastaccept.fastapi import negotiated as by_fastapi
    from fastaccept.litestar import NegotiationPlugin
    from fastaccept.litestar import negotiated as by_litestar

    @logged
    async def greeting() -> dict[str, str]:
        return {"greeting": "hi"}

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    app.get("/object")(by_fastapi(GREETING)(Greeter()))
    app.get("/wrapped")(by_fastapi(GREETING)(greeting))
    client = TestClient(app)
    for path in ("/object", "/wrapped"):
        sent = client.get(path, headers={"Accept": "text/html"})
        assert (sent.status_code, sent.text) == (200, "<p>hi</p>"), path

    handler = get("/object")(by_litestar(GREETING)(Greeter()))
    served = Litestar([handler], plugins=[NegotiationPlugin()])
    with LitestarClient(served) as litestar_client:
        answer = litestar_client.get("/object", headers={"Accept": "text/html"})
        assert (answer.status_code, answer.text) == (200, "<p>hi</p>")


def run_to_end(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A plain decorator that runs a coroutine function's coroutine itself."""

    @functools.wraps(handler)
    def call(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(handler(*args, **kwargs))

    return call


def collected(rows: Callable[..., Any]) -> Callable[..., Any]:
    """A coroutine function that returns an async generator's items."""

    @functools.wraps(rows)
    async def call(*args: Any, **kwargs: Any) -> list[Any]:
        return [row async for row in rows(*args, **kwargs)]

    return call


def test_a_handler_is_taken_as_its_framework_takes_it() -> None:
    """Starlette tells a handler it awaits by the object itself (a partial
    too), not by what a decorator wraps (as FastAPI does): a plain function
    that runs its coroutine itself is called, and a coroutine function that
    collects an async generator's items is awaited."""
    pytest.importorskip("httpx")
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.starlette import negotiated

    @run_to_end
    async def ran(request: Any) -> dict[str, str]:
        return {"greeting": "ran"}

    @collected
    async def rows(request: Any) -> Any:
        yield "row"

    class Rows:
        async def __call__(self, request: Any, greeting: str) -> dict[str, str]:
            return {"greeting": greeting}

    paged = Renderers({"text/html": lambda data: f"<p>{data}</p>"})
    app = Starlette(
        routes=[
            Route("/ran", negotiated(GREETING)(ran)),
            Route("/rows", negotiated(paged)(rows)),
            Route("/partial", negotiated(GREETING)(partial(Rows(), greeting="hi"))),
        ]
    )
    client = TestClient(app)
    paths = ("/ran", "/rows", "/partial")
    sent = [client.get(path, headers={"Accept": "text/html"}) for path in paths]
    assert [(r.status_code, r.text) for r in sent] == [
        (200, "<p>ran</p>"),
        (200, "<p>['row']</p>"),
        (200, "<p>hi</p>"),
    ]


def test_a_framework_error_a_renderer_raises_is_answered_as_the_handlers() -> None:
    """Rendering runs after the handler, inside the same answer: the
    framework's own error a renderer raises gets ``Accept`` in its ``Vary``,
    and with ``problems=True`` the problem answer, as the handler's does."""
    pytest.importorskip("httpx")
    pytest.importorskip("starlette")
    pytest.importorskip("flask")
    import flask
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept.flask import negotiated as by_flask
    from fastaccept.starlette import negotiated as by_starlette

    def hidden(data: object) -> str:
        raise HTTPException(403, "not yours")

    forbidden = Renderers({"text/html": hidden})

    async def page(request: Any) -> dict[str, str]:
        return {}

    app = Starlette(
        routes=[
            Route("/page", by_starlette(forbidden)(page)),
            Route("/problem", by_starlette(forbidden, problems=True)(page)),
        ]
    )
    client = TestClient(app)
    sent = client.get("/page", headers={"Accept": "text/html"})
    assert (sent.status_code, sent.headers.get("vary")) == (403, "Accept")
    accept = "text/html, application/problem+json;q=0.5"
    sent = client.get("/problem", headers={"Accept": accept})
    assert (sent.status_code, sent.headers["content-type"]) == (
        403,
        "application/problem+json",
    )
    assert sent.json()["detail"] == "not yours"

    def aborted(data: object) -> str:
        flask.abort(403)

    def empty() -> dict[str, str]:
        return {}

    web = flask.Flask(__name__)
    web.get("/page")(by_flask(Renderers({"text/html": aborted}))(empty))
    seen = web.test_client().get("/page", headers={"Accept": "text/html"})
    assert (seen.status_code, seen.headers.get("Vary")) == (403, "Accept")


def test_aiohttp_refuses_a_plain_function() -> None:
    pytest.importorskip("aiohttp")
    from fastaccept.aiohttp import dispatch, negotiated

    def greeting(request: Any) -> str:
        return "hello"

    # A type checker says so too (mypy reads this file: an unused ignore fails).
    with pytest.raises(TypeError, match="greeting must be a coroutine function"):
        negotiated(Renderers({"text/plain": str}))(greeting)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a coroutine function"):
        dispatch({"text/plain": greeting})  # type: ignore[arg-type]

    def awaitable(request: Any) -> Awaitable[str]:
        return asyncio.sleep(0, "hello")  # an awaitable, from no coroutine function

    with pytest.raises(TypeError, match="awaitable must be a coroutine function"):
        negotiated(Renderers({"text/plain": str}))(awaitable)  # type: ignore[arg-type]


# Each binding's own steps, one by one ------------------------------------------


def test_aiohttp_merges_every_vary_line_of_its_own_response() -> None:
    """Each ``Vary`` line of a handler's own response is kept, not only the
    first (RFC 9110 §5.3: several lines are one list)."""
    pytest.importorskip("aiohttp")
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from fastaccept.aiohttp import negotiated

    @negotiated(GREETING)
    async def own(request: web.Request) -> Any:
        response = web.Response(text="raw", headers={"Vary": "Origin"})
        response.headers.add("Vary", "Accept-Language")
        return response

    request = make_mocked_request("GET", "/", headers={"Accept": "text/html"})
    response = asyncio.run(own(request))
    merged = ", ".join(response.headers.getall("Vary"))
    assert vary_tokens(merged) == ["origin", "accept-language", "accept"]


def test_aiohttp_answers_with_rfc_9110s_reason_phrase() -> None:
    """The status line's phrase is RFC 9110's, as the WSGI endpoint's (422
    "Unprocessable Content", not Python's older "Unprocessable Entity")."""
    pytest.importorskip("aiohttp")
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from fastaccept.aiohttp import negotiated

    @negotiated(GREETING)
    async def invalid(request: web.Request) -> Any:
        return Answer({"greeting": "no"}, status=422)

    request = make_mocked_request("GET", "/", headers={"Accept": "text/html"})
    response = asyncio.run(invalid(request))
    assert (response.status, response.reason) == (422, "Unprocessable Content")


def test_the_typed_accessors_read_the_keys_and_none_without_them() -> None:
    """``consumed``/``produced`` of asgi and wsgi read the keys (the other
    modules' handlers use theirs above); a mapping without them, outside a
    negotiated handler or without ``consumes``, gives None."""
    from fastaccept import Decision, asgi, wsgi

    decision = Decision(200, "application/json")
    for module in (asgi, wsgi):
        assert module.consumed({}) is None and module.produced({}) is None
        taken = {module.CONSUMED: decision, module.PRODUCED: decision}
        assert module.consumed(taken) is module.produced(taken) is decision


def test_asgi_with_vary_merges_a_vary_line_in_any_case() -> None:
    """``with_vary`` merges into a ``Vary`` line whatever the case of its
    name (an ASGI middleware may send ``b"Vary"``), not dropping it."""
    from fastaccept.asgi import with_vary

    message = {
        "type": "http.response.start",
        "status": 404,
        "headers": [(b"Vary", b"Origin"), (b"content-length", b"0")],
    }
    merged = with_vary(message, "Accept")["headers"]
    assert merged == [(b"content-length", b"0"), (b"vary", b"Origin, Accept")]


def test_fastapi_a_dependencys_400_on_a_negotiated_route_varies_on_accept() -> None:
    """A 400 a dependency raises, before the handler runs, gets ``Vary:
    Accept`` as the 422s do (every error status of the route, 400 too)."""
    pytest.importorskip("fastapi")
    from fastapi import Depends, FastAPI, HTTPException
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def token(bad: bool = False) -> None:
        if bad:
            raise HTTPException(400, "bad token")

    @app.get("/greeting", dependencies=[Depends(token)])
    @negotiated(GREETING)
    def greeting() -> Any:
        return {"greeting": "hi"}

    r = TestClient(app).get("/greeting?bad=1")
    assert r.status_code == 400
    assert vary_tokens(r.headers["vary"]) == ["accept"]


def test_fastapi_a_refusal_takes_no_header_fields_of_the_given_response() -> None:
    """What a dependency sets on FastAPI's ``Response`` goes with an answer
    the data chose, not with a refusal (here taken by the handler's wrapper,
    under a route class other than ``NegotiatedRoute``)."""
    pytest.importorskip("fastapi")
    from fastapi import Depends, FastAPI, Response
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import negotiated

    app = FastAPI()

    def session(response: Response) -> None:
        response.set_cookie("session", "s1")

    session.__annotations__["response"] = Response  # a name this module lacks

    @app.get("/greeting", dependencies=[Depends(session)])
    @negotiated(GREETING)
    def greeting() -> Any:
        return {"greeting": "hi"}

    client = TestClient(app)
    with pytest.warns(RuntimeWarning, match="not NegotiatedRoute"):
        refused = client.get("/greeting", headers={"Accept": "image/png"})
    assert refused.status_code == 406
    assert "set-cookie" not in refused.headers
    chosen = client.get("/greeting")
    assert chosen.headers["set-cookie"].startswith("session=s1")


def test_fastapi_an_endpoint_called_without_a_route_neither_warns_nor_fails() -> None:
    """Called outside a router (a unit test of the endpoint), the scope has
    no route: the checks are taken, with no warning of a route class."""
    pytest.importorskip("fastapi")
    from starlette.requests import Request
    from starlette.responses import Response

    from fastaccept.fastapi import negotiated

    @negotiated(GREETING)
    def greeting() -> Any:
        return {"greeting": "hi"}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "query_string": b"",
        "headers": [(b"accept", b"text/html")],
    }
    given = Response()  # as FastAPI gives it: no length, no status
    del given.headers["content-length"]
    given.status_code = None  # type: ignore[assignment]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Typed as any call (mypy reads this file): the parameters it gained
        # are no handler's.
        r = greeting(fastaccept_request=Request(scope), fastaccept_response=given)
    assert (r.status_code, r.body) == (200, b"<p>hi</p>")


def test_fastapi_openapi_keeps_the_routes_own_request_body_content() -> None:
    """``openapi_extra``'s ``requestBody`` content (a schema for a type
    ``consumes`` takes) is kept beside the types listed for ``consumes``."""
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute
    binary = {"schema": {"type": "string", "format": "binary"}}
    extra = {"requestBody": {"content": {"image/png": binary}}}

    @app.put("/uploads", openapi_extra=extra)
    @negotiated(CREATED, consumes=Consumes(["image/png", "image/jpeg"]))
    def upload() -> Any:
        return {}

    body = app.openapi()["paths"]["/uploads"]["put"]["requestBody"]
    assert body == {
        "required": True,
        "content": {"image/png": binary, "image/jpeg": {}},
    }
