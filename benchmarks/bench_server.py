"""End to end: ``python -m benchmarks --server``.

Requests per second of one endpoint, ``GET /item``, served by a real server
on loopback: a FastAPI app on uvicorn and a Flask app on waitress, each in
two variants that answer the same bytes. ``fastaccept`` negotiates with the
project's integration (``fastaccept.fastapi``, ``fastaccept.flask``) as its
documentation shows; ``peer`` with the framework's own means: Flask's
``request.accept_mimetypes.best_match``, and for FastAPI, which has none,
werkzeug's ``parse_accept_header(value, MIMEAccept).best_match``. Each
renders a small record as JSON or HTML, with ``Vary: Accept``, and refuses an
unacceptable ``Accept`` the way its stack does (fastaccept's 406, Flask's
``abort(406)``, FastAPI's ``HTTPException(406)``); a missing ``Accept`` is
the first offer for fastaccept and a 406 for the peers (werkzeug's
``best_match`` gives ``None``). FastAPI's handlers are ``async def`` (no
thread pool), Flask's plain functions. Only the 200 path is timed.

Each run starts a fresh server process on a listening socket bound here (so
the port is free and connections queue until it serves), checks its answer,
loads it from this process (``load``: keep-alive connections on one
``selectors`` loop, one request in flight on each, Chrome's navigation
``Accept``), and stops it. Before the rounds the two variants' answers are
compared (status, body, ``Content-Type``, ``Vary``): a difference is an error.
The rounds alternate the variants, fastaccept first in odd rounds and the peer
first in even ones. The client's CPU time per request is measured too: the note
under the table says whether the client, not the server, set the pace.
"""

# No ``from __future__ import annotations``: FastAPI reads the peer handler's
# annotations at run time, and ``Request`` is imported where it is built.

import argparse
import importlib
import json
import os
import platform
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from importlib.metadata import version
from importlib.util import find_spec
from pathlib import Path
from typing import IO, Any

from fastaccept import Renderers
from fastaccept._defaults import BROWSER_DEFAULTS
from fastaccept._engine import IMPLEMENTATION

from .bench import _cpu, _measured_code, _table

ROOT = Path(__file__).resolve().parent.parent

FASTACCEPT = "fastaccept"
PEER = "peer"
VARIANTS = (FASTACCEPT, PEER)
#: The packages each stack's server needs, both variants.
STACKS = {
    "fastapi": ("fastapi", "uvicorn", "werkzeug"),
    "flask": ("flask", "waitress"),
}

#: The timed request's Accept value (HTML is chosen).
CHROME = BROWSER_DEFAULTS["chrome-navigate"]
PATH = "/item"

#: Seconds a server may take to answer its first request, and to stop.
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
#: Seconds the client waits for any answer before it gives up.
IO_TIMEOUT = 10.0

#: The handler's data: a small record, as an API or a page shows it.
DATA = {"id": 7, "name": "Ada Lovelace", "roles": ["admin", "editor"]}


def render_json(data: Any) -> str:
    return json.dumps(data)


def render_html(data: Any) -> str:
    roles = "".join(f"<li>{escape(role)}</li>" for role in data["roles"])
    return f"<h1>{escape(data['name'])}</h1><p>#{data['id']}</p><ul>{roles}</ul>"


#: fastaccept's offers, with their renderers.
RENDERERS = Renderers(
    {"application/json": render_json, "text/html; charset=utf-8": render_html}
)
#: The peers' offers: each framework adds ``charset=utf-8`` to ``text/html``.
RENDER = {"application/json": render_json, "text/html": render_html}
OFFERS = list(RENDER)
VARY = {"Vary": "Accept"}


def fastapi_fastaccept() -> Any:
    """FastAPI, negotiated by ``fastaccept.fastapi`` (``NegotiatedRoute``)."""
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get(PATH)
    @negotiated(RENDERERS)
    async def item() -> dict[str, Any]:
        return DATA

    return app


def fastapi_peer() -> Any:
    """FastAPI, negotiated by werkzeug's ``MIMEAccept.best_match``."""
    from fastapi import FastAPI, HTTPException, Request, Response
    from werkzeug.datastructures import MIMEAccept
    from werkzeug.http import parse_accept_header

    app = FastAPI()

    @app.get(PATH)
    async def item(request: Request) -> Response:
        accept = parse_accept_header(request.headers.get("accept"), MIMEAccept)
        chosen = accept.best_match(OFFERS)
        if chosen is None:
            raise HTTPException(406)
        return Response(RENDER[chosen](DATA), media_type=chosen, headers=VARY)

    return app


