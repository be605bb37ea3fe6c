"""``variant_key`` (docs/api.md): the chosen offer as a cache key, on both engines.

It is ``choose(value) or ""`` on every value: the conformance vectors of the
three headers, odd inputs and errors alike; and generated values map onto
no more keys than there are offers, plus ``""``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Engine
from .strategies import ANY_VALUE, OFFERS
from .test_conformance import NEGOTIATE
from .test_encoding_language import ENCODING, LANGUAGE
from .test_server_weights import VECTORS, offers_of

#: (id, negotiator class, value, offers, expected choice) of every vector.
CASES = [
    *(
        (c["id"], "Negotiator", c["accept"], c["offers"], c["expected"])
        for c in NEGOTIATE
    ),
    *(
        (c["id"], "Negotiator", c["accept"], offers_of(c), c["expected"])
        for c in VECTORS
    ),
    *(
        (c["id"], "EncodingNegotiator", c["value"], c["offers"], c["expected"])
        for c in ENCODING
    ),
    *(
        (c["id"], "LanguageNegotiator", c["value"], c["offers"], c["expected"])
        for c in LANGUAGE
    ),
]


@pytest.mark.parametrize(
    ("kind", "value", "offers", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_the_key_is_the_choice_or_empty_on_every_vector(
    engine: Engine,
    kind: str,
    value: str | None,
    offers: list[Any],
    expected: str | None,
) -> None:
    negotiator = getattr(engine, kind)(offers)
    key = negotiator.variant_key(value)
    assert type(key) is str
    assert key == (negotiator.choose(value) or "") == (expected or "")
    assert negotiator.variant_key(value) == key  # from the cache
    if value is not None:
        assert negotiator.variant_key(value.encode("latin-1")) == key
    fresh = getattr(engine, kind)(offers, cache_size=0)
    assert fresh.variant_key(value) == key


def outcome(function: Any, value: Any) -> tuple[Any, ...]:
    try:
        return ("ok", function(value))
    except Exception as exc:  # the same error, type and message
        return ("error", type(exc), str(exc))


#: Inputs of every kind: accepted, odd, over the limit (16), of no header type.
ODD_INPUTS: list[Any] = [
    None,
    "",
    " , ",
    "*",
    "text/html",
    b"gzip",
    bytearray(b"en"),
    memoryview(b"*/*"),
    "\u20ac",
    "x" * 17,
    b"x" * 17,
    1,
    1.5,
    ["text/html"],
    object(),
]


@pytest.mark.parametrize(
    ("kind", "offers"),
    [
        ("Negotiator", ["text/html", ("application/json", 0.5)]),
        ("EncodingNegotiator", ["gzip", "identity"]),
        ("LanguageNegotiator", ["en", "de"]),
    ],
)
def test_the_key_raises_where_choose_raises(
    engine: Engine, kind: str, offers: list[Any]
) -> None:
    negotiator = getattr(engine, kind)(offers, max_length=16)
    for value in ODD_INPUTS:
        expected = outcome(lambda v: negotiator.choose(v, ""), value)
        assert outcome(negotiator.variant_key, value) == expected, value


#: Examples of the property (``FASTACCEPT_FUZZ_EXAMPLES``, as the differential
#: tests), each of this many values: 10,000 values by default.
EXAMPLES = int(os.environ.get("FASTACCEPT_FUZZ_EXAMPLES", "400"))
VALUES_EACH = 25
#: Some of the offers, each alone or as a (media type, qs) pair.
SOME_OFFERS = st.lists(
    st.tuples(st.sampled_from(OFFERS), st.sampled_from([None, 0, 0.5, 1])),
    min_size=1,
    max_size=len(OFFERS),
    unique_by=lambda pair: pair[0],
).map(lambda pairs: [o if qs is None else (o, qs) for o, qs in pairs])
#: Members that reach those offers, or not, weighted or refusing: values of
#: a few of them are quick to draw, many to a list.
RANGES = [*OFFERS, *{o.split("/")[0] + "/*" for o in OFFERS}, "*/*", "*", "x y"]
MEMBERS = [f"{r}{q}" for r in (*RANGES, "image/webp") for q in ("", ";q=0", ";q=0.5")]
QUICK_VALUES = st.none() | st.lists(st.sampled_from(MEMBERS), max_size=4).map(", ".join)


@settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    SOME_OFFERS,
    st.lists(QUICK_VALUES, min_size=VALUES_EACH - 1, max_size=VALUES_EACH - 1),
    ANY_VALUE,
)
def test_values_map_onto_at_most_one_key_per_offer_and_empty(
    engine: Engine, offers: list[Any], quick: list[Any], value: Any
) -> None:
    negotiator = engine.Negotiator(offers)
    values = [*quick, value]
    keys = {negotiator.variant_key(value) for value in values}
    assert keys <= {*negotiator.media_types, ""}
    assert len(keys) <= len(offers) + 1
    for value in values:
        assert negotiator.variant_key(value) == (negotiator.choose(value) or "")
