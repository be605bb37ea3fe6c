"""Server weights (docs/rules.md rule 15): offers as ``(media type, qs)`` pairs.

The vectors in ``conformance/server_weights.jsonl`` are the project's own (the
shared set has none for qs); every entry point answers them on both engines.
"""

from __future__ import annotations

import pickle
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import fastaccept
from fastaccept import Offer, Produces

from .conftest import Engine
from .test_conformance import load

VECTORS = load("server_weights.jsonl")


def offers_of(case: dict[str, Any]) -> list[Any]:
    """JSON has no tuples nor ``Offer``s: a two-item list is a (media type,
    qs) pair, an object an ``Offer``'s arguments."""
    return [
        Offer(**offer)
        if isinstance(offer, dict)
        else tuple(offer)
        if isinstance(offer, list)
        else offer
        for offer in case["offers"]
    ]


@pytest.mark.parametrize("case", VECTORS, ids=[case["id"] for case in VECTORS])
def test_vectors(engine: Engine, case: dict[str, Any]) -> None:
    offers, accept = offers_of(case), case["accept"]
    expected = case["expected"]
    rank = [(media_type, score) for media_type, score in case["rank"]]
    negotiator = engine.Negotiator(offers)
    assert engine.negotiate(accept, offers) == expected, case["note"]
    assert negotiator.choose(accept) == expected, case["note"]
    assert negotiator.rank(accept) == rank, case["note"]
    # Accept's own methods follow the same rule.
    assert engine.parse(accept).best(offers) == expected
    assert engine.parse(accept).rank(offers) == rank


def test_a_pair_gives_its_very_media_type_object(engine: Engine) -> None:
    html = "".join(["text/", "html"])
    json_type = "".join(["application/", "json"])
    offers = [(html, 0.5), (json_type, 0.9)]
    assert engine.negotiate("text/html", offers) is html
    assert engine.negotiate("*/*", offers) is json_type
    negotiator = engine.Negotiator(offers)
    assert negotiator.choose("text/html") is html
    assert negotiator.offers == tuple(offers)  # as given
    assert negotiator.media_types == (html, json_type)
    assert engine.parse("*/*").best(offers) is json_type


def test_quality_stays_the_clients_weight(engine: Engine) -> None:
    assert engine.quality("text/html;q=0.5", "text/html") == 0.5
    assert engine.parse("text/html;q=0.5").quality("text/html") == 0.5


@pytest.mark.parametrize("qs", [0, 1, 0.25, Fraction(1, 4), Decimal("0.25")])
def test_any_real_number_is_read_by_its_value(engine: Engine, qs: Any) -> None:
    ranked = engine.Negotiator([("a/b", qs)]).rank(None)
    assert ranked == ([("a/b", float(qs))] if qs else [])


#: Weights given as numbers, with what a (media type, weight) pair gives: its
#: thousandths, or the error. One validator reads the server weight of an
#: offer and the weight of a format_accept pair.
NUMBERS: list[tuple[Any, int | type[Exception]]] = [
    (True, TypeError),  # a flag, not a weight (as for status=)
    (False, TypeError),
    (Decimal("0.25"), 250),
    (Decimal("1.000"), 1000),
    (Fraction(1, 8), 125),
    (0.001, 1),
    (0.1 + 0.2, 300),  # within a float's rounding (docs/rules.md rule 15)
    (Decimal("0.3000000001"), 300),
    (1 + 2**-52, 1000),  # at either end too
    (Decimal("1.0000000001"), 1000),
    (0.3 - 0.1 - 0.2, 0),
    (Decimal("-1E-10"), 0),
    (1.001, ValueError),
    (-0.001, ValueError),
    ("0.5", TypeError),
    (b"1", TypeError),
    (bytearray(b"0.5"), TypeError),  # text, as bytes are (float reads buffers)
    (memoryview(b"0.5"), TypeError),
    (None, TypeError),
    (1j, TypeError),
    (Decimal("1.5"), ValueError),
    (Fraction(-1, 4), ValueError),
    (2, ValueError),
    (float("inf"), ValueError),
    (Decimal("NaN"), ValueError),
    (Decimal("sNaN"), ValueError),
    (Decimal("0.2505"), ValueError),
    (Fraction(1, 3), ValueError),
    (0.0001, ValueError),
    (1e-10, ValueError),  # above 0, never read as 0 (a refusal)
    (5e-324, ValueError),
]


@pytest.mark.parametrize(("number", "expected"), NUMBERS)
def test_a_server_weight_and_a_format_accept_weight_are_read_alike(
    engine: Engine, number: Any, expected: int | type[Exception]
) -> None:
    if isinstance(expected, int):
        ranked = engine.Negotiator([("a/b", number)]).rank(None)
        assert ranked == ([("a/b", expected / 1000)] if expected else [])
        written = fastaccept.format_accept([("a/b", number)])
        assert fastaccept.parse(written, strict=True)[0].weight == expected
        return
    with pytest.raises(expected) as offer_error:
        engine.Negotiator([("a/b", number)])
    with pytest.raises(expected) as pair_error:
        fastaccept.format_accept([("a/b", number)])
    rule = (
        "a weight must be a number from 0 to 1, not "
        if expected is TypeError
        else "a weight must be a number from 0 to 1 with at most three decimals"
    )
    shown = f"{number!r} of the"
    assert str(offer_error.value).startswith(f"invalid qs {shown} offer")
    assert str(pair_error.value).startswith(f"invalid weight {shown} format_accept")
    for error in (offer_error.value, pair_error.value):
        assert f"for 'a/b': {rule}" in str(error)
    if expected is TypeError:  # alone, whatever the caller was handling
        with pytest.raises(TypeError) as one_call:
            engine.negotiate("a/b", [("a/b", number)])
        assert one_call.value.__suppress_context__


