"""``python -m fastaccept explain VALUE [--header NAME] [--offer OFFER ...]``:
how fastaccept reads a header value (``explain --help`` says what it shows).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO, NoReturn, TextIO

from . import (
    IMPLEMENTATION,
    Accept,
    AcceptEncoding,
    AcceptError,
    AcceptLanguage,
    Coding,
    EncodingNegotiator,
    LanguageNegotiator,
    LanguageRange,
    MediaRange,
    Negotiator,
    __version__,
    cors_unsafe_bytes,
    negotiate_encoding,
    parse,
    parse_encoding,
    parse_language,
)
from ._coding import IDENTITY
from ._errors import ACCEPT, ACCEPT_ENCODING, ACCEPT_LANGUAGE, too_long
from ._grammar import CORS_MAX_LENGTH
from ._limits import DEFAULT_MAX_LENGTH
from ._tuples import NamedTuple
from ._types import format_param_value, format_weight

#: Characters of a value shown on each side of a position; the rest is elided.
CONTEXT = 60
#: CORS-unsafe bytes listed one per line before the rest are counted.
UNSAFE_LISTED = 20

#: The exit statuses, as ``explain --help`` lists them.
EXIT_STATUS = """\
exit status:
  0  the value was read (lenient mode skips the members it cannot read)
  1  the value was refused: invalid with --strict, or longer than
     --max-length (in either mode: the limit protects a server); or
     the output could not be written (cut short by its reader, quietly;
     another failure, a full disk, in one line on stderr)
  2  a usage error: an invalid option or --offer, or a standard input
     that cannot be read"""


class Header(NamedTuple):
    """How ``explain`` reads one header: its field name, parser and negotiator
    class, the members' ``--json`` key and title, what
    a present value with no valid member accepts, and what a server does when
    no offer is acceptable."""

    name: str
    parse: Callable[..., Accept | AcceptEncoding | AcceptLanguage]
    negotiator: type[Negotiator | EncodingNegotiator | LanguageNegotiator]
    key: str
    title: str
    nothing: str
    refused: str


HEADERS = {
    "accept": Header(
        ACCEPT,
        parse,
        Negotiator,
        "ranges",
        "media ranges",
        "a present header with no valid member accepts nothing",
        "answer 406 Not Acceptable, or a default",
    ),
    "accept-encoding": Header(
        ACCEPT_ENCODING,
        parse_encoding,
        EncodingNegotiator,
        "codings",
        "codings",
        "a present header with no valid member accepts identity only",
        "answer 406 Not Acceptable, or send identity anyway",
    ),
    "accept-language": Header(
        ACCEPT_LANGUAGE,
        parse_language,
        LanguageNegotiator,
        "ranges",
        "language ranges",
        "a present header with no valid member accepts nothing",
        "answer 406 Not Acceptable, or a default language",
    ),
}


def _encodable(text: str, encoding: str | None) -> bool:
    if encoding is None:  # a text buffer (io.StringIO): it holds any str
        return True
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def visible(char: str, encoding: str | None = None, *, quoting: bool = True) -> str:
    """``char`` as a Python string literal shows it, escaped when it is no
    printable Latin-1 character or ``encoding`` cannot write it (``\\x1b``);
    not ``quoting`` (header syntax, which quotes by its own rules), a
    backslash as it is."""
    if (
        (char != "\\" or not quoting)
        and char.isprintable()
        and char <= "\xff"
        and _encodable(char, encoding)
    ):
        return char
    return char.encode("unicode_escape").decode("ascii")


def escaped(text: str, encoding: str | None = None, *, quoting: bool = True) -> str:
    """``text`` with each character ``visible``."""
    return "".join(visible(char, encoding, quoting=quoting) for char in text)


def syntax(text: str, encoding: str | None = None) -> str:
    """Header syntax (a parsed member's cell, an offer) as it is, but for
    the characters ``visible`` escapes; past ``2 * CONTEXT`` characters, its
    start."""
    shown = escaped(text[: 2 * CONTEXT], encoding, quoting=False)
    return shown + _ellipsis(encoding) if len(text) > 2 * CONTEXT else shown


def _ellipsis(encoding: str | None) -> str:
    return "…" if _encodable("…", encoding) else "..."


def shorten(
    text: str, position: int = 0, encoding: str | None = None
) -> tuple[str, int]:
    """``text`` cut to ``CONTEXT`` characters each side of ``position`` (``…``
    where cut), each ``visible``, and the column of ``position`` in it."""
    start = max(0, position - CONTEXT)
    end = min(len(text), max(position, start) + CONTEXT)
    shown = [visible(char, encoding) for char in text[start:end]]
    head = _ellipsis(encoding) if start > 0 else ""
    tail = _ellipsis(encoding) if end < len(text) else ""
    caret = len(head) + sum(map(len, shown[: position - start]))
    return head + "".join(shown) + tail, caret


def quoted(text: str, encoding: str | None = None, length: int | None = None) -> str:
    """``text`` quoted as ``repr`` quotes, its characters ``visible``; past
    ``2 * CONTEXT`` characters, its start and its length (``length`` where
    the text is the start of a longer value)."""
    quote = '"' if "'" in text and '"' not in text else "'"
    length = len(text) if length is None else length
    if length <= 2 * CONTEXT:
        body, more = escaped(text, encoding), ""
    else:
        body, more = shorten(text, 0, encoding)[0], f" ({length} characters)"
    return quote + body.replace(quote, "\\" + quote) + quote + more


def _unsafe(code: int) -> str:
    """A CORS-unsafe byte, or a character that is no header byte at all."""
    if code > 0xFF:
        return f"character U+{code:04X} (not a header byte)"
    return f"byte 0x{code:02X} {chr(code)!r}"


#: The most characters ``Output`` writes at once (``Output.line``).
WRITE_CHARS = 128


class Output:
    """A text stream that never fails on a character: what its encoding
    cannot write is written as a backslash escape."""

    def __init__(self, stream: TextIO | None) -> None:
        #: None where the process was started without it (a closed descriptor).
        self.stream = stream
        #: None for a text buffer such as ``io.StringIO``.
        self.encoding: str | None = getattr(stream, "encoding", None)

    def line(self, text: str = "") -> None:
        if self.stream is None:
            return
        if self.encoding is not None:
            text = text.encode(self.encoding, "backslashreplace").decode(self.encoding)
        text += "\n"
        # In writes a pipe takes whole or refuses (PIPE_BUF bytes, 512 at least
        # by POSIX; a character is at most 4 bytes), so that a reader gone
        # midway fails the next one: one long write that it cuts short is
        # dropped unsaid by an unbuffered text stream (python -u).
        for start in range(0, len(text), WRITE_CHARS):
            self.stream.write(text[start : start + WRITE_CHARS])


def _layout(value: str, header: Header, offers: Sequence[str]) -> dict[str, Any]:
    """The keys of every ``--json`` document, results and errors alike."""
    facts: dict[str, Any] = {
        "value": value,
        "header": header.name,
        "engine": IMPLEMENTATION,
        header.key: None,
        "skipped": None,
    }
    if header.name == ACCEPT:  # Fetch's CORS rule for accept
        facts["cors"] = None
    if offers:
        facts["offers"] = facts["chosen"] = None
    facts["error"] = None
    return facts


def _member(member: MediaRange | Coding | LanguageRange) -> dict[str, Any]:
    """A member's fields, its weight as ``q``; a media range's specificity."""
    facts: dict[str, Any] = member._asdict()
    del facts["weight"]
    facts["q"] = member.q
    if isinstance(member, MediaRange):
        facts["params"] = [list(pair) for pair in member.params]
        facts["specificity"] = list(member.specificity)
    return facts


def describe(
    value: str,
    offers: Sequence[str],
    strict: bool,
    max_length: int | None,
    header: str = "accept",
) -> dict[str, Any]:
    """Everything ``explain`` shows, as plain data (the ``--json`` document);
    ``AcceptError`` for a value refused, ``TypeError``/``ValueError`` for a
    bad offer."""
    kind = HEADERS[header]
    parsed = kind.parse(value, strict=strict, max_length=max_length)
    facts = _layout(value, kind, offers)
    facts[kind.key] = [_member(member) for member in parsed]
    facts["skipped"] = [skip._asdict() for skip in parsed.skipped]
    if "cors" in facts:
        cors = facts["cors"] = cors_unsafe_bytes(value, max_length=max_length)._asdict()
        cors["unsafe"] = [{"index": i, "code_point": c} for i, c in cors["unsafe"]]
    if offers:
        ranked = dict(parsed.rank(offers))
        facts["offers"] = [{"offer": o, "q": ranked.get(o, 0.0)} for o in offers]
        facts["chosen"] = kind.negotiator(offers, max_length=max_length).choose(value)
    return facts


def _cell(key: str, value: Any) -> str:
    if key == "q":
        return format_weight(round(value * 1000))
    if key == "params":
        return ";".join(f"{n}={format_param_value(v)}" for n, v in value) or "-"
    if key == "specificity":
        return str(tuple(value))
    return str(value)


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _refused(header: Header, value: str) -> str:
    """What a server does when no offer is acceptable: ``header.refused``,
    but a 406 alone where an Accept-Encoding value refuses identity too
    (``identity;q=0``, or ``*;q=0`` without an identity entry: rule 18)."""
    if header.name == ACCEPT_ENCODING and not negotiate_encoding(
        value, [IDENTITY], max_length=None
    ):
        return "answer 406 Not Acceptable (the value refuses identity too)"
    return header.refused


def _print_text(facts: dict[str, Any], header: Header, out: Output) -> None:
    out.line(f"value:   {quoted(facts['value'], out.encoding)}")
    out.line(f"engine:  {facts['engine']}")
    members = facts[header.key]
    out.line(f"\n{header.title} ({len(members)}):")
    if members:
        rows = [["#", *members[0]]]
        for i, member in enumerate(members, 1):
            cells = (syntax(_cell(k, v), out.encoding) for k, v in member.items())
            rows.append([str(i), *cells])
        for line in _table(rows):
            out.line(line)
    else:
        out.line(f"  none: {header.nothing}")
    out.line(f"\nskipped ({len(facts['skipped'])}):")
    for skip in facts["skipped"]:
        text = quoted(skip["text"], out.encoding)
        out.line(
            f"  {text} at {skip['start']}: {skip['reason']} "
            f"(position {skip['position']})"
        )
    if not facts["skipped"]:
        out.line("  none")
    if "cors" in facts:
        cors = facts["cors"]
        verdict = "yes" if cors["safelisted"] else "no"
        length = cors["length"]
        out.line(
            f"\nCORS-safelisted (Fetch): {verdict}, {length} "
            f"character{'s' * (length != 1)} (limit {CORS_MAX_LENGTH})"
        )
        if cors["too_long"]:
            out.line(f"  too long: over {CORS_MAX_LENGTH} characters")
        for item in cors["unsafe"][:UNSAFE_LISTED]:
            out.line(f"  CORS-unsafe {_unsafe(item['code_point'])} at {item['index']}")
        if len(cors["unsafe"]) > UNSAFE_LISTED:
            more = len(cors["unsafe"]) - UNSAFE_LISTED
            out.line(f"  {_ellipsis(out.encoding)} and {more} more")
    if "offers" in facts:
        out.line("\noffers:")
        for item in facts["offers"]:
            out.line(f"  {syntax(item['offer'], out.encoding)}: q={item['q']:g}")
        chosen = facts["chosen"]
        if chosen is None:
            out.line(f"chosen:  none acceptable -> {_refused(header, facts['value'])}")
        else:
            q = next(i["q"] for i in facts["offers"] if i["offer"] == chosen)
            out.line(f"chosen:  {syntax(chosen, out.encoding)} (q={q:g})")


def explain(args: argparse.Namespace) -> int:
    """Print the explanation (a table, JSON, or the variant key alone) that
    ``args`` ask for; return the process exit code: 0, 1 for a refused value,
    2 for a bad offer or a standard input that cannot be read."""
    out, err = Output(sys.stdout), Output(sys.stderr)
    max_length = args.max_length or None
    try:
        if args.value == "-":
            value, length = stdin_value(max_length)
        else:
            value = args.value
            length = len(value)
    except OSError as exc:  # opened for writing alone, say: not the output's
        err.line(f"error: cannot read standard input: {exc}")
        return 2
    kind = HEADERS[args.header]
    offers = args.offer
    try:
        if length > len(value):  # standard input's, kept in part: refused
            raise too_long(value, length, args.max_length, kind.name)
        if args.key:  # the value is read first, and refused, as describe reads it
            kind.parse(value, strict=args.strict, max_length=max_length)
            key = kind.negotiator(offers, max_length=max_length).variant_key(value)
        else:
            facts = describe(value, offers, args.strict, max_length, args.header)
    except (TypeError, ValueError) as exc:
        refused = exc if isinstance(exc, AcceptError) else None  # else a bad offer
        if args.json:
            facts = _layout(value, kind, offers)
            facts["error"] = {
                "message": str(exc),
                "position": None if refused is None else refused.position,
                "reason": None if refused is None else refused.reason,
            }
            out.line(json.dumps(facts, indent=2))
        elif refused is not None:
            if not args.key:  # with --key, the output is the key or nothing
                out.line(f"value:   {quoted(value, out.encoding, length)}")
                out.line(f"engine:  {IMPLEMENTATION}")
                err.line()
            shown, caret = shorten(value, refused.position, err.encoding)
            err.line(f"error: {refused}")
            err.line(f"  {shown}\n  {' ' * caret}^")
            if max_length is not None and len(value) > max_length:
                err.line("  (--max-length N raises the limit; --max-length 0 lifts it)")
        else:
            err.line(f"error: {exc}")
        return 2 if refused is None else 1
    if args.key:
        # The offer as given (a character the output cannot encode written as
        # ``Output.line`` writes one); an empty line: no offer is acceptable.
        out.line(key)
    elif args.json:
        out.line(json.dumps(facts, indent=2))
    else:
        _print_text(facts, kind, out)
    return 0


#: A byte the locale could not decode (Python's surrogate escape, PEP 383)
#: back to that byte, one Latin-1 character, as a server reads it.
UNDECODED_BYTES = {0xDC00 + byte: byte for byte in range(0x80, 0x100)}


def header_text(argument: str) -> str:
    """A command-line argument as header text (every argument is read so,
    argparse's messages echoing it as the value's are shown): its
    characters, each byte the locale could not decode as that byte
    (``UNDECODED_BYTES``)."""
    return argument.translate(UNDECODED_BYTES)


#: How much of standard input ``stdin_value`` reads at a time.
STDIN_CHUNK = 1 << 16


def stdin_value(limit: int | None) -> tuple[str, int]:
    """VALUE ``-``: the value from standard input, its bytes as a server
    reads a field's (Latin-1; a stream of text alone, as ``header_text``
    reads an argument), one line end at its end left out (a field value
    holds none, RFC 9110 §5.5), and its length; no input, an empty value; a
    closed one (``0<&-``: Python's ``sys.stdin`` None), an ``OSError``.
    Of a value over ``limit`` characters (rule 8) only what its refusal
    shows is kept (``CONTEXT`` past the limit, ``2 * CONTEXT`` at least,
    then a line end), the rest counted as read: memory stays bounded,
    however much the input holds."""
    stream = sys.stdin
    if stream is None:
        raise OSError("it is closed")
    buffer: BinaryIO | None = getattr(stream, "buffer", None)

    def read() -> str:
        if buffer is not None:
            return buffer.read(STDIN_CHUNK).decode("latin-1")
        return header_text(stream.read(STDIN_CHUNK))

    keep = sys.maxsize if limit is None else max(limit, CONTEXT) + CONTEXT + 3
    kept: list[str] = []
    length, tail = 0, ""
    while text := read():
        if length < keep:
            kept.append(text[: keep - length])
        length += len(text)
        tail = (tail + text)[-2:]
    length -= 2 if tail == "\r\n" else 1 if tail.endswith("\n") else 0
    return "".join(kept)[:length], length


def program_name() -> str:
    """How this was run: ``fastaccept`` (the script) or ``python -m fastaccept``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m fastaccept" if name in ("", "__main__.py", "-c") else name


def max_length_option(text: str) -> int:
    """``--max-length``: a whole number from 0 (no limit) to ``sys.maxsize``,
    in ASCII digits alone (none of the other forms ``int`` reads: a sign,
    ``_``, spaces, other scripts' digits), leading zeros of any number."""
    number = -1
    if text.isascii() and text.isdigit():
        digits = text.lstrip("0") or "0"
        if len(digits) <= len(str(sys.maxsize)):  # int() refuses 4,301 digits
            number = int(digits)
    if not 0 <= number <= sys.maxsize:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 0 (no limit) to {sys.maxsize:,}, "
            f"got {text!r}"
        )
    return number


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but its messages show each control character,
    non-printable or character above U+00FF escaped (``visible``: an
    argument echoed in an error, such as an unrecognized one, cannot drive
    the terminal, nor add a line), without 3.14's
    colours (escape sequences too); a usage error is written on standard
    error alone, a help or a version on standard output alone (nowhere
    where that is closed, never on the other); and a failed write of its
    help, its version or a usage error is the ``OSError`` that ``main``
    reports (argparse drops it, and exits 0 for a help no one could
    read)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.color = False  # read by 3.14's argparse, and by no earlier one

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse names the stream (sys.stdout for a help or a version,
        # sys.stderr for an error): None where that one is closed.
        if message and file is not None:
            encoding = getattr(file, "encoding", None)
            lines = message.split("\n")
            file.write(
                "\n".join(escaped(line, encoding, quoting=False) for line in lines)
            )
            file.flush()

    def error(self, message: str) -> NoReturn:
        self._print_message(self.format_usage(), sys.stderr)
        # One line: an argument it echoes may hold a line end of its own.
        shown = escaped(message, quoting=False)
        self.exit(2, f"{self.prog}: error: {shown}\n")


def _run(argv: Sequence[str] | None) -> int:
    parser = _Parser(
        prog=program_name(),
        description=(
            "Parse HTTP Accept, Accept-Encoding and Accept-Language values and "
            "negotiate (RFC 9110)."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"fastaccept {__version__} ({IMPLEMENTATION} engine)",
        help="print the version and the engine, and exit",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ex = commands.add_parser(
        "explain",
        help="show how a header value is read and which offer it selects",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Print the members of an Accept, Accept-Encoding or Accept-Language\n"
            "value as a table, the members lenient mode skipped (with reasons),\n"
            "for Accept the CORS-safelist verdict, and with --offer the offer a\n"
            "server would choose. Control characters, non-printables and\n"
            "characters above U+00FF (no header byte) in the value are shown\n"
            "escaped, as in a Python string (\\x1b, \\t, \\u20ac).\n"
            "A byte of VALUE the locale cannot decode is read as that byte.\n"
            "A VALUE that begins with '-' follows '--' (explain -- -x/y).\n"
            "VALUE '-' (after '--' too) reads the value from standard input,\n"
            "its bytes as they are (one line end at its end left out; past\n"
            "--max-length, counted, not kept: --json's value is its start).\n"
            "With --key, one line only: the variant key, the offer a response\n"
            "cache keys by (an empty line when no offer is acceptable)."
        ),
        epilog=EXIT_STATUS,
    )
    ex.add_argument(
        "value", metavar="VALUE", help="the header value ('-': standard input)"
    )
    ex.add_argument(
        "--header",
        type=str.lower,
        choices=HEADERS,
        default="accept",
        metavar="NAME",
        help="the header VALUE comes from: %(choices)s (default %(default)s)",
    )
    ex.add_argument(
        "--offer",
        action="append",
        default=[],
        metavar="OFFER",
        help=(
            "what the server can send (repeat, in server preference order): "
            "a media type, a content coding or a language tag, per --header"
        ),
    )
    ex.add_argument(
        "--strict",
        action="store_true",
        help="refuse (exit 1) any violation of RFC 9110 instead of skipping it",
    )
    output = ex.add_mutually_exclusive_group()
    output.add_argument(
        "--json",
        action="store_true",
        help=(
            "print one JSON document, for scripts (a refused value or offer "
            "too, with 'error' set; a usage error is text on stderr, exit 2)"
        ),
    )
    output.add_argument(
        "--key",
        action="store_true",
        help=(
            "print only the variant key, a cache key: the offer chosen, or an "
            "empty line when none is acceptable (needs --offer)"
        ),
    )
    ex.add_argument(
        "--max-length",
        type=max_length_option,
        default=DEFAULT_MAX_LENGTH,
        metavar="N",
        help=(
            f"refuse (exit 1) a value longer than N characters, in either mode "
            f"(default {DEFAULT_MAX_LENGTH}; 0 for no limit)"
        ),
    )
    given = sys.argv[1:] if argv is None else argv
    args = parser.parse_args([header_text(argument) for argument in given])
    if args.key and not args.offer:
        ex.error("--key needs at least one --offer")
    return explain(args)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``explain``; returns the exit code (``writing``)."""
    return writing(lambda: _run(argv), "fastaccept")


def writing(run: Callable[[], int], prog: str) -> int:
    """``run()``'s exit code, for a command that prints. Output (or an
    error) cut short by its reader (``| head``) ends it quietly with status
    1, as the Python documentation's "Note on SIGPIPE" does it; another
    failed write (a full disk) is said in one line after ``prog``, status 1;
    a stream the process was started without is written nowhere. (The
    benchmark harness, ``python -m benchmarks``, ends so too.)"""
    try:
        try:
            return run()
        finally:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()  # a closed pipe fails here, not at exit
    except BrokenPipeError:
        _written_nowhere()
        return 1
    except OSError as error:
        with contextlib.suppress(OSError):  # stderr may be the full one
            print(f"{prog}: cannot write: {error}", file=sys.stderr, flush=True)
        _written_nowhere()
        return 1


def _written_nowhere() -> None:
    """Python flushes stdout and stderr again at exit: there, they cannot fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            os.dup2(devnull, stream.fileno())


if __name__ == "__main__":
    sys.exit(main())
