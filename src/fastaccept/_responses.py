"""What a server answers, decided from a request's Accept or Content-Type.

``Produces`` negotiates a response's media type (RFC 9110 §12.5.1): the chosen
type with ``Vary: Accept`` (§12.5.5), 406 listing the available types
(§15.5.7), or 431 for an Accept value over the limit (RFC 6585 §5).
``Consumes`` checks a request's ``Content-Type`` (§8.3) against the types a
resource takes: 415 with an ``Accept`` response header naming them (§15.5.16).
A refusal's body is ``application/problem+json`` (RFC 9457) or ``text/plain``,
as the request's Accept prefers (docs/rules.md rule 16). Every answer is a
``Decision``; none raises for anything a client sends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
_PROBLEM = ("Content-Type", "application/problem+json")
_VARY = ("Vary", "Accept")


#: Reason phrases by status code, read without making an ``HTTPStatus``.
_PHRASES = {status.value: status.phrase for status in HTTPStatus}


class StatusAndHeaders:
    """What every answer has: ``status`` and ``header_items``, and their views."""

    __slots__ = ()
    status: int
    header_items: tuple[tuple[str, str], ...]

    @property
    def ok(self) -> bool:
        """True when the request can proceed (status 200)."""
        return self.status == 200

    @property
    def reason(self) -> str:
        """The status's reason phrase, e.g. ``"Not Acceptable"`` (for WSGI)."""
        phrase = _PHRASES.get(self.status)
        return HTTPStatus(self.status).phrase if phrase is None else phrase

    @property
    def headers(self) -> dict[str, str]:
        """The headers to send, as a new dict."""
        return dict(self.header_items)


@dataclass(frozen=True, slots=True)
class Decision(StatusAndHeaders):
    """The response facts for one request.

    ``ok`` (``status`` 200): go on, and answer with your own success status;
    ``media_type`` is the chosen offer (``Produces``) or the accepted type the
    request's content matched (``Consumes``), the very string given, and for
    ``Consumes`` ``content_type`` is the request's own media type, canonical
    (``image/png`` for ``IMAGE/PNG``; parameters kept, ``q`` among them).
    Otherwise ``media_type`` is ``""``: answer ``status`` with ``body`` at
    once (plain text or ``application/problem+json``, as its ``Content-Type``
    header says; docs/rules.md rule 16). In both cases send ``headers``.
    ``index`` is the chosen offer's position in ``Produces.offers`` (the
    accepted type's in ``Consumes.media_types``), -1 for a refusal: what
    ``Renderers`` picks the renderer by; it takes no part in ``==``.
    """

    status: int
    media_type: str = ""
    header_items: tuple[tuple[str, str], ...] = ()
    body: str = ""
    content_type: str = ""
    index: int = field(default=-1, compare=False)


#: The formats a refusal can take, and the type that admits the problem one
#: to a JSON client (docs/rules.md rule 16); no length limit: a refusal never fails.
_REFUSAL_FORMATS = Negotiator(
    ["application/problem+json", "text/plain", "application/json"], max_length=None
)


def prefers_problem_json(accept: HeaderValue) -> bool:
    """Whether a refusal goes as ``application/problem+json`` (docs/rules.md rule 16).

    Yes when the Accept value prefers it to ``text/plain``, or admits
    ``application/json`` but neither of the two; otherwise ``text/plain``
    (and always when the header is absent: both are acceptable at q=1).
    """
    weights = dict(_REFUSAL_FORMATS.rank(accept))
    problem = weights.get("application/problem+json", 0.0)
    text = weights.get("text/plain", 0.0)
    admits_json = "application/json" in weights
    return problem > text or (not problem and not text and admits_json)


#: The forms of a refusal that ``Consumes`` answers: (as problem+json?, the
#: ``Vary`` it carries). Without an Accept value, plain text and no ``Vary``;
#: with one, the format it prefers (rule 16) and ``Vary: Accept``.
_FORMS: tuple[tuple[bool, tuple[tuple[str, str], ...]], ...] = (
    (False, ()),
    (False, (_VARY,)),
    (True, (_VARY,)),
)


def _form(accept: HeaderValue) -> int:
    """The index in ``_FORMS`` of the refusal form for this Accept value."""
    return 0 if accept is None else 1 + prefers_problem_json(accept)


def _refusal(
    status: int,
    summary: str,
    problem_json: bool,
    *extra: tuple[str, str],
    listed: Sequence[str] | None = None,
    listed_as: str = "",
) -> Decision:
    """A refusal: its status, why (one sentence), and the media types it lists.

    As problem+json (RFC 9457 §3: ``type``, ``title``, ``status``,
    ``detail``, and the extension member ``acceptable`` listing the types),
    or as plain text: status, reason and sentence on one line, then
    ``listed_as`` and one type per line.
    """
    title = HTTPStatus(status).phrase
    if problem_json:
        problem: dict[str, object] = {
            "type": "about:blank",
            "title": title,
            "status": status,
            "detail": summary,
        }
        if listed is not None:
            problem["acceptable"] = list(listed)
        return Decision(status, "", (_PROBLEM, *extra), json.dumps(problem))
    body = f"{status} {title}: {summary}"
    if listed is not None:
        body += f" {listed_as}\n" + "".join(f"{t}\n" for t in listed)
    else:
        body += "\n"
    return Decision(status, "", (_TEXT, *extra), body)


