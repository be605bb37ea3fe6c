"""Accept-Query (RFC 10008 §3): ``format_accept_query`` and ``parse_accept_query``.

Unit tests, then both functions held against http-sf, an independent RFC 9651
implementation (the [test] extra; those tests skip without it), on generated
values: what one writes the other reads back, and a value either reads is
read alike, or refused by both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import (
    AcceptError,
    AcceptQuery,
    Consumes,
    MediaRange,
    format_accept_query,
    parse,
    parse_accept_query,
)

from .test_differential import FUZZ

try:
    import http_sf
except ModuleNotFoundError:  # the [test] extra's
    http_sf = None  # type: ignore[assignment]

needs_http_sf = pytest.mark.skipif(
    http_sf is None, reason="http-sf is not installed (the [test] extra)"
)

#: RFC 9651 §3.3.4, written here independently of the code under test.
SF_TOKEN = re.compile(r"[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*")
#: A media range's ``type/subtype``: two RFC 9110 tokens.
ESSENCE = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+/[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def quoted(value: str) -> str:
    """``value`` as an RFC 9110 quoted-string (§5.6.4)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ranges(*texts: str) -> tuple[MediaRange, ...]:
    """The media ranges ``parse`` reads in ``texts``."""
    return tuple(parse(", ".join(texts), strict=True))


# --- format_accept_query ---------------------------------------------------


@pytest.mark.parametrize(
    ("media_types", "expected"),
    [
        # RFC 10008 §3's example, as Tokens where they are valid
        (
            ["application/jsonpath", 'application/sql;charset="UTF-8"'],
            "application/jsonpath, application/sql;charset=UTF-8",
        ),
        (["Text/CSV; Header=Present", "*/*"], "text/csv;header=Present, */*"),
        (["image/*", "application/*"], "image/*, application/*"),
        (["3gpp/x"], '"3gpp/x"'),  # a type that begins with a digit: a String
        (["a/b; v=1.0"], 'a/b;v="1.0"'),  # a value that begins with a digit too
        (['a/b;x="say \\"hi\\" \\\\"'], 'a/b;x="say \\"hi\\" \\\\"'),
        (["a/b;x=*y"], "a/b;x=*y"),
        (['a/b;x="p:q/r"'], "a/b;x=p:q/r"),  # ':' and '/' in a Token
        (['a/b;x=""'], 'a/b;x=""'),
        (["a/b;*y.z_-1=v"], "a/b;*y.z_-1=v"),  # every key character
    ],
)
def test_format_accept_query(media_types: list[str], expected: str) -> None:
    assert format_accept_query(media_types) == expected


