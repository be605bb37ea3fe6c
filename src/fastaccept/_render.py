"""One handler, several representations: ``Renderers`` renders a handler's
data in the negotiated type, as a whole response (``Rendered``)."""

from __future__ import annotations

import codecs
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from types import GeneratorType
from typing import TYPE_CHECKING, Any, ClassVar, Final, overload

from ._arguments import ByArguments, made_once
from ._grammar import CTL_BUT_HTAB_CHARS, OWS_CHARS, is_token
from ._headers import joined_line, merge_vary, vary_apart
from ._limits import DEFAULT_CACHE_SIZE, DEFAULT_MAX_LENGTH, store
from ._member import OfferSpec, parse_content_type, refuse_a_set
from ._responses import (
    Decision,
    FormatSpec,
    Produces,
    StatusAndHeaders,
    versioned_offers,
)
from ._text import HeaderValue

if sys.version_info >= (3, 11):  # at run time too: typing.get_type_hints
    from typing import Self
elif TYPE_CHECKING:
    from typing_extensions import Self
else:  # 3.10 at run time: a name that typing.get_type_hints finds
    from typing import Any as Self

#: How many ``Vary`` values given to ``render`` a ``Renderers`` keeps finished.
VARY_VALUES_KEPT = 64

#: Turns a handler's data into one representation: text (encoded in the
#: offer's charset, else UTF-8) or bytes.
Renderer = Callable[[Any], str | bytes]
#: Renderers by offer (keys typed ``Any``: a ``dict[str, ...]`` must fit too).
RendererMap = Mapping[Any, Renderer]


@made_once
@dataclass(frozen=True, slots=True)
class Answer:
    """What a negotiated handler may return instead of its bare data: the
    ``data`` to render, with this response's own ``status`` (None: the
    endpoint's) and extra ``headers`` (a ``Location`` for a 201, say), checked
    as ``Renderers.render`` checks them and kept as a tuple of pairs."""

    data: Any
    status: int | None = None
    headers: tuple[tuple[str, str], ...] = ()

    if TYPE_CHECKING:  # the headers given: a mapping or pairs, kept as pairs

        def __init__(
            self,
            data: Any,
            status: int | None = None,
            headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        ) -> None: ...

    def __post_init__(self) -> None:
        if self.status is not None:
            object.__setattr__(self, "status", checked_status(self.status))
        object.__setattr__(self, "headers", _fields(self.headers))


@made_once
@dataclass(frozen=True, slots=True)
class Rendered(StatusAndHeaders):
    """A whole response: ``status``, ``header_items`` and the ``body`` bytes.

    ``header_items`` has ``Content-Type``, ``Vary`` (``Accept`` merged in;
    where a format name chose, the caller's value alone, or none) and
    ``Content-Length``, the GET body's for HEAD, whose body is empty; a 204,
    205 or 304 has no body nor ``Content-Type``, and but for the 205's
    ``Content-Length: 0`` no ``Content-Length`` (RFC 9110 §15.3.5-6,
    §15.4.5). ``ok``: a representation was chosen, whatever the status.
    """

    status: int
    header_items: tuple[tuple[str, str], ...]
    body: bytes
    ok: bool = True

    if TYPE_CHECKING:  # the headers given: a mapping or pairs, kept as pairs

        def __init__(
            self,
            status: int,
            header_items: Mapping[str, str] | Iterable[tuple[str, str]],
            body: bytes,
            ok: bool = True,
        ) -> None: ...

    def __post_init__(self) -> None:
        """One made by hand (a handler may return it, sent as it is) is
        checked as a handler's ``Answer`` is (docs/web.md, "What a handler
        may send"): ``status`` 200 to 599; ``header_items`` a mapping or
        pairs, kept as pairs, as ``Answer``'s headers but that it may hold
        ``Content-Type`` (a media type, no range), ``Vary`` (as ``vary=``)
        and ``Content-Length`` (``_checked_length``); ``body`` bytes, none
        for a 204, 205 or 304; ``ok`` a bool. fastaccept makes its own
        without these checks."""
        status = checked_status(self.status)
        items = _fields(self.header_items, whole=True)
        if not isinstance(self.body, bytes):
            raise TypeError(f"body must be bytes, not {type(self.body).__name__}")
        if not isinstance(self.ok, bool):
            raise TypeError(f"ok must be a bool, not {type(self.ok).__name__}")
        _no_content(status, self.body)
        for name, value in items:
            folded = name.lower()
            if folded == "vary":
                checked_vary(value)
            elif folded == "content-length":
                _checked_length(f"header '{name}: {value}'", value, status, self.body)
            elif folded == "content-type":
                parse_content_type(value, name)
        _set_status(self, status)
        _set_header_items(self, items)