def flask_fastaccept() -> Any:
    """Flask, negotiated by ``fastaccept.flask``."""
    from flask import Flask

    from fastaccept.flask import negotiated

    app = Flask(__name__)

    @app.get(PATH)
    @negotiated(RENDERERS)
    def item() -> dict[str, Any]:
        return DATA

    return app


def flask_peer() -> Any:
    """Flask, negotiated by ``request.accept_mimetypes.best_match``."""
    from flask import Flask, Response, abort, request

    app = Flask(__name__)

    @app.get(PATH)
    def item() -> Response:
        chosen = request.accept_mimetypes.best_match(OFFERS)
        if chosen is None:
            abort(406)
        return Response(RENDER[chosen](DATA), mimetype=chosen, headers=VARY)

    return app


APPS: dict[tuple[str, str], Callable[[], Any]] = {
    ("fastapi", FASTACCEPT): fastapi_fastaccept,
    ("fastapi", PEER): fastapi_peer,
    ("flask", FASTACCEPT): flask_fastaccept,
    ("flask", PEER): flask_peer,
}


def uvicorn_choice() -> tuple[str, str]:
    """uvicorn's HTTP parser and event loop: httptools and uvloop where they
    are installed (as uvicorn's ``auto`` picks), else h11 and asyncio."""
    http = "httptools" if find_spec("httptools") else "h11"
    loop = "uvloop" if find_spec("uvloop") else "asyncio"
    return http, loop


def serve(stack: str, variant: str, fd: int) -> None:
    """Serve ``stack``'s ``variant`` on the listening socket ``fd`` until
    SIGTERM: FastAPI on uvicorn (one worker, no access log), Flask on
    waitress (its default 4 threads). The server process's main."""
    app = APPS[stack, variant]()
    sock = socket.socket(fileno=fd)
    if stack == "fastapi":
        import uvicorn

        http, loop = uvicorn_choice()
        config = uvicorn.Config(
            app,
            http=http,
            loop=loop,
            lifespan="off",
            access_log=False,
            log_level="warning",
        )
        uvicorn.Server(config).run(sockets=[sock])
    else:
        # waitress ships no type hints: imported as Any.
        waitress: Any = importlib.import_module("waitress")
        waitress.serve(app, sockets=[sock])


class ServerError(RuntimeError):
    """A server that did not start, stop or answer as it should."""


@dataclass(frozen=True)
class Answer:
    """What a response says that the two variants must agree on."""

    status: int
    content_type: str | None
    vary: str | None
    body: bytes


def request_bytes(port: int, accept: str) -> bytes:
    """``GET /item`` over keep-alive HTTP/1.1 with ``accept``."""
    return (
        f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Accept: {accept}\r\n\r\n".encode("latin-1")
    )


def _length(head: bytes | bytearray) -> int:
    """The Content-Length of a response head (status line and headers)."""
    lowered = head.lower()
    at = lowered.find(b"\r\ncontent-length:")
    if at < 0:
        raise ServerError(f"a response without Content-Length: {head!r}")
    end = lowered.find(b"\r\n", at + 2)
    return int(lowered[at + 17 : end if end >= 0 else None])


def _answer(response: bytes) -> Answer:
    """The ``Answer`` of one whole response."""
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    content_type, vary = (
        ", ".join(headers[name]) if name in headers else None
        for name in ("content-type", "vary")
    )
    return Answer(int(lines[0].split()[1]), content_type, vary, body)


@dataclass
class Server:
    """A server process serving on ``port``; ``errors`` holds its output."""

    process: subprocess.Popen[bytes]
    port: int
    errors: IO[bytes]

    def output(self) -> str:
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace")

    def fail(self, what: str) -> ServerError:
        return ServerError(f"{what}; its output:\n{self.output()}")

    def ask(self, accept: str, timeout: float = START_TIMEOUT) -> Answer:
        """The server's answer to one request with ``accept``, waiting up to
        ``timeout`` (the first, while it starts); an error if it exits."""
        deadline = time.monotonic() + timeout
        received = b""
        try:
            with socket.create_connection(("127.0.0.1", self.port), IO_TIMEOUT) as sock:
                sock.sendall(request_bytes(self.port, accept))
                sock.settimeout(0.05)
                while time.monotonic() < deadline:
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        if self.process.poll() is not None:
                            break
                        continue
                    if not chunk:
                        break
                    received += chunk
                    head, found, body = received.partition(b"\r\n\r\n")
                    if found and len(body) >= _length(head):
                        return _answer(received)
        except OSError:  # refused or reset: the server is going
            pass
        why = "closed" if time.monotonic() < deadline else f"{timeout:.0f} s passed"
        try:
            code = self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            raise self.fail(f"no whole answer ({why}): {received!r}") from None
        raise self.fail(f"the server exited ({code})")


