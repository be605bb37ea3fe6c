"""negotiate (cold) and Negotiator.choose (hot): engines, floor, peers."""

from __future__ import annotations

from typing import Any

from fastaccept import Produces

from . import bench
from .conftest import BATCH, time_batch


def _cold(benchmark: Any, fn: bench.Negotiate, case: bench.Case) -> None:
    """The case's value, no cache of a value kept (``without_value_caches``)."""
    benchmark.group = f"negotiate cold: {case.name}"
    uncached = bench.without_value_caches(fn)
    time_batch(benchmark, uncached, bench.hot_values(case, BATCH), case.offers)


def test_engine_cold(benchmark: Any, engine: Any, case: bench.Case) -> None:
    offers = list(case.offers)
    expected = engine.negotiate(case.value, offers)
    assert expected in case.offers  # every case has an acceptable offer
    _cold(benchmark, engine.negotiate, case)


def test_floor_cold(benchmark: Any, floor: Any, case: bench.Case) -> None:
    assert floor.choose(case.value, case.offers) in case.offers
    _cold(benchmark, floor.choose, case)


def test_peer_cold(benchmark: Any, peer: bench.Negotiate, case: bench.Case) -> None:
    assert peer(case.value, list(case.offers))  # the adapter works for this case
    _cold(benchmark, peer, case)


def test_engine_hot(benchmark: Any, engine: Any, case: bench.Case) -> None:
    negotiator = engine.Negotiator(case.offers)
    benchmark.group = f"Negotiator.choose hot: {case.name}"
    assert benchmark(negotiator.choose, case.value) in case.offers


def test_engine_offers_written_in_the_call(
    benchmark: Any, engine: Any, case: bench.Case
) -> None:
    """``negotiate(value, [...])``, the list written in the call: a new list
    of the same offers each time (docs/api.md, "The value cache")."""
    offers = case.offers
    benchmark.group = f"negotiate, offers written in the call: {case.name}"
    assert benchmark(lambda: engine.negotiate(case.value, [*offers])) in offers


def test_floor_hot_empty(benchmark: Any, floor: Any, case: bench.Case) -> None:
    benchmark.group = f"Negotiator.choose hot: {case.name}"
    assert benchmark(floor.Floor(case.offers).empty, case.value) in case.offers


def test_produces_select_hot(benchmark: Any, case: bench.Case) -> None:
    benchmark.group = f"Negotiator.choose hot: {case.name}"
    assert benchmark(Produces(case.offers).select, case.value).ok


def test_renderers_respond_hot(benchmark: Any, case: bench.Case) -> None:
    benchmark.group = f"Negotiator.choose hot: {case.name}"
    assert benchmark(bench.rendering(case.offers), case.value).ok
