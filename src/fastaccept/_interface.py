"""The engine interface, written once: what each engine module provides.

Both engines, the Cython ``_scan`` (typed by its stub) and the pure-Python
``_scan_py``, are checked against ``Engine`` by mypy where ``_engine`` picks
one; the test suite drives either through it. ``EncodingLanguageEngine`` is
its Accept-Encoding and Accept-Language part (RFC 9110 §12.5.3-4). ``DOCS``
is the documented behaviour of their public functions and methods, given to
both by ``document``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Protocol, TypeVar, overload

from ._member import OfferSpec
from ._text import HeaderText, HeaderValue
from ._types import Accept, AcceptEncoding, AcceptLanguage

_D = TypeVar("_D")


class NegotiatorAPI(Protocol):
    """A ``Negotiator``: offers parsed once, a choice per request."""

    @property
    def offers(self) -> tuple[OfferSpec, ...]: ...
    @property
    def media_types(self) -> tuple[str, ...]: ...
    def choose_index(self, value: HeaderValue) -> int: ...
    @overload
    def choose(self, value: HeaderValue) -> str | None: ...
    @overload
    def choose(self, value: HeaderValue, default: _D) -> str | _D: ...
    def rank(self, value: HeaderValue) -> list[tuple[str, float]]: ...


class NegotiatorClass(Protocol):
    """The ``Negotiator`` class: its constructor."""

    def __call__(
        self,
        offers: Iterable[OfferSpec],
        *,
        cache_size: int = ...,
        max_length: int | None = ...,
    ) -> NegotiatorAPI: ...


class EncodingNegotiatorAPI(Protocol):
    """An ``EncodingNegotiator``: codings validated once, a choice per request."""

    @property
    def codings(self) -> tuple[str, ...]: ...
    def choose_index(self, value: HeaderValue) -> int: ...
    @overload
    def choose(self, value: HeaderValue) -> str | None: ...
    @overload
    def choose(self, value: HeaderValue, default: _D) -> str | _D: ...
    def rank(self, value: HeaderValue) -> list[tuple[str, float]]: ...


class EncodingNegotiatorClass(Protocol):
    """The ``EncodingNegotiator`` class: its constructor."""

    def __call__(
        self,
        codings: Iterable[str],
        *,
        cache_size: int = ...,
        max_length: int | None = ...,
    ) -> EncodingNegotiatorAPI: ...


class LanguageNegotiatorAPI(Protocol):
    """A ``LanguageNegotiator``: tags validated once, a choice per request."""

    @property
    def tags(self) -> tuple[str, ...]: ...
    def choose_index(self, value: HeaderValue) -> int: ...
    @overload
    def choose(self, value: HeaderValue) -> str | None: ...
    @overload
    def choose(self, value: HeaderValue, default: _D) -> str | _D: ...
    def rank(self, value: HeaderValue) -> list[tuple[str, float]]: ...


class LanguageNegotiatorClass(Protocol):
    """The ``LanguageNegotiator`` class: its constructor."""

    def __call__(
        self,
        tags: Iterable[str],
        *,
        cache_size: int = ...,
        max_length: int | None = ...,
    ) -> LanguageNegotiatorAPI: ...


class EncodingLanguageEngine(Protocol):
    """The Accept-Encoding and Accept-Language half of an engine module."""

    @property
    def EncodingNegotiator(self) -> EncodingNegotiatorClass: ...
    @property
    def LanguageNegotiator(self) -> LanguageNegotiatorClass: ...
    def parse_encoding(
        self, value: HeaderValue, *, strict: bool = ..., max_length: int | None = ...
    ) -> AcceptEncoding: ...
    def parse_language(
        self, value: HeaderValue, *, strict: bool = ..., max_length: int | None = ...
    ) -> AcceptLanguage: ...
    @overload
    def negotiate_encoding(
        self,
        value: HeaderValue,
        codings: Iterable[str],
        *,
        max_length: int | None = ...,
    ) -> str | None: ...
    @overload
    def negotiate_encoding(
        self,
        value: HeaderValue,
        codings: Iterable[str],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> str | _D: ...
    @overload
    def negotiate_language(
        self,
        value: HeaderValue,
        tags: Iterable[str],
        *,
        max_length: int | None = ...,
    ) -> str | None: ...
    @overload
    def negotiate_language(
        self,
        value: HeaderValue,
        tags: Iterable[str],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> str | _D: ...


class Engine(EncodingLanguageEngine, Protocol):
    """An engine module: the functions and the classes the public API exposes."""

    @property
    def Negotiator(self) -> NegotiatorClass: ...
    def parse(
        self, value: HeaderValue, *, strict: bool = ..., max_length: int | None = ...
    ) -> Accept: ...
    def is_cors_safelisted(self, value: HeaderText) -> bool: ...
    @overload
    def negotiate(
        self,
        value: HeaderValue,
        offers: Iterable[OfferSpec],
        *,
        max_length: int | None = ...,
    ) -> str | None: ...
    @overload
    def negotiate(
        self,
        value: HeaderValue,
        offers: Iterable[OfferSpec],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> str | _D: ...
    def quality(
        self, value: HeaderValue, media_type: str, *, max_length: int | None = ...
    ) -> float: ...


_VALUE_INPUT: Final = """\
``value`` is str, bytes, bytearray or memoryview (bytes read as Latin-1), or
None for an absent header (``.present`` is then False). Lenient mode (the
default) skips each member that breaks a rule and lists it in ``.skipped``;
``strict=True`` raises ``AcceptError`` at the first violation, with its
position. A value longer than ``max_length`` characters raises
``AcceptError`` in both modes; ``max_length=None`` lifts the limit.
"""

#: What each public function and ``Negotiator`` method does, by name.
DOCS: Final = {
    "parse": """Parse an Accept value into an ``Accept`` (RFC 9110 §12.5.1).

