"""fastaccept in a Starlette application: ``uvicorn starlette_app:app``."""

from __future__ import annotations

import html
import json

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.routing import Route

from fastaccept import Consumes, Renderers
from fastaccept.starlette import consumed, negotiated

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


@negotiated(GREETING)
async def greeting(request: Request) -> dict[str, str]:
    return {"greeting": "hello"}


@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def post_message(request: Request) -> dict[str, int]:
    decision = consumed(request)  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            json.loads(await request.body())  # ... and store it
        except (ValueError, RecursionError):  # Starlette's 400, Vary: Accept too
            raise HTTPException(400, "the message is not JSON") from None
    return {"id": 1}


app = Starlette(
    routes=[
        Route("/greeting", greeting),  # GET and HEAD
        Route("/messages", post_message, methods=["POST"]),
    ],
    # CORS adds "Origin" to the Vary that already names Accept.
    middleware=[Middleware(CORSMiddleware, allow_origins=["https://example.org"])],
)
