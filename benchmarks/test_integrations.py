"""One request through each integration's added work, beside the negotiation.

For each integration (``fastaccept.asgi``, ``.wsgi``, ``.starlette``,
``.fastapi``, ``.flask``, ``.django``, ``.falcon``) the negotiated handler is
called directly, with a request object of its framework built once, as the
framework would call it after routing: the framework's server, routing and
request parsing are not timed. Beside it, in the same benchmark group:

- ``baseline``: a hand-written handler of the same framework answering a
  fixed response (the same body, already rendered, and the same
  ``Content-Type`` and ``Vary``), reading no ``Accept``: negotiated minus
  baseline is the work the integration adds to a request;
- ``Negotiator.choose`` (hot), ``Produces.select``, the renderer alone and
  ``Renderers.respond`` on the same Accept value: what that work is made of.

For Starlette and Flask, whole requests too: the framework's application
(middleware and routing included) called as its server calls it, each
request with an Accept value of its own, beside the same application with a
by-hand endpoint, and ``Produces.select`` on the same values.

Coroutines (ASGI, Starlette, FastAPI, falcon's ASGI app) are driven by hand
(``send(None)``): nothing they await suspends, so no event loop is timed.
Responses are built fresh on every call (falcon's ``resp`` included, in the
baseline too, with the options an app shares: ``falcon.Response()`` without
them copies ``mimetypes``' table, about 20 us), as a framework builds one per
request.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from fastaccept import BROWSER_DEFAULTS, IMPLEMENTATION, Negotiator, Renderers

from .bench import Case, cold_values

# A handler's data and its two renderings: the same as end to end.
from .bench_server import DATA, render_html, render_json

#: The Accept values: a browser's navigation (HTML chosen) and a JSON API's.
CASES = {
    "chrome-navigate": BROWSER_DEFAULTS["chrome-navigate"],
    "json": "application/json",
}
HTML = "text/html; charset=utf-8"
JSON = "application/json"
#: The media type each case negotiates.
CHOSEN = {"chrome-navigate": HTML, "json": JSON}

RENDER = {JSON: render_json, HTML: render_html}
OFFERS = [JSON, HTML]
RENDERERS = Renderers({offer: RENDER[offer] for offer in OFFERS})

#: The integrations, each with its framework (None: no framework needed).
FRAMEWORKS = {
    "asgi": None,
    "wsgi": None,
    "starlette": "starlette",
    "fastapi": "fastapi",
    "flask": "flask",
    "django": "django",
    "falcon": "falcon",
    "falcon-asgi": "falcon",
}


#: What a response says: status, Content-Type, Vary and body.
Answer = tuple[int, str, str, bytes]


def nothing() -> None:
    pass


@dataclass(frozen=True)
class Exchange:
    """One integration's request, answered by the negotiated handler and by
    the baseline; ``answer`` reads a result as an ``Answer``; ``close``
    undoes what building the exchange set up."""

    negotiated: Callable[[], Any]
    baseline: Callable[[], Any]
    answer: Callable[[Any], Answer]
    close: Callable[[], None] = nothing


def body_of(case: str) -> bytes:
    """What the negotiated handler sends for ``case``: its rendered data."""
    return RENDER[CHOSEN[case]](DATA).encode("utf-8")


def fixed_headers(case: str) -> dict[str, str]:
    """The baseline's headers: those of the negotiated response but its
    ``Content-Length`` (set by the baselines of ASGI and WSGI; otherwise
    the framework, its middleware or the server adds it when missing)."""
    return {"Content-Type": CHOSEN[case], "Vary": "Accept"}


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """The coroutine's result; it must not suspend (nothing here waits)."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise RuntimeError("the coroutine suspended: an event loop would be needed")


# The integrations without a framework -----------------------------------------


def asgi_scope(accept: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/user",
        "raw_path": b"/user",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"user-agent", b"bench"),
            (b"accept", accept.encode("latin-1")),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def asgi_server() -> tuple[
    Callable[[], Coroutine[Any, Any, dict[str, Any]]],
    Callable[[Any], Coroutine[Any, Any, None]],
    Callable[[Any], Answer],
]:
    """An ASGI server's side of the exchanges: ``receive`` (no body),
    ``send`` (keeps the last message of each type) and ``answer``, which
    reads the response they were sent."""
    sent: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent[message["type"]] = message

    def answer(result: Any) -> Answer:
        start = sent.pop("http.response.start")
        fields = {
            name.decode().lower(): value.decode() for name, value in start["headers"]
        }
        body = sent.pop("http.response.body")["body"]
        return start["status"], fields["content-type"], fields["vary"], body

    return receive, send, answer


