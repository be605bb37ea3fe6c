"""CORS-safelisted ``accept`` values (WHATWG Fetch), with a diagnostic report.

Fetch: a value is safelisted for ``accept`` when it is at most 128 bytes long
and contains no CORS-unsafe request-header byte: a byte below 0x20 other than
0x09 (HT), one of ``"():<>?@[\\]{}``, or 0x7F. The comma is not unsafe, and
bytes 0x80-0xFF are not unsafe. A ``str`` character above U+00FF is no header
byte at all, so it is reported as unsafe too.
"""

from __future__ import annotations

from ._errors import too_long
from ._grammar import CORS_MAX_LENGTH, CORS_UNSAFE_BYTES
from ._limits import DEFAULT_MAX_LENGTH, checked_max_length
from ._text import HeaderValue, as_header_text, coerce_value, header_length
from ._tuples import NamedTuple


class CorsReport(NamedTuple):
    """Why a value is or is not CORS-safelisted."""

    #: Whether the value is CORS-safelisted: no unsafe byte, not too long.
    safelisted: bool
    #: The value's length: its bytes, or a str's characters (one a byte each
    #: up to U+00FF; one above is no header byte, and listed as unsafe).
    length: int
    #: Whether the length is over 128 bytes (Fetch's limit).
    too_long: bool
    #: (index, byte) of each CORS-unsafe byte; for a str, the code point.
    unsafe: tuple[tuple[int, int], ...]


def cors_unsafe_bytes(
    value: HeaderValue, *, max_length: int | None = DEFAULT_MAX_LENGTH
) -> CorsReport:
    """Each offending byte with its index, and whether the length limit is
    exceeded; ``None`` (header absent) has neither. A value longer than
    ``max_length`` raises ``AcceptError``, as ``parse`` does (docs/rules.md
    rule 8): the report holds a pair for each unsafe byte; ``None`` lifts it."""
    limit = checked_max_length(max_length)
    if value is None:
        return CorsReport(True, 0, False, ())
    coerced = coerce_value(value)
    if limit is not None and (length := header_length(coerced)) > limit:
        raise too_long(coerced, length, limit)
    original = as_header_text(coerced)[0]
    unsafe = tuple(
        (index, ord(char))
        for index, char in enumerate(original)
        if ord(char) in CORS_UNSAFE_BYTES or ord(char) > 0xFF
    )
    over = len(original) > CORS_MAX_LENGTH
    return CorsReport(not over and not unsafe, len(original), over, unsafe)
