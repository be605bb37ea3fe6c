"""What a handler may send, checked when given (docs/web.md, "What a handler
may send"): statuses, headers, ``vary``, offers; bodyless statuses; and the
FastAPI frictions of issue 23 (an ``Answer`` annotation, a forgotten route
class, an install without FastAPI)."""

from __future__ import annotations

import json
import re
import warnings
from http import HTTPStatus
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastaccept import Answer, Consumes, Produces, Rendered, Renderers, problem
from fastaccept.wsgi import negotiated as wsgi_negotiated

from .strategies import mostly

JSON = Renderers({"application/json": json.dumps, "text/plain": str})
VARIANTS = Renderers(
    {"application/json": json.dumps, "text/plain; charset=utf-8": str},
    formats={"json": "application/json", "txt": "text/plain; charset=utf-8"},
    variants=True,
)


def wsgi_call(app: Any, path: str = "/", accept: str = "application/json") -> Any:
    """(status line, header pairs, body) of one WSGI request."""
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, headers

    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "HTTP_ACCEPT": accept}
    body = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], body


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (True, TypeError),
        (200.0, TypeError),
        ("200", TypeError),
        (99, ValueError),
        (100, ValueError),  # 1xx are interim: the server sends them
        (103, ValueError),
        (199, ValueError),
        (600, ValueError),
        (-200, ValueError),
        (10**30, ValueError),
    ],
)
def test_a_status_is_checked_wherever_it_is_given(status: Any, error: type) -> None:
    with pytest.raises(error, match="status"):
        Answer({}, status=status)  # None there: the endpoint's status
    with pytest.raises(error, match="status"):
        JSON.respond("application/json", {}, status=status)
    with pytest.raises(error, match="status"):
        wsgi_negotiated(JSON, status=status)
    with pytest.raises(error, match="status"):
        Rendered(status, (), b"")  # made by hand, a handler may return it


@pytest.mark.parametrize("status", [200, 201, 299, 404, 599, HTTPStatus.CREATED])
def test_a_final_status_is_taken_and_sent_as_an_int(status: int) -> None:
    assert Answer({}, status=status).status == status
    assert type(Answer({}, status=status).status) is int
    rendered = JSON.respond("application/json", {}, status=status)
    assert rendered.status == status and rendered.ok


@pytest.mark.parametrize("status", [299, 599, 218, 418])
def test_wsgi_sends_a_code_without_a_registered_phrase(status: int) -> None:
    # RFC 9110 §15: a client reads the code; its class names it (418 too,
    # "(Unused)" in §15.5.19, whatever Python's HTTPStatus calls it).
    app = wsgi_negotiated(JSON, status=status)(lambda environ: {})
    line, _, body = wsgi_call(app)
    classes = {2: "Successful", 4: "Client Error", 5: "Server Error"}
    assert line == f"{status} {classes[status // 100]}"
    assert body == b"{}"


