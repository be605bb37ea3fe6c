"""Servers for the tests that go over a real socket: uvicorn (ASGI) and
waitress (WSGI), each in a thread of the test process, on a free loopback port.

Used by tests/test_sockets.py (the framework recipes) and
tests/test_compression.py (the compression recipe).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

#: How long a server may take to start or stop, and a request to be answered.
TIMEOUT = 10.0


@contextmanager
def uvicorn_serving(app: Any) -> Iterator[int]:
    """``app`` on uvicorn, in a thread, on a socket bound to a free port."""
    uvicorn = pytest.importorskip("uvicorn")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, lifespan="off", log_config=None, access_log=False)
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
