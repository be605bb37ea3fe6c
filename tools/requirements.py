"""Print requirements pyproject.toml declares, one per line (for pip).

``python tools/requirements.py`` prints ``[build-system].requires``: the
scripts that build the extension by hand (sanitizers, valgrind, fuzzing)
install exactly that, so the Cython range is written once (``python
tools/requirements.py | xargs pip install``). ``python tools/requirements.py
EXTRA...`` prints those extras' requirements: CI installs its later steps'
tools so (``pip install -r <(python tools/requirements.py lint docs)``), as
``pip install -e ".[lint,docs]"`` would build the project, and compile the
extension, once more.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as file:
        loaded: dict[str, Any] = tomllib.load(file)
    return loaded


def build_requires() -> list[str]:
    """The ``[build-system].requires`` list of the project."""
    return list(_pyproject()["build-system"]["requires"])


def extra_requires(*extras: str) -> list[str]:
    """The requirements of the named ``[project.optional-dependencies]``, in
    order; a name the project does not declare is a KeyError."""
    declared = _pyproject()["project"]["optional-dependencies"]
    return [requirement for extra in extras for requirement in declared[extra]]


if __name__ == "__main__":
    names = sys.argv[1:]
    requirements = extra_requires(*names) if names else build_requires()
    sys.stdout.write("".join(f"{requirement}\n" for requirement in requirements))
