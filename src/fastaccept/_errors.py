"""The error type and the messages of every parse error, shared by both engines.

The engines report a violation as ``(code, position)``; the text a person reads
is built here, once, so both engines give the same message for the same input.
"""

from __future__ import annotations

from ._grammar import LANGUAGE_RANGE_CHARS, OWS_CHARS, TCHARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from typing import Any, Final

#: The most characters of a run of a client's value (a token, a range, a
#: weight; a 415's type and subtype) that a message quotes: a longer run is
#: cut, "..." marking the cut, so a message stays short (and an error's is
#: built reading at most this much of the run).
EXCERPT_MAX: Final = 40
#: The most characters of the repr of an argument a program gave (an offer,
#: a media type, a qs, a limit) that an error message about it quotes.
SHOWN_MAX: Final = 160

# Error codes reported by the scanners (the Cython engine mirrors these numbers).
EXPECTED_TYPE: Final = 1
EXPECTED_SLASH: Final = 2
EXPECTED_SUBTYPE: Final = 3
WILDCARD_TYPE: Final = 4
BARE_WILDCARD: Final = 5
EXPECTED_SEPARATOR: Final = 6
EXPECTED_PARAM_NAME: Final = 7
EXPECTED_EQUALS: Final = 8
EXPECTED_VALUE: Final = 9
UNTERMINATED_QUOTE: Final = 10
BAD_QUOTED_CHAR: Final = 11
BAD_ESCAPE: Final = 12
BAD_WEIGHT: Final = 13
SHORT_WEIGHT: Final = 14
DUPLICATE_PARAM: Final = 15
# Accept-Encoding and Accept-Language (RFC 9110 §12.5.3-4): one name, one weight.
EXPECTED_CODING: Final = 16
EXPECTED_LANGUAGE: Final = 17
EXPECTED_SUBTAG: Final = 18
LONG_SUBTAG: Final = 19
EXPECTED_CODING_END: Final = 20
EXPECTED_RANGE_END: Final = 21
EXPECTED_WEIGHT: Final = 22
EXPECTED_QVALUE: Final = 23
EXPECTED_COMMA: Final = 24
# Structured-syntax suffix ranges, ``type/*+suffix`` (RFC 6838 §4.2.8; rule 22).
SUFFIX_WILDCARD_TYPE: Final = 25
SUBTYPE_START: Final = 26
EMPTY_SUFFIX: Final = 27

#: The header each kind of value comes from, as messages name it.
ACCEPT: Final = "Accept"
ACCEPT_ENCODING: Final = "Accept-Encoding"
ACCEPT_LANGUAGE: Final = "Accept-Language"


class AcceptError(ValueError):
    """A header value that breaks its grammar (strict mode) or a limit.

    An Accept value (RFC 9110 §12.5.1), or an Accept-Encoding or
    Accept-Language value (§12.5.3-4), named by ``field``. ``value`` is the
    value as given (bytearray and memoryview as ``bytes``), ``position`` the
    index of the offending character (for a missing character: where it was
    expected), ``reason`` the message without the position.
    """

    def __init__(
        self, reason: str, value: str | bytes, position: int, field: str = ACCEPT
    ) -> None:
        super().__init__(f"invalid {field} value at position {position}: {reason}")
        self.reason = reason
        self.value = value
        self.position = position
        self.field = field

    def __reduce__(
        self,
    ) -> tuple[type[AcceptError], tuple[str, str | bytes, int, str], dict[str, Any]]:
        """Pickle and copy by the constructor's arguments (multiprocessing,
        logging), and what was added since (notes, attributes) as state."""
        args = (self.reason, self.value, self.position, self.field)
        return (type(self), args, self.__dict__)


def describe_char(text: str, pos: int) -> str:
    """Name the character at ``pos`` the way an error message shows it."""
    if pos >= len(text):
        return "the end of the value"
    code = ord(text[pos])
    if code > 0xFF:
        return f"non-Latin-1 character U+{code:04X} (not a header byte)"
    if code == 0x20:
        return "a space"
    if code == 0x09:
        return "a tab"
    if code < 0x20 or code == 0x7F:
        return f"control byte 0x{code:02X}"
    if code >= 0x80:
        return f"byte 0x{code:02X}"
    return repr(text[pos])


_CUT: Final = "..."  # where a message's quote of a long run is cut


def excerpt(text: str, limit: int = EXCERPT_MAX) -> str:
    """``text`` as a message quotes it: its first ``limit`` characters, then
    "..." where it is longer."""
    return text[:limit] + _CUT if len(text) > limit else text


def characters_long(length: int) -> str:
    """A value's length as a too-long error says it ("1 character long",
    "8193 characters long")."""
    return f"{length} character{'s' * (length != 1)} long"


