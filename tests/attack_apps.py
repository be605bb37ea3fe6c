"""One small application per integration, for tests/test_socket_attacks.py.

Each serves the same routes with its module's ``negotiated`` (``fastaccept.asgi``,
``.starlette``, ``.fastapi``, ``.litestar`` for ASGI; ``.wsgi``, ``.flask``,
``.falcon``, ``.django`` for WSGI; ``.aiohttp`` on aiohttp's own server),
written as a user of that framework would; what the
handlers answer is declared once, here:

- ``GET /echo?v=...[&name=...]``: the query's ``v`` reflected into a response
  header (``X-Echo``, or the one ``name`` says), as a careless application
  would; the library refuses what would break the response (docs/web.md,
  "What a handler may send"), and the application, a well-written one,
  answers that ``ValueError`` with a 400.
- ``GET /status/<n>``: the data with status ``n`` (an invalid one: the 400);
  ``GET /empty/<204|304>`` is the same handler, for the data (which renders
  to a body) with a bodyless status (RFC 9110 §15.3.5, §15.4.5);
  ``GET /status/untyped``, a ``Rendered`` made by hand without a type.
- ``POST /body``: takes ``application/json`` only (``Consumes``).

Every route renders ``DATA`` as JSON or plain text. ``built(name)`` gives an
application by its integration's name, its framework imported then.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl

import pytest

from fastaccept import Answer, Consumes, Rendered, Renderers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

#: What every route renders.
DATA = {"ok": 1}
RENDERERS = Renderers(
    {
        "application/json": json.dumps,
        "text/plain; charset=utf-8": lambda data: f"{data}\n",
    }
)
#: ``/body``'s request types.
JSON_BODY = Consumes(["application/json"])
#: ``/status/untyped``'s body, a ``Rendered`` made by hand without a
#: ``Content-Type``: markup that a browser runs if it is labelled HTML.
UNTYPED = b"<script>alert(1)</script>"
#: The header ``/echo`` reflects ``v`` into unless ``name`` says another.
ECHO = "X-Echo"
#: The integrations served by an ASGI server, and by a WSGI server.
ASGI_APPS = ("asgi", "starlette", "fastapi", "litestar")
WSGI_APPS = ("wsgi", "flask", "falcon", "django")
#: The integrations served by aiohttp's own server.
AIOHTTP_APPS = ("aiohttp",)
#: The integrations for a framework (of their name), skipped where it is
#: not installed.
FRAMEWORKS = {
    "starlette",
    "fastapi",
    "flask",
    "falcon",
    "django",
    "litestar",
    "aiohttp",
}

Endpoint = TypeVar("Endpoint")
Routes = dict[tuple[str, str], Endpoint]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def refused(error: ValueError) -> Answer:
    """The application's answer to a value the library refused: 400."""
    return Answer({"error": str(error)}, status=400)


def echo(value: str, name: str = ECHO) -> Answer:
    """``DATA`` with ``value`` in the header ``name``, or the 400."""
    try:
        return Answer(DATA, headers={name: value})
    except ValueError as error:
        return refused(error)


def echo_query(query: str) -> Answer:
    """``echo`` for a raw (percent-encoded) query string."""
    fields = dict(parse_qsl(query, keep_blank_values=True))
    return echo(fields.get("v", ""), fields.get("name", ECHO))


def status(code: str) -> Answer | Rendered:
    """``DATA`` with the status ``code`` (a path segment), or the 400;
    ``untyped``: ``UNTYPED``, made by hand."""
    if code == "untyped":
        return Rendered(200, (), UNTYPED)
    try:
        return Answer(DATA, status=int(code))
    except ValueError as error:
        return refused(error)


def routing(
    echo_endpoint: Endpoint, status_endpoint: Endpoint, body_endpoint: Endpoint
) -> Routes[Endpoint]:
    """The routes of plain ASGI and WSGI, routed by hand: by ``route``."""
    return {
        ("GET", "echo"): echo_endpoint,
        ("GET", "status"): status_endpoint,
        ("GET", "empty"): status_endpoint,
        ("POST", "body"): body_endpoint,
    }


