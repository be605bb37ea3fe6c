"""The format override (docs/web.md, "Format override"): ``formats=`` on
``Produces`` and ``Renderers``, ``select(accept, format=...)``. A known name
wins over Accept and the answer does not vary on Accept; an unknown one is a
406 listing the names, in the form Accept prefers; nothing a client sends as
the name raises. The integrations read it from a query parameter
(tests/test_integrations.py, tests/test_sockets.py).
"""

from __future__ import annotations

import asyncio
import enum
import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Produces, Renderers
from fastaccept._responses import FORMAT_MAX_LENGTH, STANDARD_FORMATS

OFFERS = ["application/json", "text/html; charset=utf-8", "text/csv"]


def test_standard_names_of_the_offered_types() -> None:
    produces = Produces(
        [
            "application/vnd.acme+json",
            "application/json",
            "text/plain",
            "application/x-yaml",
            "image/png",
            "TEXT/Markdown",
        ],
        formats=True,
    )
    # The first offer of a name has it: a +json type is json (RFC 6839 §3.1).
    assert produces.formats == {
        "json": "application/vnd.acme+json",
        "txt": "text/plain",
        "yaml": "application/x-yaml",
        "md": "TEXT/Markdown",
    }
    assert set(STANDARD_FORMATS.values()) == {
        "json",
        "html",
        "xml",
        "csv",
        "txt",
        "md",
        "yaml",
    }


def test_no_standard_name_is_an_error() -> None:
    with pytest.raises(ValueError, match="none of the offers has a standard format"):
        Produces(["image/png", "image/webp"], formats=True)


def test_named_formats_ignore_case() -> None:
    produces = Produces(OFFERS, formats={"JSON": "application/json", "csv": "text/csv"})
    assert produces.formats == {"json": "application/json", "csv": "text/csv"}
    for name in ("json", "Json", "JSON"):
        assert produces.select("text/csv", format=name).media_type == OFFERS[0]


def test_without_formats_the_format_is_not_read() -> None:
    produces = Produces(OFFERS)
    assert produces.formats == {}
    assert produces.select("text/csv", format="json") is produces.select("text/csv")
    assert Produces(OFFERS, formats={}).select("text/csv", format="x").ok


