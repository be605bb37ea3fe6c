"""fastaccept in a FastAPI application: ``uvicorn fastapi_app:app``; /docs lists
each route's media types and its refusals (406, 415, 431)."""

from __future__ import annotations

import html
import json

from fastapi import FastAPI, HTTPException, Request
from fastapi.middleware.cors import CORSMiddleware
from pydantic import BaseModel

from fastaccept import Consumes, Renderers
from fastaccept.fastapi import NegotiatedRoute, consumed, negotiated


class Greeting(BaseModel):
    greeting: str


class Created(BaseModel):
    id: int


GREETING = Renderers(
    {
        "application/json": Greeting.model_dump_json,
        "text/html; charset=utf-8": lambda g: f"<p>{html.escape(g.greeting)}</p>",
    },
    formats=True,  # ?format=json or ?format=html wins over Accept
)
CREATED = Renderers(
    {
        "application/json": Created.model_dump_json,
        "text/plain; charset=utf-8": lambda m: f"message {m.id} created\n",
    }
)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])

app = FastAPI()
app.router.route_class = NegotiatedRoute  # documents the routes, answers HEAD
# CORS adds "Origin" to the Vary that already names Accept.
app.add_middleware(CORSMiddleware, allow_origins=["https://example.org"])


@app.get("/greeting")
@negotiated(GREETING)
def greeting() -> Greeting:
    return Greeting(greeting="hello")


@app.post("/messages")
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def post_message(request: Request) -> Created:
    decision = consumed(request)  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            json.loads(await request.body())  # ... and store it
        except (ValueError, RecursionError):  # FastAPI's 400, Vary: Accept too
            raise HTTPException(400, "the message is not JSON") from None
    return Created(id=1)
