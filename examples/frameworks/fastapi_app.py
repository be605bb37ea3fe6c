"""fastaccept in a FastAPI application: the negotiation as a dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response

from fastaccept import Consumes, Decision, Produces, header_from_scope

GREETING = {
    "application/json": '{"greeting": "hello"}',
    "text/html; charset=utf-8": "<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])

app = FastAPI()


class Refused(Exception):
    """A request fastaccept answered with 406, 415 or 431."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision


@app.exception_handler(Refused)
async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    decision = exc.decision
    return Response(decision.body, decision.status, decision.headers)


def greeting_type(request: Request) -> Decision:
    decision = GREETING_TYPES.select(header_from_scope(request.scope))
    if not decision.ok:
        raise Refused(decision)
    return decision


def message_type(request: Request) -> Decision:
    decision = MESSAGE_TYPES.check(header_from_scope(request.scope, "content-type"))
    if not decision.ok:
        raise Refused(decision)
    return decision


@app.get("/greeting")
def greeting(decision: Annotated[Decision, Depends(greeting_type)]) -> Response:
    return Response(GREETING[decision.media_type], headers=decision.headers)


@app.post("/messages", status_code=201)
def post_message(decision: Annotated[Decision, Depends(message_type)]) -> Response:
    # ... read the body and store it as decision.media_type ...
    return Response("created\n", 201, media_type="text/plain")
