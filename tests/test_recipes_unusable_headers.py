"""An Accept-Language or Accept-Encoding a recipe cannot use is read as one
with no valid member, never a 500: ``Localize`` (examples/language_asgi.py)
and ``AcceptLanguageMiddleware`` (examples/frameworks/django_app.py) answer in
their default language, ``Compress`` (examples/compress_asgi.py) in identity,
each calling the application once, with the header in ``Vary``.

Unusable: over the negotiator's ``max_length`` (8,192 characters), in one
field line or in two that are one value together (RFC 9110 §5.3); members
that are all invalid (docs/rules.md rules 18, 19); bytes outside ASCII, and
for Django (str headers) text outside Latin-1. The length is checked before
any scan (rule 8): each over-long value starts with members that would choose
another answer, so a recipe that cut the value and read the start would fail
here. Each case runs on both engines (the negotiator of the recipe is swapped
for the engine's), and the joined lines also over a socket (uvicorn, waitress).
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
from collections.abc import MutableMapping
from typing import Any

import pytest

from fastaccept._limits import DEFAULT_MAX_LENGTH

from .conftest import Engine, load_example
from .recipes import Reply, load_recipe
from .servers import TIMEOUT, uvicorn_serving, waitress_serving

Message = MutableMapping[str, Any]

LANGUAGES = ["en", "fr", "de"]
GREETINGS = {"en": "hello", "fr": "bonjour", "de": "hallo"}

#: Over the limit alone: ``fr`` and ``gzip`` first, so the value's start
#: would choose them.
LONG_LANGUAGE = b"fr, " + b"de;q=0.5, " * 900
LONG_CODING = b"gzip, " + b"br;q=0.5, " * 900
#: Under the limit each, over it joined by ", ": each alone would choose them.
HALF_LANGUAGE = b"fr, " + b"de;q=0.5, " * 500
HALF_CODING = b"gzip, " + b"br;q=0.5, " * 500

#: Every member invalid (docs/rules.md rules 18, 19).
BAD_LANGUAGE = b"fr_FR, *-DE, de;q=2, en;x=1, 12345"
BAD_CODING = b"gzip;q=2, br;level=1, *;q=abc, g zip"

#: Field lines, and the answer to them: the language, or the coding.
Lines = tuple[list[bytes], str]
#: Each case: (Accept-Language lines, language), (Accept-Encoding lines,
#: coding). "two lines": under the limit each, over it joined; ", valid": a
#: valid member beside the unusable ones, which counts.
CASES: dict[str, tuple[Lines, Lines]] = {
    "over-long": (([LONG_LANGUAGE], "en"), ([LONG_CODING], "identity")),
    "two lines": (([HALF_LANGUAGE] * 2, "en"), ([HALF_CODING] * 2, "identity")),
    "invalid": (([BAD_LANGUAGE], "en"), ([BAD_CODING], "identity")),
    "invalid, valid": (([BAD_LANGUAGE, b"de"], "de"), ([BAD_CODING, b"gzip"], "gzip")),
    "non-ASCII": (([b"fr\xe9, \xff\xfe"], "en"), ([b"gzip\xe9, \xff"], "identity")),
    "non-ASCII, valid": (([b"fr\xe9, de"], "de"), ([b"\xff, gzip"], "gzip")),
}


def test_the_over_long_cases_would_choose_otherwise_if_cut(engine: Engine) -> None:
    """The guard of the cases above: each over-long value (or line) is over
    the limit where it should be, and its first 8,192 characters choose fr or
    gzip, not the default."""
    languages = engine.LanguageNegotiator(LANGUAGES)
    codings = engine.EncodingNegotiator(["gzip", "identity"])
    assert len(LONG_LANGUAGE) > DEFAULT_MAX_LENGTH >= len(HALF_LANGUAGE)
    assert len(b", ".join([HALF_LANGUAGE] * 2)) > DEFAULT_MAX_LENGTH
    assert len(LONG_CODING) > DEFAULT_MAX_LENGTH >= len(HALF_CODING)
    assert len(b", ".join([HALF_CODING] * 2)) > DEFAULT_MAX_LENGTH
    for value in (LONG_LANGUAGE, HALF_LANGUAGE):
        assert languages.choose(value[:DEFAULT_MAX_LENGTH], "en") == "fr"
    for value in (LONG_CODING, HALF_CODING):
        assert codings.choose(value[:DEFAULT_MAX_LENGTH], "identity") == "gzip"


class Recorded:
    """A plain ASGI application that records each call's scope type and
    ``state["language"]``, and answers a compressible text."""

    TEXT = b"a line of text worth compressing\n" * 40

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls.append((scope["type"], scope.get("state", {}).get("language")))
        if scope["type"] != "http":
            return
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", b"%d" % len(self.TEXT)),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": self.TEXT})


def run(app: Any, lines: list[tuple[bytes, bytes]], kind: str = "http") -> Reply:
    """``app`` called once with these header lines, as a server would."""
    scope = {"type": kind, "method": "GET", "path": "/", "headers": lines}
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    if kind != "http":
        return Reply(0, {}, b"")
    start, *bodies = sent
    headers: dict[str, str] = {}
    for name, value in start["headers"]:
        key = name.decode("latin-1")
        text = value.decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    body = b"".join(message.get("body", b"") for message in bodies)
    return Reply(start["status"], headers, body)


@pytest.mark.parametrize("case", CASES)
def test_localize_and_compress_read_an_unusable_value_as_invalid(
    engine: Engine, case: str
) -> None:
    """Stacked as an application would stack them, each with the engine's
    negotiator: the HTTP answer, and a WebSocket told the language too."""
    (language_lines, language), (coding_lines, coding) = CASES[case]
    app = Recorded()
    localize = load_example("language_asgi.py").Localize(app, languages=LANGUAGES)
    localize.negotiator = engine.LanguageNegotiator(LANGUAGES)
    compress = load_example("compress_asgi.py").Compress(localize)
    compress.negotiator = engine.EncodingNegotiator(compress.negotiator.codings)
    lines = [(b"accept-language", line) for line in language_lines]
    lines += [(b"accept-encoding", line) for line in coding_lines]
    reply = run(compress, lines)
    assert reply.status == 200
    assert reply.headers["content-language"] == language
    assert reply.vary() == ["Accept-Language", "Accept-Encoding"]
    if coding == "identity":
        assert "content-encoding" not in reply.headers
        assert reply.body == Recorded.TEXT
    else:
        assert reply.headers["content-encoding"] == coding
        assert gzip.decompress(reply.body) == Recorded.TEXT
    assert reply.headers["content-length"] == str(len(reply.body))
    run(compress, lines, "websocket")
    assert app.calls == [("http", language), ("websocket", language)]


#: Django's headers are str: the cases as a WSGI server gives them (Latin-1,
#: several lines joined by ", "), and text outside Latin-1 besides.
DJANGO_CASES = [
    (case, ", ".join(line.decode("latin-1") for line in lines), language)
    for case, ((lines, language), _) in CASES.items()
] + [
    ("non-Latin-1", "fr-\u20ac, \u0434\u0435", "en"),
    ("non-Latin-1, valid", "fr-\u20ac, de", "de"),
]


@pytest.mark.parametrize(
    ("case", "value", "language"), DJANGO_CASES, ids=[c for c, _, _ in DJANGO_CASES]
)
def test_django_reads_an_unusable_accept_language_as_invalid(
    engine: Engine, case: str, value: str, language: str
) -> None:
    module = load_recipe("django_app")
    import django

    django.setup()
    from django.http import HttpRequest, HttpResponse
    from django.test import RequestFactory

    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request.LANGUAGE_CODE)
        return HttpResponse("hello")

    middleware = module.AcceptLanguageMiddleware(view)
    middleware.negotiator = engine.LanguageNegotiator(middleware.codes)
    request = RequestFactory().get("/", headers={"Accept-Language": value})
    response = middleware(request)
    assert seen == [language]
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language
    assert response.headers["Vary"] == "Accept-Language, Cookie"


def two_lines(port: int, name: str, path: str, lines: list[bytes]) -> Reply:
    """GET ``path`` with one ``name`` field line per value, over a socket."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.putheader("Accept", "application/json")
        for line in lines:
            connection.putheader(name, line)
        connection.endheaders()
        response = connection.getresponse()
        headers: dict[str, str] = {}
        for key, value in response.getheaders():
            key = key.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        return Reply(response.status, headers, response.read())
    finally:
        connection.close()


