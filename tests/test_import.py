"""What ``import fastaccept`` loads: one engine and what a negotiation needs
(docs/development.md, "A lean import"); the web answers load on first use."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import fastaccept

from .conftest import CYTHON_MISSING, PACKAGE_ROOT, run_in_engine

#: The package modules a negotiation needs, besides the engine.
NEEDED = {
    "fastaccept",
    "fastaccept._arguments",  # Offer's equality, hash and pickling
    "fastaccept._coding",
    "fastaccept._cors",
    "fastaccept._defaults",
    "fastaccept._engine",
    "fastaccept._errors",
    "fastaccept._format",
    "fastaccept._grammar",
    "fastaccept._language",
    "fastaccept._limits",
    "fastaccept._lists",
    "fastaccept._match",
    "fastaccept._member",
    "fastaccept._text",
    "fastaccept._tuples",
    "fastaccept._types",
}
ENGINE_MODULES = {
    "cython": {"fastaccept._scan"},
    "python": {"fastaccept._scan_py"},
}
#: Standard modules no negotiation needs: each costs milliseconds at start.
NEVER = {
    "ast",
    "asyncio",
    "dataclasses",
    "dis",
    "email",
    "http",
    "importlib.metadata",
    "importlib.util",
    "inspect",
    "json",
    "socket",
    "threading",
    "tokenize",
    "typing",
}


def added_by(statement: str, engine: str) -> set[str]:
    """The modules ``statement`` adds to a bare interpreter's ``sys.modules``.

    Without ``site`` (``-S``), so no ``.pth`` file or ``sitecustomize`` has
    loaded a module before (``re`` or ``typing``, which would then never be
    counted); fastaccept is found on ``PYTHONPATH`` alone.
    """
    code = (
        "import sys; before = set(sys.modules); "
        f"{statement}; print(' '.join(sorted(set(sys.modules) - before)))"
    )
    env = {
        **os.environ,
        "FASTACCEPT_NO_EXTENSIONS": "1" if engine == "python" else "",
        "PYTHONPATH": PACKAGE_ROOT,
    }
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(done.stdout.split())


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_import_loads_one_engine_and_what_a_negotiation_needs(engine: str) -> None:
    if engine == "cython" and CYTHON_MISSING:
        pytest.skip(CYTHON_MISSING)
    added = added_by("import fastaccept", engine)
    own = {name for name in added if name.partition(".")[0] == "fastaccept"}
    assert own == NEEDED | ENGINE_MODULES[engine]
    assert not added & NEVER, sorted(added & NEVER)


def test_the_compiled_engine_loads_re_with_the_first_offers_it_reads() -> None:
    # The readers both engines share compile their patterns on first use
    # (_grammar.pattern); the pure engine's own fast paths need re at once.
    if CYTHON_MISSING:
        pytest.skip(CYTHON_MISSING)
    assert "re" not in added_by("import fastaccept", "cython")
    first_use = "import fastaccept; fastaccept.Negotiator(['text/html'])"
    assert "re" in added_by(first_use, "cython")
    assert "re" in added_by("import fastaccept", "python")


def test_a_pattern_compiled_on_use_reads_as_the_pattern_does() -> None:
    from fastaccept._grammar import TOKEN, pattern

    def spans(found: re.Match[str] | None) -> tuple[int, int] | None:
        return None if found is None else found.span()

    compiled = re.compile(TOKEN)
    for method in ("match", "fullmatch", "search"):
        for text in ("gzip", "a b", "", "x-gzip;q=1", "\xff"):
            namespace: dict[str, object] = {}
            namespace["token"] = token = pattern(TOKEN, namespace)
            found = getattr(token, method)(text)
            assert spans(found) == spans(getattr(compiled, method)(text))
            assert compiled_in_place(namespace["token"], compiled)
    namespace = {}
    namespace["token"] = token = pattern(TOKEN, namespace)
    assert token.sub("_", "a b;c") == compiled.sub("_", "a b;c")
    assert compiled_in_place(namespace["token"], compiled)


def compiled_in_place(found: object, compiled: re.Pattern[str]) -> bool:
    """``found`` is ``re``'s compiled pattern, equal to ``compiled`` (the same
    source and flags). Not the same object: ``re``'s cache is the process's,
    and a thread compiling the pattern at once may store its own there
    (pytest-run-parallel runs this test in two threads)."""
    return type(found) is re.Pattern and found == compiled


def test_a_web_answer_loads_with_its_first_use() -> None:
    added = added_by("import fastaccept; fastaccept.Produces", "python")
    assert "fastaccept._responses" in added and "json" in added
    assert "fastaccept._headers" not in added_by("import fastaccept", "python")
    # the same objects as their modules', every public name listed and there
    from fastaccept import _headers, _render, _responses

    assert fastaccept.Produces is _responses.Produces
    assert fastaccept.Answer is _render.Answer
    assert fastaccept.merge_vary is _headers.merge_vary
    assert set(fastaccept.__all__) <= set(dir(fastaccept))
    for name in fastaccept.__all__:
        assert getattr(fastaccept, name) is not None
    with pytest.raises(AttributeError, match="has no attribute 'Producer'"):
        fastaccept.Producer  # type: ignore[attr-defined]  # noqa: B018


def test_a_preset_loads_only_when_imported() -> None:
    # fastaccept.agents: the web answers it builds on, no framework.
    assert "fastaccept.agents" not in added_by("import fastaccept", "python")
    added = added_by("import fastaccept.agents", "python")
    assert {"fastaccept.agents", "fastaccept._render"} <= added
    assert "fastaccept._endpoint" not in added
    assert not {"starlette", "flask", "django", "werkzeug", "aiohttp"} & added
    # fastaccept.mcp: the decisions it builds on, nothing of the web layer.
    assert "fastaccept.mcp" not in added_by("import fastaccept", "python")
    added = added_by("import fastaccept.mcp", "python")
    assert {"fastaccept.mcp", "fastaccept._responses"} <= added
    assert not {"fastaccept._render", "fastaccept._endpoint", "starlette"} & added


#: A process that negotiates in its main interpreter and in two
#: subinterpreters, in the order its arguments give: ``main``, ``legacy``
#: (sharing the GIL, as mod_wsgi's are) and ``isolated`` (its own GIL from
#: 3.12 on, PEP 684, as ``concurrent.interpreters`` makes them); each prints
#: the engine it imported and its answer.
IN_INTERPRETERS = """
import sys

