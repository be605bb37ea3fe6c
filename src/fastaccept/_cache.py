"""The bounded caches: recent header values -> chosen offer, offers -> Negotiator."""

from __future__ import annotations

from collections.abc import Hashable, Sized
from typing import Final, TypeVar

#: Values longer than this are never stored, so a cache's memory is bounded by
#: ``cache_size * CACHE_KEY_MAX_LENGTH`` characters whatever the clients send.
CACHE_KEY_MAX_LENGTH: Final = 1024

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def store(cache: dict[_K, _V], size: int, key: _K, value: _V) -> None:
    """Remember ``key -> value`` in a cache of at most ``size`` entries.

    A full cache is emptied before the new entry goes in: O(1) per store, no
    bookkeeping on the hit path, and a working set smaller than ``size`` is back
    after one miss each. A key longer than ``CACHE_KEY_MAX_LENGTH`` is not stored.
    """
    if size <= 0 or (isinstance(key, Sized) and len(key) > CACHE_KEY_MAX_LENGTH):
        return
    if len(cache) >= size:
        cache.clear()
    cache[key] = value
