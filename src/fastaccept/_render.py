"""One handler, several representations: render its data in the negotiated type.

``Renderers`` maps each offered media type to a function that turns a
handler's data into that representation. ``respond(accept, data)`` negotiates
with ``Produces`` (RFC 9110 §12.5.1), renders, and gives the whole response
as a ``Rendered``: the chosen type's body, or the refusal ``Produces`` decided
(406, 431). HEAD is answered like GET without a body (RFC 9110 §9.3.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, overload

from ._arguments import ByArguments
from ._headers import merge_vary
from ._limits import DEFAULT_CACHE_SIZE, DEFAULT_MAX_LENGTH, store
from ._member import OfferSpec, parse_offer
from ._responses import Decision, Produces, StatusAndHeaders
from ._text import HeaderValue

#: How many ``Vary`` values given to ``render`` a ``Renderers`` keeps finished.
VARY_VALUES_KEPT = 64

#: Turns a handler's data into one representation: text (encoded in the media
#: type's charset, else UTF-8) or bytes (sent as they are).
Renderer = Callable[[Any], str | bytes]
#: Renderers by offer (``OfferSpec`` keys; typed ``Any`` because a mapping's
#: key type is invariant: a ``dict[str, ...]`` must fit too).
RendererMap = Mapping[Any, Renderer]


@dataclass(frozen=True, slots=True)
class Answer:
    """What a negotiated handler may return instead of its bare data: the
    ``data`` to render, with this response's own ``status`` (None: the
    endpoint's) and extra ``headers`` (a ``Location`` for a 201, say),
    checked as ``Renderers.render`` checks them, kept as a tuple of pairs."""

    data: Any
    status: int | None = None
    headers: Mapping[str, str] | Iterable[tuple[str, str]] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "headers", _extra(self.headers))


@dataclass(frozen=True, slots=True)
class Rendered(StatusAndHeaders):
    """A whole response: ``status``, ``header_items`` and the ``body`` bytes.

    ``header_items`` has ``Content-Type``, ``Vary`` and ``Content-Length``
    (with ``Accept`` merged into what the application gave); for HEAD the
    body is empty and ``Content-Length`` is that of the GET body. ``ok``:
    a representation was chosen.
    """

    status: int
    header_items: tuple[tuple[str, str], ...]
    body: bytes


class Renderers(ByArguments):
    """The representations of a resource: media type -> renderer.

    ``renderers`` is a mapping (or pairs) whose keys are offers as
    ``Produces`` takes them (a media type, or a ``(media type, qs)`` pair;
    docs/rules.md rule 15), in order of preference. ``respond(accept, data)`` gives
    the chosen representation of ``data``, or the refusal (406 or 431, as
    plain text or ``application/problem+json``: docs/rules.md rule 16) without
    calling any renderer. ``default``, ``max_length`` and ``cache_size`` are
    ``Produces``'.
    """

    __slots__ = ("_by_index", "_plain", "_renderers", "_varied", "produces")

    @overload
    def __init__(
        self,
        renderers: RendererMap,
        *,
        default: str | None = ...,
        max_length: int | None = ...,
        cache_size: int = ...,
    ) -> None: ...
    @overload
    def __init__(
        self,
        renderers: Iterable[tuple[OfferSpec, Renderer]],
        *,
        default: str | None = ...,
        max_length: int | None = ...,
        cache_size: int = ...,
    ) -> None: ...
    def __init__(
        self,
        renderers: RendererMap | Iterable[tuple[OfferSpec, Renderer]],
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        pairs = tuple(
            renderers.items() if isinstance(renderers, Mapping) else renderers
        )
        for offer, render in pairs:
            if not callable(render):
                raise TypeError(
                    f"the renderer for {offer!r} must be callable, not "
                    f"{type(render).__name__}"
                )
        self._renderers = pairs
        #: The negotiation: ``select(accept)`` gives the ``Decision`` alone.
        self.produces = Produces(
            [offer for offer, _ in pairs],
            default=default,
            max_length=max_length,
            cache_size=cache_size,
        )
        #: (renderer, charset) by the offer's index, as ``Decision.index`` says.
        self._by_index = tuple(
            (render, _charset(parse_offer(offer).params, offer))
            for offer, render in pairs
        )
        #: The responses finished without a ``Vary`` value of the caller's,
        #: and with each one ``render`` was given.
        self._plain = Finished(self, None)
        self._varied: dict[str, Finished] = {}

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        produces = self.produces._arguments()[1]
        return (self._renderers,), produces

    def respond(
        self,
        accept: HeaderValue,
        data: Any,
        *,
        method: str = "GET",
        vary: str | None = None,
        status: int = 200,
    ) -> Rendered:
        """The response to a request with this Accept value (None: absent).

        ``data`` goes to the chosen type's renderer, answered with ``status``
        (201 for a created resource, say); ``vary`` is the ``Vary`` value the
        application already has (``Accept`` is merged into it, docs/rules.md rule
        17). ``method="HEAD"`` leaves the body out.
        """
        decision = self.produces.select(accept)
        return self.render(decision, data, method=method, vary=vary, status=status)

    def render(
        self,
        decision: Decision,
        data: Any,
        *,
        method: str = "GET",
        vary: str | None = None,
        status: int = 200,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    ) -> Rendered:
        """``respond`` for a ``Decision`` already taken (``produces.select``),
        so a handler can refuse before it computes ``data``. A refusal (any
        ``Decision`` not ``ok``, ``Consumes``' too) is sent as decided.
        ``headers`` are added to a chosen representation's (a ``Location``,
        say): each name once (a list-valued field's values combined with
        ", ", RFC 9110 §5.3), and not ``Content-Type``, ``Content-Length``,
        ``Vary`` (``vary`` says what else the response varies on) or
        ``Set-Cookie`` (frameworks keep cookies apart: use theirs)."""
        if vary is None:
            finished = self._plain
        else:
            found = self._varied.get(vary)
            if found is None:
                found = store(
                    self._varied, VARY_VALUES_KEPT, vary, Finished(self, vary)
                )
            finished = found
        extra = _extra(headers) if headers and decision.ok else ()
        return finished.render(decision, data, method, status, extra)

    def _renderer(self, decision: Decision) -> tuple[Renderer, str]:
        """(renderer, charset) for a decision not made by ``produces``: the
        first offer of its media type (``produces``' own are rendered by their
        index: a media type may be offered twice, with two renderers)."""
        types = self.produces.media_types
        if decision.media_type not in types:
            raise ValueError(
                f"{decision.media_type!r} is not one of the offers {types}"
            )
        return self._by_index[types.index(decision.media_type)]


class Finished:
    """What a ``Renderers`` sends with one ``Vary`` value, built once.

    ``vary`` is that value with ``Accept`` merged in (docs/rules.md rule 17):
    the ``Vary`` of every response sent. By offer index, the renderer, its
    charset and the headers but ``Content-Length``; and each refusal decided
    ahead (``Produces``' 406s, and those of ``refusals``, ``Consumes``' 415s),
    as whole responses to GET and to HEAD (RFC 9110 §9.3.2: no body).
    """

    __slots__ = ("_chosen", "_own", "_refused", "_renderers", "_vary", "vary")

    def __init__(
        self, renderers: Renderers, vary: str | None, refusals: Iterable[Decision] = ()
    ) -> None:
        self.vary = merge_vary(vary, "Accept")
        self._vary = ("Vary", self.vary)
        self._renderers = renderers
        produces = renderers.produces
        self._own = produces._chosen
        self._chosen = tuple(
            (render, charset, self._headers(decision))
            for (render, charset), decision in zip(
                renderers._by_index, self._own, strict=True
            )
        )
        #: By the decision's id: the decision (ids are reused once an object
        #: is gone), then the response to GET and to HEAD.
        self._refused = {
            id(decision): (
                decision,
                self._whole(decision, decision.status, body, "GET"),
                self._whole(decision, decision.status, body, "HEAD"),
            )
            for decision in (*produces._refusals, *refusals)
            for body in (decision.body.encode("utf-8"),)
        }

    def _headers(self, decision: Decision) -> tuple[tuple[str, str], ...]:
        """``decision``'s headers with this ``Vary``, and without a length."""
        kept = [item for item in decision.header_items if item[0] != "Vary"]
        return (*kept, self._vary)

    def _whole(
        self,
        decision: Decision,
        status: int,
        body: bytes,
        method: str,
        extra: tuple[tuple[str, str], ...] = (),
    ) -> Rendered:
        """The response to send for ``decision``, made now."""
        return _rendered(status, (*self._headers(decision), *extra), body, method)

    def render(
        self,
        decision: Decision,
        data: Any,
        method: str,
        status: int,
        extra: tuple[tuple[str, str], ...] = (),
    ) -> Rendered:
        """``Renderers.render``, its ``extra`` headers already checked."""
        if not decision.ok:
            return self.refused(decision, method)
        index = decision.index
        if 0 <= index < len(self._own) and self._own[index] is decision:
            return self.chosen(index, data, method, status, extra)
        # A decision made elsewhere (by hand, or ``Consumes``'): the first offer
        # of its media type renders, and its own headers go.
        render, charset = self._renderers._renderer(decision)
        body = _body(render, charset, data, decision.media_type)
        return self._whole(decision, status, body, method, extra)

    def chosen(
        self,
        index: int,
        data: Any,
        method: str,
        status: int,
        extra: tuple[tuple[str, str], ...] = (),
    ) -> Rendered:
        """``data`` in the offer at ``index``, with ``status`` and the
        ``extra`` headers (checked)."""
        render, charset, headers = self._chosen[index]
        body = _body(render, charset, data, self._own[index].media_type)
        return _rendered(status, (*headers, *extra) if extra else headers, body, method)

    def refused(self, decision: Decision, method: str) -> Rendered:
        """The response for a refusal: built ahead, or now (a 431, whose
        body says the length; one made elsewhere)."""
        built = self._refused.get(id(decision))
        if built is not None and built[0] is decision:
            return built[2] if method == "HEAD" else built[1]
        body = decision.body.encode("utf-8")
        return self._whole(decision, decision.status, body, method)


