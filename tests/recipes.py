"""What the recipes in examples/frameworks serve, and how to check it.

Shared by tests/test_integrations.py (each framework's own test client) and
tests/test_sockets.py (uvicorn, waitress and aiohttp's own server on a real
socket): a ``Call``
sends one request, header lines as given, and gives back a ``Reply``.
Every recipe serves ``GET /greeting`` (JSON or HTML) and ``POST /messages``
(JSON or form content, answering 201 as JSON or plain text), and adds a
``Vary`` token of its own beside ``Accept``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from .conftest import load_example

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
    "litestar_app": "litestar",
    "aiohttp_app": "aiohttp",
}
ASGI_RECIPES = ("asgi_app", "fastapi_app", "litestar_app", "starlette_app")
#: The recipes on a framework, whose own errors a handler can raise.
FRAMEWORK_RECIPES = (
    "aiohttp_app",
    "django_app",
    "falcon_app",
    "fastapi_app",
    "flask_app",
    "litestar_app",
    "starlette_app",
)
WSGI_RECIPES = ("django_app", "falcon_app", "flask_app", "wsgi_app")
#: The recipes on aiohttp's own server (``make_app()``: a new application for
#: each server, as aiohttp binds one to the event loop that first serves it).
AIOHTTP_RECIPES = ("aiohttp_app",)
#: The recipes whose server answers 400 itself, before the application, to a
#: field value with a control character (RFC 9110 §5.5: not field content)
#: and to several Content-Type lines (a field of one value, RFC 9110 §5.3,
#: §8.3): aiohttp's, whose test client goes over a real socket too.
STRICT_SERVERS = ("aiohttp_app",)

#: What each recipe puts in Vary besides Accept: a parameter of its own (the
#: greeting's language) or middleware (CORS; Django's LocaleMiddleware).
OTHER_VARY = {
    "asgi_app": "Accept-Language",
    "wsgi_app": "Accept-Language",
    "django_app": "Accept-Language",
    "starlette_app": "Origin",
    "fastapi_app": "Origin",
    "flask_app": "Origin",
    "falcon_app": "Origin",
    "litestar_app": "Origin",
    "aiohttp_app": "Origin",
}
#: Recipes whose other Vary token is on /greeting only (an endpoint parameter).
GREETING_ONLY_VARY = ("asgi_app", "wsgi_app")

OFFERS = ("application/json", "text/html; charset=utf-8")
#: The format names of ``/greeting`` (``formats=True``), in offer order.
FORMATS = ("json", "html")
CREATED_OFFERS = ("application/json", "text/plain; charset=utf-8")
BODY_TYPES = ("application/json", "application/x-www-form-urlencoded")
#: An Accept value refused with a problem+json body (docs/rules.md rule 16).
PROBLEM_406 = "image/png, application/problem+json;q=0.5"
JDK_LEGACY = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"
#: Sent with every request, as a cross-origin fetch() would.
ORIGIN = "https://example.org"

Headers = list[tuple[str, bytes]]


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names lower-case; several lines joined by ", "
    body: bytes

    def vary(self) -> list[str]:
        return [t.strip() for t in self.headers.get("vary", "").split(",")]


Call = Callable[[str, str, Headers, bytes], Reply]


def load_recipe(name: str) -> ModuleType:
    pytest.importorskip(NEEDS[name])
    return load_example(f"frameworks/{name}.py")


def joined(pairs: Any) -> dict[str, str]:
    """Header pairs as one str per lower-case name, lines joined by ", "."""
    combined: dict[str, str] = {}
    for name, value in pairs:
        key = str(name).lower()
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        combined[key] = f"{combined[key]}, {text}" if key in combined else text
    return combined


def refused_by_the_server(recipe: str, headers: Headers) -> bool:
    """Header lines that ``recipe``'s server refuses itself (``STRICT_SERVERS``)."""
    several = sum(name.lower() == "content-type" for name, _ in headers) > 1
    controls = has_controls(*(value for _, value in headers))
    return recipe in STRICT_SERVERS and (several or controls)


def has_controls(*values: bytes) -> bool:
    """A control character (but HTAB) in one of ``values``: no field content
    (RFC 9110 §5.5)."""
    return any((b < 0x20 and b != 0x09) or b == 0x7F for v in values for b in v)


def as_bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("latin-1")


def get(
    call: Call, *accept: str | bytes, method: str = "GET", query: str = ""
) -> Reply:
    """``/greeting`` (``?query`` given), with one Accept line per value (none:
    no Accept)."""
    lines = [("origin", ORIGIN.encode())]
    lines += [("accept", as_bytes(value)) for value in accept]
    return call(method, f"/greeting?{query}" if query else "/greeting", lines, b"")


def post(
    call: Call,
    content_type: str | bytes | None,
    accept: str | None = None,
    body: bytes = b"{}",
) -> Reply:
    """``/messages`` with this Content-Type (None: none) and Accept."""
    lines = [("origin", ORIGIN.encode())]
    if content_type is not None:
        lines.append(("content-type", as_bytes(content_type)))
    if accept is not None:
        lines.append(("accept", accept.encode()))
    return call("POST", "/messages", lines, body)


def same_type(reply: Reply, media_type: str) -> bool:
    """Content-Type is ``media_type`` (clients differ on spaces)."""
    sent = reply.headers.get("content-type", "")
    return sent.replace(" ", "").lower() == media_type.replace(" ", "").lower()


