"""``negotiate`` and ``quality``: one-call forms on top of an engine's Negotiator."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from ._cache import store

_D = TypeVar("_D")

#: How many distinct offer lists keep a pre-parsed Negotiator.
NEGOTIATORS_KEPT = 64
#: How many header values each of those remembers.
VALUES_KEPT = 64

Value = str | bytes | bytearray | memoryview | None


class NegotiatorLike(Protocol):
    def __init__(
        self,
        offers: Iterable[str],
        *,
        cache_size: int = ...,
        max_length: int | None = ...,
    ) -> None: ...
    def choose_index(self, value: Value) -> int: ...
    def rank(self, value: Value) -> list[tuple[str, float]]: ...


class Shortcuts:
    """The module-level functions, bound to one engine's ``Negotiator`` class."""

    def __init__(self, negotiator: type[NegotiatorLike]) -> None:
        self._negotiator = negotiator
        self._kept: dict[tuple[tuple[str, ...], int | None], NegotiatorLike] = {}

    def _for(self, offers: tuple[str, ...], max_length: int | None) -> NegotiatorLike:
        key = (offers, max_length)
        try:
            found = self._kept.get(key)
        except TypeError:  # an unhashable offer: let the Negotiator say what is wrong
            return self._negotiator(offers, cache_size=0, max_length=max_length)
        if found is None:
            found = self._negotiator(
                offers, cache_size=VALUES_KEPT, max_length=max_length
            )
            store(self._kept, NEGOTIATORS_KEPT, key, found)
        return found

    def negotiate(
        self,
        value: Value,
        offers: Iterable[str],
        *,
        default: _D = None,  # type: ignore[assignment]
        max_length: int | None = 8192,
    ) -> str | _D:
        """The best acceptable offer for ``value`` (RFC 9110 §12.5.1), else ``default``.

        Returns the very object passed in ``offers``. ``None`` (header absent)
        accepts the first offer; a present value with no acceptable offer gives
        ``default`` -- answer 406 or send a default representation.
        """
        items = offers if type(offers) is tuple else tuple(offers)
        index = self._for(items, max_length).choose_index(value)
        return default if index < 0 else items[index]

    def quality(
        self, value: Value, media_type: str, *, max_length: int | None = 8192
    ) -> float:
        """The weight ``value`` gives the concrete ``media_type`` (0.0: refused)."""
        ranked = self._for((media_type,), max_length).rank(value)
        return ranked[0][1] if ranked else 0.0
