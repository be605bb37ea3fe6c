"""One fixture yields each engine; every engine-level test runs on both.

On an install without the compiled engine (the pure-Python wheel), and in a
run that ``FASTACCEPT_NO_EXTENSIONS`` gives the pure engine, the Cython half of
each test is skipped with the reason; a compiled engine that is there but
fails to import is an error, never a skip.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import importlib.util
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, TypeAlias, TypeVar

import pytest
from hypothesis import settings

from fastaccept import IMPLEMENTATION, _scan_py
from fastaccept._limits import ThreadCache

# Tests assert answers, never times (benchmarks/ measure speed): Hypothesis
# keeps no deadline, which a first example's imports or a loaded machine's
# pause would fail (a test's own settings start from this profile).
settings.register_profile("fastaccept", deadline=None)
settings.load_profile("fastaccept")

#: An engine module, ``fastaccept._scan`` or ``fastaccept._scan_py``: the
#: tests drive either (the pure one is the typed reference; the compiled one
#: is held to its signatures and docstrings by tests/test_protocols.py).
Engine: TypeAlias = ModuleType

__all__ = [
    "CYTHON_MISSING",
    "ENGINES",
    "PURE_RUN",
    "Engine",
    "cython_engine",
    "load_example",
    "traced",
    "value_cache",
]


def _load_cython() -> ModuleType | None:
    try:
        return importlib.import_module("fastaccept._scan")
    except ModuleNotFoundError as error:
        if error.name != "fastaccept._scan":
            raise
        return None


_LOADED = _load_cython()  # a broken build fails here, in every run

#: Why the tests of the compiled engine do not run in this process, where
#: ``FASTACCEPT_NO_EXTENSIONS`` chose the pure engine (``fastaccept._engine``):
#: that run tests the pure one; the run without it tests both (propcache's
#: ``--no-c-extensions``). None otherwise.
PURE_RUN = (
    "FASTACCEPT_NO_EXTENSIONS is set: this run tests the pure engine "
    "(the run without it tests both)"
    if _LOADED is not None and IMPLEMENTATION == "python"
    else None
)
_CYTHON = None if PURE_RUN else _LOADED

#: Why the Cython half of the tests does not run here, or None when it does.
CYTHON_MISSING = (
    PURE_RUN
    if _LOADED is not None
    else "the Cython engine is not built here (fastaccept._scan is absent)"
)

#: The engines importable here, by name (the pure one always is).
ENGINES: dict[str, Engine] = {"python": _scan_py}
if _CYTHON is not None:
    ENGINES["cython"] = _CYTHON


def value_cache(negotiator: Any) -> dict[str | bytes, int]:
    """A negotiator's value cache as the calling thread sees it: the dict
    ``_limits.store`` fills. The pure engine reads it as ``_cache``; the
    compiled one holds it (or a ``_limits.ThreadCache`` of them) in a C field,
    which the garbage collector's view of the object shows."""
    if not isinstance(negotiator, _scan_py._CachedOffers):  # the compiled engine
        for held in gc.get_referents(negotiator):
            if type(held) is dict:
                return held
            if isinstance(held, ThreadCache):
                found: dict[str | bytes, int] = held.cache
                return found
        raise AssertionError(f"no value cache in {negotiator!r}")
    cache: dict[str | bytes, int] = negotiator._cache
    return cache


_T = TypeVar("_T")


def traced(call: Callable[[], _T]) -> tuple[_T, int, int]:
    """``call()``'s answer, and the bytes of memory it held (tracemalloc) at
    its end and at most. tracemalloc is the process's: a test that calls this
    is marked ``thread_unsafe``. A whole collection first empties CPython's
    free lists, so that every object the call makes is an allocation
    tracemalloc sees; the objects there were before are frozen meanwhile
    (``gc.freeze``), as a collection of the heap a suite has filled took a
    tenth of a second or more each."""
    import tracemalloc

    gc.freeze()
    try:
        gc.collect()
        tracemalloc.start()
        try:
            answer = call()
            current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    finally:
        gc.unfreeze()
    return answer, current, peak


def cython_engine() -> ModuleType:
    """The compiled engine module; skips the calling test where it is absent."""
    if _CYTHON is None:
        pytest.skip(str(CYTHON_MISSING))
    return _CYTHON


@pytest.fixture(params=["cython", "python"])
def engine(request: pytest.FixtureRequest) -> Engine:
    if request.param not in ENGINES:
        pytest.skip(str(CYTHON_MISSING))
    return ENGINES[request.param]


#: The repository's examples/ folder (scripts and framework recipes).
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


_LOADING = threading.RLock()


#: Where a new interpreter finds the fastaccept under test, its only path.
PACKAGE_ROOT = str(Path(_scan_py.__file__).resolve().parent.parent)


def run_in_engine(
    engine: str, code: str, *options: str, arguments: tuple[str, ...] = ()
) -> list[str]:
    """The lines ``code`` prints, run by a new interpreter (with ``options``,
    then ``arguments`` in its ``sys.argv``) on ``engine``; it must exit 0
    with nothing on stderr. Skipped where the compiled engine is not built."""
    if engine == "cython" and CYTHON_MISSING:
        pytest.skip(CYTHON_MISSING)
    done = subprocess.run(
        [sys.executable, *options, "-c", code, *arguments],
        env={
            **os.environ,
            "FASTACCEPT_NO_EXTENSIONS": "1" if engine == "python" else "",
            "PYTHONPATH": PACKAGE_ROOT,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines()


def release(package: str) -> tuple[int, int]:
    """The installed ``package``'s major and minor release numbers."""
    major, minor = version(package).split(".")[:2]
    return int(major), int(minor)


def load_example(relative: str) -> ModuleType:
    """Import ``examples/<relative>`` once, as a module named after the file.

    It is registered in ``sys.modules`` before it runs: Django's recipe names
    itself as ROOT_URLCONF.
    """
    name = Path(relative).stem
    with _LOADING:  # tests in threads (pytest-run-parallel) see it whole
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / relative)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module


def websocket_sent(app: Any, first: dict[str, Any]) -> list[Any]:
    """What the ASGI ``app`` sends for a websocket scope whose first event is
    ``first`` (a client's ``websocket.connect``, or a ``websocket.disconnect``
    from one gone before it connected), the app having read that event."""
    events = [first]
    sent: list[Any] = []

    async def receive() -> Any:
        return events.pop()

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "websocket", "path": "/greeting", "headers": []}
    asyncio.run(app(scope, receive, send))
    assert not events, "the app did not read the client's first event"
    return sent


def skip_or_fail(reason: str, required_by: str) -> NoReturn:
    """Skip the test for ``reason`` (something optional is missing), or fail
    where the environment variable ``required_by`` is set: CI sets it after
    installing what the test needs, so a skip there would hide a lost check."""
    if os.environ.get(required_by):
        pytest.fail(f"{reason}, and {required_by} is set")
    pytest.skip(reason)


def skip_browsers_under_sanitizers() -> None:
    """Skip a test that starts a browser under tools/sanitize.sh, whose
    sanitizer runtimes (LD_PRELOAD) a browser does not start with."""
    if os.environ.get("FASTACCEPT_SANITIZED"):
        pytest.skip("a browser does not start with the sanitizer runtimes preloaded")
