"""A small site for real browsers, built only from ``fastaccept.wsgi.negotiated``.

One document loads a stylesheet, a script, an image and an iframe and calls
``fetch()``: each is a negotiated resource with its own offers, so the
``Accept`` value a browser sends for each request destination (Fetch) meets
fastaccept over a real socket. A thin router in front records every request
(path, ``Accept``, ``Sec-Fetch-Dest``, ``User-Agent``) and the status and
``Content-Type`` of its answer; it adds nothing to the negotiation.

``serve()`` runs the site on 127.0.0.1 (a free port) in a background thread,
one thread per request; ``run_chromium`` and ``run_firefox`` load a page with
the browser's own headless command line (no webdriver).
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import TYPE_CHECKING, Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from fastaccept import Renderers
from fastaccept.wsgi import negotiated

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

__all__ = [
    "CHROMIUM_FLAGS",
    "FETCH_WAIT",
    "OFFERS",
    "Record",
    "Run",
    "Site",
    "browser_version",
    "run_chromium",
    "run_firefox",
    "serve",
]


def _png_1x1() -> bytes:
    """A real 1x1 opaque PNG (one red pixel), built with zlib."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 8-bit RGB
    pixels = zlib.compress(b"\x00\xff\x00\x00")  # filter 0, then R G B
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", pixels)
        + chunk(b"IEND", b"")
    )


PNG = _png_1x1()
#: A real 1x1 lossless WebP (the image of Modernizr's WebP check).
WEBP = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")

#: How long the image waits for the page's fetch() to arrive (seconds): the
#: load event, after which a headless browser exits, waits for the image.
FETCH_WAIT = 10.0

_DOCUMENT = """<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>fastaccept in a real browser</title>
<link rel="icon" href="data:,">
<script>
const seen = {};
function note(name, value) {
  seen[name] = value;
  document.documentElement.dataset.seen = JSON.stringify(seen);
}
fetch("/data").then((r) => r.json()).then((d) => note("fetch", d.kind),
                                           (e) => note("fetch", String(e)));
</script>
<link rel="stylesheet" href="/style">
<script src="/script"></script>
</head>
<body>
<img id="pixel" src="/pixel" alt="pixel" width="1" height="1"
     onload="note('image', this.naturalWidth + 'x' + this.naturalHeight)"
     onerror="note('image', 'error')">
<iframe id="frame" src="/frame" width="100" height="50"></iframe>
<script>
window.addEventListener("load", () => {
  note("style", getComputedStyle(document.body).getPropertyValue("--negotiated")
    .trim() || "none");
  note("script", window.negotiatedScript || "none");
  note("frame", document.getElementById("frame").contentDocument.body.id || "none");
});
</script>
</body>
</html>
"""


def _text(body: str) -> Callable[[Any], str]:
    return lambda data: body


#: Each resource: its offers, in server order (what the router records the
#: chosen type against), and the representations of its data.
DOCUMENT = Renderers(
    {
        # JSON first: a navigation must get HTML by its own Accept value.
        "application/json": json.dumps,
        "text/html; charset=utf-8": _text(_DOCUMENT),
    }
)
FRAME = Renderers(
    {
        "application/json": json.dumps,
        "text/html; charset=utf-8": _text('<!doctype html><body id="frame-html">'),
    }
)
STYLE = Renderers(
    {
        # text/plain first: the stylesheet must get text/css by its Accept value.
        "text/plain; charset=utf-8": _text("not a stylesheet"),
        "text/css; charset=utf-8": _text("body { --negotiated: css; }"),
    }
)
SCRIPT = Renderers(
    {"text/javascript; charset=utf-8": _text('window.negotiatedScript = "ran";')}
)
PIXEL = Renderers({"image/png": lambda data: PNG, "image/webp": lambda data: WEBP})
DATA = Renderers(
    {
        # fetch() sends */* unless told otherwise: the first offer is chosen.
        "application/json": json.dumps,
        "text/html; charset=utf-8": _text("<p>data</p>"),
    }
)

_RESOURCES: dict[str, Renderers] = {
    "/": DOCUMENT,
    "/frame": FRAME,
    "/style": STYLE,
    "/script": SCRIPT,
    "/pixel": PIXEL,
    "/data": DATA,
}
#: The offers of each path, as ``negotiate`` takes them.
OFFERS: dict[str, tuple[str, ...]] = {
    path: tuple(str(offer) for offer in renderers.produces.offers)
    for path, renderers in _RESOURCES.items()
}


@dataclass(frozen=True)
class Record:
    """One request the site answered, and its answer."""

    path: str
    accept: str | None
    dest: str | None  # Sec-Fetch-Dest
    user_agent: str | None
    status: int
    content_type: str | None

    def row(self) -> str:
        return (
            f"{self.path:8} dest={self.dest!s:9} status={self.status} "
            f"type={self.content_type!s:27} accept={self.accept!r}"
        )


