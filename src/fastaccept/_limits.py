"""Limits, defaults and the cache policy: written once, read by both engines.

docs/rules.md rule 8: a value longer than ``max_length`` (default
``DEFAULT_MAX_LENGTH`` characters) is refused with ``AcceptError`` so a server
can answer 4xx (RFC 9110 §5.4); ``None`` lifts the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Protocol, TypeVar

#: The default ``max_length`` of every entry point, in characters.
DEFAULT_MAX_LENGTH: Final = 8192
#: How many recent header values a ``Negotiator`` remembers by default.
DEFAULT_CACHE_SIZE: Final = 256
#: Values longer than this are never stored, so a cache's memory is bounded by
#: ``cache_size * CACHE_KEY_MAX_LENGTH`` characters whatever the clients send.
CACHE_KEY_MAX_LENGTH: Final = 1024
#: ``negotiate``/``quality``: how many distinct offer lists keep a Negotiator.
NEGOTIATORS_KEPT: Final = 64
#: ``negotiate``/``quality``: how many header values each of those remembers.
VALUES_KEPT: Final = 64


if TYPE_CHECKING:

    class _Key(Hashable, Protocol):
        def __len__(self) -> int: ...

    _K = TypeVar("_K", bound=_Key)
    _V = TypeVar("_V")


def checked_cache_size(cache_size: int) -> int:
    """``cache_size`` if it is 0 or more (0: no cache); ``ValueError`` otherwise."""
    if cache_size < 0:
        raise ValueError("cache_size must be 0 or more")
    return cache_size


def store(cache: dict[_K, _V], size: int, key: _K, value: _V) -> _V:
    """Remember ``key -> value`` in a cache of at most ``size`` entries, and
    give the value the cache holds for ``key``: ``value``, or what a racing
    thread stored first (``setdefault``, one atomic dict operation), so that
    racing first uses share one object.

    The cache policy: a full cache is emptied before the new entry goes in
    (O(1) per store, no bookkeeping on the hit path, and a working set smaller
    than ``size`` is back after one miss each); a key longer than
    ``CACHE_KEY_MAX_LENGTH`` is not stored. The Cython engine compiles the same
    policy with these constants (a Python call per miss would slow its cold
    negotiation measurably); ``tests/test_api.py`` holds the two to this one.
    """
    if size > 0 and len(key) <= CACHE_KEY_MAX_LENGTH:
        if len(cache) >= size:
            cache.clear()
        return cache.setdefault(key, value)
    return value


if TYPE_CHECKING:
    _N = TypeVar("_N")
    _O = TypeVar("_O")


def kept_negotiator(
    kept: dict[tuple[tuple[_O, ...], int | None], _N],
    make: Callable[..., _N],
    offers: tuple[_O, ...],
    max_length: int | None,
) -> _N:
    """The Negotiator ``negotiate``/``quality`` keep for these offers in ``kept``.

    Made by ``make`` on first use, remembering ``VALUES_KEPT`` values; at most
    ``NEGOTIATORS_KEPT`` offer lists are kept, by the policy of ``store``.
    """
    key = (offers, max_length)
    try:
        found = kept.get(key)
    except TypeError:  # an unhashable offer: let the Negotiator say what is wrong
        return make(offers, cache_size=0, max_length=max_length)
    if found is None:
        made = make(offers, cache_size=VALUES_KEPT, max_length=max_length)
        found = store(kept, NEGOTIATORS_KEPT, key, made)
    return found
