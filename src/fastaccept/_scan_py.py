"""The pure-Python engine: the same scanner and results as ``_scan.pyx``.

Grammar (RFC 9110 §12.5.1, §5.6.2, §5.6.4, §5.6.6)::

    Accept      = #( media-range )        ; empty members and OWS ignored
    media-range = ( "*/*" / type "/*" / type "/" subtype ) parameters
    parameters  = *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )

A parameter named ``q`` (any case, any position) is the weight. Members are
split on commas outside quoted strings; a member that breaks a rule is skipped
(lenient) or raises ``AcceptError`` (strict). Every loop is linear: tokens and
quoted strings are matched by single-class regular expressions that cannot
backtrack.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from . import _errors as E
from ._cache import CACHE_KEY_MAX_LENGTH
from ._errors import AcceptError, coerce_value, reason, too_long
from ._grammar import CORS_MAX_LENGTH, as_header_text, ascii_lower
from ._match import Offer, OfferSet, best_index, rank
from ._shortcuts import Shortcuts
from ._types import Accept, MediaRange, RangeTuple, SkippedMember

_TOKEN_RE: Final = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_TOKEN: Final = re.compile(_TOKEN_RE)
#: The members real clients send: ``type/subtype`` and token-valued parameters
#: (the weight among them). Anything else takes the exact path, ``scan_member``.
#: Each part is a single character class followed by a fixed delimiter, so a
#: failed match backtracks at most once over each character.
_COMMON_PARAMS: Final = rf"(?:[ \t]*;[ \t]*{_TOKEN_RE}={_TOKEN_RE})*"
#: One common member, OWS around it.
_COMMON_MEMBER: Final = re.compile(
    rf"[ \t]*{_TOKEN_RE}/{_TOKEN_RE}{_COMMON_PARAMS}[ \t]*"
)
#: A value made of common members only (empty members and OWS allowed).
_COMMON_VALUE: Final = re.compile(
    rf"[ \t,]*(?:{_TOKEN_RE}/{_TOKEN_RE}{_COMMON_PARAMS}[ \t]*(?:,[ \t,]*|\Z))*"
)

_OWS: Final = re.compile(r"[ \t]*")
_SEPARATORS: Final = re.compile(r"[ \t,]*")
#: The inside of a quoted string: runs of qdtext between quoted-pairs, the
#: unrolled form of ``*( qdtext / quoted-pair )`` (RFC 9110 §5.6.4): one
#: character class per run, no group repeated per character.
_QDTEXT: Final = r"[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]*"
_QUOTED_BODY: Final = re.compile(rf"{_QDTEXT}(?:\\[\t \x21-\x7e\x80-\xff]{_QDTEXT})*")
_QUOTED_PAIR: Final = re.compile(r"\\(.)", re.DOTALL)
_COMMA_OR_QUOTE: Final = re.compile(r'[,"]')
_QUOTE_OR_BACKSLASH: Final = re.compile(r'["\\]')
_CORS_UNSAFE: Final = re.compile('[\x00-\x08\x0a-\x1f"():<>?@\\[\\\\\\]{}\x7f]')

#: A parsed member: (error code, position, range, weighted). On success the code
#: is 0 and the position is where the member ends (a comma, or the end).
MemberResult = tuple[int, int, RangeTuple | None, bool]

_ABSENT: Final = Accept(present=False)
_new_range: Final = tuple.__new__


def _qvalue_spellings() -> dict[str, int]:
    """Every text the qvalue grammar admits, with its thousandths (RFC 9110 §12.4.2).

    ``( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )``: 1,117 spellings.
    """
    table = {"0": 0, "0.": 0, "1": 1000, "1.": 1000}
    for digits in (1, 2, 3):
        for value in range(10**digits):
            table[f"0.{value:0{digits}d}"] = value * 10 ** (3 - digits)
        table["1." + "0" * digits] = 1000
    return table


_QVALUES: Final = _qvalue_spellings()
#: The legacy ``.d``/``.dd``/``.ddd`` form (JDK HttpURLConnection), lenient only.
_SHORT_QVALUES: Final = {
    k[1:]: v for k, v in _QVALUES.items() if len(k) > 2 and k[0] == "0"
}


def _weight(value: str, strict: bool) -> int:
    """The qvalue in thousandths, or minus an error code (RFC 9110 §12.4.2)."""
    weight = _QVALUES.get(value)
    if weight is not None:
        return weight
    weight = _SHORT_QVALUES.get(value)
    if weight is None:
        return -E.BAD_WEIGHT
    return -E.SHORT_WEIGHT if strict else weight


def scan_member(text: str, start: int, strict: bool) -> MemberResult:
    """Parse the member that starts at ``start`` (not OWS, not a comma)."""
    n = len(text)
    m = _TOKEN.match(text, start)
    if m is None:
        return E.EXPECTED_TYPE, start, None, False
    j = m.end()
    type_ = text[start:j].lower()
    if j < n and text[j] == "/":
        m = _TOKEN.match(text, j + 1)
        if m is None:
            return E.EXPECTED_SUBTYPE, j + 1, None, False
        p = m.end()
        subtype = text[j + 1 : p].lower()
        if type_ == "*" and subtype != "*":
            return E.WILDCARD_TYPE, j + 1, None, False
    elif type_ == "*":  # legacy bare '*' (JDK HttpURLConnection)
        if strict:
            return E.BARE_WILDCARD, j, None, False
        subtype, p = "*", j
    else:
        return E.EXPECTED_SLASH, j, None, False

    params: list[tuple[str, str]] = []
    names: set[str] = set()
    weight = -1
    while True:
        if p < n and text[p] in " \t":
            p = _OWS.match(text, p).end()  # type: ignore[union-attr]
        if p >= n or text[p] == ",":
            break
        if text[p] != ";":
            return E.EXPECTED_SEPARATOR, p, None, False
        p += 1
        if p < n and text[p] in " \t":
            p = _OWS.match(text, p).end()  # type: ignore[union-attr]
        if p >= n or text[p] in ",;":
            continue  # an empty parameter
        m = _TOKEN.match(text, p)
        if m is None:
            return E.EXPECTED_PARAM_NAME, p, None, False
        t = m.end()
        if t >= n or text[t] != "=":
            return E.EXPECTED_EQUALS, t, None, False
        v = t + 1
        if v < n and text[v] == '"':
            e = _QUOTED_BODY.match(text, v + 1).end()  # type: ignore[union-attr]
            if e >= n or (text[e] == "\\" and e + 1 >= n):
                return E.UNTERMINATED_QUOTE, v, None, False
            if text[e] == "\\":
                return E.BAD_ESCAPE, e + 1, None, False
            if text[e] != '"':
                return E.BAD_QUOTED_CHAR, e, None, False
            value = text[v + 1 : e]
            if "\\" in value:
                value = _QUOTED_PAIR.sub(r"\1", value)
            quoted, after = True, e + 1
        else:
            m = _TOKEN.match(text, v)
            if m is None:
                return E.EXPECTED_VALUE, v, None, False
            after = m.end()
            value, quoted = text[v:after], False
        name = text[p:t].lower()
        if name == "q":
            if weight >= 0:
                return E.DUPLICATE_PARAM, p, None, False
            weight = -E.BAD_WEIGHT if quoted else _weight(value, strict)
            if weight < 0:
                return -weight, v, None, False
        else:
            if name in names:
                return E.DUPLICATE_PARAM, p, None, False
            names.add(name)
            params.append((name, value))
        p = after
    rng = (type_, subtype, tuple(params), 1000 if weight < 0 else weight)
    return 0, p, rng, weight >= 0


def _common_range(
    type_: str, subtype: str, params_text: str, strict: bool
) -> RangeTuple | None:
    """The range of a member of a ``_COMMON_VALUE``, or None for the exact path.

    ``params_text`` is what follows the first ``;``. None when the member breaks
    a rule the pattern does not check (``*/x``, a bad or repeated weight, a
    repeated name): ``scan_member`` then reports it.
    """
    if type_ == "*" and subtype != "*":
        return None
    if not params_text:
        return (type_, subtype, (), 1000)
    weight = -1
    params = []
    for item in params_text.split(";"):
        name, _, value = item.strip(" \t").partition("=")
        name = name.lower()
        if name != "q":
            params.append((name, value))
        elif weight >= 0:
            return None
        else:
            weight = _weight(value, strict)
            if weight < 0:
                return None
    if len(params) > 1 and len({name for name, _ in params}) < len(params):
        return None
    return (type_, subtype, tuple(params), 1000 if weight < 0 else weight)


def common_ranges(text: str, strict: bool) -> list[RangeTuple] | None:
    """The ranges of a value of common members only, or None for the exact path.

    ``_COMMON_VALUE`` validates the whole value first, so its members hold only
    tokens and split on ``,`` and ``;`` like plain text.
    """
    if not _COMMON_VALUE.fullmatch(text):
        return None
    fold = text != text.lower()  # tokens are compared lower-case
    ranges: list[RangeTuple] = []
    for member in text.split(","):
        member = member.strip(" \t")
        if not member:
            continue
        essence, _, params_text = member.partition(";")
        essence = essence.rstrip(" \t")
        if fold:
            essence = essence.lower()
        type_, _, subtype = essence.partition("/")
        rng = _common_range(type_, subtype, params_text, strict)
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
        if not _COMMON_MEMBER.fullmatch(member):
            return None
        type_, _, subtype = essence.partition("/")
        rng = _common_range(type_, subtype, params_text, False)
        if rng is None:
            return None
        ranges.append(rng)
    return ranges


def member_end(text: str, start: int) -> int:
    """Where the member at ``start`` ends: the next comma outside quotes, or the end.

    Every ``"`` opens a quoted string, in which ``\\`` escapes the next character
    (RFC 9110 §5.6.4), so a skipped member never swallows part of the next.
    """
    n = len(text)
    i = start
    in_quote = False
    while True:
        m = (_QUOTE_OR_BACKSLASH if in_quote else _COMMA_OR_QUOTE).search(text, i)
        if m is None:
            return n
        i = m.start()
        char = text[i]
        if char == ",":
            return i
        if char == '"':
            in_quote = not in_quote
            i += 1
        else:  # a backslash inside a quoted string
            i += 2


#: A raw skipped member: (start, end, error position, error code).
RawSkip = tuple[int, int, int, int]


def scan(text: str, strict: bool) -> tuple[list[RangeTuple], list[RawSkip]]:
    """Scan a whole value; in strict mode the first violation is the only skip.

    A value of common members only is read by ``common_ranges``; any other
    value member by member with ``scan_member``.
    """
    ranges = common_ranges(text, strict)
    if ranges is not None:
        return ranges, []
    return _scan_exact(text, 0, strict, [])


def _scan_exact(
    text: str, i: int, strict: bool, ranges: list[RangeTuple]
) -> tuple[list[RangeTuple], list[RawSkip]]:
    """Scan from ``i`` member by member with ``scan_member``."""
    skipped: list[RawSkip] = []
    n = len(text)
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
    value: str | bytes | bytearray | memoryview | None,
    *,
    strict: bool = False,
    max_length: int | None = 8192,
) -> Accept:
    """Parse an Accept value (RFC 9110 §12.5.1). See ``fastaccept.parse``."""
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


def parse_single(item: object, what: str) -> tuple[MediaRange, bool]:
    """One media range and whether it carried a weight; ``ValueError`` otherwise."""
    if not isinstance(item, str):
        raise TypeError(f"each {what} must be a str, not {type(item).__name__}")
    text = as_header_text(item)[1]
    start = _OWS.match(text).end()  # type: ignore[union-attr]
    code, pos, rng, weighted = scan_member(text, start, True)
    if code:
        raise ValueError(
            f"invalid {what} {item!r} at position {pos}: {reason(code, item, pos)}"
        )
    if pos < len(text):
        raise ValueError(
            f"invalid {what} {item!r}: found ',' at position {pos}; give one "
            "media type per item"
        )
    assert rng is not None
    return _new_range(MediaRange, rng), weighted


def parse_offer(offer: object) -> Offer:
    """Validate and pre-parse one offer: a concrete ``type/subtype[;params]``.

    Raises ``ValueError`` for a wildcard, a weight, a list, or bad syntax
    (DESIGN rule 13), ``TypeError`` for a non-str.
    """
    rng, weighted = parse_single(offer, "offer")
    if rng.type == "*" or rng.subtype == "*":
        raise ValueError(
            f"invalid offer {offer!r}: offers must be concrete media types "
            "(type/subtype), not ranges with '*'"
        )
    if weighted:
        raise ValueError(
            f"invalid offer {offer!r}: an offer takes no weight ('q' parameter)"
        )
    params = {
        name: ascii_lower(value) if name == "charset" else value
        for name, value in rng.params
    }
    return Offer(offer, rng.type, rng.subtype, params)  # type: ignore[arg-type]


def parse_offers(offers: Iterable[str]) -> list[Offer]:
    """``parse_offer`` for each offer, in order."""
    return [parse_offer(offer) for offer in offers]


def is_cors_safelisted(value: str | bytes | bytearray | memoryview) -> bool:
    """Fetch: at most 128 bytes and no CORS-unsafe request-header byte."""
    text = as_header_text(coerce_value(value))[1]
    return len(text) <= CORS_MAX_LENGTH and _CORS_UNSAFE.search(text) is None


class Negotiator:
    """Offers parsed once; ``choose``/``rank`` per request, with a bounded cache.

    See ``fastaccept.Negotiator`` for the documented behaviour.
    """

    __slots__ = ("_cache", "_cache_size", "_max_length", "_offers", "_parsed")

    def __init__(
        self,
        offers: Iterable[str],
        *,
        cache_size: int = 256,
        max_length: int | None = 8192,
    ) -> None:
        if cache_size < 0:
            raise ValueError("cache_size must be 0 or more")
        self._offers: tuple[str, ...] = tuple(offers)
        self._parsed = OfferSet(parse_offers(self._offers))
        self._cache: dict[str | bytes, int] = {}
        self._cache_size = cache_size
        self._max_length = max_length

    @property
    def offers(self) -> tuple[str, ...]:
        """The offers, in server order, as given."""
        return self._offers

    def choose_index(self, value: str | bytes | bytearray | memoryview | None) -> int:
        """The index of the best offer for ``value``, or -1 when none is acceptable."""
        if type(value) is str or type(value) is bytes:
            cache = self._cache
            index = cache.get(value)
            if index is None:
                index = best_index(
                    _ranges(value, self._max_length, self._parsed), self._parsed
                )
                if len(value) <= CACHE_KEY_MAX_LENGTH and self._cache_size:
                    if len(cache) >= self._cache_size:  # the policy of _cache.store
                        cache.clear()
                    cache[value] = index
            return index
        return best_index(_ranges(value, self._max_length, self._parsed), self._parsed)

    def choose(
        self,
        value: str | bytes | bytearray | memoryview | None,
        default: str | None = None,
    ) -> str | None:
        """The best acceptable offer (the very object given), else ``default``."""
        index = self.choose_index(value)
        return default if index < 0 else self._offers[index]

    def rank(
        self, value: str | bytes | bytearray | memoryview | None
    ) -> list[tuple[str, float]]:
        """Acceptable offers with their q, best first; q=0 offers left out."""
        ranked = rank(_ranges(value, self._max_length, self._parsed), self._parsed)
        return [(self._offers[i], w / 1000) for i, w in ranked]


_shortcuts = Shortcuts(Negotiator)
negotiate = _shortcuts.negotiate
quality = _shortcuts.quality
