"""Every error path: its message and its position, identical on both engines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fastaccept import (
    AcceptError,
    Consumes,
    Produces,
    Rendered,
    parse_accept_query,
    problem,
)

from .conftest import Engine

_WEIGHT_RULE = (
    "a weight is a number from 0 to 1 with at most three decimals, such as 0.8 "
    "(RFC 9110 §12.4.2)"
)
CASES = [
    ("/xml", 0, "expected a media type (a token such as 'text'), found '/'"),
    ("", None, None),
    ("text", 4, "expected '/' after the type 'text', found the end of the value"),
    ("text html", 4, "expected '/' after the type 'text', found a space"),
    ("text/", 5, "expected a subtype token after '/', found the end of the value"),
    (
        "*/html",
        2,
        "expected '*' after '*/' (a wildcard type takes only a wildcard subtype), found 'html'",
    ),
    (
        "*/*x",
        2,
        "expected '*' after '*/' (a wildcard type takes only a wildcard subtype), found '*x'",
    ),
    (
        "*;q=0.2",
        1,
        "expected '/' after '*', found ';' (a bare '*' is a legacy form of '*/*', accepted only in lenient mode)",
    ),
    ("a/b c", 4, "expected ';' or ',' after the media range, found 'c'"),
    ("application/xml/", 15, "expected ';' or ',' after the media range, found '/'"),
    ("a/b;=1", 4, "expected a parameter name after ';', found '='"),
    (
        "a/b;c",
        5,
        "expected '=' after the parameter name 'c', found the end of the value",
    ),
    (
        "a/b;charset =x",
        11,
        "expected '=' after the parameter name 'charset', found a space (no whitespace is allowed around '=', RFC 9110 §5.6.6)",
    ),
    (
        "a/b;c=",
        6,
        "expected a value (a token or a quoted string) after 'c=', found the end of the value",
    ),
    (
        "a/b;c= x",
        6,
        "expected a value (a token or a quoted string) after 'c=', found a space (no whitespace is allowed around '=', RFC 9110 §5.6.6)",
    ),
    (
        "a/b;charset=\xe9",
        12,
        "expected a value (a token or a quoted string) after 'charset=', found byte 0xE9",
    ),
    (  # a weight, never quoted (rule 4): not "a token or a quoted string"
        "a/b;q=",
        6,
        "expected a weight after 'q=' (a number from 0 to 1 with at most three decimals, RFC 9110 §12.4.2), found the end of the value",
    ),
    (
        "a/b;x=1;Q=\t0.5",
        10,
        "expected a weight after 'q=' (a number from 0 to 1 with at most three decimals, RFC 9110 §12.4.2), found a tab (no whitespace is allowed around '=', RFC 9110 §5.6.6)",
    ),
    ('a/b;c="open', 6, "the quoted string that starts here is never closed"),
    ('a/b;c="open\\', 6, "the quoted string that starts here is never closed"),
    ('a/b;c="x\x01"', 8, "expected a quoted-string character, found control byte 0x01"),
    (
        'a/b;c="x\u20ac"',
        8,
        "expected a quoted-string character, found non-Latin-1 character U+20AC (not a header byte)",
    ),
    (
        'a/b;c="\\\x7f"',
        8,
        "expected a visible character, space or tab after '\\', found control byte 0x7F",
    ),
    (
        "a/b;q=2",
        6,
        "invalid weight '2': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    (
        'a/b;q="0.5"',
        6,
        "invalid weight '\"0.5\"': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    (
        "a/b;q=.5",
        6,
        "invalid weight '.5': write '0.5' (the form without the leading zero is accepted only in lenient mode)",
    ),
    ("a/b;x=1;X=2", 8, "duplicate parameter 'x'"),
    ("a/b;q=1;Q=0", 8, "duplicate parameter 'q'"),
    # A run longer than EXCERPT_MAX (40) is quoted cut, "..." marking the cut.
    (
        "t" * 40,
        40,
        f"expected '/' after the type '{'t' * 40}', found the end of the value",
    ),
    (
        "t" * 41,
        41,
        f"expected '/' after the type '...{'t' * 40}', found the end of the value",
    ),
    (
        "a/b;" + "p" * 50,
        54,
        f"expected '=' after the parameter name '...{'p' * 40}', found the end of the value",
    ),
    (
        "a/b;" + "p" * 50 + "=",
        55,
        f"expected a value (a token or a quoted string) after '...{'p' * 40}=', found the end of the value",
    ),
    (
        "a/b;q=" + "9" * 50,
        6,
        f"invalid weight '{'9' * 40}...': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    (
        'a/b;q="' + "0" * 50 + '"',
        6,
        f"invalid weight '\"{'0' * 39}...': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    (
        'a/b;q="' + "0" * 38 + '"',
        6,
        f"invalid weight '\"{'0' * 38}\"': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    (
        "a/b;" + "x" * 50 + "=1;" + "X" * 50 + "=2",
        57,
        f"duplicate parameter '{'x' * 40}...'",
    ),
    (
        "a/b;" + "x" * 40 + "=1;" + "X" * 40 + "=2",
        47,
        f"duplicate parameter '{'x' * 40}'",
    ),
    (
        "a/b;" + "x" * 41 + "=1;" + "X" * 41 + "=2",
        48,
        f"duplicate parameter '{'x' * 40}...'",
    ),
    (
        'a/b;q="' + "0" * 39 + '"',
        6,
        f"invalid weight '\"{'0' * 39}...': a weight is a number from 0 to 1 with at most three decimals, such as 0.8 (RFC 9110 §12.4.2)",
    ),
    # In a quoted weight a backslash escapes the next character, '"' too
    # (RFC 9110 §5.6.4): the string quoted runs to its closing quote.
    *(
        (value, 6, f"invalid weight {weight!r}: {_WEIGHT_RULE}")
        for value, weight in (
            ('a/b;q="x\\", c/d", e/f', '"x\\", c/d"'),
            ('a/b;q="' + 'x\\"' * 20 + '"', '"' + 'x\\"' * 13 + "..."),
            ('a/b;q="' + "0" * 38 + '\\"0"', '"' + "0" * 38 + "\\..."),
            # a quote escaped as the 40th character: cut, not closed there
            ('a/b;q="' + "0" * 37 + '\\""', '"' + "0" * 37 + '\\"...'),
        )
    ),
    # Structured-syntax suffix ranges (docs/rules.md rule 22).
    (
        "*/*+json",
        3,
        "a suffix range needs a concrete type, as in 'application/*+json' (RFC 6838 §4.2.8): '*/*' takes no suffix, found '+json'",
    ),
    (
        "text/html, */*+XML;q=0.5",
        14,
        "a suffix range needs a concrete type, as in 'application/*+json' (RFC 6838 §4.2.8): '*/*' takes no suffix, found '+XML'",
    ),
    (
        "*/*+",
        3,
        "a suffix range needs a concrete type, as in 'application/*+json' (RFC 6838 §4.2.8): '*/*' takes no suffix, found '+'",
    ),
    (
        "application/+json",
        12,
        "expected a subtype after '/', found '+json': a subtype begins with a letter or digit (RFC 6838 §4.2); a suffix range is written 'type/*+suffix', as in 'application/*+json'",
    ),
    (
        "text/*html",
        5,
        "expected a subtype after '/', found '*html': a subtype begins with a letter or digit (RFC 6838 §4.2); a suffix range is written 'type/*+suffix', as in 'application/*+json'",
    ),
    (
        "application/+",
        12,
        "expected a subtype after '/', found '+': a subtype begins with a letter or digit (RFC 6838 §4.2); a suffix range is written 'type/*+suffix', as in 'application/*+json'",
    ),
    (
        "application/*+",
        14,
        "expected a structured-syntax suffix after '*+' (such as 'json' in 'application/*+json', RFC 6838 §4.2.8), found the end of the value",
    ),
    (
        "a/b, application/*+ ;q=1",
        19,
        "expected a structured-syntax suffix after '*+' (such as 'json' in 'application/*+json', RFC 6838 §4.2.8), found a space",
    ),
    (
        "*/+json",
        2,
        "expected '*' after '*/' (a wildcard type takes only a wildcard subtype), found '+json'",
    ),
    (
        "a/b\x00",
        3,
        "expected ';' or ',' after the media range, found control byte 0x00",
    ),
    (
        "a/b\u20ac",
        3,
        "expected ';' or ',' after the media range, found non-Latin-1 character U+20AC (not a header byte)",
    ),
    (
        "a/b\r\n",
        3,
        "expected ';' or ',' after the media range, found control byte 0x0D",
    ),
]


@pytest.mark.parametrize("value,position,reason", CASES)
def test_message_and_position(
    engine: Engine, value: str, position: int | None, reason: str | None
) -> None:
    if position is None:
        assert len(engine.parse(value, strict=True)) == 0
        return
    assert reason is not None
    with pytest.raises(AcceptError) as info:
        engine.parse(value, strict=True)
    error = info.value
    assert (error.position, error.reason) == (position, reason)
    assert str(error) == f"invalid Accept value at position {position}: {reason}"
    assert error.value == value
    assert isinstance(error, ValueError)
    # Lenient mode skips the member and records the same position and reason,
    # except for the two legacy forms it recovers (rule 6).
    skipped = engine.parse(value).skipped
    recovered = "accepted only in lenient mode" in reason
    expected = [] if recovered else [(position, reason)]
    assert [(s.position, s.reason) for s in skipped] == expected


@pytest.mark.parametrize(
    "value,position,reason",
    # those expressible as header bytes (Latin-1)
    [c for c in CASES if c[1] is not None and all(ord(ch) <= 0xFF for ch in c[0])],
)
def test_same_error_from_bytes(
    engine: Engine, value: str, position: int, reason: str
) -> None:
    with pytest.raises(AcceptError) as info:
        engine.parse(value.encode("latin-1"), strict=True)
    assert (info.value.position, info.value.reason) == (position, reason)
    assert info.value.value == value.encode("latin-1")


def test_error_value_of_bytearray_is_bytes(engine: Engine) -> None:
    with pytest.raises(AcceptError) as info:
        engine.parse(bytearray(b"a/b c"), strict=True)
    assert info.value.value == b"a/b c"


def test_too_long_message(engine: Engine) -> None:
    with pytest.raises(AcceptError) as info:
        engine.parse("a/b, c/d", max_length=5)
    assert info.value.position == 5
    assert info.value.reason == (
        "the value is 8 characters long, over the limit of 5: answer 431 Request "
        "Header Fields Too Large, or read the header as invalid (raise max_length "
        "only for trusted values)"
    )


def test_a_one_character_value_over_the_limit_is_one_character(
    engine: Engine,
) -> None:
    """Each too-long message names a length of 1 in the singular (the
    limit of 0 that a one-character value passes)."""
    with pytest.raises(AcceptError) as info:
        engine.parse("*", max_length=0)
    assert info.value.reason.startswith("the value is 1 character long, over ")
    with pytest.raises(AcceptError) as info:
        engine.negotiate("*", ["a/b"], max_length=0)
    assert info.value.reason.startswith("the value is 1 character long, over ")
    said = "the Content-Type header is 1 character long; the limit is 0."
    assert said in Consumes(["a/b"], max_length=0).check("a").body
    assert parse_accept_query("a", max_length=0).reason == (
        "the value is 1 character long; the limit is 0"
    )


def _saying(length: int) -> list[Callable[[str], Any]]:
    """Makers of a str and of bytes (the text's Latin-1) whose ``__len__``
    says ``length``."""

    class Said(str):
        def __len__(self) -> int:
            return length

    class SaidBytes(bytes):
        def __len__(self) -> int:
            return length

    return [Said, lambda text: SaidBytes(text.encode("latin-1"))]


SAYS_SHORT = _saying(1)


@pytest.mark.parametrize("short", SAYS_SHORT, ids=["str", "bytes"])
def test_the_limit_measures_a_value_by_its_text_not_its_len(
    engine: Engine, short: Callable[[str], Any]
) -> None:
    # rule 8: a subclass's own __len__ cannot pass an over-long value off as
    # short, on either engine (_text.header_length).
    value = short("a/b," * 3000)
    said = "the value is 12000 characters long, over the limit of 8192: "
    calls: list[Callable[[Any], object]] = [
        engine.parse,
        lambda v: engine.negotiate(v, ["a/b"]),
        engine.Negotiator(["a/b"]).choose,
        engine.parse_encoding,
        engine.LanguageNegotiator(["en"]).choose,
    ]
    for call in calls:
        with pytest.raises(AcceptError) as info:
            call(value)
        assert info.value.reason.startswith(said)
    assert not engine.is_cors_safelisted(short("a/b," * 40))  # 160 bytes


@pytest.mark.parametrize("short", SAYS_SHORT, ids=["str", "bytes"])
def test_the_shared_readers_measure_a_value_by_its_text_not_its_len(
    short: Callable[[str], Any],
) -> None:
    value = short("a/b," * 3000)
    said = "header is 12000 characters long; the limit is 8192."
    assert said in Produces(["a/b"]).select(value).body
    assert said in Consumes(["a/b"]).check(value).body
    assert parse_accept_query(value).reason == (
        "the value is 12000 characters long; the limit is 8192"
    )
    # An Accept over DEFAULT_MAX_LENGTH is not read for a refusal's format.
    over = short("application/problem+json," + " " * 9000)
    assert problem(400, over).headers["Content-Type"].startswith("text/plain")


def test_a_content_type_reads_q_as_a_parameter_like_any_other() -> None:
    # No weight in a Content-Type (RFC 9110 §8.3): its 'q=' needs a value,
    # as any parameter's does, where an Accept's needs a weight (CASES).
    said = r"expected a value \(a token or a quoted string\) after 'q=', found the end"
    with pytest.raises(ValueError, match=said):
        Rendered(200, (("Content-Type", "a/b;q="),), b"x")


@pytest.mark.parametrize("empty", _saying(0), ids=["str", "bytes"])
def test_a_content_type_that_says_it_is_empty_is_read(
    empty: Callable[[str], Any],
) -> None:
    # rule 8: a subclass's own __len__ does not make its text missing (it
    # answered "Content-Type is missing", and an over-long one unmeasured).
    consumes = Consumes(["application/json"])
    assert consumes.check(empty("application/json")).status == 200
    assert consumes.check(empty("a/b," * 3000)).status == 431
    assert "is missing" in consumes.check(empty("")).body
    # A field value holds no outer whitespace (RFC 9110 §5.5): OWS alone is
    # an empty value, missing (it was "malformed").
    assert "is missing" in consumes.check(" \t ").body


@pytest.mark.parametrize("bad", [1, 1.5, ["a/b"], object()])
def test_wrong_argument_type_names_the_type(engine: Engine, bad: Any) -> None:
    message = (
        f"must be str, bytes, bytearray, memoryview or None, not {type(bad).__name__}"
        r": pass the header's value, such as request\.headers\.get\('Accept'\) "
        r"\(None where it is absent\)$"
    )
    with pytest.raises(TypeError, match=message):
        engine.parse(bad)
    with pytest.raises(TypeError, match=message):
        engine.Negotiator(["a/b"]).choose(bad)
    with pytest.raises(TypeError, match=message):
        engine.is_cors_safelisted(bad)


def test_skipped_member_records(engine: Engine) -> None:
    value = "a/b, x y ;q=1 ,  c/d, */e"
    accept = engine.parse(value)
    assert [(s.start, s.end, s.text, s.position) for s in accept.skipped] == [
        (5, 14, "x y ;q=1", 6),
        (22, 25, "*/e", 24),
    ]
    assert [str(r) for r in accept] == ["a/b", "c/d"]


def test_skipped_members_are_written_when_read(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/bad-input.md: parsing records where each skipped member is and its
    # error; its text and reason are written when ``skipped`` is first read,
    # from the value as given (a buffer is copied when parsed, so changing it
    # after changes nothing), and kept: each read after gives the same
    # tuple, through pickle too (a loop reading skipped[i] of thousands of
    # members wrote them all on each read: seconds).
    import copy
    import pickle

    from fastaccept import _types

    written: list[int] = []

    def reason(code: int, text: str, position: int) -> str:
        written.append(position)
        return f"{code} at {position} of {len(text)}"

    monkeypatch.setattr(_types, "reason", reason)
    buffer = bytearray(b"a, \xe9/x ;q=1, text/html")
    parsed = [
        engine.parse(buffer),
        engine.parse_encoding(b"gzip, b r"),
        engine.parse_language("en, e_n"),
    ]
    buffer[:] = b"z" * len(buffer)
    assert written == []
    assert [s.reason for s in parsed[0].skipped] == ["2 at 1 of 22", "1 at 3 of 22"]
    assert [(s.start, s.end, s.text, s.position) for s in parsed[0].skipped] == [
        (0, 1, "a", 1),
        (3, 11, "\xe9/x ;q=1", 3),
    ]
    assert [s.text for s in parsed[1].skipped + parsed[2].skipped] == ["b r", "e_n"]
    assert list(parsed[0]._skipped_starts()) == [0, 3]
    for value in parsed:
        copies = [copy.copy(value), pickle.loads(pickle.dumps(value))]
        assert all(made.skipped == value.skipped for made in copies)
        assert value.skipped is value.skipped
    assert len(written) == 4  # each member's reason written once
    assert engine.parse("a/b, c/d").skipped == ()


def test_a_refusal_reads_only_the_starts_it_shows() -> None:
    # A 406 for thousands of malformed members lists ten of them and their
    # count (docs/bad-input.md): the rest of the records are not read.
    from fastaccept import _types

    read: list[int] = []

    class Records(list[int]):
        def __getitem__(self, index: Any) -> Any:
            read.append(index)
            return super().__getitem__(index)

    starts = _types.Unexplained("a,", Records(range(4 * 4096))).starts()
    assert len(starts) == 4096 and list(starts[:3]) == [0, 4, 8]
    assert starts[-1] == 4 * 4095 and read == [0, 4, 8, 4 * 4095]
    with pytest.raises(IndexError):
        starts[4096]


def test_an_error_survives_pickle_and_copy(engine: Engine) -> None:
    import copy
    import pickle

    with pytest.raises(AcceptError) as info:
        engine.parse("a/b;q=2", strict=True)
    error = info.value
    vars(error)["__notes__"] = ["request 42"]  # add_note's (3.11+)
    vars(error)["request_id"] = 42
    copies = [copy.copy(error), copy.deepcopy(error)]
    copies += [pickle.loads(pickle.dumps(error, p)) for p in range(6)]
    for made in copies:
        assert type(made) is AcceptError and str(made) == str(error)
        assert (made.reason, made.value, made.position, made.field) == (
            error.reason,
            error.value,
            error.position,
            error.field,
        )
        assert vars(made)["__notes__"] == ["request 42"]
        assert vars(made)["request_id"] == 42
