"""The build of the optional Cython engine, as docs/development.md describes it:
without a C compiler it gives the pure-Python package and one warning line;
where ``FASTACCEPT_REQUIRE_EXTENSIONS`` or ``CIBUILDWHEEL`` is set it ends with
one error line saying what is missing, no traceback; ``CI`` is not read.

Each build runs setuptools' PEP 517 backend (what pip and ``python -m build``
call) in a subprocess, on a copy of the source tree, with ``CC`` naming no
compiler."""

from __future__ import annotations

import email.parser
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from .conftest import PURE_RUN, release

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.skipif(
        platform.python_implementation() != "CPython",
        reason="the extension is built on CPython only",
    ),
    pytest.mark.skipif(
        sys.platform == "win32", reason="MSVC's compiler is not chosen by CC"
    ),
    pytest.mark.thread_unsafe(reason="the builds share one copy of the tree"),
    # the build does not depend on the engine this process chose
    pytest.mark.skipif(PURE_RUN is not None, reason=str(PURE_RUN)),
]

# The [test] extra brings it (checked below); the free-threaded nox session
# leaves it out (noxfile.py says why).
pytest.importorskip("Cython", reason="the build needs Cython ([test] extra)")

#: The variables the build reads, and CI, which it must not.
BUILD_VARIABLES = ("FASTACCEPT_REQUIRE_EXTENSIONS", "CIBUILDWHEEL", "CI")

WARNING = (
    "WARNING: the fastaccept Cython extension could not be built (cannot run "
    "/nonexistent: No such file or directory), so the pure-Python engine will "
    "be used (same results, slower); for the compiled one, install a C "
    "compiler and the Python headers ("
)


#: The installed setuptools' release, which the builds here use.
SETUPTOOLS = release("setuptools")
#: A command that fails (``false``), by its path.
FALSE = shutil.which("false") or "/bin/false"


def error(cause: str, required_by: str) -> str:
    return (
        f"error: the fastaccept Cython extension could not be built ({cause}) "
        f"and {required_by} is set, which requires it: install a C compiler and "
        "the Python headers ("
    )


#: ``build_wheel``'s Cython: the one the test extra installs.
INSTALLED = "installed"
#: A Cython of ``version`` (a prefix ``broken-``: one whose ``Cython.Build``
#: cannot be imported; ``unversioned``: an empty ``Cython`` folder left
#: behind) whose ``cythonize`` fails as Cython 3.0 does on the engine's
#: directives.
STAND_IN = """
import types
version = {version!r}
sys.modules["Cython"] = types.SimpleNamespace()
if version != "unversioned":
    sys.modules["Cython"].__version__ = version.removeprefix("broken-")
def cythonize(*args, **kwargs):
    raise ValueError("got unknown compiler directive: freethreading_compatible")
if not version.startswith("broken-"):
    sys.modules["Cython.Build"] = types.SimpleNamespace(cythonize=cythonize)
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the build reads: no extension, no generated C."""
    copy = tmp_path_factory.mktemp("tree")
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(
        ROOT / "src" / "fastaccept",
        copy / "src" / "fastaccept",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"),
    )
    return copy