def _checked_length(said: str, value: str, status: int, body: bytes) -> None:
    """A hand-made ``Rendered``'s ``Content-Length`` (RFC 9110 §8.6): digits;
    none on a 204, 0 on a 205 (§15.3.6, RFC 9112 §6.3); with a body, its length (without
    one, any: a HEAD response's is the GET body's, a 304's the 200's)."""
    if not value.isascii() or not value.isdigit():
        raise ValueError(f"{said}: a length is decimal digits (RFC 9110 §8.6)")
    length = value.lstrip("0") or "0"  # compared as text: no int of any size
    if status == 204:
        raise ValueError(f"{said}: a 204 has no Content-Length (RFC 9110 §8.6)")
    if status == 205 and length != "0":
        raise ValueError(f"{said}: a 205 has no content (RFC 9110 §15.3.6)")
    if body and length != f"{len(body)}":
        raise ValueError(f"{said}: the body is {len(body)} bytes (RFC 9110 §8.6)")


def made_rendered(
    status: int, header_items: tuple[tuple[str, str], ...], body: bytes, ok: bool
) -> Rendered:
    """A ``Rendered`` fastaccept makes, well-formed by construction: its
    fields set by their slots' own setters, without ``__init__``'s checks
    (a call of ``object.__setattr__`` for each), as on every request."""
    made = _new(Rendered)
    _set_status(made, status)
    _set_header_items(made, header_items)
    _set_body(made, body)
    _set_ok(made, ok)
    return made


_new = object.__new__
_set_status, _set_header_items, _set_body, _set_ok = (
    Rendered.__dict__[name].__set__ for name in ("status", "header_items", "body", "ok")
)


#: ``Renderers.render``'s default ``headers``: none to add, none to check.
_NO_EXTRA: tuple[tuple[str, str], ...] = ()


def offer_pairs(
    given: Mapping[Any, Any] | Iterable[tuple[Any, Any]],
    name: str,
    value: str,
    key: str = "offer",
) -> tuple[tuple[Any, Any], ...]:
    """``given``, a mapping of each ``key`` (an offer) to its ``value`` or
    pairs of them, in order, as pairs: a ``TypeError`` naming the argument
    ``name`` for anything else, a set included (its order changes)."""
    wanted = f"{name} must map {key}s to {value}s (or be pairs), not"
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise TypeError(f"{wanted} {type(given).__name__}")
    refuse_a_set(given, wanted, name)
    pairs = tuple(given.items() if isinstance(given, Mapping) else given)
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"{name}: {pair!r} is not a pair ({key}, {value})")
    return pairs


