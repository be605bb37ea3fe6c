"""fastaccept in a Litestar application: ``uvicorn litestar_app:app``."""

from __future__ import annotations

import html
import json
from typing import Any

from litestar import Litestar, Request, post, route
from litestar.config.cors import CORSConfig
from litestar.exceptions import HTTPException

from fastaccept import Consumes, Renderers
from fastaccept.litestar import NegotiationPlugin, consumed, negotiated

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


@route("/greeting", http_method=["GET", "HEAD"])  # Litestar routes HEAD if listed
@negotiated(GREETING)
async def greeting() -> dict[str, str]:
    return {"greeting": "hello"}


@post("/messages")
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
async def post_message(request: Request[Any, Any, Any]) -> dict[str, int]:
    decision = consumed(request)  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            json.loads(await request.body())  # ... and store it
        except (ValueError, RecursionError):  # Litestar's 400, Vary: Accept too
            raise HTTPException("the message is not JSON", status_code=400) from None
    return {"id": 1}


app = Litestar(
    [greeting, post_message],
    # Checks before Litestar reads parameters, Vary: Accept on its errors too.
    plugins=[NegotiationPlugin()],
    # CORS sets Vary: Origin over the response's; the plugin merges Accept back.
    cors_config=CORSConfig(allow_origins=["https://example.org"]),
)