def _too_large(
    field: str, length: int, limit: int, problem_json: bool, *extra: tuple[str, str]
) -> Decision:
    """431 Request Header Fields Too Large (RFC 6585 §5)."""
    summary = f"the {field} header is {length} characters long; the limit is {limit}."
    return _refusal(431, summary, problem_json, *extra)


class Produces(ByArguments):
    """The media types a resource can send, and the answer to each Accept value.

    ``offers`` are concrete types (``type/subtype[;params]``) in order of
    preference, each alone or as a ``(media type, qs)`` pair with the server's
    weight (docs/rules.md rule 15); a ``Negotiator`` of the active engine chooses
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
        "_refusals",
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
        #: The answer choosing each offer, by index: the only ``ok`` decisions
        #: ``select`` gives.
        self._chosen = tuple(
            Decision(200, media_type, (("Content-Type", media_type), _VARY), index=i)
            for i, media_type in enumerate(media_types)
        )
        if default is None:
            available = [media_type for media_type, _ in self._negotiator.rank(None)]
            #: 406 as text/plain, and as application/problem+json (rule 16).
            self._unacceptable = self._refusals = tuple(
                _refusal(
                    406,
                    "the Accept header allows none of the media types this "
                    "resource has.",
                    problem_json,
                    _VARY,
                    listed=available,
                    listed_as="Available:",
                )
                for problem_json in (False, True)
            )
        elif default in media_types:
            chosen = self._chosen[media_types.index(default)]
            self._unacceptable = (chosen, chosen)
            self._refusals = ()
        #: ``self._refusals``: every refusal decided here ahead of any request,
        #: which ``Renderers`` makes into whole responses once.
        else:
            raise ValueError(
                f"default {default!r} is not one of the offers {media_types}"
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
    def default(self) -> str | None:
        """The media type sent when none is acceptable; None: answer 406."""
        return self._default

    @property
    def max_length(self) -> int | None:
        """The longest Accept value read; longer ones get 431. None: no limit."""
        return self._max_length

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
            # The refused value is not read further: plain text.
            return _too_large(
                "Accept", len(error.value), self._max_length, False, _VARY
            )
        if index >= 0:
            return self._chosen[index]
        return self._unacceptable[prefers_problem_json(accept)]


class Consumes(ByArguments):
    """The media types a resource takes in a request body, and the check of each.

    ``media_types`` may be ranges (``image/*``) and carry parameters; a
    request's ``Content-Type`` is accepted when one of them matches it by the
    rules of Accept (docs/rules.md rule 9: extra parameters in the request are
    allowed, ``charset`` compares case-insensitively). In a Content-Type
    (RFC 9110 §8.3) ``q`` is an ordinary parameter, not a weight.
    ``check(content_type)`` gives the first matching type (the string given)
    with the request's own media type as ``content_type``, or 415 with an
    ``Accept`` response header listing them (RFC 9110 §15.5.16) when the
    Content-Type is missing, malformed or not accepted; 431 over
    ``max_length``. Given the request's ``accept``, a refusal's body takes the
    format it prefers (docs/rules.md rule 16) and carries ``Vary: Accept``; given
    ``method="PATCH"``, a 415 also carries ``Accept-Patch`` (RFC 5789 §2.2).
    """

    __slots__ = (
        "_max_length",
        "_ranges",
        "_refusals",
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
        self._max_length = max_length
        #: The ``Accept`` response header value that lists the types.
        self.accept = format_accept(self._ranges)
        patch = ("Accept-Patch", self.accept)  # RFC 5789 §2.2
        #: 415 for each problem, then without and with ``Accept-Patch`` (a
        #: PATCH request), then in each of the ``_FORMS`` (rule 16).
        self._unsupported = {
            problem: tuple(
                tuple(
                    _refusal(
                        415,
                        f"the request's Content-Type is {problem}.",
                        problem_json,
                        ("Accept", self.accept),
                        *patched,
                        *varied,
                        listed=types,
                        listed_as="This resource accepts:",
                    )
                    for problem_json, varied in _FORMS
                )
                for patched in ((), (patch,))
            )
            for problem in ("missing", "malformed", "not one this resource accepts")
        }
        self._refusals = tuple(
            decision
            for by_method in self._unsupported.values()
            for forms in by_method
            for decision in forms
        )

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
        absent); ``accept`` (the request's Accept) chooses a refusal's format."""
        if not content_type:
            return self._refuse("missing", accept, method)
        text = as_header_text(coerce_value(content_type))[0]
        if len(text) > self._max_length:
            problem_json, varied = _FORMS[_form(accept)]
            return _too_large(
                "Content-Type", len(text), self._max_length, problem_json, *varied
            )
        try:
            rng = parse_single(text, "Content-Type", weighted=False)[0]
            offer = concrete(text, rng, "Content-Type")
        except ValueError:
            return self._refuse("malformed", accept, method)
        for index, accepted_range in enumerate(self._ranges):
            if range_matches(accepted_range, offer):
                canonical = str(MediaRange._make(rng))
                return Decision(
                    200, self.media_types[index], content_type=canonical, index=index
                )
        return self._refuse("not one this resource accepts", accept, method)

    def _refuse(
        self, problem: str, accept: HeaderValue, method: str | None
    ) -> Decision:
        """415 for ``problem``, in the format ``accept`` prefers."""
        return self._unsupported[problem][method == "PATCH"][_form(accept)]
