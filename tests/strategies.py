"""Hypothesis strategies: grammar-shaped Accept values with every kind of defect."""

from __future__ import annotations

from typing import TypeVar

from hypothesis import strategies as st

_T = TypeVar("_T")


def mostly(
    good: st.SearchStrategy[_T], bad: st.SearchStrategy[_T]
) -> st.SearchStrategy[_T]:
    """``good`` three examples in four, else ``bad``: a property "refused,
    or well formed" checks its answers only when enough arguments are
    taken (``st.one_of`` draws a branch among all of them, nested ones too,
    so a few good branches among many bad ones are seldom drawn)."""
    return st.integers(0, 3).flatmap(lambda draw: good if draw else bad)


TOKENS = st.sampled_from(
    [
        "text",
        "html",
        "TEXT",
        "Html",
        "application",
        "json",
        "vnd.a+json",
        "hal+json",
        "*+json",
        "*+XML",
        "+json",
        "x-c",
        "a",
        "b",
        "*",
        "q",
        "Q",
        "level",
        "charset",
        "v",
        "b3",
        "*x",
        "1",
        "0",
        "!#$%&'+-.^_`|~",
    ]
)
WEIGHTS = st.sampled_from(
    [
        "0",
        "1",
        "0.",
        "1.",
        "0.5",
        "0.123",
        "1.000",
        "0.8",
        "0.9",
        "0.25",
        "0.001",
        "1.0000",
        "0.1234",
        "1.001",
        ".2",
        ".25",
        ".125",
        ".1234",
        ".",
        "2",
        "11",
        "-1",
        "+0.5",
        "0..1",
        "a",
        "inf",
        "nan",
        '"0.5"',
        "",
        "00",
        "01",
        "1e-3",
    ]
)
QUOTED_PIECES = [*"abc ,;=\t\xe9(:@", '\\"', "\\\\", "\\a"]
QUOTED = st.builds(
    lambda body: '"' + "".join(body) + '"',
    st.lists(st.sampled_from(QUOTED_PIECES), max_size=8)
    | st.lists(st.sampled_from(list('ab,"\\\x00\x7f\u20ac')), max_size=6),
)
VALUES = st.one_of(TOKENS, QUOTED, st.sampled_from(["", "UTF-8", "utf-8", "a b"]))
JUNK = st.sampled_from(
    [
        " ",
        "\t",
        ",",
        ";",
        "=",
        "/",
        '"',
        "\\",
        "\x00",
        "\x1f",
        "\x7f",
        "\r\n",
        "\xe9",
        "\u20ac",
        "\U0001f600",
        "*",
        "(",
        ")",
        ":",
        "@",
        "?",
        "[",
        "{",
    ]
)


@st.composite
def parameter(draw: st.DrawFn) -> str:
    ows1 = draw(st.sampled_from(["", " ", "\t", "  "]))
    ows2 = draw(st.sampled_from(["", " ", "\t"]))
    if draw(st.booleans()):
        name = draw(st.sampled_from(["q", "Q"]))
        value = draw(WEIGHTS)
    else:
        name, value = draw(TOKENS), draw(VALUES)
    eq = draw(st.sampled_from(["="] * 12 + [" =", "= ", ""]))
    return f"{ows1};{ows2}{name}{eq}{value}"


#: What follows ``*+`` in a suffix range (docs/rules.md rule 22): the
#: suffixes of the offers, another, one of two parts, none (invalid).
SUFFIXES = st.sampled_from(["json", "JSON", "xml", "ber+json", "json-seq", "+json", ""])


@st.composite
def member(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 6))
    if kind == 0:
        rng = "*/*"
    elif kind == 1:
        rng = draw(TOKENS) + "/*"
    elif kind == 2:
        rng = "*"
    elif kind == 3:  # a suffix range, valid or not
        rng = draw(TOKENS) + "/*+" + draw(SUFFIXES)
    else:
        rng = draw(TOKENS) + "/" + draw(TOKENS)
    params = "".join(draw(st.lists(parameter(), max_size=4)))
    text = rng + params
    if draw(st.integers(0, 6)) == 0:  # one defect somewhere
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(JUNK) + text[at:]
    return text


@st.composite
def accept_values(draw: st.DrawFn) -> str:
    members = draw(st.lists(member(), max_size=6))
    seps = [
        draw(st.sampled_from([",", ", ", " ,", ",,", " , ", ",\t"])) for _ in members
    ]
    text = "".join(m + s for m, s in zip(members, seps, strict=True))
    trim_last: bool = draw(st.booleans())
    return text[: -len(seps[-1])] if seps and trim_last else text


#: Anything a client could send, as str or as bytes.
ANY_VALUE = st.one_of(
    accept_values(),
    accept_values().map(lambda s: s.encode("latin-1", "replace")),
    st.text(max_size=60),
    st.text(alphabet=st.characters(max_codepoint=0xFF), max_size=60),
    st.binary(max_size=60),
)

OFFERS = [
    "text/html",
    "application/json",
    "text/plain;charset=UTF-8",
    "image/png",
    "text/html;level=1",
    'application/xml;p="a b"',
    "a/b",
    "Text/X-C",
    "application/vnd.a+json",
    "application/hal+json;charset=utf-8",
    "text/atom+XML",
    "application/vnd.b+ber+json",
]
