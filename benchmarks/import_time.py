"""What ``import fastaccept`` adds to an interpreter's start, beside ``import
markupsafe`` (benchmarks/README.md's import target: at most 1.5x markupsafe and
at most 10 ms on the project's machines).

Each statement runs in a fresh interpreter (``python -c``), each in turn,
``--runs`` times; the fastest run of each is kept, and ``pass`` is subtracted.

    python -m benchmarks.import_time [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence

from . import count

STATEMENTS = {
    "python -c pass": "pass",
    "import markupsafe": "import markupsafe",
    "import fastaccept": "import fastaccept",
    # What a process that negotiates pays: the shared readers compile their
    # patterns (and load re) with the first offers they read.
    "import fastaccept; Negotiator(...)": (
        "import fastaccept; fastaccept.Negotiator(['text/html', 'application/json'])"
    ),
}


def fastest(runs: int) -> dict[str, float]:
    """The fastest whole-process time of each statement, in seconds."""
    best = dict.fromkeys(STATEMENTS, float("inf"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
    for _ in range(runs):
        for name, statement in STATEMENTS.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", statement], check=True, env=env)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.import_time")
    parser.add_argument("--runs", type=count, default=21)
    args = parser.parse_args(argv)
    import fastaccept

    best = fastest(args.runs)
    base = best["python -c pass"]
    added = {name: (t - base) * 1000 for name, t in best.items()}
    print(f"engine: {fastaccept.IMPLEMENTATION}; fastest of {args.runs} runs each")
    print("| statement | fastest run (ms) | added to `python -c pass` (ms) |")
    print("|---|---|---|")
    for name, t in best.items():
        print(f"| `{name}` | {t * 1000:.1f} | {added[name]:.1f} |")
    ratio = added["import fastaccept"] / added["import markupsafe"]
    print(f"\nfastaccept adds {ratio:.2f}x what markupsafe adds")


if __name__ == "__main__":
    main()
