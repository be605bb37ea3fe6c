"""Whole requests in process, to count their instructions (benchmarks/README.md,
"The web path").

``python -m benchmarks.whole_requests FRAMEWORK ENDPOINT COUNT`` sends COUNT
requests to the application that ``benchmarks/test_integrations.py`` times
for FRAMEWORK (``starlette``, ``flask``), through its ENDPOINT
(``negotiated`` or ``by-hand``), each with an Accept value of its own. Under
``valgrind --tool=callgrind``, the instructions of a run less those of a run
with half the requests, divided by that half, are one request's.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import pytest

from . import count
from .test_integrations import (
    CASES,
    WHOLE_BUILDERS,
    WHOLE_ENDPOINTS,
    endpoint_call,
    expected,
)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.whole_requests",
        description="Send whole requests to a negotiated endpoint or a by-hand one.",
    )
    parser.add_argument("framework", choices=sorted(WHOLE_BUILDERS))
    parser.add_argument("endpoint", choices=WHOLE_ENDPOINTS)
    parser.add_argument("count", type=count)
    parser.add_argument("--case", choices=sorted(CASES), default="chrome-navigate")
    args = parser.parse_args(argv)
    try:
        exchange = WHOLE_BUILDERS[args.framework](args.case)
    except pytest.skip.Exception as missing:
        parser.error(str(missing))
    call = endpoint_call(exchange, args.endpoint)
    if exchange.answer(call()) != expected(args.case):
        parser.error("the endpoint's answer is not the expected one")
    for _ in range(args.count):
        call()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
