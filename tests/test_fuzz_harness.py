"""fuzz/fuzz_accept.py, the atheris harness, kept working where atheris is
not installed (CI): its check passes on every input of its seed corpus, and
it reports a difference between the engines where there is one."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from .conftest import cython_engine

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"


@pytest.fixture(scope="module")
def harness() -> Any:
    """The harness module, loaded with a stand-in for atheris (only its
    ``instrument_imports`` runs at import)."""
    cython_engine()  # the harness compares it with the pure engine: else a skip
    stand_in = types.SimpleNamespace(instrument_imports=contextlib.nullcontext)
    spec = importlib.util.spec_from_file_location(
        "fuzz_accept", FUZZ / "fuzz_accept.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "atheris", stand_in)
        spec.loader.exec_module(module)
    return module


def test_every_seed_passes_the_check(harness: Any) -> None:
    seeds = sorted((FUZZ / "corpus").iterdir())
    assert len(seeds) > 50
    for seed in seeds:
        harness.test_one_input(seed.read_bytes())


@pytest.mark.thread_unsafe(reason="patches the harness module's negotiators")
@pytest.mark.parametrize(
    ("pair", "other", "value"),
    [
        (0, ["image/png"], b"text/html"),  # Accept, ranked
        (2, ["text/x-1"], b"application/x-0+json"),  # 1,008 offers, chosen
        (4, ["br"], b"gzip"),  # Accept-Encoding
        (5, ["de"], b"en"),  # Accept-Language
    ],
)
def test_a_difference_is_a_finding(
    harness: Any,
    monkeypatch: pytest.MonkeyPatch,
    pair: int,
    other: list[str],
    value: bytes,
) -> None:
    """A list's pure negotiator swapped for one of ``other`` offers: the
    check fails on a ``value`` that the two lists answer differently."""
    negotiators = list(harness.NEGOTIATORS)
    got, want, read, name = negotiators[pair]
    negotiators[pair] = (got, type(want)(other, cache_size=0), read, name)
    monkeypatch.setattr(harness, "NEGOTIATORS", negotiators)
    with pytest.raises(AssertionError, match=f"{read} differs"):
        harness.test_one_input(value)
