"""fastaccept: parse HTTP ``Accept`` and negotiate content types, fast.

RFC 9110 §12.5.1 parsing and negotiation, the Fetch CORS-safelist rule, and a
builder for the ``Accept`` response header; ``Accept-Encoding`` and
``Accept-Language`` (RFC 9110 §12.5.3-4, RFC 4647) parsed and negotiated too.
A Cython engine does the work when it is built; a pure-Python twin gives
identical results otherwise. Set ``FASTACCEPT_NO_EXTENSIONS=1`` to force the
pure-Python engine.
"""

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
from ._headers import header_from_environ, header_from_scope, merge_vary
from ._render import Answer, Rendered, Renderers
from ._responses import Consumes, Decision, Produces
from ._types import (
    Accept,
    AcceptEncoding,
    AcceptLanguage,
    Coding,
    LanguageRange,
    MediaRange,
    SkippedMember,
)

__version__ = "0.1.0"

__all__ = [
    "BROWSER_DEFAULTS",
    "IMPLEMENTATION",
    "Accept",
    "AcceptEncoding",
    "AcceptError",
    "AcceptLanguage",
    "Answer",
    "Coding",
    "Consumes",
    "CorsReport",
    "Decision",
    "EncodingNegotiator",
    "LanguageNegotiator",
    "LanguageRange",
    "MediaRange",
    "Negotiator",
    "Produces",
    "Rendered",
    "Renderers",
    "SkippedMember",
    "cors_unsafe_bytes",
    "format_accept",
    "header_from_environ",
    "header_from_scope",
    "is_cors_safelisted",
    "merge_vary",
    "negotiate",
    "negotiate_encoding",
    "negotiate_language",
    "parse",
    "parse_encoding",
    "parse_language",
    "quality",
]
