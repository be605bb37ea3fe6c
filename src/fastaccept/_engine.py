"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine ``_scan`` when it is built, unless ``FASTACCEPT_NO_EXTENSIONS``
is set to a true value; the pure-Python twin ``_scan_py`` otherwise. Both give
the same results. This is the only module that imports an engine, and it
imports one: the pure engine is not loaded while the compiled one serves.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from ._interface import Engine

__all__ = [
    "IMPLEMENTATION",
    "EncodingNegotiator",
    "LanguageNegotiator",
    "Negotiator",
    "engine",
    "is_cors_safelisted",
    "negotiate",
    "negotiate_encoding",
    "negotiate_language",
    "parse",
    "parse_encoding",
    "parse_language",
    "quality",
]


def _no_extensions() -> bool:
    value = os.environ.get("FASTACCEPT_NO_EXTENSIONS", "").strip().lower()
    return value not in ("", "0", "false", "no")


engine: Engine
IMPLEMENTATION: Literal["cython", "python"]

if _no_extensions():
    from . import _scan_py as engine

    IMPLEMENTATION = "python"
else:
    try:
        # (not ``from . import _scan``, which reports a missing module as any
        # other ImportError)
        import fastaccept._scan as engine
    except ModuleNotFoundError as missing:
        if missing.name != "fastaccept._scan":
            raise  # the extension is there but broken: say so, never hide it
        from . import _scan_py as engine  # not built: the same results

        IMPLEMENTATION = "python"
    else:
        IMPLEMENTATION = "cython"

if TYPE_CHECKING:
    from . import _scan, _scan_py

    # mypy holds both engines to the one interface...
    _both: tuple[Engine, Engine] = (_scan, _scan_py)
    # ...and types the public names as the compiled engine's stub declares them.
    from ._scan import (
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
else:
    Negotiator = engine.Negotiator
    is_cors_safelisted = engine.is_cors_safelisted
    negotiate = engine.negotiate
    parse = engine.parse
    quality = engine.quality
    EncodingNegotiator = engine.EncodingNegotiator
    LanguageNegotiator = engine.LanguageNegotiator
    negotiate_encoding = engine.negotiate_encoding
    negotiate_language = engine.negotiate_language
    parse_encoding = engine.parse_encoding
    parse_language = engine.parse_language
