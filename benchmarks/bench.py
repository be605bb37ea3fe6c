"""Side-by-side benchmarks: both engines, the floor, and the peers
(benchmarks/README.md).

Used by ``python -m benchmarks`` and by the pytest-benchmark suite in
``benchmarks/``. Every figure of one table is measured in the same run, on the
same header values, so ratios compare like with like.

* cold (negotiation): the case's own value, each call a new str equal to it
  (``Pass.fresh``: none carries a hash or an identity an earlier call met),
  every cache of a value emptied after each call (``without_value_caches``);
  so every contender reads the value a client sends, no more. (A marker
  member that made each value distinct, of a type no offer has, cost the
  peers a second member to parse and fastaccept, which passes over it, next
  to nothing: on a one-member value, twice werkzeug's work.)
* cold (``parse``, the thread and whole-request tables, where every
  contender reads every member): ``COLD_VALUES`` distinct values of the
  case's shape (the case plus one low-weight member with a counter);
* hot: one value, repeated (the same object, whose hash Python keeps);
* served: the hot value as a server receives it on every request, equal
  strings but each a new object, so a value cache hashes it anew.

The negotiate tables run every case (``ALL_CASES``: the five of ``CASES`` and
the ``EXTENDED_CASES``); the parse table runs the five.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.metadata
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from fastaccept import _scan_py
from fastaccept._defaults import BROWSER_DEFAULTS
from fastaccept._engine import IMPLEMENTATION
from fastaccept._render import Rendered, Renderers
from fastaccept._responses import Produces

API_OFFERS = ("application/json", "text/html")
IMAGE_OFFERS = ("image/jpeg", "image/webp", "image/png")
RFC9110 = (
    "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, "
    "text/plain;format=fixed;q=0.4, */*;q=0.5"
)


@dataclass(frozen=True)
class Case:
    name: str
    value: str
    offers: tuple[str, ...]


#: The five cases of the first edition (their figures are compared across runs).
CASES = (
    Case("chrome-navigate", BROWSER_DEFAULTS["chrome-navigate"], API_OFFERS),
    Case("firefox-image", BROWSER_DEFAULTS["firefox-image"], IMAGE_OFFERS),
    Case("json", "application/json", API_OFFERS),
    Case("any", "*/*", API_OFFERS),
    Case("rfc9110", RFC9110, API_OFFERS),
)

# The extended set, beside the five (benchmarks/README.md, "Extended set").

#: Plain text as RFC 3676 has it, so that every member of the RFC 9110
#: example reaches an offer: format=flowed (q=1), plain (0.7), format=fixed
#: (0.4), text/* (0.3).
PLAIN_OFFERS = (
    "text/plain",
    "text/plain;format=fixed",
    "text/plain;format=flowed",
    "text/html",
)
#: One resource with an API's, a page's and an image's representations, the
#: API's first (what ``*/*`` gets): each browser value reaches several.
SITE_OFFERS = (
    "application/json",
    "application/xml",
    "text/plain",
    "text/html",
    "application/xhtml+xml",
    "image/avif",
    "image/webp",
    "image/png",
)
#: A versioned vendor type and its plain fallback.
VERSION_OFFERS = (
    "application/vnd.acme+json;version=1",
    "application/vnd.acme+json;version=2",
    "application/json",
)
#: 32 distinct media types a site serves (documents, data, text, images,
#: media, a font); the answers sit in the middle (json, 15th) and late (html,
#: 22nd), before the images a navigation also takes at q=1.
MANY_OFFERS = (
    "application/pdf",
    "application/zip",
    "application/gzip",
    "application/octet-stream",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/wasm",
    "application/cbor",
    "application/yaml",
    "application/xml",
    "application/atom+xml",
    "application/rss+xml",
    "application/ld+json",
    "application/problem+json",
    "application/geo+json",
    "application/json",
    "text/csv",
    "text/calendar",
    "text/css",
    "text/javascript",
    "text/markdown",
    "text/plain",
    "text/html",
    "application/xhtml+xml",
    "image/avif",
    "image/webp",
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/svg+xml",
    "audio/mpeg",
    "video/mp4",
    "font/woff2",
)

#: The extended set, beside the five: more offers, parameters that decide.
EXTENDED_CASES = (
    Case("rfc9110-plain", RFC9110, PLAIN_OFFERS),
    Case("chrome-navigate-8", BROWSER_DEFAULTS["chrome-navigate"], SITE_OFFERS),
    # Safari's navigation value is the same string.
    Case("firefox-navigate-8", BROWSER_DEFAULTS["firefox-navigate"], SITE_OFFERS),
    Case("firefox-image-8", BROWSER_DEFAULTS["firefox-image"], SITE_OFFERS),
    Case("safari-image-8", BROWSER_DEFAULTS["safari-image"], SITE_OFFERS),
    Case(
        "vendor-v2",
        "application/vnd.acme+json;version=2, application/json;q=0.5",
        VERSION_OFFERS,
    ),
    Case(
        "vendor-fallback",  # version 3 is not offered: version 2 is chosen
        "application/vnd.acme+json;version=3, "
        "application/vnd.acme+json;version=2;q=0.8, application/json;q=0.5",
        VERSION_OFFERS,
    ),
    Case("chrome-navigate-32", BROWSER_DEFAULTS["chrome-navigate"], MANY_OFFERS),
    Case("api-32", BROWSER_DEFAULTS["httpie"], MANY_OFFERS),
)

#: Every case of the negotiate tables: the five, then the extended set.
ALL_CASES = CASES + EXTENDED_CASES

#: Distinct values in a cold stream: more than any peer's cache (falcon: 128).
COLD_VALUES = 2048


def cold_values(case: Case, count: int = COLD_VALUES) -> list[str]:
    """Distinct values of the case's shape: one extra low-weight member each."""
    return [f"{case.value}, x-bench/v{i};q=0.001" for i in range(count)]


