"""Build the optional Cython engine (the markupsafe pattern).

* ``FASTACCEPT_NO_EXTENSIONS=1``, or an interpreter other than CPython: no
  extension; a pure-Python package (a ``py3-none-any`` wheel).
* Otherwise the extension is built. If the compiler or the platform fails
  (no compiler, no Python headers), or Cython cannot be imported or is
  older than ``[build-system].requires`` allows (a build without isolation
  uses the environment's own), the build starts again without it and the
  result is a pure-Python package, with one warning line on stderr: what
  failed, that the pure-Python engine will be used, and what to install for
  the compiled one (``pip install -v`` shows it; ``python -c "import
  fastaccept; print(fastaccept.IMPLEMENTATION)"`` tells which engine an
  install has). Where ``FASTACCEPT_REQUIRE_EXTENSIONS`` or ``CIBUILDWHEEL`` is
  set, such a failure is an error, and the build ends with one line saying
  what failed and what to install, no traceback. ``CI`` is not read: every CI
  provider sets it, downstream projects' too.
* The pure engine ``_scan_py`` is the typed reference: the docstrings of its
  public functions and methods are copied into the compiled engine at build
  time (``_docs_include``), so each is written once.
* The project page's description is README.md with its relative links made
  absolute (``_long_description``): PyPI shows it away from the repository.
* The extension carries no debug information (``-g0``: a sixth of the size)
  and, on Linux, no symbol table (``-s``: a tenth of what is left) unless
  ``CFLAGS`` asks for it (``-g``, as the sanitizer and fuzz builds do, and a
  profile that names the engine's functions needs).
"""

from __future__ import annotations

import ast
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

