"""What ``python -m fastaccept explain`` writes reaches any terminal safely:
a value's control characters escaped, the caret under the escaped form, no
crash on a narrow output encoding, a quiet exit when the reader goes away."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept.__main__ import CONTEXT, main, quoted, shorten, visible

from .conftest import ENGINES, Engine
from .test_cli import run_cli

#: (value, what --strict shows of it, the caret's column in that form): each
#: value is invalid at the character the caret stands under.
ESCAPED = [
    ("a/b\x1b[31m c", r"a/b\x1b[31m c", 3),  # ESC: a terminal command
    ("\ta/b\t c", r"\ta/b\t c", 8),  # tabs before the position
    ("a/b;p\t=1", r"a/b;p\t=1", 5),  # a tab at the position
    ("a/b\x7f", r"a/b\x7f", 3),  # DEL
    ("a/\x00b", r"a/\x00b", 2),  # NUL
    ("text/é", "text/é", 5),  # printable Latin-1: itself
    ("text/\xa0x", r"text/\xa0x", 5),  # no-break space: not printable
    ("a/b\u202e c", r"a/b\u202e c", 3),  # right-to-left override: no header byte
    ('a/b;p="x\\y" c', r'a/b;p="x\\y" c', 13),  # a backslash, doubled
]


@pytest.mark.parametrize(("value", "shown", "column"), ESCAPED)
def test_strict_errors_show_escapes_and_the_caret_under_them(
    value: str, shown: str, column: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", value, "--strict"]) == 1
    out, err = capsys.readouterr()
    assert all(line.isprintable() for line in (out + err).splitlines())
    assert out.splitlines()[0] == f"value:   '{shown}'"
    position = int(err.split(" at position ")[1].split(":")[0])
    assert err.splitlines()[-2:] == [f"  {shown}", "  " + " " * column + "^"]
    assert shown[column:].startswith(visible(value[position]))


def test_skipped_members_tables_and_offers_are_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    offer = 'a/b;p="x\ty"'
    assert main(["explain", f"{offer}, c\x1bd/e", "--offer", offer]) == 0
    out = capsys.readouterr().out
    assert all(line.isprintable() for line in out.splitlines())
    assert '  1  a     b        p="x\\ty"  1  (2, 1)' in out
    assert r"'c\x1bd/e' at 13: expected '/' after the type 'c'" in out
    assert r"CORS-unsafe byte 0x1B '\x1b' at 14" in out
    assert out.endswith('chosen:  a/b;p="x\\ty" (q=1)\n')


@pytest.mark.parametrize(
    "value",
    ["a/b", 'a/b;p="\'"', "a/b;p='x'", "x'y\"z", "é/*", "\xff/*", "x" * 2 * CONTEXT],
)
def test_values_are_quoted_as_repr_quotes_them(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["explain", value])
    assert capsys.readouterr().out.startswith(f"value:   {value!r}\n")


#: Any str, lone surrogates too (a command line's undecodable bytes).
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=2 * CONTEXT)
ENCODINGS = st.sampled_from([None, "utf-8", "latin-1", "ascii", "cp437"])


@given(ANY_TEXT, ENCODINGS)
def test_a_quoted_value_is_a_python_literal_of_it(
    text: str, encoding: str | None
) -> None:
    shown = quoted(text, encoding)
    assert ast.literal_eval(shown) == text
    assert shown.isprintable()
    if encoding is not None:
        shown.encode(encoding)  # the stream can write it as it is


@given(ANY_TEXT, st.data(), ENCODINGS)
def test_the_caret_stands_under_the_shown_character(
    text: str, data: st.DataObject, encoding: str | None
) -> None:
    position = data.draw(st.integers(0, len(text)))
    shown, caret = shorten(text, position, encoding)
    assert shown.isprintable()
    rest = shown[caret:]
    if position < len(text):
        assert rest.startswith(visible(text[position], encoding))
    else:  # the end of the value: the caret stands past it
        assert rest == ""


def written(encoding: str, *args: str) -> tuple[int, str, str]:
    """The status, stdout and stderr of ``main(args)`` on streams of
    ``encoding`` that raise on a character they cannot encode."""
    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    out.flush()
    err.flush()
    out_bytes, err_bytes = (stream.buffer.getvalue() for stream in (out, err))
    return status, out_bytes.decode(encoding), err_bytes.decode(encoding)


@pytest.mark.thread_unsafe(reason="redirects the process's stdout and stderr")
def test_an_ascii_output_gets_escapes_not_a_crash() -> None:
    status, out, err = written("ascii", "explain", "text/html;q=0.5, é/*")
    assert status == 0 and err == ""
    assert r"value:   'text/html;q=0.5, \xe9/*'" in out
    assert r"'\xe9/*' at 17: expected a media type" in out
    status, out, err = written("ascii", "explain", "text/html;q=0.5, é/*", "--strict")
    assert status == 1
    assert err.endswith("  text/html;q=0.5, \\xe9/*\n" + " " * 19 + "^\n")
    # the library's own message: its section sign, escaped by the stream
    status, out, err = written("ascii", "explain", "a/b;q=2", "--strict")
    assert r"(RFC 9110 \xa712.4.2)" in err
    # an elision and a count past a screenful: "..." for "…"
    status, out, err = written("ascii", "explain", "a/b;p=" + '"(x)"' * 30)
    assert status == 0
    assert "'a/b;p=" in out and "...' (156 characters)" in out
    assert "  ... and 100 more" in out
    status, out, err = written("ascii", "explain", "a/b," * 3000)
    assert status == 1 and "\n  ...a/b," in err


@pytest.mark.thread_unsafe(reason="redirects the process's stdout and stderr")
def test_a_latin_1_output_shows_latin_1_and_escapes_the_rest() -> None:
    status, out, _ = written("latin-1", "explain", "é/*, 中/*")
    assert status == 0
    assert r"value:   'é/*, \u4e2d/*'" in out
    assert "CORS-unsafe character U+4E2D (not a header byte) at 5" in out
    assert "… and" not in out


@pytest.mark.thread_unsafe(reason="redirects the process's stdout and stderr")
def test_json_names_a_code_point_so() -> None:
    status, out, _ = written("utf-8", "explain", '中/*, a/"', "--json")
    assert status == 0
    unsafe = json.loads(out)["cors"]["unsafe"]
    assert unsafe == [
        {"index": 0, "code_point": 0x4E2D},
        {"index": 7, "code_point": 0x22},
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "text/html;q=0.5, é/*"],
        ["explain", "text/html;q=0.5, é/*", "--strict"],
        ["explain", "é", "--header", "accept-language", "--offer", "en"],
        ["explain", "a/b;q=2", "--json", "--strict"],
        ["explain", "--help"],
    ],
)
def test_ascii_io_encoding_never_crashes(engine: Engine, args: list[str]) -> None:
    done = run_cli(engine, *args, PYTHONIOENCODING="ascii")
    assert done.returncode in (0, 1)
    assert "Traceback" not in done.stderr
    assert done.stdout.isascii() and done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "a/b"],
        ["explain", "a/b," * 3000, "--max-length", "0"],  # past the pipe's buffer
        ["explain", "a/b", "--json"],
        ["--help"],
    ],
)
def test_a_closed_pipe_ends_it_quietly(engine: Engine, args: list[str]) -> None:
    # `... | head -1`: the reader has gone; as the Python docs' "Note on
    # SIGPIPE" recommends, no traceback and status 1
    read, write = os.pipe()
    os.close(read)
    try:
        done = run_cli(engine, *args, stdout=write)
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 1  # the help's too (argparse would drop it, 0)


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_reader_gone_midway_ends_it_with_status_1(
    engine: Engine, unbuffered: str
) -> None:
    # `... --json | head -c 100`: the reader leaves once the output has
    # begun. Unbuffered (PYTHONUNBUFFERED, python -u), the text stream
    # dropped what the short write left, unsaid: status 0.
    value = ", ".join(f"a{i}/b{i};q=0.5" for i in range(4000))
    args = ["explain", value, "--max-length", "0", "--json"]  # 671 KB of JSON
    pure = "1" if engine is ENGINES["python"] else ""
    env = {"FASTACCEPT_NO_EXTENSIONS": pure, "PYTHONUNBUFFERED": unbuffered}
    with subprocess.Popen(
        [sys.executable, "-m", "fastaccept", *args],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(100).startswith(b"{")
        process.stdout.close()
        stderr = process.stderr.read()
    assert (process.returncode, stderr) == (1, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize(
    "args",
    [
        ["explain", "a/b"],
        ["explain", "a/b", "--json"],
        ["--help"],  # argparse drops the failed write of a help, and exits 0
        ["--version"],
        ["explain", "--help"],
    ],
)
def test_a_failed_write_is_said_without_a_traceback(
    engine: Engine, args: list[str]
) -> None:
    # `... > /dev/full`: every write fails with ENOSPC
    with open("/dev/full", "w") as full:
        done = run_cli(engine, *args, stdout=full.fileno())
    assert done.returncode == 1
    assert done.stderr.startswith("fastaccept: cannot write: [Errno 28]"), done.stderr
    assert "Traceback" not in done.stderr