@pytest.mark.thread_unsafe(reason="starts uvicorn on a loopback port")
def test_localize_and_compress_over_uvicorn_with_two_long_lines() -> None:
    language = load_example("language_asgi.py")
    compress = load_example("compress_asgi.py")
    app = Recorded()
    stack = language.Localize(compress.Compress(app), languages=LANGUAGES)
    with uvicorn_serving(stack) as port:
        reply = two_lines(port, "Accept-Language", "/", [HALF_LANGUAGE] * 2)
        assert (reply.status, reply.headers["content-language"]) == (200, "en")
        reply = two_lines(port, "Accept-Encoding", "/", [HALF_CODING] * 2)
        assert reply.status == 200
        assert "content-encoding" not in reply.headers
        assert reply.body == Recorded.TEXT
        reply = two_lines(port, "Accept-Encoding", "/", [b"br;q=0", b"gzip"])
        assert reply.headers["content-encoding"] == "gzip"  # joined, and usable
    assert app.calls == [("http", "en")] * 3
    assert reply.vary() == ["Accept-Encoding", "Accept-Language"]


@pytest.mark.thread_unsafe(reason="starts waitress on a loopback port")
def test_django_over_waitress_with_two_long_lines() -> None:
    module = load_recipe("django_app")
    with waitress_serving(module.application) as port:
        reply = two_lines(port, "Accept-Language", "/greeting", [HALF_LANGUAGE] * 2)
        assert reply.status == 200, reply.body
        assert reply.headers["content-language"] == "en"
        assert reply.body == b'{"greeting": "hello"}'
        assert "Accept-Language" in reply.vary()
        reply = two_lines(port, "Accept-Language", "/greeting", [b"de;q=0.5", b"fr"])
        assert reply.body == b'{"greeting": "bonjour"}'  # joined, and usable


