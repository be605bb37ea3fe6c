"""One test (at least) per rule of docs/rules.md, each failing if its rule broke."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastaccept
from fastaccept import AcceptError, Consumes, MediaRange, Offer, _member

from .conftest import Engine


def ranges(
    engine: Engine, value: str, **kw: object
) -> list[tuple[str, str, tuple[tuple[str, str], ...], int]]:
    return [tuple(r) for r in engine.parse(value, **kw)]


# Rule 1: split on commas outside quoted strings; empty members and OWS ignored.
def test_rule1_commas_inside_quotes_do_not_split(engine: Engine) -> None:
    assert ranges(engine, 'a/b;p="x,y" , ,\tc/d ,') == [
        ("a", "b", (("p", "x,y"),), 1000),
        ("c", "d", (), 1000),
    ]


def test_rule1_skipped_member_ends_at_comma_outside_quotes(engine: Engine) -> None:
    accept = engine.parse('a/b c;p="1,2", d/e')
    assert ranges(engine, 'a/b c;p="1,2", d/e') == [("d", "e", (), 1000)]
    assert accept.skipped[0].text == 'a/b c;p="1,2"'
    assert (accept.skipped[0].start, accept.skipped[0].end) == (0, 13)


def test_rule1_skipped_member_ends_past_an_escaped_quote(engine: Engine) -> None:
    # Inside a quoted string, \" is a quoted-pair, not the closing quote: the
    # comma after it is still inside the quotes.
    value = 'a/b;p="x\\",y";bad, c/d'
    accept = engine.parse(value)
    assert ranges(engine, value) == [("c", "d", (), 1000)]
    assert (accept.skipped[0].start, accept.skipped[0].end) == (0, 17)
    assert engine.negotiate(value, ["c/d"]) == "c/d"


def test_rule1_skipped_text_leaves_out_the_whitespace_before_its_comma(
    engine: Engine,
) -> None:
    skipped = engine.parse("a/b c \t , d/e").skipped[0]
    assert (skipped.text, skipped.start, skipped.end) == ("a/b c", 0, 8)


#: Where rules 1, 2, 18 and 19 allow OWS (RFC 9110 §5.6.3: ``*( SP / HTAB )``):
#: ``{}`` marks the place, and each value's best offer is ``text/html``
#: (``gzip``, ``de``) only if the member around it is read as written.
OWS_PLACES = {
    "accept": (
        ["a/b", "text/html", "text/html;a=b"],
        [
            "{}text/html;q=0.5, a/b;q=0.4",
            "text/html{};q=0.5, a/b;q=0.4",
            "text/html;{}q=0.5, a/b;q=0.4",
            "text/html;q=0.5{}, a/b;q=0.4",
            "text/html;a=b{};q=0.5, a/b;q=0.4",
            "text/html;{};q=0.5, a/b;q=0.4",
            "a/b;q=0.4,{}text/html;q=0.5",
            "a/b;q=0.4, text/html;q=0.5{}",
        ],
    ),
    "encoding": (
        ["br", "gzip"],
        [
            "{}gzip;q=0.5, br;q=0.4",
            "gzip{};q=0.5, br;q=0.4",
            "gzip;{}q=0.5, br;q=0.4",
            "gzip;q=0.5{}, br;q=0.4",
            "br;q=0.4,{}gzip;q=0.5",
        ],
    ),
    "language": (
        ["en", "de"],
        [
            "{}de;q=0.5, en;q=0.4",
            "de{};q=0.5, en;q=0.4",
            "de;{}q=0.5, en;q=0.4",
            "de;q=0.5{}, en;q=0.4",
            "en;q=0.4,{}de;q=0.5",
        ],
    ),
}


@pytest.mark.parametrize("header", sorted(OWS_PLACES))
def test_ows_is_spaces_and_tabs_alone(engine: Engine, header: str) -> None:
    # Every character at every place OWS may stand: a space or a tab is
    # read as nothing, by the parser and by a negotiation (whose fast paths
    # read OWS too); a control character, DEL, a byte 0x80-0xFF (NBSP
    # included) or a wider space is no whitespace there.
    offers, places = OWS_PLACES[header]
    parse, negotiate = {
        "accept": (engine.parse, engine.negotiate),
        "encoding": (engine.parse_encoding, engine.negotiate_encoding),
        "language": (engine.parse_language, engine.negotiate_language),
    }[header]
    characters = [chr(c) for c in range(256)] + ["\u2003", "\u3000"]
    for place in places:
        plain = place.format("")
        read = (list(parse(plain)), negotiate(plain, offers))
        assert read[1] != offers[0], plain  # the member at the place decides
        for character in characters:
            value = place.format(character)
            answer = (list(parse(value)), negotiate(value, offers))
            if character in " \t":
                assert answer == read, (value, answer)
            elif not " " < character < "\x7f":  # the member is skipped
                assert answer[0] != read[0] and answer[1] != read[1], (value, answer)


# Rule 2: media-range forms; tokens lower-cased; '*/subtype' invalid.
def test_rule2_case_folded_and_forms(engine: Engine) -> None:
    assert ranges(engine, "TEXT/HTML;LEVEL=One, Image/*, */*") == [
        ("text", "html", (("level", "One"),), 1000),
        ("image", "*", (), 1000),
        ("*", "*", (), 1000),
    ]


def test_rule2_wildcard_type_needs_wildcard_subtype(engine: Engine) -> None:
    assert ranges(engine, "*/html, a/b") == [("a", "b", (), 1000)]
    with pytest.raises(AcceptError):
        engine.parse("*/html", strict=True)


@pytest.mark.parametrize("subtype", ["*html", "**", "*.json", "+json", "*-"])
def test_rule2_no_subtype_begins_with_a_star_or_a_plus(
    engine: Engine, subtype: str
) -> None:
    """A pattern to one reader, a name to another: refused, in a value and as
    an offer (``*`` and ``*+suffix`` are the ranges of rules 2 and 22)."""
    assert ranges(engine, f"text/{subtype}, a/b") == [("a", "b", (), 1000)]
    with pytest.raises(AcceptError, match="a subtype begins with a letter or digit"):
        engine.parse(f"text/{subtype}", strict=True)
    with pytest.raises(ValueError, match="a subtype begins with a letter or digit"):
        engine.negotiate("*/*", [f"text/{subtype}"])
    assert ranges(engine, "text/h*ml")[0][1] == "h*ml"  # a token, not a pattern


@pytest.mark.parametrize("type_", ["*x", "+x", "*+json"])
def test_rule2_only_a_lone_star_type_is_a_wildcard(engine: Engine, type_: str) -> None:
    # Any other token names a type, in a value and as an offer.
    assert ranges(engine, f"{type_}/html") == [(type_, "html", (), 1000)]
    assert engine.negotiate(f"{type_}/html", ["text/html", f"{type_}/html"]) == (
        f"{type_}/html"
    )
    assert engine.negotiate(f"{type_}/html", ["text/html"]) is None


# Rule 3: values are tokens or quoted strings (unquoted, unescaped); no space at '='.
def test_rule3_quoted_values_unescaped(engine: Engine) -> None:
    assert ranges(engine, r'a/b;x="q\"uo\\te";y=tok') == [
        ("a", "b", (("x", 'q"uo\\te'), ("y", "tok")), 1000)
    ]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["a", " ", '"', "\\", "\t"]), st.booleans())))
def test_rule3_each_quoted_pair_gives_its_character(
    engine: Engine, chars: list[tuple[str, bool]]
) -> None:
    # A quoted string of qdtext and quoted-pairs (any character may be
    # escaped; '"' and '\\' must be): its value has each pair's backslash
    # left out (RFC 9110 §5.6.4).
    body = "".join("\\" + c if escaped or c in '"\\' else c for c, escaped in chars)
    value = "".join(c for c, _ in chars)
    assert ranges(engine, f'a/b;x="{body}";;; ;y=1') == [
        ("a", "b", (("x", value), ("y", "1")), 1000)
    ]


@pytest.mark.parametrize(
    ("value", "offer", "matches"),
    [
        (r'text/plain;charset="UTF\-8"', "text/plain;charset=utf-8", True),  # rule 9
        (r'a/b;p="x\y"', "a/b;p=xy", True),
        (r'a/b;p="x\y"', "a/b;p=xyz", False),  # a prefix of the offer's value
        (r'a/b;p="x\yz"', "a/b;p=xy", False),
        (r'a/b;p="X\y"', "a/b;p=xy", False),  # other parameters: case kept
    ],
)
def test_rule3_an_escaped_value_is_compared_unescaped(
    engine: Engine, value: str, offer: str, matches: bool
) -> None:
    # Negotiating, a quoted value with quoted-pairs is compared with the
    # offer's without its backslashes, whole, a charset case-insensitively.
    assert engine.negotiate(value, [offer]) == (offer if matches else None)
    assert engine.quality(value, offer) == (1.0 if matches else 0.0)


@pytest.mark.parametrize("value", ["a/b;x =1", "a/b;x= 1", "a/b;x\t=1"])
def test_rule3_no_whitespace_around_equals(engine: Engine, value: str) -> None:
    assert ranges(engine, value) == []
    with pytest.raises(AcceptError):
        engine.parse(value, strict=True)


@pytest.mark.parametrize(
    "member",
    [
        'a/b;x="\r"',  # a control character in a quoted string
        'a/b;x="\\\x01"',  # or escaped
        'a/b;x="\x7f"',  # DEL
        'a/b;x="\u0100"',  # above U+00FF
        "a/b;x=\x00",  # in a token
        "a/b;x=\xe9",  # a byte 0x80-0xFF outside quotes
        "a/\x00b",
    ],
)
def test_rule3_a_character_no_rule_allows_makes_a_member_invalid(
    engine: Engine, member: str
) -> None:
    assert ranges(engine, f"{member}, c/d") == [("c", "d", (), 1000)]
    with pytest.raises(AcceptError):
        engine.parse(member, strict=True)


def test_rule3_a_quoted_string_takes_tabs_spaces_and_obs_text(engine: Engine) -> None:
    value = 'a/b;x="\t \xe9\xff~!";y="\\\xe9\\\t"'
    assert ranges(engine, value) == [
        ("a", "b", (("x", "\t \xe9\xff~!"), ("y", "\xe9\t")), 1000)
    ]


# Rule 4: 'q' any case, any position; qvalue grammar; thousandths.
def test_rule4_weight_any_case_any_position(engine: Engine) -> None:
    assert ranges(engine, "a/b;Q=0.25;x=1") == [("a", "b", (("x", "1"),), 250)]


def test_rule4_weights_are_thousandths(engine: Engine) -> None:
    rng = engine.parse("a/b;q=0.001")[0]
    assert rng.weight == 1 and rng.q == 0.001
    # 0.3 and 0.300 are the same weight: a tie, so server order decides.
    assert engine.negotiate("c/d;q=0.300, a/b;q=0.3", ["a/b", "c/d"]) == "a/b"


@pytest.mark.parametrize(
    "weight",
    ["1.5", "2", "-0", "0.1234", "1.01", "1e0", "0x1", "inf", "nan", '"0.5"', '"1"'],
)
def test_rule4_outside_qvalue_grammar(engine: Engine, weight: str) -> None:
    assert ranges(engine, f"a/b;q={weight}, c/d") == [("c", "d", (), 1000)]


def test_rule4_every_spelling_of_the_qvalue_grammar(engine: Engine) -> None:
    # ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ): 1,117 spellings
    spellings = {"0": 0, "0.": 0, "1": 1000, "1.": 1000}
    for digits in (1, 2, 3):
        for n in range(10**digits):
            spellings[f"0.{n:0{digits}d}"] = n * 10 ** (3 - digits)
        spellings["1." + "0" * digits] = 1000
    assert len(spellings) == 1117
    value = ", ".join(f"a/b{i};q={q}" for i, q in enumerate(spellings))
    parsed = engine.parse(value, strict=True, max_length=None)
    assert [r.weight for r in parsed] == list(spellings.values())


def test_rule4_the_weights_read_stay_bounded() -> None:
    # The pure engine keeps the spellings it has read: valid ones only, so a
    # client sending distinct invalid weights grows nothing.
    before = len(_member.QVALUES), len(_member._SHORT_QVALUES)
    for i in range(2000):
        assert _member.weight(f"0.{i:04d}", strict=False) < 0  # four digits
        assert _member.weight(f".{i:04d}", strict=False) < 0
    assert (len(_member.QVALUES), len(_member._SHORT_QVALUES)) == before
    assert len(_member.QVALUES) <= 1117 and len(_member._SHORT_QVALUES) <= 1110


# Rule 5: a repeated parameter name is invalid.
@pytest.mark.parametrize(
    "value", ["a/b;x=1;X=2", "a/b;q=1;Q=0.5", "a/b;x=1;q=0;Q=1", 'a/b;q=0;q="1"']
)
def test_rule5_repeated_parameter(engine: Engine, value: str) -> None:
    assert ranges(engine, value) == []


def test_rule5_many_distinct_parameters_are_fine(engine: Engine) -> None:
    names = [f"p{i}" for i in range(40)]
    value = "a/b;" + ";".join(f"{n}=1" for n in names)
    assert [n for n, _ in engine.parse(value, strict=True)[0].params] == names
    # A repeat found past the pairwise limit, of the last name or the first.
    assert ranges(engine, value + ";P39=2") == []
    assert ranges(engine, value + ";P0=2") == []
    with pytest.raises(AcceptError, match="duplicate parameter 'p0'"):
        engine.parse(value + ";P0=2", strict=True)


# Rules 3-5 where a member's parameters are spelled as an offer's: the pure
# engine's negotiation takes them from a table (``OfferSet.spelled``), which
# must read them as the member reader does; and where its first parameter is
# written as no offer's: the member is passed over unread, which must be
# what reading it gives.
SPELLED_OFFERS = [
    "application/vnd.acme+json;version=2",
    'text/plain;format="a b"',
    'text/plain;x="tok"',
    "text/html;charset=UTF-8",
    "application/json",
]


def test_rules3_5_the_spellings_taken_as_read_are_the_offers_plain_ones() -> None:
    from fastaccept._match import OfferSet

    assert OfferSet(_member.parse_offers(SPELLED_OFFERS)).spelled == {
        "version=2": (("version", "2"),),
        "x=tok": (("x", "tok"),),
        "charset=utf-8": (("charset", "utf-8"),),
    }  # no "format=a b": unquoted, it is no parameter


@pytest.mark.parametrize(
    "params",
    [
        ";version=2",
        ";version=2;q=0.8",
        ";version=2;Q=0.8",
        ";version=2;q=0.8;q=0.5",
        ";version=2;version=2",
        ";version=2;q=2",
        ";version=2;q=.8",
        ";version=2;q=0.8 ",
        ";version=2 ;q=0.8",
        ";version=2; q=0.8",
        ";q=0.8;version=2",
        ";version=2;",
        ";;version=2",
        ";version=3",
        ";version=2;x=tok",
        ";x=tok",
        ";x=tok;q=0.3",
        ";format=a b",
        ";format=a b;q=0.3",
        ";charset=utf-8;q=0.5",
        ";charset=UTF-8;q=0.5",
        # A first parameter spelled plainly that no offer has: the pure
        # engine passes the member over unread; one that an offer has once
        # its OWS is read, or its name lower-cased, or that is the weight or
        # a charset (rule 20) is read.
        ";version=3;q=0.8",
        ";version=3;version=2",
        ";qs=2",
        "; version=2",
        ";\tversion=2;q=0.8",
        ";Version=2",
        ";charset=latin1",
    ],
)
@pytest.mark.parametrize(
    "media_range",
    ["application/vnd.acme+json", "text/plain", "text/html", "application/json", "*/*"],
)
def test_rules3_5_parameters_spelled_as_an_offer_are_read_as_any_other(
    engine: Engine, media_range: str, params: str
) -> None:
    value = f"{media_range}{params}, application/json;q=0.1"
    expected = engine.parse(value).rank(SPELLED_OFFERS)  # every member read
    assert engine.Negotiator(SPELLED_OFFERS).rank(value) == expected


@pytest.mark.parametrize(
    "params,read",
    [
        (";version=3;q=0.8", False),
        (";x=1" + ";p=1" * 500, False),
        (";Version=3", True),
        (";charset=latin1", True),
        (";q=0.8;version=3", True),
    ],
)
def test_rules3_5_a_first_parameter_no_offer_has_is_not_read_further(
    monkeypatch: pytest.MonkeyPatch, params: str, read: bool
) -> None:
    # The pure engine's negotiation reads the parameters of such a member
    # no further (the Cython engine's ``narrow`` alike); of the others, once.
    from fastaccept import _scan_py

    calls: list[str] = []

    def counted(text: str, *args: object) -> _member.MemberResult:
        calls.append(text)
        return _member.scan_parameters(text, *args)  # type: ignore[arg-type]

    value = f"application/vnd.acme+json{params}, application/json;q=0.1"
    expected = _scan_py.parse(value).best(SPELLED_OFFERS)  # every member read
    monkeypatch.setattr(_scan_py, "scan_parameters", counted)
    assert _scan_py.Negotiator(SPELLED_OFFERS).choose(value) == expected
    assert len(calls) == read


# Rule 6: lenient skips bad members; exactly two recoveries.
def test_rule6_jdk_recoveries(engine: Engine) -> None:
    value = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"
    assert ranges(engine, value)[-2:] == [("*", "*", (), 200), ("*", "*", (), 200)]
    assert not engine.parse(value).skipped


@pytest.mark.parametrize(
    "value", ["a/b;q=0,5", "a/b;q=.", "a/b;q=.2345", "*x", "text", "a/b;q=1.0.0"]
)
def test_rule6_nothing_else_is_repaired(engine: Engine, value: str) -> None:
    # "a/b;q=0,5" is a/b at q=0 and a member "5", never a/b at q=0.5.
    kept = [("a", "b", (), 0)] if value == "a/b;q=0,5" else []
    assert ranges(engine, value + ", c/d") == [*kept, ("c", "d", (), 1000)]
    assert len(engine.parse(value).skipped) == 1


# Rule 7: strict mode raises at the first violation; the recoveries are errors.
@pytest.mark.parametrize(
    "value,position",
    [
        ("*; q=0.2", 1),
        ("a/b; q=.2", 7),
        ("a/b, c d, e/", 6),
        ("a/b;x=1;q=2", 10),  # a weight after a parameter: at its value
        ("a/b;x=1; Q=.2", 11),
    ],
)
def test_rule7_strict_raises_first_violation(
    engine: Engine, value: str, position: int
) -> None:
    with pytest.raises(AcceptError) as info:
        engine.parse(value, strict=True)
    assert info.value.position == position


# Rule 8: the length limit, both modes, every entry point; None lifts it.
def test_rule8_limit(engine: Engine) -> None:
    value = "a/b," * 3000  # 12000 characters
    for strict in (False, True):
        with pytest.raises(AcceptError) as info:
            engine.parse(value, strict=strict)
        assert info.value.position == 8192
        assert "over the limit of 8192" in str(info.value)
    with pytest.raises(AcceptError):
        engine.negotiate(value, ["a/b"])
    with pytest.raises(AcceptError):
        engine.quality(value, "a/b")
    with pytest.raises(AcceptError):
        engine.Negotiator(["a/b"]).choose(value)
    with pytest.raises(AcceptError):
        engine.Negotiator(["a/b"]).rank(value)
    assert len(engine.parse(value, max_length=None)) == 3000
    assert engine.negotiate(value, ["a/b"], max_length=None) == "a/b"
    assert engine.Negotiator(["a/b"], max_length=None).choose(value) == "a/b"
    assert engine.quality(value, "a/b", max_length=12000) == 1.0


def test_rule8_limit_is_inclusive(engine: Engine) -> None:
    assert len(engine.parse("a/b", max_length=3)) == 1
    with pytest.raises(AcceptError):
        engine.parse("a/b", max_length=2)


# Rule 9: matching.
def test_rule9_params_must_be_present_and_equal(engine: Engine) -> None:
    accept = engine.parse("text/html;level=1")
    assert accept.quality("text/html;level=1;extra=x") == 1.0  # extra params fine
    assert accept.quality("text/html") == 0.0  # missing param
    assert accept.quality("text/html;level=2") == 0.0


def test_rule9_parameters_reach_only_offers_of_the_range(engine: Engine) -> None:
    # Other offers with the same parameter are not reached: by type and
    # subtype, or a wildcard's type, first.
    offers = ["text/plain;level=1", "text/html;level=1", "image/png;level=1"]
    assert engine.negotiate("text/html;level=1", offers) == "text/html;level=1"
    assert engine.negotiate("image/*;level=1", offers) == "image/png;level=1"
    assert engine.negotiate("text/html;level=1, */*;q=0.5", offers) == (
        "text/html;level=1"
    )
    assert engine.Negotiator(offers).rank("image/*;level=1, text/html;level=1") == [
        ("text/html;level=1", 1.0),
        ("image/png;level=1", 1.0),
    ]


def test_rule9_charset_case_insensitive_others_exact(engine: Engine) -> None:
    assert (
        engine.quality('text/plain;charset="UTF-8"', "text/plain;charset=utf-8") == 1.0
    )
    assert engine.quality("text/plain;format=Flowed", "text/plain;format=flowed") == 0.0


@pytest.mark.parametrize(
    ("value", "offer"),
    [
        ("a/b;p=xyz", "a/b;p=xy"),  # the offer's value begins the range's
        ('a/b;p="xyz"', "a/b;p=xy"),
        ("a/b;p=x", "a/b;p=xy"),  # the range's begins the offer's
        ("a/b;p=x, c/d;q=0.5", "a/b;p=xy"),
        ("text/plain;charset=UTF-88", "text/plain;charset=utf-8"),  # folded
        ("a/b;p=abcdefghij", "a/b;p=abcdefgh"),  # longer than a word
    ],
)
def test_rule9_a_parameter_value_is_compared_whole(
    engine: Engine, value: str, offer: str
) -> None:
    # Unescaped values too (test_rule3_an_escaped_value_is_compared_unescaped).
    assert engine.negotiate(value, [offer]) is None
    assert engine.quality(value, offer) == 0.0


def test_rule9_charset_case_insensitive_where_a_range_meets_a_type(
    engine: Engine,
) -> None:
    # A parsed range against a media type (MediaRange.matches), and the
    # types Consumes takes against a request's Content-Type: not through
    # the negotiators' scanner.
    member = engine.parse("text/plain;charset=UTF-8")[0]
    assert member.matches("text/plain;charset=utf-8")
    assert not member.matches("text/plain;charset=latin-1")
    taken = Consumes(["text/plain; charset=UTF-8"])
    assert taken.check("text/plain; charset=utf-8").status == 200
    assert taken.check("text/plain; charset=Latin-1").status == 415


def test_rule20_only_a_charset_goes_uncompared_where_a_range_meets_a_type(
    engine: Engine,
) -> None:
    # Rule 20 spares a JSON type's missing charset, no other parameter.
    member = engine.parse("application/json;charset=utf-8;version=2")[0]
    assert member.matches("application/json;version=2")
    assert not member.matches("application/json")
    assert not engine.parse("application/*+json;v=1")[0].matches("application/a+json")
    taken = Consumes(["application/json;version=2"])
    assert taken.check("application/json;version=2").status == 200
    assert taken.check("application/json").status == 415


def test_rule9_charset_folds_ascii_letters_only(engine: Engine) -> None:
    # Case-insensitive as HTTP text is: ASCII letters only; a Latin-1 letter
    # (obs-text in a quoted string) is compared as sent, by both engines.
    folded = ('text/plain;charset="Z\xe9"', 'text/plain;charset="z\xe9"')
    kept = ('text/plain;charset="\xc0"', 'text/plain;charset="\xe0"')
    assert engine.quality(*folded) == 1.0 and engine.quality(*kept) == 0.0
    assert engine.parse(folded[0])[0].matches(folded[1])
    assert not engine.parse(kept[0])[0].matches(kept[1])


# Rule 10: the most specific matching range gives the quality.
def test_rule10_most_specific_wins_even_with_lower_q(engine: Engine) -> None:
    assert engine.quality("text/*;q=0.9, text/html;q=0.1", "text/html") == 0.1
    assert engine.quality("*/*;q=0.9, text/*;q=0.2", "text/css") == 0.2


def test_rule10_a_type_wildcard_over_a_wildcard_with_parameters(engine: Engine) -> None:
    # "type/*" is more specific than "*/*" whatever parameters it has: where
    # both match, "type/*" decides, for the offers its type holds only.
    offers = ["text/plain;format=flowed", "image/png;format=flowed", "image/gif"]
    negotiator = engine.Negotiator(offers)
    value = "*/*;format=flowed;q=0.9, text/*;q=0.5"
    assert negotiator.rank(value) == [(offers[1], 0.9), (offers[0], 0.5)]
    assert negotiator.choose(value) == offers[1]
    value = "*/*;format=flowed;q=0.4, text/*;q=0.5, image/*;q=0.1"
    assert negotiator.rank(value) == [
        (offers[0], 0.5),
        (offers[1], 0.1),
        (offers[2], 0.1),
    ]
    assert negotiator.choose(value) == offers[0]


def test_rule10_equal_specificity_higher_q(engine: Engine) -> None:
    assert engine.quality("a/b;q=0.2, a/b;q=0.7", "a/b") == 0.7


@pytest.mark.parametrize(
    ("value", "offers", "rank"),
    [
        ("*/*;q=0.5, */*;q=0", ["text/html"], [("text/html", 0.5)]),
        ("*/*;q=0, */*;q=0.5", ["text/html"], [("text/html", 0.5)]),
        ("*/*;q=0.5, */*;q=0.2", ["text/html"], [("text/html", 0.5)]),
        ("text/*;q=0.5, text/*;q=0", ["text/html"], [("text/html", 0.5)]),
        (
            "text/*;q=0.8, text/*;q=0.2, application/json;q=0.5",
            ["application/json", "text/html"],
            [("text/html", 0.8), ("application/json", 0.5)],
        ),
    ],
)
def test_rule10_a_wildcard_listed_twice_takes_its_higher_q(
    engine: Engine, value: str, offers: list[str], rank: list[tuple[str, float]]
) -> None:
    # Kept aside (not credited to each offer), a wildcard's weight is the
    # higher of its members', as for any two equally specific ranges.
    assert engine.Negotiator(offers).rank(value) == rank
    assert engine.negotiate(value, offers) == rank[0][0]
    assert engine.parse(value).rank(offers) == rank
    assert [engine.quality(value, offer) for offer, _ in rank] == [q for _, q in rank]


def test_rule10_q0_is_not_acceptable(engine: Engine) -> None:
    assert engine.negotiate("*/*, a/b;q=0", ["a/b"]) is None
    assert not engine.parse("*/*, a/b;q=0").accepts("a/b")


# Rule 11: highest q, then the more specific range, then server order.
def test_rule11_ties(engine: Engine) -> None:
    assert engine.negotiate("a/*, a/c", ["a/b", "a/c"]) == "a/c"
    assert engine.negotiate("a/b, a/c", ["a/c", "a/b"]) == "a/c"
    assert engine.Negotiator(["a/b", "a/c"]).rank("a/*;q=0.5, a/c") == [
        ("a/c", 1.0),
        ("a/b", 0.5),
    ]


def test_rule11_a_type_wildcard_wins_a_tie_with_a_wildcard_with_parameters(
    engine: Engine,
) -> None:
    # Both score 1: "text/*" (specificity (1, 0)) is more specific than
    # "*/*;level=1" ((0, 1)), so text/plain wins over the earlier offer.
    offers = ["a/b;level=1", "text/plain"]
    value = "*/*;level=1, text/*"
    assert engine.negotiate(value, offers) == "text/plain"
    assert engine.Negotiator(offers).choose_index(value) == 1
    assert engine.Negotiator(offers).rank(value) == [
        ("text/plain", 1.0),
        ("a/b;level=1", 1.0),
    ]


# Rule 12: absent header, empty header, no valid member.
def test_rule11_ties_between_types_wildcards_go_to_server_order(
    engine: Engine,
) -> None:
    # text/* reaches text/plain (text/html refused), image/* image/png: both
    # score 0.5 with ranges as specific; image/png comes first in server
    # order, though text's wildcard comes first in the wildcards' order.
    offers: list[str | tuple[str, float]] = [
        "text/html",
        "image/png",
        "image/gif",
        ("text/plain", 0.5),
    ]
    value = "text/html;q=0, text/*, image/*;q=0.5"
    assert engine.negotiate(value, offers) == "image/png"
    assert engine.Negotiator(offers).choose_index(value) == 1


def test_rule12_absent_empty_invalid(engine: Engine) -> None:
    offers = ["a/b", "c/d"]
    assert engine.negotiate(None, offers) == "a/b"
    assert engine.Negotiator(offers).rank(None) == [("a/b", 1.0), ("c/d", 1.0)]
    assert engine.negotiate("", offers, default="406") == "406"
    assert engine.negotiate("bad, also bad", offers, default="406") == "406"
    assert engine.parse(None).present is False
    assert engine.parse("").present is True
    assert engine.quality(None, "x/y") == 1.0


# Rule 13: offers are concrete types, checked when given.
@pytest.mark.parametrize(
    "offer",
    [
        "*/*",
        "text/*",
        "text",
        "text/html;q=0.5",
        "text/html, a/b",
        "",
        "a/b;x",
        "a/\u20ac",
    ],
)
def test_rule13_bad_offers_raise_at_construction(engine: Engine, offer: str) -> None:
    with pytest.raises(ValueError, match="invalid offer"):
        engine.Negotiator(["a/b", offer])
    with pytest.raises(ValueError, match="invalid offer"):
        engine.negotiate("*/*", [offer])


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ("*", "expected '/' after the type '*'"),
        ("*;q=1", "expected '/' after the type '*'"),
        ("a/b;q=.5", "such as 0.8 (RFC 9110 §12.4.2): write '0.5'"),
    ],
)
def test_rule13_a_legacy_form_given_by_a_program_is_no_legacy_form(
    engine: Engine, given: str, error: str
) -> None:
    # Rule 6 repairs a bare "*" and a weight without its leading 0 that a
    # client sends, in lenient mode only; a program's value (and an
    # Accept-Query member) is read strictly, with no mode to suggest.
    for make in (engine.Negotiator, Consumes, fastaccept.format_accept):
        with pytest.raises(ValueError) as raised:
            make([given])
        assert error in str(raised.value)
        assert "lenient" not in str(raised.value)
    if "q=" not in given:  # Accept-Query takes no weight: its own reason
        reason = fastaccept.parse_accept_query(given).reason
        assert reason is not None and error in reason and "lenient" not in reason


def test_rule13_non_str_offer(engine: Engine) -> None:
    with pytest.raises(TypeError, match="offer must be a str, not bytes"):
        engine.Negotiator([b"a/b"])


def test_media_range_is_the_shared_type(engine: Engine) -> None:
    assert engine.parse("a/b")[0] == MediaRange("a", "b")


@pytest.mark.parametrize("count", [42, 63, 64, 65, 66, 129])
def test_many_offers(engine: Engine, count: int) -> None:
    # Around the compiled engine's bounds: 63 offers told apart in a mask
    # (the rest share its last bit), 64 with their per-call arrays on the
    # stack, and more.
    offers = [f"x/y{i}" for i in range(count - 2)] + ["text/html", "x/y7;p=1"]
    value = "x/y39;q=0.5, text/*;q=0.9, x/y7;p=1;q=0.95, x/y3;q=0"
    assert engine.negotiate(value, offers) == "x/y7;p=1"
    assert engine.Negotiator(offers).rank(value) == [
        ("x/y7;p=1", 0.95),
        ("text/html", 0.9),
        ("x/y39", 0.5),
    ]


# Rules 1 and 10: a member whose type/subtype matches no offer changes nothing,
# valid or not; negotiation passes over it to the next comma outside quotes.
@pytest.mark.parametrize(
    ("value", "chosen"),
    [
        ('a/b;p="x,text/html", application/json', "application/json"),
        ('a/b;p="x\\",text/html", application/json', "application/json"),
        ('a/b;p="x\\\\", text/html', "text/html"),
        ('a/b;p="x\\"y\\\\", text/html', "text/html"),
        ('a/b;p="unterminated, text/html', None),
        ('a/b;p="x\\', None),
        ('a/b c;p="1,2", text/html', "text/html"),
        ('a/b\x00;p="1,2"\x00, text/html', "text/html"),
        # Bytes that are no qdtext (controls, NUL) are read over inside quotes.
        ('a/b;p="x\x01,text/html", application/json', "application/json"),
        ('a/b;p="x\x00,text/html\x7f", application/json', "application/json"),
        # Passed over from where the type/subtype look-up stopped reading.
        ('text/hx;p="a,text/html", application/json', "application/json"),
        ('text/zz;p="a,text/html", application/json', "application/json"),
        ('application/jsonx;p="a,b\\"c", text/html;q=0.5', "text/html"),
        ("*x/*, APPLICATION/*;q=0.5", "application/json"),
        ("text/htmlx, textx/html, application/json;q=0.1", "application/json"),
        ("text/*x, application/json;q=0.3", "application/json"),
        ("a/b" + "".join(f";p{i}=1" for i in range(500)) + ", text/html", "text/html"),
    ],
)
def test_rule10_members_matching_no_offer_are_passed_over(
    engine: Engine, value: str, chosen: str | None
) -> None:
    assert engine.negotiate(value, ["text/html", "application/json"]) == chosen


# Rules 7, 10 and 11 on the members negotiation reads most (a type/subtype,
# perhaps a weight): upper case, long and short tokens, the value's last bytes,
# and the shapes next to them that need a full reading.
LONG = "application/vnd.example.long-name+json"


@pytest.mark.parametrize(
    ("value", "ranked"),
    [
        (
            "TEXT/HTML;Q=0.5, Text/Plain ;q=0.25 , */*;q=0.1",
            [
                ("text/html", 0.5),
                ("text/plain", 0.25),
                (LONG, 0.1),
                ("image/png", 0.1),
            ],
        ),
        ("image/png", [("image/png", 1.0)]),
        ("IMAGE/PNG", [("image/png", 1.0)]),
        ("image/pn, image/pngx, image/p", []),
        (LONG.upper() + ";q=0.7, " + LONG[:-1] + ", " + LONG + "x", [(LONG, 0.7)]),
        ("text/*;q=0.3, text/html;q=0.7", [("text/html", 0.7), ("text/plain", 0.3)]),
        ("text/html;q=0.2, text/html;q=0.6", [("text/html", 0.6)]),
        ("text/html;", [("text/html", 1.0)]),
        ("text/html\t;\tq=0.5\t", [("text/html", 0.5)]),
        (
            "text/html;q=0.5;level=1, text/plain;q=0.5 x, text/html;q=, image/png;q=2",
            [],
        ),
        ("text/html;qs=1, text/html;q =0.5, text/html;q=0.5;q=0.4", []),
        (
            "*/*;q=0.5, *;q=0.9, */x, text/plain;q=0.05",
            [
                ("text/html", 0.9),
                (LONG, 0.9),
                ("image/png", 0.9),
                ("text/plain", 0.05),
            ],
        ),
    ],
)
def test_rule10_common_members(
    engine: Engine, value: str, ranked: list[tuple[str, float]]
) -> None:
    offers = ["text/html", "text/plain", LONG, "image/png"]
    assert engine.Negotiator(offers).rank(value) == ranked


@pytest.mark.parametrize("length", [1, 2, 7, 8, 9, 15, 16, 17, 24, 33])
def test_rule2_essence_compared_whole_and_case_insensitively(
    engine: Engine, length: int
) -> None:
    """A member's type and subtype equal an offer's only whole, whatever their
    length (the compiled engine compares them a word at a time), wherever a
    letter's case differs, at the value's end or not; '^' is not '~' (the two
    differ in bit 0x20 as a letter's cases do)."""
    type_ = "".join(chr(97 + k % 26) for k in range(length - 1)) + "~"
    offer = f"{type_}/{type_[::-1]}"
    offers = [offer, "text/html"]
    negotiate = engine.Negotiator(offers, cache_size=0).choose
    for value in (offer, offer.upper(), offer.title()):
        assert negotiate(value) == offer
        assert negotiate(f"{value};q=0.5, text/html;q=0.1") == offer
        assert negotiate(f"{value}x") is None
        assert negotiate(value[:-1]) is None
    for i, char in enumerate(offer):
        if char != "/":
            assert negotiate(offer[:i] + char.upper() + offer[i + 1 :]) == offer
            changed = "^" if char == "~" else "0"
            assert negotiate(offer[:i] + changed + offer[i + 1 :]) is None


def test_rule10_more_offers_than_a_mask_has_bits(engine: Engine) -> None:
    # The Cython engine tells 63 offers apart by type and subtype; the rest
    # share a bit and are checked in full.
    offers = [f"x/y{i}" for i in range(70)]
    value = "x/y68;p=1, x/y66;q=0.5, x/y3;q=0.4, X/Y69;q=0.45"
    assert engine.negotiate(value, offers) == "x/y66"
    assert engine.Negotiator(offers).rank(value) == [
        ("x/y66", 0.5),
        ("x/y69", 0.45),
        ("x/y3", 0.4),
    ]
    assert engine.negotiate("x/*;q=0.2, x/y64", offers) == "x/y64"


def test_rule10_offers_past_the_64th_found_by_type_and_subtype(engine: Engine) -> None:
    # Past the 63 offers a mask tells apart, a range is checked against the
    # offers its type and subtype reach (a type's, a subtype's, a suffix's),
    # a "*/*" with parameters against all of them; the answers are the rules'.
    late = [
        "text/html",
        "text/plain;format=flowed",
        "application/vnd.a+json",
        Offer("image/png", explicit=True),
        "text/plain",
        "application/json;v=1",
        Offer("application/vnd.b+json;v=1", explicit=True),
    ]
    offers = [f"x/y{i}" for i in range(63)] + late + [f"z/w{i}" for i in range(20)]
    negotiator = engine.Negotiator(offers, cache_size=0)
    assert negotiator.choose("TEXT/HTML") == "text/html"
    assert negotiator.rank("text/plain;format=flowed;q=0.5, text/plain;q=0.4") == [
        ("text/plain;format=flowed", 0.5),
        ("text/plain", 0.4),
    ]
    assert negotiator.rank("application/*+json;q=0.9") == [
        ("application/vnd.a+json", 0.9)
    ]
    assert negotiator.rank("text/*;format=flowed") == [
        ("text/plain;format=flowed", 1.0)
    ]
    assert negotiator.rank("*/*;v=1;q=0.7") == [("application/json;v=1", 0.7)]
    assert negotiator.rank("*;v=1") == [("application/json;v=1", 1.0)]  # lenient
    assert negotiator.rank("*/*;a=1, */*;format=x") == []  # no offer has them
    assert negotiator.rank("*/*;v=2, text/*;format=FLOWED") == []  # nor these values
    assert negotiator.rank('*/*;v="\\1";q=0.6') == [("application/json;v=1", 0.6)]
    assert negotiator.rank("*/*;charset=UTF-8;q=0.3") == [  # JSON takes any (rule 20)
        ("application/vnd.a+json", 0.3),
        ("application/json;v=1", 0.3),
    ]
    assert negotiator.choose("image/*, z/w19;q=0.2") == "z/w19"  # rule 21
    # An explicit offer with a parameter: a wildcard or a suffix range with
    # that parameter does not reach it either, its own type and subtype do.
    assert negotiator.rank("application/*+json;v=1, */*;v=1;q=0.5") == [
        ("application/json;v=1", 0.5)
    ]
    assert negotiator.rank("application/vnd.b+json;v=1;q=0.8") == [
        ("application/vnd.b+json;v=1", 0.8)
    ]
    assert negotiator.choose("image/png;q=0.1, z/w19;q=0.2") == "z/w19"
    assert negotiator.choose("image/png, z/w19;q=0.2") == "image/png"
    assert negotiator.choose("z/w3;p=1, x/y70") is None
    # Values compared as rule 9 says: a charset in any case, others exactly.
    more = [f"x/y{i}" for i in range(63)] + ["text/csv;charset=utf-8", "text/csv;v=A"]
    negotiator = engine.Negotiator(more, cache_size=0)
    assert negotiator.rank("text/*;charset=UTF-8") == [("text/csv;charset=utf-8", 1.0)]
    assert negotiator.rank("*/*;v=a, text/csv;v=a") == []
    assert negotiator.rank('text/*;V="A"') == [("text/csv;v=A", 1.0)]


def test_rule9_offers_past_the_64th_with_many_values_of_a_parameter(
    engine: Engine,
) -> None:
    # Past the 63 offers a mask tells apart, a range with parameters is
    # checked only against the offers that have the one of its parameters
    # the fewest have; a value none has, in any spelling, reaches none.
    late = [f"a/b;v={i};w=1" for i in range(40)] + ["a/c;v=3;w=2", "a/d;v=X"]
    offers = [f"x/y{i}" for i in range(63)] + late
    # A range reaching more than 64 offers, few of them with its parameter,
    # reads those (the pure engine by their bits): of its type, not explicit;
    # one without parameters reads them all.
    more = [
        *offers,
        *(f"c/d;v={i}" for i in range(70)),
        Offer("c/e;v=3", explicit=True),
    ]
    negotiator = engine.Negotiator(more, cache_size=0)
    assert negotiator.rank("c/*;v=3, */*;w=2;q=0.5") == [
        ("c/d;v=3", 1.0),
        ("a/c;v=3;w=2", 0.5),
    ]
    assert negotiator.rank("c/d;v=69;q=0.9, x/y1;q=0.4")[:2] == [
        ("c/d;v=69", 0.9),
        ("x/y1", 0.4),
    ]
    assert negotiator.choose("c/d;q=0.5, x/y1;q=0.4") == "c/d;v=0"
    negotiator = engine.Negotiator(offers, cache_size=0)
    assert negotiator.rank("*/*;w=1;v=3") == [("a/b;v=3;w=1", 1.0)]
    assert negotiator.rank("*/*;V=3;W=2;q=0.5") == [("a/c;v=3;w=2", 0.5)]
    assert negotiator.rank('*/*;v="\\3"') == [
        ("a/b;v=3;w=1", 1.0),
        ("a/c;v=3;w=2", 1.0),
    ]
    assert negotiator.rank('a/*;v="3\\9";w=1') == [("a/b;v=39;w=1", 1.0)]
    assert negotiator.rank("*/*;v=3;w=3, */*;v=40, a/b;v=x, */*;v=x") == []
    assert negotiator.rank("*/*;v=X;q=0.2, a/*;w=1;q=0.1")[:2] == [
        ("a/d;v=X", 0.2),
        ("a/b;v=0;w=1", 0.1),
    ]


def test_rule10_many_subtypes_with_a_first_byte_in_common(engine: Engine) -> None:
    # The Cython engine finds a subtype among its type's that share its first
    # byte's low five bits; past 8 of them, among those with its hash too.
    offers = [f"application/vnd.v{i}+json" for i in range(40)]
    offers += ["application/vnd", "application/v", "application/6", "text/vnd.v1+json"]
    offers += [f"image/x+s{i}" for i in range(12)]  # twelve suffix ranges
    negotiator = engine.Negotiator(offers, cache_size=0)
    for i in (0, 17, 39):
        assert negotiator.choose(f"Application/VND.V{i}+JSON") == offers[i]
    for subtype in ("vnd", "v", "6"):
        assert negotiator.choose(f"application/{subtype}") == f"application/{subtype}"
    for missing in ("vnd.v40+json", "vnd.v1+jso", "vnd.", "vn", "6a", "vnd.v1+json1"):
        assert negotiator.choose(f"application/{missing}, image/x+s3;q=0.1") == (
            "image/x+s3"
        )
    assert negotiator.rank("image/*+s7, application/*+json;q=0.5")[:2] == [
        ("image/x+s7", 1.0),
        ("application/vnd.v0+json", 0.5),
    ]
    assert negotiator.choose("text/vnd.v1+json;q=0.5, application/vnd.v2+json") == (
        "application/vnd.v2+json"
    )


def test_rule10_many_types_with_a_first_byte_in_common(engine: Engine) -> None:
    # The Cython engine finds a type among the offered types that begin with
    # its first byte; past 8 of them, among those with its hash too.
    offers = [f"t{i}/s" for i in range(40)] + ["text/plain", "t/s", "image/png"]
    negotiator = engine.Negotiator(offers, cache_size=0)
    for i in (0, 17, 39):
        assert negotiator.choose(f"T{i}/S") == offers[i]
    assert negotiator.choose("TEXT/plain") == "text/plain"
    assert negotiator.choose("t/s") == "t/s"
    for missing in ("t40/s", "tex/plain", "t1/s1", "t", "t1", "t1 /s", "tzz/s"):
        assert negotiator.choose(f"{missing}, image/png;q=0.1") == "image/png"
    assert negotiator.rank("t3/*;q=0.5, t/*, */*;q=0.1")[:3] == [
        ("t/s", 1.0),
        ("t3/s", 0.5),
        ("t0/s", 0.1),
    ]
