"""``fastaccept.mcp`` (docs/mcp.md): the Accept check of MCP's Streamable
HTTP transport as a negotiation. The table of headers from the SDKs'
threads is read from docs/mcp.md and holds for ``select_post`` (both ways)
and ``select_get``, and for the offers on both engines; weights decide as a
model of the rules says; any value gets one of the answers and never raises;
the refusal is a JSON-RPC error. examples/mcp_asgi.py answers the same on
uvicorn (h11 and httptools), the socket suite's attacks included, and its
body as the transport and JSON-RPC 2.0 say (in process and on the wire): a
notification or a response 202 without a body, a request its result, no
JSON -32700, JSON that is no one message -32600.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastaccept import BROWSER_DEFAULTS, Decision
from fastaccept.mcp import EVENT_STREAM, JSON, select_get, select_post

from .conftest import ENGINES, Engine, load_example
from .servers import exchange, uvicorn_serving
from .strategies import ANY_VALUE
from .test_socket_attacks import (
    HUGE_ACCEPT,
    MALFORMED,
    REFUSE_HUGE_HEADERS,
    Response,
    only_response,
    raw_request,
)

PAGE = Path(__file__).resolve().parents[1] / "docs" / "mcp.md"

Row = tuple[str | None, str, str, str, str]


def table() -> list[Row]:
    """docs/mcp.md's table: (Accept or None, its thread, POST, POST with
    ``json_only``, GET); a value of ``BROWSER_DEFAULTS`` named by its key."""
    text = PAGE.read_text(encoding="utf-8")
    rows = text.split("| Accept | where it was met |", 1)[1].split("\n\n", 1)[0]
    found = []
    for line in rows.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        accept = None if cells[0] == "(absent)" else cells[0].strip("`")
        if accept is not None and accept.startswith("BROWSER_DEFAULTS["):
            accept = BROWSER_DEFAULTS[accept.split('"')[1]]
        found.append((accept, cells[1], cells[2], cells[3], cells[4]))
    return found


ROWS = table()
IDS = [row[0] or "(absent)" for row in ROWS]


def answer(chosen: str | Decision) -> str:
    """``"json"``, ``"sse"`` or the refusal's status, checked as docs/mcp.md
    says a refusal is: a JSON-RPC 2.0 error response."""
    if isinstance(chosen, str):
        return chosen
    assert chosen.headers == {"Content-Type": "application/json", "Vary": "Accept"}
    body = json.loads(chosen.body)
    assert set(body) == {"jsonrpc", "id", "error"}
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == -32600
    assert body["error"]["message"].startswith(chosen.reason + ": ")
    return str(chosen.status)


def test_the_table_cites_every_thread() -> None:
    assert len(ROWS) >= 15
    assert all(row[1] for row in ROWS), "a row without its source"
    threads = " ".join(row[1] for row in ROWS)
    for thread in (
        "python-sdk#1641",
        "PR #2152",
        "python-sdk#2349",
        "PR #1500",
        "python-sdk#3154",
        "go-sdk#290",
        "csharp-sdk PR #429",
        "java-sdk#616",
        "fastapi_mcp#233",
        "gemini-cli#20018",
    ):
        assert thread in threads


@pytest.mark.parametrize(
    ("accept", "thread", "post", "json_only", "get"), ROWS, ids=IDS
)
def test_each_header_as_the_table_says(
    accept: str | None, thread: str, post: str, json_only: str, get: str
) -> None:
    for value in (accept, None if accept is None else accept.encode("latin-1")):
        assert answer(select_post(value, json_only=False)) == post, thread
        assert answer(select_post(value, json_only=True)) == json_only, thread
        assert answer(select_get(value)) == get, thread


#: What each engine's negotiator chooses of the offers, as the table says it.
ANSWERS = {JSON: "json", EVENT_STREAM: "sse", None: "406"}


#: The rows the engines negotiate: all but the absent header, which the
#: module refuses before negotiating.
NEGOTIATED = [row for row in ROWS if row[0] is not None]


@pytest.mark.parametrize(
    ("accept", "thread", "post", "json_only", "get"),
    NEGOTIATED,
    ids=[row[0] for row in NEGOTIATED],
)
def test_each_engine_chooses_as_the_table_says(
    engine: Engine, accept: str, thread: str, post: str, json_only: str, get: str
) -> None:
    for offers, expected in (
        ([JSON, EVENT_STREAM], post),
        ([JSON], json_only),
        ([EVENT_STREAM], get),
    ):
        assert ANSWERS[engine.Negotiator(offers).choose(accept)] == expected, thread


def test_the_stream_is_utf_8_only() -> None:
    for charset in ("utf-8", "UTF-8", '"utf-8"'):
        assert select_get(f"text/event-stream;charset={charset}") == "sse"
    refused = select_get("text/event-stream;charset=iso-8859-1")
    assert answer(refused) == "406"


def test_a_browser_or_a_command_line_gets_json() -> None:
    """Every value ``BROWSER_DEFAULTS`` holds that reaches JSON (csharp-sdk
    PR #429: a browser at the endpoint) gets JSON, not a 406."""
    for name, accept in BROWSER_DEFAULTS.items():
        if "*/*" in accept or "application/json" in accept:
            assert select_post(accept, json_only=False) == "json", name
            assert select_post(accept, json_only=True) == "json", name


def test_an_absent_header_accepts_anything_when_not_required() -> None:
    assert select_post(None, json_only=False, require_header=False) == "json"
    assert select_post(None, json_only=True, require_header=False) == "json"
    assert select_get(None, require_header=False) == "sse"
    # a header present is read as always
    refused = select_post("text/html", json_only=False, require_header=False)
    assert answer(refused) == "406"


def test_an_over_long_value_is_a_431_in_json_rpc() -> None:
    for value in ("application/json, " * 1000, b"*/*," * 2049):
        for refused in (
            select_post(value, json_only=False),
            select_post(value, json_only=True),
            select_get(value),
        ):
            assert isinstance(refused, Decision)
            assert answer(refused) == "431"
            assert (
                "over 8192 characters" in json.loads(refused.body)["error"]["message"]
            )
    assert select_post("*/*," * 2048, json_only=False) == "json"  # 8192: read


@pytest.mark.parametrize("flag", [1, 0, "yes", None, 1.0])
def test_flags_must_be_bools(flag: Any) -> None:
    with pytest.raises(TypeError, match="json_only must be True or False"):
        select_post("*/*", json_only=flag)
    with pytest.raises(TypeError, match="require_header must be True or False"):
        select_post("*/*", json_only=False, require_header=flag)
    with pytest.raises(TypeError, match="require_header must be True or False"):
        select_get("*/*", require_header=flag)


@pytest.mark.parametrize("accept", [42, 1.5, ["*/*"], {"accept": "*/*"}])
def test_an_accept_of_a_wrong_type_is_a_type_error(accept: Any) -> None:
    with pytest.raises(TypeError, match="an Accept value must be str, bytes"):
        select_post(accept, json_only=False)
    with pytest.raises(TypeError, match="an Accept value must be str, bytes"):
        select_get(accept)


# The weights, as a model of the rules says (rules 9-11).

JSON_RANGES = ("application/json", "application/*", "*/*")
STREAM_RANGES = ("text/event-stream", "text/*", "*/*")
RANGES = ("application/json", "application/*", "text/event-stream", "text/*", "*/*")
Member = tuple[str, str | None]
#: Some of ``RANGES``, each once, in any order, each with its ``q`` as
#: written (None: no ``q``, so 1).
MEMBERS = st.lists(
    st.tuples(
        st.sampled_from(RANGES),
        st.sampled_from([None, "0", "0.001", "0.5", "0.9", "1"]),
    ),
    max_size=len(RANGES),
    unique_by=lambda member: member[0],
)


def written(members: list[Member]) -> str:
    """The Accept value of ``members``."""
    return ", ".join(r if q is None else f"{r};q={q}" for r, q in members)


def reach(weights: dict[str, float], ranges: tuple[str, ...]) -> tuple[float, int]:
    """A type's weight, from the most specific of its ``ranges`` the client
    listed (rule 10), and that range's specificity (2, 1, 0; -1: none)."""
    for specificity, media_range in zip((2, 1, 0), ranges, strict=True):
        if media_range in weights:
            return weights[media_range], specificity
    return 0.0, -1


def model(members: list[Member]) -> tuple[str, str, str]:
    """POST, POST with ``json_only``, GET: a type acceptable at a weight
    above 0; of both, the higher weight, then the more specific range, then
    JSON (rule 11)."""
    weights = {r: 1.0 if q is None else float(q) for r, q in members}
    as_json, as_stream = reach(weights, JSON_RANGES), reach(weights, STREAM_RANGES)
    if as_json[0] == as_stream[0] == 0:
        post = "406"
    else:
        post = "json" if as_json >= as_stream else "sse"
    return (
        post,
        "json" if as_json[0] > 0 else "406",
        "sse" if as_stream[0] > 0 else "406",
    )


@settings(max_examples=300)
@given(MEMBERS)
def test_the_weights_decide_as_a_model_says(members: list[Member]) -> None:
    accept = written(members)
    post, json_only, get = model(members)
    assert answer(select_post(accept, json_only=False)) == post, accept
    assert answer(select_post(accept, json_only=True)) == json_only, accept
    assert answer(select_get(accept)) == get, accept
    for engine in ENGINES.values():
        chosen = engine.Negotiator([JSON, EVENT_STREAM]).choose(accept)
        assert ANSWERS[chosen] == post, (engine.__name__, accept)


#: Accept values over the limit (8192 characters): 431.
TOO_LONG = st.integers(8193, 9000).map(lambda n: ("text/event-stream," * 500)[:n])


@settings(max_examples=300)
@given(
    accept=st.one_of(st.none(), ANY_VALUE, MEMBERS.map(written), TOO_LONG),
    json_only=st.booleans(),
    require_header=st.booleans(),
)
def test_any_value_gets_one_of_the_answers(
    accept: Any, json_only: bool, require_header: bool
) -> None:
    """Never a raise; ``"sse"`` only to a server that streams; a refusal
    always the JSON-RPC error ``answer`` checks."""
    post = answer(
        select_post(accept, json_only=json_only, require_header=require_header)
    )
    assert post in ({"json"} if json_only else {"json", "sse"}) | {"406", "431"}
    get = answer(select_get(accept, require_header=require_header))
    assert get in {"sse", "406", "431"}
    if post == "sse":
        assert get == "sse"  # the stream chosen only where it is acceptable


# examples/mcp_asgi.py's JSON-RPC, in process ---------------------------------

BOTH = b"application/json, text/event-stream"
#: A JSON-RPC 2.0 request (§4): it has an id, and gets a response.
REQUEST = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
#: What the transport takes without an answer: "If the input is a JSON-RPC
#: response or notification [...] the server MUST return HTTP status code
#: 202 Accepted with no body."
TAKEN = [
    b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',  # no id
    b'{"jsonrpc": "2.0", "id": 1, "result": {}}',  # a response to the server
    b'{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "x"}}',
    b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}}',
]
#: JSON-RPC 2.0 §5.1: -32700 for invalid JSON, -32600 for a JSON value that
#: is no Request object (a batch array among them: the transport takes one
#: message per POST).
REFUSED = [
    (b"", -32700),
    (b"\xff", -32700),
    (b'{"id": 1', -32700),
    (b"[" * 100_000, -32700),  # nested past the recursion limit: never a 500
    (b"[" + REQUEST + b"]", -32600),
    (b"[]", -32600),
    (b"[1]", -32600),
    (b'"x"', -32600),
    (b"null", -32600),
    # Objects that are no message: no version, no method, a method that is
    # no str, an id of another type (MCP: a request's is never null), a
    # request with a result, a response with both or neither.
    (b"{}", -32600),
    (b'{"id": 1, "method": "ping"}', -32600),
    (b'{"jsonrpc": "2.0"}', -32600),
    (b'{"jsonrpc": "2.0", "method": 7}', -32600),
    (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', -32600),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', -32600),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "x", "result": {}}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1}', -32600),
]


