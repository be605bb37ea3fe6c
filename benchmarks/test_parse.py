"""parse (cold) against werkzeug, and the other entry points."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from . import bench
from .conftest import BATCH, PEERS


def _batch(
    benchmark: Any, group: str, fn: Callable[[str], Any], case: bench.Case
) -> None:
    values = bench.cold_values(case, BATCH)
    benchmark.group = f"{group}: {case.name}"
    benchmark.extra_info["calls"] = BATCH

    def batch() -> None:
        for value in values:
            fn(value)

    benchmark(batch)


def test_engine_parse(benchmark: Any, engine: Any, case: bench.Case) -> None:
    assert len(engine.parse(case.value)) > 0
    _batch(benchmark, "parse cold", engine.parse, case)


def test_werkzeug_parse(benchmark: Any, case: bench.Case) -> None:
    if "werkzeug" not in PEERS:
        pytest.skip("werkzeug is not installed")
    from werkzeug.datastructures import MIMEAccept
    from werkzeug.http import parse_accept_header

    assert len(parse_accept_header(case.value, MIMEAccept)) > 0
    _batch(benchmark, "parse cold", lambda v: parse_accept_header(v, MIMEAccept), case)


def test_engine_quality(benchmark: Any, engine: Any, case: bench.Case) -> None:
    offer = case.offers[0]
    assert engine.quality(case.value, offer) > 0  # every case accepts its first offer
    _batch(benchmark, "quality cold", lambda v: engine.quality(v, offer), case)


def test_engine_cors(benchmark: Any, engine: Any, case: bench.Case) -> None:
    # The cases hold no CORS-unsafe byte: only their length decides (Fetch's 128).
    assert engine.is_cors_safelisted(case.value) is (len(case.value) <= 128)
    _batch(benchmark, "is_cors_safelisted cold", engine.is_cors_safelisted, case)
