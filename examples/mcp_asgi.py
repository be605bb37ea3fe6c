"""The Accept check in front of an MCP Streamable HTTP endpoint (docs/mcp.md):
``uvicorn --app-dir examples mcp_asgi:app --lifespan off``, then POST
JSON-RPC messages to ``/mcp``.

The JSON-RPC handling is a stand-in (every request gets an empty result; a
notification or a response, 202 Accepted with no body, as the transport
says); what the example shows is the answer's form: one JSON object, an SSE
stream, or the refusal ``fastaccept.mcp`` gives, sent as it is.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastaccept import Decision, header_from_scope
from fastaccept.mcp import select_get, select_post

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":  # no websocket here: refused, the server's 403
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 1008})
        return
    assert scope["type"] == "http"  # serve it under uvicorn with lifespan off
    accept = header_from_scope(scope, "accept")
    if scope["method"] == "POST":
        chosen = select_post(accept, json_only=False)
    elif scope["method"] == "GET":
        chosen = select_get(accept)
    else:
        await respond(send, 405, [("Allow", "GET, POST")], b"")
        return
    if isinstance(chosen, Decision):  # 406 (or 431) with a JSON-RPC error
        await respond(send, chosen.status, chosen.header_items, chosen.body.encode())
        return
    vary = ("Vary", "Accept")  # the answer's form depends on Accept
    if scope["method"] == "GET":  # the server's own stream: nothing to send here
        await respond(send, 200, [("Content-Type", "text/event-stream"), vary], b"")
        return
    try:
        message = json.loads(await read_body(receive))
    except (ValueError, RecursionError):  # no JSON it can read
        await refuse(send, -32700, "Parse error")
        return
    kind = message_kind(message)
    if kind is None:  # JSON, but not one message (a batch, say)
        await refuse(send, -32600, "Invalid Request")
        return
    if kind != "request":  # a notification or a response: taken, no answer
        await respond(send, 202, [vary], b"")
        return
    answer = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}})
    if chosen == "json":
        fields = [("Content-Type", "application/json"), vary]
        await respond(send, 200, fields, answer.encode())
    else:  # one event, then the stream ends (a real server may send more first)
        event = f"event: message\ndata: {answer}\n\n".encode()
        await respond(send, 200, [("Content-Type", "text/event-stream"), vary], event)


async def read_body(receive: Receive) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += bytes(message.get("body", b""))
        if not message.get("more_body"):
            return body


def message_kind(message: Any) -> str | None:
    """A JSON-RPC 2.0 message's kind, or None for none (-32600): a request
    has a method and an id, a str or an integer (MCP: never null); a
    notification a method and no id; a response an id and a result or an
    error, not both."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    answered = ("result" in message) + ("error" in message)
    if isinstance(message.get("method"), str) and not answered:
        if "id" not in message:
            return "notification"
        return "request" if type(message["id"]) in (str, int) else None
    if "method" not in message and "id" in message and answered == 1:
        return "response"
    return None


async def refuse(send: Send, code: int, message: str) -> None:
    error = {"code": code, "message": message}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    fields = [("Content-Type", "application/json"), ("Vary", "Accept")]
    await respond(send, 400, fields, body)


async def respond(send: Send, status: int, headers: Any, body: bytes) -> None:
    fields = [(name.encode(), value.encode()) for name, value in headers]
    fields.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": body})
