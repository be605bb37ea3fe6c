"""Response compression for any ASGI app, by Accept-Encoding (RFC 9110 §12.5.3).

    uvicorn compress_asgi:app --app-dir examples --port 8000
    curl -si -H 'Accept-Encoding: gzip' http://127.0.0.1:8000/ | head

Starlette's ``GZipMiddleware`` tests ``"gzip" in accept_encoding``, so
``gzip;q=0`` and ``notgzip`` get gzip. ``Compress`` asks
``fastaccept.EncodingNegotiator`` instead, over the codings this Python has:
zstd (``compression.zstd`` on 3.14, else the ``zstandard`` package), br (the
``brotli`` package), gzip (``zlib``) and identity, in that server order: at
equal weights the first of them wins (``gzip, deflate, br, zstd`` gets zstd,
whichever output would be smaller).

Every compressible response (a text-like ``Content-Type``) gets
``Accept-Encoding`` merged into its ``Vary``, identity or not; a strong
``ETag`` of one it compresses is made weak (RFC 9110 §8.8.1: one validator
shared by the gzip and the identity representation is weak; Django's
``GZipMiddleware`` does the same). HEAD gets the headers GET would (RFC 9110
§9.3.2): the body the application sends is compressed (the server does not
send it) for its ``Content-Length``; where it sends less than the
``Content-Length`` it declares (none, say), that length is judged as the
body's size, and left out where GET's body is compressed; a HEAD with neither
gets identity's headers. A 304 has no ``Content-Type`` to judge by: it gets
``Accept-Encoding`` in its ``Vary`` (one of a type left alone too, a token its
200 has not), and, where a coding is chosen and the request's
``If-None-Match`` names the weak ``ETag``, the compressed copy its client
holds, that ``ETag`` weak (RFC 9110 §15.4.5: the ``ETag`` and ``Vary`` a 200
would have; a 304 to ``If-None-Match: *`` or to ``If-Modified-Since`` alone
keeps its ``ETag`` as it is). Left as they are: bodies under ``minimum_size``
sent in one message, responses with a ``Content-Encoding`` or a
``Content-Range`` (a 206, whose range counts the identity bytes), other types
(``image/png``...), and a file the server sends itself
(``http.response.pathsend``, ``zerocopysend``: its HEAD and its 304, without
the file, are judged as any other). Streamed bodies (``more_body``) are
compressed chunk by chunk, each flushed, without ``Content-Length``. When the
client refuses every coding (``identity;q=0, *;q=0``) identity is sent anyway,
the header disregarded as §12.4.1 allows, rather than a 406. An unusable
header gets identity too: a value with no valid member (docs/rules.md rule
18), and one over the negotiator's ``max_length`` (8,192 characters, several
field lines joined), which the negotiator refuses before reading it (rule 8)
and ``Compress`` reads as having no valid member.
"""

from __future__ import annotations

import importlib
import re
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastaccept import AcceptError, EncodingNegotiator, header_from_scope, merge_vary

Message = MutableMapping[str, Any]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
#: ``encode(chunk, last)``: the compressed bytes so far, flushed.
Encode = Callable[[bytes, bool], bytes]


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _gzip() -> Encode:
    c = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits=31: gzip header
    return lambda d, last: (
        c.compress(d) + c.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
    )


ENCODERS: dict[str, Callable[[], Encode]] = {}
if (zstd := _optional("compression.zstd")) is not None:
    Z = zstd.ZstdCompressor

    def _zstd() -> Encode:
        c = Z()
        return lambda d, last: c.compress(d, Z.FLUSH_FRAME if last else Z.FLUSH_BLOCK)

    ENCODERS["zstd"] = _zstd
elif (zstandard := _optional("zstandard")) is not None:

    def _zstd() -> Encode:
        c = zstandard.ZstdCompressor().compressobj()
        ends = zstandard.COMPRESSOBJ_FLUSH_FINISH, zstandard.COMPRESSOBJ_FLUSH_BLOCK
        return lambda d, last: c.compress(d) + c.flush(ends[0] if last else ends[1])

    ENCODERS["zstd"] = _zstd
if (brotli := _optional("brotli")) is not None:

    def _br() -> Encode:
        c = brotli.Compressor()
        return lambda d, last: c.process(d) + (c.finish() if last else c.flush())

    ENCODERS["br"] = _br
ENCODERS["gzip"] = _gzip

#: What sends a body the server reads itself (ASGI's ``pathsend`` and
#: ``zerocopysend`` extensions): the start goes as it is, uncompressed.
SENT_BY_SERVER = ("http.response.pathsend", "http.response.zerocopysend")

TEXT_LIKE = ("text/", "application/json", "application/javascript", "image/svg+xml")


def compressible(content_type: str) -> bool:
    media = content_type.partition(";")[0].strip().lower()
    return media.startswith(TEXT_LIKE) or media.endswith(("+json", "+xml", "/xml"))


