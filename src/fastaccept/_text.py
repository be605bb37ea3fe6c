"""Header values as text: the input types taken, and how they are read.

Header values arrive as ``str`` or as bytes (``bytes``, ``bytearray``,
``memoryview``); bytes are decoded as Latin-1, one character per byte, as WSGI
and ASGI deliver them (RFC 9110 §5.5: field values are octets). ``None`` stands
for an absent header wherever a request's value is taken.
"""

from __future__ import annotations

from ._grammar import NON_LATIN1, pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeAlias

#: A header value as the library takes it.
HeaderText: TypeAlias = str | bytes | bytearray | memoryview
#: A request header's value, or ``None`` when the header is absent.
HeaderValue: TypeAlias = HeaderText | None

_NON_LATIN1: Final = pattern(NON_LATIN1, globals())
_ASCII_LOWER: Final = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
)


def coerce_value(
    value: object, field: str = "Accept", sent_in: str = "request"
) -> str | bytes:
    """Take ``bytearray``/``memoryview`` as ``bytes``; reject other types.

    ``field`` names the header in the ``TypeError``, which says what to pass:
    the value of that field of the message it is ``sent_in`` (a request, its
    header map or a framework's parsed header is no value; ``str()`` of one
    makes an absent header a present, empty one).
    """
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    article = "an" if field[0] in "AEIOU" else "a"  # an Accept, a Content-Type
    raise TypeError(
        f"{article} {field} value must be str, bytes, bytearray, memoryview or None, "
        f"not {type(value).__name__}: pass the header's value, such as "
        f"{sent_in}.headers.get({field!r}) (None where it is absent)"
    )


def header_length(value: str | bytes) -> int:
    """The length ``max_length`` limits (docs/rules.md rule 8): a ``str``'s
    characters, each read as one header byte (``as_header_text``), or the
    bytes (``coerce_value``'s copy of a buffer's). Taken before a value is
    read, so that an over-long one is refused unread, a ``str`` not
    converted first. A subclass of ``str`` or ``bytes`` is
    measured as its text, whatever ``__len__`` it has of its own (as the
    compiled engine reads its buffer)."""
    return str.__len__(value) if isinstance(value, str) else bytes.__len__(value)


def as_header_text(value: str | bytes) -> tuple[str, str]:
    """``(original, scanned)`` text of a value, one character per header byte.

    Bytes are decoded as Latin-1 (as WSGI and ASGI deliver header values). A
    character above U+00FF is no header byte: in the scanned text it becomes
    NUL, which every rule rejects, while messages still name the original.
    A subclass of ``str`` or ``bytes`` is read as its text, whatever methods
    it has of its own (as the compiled engine reads its buffer).
    """
    if isinstance(value, bytes):
        text = bytes.decode(value, "latin-1")
        return text, text
    value = str.__str__(value)
    if value.isascii() or _NON_LATIN1.search(value) is None:
        return value, value
    return value, _NON_LATIN1.sub("\x00", value)


def ascii_lower(value: str) -> str:
    """Lower-case ASCII letters only (case-insensitive comparison of HTTP text)."""
    return value.translate(_ASCII_LOWER) if not value.isascii() else value.lower()