def route(method: str, path: str) -> tuple[str, str]:
    """A request's route: its method and its path's first segment."""
    return method, path.split("/")[1]


def last_segment(path: str) -> str:
    """The path's last segment: ``/status/<n>``'s ``n``."""
    return path.rpartition("/")[2]


def asgi_app() -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """Plain ASGI (``fastaccept.asgi``), routed by hand."""
    from fastaccept.asgi import negotiated

    @negotiated(RENDERERS)
    async def echo_endpoint(scope: Scope, receive: Receive) -> Answer:
        return echo_query(scope["query_string"].decode("latin-1"))

    @negotiated(RENDERERS)
    async def status_endpoint(scope: Scope, receive: Receive) -> Answer | Rendered:
        return status(last_segment(scope["path"]))

    @negotiated(RENDERERS, consumes=JSON_BODY)
    async def body_endpoint(scope: Scope, receive: Receive) -> dict[str, int]:
        return DATA

    routes = routing(echo_endpoint, status_endpoint, body_endpoint)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = routes.get(route(scope["method"], scope["path"]))
        if endpoint is not None:
            await endpoint(scope, receive, send)
            return
        headers = [(b"content-type", b"text/plain")]
        await send({"type": "http.response.start", "status": 404, "headers": headers})
        await send({"type": "http.response.body", "body": b"not found\n"})

    return app


