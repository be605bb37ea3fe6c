"""The Accept check of MCP's Streamable HTTP transport (docs/mcp.md): a
negotiation (RFC 9110 §12.5.1) between ``application/json`` and
``text/event-stream``, its refusals JSON-RPC errors as the official
python-sdk sends them.
"""

from __future__ import annotations

import json
from typing import Literal, NamedTuple, overload

from ._engine import Negotiator
from ._errors import AcceptError
from ._limits import DEFAULT_MAX_LENGTH, checked_flag
from ._responses import _VARY, Decision, reason_phrase
from ._text import HeaderValue

__all__ = ["select_get", "select_post"]

JSON = "application/json"
#: The stream as offered: an event stream is UTF-8, the one ``charset`` its
#: registration allows (HTML Living Standard, "text/event-stream"), so
#: ``text/event-stream;charset=utf-8`` reaches it as ``text/event-stream``
#: does (docs/rules.md rule 9); another charset does not.
EVENT_STREAM = "text/event-stream;charset=utf-8"
#: JSON-RPC 2.0 §5.1: the request is not a valid one (here: for this
#: transport); the python-sdk's code for its 406.
INVALID_REQUEST = -32600

#: How to answer a POST: one JSON response, or an event stream.
ReplyKind = Literal["json", "sse"]


class _Check(NamedTuple):
    """One check: the offers, the answer for each, and the refusals."""

    negotiator: Negotiator
    answers: tuple[ReplyKind, ...]
    not_acceptable: Decision
    too_large: Decision


def _jsonrpc(status: int, message: str) -> Decision:
    """A refusal whose body is a JSON-RPC error response (``id`` null)."""
    error = {"code": INVALID_REQUEST, "message": f"{reason_phrase(status)}: {message}"}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error})
    headers = (("Content-Type", JSON), _VARY)
    return Decision(status, header_items=headers, body=body)


def _check(answers: dict[str, ReplyKind], needs: str) -> _Check:
    return _Check(
        Negotiator(list(answers)),
        tuple(answers.values()),
        _jsonrpc(406, f"the Accept header must allow {needs}"),
        # RFC 6585 §5; the value is not read (docs/bad-input.md)
        _jsonrpc(431, f"the Accept header is over {DEFAULT_MAX_LENGTH} characters"),
    )


#: In the order a tie between equally specific ranges takes (docs/rules.md
#: rule 11): JSON first, one response and nothing held open.
_POST = _check({JSON: "json", EVENT_STREAM: "sse"}, f"{JSON} or text/event-stream")
_POST_JSON_ONLY = _check({JSON: "json"}, JSON)
_GET = _check({EVENT_STREAM: "sse"}, "text/event-stream")


def _select(
    check: _Check, accept: HeaderValue, require_header: bool
) -> ReplyKind | Decision:
    checked_flag(require_header, "require_header")
    if accept is None and require_header:
        return check.not_acceptable
    try:
        index = check.negotiator.choose_index(accept)
    except AcceptError:  # the one error a lenient reading raises: over the limit
        return check.too_large
    return check.answers[index] if index >= 0 else check.not_acceptable


@overload
def select_post(
    accept: HeaderValue, *, json_only: Literal[True], require_header: bool = True
) -> Literal["json"] | Decision: ...
@overload
def select_post(
    accept: HeaderValue, *, json_only: bool, require_header: bool = True
) -> ReplyKind | Decision: ...
def select_post(
    accept: HeaderValue, *, json_only: bool, require_header: bool = True
) -> ReplyKind | Decision:
    """How to answer a POST with this Accept value (None: absent).

    ``"json"`` or ``"sse"``: of the types the server sends (``json_only``:
    JSON alone), the one the client prefers; at equal weights, the one its
    more specific range names, then JSON (docs/rules.md rule 11). Else the
    refusal, a ``Decision`` to send as it is: 406, or 431 over 8,192
    characters. An absent header is a 406 unless ``require_header`` is
    False, then it accepts anything (RFC 9110 §12.4.1). Nothing a client
    sends raises (docs/bad-input.md); an ``accept`` that is not a str,
    bytes, bytearray, memoryview or None, or a flag that is not a bool, is
    a ``TypeError``.
    """
    checked_flag(json_only, "json_only")
    return _select(_POST_JSON_ONLY if json_only else _POST, accept, require_header)


def select_get(
    accept: HeaderValue, *, require_header: bool = True
) -> Literal["sse"] | Decision:
    """How to answer the GET that opens a stream: ``"sse"`` where Accept
    allows ``text/event-stream``, else the refusal, as for ``select_post``.
    For a POST with something to send before its response, it says whether
    the client accepts the stream at all (docs/mcp.md, "Ties")."""
    chosen = _select(_GET, accept, require_header)
    return chosen if isinstance(chosen, Decision) else "sse"  # the one offer
