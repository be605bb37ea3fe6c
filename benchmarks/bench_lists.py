"""Side-by-side benchmarks of Accept-Encoding and Accept-Language (docs/rules.md rules
18 and 19): both engines against werkzeug's ``best_match`` and webob.

Used by ``python -m benchmarks`` and by ``benchmarks/test_encoding_language.py``.

* cold: ``negotiate_encoding``/``negotiate_language`` on the case's value,
  each call a new str equal to it (``Pass.fresh``), every cache of a value
  emptied after each call (``bench.without_value_caches``);
* hot: ``EncodingNegotiator.choose``/``LanguageNegotiator.choose`` on one value
  repeated (the peers have no cache: they do the whole work on each call);
* growth: hostile values from 1 KiB to 1 MiB, limits lifted, no cache.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .bench import (
    GROWTH_SIZES,
    KIB,
    Measured,
    Negotiate,
    Pass,
    Settings,
    _ns,
    _repeat_to,
    _table,
    engines,
    growth_cells,
    growth_times,
    left_out,
    otherwise,
    otherwise_note,
    time_table,
    without_value_caches,
)

Field = Literal["encoding", "language"]
CODINGS = ("br", "gzip", "identity")
TAGS = ("en", "fr", "de")


@dataclass(frozen=True)
class ListCase:
    field: Field
    value: str
    offers: tuple[str, ...]


LIST_CASES = (
    ListCase("encoding", "gzip, deflate, br, zstd", CODINGS),
    ListCase("encoding", "br;q=1.0, gzip;q=0.8, *;q=0.1", CODINGS),
    ListCase("encoding", "gzip;q=1.0, identity; q=0.5, *;q=0", CODINGS),
    ListCase("language", "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", TAGS),
    ListCase("language", "en-US,en;q=0.9", TAGS),
    ListCase("language", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", TAGS),
)


def list_cold_values(case: ListCase, count: int) -> list[str]:
    """Distinct values of the case's shape, one unknown low-weight member
    each, for calls that read every member (a parsed value's quality)."""
    return [f"{case.value}, x-{i};q=0.001" for i in range(count)]


def one_call(engine: Any, field: Field) -> Negotiate:
    """The engine's one-call form for the field."""
    name = "negotiate_encoding" if field == "encoding" else "negotiate_language"
    found: Negotiate = getattr(engine, name)
    return found


def negotiator(engine: Any, field: Field, offers: Sequence[str], **kw: Any) -> Any:
    """The engine's hot-path class for the field."""
    cls = (
        engine.EncodingNegotiator if field == "encoding" else engine.LanguageNegotiator
    )
    return cls(offers, **kw)


def _werkzeug(field: Field) -> Negotiate:
    http = importlib.import_module("werkzeug.http")
    datastructures = importlib.import_module("werkzeug.datastructures")
    kind = (
        datastructures.Accept if field == "encoding" else datastructures.LanguageAccept
    )
    parse = http.parse_accept_header
    return lambda value, offers: parse(value, kind).best_match(offers)


def _webob(field: Field) -> Negotiate:
    """webob's RFC-following calls: ``acceptable_offers`` (Accept-Encoding) and
    the RFC 4647 ``lookup`` (Accept-Language); ``best_match`` is deprecated."""
    acceptparse = importlib.import_module("webob.acceptparse")
    if field == "encoding":
        create = acceptparse.create_accept_encoding_header

        def encoding(value: str, offers: Sequence[str]) -> Any:
            found = create(value).acceptable_offers(offers)
            return found[0][0] if found else None

        return encoding
    create_language = acceptparse.create_accept_language_header
    nothing = object()  # lookup needs a default other than None

    def language(value: str, offers: Sequence[str]) -> Any:
        found = create_language(value).lookup(offers, default=nothing)
        return None if found is nothing else found

    return language


#: Each peer's negotiation for a field, the way its documentation shows it.
LIST_PEERS: dict[str, Callable[[Field], Negotiate]] = {
    "werkzeug": _werkzeug,
    "webob": _webob,
}

#: The calls each peer's negotiation makes, for the tables' titles.
LIST_PEER_CALLS = {
    "werkzeug": "werkzeug parse_accept_header(...).best_match",
    "webob": "webob acceptable_offers (encoding) and lookup (language)",
}


def load_list_peers(
    names: Iterable[str], field: Field
) -> tuple[dict[str, Negotiate], list[str]]:
    """The installed peers among ``names`` for this field, and a note for each
    one that is not."""
    found, missing = {}, []
    for name in names:
        if name not in LIST_PEERS:
            continue
        try:
            found[name] = LIST_PEERS[name](field)
        except Exception as exc:  # a broken peer is left out, not the run
            missing.append(left_out(name, exc))
    return found, missing


def list_tables(
    settings: Settings, peer_names: Iterable[str], measured: Measured
) -> str:
    """Cold one-call negotiation (recorded in ``measured.lists_cold``) and hot
    ``choose`` per case, every engine and peer."""
    found = engines()
    names = list(peer_names)
    cold_rows, hot_rows = [], []
    cold_header: list[str] = []
    hot_header: list[str] = []
    cold_table: dict[str, dict[str, Pass]] = {}
    hot_table: dict[str, dict[str, Pass]] = {}
    ours = next(iter(found.values()))
    differ: dict[str, dict[str, str]] = {}
    timed: dict[str, None] = {}  # the peers in the tables, in order
    for case in LIST_CASES:
        peers, _ = load_list_peers(names, case.field)
        timed.update(dict.fromkeys(peers))
        offers = list(case.offers)
        label = f"{case.field}: {case.value}"
        cold = [case.value] * settings.values  # made new for each pass (fresh)
        differ[label] = otherwise(peers, one_call(ours, case.field), case.value, offers)
        passes = cold_table[label] = {}
        for name, engine in found.items():
            repeat = settings.repeat if name == "cython" else settings.peer_repeat
            negotiate = without_value_caches(one_call(engine, case.field))
            passes[name] = Pass(negotiate, cold, repeat, offers, fresh=True)
        for name, fn in peers.items():
            passes[name] = Pass(
                fn,
                cold[: settings.peer_values],
                settings.peer_repeat,
                offers,
                fresh=True,
            )
        hot = [case.value] * settings.values
        passes = hot_table[label] = {
            name: Pass(
                negotiator(engine, case.field, offers).choose, hot, settings.repeat
            )
            for name, engine in found.items()
        }
        for name, fn in peers.items():
            passes[name] = Pass(
                fn, hot[: settings.peer_values], settings.peer_repeat, offers
            )
    for label, times in time_table(cold_table, settings.sweeps).items():
        measured.lists_cold[label] = times
        cold_header = ["case (cold, ns/call)", *times, *_ratio_names(times)]
        ratios = _ratios(times, differ[label])
        cold_rows.append([label, *[_ns(t) for t in times.values()], *ratios])
    for label, hot_times in time_table(hot_table, settings.sweeps).items():
        hot_header = ["case (hot, ns/call)", *hot_times, *_ratio_names(hot_times)]
        ratios = _ratios(hot_times, differ[label])
        hot_rows.append([label, *[_ns(t) for t in hot_times.values()], *ratios])
    calls = ", ".join(LIST_PEER_CALLS.get(name, name) for name in timed)
    return (
        "negotiate_encoding / negotiate_language(value, offers), cold: the "
        "case's value, a new str each call, no cache of a value kept; "
        f"{'peers: ' + calls if calls else 'no peer'}\n\n"
        + _table(cold_header, cold_rows)
        + "\n\nEncodingNegotiator / LanguageNegotiator .choose(value), hot: one value "
        "repeated (the peers have no cache: the same calls as cold)\n\n"
        + _table(hot_header, hot_rows)
        + otherwise_note(differ)
    )


def _ratio_pairs(times: dict[str, float]) -> list[tuple[str, str]]:
    return [
        (peer, engine)
        for peer in LIST_PEERS
        for engine in ("cython", "python")
        if peer in times and engine in times
    ]


def _ratio_names(times: dict[str, float]) -> list[str]:
    return [f"{peer}/{engine}" for peer, engine in _ratio_pairs(times)]


def _ratios(times: dict[str, float], differ: dict[str, str]) -> list[str]:
    """peer/engine for each pair, "*" where the peer answers otherwise
    (``otherwise``)."""
    return [
        f"{times[peer] / times[engine]:,.1f}x{'*' if peer in differ else ''}"
        for peer, engine in _ratio_pairs(times)
    ]


# --- growth: hostile values at increasing sizes --------------------------------

#: Hostile shapes per field, each a function of the size in characters.
LIST_SHAPES: dict[str, tuple[Field, Callable[[int], str]]] = {
    "encoding: many members": ("encoding", lambda n: _repeat_to("gzip;q=0.5,", n)),
    "encoding: one long token": ("encoding", lambda n: "x" * n),
    "encoding: commas before a bad byte": (
        "encoding",
        lambda n: "," * (n - 1) + "\x01",
    ),
    "encoding: spaces before a bad byte": (
        "encoding",
        lambda n: "gzip" + " " * (n - 5) + "\x01",
    ),
    "language: many members": ("language", lambda n: _repeat_to("en-US;q=0.5,", n)),
    "language: many subtags": ("language", lambda n: "en" + _repeat_to("-abc", n - 2)),
    "language: commas before a bad byte": (
        "language",
        lambda n: "," * (n - 1) + "\x01",
    ),
    "language: '; ' before a bad byte": (
        "language",
        lambda n: "en" + _repeat_to("; ", n - 3) + "\x01",
    ),
}


#: A valid member of each field, distinct per run (see ``time_best``).
MEMBER: dict[Field, Callable[[int], str]] = {
    "encoding": "x{}, ".format,
    "language": "x-{}, ".format,
}


def _uncached(engine: Any, field: Field, offers: Sequence[str]) -> Negotiate:
    """The engine's hot-path class with the limit lifted and no value cache."""
    choose = negotiator(engine, field, offers, cache_size=0, max_length=None).choose
    return lambda value, _offers: choose(value)


def _unlimited_parse(engine: Any, field: Field) -> Negotiate:
    parse = engine.parse_encoding if field == "encoding" else engine.parse_language
    return lambda value, _offers: parse(value, max_length=None)


def list_growth_table(
    peer_names: Iterable[str], sizes: Sequence[int] = GROWTH_SIZES
) -> str:
    """Time per size for each hostile shape (``growth_cells``): each engine's
    ``choose`` and parse function, and the peers; linear work gives a growth
    near ``sizes[-1] / sizes[0]``."""
    names = list(peer_names)
    linear = sizes[-1] / sizes[0]
    rows = []
    for shape, (field, make) in LIST_SHAPES.items():
        offers = CODINGS if field == "encoding" else TAGS
        contenders: dict[str, Negotiate] = {}
        for name, engine in engines().items():
            contenders[f"fastaccept {name}"] = _uncached(engine, field, offers)
            contenders[f"fastaccept {name} parse"] = _unlimited_parse(engine, field)
        contenders.update(load_list_peers(names, field)[0])
        for name, fn in contenders.items():
            capped = not name.startswith("fastaccept")
            times = growth_times(fn, make, sizes, offers, MEMBER[field], capped)
            rows.append([shape, name, *growth_cells(times, sizes)])
    header = ["shape", "who", *[f"{s // KIB} KiB (ms)" for s in sizes], "growth"]
    title = (
        "Accept-Encoding / Accept-Language on hostile values, limit lifted, no "
        f"cache; linear growth = {linear:,.0f}"
    )
    return title + "\n\n" + _table(header, rows)


def lists_report(
    quick: bool = False,
    growth: bool = False,
    peer_names: Iterable[str] = LIST_PEERS,
    measured: Measured | None = None,
) -> str:
    """The Accept-Encoding/Accept-Language part of ``python -m benchmarks``.
    The raw cold timings are recorded in ``measured``, when given."""
    settings = Settings.quick() if quick else Settings()
    names = list(peer_names)
    parts = [list_tables(settings, names, Measured() if measured is None else measured)]
    missing = load_list_peers(names, "encoding")[1]
    if missing:
        parts.insert(0, "left out: " + "; ".join(missing))
    if growth:
        parts.append(
            list_growth_table(names, GROWTH_SIZES[:2] if quick else GROWTH_SIZES)
        )
    return "\n\n".join(parts) + "\n"
