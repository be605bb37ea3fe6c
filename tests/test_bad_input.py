"""Every row of the "Bad input" tables (docs/bad-input.md) holds, on both engines, in both modes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fastaccept import AcceptError

from .conftest import Engine

BAD_INPUT = Path(__file__).resolve().parents[1] / "docs" / "bad-input.md"


def table_rows(columns: int) -> list[tuple[str, ...]]:
    """The rows of the tables of ``columns`` columns: Accept's 4, the list
    headers' 5 (their header first)."""
    section = BAD_INPUT.read_text(encoding="utf-8")
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == columns and cells[0] not in ("bad input", "header", "---"):
            rows.append(tuple(cells))
    return rows


ROWS = table_rows(4)
LIST_ROWS = table_rows(5)


def example_value(cell: str) -> Any:
    if cell == "8,193 characters":
        return "c/d," + "x" * 8189
    literal = re.fullmatch(r"`(.*)`", cell)
    assert literal, cell
    if literal[1] == "42":
        return 42
    return literal[1].encode("latin-1", "backslashreplace").decode("unicode_escape")


def check(
    parse: Callable[..., Any],
    value: Any,
    expected: str,
    strict: bool,
    last: str = "c/d",
) -> None:
    """``parse`` reads ``value``, whose valid member ``last`` ends it, as
    ``expected`` says."""
    if expected.startswith("`TypeError` naming the type and what to pass"):
        with pytest.raises(TypeError, match="not int: pass the header's value, "):
            parse(value, strict=strict)
        return
    at = re.fullmatch(r"error at (\d+)", expected)
    if at:
        with pytest.raises(AcceptError) as info:
            parse(value, strict=strict)
        assert info.value.position == int(at[1])
        return
    parsed = parse(value, strict=strict)
    kept = re.fullmatch(r"kept as `(.*)`", expected)
    if kept:
        assert str(parsed) == f"{kept[1]}, {last}"
        assert not parsed.skipped
    elif expected.startswith(f"skipped, with `{last}`"):
        assert str(parsed) == "" and len(parsed.skipped) == 1
        assert parsed.skipped[0].text.endswith(last)
    elif expected == "skipped":
        assert str(parsed) == last
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        assert [m.text for m in parsed.skipped] == [text.rsplit(f", {last}", 1)[0]]
    elif expected == "ignored: not an error":
        assert str(parsed) == last and not parsed.skipped
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
    check(engine.parse, value, lenient, strict=False)
    check(engine.parse, value, strict, strict=True)


def test_the_list_headers_table_covers_both() -> None:
    assert {row[0] for row in LIST_ROWS} == {"Accept-Encoding", "Accept-Language"}
    assert len(LIST_ROWS) >= 10


@pytest.mark.parametrize("row", LIST_ROWS, ids=[f"{r[0]}: {r[1]}" for r in LIST_ROWS])
def test_list_header_row(engine: Engine, row: tuple[str, str, str, str, str]) -> None:
    header, _, example, lenient, strict = row
    parse = (
        engine.parse_encoding if header == "Accept-Encoding" else engine.parse_language
    )
    last = "br" if header == "Accept-Encoding" else "fr"
    value = example_value(example)
    check(parse, value, lenient, strict=False, last=last)
    check(parse, value, strict, strict=True, last=last)


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
