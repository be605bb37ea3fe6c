"""The public API (docs/api.md): inputs, values, helpers, engine selection."""

from __future__ import annotations

import copy
import dataclasses
import enum
import gc
import inspect
import os
import pickle
import re
import subprocess
import sys
import typing
import uuid
import weakref
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import fastaccept
from fastaccept import (
    BROWSER_DEFAULTS,
    Accept,
    AcceptError,
    MediaRange,
    cors_unsafe_bytes,
    format_accept,
    format_accept_query,
)
from fastaccept._limits import CACHE_KEY_MAX_LENGTH, store
from fastaccept._text import HeaderText

from .conftest import (
    ENGINES,
    Engine,
    cython_engine,
    run_in_engine,
    value_cache,
)

VALUE = "text/html;level=1;q=0.5, */*;q=0.1"


@pytest.mark.parametrize(
    "value",
    [VALUE, VALUE.encode(), bytearray(VALUE.encode()), memoryview(VALUE.encode())],
    ids=["str", "bytes", "bytearray", "memoryview"],
)
def test_every_input_type_gives_the_same_result(
    engine: Engine, value: HeaderText
) -> None:
    assert tuple(engine.parse(value)) == tuple(engine.parse(VALUE))
    assert engine.negotiate(value, ["a/b", "text/html;level=1"]) == "text/html;level=1"
    assert engine.Negotiator(["a/b"]).choose(value) == "a/b"
    assert engine.is_cors_safelisted(value) is True


def test_a_released_memoryview_raises_pythons_value_error(engine: Engine) -> None:
    # docs/api.md, "Inputs and objects": as any read of it does, on every
    # entry point of the engine.
    view = memoryview(VALUE.encode())
    view.release()
    calls: list[Callable[[], object]] = [
        lambda: engine.parse(view),
        lambda: engine.negotiate(view, ["a/b"]),
        lambda: engine.Negotiator(["a/b"]).choose(view),
        lambda: engine.is_cors_safelisted(view),
        lambda: engine.parse_language(view),
        lambda: engine.negotiate_encoding(view, ["gzip"]),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="released memoryview"):
            call()


def test_bytes_are_latin1(engine: Engine) -> None:
    accept = engine.parse(b'a/b;p="\xe9t\xe9"')
    assert accept[0].params == (("p", "\xe9t\xe9"),)


def test_non_latin1_member_skipped_lenient_raises_strict(engine: Engine) -> None:
    value = 'a/b;p="\u20ac", c/d'
    accept = engine.parse(value)
    assert [str(r) for r in accept] == ["c/d"]
    assert accept.skipped[0].text == 'a/b;p="\u20ac"'
    assert "U+20AC" in accept.skipped[0].reason
    with pytest.raises(AcceptError, match="U\\+20AC"):
        engine.parse(value, strict=True)
    assert engine.is_cors_safelisted("a/\u20ac") is False


def test_media_range() -> None:
    rng = MediaRange("text", "html", (("level", "1"),), 500)
    assert (rng.q, rng.essence, rng.specificity) == (0.5, "text/html", (2, 1))
    assert MediaRange("text", "*").specificity == (1, 0)
    assert MediaRange("*", "*").specificity == (0, 0)
    assert str(rng) == "text/html;level=1;q=0.5"
    assert (
        str(MediaRange("a", "b", (("p", 'x "y"'), ("e", "")), 125))
        == 'a/b;p="x \\"y\\"";e="";q=0.125'
    )
    assert rng.matches("text/html;level=1;x=y") and not rng.matches("text/html")
    assert MediaRange("*", "*").matches("a/b")
    assert hash(rng) == hash(MediaRange("text", "html", (("level", "1"),), 500))
    with pytest.raises(AttributeError):
        rng.q = 1  # type: ignore[misc]
    with pytest.raises(ValueError):
        rng.matches("text/*")


#: Each function an engine defines, with arguments for a call.
ENGINE_FUNCTION_CALLS: dict[str, tuple[object, ...]] = {
    "parse": ("text/html",),
    "parse_encoding": ("gzip",),
    "parse_language": ("en",),
    "is_cors_safelisted": ("text/html",),
    "negotiate": ("text/html", ["application/json", "text/html"]),
    "quality": ("text/html;q=0.5", "text/html"),
    "negotiate_encoding": ("br", ["gzip", "br"]),
    "negotiate_language": ("de", ["en", "de"]),
}


def test_engine_functions_kept_on_a_class_as_docs_say(engine: Engine) -> None:
    # docs/api.md: built-in on the compiled engine (a class attribute does
    # not bind it), a Python function on the pure one (it binds);
    # staticmethod() calls it alike on both.
    compiled = engine.__name__ == "fastaccept._scan"
    for name, args in ENGINE_FUNCTION_CALLS.items():
        function = getattr(engine, name)
        assert inspect.isbuiltin(function) is compiled, name
        plain = type("Plain", (), {"call": function})()
        kept = type("Kept", (), {"call": staticmethod(function)})()
        assert kept.call(*args) == function(*args), name
        if compiled:
            assert plain.call(*args) == function(*args), name
        else:
            with pytest.raises(TypeError, match="positional argument"):
                plain.call(*args)


def test_compiled_negotiator_classes_are_immutable_types() -> None:
    # docs/api.md: patch an object, not the class, on the compiled engine.
    engine = cython_engine()
    for kind in (
        engine.Negotiator,
        engine.EncodingNegotiator,
        engine.LanguageNegotiator,
    ):
        with pytest.raises(TypeError, match="immutable type"):
            kind.choose = kind.choose
        with pytest.raises(TypeError, match="immutable type"):
            kind.extra = 1


def test_two_negotiator_classes_as_bases(engine: Engine) -> None:
    # docs/api.md: each compiled negotiator class has its own instance
    # layout; a plain mixin beside one works on both engines.
    bases = (engine.Negotiator, engine.LanguageNegotiator)
    if engine.__name__ == "fastaccept._scan":
        with pytest.raises(TypeError, match="lay-out conflict"):
            type("Both", bases, {})
    else:
        assert type("Both", bases, {})(["a/b"]).choose("a/b") == "a/b"

    class Mixin:
        def offered(self) -> str:
            return "mixin"

    mixed = type("Mixed", (Mixin, engine.Negotiator), {})(["a/b"])
    assert (mixed.choose("a/*"), mixed.offered()) == ("a/b", "mixin")


def test_accept_is_an_immutable_sequence(engine: Engine) -> None:
    accept = engine.parse("a/b, c/d;q=0")
    assert isinstance(accept, Sequence) and isinstance(accept, Accept)
    assert len(accept) == 2 and accept[1].type == "c" and accept[-1].weight == 0
    assert [r.essence for r in accept[:1]] == ["a/b"]
    assert repr(accept) == "Accept('a/b, c/d;q=0')"
    assert repr(engine.parse(None)) == "Accept(None)"
    assert accept == engine.parse("A/B ,c/d;Q=0.000")
    assert accept != engine.parse("a/b")
    assert engine.parse("") != engine.parse(None)  # present, though empty
    # An absent header's text is "", which reads as present: sent as no header.
    assert str(engine.parse(None)) == "" and engine.parse("").present
    with pytest.raises(AttributeError):
        accept.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        accept[0] = accept[1]  # type: ignore[index]


@pytest.mark.parametrize(
    ("header", "kind", "text"),
    [
        ("parse", "MediaRange", "a/b"),
        ("parse_encoding", "Coding", "gzip"),
        ("parse_language", "LanguageRange", "en"),
    ],
)
def test_text_in_a_value_is_refused(
    engine: Engine, header: str, kind: str, text: str
) -> None:
    """``text in value`` would be False whatever the header says (werkzeug's
    ``t in accept_mimetypes`` reads as ``accepts``): a TypeError naming
    ``accepts``; a member is looked for as in any sequence."""
    value = getattr(engine, header)(f"{text}, *")
    assert value[0] in value and value[1] in value
    assert value.count(value[0]) == 1 and value.index(value[1]) == 1
    assert value.accepts(text)
    for given in (text, text.encode(), bytearray(text.encode()), memoryview(b"a")):
        with pytest.raises(TypeError, match=rf"requires a {kind}, not ") as raised:
            given in value  # noqa: B015
        shown = repr(text) if isinstance(given, str) else "a str"
        assert f"accepts({shown}) says whether" in str(raised.value)


