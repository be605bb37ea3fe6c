"""examples/compress_asgi.py on uvicorn, over a real socket, read with http.client.

http.client sends only the header lines given and never decompresses, so
what is checked is what is on the wire: the coding chosen by the negotiator
(not by ``"gzip" in header``), the body that decompresses to the original,
``Vary`` on every compressible response, and what is left alone.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import load_example
from .servers import TIMEOUT, uvicorn_serving

pytestmark = pytest.mark.thread_unsafe(
    reason="starts one uvicorn server on a loopback port for the module"
)
pytest.importorskip("uvicorn", reason="the [examples] extra is not installed")

Reply = tuple[int, http.client.HTTPMessage, bytes]


recipe = load_example("compress_asgi.py")
PRECOMPRESSED = gzip.compress(b"already gzip " * 200)


async def app(scope: Any, receive: Any, send: Any) -> None:
    """The demo, plus ``/encoded``: a body the application compressed itself;
    ``/tagged``: the text with a strong ETag, its first 1,000 bytes as a
    206 when the request has a ``Range``, a 304 when it has an
    ``If-None-Match``; ``/bodiless``: 9,000 bytes, none of them sent to HEAD;
    ``/partial``: the same, 100 of them sent to HEAD."""
    path = scope["path"] if scope["type"] == "http" else ""
    if path in ("/bodiless", "/partial"):  # a HEAD answered without its body
        headers = [(b"content-type", b"text/plain"), (b"content-length", b"9000")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        body = b"x" * 9000
        if scope["method"] == "HEAD":  # or with a part of it
            body = body[:100] if path == "/partial" else b""
        await send({"type": "http.response.body", "body": body})
        return
    if path == "/tagged" and any(n == b"if-none-match" for n, _ in scope["headers"]):
        headers = [(b"etag", b'"text-1"')]  # a 304 has no Content-Type
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return
    if path in ("/encoded", "/tagged"):
        body, status = PRECOMPRESSED, 200
        headers = [(b"content-type", b"text/plain")]
        if path == "/encoded":
            headers.append((b"content-encoding", b"gzip"))
        else:
            body = TEXT
            headers.append((b"etag", b'"text-1"'))
            if any(name == b"range" for name, _ in scope["headers"]):
                body, status = TEXT[:1000], 206
                headers.append((b"content-range", b"bytes 0-999/%d" % len(TEXT)))
        headers.append((b"content-length", b"%d" % len(body)))
        await send(
            {"type": "http.response.start", "status": status, "headers": headers}
        )
        await send({"type": "http.response.body", "body": body})
        return
    await recipe.demo(scope, receive, send)


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with uvicorn_serving(recipe.Compress(app)) as bound:
        yield bound


def request(
    port: int,
    path: str = "/",
    accept: str | None = None,
    method: str = "GET",
    fields: tuple[tuple[str, str], ...] = (),
) -> Reply:
    """``path``'s answer, with ``Accept-Encoding: accept`` and ``fields``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        if accept is not None:
            connection.putheader("Accept-Encoding", accept)
        for name, value in fields:
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def vary(headers: http.client.HTTPMessage) -> list[str]:
    return [
        token.strip() for v in headers.get_all("vary", []) for token in v.split(",")
    ]


TEXT = recipe.TEXT.encode()
STREAM = b"".join(b"chunk %d: %s" % (n, TEXT) for n in range(5))


def test_gzip_is_sent_to_gzip(port: int) -> None:
    status, headers, body = request(port, accept="gzip")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert int(headers["content-length"]) == len(body) < len(TEXT)
    assert gzip.decompress(body) == TEXT
    assert vary(headers) == ["Cookie", "Accept-Encoding"]


@pytest.mark.parametrize(
    "accept",
    [
        None,
        "gzip;q=0",
        "notgzip",
        "",
        "identity",
        "x-notgzip, gzip ;q=0",
        "identity;q=0, *;q=0",  # nothing acceptable: identity anyway (§12.5.3)
        "gzip, " + "br;q=0.5, " * 900,  # over 8,192: read as no valid member
    ],
    ids=lambda accept: str(accept)[:40],
)
def test_identity_where_gzip_in_header_would_say_gzip(
    port: int, accept: str | None
) -> None:
    status, headers, body = request(port, accept=accept)
    assert status == 200
    assert "content-encoding" not in headers
    assert body == TEXT
    assert int(headers["content-length"]) == len(TEXT)
    assert vary(headers) == ["Cookie", "Accept-Encoding"]


