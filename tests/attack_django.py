"""The Django application of tests/attack_apps.py (``fastaccept.django``): its
views, and this module as its URLconf.

Django's settings are the process's, configured once: tests/test_integrations.py
and tests/test_sockets.py load examples/frameworks/django_app.py, which calls
``settings.configure()`` itself. ``django_app()`` therefore works whichever
came first: where nothing is configured yet it configures Django's defaults
and, once the application is no longer served, leaves the settings
unconfigured again (so that the recipe's own ``configure()`` still works
after it); either way this application's settings (``SETTINGS``) are laid
over them only while it is served. Django routes by path alone: the views
take any method (``require_POST`` and the like are untyped, which mypy
refuses here; no test sends a method another framework would refuse).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.http import HttpRequest
from django.urls import path

from fastaccept.django import negotiated

from .attack_apps import DATA, ECHO, JSON_BODY, RENDERERS, echo, status

#: What this application is served with, over the settings already there.
SETTINGS: dict[str, Any] = {
    "ROOT_URLCONF": __name__,
    "ALLOWED_HOSTS": ["127.0.0.1"],
    "MIDDLEWARE": [],  # not the recipe's, should it have configured Django
}


@negotiated(RENDERERS)
def echo_view(request: HttpRequest) -> Any:
    return echo(request.GET.get("v", ""), request.GET.get("name", ECHO))


@negotiated(RENDERERS)
def status_view(request: HttpRequest, code: str) -> Any:
    return status(code)


@negotiated(RENDERERS, consumes=JSON_BODY)
def body_view(request: HttpRequest) -> Any:
    return DATA


urlpatterns = [
    path("echo", echo_view),
    path("status/<str:code>", status_view),
    path("empty/<str:code>", status_view),
    path("body", body_view),
]


@contextmanager
def django_app() -> Iterator[Any]:
    """A WSGI application serving ``urlpatterns`` with ``SETTINGS``, for the
    time of the ``with`` block."""
    import django
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.utils import override_settings
    from django.utils.functional import empty as unconfigured

    configured_here = not settings.configured
    if configured_here:
        settings.configure()
    try:
        with override_settings(**SETTINGS):
            django.setup(set_prefix=False)
            yield WSGIHandler()
    finally:
        if configured_here:  # as before: a later settings.configure() works
            settings._wrapped = unconfigured
