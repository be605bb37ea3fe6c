"""Every supported CPython installed here, both engines: ``nox``.

``nox -s tests`` builds the Cython engine for each interpreter (strictly: a
failed build is an error) and runs the suite twice, once per engine; it finds
each ``python3.X`` on PATH. Where the machine has no CPython 3.14 or 3.15,
``tools/debian-python.sh 3.14`` (and ``3.15``) provides one from Debian's
packages and prints its path: put its folder on PATH (``.ci/run`` does).
``nox -s tests_cython`` runs the suite on the Cython engine alone (and the
engine-level tests on both). ``nox -s lowest`` runs it on CPython 3.10 with
every package of the [test] extra at the lowest version the extra admits, the
Cython engine built with the lowest Cython and setuptools the build allows.
``nox -s free_threaded`` runs on a free-threaded CPython 3.13
(``python3.13t`` on PATH: ``tools/free-threaded-python.sh`` builds one).
"""

from __future__ import annotations

import re
import sys

import nox

sys.path.insert(0, "tools")
from requirements import build_requires, extra_requires

PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
nox.options.sessions = ["tests", "lint"]
nox.options.error_on_missing_interpreters = False


#: The suite, as every session runs it.
PYTEST = ["pytest", "-q", "-p", "no:cacheprovider"]


def _pure_suite(session: nox.Session) -> None:
    """The suite with the pure engine chosen (tests/conftest.py's PURE_RUN:
    the Cython half of the engine tests, which ran before, skips)."""
    session.run(*PYTEST, *session.posargs, env={"FASTACCEPT_NO_EXTENSIONS": "1"})


def _cython_suite(session: nox.Session) -> None:
    """Build the Cython engine (strictly: a failed build is an error), insist
    on it, and run the suite with it."""
    session.env["FASTACCEPT_REQUIRE_EXTENSIONS"] = "1"
    session.install("-e", ".[test]")
    session.run(
        "python",
        "-c",
        "import fastaccept; assert fastaccept.IMPLEMENTATION == 'cython'",
    )
    session.run(*PYTEST, *session.posargs)


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The suite on the Cython engine, then on the pure one."""
    _cython_suite(session)
    _pure_suite(session)


@nox.session(python=PYTHONS)
def tests_cython(session: nox.Session) -> None:
    """The Cython engine only (and the pure half of the engine tests, which
    that run holds): for an interpreter where another run tests the rest on
    the pure engine."""
    _cython_suite(session)


@nox.session(python="3.13")
def lint(session: nox.Session) -> None:
    session.env["FASTACCEPT_REQUIRE_EXTENSIONS"] = "1"
    session.install("-e", ".[test,lint]")  # mypy checks the framework recipes
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    session.run("pyright", env={"PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"})
    session.run("python", "tools/verify_types.py")
    session.run(
        "cython-lint",
        "src/fastaccept/_scan.pyx",
        "benchmarks/floor/fastaccept_floor.pyx",
    )


def _cython_floor() -> str:
    """The lowest Cython ``[build-system].requires`` admits (its ``>=`` bound)."""
    spec = next(r for r in build_requires() if r.lower().startswith("cython"))
    found = re.search(r">=\s*([0-9.]+)", spec)
    assert found, f"no lower bound in {spec!r}"
    return found.group(1)


#: How free-threaded 3.13 installs the [test] extra: pydantic's core (for
#: FastAPI and its recipe) and Hypothesis after 6.155.2 build from source
#: there (no cp313t wheel) with Rust crates this machine cannot fetch;
#: brotli (1.2) would turn the GIL back on when the compression recipe
#: imports it (zstandard, from 0.25, declares
#: that it runs without the GIL, and stays: tests/test_free_threading.py checks
#: that the recipe keeps the GIL off with it); Cython, for
#: tests/test_build.py, which tests the build and not threads (every other
#: session runs it), has only its slow pure-Python wheel there; Litestar's
#: msgspec and PyYAML have no cp313t wheel (they have from 3.14t on), and
#: their C extensions built here from source are untested with the GIL off.
#: None: left out (its tests skip).
FREE_THREADED_INSTEAD = {
    "fastapi": None,
    "pydantic": None,
    "litestar": None,
    "brotli": None,
    "Cython": None,
    "hypothesis": "hypothesis>=6.100,<=6.155.2",
}


def _free_threaded_test_requirements() -> list[str]:
    """The [test] extra of pyproject.toml, as free-threaded 3.13 can take it."""
    chosen = ["pytest-run-parallel>=0.10"]
    for requirement in extra_requires("test"):
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name, requirement
        instead = FREE_THREADED_INSTEAD.get(name.group(), requirement)
        if instead is not None:
            chosen.append(instead)
    return chosen


@nox.session(python="3.10")
def lowest(session: nox.Session) -> None:
    """The suite on the oldest CPython, every package the [test] extra names
    at the lowest version it admits, the packages they need at their newest
    (uv's lowest-direct resolution): the bounds the extra declares are the
    ones tested. The extra holds the build's own requirements
    (tests/test_build.py checks), so the Cython engine is built here with the
    lowest Cython and setuptools the build admits, where the other sessions
    build with the newest: both ends of the range."""
    session.env["FASTACCEPT_REQUIRE_EXTENSIONS"] = "1"
    session.install("uv>=0.5")
    uv = ["uv", "pip", "install", f"--python={session.virtualenv.location}"]
    session.run(
        *uv,
        "--resolution=lowest-direct",
        "--reinstall",  # the setuptools the environment came with too
        *extra_requires("test"),
    )
    # Without build isolation, which would build with the newest.
    session.run(*uv, "--no-build-isolation", "--no-deps", "-e", ".")
    floor = _cython_floor()
    session.run(
        "python",
        "-c",
        "import Cython, fastaccept; assert fastaccept.IMPLEMENTATION == 'cython'; "
        f"assert Cython.__version__.startswith('{floor}.'), Cython.__version__; "
        "print('built with Cython', Cython.__version__)",
    )
    session.run(*PYTEST, *session.posargs)


@nox.session(python="3.13t")
def free_threaded(session: nox.Session) -> None:
    session.env["FASTACCEPT_REQUIRE_EXTENSIONS"] = "1"
    # The differential properties run in full on the other interpreters; here
    # the point is threads, so 100 examples each keep the session short.
    session.env.setdefault("FASTACCEPT_FUZZ_EXAMPLES", "100")
    session.install("-e", ".", *_free_threaded_test_requirements())
    session.run(
        "python",
        "-W",
        "error",  # the warning a module that enables the GIL gives: a failure
        "-c",
        "import fastaccept, sys; assert fastaccept.IMPLEMENTATION == 'cython'; "
        "assert not sys._is_gil_enabled(), 'the GIL is on'",
    )
    # Every test in two threads at once (those marked thread_unsafe alone),
    # as many as CI's two cores run at once, with the Cython engine chosen:
    # the engine-level tests run there on both engines, so the pure engine is
    # threaded too; what runs above it is the same code on either engine.
    session.run(*PYTEST, "--parallel-threads=2", *session.posargs)