class Renderers(ByArguments):
    """The representations of a resource: media type -> renderer.

    ``renderers`` is a mapping (or pairs) whose keys are offers as
    ``Produces`` takes them (docs/rules.md rule 15), in order of preference.
    ``respond(accept, data)`` gives the chosen representation of ``data``, or
    the refusal (406 or 431; rule 16) without calling any renderer.
    ``default``, ``max_length``, ``cache_size``, ``formats`` and ``variants``
    are ``Produces``'; ``Renderers.versioned`` renders the versions of one
    media type.
    """

    __slots__ = ("_by_index", "_plain", "_renderers", "_varied", "produces")

    #: The negotiation's class: a subclass's may add headers to the answer
    #: choosing an offer (``Produces._offer_headers``).
    _negotiation: ClassVar[type[Produces]] = Produces

    @overload
    def __init__(
        self,
        renderers: RendererMap,
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
        variants: bool = False,
    ) -> None: ...
    @overload
    def __init__(
        self,
        renderers: Iterable[tuple[OfferSpec, Renderer]],
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
        variants: bool = False,
    ) -> None: ...
    def __init__(
        self,
        renderers: RendererMap | Iterable[tuple[OfferSpec, Renderer]],
        *,
        default: str | None = None,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
        variants: bool = False,
    ) -> None:
        pairs = offer_pairs(renderers, "renderers", "renderer")
        if not pairs:  # said here: Produces' own message names Produces
            raise ValueError("Renderers needs at least one media type and its renderer")
        for offer, render in pairs:
            if not callable(render):
                raise TypeError(
                    f"the renderer for {offer!r} must be callable, not "
                    f"{type(render).__name__}"
                )
            if any(
                inspect.iscoroutinefunction(call)
                or inspect.isasyncgenfunction(call)
                or inspect.isgeneratorfunction(call)
                for call in called(render)
            ):
                raise TypeError(
                    f"the renderer for {offer!r} must return the body (str or "
                    "bytes) when called, not a coroutine or generator: await in "
                    "the handler, and render what it returns"
                )
        self._renderers = pairs
        #: The negotiation: ``select(accept)`` gives the ``Decision`` alone.
        self.produces: Final = self._negotiation(
            [offer for offer, _ in pairs],
            default=default,
            max_length=max_length,
            cache_size=cache_size,
            formats=formats,
            variants=variants,
        )
        #: (renderer, charset) by ``Decision.index``.
        self._by_index = tuple(
            (render, _charset(parsed.params, offer))
            for (offer, render), parsed in zip(
                pairs, self.produces._parsed, strict=True
            )
        )
        #: The responses finished without a caller's ``Vary``, and with each.
        self._plain = Finished(self, None)
        self._varied: dict[str, Finished] = {}

    @classmethod
    def versioned(
        cls,
        base: str,
        renderers: Mapping[str, Renderer] | Iterable[tuple[str, Renderer]],
        *,
        default: str,
        param: str = "version",
        max_length: int | None = DEFAULT_MAX_LENGTH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        formats: FormatSpec = None,
    ) -> Self:
        """The versions of one media type, each with its renderer: a mapping
        (or pairs) of versions to renderers, offered as
        ``Produces.versioned(base, versions, default=..., param=...)`` offers
        them (docs/web.md, "Versions"); the other arguments are ``Produces``'.
        """
        pairs = offer_pairs(renderers, "renderers", "renderer", "version")
        versions = [version for version, _ in pairs]
        offers = versioned_offers(base, versions, default, param)
        by_version = dict(pairs)
        chosen = {offer: by_version[version] for version, offer in offers.items()}
        return cls(
            chosen, max_length=max_length, cache_size=cache_size, formats=formats
        )

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self._renderers,), self.produces._arguments()[1]

    def respond(
        self,
        accept: HeaderValue,
        data: Any,
        *,
        method: str = "GET",
        vary: str | None = None,
        status: int = 200,
        format: str | None = None,
    ) -> Rendered:
        """The response to a request with this Accept value (None: absent).

        ``data`` goes to the chosen type's renderer, answered with ``status``
        (201 for a created resource, say); ``vary`` is the application's own
        ``Vary`` (``Accept`` is merged in, docs/rules.md rule 17).
        ``method="HEAD"`` leaves the body out. ``format``: the format the
        request names, as for ``Produces.select``.
        """
        decision = self.produces.select(accept, format)
        return self._render(decision, data, method, vary, status, _NO_EXTRA, False)

    def render(
        self,
        decision: Decision,
        data: Any,
        *,
        method: str = "GET",
        vary: str | None = None,
        status: int = 200,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] = _NO_EXTRA,
    ) -> Rendered:
        """``respond`` for a ``Decision`` already taken (``produces.select``),
        so a handler can refuse before it computes ``data``; a refusal (any
        ``Decision`` not ``ok``, ``Consumes``' too) is sent with its status,
        body and headers, ``vary`` and ``Accept`` merged into its ``Vary``
        (HEAD: no body), ``status`` and ``headers`` checked but not sent.
        ``headers`` are added to a chosen representation's (docs/web.md, "What
        a handler may send"). ``status`` is a final one, 200-599; a 204, 205 or
        304 is sent without content (the renderer is not called)."""
        return self._render(decision, data, method, vary, status, headers, True)

    def _render(
        self,
        decision: Decision,
        data: Any,
        method: str,
        vary: str | None,
        status: int,
        headers: Mapping[str, str] | Iterable[tuple[str, str]],
        given: bool,
    ) -> Rendered:
        """``render``; ``given``: the decision may be one made elsewhere
        (``Finished.render``), not ``respond``'s own."""
        status = checked_status(status)
        if type(method) is not str:
            method = checked_method(method)
        if not isinstance(decision, Decision):
            raise TypeError(
                "decision must be a Decision (Produces.select, Consumes.check), "
                f"not {type(decision).__name__}"
            )
        if vary is None:
            finished = self._plain
        else:  # by subscript, not .get (docs/free-threading.md)
            try:
                finished = self._varied[vary]
            except (KeyError, TypeError, BytesWarning):  # new; or no str (-bb:
                # bytes compared with a kept str), which Finished refuses
                finished = store(
                    self._varied, VARY_VALUES_KEPT, vary, Finished(self, vary)
                )
        # Headers, any but the default, are checked (None is refused, not
        # "none") whatever the client asked for; a refusal sends none of them.
        extra = () if headers is _NO_EXTRA else _fields(headers)
        sent = extra if decision.ok else ()
        return finished.render(decision, data, method, status, sent, given)


