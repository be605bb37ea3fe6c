"""fastaccept.asgi and fastaccept.wsgi: negotiated endpoints, called as a server would."""

from __future__ import annotations

import asyncio
import enum
import io
import json
import warnings
from collections.abc import Callable
from typing import Any
from wsgiref.util import setup_testing_defaults
from wsgiref.validate import validator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastaccept import Answer, Consumes, Produces, Renderers, asgi, problem, wsgi
from fastaccept._endpoint import PROBLEM_CONTENT, REFUSAL_SCHEMA

from .conftest import websocket_sent

GREETING = Renderers(
    {
        "application/json": lambda data: json.dumps(data),
        "text/html; charset=utf-8": lambda data: f"<p>{data['greeting']}</p>",
    }
)
CREATED = Renderers({"application/json": lambda data: json.dumps(data)})
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])

#: What the handlers were called with (a refusal must not call them): one list
#: for the module, so under pytest-run-parallel its tests run alone.
CALLS: list[Any] = []
pytestmark = pytest.mark.thread_unsafe(reason="the handlers record calls in CALLS")

Headers = list[tuple[str, bytes]]
Reply = tuple[int, list[tuple[str, str]], bytes]
Call = Callable[[str, str, Headers], Reply]


def greeting_data() -> dict[str, str]:
    CALLS.append("greeting")
    return {"greeting": "hello"}


@wsgi.negotiated(GREETING, vary="Cookie")
def wsgi_greeting(environ: Any) -> Any:
    return greeting_data()


@wsgi.negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
def wsgi_messages(environ: Any) -> Any:
    CALLS.append(environ[wsgi.CONSUMED].media_type)
    return Answer({"created": True}, headers={"Location": "/messages/1"})


@asgi.negotiated(GREETING, vary="Cookie")
async def asgi_greeting(scope: Any, receive: Any) -> Any:
    return greeting_data()


@asgi.negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def asgi_messages(scope: Any, receive: Any) -> Any:
    CALLS.append(scope[asgi.CONSUMED].media_type)
    return Answer({"created": True}, headers={"Location": "/messages/1"})


def call_wsgi(method: str, path: str, headers: Headers, app: Any = None) -> Reply:
    environ: dict[str, Any] = {"REQUEST_METHOD": method, "PATH_INFO": path}
    environ.update(SCRIPT_NAME="", QUERY_STRING="")
    setup_testing_defaults(environ)
    environ["wsgi.input"] = io.BytesIO(b"{}")
    for name, value in headers:
        key = name.upper().replace("-", "_")
        key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"
        text = value.decode("latin-1")  # PEP 3333: header values as Latin-1 str
        environ[key] = f"{environ[key]}, {text}" if key in environ else text
    if app is None:
        app = wsgi_greeting if path == "/greeting" else wsgi_messages
    started: list[Any] = []

    # wsgiref's validator checks PEP 3333: a str status and header names and
    # values of type str (not a subclass), the response iterable closed.
    def start_response(status: str, items: list[tuple[str, str]]) -> Any:
        started.append((status, items))

    answer = validator(app)(environ, start_response)  # type: ignore[arg-type]
    body = b"".join(answer)
    answer.close()  # type: ignore[attr-defined]
    status, items = started[0]
    assert status.split(" ", 1)[1]  # "406 Not Acceptable"
    return int(status.split()[0]), items, body


def call_asgi(method: str, path: str, headers: Headers, app: Any = None) -> Reply:
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(name.encode(), value) for name, value in headers],
    }
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    if app is None:
        app = asgi_greeting if path == "/greeting" else asgi_messages
    asyncio.run(app(scope, receive, send))
    start, body = sent
    assert (
        start["type"] == "http.response.start" and body["type"] == "http.response.body"
    )
    names = [name for name, _ in start["headers"]]
    assert names == [name.lower() for name in names]  # the ASGI HTTP spec's case
    items = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start["headers"]]
    return start["status"], items, body["body"]


@pytest.fixture(params=[call_wsgi, call_asgi], ids=["wsgi", "asgi"])
def call(request: pytest.FixtureRequest) -> Call:
    CALLS.clear()
    return request.param  # type: ignore[no-any-return]


def header(items: list[tuple[str, str]], name: str) -> str:
    found = [value for key, value in items if key.lower() == name.lower()]
    assert len(found) == 1, (name, items)  # each header once
    return found[0]


def test_the_chosen_representation(call: Call) -> None:
    status, items, body = call("GET", "/greeting", [("accept", b"text/html")])
    assert status == 200
    assert header(items, "Content-Type") == "text/html; charset=utf-8"
    assert header(items, "Content-Length") == str(len(body))
    assert header(items, "Vary") == "Cookie, Accept"  # one Vary, the app's kept
    assert body == b"<p>hello</p>"
    status, items, body = call("GET", "/greeting", [])  # absent: the first offer
    assert header(items, "Content-Type") == "application/json"
    assert json.loads(body) == {"greeting": "hello"}


