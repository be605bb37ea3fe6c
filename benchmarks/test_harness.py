"""The benchmark harness itself (``python -m benchmarks``): its tables, the
threads' count, the charts; no timing is judged. Run with the benchmarks:
``pytest benchmarks/ --benchmark-disable``."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from . import __main__ as harness
from . import bench
from .__main__ import main
from .conftest import PEERS as LOADED_PEERS

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


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_failed_write_is_said_without_a_traceback() -> None:
    # `python -m benchmarks > /dev/full` (and `| head`): as the command line
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks", "--quick", "--peer", "werkzeug"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    assert done.returncode == 1
    assert done.stderr.startswith("python -m benchmarks: cannot write: [Errno 28]")
    assert "Traceback" not in done.stderr


def test_bench_threads_smoke_run(capsys: pytest.CaptureFixture[str]) -> None:
    # Quick mode: the table's shape, not its figures (CI runs it so it cannot rot).
    assert main(["--threads", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "GIL" in out and "QUICK MODE" in out
    assert bench._measured_code() in out.splitlines()  # what it measured
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


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--quick", "--peer", "nosuch"], "invalid choice: 'nosuch'"),
        (["--threads", "--growth"], "--threads times its own cases"),
        (["--server", "--peer", "werkzeug"], "--server times its own cases"),
    ],
)
def test_bench_says_what_it_cannot_take(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("runs", ["0", "-3", "2.5"])
def test_a_count_of_runs_or_calls_is_at_least_one(
    runs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A count below one ran nothing and printed a table of nothing (or inf)."""
    from .import_time import main as import_time

    with pytest.raises(SystemExit) as exit:
        import_time(["--runs", runs])
    assert exit.value.code == 2
    assert f"invalid count value: '{runs}'" in capsys.readouterr().err


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


def test_the_growth_shapes_are_of_a_type_the_offers_have() -> None:
    # A member of a type no offer has may be passed over unread: the growth
    # would time that shortcut, not the members' reading. Two shapes hold no
    # media type at all.
    untyped = {"a run of quotes", "commas before a bad byte"}
    for shape, make in bench.SHAPES.items():
        value = make(64)
        media_type = re.split("[;, ]", value)[0]
        assert len(value) == 64, shape
        if shape in untyped:
            assert "/" not in value, shape
        else:
            assert media_type == "text/html" in bench.API_OFFERS, shape


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


def test_a_peer_that_raises_has_no_time_in_that_row() -> None:
    from .bench import Pass, time_table

    def fail(value: str, offers: object) -> None:
        raise ValueError("not this case")

    table: dict[str, dict[str, Pass]] = {
        "row": {
            "peer": Pass(fail, ["x"], 1, ["o"], may_raise=True),
            "other": Pass(lambda value, offers: None, ["x"], 1, ["o"]),
        }
    }
    raised: dict[tuple[str, str], str] = {}
    times = time_table(table, sweeps=2, raised=raised)
    assert list(times["row"]) == ["other"]
    assert raised == {("row", "peer"): "ValueError: not this case"}
    table["row"]["peer"] = Pass(fail, ["x"], 1, ["o"])  # not a peer: an error
    with pytest.raises(ValueError, match="not this case"):
        time_table(table, sweeps=1)


def test_a_fresh_pass_hands_every_call_a_new_equal_str() -> None:
    # As a server's parser does: each call gets its own object, never the hot
    # one nor another pass's, so a value cache hashes every value anew.
    hot = bench.hot_values(_case("json"), 3)
    seen: list[str] = []
    bench.Pass(seen.append, hot, 2, fresh=True).best()
    assert seen == [hot[0]] * 6
    assert all(value is not hot[0] for value in seen)
    assert len({id(value) for value in seen}) == 6  # all held: ids not reused


