"""Accept-Query (RFC 10008 §3): the media types a resource takes in a QUERY,
written and read as a Structured Field List (RFC 9651 §3.1; ``_structured``)."""

from __future__ import annotations

from collections.abc import Iterable

from ._errors import characters_long, reason, shown
from ._grammar import TCHARS
from ._limits import DEFAULT_MAX_LENGTH, checked_max_length
from ._member import (
    WITHOUT_LENIENT_MODE,
    is_suffix_range,
    offers_tuple,
    parse_single,
    scan_member,
)
from ._structured import StructureError, bare_item, is_key, parse_list
from ._text import HeaderValue, as_header_text, coerce_value, header_length
from ._tuples import NamedTuple
from ._types import MediaRange, format_param_value, given_range

#: Why Accept-Query carries no suffix range (docs/rules.md rule 22), written
#: or read.
SUFFIX_RANGE = (
    "a suffix range: Accept-Query has no wildcard but */* and type/* (RFC 10008 §3)"
)


class AcceptQuery(NamedTuple):
    """An Accept-Query value read (RFC 10008 §3): its media ranges, or why
    it has none.

    ``members``: the media ranges in order, as ``parse`` gives an Accept
    value's (``MediaRange``: names lower-case, parameter values as sent,
    weight 1000, q=1). ``reason``: ``""`` for a well-formed value (an empty or absent
    one too); otherwise where and why it is not, and there are no members: a
    Structured Field that breaks its syntax or its field's definition is
    ignored whole (RFC 9651 §2.2, §4.2).
    """

    #: The media ranges, in the value's order.
    members: tuple[MediaRange, ...] = ()
    #: Why the value was ignored (where it breaks a rule, or its length);
    #: ``""`` when it was not.
    reason: str = ""


def format_accept_query(media_types: Iterable[str | MediaRange]) -> str:
    """An Accept-Query value (RFC 10008 §3) naming ``media_types``.

    Each is a media range (wildcards allowed, e.g. ``image/*``), a str or a
    ``MediaRange``, without a weight. The value is a Structured Field List
    (RFC 9651 §3.1): each range's ``type/subtype``, lower-case, as a Token
    where it is one (``application/sql``), a String otherwise (a type that
    begins with a digit); its parameters as Parameters, each value a Token
    where it is one, a String otherwise. ``ValueError`` for a range the
    field cannot carry: one with a weight, a suffix range ``type/*+suffix``
    (RFC 10008 §3 has no such wildcard), a parameter name that is no
    Structured Field key (RFC 9651 §3.1.2: ``a-z`` or ``*``, then ``a-z``,
    digits and ``_-.*``), a value with a character outside printable ASCII;
    and for no media types at all: an empty List is not sent (RFC 9651
    §4.1), so the header is then omitted. A ``MediaRange`` is checked as its
    text would be (``format_accept``'s ``given_range``). Use it for the
    ``Accept-Query`` response header of a 415 to QUERY or of an answer to
    OPTIONS.
    """
    types = offers_tuple(media_types, "media_types")
    if not types:
        raise ValueError(
            "format_accept_query needs at least one media type, none given: "
            "an empty List is not sent, the Accept-Query header is omitted "
            "(RFC 9651 §4.1)"
        )
    members = []
    for item in types:
        if isinstance(item, MediaRange):
            rng, weighted = given_range(item)
        else:
            parsed, weighted = parse_single(item, "media type")
            rng = MediaRange._make(parsed)
        try:
            if weighted:
                raise ValueError("it takes no weight")
            members.append(_member(rng))
        except ValueError as error:
            raise ValueError(
                f"invalid media type {shown(item)} for Accept-Query: {error}"
            ) from None
    return ", ".join(members)


def _member(rng: MediaRange) -> str:
    """``rng`` as a List member: its ``type/subtype``, then its Parameters;
    ``ValueError`` for what a Structured Field cannot carry, and for a suffix
    range (rule 22), which Accept-Query does not (RFC 10008 §3: the only
    wildcards it supports are ``*/*`` and ``type/*``)."""
    if is_suffix_range(rng.subtype):
        raise ValueError(SUFFIX_RANGE)
    parameters = []
    for name, value in rng.params:
        if not is_key(name):
            raise ValueError(
                f"the parameter name {name!r} is no Structured Field key "
                "(RFC 9651 §3.1.2)"
            )
        try:
            parameters.append(f";{name}={bare_item(value)}")
        except ValueError as error:
            raise ValueError(f"the value of {name!r}, {error}") from None
    return bare_item(rng.essence) + "".join(parameters)


def parse_accept_query(
    value: HeaderValue, *, max_length: int | None = DEFAULT_MAX_LENGTH
) -> AcceptQuery:
    """Read an Accept-Query value (RFC 10008 §3); None: the header is absent.

    The value is parsed as RFC 9651 §4.2 parses a List, then each member as
    a media range (RFC 9110 §12.5.1; docs/rules.md rule 2) with Token or
    String parameters, none of them ``q``. Anything else gives no members
    and the ``reason``, with its position: a syntax error, a member or
    parameter of another type, a member that is no media range, a suffix
    range ``type/*+suffix`` (docs/rules.md rule 22: RFC 10008 §3 has no
    wildcard but ``*/*`` and ``type/*``, and ``format_accept_query`` writes
    none); a value longer than ``max_length`` characters (None: no limit)
    gives its length and the limit. Nothing in the value raises; another
    type than a header value's is a ``TypeError``.
    Bytes are read as Latin-1.
    """
    limit = checked_max_length(max_length)
    if value is None:
        return AcceptQuery()
    coerced = coerce_value(value, "Accept-Query", "response")
    length = header_length(coerced)
    if limit is not None and length > limit:
        why = f"the value is {characters_long(length)}; the limit is {limit}"
        return AcceptQuery((), why)
    text = as_header_text(coerced)[0]
    try:
        members = tuple(_media_range(*item) for item in parse_list(text))
    except StructureError as error:
        return AcceptQuery((), str(error))
    return AcceptQuery(members)


def _media_range(start: int, bare: str, params: dict[str, str]) -> MediaRange:
    """The member at ``start`` as a media range (RFC 10008 §3: the range
    without parameters, then its parameters); ``StructureError`` when it is
    none."""
    if not TCHARS.issuperset(bare.replace("/", "", 1)):
        why = "expected a media range 'type/subtype' without parameters (RFC 10008 §3)"
        raise StructureError(start, why)
    if "q" in params:  # before its value is read as a weight would be
        why = "a 'q' parameter, a weight, which Accept-Query does not take"
        raise StructureError(start, why)
    member = bare + "".join(
        f";{name}={format_param_value(value)}" for name, value in params.items()
    )
    code, end, rng, _ = scan_member(member, 0, True)
    code = WITHOUT_LENIENT_MODE.get(code, code)
    if code:
        why = reason(code, member, end)
        raise StructureError(start, f"the member is not a media range: {why}")
    assert rng is not None
    media_range = MediaRange._make(rng)
    if is_suffix_range(media_range.subtype):
        raise StructureError(start, SUFFIX_RANGE)
    return media_range
