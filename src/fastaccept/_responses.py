"""What a server answers, decided from a request's Accept or Content-Type.

``Produces`` negotiates a response's media type (RFC 9110 §12.5.1): the chosen
type with ``Vary: Accept`` (§12.5.5), 406 listing the available types
(§15.5.7), or 431 for an Accept value over the limit (RFC 6585 §5).
``Consumes`` checks a request's ``Content-Type`` (§8.3) against the types a
resource takes: 415 with an ``Accept`` response header naming them (§15.5.16).
Every answer is a ``Decision``; none raises for anything a client sends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from ._arguments import ByArguments
from ._engine import Negotiator
from ._errors import AcceptError
from ._format import format_accept
from ._limits import DEFAULT_CACHE_SIZE, DEFAULT_MAX_LENGTH
from ._match import range_matches
from ._member import OfferSpec, concrete, parse_single
from ._text import HeaderValue, as_header_text, coerce_value
from ._types import MediaRange

_TEXT = ("Content-Type", "text/plain; charset=utf-8")
_VARY = ("Vary", "Accept")


@dataclass(frozen=True, slots=True)
class Decision:
    """The response facts for one request.

    ``ok`` (``status`` 200): go on, and answer with your own success status;
    ``media_type`` is the chosen offer (``Produces``) or the accepted type the
    request's content matched (``Consumes``), the very string given, and for
    ``Consumes`` ``content_type`` is the request's own media type, canonical
    (``image/png`` for ``IMAGE/PNG``; parameters kept, ``q`` among them).
    Otherwise ``media_type`` is ``""``: answer ``status`` with ``body`` (plain
    text) at once. In both cases send ``headers``.
    """

    status: int
    media_type: str = ""
    header_items: tuple[tuple[str, str], ...] = ()
    body: str = ""
    content_type: str = ""

    @property
    def ok(self) -> bool:
        """True when the request can proceed."""
        return self.status == 200

    @property
    def reason(self) -> str:
        """The status's reason phrase, e.g. ``"Not Acceptable"`` (for WSGI)."""
        return HTTPStatus(self.status).phrase

    @property
    def headers(self) -> dict[str, str]:
        """The headers to send, as a new dict."""
        return dict(self.header_items)


def _listing(first_line: str, media_types: Iterable[str]) -> str:
    return first_line + "\n" + "".join(f"{t}\n" for t in media_types)


def _too_large(
    field: str, length: int, limit: int, *extra: tuple[str, str]
) -> Decision:
    """431 Request Header Fields Too Large (RFC 6585 §5)."""
    body = (
        f"431 Request Header Fields Too Large: the {field} header is {length} "
        f"characters long; the limit is {limit}.\n"
    )
    return Decision(431, "", (_TEXT, *extra), body)


class Produces(ByArguments):
    """The media types a resource can send, and the answer to each Accept value.

    ``offers`` are concrete types (``type/subtype[;params]``) in order of
    preference, each alone or as a ``(media type, qs)`` pair with the server's
    weight (README rule 15); a ``Negotiator`` of the active engine chooses
    among them. ``select(accept)`` gives: the chosen media type, with it as
    ``Content-Type`` and ``Vary: Accept``; when none is acceptable, 406 whose
    body lists the media types it can choose (qs above 0) — or, with
    ``default`` (a media type of the offers), that one instead (RFC 9110
    §12.5.1 allows either); 431 when the value is longer than ``max_length``.
    A missing header (None) accepts anything: the highest qs, then the first
    offer. Every answer carries ``Vary: Accept``, since every answer depends
    on it (§12.5.5).
    """

    __slots__ = (
        "_cache_size",
        "_chosen",
        "_default",
        "_max_length",
        "_negotiator",
        "_unacceptable",
    )

    def __init__(
        self,
        offers: Iterable[OfferSpec],
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        self._negotiator = Negotiator(
            offers, cache_size=cache_size, max_length=max_length
        )
        self._max_length = max_length
        self._cache_size = cache_size
        self._default = default
        media_types = self._negotiator.media_types
        if not media_types:
            raise ValueError("Produces needs at least one media type to offer")
        self._chosen = tuple(
            Decision(200, media_type, (("Content-Type", media_type), _VARY))
            for media_type in media_types
        )
        if default is None:
            self._unacceptable = Decision(
                406,
                "",
                (_TEXT, _VARY),
                _listing(
                    "406 Not Acceptable: the Accept header allows none of the media "
                    "types this resource has. Available:",
                    [media_type for media_type, _ in self._negotiator.rank(None)],
                ),
            )
        elif default in media_types:
            self._unacceptable = self._chosen[media_types.index(default)]
        else:
            raise ValueError(
                f"default {default!r} is not one of the offers {media_types}"
            )

    @property
    def offers(self) -> tuple[OfferSpec, ...]:
        """The offers, in order of preference."""
        return self._negotiator.offers

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.offers,), {
            "default": self._default,
            "max_length": self._max_length,
            "cache_size": self._cache_size,
        }

    def select(self, accept: HeaderValue) -> Decision:
        """The answer to a request with this Accept value (None: header absent)."""
        try:
            index = self._negotiator.choose_index(accept)
        except AcceptError as error:  # the only one lenient mode raises: too long
            assert self._max_length is not None
            return _too_large("Accept", len(error.value), self._max_length, _VARY)
        return self._unacceptable if index < 0 else self._chosen[index]