def test_head_is_get_without_a_body(call: Call) -> None:
    get = call("GET", "/greeting", [("accept", b"application/json")])
    head = call("HEAD", "/greeting", [("accept", b"application/json")])
    assert head[:2] == get[:2]
    assert head[2] == b""


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        (b"image/png, application/problem+json;q=0.5", "application/problem+json"),
        (b"image/png", "text/plain; charset=utf-8"),
    ],
)
def test_406_without_calling_the_handler(
    call: Call, accept: bytes, content_type: str
) -> None:
    status, items, body = call("GET", "/greeting", [("accept", accept)])
    assert status == 406
    assert header(items, "Content-Type") == content_type
    assert header(items, "Vary") == "Cookie, Accept"
    assert b"text/html; charset=utf-8" in body
    if content_type == "application/problem+json":
        assert json.loads(body)["status"] == 406
    assert CALLS == []


def test_415_as_problem_json_without_calling_the_handler(call: Call) -> None:
    headers = [("content-type", b"text/plain"), ("accept", b"application/json")]
    status, items, body = call("POST", "/messages", headers)
    assert status == 415
    assert header(items, "Content-Type") == "application/problem+json"
    assert header(items, "Accept") == MESSAGE_TYPES.accept
    assert header(items, "Vary") == "Accept"
    assert json.loads(body)["acceptable"] == list(MESSAGE_TYPES.media_types)
    assert CALLS == []


@pytest.mark.parametrize(
    ("method", "field", "value"),
    [
        ("POST", "Accept-Post", MESSAGE_TYPES.accept_post),
        ("PATCH", "Accept-Patch", MESSAGE_TYPES.accept_patch),
        ("QUERY", "Accept-Query", MESSAGE_TYPES.accept_query),
        ("PUT", None, None),
    ],
)
@pytest.mark.parametrize("content_type", [b"text/csv", None])
@pytest.mark.filterwarnings(
    "ignore:Unknown REQUEST_METHOD:wsgiref.validate.WSGIWarning"
)
def test_415_names_the_methods_own_header(
    call: Call,
    method: str,
    field: str | None,
    value: str | None,
    content_type: bytes | None,
) -> None:
    headers = [] if content_type is None else [("content-type", content_type)]
    status, items, _ = call(method, "/messages", headers)
    assert status == 415
    assert header(items, "Accept") == MESSAGE_TYPES.accept
    names = {name.lower() for name, _ in items}
    added = names & {"accept-post", "accept-patch", "accept-query"}
    if field is None:
        assert not added
    else:
        assert added == {field.lower()}
        assert header(items, field) == value
    assert CALLS == []


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/greeting", [("accept", b"image/png")]),  # 406
        ("/messages", [("content-type", b"text"), ("accept", b"text/plain")]),
        ("/messages", [("accept", b"text/plain")]),  # 415: no Content-Type
    ],
)
def test_a_refusal_is_sent_as_built_with_the_endpoint(
    call: Call, path: str, headers: Headers
) -> None:
    # The endpoint finished its refusals once: each request sends the same body.
    first = call("POST" if path == "/messages" else "GET", path, headers)
    again = call("POST" if path == "/messages" else "GET", path, headers)
    assert first[0] in (406, 415)
    assert again == first and again[2] is first[2]


def test_a_415_names_the_type_received_and_nothing_else(call: Call) -> None:
    # Its type and subtype (tokens) only: a parameter's value is not sent back.
    headers = [("content-type", b'Text/CSV; x="<b>"'), ("accept", b"text/plain")]
    status, _, body = call("POST", "/messages", headers)
    assert status == 415
    assert b"Content-Type (text/csv) is not one this resource accepts" in body
    assert b"<b>" not in body


def test_an_accepted_body_reaches_the_handler(call: Call) -> None:
    headers = [("content-type", b"application/json; charset=utf-8")]
    status, items, body = call("POST", "/messages", headers)
    assert status == 201
    assert header(items, "Content-Type") == "application/json"
    assert header(items, "Location") == "/messages/1"  # the handler's Answer
    assert json.loads(body) == {"created": True}
    assert CALLS == ["application/json"]


def test_several_accept_lines_are_one_list(call: Call) -> None:
    headers = [("accept", b"image/png"), ("accept", b"text/html")]
    status, items, _ = call("GET", "/greeting", headers)
    assert (status, header(items, "Content-Type")) == (200, "text/html; charset=utf-8")


def test_an_over_long_accept_is_431(call: Call) -> None:
    status, items, _ = call("GET", "/greeting", [("accept", b"a/b, " * 2000)])
    assert status == 431
    assert header(items, "Content-Type") == "text/plain; charset=utf-8"


