"""Produces, Consumes and Decision; the ASGI and WSGI header readers."""

from __future__ import annotations

import array
import dataclasses
import itertools
import json
import re
from http import HTTPStatus
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import (
    Consumes,
    Decision,
    Negotiator,
    OfferSpec,
    Produces,
    _responses,
    header_from_environ,
    header_from_scope,
    merge_vary,
    parse,
    quality,
)
from fastaccept._headers import lines_value, vary_merged_into
from fastaccept._limits import CACHE_KEY_MAX_LENGTH, DEFAULT_MAX_LENGTH, VALUES_KEPT
from fastaccept._responses import prefers_problem_json
from fastaccept._text import coerce_value

OFFERS = ["application/json", "text/html; charset=utf-8"]
TEXT = ("Content-Type", "text/plain; charset=utf-8")


# --- readers ---------------------------------------------------------------


def test_scope_reader_absent_header() -> None:
    assert header_from_scope({"headers": [(b"host", b"x")]}) is None
    assert header_from_scope({"headers": []}) is None


def test_scope_reader_refuses_a_mapping_that_is_no_scope() -> None:
    # A framework's request (aiohttp's is a mapping too) or its headers: not
    # an absent header, which would choose the first offer.
    # A lifespan scope has none either. The message does not guess which.
    message = (
        r"^scope has no 'headers': pass the ASGI scope of an HTTP or WebSocket "
        r"connection \(Starlette's request\.scope\)$"
    )
    for mapping in (
        {},
        {"accept": "a/b"},
        {"HTTP_ACCEPT": "a/b"},
        {"type": "lifespan"},
    ):
        with pytest.raises(TypeError, match=message):
            header_from_scope(mapping)


