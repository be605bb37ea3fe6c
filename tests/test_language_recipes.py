"""The language-selection recipes (docs/rules.md rule 19): examples/language_asgi.py
under Starlette and FastAPI, and the Accept-Language middleware of
examples/frameworks/django_app.py, each through its framework's test client.

No ``from __future__ import annotations`` here: FastAPI reads the handlers'
annotations at definition, and ``Request`` is imported in the function.
"""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import load_example
from .recipes import Call, Headers, Reply, load_recipe
from .test_integrations import CLIENTS, starlette_call

LANGUAGES = ["en", "fr", "de"]
GREETINGS = {"en": "hello", "fr": "bonjour", "de": "hallo"}

#: (Accept-Language lines, the language answered): docs/rules.md rule 19 (RFC
#: 9110 §12.5.4, RFC 4647); nothing acceptable gives the first language.
CASES: list[tuple[list[str], str]] = [
    (["fr-FR, en;q=0.3"], "fr"),  # werkzeug #450/#2732: the region reaches fr
    (["en-US, en;q=0.5, de;q=0.8"], "de"),  # en rated 0.5 by the client itself
    (["*;q=0.5, en;q=0"], "fr"),  # en refused although first: fr under *
    (["fr-CA, fr;q=0"], "en"),  # fr refused: its own q=0 outranks fr-CA's lookup
    (["de-CH"], "de"),
    (["de, fr"], "de"),  # equal weights: the client's order, not the server's
    (["de-AT, fr"], "de"),  # de reached by lookup from the first member
    (["FR"], "fr"),
    (["ja, zh;q=0.9"], "en"),  # none of ours: the first language
    (["fr;q=0, en;q=0, de;q=0"], "en"),
    ([""], "en"),
    ([], "en"),
    (["%%%, de"], "de"),  # an invalid member is skipped (lenient)
    (["en;q=0.2", "fr;q=0.4"], "fr"),  # two field lines are one list
    # over 8,192 characters, alone or joined: read as no valid member, never a
    # 500 (docs/rules.md rule 8), although the start would choose fr
    (["fr, " + "de;q=0.5, " * 900], "en"),
    (["fr, " + "de;q=0.5, " * 500] * 2, "en"),
]
CASE_IDS = [" / ".join(line[:40] for line in lines) or "absent" for lines, _ in CASES]


def choose_by_cookie(app: Any) -> Any:
    """Middleware run before ``Localize``: a ``lang`` cookie is an explicit choice."""

    async def choosing(scope: Any, receive: Any, send: Any) -> None:
        for name, value in scope.get("headers", ()):
            if name == b"cookie" and value.startswith(b"lang="):
                scope.setdefault("state", {})["language"] = value[5:].decode()
        await app(scope, receive, send)

    return choosing


def greeting_app(framework: str) -> Any:
    """A Starlette or FastAPI app greeting in ``request.state.language``, with
    ``Localize``; ``/greeting/own`` sets its own Vary and Content-Language,
    ``/greeting/later`` its language after ``Localize`` chose one."""
    localize = load_example("language_asgi.py").Localize
    if framework == "starlette":
        pytest.importorskip("starlette")
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import PlainTextResponse
        from starlette.routing import Route, WebSocketRoute
        from starlette.websockets import WebSocket

        async def greeting(request: Request) -> PlainTextResponse:
            return PlainTextResponse(GREETINGS[request.state.language])

        async def own(request: Request) -> PlainTextResponse:
            headers = {"Vary": "Cookie", "Content-Language": "en"}
            return PlainTextResponse("hello", headers=headers)

        async def later(request: Request) -> PlainTextResponse:
            request.state.language = "de"  # say, the user's profile says so
            return PlainTextResponse(GREETINGS["de"])

        async def language_socket(websocket: WebSocket) -> None:
            await websocket.accept()
            await websocket.send_text(websocket.state.language)
            await websocket.close()

        app = Starlette(
            routes=[
                Route("/greeting", greeting),
                Route("/greeting/own", own),
                Route("/greeting/later", later),
                WebSocketRoute("/socket", language_socket),
            ]
        )
    else:
        pytest.importorskip("fastapi")
        from fastapi import FastAPI, Request
        from fastapi.responses import PlainTextResponse

        app = FastAPI()

        @app.get("/greeting", response_class=PlainTextResponse)
        def greeting_fastapi(request: Request) -> str:
            return GREETINGS[request.state.language]

        @app.get("/greeting/own", response_class=PlainTextResponse)
        def own_fastapi() -> PlainTextResponse:
            headers = {"Vary": "Cookie", "Content-Language": "en"}
            return PlainTextResponse("hello", headers=headers)

    app.add_middleware(localize, languages=LANGUAGES)
    app.add_middleware(choose_by_cookie)  # added last: runs first
    return app


@pytest.fixture(params=["starlette", "fastapi", "django"], scope="module")
def call(request: pytest.FixtureRequest) -> Call:
    if request.param == "django":
        return CLIENTS["django_app"](load_recipe("django_app"))
    return starlette_call(greeting_app(request.param))


def greet(call: Call, lines: list[str], path: str = "/greeting") -> Reply:
    headers: Headers = [("Accept-Language", line.encode()) for line in lines]
    headers.append(("Accept", b"application/json"))  # the Django recipe's choice
    return call("GET", path, headers, b"")


