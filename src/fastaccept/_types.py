"""The values both engines return: ``MediaRange``, ``SkippedMember``, ``Accept``;
``Coding`` and ``AcceptEncoding``; ``LanguageRange`` and ``AcceptLanguage``.

Weights are kept as integers in thousandths (RFC 9110 §12.4.2 allows at most
three decimals), so no comparison ever depends on binary floating point.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence

from . import _coding, _language
from ._arguments import unchangeable
from ._cors import cors_unsafe_bytes
from ._errors import ACCEPT_ENCODING, ACCEPT_LANGUAGE, reason, shown
from ._grammar import FAST_CODING, FAST_LANGUAGE, OWS_CHARS, is_token
from ._limits import KeptNegotiators, checked_flag, last_negotiator
from ._lists import CODING_GRAMMAR, LANGUAGE_GRAMMAR, ListHeader
from ._match import OfferSet, best_match, range_matches, rank, scores
from ._member import (
    OfferSpec,
    ParsedOffer,
    concrete,
    is_suffix_range,
    offer_value,
    offers_tuple,
    parse_offers,
    parse_single,
    refuse_a_set,
    unpadded,
)
from ._text import HeaderText, as_header_text, ascii_lower
from ._tuples import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Final, TypeVar, overload

    from typing_extensions import Self

    from ._match import Match

    _T = TypeVar("_T", bound=str)
    _D = TypeVar("_D")
    _N = TypeVar("_N")


def media_type_offer(media_type: object) -> ParsedOffer:
    """The argument ``media_type`` (of ``quality``, ``Accept.quality``,
    ``MediaRange.matches``) read as one concrete media type without a weight
    (docs/rules.md rule 13); ``TypeError``/``ValueError`` naming ``media_type``.
    """
    if not isinstance(media_type, str):
        raise TypeError(f"media_type must be a str, not {type(media_type).__name__}")
    rng, has_weight = parse_single(media_type, "media_type")
    if has_weight or "*" in rng[:2] or is_suffix_range(rng[1]):
        raise ValueError(
            f"invalid media_type {shown(media_type)}: expected one concrete media type "
            "such as 'text/html' (no '*' range, no weight)"
        )
    return concrete(unpadded(media_type, "media_type"), rng, "media_type")


def _media_type_set(offers: tuple[str], **_: object) -> OfferSet:
    """``Accept.quality``'s one media type as an ``OfferSet``, read as the
    argument ``media_type`` (``last_negotiator`` passes a negotiator's
    arguments too, which it has no use for)."""
    return OfferSet([media_type_offer(offers[0])])


def media_type_negotiator(
    negotiator: Callable[..., _N],
    offers: tuple[str, ...],
    *,
    cache_size: int,
    max_length: int | None,
) -> _N:
    """``quality``'s ``negotiator`` (an engine's Negotiator class) for its
    one media type, first read as the argument ``media_type`` so that errors
    name it; each engine keeps them by ``_limits.kept_negotiator``."""
    media_type_offer(offers[0])
    return negotiator(offers, cache_size=cache_size, max_length=max_length)


def format_weight(weight: int) -> str:
    """Thousandths as the shortest qvalue text: 500 -> '0.5', 0 -> '0'."""
    if weight >= 1000:
        return "1"
    if weight <= 0:
        return "0"
    return f"0.{weight:03d}".rstrip("0")


def _weighted(text: str, weight: int) -> str:
    """A member's ``text``, then its weight as ``;q=``, left out at 1."""
    return text if weight == 1000 else f"{text};q={format_weight(weight)}"


def format_param_value(value: str) -> str:
    """A parameter value as a token, or as a quoted string when it must be."""
    if is_token(value):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


