"""End to end: examples/users_api.py on uvicorn, on a loopback port the system picks, over HTTP.

The service is started as docs/web.md (example service) starts it, in a child process;
httpx talks to it over a real socket (and a bare socket where httpx would
refuse to send the bytes, or would hide a body sent to HEAD); every status and
header the example promises is checked; the process is stopped at the end.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    import httpx
else:  # the test extra has it; a bare environment skips these tests
    httpx = pytest.importorskip("httpx")

from fastaccept import BROWSER_DEFAULTS

from .conftest import EXAMPLES, load_example

pytest.importorskip("uvicorn", reason="the [examples] extra is not installed")

TOKEN = "e2e-token-4f1c"
USER_TYPES = ("application/json", "text/html; charset=utf-8", "text/csv; charset=utf-8")
JDK_LEGACY = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"
BODY_TYPES = "application/json, application/x-www-form-urlencoded"
TEXT = "text/plain; charset=utf-8"
PROBLEM = "application/problem+json"
#: What every answer past the 401 varies on: the token, then Accept (once).
VARY = "Authorization, Accept"
NEW_USER = json.dumps({"name": "Grace Hopper", "email": "g@example.org"})


#: uvicorn's line once it listens; with ``--port 0`` it names the port the
#: system chose, so no other process can take it between choice and use.
LISTENING = re.compile(rb"Uvicorn running on http://127\.0\.0\.1:(\d+) ")


def port_when_listening(process: subprocess.Popen[bytes], log: Path) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = LISTENING.search(log.read_bytes())
        if found:
            return int(found[1])
        if process.poll() is not None:
            pytest.fail(
                f"users_api.py exited with {process.returncode}:\n{log.read_text()}"
            )
        time.sleep(0.1)
    pytest.fail(f"users_api.py did not listen within 30 s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("users_api") / "server.log"
    command = [sys.executable, str(EXAMPLES / "users_api.py")]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", "0"],
            env={**os.environ, "USERS_API_TOKEN": TOKEN},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        port = port_when_listening(process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it (exit -15).
    text = log.read_text()
    assert "Application shutdown complete." in text, text
    # No answer was a 500: the application never raised.
    assert "Exception in ASGI application" not in text, text
    assert " 500 " not in text, text


def test_the_service_needs_its_token() -> None:
    env = {k: v for k, v in os.environ.items() if k != "USERS_API_TOKEN"}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "users_api.py"), "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "USERS_API_TOKEN" in result.stderr


class _ClientPerThread:
    """An ``httpx.Client`` for each thread that uses it, made on first use.

    pytest-run-parallel (the free-threaded CI session) runs a test's body in
    several threads with one set of fixtures, and httpcore's connection pool
    is not safe to share between threads without the GIL (a thread found
    another's connection half set up)."""

    def __init__(self, base_url: str) -> None:
        self._base_url = base_url
        self._local = threading.local()
        self._made: list[httpx.Client] = []
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        found: httpx.Client | None = getattr(self._local, "client", None)
        if found is None:
            auth = {"Authorization": f"Bearer {TOKEN}"}
            found = httpx.Client(base_url=self._base_url, headers=auth, timeout=10)
            self._local.client = found
            with self._lock:
                self._made.append(found)
        return getattr(found, name)

    def close_all(self) -> None:
        for made in self._made:
            made.close()


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    clients = _ClientPerThread(base_url)
    try:
        yield cast(httpx.Client, clients)
    finally:
        clients.close_all()


def exchange(base_url: str, request: bytes) -> bytes:
    """Send ``request`` (whole, bytes as they are) on a new connection, and
    read the whole answer: the request must ask to close the connection."""
    assert b"\r\nConnection: close\r\n" in request
    address = urlsplit(base_url)
    assert address.hostname is not None and address.port is not None
    with socket.create_connection((address.hostname, address.port), timeout=10) as s:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


def raw_request(
    method: str, path: str, *headers: tuple[bytes, bytes], token: bool = True
) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1".encode(),
        b"Host: 127.0.0.1",
        *([f"Authorization: Bearer {TOKEN}".encode()] if token else []),
        b"Connection: close",
        *(name + b": " + value for name, value in headers),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def get_user(client: httpx.Client, *accept: str) -> httpx.Response:
    return client.get("/users/1", headers=[("Accept", v) for v in accept])


def post_user(
    client: httpx.Client,
    content: str | bytes = NEW_USER,
    content_type: str | None = "application/json",
    accept: str | None = "application/json",
) -> httpx.Response:
    headers = {"Content-Type": content_type} if content_type else {}
    if accept is not None:
        headers["Accept"] = accept
    return client.post("/users", content=content, headers=headers)


def assert_varies(response: httpx.Response) -> None:
    """One Vary line, Accept in it once, and the service's own Authorization kept."""
    lines = response.headers.get_list("vary")
    assert len(lines) == 1, lines
    names = [name.strip().lower() for name in lines[0].split(",")]
    assert names.count("accept") == 1, lines
    assert "authorization" in names, lines
    assert lines == [VARY]


def assert_user(response: httpx.Response, media_type: str) -> None:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type
    assert response.headers["x-content-type-options"] == "nosniff"
    assert_varies(response)
    if media_type == "application/json":
        assert response.json() == {
            "id": 1,
            "name": "Ada Lovelace",
            "email": "ada@example.org",
        }
    elif media_type.startswith("text/html"):
        assert "<td>Ada Lovelace</td>" in response.text
    else:
        rows = list(csv.reader(io.StringIO(response.text)))
        assert rows == [
            ["id", "name", "email"],
            ["1", "Ada Lovelace", "ada@example.org"],
        ]


@pytest.mark.parametrize(
    ("authorization", "why"),
    [
        (None, "no header"),
        ("Bearer wrong-token", "wrong token"),
        (f"Basic {TOKEN}", "wrong scheme"),
        (f"Bearer {TOKEN}x", "token with a suffix"),
        ("Bearer", "no token"),
    ],
)
def test_401_without_the_token(
    base_url: str, authorization: str | None, why: str
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    for method, path in (("GET", "/users/1"), ("HEAD", "/users/1"), ("POST", "/users")):
        response = httpx.request(method, base_url + path, headers=headers)
        assert response.status_code == 401, why
        assert response.headers["www-authenticate"] == 'Bearer realm="users"'
        assert response.headers["vary"] == "Authorization"


def test_401_comes_before_the_negotiation(base_url: str) -> None:
    """Without the token, nothing else is read: no 406, 415 or 431."""
    for method, path, headers in [
        ("GET", "/users/1", {"Accept": "image/png"}),
        ("GET", "/users/1", {"Accept": "a" * 9000}),
        ("GET", "/users/999", {}),
        ("POST", "/users", {"Content-Type": "text/plain", "Accept": "image/png"}),
    ]:
        response = httpx.request(method, base_url + path, headers=headers)
        assert response.status_code == 401, (method, headers)
        assert response.headers["content-type"] == TEXT


def test_the_scheme_is_case_insensitive(base_url: str) -> None:
    headers = {"Authorization": f"bearer {TOKEN}", "Accept": "text/csv"}
    assert_user(httpx.get(base_url + "/users/1", headers=headers), USER_TYPES[2])


@pytest.mark.parametrize(
    ("accept", "media_type"),
    [
        ("application/json", USER_TYPES[0]),
        ("text/html", USER_TYPES[1]),
        ("text/csv", USER_TYPES[2]),
        ("text/csv;q=0.9, text/html;q=0.8", USER_TYPES[2]),
        ("*/*", USER_TYPES[0]),  # curl
        (JDK_LEGACY, USER_TYPES[1]),  # JDK 8-18 HttpURLConnection
    ],
)
def test_get_negotiates(client: httpx.Client, accept: str, media_type: str) -> None:
    assert_user(get_user(client, accept), media_type)


def test_get_without_accept_is_json(client: httpx.Client) -> None:
    assert_user(get_user(client), USER_TYPES[0])


def test_two_accept_lines_are_one_list(client: httpx.Client) -> None:
    assert_user(get_user(client, "image/png", "text/csv"), USER_TYPES[2])


@pytest.mark.parametrize("context", sorted(BROWSER_DEFAULTS))
def test_browser_defaults(client: httpx.Client, context: str) -> None:
    value = BROWSER_DEFAULTS[context]
    assert_user(
        get_user(client, value),
        USER_TYPES[1] if "text/html" in value else USER_TYPES[0],
    )


@pytest.mark.parametrize(
    "accept", ["image/png", "image/png, application/xml;q=0.9", "", "*/*;q=0"]
)
def test_406_lists_the_types_in_plain_text(client: httpx.Client, accept: str) -> None:
    response = get_user(client, accept)
    assert response.status_code == 406
    assert_varies(response)
    assert response.headers["content-type"] == TEXT
    first, *listed = response.text.splitlines()
    assert first.startswith("406 Not Acceptable: ")
    assert listed == list(USER_TYPES)


@pytest.mark.parametrize(
    "accept",
    [
        "image/png, application/problem+json;q=0.5",
        "application/problem+json",
        "image/png, text/plain;q=0.1, application/problem+json;q=0.2",
    ],
)
def test_406_as_problem_json_when_the_accept_prefers_it(
    client: httpx.Client, accept: str
) -> None:
    """docs/rules.md rule 16: the refusal in the format the Accept value prefers."""
    response = get_user(client, accept)
    assert response.status_code == 406
    assert_varies(response)
    assert response.headers["content-type"] == PROBLEM
    problem = response.json()
    assert problem["status"] == 406
    assert problem["title"] == "Not Acceptable"
    assert problem["acceptable"] == list(USER_TYPES)


def test_431_for_an_accept_over_the_limit(client: httpx.Client) -> None:
    response = get_user(client, ", ".join(["text/html"] * 900))  # 9,898 characters
    assert response.status_code == 431
    assert_varies(response)
    assert response.headers["content-type"] == TEXT
    assert "9898 characters long; the limit is 8192" in response.text


def test_431_for_accept_lines_over_the_limit_together(client: httpx.Client) -> None:
    """Two lines are one value (RFC 9110 §5.3): 2 x 5000 + 2 characters."""
    response = get_user(client, "a" * 5000, "b" * 5000)
    assert response.status_code == 431
    assert "10002 characters long" in response.text


def test_431_for_a_content_type_over_the_limit(client: httpx.Client) -> None:
    content_type = "application/json; x=" + "a" * 9000
    response = post_user(client, content_type=content_type, accept=PROBLEM)
    assert response.status_code == 431
    assert_varies(response)
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["status"] == 431


HOSTILE = [
    b"\xff\xfe",
    b"\x80\x81\x82",
    b"text/html;q=abc",
    b'text/html;x="open',
    b"text/html;q=0.5;q=0.6",
    b"*/html",
    b",,;;",
    b"/",
    b"\\",
    b"text/html;" + b";" * 5000,
    b"a" * 8192,
    b"a" * 8193,
    b"a," * 50_000,
    b"a" * 200_000,
]


#: uvicorn's h11 parser (without httptools) refuses a request head over 16 KiB
#: itself: a 400, or the connection closed before the body is read.
H11_HEAD_LIMIT = 16 * 1024


def hostile_request(
    client: httpx.Client,
    method: str,
    path: str,
    headers: list[tuple[bytes, bytes]],
    answers: tuple[int, ...],
) -> None:
    """The service's answer is one of ``answers``, with ``Vary`` as it should
    be; over h11's limit, the server's own 400 or a closed connection too."""
    over = sum(len(name) + len(value) for name, value in headers) > H11_HEAD_LIMIT
    content = NEW_USER if method == "POST" else None
    try:
        response = client.request(method, path, headers=headers, content=content)
    except httpx.TransportError:
        if over:
            return
        raise
    if over and response.status_code == 400:
        return
    assert response.status_code in answers, headers
    assert_varies(response)


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:20]))
def test_hostile_accept_is_not_a_500(client: httpx.Client, value: bytes) -> None:
    for method in ("GET", "HEAD"):
        headers = [(b"Accept", value)]
        hostile_request(client, method, "/users/1", headers, (200, 406, 431))
    headers = [(b"Content-Type", b"application/json"), (b"Accept", value)]
    hostile_request(client, "POST", "/users", headers, (201, 406, 431))


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:20]))
def test_hostile_content_type_is_not_a_500(client: httpx.Client, value: bytes) -> None:
    for accept in (b"application/json", b"application/problem+json", value):
        headers = [(b"Content-Type", value), (b"Accept", accept)]
        hostile_request(client, "POST", "/users", headers, (406, 415, 431))


