"""Objects that are what their constructor's arguments say they are.

``Negotiator`` (pure-Python engine), ``Produces``, ``Consumes``, ``Renderers``
and ``Offer`` keep no state a caller can see beyond their arguments (their
caches only speed things up), so ``==``, ``hash``, ``repr``, ``pickle`` and
``copy`` all go by those arguments. The Cython negotiators call the same
methods (``ByArguments.__repr__`` and the others) with their ``_arguments``,
and bind their constructors' arguments with this module's binders
(``negotiator_arguments`` and its two siblings), as Python binds the pure
engine's ``__new__``.
"""

from __future__ import annotations

import sys
from functools import partial, wraps

from ._limits import DEFAULT_CACHE_SIZE, DEFAULT_MAX_LENGTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    _Made = TypeVar("_Made", bound=type)

_PACKAGE = f"{__name__.rpartition('.')[0]}."
#: The engines' modules, the compiled one's and the pure one's (``_engine``
#: imports one of them).
ENGINE_MODULES = (f"{_PACKAGE}_scan", f"{_PACKAGE}_scan_py")


class ByArguments:
    """``==``, ``hash``, ``repr``, pickle and copy by the constructor's
    arguments, which fix the object: each of its attributes is set once, when
    it is made (a second ``__init__`` raises before it changes anything), and
    none is deleted. A subclass's own attributes (not in a fastaccept class's
    ``__slots__``, docs/api.md) are its own to change."""

    __slots__ = ()
    #: The attributes the arguments fix: the slots of fastaccept's classes,
    #: and the class itself.
    _fixed = frozenset({"__class__"})  # no annotation: typing is not loaded

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fixed = frozenset(
            {"__class__"}.union(
                *(
                    kind.__dict__.get("__slots__", ())
                    for kind in cls.__mro__
                    if str(getattr(kind, "__module__", "")).startswith(_PACKAGE)
                )
            )
        )

    def __setattr__(self, name: str, value: object) -> None:
        if name in self._fixed and hasattr(self, name):
            raise AttributeError(unchangeable(self, name))
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._fixed:
            raise AttributeError(unchangeable(self, name))
        object.__delattr__(self, name)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The positional and keyword arguments that build an equal object."""
        raise NotImplementedError

    def __repr__(self, /) -> str:
        args, kwargs = self._arguments()
        shown = [repr(arg) for arg in args]
        shown += [f"{name}={value!r}" for name, value in kwargs.items()]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __eq__(self, other: object, /) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._arguments() == other._arguments()

    def __hash__(self, /) -> int:
        args, kwargs = self._arguments()
        return hash((args, tuple(kwargs.items())))

    def __reduce__(self, /) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Pickle and copy by the arguments: the copy starts with empty caches."""
        # A class of fastaccept's own by its module and name (``remade``).
        args, kwargs = self._arguments()
        cls = type(self)
        if cls.__module__.startswith(_PACKAGE) and "." not in cls.__qualname__:
            return (remade, (cls.__module__, cls.__qualname__, args, kwargs))
        return (partial(cls, *args, **kwargs), ())


def remade(
    module: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """An object that ``ByArguments.__reduce__`` pickled, made by the class
    ``name`` of ``module``; a negotiator whose engine this interpreter has
    not loaded, by the engine it uses, with the same answers (docs/api.md,
    ``IMPLEMENTATION``: the other engine chosen, the compiled one not built
    or loaded by another interpreter). So a copy keeps its engine."""
    found = sys.modules.get(module)
    if found is None:
        from importlib import import_module

        found = import_module(_PACKAGE[:-1] if module in ENGINE_MODULES else module)
    return getattr(found, name)(*args, **kwargs)


def unchangeable(made: object, name: str) -> str:
    """The message of an attempt to change ``made``'s ``name``."""
    return f"{type(made).__name__} objects cannot be changed (its {name!r})"


def made_once(cls: _Made) -> _Made:
    """``cls``, a frozen dataclass with slots, whose ``__init__`` makes an
    object once: a dataclass's own, called again on an object made (and
    shared: an answer made ahead), would write its fields past ``frozen``; it
    raises ``AttributeError`` before it changes anything, as ``ByArguments``'
    do. Setting or deleting an attribute raises ``FrozenInstanceError``, as
    ``frozen`` says: the dataclass's own methods raise ``TypeError`` for a
    name not a field (they call ``super()`` with the class the slots
    replaced), which ``except AttributeError`` would not catch; a
    subclass's own attributes are its own to change."""
    from dataclasses import FrozenInstanceError  # loaded with every dataclass

    init = cls.__dict__["__init__"]
    first = next(iter(cls.__dict__["__dataclass_fields__"]))  # in field order
    fields = frozenset(cls.__dict__["__dataclass_fields__"])

    @wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if hasattr(self, first):
            raise AttributeError(unchangeable(self, first))
        init(self, *args, **kwargs)

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(unchangeable(self, name))
        object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(unchangeable(self, name))
        object.__delattr__(self, name)

    cls.__init__ = __init__  # type: ignore[misc]
    cls.__setattr__ = __setattr__  # type: ignore[method-assign,assignment]
    cls.__delattr__ = __delattr__  # type: ignore[method-assign,assignment]
    return cls


# The compiled negotiators' arguments, bound as Python binds the pure
# engine's ``__new__``'s: a wrong call raises the TypeError it raises there,
# naming ``Negotiator.__new__`` (Cython's own binding names ``__cinit__``).


def negotiator_arguments(
    cls: object,
    offers: object,
    *,
    cache_size: object = DEFAULT_CACHE_SIZE,
    max_length: object = DEFAULT_MAX_LENGTH,
) -> tuple[object, object, object]:
    """``Negotiator``'s arguments (``cls`` is not read)."""
    return offers, cache_size, max_length


def encoding_negotiator_arguments(
    cls: object,
    codings: object,
    *,
    cache_size: object = DEFAULT_CACHE_SIZE,
    max_length: object = DEFAULT_MAX_LENGTH,
) -> tuple[object, object, object]:
    """``EncodingNegotiator``'s arguments (``cls`` is not read)."""
    return codings, cache_size, max_length


def language_negotiator_arguments(
    cls: object,
    tags: object,
    *,
    cache_size: object = DEFAULT_CACHE_SIZE,
    max_length: object = DEFAULT_MAX_LENGTH,
) -> tuple[object, object, object]:
    """``LanguageNegotiator``'s arguments (``cls`` is not read)."""
    return tags, cache_size, max_length


negotiator_arguments.__qualname__ = "Negotiator.__new__"
encoding_negotiator_arguments.__qualname__ = "EncodingNegotiator.__new__"
language_negotiator_arguments.__qualname__ = "LanguageNegotiator.__new__"
