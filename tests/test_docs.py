"""The documentation's code runs and says what it prints; the site builds.

Every fenced block of README.md and docs/*.md is checked by its kind:

* ``python`` starting with ``# examples/<file>``: an excerpt, line for line,
  of that tested file;
* other ``python``: run; an expression statement followed by a comment that
  is a Python literal (``expr  # 'text/html'``, or ``# 'text/html'`` on the
  next line; ``# False: why`` checks ``False``) must evaluate to it;
* ``console`` transcripts of ``python -m fastaccept explain`` (or
  ``fastaccept explain``): run, and the output must be the one shown (the
  ``engine:`` line names the engine the suite runs on).

The example service's ``curl`` and client transcript (docs/web.md) is
replayed against the running service by tests/test_users_api.py; the set-up
commands (``pip install ...``, ``pytest``, ``nox``, ``sphinx-build``) are what
CI runs (.ci/run). The suite runs on each engine in CI, so the examples do too. The API
reference must name every public name, in tables that read without the site
too; the site must build with warnings as errors (``sphinx-build -W``, when
the ``[docs]`` extra is installed; CI sets ``FASTACCEPT_REQUIRE_DOCS`` so that
a missing one fails there, as do the charts' matplotlib tests in
tests/test_cli.py), and its pages must fit 1280 px without sideways scrolling
(``tools/check_docs_width.py`` in headless Chromium; CI sets
``FASTACCEPT_REQUIRE_BROWSERS``).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import io
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import GenericAlias

import pytest

import fastaccept
from fastaccept.__main__ import main

from .conftest import skip_browsers_under_sanitizers, skip_or_fail
from .test_layers import LAYERS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: The integration modules, each with its section in docs/api.md: the
#: integrations layer's (tests/test_layers.py), but ``_endpoint``.
INTEGRATIONS = tuple(m for m in LAYERS["integrations"] if not m.startswith("_"))
#: The site's content column at 1280 px (furo's 46em), in CSS pixels.
COLUMN = 736


def blocks(language: str) -> list[tuple[str, str]]:
    """(``page:line``, code) of every ``language`` block of the pages."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{page.relative_to(ROOT)}:{line}", match.group(2)))
    return found


PYTHON = blocks("python")
EXCERPTS = [(where, code) for where, code in PYTHON if code.startswith("# examples/")]
PROGRAMS = [(where, code) for where, code in PYTHON if (where, code) not in EXCERPTS]


def test_the_pages_have_examples_of_each_kind() -> None:
    assert len(EXCERPTS) >= 8 and len(PROGRAMS) >= 4
    assert TRANSCRIPTS, "no explain transcript found"


def test_every_recipe_is_shown() -> None:
    shown = {code.partition("\n")[0].removeprefix("# ") for _, code in EXCERPTS}
    recipes = {
        f"examples/{p.parent.name}/{p.name}"
        for folder in ("frameworks", "agents")
        for p in ROOT.glob(f"examples/{folder}/*.py")
    }
    assert shown == {*recipes, "examples/httpx_client.py", "examples/mcp_asgi.py"}


@pytest.mark.parametrize(("where", "code"), EXCERPTS, ids=[w for w, _ in EXCERPTS])
def test_excerpts_are_in_the_tested_files(where: str, code: str) -> None:
    path, _, excerpt = code.partition("\n")
    source = (ROOT / path.removeprefix("# ")).read_text(encoding="utf-8")
    assert excerpt.strip(), f"{where}: an empty excerpt"
    assert "\n" + excerpt in "\n" + source, f"{where}: not line for line in {path}"


