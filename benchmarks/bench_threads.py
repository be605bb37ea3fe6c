"""Throughput in threads: ``python -m benchmarks --threads``.

Each row times the same work in 1, 2 (and 4, where the machine has 4 cores)
threads started together, and reports calls per second over all threads. On a
free-threaded CPython the threads run at once, so N threads can reach N times
the throughput of one; with the GIL they take turns (about 1x). What threads
share decides how close they come: every call takes and drops a reference to
the object it is a method of, and on a free-threaded 3.13 that is an atomic
write to memory all threads touch. The two ``dict.get`` rows measure that cost
on the interpreter alone, beside fastaccept's own rows.
"""

from __future__ import annotations

import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastaccept._engine import IMPLEMENTATION
from fastaccept._responses import Produces

from .bench import API_OFFERS, CASES, COLD_VALUES, _cpu, _measured_code, _table, engines
from .bench_lists import LIST_CASES

#: One thread's work: made in that thread (what it owns is its own), called
#: with the number of calls to make.
Work = Callable[[int], None]
#: Makes a thread's work, given the thread's number.
MakeWork = Callable[[int], Work]

CHROME = CASES[0]
#: Chrome's Accept-Language value, with its offers.
LANGUAGE = next(case for case in LIST_CASES if case.value == "en-US,en;q=0.9")


def _own_copy(text: str) -> str:
    """An equal str that is a new object (each request brings its own)."""
    return "".join(list(text))


def _cycle(call: Callable[[str], Any], values: list[str]) -> Work:
    def work(calls: int) -> None:
        n = len(values)
        for i in range(calls):
            call(values[i % n])

    return work


def _repeat(call: Callable[[str], Any], value: str) -> Work:
    def work(calls: int) -> None:
        for _ in range(calls):
            call(value)

    return work


def _cold_values(thread: int) -> list[str]:
    """Distinct values of Chrome's shape that no other thread sends."""
    return [
        f"{CHROME.value}, x-thread/t{thread}v{i};q=0.001" for i in range(COLD_VALUES)
    ]


@dataclass(frozen=True)
class Row:
    """One line of the table: a name, who it runs, and how to make its work."""

    name: str
    who: str
    make: MakeWork
    #: Calls per thread in a measurement: about 0.1 s of one thread's work on
    #: the GIL build.
    calls: int


#: The most threads a row runs in (``threads_table``'s counts).
MOST_THREADS = 4

#: The offers of the cold rows as a server module writes them: a tuple of
#: literals (on a free-threaded build a constant, so immortal) and a list.
SHARED_LIST = list(API_OFFERS)


