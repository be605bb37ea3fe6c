"""The framework recipes in examples/frameworks, each through its own test client.

Every recipe serves ``GET /greeting`` (JSON or HTML by Accept) and
``POST /messages`` (JSON or form content) with the framework's integration
(``fastaccept.asgi``, ``.wsgi``, ``.starlette``, ``.fastapi``, ``.flask``,
``.django``, ``.falcon``, ``.litestar``, ``.aiohttp``). The same checks run
against each: negotiation, HEAD, ``Vary``, 406 and 415 as plain text or
problem+json, 431, and hostile input that must never become a 500.
tests/test_sockets.py serves the same recipes on uvicorn, waitress and
aiohttp's own server.
"""

from __future__ import annotations

import asyncio
import json
import warnings
import weakref
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastaccept import BROWSER_DEFAULTS

from .conftest import load_example, release, websocket_sent
from .recipes import (
    BODY_TYPES,
    CREATED_OFFERS,
    FRAMEWORK_RECIPES,
    JDK_LEGACY,
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
from .servers import loop_thread, run_in
from .test_sockets import over_http


def httpx_call(client: Any) -> Call:
    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        lines = [(name.encode(), value) for name, value in headers]
        r = client.request(
            method, path, headers=lines, content=body, follow_redirects=False
        )
        return Reply(r.status_code, joined(r.headers.multi_items()), r.content)

    return call


def asgi_call(app: Any) -> Call:
    """Plain ASGI: httpx's ASGI transport, the client every ASGI test suite uses."""
    httpx = pytest.importorskip("httpx")

    async def request(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            lines = [(name.encode(), value) for name, value in headers]
            r = await c.request(method, path, headers=lines, content=body)
        return Reply(r.status_code, joined(r.headers.multi_items()), r.content)

    return lambda *args: asyncio.run(request(*args))


def starlette_call(app: Any) -> Call:
    with warnings.catch_warnings():
        # Recent Starlette asks for httpx2, whose recent releases need Python
        # 3.11; httpx serves on 3.10.
        warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
        from starlette.testclient import TestClient

    return httpx_call(TestClient(app, raise_server_exceptions=True))


def werkzeug_call(client: Any) -> Call:
    """Flask's test client, and werkzeug's (its base) for plain WSGI.

    httpx's WSGI transport refuses non-ASCII header bytes before the app sees
    them; werkzeug passes them on as Latin-1, as WSGI servers do.
    """

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        r = client.open(path, method=method, headers=joined(headers), data=body)
        return Reply(r.status_code, joined(r.headers.items()), r.data)

    return call


def wsgi_call(app: Any) -> Call:
    """Plain WSGI through werkzeug's test client (Flask's base)."""
    werkzeug_test = pytest.importorskip("werkzeug.test")
    return werkzeug_call(werkzeug_test.Client(app))


def django_call(module: ModuleType) -> Call:
    import django
    from django.test import Client

    django.setup()
    client = Client(raise_request_exception=True)

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        fields = joined(headers)
        content_type = fields.pop("content-type", "")
        r = client.generic(method, path, body, content_type, headers=fields)
        return Reply(r.status_code, joined(r.headers.items()), r.content)

    return call


def falcon_call(app: Any) -> Call:
    from falcon.testing import TestClient

    client = TestClient(app)

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        r = client.simulate_request(method, path, headers=joined(headers), body=body)
        return Reply(r.status_code, joined(r.headers.items()), r.content)

    return call


def litestar_call(app: Any) -> Call:
    """Litestar's own test client (httpx through its ASGI transport)."""
    from litestar.testing import TestClient

    return httpx_call(TestClient(app, raise_server_exceptions=True))


def aiohttp_call(app: Any) -> Call:
    """aiohttp's ``TestClient`` and ``TestServer`` (a real socket), on an event
    loop in a thread, closed when the call is dropped. The client sends header
    values as UTF-8 and refuses control characters: a request with a byte
    beyond ASCII or a control goes over http.client, as written, to the same
    server."""
    test_utils = pytest.importorskip("aiohttp.test_utils")
    stack = ExitStack()
    loop = stack.enter_context(loop_thread())

    async def start() -> Any:
        client = test_utils.TestClient(test_utils.TestServer(app))
        await client.start_server()
        return client

    client = run_in(loop, start())
    stack.callback(lambda: run_in(loop, client.close()))
    raw = over_http(client.port)
    automatic = ("Accept", "Accept-Encoding", "Content-Type", "User-Agent")

    async def request(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        lines = [(name, value.decode("ascii")) for name, value in headers]
        r = await client.request(
            method,
            path,
            headers=lines,
            data=body,
            skip_auto_headers=automatic,
            allow_redirects=False,
        )
        fields = [(name.decode("latin-1"), value) for name, value in r.raw_headers]
        return Reply(r.status, joined(fields), await r.read())

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        values = [value for _, value in headers]
        if not all(value.isascii() for value in values) or has_controls(*values):
            return raw(method, path, headers, body)
        return run_in(loop, request(method, path, headers, body))

    weakref.finalize(call, stack.close)
    return call


CLIENTS: dict[str, Callable[[ModuleType], Call]] = {
    "asgi_app": lambda m: asgi_call(m.app),
    "starlette_app": lambda m: starlette_call(m.app),
    "fastapi_app": lambda m: starlette_call(m.app),
    "wsgi_app": lambda m: wsgi_call(m.app),
    "flask_app": lambda m: werkzeug_call(m.app.test_client()),
    "django_app": django_call,
    "falcon_app": lambda m: falcon_call(m.app),
    "litestar_app": lambda m: litestar_call(m.app),
    "aiohttp_app": lambda m: aiohttp_call(m.make_app()),
}
assert set(CLIENTS) == set(NEEDS)
#: Recipes whose clients can send one header in several field lines.
MULTI_LINE = ("asgi_app", "starlette_app", "fastapi_app", "litestar_app", "aiohttp_app")


@pytest.fixture(scope="module", params=sorted(CLIENTS))
def recipe(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def call(recipe: str) -> Iterator[Call]:
    yield CLIENTS[recipe](load_recipe(recipe))


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        ("application/json", "application/json"),
        ("text/html", "text/html; charset=utf-8"),
        ("*/*", "application/json"),  # curl
        (JDK_LEGACY, "text/html; charset=utf-8"),
        ("text/html;q=0.5, application/json;q=0.9", "application/json"),
        ("text/html;charset=UTF-8", "text/html; charset=utf-8"),
        ("image/png, text/*;q=0.1", "text/html; charset=utf-8"),
    ],
)
def test_negotiates_the_media_type(
    call: Call, recipe: str, accept: str, chosen: str
) -> None:
    reply = get(call, accept)
    assert_greeting(reply, chosen)
    assert_vary(reply, recipe)


def test_no_accept_header_gets_the_first_offer(call: Call) -> None:
    assert_greeting(get(call), "application/json")


@pytest.mark.parametrize("context", sorted(BROWSER_DEFAULTS))
def test_browser_defaults(call: Call, context: str) -> None:
    value = BROWSER_DEFAULTS[context]
    chosen = OFFERS[1] if "text/html" in value else OFFERS[0]
    assert_greeting(get(call, value), chosen)


@pytest.mark.parametrize("name", MULTI_LINE)
def test_several_accept_lines_count_as_one_list(name: str) -> None:
    call = CLIENTS[name](load_recipe(name))
    # RFC 9110 §5.3: two lines are the list "image/png, text/html".
    assert_greeting(get(call, "image/png", "text/html"), OFFERS[1])


@pytest.mark.parametrize("accept", [*OFFERS, "image/png", PROBLEM_406])
def test_head_is_get_without_a_body(call: Call, recipe: str, accept: str) -> None:
    got = get(call, accept)
    head = get(call, accept, method="HEAD")
    assert head.status == got.status
    for name in ("content-type", "content-length", "vary"):
        assert head.headers[name] == got.headers[name], name
    assert int(head.headers["content-length"]) == len(got.body) > 0
    assert head.body == b""
    assert_vary(head, recipe)


def test_vary_names_accept_once_and_keeps_the_rest(call: Call, recipe: str) -> None:
    for reply in (
        get(call, "text/html"),
        get(call),
        get(call, "image/png"),
        get(call, PROBLEM_406),
        get(call, "text/html, " * 800),
    ):
        assert_vary(reply, recipe)
    for reply in (
        post(call, "application/json"),
        post(call, "text/plain", "application/json"),
        post(call, "application/json", "image/png"),
    ):
        assert_vary(reply, recipe, "/messages")


@pytest.mark.parametrize(
    "accept", ["image/png", "text/plain, application/xml", "*/*;q=0"]
)
def test_406_as_plain_text_lists_the_available_types(
    call: Call, recipe: str, accept: str
) -> None:
    reply = get(call, accept)
    assert_plain_refusal(reply, 406, OFFERS)
    assert_vary(reply, recipe)


@pytest.mark.parametrize(
    "accept",
    [
        PROBLEM_406,
        "application/problem+json",
        "text/plain;q=0.5, application/problem+json",
    ],
)
def test_406_as_problem_json_where_accept_prefers_it(
    call: Call, recipe: str, accept: str
) -> None:
    reply = get(call, accept)
    assert_problem(reply, 406, OFFERS)
    assert_vary(reply, recipe)


def test_431_for_an_over_long_accept(call: Call) -> None:
    reply = get(call, "text/html, " * 800)
    assert reply.status == 431, reply.body
    assert reply.headers["content-type"] == "text/plain; charset=utf-8"
    assert b"the limit is 8192" in reply.body


@pytest.mark.parametrize(
    "accept",
    [
        b"\xff\xfe\x80",
        b"text/html\x7f",
        b"text/html;q=abc",
        b'text/html;x="unterminated',
        b";;;,,,",
        b"*/html, application/json",
        b"text/html;q=1;q=1",
        b"application/json;q=.5",  # lenient recovery: 0.5
        b"a" * 8192,  # exactly the limit
        b'text/html;x="\\',
        b"\t \t",
    ],
)
def test_hostile_accept_is_never_a_500(call: Call, recipe: str, accept: bytes) -> None:
    reply = get(call, accept)
    if refused_by_the_server(recipe, [("accept", accept)]):
        assert reply.status == 400, reply.body
        return
    assert reply.status in (200, 406), reply.body
    assert_vary(reply, recipe)
    if reply.status == 200:
        assert any(
            reply.headers["content-type"].replace(" ", "") == o.replace(" ", "")
            for o in OFFERS
        )


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=UTF-8",
        "Application/JSON",
        "application/x-www-form-urlencoded",
    ],
)
def test_accepted_request_content(call: Call, content_type: str) -> None:
    assert_created(post(call, content_type), "application/json")


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        (None, "application/json"),
        ("text/plain", "text/plain; charset=utf-8"),
        ("text/*, application/json;q=0.5", "text/plain; charset=utf-8"),
    ],
)
def test_the_created_message_is_negotiated(
    call: Call, recipe: str, accept: str | None, chosen: str
) -> None:
    reply = post(call, "application/json", accept)
    assert_created(reply, chosen)
    assert_vary(reply, recipe, "/messages")


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/csv",
        "json",
        "application/*",
        b"\xff/\xfe",
        "application/json; charset",
        "multipart/form-data; boundary=x",
    ],
)
def test_415_names_the_accepted_types(
    call: Call, content_type: str | bytes | None
) -> None:
    reply = post(call, content_type)
    assert_plain_refusal(reply, 415, BODY_TYPES)
    assert reply.headers["accept"] == ", ".join(BODY_TYPES)
    assert reply.headers["accept-post"] == ", ".join(BODY_TYPES)  # W3C LDP §7.1


