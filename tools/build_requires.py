"""Print the build requirements of pyproject.toml, one per line (for pip).

The scripts that build the extension by hand (sanitizers, valgrind, fuzzing)
install exactly what ``[build-system].requires`` says, so the Cython range is
written once: ``python tools/build_requires.py | xargs pip install``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def build_requires() -> list[str]:
    """The ``[build-system].requires`` list of the project."""
    with PYPROJECT.open("rb") as file:
        return list(tomllib.load(file)["build-system"]["requires"])


if __name__ == "__main__":
    sys.stdout.write("".join(f"{requirement}\n" for requirement in build_requires()))
