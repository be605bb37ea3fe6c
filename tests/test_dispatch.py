"""``dispatch`` in every integration (docs/web.md, "Handlers by media type"):
one handler per media type, each of the framework's own signature; the
checks first, a refusal before any handler, the chosen offer's handler alone
(counted here), its str or bytes sent as that offer."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from fastaccept import Answer, Consumes

from .recipes import Call, Reply, joined, load_recipe
from .test_integrations import (
    asgi_call,
    falcon_call,
    starlette_call,
    werkzeug_call,
    wsgi_call,
)

pytestmark = pytest.mark.thread_unsafe(reason="counts calls in a module-level Counter")

CALLED: Counter[str] = Counter()
BODY_TYPES = Consumes(["application/json"])


def _handlers(asynchronous: bool, arguments: Callable[..., None]) -> dict[str, Any]:
    """A JSON and a CSV handler that count their calls; ``arguments`` checks
    what the framework passed."""

    def as_json(*args: Any, **kwargs: Any) -> str:
        arguments(*args, **kwargs)
        CALLED["json"] += 1
        return json.dumps({"total": 3})

    def as_csv(*args: Any, **kwargs: Any) -> Any:
        arguments(*args, **kwargs)
        CALLED["csv"] += 1
        return Answer(b"total\r\n3\r\n", headers={"X-Rows": "1"})

    if not asynchronous:
        return {"application/json": as_json, "text/csv; charset=utf-8": as_csv}

    async def as_json_async(*args: Any, **kwargs: Any) -> str:
        return as_json(*args, **kwargs)

    async def as_csv_async(*args: Any, **kwargs: Any) -> Any:
        return as_csv(*args, **kwargs)

    return {"application/json": as_json_async, "text/csv; charset=utf-8": as_csv_async}


def _any(*args: Any, **kwargs: Any) -> None:
    pass


def asgi_app() -> Call:
    from fastaccept.asgi import dispatch

    app = dispatch(_handlers(True, _any), formats=True)
    return asgi_call(app)


def wsgi_app() -> Call:
    from fastaccept.wsgi import dispatch

    return wsgi_call(dispatch(_handlers(False, _any), formats=True))


def starlette_app() -> Call:
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route

    from fastaccept.starlette import dispatch

    endpoint = dispatch(_handlers(True, _any), formats=True)
    app = Starlette(routes=[Route("/report", endpoint, methods=["GET", "POST"])])
    return starlette_call(app)


def fastapi_app() -> Call:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, dispatch

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def check(*args: Any, **kwargs: Any) -> None:
        assert args == () and set(kwargs) == {"limit"}

    handlers = _handlers(False, check)
    for handler in handlers.values():
        handler.__signature__ = _signature_with_limit()
    endpoint = dispatch(handlers, formats=True)
    app.api_route("/report", methods=["GET", "POST"])(endpoint)
    return starlette_call(app)


def _signature_with_limit() -> Any:
    import inspect

    limit = inspect.Parameter(
        "limit", inspect.Parameter.KEYWORD_ONLY, default=10, annotation=int
    )
    return inspect.Signature([limit])


def flask_app() -> Call:
    flask = pytest.importorskip("flask")
    from fastaccept.flask import dispatch

    app = flask.Flask(__name__)
    endpoint = dispatch(_handlers(False, _any), formats=True)
    app.add_url_rule("/report", view_func=endpoint, methods=["GET", "POST"])
    return werkzeug_call(app.test_client())


def falcon_app() -> Call:
    falcon = pytest.importorskip("falcon")
    from fastaccept.falcon import dispatch

    class Report:
        on_get = on_post = dispatch(_handlers(False, _any), formats=True)

    app = falcon.App()
    app.add_route("/report", Report())
    return falcon_call(app)


def django_app() -> Call:
    load_recipe("django_app")  # configures Django's settings once
    from django.test import RequestFactory

    from fastaccept.django import dispatch

    def check(request: Any) -> None:
        assert request.method in ("GET", "POST")

    view = dispatch(_handlers(False, check), formats=True)
    factory = RequestFactory()

    def call(
        method: str, path: str, headers: list[tuple[str, bytes]], body: bytes
    ) -> Reply:
        fields = joined(headers)
        content_type = fields.pop("content-type", "application/octet-stream")
        request = factory.generic(method, path, body, content_type, headers=fields)
        response = view(request)
        return Reply(
            response.status_code, joined(response.headers.items()), response.content
        )

    return call


APPS = {
    "asgi": asgi_app,
    "wsgi": wsgi_app,
    "starlette": starlette_app,
    "fastapi": fastapi_app,
    "flask": flask_app,
    "falcon": falcon_app,
    "django": django_app,
}


@pytest.fixture(scope="module", params=sorted(APPS))
def call(request: pytest.FixtureRequest) -> Call:
    made: Call = APPS[request.param]()
    return made


def _get(call: Call, accept: str | None, path: str = "/report") -> Reply:
    CALLED.clear()
    return call(
        "GET", path, [] if accept is None else [("accept", accept.encode())], b""
    )


def test_the_chosen_handler_alone_runs(call: Call) -> None:
    reply = _get(call, "text/csv, application/json;q=0.5")
    assert (reply.status, reply.body) == (200, b"total\r\n3\r\n")
    assert reply.headers["content-type"].replace(" ", "") == "text/csv;charset=utf-8"
    assert reply.headers["x-rows"] == "1"
    assert "accept" in reply.headers["vary"].lower()
    assert Counter(csv=1) == CALLED
    reply = _get(call, "application/json")
    assert json.loads(reply.body) == {"total": 3}
    assert Counter(json=1) == CALLED


@pytest.mark.parametrize("accept", [None, "*/*"])
def test_no_preference_gets_the_first_handler(call: Call, accept: str | None) -> None:
    reply = _get(call, accept)
    assert reply.headers["content-type"] == "application/json"
    assert Counter(json=1) == CALLED


def test_a_format_name_chooses_the_handler(call: Call) -> None:
    reply = _get(call, "application/json", "/report?format=csv")
    assert reply.status == 200
    assert Counter(csv=1) == CALLED


def test_a_refusal_runs_no_handler(call: Call) -> None:
    assert _get(call, "image/png").status == 406
    assert _get(call, "application/json", "/report?format=pdf").status == 406
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
    assert Counter(json=1) == CALLED


def test_bad_handlers_are_refused_when_made() -> None:
    from fastaccept.wsgi import dispatch

    with pytest.raises(TypeError, match="the handler for 'text/csv' must be callable"):
        dispatch({"text/csv": None})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one handler"):
        dispatch({})
    with pytest.raises(TypeError, match="handlers must map offers"):
        dispatch("text/csv")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is not an \\(offer, handler\\) pair"):
        dispatch([("text/csv",)])  # type: ignore[list-item]

    async def coroutine(environ: Any) -> str:
        return ""

    with pytest.raises(ValueError, match="all be coroutine functions"):
        dispatch({"text/csv": coroutine, "text/plain": lambda environ: ""})
    with pytest.raises(ValueError, match="give each media type once"):
        dispatch({"text/csv": str, "TEXT/CSV": str})
    with pytest.raises(ValueError, match="no offer has a qs above 0"):
        dispatch({("text/csv", 0): str})


def test_a_handler_that_returns_data_is_a_type_error() -> None:
    from fastaccept.wsgi import dispatch

    app = dispatch({"application/json": lambda environ: {"total": 3}})
    with pytest.raises(TypeError, match="returned dict, not str or bytes"):
        app({"REQUEST_METHOD": "GET"}, lambda *started: lambda body: None)


def test_fastapi_handlers_share_one_signature_and_one_operation() -> None:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, dispatch

    def as_json(limit: int = 10) -> str:
        return "{}"

    def as_csv(offset: int = 0) -> str:
        return ""

    with pytest.raises(ValueError, match="share one signature"):
        dispatch({"application/json": as_json, "text/csv": as_csv})
    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    def as_csv_too(limit: int = 10) -> str:
        return ""

    app.get("/report")(dispatch({"application/json": as_json, "text/csv": as_csv_too}))
    operation = app.openapi()["paths"]["/report"]["get"]
    assert list(operation["responses"]["200"]["content"]) == [
        "application/json",
        "text/csv",
    ]
    assert [p["name"] for p in operation["parameters"]] == ["limit"]


def test_fastaccept_asgi_refuses_a_plain_function() -> None:
    from fastaccept import Renderers
    from fastaccept.asgi import dispatch, negotiated

    def greeting(scope: Any, receive: Any) -> str:
        return "hello"

    with pytest.raises(TypeError, match="greeting must be a coroutine function"):
        negotiated(Renderers({"text/plain": str}))(greeting)
    with pytest.raises(TypeError, match="must be a coroutine function"):
        dispatch({"text/plain": greeting})
    with pytest.raises(TypeError, match="the handler must be callable, not NoneType"):
        negotiated(Renderers({"text/plain": str}))(None)  # type: ignore[arg-type]
