"""fastaccept: parse HTTP ``Accept`` and negotiate content types, fast.

RFC 9110 §12.5.1 parsing and negotiation, the Fetch CORS-safelist rule, and a
builder for the ``Accept`` response header. A Cython engine does the work when
it is built; a pure-Python twin gives identical results otherwise. Set
``FASTACCEPT_NO_EXTENSIONS=1`` to force the pure-Python engine.
"""

from ._cors import CorsReport, cors_unsafe_bytes
from ._defaults import BROWSER_DEFAULTS
from ._engine import (
    IMPLEMENTATION,
    Negotiator,
    is_cors_safelisted,
    negotiate,
    parse,
    quality,
)
from ._errors import AcceptError
from ._format import format_accept
from ._headers import header_from_environ, header_from_scope, merge_vary
from ._render import Answer, Rendered, Renderers
from ._responses import Consumes, Decision, Produces
from ._types import Accept, MediaRange, SkippedMember

__version__ = "0.1.0"

__all__ = [
    "BROWSER_DEFAULTS",
    "IMPLEMENTATION",
    "Accept",
    "AcceptError",
    "Answer",
    "Consumes",
    "CorsReport",
    "Decision",
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
    "parse",
    "quality",
]