def test_weights_and_server_order(port: int) -> None:
    _, headers, body = request(port, accept="br;q=0.5, zstd;q=0.1, gzip")
    assert headers["content-encoding"] == "gzip"  # the weight, not the order
    assert gzip.decompress(body) == TEXT
    _, headers, _ = request(port, accept="x-gzip")  # §8.4.1.3 alias of gzip
    assert headers["content-encoding"] == "gzip"
    best = recipe.Compress(app).negotiator.codings[0]
    _, headers, _ = request(port, accept="gzip, deflate, br, zstd")
    assert headers["content-encoding"] == best  # equal weights: server order


def test_br_where_brotli_is_installed(port: int) -> None:
    brotli = pytest.importorskip("brotli")
    _, headers, body = request(port, accept="gzip;q=0.5, br")
    assert headers["content-encoding"] == "br"
    assert brotli.decompress(body) == TEXT
    assert int(headers["content-length"]) == len(body)


def _zstd_decompress() -> Callable[[bytes], bytes]:
    """zstd decompression from what the recipe encodes with: ``compression.zstd``
    (Python 3.14) or the ``zstandard`` package; the test skips without either."""
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        zstandard = pytest.importorskip("zstandard")

        def decompress(body: bytes) -> bytes:
            return bytes(zstandard.ZstdDecompressor().decompressobj().decompress(body))

        return decompress
    return zstd.decompress  # type: ignore[no-any-return,unused-ignore]


@pytest.mark.parametrize("path", ["/", "/stream"])
def test_zstd_where_python_or_zstandard_has_it(port: int, path: str) -> None:
    decompress = _zstd_decompress()
    _, headers, body = request(port, path, accept="gzip;q=0.5, zstd")
    assert headers["content-encoding"] == "zstd"
    expected = TEXT if path == "/" else STREAM
    assert decompress(body) == expected


