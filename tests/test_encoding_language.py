"""Accept-Encoding and Accept-Language (RFC 9110 §12.5.3-4, RFC 4647).

Every test of an engine function runs on each engine (the Cython one skips,
saying why, where it is not built). The vectors in
``conformance/accept_{encoding,language}.jsonl`` are answered by every entry
point; a model written straight from the rules (docs/rules.md rules 18 and
19) checks the engines on generated values; and the engines are
differential-tested against each other.
"""

from __future__ import annotations

import copy
import os
import pickle
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastaccept
from fastaccept import (
    IMPLEMENTATION,
    Accept,
    AcceptEncoding,
    AcceptError,
    AcceptLanguage,
    Coding,
    LanguageRange,
    MediaRange,
    SkippedMember,
    _errors,
    _language,
)
from fastaccept._limits import CACHE_KEY_MAX_LENGTH, LANGUAGE_PREFIX_KEPT, store

from .conftest import CYTHON_MISSING, ENGINES, Engine, traced, value_cache
from .strategies import JUNK, WEIGHTS
from .test_conformance import load

ENCODING = load("accept_encoding.jsonl")
LANGUAGE = load("accept_language.jsonl")


def _half(name: str) -> Engine:
    if name not in ENGINES:
        pytest.skip(str(CYTHON_MISSING))
    return ENGINES[name]


@pytest.fixture(params=["cython", "python"])
def lists(request: pytest.FixtureRequest) -> Engine:
    """Each engine module; the Cython one skips, saying why, when not built."""
    return _half(request.param)


# --- the vectors, through every entry point ----------------------------------

MISSING = object()


@pytest.mark.parametrize("case", ENCODING, ids=[c["id"] for c in ENCODING])
def test_encoding_vectors(lists: Engine, case: dict[str, Any]) -> None:
    value, offers, expected = case["value"], case["offers"], case["expected"]
    rank = [(offer, q) for offer, q in case["rank"]]
    chosen = lists.negotiate_encoding(value, offers, default=MISSING)
    assert chosen is (MISSING if expected is None else offers[offers.index(expected)])
    assert lists.negotiate_encoding(value, offers) == expected, case["note"]
    negotiator = lists.EncodingNegotiator(offers)
    assert negotiator.choose(value) == expected
    assert negotiator.choose(value) == expected  # from the cache
    assert negotiator.rank(value) == rank, case["note"]
    index = negotiator.choose_index(value)
    assert index == (-1 if expected is None else offers.index(expected))
    parsed = lists.parse_encoding(value)
    assert parsed.best(offers) == expected
    assert parsed.rank(offers) == rank
    assert [[m.coding, m.q] for m in parsed] == case["members"]
    assert parsed.present is (value is not None)
    for offer in offers:
        assert parsed.quality(offer) == dict(rank).get(offer, 0.0)
    _check_strict(lists.parse_encoding, case)


@pytest.mark.parametrize("case", LANGUAGE, ids=[c["id"] for c in LANGUAGE])
def test_language_vectors(lists: Engine, case: dict[str, Any]) -> None:
    value, offers, expected = case["value"], case["offers"], case["expected"]
    rank = [(offer, q) for offer, q in case["rank"]]
    chosen = lists.negotiate_language(value, offers, default=MISSING)
    assert chosen is (MISSING if expected is None else offers[offers.index(expected)])
    assert lists.negotiate_language(value, offers) == expected, case["note"]
    negotiator = lists.LanguageNegotiator(offers)
    assert negotiator.choose(value) == expected
    assert negotiator.choose(value) == expected  # from the cache
    assert negotiator.rank(value) == rank, case["note"]
    index = -1 if expected is None else offers.index(expected)
    raw = None if value is None else value.encode("latin-1")
    assert negotiator.choose_index(raw) == index  # the bytes a server receives
    assert lists.negotiate_language(raw, offers) == expected
    parsed = lists.parse_language(value)
    assert parsed.best(offers) == expected
    assert parsed.rank(offers) == rank
    assert [[m.range, m.q] for m in parsed] == case["members"]
    for offer in offers:
        assert parsed.quality(offer) == dict(rank).get(offer, 0.0)
    _check_strict(lists.parse_language, case)


def _check_strict(parse: Any, case: dict[str, Any]) -> None:
    if case["strict"] is None:
        assert list(parse(case["value"], strict=True)) == list(parse(case["value"]))
        assert not parse(case["value"]).skipped
    else:
        with pytest.raises(AcceptError) as caught:
            parse(case["value"], strict=True)
        assert caught.value.position == case["strict"]
        assert parse(case["value"]).skipped[0].position == case["strict"]


def test_the_vectors_say_where_they_come_from() -> None:
    for case in ENCODING + LANGUAGE:
        assert case["source"] and case["note"], case["id"]
    ids = [case["id"] for case in ENCODING + LANGUAGE]
    assert len(ids) == len(set(ids))
    sources = " ".join(case["source"] for case in ENCODING + LANGUAGE)
    for cited in ("RFC 9110 §12.5.3", "RFC 9110 §12.5.4", "RFC 4647 §3.3.1"):
        assert cited in sources
    assert "RFC 4647 §3.4" in sources and "issue 13" in sources


# --- the issue's cases, named -------------------------------------------------


def test_the_issue_cases(lists: Engine) -> None:
    encode = lists.negotiate_encoding
    assert encode("gzip", ["gzip", "identity"]) == "gzip"
    for refused in ("gzip;q=0", "notgzip", None):
        assert encode(refused, ["gzip", "identity"]) == "identity", refused
    assert encode("zstd;q=0.1, gzip", ["zstd", "gzip"]) == "gzip"
    assert encode("gzip, br", ["br", "gzip"]) == "br"  # server order
    assert encode("x-gzip", ["gzip"]) == "gzip"
    assert encode("*;q=0", ["identity"]) is None
    assert encode("", ["gzip", "identity"]) == "identity"
    assert encode("", ["gzip"], default="406") == "406"
    language = lists.negotiate_language
    assert language("fr-FR, en;q=0.3", ["en", "fr"]) == "fr"
    assert language("ca-ES, es;q=0.5", ["es", "ca"]) == "ca"
    assert language("sr-Latn-RS, sr;q=0.9", ["sr-Cyrl", "sr-Latn"]) == "sr-Latn"
    assert language("en-US, en;q=0.5, de;q=0.8", ["en", "de"]) == "de"
    assert language(None, ["en", "de"]) == "en"
    assert language("", ["en"], default="406") == "406"


RULES = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def _rule_19_table() -> list[tuple[str, list[str], str]]:
    """docs/rules.md rule 19's table: (value, offers, chosen), the chosen
    tag, or ``default`` where nothing is acceptable."""
    lines = RULES.read_text(encoding="utf-8").splitlines()
    start = lines.index("    | Accept-Language | offers | chosen |") + 2
    rows = []
    for line in lines[start:]:
        if not line.strip().startswith("|"):
            break
        value, offers, chosen = (
            re.findall(r"`([^`]*)`", cell)[0] for cell in line.split("|")[1:4]
        )
        rows.append((value, offers.strip("[]").split(", "), chosen))
    return rows


RULE_19_TABLE = _rule_19_table()


def test_rule_19_table_is_read_whole() -> None:
    assert len(RULE_19_TABLE) == 18
    assert ("en-GB, en-US", ["en-US", "en-AU"], "en-AU") in RULE_19_TABLE


@pytest.mark.parametrize(("value", "offers", "chosen"), RULE_19_TABLE)
def test_rule_19_table(
    lists: Engine, value: str, offers: list[str], chosen: str
) -> None:
    answer = lists.negotiate_language(value, offers, default="default")
    assert answer == chosen


def _chinese_offers() -> list[str]:
    """The Chinese offers docs/rules.md rule 19 advises, as it gives them."""
    text = " ".join(RULES.read_text(encoding="utf-8").split())
    advice = re.search(r"and map the answer to its script: `\[([^]]*)\]`", text)
    assert advice is not None
    return re.findall(r"[\w-]+", advice.group(1))