def example_answers(body: bytes, accept: bytes = BOTH) -> tuple[int, Any, bytes]:
    """The example's status, header fields (names lower-case) and body for a
    POST of ``body``."""
    app = load_example("mcp_asgi.py").app
    scope = {"type": "http", "method": "POST", "headers": [(b"accept", accept)]}
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, answer = sent
    fields = {name.lower(): value for name, value in start["headers"]}
    return start["status"], fields, answer["body"]


@pytest.mark.parametrize("body", TAKEN)
def test_the_example_takes_a_notification_or_a_response_with_202(body: bytes) -> None:
    fields = {b"content-length": b"0", b"vary": b"Accept"}  # no Content-Type
    assert example_answers(body) == (202, fields, b"")
    assert example_answers(body, b"text/event-stream")[0] == 202


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        (b"application/json", b"application/json"),
        (BOTH, b"application/json"),
        (b"text/event-stream", b"text/event-stream"),
    ],
)
def test_the_example_answers_a_request_with_its_id(
    accept: bytes, content_type: bytes
) -> None:
    status, fields, body = example_answers(REQUEST, accept)
    assert (status, fields[b"content-type"]) == (200, content_type)
    data = body.removeprefix(b"event: message\ndata: ").removesuffix(b"\n\n")
    assert json.loads(data) == {"jsonrpc": "2.0", "id": 1, "result": {}}
    named = example_answers(b'{"jsonrpc": "2.0", "id": "a", "method": "ping"}')
    assert json.loads(named[2])["id"] == "a"  # a str id, its own