WORK = '''
import os, fastaccept
answer = fastaccept.negotiate("application/json;q=0.5, text/*", ["application/json", "text/html"])
os.write(1, f"{fastaccept.IMPLEMENTATION} {answer}\\\\n".encode())
'''

def in_subinterpreter(config, work=WORK):
    if sys.version_info >= (3, 13):
        import _interpreters

        interpreter = _interpreters.create(config)
        try:
            failed = _interpreters.exec(interpreter, work)
        finally:
            _interpreters.destroy(interpreter)
        if failed is not None:
            raise SystemExit(failed.formatted)
    else:
        import _xxsubinterpreters

        interpreter = _xxsubinterpreters.create(isolated=config == "isolated")
        try:
            _xxsubinterpreters.run_string(interpreter, work)
        finally:
            _xxsubinterpreters.destroy(interpreter)

if sys.argv[1] == "pickles":  # made here, chosen by each subinterpreter
    import pickle
    import fastaccept

    made = (
        fastaccept.Negotiator(["application/json", "text/html"]),
        fastaccept.EncodingNegotiator(["gzip", "br"]),
        fastaccept.LanguageNegotiator(["en", "fr"]),
    )
    print(" ".join(type(n).__module__ for n in made), flush=True)
    CHOOSE = f'''
import os, pickle
made = pickle.loads({pickle.dumps(made)!r})
chosen = [type(n).__module__ for n in made] + [
    made[0].choose("application/json;q=0.5, text/*"),
    made[1].choose("br, gzip;q=0.5"),
    made[2].choose("fr-CH, en;q=0.5"),
]
os.write(1, (" ".join(chosen) + "\\\\n").encode())
'''
    for config in ("legacy", "isolated"):
        in_subinterpreter(config, CHOOSE)