def hot_values(case: Case, count: int = COLD_VALUES) -> list[str]:
    """The case's value, the same object, ``count`` times (``Pass.fresh``
    makes them new ones)."""
    return [case.value] * count


def without_value_caches(fn: Negotiate) -> Negotiate:
    """``fn``, with the values it keeps forgotten after each call, so that a
    value repeated is read every time (the cold tables): the pure engine's
    one-call forms keep 64 (``_limits.VALUES_KEPT``) in the negotiator of
    their last call. Any other ``fn`` is ``fn``: the compiled engine's
    one-call forms keep none, falcon's peer empties its own caches
    (``_falcon``), the other peers have none. What is kept of the offers
    stays, as a server passes the same offers on every request."""
    kept = {
        _scan_py.negotiate: _scan_py._kept,
        _scan_py.negotiate_encoding: _scan_py._kept_lists[_scan_py.EncodingNegotiator],
        _scan_py.negotiate_language: _scan_py._kept_lists[_scan_py.LanguageNegotiator],
    }.get(fn)
    if kept is None:
        return fn

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        found = fn(value, offers)
        kept.last[2]._cache.clear()
        return found

    return negotiate


Negotiate = Callable[[str, Sequence[str]], Any]


def _peer(module: str, build: Callable[[Any], Negotiate]) -> Callable[[], Negotiate]:
    def load() -> Negotiate:
        return build(importlib.import_module(module))

    return load


def _django(module: Any) -> Negotiate:
    settings = importlib.import_module("django.conf").settings
    if not settings.configured:
        settings.configure()
    http = module

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        request = http.HttpRequest()
        request.META["HTTP_ACCEPT"] = value
        return request.get_preferred_type(offers)

    return negotiate


def _webob(module: Any) -> Negotiate:
    create = module.create_accept_header

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        found = create(value).acceptable_offers(offers)
        return found[0][0] if found else None

    return negotiate


def _mimeparse(module: Any) -> Negotiate:
    """python-mimeparse's ``best_match`` gives a tie to the last of the offers
    (its documentation: list them in increasing preference), the others to the
    first: the offers go to it reversed, so that all answer one order."""
    best_match = module.best_match
    return lambda value, offers: best_match(offers[::-1], value)


def _falcon(module: Any) -> Negotiate:
    """falcon's ``best_match``, its caches of header values (``functools.lru_cache``
    of the parsed headers and of each offer's quality in one) emptied after
    each call, so that a value repeated is read every time; its cache of the
    offers' parsed media types stays."""
    best_match, headers, qualities = (
        module.best_match,
        module._parse_media_ranges,
        module.quality,
    )

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        found = best_match(offers, value)
        headers.cache_clear()
        qualities.cache_clear()
        return found

    return negotiate


