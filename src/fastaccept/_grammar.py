"""The grammar fastaccept reads: every character class and every pattern source.

Each stands beside the ABNF it implements, quoted from RFC 9110 (§5.5 field
values, §5.6 common rules, §12.4.2 qvalue, §12.5.1 Accept, §12.5.3
Accept-Encoding, §12.5.4 Accept-Language), RFC 5234 Appendix B.1 (core
rules), RFC 4647 §2.1 (basic language ranges) and the WHATWG Fetch standard
(CORS-safelisted request-header); h11's ``_abnf`` is the model. RFC 9651's
classes, which only Accept-Query reads, are ``_structured``'s, loaded with it.

Each class is written once, as ABNF writes it (``_Parts``: strings of
characters and ``%xNN-NN`` spans); from that come both its set and its class
in the patterns. The Cython engine builds its C table of classes from the
sets (``_scan.CLASS``), and messages and checks read them. A pattern
is a source string, compiled by the module that reads with it: the pure
engine's own when it loads, the shared readers' on first use (``pattern``),
so importing fastaccept with the Cython engine loads no ``re``.

docs/development.md ("One place per rule") lists the readers of these
patterns, one per rule and engine. The pure engine's fast paths
(``FAST_CODING``, ``FAST_LANGUAGE``: a whole value of common members in one
match) change no answer, only its speed on the values clients send.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import Final, TypeAlias

    def pattern(source: str, namespace: dict[str, object]) -> Pattern[str]: ...

else:

    class pattern:
        """A pattern compiled when first used, so that ``import fastaccept``
        loads no ``re``: the readers both engines share (``_member``,
        ``_coding``, ``_language``, ``_text``) need one only when they read
        offers or a value. It stands as a global of ``namespace`` (its
        module's ``globals()``) until its first call, which compiles it and
        puts the compiled pattern in its place there: later calls read the
        pattern itself. Two threads' first calls compile it twice, harmlessly.
        """

        def __init__(self, source, namespace):
            self.source, self._namespace = source, namespace

        def __getattr__(self, name):  # match, fullmatch, search, sub
            import re  # once per pattern, on its first use

            compiled = re.compile(self.source)
            for key, value in list(self._namespace.items()):
                if value is self:
                    self._namespace[key] = compiled
            return getattr(compiled, name)


#: A class as ABNF writes one: alternatives, each a string of characters or a
#: ``(first, last)`` span (``%xNN-NN``), every character at most U+00FF.
if TYPE_CHECKING:
    _Parts: TypeAlias = tuple[str | tuple[int, int], ...]


def _set(parts: _Parts) -> frozenset[str]:
    """The characters of ``parts``."""
    chars: set[str] = set()
    for p in parts:
        chars.update(p if isinstance(p, str) else map(chr, range(p[0], p[1] + 1)))
    return frozenset(chars)


def _class(parts: _Parts) -> str:
    """``parts`` as a pattern's character class, each character as ``\\xNN``."""
    alternatives = [
        "".join([rf"\x{ord(c):02x}" for c in p])
        if isinstance(p, str)
        else rf"\x{p[0]:02x}-\x{p[1]:02x}"
        for p in parts
    ]
    return "[" + "".join(alternatives) + "]"


# --- Classes --------------------------------------------------------------

#: ``ALPHA = %x41-5A / %x61-7A``, ``DIGIT = %x30-39``, ``VCHAR = %x21-7E``
#: (RFC 5234 B.1); ``alphanum = ALPHA / DIGIT`` (RFC 4647 §2.1);
#: ``obs-text = %x80-FF`` (RFC 9110 §5.5).
_ALPHA: Final = ((0x41, 0x5A), (0x61, 0x7A))
_DIGIT: Final = ((0x30, 0x39),)
_ALPHANUM: Final = (*_ALPHA, *_DIGIT)
_VCHAR: Final = ((0x21, 0x7E),)
_OBS_TEXT: Final = ((0x80, 0xFF),)
ALPHA: Final = _set(_ALPHA)
DIGIT: Final = _set(_DIGIT)

#: The characters of a token (RFC 9110 §5.6.2)::
#:
#:     tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
#:             "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
_TCHAR: Final = ("!#$%&'*+-.^_`|~", *_DIGIT, *_ALPHA)
TCHARS: Final = _set(_TCHAR)


def is_token(text: str) -> bool:
    """Whether ``text`` is a token, ``1*tchar`` (RFC 9110 §5.6.2)."""
    return bool(text) and TCHARS.issuperset(text)


#: The characters of a quoted string, and those a backslash may escape there
#: (RFC 9110 §5.6.4)::
#:
#:     qdtext      = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
#:     quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
_QDTEXT: Final = ("\t \x21", (0x23, 0x5B), (0x5D, 0x7E), *_OBS_TEXT)
_ESCAPABLE: Final = ("\t ", *_VCHAR, *_OBS_TEXT)
QDTEXT_CHARS: Final = _set(_QDTEXT)
ESCAPABLE_CHARS: Final = _set(_ESCAPABLE)

#: The characters of a language range (RFC 4647 §2.1, below), for messages
#: that name the range before a violation: alphanum, ``-`` and ``*``.
LANGUAGE_RANGE_CHARS: Final = _set(("-*", *_ALPHANUM))

#: The characters of ``OWS = *( SP / HTAB )`` (RFC 9110 §5.6.3), the one
#: whitespace of a field value: what the engines' readers (and the checks of
#: a value's ends) pass over, and strip where they read OWS as a whole.
OWS_CHARS: Final = " \t"

#: What stands between two list members: OWS and the commas, empty members
#: among them (RFC 9110 §5.6.1.2)::
#:
#:     #element => [ element ] *( OWS "," OWS [ element ] )
_LIST_SEPARATOR: Final = (OWS_CHARS + ",",)
LIST_SEPARATOR_CHARS: Final = _set(_LIST_SEPARATOR)

#: The controls a field value may not hold, ``CTL`` but HTAB (RFC 5234 B.1
#: ``CTL = %x00-1F / %x7F``; RFC 9110 §5.5).
_CTL_BUT_HTAB: Final = ((0x00, 0x08), (0x0A, 0x1F), "\x7f")
CTL_BUT_HTAB_CHARS: Final = _set(_CTL_BUT_HTAB)

#: CORS-unsafe request-header bytes (Fetch): controls other than HT, the listed
#: delimiters, and DEL. The comma is not among them; the controls end at 0x1F.
_CORS_UNSAFE: Final = (*_CTL_BUT_HTAB, '"():<>?@[\\]{}')
CORS_UNSAFE_BYTES: Final = frozenset(map(ord, _set(_CORS_UNSAFE)))

#: Fetch: a safelisted ``accept`` value is at most this many bytes long.
CORS_MAX_LENGTH: Final = 128


# --- Patterns of the modules both engines share -------------------------
# (``_text``, and the exact readers ``_member``, ``_coding``, ``_language``)

#: Whether ``re`` has possessive quantifiers (``*+``, ``++``, ``?+``: Python
#: 3.11 and later). The fast patterns below write one after each repeat: a
#: repeat that never gives back what it took leaves sre no backtracking state
#: to keep, so a match does less work, and it stays linear on a
#: value of any length (a greedy repeated group keeps a stack that grows with
#: each repetition). It changes no match, as each repeat is followed by a
#: character it cannot take: a token by a delimiter, OWS by what is not
#: whitespace, a member by a comma or the end. Without them the repeats are
#: plain greedy ones, and ``_scan_py`` reads long values member by member.
POSSESSIVE: Final = sys.version_info >= (3, 11)
_P: Final = "+" if POSSESSIVE else ""

_ALPHA_CLASS: Final = _class(_ALPHA)
_DIGIT_CLASS: Final = _class(_DIGIT)
_ALPHANUM_CLASS: Final = _class(_ALPHANUM)

#: ``OWS = *( SP / HTAB )`` (RFC 9110 §5.6.3).
OWS: Final = _class((OWS_CHARS,)) + "*"

#: ``token = 1*tchar`` (RFC 9110 §5.6.2): a type, subtype, parameter name or
#: value (§8.3.1, §5.6.6), a content-coding (§8.4.1).
TOKEN: Final = _class(_TCHAR) + "+"

#: The inside of a quoted string (RFC 9110 §5.6.4), up to its closing quote::
#:
#:     quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
#:
#: unrolled: runs of qdtext between quoted-pairs, one character class per
#: run, no group repeated per character. Its repeats are possessive
#: (``POSSESSIVE``), which changes no match: the body ends before a ``"``
#: or a violation, and no character given back would leave a ``"`` next.
#: Given back, an unterminated string was tried again at each of its
#: characters, and each quoted-pair kept its repetition's state (1 MiB: 62
#: ms; 120 MB).
_QDTEXT_RUN: Final = _class(_QDTEXT) + "*" + _P
QUOTED_BODY: Final = rf"{_QDTEXT_RUN}(?:\\{_class(_ESCAPABLE)}{_QDTEXT_RUN})*{_P}"
#: Where a member ends, read outside and inside quoted strings: lists are
#: separated by commas (RFC 9110 §5.6.1), which a quoted string may hold, and
#: in one a backslash escapes the next character (§5.6.4).
COMMA_OR_QUOTE: Final = '[,"]'
QUOTE_OR_BACKSLASH: Final = r'["\\]'

_TOKEN_RUN: Final = TOKEN + _P
_OWS_RUN: Final = OWS + _P

#: The type and subtype of a media range, then OWS (RFC 9110 §12.5.1,
#: §8.3.1)::
#:
#:     media-range = ( "*/*" / ( type "/" "*" ) / ( type "/" subtype ) )
#:                   parameters
#:     type        = token
#:     subtype     = token
#:
#: The groups: the type, and the subtype (None where no ``/`` and token
#: follow: ``_member.scan_member`` tells the legacy bare ``*`` from a
#: violation). ``*/subtype`` matches too; ``scan_member`` refuses it. A
#: structured-syntax suffix range (RFC 6838 §4.2.8; docs/rules.md rule 22)
#: is a subtype token too, which ``scan_member`` checks::
#:
#:     suffix-range = type "/*+" suffix
#:     suffix       = token
MEDIA_RANGE: Final = rf"({_TOKEN_RUN})(?:/({_TOKEN_RUN}))?{_OWS_RUN}"

#: One parameter, from its ``;`` to the OWS after it, and a weight right
#: after it if one follows (RFC 9110 §5.6.6, §5.6.4, §12.4.2)::
#:
#:     parameters      = *( OWS ";" OWS [ parameter ] )
#:     parameter       = parameter-name "=" parameter-value
#:     parameter-value = ( token / quoted-string )
#:     weight          = OWS ";" OWS "q=" qvalue
#:
#: The groups: the name, the value as a token or inside its quotes (a
#: ``QUOTED_BODY``), and the token after ``q=`` of a weight that follows
#: (so a member's last two parameters, often ``;name=value;q=w``, take one
#: match). An empty parameter matches only where a ``,``, a ``;`` or the end
#: follows its OWS, and a run of them takes one match with what follows it;
#: anything else that does not match is a violation, which
#: ``_member.scan_member`` then names. The run, ``1*( ";" OWS )``, is read
#: as a ``;``, then one character class of the same characters up to the
#: last ``;`` and the OWS after it: a repeated group would keep sre's state
#: for each repetition (1 MiB of ``;`` took 77 MB and super-linear time).
#: Where nothing valid follows the run, giving back ends it at an earlier
#: ``;`` with its OWS, as giving back a repetition would, never inside an
#: OWS (a run of spaces then costs one step each, not a retry each).
_SEMICOLON_OR_OWS: Final = _class((";" + OWS_CHARS,))
PARAMETER: Final = (
    rf';(?:{_SEMICOLON_OR_OWS}*;)?{_OWS_RUN}(?:({_TOKEN_RUN})=(?:({_TOKEN_RUN})|"({QUOTED_BODY})")'
    rf"|(?=[,;]|\Z)){_OWS_RUN}(?:;{_OWS_RUN}[qQ]=({_TOKEN_RUN}){_OWS_RUN})?"
)

#: ``qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`` (RFC 9110
#: §12.4.2); the group holds the digits after ``0.``.
QVALUE: Final = rf"0(?:\.({_DIGIT_CLASS}{{0,3}}))?|1(?:\.0{{0,3}})?"

#: A language range's subtags (RFC 4647 §2.1)::
#:
#:     language-range = (1*8ALPHA *("-" 1*8alphanum)) / "*"
#:     alphanum       = ALPHA / DIGIT
#:
#: The exact reader takes up to 9 characters, a 9th being the violation.
PRIMARY_SUBTAG: Final = _ALPHA_CLASS + "{1,9}"
SUBTAG: Final = _ALPHANUM_CLASS + "{1,9}"
#: A whole language range without ``*``: an offered language tag.
LANGUAGE_TAG: Final = (
    rf"{_ALPHA_CLASS}{{1,8}}{_P}(?:-{_ALPHANUM_CLASS}{{1,8}}{_P})*{_P}"
)

#: A character that is no header byte (field values are octets, RFC 9110
#: §5.5), as ``_text`` reads a ``str``.
NON_LATIN1: Final = r"[^\x00-\xff]"


# --- Patterns of the pure-Python engine only (``_scan_py``) ---------------

#: Empty list members and the OWS around commas.
LIST_SEPARATORS: Final = _class(_LIST_SEPARATOR) + "*"


def _list_of(member: str) -> str:
    """A whole list value (RFC 9110 §5.6.1.2) of ``member``s only, each then
    OWS and a comma or the end; empty members and OWS allowed."""
    seps, ows = LIST_SEPARATORS + _P, OWS + _P
    return rf"{seps}(?:{member}{ows}(?:,{seps}|\Z))*{_P}"


#: Any CORS-unsafe request-header byte (Fetch), or a character that is no
#: byte (``NON_LATIN1``): the pure engine's CORS check
#: (``Accept.cors_safelisted``, ``is_cors_safelisted``), which so reads a
#: ``str`` as it is.
CORS_UNSAFE: Final = _class(_CORS_UNSAFE) + "|" + NON_LATIN1

#: The characters of a URI reference (RFC 3986 §2), which a problem's
#: ``type`` and ``instance`` are (RFC 9457 §3.1.1, §3.1.5)::
#:
#:     pct-encoded = "%" HEXDIG HEXDIG
#:     unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"
#:     reserved    = gen-delims / sub-delims
#:     gen-delims  = ":" / "/" / "?" / "#" / "[" / "]" / "@"
#:     sub-delims  = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
#:
#: What one holds only percent-encoded: any other character, and a ``%``
#: that begins no pct-encoded octet (``_problems`` encodes them, as an IRI
#: is made a URI, RFC 3987 §3.1).
_URI_CHAR: Final = ("-._~:/?#[]@!$&'()*+,;=", *_ALPHANUM)
NOT_IN_URI_REFERENCE: Final = (
    "(?:[^" + _class(_URI_CHAR)[1:-1] + "%]|%(?![0-9A-Fa-f]{2}))+"  # a run of them
)
#: Where "[" and "]" may stand unencoded, around an IP-literal host, and
#: "#" once, before the fragment (RFC 3986 §3, §3.2, §3.2.2, §3.5)::
#:
#:     URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
#:     relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
#:     hier-part     = "//" authority path-abempty / path-absolute / ...
#:     scheme        = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
#:     authority     = [ userinfo "@" ] host [ ":" port ]
#:     IP-literal    = "[" ( IPv6address / IPvFuture  ) "]"
#:     fragment      = *( pchar / "/" / "?" )
#:
#: A URI's scheme and its colon (RFC 3986 §3.1: scheme = ALPHA *( ALPHA /
#: DIGIT / "+" / "-" / "." )).
_URI_SCHEME: Final = r"[A-Za-z][A-Za-z0-9+.\-]*:"
#: A reference up to the end of an IP-literal host, which a port, the path,
#: the query, the fragment or the end follows: brackets elsewhere, and a "#"
#: after the first, are percent-encoded.
URI_IP_LITERAL: Final = (
    rf"(?:{_URI_SCHEME})?//(?:[^/?#\[\]@]*@)?\[[^/?#\[\]@]*\]"
    r"(?=(?::[0-9]*)?(?:[/?#]|$))"
)
#: A colon's place in a relative reference (RFC 3986 §4.2, §3.3)::
#:
#:     relative-part = "//" authority path-abempty / path-absolute
#:                   / path-noscheme / path-empty
#:     path-noscheme = segment-nz-nc *( "/" segment )
#:     segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
#:                   ; non-zero-length segment without any colon ":"
#:
#: The first segment of a reference that begins with no scheme, when it holds
#: a colon, which would be read as one ("10:30/log"): its colons are
#: percent-encoded. A reference that begins with a scheme is a URI.
URI_COLON_SEGMENT: Final = rf"(?!{_URI_SCHEME})[^/?#:]*:[^/?#]*"


#: The optional weight of a common list member (RFC 9110 §12.4.2)::
#:
#:     weight = OWS ";" OWS "q=" qvalue
#:
#: ``q`` in either case and a qvalue-shaped number, which ``_scan_py`` then
#: checks with ``_member.exact_weight``.
_FAST_WEIGHT: Final = (
    rf"(?:{_OWS_RUN};{_OWS_RUN}[qQ]=[01](?:\.{_DIGIT_CLASS}{{0,3}}{_P})?{_P})?{_P}"
)
#: The Accept-Encoding fast path: a value of common members only, each the
#: coding, then the weight if any (RFC 9110 §12.5.3, §8.4.1). A value it does
#: not cover whole is read member by member by ``_coding.scan_coding``::
#:
#:     Accept-Encoding = #( codings [ weight ] )
#:     codings         = content-coding / "identity" / "*"
#:     content-coding  = token
FAST_CODING: Final = _list_of(rf"{_TOKEN_RUN}{_FAST_WEIGHT}")
#: The Accept-Language fast path, the same way: each member the range, then
#: the weight if any; ``_language.scan_language`` reads any other value
#: (RFC 9110 §12.5.4)::
#:
#:     Accept-Language = #( language-range [ weight ] )
FAST_LANGUAGE: Final = _list_of(rf"(?:\*|{LANGUAGE_TAG}){_FAST_WEIGHT}")
