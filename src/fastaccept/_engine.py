"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine ``_scan`` when it is built, unless ``FASTACCEPT_NO_EXTENSIONS``
is set to a true value; the pure-Python twin ``_scan_py`` otherwise. Both give
the same results. This is the only module that imports an engine.
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from typing import TYPE_CHECKING, Literal

from . import _scan_py
from ._interface import Engine

__all__ = [
    "IMPLEMENTATION",
    "Negotiator",
    "engine",
    "is_cors_safelisted",
    "negotiate",
    "parse",
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

if TYPE_CHECKING:
    # mypy holds both engines to the one interface...
    _both: tuple[Engine, Engine] = (_scan, _scan_py)
    # ...and types the public names as the compiled engine's stub declares them.
    from ._scan import Negotiator, is_cors_safelisted, negotiate, parse, quality
else:
    Negotiator = engine.Negotiator
    is_cors_safelisted = engine.is_cors_safelisted
    negotiate = engine.negotiate
    parse = engine.parse
    quality = engine.quality
