"""The negotiation policies of docs/rules.md rules 20 and on.

The vectors in ``conformance/policies.jsonl`` are the project's own (the
shared set predates these rules); every entry point answers them on both
engines, and the web layer through the active one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fastaccept import Consumes, Produces

from .conftest import Engine

VECTORS = [
    json.loads(line)
    for line in (Path(__file__).parent / "conformance" / "policies.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]


@pytest.mark.parametrize("case", VECTORS, ids=[case["id"] for case in VECTORS])
def test_vectors(engine: Engine, case: dict[str, Any]) -> None:
    offers, accept, expected = case["offers"], case["accept"], case["expected"]
    negotiator = engine.Negotiator(offers)
    assert engine.negotiate(accept, offers) == expected, case["note"]
    assert negotiator.choose(accept) == expected, case["note"]
    index = negotiator.choose_index(accept)
    assert (offers[index] if index >= 0 else None) == expected
    ranked = negotiator.rank(accept)
    assert (ranked[0][0] if ranked else None) == expected
    if accept is not None:
        parsed = engine.parse(accept)
        assert parsed.best(offers) == expected
        assert parsed.rank(offers) == ranked
    if expected is not None:
        assert engine.quality(accept, expected) == ranked[0][1]


@pytest.mark.parametrize("case", VECTORS, ids=[case["id"] for case in VECTORS])
def test_vectors_in_the_web_layer(case: dict[str, Any]) -> None:
    decision = Produces(case["offers"]).select(case["accept"])
    if case["expected"] is None:
        assert decision.status == 406
    else:
        assert (decision.status, decision.media_type) == (200, case["expected"])


@pytest.mark.parametrize(
    ("takes", "content_type", "status"),
    [
        ("application/json; charset=utf-8", "application/json", 200),
        ("application/json; charset=utf-8", "application/json; charset=UTF-8", 200),
        ("application/json; charset=utf-8", "application/json; charset=latin1", 415),
        ("application/*; charset=utf-8", "application/merge-patch+json", 200),
        ("text/plain; charset=utf-8", "text/plain", 415),
    ],
)
def test_a_json_request_body_needs_no_charset(
    takes: str, content_type: str, status: int
) -> None:
    # Rule 20 where a request's Content-Type meets the types a resource takes.
    assert Consumes([takes]).check(content_type).status == status