def test_format_accept_query_takes_media_ranges() -> None:
    assert format_accept_query(ranges("TEXT/Plain;Charset=utf-8")) == (
        "text/plain;charset=utf-8"
    )


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("text/html;q=0.5", "takes no weight"),
        ("text/html;q=1", "takes no weight"),
        (MediaRange("text", "html", (), 500), "takes no weight"),
        ("a/b;x+y=1", "'x+y' is no Structured Field key"),
        ("a/b;1x=1", "'1x' is no Structured Field key"),
        ("a/b;_x=1", "'_x' is no Structured Field key"),
        ('a/b;x="caf\xe9"', "the value of 'x', 'caf\xe9' is no Token or String"),
        ('a/b;x="a\tb"', "a tab"),
        ("a/b, c/d", "one media type per item"),
        ("*/b", "invalid media type"),
        ("application/*+json", "a suffix range"),  # RFC 10008 §3: */* and type/*
        (MediaRange("application", "*+json"), "a suffix range"),
    ],
)
def test_format_accept_query_refuses_what_the_field_cannot_carry(
    item: str | MediaRange, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        format_accept_query([item])


def test_format_accept_query_refuses_no_media_types() -> None:
    # RFC 9651 §4.1: an empty List is not sent; the header is omitted.
    empty: Iterable[str]
    for empty in ([], (), iter([])):
        with pytest.raises(ValueError, match="at least one media type, none given"):
            format_accept_query(empty)


def test_format_accept_query_takes_an_iterable_of_media_types() -> None:
    with pytest.raises(TypeError, match=r"use \['text/html'\]"):
        format_accept_query("text/html")
    with pytest.raises(TypeError, match="must be a str, not int"):
        format_accept_query([1])  # type: ignore[list-item]
    assert format_accept_query(t for t in ["a/b", "c/d"]) == "a/b, c/d"


# --- parse_accept_query ----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "members"),
    [
        # RFC 10008 §3 and its Appendix examples
        (
            '"application/jsonpath", application/sql;charset="UTF-8"',
            ("application/jsonpath", "application/sql;charset=UTF-8"),
        ),
        (
            "application/x-www-form-urlencoded, application/sql",
            ("application/x-www-form-urlencoded", "application/sql"),
        ),
        (
            '"application/sql", "application/xslt+xml"',
            ("application/sql", "application/xslt+xml"),
        ),
        # whitespace: SP at either end, OWS around commas, SP after ';'
        ("  a/b ,\tc/d\t,e/f  ", ("a/b", "c/d", "e/f")),
        ("a/b; x=y;  z=w", ("a/b;x=y;z=w",)),
        # names lower-case, values as sent; Token and String alike
        ('A/B;x=Y, "C/D";x="Y"', ("a/b;x=Y", "c/d;x=Y")),
        # the wildcards RFC 10008 §3 has: */* and type/*
        ('*/*, text/*, "image/*"', ("*/*", "text/*", "image/*")),
        # a repeated key keeps its first place and its last value (RFC 9651 §4.2.3.2)
        ("a/b;x=c;y=d;x=e", ("a/b;x=e;y=d",)),
        # escapes, and ':' '/' in a Token value
        ('a/b;x="\\"\\\\";y=p:q/r', ('a/b;x="\\"\\\\";y="p:q/r"',)),
        ("", ()),
        ("   ", ()),
    ],
)
def test_parse_accept_query(value: str, members: tuple[str, ...]) -> None:
    read = parse_accept_query(value)
    assert read == AcceptQuery(ranges(*members) if members else (), "")
    assert parse_accept_query(value.encode()) == read  # bytes are read alike
    assert parse_accept_query(bytearray(value.encode())) == read
    assert parse_accept_query(memoryview(value.encode())) == read


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("a/b,", "at position 4: a comma ends the value: no member follows it"),
        ("a/b,,c/d", "at position 4: expected a Token or a String, found ','"),
        ("a/b c/d", "at position 4: expected ',' or the end, found 'c'"),
        ("a/b ;x=y", "at position 4: expected ',' or the end, found ';'"),
        (
            "a/b;x =y",
            "at position 4: a parameter without a value, not a Token or a String",
        ),
        ("\ta/b", "at position 0: expected a Token or a String, found a tab"),
        (
            "a/b;X=y",
            "at position 4: expected a parameter key (a-z or '*' first), found 'X'",
        ),
        (
            "a/b;x",
            "at position 4: a parameter without a value, not a Token or a String",
        ),
        ("a/b;x=1", "at position 6: an Integer, not a Token or a String"),
        ("a/b;x=y;x=1", "at position 10: an Integer, not a Token or a String"),
        ("a/b;x=-1.5", "at position 6: a Decimal, not a Token or a String"),
        ("a/b;x=?1", "at position 6: a Boolean, not a Token or a String"),
        ("1/2", "at position 0: an Integer, not a Token or a String"),
        ("(a/b c/d)", "at position 0: an Inner List, not a Token or a String"),
        ("a/b, :YQ==:", "at position 5: a Byte Sequence, not a Token or a String"),
        ("@1", "at position 0: a Date, not a Token or a String"),
        ('%"a/b"', "at position 0: a Display String, not a Token or a String"),
        ("'a/b'", 'at position 0: expected a Token or a String, found "\'"'),
        ('"a/b', "at position 0: a String without its closing '\"'"),
        (
            '"a/\\b"',
            "at position 4: a backslash in a String escapes '\"' or '\\', not 'b'",
        ),
        (
            '"a/b\\',
            "at position 5: a backslash in a String escapes '\"' or '\\', not the end of the value",
        ),
        ('"a/\tb"', "at position 3: a tab in a String (printable ASCII only)"),
        ("a/b;x=caf\xe9", "at position 9: byte 0xE9: not ASCII"),
        (
            "a/\u20ac",
            "at position 2: non-Latin-1 character U+20AC (not a header byte): not ASCII",
        ),
        # what RFC 9651 reads but Accept-Query's definition refuses
        (
            '"a/b;x=y"',
            "at position 0: expected a media range 'type/subtype' without parameters (RFC 10008 §3)",
        ),
        (
            '" a/b"',
            "at position 0: expected a media range 'type/subtype' without parameters (RFC 10008 §3)",
        ),
        (
            "c/d, text",
            "at position 5: the member is not a media range: expected '/' after the type 'text', found the end of the value",
        ),
        (
            "*/html",
            "at position 0: the member is not a media range: expected '*' after '*/'",
        ),
        (
            "*",
            "at position 0: the member is not a media range: expected '/' after "
            "the type '*', found the end of the value",
        ),
        ("a/b:c", "at position 0: expected a media range 'type/subtype' without"),
        # a 'q' is refused as such, before its value is read as a weight:
        # no advice to write a valid weight, which would be refused too
        (
            "a/b;q=x",
            "at position 0: a 'q' parameter, a weight, which Accept-Query does not take",
        ),
        (
            'a/b;q="1"',
            "at position 0: a 'q' parameter, a weight, which Accept-Query does not take",
        ),
        # RFC 10008 §3 has no wildcard but */* and type/*: no suffix range
        # (rule 22), which format_accept_query refuses to write
        (
            "*/*, text/*, application/*+json",
            "at position 13: a suffix range: Accept-Query has no wildcard but "
            "*/* and type/* (RFC 10008 §3)",
        ),
        ('"Application/*+JSON";x=y', "at position 0: a suffix range"),
        # a ';' with no key after it, at the end or before a tab (RFC 9651
        # §4.2.3.2 discards SP only)
        (
            "a/b;",
            "at position 4: expected a parameter key (a-z or '*' first), found the end of the value",
        ),
        (
            "a/b;x=y; ",
            "at position 9: expected a parameter key (a-z or '*' first), found the end of the value",
        ),
        (
            "a/b;\tx=y",
            "at position 4: expected a parameter key (a-z or '*' first), found a tab",
        ),
        # DEL is no printable ASCII (RFC 9651 §3.3.3: %x20-7E)
        (
            '"a/\x7f"',
            "at position 3: control byte 0x7F in a String (printable ASCII only)",
        ),
        # a '%' in a Display String at the end of the value, one digit after it
        (
            'a/b;x=%"%c',
            "at position 8: '%' in a Display String takes two of 0-9 and a-f",
        ),
        (
            "a/b/c",
            "at position 0: expected a media range 'type/subtype' without parameters (RFC 10008 §3)",
        ),
    ],
)
def test_a_bad_value_gives_no_members_and_the_reason(value: str, reason: str) -> None:
    read = parse_accept_query(value)
    assert read.members == ()
    assert read.reason.startswith(reason), read.reason


