"""Hostile requests to every integration, over a real socket (issue 23).

Each application of tests/attack_apps.py (one per integration module) is
served once for the module: the ASGI ones by uvicorn with h11 and with
httptools, the WSGI ones by waitress and by wsgiref, aiohttp's by aiohttp's
own server. Requests go as raw bytes
and the answer is read off the wire, parsed strictly here (status line,
field lines, body by ``Content-Length`` or the close), so that what a
server would send beside the application's response shows: an injected
field line, a body after a 204, a second response.

What is checked (docs/web.md, "What a handler may send"): a value reflected
into a header either goes as the one field line the application meant or is
refused (the application's 400); statuses without a reason phrase go out,
invalid ones are refused; a 204, 205 or 304 has no body and the response
pipelined after it arrives intact; over-long headers get the library's 431
(or the server's own refusal, before the application); a 406 or 415 sends
nothing of the request back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest

from .attack_apps import AIOHTTP_APPS, ASGI_APPS, DATA, UNTYPED, WSGI_APPS, built
from .servers import (
    aiohttp_serving,
    exchange,
    uvicorn_serving,
    waitress_serving,
    wsgiref_serving,
)

pytestmark = pytest.mark.thread_unsafe(
    reason="starts a server per application on a loopback port, for the module"
)

SERVERS: dict[str, Callable[[Any], AbstractContextManager[int]]] = {
    "uvicorn-h11": partial(uvicorn_serving, http="h11"),
    "uvicorn-httptools": partial(uvicorn_serving, http="httptools"),
    "waitress": waitress_serving,
    "wsgiref": wsgiref_serving,
    "aiohttp": aiohttp_serving,
}
PAIRS = [
    *(
        (server, app)
        for server in ("uvicorn-h11", "uvicorn-httptools")
        for app in ASGI_APPS
    ),
    *((server, app) for server in ("waitress", "wsgiref") for app in WSGI_APPS),
    *(("aiohttp", app) for app in AIOHTTP_APPS),
]
#: How long one exchange may take: every answer here comes at once.
TIMEOUT = 5.0

#: The fields a server adds to an application's response.
SERVER_FIELDS = {"date", "server", "connection"}
#: The fields the library sends with a representation or a refusal.
LIBRARY_FIELDS = {"content-type", "vary", "content-length"}
#: What the routes answer by default (JSON, the first offer).
DATA_JSON = json.dumps(DATA).encode()


@dataclass(frozen=True)
class Served:
    server: str
    app: str
    port: int

    def get(self, target: str, *fields: bytes) -> Response:
        """The only response to ``GET target`` with these field lines."""
        sent = raw_request("GET", target, *fields)
        return only_response(exchange(self.port, sent, TIMEOUT))

    def post(self, content_type: bytes, *fields: bytes) -> Response:
        """The only response to ``POST /body`` with a JSON body."""
        sent = raw_request("POST", "/body", b"Content-Type: " + content_type, *fields)
        return only_response(exchange(self.port, sent, TIMEOUT))


@pytest.fixture(scope="module", params=PAIRS, ids="/".join)
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    server, app = request.param
    with built(app) as application, SERVERS[server](application) as port:
        yield Served(server, app, port)


# The wire: requests as bytes, responses parsed strictly.


def raw_request(method: str, target: str, *fields: bytes, close: bool = True) -> bytes:
    """An HTTP/1.1 request with these field lines (and ``Connection: close``);
    a POST carries ``{}``."""
    lines = [f"{method} {target} HTTP/1.1".encode(), b"Host: 127.0.0.1", *fields]
    body = b"{}" if method == "POST" else b""
    if body:
        lines.append(b"Content-Length: %d" % len(body))
    if close:
        lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


#: RFC 9112 §4: a status line, its phrase possibly empty.
STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3}) ([\t\x20-\x7e\x80-\xff]*)")
#: RFC 9112 §5, RFC 9110 §5.5: a token, a colon, a value without controls
#: (a CR, LF or NUL in a value would have split or ended the line).
FIELD_LINE = re.compile(
    rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*"  # the name, the colon, OWS
    rb"((?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)[ \t]*"  # the value, OWS
)


@dataclass(frozen=True)
class Response:
    status: int
    fields: tuple[tuple[str, bytes], ...]  # names lower-case, values as sent
    body: bytes

    def values(self, name: str) -> list[bytes]:
        return [value for field, value in self.fields if field == name]

    def value(self, name: str) -> bytes:
        """The value of a field sent once."""
        (value,) = self.values(name)
        return value

    @property
    def names(self) -> set[str]:
        return {name for name, _ in self.fields}


def read_response(stream: bytes, method: str = "GET") -> tuple[Response, bytes]:
    """The first response in ``stream``, and what follows it.

    Its body is framed as RFC 9112 §6.3 says: none for a 204 or 304 (whatever
    their fields), else ``Content-Length`` bytes, else all until the close.
    No response here is chunked: the library gives every body its length.
    """
    head, end, rest = stream.partition(b"\r\n\r\n")
    assert end, f"no complete header section in {stream[:300]!r}"
    status_line, *lines = head.split(b"\r\n")
    matched = STATUS_LINE.fullmatch(status_line)
    assert matched, f"malformed status line {status_line!r}"
    fields = []
    for line in lines:
        field = FIELD_LINE.fullmatch(line)
        assert field, f"malformed field line {line!r} in {head!r}"
        fields.append((field[1].decode("ascii").lower(), field[2]))
    response = Response(int(matched[1]), tuple(fields), b"")
    assert not response.values("transfer-encoding"), head
    if response.status in (204, 304) or method == "HEAD":
        return response, rest
    lengths = response.values("content-length")
    if not lengths:
        return Response(response.status, response.fields, rest), b""
    (length,) = lengths
    assert length.isdigit(), head
    size = int(length)
    assert len(rest) >= size, f"a body shorter than its Content-Length: {stream!r}"
    return Response(response.status, response.fields, rest[:size]), rest[size:]


def only_response(stream: bytes) -> Response:
    """The response in ``stream``, which holds nothing after it."""
    response, rest = read_response(stream)
    assert rest == b"", f"bytes after the response: {rest[:300]!r}"
    return response


def assert_sent_by_the_library(response: Response, *own: str) -> None:
    """Only the fields the library and the server send, and ``own``."""
    extra = response.names - SERVER_FIELDS - LIBRARY_FIELDS - set(own)
    assert not extra, response.fields


def assert_refused_by_the_app(response: Response, about: str) -> None:
    """The application's 400: its JSON body says what the library refused."""
    assert response.status == 400, response
    assert_sent_by_the_library(response)
    assert about in json.loads(response.body)["error"]


