"""The framework recipes in examples/frameworks, each through its own test client.

Every recipe serves ``GET /greeting`` (JSON or HTML by Accept) and
``POST /messages`` (JSON or form content). The same checks run against each:
negotiation, ``Vary``, 406, 415 with ``Accept``, 431, and hostile input that
must never become a 500.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest
import werkzeug.test

from fastaccept import BROWSER_DEFAULTS

from .conftest import load_example

OFFERS = ("application/json", "text/html; charset=utf-8")
BODY_TYPES = "application/json, application/x-www-form-urlencoded"
JDK_LEGACY = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"

Headers = list[tuple[str, bytes]]


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names lower-case
    body: bytes


Call = Callable[[str, str, Headers, bytes], Reply]


#: The package each recipe needs: its tests skip where it cannot be installed
#: (FastAPI's pydantic-core has no free-threaded 3.13 build here).
NEEDS = {
    "asgi_app": "httpx",
    "starlette_app": "starlette",
    "fastapi_app": "fastapi",
    "wsgi_app": "werkzeug",
    "flask_app": "flask",
    "django_app": "django",
    "falcon_app": "falcon",
}


def load_recipe(name: str) -> ModuleType:
    pytest.importorskip(NEEDS[name])
    return load_example(f"frameworks/{name}.py")


def lower_keys(headers: Any) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in headers.items()}


def text_headers(headers: Headers) -> dict[str, str]:
    """One str value per name (WSGI clients: the server has combined lines)."""
    combined: dict[str, str] = {}
    for name, value in headers:
        text = value.decode("latin-1")
        combined[name] = f"{combined[name]}, {text}" if name in combined else text
    return combined


def httpx_call(client: Any) -> Call:
    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        lines = [(name.encode(), value) for name, value in headers]
        r = client.request(method, path, headers=lines, content=body)
        return Reply(r.status_code, lower_keys(r.headers), r.content)

    return call


def asgi_call(app: Any) -> Call:
    """Plain ASGI: httpx's ASGI transport, the client every ASGI test suite uses."""
    import httpx

    async def request(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            lines = [(name.encode(), value) for name, value in headers]
            r = await c.request(method, path, headers=lines, content=body)
        return Reply(r.status_code, lower_keys(r.headers), r.content)

    return lambda *args: asyncio.run(request(*args))


def starlette_call(app: Any) -> Call:
    with warnings.catch_warnings():
        # Starlette asks for httpx2, which needs Python 3.11; httpx serves on 3.10.
        warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
        from starlette.testclient import TestClient

    return httpx_call(TestClient(app, raise_server_exceptions=True))


def werkzeug_call(client: Any) -> Call:
    """Flask's test client, and werkzeug's (its base) for plain WSGI.

    httpx's WSGI transport refuses non-ASCII header bytes before the app sees
    them; werkzeug passes them on as Latin-1, as WSGI servers do.
    """

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        r = client.open(path, method=method, headers=text_headers(headers), data=body)
        return Reply(r.status_code, lower_keys(r.headers), r.data)

    return call


def django_call(module: ModuleType) -> Call:
    import django
    from django.test import Client

    django.setup()
    client = Client(raise_request_exception=True)

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        fields = text_headers(headers)
        content_type = fields.pop("content-type", "")
        r = client.generic(method, path, body, content_type, headers=fields)
        return Reply(r.status_code, lower_keys(r.headers), r.content)

    return call


def falcon_call(app: Any) -> Call:
    from falcon.testing import TestClient

    client = TestClient(app)

    def call(method: str, path: str, headers: Headers, body: bytes) -> Reply:
        r = client.simulate_request(
            method, path, headers=text_headers(headers), body=body
        )
        return Reply(r.status_code, lower_keys(r.headers), r.content)

    return call


CLIENTS: dict[str, Callable[[ModuleType], Call]] = {
    "asgi_app": lambda m: asgi_call(m.app),
    "starlette_app": lambda m: starlette_call(m.app),
    "fastapi_app": lambda m: starlette_call(m.app),
    "wsgi_app": lambda m: werkzeug_call(werkzeug.test.Client(m.app)),
    "flask_app": lambda m: werkzeug_call(m.app.test_client()),
    "django_app": django_call,
    "falcon_app": lambda m: falcon_call(m.app),
}
#: Recipes whose clients can send one header in several field lines.
MULTI_LINE = ("asgi_app", "starlette_app", "fastapi_app")


@pytest.fixture(scope="module", params=sorted(CLIENTS))
def call(request: pytest.FixtureRequest) -> Iterator[Call]:
    yield CLIENTS[request.param](load_recipe(request.param))


def get(call: Call, *accept: str | bytes) -> Reply:
    lines = [
        ("accept", v if isinstance(v, bytes) else v.encode("latin-1")) for v in accept
    ]
    return call("GET", "/greeting", lines, b"")


def post(call: Call, content_type: str | bytes | None, body: bytes = b"{}") -> Reply:
    if content_type is None:
        return call("POST", "/messages", [], body)
    if isinstance(content_type, str):
        content_type = content_type.encode("latin-1")
    return call("POST", "/messages", [("content-type", content_type)], body)


def assert_chosen(reply: Reply, media_type: str) -> None:
    assert reply.status == 200, reply.body
    assert reply.headers["content-type"].replace(" ", "") == media_type.replace(" ", "")
    assert "Accept" in reply.headers["vary"]
    expected = b'{"greeting": "hello"}' if "json" in media_type else b"<p>hello</p>"
    assert reply.body == expected


def assert_refused(reply: Reply, status: int) -> None:
    assert reply.status == status, reply.body
    assert reply.headers["content-type"].startswith("text/plain")
    assert reply.body.startswith(str(status).encode())


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
def test_negotiates_the_media_type(call: Call, accept: str, chosen: str) -> None:
    assert_chosen(get(call, accept), chosen)


def test_no_accept_header_gets_the_first_offer(call: Call) -> None:
    assert_chosen(get(call), "application/json")


@pytest.mark.parametrize("context", sorted(BROWSER_DEFAULTS))
def test_browser_defaults(call: Call, context: str) -> None:
    value = BROWSER_DEFAULTS[context]
    chosen = OFFERS[1] if "text/html" in value else OFFERS[0]
    assert_chosen(get(call, value), chosen)


@pytest.mark.parametrize("name", MULTI_LINE)
def test_several_accept_lines_count_as_one_list(name: str) -> None:
    call = CLIENTS[name](load_recipe(name))
    # RFC 9110 §5.3: two lines are the list "image/png, text/html".
    assert_chosen(get(call, "image/png", "text/html"), OFFERS[1])


@pytest.mark.parametrize(
    "accept", ["image/png", "text/plain, application/xml", "*/*;q=0"]
)
def test_406_lists_the_available_types(call: Call, accept: str) -> None:
    reply = get(call, accept)
    assert_refused(reply, 406)
    assert "Accept" in reply.headers["vary"]
    for offer in OFFERS:
        assert offer.encode() in reply.body


def test_431_for_an_over_long_accept(call: Call) -> None:
    reply = get(call, "text/html, " * 800)
    assert_refused(reply, 431)
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
def test_hostile_accept_is_never_a_500(call: Call, accept: bytes) -> None:
    reply = get(call, accept)
    assert reply.status in (200, 406), reply.body
    assert "Accept" in reply.headers["vary"]
    if reply.status == 200:
        assert reply.headers["content-type"].replace(" ", "") in [
            o.replace(" ", "") for o in OFFERS
        ]


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
    reply = post(call, content_type)
    assert reply.status == 201, reply.body


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
    assert_refused(reply, 415)
    assert reply.headers["accept"] == BODY_TYPES
    assert b"application/json\napplication/x-www-form-urlencoded\n" in reply.body


def test_431_for_an_over_long_content_type(call: Call) -> None:
    # 9,017 characters: over fastaccept's 8192, under Django 6's own limit (below).
    reply = post(call, "application/json;" + "x=y;" * 2250)
    assert_refused(reply, 431)
    assert b"the Content-Type header is 9017 characters long" in reply.body


def test_django_6_refuses_a_content_type_over_10000_before_any_view() -> None:
    """What the README's Django section says: a limit of Django's own, out of reach.

    Django 6.0 parses Content-Type in WSGIRequest's constructor and raises
    BadRequest over 10,000 characters, outside the handler's error handling.
    """
    import django
    from django.core.exceptions import BadRequest

    if django.VERSION < (6,):
        pytest.skip("Django 5.2 has no Content-Type length limit")
    call = CLIENTS["django_app"](load_recipe("django_app"))
    with pytest.raises(BadRequest, match="Invalid Content-Type header"):
        post(call, "application/json;" + "x=y;" * 2500)
