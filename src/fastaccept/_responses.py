"""What a server answers, decided from a request's Accept (``Produces``) or
Content-Type (``Consumes``): a ``Decision``, never an exception for anything
a client sends."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ._accept_query import format_accept_query
from ._arguments import ByArguments, made_once
from ._engine import Negotiator
from ._errors import AcceptError, characters_long, excerpt, shown
from ._format import format_accept
from ._grammar import CTL_BUT_HTAB_CHARS, OWS_CHARS, is_token
from ._limits import (
    CACHE_KEY_MAX_LENGTH,
    DEFAULT_CACHE_SIZE,
    DEFAULT_MAX_LENGTH,
    VALUES_KEPT,
    checked_cache_size,
    checked_flag,
    checked_max_length,
    shared_key,
    store,
)
from ._match import range_matches
from ._member import (
    OfferSpec,
    ParsedOffer,
    compared_params,
    compared_value,
    offers_tuple,
    parse_content_type,
    parse_offer,
    parse_offers,
    parse_single,
    refuse_a_set,
    unpadded,
)
from ._structured import bare_item
from ._text import (
    HeaderValue,
    as_header_text,
    ascii_lower,
    coerce_value,
    header_length,
)
from ._types import MediaRange

if sys.version_info >= (3, 11):  # at run time too: typing.get_type_hints
    from typing import Self
elif TYPE_CHECKING:
    from typing_extensions import Self
else:  # 3.10 at run time: a name that typing.get_type_hints finds
    from typing import Any as Self

_TEXT = ("Content-Type", "text/plain; charset=utf-8")
_PROBLEM = ("Content-Type", "application/problem+json")
_VARY = ("Vary", "Accept")


#: Python's reason phrases by status code (``HTTPStatus``; frameworks write
#: them as an error's default message: ``is_phrase_of``).
_PYTHON_PHRASES = {status.value: status.phrase for status in HTTPStatus}
#: Reason phrases by status code: RFC 9110 §15's, on every Python (CPython
#: before 3.13 has the older names of these four), and the registered others;
#: not 418's, "(Unused)" there (§15.5.19) and in IANA's registry.
_PHRASES = {code: phrase for code, phrase in _PYTHON_PHRASES.items() if code != 418} | {
    413: "Content Too Large",
    414: "URI Too Long",
    416: "Range Not Satisfiable",
    422: "Unprocessable Content",
}
#: The classes of status codes by their first digit (RFC 9110 §15).
_CLASSES = {
    1: "Informational",
    2: "Successful",
    3: "Redirection",
    4: "Client Error",
    5: "Server Error",
}


def reason_phrase(status: int) -> str:
    """The reason phrase of ``status`` (100-599); for a code without one, its
    class's (RFC 9110 §15: ``"Successful"``). Another value is a ``ValueError``
    (§15: "Values outside the range 100..599 are invalid")."""
    if type(status) is bool or not isinstance(status, int) or not 100 <= status <= 599:
        raise ValueError(f"{shown(status)} is not an HTTP status (an int, 100-599)")
    return _PHRASES.get(status) or _CLASSES[status // 100]


def is_phrase_of(status: int, message: str) -> bool:
    """Whether ``message`` is ``status``'s reason phrase, RFC 9110's or the
    one of Python's ``HTTPStatus`` (its older names), which frameworks give
    an error without a message of its own (Starlette, Litestar, aiohttp)."""
    return message in (reason_phrase(status), _PYTHON_PHRASES.get(status))


class StatusAndHeaders:
    """What every answer has: ``status`` and ``header_items``, and their views."""

    __slots__ = ()
    status: int
    header_items: tuple[tuple[str, str], ...]

    @property
    def reason(self) -> str:
        """The status's reason phrase, e.g. ``"Not Acceptable"`` (for WSGI);
        for a code without one, its class's (RFC 9110 §15: ``"Successful"``);
        a ``ValueError`` for a ``status`` outside 100-599 (a ``Decision`` made
        by hand holds what it is given)."""
        return reason_phrase(self.status)

    @property
    def headers(self) -> dict[str, str]:
        """The headers to send, as a new dict."""
        return dict(self.header_items)


@made_once
@dataclass(frozen=True, slots=True)
class Decision(StatusAndHeaders):
    """The response facts for one request.

    ``ok`` (``status`` 200): go on; ``media_type`` is the chosen offer
    (``Produces``) or the accepted type the request's content matched
    (``Consumes``), the very string given, and for ``Consumes``
    ``content_type`` is the request's own media type, canonical (``image/png``
    for ``IMAGE/PNG``, parameters kept). Otherwise ``media_type`` is ``""``:
    answer ``status`` with ``body`` at once (docs/rules.md rule 16). Send
    ``headers`` in both cases. ``index``, not compared by ``==``: the chosen
    offer's position in ``Produces.offers`` (the accepted type's in
    ``Consumes.media_types``), -1 for a refusal. ``params``, not compared by
    ``==`` (the media type holds them): the parameters of the offer
    ``Produces`` chose, as (name, value) pairs in the offer's order, names
    lower-case (RFC 9110 §5.6.6), values unquoted, a ``charset`` lower-case
    (``(("version", "2"),)`` for ``application/vnd.acme+json;version=2``,
    docs/web.md "Versions"); empty for a refusal and for ``Consumes``.
    """

    status: int
    media_type: str = ""
    header_items: tuple[tuple[str, str], ...] = ()
    body: str = ""
    content_type: str = ""
    index: int = field(default=-1, compare=False)
    params: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        """True when the request can proceed (status 200)."""
        return self.status == 200


#: The formats a refusal can take, as it sends them (a range naming the text's
#: charset reaches it, rule 9), and the type that admits the problem one
#: (docs/rules.md rule 16); a value of any length is read for them.
_FORMATS = Negotiator(
    ["application/problem+json", _TEXT[1], "application/json"], max_length=None
)


def _refusal(accept: HeaderValue) -> tuple[bool, Sequence[int]]:
    """Whether a refusal goes as ``application/problem+json`` (docs/rules.md
    rule 16), and where the members of ``accept`` that lenient reading
    skipped start: from one reading. As problem+json when Accept prefers it
    to ``text/plain``, or admits ``application/json`` but neither, unless a
    range refuses it (q=0); not when the header is absent or longer than
    ``DEFAULT_MAX_LENGTH``."""
    if accept is None:
        return False, ()
    accept = coerce_value(accept)  # a bytearray copied once
    (problem, text, json_), starts = _FORMATS._refusal(accept)
    if header_length(accept) > DEFAULT_MAX_LENGTH:
        return False, starts
    # -1: no range matches the format; 0: one refuses it
    return problem > max(text, 0) or (problem < 0 and text <= 0 and json_ > 0), starts


def prefers_problem_json(accept: HeaderValue) -> bool:
    """Whether a refusal goes as ``application/problem+json`` (``_refusal``);
    not when the header is absent or longer than ``DEFAULT_MAX_LENGTH``."""
    if accept is None:
        return False
    accept = coerce_value(accept)  # a bytearray copied once
    return header_length(accept) <= DEFAULT_MAX_LENGTH and _refusal(accept)[0]


#: The header a 415 adds for a request method (compared case-sensitively,
#: RFC 9110 §9.1), naming the types taken as that method's content: W3C LDP
#: §7.1, RFC 5789 §2.2 and §3.1, RFC 10008 §3.
METHOD_FIELDS = {
    "POST": "Accept-Post",
    "PATCH": "Accept-Patch",
    "QUERY": "Accept-Query",
}


def json_text(value: object) -> str:
    """``value`` as JSON text (RFC 8259), as every problem+json member is
    written: ``json.dumps``' defaults (non-ASCII escaped, ``", "`` between
    members, ``": "`` after a name), no NaN or infinity (a ``ValueError``:
    no JSON number, RFC 8259 §6)."""
    return json.dumps(value, allow_nan=False)


#: What the plain-text form of an error writes as U+FFFD: the controls but
#: HTAB (``CTL_BUT_HTAB_CHARS``, and C1) and the explicit bidirectional
#: formatting characters (Unicode UAX #9 §2.1-2.5: U+202A-U+202E,
#: U+2066-U+2069), which a message holding request data could use to move a
#: terminal's cursor or to reorder what a reader sees; its line boundaries
#: (``str.splitlines``'), controls among them, are spaces before.
_UNSHOWN = dict.fromkeys(
    (
        *map(ord, CTL_BUT_HTAB_CHARS),
        *range(0x80, 0xA0),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
    ),
    "\ufffd",
)


def error_decision(
    status: int,
    detail: str | None,
    problem_json: bool,
    *extra: tuple[str, str],
    title: str | None = None,
    type_: str = "about:blank",
    members: tuple[tuple[str, str], ...] = (),
    listed: Sequence[str] = (),
    listed_as: str = "",
    listed_key: str = "acceptable",
) -> Decision:
    """An error's answer (docs/rules.md rule 16): ``application/problem+json``
    (RFC 9457 §3: ``type``, ``title``, by default the status's phrase as §4.2.1
    asks for ``about:blank``, ``status``, ``detail`` where given, then the
    extension ``members``, pairs of a name and its value already in JSON, and
    where there is ``listed_as``, ``listed`` as ``listed_key``) or
    ``text/plain`` (``<status> <title>: <detail>`` in one line, each of
    ``str.splitlines``' boundaries a space, each other character of
    ``_UNSHOWN`` U+FFFD, then ``listed_as`` and ``listed`` one a line), with
    the ``extra`` headers."""
    title = reason_phrase(status) if title is None else title
    if listed_as:
        members = (*members, (listed_key, json_text(list(listed))))
    if problem_json:
        problem: dict[str, object] = {"type": type_, "title": title, "status": status}
        if detail is not None:
            problem["detail"] = detail
        body = json_text(problem)
        if members:
            # The same text as json_text of the object with the members
            # added last: json_text ends an object with "}" and writes each
            # member after another as ", " name ": " value.
            written = "".join(
                f", {json_text(name)}: {value}" for name, value in members
            )
            body = f"{body[:-1]}{written}}}"
        return Decision(status, "", (_PROBLEM, *extra), body)
    # Joined by + (the tail too): a str subclass (a str enum) gives its text,
    # as in the JSON form, not its format(). One line of characters that
    # show as they are, whatever the title or detail holds (a framework
    # error's message may hold request data).
    said = f"{status} " + title + ("" if detail is None else ": " + detail)
    said = " ".join(said.splitlines()).translate(_UNSHOWN)
    tail = f" {listed_as}" + "".join("\n" + t for t in listed) if listed_as else ""
    return Decision(status, "", (_TEXT, *extra), f"{said}{tail}\n")


def _too_large(field: str, length: int, limit: int, problem_json: bool) -> Decision:
    """431 Request Header Fields Too Large (RFC 6585 §5), ``Vary: Accept``."""
    summary = f"the {field} header is {characters_long(length)}; the limit is {limit}."
    return error_decision(431, summary, problem_json, _VARY)


#: The names ``formats=True`` gives the offered media types (docs/web.md,
#: "Format override"): a ``+json`` type (RFC 6839 §3.1) is json too, and
#: YAML's deprecated aliases are yaml (RFC 9512 §2.1).
STANDARD_FORMATS = {
    "application/json": "json",
    "text/html": "html",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/plain": "txt",
    "text/markdown": "md",
    "application/yaml": "yaml",
    "application/x-yaml": "yaml",
    "text/yaml": "yaml",
    "text/x-yaml": "yaml",
}
#: The longest format name; a longer value names no format.
FORMAT_MAX_LENGTH = 32

#: What ``formats=`` takes: names -> offered media types, or True, or None.
FormatSpec = Mapping[str, str] | Iterable[tuple[str, str]] | bool | None


def _format_indexes(
    formats: FormatSpec, media_types: Sequence[str], parsed: Sequence[ParsedOffer]
) -> tuple[dict[str, int], bool | tuple[tuple[str, str], ...] | None]:
    """The offer index of each format name, lower-case (docs/web.md, "Format
    override"): the standard names of the offered types for True (the first
    offer of each name), the names given otherwise; none for None or False.
    Then ``formats`` as given again (pairs as a tuple)."""
    if formats is None or formats is False:
        return {}, formats
    if formats is True:
        named: dict[str, int] = {}
        for index, offer in enumerate(parsed):
            name = STANDARD_FORMATS.get(f"{offer.type}/{offer.subtype}")
            if name is None and offer.subtype.endswith("+json"):
                name = "json"
            if name is not None:
                named.setdefault(shared_key(name), index)
        if not named:
            raise ValueError(
                "formats=True: none of the offers has a standard format name "
                f"({', '.join(sorted(set(STANDARD_FORMATS.values())))}); give a "
                "mapping of names to offers"
            )
        return named, True
    wanted = (
        "formats must be a mapping of names to offered media types, True or None, not"
    )
    if isinstance(formats, str | bytes) or not isinstance(formats, Iterable):
        raise TypeError(f"{wanted} {type(formats).__name__}")
    refuse_a_set(formats, wanted, "formats")
    pairs = tuple(formats.items() if isinstance(formats, Mapping) else formats)
    first: dict[str, int] = {}  # each media type's first offer
    for index, offered in enumerate(media_types):
        first.setdefault(offered, index)
    named = {}
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(
                f"each format must be a (name, media type) pair, not {shown(pair)}"
            )
        name, media_type = pair
        if not isinstance(name, str):
            raise TypeError(f"a format's name must be a str, not {type(name).__name__}")
        if not isinstance(media_type, str):
            raise TypeError(
                f"format {shown(name)}: the media type must be a str, not "
                f"{type(media_type).__name__}"
            )
        if len(name) > FORMAT_MAX_LENGTH or not is_token(name):
            raise ValueError(
                f"invalid format name {shown(name)}: a token of 1 to "
                f"{FORMAT_MAX_LENGTH} characters (RFC 9110 §5.6.2)"
            )
        key = ascii_lower(name)
        if key in named:
            raise ValueError(
                f"format name {shown(name)} is given twice (names ignore case)"
            )
        if media_type not in first:
            raise ValueError(
                f"format {shown(name)}: {shown(media_type)} is not one of the offers "
                f"{media_types}"
            )
        named[shared_key(key)] = first[media_type]
    return named, pairs


def _once_each(offers: Sequence[OfferSpec]) -> tuple[ParsedOffer, ...]:
    """The offers parsed; a ``ValueError`` for a media type given twice,
    whatever its qs (``_given_once``)."""
    parsed = tuple(parse_offers(offers))
    _given_once("offer", offers, [(o.type, o.subtype, o.params) for o in parsed])
    return parsed


def _given_once(
    noun: str, given: Sequence[object], named: Iterable[tuple[str, str, dict[str, str]]]
) -> None:
    """A ``ValueError`` for an item of ``given`` that names, by ``named``
    (each one's lower-case type and subtype, and its parameters as
    ``compared_params`` gives them), the media type of an earlier one: as
    RFC 9110 §8.3.1 compares them, parameters in any order. The later one
    could never be chosen."""
    seen: dict[tuple[str, str, frozenset[tuple[str, str]]], object] = {}
    for item, (type_, subtype, params) in zip(given, named, strict=True):
        key = (type_, subtype, frozenset(params.items()))
        if key in seen:
            raise ValueError(
                f"{noun} {shown(item)} repeats {shown(seen[key])}: give each media "
                "type once"
            )
        seen[key] = item


def _variants(
    parsed: Sequence[ParsedOffer], default: str | None
) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Each offer's ``Variants`` and ``Variant-Key`` header pairs, for a
    cache that chooses among stored responses itself (draft-ietf-httpbis-
    variants-06 §2, §3, appendix A.1; docs/web.md, "Variants for caches").

    The available-values are the offers' ``type/subtype`` in order (an
    RFC 9651 Token, or a String where it is none), under the key
    ``accept``. The draft's algorithm reads only those and the client's
    weights, so offers it would choose otherwise are a ``ValueError``: two
    of one type and subtype, an explicit one, a qs other than 1, a
    ``default`` that is not the first (its fallback is the first listed).
    """
    keys: dict[str, str] = {}  # each offer's essence, and the offer's text
    for offer in parsed:
        essence = f"{offer.type}/{offer.subtype}"
        if essence in keys:
            raise ValueError(
                f"variants: offers {shown(offer.value)} and {shown(keys[essence])} "
                "differ only in parameters, which Variants cannot tell apart"
            )
        if offer.explicit or offer.qs != 1000:
            why = "is explicit" if offer.explicit else "has a qs other than 1"
            raise ValueError(
                f"variants: offer {shown(offer.value)} {why}, which a cache choosing "
                "by Variants does not know"
            )
        keys[essence] = offer.value
    if default is not None and default != parsed[0].value:
        raise ValueError(
            f"variants: default {shown(default)} must be the first offer, the one "
            "a cache choosing by Variants falls back to"
        )
    listed = ("Variants", f"accept=({' '.join(map(bare_item, keys))})")
    return tuple((listed, ("Variant-Key", f"({bare_item(key)})")) for key in keys)