@pytest.mark.parametrize(("body", "code"), REFUSED)
def test_the_example_refuses_a_body_that_is_no_message(body: bytes, code: int) -> None:
    status, fields, answer = example_answers(body)
    assert (status, fields[b"content-type"], fields[b"vary"]) == (
        400,
        b"application/json",
        b"Accept",
    )
    message = {-32700: "Parse error", -32600: "Invalid Request"}[code]
    error = {"code": code, "message": message}
    assert json.loads(answer) == {"jsonrpc": "2.0", "id": None, "error": error}


# examples/mcp_asgi.py over a real socket ------------------------------------

SOCKET = pytest.mark.thread_unsafe(reason="serves on a loopback port, for the module")
SERVERS = ["uvicorn-h11", "uvicorn-httptools"]


@pytest.fixture(scope="module", params=SERVERS)
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, int]]:
    app = load_example("mcp_asgi.py").app
    with partial(uvicorn_serving, http=request.param.removeprefix("uvicorn-"))(
        app
    ) as port:
        yield request.param, port


def with_body(request: bytes, body: bytes) -> bytes:
    """``raw_request``'s POST with ``body`` in place of its ``{}``."""
    head = request.removesuffix(b"{}")
    return head.replace(b"Content-Length: 2", b"Content-Length: %d" % len(body)) + body


