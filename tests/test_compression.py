"""examples/compress_asgi.py on uvicorn, over a real socket, read with http.client.

http.client sends only the header lines given and never decompresses, so
what is checked is what is on the wire: the coding chosen by the negotiator
(not by ``"gzip" in header``), the body that decompresses to the original,
``Vary`` on every compressible response, and what is left alone.
"""

from __future__ import annotations

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
    ``/tagged``: the text with a strong ETag, and its first 1,000 bytes as a
    206 when the request has a ``Range``."""
    path = scope["path"] if scope["type"] == "http" else ""
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


def test_head_is_not_compressed(port: int) -> None:
    status, headers, body = request(port, accept="gzip", method="HEAD")
    assert status == 200
    assert body == b""
    assert "content-encoding" not in headers
    assert headers["content-length"] == str(len(TEXT))
    assert vary(headers) == ["Cookie", "Accept-Encoding"]


def test_several_accept_encoding_lines_are_one_value(port: int) -> None:
    lines = (("Accept-Encoding", "identity;q=0.5"), ("Accept-Encoding", "gzip"))
    _, headers, body = request(port, fields=lines)
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == TEXT