def said(reply: Reply) -> str:
    """The greeting's word, from the Django recipe's JSON or the plain text."""
    text = reply.body.decode()
    return text.split('"greeting": "')[1].split('"')[0] if "{" in text else text


@pytest.mark.parametrize(("lines", "language"), CASES, ids=CASE_IDS)
def test_the_negotiated_language_is_the_one_answered_and_declared(
    call: Call, lines: list[str], language: str
) -> None:
    reply = greet(call, lines)
    assert reply.status == 200
    assert said(reply) == GREETINGS[language]
    assert reply.headers["content-language"] == language
    assert "Accept-Language" in reply.vary()


@pytest.mark.parametrize("framework", ["starlette", "fastapi"])
def test_the_applications_own_vary_and_content_language_are_kept(
    framework: str,
) -> None:
    call = starlette_call(greeting_app(framework))
    reply = greet(call, ["fr"], "/greeting/own")
    assert reply.vary() == ["Cookie", "Accept-Language"]
    assert reply.headers["content-language"] == "en"  # the app's word stands


@pytest.mark.parametrize("framework", ["starlette", "fastapi"])
def test_an_explicit_choice_made_before_localize_is_kept(framework: str) -> None:
    call = starlette_call(greeting_app(framework))
    headers: Headers = [("Accept-Language", b"fr"), ("Cookie", b"lang=de")]
    reply = call("GET", "/greeting", headers, b"")
    assert (said(reply), reply.headers["content-language"]) == ("hallo", "de")
    # a choice naming no language of the app is not one: negotiation decides
    headers[1] = ("Cookie", b"lang=xx")
    reply = call("GET", "/greeting", headers, b"")
    assert (said(reply), reply.headers["content-language"]) == ("bonjour", "fr")


def test_content_language_names_the_language_when_the_response_starts() -> None:
    call = starlette_call(greeting_app("starlette"))
    reply = greet(call, ["fr"], "/greeting/later")
    assert (said(reply), reply.headers["content-language"]) == ("hallo", "de")


def test_an_error_gets_vary_but_no_content_language() -> None:
    call = starlette_call(greeting_app("starlette"))
    reply = greet(call, ["fr"], "/nowhere")  # Starlette's own English 404
    assert reply.status == 404
    assert "content-language" not in reply.headers
    assert reply.vary() == ["Accept-Language"]


def test_a_websocket_is_told_the_language_too() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    client = TestClient(greeting_app("starlette"))
    with client.websocket_connect(
        "/socket", headers={"Accept-Language": "de-AT, en;q=0.5"}
    ) as socket:
        assert socket.receive_text() == "de"


def test_django_keeps_the_users_choice_in_the_language_cookie() -> None:
    call = CLIENTS["django_app"](load_recipe("django_app"))
    from django.conf import settings as django_settings

    cookie = f"{django_settings.LANGUAGE_COOKIE_NAME}=de".encode()
    accept = ("Accept", b"application/json")
    reply = call(
        "GET",
        "/greeting",
        [("Accept-Language", b"fr"), ("Cookie", cookie), accept],
        b"",
    )
    assert reply.headers["content-language"] == "de"
    # a cookie naming no language of the site is ignored
    reply = call(
        "GET",
        "/greeting",
        [("Accept-Language", b"fr"), ("Cookie", cookie.replace(b"de", b"xx")), accept],
        b"",
    )
    assert said(reply) == "bonjour"


def test_localize_needs_a_language_and_checks_each_tag() -> None:
    localize = load_example("language_asgi.py").Localize
    with pytest.raises(ValueError, match="at least one language"):
        localize(None, languages=[])
    with pytest.raises(ValueError):
        localize(None, languages=["en", "not a tag"])


@settings(max_examples=60)
@given(value=st.binary(max_size=80).filter(lambda b: b"\r" not in b and b"\n" not in b))
def test_any_accept_language_line_gets_one_of_the_languages(value: bytes) -> None:
    call = starlette_call(greeting_app("starlette"))
    reply = call("GET", "/greeting", [("Accept-Language", value.strip())], b"")
    assert reply.status == 200
    assert reply.headers["content-language"] in LANGUAGES
    assert said(reply) == GREETINGS[reply.headers["content-language"]]


def test_django_activates_the_language_for_the_view_and_a_streamed_body() -> None:
    module = load_recipe("django_app")
    CLIENTS["django_app"](module)  # django.setup()
    from django.http import HttpRequest, StreamingHttpResponse
    from django.test import RequestFactory
    from django.utils import translation

    seen: list[str] = []

    def view(request: HttpRequest) -> StreamingHttpResponse:
        seen.append(translation.gettext("Yes"))  # Django's own catalogue
        return StreamingHttpResponse(
            f"{request.LANGUAGE_CODE}:{translation.get_language()}" for _ in "x"
        )

    request = RequestFactory().get("/", headers={"Accept-Language": "fr-CH"})
    response = module.AcceptLanguageMiddleware(view)(request)
    assert seen == ["Oui"]
    body = b"".join(response.streaming_content)  # consumed after the view
    assert body == b"fr:fr"
    assert response.headers["Content-Language"] == "fr"
    assert response.headers["Vary"] == "Accept-Language, Cookie"
    translation.deactivate()
