"""``python -m fastaccept explain VALUE [--offer TYPE ...] [--strict]``.

Shows how fastaccept reads an Accept value: the media ranges, what lenient
mode skipped and why, the CORS verdict, and which offer a server would choose.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import (
    IMPLEMENTATION,
    AcceptError,
    Negotiator,
    cors_unsafe_bytes,
    parse,
)
from ._bench import PEERS, Measured, report
from ._bench_lists import lists_report
from ._bench_plot import plot, unavailable
from ._bench_threads import threads_report
from ._limits import DEFAULT_MAX_LENGTH
from ._types import format_param_value, format_weight

#: Characters of a value shown on each side of a position; the rest is elided.
CONTEXT = 60
#: CORS-unsafe bytes listed one per line before the rest are counted.
UNSAFE_LISTED = 20


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def shorten(text: str, position: int = 0) -> tuple[str, int]:
    """``text`` cut to ``CONTEXT`` characters each side of ``position``.

    Returns the shown text, with ``…`` where characters were left out, and
    where ``position`` now falls in it (for a caret).
    """
    start = max(0, position - CONTEXT)
    end = min(len(text), max(position, start) + CONTEXT)
    head = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    return head + text[start:end] + tail, position - start + len(head)


def _shown(text: str) -> str:
    """A value for a line of its own: repr, elided past ``CONTEXT`` twice over."""
    if len(text) <= 2 * CONTEXT:
        return repr(text)
    return f"{shorten(text)[0]!r} ({len(text):,} characters)"


def _byte(code: int) -> str:
    return f"U+{code:04X}" if code > 0xFF else f"0x{code:02X} {chr(code)!r}"


def describe(
    value: str, offers: Sequence[str], strict: bool, max_length: int | None
) -> dict[str, Any]:
    """Everything ``explain`` shows, as plain data (the ``--json`` document).

    Raises ``AcceptError`` for an invalid value in strict mode or an over-long
    one, ``TypeError``/``ValueError`` for a bad offer.
    """
    accept = parse(value, strict=strict, max_length=max_length)
    report = cors_unsafe_bytes(value)
    facts: dict[str, Any] = {
        "value": value,
        "engine": IMPLEMENTATION,
        "ranges": [
            {
                "type": rng.type,
                "subtype": rng.subtype,
                "params": [list(pair) for pair in rng.params],
                "q": rng.q,
                "specificity": list(rng.specificity),
            }
            for rng in accept
        ],
        "skipped": [skip._asdict() for skip in accept.skipped],
        "cors": {
            "safelisted": report.safelisted,
            "length": report.length,
            "too_long": report.too_long,
            "unsafe": [{"index": i, "byte": b} for i, b in report.unsafe],
        },
    }
    if offers:
        negotiator = Negotiator(offers, max_length=max_length)
        ranked = dict(negotiator.rank(value))
        facts["offers"] = [{"offer": o, "q": ranked.get(o, 0.0)} for o in offers]
        facts["chosen"] = negotiator.choose(value)
    return facts


def _print_text(facts: dict[str, Any]) -> None:
    print(f"value:   {_shown(facts['value'])}")
    print(f"engine:  {facts['engine']}")
    ranges = facts["ranges"]
    print(f"\nmedia ranges ({len(ranges)}):")
    if ranges:
        rows = [["#", "type", "subtype", "params", "q", "specificity"]]
        for i, rng in enumerate(ranges, 1):
            params = ";".join(f"{n}={format_param_value(v)}" for n, v in rng["params"])
            rows.append(
                [
                    str(i),
                    rng["type"],
                    rng["subtype"],
                    params or "-",
                    format_weight(round(rng["q"] * 1000)),
                    str(tuple(rng["specificity"])),
                ]
            )
        print("\n".join(_table(rows)))
    else:
        print("  none: a present header with no valid member accepts nothing")
    print(f"\nskipped ({len(facts['skipped'])}):")
    for skip in facts["skipped"]:
        print(
            f"  {_shown(skip['text'])} at {skip['start']}: {skip['reason']} "
            f"(position {skip['position']})"
        )
    if not facts["skipped"]:
        print("  none")
    cors = facts["cors"]
    verdict = "yes" if cors["safelisted"] else "no"
    print(f"\nCORS-safelisted (Fetch): {verdict}, {cors['length']} bytes (limit 128)")
    if cors["too_long"]:
        print("  too long: over 128 bytes")
    for item in cors["unsafe"][:UNSAFE_LISTED]:
        print(f"  CORS-unsafe byte {_byte(item['byte'])} at {item['index']}")
    if len(cors["unsafe"]) > UNSAFE_LISTED:
        print(f"  … and {len(cors['unsafe']) - UNSAFE_LISTED:,} more")
    if "offers" in facts:
        print("\noffers:")
        for item in facts["offers"]:
            print(f"  {item['offer']}: q={item['q']:g}")
        chosen = facts["chosen"]
        if chosen is None:
            print("chosen:  none acceptable -> answer 406 Not Acceptable, or a default")
        else:
            q = next(i["q"] for i in facts["offers"] if i["offer"] == chosen)
            print(f"chosen:  {chosen} (q={q:g})")


def explain(
    value: str,
    offers: Sequence[str],
    strict: bool,
    max_length: int | None,
    as_json: bool = False,
) -> int:
    """Print the explanation (a table, or JSON); return the process exit code."""
    try:
        facts = describe(value, offers, strict, max_length)
    except AcceptError as exc:
        if as_json:
            error = {
                "position": exc.position,
                "reason": exc.reason,
                "message": str(exc),
            }
            print(
                json.dumps({"value": value, "engine": IMPLEMENTATION, "error": error})
            )
        else:
            print(f"value:   {_shown(value)}")
            print(f"engine:  {IMPLEMENTATION}")
            shown, caret = shorten(value, exc.position)
            print(f"\nerror: {exc}", file=sys.stderr)
            print(f"  {shown}\n  {' ' * caret}^", file=sys.stderr)
        return 1
    except (TypeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(facts, indent=2))
    else:
        _print_text(facts)
    return 0


def program_name() -> str:
    """How this was run: ``fastaccept`` (the script) or ``python -m fastaccept``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m fastaccept" if name in ("", "__main__.py", "-c") else name


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
    """The command line: ``explain`` and ``bench``; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog=program_name(),
        description="Parse HTTP Accept values and negotiate content types (RFC 9110).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ex = commands.add_parser(
        "explain",
        help="show how an Accept value is read and which offer it selects",
        description=(
            "Print the media ranges of an Accept value as a table, the members "
            "lenient mode skipped (with reasons), the CORS-safelist verdict, and "
            "with --offer the offer a server would choose. Exits 1 when --strict "
            "is given and the value is invalid."
        ),
    )
    ex.add_argument("value", metavar="VALUE", help="the Accept header value")
    ex.add_argument(
        "--offer",
        action="append",
        default=[],
        metavar="TYPE",
        help="a media type the server can send (repeat, in server preference order)",
    )
    ex.add_argument(
        "--strict", action="store_true", help="reject any violation of RFC 9110"
    )
    ex.add_argument(
        "--json", action="store_true", help="print one JSON document, for scripts"
    )
    ex.add_argument(
        "--max-length",
        type=int,
        default=DEFAULT_MAX_LENGTH,
        metavar="N",
        help=f"longest value accepted (default {DEFAULT_MAX_LENGTH}; 0 for no limit)",
    )
    bench = commands.add_parser(
        "bench",
        help="compare both engines with the installed peers, side by side",
        description=(
            "Time negotiate, Negotiator.choose, parse, quality and is_cors_safelisted "
            "on real header values (cold: distinct values; hot: one value) for both "
            "engines, the benchmark floor and every installed peer (pip install "
            "'fastaccept[bench]'), and print the tables with the speed-up ratios; "
            "with --plot, also draw them as SVG charts (pip install "
            "'fastaccept[plot]')."
        ),
    )
    bench.add_argument(
        "--quick", action="store_true", help="a smoke run: a few calls, no real figures"
    )
    bench.add_argument(
        "--growth",
        action="store_true",
        help="also time hostile values from 1 KiB to 1 MiB (takes minutes)",
    )
    threads_or_plot = bench.add_mutually_exclusive_group()
    threads_or_plot.add_argument(
        "--threads",
        action="store_true",
        help=(
            "time throughput in 1, 2 (and 4) threads instead, for free-threaded "
            "CPython (about a minute)"
        ),
    )
    threads_or_plot.add_argument(
        "--plot",
        type=Path,
        metavar="DIR",
        help=(
            "also write SVG charts of this run into DIR (made if missing): "
            "cold.svg, cold-encoding-language.svg, and with --growth growth.svg "
            "and growth-all.svg"
        ),
    )
    bench.add_argument(
        "--peer",
        action="append",
        metavar="NAME",
        help="compare with these peers only (repeat); default: every installed one",
    )
    args = parser.parse_args(argv)
    if args.command == "bench" and args.threads:
        print(threads_report(quick=args.quick))
        return 0
    if args.command == "bench":
        return bench_tables(
            args.quick, args.growth, list(args.peer or PEERS), args.plot
        )
    return explain(
        args.value, args.offer, args.strict, args.max_length or None, args.json
    )


if __name__ == "__main__":
    sys.exit(main())