@pytest.mark.parametrize(
    ("formats", "error", "message"),
    [
        ("json", TypeError, "formats must be a mapping"),
        (3, TypeError, "formats must be a mapping"),
        ([("json",)], TypeError, "a \\(name, media type\\) pair"),
        (
            {"json": 1},
            TypeError,
            "^format 'json': the media type must be a str, not int$",
        ),
        (
            {b"json": "text/csv"},
            TypeError,
            "^a format's name must be a str, not bytes$",
        ),
        ({"": "text/csv"}, ValueError, "a token of 1 to 32"),
        ({"j son": "text/csv"}, ValueError, "a token of 1 to 32"),
        ({"x" * 33: "text/csv"}, ValueError, "a token of 1 to 32"),
        ({"csv": "text/csv", "CSV": "text/csv"}, ValueError, "given twice"),
        ({"pdf": "application/pdf"}, ValueError, "is not one of the offers"),
        ({"html": "text/html"}, ValueError, "is not one of the offers"),
    ],
)
def test_bad_formats_are_refused_when_made(
    formats: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Produces(OFFERS, formats=formats)  # type: ignore[arg-type]


def test_a_format_wins_over_accept_without_vary() -> None:
    produces = Produces(OFFERS, formats=True)
    chosen = produces.select("image/png", format="csv")  # Accept alone: 406
    assert (chosen.status, chosen.media_type, chosen.index) == (200, "text/csv", 2)
    assert chosen.headers == {"Content-Type": "text/csv"}
    by_accept = produces.select("text/csv")
    assert by_accept.headers == {"Content-Type": "text/csv", "Vary": "Accept"}
    # Over-long Accept: the format still decides, Accept is not read.
    assert produces.select("a/b, " * 5000, format="html").media_type == OFFERS[1]


@pytest.mark.parametrize("absent", [None, ""])
def test_no_format_leaves_accept_to_choose(absent: str | None) -> None:
    produces = Produces(OFFERS, formats=True)
    assert produces.select("text/csv", format=absent) is produces.select("text/csv")


@pytest.mark.parametrize(
    ("accept", "problem_json"),
    [(None, False), ("text/plain", False), ("application/problem+json", True)],
)
def test_an_unknown_format_is_406_listing_the_names(
    accept: str | None, problem_json: bool
) -> None:
    produces = Produces(OFFERS, formats=True)
    for name in ("pdf", "x" * (FORMAT_MAX_LENGTH + 1), "json\x00", "\u00e9"):
        refused = produces.select(accept, format=name)
        assert (refused.status, refused.media_type) == (406, "")
        assert refused.headers["Vary"] == "Accept"
        if problem_json:
            assert refused.headers["Content-Type"] == "application/problem+json"
            body = json.loads(refused.body)
            assert body["formats"] == ["json", "html", "csv"]
            assert body["status"] == 406
        else:
            assert refused.body.startswith("406 Not Acceptable: the format")
            assert refused.body.endswith("Formats:\njson\nhtml\ncsv\n")
        assert name not in refused.body  # the request's value is not repeated


def test_a_format_of_another_type_is_a_type_error() -> None:
    produces = Produces(OFFERS, formats=True)
    with pytest.raises(TypeError, match="format must be a str or None, not bytes"):
        produces.select(None, format=b"json")  # type: ignore[arg-type]


def test_a_str_subclass_format_is_read_as_its_text() -> None:
    # docs/bad-input.md: its own lower (or len, hash) does not decide.
    class Lying(str):
        def lower(self) -> str:
            return "json"

        def __len__(self) -> int:
            return 1

    class Name(str, enum.Enum):
        JSON = "json"

    produces = Produces(OFFERS, formats=True)
    assert produces.select("text/html", format=Lying("pdf")).status == 406
    assert produces.select("text/html", format=Lying("x" * 40)).status == 406
    assert produces.select("image/png", format=Name.JSON).media_type == OFFERS[0]


@given(st.text(max_size=40) | st.from_regex(r"(?i)json|html|csv", fullmatch=True))
def test_any_format_is_a_choice_or_the_406(name: str) -> None:
    produces = Produces(OFFERS, formats=True)
    decision = produces.select("text/html", format=name)
    known = name.lower() if name.isascii() else None
    if not name:
        assert decision.media_type == OFFERS[1]
    elif known in ("json", "html", "csv"):
        assert decision.media_type == produces.formats[known]
    else:
        assert decision.status == 406
        assert decision is produces.select("text/html", format="no-such-format")


def test_formats_are_part_of_the_arguments() -> None:
    named = Produces(OFFERS, formats={"j": "application/json"})
    assert named != Produces(OFFERS)
    assert named == Produces(OFFERS, formats=[("j", "application/json")])
    assert pickle.loads(pickle.dumps(named)) == named
    assert "formats=(('j', 'application/json'),)" in repr(named)
    assert hash(Produces(OFFERS, formats=True)) == hash(Produces(OFFERS, formats=True))


def test_formats_given_once_over_are_kept() -> None:
    # An iterator of pairs is read once: its pairs are the arguments kept.
    once = Produces(OFFERS, formats=iter([("j", "application/json")]))
    assert "formats=(('j', 'application/json'),)" in repr(once)
    assert pickle.loads(pickle.dumps(once)).select(None, format="j").status == 200
    assert once == Produces(OFFERS, formats={"j": "application/json"})


def test_renderers_respond_to_a_format() -> None:
    renderers = Renderers(
        {"application/json": json.dumps, "text/csv": lambda rows: "a,b\n"},
        formats=True,
    )
    rendered = renderers.respond("application/json", [1], format="csv", vary="Origin")
    assert rendered.status == 200
    assert rendered.headers["Content-Type"] == "text/csv"
    assert rendered.headers["Vary"] == "Origin"
    assert rendered.body == b"a,b\n"
    plain = renderers.respond(None, [1], format="CSV")
    assert "Vary" not in plain.headers
    by_accept = renderers.respond("text/csv", [1], vary="Origin")
    assert by_accept.headers["Vary"] == "Origin, Accept"
    # A decision taken first, then rendered, keeps its Vary.
    decision = renderers.produces.select(None, format="json")
    assert "Vary" not in renderers.render(decision, [1]).headers
    refused = renderers.respond("text/plain", [1], format="pdf", method="HEAD")
    assert (refused.status, refused.body) == (406, b"")
    assert refused.headers["Vary"] == "Accept"


def _wsgi_get(
    app: Any, query: str, accept: str | None = None
) -> tuple[str, dict[str, str]]:
    environ = {"REQUEST_METHOD": "GET", "QUERY_STRING": query}
    if accept is not None:
        environ["HTTP_ACCEPT"] = accept
    started: list[tuple[str, list[tuple[str, str]]]] = []
    body = b"".join(
        app(environ, lambda status, headers: started.append((status, headers)))
    )
    assert body
    return started[0][0], dict(started[0][1])


def test_the_query_parameter_an_endpoint_reads() -> None:
    from fastaccept.wsgi import negotiated

    renderers = Renderers(
        {"application/json": json.dumps, "text/csv": str}, formats=True
    )
    default = negotiated(renderers)(lambda environ: [1])
    assert (
        _wsgi_get(default, "format=csv", "application/json")[1]["Content-Type"]
        == "text/csv"
    )
    named = negotiated(renderers, format_param="as")(lambda environ: [1])
    assert (
        _wsgi_get(named, "as=csv&format=json", "application/json")[1]["Content-Type"]
        == "text/csv"
    )
    off = negotiated(renderers, format_param=None)(lambda environ: [1])
    status, headers = _wsgi_get(off, "format=csv", "application/json")
    assert (status, headers["Content-Type"], headers["Vary"]) == (
        "200 OK",
        "application/json",
        "Accept",
    )


def test_without_formats_a_format_parameter_leaves_accept_to_choose() -> None:
    # Nor drops Vary: Accept, which a cache needs (rule 14): the name is not
    # read where no offer has one.
    from fastaccept.wsgi import negotiated

    renderers = Renderers({"application/json": json.dumps, "text/plain": str})
    app = negotiated(renderers)(lambda environ: [1])
    for query in ("format=json", "format=txt", "format="):
        status, headers = _wsgi_get(app, query, "text/plain")
        assert (status, headers["Content-Type"], headers["Vary"]) == (
            "200 OK",
            "text/plain",
            "Accept",
        )


@pytest.mark.parametrize(
    ("param", "error"),
    [(3, TypeError), (b"format", TypeError), ("", ValueError), ("a b", ValueError)],
)
def test_a_bad_format_param_is_refused_when_made(
    param: object, error: type[Exception]
) -> None:
    from fastaccept.wsgi import negotiated

    renderers = Renderers({"application/json": json.dumps}, formats=True)
    with pytest.raises(error, match="format_param"):
        negotiated(renderers, format_param=param)  # type: ignore[arg-type]


NAMES = st.text(max_size=40) | st.sampled_from(["json", "CSV", "html", ""])
FORMATS_ARGUMENTS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.dictionaries(NAMES | st.binary(max_size=4), st.sampled_from(OFFERS) | NAMES)
    | st.lists(st.tuples(NAMES, st.sampled_from(OFFERS)) | st.tuples(NAMES))
)