@contextmanager
def serving(stack: str, variant: str) -> Iterator[Server]:
    """``stack``'s ``variant`` served by a new process on a free loopback
    port, stopped (SIGTERM, then SIGKILL) on leaving."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=128)
    fd = listener.fileno()
    command = [sys.executable, "-m", "benchmarks.bench_server", stack, variant, str(fd)]
    with listener, tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, cwd=ROOT, pass_fds=[fd], stdout=errors, stderr=errors
        )
        server = Server(process, listener.getsockname()[1], errors)
        listener.close()  # the server's copy listens
        try:
            yield server
        finally:
            process.terminate()
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired as error:
                process.kill()
                process.wait(STOP_TIMEOUT)
                stopped = f"the server did not stop in {STOP_TIMEOUT:.0f} s"
                raise server.fail(stopped) from error


@dataclass(frozen=True)
class Load:
    """One run of ``load``: requests per second, and the client's CPU
    seconds per request and share of one core over the timed window."""

    rate: float
    cpu_per_request: float
    cpu_share: float


def load(
    port: int, request: bytes, connections: int, warmup: float, duration: float
) -> Load:
    """Send ``request`` on ``connections`` keep-alive connections at once,
    each waiting for its whole answer (a 200, its length by Content-Length)
    before its next request, from one ``selectors`` loop in this process;
    count the answers completed in ``duration`` seconds after ``warmup`` (or
    until the first answer after them, if none completed in that time)."""
    selector = selectors.DefaultSelector()
    sockets = []
    try:
        for _ in range(connections):
            sock = socket.create_connection(("127.0.0.1", port), IO_TIMEOUT)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
            sockets.append(sock)
            selector.register(sock, selectors.EVENT_READ, (sock, bytearray()))
            sock.send(request)  # a few hundred bytes: the empty buffer takes them
        done = 0
        marks = [time.perf_counter() + warmup]
        marks.append(marks[0] + duration)
        seen: list[tuple[float, int, float]] = []
        conn: socket.socket
        buffer: bytearray
        while len(seen) < 2:
            events = selector.select(IO_TIMEOUT)
            if not events:
                raise ServerError(f"no answer in {IO_TIMEOUT:.0f} s")
            for key, _ in events:
                conn, buffer = key.data
                chunk = conn.recv(65536)
                if not chunk:
                    raise ServerError("the server closed a connection")
                buffer += chunk
                end = buffer.find(b"\r\n\r\n")
                if end < 0:
                    continue
                total = end + 4 + _length(buffer[:end])
                if len(buffer) < total:
                    continue
                if not buffer.startswith(b"HTTP/1.1 200 "):
                    raise ServerError(f"not a 200: {bytes(buffer[:total])!r}")
                del buffer[:total]
                done += 1
                if conn.send(request) != len(request):
                    raise ServerError("the request was not sent whole")
            now = time.perf_counter()
            # The window closes at its mark once an answer has completed in it:
            # a stalled server would otherwise leave none to divide by.
            if now >= marks[len(seen)] and (not seen or done > seen[0][1]):
                seen.append((now, done, time.process_time()))
    except OSError as error:  # refused, reset, a broken pipe: said, as the others
        raise ServerError(f"a connection to the server failed: {error}") from None
    finally:
        selector.close()
        for sock in sockets:
            sock.close()
    (start, first, cpu_start), (stop, last, cpu_stop) = seen
    cpu = cpu_stop - cpu_start
    return Load(
        (last - first) / (stop - start), cpu / (last - first), cpu / (stop - start)
    )


@dataclass(frozen=True)
class Settings:
    """How long to measure: ``quick`` is a smoke run (CI), not a measurement."""

    rounds: int = 5
    connections: int = 8
    warmup: float = 0.5
    duration: float = 3.0

    @classmethod
    def quick(cls) -> "Settings":
        return cls(rounds=1, warmup=0.1, duration=0.3)


def check(stack: str, accept: str) -> Answer:
    """The answer both variants of ``stack`` give to ``accept``; a
    ``ServerError`` that shows both if they differ."""
    answers = {}
    for variant in VARIANTS:
        with serving(stack, variant) as server:
            answers[variant] = server.ask(accept)
    if answers[FASTACCEPT] != answers[PEER]:
        raise ServerError(f"the variants of {stack} answer differently: {answers}")
    return answers[FASTACCEPT]


def run(stack: str, variant: str, settings: Settings, expected: Answer) -> Load:
    """One timed run: a fresh server, its answer checked, then loaded."""
    with serving(stack, variant) as server:
        if server.ask(CHROME) != expected:
            raise ServerError(f"{stack} {variant} changed its answer")
        request = request_bytes(server.port, CHROME)
        return load(
            server.port,
            request,
            settings.connections,
            settings.warmup,
            settings.duration,
        )


def missing(stack: str) -> list[str]:
    """The packages ``stack`` needs that are not installed."""
    return [name for name in STACKS[stack] if find_spec(name) is None]


def measure(
    stacks: Sequence[str], settings: Settings
) -> dict[str, dict[str, list[Load]]]:
    """The runs of every stack's variants, by stack then variant: the
    answers checked, then the rounds, each stack's two variants alternating
    their order from round to round."""
    expected = {stack: check(stack, CHROME) for stack in stacks}
    runs: dict[str, dict[str, list[Load]]] = {
        stack: {variant: [] for variant in VARIANTS} for stack in stacks
    }
    for round_ in range(settings.rounds):
        order = VARIANTS if round_ % 2 == 0 else VARIANTS[::-1]
        for stack in stacks:
            for variant in order:
                loaded = run(stack, variant, settings, expected[stack])
                runs[stack][variant].append(loaded)
    return runs


def server_table(runs: dict[str, dict[str, list[Load]]], rounds: int) -> str:
    """The requests per second of every run, their median by variant, and
    the ratio of the medians (on the fastaccept row)."""
    header = ["stack", "variant"]
    header += [f"round {i} (req/s)" for i in range(1, rounds + 1)]
    header += ["median (req/s)", "fastaccept/peer"]
    rows = []
    for stack, variants in runs.items():
        medians = {
            variant: statistics.median(run.rate for run in loads)
            for variant, loads in variants.items()
        }
        ratio = f"{medians[FASTACCEPT] / medians[PEER]:.2f}x"
        for variant, loads in variants.items():
            rates = [f"{run.rate:,.0f}" for run in loads]
            cells = [stack, variant, *rates, f"{medians[variant]:,.0f}"]
            rows.append([*cells, ratio if variant == FASTACCEPT else ""])
    return _table(header, rows)


def _versions(*names: str) -> str:
    return ", ".join(f"{name} {version(name)}" for name in names)


def stack_note(stack: str) -> str:
    """The server and the versions ``stack`` runs with."""
    if stack == "fastapi":
        http, loop = uvicorn_choice()
        return f"fastapi: uvicorn (1 worker, {http}, {loop}), " + _versions(
            "uvicorn", http, loop, "fastapi", "starlette", "werkzeug"
        )
    return "flask: waitress (4 threads), " + _versions("waitress", "flask", "werkzeug")


def client_note(loads: list[Load]) -> str:
    """The client's own cost over ``loads``: whether it set the pace."""
    costs = [run.cpu_per_request * 1e6 for run in loads]
    busiest = max(run.cpu_share for run in loads)
    return (
        f"client (this process): {min(costs):.1f}-{max(costs):.1f} us CPU per "
        f"request, at most {busiest:.0%} of one core in a run"
    )


