"""Hostile values from 1 KiB up: negotiation time should grow linearly;
and against many offers, not with the offers a value cannot match.

``FASTACCEPT_BENCH_MAX_KIB`` caps the size (default 1024; CI's smoke run
uses 16). Peers are timed by ``python -m benchmarks --growth``, which
stops a peer before a size that would take too long.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from . import bench

MAX_KIB = int(os.environ.get("FASTACCEPT_BENCH_MAX_KIB", "1024"))
SIZES = [s for s in bench.GROWTH_SIZES if s <= MAX_KIB * bench.KIB]


@pytest.mark.parametrize("size", SIZES, ids=[f"{s // bench.KIB}KiB" for s in SIZES])
@pytest.mark.parametrize("shape", list(bench.SHAPES))
def test_growth(benchmark: Any, engine: Any, shape: str, size: int) -> None:
    value = bench.SHAPES[shape](size)
    assert len(value) == size
    negotiator = engine.Negotiator(bench.API_OFFERS, cache_size=0, max_length=None)
    benchmark.group = f"growth: {shape}"
    # text/html reaches its offer; with a parameter the offer lacks, or in a
    # malformed value, nothing is chosen
    expected = "text/html" if shape == "many members" else None
    assert benchmark(negotiator.choose, value) == expected


#: 1,008 offers, past the 63 that the Cython engine tells apart by a bit each:
#: 112 subtypes of each of nine types, one in ten JSON (``+json``, which a
#: range's charset does not rule out: docs/rules.md rule 20).
WIDE_OFFERS = tuple(
    f"{kind}/x-{i}{'+json' if i % 10 == 0 else ''}"
    for i in range(112)
    for kind in (
        "application",
        "audio",
        "font",
        "image",
        "message",
        "model",
        "multipart",
        "text",
        "video",
    )
)
#: Members a hostile value repeats, each reaching many offers by its type or
#: wildcard: with a parameter no offer has, a charset the JSON offers take,
#: a concrete type offered among the first 32.
WIDE_MEMBERS = ("*/*;a=1", "application/*;a=1", "*/*;charset=utf-8", "text/x-1")
#: What each chooses, among the first 32 offers as among all.
WIDE_CHOICES = {
    "*/*;a=1": None,
    "application/*;a=1": None,
    "*/*;charset=utf-8": "application/x-0+json",
    "text/x-1": "text/x-1",
}


@pytest.mark.parametrize("count", [32, len(WIDE_OFFERS)])
@pytest.mark.parametrize("member", WIDE_MEMBERS)
def test_many_offers(benchmark: Any, engine: Any, member: str, count: int) -> None:
    """A member repeated to 8,190 characters against 32 offers and against
    1,008: the time should not grow with the offers its ranges cannot match
    (docs/bad-input.md)."""
    value = ",".join([member] * (8190 // (len(member) + 1)))
    negotiator = engine.Negotiator(WIDE_OFFERS[:count], cache_size=0)
    benchmark.group = f"many offers: {member}"
    assert benchmark(negotiator.choose, value) == WIDE_CHOICES[member]


#: 1,000 types that all begin with the same byte, which real media types do
#: not (at most three share one): a member's type is sought among those with
#: its hash, not walked past all of them (docs/bad-input.md).
ALIKE_OFFERS = tuple(f"t{i}/s" for i in range(1000))


@pytest.mark.parametrize("member", ["tzz/s", "T999/S"])
def test_types_alike(benchmark: Any, engine: Any, member: str) -> None:
    """A member repeated to 8,190 characters against 1,000 types beginning
    alike: one no offer has, and the last one."""
    value = ",".join([member] * (8190 // (len(member) + 1)))
    negotiator = engine.Negotiator(ALIKE_OFFERS, cache_size=0)
    benchmark.group = f"types alike: {member}"
    expected = None if member == "tzz/s" else "t999/s"
    assert benchmark(negotiator.choose, value) == expected


#: The 1,008 offers with 112 values of one parameter, ``version`` (the
#: subtype's number): a member whose value no offer has, spelled plainly or
#: escaped, and one that nine offers have.
VERSIONED_OFFERS = tuple(
    f"{offer};version={i // 9}" for i, offer in enumerate(WIDE_OFFERS)
)


@pytest.mark.parametrize(
    "member", ["*/*;version=999", '*/*;version="9\\99"', "*/*;version=5"]
)
def test_many_versions(benchmark: Any, engine: Any, member: str) -> None:
    """A member repeated to 8,190 characters against offers with many values
    of its parameter: only the offers with its value are read
    (docs/bad-input.md)."""
    value = ",".join([member] * (8190 // (len(member) + 1)))
    negotiator = engine.Negotiator(VERSIONED_OFFERS, cache_size=0)
    benchmark.group = f"many versions: {member}"
    expected = "application/x-5;version=5" if member.endswith("=5") else None
    assert benchmark(negotiator.choose, value) == expected
