"""Fail unless every public name's type is declared (``pyright --verifytypes``).

A checker reading the installed package (``py.typed``) takes a name's type
from its annotation; one it must infer may be inferred otherwise by another
checker. Only ``fastaccept.django`` may fall short: Django ships no type
hints, so the classes built on its types are partly unknown.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

UNTYPED_FRAMEWORKS = ("fastaccept.django.",)


def main() -> int:
    command = ["pyright", "--verifytypes", "fastaccept", "--ignoreexternal"]
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}
    run = subprocess.run(
        [*command, "--outputjson"], capture_output=True, text=True, env=env
    )
    report = json.loads(run.stdout)
    found = report["typeCompleteness"]
    if not found["symbols"]:  # pyright found no package: say why
        print(report["generalDiagnostics"], file=sys.stderr)
        return 1
    failing = [
        symbol["name"]
        for symbol in found["symbols"]
        if not symbol["name"].startswith(UNTYPED_FRAMEWORKS)
        and any(d["severity"] == "error" for d in symbol["diagnostics"])
    ]
    print(f"type completeness {found['completenessScore']:.1%}")
    if failing:
        print("types not declared:", *failing, sep="\n  ", file=sys.stderr)
        print(f"(see: {' '.join(command)})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