@pytest.mark.parametrize(
    ("headers", "error"),
    [
        ({"X-Evil": "a\r\nSet-Cookie: x=1"}, ValueError),
        ({"X-Evil": "a\nb"}, ValueError),
        ({"X-Evil": "a\rb"}, ValueError),
        ({"X-Evil": "a\x00b"}, ValueError),
        ({"X-Evil": "a\x7fb"}, ValueError),
        ({"X-Evil": "a\x1bb"}, ValueError),
        ({"X-Evil": "€"}, ValueError),  # not Latin-1
        ({"X-Pad": " a"}, ValueError),  # RFC 9110 §5.5: no outer whitespace
        ({"X-Pad": "a\t"}, ValueError),
        ({"X Evil": "a"}, ValueError),  # not a token
        ({"X-Evil:": "a"}, ValueError),
        ({"": "a"}, ValueError),
        ({"X-Ünï": "a"}, ValueError),
        ({"Transfer-Encoding": "chunked"}, ValueError),
        ({"content-length": "3"}, ValueError),
        ({"Connection": "close"}, ValueError),
        ({"Keep-Alive": "timeout=5"}, ValueError),
        ({"Upgrade": "h2c"}, ValueError),
        ({"TE": "trailers"}, ValueError),
        ({"Trailer": "X"}, ValueError),
        ({"Content-Type": "text/html"}, ValueError),
        ({"Vary": "Cookie"}, ValueError),
        ({"Set-Cookie": "a=1"}, ValueError),
        ([("Link", "a"), ("link", "b")], ValueError),
        ({"X-Number": 3}, TypeError),
        ({b"X-Bytes": "a"}, TypeError),
        ([("X-Single",)], TypeError),
        (["XY"], TypeError),
        (None, TypeError),
        (3, TypeError),
    ],
)
def test_a_header_is_checked_when_given(headers: Any, error: type) -> None:
    with pytest.raises(error):
        Answer({}, headers=headers)
    decision = JSON.produces.select("application/json")
    with pytest.raises(error):
        JSON.render(decision, {}, headers=headers)
    own = [{"content-length": "3"}, {"Content-Type": "text/html"}, {"Vary": "Cookie"}]
    if headers not in own:  # a whole response's: test_a_rendered_made_by_hand...
        with pytest.raises(error):
            Rendered(200, headers, b"")


def test_a_rendered_made_by_hand_holds_what_a_response_may() -> None:
    # The negotiation's own fields too; given as a mapping, kept as pairs.
    headers = {"Content-Type": "text/plain", "Vary": "Accept", "Link": "</a>"}
    made = Rendered(HTTPStatus.NOT_FOUND, {**headers, "Content-Length": "2"}, b"no")
    assert type(made.status) is int and made.status == 404
    assert made.header_items == (*headers.items(), ("Content-Length", "2"))
    # RFC 9110 §8.6: 1*DIGIT, leading zeros too.
    assert Rendered(200, {"Content-Length": "012"}, b"x" * 12).body == b"x" * 12
    for length in ("0", "2", "31"):  # any with no body: HEAD's, the GET body's
        assert Rendered(200, (("Content-Length", length),), b"").body == b""
    assert Rendered(304, (("ETag", '"x"'), ("Content-Length", "7")), b"").ok
    assert Rendered(205, (("Content-Length", "0"),), b"").status == 205
    for media_type in ("Text/HTML; charset=UTF-8", "a/b;;c=d", "a/b+json; q=1"):
        assert Rendered(200, {"Content-Type": media_type}, b"").ok


@pytest.mark.parametrize(
    ("status", "headers", "body", "ok", "error", "said"),
    [
        (200, (), "text", True, TypeError, "body must be bytes, not str"),
        (200, (), bytearray(b"x"), True, TypeError, "not bytearray"),
        (200, (), b"", "no", TypeError, "ok must be a bool, not str"),
        (200, None, b"", True, TypeError, "header_items must be a mapping or"),
        (200, ["XY"], b"", True, TypeError, "header_items: 'XY' is not a (name"),
        (204, (), b"x", True, ValueError, "a 204 response has no body"),
        (205, (), b"x", True, ValueError, "a 205 response has no body"),
        (304, (), b"x", True, ValueError, "a 304 response has no body"),
        (204, {"Content-Length": "0"}, b"", True, ValueError, "a 204 has no Cont"),
        (205, {"Content-Length": "7"}, b"", True, ValueError, "a 205 has no content"),
        (200, {"Content-Length": "3"}, b"ab", True, ValueError, "body is 2 bytes"),
        (200, {"content-length": "1"}, b"ab", True, ValueError, "'content-length: 1'"),
        (200, {"Content-Length": "1" * 5000}, b"a", True, ValueError, "is 1 bytes"),
        (200, {"Content-Length": "-2"}, b"", True, ValueError, "decimal digits"),
        (200, {"Content-Length": "²"}, b"", True, ValueError, "decimal digits"),
        (200, {"Content-Length": "0x2"}, b"ab", True, ValueError, "decimal digits"),
        (200, {"Vary": "User Agent"}, b"", True, ValueError, "'User Agent' is not"),
        (200, {"Vary": "Accept;q=1"}, b"", True, ValueError, "not a field name"),
        (200, (("Vary", "a"), ("vary", "b")), b"", True, ValueError, "given twice"),
        # A Content-Type is one media type (RFC 9110 §8.3), no range.
        (200, {"Content-Type": "text"}, b"", True, ValueError, "expected '/'"),
        (200, {"Content-Type": "text/*"}, b"", True, ValueError, "concrete"),
        (200, {"content-type": "*/*"}, b"", True, ValueError, "'*/*': content"),
        (200, {"Content-Type": "a/*+json"}, b"", True, ValueError, "concrete"),
        (200, {"Content-Type": "a/b, c/d"}, b"", True, ValueError, "one media type"),
        (200, {"Content-Type": "a/b; c"}, b"", True, ValueError, "expected '='"),
    ],
)
def test_a_rendered_body_and_its_length_are_checked(
    status: int, headers: Any, body: Any, ok: Any, error: type, said: str
) -> None:
    # A wrong Content-Length leaves a client waiting for bytes never sent,
    # or reading the next response as this one's (RFC 9112 §6.3).
    with pytest.raises(error, match=re.escape(said)):
        Rendered(status, headers, body, ok)