def assert_greeting(reply: Reply, media_type: str) -> None:
    """A 200 with the greeting in ``media_type``."""
    assert reply.status == 200, reply.body
    assert same_type(reply, media_type), reply.headers
    if media_type == "application/json":
        assert json.loads(reply.body) == {"greeting": "hello"}
    else:
        assert reply.body == b"<p>hello</p>"
    assert reply.headers["content-length"] == str(len(reply.body))


def assert_created(reply: Reply, media_type: str) -> None:
    """A 201 with the created message in ``media_type``."""
    assert reply.status == 201, reply.body
    assert same_type(reply, media_type), reply.headers
    if media_type == "application/json":
        assert json.loads(reply.body) == {"id": 1}
    else:
        assert reply.body == b"message 1 created\n"


def assert_vary(reply: Reply, recipe: str, path: str = "/greeting") -> None:
    """Accept once in Vary (docs/rules.md rule 17), the recipe's own token kept."""
    tokens = [token.lower() for token in reply.vary()]
    assert tokens.count("accept") == 1, reply.headers
    if path == "/greeting" or recipe not in GREETING_ONLY_VARY:
        assert OTHER_VARY[recipe].lower() in tokens, reply.headers


#: (query, Accept, the type chosen): a format name beating Accept.
FORMAT_CHOICES = [
    ("format=html", "application/json", OFFERS[1]),
    ("format=JSON", "text/html", OFFERS[0]),
    ("format=json", "image/png", OFFERS[0]),  # Accept alone: 406
    ("page=2&format=%68tml", None, OFFERS[1]),
    ("format=html&format=json", "application/json", OFFERS[1]),  # the first
]
#: (query, Accept, as problem+json?): a format name no offer has.
UNKNOWN_FORMATS = [
    ("format=pdf", PROBLEM_406, True),
    ("format=" + "html" * 9, "text/html", False),  # over 32 characters
    ("format=%ff%00", None, False),
]


def check_format_override(call: Call, recipe: str) -> None:
    """``/greeting?format=``: each of ``FORMAT_CHOICES`` chosen without Accept
    in Vary (HEAD too); each of ``UNKNOWN_FORMATS`` the 406 listing the
    names, in Accept's form; an empty name leaves Accept to choose."""
    for query, accept, chosen in FORMAT_CHOICES:
        lines = [accept] if accept else []
        reply = get(call, *lines, query=query)
        assert_greeting(reply, chosen)
        assert_format_vary(reply, recipe)
        head = get(call, *lines, query=query, method="HEAD")
        assert (head.status, head.body) == (200, b""), query
        assert head.headers["content-type"] == reply.headers["content-type"]
    for query, accept, problem_json in UNKNOWN_FORMATS:
        reply = get(call, *([accept] if accept else []), query=query)
        assert_unknown_format(reply, problem_json)
        if accept is not None:  # the refusal's form is Accept's (rule 16)
            assert_vary(reply, recipe)
    reply = get(call, "text/html", query="format=")
    assert_greeting(reply, OFFERS[1])
    assert_vary(reply, recipe)


def assert_format_vary(reply: Reply, recipe: str) -> None:
    """A format name chose the type: no Accept in Vary, the recipe's own
    token kept (docs/web.md, "Format override")."""
    tokens = [token.lower() for token in reply.vary()]
    assert "accept" not in tokens, reply.headers
    assert OTHER_VARY[recipe].lower() in tokens, reply.headers


def assert_unknown_format(reply: Reply, problem_json: bool) -> None:
    """The 406 to a format name not known: the names listed, as problem+json
    or as plain text."""
    assert reply.status == 406, reply.body
    if problem_json:
        assert reply.headers["content-type"] == "application/problem+json"
        problem = json.loads(reply.body)
        assert (problem["status"], problem["formats"]) == (406, list(FORMATS))
    else:
        assert same_type(reply, "text/plain; charset=utf-8"), reply.headers
        assert reply.body.endswith(
            b"Formats:\n" + b"".join(f"{n}\n".encode() for n in FORMATS)
        )


def check_raised_error(call: Call, recipe: str) -> None:
    """A malformed JSON message: the framework's own 400, raised in the
    handler, with ``Accept`` in its Vary (docs/web.md, "Errors negotiated
    for any status"), the recipe's other token kept."""
    for accept in ("text/plain", None):
        reply = post(call, "application/json", accept, body=b"{not json")
        assert reply.status == 400, reply.body
        assert_vary(reply, recipe, "/messages")


def assert_plain_refusal(reply: Reply, status: int, listed: tuple[str, ...]) -> None:
    """A refusal as text/plain: ``<status> <reason>...`` then the types."""
    assert reply.status == status, reply.body
    assert same_type(reply, "text/plain; charset=utf-8"), reply.headers
    assert reply.body.startswith(str(status).encode())
    assert "".join(f"{t}\n" for t in listed).encode() in reply.body


def assert_problem(reply: Reply, status: int, listed: tuple[str, ...]) -> None:
    """A refusal as application/problem+json (RFC 9457; docs/rules.md rule 16)."""
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    problem = json.loads(reply.body)
    assert problem["status"] == status
    assert problem["type"] == "about:blank"
    assert problem["acceptable"] == list(listed)
