"""Object protocols: pickle, copy, ==, hash, repr, signatures and docstrings.

The same behaviour on both engines: a Negotiator or an error crosses a process
boundary (multiprocessing, task queues, logging handlers) and comes back
working; ``inspect.signature`` and ``help()`` work on every public name.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import re
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import fastaccept
from fastaccept import (
    Accept,
    AcceptError,
    Consumes,
    Decision,
    MediaRange,
    Produces,
    SkippedMember,
    _types,
)

from .conftest import ENGINES, Engine, cython_engine

DOCS = Path(__file__).resolve().parent.parent / "docs"
OFFERS = ["application/json", "text/html;level=1", "image/png"]
VALUES: list[str | bytes | None] = [
    None,
    "",
    "text/html;level=1;q=0.5, */*;q=0.1",
    b"image/*, application/json;q=0.9",
    "application/xml",
    "a/b;;, x y, *",
]
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def round_trips(obj: object) -> list[Any]:
    """``obj`` through every pickle protocol, ``copy`` and ``deepcopy``."""
    made = [pickle.loads(pickle.dumps(obj, protocol)) for protocol in PROTOCOLS]
    return [*made, copy.copy(obj), copy.deepcopy(obj)]


def assert_same_value(obj: object, others: list[Any]) -> None:
    for other in others:
        assert type(other) is type(obj)
        assert other == obj
        assert repr(other) == repr(obj)
        assert hash(other) == hash(obj)


def test_negotiator_round_trips_and_chooses_the_same(engine: Engine) -> None:
    negotiator = engine.Negotiator(OFFERS, cache_size=8, max_length=100)
    for value in VALUES:
        negotiator.choose(value)  # a warm cache is not part of the value
    copies = round_trips(negotiator)
    assert_same_value(negotiator, copies)
    for other in copies:
        assert other is not negotiator
        for value in VALUES:
            assert other.choose(value) == negotiator.choose(value)
            assert other.rank(value) == negotiator.rank(value)
        with pytest.raises(AcceptError):  # max_length came along
            other.choose("a/b" * 100)


def test_negotiator_value_semantics(engine: Engine) -> None:
    a = engine.Negotiator(OFFERS)
    assert a == engine.Negotiator(list(OFFERS))
    assert a != engine.Negotiator(OFFERS, cache_size=1)
    assert a != engine.Negotiator(OFFERS, max_length=None)
    assert a != engine.Negotiator(OFFERS[:1])
    assert a != OFFERS
    assert len({a, engine.Negotiator(tuple(OFFERS))}) == 1
    assert repr(a) == (
        "Negotiator(('application/json', 'text/html;level=1', 'image/png'), "
        "cache_size=256, max_length=8192)"
    )


def test_parsed_values_round_trip(engine: Engine) -> None:
    for value in VALUES:
        accept = engine.parse(value)
        assert_same_value(accept, round_trips(accept))
        for other in round_trips(accept):
            assert other.skipped == accept.skipped
            assert other.present == accept.present
            assert other.cors_safelisted == accept.cors_safelisted
        for item in (*accept, *accept.skipped):
            assert_same_value(item, round_trips(item))
    unsafe = engine.parse('a/b;p="(x)"')  # a quoted "(" is CORS-unsafe
    assert unsafe.cors_safelisted is False
    for other in round_trips(unsafe):
        assert other.cors_safelisted is False
    skipped = engine.parse("a/b, x y").skipped[0]
    assert type(skipped) is SkippedMember
    assert type(engine.parse("a/b")[0]) is MediaRange


def test_accept_error_round_trips(engine: Engine) -> None:
    with pytest.raises(AcceptError) as caught:
        engine.parse(b"text/html;q=2", strict=True)
    error = caught.value
    for other in round_trips(error):
        assert type(other) is AcceptError
        assert (other.value, other.position, other.reason) == (
            error.value,
            error.position,
            error.reason,
        )
        assert str(other) == str(error)
        assert other.args == error.args


def test_accept_error_built_by_hand_round_trips() -> None:
    error = AcceptError("the reason", "a/b", 3)
    other = pickle.loads(pickle.dumps(error))
    assert (other.reason, other.value, other.position) == ("the reason", "a/b", 3)
    assert str(other) == "invalid Accept value at position 3: the reason"


def test_produces_consumes_decision_round_trip() -> None:
    produces = Produces(OFFERS, default="application/json", max_length=64)
    consumes = Consumes(["application/json", "image/*"], max_length=64)
    for obj in (produces, consumes):
        assert_same_value(obj, round_trips(obj))
    for value in VALUES:
        decision = produces.select(value)
        assert_same_value(decision, round_trips(decision))
        for other in round_trips(produces):
            assert other.select(value) == decision
    for content_type in ("application/json", "image/png", "text/plain", None):
        decision = consumes.check(content_type)
        for other in round_trips(consumes):
            assert other.check(content_type) == decision
    assert repr(produces) == (
        "Produces(('application/json', 'text/html;level=1', 'image/png'), "
        "default='application/json', max_length=64, cache_size=256)"
    )
    assert repr(consumes) == "Consumes(('application/json', 'image/*'), max_length=64)"
    assert produces != Produces(OFFERS)
    assert consumes != Consumes(["application/json"])


def _engine_api(engine: Engine) -> dict[str, Any]:
    """What an engine defines of the public API: each function and class that
    fastaccept exports, and each public method and property of those classes,
    inherited ones included, ``__init__`` and ``__reduce__`` (what pickling says)."""
    found: dict[str, Any] = {}
    for name, obj in vars(engine).items():
        if name not in fastaccept.__all__ or obj.__module__ != engine.__name__:
            continue
        found[name] = obj
        if inspect.isclass(obj):
            for attr in dir(obj):
                if not attr.startswith("_") or attr in ("__init__", "__reduce__"):
                    found[f"{name}.{attr}"] = inspect.getattr_static(obj, attr)
    return found


def _shape(function: Callable[..., object]) -> list[tuple[str, Any, Any]]:
    """Parameter names, kinds and defaults (annotations aside: C has none); a
    method's ``self`` is positional-only on both engines, as on CPython's
    own built-ins (``dict.get``)."""
    parameters = inspect.signature(function).parameters.values()
    return [(p.name, p.kind, p.default) for p in parameters]


def test_engines_have_the_same_signatures_and_docstrings() -> None:
    # The pure engine is the typed reference (docs/development.md); the
    # compiled one must match it name for name, signature and docstring.
    cython = _engine_api(cython_engine())
    python = _engine_api(ENGINES["python"])
    assert len(python) >= 20 and sorted(cython) == sorted(python)
    for name, member in python.items():
        if callable(member):
            assert _shape(cython[name]) == _shape(member), name
        assert inspect.getdoc(cython[name]) == inspect.getdoc(member), name


def test_the_compiled_functions_and_methods_are_built_ins() -> None:
    # Built-ins as an extension module's own (binding=False, docs/development.md):
    # a Cython function object would be one reference count that every thread
    # calling it writes (docs/free-threading.md).
    engine = cython_engine()
    for name, member in _engine_api(engine).items():
        if inspect.isclass(member) or not callable(member) or name.endswith("__init__"):
            continue  # (an __init__ is the type's slot, as on CPython's own types)
        if "." in name:
            assert isinstance(member, types.MethodDescriptorType), name
        else:
            assert isinstance(member, types.BuiltinFunctionType), name
            assert member.__self__ is engine, name


@pytest.mark.parametrize(
    ("cls", "offers"),
    [
        ("Negotiator", OFFERS),
        ("EncodingNegotiator", ["gzip", "br"]),
        ("LanguageNegotiator", ["en", "de"]),
    ],
)
@pytest.mark.parametrize("method", ["choose", "choose_index", "variant_key", "rank"])
def test_bound_methods_have_the_same_signatures(
    cls: str, offers: list[str], method: str
) -> None:
    compiled = getattr(getattr(cython_engine(), cls)(offers), method)
    pure = getattr(getattr(ENGINES["python"], cls)(offers), method)
    assert _shape(compiled) == _shape(pure)
    assert inspect.getdoc(compiled) == inspect.getdoc(pure)


#: The one-call forms, each with a value and offers it chooses from.
ONE_CALLS = [
    ("negotiate", "text/html", ["application/json", "text/html"]),
    ("negotiate_encoding", "gzip", ["br", "gzip"]),
    ("negotiate_language", "de", ["en", "de"]),
]


@pytest.mark.parametrize(("name", "value", "offers"), ONE_CALLS)
def test_one_call_forms_take_arguments_as_python_functions_do(
    engine: Engine, name: str, value: str, offers: list[str]
) -> None:
    # The compiled ones read their arguments themselves (docs/free-threading.md).
    function = getattr(engine, name)
    second = list(inspect.signature(function).parameters)[1]  # offers, codings, tags
    assert function(value, offers) == offers[1]
    assert function(value=value, **{second: offers}) == offers[1]
    assert function("x/y", offers, default="none", max_length=None) == "none"
    assert function("x/y", offers, **{"default": 0}) == 0
    wrong: list[tuple[tuple[object, ...], dict[str, object]]] = [
        ((), {}),
        ((value,), {}),
        ((value, offers, None), {}),
        ((value, offers), {"other": 1}),
        ((value, offers), {"value": value}),
        ((value,), {"max_length": 10}),
    ]
    for args, kwargs in wrong:
        with pytest.raises(TypeError):
            function(*args, **kwargs)
    with pytest.raises(ValueError, match="max_length"):
        function(value, offers, max_length=-1)


def test_quality_takes_arguments_as_a_python_function_does(engine: Engine) -> None:
    assert engine.quality("text/*;q=0.5", "text/html") == 0.5
    too_long = "text/html, " * 1000  # past max_length's default
    with pytest.raises(ValueError, match="max_length"):
        engine.quality(too_long, "text/html")
    assert engine.quality(too_long, "text/html", max_length=None) == 1.0
    assert (
        engine.quality(value="text/*;q=0.5", media_type="text/html", max_length=None)
        == 0.5
    )
    for args, kwargs in [(("text/html",), {}), (("a/b", "a/b"), {"default": 1})]:
        with pytest.raises(TypeError):
            engine.quality(*args, **kwargs)


#: The public type aliases (docs/api.md, "Types for annotations"), each the
#: type it names at run time.
TYPE_ALIASES: dict[str, object] = {
    "OfferSpec": str | tuple[str, float] | fastaccept.Offer,
    "HeaderValue": str | bytes | bytearray | memoryview | None,
    "Renderer": Callable[[Any], str | bytes],
}


def _public_callables() -> dict[str, Callable[..., object]]:
    found: dict[str, Callable[..., object]] = {}
    for name in fastaccept.__all__:
        if name in TYPE_ALIASES:  # a GenericAlias is a class to 3.10's inspect
            continue
        obj = getattr(fastaccept, name)
        if callable(obj):
            found[name] = obj
        if inspect.isclass(obj) and not issubclass(obj, tuple | BaseException):
            for cls in obj.__mro__:  # inherited methods too, fastaccept's own
                for attr, member in vars(cls).items():
                    if (
                        cls.__module__.startswith("fastaccept")
                        and not attr.startswith("_")
                        and callable(member)
                    ):
                        found.setdefault(f"{name}.{attr}", getattr(obj, attr))
    return found


@pytest.mark.parametrize("name", sorted(_public_callables()))
def test_every_public_callable_has_a_signature(name: str) -> None:
    function = _public_callables()[name]
    inspect.signature(function)  # raises ValueError where there is none


@pytest.mark.parametrize("name", sorted(_public_callables()))
def test_every_public_name_says_what_it_does(name: str) -> None:
    obj = _public_callables()[name]
    doc = inspect.getdoc(obj) or ""
    assert len(doc) > 20, f"{name} has no docstring that says what it does"
    assert not doc.lower().startswith("see "), doc
    assert f"fastaccept.{name}" not in doc, f"{name}'s docstring points elsewhere"
    assert "DESIGN" not in doc


#: The public values (no docstring of their own) and the documented type each has.
VALUES_DOCUMENTED = {
    "BROWSER_DEFAULTS": ("Mapping[str, str]", Mapping),
    "IMPLEMENTATION": ("str", str),
}


def test_the_public_values_are_those_listed() -> None:
    values = set(fastaccept.__all__) - _public_callables().keys() - TYPE_ALIASES.keys()
    assert values == set(VALUES_DOCUMENTED)


@pytest.mark.parametrize("name", sorted(TYPE_ALIASES))
def test_every_type_alias_is_the_type_documented(name: str) -> None:
    """Its ``.. data::`` entry in docs/api.md begins with the type, which is
    the alias's value."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    entry = re.search(rf"^\.\. data:: fastaccept\.{name}\n\n   ``(.+?)``", text, re.M)
    assert entry, f"docs/api.md has no '.. data:: fastaccept.{name}' entry"
    value = getattr(fastaccept, name)
    assert value == TYPE_ALIASES[name]
    shown = str(value).replace("collections.abc.", "").replace("typing.", "")
    assert entry[1] == shown.replace("fastaccept._member.", "")