@pytest.mark.parametrize(
    "other",
    ["1", "-1.5", "?0", ":YQ==:", ":YWI:", "::", "@-1", '%"caf%c3%a9 \\"', ""],
)
def test_a_parameter_ends_with_its_last_value(other: str) -> None:
    # RFC 9651 §4.2.3.2: a repeated key's last value replaces the first, so
    # a bare item of another type, read whole, may come before a Token ("":
    # no value, Boolean true).
    value = f"a/b;x={other};y=z;x=w" if other else "a/b;x;y=z;x=w"
    assert parse_accept_query(value) == (ranges("a/b;x=w;y=z"), "")


@pytest.mark.parametrize(
    ("other", "reason"),
    [
        ("-", "at position 7: expected a digit, found ';'"),
        ("1234567890123456", "at position 21: an Integer of more than 15 digits"),
        (
            "1234567890123.4",
            "at position 19: a Decimal with more than 12 digits before '.'",
        ),
        ("1.2345", "at position 11: a Decimal with more than 3 digits after '.'"),
        ("123456789012.1234", "at position 22: a Decimal of more than 16 characters"),
        ("1.", "at position 7: a Decimal that ends with '.'"),
        ("?2", "at position 7: expected '0' or '1' after '?', found '2'"),
        (":Y:", "at position 6: a Byte Sequence that is not base64"),
        (":Y=Q:", "at position 8: '=' in a Byte Sequence"),
        (":YQ===:", "at position 6: a Byte Sequence that is not base64"),
        (":==:", "at position 6: a Byte Sequence that is not base64"),
        (":YQ", "at position 6: a Byte Sequence without its closing ':'"),
        ("@1.5", "at position 7: a Date that is not an Integer"),
        (
            '%"%C3%A9"',
            "at position 8: '%' in a Display String takes two of 0-9 and a-f",
        ),
        ('%"%c3"', "at position 6: a Display String that is not UTF-8"),
        ('%"a\tb"', "at position 9: a tab in a Display String"),
        ("%a", "at position 7: expected '\"' after '%', found 'a'"),
        ('%"a', "at position 6: a Display String without its closing '\"'"),
        ("(a)", "at position 6: expected a Token or a String, found '('"),
    ],
)
def test_a_parameter_value_of_another_type_is_read_by_its_rules(
    other: str, reason: str
) -> None:
    read = parse_accept_query(f"a/b;x={other};x=w")
    assert read.members == ()
    assert read.reason == reason