def test_scope_reader_refuses_lines_that_are_no_pairs() -> None:
    # A hand-made scope's headers as a dict (its names) or as lines of text.
    message = r"^scope\['headers'\] must be an iterable of \(name, value\) pairs"
    for headers in (
        {b"accept": b"a/b"},
        [b"accept: a/b"],
        [(b"accept",)],
        b"accept",
        {b"te": b"x"},  # names of two bytes unpack, as ints
        [b"ab"],
        [memoryview(b"ab")],
        [5],
        (line for line in [(b"host", b"x"), b"accept: a/b"]),  # read once
        (line for line in [b"te"]),
    ):
        with pytest.raises(
            TypeError, match=rf"{message}.*: a line of this {type(headers).__name__} "
        ):
            header_from_scope({"headers": headers})
    for name in (None, 5, HTTPStatus.OK):  # a pair, but its name has no length
        with pytest.raises(
            TypeError,
            match=rf"{message}.*: a line's name is of type {type(name).__name__}$",
        ):
            header_from_scope({"headers": [(b"host", b"x"), (name, b"a/b")]})
    for nothing in (None, 5):  # no lines at all
        with pytest.raises(
            TypeError, match=rf"{message}.*: not {type(nothing).__name__}$"
        ):
            header_from_scope({"headers": nothing})

    class Closed:  # iterable, but its iteration fails: its own error
        def __iter__(self) -> Any:
            raise TypeError("source closed")

    with pytest.raises(TypeError, match=r"^source closed$"):
        header_from_scope({"headers": Closed()})
    with pytest.raises(TypeError, match=r"^source closed$"):  # a line's own
        header_from_scope({"headers": [(b"host", b"x"), Closed()]})
    value_message = r"^a field line's value in scope\['headers'\] must be bytes"
    with pytest.raises(TypeError, match=value_message):
        header_from_scope({"headers": [(b"accept", "a/b"), b"x"]})  # the first's
    # A line that is an iterator, spent by the unpacking: its own error stands;
    # an endless one is not read to its end. Other callers name their lines.
    with pytest.raises(TypeError, match=value_message):
        lines_value([iter((b"accept", "a/b"))], b"accept")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="too many values to unpack"):
        lines_value([itertools.repeat(b"x")], b"accept")  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^raw_headers must be an iterable of \(name"):
        lines = [(b"host", b"x"), [b"a", b"b", b"c"]]
        lines_value(lines, b"accept", "raw_headers")  # type: ignore[arg-type]

    def failing() -> Any:  # an error of its own goes through as raised
        yield (b"accept", b"a/b")
        raise ValueError("I/O operation on closed file")

    with pytest.raises(ValueError, match="I/O operation on closed file"):
        header_from_scope({"headers": failing()})


def test_scope_reader_one_line_is_returned_as_is() -> None:
    value = b"text/html;q=0.9"
    scope = {"headers": [(b"host", b"x"), (b"accept", value)]}
    assert header_from_scope(scope) is value


def test_scope_reader_combines_lines_in_order() -> None:
    # RFC 9110 §5.3: the lines of one field are one comma-separated list.
    scope = {
        "headers": [
            [b"accept", b"image/png"],
            (b"accept-language", b"en"),
            (b"Accept", b"text/html;q=0.5"),
            (b"ACCEPT", b""),
        ]
    }
    assert header_from_scope(scope) == b"image/png, text/html;q=0.5, "


def test_scope_reader_refuses_names_that_are_no_bytes() -> None:
    # A str or buffer name where the one sought could be (ASGI's are bytes)
    # is no absent header; names of another length are not read.
    message = "^a field line's name in scope\\['headers'\\] must be bytes, not {}$"
    for headers in (
        [("accept", b"a/b")],
        [(b"host", b"x"), ("ACCEPT", "a/b")],
        [(memoryview(b"Accept"), b"a/b")],
        [(b"accept", b"a/b"), (bytearray(b"accept"), b"c/d")],
        [(array.array("B", b"ACCEPT"), b"a/b")],
    ):
        kind = type(headers[-1][0]).__name__
        with pytest.raises(TypeError, match=message.format(kind)):
            header_from_scope({"headers": headers})
    words = memoryview(b"\0" * 48).cast("q")  # 6 items, but no bytes
    for other in ("host", "origin", "accepts", memoryview(b"origin"), words):
        scope = {"headers": [(other, b"x"), (b"accept", b"a")]}
        assert header_from_scope(scope) == b"a"  # not the name sought: not read


def test_scope_reader_passes_over_a_name_no_buffer_of_bytes_can_hold() -> None:
    # numpy's datetime64 array: memoryview() raises ValueError, not TypeError.
    numpy = pytest.importorskip("numpy")
    dates = numpy.zeros(6, dtype="datetime64[s]")
    assert header_from_scope({"headers": [(dates, b"x"), (b"accept", b"a")]}) == b"a"


def test_scope_reader_refuses_values_that_are_no_bytes() -> None:
    # ASGI's values are bytes: another type is named, never returned as it
    # stands nor left to bytes.join (whose error names no argument).
    for headers, kind in (
        ([(b"accept", "a/b")], "str"),
        ([(b"accept", 5)], "int"),
        ([(b"accept", b"a/b"), (b"Accept", bytearray(b"c/d"))], "bytearray"),
    ):
        message = (
            f"^a field line's value in scope\\['headers'\\] must be bytes, not {kind}$"
        )
        with pytest.raises(TypeError, match=message):
            header_from_scope({"headers": headers})
    scope = {"headers": [(b"host", "x"), (b"accept", b"a")]}  # another field's
    assert header_from_scope(scope) == b"a"


def test_scope_reader_other_names() -> None:
    scope = {"headers": [(b"content-type", b"application/json")]}
    assert header_from_scope(scope, "Content-Type") == b"application/json"
    assert header_from_scope(scope, "accept") is None
    # A name that is no field name is a mistake, not an absent header.
    for name in ("content-typ\u20ac", "accept:", "Accept ", ""):
        for read, where in ((header_from_scope, scope), (header_from_environ, {})):
            with pytest.raises(ValueError, match=r"^name must be a field name, a "):
                read(where, name)
    for name in ("HTTP_ACCEPT", "x_accept"):  # the environ's key, or ambiguous
        with pytest.raises(ValueError, match="tell '_' from '-'"):
            header_from_environ({"HTTP_HTTP_ACCEPT": "a/b"}, name)
    assert header_from_scope({"headers": [(b"x_y", b"1")]}, "X_Y") == b"1"


def test_environ_reader() -> None:
    environ = {
        "HTTP_ACCEPT": "text/html,\xff",
        "CONTENT_TYPE": "application/json",
        "HTTP_X_NUMBER": 5,
    }
    assert header_from_environ(environ) == "text/html,\xff"
    assert header_from_environ(environ, "Content-Type") == "application/json"
    with pytest.raises(TypeError, match=r"^environ\['HTTP_X_NUMBER'\] must be a str"):
        header_from_environ(environ, "x-number")  # PEP 3333: str values
    with pytest.raises(TypeError, match=r"^environ\['HTTP_ACCEPT'\] must be a str"):
        header_from_environ({"HTTP_ACCEPT": b"a/b"})
    assert header_from_environ({}) is None
    assert header_from_environ({"HTTP_CONTENT_TYPE": "a/b"}, "content-type") is None
    scope = {"type": "http", "headers": [(b"accept", b"a/b")]}
    for name in (b"accept", 5):  # a name as an ASGI scope holds it: refused
        for read in (header_from_scope, header_from_environ):
            with pytest.raises(TypeError, match="name must be a str, not"):
                read(scope, name)  # type: ignore[arg-type]


@pytest.mark.parametrize("given", [None, "accept", [(b"accept", b"a/b")]], ids=repr)
def test_a_reader_given_no_mapping_names_it(given: Any) -> None:
    kind = type(given).__name__
    with pytest.raises(TypeError) as info:
        header_from_scope(given)
    assert str(info.value) == f"scope must be a mapping, not {kind}"
    with pytest.raises(TypeError) as info:
        header_from_environ(given)
    assert str(info.value) == f"environ must be a mapping, not {kind}"


# --- Produces --------------------------------------------------------------


def test_produces_chooses_with_content_type_and_vary() -> None:
    produces = Produces(OFFERS)
    decision = produces.select("text/html")
    assert decision.ok
    assert decision.status == 200
    assert decision.media_type is OFFERS[1]
    assert decision.headers == {"Content-Type": OFFERS[1], "Vary": "Accept"}
    assert decision.body == ""


@pytest.mark.parametrize("value", ["text/html", b"text/html", bytearray(b"text/html")])
def test_produces_takes_str_and_bytes(value: str | bytes | bytearray) -> None:
    assert Produces(OFFERS).select(value).media_type == OFFERS[1]


def test_produces_absent_header_gets_the_first_offer() -> None:
    assert Produces(OFFERS).select(None).media_type == OFFERS[0]


@pytest.mark.parametrize("value", ["image/png", "", " , ", "text/html;q=0"])
def test_produces_406(value: str) -> None:
    # Present but empty, or no valid member, or nothing acceptable: 406.
    decision = Produces(OFFERS).select(value)
    assert not decision.ok
    assert decision.status == 406
    assert decision.reason == "Not Acceptable"
    assert decision.media_type == ""
    assert decision.headers == {"Content-Type": TEXT[1], "Vary": "Accept"}
    assert decision.body == (
        "406 Not Acceptable: the Accept header allows none of the media types "
        "this resource has. Available:\napplication/json\ntext/html; charset=utf-8\n"
    )


@pytest.mark.parametrize("problem_json", [False, True])
def test_a_406_says_which_members_were_skipped_by_place(problem_json: bool) -> None:
    # docs/bad-input.md: the members lenient reading skipped, by their places
    # only; nothing of the request is sent back.
    value = "junk, <b>;q=1, image/png" + (", application/json;q=0" * problem_json)
    decision = Produces(OFFERS).select(value)
    assert decision.status == 406
    said = (
        "the Accept header allows none of the media types this resource has. "
        "2 of its members were malformed and skipped (at offsets 0, 6)."
    )
    if problem_json:
        value += ", application/problem+json"
        decision = Produces(OFFERS).select(value)
        assert json.loads(decision.body)["detail"] == said
    else:
        assert decision.body.startswith(f"406 Not Acceptable: {said} Available:\n")
    assert "<b>" not in decision.body and "junk" not in decision.body
    assert Produces(OFFERS).select("image/png").body.count("skipped") == 0


def test_a_406_counts_one_skipped_member_in_the_singular() -> None:
    decision = Produces(OFFERS).select("junk, image/png")
    assert decision.status == 406
    assert "1 of its members was malformed and skipped (at offset 0)." in decision.body


def test_a_406_lists_the_first_ten_skipped_members() -> None:
    # A value of malformed members gets a short body, whatever its length.
    decision = Produces(OFFERS).select("a," * 4000)
    assert decision.status == 406
    assert (
        "4000 of its members were malformed and skipped (at offsets 0, 2, 4, 6, "
        "8, 10, 12, 14, 16, 18 and 3990 more)."
    ) in decision.body
    assert len(decision.body) < 400


def test_a_refusal_writes_no_skipped_member_s_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/bad-input.md: a refusal reads where the skipped members start, so a
    # value of thousands of malformed members costs it no message; reading
    # ``skipped`` writes them.
    from fastaccept import _types, problem

    written: list[int] = []

    def reason(code: int, text: str, position: int) -> str:
        written.append(position)
        return "a reason"

    monkeypatch.setattr(_types, "reason", reason)
    value = "a," * 50
    consumes = Consumes(["application/json"])
    assert Produces(OFFERS).select(value).status == 406
    assert problem(404, accept=value).status == 404
    assert consumes.check("text/plain", accept=value).status == 415
    assert written == []
    skipped = parse(value).skipped
    assert [member.reason for member in skipped] == ["a reason"] * 50
    assert written == list(range(1, 100, 2))


def test_produces_default_instead_of_406() -> None:
    produces = Produces(OFFERS, default=OFFERS[1])
    assert produces.select("image/png").media_type == OFFERS[1]
    assert produces.select("application/json").media_type == OFFERS[0]


def test_produces_default_not_an_offer() -> None:
    # Not a str: a TypeError, as Produces.versioned's default; a str that is
    # no offer: a ValueError, quoting at most 160 characters of it.
    with pytest.raises(TypeError, match=r"^default must be a str, .* not int$"):
        Produces(OFFERS, default=5)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"^default 'xxx.*\.\.\.' is not one of"
    ) as raised:
        Produces(OFFERS, default="x" * 100_000)
    assert len(str(raised.value)) < 300


