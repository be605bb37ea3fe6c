"""Run the cases of docs/rules.md rules 20 and 22 through the peers.

Prints the cases, then a Markdown table (one row per case, one column per
library, the subtype chosen) of what each library's negotiation
(``benchmarks.bench.PEERS``, each the way its documentation shows it)
answers when actually run; ``error: ...`` where it raises, "(none)" where it
finds nothing (None, or "" for some). Rule 21 (explicit offers) is left out:
no peer has a way to say it.

    PYTHONPATH=. python tools/compare_peers_policies.py   (a checkout, '.[bench]')
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.bench import load_peers, peer_version

import fastaccept

# (header value, offers); the table names each by its number
CASES: list[tuple[str, list[str]]] = [
    ("application/json; charset=utf-8", ["application/json"]),
    ("*/*; charset=utf-8", ["text/html", "application/json"]),
    ("text/plain; charset=iso-8859-1", ["text/plain; charset=utf-8"]),
    ("application/*+json", ["application/json", "application/hal+json"]),
    ("application/*+json;q=0.5, application/*;q=0.2",
     ["application/xml", "application/hal+json"]),
    ("application/*+json", ["application/json"]),
]  # fmt: skip


Negotiate = Callable[[str, Sequence[str]], Any]


def answer(negotiate: Negotiate, value: str, offers: list[str]) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = negotiate(value, offers)
    except Exception as exc:  # a peer raising is an answer too
        text = f"{type(exc).__name__}: {exc}".replace("|", "\\|").replace("\n", " ")
        return f"error: {text[:60]}"
    if found in (None, ""):  # some give ""
        return "(none)"
    return f"`{str(found).partition('/')[2]}`"  # the subtype: a narrow table


def main() -> None:
    peers, missing = load_peers()
    runners = {"fastaccept": fastaccept.negotiate, **peers}
    versions = [f"{name} {peer_version(name)}" for name in peers]
    print(f"fastaccept {fastaccept.__version__}, " + ", ".join(versions) + "\n")
    for number, (value, offers) in enumerate(CASES, 1):
        print(f"{number}. `{value}`, offers `{offers}`")
    print("\n| case | " + " | ".join(runners) + " |")
    print("|---|" + "---|" * len(runners))
    for number, (value, offers) in enumerate(CASES, 1):
        cells = [answer(run, value, offers) for run in runners.values()]
        print(f"| {number} | " + " | ".join(cells) + " |")
    for note in missing:
        print(f"\n{note}")


if __name__ == "__main__":
    main()
