"""``NamedTuple`` without importing ``typing`` (a lean import: docs/development.md).

``class Coding(NamedTuple):`` with annotated fields, defaults, methods and a
docstring reads as ``typing.NamedTuple`` reads it; the class is made by
``collections.namedtuple``, as ``typing`` makes it, and keeps its
``__annotations__`` (``typing.get_type_hints``, pydantic and the like read
them). Type checkers read ``typing.NamedTuple`` itself.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:

    class _NamedTupleMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # ``NamedTuple`` itself
                return super().__new__(mcls, name, bases, namespace)
            fields = tuple(namespace.get("__annotations__", ()))
            made = namedtuple(
                name,
                fields,
                defaults=[namespace[field] for field in fields if field in namespace],
                module=namespace["__module__"],
            )
            for key, value in namespace.items():
                if key not in fields and key != "__module__":
                    setattr(made, key, value)  # __annotations__ too, as typing's
            return made

    NamedTuple = _NamedTupleMeta("NamedTuple", (), {})
