"""``python -m fastaccept explain``."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fastaccept
from fastaccept.__main__ import (
    CONTEXT,
    HEADERS,
    STDIN_CHUNK,
    UNSAFE_LISTED,
    main,
    shorten,
    stdin_value,
)

from .conftest import ENGINES, EXAMPLES, Engine


def test_explain_prints_table_and_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "explain",
            "text/html;q=0.5, */*;q=0.1",
            "--offer",
            "application/json",
            "--offer",
            "text/html",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "#  type  subtype  params  q    specificity" in out
    assert "1  text  html     -       0.5  (2, 0)" in out
    assert "2  *     *        -       0.1  (0, 0)" in out
    assert "CORS-safelisted (Fetch): yes" in out
    assert "application/json: q=0.1" in out
    assert "chosen:  text/html (q=0.5)" in out


def test_explain_skipped_and_cors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", 'a/b;p="x", c d', "--offer", "x/y"]) == 0
    out = capsys.readouterr().out
    assert (
        "'c d' at 11: expected '/' after the type 'c', found a space (position 12)"
        in out
    )
    assert "CORS-unsafe byte 0x22 '\"' at 6" in out
    assert "chosen:  none acceptable -> answer 406" in out


@pytest.mark.parametrize(
    ("given", "value", "chosen"),
    [
        (b"text/html;q=0.5, */*;q=0.1\n", "text/html;q=0.5, */*;q=0.1", "text/html"),
        (b"text/html;q=0.5, */*;q=0.1\r\n", "text/html;q=0.5, */*;q=0.1", "text/html"),
        (b"text/html\n\n", "text/html\n", None),  # one line end left out, no more
        (b'a/b;x="\xe9"', 'a/b;x="\xe9"', None),  # bytes as they are: Latin-1
        (b"", "", None),
    ],
)
def test_explain_reads_the_value_from_standard_input(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    given: bytes,
    value: str,
    chosen: str | None,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(given)))
    assert main(["explain", "-", "--json", "--offer", "text/html"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["value"], facts["chosen"]) == (value, chosen)


def test_explain_reads_a_text_stream_or_says_there_is_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stream of text alone (no bytes under it, as IDLE's).
    monkeypatch.setattr(sys, "stdin", io.StringIO("text/html\r\n"))
    assert main(["explain", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "text/html"
    # None at all (a closed stdin): nothing to read, not an empty value.
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["explain", "-", "--json"]) == 2
    done = capsys.readouterr()
    assert done.out == ""
    assert done.err == "error: cannot read standard input: it is closed\n"


@pytest.mark.parametrize("binary", [True, False])
def test_explain_keeps_no_more_of_standard_input_than_the_limit_needs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], binary: bool
) -> None:
    """Past --max-length, standard input is counted, not kept (a stream of
    gigabytes read whole ended in MemoryError): what a refusal shows is
    kept, and it shows as the same value given as an argument does; at
    the limit, one line end is still left out."""
    size = 5 * STDIN_CHUNK + 7  # several reads, the last one short
    cases = [("a/b," * (size // 4), 10), ("a/b,c/d,e/f,g/h,i/j", 10)]
    cases += [("a/b," * 44, 100), ("a/b," * 44, 40)]  # past 2 * CONTEXT
    for data, limit in cases:
        for options in ([], ["--json"], ["--key", "--offer", "a/b"]):
            arguments = ["--max-length", str(limit), *options]
            assert main(["explain", *arguments, "--", data]) == 1
            given = capsys.readouterr()
            read = (
                io.TextIOWrapper(io.BytesIO(data.encode() + b"\n"))
                if binary
                else io.StringIO(data + "\n")
            )
            monkeypatch.setattr(sys, "stdin", read)
            assert main(["explain", "-", *arguments]) == 1
            done = capsys.readouterr()
            assert done.err == given.err
            assert bool(given.err) != (options == ["--json"])  # its error's stream
            if options == ["--json"]:  # the value's start, kept
                facts, whole = json.loads(done.out), json.loads(given.out)
                assert whole["value"].startswith(facts["value"])
                facts["value"] = whole["value"]
                assert facts == whole
            else:
                assert done.out == given.out
            read.seek(0)
            text, length = stdin_value(limit)
            assert length == len(data) and data.startswith(text)
            assert len(text) == min(len(data), max(limit, CONTEXT) + CONTEXT + 3)
    for end in ("\n", "\r\n"):  # at the limit with its line end: read
        monkeypatch.setattr(
            sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a/b,c/d" + end.encode()))
        )
        assert stdin_value(7) == ("a/b,c/d", 7)
    monkeypatch.setattr(sys, "stdin", io.StringIO("a/b,c/d\r\n\n"))
    assert stdin_value(None) == ("a/b,c/d\r\n", 9)


def test_explain_strict_exits_nonzero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "a/b c", "--strict"]) == 1
    err = capsys.readouterr().err
    assert "position 4: expected ';' or ','" in err
    assert "\n      ^" in err


def test_explain_bad_offer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "a/b", "--offer", "*/*"]) == 2
    assert "offers must be concrete" in capsys.readouterr().err


def test_module_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "fastaccept", "explain", "*/*", "--offer", "a/b"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "chosen:  a/b (q=1)" in out
    help_text = subprocess.run(
        [sys.executable, "-m", "fastaccept", "explain", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "--offer OFFER" in help_text and "--strict" in help_text


def test_explain_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["explain", "text/html;q=0.5, x y", "--offer", "text/html", "--json"]) == 0
    )
    facts = json.loads(capsys.readouterr().out)
    assert facts["ranges"] == [
        {
            "type": "text",
            "subtype": "html",
            "params": [],
            "q": 0.5,
            "specificity": [2, 0],
        }
    ]
    assert facts["skipped"][0]["position"] == 18
    assert facts["cors"]["safelisted"] is True
    assert facts["offers"] == [{"offer": "text/html", "q": 0.5}]
    assert facts["chosen"] == "text/html"


def test_explain_json_strict_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "a/b c", "--strict", "--json"]) == 1
    facts = json.loads(capsys.readouterr().out)
    assert facts["error"]["position"] == 4
    assert facts["error"]["reason"].startswith("expected ';' or ','")


def test_help_texts() -> None:
    def help_of(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "fastaccept", *args, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    top = help_of()
    assert "explain" in top and "bench" not in top  # the harness is in benchmarks/
    assert "--version" in top
    explain = help_of("explain")
    assert "--json" in explain and "--header NAME" in explain
    # the exit statuses, as explain() returns them
    assert "exit status:\n  0  the value was read" in explain
    assert "  1  the value was refused: invalid with --strict, or longer than" in (
        explain
    )
    assert "  2  a usage error" in explain
    assert "refuse (exit 1) a value longer than N characters, in either" in explain


def test_typed_usage_example_runs() -> None:
    example = EXAMPLES / "typed_usage.py"
    out = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("typed usage ok:")


def test_strict_error_output_names_the_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "text/html;q=2", "--strict"]) == 1
    out = capsys.readouterr().out
    assert f"engine:  {fastaccept.IMPLEMENTATION}" in out


def test_long_value_output_is_short_and_keeps_the_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    value = "text/html," * 919 + "a/b\x01c/d"  # 9,197 characters: over the limit
    assert len(value) > 9000
    assert main(["explain", value]) == 1
    captured = capsys.readouterr()
    assert len(captured.out) + len(captured.err) < 2000
    assert "at position 8192:" in captured.err
    assert f"({len(value)} characters)" in captured.out  # as the error writes it
    *_, shown, caret, hint = captured.err.splitlines()
    assert hint == "  (--max-length N raises the limit; --max-length 0 lifts it)"
    # The caret stands under character 8192 of the value, inside the window.
    window_start = 8192 - CONTEXT
    assert shown.startswith("  …")
    assert shown[caret.index("^")] == value[8192]
    assert shown[3 : 3 + CONTEXT] == value[window_start:8192]


def test_shorten_marks_each_elision() -> None:
    assert shorten("a/b", 1) == ("a/b", 1)
    text = "x" * 200 + "!" + "y" * 200
    shown, caret = shorten(text, 200)
    assert shown == "…" + "x" * CONTEXT + "!" + "y" * (CONTEXT - 1) + "…"
    assert shown[caret] == "!"


def test_unsafe_bytes_are_counted_past_a_screenful(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "a/b;p=" + '"(x)"' * 30]) == 0
    out = capsys.readouterr().out
    assert out.count("CORS-unsafe byte") == UNSAFE_LISTED
    assert f"… and {30 * 4 - UNSAFE_LISTED} more" in out


def test_the_console_script_names_itself() -> None:
    script = Path(sys.executable).with_name("fastaccept")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    out = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("usage: fastaccept ")
    module = subprocess.run(
        [sys.executable, "-m", "fastaccept", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert module.startswith("usage: python -m fastaccept ")


def run_cli(
    engine: Engine, *args: str, stdout: int = subprocess.PIPE, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m fastaccept ARGS`` in a new process on ``engine``, with
    ``env`` added to the environment; stderr captured, stdout unless given."""
    pure = "1" if engine is ENGINES["python"] else ""
    return subprocess.run(
        [sys.executable, "-m", "fastaccept", *args],
        env={**os.environ, "FASTACCEPT_NO_EXTENSIONS": pure, **env},
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_version_names_the_engine(engine: Engine) -> None:
    done = run_cli(engine, "--version")
    name = "python" if engine is ENGINES["python"] else "cython"
    assert done.returncode == 0
    assert done.stdout == f"fastaccept {fastaccept.__version__} ({name} engine)\n"


def test_the_version_tells_an_unreleased_build_from_the_release() -> None:
    # Changes under "Unreleased" on top of the last release: a development
    # version of the next one (PEP 440), never the released number again.
    changelog = Path(__file__).resolve().parent.parent / "CHANGELOG.md"
    if not changelog.exists():
        pytest.skip("no CHANGELOG.md beside the tests")
    text = changelog.read_text(encoding="utf-8")
    released = re.search(r"^## \[(\d+)\.(\d+)\.(\d+)\] - ", text, re.MULTILINE)
    assert released is not None
    last = tuple(map(int, released.groups()))
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0].strip()
    if unreleased:
        dev = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)\.dev\d+", fastaccept.__version__)
        assert dev is not None, fastaccept.__version__
        assert tuple(map(int, dev.groups())) > last
    else:
        assert fastaccept.__version__ == ".".join(map(str, last))


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_an_over_long_value_is_refused_in_both_modes(
    strict: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # as the library refuses it (docs/rules.md rule 8), so exit 1, as the
    # help says; --max-length 0 lifts the limit
    value = "a/b," * 30
    assert main(["explain", value, "--max-length", "100", *strict]) == 1
    err = capsys.readouterr().err
    assert "over the limit of 100" in err and "--max-length 0 lifts it" in err
    assert main(["explain", value, "--max-length", "0", *strict]) == 0
    assert main(["explain", value, "--max-length", "120", *strict]) == 0


@pytest.mark.parametrize(
    "given",
    # int() reads a sign, "_" and spaces too (U+00A0 and U+0085 among them:
    # bytes the locale could not decode, read as those bytes)
    [
        "1" + "0" * 30,
        str(sys.maxsize + 1),
        "-1",
        "ten",
        "1.5",
        "",
        "+5",
        "1_000",
        " 5",
        "5\xa0",
        "\x855",
    ],
)
def test_max_length_out_of_range_is_a_usage_error(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["explain", "a/b", "--max-length", given])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    expected = f"a whole number from 0 (no limit) to {sys.maxsize:,}, got {given!r}"
    assert f"argument --max-length: expected {expected}" in err


def test_the_largest_max_length_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "a/b", "--max-length", str(sys.maxsize)]) == 0
    assert "1  a     b" in capsys.readouterr().out


