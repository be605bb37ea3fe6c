"""Fail unless every public name's type is declared (``pyright --verifytypes``).

A checker reading the installed package (``py.typed``) takes a name's type
from its annotation; one it must infer may be inferred otherwise by another
checker. The one exception: Django ships no type hints, so ``DjangoBinding``,
built on its ``HttpResponse``, has a base class partly unknown. Run it in an
environment with the ``test`` and ``lint`` extras (the frameworks' own types
are read): pyright checks the ``fastaccept`` this interpreter imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

COMMAND = ("pyright", "--verifytypes", "fastaccept", "--ignoreexternal")
#: (name, the start of the one diagnostic allowed it)
UNTYPED_BASES = {("fastaccept.django.DjangoBinding", "Type of base class")}


def main() -> int:
    here = os.path.dirname(sys.executable)  # pyright asks PATH's python
    env = {
        **os.environ,
        "PATH": os.pathsep.join((here, os.environ.get("PATH", ""))),
        "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1",
    }
    try:
        run = subprocess.run(
            [*COMMAND, "--outputjson"], capture_output=True, text=True, env=env
        )
        found = json.loads(run.stdout)["typeCompleteness"]
    except (OSError, ValueError, KeyError) as error:
        print(f"{' '.join(COMMAND)} did not run: {error!r}", file=sys.stderr)
        return 1
    if not found["symbols"]:  # no package: pyright says why
        print(run.stdout, file=sys.stderr)
        return 1
    failing = [
        f"{symbol['name']}: {diagnostic['message'].splitlines()[0]}"
        for symbol in found["symbols"]
        for diagnostic in symbol["diagnostics"]
        if diagnostic["severity"] == "error"
        and not any(
            symbol["name"] == name and diagnostic["message"].startswith(allowed)
            for name, allowed in UNTYPED_BASES
        )
    ]
    print(f"type completeness {found['completenessScore']:.1%}")
    if failing:
        print("types not declared:", *failing, sep="\n  ", file=sys.stderr)
        print(f"(see: {' '.join(COMMAND)})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
