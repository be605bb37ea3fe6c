"""fastaccept in a plain WSGI application: serve ``app`` with any WSGI server."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fastaccept import Consumes, Produces, header_from_environ

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse

GREETING = {
    "application/json": b'{"greeting": "hello"}',
    "text/html; charset=utf-8": b"<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    route = (environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""))
    if route == ("GET", "/greeting"):
        decision = GREETING_TYPES.select(header_from_environ(environ))
        if decision.ok:
            start_response("200 OK", list(decision.header_items))
            return [GREETING[decision.media_type]]
    elif route == ("POST", "/messages"):
        decision = MESSAGE_TYPES.check(header_from_environ(environ, "content-type"))
        if decision.ok:
            # ... read environ["wsgi.input"] and store it as decision.media_type ...
            start_response("201 Created", [("Content-Type", "text/plain")])
            return [b"created\n"]
    else:
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found\n"]
    start_response(f"{decision.status} {decision.reason}", list(decision.header_items))
    return [decision.body.encode()]