def on_the_wire(
    port: int, method: str, *fields: bytes, body: bytes = REQUEST
) -> Response:
    request = raw_request(method, "/mcp", b"Content-Type: application/json", *fields)
    if method == "POST":
        request = with_body(request, body)
    return only_response(exchange(port, request))


def wire_answer(response: Response) -> str:
    """What the example sent: json, sse or the refusal's status."""
    content_type = response.value("content-type")
    if response.status == 200:
        assert response.value("vary") == b"Accept"
        return {b"application/json": "json", b"text/event-stream": "sse"}[content_type]
    assert content_type == b"application/json"
    assert json.loads(response.body)["error"]["code"] == -32600
    return str(response.status)


@SOCKET
@pytest.mark.parametrize(
    ("accept", "thread", "post", "json_only", "get"),
    ROWS,
    ids=IDS,
)
def test_the_example_answers_as_the_table_says(
    served: tuple[str, int],
    accept: str | None,
    thread: str,
    post: str,
    json_only: str,
    get: str,
) -> None:
    fields = [] if accept is None else [b"Accept: " + accept.encode()]
    sent = on_the_wire(served[1], "POST", *fields)
    assert wire_answer(sent) == post, thread
    if post == "json":
        assert json.loads(sent.body) == {"jsonrpc": "2.0", "id": 1, "result": {}}
    if post == "sse":
        assert sent.body.startswith(b"event: message\ndata: {")
    assert wire_answer(on_the_wire(served[1], "GET", *fields)) == get, thread


