"""``fastaccept.problem``: an error for any status, as problem+json (RFC 9457)
or plain text as Accept prefers (docs/rules.md rule 16), ``Vary: Accept``;
a bad argument refused with a clear error, nothing in Accept a raise."""

from __future__ import annotations

import asyncio
import enum
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Renderers, problem
from fastaccept._responses import reason_phrase

from .recipes import Call, Reply, load_recipe
from .servers import aiohttp_serving, uvicorn_serving, waitress_serving
from .strategies import mostly
from .test_integrations import (
    aiohttp_call,
    falcon_call,
    litestar_call,
    starlette_call,
    werkzeug_call,
    wsgi_call,
)
from .test_sockets import over_http

PREFERS_PROBLEM = "application/problem+json, text/plain;q=0.5"


def test_problem_json_with_every_member() -> None:
    sent = problem(
        409,
        PREFERS_PROBLEM,
        title="Name taken",
        detail="a user named ann exists",
        type="https://example.org/problems/taken",
        extensions={"name": "ann", "instance": "/users/ann"},
    )
    assert (sent.status, sent.ok) == (409, False)
    assert sent.headers["Content-Type"] == "application/problem+json"
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    assert json.loads(sent.body) == {
        "type": "https://example.org/problems/taken",
        "title": "Name taken",
        "status": 409,
        "detail": "a user named ann exists",
        "name": "ann",
        "instance": "/users/ann",
    }


#: Extensions of each shape: nested, non-ASCII (names too), empty values,
#: none at all.
EXTENSIONS: list[dict[str, Any]] = [
    {"errors": [{"field": "na\u00efve", "msg": '"quoted"\n'}], "n": [1, 2.5, None]},
    {"name": "zo\u00eb \u2713 \u2028", "\u03a9mega": {"\u00fc": True}},
    {"empty": {}, "list": [], "text": ""},
    {},
]


@pytest.mark.parametrize("extensions", EXTENSIONS)
@pytest.mark.parametrize("detail", [None, "no user 7"])
def test_the_body_is_json_dumps_of_the_members_in_order(
    extensions: dict[str, Any], detail: str | None
) -> None:
    # The extensions' values are written apart from the object they go in:
    # the body is what json.dumps writes of the whole, byte for byte.
    sent = problem(422, PREFERS_PROBLEM, detail=detail, extensions=extensions)
    members: dict[str, Any] = {
        "type": "about:blank",
        "title": "Unprocessable Content",  # RFC 9110 §15.5.21, on every Python
        "status": 422,
    }
    if detail is not None:
        members["detail"] = detail
    assert sent.body == json.dumps({**members, **extensions}).encode()


def test_the_body_is_these_bytes() -> None:
    sent = problem(
        409,
        PREFERS_PROBLEM,
        title="Name taken",
        extensions={"nested": {"a": [1, None]}, "name": "zo\u00eb", "empty": {}},
    )
    assert sent.body == (
        b'{"type": "about:blank", "title": "Name taken", "status": 409, '
        b'"nested": {"a": [1, null]}, "name": "zo\\u00eb", "empty": {}}'
    )


def test_defaults_follow_rfc_9457() -> None:
    # about:blank, and its title the status phrase (RFC 9457 §4.2.1).
    body = json.loads(problem(404, "application/json").body)
    assert body == {"type": "about:blank", "title": "Not Found", "status": 404}


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "404 Not Found: no user 7\n"),
        ("text/html", "404 Not Found: no user 7\n"),  # never a 406 for an error
        ("text/plain, application/problem+json;q=0.5", "404 Not Found: no user 7\n"),
        ("a/b, " * 5000, "404 Not Found: no user 7\n"),  # over the limit: not read
    ],
)
def test_plain_text_where_accept_does_not_prefer_problem_json(
    accept: str | None, expected: str
) -> None:
    sent = problem(404, accept, detail="no user 7")
    assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert sent.body.decode() == expected
    assert sent.headers["Vary"] == "Accept"


def test_an_empty_detail_is_written_in_either_form() -> None:
    # Given, it is a member (RFC 9457 §3.1.4), as the text form writes it.
    assert json.loads(problem(400, "application/json", detail="").body) == {
        "type": "about:blank",
        "title": "Bad Request",
        "status": 400,
        "detail": "",
    }
    assert "detail" not in json.loads(problem(400, "application/json").body)
    assert problem(400, None, detail="").body == b"400 Bad Request: \n"


def test_a_lone_surrogate_in_detail_is_written_escaped_in_either_form() -> None:
    # A name from a JSON body can hold one: neither form raises.
    detail = "no user named \udcff"
    assert problem(404, None, detail=detail).body == (
        b"404 Not Found: no user named \\udcff\n"
    )
    sent = problem(404, "application/json", detail=detail)
    assert json.loads(sent.body)["detail"] == detail


def test_the_plain_text_form_is_one_line_whatever_the_title_and_detail_hold() -> None:
    # docs/web.md: a line break is written as a space (a framework error's
    # message, the detail with problems=True, may hold request data).
    detail = "no user a\r\n200 OK: fine\nx\u2028y"
    sent = problem(404, None, title="Not\nFound", detail=detail)
    assert sent.body == b"404 Not Found: no user a 200 OK: fine x y\n"
    # The JSON form writes them as given, escaped (RFC 8259 §7).
    sent = problem(404, "application/json", title="Not\nFound", detail=detail)
    assert json.loads(sent.body)["detail"] == detail
    assert json.loads(sent.body)["title"] == "Not\nFound"


