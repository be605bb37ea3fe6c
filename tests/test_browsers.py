"""Real browsers: each sets Accept by the request's context, and fastaccept
negotiates what it sends; the browser entries of BROWSER_DEFAULTS are what
the installed browsers send.

Headless Chromium (``--dump-dom``) and Firefox (``--screenshot``), each with
its own command line and a fresh profile, load one page from a site served
over a real socket on 127.0.0.1 (``tests/browser_site.py``, built only from
``fastaccept.wsgi.negotiated``): the document, its stylesheet, script, image,
iframe and a ``fetch()``. Each request's ``Accept`` and ``Sec-Fetch-Dest``
are recorded with the answer. A browser that is not installed is skipped
(Debian: ``apt-get install chromium firefox-esr``), unless
``FASTACCEPT_REQUIRE_BROWSERS`` is set (CI, where apt can install them).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import pytest

import fastaccept
from fastaccept import BROWSER_DEFAULTS

from .browser_site import (
    OFFERS,
    Record,
    Run,
    Site,
    browser_version,
    run_chromium,
    run_firefox,
    serve,
)
from .conftest import skip_browsers_under_sanitizers, skip_or_fail

pytestmark = pytest.mark.thread_unsafe(
    reason="starts a web server and a whole browser; one at a time"
)


class Recording(NamedTuple):
    """Where a browser's entries of BROWSER_DEFAULTS were recorded: the
    browser as its ``--version`` names it, the version, the distribution's
    package and the day (docs/api.md says the same)."""

    browser: str
    version: str
    package: str
    date: str

    def __str__(self) -> str:
        return f"{self.browser} {self.version} ({self.package}), {self.date}"


CHROMIUM = Recording(
    "Chromium",
    "156.0.8078.79",
    "Debian 12 chromium 156.0.8078.79-1~deb12u1",
    "2026-11-23",
)
FIREFOX = Recording(
    "Firefox", "153.7.0esr", "Debian 12 firefox-esr 153.7.0esr-1~deb12u1", "2026-11-23"
)

#: Each browser entry of BROWSER_DEFAULTS -> the browser it was recorded from.
RECORDED_FROM = {
    "chrome-navigate": CHROMIUM,
    "chrome-image": CHROMIUM,
    "firefox-navigate": FIREFOX,
    "firefox-image": FIREFOX,
}

#: Seconds one browser run may take (they take about one).
TIMEOUT = 120.0


@dataclass(frozen=True)
class Browser:
    executable: str  # the command, as Debian installs it
    family: str  # as ``--version`` names it, and RECORDED_FROM
    prefix: str  # of its BROWSER_DEFAULTS entries
    user_agent: str  # in its User-Agent
    run: Callable[[str, str, float], Run]
    #: Of the image's offers (image/png, then image/webp), the one its Accept
    #: value picks: Chromium names image/webp and reaches image/png only by
    #: image/*, both at q=1, so the more specific range decides (rule 11);
    #: Firefox names both, so server order decides.
    image: str


BROWSERS = [
    Browser("chromium", "Chromium", "chrome", "Chrome/", run_chromium, "image/webp"),
    Browser("firefox-esr", "Firefox", "firefox", "Firefox/", run_firefox, "image/png"),
]

#: Path -> the request destination (Fetch) its request has: Sec-Fetch-Dest.
DESTINATIONS = {
    "/": "document",
    "/frame": "iframe",
    "/style": "style",
    "/script": "script",
    "/pixel": "image",
    "/data": "empty",  # fetch()
}

#: Path -> the type chosen whatever the browser (the image: see below).
CHOSEN = {
    "/": "text/html; charset=utf-8",  # over the JSON offered first
    "/frame": "text/html; charset=utf-8",  # likewise
    "/style": "text/css; charset=utf-8",  # over the text/plain offered first
    "/script": "text/javascript; charset=utf-8",
    "/data": "application/json",  # fetch's */*: the first offer
}


def entry(browser: Browser, path: str) -> str:
    """The BROWSER_DEFAULTS entry the browser's Accept for ``path`` must equal."""
    return {
        "/": f"{browser.prefix}-navigate",
        "/frame": f"{browser.prefix}-navigate",
        "/pixel": f"{browser.prefix}-image",
        "/style": "style",
        "/script": "script",
        "/data": "fetch",
    }[path]


@dataclass(frozen=True)
class Visit:
    """One page load: the browser, its version, what the site recorded."""

    browser: Browser
    version: str  # e.g. "Chromium 156.0.8078.79"
    records: dict[str, Record]  # the first request of each path
    run: Run
    report: str

    def explain(self) -> str:
        return f"{self.version}; the requests recorded:\n{self.report}"