@pytest.mark.parametrize("name", sorted(VALUES_DOCUMENTED))
def test_every_public_value_says_what_it_is(name: str) -> None:
    """A value's docstring is its ``.. data::`` entry in docs/api.md: its
    type, which the value has, and a sentence that says what it holds."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    entry = re.search(
        rf"^\.\. data:: fastaccept\.{name}\n   :type: (.+)\n\n((?:   .+\n)+)",
        text,
        re.MULTILINE,
    )
    assert entry, f"docs/api.md has no '.. data:: fastaccept.{name}' with a :type:"
    documented, kind = VALUES_DOCUMENTED[name]
    assert entry[1] == documented
    value = getattr(fastaccept, name)
    assert isinstance(value, kind)
    if isinstance(value, Mapping):
        assert value and all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        )
    doc = " ".join(entry[2].split())
    assert len(doc) > 20 and "DESIGN" not in doc, doc
    if isinstance(value, str):
        assert f'``"{value}"``' in doc  # the value this process has, described


def test_browser_defaults_round_trip_as_themselves() -> None:
    defaults = fastaccept.BROWSER_DEFAULTS
    for other in round_trips(defaults):
        assert other is defaults  # the module's one read-only mapping
    assert round_trips({"kept": defaults})[-1]["kept"] is defaults
    assert defaults == dict(defaults) and len(defaults) >= 10
    assert repr(defaults) == repr(dict(defaults))  # shown as the dict it reads as


def test_browser_defaults_read_as_a_mapping_proxy_does() -> None:
    # 0.1.0's BROWSER_DEFAULTS was a MappingProxyType: what that has beside
    # Mapping (copy, |, reversed) gives the same, a dict to change (typed
    # as a Mapping, in 0.1.0 as now: a checker knows only that).
    defaults: Any = fastaccept.BROWSER_DEFAULTS
    proxy = types.MappingProxyType(dict(defaults))
    mine = {"mine": "a/b", "json": "c/d"}
    for made, expected in [
        (defaults.copy(), proxy.copy()),
        (defaults | mine, proxy | mine),
        (mine | defaults, mine | proxy),
        (defaults | defaults, proxy | proxy),
    ]:
        assert type(made) is dict and made == expected
        assert list(made) == list(expected)
    assert defaults.copy() is not defaults.copy()
    assert list(reversed(defaults)) == list(reversed(proxy))
    for view in ("keys", "values", "items"):
        made, expected = getattr(defaults, view)(), getattr(proxy, view)()
        assert list(made) == list(expected)
        assert list(reversed(made)) == list(reversed(expected))
    for bad in (1, [("a", "b")]):
        with pytest.raises(TypeError):
            defaults | bad
        with pytest.raises(TypeError):
            bad | defaults
    # Read-only: |= is a TypeError (it would rebind the name to a dict), and
    # the other operand of | is given a copy, which it may change.
    kept: Any = fastaccept.BROWSER_DEFAULTS
    with pytest.raises(TypeError, match=r"'\|=' is not supported"):
        kept |= mine
    assert fastaccept.BROWSER_DEFAULTS is kept == proxy
    with pytest.raises(AttributeError, match="BROWSER_DEFAULTS is read-only"):
        kept.__init__({"script": "evil/x"})  # type: ignore[misc]  # nor made again
    assert kept == proxy

    class Grabbing(Mapping[str, str]):
        def __getitem__(self, key: str) -> str:
            raise KeyError(key)

        def __iter__(self) -> Iterator[str]:
            return iter(())

        def __len__(self) -> int:
            return 0

        def __or__(self, given: object) -> dict[str, str]:
            if type(given) is not dict:  # the values of a mapping it cannot change
                return NotImplemented
            given["script"] = "evil/x"
            return given

        __ror__ = __or__

    assert (defaults | Grabbing())["script"] == (Grabbing() | defaults)["script"]
    assert defaults == proxy
    # Nor through a view's mapping, a proxy whose | hands over its dict.
    for view in (defaults.keys(), defaults.values(), defaults.items()):
        assert (view.mapping | Grabbing())["script"] == "evil/x"
        assert (Grabbing() | view.mapping)["script"] == "evil/x"
    assert defaults == proxy


@pytest.mark.parametrize(
    ("name", "cites"),
    [
        ("present", "RFC 9110"),
        ("skipped", "SkippedMember"),
        ("cors_safelisted", "Fetch"),
    ],
)
def test_the_attributes_of_parsed_values_say_what_they_are(
    name: str, cites: str
) -> None:
    """The API reference reads them from their docstrings (Sphinx autodoc):
    read-only properties, so a parsed value stays what it was hashed by."""
    attribute = getattr(_types.Accept, name)
    assert isinstance(attribute, property) and attribute.fset is None
    doc = inspect.getdoc(attribute) or ""
    assert cites in doc and len(doc) > 80, doc


def test_decision_is_a_value() -> None:
    decision = Decision(406, "", (("Vary", "Accept"),), "no\n")
    assert_same_value(decision, round_trips(decision))
    assert decision == Decision(406, "", (("Vary", "Accept"),), "no\n")
    assert Accept(present=False) == pickle.loads(pickle.dumps(Accept(present=False)))
