"""The framework recipes over a real socket: uvicorn, waitress and aiohttp's
own server on 127.0.0.1.

Each recipe in examples/frameworks is served once for the module, on a free
loopback port: the ASGI ones (plain ASGI, Starlette, FastAPI, Litestar) by
uvicorn, the WSGI ones (plain WSGI, Flask, Django, falcon) by waitress,
aiohttp's by aiohttp (``web.AppRunner``), each in a thread of this process.
http.client talks to them, so every header line goes on the wire as written:
several ``Accept`` lines, raw bytes. What is checked is what a client sees:
the 406 and 415 as ``application/problem+json`` or plain text, HEAD
answered like GET without a body, one ``Accept`` in ``Vary`` with the other
tokens kept, and FastAPI's and Litestar's OpenAPI documents.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest

from .recipes import (
    AIOHTTP_RECIPES,
    ASGI_RECIPES,
    BODY_TYPES,
    CREATED_OFFERS,
    FRAMEWORK_RECIPES,
    NEEDS,
    OFFERS,
    ORIGIN,
    PROBLEM_406,
    Call,
    Headers,
    Reply,
    assert_created,
    assert_greeting,
    assert_plain_refusal,
    assert_problem,
    assert_vary,
    check_format_override,
    check_raised_error,
    get,
    has_controls,
    joined,
    load_recipe,
    post,
    refused_by_the_server,
)
from .servers import (
    TIMEOUT,
    aiohttp_serving,
    exchange,
    uvicorn_serving,
    waitress_serving,
    wsgiref_serving,
)

pytestmark = pytest.mark.thread_unsafe(
    reason="starts a server per recipe on a loopback port, for the module"
)


def over_http(port: int) -> Call:
    """Requests with http.client: one connection each, header lines as given."""

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            if body or method == "POST":
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body or None)
            response = connection.getresponse()
            return Reply(
                response.status, joined(response.getheaders()), response.read()
            )
        finally:
            connection.close()

    return call


@pytest.fixture(scope="module", params=sorted(NEEDS))
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, int]]:
    """A recipe's name and the port it is served on."""
    name: str = request.param
    module = load_recipe(name)
    serving: Callable[[Any], AbstractContextManager[int]] = waitress_serving
    if name in AIOHTTP_RECIPES:  # a new app: aiohttp binds one to its event loop
        app, serving = module.make_app(), aiohttp_serving
    else:
        app = module.application if name == "django_app" else module.app
        if name in ASGI_RECIPES:
            serving = uvicorn_serving
    with serving(app) as port:
        yield name, port


@pytest.fixture(scope="module")
def recipe(served: tuple[str, int]) -> str:
    return served[0]


@pytest.fixture(scope="module")
def call(served: tuple[str, int]) -> Call:
    return over_http(served[1])


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        (None, "application/json"),
        ("application/json", "application/json"),
        ("text/html", "text/html; charset=utf-8"),
        ("text/html;q=0.5, application/json;q=0.9", "application/json"),
        ("image/png, text/*;q=0.1", "text/html; charset=utf-8"),
    ],
)
def test_get_greeting_negotiates(
    call: Call, recipe: str, accept: str | None, chosen: str
) -> None:
    reply = get(call) if accept is None else get(call, accept)
    assert_greeting(reply, chosen)
    assert_vary(reply, recipe)


def test_several_accept_lines_are_one_list(call: Call) -> None:
    # RFC 9110 §5.3: the server joins them (WSGI) or the integration does (ASGI).
    assert_greeting(get(call, "image/png", "text/html"), OFFERS[1])


def test_406_as_problem_json(call: Call, recipe: str) -> None:
    reply = get(call, PROBLEM_406)
    assert_problem(reply, 406, OFFERS)
    assert_vary(reply, recipe)


def test_406_as_plain_text(call: Call, recipe: str) -> None:
    reply = get(call, "image/png")
    assert_plain_refusal(reply, 406, OFFERS)
    assert_vary(reply, recipe)


def test_415_as_problem_json_with_accept(call: Call, recipe: str) -> None:
    reply = post(call, "text/plain", "application/json", body=b"hello")
    assert_problem(reply, 415, BODY_TYPES)
    assert reply.headers["accept"] == ", ".join(BODY_TYPES)
    assert reply.headers["accept-post"] == ", ".join(BODY_TYPES)  # W3C LDP §7.1
    assert_vary(reply, recipe, "/messages")


@pytest.mark.parametrize(
    ("content_type", "accept", "chosen"),
    [
        ("application/json", None, "application/json"),
        ("application/x-www-form-urlencoded", "text/plain", CREATED_OFFERS[1]),
    ],
)
def test_post_messages_creates(
    call: Call, recipe: str, content_type: str, accept: str | None, chosen: str
) -> None:
    reply = post(call, content_type, accept)
    assert_created(reply, chosen)
    assert_vary(reply, recipe, "/messages")