class Repr:
    """A result a comment states as its ``repr`` (``# Accept('a/b')``): equal
    to the object whose ``repr`` it is."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return repr(other) == self.text

    def __repr__(self) -> str:
        return self.text


#: A call's text, as a repr of a named tuple or a parsed value writes one.
REPR = re.compile(r"[A-Z]\w*\(.*\)")


def expected_value(comment: str) -> tuple[bool, object]:
    """The literal a ``# ...`` comment states (``# False: why`` states False),
    or the ``repr`` (``Repr``)."""
    text = comment.lstrip("#").strip()
    for candidate in (text, text.split(": ", 1)[0]):
        with contextlib.suppress(ValueError, SyntaxError):
            return True, ast.literal_eval(candidate)
    if REPR.fullmatch(text):
        return True, Repr(text)
    return False, None


def checks_of(code: str) -> list[tuple[ast.stmt, object | None, bool]]:
    """Each top-level statement, the literal its comment states, and whether
    it states one (expression statements only)."""
    lines = code.splitlines()
    found: list[tuple[ast.stmt, object | None, bool]] = []
    for node in ast.parse(code).body:
        stated, value = False, None
        if isinstance(node, ast.Expr) and node.end_lineno is not None:
            last = lines[node.end_lineno - 1]
            inline = last[node.end_col_offset or len(last) :].strip()
            below = (
                lines[node.end_lineno].strip() if node.end_lineno < len(lines) else ""
            )
            for comment in (inline, below):
                if comment.startswith("#"):
                    stated, value = expected_value(comment)
                    if stated:
                        break
        found.append((node, value, stated))
    return found


@pytest.mark.parametrize(("where", "code"), PROGRAMS, ids=[w for w, _ in PROGRAMS])
def test_examples_run_and_their_comments_are_true(where: str, code: str) -> None:
    namespace: dict[str, object] = {"__name__": "docs_example"}
    for node, expected, stated in checks_of(code):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            framework = node.module.partition(".")[0]
            if (
                framework != "fastaccept"
                and importlib.util.find_spec(framework) is None
            ):
                pytest.skip(f"{where} needs {framework}, not installed here")
        if stated and isinstance(node, ast.Expr):
            expression = ast.Expression(body=node.value)
            got = eval(compile(expression, where, "eval"), namespace)
            line = code.splitlines()[node.lineno - 1]
            assert got == expected, f"{where}: {line}"
        else:
            module = ast.Module(body=[node], type_ignores=[])
            exec(compile(module, where, "exec"), namespace)


def test_the_quick_start_states_its_results() -> None:
    quick_start = next(code for where, code in PROGRAMS if "README.md" in where)
    assert sum(stated for _, _, stated in checks_of(quick_start)) >= 8


def transcripts() -> list[tuple[str, list[str], list[str]]]:
    """(where, arguments, output lines) of every explain transcript."""
    found = []
    for where, code in blocks("console"):
        for command in re.split(r"^\$ ", code, flags=re.MULTILINE)[1:]:
            first, *output = command.rstrip("\n").split("\n")
            words = shlex.split(first)
            if words[:3] == ["python", "-m", "fastaccept"]:
                found.append((where, words[3:], output))
            elif words[:1] == ["fastaccept"]:
                found.append((where, words[1:], output))
    return found


TRANSCRIPTS = transcripts()


@pytest.mark.thread_unsafe(reason="redirects the process's stdout and stderr")
@pytest.mark.parametrize(
    ("where", "arguments", "shown"), TRANSCRIPTS, ids=[t[0] for t in TRANSCRIPTS]
)
def test_explain_transcripts_show_what_it_prints(
    where: str, arguments: list[str], shown: list[str]
) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(arguments)
    # "--strict reports the first violation and exits 1"
    assert status == (1 if any(line.startswith("error:") for line in shown) else 0)
    printed = (out.getvalue() + err.getvalue()).rstrip("\n").split("\n")
    expected = [
        f"engine:  {fastaccept.IMPLEMENTATION}" if line.startswith("engine:") else line
        for line in shown
    ]
    assert printed == expected, where


def test_the_api_reference_names_every_public_name() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    directive = r"^\.\. (?:auto\w+|data):: fastaccept\.(\w+)$"
    documented = set(re.findall(directive, text, re.MULTILINE))
    modules = {name for name in documented if name in INTEGRATIONS}
    assert documented - modules == set(fastaccept.__all__)
    assert modules == set(INTEGRATIONS)


def test_the_api_reference_reads_without_the_site() -> None:
    """Read as plain Markdown (a code host shows the autodoc directives as
    code), api.md's tables still give every public name a line, and each
    integration module a heading, a sentence and its names."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    prose = re.sub(r"^```\{eval-rst\}\n.*?^```$", "", text, flags=re.M | re.S)
    first_cells = re.findall(r"^\| (.+?) \|", prose, re.MULTILINE)
    named = set(re.findall(r"`(\w+)", " ".join(first_cells)))
    assert set(fastaccept.__all__) <= named
    # Each name links to its entry below (MyST resolves the object's id).
    for cell in first_cells:
        for name in re.findall(r"(?<!\[)`(\w+)", cell):
            assert name not in fastaccept.__all__, f"{name} is not a link: {cell}"
    modules = prose.split("\n## Integration modules\n", 1)[1]
    for name in INTEGRATIONS:
        link = rf"\[`fastaccept\.{name}`\]\(#module-fastaccept\.{name}\)"
        (row,) = re.findall(rf"^\| {link} \|.*", modules, re.MULTILINE)
        try:  # the names it exports, where its framework is installed
            module = importlib.import_module(f"fastaccept.{name}")
        except ModuleNotFoundError as missing:  # free-threaded 3.13: no FastAPI
            assert missing.name != f"fastaccept.{name}", missing
        else:
            names = set(re.findall(r"`(\w+)`", row))
            assert set(module.__all__) - {"negotiated", "dispatch"} == names
        section = text.split(f"\n### `fastaccept.{name}`\n", 1)[1]
        sentence, _, rest = section.split("\n### ", 1)[0].strip().partition("\n\n")
        assert sentence.startswith("For ") and "`negotiated`" in sentence, name
        assert rest == f"```{{eval-rst}}\n.. automodule:: fastaccept.{name}\n```", name


