"""Server weights (docs/rules.md rule 15): offers as ``(media type, qs)`` pairs.

The vectors in ``conformance/server_weights.jsonl`` are the project's own (the
shared set has none for qs); every entry point answers them on both engines.
"""

from __future__ import annotations

import json
import pickle
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fastaccept import Produces

from .conftest import Engine

VECTORS = [
    json.loads(line)
    for line in (Path(__file__).parent / "conformance" / "server_weights.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]


def offers_of(case: dict[str, Any]) -> list[Any]:
    """JSON has no tuples: a two-item list is a (media type, qs) pair."""
    return [
        tuple(offer) if isinstance(offer, list) else offer for offer in case["offers"]
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


@pytest.mark.parametrize("qs", [0, 1, True, 0.25, Fraction(1, 4), Decimal("0.25")])
def test_any_real_number_is_read_by_its_value(engine: Engine, qs: Any) -> None:
    ranked = engine.Negotiator([("a/b", qs)]).rank(None)
    assert ranked == ([("a/b", float(qs))] if qs else [])


@pytest.mark.parametrize(
    ("offer", "error", "message"),
    [
        (("a/b", 1.5), ValueError, "from 0 to 1 with at most three decimals"),
        (("a/b", -0.1), ValueError, "from 0 to 1"),
        (("a/b", 0.0001), ValueError, "at most three decimals"),
        (("a/b", float("nan")), ValueError, "from 0 to 1"),
        (("a/b", 10**400), ValueError, "from 0 to 1"),
        (("a/b", "0.5"), TypeError, "must be a number from 0 to 1, not str"),
        (("a/b", None), TypeError, "not NoneType"),
        (("a/b", 0.5, 1), ValueError, "a weighted offer is a pair"),
        ((("a/b", 0.5), 0.5), ValueError, "a weighted offer is a pair"),
        (("a/*", 0.5), ValueError, "not ranges with '*'"),
        (("a/b;q=0.5", 0.5), ValueError, "takes no weight"),
        ((b"a/b", 0.5), TypeError, "must be a str, not bytes"),
    ],
)
def test_bad_weighted_offers_raise(
    engine: Engine, offer: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        engine.Negotiator([offer])
    with pytest.raises(error, match=message):
        engine.negotiate("a/b", [offer])


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
