"""The grammar of one media range, and the offers it is matched against.

RFC 9110 §12.5.1, §5.6.2, §5.6.4, §5.6.6::

    media-range = ( "*/*" / type "/*" / type "/" subtype ) parameters
    parameters  = *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )

and the structured-syntax suffix range ``type "/*+" suffix`` (RFC 6838
§4.2.8; docs/rules.md rule 22).

A parameter named ``q`` (any case, any position) is the weight (RFC 9110
§12.4.2). This module is the reference reading of one member: the pure-Python
engine scans members with it, and both engines parse offers with it. Every
loop is linear: tokens and quoted strings are matched by single-class patterns
(``_grammar``) that cannot backtrack.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping

from . import _errors as E
from ._arguments import ByArguments
from ._errors import reason, shown
from ._grammar import (
    COMMA_OR_QUOTE,
    MEDIA_RANGE,
    OWS,
    OWS_CHARS,
    PARAMETER,
    QUOTE_OR_BACKSLASH,
    QUOTED_BODY,
    QVALUE,
    TCHARS,
    TOKEN,
    pattern,
)
from ._limits import checked_flag, shared_key
from ._text import HeaderText, as_header_text, ascii_lower
from ._tuples import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeAlias, TypeVar

#: A media range as the engines build it: (type, subtype, params, weight), the
#: weight in thousandths. ``MediaRange`` is a named tuple of this shape.
RangeTuple: TypeAlias = tuple[str, str, tuple[tuple[str, str], ...], int]

#: A parsed member: (error code, position, range, weighted). On success the code
#: is 0 and the position is where the member ends (a comma, or the end).
MemberResult: TypeAlias = tuple[int, int, RangeTuple | None, bool]

_TOKEN: Final = pattern(TOKEN, globals())
_MEDIA_RANGE: Final = pattern(MEDIA_RANGE, globals())
_PARAMETER: Final = pattern(PARAMETER, globals())
_OWS: Final = pattern(OWS, globals())
_QUOTED_BODY: Final = pattern(QUOTED_BODY, globals())
_COMMA_OR_QUOTE: Final = pattern(COMMA_OR_QUOTE, globals())
_QUOTE_OR_BACKSLASH: Final = pattern(QUOTE_OR_BACKSLASH, globals())
_QVALUE: Final = pattern(QVALUE, globals())

#: Each qvalue spelling met so far, with its thousandths, and the same for
#: the legacy ``.d``/``.dd``/``.ddd`` form: a dict look-up
#: per weight, and bounded, since only valid spellings are kept (1,117 and
#: 1,110 of them), so their keys may be ``shared_key``s. The pure engine's
#: list fast path reads ``QVALUES`` first.
QVALUES: dict[str, int] = {}
_SHORT_QVALUES: dict[str, int] = {}
#: ``QVALUES`` as the parameters of a member whose one parameter is its
#: weight, spelled as clients send it (``q=0.9``): the pure engine's
#: negotiation reads such parameters with one look-up.
WEIGHT_ONLY: dict[str, int] = {}


def _thousandths(text: str) -> int:
    """The qvalue ``text`` in thousandths, or -1 if the grammar does not admit it."""
    found = _QVALUE.fullmatch(text)
    if found is None:
        return -1
    return 1000 if text[0] == "1" else int((found.group(1) or "").ljust(3, "0"))


def weight(value: str, strict: bool) -> int:
    """The qvalue in thousandths, or minus an error code (RFC 9110 §12.4.2)."""
    found = exact_weight(value)
    if found >= 0 or value[:1] != "." or len(value) == 1:
        return found
    short = _SHORT_QVALUES.get(value)
    if short is None:
        short = _thousandths("0" + value)
        if short < 0:
            return -E.BAD_WEIGHT
        _SHORT_QVALUES[shared_key(value)] = short
    return -E.SHORT_WEIGHT if strict else short


def exact_weight(value: str) -> int:
    """The qvalue in thousandths, or ``-BAD_WEIGHT``: the grammar alone, no
    legacy form (RFC 9110 §12.4.2; Accept-Encoding, Accept-Language)."""
    found = QVALUES.get(value)
    if found is None:
        found = _thousandths(value)
        if found < 0:
            return -E.BAD_WEIGHT
        QVALUES[shared_key(value)] = WEIGHT_ONLY[shared_key("q=" + value)] = found
    return found


#: (error code, position, weight): on success the code is 0, the position is
#: where the member ends (a comma, or the end) and the weight is in thousandths.
WeightResult: TypeAlias = tuple[int, int, int]
#: A list header's member as the engines build it: (name, weight), the name
#: lower-case as sent, the weight in thousandths (``Coding``, ``LanguageRange``).
Item: TypeAlias = tuple[str, int]
#: A parsed list member: (error code, position, member), as ``WeightResult``.
ItemResult: TypeAlias = tuple[int, int, Item | None]


def scan_weight(text: str, p: int, end_code: int) -> WeightResult:
    """The optional weight after a coding or language range ending at ``p``.

    RFC 9110 §12.5.3-4, §12.4.2: ``[ OWS ";" OWS "q=" qvalue ] OWS``, then a
    comma or the end; ``q`` in any case, no other parameter, no whitespace
    around ``=``, the qvalue grammar exactly (no legacy ``.5``). ``end_code``
    is the error for a wrong character right after the name; the first
    violation ends the member.
    """
    n = len(text)
    if p < n and text[p] in OWS_CHARS:
        p = _OWS.match(text, p).end()  # type: ignore[union-attr]
    if p >= n or text[p] == ",":
        return 0, p, 1000
    if text[p] != ";":
        return end_code, p, 0
    p += 1
    if p < n and text[p] in OWS_CHARS:
        p = _OWS.match(text, p).end()  # type: ignore[union-attr]
    if p >= n or text[p] not in "qQ" or (p + 1 < n and text[p + 1] in TCHARS):
        return E.EXPECTED_WEIGHT, p, 0
    v = p + 2
    if p + 1 >= n or text[p + 1] != "=":
        return E.EXPECTED_EQUALS, p + 1, 0
    if v < n and text[v] == '"':
        return E.BAD_WEIGHT, v, 0  # a quoted weight
    m = _TOKEN.match(text, v)
    if m is None:
        return E.EXPECTED_QVALUE, v, 0
    p = m.end()
    found = exact_weight(text[v:p])
    if found < 0:
        return -found, v, 0
    if p < n and text[p] in OWS_CHARS:
        p = _OWS.match(text, p).end()  # type: ignore[union-attr]
    if p < n and text[p] != ",":
        return E.EXPECTED_COMMA, p, 0
    return 0, p, found


def scan_member(
    text: str, start: int, strict: bool, weighted: bool = True
) -> MemberResult:
    """Parse the member that starts at ``start`` (not OWS, not a comma).

    The type and subtype in one match (``MEDIA_RANGE``), then the parameters
    (``scan_parameters``). A subtype ``*+suffix`` makes a structured-syntax
    suffix range (docs/rules.md rule 22; RFC 6838 §4.2.8): its type is not
    ``*`` and its suffix is not empty; no other subtype begins with ``+`` or
    ``*`` (RFC 6838 §4.2; rule 2: ``text/*html`` would be a pattern to one
    reader and a name to another). The first violation ends the member: its
    code and position are returned at once, and nothing after it is read.
    ``weighted=False`` reads ``q`` as an ordinary parameter (a Content-Type,
    RFC 9110 §8.3, has no weight).
    """
    m = _MEDIA_RANGE.match(text, start)
    if m is None:
        return E.EXPECTED_TYPE, start, None, False
    type_, subtype = m.groups()
    type_ = type_.lower()
    if subtype is not None:
        subtype = subtype.lower()
        if type_ == "*" or subtype[0] in "*+":  # a wildcard, or refused
            if subtype.startswith("*+"):  # a suffix range (rule 22)
                if type_ == "*":
                    return E.SUFFIX_WILDCARD_TYPE, m.start(2) + 1, None, False
                if len(subtype) == 2:
                    return E.EMPTY_SUFFIX, m.end(2), None, False
            elif type_ == "*" and subtype != "*":
                return E.WILDCARD_TYPE, m.start(2), None, False
            elif subtype != "*":  # '+x', or '*x': no wildcard, no literal either
                return E.SUBTYPE_START, m.start(2), None, False
    elif text.startswith("/", m.end(1)):
        return E.EXPECTED_SUBTYPE, m.end(1) + 1, None, False
    elif type_ != "*":
        return E.EXPECTED_SLASH, m.end(1), None, False
    elif strict:  # legacy bare '*' (JDK HttpURLConnection)
        return E.BARE_WILDCARD, m.end(1), None, False
    else:
        subtype = "*"
    return scan_parameters(text, m.end(), strict, weighted, type_, subtype)


def unescaped(body: str) -> str:
    """A ``QUOTED_BODY`` without the backslash of each quoted-pair (RFC 9110
    §5.6.4): every backslash escapes the character after it, so the escaped
    backslashes are the ``\\\\`` found left to right, and any other
    backslash goes."""
    return "\\".join(part.replace("\\", "") for part in body.split("\\\\"))


def scan_parameters(
    text: str, p: int, strict: bool, weighted: bool, type_: str, subtype: str
) -> MemberResult:
    """``scan_member`` from ``p``, after the range ``type_/subtype`` and its
    OWS: the parameters, each in one match (``PARAMETER``), then a comma or
    the end."""
    n = len(text)
    params: dict[str, str] = {}
    found_weight = -1
    while p < n and text[p] == ";":
        m = _PARAMETER.match(text, p)
        if m is None:
            return (*parameter_violation(text, p, weighted), None, False)
        p = m.end()
        name, value, quoted, after = m.groups()
        if name is not None:
            name = name.lower()
            if name != "q" or not weighted:
                if name in params:
                    return E.DUPLICATE_PARAM, m.start(1), None, False
                if value is None:
                    value = unescaped(quoted) if "\\" in quoted else quoted
                params[name] = value
            elif found_weight >= 0:
                return E.DUPLICATE_PARAM, m.start(1), None, False
            elif value is None:  # a quoted weight
                return E.BAD_WEIGHT, m.start(3) - 1, None, False
            else:
                found_weight = QVALUES.get(value, -1)
                if found_weight < 0 and (found_weight := weight(value, strict)) < 0:
                    return -found_weight, m.start(2), None, False
        if after is None:
            continue
        if not weighted:  # "q" is a parameter like any other
            if "q" in params:
                return E.DUPLICATE_PARAM, m.start(4) - 2, None, False
            params["q"] = after
        elif found_weight >= 0:
            return E.DUPLICATE_PARAM, m.start(4) - 2, None, False
        else:
            found_weight = QVALUES.get(after, -1)
            if found_weight < 0 and (found_weight := weight(after, strict)) < 0:
                return -found_weight, m.start(4), None, False
    if p < n and text[p] != ",":
        return E.EXPECTED_SEPARATOR, p, None, False
    pairs = tuple(params.items()) if params else ()
    rng = (type_, subtype, pairs, 1000 if found_weight < 0 else found_weight)
    return 0, p, rng, found_weight >= 0


def parameter_violation(text: str, p: int, weighted: bool) -> tuple[int, int]:
    """(error code, position) of the parameter at ``p`` (a ``;``) that
    ``PARAMETER`` does not match: the first character that breaks it. A
    ``q=`` without a token after it is a missing weight where ``weighted``
    (rule 4: a weight is never a quoted string), else a missing value."""
    n = len(text)
    p = _OWS.match(text, p + 1).end()  # type: ignore[union-attr]
    m = _TOKEN.match(text, p)
    if m is None:
        return E.EXPECTED_PARAM_NAME, p
    t = m.end()
    if t >= n or text[t] != "=":
        return E.EXPECTED_EQUALS, t
    v = t + 1
    if v >= n or text[v] != '"':
        weight = weighted and t == p + 1 and text[p] in "qQ"
        return E.EXPECTED_QVALUE if weight else E.EXPECTED_VALUE, v
    e = _QUOTED_BODY.match(text, v + 1).end()  # type: ignore[union-attr]
    if e >= n or (text[e] == "\\" and e + 1 >= n):
        return E.UNTERMINATED_QUOTE, v
    if text[e] == "\\":
        return E.BAD_ESCAPE, e + 1
    return E.BAD_QUOTED_CHAR, e


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


#: The codes of rule 6's legacy forms (a bare ``*``, a weight without its
#: leading ``0``), as reported where no lenient mode could take them (a
#: program's values, Accept-Query's members): strict RFC 9110's errors,
#: with no hint of a mode the caller cannot ask for.
WITHOUT_LENIENT_MODE: Final = {
    E.BARE_WILDCARD: E.EXPECTED_SLASH,
    E.SHORT_WEIGHT: E.BAD_WEIGHT,
}


def parse_single(
    item: object, what: str, *, weighted: bool = True, pairs: bool = False
) -> tuple[RangeTuple, bool]:
    """One media range and whether it carried a weight; ``ValueError`` otherwise.

    For the values a program gives (offers, ``format_accept`` items, the types
    ``Consumes`` takes) and a request's Content-Type (``weighted=False``);
    where the program may give (media type, weight) pairs instead (``pairs``),
    a list of a str and a number is named as one meant for such a pair.
    """
    if not isinstance(item, str):
        pair = pairs and type(item) is list and len(item) == 2
        try:
            pair = pair and as_number(item[1]) is not None  # type: ignore[index]
        except Exception:  # the weight's own error: no hint, the TypeError stands
            pair = False
        raise TypeError(
            f"each {what} must be a str, not {type(item).__name__}"
            + " (a weighted one is a tuple: (media type, weight))" * pair
        )
    text = as_header_text(item)[1]
    start = _OWS.match(text).end()  # type: ignore[union-attr]
    code, pos, rng, has_weight = scan_member(text, start, True, weighted)
    code = WITHOUT_LENIENT_MODE.get(code, code)
    if code:
        raise ValueError(
            f"invalid {what} {shown(item)} at position {pos}: {reason(code, item, pos)}"
        )
    if pos < len(text):
        raise ValueError(
            f"invalid {what} {shown(item)}: found ',' at position {pos}; give one "
            "media type per item"
        )
    assert rng is not None
    return rng, has_weight


class Offer(ByArguments):
    """A media type a server offers, with how a client reaches it.

    ``Offer(media_type, qs=1.0, *, explicit=False)`` is taken wherever offers
    are. ``qs`` is the server's weight (docs/rules.md rule 15). An
    ``explicit`` offer is reached only by a range that names its type and
    subtype (rule 21): ``*/*`` and ``type/*`` never choose it, nor does an
    absent header; ``q=0`` still refuses it. The choice is ``media_type``,
    the very object given. Checked when made: a bad media type or qs raises
    as an offer would.
    """

    if TYPE_CHECKING:  # read-only: set once (ByArguments)

        @property
        def media_type(self) -> str: ...
        @property
        def qs(self) -> float: ...
        @property
        def explicit(self) -> bool: ...

    else:  # not for checkers: pyright would read each slot as its property
        __slots__ = ("explicit", "media_type", "qs")

    def __init__(
        self, media_type: str, qs: float = 1.0, *, explicit: bool = False
    ) -> None:
        if not isinstance(media_type, str):
            raise TypeError(
                f"media_type must be a str, not {type(media_type).__name__}"
            )
        parse_offer((media_type, qs))
        checked_flag(explicit, "explicit")
        set_once = ByArguments.__setattr__  # (read-only to type checkers)
        set_once(self, "media_type", media_type)
        set_once(self, "qs", qs)
        set_once(self, "explicit", explicit)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args = (self.media_type,) if self.qs == 1 else (self.media_type, self.qs)
        return args, {"explicit": True} if self.explicit else {}


#: An offer as a server gives it: a media type, a ``(media type, qs)`` pair
#: with the server's own weight qs (docs/rules.md rule 15), or an ``Offer``.
OfferSpec: TypeAlias = str | tuple[str, float] | Offer


class ParsedOffer(NamedTuple):
    """A concrete media type a server can produce, parsed once.

    ``value`` is the media type object the caller gave; ``params`` maps
    lower-case names to values, ``charset`` values lower-cased (they compare
    case-insensitively); ``qs`` is the server's weight in thousandths;
    ``explicit``: reached only by a range naming its type and subtype (rule 21).
    """

    value: str
    type: str
    subtype: str
    params: dict[str, str]
    qs: int = 1000
    explicit: bool = False


def concrete(item: str, rng: RangeTuple, what: str) -> ParsedOffer:
    """``rng`` as a ``ParsedOffer``; ``ValueError`` if it has a ``*`` (docs/rules.md,
    rule 13), a suffix range's too (rule 22)."""
    type_, subtype, params, _ = rng
    if type_ == "*" or subtype == "*" or is_suffix_range(subtype):
        raise ValueError(
            f"invalid {what} {shown(item)}: {what}s must be concrete media types "
            "(type/subtype), not ranges with '*'"
        )
    return ParsedOffer(item, type_, subtype, compared_params(params))


def compared_value(name: str, value: str) -> str:
    """A parameter's value as rule 9 compares it: a ``charset``'s ASCII
    letters lower-case, any other value as it is."""
    return ascii_lower(value) if name == "charset" else value


def compared_params(params: Iterable[tuple[str, str]]) -> dict[str, str]:
    """A range's parameters (lower-case names), each value as rule 9
    compares it (``compared_value``)."""
    return {name: compared_value(name, value) for name, value in params}


def parse_content_type(text: str, what: str) -> tuple[RangeTuple, ParsedOffer]:
    """A ``Content-Type`` value (named ``what`` in errors): one media type,
    no range (RFC 9110 §8.3), with ``q`` a parameter like any other;
    ``ValueError`` otherwise. A request's, which ``Consumes`` reads, and a
    hand-made ``Rendered``'s."""
    rng = parse_single(text, what, weighted=False)[0]
    return rng, concrete(text, rng, what)


def is_suffix_range(subtype: str) -> bool:
    """Whether ``subtype`` (of a valid range) makes a structured-syntax
    suffix range ``type/*+suffix`` (docs/rules.md rule 22)."""
    return subtype.startswith("*+")


#: The longest ``+suffix`` a suffix range reaches an offer by (rule 22): a
#: subtype name has at most 127 characters (RFC 6838 §4.2), so has its end.
SUFFIX_MAX_LENGTH: Final = 127


def suffix_reaches(suffix_range: str, offer: ParsedOffer) -> bool:
    """Whether the suffix range ``suffix_range`` (its subtype, ``*+suffix``)
    reaches ``offer`` (docs/rules.md rule 22; RFC 6838 §4.2.8, RFC 6839):
    its ``+suffix``, of at most ``SUFFIX_MAX_LENGTH`` characters, ends the
    offer's subtype after at least one character (``*+json`` and
    ``*+ber+json`` reach ``vnd.a+ber+json``, none reaches ``json``), and the
    offer is not explicit (rule 21). One test of the subtype's end, in time
    linear in it: a client may send the type (a Content-Type that
    ``Consumes`` reads)."""
    tail = suffix_range[1:]
    subtype = offer.subtype
    return (
        not offer.explicit
        and len(subtype) > len(tail) >= 2
        and len(tail) <= SUFFIX_MAX_LENGTH
        and tail[0] == "+"
        and subtype.endswith(tail)
    )


def suffix_ranges(offer: ParsedOffer) -> tuple[str, ...]:
    """The subtypes of every suffix range that reaches ``offer``
    (``suffix_reaches``), for the look-up of the offers, a server's, or a
    type a program takes from a request (``quality``): those of the
    subtype's last ``SUFFIX_MAX_LENGTH`` characters, so that a subtype of
    many ``+`` costs time and memory linear in its length."""
    subtype = offer.subtype
    start = max(len(subtype) - SUFFIX_MAX_LENGTH, 0)
    tails = ("*" + subtype[i:] for i in range(start, len(subtype)) if subtype[i] == "+")
    return tuple(rng for rng in tails if suffix_reaches(rng, offer))


def charset_free(offer: ParsedOffer) -> bool:
    """Whether a range's ``charset`` parameter goes uncompared against
    ``offer`` (docs/rules.md rule 20): JSON has no charset parameter (RFC 8259
    §11: adding one "really has no effect on compliant recipients"), so an
    ``application/json`` or ``+json`` offer that carries none is not refused
    for it."""
    return "charset" not in offer.params and (
        offer.subtype.endswith("+json") or offer[1:3] == ("application", "json")
    )


def as_number(given: object) -> float | None:
    """``given`` as a weight a program gives is read, a number by its value
    (1, 1.0, ``Decimal("1")`` and ``Fraction(1)`` alike), NaN where no float
    holds it (an int too large, a signalling NaN: a number, but no weight);
    None for what is no number: a bool (a flag, as for ``status=``), text (a str
    or bytes of any kind), or any other object ``float`` refuses."""
    if isinstance(given, (HeaderText, bool)):
        return None
    try:
        return float(given)  # type: ignore[arg-type]
    except (OverflowError, ValueError):
        return float("nan")
    except TypeError:
        return None


def pair_weight(pair: tuple[object, ...], weight: str, kind: str) -> int:
    """The weight a pair ``(media type, weight)`` gives as a number, in
    thousandths: from 0 to 1 with at most three decimals (RFC 9110 §12.4.2;
    for server weights, docs/rules.md rule 15).

    A number is read by its value (``as_number``), as lists that compare
    equal must give equal answers; what is no number raises ``TypeError``,
    any other value ``ValueError``. Messages name the weight, ``weight``
    ("qs"), and the pair, ``kind`` ("offer").
    """
    number = pair[1]
    value = as_number(number)
    if value is None:
        raise TypeError(
            f"invalid {weight} {shown(number)} of the {kind} for {shown(pair[0])}: a "
            f"weight must be a number from 0 to 1, not {type(number).__name__}"
        ) from None
    # Within a float's rounding, 1e-9, at 0 and 1 too (docs/rules.md rule 15);
    # but a weight above 0 is never read as 0, a refusal.
    thousandths = round(value * 1000) if -1 <= value <= 2 else -1
    if (
        not 0 <= thousandths <= 1000
        or abs(value * 1000 - thousandths) > 1e-6
        or (value > 0 and not thousandths)
    ):
        raise ValueError(
            f"invalid {weight} {shown(number)} of the {kind} for {shown(pair[0])}: a "
            "weight must be a number from 0 to 1 with at most three decimals"
        )
    return thousandths


def offer_value(offer: OfferSpec) -> str:
    """What choosing ``offer`` gives: its media type, the very object given
    (a pair's first, an ``Offer``'s ``media_type``)."""
    if type(offer) is tuple:
        return offer[0]
    return offer.media_type if isinstance(offer, Offer) else offer  # type: ignore[return-value]


def parse_offer(offer: object) -> ParsedOffer:
    """Validate and pre-parse one offer: a concrete ``type/subtype[;params]``,
    or a ``(media type, qs)`` pair (docs/rules.md rules 13 and 15).

    Raises ``ValueError`` for a wildcard, a ``q`` parameter, a list, bad
    syntax, a bad qs or a tuple that is no pair, ``TypeError`` for anything
    but a str, a tuple or an ``Offer`` (and for a pair's media type that is
    no str, or its qs no number).
    """
    if isinstance(offer, Offer):
        parsed = parse_offer((offer.media_type, offer.qs))
        return parsed._replace(explicit=offer.explicit)
    if type(offer) is tuple:
        if len(offer) != 2 or type(offer[0]) is tuple:
            raise ValueError(
                f"invalid offer {shown(offer)}: a weighted offer is a pair "
                "(media type, qs)"
            )
        if isinstance(offer[0], Offer):
            raise TypeError(
                f"invalid offer {shown(offer)}: an Offer carries its own qs "
                f"(Offer({shown(offer[0].media_type)}, qs=...)), in no pair"
            )
        qs = pair_weight(offer, "qs", "offer")
        return _media_type_offer(offer[0])._replace(qs=qs)
    return _media_type_offer(offer)


def _media_type_offer(offer: object) -> ParsedOffer:
    rng, has_weight = parse_single(offer, "offer", pairs=True)
    if has_weight:
        raise ValueError(
            f"invalid offer {shown(offer)}: an offer takes no weight ('q' parameter); "
            "a server weight is an offer's qs, given in a program as a pair "
            "(media type, qs) or Offer(media_type, qs)"
        )
    text: str = offer  # type: ignore[assignment]  # parse_single took a str
    return concrete(unpadded(text, "offer"), rng, "offer")


def unpadded(text: str, what: str) -> str:
    """``text``, a media type a program gives; ``ValueError`` naming ``what``
    where it begins or ends with a space or a tab: it is sent as Content-Type,
    a field value (RFC 9110 §5.5)."""
    if text != text.strip(OWS_CHARS):
        raise ValueError(
            f"invalid {what} {shown(text)}: a media type neither begins nor ends "
            "with a space or a tab (it is sent as Content-Type, a field value)"
        )
    return text


if TYPE_CHECKING:
    _T = TypeVar("_T")


def refuse_a_set(given: object, wanted: str, what: str) -> None:
    """``TypeError`` for a set given as ``what`` (``wanted`` begins the
    message): ``what`` are read in the order given, which breaks ties, and a
    set's order changes from one process to the next."""
    if isinstance(given, (set, frozenset)):
        raise TypeError(
            f"{wanted} a {type(given).__name__}: {what} are read in the order"
            " given, and a set's order changes from one process to the next"
        )


#: The offers a request's header value is negotiated against: given as a
#: str of several members, it may be that value, its arguments swapped.
_NEGOTIATED = frozenset({"offers", "codings", "tags"})


def weight_like(value: object) -> bool:
    """Whether ``value`` reads as a weight: a number (``as_number``) from 0
    to 1 (``0``, ``0.5``, ``Decimal("1")``), not an enum member (an
    ``IntEnum``'s are statuses, not weights)."""
    enum = sys.modules.get("enum")  # no member exists before enum is loaded
    if enum is not None and isinstance(value, enum.Enum):
        return False
    number = as_number(value)
    return number is not None and 0 <= number <= 1


def offers_tuple(offers: Iterable[_T], what: str) -> tuple[_T, ...]:
    """``offers`` as a tuple; ``TypeError`` naming ``what`` for anything not
    iterable; for a bare str or bytes, whose characters would otherwise pass
    for offers one by one (its message shows the list meant, or, for a text
    of several members, says to list them), and for a set, whose order
    (server order, which breaks ties) changes from one process to the next.
    A mapping gives its keys, in order (a dict of handlers by media type);
    but one whose values are all weights (``weight_like``: weights by media
    type), which would go unread, is a ``TypeError`` too."""
    if type(offers) is tuple:
        return offers
    if type(offers) is list:  # none of the kinds below: no checks
        return tuple(offers)
    wanted = f"{what} must be an iterable of str (such as a list), not"
    if isinstance(offers, (str, bytes)):
        alone = offers if isinstance(offers, str) else offers.decode("latin-1")
        if "," in alone.split('"', 1)[0]:  # several members, not a comma quoted
            apart = " (a request's header value is an argument of its own)"
            apart *= what in _NEGOTIATED
            raise TypeError(
                f"{wanted} a {type(offers).__name__}: {shown(alone)} is one text:"
                f" give the {what} as the items of a list{apart}"
            )
        raise TypeError(f"{wanted} a {type(offers).__name__}: use [{shown(alone)}]")
    refuse_a_set(offers, wanted, what)
    if (
        isinstance(offers, Mapping)
        and offers
        and all(map(weight_like, offers.values()))
    ):
        pairs = "; give weights in pairs, as its items() are"
        raise TypeError(
            f"{wanted} a {type(offers).__name__} of weights (numbers from 0 to 1),"
            " whose values would go unread" + pairs * (what in ("offers", "items"))
        )
    try:
        items = iter(offers)
    except TypeError:
        raise TypeError(f"{wanted} {type(offers).__name__}") from None
    return tuple(items)


def parse_offers(offers: Iterable[object]) -> list[ParsedOffer]:
    """``parse_offer`` for each offer, in order."""
    return [parse_offer(offer) for offer in offers]