def load(browser: Browser, executable: str) -> Visit:
    """Load the page (retried once if the browser fails or a request is
    missing); fails with what the browser printed when it never loads."""
    version = browser_version(executable)
    failures = []
    for _ in range(2):
        site = Site()
        with serve(site) as base:
            run = browser.run(executable, f"{base}/", TIMEOUT)
        records: dict[str, Record] = {}
        for record in site.records:
            records.setdefault(record.path, record)
        missing = sorted(set(DESTINATIONS) - set(records))
        if run.returncode == 0 and not missing:
            return Visit(browser, version, records, run, site.report())
        failures.append(
            f"{run.summary()}\nmissing requests: {missing}\nrecorded:\n{site.report()}"
        )
    pytest.fail(f"{version} did not load the page, twice:\n\n" + "\n\n".join(failures))


@pytest.fixture(scope="module", params=BROWSERS, ids=lambda b: b.executable)
def visit(request: pytest.FixtureRequest) -> Visit:
    browser: Browser = request.param
    skip_browsers_under_sanitizers()
    executable = shutil.which(browser.executable)
    if executable is None:
        missing = (
            f"{browser.executable} is not installed "
            f"(Debian: apt-get install {browser.executable})"
        )
        skip_or_fail(missing, "FASTACCEPT_REQUIRE_BROWSERS")  # CI installs them
    return load(browser, executable)


def test_each_request_has_its_destination(visit: Visit) -> None:
    dests = {path: visit.records[path].dest for path in DESTINATIONS}
    assert dests == DESTINATIONS, visit.explain()
    for record in visit.records.values():
        assert visit.browser.user_agent in (record.user_agent or ""), visit.explain()


def test_fastaccept_chooses_by_the_context(visit: Visit) -> None:
    for path, record in visit.records.items():
        if path not in DESTINATIONS:
            continue
        expected = fastaccept.negotiate(record.accept, OFFERS[path])
        assert (record.status, record.content_type) == (200, expected), (
            f"{path}: the integration chose {record.content_type!r} "
            f"({record.status}), negotiate {expected!r}\n{visit.explain()}"
        )
    chosen = {path: visit.records[path].content_type for path in CHOSEN}
    chosen_image = visit.records["/pixel"].content_type
    assert chosen == CHOSEN, visit.explain()
    assert chosen_image == visit.browser.image, visit.explain()


def test_the_browser_sends_its_browser_defaults(visit: Visit) -> None:
    for path in DESTINATIONS:
        key = entry(visit.browser, path)
        sent = visit.records[path].accept
        recorded = RECORDED_FROM.get(key, "the Fetch standard")
        assert sent == BROWSER_DEFAULTS[key], (
            f"{path} ({DESTINATIONS[path]}): {visit.version} sent\n  {sent!r}\n"
            f"but BROWSER_DEFAULTS[{key!r}] (from {recorded}) is\n"
            f"  {BROWSER_DEFAULTS[key]!r}\n"
            "re-record it in src/fastaccept/_defaults.py, and this version in "
            "RECORDED_FROM\n"
            f"{visit.explain()}"
        )
    for key in (f"{visit.browser.prefix}-navigate", f"{visit.browser.prefix}-image"):
        assert RECORDED_FROM[key].browser == visit.browser.family, key


def test_the_page_worked(visit: Visit) -> None:
    """What the browser made of the representations it was sent."""
    output = visit.run.output
    if visit.browser.executable == "chromium":  # its DOM after the load event
        found = re.search(r'data-seen="([^"]*)"', output.decode())
        assert found, f"no data-seen in the DOM:\n{output.decode()[:2000]}"
        assert json.loads(html.unescape(found.group(1))) == {
            "fetch": "data",  # the JSON's "kind"
            "image": "1x1",  # decoded
            "style": "css",  # applied
            "script": "ran",
            "frame": "frame-html",  # the iframe got the HTML
        }, visit.explain()
    else:  # its screenshot of the page
        assert output.startswith(b"\x89PNG\r\n\x1a\n"), visit.run.summary()


def test_browser_entries_say_where_they_were_recorded() -> None:
    browser_entries = {
        key for key in BROWSER_DEFAULTS if key.startswith(("chrome-", "firefox-"))
    }
    assert set(RECORDED_FROM) == browser_entries
    for key, recording in RECORDED_FROM.items():
        family = "Chromium" if key.startswith("chrome-") else "Firefox"
        assert recording.browser == family, key
        assert re.fullmatch(r"\d+(\.\d+)+(esr)?", recording.version), recording
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", recording.date), recording
        assert recording.version in recording.package, recording