class Finished:
    """What a ``Renderers`` sends with one ``Vary`` value, built once.

    ``vary``, that value with ``Accept`` merged in (docs/rules.md rule 17), is
    every response's ``Vary``, but for an offer a format name chose
    (``format_vary``: the value alone). By offer index: the renderer, its
    charset and the headers but ``Content-Length``, as chosen by Accept and by
    a format name; each refusal decided ahead (``Produces``' 406s,
    ``refusals``), as the whole responses to GET and HEAD.
    """

    __slots__ = (
        "_by_format",
        "_by_index",
        "_chosen",
        "_formatted",
        "_media_types",
        "_own",
        "_refused",
        "_vary",
        "format_vary",
        "vary",
    )

    def __init__(
        self, renderers: Renderers, vary: str | None, refusals: Iterable[Decision] = ()
    ) -> None:
        own_vary = merge_vary(checked_vary(vary))
        self.vary: str = merge_vary(own_vary, "Accept")
        self.format_vary: str = own_vary
        self._vary = ("Vary", self.vary)
        # Not the Renderers, which keeps this: no cycle for the collector.
        produces = renderers.produces
        self._media_types, self._by_index = produces.media_types, renderers._by_index
        self._own = produces._chosen
        self._by_format = produces._by_format
        self._chosen = tuple(
            (render, charset, self._headers(decision))
            for (render, charset), decision in zip(
                renderers._by_index, self._own, strict=True
            )
        )
        varied = (("Vary", own_vary),) if own_vary else ()
        self._formatted = tuple(
            (*decision.header_items, *varied) for decision in self._by_format
        )
        #: By the refusal decided ahead: the response to GET and to HEAD.
        self._refused = {
            decision: (self._refusal(decision, "GET"), self._refusal(decision, "HEAD"))
            for decision in (*produces._refusals, *produces._format_refusals, *refusals)
        }

    def _headers(self, decision: Decision) -> tuple[tuple[str, str], ...]:
        """``decision``'s headers, this ``Vary`` with its own merged in
        (rule 17; one made by hand may have others than ``Accept``)."""
        own, kept = vary_apart(decision.header_items)
        return (*kept, ("Vary", merge_vary(self.vary, *own)) if own else self._vary)

    def render(
        self,
        decision: Decision,
        data: Any,
        method: str,
        status: int,
        extra: tuple[tuple[str, str], ...],
        given: bool,
    ) -> Rendered:
        """``Renderers.render``, its ``extra`` headers already checked; a
        decision made elsewhere (by hand, ``Consumes``'), which ``given``
        says it may be, sent as a ``Rendered`` made by hand is checked."""
        index = decision.index
        if 0 <= index < len(self._own):  # one of the offers' own (so ``ok``)
            chosen, by_format = self._own[index], self._by_format[index]
            if chosen is decision or chosen == decision:  # or a copy (pickled)
                return self.chosen(index, data, method, status, extra)
            if by_format is decision or by_format == decision:
                return self.chosen(index, data, method, status, extra, formatted=True)
        if not decision.ok:
            return self.refused(decision, method, given)
        # A decision made elsewhere (by hand, or ``Consumes``'): the first offer
        # of its media type renders, and its own headers go, with the offer's
        # Content-Type where they have none.
        decision = _given(decision)
        types = self._media_types
        if decision.media_type not in types:
            raise ValueError(
                f"{decision.media_type!r} is not one of the offers {types}"
            )
        index = types.index(decision.media_type)
        render, charset = self._by_index[index]
        body = _body(render, charset, data, decision.media_type, status)
        headers = self._headers(decision)
        if not declares_type(headers):
            own = self._own[index].header_items  # the offer's, as Produces sends it
            headers = (*[item for item in own if item[0] == "Content-Type"], *headers)
        return _checked(_rendered(status, _joined(headers, extra), body, method))

    def varies(self, formatted: bool) -> str:
        """The ``Vary`` of an answer: ``format_vary`` where a format name
        chose it (``formatted``), else ``vary``."""
        return self.format_vary if formatted else self.vary

    def chosen(
        self,
        index: int,
        data: Any,
        method: str,
        status: int,
        extra: tuple[tuple[str, str], ...] = (),
        formatted: bool = False,
    ) -> Rendered:
        """``data`` in the offer at ``index`` (``formatted``: as a format
        name chose it), with ``status`` and the ``extra`` headers (both
        checked); no content for a 204, 205 or 304."""
        render, charset, headers = self._chosen[index]
        if formatted:
            headers = self._formatted[index]
        body = _body(render, charset, data, self._own[index].media_type, status)
        return _rendered(
            status, _joined(headers, extra) if extra else headers, body, method
        )

    def refused(self, decision: Decision, method: str, given: bool = False) -> Rendered:
        """The response for a refusal: built ahead, or now (a 431, whose
        body says the length; a 406 naming skipped members; a 415 naming the
        type; one made elsewhere, which ``given`` says it may be: checked)."""
        try:  # by subscript, not .get (docs/free-threading.md)
            built = self._refused[decision]
        except (KeyError, TypeError):  # TypeError: made of parts that cannot be hashed
            if given:
                return _checked(self._refusal(_given(decision), method))
            return self._refusal(decision, method)
        return built[method == "HEAD"]

    def _refusal(self, decision: Decision, method: str) -> Rendered:
        """The response for a refusal, made now."""
        body = decision.body.encode("utf-8")
        headers = self._headers(decision)
        return _rendered(decision.status, headers, body, method, decision.ok)


