"""Matching and choosing on parsed values (RFC 9110 §12.5.1; docs/rules.md rules 9-12).

Used by ``Accept``'s methods, ``Consumes`` and the pure-Python engine; the
Cython engine runs the same rules on C structs and is differential-tested
against this.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._member import Offer, RangeTuple
from ._text import ascii_lower

#: Specificity is encoded as ``non_star_parts << 32 | parameter_count``.
_EXACT, _TYPE_ONLY, _ANY = 2 << 32, 1 << 32, 0


class OfferSet:
    """Offers in server order, indexed by the ranges that can match them.

    ``by_essence["type/subtype"]`` lists ``(offer index, specificity)`` for the
    offers a parameterless range ``type/subtype`` (or ``type/*``, ``*/*``)
    matches, so scoring a range is one dictionary look-up; ``bare_ranges``
    holds each such range, at q=1, as a range tuple.
    """

    __slots__ = ("absent_best", "bare_ranges", "by_essence", "offers", "values")

    def __init__(self, offers: Sequence[Offer]) -> None:
        self.offers = tuple(offers)
        #: The media types, as given (what ``choose`` returns).
        self.values = tuple(offer.value for offer in self.offers)
        self.absent_best = absent_choice(self.offers)
        by_essence: dict[str, list[tuple[int, int]]] = {}
        for index, offer in enumerate(self.offers):
            for key, spec in (
                (f"{offer.type}/{offer.subtype}", _EXACT),
                (f"{offer.type}/*", _TYPE_ONLY),
                ("*/*", _ANY),
            ):
                by_essence.setdefault(key, []).append((index, spec))
        self.by_essence = {key: tuple(hits) for key, hits in by_essence.items()}
        self.bare_ranges: dict[str, RangeTuple] = {}
        for key in by_essence:
            type_, _, subtype = key.partition("/")
            self.bare_ranges[key] = (type_, subtype, (), 1000)


def absent_choice(offers: Sequence[Offer]) -> int:
    """The offer chosen when the header is absent (rules 12 and 15): every
    offer is acceptable at q=1, so the highest qs above 0, then the first;
    -1 if every qs is 0."""
    return max(
        (i for i, offer in enumerate(offers) if offer.qs > 0),
        key=lambda i: (offers[i].qs, -i),
        default=-1,
    )


def _params_match(params: tuple[tuple[str, str], ...], offer: Offer) -> bool:
    """Every range parameter present in the offer with an equal value (rule 9)."""
    for name, value in params:
        wanted = offer.params.get(name)
        if wanted is None:
            return False
        if (ascii_lower(value) if name == "charset" else value) != wanted:
            return False
    return True


def range_matches(rng: RangeTuple, offer: Offer) -> bool:
    """Type and subtype equal or ``*``; every range parameter present and equal."""
    rtype, rsub, params, _ = rng
    return (
        (rtype == "*" or rtype == offer.type)
        and (rsub == "*" or rsub == offer.subtype)
        and _params_match(params, offer)
    )


def scores(
    ranges: Sequence[RangeTuple], offers: OfferSet
) -> tuple[list[int], list[int]]:
    """Per offer: the weight and specificity of its most specific matching range.

    Between equally specific ranges the higher q wins (rule 10). An offer no
    range matches has weight 0 and specificity -1.
    """
    count = len(offers.offers)
    weights, specs = [0] * count, [-1] * count
    hits_for = offers.by_essence.get
    for rtype, rsub, params, weight in ranges:
        hits = hits_for(f"{rtype}/{rsub}")
        if hits is None:
            continue
        for index, spec in hits:
            if params:
                if not _params_match(params, offers.offers[index]):
                    continue
                spec |= len(params)
            if spec > specs[index] or (
                spec == specs[index] and weight > weights[index]
            ):
                weights[index], specs[index] = weight, spec
    return weights, specs


def best_index(ranges: Sequence[RangeTuple] | None, offers: OfferSet) -> int:
    """Index of the best acceptable offer, -1 if none (rules 11, 12 and 15).

    The highest score (q x qs) wins; ties go to the offer matched by the more
    specific range, then to the earlier offer. ``None`` (header absent)
    accepts every offer at q=1.
    """
    if ranges is None:
        return offers.absent_best
    weights, specs = scores(ranges, offers)
    best, best_score, best_spec = -1, 0, -1
    for index, offer in enumerate(offers.offers):
        score = weights[index] * offer.qs
        if score > best_score or (
            score == best_score and score > 0 and specs[index] > best_spec
        ):
            best, best_score, best_spec = index, score, specs[index]
    return best


def rank(
    ranges: Sequence[RangeTuple] | None, offers: OfferSet
) -> list[tuple[int, int]]:
    """(index, score in millionths) of every acceptable offer, in the order of
    ``best_index``."""
    if ranges is None:
        count = len(offers.offers)
        weights, specs = [1000] * count, [0] * count
    else:
        weights, specs = scores(ranges, offers)
    scored = [
        (weights[index] * offer.qs, specs[index], index)
        for index, offer in enumerate(offers.offers)
    ]
    ordered = sorted((-score, -spec, index) for score, spec, index in scored if score)
    return [(index, -score) for score, _, index in ordered]