class Site:
    """The WSGI application: the negotiated resources behind a recording router."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[Record] = []
        self._fetched = threading.Event()
        self._apps: dict[str, WSGIApplication] = {
            path: negotiated(renderers)(self._handler(path))
            for path, renderers in _RESOURCES.items()
        }

    @staticmethod
    def _handler(path: str) -> Callable[[WSGIEnvironment], Any]:
        def handler(environ: WSGIEnvironment) -> Any:
            return {"kind": path.strip("/") or "document"}

        return handler

    @property
    def records(self) -> list[Record]:
        with self._lock:
            return list(self._records)

    def report(self) -> str:
        """Every request recorded so far, one per line (for assertion messages)."""
        return "\n".join(record.row() for record in self.records) or "(no request)"

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        if path == "/data":
            self._fetched.set()
        elif path == "/pixel":
            # Hold the load event (and so the browser's exit) until the
            # page's fetch() has been sent.
            self._fetched.wait(FETCH_WAIT)
        app = self._apps.get(path, _not_found)
        answer: list[tuple[int, str | None]] = []

        def recording_start(
            status: str, headers: list[tuple[str, str]], *a: Any
        ) -> Any:
            content_type = [v for k, v in headers if k.lower() == "content-type"]
            answer.append((int(status.split()[0]), next(iter(content_type), None)))
            return start_response(status, headers, *a)

        body = list(app(environ, recording_start))
        record = Record(
            path,
            environ.get("HTTP_ACCEPT"),
            environ.get("HTTP_SEC_FETCH_DEST"),
            environ.get("HTTP_USER_AGENT"),
            *answer[0],
        )
        with self._lock:
            self._records.append(record)
        return body


def _not_found(environ: WSGIEnvironment, start_response: StartResponse) -> list[bytes]:
    start_response(
        "404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "0")]
    )
    return [b""]


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a browser left hanging never blocks the exit


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(site: Site) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (a free port) while the block runs; yields
    the base URL."""
    server = make_server(
        "127.0.0.1", 0, site, server_class=_ThreadingServer, handler_class=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


#: Chromium's flags for this closed network (as root, headless, no GPU, no
#: connection of its own); ``run_chromium`` adds a fresh profile and the URL.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


@dataclass(frozen=True)
class Run:
    """What a browser process did: its command, exit code and output."""

    command: tuple[str, ...]
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    #: What the browser made of the page: Chromium's DOM, Firefox's screenshot.
    output: bytes = b""

    def summary(self) -> str:
        tail = self.stderr.strip().splitlines()[-15:]
        return (
            f"$ {' '.join(self.command)}\nexit: {self.returncode} after "
            f"{self.seconds:.1f} s\nstderr (last lines):\n" + "\n".join(tail)
        )


def _run(command: list[str], timeout: float, env: dict[str, str] | None = None) -> Run:
    """Run a browser in its own process group; kill the whole group at the
    timeout (browsers start helper processes)."""
    start = time.monotonic()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        errors="replace",
        env=env,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        _kill_group(process.pid)
        stdout, stderr = process.communicate()
        code = None
    else:
        _kill_group(process.pid)  # helpers left behind, if any
    return Run(tuple(command), code, stdout, stderr, time.monotonic() - start)


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def run_chromium(executable: str, url: str, timeout: float) -> Run:
    """Load ``url`` in headless Chromium and print its DOM (``--dump-dom``)
    once the load event and the requests in flight are done (virtual time
    stands still while the network is busy), with a fresh profile."""
    with tempfile.TemporaryDirectory(prefix="fastaccept-chromium-") as profile:
        run = _run(
            [
                executable,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--virtual-time-budget=5000",
                "--dump-dom",
                url,
            ],
            timeout,
        )
        return replace(run, output=run.stdout.encode())


#: Preferences for the fresh Firefox profile: no connection of its own.
FIREFOX_PREFS = {
    "app.update.enabled": False,
    "app.normandy.enabled": False,
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.safebrowsing.downloads.remote.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "extensions.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "toolkit.telemetry.enabled": False,
}


def run_firefox(executable: str, url: str, timeout: float) -> Run:
    """Load ``url`` in headless Firefox and take a screenshot after the load
    event (``--screenshot``), with a fresh profile and no remote control."""
    with tempfile.TemporaryDirectory(prefix="fastaccept-firefox-") as profile:
        prefs = "".join(
            f"user_pref({json.dumps(name)}, {json.dumps(value)});\n"
            for name, value in FIREFOX_PREFS.items()
        )
        Path(profile, "user.js").write_text(prefs, encoding="utf-8")
        env = {**os.environ, "HOME": profile, "MOZ_HEADLESS": "1"}
        screenshot = Path(profile, "page.png")
        run = _run(
            [
                executable,
                "--headless",
                "-no-remote",
                "-profile",
                profile,
                "--screenshot",
                str(screenshot),
                url,
            ],
            timeout,
            env,
        )
        shot = screenshot.read_bytes() if screenshot.exists() else b""
        return replace(run, output=shot)


def browser_version(executable: str) -> str:
    """What ``executable --version`` prints, e.g. ``Chromium 156.0.8078.79``
    (the build note after the version left out)."""
    run = _run([executable, "--version"], 60)
    text = next(iter(run.stdout.strip().splitlines()), "(no version printed)")
    match = re.match(r"(?:Mozilla )?(\w+) ([0-9][0-9.]*\w*)", text)
    return f"{match.group(1)} {match.group(2)}" if match else text
