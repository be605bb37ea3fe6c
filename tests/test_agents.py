"""Markdown for agents (``fastaccept.agents``; docs/agents.md).

One table, ``ANSWERS``: the type each Accept value gets from
``markdown_for_agents``, every ``BROWSER_DEFAULTS`` value among its rows,
and docs/agents.md's table in it. It is checked on both engines'
negotiators, through ``markdown_for_agents(...).respond`` (GET and HEAD;
other methods get HTML), through each recipe of examples/agents with its
framework's test client, and over a real socket: the Starlette recipe on
uvicorn (h11, httptools), the Flask and Django ones on waitress, where the
attacks of tests/test_socket_attacks.py get their documented answers.
Hypothesis: any Accept value gives Markdown or HTML with the right headers
(or 431) and never raises; Markdown only as a model of the weights says.
"""

from __future__ import annotations

import copy
import pickle
import re
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastaccept import BROWSER_DEFAULTS, Offer, Produces, Rendered
from fastaccept.agents import markdown_for_agents

from .conftest import ENGINES, Engine, load_example
from .recipes import Call, Reply, as_bytes, joined, same_type
from .servers import exchange, uvicorn_serving, waitress_serving
from .strategies import ANY_VALUE
from .test_integrations import django_call, starlette_call, werkzeug_call
from .test_socket_attacks import (
    HUGE_ACCEPT,
    JOINED_BY,
    MALFORMED,
    REFUSE_HUGE_HEADERS,
    Response,
    only_response,
    raw_request,
    too_large,
)
from .test_sockets import over_http

MARKDOWN = "text/markdown; charset=utf-8"
HTML = "text/html; charset=utf-8"
LINK = '<>; rel="alternate"; type="text/markdown"'
PAGE_TABLE = Path(__file__).resolve().parents[1] / "docs" / "agents.md"

#: Accept (None: absent) -> the type sent to GET and HEAD.
ANSWERS: dict[str | None, str] = {
    # docs/agents.md, "What each client gets"
    "text/markdown": MARKDOWN,
    "text/markdown, text/html;q=0.9, */*;q=0.8": MARKDOWN,
    "text/html, text/markdown": MARKDOWN,  # q=1 both: the server's order
    "text/markdown, text/html;charset=utf-8": HTML,  # a tie: the more specific
    "text/markdown;q=0.5, text/html": HTML,
    "text/markdown;q=0": HTML,  # refused; HTML is the default
    "*/*": HTML,  # curl, python-requests, fetch()
    "text/*": HTML,
    "text/markdown;variant=GFM": HTML,  # rule 9: the offer has no variant
    "application/json": HTML,  # nothing acceptable: the default
    None: HTML,
    # more
    "TEXT/Markdown; Charset=UTF-8": MARKDOWN,
    "text/markdown;q=0.001": MARKDOWN,  # HTML not acceptable at all
    "text/markdown;q=0.9, text/*": HTML,  # text/* gives HTML 1
    "text/markdown;q=0.9, */*": HTML,
    "text/markdown;q=0.5, text/*;q=0.5": MARKDOWN,  # a tie: the exact range (rule 11)
    "text/*, text/markdown;q=0": HTML,
    "text/plain, text/markdown;q=0.1": MARKDOWN,  # HTML not acceptable
    "text/markdown, text/html;q=0": MARKDOWN,
    "": HTML,  # present but empty: nothing acceptable
    **dict.fromkeys(BROWSER_DEFAULTS.values(), HTML),
}
ROWS = list(ANSWERS.items())
IDS = [repr(accept)[:48] for accept in ANSWERS]
#: What the offers answer: the explicit Markdown, then HTML.
OFFERS: list[str | Offer] = [Offer(MARKDOWN, explicit=True), HTML]
#: Methods that do not negotiate (methods are case-sensitive: "get" too).
OTHER_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get"]


def as_html(page: dict[str, str]) -> str:
    return f"<h1>{page['title']}</h1>\n<p>{page['text']}</p>\n"


