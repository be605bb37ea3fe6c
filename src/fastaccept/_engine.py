"""Which engine does the work: chosen once, at import (the propcache/yarl way).

The Cython engine ``_scan`` when it is built, unless ``FASTACCEPT_NO_EXTENSIONS``
is set to a true value or this interpreter may not load it (a subinterpreter);
the pure-Python twin ``_scan_py`` otherwise. Both give the same results. This
is the only module that imports an engine, and it imports one: the pure
engine is not loaded while the compiled one serves.
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
#: How an interpreter refuses the built extension, which keeps its state in
#: the process (docs/api.md, ``IMPLEMENTATION``): Cython's words in any
#: interpreter but the first to load it, CPython's in a subinterpreter with
#: its own GIL (PEP 684, 3.12 and later: ``concurrent.interpreters``).
_NOT_THIS_INTERPRETER = (
    "can only be loaded into one interpreter per process",
    "does not support loading in subinterpreters",
)
if TYPE_CHECKING or _SETTING not in ("", "0", "false", "no"):
    from . import _scan_py as engine

    IMPLEMENTATION = "python"
else:
    try:
        # (not ``from . import _scan``, which reports a missing module as any
        # other ImportError)
        import fastaccept._scan as engine
    except ImportError as error:
        if isinstance(error, ModuleNotFoundError):
            unloadable = error.name == "fastaccept._scan"  # not built
        else:  # built, and refused by this interpreter
            unloadable = any(reason in str(error) for reason in _NOT_THIS_INTERPRETER)
        if not unloadable:
            raise  # the extension is there but broken: say so, never hide it
        from . import _scan_py as engine  # the same results

        IMPLEMENTATION = "python"
    else:
        IMPLEMENTATION = "cython"

#: What either engine provides, by the same names.
__all__ = [
    "EncodingNegotiator",
    "LanguageNegotiator",
    "Negotiator",
    "is_cors_safelisted",
    "negotiate",
    "negotiate_encoding",
    "negotiate_language",
    "parse",
    "parse_encoding",
    "parse_language",
    "quality",
]

if TYPE_CHECKING:  # the typed reference's own declarations, not names inferred
    from ._scan_py import (
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
    globals().update({name: getattr(engine, name) for name in __all__})
