"""Read a request header's raw value from an ASGI scope, a WSGI environ or the
field lines as received, a query parameter from a URL's query; merge a
response's ``Vary`` values, and join a header's own value with an answer's.

The readers return the value as the server delivered it, with no decoding
beyond what the interface defines, so it can go straight to ``Negotiator``,
``Produces`` or ``Consumes`` (which read bytes as Latin-1, RFC 9110 §5.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sized
from itertools import islice
from typing import Any, Final

from ._grammar import OWS_CHARS, is_token
from ._text import HeaderText


def header_from_scope(scope: Mapping[str, Any], name: str = "accept") -> bytes | None:
    """The value of header ``name`` in an ASGI HTTP ``scope``, or None if absent.

    ASGI keeps each field line of the request (``scope["headers"]``, pairs of
    bytes). Several lines of one field are combined in order, joined by
    ``", "``, which RFC 9110 §5.3 defines as the same field value. Names
    compare case-insensitively (RFC 9110 §5.1). Frameworks' own header maps
    often keep only the first line (Starlette's ``request.headers["accept"]``):
    read the scope to see them all. A ``scope`` that is no mapping, or has no
    ``"headers"`` (ASGI's HTTP and WebSocket scopes have them: a framework's
    request object is no scope), ``headers`` whose lines are no (name,
    value) pairs (a dict's names, say), or a line of the field sought whose name or
    value is not bytes, raises ``TypeError``; a ``name`` that is no field
    name, ``ValueError``.
    """
    wanted = _checked_name(name).lower().encode("latin-1")
    try:
        fields = scope["headers"]
    except (KeyError, TypeError):
        if isinstance(scope, Mapping):
            raise TypeError(
                "scope has no 'headers': pass the ASGI scope of an HTTP or "
                "WebSocket connection (Starlette's request.scope)"
            ) from None
        raise _not_a_mapping("scope", scope) from None
    return lines_value(fields, wanted)


#: Where no line was read yet: the lines' reading failed before the first.
_NO_LINE: Final = object()


def _no_pair(fields: Any, line: object) -> str | None:
    """Why ``fields`` are no field lines, ``line`` the one being read when
    reading them failed: no iterable, or a line that is no (name, value)
    pair (a dict's name, a line of text, a byte of bytes: Python's own error
    said it in its words), or a pair whose name has no length (an int, None:
    Python's said "has no len()"); None: the lines are pairs, or the error
    is an iterable's own."""
    if line is _NO_LINE:
        return None if _iterable(fields) else f"not {type(fields).__name__}"
    no_pair = f"a line of this {type(fields).__name__} is no pair"
    if isinstance(line, HeaderText) or not _iterable(line):
        return no_pair
    try:
        if iter(line) is line:  # type: ignore[call-overload]
            return None  # an iterator, spent by the unpacking: the error stands
        items = tuple(islice(line, 3))  # type: ignore[call-overload]
    except Exception:  # the line's own error, which stands
        return None
    if len(items) != 2:
        return no_pair
    if isinstance(items[0], Sized):  # by its class's methods (an Enum's has none)
        return None
    return f"a line's name is of type {type(items[0]).__name__}"


def _iterable(given: object) -> bool:
    """Whether ``given``'s type can be iterated (``__iter__``, or the old
    protocol's ``__getitem__``), whatever an iteration of it then raises."""
    kind = type(given)
    return hasattr(kind, "__iter__") or hasattr(kind, "__getitem__")


def lines_value(
    fields: Iterable[tuple[bytes, bytes]],
    wanted: bytes,
    argument: str = "scope['headers']",
) -> bytes | None:
    """The value of the field named ``wanted`` (lower-case bytes) among a
    request's field lines (pairs of bytes, as received: an ASGI scope's,
    aiohttp's ``raw_headers``), or None if absent: several lines combined in
    order, joined by ``", "`` (RFC 9110 §5.3); names compared
    case-insensitively (RFC 9110 §5.1). The name sought given as a str or a
    buffer (``"accept"``: ASGI's are bytes) raises ``TypeError`` rather than
    being passed over, and so does its value given as anything but bytes;
    other names are not read. Lines that are no iterable of pairs (``_no_pair``)
    raise ``TypeError`` naming ``argument``, chained to Python's error."""
    size = len(wanted)
    lines = []
    line: object = _NO_LINE
    try:
        for line in fields:
            key, value = line
            if len(key) == size:
                if isinstance(key, bytes):
                    if key.lower() == wanted:
                        if not isinstance(value, bytes):
                            raise TypeError(
                                f"a field line's value in {argument} must be "
                                f"bytes, not {type(value).__name__}"
                            )
                        lines.append(value)
                elif _names(key, wanted):
                    raise TypeError(
                        f"a field line's name in {argument} must be bytes, "
                        f"not {type(key).__name__}"
                    )
    except (TypeError, ValueError) as exc:
        why = _no_pair(fields, line)
        if why is None:
            raise
        raise TypeError(
            f"{argument} must be an iterable of (name, value) pairs of bytes: {why}"
        ) from exc
    if not lines:
        return None
    return lines[0] if len(lines) == 1 else b", ".join(lines)


def _names(key: object, wanted: bytes) -> bool:
    """Whether ``key``, a line's name that is no bytes but as long as
    ``wanted``, names that field all the same: a str (never compared with
    bytes: ``python -b`` warns) or a buffer of bytes (``bytearray``,
    ``memoryview``, an ``array`` of them), case-insensitively; such a name
    is a mistake, not an absent field."""
    if isinstance(key, str):
        return key.lower() == wanted.decode("latin-1")
    try:
        return bytes(memoryview(key)).lower() == wanted  # type: ignore[arg-type]
    except (TypeError, ValueError):  # no buffer, or none of bytes
        return False


def header_from_environ(environ: Mapping[str, Any], name: str = "accept") -> str | None:
    """The value of header ``name`` in a WSGI ``environ``, or None if absent.

    PEP 3333 gives header values as ``str`` decoded as Latin-1, under
    ``HTTP_`` + the upper-cased name with ``-`` as ``_`` (``CONTENT_TYPE`` and
    ``CONTENT_LENGTH`` without the prefix); the server has already combined
    repeated field lines (RFC 9110 §5.3). An ``environ`` that is no mapping,
    or a value there that is no str, raises ``TypeError``; a ``name`` that is
    no field name, or has ``_`` (which an environ does not tell from ``-``:
    ``HTTP_ACCEPT`` is the key, ``Accept`` the name), ``ValueError``.
    """
    key = _checked_name(name)
    if "_" in key:
        raise ValueError(
            f"name must be a field name such as 'Accept', not {name!r}: an "
            "environ does not tell '_' from '-' (PEP 3333)"
        )
    key = key.upper().replace("-", "_")
    if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        key = "HTTP_" + key
    try:
        value = environ.get(key)
    except AttributeError:
        raise _not_a_mapping("environ", environ) from None
    if value is None or isinstance(value, str):
        return value
    raise TypeError(
        f"environ[{key!r}] must be a str (PEP 3333), not {type(value).__name__}"
    )


def _checked_name(name: object) -> str:
    """``name``, a header's name: a str (``TypeError`` naming it otherwise,
    bytes included, as an ASGI scope holds names) that is a token
    (``ValueError`` otherwise, RFC 9110 §5.1)."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    if not is_token(name):
        raise ValueError(
            f"name must be a field name, a token (RFC 9110 §5.1), not {name!r}"
        )
    return name


def _not_a_mapping(argument: str, given: object) -> TypeError:
    """The error for a request ``argument`` that is no mapping."""
    return TypeError(f"{argument} must be a mapping, not {type(given).__name__}")


def merge_vary(*values: str | None) -> str:
    """One ``Vary`` value from several (RFC 9110 §12.5.5; docs/rules.md rule 17).

    Each field name once, in order of first appearance, compared
    case-insensitively (the first spelling is kept); ``*`` absorbs every
    other name. None and empty values add nothing; a value that is neither
    a str nor None raises ``TypeError``. An integration adds ``Accept`` this
    way to what the application set, never replacing it; so names are
    merged as given, not checked (a ``vary=`` argument is, as tokens or
    ``*``: docs/web.md, "What a handler may send").
    """
    names: dict[str, str] = {}
    for value in values:
        if value is None:
            continue
        try:
            items = value.split(",")
        except (AttributeError, TypeError):  # no str (bytes: TypeError)
            raise TypeError(
                "merge_vary: each value must be a str or None, not "
                f"{type(value).__name__}"
            ) from None
        for item in items:
            name = item.strip(OWS_CHARS)
            if name == "*":
                return "*"
            if name:
                names.setdefault(name.lower(), name)
    return ", ".join(names.values())


#: Response fields that hold one value, not a list (RFC 9110 §5.3: such a
#: field is sent once): where the answer and the handler's own response
#: both have one, the answer's alone is sent.
SINGLE_VALUED = frozenset(
    {
        "age",
        "content-disposition",
        "content-length",
        "content-location",
        "content-range",
        "date",
        "etag",
        "expires",
        "last-modified",
        "location",
        "retry-after",
    }
)


def answer_first(name: str, answer: str, own: str) -> str:
    """The one line of field ``name`` that the answer and the handler's own
    response (FastAPI's ``Response`` parameter, falcon's ``resp``) both
    have: the answer's value alone for a field of one value
    (``SINGLE_VALUED``: one ``ETag``), else both, the answer's first (RFC
    9110 §5.3: a list's lines combine in order; ``Cache-Control: private``
    kept beside the answer's ``max-age``)."""
    return answer if name.lower() in SINGLE_VALUED else joined_line(answer, own)


def joined_line(first: str, second: str) -> str:
    """Two values of one list field as one line, ``first``'s first (RFC 9110
    §5.3); an empty one adds no element (§5.6.1: a sender generates no empty
    list element, and §5.5: no value ends in a space)."""
    return f"{first}, {second}" if first and second else first or second


def vary_apart(
    items: Iterable[tuple[str, str]],
) -> tuple[list[str], list[tuple[str, str]]]:
    """The ``Vary`` values of the header ``items`` (the name in any case,
    RFC 9110 §5.1), and the other items, each in order."""
    values: list[str] = []
    others: list[tuple[str, str]] = []
    for item in items:
        if item[0].lower() == "vary":
            values.append(item[1])
        else:
            others.append(item)
    return values, others


def vary_merged_into(headers: Mapping[str, str] | None, vary: str) -> dict[str, str]:
    """A copy of a framework's header mapping (None: none) with ``vary``
    merged into its ``Vary`` (``merge_vary``), the name in any case taken
    as one field (RFC 9110 §5.1), sent once as ``Vary``."""
    kept = dict(headers or {})
    given = [kept.pop(name) for name in list(kept) if name.lower() == "vary"]
    return {**kept, "Vary": merge_vary(*given, vary)}


def query_value(query: str, name: str) -> str | None:
    """The first value of the parameter ``name`` in a URL's ``query`` (the
    part after ``?``, read as application/x-www-form-urlencoded, WHATWG URL
    §5.1: ``&``-separated ``name=value`` pairs, ``+`` a space, percent escapes
    UTF-8), or None when absent. ``name=`` gives ``""``."""
    from urllib.parse import unquote_plus

    for part in query.split("&"):
        key, _, value = part.partition("=")
        if unquote_plus(key) == name:
            return unquote_plus(value)
    return None