def test_produces_431_over_the_limit() -> None:
    produces = Produces(OFFERS, max_length=20)
    assert produces.select("text/html,text/html,").ok  # 20 characters
    decision = produces.select("text/html, text/html, text/")
    assert decision.status == 431
    assert decision.reason == "Request Header Fields Too Large"
    assert decision.headers == {"Content-Type": TEXT[1], "Vary": "Accept"}
    assert decision.body == (
        "431 Request Header Fields Too Large: the Accept header is 27 characters "
        "long; the limit is 20.\n"
    )


def test_produces_without_a_limit() -> None:
    produces = Produces(OFFERS, max_length=None)
    assert produces.select("text/html, " * 2000).media_type == OFFERS[1]


def test_produces_offers() -> None:
    assert Produces(iter(OFFERS)).offers == tuple(OFFERS)


@pytest.mark.parametrize(
    ("offers", "default", "message"),
    [
        ([], None, "at least one media type"),
        (["text/*"], None, "concrete"),
        (["text/html;q=0.5"], None, "no weight"),
        (OFFERS, "image/png", "not one of the offers"),
        # Never chosen, each request would get a 406 listing nothing.
        ([("text/plain", 0)], None, "no offer has a qs above 0"),
        ([("a/b", 0), ("c/d", 0.0)], None, "no offer has a qs above 0"),
    ],
)
def test_produces_rejects_bad_configuration(
    offers: list[str], default: str | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Produces(offers, default=default)


# --- Consumes --------------------------------------------------------------

BODY = [
    "application/json",
    "application/x-www-form-urlencoded",
    "image/*",
    "text/plain;charset=utf-8",
]


@pytest.mark.parametrize(
    ("content_type", "accepted", "request_type"),
    [
        ("application/json", "application/json", "application/json"),
        (
            "Application/JSON; charset=UTF-8",
            "application/json",
            "application/json;charset=UTF-8",
        ),
        (b"application/json", "application/json", "application/json"),
        (memoryview(b"application/json"), "application/json", "application/json"),
        (
            "  application/x-www-form-urlencoded  ",
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded",
        ),
        ("image/png", "image/*", "image/png"),
        ("IMAGE/Png", "image/*", "image/png"),
        (
            'text/plain; charset="UTF-8"; format=flowed',
            "text/plain;charset=utf-8",
            "text/plain;charset=UTF-8;format=flowed",
        ),
        # In a Content-Type, q is an ordinary parameter (RFC 9110 §8.3), not a weight.
        ("application/json;q=0.5", "application/json", "application/json;q=0.5"),
        ("application/json;Q=banana", "application/json", "application/json;q=banana"),
    ],
)
def test_consumes_accepts(
    content_type: str | bytes | memoryview, accepted: str, request_type: str
) -> None:
    decision = Consumes(BODY).check(content_type)
    assert decision.ok
    assert decision.media_type == accepted  # the accepted range that matched
    assert decision.content_type == request_type  # the request's own media type
    assert decision.headers == {}


def test_a_request_type_with_q_is_no_media_type_argument() -> None:
    # docs/rules.md: the Content-Type's q is kept, and quality reads it as a weight.
    decision = Consumes(BODY).check("application/json; q=0.5")
    assert decision.content_type == "application/json;q=0.5"
    with pytest.raises(ValueError, match="weight"):
        quality("application/json", decision.content_type)


@pytest.mark.parametrize(
    "content_type", ["text/plain;charset=utf-8;q=1;q=2", "text/plain;q=1;Q=2"]
)
def test_consumes_q_is_a_parameter_of_the_request_only(content_type: str) -> None:
    # A repeated q is a repeated parameter: malformed (the second read in
    # the same step as the first, or in a step of its own).
    decision = Consumes(BODY).check(content_type)
    assert decision.status == 415
    assert "is malformed" in decision.body
    # A type Consumes takes is written as an Accept member: no weight there.
    with pytest.raises(ValueError, match="takes no weight"):
        Consumes(["application/json;q=0.5"])


@pytest.mark.parametrize(
    ("content_type", "problem"),
    [
        (None, "missing"),
        ("", "missing"),
        (b"", "missing"),
        ("application/xml", "(application/xml) not one this resource accepts"),
        # text/plain is taken with charset=utf-8 only
        ("text/plain", "(text/plain) not accepted here with the parameters it has"),
        (
            "Text/Plain;charset=latin-1",
            "(text/plain) not accepted here with the parameters it has",
        ),
        ("application/json, text/csv", "malformed"),
        ("application/*", "malformed"),
        ("json", "malformed"),
        (b"\xff/\xfe", "malformed"),
        ("application/json;charset=a;charset=b", "malformed"),
        ("text/html\u0100", "malformed"),
    ],
)
def test_consumes_415(content_type: str | bytes | None, problem: str) -> None:
    consumes = Consumes(BODY)
    decision = consumes.check(content_type)
    assert decision.status == 415
    assert decision.reason == "Unsupported Media Type"
    assert decision.headers == {
        "Content-Type": TEXT[1],
        "Accept": consumes.accept,
        "Vary": "Accept",
    }
    said = problem.replace(") ", ") is ") if problem[0] == "(" else f"is {problem}"
    assert decision.body.startswith(
        f"415 Unsupported Media Type: the request's Content-Type {said}. "
    )
    assert decision.body.endswith("\n".join(BODY) + "\n")


def test_a_415_for_a_long_type_is_not_kept() -> None:
    # The refusals kept by type are bounded in entries and in key length,
    # as the value caches are: a client's long types are answered, not kept.
    consumes = Consumes(BODY)
    for n in range(3):
        long = f"a/{n}" + "b" * CACHE_KEY_MAX_LENGTH
        assert consumes.check(long).status == 415
        assert consumes.check(f"a/{n}").status == 415
    assert sorted(key[0] for key in consumes._named) == ["a/0", "a/1", "a/2"]
    # Its body quotes the type and subtype's first 40 characters (as an
    # AcceptError quotes a run of a value), "..." marking the cut.
    cut_at_41 = ("a/" + "b" * 39, "a/" + "b" * 38)
    for received, quoted in [("a/" + "b" * 38,) * 2, cut_at_41, (long, long[:40])]:
        refused = consumes.check(received)
        assert f"Content-Type ({quoted}" in refused.body
        assert (f"({quoted}...) is" in refused.body) == (received != quoted)
        assert len(refused.body) < 300
    sent = consumes.check("text/" + "x" * 60 + ";charset=utf-8")
    assert f"({'text/' + 'x' * 35}...) is not one" in sent.body


def test_consumes_accept_value() -> None:
    assert Consumes(BODY).accept == (
        "application/json, application/x-www-form-urlencoded, image/*, "
        "text/plain;charset=utf-8"
    )


def test_consumes_431_over_the_limit() -> None:
    consumes = Consumes(BODY, max_length=30)
    # As Produces', the limit given, checked (an int, or None: no limit).
    assert consumes.max_length == 30
    assert Consumes(BODY).max_length == 8192
    assert Consumes(BODY, max_length=None).max_length is None
    assert consumes.check("application/json;a=b;c=d;e=ff").ok  # 30 characters
    decision = consumes.check("application/json;a=b;c=d;e=f;g=h")
    assert decision.status == 431
    assert (
        "the Content-Type header is 32 characters long; the limit is 30"
        in decision.body
    )


@pytest.mark.parametrize(
    ("types", "message"),
    [
        ([], "at least one"),
        (["image/png;q=0.5"], "no weight"),
        (["png"], "invalid media type"),
        # The same media type twice (RFC 9110 §8.3.1), as Produces refuses:
        # the second could never be the one ``check`` gives, and the 415's
        # Accept and Accept-Post listed it twice.
        (["a/b", "A/B"], "media type 'A/B' repeats 'a/b': give each media type once"),
        (["a/b;x=1;y=2", "a/b;Y=2;x=1"], "'a/b;Y=2;x=1' repeats 'a/b;x=1;y=2'"),
        (["text/*;charset=UTF-8", "text/*;charset=utf-8"], "repeats"),
        (["application/*+json", "Application/*+JSON"], "repeats"),
    ],
)
def test_consumes_rejects_bad_configuration(types: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Consumes(types)


@pytest.mark.parametrize(
    "types",
    [
        ["a/b;x=A", "a/b;x=a"],  # a value other than charset's keeps its case
        ["image/*", "image/png", "*/*"],  # ranges that overlap
        ["a/b", "a/b;x=1"],
    ],
)
def test_consumes_takes_types_that_differ(types: list[str]) -> None:
    assert Consumes(types).media_types == tuple(types)


def test_decision_is_immutable_and_headers_are_a_copy() -> None:
    decision = Produces(OFFERS).select(None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.status = 500  # type: ignore[misc]
    decision.headers["Vary"] = "Cookie"
    assert decision.headers["Vary"] == "Accept"
    assert hash(decision) == hash(Decision(200, OFFERS[0], decision.header_items))


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (100, "Continue"),
        (299, "Successful"),
        (418, "Client Error"),
        (599, "Server Error"),
    ],
)
def test_a_decisions_reason_is_its_status_phrase_or_class(
    status: int, reason: str
) -> None:
    assert Decision(status).reason == reason


@pytest.mark.parametrize("status", [0, 99, 600, -1, 1000, True, 200.0, "200", None])
def test_a_decisions_reason_names_a_status_outside_100_to_599(status: Any) -> None:
    # RFC 9110 §15: "Values outside the range 100..599 are invalid".
    with pytest.raises(ValueError, match=r"is not an HTTP status \(an int, 100-599\)"):
        Decision(status).reason  # noqa: B018 - the property raises


# --- refusal bodies (docs/rules.md rule 16) and Vary merging (rule 17) ---------------

PROBLEM = ("Content-Type", "application/problem+json")


@pytest.mark.parametrize(
    ("accept", "problem_json"),
    [
        (None, False),  # absent: both at q=1, no preference
        ("*/*", False),
        ("application/problem+json", True),
        ("image/png, application/problem+json;q=0.5", True),
        ("image/png", False),  # neither, nor JSON
        ("application/json", True),  # admits JSON but neither of the two
        ("application/*", True),  # problem+json at 1, text/plain at 0
        ("text/plain, application/problem+json", False),  # a tie: plain text
        ("application/json, */*;q=0.1", False),  # both admitted, tied at 0.1
        ("application/problem+json;q=0.4, text/*;q=0.5", False),
        # The text as sent, text/plain; charset=utf-8, is what a range reaches.
        ("text/plain;charset=utf-8, application/json;q=0.5", False),
        ("text/plain;Charset=UTF-8, application/problem+json;q=0.5", False),
        ("text/plain;charset=latin-1, application/problem+json;q=0.5", True),
        # Refused by name or by its type's range: plain text, though JSON is
        # admitted (neither format is acceptable; the one refused is not sent).
        ("application/problem+json;q=0, application/json", False),
        ("application/*;q=0, application/json", False),
        ("", False),
        ("!!!", False),  # nothing valid
        (b"application/problem+json", True),
    ],
)
def test_refusal_format_follows_the_accept_value(
    accept: str | bytes | None, problem_json: bool
) -> None:
    assert prefers_problem_json(accept) is problem_json


REFUSAL_RANGES = st.sampled_from(
    [
        "application/problem+json",
        "application/problem+json;x=y",
        "text/plain",
        "text/plain;charset=UTF-8",
        "text/plain;charset=latin-1",
        "application/json",
        "text/*",
        "application/*",
        "*/*",
        "image/png",
        "a b",  # skipped
    ]
)
REFUSAL_VALUES = st.lists(
    st.tuples(REFUSAL_RANGES, st.sampled_from(["", ";q=0", ";q=0.5", ";q=1", ";q=.5"])),
    max_size=4,
).map(lambda members: ", ".join(rng + q for rng, q in members))


@given(REFUSAL_VALUES)
def test_the_refusal_format_read_from_a_parse_is_the_engines(accept: str) -> None:
    # Rule 16 on the parse a 406 reads anyway agrees with the engine's
    # ranking of the value.
    text_as_sent = "text/plain; charset=utf-8"
    formats = ["application/problem+json", text_as_sent, "application/json"]
    ranked = dict(Negotiator(formats).rank(accept))
    problem = ranked.get("application/problem+json", 0)
    text = ranked.get(text_as_sent, 0)
    named = any(r.matches("application/problem+json") for r in parse(accept))
    expected = problem > text or (
        not problem and not text and "application/json" in ranked and not named
    )
    assert prefers_problem_json(accept) is expected


def test_406_as_problem_json() -> None:
    decision = Produces(OFFERS).select("image/png, application/problem+json;q=0.5")
    assert decision.status == 406
    assert decision.headers == {"Content-Type": PROBLEM[1], "Vary": "Accept"}
    # Byte for byte what json.dumps writes: the members in this order.
    assert decision.body == json.dumps(
        {
            "type": "about:blank",
            "title": "Not Acceptable",
            "status": 406,
            "detail": "the Accept header allows none of the media types this resource has.",
            "acceptable": OFFERS,
        }
    )


def test_a_406_lists_the_offers_highest_qs_first() -> None:
    # Then in server order (docs/rules.md rule 16), as a client would pick.
    offers: list[OfferSpec] = [
        ("text/csv", 0.5),
        "application/json",
        ("text/html", 0.8),
    ]
    decision = Produces(offers).select("image/png, application/problem+json")
    assert json.loads(decision.body)["acceptable"] == [
        "application/json",
        "text/html",
        "text/csv",
    ]


def test_a_frameworks_vary_in_any_case_is_merged_into_one_field() -> None:
    # RFC 9110 §5.1: field names are case-insensitive; sent once, as Vary
    # (Starlette's Headers.get would read only the first of two lines).
    for name in ("vary", "VARY", "Vary"):
        merged = vary_merged_into({name: "Cookie", "X": "y"}, "Accept")
        assert merged == {"X": "y", "Vary": "Cookie, Accept"}
    assert vary_merged_into(None, "Accept") == {"Vary": "Accept"}


def test_406_as_plain_text_when_problem_json_is_not_wanted() -> None:
    decision = Produces(OFFERS).select("image/png")
    assert decision.headers == {"Content-Type": TEXT[1], "Vary": "Accept"}
    assert decision.body.splitlines()[1:] == OFFERS


def test_431_for_an_over_long_accept_is_plain_text() -> None:
    value = "application/problem+json, " + "a/b, " * 10
    decision = Produces(OFFERS, max_length=20).select(value)
    assert decision.status == 431
    assert decision.headers == {"Content-Type": TEXT[1], "Vary": "Accept"}


def test_415_as_problem_json_for_a_json_client() -> None:
    consumes = Consumes(BODY)
    decision = consumes.check("text/csv", "application/json")
    assert decision.status == 415
    assert decision.headers == {
        "Content-Type": PROBLEM[1],
        "Accept": consumes.accept,
        "Vary": "Accept",
    }
    problem = json.loads(decision.body)
    assert problem["status"] == 415
    assert problem["title"] == "Unsupported Media Type"
    assert problem["detail"] == (
        "the request's Content-Type (text/csv) is not one this resource accepts."
    )
    assert problem["acceptable"] == BODY


@pytest.mark.parametrize(
    ("types", "content_type"),
    [
        (["application/json; charset=utf-8"], "application/json; charset=latin1"),
        (["text/plain;format=flowed", "text/csv"], "TEXT/plain;format=fixed"),
        (["image/*;q0=x"], "image/png;q0=y"),  # a range's parameters
        # taken without a charset too (rule 20): the wording must stay true
        (["application/json; charset=utf-8"], "application/json; charset=x"),
    ],
)
def test_415_says_a_type_taken_is_refused_for_its_parameters(
    types: list[str], content_type: str
) -> None:
    # "(application/json) is not one this resource accepts" read as false
    # beside a list that has it: the answer says the parameters are refused,
    # never quoting their text (a client's).
    decision = Consumes(types).check(content_type)
    assert decision.status == 415
    essence = content_type.partition(";")[0].lower()
    assert decision.body.startswith(
        f"415 Unsupported Media Type: the request's Content-Type ({essence}) is "
        "not accepted here with the parameters it has. This resource accepts:\n"
    )


def test_415_without_an_accept_value_is_plain_text_varied_on_accept() -> None:
    # The header's absence chose the format as a value would (rule 14), as
    # for Produces.select(None): a cache must not serve this to a client
    # whose Accept prefers problem+json.
    decision = Consumes(BODY).check("text/csv")
    assert decision.headers["Content-Type"] == TEXT[1]
    assert decision.headers["Vary"] == "Accept"
    assert (
        Consumes(BODY)
        .check("text/csv", "application/problem+json")
        .headers["Content-Type"]
        == PROBLEM[1]
    )


#: The header a 415 adds for each method (W3C LDP §7.1, RFC 5789 §2.2, RFC
#: 10008 §3): none for others, nor for a method spelled in another case
#: (RFC 9110 §9.1: methods are case-sensitive).
METHOD_FIELDS = {
    "POST": "Accept-Post",
    "PATCH": "Accept-Patch",
    "QUERY": "Accept-Query",
    "PUT": None,
    "GET": None,
    "post": None,
    "Query": None,
    None: None,
}


@pytest.mark.parametrize(("method", "field"), METHOD_FIELDS.items())
def test_415_carries_the_methods_own_header(
    method: str | None, field: str | None
) -> None:
    consumes = Consumes(BODY)
    decision = consumes.check(None, "text/plain", method=method)
    own = {} if field is None else {field: consumes.accept}
    if field == "Accept-Query":
        assert consumes.accept_query is not None
        own[field] = consumes.accept_query
    if field == "Accept-Patch":  # BODY's image/* left out (RFC 5789 §3.1)
        assert consumes.accept_patch is not None
        own[field] = consumes.accept_patch
    assert decision.headers == {
        "Content-Type": TEXT[1],
        "Accept": consumes.accept,
        **own,
        "Vary": "Accept",
    }


def test_the_headers_values_for_options() -> None:
    consumes = Consumes(["application/json", "Text/CSV; Header=present", "image/*"])
    accepted = "application/json, text/csv;header=present, image/*"
    assert consumes.accept == consumes.accept_post == accepted
    assert consumes.accept_query == accepted  # each one a Token here
    assert Consumes(['application/sql;charset="UTF 8"']).accept_query == (
        'application/sql;charset="UTF 8"'
    )


def test_accept_patch_lists_the_media_types_that_are_no_ranges() -> None:
    # RFC 5789 §3.1: Accept-Patch = 1#media-type, no ranges (a client would
    # read "image/*" as a type of that name); none at all: no Accept-Patch.
    mixed = Consumes(["application/*+json", "application/json-patch+json", "image/*"])
    assert mixed.accept_patch == "application/json-patch+json"
    decision = mixed.check("text/csv", method="PATCH")
    assert decision.headers["Accept-Patch"] == "application/json-patch+json"
    assert decision.headers["Accept"] == mixed.accept == mixed.accept_post
    ranges = Consumes(["application/*+json", "image/*", "*/*;v=1"])
    assert ranges.accept_patch is None
    refused = ranges.check("text/csv", method="PATCH")
    assert refused.status == 415
    assert "Accept-Patch" not in refused.headers
    assert Consumes(["text/csv", "a/b;c=d"]).accept_patch == "text/csv, a/b;c=d"


def test_the_method_is_a_str_or_none() -> None:
    with pytest.raises(TypeError, match="method must be a str or None, not bytes"):
        Consumes(BODY).check("text/csv", method=b"POST")  # type: ignore[arg-type]


def test_an_accepted_content_type_is_answered_once_and_kept_bounded() -> None:
    # Taken types are kept by their text (a server's clients send a few), in
    # a bounded cache, as the refusals by type are: the same answer, made
    # once; a long value is answered, not kept; many values never more than
    # VALUES_KEPT; a bytes value, Latin-1, is the str it reads as.
    consumes = Consumes(BODY)
    decision = consumes.check("application/json; charset=utf-8")
    assert consumes.check(b"application/json; charset=utf-8") is decision
    assert decision == Consumes(BODY).check("application/json; charset=utf-8")
    assert decision.content_type == "application/json;charset=utf-8"
    assert list(consumes._taken) == ["application/json; charset=utf-8"]
    long = "application/json;p=" + "v" * CACHE_KEY_MAX_LENGTH
    assert consumes.check(long).ok and long not in consumes._taken
    for n in range(3 * VALUES_KEPT):
        assert consumes.check(f"image/x{n}").index == 2  # image/*
        assert len(consumes._taken) <= VALUES_KEPT
    # A refused type is not kept there (its 415 depends on Accept, method).
    consumes.check("text/csv")
    assert "text/csv" not in consumes._taken


@pytest.mark.parametrize("method", ["POST", "PATCH", "QUERY", "PUT"])
@pytest.mark.parametrize("accept", [None, "text/plain", "application/json"])
@pytest.mark.parametrize("content_type", [None, "a b", "text/csv"])
def test_415s_are_decided_when_consumes_is_made(
    content_type: str | None, accept: str | None, method: str
) -> None:
    # Each form (problem, format, Vary, the method's header) is made once and shared.
    consumes = Consumes(BODY)
    decision = consumes.check(content_type, accept, method=method)
    assert decision.status == 415
    assert consumes.check(content_type, accept, method=method) is decision
    names = [name for name, _ in decision.header_items]
    field = METHOD_FIELDS[method]
    assert names == [
        "Content-Type",
        "Accept",
        *([] if field is None else [field]),
        "Vary",
    ]


def test_the_415s_made_ahead_are_few() -> None:
    # Missing or malformed, by the method's header (none or one of three), by
    # the format (plain text or problem+json): the refusals an endpoint
    # finishes once.
    assert len(Consumes(BODY)._refusals) == 2 * 4 * 2


def test_431_for_an_over_long_content_type_follows_accept() -> None:
    decision = Consumes(BODY, max_length=10).check(
        "application/json;" + "p=v;" * 5, "application/problem+json"
    )
    assert decision.status == 431
    assert decision.headers == {"Content-Type": PROBLEM[1], "Vary": "Accept"}
    assert json.loads(decision.body)["status"] == 431
    assert "acceptable" not in json.loads(decision.body)


def test_an_accepted_content_type_ignores_accept() -> None:
    decision = Consumes(BODY).check("application/json", "image/png")
    assert decision.ok
    assert decision.headers == {}


@pytest.mark.parametrize(
    ("values", "merged"),
    [
        (("Accept",), "Accept"),
        (("Cookie", "Accept"), "Cookie, Accept"),
        (
            ("accept-encoding, Cookie", "Accept, cookie"),
            "accept-encoding, Cookie, Accept",
        ),
        (("ACCEPT", "Accept"), "ACCEPT"),  # the first spelling is kept
        ((" Origin ,\tAccept ,", "Accept"), "Origin, Accept"),
        (("Cookie", "*"), "*"),  # * absorbs every other name
        (("*, Cookie",), "*"),
        ((None, "", "Accept"), "Accept"),
        ((None,), ""),
        ((), ""),
    ],
)
def test_merge_vary(values: tuple[str | None, ...], merged: str) -> None:
    assert merge_vary(*values) == merged


@pytest.mark.parametrize("value", [["Accept"], [], 0, b"Accept"], ids=repr)
def test_merge_vary_names_a_value_that_is_no_str(value: Any) -> None:
    with pytest.raises(TypeError) as info:
        merge_vary("Cookie", value)
    said = f"merge_vary: each value must be a str or None, not {type(value).__name__}"
    assert str(info.value) == said


# --- one reading of each value (docs/web.md) --------------------------------------


class Counted:
    """A negotiator that lists the calls made on it in ``reads``."""

    def __init__(self, wrapped: Any, reads: list[str], name: str = "") -> None:
        self.wrapped, self.reads, self.name = wrapped, reads, name

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.wrapped, name)
        return Counted(found, self.reads, name) if callable(found) else found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.reads.append(self.name)
        return self.wrapped(*args, **kwargs)


