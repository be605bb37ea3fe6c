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
    """Remember ``key -> value``, evicting the oldest entries to stay within ``size``.

    A key longer than ``CACHE_KEY_MAX_LENGTH`` is not stored.
    """
    if size <= 0 or (isinstance(key, Sized) and len(key) > CACHE_KEY_MAX_LENGTH):
        return
    while len(cache) >= size:
        try:
            del cache[next(iter(cache))]
        except (KeyError, RuntimeError, StopIteration):  # another thread got there
            break
    cache[key] = value