def test_415_as_problem_json_where_accept_prefers_it(call: Call, recipe: str) -> None:
    reply = post(call, "text/plain", "application/json")
    assert_problem(reply, 415, BODY_TYPES)
    assert reply.headers["accept"] == ", ".join(BODY_TYPES)
    assert_vary(reply, recipe, "/messages")


def test_the_body_type_is_checked_before_accept(call: Call) -> None:
    # Both refusable: the 415 comes first, in the format the Accept prefers.
    reply = post(call, "text/csv", PROBLEM_406)
    assert_problem(reply, 415, BODY_TYPES)
    reply = post(call, "application/json", PROBLEM_406)
    assert_problem(reply, 406, CREATED_OFFERS)


def test_431_for_an_over_long_content_type(call: Call) -> None:
    # 9,017 characters: over fastaccept's 8192, under Django 6's own limit (below).
    reply = post(call, "application/json;" + "x=y;" * 2250)
    assert reply.status == 431, reply.body
    assert reply.headers["content-type"] == "text/plain; charset=utf-8"
    assert b"the Content-Type header is 9017 characters long" in reply.body
    reply = post(call, "application/json;" + "x=y;" * 2250, "application/json")
    assert reply.status == 431, reply.body
    assert json.loads(reply.body)["status"] == 431