def test_the_plain_text_form_shows_no_control_or_bidirectional_character() -> None:
    # docs/web.md: what would move a terminal's cursor or reorder what a
    # reader sees (a framework's message may quote the request's path or
    # Content-Type) is written as U+FFFD; a tab and other text stay.
    unshown = [*range(0x09), *range(0x0E, 0x1C), 0x1F, *range(0x7F, 0x85)]
    unshown += [*range(0x86, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    for code in unshown:
        sent = problem(400, None, title=f"Bad{chr(code)}", detail=f"a{chr(code)}b")
        assert sent.body == "400 Bad\ufffd: a\ufffdb\n".encode()
    kept = "\t\xa0\xe9\u20ac\u2029x\u200f\U0001f600 <b>"
    sent = problem(400, None, detail=kept)
    assert sent.body == f"400 Bad Request: {kept.replace(chr(0x2029), ' ')}\n".encode()
    # The JSON form writes them as given, escaped (RFC 8259 §7).
    escaped = "\x1b[2J\x00\u202e"
    sent = problem(400, "application/json", detail=escaped)
    assert json.loads(sent.body)["detail"] == escaped
    assert b"\\u001b[2J\\u0000\\u202e" in sent.body


class _Text(str, enum.Enum):
    GONE = "Gone for good"
    WHY = "moved away"


def test_a_str_subclass_is_written_as_its_text_in_either_form() -> None:
    # A str enum's format() (an f-string's) is its name on Python 3.11+:
    # both forms write its text, as json.dumps does.
    sent = problem(410, None, title=_Text.GONE, detail=_Text.WHY)
    assert sent.body == b"410 Gone for good: moved away\n"
    sent = problem(410, "application/json", title=_Text.GONE, detail=_Text.WHY)
    assert json.loads(sent.body)["title"] == "Gone for good"
    assert json.loads(sent.body)["detail"] == "moved away"


def test_a_status_without_a_phrase_takes_its_class() -> None:
    assert problem(499, None).body == b"499 Client Error\n"
    # 418 is "(Unused)" in RFC 9110 §15.5.19 and IANA's registry (Python's
    # HTTPStatus names it "I'm a Teapot").
    assert problem(418, None).body == b"418 Client Error\n"


@pytest.mark.parametrize(
    ("status", "phrase"),
    [
        (413, "Content Too Large"),
        (414, "URI Too Long"),
        (416, "Range Not Satisfiable"),
        (422, "Unprocessable Content"),
        (406, "Not Acceptable"),
    ],
)
def test_the_phrases_are_rfc_9110s_on_every_python(status: int, phrase: str) -> None:
    # CPython before 3.13 names these four as RFC 7231 did.
    assert reason_phrase(status) == phrase
    assert problem(status, None).body == f"{status} {phrase}\n".encode()


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"status": "404"}, TypeError, "status must be an int, not str"),
        ({"status": True}, TypeError, "status must be an int, not bool"),
        ({"status": 200}, ValueError, "an error's, 400 to 599, not 200"),
        ({"status": 600}, ValueError, "400 to 599"),
        ({"title": 3}, TypeError, "title must be a str or None, not int"),
        ({"detail": b"x"}, TypeError, "detail must be a str or None, not bytes"),
        ({"type": ["x"]}, TypeError, "type must be a str or None, not list"),
        ({"extensions": [("a", 1)]}, TypeError, "extensions must be a mapping"),
        ({"extensions": {1: "a"}}, TypeError, "a member name must be a str"),
        ({"extensions": {"status": 500}}, ValueError, "pass it as status="),
        ({"extensions": {"at": object()}}, ValueError, "value of 'at' is not JSON"),
        ({"extensions": {"x": float("nan")}}, ValueError, "value of 'x' is not JSON"),
        ({"extensions": {"instance": 7}}, TypeError, "'instance' must be a str"),
        # json.dumps writes both keys as "1" (and True as "true"): one name twice
        (
            {"extensions": {"x": {1: "a", "1": "b"}}},
            ValueError,
            "^extensions: the value of 'x', written as JSON, names '1' twice in one",
        ),
        (
            {"extensions": {"x": [{"true": 1, True: 2}]}},
            ValueError,
            "^extensions: the value of 'x', written as JSON, names 'true' twice",
        ),
    ],
)
def test_bad_arguments_are_named(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    given_arguments = {"status": 404, **arguments}
    status = given_arguments.pop("status")
    with pytest.raises(error, match=message):
        problem(status, None, **given_arguments)


def test_an_extension_nested_to_the_recursion_limit_is_a_value_error() -> None:
    # Written by json.dumps, then read back by json.loads (names once), each
    # with its own depth limit (the interpreter's, or from 3.12 the C
    # stack's): every depth about where json stops is written or refused by
    # name, never a RecursionError.
    def written(depth: int) -> bool:
        value: dict[str, Any] = {}
        for _ in range(depth):
            value = {"a": value}
        try:
            problem(400, None, extensions={"x": value})
        except ValueError as error:
            assert re.search(
                "the value of 'x' is (not JSON|nested too deep)", str(error)
            )
            return False
        return True

    # Not half the interpreter's limit: a debug CPython 3.13's C stack limit
    # is 500 calls, which that depth and problem's own calls pass.
    low = 100
    assert written(low)
    high = low * 2
    while written(high):  # json's own limit, somewhere above
        low, high = high, high * 2
        assert high < 1 << 18, "json wrote a value nested 2**17 deep"
    while high - low > 1:  # where written ends
        middle = (low + high) // 2
        low, high = (middle, high) if written(middle) else (low, middle)
    for depth in range(low - 40, low + 40):
        written(depth)


#: RFC 3986's URI reference: its characters and pct-encoded octets, "#"
#: only once, "[" and "]" only around the host of an authority (``is_uri_reference``).
_OCTET = r"%[0-9A-Fa-f]{2}"
_PART = re.compile(rf"(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=]|{_OCTET})*")


def is_uri_reference(text: str) -> bool:
    """RFC 3986 §4.1, read apart from fastaccept's own pattern: ``[ scheme ":" ]
    [ "//" authority ] path-and-query [ "#" fragment ]``, where ``authority =
    [ userinfo "@" ] host [ ":" port ]`` and only the host may be
    ``"[" ... "]"``."""
    rest = text
    scheme = re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", rest)
    if scheme:
        rest = rest[scheme.end() :]
    elif ":" in re.split("[/?#]", rest)[0]:
        return False  # §4.2: a relative path's first segment holds no colon
    if rest.startswith("//"):
        end = min((rest.find(c, 2) for c in "/?#" if c in rest[2:]), default=len(rest))
        authority, rest = rest[2:end], rest[end:]
        userinfo, _, hostport = authority.rpartition("@")
        host = hostport  # a reg-name or IPv4 address, and any port: no brackets
        if hostport.startswith("["):  # an IP-literal, then only a port
            host, _, port = hostport[1:].partition("]")
            if not re.fullmatch(r"(?::[0-9]*)?", port):
                return False
        if not all(_PART.fullmatch(p) for p in (userinfo, host)):
            return False
    path, _, fragment = rest.partition("#")
    return bool(_PART.fullmatch(path)) and bool(_PART.fullmatch(fragment))


@pytest.mark.parametrize(
    ("given", "written"),
    [
        ("about:blank", "about:blank"),
        ("https://example.org/p?q=1#f", "https://example.org/p?q=1#f"),
        ("/errors/na%C3%AFve", "/errors/na%C3%AFve"),  # encoded already
        ("", ""),
        # RFC 9457 §3.1.1, §3.1.5: URI references; what one holds only
        # percent-encoded is written so (a request's decoded path, an IRI)
        ("/items/caf\u00e9", "/items/caf%C3%A9"),
        ("/a b", "/a%20b"),
        ("/errors/<b>", "/errors/%3Cb%3E"),
        ("/x%zz", "/x%25zz"),
        # "[" and "]" stand only around an IP-literal host, "#" only once
        # (RFC 3986 §3.2.2, §3.5)
        ("/items/[1]", "/items/%5B1%5D"),
        ("/search?q=[1]#a#b", "/search?q=%5B1%5D#a%23b"),
        ("http://[::1]:8080/p[2]", "http://[::1]:8080/p%5B2%5D"),
        ("//[v1.x]/p#[f]", "//[v1.x]/p#%5Bf%5D"),
        ("http://u[1]@h:80]/x", "http://u%5B1%5D@h:80%5D/x"),
        ("http://[::1]@h/x", "http://%5B::1%5D@h/x"),  # userinfo, no host
        ("//[x]y/p", "//%5Bx%5Dy/p"),
        # A relative path's first segment holds no colon (RFC 3986 §4.2): one
        # where no scheme begins the reference is encoded, not read as one.
        ("10:30/log", "10%3A30/log"),
        (":x:y/z:w?q:r#f:g", "%3Ax%3Ay/z:w?q:r#f:g"),
        ("caf\u00e9:menu", "caf%C3%A9%3Amenu"),
        ("[a:b]/c", "%5Ba%3Ab%5D/c"),
        ("tag:example.org,2024:bad", "tag:example.org,2024:bad"),  # a scheme
        ("./a:b", "./a:b"),
        ("/a:b", "/a:b"),
        ("//h/a:b", "//h/a:b"),  # a network-path reference (RFC 3986 §4.2)
    ],
)
def test_a_type_and_an_instance_are_written_as_uri_references(
    given: str, written: str
) -> None:
    sent = problem(404, PREFERS_PROBLEM, type=given, extensions={"instance": given})
    body = json.loads(sent.body)
    assert (body["type"], body["instance"]) == (written, written)


def test_accept_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        problem(404, 3)  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    status=mostly(
        st.integers(400, 599),
        st.integers(-10, 1000) | st.sampled_from([True, "404", None]),
    ),
    # Most values prefer problem+json, so that its body's checks run.
    accept=mostly(
        st.sampled_from([PREFERS_PROBLEM, "application/problem+json"]),
        st.none() | st.text(max_size=60) | st.binary(max_size=60),
    ),
    title=mostly(st.none() | st.text(), st.integers()),
    detail=st.none() | st.text(),
    type_=st.none() | st.text(),
    extensions=st.none()
    | st.dictionaries(st.text(max_size=8), JSON_VALUES | st.just(float("inf"))),
)
def test_any_arguments_give_a_clear_error_or_a_well_formed_answer(
    status: Any, accept: Any, title: Any, detail: Any, type_: Any, extensions: Any
) -> None:
    try:
        sent = problem(
            status,
            accept,
            title=title,
            detail=detail,
            type=type_,
            extensions=extensions,
        )
    except (TypeError, ValueError) as error:
        assert str(error)  # says what is wrong
        return
    assert sent.status == status and 400 <= status <= 599
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    if sent.headers["Content-Type"] == "application/problem+json":
        body = json.loads(sent.body)
        assert body["status"] == status
        assert body.get("detail") == detail
        # type and an instance: URI references, the text percent-encoded
        for member, given in (("type", type_), ("instance", extensions or {})):
            if isinstance(given, dict):
                given = given.get(member)
            if given is not None:
                assert is_uri_reference(body[member]), body[member]
                decoded = unquote(body[member], errors="surrogatepass")
                assert decoded == unquote(given, errors="surrogatepass")
        if type_ is None:
            assert body["type"] == "about:blank"
        members = {k: v for k, v in body.items() if k not in ("type", "title")}
        assert {k: v for k, v in (extensions or {}).items() if k != "instance"} == {
            k: v
            for k, v in members.items()
            if k not in ("status", "detail", "instance")
        }
    else:
        assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert sent.body.decode().startswith(f"{status} ")


