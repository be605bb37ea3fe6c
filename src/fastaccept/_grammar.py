"""Character classes of RFC 9110 and the Fetch standard, shared by every module."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
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
