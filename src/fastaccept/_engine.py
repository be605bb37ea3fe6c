"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine ``_scan`` when it is built, unless ``FASTACCEPT_NO_EXTENSIONS``
is set to a true value; the pure-Python twin ``_scan_py`` otherwise. Both give
the same results. This is the only module that imports an engine, and it
imports one: the pure engine is not loaded while the compiled one serves.
Type checkers read the pure engine, the typed reference; the compiled one is
held to its signatures and docstrings by tests/test_protocols.py.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal


IMPLEMENTATION: Literal["cython", "python"]

_SETTING = os.environ.get("FASTACCEPT_NO_EXTENSIONS", "").strip().lower()
if TYPE_CHECKING or _SETTING not in ("", "0", "false", "no"):
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

parse = engine.parse
negotiate = engine.negotiate
quality = engine.quality
is_cors_safelisted = engine.is_cors_safelisted
Negotiator = engine.Negotiator
parse_encoding = engine.parse_encoding
parse_language = engine.parse_language
negotiate_encoding = engine.negotiate_encoding
negotiate_language = engine.negotiate_language
EncodingNegotiator = engine.EncodingNegotiator
LanguageNegotiator = engine.LanguageNegotiator