class MediaRange(NamedTuple):
    """One member of an Accept value: ``type/subtype;params`` and its weight.

    ``type``, ``subtype`` and parameter names are lower-case (RFC 9110 §8.3.1);
    parameter values are unquoted and unescaped, case preserved. ``weight`` is
    the q value in thousandths (RFC 9110 §12.4.2).
    """

    #: The type, lower-case, or ``*``.
    type: str
    #: The subtype, lower-case, or ``*``; ``*+suffix`` for a suffix range
    #: (docs/rules.md rule 22).
    subtype: str
    #: ``(name, value)`` pairs in order: names lower-case, values unquoted.
    params: tuple[tuple[str, str], ...] = ()
    #: The q value in thousandths (1000 when the member has none).
    weight: int = 1000

    @property
    def q(self) -> float:
        """The weight as a float: thousandths / 1000."""
        return self.weight / 1000

    @property
    def essence(self) -> str:
        """``type/subtype`` without parameters."""
        return f"{self.type}/{self.subtype}"

    @property
    def specificity(self) -> tuple[float, int]:
        """(non-``*`` parts of type/subtype, number of parameters): RFC 9110
        §12.5.1. A suffix range ``type/*+suffix`` names its type and part of
        its subtype: 1.5 parts, as docs/rules.md rule 22 ranks it above
        ``type/*`` and below ``type/subtype`` (the parameters after that)."""
        if is_suffix_range(self.subtype):
            return (1.5, len(self.params))
        parts = (self.type != "*") + (self.subtype != "*")
        return (parts, len(self.params))

    def matches(self, media_type: str) -> bool:
        """Whether this range matches the concrete ``media_type`` (docs/rules.md,
        rule 9; a suffix range, rule 22)."""
        return range_matches(self, media_type_offer(media_type))

    def __str__(self) -> str:
        text = self.essence + "".join(
            f";{name}={format_param_value(value)}" for name, value in self.params
        )
        return _weighted(text, self.weight)


def checked_weight(member: MediaRange | Coding | LanguageRange, what: str) -> None:
    """The weight of a ``member`` (a ``what``) a program gave: a plain int
    (no bool, no subclass) from 0 to 1000, thousandths (else ``TypeError``,
    ``ValueError``)."""
    weight = member.weight
    if type(weight) is not int:
        raise TypeError(
            f"invalid {what} {member!r}: its weight must be a plain int "
            f"(thousandths), not {type(weight).__name__}"
        )
    if not 0 <= weight <= 1000:
        raise ValueError(
            f"invalid {what} {member!r}: its weight must be from 0 to 1000 "
            "(thousandths)"
        )


def given_range(item: MediaRange) -> tuple[MediaRange, bool]:
    """A ``MediaRange`` a program gave, checked as the same range given as a
    str: its text (``str(item)``) read back as one media range, names
    lower-cased, and whether it has a weight. Its type and subtype must be
    str, its params ``(name, value)`` pairs of str and its weight an int
    from 0 to 1000 (thousandths; else ``TypeError``, ``ValueError``); no
    parameter may be named ``q``, which its text would make the weight (RFC
    9110 §12.5.1), and the text read back must be the range given.
    """
    params = item.params
    if not (
        type(params) is tuple
        and all(type(pair) is tuple and len(pair) == 2 for pair in params)
        and all(isinstance(part, str) for pair in params for part in pair)
        and isinstance(item.type, str)
        and isinstance(item.subtype, str)
    ):
        raise TypeError(
            f"invalid media range {item!r}: its type and subtype must be str, its "
            "params a tuple of (name, value) pairs of str"
        )
    checked_weight(item, "media range")
    if any(name.lower() == "q" for name, _ in params):
        raise ValueError(
            f"invalid media range {item!r}: a parameter named 'q' is the weight "
            "(RFC 9110 §12.5.1)"
        )
    rng = MediaRange._make(parse_single(str(item), "media type")[0])
    lowered = tuple((ascii_lower(name), value) for name, value in params)
    if rng != (ascii_lower(item.type), ascii_lower(item.subtype), lowered, item.weight):
        raise ValueError(
            f"invalid media range {item!r}: its text {str(item)!r} is another range"
        )
    return rng, item.weight != 1000


class SkippedMember(NamedTuple):
    """A member lenient mode skipped: where it was, what it said, and why."""

    #: Where the member starts in the value (an index).
    start: int
    #: Where it ends: the index of the comma after it, or the value's length
    #: (whitespace before that comma included, which ``text`` leaves out).
    end: int
    #: The member as sent, without the whitespace before its comma.
    text: str
    #: The index, in the value, of the first character that broke the grammar.
    position: int
    #: What was expected and what was found there.
    reason: str


class SkippedStarts(Sequence[int]):
    """Where each skipped member of ``records`` (``Unexplained``'s) starts,
    each read only when asked for: a refusal shows the first few of
    thousands (docs/bad-input.md). Read item by item: a slice of the compiled
    engine's ``memoryview`` would count an export of the buffer, which
    free-threaded CPython 3.13 does without atomics, and a lost count
    releases the shared buffer."""

    __slots__ = ("records",)

    def __init__(self, records: Sequence[int]) -> None:
        self.records = records

    def __len__(self) -> int:
        return len(self.records) // 4

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> int: ...
        @overload
        def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: Any) -> Any:
        records = self.records
        if isinstance(index, slice):
            return [records[4 * i] for i in range(len(self))[index]]
        return records[4 * range(len(self))[index]]