def test_accept_methods(engine: Engine) -> None:
    accept = engine.parse("text/*;q=0.5, text/html, image/png;q=0")
    offers = ["image/png", "text/plain", "text/html"]
    assert accept.best(offers) == "text/html"
    assert accept.best(["image/png"], default="none") == "none"
    assert accept.rank(offers) == [("text/html", 1.0), ("text/plain", 0.5)]
    assert accept.accepts("text/css") and not accept.accepts("image/png")
    assert accept.quality("text/css") == 0.5
    absent = engine.parse(None)
    assert absent.best(offers) == "image/png" and absent.quality("x/y") == 1.0
    assert absent.rank(["x/y"]) == [("x/y", 1.0)]


def test_canonical_str_keeps_quoted_strings(engine: Engine) -> None:
    value = 'Text/HTML ; q=0.50 ; p="a,b;c" ;x="\\\\" , */*;q=0'
    accept = engine.parse(value)
    assert str(accept) == 'text/html;p="a,b;c";x="\\\\";q=0.5, */*;q=0'
    assert tuple(engine.parse(str(accept), strict=True)) == tuple(accept)


def test_negotiator(engine: Engine) -> None:
    offers = ["application/json", "text/html"]
    negotiator = engine.Negotiator(iter(offers))
    assert negotiator.offers == tuple(offers)
    assert negotiator.choose("text/*") == "text/html"
    assert negotiator.choose("image/*", default="x") == "x"
    assert negotiator.choose_index("image/*") == -1
    assert negotiator.rank("*/*;q=0.5, application/json") == [
        ("application/json", 1.0),
        ("text/html", 0.5),
    ]
    assert engine.Negotiator([]).choose("*/*") is None
    with pytest.raises(ValueError, match="cache_size"):
        engine.Negotiator(offers, cache_size=-1)


def test_negotiator_cache_is_bounded(engine: Engine) -> None:
    negotiator = engine.Negotiator(["a/b", "c/d"], cache_size=8)
    for i in range(100):
        assert negotiator.choose(f"c/d, x/y;q=0.{i:03d}") == "c/d"
        assert len(value_cache(negotiator)) <= 8
    assert "c/d, x/y;q=0.099" in value_cache(negotiator)  # the newest is kept
    assert "c/d, x/y;q=0.000" not in value_cache(negotiator)  # the oldest went
    long_value = "c/d" + " " * CACHE_KEY_MAX_LENGTH
    assert negotiator.choose(long_value) == "c/d"
    assert long_value not in value_cache(negotiator)
    # docs/api.md: values of at most 1,024 characters are cached.
    longest, too_long = "c/d" + " " * 1021, "a/b" + " " * 1022
    assert negotiator.choose(longest) == "c/d"
    assert negotiator.choose(too_long) == "a/b"
    assert longest in value_cache(negotiator)
    assert too_long not in value_cache(negotiator)
    uncached = engine.Negotiator(["a/b"], cache_size=0)
    uncached.choose("a/b")
    assert len(value_cache(uncached)) == 0


def test_negotiator_cache_follows_the_policy_of_limits_store(engine: Engine) -> None:
    """Both engines' caches hold exactly what ``_limits.store`` would keep."""
    negotiator = engine.Negotiator(["a/b", "c/d"], cache_size=5)
    model: dict[str | bytes, int] = {}
    values: list[str | bytes] = [f"c/d;q=0.{i}" for i in range(12)]
    values += [
        "c/d;q=0.11",
        "c/d;q=0.1",
        b"c/d;q=0.1",
        "a/b" + " " * CACHE_KEY_MAX_LENGTH,
    ]
    values += ["a/b" + " " * (CACHE_KEY_MAX_LENGTH - 3), b"x" * CACHE_KEY_MAX_LENGTH]
    values += [b"x" * CACHE_KEY_MAX_LENGTH]
    hits = 0
    for value in values:
        index = negotiator.choose_index(value)
        if value in model:  # a hit changes nothing
            hits += 1
            assert index == model[value]
        else:
            store(model, 5, value, index)
        assert value_cache(negotiator) == model
    # Cleared when full (twice over), the over-long key left out, the newest kept.
    assert model == {b"x" * CACHE_KEY_MAX_LENGTH: -1} and hits == 2


def test_negotiator_cache_answers_like_a_fresh_computation(engine: Engine) -> None:
    negotiator = engine.Negotiator(["a/b", "c/d"])
    values: list[str | bytes] = ["c/d", b"c/d", "a/b;q=0, c/d;q=0", "c/d", b"c/d"]
    for value in values:
        fresh = engine.Negotiator(["a/b", "c/d"], cache_size=0).choose(value)
        assert negotiator.choose(value) == fresh


#: A str and bytes of the same text given to one negotiator, and to the
#: one-call forms, where Python warns of comparing them (``-bb``: raises).
STR_THEN_BYTES = """
import fastaccept as fa
from fastaccept import _limits
print(_limits.BYTES_CACHED)
for value in ("text/html", b"text/html", "text/html", b"text/html"):
    print(fa.Negotiator(["text/html"]).choose(value), fa.negotiate(value, ["text/html"]))
n = fa.Negotiator(["application/json", "text/html"])
e = fa.EncodingNegotiator(["gzip", "br"])
l = fa.LanguageNegotiator(["en", "fr"])
for value, coding, tag in (("text/html", "br", "fr"), (b"text/html", b"br", b"fr")) * 2:
    print(n.choose(value), e.choose(coding), l.choose(tag),
          fa.negotiate_encoding(coding, ["gzip", "br"]), fa.negotiate_language(tag, ["en", "fr"]))
produces = fa.Produces(["application/json", "text/html"])
print([produces.select(value).media_type for value in ("text/html", b"text/html") * 2])
# An ASGI field line named by a str (ASGI's are bytes) of the name's length.
print(repr(fa.header_from_scope({"headers": [("origin", b"x"), (b"accept", b"a/b")]})))
"""


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_str_and_bytes_of_one_text_are_not_compared_under_python_b(engine: str) -> None:
    # A cache held both and compared them: under -bb each negotiator given
    # the other type of a text it had cached raised BytesWarning (a server
    # reading bytes from ASGI scopes and str elsewhere answered 500).
    assert run_in_engine(engine, STR_THEN_BYTES, "-bb") == [
        "False",
        *["text/html text/html"] * 4,
        *["text/html br fr br fr"] * 4,
        "['text/html', 'text/html', 'text/html', 'text/html']",
        "b'a/b'",
    ]


#: Offers (and a Vary value) given as bytes, a program's error, after the
#: same text as str was kept: each is a TypeError, also where Python warns
#: of comparing bytes with str.
BYTES_OFFERS = """
import fastaccept as fa
fa.negotiate("text/html", ["text/html"]), fa.quality("text/html", "text/html")
fa.negotiate_encoding("gzip", ["gzip"]), fa.negotiate_language("en", ["en"])
fa.parse("text/html").quality("text/html")
page = fa.Renderers({"text/html": str})
page.respond("text/html", "x", vary="Origin")
for call in (
    lambda: fa.negotiate("text/html", [b"text/html"]),
    lambda: fa.negotiate("text/html", (b"text/html",)),
    lambda: fa.quality("text/html", b"text/html"),
    lambda: fa.negotiate_encoding("gzip", [b"gzip"]),
    lambda: fa.negotiate_language("en", [b"en"]),
    lambda: fa.parse("text/html").quality(b"text/html"),
    lambda: page.respond("text/html", "x", vary=b"Origin"),
):
    try:
        call()
    except TypeError:
        print("TypeError")
"""


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_bytes_offers_are_a_type_error_under_python_b(engine: str) -> None:
    # Under -bb the kept negotiators' and Vary values' look-ups compared the
    # bytes with the str kept before and raised BytesWarning instead.
    assert run_in_engine(engine, BYTES_OFFERS, "-bb") == ["TypeError"] * 7


