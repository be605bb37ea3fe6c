"""Limits, defaults and the cache policy: written once, read by both engines.

docs/rules.md rule 8: a value longer than ``max_length`` (default
``DEFAULT_MAX_LENGTH`` characters) is refused with ``AcceptError`` so a server
can answer 4xx (RFC 9110 §5.4); ``None`` lifts the limit. ``max_length`` and
``cache_size`` are checked by one rule for both engines (docs/bad-input.md,
"Bad arguments"), where they are given.
"""

from __future__ import annotations

import sys
from _thread import _local
from collections.abc import Callable, Hashable
from operator import attrgetter, index, is_

from ._errors import shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Protocol, TypeVar

#: The ``max_length`` every entry point takes by default, in characters: more
#: than real clients send, about the 8 KB Apache and nginx allow one header
#: field by default. A longer value raises ``AcceptError`` (a server answers
#: 431, RFC 6585 §5); ``max_length=None`` lifts the limit, for trusted values.
DEFAULT_MAX_LENGTH: Final = 8192
#: The ``cache_size`` every negotiator (``Negotiator``, ``EncodingNegotiator``,
#: ``LanguageNegotiator``, ``Produces``, ``Renderers``) takes by default: it
#: remembers its answers for up to 256 distinct values (emptied when full:
#: ``store``), of at most 1,024 characters (``CACHE_KEY_MAX_LENGTH``);
#: ``cache_size=0`` remembers none.
DEFAULT_CACHE_SIZE: Final = 256
#: Values longer than this are never stored, so a cache's memory is bounded by
#: ``cache_size * CACHE_KEY_MAX_LENGTH`` characters whatever the clients send
#: (per live thread where each thread has its own: ``ThreadCache``).
CACHE_KEY_MAX_LENGTH: Final = 1024
#: Whether a negotiator caches values given as ``bytes`` (it always caches a
#: ``str``): not where Python warns of comparing bytes with str (``python
#: -b``; ``-bb`` raises ``BytesWarning``). A str and bytes of the same text
#: hash alike, so a cache holding both compares them.
BYTES_CACHED: Final = not sys.flags.bytes_warning
#: The longest prefix of an offered language tag that its ``TagSet`` keeps
#: (``known``, and its relations once worked out; tags in use are shorter):
#: a longer one is found by reading the tags, each time, so a tag's set-up
#: is linear in its length (every prefix of a 40 KB tag kept took 90 MB).
LANGUAGE_PREFIX_KEPT: Final = 256
#: The one-call forms (``negotiate``, ``quality``, ``negotiate_encoding``,
#: ``negotiate_language``) and a parsed value's kept offers: how many
#: distinct offer lists keep a negotiator.
NEGOTIATORS_KEPT: Final = 64
#: ``negotiate``/``quality`` and the list headers' one-call forms: how many
#: header values each kept negotiator of the pure engine remembers.
VALUES_KEPT: Final = 64
#: The same for the compiled engine: none. A header value arrives as a new
#: object with each request, so a look-up hashes it whole and a miss adds the
#: store: measured, that pays in the pure engine, not in the compiled one
#: (benchmarks/README.md, "The value cache"). A ``Negotiator`` made by the
#: caller keeps its ``cache_size`` values on both engines.
COMPILED_VALUES_KEPT: Final = 0
#: Whether threads may run at once: a free-threaded CPython (3.13t and
#: later) whose GIL was not forced on at start-up (``PYTHON_GIL=1``, ``-X
#: gil=1``; ``sys.flags.gil`` is 1 on every other build). A negotiator then
#: keeps a value cache per thread (``ThreadCache``). Not the GIL's state at
#: import: CPython turns the GIL on for a moment while an extension module
#: of any thread initialises, and a module that needs it later turns it on
#: for good; per-thread state is right, if not needed, with the GIL.
THREADS_AT_ONCE: Final = getattr(sys.flags, "gil", 1) != 1

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

    Both engines check it here, where it is given: a negotiator whenever it
    is made; parsing and the look-up of a kept negotiator skip the call for
    the default object.
    """
    if max_length is None:
        return None
    return _checked_size(max_length, "max_length", "an int or None")


def checked_cache_size(cache_size: object) -> int:
    """``cache_size`` as given to a negotiator: an int from 0 (no cache) to
    ``sys.maxsize``; errors as for ``checked_max_length``, naming ``cache_size``."""
    return _checked_size(cache_size, "cache_size", "an int")


def checked_flag(flag: object, name: str) -> bool:
    """``flag`` as given for the option ``name``: True or False only (docs/
    bad-input.md, "Bad arguments"): an int or any other object is a
    ``TypeError``, never read for its truth."""
    if type(flag) is not bool:
        raise TypeError(f"{name} must be True or False, not {type(flag).__name__}")
    return flag


def _checked_size(number: object, name: str, kind: str) -> int:
    """``number`` as an int from 0 to ``sys.maxsize``, else an error naming it."""
    if isinstance(number, bool) or not hasattr(type(number), "__index__"):
        raise TypeError(f"{name} must be {kind}, not {type(number).__name__}")
    size = index(number)  # type: ignore[arg-type]
    if not 0 <= size <= sys.maxsize:
        raise ValueError(
            f"{name} must be from 0 to {sys.maxsize} (sys.maxsize), not {shown(size)}"
        )
    return size


def store(cache: dict[_K, _V], size: int, key: _K, value: _V) -> _V:
    """Remember ``key -> value`` in a cache of at most ``size`` entries, and
    give the value the cache holds for ``key``: ``value``, or what a racing
    thread stored first (``setdefault``, one atomic dict operation), so that
    racing first uses share one object.

    The cache policy, both engines': a full cache is emptied before the new
    entry goes in (O(1) per store, no bookkeeping on the hit path, and a
    working set smaller than ``size`` is back after one miss each); a key
    longer than ``CACHE_KEY_MAX_LENGTH`` is not stored (``len``: a value's
    characters; a tuple key's caller bounds its items itself, as
    ``Consumes`` does its type's).
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
    kept: dict[tuple[tuple[_O, ...], int | None], tuple[list[type], _N]],
    make: Callable[..., _N],
    offers: tuple[_O, ...],
    max_length: int | None,
    values_kept: int = VALUES_KEPT,
) -> _N:
    """The negotiator a one-call form keeps for these offers in ``kept``.

    Made by ``make`` on first use, remembering ``values_kept`` values (the
    engine's: ``VALUES_KEPT`` or ``COMPILED_VALUES_KEPT``); at most
    ``NEGOTIATORS_KEPT`` offer lists are kept, by the policy of ``store``.
    ``max_length`` is checked first (``checked_max_length``), so a kept key
    never matches a bool or a float that equals an int; and equal offers find
    it only with their pairs' qs of the same types (``qs_types``).
    """
    if max_length is not DEFAULT_MAX_LENGTH:
        max_length = checked_max_length(max_length)
    key = (offers, max_length)
    try:
        found = kept.get(key)
        unkept = False
    except (TypeError, BytesWarning):  # an unhashable offer, or bytes under -bb
        unkept = True  # compared with a kept str
    if unkept:  # the Negotiator says what is wrong, its error alone (no context)
        return make(offers, cache_size=0, max_length=max_length)
    if found is not None and not found[0]:  # no pairs: equal offers are these
        return found[1]
    types = qs_types(offers)
    if found is not None and types == found[0]:
        return found[1]
    made = make(offers, cache_size=values_kept, max_length=max_length)
    if found is None:
        return store(kept, NEGOTIATORS_KEPT, key, (types, made))[1]
    kept[key] = (types, made)  # the same offers, their qs of other types
    return made