class Unexplained:
    """The members a lenient scan skipped, as both engines record them:
    ``(start, end, position, code)``, four numbers a member, in ``records``,
    of the value ``text`` (a str or bytes). A ``SkippedMember``'s text and
    reason are written only when ``skipped`` is read (``explained``): a
    refusal lists where they start (``starts``), and a value of thousands of
    malformed members costs it no message (docs/bad-input.md)."""

    __slots__ = ("records", "text")

    def __init__(self, text: str | bytes, records: Sequence[int]) -> None:
        self.text, self.records = text, records

    def starts(self) -> Sequence[int]:
        """Where each skipped member starts, in header order (``SkippedStarts``)."""
        return SkippedStarts(self.records)

    def explained(self) -> tuple[SkippedMember, ...]:
        """The ``SkippedMember``s, each with its text and reason."""
        original, found = as_header_text(self.text)[0], self.records
        return tuple(
            SkippedMember(
                found[i],
                found[i + 1],
                original[found[i] : found[i + 1]].rstrip(OWS_CHARS),
                found[i + 2],
                reason(found[i + 3], original, found[i + 2]),
            )
            for i in range(0, len(found), 4)
        )


class Coding(NamedTuple):
    """One member of an Accept-Encoding value: a content coding and its weight.

    ``coding`` is lower-case, as sent (``x-gzip`` stays ``x-gzip``; it
    matches ``gzip``), or ``*``; ``weight`` is the q value in thousandths
    (RFC 9110 §12.5.3, §12.4.2).
    """

    #: The content coding, lower-case, as sent, or ``*``.
    coding: str
    #: The q value in thousandths (1000 when the member has none).
    weight: int = 1000

    @property
    def q(self) -> float:
        """The weight as a float: thousandths / 1000."""
        return self.weight / 1000

    def __str__(self) -> str:
        return _weighted(self.coding, self.weight)


class LanguageRange(NamedTuple):
    """One member of an Accept-Language value: a language range and its weight.

    ``range`` is lower-case (``en-us``; comparisons are case-insensitive,
    RFC 4647 §2), or ``*``; ``weight`` is the q value in thousandths (RFC
    9110 §12.5.4, §12.4.2).
    """

    #: The language range, lower-case, or ``*``.
    range: str
    #: The q value in thousandths (1000 when the member has none).
    weight: int = 1000

    @property
    def q(self) -> float:
        """The weight as a float: thousandths / 1000."""
        return self.weight / 1000

    @property
    def subtags(self) -> tuple[str, ...]:
        """The range's subtags: ``('sr', 'latn', 'rs')``; ``('*',)`` for ``*``."""
        return tuple(self.range.split("-"))

    def __str__(self) -> str:
        return _weighted(self.range, self.weight)


if TYPE_CHECKING:
    _M = TypeVar("_M", MediaRange, Coding, LanguageRange)
else:
    _M = object  # Sequence[_M] at run time: any object will do