class Recording:
    """An engine, or a peer, that keeps the str objects each of its calls is
    given, by the call's name (a negotiator's methods under its class's)."""

    def __init__(self, real: Any, seen: dict[str, list[str]], prefix: str = ""):
        self.real, self.seen, self.prefix = real, seen, prefix

    def __getattr__(self, name: str) -> Callable[..., Any]:
        real, key = getattr(self.real, name), self.prefix + name

        def call(value: Any, *args: Any, **kwargs: Any) -> Any:
            if type(value) is str:
                self.seen.setdefault(key, []).append(value)
            made = real(value, *args, **kwargs)
            return Recording(made, self.seen, f"{key}.") if name[0].isupper() else made

        return call


def test_every_cold_call_and_every_served_one_gets_a_str_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Cold: no contender, engine or peer, may be handed an object that an
    # earlier call had (whose hash Python keeps, or that a cache keyed by the
    # object holds), in this pass, another pass, sweep or contender: the
    # case's value made anew (negotiation) or a distinct one (parsing).
    # Served: the hot value, a new object each call.
    from . import bench_lists

    seen: dict[str, list[str]] = {}
    real = bench.engines()
    found = {name: Recording(engine, seen, f"{name} ") for name, engine in real.items()}
    for module in (bench, bench_lists):
        monkeypatch.setattr(module, "engines", lambda: found)
    peer = Recording(real["python"], seen, "peer ")  # stands for a peer
    peers = {"werkzeug": partial(bench_lists.one_call, peer)}
    monkeypatch.setattr(bench_lists, "LIST_PEERS", peers)
    floor = bench.load_floor()
    settings = bench.Settings(  # 2 passes, 2 sweeps: every contender, 4 times
        values=4,
        repeat=2,
        peer_repeat=2,
        peer_values=3,
        extended_peer_values=2,
        extended_peer_repeat=2,
        sweeps=2,
    )
    bench.negotiate_tables(
        settings,
        {"peer": peer.negotiate},
        floor and Recording(floor, seen, "floor "),
        bench.Measured(),
    )
    bench.parse_table(settings, False)
    bench_lists.list_tables(settings, ["werkzeug"], bench.Measured())
    # the cases' own objects: the answers checked (``otherwise``), the hot tables
    originals = {id(c.value) for c in (*bench.ALL_CASES, *bench_lists.LIST_CASES)}
    cold = {
        name: [value for value in values if id(value) not in originals]
        for name, values in seen.items()
        if not name.endswith(".choose")  # hot and served, below
    }
    calls = [value for values in cold.values() for value in values]
    assert len({id(value) for value in calls}) == len(calls)  # all held
    counted = {name: len(values) for name, values in cold.items()}
    times = 2 * 2  # passes, sweeps
    lists = len(bench_lists.LIST_CASES) // 2  # cases of each field
    expected = {  # 4 values a case, the peer 3 (2 on the extended set)
        "peer negotiate": (len(bench.CASES) * 3 + len(bench.EXTENDED_CASES) * 2)
        * times,
        "peer negotiate_encoding": lists * 3 * times,
        "peer negotiate_language": lists * 3 * times,
    }
    if floor is not None:
        expected["floor choose"] = len(bench.ALL_CASES) * 4 * times
    for name in found:
        expected[f"{name} negotiate"] = len(bench.ALL_CASES) * 4 * times
        for call in ("parse", "quality", "is_cors_safelisted"):
            expected[f"{name} {call}"] = len(bench.CASES) * 4 * times
        for call in ("negotiate_encoding", "negotiate_language"):
            expected[f"{name} {call}"] = lists * 4 * times
        # choose on the hot value (one object) and served (a new one each call)
        chosen = seen[f"{name} Negotiator.choose"]
        values = [case.value for case in bench.ALL_CASES]
        hot = [v for v in chosen if any(v is value for value in values)]
        served = [v for v in chosen if all(v is not value for value in values)]
        assert len(hot) == len(served) == len(bench.ALL_CASES) * 4 * times
        assert len({id(value) for value in served}) == len(served)
    assert {name: count for name, count in counted.items() if count} == expected
    # Negotiation reads the value a client sends: the case's own, no marker.
    sent = {case.value for case in (*bench.ALL_CASES, *bench_lists.LIST_CASES)}
    for name in ("peer", *found):
        for call in ("negotiate", "negotiate_encoding", "negotiate_language"):
            assert set(cold[f"{name} {call}"]) <= sent, (name, call)


