"""A FastAPI app of negotiated routes, for tests/test_framework_modules.py.

Its annotations are strings (``from __future__ import annotations``) resolved
in this module's globals: FastAPI must still see ``Depends``, ``Request`` and
the path parameter through ``negotiated``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import RedirectResponse

from fastaccept import Consumes, Renderers
from fastaccept.fastapi import CONSUMED, NegotiatedRoute, consumed, negotiated, produced

GREETING = Renderers(
    {
        "application/json": lambda data: json.dumps(data),
        "text/html; charset=utf-8": lambda data: f"<p>{data['greeting']}</p>",
    }
)
PAGES = Renderers({"text/html; charset=utf-8": str, "text/csv": str})
CREATED = Renderers({"application/json": lambda data: json.dumps(data)})

app = FastAPI()
app.router.route_class = NegotiatedRoute


def shout(loud: bool = False) -> str:
    return "HELLO" if loud else "hello"


@app.get("/greeting/{name}")
@negotiated(GREETING, vary="Cookie")
async def greeting(
    name: str, word: Annotated[str, Depends(shout)], request: Request
) -> Any:
    if name == "old":
        return RedirectResponse("/greeting/new")
    assert request.url.path == f"/greeting/{name}"
    return {"greeting": f"{word} {name}"}


@app.post("/messages")
@negotiated(CREATED, consumes=Consumes(["application/json"]), status=201)
def messages(body: dict[str, int], request: Request) -> dict[str, Any]:
    decision, chosen = consumed(request), produced(request)  # typed
    assert decision is request.scope[CONSUMED] and chosen is not None
    return {"type": decision.media_type, "produced": chosen.media_type, **body}


@app.get("/pages", responses={404: {"description": "No such page"}})
@negotiated(PAGES)
def pages() -> str:
    return "a,b"


@app.put("/uploads/{name}")
@negotiated(CREATED, consumes=Consumes(["image/png", "image/jpeg"]))
async def upload(name: str, request: Request) -> dict[str, Any]:
    return {"name": name, "bytes": len(await request.body())}