@SOCKET
def test_the_example_reads_accept_lines_as_one_list(served: tuple[str, int]) -> None:
    lines = (b"Accept: application/json;q=0", b"Accept: text/event-stream")
    assert wire_answer(on_the_wire(served[1], "POST", *lines)) == "sse"


@SOCKET
def test_the_example_answers_a_long_accept_431(served: tuple[str, int]) -> None:
    response = on_the_wire(served[1], "POST", b"Accept: " + b"a/b, " * 2000)
    assert wire_answer(response) == "431"


@SOCKET
def test_the_example_answers_a_huge_accept_without_a_500(
    served: tuple[str, int],
) -> None:
    stream = exchange(served[1], raw_request("POST", "/mcp", b"Accept: " + HUGE_ACCEPT))
    if stream:  # else the server's reset overtook its answer
        response = only_response(stream)
        own = REFUSE_HUGE_HEADERS.get(served[0])
        assert response.status == (431 if own is None else own), stream[:300]


@SOCKET
@pytest.mark.parametrize(
    ("accept", "post"),
    [
        (MALFORMED, "406"),  # skipped members, image/png: nothing acceptable
        (MALFORMED + b", text/event-stream", "sse"),
        (b"application/json, \xe9t\xe9/x", "json"),  # Latin-1: a member skipped
        (b"application/json\xff", "406"),  # no valid member
        (b"application/json;q=\xb5, text/event-stream", "sse"),  # no valid weight
    ],
)
def test_the_example_answers_hostile_values(
    served: tuple[str, int], accept: bytes, post: str
) -> None:
    assert wire_answer(on_the_wire(served[1], "POST", b"Accept: " + accept)) == post


@SOCKET
@pytest.mark.parametrize(("body", "code"), REFUSED)
def test_the_example_answers_a_body_that_is_no_message_with_its_error(
    served: tuple[str, int], body: bytes, code: int
) -> None:
    """-32700 for no JSON (nested past the recursion limit too: never a
    500), -32600 for JSON that is no one message."""
    request = with_body(raw_request("POST", "/mcp", b"Accept: " + BOTH), body)
    response = only_response(exchange(served[1], request))
    assert (response.status, response.value("vary")) == (400, b"Accept")
    assert json.loads(response.body)["error"]["code"] == code


@SOCKET
@pytest.mark.parametrize("body", TAKEN)
def test_the_example_answers_a_notification_or_a_response_202(
    served: tuple[str, int], body: bytes
) -> None:
    response = on_the_wire(served[1], "POST", b"Accept: " + BOTH, body=body)
    assert (response.status, response.body) == (202, b"")
    assert "content-type" not in response.names


@SOCKET
@pytest.mark.parametrize("accept", [b"application/json\x01", b"text/\x00event-stream"])
def test_control_bytes_get_an_answer_or_the_servers_400(
    served: tuple[str, int], accept: bytes
) -> None:
    response = on_the_wire(served[1], "POST", b"Accept: " + accept)
    assert response.status in (200, 400, 406), response