@given(
    formats=FORMATS_ARGUMENTS,
    accept=st.none() | st.text(max_size=40),
    name=st.none() | NAMES | st.integers() | st.binary(max_size=8),
)
def test_any_arguments_are_refused_when_given_or_answer(
    formats: Any, accept: Any, name: Any
) -> None:
    """``formats=`` refused when the ``Renderers`` is made, or made; then any
    ``format`` a str or None answers (a 200 as the name or Accept chose, or
    the 406 listing the names), anything else a TypeError naming it."""
    try:
        renderers = Renderers({offer: str for offer in OFFERS}, formats=formats)
    except (TypeError, ValueError) as error:
        assert "format" in str(error), error
        return
    try:
        sent = renderers.respond(accept, "rows", format=name)
    except TypeError as error:
        assert not isinstance(name, str | None)  # with formats or without
        assert "format must be a str or None" in str(error)
        return
    assert sent.status in (200, 406), sent
    assert sent.headers["Content-Length"] == str(len(sent.body))
    named = renderers.produces.formats.get(name.lower()) if name else None
    if named is not None and name.isascii():  # names ignore ASCII case only
        assert (sent.status, sent.headers["Content-Type"]) == (200, named)
        assert "Vary" not in sent.headers
    elif sent.status == 406:
        assert sent.headers["Vary"] == "Accept"


