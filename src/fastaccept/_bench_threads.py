"""Throughput in threads: ``python -m fastaccept bench --threads``.

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

from ._bench import API_OFFERS, CASES, COLD_VALUES, _cpu, _table, engines
from ._engine import IMPLEMENTATION
from ._responses import Produces

#: One thread's work: made in that thread (what it owns is its own), called
#: with the number of calls to make.
Work = Callable[[int], None]
#: Makes a thread's work, given the thread's number.
MakeWork = Callable[[int], Work]

CHROME = CASES[0]


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
    #: Calls per thread in a measurement (a slow call gets fewer).
    calls: int


def rows(shared_offers: list[str]) -> list[Row]:
    """The workloads, for every engine built here."""
    found: list[Row] = []
    for who, engine in engines().items():
        scale = 1 if who == "cython" else 10  # the pure engine is ~10x slower
        shared = engine.Negotiator(API_OFFERS)

        def negotiate_cold(thread: int, engine: Any = engine) -> Work:
            return _cycle(
                lambda v: engine.negotiate(v, shared_offers), _cold_values(thread)
            )

        def choose_own(thread: int, engine: Any = engine) -> Work:
            own = engine.Negotiator([_own_copy(o) for o in API_OFFERS])
            return _repeat(own.choose, _own_copy(CHROME.value))

        def choose_shared(thread: int, shared: Any = shared) -> Work:
            return _repeat(shared.choose, _own_copy(CHROME.value))

        def parse_cold(thread: int, engine: Any = engine) -> Work:
            return _cycle(engine.parse, _cold_values(thread))

        found += [
            Row("negotiate, cold", who, negotiate_cold, 20_000 // scale),
            Row("Negotiator.choose, hot, own", who, choose_own, 300_000 // scale),
            Row("Negotiator.choose, hot, shared", who, choose_shared, 300_000 // scale),
            Row("parse, cold", who, parse_cold, 5_000 // scale),
        ]
    produces = Produces(API_OFFERS)

    def select_own(thread: int) -> Work:
        return _repeat(Produces(API_OFFERS).select, _own_copy(CHROME.value))

    def select_shared(thread: int) -> Work:
        return _repeat(produces.select, _own_copy(CHROME.value))

    scale = 1 if IMPLEMENTATION == "cython" else 10
    found += [
        Row("Produces.select, hot, own", IMPLEMENTATION, select_own, 200_000 // scale),
        Row(
            "Produces.select, hot, shared",
            IMPLEMENTATION,
            select_shared,
            200_000 // scale,
        ),
    ]
    shared_dict = {CHROME.value: 1}

    def dict_own(thread: int) -> Work:
        return _repeat({CHROME.value: 1}.get, _own_copy(CHROME.value))

    def dict_shared(thread: int) -> Work:
        return _repeat(shared_dict.get, _own_copy(CHROME.value))

    found += [
        Row("dict.get, own dict", "interpreter", dict_own, 300_000),
        Row("dict.get, shared dict", "interpreter", dict_shared, 300_000),
    ]
    return found


def throughput(make: MakeWork, threads: int, calls: int) -> float:
    """Calls per second of ``threads`` threads, each making ``calls`` calls.

    Every thread makes its work first, then all start at once; the clock runs
    from their start to the last one's end.
    """
    ready = threading.Barrier(threads + 1)
    done = threading.Barrier(threads + 1)

    def run(thread: int) -> None:
        work = make(thread)
        work(min(calls, 100))  # warm: caches, the token table
        ready.wait()
        work(calls)
        done.wait()

    pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    ready.wait()
    start = time.perf_counter()
    done.wait()
    elapsed = time.perf_counter() - start
    for thread in pool:
        thread.join()
    return threads * calls / elapsed


def gil_note() -> str:
    """Whether this interpreter runs threads at once."""
    enabled = getattr(sys, "_is_gil_enabled", lambda: True)()
    return "GIL disabled (free-threaded)" if not enabled else "GIL enabled"


def threads_table(quick: bool = False, repeat: int = 5) -> str:
    """Throughput of each row in 1, 2 (and 4) threads, and the speed-ups."""
    counts = [1, 2] + ([4] if (os.cpu_count() or 1) >= 4 else [])
    shared_offers = list(API_OFFERS)  # one list, as a server module holds it
    lines = []
    for row in rows(shared_offers):
        calls = max(row.calls // 100, 10) if quick else row.calls
        best = {
            n: max(
                throughput(row.make, n, calls) for _ in range(1 if quick else repeat)
            )
            for n in counts
        }
        lines.append(
            [
                row.name,
                row.who,
                *[f"{best[n] / 1e6:,.2f}" for n in counts],
                *[f"{best[n] / best[1]:.2f}x" for n in counts[1:]],
            ]
        )
    header = [
        "workload",
        "who",
        *[f"{n} thread{'s' if n > 1 else ''} (M calls/s)" for n in counts],
        *[f"{n} / 1 thread" for n in counts[1:]],
    ]
    title = (
        f"Throughput in threads ({gil_note()}); own: each thread its own object "
        "and values; shared: one object for all threads, as a server module holds it"
    )
    return title + "\n\n" + _table(header, lines)


def threads_report(quick: bool = False) -> str:
    """What ``python -m fastaccept bench --threads`` prints."""
    notes = [
        f"python {sys.version.split()[0]} on {platform.machine()}, {_cpu()}, "
        f"{os.cpu_count()} cores, {gil_note()}",
        f"engines: {', '.join(engines())}; Produces uses the active one "
        f"({IMPLEMENTATION})",
    ]
    if quick:
        notes.append("QUICK MODE: a smoke run, the figures are not measurements")
    return "\n".join(notes) + "\n\n" + threads_table(quick) + "\n"