#: The integrations whose handlers return no response object of their
#: framework's (docs/web.md, "Handlers by media type").
WITHOUT_OWN_RESPONSE = {"asgi", "wsgi", "falcon"}


@pytest.mark.parametrize("name", INTEGRATIONS)
def test_dispatch_says_what_a_handler_may_return(name: str) -> None:
    try:
        module = importlib.import_module(f"fastaccept.{name}")
    except ModuleNotFoundError as missing:  # free-threaded 3.13: no FastAPI
        assert missing.name != f"fastaccept.{name}", missing
        pytest.skip(str(missing))
    doc = module.dispatch.__doc__
    assert "encoded in the offer's charset or\nUTF-8" in doc
    assert "A ``Rendered``" in doc and " it returns is sent as it is." in doc
    own = "the framework's own response" in doc
    assert own is (name not in WITHOUT_OWN_RESPONSE), name


@pytest.mark.parametrize(
    ("constant", "argument"),
    [("DEFAULT_MAX_LENGTH", "max_length"), ("DEFAULT_CACHE_SIZE", "cache_size")],
)
def test_the_named_defaults_are_documented(constant: str, argument: str) -> None:
    """The site's signatures show these names: api.md gives each one's value
    as the code defines it and every public name whose argument defaults
    to it."""
    from fastaccept import _limits

    value = getattr(_limits, constant)
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    (row,) = re.findall(rf"^\| `{constant}` \| `(\d+)` \|.*", text, re.MULTILINE)
    assert int(row) == value
    line = next(x for x in text.splitlines() if x.startswith(f"| `{constant}` |"))
    listed = set(re.findall(r"`(\w+)`", line.rsplit(" | ", 1)[1]))
    users = set()
    for name in fastaccept.__all__:
        obj = getattr(fastaccept, name)
        if callable(obj) and not isinstance(obj, GenericAlias):  # not Renderer
            parameter = inspect.signature(obj).parameters.get(argument)
            if parameter is not None and parameter.default == value:
                users.add(name)
    assert users and listed == users | {argument}


def benchmarks_page_charts() -> list[str]:
    """The charts docs/benchmarks.md shows, as it names them (``_static/...``)."""
    page = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    return re.findall(r"\]\((_static/bench/[\w-]+\.svg)\)", page)