@pytest.mark.parametrize("accept", [*OFFERS, "image/png", PROBLEM_406])
def test_head_is_answered_like_get(call: Call, recipe: str, accept: str) -> None:
    got = get(call, accept)
    head = get(call, accept, method="HEAD")
    assert head.status == got.status
    for name in ("content-type", "content-length", "vary"):
        assert head.headers[name] == got.headers[name], name
    assert int(head.headers["content-length"]) == len(got.body) > 0
    assert_vary(head, recipe)


def test_head_then_get_on_one_connection(served: tuple[str, int]) -> None:
    # Had HEAD sent its body, the GET after it would read that as its answer.
    connection = http.client.HTTPConnection("127.0.0.1", served[1], timeout=TIMEOUT)
    try:
        answers = []
        for method in ("HEAD", "GET", "HEAD", "GET"):
            connection.request(method, "/greeting", headers={"Accept": "text/html"})
            response = connection.getresponse()
            answers.append((method, response.status, response.read()))
    finally:
        connection.close()
    html = b"<p>hello</p>"
    assert answers == [("HEAD", 200, b""), ("GET", 200, html)] * 2


def head_on_the_wire(port: int, path: bytes) -> tuple[bytes, bytes]:
    """A HEAD's status line and fields, and the bytes after them: http.client
    reads no body after HEAD whatever follows, so the socket is read."""
    request = (
        b"HEAD " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Accept: text/html\r\nConnection: close\r\n\r\n"
    )
    head, _, body = exchange(port, request).partition(b"\r\n\r\n")
    return head, body


def test_head_sends_no_body_on_the_wire(served: tuple[str, int]) -> None:
    head, body = head_on_the_wire(served[1], b"/greeting")
    assert head.startswith(b"HTTP/1.1 200 ")
    assert b"\r\ncontent-length: 12" in head.lower()
    assert body == b""


@pytest.mark.parametrize("recipe_name", ["asgi_app", "wsgi_app"])
def test_the_plain_apps_own_refusals_send_no_body_on_the_wire(
    recipe_name: str,
) -> None:
    # Their router's 404 and 405: without a Content-Length, waitress chunked
    # the empty HEAD body and sent its last chunk, b"0\r\n\r\n", after the head.
    module = load_recipe(recipe_name)
    serving = uvicorn_serving if recipe_name in ASGI_RECIPES else waitress_serving
    with serving(module.app) as port:
        for path, status in ((b"/nowhere", b"404"), (b"/messages", b"405")):
            head, body = head_on_the_wire(port, path)
            assert head.startswith(b"HTTP/1.1 " + status + b" "), head
            assert body == b"", (path, body)


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        (b"\xff\xfe\x80", b"\xff/\xfe"),
        (b"text/html;q=abc, \x01\x7f", b"application/json; charset=\x00"),
        (b'a/b;p="', b'application/json; x="'),
        (b"text/html, " * 800, b"application/json;" + b"x=y;" * 2250),
    ],
)
def test_hostile_headers_are_never_a_500(
    call: Call, recipe: str, accept: bytes, content_type: bytes
) -> None:
    # Control bytes are not field content (RFC 9110 §5.5): a server may answer
    # 400 itself (uvicorn's h11 does) or pass them on (waitress does).
    controls = has_controls(accept, content_type)
    answers = {200, 201, 406, 415, 431} | ({400} if controls else set())

    def attempt(method: str, path: str, headers: Headers) -> Reply:
        try:
            return call(method, path, headers, b"{}" if method == "POST" else b"")
        except ConnectionError:
            # h11 answers 400 and closes before reading the body: a reset.
            if not controls:
                raise
            return Reply(400, {}, b"")

    headers = [("origin", ORIGIN.encode()), ("accept", accept)]
    headers += [("content-type", content_type)]
    for method, path in (("GET", "/greeting"), ("POST", "/messages")):
        reply = attempt(method, path, headers)
        assert reply.status in answers, reply.body
        if reply.status != 400:
            assert_vary(reply, recipe, path)
    several = [("origin", ORIGIN.encode()), ("accept", accept), ("accept", accept)]
    several += [("accept", b"text/html")]
    reply = attempt("GET", "/greeting", several)
    assert reply.status in answers, reply.body
    lines = [("content-type", b"application/json"), ("content-type", content_type)]
    reply = attempt("POST", "/messages", lines)
    refused = {400} if refused_by_the_server(recipe, lines) else set()
    assert reply.status in (answers - {201}) | refused, reply.body


#: Where a recipe's app serves its OpenAPI document.
OPENAPI_PATHS = {"fastapi_app": "/openapi.json", "litestar_app": "/schema/openapi.json"}