@pytest.mark.parametrize(
    "lines",
    [
        [b"application/json", b"application/json"],
        [b"application/json", b"text/plain"],
        [b"application/json", b""],
        [b"application/json"] * 100,
    ],
    ids=["twice", "json-and-text", "json-and-empty", "100-lines"],
)
def test_several_content_type_lines_are_one_value(
    client: httpx.Client, lines: list[bytes]
) -> None:
    """Joined by ", " they are no single media type: 415, never a 500."""
    headers = [(b"Content-Type", line) for line in lines]
    response = client.post("/users", content=NEW_USER, headers=headers)
    assert response.status_code == 415
    assert_varies(response)
    assert response.headers["accept"] == BODY_TYPES


def test_many_accept_lines_are_one_list(client: httpx.Client) -> None:
    response = get_user(client, *["image/png"] * 200)
    assert response.status_code == 406
    assert_varies(response)
    assert_user(get_user(client, *["image/png"] * 199, "text/csv"), USER_TYPES[2])


@pytest.mark.parametrize(
    "value",
    [b"\x00", b"\x01", b"\x7f", b"text/html\rx", b"text/html\x00, */*"],
    ids=repr,
)
@pytest.mark.parametrize("name", [b"Accept", b"Content-Type"])
def test_bytes_httpx_refuses_to_send_are_not_a_500(
    base_url: str, name: bytes, value: bytes
) -> None:
    """Control bytes in a field value: the HTTP parser's 400 (httptools; h11
    passes some on: then the service answers), never a 500."""
    for method, path in (("GET", "/users/1"), ("POST", "/users")):
        request = raw_request(method, path, (b"Content-Length", b"0"), (name, value))
        answer = exchange(base_url, request)
        assert status_of(answer) in (200, 400, 406, 415), answer[:200]
    answer = exchange(base_url, raw_request("GET", "/users/1", (b"Accept", b"\xff")))
    assert status_of(answer) == 406  # the service is still there


