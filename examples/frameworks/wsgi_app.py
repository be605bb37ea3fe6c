"""fastaccept in a plain WSGI application: ``waitress-serve wsgi_app:app``."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from fastaccept import AcceptError, Consumes, LanguageNegotiator, Renderers
from fastaccept.wsgi import negotiated

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

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


LANGUAGES = LanguageNegotiator(["en", "fr"])  # docs/rules.md rule 19


@negotiated(GREETING, vary="Accept-Language")  # the greeting's language too
def greeting(environ: WSGIEnvironment) -> dict[str, str]:
    try:  # fr-CA and FR reach fr; fr;q=0 refuses it
        french = LANGUAGES.choose(environ.get("HTTP_ACCEPT_LANGUAGE")) == "fr"
    except AcceptError:  # over max_length (rule 8): hello, as for none acceptable
        french = False
    return {"greeting": "bonjour" if french else "hello"}


@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
def post_message(environ: WSGIEnvironment) -> dict[str, int]:
    # ... store environ["wsgi.input"]; consumed(environ) has its type
    return {"id": 1}


ROUTES = {
    "/greeting": {"GET": greeting, "HEAD": greeting},
    "/messages": {"POST": post_message},
}


def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
    methods = ROUTES.get(environ.get("PATH_INFO", ""))
    head = environ["REQUEST_METHOD"] == "HEAD"  # no body (RFC 9110 §9.3.2)
    if methods is None:
        status, headers, body = "404 Not Found", [], b"404\n"
    elif environ["REQUEST_METHOD"] not in methods:  # RFC 9110 §15.5.6
        status, body = "405 Method Not Allowed", b"405\n"
        headers = [("Allow", ", ".join(methods))]
    else:
        return methods[environ["REQUEST_METHOD"]](environ, start_response)
    # GET's Content-Length on HEAD too: without one, waitress chunks the empty
    # HEAD body and sends its last chunk after the head.
    length = ("Content-Length", str(len(body)))
    start_response(status, [*headers, ("Content-Type", "text/plain"), length])
    return [] if head else [body]
