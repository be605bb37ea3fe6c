"""One fixture yields each engine; every engine-level test runs on both."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fastaccept._types import Accept


@dataclass(frozen=True)
class Engine:
    """The public functions as one engine provides them."""

    name: str
    module: ModuleType
    parse: Callable[..., Accept]
    negotiate: Callable[..., Any]
    quality: Callable[..., float]
    Negotiator: type[Any]
    is_cors_safelisted: Callable[[Any], bool]


def load_engine(name: str) -> Engine:
    # The Cython engine is imported directly: a broken build fails, never skips.
    module = importlib.import_module(
        "fastaccept._scan" if name == "cython" else "fastaccept._scan_py"
    )
    return Engine(
        name,
        module,
        module.parse,
        module.negotiate,
        module.quality,
        module.Negotiator,
        module.is_cors_safelisted,
    )


ENGINES = {name: load_engine(name) for name in ("cython", "python")}


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Engine:
    return ENGINES[request.param]


#: The repository's examples/ folder (scripts and framework recipes).
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(relative: str) -> ModuleType:
    """Import ``examples/<relative>`` once, as a module named after the file.

    It is registered in ``sys.modules`` before it runs: Django's recipe names
    itself as ROOT_URLCONF.
    """
    name = Path(relative).stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
