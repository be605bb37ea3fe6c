"""examples/httpx_client.py: choosing what to send from a 415's Accept header."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import httpx
else:  # the test extra has it; a bare environment skips these tests
    httpx = pytest.importorskip("httpx")

from fastaccept import quality

from .conftest import load_example


@pytest.mark.parametrize(
    ("server_accept", "sent"),
    [
        # The server's Accept response header picks among the client's encodings.
        ("application/json", ["text/csv", "application/json"]),
        (
            "application/json, application/x-www-form-urlencoded;q=0.5",
            ["text/csv", "application/json"],
        ),
        ("application/*", ["text/csv", "application/x-www-form-urlencoded"]),
        # Nothing in common, or no Accept header: the 415 stands.
        ("application/xml", ["text/csv"]),
        (None, ["text/csv"]),
        ("text/csv;q=0", ["text/csv"]),
        # Over max_length (docs/rules.md rule 8): not read, the 415 stands.
        ("application/json, " + "x/y;q=0.1, " * 800, ["text/csv"]),
    ],
)
def test_client_chooses_from_the_415_accept_header(
    server_accept: str | None, sent: list[str]
) -> None:
    example = load_example("httpx_client.py")
    seen: list[str] = []

    def server(request: httpx.Request) -> httpx.Response:
        media_type = request.headers["content-type"]
        seen.append(media_type)
        weight = (
            quality(server_accept, media_type, max_length=None) if server_accept else 0
        )
        if weight > 0:
            return httpx.Response(201)
        headers = {"Accept": server_accept} if server_accept else {}
        return httpx.Response(415, headers=headers)

    with httpx.Client(
        transport=httpx.MockTransport(server), base_url="http://t"
    ) as client:
        response = example.create(client, "/users", {"name": "n", "email": "e"})
    assert seen == sent
    assert response.status_code == (201 if len(sent) == 2 else 415)
