"""Character classes of RFC 9110 and the Fetch standard, shared by every module."""

from __future__ import annotations

import re
from typing import Final

#: tchar, RFC 9110 §5.6.2: the characters of a token.
TCHARS: Final = frozenset(
    "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

#: CORS-unsafe request-header bytes (Fetch): controls other than HT, the listed
#: delimiters, and DEL. The comma is not among them; the controls end at 0x1F.
CORS_UNSAFE_BYTES: Final = frozenset(
    [b for b in range(0x20) if b != 0x09] + list(b'"():<>?@[\\]{}') + [0x7F]
)

#: Fetch: a safelisted ``accept`` value is at most this many bytes long.
CORS_MAX_LENGTH: Final = 128

_NON_LATIN1: Final = re.compile("[^\x00-\xff]")
_ASCII_LOWER: Final = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
)


def as_header_text(value: str | bytes) -> tuple[str, str]:
    """``(original, scanned)`` text of a value, one character per header byte.

    Bytes are decoded as Latin-1 (as WSGI and ASGI deliver header values). A
    character above U+00FF is no header byte: in the scanned text it becomes
    NUL, which every rule rejects, while messages still name the original.
    """
    if isinstance(value, bytes):
        text = value.decode("latin-1")
        return text, text
    if value.isascii() or _NON_LATIN1.search(value) is None:
        return value, value
    return value, _NON_LATIN1.sub("\x00", value)


def ascii_lower(value: str) -> str:
    """Lower-case ASCII letters only (case-insensitive comparison of HTTP text)."""
    return value.translate(_ASCII_LOWER) if not value.isascii() else value.lower()
