"""The pure-Python engine: the same results as the Cython engine ``_scan``.

Whole values are scanned here; each member is read by the grammar of
``_member`` (README "The rules in short"; RFC 9110 §12.5.1). Members are split
on commas outside quoted strings; a member that breaks a rule is skipped
(lenient) or raises ``AcceptError`` (strict). Two fast paths read the values
real clients send with regular expressions that backtrack at most once over
each character; anything else takes the exact path, member by member.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final, TypeVar

from ._arguments import ByArguments
from ._errors import NEGOTIATOR_SET_UP_ONCE, AcceptError, reason, too_long
from ._grammar import CORS_MAX_LENGTH
from ._interface import document
from ._limits import (
    DEFAULT_CACHE_SIZE,
    DEFAULT_MAX_LENGTH,
    checked_cache_size,
    kept_negotiator,
    store,
)
from ._match import OfferSet, best_index, rank
from ._member import (
    TOKEN_RE,
    OfferSpec,
    RangeTuple,
    member_end,
    parse_offers,
    scan_member,
    weight,
)
from ._text import HeaderText, HeaderValue, as_header_text, coerce_value
from ._types import Accept, MediaRange, SkippedMember

_D = TypeVar("_D")

#: The members real clients send: ``type/subtype`` and token-valued parameters
#: (the weight among them). Anything else takes the exact path, ``scan_member``.
#: Each part is a single character class followed by a fixed delimiter, so a
#: failed match backtracks at most once over each character.
_COMMON_PARAMS: Final = rf"(?:[ \t]*;[ \t]*{TOKEN_RE}={TOKEN_RE})*"
#: One common member, OWS around it.
_COMMON_MEMBER: Final = re.compile(
    rf"[ \t]*{TOKEN_RE}/{TOKEN_RE}{_COMMON_PARAMS}[ \t]*"
)
#: A value made of common members only (empty members and OWS allowed).
_COMMON_VALUE: Final = re.compile(
    rf"[ \t,]*(?:{TOKEN_RE}/{TOKEN_RE}{_COMMON_PARAMS}[ \t]*(?:,[ \t,]*|\Z))*"
)
#: The longest value ``common_ranges`` and the longest member
#: ``matchable_ranges`` read, in characters; longer ones (longer than real
#: clients send) take the exact path. A regular expression's repeated group
#: keeps a backtracking stack that grows with each repetition, so on a 1 MiB
#: value the patterns cost more per byte than on a short one; the exact path
#: stays linear, and stops reading a member at its first violation.
_FAST_VALUE_MAX: Final = 4096
_FAST_MEMBER_MAX: Final = 256
_SEPARATORS: Final = re.compile(r"[ \t,]*")
_CORS_UNSAFE: Final = re.compile('[\x00-\x08\x0a-\x1f"():<>?@\\[\\\\\\]{}\x7f]')

_ABSENT: Final = Accept(present=False)
_new_range: Final = tuple.__new__


def _common_range(essence: str, params_text: str, strict: bool) -> RangeTuple | None:
    """The range of a member of a ``_COMMON_VALUE``, or None for the exact path.

    ``essence`` is its ``type/subtype``, lower-case; ``params_text`` is what
    follows the first ``;``. None as soon as the member breaks a rule the
    pattern does not check (``*/x``, a bad or repeated weight, a repeated
    name): ``scan_member`` then reports it, reading no further than the
    violation.
    """
    type_, _, subtype = essence.partition("/")
    if type_ == "*" and subtype != "*":
        return None
    if not params_text:
        return (type_, subtype, (), 1000)
    found_weight = -1
    params = []
    names = set()
    for item in params_text.split(";"):
        name, _, value = item.strip(" \t").partition("=")
        name = name.lower()
        if name != "q":
            if name in names:
                return None
            names.add(name)
            params.append((name, value))
        elif found_weight >= 0:
            return None
        else:
            found_weight = weight(value, strict)
            if found_weight < 0:
                return None
    return (type_, subtype, tuple(params), 1000 if found_weight < 0 else found_weight)


def common_ranges(text: str, strict: bool) -> list[RangeTuple] | None:
    """The ranges of a value of common members only, or None for the exact path.

    ``_COMMON_VALUE`` validates the whole value first, so its members hold only
    tokens and split on ``,`` and ``;`` like plain text.
    """
    if len(text) > _FAST_VALUE_MAX or not _COMMON_VALUE.fullmatch(text):
        return None
    fold = text != text.lower()  # tokens are compared lower-case
    ranges: list[RangeTuple] = []
    for member in text.split(","):
        member = member.strip(" \t")
        if not member:
            continue
        essence, _, params_text = member.partition(";")
        essence = essence.rstrip(" \t")
        rng = _common_range(essence.lower() if fold else essence, params_text, strict)
        if rng is None:
            return None
        ranges.append(rng)
    return ranges


def matchable_ranges(text: str, offers: OfferSet) -> list[RangeTuple] | None:
    """The valid ranges that can match an offer, or None for the exact path.

    With no quoted string in the value, members split on commas exactly as the
    exact path splits them. A member whose ``type/subtype`` no offer can match
    changes nothing whether valid or not, so only the others are validated and
    read. Anything else (a bare ``*``, a member that is not common) goes to the
    exact path.
    """
    if '"' in text:
        return None
    wanted = offers.by_essence
    ranges: list[RangeTuple] = []
    for member in text.split(","):
        essence, _, params_text = member.partition(";")
        essence = essence.strip(" \t").lower()
        if essence not in wanted:
            if "/" in essence or not essence:
                continue  # empty, or a type/subtype (valid or not) no offer has
            return None
        if len(member) > _FAST_MEMBER_MAX or not _COMMON_MEMBER.fullmatch(member):
            return None
        rng = _common_range(essence, params_text, False)
        if rng is None:
            return None
        ranges.append(rng)
    return ranges


#: A raw skipped member: (start, end, error position, error code).
RawSkip = tuple[int, int, int, int]


def scan(text: str, strict: bool) -> tuple[list[RangeTuple], list[RawSkip]]:
    """Scan a whole value; in strict mode the first violation is the only skip.

    A value of common members only is read by ``common_ranges``; any other
    value member by member with ``scan_member``: a member stops being read at
    its first violation, and the scan goes on at its end (``member_end``).
    """
    ranges = common_ranges(text, strict)
    if ranges is not None:
        return ranges, []
    ranges = []
    skipped: list[RawSkip] = []
    n = len(text)
    i = 0
    while True:
        i = _SEPARATORS.match(text, i).end()  # type: ignore[union-attr]
        if i >= n:
            return ranges, skipped
        code, pos, found, _ = scan_member(text, i, strict)
        if code:
            end = member_end(text, i)
            skipped.append((i, end, pos, code))
            if strict:
                return ranges, skipped
            i = end
        else:
            ranges.append(found)  # type: ignore[arg-type]
            i = pos


def _text(value: object, max_length: int | None) -> tuple[str | bytes, str, str]:
    """(coerced value, original text, scanned text), the length limit applied."""
    if type(value) is str and value.isascii():  # the common case, first
        if max_length is not None and len(value) > max_length:
            raise too_long(value, len(value), max_length)
        return value, value, value
    coerced = coerce_value(value)
    original, text = as_header_text(coerced)
    if max_length is not None and len(text) > max_length:
        raise too_long(coerced, len(text), max_length)
    return coerced, original, text


def parse(
    value: HeaderValue,
    *,
    strict: bool = False,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> Accept:
    if value is None:
        return _ABSENT
    coerced, original, text = _text(value, max_length)
    found, raw = scan(text, strict)
    if strict and raw:
        code, pos = raw[0][3], raw[0][2]
        raise AcceptError(reason(code, original, pos), coerced, pos)
    ranges: list[MediaRange] = [_new_range(MediaRange, rng) for rng in found]
    skipped = [
        SkippedMember(
            start,
            end,
            original[start:end].rstrip(" \t"),
            pos,
            reason(code, original, pos),
        )
        for start, end, pos, code in raw
    ]
    safe = len(text) <= CORS_MAX_LENGTH and _CORS_UNSAFE.search(text) is None
    return Accept(ranges, skipped=skipped, cors_safelisted=safe)


def _ranges(
    value: object, max_length: int | None, offers: OfferSet
) -> list[RangeTuple] | None:
    """The valid ranges of a value that can match ``offers`` (lenient mode).

    ``None``: the header is absent. Ranges no offer can match may be left out.
    """
    if value is None:
        return None
    text = _text(value, max_length)[2]
    ranges = matchable_ranges(text, offers)
    return scan(text, False)[0] if ranges is None else ranges


def is_cors_safelisted(value: HeaderText) -> bool:
    text = as_header_text(coerce_value(value))[1]
    return len(text) <= CORS_MAX_LENGTH and _CORS_UNSAFE.search(text) is None


class Negotiator(ByArguments):
    """Offers parsed once; the best of them for each request's Accept value.

    ``choose``, ``choose_index`` and ``rank`` per request; the answers for the
    last ``cache_size`` distinct values (of at most 1,024 characters) are
    cached. ``max_length`` as for ``parse``. The hot-path entry point.
    """

    __slots__ = ("_cache", "_cache_size", "_max_length", "_offers", "_parsed")

    def __init__(
        self,
        offers: Iterable[OfferSpec],
        *,
        cache_size: int = DEFAULT_CACHE_SIZE,
        max_length: int | None = DEFAULT_MAX_LENGTH,
    ) -> None:
        if hasattr(self, "_offers"):
            raise TypeError(NEGOTIATOR_SET_UP_ONCE)
        self._cache_size = checked_cache_size(cache_size)
        self._offers: tuple[OfferSpec, ...] = tuple(offers)
        self._parsed = OfferSet(parse_offers(self._offers))
        self._cache: dict[str | bytes, int] = {}
        self._max_length = max_length

    @property
    def offers(self) -> tuple[OfferSpec, ...]:
        """The offers, in server order, as given."""
        return self._offers

    @property
    def media_types(self) -> tuple[str, ...]:
        """The offers' media types, in server order (a pair gives its first)."""
        return self._parsed.values

    @property
    def _caches(self) -> list[dict[str | bytes, int]]:
        """Every value cache: one (without the GIL the Cython engine keeps one
        per group of threads)."""
        return [self._cache]

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self._offers,), {
            "cache_size": self._cache_size,
            "max_length": self._max_length,
        }

    def choose_index(self, value: HeaderValue) -> int:
        if type(value) is str or type(value) is bytes:
            index = self._cache.get(value)
            if index is None:
                index = best_index(
                    _ranges(value, self._max_length, self._parsed), self._parsed
                )
                store(self._cache, self._cache_size, value, index)
            return index
        return best_index(_ranges(value, self._max_length, self._parsed), self._parsed)

    def choose(self, value: HeaderValue, default: Any = None) -> Any:
        index = self.choose_index(value)
        return default if index < 0 else self._parsed.values[index]

    def rank(self, value: HeaderValue) -> list[tuple[str, float]]:
        ranked = rank(_ranges(value, self._max_length, self._parsed), self._parsed)
        return [(self._parsed.values[i], score / 1_000_000) for i, score in ranked]