def as_markdown(page: dict[str, str]) -> str:
    return f"# {page['title']}\n\n{page['text']}\n"


PAGE = markdown_for_agents(html=as_html, markdown=as_markdown)
DATA = {"title": "Welcome", "text": "Agents may read this as Markdown."}
#: The page in each type: what these renderers and every recipe send.
BODIES = {MARKDOWN: as_markdown(DATA).encode(), HTML: as_html(DATA).encode()}


def reply_of(rendered: Rendered) -> Reply:
    return Reply(rendered.status, joined(rendered.header_items), rendered.body)


def assert_page(reply: Reply, sent: str, method: str = "GET") -> None:
    """The page in ``sent``: ``Vary: Accept``, the ``Link`` on HTML only,
    the length of the GET body, and that body but for HEAD."""
    assert reply.status == 200, reply
    assert same_type(reply, sent), reply.headers
    assert [token.lower() for token in reply.vary()] == ["accept"], reply.headers
    assert reply.headers.get("link") == (LINK if sent == HTML else None), reply
    assert reply.headers["content-length"] == str(len(BODIES[sent]))
    assert reply.body == (b"" if method == "HEAD" else BODIES[sent])


# The table, as documented and on both engines.


def documented_rows() -> dict[str | None, str]:
    """docs/agents.md's table: each Accept value it writes out -> the type."""
    text = PAGE_TABLE.read_text(encoding="utf-8")
    section = text.split("\n## What each client gets\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str | None, str] = {}
    for line in [line for line in section.splitlines() if line.startswith("| ")][1:]:
        first, _, answer = (cell.strip() for cell in line.split("|")[1:-1])
        sent = {"Markdown": MARKDOWN, "HTML": HTML}.get(re.split(r"\W", answer)[0])
        if sent is None:  # a refusal: the 431
            continue
        if first == "(absent)":
            rows[None] = sent
        elif "BROWSER_DEFAULTS" in first:
            rows.update(dict.fromkeys(BROWSER_DEFAULTS.values(), sent))
        else:
            (value,) = re.findall(r"`([^`]+)`", first)
            rows[value] = sent
    return rows


def test_the_documented_table_is_this_one() -> None:
    rows = documented_rows()
    assert len(rows) >= 10
    assert {accept: ANSWERS[accept] for accept in rows} == rows


@pytest.mark.parametrize(("accept", "sent"), ROWS, ids=IDS)
def test_each_engine_chooses_as_the_table_says(
    engine: Engine, accept: str | None, sent: str
) -> None:
    # Nothing acceptable: the HTML, the default.
    assert engine.Negotiator(OFFERS).choose(accept, HTML) == sent


@pytest.mark.parametrize(("accept", "sent"), ROWS, ids=IDS)
def test_get_and_head_answer_as_the_table_says(accept: str | None, sent: str) -> None:
    for method in ("GET", "HEAD"):
        assert_page(reply_of(PAGE.respond(accept, DATA, method=method)), sent, method)
        raw = None if accept is None else accept.encode("latin-1")
        assert_page(reply_of(PAGE.respond(raw, DATA, method=method)), sent, method)


@pytest.mark.parametrize("method", OTHER_METHODS)
def test_other_methods_get_html(method: str) -> None:
    for accept in ("text/markdown", "text/markdown, text/html;q=0", None):
        assert_page(reply_of(PAGE.respond(accept, DATA, method=method)), HTML)


def test_an_over_long_accept_is_431_with_vary() -> None:
    accept = "text/markdown, " * 600
    for method in ("GET", "HEAD"):
        sent = PAGE.respond(accept, DATA, method=method)
        assert sent.status == 431
        assert sent.headers["Vary"] == "Accept" and "Link" not in sent.headers
        assert (b"the limit is 8192" in sent.body) == (method == "GET")
    # Another method does not read Accept: HTML.
    assert_page(reply_of(PAGE.respond(accept, DATA, method="POST")), HTML)


def test_the_decision_and_the_response_agree() -> None:
    decision = PAGE.produces.select("text/html")
    assert decision.headers["Link"] == LINK
    assert PAGE.produces.select("text/markdown").media_type == MARKDOWN
    assert "Link" not in PAGE.produces.select("text/markdown").headers
    assert_page(reply_of(PAGE.render(decision, DATA)), HTML)
    varied = PAGE.respond("text/html", DATA, vary="Cookie")
    assert varied.headers["Vary"] == "Cookie, Accept"
    assert varied.headers["Link"] == LINK


# A Link of the handler's own.


@pytest.mark.parametrize(
    "headers",
    [
        {"Link": "</next>; rel=next"},
        [("link", "</next>; rel=next"), ("X-Page", "1")],
    ],
)
def test_a_link_given_joins_the_alternate(headers: Any) -> None:
    html = PAGE.render(PAGE.produces.select("*/*"), DATA, headers=headers)
    links = [value for name, value in html.header_items if name.lower() == "link"]
    assert links == [f"{LINK}, </next>; rel=next"]
    markdown = PAGE.render(PAGE.produces.select("text/markdown"), DATA, headers=headers)
    links = [value for name, value in markdown.header_items if name.lower() == "link"]
    assert links == ["</next>; rel=next"]


def test_an_empty_link_given_adds_no_element() -> None:
    # RFC 9110 §5.6.1: no empty list element is sent, and §5.5: no value ends
    # in a space (h11 refuses the alternate followed by ", ").
    html = PAGE.render(PAGE.produces.select("*/*"), DATA, headers={"Link": ""})
    links = [value for name, value in html.header_items if name.lower() == "link"]
    assert links == [LINK]


def test_a_handlers_link_joins_the_alternate_in_an_endpoint() -> None:
    """Through an integration (Starlette keeps one value a name)."""
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from fastaccept import Answer
    from fastaccept.starlette import negotiated

    @negotiated(PAGE)
    async def page(request: Any) -> Answer:
        return Answer(DATA, headers={"Link": "</next>; rel=next"})

    client = TestClient(Starlette(routes=[Route("/", page)]))
    html = client.get("/", headers={"Accept": "text/html"})
    assert html.headers.get_list("link") == [f"{LINK}, </next>; rel=next"]
    markdown = client.get("/", headers={"Accept": "text/markdown"})
    assert markdown.headers.get_list("link") == ["</next>; rel=next"]


def test_other_headers_given_are_kept() -> None:
    html = PAGE.render(PAGE.produces.select(None), DATA, headers={"X-Page": "1"})
    assert html.headers == {
        "Content-Type": HTML,
        "Link": LINK,
        "Vary": "Accept",
        "X-Page": "1",
        "Content-Length": str(len(BODIES[HTML])),
    }


# Arguments.


@pytest.mark.parametrize("argument", ["html", "markdown"])
@pytest.mark.parametrize("given", ["<h1>hi</h1>", None, b"# hi"])
def test_a_renderer_must_be_callable(argument: str, given: object) -> None:
    renderers: dict[str, Any] = {"html": as_html, "markdown": as_markdown}
    renderers[argument] = given
    with pytest.raises(TypeError, match=f"^{argument} must be callable"):
        markdown_for_agents(**renderers)


def test_the_renderers_are_named() -> None:
    with pytest.raises(TypeError):
        markdown_for_agents(as_html, as_markdown)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="markdown"):
        markdown_for_agents(html=as_html)  # type: ignore[call-arg]