def test_the_responses_fastaccept_makes_skip_the_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Made whole on every request, without __init__ (nor __post_init__).
    def checked(self: Rendered) -> None:
        raise AssertionError("checked")

    monkeypatch.setattr(Rendered, "__post_init__", checked)
    for accept in ("application/json", "image/png", "a" * 9000):
        for method in ("GET", "HEAD"):
            assert JSON.respond(accept, {}, method=method).status in {200, 406, 431}
    assert problem(404, None).status == 404
    with pytest.raises(AssertionError, match="checked"):
        Rendered(200, (), b"")


def wsgi_answer(rendered: Rendered, method: str) -> tuple[str, dict[str, str], bytes]:
    """(status line, headers, body) a WSGI endpoint whose handler returns
    ``rendered`` answers to a request of ``method``."""
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    app: Any = wsgi_negotiated(JSON)(lambda environ: rendered)
    body = b"".join(app({"REQUEST_METHOD": method, "PATH_INFO": "/"}, start_response))
    return seen["status"], seen["headers"], body


def test_a_rendered_without_a_length_gets_its_bodys_for_head_too() -> None:
    # RFC 9110 §9.3.2: HEAD gets GET's header fields, its length too (the
    # server would count the empty body: Content-Length 0).
    made = Rendered(200, {"Content-Type": "text/plain"}, b"hi")
    for method, sent in (("GET", b"hi"), ("HEAD", b"")):
        status, headers, body = wsgi_answer(made, method)
        assert (status, headers["Content-Length"], body) == ("200 OK", "2", sent)
    assert "Content-Length" not in wsgi_answer(Rendered(204, (), b""), "GET")[1]


