"""fastaccept in a Django project, in one file: ``python django_app.py runserver``
(a real project spreads it over settings.py, urls.py and views.py)."""

from __future__ import annotations

import html
import json
import sys

from django.conf import settings
from django.core.management import execute_from_command_line
from django.core.wsgi import get_wsgi_application
from django.http import HttpRequest
from django.urls import path
from django.views.decorators.http import require_POST, require_safe

from fastaccept import Consumes, Renderers
from fastaccept.django import negotiated

settings.configure(
    ROOT_URLCONF=__name__,
    ALLOWED_HOSTS=["localhost", "127.0.0.1", "testserver"],
    # Greets in the visitor's language, adding Accept-Language to Vary.
    MIDDLEWARE=["django.middleware.locale.LocaleMiddleware"],
)

GREETING = Renderers(
    {
        "application/json": json.dumps,
        "text/html; charset=utf-8": lambda g: f"<p>{html.escape(g['greeting'])}</p>",
    }
)
CREATED = Renderers(
    {
        "application/json": json.dumps,
        "text/plain; charset=utf-8": lambda m: f"message {m['id']} created\n",
    }
)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


@require_safe  # GET and HEAD
@negotiated(GREETING)
def greeting(request: HttpRequest) -> dict[str, str]:
    return {"greeting": "bonjour" if request.LANGUAGE_CODE == "fr" else "hello"}


@require_POST
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
def post_message(request: HttpRequest) -> dict[str, int]:
    # ... store request.body; request.META["fastaccept.consumed"] has its type
    return {"id": 1}


urlpatterns = [path("greeting", greeting), path("messages", post_message)]
application = get_wsgi_application()  # for a WSGI server: django_app:application

if __name__ == "__main__":
    execute_from_command_line(sys.argv)