def test_equal_and_pickled_by_its_renderers() -> None:
    assert markdown_for_agents(html=as_html, markdown=as_markdown) == PAGE
    assert hash(PAGE) == hash(markdown_for_agents(html=as_html, markdown=as_markdown))
    assert markdown_for_agents(html=as_markdown, markdown=as_html) != PAGE
    assert repr(PAGE) == (
        f"markdown_for_agents(html={as_html!r}, markdown={as_markdown!r})"
    )  # the public function's call, not its private class
    for made in (pickle.loads(pickle.dumps(PAGE)), copy.copy(PAGE)):
        assert made == PAGE
        assert made.respond(None, DATA) == PAGE.respond(None, DATA)
        assert made.respond("text/markdown", DATA).body == BODIES[MARKDOWN]


def test_its_negotiation_pickled_or_copied_keeps_the_link() -> None:
    # The Link is the negotiation's class's, not a patch on one object; and
    # that class makes it no plain Produces of the same offers.
    plain = Produces(OFFERS, default=HTML)
    assert "Link" not in plain.select("*/*").headers
    for made in (pickle.loads(pickle.dumps(PAGE.produces)), copy.copy(PAGE.produces)):
        assert made == PAGE.produces
        assert made.select("*/*").headers["Link"] == LINK
        assert "Link" not in made.select("text/markdown").headers
        assert made != plain and plain != made


