"""Errors negotiated like responses, for any error status: ``problem``."""

from __future__ import annotations

import json
from collections.abc import Mapping

from ._grammar import (
    NOT_IN_URI_REFERENCE,
    URI_COLON_SEGMENT,
    URI_IP_LITERAL,
    pattern,
)
from ._render import Rendered, _rendered
from ._responses import _VARY, error_decision, json_text, prefers_problem_json
from ._text import HeaderValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

#: The members ``problem`` writes itself (RFC 9457 §3.1), which
#: ``extensions`` may not name.
_OWN_MEMBERS = frozenset({"type", "title", "status", "detail"})

_NOT_IN_URI_REFERENCE = pattern(NOT_IN_URI_REFERENCE, globals())
_URI_IP_LITERAL = pattern(URI_IP_LITERAL, globals())
_URI_COLON_SEGMENT = pattern(URI_COLON_SEGMENT, globals())


def is_error_status(status: int) -> bool:
    """Whether ``status`` is an error's, one a problem can have: a client
    error (4xx, RFC 9110 §15.5) or a server error (5xx, §15.6)."""
    return 400 <= status <= 599


def problem(
    status: int,
    accept: HeaderValue,
    *,
    title: str | None = None,
    detail: str | None = None,
    type: str | None = None,  # RFC 9457 names the member so
    extensions: Mapping[str, object] | None = None,
) -> Rendered:
    """The response for an error ``status`` (400-599) to a request with this
    Accept value (None: absent), as ``application/problem+json`` (RFC 9457
    §3: ``type``, by default ``about:blank``; ``title``, by default the
    status's phrase, §4.2.1; ``status``; ``detail``; the ``extensions``
    members, JSON values) or ``text/plain`` (``<status> <title>: <detail>``),
    as Accept prefers (docs/rules.md rule 16), with ``Vary: Accept``.

    ``type`` and an ``instance`` among ``extensions`` (a str) are URI
    references (§3.1.1, §3.1.5): a character one holds only percent-encoded
    is written so (``/a b`` as ``/a%20b``), and a colon in the first segment
    of one that begins with no scheme (``10:30/log`` as ``10%3A30/log``, RFC
    3986 §4.2; docs/web.md, "Errors negotiated for any status"). A bad
    argument is a ``TypeError`` or ``ValueError`` naming it; nothing in
    ``accept`` makes it raise.
    """
    if not isinstance(status, int) or isinstance(status, bool):
        raise TypeError(f"status must be an int, not {_kind(status)}")
    if not is_error_status(status):
        raise ValueError(f"status must be an error's, 400 to 599, not {status}")
    for name, value in (("title", title), ("detail", detail), ("type", type)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str or None, not {_kind(value)}")
    members = _checked_extensions(extensions)
    decision = error_decision(
        int(status),
        detail,
        prefers_problem_json(accept),
        _VARY,
        title=title,
        type_="about:blank" if type is None else _uri_reference(type),
        members=members,
    )
    # A lone surrogate in detail (from a JSON string, say) is written escaped,
    # as the problem+json form writes it.
    body = decision.body.encode("utf-8", "backslashreplace")
    return _rendered(decision.status, decision.header_items, body, "GET", ok=False)


def _checked_extensions(extensions: object) -> tuple[tuple[str, str], ...]:
    """``extensions`` as members (RFC 9457 §3.2): str names other than the
    members ``problem`` writes, each with its value written once, here, as
    ``json_text`` writes it (no NaN or infinity)."""
    if extensions is None:
        return ()
    if not isinstance(extensions, Mapping):
        raise TypeError(
            f"extensions must be a mapping of member names to JSON values, "
            f"not {_kind(extensions)}"
        )
    members = []
    for name, value in extensions.items():
        if not isinstance(name, str):
            raise TypeError(
                f"extensions: a member name must be a str, not {_kind(name)}"
            )
        if name in _OWN_MEMBERS:
            raise ValueError(
                f"extensions: {name!r} is a member problem() writes: pass it as {name}="
            )
        if name == "instance":
            if not isinstance(value, str):
                raise TypeError(
                    "extensions: 'instance' must be a str, a URI reference "
                    f"(RFC 9457 §3.1.5), not {_kind(value)}"
                )
            value = _uri_reference(value)
        try:
            text = json_text(value)
        except (TypeError, ValueError, RecursionError) as error:
            raise ValueError(
                f"extensions: the value of {name!r} is not JSON ({error})"
            ) from None
        if "{" in text:  # an object: json.dumps writes 1 and "1" as "1"
            try:
                json.loads(text, object_pairs_hook=_names_once)
            except RecursionError:  # json.loads' own limit, below dumps'
                raise ValueError(
                    f"extensions: the value of {name!r} is nested too deep"
                ) from None
            except ValueError as error:
                raise ValueError(
                    f"extensions: the value of {name!r}, written as JSON, {error}"
                ) from None
        members.append((name, text))
    return tuple(members)


def _names_once(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object of an extension's value, read back from its JSON text: each
    name once (RFC 8259 §4), else ``ValueError``."""
    named = set()
    for name, _ in pairs:
        if name in named:
            raise ValueError(
                f"names {name!r} twice in one object (keys such as 1 and '1' "
                "are written alike; RFC 8259 §4: names unique)"
            )
        named.add(name)
    return dict(pairs)


def _uri_reference(text: str) -> str:
    """``text`` as a URI reference (RFC 3986), which a problem's ``type`` and
    ``instance`` are (RFC 9457 §3.1.1, §3.1.5): each character it holds
    only percent-encoded (a space, a non-ASCII one, a stray ``%``) encoded,
    its UTF-8 bytes, as an IRI is made a URI (RFC 3987 §3.1), and ``[``
    and ``]`` but around an IP-literal host, ``#`` but the first
    (``URI_IP_LITERAL``), a colon in the first segment of a reference that
    begins with no scheme (``URI_COLON_SEGMENT``); a request's decoded path,
    say, is written so, not refused."""
    encoded = _NOT_IN_URI_REFERENCE.sub(_percent_encoded, text)
    first = _URI_COLON_SEGMENT.match(encoded)
    if first:
        encoded = first.group().replace(":", "%3A") + encoded[first.end() :]
    literal = _URI_IP_LITERAL.match(encoded)
    start = literal.end() if literal else 0
    path, hash_, fragment = encoded[start:].partition("#")
    rest = (path + hash_ + fragment.replace("#", "%23")).replace("[", "%5B")
    return encoded[:start] + rest.replace("]", "%5D")


def _percent_encoded(found: Match[str]) -> str:
    octets = found.group().encode("utf-8", "surrogatepass")  # a lone one too
    return "%" + octets.hex("%").upper()


def _kind(value: object) -> str:
    return type(value).__name__