def test_a_head_response_answers_no_other_method() -> None:
    # Its Content-Length promises the GET body it left out: sent to GET, the
    # client would wait for bytes never sent (RFC 9110 §8.6).
    head = JSON.respond("application/json", {"a": 1}, method="HEAD")
    assert wsgi_answer(head, "HEAD")[1]["Content-Length"] == "8"
    with pytest.raises(ValueError, match="GET response with Content-Length 8 and"):
        wsgi_answer(head, "GET")
    # A 304's is the 200's (RFC 9110 §8.6), and a length of 0 promises nothing.
    for made in (
        Rendered(304, {"Content-Length": "8"}, b""),
        Rendered(200, {"Content-Length": "00"}, b""),
    ):
        assert wsgi_answer(made, "GET")[2] == b""


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("status", [200, 201, 204, 205, 304, 404, 599])
@pytest.mark.parametrize("accept", ["application/json", "text/plain", "image/png"])
def test_each_response_fastaccept_makes_passes_the_checks(
    accept: str, status: int, method: str
) -> None:
    # Made without them, every one is what the constructor takes as it is.
    made = [
        JSON.respond(accept, {"a": "é"}, status=status, method=method),
        JSON.render(
            JSON.produces.select(accept),
            {},
            status=status,
            method=method,
            vary="Cookie",
            headers={"Link": "</a>"},
        ),
    ]
    refused = Consumes(["application/json"], max_length=20)
    for content_type in ("text/csv", "application/json; x=" + "y" * 20):
        made.append(JSON.render(refused.check(content_type), {}, method=method))
    for format in (None, "txt", "nothing"):
        made.append(VARIANTS.respond(accept, {}, status=status, format=format))
    if status >= 400:
        made.append(problem(status, accept, detail="d", extensions={"n": 1}))
    for rendered in made:
        fields = (rendered.status, rendered.header_items, rendered.body)
        assert Rendered(*fields, rendered.ok) == rendered


@pytest.mark.parametrize("headers", [None, 3])
def test_headers_that_are_no_pairs_are_named(headers: Any) -> None:
    kind = type(headers).__name__
    said = f"headers must be a mapping or (name, value) pairs, not {kind}"
    with pytest.raises(TypeError) as info:
        Answer({}, headers=headers)
    assert str(info.value) == said


def test_a_latin_1_value_and_a_tab_are_taken() -> None:
    # RFC 9110 §5.5: HTAB and obs-text are field content.
    answer = Answer({}, headers={"Content-Language": "fr", "X-Note": "caf\xe9\tbar"})
    assert answer.headers == (("Content-Language", "fr"), ("X-Note", "caf\xe9\tbar"))


@pytest.mark.parametrize(
    "vary", ["Cookie\r\nX: y", "a b", "Cookie;", 3, b"Cookie", "é", ["Cookie"]]
)
def test_vary_is_checked_when_given(vary: Any) -> None:
    with pytest.raises((TypeError, ValueError), match="vary"):
        JSON.respond("application/json", {}, vary=vary)
    with pytest.raises((TypeError, ValueError), match="vary"):
        wsgi_negotiated(JSON, vary=vary)


@pytest.mark.parametrize("vary", [["Cookie"], {"Cookie": 1}, 3])
def test_a_vary_that_is_no_str_is_named_whether_it_hashes_or_not(vary: Any) -> None:
    said = f"vary must be a str of field names, not {type(vary).__name__}"
    with pytest.raises(TypeError) as info:
        JSON.respond("application/json", {}, vary=vary)
    assert str(info.value) == said


@pytest.mark.parametrize("vary", ["Cookie", "cookie, Origin", "*", "", " , Cookie ,"])
def test_a_list_of_field_names_is_taken_as_vary(vary: str) -> None:
    rendered = JSON.respond("application/json", {}, vary=vary)
    assert "Accept" in rendered.headers["Vary"] or rendered.headers["Vary"] == "*"


@pytest.mark.parametrize("status", [204, 205, 304])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_bodyless_status_has_no_content_nor_its_headers(
    status: int, method: str
) -> None:
    # RFC 9110 §15.3.5-6, §15.4.5: no content; Vary stays (a cache needs it);
    # a 205's empty content framed by its Content-Length (RFC 9112 §6.3).
    def refuse(data: Any) -> str:
        raise AssertionError("the renderer of a 204, 205 or 304 is not called")

    length = (("Content-Length", "0"),) if status == 205 else ()
    renderers = Renderers({"application/json": refuse})
    rendered = renderers.respond(
        "application/json", None, method=method, status=status, vary="Cookie"
    )
    assert rendered.body == b""
    assert rendered.header_items == (("Vary", "Cookie, Accept"), *length)
    decision = renderers.produces.select(None)
    extra = {"ETag": '"1"'}
    rendered = renderers.render(decision, None, status=status, headers=extra)
    assert rendered.header_items == (("Vary", "Accept"), ("ETag", '"1"'), *length)


