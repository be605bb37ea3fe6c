"""Renderers: one handler's data in the negotiated representation."""

from __future__ import annotations

import copy
import dataclasses
import functools
import gc
import json
import pickle
import sys
from typing import Any

import pytest

from fastaccept import (
    Answer,
    Consumes,
    Decision,
    Negotiator,
    Produces,
    Rendered,
    Renderers,
    _member,
)

DATA = {"greeting": "héllo"}


def as_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def as_html(data: Any) -> str:
    return f"<p>{data['greeting']}</p>"


def as_csv(data: Any) -> bytes:
    return ("greeting\r\n" + str(data["greeting"]) + "\r\n").encode("utf-8")


def not_called(data: Any) -> str:
    raise AssertionError("a refusal renders nothing")


RENDERERS = Renderers(
    {
        "application/json": as_json,
        "text/html; charset=iso-8859-1": as_html,
        ("text/csv", 0.5): as_csv,
    }
)


@pytest.mark.parametrize(
    ("accept", "content_type", "body"),
    [
        (None, "application/json", '{"greeting": "héllo"}'.encode()),
        (
            "text/html",
            "text/html; charset=iso-8859-1",
            "<p>héllo</p>".encode("latin-1"),
        ),
        ("text/csv, */*;q=0.1", "text/csv", "greeting\r\nhéllo\r\n".encode()),
        # qs: csv at 0.5 x 1 loses to json at 1 x 0.6
        ("text/csv, application/json;q=0.6", "application/json", None),
    ],
)
def test_the_chosen_representation(
    accept: str | None, content_type: str, body: bytes | None
) -> None:
    rendered = RENDERERS.respond(accept, DATA)
    assert rendered.ok and rendered.status == 200
    headers = rendered.headers
    assert headers["Content-Type"] == content_type
    assert headers["Vary"] == "Accept"
    assert headers["Content-Length"] == str(len(rendered.body))
    if body is not None:
        assert rendered.body == body


def test_head_is_get_without_a_body() -> None:
    get = RENDERERS.respond("text/html", DATA)
    head = RENDERERS.respond("text/html", DATA, method="HEAD")
    assert head.body == b""
    assert head.header_items == get.header_items  # Content-Length of the GET body
    assert head.status == get.status


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        ("image/png", "text/plain; charset=utf-8"),
        ("image/png, application/problem+json;q=0.5", "application/problem+json"),
    ],
)
def test_a_refusal_renders_nothing(accept: str, content_type: str) -> None:
    refusing = Renderers({"application/json": not_called})
    rendered = refusing.respond(accept, DATA)
    assert rendered.status == 406
    assert rendered.reason == "Not Acceptable"
    assert rendered.headers["Content-Type"] == content_type
    assert rendered.headers["Content-Length"] == str(len(rendered.body))
    assert b"application/json" in rendered.body
    assert refusing.respond("a/b, */*;q=0", DATA).status == 406


def test_an_over_long_accept_is_431() -> None:
    rendered = Renderers({"a/b": not_called}, max_length=10).respond("a/b, " * 5, DATA)
    assert rendered.status == 431


def test_the_default_representation_instead_of_406() -> None:
    renderers = Renderers({"application/json": as_json}, default="application/json")
    assert renderers.respond("image/png", DATA).headers["Content-Type"] == (
        "application/json"
    )


def test_the_applications_vary_is_kept() -> None:
    rendered = RENDERERS.respond("text/html", DATA, vary="Cookie, accept")
    assert [v for k, v in rendered.header_items if k == "Vary"] == ["Cookie, accept"]
    assert RENDERERS.respond(None, DATA, vary="*").headers["Vary"] == "*"


def test_a_decision_taken_first_then_rendered() -> None:
    decision = RENDERERS.produces.select("text/csv")
    assert decision.ok
    assert RENDERERS.render(decision, DATA) == RENDERERS.respond("text/csv", DATA)