def _body(render: Renderer, charset: str, data: Any, media_type: str) -> bytes:
    """``data`` rendered: text encoded in ``charset``, bytes as they are."""
    produced = render(data)
    body = produced.encode(charset) if isinstance(produced, str) else produced
    if not isinstance(body, bytes):
        raise TypeError(
            f"the renderer for {media_type!r} returned "
            f"{type(produced).__name__}, not str or bytes"
        )
    return body


def _rendered(
    status: int, headers: tuple[tuple[str, str], ...], body: bytes, method: str
) -> Rendered:
    """The whole response: ``Content-Length`` is the body's, also for HEAD,
    which is sent without it (RFC 9110 §9.3.2, §8.6)."""
    sent = b"" if method == "HEAD" else body
    return Rendered(status, (*headers, ("Content-Length", str(len(body)))), sent)


#: The headers ``Renderers.render`` writes itself (lower case).
_OWN_HEADERS = frozenset({"content-type", "content-length", "vary"})


def _extra(
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
) -> tuple[tuple[str, str], ...]:
    """A handler's extra headers, checked: names and values are str, each
    name once, none that ``render`` writes itself, no ``Set-Cookie``.

    One value per name is what every framework's response keeps (a
    list-valued field's values go combined, RFC 9110 §5.3); cookies have
    each framework's own API (Django's, falcon's refuse a raw one).
    """
    items = tuple(headers.items() if isinstance(headers, Mapping) else headers)
    seen: set[str] = set()
    for name, value in items:
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError(f"header {name!r}: names and values must be str")
        folded = name.lower()
        if folded in _OWN_HEADERS:
            raise ValueError(
                f"header {name!r} is set by the negotiation; pass vary= for Vary"
            )
        if folded == "set-cookie":
            raise ValueError("set cookies with the framework's own API")
        if folded in seen:
            raise ValueError(
                f"header {name!r} given twice: combine its values with ', '"
            )
        seen.add(folded)
    return items


def _charset(params: Mapping[str, str], offer: OfferSpec) -> str:
    """The charset a text representation of ``offer`` is encoded in: its
    ``charset`` parameter, else UTF-8."""
    charset = params.get("charset", "utf-8")
    try:
        "".encode(charset)
    except LookupError:
        raise ValueError(f"offer {offer!r}: unknown charset {charset!r}") from None
    return charset
