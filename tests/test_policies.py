"""The negotiation policies of docs/rules.md rules 20 and on.

The vectors in ``conformance/policies.jsonl`` are the project's own (the
shared set predates these rules); every entry point answers them on both
engines, and the web layer through the active one.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Consumes, MediaRange, Offer, Produces, Renderers, _match, _member

from .conftest import Engine
from .test_conformance import load
from .test_server_weights import offers_of

VECTORS = load("policies.jsonl")


@pytest.mark.parametrize("case", VECTORS, ids=[case["id"] for case in VECTORS])
def test_vectors(engine: Engine, case: dict[str, Any]) -> None:
    offers, accept, expected = offers_of(case), case["accept"], case["expected"]
    negotiator = engine.Negotiator(offers)
    assert engine.negotiate(accept, offers) == expected, case["note"]
    assert negotiator.choose(accept) == expected, case["note"]
    assert negotiator.variant_key(accept) == (expected or "")
    index = negotiator.choose_index(accept)
    assert (negotiator.media_types[index] if index >= 0 else None) == expected
    ranked = negotiator.rank(accept)
    assert (ranked[0][0] if ranked else None) == expected
    if accept is not None:
        parsed = engine.parse(accept)
        assert parsed.best(offers) == expected
        assert parsed.rank(offers) == ranked
    if expected is not None:  # the client's weight, for any offer it reaches
        assert engine.quality(accept, expected) > 0


@pytest.mark.parametrize("case", VECTORS, ids=[case["id"] for case in VECTORS])
def test_vectors_in_the_web_layer(case: dict[str, Any]) -> None:
    decision = Produces(offers_of(case)).select(case["accept"])
    if case["expected"] is None:
        assert decision.status == 406
    else:
        assert (decision.status, decision.media_type) == (200, case["expected"])


@pytest.mark.parametrize(
    ("takes", "content_type", "status"),
    [
        ("application/json; charset=utf-8", "application/json", 200),
        ("application/json; charset=utf-8", "application/json; charset=UTF-8", 200),
        ("application/json; charset=utf-8", "application/json; charset=latin1", 415),
        ("application/*; charset=utf-8", "application/merge-patch+json", 200),
        ("text/plain; charset=utf-8", "text/plain", 415),
        # A suffix range (rule 22).
        ("application/*+json", "application/merge-patch+json", 200),
        ("application/*+json", "Application/Merge-Patch+JSON; charset=utf-8", 200),
        ("application/*+json", "application/json", 415),
        ("application/*+json", "text/hal+json", 415),
        ("application/*+json", "application/*+json", 415),  # not a media type
        ("application/*+json", "application/+json", 415),  # malformed
        ("application/*+json; charset=utf-8", "application/merge-patch+json", 200),
        ("application/*+json; v=1", "application/hal+json; v=2", 415),
    ],
)
def test_consumes_policies(takes: str, content_type: str, status: int) -> None:
    # Rules 20 and 22 where a request's Content-Type meets the types a
    # resource takes.
    decision = Consumes([takes]).check(content_type)
    assert decision.status == status
    if status == 200:
        assert decision.media_type == takes


def test_an_offer_is_a_value(engine: Engine) -> None:
    markdown = "".join(["text/", "markdown"])  # an object of its own
    offer = Offer(markdown, 0.5, explicit=True)
    assert (offer.media_type, offer.qs, offer.explicit) == (markdown, 0.5, True)
    assert offer == Offer("text/markdown", 0.5, explicit=True)
    assert offer != Offer("text/markdown", 0.5)
    assert hash(offer) == hash(Offer("text/markdown", 0.5, explicit=True))
    assert repr(offer) == "Offer('text/markdown', 0.5, explicit=True)"
    assert repr(Offer("a/b")) == "Offer('a/b')"
    assert pickle.loads(pickle.dumps(offer)) == offer
    assert copy.copy(offer) == offer
    with pytest.raises(AttributeError):
        offer.explicit = False  # type: ignore[misc]
    # The choice is the very media type object given.
    assert engine.negotiate("text/markdown", [offer]) is markdown
    assert engine.Negotiator([offer]).choose("text/markdown") is markdown
    assert engine.Negotiator([offer, "a/b"]).offers == (offer, "a/b")  # as given
    assert engine.Negotiator([offer, "a/b"]).media_types == (markdown, "a/b")


def test_an_offer_subclass_is_an_offer(engine: Engine) -> None:
    # A server's own kind of Offer (one that names its renderer, say) is
    # taken wherever an Offer is, explicit as it says.
    class Rendered(Offer):
        __slots__ = ()

    markdown, html = (
        Rendered("text/markdown", explicit=True),
        Rendered("text/html", 0.5),
    )
    assert engine.negotiate("text/markdown", [markdown, html]) == "text/markdown"
    assert engine.negotiate("*/*", [markdown, html]) == "text/html"
    assert engine.Negotiator([markdown, html]).rank("*/*") == [("text/html", 0.5)]
    assert engine.parse("text/*").best([markdown, html]) == "text/html"


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((("*/*",), {}), ValueError),
        ((("text/html;q=0.5",), {}), ValueError),
        ((("text/html", 2), {}), ValueError),
        ((("text/html", "1"), {}), TypeError),
        ((("text/html",), {"explicit": 1}), TypeError),
        (((b"text/html",), {}), TypeError),
    ],
)
def test_a_bad_offer_raises_when_made(
    arguments: tuple[tuple[Any, ...], dict[str, Any]], error: type[Exception]
) -> None:
    args, kwargs = arguments
    with pytest.raises(error):
        Offer(*args, **kwargs)


def test_a_406_lists_explicit_offers_too() -> None:
    # A client reaches an explicit offer by naming it: the 406 says it is there.
    produces = Produces([Offer("text/markdown", explicit=True), ("text/html", 0.5)])
    assert produces.select("image/png").body.endswith(":\ntext/markdown\ntext/html\n")
    assert Produces([Offer("a/b", explicit=True)]).select("*/*").status == 406


def test_a_406_to_an_absent_header_says_the_offers_must_be_named() -> None:
    # Explicit offers alone answer an absent header 406 (docs/web.md): its
    # body does not blame an Accept header the request did not send.
    produces = Produces([Offer("text/markdown", explicit=True), Offer("a/b", qs=0)])
    assert produces.select(None).body == (
        "406 Not Acceptable: the request has no Accept header, and the media types "
        "available are sent only to a request that names them. Available:\n"
        "text/markdown\n"
    )
    assert produces.select("*/*").body.startswith(
        "406 Not Acceptable: the Accept header allows none"
    )
    # Through Renderers, the whole response decided ahead (the same object
    # each time, whatever the data), to GET and HEAD.
    renderers = Renderers({Offer("text/markdown", explicit=True): str})
    for method in ("GET", "HEAD"):
        sent = renderers.respond(None, "hi", method=method)
        assert sent is renderers.respond(None, "other data", method=method)
        assert sent.status == 406
        assert sent.body == (
            b"" if method == "HEAD" else produces.select(None).body.encode()
        )


def test_renderers_take_offers() -> None:
    renderers = Renderers(
        {
            Offer("text/markdown", explicit=True): lambda data: f"# {data}",
            "text/html": lambda data: f"<h1>{data}</h1>",
        }
    )
    assert renderers.respond("text/markdown", "hi").body == b"# hi"
    assert renderers.respond("*/*", "hi").body == b"<h1>hi</h1>"
    assert renderers.respond(None, "hi").body == b"<h1>hi</h1>"


# --- structured-syntax suffix ranges (rule 22) ----------------------------------


def test_a_suffix_range_is_parsed_as_a_range(engine: Engine) -> None:
    rng = engine.parse("APPLICATION/*+JSON;Version=2;q=0.5")[0]
    assert rng == MediaRange("application", "*+json", (("version", "2"),), 500)
    assert (rng.essence, str(rng)) == (
        "application/*+json",
        "application/*+json;version=2;q=0.5",
    )
    # Between type/* and type/subtype (rule 22), parameters after that.
    assert rng.specificity == (1.5, 1)
    assert MediaRange("text", "*").specificity < (1.5, 0) < (2, 0)
    assert engine.parse("a/*+b")[0].specificity == (1.5, 0)
    assert engine.parse(str(engine.parse("a/*+b;q=0"))) == engine.parse("a/*+b;q=0")


@pytest.mark.parametrize(
    ("media_type", "matched"),
    [
        ("application/hal+json", True),
        ("APPLICATION/Merge-Patch+JSON", True),
        ("application/vnd.a+ber+json;v=1", True),
        ("application/json", False),
        ("application/geo+json-seq", False),
        ("text/hal+json", False),
    ],
)
def test_a_suffix_range_matches(engine: Engine, media_type: str, matched: bool) -> None:
    rng = engine.parse("application/*+json")[0]
    assert rng.matches(media_type) is matched
    assert engine.parse("application/*+json").accepts(media_type) is matched
    assert (engine.quality("application/*+json;q=0.3", media_type) > 0) is matched


def test_the_weight_of_a_suffix_range(engine: Engine) -> None:
    value = "application/*+json;q=0.5, application/*;q=0.2"
    assert engine.quality(value, "application/hal+json") == 0.5
    assert engine.quality(value, "application/json") == 0.2
    assert engine.parse(value).quality("application/hal+json") == 0.5
    value = "application/hal+json;q=0.1, application/*+json"
    assert engine.quality(value, "application/hal+json") == 0.1
    # Two suffix ranges reach it, equally specific (rule 22): the higher q.
    for nested in ("a/*+ld+json;q=0, a/*+json", "a/*+json, a/*+ld+json;q=0"):
        assert engine.quality(nested, "a/v+ld+json") == 1.0
    assert engine.quality(value, "application/vnd.api+json") == 1.0
    offers = ["application/xml", "application/hal+json", "application/json"]
    expected = [("application/hal+json", 0.5), ("application/xml", 0.2)]
    expected.append(("application/json", 0.2))
    value = "application/*+json;q=0.5, application/*;q=0.2"
    assert engine.Negotiator(offers).rank(value) == expected
    assert engine.parse(value).rank(offers) == expected


@pytest.mark.parametrize(
    "media_type", ["application/*+json", "*/*+json", "application/+json", "a/*+"]
)
def test_a_suffix_range_is_no_offer(engine: Engine, media_type: str) -> None:
    with pytest.raises(ValueError):
        engine.Negotiator([media_type])
    with pytest.raises(ValueError):
        engine.negotiate("*/*", ["text/html", media_type])
    with pytest.raises(ValueError):
        Offer(media_type)
    with pytest.raises(ValueError):
        engine.quality("*/*", media_type)
    with pytest.raises(ValueError):
        engine.parse("*/*")[0].matches(media_type)


def test_consumes_lists_a_suffix_range() -> None:
    consumes = Consumes(["application/json", "application/*+json"])
    assert consumes.accept == "application/json, application/*+json"
    decision = consumes.check("application/merge-patch+json")
    assert (decision.media_type, decision.index) == ("application/*+json", 1)
    assert decision.content_type == "application/merge-patch+json"
    for invalid in ("*/*+json", "application/+json", "application/*+"):
        with pytest.raises(ValueError):
            Consumes([invalid])


@given(
    subtype=st.text("ab+", max_size=12),
    suffix=st.text("ab+", max_size=6),
    explicit=st.booleans(),
)
def test_a_suffix_range_reaches_a_type_in_one_pass(
    subtype: str, suffix: str, explicit: bool
) -> None:
    # A client's Content-Type is matched against Consumes' suffix ranges
    # without listing every suffix of its subtype, a list whose total length
    # grows with its square ("a+a+...": 5 ms at 8 KiB, MemoryError at 64 KiB
    # with no limit). Rule 22, written out here: "*+suffix" reaches a subtype
    # that ends in "+suffix" after at least one character, a suffix of one
    # or more characters, and no explicit offer (rule 21); the offers' list
    # holds exactly those.
    offer = _member.ParsedOffer("", "application", subtype, {}, 1000, explicit)
    reaching = (
        ()
        if explicit
        else tuple(
            "*" + subtype[i:] for i in range(1, len(subtype) - 1) if subtype[i] == "+"
        )
    )
    rng = "*+" + suffix
    assert _member.suffix_reaches(rng, offer) == (rng in reaching)
    assert _member.suffix_ranges(offer) == reaching


@pytest.mark.parametrize("length", [2, 127, 128, 4000])
def test_a_suffix_reaches_by_at_most_127_characters(
    engine: Engine, length: int
) -> None:
    # Rule 22: a "+suffix" of at most 127 characters (a subtype name's bound,
    # RFC 6838 §4.2). Every "*+suffix" of an offer's subtype was an essence
    # of its offer set, a total length that grows with its square: 64
    # quality() calls with distinct 8 KB types of many "+" kept 1.1 GB.
    suffix = "+" + "a" * (length - 1)
    offer, rng = "application/x" + suffix, "application/*" + suffix
    reached = length <= 127
    assert (engine.negotiate(rng, [offer]) == offer) is reached
    assert (engine.quality(rng, offer) == 1.0) is reached
    assert (engine.parse(rng).quality(offer) == 1.0) is reached
    assert MediaRange("application", "*" + suffix).matches(offer) is reached
    assert Consumes([rng]).check(offer).ok is reached
    many = _member.ParsedOffer("", "application", "a+" * 4000 + "json", {}, 1000, False)
    listed = _member.suffix_ranges(many)  # "*+json", "*+a+json"...
    assert [len(r) for r in listed] == list(range(128, 5, -2))  # "*" + 127 first


@pytest.mark.thread_unsafe(reason="replaces _match.suffix_ranges")
def test_a_clients_type_is_matched_without_listing_its_suffixes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The list of every "*+suffix" of a subtype is for the offers (a
    # server's); a Content-Type or a media type a request names is matched
    # by its end alone, whatever it holds.
    def listed(offer: Any) -> tuple[str, ...]:
        raise AssertionError(
            f"the suffixes of a {len(offer.subtype)}-long subtype listed"
        )

    monkeypatch.setattr(_match, "suffix_ranges", listed)
    sent = "application/" + "a+" * 4000 + "json"
    decision = Consumes(["application/*+json"]).check(sent)
    assert (decision.ok, decision.media_type) == (True, "application/*+json")
    assert MediaRange("application", "*+json").matches(sent)


def test_renderers_follow_a_suffix_range() -> None:
    renderers = Renderers(
        {
            "text/html": lambda data: f"<p>{data}</p>",
            "application/hal+json": lambda data: json.dumps({"data": data}),
        }
    )
    assert renderers.respond("application/*+json", "hi").body == b'{"data": "hi"}'
    answer = renderers.respond("application/*+xml", "hi")
    assert answer.status == 406