def declares_type(header_items: Iterable[tuple[str, str]]) -> bool:
    """Whether ``header_items`` hold a ``Content-Type`` (the name in any case,
    RFC 9110 §5.1): a decision's own is sent (``Finished.render``), and a
    ``Rendered`` made by hand keeps it where a framework's default goes."""
    return any(name.lower() == "content-type" for name, _ in header_items)


def untyped_content_type(rendered: Rendered) -> str | None:
    """What a framework that types every response with content (falcon,
    Litestar) sends as the ``Content-Type`` of ``rendered``, made by hand
    without one: ``application/octet-stream``, the type RFC 9110 §8.3 lets
    a recipient assume, never the framework's default (HTML or JSON, which a
    browser would run or a client parse); None where it has its own, or no
    content (``BODYLESS``)."""
    if rendered.status in BODYLESS or declares_type(rendered.header_items):
        return None
    return "application/octet-stream"


def _given(decision: Decision) -> Decision:
    """A ``Decision`` ``Renderers.render`` did not make (by hand, or
    ``Consumes``'), to be sent as a ``Rendered`` made by hand is checked
    (``_checked``; docs/web.md, "What a handler may send"): its headers as
    pairs (``_fields``), but no ``Content-Length`` (``render`` writes the
    body's), and its body a str, none for a 204, 205 or 304."""
    items = _fields(decision.header_items, whole=True)
    for name, _ in items:
        if name.lower() == "content-length":
            raise ValueError(
                f"header {name!r}: a Decision's body is sent with its own length"
            )
    if not isinstance(decision.body, str):
        kind = type(decision.body).__name__
        raise TypeError(f"a Decision's body must be a str, not {kind}")
    _no_content(decision.status, decision.body)
    return replace(decision, header_items=items)


