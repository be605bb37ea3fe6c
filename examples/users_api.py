"""An example service: users as JSON, HTML or CSV by the Accept header, on uvicorn.

    pip install ".[examples]"
    USERS_API_TOKEN=s3cret python examples/users_api.py --host 127.0.0.1 --port 8000
    curl -H 'Authorization: Bearer s3cret' -H 'Accept: text/csv' \\
        http://127.0.0.1:8000/users/1

``GET /users/{id}`` and ``POST /users`` need ``Authorization: Bearer <token>``
(the token is ``USERS_API_TOKEN``; 401 otherwise, before anything else is
read). Both are ``fastaccept.asgi.negotiated`` endpoints over one
``Renderers``: the chosen type with ``Vary: Authorization, Accept``, 406
listing the types, 431 for an Accept value over 8192 characters, each refusal
as plain text or ``application/problem+json`` (docs/rules.md rule 16); HEAD is
answered like GET, without the body. ``POST /users`` takes JSON or a form
(``name`` and ``email``) and answers 201 with ``Location``; any other
``Content-Type`` gets 415 with an ``Accept`` header naming the two. An id of
more than 18 digits names no user (404, after the token is checked); content
that does not parse, JSON nested past Python's recursion limit included, or a
field that is not text (a lone surrogate, ``"\\ud800"``) gets 400. Every
answer of its own (a user, or a refusal that may quote the content) carries
``X-Content-Type-Options: nosniff``, and a CSV cell that a spreadsheet would
run as a formula is quoted with a leading ``'`` (OWASP, "CSV Injection").
"""

from __future__ import annotations

import argparse
import csv
import hmac
import html
import io
import json
import os
import re
import sys
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from fastaccept import Answer, Consumes, Renderers, header_from_scope, merge_vary
from fastaccept.asgi import CONSUMED, negotiated

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Coroutine[Any, Any, None]]
User = dict[str, Any]

MAX_BODY = 64 * 1024
#: Ids count up from 1: none has more digits (and ``int`` refuses over 4,300).
MAX_ID_DIGITS = 18
#: A UTF-16 surrogate alone: JSON's ``\ud800`` gives one, which no UTF-8 can encode.
SURROGATE = re.compile("[\ud800-\udfff]")
#: Past the 401, every answer depends on the token as well as on Accept.
VARY = "Authorization"
#: Answers that hold what a client sent are read as their type, never sniffed.
NOSNIFF = {"X-Content-Type-Options": "nosniff"}
#: What begins a formula in a spreadsheet cell (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def user_html(user: User) -> str:
    cells = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
        for k, v in user.items()
    )
    title = html.escape(user["name"])
    return (
        f"<!doctype html><html><head><title>{title}</title></head>"
        f"<body><table>{cells}</table></body></html>"
    )


def csv_cell(value: object) -> str:
    """``value`` as a cell no spreadsheet runs: ``'`` before a formula start."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def user_csv(user: User) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(map(csv_cell, user.keys()))
    writer.writerow(map(csv_cell, user.values()))
    return out.getvalue()


USER = Renderers(
    {
        "application/json": json.dumps,
        "text/html; charset=utf-8": user_html,
        "text/csv; charset=utf-8": user_csv,
    }
)
NEW_USER_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


class Refusal(Exception):
    """An answer of the service's own (400, 401, 404, 405, 413), in plain text."""

    def __init__(self, status: int, message: str, **headers: str) -> None:
        super().__init__(message)
        self.status, self.headers = status, headers
        self.body = f"{status} {message}\n".encode()

    async def answer(self, scope: Scope, send: Send, vary: str | None = None) -> None:
        """Send it; ``vary``: what it depends on (merged into its own Vary)."""
        headers = {
            "Content-Type": "text/plain; charset=utf-8",
            **NOSNIFF,
            **self.headers,
        }
        if vary:
            headers["Vary"] = merge_vary(headers.get("Vary"), vary)
        headers["Content-Length"] = str(len(self.body))
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        start = {"type": "http.response.start", "status": self.status}
        await send({**start, "headers": raw})
        body = b"" if scope["method"] == "HEAD" else self.body  # RFC 9110 §9.3.2
        await send({"type": "http.response.body", "body": body})


