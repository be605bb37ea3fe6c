"""fastaccept in a Flask application: ``flask --app flask_app run``."""

from __future__ import annotations

import html
import json

from flask import Flask, Response, abort, request

from fastaccept import Consumes, Renderers
from fastaccept.flask import consumed, negotiated

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

app = Flask(__name__)


@app.get("/greeting")  # GET and HEAD
@negotiated(GREETING)
def greeting() -> dict[str, str]:
    return {"greeting": "hello"}


@app.post("/messages")
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
def post_message() -> dict[str, int]:
    decision = consumed()  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            request.get_json()  # ... and store it; not JSON: Flask's 400, Vary too
        except RecursionError:  # nested deeper than json reads: a 400 as well
            abort(400)
    return {"id": 1}


@app.after_request
def vary_on_origin(response: Response) -> Response:  # as a CORS extension does
    response.vary.add("Origin")  # kept beside the Accept already there
    return response