def _no_content(status: int, body: str | bytes) -> None:
    """``ValueError`` for a body of a 204, 205 or 304, which have no content
    (RFC 9110 §15.3.5-6, §15.4.5)."""
    if body and status in BODYLESS:
        raise ValueError(
            f"a {status} response has no body (RFC 9110 §15.3.5-6, §15.4.5)"
        )


def _checked(sent: Rendered) -> Rendered:
    """``sent``, checked as a ``Rendered`` made by hand (a final status, its
    ``Content-Type`` one media type, its ``Vary`` tokens, each field once)."""
    return Rendered(sent.status, sent.header_items, sent.body, sent.ok)


def called(function: object) -> tuple[object, ...]:
    """What runs when ``function`` is called, as frameworks tell a coroutine
    function from a plain one (Starlette, Litestar): the function, under any
    ``functools.partial``, and an object's (not a class's) ``__call__``."""
    while isinstance(function, partial):
        function = function.func
    if inspect.isclass(function):
        return (function,)
    return (function, getattr(function, "__call__", None))  # noqa: B004 - the method


def checked_method(method: object) -> str:
    """``method`` as ``respond`` and ``render`` take it: a str (a subclass's,
    ``http.HTTPMethod``'s, read as its text), else a ``TypeError`` (not a body
    sent to a HEAD that was not a str)."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, not {type(method).__name__}")
    return str.__str__(method)


def checked_status(status: object) -> int:
    """A handler's status: an int (an ``HTTPStatus`` too) from 200 to 599, a
    final response's (RFC 9110 §15; 1xx responses are interim)."""
    if type(status) is not int:
        if not isinstance(status, int) or isinstance(status, bool):
            raise TypeError(f"status must be an int, not {type(status).__name__}")
        status = int(status)
    if not 200 <= status <= 599:
        interim = " (1xx responses are interim: the server sends them)"
        raise ValueError(
            f"status must be a final response's, 200 to 599, not {status}"
            + (interim if 100 <= status < 200 else "")
        )
    return status


def checked_vary(vary: object) -> str | None:
    """A ``vary=`` value: None, or field names (tokens) and ``*`` separated by
    commas (RFC 9110 §12.5.5, §5.6.1), as a ``Vary`` header carries them."""
    if vary is None:
        return None
    if not isinstance(vary, str):
        raise TypeError(f"vary must be a str of field names, not {type(vary).__name__}")
    for item in vary.split(","):
        name = item.strip(OWS_CHARS)
        if name and name != "*" and not is_token(name):
            raise ValueError(f"vary: {name!r} is not a field name (RFC 9110 §5.1)")
    return vary