def test_a_cold_negotiation_keeps_no_value_it_met() -> None:
    # The pure engine's one-call forms keep their last negotiator's values
    # (64): emptied after each call, so a value repeated is read each time.
    from fastaccept import _scan_py

    from . import bench_lists

    lists = {
        "encoding": _scan_py._kept_lists[_scan_py.EncodingNegotiator],
        "language": _scan_py._kept_lists[_scan_py.LanguageNegotiator],
    }
    checks: list[tuple[str, Sequence[str], Any, Any]] = [
        (
            bench.CASES[0].value,
            bench.CASES[0].offers,
            _scan_py.negotiate,
            _scan_py._kept,
        )
    ]
    checks += [
        (
            case.value,
            case.offers,
            bench_lists.one_call(_scan_py, case.field),
            lists[case.field],
        )
        for case in bench_lists.LIST_CASES[::3]
    ]
    for value, offers, fn, kept in checks:
        uncached = bench.without_value_caches(fn)
        for _ in range(2):
            assert uncached(value, list(offers)) == fn(value, list(offers))
            assert len(kept.last[2]._cache) == 1  # the plain call's alone
            uncached(value, list(offers))
            assert len(kept.last[2]._cache) == 0
    # The compiled one-call forms keep none: given as they are.
    for engine in bench.engines().values():
        if engine is not _scan_py:
            assert bench.without_value_caches(engine.negotiate) is engine.negotiate


def test_falcon_reads_each_value_anew_and_keeps_the_offers() -> None:
    if "falcon" not in LOADED_PEERS:
        pytest.skip("falcon is not installed (pip install '.[bench]')")
    from falcon.util import mediatypes

    case = bench.CASES[0]
    for _ in range(3):
        assert LOADED_PEERS["falcon"](case.value, list(case.offers)) == "text/html"
        assert mediatypes._parse_media_ranges.cache_info().currsize == 0
        assert mediatypes.quality.cache_info().currsize == 0
    assert mediatypes._parse_media_type.cache_info().currsize >= len(case.offers)