def test_negotiate_returns_the_very_offer_object(engine: Engine) -> None:
    first = "".join(["text/", "html"])
    second = "".join(["text/", "html"])
    assert first is not second
    assert engine.negotiate("text/html", [first]) is first
    assert engine.negotiate("text/html", (second,)) is second


class _MediaType(str, enum.Enum):
    JSON = "application/json"
    HTML = "text/html"


class _Coding(str, enum.Enum):
    GZIP = "gzip"
    BR = "br"


def test_a_str_enum_offer_comes_back_as_itself_typed_so(engine: Engine) -> None:
    """The one-call forms give back the offer given, a str enum's member
    too, and are typed so (mypy checks these annotations over the suite)."""
    offers: list[_MediaType | tuple[_MediaType, float]]
    offers = [_MediaType.JSON, (_MediaType.HTML, 0.5)]
    assert engine.negotiate("text/html", offers) is _MediaType.HTML
    assert engine.negotiate_encoding("br", list(_Coding)) is _Coding.BR
    chosen: _MediaType | None = fastaccept.negotiate("text/html", offers)
    refused: _MediaType | int = fastaccept.negotiate("image/png", offers, default=0)
    coding: _Coding | None = fastaccept.negotiate_encoding("br", list(_Coding))
    tag: _Coding | str = fastaccept.negotiate_language("en", list(_Coding), default="")
    assert (chosen, refused, coding, tag) == (_MediaType.HTML, 0, _Coding.BR, "")


class _Shifting(bytearray):
    """A buffer whose every copy (``bytes()``) is another text: as one that
    another thread writes to while it is read."""

    texts = (b"a/b;q=2, c/d", b"x" * 21)

    def __init__(self) -> None:
        super().__init__(b"a/b")
        self.copies = 0

    def __bytes__(self) -> bytes:
        self.copies += 1
        return self.texts[(self.copies - 1) % 2]


def test_a_buffer_is_read_once_a_call(engine: Engine) -> None:
    """What a message names is the text read, copied once: no second copy
    of a ``bytearray`` or ``memoryview`` for the error or the skipped members."""
    shifting = _Shifting()
    with pytest.raises(AcceptError) as raised:
        engine.parse(shifting, strict=True)
    assert (raised.value.value, raised.value.position) == (b"a/b;q=2, c/d", 6)
    assert raised.value.reason.startswith("invalid weight '2'")
    shifting = _Shifting()
    assert [each.text for each in engine.parse(shifting).skipped] == ["a/b;q=2"]
    assert shifting.copies == 1
    shifting = _Shifting()
    with pytest.raises(AcceptError) as raised:
        engine.Negotiator(["c/d"], max_length=8).choose(shifting)
    assert raised.value.value == b"a/b;q=2, c/d"
    assert shifting.copies == 1


#: A process's first call of each one-call form, with no offers (an empty
#: tuple, the one CPython shares, or list) and ``max_length=None``.
FIRST_CALLS_WITHOUT_OFFERS = """
import fastaccept as fa
print(fa.negotiate("text/html", (), max_length=None, default=0))
print(fa.negotiate_encoding("gzip", [], max_length=None, default=0))
print(fa.negotiate_language("en", (), max_length=None, default=0))
try:
    fa.quality("text/html", (), max_length=None)
except TypeError as error:
    print(error)
"""


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_a_first_call_without_offers_answers_as_any_other(engine: str) -> None:
    # Such a call passed for the compiled engine's last one, whose
    # negotiator there was none yet: the process died (SIGSEGV).
    assert run_in_engine(engine, FIRST_CALLS_WITHOUT_OFFERS) == [
        "0",
        "0",
        "0",
        "media_type must be a str, not tuple",
    ]


_Kind = typing.Literal["application/json", "text/html"]
_KINDS: tuple[_Kind, ...] = ("application/json", "text/html")


def test_literal_offers_are_typed_as_their_literals(engine: Engine) -> None:
    """Offers typed as a ``Literal`` give back that type, with a ``default``
    of it or of another type (mypy checks these annotations over the suite;
    pyright read the first as ``str``, mypy the second)."""
    chosen: _Kind = fastaccept.negotiate("text/html", _KINDS, default="text/html")
    refused: _Kind | int = fastaccept.negotiate("image/png", _KINDS, default=0)
    best: _Kind | None = fastaccept.parse("image/png").best(_KINDS, default=None)
    assert (chosen, refused, best) == ("text/html", 0, None)
    assert engine.negotiate("image/png", _KINDS, default="text/html") == "text/html"


@pytest.mark.thread_unsafe(reason="the one-call forms' last offers")
def test_offers_of_another_hash_are_not_compared_with_the_last_ones(
    engine: Engine,
) -> None:
    # As a dict key is: the last call's offers' == is not called where the
    # hashes differ (this one's raises for another type).
    class Tagged(str):
        def __eq__(self, other: object) -> bool:
            if type(other) is not Tagged:
                raise TypeError(f"compared with {type(other).__name__}")
            return str.__eq__(self, other)

        def __hash__(self) -> int:
            return hash(("tagged", str(self)))

    tagged, plain = Tagged("text/html"), "text/html"
    assert engine.negotiate("text/html", [tagged]) is tagged
    assert engine.negotiate("text/html", [plain]) is plain
    assert engine.parse("text/html").best([tagged]) is tagged
    assert engine.parse("text/html").best([plain]) is plain


@pytest.mark.thread_unsafe(reason="the one-call forms' last offers")
def test_offers_equal_to_the_last_ones_are_the_same_only_as_a_key(
    engine: Engine,
) -> None:
    # A str subclass equal to another spelling (case-insensitive here) is
    # not the same offers: each call answers as a fresh negotiation does
    # (parameter values compare case-sensitively, docs/rules.md rule 9).
    class Folded(str):
        def __eq__(self, other: object) -> bool:
            return isinstance(other, str) and self.lower() == other.lower()

        __hash__ = str.__hash__

    value = "text/plain;format=flowed"
    upper, folded = "text/plain;format=FLOWED", Folded("text/plain;format=flowed")
    for first, second in ((folded, upper), (upper, folded)):
        for offer in (first, second, first):
            chosen = offer if offer is folded else None
            assert engine.negotiate(value, [offer]) is chosen
            assert engine.quality(value, offer) == (1.0 if chosen else 0.0)


def test_an_unhashable_offer_is_taken_again(engine: Engine) -> None:
    # A str subclass without a hash is an offer: compared with the last
    # call's by identity, as a pair is (no key is made of it).
    class Unhashable(str):
        __hash__ = None  # type: ignore[assignment]

    offer = Unhashable("a/b")
    for _ in range(2):
        assert engine.negotiate("a/b", [offer]) is offer
        assert engine.parse("a/b").best([offer]) is offer