def sent_as_is(data: Any) -> Any:
    """``dispatch``'s renderer: the handler's result is the body, bytes or a
    str encoded in the offer's charset (UTF-8 without one); ``_body``
    refuses anything else, naming the handler (no renderer of the user's)."""
    return data


def _body(
    render: Renderer, charset: str, data: Any, media_type: str, status: int
) -> bytes:
    """``data`` rendered: text encoded in ``charset``, bytes as they are; for
    a status without content (``BODYLESS``), nothing, the renderer not called."""
    if status in BODYLESS:
        return b""
    produced = render(data)
    try:
        body = produced.encode(charset) if isinstance(produced, str) else produced
    except UnicodeEncodeError as error:  # the same error, naming the offer
        error.reason = f"{error.reason} (the renderer for {media_type!r})"
        raise
    if isinstance(body, bytes):
        return body
    returned = type(produced).__name__
    if render is not sent_as_is:
        raise TypeError(
            f"the renderer for {media_type!r} returned {returned}, not str or bytes"
        )
    raise TypeError(
        f"the handler for {media_type!r} returned {returned}, not a body (str or "
        "bytes) or an Answer of one"
        + "; a generator's items go out in the framework's own streaming "
        "response, where it has one" * (type(produced) is GeneratorType)
    )


#: The statuses whose responses have no content (RFC 9110 §15.3.5-6,
#: §15.4.5): sent without a body or ``Content-Type``; a 205 with
#: ``Content-Length: 0``, which frames its empty content (RFC 9112 §6.3: a
#: 204's and a 304's need none).
BODYLESS = frozenset({204, 205, 304})


def _rendered(
    status: int,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    method: str,
    ok: bool = True,
) -> Rendered:
    """The whole response: ``Content-Length`` the body's, also for HEAD, sent
    without it (RFC 9110 §9.3.2, §8.6); a 204, 205 or 304 without content."""
    if status in BODYLESS:
        kept = tuple(item for item in headers if item[0].lower() != "content-type")
        if status == 205:
            kept += (("Content-Length", "0"),)
        return made_rendered(status, kept, b"", ok)
    sent = b"" if method == "HEAD" else body
    return made_rendered(
        status, (*headers, ("Content-Length", f"{len(body)}")), sent, ok
    )


#: The headers ``Renderers.render`` writes itself (lower case).
_OWN_HEADERS = frozenset({"content-type", "content-length", "vary"})
#: Where a handler's other Vary fields go instead.
_VARY_HINT = (
    ": name the other fields it varies on with the vary= of negotiated(), "
    "dispatch(), Renderers.render() or Renderers.respond()"
)
#: The fields ``variants=True`` writes, which a handler's cannot join.
_VARIANTS_HEADERS = frozenset({"variants", "variant-key"})
#: The fields a handler may not send: hop-by-hop ones, the server's (RFC 9110
#: §7.6.1; PEP 3333 refuses them), and the message framing (RFC 9112 §6).
_SERVERS_HEADERS = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
    }
)