class Consumes(ByArguments):
    """The media types a resource takes in a request body, and the check of each.

    ``media_types`` may be ranges (``image/*``) and carry parameters; a
    request's ``Content-Type`` is accepted when one of them matches it by the
    rules of Accept (README rule 9: extra parameters in the request are
    allowed, ``charset`` compares case-insensitively). In a Content-Type
    (RFC 9110 §8.3) ``q`` is an ordinary parameter, not a weight.
    ``check(content_type)`` gives the first matching type (the string given)
    with the request's own media type as ``content_type``, or 415 with an
    ``Accept`` response header listing them (RFC 9110 §15.5.16) when the
    Content-Type is missing, malformed or not accepted; 431 over
    ``max_length``.
    """

    __slots__ = (
        "_accepted",
        "_max_length",
        "_ranges",
        "_unsupported",
        "accept",
        "media_types",
    )

    def __init__(
        self, media_types: Iterable[str], *, max_length: int = DEFAULT_MAX_LENGTH
    ) -> None:
        types = tuple(media_types)
        if not types:
            raise ValueError("Consumes needs at least one media type")
        ranges = []
        for item in types:
            rng, weighted = parse_single(item, "media type")
            if weighted:
                raise ValueError(f"invalid media type {item!r}: it takes no weight")
            ranges.append(MediaRange._make(rng))
        #: The media types taken, as given.
        self.media_types = types
        self._ranges = tuple(ranges)
        self._accepted = tuple(Decision(200, item) for item in types)
        self._max_length = max_length
        #: The ``Accept`` response header value that lists the types.
        self.accept = format_accept(self._ranges)
        headers = (_TEXT, ("Accept", self.accept))
        self._unsupported = {
            problem: Decision(
                415,
                "",
                headers,
                _listing(
                    f"415 Unsupported Media Type: the request's Content-Type is "
                    f"{problem}. This resource accepts:",
                    types,
                ),
            )
            for problem in ("missing", "malformed", "not one this resource accepts")
        }

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.media_types,), {"max_length": self._max_length}

    def check(self, content_type: HeaderValue) -> Decision:
        """The answer to a request whose body has this Content-Type (None: absent)."""
        if not content_type:
            return self._unsupported["missing"]
        text = as_header_text(coerce_value(content_type))[0]
        if len(text) > self._max_length:
            return _too_large("Content-Type", len(text), self._max_length)
        try:
            rng = parse_single(text, "Content-Type", weighted=False)[0]
            offer = concrete(text, rng, "Content-Type")
        except ValueError:
            return self._unsupported["malformed"]
        for accepted_range, accepted in zip(self._ranges, self._accepted, strict=True):
            if range_matches(accepted_range, offer):
                canonical = str(MediaRange._make(rng))
                return Decision(200, accepted.media_type, content_type=canonical)
        return self._unsupported["not one this resource accepts"]