def qs_types(offers: tuple[object, ...]) -> list[type]:
    """The types of the qs of the pairs ``(media type, qs)`` among ``offers``.

    Offers equal to a kept negotiator's are its offers only when these are
    the same too: a qs ``True`` equals 1 and ``1+0j`` equals 1, but a pair
    refuses both (docs/bad-input.md), while a str, or an ``Offer`` (checked
    when made), equals only a valid offer of its own kind. A tuple that is
    no pair is left to the negotiator's check, which refuses it.
    """
    return [
        type(offer[1]) for offer in offers if type(offer) is tuple and len(offer) == 2
    ]


#: A key of a table that every thread reads with ``dict.get``, made once:
#: where threads run at once, CPython 3.13's ``get`` finding an equal string
#: that no thread but its maker has counted waits on the dict's lock, which
#: it holds itself, so the key is interned (``sys.intern``:
#: immortal there) and compared without a lock (docs/free-threading.md);
#: with the GIL it is kept as it is. Only strings the server gives or a
#: bounded set of spellings: never a client's text as such.
shared_key: Final[Callable[[str], str]] = sys.intern if THREADS_AT_ONCE else str


class ThreadCache(_local):
    """``cache``: the calling thread's own value cache, made by ``make`` (a
    ``dict``, or the compiled engine's dict type), where threads run at once
    (``THREADS_AT_ONCE``; ``_local`` calls ``__init__`` once in each thread,
    and the cache goes with the thread): docs/free-threading.md says why.
    """

    def __init__(self, make: Callable[[], dict[str | bytes, int]] = dict) -> None:
        self.cache = make()


