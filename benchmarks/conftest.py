"""Fixtures of the benchmark suite: cases, engines, peers and the floor.

Run: ``pytest benchmarks/`` (measure) or ``pytest benchmarks/ --benchmark-disable``
(each benchmark once: the smoke run CI does). Cold benchmarks time a batch of
``BATCH`` calls (negotiation: the case's value, no cache of a value kept;
parsing: distinct values); divide by ``BATCH`` (``extra_info["calls"]``) for
the time per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from . import bench

BATCH = 256
ENGINES = bench.engines()
PEERS, MISSING = bench.load_peers()
FLOOR = bench.load_floor()


@pytest.fixture(params=bench.CASES, ids=[case.name for case in bench.CASES])
def case(request: pytest.FixtureRequest) -> bench.Case:
    """The five cases. The extended set (``bench.EXTENDED_CASES``) is timed
    by ``python -m benchmarks``: here, where each benchmark takes about a
    second, it would nearly triple the negotiate benchmarks' run."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Any:
    return ENGINES[request.param]


@pytest.fixture(params=sorted(bench.PEERS))
def peer(request: pytest.FixtureRequest) -> bench.Negotiate:
    if request.param not in PEERS:
        pytest.skip(f"{request.param} is not installed (pip install '.[bench]')")
    return PEERS[request.param]


@pytest.fixture
def floor() -> Any:
    if FLOOR is None:
        pytest.skip("the floor is not installed (pip install ./benchmarks/floor)")
    return FLOOR


def time_batch(
    benchmark: Any, fn: bench.Negotiate, values: list[str], offers: Sequence[str]
) -> None:
    """Time ``fn(value, offers)`` over the batch of cold ``values``."""
    benchmark.extra_info["calls"] = len(values)
    offers = list(offers)

    def batch() -> None:
        for value in values:
            fn(value, offers)

    benchmark(batch)
