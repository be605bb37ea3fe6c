"""fastaccept in a falcon application: ``waitress-serve falcon_app:app``."""

from __future__ import annotations

import html
import json

import falcon

from fastaccept import Consumes, Renderers
from fastaccept.falcon import consumed, negotiated

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


class Greeting:
    @negotiated(GREETING)
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> dict[str, str]:
        return {"greeting": "hello"}

    on_head = on_get


class Messages:
    @negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
    def on_post(self, req: falcon.Request, resp: falcon.Response) -> dict[str, int]:
        decision = consumed(req)  # its media_type: the accepted type it matched
        if decision is not None and decision.media_type == "application/json":
            try:
                json.loads(req.bounded_stream.read())  # ... and store it
            except (ValueError, RecursionError):  # falcon's 400, Vary: Accept too
                raise falcon.HTTPBadRequest(title="the message is not JSON") from None
        return {"id": 1}


class VaryOnOrigin:  # as a CORS middleware does
    def process_response(
        self,
        req: falcon.Request,
        resp: falcon.Response,
        resource: object,
        req_succeeded: bool,
    ) -> None:
        resp.append_header("Vary", "Origin")  # kept beside the Accept already there


app = falcon.App(middleware=[VaryOnOrigin()])
app.add_route("/greeting", Greeting())
app.add_route("/messages", Messages())
