"""The engine interface, written once: what each engine module provides.

Both engines, the Cython ``_scan`` (typed by its stub) and the pure-Python
``_scan_py``, are checked against ``Engine`` by mypy where ``_engine`` picks
one; the test suite drives either through it. The behaviour is documented on
the public names (``fastaccept.parse``, ``fastaccept.Negotiator``...).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar, overload

from ._text import HeaderText, HeaderValue
from ._types import Accept

_D = TypeVar("_D")


class NegotiatorAPI(Protocol):
    """A ``Negotiator``: offers parsed once, a choice per request."""

    @property
    def offers(self) -> tuple[str, ...]: ...
    def choose_index(self, value: HeaderValue) -> int: ...
    @overload
    def choose(self, value: HeaderValue) -> str | None: ...
    @overload
    def choose(self, value: HeaderValue, default: _D) -> str | _D: ...
    def rank(self, value: HeaderValue) -> list[tuple[str, float]]: ...


class NegotiatorClass(Protocol):
    """The ``Negotiator`` class: its constructor."""

    def __call__(
        self,
        offers: Iterable[str],
        *,
        cache_size: int = ...,
        max_length: int | None = ...,
    ) -> NegotiatorAPI: ...


class Engine(Protocol):
    """An engine module: the functions and the class the public API exposes."""

    @property
    def Negotiator(self) -> NegotiatorClass: ...
    def parse(
        self, value: HeaderValue, *, strict: bool = ..., max_length: int | None = ...
    ) -> Accept: ...
    def is_cors_safelisted(self, value: HeaderText) -> bool: ...
    @overload
    def negotiate(
        self,
        value: HeaderValue,
        offers: Iterable[str],
        *,
        max_length: int | None = ...,
    ) -> str | None: ...
    @overload
    def negotiate(
        self,
        value: HeaderValue,
        offers: Iterable[str],
        *,
        default: _D,
        max_length: int | None = ...,
    ) -> str | _D: ...
    def quality(
        self, value: HeaderValue, media_type: str, *, max_length: int | None = ...
    ) -> float: ...