def test_streaming_is_compressed_chunk_by_chunk(port: int) -> None:
    status, headers, body = request(port, "/stream", accept="gzip")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["transfer-encoding"] == "chunked"
    assert "content-length" not in headers
    assert gzip.decompress(body) == STREAM
    # Each chunk was flushed: a decoder fed the start gets the first chunk's text.
    partial = zlib.decompressobj(31).decompress(body[: len(body) // 2])
    assert partial.startswith(b"chunk 0: ")
    _, headers, body = request(port, "/stream", accept="gzip;q=0")
    assert "content-encoding" not in headers
    assert body == STREAM
    assert vary(headers) == ["Cookie", "Accept-Encoding"]


@pytest.mark.parametrize(
    ("path", "expected_vary"),
    [
        ("/small", ["Cookie", "Accept-Encoding"]),  # compressible, under minimum
        ("/logo.png", []),  # not compressible: left alone entirely
        ("/encoded", []),  # the application's own Content-Encoding
    ],
)
def test_left_alone(port: int, path: str, expected_vary: list[str]) -> None:
    _, plain_headers, plain = request(port, path)
    status, headers, body = request(port, path, accept="gzip")
    assert status == 200
    assert body == plain
    assert headers.get("content-encoding") == plain_headers.get("content-encoding")
    assert headers["content-length"] == str(len(body))
    assert vary(headers) == expected_vary
    if path == "/encoded":
        assert body == PRECOMPRESSED


def test_a_strong_etag_is_weakened_and_a_range_left_alone(port: int) -> None:
    """RFC 9110 §8.8.3.3: a strong ETag names the identity bytes, so the
    compressed ones carry it weak; a 206's Content-Range counts identity
    bytes, so it is sent as it is."""
    status, headers, body = request(port, "/tagged", accept="gzip")
    assert (status, headers["content-encoding"]) == (200, "gzip")
    assert headers["etag"] == 'W/"text-1"'
    assert gzip.decompress(body) == TEXT
    assert request(port, "/tagged", accept="identity")[1]["etag"] == '"text-1"'
    range_ = (("Range", "bytes=0-999"),)
    status, headers, body = request(port, "/tagged", accept="gzip", fields=range_)
    assert (status, body) == (206, TEXT[:1000])
    assert "content-encoding" not in headers
    assert headers["etag"] == '"text-1"'


def test_head_has_the_headers_of_get(port: int) -> None:
    """RFC 9110 §9.3.2: the body the application sends to HEAD (Starlette's
    do, the server drops it) is compressed to give GET's Content-Length; one
    without a body gives the coding's headers, without a Content-Length."""
    for path in ("/", "/tagged", "/bodiless", "/partial", "/small"):
        _, got, _ = request(port, path, accept="gzip")
        status, headers, body = request(port, path, accept="gzip", method="HEAD")
        assert (status, body) == (200, b"")
        for name in ("content-encoding", "etag", "content-type"):
            assert headers.get(name) == got.get(name), (path, name)
        assert vary(headers) == vary(got)
        bodiless = path in ("/bodiless", "/partial")
        expected = None if bodiless else got["content-length"]
        assert headers.get("content-length") == expected
    _, headers, _ = request(port, "/bodiless", accept="gzip", method="HEAD")
    assert headers["content-encoding"] == "gzip"
    _, headers, _ = request(port, accept="identity", method="HEAD")
    assert "content-encoding" not in headers
    assert headers["content-length"] == str(len(TEXT))


def test_a_304_has_the_vary_and_etag_of_the_200(port: int) -> None:
    """RFC 9110 §15.4.5: a 304 carries the ETag and Vary its 200 would: the
    weak ETag where the request names the compressed copy it holds."""
    _, got, _ = request(port, "/tagged", accept="gzip")
    for held, accept, expected in [
        ('W/"text-1"', "gzip", 'W/"text-1"'),
        ('"text-1"', "identity", '"text-1"'),
        ('"other", W/"text-1"', "gzip", 'W/"text-1"'),
        # Identity chosen: its 200's ETag is the strong one, whatever is held.
        ('W/"text-1", "text-1"', "identity", '"text-1"'),
        ('W/"text-1"', None, '"text-1"'),
        # Named weak only as a member of the list (not inside another).
        ('xW/"text-1"', "gzip", '"text-1"'),
        ('W/"text-1"x', "gzip", '"text-1"'),
    ]:
        fields = (("If-None-Match", held),)
        status, headers, body = request(port, "/tagged", accept, fields=fields)
        assert (status, body) == (304, b"")
        assert headers["etag"] == expected
        assert vary(headers) == ["Accept-Encoding"] == vary(got)


def _sent(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``Compress`` sends on for an app that sends ``messages`` to a
    GET with ``Accept-Encoding: gzip``."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        for message in messages:
            await send(message)

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    scope = {
        "type": "http",
        "method": "GET",
        "headers": [(b"accept-encoding", b"gzip")],
        "extensions": {"http.response.pathsend": {}},
    }
    asyncio.run(recipe.Compress(app)(scope, receive, send))
    return sent


START = {
    "type": "http.response.start",
    "status": 200,
    "headers": [(b"content-type", b"text/plain"), (b"content-length", b"9000")],
}


@pytest.mark.parametrize(
    "sent_by_server",
    [
        {"type": "http.response.pathsend", "path": "/srv/big.txt"},
        {"type": "http.response.zerocopysend", "file": 3},
    ],
)
def test_a_file_the_server_sends_is_left_alone(sent_by_server: dict[str, Any]) -> None:
    """``pathsend``, ``zerocopysend`` (a server's file): the start goes first."""
    assert _sent([START, sent_by_server]) == [START, sent_by_server]


def test_another_message_before_the_body_keeps_the_start_held() -> None:
    push = {"type": "http.response.push", "path": "/style.css", "headers": []}
    body = {"type": "http.response.body", "body": b"x" * 9000}
    sent = _sent([START, push, body])
    assert [m["type"] for m in sent] == [push["type"], START["type"], body["type"]]
    assert (b"content-encoding", b"gzip") in sent[1]["headers"]
    assert gzip.decompress(sent[2]["body"]) == body["body"]


def test_several_accept_encoding_lines_are_one_value(port: int) -> None:
    lines = (("Accept-Encoding", "identity;q=0.5"), ("Accept-Encoding", "gzip"))
    _, headers, body = request(port, fields=lines)
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == TEXT
