"""fastaccept in a Flask application."""

from __future__ import annotations

from flask import Flask, Response, request

from fastaccept import Consumes, Produces

GREETING = {
    "application/json": '{"greeting": "hello"}',
    "text/html; charset=utf-8": "<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])

app = Flask(__name__)


@app.get("/greeting")
def greeting() -> Response:
    decision = GREETING_TYPES.select(request.headers.get("Accept"))
    if not decision.ok:
        return Response(decision.body, decision.status, decision.headers)
    return Response(GREETING[decision.media_type], headers=decision.headers)


@app.post("/messages")
def post_message() -> Response:
    decision = MESSAGE_TYPES.check(request.headers.get("Content-Type"))
    if not decision.ok:
        return Response(decision.body, decision.status, decision.headers)
    # ... read request.get_data() and store it as decision.media_type ...
    return Response("created\n", 201, mimetype="text/plain")