def test_parse_accept_query_reads_a_value_up_to_max_length() -> None:
    value = ", ".join(["a/b"] * 3000)  # 14,998 characters
    assert parse_accept_query(value).reason == (
        "the value is 14998 characters long; the limit is 8192"
    )
    assert len(parse_accept_query(value, max_length=None).members) == 3000
    assert parse_accept_query("a/b", max_length=2) == AcceptQuery(
        (), "the value is 3 characters long; the limit is 2"
    )
    # a value of exactly max_length characters is read
    assert parse_accept_query("a/b", max_length=3) == AcceptQuery(ranges("a/b"), "")
    with pytest.raises(ValueError, match="max_length"):
        parse_accept_query("a/b", max_length=-1)


def test_parse_accept_query_takes_a_header_value_or_none() -> None:
    assert parse_accept_query(None) == AcceptQuery((), "")
    with pytest.raises(TypeError, match="an Accept-Query value must be str, bytes"):
        parse_accept_query(1)  # type: ignore[arg-type]
    # a response header: the hint reads it from the response
    with pytest.raises(TypeError, match=r"response\.headers\.get\('Accept-Query'\)"):
        parse_accept_query(1)  # type: ignore[arg-type]
    members, reason = parse_accept_query("a/b")  # a named tuple
    assert (members, reason) == (ranges("a/b"), "")


@pytest.mark.parametrize(
    "media_types",
    [
        ["application/json", "Text/CSV; Header=present", "image/*"],
        ['3gpp/x;a="b c"', 'application/*;v="1\\\\2"'],
    ],
)
def test_consumes_accept_query_reads_back_as_its_media_types(
    media_types: list[str],
) -> None:
    consumes = Consumes(media_types)
    assert parse_accept_query(consumes.accept_query) == (ranges(*media_types), "")


def test_a_type_accept_query_cannot_carry_leaves_it_out() -> None:
    # x+y is a parameter name (a token), but no RFC 9651 key.
    consumes = Consumes(["a/b;x+y=1"])
    assert consumes.accept_query is None
    refused = consumes.check("text/plain", method="QUERY")
    assert refused.status == 415
    assert "Accept-Query" not in refused.headers
    assert refused.headers["Accept"] == "a/b;x+y=1"
    suffix = Consumes(["application/*+json", "application/json"])
    assert suffix.accept_query is None
    assert "Accept-Query" not in suffix.check("text/plain", method="QUERY").headers


# --- both functions against http-sf ----------------------------------------

