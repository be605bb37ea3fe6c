"""fastaccept in an aiohttp application, on aiohttp's own server:
``python -m aiohttp.web aiohttp_app:make_app``."""

from __future__ import annotations

import html
import json

from aiohttp import web

from fastaccept import Consumes, Renderers, merge_vary
from fastaccept.aiohttp import CONSUMED, negotiated

GREETING = Renderers(
    {
        "application/json": json.dumps,
        "text/html; charset=utf-8": lambda g: f"<p>{html.escape(g['greeting'])}</p>",
    },
    formats=True,  # ?format=json or ?format=html wins over Accept
)
CREATED = Renderers(
    {
        "application/json": json.dumps,
        "text/plain; charset=utf-8": lambda m: f"message {m['id']} created\n",
    }
)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])

routes = web.RouteTableDef()


@routes.get("/greeting")  # GET and HEAD
@negotiated(GREETING)
async def greeting(request: web.Request) -> dict[str, str]:
    return {"greeting": "hello"}


@routes.post("/messages")
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def post_message(request: web.Request) -> dict[str, int]:
    decision = request[CONSUMED]  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            await request.json()  # ... and store it
        except (ValueError, LookupError, RecursionError):  # aiohttp's 400, Vary too
            raise web.HTTPBadRequest(text="the message is not JSON") from None
    return {"id": 1}


async def vary_on_origin(request: web.Request, response: web.StreamResponse) -> None:
    # As a CORS library does, on every response (raised errors too): kept
    # beside the Accept already there.
    response.headers["Vary"] = merge_vary(response.headers.get("Vary"), "Origin")


def make_app(argv: list[str] | None = None) -> web.Application:
    """The application (a new one each call: aiohttp binds it to its loop)."""
    # aiohttp answers a value over about 8190 bytes with its own 400: with
    # room for 16 KiB, an Accept over 8192 characters gets fastaccept's 431.
    app = web.Application(handler_args={"max_field_size": 16384})
    app.add_routes(routes)
    app.on_response_prepare.append(vary_on_origin)
    return app