``value`` is str, bytes, bytearray or memoryview (bytes read as Latin-1), or
None for an absent header (``Accept.present`` is then False). Lenient mode
(the default) skips each member that breaks a rule and lists it in
``Accept.skipped``; ``strict=True`` raises ``AcceptError`` at the first
violation, with its position. A value longer than ``max_length`` characters
raises ``AcceptError`` in both modes; ``max_length=None`` lifts the limit.
""",
    "negotiate": """The best acceptable offer for an Accept value, else ``default``.

``offers`` are concrete media types in server order, each alone or as a
``(media type, qs)`` pair with the server's weight qs from 0 to 1 (docs/rules.md
rule 15); the media type returned is the very object given. The highest
score (the client's q, times qs) wins, then the offer matched by the more
specific range, then the earlier offer (RFC 9110 §12.5.1; docs/rules.md rules
10-12). ``None`` (header absent) accepts every offer at q=1: the highest qs,
then the first. A present value that accepts none gives ``default`` (answer
406, or send a default representation); qs=0 is never chosen. A wildcard or
malformed offer raises ``ValueError``. Each distinct offers list is parsed
once and recent values are cached.
""",
    "quality": """The weight an Accept value gives one concrete media type: 0.0 to 1.0.

The q of the most specific range that matches it (docs/rules.md rule 10); 0.0 when
none matches or that range has q=0; 1.0 when the header is absent (None).
""",
    "is_cors_safelisted": """Whether an ``accept`` value is CORS-safelisted.

WHATWG Fetch, "CORS-safelisted request-header": at most 128 bytes and no
CORS-unsafe request-header byte (no byte below 0x20 but tab, none of
``"():<>?@[\\]{}``, no 0x7F). The comma is allowed.
""",
    "Negotiator.choose_index": """\
The index in ``offers`` of the best offer for ``value``.

-1 when no offer is acceptable.
""",
    "Negotiator.choose": """The best acceptable offer for ``value``, else ``default``.

The very media type object given in ``offers``, by the rules of
``negotiate``; the answers for recent values come from the cache.
""",
    "Negotiator.rank": """\
The acceptable offers' media types with their score, best first.

The score is the client's q, times qs for a weighted offer; the order is the
one ``choose`` uses. A score of 0 is left out; ``None`` (header absent)
gives every offer at its qs (1.0 when unweighted).
""",
    "parse_encoding": """\
Parse an Accept-Encoding value into an ``AcceptEncoding`` (RFC 9110 §12.5.3).

Each member is ``coding[;q=w]``: a content coding, ``identity`` or ``*``
(a token, compared case-insensitively), then OWS, and an optional weight
with the qvalue grammar (RFC 9110 §12.4.2); no other parameter.
"""
    + _VALUE_INPUT,
    "parse_language": """\
Parse an Accept-Language value into an ``AcceptLanguage`` (RFC 9110 §12.5.4).

Each member is ``range[;q=w]``: ``*``, or a basic language range (RFC 4647
§2.1: 1 to 8 letters, then ``-`` and 1 to 8 letters or digits, again and
again; compared case-insensitively), then OWS, and an optional weight with
the qvalue grammar (RFC 9110 §12.4.2); no other parameter.
"""
    + _VALUE_INPUT,
    "negotiate_encoding": """\
The best acceptable coding for an Accept-Encoding value, else ``default``.

``codings`` are content codings the server can apply (``gzip``, ``br``,
``zstd``...) or ``identity``, in server order; the one returned is the very
object given. ``x-gzip`` is ``gzip`` and ``x-compress`` is ``compress``
(RFC 9110 §8.4.1.3), in the value and in ``codings``. A coding's weight is
that of its own entry, else of the ``*`` entry (an entry listed twice: its
higher q), else, for ``identity`` only, the lowest weight above 0 in the
value (1 if there is none); so ``identity;q=0``, or ``*;q=0`` without an
``identity`` entry, refuses identity (RFC 9110 §12.5.3). The highest weight
wins, then a coding's own entry over ``*`` over identity's implicit weight,
then the earlier coding (server order). ``None`` (header absent):
``identity`` if offered, else the first coding. A present value that is
empty, or has no valid member, accepts ``identity`` only. When no coding is
acceptable: ``default`` (answer 406, or send identity anyway). ``*`` or a
coding that is not a token raises ``ValueError``. Each distinct codings
list is validated once; recent values may be cached (a short value is
scanned again: that is as quick as looking it up).
""",
    "negotiate_language": """\
The best acceptable language tag for an Accept-Language value, else ``default``.

``tags`` are the languages the server has (``en``, ``fr-CA``,
``sr-Latn``...), in server order; the one returned is the very object given.
Comparisons are case-insensitive. A range relates to a tag as, closest
first: exact; filtering (RFC 4647 §3.3.1: a prefix of the tag ending at
``-``); for q > 0, lookup (§3.4: the tag is the range with subtags removed
from its end, never leaving a single-character subtag last) or the same
language (the same first subtag); ``*`` relates to what no other range
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
tags list is validated once; recent values may be cached (a short value is
scanned again: that is as quick as looking it up).
""",
}


def _list_negotiator_docs(
    cls: str, offers: str, offer: str, function: str, absent: str
) -> dict[str, str]:
    """The method docstrings of ``EncodingNegotiator`` and ``LanguageNegotiator``:
    one text, told the constructor's argument (``offers``), what one offer is,
    the one-call function whose rules apply, and the order when absent."""
    return {
        f"{cls}.choose_index": f"""\
The index in ``{offers}`` of the best {offer} for ``value``.

-1 when no {offer} is acceptable.
""",
        f"{cls}.choose": f"""\
The best acceptable {offer} for ``value``, else ``default``.

The very object given in ``{offers}``, by the rules of ``{function}``;
the answers for recent values come from the cache.
""",
        f"{cls}.rank": f"""\
The acceptable {offer}s with their weight, best first.

The order is the one ``choose`` uses; a weight of 0 is left out. ``None``
(header absent) gives every {offer} at 1.0, {absent}.
""",
    }


DOCS.update(
    _list_negotiator_docs(
        "EncodingNegotiator",
        "codings",
        "coding",
        "negotiate_encoding",
        "``identity`` first",
    )
)
DOCS.update(
    _list_negotiator_docs(
        "LanguageNegotiator",
        "tags",
        "language tag",
        "negotiate_language",
        "in server order",
    )
)

#: The methods whose docstrings ``document`` gives, per class.
_METHODS: Final = ("choose_index", "choose", "rank")


def document(functions: Iterable[Callable[..., object]], *classes: type) -> None:
    """Give an engine's public functions, and the ``choose_index``, ``choose``
    and ``rank`` methods of its negotiator classes, their ``DOCS``."""
    for function in functions:
        function.__doc__ = DOCS[function.__name__]
    for cls in classes:
        for name in _METHODS:
            getattr(cls, name).__doc__ = DOCS[f"{cls.__name__}.{name}"]
