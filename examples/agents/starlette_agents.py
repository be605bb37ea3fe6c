"""Markdown for agents in a Starlette application: ``uvicorn starlette_agents:app``."""

from __future__ import annotations

from html import escape

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route

from fastaccept.agents import markdown_for_agents
from fastaccept.starlette import negotiated

PAGES = {"welcome": {"title": "Welcome", "text": "Agents may read this as Markdown."}}
PAGE = markdown_for_agents(
    html=lambda p: f"<h1>{escape(p['title'])}</h1>\n<p>{escape(p['text'])}</p>\n",
    markdown=lambda p: f"# {p['title']}\n\n{p['text']}\n",
)


@negotiated(PAGE)
async def page(request: Request) -> dict[str, str]:
    name = request.path_params["name"]
    if name not in PAGES:
        raise HTTPException(404)  # Starlette's 404, Vary: Accept too
    return PAGES[name]


app = Starlette(routes=[Route("/pages/{name}", page)])  # GET and HEAD only
