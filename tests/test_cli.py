"""``python -m fastaccept explain``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import fastaccept
from fastaccept.__main__ import CONTEXT, UNSAFE_LISTED, main, shorten

from .conftest import EXAMPLES


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
    assert "--offer TYPE" in help_text and "--strict" in help_text


def test_explain_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

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
    import json

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
    assert "--json" in help_of("explain")


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
    assert f"({len(value):,} characters)" in captured.out
    shown, caret = captured.err.splitlines()[-2:]
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