def rows() -> list[Row]:
    """The workloads, for every engine built here."""
    found: list[Row] = []
    for who, engine in engines().items():
        # The pure engine is about 10x slower on hot calls, 20x on cold ones.
        hot, cold = (1, 1) if who == "cython" else (10, 20)
        shared = engine.Negotiator(API_OFFERS)
        languages = engine.LanguageNegotiator(LANGUAGE.offers)
        # One per thread, made here in the main thread, as a server makes its
        # objects at import and hands one to each worker.
        made_ahead = [engine.Negotiator(API_OFFERS) for _ in range(MOST_THREADS)]
        uncached_ahead = [
            engine.Negotiator(API_OFFERS, cache_size=0) for _ in range(MOST_THREADS)
        ]

        def negotiate_cold(thread: int, engine: Any = engine) -> Work:
            return _cycle(
                lambda v: engine.negotiate(v, API_OFFERS), _cold_values(thread)
            )

        def negotiate_cold_list(thread: int, engine: Any = engine) -> Work:
            return _cycle(
                lambda v: engine.negotiate(v, SHARED_LIST), _cold_values(thread)
            )

        def choose_own(thread: int, engine: Any = engine) -> Work:
            own = engine.Negotiator([_own_copy(o) for o in API_OFFERS])
            return _repeat(own.choose, _own_copy(CHROME.value))

        def choose_made_ahead(thread: int, made: Any = made_ahead) -> Work:
            return _repeat(made[thread].choose, _own_copy(CHROME.value))

        def choose_cold_made_ahead(thread: int, made: Any = uncached_ahead) -> Work:
            return _cycle(made[thread].choose, _cold_values(thread))

        def choose_shared(thread: int, shared: Any = shared) -> Work:
            return _repeat(shared.choose, _own_copy(CHROME.value))

        def choose_language_shared(thread: int, shared: Any = languages) -> Work:
            return _repeat(shared.choose, _own_copy(LANGUAGE.value))

        def parse_cold(thread: int, engine: Any = engine) -> Work:
            return _cycle(engine.parse, _cold_values(thread))

        found += [
            Row(
                "negotiate, cold, offers a tuple", who, negotiate_cold, 300_000 // cold
            ),
            Row(
                "negotiate, cold, offers a list",
                who,
                negotiate_cold_list,
                300_000 // cold,
            ),
            Row("Negotiator.choose, hot, own", who, choose_own, 3_000_000 // hot),
            Row(
                "Negotiator.choose, hot, own, made at import",
                who,
                choose_made_ahead,
                3_000_000 // hot,
            ),
            Row(
                "Negotiator.choose, cold, own (cache_size=0), made at import",
                who,
                choose_cold_made_ahead,
                300_000 // cold,
            ),
            Row("Negotiator.choose, hot, shared", who, choose_shared, 3_000_000 // hot),
            Row(
                "LanguageNegotiator.choose, hot, shared",
                who,
                choose_language_shared,
                3_000_000 // hot,
            ),
            Row("parse, cold", who, parse_cold, 60_000 // cold),
        ]
    produces = Produces(API_OFFERS)

    def select_own(thread: int) -> Work:
        return _repeat(Produces(API_OFFERS).select, _own_copy(CHROME.value))

    def select_shared(thread: int) -> Work:
        return _repeat(produces.select, _own_copy(CHROME.value))

    hot = 1 if IMPLEMENTATION == "cython" else 10
    found += [
        Row("Produces.select, hot, own", IMPLEMENTATION, select_own, 1_500_000 // hot),
        Row(
            "Produces.select, hot, shared",
            IMPLEMENTATION,
            select_shared,
            1_500_000 // hot,
        ),
    ]
    shared_dict = {CHROME.value: 1}

    def dict_own(thread: int) -> Work:
        return _repeat({CHROME.value: 1}.get, _own_copy(CHROME.value))

    def dict_shared(thread: int) -> Work:
        return _repeat(shared_dict.get, _own_copy(CHROME.value))

    found += [
        Row("dict.get, own dict", "interpreter", dict_own, 3_000_000),
        Row("dict.get, shared dict", "interpreter", dict_shared, 3_000_000),
    ]
    return found


def throughput(make: MakeWork, threads: int, calls: int) -> float:
    """Calls per second of ``threads`` threads, each making ``calls`` calls.

    Every thread makes its work first, then all start at once; the clock runs
    from the first one's start to the last one's end, read by the threads
    themselves (the main thread may not get a core until they are done).
    """
    ready = threading.Barrier(threads)
    starts: list[float] = []
    ends: list[float] = []
    errors: list[BaseException] = []

    def run(thread: int) -> None:
        try:
            work = make(thread)
            work(min(calls, 100))  # warm: caches, the token table
            ready.wait()
            starts.append(time.perf_counter())
            work(calls)
            ends.append(time.perf_counter())
        except BaseException as error:  # raised in the caller, after the join
            errors.append(error)
            ready.abort()  # the others stop waiting for this one

    pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise errors[0]
    return threads * calls / (max(ends) - min(starts))


def gil_note() -> str:
    """Whether this interpreter runs threads at once."""
    enabled = getattr(sys, "_is_gil_enabled", lambda: True)()
    return "GIL disabled (free-threaded)" if not enabled else "GIL enabled"


def threads_table(quick: bool = False, repeat: int = 5) -> str:
    """Throughput of each row in 1, 2 (and 4) threads, and the speed-ups."""
    counts = [1, 2] + ([4] if (os.cpu_count() or 1) >= 4 else [])
    lines = []
    for row in rows():
        calls = max(row.calls // 100, 10) if quick else row.calls
        best = dict.fromkeys(counts, 0.0)
        for _ in range(1 if quick else repeat):  # alternating: drift hits all
            for n in counts:
                best[n] = max(best[n], throughput(row.make, n, calls))
        lines.append(
            [
                row.name,
                row.who,
                *[f"{best[n] / 1e3:,.0f}" for n in counts],
                *[f"{best[n] / best[1]:.2f}x" for n in counts[1:]],
            ]
        )
    header = [
        "workload",
        "who",
        *[f"{n} thread{'s' if n > 1 else ''} (k calls/s)" for n in counts],
        *[f"{n} / 1 thread" for n in counts[1:]],
    ]
    title = (
        f"Throughput in threads ({gil_note()}); own: each thread its own object "
        "and values; shared: one object for all threads, as a server module holds it"
    )
    return title + "\n\n" + _table(header, lines)


def threads_report(quick: bool = False) -> str:
    """What ``python -m benchmarks --threads`` prints."""
    notes = [
        f"python {sys.version.split()[0]} on {platform.machine()}, {_cpu()}, "
        f"{os.cpu_count()} cores, {gil_note()}",
        _measured_code(),
        f"engines: {', '.join(engines())}; Produces uses the active one "
        f"({IMPLEMENTATION})",
    ]
    if quick:
        notes.append("QUICK MODE: a smoke run, the figures are not measurements")
    return "\n".join(notes) + "\n\n" + threads_table(quick) + "\n"