CHINESE_OFFERS = _chinese_offers()
#: Values browsers send for Chinese (Safari on iOS and macOS: a region, then
#: its script; Chrome and Firefox: a region, then ``zh``), by the script
#: their readers read.
CHINESE_BY_SCRIPT = {
    "Hans": [
        "zh-CN,zh-Hans;q=0.9",
        "zh-CN,zh-Hans;q=0.9,zh;q=0.8",
        "zh-Hans-CN,zh-Hans;q=0.9",
        "zh-CN,zh;q=0.9",
        "zh-CN,zh;q=0.9,en;q=0.8",
        "zh-SG,zh;q=0.9",
        "zh-Hans",
        "zh",
    ],
    "Hant": [
        "zh-TW,zh-Hant;q=0.9",
        "zh-TW,zh-Hant;q=0.9,zh;q=0.8",
        "zh-HK,zh-Hant;q=0.9",
        "zh-Hant-TW,zh-Hant;q=0.9",
        "zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7",
        "zh-TW,zh;q=0.8,en-US;q=0.5,en;q=0.3",
        "zh-HK,zh;q=0.9",
        "zh-MO",
        "zh-Hant",
    ],
}
#: How rule 19's advice maps an answer to a script.
TRADITIONAL = {"zh-hant", "zh-tw", "zh-hk", "zh-mo"}


@pytest.mark.parametrize(
    ("value", "script"),
    [
        (value, script)
        for script, values in CHINESE_BY_SCRIPT.items()
        for value in values
    ],
)
def test_rule_19s_chinese_offers_give_each_browser_its_script(
    lists: Engine, value: str, script: str
) -> None:
    assert len(CHINESE_OFFERS) == 12
    answer = lists.negotiate_language(value, CHINESE_OFFERS)
    assert answer is not None
    parts = answer.lower().split("-")
    read = "Hant" if {"-".join(parts[:2]), f"zh-{parts[-1]}"} & TRADITIONAL else "Hans"
    assert read == script, answer


def test_rule_18_as_written(lists: Engine) -> None:
    encode = lists.negotiate_encoding
    # An own entry listed twice, or as gzip and x-gzip: its higher q.
    assert encode("gzip;q=0, gzip", ["gzip"]) == "gzip"
    assert encode("gzip, x-gzip;q=0", ["gzip"]) == "gzip"
    # identity's implicit weight: the lowest non-zero of every valid member,
    # offered or not, a skipped member's left out.
    rank = lists.EncodingNegotiator(["gzip", "identity"]).rank
    assert rank("br;q=0.1, gzip") == [("gzip", 1.0), ("identity", 0.1)]
    assert rank("gzip;q=0.2, gzip;q=0.8") == [("gzip", 0.8), ("identity", 0.2)]
    assert lists.EncodingNegotiator(["identity"]).rank("gzip;q=.5, br;q=0.7") == [
        ("identity", 0.7)
    ]
    # A coding offered twice is kept in each place: the first wins the tie.
    assert encode("gzip", ["x-gzip", "gzip", "GZIP"]) == "x-gzip"


# --- inputs -------------------------------------------------------------------

ENCODING_VALUE = "gzip;q=0.5, BR, x-gzip;q=0.1"
LANGUAGE_VALUE = "fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5"


@pytest.mark.parametrize("kind", [str, bytes, bytearray, memoryview])
def test_every_input_type_gives_the_same_result(lists: Engine, kind: Any) -> None:
    def make(text: str) -> Any:
        return text if kind is str else kind(text.encode())

    encoding = make(ENCODING_VALUE)
    assert tuple(lists.parse_encoding(encoding)) == (
        ("gzip", 500),
        ("br", 1000),
        ("x-gzip", 100),
    )
    assert lists.negotiate_encoding(encoding, ["gzip", "br"]) == "br"
    assert lists.EncodingNegotiator(["gzip"]).choose(encoding) == "gzip"
    assert lists.EncodingNegotiator(["gzip", "br"]).rank(encoding) == [
        ("br", 1.0),
        ("gzip", 0.5),
    ]
    assert lists.parse_encoding(encoding).quality("gzip") == 0.5
    language = make(LANGUAGE_VALUE)
    assert tuple(lists.parse_language(language)) == (
        ("fr-ch", 1000),
        ("fr", 900),
        ("en", 800),
        ("*", 500),
    )
    assert lists.negotiate_language(language, ["de", "en", "fr"]) == "fr"
    assert lists.LanguageNegotiator(["de"]).choose(language) == "de"
    assert lists.LanguageNegotiator(["de", "en"]).rank(language) == [
        ("en", 0.8),
        ("de", 0.5),
    ]
    assert lists.parse_language(language).quality("de") == 0.5


def test_bytes_are_latin1_and_text_beyond_it_is_no_header_byte(
    lists: Engine,
) -> None:
    for parse in (lists.parse_encoding, lists.parse_language):
        for value in ("d\u20ac, en", b"d\xe9, en"):
            parsed = parse(value)
            assert [str(m) for m in parsed] == ["en"]
            assert parsed.skipped[0].position == 1
            with pytest.raises(AcceptError) as caught:
                parse(value, strict=True)
            assert caught.value.position == 1
        assert "U+20AC" in parse("d\u20ac").skipped[0].reason
        assert "byte 0xE9" in parse(b"d\xe9").skipped[0].reason


@pytest.mark.parametrize("bad", [42, 1.5, ["gzip"], object()])
def test_other_value_types_raise_type_error(lists: Engine, bad: Any) -> None:
    checks: list[tuple[Callable[[Any], object], str]] = [
        (lists.parse_encoding, "Accept-Encoding"),
        (lists.EncodingNegotiator(["gzip"]).choose, "Accept-Encoding"),
        (lambda v: lists.negotiate_encoding(v, ["gzip"]), "Accept-Encoding"),
        (lists.parse_language, "Accept-Language"),
        (lists.LanguageNegotiator(["en"]).choose, "Accept-Language"),
        (lambda v: lists.negotiate_language(v, ["en"]), "Accept-Language"),
    ]
    for call, field in checks:
        with pytest.raises(TypeError, match=f"an {field} value must be str, bytes"):
            call(bad)


# --- bad input: the documented skip (lenient), a positioned error (strict) -----

#: (value, position, reason) of Accept-Encoding values; each ends in ", br",
#: which survives in lenient mode.
BAD_ENCODINGS = [
    ("gzip;q=2, br", 7, "invalid weight '2': a weight is a number from 0 to 1"),
    ("gzip;q=0.1234, br", 7, "invalid weight '0.1234'"),
    ("gzip;q=.5, br", 7, "invalid weight '.5'"),
    ('gzip;q="1", br', 7, "invalid weight '\"1\"'"),
    ('gzip;q="x\\", y", br', 7, "invalid weight " + repr('"x\\", y"')),  # \" escapes
    ("gzip;q=, br", 7, "expected a weight after 'q=' (a number from 0 to 1"),
    ("gzip;q= 1, br", 7, "found a space (no whitespace is allowed around '='"),
    ("gzip;q =1, br", 6, "expected '=' after the parameter name 'q', found a space"),
    ("gzip;q, br", 6, "expected '=' after the parameter name 'q', found ','"),
    (
        "gzip;level=9, br",
        5,
        "expected a weight 'q=' after ';', found 'level' (a weight is the only "
        "parameter here",
    ),
    ("gzip;, br", 5, "expected a weight 'q=' after ';', found ','"),
    ("gzip;qa=1, br", 5, "expected a weight 'q=' after ';', found 'qa'"),
    ("gzip;q=1;q=0, br", 8, "expected ',' after the weight, found ';'"),
    ("gzip;q=1 x, br", 9, "expected ',' after the weight, found 'x'"),
    ("gzip deflate, br", 5, "expected ';' or ',' after the coding 'gzip', found 'd'"),
    ("gzip/1, br", 4, "expected ';' or ',' after the coding 'gzip', found '/'"),
    (
        "g" * 50 + " " * 50 + "/, br",
        100,
        f"expected ';' or ',' after the coding '...{'g' * 40}', found '/'",
    ),
    ('"gzip", br', 0, "expected a content coding (a token such as 'gzip'), found '\"'"),
    (";q=1, br", 0, "expected a content coding"),
    ("gz\x01ip, br", 2, "found control byte 0x01"),
    ("gzip\r\n, br", 4, "found control byte 0x0D"),
]

#: The same for Accept-Language values, each ending in ", de".
BAD_LANGUAGES = [
    ("en_US, de", 2, "found '_' (subtags are joined by '-', as in 'en-US')"),
    (
        "en1, de",
        2,
        "expected ';' or ',' after the language range 'en', found '1' (the first "
        "subtag is letters only",
    ),
    ("1en, de", 0, "expected a language range (such as 'en', 'en-US' or '*'"),
    ("englishes, de", 8, "a subtag of a language range has at most 8"),
    ("en-abcdefghi, de", 11, "found a 9th: 'i'"),
    ("en-, de", 3, "expected a subtag (1 to 8 letters or digits) after '-', found ','"),
    ("en--US, de", 3, "expected a subtag (1 to 8 letters or digits) after '-'"),
    ("en-US-, de", 6, "expected a subtag"),
    ("*-US, de", 1, "('*' stands alone: only basic ranges are taken"),
    ("**, de", 1, "after the language range '*', found '*'"),
    ("*1, de", 1, "found '1' ('*' stands alone: only basic ranges are taken"),
    ("*_, de", 1, "found '_' ('*' stands alone: only basic ranges are taken"),
    ("en;q=1.5, de", 5, "invalid weight '1.5'"),
    ("en;charset=x, de", 3, "expected a weight 'q=' after ';', found 'charset'"),
    ("en US, de", 3, "expected ';' or ',' after the language range 'en', found 'U'"),
    (
        "a-" * 25 + "b" + " " * 50 + "/, de",
        101,
        f"after the language range '...{('a-' * 25 + 'b')[-40:]}', found '/'",
    ),
    ("en-\u00e9, de", 3, "expected a subtag"),
]


