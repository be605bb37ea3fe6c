"""Build Accept values: the response-header use (RFC 9110 §12.5.1, §15.5.16)."""

from __future__ import annotations

from collections.abc import Iterable

from ._errors import shown
from ._member import offers_tuple, pair_weight, parse_single
from ._types import MediaRange, given_range


def format_accept(items: Iterable[str | tuple[str, float] | MediaRange]) -> str:
    """A valid Accept value from media types, ``(type, q)`` pairs or ``MediaRange``
    items.

    Each string must be one media range (wildcards allowed, e.g. ``image/*``);
    a pair's weight, a number from 0 to 1 with at most three decimals read by
    its value (RFC 9110 §12.4.2), replaces any weight in its string; any other
    weight raises ``TypeError`` or ``ValueError``. The result is canonical:
    lower-case names, the shortest weights, ``q=1`` left out. A
    ``MediaRange`` is checked as its text would be (``given_range``). Use it
    for the ``Accept`` response header of a 415 reply (RFC 9110 §15.5.16).
    """
    parts = []
    for item in offers_tuple(items, "items"):
        if isinstance(item, MediaRange):
            rng = given_range(item)[0]
        elif isinstance(item, tuple):
            if len(item) != 2:
                raise ValueError(f"expected a (media type, q) pair, got {shown(item)}")
            rng = MediaRange._make(parse_single(item[0], "media type")[0])
            weight = pair_weight(item, "weight", "format_accept pair")
            rng = rng._replace(weight=weight)
        else:
            rng = MediaRange._make(parse_single(item, "media type", pairs=True)[0])
        parts.append(str(rng))
    return ", ".join(parts)
