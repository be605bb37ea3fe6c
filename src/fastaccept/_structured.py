"""RFC 9651 Structured Field Values: the List that Accept-Query is.

Accept-Query (RFC 10008 §3) is a List of Items, each a Token or a String with
Parameters whose values are Tokens or Strings. This module reads and writes
those, beside the ABNF it implements (RFC 9651 §3.1, §3.1.2, §3.3, Appendix
C; h11's ``_abnf`` is the model)::

    sf-list     = list-member *( OWS "," OWS list-member )
    list-member = sf-item / inner-list
    sf-item     = bare-item parameters
    bare-item   = sf-integer / sf-decimal / sf-string / sf-token
                  / sf-binary / sf-boolean / sf-date / sf-displaystring

The reader follows the parsing algorithm of RFC 9651 §4.2 step by step, for
every type of bare item, so it fails where that algorithm fails: a non-ASCII
character anywhere (step 1), anything out of place. It keeps the text of
Tokens and Strings only. What the field's definition refuses (§2.2: the
field is ignored whole) is named with its position where it is met, before
what follows it is read: an Inner List or a bare item of another type as a
member, or as the value a parameter ends with (a later one of the same key
replaces an earlier, §4.2.3.2; a parameter without ``=`` is Boolean true).
So ``0=1`` is refused for its Integer, not for the ``=`` after it: no
members either way, only the reason differs. Each character is read once.
"""

from __future__ import annotations

from ._errors import describe_char
from ._grammar import ALPHA, DIGIT, OWS_CHARS, TCHARS
from ._tuples import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from typing import Any, Final, TypeAlias

#: ``sf-token = ( ALPHA / "*" ) *( tchar / ":" / "/" )`` (§3.3.4).
TOKEN_START: Final = ALPHA | {"*"}
TOKEN_CHARS: Final = TCHARS | {":", "/"}

#: The characters of a key (§3.1.2)::
#:
#:     key     = ( lcalpha / "*" )
#:               *( lcalpha / DIGIT / "_" / "-" / "." / "*" )
#:     lcalpha = %x61-7A ; a-z
_LCALPHA: Final = frozenset("abcdefghijklmnopqrstuvwxyz")
KEY_START: Final = _LCALPHA | {"*"}
KEY_CHARS: Final = _LCALPHA | DIGIT | frozenset("_-.*")

#: The characters a String holds as they are, and those a backslash escapes
#: (§3.3.3): printable ASCII, DQUOTE and backslash escaped::
#:
#:     sf-string  = DQUOTE *( unescaped / "%" / bs-escaped ) DQUOTE
#:     unescaped  = %x20-21 / %x23-24 / %x26-5B / %x5D-7E
#:     bs-escaped = "\" ( DQUOTE / "\" )
STRING_CHARS: Final = frozenset(map(chr, range(0x20, 0x7F))) - {'"', "\\"}
ESCAPED: Final = frozenset('"\\')

#: The characters of a Byte Sequence (§3.3.5), read as http-sf reads them:
#: padding optional, at most two ``=`` and only at the end (§4.2.7)::
#:
#:     sf-binary = ":" base64 ":"
#:     base64    = *( ALPHA / DIGIT / "+" / "/" ) *"="
_BASE64: Final = ALPHA | DIGIT | {"+", "/"}

#: ``sf-displaystring = "%" DQUOTE *( unescaped / "\" / pct-encoded ) DQUOTE``,
#: ``pct-encoded = "%" lc-hexdig lc-hexdig``, ``lc-hexdig = DIGIT / %x61-66``
#: (§3.3.8).
_LC_HEXDIG: Final = DIGIT | frozenset("abcdef")

#: ``OWS`` (``OWS_CHARS``) around a List's commas (RFC 9651 §4.2, RFC 9110
#: §5.6.3); the value's own ends and a parameter's ``;`` take SP only (RFC
#: 9651 §4.2, §4.2.3.2).
_SP: Final = " "


class OtherItem(NamedTuple):
    """A bare item of a type other than Token and String (or the Boolean
    true of a parameter without a value): where it starts, and its kind."""

    position: int
    kind: str


#: An Item as read: where it starts, its bare item's text (a Token or a
#: String, unescaped) and its Parameters (keys in order; a repeated key keeps
#: its first place and its last value, §4.2.3.2).
Item: TypeAlias = tuple[int, str, dict[str, str]]