# --- The frameworks' own errors on negotiated routes: Vary: Accept, and,
# with problems=True, their bodies as problems (docs/web.md, "Errors
# negotiated for any status"); through test clients and over real sockets.

GREETING_TYPES = {"application/json": json.dumps}
#: Each app routes ``/problem/ann`` (``problems=True``) and ``/plain/ann``
#: (the framework's own answer) to a handler that raises its 404.
ROUTES = {"/problem/ann": True, "/plain/ann": False}
#: The headers each 404 asks for, where the framework's error carries some:
#: its ``Vary`` merged with the route's (rule 17), as a problem too.
ASKED = {"X-Why": "gone", "Vary": "Cookie"}


def _starlette_app(fastapi: bool) -> Any:
    if fastapi:
        pytest.importorskip("fastapi")
        from fastapi import FastAPI, HTTPException

        from fastaccept.fastapi import NegotiatedRoute, negotiated

        app = FastAPI()
        app.router.route_class = NegotiatedRoute
        for path, problems in ROUTES.items():

            @app.get(path)
            @negotiated(Renderers(GREETING_TYPES), problems=problems)
            def fastapi_user() -> dict[str, str]:
                raise HTTPException(404, "no such user", headers=ASKED)

        return app
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException as StarletteError
    from starlette.routing import Route

    from fastaccept.starlette import negotiated as starlette_negotiated

    def route(path: str, problems: bool) -> Route:
        @starlette_negotiated(Renderers(GREETING_TYPES), problems=problems)
        async def starlette_user(request: Any) -> dict[str, str]:
            raise StarletteError(404, "no such user", headers=ASKED)

        return Route(path, starlette_user)

    return Starlette(routes=[route(*pair) for pair in ROUTES.items()])


