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
from typing import Any

from . import (
    IMPLEMENTATION,
    AcceptError,
    Negotiator,
    cors_unsafe_bytes,
    parse,
)
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


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``explain``; returns the exit code."""
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
    args = parser.parse_args(argv)
    return explain(
        args.value, args.offer, args.strict, args.max_length or None, args.json
    )


if __name__ == "__main__":
    sys.exit(main())