def _joined(
    headers: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    """A chosen answer's ``headers`` then a handler's ``extra``; a field both
    give is one line, the answer's value first (RFC 9110 §5.3: the lines of
    a list field combine in order), as every framework keeps one value: a
    handler's ``Link`` beside the one ``fastaccept.agents`` sends, say.
    ``Variants`` and ``Variant-Key`` (``variants=True``) are a ``ValueError``
    instead: each key lists one value per axis of ``Variants``, so a
    handler's joined to them would be malformed."""
    if not extra:
        return headers
    joined = list(headers)
    names = [name.lower() for name, _ in headers]
    for name, value in extra:
        folded = name.lower()
        if folded in _VARIANTS_HEADERS and folded in names:
            raise ValueError(
                f"header {name!r} is set by the negotiation (variants=True), "
                "whose keys name one value per axis of Variants: a handler's "
                "cannot be joined to them"
            )
        if folded in names:
            at = names.index(folded)
            joined[at] = (joined[at][0], joined_line(joined[at][1], value))
        else:
            joined.append((name, value))
    return tuple(joined)


def _fields(
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    whole: bool = False,
) -> tuple[tuple[str, str], ...]:
    """A handler's headers, checked, as pairs (docs/web.md, "What a handler
    may send"): names are tokens (RFC 9110 §5.1) and values Latin-1 str
    without controls or outer whitespace (§5.5); each name once, as every
    framework keeps one value (a list's values combined, §5.3); none that
    ``render`` writes (but in a ``whole`` ``Rendered``'s ``header_items``), no
    hop-by-hop or framing field, no ``Set-Cookie`` (each framework has its
    own API for cookies); ``TypeError`` for anything but a mapping or an
    iterable."""
    argument = "header_items" if whole else "headers"
    if isinstance(headers, Mapping):
        items = tuple(headers.items())
    else:
        try:
            pairs = iter(headers)
        except TypeError:
            raise TypeError(
                f"{argument} must be a mapping or (name, value) pairs, not "
                f"{type(headers).__name__}"
            ) from None
        items = tuple(pairs)
    seen: set[str] = set()
    checked = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"{argument}: {item!r} is not a (name, value) pair")
        name, value = item
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError(f"header {name!r}: names and values must be str")
        # A str subclass (an enum's member) as its text, the text checked: a
        # server may write its str() (Loc.HOME), or refuse it (PEP 3333).
        name, value = str.__str__(name), str.__str__(value)
        checked.append((name, value))
        if not is_token(name):
            raise ValueError(f"header {name!r}: a name is a token (RFC 9110 §5.1)")
        if not CTL_BUT_HTAB_CHARS.isdisjoint(value) or max(value, default="") > "\xff":
            raise ValueError(
                f"header {name!r}: a value is Latin-1 text without control "
                "characters such as CR, LF or NUL (RFC 9110 §5.5)"
            )
        if value != value.strip(OWS_CHARS):
            raise ValueError(
                f"header {name!r}: a value neither begins nor ends with a space "
                "or a tab (RFC 9110 §5.5)"
            )
        folded = name.lower()
        if folded in _OWN_HEADERS and not whole:
            raise ValueError(
                f"header {name!r} is set by the negotiation"
                + (folded == "vary") * _VARY_HINT
            )
        if folded in _SERVERS_HEADERS:
            raise ValueError(
                f"header {name!r} is the server's to send (RFC 9110 §7.6.1)"
            )
        if folded == "set-cookie":
            raise ValueError(
                "header 'Set-Cookie': set cookies with the framework's own API "
                "(FastAPI's response: Response parameter, Flask's "
                "after_this_request), or for a plain WSGI or ASGI endpoint in "
                "middleware around it (several cookies are several lines)"
            )
        if folded in seen:
            raise ValueError(
                f"header {name!r} given twice: combine its values with ', '"
            )
        seen.add(folded)
    return tuple(checked)


#: Python's text codecs that are no charset a client reads (RFC 9110 §8.3.2):
#: they transform the text (IDNA, Punycode, Python's escapes) or are Python's
#: own mapping, and would send it rewritten under a label no client knows.
_PYTHON_CODECS: Final = frozenset(
    {"idna", "punycode", "unicode-escape", "raw-unicode-escape", "charmap"}
)


def _charset(params: Mapping[str, str], offer: OfferSpec) -> str:
    """The charset of ``offer``'s text: its ``charset`` parameter, else UTF-8;
    ``ValueError`` for one Python cannot encode text in (unknown, or a codec
    such as ``undefined`` that refuses all text) or a codec of Python's own
    (``_PYTHON_CODECS``)."""
    charset = params.get("charset", "utf-8")
    try:
        "".encode(charset)
    except (LookupError, UnicodeError):
        raise ValueError(f"offer {offer!r}: unknown charset {charset!r}") from None
    if codecs.lookup(charset).name in _PYTHON_CODECS:
        raise ValueError(
            f"offer {offer!r}: charset {charset!r} is a codec of Python's own, "
            "which no client reads"
        )
    return charset
