"""The benchmark harness itself (``python -m benchmarks``): its tables, the
threads' count, the charts; no timing is judged. Run with the benchmarks:
``pytest benchmarks/ --benchmark-disable``."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest

from . import __main__ as harness
from .__main__ import main

ROOT = Path(__file__).resolve().parent.parent


def test_help_text() -> None:
    bench = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert bench.startswith("usage: python -m benchmarks ")
    assert "--quick" in bench and "--growth" in bench and "--peer NAME" in bench
    assert "--threads" in bench and "--plot DIR" in bench


def test_bench_threads_smoke_run(capsys: pytest.CaptureFixture[str]) -> None:
    # Quick mode: the table's shape, not its figures (CI runs it so it cannot rot).
    assert main(["--threads", "--quick"]) == 0
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
    from .bench_threads import throughput

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
    from .bench_threads import throughput

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
        if os.environ.get("FASTACCEPT_REQUIRE_DOCS"):
            pytest.fail(f"{reason}, and FASTACCEPT_REQUIRE_DOCS is set")
        pytest.skip(reason)


def test_bench_plot_writes_the_charts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    needs_matplotlib()
    from . import bench, bench_lists

    # 1 and 2 KiB: the charts' shape without werkzeug's quadratic seconds
    for module in (bench, bench_lists):
        monkeypatch.setattr(module, "GROWTH_SIZES", (bench.KIB, 2 * bench.KIB))
    charts = tmp_path / "new" / "charts"
    argv = ["--quick", "--growth", "--peer", "werkzeug", "--plot"]
    assert main([*argv, str(charts)]) == 0
    out, err = capsys.readouterr()
    assert "negotiate(value, offers), cold" in out and "charts: " in err
    expected = {  # the title and legend labels each chart holds (SVG comments)
        "cold.svg": ["negotiate(value, offers), cold", "chrome-navigate"],
        "cold-encoding-language.svg": ["negotiate_encoding", "en-US,en;q=0.9"],
        "growth.svg": ["spaces before a bad byte", "linear", "ms per call"],
        "growth-all.svg": [*bench.SHAPES, "linear"],
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
    from .bench import KIB, Measured
    from .bench_plot import plot

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
    def measure(*args: object) -> str:
        raise AssertionError("measured before checking for matplotlib")

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    monkeypatch.setattr(harness, "report", measure)
    charts = tmp_path / "charts"
    assert main(["--quick", "--plot", str(charts)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not charts.exists()
    assert err.count("\n") == 1
    assert err.startswith("error: --plot needs matplotlib")
    assert "pip install -e '.[plot]'" in err


def test_bench_plot_is_not_for_threads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--threads", "--plot", "charts"])
    assert exit.value.code == 2
    assert "not allowed with argument --threads" in capsys.readouterr().err


def test_only_the_plotting_imports_matplotlib() -> None:
    code = (
        "import sys, fastaccept, fastaccept.__main__, benchmarks.__main__;"
        "assert 'matplotlib' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_growth_projection_follows_the_measured_power() -> None:
    from .bench import projected

    sizes = (1, 16, 256)
    assert projected([0.001], sizes, 1) == pytest.approx(0.256)  # one size: n**2
    assert projected([0.001, 0.016], sizes, 2) == pytest.approx(0.256)  # linear
    assert projected([0.001, 0.256], sizes, 2) == pytest.approx(0.256 * 256)
    assert projected([0.001, 0.002], sizes, 2) == pytest.approx(0.032)  # not below n


def test_time_table_keeps_each_cells_best_sweep_and_runs_the_calls() -> None:
    # Every contender is timed once per sweep, sweep after sweep, and each
    # cell keeps its best; a pass calls ``fn`` on every value, with the offers.
    from .bench import Pass, time_table

    calls: list[tuple[str, tuple[object, ...]]] = []

    def record(value: str, *offers: object) -> None:
        calls.append((value, offers))

    class Scripted(Pass):
        def best(self) -> float:
            super().best()
            return script.pop(0)

    script = [3.0, 2.0, 1.0, 4.0]  # sweep 1: a, b; sweep 2: a, b
    table: dict[str, dict[str, Pass]] = {
        "row": {
            "a": Scripted(record, ["x", "y"], 1),
            "b": Scripted(record, ["z"], 1, ["o"]),
        }
    }
    assert time_table(table, sweeps=2) == {"row": {"a": 1.0, "b": 2.0}}
    assert script == []
    assert calls == [("x", ()), ("y", ()), ("z", (["o"],))] * 2