HOSTILE = st.binary(max_size=40) | st.sampled_from(
    [b"\x00", b"\xff/\xfe", b'a/b;p="', b"*/*;q=" + b"9" * 50, b",,,;;;", b"\r\n"]
)


@settings(max_examples=150)
@given(HOSTILE, HOSTILE, st.sampled_from(["GET", "HEAD", "POST", "PATCH"]))
def test_no_request_header_makes_an_endpoint_fail(
    accept: bytes, content_type: bytes, method: str
) -> None:
    headers = [("accept", accept), ("content-type", content_type)]
    for adapter in (call_wsgi, call_asgi):
        for path in ("/greeting", "/messages"):
            status, items, body = adapter(method, path, headers)
            assert status in (200, 201, 406, 415, 431)
            if method == "HEAD":  # the length of GET's body, sent without it
                assert body == b""
                got = adapter("GET", path, headers)
                assert (got[0], header(items, "Content-Length")) == (
                    status,
                    str(len(got[2])),
                )
            else:
                assert header(items, "Content-Length") == str(len(body))


class Media(str, enum.Enum):
    """Media types named as many applications name them."""

    JSON = "application/json"
    TEXT = "text/plain; charset=utf-8"


@pytest.mark.parametrize("module", [wsgi, asgi])
def test_a_str_enum_offer_is_sent_as_its_text(module: Any) -> None:
    """The headers and a 406's list give an offer's text: a str subclass
    reaching a WSGI server breaks PEP 3333, and its str() is "Media.JSON"."""
    renderers = Renderers({Media.JSON: json.dumps, Media.TEXT: str})

    def data(*request: Any) -> dict[str, int]:
        return {"ok": 1}

    async def data_async(*request: Any) -> dict[str, int]:
        return data()

    app = module.negotiated(renderers)(data if module is wsgi else data_async)
    adapter = call_wsgi if module is wsgi else call_asgi
    ok = adapter("GET", "/", [("accept", b"text/plain")], app)
    refused = adapter("GET", "/", [("accept", b"image/png")], app)
    assert header(ok[1], "Content-Type") == "text/plain; charset=utf-8"
    assert refused[0] == 406
    assert refused[2].decode().splitlines()[1:] == [Media.JSON.value, Media.TEXT.value]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("module", [wsgi, asgi])
def test_a_returned_problem_is_sent_as_it_is(module: Any, method: str) -> None:
    """A whole ``Rendered`` the handler returns (``problem``'s) is sent as it
    is, the endpoint's ``Vary`` merged in, no body to HEAD."""
    made = problem(404, "application/json", detail="no item 7")

    def handler(*request: Any) -> Any:
        return made

    async def handler_async(*request: Any) -> Any:
        return made

    app = module.negotiated(GREETING, vary="Cookie")(
        handler if module is wsgi else handler_async
    )
    adapter = call_wsgi if module is wsgi else call_asgi
    status, items, body = adapter(method, "/", [("accept", b"text/html")], app)
    assert status == 404
    assert {name.lower(): value for name, value in items} == {
        "content-type": made.headers["Content-Type"],
        "content-length": str(len(made.body)),
        "vary": "Accept, Cookie",
    }
    assert body == (b"" if method == "HEAD" else made.body)


@pytest.mark.parametrize("answered", [False, True])
@pytest.mark.parametrize("module", [wsgi, asgi])
def test_a_coroutine_returned_unawaited_is_an_error_not_data(
    module: Any, answered: bool
) -> None:
    async def load() -> dict[str, int]:
        return {"ok": 1}

    def handler(*request: Any) -> Any:
        return Answer(load()) if answered else load()  # await forgotten

    async def handler_async(*request: Any) -> Any:
        return handler()

    app = module.negotiated(GREETING)(handler if module is wsgi else handler_async)
    adapter = call_wsgi if module is wsgi else call_asgi
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # closed: no "never awaited" warning
        with pytest.raises(TypeError, match=r"coroutine .*load\(\): await it"):
            adapter("GET", "/", [("accept", b"text/html")], app)


@pytest.mark.parametrize("answered", [False, True])
def test_an_async_generator_returned_is_an_error_not_data(answered: bool) -> None:
    """No renderer can iterate it: its repr was the body of a 200."""

    async def rows() -> Any:
        yield {"greeting": "hi"}

    async def handler(*request: Any) -> Any:
        return Answer(rows()) if answered else rows()

    app = asgi.negotiated(Renderers({"text/plain": str}))(handler)
    with pytest.raises(TypeError, match=r"async generator .*rows\(\): return its"):
        call_asgi("GET", "/", [("accept", b"text/plain")], app)


