"""Coverage-guided fuzzing of the Cython engine (atheris), against the pure-Python twin.

Each input is tried as bytes, as Latin-1 text and as UTF-8 text. Any crash, any
exception other than the documented ``AcceptError``, and any difference from
the pure-Python engine (ranges, skipped members, errors and their positions,
negotiation, CORS verdict) is a finding. Build and run: ``bash fuzz/run.sh``.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from fastaccept import AcceptError, _scan_py

import fastaccept._scan as cython_engine  # native: instrumented by its clang build

OFFERS = [
    "text/html",
    "application/json",
    "text/plain;charset=utf-8",
    'application/xml;p="a b"',
    "image/png",
]


def outcome(engine: object, value: object, strict: bool) -> object:
    try:
        accept = engine.parse(value, strict=strict, max_length=None)  # type: ignore[attr-defined]
    except AcceptError as exc:
        return ("error", exc.position, exc.reason)
    return ("ok", tuple(accept), accept.skipped, accept.cors_safelisted)


def check(value: object) -> None:
    for strict in (False, True):
        got = outcome(cython_engine, value, strict)
        want = outcome(_scan_py, value, strict)
        if got != want:
            raise AssertionError(
                f"parse(strict={strict}) differs on {value!r}:\n{got}\n{want}"
            )
    got_rank = cython_engine.Negotiator(OFFERS, cache_size=0, max_length=None).rank(
        value
    )
    want_rank = _scan_py.Negotiator(OFFERS, cache_size=0, max_length=None).rank(value)
    if got_rank != want_rank:
        raise AssertionError(f"rank differs on {value!r}: {got_rank} != {want_rank}")
    if cython_engine.is_cors_safelisted(value) != _scan_py.is_cors_safelisted(value):
        raise AssertionError(f"CORS verdict differs on {value!r}")


def test_one_input(data: bytes) -> None:
    check(data)
    check(data.decode("latin-1"))
    check(data.decode("utf-8", "replace"))


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