def asgi_exchange(case: str, accept: str) -> Exchange:
    from fastaccept.asgi import negotiated

    scope = asgi_scope(accept)
    receive, send, answer = asgi_server()

    @negotiated(RENDERERS)
    async def user(scope: Any, receive: Any) -> Any:
        return DATA

    body = body_of(case)
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1"))
        for name, value in fixed_headers(case).items()
    ]
    headers.append((b"content-length", str(len(body)).encode("latin-1")))

    async def baseline(scope: Any, receive: Any, send: Any) -> None:
        start = {"type": "http.response.start", "status": 200}
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return Exchange(
        lambda: run(user(scope, receive, send)),
        lambda: run(baseline(scope, receive, send)),
        answer,
    )


def wsgi_server() -> tuple[Any, Callable[[Any], Answer]]:
    """A WSGI server's side of the exchanges: ``start_response`` and
    ``answer``, which reads the response started and its body's parts."""
    started: list[Any] = [None]

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
        started[0] = (status, headers)

    def answer(result: Any) -> Answer:
        status, header_list = started[0]
        fields = dict(header_list)
        body = b"".join(result)
        return int(status.split()[0]), fields["Content-Type"], fields["Vary"], body

    return start_response, answer


def wsgi_exchange(case: str, accept: str) -> Exchange:
    from fastaccept.wsgi import negotiated

    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": "/user",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "HTTP_USER_AGENT": "bench",
        "HTTP_ACCEPT": accept,
        "wsgi.url_scheme": "http",
    }
    start_response, answer = wsgi_server()

    @negotiated(RENDERERS)
    def user(environ: Any) -> Any:
        return DATA

    body = body_of(case)
    headers = [*fixed_headers(case).items(), ("Content-Length", str(len(body)))]

    def baseline(environ: Any, start_response: Any) -> list[bytes]:
        start_response("200 OK", list(headers))  # a server may add to it
        return [body]

    return Exchange(
        lambda: user(environ, start_response),
        lambda: baseline(environ, start_response),
        answer,
    )


# Starlette and FastAPI --------------------------------------------------------


def starlette_request(accept: str) -> Any:
    from starlette.requests import Request

    return Request(asgi_scope(accept))


def starlette_answer(response: Any) -> Answer:
    headers = response.headers
    return response.status_code, headers["content-type"], headers["vary"], response.body


