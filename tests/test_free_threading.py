"""Threads sharing everything, on both engines; the GIL stays off where it can.

On free-threaded CPython (``python3.13t``, see ``tools/free-threaded-python.sh``)
these threads run at once; with the GIL they interleave. Either way every
answer must equal the single-threaded one, and nothing may leak.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable
from typing import Any

import pytest

from fastaccept import BROWSER_DEFAULTS, Consumes, Produces
from fastaccept._limits import THREADS_AT_ONCE, VALUES_KEPT, shared_key

from .conftest import (
    CYTHON_MISSING,
    ENGINES,
    EXAMPLES,
    Engine,
    cython_engine,
    value_cache,
)

#: These tests start their own threads and count references and memory blocks:
#: under pytest-run-parallel they run alone.
pytestmark = pytest.mark.thread_unsafe(reason="starts its own threads")

FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
THREADS = 8
OFFERS = ["application/json", "text/html", "text/plain;charset=utf-8", "image/png"]


@pytest.mark.skipif(not FREE_THREADED, reason="needs a free-threaded CPython")
@pytest.mark.parametrize("name", ["cython", "python"])
def test_import_keeps_the_gil_off(name: str) -> None:
    if name not in ENGINES:
        pytest.skip(str(CYTHON_MISSING))
    code = "import fastaccept\nprint(fastaccept.IMPLEMENTATION)\n"
    assert _gil_stays_off(code, "1" if name == "python" else "") == name


def _gil_stays_off(code: str, no_extensions: str = "") -> str:
    """What ``code`` prints, run in a new interpreter (the GIL as the build
    sets it, ``FASTACCEPT_NO_EXTENSIONS=no_extensions``) that must end with
    the GIL still off. ``-W error``: the RuntimeWarning CPython gives when a
    module enables the GIL becomes a failure."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    env["FASTACCEPT_NO_EXTENSIONS"] = no_extensions
    code += "import sys\nassert not sys._is_gil_enabled(), 'the GIL was enabled'\n"
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(("gil", "forced_on"), [("", False), ("1", True)])
def test_threads_at_once_is_the_builds_not_the_gils_state_at_import(
    gil: str, forced_on: bool
) -> None:
    # CPython turns the GIL on for a moment while an extension module of any
    # thread initialises: fastaccept imported in that window must still keep
    # its state per thread. The GIL's state is made to read on here.
    code = (
        "import sys\n"
        "sys._is_gil_enabled = lambda: True\n"
        "from fastaccept import _limits\n"
        "print(_limits.THREADS_AT_ONCE)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    if gil:
        env["PYTHON_GIL"] = gil
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(FREE_THREADED and not forced_on)


@pytest.mark.skipif(not FREE_THREADED, reason="needs a free-threaded CPython")
def test_the_compression_recipe_keeps_the_gil_off_with_zstd() -> None:
    # zstd from compression.zstd (3.14+) or zstandard, which declares that it
    # runs without the GIL (noxfile.py installs it on 3.13t); brotli 1.2
    # enables the GIL, so it is left out there, and blocked here.
    code = (
        "import sys\n"
        "sys.modules['brotli'] = None\n"
        f"sys.path.insert(0, {str(EXAMPLES)!r})\n"
        "import compress_asgi\n"
        "print(' '.join(compress_asgi.ENCODERS))\n"
    )
    assert _gil_stays_off(code).split() == ["zstd", "gzip"]


#: Each negotiator class, made with two different offer lists, and a value.
KINDS = [
    ("Negotiator", ["text/html"], ["application/json"], "application/json"),
    ("EncodingNegotiator", ["gzip"], ["br"], "br"),
    ("LanguageNegotiator", ["en"], ["fr"], "fr"),
]


@pytest.mark.parametrize(("name", "offers", "others", "value"), KINDS)
def test_a_negotiator_is_complete_when_made(
    engine: Engine, name: str, offers: list[str], others: list[str], value: str
) -> None:
    # Threads share a negotiator without a lock because nothing changes it
    # after it is made: no __new__ without its offers, and a second __init__
    # changes nothing.
    cls = getattr(engine, name)
    with pytest.raises(TypeError):
        cls.__new__(cls)
    negotiator = cls(offers)
    negotiator.__init__(others)
    assert negotiator == cls(offers)
    assert negotiator.choose(value) is None
    assert negotiator.rank(value) == []


def test_the_compiled_state_is_made_whole_or_not_at_all() -> None:
    # The bases the negotiators share hold C state their own __cinit__ sets
    # up: made alone (or by a subclass of theirs) they would be read unset.
    # The one-call forms' kept negotiators are set up once, by __cinit__.
    compiled = cython_engine()
    for base in ("_CachedOffers", "_ListNegotiator"):
        cls = getattr(compiled, base)
        with pytest.raises(TypeError, match=f"cannot create '{base}' instances"):
            cls()
        with pytest.raises(TypeError, match="cannot create 'Sub' instances"):
            type("Sub", (cls,), {})()
    kept = [o for o in gc.get_objects() if type(o) is compiled.Kept]
    assert kept
    for form in kept:
        form.__init__(lambda *args, **kwargs: "not a negotiator", "offers", "x")
    assert compiled.negotiate("text/html", ["text/html"]) == "text/html"
    assert compiled.negotiate_encoding("br", ["br"]) == "br"


def _made(*parts: str) -> str:
    """A new str object (not a literal, so not interned)."""
    return "".join(parts)


def test_keys_are_interned_only_where_threads_run_at_once() -> None:
    # With the GIL a key stays as it is: an interned string is immortal on
    # CPython 3.12, and there it would buy nothing.
    if THREADS_AT_ONCE:
        assert shared_key is sys.intern
    else:
        key = _made("text/", "html")
        assert shared_key(key) is key


@pytest.mark.skipif(not THREADS_AT_ONCE, reason="needs threads running at once")
def test_the_tables_threads_read_have_shared_keys() -> None:
    # Tables made once and read with each request's strings: on CPython 3.13t
    # a dict compares a key no thread but its maker has counted under its
    # lock (~15 us, docs/free-threading.md), so each key is interned
    # (immortal there) as it is stored.
    from fastaccept import _coding, _language, _match, _member

    def unshared(keys: Any) -> list[str]:
        # sys.intern(key) would intern key itself: intern a copy instead
        return [key for key in keys if sys.intern(key[:1] + key[1:]) is not key]

    offers = [
        _made("text/plain;format=", "flowed"),
        _made("application/vnd.a", "+json"),
    ]
    layout = _match.OfferSet(_member.parse_offers(offers))
    assert not unshared(layout.by_essence)
    assert not unshared(layout.by_type)
    assert list(layout.by_param) == ["format=flowed"]
    assert not unshared(layout.by_param)
    assert list(layout.spelled) == ["format=flowed"]
    assert not unshared(layout.spelled)
    tags = _language.TagSet([_made("de-", "CH"), _made("en-", "GB")])
    assert tags.related(_made("de-", "ch")) is not None
    assert not unshared(tags.by_primary)
    assert not unshared(tags.prefixes)
    assert not unshared(_coding.CodingSet([_made("gz", "ip"), "br"]).spellings)
    assert _member.exact_weight(_made("0.", "123")) == 123
    assert _member.weight(_made(".", "25"), strict=False) == 250
    for memo in (_member.QVALUES, _member.WEIGHT_ONLY, _member._SHORT_QVALUES):
        assert not unshared(memo)
    for formats in (True, {_made("Pl", "ain"): offers[0]}):
        produces = Produces(offers, formats=formats)
        assert not unshared(produces._format_index)


@pytest.mark.parametrize("threads", [THREADS, 20])
def test_threads_without_the_gil_cache_apart(engine: Engine, threads: int) -> None:
    # On a free-threaded CPython 3.13 a dict hit with an equal str whose key
    # another thread stored takes the dict's lock (and, from Python, its slow
    # path): one cache for all threads would make every hit wait. So where
    # threads may run at once (_limits.THREADS_AT_ONCE: a free-threaded build,
    # its GIL not forced on) both engines keep a cache per thread; else one.
    expected = threads if THREADS_AT_ONCE else 1
    shared = engine.Negotiator(OFFERS)
    used: list[dict[str | bytes, int]] = []  # each thread's cache

    def work(thread: int) -> None:
        assert shared.choose("".join(["text/", "html"])) == "text/html"
        used.append(value_cache(shared))

    _in_threads(work, threads)
    assert len({id(cache) for cache in used}) == expected
    assert all(cache == {"text/html": 1} for cache in used), used


def test_each_thread_finds_its_own_cache_among_many_negotiators(
    engine: Engine,
) -> None:
    # Where threads run at once, the compiled engine remembers, per thread,
    # where the cache of each negotiator it used last is (a memo of 64 slots,
    # keyed by a serial no negotiator shares, nor reuses after its death):
    # more negotiators than slots, made and dropped while others are in use
    # (a dead one's memory is reused), must each find only its own cache.
    def work(thread: int) -> None:
        kept = [
            engine.Negotiator([f"x/t{thread}n{i}", "text/html"]) for i in range(100)
        ]
        for round_ in range(3):
            for i, negotiator in enumerate(kept):
                value = "".join([f"x/t{thread}n{i}", f", text/html;q=0.{round_ + 1}"])
                assert negotiator.choose(value) == negotiator.offers[0]
                assert set(value_cache(negotiator)) <= {
                    f"x/t{thread}n{i}, text/html;q=0.{r + 1}" for r in range(3)
                }
            for i in range(0, 100, 3):  # dropped, and made again with other offers
                kept[i] = engine.Negotiator([f"x/t{thread}n{i}", "text/html"])
        assert engine.negotiate("x/a, text/html;q=0.5", ["x/a", "text/html"]) == "x/a"
        assert engine.negotiate("x/a, text/html;q=0.5", ("text/html",)) == "text/html"

    _in_threads(work)
    _in_threads(work)  # new threads: nothing found from the old ones


def _values(thread: int) -> list[str]:
    """Values no other thread sends: every call of a round is a cache miss."""
    own = [
        f"text/*;q=0.{(i + thread) % 9 + 1}, application/json;q=0.{i % 7 + 1}, "
        f"x-thread/t{thread}-v{i}"
        for i in range(120)
    ]
    return own + [BROWSER_DEFAULTS[k] for k in sorted(BROWSER_DEFAULTS)]


def _answers(
    engine: Engine, negotiator: Any, produces: Produces, value: str
) -> tuple[Any, ...]:
    """Every entry point's answer for one value."""
    return (
        negotiator.choose(value),
        negotiator.rank(value),
        produces.select(value),
        engine.negotiate(value, OFFERS),
        engine.quality(value, "text/html"),
        engine.parse(value),
        engine.is_cors_safelisted(value),
    )


def _in_threads(work: Callable[[int], None], threads: int = THREADS) -> None:
    """Run ``work(thread)`` in ``threads`` threads started together."""
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def run(thread: int) -> None:
        try:
            start.wait()
            work(thread)
        except BaseException as error:  # reported by the test, with its thread
            errors.append(error)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise errors[0]


def test_threads_share_a_negotiator_a_produces_and_the_functions(
    engine: Engine,
) -> None:
    # The Produces uses the active engine's Negotiator: the suite runs once per
    # engine, so both are covered.
    values = {thread: _values(thread) for thread in range(THREADS)}
    alone = engine.Negotiator(OFFERS, cache_size=0)
    alone_produces = Produces(OFFERS, cache_size=0)
    expected = {
        v: _answers(engine, alone, alone_produces, v)
        for own in values.values()
        for v in own
    }
    cache_size = 8  # far fewer than the values: the cache is cleared constantly
    shared = engine.Negotiator(OFFERS, cache_size=cache_size)
    produces = Produces(OFFERS, cache_size=cache_size)
    wrong: list[str] = []

    def work(thread: int) -> None:
        own = values[thread]
        for round_ in range(6):
            for k in range(len(own)):
                value = own[(k * 7 + round_) % len(own)]
                for _ in range(2):  # a miss, then a hit
                    got = _answers(engine, shared, produces, value)
                    if got != expected[value]:
                        wrong.append(
                            f"thread {thread}, {value!r}: {got} != {expected[value]}"
                        )
        caches.append(value_cache(shared))

    caches: list[dict[str | bytes, int]] = []  # each thread's, kept past the thread
    _in_threads(work)
    assert not wrong, wrong[:3]
    # Without the GIL a Negotiator keeps a cache per thread. Racing stores may each find a cache not yet full: at most one
    # over per thread, until its next clear.
    assert all(0 < len(cache) <= cache_size + THREADS for cache in caches), caches


def test_threads_share_a_consumes() -> None:
    # Its answers to the types it takes are kept by the value's text in one
    # bounded cache that threads share (read by subscript): every thread's
    # answer is the one the value gets alone, with the cache cleared again
    # and again (more types than it keeps).
    taken = ["application/json", "image/*", "text/plain;charset=utf-8"]
    types = [f"image/x{n}" for n in range(2 * VALUES_KEPT)]
    types += ["application/json; charset=utf-8", "text/plain; charset=UTF-8"]
    types += ["text/csv", "text/plain; charset=latin-1", "a b", ""]  # refused
    alone = {value: Consumes(taken).check(value) for value in types}
    shared = Consumes(taken)
    wrong: list[str] = []

    def work(thread: int) -> None:
        for round_ in range(20):
            for k in range(len(types)):
                value = types[(k * 7 + thread + round_) % len(types)]
                if (got := shared.check(value)) != alone[value]:
                    wrong.append(f"thread {thread}, {value!r}: {got} != {alone[value]}")

    _in_threads(work)
    assert not wrong, wrong[:3]
    assert len(shared._taken) <= VALUES_KEPT + THREADS  # one over a racing thread


def test_threads_leave_reference_counts_and_memory_as_they_were(
    engine: Engine,
) -> None:
    offers = ["".join(["text/", "html"]), "".join(["application/", "json"])]
    default = object()
    shared = engine.Negotiator(offers, cache_size=4)
    values = {thread: _values(thread) for thread in range(THREADS)}

    def work(thread: int) -> None:
        for value in values[thread]:
            shared.choose(value, default)
            engine.negotiate(value, offers, default=default)
            engine.parse(value)

    _in_threads(work)  # fills what is bounded: caches, the token table
    gc.collect()
    tracked: list[object] = [*offers, default, shared]
    counts = [sys.getrefcount(o) for o in tracked]
    blocks = sys.getallocatedblocks()
    for _ in range(3):
        _in_threads(work)
    gc.collect()
    assert [sys.getrefcount(o) for o in tracked] == counts
    # Threads' kept Negotiators die with their threads; a leak of one object
    # per call would be over 3 * 8 * 120 * 3 blocks.
    grown = sys.getallocatedblocks() - blocks
    assert grown < 1000, f"{grown} more memory blocks after the threads"
