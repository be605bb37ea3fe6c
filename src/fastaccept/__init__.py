"""fastaccept: parse HTTP ``Accept`` and negotiate content types, fast.

RFC 9110 §12.5.1 parsing and negotiation, the Fetch CORS-safelist rule, and a
builder for the ``Accept`` response header; ``Accept-Encoding`` and
``Accept-Language`` (RFC 9110 §12.5.3-4, RFC 4647) parsed and negotiated too.
A Cython engine does the work when it is built; a pure-Python twin gives
identical results otherwise. Set ``FASTACCEPT_NO_EXTENSIONS=1`` to force the
pure-Python engine.

Importing the package loads what a negotiation needs; the web answers
(``Produces``, ``Consumes``, ``Renderers``... and the header helpers) and
the Accept-Query helpers load with their first use, the integrations when
their module is imported.
"""

from __future__ import annotations

from ._cors import CorsReport, cors_unsafe_bytes
from ._defaults import BROWSER_DEFAULTS
from ._engine import (
    IMPLEMENTATION,
    EncodingNegotiator,
    LanguageNegotiator,
    Negotiator,
    is_cors_safelisted,
    negotiate,
    negotiate_encoding,
    negotiate_language,
    parse,
    parse_encoding,
    parse_language,
    quality,
)
from ._errors import AcceptError
from ._format import format_accept
from ._member import Offer, OfferSpec
from ._text import HeaderValue
from ._types import (
    Accept,
    AcceptEncoding,
    AcceptLanguage,
    Coding,
    LanguageRange,
    MediaRange,
    SkippedMember,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._accept_query import AcceptQuery, format_accept_query, parse_accept_query
    from ._headers import header_from_environ, header_from_scope, merge_vary
    from ._problems import problem
    from ._render import Answer, Rendered, Renderer, Renderers
    from ._responses import Consumes, Decision, Produces

#: The names loaded on first use, by module: the web answers, which need
#: dataclasses, json and http, and Accept-Query's, which few applications use.
_LATER = {
    "_accept_query": ("AcceptQuery", "format_accept_query", "parse_accept_query"),
    "_headers": ("header_from_environ", "header_from_scope", "merge_vary"),
    "_problems": ("problem",),
    "_render": ("Answer", "Rendered", "Renderer", "Renderers"),
    "_responses": ("Consumes", "Decision", "Produces"),
}
_LATER_MODULE = {name: module for module, names in _LATER.items() for name in names}

#: The next release's, in development (PEP 440): 0.1.0 is CHANGELOG.md's last.
__version__ = "0.2.0.dev0"

__all__ = [
    "BROWSER_DEFAULTS",
    "IMPLEMENTATION",
    "Accept",
    "AcceptEncoding",
    "AcceptError",
    "AcceptLanguage",
    "AcceptQuery",
    "Answer",
    "Coding",
    "Consumes",
    "CorsReport",
    "Decision",
    "EncodingNegotiator",
    "HeaderValue",
    "LanguageNegotiator",
    "LanguageRange",
    "MediaRange",
    "Negotiator",
    "Offer",
    "OfferSpec",
    "Produces",
    "Rendered",
    "Renderer",
    "Renderers",
    "SkippedMember",
    "cors_unsafe_bytes",
    "format_accept",
    "format_accept_query",
    "header_from_environ",
    "header_from_scope",
    "is_cors_safelisted",
    "merge_vary",
    "negotiate",
    "negotiate_encoding",
    "negotiate_language",
    "parse",
    "parse_accept_query",
    "parse_encoding",
    "parse_language",
    "problem",
    "quality",
]


if not TYPE_CHECKING:  # type checkers see the imports above, and no name as Any

    def __getattr__(name: str) -> Any:
        """A web-answer or Accept-Query name, imported on first use (PEP 562)."""
        module = _LATER_MODULE.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        # the builtin: importlib is not loaded at start, and need not be
        value = getattr(__import__(module, globals(), None, (name,), 1), name)
        globals()[name] = value  # the next look-up is a plain global
        return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(name for name in globals() if name.startswith("_"))})