def shown(given: object) -> str:
    """``given``, an argument a program passed, as an error message quotes
    it: its repr, cut after ``SHOWN_MAX`` characters ("..." marks the cut;
    a media type may be a client's text, as ``quality``'s); a str (or a
    subclass's text) is cut to its first ``SHOWN_MAX`` characters, then
    quoted, its escapes written out. An object whose repr Python refuses (a
    list nested past the recursion limit, an int past its digit limit) is
    named by its type."""
    if isinstance(given, str):
        text = str.__str__(given)
        return repr(excerpt(text, SHOWN_MAX))
    try:
        text = repr(given)
    except RecursionError:
        return f"<a {type(given).__name__} nested too deep to show>"
    except ValueError:  # sys.set_int_max_str_digits
        return f"<{type(given).__name__} too long to show>"
    return excerpt(text, SHOWN_MAX)


def _run_before(text: str, end: int, chars: Container[str]) -> str:
    """The run of ``chars`` that ends at ``end``: its last EXCERPT_MAX
    characters (``EXCERPT_MAX``), after "..." when it is longer."""
    start = end
    stop = max(0, end - EXCERPT_MAX - 1)
    while start > stop and text[start - 1] in chars:
        start -= 1
    if end - start > EXCERPT_MAX:
        return _CUT + text[end - EXCERPT_MAX : end]
    return text[start:end]


def _token_at(text: str, pos: int) -> str:
    """The token that starts at ``pos``: its first EXCERPT_MAX characters,
    then "..." when it is longer."""
    end = pos
    stop = min(len(text), pos + EXCERPT_MAX + 1)
    while end < stop and text[end] in TCHARS:
        end += 1
    return excerpt(text[pos:end])


def _weight_at(text: str, pos: int) -> str:
    """The weight text starting at ``pos``: a token, or a quoted string, in
    which a backslash escapes the next character (RFC 9110 §5.6.4)."""
    if pos < len(text) and text[pos] == '"':
        stop = min(len(text), pos + EXCERPT_MAX)
        end = pos + 1
        while end < stop and text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        if end < stop:  # its closing quote
            return text[pos : end + 1]
        return excerpt(text[pos : pos + EXCERPT_MAX + 1])
    return _token_at(text, pos)


def _whitespace_hint(text: str, pos: int) -> str:
    if pos < len(text) and text[pos] in OWS_CHARS:
        return " (no whitespace is allowed around '=', RFC 9110 §5.6.6)"
    return ""


def _before_ows(text: str, end: int) -> int:
    """Where the optional whitespace that ends at ``end`` starts, found in a
    window that doubles: the cost follows the whitespace, not the text."""
    size = 8
    while True:
        start = end - size if end > size else 0
        kept = text[start:end].rstrip(OWS_CHARS)
        if kept or start == 0:
            return start + len(kept)
        size *= 2


def _range_before(text: str, end: int) -> str:
    return _run_before(text, _before_ows(text, end), LANGUAGE_RANGE_CHARS)


def _range_end_hint(text: str, pos: int) -> str:
    """What a wrong character right after a language range usually means."""
    found = text[pos] if pos < len(text) else ""
    rng = _range_before(text, pos)
    if pos > 0 and text[pos - 1] in OWS_CHARS:
        return ""
    if rng == "*":  # no subtag follows it: '*-US', '*1', '*_'
        return " ('*' stands alone: only basic ranges are taken, RFC 4647 §2.1)"
    if found == "_":
        return " (subtags are joined by '-', as in 'en-US')"
    if found.isdigit() and found.isascii() and "-" not in rng:
        return " (the first subtag is letters only, RFC 4647 §2.1)"
    return ""


#: The messages that name only what was found at the error's position.
_FOUND: Final = {
    EXPECTED_TYPE: "expected a media type (a token such as 'text'), found {found}",
    EXPECTED_SUBTYPE: "expected a subtype token after '/', found {found}",
    BARE_WILDCARD: (
        "expected '/' after '*', found {found} (a bare '*' is a legacy "
        "form of '*/*', accepted only in lenient mode)"
    ),
    EXPECTED_SEPARATOR: "expected ';' or ',' after the media range, found {found}",
    EXPECTED_PARAM_NAME: "expected a parameter name after ';', found {found}",
    UNTERMINATED_QUOTE: "the quoted string that starts here is never closed",
    BAD_QUOTED_CHAR: "expected a quoted-string character, found {found}",
    BAD_ESCAPE: "expected a visible character, space or tab after '\\', found {found}",
    EXPECTED_CODING: (
        "expected a content coding (a token such as 'gzip'), found {found}"
    ),
    EXPECTED_LANGUAGE: (
        "expected a language range (such as 'en', 'en-US' or '*', "
        "RFC 4647 §2.1), found {found}"
    ),
    EXPECTED_SUBTAG: (
        "expected a subtag (1 to 8 letters or digits) after '-', found {found}"
    ),
    LONG_SUBTAG: (
        "a subtag of a language range has at most 8 characters (RFC 4647 "
        "§2.1), found a 9th: {found}"
    ),
    EXPECTED_COMMA: (
        "expected ',' after the weight, found {found} (a member takes one "
        "weight and no other parameter)"
    ),
    EMPTY_SUFFIX: (
        "expected a structured-syntax suffix after '*+' (such as 'json' in "
        "'application/*+json', RFC 6838 §4.2.8), found {found}"
    ),
}


