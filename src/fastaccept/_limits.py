"""Limits, defaults and the cache policy: written once, read by both engines.

docs/rules.md rule 8: a value longer than ``max_length`` (default
``DEFAULT_MAX_LENGTH`` characters) is refused with ``AcceptError`` so a server
can answer 4xx (RFC 9110 §5.4); ``None`` lifts the limit. ``max_length`` and
``cache_size`` are checked by one rule for both engines (docs/bad-input.md,
"Bad arguments"), where they are given.
"""

from __future__ import annotations

import sys
from _thread import _local, allocate_lock
from collections.abc import Callable, Hashable
from itertools import count
from operator import attrgetter, index

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Protocol, TypeVar

#: The ``max_length`` every entry point takes by default, in characters: more
#: than real clients send, about the 8 KB Apache and nginx allow one header
#: field by default. A longer value raises ``AcceptError`` (a server answers
#: 431, RFC 6585 §5); ``max_length=None`` lifts the limit, for trusted values.
DEFAULT_MAX_LENGTH: Final = 8192
#: The ``cache_size`` every negotiator (``Negotiator``, ``EncodingNegotiator``,
#: ``LanguageNegotiator``, ``Produces``, ``Renderers``) takes by default: it
#: remembers its answers for the last 256 distinct values (of at most 1,024
#: characters, ``CACHE_KEY_MAX_LENGTH``); ``cache_size=0`` remembers none.
DEFAULT_CACHE_SIZE: Final = 256
#: Values longer than this are never stored, so a cache's memory is bounded by
#: ``cache_size * CACHE_KEY_MAX_LENGTH`` characters whatever the clients send.
CACHE_KEY_MAX_LENGTH: Final = 1024
#: ``negotiate``/``quality``: how many distinct offer lists keep a Negotiator.
NEGOTIATORS_KEPT: Final = 64
#: ``negotiate``/``quality``: how many header values each of those remembers.
VALUES_KEPT: Final = 64
#: Whether threads run at once: a free-threaded CPython (3.13t and later)
#: whose GIL was off when fastaccept was imported. The pure engine's
#: negotiators then keep their value caches per group of threads
#: (``GroupCaches``), as the Cython engine does on every free-threaded build.
THREADS_AT_ONCE: Final = not getattr(sys, "_is_gil_enabled", lambda: True)()
#: Without the GIL, the most value caches a negotiator keeps: one per group of
#: threads; threads take the groups in turn as each first asks, so up to this
#: many threads never share one. The Cython engine compiles the same number.
THREAD_GROUPS: Final = 16


if TYPE_CHECKING:

    class _Key(Hashable, Protocol):
        def __len__(self) -> int: ...

    _K = TypeVar("_K", bound=_Key)
    _V = TypeVar("_V")


def checked_max_length(max_length: object) -> int | None:
    """``max_length`` as given to an entry point: ``None`` (no limit), or an int
    from 0 to ``sys.maxsize`` (an object with ``__index__`` is read as its int);
    ``TypeError`` for a bool, a float or another type, ``ValueError`` out of
    that range, each naming ``max_length``.

    Both engines check it here, where it is given; the Cython engine skips the
    call for the default object.
    """
    if max_length is None:
        return None
    return _checked_size(max_length, "max_length", "an int or None")


def checked_cache_size(cache_size: object) -> int:
    """``cache_size`` as given to a negotiator: an int from 0 (no cache) to
    ``sys.maxsize``; errors as for ``checked_max_length``, naming ``cache_size``."""
    return _checked_size(cache_size, "cache_size", "an int")


def _checked_size(number: object, name: str, kind: str) -> int:
    """``number`` as an int from 0 to ``sys.maxsize``, else an error naming it."""
    if isinstance(number, bool) or not hasattr(type(number), "__index__"):
        raise TypeError(f"{name} must be {kind}, not {type(number).__name__}")
    size = index(number)  # type: ignore[arg-type]
    if not 0 <= size <= sys.maxsize:
        raise ValueError(
            f"{name} must be from 0 to {sys.maxsize} (sys.maxsize), not {size}"
        )
    return size


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
    ``max_length`` is checked first (``checked_max_length``), so a kept key
    never matches a bool or a float that equals an int.
    """
    if max_length is not DEFAULT_MAX_LENGTH:
        max_length = checked_max_length(max_length)
    key = (offers, max_length)
    try:
        found = kept.get(key)
    except TypeError:  # an unhashable offer: let the Negotiator say what is wrong
        return make(offers, cache_size=0, max_length=max_length)
    if found is None:
        made = make(offers, cache_size=VALUES_KEPT, max_length=max_length)
        found = store(kept, NEGOTIATORS_KEPT, key, made)
    return found


class _ThreadGroup(_local):
    """``index``: the calling thread's group, given in turn at its first ask
    (``_local`` calls ``__init__`` once in each thread)."""

    def __init__(self) -> None:
        with _GROUPS_LOCK:
            self.index: int = next(_groups_given) % THREAD_GROUPS


_groups_given = count()
#: Held while a thread takes its group, or makes its group's value cache.
_GROUPS_LOCK: Final = allocate_lock()
_thread_group: Final = _ThreadGroup()


class OneCache:
    """A negotiator's value cache with the GIL: one dict, filled by the
    policy of ``store``; ``_new_caches`` makes it as the negotiator is set up."""

    __slots__ = ("_cache",)

    def _new_caches(self) -> None:
        self._cache: dict[str | bytes, int] = {}

    @property
    def _caches(self) -> list[dict[str | bytes, int]]:
        """Every value cache: one."""
        return [self._cache]


class _GroupCache(_local):
    """``cache``: in each thread, the value cache of the thread's group among
    ``caches``, made by the first thread of the group that asks (``_local``
    calls ``__init__`` once in each thread, with the arguments it was made
    with)."""

    def __init__(self, caches: list[dict[str | bytes, int] | None]) -> None:
        group = _thread_group.index
        with _GROUPS_LOCK:
            cache = caches[group]
            if cache is None:
                cache = caches[group] = {}
        self.cache = cache


class GroupCaches:
    """A negotiator's value caches without the GIL: one per group of threads
    (``THREAD_GROUPS``), made on use, each filled by the policy of ``store``;
    ``_new_caches`` makes the empty list as the negotiator is set up.

    Why: on a free-threaded CPython 3.13, a cache hit with an equal but
    distinct str takes a reference to the cached key (dictobject.c), which
    from a thread other than the key's takes the dict's lock: one cache for
    all threads makes every hit wait. A thread's own keys in its own dict
    need no lock.
    """

    __slots__ = ("_caches_of", "_group_cache")

    def _new_caches(self) -> None:
        caches: list[dict[str | bytes, int] | None] = [None] * THREAD_GROUPS
        self._caches_of = caches
        self._group_cache = _GroupCache(caches)

    #: The value cache of the calling thread's group: read by C code
    #: (``attrgetter``), which costs less than a Python function per call.
    _cache = property(attrgetter("_group_cache.cache"))

    @property
    def _caches(self) -> list[dict[str | bytes, int]]:
        """Every value cache made so far."""
        return [cache for cache in self._caches_of if cache is not None]


#: The value caches of the pure engine's negotiators, by ``THREADS_AT_ONCE``.
#: (mypy takes a base class from plain assignments only, and checks both.)
if TYPE_CHECKING or not THREADS_AT_ONCE:  # noqa: SIM108
    ValueCaches = OneCache
else:
    ValueCaches = GroupCaches