@pytest.mark.parametrize("served", sorted(OPENAPI_PATHS), indirect=True)
def test_the_openapi_document_is_served(call: Call, recipe: str) -> None:
    reply = call("GET", OPENAPI_PATHS[recipe], [], b"")
    assert reply.status == 200
    paths = json.loads(reply.body)["paths"]
    greeting = paths["/greeting"]["get"]["responses"]
    assert list(greeting["200"]["content"]) == list(OFFERS)
    assert "application/problem+json" in greeting["406"]["content"]
    messages = paths["/messages"]["post"]["responses"]
    assert list(messages["201"]["content"]) == list(CREATED_OFFERS)
    for status in ("406", "415", "431"):
        assert "application/problem+json" in messages[status]["content"]
    # A 415 to POST names the types taken twice: Accept and Accept-Post.
    assert list(messages["415"]["headers"]) == ["Accept", "Accept-Post"]


def test_a_format_parameter_beats_accept(call: Call, recipe: str) -> None:
    check_format_override(call, recipe)


@pytest.mark.parametrize("served", FRAMEWORK_RECIPES, indirect=True)
def test_a_raised_error_varies_on_accept(call: Call, recipe: str) -> None:
    check_raised_error(call, recipe)


@pytest.mark.parametrize("served", ["fastapi_app"], indirect=True)
def test_fastapi_405_allows_head(call: Call) -> None:
    # NegotiatedRoute answers HEAD on a GET route: Allow says so (RFC 9110 §15.5.6).
    reply = call("DELETE", "/greeting", [], b"")
    assert (reply.status, reply.headers["allow"]) == (405, "GET, HEAD")


@pytest.mark.parametrize(
    "server", ["uvicorn h11", "uvicorn httptools", "waitress", "wsgiref"]
)
def test_a_415_to_query_names_accept_query_on_the_wire(server: str) -> None:
    # RFC 10008 §3: a QUERY whose body type is not taken gets Accept-Query.
    from fastaccept import Consumes, Renderers

    renderers = Renderers({"application/json": json.dumps})
    taken = Consumes(["application/sql", "application/jsonpath"])
    if server.startswith("uvicorn"):
        from fastaccept.asgi import negotiated as asgi_negotiated

        @asgi_negotiated(renderers, consumes=taken)
        async def asgi_query(scope: object, receive: object) -> dict[str, int]:
            return {"rows": 0}

        serving = uvicorn_serving(asgi_query, http=server.split()[1])
    else:
        from fastaccept.wsgi import negotiated as wsgi_negotiated

        @wsgi_negotiated(renderers, consumes=taken)
        def wsgi_query(environ: object) -> dict[str, int]:
            return {"rows": 0}

        serve = waitress_serving if server == "waitress" else wsgiref_serving
        serving = serve(wsgi_query)
    with serving as port:
        reply = over_http(port)("QUERY", "/rows", [("content-type", b"text/csv")], b"x")
        accepted = over_http(port)(
            "QUERY", "/rows", [("content-type", b"application/sql")], b"SELECT 1"
        )
    assert reply.status == 415
    assert reply.headers["accept-query"] == "application/sql, application/jsonpath"
    assert "accept-post" not in reply.headers
    assert (accepted.status, json.loads(accepted.body)) == (200, {"rows": 0})


#: The test apps of negotiated routes, and the status their framework gives
#: a bad query parameter before the handler runs.
PARAMETER_ERRORS = {"negotiated_fastapi_app": 422, "negotiated_litestar_app": 400}


@pytest.mark.filterwarnings(
    "ignore:.*(inferred|without a body marker):DeprecationWarning"  # Litestar 2.25
)
@pytest.mark.parametrize("http", ["h11", "httptools"])
@pytest.mark.parametrize("module", sorted(PARAMETER_ERRORS))
def test_a_parameter_error_varies_on_accept_on_the_wire(http: str, module: str) -> None:
    # Made by the framework before the handler runs: NegotiatedRoute (FastAPI)
    # and NegotiationPlugin (Litestar) add the Vary.
    pytest.importorskip(module.split("_")[1])
    app = importlib.import_module(f"tests.{module}").app
    with uvicorn_serving(app, http=http) as port:
        reply = over_http(port)("GET", "/greeting/bob?loud=maybe", [], b"")
    assert reply.status == PARAMETER_ERRORS[module]
    assert [t.strip().lower() for t in reply.headers["vary"].split(",")] == [
        "cookie",
        "accept",
    ]


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_a_websocket_upgrade_is_refused_with_403(http: str) -> None:
    # The endpoint closes the websocket before accepting it, which uvicorn
    # answers with 403 (the ASGI spec); the ValueError it raised was a 500.
    # Without a websocket library uvicorn answers the upgrade as plain HTTP.
    if not any(importlib.util.find_spec(name) for name in ("websockets", "wsproto")):
        pytest.skip(
            "uvicorn serves websockets with websockets or wsproto: neither here"
        )
    from fastaccept import Renderers
    from fastaccept.asgi import negotiated

    @negotiated(Renderers({"application/json": json.dumps}))
    async def greeting(scope: object, receive: object) -> dict[str, str]:
        return {"greeting": "hello"}

    upgrade = (
        b"GET /greeting HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
        b"Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    with uvicorn_serving(greeting, http=http) as port:
        answer = exchange(port, upgrade)
    assert answer.startswith(b"HTTP/1.1 403 "), answer
