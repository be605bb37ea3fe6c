"""fastaccept: parse HTTP ``Accept`` and negotiate content types, fast.

RFC 9110 §12.5.1 parsing and negotiation, the Fetch CORS-safelist rule, and a
builder for the ``Accept`` response header. A Cython engine does the work when
it is built; a pure-Python twin gives identical results otherwise. Set
``FASTACCEPT_NO_EXTENSIONS=1`` to force the pure-Python engine.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from . import _scan_py
from ._cors import CorsReport, cors_unsafe_bytes
from ._defaults import BROWSER_DEFAULTS
from ._errors import AcceptError
from ._format import format_accept
from ._types import Accept, MediaRange, SkippedMember

IMPLEMENTATION: Literal["cython", "python"]


def _no_extensions() -> bool:
    value = os.environ.get("FASTACCEPT_NO_EXTENSIONS", "").strip().lower()
    return value not in ("", "0", "false", "no")


if TYPE_CHECKING:  # both engines have this API; the stub of _scan describes it
    from . import _scan as _engine
elif _no_extensions():
    _engine = _scan_py
else:
    try:
        from . import _scan as _engine
    except ImportError:  # not built: the pure-Python engine gives the same results
        _engine = _scan_py

IMPLEMENTATION = "python" if _engine is _scan_py else "cython"

parse = _engine.parse
is_cors_safelisted = _engine.is_cors_safelisted
Negotiator = _engine.Negotiator
negotiate = _engine.negotiate
quality = _engine.quality

__version__ = "0.1.0"

__all__ = [
    "BROWSER_DEFAULTS",
    "IMPLEMENTATION",
    "Accept",
    "AcceptError",
    "CorsReport",
    "MediaRange",
    "Negotiator",
    "SkippedMember",
    "cors_unsafe_bytes",
    "format_accept",
    "is_cors_safelisted",
    "negotiate",
    "parse",
    "quality",
]
