"""Every row of the "Bad input" table (docs/bad-input.md) holds, on both engines, in both modes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fastaccept import AcceptError

from .conftest import Engine

BAD_INPUT = Path(__file__).resolve().parents[1] / "docs" / "bad-input.md"


def table_rows() -> list[tuple[str, str, str, str]]:
    section = BAD_INPUT.read_text(encoding="utf-8")
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("bad input", "---"):
            rows.append((cells[0], cells[1], cells[2], cells[3]))
    return rows


ROWS = table_rows()


def example_value(cell: str) -> Any:
    if cell == "8,193 characters":
        return "c/d," + "x" * 8189
    literal = re.fullmatch(r"`(.*)`", cell)
    assert literal, cell
    if literal[1] == "42":
        return 42
    return literal[1].encode("latin-1", "backslashreplace").decode("unicode_escape")


def check(engine: Engine, value: Any, expected: str, strict: bool) -> None:
    if expected.startswith("`TypeError` naming the type and what to pass"):
        with pytest.raises(TypeError, match="not int: pass the header's value, "):
            engine.parse(value, strict=strict)
        return
    at = re.fullmatch(r"error at (\d+)", expected)
    if at:
        with pytest.raises(AcceptError) as info:
            engine.parse(value, strict=strict)
        assert info.value.position == int(at[1])
        return
    accept = engine.parse(value, strict=strict)
    kept = re.fullmatch(r"kept as `(.*)`", expected)
    if kept:
        assert str(accept) == f"{kept[1]}, c/d"
        assert not accept.skipped
    elif expected.startswith("skipped, with `c/d`"):
        assert str(accept) == "" and len(accept.skipped) == 1
        assert accept.skipped[0].text.endswith("c/d")
    elif expected == "skipped":
        assert str(accept) == "c/d"
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        assert [m.text for m in accept.skipped] == [text.rsplit(", c/d", 1)[0]]
    elif expected == "ignored: not an error":
        assert str(accept) == "c/d" and not accept.skipped
    else:
        raise AssertionError(f"unknown outcome {expected!r}")


def test_the_table_covers_the_classes() -> None:
    names = " ".join(row[0] for row in ROWS)
    for word in (
        "weight",
        "wildcard",
        "subtype",
        "junk",
        "whitespace",
        "unterminated",
        "escape",
        "control byte",
        "Latin-1",
        "empty members",
        "twice",
        "over-long",
        "argument type",
    ):
        assert word in names, word
    assert len(ROWS) >= 25


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_row(engine: Engine, row: tuple[str, str, str, str]) -> None:
    _, example, lenient, strict = row
    value = example_value(example)
    check(engine, value, lenient, strict=False)
    check(engine, value, strict, strict=True)


@pytest.mark.skipif(
    not hasattr(__import__("ctypes").pythonapi, "PyUnicode_FromUnicode"),
    reason="a legacy str (no data until made ready) exists on CPython 3.10 and 3.11",
)
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_legacy_str_is_read_as_its_text(engine: Engine) -> None:
    # A str made by the deprecated PyUnicode_FromUnicode(NULL, n), as an old C
    # extension may hand one over, holds its text only as wide characters
    # until made ready; the compiled engine read it as an empty value.
    import ctypes

    api = ctypes.pythonapi
    api.PyUnicode_FromUnicode.restype = ctypes.py_object
    api.PyUnicode_FromUnicode.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t]
    api.PyUnicode_AsUnicode.restype = ctypes.c_void_p
    api.PyUnicode_AsUnicode.argtypes = [ctypes.py_object]
    text = "application/json"
    legacy = api.PyUnicode_FromUnicode(None, len(text))
    wide = text.encode(
        "utf-32-le" if ctypes.sizeof(ctypes.c_wchar) == 4 else "utf-16-le"
    )
    ctypes.memmove(api.PyUnicode_AsUnicode(legacy), wide, len(wide))
    assert engine.negotiate(legacy, ["text/html", "application/json"]) == text
