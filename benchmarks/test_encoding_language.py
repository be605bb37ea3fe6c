"""Accept-Encoding and Accept-Language: both engines, werkzeug and webob.

Cold: ``negotiate_encoding``/``negotiate_language`` over ``BATCH`` distinct
values; hot: ``EncodingNegotiator``/``LanguageNegotiator.choose`` on one value;
growth: hostile values (``FASTACCEPT_BENCH_MAX_KIB`` caps the size, as in
``test_growth.py``), limits lifted, no cache.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import bench, bench_lists
from .conftest import BATCH, time_batch
from .test_growth import SIZES

LIST_CASES = {f"{c.field}: {c.value}": c for c in bench_lists.LIST_CASES}


@pytest.fixture(params=sorted(LIST_CASES))
def list_case(request: pytest.FixtureRequest) -> bench_lists.ListCase:
    return LIST_CASES[request.param]


@pytest.fixture(params=sorted(bench_lists.LIST_PEERS))
def list_peer(
    request: pytest.FixtureRequest, list_case: bench_lists.ListCase
) -> bench.Negotiate:
    peers, missing = bench_lists.load_list_peers([request.param], list_case.field)
    if missing:
        pytest.skip(f"{missing[0]} (pip install '.[bench]')")
    return peers[request.param]


def _cold(benchmark: Any, fn: bench.Negotiate, case: bench_lists.ListCase) -> None:
    """The case's value, no cache of a value kept (``without_value_caches``)."""
    benchmark.group = f"{case.field} cold: {case.value}"
    uncached = bench.without_value_caches(fn)
    time_batch(benchmark, uncached, [case.value] * BATCH, case.offers)


def test_engine_cold(
    benchmark: Any, engine: Any, list_case: bench_lists.ListCase
) -> None:
    one_call = bench_lists.one_call(engine, list_case.field)
    assert one_call(list_case.value, list(list_case.offers)) in list_case.offers
    _cold(benchmark, one_call, list_case)


def test_peer_cold(
    benchmark: Any, list_peer: bench.Negotiate, list_case: bench_lists.ListCase
) -> None:
    # the adapter works for this case
    assert list_peer(list_case.value, list(list_case.offers)) in list_case.offers
    _cold(benchmark, list_peer, list_case)


def test_engine_hot(
    benchmark: Any, engine: Any, list_case: bench_lists.ListCase
) -> None:
    negotiator = bench_lists.negotiator(engine, list_case.field, list_case.offers)
    benchmark.group = f"{list_case.field} hot: {list_case.value}"
    assert benchmark(negotiator.choose, list_case.value) in list_case.offers


def test_peer_hot(
    benchmark: Any, list_peer: bench.Negotiate, list_case: bench_lists.ListCase
) -> None:
    benchmark.group = f"{list_case.field} hot: {list_case.value}"
    offers = list(list_case.offers)
    assert benchmark(list_peer, list_case.value, offers) in list_case.offers


def _peer_quality(name: str, field: bench_lists.Field) -> bench.Negotiate:
    """A peer's weight of one offer, parsing the value as its documentation
    shows: werkzeug's ``parse_accept_header(...)[offer]``; webob's RFC-following
    calls (its ``quality`` warns that it does not follow the RFC),
    ``acceptable_offers([offer])`` for Accept-Encoding and
    ``basic_filtering([offer])`` (RFC 4647 §3.3.1) for Accept-Language."""
    if name == "werkzeug":
        http = pytest.importorskip("werkzeug.http")
        structures = pytest.importorskip("werkzeug.datastructures")
        kind = structures.Accept if field == "encoding" else structures.LanguageAccept
        return lambda value, offer: http.parse_accept_header(value, kind)[offer]
    acceptparse = pytest.importorskip("webob.acceptparse")
    create = getattr(acceptparse, f"create_accept_{field}_header")
    if field == "encoding":
        return lambda value, offer: dict(create(value).acceptable_offers([offer])).get(
            offer
        )
    return lambda value, offer: dict(create(value).basic_filtering([offer])).get(offer)