@pytest.mark.thread_unsafe(reason="counts the calls of a module's class")
def test_parsed_values_parse_the_offers_once(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A server passes the same offers every time: best and rank keep them
    # parsed, and still answer with this call's own objects. (Values made by
    # hand: the compiled engine's own give their text to its one-call forms.)
    from fastaccept import _match, _types

    made: list[object] = []

    def counted(*args: typing.Any) -> _match.OfferSet:
        made.append(args)
        return _match.OfferSet(*args)

    monkeypatch.setattr(_types, "OfferSet", counted)
    # Kept offer lists start empty: the registry is emptied when full (the
    # cache policy), which earlier tests' lists could bring about here.
    for kind in (_types.Accept, _types.AcceptEncoding):
        monkeypatch.setattr(kind, "_kept_offers", type(kind._kept_offers)())
    own = f"application/x-{uuid.uuid4().hex}"  # offers no earlier test gave
    accept = _types.Accept(engine.parse("text/html, application/json;q=0.5"))
    for _ in range(3):
        first, second = "".join(["text/", "html"]), "".join(["application/", "json"])
        assert accept.best([second, first, own]) is first
        assert accept.best([(second, 0.5), first, own]) is first
        assert [pair[0] for pair in accept.rank([second, first, own])] == [
            first,
            second,
        ]
        assert accept.rank([second, first, own])[0][0] is first
    assert len(made) == 2  # the two offer lists, once each
    codings = _types.AcceptEncoding(engine.parse_encoding("gzip, br;q=0.5"))
    for _ in range(2):
        gzip = "".join(["gz", "ip"])
        assert codings.best(["br", gzip]) is gzip
        assert codings.rank(["br", gzip])[0][0] is gzip
    for _ in range(2):  # refused each time: nothing is kept
        with pytest.raises(ValueError, match="concrete"):
            accept.best(["text/*", own])


@pytest.mark.thread_unsafe(reason="patches a module's class")
def test_a_parsed_value_gives_its_text_to_the_compiled_engine(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The compiled engine's parsed values hand their text to its one-call
    # forms, whose kernel reads it again: the answers of matching the members
    # (a value made by hand), without an offer set made in _types.
    from fastaccept import _types

    value = "text/html;level=1, text/*;q=0.5, application/json;q=0.8, */*;q=0.1"
    parsed, by_hand = engine.parse(value), _types.Accept(engine.parse(value))
    codings = engine.parse_encoding("gzip;q=0.5, br, *;q=0")
    codings_by_hand = _types.AcceptEncoding(codings)
    tags = engine.parse_language("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.1")
    tags_by_hand = _types.AcceptLanguage(tags)
    offers: tuple[list[typing.Any], ...] = (
        ["text/html"],
        ["text/plain", ("application/json", 0.5)],
        ["image/png", "text/html;level=1"],
        ["application/xml"],
    )
    types = ("text/html", "text/html;level=1", "text/plain", "image/png", "a/b")
    expected = (
        [by_hand.best(each, "none") for each in offers],
        [by_hand.quality(each) for each in types],
        codings_by_hand.best(["gzip", "zstd"], "none"),
        tags_by_hand.best(["de", "fr-FR", "en"]),
    )
    # A buffer that can change is not kept: the members answer.
    buffer = bytearray(b"text/html")
    from_buffer = engine.parse(buffer)
    buffer[:] = b"image/png"
    assert from_buffer.best(["text/html", "image/png"]) == "text/html"
    if engine.__name__.endswith("._scan"):

        def refused(*args: object) -> None:
            raise AssertionError("matched in _types")

        monkeypatch.setattr(_types, "OfferSet", refused)
        monkeypatch.setattr(_types.ENCODING, "best", refused)
        monkeypatch.setattr(_types.LANGUAGE, "best", refused)
    assert (
        [parsed.best(each, "none") for each in offers],
        [parsed.quality(each) for each in types],
        codings.best(["gzip", "zstd"], "none"),
        tags.best(["de", "fr-FR", "en"]),
    ) == expected
    # Offers and media types refused as the members' path refuses them.
    with pytest.raises(ValueError, match="concrete media types"):
        parsed.best(["text/*"])
    with pytest.raises(ValueError, match="invalid media_type"):
        parsed.quality("text/*")
    with pytest.raises(TypeError, match="media_type must be a str"):
        parsed.quality(["text/html"])
    # A value longer than the one-call forms' default limit was parsed: it
    # is read again without one.
    long = "text/html;q=0.5," + " " * 9000 + "application/json"
    parsed_long = engine.parse(long, max_length=None)
    assert parsed_long.best(["text/html", "application/json"]) == "application/json"
    assert parsed_long.quality("text/html") == 0.5


def test_an_answer_made_is_never_made_again() -> None:
    # Decision, Rendered and Answer are frozen dataclasses, whose own
    # __init__ called again would write their fields; Produces and Renderers
    # hand the same answers made ahead to every request, in every thread.
    produces = fastaccept.Produces(["text/html", "application/json"])
    renderers = fastaccept.Renderers({"application/json": str})
    decision, refusal = produces.select("text/html"), renderers.respond("a/b", 1)
    answer = fastaccept.Answer({}, status=201)
    remakes: list[tuple[typing.Any, tuple[typing.Any, ...]]] = [
        (decision, (500, "application/evil")),
        (refusal, (200, (("Content-Type", "text/html"),), b"<script>")),
        (answer, ({}, 500)),
    ]
    for made, args in remakes:  # named by its first field, in every process
        first = dataclasses.fields(made)[0].name
        with pytest.raises(
            AttributeError, match=f"cannot be changed \\(its '{first}'\\)$"
        ):
            made.__init__(*args)
    assert produces.select("text/html") is decision
    assert (decision.status, decision.media_type) == (200, "text/html")
    assert renderers.respond("a/b", 1) is refusal and refusal.status == 406
    assert answer.status == 201


def test_frozen_answers_refuse_every_attribute_as_frozen() -> None:
    # Not only their fields: a dataclass's own __setattr__ (frozen, slots)
    # raised TypeError for any other name, which except AttributeError missed.
    made = [
        fastaccept.Produces(["text/html"]).select("text/html"),
        fastaccept.Renderers({"text/html": str}).respond("a/b", 1),
        fastaccept.Answer({}, status=201),
    ]
    for answer in made:
        for name in ("status", "ok", "extra"):
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot be"):
                setattr(answer, name, 1)
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot be"):
                delattr(answer, name)

    class Noted(fastaccept.Answer):  # a subclass's own attributes are its own
        note: str

    noted = Noted({})
    noted.note = "kept"
    assert noted.note == "kept"
    with pytest.raises(dataclasses.FrozenInstanceError):
        noted.status = 201  # type: ignore[misc]


def test_objects_made_by_their_arguments_are_fixed_when_made() -> None:
    # Offer, Produces, Consumes and Renderers compare, hash and pickle by
    # their arguments: nothing changes them after they are made.
    offer = fastaccept.Offer("text/html")
    negotiator, kept = fastaccept.Negotiator([offer]), {fastaccept.Negotiator([offer])}
    consumes = fastaccept.Consumes(["application/json"])
    renderers = fastaccept.Renderers({"application/json": str})
    changes: list[tuple[object, str, object]] = [
        (offer, "media_type", "image/png"),
        (consumes, "media_types", ("text/csv",)),
        (consumes, "accept", "evil\r\nX: y"),
        (renderers, "produces", fastaccept.Produces(["text/plain"])),
        (fastaccept.Produces(["a/b"]), "_negotiator", None),
        # nor its class: an object of another class would read these slots
        (offer, "__class__", type("Other", (fastaccept.Offer,), {})),
        (consumes, "__class__", type("Other", (fastaccept.Consumes,), {})),
    ]
    for made, name, value in changes:
        with pytest.raises(AttributeError, match="cannot be changed"):
            setattr(made, name, value)
        with pytest.raises(AttributeError, match="cannot be changed"):
            delattr(made, name)
    with pytest.raises(AttributeError, match="cannot be changed"):
        offer.__init__("image/png")  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot be changed"):
        consumes.__init__(["text/csv"])  # type: ignore[misc]
    # A type checker refuses the assignments too (mypy reads this file: an
    # unused ignore fails): the attributes are Final.
    with pytest.raises(AttributeError, match="cannot be changed"):
        consumes.accept = "text/csv"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot be changed"):
        consumes.accept_query = None  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot be changed"):
        renderers.produces = fastaccept.Produces(["a/b"])  # type: ignore[misc]
    absent = fastaccept.parse(None)  # one object for every absent header
    for value in (absent, fastaccept.parse("text/html")):
        with pytest.raises(AttributeError, match="cannot be changed"):
            value.__init__([fastaccept.MediaRange("image", "png")])  # type: ignore[misc]
    assert not absent.present and fastaccept.parse(None).best(["a/b"]) == "a/b"
    assert offer == fastaccept.Offer("text/html") and negotiator in kept
    assert negotiator.choose("text/html") == "text/html"
    assert consumes == fastaccept.Consumes(["application/json"])
    assert consumes.check("application/json").ok
    assert renderers.respond("*/*", 1).headers["Content-Type"] == "application/json"


class Indexed:
    """A sequence by ``__getitem__`` alone, as ``iter`` reads one."""

    def __init__(self, items: Sequence[typing.Any]) -> None:
        self.items = items

    def __getitem__(self, index: int) -> typing.Any:
        return self.items[index]


def test_a_value_made_by_hand_is_checked_as_parse_would_make_it() -> None:
    html = [fastaccept.MediaRange("text", "html")]
    skipped = fastaccept.parse("text/html, a b").skipped
    kinds: list[tuple[typing.Any, list[typing.Any]]] = [
        (fastaccept.Accept, html),
        (fastaccept.AcceptEncoding, [fastaccept.Coding("gzip")]),
        (fastaccept.AcceptLanguage, [fastaccept.LanguageRange("en")]),
    ]
    for kind, members in kinds:
        with pytest.raises(TypeError, match="present must be True or False"):
            kind(members, present="no")
        with pytest.raises(ValueError, match=r"absent header \(present=False\)"):
            kind(members, present=False)
        with pytest.raises(TypeError, match="skipped must be SkippedMember, not int"):
            kind(members, skipped=[1])
        with pytest.raises(TypeError, match="skipped must be an iterable of Sk"):
            kind(members, skipped=None)
        assert kind(members, skipped=Indexed(skipped)).skipped == skipped
        assert not kind([], present=False).present
        assert kind(members, skipped=skipped).skipped == skipped
    with pytest.raises(TypeError, match="cors_safelisted must be True or False"):
        fastaccept.Accept(html, cors_safelisted="maybe")  # type: ignore[arg-type]

    class Weight(int):  # an int subclass (an IntEnum's kind) is refused by name
        pass

    plain = r"its weight must be a plain int \(thousandths\), not Weight$"
    with pytest.raises(TypeError, match=plain):
        fastaccept.AcceptEncoding([fastaccept.Coding("gzip", Weight(500))])
    with pytest.raises(TypeError, match=plain):
        fastaccept.Accept([fastaccept.MediaRange("text", "html", (), Weight(500))])


def test_a_member_alone_is_read_as_given() -> None:
    # docs/api.md: a plain named tuple, checked when a value takes it.
    upper = fastaccept.MediaRange("TEXT", "HTML")
    assert not upper.matches("text/html")
    accept = fastaccept.Accept([upper])
    assert list(accept) == [fastaccept.MediaRange("text", "html")]
    assert accept.accepts("text/html")


@pytest.mark.parametrize(
    "members",
    [
        [fastaccept.MediaRange("text", "html")],
        [fastaccept.MediaRange("text", "html", (("a", "x y"),))],  # a quote
        [fastaccept.MediaRange("text", "html")] * 12,  # 130 characters
        [fastaccept.MediaRange("text", "html", (("level", "1"),), 500)],
    ],
)
def test_an_accept_made_by_hand_is_safelisted_as_its_text(
    members: list[fastaccept.MediaRange],
) -> None:
    # docs/api.md: a value made by hand answers as the parsed one; Fetch's
    # verdict on its text unless given.
    made = fastaccept.Accept(members)
    text = str(made)
    assert made.cors_safelisted == fastaccept.is_cors_safelisted(text)
    assert made.cors_safelisted == fastaccept.parse(text).cors_safelisted
    assert not fastaccept.Accept(members, cors_safelisted=False).cors_safelisted
    assert fastaccept.Accept([], present=False).cors_safelisted


@pytest.mark.parametrize("offer", [" text/html", "text/html\t", "text/html;level=1 "])
def test_an_offer_with_outer_whitespace_is_refused(engine: Engine, offer: str) -> None:
    # An offer is sent as Content-Type: a field value has no outer
    # whitespace (RFC 9110 §5.5).
    said = "neither begins nor ends with a space or a tab"
    for make in (
        lambda: engine.Negotiator([offer]),
        lambda: engine.negotiate("text/html", [offer]),
        lambda: engine.parse("text/html").best([offer]),
        lambda: fastaccept.Offer(offer),
        lambda: fastaccept.Produces([offer]),
        lambda: fastaccept.Renderers({offer: str}),
        lambda: fastaccept.Consumes([offer]),  # its decision's media_type too
    ):
        with pytest.raises(ValueError, match=said):
            make()
    with pytest.raises(ValueError, match=said):
        fastaccept.Produces.versioned(" application/vnd.a+json", ["1"], default="1")
    inner = "text/html ;level=1"  # whitespace within a field value is its own
    assert engine.negotiate("text/html", [inner]) is inner


@pytest.mark.parametrize("media_type", [" text/html", "text/html\t"])
def test_a_media_type_with_outer_whitespace_is_refused(
    engine: Engine, media_type: str
) -> None:
    # As an offer is: both engines, every way a media type is asked about.
    said = "invalid media_type .*neither begins nor ends with a space or a tab"
    for ask in (
        lambda: engine.quality("text/html", media_type),
        lambda: engine.parse("text/html").quality(media_type),
        lambda: engine.parse("text/html").accepts(media_type),
        lambda: engine.parse(None).accepts(media_type),
        lambda: MediaRange("text", "*").matches(media_type),
    ):
        with pytest.raises(ValueError, match=said):
            ask()


def test_format_accept() -> None:
    assert format_accept(["application/json", ("text/html", 0.5), "image/*"]) == (
        "application/json, text/html;q=0.5, image/*"
    )
    assert (
        format_accept([MediaRange("a", "b", (("p", "x y"),), 0)]) == 'a/b;p="x y";q=0'
    )
    assert (
        format_accept(["Text/Plain; charset=UTF-8 ;q=0.80"])
        == "text/plain;charset=UTF-8;q=0.8"
    )
    assert format_accept([]) == ""
    with pytest.raises(ValueError, match=r"invalid weight 1\.5"):
        format_accept([("a/b", 1.5)])
    with pytest.raises(ValueError, match=r"invalid weight 0\.0001"):
        format_accept([("a/b", 0.0001)])
    with pytest.raises(ValueError, match="invalid media type"):
        format_accept(["a/b, c/d"])
    with pytest.raises(TypeError):
        format_accept([("a/b", "0.5")])  # type: ignore[list-item]
    for pair in (("a/b",), ("a/b", 0.5, 1)):
        with pytest.raises(
            ValueError, match=r"^expected a \(media type, q\) pair, got"
        ):
            format_accept([pair])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("item", "error", "message"),
    [
        # A parameter value no quoted-string holds: no header line is injected.
        (MediaRange("a", "b", (("p", "x\r\nSet-Cookie: s=1"),)), ValueError, "0x0D"),
        (MediaRange("a/b, c", "d"), ValueError, "one media type per item"),
        (MediaRange("a", "b;p=1"), ValueError, "is another range"),
        (MediaRange("a", "b", (("p=1;x", "2"),)), ValueError, "is another range"),
        (MediaRange("a", "b", (), 1500), ValueError, "from 0 to 1000"),
        (MediaRange("a", "b", (), -1), ValueError, "from 0 to 1000"),
        (MediaRange("a", "b", (), True), TypeError, "not bool"),
        (MediaRange("a", "b", (), 0.5), TypeError, "not float"),  # type: ignore[arg-type]
        (MediaRange("a", "b", (("Q", "0.5"),)), ValueError, "named 'q' is the weight"),
        # a name holding its own ";q": the same count of parameters, another weight
        (MediaRange("a", "b", (("x=1;q", "0"),)), ValueError, "is another range"),
        (MediaRange("a", "b", (("x", "1;q=0"),)), None, ""),  # a value: quoted
        # fields that are not what the parser makes: named, never read as text
        (MediaRange("a", None), TypeError, "its type and subtype must be str"),  # type: ignore[arg-type]
        (MediaRange("a", "b", None), TypeError, "params a tuple of (name, value)"),  # type: ignore[arg-type]
        (MediaRange("a", "b", (("p", None),)), TypeError, "pairs of str"),  # type: ignore[arg-type]
        (MediaRange("a", "b", ((1, "b"),)), TypeError, "pairs of str"),  # type: ignore[arg-type]
        (MediaRange("a", "b", (("p", "v", "w"),)), TypeError, "pairs of str"),  # type: ignore[arg-type]
    ],
)
def test_a_media_range_given_is_checked_as_its_text(
    item: MediaRange, error: type[Exception] | None, message: str
) -> None:
    """``format_accept`` and ``format_accept_query`` check a ``MediaRange``
    as they check a str (a hand-made one can hold anything)."""
    for build in (format_accept, format_accept_query):
        if error is None:
            assert build([item]).startswith("a/b;x=")
            continue
        with pytest.raises(error, match=re.escape(message)):
            build([item])


def test_a_media_range_given_comes_out_canonical() -> None:
    item = MediaRange("Text", "HTML", (("Level", "1"), ("p", "a b")), 500)
    assert format_accept([item]) == 'text/html;level=1;p="a b";q=0.5'
    quoted = MediaRange("a", "b", (("p", '1;x="2"'),))  # one parameter, quoted
    assert format_accept([quoted]) == 'a/b;p="1;x=\\"2\\""'
    assert format_accept_query([item._replace(weight=1000)]) == (
        'text/html;level="1";p="a b"'  # RFC 9651: a Token begins with a letter
    )


def test_browser_defaults_parse_cleanly(engine: Engine) -> None:
    assert {"navigate", "image", "style", "script", "fetch", "json", "cli"} <= set(
        BROWSER_DEFAULTS
    )
    for context, value in BROWSER_DEFAULTS.items():
        accept = engine.parse(value)
        assert len(accept) > 0 and not accept.skipped, context
        # No CORS-unsafe byte; only Chrome's navigation value is over 128 bytes.
        report = cors_unsafe_bytes(value)
        assert report.unsafe == (), context
        assert engine.is_cors_safelisted(value) is (len(value) <= 128), context
    with pytest.raises(TypeError):
        BROWSER_DEFAULTS["navigate"] = "x"  # type: ignore[index]


def test_browser_defaults_negotiate_sensibly() -> None:
    api = ["application/json", "text/html"]
    assert fastaccept.negotiate(BROWSER_DEFAULTS["chrome-navigate"], api) == "text/html"
    assert fastaccept.negotiate(BROWSER_DEFAULTS["curl"], api) == "application/json"
    assert fastaccept.negotiate(BROWSER_DEFAULTS["jdk-legacy"], api) == "text/html"
    images = ["image/jpeg", "image/webp", "image/png"]
    assert (
        fastaccept.negotiate(BROWSER_DEFAULTS["chrome-image"], images) == "image/webp"
    )
    assert fastaccept.negotiate(BROWSER_DEFAULTS["image"], images) == "image/png"


def test_cors_unsafe_bytes() -> None:
    report = cors_unsafe_bytes('a/b;p="x",c/d')
    assert report.safelisted is False and report.too_long is False
    assert report.unsafe == ((6, 0x22), (8, 0x22))
    long_report = cors_unsafe_bytes("a" * 129)
    assert (long_report.safelisted, long_report.too_long, long_report.length) == (
        False,
        True,
        129,
    )
    assert cors_unsafe_bytes(b"a/b,\tc/d\xe9").safelisted is True
    assert cors_unsafe_bytes("a/\u20ac").unsafe == ((2, 0x20AC),)
    assert cors_unsafe_bytes("a/b\x1f\x7f").unsafe == ((3, 0x1F), (4, 0x7F))
    # Bytes 0x80-0xFF are not unsafe, 0xFF the last of them; U+0100 is no byte.
    assert cors_unsafe_bytes(b"a/b\xff") == (True, 4, False, ())
    assert cors_unsafe_bytes("a/b\xff\u0100").unsafe == ((4, 0x100),)


def test_cors_unsafe_bytes_reads_no_more_than_max_length() -> None:
    # A pair for each unsafe byte: unbounded, a megabyte of quotes would
    # make a report some 90 times its size. The limit is parse's (rule 8).
    assert len(cors_unsafe_bytes('"' * 8192).unsafe) == 8192
    for value in ('"' * 8193, b'"' * 8193, memoryview(b"a" * 8193)):
        with pytest.raises(AcceptError, match="over the limit of 8192"):
            cors_unsafe_bytes(value)
    with pytest.raises(AcceptError, match="over the limit of 3"):
        cors_unsafe_bytes("a/b;", max_length=3)
    assert len(cors_unsafe_bytes('"' * 9000, max_length=None).unsafe) == 9000
    assert cors_unsafe_bytes(None, max_length=0).safelisted is True
    with pytest.raises(TypeError, match="max_length"):
        cors_unsafe_bytes("a/b", max_length=True)
    # A value made by hand is judged on its whole text, whatever its length.
    made = fastaccept.Accept([MediaRange("a", "b", (("p", "x" * 9000),), 1000)])
    assert made.cors_safelisted is False


def test_an_absent_accept_is_cors_safelisted(engine: Engine) -> None:
    """``None`` is the header absent, as everywhere: nothing in it is unsafe."""
    assert engine.is_cors_safelisted(None) is True
    assert engine.parse(None).cors_safelisted is True
    assert cors_unsafe_bytes(None) == (True, 0, False, ())
    with pytest.raises(TypeError, match="not int"):
        engine.is_cors_safelisted(0)


def test_public_names() -> None:
    for name in fastaccept.__all__:
        assert hasattr(fastaccept, name), name
    assert fastaccept.IMPLEMENTATION in ("cython", "python")
    assert issubclass(AcceptError, ValueError)
    # What dir() shows a user: the public names, private modules and, once
    # imported, the integration modules; nothing else (no `annotations` from a
    # __future__ import, no helpers).
    public = {name for name in dir(fastaccept) if not name.startswith("_")}
    assert public - {"asgi", "wsgi"} == set(fastaccept.__all__)


def test_the_parsed_values_and_versioned_hints_resolve_at_run_time() -> None:
    # typing.get_type_hints, as a framework reading annotations calls it:
    # no private ClassVar declared for the type checker alone, and Self.
    for kind in (
        fastaccept.Accept,
        fastaccept.AcceptEncoding,
        fastaccept.AcceptLanguage,
    ):
        assert typing.get_type_hints(kind) == {}
    # Self where typing has it (3.11+), Any before.
    self_type = getattr(typing, "Self", typing.Any)
    for maker in (fastaccept.Produces.versioned, fastaccept.Renderers.versioned):
        assert typing.get_type_hints(maker)["return"] is self_type
    # Every public name and its public methods, on this engine: no name that
    # only a type checker imports (ClassVar, Any, Self) left for them to
    # resolve; a class's signature too (its __new__ or __init__, as FastAPI's
    # Depends reads a class).
    for name in fastaccept.__all__:
        found = getattr(fastaccept, name)
        if isinstance(found, type):
            typing.get_type_hints(found)
            inspect.signature(found, eval_str=True)
            for method in dir(found):  # inherited too (the pure engine's choose)
                if not method.startswith("_") and callable(getattr(found, method)):
                    typing.get_type_hints(getattr(found, method))
        elif callable(found):
            typing.get_type_hints(found)


def _implementation(env: dict[str, str]) -> str:
    code = "import fastaccept; print(fastaccept.IMPLEMENTATION, fastaccept.Negotiator.__module__)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_env_var_forces_pure_python() -> None:
    assert (
        _implementation({"FASTACCEPT_NO_EXTENSIONS": "1"})
        == "python fastaccept._scan_py"
    )


def test_the_cython_engine_is_chosen_where_built() -> None:
    cython_engine()
    assert (
        _implementation({"FASTACCEPT_NO_EXTENSIONS": ""}) == "cython fastaccept._scan"
    )
    assert (
        _implementation({"FASTACCEPT_NO_EXTENSIONS": "0"}) == "cython fastaccept._scan"
    )


@pytest.mark.parametrize(
    ("name", "offers", "value", "replacement"),
    [
        ("negotiate", ["application/json", "text/html"], "text/html", "text/csv"),
        ("negotiate_encoding", ["gzip", "br"], "br, identity;q=0", "zstd"),
        ("negotiate_language", ["en", "fr"], "fr", "de"),
    ],
)
def test_one_call_forms_see_an_offers_list_changed_in_place(
    engine: Engine, name: str, offers: list[str], value: str, replacement: str
) -> None:
    call = getattr(engine, name)
    offers = offers.copy()  # the parameter's own list serves each engine
    wanted = offers[1]
    assert call(value, offers) == wanted
    offers[1] = replacement  # same list object, different item
    assert call(value, offers) is None
    offers.append(wanted)  # same list object, longer
    assert call(value, offers) == wanted
    assert call(value, list(offers)) == wanted  # a new list of the same objects
    offers[2] = replacement  # then the last list but one changed in place
    assert call(value, offers) is None
    offers[2] = wanted
    own = "".join(wanted)  # equal offers, another object: this call's comes back
    assert own is not wanted
    assert call(value, [*offers[:2], own]) is own
    assert call(value, offers, max_length=None) == wanted
    with pytest.raises(AcceptError):
        call(value, offers, max_length=1)


def test_each_one_call_form_checks_a_max_length_equal_to_the_last_one(
    engine: Engine,
) -> None:
    """A float or bool equal to the last call's ``max_length`` is refused."""
    calls: dict[str, tuple[Callable[[object], object], object]] = {
        "negotiate": (lambda n: engine.negotiate("a/b", ["a/b"], max_length=n), "a/b"),
        "quality": (lambda n: engine.quality("a/b", "a/b", max_length=n), 1.0),
        "negotiate_encoding": (
            lambda n: engine.negotiate_encoding("br", ["br"], max_length=n),
            "br",
        ),
        "negotiate_language": (
            lambda n: engine.negotiate_language("en", ["en"], max_length=n),
            "en",
        ),
    }
    for name, (call, answer) in calls.items():
        assert call(1000) == answer, name
        with pytest.raises(TypeError, match="max_length"):
            call(1000.0)
        with pytest.raises(AcceptError):
            call(1)  # its negotiator is kept, then the value is too long
        with pytest.raises(TypeError, match="max_length"):
            call(True)


@pytest.mark.parametrize("kept", ["last", "dict"])
def test_a_qs_equal_to_a_kept_one_is_still_checked(engine: Engine, kept: str) -> None:
    """``True == 1`` and ``1+0j == 1``, but a pair refuses both whatever
    ``negotiate`` keeps; an equal qs of another valid type is served."""
    valid = [("a/b", 1), ("c/d", 0.5)]
    assert engine.negotiate("*/*", valid) == "a/b"
    if kept == "dict":  # the kept negotiator found by its key, not as the last
        assert engine.negotiate("*/*", ["e/f"]) == "e/f"
    for bad, kind in (
        (True, TypeError),
        (1 + 0j, TypeError),
        (Decimal("sNaN"), ValueError),
    ):
        with pytest.raises(kind, match="invalid qs"):
            engine.negotiate("*/*", [("a/b", bad), ("c/d", 0.5)])
    assert (
        engine.negotiate("*/*", [("a/b", Decimal(1)), ("c/d", Fraction(1, 2))]) == "a/b"
    )
    assert engine.negotiate("c/d", [("a/b", 1), ("c/d", 0)]) is None
    with pytest.raises(TypeError, match="invalid qs False"):
        engine.negotiate("c/d", [("a/b", 1), ("c/d", False)])


def _import_from_copy(
    tmp_path: Path, broken_engine: bool
) -> subprocess.CompletedProcess[str]:
    """Import a copy of the package's Python files: no compiled engine in it."""
    copy = tmp_path / "fastaccept"
    copy.mkdir()
    for source in Path(fastaccept.__file__).parent.glob("*.py"):
        (copy / source.name).write_text(source.read_text(encoding="utf-8"))
    if broken_engine:  # an engine that is there but cannot load
        (copy / "_scan.py").write_text('raise ImportError("undefined symbol: x")\n')
    return subprocess.run(
        [sys.executable, "-c", "import fastaccept; print(fastaccept.IMPLEMENTATION)"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "FASTACCEPT_NO_EXTENSIONS": ""},
        capture_output=True,
        text=True,
    )


def test_without_the_extension_the_pure_engine_is_chosen(tmp_path: Path) -> None:
    done = _import_from_copy(tmp_path, broken_engine=False)
    assert (done.returncode, done.stdout.strip()) == (0, "python"), done.stderr


def test_a_broken_extension_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    done = _import_from_copy(tmp_path, broken_engine=True)
    assert done.returncode != 0
    assert "undefined symbol: x" in done.stderr


def test_parsed_values_cannot_be_changed(engine: Engine) -> None:
    """Values, as docs/api.md says: hashed by what they hold, which stays."""
    for parsed in (
        engine.parse("text/html, bad"),
        engine.parse_encoding("gzip, x;q=2"),
        engine.parse_language("en, *;q=x"),
    ):
        before = hash(parsed)
        names = ["present", "skipped"]
        if isinstance(parsed, Accept):
            names.append("cors_safelisted")
        for name in names:
            with pytest.raises(AttributeError, match=r"no setter|can't set"):
                setattr(parsed, name, False)
        assert hash(parsed) == before and parsed.present and len(parsed.skipped) == 1


def test_public_named_tuples_carry_their_field_types() -> None:
    """``typing.get_type_hints`` (pydantic, FastAPI and Litestar models)."""
    assert typing.get_type_hints(MediaRange) == {
        "type": str,
        "subtype": str,
        "params": tuple[tuple[str, str], ...],
        "weight": int,
    }
    assert typing.get_type_hints(fastaccept.Coding) == {"coding": str, "weight": int}
    assert (
        typing.get_type_hints(fastaccept.CorsReport)["unsafe"]
        == (tuple[tuple[int, int], ...])
    )
    assert (
        typing.get_type_hints(fastaccept.AcceptQuery)["members"]
        == (tuple[MediaRange, ...])
    )


def test_the_documented_forms_type_check_as_they_run() -> None:
    """mypy --strict reads this file too: each line is a documented use."""
    accept = fastaccept.parse("text/markdown, text/html;q=0.5")
    explicit: str | None = accept.best(
        [fastaccept.Offer("text/markdown", explicit=True)]
    )
    mixed: str | int = accept.best(["text/html", ("text/markdown", 0.9)], 0)
    assert (explicit, mixed) == ("text/markdown", "text/markdown")

    class Versions(fastaccept.Produces):
        pass

    made: Versions = Versions.versioned("application/vnd.a+json", ["1"], default="1")
    assert type(made) is Versions
    answer = fastaccept.Answer({}, headers={"Location": "/x"})
    assert [(name.lower(), value) for name, value in answer.headers] == [
        ("location", "/x")
    ]
    # A list mixing a media type with a pair is a list of objects unless
    # annotated: the aliases the signatures use are public for that.
    offers: list[fastaccept.OfferSpec] = ["application/json", ("text/html", 0.9)]
    header: fastaccept.HeaderValue = b"text/html, application/json;q=0.8"
    page: fastaccept.Renderer = "<p>{}</p>".format
    chosen: str | None = fastaccept.negotiate(header, offers)
    assert chosen == fastaccept.Produces(offers).select(header).media_type
    sent = fastaccept.Renderers({"application/json": str, offers[1]: page})
    assert sent.respond(header, 1).body == b"<p>1</p>"
    # Types, not Any (which a module __getattr__ that type checkers saw would
    # give any name): each ignore below would be unused, an error under --strict.
    not_offers: list[fastaccept.OfferSpec] = [1]  # type: ignore[list-item]
    not_header: fastaccept.HeaderValue = 1  # type: ignore[assignment]
    not_renderer: fastaccept.Renderer = 1  # type: ignore[assignment]
    del not_offers, not_header, not_renderer
    with pytest.raises(AttributeError, match="'Negotiater'"):  # misspelled
        _ = fastaccept.Negotiater  # type: ignore[attr-defined]
    assert fastaccept.OfferSpec == str | tuple[str, float] | fastaccept.Offer


def test_a_str_subclass_is_read_as_its_text(engine: Engine) -> None:
    # Its own methods (a lower() that answers something else) are not its
    # text's: values and offers are read as the compiled engine reads them,
    # and an offer read wrongly would stay kept for later calls.
    class Other(str):
        def lower(self) -> str:
            return "zz"

        def isascii(self) -> bool:
            return False

    assert engine.negotiate_encoding(Other("br"), ["br"]) == "br"
    assert engine.negotiate_language(Other("de"), ["de"]) == "de"
    assert engine.parse_encoding(Other("BR"))[0].coding == "br"
    assert engine.parse_language(Other("de-CH"))[0].range == "de-ch"
    assert engine.negotiate(Other("TEXT/HTML"), ["text/html"]) == "text/html"
    tags = [Other("en"), Other("fr")]
    assert engine.negotiate_language("fr", tags) is tags[1]
    assert engine.negotiate_language("fr", ["en", "fr"]) == "fr"
    assert engine.EncodingNegotiator([Other("br")]).choose("br") == "br"


@pytest.mark.parametrize(
    ("kind", "offers", "value", "chosen"),
    [
        ("Negotiator", ["text/html", "application/json"], "text/html", "text/html"),
        ("EncodingNegotiator", ["gzip", "br"], "gzip", "gzip"),
        ("LanguageNegotiator", ["en", "fr"], "en", "en"),
    ],
)
def test_a_subclass_choose_index_changes_that_method_alone(
    engine: Engine, kind: str, offers: list[str], value: str, chosen: str
) -> None:
    # The compiled engine's methods call one another directly; the pure
    # engine's do the same (docs/api.md, "Subclasses").
    class Pinned(getattr(engine, kind)):  # type: ignore[misc]
        def choose_index(self, value: object) -> int:
            return 1

    pinned = Pinned(offers)
    assert pinned.choose_index(value) == 1
    assert pinned.choose(value) == chosen
    assert pinned.variant_key(value) == chosen


@pytest.mark.parametrize(
    ("kind", "offers", "value"),
    [
        ("Negotiator", ["text/html", "application/json"], "application/json"),
        ("EncodingNegotiator", ["gzip", "br"], "br"),
        ("LanguageNegotiator", ["en", "fr"], "fr"),
    ],
)
def test_a_subclass_init_calls_the_negotiators(
    engine: Engine, kind: str, offers: list[str], value: str
) -> None:
    # docs/api.md, "Subclasses": __init__ with the negotiator's arguments,
    # and __new__ too where it takes others.
    class Labelled(getattr(engine, kind)):  # type: ignore[misc]
        def __init__(self, offers: list[str], **options: object) -> None:
            super().__init__(offers, **options)
            self.label = "site"

    class Named(getattr(engine, kind)):  # type: ignore[misc]
        def __new__(cls, offers: list[str], name: str) -> Named:
            made: Named = super().__new__(cls, offers)
            return made

        def __init__(self, offers: list[str], name: str) -> None:
            super().__init__(offers)
            self.name = name

    labelled = Labelled(offers, cache_size=2)
    assert (labelled.label, labelled.choose(value)) == ("site", value)
    named = Named(offers, "api")
    assert (named.name, named.choose(value)) == ("api", value)


def test_a_subclass_is_made_as_its_own_type() -> None:
    # mypy reads this file: a subclass's call is typed as the subclass, and
    # makes one on either engine. pyright too, as __new__ names no return
    # type (the typing spec: a class named there is the call's type).
    for kind in (
        fastaccept.Negotiator,
        fastaccept.EncodingNegotiator,
        fastaccept.LanguageNegotiator,
    ):
        assert "return" not in typing.get_type_hints(kind.__new__)

    class Mine(fastaccept.Negotiator):
        def own(self) -> str:
            return "mine"

    class Coded(fastaccept.EncodingNegotiator):
        def own(self) -> str:
            return "coded"

    made: Mine = Mine(["text/html"])
    coded: Coded = Coded(["gzip"])
    assert (type(made), made.own(), type(coded), coded.own()) == (
        Mine,
        "mine",
        Coded,
        "coded",
    )


@pytest.mark.parametrize(
    ("kind", "offer"),
    [("Negotiator", "a/b"), ("EncodingNegotiator", "br"), ("LanguageNegotiator", "en")],
)
def test_a_pure_negotiator_is_not_made_of_refused_limits(kind: str, offer: str) -> None:
    # A subclass's __del__ kept the half-made object, which answered
    # ``choose`` and whose repr and copy raised AttributeError.
    found: list[object] = []

    class Kept(getattr(ENGINES["python"], kind)):  # type: ignore[misc]
        def __del__(self) -> None:
            found.append(self)

    with pytest.raises(ValueError, match="cache_size"):
        Kept([offer], cache_size=-1)
    with pytest.raises(TypeError, match="max_length"):
        Kept([offer], max_length="8")
    assert found == []


@pytest.mark.parametrize(
    ("kind", "offer"),
    [("Negotiator", "a/b"), ("EncodingNegotiator", "br"), ("LanguageNegotiator", "en")],
)
def test_a_half_made_compiled_negotiator_cannot_be_reached(
    kind: str, offer: str
) -> None:
    # Code that making a negotiator runs (an offers iterable, an __index__)
    # found the half-made object by gc.get_objects; when making it then
    # failed, reading it crashed the interpreter (its C offers unset).
    engine = cython_engine()
    negotiator = getattr(engine, kind)
    found: list[object] = []
    before = [o for o in gc.get_objects() if type(o) is negotiator]  # other tests'

    def look() -> None:
        found.extend(
            o
            for o in gc.get_objects()
            if type(o) is negotiator and not any(o is old for old in before)
        )

    def offers() -> typing.Iterator[str]:
        look()
        raise LookupError("no offers")
        yield offer

    class Size:
        def __index__(self) -> int:
            look()
            raise LookupError("no size")

    with pytest.raises(LookupError, match="no offers"):
        negotiator(offers())
    with pytest.raises(LookupError, match="no size"):
        negotiator([offer], cache_size=Size())
    assert found == []

    class Kept(getattr(engine, kind)):  # type: ignore[misc]
        def __del__(self) -> None:  # CPython finalizes a failed one too
            found.append(self)

    with pytest.raises(LookupError, match="no size"):
        Kept([offer], cache_size=Size())
    unmade: typing.Any = found.pop()
    assert found == []
    reads = [unmade.choose, unmade.variant_key, unmade.choose_index, unmade.rank]
    reads.append(unmade._refusal if kind == "Negotiator" else unmade._ranked)
    for read in reads:
        for value in (None, "", offer):
            with pytest.raises(RuntimeError, match="was not made: its constructor"):
                read(value)
    given = {
        "Negotiator": ["offers", "media_types"],
        "EncodingNegotiator": ["codings"],
        "LanguageNegotiator": ["tags"],
    }[kind]
    for name in given:  # what was stored before its limits were refused
        with pytest.raises(RuntimeError, match="was not made: its constructor"):
            getattr(unmade, name)
    # By its arguments, which were never all kept: a repr or a copy showed a
    # negotiator of ``cache_size=0, max_length=None`` (a copy, a working one
    # with no length limit)
    for by_arguments in (repr, copy.copy, pickle.dumps, hash, unmade.__eq__):
        with pytest.raises(RuntimeError, match="was not made: its constructor"):
            by_arguments(unmade)
    found.clear()

    class Linked(getattr(engine, kind)):  # type: ignore[misc]
        pass

    made = Linked([offer])  # listed again once whole: a cycle through it is freed
    made.self, made.mark = made, Size()
    assert gc.is_tracked(made)
    gone = weakref.ref(made.mark)
    del made
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize(
    ("kind", "offer"),
    [("Negotiator", "a/b"), ("EncodingNegotiator", "br"), ("LanguageNegotiator", "en")],
)
def test_a_subclass_changes_its_own_attributes(
    engine: Engine, kind: str, offer: str
) -> None:
    # docs/api.md, "Subclasses": its own attributes, in a __dict__ or
    # __slots__ of its own, are its own; the negotiator's stay as made.
    class Counting(getattr(engine, kind)):  # type: ignore[misc]
        __slots__ = ("__dict__", "hits")

    counting = Counting([offer])
    counting.hits = counting.label = 0
    counting.hits += 1
    counting.label = "site"
    assert (counting.hits, counting.label) == (1, "site")
    del counting.hits, counting.label
    assert not hasattr(counting, "hits") and not hasattr(counting, "label")
    assert counting.choose(offer) == offer
    with pytest.raises((AttributeError, TypeError)):  # but its class stays
        counting.__class__ = getattr(engine, kind)


def test_one_call_forms_see_offers_with_pairs_grow_and_shrink(engine: Engine) -> None:
    # Offers holding a pair are compared with the last call's by identity,
    # item by item: the same objects, fewer or more of them, are other offers.
    pair, json = ("text/html", 1.0), "application/json"
    assert engine.negotiate(json, [pair, json]) == json
    assert engine.negotiate(json, [pair]) is None
    assert engine.negotiate(json, [pair, json]) == json