# The answers HEAD must give as GET does: (path, Accept, Authorization).
HEAD_CASES = [
    ("/users/1", "text/csv", True),
    ("/users/1", None, True),
    ("/users/2", "text/html", True),
    ("/users/1", "image/png", True),
    ("/users/1", "image/png, application/problem+json;q=0.5", True),
    ("/users/1", "a" * 9000, True),
    ("/users/999", "application/json", True),
    ("/users/1", "application/json", False),
    ("/users", "application/json", True),
    ("/nowhere", None, True),
]


@pytest.mark.parametrize(("path", "accept", "authorized"), HEAD_CASES)
def test_head_is_answered_like_get_without_a_body(
    base_url: str, path: str, accept: str | None, authorized: bool
) -> None:
    headers = [(b"Accept", accept.encode())] if accept is not None else []
    get = exchange(base_url, raw_request("GET", path, *headers, token=authorized))
    head = exchange(base_url, raw_request("HEAD", path, *headers, token=authorized))
    get_head, _, get_body = get.partition(b"\r\n\r\n")
    head_head, _, head_body = head.partition(b"\r\n\r\n")
    assert head_body == b"", head_body[:200]

    def without_date(header: bytes) -> list[bytes]:
        # Names as the parser writes them: httptools lower-case, h11 as sent.
        lines = header.lower().split(b"\r\n")
        return [line for line in lines if not line.startswith(b"date:")]

    assert without_date(head_head) == without_date(get_head)
    assert f"content-length: {len(get_body)}".encode() in without_date(get_head)


