"""Shared negotiated endpoints under load in threads, for a free-threaded CPython.

Each thread runs its own asyncio event loop, as an ASGI server's workers do,
with ``--tasks`` requests in flight, all to one Starlette application made at
import: a ``Renderers`` endpoint, a ``dispatch`` endpoint, and a
``Negotiator`` and ``Produces`` read directly, every object shared by all
threads. The requests take 2,048 distinct Accept values in turn, more than a
negotiator's cache keeps (browser values, ranges no offer takes, bad
members, a value over the length limit).
Every answer is compared with the one the same request got alone, before the
threads started; an exception or another answer is printed and counted, and
the exit status is 1 if there was any (docs/free-threading.md)::

    python tools/threaded_load.py --threads 4 --requests 2000000

Needs Starlette (the test extra).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Route

import fastaccept
from fastaccept.starlette import dispatch, negotiated

OFFERS: list[str | tuple[str, float]] = [
    "application/json",
    "text/html; charset=utf-8",
    ("text/plain", 0.5),
]


def renderer(offer: object) -> Callable[[Any], str]:
    return lambda data: f"{offer}:{data}"


RENDERERS = fastaccept.Renderers({offer: renderer(offer) for offer in OFFERS})
NEGOTIATOR = fastaccept.Negotiator(OFFERS)
PRODUCES = fastaccept.Produces(OFFERS)


@negotiated(RENDERERS)
async def rendered(request: Any) -> str:
    return "data"


async def json_handler(request: Any) -> str:
    return "{}"


async def html_handler(request: Any) -> str:
    return "<p>"


dispatched = dispatch({"application/json": json_handler, "text/html": html_handler})

APP = Starlette(routes=[Route("/r", rendered), Route("/d", dispatched)])

VALUES = [
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json",
    "text/plain;q=0.9, text/html;q=0.1",
    "image/avif,image/webp,*/*;q=0.5",
    "application/xml",  # no offer: 406
    "text/html;level=1;q=0.5, application/json;q=0.4",
    'text/*;x="a\\"b", */*;q=0',
    "text/html;q=2, application/json;q=0.3",  # a bad member
    "*/*;q=0.1, text/plain",
    "application/problem+json, text/plain;q=0.1",
    "a" * 9000,  # over the default limit: 431 for the endpoints
]


def value_of(index: int) -> str:
    """The ``index``-th of the distinct Accept values."""
    base = VALUES[index % len(VALUES)]
    return base if len(base) > 8192 else f"{base}, x-load/v{index}"


async def asgi(path: str, accept: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"x"), (b"accept", accept.encode("latin-1"))],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    await APP(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


async def answer(index: int) -> tuple[Any, ...]:
    """Everything the request ``index`` gets from the shared objects."""
    accept = value_of(index)
    path = "/r" if index % 2 else "/d"
    try:
        chosen = NEGOTIATOR.choose(accept)
    except fastaccept.AcceptError:
        chosen = "too long"
    return (*await asgi(path, accept), chosen, PRODUCES.select(accept).status)


def worker(first: int, step: int, count: int, tasks: int, out: list[Any]) -> None:
    async def run() -> None:
        async def one_task(start: int) -> None:
            for index in range(start, first + count * step, step * tasks):
                try:
                    got = await answer(index % len(EXPECTED))
                except Exception as error:  # each is reported
                    out.append((index, repr(error)))
                    continue
                if got != EXPECTED[index % len(EXPECTED)]:
                    out.append((index, got))

        await asyncio.gather(*(one_task(first + t * step) for t in range(tasks)))

    asyncio.run(run())


def positive(text: str) -> int:
    """An argument that counts something: 1 or more (0 threads or tasks
    would send nothing and pass)."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 or more")
    return number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=positive, default=4)
    parser.add_argument("--tasks", type=positive, default=16)
    parser.add_argument("--requests", type=positive, default=1_000_000)
    args = parser.parse_args()
    if args.requests < args.threads:
        parser.error("--requests: give at least one request per thread")
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(
        sys.version.split()[0],
        "GIL on" if gil else "GIL off",
        fastaccept.IMPLEMENTATION,
    )
    per_thread = args.requests // args.threads
    failures: list[Any] = []
    threads = [
        threading.Thread(
            target=worker,
            args=(t, args.threads, per_thread, args.tasks, failures),
        )
        for t in range(args.threads)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - started
    made = per_thread * args.threads
    print(f"{made:,} requests in {took:.1f} s, {len(failures)} failed")
    for failure in failures[:20]:
        print(failure)
    return 1 if failures else 0


#: Each distinct request's answer alone (the values repeat every 2,048 requests).
EXPECTED = [asyncio.run(answer(index)) for index in range(2048)]

if __name__ == "__main__":
    sys.exit(main())
