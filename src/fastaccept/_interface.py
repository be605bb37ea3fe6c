"""The engine interface, written once: what each engine module provides.

Both engines, the Cython ``_scan`` (typed by its stub) and the pure-Python
``_scan_py``, are checked against ``Engine`` by mypy where ``_engine`` picks
one; the test suite drives either through it. ``DOCS`` is the documented
behaviour of their public functions and methods, given to both by ``document``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Protocol, TypeVar, overload

from ._member import OfferSpec
from ._text import HeaderText, HeaderValue
from ._types import Accept

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


class Engine(Protocol):
    """An engine module: the functions and the class the public API exposes."""

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
``(media type, qs)`` pair with the server's weight qs from 0 to 1 (README
rule 15); the media type returned is the very object given. The highest
score (the client's q, times qs) wins, then the offer matched by the more
specific range, then the earlier offer (RFC 9110 §12.5.1; README rules
10-12). ``None`` (header absent) accepts every offer at q=1: the highest qs,
then the first. A present value that accepts none gives ``default`` (answer
406, or send a default representation); qs=0 is never chosen. A wildcard or
malformed offer raises ``ValueError``. Each distinct offers list is parsed
once and recent values are cached.
""",
    "quality": """The weight an Accept value gives one concrete media type: 0.0 to 1.0.

The q of the most specific range that matches it (README rule 10); 0.0 when
none matches or that range has q=0; 1.0 when the header is absent (None).
""",
    "is_cors_safelisted": """Whether an ``accept`` value is CORS-safelisted.

WHATWG Fetch, "CORS-safelisted request-header": at most 128 bytes and no
CORS-unsafe request-header byte (no byte below 0x20 but tab, none of
``"():<>?@[\\]{}``, no 0x7F). The comma is allowed.
""",
    "choose_index": """The index in ``offers`` of the best offer for ``value``.

-1 when no offer is acceptable.
""",
    "choose": """The best acceptable offer for ``value``, else ``default``.

The very media type object given in ``offers``, by the rules of
``negotiate``; the answers for recent values come from the cache.
""",
    "rank": """The acceptable offers' media types with their score, best first.

The score is the client's q, times qs for a weighted offer; the order is the
one ``choose`` uses. A score of 0 is left out; ``None`` (header absent)
gives every offer at its qs (1.0 when unweighted).
""",
}


def document(functions: Iterable[Callable[..., object]], negotiator: type) -> None:
    """Give an engine's public functions and ``Negotiator`` methods their ``DOCS``."""
    for function in functions:
        function.__doc__ = DOCS[function.__name__]
    for name in ("choose_index", "choose", "rank"):
        getattr(negotiator, name).__doc__ = DOCS[name]