def starlette_endpoints(
    case: str, body: Callable[[], bytes]
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A Starlette endpoint negotiated by fastaccept, and one sending the
    same response by hand, its ``body()``."""
    from starlette.requests import Request
    from starlette.responses import Response

    from fastaccept.starlette import negotiated

    @negotiated(RENDERERS)
    async def user(request: Request) -> Any:
        return DATA

    headers = fixed_headers(case)

    async def baseline(request: Request) -> Response:
        return Response(body(), 200, headers)

    return user, baseline


def rendered_ahead(case: str) -> Callable[[], bytes]:
    """The baselines' body: rendered once, ahead."""
    body = body_of(case)
    return lambda: body


def starlette_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("starlette")

    request = starlette_request(accept)
    user, baseline = starlette_endpoints(case, rendered_ahead(case))
    return Exchange(
        lambda: run(user(request)),
        lambda: run(baseline(request)),
        starlette_answer,
    )


def fastapi_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("fastapi")
    from starlette.requests import Request
    from starlette.responses import Response

    from fastaccept.fastapi import REQUEST_ARGUMENT, RESPONSE_ARGUMENT, negotiated

    request = starlette_request(accept)
    given = Response()  # the Response FastAPI gives an endpoint: no length, no status
    del given.headers["content-length"]
    given.status_code = None  # type: ignore[assignment]

    @negotiated(RENDERERS)
    async def user() -> Any:  # takes no request: negotiated adds its own
        return DATA

    body, headers = body_of(case), fixed_headers(case)

    async def baseline(request: Request) -> Response:
        return Response(body, 200, headers)

    # FastAPI calls an endpoint with its values as keywords (REQUEST_ARGUMENT
    # and RESPONSE_ARGUMENT are the parameters negotiated adds to the
    # signature, for the request and the Response FastAPI makes for each).
    arguments = {REQUEST_ARGUMENT: request, RESPONSE_ARGUMENT: given}
    return Exchange(
        lambda: run(user(**arguments)),
        lambda: run(baseline(**{"request": request})),
        starlette_answer,
    )


# Flask and Django -------------------------------------------------------------


def flask_views(
    case: str, body: Callable[[], bytes]
) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """A Flask view negotiated by fastaccept, and one sending the same
    response by hand, its ``body()``."""
    import flask

    from fastaccept.flask import negotiated

    @negotiated(RENDERERS)
    def user() -> Any:
        return DATA

    headers = fixed_headers(case)

    def baseline() -> flask.Response:
        return flask.Response(body(), 200, headers)

    return user, baseline


def flask_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("flask")
    import flask

    app = flask.Flask(__name__)
    context = app.test_request_context("/user", headers={"Accept": accept})
    context.push()  # kept open for the whole benchmark; closed by the fixture

    user, baseline = flask_views(case, rendered_ahead(case))

    def answer(response: Any) -> Answer:
        headers = response.headers
        body = response.get_data()
        return response.status_code, headers["Content-Type"], headers["Vary"], body

    return Exchange(user, baseline, answer, context.pop)


def django_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("django")
    import django
    from django.conf import settings

    if not settings.configured:
        settings.configure(ALLOWED_HOSTS=["testserver"])
    django.setup()
    from django.http import HttpResponse
    from django.test import RequestFactory

    from fastaccept.django import negotiated

    request = RequestFactory().get("/user", HTTP_ACCEPT=accept)

    @negotiated(RENDERERS)
    def user(request: Any) -> Any:
        return DATA

    body, headers = body_of(case), fixed_headers(case)

    def baseline(request: Any) -> Any:
        return HttpResponse(body, headers=headers)

    def answer(response: Any) -> Answer:
        content_type, vary = response["Content-Type"], response["Vary"]
        return response.status_code, content_type, vary, response.content

    return Exchange(lambda: user(request), lambda: baseline(request), answer)


# falcon -----------------------------------------------------------------------


def falcon_answer(resp: Any) -> Answer:
    content_type, vary = resp.get_header("Content-Type"), resp.get_header("Vary")
    return resp.status_code, content_type, vary, resp.data


def falcon_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("falcon")
    import falcon
    import falcon.testing

    from fastaccept.falcon import negotiated

    req = falcon.testing.create_req(path="/user", headers={"Accept": accept})
    options = falcon.ResponseOptions()  # the app's, shared by its responses
    body, headers = body_of(case), fixed_headers(case)

    class User:
        @negotiated(RENDERERS)
        def on_get(self, req: falcon.Request, resp: falcon.Response) -> Any:
            return DATA

    class Baseline:
        def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
            resp.status = 200
            resp.content_type = headers["Content-Type"]
            resp.vary = ("Accept",)
            resp.data = body

    user, baseline = User(), Baseline()

    def negotiated_call() -> falcon.Response:
        resp = falcon.Response(options=options)
        user.on_get(req, resp)
        return resp

    def baseline_call() -> falcon.Response:
        resp = falcon.Response(options=options)
        baseline.on_get(req, resp)
        return resp

    return Exchange(negotiated_call, baseline_call, falcon_answer)


def falcon_asgi_exchange(case: str, accept: str) -> Exchange:
    pytest.importorskip("falcon")
    import falcon.asgi
    import falcon.testing

    from fastaccept.falcon import negotiated

    req = falcon.testing.create_asgi_req(path="/user", headers={"Accept": accept})
    options = falcon.ResponseOptions()  # the app's, shared by its responses
    body, headers = body_of(case), fixed_headers(case)

    class User:
        @negotiated(RENDERERS)
        async def on_get(
            self, req: falcon.asgi.Request, resp: falcon.asgi.Response
        ) -> Any:
            return DATA

    class Baseline:
        async def on_get(
            self, req: falcon.asgi.Request, resp: falcon.asgi.Response
        ) -> None:
            resp.status = 200
            resp.content_type = headers["Content-Type"]
            resp.vary = ("Accept",)
            resp.data = body

    user, baseline = User(), Baseline()

    def negotiated_call() -> falcon.asgi.Response:
        resp = falcon.asgi.Response(options=options)
        run(user.on_get(req, resp))
        return resp

    def baseline_call() -> falcon.asgi.Response:
        resp = falcon.asgi.Response(options=options)
        run(baseline.on_get(req, resp))
        return resp

    return Exchange(negotiated_call, baseline_call, falcon_answer)


# Whole requests in process, with cold values -------------------------------
#
# The framework's own application (its middleware and routing too), called as
# its server calls it, each request with an Accept value of its own: more
# values than a negotiator's cache keeps, so each one is negotiated anew.
# Beside it, the same application with a by-hand endpoint that renders the
# same data on each request and sends the same bytes: the difference is what
# fastaccept adds to the request. Starlette and Flask; benchmarks/README.md,
# "The web path" (and ``benchmarks.whole_requests``, which counts their
# instructions).


def rendered_each_time(case: str) -> Callable[[], bytes]:
    """The by-hand endpoints' body in whole requests: rendered per request,
    as the negotiated endpoint renders it."""
    render = RENDER[CHOSEN[case]]
    return lambda: render(DATA).encode("utf-8")


def cold_accepts(case: str) -> list[str]:
    return cold_values(Case(case, CASES[case], tuple(OFFERS)))


def starlette_app_exchange(case: str) -> Exchange:
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.routing import Route

    scopes = itertools.cycle([asgi_scope(accept) for accept in cold_accepts(case)])
    receive, send, answer = asgi_server()
    endpoints = starlette_endpoints(case, rendered_each_time(case))
    apps = [Starlette(routes=[Route("/user", view)]) for view in endpoints]

    def request(app: Any) -> Callable[[], None]:
        # A scope of its own, as a server makes one per request.
        return lambda: run(app(dict(next(scopes)), receive, send))

    return Exchange(request(apps[0]), request(apps[1]), answer)


def flask_app_exchange(case: str) -> Exchange:
    pytest.importorskip("flask")
    import flask
    from werkzeug.test import EnvironBuilder

    environs = itertools.cycle(
        [
            EnvironBuilder("/user", headers=[("Accept", accept)]).get_environ()
            for accept in cold_accepts(case)
        ]
    )
    start_response, answer = wsgi_server()
    apps = []
    for view in flask_views(case, rendered_each_time(case)):
        app = flask.Flask(__name__)
        app.get("/user")(view)
        apps.append(app)

    def request(app: flask.Flask) -> Callable[[], list[bytes]]:
        # An environ of its own, as a server makes one per request; the
        # body is read, as a server reads it.
        return lambda: list(app.wsgi_app(dict(next(environs)), start_response))

    return Exchange(request(apps[0]), request(apps[1]), answer)


WHOLE_BUILDERS: dict[str, Callable[[str], Exchange]] = {
    "starlette": starlette_app_exchange,
    "flask": flask_app_exchange,
}
#: The endpoints of a whole request's application.
WHOLE_ENDPOINTS = ("negotiated", "by-hand")


def endpoint_call(exchange: Exchange, endpoint: str) -> Callable[[], Any]:
    """A whole request to ``endpoint``, one of ``WHOLE_ENDPOINTS``."""
    return exchange.negotiated if endpoint == "negotiated" else exchange.baseline


# The benchmarks ---------------------------------------------------------------

BUILDERS: dict[str, Callable[[str, str], Exchange]] = {
    "asgi": asgi_exchange,
    "wsgi": wsgi_exchange,
    "starlette": starlette_exchange,
    "fastapi": fastapi_exchange,
    "flask": flask_exchange,
    "django": django_exchange,
    "falcon": falcon_exchange,
    "falcon-asgi": falcon_asgi_exchange,
}


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=list(FRAMEWORKS))
def framework(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def exchange(framework: str, case: str) -> Iterator[Exchange]:
    built = BUILDERS[framework](case, CASES[case])
    try:
        yield built
    finally:
        built.close()


def group(benchmark: Any, framework: str, case: str) -> None:
    """Put the benchmark in the group of ``framework`` and ``case`` (skipped,
    like the whole group, when the framework is not installed)."""
    module = FRAMEWORKS[framework]
    if module is not None:
        pytest.importorskip(module)
    benchmark.group = f"integration {framework}: {case}"
    benchmark.extra_info["engine"] = IMPLEMENTATION


def test_negotiator_choose(benchmark: Any, framework: str, case: str) -> None:
    group(benchmark, framework, case)
    negotiator = Negotiator(OFFERS)
    assert negotiator.choose(CASES[case]) == CHOSEN[case]
    assert benchmark(negotiator.choose, CASES[case]) == CHOSEN[case]


def test_produces_select(benchmark: Any, framework: str, case: str) -> None:
    group(benchmark, framework, case)
    select = RENDERERS.produces.select
    assert select(CASES[case]).media_type == CHOSEN[case]
    assert benchmark(select, CASES[case]).media_type == CHOSEN[case]


def test_render(benchmark: Any, framework: str, case: str) -> None:
    """The renderer alone, encoded: the application's own rendering."""
    group(benchmark, framework, case)
    render = RENDER[CHOSEN[case]]

    def rendered() -> bytes:
        return render(DATA).encode("utf-8")

    assert benchmark(rendered) == body_of(case)


def test_renderers_respond(benchmark: Any, framework: str, case: str) -> None:
    group(benchmark, framework, case)
    respond = RENDERERS.respond
    first = respond(CASES[case], DATA)
    assert (first.status, first.body) == (200, body_of(case))
    assert benchmark(respond, CASES[case], DATA).body == body_of(case)


def expected(case: str) -> Answer:
    return 200, CHOSEN[case], "Accept", body_of(case)


def test_baseline(
    benchmark: Any, exchange: Exchange, framework: str, case: str
) -> None:
    group(benchmark, framework, case)
    assert exchange.answer(exchange.baseline()) == expected(case)
    benchmark(exchange.baseline)


def test_negotiated(
    benchmark: Any, exchange: Exchange, framework: str, case: str
) -> None:
    group(benchmark, framework, case)
    assert exchange.answer(exchange.negotiated()) == expected(case)
    benchmark(exchange.negotiated)
    assert exchange.answer(exchange.negotiated()) == expected(case)


@pytest.fixture(params=list(WHOLE_BUILDERS))
def whole(request: pytest.FixtureRequest, case: str) -> Iterator[tuple[str, Exchange]]:
    built = WHOLE_BUILDERS[request.param](case)
    try:
        yield request.param, built
    finally:
        built.close()


def whole_group(benchmark: Any, framework: str, case: str) -> None:
    benchmark.group = f"whole request, cold {framework}: {case}"
    benchmark.extra_info["engine"] = IMPLEMENTATION


@pytest.mark.parametrize("endpoint", WHOLE_ENDPOINTS)
def test_whole_request(
    benchmark: Any, whole: tuple[str, Exchange], case: str, endpoint: str
) -> None:
    framework, exchange = whole
    whole_group(benchmark, framework, case)
    call = endpoint_call(exchange, endpoint)
    assert exchange.answer(call()) == expected(case)
    benchmark(call)
    assert exchange.answer(call()) == expected(case)


def test_whole_request_select(benchmark: Any, case: str) -> None:
    """``Produces.select`` on the same cold values: the negotiation itself."""
    benchmark.group = f"whole request, cold: {case}"
    benchmark.extra_info["engine"] = IMPLEMENTATION
    select = RENDERERS.produces.select
    values = itertools.cycle(cold_accepts(case))
    assert select(next(values)).media_type == CHOSEN[case]
    assert benchmark(lambda: select(next(values))).media_type == CHOSEN[case]


@pytest.mark.parametrize("framework", list(WHOLE_BUILDERS))
@pytest.mark.parametrize("endpoint", WHOLE_ENDPOINTS)
def test_the_whole_requests_command(framework: str, endpoint: str) -> None:
    """``python -m benchmarks.whole_requests``, which callgrind counts."""
    pytest.importorskip(framework)
    from .whole_requests import main

    assert main([framework, endpoint, "3", "--case", "json"]) == 0
    with pytest.raises(SystemExit) as exit:  # a negative count sent nothing
        main([framework, endpoint, "--", "-3"])
    assert exit.value.code == 2