TYPES = st.sampled_from(
    ["text", "application", "A", "x-y.z", "3gpp", "*", "v!#$%&'^_`|~"]
)
SUBTYPES = st.sampled_from(["html", "vnd.a+json", "*", "*+json", "B", "1d", "x~y"])
KEYS = st.sampled_from(["charset", "a", "*x", "level", "x_y-z.w*", "v2"])
PARAM_VALUES = st.one_of(
    st.sampled_from(["UTF-8", "1", "0.5", "", "*", "p:q/r", "a b", 'x"y', "a\\b", "%"]),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=6),
)


@st.composite
def media_types(draw: st.DrawFn) -> str:
    """A media range ``format_accept_query`` takes: a wildcard type only
    with a wildcard subtype, no suffix range; parameters with Structured
    Field keys."""
    type_ = draw(TYPES)
    subtype = "*" if type_ == "*" else draw(SUBTYPES.filter(lambda s: s != "*+json"))
    params = draw(st.dictionaries(KEYS, PARAM_VALUES, max_size=3))
    return f"{type_}/{subtype}" + "".join(
        f";{k}={quoted(v)}" for k, v in params.items()
    )


@needs_http_sf
@FUZZ
@given(st.lists(media_types(), min_size=1, max_size=4))
def test_what_format_writes_http_sf_reads(types: list[str]) -> None:
    value = format_accept_query(types)
    members: Any = http_sf.parse(value.encode("ascii"), tltype="list")
    assert http_sf.ser(members) == value  # tokens where valid, strings otherwise
    assert len(members) == len(types)
    for member, rng in zip(members, ranges(*types), strict=True):
        assert isinstance(member, tuple)
        bare, params = member
        assert str(bare) == rng.essence
        assert isinstance(bare, http_sf.Token) == bool(SF_TOKEN.fullmatch(rng.essence))
        assert {k: str(v) for k, v in params.items()} == dict(rng.params)
        for text in params.values():
            assert isinstance(text, http_sf.Token) == bool(
                SF_TOKEN.fullmatch(str(text))
            )
    assert parse_accept_query(value) == (ranges(*types), "")


def expected_members(members: Any) -> tuple[MediaRange, ...] | None:
    """The media ranges Accept-Query's definition (RFC 10008 §3) reads in
    what http-sf parsed, or None where it refuses it: each member a Token or
    String holding ``type/subtype``, its parameters Tokens or Strings, none
    named ``q``, the whole a media range for ``parse`` (rules 2, 22) but no
    suffix range ``type/*+suffix`` (RFC 10008 §3: no wildcard but ``*/*``
    and ``type/*``)."""
    found = []
    for bare, params in members:
        texts = [bare, *params.values()]
        if not all(type(text) in (str, http_sf.Token) for text in texts):
            return None  # an Inner List, another bare item, Boolean true
        if not ESSENCE.fullmatch(str(bare)) or "q" in params:
            return None
        written = "".join(f";{k}={quoted(str(v))}" for k, v in params.items())
        try:
            (rng,) = parse(str(bare) + written, strict=True)
        except AcceptError:
            return None
        if rng.subtype.startswith("*+"):
            return None
        found.append(rng)
    return tuple(found)


def reads_as_http_sf_does(value: str | bytes) -> None:
    read = parse_accept_query(value)
    data = value if isinstance(value, bytes) else value.encode("latin-1")
    try:
        members = http_sf.parse(data, tltype="list")
    except http_sf.StructuredFieldError:
        assert read.members == () and read.reason, read
        return
    expected = expected_members(members)
    if expected is None:
        assert read.members == () and read.reason, (read, members)
    else:
        assert read == (expected, ""), members