def test_its_negotiation_of_offers_without_the_html_is_a_clear_error() -> None:
    # The Link is the HTML offer's: a negotiation without it says so.
    with pytest.raises(ValueError, match=r"headers to the answers of \['text/html"):
        type(PAGE.produces)([MARKDOWN])


# Any Accept value.

#: Members that reach the page: each at most once, in any order, with or
#: without a weight.
RANGES = ("text/markdown", "text/html", "text/*", "*/*")
WEIGHTS = st.sampled_from([None, "0", "0.001", "0.5", "0.9", "1"])


@st.composite
def weighed(draw: st.DrawFn) -> tuple[str, dict[str, float]]:
    """An Accept value of some of ``RANGES``, and the weight each one has."""
    chosen = draw(st.permutations(RANGES))[: draw(st.integers(0, len(RANGES)))]
    weights: dict[str, float] = {}
    members = []
    for media_range in chosen:
        weight = draw(WEIGHTS)
        weights[media_range] = 1.0 if weight is None else float(weight)
        members.append(media_range if weight is None else f"{media_range};q={weight}")
    return ", ".join(members), weights


def model(weights: dict[str, float]) -> str:
    """The type to send: Markdown where its own range gives it a weight
    above 0 and no lower than HTML's, which the most specific range that
    reaches HTML gives (rules 10, 11, 21); else the HTML."""
    markdown = weights.get("text/markdown", 0.0)
    html = next((weights[r] for r in RANGES[1:] if r in weights), 0.0)
    return MARKDOWN if markdown > 0 and markdown >= html else HTML


@settings(max_examples=300)
@given(weighed())
def test_the_weights_decide_as_a_model_says(
    value: tuple[str, dict[str, float]],
) -> None:
    accept, weights = value
    sent = model(weights)
    for engine in ENGINES.values():
        assert engine.Negotiator(OFFERS).choose(accept, HTML) == sent, accept
    assert_page(reply_of(PAGE.respond(accept, DATA)), sent)


#: Accept values over the limit (8192 characters): 431.
TOO_LONG = st.integers(8193, 9000).map(lambda n: ("text/markdown," * 700)[:n])


@settings(max_examples=300)
@given(
    accept=st.one_of(ANY_VALUE, weighed().map(lambda value: value[0]), TOO_LONG),
    method=st.sampled_from(["GET", "HEAD", *OTHER_METHODS]),
)
def test_any_accept_gets_markdown_or_html(accept: str | bytes, method: str) -> None:
    sent = PAGE.respond(accept, DATA, method=method)
    if len(accept) > 8192 and method in ("GET", "HEAD"):
        assert sent.status == 431 and sent.headers["Vary"] == "Accept"
        return
    text = accept if isinstance(accept, str) else accept.decode("latin-1")
    markdown = sent.headers["Content-Type"] == MARKDOWN
    # Only a range naming text/markdown reaches it, and only GET and HEAD.
    if markdown:
        assert "text/markdown" in text.lower() and method in ("GET", "HEAD")
    assert_page(reply_of(sent), MARKDOWN if markdown else HTML, method)


# The recipes of examples/agents, through their frameworks' test clients.

RECIPES = {
    "starlette_agents": "starlette",
    "flask_agents": "flask",
    "django_agents": "django",
}
#: The Django recipe's settings, once it has configured them.
DJANGO_SETTINGS: dict[str, Any] = {}


