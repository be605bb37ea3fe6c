"""The shared conformance vectors (a copy in tests/conformance/), on both engines,
strict and lenient: the rules of docs/rules.md. That the copy is current is
checked by .ci/run, not here (docs/development.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fastaccept import AcceptError, cors_unsafe_bytes

from .conftest import Engine

HERE = Path(__file__).parent / "conformance"


def load(name: str) -> list[dict[str, Any]]:
    """The vectors of ``name``, one JSON object a line; a file of none is an
    error, where an empty parametrization would only skip its tests."""
    with (HERE / name).open(encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    if not cases:
        raise ValueError(f"tests/conformance/{name} holds no vectors")
    return cases


def ids(cases: list[dict[str, Any]], key: str) -> list[str]:
    return [str(case.get("id", case.get(key)))[:60] for case in cases]


NEGOTIATE = load("negotiate.jsonl")
QUALITY = load("quality.jsonl")
PARSE = load("parse.jsonl")
CORS = load("cors.jsonl")


def as_lists(accept: Any) -> list[list[Any]]:
    return [[r.type, r.subtype, dict(r.params), r.q] for r in accept]


@pytest.mark.parametrize("case", NEGOTIATE, ids=ids(NEGOTIATE, "accept"))
def test_negotiate(engine: Engine, case: dict[str, Any]) -> None:
    offers = case["offers"]
    chosen = engine.negotiate(case["accept"], offers)
    assert chosen == case["expected"], case["note"]
    if chosen is not None:
        assert any(chosen is offer for offer in offers)  # the very object given
    # The same answer through every entry point.
    assert engine.Negotiator(offers).choose(case["accept"]) == case["expected"]
    assert engine.parse(case["accept"]).best(offers) == case["expected"]
    ranked = engine.Negotiator(offers).rank(case["accept"])
    assert (ranked[0][0] if ranked else None) == case["expected"]
    assert ranked == engine.parse(case["accept"]).rank(offers)


@pytest.mark.parametrize("case", QUALITY, ids=ids(QUALITY, "media_type"))
def test_quality(engine: Engine, case: dict[str, Any]) -> None:
    assert engine.quality(case["accept"], case["media_type"]) == case["expected_q"]
    assert (
        engine.parse(case["accept"]).quality(case["media_type"]) == case["expected_q"]
    )


@pytest.mark.parametrize("case", PARSE, ids=ids(PARSE, "accept"))
def test_parse_lenient(engine: Engine, case: dict[str, Any]) -> None:
    assert as_lists(engine.parse(case["accept"])) == case["lenient"]


@pytest.mark.parametrize("case", PARSE, ids=ids(PARSE, "accept"))
def test_parse_strict(engine: Engine, case: dict[str, Any]) -> None:
    if case["strict"] == "error":
        with pytest.raises(AcceptError):
            engine.parse(case["accept"], strict=True)
    else:
        assert as_lists(engine.parse(case["accept"], strict=True)) == case["strict"]


def cors_value(case: dict[str, Any]) -> str | bytes:
    return bytes.fromhex(case["value_hex"]) if "value_hex" in case else case["value"]


@pytest.mark.parametrize("case", CORS, ids=ids(CORS, "note"))
def test_cors(engine: Engine, case: dict[str, Any]) -> None:
    value = cors_value(case)
    assert engine.is_cors_safelisted(value) is case["safelisted"]
    assert cors_unsafe_bytes(value).safelisted is case["safelisted"]
    # The tokenizer's own verdict, found in the same pass.
    assert engine.parse(value).cors_safelisted is case["safelisted"]
