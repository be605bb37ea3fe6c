"""``python -m fastaccept explain``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest

import fastaccept
from fastaccept.__main__ import CONTEXT, UNSAFE_LISTED, main, shorten

from .conftest import EXAMPLES, skip_or_fail


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
    assert "explain" in top and "bench" in top
    bench = help_of("bench")
    assert "--quick" in bench and "--growth" in bench and "--peer NAME" in bench
    assert "--threads" in bench and "--plot DIR" in bench
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


def test_bench_threads_smoke_run(capsys: pytest.CaptureFixture[str]) -> None:
    # Quick mode: the table's shape, not its figures (CI runs it so it cannot rot).
    assert main(["bench", "--threads", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "GIL" in out and "QUICK MODE" in out
    assert "| 1 thread (k calls/s) | 2 threads (k calls/s) |" in out
    rows = [line for line in out.splitlines() if line.startswith("|")]
    for workload in (
        "negotiate, cold, offers a tuple",
        "negotiate, cold, offers a list",
        "Negotiator.choose, hot, own",
        "Negotiator.choose, hot, shared",
        "parse, cold",
        "Produces.select, hot, shared",
        "dict.get, shared dict",
    ):
        # each row ends with the 2-thread / 1-thread ratio
        assert any(f" {workload} |" in r and r.endswith("x |") for r in rows), workload


def test_bench_threads_counts_every_call_of_every_thread() -> None:
    from fastaccept._bench_threads import throughput

    made: list[int] = []
    done: list[int] = []

    def make(thread: int) -> Callable[[int], None]:
        made.append(thread)
        return done.append

    rate = throughput(make, 3, 500)
    assert sorted(made) == [0, 1, 2]
    # each thread: a warm-up of 100 calls, then the 500 timed ones
    assert sorted(done) == [100, 100, 100, 500, 500, 500]
    assert rate > 0


def test_bench_threads_reports_a_failing_thread_instead_of_waiting() -> None:
    from fastaccept._bench_threads import throughput

    def make(thread: int) -> Callable[[int], None]:
        if thread == 1:
            raise LookupError("thread 1 could not start")
        return lambda calls: None

    with pytest.raises(LookupError, match="thread 1"):
        throughput(make, 3, 10)


def needs_matplotlib() -> None:
    """Skip without matplotlib (the [plot] extra); fail under
    FASTACCEPT_REQUIRE_DOCS, which CI sets: the docs show these charts."""
    if importlib.util.find_spec("matplotlib") is None:
        reason = "matplotlib is not installed (the [plot] extra)"
        skip_or_fail(reason, "FASTACCEPT_REQUIRE_DOCS")


def test_bench_plot_writes_the_charts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    needs_matplotlib()
    from fastaccept import _bench, _bench_lists

    # 1 and 2 KiB: the charts' shape without werkzeug's quadratic seconds
    for module in (_bench, _bench_lists):
        monkeypatch.setattr(module, "GROWTH_SIZES", (_bench.KIB, 2 * _bench.KIB))
    charts = tmp_path / "new" / "charts"
    argv = ["bench", "--quick", "--growth", "--peer", "werkzeug", "--plot"]
    assert main([*argv, str(charts)]) == 0
    out, err = capsys.readouterr()
    assert "negotiate(value, offers), cold" in out and "charts: " in err
    expected = {  # the title and legend labels each chart holds (SVG comments)
        "cold.svg": ["negotiate(value, offers), cold", "chrome-navigate"],
        "cold-encoding-language.svg": ["negotiate_encoding", "en-US,en;q=0.9"],
        "growth.svg": ["spaces before a bad byte", "linear", "ms per call"],
        "growth-all.svg": [*_bench.SHAPES, "linear"],
    }
    assert sorted(path.name for path in charts.iterdir()) == sorted(expected)
    for name, texts in expected.items():
        svg = (charts / name).read_text(encoding="utf-8")
        assert ElementTree.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
        for text in [*texts, "fastaccept cython", "fastaccept python", "werkzeug"]:
            assert text in svg, (name, text)
        assert "webob" not in svg and "QUICK MODE" in svg


def test_bench_plot_is_deterministic(tmp_path: Path) -> None:
    needs_matplotlib()
    from fastaccept._bench import KIB, Measured
    from fastaccept._bench_plot import plot

    measured = Measured(
        machine="a machine",
        cold={"json": {"cython": 1e-7, "python": 2e-6, "falcon": 6e-6}},
        lists_cold={"encoding: br": {"cython": 1e-7, "webob": 9e-6}},
        sizes=(KIB, 16 * KIB),
        growth={"spaces before a bad byte": {"werkzeug": [0.003, None]}},
    )
    first = plot(measured, tmp_path)
    again = [path.read_bytes() for path in first]
    assert [path.name for path in first] == [
        "cold.svg",
        "cold-encoding-language.svg",
        "growth.svg",
        "growth-all.svg",
    ]
    assert [path.read_bytes() for path in plot(measured, tmp_path)] == again
    assert b"&gt; cap" in again[2] or b"> cap" in again[2]


def test_bench_plot_without_matplotlib_fails_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import fastaccept.__main__

    def measure(*args: object) -> str:
        raise AssertionError("measured before checking for matplotlib")

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    monkeypatch.setattr(fastaccept.__main__, "report", measure)
    charts = tmp_path / "charts"
    assert main(["bench", "--quick", "--plot", str(charts)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not charts.exists()
    assert err.count("\n") == 1
    assert err.startswith("error: --plot needs matplotlib")
    assert "pip install 'fastaccept[plot]'" in err


def test_bench_plot_is_not_for_threads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["bench", "--threads", "--plot", "charts"])
    assert exit.value.code == 2
    assert "not allowed with argument --threads" in capsys.readouterr().err


def test_only_the_plotting_imports_matplotlib() -> None:
    code = (
        "import sys, fastaccept, fastaccept.__main__, fastaccept._bench_plot;"
        "assert 'matplotlib' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_growth_projection_follows_the_measured_power() -> None:
    from fastaccept._bench import projected

    sizes = (1, 16, 256)
    assert projected([0.001], sizes, 1) == pytest.approx(0.256)  # one size: n**2
    assert projected([0.001, 0.016], sizes, 2) == pytest.approx(0.256)  # linear
    assert projected([0.001, 0.256], sizes, 2) == pytest.approx(0.256 * 256)
    assert projected([0.001, 0.002], sizes, 2) == pytest.approx(0.032)  # not below n