def versioned_offers(
    base: str, versions: Iterable[str], default: str, param: str
) -> dict[str, str]:
    """``Produces.versioned``'s offers, by version, its arguments checked;
    ``param`` is not ``q`` (the weight, RFC 9110 §12.4.2) nor a parameter of
    ``base``."""
    for argument, value in (("base", base), ("default", default), ("param", param)):
        if not isinstance(value, str):
            raise TypeError(f"{argument} must be a str, not {type(value).__name__}")
    # Written as their text: a str enum's format() is its name on Python 3.11+.
    base, param = str.__str__(base), str.__str__(param)
    given = offers_tuple(versions, "versions")
    name = ascii_lower(param)
    if not is_token(param) or name == "q":
        raise ValueError(
            f"invalid param {shown(param)}: a parameter name is a token, and 'q' is "
            "the weight (RFC 9110 §5.6.6, §12.4.2)"
        )
    try:
        parsed = parse_offer(base)
    except ValueError as error:
        raise ValueError(f"base: {error}") from None
    if name in parsed.params:
        raise ValueError(f"base {shown(base)} has a {shown(param)} parameter already")
    if not given:
        raise ValueError("versions: give at least one version")
    spelled: dict[str, str] = {}  # each version by its value as compared (rule 9)
    for version in given:
        if not isinstance(version, str):
            raise TypeError(
                f"each of versions must be a str, not {type(version).__name__}"
            )
        if not is_token(version):
            raise ValueError(
                f"invalid version {shown(version)}: a token (RFC 9110 §5.6.2)"
            )
        if compared_value(name, version) in spelled:
            raise ValueError(f"version {shown(version)} is given twice")
        spelled[compared_value(name, version)] = version
    chosen = spelled.get(compared_value(name, default))  # as the versions spell it
    if chosen is None:
        raise ValueError(f"default {shown(default)} is not one of the versions {given}")
    ordered = (chosen, *(version for version in given if version != chosen))
    return {version: f"{base};{param}={str.__str__(version)}" for version in ordered}