def new_user_fields(body: bytes, media_type: str) -> dict[str, str]:
    """``name`` and ``email`` from a JSON object or a form; 400 otherwise."""
    try:
        if media_type == "application/json":
            data = json.loads(body)  # RecursionError when nested too deep
        else:
            pairs = parse_qsl(
                body.decode(), strict_parsing=True, max_num_fields=8, errors="strict"
            )  # "%FF" undecodable, as a raw 0xFF is
            data = dict(pairs)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise Refusal(
            400, f"Bad Request: the content does not parse ({error})"
        ) from None
    if not isinstance(data, dict):
        raise Refusal(400, "Bad Request: expected an object with name and email")
    fields = {key: data.get(key) for key in ("name", "email")}
    for key, value in fields.items():
        if not isinstance(value, str) or not 0 < len(value) <= 200:
            raise Refusal(400, f"Bad Request: {key!r} must be a string of 1-200 chars")
        if SURROGATE.search(value):
            raise Refusal(400, f"Bad Request: {key!r} holds a lone surrogate")
    return fields  # type: ignore[return-value]  # checked just above


async def read_body(receive: Receive) -> bytes:
    """The request content, at most MAX_BODY bytes (413 beyond)."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise Refusal(413, f"Content Too Large: the limit is {MAX_BODY} bytes")
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


class UsersAPI:
    """The ASGI application: an in-memory user store behind a bearer token.

    Routing by the path's shape (404, 405) comes first, then the token (401),
    then the negotiated endpoint: its checks (415, 406, 431), then its handler
    (404 for an unknown user, 400, 413), whose answers vary on Accept and
    Authorization. The handler reads the id's value.
    """

    def __init__(self, token: str) -> None:
        self._token = token.encode()
        self._users: dict[int, User] = {
            1: {"id": 1, "name": "Ada Lovelace", "email": "ada@example.org"},
            2: {"id": 2, "name": "Alan Turing", "email": "alan@example.org"},
        }
        self._read = negotiated(USER, vary=VARY)(self._get)
        self._create = negotiated(USER, consumes=NEW_USER_TYPES, status=201, vary=VARY)(
            self._post
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            return await lifespan(receive, send)
        if scope["type"] != "http":
            return
        try:
            endpoint = self._route(scope)
            self._authorize(scope)
        except Refusal as refusal:
            return await refusal.answer(scope, send)
        try:
            await endpoint(scope, receive, send)
        except Refusal as refusal:  # the handler's: negotiation came first
            await refusal.answer(scope, send, vary=merge_vary(VARY, "Accept"))

    def _route(self, scope: Scope) -> App:
        method, path = scope["method"], scope["path"]
        if path == "/users":
            if method != "POST":
                raise Refusal(405, "Method Not Allowed", Allow="POST")
            return self._create
        prefix, _, user_id = path.rpartition("/")
        if prefix == "/users" and user_id.isascii() and user_id.isdigit():
            if method not in ("GET", "HEAD"):
                raise Refusal(405, "Method Not Allowed", Allow="GET, HEAD")
            scope["path_params"] = {"id": user_id}  # digits: read after the 401
            return self._read
        raise Refusal(404, "Not Found")

    def _authorize(self, scope: Scope) -> None:
        """RFC 6750 §2.1: ``Authorization: Bearer <token>``, scheme in any case."""
        scheme, _, credentials = (
            header_from_scope(scope, "authorization") or b""
        ).partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(
            credentials, self._token
        ):
            raise Refusal(
                401,
                "Unauthorized: send Authorization: Bearer <token>",
                **{"WWW-Authenticate": 'Bearer realm="users"', "Vary": VARY},
            )

    async def _get(self, scope: Scope, receive: Receive) -> Answer:
        digits = scope["path_params"]["id"].lstrip("0") or "0"
        user = self._users.get(int(digits)) if len(digits) <= MAX_ID_DIGITS else None
        if user is None:
            raise Refusal(404, "Not Found: no such user")
        return Answer(user, headers=NOSNIFF)

    async def _post(self, scope: Scope, receive: Receive) -> Answer:
        fields = new_user_fields(await read_body(receive), scope[CONSUMED].media_type)
        user_id = max(self._users, default=0) + 1
        user = self._users[user_id] = {"id": user_id, **fields}
        return Answer(user, headers={"Location": f"/users/{user_id}", **NOSNIFF})


async def lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
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