class _Members(Sequence[_M]):
    """A parsed value: an immutable sequence of its members in header order,
    ``present`` (False when the header was absent) and ``skipped`` (the
    members lenient mode ignored). A list header's ``quality``, ``rank`` and
    ``best`` follow its description, ``_header``."""

    # In the order of __init__'s parameters, then ``_value`` and ``_engine``,
    # subclasses' after: the compiled engine sets them in that order
    # (_scan.pyx, made_by_slots). A parser's ``_skipped`` is ``()`` or an
    # ``Unexplained``, a program's a tuple of ``SkippedMember``s.
    __slots__ = ("_members", "_present", "_skipped", "_value", "_engine")  # noqa: RUF023

    # Declared for the type checker alone: no annotation at run time, whose
    # names (typing's) ``import fastaccept`` does not load.
    if TYPE_CHECKING:
        _header: ClassVar[ListHeader]
        #: The offers given where the members are matched here (a value the
        #: pure engine parsed or one made by hand, and ``Accept.rank``), parsed
        #: once: kept as the one-call forms keep their negotiators
        #: (``_limits.last_negotiator``), since a server passes the same offers
        #: on every request.
        _kept_offers: ClassVar[KeptNegotiators]
        #: The one-call form of the engine that ``best`` hands the text of a value
        #: the compiled engine parsed (``_value``, ``_engine``).
        _negotiate: ClassVar[str]
        #: The engine's negotiator class that ranks such a text for ``rank`` and
        #: ``quality``, and the negotiators it made.
        _negotiator: ClassVar[str]
        _kept_negotiators: ClassVar[KeptNegotiators]

    def _best_of_text(self, offers: Iterable[Any], default: object) -> object:
        """``best`` of a value the compiled engine parsed: its one-call form
        given the text (``_negotiate``; no limit: it was read once)."""
        negotiate = getattr(sys.modules[self._engine], self._negotiate)  # type: ignore[index]
        return negotiate(self._value, offers, default=default, max_length=None)

    def _ranked_text(self, offers: tuple[Any, ...]) -> list[tuple[int, int]]:
        """``rank``'s (offer index, weight in thousandths) for a value the
        compiled engine parsed: a negotiator of that engine (``_negotiator``,
        kept as ``_kept_offers`` are) ranks its text, faster than the members
        are scored here."""
        made = getattr(sys.modules[self._engine], self._negotiator)  # type: ignore[index]
        negotiator = last_negotiator(self._kept_negotiators, made, offers, None)
        ranked: list[tuple[int, int]] = negotiator._ranked(self._value)
        return ranked

    @classmethod
    def _offer_set(
        cls, offers: Iterable[Any], noun: str
    ) -> tuple[tuple[Any, ...], Any]:
        """``offers`` as a tuple (``noun`` names them in a ``TypeError``), and
        parsed by the header's rule (kept)."""
        items = offers_tuple(offers, noun)
        return items, last_negotiator(cls._kept_offers, cls._parsed, items, None)

    @classmethod
    def _parsed(cls, offers: tuple[Any, ...], **_: object) -> Any:
        """The offers parsed (``last_negotiator`` passes a negotiator's
        arguments too, which a set of offers has no use for)."""
        return cls._header.offer_set(offers)

    def __init__(
        self,
        members: Iterable[_M] = (),
        present: bool = True,
        skipped: Iterable[SkippedMember] = (),
    ) -> None:
        if hasattr(self, "_present"):  # fixed when made (``parse(None)`` is shared)
            raise AttributeError(unchangeable(self, "_members"))
        read = self._read_back(members)
        if not checked_flag(present, "present") and read:
            raise ValueError(
                f"{type(self).__name__} of an absent header (present=False) has "
                "no members"
            )
        try:
            items = iter(skipped)
        except TypeError:
            raise TypeError(
                f"{type(self).__name__} skipped must be an iterable of "
                f"SkippedMember, not {type(skipped).__name__}"
            ) from None
        given = tuple(items)
        for item in given:
            if not isinstance(item, SkippedMember):
                raise TypeError(
                    f"{type(self).__name__} skipped must be SkippedMember, not "
                    f"{type(item).__name__}"
                )
        self._members: tuple[_M, ...] = read
        self._present = present
        self._skipped: tuple[SkippedMember, ...] | Unexplained = given
        #: The text the compiled engine parsed, with that engine's module name
        #: (an interned str: no count of a shared object is written per
        #: value), which ``best`` (and ``Accept.quality``) give its one-call
        #: forms and a list value's ``rank`` and ``quality`` its negotiators
        #: (``_ranked_text``): its kernel reads the text again faster than
        #: the members are matched here, to the same answers (the
        #: differential tests hold it to that).
        #: None for a value made by hand or by the pure engine, or for a
        #: buffer that can change.
        self._value: str | bytes | None = None
        self._engine: str | None = None

    @classmethod
    def _made(cls, members: list[_M], skipped: Unexplained | tuple[()]) -> Self:
        """A present value of the members a parser read (not read again)."""
        made = cls.__new__(cls)
        made._members, made._skipped = tuple(members), skipped
        made._present = True
        made._value = made._engine = None
        return made

    @classmethod
    def _read_back(cls, members: Iterable[_M]) -> tuple[_M, ...]:
        """Members a program gave, each as the header's parser reads its text
        (``_read_member``: names lower-case), so that a value made by hand
        answers as the parsed one; ``TypeError`` or ``ValueError`` for one
        that is no such member. A parser's own are not read again (``_made``)."""
        kind = cls._member_type()
        wanted = f"{cls.__name__} members must be an iterable of {kind.__name__}"
        if isinstance(members, str | bytes) or not isinstance(members, Iterable):
            raise TypeError(
                f"{wanted} (a header value is parsed), not {type(members).__name__}"
            )
        refuse_a_set(members, f"{wanted}, not", "members")
        read = []
        for member in members:
            if not isinstance(member, kind):
                raise TypeError(
                    f"{cls.__name__} members must be {kind.__name__}, not "
                    f"{type(member).__name__}"
                )
            read.append(cls._read_member(member))
        return tuple(read)

    @classmethod
    def _member_type(cls) -> type[_M]:
        kind: type[_M] = cls._header.member
        return kind

    @classmethod
    def _read_member(cls, member: _M) -> _M:
        """A list header's member, read back by its ``scan_member``."""
        what = type(member).__name__
        if not isinstance(member[0], str):
            raise TypeError(f"invalid {what} {member!r}: its name must be a str")
        checked_weight(member, what)
        text = str(member)
        code, end, found = cls._header.scan_member(text, 0, True)
        read_as = (ascii_lower(member[0]), member[1])  # as given, name lower-case
        if code or end != len(text) or found is None or found != read_as:
            raise ValueError(
                f"invalid {what} {member!r}: its text {text!r} is no "
                f"{cls._header.field} member"
            )
        read: _M = cls._header.member(*found)
        return read

    @property
    def present(self) -> bool:
        """False when the header was absent (``None`` was parsed): then every
        offer is acceptable (RFC 9110 §12.4.1, §12.5.3). True for any
        value given, even an empty one."""
        return self._present

    @property
    def skipped(self) -> tuple[SkippedMember, ...]:
        """The members lenient mode skipped (``SkippedMember``: where, what,
        why), in header order; empty in strict mode, which raises instead.
        A parsed value writes their texts and reasons when this is first read,
        and keeps them (a loop reading ``skipped[i]`` writes them once)."""
        found = self._skipped
        if isinstance(found, Unexplained):
            self._skipped = found = found.explained()
        return found

    def _skipped_starts(self) -> Sequence[int]:
        """Where each skipped member starts, without writing their reasons."""
        found = self._skipped
        if isinstance(found, Unexplained):
            return found.starts()
        return [member.start for member in found]

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> _M: ...
        @overload
        def __getitem__(self, index: slice) -> tuple[_M, ...]: ...

    def __getitem__(self, index: int | slice) -> _M | tuple[_M, ...]:
        return self._members[index]

    def __len__(self) -> int:
        return len(self._members)

    def __iter__(self) -> Iterator[_M]:
        return iter(self._members)

    def __contains__(self, member: object) -> bool:
        """Whether ``member`` is one of the members. Text is a ``TypeError``,
        as ``"a" in b"a"`` is: no text is a member, so ``"text/html" in
        value`` would be False whatever the header says (werkzeug's reads as
        ``accepts``, which asks whether an offer is acceptable)."""
        if isinstance(member, HeaderText):
            asked = repr(member) if isinstance(member, str) else "a str"
            raise TypeError(
                f"'in <{type(self).__name__}>' requires a "
                f"{self._member_type().__name__}, not {type(member).__name__}: "
                f"accepts({asked}) says whether an offer is acceptable"
            )
        return member in self._members

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return (self._members, self._present) == (other._members, other._present)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._members, self._present))

    def __repr__(self) -> str:
        if not self._present:
            return f"{type(self).__name__}(None)"
        return f"{type(self).__name__}({str(self)!r})"

    def __str__(self) -> str:
        """A canonical header value that parses back to the same members; an
        absent header's (``present`` False) is ``""``, which parses as a
        present, empty one, read otherwise (docs/rules.md): send no header
        for it."""
        return ", ".join(str(member) for member in self._members)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        """Pickle and copy by the constructor's arguments."""
        return (type(self), (self._members, self._present, self.skipped))

    def _given(self) -> tuple[_M, ...] | None:
        """The members; None when the header was absent."""
        return self._members if self._present else None

    def quality(self, offer: str) -> float:
        """The weight this value gives one offer, 0.0 to 1.0; 1.0 when absent."""
        if not isinstance(offer, str):
            raise TypeError(f"offer must be a str, not {type(offer).__name__}")
        if self._engine is not None:
            found = self._ranked_text((offer,))
            return found[0][1] / 1000 if found else 0.0
        _, parsed = self._offer_set((offer,), self._header.noun)
        given = self._given()
        if given is None:
            return 1.0
        weights = self._header.weights(given, parsed)  # type: ignore[arg-type]
        return weights[0] / 1000

    def accepts(self, offer: str) -> bool:
        """Whether ``offer`` is acceptable (its quality is above 0)."""
        return self.quality(offer) > 0

    def rank(self, offers: Iterable[str]) -> list[tuple[str, float]]:
        """Acceptable offers with their weight, best first (the order of
        ``best``); a weight of 0 is left out."""
        if self._engine is not None:
            items = offers_tuple(offers, self._header.noun)
            ranked = self._ranked_text(items)
        else:
            items, parsed = self._offer_set(offers, self._header.noun)
            ranked = self._header.rank(self._given(), parsed)  # type: ignore[arg-type]
        return [(items[index], weight / 1000) for index, weight in ranked]

    if TYPE_CHECKING:

        @overload
        def best(self, offers: Iterable[_T]) -> _T | None: ...
        @overload
        def best(self, offers: Iterable[_T], default: _T) -> _T: ...
        @overload
        def best(self, offers: Iterable[_T], default: _D) -> _T | _D: ...

    def best(self, offers: Iterable[str], default: object = None) -> object:
        """The best acceptable offer (the very object given), else ``default``,
        by the header's rule (docs/rules.md)."""
        if self._engine is not None:  # with the text it parsed
            return self._best_of_text(offers, default)
        items, parsed = self._offer_set(offers, self._header.noun)
        index = self._header.best(self._given(), parsed)  # type: ignore[arg-type]
        return default if index < 0 else items[index]  # this call's own object