class Produces(ByArguments):
    """The media types a resource can send, and the answer to each Accept value.

    ``offers`` are concrete types (``type/subtype[;params]``) in order of
    preference, each alone or as a ``(media type, qs)`` pair (docs/rules.md
    rule 15). ``select(accept)`` gives the chosen media type, as
    ``Content-Type``; when none is acceptable, 406 listing the media types of
    qs above 0, or ``default`` (one of the offers) instead (RFC 9110 §12.4.1
    allows either): without a ``default``, offers all at qs 0 are a
    ``ValueError``. 431 when the value is longer than ``max_length``. A
    missing header (None) accepts every offer but an explicit one (rule 21):
    the highest qs, then the first offer. Every answer Accept decides carries
    ``Vary: Accept`` (§12.5.5).

    ``formats`` names offers for a request that says its format itself (a
    query parameter, docs/web.md "Format override"): a mapping of names to
    offered media types, or True for the standard names of the offered types
    (that section's table). ``select(accept, format=name)`` then chooses the
    named offer whatever Accept says, without ``Vary: Accept``; a name it does
    not know (ignoring case) is 406 listing the names. ``Produces.versioned``
    offers the versions of one media type (docs/web.md, "Versions").

    ``variants=True`` adds ``Variants`` and ``Variant-Key`` beside ``Vary``
    on every answer that chooses by Accept, for a cache that implements
    draft-ietf-httpbis-variants-06 (docs/web.md, "Variants for caches").
    """

    __slots__ = (
        "_available",
        "_by_format",
        "_cache_size",
        "_chosen",
        "_default",
        "_default_index",
        "_format_index",
        "_format_refusals",
        "_formats",
        "_max_length",
        "_negotiator",
        "_parsed",
        "_refusals",
        "_variants",
    )

    #: The headers that the answer choosing an offer carries besides its
    #: own, by the offer's media type as given (none: no more): a subclass's,
    #: which makes them with its offers (``fastaccept.agents``: the HTML's
    #: ``Link`` to the Markdown); a type it names that is no offer is a
    #: ``ValueError`` when the object is made.
    _offer_headers: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {}

    def __init__(
        self,
        offers: Iterable[OfferSpec],
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
        variants: bool = False,
    ) -> None:
        checked_flag(variants, "variants")
        self._negotiator = Negotiator(
            offers, cache_size=cache_size, max_length=max_length
        )  # which checks both (_limits)
        self._max_length = checked_max_length(max_length)
        self._cache_size = checked_cache_size(cache_size)
        self._default = default
        media_types = self._negotiator.media_types
        if not media_types:
            raise ValueError("Produces needs at least one media type to offer")
        #: The offers parsed (``Renderers`` reads their charsets).
        self._parsed = _once_each(self._negotiator.offers)
        self._variants = variants
        strangers = [name for name in self._offer_headers if name not in media_types]
        if strangers:
            raise ValueError(
                f"{type(self).__name__} adds headers to the answers of "
                f"{strangers}, which are not among the offers {media_types}"
            )
        if default is not None and not isinstance(default, str):
            raise TypeError(
                "default must be a str, one of the offers' media types, or None, "
                f"not {type(default).__name__}"
            )
        if default is not None and default not in media_types:
            raise ValueError(
                f"default {shown(default)} is not one of the offers {media_types}"
            )
        own = [self._offer_headers.get(media_type, ()) for media_type in media_types]
        described = (
            _variants(self._parsed, default) if variants else ((),) * len(media_types)
        )
        #: The answer choosing each offer by Accept, by index (``_by_format``:
        #: by its name).
        self._chosen = tuple(
            Decision(
                200,
                media_type,
                # The header's value is the offer's text: a str subclass (a
                # str enum) would reach the server as itself (PEP 3333 wants a
                # str) and be written as its str() ("MediaType.JSON").
                (
                    ("Content-Type", str.__str__(media_type)),
                    _VARY,
                    *described[i],
                    *own[i],
                ),
                index=i,
                params=tuple(self._parsed[i].params.items()),
            )
            for i, media_type in enumerate(media_types)
        )
        #: The media types a 406 lists: those with a qs above 0 (an explicit
        #: one too: a client reaches it by naming it), the highest qs first.
        by_qs = sorted(self._parsed, key=lambda offer: -offer.qs)
        self._available = tuple(offer.value for offer in by_qs if offer.qs > 0)
        if not self._available and default is None:
            raise ValueError(
                f"no offer has a qs above 0: {media_types} are never chosen, "
                "so every request would get a 406 listing none; give one a qs "
                "above 0, or a default"
            )
        #: The offer chosen when none is acceptable; -1: answer 406.
        self._default_index = -1 if default is None else media_types.index(default)
        #: The 406s decided ahead, as text/plain and as problem+json (rule 16),
        #: then, where an absent header reaches no offer (each of a qs above
        #: 0 explicit, rule 21), the one to it (plain text), which says so;
        #: ``Renderers`` makes them into whole responses once.
        refusals = []
        if default is None:
            refusals = [_not_acceptable(self._available, j) for j in (False, True)]
            if self._negotiator.choose_index(None) < 0:
                refusals.append(_not_acceptable(self._available, False, absent=True))
        self._refusals = tuple(refusals)
        #: The format names' offer indexes, and the formats as given again.
        self._format_index, self._formats = _format_indexes(
            formats, media_types, self._parsed
        )
        #: The answer choosing each offer by its name: no ``Vary: Accept``.
        self._by_format = tuple(
            replace(answer, header_items=(answer.header_items[0], *extra))
            for answer, extra in zip(self._chosen, own, strict=True)
        )
        #: The 406s to a name not known, as text/plain and as problem+json,
        #: listing the names (the request's own value is not repeated).
        names = list(self._format_index)
        self._format_refusals = tuple(
            error_decision(
                406,
                UNKNOWN_FORMAT,
                problem_json,
                _VARY,
                listed=names,
                listed_as="Formats:",
                listed_key="formats",
            )
            for problem_json in ((False, True) if names else ())
        )

    @classmethod
    def versioned(
        cls,
        base: str,
        versions: Iterable[str],
        *,
        default: str,
        param: str = "version",
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
    ) -> Self:
        """The versions of one media type, as its parameter ``param``
        (docs/web.md, "Versions"): the offers ``base;param=version``, the
        ``default`` version's first, then the others in the order given.

        By docs/rules.md rules 9 and 11, a request naming ``base`` without
        the parameter, ``*/*`` or no Accept gets ``default``; one naming
        versions gets the one it prefers (``*/*;version=1`` too); one naming
        only versions not offered gets 406 listing the offers.
        ``Decision.params`` holds the version chosen. Versions are tokens,
        each given once, ``default`` among them; ``max_length``,
        ``cache_size`` and ``formats`` are as for ``Produces``.
        """
        offers = versioned_offers(base, versions, default, param).values()
        return cls(
            offers, max_length=max_length, cache_size=cache_size, formats=formats
        )

    @property
    def offers(self) -> tuple[OfferSpec, ...]:
        """The offers, in order of preference."""
        return self._negotiator.offers

    @property
    def media_types(self) -> tuple[str, ...]:
        """The offers' media types, in order (a pair's first item; the very
        strings given): ``Decision.index`` counts in this tuple."""
        return self._negotiator.media_types

    @property
    def formats(self) -> dict[str, str]:
        """The format names (lower-case) and the media types they choose, as
        a new dict; empty where there is no format override."""
        types = self.media_types
        return {name: types[index] for name, index in self._format_index.items()}

    @property
    def default(self) -> str | None:
        """The media type sent when none is acceptable; None: answer 406."""
        return self._default

    @property
    def max_length(self) -> int | None:
        """The longest Accept value read; longer ones get 431. None: no limit."""
        return self._max_length

    @property
    def variants(self) -> bool:
        """Whether answers chosen by Accept carry ``Variants`` and
        ``Variant-Key``."""
        return self._variants

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        given: dict[str, Any] = {
            "default": self._default,
            "max_length": self._max_length,
            "cache_size": self._cache_size,
        }
        if self._formats is not None:
            given["formats"] = self._formats
        if self._variants:
            given["variants"] = True
        return (self.offers,), given

    def select(self, accept: HeaderValue, format: str | None = None) -> Decision:
        """The answer to a request with this Accept value (None: header absent).

        ``format``, the format the request names (a str; None or ``""``:
        none), wins over Accept where there are ``formats``; it is not read
        otherwise.
        """
        if format is not None:
            if not isinstance(format, str):
                raise TypeError(
                    f"format must be a str or None, not {type(format).__name__}"
                )
            if type(format) is not str:  # a subclass's text, not its methods'
                format = str.__str__(format)
            if accept is not None and type(accept) not in (str, bytes):
                accept = coerce_value(accept)  # its TypeError, read or not; copied once
            if format and self._format_index:  # the offer it names, else 406
                if len(format) <= FORMAT_MAX_LENGTH:
                    index = self._format_index.get(ascii_lower(format))
                    if index is not None:
                        return self._by_format[index]
                return self._format_refusals[prefers_problem_json(accept)]
        try:
            index = self._negotiator.choose_index(accept)
        except AcceptError as error:  # the only one lenient mode raises: too long
            assert self._max_length is not None
            # The refused value is not read further: plain text.
            return _too_large(
                "Accept", header_length(error.value), self._max_length, False
            )
        if index >= 0:
            return self._chosen[index]
        if self._default_index >= 0:
            return self._chosen[self._default_index]
        if accept is None:  # no offer reaches an absent header (rule 21)
            return self._refusals[2]
        # 406: its format (rule 16) and where skipped members start (none's
        # reason written), from one reading
        problem_json, starts = _refusal(accept)
        if starts:
            return _not_acceptable(self._available, problem_json, starts)
        return self._refusals[problem_json]


