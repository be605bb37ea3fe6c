"""Coverage-guided fuzzing of the Cython engine (atheris), against the pure-Python twin.

Each input is tried as bytes, as Latin-1 text and as UTF-8 text. Any crash, any
exception other than the documented ``AcceptError``, and any difference from
the pure-Python engine is a finding: Accept's ranges, skipped members, errors
and their positions, negotiation against each of ``OFFER_LISTS`` and CORS
verdict, and the same of Accept-Encoding and Accept-Language.
Build and run: ``bash fuzz/run.sh``.
"""

from __future__ import annotations

import sys
from typing import Any

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
#: 1,008 offers, past the 63 that the Cython engine tells apart by a bit
#: each: 112 subtypes of nine types, one in ten JSON (rule 20).
WIDE = [
    f"{kind}/x-{i}{'+json' if i % 10 == 0 else ''}"
    for i in range(112)
    for kind in (
        *("application", "audio", "font", "image", "message"),
        *("model", "multipart", "text", "video"),
    )
]
#: Offer lists that reach the other parts of the engines' look-up: types and
#: subtypes that begin alike (chains split by a hash), many values of one
#: parameter among the late offers (their tables), escaped values among them.
OFFER_LISTS = [
    OFFERS,
    [f"t{i}/s" for i in range(100)] + [f"a/s{i}" for i in range(100)],
    WIDE,
    [f"{offer};version={i // 9}" for i, offer in enumerate(WIDE)]
    + ['text/x-1;version="a\\b"', "text/x-1;v=1;w=2"],
]


def both(kind: str, offers: list[str], read: str) -> tuple[Any, Any, str, str]:
    """A negotiator of ``offers`` made once on each engine, the method
    compared, and what to call them in a finding."""
    made = [
        getattr(engine, kind)(offers, cache_size=0, max_length=None)
        for engine in (cython_engine, _scan_py)
    ]
    return made[0], made[1], read, f"{kind} of {offers[:3]}... ({len(offers)})"


#: The long lists' choice, the others' ranking; and the list headers'.
NEGOTIATORS = [
    both("Negotiator", offers, "choose_index" if len(offers) > 200 else "rank")
    for offers in OFFER_LISTS
] + [
    both(
        "EncodingNegotiator", ["gzip", "br", "zstd", "identity", "x-compress"], "rank"
    ),
    both("LanguageNegotiator", ["en", "en-GB", "de", "fr-CH", "zh-Hant-TW"], "rank"),
]
#: Each header's parser, Accept's first (its value alone has a CORS verdict).
PARSERS = ("parse", "parse_encoding", "parse_language")


def outcome(engine: object, parser: str, value: object, strict: bool) -> object:
    try:
        parsed = getattr(engine, parser)(value, strict=strict, max_length=None)
    except AcceptError as exc:
        return ("error", exc.position, exc.reason)
    cors = getattr(parsed, "cors_safelisted", None)
    return ("ok", tuple(parsed), parsed.skipped, cors)


def check(value: object) -> None:
    for parser in PARSERS:
        for strict in (False, True):
            got = outcome(cython_engine, parser, value, strict)
            want = outcome(_scan_py, parser, value, strict)
            if got != want:
                raise AssertionError(
                    f"{parser}(strict={strict}) differs on {value!r}:\n{got}\n{want}"
                )
    for got, want, read, name in NEGOTIATORS:
        if getattr(got, read)(value) != getattr(want, read)(value):
            raise AssertionError(f"{read} differs on {value!r}, {name}")
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