# Values reflected into a header: /echo?v=...[&name=...].

#: (query, the bytes of X-Echo's value): values a header can carry.
ECHOED = [
    ("v=plain", b"plain"),
    ("v=a%3A%20b", b"a: b"),  # a colon and a space: still one field's value
    ("v=Set-Cookie%3A%20x%3D1", b"Set-Cookie: x=1"),  # a field line, as a value
    ("v=a%09b", b"a\tb"),
    ("v=%C3%A9t%C3%A9%C2%85x", "été\x85x".encode("latin-1")),  # Latin-1, obs-text
]
#: (query, what the refusal names): values, then names, no header can carry.
REFUSED = [
    ("v=a%0D%0ASet-Cookie%3A%20x%3D1", "value"),  # CR LF: a field line
    ("v=a%0ASet-Cookie%3A%20x%3D1", "value"),  # LF alone
    ("v=a%0DSet-Cookie%3A%20x%3D1", "value"),  # CR alone
    ("v=a%0D%0A%0D%0AHTTP%2F1.1%20200%20OK%0D%0AX-Injected%3A%201", "value"),
    ("v=a%00b", "value"),
    ("v=a%7Fb", "value"),
    ("v=%E2%82%AC", "value"),  # not Latin-1
    ("name=X-Injected%3A%20b&v=1", "token"),  # a colon and a space in the name
    ("name=X%20Injected&v=1", "token"),
    ("name=&v=1", "token"),
    ("name=X-Echo%0D%0AX-Injected&v=1", "token"),
    ("name=Set-Cookie&v=x%3D1", "cookies"),
    ("name=Transfer-Encoding&v=chunked", "server's"),
    ("name=Connection&v=close", "server's"),
    ("name=Content-Length&v=0", "set by the negotiation"),
    ("name=Vary&v=Cookie", "set by the negotiation"),
]


#: The servers that write header values as UTF-8 (the others: Latin-1, RFC
#: 9110 §5.5): aiohttp, whose writer takes only str.
WRITES_UTF8 = {"aiohttp"}


