"""The Accept values real clients send, by context (Fetch, browsers, tools)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

_NAVIGATE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

#: Read-only: client context -> the Accept value it sends.
BROWSER_DEFAULTS: Final[Mapping[str, str]] = MappingProxyType(
    {
        # WHATWG Fetch, "fetch" step 12 (default Accept by request destination).
        "navigate": _NAVIGATE,
        "image": "image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5",
        "style": "text/css,*/*;q=0.1",
        "script": "*/*",
        "fetch": "*/*",
        "json": "application/json,*/*;q=0.5",
        # What current browsers send.
        "chrome-navigate": (
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
            "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
        ),
        "chrome-image": (
            "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        ),
        "firefox-navigate": _NAVIGATE,
        "firefox-image": (
            "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        ),
        "safari-navigate": _NAVIGATE,
        "safari-image": (
            "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,"
            "video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        ),
        # Command-line and API clients.
        "cli": "*/*",
        "curl": "*/*",
        "httpie": "application/json, */*;q=0.5",
        "python-requests": "*/*",
        "jdk-legacy": "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2",
    }
)
