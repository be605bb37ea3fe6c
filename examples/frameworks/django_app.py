"""fastaccept in a Django project, in one file: ``python django_app.py runserver``
(a real project spreads it over settings.py, urls.py and views.py)."""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.core.management import execute_from_command_line
from django.core.wsgi import get_wsgi_application
from django.http import HttpRequest, HttpResponseBase
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST, require_safe

from fastaccept import AcceptError, Consumes, LanguageNegotiator, Renderers
from fastaccept.django import consumed, negotiated

settings.configure(
    ROOT_URLCONF=__name__,
    ALLOWED_HOSTS=["localhost", "127.0.0.1", "testserver"],
    USE_I18N=True,
    LANGUAGE_CODE="en",  # the fallback when no language is acceptable
    LANGUAGES=[("en", "English"), ("fr", "French"), ("de", "German")],
    # Greets in the visitor's language, adding Accept-Language to Vary.
    MIDDLEWARE=[f"{__name__}.AcceptLanguageMiddleware"],
)


class AcceptLanguageMiddleware:
    """Django's ``LocaleMiddleware`` (without URL prefixes) choosing by
    docs/rules.md rule 19 (RFC 9110 §12.5.4, RFC 4647) among ``settings.LANGUAGES``.

    The language cookie (``set_language``) comes first, then Accept-Language,
    then ``LANGUAGE_CODE``: when no language is acceptable, and when the header
    is unusable (no valid member; over ``max_length``, 8,192 characters, which
    the negotiator refuses before reading it, docs/rules.md rule 8). Where
    Django credits ``en`` with ``en-US``'s weight (``en-US, en;q=0.5, de;q=0.8``
    gives ``en``), this gives ``de``, the client's own rating of ``en``
    deciding; ``fr;q=0`` refuses French even under ``*``.
    The language is activated as ``LocaleMiddleware`` does (for the view, its
    ``gettext`` and a streamed body); ``request.LANGUAGE_CODE`` names it. The
    response varies on both inputs (``Vary: Accept-Language, Cookie``) and a
    2xx one gets a ``Content-Language`` unless the view set one.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response
        self.codes = [code for code, _name in settings.LANGUAGES]
        self.negotiator = LanguageNegotiator(self.codes)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        if language not in self.codes:
            language = self.language(request.headers.get("Accept-Language"))
        translation.activate(language)  # until the next request, streaming included
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ["Accept-Language", "Cookie"])
        if 200 <= response.status_code < 300:
            response.headers.setdefault("Content-Language", language)
        return response

    def language(self, accepted: str | None) -> str:
        """The language for an Accept-Language value (None: absent);
        ``LANGUAGE_CODE`` when none is acceptable or the value is unusable."""
        default: str = settings.LANGUAGE_CODE
        try:
            return self.negotiator.choose(accepted, default)
        except AcceptError:  # over max_length: docs/rules.md 8, 19; RFC 9110 §12.5.4
            return default


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
GREETINGS = {"en": "hello", "fr": "bonjour", "de": "hallo"}
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


@require_safe  # GET and HEAD
@negotiated(GREETING)
def greeting(request: HttpRequest) -> dict[str, str]:
    return {"greeting": GREETINGS[request.LANGUAGE_CODE]}


@require_POST
@negotiated(CREATED, consumes=MESSAGE_TYPES, status=201)
def post_message(request: HttpRequest) -> dict[str, int]:
    decision = consumed(request)  # its media_type: the accepted type it matched
    if decision is not None and decision.media_type == "application/json":
        try:
            json.loads(request.body)  # ... and store it
        except (ValueError, RecursionError):  # Django's 400, Vary: Accept too
            raise BadRequest("the message is not JSON") from None
    return {"id": 1}


urlpatterns = [path("greeting", greeting), path("messages", post_message)]
application = get_wsgi_application()  # for a WSGI server: django_app:application

if __name__ == "__main__":
    execute_from_command_line(sys.argv)
