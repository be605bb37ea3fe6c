"""SVG charts of one ``python -m benchmarks`` run (``--plot DIR``).

matplotlib (``pip install -e '.[plot]'``) is imported here only, inside
the functions: the rest of the package never imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .bench import KIB, PEERS, ColdTimes, Measured

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MISSING = "--plot needs matplotlib, which is not installed: pip install -e '.[plot]'"
#: The shape of ``growth.svg``: werkzeug is quadratic there.
SHAPE = "spaces before a bad byte"
#: Everyone that can be charted, in legend order; this also fixes each colour.
ORDER = ("fastaccept cython", "fastaccept python", *PEERS)


def unavailable(directory: Path) -> str | None:
    """Why no chart could be written into ``directory`` (made if missing), or
    None: checked before measuring anything."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return MISSING
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--plot: cannot make the folder {directory}: {exc.strerror}"
    return None


def _who(name: str) -> str:
    return f"fastaccept {name}" if name in ("cython", "python") else name


def _colour(who: str) -> str:
    return f"C{ORDER.index(who) % 10}"


def _figure(title: str, measured: Measured, size: tuple[float, float]) -> Figure:
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    strip = 0.2 / size[1]  # 0.2 inch at the foot, for the note
    layout = ConstrainedLayoutEngine(rect=(0, strip, 1, 1 - strip))
    figure = Figure(figsize=size, layout=layout)
    figure.suptitle(title, fontweight="bold")
    note = measured.machine
    if measured.quick:
        note += "; QUICK MODE: a smoke run, not a measurement"
    figure.text(0.995, 0.01, note, ha="right", va="bottom", fontsize=7, alpha=0.7)
    return figure


def _legend(figure: Figure, *, below: bool = False) -> None:
    """One legend for the figure, right of the plots (``below``: under them,
    in rows of four, left of the machine's note): each label once, whichever
    plot has it."""
    handles: dict[str, Artist] = {}
    for axes in figure.axes:
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    if below:
        figure.legend(
            list(handles.values()),
            list(handles),
            loc="outside lower left",
            ncols=4,
            fontsize=9,
        )
    else:
        figure.legend(
            list(handles.values()),
            list(handles),
            loc="outside right center",
            fontsize=8,
        )


def _bars(table: ColdTimes, title: str, measured: Measured) -> Figure:
    """Grouped horizontal bars: ns per call, log scale, one group per case;
    4.5 inches high up to 8 cases, then 0.4 inch more per case."""
    rows = [{_who(name): t for name, t in times.items()} for times in table.values()]
    who = [w for w in ORDER if any(w in row for row in rows)]
    figure = _figure(title, measured, (8, 4.5 + 0.4 * max(0, len(rows) - 8)))
    axes = figure.subplots()
    height = 0.8 / len(who)
    for i, w in enumerate(who):
        ys = [case + (i - (len(who) - 1) / 2) * height for case in range(len(rows))]
        xs = [row.get(w, float("nan")) * 1e9 for row in rows]
        axes.barh(ys, xs, height, label=w, color=_colour(w))
    # "encoding: gzip, br": the field on a line of its own
    axes.set_yticks(range(len(table)), [c.replace(": ", ":\n", 1) for c in table])
    axes.tick_params(axis="y", labelsize=8)
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlabel("ns per call (log scale; shorter is faster)")
    axes.grid(axis="y", visible=False)
    _legend(figure)
    return figure


def _lines(
    axes: Axes, sizes: Sequence[int], timed: dict[str, list[float | None]]
) -> None:
    """One line per contender (ms against KiB, log-log; a size not run is no
    point) and a line of slope 1 from the slowest start, for reference."""
    starts = []
    for name, times in timed.items():
        if name not in ORDER:  # "fastaccept cython parse": not charted
            continue
        points = [(s / KIB, t * 1e3) for s, t in zip(sizes, times, strict=True) if t]
        if not points:
            continue
        starts.append(points[0][1])
        axes.plot(*zip(*points, strict=True), "o-", label=name, color=_colour(name))
        if times[-1] is None:
            axes.annotate(
                "> cap",
                points[-1],
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=7,
                color=_colour(name),
            )
    kib = [s / KIB for s in sizes]
    if starts:  # under the others: a linear contender hides it
        line = [max(starts) * k / kib[0] for k in kib]
        axes.plot(kib, line, "--", color="0.4", lw=1, zorder=1, label="linear")
    axes.set_xscale("log", base=2)
    axes.set_xticks(kib, [f"{k:g}" for k in kib])
    axes.set_xticks([], minor=True)
    axes.set_yscale("log")


def _growth(measured: Measured) -> Figure:
    """``SHAPE``, where werkzeug is quadratic."""
    figure = _figure(f"negotiate() on hostile values: {SHAPE}", measured, (8, 4.5))
    axes = figure.subplots()
    _lines(axes, measured.sizes, measured.growth[SHAPE])
    axes.set_xlabel("value size (KiB, log scale)")
    axes.set_ylabel("ms per call (log scale)")
    _legend(figure)
    return figure


def _growth_all(measured: Measured) -> Figure:
    """Every shape timed (``SHAPES``), one plot each, on the same scales: two
    columns and the legend below, 7.5 inches wide, so that the docs show it
    at its own size (720 CSS pixels: the page's column is 736) and its
    9-point labels read as 12 pixels."""
    shapes = measured.growth
    rows = (len(shapes) + 1) // 2
    figure = _figure(
        "negotiate() on hostile values, every shape", measured, (7.5, 1.2 + 2.1 * rows)
    )
    grid = figure.subplots(rows, 2, sharex=True, sharey=True, squeeze=False)
    for axes, shape in zip(grid.flat, shapes, strict=False):
        _lines(axes, measured.sizes, shapes[shape])
        axes.set_title(shape, fontsize=10)
        axes.tick_params(labelsize=9)
    for axes in grid.flat[len(shapes) :]:
        axes.set_visible(False)
    for axes in grid[-1]:
        axes.set_xlabel("size (KiB)", fontsize=9)
    for axes in grid[:, 0]:
        axes.set_ylabel("ms per call", fontsize=9)
    _legend(figure, below=True)
    return figure


def _save(figure: Figure, path: Path) -> None:
    """Save as laid out, each plot's place rounded: the layout's solver can
    differ in the last bits from one figure to the next in a process (the SVG's
    clip ids hash those places)."""
    figure.draw_without_rendering()
    for axes in figure.axes:
        x, y, width, height = (round(v, 6) for v in axes.get_position().bounds)
        axes.set_position((x, y, width, height))
    figure.set_layout_engine("none")
    figure.savefig(path, format="svg", metadata={"Date": None})


def plot(measured: Measured, directory: Path) -> list[Path]:
    """Write the charts of ``measured`` into ``directory``; the files written."""
    import matplotlib

    matplotlib.use("Agg")
    figures: dict[str, Figure] = {}
    # A fixed hash salt (and, in _save, no date): the same figures, the same bytes.
    with matplotlib.rc_context(
        {"svg.hashsalt": "fastaccept", "axes.grid": True, "grid.alpha": 0.3}
    ):
        figures["cold.svg"] = _bars(
            measured.cold, "negotiate(value, offers), cold: no value cached", measured
        )
        figures["cold-encoding-language.svg"] = _bars(
            measured.lists_cold,
            "negotiate_encoding / negotiate_language, cold: no value cached",
            measured,
        )
        if measured.growth:
            figures["growth.svg"] = _growth(measured)
            figures["growth-all.svg"] = _growth_all(measured)
        for name, figure in figures.items():
            _save(figure, directory / name)
    return [directory / name for name in figures]