def test_rendered_ok_says_a_representation_was_chosen() -> None:
    assert JSON.respond("application/json", {}, status=201).ok
    assert JSON.respond("application/json", {}, status=404).ok
    assert not JSON.respond("image/png", {}).ok  # 406
    assert not JSON.respond("x" * 9000, {}).ok  # 431


def test_consumes_without_a_length_limit() -> None:
    consumes = Consumes(["application/json"], max_length=None)
    long = "application/json; x=" + "a" * 20_000
    assert consumes.check(long).ok
    assert consumes.check("text/csv; x=" + "a" * 20_000).status == 415


@pytest.mark.parametrize(
    ("max_length", "error"),
    [(-1, ValueError), (True, TypeError), (1.5, TypeError), ("8", TypeError)],
)
def test_consumes_checks_its_max_length_when_made(max_length: Any, error: type) -> None:
    with pytest.raises(error, match="max_length"):
        Consumes(["application/json"], max_length=max_length)


def test_a_415_never_reads_an_over_long_accept() -> None:
    # docs/rules.md rule 16: an Accept value over DEFAULT_MAX_LENGTH is not
    # read to choose a refusal's format (plain text).
    consumes = Consumes(["application/json"])
    accept = "application/problem+json, " + "text/html;q=0.1, " * 600
    decision = consumes.check("text/csv", accept)
    assert decision.status == 415
    assert decision.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert Produces(["application/json"]).select(accept).status == 431


#: A handler's status: most often one it may send (200 to 599, the
#: bodiless three among them), so that the answer's checks run, else anything.
STATUS = mostly(
    st.integers(200, 599) | st.sampled_from([204, 205, 304]),
    st.one_of(st.integers(), st.booleans(), st.floats(), st.text()),
)
#: A handler's header it may send, and any pair of texts (controls, outer
#: spaces, beyond Latin-1).
#: What a field value may not hold: controls but HTAB (RFC 9110 §5.5).
CONTROLS = {*map(chr, range(0x20)), "\x7f"} - {"\t"}
NAMES = st.sampled_from(["Link", "X-Request-Id", "Cache-Control", "ETag"])
GOOD_HEADER = st.tuples(
    NAMES, st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=8)
)
HEADER = st.tuples(
    mostly(NAMES, st.text(max_size=8)),
    st.text(st.sampled_from("a\t \x00\x01\x1f\x7f\r\n\x85\xff"), min_size=1, max_size=6)
    | st.text(st.characters(max_codepoint=0xFF), max_size=8)
    | st.text(max_size=8),
)


@settings(max_examples=300)  # a control among a handler's headers: a few in 100
@given(
    status=STATUS,
    headers=st.lists(GOOD_HEADER | HEADER, max_size=3),
    vary=mostly(st.none() | st.sampled_from(["Cookie", "*"]), st.text(max_size=12)),
)
def test_anything_a_handler_gives_is_refused_or_well_formed(
    status: Any, headers: list[tuple[str, str]], vary: str | None
) -> None:
    # Refused when given (TypeError/ValueError), or a response whose status
    # line and header lines a server can write as they are.
    try:
        answer = Answer({"a": 1}, status=status, headers=headers)
        assert answer.status is not None
        decision = JSON.produces.select("application/json")
        rendered = JSON.render(
            decision,
            answer.data,
            status=answer.status,
            headers=answer.headers,
            vary=vary,
        )
    except (TypeError, ValueError):
        return
    assert type(rendered.status) is int and 200 <= rendered.status <= 599
    names = [name.lower() for name, _ in rendered.header_items]
    assert len(names) == len(set(names))
    for name, value in rendered.header_items:
        assert name and all(
            c.isascii() and c.isprintable() and c not in " :" for c in name
        )
        value.encode("latin-1")
        assert not any(c in CONTROLS for c in value)  # RFC 9110 §5.5
        assert value == value.strip(" \t")
    if rendered.status in (204, 304):
        assert rendered.body == b"" and "content-length" not in names
    elif rendered.status == 205:
        assert rendered.body == b"" and "content-type" not in names
        assert ("Content-Length", "0") in rendered.header_items
    else:
        assert ("Content-Length", str(len(rendered.body))) in rendered.header_items