else:
    for where in sys.argv[1:]:
        if where == "main":
            exec(WORK)
        else:
            in_subinterpreter(where)
"""


@pytest.mark.parametrize("engine", ["cython", "python"])
@pytest.mark.parametrize(
    ("order", "compiled_in"),
    [
        (("main", "legacy", "isolated"), "main"),
        (("legacy", "main", "isolated"), "legacy"),
    ],
)
def test_every_interpreter_of_a_process_imports_an_engine(
    engine: str, order: tuple[str, ...], compiled_in: str
) -> None:
    # The compiled engine serves the first interpreter that imports it; any
    # other, which may not load it (Cython keeps a module's state in the
    # process; CPython refuses such a module where the GIL is not shared),
    # has the pure engine and the same answers.
    lines = run_in_engine(engine, IN_INTERPRETERS, arguments=order)
    expected = [
        f"{'cython' if engine == 'cython' and where == compiled_in else 'python'} text/html"
        for where in order
    ]
    assert lines == expected


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_a_negotiator_pickled_is_made_by_the_engine_an_interpreter_has(
    engine: str,
) -> None:
    # Where the engine that made it cannot be loaded (here: subinterpreters
    # of a process whose main interpreter loaded the compiled one), the
    # receiving interpreter's engine makes it: an InterpreterPoolExecutor
    # sends its tasks' arguments pickled.
    lines = run_in_engine(engine, IN_INTERPRETERS, arguments=("pickles",))
    made_by = " ".join([f"fastaccept.{ENGINE_MODULE[engine]}"] * 3)
    remade_by = " ".join(["fastaccept._scan_py"] * 3)
    assert lines == [made_by] + [f"{remade_by} text/html br fr"] * 2


#: Pickles the three negotiators, as hex.
PICKLED = """
import pickle, fastaccept
made = (
    fastaccept.Negotiator(["application/json", "text/html"]),
    fastaccept.EncodingNegotiator(["gzip", "br"]),
    fastaccept.LanguageNegotiator(["en", "fr"]),
)
print(pickle.dumps(made).hex())
"""
#: Loads them (the hex in argv) and prints their engines, their answers and
#: whether the other engine was loaded.
UNPICKLED = """
import pickle, sys, fastaccept
made = pickle.loads(bytes.fromhex(sys.argv[1]))
print(" ".join(type(n).__module__ for n in made))
print(made[0].choose("text/*"), made[1].choose("br"), made[2].choose("fr-CH"))
print(sorted({"fastaccept._scan", "fastaccept._scan_py"} & set(sys.modules)))
"""
ENGINE_MODULE = {"cython": "_scan", "python": "_scan_py"}


@pytest.mark.parametrize(
    ("sender", "receiver"), [("cython", "python"), ("python", "cython")]
)
def test_a_negotiator_is_made_again_by_the_engine_of_the_process_it_is_sent_to(
    sender: str, receiver: str
) -> None:
    # The engine that made it is not loaded in the receiving process (which
    # FASTACCEPT_NO_EXTENSIONS or the extension's absence decide): that
    # process's own engine makes it, and the other is never loaded.
    pickled = run_in_engine(sender, PICKLED)[0]
    modules, chosen, loaded = run_in_engine(receiver, UNPICKLED, arguments=(pickled,))
    own = f"fastaccept.{ENGINE_MODULE[receiver]}"
    assert modules == " ".join([own] * 3)
    assert chosen == "text/html br fr"
    assert loaded == repr([own])