#: ``negotiate``/``quality``: the Negotiator of each recent (offers, max_length).
#: Threads share it, and each Negotiator's value cache, safely without the GIL
#: too: every read and write is one dict operation, which CPython makes atomic,
#: and a stored value never changes (racing stores may leave a dict a few
#: entries over its size until its next clear).
_kept: dict[tuple[tuple[OfferSpec, ...], int | None], Negotiator] = {}


def negotiate(
    value: HeaderValue,
    offers: Iterable[OfferSpec],
    *,
    default: Any = None,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> Any:
    items = offers if type(offers) is tuple else tuple(offers)
    index = kept_negotiator(_kept, Negotiator, items, max_length).choose_index(value)
    if index < 0:
        return default
    offer = items[index]  # this call's own object, not the kept Negotiator's
    return offer[0] if type(offer) is tuple else offer


def quality(
    value: HeaderValue, media_type: str, *, max_length: int | None = DEFAULT_MAX_LENGTH
) -> float:
    ranked = kept_negotiator(_kept, Negotiator, (media_type,), max_length).rank(value)
    return ranked[0][1] if ranked else 0.0


# The docstrings of the public functions and methods: written once, for both
# engines, in _interface.DOCS.
document((parse, is_cors_safelisted, negotiate, quality), Negotiator)