#: Every Cython directive of the engine, in one place.
DIRECTIVES = {
    "language_level": 3,
    # Built-in functions and methods, as an extension module's own: a Cython
    # function object is one reference count that every calling thread writes.
    # Each carries its signature where CPython reads a built-in's (for inspect).
    "binding": False,
    "embedsignature": True,
    "embedsignature.format": "clinic",
    "auto_pickle": False,  # Negotiator pickles by its own __reduce__
    "autotestdict": False,  # no __test__ dict in the module
    # Runs without the GIL on free-threaded CPython: _scan.pyx says why.
    "freethreading_compatible": True,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _debug_wanted() -> bool:
    """Whether the environment's CFLAGS ask for debug information."""
    return any(flag.startswith("-g") for flag in os.environ.get("CFLAGS", "").split())


class BuildFailed(Exception):
    """The compiler or the platform could not build the extension, or Cython
    could not be used."""


class CythonUnusable(BuildFailed):
    """Cython could not be imported, or is older than the build allows (a
    build without isolation takes the environment's own)."""


def _lowest_cython() -> str:
    """The lowest Cython ``[build-system].requires`` admits (its ``>=`` bound)."""
    text = Path("pyproject.toml").read_text(encoding="utf-8")
    found = re.search(
        r"""^requires\s*=\s*\[[^\]]*?["']cython\s*>=\s*([0-9.]+)""",
        text,
        re.MULTILINE | re.IGNORECASE,
    )
    if found is None:
        raise SystemExit("error: pyproject.toml's [build-system] names no Cython>=")
    return found[1]


def _release(version: str) -> tuple[int, ...]:
    """A version's release numbers: ``"3.0.11"`` -> (3, 0, 11); a pre-release
    or local part is left out."""
    numbers = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(map(int, numbers[0].split("."))) if numbers else ()


class OptionalBuildExt(build_ext):
    """Cythonize and build the extension, only when a command builds it (not
    for the metadata, an sdist or egg_info); a missing or too old Cython is
    ``CythonUnusable``, a compiler or platform failure ``BuildFailed``."""

    def run(self) -> None:
        if self.extensions:
            lowest = _lowest_cython()
            try:  # a build without isolation uses the environment's own
                import Cython

                version = Cython.__version__
                from Cython.Build import cythonize
            except (ImportError, AttributeError) as exc:  # none, or a broken one
                raise CythonUnusable(exc) from exc
            if _release(version) < _release(lowest):
                found = f"Cython {version} found, {lowest} or later needed"
                raise CythonUnusable(found)
            made = cythonize(
                self.extensions,
                compiler_directives=DIRECTIVES,
                include_path=[str(_docs_include())],
            )
            for ext, cythonized in zip(self.extensions, made, strict=True):
                ext.sources = cythonized.sources  # the C that Cython wrote
        try:
            super().run()
        except PlatformError as exc:
            raise BuildFailed(exc) from exc

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type != "msvc" and not _debug_wanted():
            ext.extra_compile_args = [*ext.extra_compile_args, "-g0"]
            if sys.platform.startswith("linux"):  # no symbol table either
                ext.extra_link_args = [*ext.extra_link_args, "-s"]
        try:
            super().build_extension(ext)
        except (CCompilerError, ExecError, PlatformError) as exc:
            raise BuildFailed(exc) from exc


#: Where the build writes ``_scan_docs.pxi`` (a build output, never committed).
DOCS_INCLUDE_DIR = Path("build") / "cython-include"


def _docs_include() -> Path:
    """Write the pure engine's docstrings of its public functions and methods
    as ``_DOCS = {name or "Class.method": docstring}`` for ``_scan.pyx`` to
    apply; the folder to put on Cython's include path."""
    tree = ast.parse(Path("src/fastaccept/_scan_py.py").read_text(encoding="utf-8"))
    docs: dict[str, str] = {}
    for node in tree.body:
        scopes = [("", node)]
        if isinstance(node, ast.ClassDef):  # a private base's methods are public
            scopes = [(f"{node.name}.", item) for item in node.body]
        for prefix, item in scopes:
            if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                doc = ast.get_docstring(item, clean=False)
                if doc and not any(  # a property's is the .pyx's own
                    isinstance(d, ast.Name) and d.id == "property"
                    for d in item.decorator_list
                ):
                    docs[prefix + item.name] = doc
    DOCS_INCLUDE_DIR.mkdir(parents=True, exist_ok=True)
    include = DOCS_INCLUDE_DIR / "_scan_docs.pxi"
    text = f"_DOCS = {docs!r}\n"
    if not include.exists() or include.read_text(encoding="utf-8") != text:
        include.write_text(text, encoding="utf-8")  # unchanged: no rebuild
    return DOCS_INCLUDE_DIR


#: A fenced code block (its text is code, not links), or a Markdown inline
#: link's target that is a path in the repository (group 2): not a URL (any
#: scheme), an anchor of the same page or an e-mail address.
CODE_OR_RELATIVE_LINK = re.compile(
    r"^(```|~~~).*?^\1[ \t]*$|\]\((?![A-Za-z][A-Za-z0-9+.-]*:|#)([^)\s]+)\)",
    re.MULTILINE | re.DOTALL,
)


def _long_description() -> str:
    """README.md, each relative link made absolute on the repository's main
    branch (pyproject.toml's ``Homepage``): on the project page they would
    lead nowhere. The docs site includes README.md itself, links as written."""
    homepage = re.search(
        r'^Homepage = "([^"]+)"$',
        Path("pyproject.toml").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    if homepage is None:
        raise SystemExit("error: pyproject.toml's [project.urls] has no Homepage")
    base = homepage[1].rstrip("/") + "/blob/main/"
    readme = Path("README.md").read_text(encoding="utf-8")
    return CODE_OR_RELATIVE_LINK.sub(
        lambda found: found[0] if found[2] is None else f"]({base}{found[2]})", readme
    )


def _run_setup(with_extension: bool) -> None:
    setup(
        ext_modules=(
            [Extension("fastaccept._scan", ["src/fastaccept/_scan.pyx"])]
            if with_extension
            else []
        ),
        cmdclass={"build_ext": OptionalBuildExt},
        long_description=_long_description(),
        long_description_content_type="text/markdown",
    )


def _wanted() -> bool:
    return (
        not _truthy("FASTACCEPT_NO_EXTENSIONS")
        and platform.python_implementation() == "CPython"
    )


def _required_by() -> str | None:
    """The variable that makes a failed build an error, if one is set."""
    return next(
        (n for n in ("FASTACCEPT_REQUIRE_EXTENSIONS", "CIBUILDWHEEL") if _truthy(n)),
        None,
    )


#: Where to get a C compiler and the Python headers, by ``sys.platform``.
HOW_TO_GET = {
    "darwin": "xcode-select --install",
    "win32": "the Microsoft C++ Build Tools",
}


def _cause(error: BaseException) -> BaseException | None:
    """The exception ``error`` was raised from, or during, as a traceback
    shows it (not a context ``from None`` hid: importlib's own)."""
    if error.__cause__ is not None or error.__suppress_context__:
        return error.__cause__
    return error.__context__


def _failed(failure: BuildFailed) -> str:
    """What happened, with the first cause in a few words (the compiler's own
    messages, if it ran, are above)."""
    root: BaseException = failure
    while (inner := _cause(root)) is not None:
        root = inner
    if isinstance(root, OSError) and root.filename:
        cause = f"cannot run {root.filename}: {root.strerror}"
    elif isinstance(root, subprocess.CalledProcessError):
        command = root.cmd if isinstance(root.cmd, str) else root.cmd[0]
        cause = f"{command} exited with status {root.returncode}"
    else:
        cause = str(root).strip().partition("\n")[0] or type(root).__name__
    return f"the fastaccept Cython extension could not be built ({cause})"


def _needed(failure: BuildFailed) -> str:
    """What the extension needs and how to get it here: Cython where it could
    not be used, else a compiler and the headers."""
    if isinstance(failure, CythonUnusable):
        return (
            "install the Cython that pyproject.toml's [build-system] requires "
            "(a build without isolation takes it from its environment)"
        )
    how = HOW_TO_GET.get(sys.platform, "e.g. apt install gcc python3-dev")
    return f"install a C compiler and the Python headers ({how})"


def _forget_made_folders() -> None:
    """distutils' ``mkpath`` remembers each folder it made in this process and
    makes none of them again: the second ``setup`` must remake the one the
    first made and removed (an editable install's ``.egg-info``)."""
    from distutils import dir_util  # setuptools' own, once setuptools is imported

    made = getattr(dir_util, "SkipRepeatAbsolutePaths", None)
    if made is not None:
        made.clear()


if not _wanted():
    _run_setup(with_extension=False)
else:
    try:
        _run_setup(with_extension=True)
    except BuildFailed as failure:
        required_by = _required_by()
        if required_by:  # one line, the last of the build's output; no traceback
            sys.stdout.flush()
            sys.exit(
                f"error: {_failed(failure)} and {required_by} is set, which "
                f"requires it: {_needed(failure)} and build again."
            )
        print(
            f"WARNING: {_failed(failure)}, so the pure-Python engine will be used "
            f"(same results, slower); for the compiled one, {_needed(failure)} "
            "and install again past pip's cache of this build (the same pip "
            "install, with --force-reinstall --no-cache-dir).",
            file=sys.stderr,
        )
        _forget_made_folders()
        _run_setup(with_extension=False)
