"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine ``_scan`` when it is built, unless ``FASTACCEPT_NO_EXTENSIONS``
is set to a true value; the pure-Python twin ``_scan_py`` otherwise. Both give
the same results. This is the only module that imports an engine.

The Accept-Encoding and Accept-Language half (``EncodingLanguageEngine``)
comes from the chosen engine when it has every one of its names
(``ENCODING_LANGUAGE_NAMES``), and from ``_scan_py`` otherwise (an extension
built from older sources). All of the half comes from one engine, never a
mix; ``ENCODING_LANGUAGE_IMPLEMENTATION`` says which.
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from typing import TYPE_CHECKING, Literal, cast

from . import _scan_py
from ._interface import ENCODING_LANGUAGE_NAMES, EncodingLanguageEngine, Engine

__all__ = [
    "ENCODING_LANGUAGE_IMPLEMENTATION",
    "IMPLEMENTATION",
    "EncodingNegotiator",
    "LanguageNegotiator",
    "Negotiator",
    "encoding_language_engine",
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
    engine, IMPLEMENTATION = _scan_py, "python"
else:
    try:
        from . import _scan
    except ImportError:
        if find_spec(f"{__package__}._scan") is not None:
            raise  # the extension is there but broken: say so, never hide it
        engine, IMPLEMENTATION = _scan_py, "python"  # not built: same results
    else:
        engine, IMPLEMENTATION = _scan, "cython"

encoding_language_engine: EncodingLanguageEngine
ENCODING_LANGUAGE_IMPLEMENTATION: Literal["cython", "python"]

if all(hasattr(engine, name) for name in ENCODING_LANGUAGE_NAMES):
    encoding_language_engine = cast(EncodingLanguageEngine, engine)
    ENCODING_LANGUAGE_IMPLEMENTATION = IMPLEMENTATION
else:  # an extension built before it had this half
    encoding_language_engine, ENCODING_LANGUAGE_IMPLEMENTATION = _scan_py, "python"

if TYPE_CHECKING:
    # mypy holds both engines to the one interface...
    _both: tuple[Engine, Engine] = (_scan, _scan_py)
    # ...and both engines to the Accept-Encoding/Accept-Language half...
    _half: EncodingLanguageEngine = _scan_py
    _half_c: EncodingLanguageEngine = _scan
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
    EncodingNegotiator = encoding_language_engine.EncodingNegotiator
    LanguageNegotiator = encoding_language_engine.LanguageNegotiator
    negotiate_encoding = encoding_language_engine.negotiate_encoding
    negotiate_language = encoding_language_engine.negotiate_language
    parse_encoding = encoding_language_engine.parse_encoding
    parse_language = encoding_language_engine.parse_language