class Accept(_Members[MediaRange]):
    """A parsed Accept value: an immutable sequence of ``MediaRange`` in header order.

    ``present`` is False when the header was absent (``None``): then every type
    is acceptable at q=1 (RFC 9110 §12.4.1). ``skipped`` lists the members that
    lenient mode ignored. ``cors_safelisted`` is the Fetch verdict on the value.
    """

    __slots__ = ("_cors_safelisted",)
    _kept_offers = KeptNegotiators()
    #: ``quality``'s media type, parsed once (as ``_kept_offers``).
    _kept_media_types = KeptNegotiators()
    _negotiate = "negotiate"

    def __init__(
        self,
        ranges: Iterable[MediaRange] = (),
        present: bool = True,
        skipped: Iterable[SkippedMember] = (),
        cors_safelisted: bool | None = None,
    ) -> None:
        if cors_safelisted is not None:
            checked_flag(cors_safelisted, "cors_safelisted")
        super().__init__(ranges, present, skipped)
        if cors_safelisted is None:  # the verdict on the text it holds
            cors_safelisted = cors_unsafe_bytes(str(self), max_length=None).safelisted
        self._cors_safelisted = cors_safelisted

    @classmethod
    def _member_type(cls) -> type[MediaRange]:
        return MediaRange

    @classmethod
    def _read_member(cls, member: MediaRange) -> MediaRange:
        """A media range, read back as ``given_range`` reads it."""
        return given_range(member)[0]

    @property
    def cors_safelisted(self) -> bool:
        """Whether the value is CORS-safelisted (WHATWG Fetch, "CORS-safelisted
        request-header"): at most 128 bytes and no CORS-unsafe byte, as
        ``is_cors_safelisted`` says; True when the header was absent. One
        made by hand without it has the verdict on its text (``str``)."""
        return self._cors_safelisted

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        """Pickle and copy by the constructor's arguments."""
        return (
            type(self),
            (self._members, self._present, self.skipped, self._cors_safelisted),
        )

    def quality(self, media_type: str) -> float:
        """The weight this value gives the concrete ``media_type`` (rule 10)."""
        if self._engine is not None:  # with the text it parsed
            found: float = sys.modules[self._engine].quality(
                self._value, media_type, max_length=None
            )
            return found
        if not isinstance(media_type, str):  # never the last one's, however equal
            media_type_offer(media_type)  # its TypeError
        kept = self._kept_media_types
        offers = last_negotiator(kept, _media_type_set, (media_type,), None)
        if not self._present:
            return 1.0
        return scores(offers.matches(self._members), offers)[0][0] / 1000

    def accepts(self, media_type: str) -> bool:
        """Whether ``media_type`` is acceptable (its quality is above 0)."""
        return self.quality(media_type) > 0

    def rank(self, offers: Iterable[OfferSpec]) -> list[tuple[str, float]]:
        """Acceptable offers with their score (q, times qs for a weighted
        offer), best first (rules 11 and 15); a score of 0 is left out."""
        items, parsed = self._offer_set(offers, "offers")
        values = [offer_value(item) for item in items]  # this call's own objects
        return rank(self._matches(parsed), parsed, values)

    if TYPE_CHECKING:

        @overload
        def best(self, offers: Iterable[_T | tuple[_T, float]]) -> _T | None: ...
        @overload
        def best(self, offers: Iterable[OfferSpec]) -> str | None: ...
        @overload
        def best(self, offers: Iterable[_T | tuple[_T, float]], default: _T) -> _T: ...
        @overload
        def best(self, offers: Iterable[_T], default: _D) -> _T | _D: ...
        @overload
        def best(
            self, offers: Iterable[_T | tuple[_T, float]], default: _D
        ) -> _T | _D: ...
        @overload
        def best(self, offers: Iterable[OfferSpec], default: _D) -> str | _D: ...

    def best(self, offers: Iterable[OfferSpec], default: object = None) -> object:
        """The best acceptable offer (the very media type object given; for a
        ``(media type, qs)`` pair, its media type), else ``default``."""
        if self._engine is not None:  # with the text it parsed
            return self._best_of_text(offers, default)
        items, parsed = self._offer_set(offers, "offers")
        index = best_match(self._matches(parsed), parsed)
        return default if index < 0 else offer_value(items[index])  # this call's own

    def _matches(self, parsed: OfferSet) -> list[Match] | None:
        """The ranges that can match the offers ``parsed`` (None: the header
        is absent): what ``rank`` and ``best_match`` take."""
        return parsed.matches(self._members) if self._present else None

    @classmethod
    def _parsed(cls, offers: tuple[Any, ...], **_: object) -> OfferSet:
        return OfferSet(parse_offers(offers))