class StructureError(ValueError):
    """Parsing fails (RFC 9651 §4.2), or the field's definition refuses what
    it read (§2.2): the message gives the position and the reason."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(f"at position {position}: {reason}")


def _skip(text: str, p: int, chars: Container[str]) -> int:
    """Where the run of ``chars`` that starts at ``p`` ends."""
    n = len(text)
    while p < n and text[p] in chars:
        p += 1
    return p


def _refused(item: OtherItem) -> StructureError:
    return StructureError(item.position, f"{item.kind}, not a Token or a String")


def parse_list(text: str) -> list[Item]:
    """The Items of a List of Tokens and Strings (RFC 9651 §4.2 for "list",
    then §4.2.1); ``StructureError`` where parsing fails or finds another
    type."""
    if not text.isascii():  # step 1
        where = next(i for i, char in enumerate(text) if not char.isascii())
        raise StructureError(where, f"{describe_char(text, where)}: not ASCII")
    n = len(text)
    p = _skip(text, 0, _SP)  # step 2
    members: list[Item] = []
    while p < n:
        if text[p] == "(":  # §4.2.1.1
            raise StructureError(p, "an Inner List, not a Token or a String")
        item, p = _item(text, p)
        members.append(item)
        p = _skip(text, p, OWS_CHARS)
        if p == n:
            break  # and steps 6-7 of §4.2 find nothing left
        if text[p] != ",":
            found = describe_char(text, p)
            raise StructureError(p, f"expected ',' or the end, found {found}")
        p = _skip(text, p + 1, OWS_CHARS)
        if p == n:
            raise StructureError(p, "a comma ends the value: no member follows it")
    return members


def _item(text: str, start: int) -> tuple[Item, int]:
    """The Item at ``start`` and where it ends (§4.2.3, §4.2.3.2)::

    parameters = *( ";" *SP parameter )
    parameter  = param-key [ "=" param-value ]
    """
    bare, p = _bare_item(text, start)
    if isinstance(bare, OtherItem):
        raise _refused(bare)
    params: dict[str, Any] = {}  # str, or an OtherItem that is refused below
    n = len(text)
    while p < n and text[p] == ";":
        p = _skip(text, p + 1, _SP)
        key_start = p
        if p >= n or text[p] not in KEY_START:  # §4.2.3.3
            found = describe_char(text, p)
            reason = f"expected a parameter key (a-z or '*' first), found {found}"
            raise StructureError(p, reason)
        p = _skip(text, p + 1, KEY_CHARS)
        key = text[key_start:p]
        if p < n and text[p] == "=":
            params[key], p = _bare_item(text, p + 1)
        else:
            params[key] = OtherItem(key_start, "a parameter without a value")
    for value in params.values():
        if isinstance(value, OtherItem):
            raise _refused(value)
    return (start, bare, params), p


def _bare_item(text: str, p: int) -> tuple[str | OtherItem, int]:
    """The bare item at ``p`` and where it ends (§4.2.3.1): a Token's or a
    String's text, or what another type is."""
    char = text[p] if p < len(text) else ""
    if char == '"':
        return _string(text, p)
    if char in TOKEN_START:
        end = _skip(text, p + 1, TOKEN_CHARS)
        return text[p:end], end  # §4.2.6
    if char == "-" or char in DIGIT:
        return _number(text, p)
    if char == ":":
        return _byte_sequence(text, p)
    if char == "?":
        if text[p + 1 : p + 2] not in ("0", "1"):  # §4.2.8
            found = describe_char(text, p + 1)
            raise StructureError(p + 1, f"expected '0' or '1' after '?', found {found}")
        return OtherItem(p, "a Boolean"), p + 2
    if char == "@":
        number, end = _number(text, p + 1)  # §4.2.9
        if number.kind != "an Integer":
            raise StructureError(p + 1, "a Date that is not an Integer")
        return OtherItem(p, "a Date"), end
    if char == "%":
        return _display_string(text, p)
    found = describe_char(text, p)
    raise StructureError(p, f"expected a Token or a String, found {found}")


def _string(text: str, start: int) -> tuple[str, int]:
    """The String whose DQUOTE is at ``start``, unescaped, and where it ends
    (§4.2.5)."""
    n = len(text)
    chars: list[str] = []
    p = start + 1
    while p < n:
        char = text[p]
        if char == "\\":
            if p + 1 >= n or text[p + 1] not in ESCAPED:
                found = describe_char(text, p + 1)
                reason = f"a backslash in a String escapes '\"' or '\\', not {found}"
                raise StructureError(p + 1, reason)
            chars.append(text[p + 1])
            p += 2
        elif char == '"':
            return "".join(chars), p + 1
        elif char in STRING_CHARS:
            chars.append(char)
            p += 1
        else:
            found = describe_char(text, p)
            raise StructureError(p, f"{found} in a String (printable ASCII only)")
    raise StructureError(start, "a String without its closing '\"'")