@pytest.mark.parametrize(("query", "value"), ECHOED)
def test_a_valid_value_is_one_field_line(
    served: Served, query: str, value: bytes
) -> None:
    response = served.get(f"/echo?{query}")
    assert response.status == 200, response
    if served.server in WRITES_UTF8:
        value = value.decode("latin-1").encode()
    assert response.value("x-echo") == value
    assert_sent_by_the_library(response, "x-echo")
    assert response.body == DATA_JSON


@pytest.mark.parametrize(("query", "about"), REFUSED)
def test_what_would_break_the_response_is_refused(
    served: Served, query: str, about: str
) -> None:
    assert_refused_by_the_app(served.get(f"/echo?{query}"), about)


#: RFC 9110 §5.5: a field value neither begins nor ends with SP or HTAB.
@pytest.mark.parametrize("query", ["v=%20a", "v=a%20", "v=%09a", "v=a%09"])
def test_a_value_with_outer_whitespace_is_refused(served: Served, query: str) -> None:
    assert_refused_by_the_app(served.get(f"/echo?{query}"), "value")


# Statuses: /status/<n>, /empty/<204|304>.


@pytest.mark.parametrize("code", [200, 201, 299, 599])
def test_a_final_status_is_sent_with_or_without_a_phrase(
    served: Served, code: int
) -> None:
    # 299 and 599 have no registered phrase. The phrase is the server's (RFC
    # 9112 §4: a client ignores it): uvicorn sends none, WSGI servers and
    # aiohttp the application's (the status class's name, or the framework's).
    response = served.get(f"/status/{code}")
    assert response.status == code
    assert response.body == DATA_JSON
    assert_sent_by_the_library(response)


@pytest.mark.parametrize("code", ["99", "100", "103", "199", "600", "1000", "-200"])
def test_an_invalid_status_is_refused(served: Served, code: str) -> None:
    assert_refused_by_the_app(served.get(f"/status/{code}"), "status")


#: The servers that close the connection after a 204 or 304: wsgiref after
#: every response (HTTP/1.0, one request per connection), waitress after one
#: without a Content-Length (it says ``Connection: close``).
CLOSES_AFTER_BODYLESS = {"waitress", "wsgiref"}
#: The server that may give a 204 or 304 ``Content-Length: 0`` of its own:
#: wsgiref counts the body of an application whose iterable has a length
#: (plain WSGI, falcon), not Django's. (RFC 9110 §8.6: on a 204 a server
#: "MUST NOT" send one; on a 304 it is the selected representation's.)
ADDS_ZERO_LENGTH = "wsgiref"


@pytest.mark.parametrize("code", [204, 304])
def test_a_bodyless_status_leaves_the_next_response_intact(
    served: Served, code: int
) -> None:
    first_request = raw_request("GET", f"/empty/{code}", close=False)
    pipelined = first_request + raw_request("GET", "/status/200")
    stream = exchange(served.port, pipelined, TIMEOUT)
    first, rest = read_response(stream)
    assert first.status == code, stream
    lengths = first.values("content-length")
    allowed = ([], [b"0"]) if served.server == ADDS_ZERO_LENGTH else ([],)
    assert lengths in allowed, stream
    assert_sent_by_the_library(first, "content-type")
    if served.server in CLOSES_AFTER_BODYLESS:
        assert rest == b"", f"bytes after a {code}: {rest[:300]!r}"
        if stream.startswith(b"HTTP/1.1"):
            assert first.value("connection") == b"close"
        return
    second = only_response(rest)
    assert (second.status, second.body) == (200, DATA_JSON), stream


@pytest.mark.parametrize("code", [204, 304])
def test_a_bodyless_status_has_no_content_type(served: Served, code: int) -> None:
    # Django's HttpResponse and werkzeug's Response give one without a
    # Content-Type their default (text/html): the integrations take it off
    # (RFC 9110 §15.4.5: a 304 SHOULD NOT carry representation metadata).
    response = served.get(f"/empty/{code}")
    assert response.status == code
    assert "content-type" not in response.names, response.fields


