"""``fastaccept.mcp`` (docs/mcp.md): the Accept check of MCP's Streamable
HTTP transport as a negotiation. The table of headers from the SDKs'
threads is read from docs/mcp.md and holds for ``select_post`` (both ways)
and ``select_get``; any value gets one of the three answers and never
raises; the refusal is a JSON-RPC error. examples/mcp_asgi.py answers the
same on uvicorn (h11 and httptools), the socket suite's attacks included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Decision
from fastaccept.mcp import select_get, select_post

from .conftest import load_example
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


def table() -> list[tuple[str | None, str, str, str, str]]:
    """docs/mcp.md's table: (Accept or None, its thread, POST, POST with
    ``json_only``, GET)."""
    text = PAGE.read_text(encoding="utf-8")
    rows = text.split("| Accept | where it was met |", 1)[1].split("\n\n", 1)[0]
    found = []
    for line in rows.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        accept = None if cells[0] == "(absent)" else cells[0].strip("`")
        found.append((accept, cells[1], cells[2], cells[3], cells[4]))
    return found


ROWS = table()


def answer(chosen: str | Decision) -> str:
    """``"json"``, ``"sse"`` or the refusal's status, checked as docs/mcp.md
    says a refusal is."""
    if isinstance(chosen, str):
        return chosen
    assert chosen.headers["Content-Type"] == "application/json"
    assert chosen.headers["Vary"] == "Accept"
    body = json.loads(chosen.body)
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["code"] == -32600
    assert body["error"]["message"].startswith(chosen.reason)
    return str(chosen.status)


def test_the_table_names_every_thread() -> None:
    threads = " ".join(row[1] for row in ROWS)
    for thread in (
        "python-sdk#1641",
        "PR #2152",
        "python-sdk#2349",
        "PR #1500",
        "go-sdk#290",
        "csharp-sdk PR #429",
        "java-sdk#616",
        "fastapi_mcp#233",
    ):
        assert thread in threads


@pytest.mark.parametrize(
    ("accept", "thread", "post", "json_only", "get"),
    ROWS,
    ids=[r[0] or "" for r in ROWS],
)
def test_each_header_as_the_table_says(
    accept: str | None, thread: str, post: str, json_only: str, get: str
) -> None:
    for value in (accept, None if accept is None else accept.encode("latin-1")):
        assert answer(select_post(value, json_only=False)) == post, thread
        assert answer(select_post(value, json_only=True)) == json_only, thread
        assert answer(select_get(value)) == get, thread


def test_an_absent_header_accepts_anything_when_not_required() -> None:
    assert select_post(None, json_only=False, require_header=False) == "json"
    assert select_post(None, json_only=True, require_header=False) == "json"
    assert select_get(None, require_header=False) == "sse"


def test_an_over_long_value_is_a_431_in_json_rpc() -> None:
    refused = select_post("application/json, " * 1000, json_only=False)
    assert isinstance(refused, Decision)
    assert answer(refused) == "431"
    assert "over the limit" in json.loads(refused.body)["error"]["message"]


@pytest.mark.parametrize("flag", [1, "yes", None])
def test_flags_must_be_bools(flag: Any) -> None:
    with pytest.raises(TypeError, match="json_only must be True or False"):
        select_post("*/*", json_only=flag)
    with pytest.raises(TypeError, match="require_header must be True or False"):
        select_post("*/*", json_only=False, require_header=flag)
    with pytest.raises(TypeError, match="require_header must be True or False"):
        select_get("*/*", require_header=flag)


@given(accept=st.none() | ANY_VALUE, json_only=st.booleans())
def test_any_value_gets_one_of_the_answers(accept: Any, json_only: bool) -> None:
    """Never a raise; ``"sse"`` only where the stream is acceptable and
    preferred, ``"json"`` never to a JSON-only server that refuses JSON."""
    post = answer(select_post(accept, json_only=json_only))
    assert post in (
        {"json", "406", "431"} if json_only else {"json", "sse", "406", "431"}
    )
    assert answer(select_get(accept)) in {"sse", "406", "431"}


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


def on_the_wire(port: int, method: str, *fields: bytes) -> Response:
    request = raw_request(method, "/mcp", b"Content-Type: application/json", *fields)
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
    ids=[r[0] or "" for r in ROWS],
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
        assert json.loads(sent.body) == {"jsonrpc": "2.0", "id": None, "result": {}}
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
@pytest.mark.parametrize("accept", [b"application/json\x01", b"text/\x00event-stream"])
def test_control_bytes_get_an_answer_or_the_servers_400(
    served: tuple[str, int], accept: bytes
) -> None:
    response = on_the_wire(served[1], "POST", b"Accept: " + accept)
    assert response.status in (200, 400, 406), response
