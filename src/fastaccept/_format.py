"""Build Accept values: the response-header use (RFC 9110 §12.5.1, §15.5.16)."""

from __future__ import annotations

from collections.abc import Iterable

from ._member import parse_single
from ._types import MediaRange


def _weight(q: object) -> int:
    if isinstance(q, bool) or not isinstance(q, (int, float)):
        raise TypeError(f"a weight must be a number, not {type(q).__name__}")
    thousandths = round(q * 1000)
    if not 0 <= thousandths <= 1000 or abs(q * 1000 - thousandths) > 1e-6:
        raise ValueError(
            f"invalid weight {q!r}: a weight is 0 to 1 with at most three "
            "decimals (RFC 9110 §12.4.2)"
        )
    return thousandths


def format_accept(items: Iterable[str | tuple[str, float] | MediaRange]) -> str:
    """A valid Accept value from media types, ``(type, q)`` pairs or ``MediaRange``
    items.

    Each string must be one media range (wildcards allowed, e.g. ``image/*``);
    a pair's weight replaces any weight in its string. The result is canonical:
    lower-case names, the shortest weights, ``q=1`` left out. Use it for the
    ``Accept`` response header of a 415 reply (RFC 9110 §15.5.16).
    """
    parts = []
    for item in items:
        if isinstance(item, MediaRange):
            rng = item
        elif isinstance(item, tuple):
            if len(item) != 2:
                raise ValueError(f"expected a (media type, q) pair, got {item!r}")
            rng = MediaRange._make(parse_single(item[0], "media type")[0])
            rng = rng._replace(weight=_weight(item[1]))
        else:
            rng = MediaRange._make(parse_single(item, "media type")[0])
        parts.append(str(rng))
    return ", ".join(parts)