#: Header values no server passes on: CR and LF end a field line. NUL and the
#: other control bytes, obs-text (0x80-0xFF) and anything else can come.
HOSTILE = st.binary(max_size=60).filter(
    lambda v: b"\r" not in v and b"\n" not in v
) | st.sampled_from(
    [
        b"\x00",
        b"\xff/\xfe",
        b'a/b;p="',
        b"*/*;q=" + b"9" * 50,
        b",,,;;;",
        b"application/problem+json;q=0.5, x/y",
        b"application/json;" + b"x=y;" * 2100,  # over 8192
    ]
)
METHODS = st.sampled_from(["GET", "HEAD", "POST"])


def sends_no_allow(recipe: str) -> bool:
    """Whether the recipe's framework sends its 405 without ``Allow`` (RFC
    9110 §15.5.6): Litestar before 2.20 does, before any handler runs."""
    if recipe != "litestar_app":
        return False
    return release("litestar") < (2, 20)


@settings(max_examples=100)
@given(accept=HOSTILE, content_type=HOSTILE, method=METHODS)
def test_no_accept_or_content_type_is_a_500(
    call: Call, recipe: str, accept: bytes, content_type: bytes, method: str
) -> None:
    # With an Origin, as recipes.ORIGIN says: Litestar's CORS varies on it then.
    headers = [("origin", ORIGIN.encode()), ("accept", accept)]
    headers.append(("content-type", content_type))
    for path, allowed in (("/greeting", "GET HEAD"), ("/messages", "POST")):
        reply = call(method, path, headers, b"{}")
        if refused_by_the_server(recipe, headers):
            assert reply.status == 400, reply.body
            continue
        if method not in allowed:  # the framework's own (the plain apps' own)
            assert reply.status == 405, reply.body
            assert reply.headers.get("allow") or sends_no_allow(recipe), reply.body
            continue
        assert reply.status in (200, 201, 406, 415, 431), reply.body
        assert_vary(reply, recipe, path)


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        (b"application/json", b"[" * 100_000),  # deeper than json reads
        (b"application/json", b'{"a":' * 50_000),
        (b"application/json; charset=bogus", b"{}"),  # aiohttp decodes by it
    ],
)
def test_a_body_the_recipe_cannot_read_is_a_400_not_a_500(
    call: Call, recipe: str, content_type: bytes, body: bytes
) -> None:
    # The recipes docs/web.md copies catch what json (and aiohttp's charset
    # lookup) raise: RecursionError and LookupError are no ValueError.
    headers = [("origin", ORIGIN.encode()), ("content-type", content_type)]
    reply = call("POST", "/messages", headers, body)
    # The plain apps do not read the body; only aiohttp's reads it by charset.
    unread = recipe in ("asgi_app", "wsgi_app")
    by_bytes = b"bogus" in content_type and recipe != "aiohttp_app"
    assert reply.status == (201 if unread or by_bytes else 400), reply.body
    assert_vary(reply, recipe, "/messages")