@pytest.mark.parametrize(("value", "position", "message"), BAD_ENCODINGS)
def test_bad_encoding_values(
    lists: Engine, value: str, position: int, message: str
) -> None:
    parsed = lists.parse_encoding(value)
    assert [str(m) for m in parsed] == ["br"]
    skipped = parsed.skipped[0]
    assert (skipped.start, skipped.position) == (0, position)
    assert skipped.text == value[: value.index(", br")].rstrip(" \t")
    assert message in skipped.reason
    with pytest.raises(AcceptError) as caught:
        lists.parse_encoding(value, strict=True)
    error = caught.value
    assert (error.position, error.reason, error.field) == (
        position,
        skipped.reason,
        "Accept-Encoding",
    )
    assert str(error).startswith(
        f"invalid Accept-Encoding value at position {position}: "
    )
    assert lists.negotiate_encoding(value, ["gzip", "br"]) == "br"


@pytest.mark.parametrize(("value", "position", "message"), BAD_LANGUAGES)
def test_bad_language_values(
    lists: Engine, value: str, position: int, message: str
) -> None:
    parsed = lists.parse_language(value)
    assert [str(m) for m in parsed] == ["de"]
    skipped = parsed.skipped[0]
    assert (skipped.start, skipped.position) == (0, position)
    assert message in skipped.reason
    with pytest.raises(AcceptError) as caught:
        lists.parse_language(value, strict=True)
    error = caught.value
    assert (error.position, error.reason, error.field) == (
        position,
        skipped.reason,
        "Accept-Language",
    )
    assert str(error).startswith(
        f"invalid Accept-Language value at position {position}: "
    )
    assert lists.negotiate_language(value, ["en", "de"]) == "de"


def test_a_bad_member_ends_at_the_next_comma_outside_quotes(
    lists: Engine,
) -> None:
    parsed = lists.parse_encoding('gzip;q="a,b", br, x;q="open, deflate')
    assert [str(m) for m in parsed] == ["br"]
    assert [(s.start, s.end) for s in parsed.skipped] == [(0, 12), (18, 36)]
    # Empty members and OWS are no error, in either mode.
    assert [str(m) for m in lists.parse_language(" ,\t, en ,,", strict=True)] == ["en"]


@pytest.mark.parametrize(
    "member", ["gzip;;q=0.5", "gzip;", "gzip; ;q=0.5", "gzip;q=0.5;"]
)
def test_a_list_member_takes_no_empty_parameter(lists: Engine, member: str) -> None:
    # docs/rules.md rule 18: RFC 9110 §12.5.3's weight is one ";" and "q=",
    # no empty ";;" as Accept's parameters allow (rule 2).
    assert lists.negotiate_encoding(f"{member}, br;q=0.1", ["gzip", "br"]) == "br"
    language = member.replace("gzip", "en")
    assert lists.negotiate_language(f"{language}, de;q=0.1", ["en", "de"]) == "de"
    with pytest.raises(AcceptError):
        lists.parse_encoding(member, strict=True)


def test_a_tab_after_a_weight_is_ows_beside_a_bad_member(lists: Engine) -> None:
    # RFC 9110 §5.6.3: OWS is spaces and tabs, after a weight too; a bad
    # member elsewhere in the value must not change how a good one is read.
    assert lists.negotiate_encoding("gzip;q=0.5\t,br;q=2", ["gzip", "br"]) == "gzip"
    assert [str(m) for m in lists.parse_encoding("gzip;q=0.5\t,br;q=2")] == [
        "gzip;q=0.5"
    ]
    assert [str(m) for m in lists.parse_language("en;q=0.5\t,fr;q=x")] == ["en;q=0.5"]


# --- offers are validated when given --------------------------------------------

BAD_CODINGS: list[tuple[Any, type[Exception], str]] = [
    ("*", ValueError, "invalid coding '\\*': offers are codings the server can apply"),
    ("", ValueError, "invalid coding '': a coding is a token"),
    ("g zip", ValueError, "invalid coding"),
    ("gzip;q=1", ValueError, "without a weight"),
    ("gzip, br", ValueError, "invalid coding"),
    ("gz\u00e9", ValueError, "invalid coding"),
    (b"gzip", TypeError, "each coding must be a str, not bytes"),
    (None, TypeError, "each coding must be a str, not NoneType"),
]
BAD_TAGS: list[tuple[Any, type[Exception], str]] = [
    ("*", ValueError, "invalid language tag '\\*'"),
    ("", ValueError, "invalid language tag ''"),
    ("en_US", ValueError, "joined by '-'"),
    ("en-", ValueError, "invalid language tag"),
    ("1en", ValueError, "the first letters only"),
    ("englishes", ValueError, "1 to 8 letters"),
    ("en;q=1", ValueError, "without '\\*' or a weight"),
    ("en, fr", ValueError, "invalid language tag"),
    ("*-DE", ValueError, "invalid language tag"),
    (b"en", TypeError, "each language tag must be a str, not bytes"),
]


@pytest.mark.parametrize(("offer", "error", "message"), BAD_CODINGS)
def test_bad_codings_are_refused_when_given(
    lists: Engine, offer: Any, error: type[Exception], message: str
) -> None:
    makes: list[Callable[[], object]] = [
        lambda: lists.EncodingNegotiator(["br", offer]),
        lambda: lists.negotiate_encoding("gzip", ["br", offer]),
        lambda: lists.negotiate_encoding(None, ["br", offer]),
        lambda: lists.parse_encoding("gzip").best(["br", offer]),
    ]
    for make in makes:
        with pytest.raises(error, match=message):
            make()


@pytest.mark.parametrize(("offer", "error", "message"), BAD_TAGS)
def test_bad_tags_are_refused_when_given(
    lists: Engine, offer: Any, error: type[Exception], message: str
) -> None:
    makes: list[Callable[[], object]] = [
        lambda: lists.LanguageNegotiator(["en", offer]),
        lambda: lists.negotiate_language("en", ["en", offer]),
        lambda: lists.negotiate_language(None, ["en", offer]),
        lambda: lists.parse_language("en").best(["en", offer]),
    ]
    for make in makes:
        with pytest.raises(error, match=message):
            make()


@pytest.mark.parametrize("given", [b"gzip", None, 1, ("gzip", 1)], ids=repr)
def test_one_offer_that_is_no_str_is_named_offer(lists: Engine, given: Any) -> None:
    # A parsed value's quality and accepts take one offer, not a list.
    for value in lists.parse_encoding("gzip"), lists.parse_language("en"):
        for method in value.quality, value.accepts:
            message = rf"^offer must be a str, not {type(given).__name__}$"
            with pytest.raises(TypeError, match=message):
                method(given)


def test_one_str_is_no_list_of_offers(lists: Engine) -> None:
    # Its characters would pass for codings ('g', 'z', ...) one by one.
    with pytest.raises(TypeError, match="codings must be an iterable of str"):
        lists.negotiate_encoding("gzip", "gzip")
    with pytest.raises(TypeError, match="codings must be an iterable of str"):
        lists.EncodingNegotiator("gzip")
    with pytest.raises(TypeError, match="tags must be an iterable of str"):
        lists.negotiate_language("en", "en")
    with pytest.raises(TypeError, match="tags must be an iterable of str"):
        lists.LanguageNegotiator(b"en")


def test_offers_are_kept_as_given(lists: Engine) -> None:
    gzip = "".join(["GZ", "ip"])
    negotiator = lists.EncodingNegotiator(iter(["br", gzip]))
    assert negotiator.codings == ("br", gzip)
    assert negotiator.choose("gzip") is gzip
    assert lists.negotiate_encoding("x-gzip", ("br", gzip)) is gzip
    tag = "".join(["sr-", "Latn"])
    languages = lists.LanguageNegotiator([tag, "sr-Cyrl"])
    assert languages.tags == (tag, "sr-Cyrl")
    assert languages.choose("SR-latn-rs") is tag
    assert lists.negotiate_language("sr-Latn-RS", [tag]) is tag
    assert lists.EncodingNegotiator([]).choose("*") is None
    assert lists.LanguageNegotiator([]).choose(None, default=0) == 0


