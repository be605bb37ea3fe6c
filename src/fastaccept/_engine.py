"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine when it is built, unless ``FASTACCEPT_NO_EXTENSIONS`` is set
to a true value; the pure-Python twin otherwise. Both give the same results.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from . import _scan_py

__all__ = ["IMPLEMENTATION", "engine"]

IMPLEMENTATION: Literal["cython", "python"]


def _no_extensions() -> bool:
    value = os.environ.get("FASTACCEPT_NO_EXTENSIONS", "").strip().lower()
    return value not in ("", "0", "false", "no")


if TYPE_CHECKING:  # both engines have this API; the stub of _scan describes it
    from . import _scan as engine
elif _no_extensions():
    engine = _scan_py
else:
    try:
        from . import _scan as engine
    except ImportError:  # not built: the pure-Python engine gives the same results
        engine = _scan_py

IMPLEMENTATION = "python" if engine is _scan_py else "cython"
