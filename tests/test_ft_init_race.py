"""``__init__`` racing with other threads on a negotiator made by ``__new__``.

Calling ``__init__`` again is refused (``TypeError``), so threads can share a
negotiator without a lock. Here threads call ``__init__`` at once on an object
made by ``__new__`` while others already use it: on a free-threaded CPython
(3.13t) they truly run at once, with the GIL they interleave. The process
must not crash (it runs in a subprocess, so a crash fails the test instead of
killing pytest); exactly one ``__init__`` sets each object up, every other
raises the documented ``TypeError``; every use either answers as a negotiator
made by that ``__init__``'s arguments would, or raises the same ``TypeError``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import CYTHON_MISSING, ENGINES

#: Starts its own threads and a process: under pytest-run-parallel it runs alone.
pytestmark = pytest.mark.thread_unsafe(reason="starts its own threads")

#: Objects raced over, per negotiator class, in one run.
ROUNDS = 120

#: The race, run as ``python -c RACE <engine module> <rounds>``. Each round:
#: a fresh object from ``__new__``; three threads call ``__init__`` with one of
#: two offer lists, three call ``choose``, ``choose_index`` and ``rank``
#: meanwhile, all released together by a barrier. Prints what went wrong and
#: exits 1, or exits 0.
RACE = """
import sys, threading
from importlib import import_module

from fastaccept._errors import NEGOTIATOR_SET_UP_ONCE

engine = import_module(sys.argv[1])
rounds = int(sys.argv[2])
KINDS = [
    (engine.Negotiator,
     (["application/json", "text/html;level=1", "image/png"], ["text/plain"]),
     ["text/html;level=1, */*;q=0.1", "image/*", "text/*", None, b"*/*"]),
    (engine.EncodingNegotiator,
     (["gzip", "br", "identity"], ["zstd"]),
     ["gzip, br;q=0.5", "zstd, *;q=0.1", "identity;q=0", None, b"br"]),
    (engine.LanguageNegotiator,
     (["en", "fr-CA", "de"], ["sr-Latn"]),
     ["fr, en;q=0.5", "sr, *;q=0.1", "de-AT", None, b"en-GB"]),
]
METHODS = ("choose", "choose_index", "rank")
INITS, USERS = 3, 3
wrong = []
state = {}
start = threading.Barrier(INITS + USERS + 1)
done = threading.Barrier(INITS + USERS + 1)


def fresh(value):
    # An equal value that is a new object, as each request brings its own.
    return value if value is None else value[:1] + value[1:]


def attempt(what, function, *args):
    # (True, its result), or (False, None) when it raised the documented
    # TypeError; any other outcome is wrong.
    try:
        return True, function(*args)
    except TypeError as error:
        if str(error) != NEGOTIATOR_SET_UP_ONCE:
            wrong.append(f"{what}: {error!r}")
    except BaseException as error:
        wrong.append(f"{what}: {error!r}")
    return False, None


def init(k):
    for _ in range(rounds * len(KINDS)):
        start.wait()
        offers = state["offers"][k % 2]
        if attempt("__init__", state["obj"].__init__, offers)[0]:
            state["set_up_by"].append(offers)
        done.wait()


def use(k):
    for _ in range(rounds * len(KINDS)):
        start.wait()
        obj, values, seen = state["obj"], state["values"], state["seen"]
        for i in range(40):
            value = fresh(values[(i + k) % len(values)])
            name = METHODS[(i + k) % len(METHODS)]
            worked, got = attempt(name, getattr(obj, name), value)
            if worked:
                seen.append((name, value, got))
        done.wait()


threads = [threading.Thread(target=init, args=(k,)) for k in range(INITS)]
threads += [threading.Thread(target=use, args=(k,)) for k in range(USERS)]
for thread in threads:
    thread.start()
for _ in range(rounds):
    for cls, offer_lists, values in KINDS:
        state.update(
            obj=cls.__new__(cls), offers=offer_lists, values=values,
            set_up_by=[], seen=[],
        )
        start.wait()
        done.wait()
        set_up_by = state["set_up_by"]
        if len(set_up_by) != 1:
            wrong.append(f"{cls.__name__}: {len(set_up_by)} __init__ succeeded")
            continue
        alone = cls(set_up_by[0], cache_size=0)
        for name, value, got in state["seen"]:
            expected = getattr(alone, name)(value)
            if got != expected:
                wrong.append(f"{cls.__name__}.{name}({value!r}): {got!r} != {expected!r}")
        again = state["obj"]
        if again.choose_index(values[0]) != alone.choose_index(values[0]):
            wrong.append(f"{cls.__name__}: set up, but answers otherwise")
for thread in threads:
    thread.join()
if wrong:
    print(len(wrong), "wrong:", *sorted(set(wrong))[:10], sep="\\n")
    sys.exit(1)
"""


@pytest.mark.parametrize("name", ["cython", "python"])
def test_init_races_with_users_on_an_object_from_new(name: str) -> None:
    if name not in ENGINES:
        pytest.skip(str(CYTHON_MISSING))
    done = subprocess.run(
        [sys.executable, "-c", RACE, ENGINES[name].__name__, str(ROUNDS)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    # A negative return code is the signal that killed it (SIGSEGV, SIGBUS...).
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