def _flask_app() -> Any:
    pytest.importorskip("flask")
    from flask import Flask, abort

    from fastaccept.flask import negotiated

    app = Flask(__name__)
    for path, problems in ROUTES.items():

        @negotiated(Renderers(GREETING_TYPES), problems=problems)
        def flask_user() -> dict[str, str]:
            abort(404, "no such user")

        app.add_url_rule(path, path, flask_user)

    @app.errorhandler(404)
    def not_found(error: Any) -> tuple[str, int]:  # for /plain/ann only
        return "the app's page", 404

    return app


def _falcon_app() -> Any:
    falcon = pytest.importorskip("falcon")
    from fastaccept.falcon import negotiated

    app = falcon.App()
    for path, problems in ROUTES.items():

        class User:
            @negotiated(Renderers(GREETING_TYPES), problems=problems)
            def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                raise falcon.HTTPNotFound(description="no such user", headers=ASKED)

            on_head = on_get

        app.add_route(path, User())
    return app


def _litestar_app() -> Any:
    pytest.importorskip("litestar")
    from litestar import Litestar, route
    from litestar.exceptions import NotFoundException

    from fastaccept.litestar import NegotiationPlugin, negotiated

    def user(path: str, problems: bool) -> Any:
        @route(path, http_method=["GET", "HEAD"])  # Litestar routes HEAD if listed
        @negotiated(Renderers(GREETING_TYPES), problems=problems)
        async def litestar_user() -> dict[str, str]:
            raise NotFoundException("no such user", headers=ASKED)

        return litestar_user

    handlers = [user(*pair) for pair in ROUTES.items()]
    return Litestar(handlers, plugins=[NegotiationPlugin()])


def _aiohttp_app() -> Any:
    pytest.importorskip("aiohttp")
    from aiohttp import web

    from fastaccept.aiohttp import negotiated

    app = web.Application()
    for path, problems in ROUTES.items():

        @negotiated(Renderers(GREETING_TYPES), problems=problems)
        async def aiohttp_user(request: web.Request) -> dict[str, str]:
            raise web.HTTPNotFound(text="no such user", headers=ASKED)

        app.router.add_get(path, aiohttp_user)
    return app


def _django_app() -> Any:
    """The Django recipe's project with the two routes added to it."""
    recipe = load_recipe("django_app")  # configures Django's settings once
    from django.http import Http404
    from django.urls import clear_url_caches, path

    from fastaccept.django import negotiated

    for route, problems in ROUTES.items():
        if any(str(p.pattern) == route[1:] for p in recipe.urlpatterns):
            continue

        @negotiated(Renderers(GREETING_TYPES), problems=problems)
        def django_user(request: Any) -> dict[str, str]:
            raise Http404("no such user")

        recipe.urlpatterns.append(path(route[1:], django_user))
    clear_url_caches()
    return recipe.application


#: Each framework's app, whether it is ASGI (None: aiohttp), and its test client.
PROBLEM_APPS: dict[
    str, tuple[Callable[[], Any], bool | None, Callable[[Any], Call]]
] = {
    "starlette": (lambda: _starlette_app(False), True, starlette_call),
    "fastapi": (lambda: _starlette_app(True), True, starlette_call),
    "flask": (_flask_app, False, lambda app: werkzeug_call(app.test_client())),
    "falcon": (_falcon_app, False, falcon_call),
    "django": (_django_app, False, wsgi_call),
    "litestar": (_litestar_app, True, litestar_call),
    "aiohttp": (_aiohttp_app, None, aiohttp_call),
}


def _request(call: Call, method: str, path: str, accept: str | None) -> Reply:
    return call(
        method, path, [] if accept is None else [("Accept", accept.encode())], b""
    )


def check_raised_404(call: Call, framework: str) -> None:
    """``/problem/ann``: a problem in the form Accept prefers, the error's
    own headers kept, no body for HEAD; ``/plain/ann``: the framework's own
    404; both with ``Accept`` in their Vary."""
    as_json = _request(call, "GET", "/problem/ann", "application/json")
    assert as_json.status == 404, as_json.body  # rule 16: JSON, not text
    assert as_json.headers["content-type"] == "application/problem+json"
    assert json.loads(as_json.body)["detail"] == "no such user"
    if framework not in ("flask", "django"):  # their 404s carry no headers
        assert as_json.headers["x-why"] == "gone"
        for path in ROUTES:
            reply = _request(call, "GET", path, "application/json")
            assert [token.lower() for token in reply.vary()] == ["cookie", "accept"]
    as_text = _request(call, "GET", "/problem/ann", "text/plain, */*;q=0.5")
    assert as_text.headers["content-type"] == "text/plain; charset=utf-8"
    assert as_text.body.startswith(b"404 Not Found")
    head = _request(call, "HEAD", "/problem/ann", "application/json")
    assert (head.status, head.body) == (404, b"")
    for accept in ("text/csv;q=0.5, application/json;q=0.1", "*/*", None):
        for reply in (
            _request(call, "GET", "/plain/ann", accept),
            _request(call, "GET", "/problem/ann", accept),
        ):
            assert reply.status == 404, reply.body
            assert "accept" in [token.lower() for token in reply.vary()], reply
    if framework == "flask":  # the app's own handler for 404 answers
        assert _request(call, "GET", "/plain/ann", None).body == b"the app's page"


@pytest.mark.parametrize("framework", sorted(PROBLEM_APPS))
def test_a_frameworks_own_404_through_its_test_client(framework: str) -> None:
    make, _, client = PROBLEM_APPS[framework]
    check_raised_404(client(make()), framework)


@pytest.mark.thread_unsafe(reason="serves on a loopback port")
@pytest.mark.parametrize(
    ("framework", "server"),
    [
        (framework, server)
        for framework, (_, asgi, _) in sorted(PROBLEM_APPS.items())
        for server in (
            ["h11", "httptools"]
            if asgi
            else ["aiohttp"]
            if asgi is None
            else ["waitress"]
        )
    ],
)
def test_a_frameworks_own_404_on_the_wire(framework: str, server: str) -> None:
    """uvicorn (with h11 and with httptools) for ASGI, waitress for WSGI,
    aiohttp's own server for aiohttp."""
    app = PROBLEM_APPS[framework][0]()
    serving = (
        waitress_serving(app)
        if server == "waitress"
        else aiohttp_serving(app)
        if server == "aiohttp"
        else uvicorn_serving(app, http=server)
    )
    with serving as port:
        check_raised_404(over_http(port), framework)