#: The offsets of skipped members a 406 lists, at most (then how many more).
_OFFSETS_SHOWN = 10


#: What a 406 says (in its body, and in a route's OpenAPI description): an
#: Accept that allows none of the offers; no Accept, where each offer of a
#: qs above 0 is explicit (docs/rules.md rule 21); a format name not known.
NONE_ACCEPTABLE = "the Accept header allows none of the media types this resource has."
NO_ACCEPT = (
    "the request has no Accept header, and the media types available are "
    "sent only to a request that names them."
)
UNKNOWN_FORMAT = "the format the request names is none of this resource's formats."


def _not_acceptable(
    available: Sequence[str],
    problem_json: bool,
    skipped: Sequence[int] = (),
    *,
    absent: bool = False,
) -> Decision:
    """406 listing the ``available`` types (RFC 9110 §15.5.7), and where the
    members that lenient reading skipped start (``skipped``; none of their
    text); to a request without Accept (``absent``), that each is sent only
    to a request naming it (docs/rules.md rule 21)."""
    summary = NO_ACCEPT if absent else NONE_ACCEPTABLE
    if skipped:
        offsets = ", ".join(str(start) for start in skipped[:_OFFSETS_SHOWN])
        if len(skipped) > _OFFSETS_SHOWN:  # the body stays short
            offsets += f" and {len(skipped) - _OFFSETS_SHOWN} more"
        one = len(skipped) == 1
        summary += (
            f" {len(skipped)} of its members {'was' if one else 'were'} malformed"
            f" and skipped (at {'offset' if one else 'offsets'} {offsets})."
        )
    return error_decision(
        406, summary, problem_json, _VARY, listed=available, listed_as="Available:"
    )


