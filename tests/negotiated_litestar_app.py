"""A Litestar app of negotiated route handlers, for tests/test_framework_modules.py.

Its annotations are strings (``from __future__ import annotations``) resolved
in this module's globals: Litestar must still see the path and query
parameters, ``data``, the dependency and ``Request`` through ``negotiated``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from litestar import Litestar, Request, get, post, route
from litestar.di import Provide
from litestar.exceptions import NotFoundException
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Redirect

from fastaccept import Answer, Consumes, Renderers
from fastaccept.litestar import NegotiationPlugin, consumed, negotiated, produced

GREETING = Renderers(
    {
        "application/json": lambda data: json.dumps(data),
        "text/html; charset=utf-8": lambda data: f"<p>{data['greeting']}</p>",
    }
)
CREATED = Renderers({"application/json": lambda data: json.dumps(data)})
#: The request types ``/messages`` takes, counting its checks.
CHECKS: Counter[str] = Counter()


class CountedConsumes(Consumes):
    __slots__ = ()

    def check(self, *args: Any, **kwargs: Any) -> Any:
        CHECKS["consumes"] += 1
        return super().check(*args, **kwargs)


def shout(loud: bool = False) -> str:
    return "HELLO" if loud else "hello"


@route(
    "/greeting/{name:str}",
    http_method=["GET", "HEAD"],
    dependencies={"word": Provide(shout, sync_to_thread=False)},
)
@negotiated(GREETING, vary="Cookie")
async def greeting(name: str, word: str, request: Request[Any, Any, Any]) -> Any:
    if name == "old":
        return Redirect("/greeting/new")
    if name == "gone":
        raise NotFoundException("no such user")
    assert request.url.path == f"/greeting/{name}"
    return {"greeting": f"{word} {name}"}


@post("/messages", sync_to_thread=True)  # Litestar wraps it: still found
@negotiated(CREATED, consumes=CountedConsumes(["application/json"]), status=201)
def messages(data: dict[str, int], request: Request[Any, Any, Any]) -> Answer:
    taken, chosen = consumed(request), produced(request)
    assert taken is not None and chosen is not None
    body = {"type": taken.media_type, "produced": chosen.media_type, **data}
    return Answer(body, headers={"Location": "/messages/1"})


@get(
    "/users/{name:str}",
    sync_to_thread=False,
    responses={406: ResponseSpec(None, description="No such representation")},
)
@negotiated(GREETING, problems=True)
def user(name: str, page: int = 1) -> dict[str, str]:
    raise NotFoundException(f"no user {name}", headers={"X-Why": "gone"})


@get("/plain", sync_to_thread=False)
def plain() -> str:
    return "not negotiated"


app = Litestar(
    [greeting, messages, user, plain], plugins=[NegotiationPlugin()], debug=False
)
