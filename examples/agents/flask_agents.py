"""Markdown for agents in a Flask application: ``flask --app flask_agents run``."""

from __future__ import annotations

from html import escape

from flask import Flask, abort

from fastaccept.agents import markdown_for_agents
from fastaccept.flask import negotiated

PAGES = {"welcome": {"title": "Welcome", "text": "Agents may read this as Markdown."}}
PAGE = markdown_for_agents(
    html=lambda p: f"<h1>{escape(p['title'])}</h1>\n<p>{escape(p['text'])}</p>\n",
    markdown=lambda p: f"# {p['title']}\n\n{p['text']}\n",
)

app = Flask(__name__)


@app.get("/pages/<name>")  # GET and HEAD only
@negotiated(PAGE)
def page(name: str) -> dict[str, str]:
    if name not in PAGES:
        abort(404)  # Flask's 404, Vary: Accept too
    return PAGES[name]
