"""``fastaccept.problem``: an error for any status, as problem+json (RFC 9457)
or plain text as Accept prefers (docs/rules.md rule 16), ``Vary: Accept``;
a bad argument refused with a clear error, nothing in Accept a raise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Renderers, problem

PREFERS_PROBLEM = "application/problem+json, text/plain;q=0.5"


def test_problem_json_with_every_member() -> None:
    sent = problem(
        409,
        PREFERS_PROBLEM,
        title="Name taken",
        detail="a user named ann exists",
        type="https://example.org/problems/taken",
        extensions={"name": "ann", "instance": "/users/ann"},
    )
    assert (sent.status, sent.ok) == (409, False)
    assert sent.headers["Content-Type"] == "application/problem+json"
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    assert json.loads(sent.body) == {
        "type": "https://example.org/problems/taken",
        "title": "Name taken",
        "status": 409,
        "detail": "a user named ann exists",
        "name": "ann",
        "instance": "/users/ann",
    }


def test_defaults_follow_rfc_9457() -> None:
    # about:blank, and its title the status phrase (RFC 9457 §4.2.1).
    body = json.loads(problem(404, "application/json").body)
    assert body == {"type": "about:blank", "title": "Not Found", "status": 404}


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "404 Not Found: no user 7\n"),
        ("text/html", "404 Not Found: no user 7\n"),  # never a 406 for an error
        ("text/plain, application/problem+json;q=0.5", "404 Not Found: no user 7\n"),
        ("a/b, " * 5000, "404 Not Found: no user 7\n"),  # over the limit: not read
    ],
)
def test_plain_text_where_accept_does_not_prefer_problem_json(
    accept: str | None, expected: str
) -> None:
    sent = problem(404, accept, detail="no user 7")
    assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert sent.body.decode() == expected
    assert sent.headers["Vary"] == "Accept"


def test_a_status_without_a_phrase_takes_its_class() -> None:
    assert problem(499, None).body == b"499 Client Error\n"


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"status": "404"}, TypeError, "status must be an int, not str"),
        ({"status": True}, TypeError, "status must be an int, not bool"),
        ({"status": 200}, ValueError, "an error's, 400 to 599, not 200"),
        ({"status": 600}, ValueError, "400 to 599"),
        ({"title": 3}, TypeError, "title must be a str or None, not int"),
        ({"detail": b"x"}, TypeError, "detail must be a str or None, not bytes"),
        ({"type": ["x"]}, TypeError, "type must be a str or None, not list"),
        ({"extensions": [("a", 1)]}, TypeError, "extensions must be a mapping"),
        ({"extensions": {1: "a"}}, TypeError, "a member name must be a str"),
        ({"extensions": {"status": 500}}, ValueError, "pass it as status="),
        ({"extensions": {"at": object()}}, ValueError, "value of 'at' is not JSON"),
        ({"extensions": {"x": float("nan")}}, ValueError, "value of 'x' is not JSON"),
    ],
)
def test_bad_arguments_are_named(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    given_arguments = {"status": 404, **arguments}
    status = given_arguments.pop("status")
    with pytest.raises(error, match=message):
        problem(status, None, **given_arguments)


def test_accept_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        problem(404, 3)  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    status=st.integers(-10, 1000) | st.sampled_from([True, "404", None]),
    accept=st.none() | st.text(max_size=60) | st.binary(max_size=60),
    title=st.none() | st.text() | st.integers(),
    detail=st.none() | st.text(),
    type_=st.none() | st.text(),
    extensions=st.none()
    | st.dictionaries(st.text(max_size=8), JSON_VALUES | st.just(float("inf"))),
)
def test_any_arguments_give_a_clear_error_or_a_well_formed_answer(
    status: Any, accept: Any, title: Any, detail: Any, type_: Any, extensions: Any
) -> None:
    try:
        sent = problem(
            status,
            accept,
            title=title,
            detail=detail,
            type=type_,
            extensions=extensions,
        )
    except (TypeError, ValueError) as error:
        assert str(error)  # says what is wrong
        return
    assert sent.status == status and 400 <= status <= 599
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    if sent.headers["Content-Type"] == "application/problem+json":
        body = json.loads(sent.body)
        assert body["status"] == status
        assert body.get("detail") == detail
        assert body["type"] == ("about:blank" if type_ is None else type_)
        assert {
            k: v
            for k, v in body.items()
            if k not in ("type", "title", "status", "detail")
        } == (extensions or {})
    else:
        assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert sent.body.decode().startswith(f"{status} ")


# --- negotiated(..., problems=True): the frameworks' own errors as problems --

GREETING_TYPES = {"application/json": json.dumps}


def _starlette(fastapi: bool) -> Any:
    if fastapi:
        pytest.importorskip("fastapi")
        from fastapi import FastAPI, HTTPException

        from fastaccept.fastapi import NegotiatedRoute, negotiated

        app = FastAPI()
        app.router.route_class = NegotiatedRoute

        @app.get("/users/{name}")
        @negotiated(Renderers(GREETING_TYPES), problems=True)
        def fastapi_user(name: str) -> dict[str, str]:
            raise HTTPException(404, "no such user", headers={"X-Why": "gone"})

        return _client(app)
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException as StarletteError
    from starlette.routing import Route

    from fastaccept.starlette import negotiated as starlette_negotiated

    @starlette_negotiated(Renderers(GREETING_TYPES), problems=True)
    async def starlette_user(request: Any) -> dict[str, str]:
        raise StarletteError(404, "no such user", headers={"X-Why": "gone"})

    return _client(Starlette(routes=[Route("/users/ann", starlette_user)]))


def _client(app: Any) -> Any:
    from starlette.testclient import TestClient

    return lambda method, accept: TestClient(app).request(
        method, "/users/ann", headers={} if accept is None else {"Accept": accept}
    )


def _flask() -> Any:
    pytest.importorskip("flask")
    from flask import Flask, abort

    from fastaccept.flask import negotiated

    app = Flask(__name__)

    @app.get("/users/ann")
    @negotiated(Renderers(GREETING_TYPES), problems=True)
    def flask_user() -> dict[str, str]:
        abort(404, "no such user")

    @app.errorhandler(404)
    def not_found(error: Any) -> tuple[str, int]:  # not run: a problem instead
        return "the app's page", 404

    client = app.test_client()
    return lambda method, accept: _werkzeug(
        client.open(
            "/users/ann",
            method=method,
            headers={} if accept is None else {"Accept": accept},
        )
    )


def _werkzeug(response: Any) -> Any:
    class Reply:
        status_code = response.status_code
        headers = response.headers
        content = response.data

    return Reply


def _falcon() -> Any:
    falcon = pytest.importorskip("falcon")
    testing = pytest.importorskip("falcon.testing")

    from fastaccept.falcon import negotiated

    class User:
        @negotiated(Renderers(GREETING_TYPES), problems=True)
        def on_get(self, req: Any, resp: Any) -> dict[str, str]:
            raise falcon.HTTPNotFound(
                description="no such user", headers={"X-Why": "gone"}
            )

        on_head = on_get

    app = falcon.App()
    app.add_route("/users/ann", User())
    client = testing.TestClient(app)

    def call(method: str, accept: str | None) -> Any:
        r = client.simulate_request(
            method, "/users/ann", headers={} if accept is None else {"Accept": accept}
        )

        class Reply:
            status_code = r.status_code
            headers = r.headers
            content = r.content

        return Reply

    return call


def _litestar() -> Any:
    pytest.importorskip("litestar")
    from litestar import Litestar, route
    from litestar.exceptions import NotFoundException
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @route("/users/ann", http_method=["GET", "HEAD"])
    @negotiated(Renderers(GREETING_TYPES), problems=True)
    async def litestar_user() -> dict[str, str]:
        raise NotFoundException("no such user", headers={"X-Why": "gone"})

    client = TestClient(Litestar([litestar_user], plugins=[NegotiationPlugin()]))
    return lambda method, accept: client.request(
        method, "/users/ann", headers={} if accept is None else {"Accept": accept}
    )


PROBLEM_APPS = {
    "starlette": lambda: _starlette(False),
    "fastapi": lambda: _starlette(True),
    "flask": _flask,
    "falcon": _falcon,
    "litestar": _litestar,
}


@pytest.mark.parametrize("framework", sorted(PROBLEM_APPS))
def test_a_frameworks_own_error_as_a_problem(framework: str) -> None:
    call = PROBLEM_APPS[framework]()
    as_json = call("GET", "application/json")  # rule 16: JSON, not text
    assert as_json.status_code == 404
    assert as_json.headers["content-type"] == "application/problem+json"
    assert json.loads(as_json.content)["detail"] == "no such user"
    if framework != "flask":  # werkzeug's errors carry no headers of their own
        assert as_json.headers["x-why"] == "gone"
    assert "accept" in as_json.headers["vary"].lower()
    as_text = call("GET", "text/plain, application/json;q=0.5")
    assert as_text.headers["content-type"] == "text/plain; charset=utf-8"
    assert as_text.content.startswith(b"404 Not Found")
    head = call("HEAD", "application/json")
    assert (head.status_code, head.content) == (404, b"")


def test_django_errors_as_problems() -> None:
    load_recipe = pytest.importorskip("tests.recipes").load_recipe
    load_recipe("django_app")  # configures Django's settings once
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.http import Http404
    from django.test import RequestFactory

    from fastaccept.django import negotiated

    raised: list[Exception] = []

    @negotiated(Renderers(GREETING_TYPES), problems=True)
    def view(request: Any) -> dict[str, str]:
        raise raised[0]

    factory = RequestFactory()
    for error, status, detail in [
        (Http404("no such user"), 404, "no such user"),
        (PermissionDenied(), 403, None),
        (SuspiciousOperation("internal detail"), 400, None),  # never shown
    ]:
        raised[:] = [error]
        response = view(factory.get("/", HTTP_ACCEPT="application/json"))
        assert response.status_code == status
        body = json.loads(response.content)
        assert body.get("detail") == detail
        assert "Accept" in response["Vary"]


def test_problems_must_be_a_bool() -> None:
    from fastaccept.wsgi import negotiated

    with pytest.raises(TypeError, match="problems must be True or False, not str"):
        negotiated(Renderers(GREETING_TYPES), problems="yes")  # type: ignore[arg-type]
