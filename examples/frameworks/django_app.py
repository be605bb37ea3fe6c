"""fastaccept in a Django project (one file here; the views go in views.py)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from fastaccept import Consumes, Decision, Produces

if not settings.configured:  # a one-file project; a real one has settings.py
    settings.configure(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"])

GREETING = {
    "application/json": '{"greeting": "hello"}',
    "text/html; charset=utf-8": "<p>hello</p>",
}
GREETING_TYPES = Produces(GREETING)
MESSAGE_TYPES = Consumes(["application/json", "application/x-www-form-urlencoded"])


def refusal(decision: Decision) -> HttpResponse:
    return HttpResponse(decision.body, status=decision.status, headers=decision.headers)


@require_GET
def greeting(request: HttpRequest) -> HttpResponse:
    decision = GREETING_TYPES.select(request.META.get("HTTP_ACCEPT"))
    if not decision.ok:
        return refusal(decision)
    return HttpResponse(GREETING[decision.media_type], headers=decision.headers)


@require_POST
def post_message(request: HttpRequest) -> HttpResponse:
    decision = MESSAGE_TYPES.check(request.META.get("CONTENT_TYPE"))
    if not decision.ok:
        return refusal(decision)
    # ... read request.body and store it as decision.media_type ...
    return HttpResponse("created\n", status=201, content_type="text/plain")


urlpatterns = [path("greeting", greeting), path("messages", post_message)]