def _number(text: str, start: int) -> tuple[OtherItem, int]:
    """The Integer or Decimal at ``start`` and where it ends (§4.2.4)::

    sf-integer = ["-"] 1*15DIGIT
    sf-decimal = ["-"] 1*12DIGIT "." 1*3DIGIT
    """
    n = len(text)
    p = start + (text[start : start + 1] == "-")
    if p >= n or text[p] not in DIGIT:
        found = describe_char(text, p)
        raise StructureError(p, f"expected a digit, found {found}")
    digits = p
    dot = -1
    while p < n:
        char = text[p]
        if char == "." and dot < 0:
            if p - digits > 12:
                raise StructureError(p, "a Decimal with more than 12 digits before '.'")
            dot = p
        elif char not in DIGIT:
            break
        p += 1
        if dot < 0 and p - digits > 15:
            raise StructureError(p - 1, "an Integer of more than 15 digits")
        if dot >= 0 and p - digits > 16:
            raise StructureError(p - 1, "a Decimal of more than 16 characters")
    if dot < 0:
        return OtherItem(start, "an Integer"), p
    if p - dot == 1:
        raise StructureError(dot, "a Decimal that ends with '.'")
    if p - dot > 4:
        raise StructureError(dot + 4, "a Decimal with more than 3 digits after '.'")
    return OtherItem(start, "a Decimal"), p


def _byte_sequence(text: str, start: int) -> tuple[OtherItem, int]:
    """The Byte Sequence at ``start`` and where it ends (§4.2.7)."""
    end = text.find(":", start + 1)
    if end < 0:
        raise StructureError(start, "a Byte Sequence without its closing ':'")
    content = text[start + 1 : end]
    data = content.rstrip("=")
    for p, char in enumerate(data, start + 1):
        if char not in _BASE64:
            raise StructureError(p, f"{describe_char(text, p)} in a Byte Sequence")
    padding = len(content) - len(data)
    if padding > 2 or (padding and not data) or len(data) % 4 == 1:
        raise StructureError(start, "a Byte Sequence that is not base64")
    return OtherItem(start, "a Byte Sequence"), end + 1


def _display_string(text: str, start: int) -> tuple[OtherItem, int]:
    """The Display String at ``start`` and where it ends (§4.2.10)."""
    n = len(text)
    if text[start + 1 : start + 2] != '"':
        found = describe_char(text, start + 1)
        raise StructureError(start + 1, f"expected '\"' after '%', found {found}")
    octets = bytearray()
    p = start + 2
    while p < n:
        char = text[p]
        if char == "%":
            hexdig = text[p + 1 : p + 3]
            if len(hexdig) < 2 or not _LC_HEXDIG.issuperset(hexdig):
                reason = "'%' in a Display String takes two of 0-9 and a-f"
                raise StructureError(p, reason)
            octets.append(int(hexdig, 16))
            p += 3
        elif char == '"':
            try:
                octets.decode("utf-8")
            except UnicodeDecodeError:
                reason = "a Display String that is not UTF-8"
                raise StructureError(start, reason) from None
            return OtherItem(start, "a Display String"), p + 1
        elif char in STRING_CHARS or char == "\\":
            octets.append(ord(char))
            p += 1
        else:
            found = describe_char(text, p)
            raise StructureError(p, f"{found} in a Display String")
    raise StructureError(start, "a Display String without its closing '\"'")


def bare_item(value: str) -> str:
    """``value`` as a Token where it is one (§4.1.7), else as a String
    (§4.1.6); ``ValueError`` for a character no String holds."""
    if value[:1] in TOKEN_START and TOKEN_CHARS.issuperset(value):  # §3.3.4
        return value
    for char in value:
        if char not in STRING_CHARS and char not in ESCAPED:
            raise ValueError(
                f"{value!r} is no Token or String (RFC 9651 §3.3.3: printable "
                f"ASCII only), it has {describe_char(char, 0)}"
            )
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def is_key(name: str) -> bool:
    """Whether ``name`` is a ``key`` (§3.1.2)."""
    return name[:1] in KEY_START and KEY_CHARS.issuperset(name)