@pytest.fixture(scope="module")
def django_agents() -> Iterator[ModuleType]:
    """The Django recipe, its own settings in force until the module's tests
    are done. Django's settings are the process's, and the framework recipe
    (examples/frameworks/django_app.py) configures them too: those already
    there are put back after, or none, so that its ``configure()`` still
    works (as tests/attack_django.py does)."""
    pytest.importorskip("django")
    from django.conf import settings
    from django.utils.functional import empty

    before = settings._wrapped
    settings._wrapped = DJANGO_SETTINGS.get("own", empty)
    try:
        module = load_example("agents/django_agents.py")  # configures them
        DJANGO_SETTINGS["own"] = settings._wrapped
        yield module
    finally:
        settings._wrapped = before


def load_recipe(request: pytest.FixtureRequest, name: str) -> ModuleType:
    if name == "django_agents":
        module: ModuleType = request.getfixturevalue("django_agents")
        return module
    pytest.importorskip(RECIPES[name])
    return load_example(f"agents/{name}.py")


@pytest.fixture(scope="module", params=sorted(RECIPES))
def call(request: pytest.FixtureRequest) -> Call:
    name: str = request.param
    module = load_recipe(request, name)
    if name == "starlette_agents":
        return starlette_call(module.app)
    if name == "flask_agents":
        return werkzeug_call(module.app.test_client())
    return django_call(module)


def page(
    call: Call, *accept: str | bytes, method: str = "GET", name: str = "welcome"
) -> Reply:
    """``/pages/<name>`` with one Accept line per value (none: no Accept)."""
    lines = [("accept", as_bytes(value)) for value in accept]
    return call(method, f"/pages/{name}", lines, b"")


def ask(call: Call, accept: str | None, method: str = "GET") -> Reply:
    return (
        page(call, method=method)
        if accept is None
        else page(call, accept, method=method)
    )


@pytest.mark.thread_unsafe(reason="Django's settings are the process's")
@pytest.mark.parametrize(("accept", "sent"), ROWS, ids=IDS)
def test_each_recipe_answers_as_the_table_says(
    call: Call, accept: str | None, sent: str
) -> None:
    for method in ("GET", "HEAD"):
        assert_page(ask(call, accept, method), sent, method)


@pytest.mark.thread_unsafe(reason="Django's settings are the process's")
def test_each_recipe_takes_get_and_head_only(call: Call) -> None:
    for method in ("POST", "PUT", "DELETE"):
        reply = page(call, "text/markdown", method=method)
        assert reply.status == 405, reply
        assert not same_type(reply, MARKDOWN)


@pytest.mark.thread_unsafe(reason="Django's settings are the process's")
def test_each_recipe_varies_its_404_on_accept(call: Call) -> None:
    for accept in ("text/markdown", "*/*"):
        reply = page(call, accept, name="nowhere")
        assert reply.status == 404, reply
        assert "accept" in [token.lower() for token in reply.vary()]


# The recipes over a real socket, and the socket suite's attacks.

SERVED = [
    ("uvicorn-h11", "starlette_agents"),
    ("uvicorn-httptools", "starlette_agents"),
    ("waitress", "flask_agents"),
    ("waitress", "django_agents"),
]
TARGET = "/pages/welcome"


@pytest.fixture(scope="module", params=SERVED, ids="/".join)
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, int]]:
    """The server's name, and the port it serves a recipe on."""
    server, name = request.param
    module = load_recipe(request, name)
    if server == "waitress":
        app = module.application if name == "django_agents" else module.app
        serving = waitress_serving
    else:
        app = module.app
        serving = partial(uvicorn_serving, http=server.removeprefix("uvicorn-"))
    with serving(app) as port:
        yield server, port


def on_the_wire(served: tuple[str, int], *fields: bytes) -> Response:
    """The only response to ``GET /pages/welcome`` with these field lines."""
    return only_response(exchange(served[1], raw_request("GET", TARGET, *fields)))


