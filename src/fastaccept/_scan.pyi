"""Type stub of the Cython engine; ``_scan_py`` (the pure-Python twin) matches it."""

from collections.abc import Iterable
from typing import Final, TypeVar, overload

from typing_extensions import disjoint_base

from ._types import Accept

_D = TypeVar("_D")

_Value = str | bytes | bytearray | memoryview | None

ERROR_CODES: Final[dict[str, int]]

def parse(
    value: _Value, *, strict: bool = False, max_length: int | None = 8192
) -> Accept: ...
def is_cors_safelisted(value: str | bytes | bytearray | memoryview) -> bool: ...
@overload
def negotiate(
    value: _Value, offers: Iterable[str], *, max_length: int | None = 8192
) -> str | None: ...
@overload
def negotiate(
    value: _Value, offers: Iterable[str], *, default: _D, max_length: int | None = 8192
) -> str | _D: ...
def quality(
    value: _Value, media_type: str, *, max_length: int | None = 8192
) -> float: ...

@disjoint_base
class Negotiator:
    @property
    def offers(self) -> tuple[str, ...]: ...
    def __init__(
        self,
        offers: Iterable[str],
        *,
        cache_size: int = 256,
        max_length: int | None = 8192,
    ) -> None: ...
    def choose_index(self, value: _Value) -> int: ...
    @overload
    def choose(self, value: _Value) -> str | None: ...
    @overload
    def choose(self, value: _Value, default: _D) -> str | _D: ...
    def rank(self, value: _Value) -> list[tuple[str, float]]: ...