def reason(code: int, text: str, pos: int) -> str:
    """The message for error ``code`` found at ``pos`` of ``text``."""
    found = describe_char(text, pos)
    message = _FOUND.get(code)
    if message is not None:
        return message.format(found=found)
    if code == SUFFIX_WILDCARD_TYPE:
        return (
            "a suffix range needs a concrete type, as in 'application/*+json' "
            f"(RFC 6838 §4.2.8): '*/*' takes no suffix, found {_token_at(text, pos)!r}"
        )
    if code == WILDCARD_TYPE:  # the subtype whole: '*/*x' found '*x', not '*'
        return (
            "expected '*' after '*/' (a wildcard type takes only a wildcard "
            f"subtype), found {_token_at(text, pos)!r}"
        )
    if code == SUBTYPE_START:
        return (
            f"expected a subtype after '/', found {_token_at(text, pos)!r}: a "
            "subtype begins with a letter or digit (RFC 6838 §4.2); a suffix "
            "range is written 'type/*+suffix', as in 'application/*+json'"
        )
    if code == EXPECTED_SLASH:
        name = _run_before(text, pos, TCHARS)
        return f"expected '/' after the type {name!r}, found {found}"
    if code == EXPECTED_EQUALS:
        name = _run_before(text, pos, TCHARS)
        return (
            f"expected '=' after the parameter name {name!r}, found {found}"
            + _whitespace_hint(text, pos)
        )
    if code == EXPECTED_VALUE:
        name = _run_before(text, pos - 1, TCHARS)
        return (
            f"expected a value (a token or a quoted string) after '{name}=', "
            f"found {found}" + _whitespace_hint(text, pos)
        )
    if code == BAD_WEIGHT:
        weight = _weight_at(text, pos)
        digits = weight[1:]  # a legacy weight read strictly: '.5' is '0.5'
        short = weight[:1] == "." and 0 < len(digits) < 4 and digits.isascii()
        return (
            f"invalid weight {weight!r}: a weight is a number from 0 to 1 with "
            "at most three decimals, such as 0.8 (RFC 9110 §12.4.2)"
            + (f": write '0{weight}'" if short and digits.isdigit() else "")
        )
    if code == SHORT_WEIGHT:
        weight = _weight_at(text, pos)
        return (
            f"invalid weight {weight!r}: write '0{weight}' (the form without "
            "the leading zero is accepted only in lenient mode)"
        )
    if code == DUPLICATE_PARAM:
        return f"duplicate parameter {_token_at(text, pos).lower()!r}"
    if code == EXPECTED_CODING_END:
        return (
            "expected ';' or ',' after the coding "
            f"{_run_before(text, _before_ows(text, pos), TCHARS)!r}, "
            f"found {found}"
        )
    if code == EXPECTED_RANGE_END:
        return (
            "expected ';' or ',' after the language range "
            f"{_range_before(text, pos)!r}, found {found}" + _range_end_hint(text, pos)
        )
    if code == EXPECTED_WEIGHT:
        token = _token_at(text, pos)  # else the character there, described
        found = repr(token) if token else found
        return (
            f"expected a weight 'q=' after ';', found {found} "
            "(a weight is the only parameter here, RFC 9110 §12.5.3-4)"
        )
    if code == EXPECTED_QVALUE:
        return (
            "expected a weight after 'q=' (a number from 0 to 1 with at most "
            f"three decimals, RFC 9110 §12.4.2), found {found}"
            + _whitespace_hint(text, pos)
        )
    raise AssertionError(f"unknown error code {code}")  # pragma: no cover


def too_long(
    value: str | bytes, length: int, max_length: int, field: str = ACCEPT
) -> AcceptError:
    """The error for a value over ``max_length``: its advice is the server's
    (answer 431, RFC 6585 §5 and RFC 9110 §5.4; or read the header as invalid);
    a larger ``max_length`` suits only values the program trusts."""
    return AcceptError(
        f"the value is {characters_long(length)}, over the limit of {max_length}: "
        "answer 431 Request Header Fields Too Large, or read the header as "
        "invalid (raise max_length only for trusted values)",
        value,
        max_length,
        field,
    )