@pytest.mark.parametrize(
    ("renderers", "error", "message"),
    [
        ({"a/b": "not a function"}, TypeError, "must be callable, not str"),
        ({"a/*": as_json}, ValueError, "not ranges with '\\*'"),
        ({"text/plain;charset=klingon": as_json}, ValueError, "unknown charset"),
        # A codec that refuses all text: UnicodeError when it encodes.
        (
            {"text/plain;charset=undefined": as_json},
            ValueError,
            "offer 'text/plain;charset=undefined': unknown charset 'undefined'",
        ),
        # A codec of Python's own: idna would send "é€" as "xn--9ca673n".
        *(
            (
                {f"text/plain;charset={codec}": as_json},
                ValueError,
                f"charset '{codec.lower()}' is a codec of Python's own",
            )
            for codec in ("idna", "Punycode", "unicode_escape", "raw-unicode-escape")
        ),
        ({("text/plain", 0): as_json}, ValueError, "no offer has a qs above 0"),
        ({}, ValueError, "^Renderers needs at least one media type and its renderer$"),
        ([], ValueError, "^Renderers needs at least one"),
    ],
)
def test_bad_renderers_are_refused_at_once(
    renderers: dict[Any, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Renderers(renderers)


async def _awaited(data: Any) -> str:
    return ""


def _yielding(data: Any) -> Any:
    yield ""


async def _streamed(data: Any) -> Any:
    yield ""


class _AwaitedWhenCalled:
    async def __call__(self, data: Any) -> str:
        return ""


@pytest.mark.parametrize(
    "render",
    [
        _awaited,
        _yielding,
        _streamed,
        functools.partial(_awaited),
        _AwaitedWhenCalled(),
        functools.partial(_AwaitedWhenCalled()),  # as the endpoints tell: is_awaited
    ],
    ids=repr,
)
def test_a_renderer_that_gives_its_body_later_is_refused_at_once(render: Any) -> None:
    # Each would fail every response: a coroutine or generator is no body.
    with pytest.raises(TypeError, match=r"must return the body .* not a coroutine or"):
        Renderers({"a/b": render})


def test_a_renderer_must_give_text_or_bytes() -> None:
    def forty_two(data: Any) -> Any:
        return 42

    renderers = Renderers({"a/b": forty_two})
    with pytest.raises(TypeError, match="returned int, not str or bytes"):
        renderers.respond("a/b", DATA)


def test_text_its_charset_cannot_hold_names_the_offer() -> None:
    # The encoder's own error, its reason naming the offer whose renderer
    # gave the text; the chosen offer's text in its charset otherwise.
    renderers = Renderers({"text/plain;charset=us-ascii": str, "text/html": str})
    with pytest.raises(UnicodeEncodeError, match=r"\(the renderer for 'text/plain;"):
        renderers.respond("text/plain", "caf\u00e9")
    assert renderers.respond("text/plain", "cafe").body == b"cafe"
    assert renderers.respond("text/html", "caf\u00e9").body == "caf\u00e9".encode()


def test_renderers_compare_pickle_and_copy_by_their_arguments() -> None:
    again = Renderers(
        [
            ("application/json", as_json),
            ("text/html; charset=iso-8859-1", as_html),
            (("text/csv", 0.5), as_csv),
        ]
    )
    assert again == RENDERERS and hash(again) == hash(RENDERERS)
    assert repr(RENDERERS).startswith("Renderers((('application/json', <function")
    for copied in (pickle.loads(pickle.dumps(RENDERERS)), copy.deepcopy(RENDERERS)):
        assert copied == RENDERERS
        assert copied.respond("text/csv", DATA) == RENDERERS.respond("text/csv", DATA)


def test_rendered_is_a_value() -> None:
    rendered = Rendered(200, (("Content-Type", "a/b"),), b"x")
    assert rendered == Rendered(200, (("Content-Type", "a/b"),), b"x")
    assert rendered.headers == {"Content-Type": "a/b"}


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("accept", ["application/json", "image/png"])
def test_a_response_is_the_value_its_constructor_makes(
    accept: str, method: str
) -> None:
    # Every response is made without the dataclass's __init__ (nor the
    # checks of one made by hand): it is the value written out here, chosen
    # or refused, as hashable, picklable and frozen.
    rendered = RENDERERS.respond(accept, DATA, method=method)
    if accept == "application/json":
        status, content_type, ok = 200, "application/json", True
        body = '{"greeting": "héllo"}'.encode()
    else:
        status, content_type, ok = 406, "text/plain; charset=utf-8", False
        body = RENDERERS.produces.select(accept).body.encode()
    items = (
        ("Content-Type", content_type),
        ("Vary", "Accept"),
        ("Content-Length", str(len(body))),
    )
    expected = Rendered(status, items, b"" if method == "HEAD" else body, ok)
    assert rendered == expected and hash(rendered) == hash(expected)
    assert repr(rendered) == repr(expected)
    assert pickle.loads(pickle.dumps(rendered)) == expected
    with pytest.raises(dataclasses.FrozenInstanceError):
        rendered.status = 201  # type: ignore[misc]


def test_extra_headers_go_with_a_chosen_representation_only() -> None:
    decision = RENDERERS.produces.select("application/json")
    rendered = RENDERERS.render(
        decision, DATA, status=201, headers={"Location": "/m/1"}
    )
    assert rendered.status == 201
    assert [name for name, _ in rendered.header_items] == [
        "Content-Type",
        "Vary",
        "Location",
        "Content-Length",
    ]
    assert rendered.headers["Location"] == "/m/1"
    refused = RENDERERS.produces.select("image/png")
    assert (
        "Location"
        not in RENDERERS.render(refused, None, headers=[("Location", "x")]).headers
    )
    # The headers kept built per decision are not changed by extra headers.
    assert "Location" not in RENDERERS.render(decision, DATA).headers


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_refusal_renders_with_its_own_headers_and_the_vary_given(
    method: str,
) -> None:
    """``render`` sends a refusal (``Consumes``' too, or one made by hand)
    with its status, body and headers, ``vary`` and ``Accept`` merged into
    its ``Vary`` (rule 17: never overwritten); ``status`` and ``headers``
    are for a chosen representation: checked, not sent."""
    by_hand = Decision(
        503,
        "",
        (("Content-Type", "text/plain; charset=utf-8"), ("vary", "Origin, Accept")),
        "down",
    )
    for refused, vary in (
        (
            Consumes(["application/json"]).check("text/csv", None, method="POST"),
            "Cookie, Accept",
        ),
        (RENDERERS.produces.select("image/png"), "Cookie, Accept"),
        (by_hand, "Cookie, Accept, Origin"),
    ):
        rendered = RENDERERS.render(
            refused,
            None,
            method=method,
            vary="Cookie",
            status=201,
            headers={"Location": "/m/1"},
        )
        assert rendered.status == refused.status
        own = {k: v for k, v in refused.header_items if k.lower() != "vary"}
        assert rendered.headers == {
            **own,
            "Vary": vary,
            "Content-Length": str(len(refused.body.encode())),
        }
        assert rendered.body == (b"" if method == "HEAD" else refused.body.encode())


@pytest.mark.parametrize(
    ("headers", "error", "message"),
    [
        ({"Content-Type": "text/plain"}, ValueError, "negotiation$"),
        # the message says where Vary's other fields go
        ([("vary", "Cookie")], ValueError, r"dispatch\(\), Renderers\.render\(\) or"),
        ({"Content-Length": "3"}, ValueError, "negotiation$"),
        ([("Location", 1)], TypeError, "must be str"),
        ([("Link", "</a>"), ("link", "</b>")], ValueError, "combine its values"),
        ({"Set-Cookie": "a=1"}, ValueError, "cookie"),  # the framework's API
        (42, TypeError, "must be a mapping or"),
    ],
)
def test_extra_headers_the_negotiation_sets_are_refused(
    headers: Any, error: type[Exception], message: str
) -> None:
    decision = RENDERERS.produces.select(None)
    with pytest.raises(error, match=message):
        RENDERERS.render(decision, DATA, headers=headers)
    # and where the client's Accept is refused: a bad argument is found
    # whatever the request (a refusal's were not read)
    refused = RENDERERS.produces.select("image/png")
    with pytest.raises(error, match=message):
        RENDERERS.render(refused, None, headers=headers)
    with pytest.raises(error, match=message):  # where the handler makes it
        Answer(DATA, headers=headers)


def test_an_answer_keeps_its_headers_as_pairs() -> None:
    answer = Answer(DATA, 201, {"Location": "/m/1", "Link": "</a>, </b>"})
    assert answer.headers == (("Location", "/m/1"), ("Link", "</a>, </b>"))


@pytest.mark.parametrize(
    "renderers",
    [
        {"text/html": str, ("text/html", 0.5): str},
        {("text/html", 0.5): str, "TEXT/HTML": str},
        [("text/html;a=1;b=2", str), ("text/html; B=2; a=1", str)],
        [("text/html", str), ("text/html", repr)],
    ],
)
def test_a_media_type_given_twice_is_refused(renderers: Any) -> None:
    # The second could never be chosen (RFC 9110 §8.3.1 compares names
    # case-insensitively, parameters in any order).
    with pytest.raises(ValueError, match="repeats"):
        Renderers(renderers)


def test_the_chosen_offer_is_rendered_by_its_own_renderer() -> None:
    # The engine's choice (an index) reaches the renderer: parameters tell
    # two offers of one type apart.
    html = Renderers(
        {"text/html;level=1": lambda _: "one", "text/html": lambda _: "any"}
    )
    assert html.respond("text/html;level=1", None).body == b"one"
    assert html.respond("text/html;level=1;q=0.1, text/html", None).body == b"any"
    decision = html.produces.select("text/html;level=1;q=0.1, text/html")
    assert (decision.index, decision.media_type) == (1, "text/html")


@pytest.mark.parametrize("vary", [None, "Origin"])
def test_a_copied_decision_renders_as_its_original(vary: str | None) -> None:
    """A ``Decision`` is a value: one pickled (a cache) or copied renders as
    the one it equals, a format name's without ``Vary: Accept`` too."""
    named = Renderers({"application/json": json.dumps, "text/csv": str}, formats=True)
    for decision in (
        named.produces.select("text/csv"),
        named.produces.select("text/plain", format="json"),
    ):
        for copied in (copy.copy(decision), pickle.loads(pickle.dumps(decision))):
            assert copied is not decision
            original = named.render(decision, DATA, vary=vary)
            assert named.render(copied, DATA, vary=vary) == original


def test_a_decision_from_elsewhere_renders_by_its_media_type() -> None:
    made_by_hand = Decision(200, "application/json")
    rendered = RENDERERS.render(made_by_hand, DATA)
    assert rendered.body == as_json(DATA).encode()
    # Its headers, and the offer's Content-Type where they have none.
    assert rendered.headers["Content-Type"] == "application/json"
    own = Decision(200, "application/json", (("Content-Type", "application/x"),))
    assert RENDERERS.render(own, DATA).headers["Content-Type"] == "application/x"
    consumed = Consumes(["text/csv", "application/json"]).check("application/json")
    assert consumed.index == 1  # Consumes' own index: not an offer of RENDERERS
    rendered = RENDERERS.render(consumed, DATA)
    assert rendered.body == as_json(DATA).encode()
    assert rendered.headers["Content-Type"] == "application/json"
    html = Decision(200, "text/html; charset=iso-8859-1")
    assert RENDERERS.render(html, DATA).headers["Content-Type"] == (
        "text/html; charset=iso-8859-1"
    )
    with pytest.raises(ValueError, match="'image/png' is not one of the offers"):
        RENDERERS.render(Decision(200, "image/png"), DATA)


@pytest.mark.parametrize(
    ("decision", "error", "match"),
    [
        (Decision(150, body="x"), ValueError, "not 150"),
        (Decision(700, body="x"), ValueError, "not 700"),
        (Decision(406, "", (("X-A", "a\r\nSet-Cookie: x=1"),)), ValueError, "CR, LF"),
        (
            Decision(200, "application/json", (("content-length", "99"),)),
            ValueError,
            "own length",
        ),
        (Decision(406, "", (("X-A", "a"), ("x-a", "b"))), ValueError, "given twice"),
        (Decision(406, "", (("Connection", "close"),)), ValueError, "the server's"),
        (Decision(406, body=b"no"), TypeError, "body must be a str"),  # type: ignore[arg-type]
        (Decision(204, body="x"), ValueError, "a 204 response has no body"),
        (
            Decision(406, "", (("Content-Type", "not a type"),)),
            ValueError,
            "expected '/'",
        ),
        (Decision(406, "", (("Vary", "a b"),)), ValueError, "not a field name"),
        (
            Decision(200, "application/json", (("Vary", "a b"),)),
            ValueError,
            "not a field",
        ),
    ],
    ids=repr,
)
def test_a_decision_from_elsewhere_is_checked_as_a_rendered_by_hand(
    decision: Decision, error: type[Exception], match: str
) -> None:
    # docs/web.md, "What a handler may send": a bad one is an error, never a
    # malformed response (each was sent as given: a status line of 150, a
    # header injection, two Content-Length lines).
    with pytest.raises(error, match=match):
        RENDERERS.render(decision, DATA)


def test_a_bodyless_status_drops_a_content_type_of_any_case() -> None:
    sent = RENDERERS.render(Decision(304, "", (("content-type", "text/plain"),)), None)
    assert (sent.header_items, sent.body) == ((("Vary", "Accept"),), b"")


def test_a_decision_from_elsewhere_may_give_its_headers_as_a_mapping() -> None:
    # As a Rendered made by hand: kept as pairs (its keys were taken for pairs).
    sent = RENDERERS.render(Decision(406, "", {"X-A": "b"}, "x"), None)  # type: ignore[arg-type]
    assert sent.header_items == (
        ("X-A", "b"),
        ("Vary", "Accept"),
        ("Content-Length", "1"),
    )


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("vary", [None, "Cookie"])
def test_a_406_is_a_whole_response_built_once(method: str, vary: str | None) -> None:
    # Both forms, for GET and HEAD, are built with the Renderers (or on the
    # first use of a Vary value) and sent again as they are.
    for accept in ("image/png", "image/png, application/problem+json"):
        first = RENDERERS.respond(accept, None, method=method, vary=vary)
        assert first.status == 406
        assert RENDERERS.respond(accept, None, method=method, vary=vary) is first
        assert first.headers["Vary"] == ("Cookie, Accept" if vary else "Accept")
        assert (first.body == b"") == (method == "HEAD")


def test_a_refusal_built_ahead_is_found_by_the_decision_itself() -> None:
    # Keyed by the decision: an equal one (a copy, a replica) is sent the
    # response built ahead; one of parts that cannot be hashed is built now.
    decision = RENDERERS.produces.select("image/png")
    first = RENDERERS.render(decision, None)
    assert RENDERERS.render(copy.copy(decision), None) is first
    assert RENDERERS.render(dataclasses.replace(decision), None) is first
    by_hand = Decision(406, "", [("Content-Type", "text/plain")], "no\n")  # type: ignore[arg-type]
    assert RENDERERS.render(by_hand, None).body == b"no\n"


@pytest.mark.thread_unsafe(reason="replaces parse_offer")
def test_offers_are_parsed_once_beside_the_negotiator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The negotiator parses its offers; Produces (its checks) and Renderers
    # (the charsets) read one more parse between them.
    parsed: list[Any] = []
    real = _member.parse_offer

    def counting(offer: Any) -> Any:
        parsed.append(offer)
        return real(offer)

    for name, module in list(sys.modules.items()):  # wherever it is bound
        if name.startswith("fastaccept") and vars(module).get("parse_offer") is real:
            monkeypatch.setattr(module, "parse_offer", counting)
    offers: list[Any] = ["application/json", ("text/csv", 0.5), "text/html"]
    counts = []
    for make in (Negotiator, Produces, lambda o: Renderers({x: str for x in o})):
        parsed.clear()
        make(offers)
        counts.append(len(parsed))
    assert counts == [3, 6, 6]  # the negotiator's parse, and one more


def test_a_chosen_representation_gets_headers_built_once() -> None:
    first = RENDERERS.respond("text/html", DATA, vary="Cookie")
    again = RENDERERS.respond("text/html", {"greeting": "hi"}, vary="Cookie")
    assert first.body != again.body
    # Content-Type and Vary: the same pairs, built for the offer and Vary value
    assert all(
        a is b
        for a, b in zip(first.header_items[:2], again.header_items[:2], strict=True)
    )


@pytest.mark.thread_unsafe(reason="turns the process's collector off")
def test_a_dropped_renderers_leaves_nothing_for_the_collector() -> None:
    """Renderers made and dropped (one per request, say) are freed by their
    counts: what they keep (a ``Vary`` value's finished answers) holds no
    reference back to them."""
    gc.collect()
    gc.disable()
    try:
        for _ in range(10):
            made = Renderers({"application/json": json.dumps, "text/html": str})
            assert made.respond("text/html", {}, vary="Origin").ok
            del made
        assert gc.collect() == 0
    finally:
        gc.enable()
