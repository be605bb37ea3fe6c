"""Hostile values from 1 KiB up: negotiation time should grow linearly.

``FASTACCEPT_BENCH_MAX_KIB`` caps the size (default 1024; CI's smoke run
uses 16). Peers are timed by ``python -m fastaccept bench --growth``, which
stops a peer before a size that would take too long.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from fastaccept import _bench

MAX_KIB = int(os.environ.get("FASTACCEPT_BENCH_MAX_KIB", "1024"))
SIZES = [s for s in _bench.GROWTH_SIZES if s <= MAX_KIB * _bench.KIB]


@pytest.mark.parametrize("size", SIZES, ids=[f"{s // _bench.KIB}KiB" for s in SIZES])
@pytest.mark.parametrize("shape", list(_bench.SHAPES))
def test_growth(benchmark: Any, engine: Any, shape: str, size: int) -> None:
    value = _bench.SHAPES[shape](size)
    assert len(value) == size
    negotiator = engine.Negotiator(_bench.API_OFFERS, cache_size=0, max_length=None)
    benchmark.group = f"growth: {shape}"
    benchmark(negotiator.choose, value)
