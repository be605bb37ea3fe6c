"""Bad arguments (docs/bad-input.md, "Bad arguments"): refused where they are
given, by one rule, with the same error on both engines."""

from __future__ import annotations

import collections
import enum
import re
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from fastaccept import (
    AcceptError,
    Consumes,
    MediaRange,
    Offer,
    Produces,
    Renderers,
    format_accept,
    parse,
)

from .conftest import CYTHON_MISSING, ENGINES, Engine

BAD_INPUT = Path(__file__).resolve().parents[1] / "docs" / "bad-input.md"


class Index:
    """An integer that is not an int (as numpy's are): read by ``__index__``."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __index__(self) -> int:
        return self.number


#: Each odd ``max_length`` or ``cache_size`` and what it raises (None: taken).
SIZES: list[tuple[str, Any, type[Exception] | None]] = [
    ("-1", -1, ValueError),
    ("sys.maxsize + 1", sys.maxsize + 1, ValueError),
    ("10**30", 10**30, ValueError),
    # past the digit limit of int's str (3.11+): named all the same
    ("10**5000", 10**5000, ValueError),
    ("-10**5000", -(10**5000), ValueError),
    ("True", True, TypeError),
    ("False", False, TypeError),
    ("8192.0", 8192.0, TypeError),
    ("1.5", 1.5, TypeError),
    ("'8192'", "8192", TypeError),
    ("[8192]", [8192], TypeError),
    ("0", 0, None),
    ("sys.maxsize", sys.maxsize, None),
    ("Index(100)", Index(100), None),
]
#: ``max_length`` takes None (no limit); ``cache_size`` does not.
MAX_LENGTHS = [*SIZES, ("None", None, None)]
CACHE_SIZES = [*SIZES, ("None", None, TypeError)]

#: Every entry point that takes ``max_length`` or ``cache_size``, by
#: (argument, name), called with values it accepts but that one.
SIZE_CALLS: dict[tuple[str, str], Callable[[Engine, Any], object]] = {
    ("max_length", "parse"): lambda e, n: e.parse("a/b", max_length=n),
    ("max_length", "parse_encoding"): lambda e, n: e.parse_encoding("br", max_length=n),
    ("max_length", "parse_language"): lambda e, n: e.parse_language("en", max_length=n),
    ("max_length", "negotiate"): lambda e, n: e.negotiate("a/b", ["a/b"], max_length=n),
    ("max_length", "negotiate_encoding"): lambda e, n: e.negotiate_encoding(
        "br", ["br"], max_length=n
    ),
    ("max_length", "negotiate_language"): lambda e, n: e.negotiate_language(
        "en", ["en"], max_length=n
    ),
    ("max_length", "quality"): lambda e, n: e.quality("a/b", "a/b", max_length=n),
    ("max_length", "Negotiator"): lambda e, n: e.Negotiator(["a/b"], max_length=n),
    ("max_length", "EncodingNegotiator"): lambda e, n: e.EncodingNegotiator(
        ["br"], max_length=n
    ),
    ("max_length", "LanguageNegotiator"): lambda e, n: e.LanguageNegotiator(
        ["en"], max_length=n
    ),
    ("cache_size", "Negotiator"): lambda e, n: e.Negotiator(["a/b"], cache_size=n),
    ("cache_size", "EncodingNegotiator"): lambda e, n: e.EncodingNegotiator(
        ["br"], cache_size=n
    ),
    ("cache_size", "LanguageNegotiator"): lambda e, n: e.LanguageNegotiator(
        ["en"], cache_size=n
    ),
}
SIZE_CASES = [
    (argument, name, shown, given, raises)
    for argument, name in SIZE_CALLS
    for shown, given, raises in (
        MAX_LENGTHS if argument == "max_length" else CACHE_SIZES
    )
]


def _outcome(call: Callable[[], object]) -> tuple[str, str]:
    try:
        call()
    except Exception as error:
        return type(error).__name__, str(error)
    return "ok", ""


@pytest.mark.parametrize(
    ("argument", "call", "given", "raises"),
    [
        (argument, name, given, raises)
        for argument, name, _, given, raises in SIZE_CASES
    ],
    ids=[f"{name}-{argument}={shown}" for argument, name, shown, _, _ in SIZE_CASES],
)
def test_size_arguments(
    engine: Engine,
    argument: str,
    call: str,
    given: Any,
    raises: type[Exception] | None,
) -> None:
    made = SIZE_CALLS[argument, call]
    if raises is None:
        try:
            made(engine, given)
        except AcceptError as error:  # the limit itself, at work
            assert (argument, given) == ("max_length", 0), error
        return
    made(engine, 100)  # a kept negotiator for an equal int answers nothing here
    with pytest.raises(raises, match=rf"^{argument} must be ") as info:
        made(engine, given)
    assert type(info.value) is raises  # not an AcceptError, not a crash


def test_the_engines_give_the_same_errors() -> None:
    if len(ENGINES) < 2:
        pytest.skip(str(CYTHON_MISSING))
    for argument, name, _, given, _ in SIZE_CASES:
        call = SIZE_CALLS[argument, name]
        outcomes = {_outcome(partial(call, e, given)) for e in ENGINES.values()}
        assert len(outcomes) == 1, (argument, name, given, outcomes)


def test_checked_sizes_are_kept_as_ints(engine: Engine) -> None:
    negotiator = engine.Negotiator(["a/b"], cache_size=Index(3), max_length=Index(9))
    assert repr(negotiator) == "Negotiator(('a/b',), cache_size=3, max_length=9)"
    assert negotiator == engine.Negotiator(["a/b"], cache_size=3, max_length=9)
    with pytest.raises(AcceptError) as info:
        engine.parse("a/b, c/d", max_length=Index(5))
    assert type(info.value.position) is int and info.value.position == 5


def test_max_length_is_checked_when_given_not_when_used(engine: Engine) -> None:
    # Nothing to read (an absent header) or nothing read yet: refused all the same.
    with pytest.raises(ValueError, match="max_length"):
        engine.parse(None, max_length=-1)
    with pytest.raises(ValueError, match="max_length"):
        engine.parse_language(None, max_length=-1)
    with pytest.raises(TypeError, match="max_length"):
        engine.negotiate(None, ["a/b"], max_length=1.5)
    # Before the value's own type error.
    with pytest.raises(ValueError, match="max_length"):
        engine.parse(42, max_length=-1)


#: A str (or bytes) where a sequence of offers is expected: each entry point
#: that takes offers, the one offer it is given alone, and its noun in errors.
ONE_STR_CALLS: dict[str, tuple[Callable[[Engine, Any], object], str, str]] = {
    "negotiate": (lambda e, o: e.negotiate("a/b", o), "a/b", "offers"),
    "Negotiator": (lambda e, o: e.Negotiator(o), "a/b", "offers"),
    "Accept.best": (lambda e, o: e.parse("a/b").best(o), "a/b", "offers"),
    "Accept.rank": (lambda e, o: e.parse("a/b").rank(o), "a/b", "offers"),
    "negotiate_encoding": (lambda e, o: e.negotiate_encoding("br", o), "br", "codings"),
    "EncodingNegotiator": (lambda e, o: e.EncodingNegotiator(o), "br", "codings"),
    "AcceptEncoding.best": (
        lambda e, o: e.parse_encoding("br").best(o),
        "br",
        "codings",
    ),
    "negotiate_language": (lambda e, o: e.negotiate_language("en", o), "en", "tags"),
    "LanguageNegotiator": (lambda e, o: e.LanguageNegotiator(o), "en", "tags"),
    "AcceptLanguage.rank": (lambda e, o: e.parse_language("en").rank(o), "en", "tags"),
    "Consumes": (lambda e, o: Consumes(o), "a/b", "media_types"),
    "format_accept": (lambda e, o: format_accept(o), "a/b", "items"),
}


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
@pytest.mark.parametrize("call", sorted(ONE_STR_CALLS))
def test_one_str_for_the_offers_is_a_type_error(
    engine: Engine, call: str, as_bytes: bool
) -> None:
    made, offer, noun = ONE_STR_CALLS[call]
    given = offer.encode() if as_bytes else offer
    expected = rf"^{noun} must be an iterable .*not a {type(given).__name__}: use \[{offer!r}\]$"
    for _ in range(2):  # the one-call forms keep nothing for it
        with pytest.raises(TypeError, match=expected):
            made(engine, given)
    made(engine, [offer])


@pytest.mark.parametrize("call", sorted(ONE_STR_CALLS))
def test_one_str_of_several_members_for_the_offers_says_where_a_value_goes(
    engine: Engine, call: str
) -> None:
    # The arguments swapped (a request's header value as the offers, as
    # negotiate(offers, value)) or offers written as one text: the list it
    # would make of that text would be no offers.
    made, offer, noun = ONE_STR_CALLS[call]
    text = f"{offer}, {offer};q=0.5"
    expected = (
        rf"^{noun} must be an iterable .*not a str: {text!r} is one text: give the "
        rf"{noun} as the items of a list"
    )
    if noun in ("offers", "codings", "tags"):  # a header value goes beside these
        expected += r" \(a request's header value is an argument of its own\)"
    with pytest.raises(TypeError, match=expected + "$"):
        made(engine, text)
    quoted = f'{offer};x="1,2"'  # one member: its comma is quoted
    with pytest.raises(TypeError, match=rf"not a str: use \[{quoted!r}\]$"):
        made(engine, quoted)


#: A set's order changes with the process's string hashing, and the order
#: of offers breaks ties: refused.
SETS: dict[str, Callable[[list[str]], Any]] = {"set": set, "frozenset": frozenset}


@pytest.mark.parametrize("kind", sorted(SETS))
@pytest.mark.parametrize("call", sorted(ONE_STR_CALLS))
def test_a_set_for_the_offers_is_a_type_error(
    engine: Engine, call: str, kind: str
) -> None:
    made, offer, noun = ONE_STR_CALLS[call]
    expected = (
        rf"^{noun} must be an iterable of str \(such as a list\), not a {kind}: "
        rf"{noun} are read in the order given, and a set's order changes from one "
        "process to the next$"
    )
    for _ in range(2):  # the one-call forms keep nothing for it
        with pytest.raises(TypeError, match=expected):
            made(engine, SETS[kind]([offer]))
    made(engine, [offer])


@pytest.mark.parametrize("kind", sorted(SETS))
def test_produces_refuses_a_set_for_its_offers(kind: str) -> None:
    with pytest.raises(TypeError, match=f"^offers must .*, not a {kind}: offers are"):
        Produces(SETS[kind](["text/html", "application/json"]))


@pytest.mark.parametrize("kind", sorted(SETS))
def test_a_value_made_of_a_set_of_members_is_a_type_error(
    engine: Engine, kind: str
) -> None:
    # Members in header order decide a tie, ==, hash and str(): a set's
    # order changes from one process to the next.
    made = {
        engine.parse(
            "a/b;q=0.5, c/d;q=0.5"
        ): "Accept members must be an iterable of MediaRange",
        engine.parse_encoding(
            "gzip, br"
        ): "AcceptEncoding members must be an iterable of Coding",
        engine.parse_language(
            "en, de"
        ): "AcceptLanguage members must be an iterable of LanguageRange",
    }
    for value, wanted in made.items():
        members = list(value)
        with pytest.raises(TypeError, match=rf"^{wanted}, not a {kind}: members are"):
            type(value)(SETS[kind](members))
        assert type(value)(members) == value


class Weighted(enum.IntEnum):
    LOW = 0
    HIGH = 1


def test_a_dict_of_numbers_for_the_offers_is_a_type_error(engine: Engine) -> None:
    # Weights by media type: only the keys would be read, the weights lost.
    unread = r"of weights \(numbers from 0 to 1\), whose values would go unread"
    pairs = rf"^offers .*{unread}; give weights in pairs, as its items\(\) are$"
    weights = {"text/html": 0.1, "application/json": 1}
    with pytest.raises(TypeError, match=pairs):
        engine.negotiate("text/html, application/json", weights)
    with pytest.raises(TypeError, match=pairs):
        engine.Negotiator(weights)
    with pytest.raises(TypeError, match=pairs):
        Produces(weights)
    with pytest.raises(TypeError, match=rf"^items .*{unread}; give weights"):
        format_accept(weights)
    with pytest.raises(TypeError, match=rf"^codings .*{unread}$"):
        engine.negotiate_encoding("gzip", {"gzip": 1.0})
    with pytest.raises(TypeError, match=rf"^media_types .*{unread}$"):
        Consumes({"application/json": 1.0})
    for mapping in (
        collections.OrderedDict(weights),
        collections.UserDict(weights),
        {"image/webp": 0, "image/png": 1},  # qs 0: never chosen, as a pair
        {"text/html": Decimal("0.1"), "application/json": Fraction(1)},
    ):
        with pytest.raises(TypeError, match=pairs):
            engine.negotiate("*/*", mapping)
    assert engine.negotiate("*/*", list(weights.items())) == "application/json"
    # Any other mapping gives its keys: handlers, a status, an enum member.
    others: list[dict[str, Any]] = [
        {"text/html": None, "application/json": 0.5},
        {"text/html": 200, "application/json": 201},
        {"text/html": Weighted.LOW, "application/json": Weighted.HIGH},
    ]
    for mapping in others:
        assert engine.negotiate("*/*", mapping) == "text/html"


def test_a_dict_for_the_offers_gives_its_keys_in_order(engine: Engine) -> None:
    # A dict of handlers by media type, as examples/httpx_client.py keeps.
    handlers = {"text/csv": 1, "application/json": 2, "text/html": 3}
    assert engine.negotiate("*/*", handlers) == "text/csv"
    assert (
        engine.negotiate("application/*, text/*;q=0.5", handlers) == "application/json"
    )
    assert engine.Negotiator(handlers).offers == (
        "text/csv",
        "application/json",
        "text/html",
    )


#: ``quality``, ``Accept.quality``, ``Accept.accepts``, ``MediaRange.matches``:
#: each takes one concrete media type, named ``media_type`` in errors.
MEDIA_TYPE_CALLS: dict[str, Callable[[Engine, Any], object]] = {
    "quality": lambda e, t: e.quality("text/html", t),
    "Accept.quality": lambda e, t: e.parse("text/html").quality(t),
    "Accept.accepts": lambda e, t: e.parse(None).accepts(t),
    "MediaRange.matches": lambda e, t: MediaRange("text", "*").matches(t),
}
#: Not one concrete media type: a ``ValueError`` that says so.
NOT_ONE_MEDIA_TYPE = {
    "text/*": "invalid media_type 'text/\\*': expected one concrete",
    "*/*": "invalid media_type '\\*/\\*': expected one concrete",
    "a/*+json": "invalid media_type 'a/\\*\\+json': expected one concrete",
    "text/html;q=0.5": "'text/html;q=0.5': expected .* no weight",
    "text": "invalid media_type 'text' at position 4: expected '/'",
    "a/b, c/d": "invalid media_type 'a/b, c/d': found ','",
}
#: Not a str: a ``TypeError``.
NOT_A_STR: list[Any] = [("text/html", 0.5), b"text/html", None, 1]


@pytest.mark.parametrize("call", sorted(MEDIA_TYPE_CALLS))
@pytest.mark.parametrize("given", [*NOT_ONE_MEDIA_TYPE, *NOT_A_STR], ids=repr)
def test_media_type_errors_name_the_argument(
    engine: Engine, call: str, given: Any
) -> None:
    raises: type[Exception]
    if isinstance(given, str):
        raises, message = ValueError, NOT_ONE_MEDIA_TYPE[given]
    else:
        raises = TypeError
        message = rf"^media_type must be a str, not {type(given).__name__}$"
    with pytest.raises(raises, match=message) as info:
        MEDIA_TYPE_CALLS[call](engine, given)
    assert "offer" not in str(info.value)


def test_a_pair_written_as_a_list_is_named(engine: Engine) -> None:
    # A list [media type, weight] is no str: the message says what a pair is.
    hint = r"not list \(a weighted one is a tuple: \(media type, weight\)\)$"
    calls: list[Callable[[], object]] = [
        lambda: engine.negotiate("a/b", [["text/html", 0.5]]),
        lambda: engine.Negotiator([["text/html", 1]]),
        lambda: format_accept([["text/html", 0.5]]),  # type: ignore[list-item]
        # Any number a pair's weight may be (_member.as_number), not float alone.
        lambda: engine.negotiate("a/b", [["text/html", Decimal("0.5")]]),
        lambda: engine.Negotiator([["text/html", Fraction(1, 2)]]),
    ]
    for call in calls:
        with pytest.raises(
            TypeError, match=rf"^each (offer|media type) .*{hint}"
        ) as info:
            call()
        # Alone: not as the context of the kept offers' look-up, which a
        # list's hash failed.
        assert info.value.__context__ is None or info.value.__suppress_context__
    plain = r"^each (offer|media type) must be a str, not list$"
    with pytest.raises(TypeError, match=plain):  # no pairs there
        Consumes([["text/html", 0.5]])  # type: ignore[list-item]

    class Broken:  # its own error while read: no hint, the TypeError stands
        def __float__(self) -> float:
            raise RuntimeError("broken")

    for flag in (True, "0.5", b"0.5", memoryview(b"0.5"), None, Broken()):  # no weight
        with pytest.raises(TypeError, match=plain):
            engine.negotiate("a/b", [["text/html", flag]])


def _nested(depth: int) -> list[Any]:
    nested: list[Any] = []
    for _ in range(depth):
        nested = [nested]
    return nested


_PAD = "x" * 100_000


class _StrSubclass(str):
    """A str subclass: quoted as its text."""


@pytest.mark.parametrize(
    ("call", "quoted"),
    [
        (lambda e: e.Negotiator(["a" * 100_000]), "'" + "a" * 160 + "...'"),
        (lambda e: e.Negotiator([("a/b", 0.5, _PAD)]), "('a/b', 0.5, 'xxx"),
        (lambda e: e.Negotiator([("a/b", _PAD)]), "'" + "x" * 160 + "...'"),
        (lambda e: e.Negotiator([("a/b", _nested(100_000))]), "<a list nested too"),
        (lambda e: e.quality("*/*", "a/b;q=" + "1" * 100_000), "'a/b;q=111"),
        (lambda e: e.quality("*/*", "a/b;q=0.5;x=" + _PAD), "'a/b;q=0.5;x=xxx"),
        (lambda e: e.parse("*/*").quality("a/b;q=0.5;x=" + _PAD), "'a/b;q=0.5;x"),
        (lambda e: Consumes(["a/b;q=0.5;x=" + _PAD]), "'a/b;q=0.5;x=xxx"),
        (lambda e: e.Negotiator([("a/b", 10**50)]), "qs 1" + "0" * 50 + " of"),
        (lambda e: e.Negotiator([("a/b", 10**5000)]), "qs <int too long to show>"),
        (
            lambda e: e.Negotiator([_StrSubclass("a" * 100_000)]),
            "'" + "a" * 160 + "...'",
        ),
        (lambda e: e.Negotiator([(Offer("a/" + _PAD), 0.5)]), "(Offer('a/xxx"),
        (lambda e: e.negotiate("a/b", "a/b" * 50_000), "use ['a/ba/b"),
        (lambda e: e.LanguageNegotiator(["e_" + _PAD]), "tag 'e_xxx"),
        (lambda e: e.parse_language("en").quality("e_" + _PAD), "tag 'e_xxx"),
        (lambda e: e.EncodingNegotiator(["g z" + _PAD]), "coding 'g zxxx"),
    ],
)
def test_an_error_quotes_a_long_or_deep_argument_in_short(
    engine: Engine, call: Callable[[Engine], object], quoted: str
) -> None:
    # Each quoted the argument whole: 100 KB messages (a client's
    # Content-Type given to quality, say), and a RecursionError for the
    # nested list's repr, not the argument's TypeError (a ValueError for an
    # int past Python's digit limit). One of under 160 characters is quoted
    # whole.
    with pytest.raises((TypeError, ValueError)) as info:
        call(engine)
    assert quoted in str(info.value) and len(str(info.value)) < 500


def test_quality_keeps_no_weighted_offer_for_a_media_type(engine: Engine) -> None:
    assert engine.negotiate("text/html", [("text/html", 0.5)]) == "text/html"
    with pytest.raises(TypeError, match="media_type must be a str"):
        engine.quality("text/html", ("text/html", 0.5))
    assert engine.quality("text/html;q=0.5", "text/html") == 0.5


def test_over_long_advice_is_the_servers() -> None:
    with pytest.raises(AcceptError) as info:
        parse("a/b" * 3000)
    assert "answer 431" in info.value.reason
    assert "max_length=None" not in info.value.reason
    advice = re.sub(r"\s+", " ", BAD_INPUT.read_text(encoding="utf-8"))
    assert "answer 431 Request Header Fields Too Large" in advice


@pytest.mark.parametrize("media_type", [1, b"a/b", ("a/b", 0.5), None], ids=repr)
def test_an_offers_media_type_is_a_str(media_type: Any) -> None:
    # Named as Offer's argument, not as an item of a list of offers.
    kind = type(media_type).__name__
    with pytest.raises(TypeError, match=f"^media_type must be a str, not {kind}$"):
        Offer(media_type)


@pytest.mark.parametrize("flag", [1, 0, "yes", None], ids=repr)
def test_an_offers_explicit_is_true_or_false(flag: Any) -> None:
    with pytest.raises(
        TypeError, match=f"^explicit must be True or False, not {type(flag).__name__}$"
    ):
        Offer("a/b", explicit=flag)


@pytest.mark.parametrize("flag", [1, 0, "no", None, 1.0], ids=repr)
@pytest.mark.parametrize("parser", ["parse", "parse_encoding", "parse_language"])
def test_strict_is_true_or_false(engine: Engine, parser: str, flag: Any) -> None:
    # checked first, for an absent value too: never read for its truth
    for value in ("a/b;q=2", None):
        with pytest.raises(
            TypeError,
            match=f"^strict must be True or False, not {type(flag).__name__}$",
        ):
            getattr(engine, parser)(value, strict=flag, max_length=-1)
    with pytest.raises(AcceptError):
        getattr(engine, parser)("a/b;q=2", strict=True)
    assert not getattr(engine, parser)("a/b;q=2", strict=False)


#: Wrong calls of the one-call forms, and Python's own words for them (the
#: compiled forms read their arguments themselves: ``read_arguments``).
WRONG_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any], str]] = [
    (
        "negotiate",
        (),
        {"offers": ["a/b"]},
        "missing 1 required positional argument: 'value'",
    ),
    (
        "negotiate_encoding",
        ("gzip",),
        {},
        "missing 1 required positional argument: 'codings'",
    ),
    (
        "negotiate_language",
        (),
        {},
        "missing 2 required positional arguments: 'value' and 'tags'",
    ),
    ("quality", ("a/b",), {}, "missing 1 required positional argument: 'media_type'"),
    (
        "negotiate",
        ("a/b", ["a/b"], None),
        {},
        "takes 2 positional arguments but 3 were given",
    ),
    (
        "negotiate",
        ("a/b", ["a/b"]),
        {"value": "x"},
        "got multiple values for argument 'value'",
    ),
    (
        "quality",
        ("a/b", "a/b"),
        {"default": 1},
        "got an unexpected keyword argument 'default'",
    ),
    # Too many positional arguments and keywords: the keywords are read first.
    (
        "negotiate",
        ("a/b", ["a/b"], None),
        {"default": 1},
        "takes 2 positional arguments but 3 positional arguments"
        " (and 1 keyword-only argument) were given",
    ),
    (
        "negotiate_encoding",
        ("gzip", ["gzip"], None, None),
        {"default": 1, "max_length": 5},
        "takes 2 positional arguments but 4 positional arguments"
        " (and 2 keyword-only arguments) were given",
    ),
    (
        "negotiate",
        ("a/b", ["a/b"], None),
        {"x": 1},
        "got an unexpected keyword argument 'x'",
    ),
    (
        "negotiate_language",
        ("en", ["en"], None),
        {"tags": ["en"]},
        "got multiple values for argument 'tags'",
    ),
    (
        "quality",
        ("a/b", "a/b", None),
        {"default": 1},
        "got an unexpected keyword argument 'default'",
    ),
]


@pytest.mark.parametrize(("form", "args", "kwargs", "words"), WRONG_CALLS)
def test_a_wrong_call_of_a_one_call_form_has_pythons_words(
    engine: Engine, form: str, args: tuple[Any, ...], kwargs: dict[str, Any], words: str
) -> None:
    with pytest.raises(TypeError) as info:
        getattr(engine, form)(*args, **kwargs)
    assert str(info.value) == f"{form}() {words}"


WRONG_CONSTRUCTIONS = [
    ("Negotiator", (), {}, "missing 1 required positional argument: 'offers'"),
    ("Negotiator", (["a/b"], 5), {}, "takes 2 positional arguments but 3 were given"),
    (
        "Negotiator",
        (["a/b"],),
        {"cache": 1},
        "got an unexpected keyword argument 'cache'",
    ),
    (
        "Negotiator",
        (["a/b"],),
        {"offers": []},
        "got multiple values for argument 'offers'",
    ),
    (
        "EncodingNegotiator",
        (),
        {"offers": ["br"]},
        "got an unexpected keyword argument 'offers'",
    ),
    ("EncodingNegotiator", (), {}, "missing 1 required positional argument: 'codings'"),
    (
        "LanguageNegotiator",
        (["en"], None),
        {},
        "takes 2 positional arguments but 3 were given",
    ),
    (
        "LanguageNegotiator",
        (["en"],),
        {"tags": []},
        "got multiple values for argument 'tags'",
    ),
]


@pytest.mark.parametrize(("kind", "args", "kwargs", "words"), WRONG_CONSTRUCTIONS)
def test_a_wrong_construction_has_pythons_words(
    engine: Engine, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any], words: str
) -> None:
    with pytest.raises(TypeError) as info:
        getattr(engine, kind)(*args, **kwargs)
    assert str(info.value) == f"{kind}.__new__() {words}"


def test_a_construction_by_keywords_is_a_construction(engine: Engine) -> None:
    made = engine.Negotiator(offers=["a/b"], cache_size=0, max_length=None)
    assert made == engine.Negotiator(["a/b"], max_length=None, cache_size=0)
    assert repr(made) == "Negotiator(('a/b',), cache_size=0, max_length=None)"
    assert engine.EncodingNegotiator(codings=["br"]).codings == ("br",)
    assert engine.LanguageNegotiator(tags=["en"], cache_size=1).tags == ("en",)


@pytest.mark.parametrize("given", [None, 5], ids=repr)
@pytest.mark.parametrize("call", sorted(ONE_STR_CALLS))
def test_offers_that_are_no_iterable_are_named(
    engine: Engine, call: str, given: Any
) -> None:
    made, _, noun = ONE_STR_CALLS[call]
    expected = rf"^{noun} must be an iterable of str \(such as a list\), not "
    with pytest.raises(TypeError, match=expected + type(given).__name__ + "$"):
        made(engine, given)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (None, "renderers must map offers to renderers (or be pairs), not NoneType"),
        ("a/b", "renderers must map offers to renderers (or be pairs), not str"),
        ([("a/b",)], "renderers: ('a/b',) is not a pair (offer, renderer)"),
    ],
)
def test_renderers_that_are_no_pairs_are_named(given: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        Renderers(given)
    assert str(info.value) == message


@pytest.mark.parametrize("kind", sorted(SETS))
def test_pairs_in_a_set_are_a_type_error(kind: str) -> None:
    # As offers in a set are: the order of pairs breaks ties and orders the
    # format names, and a set's changes from one process to the next.
    from fastaccept import wsgi

    made = {"set": set, "frozenset": frozenset}[kind]
    order = "are read in the order given, and a set's order changes"
    with pytest.raises(
        TypeError, match=f"^renderers must map offers .* {kind}: .*{order}"
    ):
        Renderers(made([("text/html", str), ("application/json", repr)]))
    with pytest.raises(TypeError, match=f"^renderers must map versions .* {kind}: "):
        Renderers.versioned("a/b", made([("1", str), ("2", repr)]), default="1")
    with pytest.raises(TypeError, match=f"^formats must be .* {kind}: formats {order}"):
        Produces(["a/b", "c/d"], formats=made([("b", "a/b"), ("d", "c/d")]))
    with pytest.raises(TypeError, match=f"^handlers must map offers .* {kind}: "):
        wsgi.dispatch(made([("text/html", str), ("application/json", repr)]))


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (None, "renderers must map versions to renderers (or be pairs), not NoneType"),
        ("12", "renderers must map versions to renderers (or be pairs), not str"),
        (["1", "2"], "renderers: '1' is not a pair (version, renderer)"),
    ],
)
def test_versioned_renderers_that_are_no_pairs_are_named(
    given: Any, message: str
) -> None:
    with pytest.raises(TypeError) as info:
        Renderers.versioned("a/b", given, default="1")
    assert str(info.value) == message


def test_a_process_s_first_one_call_refuses_what_any_call_refuses(
    engine: Engine,
) -> None:
    # Each one-call form keeps its last call's arguments; before the first
    # there are none, which no argument (None, max_length=None) may match.
    code = "\n".join(
        [
            f"import {engine.__name__} as engine",
            "for call in (",
            "    lambda: engine.quality('a/b', None, max_length=None),",
            "    lambda: engine.negotiate('a/b', None, max_length=None),",
            "    lambda: engine.negotiate_encoding('gzip', None, max_length=None),",
            "    lambda: engine.negotiate_language('en', None, max_length=None),",
            "):",
            "    try:",
            "        call()",
            "    except TypeError as error:",
            "        print(error)",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines() == [
        "media_type must be a str, not NoneType",
        "offers must be an iterable of str (such as a list), not NoneType",
        "codings must be an iterable of str (such as a list), not NoneType",
        "tags must be an iterable of str (such as a list), not NoneType",
    ]


# --- the web layer's per-request arguments: refused at the call, read or not ---


@pytest.mark.parametrize("given", [0, False, [], {}, 1])
def test_a_content_type_of_another_type_is_a_type_error(given: Any) -> None:
    # Checked before its truth is: 0, False and [] are no missing header.
    taken = Consumes(["application/json"])
    with pytest.raises(TypeError, match=r"^a Content-Type value must be str, bytes"):
        taken.check(given)


def test_an_accept_of_another_type_is_refused_when_it_is_not_read() -> None:
    # A Content-Type taken and a format named need no Accept: a bad one is
    # still refused, not passed over.
    message = "^an Accept value must be str, bytes, bytearray, memoryview or None"
    with pytest.raises(TypeError, match=message):
        Consumes(["application/json"]).check("application/json", 42)  # type: ignore[arg-type]
    produces = Produces(["application/json", "text/html"], formats=True)
    with pytest.raises(TypeError, match=message):
        produces.select(42, format="json")  # type: ignore[arg-type]
    assert produces.select(bytearray(b"text/html"), format="json").ok


@pytest.mark.parametrize("method", [b"HEAD", None, ["HEAD"], 5])
def test_a_method_of_another_type_is_a_type_error(method: Any) -> None:
    from fastaccept.agents import markdown_for_agents

    renderers = Renderers({"text/html": str})
    agents = markdown_for_agents(html=str, markdown=str)
    for respond in (renderers.respond, agents.respond):
        with pytest.raises(TypeError, match=r"^method must be a str, not "):
            respond("*/*", "x", method=method)
    with pytest.raises(TypeError, match=r"^method must be a str, not "):
        renderers.render(renderers.produces.select("*/*"), "x", method=method)


class _Method(str, enum.Enum):  # str() is "_Method.HEAD", not its text
    HEAD = "HEAD"
    POST = "POST"


class _StrMethod(str, enum.Enum):  # as http.HTTPMethod (3.11) is: str() its text
    HEAD = "HEAD"
    POST = "POST"

    __str__ = str.__str__


class _Text(str):
    pass


@pytest.mark.parametrize("head", [_Method.HEAD, _StrMethod.HEAD, _Text("HEAD")])
def test_a_method_of_a_str_subclass_is_read_as_its_text(head: str) -> None:
    # str subclasses (http.HTTPMethod's members among them) are methods by
    # their text: a HEAD gets no body.
    from fastaccept.agents import markdown_for_agents

    renderers = Renderers({"text/html": str})
    agents = markdown_for_agents(html=str, markdown=str)
    for respond in (renderers.respond, agents.respond):
        assert respond("*/*", "x", method=head).body == b""
        assert respond("*/*", "x", method="GET").body == b"x"
    assert (
        renderers.render(renderers.produces.select("*/*"), "x", method=head).body == b""
    )
    consumes = Consumes(["application/json"])
    refused = consumes.check("text/csv", method=_Method.POST)
    assert refused.headers["Accept-Post"] == "application/json"
    assert consumes.check("text/csv", method=_StrMethod.POST).headers == refused.headers


class _Format(str, enum.Enum):
    JSON = "json"


def test_a_format_of_a_str_subclass_is_read_as_its_text() -> None:
    produces = Produces(["application/json", "text/html"], formats=True)
    assert (
        produces.select("text/html", format=_Format.JSON).media_type
        == "application/json"
    )


@pytest.mark.parametrize("module", ["asgi", "wsgi"])
def test_an_endpoint_takes_renderers_and_consumes_of_their_kinds(module: str) -> None:
    # A Produces, or the mapping a Renderers is made of, is not one; nor are
    # the types a Consumes is made of.
    negotiated = __import__(f"fastaccept.{module}", fromlist=["negotiated"]).negotiated
    renderers = Renderers({"text/html": str})
    for wrong in (renderers.produces, {"text/html": str}):
        with pytest.raises(TypeError, match=r"^renderers must be a Renderers, not "):
            negotiated(wrong)
    with pytest.raises(
        TypeError, match=r"^consumes must be a Consumes or None, not list"
    ):
        negotiated(renderers, consumes=["application/json"])
    assert negotiated(renderers, consumes=Consumes(["application/json"])) is not None


@pytest.mark.parametrize("decision", [None, "text/html", {"status": 200}])
def test_render_takes_a_decision(decision: Any) -> None:
    with pytest.raises(TypeError, match=r"^decision must be a Decision \(Produces"):
        Renderers({"text/html": str}).render(decision, "x")


def test_wsgi_refuses_a_coroutine_function_when_it_is_decorated() -> None:
    from fastaccept import wsgi

    async def page(environ: Any) -> str:
        return "x"

    message = r"^page must be a function \(def handler\(environ\)\) for fastaccept.wsgi"
    with pytest.raises(TypeError, match=message):
        wsgi.negotiated(Renderers({"text/html": str}))(page)
    with pytest.raises(TypeError, match=message):
        wsgi.dispatch({"text/html": page})
