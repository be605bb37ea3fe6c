"""The Accept check of MCP's Streamable HTTP transport (docs/mcp.md).

A client POSTs each JSON-RPC message with ``Accept`` listing
``application/json`` and ``text/event-stream``, and the server answers a
request with one JSON object or an SSE stream; a GET opens a stream and
lists ``text/event-stream``. The check is a negotiation (RFC 9110 §12.5.1):
weights count (``application/json;q=0`` refuses JSON, §12.4.2), wildcards
reach both types, and a client that accepts only what the server sends is
served. ``select_post`` and ``select_get`` give ``"json"``, ``"sse"``, or
the refusal as a ``Decision`` whose body is a JSON-RPC error, as the MCP
SDKs send it: code -32600 (Invalid Request), ``id`` null.
"""

from __future__ import annotations

import json
from typing import Literal

from ._responses import Decision, Produces
from ._text import HeaderValue

__all__ = ["select_get", "select_post"]

JSON = "application/json"
SSE = "text/event-stream"
#: What each check offers, in the order a tie takes: JSON, one response.
_POST = Produces([JSON, SSE])
_POST_JSON_ONLY = Produces([JSON])
_GET = Produces([SSE])
#: The answers by offered media type.
_ANSWERS: dict[str, Literal["json", "sse"]] = {JSON: "json", SSE: "sse"}
#: JSON-RPC 2.0 §5.1: the request is not a valid one (here: for this transport).
INVALID_REQUEST = -32600


def _jsonrpc(refused: Decision, needs: str) -> Decision:
    """``refused`` (a 406 or 431) as a JSON-RPC error response body."""
    if refused.status == 406:
        message = f"Not Acceptable: the Accept header must allow {needs}"
    else:  # 431: the value over the limit is not read (docs/bad-input.md)
        message = f"{refused.reason}: the Accept header is over the limit"
    error = {"code": INVALID_REQUEST, "message": message}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error})
    headers = (("Content-Type", JSON), ("Vary", "Accept"))
    return Decision(refused.status, header_items=headers, body=body)


_NEEDS_POST = f"{JSON} or {SSE}"
_NEEDS_JSON = JSON
_NEEDS_GET = SSE
#: The 406s, made once.
_REFUSALS = {
    needs: _jsonrpc(Decision(406), needs)
    for needs in (_NEEDS_POST, _NEEDS_JSON, _NEEDS_GET)
}


def _checked(name: str, flag: object) -> None:
    if type(flag) is not bool:
        raise TypeError(f"{name} must be True or False, not {type(flag).__name__}")


def _select(
    produces: Produces, accept: HeaderValue, require_header: bool, needs: str
) -> Literal["json", "sse"] | Decision:
    _checked("require_header", require_header)
    if accept is None and require_header:
        return _REFUSALS[needs]
    decision = produces.select(accept)
    if decision.ok:
        return _ANSWERS[decision.media_type]
    return _REFUSALS[needs] if decision.status == 406 else _jsonrpc(decision, needs)


def select_post(
    accept: HeaderValue, *, json_only: bool, require_header: bool = True
) -> Literal["json", "sse"] | Decision:
    """How to answer a POST with this Accept value (None: absent).

    ``"json"`` or ``"sse"``: the type the client prefers of those the server
    sends (``json_only``: JSON alone), JSON at equal weights; else the
    refusal, a ``Decision`` (406, or 431 over 8,192 characters) to send as
    it is. An absent header is a 406 unless ``require_header`` is False,
    then it accepts anything (RFC 9110 §12.5.1). Nothing in ``accept``
    raises; a non-bool flag is a ``TypeError``.
    """
    _checked("json_only", json_only)
    if json_only:
        return _select(_POST_JSON_ONLY, accept, require_header, _NEEDS_JSON)
    return _select(_POST, accept, require_header, _NEEDS_POST)


def select_get(
    accept: HeaderValue, *, require_header: bool = True
) -> Literal["sse"] | Decision:
    """How to answer the GET that opens a stream: ``"sse"`` where Accept
    allows ``text/event-stream``, else the refusal, as for ``select_post``."""
    chosen = _select(_GET, accept, require_header, _NEEDS_GET)
    return chosen if isinstance(chosen, Decision) else "sse"  # the one offer
