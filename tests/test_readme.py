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


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def test_web_application_example_runs_and_its_comments_are_true() -> None:
    block = re.search(
        r"```python\n(.*?)```", section("In a web application"), re.DOTALL
    )
    assert block is not None
    namespace: dict[str, object] = {}
    checked = 0
    for line in block.group(1).splitlines():
        code, _, expected = line.partition("   # ")
        if expected:
            assert eval(code, namespace) == eval(expected, {}), line
            checked += 1
        else:
            exec(line, namespace)
    assert checked == 3


def test_recipes_are_excerpts_of_the_tested_apps() -> None:
    """Each ``# examples/...`` block is, line for line, in the file it names."""
    root = README.parent
    blocks = re.findall(
        r"```python\n# (examples/\S+\.py)\n(.*?)```",
        section("In a web application"),
        re.DOTALL,
    )
    named = {path for path, _ in blocks}
    assert named == {
        *(
            f"examples/frameworks/{name}_app.py"
            for name in (
                "starlette",
                "fastapi",
                "flask",
                "django",
                "falcon",
                "asgi",
                "wsgi",
            )
        ),
        "examples/httpx_client.py",
    }
    for path, excerpt in blocks:
        assert excerpt in (root / path).read_text(encoding="utf-8"), path