def assert_page_on_the_wire(response: Response, sent: str) -> None:
    fields = {name: value.decode("latin-1") for name, value in response.fields}
    assert_page(Reply(response.status, fields, response.body), sent)


SOCKET = pytest.mark.thread_unsafe(
    reason="starts a server per recipe on a loopback port, for the module"
)


@SOCKET
@pytest.mark.parametrize(("accept", "sent"), ROWS, ids=IDS)
def test_over_a_socket_as_the_table_says(
    served: tuple[str, int], accept: str | None, sent: str
) -> None:
    call = over_http(served[1])
    for method in ("GET", "HEAD"):
        assert_page(ask(call, accept, method), sent, method)


@SOCKET
def test_over_a_socket_accept_lines_are_one_list(served: tuple[str, int]) -> None:
    # RFC 9110 §5.3: "text/html, text/markdown", both at q=1: the server's order.
    call = over_http(served[1])
    assert_page(page(call, "text/html", "text/markdown"), MARKDOWN)
    assert_page(page(call, "text/markdown;q=0.5", "text/html"), HTML)


@SOCKET
def test_over_a_socket_a_long_accept_is_431(served: tuple[str, int]) -> None:
    accept = (b"text/markdown," * 700)[:9000]
    response = on_the_wire(served, b"Accept: " + accept)
    assert (response.status, response.body) == (431, too_large("Accept", 9000))
    assert response.value("vary") == b"Accept"
    assert not response.values("link")


@SOCKET
def test_over_a_socket_lines_joined_over_the_limit_are_431(
    served: tuple[str, int],
) -> None:
    lines = (b"Accept: text/markdown," + b"a" * 4100, b"Accept: " + b"b" * 4100)
    joined_length = 8214 + len(JOINED_BY[served[0]])
    response = on_the_wire(served, *lines)
    assert response.status == 431, response
    assert response.body == too_large("Accept", joined_length)


@SOCKET
def test_over_a_socket_a_huge_accept_is_refused(served: tuple[str, int]) -> None:
    request = raw_request("GET", TARGET, b"Accept: " + HUGE_ACCEPT)
    stream = exchange(served[1], request)
    own = REFUSE_HUGE_HEADERS.get(served[0])
    if own is None:  # the library's 431, the value not read
        response = only_response(stream)
        assert (response.status, response.body) == (
            431,
            too_large("Accept", len(HUGE_ACCEPT)),
        )
    elif stream:  # else the server's reset overtook its answer
        response = only_response(stream)
        assert response.status == own, stream[:300]
        assert b"the Accept header is" not in response.body  # the server's


@SOCKET
@pytest.mark.parametrize(
    ("accept", "sent"),
    [
        (MALFORMED, HTML),  # skipped members, image/png: nothing acceptable
        (MALFORMED + b", text/markdown", MARKDOWN),
        (b"text/markdown, \xe9t\xe9/x", MARKDOWN),  # Latin-1: a member skipped
        (b"text/markdown\xff", HTML),  # no valid member
        (b"text/markdown;q=\xb5", HTML),  # no valid weight, the member skipped
        (b"*/*;q=0.5, text/markdown;q=0.4, " + b"x;" * 2000, HTML),
    ],
)
def test_over_a_socket_hostile_values_get_a_page(
    served: tuple[str, int], accept: bytes, sent: str
) -> None:
    assert_page_on_the_wire(on_the_wire(served, b"Accept: " + accept), sent)


@SOCKET
@pytest.mark.parametrize("accept", [b"text/markdown\x01", b"text/\x00markdown"])
def test_over_a_socket_control_bytes_get_a_page_or_the_servers_400(
    served: tuple[str, int], accept: bytes
) -> None:
    # RFC 9110 §5.5: no control but HTAB in a field value; a server may
    # refuse the request (400) before the application sees it.
    stream = exchange(served[1], raw_request("GET", TARGET, b"Accept: " + accept))
    response = only_response(stream)
    if response.status == 400:
        assert b"Welcome" not in response.body
    else:
        assert_page_on_the_wire(response, HTML)