class Compress:
    """``app`` with its responses compressed as the request accepts."""

    def __init__(self, app: App, *, minimum_size: int = 500) -> None:
        self.app, self.minimum_size = app, minimum_size
        self.negotiator = EncodingNegotiator([*ENCODERS, "identity"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        coding = self.coding(header_from_scope(scope, "accept-encoding"))
        start: Message = {}
        encode: Encode | None = None

        async def sending(message: Message) -> None:
            nonlocal start, encode
            if message["type"] == "http.response.start":
                start = message  # held until the first body shows the size
                return
            if message["type"] != "http.response.body":
                if start and message["type"] in SENT_BY_SERVER:
                    await send(start)
                    start = {}
                return await send(message)
            body, more = message.get("body", b""), message.get("more_body", False)
            if start:
                # HEAD with less than the body it declares (none, say): the
                # size is the declared one, GET's.
                head = scope["method"] == "HEAD" and not more
                declared = declared_length(start) if head else None
                bodiless = declared is not None and len(body) < declared
                size = declared if declared is not None and bodiless else len(body)
                headers, encode = self.prepare(start, scope, coding, size, more)
                if encode is not None and not bodiless:
                    body = encode(body, not more)
                    if not more:
                        headers.append((b"content-length", b"%d" % len(body)))
                await send({**start, "headers": headers})
                start = {}
            elif encode is not None:
                body = encode(body, not more)
            await send({**message, "body": body})

        await self.app(scope, receive, sending)

    def coding(self, accepted: bytes | None) -> str:
        """The coding for an Accept-Encoding value (None: absent); identity
        when none is acceptable or the value is unusable."""
        try:
            return self.negotiator.choose(accepted, "identity")
        except AcceptError:  # over max_length: docs/rules.md 8, 18; RFC 9110 §12.5.3
            return "identity"

    def prepare(
        self, start: Message, scope: Scope, coding: str, size: int, more: bool
    ) -> tuple[list[tuple[bytes, bytes]], Encode | None]:
        """The headers to send, and the encoder if the body is compressed."""
        headers = [(bytes(k).lower(), bytes(v)) for k, v in start.get("headers", ())]
        kept = dict(headers)
        if start.get("status") == 304:
            return not_modified(headers, scope, coding), None
        if (
            b"content-encoding" in kept
            or b"content-range" in kept  # a 206's range counts identity bytes
            or not compressible(kept.get(b"content-type", b"").decode("latin-1"))
        ):
            return headers, None  # not ours to touch, Vary included
        headers = varied(headers)
        if coding == "identity" or (not more and size < self.minimum_size):
            return headers, None
        headers = [
            (k, b"W/" + v if k == b"etag" and v.startswith(b'"') else v)
            for k, v in headers
            if k != b"content-length"
        ]  # a strong ETag is the identity bytes' (RFC 9110 §8.8.1): weakened
        headers.append((b"content-encoding", coding.encode()))
        return headers, ENCODERS[coding]()


def varied(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with ``Accept-Encoding`` merged into one ``Vary``."""
    vary = [v.decode("latin-1") for k, v in headers if k == b"vary"]
    headers = [(k, v) for k, v in headers if k != b"vary"]
    return [*headers, (b"vary", merge_vary(*vary, "Accept-Encoding").encode())]


def not_modified(
    headers: list[tuple[bytes, bytes]], scope: Scope, coding: str
) -> list[tuple[bytes, bytes]]:
    """A 304's headers: ``Vary`` with ``Accept-Encoding``, and, where a coding
    is chosen and ``If-None-Match`` names the strong ``ETag`` weak (the
    compressed copy its client holds), that ``ETag`` weak."""
    held = header_from_scope(scope, "if-none-match") or b""
    return [
        (
            k,
            b"W/" + v
            if k == b"etag" and coding != "identity" and names(held, v)
            else v,
        )
        for k, v in varied(headers)
    ]


def names(held: bytes, etag: bytes) -> bool:
    """Whether the ``If-None-Match`` value ``held`` names ``etag`` weak, as
    one member of its list (RFC 9110 §13.1.2: ``1#entity-tag``)."""
    weak = re.escape(b"W/" + etag)
    return re.search(rb"(?:^|[ \t,])" + weak + rb"(?:$|[ \t,])", held) is not None


def declared_length(start: Message) -> int | None:
    """The ``Content-Length`` a response start declares (None: none)."""
    for name, value in start.get("headers", ()):
        if bytes(name).lower() == b"content-length" and bytes(value).strip().isdigit():
            return int(value)
    return None


TEXT = "A line of text, repeated so that it is worth compressing.\n" * 100


async def demo(scope: Scope, receive: Receive, send: Send) -> None:
    """``/``: text with ``Vary: Cookie``; ``/small``; ``/stream``; ``/logo.png``."""
    path, chunks = scope["path"], [TEXT.encode()]
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"vary", b"Cookie")]
    if path == "/small":
        chunks = [b"short"]
    elif path == "/stream":
        chunks = [b"chunk %d: %s" % (n, TEXT.encode()) for n in range(5)]
    elif path == "/logo.png":
        headers, chunks = [(b"content-type", b"image/png")], [b"\x89PNG" * 500]
    elif path != "/":
        headers, chunks = [(b"content-type", b"text/plain")], [b"not found"]
    if path != "/stream":
        headers.append((b"content-length", b"%d" % len(chunks[0])))
    status = 404 if path not in ("/", "/small", "/stream", "/logo.png") else 200
    await send({"type": "http.response.start", "status": status, "headers": headers})
    for n, chunk in enumerate(chunks, 1):
        more = n < len(chunks)
        await send({"type": "http.response.body", "body": chunk, "more_body": more})


app = Compress(demo)