def test_django_itself_fails_on_a_content_type_charset_it_does_not_know() -> None:
    """Out of the recipe's reach (reported for docs/web.md): Django builds the
    request before any middleware runs and raises on an RFC 2231 parameter
    naming an unknown charset (Django ticket #36991); the WSGI server answers
    500. For fastaccept the value is ``application/json`` with a parameter
    (RFC 9110 §8.3.1), which the recipe takes."""
    module = load_recipe("django_app")
    import django

    django.setup()
    from django.core.exceptions import BadRequest
    from django.test import RequestFactory

    content_type = "application/json; charset*=bogus''x"
    # Refused from 5.2.18, 6.0.9 and 6.1.2 on (a line after those: from its
    # first); read as the charset x before.
    major, minor, micro = django.VERSION[:3]
    if micro < {(5, 2): 18, (6, 0): 9, (6, 1): 2}.get((major, minor), 0):
        RequestFactory().post("/messages", b"{}", content_type=content_type)
    else:  # 5.2 and 6.0 name the charset; 6.1 raises BadRequest without it
        refused = "bogus|Invalid Content-Type"
        with pytest.raises((ValueError, BadRequest), match=refused):
            RequestFactory().post("/messages", b"{}", content_type=content_type)
    assert module.MESSAGE_TYPES.check(content_type).media_type == "application/json"