def test_content_made_by_hand_without_a_type_gets_no_frameworks_default(
    served: Served,
) -> None:
    # docs/web.md, "What a handler may send": a Rendered is sent as it is.
    # Flask and Django labelled its bytes text/html (which a browser runs),
    # falcon and Litestar application/json; where a framework types every
    # response with content, it is application/octet-stream (RFC 9110 §8.3).
    response = served.get("/status/untyped")
    assert (response.status, response.body) == (200, UNTYPED)
    expected = [b"application/octet-stream"] if served.app in TYPING_APPS else []
    assert response.values("content-type") == expected, response.fields


#: The frameworks that send a Content-Type with any content: fastaccept's,
#: or aiohttp's own, application/octet-stream where it has none.
TYPING_APPS = {"falcon", "litestar", "aiohttp"}


def test_a_205_sends_an_empty_content_of_length_0(served: Served) -> None:
    # RFC 9110 §15.3.6: no content in a 205; a 205 is no bodyless status
    # (RFC 9112 §6.3), so its Content-Length: 0 frames the empty content and
    # the response pipelined after it arrives intact.
    first_request = raw_request("GET", "/empty/205", close=False)
    pipelined = first_request + raw_request("GET", "/status/200")
    stream = exchange(served.port, pipelined, TIMEOUT)
    first, rest = read_response(stream)
    assert (first.status, first.body) == (205, b""), stream
    assert first.values("content-length") == [b"0"], stream
    if served.app not in TYPED_205:
        assert "content-type" not in first.names, stream
    if served.server == "wsgiref":  # HTTP/1.0: one request per connection
        assert rest == b"", stream
        return
    second = only_response(rest)
    assert (second.status, second.body) == (200, DATA_JSON), stream


#: The frameworks that give a 205 their default Content-Type, a status they
#: take as one with content (falcon and Litestar give none to a 204 or 304).
TYPED_205 = {"falcon", "litestar"}


# Over-long headers: 431 from the library, or the server's own refusal.

LIMIT = 8192


def too_large(field: str, length: int) -> bytes:
    """The library's 431 body, as plain text (docs/rules.md rule 16)."""
    return (
        f"431 Request Header Fields Too Large: the {field} header is {length} "
        f"characters long; the limit is {LIMIT}.\n"
    ).encode()


def assert_too_large(response: Response, field: str, length: int) -> None:
    assert response.status == 431, response
    assert response.body == too_large(field, length)
    assert response.value("content-type") == b"text/plain; charset=utf-8"
    assert_sent_by_the_library(response)


#: The servers that refuse a value over about 8190 bytes before the
#: application (aiohttp's ``max_field_size``: "Got more than 8190 bytes when
#: reading"): their status.
REFUSE_LONG_LINES = {"aiohttp": 400}


def assert_too_large_or_refused(
    served: Served, response: Response, field: str, length: int
) -> None:
    """The library's 431, or the server's own refusal of a long line."""
    own = REFUSE_LONG_LINES.get(served.server)
    if own is None:
        assert_too_large(response, field, length)
        return
    assert response.status == own, response
    assert f"the {field} header is".encode() not in response.body


def test_a_long_accept_is_431(served: Served) -> None:
    accept = (b"text/html;q=0.5, " * 600)[:9000]
    response = served.get("/status/200", b"Accept: " + accept)
    assert_too_large_or_refused(served, response, "Accept", 9000)


#: How each server joins several Accept lines into one value (RFC 9110 §5.3):
#: for ASGI the integration does, with ", ".
JOINED_BY = {
    "uvicorn-h11": ", ",
    "uvicorn-httptools": ", ",
    "waitress": ", ",
    "wsgiref": ",",
    "aiohttp": ", ",
}


def test_accept_lines_joined_over_the_limit_are_431(served: Served) -> None:
    lines = (b"Accept: " + b"a" * 4100, b"Accept: " + b"b" * 4100)
    joined = 8200 + len(JOINED_BY[served.server])
    assert_too_large(served.get("/status/200", *lines), "Accept", joined)


def test_a_long_content_type_is_431(served: Served) -> None:
    content_type = (b"application/json;" + b"x=y;" * 2250)[:9000]
    response = served.post(content_type)
    assert_too_large_or_refused(served, response, "Content-Type", 9000)