# A redirect a handler raises as the framework's exception (a status no
# error has) is the framework's to answer, problems=True or not, with
# ``Accept`` in its Vary. Django has no such exception.


def _redirecting_app(framework: str) -> Any:
    """The framework's app routing ``/away`` (``problems=True``) to a
    handler that raises its redirect to ``/elsewhere``."""
    renderers = Renderers(GREETING_TYPES)
    if framework in ("starlette", "fastapi"):
        if framework == "fastapi":
            pytest.importorskip("fastapi")
            from fastapi import FastAPI, HTTPException

            from fastaccept.fastapi import NegotiatedRoute, negotiated

            app = FastAPI()
            app.router.route_class = NegotiatedRoute

            @app.get("/away")
            @negotiated(renderers, problems=True)
            def fastapi_away() -> dict[str, str]:
                raise HTTPException(307, headers={"Location": "/elsewhere"})

            return app
        pytest.importorskip("starlette")
        from starlette.applications import Starlette
        from starlette.exceptions import HTTPException as StarletteError
        from starlette.routing import Route

        from fastaccept.starlette import negotiated as starlette_negotiated

        @starlette_negotiated(renderers, problems=True)
        async def starlette_away(request: Any) -> dict[str, str]:
            raise StarletteError(307, headers={"Location": "/elsewhere"})

        return Starlette(routes=[Route("/away", starlette_away)])
    if framework == "flask":
        pytest.importorskip("flask")
        from flask import Flask
        from werkzeug.routing import RequestRedirect

        from fastaccept.flask import negotiated as flask_negotiated

        flask_app = Flask(__name__)

        @flask_negotiated(renderers, problems=True)
        def flask_away() -> dict[str, str]:
            raise RequestRedirect("http://localhost/elsewhere")  # a 308

        flask_app.add_url_rule("/away", "away", flask_away)
        return flask_app
    if framework == "falcon":
        falcon = pytest.importorskip("falcon")
        from fastaccept.falcon import negotiated as falcon_negotiated

        class Away:
            @falcon_negotiated(renderers, problems=True)
            def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                raise falcon.HTTPFound("/elsewhere")  # an HTTPStatus, no HTTPError

        falcon_app = falcon.App()
        falcon_app.add_route("/away", Away())
        return falcon_app
    if framework == "litestar":
        pytest.importorskip("litestar")
        from litestar import Litestar, get
        from litestar.exceptions import HTTPException as LitestarError

        from fastaccept.litestar import NegotiationPlugin
        from fastaccept.litestar import negotiated as litestar_negotiated

        @get("/away")
        @litestar_negotiated(renderers, problems=True)
        async def litestar_away() -> dict[str, str]:
            raise LitestarError(status_code=307, headers={"Location": "/elsewhere"})

        return Litestar([litestar_away], plugins=[NegotiationPlugin()])
    pytest.importorskip("aiohttp")
    from aiohttp import web

    from fastaccept.aiohttp import negotiated as aiohttp_negotiated

    @aiohttp_negotiated(renderers, problems=True)
    async def aiohttp_away(request: web.Request) -> dict[str, str]:
        raise web.HTTPFound("/elsewhere")

    aiohttp_app = web.Application()
    aiohttp_app.router.add_get("/away", aiohttp_away)
    return aiohttp_app


@pytest.mark.parametrize("framework", sorted(set(PROBLEM_APPS) - {"django"}))
def test_a_redirect_raised_is_the_frameworks_answer(framework: str) -> None:
    call = PROBLEM_APPS[framework][2](_redirecting_app(framework))
    for accept in ("application/json", "application/problem+json, */*;q=0.1", None):
        reply = _request(call, "GET", "/away", accept)
        assert reply.status in (302, 307, 308), (reply.status, reply.body)
        assert reply.headers["location"].endswith("/elsewhere")
        assert reply.headers.get("content-type") != "application/problem+json"
        assert "accept" in [token.lower() for token in reply.vary()], reply


def test_a_falcon_error_without_headers_as_a_problem() -> None:
    # falcon leaves an error's headers None where none are given.
    falcon = pytest.importorskip("falcon")
    from fastaccept.falcon import negotiated

    class Gone:
        @negotiated(Renderers(GREETING_TYPES), problems=True)
        def on_get(self, req: Any, resp: Any) -> dict[str, str]:
            raise falcon.HTTPGone()

    app = falcon.App()
    app.add_route("/gone", Gone())
    reply = _request(falcon_call(app), "GET", "/gone", "application/json")
    assert (reply.status, reply.headers["content-type"]) == (
        410,
        "application/problem+json",
    )
    assert json.loads(reply.body)["title"] == "Gone"
    assert reply.vary() == ["Accept"]


@pytest.mark.parametrize("status", [302, "302 Found", 399, 600])
def test_a_falcon_error_of_no_error_status_is_falcons(status: int | str) -> None:
    # problem() takes 400-599 only: the HTTPError was a 500 (its ValueError).
    falcon = pytest.importorskip("falcon")
    from fastaccept.falcon import negotiated

    def resource(problems: bool) -> Any:
        class Odd:
            @negotiated(Renderers(GREETING_TYPES), problems=problems)
            def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                raise falcon.HTTPError(status, headers={"Location": "/elsewhere"})

        return Odd()

    app = falcon.App()
    app.add_route("/problem", resource(True))
    app.add_route("/plain", resource(False))
    call = falcon_call(app)
    reply = _request(call, "GET", "/problem", "application/json")
    assert reply.status == int(str(status)[:3]), reply.body
    assert reply.headers["location"] == "/elsewhere"
    assert reply.vary() == ["Accept"]
    assert reply == _request(call, "GET", "/plain", "application/json")