@given(query=st.text(max_size=60) | st.from_regex(r"(format=[%+&=a-zA-Z0-9]*)+"))
def test_any_query_string_is_answered(query: str) -> None:
    """Whatever a client puts in the query: the override, Accept's choice or
    the 406, never an exception (a WSGI server hands the query as Latin-1)."""
    from fastaccept.wsgi import negotiated

    endpoint = negotiated(Renderers({o: str for o in OFFERS}, formats=True))(
        lambda environ: "rows"
    )
    status, headers = _wsgi_get(endpoint, query.encode().decode("latin-1"))
    assert status in ("200 OK", "406 Not Acceptable"), status
    assert headers["Content-Type"] in (*OFFERS, "text/plain; charset=utf-8")


@pytest.fixture(scope="module")
def aiohttp_request() -> Any:
    """aiohttp's mocked request maker, imported (or the test skipped) before
    Hypothesis runs an example: a skip inside one reads as a failure."""
    pytest.importorskip("aiohttp")
    from aiohttp.test_utils import make_mocked_request

    return make_mocked_request


@given(query=st.text(max_size=60) | st.from_regex(r"(format=[%+&=a-zA-Z0-9]*)+"))
def test_any_query_string_is_answered_by_aiohttp(
    aiohttp_request: Any, query: str
) -> None:
    """The same through ``fastaccept.aiohttp``, which reads the query as the
    request's URL holds it (``rel_url.raw_query_string``), decoded once."""
    from urllib.parse import quote

    from aiohttp import web

    from fastaccept.aiohttp import negotiated

    @negotiated(Renderers({o: str for o in OFFERS}, formats=True))
    async def endpoint(request: web.Request) -> str:
        return "rows"

    request = aiohttp_request("GET", "/?" + quote(query, safe="&=+%"))
    response = asyncio.run(endpoint(request))
    assert response.status in (200, 406), response
    assert response.content_type in (*OFFERS, "text/plain")


def test_aiohttp_decodes_the_format_name_once() -> None:
    pytest.importorskip("aiohttp")
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from fastaccept.aiohttp import negotiated

    @negotiated(Renderers({o: str for o in OFFERS}, formats=True))
    async def endpoint(request: web.Request) -> str:
        return "rows"

    for query, status, chosen in [
        ("format=%63sv", 200, "text/csv"),  # %63: c
        ("format=%2563sv", 406, "text/plain"),  # %25: %, then "%63sv" is no name
        ("x=1&format=CSV&format=json", 200, "text/csv"),
    ]:
        request = make_mocked_request("GET", f"/?{query}")
        response = asyncio.run(endpoint(request))
        assert (response.status, response.content_type) == (status, chosen), query
