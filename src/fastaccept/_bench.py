"""Side-by-side benchmarks: both engines, the floor, and the peers (DESIGN §5).

Used by ``python -m fastaccept bench`` and by the pytest-benchmark suite in
``benchmarks/``. Every figure of one table is measured in the same run, on the
same header values, so ratios compare like with like.

* cold: a stream of ``COLD_VALUES`` distinct values of the same shape (the case
  plus one low-weight member with a counter), so no cache of any library helps;
* hot: one value, repeated.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ._defaults import BROWSER_DEFAULTS

API_OFFERS = ("application/json", "text/html")
IMAGE_OFFERS = ("image/jpeg", "image/webp", "image/png")
RFC9110 = (
    "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, "
    "text/plain;format=fixed;q=0.4, */*;q=0.5"
)


@dataclass(frozen=True)
class Case:
    name: str
    value: str
    offers: tuple[str, ...]


CASES = (
    Case("chrome-navigate", BROWSER_DEFAULTS["chrome-navigate"], API_OFFERS),
    Case("firefox-image", BROWSER_DEFAULTS["firefox-image"], IMAGE_OFFERS),
    Case("json", "application/json", API_OFFERS),
    Case("any", "*/*", API_OFFERS),
    Case("rfc9110", RFC9110, API_OFFERS),
)

#: Distinct values in a cold stream: more than any peer's cache (falcon: 128).
COLD_VALUES = 2048


def cold_values(case: Case, count: int = COLD_VALUES) -> list[str]:
    """Distinct values of the case's shape: one extra low-weight member each."""
    return [f"{case.value}, x-bench/v{i};q=0.001" for i in range(count)]


def hot_values(case: Case, count: int = COLD_VALUES) -> list[str]:
    """The case's value, the same object, ``count`` times."""
    return [case.value] * count


Negotiate = Callable[[str, Sequence[str]], Any]


def _peer(module: str, build: Callable[[Any], Negotiate]) -> Callable[[], Negotiate]:
    def load() -> Negotiate:
        return build(importlib.import_module(module))

    return load


def _django(module: Any) -> Negotiate:
    settings = importlib.import_module("django.conf").settings
    if not settings.configured:
        settings.configure()
    http = module

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        request = http.HttpRequest()
        request.META["HTTP_ACCEPT"] = value
        return request.get_preferred_type(offers)

    return negotiate


def _webob(module: Any) -> Negotiate:
    create = module.create_accept_header

    def negotiate(value: str, offers: Sequence[str]) -> Any:
        found = create(value).acceptable_offers(offers)
        return found[0][0] if found else None

    return negotiate


def _werkzeug(module: Any) -> Negotiate:
    from werkzeug.datastructures import MIMEAccept

    parse = module.parse_accept_header
    return lambda value, offers: parse(value, MIMEAccept).best_match(offers)


#: The peers' negotiation, each the way its documentation shows it.
PEERS: dict[str, Callable[[], Negotiate]] = {
    "werkzeug": _peer("werkzeug.http", _werkzeug),
    "mimeparse": _peer("mimeparse", lambda m: lambda v, o: m.best_match(o, v)),
    "webob": _peer("webob.acceptparse", _webob),
    "django": _peer("django.http", _django),
    "falcon": _peer(
        "falcon.util.mediatypes", lambda m: lambda v, o: m.best_match(o, v)
    ),
    "litestar": _peer(
        "litestar.datastructures.headers",
        lambda m: lambda v, o: m.Accept(v).best_match(o),
    ),
    "sanic": _peer("sanic.headers", lambda m: lambda v, o: m.parse_accept(v).match(*o)),
}


def load_peers(names: Iterable[str] = PEERS) -> tuple[dict[str, Negotiate], list[str]]:
    """The installed peers, and a note for each one that is not."""
    found, missing = {}, []
    for name in names:
        try:
            found[name] = PEERS[name]()
        except ImportError as exc:
            missing.append(f"{name} (not installed: {exc.name})")
    return found, missing


def load_floor() -> Any | None:
    """The compiled floor (``pip install ./benchmarks/floor``), if installed."""
    try:
        return importlib.import_module("fastaccept_floor")
    except ImportError:
        return None


def engines() -> dict[str, Any]:
    """The engine modules that can be imported here, by name."""
    from . import _scan_py

    found: dict[str, Any] = {}
    with contextlib.suppress(ImportError):
        found["cython"] = importlib.import_module("fastaccept._scan")
    found["python"] = _scan_py
    return found


def time_calls2(
    fn: Negotiate, values: list[str], offers: Sequence[str], repeat: int
) -> float:
    """Best-of-``repeat`` seconds per ``fn(value, offers)`` call over ``values``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for value in values:
            fn(value, offers)
        best = min(best, time.perf_counter() - start)
    return best / len(values)


def time_calls1(fn: Callable[[str], Any], values: list[str], repeat: int) -> float:
    """Best-of-``repeat`` seconds per ``fn(value)`` call over ``values``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for value in values:
            fn(value)
        best = min(best, time.perf_counter() - start)
    return best / len(values)
