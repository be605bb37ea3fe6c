"""Every supported CPython installed here, both engines: ``nox``.

``nox -s tests`` builds the Cython engine for each interpreter (strictly: a
failed build is an error) and runs the suite twice, once per engine.
"""

from __future__ import annotations

import nox

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