class Consumes(ByArguments):
    """The media types a resource takes in a request body, and the check of each.

    ``media_types`` may be ranges (``image/*``, ``application/*+json``: docs/rules.md
    rule 22) with parameters, each given once; a request's
    ``Content-Type`` (RFC 9110 §8.3, where ``q`` is no weight) is accepted
    when one of them matches it as in Accept (docs/rules.md rule 9).
    ``check(content_type)`` gives the first matching type (the string given)
    with the request's own media type as ``content_type``; 415 with an
    ``Accept`` response header listing them (RFC 9110 §15.5.16) when the
    Content-Type is missing, malformed or not accepted; 431 over
    ``max_length`` (None: no limit). A refusal takes the format the
    request's ``accept`` prefers (rule 16; plain text for None, the header
    absent) and carries ``Vary: Accept``; given its ``method``, a 415 to
    POST also carries ``Accept-Post`` (W3C LDP §7.1), to PATCH
    ``Accept-Patch`` (RFC 5789 §2.2), to QUERY ``Accept-Query`` (RFC 10008
    §3). ``accept``, ``accept_post``, ``accept_patch`` and ``accept_query``
    are those headers' values, for an answer to OPTIONS too
    (``accept_patch`` the types that are no ranges, RFC 5789 §3.1 listing
    media types; ``accept_query`` None where a type's parameter names are
    no RFC 9651 keys, a parameter value is not printable ASCII, or a type is
    a suffix range, so that Accept-Query cannot carry it; where a value is
    None, a 415 to that method has no such header).
    """

    __slots__ = (
        "_max_length",
        "_named",
        "_ranges",
        "_refusals",
        "_taken",
        "_unsupported",
        "accept",
        "accept_patch",
        "accept_query",
        "media_types",
    )

    def __init__(
        self, media_types: Iterable[str], *, max_length: int | None = DEFAULT_MAX_LENGTH
    ) -> None:
        types = offers_tuple(media_types, "media_types")
        if not types:
            raise ValueError("Consumes needs at least one media type")
        ranges = []
        for item in types:
            rng, weighted = parse_single(item, "media type")
            if weighted:
                raise ValueError(
                    f"invalid media type {shown(item)}: it takes no weight"
                )
            unpadded(item, "media type")  # as an offer (the decision's media_type)
            ranges.append(MediaRange._make(rng))
        _given_once(
            "media type",
            types,
            [(t, sub, compared_params(params)) for t, sub, params, _ in ranges],
        )
        #: The media types taken, as given.
        self.media_types: Final = types
        self._ranges = tuple(ranges)
        self._max_length = checked_max_length(max_length)
        #: The ``Accept`` response header value that lists the types.
        self.accept: Final = format_accept(self._ranges)
        #: The ``Accept-Patch`` value that lists those that are no ranges
        #: (RFC 5789 §3.1: media types), if there is one.
        types_alone = [rng for rng in ranges if not rng.subtype.startswith("*")]
        self.accept_patch: Final = format_accept(types_alone) if types_alone else None
        #: The ``Accept-Query`` value that lists them (RFC 10008 §3), if it can.
        accept_query: str | None
        try:
            accept_query = format_accept_query(self._ranges)
        except ValueError:
            accept_query = None
        self.accept_query: Final = accept_query
        #: The 415s by (problem, the method's own header or "", as
        #: problem+json): made ahead for a missing or malformed type, on
        #: first use for one not taken (by the type, in a bounded cache).
        self._unsupported = {
            (problem, header, as_problem): self._unsupported_type(
                problem, header, as_problem
            )
            for problem in ("is missing", "is malformed")
            for header in ("", *METHOD_FIELDS.values())
            for as_problem in (False, True)
        }
        self._refusals = tuple(self._unsupported.values())
        self._named: dict[tuple[str, str, bool], Decision] = {}
        #: The answers to the Content-Type values taken, by the value's text
        #: (a bounded cache, as the 415s': a server's clients send a few).
        self._taken: dict[str, Decision] = {}

    @property
    def max_length(self) -> int | None:
        """The longest Content-Type value read; longer ones get 431. None: no
        limit."""
        return self._max_length

    @property
    def accept_post(self) -> str:
        """The ``Accept-Post`` response header value (W3C LDP §7.1): as
        ``accept``, the types in an Accept value's form."""
        return self.accept

    def _method_field(self, name: str) -> tuple[tuple[str, str], ...]:
        """The header ``name`` of ``METHOD_FIELDS`` (``""``: none) as a 415
        adds it, a (name, value) pair; none where it cannot list the types
        taken."""
        if name == "Accept-Query":
            value = self.accept_query
        else:
            value = self.accept_patch if name == "Accept-Patch" else self.accept
        return () if not name or value is None else ((name, value),)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.media_types,), {"max_length": self._max_length}

    def check(
        self,
        content_type: HeaderValue,
        accept: HeaderValue = None,
        *,
        method: str | None = None,
    ) -> Decision:
        """The answer to a request whose body has this Content-Type (None:
        absent); ``accept`` (the request's Accept) chooses a refusal's format,
        ``method`` (compared case-sensitively, RFC 9110 §9.1) the header a 415
        adds."""
        if method is None:
            header = ""
        elif isinstance(method, str):  # a subclass's (http.HTTPMethod's) by its text
            header = METHOD_FIELDS.get(str.__str__(method), "")
        else:
            raise TypeError(
                f"method must be a str or None, not {type(method).__name__}"
            )
        if accept is not None and type(accept) not in (str, bytes):
            accept = coerce_value(accept)  # its TypeError, read or not; copied once
        text = ""  # absent
        if content_type is not None:  # its type checked before its length
            content_type = coerce_value(content_type, "Content-Type")
            length = header_length(content_type)  # its text's (rule 8)
            if self._max_length is not None and length > self._max_length:
                return _too_large(
                    "Content-Type",
                    length,
                    self._max_length,
                    prefers_problem_json(accept),
                )
            text = as_header_text(content_type)[0]
        try:  # by subscript, not .get (docs/free-threading.md)
            return self._taken[text]
        except KeyError:
            pass
        if not text.strip(OWS_CHARS):  # absent, empty or OWS alone (RFC 9110 §5.5)
            return self._unsupported["is missing", header, prefers_problem_json(accept)]
        try:
            rng, offer = parse_content_type(text, "Content-Type")
        except ValueError:
            return self._unsupported[
                "is malformed", header, prefers_problem_json(accept)
            ]
        received = MediaRange._make(rng)
        for index, accepted_range in enumerate(self._ranges):
            if range_matches(accepted_range, offer):
                taken = Decision(
                    200,
                    self.media_types[index],
                    content_type=str(received),
                    index=index,
                )
                if len(text) > CACHE_KEY_MAX_LENGTH:  # as store's keys
                    return taken
                return store(self._taken, VALUES_KEPT, text, taken)
        # Named by its type and subtype, tokens: nothing else is sent back.
        key = (received.essence, header, prefers_problem_json(accept))
        try:  # by subscript, not .get (docs/free-threading.md)
            return self._named[key]
        except KeyError:
            bare = offer._replace(params={})  # its type and subtype taken?
            named = excerpt(received.essence)
            if any(range_matches((t, s, (), 0), bare) for t, s, _, _ in self._ranges):
                problem = f"({named}) is not accepted here with the parameters it has"
            else:
                problem = f"({named}) is not one this resource accepts"
            made = self._unsupported_type(problem, header, key[2])
            if len(received.essence) > CACHE_KEY_MAX_LENGTH:  # as store's keys
                return made
            return store(self._named, VALUES_KEPT, key, made)

    def _unsupported_type(
        self, problem: str, header: str, problem_json: bool
    ) -> Decision:
        """415 listing the types taken, with them as ``Accept`` (RFC 9110
        §15.5.16), and as ``header`` too, the request method's own header
        (``METHOD_FIELDS``) or none (``""``); ``Vary: Accept``, as Accept
        chooses its format (rule 14)."""
        return error_decision(
            415,
            f"the request's Content-Type {problem}.",
            problem_json,
            ("Accept", self.accept),
            *self._method_field(header),
            _VARY,
            listed=self.media_types,
            listed_as="This resource accepts:",
        )