ENCODING: Final = ListHeader(
    field=ACCEPT_ENCODING,
    noun="codings",
    grammar=CODING_GRAMMAR,
    fast=FAST_CODING,
    scan_member=_coding.scan_coding,
    offer_set=_coding.CodingSet,
    best=_coding.best_coding,
    rank=_coding.rank_codings,
    weights=_coding.coding_weights,
    member=Coding,
)
LANGUAGE: Final = ListHeader(
    field=ACCEPT_LANGUAGE,
    noun="tags",
    grammar=LANGUAGE_GRAMMAR,
    fast=FAST_LANGUAGE,
    scan_member=_language.scan_language,
    offer_set=_language.TagSet,
    best=_language.best_language,
    rank=_language.rank_languages,
    weights=_language.language_weights,
    member=LanguageRange,
)


class AcceptEncoding(_Members[Coding]):
    """A parsed Accept-Encoding value: an immutable sequence of ``Coding``.

    ``present`` is False when the header was absent (``None``): then any
    coding is acceptable (RFC 9110 §12.5.3). ``skipped`` lists the members
    lenient mode ignored. A coding's weight is its own entry's, else the
    ``*`` entry's, else for ``identity`` the lowest weight above 0; ``best``
    prefers the highest weight, then its own entry over ``*`` over the
    implicit weight of identity, then server order; absent: ``identity`` if
    offered, else the first.
    """

    __slots__ = ()
    _header = ENCODING
    _kept_offers = KeptNegotiators()
    _negotiate = "negotiate_encoding"
    _negotiator = "EncodingNegotiator"
    _kept_negotiators = KeptNegotiators()


class AcceptLanguage(_Members[LanguageRange]):
    """A parsed Accept-Language value: an immutable sequence of ``LanguageRange``.

    ``present`` is False when the header was absent (``None``): then any
    language is acceptable (RFC 9110 §12.4.1). ``skipped`` lists the members
    lenient mode ignored. A tag's weight is the q of its deciding range;
    ``best`` prefers the highest weight, then a language range over ``*``,
    then the deciding range listed first, then the closer relation, then
    more shared subtags, then server order (docs/rules.md rule 19); absent:
    the first tag.
    """

    __slots__ = ()
    _header = LANGUAGE
    _kept_offers = KeptNegotiators()
    _negotiate = "negotiate_language"
    _negotiator = "LanguageNegotiator"
    _kept_negotiators = KeptNegotiators()