def _werkzeug(module: Any) -> Negotiate:
    from werkzeug.datastructures import MIMEAccept

    parse = module.parse_accept_header
    return lambda value, offers: parse(value, MIMEAccept).best_match(offers)


#: The peers' negotiation, each the way its documentation shows it.
PEERS: dict[str, Callable[[], Negotiate]] = {
    "werkzeug": _peer("werkzeug.http", _werkzeug),
    "mimeparse": _peer("mimeparse", _mimeparse),
    "webob": _peer("webob.acceptparse", _webob),
    "django": _peer("django.http", _django),
    "falcon": _peer("falcon.util.mediatypes", _falcon),
    "litestar": _peer(
        "litestar.datastructures.headers",
        lambda m: lambda v, o: m.Accept(v).best_match(o),
    ),
    "sanic": _peer("sanic.headers", lambda m: lambda v, o: m.parse_accept(v).match(*o)),
}


def peer_version(name: str) -> str:
    """The installed version of a peer (its distribution's), or "?"."""
    distribution = "python-mimeparse" if name == "mimeparse" else name
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def left_out(name: str, exc: Exception) -> str:
    """The note for a peer that cannot be loaded: not installed, or broken
    (its import, or the function timed, raised ``exc``): left out, never the
    end of the run."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return f"{name} (not installed: {exc.name})"
    return f"{name} (cannot be loaded: {type(exc).__name__}: {exc})"


def load_peers(names: Iterable[str] = PEERS) -> tuple[dict[str, Negotiate], list[str]]:
    """The installed peers, and a note for each one that is not."""
    found, missing = {}, []
    for name in names:
        try:
            found[name] = PEERS[name]()
        except Exception as exc:  # a broken peer is left out, not the run
            missing.append(left_out(name, exc))
    return found, missing


def otherwise(
    peers: dict[str, Negotiate], ours: Negotiate, value: str, offers: Sequence[str]
) -> dict[str, str]:
    """The peers that answer a case's ``value`` otherwise than fastaccept's
    ``ours``, each with what it and fastaccept answer: a table marks such a
    peer's ratios with "*" (its time is not for the same answer) and lists
    them under it (``otherwise_note``). The cold negotiation is timed on the
    case's own value. Answers are compared as text (sanic's is a str-like
    ``Matched``), no offer (None, "", a falsy ``Matched``) as none. A peer
    that raises is left to ``time_table``, which notes it."""
    expected = ours(value, list(offers))
    found = {}
    for name, fn in peers.items():
        try:
            theirs = fn(value, list(offers))
        except Exception:
            continue
        text = str(theirs) if theirs else None
        if text != expected:
            found[name] = f"{text or 'none'} (fastaccept: {expected or 'none'})"
    return found


def otherwise_note(found: dict[str, dict[str, str]]) -> str:
    """The note under a table for ``otherwise``'s findings, by row then peer;
    "" where every peer answers as fastaccept."""
    lines = "".join(
        f"\n- {name} on {row}: {said}"
        for row, by_peer in found.items()
        for name, said in by_peer.items()
    )
    if not lines:
        return ""
    return (
        "\n\n*: the ratio's peer answers otherwise than fastaccept on the case, "
        f"so its time is not for the same answer; every peer that does:{lines}"
    )


def load_floor() -> Any | None:
    """The compiled floor (``pip install ./benchmarks/floor``), if installed."""
    try:
        return importlib.import_module("fastaccept_floor")
    except ImportError:
        return None


def engines() -> dict[str, Any]:
    """The engine modules that can be imported here, by name."""
    found: dict[str, Any] = {}
    with contextlib.suppress(ImportError):
        found["cython"] = importlib.import_module("fastaccept._scan")
    found["python"] = _scan_py
    return found


@dataclass(frozen=True)
class Pass:
    """One contender of a table row: ``fn`` called on each of ``values``,
    with ``offers`` after the value when given; the best of ``repeat`` passes.
    ``may_raise``: a peer, which may not handle the case (``time_table``).
    ``fresh``: each pass is given new str objects equal to ``values`` (decoded
    again from their bytes, as a server's HTTP parser hands a header over), so
    no call gets an object an earlier call had, whose hash Python keeps: the
    cold passes and the served ones."""

    fn: Callable[..., Any]
    values: list[str]
    repeat: int
    offers: Sequence[str] | None = None
    may_raise: bool = False
    fresh: bool = False

    def best(self) -> float:
        """Seconds per call, the best of ``repeat`` passes in a row."""
        fn, offers, values = self.fn, self.offers, self.values
        best = math.inf
        for _ in range(self.repeat):
            if self.fresh:
                values = [value.encode("latin-1").decode("latin-1") for value in values]
            start = time.perf_counter()
            if offers is None:
                for value in values:
                    fn(value)
            else:
                for value in values:
                    fn(value, offers)
            best = min(best, time.perf_counter() - start)
        return best / len(values)


#: How many times a table is timed whole, row after row; each cell keeps its
#: best time. A shared machine has slow spells seconds long (the first rows
#: of a run on an idle machine often read the floor at up to twice its usual
#: time); a second sweep, seconds later, times every contender again.
SWEEPS = 2


def time_table(
    table: dict[str, dict[str, Pass]],
    sweeps: int,
    raised: dict[tuple[str, str], str] | None = None,
) -> dict[str, dict[str, float]]:
    """Seconds per call of each contender of each row: its best in ``sweeps``
    sweeps of the table, each contender's passes in a row as one timing.

    A contender that ``may_raise`` and raises has no time in its row (it is
    not timed again), and the error is kept in ``raised`` by (row, name);
    any other contender's error propagates.
    """
    best = {row: dict.fromkeys(passes, math.inf) for row, passes in table.items()}
    for _ in range(sweeps):
        for row, passes in table.items():
            for name, one in passes.items():
                if name not in best[row]:
                    continue  # it raised in an earlier sweep
                try:
                    seconds = one.best()
                except Exception as exc:
                    if not one.may_raise:
                        raise
                    del best[row][name]
                    if raised is not None:
                        raised[row, name] = f"{type(exc).__name__}: {exc}"
                    continue
                best[row][name] = min(best[row][name], seconds)
    return best


# --- the report --------------------------------------------------------------


def _ns(seconds: float) -> str:
    return f"{seconds * 1e9:,.0f}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = (
        "| "
        + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))
        + " |"
    )
    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = [
        "| " + " | ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in rows
    ]
    return "\n".join([line, rule, *body])


@dataclass
class Settings:
    """How long to measure: ``quick`` is a smoke run (CI), not a measurement."""

    values: int = COLD_VALUES
    repeat: int = 7
    peer_repeat: int = 3
    peer_values: int = 512
    #: The peers' values and passes on the extended set, where their calls
    #: take up to 30 times as long (32 offers), so that the run takes about
    #: twice as long as the five's alone: still more values than falcon's
    #: caches hold (128), so none is answered from one.
    extended_peer_values: int = 160
    extended_peer_repeat: int = 2
    sweeps: int = SWEEPS

    @classmethod
    def quick(cls) -> Settings:
        return cls(
            values=200,
            repeat=1,
            peer_repeat=1,
            peer_values=20,
            extended_peer_values=20,
            extended_peer_repeat=1,
            sweeps=1,
        )


#: Seconds per call, by case, then by who (``cython``, ``python``, a peer...).
ColdTimes = dict[str, dict[str, float]]
#: Seconds per size, by shape, then by who; None: not run (over the cap).
GrowthTimes = dict[str, dict[str, list[float | None]]]


@dataclass
class Measured:
    """The raw timings of one run, which the printed tables round: for
    ``--plot``. ``growth`` holds one time per size of ``sizes``."""

    machine: str = ""
    quick: bool = False
    cold: ColdTimes = field(default_factory=dict)
    lists_cold: ColdTimes = field(default_factory=dict)
    sizes: tuple[int, ...] = ()
    growth: GrowthTimes = field(default_factory=dict)


def negotiate_tables(
    settings: Settings, peers: dict[str, Negotiate], floor: Any, measured: Measured
) -> str:
    """Cold ``negotiate`` on every case, the five and the extended set
    (recorded in ``measured.cold``), and hot ``Negotiator.choose``. A peer
    that raises on a case has "-" in that row."""
    found = engines()
    cold_rows, hot_rows = [], []
    peer_names = list(peers)
    cold_table: dict[str, dict[str, Pass]] = {}
    hot_table: dict[str, dict[str, Pass]] = {}
    ours = next(iter(found.values())).negotiate
    differ: dict[str, dict[str, str]] = {}
    for case in ALL_CASES:
        offers = list(case.offers)
        cold = hot_values(case, settings.values)  # made new for each pass (fresh)
        differ[case.name] = otherwise(peers, ours, case.value, offers)
        if case in CASES:
            peer_cold, peer_repeat = cold[: settings.peer_values], settings.peer_repeat
        else:
            peer_cold = cold[: settings.extended_peer_values]
            peer_repeat = settings.extended_peer_repeat
        passes = cold_table[case.name] = {}
        if floor is not None:
            passes["floor"] = Pass(
                floor.choose, cold, settings.repeat, offers, fresh=True
            )
        for name, engine in found.items():
            repeat = settings.repeat if name == "cython" else settings.peer_repeat
            negotiate = without_value_caches(engine.negotiate)
            passes[name] = Pass(negotiate, cold, repeat, offers, fresh=True)
        for name, fn in peers.items():
            passes[name] = Pass(
                fn, peer_cold, peer_repeat, offers, may_raise=True, fresh=True
            )
        hot = hot_values(case, settings.values)
        passes = hot_table[case.name] = {}
        for name, engine in found.items():
            passes[f"{name} Negotiator.choose"] = Pass(
                engine.Negotiator(offers).choose, hot, settings.repeat
            )
            passes[f"{name} choose, served"] = Pass(
                engine.Negotiator(offers).choose, hot, settings.repeat, fresh=True
            )
        # The framework-neutral layers, on the active engine: choose + a
        # look-up; then a whole response around a renderer that does nothing.
        passes[f"{IMPLEMENTATION} Produces.select"] = Pass(
            Produces(offers).select, hot, settings.repeat
        )
        passes[f"{IMPLEMENTATION} Renderers.respond"] = Pass(
            rendering(offers), hot, settings.repeat
        )
        if floor is not None:
            method = floor.Floor(offers)
            passes["floor .empty"] = Pass(method.empty, hot, settings.repeat)
            passes["floor .choose"] = Pass(method.choose, hot, settings.repeat)
    who = [*cold_table[ALL_CASES[0].name]]  # floor, the engines, the peers
    raised: dict[tuple[str, str], str] = {}
    for case_name, times in time_table(cold_table, settings.sweeps, raised).items():
        measured.cold[case_name] = times
        cells = [_ns(times[name]) if name in times else "-" for name in who]
        ratios = cold_ratios(times, peer_names, differ[case_name])
        cold_rows.append([case_name, *cells, *ratios])
    cold_header = [
        "case (cold, ns/call)",
        *who,
        "cython/floor",
        "werkzeug/cython",
        "fastest peer/cython",
        "fastest peer/python",
    ]
    for case_name, hot_times in time_table(hot_table, settings.sweeps).items():
        hot_row = [case_name, *[_ns(t) for t in hot_times.values()]]
        if floor is not None and "cython Negotiator.choose" in hot_times:
            ratio = hot_times["cython Negotiator.choose"] / hot_times["floor .empty"]
            hot_row.append(f"{ratio:.2f}x")
        hot_rows.append(hot_row)
        hot_header = ["case (hot, ns/call)", *hot_times]
        if floor is not None and "cython Negotiator.choose" in hot_times:
            hot_header.append("cython/floor .empty")
    notes = "".join(
        f"\n- {name} on {case_name}: raised {error}"
        for (case_name, name), error in raised.items()
    )
    return (
        "negotiate(value, offers), cold: the case's value, a new str each "
        "call, no cache of a value kept\n\n"
        + _table(cold_header, cold_rows)
        + (f"\n\n-: the peer raised on the case{notes}" if notes else "")
        + otherwise_note(differ)
        + "\n\nNegotiator.choose(value), Produces.select(value) and "
        "Renderers.respond(value, data), hot: one value repeated (the same "
        "object); choose, served: equal values, a new str each call, as a "
        "server receives them\n\n" + _table(hot_header, hot_rows)
    )


def cold_ratios(
    times: dict[str, float], peer_names: Sequence[str], differ: Iterable[str] = ()
) -> list[str]:
    """A cold row's ratio cells: cython/floor, werkzeug/cython, fastest
    peer/cython and fastest peer/python, each "-" where a figure is missing
    (not installed, or a peer that raised on the case); a peer's ratio marked
    "*" when the peer is one of ``differ``, which answer otherwise
    (``otherwise``)."""
    cy, py, floor = times.get("cython"), times.get("python"), times.get("floor")
    werkzeug = times.get("werkzeug")
    timed = [(times[name], name) for name in peer_names if name in times]
    fastest = min(timed) if timed else None
    who = f"{fastest[1]}{'*' if fastest[1] in differ else ''}" if fastest else ""
    star = "*" if "werkzeug" in differ else ""
    return [
        f"{cy / floor:.1f}x" if cy and floor else "-",
        f"{werkzeug / cy:.0f}x{star}" if cy and werkzeug else "-",
        f"{fastest[0] / cy:.0f}x ({who})" if cy and fastest else "-",
        f"{fastest[0] / py:.1f}x ({who})" if py and fastest else "-",
    ]


def _nothing_to_render(data: object) -> bytes:
    return b"{}"


def rendering(offers: Sequence[str]) -> Callable[[str], Rendered]:
    """``Renderers.respond`` for these offers, with renderers that do no work:
    what a response costs on top of the application's own rendering."""
    renderers = Renderers(dict.fromkeys(offers, _nothing_to_render))
    return partial(renderers.respond, data=None)


def _quality_of(engine: Any, offer: str) -> Callable[[str], float]:
    def quality(value: str) -> float:
        return float(engine.quality(value, offer))

    return quality


def _unlimited_parse(engine: Any) -> Negotiate:
    """The engine's ``parse`` with the limit lifted, in the shape of a negotiation."""

    def parse(value: str, offers: Sequence[str]) -> Any:
        return engine.parse(value, max_length=None)

    return parse


def _uncached(engine: Any) -> Negotiate:
    """The engine's negotiation with the limit lifted and no value cache."""
    negotiator = engine.Negotiator(API_OFFERS, cache_size=0, max_length=None)

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        return negotiator.choose(value)

    return negotiate


def parse_table(settings: Settings, have_werkzeug: bool) -> str:
    """Cold ``parse`` to MediaRange objects, and the other entry points, on
    the five ``CASES``."""
    found = engines()
    parse_werkzeug: Callable[[str], Any] | None = None
    if have_werkzeug:
        http = importlib.import_module("werkzeug.http")
        mime = importlib.import_module("werkzeug.datastructures").MIMEAccept

        def parse_werkzeug(value: str) -> Any:
            return http.parse_accept_header(value, mime)

    table: dict[str, dict[str, Pass]] = {}
    for case in CASES:
        cold = cold_values(case, settings.values)
        passes = table[case.name] = {}
        for name, engine in found.items():
            repeat = settings.repeat if name == "cython" else settings.peer_repeat
            passes[f"{name} parse"] = Pass(engine.parse, cold, repeat, fresh=True)
        if parse_werkzeug is not None:
            passes["werkzeug parse_accept_header"] = Pass(
                parse_werkzeug,
                cold[: settings.peer_values],
                settings.peer_repeat,
                fresh=True,
            )
        for name, engine in found.items():
            offer = case.offers[0]
            # 7 passes for the Cython engine, 3 for the pure one (README)
            repeat = settings.repeat if name == "cython" else settings.peer_repeat
            passes[f"{name} quality"] = Pass(
                _quality_of(engine, offer), cold, repeat, fresh=True
            )
            passes[f"{name} is_cors_safelisted"] = Pass(
                engine.is_cors_safelisted, cold, repeat, fresh=True
            )
    rows = []
    header = ["case (cold, ns/call)"]
    for case_name, times in time_table(table, settings.sweeps).items():
        row = [case_name, *[_ns(t) for t in times.values()]]
        header = ["case (cold, ns/call)", *times]
        if "cython parse" in times and "werkzeug parse_accept_header" in times:
            row.append(
                f"{times['werkzeug parse_accept_header'] / times['cython parse']:.1f}x"
            )
            header.append("werkzeug/cython parse")
        rows.append(row)
    return "parse(value) and the other entry points, cold\n\n" + _table(header, rows)


# --- growth: hostile shapes at increasing sizes --------------------------------

KIB = 1024
GROWTH_SIZES = (KIB, 16 * KIB, 256 * KIB, 1024 * KIB)


def _repeat_to(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


#: Hostile shapes, each a function of the size in characters. Their members
#: are of ``text/html``, which ``API_OFFERS`` has, so that every contender
#: reads them through: a type no offer has may be passed over unread
#: (fastaccept's engines do; they also stop at a member's first parameter
#: that no offer has, which "many parameters" and "repeated parameter"
#: begin with). Two shapes hold no media type at all.
SHAPES: dict[str, Callable[[int], str]] = {
    "many members": lambda n: _repeat_to("text/html,", n),
    "many parameters": lambda n: (
        "text/html" + "".join(f";p{i}=1" for i in range(n // 5))[: n - 9]
    ),
    "repeated parameter": lambda n: "text/html" + _repeat_to(";p=v", n - 9),
    "long quoted string": lambda n: 'text/html;p="' + "x" * (n - 14) + '"',
    "unterminated quote": lambda n: 'text/html;p="' + "x" * (n - 13),
    "a run of quotes": lambda n: '"' * n,  # a quoted string after another
    "spaces before a bad byte": lambda n: "text/html" + " " * (n - 10) + "\x01",
    "commas before a bad byte": lambda n: "," * (n - 1) + "\x01",
    "'; ' before a bad byte": lambda n: "text/html" + _repeat_to("; ", n - 10) + "\x01",
}

#: A peer is not run at the next size when that would likely take longer.
PEER_CAP_SECONDS = 5.0


def _time_once(fn: Negotiate, value: str, offers: Sequence[str]) -> float:
    """One call's time, with the cyclic garbage collector off, as ``timeit``
    has it: a collection that the objects of earlier tables brought on would
    be timed as this call's (a parse of 1 MiB read 19 ms alone and over
    100 ms after the other tables)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        with contextlib.suppress(Exception):  # a peer giving up still took its time
            fn(value, offers)
        return time.perf_counter() - start
    finally:
        if collecting:
            gc.enable()


def time_best(
    fn: Negotiate,
    make: Callable[[int], str],
    size: int,
    offers: Sequence[str],
    member: Callable[[int], str] = "x/{}, ".format,
) -> float:
    """Best of 5 calls (1 from 64 KiB) on values of ``size`` characters: one
    valid ``member(run)`` (the same length for every run) before the shape.

    Each call gets a distinct value, so no library's cache answers a repeat
    (falcon keeps its last 128 header values), and every value has the same
    shape, so no call gets a cheaper variant. Leading whitespace would not
    do: webob refuses it before reading the rest.
    """
    runs = 5 if size < 64 * KIB else 1
    return min(
        _time_once(fn, member(run) + make(size - len(member(run))), offers)
        for run in range(runs)
    )


def growth_times(
    fn: Negotiate,
    make: Callable[[int], str],
    sizes: Sequence[int],
    offers: Sequence[str],
    member: Callable[[int], str] = "x/{}, ".format,
    capped: bool = True,
) -> list[float | None]:
    """Seconds per size (``time_best``); None for a size not run. With
    ``capped`` (peers), a size is not run when, projected from the last one,
    it would take over ``PEER_CAP_SECONDS`` (``projected``)."""
    times: list[float | None] = []
    for i, size in enumerate(sizes):
        previous = times[-1] if times else None
        if i > 0 and (
            previous is None
            or (capped and projected(times, sizes, i) > PEER_CAP_SECONDS)
        ):
            times.append(None)  # it would likely run over the cap
            continue
        times.append(time_best(fn, make, size, offers, member))
    return times


def projected(times: Sequence[float | None], sizes: Sequence[int], i: int) -> float:
    """The time ``sizes[i]`` would likely take: the last time grown by the
    power of the size that the last two sizes showed (at least 1: linear),
    or quadratically when only one size was run."""
    last, step = times[i - 1] or 0.0, sizes[i] / sizes[i - 1]
    earlier = times[i - 2] if i >= 2 else None
    if not earlier or not last:
        return last * step**2
    power = math.log(last / earlier) / math.log(sizes[i - 1] / sizes[i - 2])
    return last * float(step ** max(power, 1.0))


def growth_cells(times: Sequence[float | None], sizes: Sequence[int]) -> list[str]:
    """A row's cells for ``growth_times``: ms per size and the growth,
    t(largest) / t(smallest), against linear."""
    cells = [f"{t * 1e3:,.2f}" if t is not None else "> cap" for t in times]
    first, last, linear = times[0], times[-1], sizes[-1] / sizes[0]
    if first and last:
        return [*cells, f"{last / first:,.0f} ({last / first / linear:.2f}x linear)"]
    return [*cells, "not run to the end (projected over the cap)"]


def growth_table(
    peers: dict[str, Negotiate], sizes: Sequence[int], measured: Measured
) -> str:
    """negotiate() time per size for each shape; growth = t(largest) / t(smallest).

    Linear work gives a growth near ``sizes[-1] / sizes[0]`` (1024 for 1 KiB ->
    1 MiB); the target is at most 1.5 times that. Limits are lifted. Each
    fastaccept engine's ``parse`` is timed on the same values. The times are
    recorded in ``measured.growth``.
    """
    contenders: dict[str, Negotiate] = {}
    for name, engine in engines().items():
        contenders[f"fastaccept {name}"] = _uncached(engine)
        contenders[f"fastaccept {name} parse"] = _unlimited_parse(engine)
    contenders.update(peers)
    linear = sizes[-1] / sizes[0]
    rows = []
    measured.sizes = tuple(sizes)
    for shape, make in SHAPES.items():
        timed = measured.growth[shape] = {}
        for name, fn in contenders.items():
            capped = not name.startswith("fastaccept")
            times = timed[name] = growth_times(
                fn, make, sizes, API_OFFERS, capped=capped
            )
            rows.append([shape, name, *growth_cells(times, sizes)])
    header = ["shape", "who", *[f"{s // KIB} KiB (ms)" for s in sizes], "growth"]
    title = (
        "negotiate() (and fastaccept's parse) on hostile values, limit lifted; "
        f"linear growth = {linear:,.0f}"
    )
    return title + "\n\n" + _table(header, rows)


def _git(root: Path, *args: str) -> str | None:
    """``git args`` run in ``root``: its output, or None where it fails."""
    import subprocess

    try:
        return subprocess.run(
            ["git", *args],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _measured_code() -> str:
    """What a record measured: fastaccept's version, the commit of this
    checkout (``-dirty`` with uncommitted changes) where fastaccept is
    imported from its ``src`` and git's work tree is the checkout itself,
    and the day."""
    import datetime

    import fastaccept

    root = Path(__file__).resolve().parent.parent
    top = _git(root, "rev-parse", "--show-toplevel")
    if not Path(fastaccept.__file__).resolve().is_relative_to(root / "src"):
        commit = "installed, not this checkout's src"
    elif top is None or Path(top).resolve() != root:
        commit = "no git checkout"
    else:
        commit = _git(root, "describe", "--always", "--dirty") or "no commit"
    return f"fastaccept {fastaccept.__version__} ({commit}), {datetime.date.today()}"


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "cpu unknown"


def report(
    quick: bool = False,
    growth: bool = False,
    peer_names: Iterable[str] = PEERS,
    measured: Measured | None = None,
) -> str:
    """The whole comparison as text: what ``python -m benchmarks`` prints.
    The raw timings are recorded in ``measured``, when given."""
    import platform
    import sys

    settings = Settings.quick() if quick else Settings()
    measured = Measured() if measured is None else measured
    peers, missing = load_peers(peer_names)
    floor = load_floor()
    notes = [
        f"python {sys.version.split()[0]} on {platform.machine()}, {_cpu()}",
        _measured_code(),
        f"engines: {', '.join(engines())} (each timed as its module; the web"
        f" columns through fastaccept's, {IMPLEMENTATION})",
        "peers: "
        + (", ".join(f"{name} {peer_version(name)}" for name in peers) or "none"),
    ]
    if missing:
        notes.append("left out: " + "; ".join(missing))
    if floor is None:
        notes.append("floor: not installed (pip install ./benchmarks/floor)")
    if quick:
        notes.append("QUICK MODE: a smoke run, the figures are not measurements")
    measured.machine, measured.quick = notes[0], quick
    parts = [
        "\n".join(notes),
        negotiate_tables(settings, peers, floor, measured),
        parse_table(settings, "werkzeug" in peers),
    ]
    if growth:
        sizes = GROWTH_SIZES[:2] if quick else GROWTH_SIZES
        parts.append(growth_table(peers, sizes, measured))
    return "\n\n".join(parts) + "\n"