def engine_reads(monkeypatch: pytest.MonkeyPatch, produces: Produces) -> list[str]:
    """What the web answers ask of the engine from now on: ``produces``'
    negotiator and every negotiator of the module (which reads no value
    otherwise)."""
    reads: list[str] = []
    # (set past ByArguments' set-once rule: the test's own object)
    object.__setattr__(produces, "_negotiator", Counted(produces._negotiator, reads))
    for name, value in vars(_responses).items():
        if isinstance(value, Negotiator):
            monkeypatch.setattr(_responses, name, Counted(value, reads))
    assert not hasattr(_responses, "parse")
    return reads


@pytest.mark.thread_unsafe(reason="replaces the module's engine functions")
@pytest.mark.parametrize(
    "accept",
    [
        "image/png",  # plain text
        "image/png, application/problem+json",  # problem+json
        "image/png, a b, text/csv",  # a member skipped
        b"image/png",
    ],
)
def test_a_406_reads_the_accept_value_once_after_the_choice(
    monkeypatch: pytest.MonkeyPatch, accept: str | bytes
) -> None:
    produces = Produces(OFFERS)
    expected = Produces(OFFERS).select(accept)
    reads = engine_reads(monkeypatch, produces)
    decision = produces.select(accept)
    assert decision == expected and decision.status == 406
    # its format (rule 16) and its skipped members come from one reading
    assert reads == ["choose_index", "_refusal"]