def test_the_cold_table_shows_a_dash_where_a_peer_raised() -> None:
    # A peer that raises on some cases (here: offers with parameters) or on
    # every one: "-" in its cells and in the ratios it would give, a note
    # under the table, and the run goes on.
    def fussy(value: str, offers: Sequence[str]) -> str:
        if any(";" in offer for offer in offers):
            raise LookupError("parameters")
        return str(bench.engines()["python"].negotiate(value, offers))

    def broken(value: str, offers: Sequence[str]) -> str:
        raise ValueError("never")

    settings = bench.Settings.quick()
    settings.values = 4
    measured = bench.Measured()
    peers: dict[str, bench.Negotiate] = {"werkzeug": fussy, "broken": broken}
    out = bench.negotiate_tables(settings, peers, None, measured)
    rows = {
        cells[0]: cells[1:]
        for line in out.split("\n\n")[1].splitlines()[2:]
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert list(rows) == [case.name for case in bench.ALL_CASES]
    who = [*bench.engines(), "werkzeug", "broken"]
    for name, cells in rows.items():
        figures = dict(zip(who, cells, strict=False))
        ratios = cells[len(who) :]
        assert figures["broken"] == "-" and ratios[0] == "-"  # no floor
        assert set(measured.cold[name]) == set(who) - {"broken"} - (
            {"werkzeug"} if figures["werkzeug"] == "-" else set()
        )
        if name in ("rfc9110-plain", "vendor-v2", "vendor-fallback"):
            assert figures["werkzeug"] == "-" and ratios[1:] == ["-", "-", "-"]
        else:
            assert figures["werkzeug"] != "-" and ratios[1].endswith("x")
            assert ratios[3].endswith("x (werkzeug)")
    assert "- broken on json: raised ValueError: never" in out
    assert "- werkzeug on vendor-v2: raised LookupError: parameters" in out
    assert "- werkzeug on json:" not in out


def _rows(table: str) -> dict[str, list[str]]:
    """A printed table's cells by row label."""
    return {
        cells[0]: cells[1:]
        for line in table.splitlines()[2:]
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }


def _last_offer(value: str, offers: Sequence[str]) -> str:
    """A peer that answers otherwise where fastaccept's answer is not the last."""
    return offers[-1]


def test_a_peer_that_answers_otherwise_is_marked_in_the_cold_table() -> None:
    # werkzeug here answers the last offer: its ratios carry "*" on the cases
    # where fastaccept answers another, listed under the table with both
    # answers; a peer that agrees is not marked. Which peer is fastest is
    # timing (a few calls each here), so the fastest-peer cells are checked
    # for the mark that goes with the peer they name, whichever it is.
    settings = bench.Settings.quick()
    settings.values = 4
    python = bench.engines()["python"]
    peers = {"werkzeug": _last_offer, "agrees": python.negotiate}
    out = bench.negotiate_tables(settings, peers, None, bench.Measured())
    rows = _rows(out.split("\n\n")[1])
    who = [*bench.engines(), "werkzeug", "agrees"]
    for case in bench.ALL_CASES:
        ratios = rows[case.name][len(who) :]
        star = "*" if EXPECTED[case.name] != case.offers[-1] else ""
        assert ratios[1].endswith(f"x{star}"), case.name
        for cell in ratios[2:]:
            assert cell.endswith((f"x (werkzeug{star})", "x (agrees)")), case.name
        note = f"- werkzeug on {case.name}: {case.offers[-1]} (fastaccept: "
        assert (note in out) == bool(star), case.name
    assert "*: the ratio's peer answers otherwise than fastaccept" in out
    assert "- werkzeug on json: text/html (fastaccept: application/json)" in out
    assert "- agrees on" not in out


def test_the_fastest_peer_is_named_and_marked_when_it_answers_otherwise() -> None:
    times = {"floor": 1e-7, "cython": 2e-7, "python": 2e-6}
    times |= {"werkzeug": 4e-5, "agrees": 8e-5}
    peers, differ = ["werkzeug", "agrees"], ["werkzeug"]
    cells = ["2.0x", "200x*", "200x (werkzeug*)", "20.0x (werkzeug*)"]
    assert bench.cold_ratios(times, peers, differ) == cells
    times["agrees"] = 2e-5
    cells = ["2.0x", "200x*", "100x (agrees)", "10.0x (agrees)"]
    assert bench.cold_ratios(times, peers, differ) == cells
    del times["werkzeug"]  # raised on the case, or not installed
    assert bench.cold_ratios(times, peers, differ)[1] == "-"


def test_a_peer_that_answers_otherwise_is_marked_in_the_list_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from . import bench_lists

    python = bench.engines()["python"]
    peers = {
        "werkzeug": lambda field: _last_offer,
        "webob": partial(bench_lists.one_call, python),  # agrees
    }
    monkeypatch.setattr(bench_lists, "LIST_PEERS", peers)
    settings = bench.Settings.quick()
    settings.values = 4
    out = bench_lists.list_tables(settings, list(peers), bench.Measured())
    cold, hot = (_rows(out.split("\n\n")[i]) for i in (1, 3))
    header = [cell.strip() for cell in out.split("\n\n")[1].split("\n")[0].split("|")]
    for case in bench_lists.LIST_CASES:
        label = f"{case.field}: {case.value}"
        star = "*" if EXPECTED_LISTS[label] != case.offers[-1] else ""
        for rows in (cold, hot):
            cells = dict(zip(header[2:], rows[label], strict=False))
            assert cells["werkzeug/cython"].endswith(f"x{star}"), label
            assert cells["webob/cython"].endswith("x"), label
        assert (f"- werkzeug on {label}: " in out) == bool(star), label
    assert "- webob on" not in out


@pytest.mark.parametrize(
    ("timed", "title"),
    [
        (["webob"], "; peers: webob acceptable_offers (encoding) and lookup"),
        ([], "; no peer\n"),
    ],
)
def test_the_list_tables_title_names_the_peers_timed(
    timed: list[str], title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The title named werkzeug's call when werkzeug was left out."""
    from . import bench_lists

    python = bench.engines()["python"]
    peers = {name: partial(bench_lists.one_call, python) for name in timed}
    monkeypatch.setattr(bench_lists, "LIST_PEERS", peers)
    settings = bench.Settings.quick()
    settings.values = 4
    out = bench_lists.list_tables(settings, timed, bench.Measured())
    first = out.split("\n\n")[0] + "\n"
    assert title in first and "werkzeug" not in first


# --- the cases: every answer checked --------------------------------------------


def _case(name: str) -> bench.Case:
    return next(case for case in bench.ALL_CASES if case.name == name)


#: Each case's answer by RFC 9110 §12.5.1 (the most specific matching range
#: gives an offer its weight; ties go to the server's order): both engines,
#: hot and cold, and every peer not listed in ``PEER_ANSWERS``.
EXPECTED = {
    "chrome-navigate": "text/html",
    "firefox-image": "image/webp",
    "json": "application/json",
    "any": "application/json",
    "rfc9110": "application/json",
    "rfc9110-plain": "text/plain;format=flowed",
    "chrome-navigate-8": "text/html",
    "firefox-navigate-8": "text/html",
    "firefox-image-8": "image/avif",
    "safari-image-8": "image/avif",
    "vendor-v2": "application/vnd.acme+json;version=2",
    "vendor-fallback": "application/vnd.acme+json;version=2",
    "chrome-navigate-32": "text/html",
    "api-32": "application/json",
}

_CLIENT_ORDER = (
    "ties go to the header's order, not the server's: Safari lists webp first"
)
_OFFER_PARAMS = (
    "parameters compared the other way round: the offer's must be in the range, "
    "so text/plain;format=flowed (q=1) reaches the bare text/plain"
)

#: Where a peer answers otherwise, its answer and why (benchmarks/README.md,
#: "Extended set"): each is a rule of its own, not a failure to read the value.
PEER_ANSWERS: dict[tuple[str, str], tuple[str, str]] = {
    ("mimeparse", "vendor-fallback"): (
        "application/vnd.acme+json;version=1",
        "a range whose parameter differs still matches (an equal one only adds "
        "to its fitness): version=3 reaches version=1 at q=1",
    ),
    ("django", "safari-image-8"): ("image/webp", _CLIENT_ORDER),
    ("litestar", "safari-image-8"): ("image/webp", _CLIENT_ORDER),
    ("litestar", "rfc9110-plain"): ("text/plain", _OFFER_PARAMS),
    ("sanic", "rfc9110-plain"): ("text/plain", _OFFER_PARAMS),
}


def test_the_five_cases_stay_and_every_case_is_checked() -> None:
    five = ["chrome-navigate", "firefox-image", "json", "any", "rfc9110"]
    assert [case.name for case in bench.CASES] == five
    assert bench.ALL_CASES == bench.CASES + bench.EXTENDED_CASES
    assert [case.name for case in bench.ALL_CASES] == list(EXPECTED)
    assert len(bench.MANY_OFFERS) == 32 and len(bench.SITE_OFFERS) == 8
    for case in bench.ALL_CASES:
        assert EXPECTED[case.name] in case.offers, case.name
        assert len(set(case.offers)) == len(case.offers), case.name


@pytest.mark.parametrize("name", list(EXPECTED))
def test_both_engines_give_each_case_its_answer_hot_and_cold(name: str) -> None:
    case = _case(name)
    offers = list(case.offers)
    for engine in bench.engines().values():
        assert engine.negotiate(case.value, offers) == EXPECTED[name]
        assert engine.Negotiator(offers).choose(case.value) == EXPECTED[name]
        for value in bench.cold_values(case, 3):
            assert engine.negotiate(value, offers) == EXPECTED[name]


@pytest.mark.parametrize("name", ["rfc9110-plain", "vendor-fallback"])
def test_the_parameters_of_the_members_decide(name: str) -> None:
    # Each offer's weight comes from a member whose parameters were compared.
    weights = {
        "rfc9110-plain": [0.7, 0.4, 1.0, 0.3],  # plain, fixed, flowed, html
        "vendor-fallback": [0.0, 0.8, 0.5],  # version=3 reaches no offer
    }
    case = _case(name)
    for engine in bench.engines().values():
        assert [engine.quality(case.value, o) for o in case.offers] == weights[name]


@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("peer", list(bench.PEERS))
def test_each_peer_gives_the_answer_or_its_documented_one(peer: str, name: str) -> None:
    # sanic's answer is a str-like Matched (its == is a media type match):
    # every answer is compared as a str.
    if peer not in LOADED_PEERS:
        pytest.skip(f"{peer} is not installed (pip install '.[bench]')")
    case = _case(name)
    expected = PEER_ANSWERS.get((peer, name), (EXPECTED[name], ""))[0]
    for value in (case.value, *bench.cold_values(case, 2)):
        assert str(LOADED_PEERS[peer](value, list(case.offers))) == expected


def test_mimeparse_is_given_the_offers_in_its_order_of_preference() -> None:
    # Its best_match gives a tie to the last offer (offers in increasing
    # preference); the harness hands the offers over reversed, so a tie goes
    # to the first, as with fastaccept and the other peers.
    if "mimeparse" not in LOADED_PEERS:
        pytest.skip("mimeparse is not installed (pip install '.[bench]')")
    offers = ["application/json", "text/html"]
    assert LOADED_PEERS["mimeparse"]("*/*", offers) == "application/json"
    assert LOADED_PEERS["mimeparse"]("*/*", offers[::-1]) == "text/html"
    assert offers == ["application/json", "text/html"]  # the caller's list stays


#: Each Accept-Encoding and Accept-Language case's answer (docs/rules.md rules
#: 18 and 19), which every engine and peer of ``bench_lists`` gives.
EXPECTED_LISTS = {
    "encoding: gzip, deflate, br, zstd": "br",  # a tie: the server's order
    "encoding: br;q=1.0, gzip;q=0.8, *;q=0.1": "br",
    "encoding: gzip;q=1.0, identity; q=0.5, *;q=0": "gzip",
    "language: fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5": "fr",
    "language: en-US,en;q=0.9": "en",
    "language: de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7": "de",
}


@pytest.mark.parametrize("label", list(EXPECTED_LISTS))
def test_every_engine_and_list_peer_gives_each_list_case_its_answer(
    label: str,
) -> None:
    from . import bench_lists

    case = next(
        case
        for case in bench_lists.LIST_CASES
        if f"{case.field}: {case.value}" == label
    )
    offers = list(case.offers)
    fns = [
        bench_lists.one_call(engine, case.field) for engine in bench.engines().values()
    ]
    fns += bench_lists.load_list_peers(bench_lists.LIST_PEERS, case.field)[0].values()
    for fn in fns:
        for value in (case.value, *bench_lists.list_cold_values(case, 2)):
            assert fn(value, offers) == EXPECTED_LISTS[label], fn


def test_werkzeug_and_falcon_agree_on_every_case() -> None:
    # Both give an offer the weight of its most specific matching range, and
    # break ties in the server's order, as fastaccept does.
    assert not [key for key in PEER_ANSWERS if key[0] in ("werkzeug", "falcon")]
    assert {name for _, name in PEER_ANSWERS} <= set(EXPECTED)


def test_the_floor_is_called_as_the_engine_is() -> None:
    """The floor's functions and methods are the kinds of callables the
    compiled engine's are (built-ins, not Cython function objects, which
    cost every call more), so a ratio to it is like for like."""
    floor = pytest.importorskip(
        "fastaccept_floor", reason="pip install ./benchmarks/floor"
    )
    engine = pytest.importorskip("fastaccept._scan", reason="the Cython engine")
    assert type(floor.choose) is type(engine.negotiate)
    assert type(floor.Floor.choose) is type(engine.Negotiator.choose)
    assert type(floor.Floor.empty) is type(engine.Negotiator.choose)


def test_the_floor_refuses_empty_offers() -> None:
    """Built with ``cdivision`` and no bounds checks, the floor would divide by
    zero or read past its offers: it refuses none instead."""
    floor = pytest.importorskip(
        "fastaccept_floor", reason="pip install ./benchmarks/floor"
    )
    with pytest.raises(ValueError, match="at least one offer"):
        floor.choose("a/b", [])
    with pytest.raises(ValueError, match="at least one offer"):
        floor.Floor([])


def test_the_floor_is_compiled_as_the_engine_is() -> None:
    """Each directive of the engine's build that changes a call's code
    (bounds, indexing, division) is the floor's too: without them the floor's
    ``%`` and indexing take Python's slower paths and flatter a ratio to it."""
    root = Path(__file__).resolve().parent.parent
    setup = ast.parse((root / "setup.py").read_text())
    directives = next(
        ast.literal_eval(node.value)
        for node in ast.walk(setup)
        if isinstance(node, ast.Assign)
        and any(getattr(target, "id", "") == "DIRECTIVES" for target in node.targets)
    )
    header = (root / "benchmarks" / "floor" / "fastaccept_floor.pyx").read_text()
    floor: dict[str, object] = {}
    for line in header.splitlines():
        if not line.startswith("# cython:"):
            break
        for item in line.removeprefix("# cython:").split(","):
            name, _, value = item.strip().partition("=")
            floor[name] = (
                ast.literal_eval(value) if value in ("True", "False") else value
            )
    changes_a_call = (
        "binding",
        "boundscheck",
        "wraparound",
        "cdivision",
        "initializedcheck",
    )
    assert {name: floor.get(name) for name in changes_a_call} == {
        name: directives[name] for name in changes_a_call
    }


def test_a_report_names_the_code_it_measured() -> None:
    """The second line of a report: fastaccept's version, the checkout's
    commit (or that there is none) and the day, so a record says what ran."""
    import datetime

    import fastaccept

    second = bench.report(quick=True, peer_names=()).splitlines()[1]
    version, _, rest = second.partition(" (")
    assert version == f"fastaccept {fastaccept.__version__}"
    commit, _, day = rest.partition("), ")
    assert day == str(datetime.date.today())
    described = bench._git(
        Path(bench.__file__).resolve().parent.parent, "describe", "--always", "--dirty"
    )
    assert commit == (described or "no git checkout"), commit


def test_a_report_names_no_commit_for_code_not_from_the_checkout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """fastaccept imported from elsewhere (an installed wheel) is not the
    checkout's commit, nor is a git repository the checkout lies in."""
    import fastaccept

    monkeypatch.setattr(
        fastaccept, "__file__", str(tmp_path / "fastaccept" / "__init__.py")
    )
    assert "(installed, not this checkout's src), " in bench._measured_code()


def test_a_peer_that_cannot_be_loaded_is_left_out_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A peer not installed, or broken (its import raising anything), is a
    note, never the end of the run."""

    def missing() -> Any:
        raise ModuleNotFoundError("No module named 'webob'", name="webob")

    def broken() -> Any:
        raise RuntimeError("its import failed")

    monkeypatch.setitem(bench.PEERS, "webob", missing)
    monkeypatch.setitem(bench.PEERS, "mimeparse", broken)
    found, notes = bench.load_peers(["webob", "mimeparse"])
    assert found == {}
    assert notes == [
        "webob (not installed: webob)",
        "mimeparse (cannot be loaded: RuntimeError: its import failed)",
    ]