def test_more_offers_than_the_stack_holds(lists: Engine) -> None:
    # Past 16 offers the Cython engine keeps its per-call keys on the heap.
    codings = [f"x-c{i}" for i in range(40)]
    negotiator = lists.EncodingNegotiator(codings)
    assert negotiator.choose("x-c39;q=0.5, x-c17;q=0.4, x-c1;q=0") == "x-c39"
    assert negotiator.choose("*;q=0.2, x-c0;q=0.1") == "x-c1"  # x-c0 named lower
    assert negotiator.rank("x-c20, x-c30;q=0.5")[:2] == [("x-c20", 1.0), ("x-c30", 0.5)]
    tags = [chr(97 + i // 26) + chr(97 + i % 26) for i in range(40)]  # aa ... bn
    languages = lists.LanguageNegotiator(tags)
    assert languages.choose("bm;q=0.9, av, zz") == "av"
    assert languages.choose("bn-GB;q=0.5") == "bn"  # its prefix (rule 19)
    assert languages.rank("bc;q=0.4, bn;q=0.6") == [("bn", 0.6), ("bc", 0.4)]


# --- limits and the cache -------------------------------------------------------


def test_over_long_values_are_refused_in_both_modes(
    lists: Engine,
) -> None:
    value = "gzip, " + " " * 8186  # 8,192 characters: allowed
    assert lists.negotiate_encoding(value, ["gzip"]) == "gzip"
    by_field: tuple[tuple[str, list[Callable[..., object]]], ...] = (
        (
            "Accept-Encoding",
            [
                lambda v, **k: lists.parse_encoding(v, **k),
                lambda v, **k: lists.parse_encoding(v, strict=True, **k),
                lambda v, **k: lists.negotiate_encoding(v, ["gzip"], **k),
                lambda v, **k: lists.EncodingNegotiator(["gzip"], **k).choose(v),
                lambda v, **k: lists.EncodingNegotiator(["gzip"], **k).rank(v),
            ],
        ),
        (
            "Accept-Language",
            [
                lambda v, **k: lists.parse_language(v, **k),
                lambda v, **k: lists.parse_language(v, strict=True, **k),
                lambda v, **k: lists.negotiate_language(v, ["en"], **k),
                lambda v, **k: lists.LanguageNegotiator(["en"], **k).choose(v),
                lambda v, **k: lists.LanguageNegotiator(["en"], **k).rank(v),
            ],
        ),
    )
    for field, calls in by_field:
        for call in calls:
            for long_value in ("a" * 8193, b"a" * 8193):
                with pytest.raises(AcceptError) as caught:
                    call(long_value)
                error = caught.value
                assert (error.position, error.field, error.value) == (
                    8192,
                    field,
                    long_value,
                )
                assert str(error).startswith(
                    f"invalid {field} value at position 8192: the value is 8193 "
                    "characters long, over the limit of 8192"
                )
            with pytest.raises(AcceptError, match="over the limit of 3"):
                call("abcd", max_length=3)
            call(" " * 100_000 + "br", max_length=None)  # None lifts the limit


def test_the_cache_follows_the_engine_policy(lists: Engine) -> None:
    """Both engines' caches hold exactly what ``_limits.store`` would keep."""
    cases: list[tuple[Any, str]] = [
        (lists.EncodingNegotiator(["gzip", "br"], cache_size=5), "gzip;q=0.{}"),
        (lists.LanguageNegotiator(["en", "fr"], cache_size=5), "en;q=0.{}"),
    ]
    for negotiator, make in cases:
        model: dict[str | bytes, int] = {}
        values: list[str | bytes] = [make.format(i) for i in range(12)]
        values += [make.format(11), make.format(1), make.format(1).encode()]
        values += ["x" + " " * CACHE_KEY_MAX_LENGTH, b"x" * CACHE_KEY_MAX_LENGTH]
        values += [make.format(1).encode()]
        hits = 0
        for value in values:
            index = negotiator.choose_index(value)
            if value in model:  # a hit changes nothing
                hits += 1
                assert index == model[value]
            else:
                store(model, 5, value, index)
            assert value_cache(negotiator) == model
            assert len(value_cache(negotiator)) <= 5
        assert hits == 2
        # Cleared when full (twice over), the over-long str left out.
        assert set(value_cache(negotiator)) == {
            make.format(10),
            make.format(11),
            make.format(1),
            make.format(1).encode(),
            b"x" * CACHE_KEY_MAX_LENGTH,
        }
        uncached = type(negotiator)(["br"] if "gzip" in make else ["en"], cache_size=0)
        uncached.choose(make.format(5))
        assert value_cache(uncached) == {}
    with pytest.raises(ValueError, match="cache_size"):
        lists.EncodingNegotiator(["gzip"], cache_size=-1)
    with pytest.raises(ValueError, match="cache_size"):
        lists.LanguageNegotiator(["en"], cache_size=-1)


# --- values and objects -----------------------------------------------------------

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def round_trips(obj: object) -> list[Any]:
    made = [pickle.loads(pickle.dumps(obj, protocol)) for protocol in PROTOCOLS]
    return [*made, copy.copy(obj), copy.deepcopy(obj)]


def assert_same_value(obj: object) -> None:
    for other in round_trips(obj):
        assert type(other) is type(obj)
        assert other == obj
        assert repr(other) == repr(obj)
        assert hash(other) == hash(obj)


def test_negotiators_are_their_arguments(lists: Engine) -> None:
    codings = lists.EncodingNegotiator(["gzip", "br"], cache_size=8, max_length=100)
    tags = lists.LanguageNegotiator(("en", "fr"), cache_size=8, max_length=100)
    for negotiator, value in ((codings, "br;q=0.5, gzip"), (tags, "fr, en;q=0.1")):
        negotiator.choose(value)  # a warm cache is not part of the value
        assert_same_value(negotiator)
        for other in round_trips(negotiator):
            assert other.choose(value) == negotiator.choose(value)
            assert other.rank(value) == negotiator.rank(value)
            with pytest.raises(AcceptError):  # max_length came along
                other.choose("a" * 101)
    assert repr(codings) == (
        "EncodingNegotiator(('gzip', 'br'), cache_size=8, max_length=100)"
    )
    assert (
        repr(tags) == "LanguageNegotiator(('en', 'fr'), cache_size=8, max_length=100)"
    )
    assert codings == lists.EncodingNegotiator(
        ("gzip", "br"), cache_size=8, max_length=100
    )
    assert codings != lists.EncodingNegotiator(["gzip", "br"])
    assert cast(object, codings) != tags
    assert (
        len(
            {tags, lists.LanguageNegotiator(["en", "fr"], cache_size=8, max_length=100)}
        )
        == 1
    )


def test_parsed_values_are_values(lists: Engine) -> None:
    for parsed in (
        lists.parse_encoding("gzip;q=0.5, BR, *;q=0, x y"),
        lists.parse_encoding(None),
        lists.parse_encoding(""),
        lists.parse_language("en-US, fr;q=0.1, *;q=0, en_GB"),
        lists.parse_language(None),
    ):
        assert_same_value(parsed)
        for other in round_trips(parsed):
            assert other.skipped == parsed.skipped
            assert other.present == parsed.present
        for item in (*parsed, *parsed.skipped):
            assert_same_value(item)
    encoding = lists.parse_encoding("GZIP;Q=0.50 , br,x y")
    assert type(encoding) is AcceptEncoding
    assert type(encoding[0]) is Coding and type(encoding.skipped[0]) is SkippedMember
    assert encoding[0] == ("gzip", 500) and encoding[0].q == 0.5
    assert repr(encoding) == "AcceptEncoding('gzip;q=0.5, br')"
    assert repr(lists.parse_encoding(None)) == "AcceptEncoding(None)"
    assert encoding == lists.parse_encoding("gzip;q=0.5,br")  # skipped: not compared
    assert encoding != lists.parse_encoding("br, gzip;q=0.5")
    assert encoding[:1] == (Coding("gzip", 500),) and len(encoding) == 2
    language = lists.parse_language("sr-Latn-RS;q=0.5, *")
    assert type(language) is AcceptLanguage and type(language[0]) is LanguageRange
    assert language[0].subtags == ("sr", "latn", "rs")
    assert str(language) == "sr-latn-rs;q=0.5, *"
    assert repr(lists.parse_language(None)) == "AcceptLanguage(None)"
    assert lists.parse_language(None) != lists.parse_encoding(None)
    assert lists.parse_encoding("") != lists.parse_encoding(None)  # present, empty
    assert lists.parse_language("") != lists.parse_language(None)
    with pytest.raises(AttributeError):
        encoding.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        encoding[0] = encoding[1]  # type: ignore[index]


def test_parsed_value_methods(lists: Engine) -> None:
    encoding = lists.parse_encoding("gzip;q=0.5, br;q=0, *;q=0.2")
    assert encoding.quality("gzip") == 0.5 and encoding.quality("X-GZIP") == 0.5
    assert encoding.quality("identity") == 0.2 and encoding.quality("zstd") == 0.2
    assert not encoding.accepts("br") and encoding.accepts("zstd")
    assert encoding.rank(["br", "zstd", "gzip"]) == [("gzip", 0.5), ("zstd", 0.2)]
    assert encoding.best(["br"], default="none") == "none"
    absent = lists.parse_encoding(None)
    assert absent.quality("br") == 1.0 and absent.best(["br", "identity"]) == "identity"
    language = lists.parse_language("fr-CH, de;q=0")
    assert language.quality("fr") == 1.0 and language.quality("de-AT") == 0.0
    assert language.accepts("fr-CH-x-a") and not language.accepts("de")
    assert language.rank(["de", "fr", "fr-CH"]) == [("fr-CH", 1.0), ("fr", 1.0)]
    assert lists.parse_language(None).quality("de") == 1.0
    with pytest.raises(ValueError):
        encoding.quality("*")
    with pytest.raises(ValueError):
        language.quality("*")
    with pytest.raises(ValueError):
        encoding.rank(["gzip", "*"])
    with pytest.raises(TypeError):
        language.rank("fr")


def test_a_parsed_value_ranks_the_offers_it_is_given(lists: Engine) -> None:
    """Its own objects, even after equal offers (kept by then) were ranked."""
    gzip, tag = "".join(["gz", "ip"]), "".join(["fr-", "CH"])
    encoding = lists.parse_encoding("br;q=0.5, gzip")
    assert encoding.rank(["br", "gzip"]) == [("gzip", 1.0), ("br", 0.5)]
    ranked = encoding.rank(["br", gzip])
    assert ranked == [("gzip", 1.0), ("br", 0.5)] and ranked[0][0] is gzip
    language = lists.parse_language(b"de;q=0.3, fr-ch")
    assert language.rank(["de", "fr-CH"]) == [("fr-CH", 1.0), ("de", 0.3)]
    ranked = language.rank(["de", tag])
    assert ranked == [("fr-CH", 1.0), ("de", 0.3)] and ranked[0][0] is tag


# --- a model written from the rules, on generated values ----------------------

EXAMPLES = int(os.environ.get("FASTACCEPT_FUZZ_EXAMPLES", "400"))
FUZZ = settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

CODINGS = ["gzip", "GZip", "x-gzip", "X-Gzip", "br", "zstd", "deflate", "compress"]
CODINGS += ["x-compress", "identity", "Identity", "notgzip", "*", "*", "*", "*x"]
OFFERED_CODINGS = ["gzip", "x-gzip", "br", "zstd", "identity", "compress", "*x"]
RANGES = ["en", "EN-us", "en-GB", "en-US-x-twain", "fr", "fr-CA", "fr-FR", "sr"]
RANGES += ["sr-Latn", "sr-Latn-RS", "sr-Cyrl", "zh-Hant-CN-x-private1-private2"]
RANGES += ["de-DE-1996", "de-x-a-b", "x-klingon", "i-enochian", "a-b-c", "*", "*"]
RANGES += ["en-a-bb", "en-a-b-cc", "x-a", "en-GB-x-y", "zh-Hans-CN", "de-DE", "es"]
RANGES += ["i-klingon", "aa-t-x", "x-foo-bar", "EN-gb"]
TAGS = ["en", "en-US", "en-GB", "fr", "fr-CA", "sr-Latn", "sr-Cyrl", "sr", "zh"]
TAGS += ["zh-Hant", "zh-Hant-CN-x-private1", "de-DE", "de-x-a", "x-klingon", "a-b"]
TAGS += ["en-a", "en-a-b", "en-a-cc", "x-b", "en-GB-x", "zh-Hans", "de-Deva", "de"]
TAGS += ["es", "i-enochian", "i-klingon", "aa-t", "aa", "x-foo", "EN-gb"]
GOOD_WEIGHTS = ["0", "0.1", "0.5", "0.50", "0.8", "1", "1.0", "0.001", "0.999"]
SEPARATORS = [",", ", ", " ,", ",,", " , ", ",\t"]


@st.composite
def list_value(draw: st.DrawFn, names: list[str]) -> str:
    """A value of ``name[;q=w]`` members, some with a defect."""
    members = []
    for _ in range(draw(st.integers(0, 6))):
        text = draw(st.sampled_from(names))
        if draw(st.booleans()):
            ows = draw(st.sampled_from(["", " ", "\t "]))
            q = draw(st.sampled_from(["q", "Q"]))
            w = draw(st.sampled_from(GOOD_WEIGHTS) | WEIGHTS)
            text += f"{ows};{draw(st.sampled_from(['', ' ']))}{q}={w}"
        if draw(st.integers(0, 7)) == 0:
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(JUNK | st.sampled_from(["-", "_", "1"])) + text[at:]
        members.append(text)
    seps = [draw(st.sampled_from(SEPARATORS)) for _ in members]
    return "".join(m + s for m, s in zip(members, seps, strict=True))


ENCODING_VALUES = st.one_of(
    list_value(CODINGS),
    list_value(CODINGS).map(lambda s: s.encode("latin-1", "replace")),
    st.text(max_size=40),
    st.binary(max_size=40),
)
LANGUAGE_VALUES = st.one_of(
    list_value(RANGES),
    list_value(RANGES).map(lambda s: s.encode("latin-1", "replace")),
    st.text(max_size=40),
    st.binary(max_size=40),
)


def model_coding_weight(members: list[tuple[str, int]], offer: str) -> tuple[int, int]:
    """(weight, source) of one offered coding, read straight from the rule:
    its own entry; else ``*``; else for identity the lowest non-zero weight (1
    if none); else 0. An entry listed twice: its higher q. Source: 2 own, 1
    ``*``, 0 implicit."""
    aliases = {"x-gzip": "gzip", "x-compress": "compress"}
    name = aliases.get(offer.lower(), offer.lower())
    own = [w for c, w in members if c != "*" and aliases.get(c, c) == name]
    star = [w for c, w in members if c == "*"]
    if own:
        return max(own), 2
    if star:
        return max(star), 1
    if name == "identity":
        return min([w for _, w in members if w > 0], default=1000), 0
    return 0, 0


def model_encoding(
    value: Any, members: list[tuple[str, int]], offers: list[str]
) -> list[tuple[str, float]]:
    """The ranking the rule gives: acceptable offers, best first."""
    keyed: list[tuple[int, int, int]]
    if value is None:
        keyed = [
            (1000, int(offer.lower() == "identity"), -i)
            for i, offer in enumerate(offers)
        ]
    else:
        keyed = [(*model_coding_weight(members, o), -i) for i, o in enumerate(offers)]
    order = sorted(range(len(offers)), key=lambda i: keyed[i], reverse=True)
    return [(offers[i], keyed[i][0] / 1000) for i in order if keyed[i][0]]


def model_relation(rng: str, weight: int, tag: str) -> tuple[int, int] | None:
    """(leading subtags shared, closeness) of a range (not ``*``) and a tag,
    read straight from docs/rules.md rule 19: 4 exact; 3 filtering (RFC 4647
    §3.3.1, a prefix ending at '-'); for q > 0 only, 2 lookup (§3.4: the tag
    is left after removing subtags from the range's end, a singleton left
    last going too) and 1 the same language (the same first subtag, not a
    singleton); None otherwise."""
    subtags, tag_subtags = rng.split("-"), tag.split("-")
    shared = 0
    for a, b in zip(subtags, tag_subtags, strict=False):
        if a != b:
            break
        shared += 1
    if rng == tag:
        return shared, 4
    if tag.startswith(rng + "-"):
        return shared, 3
    if not weight:
        return None
    left = subtags
    while left:
        left = left[:-1]
        while left and len(left[-1]) == 1:
            left = left[:-1]
        if "-".join(left) == tag:
            return shared, 2
    if subtags[0] == tag_subtags[0] and len(tag_subtags[0]) > 1:
        return shared, 1
    return None


def model_tag_key(
    members: list[tuple[str, int]], tag: str
) -> tuple[int, bool, int, int, int]:
    """(weight, by a language range, -position, closeness, shared) of one
    tag's deciding range: among the ranges related to it, the most shared
    subtags, then the closer relation, then the higher q, then the first
    listed; ``*`` only when no language range relates. No range: zeros."""
    tag = tag.lower()
    related = []
    for position, (rng, weight) in enumerate(members):
        if rng != "*" and (found := model_relation(rng, weight, tag)) is not None:
            related.append((*found, weight, -position))
    if not related:
        related = [(0, 0, w, -p) for p, (r, w) in enumerate(members) if r == "*"]
    if not related:
        return (0, False, 0, 0, 0)
    shared, closeness, weight, position = max(related)
    return (weight, closeness > 0, position, closeness, shared)


def model_language(
    value: Any, members: list[tuple[str, int]], tags: list[str]
) -> list[tuple[str, float]]:
    """The ranking the rule gives: the highest weight, then a language range
    over ``*``, then the deciding range listed first, then the closer
    relation, then more shared subtags, then server order."""
    if value is None:
        return [(tag, 1.0) for tag in tags]
    keyed = [(*model_tag_key(members, tag), -i) for i, tag in enumerate(tags)]
    order = sorted(range(len(tags)), key=lambda i: keyed[i], reverse=True)
    return [(tags[i], keyed[i][0] / 1000) for i in order if keyed[i][0]]


@FUZZ
@given(
    st.one_of(st.none(), ENCODING_VALUES),
    st.lists(st.sampled_from(OFFERED_CODINGS), max_size=5, unique=True),
)
def test_encoding_follows_the_model(
    lists: Engine, value: Any, offers: list[str]
) -> None:
    members = [tuple(m) for m in lists.parse_encoding(value)]
    expected = model_encoding(value, members, offers)
    assert lists.EncodingNegotiator(offers).rank(value) == expected
    parsed = lists.parse_encoding(value)
    assert parsed.rank(offers) == expected
    for offer in offers:
        assert parsed.quality(offer) == dict(expected).get(offer, 0.0)
    chosen = lists.negotiate_encoding(value, offers)
    assert chosen == (expected[0][0] if expected else None)


@FUZZ
@given(
    st.one_of(st.none(), LANGUAGE_VALUES),
    st.lists(st.sampled_from(TAGS), max_size=6, unique=True),
)
def test_language_follows_the_model(lists: Engine, value: Any, tags: list[str]) -> None:
    members = [tuple(m) for m in lists.parse_language(value)]
    expected = model_language(value, members, tags)
    assert lists.LanguageNegotiator(tags).rank(value) == expected
    parsed = lists.parse_language(value)
    assert parsed.rank(tags) == expected
    for tag in tags:
        assert parsed.quality(tag) == dict(expected).get(tag, 0.0)
    chosen = lists.negotiate_language(value, tags)
    assert chosen == (expected[0][0] if expected else None)


@FUZZ
@given(ENCODING_VALUES, LANGUAGE_VALUES)
def test_canonical_str_round_trips(lists: Engine, encoding: Any, language: Any) -> None:
    for parse, value in (
        (lists.parse_encoding, encoding),
        (lists.parse_language, language),
    ):
        parsed = parse(value)
        again = parse(str(parsed), strict=True)
        assert tuple(again) == tuple(parsed) and not again.skipped
        for skipped in parsed.skipped:  # each skip is where its member is
            assert skipped.start <= skipped.position <= skipped.end


@FUZZ
@given(ENCODING_VALUES, LANGUAGE_VALUES)
def test_strict_mode_raises_at_the_first_skip(
    lists: Engine, encoding: Any, language: Any
) -> None:
    for parse, value in (
        (lists.parse_encoding, encoding),
        (lists.parse_language, language),
    ):
        parsed = parse(value)
        if not parsed.skipped:
            assert tuple(parse(value, strict=True)) == tuple(parsed)
            continue
        with pytest.raises(AcceptError) as caught:
            parse(value, strict=True)
        first = parsed.skipped[0]
        assert (caught.value.position, caught.value.reason) == (
            first.position,
            first.reason,
        )


# --- hostile values: linear work, right answers ----------------------------------

#: Each value, the coding ``EncodingNegotiator(["br", "identity"])`` chooses
#: and what ``LanguageNegotiator(["fr", "en-US", "en"])`` ranks (rules 18 and
#: 19): identity wherever ``br`` has no weight (the lowest weight above 0 of
#: the value's members, else q=1), and a language only where a member names it.
LANGUAGES_RANKED = [("fr", 1.0), ("en-US", 0.5), ("en", 0.5)]
HOSTILE = [
    ("a" * 2**20, "identity", []),  # one coding; a language subtag too long
    (" " * 2**20 + "gzip", "identity", []),
    ("," * 2**20, "identity", []),  # no member
    ("gzip;" + " " * 2**20, "identity", []),  # no weight after ";"
    ("gzip;q=" + "0" * 2**20, "identity", []),
    ("gzip;q=0.5," * (2**20 // 11), "identity", []),  # identity at 0.5
    (("x;q=0," * (2**20 // 6)) + "br", "br", []),  # ties identity, first
    ('"' + "a," * (2**19), "identity", []),  # the quote runs to the end
    (("a-" * 2**19) + "b", "identity", []),
    (("en-US;q=0.5, " * (2**20 // 13)) + "fr", "identity", LANGUAGES_RANKED),
    ("en-" + "abcdefgh-" * (2**20 // 9), "identity", []),  # ends with "-"
    ("*;" * 2**19, "identity", []),
]


# One thread under pytest-run-parallel: the point is one pass per value, and
# four threads each building 1 MiB of members took minutes on 3.13t.
@pytest.mark.parallel_threads(1)
@pytest.mark.parametrize(
    ("value", "coding", "languages"),
    HOSTILE,
    ids=[case[0][:12] + "..." for case in HOSTILE],
)
def test_hostile_values_of_a_mebibyte(
    lists: Engine, value: str, coding: str, languages: list[tuple[str, float]]
) -> None:
    """Each is read in one pass (no timing here: benchmarks measure growth),
    to the answers the rules give."""
    for parse in (lists.parse_encoding, lists.parse_language):
        parsed = parse(value, max_length=None)
        assert len(parsed) + len(parsed.skipped) <= value.count(",") + 1
    encodings = lists.EncodingNegotiator(["br", "identity"], max_length=None)
    assert encodings.choose(value) == coding
    tags = lists.LanguageNegotiator(["fr", "en-US", "en"], max_length=None)
    assert tags.rank(value) == languages


# --- the engine choice ----------------------------------------------------------


def test_the_list_headers_come_from_the_chosen_engine() -> None:
    for name in (
        "EncodingNegotiator",
        "LanguageNegotiator",
        "negotiate_encoding",
        "negotiate_language",
        "parse_encoding",
        "parse_language",
    ):
        assert getattr(fastaccept, name) is getattr(ENGINES[IMPLEMENTATION], name), name


@pytest.mark.parametrize(
    ("parser", "value"),
    [("parse_encoding", "gzip;q=.5"), ("parse_language", "en;q=.5")],
)
def test_a_weight_without_its_0_is_told_how_to_write(
    lists: Engine, parser: str, value: str
) -> None:
    # The list headers have no legacy weight: BAD_WEIGHT, with the hint.
    hint = "such as 0.8 (RFC 9110 §12.4.2): write '0.5'"
    with pytest.raises(AcceptError) as raised:
        getattr(lists, parser)(value, strict=True)
    assert hint in str(raised.value)
    assert hint in getattr(lists, parser)(value).skipped[0].reason


def test_a_tag_longer_than_the_kept_prefixes_relates_as_a_short_one(
    lists: Engine,
) -> None:
    # A tag's set-up kept every prefix of it: memory quadratic in its length
    # (a 40 KB tag, say a client's given to AcceptLanguage.quality: 90 MB).
    # Prefixes past LANGUAGE_PREFIX_KEPT characters are read from the tags.
    long = "en-" + "-".join(["abcdefgh"] * 40)
    cut = long[: long.index("-", 280)]
    tags = ["fr", long, f"{cut}-zz", "en-abcdefgh-x"]
    assert len(cut) > LANGUAGE_PREFIX_KEPT
    expected = {
        long: long,  # exact
        cut: long,  # filtering; cut-zz is later
        f"{long}-x1": long,  # lookup
        f"{cut}-zz-yy": f"{cut}-zz",  # lookup before the same language
        f"{cut};q=0, en": "en-abcdefgh-x",  # refused by a long prefix
        f"{cut}-zz;q=0, {cut}": long,
    }
    for value, tag in expected.items():
        assert lists.negotiate_language(value, tags) == tag
        assert lists.LanguageNegotiator(tags).rank(value)[0][0] == tag


# tracemalloc is the process's: started and stopped by two threads at once
# (pytest-run-parallel), 3.13t crashed (CI's free-threaded session) or spun
# for good, each thread in tracemalloc's allocator hooks laid over each other.
@pytest.mark.thread_unsafe(reason="tracemalloc is process-wide")
def test_a_huge_tag_keeps_no_prefix_past_the_limit(lists: Engine) -> None:
    huge = "en-" + "-".join(["abcdefgh"] * 4_500)  # 40 KB
    weight, _, peak = traced(lambda: lists.parse_language("en").quality(huge))
    assert weight == 1.0
    assert peak < 4_000_000  # 90 MB when every prefix was kept


def test_the_error_codes_are_new_numbers() -> None:
    codes = {
        name: value
        for name, value in vars(_errors).items()
        if name.isupper() and type(value) is int and not name.endswith("_MAX")
    }  # (EXCERPT_MAX, SHOWN_MAX: how much a message quotes)
    assert len(set(codes.values())) == len(codes) == 27
    for name in ("EXPECTED_CODING", "EXPECTED_LANGUAGE", "EXPECTED_COMMA"):
        assert codes[name] > 15  # the Accept codes 1-15 are unchanged


# --- both engines alike ---------------------------------------------------------


def _outcome(parse: Any, value: Any, strict: bool) -> Any:
    try:
        parsed = parse(value, strict=strict)
    except AcceptError as exc:
        return ("error", str(exc), exc.position, exc.reason, exc.value, exc.field)
    return (
        "ok",
        type(parsed),
        tuple(parsed),
        parsed.present,
        parsed.skipped,
        [type(m) for m in parsed],
    )


@FUZZ
@given(
    st.one_of(st.none(), ENCODING_VALUES),
    st.one_of(st.none(), LANGUAGE_VALUES),
    st.lists(st.sampled_from(OFFERED_CODINGS), max_size=5),
    st.lists(st.sampled_from(TAGS), max_size=6),
    st.integers(0, 60),
)
def test_engines_agree(
    encoding: Any, language: Any, codings: list[str], tags: list[str], limit: int
) -> None:
    cython, python = _half("cython"), _half("python")
    for strict in (False, True):
        for name, value in (("parse_encoding", encoding), ("parse_language", language)):
            assert _outcome(getattr(cython, name), value, strict) == _outcome(
                getattr(python, name), value, strict
            )
    limited = [
        _outcome(partial(module.parse_language, max_length=limit), language, False)
        for module in (cython, python)
    ]
    assert limited[0] == limited[1]
    assert cython.EncodingNegotiator(codings).rank(
        encoding
    ) == python.EncodingNegotiator(codings).rank(encoding)
    assert cython.negotiate_encoding(encoding, codings) == python.negotiate_encoding(
        encoding, codings
    )
    assert cython.LanguageNegotiator(tags).rank(language) == python.LanguageNegotiator(
        tags
    ).rank(language)
    assert cython.negotiate_language(language, tags) == python.negotiate_language(
        language, tags
    )
    for kind, value, offers in (
        ("EncodingNegotiator", encoding, codings),
        ("LanguageNegotiator", language, tags),
    ):
        key = getattr(cython, kind)(offers).variant_key(value)
        assert key == getattr(python, kind)(offers).variant_key(value)


#: A subtag after the first (RFC 4647 §2.1), from few letters so that tags share.
_SUBTAG = st.text("abx19", min_size=1, max_size=8)


@st.composite
def _long_tags_and_value(draw: st.DrawFn) -> tuple[list[str], str]:
    """Tags of 41 to 81 subtags (most past ``LANGUAGE_PREFIX_KEPT``), some
    sharing a prefix, and a value of ranges cut from them, then extended."""
    base = [draw(st.text("abx", min_size=1, max_size=8))]
    base += draw(st.lists(_SUBTAG, min_size=40, max_size=80))
    tags = ["-".join(base)]
    for cut in draw(st.lists(st.integers(1, len(base)), max_size=3)):
        tags.append("-".join(base[:cut] + draw(st.lists(_SUBTAG, max_size=3))))
    ranges = []
    for _ in range(draw(st.integers(1, 4))):
        subtags = draw(st.sampled_from(tags)).split("-")
        cut = draw(st.integers(1, len(subtags)))
        rng = "-".join(subtags[:cut] + draw(st.lists(_SUBTAG, max_size=2)))
        ranges.append(rng + draw(st.sampled_from(["", ";q=0", ";q=0.5"])))
    ranges += draw(st.lists(st.sampled_from(["*", "*;q=0.2", "*;q=0"]), max_size=1))
    return list(dict.fromkeys(tags)), ", ".join(ranges)


@FUZZ
@given(_long_tags_and_value())
def test_engines_agree_on_long_tags(tags_and_value: tuple[list[str], str]) -> None:
    # The pure engine reads a prefix past LANGUAGE_PREFIX_KEPT from the tags
    # (``TagSet._leads``); the compiled one finds a range's tags by its first
    # subtag, or with q=0 by the range as a prefix, and compares each.
    tags, value = tags_and_value
    cython, python = _half("cython"), _half("python")
    assert cython.negotiate_language(value, tags) == python.negotiate_language(
        value, tags
    )
    ranked = [
        module.LanguageNegotiator(tags).rank(value) for module in (cython, python)
    ]
    assert ranked[0] == ranked[1]


@FUZZ
@given(
    st.lists(st.sampled_from(TAGS), min_size=1, max_size=len(TAGS), unique=True),
    st.lists(st.sampled_from(OFFERED_CODINGS), min_size=1, unique=True),
    LANGUAGE_VALUES,
    ENCODING_VALUES,
    st.integers(0, 200),
)
def test_engines_agree_on_many_offers(
    tags: list[str], codings: list[str], language: Any, encoding: Any, more: int
) -> None:
    # The compiled engine finds a member's offers in a table by the hash of
    # a coding's name or alias, of a tag's first subtag or of a prefix of it:
    # the offers drawn, then ``more`` of each field's (the first tag with a
    # subtag ``tN`` added, codings ``cN``), so that the table holds many
    # texts and long lists.
    cython, python = _half("cython"), _half("python")
    tags = tags + [f"{tags[0]}-t{i}" for i in range(more)]
    tags = list(dict.fromkeys(tag.lower() for tag in tags))
    codings = codings + [f"c{i}" for i in range(more)]
    for kind, value, offers in (
        ("LanguageNegotiator", language, tags),
        ("EncodingNegotiator", encoding, codings),
    ):
        ranked = [getattr(m, kind)(offers).rank(value) for m in (cython, python)]
        assert ranked[0] == ranked[1], (kind, value)


def test_a_long_language_range_is_related_by_its_first_subtags_only() -> None:
    # The pure engine relates a range that is no prefix of a tag through its
    # longest prefix that is one: it looks up at most one prefix per subtag
    # of the longest tag, however many subtags the range has (a 1 MiB range
    # of subtags cost time quadratic in its length when every prefix was
    # looked up).
    from fastaccept import _language

    class Counting(dict[str, Any]):
        lookups = 0

        def get(self, key: str, default: Any = None) -> Any:
            Counting.lookups += 1
            return super().get(key, default)

    tags = _language.TagSet(["en-GB", "en", "fr-CA-x-y"])
    tags.prefixes = Counting(tags.prefixes)
    rng = "en-gb-" + "-".join(["abc"] * 10_000)
    en = tags.related("en")
    assert en is not None
    Counting.lookups = 0
    assert tags.extended(rng, "en", en[2]) == tags.prefixes["en-gb"][2]
    assert Counting.lookups <= tags.depth
    items = [(rng, 500), ("fr-ca-x-z", 900)]
    assert _language.best_language(items, tags) == 2
    assert _language.best_language([(rng, 500)], tags) == 0
    # Against a tag of 4,001 subtags, each prefix looked up is a copy of up to
    # the range's length: looking up each of up to 4,000 cost time quadratic
    # in the length. Halving finds the longest in a dozen.
    deep = "en-" + "-".join(f"s{i}" for i in range(4_000))
    tags = _language.TagSet([deep, "en", "en-s0-x"])
    tags.prefixes = Counting(tags.prefixes)
    en = tags.related("en")
    assert en is not None and tags.depth == 4_001
    for shared in (1, 2, 3, 100, 2_048, 3_999):
        prefix = "en-" + "-".join(f"s{i}" for i in range(shared))
        known = tags.related(prefix)
        assert known is not None
        Counting.lookups = 0
        rng = prefix + "-zz" + "-zz" * 4_000
        assert tags.extended(rng, "en", en[2]) == known[2], shared
        assert Counting.lookups <= 13, shared  # log2(4,000) + 1


@pytest.mark.thread_unsafe(reason="counts the calls of a module's function")
@pytest.mark.parametrize("tags", [2_000, 4_000])
def test_tags_of_one_language_are_set_up_in_linear_work(tags: int) -> None:
    # rule 8: a set of tags that share their first subtag is read once, and
    # what a range relates to worked out when a value has that range (each
    # tag's prefixes against every tag of its language was quadratic: 2,000
    # tags of one language took 12 s). A count of relation(), not a time.
    from fastaccept import _language

    names = [f"en-{i:04x}-x" for i in range(tags)]
    calls = 0
    relation = _language.relation

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return relation(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_language, "relation", counted)
        made = _language.TagSet(names)
        assert calls == 0
        assert _language.best_language([("en-0007-x", 900), ("en", 500)], made) == 7
    assert calls <= 6 * tags  # each range: three relations of every tag


#: ``_language``'s relation numbers and key shifts, which the Cython engine's
#: ``tag_key`` uses too.
KEY_CONSTANTS = {
    "STAR": 0,
    "SAME_LANGUAGE": 1,
    "LOOKUP": 2,
    "FILTERING": 3,
    "EXACT": 4,
    "RELATION_SHIFT": 11,
    "SHARED_SHIFT": 14,
}


def _lines_run(run: Callable[[], object]) -> int:
    """How many lines of ``_language`` ``run`` runs: its work, counted."""
    count = 0

    def trace(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if frame.f_code.co_filename == _language.__file__:
            count += event == "line"
            return trace
        return None

    previous = sys.gettrace()  # a coverage tracer's or a debugger's
    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(previous)
    return count


def test_a_star_is_given_to_the_tags_once() -> None:
    """A ``*`` member is not applied to every tag as it is read (the pure
    engine's did: 8,190 characters of ``*,`` took 100 ms against 1,000
    tags), but once at the end, as the Cython engine does (docs/bad-input.md:
    a member that reaches no offer costs the same against 8 tags or 1,000)."""
    tags = _language.TagSet([f"en-x{i}" for i in range(400)])
    one = _lines_run(lambda: _language.decisions([("*", 500)], tags))
    many = _lines_run(lambda: _language.decisions([("*", 500)] * 400, tags))
    assert many < one + 10 * 400  # not 400 x 400
    assert _language.decisions([("*", 500)] * 400, tags) == (
        [500] * 400,
        [0] * 400,
    )


def test_a_deciding_key_is_packed_as_the_cython_engine_packs_it() -> None:
    """``shared << SHARED_SHIFT | relation << RELATION_SHIFT | weight`` in
    both engines: the same names and numbers in ``_language`` and in the
    Cython engine's enum (read from the source where the tree has it)."""
    tags = _language.TagSet(["en-GB", "de"])
    keys, _ = _language.decisions([("en-gb", 500), ("de-at", 300)], tags)
    assert keys == [2 << 14 | 4 << 11 | 500, 1 << 14 | 2 << 11 | 300]
    ours = {name: getattr(_language, name) for name in KEY_CONSTANTS}
    assert ours == KEY_CONSTANTS
    source = Path(__file__).resolve().parent.parent / "src/fastaccept/_scan.pyx"
    if not source.exists():
        pytest.skip("no source tree here: the .pyx is not installed")
    text = source.read_text(encoding="utf-8")
    found = re.findall(r"^ +(\w+) = (\d+)\b", text, re.MULTILINE)
    theirs = [(name, int(value)) for name, value in found if name in ours]
    assert sorted(theirs) == sorted(ours.items())  # each once, the same number


@pytest.mark.parametrize(
    ("made", "error", "message"),
    [
        # a weight out of range had answered 1.5 or 0.904 (the relation's bits)
        (
            lambda: AcceptLanguage([LanguageRange("fr", 5000)]),
            ValueError,
            "from 0 to 1000",
        ),
        (lambda: AcceptEncoding([Coding("gzip", 1500)]), ValueError, "from 0 to 1000"),
        (lambda: AcceptEncoding([Coding("gzip", True)]), TypeError, "not bool"),
        (lambda: AcceptEncoding([Coding(None)]), TypeError, "its name must be a str"),  # type: ignore[arg-type]
        (
            lambda: AcceptLanguage([LanguageRange("en-")]),
            ValueError,
            "no Accept-Language member",
        ),
        (
            lambda: AcceptLanguage([LanguageRange("")]),  # had raised IndexError
            ValueError,
            "no Accept-Language member",
        ),
        (lambda: AcceptEncoding([Coding("")]), ValueError, "no Accept-Encoding member"),
        (
            lambda: AcceptEncoding([Coding("gzip;q=1")]),
            ValueError,
            "no Accept-Encoding member",
        ),
        # the repr's text is no list of members: its characters were taken for them
        (
            lambda: AcceptEncoding(cast(Any, "gzip;q=0.5, br")),
            TypeError,
            "members must be an iterable of Coding",
        ),
        (
            lambda: Accept(cast(Any, "a/b")),
            TypeError,
            "members must be an iterable of MediaRange",
        ),
        (
            lambda: Accept(cast(Any, [("a", "b", (), 1000)])),
            TypeError,
            "must be MediaRange, not tuple",
        ),
        (
            lambda: Accept([MediaRange("a", "b", (), 2000)]),
            ValueError,
            "from 0 to 1000",
        ),
    ],
)
def test_a_value_made_by_hand_holds_only_members_a_parser_reads(
    made: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        made()


def test_a_value_made_by_hand_answers_as_the_parsed_one(engine: Engine) -> None:
    # names lower-case, as the parsers make them (upper case had matched nothing)
    assert AcceptLanguage([LanguageRange("EN-us", 500)]) == engine.parse_language(
        "en-US;q=0.5"
    )
    assert AcceptEncoding([Coding("GZIP")]).best(["gzip"]) == "gzip"
    assert Accept([MediaRange("TEXT", "Html", (("Level", "1"),))]) == engine.parse(
        "text/html;level=1"
    )
    for value in (
        engine.parse("text/html;q=0.5, */*"),
        engine.parse_encoding("gzip, br;q=0"),
        engine.parse_language("en-US, fr;q=0.5"),
    ):
        assert type(value)(value, value.present, value.skipped) == value
        assert pickle.loads(pickle.dumps(value)) == value


@pytest.mark.parametrize(
    ("value", "offers", "expected"),
    [
        # lang-034 with the server order reversed: en-a-bb is no prefix of a
        # tag, so it relates as its longest prefix that is one, en-a (a
        # prefix ending in a singleton); en-a-cc shares 2 subtags, en-b 1
        ("en-a-bb", ["en-b", "en-a-cc"], "en-a-cc"),
        ("en-a-bb", ["en-GB", "en-a"], "en-a"),
    ],
)
def test_a_range_relates_through_its_longest_prefix_ending_in_a_singleton(
    lists: Engine, value: str, offers: list[str], expected: str
) -> None:
    # docs/rules.md rule 19: both tags are only the same language (no lookup
    # ends on a singleton), so more shared subtags decide before server order
    assert lists.negotiate_language(value, offers) == expected
    ranked = lists.LanguageNegotiator(offers).rank(value)
    assert ranked == [(expected, 1.0), (offers[0], 1.0)]


def test_identity_takes_the_lowest_weight_even_the_smallest(lists: Engine) -> None:
    # identity's implicit weight is the lowest non-zero q in the value (rule
    # 18): at q=0.001 it is still acceptable, chosen and ranked.
    negotiator = lists.EncodingNegotiator(["gzip", "identity"])
    assert negotiator.choose("br;q=0.001") == "identity"
    assert negotiator.rank("br;q=0.001") == [("identity", 0.001)]
    assert lists.negotiate_encoding("br;q=0.001", ["identity"]) == "identity"


def test_a_private_use_range_relates_by_no_language_at_any_depth(lists: Engine) -> None:
    # A first subtag of one character names no language (rule 19), however
    # many subtags the range and the tag share after it.
    language = lists.negotiate_language
    assert language("x-foo-bar", ["x-foo-baz"]) is None
    assert language("x-foo-bar", ["x-foo"]) == "x-foo"  # lookup still holds
    negotiator = lists.LanguageNegotiator(["x-foo-baz", "de"])
    assert negotiator.choose("x-foo-bar, de;q=0.5") == "de"
    assert negotiator.rank("x-foo-bar, de;q=0.5") == [("de", 0.5)]