@pytest.mark.parametrize("asynchronous", [False, True], ids=["wsgi", "asgi"])
def test_a_falcon_errors_header_replaces_the_responders_in_its_problem(
    asynchronous: bool, request: pytest.FixtureRequest
) -> None:
    """A header the responder set on ``resp`` and the raised ``HTTPError``
    also carries is the error's, as falcon's own answer has it (it sets the
    error's headers over the response's): one ``Retry-After`` (RFC 9110
    §10.2.3), not both joined; ``Vary`` merged, a header of its own kept."""
    pytest.importorskip("falcon")
    import falcon
    import falcon.asgi
    from falcon.testing import TestClient

    from fastaccept.falcon import negotiated

    def fail(resp: Any) -> None:
        resp.set_header("Retry-After", "5")
        resp.set_header("Vary", "Cookie")
        resp.set_header("X-Trace", "t1")
        raise falcon.HTTPServiceUnavailable(retry_after=10, headers={"Vary": "Origin"})

    def resource(problems: bool) -> Any:
        class Busy:
            if asynchronous:

                @negotiated(Renderers(GREETING_TYPES), problems=problems)
                async def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                    fail(resp)
                    return {}

            else:

                @negotiated(Renderers(GREETING_TYPES), problems=problems)
                def on_get(self, req: Any, resp: Any) -> dict[str, str]:
                    fail(resp)
                    return {}

        return Busy()

    if asynchronous:  # falcon's test client asks asyncio for a current loop
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        request.addfinalizer(loop.close)
        request.addfinalizer(lambda: asyncio.set_event_loop(None))
    app = falcon.asgi.App() if asynchronous else falcon.App()
    app.add_route("/problem", resource(True))
    app.add_route("/plain", resource(False))
    client = TestClient(app)
    for path, kind in [
        ("/problem", "application/problem+json"),
        ("/plain", "application/json"),  # falcon's own answer
    ]:
        reply = client.simulate_get(path, headers={"Accept": "application/json"})
        assert (reply.status_code, reply.headers["Content-Type"]) == (503, kind)
        assert reply.headers["Retry-After"] == "10", path
        assert reply.headers["X-Trace"] == "t1", path
        vary = [token.strip() for token in reply.headers["Vary"].split(",")]
        assert vary == ["Cookie", "Origin", "Accept"], path


def test_django_errors_as_problems() -> None:
    load_recipe("django_app")  # configures Django's settings once
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.http import Http404
    from django.test import RequestFactory

    from fastaccept.django import negotiated

    raised: list[Exception] = []

    @negotiated(Renderers(GREETING_TYPES), problems=True)
    def view(request: Any) -> dict[str, str]:
        raise raised[0]

    factory = RequestFactory()
    for error, status, detail in [
        (Http404("no such user"), 404, "no such user"),
        (PermissionDenied(), 403, None),
        (SuspiciousOperation("internal detail"), 400, None),  # never shown
    ]:
        raised[:] = [error]
        response = view(factory.get("/", HTTP_ACCEPT="application/json"))
        assert response.status_code == status
        body = json.loads(response.content)
        assert body.get("detail") == detail
        assert "Accept" in response["Vary"]


@pytest.mark.parametrize("problems", [False, True])
def test_a_django_multipart_body_it_cannot_parse_is_a_400(problems: bool) -> None:
    # request.POST's MultiPartParserError, which Django answers with a 400,
    # went past the decorator: no Accept in the Vary, no problem.
    load_recipe("django_app")  # configures Django's settings once
    from django.test import RequestFactory

    from fastaccept.django import negotiated

    @negotiated(Renderers(GREETING_TYPES), problems=problems)
    def view(request: Any) -> dict[str, str]:
        return dict(request.POST)

    response = view(
        RequestFactory().post(
            "/",
            b"x",
            content_type="multipart/form-data",
            HTTP_ACCEPT="application/json",
        )
    )
    assert response.status_code == 400
    assert response["Vary"] == "Accept"
    if problems:
        assert response["Content-Type"] == "application/problem+json"
        body = json.loads(response.content)
        assert body["detail"] == "Invalid boundary in multipart: None"
    else:  # Django's handler400
        assert response["Content-Type"].startswith("text/html")