def build_wheel(
    tree: Path,
    out: Path,
    cc: str = "/nonexistent",
    hook: str = "build_wheel",
    env: dict[str, str] | None = None,
    cython: str | None = INSTALLED,
) -> subprocess.CompletedProcess[str]:
    """Build a wheel of ``tree`` into ``out`` with ``cc`` as the C compiler
    (by default none), by the backend's ``hook`` (``build_editable``: what
    ``pip install -e`` calls), ``env`` (the build's variables cleared
    first), and ``cython``: the one installed, None where it cannot be
    imported, or the version of a stand-in found instead (a build without
    isolation takes its environment's: ``STAND_IN``); stdout and stderr as
    one text."""
    environ = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("FASTACCEPT_") and name not in BUILD_VARIABLES
    }
    script = "import sys\n"
    if cython is None:
        script += "sys.modules['Cython'] = None\n"
    elif cython != INSTALLED:
        script += STAND_IN.format(version=cython)
    script += (
        "from setuptools import build_meta\n"
        "print(getattr(build_meta, sys.argv[2])(sys.argv[1]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script, str(out), hook],
        cwd=tree,
        env={**environ, "CC": cc, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        check=False,
    )


def warnings_of(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("WARNING:")]


@pytest.mark.parametrize(
    ("env", "hook"),
    [
        ({}, "build_wheel"),
        # every CI provider sets CI: it changes nothing
        ({"CI": "true"}, "build_wheel"),
        ({}, "build_editable"),  # the README's pip install -e
    ],
    ids=["plain", "CI=true", "editable"],
)
def test_optional_build_falls_back_with_one_warning(
    tree: Path, tmp_path: Path, env: dict[str, str], hook: str
) -> None:
    done = build_wheel(tree, tmp_path, hook=hook, env=env)
    assert done.returncode == 0, done.stdout
    # setuptools before 80.4 prints the traceback of a failed editable build
    # itself, before the fallback builds it again.
    if hook != "build_editable" or SETUPTOOLS >= (80, 4):
        assert "Traceback" not in done.stdout
    (warning,) = warnings_of(done.stdout)
    assert warning.startswith(WARNING), warning
    # pip keeps the pure wheel it built: a plain reinstall would take it again.
    # From a checkout or an sdist as from an index: not a name alone, which
    # an index would answer with its own release.
    assert warning.endswith(
        "and install again past pip's cache of this build "
        "(the same pip install, with --force-reinstall --no-cache-dir)."
    ), warning
    wheel = done.stdout.splitlines()[-1]
    assert wheel.endswith("-py3-none-any.whl"), wheel
    assert (tmp_path / wheel).is_file()


@pytest.mark.parametrize(
    ("required_by", "cc", "cause"),
    [
        (
            "FASTACCEPT_REQUIRE_EXTENSIONS",
            "/nonexistent",
            "cannot run /nonexistent: No such file or directory",
        ),
        # A failing compiler, by its path: older setuptools (80.4 too) name
        # the command found on PATH, newer ones the command as given.
        ("CIBUILDWHEEL", FALSE, f"{FALSE} exited with status 1"),
    ],
)
def test_required_build_ends_with_one_line(
    tree: Path, tmp_path: Path, required_by: str, cc: str, cause: str
) -> None:
    done = build_wheel(tree, tmp_path, cc, env={required_by: "1"})
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stdout
    assert not warnings_of(done.stdout)
    last = done.stdout.splitlines()[-1]
    assert last.startswith(error(cause, required_by)), last
    assert not list(tmp_path.iterdir())  # no wheel


#: The compiled wheel's size target (docs/development.md, its row of the
#: sdist and wheel), set for CPython 3.12 on x86-64 Linux.
WHEEL_TARGET = 300_000


@pytest.mark.skipif(
    (sys.version_info[:2], sys.platform, platform.machine())
    != ((3, 12), "linux", "x86_64"),
    reason="the wheel's size target is set for CPython 3.12 on x86-64 Linux",
)
@pytest.mark.skipif(
    "CFLAGS" in os.environ, reason="CFLAGS replaces the flags wheels are built with"
)
def test_the_compiled_wheel_is_within_its_size_target(
    tree: Path, tmp_path: Path
) -> None:
    done = build_wheel(tree, tmp_path, "cc", env={"FASTACCEPT_REQUIRE_EXTENSIONS": "1"})
    assert done.returncode == 0, done.stdout
    wheel = tmp_path / done.stdout.splitlines()[-1]
    assert wheel.name.endswith("-cp312-cp312-linux_x86_64.whl"), wheel.name
    size = wheel.stat().st_size
    assert size <= WHEEL_TARGET, f"{size:,} bytes, over {WHEEL_TARGET:,}"


#: The advice where Cython cannot be imported.
NO_CYTHON = (
    "install the Cython that pyproject.toml's [build-system] requires (a build "
    "without isolation takes it from its environment)"
)


@pytest.mark.parametrize(
    ("cython", "cause"),
    [
        (None, "import of Cython halted; None in sys.modules"),  # (the stand-in's)
        # Debian 12 and Ubuntu 24.04 ship 0.29 and 3.0, which know none of
        # the engine's directives: Cython's ValueError, not a fallback
        ("3.0.11", "Cython 3.0.11 found, 3.1 or later needed"),
        ("0.29.37", "Cython 0.29.37 found, 3.1 or later needed"),
        # new enough, and broken: not a package (a half-removed install), or
        # an empty folder (a namespace package, no version)
        ("broken-3.3.0", "No module named 'Cython.Build'; 'Cython' is not a package"),
        (
            "unversioned",
            "'types.SimpleNamespace' object has no attribute '__version__'",
        ),
    ],
    ids=["absent", "3.0", "0.29", "broken", "unversioned"],
)
def test_a_build_without_a_usable_cython_falls_back_or_ends_with_one_line(
    tree: Path, tmp_path: Path, cython: str | None, cause: str
) -> None:
    """Built without isolation where Cython is not installed, or is older
    than the build allows: the fallback's one warning, or with the extension
    required its one line, naming Cython (not a compiler) and what is wrong
    with it; never a traceback."""
    (tmp_path / "pure").mkdir()
    # pip asks for the metadata first, in a process of its own: no warning
    # there (it was printed twice, once per process)
    metadata = build_wheel(
        tree,
        tmp_path / "pure",
        hook="prepare_metadata_for_build_wheel",
        cython=cython,
    )
    assert metadata.returncode == 0, metadata.stdout
    assert not warnings_of(metadata.stdout)
    assert metadata.stdout.splitlines()[-1].endswith(".dist-info")
    done = build_wheel(tree, tmp_path / "pure", cc="cc", cython=cython)
    assert done.returncode == 0, done.stdout
    assert "Traceback" not in done.stdout
    (warning,) = warnings_of(done.stdout)
    assert f"built ({cause}" in warning, warning
    assert f"for the compiled one, {NO_CYTHON} and install again" in warning, warning
    assert done.stdout.splitlines()[-1].endswith("-py3-none-any.whl")
    required = build_wheel(
        tree,
        tmp_path,
        cc="cc",
        cython=cython,
        env={"FASTACCEPT_REQUIRE_EXTENSIONS": "1"},
    )
    assert required.returncode == 1, required.stdout
    assert "Traceback" not in required.stdout
    last = required.stdout.splitlines()[-1]
    assert f"built ({cause}" in last, last
    assert last.endswith(f"which requires it: {NO_CYTHON} and build again."), last


def project_page(tree: Path, out: Path) -> tuple[str, str]:
    """The description and the Homepage of ``tree``'s built metadata."""
    done = build_wheel(
        tree,
        out,
        hook="prepare_metadata_for_build_wheel",
        env={"FASTACCEPT_NO_EXTENSIONS": "1"},
    )
    assert done.returncode == 0, done.stdout
    metadata_file = out / done.stdout.splitlines()[-1] / "METADATA"
    metadata = email.parser.Parser().parsestr(metadata_file.read_text("utf-8"))
    assert metadata["Description-Content-Type"] == "text/markdown"
    description = metadata.get_payload()
    assert isinstance(description, str)
    homepage = next(
        url.partition(", ")[2]
        for url in metadata.get_all("Project-URL", [])
        if url.startswith("Homepage, ")
    )
    return description, homepage


def test_the_project_page_links_to_the_repository(tree: Path, tmp_path: Path) -> None:
    """The wheel's description is README.md with each relative link made
    absolute on the Homepage's main branch (PyPI shows it away from the
    repository), each to a file or folder the checkout has; nothing else
    changed. README.md holds inline links only: the build rewrites no
    image, reference-style or titled link."""
    readme = (ROOT / "README.md").read_text("utf-8")
    prose = re.sub(r"^```.*?^```$", "", readme, flags=re.MULTILINE | re.DOTALL)
    assert not re.search(r"!\[|^ {0,3}\[[^\]]+\]:|\]\([^)\s]+\s+[\"'(]", prose, re.M)
    description, homepage = project_page(tree, tmp_path)
    base = f"{homepage.rstrip('/')}/blob/main/"
    targets = re.findall(r"\]\(([^)\s]+)\)", description)
    relative = [t for t in targets if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:|#", t)]
    assert not relative
    linked = [t.removeprefix(base) for t in targets if t.startswith(base)]
    assert len(linked) >= 10, linked  # README links to every docs page
    for path in linked:
        assert (ROOT / path.partition("#")[0]).exists(), path
    assert description.replace(f"]({base}", "](").strip() == readme.strip()


def test_the_project_page_rewrites_relative_links_only(
    tree: Path, tmp_path: Path
) -> None:
    """A link with a scheme (any case), an anchor or an address, and text
    in fenced code, are left as written."""
    copy = tmp_path / "tree"
    shutil.copytree(tree, copy)
    kept = (
        "[a](HTTPS://example.org/a) [b](#usage) [c](mailto:x@example.org)\n"
        "```python\noffers[0](docs/x.md)\n```\n"
    )
    (copy / "README.md").write_text(f"[d](docs/rules.md#rule-8)\n{kept}", "utf-8")
    description, homepage = project_page(copy, tmp_path)
    absolute = f"{homepage.rstrip('/')}/blob/main/docs/rules.md#rule-8"
    assert description.strip() == f"[d]({absolute})\n{kept}".strip()


def test_test_extra_holds_the_build_requirements() -> None:
    """The builds above need what the build needs: the [test] extra carries
    ``[build-system].requires`` as written there."""
    tomllib = pytest.importorskip("tomllib", reason="reads TOML with Python 3.11+")
    with (ROOT / "pyproject.toml").open("rb") as file:
        pyproject = tomllib.load(file)
    test_extra = pyproject["project"]["optional-dependencies"]["test"]
    for requirement in pyproject["build-system"]["requires"]:
        assert requirement in test_extra, requirement


def test_sdist_holds_what_the_tests_read(tmp_path: Path) -> None:
    """MANIFEST.in: the sdist holds every file of the checkout the tests, nox
    and the tools read (the docs the tests check, ``tools/requirements.py``),
    so its tests run from it."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("lists the checkout's files with git")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    source = tmp_path / "source"
    for name in listed:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    built = source / "docs" / "_build" / "_static"  # the docs site, built here
    built.mkdir(parents=True)
    (built / "site.css").write_text("a {}", encoding="utf-8")
    done = build_wheel(source, tmp_path, hook="build_sdist")
    assert done.returncode == 0, done.stdout
    with tarfile.open(tmp_path / done.stdout.splitlines()[-1]) as sdist:
        held = {name.partition("/")[2] for name in sdist.getnames()}
    read = ("tests/", "docs/", "tools/", "benchmarks/", "examples/", "fuzz/")
    missing = [name for name in listed if name.startswith(read) and name not in held]
    assert not missing
    assert not [name for name in held if name.startswith("docs/_build")]