#: The servers that refuse an 8.4 MB header line before the application:
#: their status (h11: a request head over 16 KiB, "Invalid HTTP request
#: received."; waitress: over 256 KiB; wsgiref: a line over 64 KiB; aiohttp:
#: a value over about 8190 bytes). uvicorn with httptools passes it on: the library
#: answers 431 without reading it.
REFUSE_HUGE_HEADERS = {
    "uvicorn-h11": 400,
    "waitress": 431,
    "wsgiref": 431,
    "aiohttp": 400,
}
#: 8,400,005 bytes, no whitespace at either end: a server leaves that out of
#: the field value (RFC 9112 §5; uvicorn with httptools does from 0.55).
HUGE_ACCEPT = b", ".join([b"text/html"] * 763_637)


def test_a_huge_accept_is_refused(served: Served) -> None:
    sent = raw_request("GET", "/status/200", b"Accept: " + HUGE_ACCEPT)
    stream = exchange(served.port, sent, TIMEOUT)
    own = REFUSE_HUGE_HEADERS.get(served.server)
    if own is None:
        assert_too_large(only_response(stream), "Accept", len(HUGE_ACCEPT))
        return
    if stream:  # else the server's reset overtook its answer
        response = only_response(stream)
        assert response.status == own, stream[:300]
        assert b"the Accept header is" not in response.body  # not the library's


# Refusals send nothing of the request back.

#: Members lenient parsing skips, at offsets 11, 19, 28 and 34; image/png
#: alone is read, and not offered.
MALFORMED = b"image/png, zq<b>/, x/y;q=9, @@/z, text/plain;;q"


@pytest.mark.parametrize(
    ("extra", "as_problem"), [(b"", False), (b", application/problem+json", True)]
)
def test_a_406_says_members_were_skipped_without_echoing_them(
    served: Served, extra: bytes, as_problem: bool
) -> None:
    response = served.get("/status/200", b"Accept: " + MALFORMED + extra)
    assert response.status == 406
    assert_sent_by_the_library(response)
    for member in MALFORMED.split(b", ")[1:]:
        assert member not in response.body
    assert b"<b>" not in response.body
    if as_problem:
        assert response.value("content-type") == b"application/problem+json"
        detail = json.loads(response.body)["detail"]
    else:
        assert response.value("content-type") == b"text/plain; charset=utf-8"
        detail = response.body.decode()
    assert "4 of its members were malformed and skipped" in detail


@pytest.mark.parametrize(
    ("accept", "as_problem"), [(b"", False), (b"application/problem+json", True)]
)
def test_a_415_names_the_type_and_nothing_else(
    served: Served, accept: bytes, as_problem: bool
) -> None:
    fields = (b"Accept: " + accept,) if accept else ()
    response = served.post(b'text/csv; x="<b>"', *fields)
    assert response.status == 415
    assert_sent_by_the_library(response, "accept", "accept-post")
    assert response.value("accept") == b"application/json"
    assert response.value("accept-post") == b"application/json"  # W3C LDP §7.1
    assert b"<b>" not in response.body and b"x=" not in response.body
    if as_problem:
        detail = json.loads(response.body)["detail"]
    else:
        detail = response.body.decode()
    assert "Content-Type (text/csv) is not one this resource accepts" in detail


#: What the server makes of two Content-Type lines, the first one accepted
#: (docs/web.md, "Several lines of one field"): one malformed value where
#: they are joined (a 415), aiohttp's refusal (a 400), wsgiref's first line.
SEVERAL_CONTENT_TYPES = {
    "uvicorn-h11": 415,
    "uvicorn-httptools": 415,
    "waitress": 415,
    "wsgiref": 200,
    "aiohttp": 400,
}


def test_several_content_type_lines_are_what_the_server_makes_them(
    served: Served,
) -> None:
    first_accepted = served.post(b"application/json", b"Content-Type: text/csv")
    assert first_accepted.status == SEVERAL_CONTENT_TYPES[served.server]
    last_accepted = served.post(b"text/csv", b"Content-Type: application/json")
    assert last_accepted.status == (400 if served.server == "aiohttp" else 415), (
        last_accepted.body
    )
    # wsgiref gives a request without Content-Type "text/plain"
    sent = raw_request("POST", "/body")
    absent = only_response(exchange(served.port, sent, TIMEOUT))
    assert absent.status == 415
    named = "(text/plain) is not one" if served.server == "wsgiref" else "is missing"
    assert named in absent.body.decode(), absent.body


def test_a_json_body_is_taken(served: Served) -> None:
    response = served.post(b"application/json")
    assert (response.status, response.body) == (200, DATA_JSON)
    assert_sent_by_the_library(response)