@pytest.mark.parametrize(
    "app",
    [lambda: load_recipe("asgi_app").app, lambda: load_example("mcp_asgi.py").app],
)
def test_the_asgi_examples_refuse_a_websocket(app: Callable[[], Any]) -> None:
    # A websocket.close before accepting: the server's 403 (ASGI spec); a
    # router that returned unanswered, or an assert, gave uvicorn's 500.
    sent = websocket_sent(app(), {"type": "websocket.connect"})
    assert sent == [{"type": "websocket.close", "code": 1008}]
    # Gone before it connected: nothing sent (ASGI 2.4).
    assert websocket_sent(app(), {"type": "websocket.disconnect"}) == []


@pytest.mark.parametrize(
    "app",
    [
        lambda: load_recipe("asgi_app").app,
        lambda: load_example("users_api.py").UsersAPI("token"),
    ],
)
def test_the_asgi_examples_answer_the_servers_lifespan(app: Callable[[], Any]) -> None:
    # The server's start and stop (ASGI lifespan): each answered. An app
    # that returned at once left hypercorn's trio worker failing as it
    # started (trio.ClosedResourceError), every request refused.
    events = [{"type": "lifespan.shutdown"}, {"type": "lifespan.startup"}]
    sent: list[Any] = []

    async def receive() -> Any:
        return events.pop()

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(app()({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    assert not events
    assert sent == [
        {"type": "lifespan.startup.complete"},
        {"type": "lifespan.shutdown.complete"},
    ]


@pytest.mark.parametrize("recipe", ["asgi_app", "wsgi_app"])
def test_the_plain_apps_answer_head_without_a_body(recipe: str) -> None:
    call = CLIENTS[recipe](load_recipe(recipe))
    for path, status in (("/messages", 405), ("/nowhere", 404)):
        reply = call("HEAD", path, [], b"")
        assert (reply.status, reply.body) == (status, b"")


@pytest.mark.parametrize("recipe", ["asgi_app", "wsgi_app"])
@pytest.mark.parametrize(
    ("language", "greeting"),
    [
        (None, "hello"),
        ("fr-CA, en;q=0.5", "bonjour"),  # the region reaches fr (rule 19)
        ("FR", "bonjour"),
        ("fr;q=0, en", "hello"),  # q=0 refuses fr
        ("en, fr;q=0.5", "hello"),
        ("fro", "hello"),  # another language
        ("fr, " + "de;q=0.5, " * 900, "hello"),  # over max_length (rule 8)
    ],
)
def test_the_plain_apps_greet_in_the_language_rule_19_chooses(
    recipe: str, language: str | None, greeting: str
) -> None:
    call = CLIENTS[recipe](load_recipe(recipe))
    lines = [] if language is None else [("accept-language", language.encode())]
    reply = call("GET", "/greeting", lines, b"")
    assert (reply.status, json.loads(reply.body)) == (200, {"greeting": greeting})


@settings(max_examples=50)
@given(
    accepts=st.lists(HOSTILE, min_size=2, max_size=4),
    content_types=st.lists(HOSTILE, min_size=2, max_size=3),
)
@pytest.mark.parametrize("name", MULTI_LINE)
def test_no_several_header_lines_are_a_500(
    name: str, accepts: list[bytes], content_types: list[bytes]
) -> None:
    call = CLIENTS[name](load_recipe(name))
    lines = [("origin", ORIGIN.encode()), *(("accept", a) for a in accepts)]
    lines += [("content-type", c) for c in content_types]
    for method, path in (("GET", "/greeting"), ("POST", "/messages")):
        reply = call(method, path, lines, b"{}")
        if refused_by_the_server(name, lines):
            assert reply.status == 400, reply.body
            continue
        assert reply.status in (200, 201, 406, 415, 431), reply.body
        assert_vary(reply, name, path)


#: How a recipe's app gives its OpenAPI document.
OPENAPI: dict[str, Callable[[Any], dict[str, Any]]] = {
    "fastapi_app": lambda app: app.openapi(),  # NegotiatedRoute
    "litestar_app": lambda app: app.openapi_schema.to_schema(),  # the plugin
}


@pytest.mark.parametrize("name", sorted(OPENAPI))
def test_openapi_documents_every_media_type_and_refusal(name: str) -> None:
    paths = OPENAPI[name](load_recipe(name).app)["paths"]
    greeting = paths["/greeting"]["get"]["responses"]
    assert list(greeting["200"]["content"]) == list(OFFERS)
    assert set(greeting) == {"200", "406", "431"}
    messages = paths["/messages"]["post"]["responses"]
    assert list(messages["201"]["content"]) == list(CREATED_OFFERS)
    assert set(messages) == {"201", "406", "415", "431"}
    for refusal in (greeting["406"], messages["406"], messages["415"]):
        problem = refusal["content"]["application/problem+json"]["schema"]
        assert {"type", "title", "status", "detail"} <= set(problem["required"])
    accept = messages["415"]["headers"]["Accept"]["schema"]
    assert accept["example"] == ", ".join(BODY_TYPES)
    # The handler reads the body itself: the types it takes, required (415).
    body = paths["/messages"]["post"]["requestBody"]
    assert (body["required"], list(body["content"])) == (True, list(BODY_TYPES))
    # FastAPI answers HEAD, not an operation; a Litestar route lists it.
    assert ("head" in paths["/greeting"]) == (name == "litestar_app")


def test_django_6_refuses_a_content_type_over_10000_before_any_view() -> None:
    """What docs/web.md says in its Django section: a limit of Django's own, out of reach.

    Django 6.0 parses Content-Type in WSGIRequest's constructor and raises
    BadRequest over 10,000 characters, outside the handler's error handling.
    """
    django = pytest.importorskip("django")
    bad_request = pytest.importorskip("django.core.exceptions").BadRequest
    if django.VERSION < (6,):
        pytest.skip("Django 5.2 has no Content-Type length limit")
    call = CLIENTS["django_app"](load_recipe("django_app"))
    with pytest.raises(bad_request, match="Invalid Content-Type header"):
        post(call, "application/json;" + "x=y;" * 2500)


def test_a_format_parameter_beats_accept(call: Call, recipe: str) -> None:
    check_format_override(call, recipe)


@pytest.mark.parametrize("recipe", FRAMEWORK_RECIPES, indirect=True)
def test_a_raised_error_varies_on_accept(call: Call, recipe: str) -> None:
    check_raised_error(call, recipe)