@pytest.mark.thread_unsafe(reason="replaces the module's engine functions")
@pytest.mark.parametrize(
    "refuse",
    [
        lambda accept: Produces(OFFERS).select(accept),  # 406
        lambda accept: Consumes(["application/json"]).check("text/csv", accept),  # 415
        prefers_problem_json,
    ],
    ids=["406", "415", "prefers_problem_json"],
)
@pytest.mark.parametrize("view", [bytearray, memoryview])
def test_a_refusal_copies_a_buffer_once(
    monkeypatch: pytest.MonkeyPatch, refuse: Any, view: Any
) -> None:
    # The format of a refusal (rule 16) reads bytes: the buffer is copied
    # once, before the engine reads it.
    accept = view(bytearray(b"image/png, application/problem+json"))
    expected = refuse(bytes(accept))
    copied: list[type] = []
    coerce = coerce_value

    def counted(value: Any, *args: Any) -> Any:
        if not isinstance(value, (str, bytes)):
            copied.append(type(value))
        return coerce(value, *args)

    read: list[type] = []
    formats = _responses._FORMATS

    class Formats:
        def _refusal(self, value: Any) -> Any:
            read.append(type(value))
            return formats._refusal(value)

    monkeypatch.setattr(_responses, "coerce_value", counted)
    monkeypatch.setattr(_responses, "_FORMATS", Formats())
    assert refuse(accept) == expected
    assert copied == [view]
    assert read == [bytes]