def starlette_app() -> Any:
    """Starlette (``fastaccept.starlette``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.routing import Route

    from fastaccept.starlette import negotiated

    @negotiated(RENDERERS)
    async def echo_endpoint(request: Request) -> Answer:
        query = request.query_params
        return echo(query.get("v", ""), query.get("name", ECHO))

    @negotiated(RENDERERS)
    async def status_endpoint(request: Request) -> Answer | Rendered:
        return status(request.path_params["code"])

    @negotiated(RENDERERS, consumes=JSON_BODY)
    async def body_endpoint(request: Request) -> dict[str, int]:
        return DATA

    return Starlette(
        routes=[
            Route("/echo", echo_endpoint),
            Route("/status/{code}", status_endpoint),
            Route("/empty/{code}", status_endpoint),
            Route("/body", body_endpoint, methods=["POST"]),
        ]
    )


def fastapi_app() -> Any:
    """FastAPI (``fastaccept.fastapi``, its ``NegotiatedRoute``)."""
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get("/echo")
    @negotiated(RENDERERS)
    async def echo_endpoint(v: str = "", name: str = ECHO) -> Answer:
        return echo(v, name)

    @app.get("/status/{code}")
    @app.get("/empty/{code}")
    @negotiated(RENDERERS)
    async def status_endpoint(code: str) -> Answer | Rendered:
        return status(code)

    @app.post("/body")
    @negotiated(RENDERERS, consumes=JSON_BODY)
    async def body_endpoint() -> dict[str, int]:
        return DATA

    return app


def litestar_app() -> Any:
    """Litestar (``fastaccept.litestar``, its ``NegotiationPlugin``)."""
    from litestar import Litestar, Request, get, post

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/echo")
    @negotiated(RENDERERS)
    async def echo_endpoint(request: Request[Any, Any, Any]) -> Answer:
        query = request.query_params
        return echo(query.get("v", ""), query.get("name", ECHO))

    @get(["/status/{code:str}", "/empty/{code:str}"])
    @negotiated(RENDERERS)
    async def status_endpoint(request: Request[Any, Any, Any]) -> Answer | Rendered:
        return status(request.path_params["code"])

    @post("/body")
    @negotiated(RENDERERS, consumes=JSON_BODY)
    async def body_endpoint() -> dict[str, int]:
        return DATA

    routes = [echo_endpoint, status_endpoint, body_endpoint]
    return Litestar(routes, plugins=[NegotiationPlugin()])


def wsgi_app() -> Callable[[WSGIEnvironment, StartResponse], Iterable[bytes]]:
    """Plain WSGI (``fastaccept.wsgi``), routed by hand."""
    from fastaccept.wsgi import negotiated

    @negotiated(RENDERERS)
    def echo_endpoint(environ: WSGIEnvironment) -> Answer:
        return echo_query(environ.get("QUERY_STRING", ""))

    @negotiated(RENDERERS)
    def status_endpoint(environ: WSGIEnvironment) -> Answer | Rendered:
        return status(last_segment(environ["PATH_INFO"]))

    @negotiated(RENDERERS, consumes=JSON_BODY)
    def body_endpoint(environ: WSGIEnvironment) -> dict[str, int]:
        return DATA

    routes = routing(echo_endpoint, status_endpoint, body_endpoint)

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        endpoint = routes.get(route(environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        if endpoint is not None:
            return endpoint(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found\n"]

    return app


def flask_app() -> Any:
    """Flask (``fastaccept.flask``)."""
    from flask import Flask, request

    from fastaccept.flask import negotiated

    app = Flask(__name__)

    @app.get("/echo")
    @negotiated(RENDERERS)
    def echo_endpoint() -> Answer:
        return echo(request.args.get("v", ""), request.args.get("name", ECHO))

    @app.get("/status/<code>")
    @app.get("/empty/<code>")
    @negotiated(RENDERERS)
    def status_endpoint(code: str) -> Answer | Rendered:
        return status(code)

    @app.post("/body")
    @negotiated(RENDERERS, consumes=JSON_BODY)
    def body_endpoint() -> dict[str, int]:
        return DATA

    return app


def falcon_app() -> Any:
    """falcon (``fastaccept.falcon``), one resource per route."""
    import falcon

    from fastaccept.falcon import negotiated

    class Echo:
        @negotiated(RENDERERS)
        def on_get(self, req: falcon.Request, resp: falcon.Response) -> Answer:
            return echo(
                req.get_param("v", default=""), req.get_param("name", default=ECHO)
            )

    class Status:
        @negotiated(RENDERERS)
        def on_get(
            self, req: falcon.Request, resp: falcon.Response, code: str
        ) -> Answer | Rendered:
            return status(code)

    class Body:
        @negotiated(RENDERERS, consumes=JSON_BODY)
        def on_post(self, req: falcon.Request, resp: falcon.Response) -> dict[str, int]:
            return DATA

    app = falcon.App()
    app.add_route("/echo", Echo())
    app.add_route("/status/{code}", Status())
    app.add_route("/empty/{code}", Status())
    app.add_route("/body", Body())
    return app


def aiohttp_app() -> Any:
    """aiohttp (``fastaccept.aiohttp``), with its server's default limits."""
    from aiohttp import web

    from fastaccept.aiohttp import negotiated

    @negotiated(RENDERERS)
    async def echo_endpoint(request: web.Request) -> Answer:
        return echo(request.query.get("v", ""), request.query.get("name", ECHO))

    @negotiated(RENDERERS)
    async def status_endpoint(request: web.Request) -> Answer | Rendered:
        return status(request.match_info["code"])

    @negotiated(RENDERERS, consumes=JSON_BODY)
    async def body_endpoint(request: web.Request) -> dict[str, int]:
        return DATA

    app = web.Application()
    app.router.add_get("/echo", echo_endpoint)
    app.router.add_get("/status/{code}", status_endpoint)
    app.router.add_get("/empty/{code}", status_endpoint)
    app.router.add_post("/body", body_endpoint)
    return app


#: The applications made here, by integration (Django's: tests/attack_django.py).
BUILDERS: dict[str, Callable[[], Any]] = {
    "asgi": asgi_app,
    "starlette": starlette_app,
    "fastapi": fastapi_app,
    "litestar": litestar_app,
    "wsgi": wsgi_app,
    "flask": flask_app,
    "falcon": falcon_app,
    "aiohttp": aiohttp_app,
}


@contextmanager
def built(name: str) -> Iterator[Any]:
    """The application of integration ``name``, while it is served (Django's
    settings are set for that time only)."""
    if name in FRAMEWORKS:
        pytest.importorskip(name)
    if name == "django":
        from .attack_django import django_app

        with django_app() as app:
            yield app
    else:
        yield BUILDERS[name]()
