"""Servers for the tests that go over a real socket: uvicorn (ASGI), waitress
and the standard library's wsgiref (WSGI), aiohttp's own server, each in a
thread of the test process, on a free loopback port.

Used by tests/test_sockets.py (the framework recipes),
tests/test_compression.py (the compression recipe) and
tests/test_socket_attacks.py (hostile requests to every integration).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest

#: How long a server may take to start or stop, and a request to be answered.
TIMEOUT = 10.0

T = TypeVar("T")


@contextmanager
def uvicorn_serving(app: Any, http: str = "auto") -> Iterator[int]:
    """``app`` on uvicorn, in a thread, on a socket bound to a free port.

    ``http`` is uvicorn's HTTP/1.1 implementation: ``"h11"``, ``"httptools"``
    (skipped where it is not installed) or ``"auto"`` (httptools if there).
    """
    uvicorn = pytest.importorskip("uvicorn")
    if http != "auto":
        pytest.importorskip(http)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        app, http=http, lifespan="off", log_config=None, access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
    thread.start()
    try:
        deadline = time.monotonic() + TIMEOUT
        while not server.started:
            assert thread.is_alive(), "uvicorn stopped before it started"
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()
    assert not thread.is_alive(), "uvicorn did not stop"


@contextmanager
def waitress_serving(app: Any) -> Iterator[int]:
    """``app`` on waitress, in a thread, on a free port.

    The serving thread also stops it: the main thread only sets a flag. (Its
    trigger, ``pull_trigger(server.close)``, races the workers' own wake-ups:
    one of them can run the close before the main thread's write, which then
    meets a closed pipe.)
    """
    waitress = pytest.importorskip("waitress")
    wasyncore = pytest.importorskip("waitress.wasyncore")

    sockets: dict[int, Any] = {}  # waitress's socket map, this server's only
    server = waitress.create_server(app, map=sockets, host="127.0.0.1", port=0)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            wasyncore.loop(timeout=0.02, map=sockets, count=1)
        server.task_dispatcher.shutdown()  # the workers finish what they serve
        server.close()
        wasyncore.close_all(sockets)  # and any connection still open

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        yield server.effective_port
    finally:
        stop.set()
        thread.join(TIMEOUT)
    assert not thread.is_alive(), "waitress did not stop"


class QuietHandler(WSGIRequestHandler):
    """wsgiref's request handler without its log of request lines (to stderr);
    a connection left idle is dropped after ``TIMEOUT``, so a stuck client
    cannot hold the single-threaded server, nor its shutdown."""

    timeout = TIMEOUT  # socketserver's per-connection socket timeout

    def log_message(self, format: str, *args: Any) -> None:
        """Nothing: errors still reach stderr through ``wsgi.errors``."""


@contextmanager
def wsgiref_serving(app: Any) -> Iterator[int]:
    """``app`` on the standard library's ``wsgiref.simple_server``, in a
    thread, on a free port: one connection at a time, one request each
    (it answers HTTP/1.0 and closes)."""
    server = make_server("127.0.0.1", 0, app, handler_class=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,))
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()  # returns once serve_forever has
        server.server_close()
        thread.join(TIMEOUT)
    assert not thread.is_alive(), "wsgiref did not stop"


@contextmanager
def loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    """A new event loop running in a thread of its own (``run_in`` runs a
    coroutine there from another thread), stopped and closed after. A
    daemon thread: one left running (``aiohttp_call``'s, kept by a failed
    test's traceback until after the interpreter joins its threads) does
    not hold the run's exit."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(TIMEOUT)
        loop.close()
    assert not thread.is_alive(), "the event loop did not stop"


def run_in(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> T:
    """What ``coroutine`` returns, run on ``loop`` (``loop_thread``'s)."""
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(TIMEOUT)


@contextmanager
def aiohttp_serving(app: Any) -> Iterator[int]:
    """``app`` (an ``aiohttp.web.Application``) on aiohttp's own server
    (``web.AppRunner`` and ``web.SockSite``, its defaults), on an event loop
    in a thread, on a socket bound to a free port."""
    web = pytest.importorskip("aiohttp.web")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    runner = web.AppRunner(app, access_log=None)
    with loop_thread() as loop:
        run_in(loop, runner.setup())
        try:
            run_in(loop, web.SockSite(runner, sock).start())
            yield sock.getsockname()[1]
        finally:
            run_in(loop, runner.cleanup())
            sock.close()


def exchange(port: int, request: bytes, timeout: float = TIMEOUT) -> bytes:
    """Everything the server on ``port`` sends for ``request`` (raw bytes,
    which should ask it to close), until it closes the connection.

    The request is sent from another thread while this one reads, so that a
    server answering before it has read it all (a refusal of an over-long
    header) is heard even as the sending fails; a reset ends the reading,
    keeping what came before it.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:

        def send() -> None:
            with suppress(OSError):  # the server stopped reading: it answered
                sock.sendall(request)

        sender = threading.Thread(target=send)
        sender.start()
        received = bytearray()
        with suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                received += chunk
        sender.join(timeout)
    return bytes(received)
