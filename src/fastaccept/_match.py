"""Matching and choosing on parsed values (RFC 9110 §12.5.1; DESIGN rules 9-12).

Used by ``Accept``'s methods and by the pure-Python engine; the Cython engine
runs the same rules on C structs and is differential-tested against this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ._grammar import ascii_lower
from ._types import MediaRange


class Offer(NamedTuple):
    """A concrete media type a server can produce, parsed once.

    ``value`` is the object the caller gave; ``params`` maps lower-case names to
    values, ``charset`` values lower-cased (they compare case-insensitively).
    """

    value: str
    type: str
    subtype: str
    params: dict[str, str]


def range_matches(rng: MediaRange, offer: Offer) -> bool:
    """Type and subtype equal or ``*``; every range parameter present and equal."""
    if rng.type != "*" and rng.type != offer.type:
        return False
    if rng.subtype != "*" and rng.subtype != offer.subtype:
        return False
    for name, value in rng.params:
        wanted = offer.params.get(name)
        if wanted is None:
            return False
        if (ascii_lower(value) if name == "charset" else value) != wanted:
            return False
    return True


def score(ranges: Sequence[MediaRange], offer: Offer) -> tuple[int, int]:
    """(weight, specificity) of the most specific matching range; ties: higher q.

    Specificity is encoded as ``non_star_parts << 32 | parameter_count``; no
    matching range gives ``(0, -1)``.
    """
    best_weight, best_spec = 0, -1
    for rng in ranges:
        if range_matches(rng, offer):
            spec = ((rng.type != "*") + (rng.subtype != "*")) << 32 | len(rng.params)
            if spec > best_spec or (spec == best_spec and rng.weight > best_weight):
                best_weight, best_spec = rng.weight, spec
    return best_weight, best_spec


def best_index(ranges: Sequence[MediaRange] | None, offers: Sequence[Offer]) -> int:
    """Index of the best acceptable offer, -1 if none (rules 11 and 12).

    Highest q wins; ties go to the offer matched by the more specific range,
    then to the earlier offer. ``None`` (header absent) accepts every offer.
    """
    if ranges is None:
        return 0 if offers else -1
    best, best_weight, best_spec = -1, 0, -1
    for index, offer in enumerate(offers):
        weight, spec = score(ranges, offer)
        if weight > best_weight or (
            weight == best_weight and weight > 0 and spec > best_spec
        ):
            best, best_weight, best_spec = index, weight, spec
    return best


def rank(
    ranges: Sequence[MediaRange] | None, offers: Sequence[Offer]
) -> list[tuple[int, int]]:
    """(index, weight) of every acceptable offer, in the order of ``best_index``."""
    if ranges is None:
        return [(index, 1000) for index in range(len(offers))]
    scored = []
    for index, offer in enumerate(offers):
        weight, spec = score(ranges, offer)
        if weight > 0:
            scored.append((-weight, -spec, index))
    scored.sort()
    return [(index, -weight) for weight, _, index in scored]
