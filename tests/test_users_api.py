"""End to end: examples/users_api.py on uvicorn, on a free loopback port, over HTTP.

The service is started as its README command starts it, in a child process;
httpx talks to it over a real socket; every status and header the example
promises is checked; the process is stopped at the end.
"""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fastaccept import BROWSER_DEFAULTS

from .conftest import EXAMPLES

pytest.importorskip("uvicorn", reason="the [examples] extra is not installed")

TOKEN = "e2e-token-4f1c"
USER_TYPES = ("application/json", "text/html; charset=utf-8", "text/csv; charset=utf-8")
JDK_LEGACY = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"
BODY_TYPES = "application/json, application/x-www-form-urlencoded"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_listening(
    process: subprocess.Popen[bytes], port: int, log: Path
) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"users_api.py exited with {process.returncode}:\n{log.read_text()}"
            )
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"users_api.py did not listen within 30 s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("users_api") / "server.log"
    command = [sys.executable, str(EXAMPLES / "users_api.py")]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port)],
            env={**os.environ, "USERS_API_TOKEN": TOKEN},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_listening(process, port, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it (exit -15).
    assert "Application shutdown complete." in log.read_text(), log.read_text()


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


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=base_url, headers=auth, timeout=10) as c:
        yield c


def get_user(client: httpx.Client, *accept: str) -> httpx.Response:
    return client.get("/users/1", headers=[("Accept", v) for v in accept])


def assert_user(response: httpx.Response, media_type: str) -> None:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type
    assert response.headers["vary"] == "Accept"
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
    for method, path in (("GET", "/users/1"), ("POST", "/users")):
        response = httpx.request(method, base_url + path, headers=headers)
        assert response.status_code == 401, why
        assert response.headers["www-authenticate"] == 'Bearer realm="users"'


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


def test_406_lists_the_types(client: httpx.Client) -> None:
    response = get_user(client, "image/png, application/xml;q=0.9")
    assert response.status_code == 406
    assert response.headers["vary"] == "Accept"
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text.splitlines()[1:] == list(USER_TYPES)


def test_431_for_an_accept_over_the_limit(client: httpx.Client) -> None:
    response = get_user(client, ", ".join(["text/html"] * 900))  # 9,898 characters
    assert response.status_code == 431
    assert "9898 characters long; the limit is 8192" in response.text


def test_hostile_accept_is_not_a_500(client: httpx.Client) -> None:
    for value in [
        b"\xff\xfe",
        b"text/html;q=abc",
        b'text/html;x="open',
        b",,;;",
        b"a" * 8192,
    ]:
        response = client.get("/users/1", headers=[(b"Accept", value)])
        assert response.status_code in (200, 406), value


def test_head_has_the_headers_of_get_and_no_body(client: httpx.Client) -> None:
    response = client.head("/users/1", headers={"Accept": "text/csv"})
    assert response.status_code == 200
    assert response.headers["content-type"] == USER_TYPES[2]
    assert response.headers["vary"] == "Accept"
    assert response.content == b""


def test_404_for_an_unknown_user(client: httpx.Client) -> None:
    response = client.get("/users/999", headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert client.get("/nowhere").status_code == 404


def test_405_names_the_allowed_methods(client: httpx.Client) -> None:
    assert client.delete("/users/1").headers["allow"] == "GET, HEAD"
    assert client.get("/users").headers["allow"] == "POST"


@pytest.mark.parametrize(
    ("content_type", "content"),
    [
        (
            "application/json",
            json.dumps({"name": "Grace Hopper", "email": "g@example.org"}),
        ),
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
    response = client.post(
        "/users",
        content=content,
        headers={"Content-Type": content_type, "Accept": "application/json"},
    )
    assert response.status_code == 201, response.text
    assert response.headers["vary"] == "Accept"
    created = response.json()
    assert response.headers["location"] == f"/users/{created['id']}"
    again = client.get(
        response.headers["location"], headers={"Accept": "application/json"}
    )
    assert again.json() == created


@pytest.mark.parametrize(
    "content_type",
    ["text/csv", "application/xml", "json", "multipart/form-data; boundary=b", None],
)
def test_415_names_the_accepted_types(
    client: httpx.Client, content_type: str | None
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post("/users", content=b"name=x", headers=headers)
    assert response.status_code == 415
    assert response.headers["accept"] == BODY_TYPES
    assert response.text.splitlines()[1:] == BODY_TYPES.split(", ")


def test_400_for_content_that_does_not_parse(client: httpx.Client) -> None:
    for content_type, content in [
        ("application/json", "{not json"),
        ("application/json", '["a list"]'),
        ("application/json", '{"name": "no email"}'),
        ("application/x-www-form-urlencoded", "name"),
    ]:
        response = client.post(
            "/users", content=content, headers={"Content-Type": content_type}
        )
        assert response.status_code == 400, (content_type, content)


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
