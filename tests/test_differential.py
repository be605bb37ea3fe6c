"""Differential tests: the Cython engine and the pure-Python twin agree on everything.

Same ranges, same skipped members, same errors (message and position), same
negotiation, ranking and quality, same CORS verdicts -- on grammar-shaped values
with defects, and on arbitrary text and bytes. ``FASTACCEPT_FUZZ_EXAMPLES``
raises the example count for long runs.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastaccept import AcceptError, MediaRange, Offer, parse

from .conftest import CYTHON_MISSING, ENGINES, Engine
from .strategies import ANY_VALUE, OFFERS

pytestmark = pytest.mark.skipif(CYTHON_MISSING is not None, reason=str(CYTHON_MISSING))
CYTHON, PYTHON = ENGINES.get("cython", ENGINES["python"]), ENGINES["python"]
EXAMPLES = int(os.environ.get("FASTACCEPT_FUZZ_EXAMPLES", "400"))
FUZZ = settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow],
)


def parse_outcome(engine: Engine, value: Any, strict: bool) -> Any:
    try:
        accept = engine.parse(value, strict=strict)
    except AcceptError as exc:
        return ("error", str(exc), exc.position, exc.reason, exc.value)
    return (
        "ok",
        type(accept),
        tuple(accept),
        accept.present,
        accept.skipped,
        accept.cors_safelisted,
        [type(r) for r in accept],
    )


def offers_for(value: Any) -> list[str]:
    """The fixed offers plus every concrete range of the value, as an offer
    (not a suffix range, rule 22)."""
    extra = [
        str(r._replace(weight=1000))
        for r in PYTHON.parse(value)
        if r.type != "*" and r.subtype != "*" and not r.subtype.startswith("*+")
    ]
    return OFFERS + extra


@FUZZ
@given(ANY_VALUE)
def test_parse_agrees(value: Any) -> None:
    for strict in (False, True):
        assert parse_outcome(CYTHON, value, strict) == parse_outcome(
            PYTHON, value, strict
        )


@FUZZ
@given(ANY_VALUE)
def test_negotiation_agrees(value: Any) -> None:
    offers = offers_for(value)
    for engine in (CYTHON, PYTHON):
        assert isinstance(engine.parse(value), type(parse(value)))
    ranked = CYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.Negotiator(offers).rank(value)
    # The struct matcher (Cython) and the object matcher (Accept) agree too.
    assert ranked == PYTHON.parse(value).rank(offers)
    chosen = CYTHON.Negotiator(offers).choose(value)
    assert chosen == PYTHON.Negotiator(offers).choose(value)
    assert chosen == (ranked[0][0] if ranked else None)
    for offer in offers:
        assert CYTHON.quality(value, offer) == PYTHON.quality(value, offer)


@FUZZ
@given(ANY_VALUE)
def test_cors_agrees(value: Any) -> None:
    verdict = CYTHON.is_cors_safelisted(value)
    assert verdict == PYTHON.is_cors_safelisted(value)
    assert verdict == CYTHON.parse(value).cors_safelisted


@FUZZ
@given(ANY_VALUE)
def test_canonical_str_round_trips(value: Any) -> None:
    for engine in (CYTHON, PYTHON):
        accept = engine.parse(value)
        again = engine.parse(str(accept), strict=True)
        assert tuple(again) == tuple(accept)
        assert not again.skipped


@FUZZ
@given(ANY_VALUE, st.integers(0, 80))
def test_max_length_agrees(value: Any, limit: int) -> None:
    outcomes: list[tuple[object, ...]] = []
    for engine in (CYTHON, PYTHON):
        try:
            outcomes.append(("ok", tuple(engine.parse(value, max_length=limit))))
        except AcceptError as exc:
            outcomes.append(("error", str(exc), exc.position))
    assert outcomes[0] == outcomes[1]


def test_media_range_type_is_shared() -> None:
    assert type(CYTHON.parse("a/b")[0]) is MediaRange is type(PYTHON.parse("a/b")[0])


@FUZZ
@given(ANY_VALUE)
def test_everything_agrees(value: Any) -> None:
    """All of the above in one property: the long-run target (1,000,000+ examples).

    ``FASTACCEPT_FUZZ_EXAMPLES=1000000 pytest tests/test_differential.py -k everything``
    """
    for strict in (False, True):
        assert parse_outcome(CYTHON, value, strict) == parse_outcome(
            PYTHON, value, strict
        )
    offers = offers_for(value)
    ranked = CYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.parse(value).rank(offers)
    assert CYTHON.negotiate(value, offers) == PYTHON.negotiate(value, offers)
    assert CYTHON.quality(value, offers[0]) == PYTHON.quality(value, offers[0])
    # A value the Cython engine parsed answers from its text (the kernel), the
    # pure engine's from its members (the object matcher).
    parsed, matched = CYTHON.parse(value), PYTHON.parse(value)
    assert parsed.best(offers) == matched.best(offers)
    assert parsed.quality(offers[0]) == matched.quality(offers[0])
    verdict = CYTHON.is_cors_safelisted(value)
    assert (
        verdict
        == PYTHON.is_cors_safelisted(value)
        == CYTHON.parse(value).cors_safelisted
    )
    assert refusal(CYTHON, value, offers) == refusal(PYTHON, value, offers)


def refusal(engine: Engine, value: Any, offers: list[Any]) -> Any:
    """What a refusal reads of ``value`` (docs/rules.md rule 16): each offer's
    weight (-1: no range matches it), and where the skipped members start."""
    weights, starts = engine.Negotiator(offers, max_length=None)._refusal(value)
    return weights, list(starts)


@FUZZ
@given(ANY_VALUE)
def test_a_refusal_reads_as_quality_and_parse_do(value: Any) -> None:
    """What a refusal reads of a value (docs/rules.md rule 16): each offer's
    weight as ``quality`` gives it (-1: no range matches it), and where the
    skipped members start as ``parse`` finds them; the same on both engines."""
    offers = offers_for(value)
    found = []
    for engine in (CYTHON, PYTHON):
        weights, starts = refusal(engine, value, offers)
        for offer, weight in zip(offers, weights, strict=True):
            quality = engine.quality(value, offer, max_length=None)
            assert max(weight, 0) / 1000 == quality
        assert starts == list(engine.parse(value, max_length=None)._skipped_starts())
        found.append((weights, starts))
    assert found[0] == found[1]


#: Server weights for the offers (docs/rules.md rule 15); None: an unweighted
#: offer; "explicit": an ``Offer`` only a range naming it reaches (rule 21).
QS = st.sampled_from([None, 0, 0.001, 0.1, 0.3, 0.5, 0.9, 1, "explicit"])


def weighted(media_type: str, qs: Any) -> Any:
    """The offer ``media_type`` with the server weight ``qs`` (``QS``)."""
    if qs == "explicit":
        return Offer(media_type, explicit=True)
    return media_type if qs is None else (media_type, qs)


@FUZZ
@given(
    st.one_of(st.none(), ANY_VALUE),
    st.lists(QS, min_size=len(OFFERS), max_size=len(OFFERS)),
)
def test_engines_agree_on_weighted_offers(value: Any, weights: list[Any]) -> None:
    offers = [weighted(o, qs) for o, qs in zip(OFFERS, weights, strict=True)]
    ranked = CYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.parse(value).rank(offers)
    chosen = CYTHON.negotiate(value, offers)
    assert chosen == PYTHON.negotiate(value, offers)
    assert chosen == (ranked[0][0] if ranked else None)
    assert CYTHON.Negotiator(offers).choose(value) == chosen
    assert (
        CYTHON.parse(value).best(offers) == chosen == PYTHON.parse(value).best(offers)
    )
    key = CYTHON.Negotiator(offers).variant_key(value)
    assert key == PYTHON.Negotiator(offers).variant_key(value) == (chosen or "")
    # What a refusal reads (docs/rules.md rule 16), explicit offers included.
    assert refusal(CYTHON, value, offers) == refusal(PYTHON, value, offers)


#: Offers drawn from few types and subtypes, so that many share a type, an
#: essence or a parameter; with a server weight or not. Half the lists are
#: longer than the 63 offers the Cython engine tells apart in a mask, and
#: more than 8 types, or subtypes of a type, often begin alike
#: (``LONG_TYPES``, ``LONG_SUBTYPES``).
LONG_TYPES = [f"t{i}" for i in range(10)]
LONG_SUBTYPES = [f"v{i}" for i in range(12)] + [f"a+v{i}" for i in range(10)]
ONE_OF_MANY_OFFERS = st.tuples(
    st.one_of(
        st.sampled_from(["text", "image", "application", "a"]),
        st.sampled_from(LONG_TYPES),
    ),
    st.sampled_from(
        [
            *("html", "plain", "png", "json", "x", "vnd.acme+json", "hal+json"),
            *("a+xml", *LONG_SUBTYPES),
        ]
    ),
    st.sampled_from(
        [
            "",
            ";charset=utf-8",
            ";level=1",
            ";version=2",
            ";version=1",
            ";version=1;level=1",
        ]
    ),
    QS,
).map(lambda o: weighted(f"{o[0]}/{o[1]}{o[2]}", o[3]))
MANY_OFFERS = st.one_of(
    st.lists(ONE_OF_MANY_OFFERS, max_size=80),
    st.lists(ONE_OF_MANY_OFFERS, min_size=64, max_size=140),
)


#: Values whose members name those offers' types, essences and parameters,
#: and wildcards, with weights.
MANY_OFFERS_VALUE = st.lists(
    st.tuples(
        st.sampled_from(["text/", "image/", "application/", "a/", "*/", "Text/"])
        | st.sampled_from(["T3/", "t9/", "t12/"]),
        st.sampled_from(
            [
                *("html", "plain", "png", "json", "x", "*", "vnd.acme+json"),
                *("*+json", "*+XML", "*+acme+json", "+json", "*+"),
                *("V3", "v12", "v1x", "*+v2", "A+V9", "*+v10"),
            ]
        ),
        st.sampled_from(
            [
                *("", ";charset=UTF-8", ";level=1", ";version=2", ";p=1"),
                *(";Version=1;level=1", ';version="\\1"', ";level=1;version=3"),
            ]
        ),
        st.sampled_from(["", ";q=0", ";q=0.3", ";q=0.5", ";q=0.9", ";q=1"]),
    ).map("".join),
    max_size=8,
).map(", ".join)


@FUZZ
@given(st.one_of(st.none(), ANY_VALUE, MANY_OFFERS_VALUE), MANY_OFFERS)
def test_engines_agree_on_many_offers(value: Any, offers: list[Any]) -> None:
    # Up to 140 offers: past the 63 a mask of offers tells apart, types and
    # essences shared by many, wildcards that reach the offers a range named.
    ranked = CYTHON.Negotiator(offers).rank(value)
    assert ranked == PYTHON.Negotiator(offers).rank(value)
    chosen = CYTHON.Negotiator(offers).choose(value)
    assert chosen == PYTHON.Negotiator(offers).choose(value)
    assert chosen == (ranked[0][0] if ranked else None)
    assert CYTHON.negotiate(value, offers) == chosen
    key = CYTHON.Negotiator(offers).variant_key(value)
    assert key == PYTHON.Negotiator(offers).variant_key(value) == (chosen or "")
    # What a refusal reads (docs/rules.md rule 16), explicit offers included.
    assert refusal(CYTHON, value, offers) == refusal(PYTHON, value, offers)


#: Values with characters above U+00FF, which are no header bytes (RFC 9110
#: §5.5): a str of a two- and of a four-byte kind, short and a mebibyte long.
BEYOND_LATIN_1 = {
    "snowmen": "text/html" + "\u2603" * 100,
    "faces": "\U0001f600" * 100,
    "members": "text/html, a/\u2603, \xe9/\U0001f600;q=0.5, */*;q=0.1",
    "quoted": 'text/html;p="\u2603\xe9", text/plain;q=0.5',
    "codings": "gzip, br;q=0.5, \u2603, en-\U0001f600, fr;q=0.2",
    "1 MiB of snowmen": "text/html" + "\u2603" * (1 << 20),
    "1 MiB of faces": "\U0001f600" * (1 << 20),
}


def outcome(call: Any) -> Any:
    """What ``call()`` gives, or its ``AcceptError``'s class, text, position
    and value."""
    try:
        return "ok", call()
    except AcceptError as exc:
        return "error", type(exc), str(exc), exc.position, exc.value


def answers(engine: Engine, value: str, max_length: int) -> list[Any]:
    """What every reader of ``engine`` answers for ``value``."""
    offers = ["text/html", "text/plain", "a/b"]
    limited = {"max_length": max_length}
    calls = [
        lambda: parse_outcome(engine, value, False),
        lambda: parse_outcome(engine, value, True),
        lambda: engine.negotiate(value, offers, **limited),
        lambda: engine.Negotiator(offers, **limited).rank(value),
        lambda: engine.quality(value, "text/html", **limited),
        lambda: list(engine.parse_encoding(value, **limited)),
        lambda: engine.parse_language(value, **limited).skipped,
        lambda: engine.negotiate_encoding(value, ["gzip", "br"], **limited),
        lambda: engine.LanguageNegotiator(["en", "fr"], **limited).rank(value),
        lambda: engine.is_cors_safelisted(value),
    ]
    return [outcome(call) for call in calls]


@pytest.mark.parametrize("max_length", [8192, 60])
@pytest.mark.parametrize("value", BEYOND_LATIN_1.values(), ids=BEYOND_LATIN_1)
def test_engines_agree_on_values_beyond_latin_1(value: str, max_length: int) -> None:
    # Each such character reads as NUL, which every rule rejects; a value
    # over max_length is refused by its characters' count, unread, with the
    # same error on both engines (docs/rules.md rule 8).
    assert answers(CYTHON, value, max_length) == answers(PYTHON, value, max_length)
