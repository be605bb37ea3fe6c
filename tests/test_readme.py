"""The README's quick start runs, and says what it prints."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_start_runs_and_its_comments_are_true() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert block is not None
    code = block.group(1)
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    # "expr  # result" lines, and "# result" lines right under an expression.
    value = r"(\(.*\)|'.*'|\".*\"|[\d.]+|False|True)(?::.*)?"
    checked = 0
    previous = ""
    for line in code.splitlines():
        inline = re.match(rf"^((?:fastaccept|accept|str\()\S.*?)\s+# {value}$", line)
        below = re.match(rf"^# {value}$", line)
        if inline:
            expression, expected = inline.group(1), inline.group(2)
        elif below and previous.startswith("fastaccept."):
            expression, expected = previous, below.group(1)
        else:
            previous = line
            continue
        assert eval(expression, namespace) == eval(expected, {}), line
        checked += 1
        previous = line
    assert checked >= 8