def call_app(
    method: str, path: str, accept: str | None, authorized: bool
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """The example's application called in this process, without a server:
    its status, headers and every body byte it sends."""
    app = load_example("users_api.py").UsersAPI(TOKEN)
    headers = [(b"accept", accept.encode())] if accept is not None else []
    if authorized:
        headers.append((b"authorization", f"Bearer {TOKEN}".encode()))
    scope = {"type": "http", "method": method, "path": path, "headers": headers}
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, *bodies = sent
    assert start["type"] == "http.response.start"
    body = b"".join(message["body"] for message in bodies)
    return start["status"], start["headers"], body


@pytest.mark.parametrize(("path", "accept", "authorized"), HEAD_CASES)
def test_the_application_itself_sends_head_no_body(
    path: str, accept: str | None, authorized: bool
) -> None:
    """uvicorn drops a body sent to HEAD: the application must not rely on it."""
    get_status, get_headers, get_body = call_app("GET", path, accept, authorized)
    head_status, head_headers, head_body = call_app("HEAD", path, accept, authorized)
    assert (head_status, head_headers, head_body) == (get_status, get_headers, b"")
    assert (b"content-length", str(len(get_body)).encode()) in [
        (name.lower(), value) for name, value in get_headers
    ]


def test_404_for_an_unknown_user(client: httpx.Client) -> None:
    response = client.get("/users/999", headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert_varies(response)  # an Accept that allows no type would get 406
    assert client.get("/users/999", headers={"Accept": "image/png"}).status_code == 406
    assert client.get("/nowhere").status_code == 404


def test_an_id_of_5000_digits_is_read_after_the_token_and_names_no_user(
    base_url: str, client: httpx.Client
) -> None:
    """Past ``int``'s 4,300 digits: 401 without the token, then the negotiation,
    then 404; never the 500 of a conversion done while routing."""
    path = "/users/" + "1" * 5000
    for method in ("GET", "HEAD"):
        assert httpx.request(method, base_url + path).status_code == 401
        response = client.request(method, path, headers={"Accept": "text/csv"})
        assert response.status_code == 404
        assert response.headers["content-type"] == TEXT
        assert_varies(response)
    assert client.get(path, headers={"Accept": "image/png"}).status_code == 406
    assert client.get("/users/1" + "0" * 18).status_code == 404  # 19 digits
    leading_zeros = client.get("/users/" + "0" * 5000 + "1")  # the value is 1
    assert_user(leading_zeros, USER_TYPES[0])


def test_405_names_the_allowed_methods(client: httpx.Client) -> None:
    assert client.delete("/users/1").headers["allow"] == "GET, HEAD"
    assert client.get("/users").headers["allow"] == "POST"


@pytest.mark.parametrize(
    ("content_type", "content"),
    [
        ("application/json", NEW_USER),
        (
            "application/json; charset=utf-8",
            '{"name": "Edsger", "email": "ewd@example.org"}',
        ),
        (
            "application/x-www-form-urlencoded",
            "name=Barbara+Liskov&email=bl%40example.org",
        ),
    ],
)
def test_post_creates_a_user(
    client: httpx.Client, content_type: str, content: str
) -> None:
    response = post_user(client, content, content_type)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == "application/json"
    assert_varies(response)
    created = response.json()
    assert response.headers["location"] == f"/users/{created['id']}"
    again = client.get(
        response.headers["location"], headers={"Accept": "application/json"}
    )
    assert again.json() == created


def test_post_answers_in_the_negotiated_type(client: httpx.Client) -> None:
    response = post_user(client, accept="text/csv")
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == USER_TYPES[2]
    assert_varies(response)
    header, row = csv.reader(io.StringIO(response.text))
    assert header == ["id", "name", "email"]
    assert response.headers["location"] == f"/users/{row[0]}"


def test_post_checks_the_content_type_before_the_accept(client: httpx.Client) -> None:
    response = post_user(client, content_type="text/csv", accept="image/png")
    assert response.status_code == 415
    assert response.headers["accept-post"] == BODY_TYPES  # W3C LDP §7.1
    assert_varies(response)
    response = post_user(client, accept="image/png")
    assert response.status_code == 406
    assert "location" not in response.headers


@pytest.mark.parametrize(
    "content_type",
    ["text/csv", "application/xml", "json", "multipart/form-data; boundary=b", None],
)
def test_415_names_the_accepted_types(
    client: httpx.Client, content_type: str | None
) -> None:
    response = post_user(client, "name=x", content_type, accept=None)
    assert response.status_code == 415
    assert response.headers["accept"] == BODY_TYPES
    assert response.headers["content-type"] == TEXT
    assert_varies(response)
    assert response.text.splitlines()[1:] == BODY_TYPES.split(", ")


@pytest.mark.parametrize("accept", ["application/json", PROBLEM])
def test_415_as_problem_json_for_a_json_client(
    client: httpx.Client, accept: str
) -> None:
    """docs/rules.md rule 16: a client that takes JSON gets its refusal as JSON."""
    response = post_user(client, "x", "text/plain", accept)
    assert response.status_code == 415
    assert response.headers["accept"] == BODY_TYPES
    assert response.headers["content-type"] == PROBLEM
    assert_varies(response)
    problem = response.json()
    assert problem["status"] == 415
    assert problem["acceptable"] == BODY_TYPES.split(", ")


def test_400_for_content_that_does_not_parse(client: httpx.Client) -> None:
    cases: list[tuple[str, str | bytes]] = [
        ("application/json", "{not json"),
        ("application/json", '["a list"]'),
        ("application/json", '{"name": "no email"}'),
        ("application/json", b"\xff\xfe"),
        ("application/x-www-form-urlencoded", "name"),
        ("application/x-www-form-urlencoded", b"name=\xff&email=x"),
        # the same bytes percent-encoded, and a lone surrogate's UTF-8 (U+D800)
        ("application/x-www-form-urlencoded", b"name=%FF&email=x"),
        ("application/x-www-form-urlencoded", b"name=%ED%A0%80&email=x"),
    ]
    for content_type, content in cases:
        response = post_user(client, content, content_type)
        assert response.status_code == 400, (content_type, content)
        assert response.headers["content-type"] == TEXT
        assert response.headers["x-content-type-options"] == "nosniff"
        assert_varies(response)


def test_a_400_quoting_a_form_field_is_never_sniffed(client: httpx.Client) -> None:
    field = "<script>alert(1)</script>"
    response = post_user(client, field, "application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert field in response.text  # quoted as the parser reports it
    assert response.headers["content-type"] == TEXT
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_would_run_as_formulas_are_quoted(
    client: httpx.Client, start: str
) -> None:
    """OWASP, "CSV Injection": a cell a spreadsheet reads as a formula gets
    a leading ``'``, in the 201 and in a later GET; JSON keeps the value."""
    name = start + 'HYPERLINK("http://evil.example","x")'
    content = json.dumps({"name": name, "email": "@a"})
    created = post_user(client, content, accept="text/csv")
    assert created.status_code == 201, created.text
    assert created.headers["x-content-type-options"] == "nosniff"
    again = client.get(created.headers["location"], headers={"Accept": "text/csv"})
    for response in (created, again):
        _, (user_id, cell, email) = csv.reader(io.StringIO(response.text))
        assert (cell, email) == ("'" + name, "'@a")
        assert user_id.isdigit()
    as_json = client.get(created.headers["location"], headers={"Accept": "*/*"})
    assert as_json.json()["name"] == name


@pytest.mark.parametrize(
    "content",
    ["[" * 60_000, '{"":' * 13_000 + "1" + "}" * 13_000],  # 3.13 parses 8,000
    ids=["arrays", "objects"],
)
def test_400_for_json_nested_past_the_recursion_limit(
    client: httpx.Client, content: str
) -> None:
    """json.loads raises RecursionError, not ValueError: the same 400 as for
    content that does not parse, under the 64 KiB limit. From CPython 3.14 the
    decoder nests as deep as the C stack allows (about 65,000 levels in 8 MiB):
    the objects parse there, and are refused as no user."""
    assert len(content) < 64 * 1024
    try:
        parses = json.loads(content) is not None
    except (ValueError, RecursionError):
        parses = False
    invalid = post_user(client, "{not json")
    response = post_user(client, content)
    assert response.status_code == invalid.status_code == 400
    assert response.headers["content-type"] == invalid.headers["content-type"] == TEXT
    prefix = "400 Bad Request: the content does not parse ("
    assert invalid.text.startswith(prefix)
    if parses:
        prefix = "400 Bad Request: 'name' must be a string"
    assert response.text.startswith(prefix), response.text
    assert_varies(response)


@pytest.mark.parametrize("accept", USER_TYPES)
def test_400_for_a_lone_surrogate_no_representation_could_carry(
    client: httpx.Client, accept: str
) -> None:
    """JSON's ``\\ud800`` is a str no UTF-8 body can encode: refused when
    given, so neither the 201 nor a later GET as HTML or CSV fails."""
    content = '{"name": "Ada \\ud800", "email": "ada@example.org"}'
    response = post_user(client, content, accept=accept)
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == TEXT
    assert "'name' holds a lone surrogate" in response.text
    assert_varies(response)
    assert "location" not in response.headers


def test_413_for_content_over_64_kib(client: httpx.Client) -> None:
    content = json.dumps({"name": "x" * 64 * 1024, "email": "x@example.org"})
    response = post_user(client, content)
    assert response.status_code == 413
    assert_varies(response)
    assert "the limit is 65536 bytes" in response.text


def test_the_httpx_client_example_recovers_from_415(base_url: str) -> None:
    """examples/httpx_client.py: CSV first, 415, then a type from the Accept header."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "httpx_client.py"), base_url, "--name", "Kay"],
        env={**os.environ, "USERS_API_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    first_line, body = result.stdout.split("\n", 1)
    assert first_line == "201 application/x-www-form-urlencoded"
    assert json.loads(body)["name"] == "Kay"


def documented_session() -> list[tuple[list[str], list[str]]]:
    """(command words, output lines) of docs/web.md's curl and client transcript."""
    text = (EXAMPLES.parent / "docs" / "web.md").read_text(encoding="utf-8")
    block = text[text.index("$ curl -i") : text.index("```", text.index("$ curl -i"))]
    session = []
    for command in block.split("$ ")[1:]:
        first, *output = command.rstrip("\n").split("\n")
        session.append((first.split(), output))
    return session


def test_the_documented_session_is_what_the_service_answers(base_url: str) -> None:
    (curl, shown), (client_command, client_shown) = documented_session()
    assert curl[:2] == ["curl", "-i"] and client_command[0] == "USERS_API_TOKEN=s3cret"
    response = httpx.get(
        urlsplit(curl[-1])._replace(netloc=urlsplit(base_url).netloc).geturl(),
        headers={"Authorization": f"Bearer {TOKEN}", "Accept": "text/csv"},
    )
    status_line, *rest = shown
    blank = rest.index("")
    assert status_line == f"HTTP/1.1 {response.status_code} {response.reason_phrase}"
    documented = dict(line.split(": ", 1) for line in rest[:blank])
    documented.pop("date")
    assert {k: response.headers[k] for k in documented} == documented
    assert response.text.splitlines() == [line for line in rest[blank + 1 :] if line]

    ran = subprocess.run(
        [sys.executable, *client_command[2:-1], base_url],
        cwd=EXAMPLES.parent,
        env={**os.environ, "USERS_API_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        check=True,
    )
    first, created = ran.stdout.splitlines()
    assert first == client_shown[0]
    shown_user, user = json.loads(client_shown[1]), json.loads(created)
    assert {**user, "id": 0} == {**shown_user, "id": 0}  # ids follow earlier tests