def _quality(benchmark: Any, fn: bench.Negotiate, case: bench_lists.ListCase) -> None:
    """``fn(value, offer)`` over ``BATCH`` distinct values of the case, the
    offer its first: a middleware's question (may I send gzip, at what
    weight?) on every request."""
    benchmark.group = f"{case.field} parse and quality: {case.value}"
    values = bench_lists.list_cold_values(case, BATCH)
    offer = case.offers[0]
    benchmark.extra_info["calls"] = len(values)

    def batch() -> None:
        for value in values:
            fn(value, offer)

    benchmark(batch)


def test_engine_quality(
    benchmark: Any, engine: Any, list_case: bench_lists.ListCase
) -> None:
    parse = getattr(engine, f"parse_{list_case.field}")
    weight = parse(list_case.value).quality(list_case.offers[0])
    assert 0 <= weight <= 1
    _quality(benchmark, lambda value, offer: parse(value).quality(offer), list_case)


@pytest.mark.parametrize("peer", ["werkzeug", "webob"])
def test_peer_quality(
    benchmark: Any, peer: str, list_case: bench_lists.ListCase
) -> None:
    quality = _peer_quality(peer, list_case.field)
    found = quality(list_case.value, list_case.offers[0])  # the adapter works
    assert found is None or 0 <= found <= 1
    _quality(benchmark, quality, list_case)


@pytest.mark.parametrize("size", SIZES, ids=[f"{s // bench.KIB}KiB" for s in SIZES])
@pytest.mark.parametrize("shape", list(bench_lists.LIST_SHAPES))
def test_growth(benchmark: Any, engine: Any, shape: str, size: int) -> None:
    field, make = bench_lists.LIST_SHAPES[shape]
    value = make(size)
    assert len(value) == size
    offers = bench_lists.CODINGS if field == "encoding" else bench_lists.TAGS
    negotiator = bench_lists.negotiator(
        engine, field, offers, cache_size=0, max_length=None
    )
    benchmark.group = f"growth: {shape}"
    benchmark(negotiator.choose, value)


#: 1,000 offers of each field: codings, and tags that all share their first
#: four subtags, which real tags do not (docs/bad-input.md).
MANY_CODINGS = tuple(f"c{i}" for i in range(1000))
MANY_TAGS = tuple(f"en-aaaaaaaa-bbbbbbbb-cccccccc-t{i}" for i in range(1000))
#: Members a hostile value repeats: a coding not offered; a refused range
#: that is no tag's prefix; a range of another language; one that relates,
#: by its first subtag, to every tag.
MANY_MEMBERS: dict[str, tuple[bench_lists.Field, str | None]] = {
    "zz;q=0.5": ("encoding", None),
    "en-aaaaaaaa-bbbbbbbb-cccccccc-zz;q=0": ("language", None),
    "fr-FR;q=0.5": ("language", None),
    "en-zz;q=0.5": ("language", "en-aaaaaaaa-bbbbbbbb-cccccccc-t0"),
}


@pytest.mark.parametrize("count", [8, 1000])
@pytest.mark.parametrize("member", list(MANY_MEMBERS))
def test_many_offers(benchmark: Any, engine: Any, member: str, count: int) -> None:
    """A member repeated to 8,190 characters against 8 offers and against
    1,000: the time should grow only with the offers a range can relate to
    (the last member's: all of them)."""
    field, expected = MANY_MEMBERS[member]
    value = ",".join([member] * (8190 // (len(member) + 1)))
    offers = MANY_CODINGS if field == "encoding" else MANY_TAGS
    negotiator = bench_lists.negotiator(engine, field, offers[:count], cache_size=0)
    benchmark.group = f"many offers, {field}: {member}"
    assert benchmark(negotiator.choose, value) == expected