#: An offer a server may give, and one it may not.
GOOD_OFFER = st.one_of(
    st.sampled_from(["text/html", "application/json", "text/csv;header=present"]),
    st.tuples(
        st.sampled_from(["image/png", "text/plain"]),
        st.integers(0, 1000).map(lambda n: n / 1000),  # three decimals at most
    ),
)
OFFER = st.one_of(
    GOOD_OFFER,
    st.text(max_size=20),
    st.sampled_from(["TEXT/HTML", "text/*", "a/b;q=1"]),
    st.tuples(st.sampled_from(["text/html", "text/csv"]), st.floats(-1, 2)),
    st.integers(),
)


@given(
    offers=mostly(
        st.lists(
            GOOD_OFFER,
            min_size=1,
            max_size=4,
            unique_by=lambda offer: offer if isinstance(offer, str) else offer[0],
        ),
        st.lists(OFFER, max_size=4),
    ),
    accept=st.one_of(st.none(), st.text(max_size=40)),
    method=st.sampled_from(["GET", "HEAD"]),
)
def test_any_offers_are_refused_or_answer_well_formed(
    offers: list[Any], accept: str | None, method: str
) -> None:
    # Offers a server gives: refused when given, or every Accept value is
    # answered with a well-formed response (a representation or a refusal).
    try:
        renderers = Renderers([(offer, str) for offer in offers])
    except (TypeError, ValueError):
        return
    rendered = renderers.respond(accept, "data", method=method)
    assert rendered.status in (200, 406, 431)
    assert rendered.ok == (rendered.status == 200)
    names = [name for name, _ in rendered.header_items]
    assert len(names) == len({name.lower() for name in names})
    assert names[0] == "Content-Type" and "Vary" in names
    for _, value in rendered.header_items:
        value.encode("latin-1")
        assert not any(c in value for c in "\r\n\x00")
    length = int(dict(rendered.header_items)["Content-Length"])
    assert len(rendered.body) == (0 if method == "HEAD" else length)


# FastAPI --------------------------------------------------------------------


def test_an_answer_annotation_is_not_published_as_the_schema() -> None:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.post("/items")
    @negotiated(JSON, status=201)
    def create() -> Answer:
        return Answer({"id": 1}, headers={"Location": "/items/1"})

    @app.get("/either")
    @negotiated(JSON)
    def either() -> Answer | dict[str, int]:
        return {"id": 1}

    # A problem it returns for an error is no representation either.
    @app.get("/or-problem")
    @negotiated(JSON)
    def or_problem() -> dict[str, int] | Rendered:
        return {"id": 1}

    @app.get("/reply-or-problem")
    @negotiated(JSON)
    def reply_or_problem() -> Answer | Rendered:
        return problem(404, None)

    paths = app.openapi()["paths"]
    created = paths["/items"]["post"]["responses"]["201"]["content"]
    assert set(created) == {"application/json", "text/plain"}
    for path in ("/either", "/or-problem"):
        documented = paths[path]["get"]["responses"]["200"]["content"]
        assert documented["application/json"]["schema"]["type"] == "object"  # dict
    documented = paths["/reply-or-problem"]["get"]["responses"]["200"]["content"]
    assert documented["application/json"]["schema"] == {}
    schema = json.dumps(app.openapi())
    assert "Answer" not in schema  # no Answer fields anywhere
    assert "Rendered" not in schema and "header_items" not in schema


