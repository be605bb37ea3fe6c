"""``Produces(..., variants=True)`` (docs/web.md, "Variants for caches"):
``Variants`` and ``Variant-Key`` (draft-ietf-httpbis-variants-06 §2, §3,
appendix A.1) beside ``Vary`` on every answer chosen by Accept, none on a
refusal or a format override; offers the draft's cache cannot tell apart
refused when made. A cache that runs the draft's algorithm over the headers
is modelled here, from the draft's text, and chooses what ``select`` chose
on the table of everyday values."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Offer, Produces, Renderers, parse

from .test_formats import _wsgi_get

OFFERS = ["text/html; charset=utf-8", "application/json", "text/csv", "3gpp/x"]
VARIANTS = 'accept=(text/html application/json text/csv "3gpp/x")'


def test_every_answer_chosen_by_accept_lists_the_variants() -> None:
    produces = Produces(OFFERS, variants=True)
    assert produces.variants and not Produces(OFFERS).variants
    for accept, key in [
        (None, "(text/html)"),
        ("*/*", "(text/html)"),
        ("application/json", "(application/json)"),
        ("text/csv;q=0.9, text/html;q=0.1", "(text/csv)"),
        ("3gpp/*", '("3gpp/x")'),  # a String where the type is no Token
    ]:
        decision = produces.select(accept)
        assert decision.ok
        assert decision.headers["Vary"] == "Accept"  # for caches without Variants
        assert decision.headers["Variants"] == VARIANTS
        assert decision.headers["Variant-Key"] == key


def test_refusals_and_format_overrides_carry_none() -> None:
    produces = Produces(OFFERS, variants=True, formats=True, max_length=20)
    for decision in (
        produces.select("image/png"),  # 406
        produces.select("a/b, " * 10),  # 431
        produces.select("text/html", format="csv"),  # no Vary: Accept either
    ):
        assert "Variants" not in decision.headers, decision
        assert "Variant-Key" not in decision.headers, decision


def test_a_default_answers_with_its_own_key() -> None:
    produces = Produces(OFFERS, default=OFFERS[0], variants=True)
    assert produces.select("image/png").headers["Variant-Key"] == "(text/html)"


def test_renderers_pass_them_on_with_the_applications_vary() -> None:
    renderers = Renderers({"text/html": str, "text/csv": str}, variants=True)
    rendered = renderers.respond("text/csv", "x", vary="Origin")
    assert rendered.headers["Variants"] == "accept=(text/html text/csv)"
    assert rendered.headers["Variant-Key"] == "(text/csv)"
    assert rendered.headers["Vary"] == "Origin, Accept"
    head = renderers.respond("text/csv", "x", method="HEAD")
    assert (head.body, head.headers["Variant-Key"]) == (b"", "(text/csv)")
    assert renderers.produces.variants


def test_a_handlers_variants_headers_are_refused_not_joined() -> None:
    # Each key lists one value per axis of Variants: "(text/csv), zzz" or a
    # second axis in Variants alone would be malformed for the cache.
    renderers = Renderers({"text/html": str, "text/csv": str}, variants=True)
    chosen = renderers.produces.select("text/csv")
    for name in ("Variant-Key", "variants"):
        with pytest.raises(ValueError, match=f"header '{name}' is set by the"):
            renderers.render(chosen, "x", headers={name: "(zzz)"})
    # Where the answer carries neither, a handler's are its own.
    formatted = Renderers(
        {"text/html": str, "text/csv": str}, variants=True, formats=True
    )
    by_name = formatted.produces.select(None, format="csv")
    sent = formatted.render(by_name, "x", headers={"Variant-Key": "(zzz)"})
    assert sent.headers["Variant-Key"] == "(zzz)"
    plain = Renderers({"text/html": str, "text/csv": str})
    sent = plain.render(
        plain.produces.select("text/csv"), "x", headers={"Variants": "a=(b)"}
    )
    assert sent.headers["Variants"] == "a=(b)"


def test_variants_are_part_of_the_arguments() -> None:
    produces = Produces(OFFERS, variants=True)
    assert produces == Produces(OFFERS, variants=True) != Produces(OFFERS)
    assert pickle.loads(pickle.dumps(produces)).select(None).headers == (
        produces.select(None).headers
    )
    assert "variants=True" in repr(produces)
    assert "variants" not in repr(Produces(OFFERS))


@pytest.mark.parametrize(
    ("offers", "arguments", "error", "message"),
    [
        (["a/b;v=1", "a/b;v=2"], {}, ValueError, "differ only in parameters"),
        (["a/b", "A/B;x=1"], {}, ValueError, "differ only in parameters"),
        ([Offer("text/markdown", explicit=True)], {}, ValueError, "is explicit"),
        ([("a/b", 0.5)], {}, ValueError, "a qs other than 1"),
        (["a/b", "c/d"], {"default": "c/d"}, ValueError, "must be the first"),
        # no offer at all: said so, as without variants
        (["a/b", "c/d"], {"default": "e/f"}, ValueError, "is not one of the offers"),
        (["a/b"], {"variants": 1}, TypeError, "variants must be True or False"),
        (["a/b"], {"variants": "yes"}, TypeError, "variants must be True or False"),
    ],
)
def test_offers_a_cache_cannot_tell_apart_are_refused_when_made(
    offers: list[Any], arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Produces(offers, **{"variants": True, **arguments})


def test_versioned_offers_cannot_be_described() -> None:
    with pytest.raises(ValueError, match="differ only in parameters"):
        Produces(
            ["application/vnd.a+json;version=2", "application/vnd.a+json;version=1"],
            variants=True,
        )


@pytest.fixture(scope="module")
def http_sf() -> Any:
    """The RFC 9651 parser, imported (or the test skipped) before Hypothesis
    runs an example: a skip inside one reads as a failure."""
    return pytest.importorskip("http_sf", reason="the [test] extra's")


@given(
    st.lists(
        st.from_regex(
            r"[a-z0-9][a-z0-9.+-]{0,6}/[a-z0-9][a-z0-9.+-]{0,6}", fullmatch=True
        ),
        min_size=1,
        max_size=6,
        unique_by=str.lower,
    )
)
def test_the_headers_parse_as_the_draft_defines_them(
    http_sf: Any, types: list[str]
) -> None:
    """Variants an RFC 9651 Dictionary whose ``accept`` member is an Inner
    List of the offers; Variant-Key a List of Inner Lists, each of as many
    members as Variants has (one): the chosen offer."""
    produces = Produces(types, variants=True)
    for index, media_type in enumerate(types):
        headers = produces.select(media_type).headers
        variants = http_sf.parse(headers["Variants"].encode(), tltype="dictionary")
        assert list(variants) == ["accept"]
        assert [str(item) for item, _ in variants["accept"][0]] == types
        key = http_sf.parse(headers["Variant-Key"].encode(), tltype="list")
        assert [[str(item) for item, _ in member[0]] for member in key] == [
            [types[index]]
        ]


# --- A cache that implements the draft (appendix A.1, "Accept") ----------


def draft_choice(accept: str | None, available: list[str]) -> str:
    """The first of the draft's preferred-available for Accept: the types by
    weight, highest first (q=0 left out); for each, the available values it
    matches (by media-range matching, ignoring parameters); the first
    available value where none matches."""
    ranges = [] if accept is None else list(parse(accept))
    preferred: list[str] = []
    for rng in sorted((r for r in ranges if r.weight), key=lambda r: -r.weight):
        for value in available:
            type_, subtype = value.split("/")
            if rng.type in ("*", type_) and rng.subtype in ("*", subtype):
                preferred.append(value)
    return (preferred or available)[0]


#: Everyday values: browsers' navigations, fetches, API clients, curl.
EVERYDAY = [
    None,
    "*/*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json",
    "application/json, text/plain, */*",
    "text/csv;q=0.9, application/json;q=0.5",
    "text/*",
    "image/png",  # none: both fall back to the first
]


@pytest.mark.parametrize("accept", EVERYDAY)
def test_a_draft_cache_chooses_what_the_origin_chose(accept: str | None) -> None:
    offers = ["text/html", "application/json", "text/csv"]
    produces = Produces(offers, default="text/html", variants=True)
    key = produces.select(accept).headers["Variant-Key"]
    assert key == f"({draft_choice(accept, offers)})"


@pytest.mark.parametrize(
    ("accept", "origin", "cache"),
    [
        # At equal weights the draft follows the client's order, the origin
        # the offers' order: either is as acceptable (docs/web.md).
        ("text/csv, text/html", "text/html", "text/csv"),
        # A q=0 under a wildcard: the draft's cache still lists text/html.
        ("*/*, text/html;q=0", "application/json", "text/html"),
    ],
)
def test_where_the_draft_cache_differs(accept: str, origin: str, cache: str) -> None:
    """The differences docs/web.md names, shown: the headers describe the
    offers; the cache's algorithm is the draft's."""
    offers = ["text/html", "application/json", "text/csv"]
    assert Produces(offers, variants=True).select(accept).media_type == origin
    assert draft_choice(accept, offers) == cache


def test_an_endpoint_sends_them() -> None:
    from fastaccept.wsgi import negotiated

    renderers = Renderers({"text/html": str, "text/csv": str}, variants=True)
    app = negotiated(renderers, vary="Cookie")(lambda environ: "x")
    status, headers = _wsgi_get(app, "", "text/csv")
    assert (status, headers["Variant-Key"]) == ("200 OK", "(text/csv)")
    assert headers["Vary"] == "Cookie, Accept"