@pytest.mark.parametrize(
    ("offer", "error", "message"),
    [
        (("a/b", 1.5), ValueError, "from 0 to 1 with at most three decimals"),
        (("a/b", -0.1), ValueError, "from 0 to 1"),
        (("a/b", 0.0001), ValueError, "at most three decimals"),
        (("a/b", 0.500001), ValueError, "at most three decimals"),
        (("a/b", float("nan")), ValueError, "from 0 to 1"),
        (("a/b", 10**400), ValueError, "from 0 to 1"),
        (("a/b", "0.5"), TypeError, "must be a number from 0 to 1, not str"),
        (("a/b", None), TypeError, "not NoneType"),
        (("a/b", 0.5, 1), ValueError, "a weighted offer is a pair"),
        (("a/b",), ValueError, "a weighted offer is a pair"),
        ((), ValueError, "a weighted offer is a pair"),
        ((("a/b", 0.5), 0.5), ValueError, "a weighted offer is a pair"),
        (("a/*", 0.5), ValueError, "not ranges with '*'"),
        (("a/b;q=0.5", 0.5), ValueError, "takes no weight"),
        ((b"a/b", 0.5), TypeError, "must be a str, not bytes"),
        (
            (Offer("a/b"), 0.5),
            TypeError,
            r"an Offer carries its own qs \(Offer\('a/b', qs=\.\.\.\)\), in no pair",
        ),
    ],
)
def test_bad_weighted_offers_raise(
    engine: Engine, offer: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        engine.Negotiator([offer])
    with pytest.raises(error, match=message):
        engine.negotiate("a/b", [offer])
    with pytest.raises(error, match=message):
        engine.parse("a/b").best([offer])
    with pytest.raises(error, match=message):
        engine.parse(None).rank([offer])


def test_a_weight_in_an_offer_says_where_a_server_weight_goes(engine: Engine) -> None:
    said = (
        "invalid offer 'a/b;q=0.5': an offer takes no weight ('q' parameter); "
        "a server weight is an offer's qs, given in a program as a pair "
        "(media type, qs) or Offer(media_type, qs)"
    )
    for offer in ("a/b;q=0.5", ("a/b;q=0.5", 1)):
        with pytest.raises(ValueError) as raised:
            engine.Negotiator([offer])
        assert str(raised.value) == said
    with pytest.raises(ValueError) as raised:
        Offer("a/b;q=0.5")
    assert str(raised.value) == said


@pytest.mark.parametrize("qs", [True, False])
def test_a_bool_qs_is_refused_wherever_an_offer_is_given(
    engine: Engine, qs: bool
) -> None:
    said = (
        f"invalid qs {qs!r} of the offer for 'a/b': a weight must be a number "
        "from 0 to 1, not bool"
    )
    for make in (
        lambda: engine.Negotiator([("a/b", qs)]),
        lambda: engine.negotiate("a/b", [("a/b", qs)]),
        lambda: engine.parse("a/b").best([("a/b", qs)]),
        lambda: Offer("a/b", qs),
        lambda: Produces([("a/b", qs), "c/d"]),
    ):
        with pytest.raises(TypeError) as info:
            make()
        assert str(info.value) == said


def test_a_negotiator_takes_offers_all_at_qs_0_and_chooses_none(
    engine: Engine,
) -> None:
    # Lower-level than Produces (docs/bad-input.md): qs 0 is "never chosen".
    negotiator = engine.Negotiator([("a/b", 0), ("c/d", 0)])
    assert negotiator.choose("*/*", default="x") == "x"
    assert negotiator.rank(None) == []


def test_weighted_negotiator_round_trips(engine: Engine) -> None:
    negotiator = engine.Negotiator([("text/html", 0.5), "application/json"])
    copy = pickle.loads(pickle.dumps(negotiator))
    assert copy == negotiator
    assert copy.choose("text/html, application/json;q=0.6") == "application/json"


def test_produces_takes_pairs_and_lists_what_it_can_choose() -> None:
    produces = Produces([("text/html", 0.2), ("text/csv", 0), "application/json"])
    assert (
        produces.select("text/html, application/json;q=0.1").media_type == "text/html"
    )
    assert produces.select(None).media_type == "application/json"
    refused = produces.select("text/csv")
    assert refused.status == 406
    # qs=0 is never chosen, so the 406 does not offer it; best first.
    assert refused.body.splitlines()[1:] == ["application/json", "text/html"]
    assert Produces([("text/csv", 0)], default="text/csv").select("a/b").status == 200
