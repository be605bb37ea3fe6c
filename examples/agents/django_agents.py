"""Markdown for agents in a Django project, in one file:
``python django_agents.py runserver`` (a real project spreads it over
settings.py, urls.py and views.py)."""

from __future__ import annotations

import sys
from html import escape

from django.conf import settings
from django.core.management import execute_from_command_line
from django.core.wsgi import get_wsgi_application
from django.http import Http404, HttpRequest
from django.urls import path
from django.views.decorators.http import require_safe

from fastaccept.agents import markdown_for_agents
from fastaccept.django import negotiated

settings.configure(
    ROOT_URLCONF=__name__, ALLOWED_HOSTS=["localhost", "127.0.0.1", "testserver"]
)

PAGES = {"welcome": {"title": "Welcome", "text": "Agents may read this as Markdown."}}
PAGE = markdown_for_agents(
    html=lambda p: f"<h1>{escape(p['title'])}</h1>\n<p>{escape(p['text'])}</p>\n",
    markdown=lambda p: f"# {p['title']}\n\n{p['text']}\n",
)


@negotiated(PAGE)
def page(request: HttpRequest, name: str) -> dict[str, str]:
    if name not in PAGES:
        raise Http404("no such page")  # Django's 404, Vary: Accept too
    return PAGES[name]


urlpatterns = [path("pages/<str:name>", require_safe(page))]  # GET and HEAD only
application = get_wsgi_application()  # for a WSGI server: django_agents:application

if __name__ == "__main__":
    execute_from_command_line(sys.argv)
