"""fastaccept in a Starlette application."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from fastaccept import Consumes, Produces, header_from_scope

GREETING = {
    "application/json": '{"greeting": "hello"}',
    "text/html; charset=utf-8": "<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


async def greeting(request: Request) -> Response:
    # request.headers["accept"] would see only the first Accept line: read the scope.
    decision = GREETING_TYPES.select(header_from_scope(request.scope))
    if not decision.ok:
        return Response(decision.body, decision.status, decision.headers)
    return Response(GREETING[decision.media_type], headers=decision.headers)


async def post_message(request: Request) -> Response:
    decision = MESSAGE_TYPES.check(header_from_scope(request.scope, "content-type"))
    if not decision.ok:
        return Response(decision.body, decision.status, decision.headers)
    # ... await request.body() and store it as decision.media_type ...
    return Response("created\n", 201, media_type="text/plain")


app = Starlette(
    routes=[
        Route("/greeting", greeting, methods=["GET"]),
        Route("/messages", post_message, methods=["POST"]),
    ]
)
