"""``python -m benchmarks``, from a checkout: both engines, the floor and the
peers side by side (benchmarks/README.md).

The harness is not part of the installed package: ``pip install -e
".[bench]" ./benchmarks/floor`` installs what it compares.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from fastaccept.__main__ import writing

from .bench import PEERS, Measured, report
from .bench_lists import lists_report
from .bench_plot import plot, unavailable
from .bench_server import ServerError, server_report
from .bench_threads import threads_report


def bench_tables(
    quick: bool, growth: bool, peer_names: Sequence[str], plot_into: Path | None
) -> int:
    """Print the bench tables and, with ``plot_into``, chart them; the exit code.

    Whether the charts can be written is checked before measuring anything.
    """
    problem = unavailable(plot_into) if plot_into else None
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    measured = Measured()
    print(report(quick, growth, peer_names, measured))
    print(lists_report(quick, growth, peer_names, measured))
    if plot_into:
        written = plot(measured, plot_into)
        print(f"charts: {', '.join(map(str, written))}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The benchmark command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=(
            "Time negotiate, Negotiator.choose, parse, quality and is_cors_safelisted "
            "on real header values (cold: a new str each call, no cache of a value "
            "kept; hot: one value) for both "
            "engines, the benchmark floor and every installed peer (pip install -e "
            "'.[bench]' ./benchmarks/floor), and print the tables with the speed-up "
            "ratios; with --plot, also draw them as SVG charts (pip install "
            "'.[plot]'); with --server, time a FastAPI and a Flask app end to end "
            "instead."
        ),
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: a few calls, no real figures"
    )
    parser.add_argument(
        "--growth",
        action="store_true",
        help="also time hostile values from 1 KiB to 1 MiB (about a minute)",
    )
    alone = parser.add_mutually_exclusive_group()
    alone.add_argument(
        "--threads",
        action="store_true",
        help=(
            "time throughput in 1, 2 (and 4) threads instead, for free-threaded "
            "CPython (about a minute)"
        ),
    )
    alone.add_argument(
        "--plot",
        type=Path,
        metavar="DIR",
        help=(
            "also write SVG charts of this run into DIR (made if missing): "
            "cold.svg, cold-encoding-language.svg, and with --growth growth.svg "
            "and growth-all.svg"
        ),
    )
    alone.add_argument(
        "--server",
        action="store_true",
        help=(
            "time requests per second instead: FastAPI on uvicorn and Flask on "
            "waitress over loopback, fastaccept's integration against the "
            "framework's own negotiation (about 1.5 min)"
        ),
    )
    parser.add_argument(
        "--peer",
        action="append",
        choices=sorted(PEERS),
        metavar="NAME",
        help=(
            "compare with these peers only (repeat): "
            f"{', '.join(sorted(PEERS))}; default: every installed one"
        ),
    )
    args = parser.parse_args(argv)
    if (args.threads or args.server) and (args.growth or args.peer):
        given = "--threads" if args.threads else "--server"
        parser.error(f"{given} times its own cases: --growth and --peer go without it")
    if args.threads:
        print(threads_report(quick=args.quick))
        return 0
    if args.server:
        try:
            print(server_report(quick=args.quick))
        except ServerError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        return 0
    return bench_tables(args.quick, args.growth, list(args.peer or PEERS), args.plot)


if __name__ == "__main__":  # | head, a full disk: one line, status 1, as the CLI
    sys.exit(writing(main, "python -m benchmarks"))