def test_field_lines_given_as_a_generator_are_all_read() -> None:
    # ASGI's scope["headers"] is any iterable: one a middleware made as a
    # generator was spent reading Accept, so Content-Type read as missing (415).
    lines = [(b"content-type", b"application/json"), (b"accept", b"*/*")]
    scope: dict[str, Any] = {
        "type": "http",
        "method": "POST",
        "path": "/messages",
        "headers": (line for line in lines),
    }
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    CALLS.clear()
    asyncio.run(asgi_messages(scope, receive, send))
    assert sent[0]["status"] == 201 and CALLS == ["application/json"]
    assert scope["headers"] == lines  # kept for the handler and the rest


def test_only_http_scopes_are_served() -> None:
    async def run() -> None:
        await asgi_greeting({"type": "lifespan"}, None, None)  # type: ignore[arg-type]

    with pytest.raises(ValueError, match="serves HTTP requests, not 'lifespan'"):
        asyncio.run(run())


def test_a_websocket_is_closed_before_it_is_accepted() -> None:
    # A client's upgrade request: websocket.close before websocket.accept is
    # a 403 (the ASGI spec), not the 500 of the ValueError it was.
    CALLS.clear()
    sent = websocket_sent(asgi_greeting, {"type": "websocket.connect"})
    assert sent == [{"type": "websocket.close", "code": 1008}]
    assert CALLS == []


def test_a_websocket_gone_before_it_connected_is_sent_nothing() -> None:
    # Its first event a disconnect: the ASGI spec has send() raise after it
    # (2.4), so no websocket.close is sent to a client that is gone.
    gone = {"type": "websocket.disconnect", "code": 1006}
    assert websocket_sent(asgi_greeting, gone) == []


#: JSON Schema's types of the values json.loads gives.
JSON_TYPES = {"string": str, "integer": int, "array": list}


def test_the_openapi_refusal_schema_holds_every_refusal_body() -> None:
    """The schema FastAPI's and Litestar's documents give each refusal
    (406, 415, 431) names every member a refusal's problem+json has, of its
    type, and requires those every one has."""
    produces = Produces(["application/json", "text/html"], formats=True)
    consumes = Consumes(["application/json"])
    problem_json = "application/problem+json"
    decisions = {
        "406, Accept": produces.select(f"{problem_json}, image/png"),
        "406, a format name": produces.select(problem_json, format="pdf"),
        "415": consumes.check("text/csv", problem_json),
        "431": consumes.check("application/json;x=" + "a" * 9_000, problem_json),
    }
    properties = REFUSAL_SCHEMA["properties"]
    for name, decision in decisions.items():
        assert decision.headers["Content-Type"] == problem_json, name
        body = json.loads(decision.body)
        assert set(REFUSAL_SCHEMA["required"]) <= set(body) <= set(properties), name
        for member, value in body.items():
            schema = properties[member]
            assert isinstance(value, JSON_TYPES[schema["type"]]), (name, member)
            if isinstance(value, list):  # an array of strings
                assert all(isinstance(item, str) for item in value), (name, member)
    # an error's problem (problems=True) lists no media types nor formats
    error_schema: Any = PROBLEM_CONTENT[problem_json]["schema"]
    assert set(error_schema["properties"]) == {"type", "title", "status", "detail"}


@pytest.mark.parametrize(
    ("status", "varied"),
    [(200, False), (399, False), (400, True), (599, True), (600, False)],
)
def test_asgi_varying_errors_varies_an_error_status_alone(
    status: int, varied: bool
) -> None:
    # An error's answer, 400-599 (_problems.is_error_status), gets the route's Vary.
    from fastaccept._render import Finished

    finished = Finished(Renderers({"application/json": json.dumps}), None)
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def sending() -> None:
        start = {"type": "http.response.start", "status": status, "headers": []}
        await asgi.varying_errors(send, {}, finished)(start)

    asyncio.run(sending())
    assert sent[0]["headers"] == ([(b"vary", b"Accept")] if varied else [])


def test_a_tuple_a_handler_returns_is_its_data(call: Call) -> None:
    # Binding.returned_tuple: a JSON array outside Flask, whose views read a
    # tuple as (body, status, headers) (tests/test_framework_modules.py).
    def handler(*request: Any) -> Any:
        return (1, "a")

    async def async_handler(*request: Any) -> Any:
        return (1, "a")

    renderers = Renderers({"application/json": json.dumps})
    lines = [("accept", b"application/json")]
    if call is call_wsgi:
        status, _, body = call_wsgi(
            "GET", "/", lines, wsgi.negotiated(renderers)(handler)
        )
    else:
        app = asgi.negotiated(renderers)(async_handler)
        status, _, body = call_asgi("GET", "/", lines, app)
    assert (status, json.loads(body)) == (200, [1, "a"])
