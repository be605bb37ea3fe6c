"""Every supported CPython installed here, both engines: ``nox``.

``nox -s tests`` builds the Cython engine for each interpreter (strictly: a
failed build is an error) and runs the suite twice, once per engine.
``nox -s build_cython_min`` builds it with the lowest Cython the build
requirements allow, so both ends of the range are tested.
"""

from __future__ import annotations

import re
import sys

import nox

sys.path.insert(0, "tools")
from build_requires import build_requires

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
nox.options.sessions = ["tests", "lint"]
nox.options.error_on_missing_interpreters = False


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    session.env["CI"] = "true"  # the extension must build
    session.install("-e", ".[test]")
    session.run(
        "python",
        "-c",
        "import fastaccept; assert fastaccept.IMPLEMENTATION == 'cython'",
    )
    session.run("pytest", "-q", "-p", "no:cacheprovider", *session.posargs)
    session.run(
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        *session.posargs,
        env={"FASTACCEPT_NO_EXTENSIONS": "1"},
    )


@nox.session(python=PYTHONS[-1])
def lint(session: nox.Session) -> None:
    session.env["CI"] = "true"
    session.install("-e", ".[test,lint]")  # mypy checks the framework recipes
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    session.run("python", "-m", "mypy.stubtest", "fastaccept._scan")
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


@nox.session(python="3.11")
def build_cython_min(session: nox.Session) -> None:
    session.env["CI"] = "true"
    session.install(f"Cython=={_cython_floor()}", "setuptools>=77")
    # Not editable: the build must not replace the extension in src/.
    session.install("--no-build-isolation", ".[test]")
    session.run(
        "python",
        "-c",
        "import Cython, fastaccept; assert fastaccept.IMPLEMENTATION == 'cython'; "
        "print('built with Cython', Cython.__version__)",
    )
    session.run("pytest", "-q", "-p", "no:cacheprovider", *session.posargs)