def test_a_problem_annotation_is_not_published_as_litestars_schema() -> None:
    pytest.importorskip("litestar")
    from litestar import Litestar, get

    from fastaccept.litestar import NegotiationPlugin, negotiated

    @get("/or-problem")
    @negotiated(JSON)
    async def or_problem() -> dict[str, int] | Rendered:
        return {"id": 1}

    @get("/problem")
    @negotiated(JSON)
    async def only_problem() -> Rendered:
        return problem(404, None)

    app = Litestar([or_problem, only_problem], plugins=[NegotiationPlugin()])
    schema = json.dumps(app.openapi_schema.to_schema())
    assert "Rendered" not in schema and "header_items" not in schema
    paths = app.openapi_schema.to_schema()["paths"]
    documented = paths["/or-problem"]["get"]["responses"]["200"]["content"]
    assert documented["application/json"]["schema"]["type"] == "object"


def test_a_forgotten_route_class_is_said_once() -> None:
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import negotiated

    app = FastAPI()  # route_class left as FastAPI's

    @app.get("/plain")
    @negotiated(JSON)
    def plain() -> dict[str, int]:
        return {"id": 1}

    client = TestClient(app)
    with pytest.warns(RuntimeWarning, match="NegotiatedRoute"):
        assert client.get("/plain").status_code == 200
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert client.get("/plain").json() == {"id": 1}  # said once only


def test_a_negotiated_routes_405_varies_on_accept_and_names_allow() -> None:
    """A method a ``NegotiatedRoute`` lacks: Starlette's ExceptionMiddleware
    answers the 405 outside the route's ``send``; it still varies on Accept
    (and the endpoint's ``vary``), as every error of the route (docs/web.md),
    with ``Allow`` (RFC 9110 §15.5.6): HEAD beside GET, where it is answered.
    A route that is not negotiated keeps FastAPI's 405."""
    pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from fastaccept.fastapi import NegotiatedRoute, negotiated

    app = FastAPI()
    app.router.route_class = NegotiatedRoute

    @app.get("/read")
    @negotiated(JSON, vary="Accept-Language", problems=True)
    def read() -> dict[str, int]:
        return {"id": 1}

    @app.post("/write")
    @negotiated(JSON, consumes=Consumes(["application/json"]))
    def write() -> dict[str, int]:
        return {"id": 1}

    @app.put("/plain")
    def plain() -> dict[str, int]:
        return {"id": 1}

    client = TestClient(app)
    asked = {"Accept": "application/problem+json"}
    for method, path, allow, vary in [
        ("DELETE", "/read", "GET, HEAD", "Accept-Language, Accept"),
        ("PUT", "/read", "GET, HEAD", "Accept-Language, Accept"),
        ("GET", "/write", "POST", "Accept"),
        ("HEAD", "/write", "POST", "Accept"),
    ]:
        reply = client.request(method, path, headers=asked)
        assert reply.status_code == 405, (method, path)
        assert reply.headers["allow"] == allow, (method, path)
        assert reply.headers.get("vary") == vary, (method, path)
    refused = client.get("/plain", headers=asked)
    assert (refused.status_code, refused.headers["allow"]) == (405, "PUT")
    assert "vary" not in refused.headers


def test_a_str_subclass_header_value_is_sent_as_its_text() -> None:
    # An enum member kept as itself reached the server: waitress wrote
    # str() of it ("Location: Loc.HOME"), wsgiref answered 500 (PEP 3333
    # asks for str); the text checked is the text sent.
    import enum

    class Location(str, enum.Enum):
        HOME = "/home"

    @wsgi_negotiated(JSON)
    def created(environ: Any) -> Answer:
        return Answer({}, status=201, headers={"Location": Location.HOME})

    status, headers, _ = wsgi_call(created)
    assert status == "201 Created"
    assert [(type(v), v) for n, v in headers if n == "Location"] == [(str, "/home")]
    made = Rendered(204, (("Location", Location.HOME),), b"")
    assert [type(v) for _, v in made.header_items] == [str]