def test_max_length_is_ascii_digits_with_any_leading_zeros(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # int() reads other scripts' digits, and refuses 4,301 digits with a
    # message of argparse's own ("invalid max_length_option value")
    assert main(["explain", "a/b", "--max-length", "0" * 5000 + "2"]) == 1
    assert "over the limit of 2" in capsys.readouterr().err
    for digits in ("\u0665", "\uff15", "1" * 5000):
        with pytest.raises(SystemExit) as exit:
            main(["explain", "a/b", "--max-length", digits])
        assert exit.value.code == 2
        assert "--max-length: expected a whole number" in capsys.readouterr().err


def test_a_huge_max_length_no_longer_crashes_the_cli(engine: Engine) -> None:
    # The Cython engine raised OverflowError past sys.maxsize (the CLI
    # passed the number on); the CLI now refuses it, on both engines.
    done = run_cli(engine, "explain", "a/b", "--max-length", str(10**30))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "argument --max-length: expected a whole number" in done.stderr


def json_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """The exit status of ``explain ARGS --json`` and the document it prints."""
    code = main(["explain", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("header", "valid", "invalid", "offers"),
    [
        ("accept", "text/html;q=0.5", "text/html;q=2", ["text/html"]),
        ("accept-encoding", "gzip;q=0.5", "gzip;q=2", ["gzip"]),
        ("accept-language", "en;q=0.5", "en_US", ["en"]),
    ],
)
@pytest.mark.parametrize("with_offers", [False, True])
def test_a_json_error_is_laid_out_as_a_result(
    header: str,
    valid: str,
    invalid: str,
    offers: list[str],
    with_offers: bool,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = [arg for offer in offers for arg in ("--offer", offer)] * with_offers
    args = ["--header", header, "--strict", *given]
    code, result = json_of([valid, *args], capsys)
    assert code == 0 and result["error"] is None
    code, refused = json_of([invalid, *args], capsys)
    assert code == 1
    assert list(refused) == list(result)  # the same keys, in the same order
    error = refused.pop("error")
    assert set(error) == {"message", "position", "reason"}
    assert error["message"].startswith(f"invalid {result['header']} value at")
    assert error["message"].endswith(error["reason"])
    assert error["position"] == (2 if header == "accept-language" else len(invalid) - 1)
    assert refused == {
        "value": invalid,
        "header": result["header"],
        "engine": fastaccept.IMPLEMENTATION,
        **{key: None for key in refused if key not in ("value", "header", "engine")},
    }


def test_a_json_usage_error_is_a_document_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, refused = json_of(["a/b", "--offer", "*/*"], capsys)
    assert code == 2
    unknown = ("ranges", "skipped", "cors", "offers", "chosen")  # README's list
    assert [refused[key] for key in unknown] == [None] * 5
    assert (refused["value"], refused["header"]) == ("a/b", "Accept")
    assert (refused["error"]["position"], refused["error"]["reason"]) == (None, None)
    assert "offers must be concrete" in refused["error"]["message"]
    code, over = json_of(["a/b," * 3000], capsys)
    assert code == 1
    assert over["error"]["position"] == 8192
    assert over["value"] == "a/b," * 3000


def test_a_weighted_offer_is_refused_without_advice_the_command_cannot_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The command line has no server weight (qs): the message says where one
    # is given, in a program.
    assert main(["explain", "text/html", "--offer", "text/html;q=0.5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: invalid offer 'text/html;q=0.5': an offer takes no")
    assert "given in a program as a pair (media type, qs)" in err


def test_explain_accept_encoding(capsys: pytest.CaptureFixture[str]) -> None:
    value = "gzip;q=0.5, br, x y, *;q=0"
    offers = ["gzip", "identity", "br"]
    args = ["explain", value, "--header", "accept-encoding"]
    assert main([*args, *(f"--offer={o}" for o in offers)]) == 0
    out = capsys.readouterr().out
    assert "\ncodings (3):\n  #  coding  q\n  1  gzip    0.5\n  2  br      1\n" in out
    assert "  3  *       0\n" in out
    assert "'x y' at 16: expected ';' or ',' after the coding 'x'" in out
    assert "CORS" not in out  # Fetch's accept rule is for Accept only
    assert "  gzip: q=0.5\n  identity: q=0\n  br: q=1\nchosen:  br (q=1)\n" in out
    assert fastaccept.negotiate_encoding(value, offers) == "br"
    code, facts = json_of([value, "--header", "accept-encoding"], capsys)
    assert code == 0 and facts["header"] == "Accept-Encoding"
    assert facts["codings"][0] == {"coding": "gzip", "q": 0.5}
    assert main([*args, "--offer", "gzip;q=1"]) == 2
    assert "invalid coding" in capsys.readouterr().err


def test_explain_accept_language(capsys: pytest.CaptureFixture[str]) -> None:
    value = "en-US, en;q=0.5, de;q=0.8"
    args = ["explain", value, "--header", "Accept-Language"]  # any case
    assert main([*args, "--offer", "en", "--offer", "de"]) == 0
    out = capsys.readouterr().out
    assert "\nlanguage ranges (3):\n  #  range  q\n  1  en-us  1\n" in out
    assert "\nskipped (0):\n  none\n\noffers:\n  en: q=0.5\n  de: q=0.8\n" in out
    assert out.endswith("chosen:  de (q=0.8)\n")
    assert main(["explain", "x_y", "--header", "accept-language", "--offer", "en"]) == 0
    out = capsys.readouterr().out
    assert "  none: a present header with no valid member accepts nothing" in out
    assert "chosen:  none acceptable -> answer 406 Not Acceptable" in out


@pytest.mark.parametrize(
    ("value", "advice"),
    [
        ("gzip", "answer 406 Not Acceptable, or send identity anyway"),
        ("", "answer 406 Not Acceptable, or send identity anyway"),  # identity only
        (
            "gzip, identity;q=0",
            "answer 406 Not Acceptable (the value refuses identity too)",
        ),
        ("gzip, *;q=0", "answer 406 Not Acceptable (the value refuses identity too)"),
        ("*;q=0, identity;q=0.5", "answer 406 Not Acceptable, or send identity anyway"),
    ],
)
def test_explain_advises_identity_only_where_the_value_accepts_it(
    value: str, advice: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 9110 §12.5.3 (rule 18): identity is acceptable unless the value
    # refuses it, by its own entry at q=0 or by "*;q=0" without one.
    assert main(["explain", value, "--header", "accept-encoding", "--offer", "br"]) == 0
    assert capsys.readouterr().out.endswith(f"chosen:  none acceptable -> {advice}\n")


def test_an_unknown_header_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["explain", "a/b", "--header", "content-type"])
    assert exit.value.code == 2
    assert "argument --header: invalid choice: 'content-type'" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "text/html", "\x1b]0;pwned\x07\x1b[2J"],  # unrecognized
        ["explain", "text/html", "--he=\x1b[31mX"],  # ambiguous
        ["explain", "text/html", "-\x1b"],
    ],
)
def test_an_argument_echoed_in_a_usage_error_is_escaped(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse wrote these raw: an escape sequence in an unquoted header
    # value set the terminal's title or cleared it.
    with pytest.raises(SystemExit) as exit:
        main(args)
    assert exit.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "\\x1b" in captured.err
    assert not any(char < " " and char != "\n" for char in captured.err)


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\u2028"])
def test_a_line_end_in_an_echoed_argument_adds_no_line(
    line_end: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The usage, then one line of error: an argument's own line end is shown
    # escaped, so it cannot fake a line of the program's (or a shell's).
    with pytest.raises(SystemExit) as exit:
        main(["explain", "a/b", f"x{line_end}fastaccept: ok"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    usage, error, end = err.split("\n")
    assert usage.startswith("usage: ") and end == ""
    escaped = line_end.encode("unicode_escape").decode()
    assert error.endswith(f"error: unrecognized arguments: x{escaped}fastaccept: ok")


def test_the_help_is_written_without_colours(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # CPython 3.14's argparse colours a help where it may (FORCE_COLOR): its
    # escape sequences would be shown escaped, as an argument's are.
    for name in ("NO_COLOR", "PYTHON_COLORS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    with pytest.raises(SystemExit) as exit:
        main(["explain", "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    # (The help's own text names the escape \x1b: no sequence follows it.)
    assert out.startswith("usage: ") and "\\x1b[" not in out and "\x1b" not in out


def test_a_usage_error_is_not_written_on_stdout_without_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # argparse wrote the usage on stdout where stderr was closed: a script
    # reading --key's output got it.
    monkeypatch.setattr(sys, "stderr", None)
    with pytest.raises(SystemExit) as exit:
        main(["explain", "--key", "text/html"])
    assert exit.value.code == 2
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["explain", "--help"]])
def test_a_help_or_version_is_not_written_on_stderr_without_stdout(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The mirror of the test above: argparse gave its own print None for
    # the closed standard output, which its _print_message read as stderr.
    monkeypatch.setattr(sys, "stdout", None)
    with pytest.raises(SystemExit) as exit:
        main(args)
    assert exit.value.code == 0
    assert capsys.readouterr().err == ""


def test_a_standard_input_that_cannot_be_read_is_a_usage_error(
    engine: Engine, tmp_path: Path
) -> None:
    # It was "cannot write", exit 1: the status of a refused value.
    pure = "1" if engine is ENGINES["python"] else ""
    with (tmp_path / "written").open("wb") as stdin:  # for writing alone
        done = subprocess.run(
            [sys.executable, "-m", "fastaccept", "explain", "-"],
            env={**os.environ, "FASTACCEPT_NO_EXTENSIONS": pure},
            stdin=stdin,
            capture_output=True,
            text=True,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: cannot read standard input: ")


@pytest.mark.skipif(sys.platform == "win32", reason="preexec_fn is POSIX's")
def test_a_closed_standard_input_is_one_that_cannot_be_read(engine: Engine) -> None:
    # Closed (`0<&-`), it was read as an empty value, explained, exit 0.
    pure = "1" if engine is ENGINES["python"] else ""
    closed = subprocess.run(
        [sys.executable, "-m", "fastaccept", "explain", "-"],
        env={**os.environ, "FASTACCEPT_NO_EXTENSIONS": pure},
        preexec_fn=lambda: os.close(0),
        capture_output=True,
        text=True,
    )
    assert (closed.returncode, closed.stdout) == (2, "")
    assert closed.stderr == "error: cannot read standard input: it is closed\n"


@pytest.mark.parametrize(
    ("header", "value", "offers", "key"),
    [
        (
            "accept",
            "text/html;q=0.5, */*;q=0.1",
            ["application/json", "text/html"],
            "text/html",
        ),
        ("accept", "image/png", ["application/json", "text/html"], ""),
        ("accept-encoding", "gzip;q=0.5, br", ["gzip", "br"], "br"),
        ("accept-encoding", "identity;q=0", ["identity"], ""),
        ("accept-language", "de-AT, en;q=0.5", ["en", "de"], "de"),
        ("accept-language", "fr", ["en", "de"], ""),
    ],
)
def test_explain_key_prints_the_variant_key_alone(
    header: str,
    value: str,
    offers: list[str],
    key: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = [arg for offer in offers for arg in ("--offer", offer)]
    assert main(["explain", value, "--header", header, *given, "--key"]) == 0
    captured = capsys.readouterr()
    assert captured.out == key + "\n"  # one line; empty: no offer is acceptable
    assert captured.err == ""
    assert HEADERS[header].negotiator(offers).variant_key(value) == key


def test_explain_key_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    # a refused value: nothing on stdout, the error on stderr, exit 1
    for args in (["text/html;q=2", "--strict"], ["a/b," * 30, "--max-length", "100"]):
        assert main(["explain", *args, "--offer", "text/html", "--key"]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith("error: invalid Accept value at position")
    # lenient, the invalid member is skipped as a negotiator skips it
    assert main(["explain", "text/html;q=2, */*;q=0.1", "--offer", "a/b", "--key"]) == 0
    assert capsys.readouterr().out == "a/b\n"
    assert main(["explain", "a/b", "--offer", "*/*", "--key"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "offers must be concrete" in captured.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--key"], "--key needs at least one --offer"),
        (["--key", "--json", "--offer", "a/b"], "not allowed with argument"),
    ],
)
def test_explain_key_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["explain", "a/b", *args])
    assert exit.value.code == 2
    assert message in capsys.readouterr().err


def test_explain_key_in_a_new_process(engine: Engine) -> None:
    done = run_cli(engine, "explain", "*/*", "--offer", "a/b", "--key")
    assert (done.returncode, done.stdout, done.stderr) == (0, "a/b\n", "")
    help_text = run_cli(engine, "explain", "--help").stdout
    assert "With --key, one line only: the variant key" in help_text
    assert "cache keys by (an empty line when no offer is acceptable)." in help_text


@pytest.mark.parametrize(
    ("offer", "cell"),
    [('text/html;x="a\\"b"', 'x="a\\"b"'), ('text/html;x="\\\\"', 'x="\\\\"')],
)
def test_header_syntax_is_shown_with_its_own_backslashes(
    offer: str, cell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the variant key as it is, for a script's $(...)
    assert main(["explain", "text/html", "--offer", offer, "--key"]) == 0
    assert capsys.readouterr().out == offer + "\n"
    # the table's cells and the offers are header syntax: one backslash each
    assert main(["explain", offer, "--offer", offer]) == 0
    out = capsys.readouterr().out
    assert f"  1  text  html     {cell}  1  (2, 1)\n" in out
    assert f"\n  {offer}: q=1\nchosen:  {offer} (q=1)\n" in out
    # the value itself is shown as a Python string: its backslashes doubled
    assert f"value:   {offer!r}\n" in out


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ('a/b;x="\udce9"', 'a/b;x="\xe9"'),  # the byte 0xE9 the locale could not decode
        ('a/b;x="\xe9"', 'a/b;x="\xe9"'),  # é, decoded: the same header byte
        ('a/b;x="\udc80"', 'a/b;x="\x80"'),  # the lowest byte the locale can leave
    ],
)
def test_an_undecoded_byte_is_that_byte(
    argument: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", argument, "--strict", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["value"] == value
    assert facts["ranges"][0]["params"] == [["x", value[7:-1]]]
    # an offer's the same way
    assert main(["explain", value, "--offer", argument, "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["chosen"], facts["offers"]) == (value, [{"offer": value, "q": 1.0}])


def test_a_usage_error_echoes_an_undecoded_byte_as_that_byte(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # argparse's own message showed the locale's escape ('accept\udcff'),
    # where the value and the offers show the byte read.
    for option, argument, shown in (
        ("--header", "accept\udcff", "'accept\xff'"),
        ("--max-length", "1\udcff", "'1\xff'"),
        ("--max-length", "5\udca0", "'5\\xa0'"),  # no space to int(): refused
    ):
        with pytest.raises(SystemExit) as exit:
            main(["explain", "a/b", option, argument])
        assert exit.value.code == 2
        err = capsys.readouterr().err
        assert f"got {shown}" in err or f"choice: {shown}" in err, err
        assert "udc" not in err


def test_output_goes_nowhere_without_its_stream(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python gives None for a stream whose descriptor was closed at start.
    # capsys first: torn down last, after monkeypatch has put its own stream
    # back, so the real one is restored (with -s too, tools/sanitize.sh's).
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["explain", "a/b"]) == 0
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["explain", "a/b", "--offer", "x"]) == 2  # a bad offer, as documented


@pytest.mark.parametrize(
    ("args", "status", "written"),
    [
        (["a/b", "--offer", "x"], 2, {"stderr"}),  # the error alone is written
        (["a/b;q=2", "--strict"], 1, {"stdout", "stderr"}),
    ],
)
def test_a_closed_stream_ends_quietly(
    engine: Engine, args: list[str], status: int, written: set[str]
) -> None:
    for closed in ("stdout", "stderr"):
        reading, writing = os.pipe()
        os.close(reading)  # every write fails: EPIPE
        pure = "1" if engine is ENGINES["python"] else ""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        done = subprocess.run(
            [sys.executable, "-m", "fastaccept", "explain", *args],
            env={**env, "FASTACCEPT_NO_EXTENSIONS": pure},  # buffered, as by default
            stdin=subprocess.DEVNULL,
            stdout=writing if closed == "stdout" else subprocess.DEVNULL,
            stderr=writing if closed == "stderr" else subprocess.PIPE,
        )
        os.close(writing)
        # output cut short ends quietly with 1; else the status as documented
        assert done.returncode == (1 if closed in written else status), closed
        if closed == "stdout":
            assert done.stderr.startswith(b"error: " if status == 2 else b"")
            assert b"Traceback" not in done.stderr


def test_a_long_member_is_shown_by_its_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "a/" + "b" * 5000, "--max-length", "0"]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) < 3 * CONTEXT + 20
    assert f"  1  a     {'b' * 2 * CONTEXT}…  " in out
    assert main(["explain", "x"]) == 0
    assert "yes, 1 character (limit 128)" in capsys.readouterr().out


def test_a_value_beginning_with_a_dash_follows_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "--", "-x/y"]) == 0
    assert "'-x/y'" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    assert "'-' follows '--' (explain -- -x/y)" in capsys.readouterr().out
    assert main(["explain", "a\udcff/b", "--strict"]) == 1  # 0xFF: no tchar
    assert "found byte 0xFF" in capsys.readouterr().err


def test_the_max_length_hint_follows_an_over_long_value_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # an invalid value of exactly --max-length characters: no hint to raise it
    assert main(["explain", "a/b c", "--strict", "--max-length", "5"]) == 1
    err = capsys.readouterr().err
    assert "at position 4: expected ';' or ','" in err
    assert "--max-length" not in err


def test_an_empty_value_is_zero_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", ""]) == 0
    assert "CORS-safelisted (Fetch): yes, 0 characters (limit 128)\n" in (
        capsys.readouterr().out
    )


def test_unsafe_bytes_up_to_a_screenful_are_all_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "a/b;p=" + '"(x)"' * (UNSAFE_LISTED // 4)]) == 0
    out = capsys.readouterr().out
    assert out.count("CORS-unsafe byte") == UNSAFE_LISTED
    assert "more" not in out


def test_a_member_of_two_contexts_is_shown_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "a/" + "b" * 2 * CONTEXT]) == 0
    assert f"  1  a     {'b' * 2 * CONTEXT}  -       1  (2, 0)\n" in (
        capsys.readouterr().out
    )
