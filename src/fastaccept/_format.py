"""Build Accept values: the response-header use (RFC 9110 §12.5.1, §15.5.16)."""

from __future__ import annotations

from collections.abc import Iterable

from ._member import offers_tuple, pair_weight, parse_single
from ._text import ascii_lower
from ._types import MediaRange


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
                raise ValueError(f"expected a (media type, q) pair, got {item!r}")
            rng = MediaRange._make(parse_single(item[0], "media type")[0])
            weight = pair_weight(item, "weight", "format_accept pair")
            rng = rng._replace(weight=weight)
        else:
            rng = MediaRange._make(parse_single(item, "media type")[0])
        parts.append(str(rng))
    return ", ".join(parts)


def given_range(item: MediaRange) -> tuple[MediaRange, bool]:
    """A ``MediaRange`` a program gave, checked as the same range given as a
    str: its text (``str(item)``) read back as one media range, names
    lower-cased, and whether it has a weight. Its type and subtype must be
    str, its params ``(name, value)`` pairs of str and its weight an int
    from 0 to 1000 (thousandths; else ``TypeError``, ``ValueError``); no
    parameter may be named ``q``, which its text would make the weight (RFC
    9110 §12.5.1), and the text read back must be the range given.
    """
    weight, params = item.weight, item.params
    if not (
        type(params) is tuple
        and all(type(pair) is tuple and len(pair) == 2 for pair in params)
        and all(isinstance(part, str) for pair in params for part in pair)
        and isinstance(item.type, str)
        and isinstance(item.subtype, str)
    ):
        raise TypeError(
            f"invalid media range {item!r}: its type and subtype must be str, its "
            "params a tuple of (name, value) pairs of str"
        )
    if type(weight) is not int:
        raise TypeError(
            f"invalid media range {item!r}: its weight must be an int "
            f"(thousandths), not {type(weight).__name__}"
        )
    if not 0 <= weight <= 1000:
        raise ValueError(
            f"invalid media range {item!r}: its weight must be from 0 to 1000 "
            "(thousandths)"
        )
    if any(name.lower() == "q" for name, _ in params):
        raise ValueError(
            f"invalid media range {item!r}: a parameter named 'q' is the weight "
            "(RFC 9110 §12.5.1)"
        )
    rng = MediaRange._make(parse_single(str(item), "media type")[0])
    lowered = tuple((ascii_lower(name), value) for name, value in params)
    if rng != (ascii_lower(item.type), ascii_lower(item.subtype), lowered, weight):
        raise ValueError(
            f"invalid media range {item!r}: its text {str(item)!r} is another range"
        )
    return rng, weight != 1000
