"""Hostile values from 1 KiB up: negotiation time should grow linearly.

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
    benchmark(negotiator.choose, value)