def test_django_logs_a_problem_as_any_4xx_answer(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/web.md ("Errors negotiated for any status"): Django's handler
    logs every answer of 400 or more on ``django.request``, a problem too,
    but without the exception that Django's own answer logs (a
    ``SuspiciousOperation`` on ``django.security``)."""
    import logging
    import sys
    import types

    load_recipe("django_app")  # configures Django's settings once
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import path

    from fastaccept.django import negotiated

    raised: list[Exception] = []

    def view(request: Any) -> dict[str, str]:
        raise raised[0]

    urls = types.ModuleType("fastaccept_test_logged_problems_urls")
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("problem", negotiated(Renderers(GREETING_TYPES), problems=True)(view)),
        path("plain", negotiated(Renderers(GREETING_TYPES))(view)),
    ]
    monkeypatch.setitem(sys.modules, urls.__name__, urls)
    caplog.set_level(logging.WARNING)

    def logged(
        where: str, error: Exception, accept: str = "application/json"
    ) -> list[tuple[str, int, str, bool]]:
        raised[:] = [error]
        caplog.clear()
        with override_settings(ROOT_URLCONF=urls.__name__):
            Client().get(f"/{where}", HTTP_ACCEPT=accept)
        return [
            (r.name, r.levelno, r.getMessage(), r.exc_info is not None)
            for r in caplog.records
        ]

    warned = logging.WARNING
    assert logged("problem", PermissionDenied("no")) == [
        ("django.request", warned, "Forbidden: /problem", False)
    ]
    assert logged("plain", PermissionDenied("no")) == [
        ("django.request", warned, "Forbidden (Permission denied): /plain", True)
    ]
    assert logged("problem", SuspiciousOperation("odd")) == [
        ("django.request", warned, "Bad Request: /problem", False)
    ]
    import django

    # Django 5.2.3 and later log it once (before, also "Bad Request" on
    # django.request: Django's own, a view without fastaccept gives it).
    assert logged("plain", SuspiciousOperation("odd")) == [
        ("django.security.SuspiciousOperation", logging.ERROR, "odd", True)
    ] + [("django.request", warned, "Bad Request: /plain", False)] * (
        django.VERSION[:3] < (5, 2, 3)
    )
    assert logged("problem", PermissionDenied("no"), "image/png") == [
        ("django.request", warned, "Not Acceptable: /problem", False)  # a refusal
    ]


def test_flask_errors_as_problems_keep_their_status_and_headers() -> None:
    """A 5xx ``HTTPException`` is a problem too, and the header fields the
    exception carries (``Retry-After``, ``Allow``) are kept in it."""
    pytest.importorskip("flask")
    from flask import Flask
    from werkzeug.exceptions import MethodNotAllowed, ServiceUnavailable

    from fastaccept.flask import negotiated

    app = Flask(__name__)
    raised: list[Exception] = []

    @negotiated(Renderers(GREETING_TYPES), problems=True)
    def view() -> dict[str, str]:
        raise raised[0]

    app.add_url_rule("/", "view", view)
    client = app.test_client()
    for error, status, field, value in [
        (ServiceUnavailable(retry_after=30), 503, "Retry-After", "30"),
        (MethodNotAllowed(["GET", "PUT"]), 405, "Allow", "GET, PUT"),
    ]:
        raised[:] = [error]
        response = client.get("/", headers={"Accept": "application/json"})
        assert response.status_code == status
        assert response.headers["Content-Type"] == "application/problem+json"
        assert json.loads(response.data)["status"] == status
        assert response.headers[field] == value
        assert "Accept" in response.headers["Vary"]


def _detail_apps() -> dict[str, Any]:
    """One route each, ``/detail``, ``problems=True``, raising a 400 whose
    message is a dict (werkzeug's ``description``, falcon's, Starlette's
    ``detail``, the argument of Django's ``BadRequest``)."""
    flask = pytest.importorskip("flask")
    falcon = pytest.importorskip("falcon")
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import Route

    from fastaccept.falcon import negotiated as falcon_negotiated
    from fastaccept.flask import negotiated as flask_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    flask_app = flask.Flask(__name__)

    @flask_negotiated(Renderers(GREETING_TYPES), problems=True)
    def flask_view() -> Any:
        flask.abort(400, description={"field": "required"})

    flask_app.add_url_rule("/detail", "view", flask_view)

    class Resource:
        @falcon_negotiated(Renderers(GREETING_TYPES), problems=True)
        def on_get(self, req: Any, resp: Any) -> dict[str, str]:
            raise falcon.HTTPBadRequest(description={"field": "required"})

    falcon_app = falcon.App()
    falcon_app.add_route("/detail", Resource())

    @starlette_negotiated(Renderers(GREETING_TYPES), problems=True)
    async def starlette_view(request: Any) -> dict[str, str]:
        raise HTTPException(400, {"field": "required"})  # type: ignore[arg-type]

    recipe = load_recipe("django_app")  # configures Django's settings once
    from django.core.exceptions import BadRequest
    from django.urls import clear_url_caches, path

    from fastaccept.django import negotiated as django_negotiated

    @django_negotiated(Renderers(GREETING_TYPES), problems=True)
    def django_view(request: Any) -> dict[str, str]:
        raise BadRequest({"field": "required"})

    if not any(str(p.pattern) == "detail" for p in recipe.urlpatterns):
        recipe.urlpatterns.append(path("detail", django_view))
        clear_url_caches()
    return {
        "django": wsgi_call(recipe.application),
        "flask": werkzeug_call(flask_app.test_client()),
        "falcon": falcon_call(falcon_app),
        "starlette": starlette_call(
            Starlette(routes=[Route("/detail", starlette_view)])
        ),
    }


def test_an_errors_message_that_is_no_str_is_left_out_of_its_problem() -> None:
    # Flask and falcon passed it to problem(), whose TypeError inside their
    # error handling made a 500 (without Vary, in Flask); Django showed its
    # repr ("{'field': 'required'}"), where its own pages show none.
    for framework, call in _detail_apps().items():
        reply = _request(call, "GET", "/detail", "application/json")
        assert reply.status == 400, (framework, reply.body)
        assert reply.headers["content-type"] == "application/problem+json"
        assert json.loads(reply.body) == {
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
        }, framework
        assert "accept" in [token.lower() for token in reply.vary()], framework


def _message_apps() -> list[tuple[str, Call, str, dict[str, Any]]]:
    """Routes, ``problems=True``, raising errors whose message a problem
    leaves out or shows, each with the members its problem has: Starlette's
    default ``detail`` (the title again, RFC 9110's phrase or Python's older
    one) and an empty one, a 500 whose message Litestar's own answer hides,
    an aiohttp 400 saying why by its ``reason``, falcon's default title (the
    status line) and its own, a Django lazy translation."""
    pytest.importorskip("starlette")
    pytest.importorskip("litestar")
    pytest.importorskip("aiohttp")
    pytest.importorskip("django")
    from aiohttp import web
    from litestar import Litestar, get
    from litestar.exceptions import InternalServerException
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import Route

    from fastaccept.aiohttp import negotiated as aiohttp_negotiated
    from fastaccept.litestar import NegotiationPlugin
    from fastaccept.litestar import negotiated as litestar_negotiated
    from fastaccept.starlette import negotiated as starlette_negotiated

    renderers = Renderers(GREETING_TYPES)

    def starlette_route(path: str, error: HTTPException) -> Route:
        @starlette_negotiated(renderers, problems=True)
        async def view(request: Any) -> dict[str, str]:
            raise error

        return Route(path, view)

    @get("/message")
    @litestar_negotiated(renderers, problems=True)
    async def litestar_view() -> dict[str, str]:
        raise InternalServerException("db at 10.0.0.5 refused user app_rw")

    @aiohttp_negotiated(renderers, problems=True)
    async def aiohttp_view(request: web.Request) -> dict[str, str]:
        raise web.HTTPBadRequest(reason="Order Locked")

    aiohttp_app = web.Application()
    aiohttp_app.router.add_get("/message", aiohttp_view)
    recipe = load_recipe("django_app")  # configures Django's settings once
    from django.core.exceptions import PermissionDenied
    from django.urls import clear_url_caches, path
    from django.utils.translation import gettext_lazy

    from fastaccept.django import negotiated as django_negotiated

    @django_negotiated(renderers, problems=True)
    def django_view(request: Any) -> dict[str, str]:
        raise PermissionDenied(gettext_lazy("members only"))

    if not any(str(p.pattern) == "message" for p in recipe.urlpatterns):
        recipe.urlpatterns.append(path("message", django_view))
        clear_url_caches()
    falcon = pytest.importorskip("falcon")

    from fastaccept.falcon import negotiated as falcon_negotiated

    class Resource:
        def __init__(self, error: Exception) -> None:
            self.error = error

        @falcon_negotiated(renderers, problems=True)
        def on_get(self, req: Any, resp: Any) -> dict[str, str]:
            raise self.error

    falcon_app = falcon.App()
    falcon_app.add_route("/default", Resource(falcon.HTTPNotFound()))
    falcon_app.add_route("/titled", Resource(falcon.HTTPBadRequest(title="Bad input")))
    starlette = starlette_call(
        Starlette(
            routes=[
                starlette_route("/default", HTTPException(400)),
                starlette_route("/older", HTTPException(413)),
                starlette_route("/empty", HTTPException(400, detail="")),
            ]
        )
    )
    litestar = litestar_call(Litestar([litestar_view], plugins=[NegotiationPlugin()]))
    falcon_client, django = falcon_call(falcon_app), wsgi_call(recipe.application)
    return [
        ("starlette", starlette, "/default", _members(400, "Bad Request")),
        ("starlette", starlette, "/older", _members(413, "Content Too Large")),
        ("starlette", starlette, "/empty", _members(400, "Bad Request")),
        ("litestar", litestar, "/message", _members(500, "Internal Server Error")),
        (
            "aiohttp",
            aiohttp_call(aiohttp_app),
            "/message",
            _members(400, "Bad Request", "Order Locked"),
        ),
        ("falcon", falcon_client, "/default", _members(404, "Not Found")),
        ("falcon", falcon_client, "/titled", _members(400, "Bad Request", "Bad input")),
        ("django", django, "/message", _members(403, "Forbidden", "members only")),
    ]


def _members(status: int, title: str, detail: str | None = None) -> dict[str, Any]:
    """A problem's members: ``about:blank``, ``title``, ``status``, ``detail``."""
    members: dict[str, Any] = {"type": "about:blank", "title": title, "status": status}
    return members if detail is None else {**members, "detail": detail}


def test_a_problem_shows_the_message_a_client_may_read_once() -> None:
    # Starlette's and Litestar's default message is the title again ("detail":
    # "Bad Request"), an empty one read "400 Bad Request: " as text; a Litestar
    # 500's message, which Litestar's own answer never shows, was sent;
    # aiohttp's reason= was left out with its default text "400: Order
    # Locked"; falcon's default title, "404 Not Found", was the detail; a
    # Django lazy translation, no str, was left out.
    for framework, call, path, members in _message_apps():
        reply = _request(call, "GET", path, "application/json")
        assert reply.status == members["status"], (framework, path, reply.body)
        assert json.loads(reply.body) == members, (framework, path)
        as_text = _request(call, "GET", path, "text/plain, application/json;q=0.5")
        title = f"{members['status']} {members['title']}"
        shown = f"{title}: {members['detail']}" if "detail" in members else title
        assert as_text.body.decode() == shown + "\n", (framework, path)


def test_flask_an_error_with_its_own_response_is_sent_as_it_is() -> None:
    """``abort(401, response=...)``: werkzeug sends that response, cookies
    and status included, and so does a problems route (with the Vary)."""
    pytest.importorskip("flask")
    from flask import Flask, Response, abort

    from fastaccept.flask import negotiated

    app = Flask(__name__)

    @negotiated(Renderers(GREETING_TYPES), problems=True)
    def sign_out() -> dict[str, str]:
        answer = Response("signed out", status=410)
        answer.delete_cookie("session")
        abort(401, response=answer)

    app.add_url_rule("/sign-out", "sign_out", sign_out)
    response = app.test_client().get(
        "/sign-out", headers={"Accept": "application/json"}
    )
    assert (response.status_code, response.data) == (410, b"signed out")
    assert response.headers["Set-Cookie"].startswith("session=;")
    assert "Accept" in response.headers["Vary"]


#: An error's fields that describe its own content (RFC 9110 §8.4, RFC 9530):
#: its problem is other content, so they are not sent with it.
ERROR_CONTENT = {
    "Content-Encoding": "gzip",
    "Content-Digest": "sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:",
    "Repr-Digest": "sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:",
    "Retry-After": "5",
}


def _erring_app(framework: str) -> Any:
    """``/gone``, negotiated with ``problems=True``, raising a 410 that asks
    for ``ERROR_CONTENT``."""
    if framework == "starlette":
        pytest.importorskip("starlette")
        from starlette.applications import Starlette
        from starlette.exceptions import HTTPException as StarletteError
        from starlette.routing import Route

        from fastaccept.starlette import negotiated as starlette_negotiated

        @starlette_negotiated(Renderers(GREETING_TYPES), problems=True)
        async def starlette_gone(request: Any) -> dict[str, str]:
            raise StarletteError(410, "moved away", headers=ERROR_CONTENT)

        return Starlette(routes=[Route("/gone", starlette_gone)])
    pytest.importorskip("aiohttp")
    from aiohttp import web

    from fastaccept.aiohttp import negotiated as aiohttp_negotiated

    @aiohttp_negotiated(Renderers(GREETING_TYPES), problems=True)
    async def aiohttp_gone(request: web.Request) -> dict[str, str]:
        raise web.HTTPGone(text="moved away", headers=ERROR_CONTENT)

    app = web.Application()
    app.router.add_get("/gone", aiohttp_gone)
    return app


@pytest.mark.parametrize("framework", ["starlette", "aiohttp"])
def test_a_problem_drops_the_fields_of_the_errors_own_content(framework: str) -> None:
    call = PROBLEM_APPS[framework][2](_erring_app(framework))
    reply = _request(call, "GET", "/gone", "application/json")
    assert reply.status == 410
    assert json.loads(reply.body)["detail"] == "moved away"  # not gzip
    assert reply.headers["retry-after"] == "5"
    for field in ("content-encoding", "content-digest", "repr-digest"):
        assert field not in reply.headers, reply.headers


def test_aiohttp_an_errors_cookies_are_sent_with_its_problem() -> None:
    pytest.importorskip("aiohttp")
    from aiohttp import web

    from fastaccept.aiohttp import negotiated

    @negotiated(Renderers(GREETING_TYPES), problems=True)
    async def signed_out(request: web.Request) -> dict[str, str]:
        error = web.HTTPUnauthorized(text="sign in again")
        error.del_cookie("session")
        error.set_cookie("theme", "dark", httponly=True)
        raise error

    app = web.Application()
    app.router.add_get("/account", signed_out)
    reply = _request(aiohttp_call(app), "GET", "/account", "application/json")
    assert (reply.status, reply.headers["content-type"]) == (
        401,
        "application/problem+json",
    )
    cookies = reply.headers["set-cookie"]
    assert 'session=""' in cookies
    assert "Max-Age=0" in cookies
    assert "theme=dark; HttpOnly" in cookies


def test_problems_must_be_a_bool() -> None:
    from fastaccept.wsgi import negotiated

    with pytest.raises(TypeError, match="problems must be True or False, not str"):
        negotiated(Renderers(GREETING_TYPES), problems="yes")  # type: ignore[arg-type]
