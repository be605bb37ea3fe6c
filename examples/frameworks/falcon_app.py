"""fastaccept in a falcon (WSGI) application."""

from __future__ import annotations

import falcon

from fastaccept import Consumes, Decision, Produces

GREETING = {
    "application/json": '{"greeting": "hello"}',
    "text/html; charset=utf-8": "<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


def refuse(resp: falcon.Response, decision: Decision) -> None:
    resp.status = decision.status
    resp.set_headers(decision.headers)
    resp.text = decision.body


class GreetingResource:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        # req.get_header, not req.accept: that one turns a missing header into */*.
        decision = GREETING_TYPES.select(req.get_header("Accept"))
        if not decision.ok:
            return refuse(resp, decision)
        resp.set_headers(decision.headers)
        resp.text = GREETING[decision.media_type]


class MessagesResource:
    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        decision = MESSAGE_TYPES.check(req.get_header("Content-Type"))
        if not decision.ok:
            return refuse(resp, decision)
        # ... read req.bounded_stream and store it as decision.media_type ...
        resp.status = falcon.HTTP_201
        resp.content_type = falcon.MEDIA_TEXT
        resp.text = "created\n"


app = falcon.App()
app.add_route("/greeting", GreetingResource())
app.add_route("/messages", MessagesResource())