def test_the_charts_fit_the_column() -> None:
    """Each chart the benchmarks page shows is drawn for the page's column:
    shown at 95% of its size or more, its labels stay legible."""
    charts = benchmarks_page_charts()
    assert len(charts) == 4
    for chart in charts:
        svg = (DOCS / chart).read_text(encoding="utf-8")
        width = re.search(r'<svg[^>]* width="([\d.]+)pt"', svg)
        assert width is not None, chart
        assert COLUMN / (float(width.group(1)) * 4 / 3) >= 0.95, chart


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with warnings as errors (``sphinx-build -W``)."""
    for module in ("sphinx", "myst_parser", "furo"):
        if importlib.util.find_spec(module) is None:
            reason = f"{module} is not installed (the [docs] extra)"
            skip_or_fail(reason, "FASTACCEPT_REQUIRE_DOCS")
    built = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(built),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        pytest.fail(f"sphinx-build -W failed:\n{build.stderr}")
    return built


@pytest.mark.thread_unsafe(
    reason="builds the site in a subprocess: slow, one is enough"
)
def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    api = (site / "api.html").read_text(encoding="utf-8")
    for name in fastaccept.__all__:
        assert f'id="fastaccept.{name}"' in api, name
    for module in INTEGRATIONS:
        assert f'id="fastaccept.{module}.negotiated"' in api, module
        assert f'<section id="fastaccept-{module}">' in api, module
    assert "_static/fastaccept.css" in api
    # The benchmarks page: each chart, and the report it includes.
    benchmarks = (site / "benchmarks.html").read_text(encoding="utf-8")
    for chart in benchmarks_page_charts():
        name = Path(chart).name
        assert f"_images/{name}" in benchmarks, name
        assert (site / "_images" / name).is_file(), name
    assert "engines: cython, python" in benchmarks


def check_width(site: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``tools/check_docs_width.py`` on a built site, at 1280 px."""
    skip_browsers_under_sanitizers()
    if not any(
        shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
    ):
        reason = "no Chromium for tools/check_docs_width.py (apt-get install chromium)"
        skip_or_fail(reason, "FASTACCEPT_REQUIRE_BROWSERS")
    tool = ROOT / "tools" / "check_docs_width.py"
    return subprocess.run(
        [sys.executable, str(tool), str(out), "--site", str(site), "--no-screenshots"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.mark.thread_unsafe(reason="runs Chromium on every page: slow, one is enough")
def test_every_page_fits_1280_px(site: Path, tmp_path: Path) -> None:
    checked = check_width(site, tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    pages = len(list(site.glob("*.html")))
    assert checked.stdout.endswith(
        f"{pages} pages checked at 1280 px; overflows found: none\n"
    )


@pytest.mark.thread_unsafe(reason="runs Chromium in a subprocess")
def test_the_width_check_finds_what_overflows(tmp_path: Path) -> None:
    """The check above can fail: on a page with a code block, a table and
    a line of prose too wide for the column, it names each one."""
    site = tmp_path / "site"
    site.mkdir()
    wide = "x" * 300
    (site / "page.html").write_text(
        f"""<!doctype html><html><head><style>
        body {{ margin: 0 }} .content {{ width: 736px; padding: 0 48px }}
        pre, .scroll {{ overflow-x: auto }}
        </style></head><body><div class="content"><article>
        <section id="code"><pre>{wide}</pre></section>
        <section id="table"><div class="scroll"><table><tr><td>{wide}</td>
        </tr></table></div></section>
        <section id="prose"><p><code>{wide}</code></p></section>
        <section id="fits"><pre>short</pre><table><tr><td>1</td></tr></table>
        </section></article></div></body></html>""",
        encoding="utf-8",
    )
    checked = check_width(site, tmp_path / "out")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    report = checked.stdout
    assert "the page scrolls sideways: html:" in report
    assert "content wider than its box: pre in #code" in report
    assert "content wider than its box: div.scroll in #table" in report
    assert "past the viewport's edge: table in #table" in report
    assert "past the article's column: code in #prose" in report
    assert "#fits" not in report
    assert report.endswith("1 pages checked at 1280 px; overflows found: 5\n")


#: How docs/web.md names each package whose oldest release it states.
OLDEST_STATED = {
    "starlette": "Starlette",
    "fastapi": "FastAPI",
    "pydantic": "pydantic",
    "flask": "Flask",
    "django": "Django",
    "falcon": "falcon",
    "litestar": "Litestar",
    "aiohttp": "aiohttp",
    "uvicorn": "uvicorn",
}


def test_web_md_states_the_oldest_releases_the_test_extra_admits() -> None:
    """docs/web.md says which framework releases are tested at the oldest
    (``nox -s lowest`` installs the [test] extra's lower bounds): the ones
    pyproject.toml declares."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extra = pyproject.split("\ntest = [", 1)[1].split("\n]", 1)[0]
    page = " ".join((DOCS / "web.md").read_text(encoding="utf-8").split())
    sentence = page.split("(`nox -s lowest`):", 1)[1].split(":", 1)[0]
    for name, shown in OLDEST_STATED.items():
        bound = re.search(rf'^\s*"{name}(?:\[[a-z,]+\])?>=([0-9.]+)', extra, re.M)
        assert bound, f"{name} has no lower bound in the [test] extra"
        release = rf"\b{shown} {re.escape(bound[1])}(?![.\d])"  # 5.2, not 5.2.18
        assert re.search(release, sentence), (name, bound[1], sentence)