@pytest.mark.thread_unsafe(reason="replaces the module's engine functions")
def test_a_default_reads_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    produces = Produces(OFFERS, default=OFFERS[1])
    reads = engine_reads(monkeypatch, produces)
    decision = produces.select("image/png, application/problem+json")
    assert decision.media_type == OFFERS[1]
    assert reads == ["choose_index"]


@pytest.mark.thread_unsafe(reason="replaces the module's engine functions")
@pytest.mark.parametrize(
    "content_type", [None, "a b", "text/csv", "text/csv;" + "p=v;" * 2000]
)
def test_a_415_reads_the_accept_value_once(
    monkeypatch: pytest.MonkeyPatch, content_type: str | None
) -> None:
    consumes = Consumes(BODY)
    reads = engine_reads(monkeypatch, Produces(OFFERS))
    assert consumes.check(content_type, "application/json").status in (415, 431)
    assert len(reads) == 1
    reads.clear()
    assert consumes.check("application/json", "application/json").ok
    assert reads == []  # accepted: the Accept value is Produces' to read


def test_a_406_for_an_accept_of_the_limit_follows_it() -> None:
    # Rule 8's limit is inclusive: a value of exactly DEFAULT_MAX_LENGTH
    # characters is read, and chooses the refusal's format (rule 16).
    accept = "application/problem+json,"
    accept += " " * (DEFAULT_MAX_LENGTH - len(accept))
    decision = Produces(OFFERS).select(accept)
    assert (decision.status, decision.headers["Content-Type"]) == (406, PROBLEM[1])
    decision = Produces(OFFERS, max_length=None).select(accept + " ")
    assert (decision.status, decision.headers["Content-Type"]) == (406, TEXT[1])


def test_a_406_without_a_limit_lists_skipped_members_in_plain_text() -> None:
    # docs/web.md: a refusal's format is chosen without reading a value over
    # DEFAULT_MAX_LENGTH; the skipped members are listed all the same.
    accept = "application/problem+json, a b, " + "image/png;q=0.1, " * 600
    decision = Produces(OFFERS, max_length=None).select(accept)
    assert decision.status == 406
    assert decision.headers["Content-Type"] == TEXT[1]
    assert "1 of its members was malformed and skipped (at offset 26)" in decision.body