def server_report(quick: bool = False) -> str:
    """What ``python -m benchmarks --server`` prints: the notes (machine,
    servers, load), the table and the client's cost; a stack whose packages
    are missing is left out with a note, and a ``ServerError`` says what to
    install when no stack can run."""
    settings = Settings.quick() if quick else Settings()
    stacks = [stack for stack in STACKS if not missing(stack)]
    if not stacks:
        needed = "; ".join(
            f"{stack}: pip install {' '.join(missing(stack))}" for stack in STACKS
        )
        raise ServerError(f"no server stack is installed to run ({needed})")
    notes = [
        f"python {sys.version.split()[0]} on {platform.machine()}, {_cpu()}, "
        f"{os.cpu_count()} cores; fastaccept engine: {IMPLEMENTATION}",
        _measured_code(),
        *map(stack_note, stacks),
        f"GET {PATH}, Accept: Chrome's navigation value (HTML chosen); "
        f"{settings.connections} keep-alive connections, one request in flight on "
        f"each; {settings.warmup} s warm-up, then {settings.duration} s timed; a "
        f"new server per run; rounds: {settings.rounds}, the variants' order "
        "alternating",
    ]
    for stack in STACKS:
        if lacking := missing(stack):
            notes.append(f"left out: {stack} (pip install {' '.join(lacking)})")
    if quick:
        notes.append("QUICK MODE: a smoke run, the figures are not measurements")
    runs = measure(stacks, settings)
    every = [run for by in runs.values() for loads in by.values() for run in loads]
    parts = ["\n".join(notes), server_table(runs, settings.rounds), client_note(every)]
    return "\n\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """The server process: serve one stack's variant on an inherited socket."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_server")
    parser.add_argument("stack", choices=STACKS)
    parser.add_argument("variant", choices=VARIANTS)
    parser.add_argument("fd", type=int, help="a listening socket's descriptor")
    args = parser.parse_args(argv)
    serve(args.stack, args.variant, args.fd)


if __name__ == "__main__":
    main()
