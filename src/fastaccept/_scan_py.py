"""The pure-Python engine: the same results as the Cython engine ``_scan``.

Whole values are scanned here, member by member (``scan``): an Accept member
is read by ``_member`` (docs/rules.md; RFC 9110 §12.5.1), an Accept-Encoding
or Accept-Language member by ``_coding`` or ``_language`` (§12.5.3-4). A
member that breaks a rule is skipped (lenient) or raises ``AcceptError``
(strict). A list value of common members only is read in one match first
(``common_items``); negotiating, only the Accept members that can reach an
offer are read (``Negotiator._matches``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from functools import partial

from ._arguments import ByArguments
from ._errors import ACCEPT, AcceptError, reason, too_long
from ._grammar import (
    CORS_MAX_LENGTH,
    CORS_UNSAFE,
    LIST_SEPARATORS,
    OWS_CHARS,
    POSSESSIVE,
)
from ._limits import (
    BYTES_CACHED,
    DEFAULT_CACHE_SIZE,
    DEFAULT_MAX_LENGTH,
    KeptNegotiators,
    ValueCaches,
    checked_cache_size,
    checked_flag,
    checked_max_length,
    last_negotiator,
    store,
)
from ._lists import ListHeader
from ._match import Match, OfferSet, best_match, rank, scores
from ._member import (
    QVALUES,
    WEIGHT_ONLY,
    Item,
    OfferSpec,
    exact_weight,
    member_end,
    offer_value,
    offers_tuple,
    parse_offers,
    scan_member,
    scan_parameters,
)
from ._text import HeaderValue, as_header_text, coerce_value, header_length
from ._types import (
    ENCODING,
    LANGUAGE,
    Accept,
    AcceptEncoding,
    AcceptLanguage,
    MediaRange,
    Unexplained,
    media_type_negotiator,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Final, TypeVar, overload

    from typing_extensions import Self

    _D = TypeVar("_D")
    #: An offer's own type, a str's subclass (a str enum) given back as itself.
    _T = TypeVar("_T", bound=str)
    #: Reads the member at an index: (error code, position, member, ...).
    MemberReader = Callable[[str, int, bool], tuple[Any, ...]]

#: The longest value ``common_items`` reads, in characters: any with
#: possessive quantifiers; without them 4,096, and a longer value takes the
#: exact path, which stays linear (``_grammar.POSSESSIVE`` says why).
_FAST_VALUE_MAX: Final = sys.maxsize if POSSESSIVE else 4096
_SEPARATORS: Final = re.compile(LIST_SEPARATORS)
#: Any CORS-unsafe byte (Fetch), written from ``_grammar``'s one table of them.
_CORS_UNSAFE: Final = re.compile(CORS_UNSAFE)

_ABSENT: Final = Accept(present=False)
_new_range: Final = tuple.__new__


#: A raw skipped member: (start, end, error position, error code).
RawSkip = tuple[int, int, int, int]


def scan(
    text: str, strict: bool, read: MemberReader = scan_member
) -> tuple[list[Any], list[RawSkip]]:
    """Scan a whole value member by member with ``read`` (``scan_member`` for
    Accept, a list header's ``scan_member``): a member stops being read at
    its first violation, and the scan goes on at its end (``member_end``).
    In strict mode the first violation is the only skip.
    """
    found: list[Any] = []
    skipped: list[RawSkip] = []
    n = len(text)
    i = 0
    while True:
        i = _SEPARATORS.match(text, i).end()  # type: ignore[union-attr]
        if i >= n:
            return found, skipped
        result = read(text, i, strict)  # (error code, position, member, ...)
        if result[0]:
            end = member_end(text, i)
            skipped.append((i, end, result[1], result[0]))
            if strict:
                return found, skipped
            i = end
        else:
            found.append(result[2])
            i = result[1]


def _text(
    value: object, max_length: int | None, field: str = ACCEPT
) -> tuple[str | bytes, str, str]:
    """(coerced value, original text, scanned text), the length limit applied."""
    if type(value) is str and value.isascii():  # the common case, first
        if max_length is not None and len(value) > max_length:
            raise too_long(value, len(value), max_length, field)
        return value, value, value
    coerced = coerce_value(value, field)
    length = header_length(coerced)
    if max_length is not None and length > max_length:
        raise too_long(coerced, length, max_length, field)
    original, text = as_header_text(coerced)
    return coerced, original, text


def _checked_skips(
    raw: list[RawSkip], coerced: str | bytes, original: str, strict: bool, field: str
) -> Unexplained | tuple[()]:
    """The skipped members of a lenient scan (their texts and reasons written
    when read: ``Unexplained``); in strict mode the first violation raises
    ``AcceptError`` naming ``field``."""
    if not raw:
        return ()
    if strict:
        code, pos = raw[0][3], raw[0][2]
        raise AcceptError(reason(code, original, pos), coerced, pos, field)
    return Unexplained(coerced, [number for skip in raw for number in skip])


def parse(
    value: HeaderValue,
    *,
    strict: bool = False,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> Accept:
    """Parse an Accept value into an ``Accept`` (RFC 9110 §12.5.1).

    ``value`` is str, bytes, bytearray or memoryview (bytes read as Latin-1), or
    None for an absent header (``Accept.present`` is then False). Lenient mode
    (the default) skips each member that breaks a rule and lists it in
    ``Accept.skipped``; ``strict=True`` raises ``AcceptError`` at the first
    violation, with its position. A value longer than ``max_length`` characters
    raises ``AcceptError`` in both modes; ``max_length=None`` lifts the limit.
    """
    checked_flag(strict, "strict")
    if max_length is not DEFAULT_MAX_LENGTH:
        max_length = checked_max_length(max_length)
    if value is None:
        return _ABSENT
    coerced, original, text = _text(value, max_length)
    found, raw = scan(text, strict)
    skipped = _checked_skips(raw, coerced, original, strict, ACCEPT)
    ranges: list[MediaRange] = [_new_range(MediaRange, rng) for rng in found]
    made = Accept._made(ranges, skipped)
    made._cors_safelisted = _safelisted(text)
    return made


def is_cors_safelisted(value: HeaderValue) -> bool:
    """Whether an ``accept`` value is CORS-safelisted.

    WHATWG Fetch, "CORS-safelisted request-header": at most 128 bytes and no
    CORS-unsafe request-header byte (no byte below 0x20 but tab, none of
    ``"():<>?@[\\]{}``, no 0x7F). The comma is allowed. ``None`` (header
    absent): True, as ``Accept.cors_safelisted`` says.
    """
    if value is None:
        return True
    coerced = coerce_value(value)
    return _safelisted(coerced)


def _safelisted(value: str | bytes) -> bool:
    """A header value at most 128 bytes long (``header_length``), with no
    CORS-unsafe byte and no character above U+00FF (WHATWG Fetch;
    ``_grammar.CORS_UNSAFE``): a longer one is not read."""
    if header_length(value) > CORS_MAX_LENGTH:
        return False
    text = value if isinstance(value, str) else as_header_text(value)[0]
    return _CORS_UNSAFE.search(text) is None


class _CachedOffers(ByArguments, ValueCaches):
    """What every negotiator class shares, as in the Cython engine: the offers
    as given and parsed, the limits, the value caches (``_limits``),
    ``choose`` and ``variant_key``. Each class's ``__new__`` makes it whole;
    nothing changes it after, so threads share it without a lock."""

    __slots__ = (
        "_cache_size",
        "_limit",
        "_max_length",
        "_offers",
        "_parsed",
        "_values",
    )
    if TYPE_CHECKING:  # not at run time: typing.get_type_hints reads them
        _offers: tuple[Any, ...]
        _parsed: Any
        _values: tuple[str, ...]  # what choose returns, by offer index
        _cache_size: int
        _max_length: int | None
        _limit: int  # max_length as an int

    def __init__(self, /, *args: object, **kwargs: object) -> None:
        """Nothing: ``__new__`` made the negotiator whole. A subclass's
        ``__init__`` may call it with the arguments it was made with."""

    @classmethod
    def _made(
        cls,
        offers: tuple[Any, ...],
        parsed: Any,
        cache_size: object,
        max_length: object,
    ) -> Self:
        """A negotiator of ``offers`` (as given) and ``parsed`` (their parsed
        set), with the limits checked here (``_limits``' rule), before it is
        made: none is made of arguments that are refused."""
        size, limit = checked_cache_size(cache_size), checked_max_length(max_length)
        made = object.__new__(cls)
        made._offers = offers
        made._parsed = parsed
        made._values = parsed.values
        made._cache_size = size
        made._max_length = limit
        made._limit = sys.maxsize if limit is None else limit
        made._new_caches()
        return made

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self._offers,), {
            "cache_size": self._cache_size,
            "max_length": self._max_length,
        }

    if TYPE_CHECKING:

        def choose_index(self, /, value: HeaderValue) -> int: ...

        #: The class's own ``choose_index``, which ``choose`` and
        #: ``variant_key`` call: a subclass's ``choose_index`` changes
        #: neither, as in the compiled engine (docs/api.md).
        _index = choose_index

    if TYPE_CHECKING:

        @overload
        def choose(self, /, value: HeaderValue) -> str | None: ...
        @overload
        def choose(self, /, value: HeaderValue, default: _D) -> str | _D: ...

    def choose(self, /, value: HeaderValue, default: object = None) -> object:
        """The best acceptable offer for ``value``, else ``default``.

        The very object given (a media type given as a pair or an ``Offer``:
        that media type), by the rules of the header's one-call function
        (``negotiate``, ``negotiate_encoding``, ``negotiate_language``); the
        answers for recent values come from the cache.
        """
        index = self._index(value)
        return default if index < 0 else self._values[index]

    def variant_key(self, /, value: HeaderValue) -> str:
        """The chosen variant, as a cache key: ``choose(value) or ""``.

        The chosen offer's media type (a pair's first), coding or tag; ``""``
        when no offer is acceptable; it raises where ``choose`` raises. Key a
        shared response cache by it, never by the raw value: any number of
        values choose the same offer, and a cache keyed by each one is one a
        client flushes by varying it. ``Vary`` still names the header.
        """
        index = self._index(value)
        return "" if index < 0 else self._values[index]


class Negotiator(_CachedOffers):
    """Offers parsed once; the best of them for each request's Accept value.

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse``. The hot-path
    entry point.
    """

    __slots__ = ()
    _offers: tuple[OfferSpec, ...]
    _parsed: OfferSet

    # -> Self: a subclass's own __new__ calling this one gets its own type
    # ("-> Negotiator" would type a subclass's call as Negotiator: the typing
    # spec's rule, pyright's); its annotation is dropped at run time below.
    def __new__(
        cls,
        offers: Iterable[OfferSpec],
        *,
        cache_size: int = DEFAULT_CACHE_SIZE,
        max_length: int | None = DEFAULT_MAX_LENGTH,
    ) -> Self:
        items = offers_tuple(offers, "offers")
        parsed = OfferSet(parse_offers(items))
        return cls._made(items, parsed, cache_size, max_length)

    @property
    def offers(self) -> tuple[OfferSpec, ...]:
        """The offers, in server order, as given."""
        return self._offers

    @property
    def media_types(self) -> tuple[str, ...]:
        """The offers' media types, in server order (a pair gives its first)."""
        return self._parsed.values

    def _matches(self, value: object) -> list[Match] | None:
        """The valid ranges of ``value`` that can match an offer, each with
        its essence (lenient; ``OfferSet.matches``); None: the header is
        absent. Which member is read how: docs/development.md, "One place
        per rule". A ``type/subtype`` an offer has is valid as it stands,
        OWS around it: the text is Latin-1, where no character outside ASCII
        lowers to one in it.
        """
        if value is None:
            return None
        if type(value) is str and value.isascii() and len(value) <= self._limit:
            text = value  # what _text gives, without its call
        else:
            text = _text(value, self._max_length)[2]
        parsed = self._parsed
        if '"' in text:
            return parsed.matches(scan(text, False)[0])
        essences, spelled = parsed.by_essence, parsed.spelled
        matches: list[Match] = []
        for member in text.split(","):
            head, semicolon, params = member.partition(";")
            essence = essences.get(head.strip(OWS_CHARS).lower())
            if essence is None:
                if "/" in head or not head.strip(OWS_CHARS):
                    continue  # empty, or a type/subtype (valid or not) no offer has
                # a bare "*" (or no valid type): the exact reader
                found = scan_member(member.lstrip(OWS_CHARS), 0, False)[2]
                if found is not None:
                    matches += parsed.matches([found])
            elif not semicolon:
                matches.append((essence, (), 1000))
            elif (weight := WEIGHT_ONLY.get(params)) is not None:
                matches.append((essence, (), weight))
            elif (pairs := spelled.get(params)) is not None:
                matches.append((essence, pairs, 1000))
            elif (pairs := spelled.get((cut := params.rpartition(";"))[0])) and (
                weight := WEIGHT_ONLY.get(cut[2])
            ) is not None:
                matches.append((essence, pairs, weight))
            elif (
                (first := params.partition(";")[0].strip(OWS_CHARS)).islower()
                and first not in parsed.by_param
                and not first.startswith(("q=", "charset="))
            ):
                continue  # its first parameter, read as written, is no offer's
            else:
                found = scan_parameters(
                    member, len(head), False, True, essence[0], essence[1]
                )[2]
                if found is not None:
                    matches.append((essence, found[2], found[3]))
        return matches

    def choose_index(self, /, value: HeaderValue) -> int:
        """The index in ``offers`` of the best offer for ``value``.

        -1 when no offer is acceptable.
        """
        if type(value) is str or (type(value) is bytes and BYTES_CACHED):
            index = self._cache.get(value)
            if index is None:
                index = best_match(self._matches(value), self._parsed)
                store(self._cache, self._cache_size, value, index)
            return index
        return best_match(self._matches(value), self._parsed)

    _index = choose_index

    def rank(self, /, value: HeaderValue) -> list[tuple[str, float]]:
        """The acceptable offers' media types with their score, best first.

        The score is the client's q, times qs for a weighted offer; the order is the
        one ``choose`` uses. A score of 0 is left out; ``None`` (header absent)
        gives every offer but an explicit one at its qs (1.0 when unweighted).
        """
        return rank(self._matches(value), self._parsed, self._parsed.values)

    def _refusal(self, value: HeaderValue) -> tuple[list[int], Sequence[int]]:
        """For a refusal (docs/rules.md rule 16): each offer's weight in
        thousandths for ``value``, -1 where no range matches it (rule 10),
        and where the members that lenient reading skipped start (every
        member read as ``parse`` reads it)."""
        accepted = parse(value, max_length=self._max_length)
        weights, decided = scores(self._parsed.matches(accepted), self._parsed)
        found = [
            weight if by >= 0 else -1
            for weight, by in zip(weights, decided, strict=True)
        ]
        return found, accepted._skipped_starts()


#: ``negotiate``: the Negotiator of each recent (offers, max_length).
#: With the GIL threads share it: every read and write is one dict operation
#: or one attribute (``last``, a tuple replaced whole), which CPython makes
#: atomic. Without it each thread keeps its own (docs/free-threading.md).
_kept: Final = KeptNegotiators()


if TYPE_CHECKING:

    @overload
    def negotiate(
        value: HeaderValue,
        offers: Iterable[_T | tuple[_T, float]],
        *,
        max_length: int | None = ...,
    ) -> _T | None: ...
    @overload
    def negotiate(
        value: HeaderValue, offers: Iterable[OfferSpec], *, max_length: int | None = ...
    ) -> str | None: ...
    @overload
    def negotiate(
        value: HeaderValue,
        offers: Iterable[_T | tuple[_T, float]],
        *,
        default: _T,
        max_length: int | None = ...,
    ) -> _T: ...
    @overload
    def negotiate(
        value: HeaderValue,
        offers: Iterable[_T],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> _T | _D: ...
    @overload
    def negotiate(
        value: HeaderValue,
        offers: Iterable[_T | tuple[_T, float]],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> _T | _D: ...
    @overload
    def negotiate(
        value: HeaderValue,
        offers: Iterable[OfferSpec],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> str | _D: ...


def negotiate(
    value: HeaderValue,
    offers: Iterable[OfferSpec],
    *,
    default: object = None,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> object:
    """The best acceptable offer for an Accept value, else ``default``.

    ``offers`` are concrete media types in server order, each alone, as a
    ``(media type, qs)`` pair with the server's weight qs from 0 to 1 (docs/rules.md
    rule 15), or as an ``Offer`` (an explicit one is reached only by a range
    naming it: rule 21); the media type returned is the very object given. The highest
    score (the client's q, times qs) wins, then the offer matched by the more
    specific range, then the earlier offer (RFC 9110 §12.5.1; docs/rules.md rules
    10-12). ``None`` (header absent) accepts every offer at q=1: the highest qs,
    then the first. A present value that accepts none gives ``default`` (answer
    406, or send a default representation); qs=0 is never chosen. A wildcard or
    malformed offer raises ``ValueError``. Each distinct offers list is parsed
    once (docs/api.md, "The value cache": which engine also keeps values).
    """
    if type(offers) is list:  # the common cases without offers_tuple's checks
        items = tuple(offers)
    elif type(offers) is tuple:
        items = offers
    else:
        items = offers_tuple(offers, "offers")
    negotiator = last_negotiator(_kept, Negotiator, items, max_length)
    index = negotiator.choose_index(value)
    if index < 0:
        return default
    offer = items[index]  # this call's own object, not the kept Negotiator's
    return offer if type(offer) is str else offer_value(offer)


def quality(
    value: HeaderValue, media_type: str, *, max_length: int | None = DEFAULT_MAX_LENGTH
) -> float:
    """The weight an Accept value gives one concrete media type: 0.0 to 1.0.

    The q of the most specific range that matches it (docs/rules.md rule 10); 0.0 when
    none matches or that range has q=0; 1.0 when the header is absent (None).
    """
    negotiator = last_negotiator(
        _kept_media_types, _media_type_negotiator, (media_type,), max_length
    )
    ranked = negotiator.rank(value)
    return ranked[0][1] if ranked else 0.0


#: ``quality``: the Negotiator of each recent (media type, max_length), made
#: by ``_types.media_type_negotiator``; shared by threads as ``_kept`` is.
_kept_media_types: Final = KeptNegotiators()
_media_type_negotiator: Final = partial(media_type_negotiator, Negotiator)


# --- list headers: Accept-Encoding, Accept-Language (RFC 9110 §12.5.3-4) ------

#: Each description's common-value pattern, compiled once, by header name.
_FAST: Final = {
    header.field: re.compile(header.fast) for header in (ENCODING, LANGUAGE)
}
if TYPE_CHECKING:
    _Values = TypeVar("_Values", AcceptEncoding, AcceptLanguage)


def common_items(text: str, header: ListHeader) -> list[Item] | None:
    """The members of a value of common members only, or None for the exact path
    (``scan``).

    ``header.fast`` (``_grammar``) validates the whole value first, so its
    members hold only a name, OWS and ``;q=`` with a qvalue-shaped weight:
    without OWS they split on ``,`` and ``;q=`` like plain text. None as
    soon as a weight breaks the qvalue grammar (``exact_weight``).
    """
    if len(text) > _FAST_VALUE_MAX or _FAST[header.field].fullmatch(text) is None:
        return None
    text = text.lower().replace(" ", "")
    if "\t" in text:
        text = text.replace("\t", "")
    items: list[Item] = []
    for member in text.split(","):
        if ";" not in member:  # no weight, or empty
            if member:
                items.append((member, 1000))
            continue
        name, _, q = member.partition(";q=")
        found = QVALUES.get(q, -1)
        if found < 0 and (found := exact_weight(q)) < 0:
            return None
        items.append((name, found))
    return items


def _parse_list(
    kind: type[_Values], value: HeaderValue, strict: bool, max_length: int | None
) -> _Values:
    """``parse_encoding``/``parse_language`` by the description of ``kind``."""
    checked_flag(strict, "strict")
    if max_length is not DEFAULT_MAX_LENGTH:
        max_length = checked_max_length(max_length)
    if value is None:
        return kind(present=False)
    header = kind._header
    coerced, original, text = _text(value, max_length, header.field)
    found = common_items(text, header)
    skipped: Unexplained | tuple[()] = ()
    if found is None:
        found, raw = scan(text, strict, header.scan_member)
        skipped = _checked_skips(raw, coerced, original, strict, header.field)
    return kind._made([_new_range(header.member, item) for item in found], skipped)


def parse_encoding(
    value: HeaderValue,
    *,
    strict: bool = False,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> AcceptEncoding:
    """Parse an Accept-Encoding value into an ``AcceptEncoding`` (RFC 9110 §12.5.3).

    Each member is ``coding[;q=w]``: a content coding, ``identity`` or ``*``
    (a token, compared case-insensitively), then OWS, and an optional weight
    with the qvalue grammar (RFC 9110 §12.4.2); no other parameter.
    ``value`` is str, bytes, bytearray or memoryview (bytes read as Latin-1), or
    None for an absent header (``.present`` is then False). Lenient mode (the
    default) skips each member that breaks a rule and lists it in ``.skipped``;
    ``strict=True`` raises ``AcceptError`` at the first violation, with its
    position. A value longer than ``max_length`` characters raises
    ``AcceptError`` in both modes; ``max_length=None`` lifts the limit.
    """
    return _parse_list(AcceptEncoding, value, strict, max_length)


def parse_language(
    value: HeaderValue,
    *,
    strict: bool = False,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> AcceptLanguage:
    """Parse an Accept-Language value into an ``AcceptLanguage`` (RFC 9110 §12.5.4).

    Each member is ``range[;q=w]``: ``*``, or a basic language range (RFC 4647
    §2.1: 1 to 8 letters, then ``-`` and 1 to 8 letters or digits, again and
    again; compared case-insensitively), then OWS, and an optional weight with
    the qvalue grammar (RFC 9110 §12.4.2); no other parameter.
    ``value`` is str, bytes, bytearray or memoryview (bytes read as Latin-1), or
    None for an absent header (``.present`` is then False). Lenient mode (the
    default) skips each member that breaks a rule and lists it in ``.skipped``;
    ``strict=True`` raises ``AcceptError`` at the first violation, with its
    position. A value longer than ``max_length`` characters raises
    ``AcceptError`` in both modes; ``max_length=None`` lifts the limit.
    """
    return _parse_list(AcceptLanguage, value, strict, max_length)


class _ListNegotiator(_CachedOffers):
    """A list header's negotiator (``EncodingNegotiator``,
    ``LanguageNegotiator``): offers validated once by the description
    ``_header``, a bounded cache of recent values (``_limits.store``)."""

    __slots__ = ()
    if TYPE_CHECKING:  # as _CachedOffers'
        _offers: tuple[str, ...]
        _header: ClassVar[ListHeader]

    def _items(self, value: HeaderValue) -> list[Item] | None:
        """The valid members of ``value`` (lenient); None: absent."""
        if value is None:
            return None
        header = self._header
        text = _text(value, self._max_length, header.field)[2]
        items = common_items(text, header)
        return scan(text, False, header.scan_member)[0] if items is None else items

    def choose_index(self, /, value: HeaderValue) -> int:
        """The index of the best offer for ``value``, -1 when none is acceptable."""
        if type(value) is str or (type(value) is bytes and BYTES_CACHED):
            index = self._cache.get(value)
            if index is None:
                header = self._header
                if type(value) is str and len(value) <= self._limit:
                    # What _items does, without its two calls: common_items
                    # reads a str as it is (its pattern takes ASCII alone,
                    # which _text leaves as it is).
                    items = common_items(value, header)
                    if items is None:
                        text = _text(value, self._max_length, header.field)[2]
                        items = scan(text, False, header.scan_member)[0]
                else:
                    items = self._items(value)
                index = header.best(items, self._parsed)
                store(self._cache, self._cache_size, value, index)
            return index
        return self._header.best(self._items(value), self._parsed)

    _index = choose_index

    def rank(self, /, value: HeaderValue) -> list[tuple[str, float]]:
        """The acceptable offers with their weight, best first.

        The order is the one ``choose`` uses; a weight of 0 is left out.
        ``None`` (header absent) gives every offer at 1.0, in the order an
        absent header prefers (``identity`` first for Accept-Encoding).
        """
        ranked = self._header.rank(self._items(value), self._parsed)
        return [(self._offers[index], weight / 1000) for index, weight in ranked]


class EncodingNegotiator(_ListNegotiator):
    """Codings validated once; the best of them for each request's
    Accept-Encoding value (RFC 9110 §12.5.3).

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse_encoding``.
    """

    __slots__ = ()
    _header = ENCODING

    def __new__(  # as Negotiator's
        cls,
        codings: Iterable[str],
        *,
        cache_size: int = DEFAULT_CACHE_SIZE,
        max_length: int | None = DEFAULT_MAX_LENGTH,
    ) -> Self:
        parsed = cls._header.offers(codings)
        return cls._made(parsed.values, parsed, cache_size, max_length)

    @property
    def codings(self) -> tuple[str, ...]:
        """The codings, in server order, as given."""
        return self._offers


class LanguageNegotiator(_ListNegotiator):
    """Language tags validated once; the best of them for each request's
    Accept-Language value (RFC 9110 §12.5.4, RFC 4647).

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse_language``.
    """

    __slots__ = ()
    _header = LANGUAGE

    def __new__(  # as Negotiator's
        cls,
        tags: Iterable[str],
        *,
        cache_size: int = DEFAULT_CACHE_SIZE,
        max_length: int | None = DEFAULT_MAX_LENGTH,
    ) -> Self:
        parsed = cls._header.offers(tags)
        return cls._made(parsed.values, parsed, cache_size, max_length)

    @property
    def tags(self) -> tuple[str, ...]:
        """The language tags, in server order, as given."""
        return self._offers


# Self, which only a checker imports (3.10's typing has none), is no name
# that typing.get_type_hints or inspect.signature(eval_str=True) could find
# at run time: there the negotiators' __new__ has no return annotation.
for _kind in (Negotiator, EncodingNegotiator, LanguageNegotiator):
    del _kind.__new__.__annotations__["return"]
del _kind

#: ``negotiate_encoding``/``negotiate_language``: the negotiator of each recent
#: (offers, max_length), by negotiator class, shared by threads as ``_kept`` is.
_kept_lists: Final[dict[type[Any], KeptNegotiators]] = {
    EncodingNegotiator: KeptNegotiators(),
    LanguageNegotiator: KeptNegotiators(),
}


def _negotiate_list(
    kind: type[_ListNegotiator],
    value: HeaderValue,
    offers: Iterable[str],
    default: Any,
    max_length: int | None,
) -> Any:
    """A list header's one-call form: the kept negotiator of ``kind`` chooses."""
    if type(offers) is list or type(offers) is tuple:  # no str: no checks
        items = tuple(offers)
    else:
        items = offers_tuple(offers, kind._header.noun)
    negotiator = last_negotiator(_kept_lists[kind], kind, items, max_length)
    index = negotiator.choose_index(value)
    return default if index < 0 else items[index]  # this call's own object


if TYPE_CHECKING:

    @overload
    def negotiate_encoding(
        value: HeaderValue, codings: Iterable[_T], *, max_length: int | None = ...
    ) -> _T | None: ...
    @overload
    def negotiate_encoding(
        value: HeaderValue,
        codings: Iterable[_T],
        *,
        default: _T,
        max_length: int | None = ...,
    ) -> _T: ...
    @overload
    def negotiate_encoding(
        value: HeaderValue,
        codings: Iterable[_T],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> _T | _D: ...


def negotiate_encoding(
    value: HeaderValue,
    codings: Iterable[str],
    *,
    default: object = None,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> object:
    """The best acceptable coding for an Accept-Encoding value, else ``default``.

    ``codings`` are content codings the server can apply (``gzip``, ``br``,
    ``zstd``...) or ``identity``, in server order; the one returned is the very
    object given. ``x-gzip`` is ``gzip`` and ``x-compress`` is ``compress``
    (RFC 9110 §8.4.1.3, §8.4.1.1), in the value and in ``codings``. A coding's
    weight is that of its own entry, else of the ``*`` entry (an entry listed
    twice: its higher q), else, for ``identity`` only, the lowest weight above
    0 in the value (1 if there is none); so ``identity;q=0``, or ``*;q=0`` without an
    ``identity`` entry, refuses identity (RFC 9110 §12.5.3). The highest weight
    wins, then a coding's own entry over ``*`` over identity's implicit weight,
    then the earlier coding (server order). ``None`` (header absent):
    ``identity`` if offered, else the first coding. A present value that is
    empty, or has no valid member, accepts ``identity`` only. When no coding is
    acceptable: ``default`` (answer 406, or send identity anyway). ``*`` or a
    coding that is not a token raises ``ValueError``. Each distinct codings
    list is validated once (docs/api.md, "The value cache": which engine also
    keeps values).
    """
    return _negotiate_list(EncodingNegotiator, value, codings, default, max_length)


if TYPE_CHECKING:

    @overload
    def negotiate_language(
        value: HeaderValue, tags: Iterable[_T], *, max_length: int | None = ...
    ) -> _T | None: ...
    @overload
    def negotiate_language(
        value: HeaderValue,
        tags: Iterable[_T],
        *,
        default: _T,
        max_length: int | None = ...,
    ) -> _T: ...
    @overload
    def negotiate_language(
        value: HeaderValue,
        tags: Iterable[_T],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> _T | _D: ...


def negotiate_language(
    value: HeaderValue,
    tags: Iterable[str],
    *,
    default: object = None,
    max_length: int | None = DEFAULT_MAX_LENGTH,
) -> object:
    """The best acceptable language tag for an Accept-Language value, else ``default``.

    ``tags`` are the languages the server has (``en``, ``fr-CA``,
    ``sr-Latn``...), in server order; the one returned is the very object given.
    Comparisons are case-insensitive. A range relates to a tag as, closest
    first: exact; filtering (RFC 4647 §3.3.1: a prefix of the tag ending at
    ``-``); for q > 0, lookup (§3.4: the tag is the range with subtags removed
    from its end, never leaving a single-character subtag last) or the same
    language (the same first subtag, unless it is of one character: ``x-``,
    ``i-``); ``*`` relates to what no other range
    does. A tag's deciding range shares the most leading subtags with it, then
    is the closer relation, then has the higher q; its q is the tag's weight,
    and q=0 refuses the tag. The highest weight wins, then a language range
    over ``*``, then the deciding range listed first (RFC 9110 §12.5.4), then
    the closer relation, then more shared subtags, then server order
    (docs/rules.md rule 19). So ``en-US,en;q=0.9`` gives ``en`` from ``[en-GB,
    en]``, ``fr-FR, en;q=0.3`` gives ``fr`` from ``[en, fr]``, but
    ``en-US, en;q=0.5, de;q=0.8`` gives ``de`` from ``[en, de]``. ``None``
    (header absent): the first tag. A present value that accepts none gives
    ``default``. ``*`` or a malformed tag raises ``ValueError``. Each distinct
    tags list is validated once (docs/api.md, "The value cache": which engine
    also keeps values).
    """
    return _negotiate_list(LanguageNegotiator, value, tags, default, max_length)