#: Pieces of List values, well-formed and not. Dates stay small: http-sf
#: refuses one past the year 9999, as RFC 9651 §3.3.7 and Appendix B allow.
BARE_ITEMS = st.sampled_from(
    [
        "text/html",
        "A/B",
        "*/*",
        "a/*",
        "a/*+json",
        "*/b",
        "*",
        "text",
        "a/b/c",
        "a/b:c",
        '"3gpp/x"',
        '"a/b"',
        '""',
        '"a/b c"',
        '"a\\"b"',
        '"a\\\\b"',
        '"a\\b"',
        '"a/b',
        '"a\tb"',
        '"%"',
        "1",
        "-1.5",
        "1/2",
        "1.",
        "1.2345",
        "1234567890123456",
        "123456789012.5",
        "-",
        "?1",
        "?2",
        ":YQ==:",
        ":YWI:",
        "::",
        ":Y:",
        ":YQ===:",
        ":Y=Q:",
        ":YQ",
        "@1",
        "@-1.5",
        '%"a"',
        '%"caf%c3%a9"',
        '%"%c3"',
        '%"%C3%A9"',
        '%"a',
        "(a/b c/d)",
        "()",
        "'a/b'",
    ]
)
PARAM_KEYS = st.sampled_from(["charset", "a", "*x", "q", "X", "1a", "x_y-z.w*", ""])
SEPARATORS = st.sampled_from([", ", ",", " , ", "\t,\t", ",,", " ", ";", ", \t "])
ENDS = st.sampled_from(["", " ", "  ", "\t", "\r"])


@st.composite
def list_values(draw: st.DrawFn) -> str:
    """A List-shaped value with defects here and there: members, each with
    Parameters, between separators, whitespace at the ends."""
    members = []
    for _ in range(draw(st.integers(0, 4))):
        member = draw(BARE_ITEMS)
        for _ in range(draw(st.integers(0, 3))):
            spaces = draw(st.sampled_from(["", "", " ", "  ", "\t"]))
            param = ";" + spaces + draw(PARAM_KEYS)
            if draw(st.integers(0, 4)):
                param += "=" + draw(BARE_ITEMS)
            member += param
        members.append(member)
    value = members[0] if members else ""
    for member in members[1:]:
        value += draw(SEPARATORS) + member
    value = draw(ENDS) + value + draw(ENDS)
    if value and draw(st.integers(0, 9)) == 0:  # one character replaced
        at = draw(st.integers(0, len(value) - 1))
        char = draw(st.characters(max_codepoint=0xFF))
        value = value[:at] + char + value[at + 1 :]
    return value


@needs_http_sf
@FUZZ
@given(list_values())
def test_a_list_value_reads_as_http_sf_reads_it(value: str) -> None:
    reads_as_http_sf_does(value)


@needs_http_sf
@FUZZ
@given(st.text(max_size=24) | st.binary(max_size=24))
def test_any_text_or_bytes_reads_as_http_sf_reads_it(value: str | bytes) -> None:
    if isinstance(value, str) and not all(ord(char) <= 0xFF for char in value):
        assert parse_accept_query(value).reason  # no header byte: not ASCII
        return
    reads_as_http_sf_does(value)


TOKENS = st.from_regex(r"[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]{0,12}", fullmatch=True)
STRINGS = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=8)
SF_KEYS = st.from_regex(r"[a-z*][a-z0-9_\-.*]{0,5}", fullmatch=True)
MEDIA_TEXTS = st.one_of(st.builds("{}/{}".format, TYPES, SUBTYPES), TOKENS, STRINGS)


@st.composite
def structures(draw: st.DrawFn) -> list[tuple[object, dict[str, object]]]:
    """A List as http-sf takes it to write: Items whose bare items and
    parameter values are Tokens or Strings, most of them media ranges."""

    def text(strategy: st.SearchStrategy[str]) -> object:
        chosen = draw(strategy)
        as_token = SF_TOKEN.fullmatch(chosen) and draw(st.booleans())
        return http_sf.Token(chosen) if as_token else chosen

    return [
        (
            text(MEDIA_TEXTS),
            {
                draw(SF_KEYS): text(st.one_of(PARAM_VALUES, TOKENS))
                for _ in range(draw(st.integers(0, 2)))
            },
        )
        for _ in range(draw(st.integers(1, 4)))
    ]


@needs_http_sf
@FUZZ
@given(structures())
def test_what_http_sf_writes_parse_reads(
    members: list[tuple[object, dict[str, object]]],
) -> None:
    value = http_sf.ser(members)  # type: ignore[arg-type]
    reads_as_http_sf_does(value)
    if expected_members(http_sf.parse(value.encode(), tltype="list")) is not None:
        assert parse_accept_query(value).reason == ""
