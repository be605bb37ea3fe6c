"""An example service: users as JSON, HTML or CSV by the Accept header, on uvicorn.

    pip install ".[examples]"
    USERS_API_TOKEN=s3cret python examples/users_api.py --host 127.0.0.1 --port 8000
    curl -H 'Authorization: Bearer s3cret' -H 'Accept: text/csv' \\
        http://127.0.0.1:8000/users/1

``GET /users/{id}`` and ``POST /users`` need ``Authorization: Bearer <token>``
(the token is ``USERS_API_TOKEN``; 401 otherwise). Responses are negotiated by
fastaccept: the chosen type with ``Vary: Accept``, 406 listing the types, 431
for an Accept value over 8192 characters. ``POST /users`` takes JSON or a form
(``name`` and ``email``) and answers 201 with ``Location``; any other
``Content-Type`` gets 415 with an ``Accept`` header naming the two.
"""

from __future__ import annotations

import argparse
import csv
import hmac
import html
import io
import json
import os
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from fastaccept import Consumes, Decision, Produces, header_from_scope

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
User = dict[str, Any]

USER_TYPES = Produces(
    ["application/json", "text/html; charset=utf-8", "text/csv; charset=utf-8"]
)
NEW_USER_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])
MAX_BODY = 64 * 1024
TEXT = "text/plain; charset=utf-8"


class Refusal(Exception):
    """An error answer, as a fastaccept Decision: status, headers, plain-text body."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.body)
        self.decision = decision


def refused(status: int, message: str, **headers: str) -> Refusal:
    """A plain-text error answer, ``<status> <message>``, with extra headers."""
    items = (("Content-Type", TEXT), *headers.items())
    return Refusal(Decision(status, "", items, f"{status} {message}\n"))


def render(user: User, media_type: str) -> str:
    """The user in one of USER_TYPES."""
    if media_type == "application/json":
        return json.dumps(user)
    if media_type.startswith("text/html"):
        cells = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
            for k, v in user.items()
        )
        title = html.escape(user["name"])
        return (
            f"<!doctype html><html><head><title>{title}</title></head>"
            f"<body><table>{cells}</table></body></html>"
        )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(user.keys())
    writer.writerow(user.values())
    return out.getvalue()


def new_user_fields(body: bytes, media_type: str) -> dict[str, str]:
    """``name`` and ``email`` from a JSON object or a form; 400 otherwise."""
    try:
        if media_type == "application/json":
            data = json.loads(body)
        else:
            data = dict(parse_qsl(body.decode(), strict_parsing=True, max_num_fields=8))
    except (ValueError, UnicodeDecodeError) as error:
        raise refused(
            400, f"Bad Request: the content does not parse ({error})"
        ) from None
    if not isinstance(data, dict):
        raise refused(400, "Bad Request: expected an object with name and email")
    fields = {key: data.get(key) for key in ("name", "email")}
    for key, value in fields.items():
        if not isinstance(value, str) or not 0 < len(value) <= 200:
            raise refused(400, f"Bad Request: {key!r} must be a string of 1-200 chars")
    return fields  # type: ignore[return-value]  # checked just above


class UsersAPI:
    """The ASGI application: an in-memory user store behind a bearer token."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()
        self._users: dict[int, User] = {
            1: {"id": 1, "name": "Ada Lovelace", "email": "ada@example.org"},
            2: {"id": 2, "name": "Alan Turing", "email": "alan@example.org"},
        }

    def _authorize(self, scope: Scope) -> None:
        """RFC 6750 §2.1: ``Authorization: Bearer <token>``, scheme in any case."""
        scheme, _, credentials = (
            header_from_scope(scope, "authorization") or b""
        ).partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(
            credentials, self._token
        ):
            raise refused(
                401,
                "Unauthorized: send Authorization: Bearer <token>",
                **{"WWW-Authenticate": 'Bearer realm="users"'},
            )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        if scope["type"] != "http":
            return
        try:
            status, headers, body = await self._route(scope, receive)
        except Refusal as refusal:
            answer = refusal.decision
            status, headers, body = answer.status, answer.headers, answer.body
        content = body.encode()
        headers["Content-Length"] = str(len(content))
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": content})

    async def _route(
        self, scope: Scope, receive: Receive
    ) -> tuple[int, dict[str, str], str]:
        method, path = scope["method"], scope["path"]
        if path == "/users":
            if method != "POST":
                raise refused(405, "Method Not Allowed", Allow="POST")
            return await self._create(scope, receive)
        prefix, _, user_id = path.rpartition("/")
        if prefix == "/users" and user_id.isascii() and user_id.isdigit():
            if method not in ("GET", "HEAD"):
                raise refused(405, "Method Not Allowed", Allow="GET, HEAD")
            return self._read(scope, int(user_id))
        raise refused(404, "Not Found")

    def _representation(self, scope: Scope) -> Decision:
        decision = USER_TYPES.select(header_from_scope(scope))
        if not decision.ok:
            raise Refusal(decision)
        return decision

    def _read(self, scope: Scope, user_id: int) -> tuple[int, dict[str, str], str]:
        self._authorize(scope)
        decision = self._representation(scope)
        user = self._users.get(user_id)
        if user is None:
            raise refused(404, f"Not Found: no user {user_id}", Vary="Accept")
        return 200, decision.headers, render(user, decision.media_type)

    async def _create(
        self, scope: Scope, receive: Receive
    ) -> tuple[int, dict[str, str], str]:
        self._authorize(scope)
        content = NEW_USER_TYPES.check(header_from_scope(scope, "content-type"))
        if not content.ok:
            raise Refusal(content)
        decision = self._representation(scope)
        fields = new_user_fields(await read_body(receive), content.media_type)
        user_id = max(self._users, default=0) + 1
        user = self._users[user_id] = {"id": user_id, **fields}
        headers = {**decision.headers, "Location": f"/users/{user_id}"}
        return 201, headers, render(user, decision.media_type)

    @staticmethod
    async def _lifespan(receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


async def read_body(receive: Receive) -> bytes:
    """The request content, at most MAX_BODY bytes (413 beyond)."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise refused(413, f"Content Too Large: the limit is {MAX_BODY} bytes")
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    token = os.environ.get("USERS_API_TOKEN", "")
    if not token:
        print("users_api: set USERS_API_TOKEN to the bearer token", file=sys.stderr)
        return 2
    import uvicorn  # the [examples] extra

    uvicorn.run(UsersAPI(token), host=args.host, port=args.port, log_level="info")
    return 0


if __name__ == "__main__":
    sys.exit(main())