class OneCache:
    """A pure-engine negotiator's value cache with the GIL: one dict, filled
    by the policy of ``store``; ``_new_caches`` makes it as the negotiator is
    made."""

    __slots__ = ("_cache",)

    def _new_caches(self) -> None:
        self._cache: dict[str | bytes, int] = {}


class ThreadCaches:
    """A pure-engine negotiator's value caches without the GIL: one per
    thread (``ThreadCache``), each filled by the policy of ``store``;
    ``_new_caches`` makes the holder as the negotiator is made."""

    __slots__ = ("_thread_cache",)

    def _new_caches(self) -> None:
        self._thread_cache = ThreadCache()

    #: The calling thread's value cache: read by C code (``attrgetter``),
    #: which costs less than a Python function per call.
    _cache = property(attrgetter("_thread_cache.cache"))


class Kept:
    """Where a one-call form of the pure engine keeps its negotiators:
    ``negotiators``, one dict for all threads (with the GIL), and ``last``,
    the (offers, max_length, negotiator, the offers' hash, None where they
    hold a pair) of its last call (``last_negotiator``)."""

    __slots__ = ("last", "negotiators")

    def __init__(self) -> None:
        self.negotiators: dict[Any, Any] = {}
        # No max_length is a new object.
        self.last: tuple[Any, Any, Any, int | None] = (None, object(), None, None)


class _KeptPerThread(_local):
    """``Kept`` without the GIL: ``negotiators`` is the calling thread's own
    dict, made at its first call and freed with it, as the Cython engine keeps
    them (keys and negotiators another thread made would send every hit down
    the dict's slow path, as ``shared_key`` says)."""

    __init__ = Kept.__init__


def last_negotiator(
    kept: Kept, make: Callable[..., _N], offers: tuple[_O, ...], max_length: int | None
) -> _N:
    """``kept_negotiator`` in ``kept.negotiators``, but the last call's
    negotiator without a look-up when the offers are the same: a server
    passes the same offers every time (the Cython engine's one-call forms
    keep their last one too).

    The offers are compared as a dict key is (of the same hash, then equal:
    a ``str`` subclass equal to another spelling is not the same offers,
    and one whose ``==`` raises is not called by another's call)
    where the last ones hold no pair (``qs_types``), else item by item by
    identity, as the Cython engine compares them (which also leaves a qs's
    ``==`` uncalled: a signalling NaN's raises); ``max_length`` must be the
    very object the last call gave, whose check passed.
    """
    last = kept.last
    if max_length is last[1]:
        if last[3] is None:
            same = len(offers) == len(last[0]) and all(map(is_, offers, last[0]))
        else:
            try:
                same = offers is last[0] or (
                    hash(offers) == last[3] and offers == last[0]
                )
            except (TypeError, BytesWarning):  # a signalling NaN qs; -bb's bytes
                same = False
        if same:
            found: _N = last[2]
            return found
    found = kept_negotiator(kept.negotiators, make, offers, max_length)
    try:
        key_hash = None if tuple in map(type, offers) else hash(offers)
    except TypeError:  # an unhashable offer: compared by identity, as pairs are
        key_hash = None
    kept.last = (offers, max_length, found, key_hash)
    return found


#: The pure engine's value caches and one-call registries, by
#: ``THREADS_AT_ONCE``. (mypy takes a base class from plain assignments only,
#: and checks both.)
if TYPE_CHECKING or not THREADS_AT_ONCE:
    ValueCaches = OneCache
    KeptNegotiators = Kept
else:
    ValueCaches = ThreadCaches
    KeptNegotiators = _KeptPerThread
