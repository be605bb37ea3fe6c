"""Matching and choosing on parsed values (RFC 9110 §12.5.1; docs/rules.md rules 9-12).

Used by ``Accept``'s methods, ``Consumes`` and the pure-Python engine; the
Cython engine builds its C structs from ``OfferSet``, as ``OfferTables``
lays them out (and checks this module's key packing at import), runs the
same rules on them, and is differential-tested against this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ._limits import shared_key
from ._member import (
    ParsedOffer,
    RangeTuple,
    charset_free,
    compared_value,
    is_suffix_range,
    scan_parameters,
    suffix_ranges,
    suffix_reaches,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeAlias

#: How a range decides an offer (rule 10), as one int that orders as
#: (specificity, weight) does: ``specificity << WEIGHT_BITS | weight``, the
#: specificity ``non_star_parts << 32 | parameter_count`` (a suffix range:
#: ``SUFFIX_ONLY | parameter_count``); -1: no range.
WEIGHT_BITS: Final = 10  # a weight, 0 to 1000, fits below
_WEIGHT_MASK: Final = (1 << WEIGHT_BITS) - 1
_TYPE_ONLY: Final = 1 << 32  # the specificity of "type/*"
#: The specificity of "type/*+suffix" (rule 22): above "type/*" with any
#: number of parameters, below "type/subtype".
SUFFIX_ONLY: Final = _TYPE_ONLY | 1 << 31
#: Past this many offers, an essence's are a set (``Essence``): ``_credit``
#: may read the few of them with a range's parameters by their bits.
_FEW_OF_MANY: Final = 64
#: Below any score above 0, above any score of 0 (``best_match``'s keys).
_NO_SCORE: Final = (0, 3 << 32, 0)

#: A ``type/subtype`` (or ``type/*``, ``*/*``) that can match offers: its
#: type, its subtype, its decision without parameters or weight, and the
#: offers it can match (past ``_FEW_OF_MANY`` of them, as a set).
Essence: TypeAlias = tuple[str, str, int, "tuple[int, ...] | frozenset[int]"]
#: A range that can match offers: its essence, parameters and weight.
Match: TypeAlias = tuple[Essence, tuple[tuple[str, str], ...], int]


class OfferSet:
    """Offers in server order, indexed by the ranges that can match them.

    ``by_essence["type/subtype"]`` holds the ``Essence`` of each range
    ``type/subtype`` (or ``type/*``, ``*/*``) that can match an offer, so
    finding its offers is one look-up. ``by_param["name=value"]`` has a bit
    set for each offer with that parameter (``charset`` lower-case), so a
    range's parameters are checked against all its offers at once;
    ``charset_free`` has a bit set for each offer a range's ``charset`` is not
    compared against (rule 20).
    A suffix range ``type/*+suffix`` (rule 22) has its essence too, for each
    suffix of an offer's subtype (``_member.suffix_ranges``).
    ``order`` lists the offers a wildcard reaches, and ``by_type`` those of
    each type (every offer's type, its list empty where all are explicit),
    the highest qs first, then server order: of the offers only a wildcard
    decides, which tie but for qs, the first stands for all. An explicit
    offer (rule 21) is found by its own ``type/subtype`` only. Every key is
    a ``shared_key``: threads read the tables per call.
    ``spelled["name=value"]`` holds the parameters ``scan_parameters`` reads
    from that text, for each parameter of an offer whose plain spelling it
    reads as that parameter (not one whose value only a quoted string can
    hold): the pure engine's negotiation takes a member's parameters spelled
    so, alone or then a weight spelled as ``WEIGHT_ONLY`` has it, from here.
    """

    __slots__ = (
        "absent_best",
        "by_essence",
        "by_param",
        "by_type",
        "charset_free",
        "offers",
        "order",
        "qs",
        "spelled",
        "values",
    )

    def __init__(self, offers: Sequence[ParsedOffer]) -> None:
        self.offers = tuple(offers)
        #: The media types, as given (what ``choose`` returns).
        self.values = tuple(offer.value for offer in self.offers)
        self.qs = tuple(offer.qs for offer in self.offers)
        self.absent_best = absent_choice(self.offers)
        by_qs = sorted(range(len(self.qs)), key=lambda i: -self.qs[i])
        self.order = tuple(i for i in by_qs if not self.offers[i].explicit)
        by_type: dict[str, list[int]] = {}
        for index in by_qs:
            of_type = by_type.setdefault(self.offers[index].type, [])
            if not self.offers[index].explicit:
                of_type.append(index)
        self.by_type = {shared_key(key): tuple(hits) for key, hits in by_type.items()}
        hits: dict[tuple[str, str], list[int]] = {}
        self.by_param: dict[str, int] = {}
        self.spelled: dict[str, tuple[tuple[str, str], ...]] = {}
        self.charset_free = 0
        for index, offer in enumerate(self.offers):
            self.charset_free |= charset_free(offer) << index
            reached = ((offer.type, "*"), ("*", "*")) if not offer.explicit else ()
            suffixed = [(offer.type, suffix) for suffix in suffix_ranges(offer)]
            for essence in (offer[1:3], *reached, *suffixed):
                hits.setdefault(essence, []).append(index)
            for name, value in offer.params.items():
                key = shared_key(f"{name}={value}")  # a name has no "="
                self.by_param[key] = self.by_param.get(key, 0) | 1 << index
                read = scan_parameters(f";{key}", 0, True, True, "", "")[2]
                if read is not None and read[2] == ((name, value),):
                    self.spelled[key] = read[2]
        self.by_essence: dict[str, Essence] = {
            shared_key(f"{type_}/{subtype}"): (
                type_,
                subtype,
                (
                    SUFFIX_ONLY
                    if is_suffix_range(subtype)
                    else ((type_ != "*") + (subtype != "*")) << 32
                )
                << WEIGHT_BITS,
                tuple(found) if len(found) <= _FEW_OF_MANY else frozenset(found),
            )
            for (type_, subtype), found in hits.items()
        }

    def matches(self, ranges: Sequence[RangeTuple]) -> list[Match]:
        """The ranges that can match an offer, each with its essence."""
        found = []
        for rtype, rsub, params, weight in ranges:
            essence = self.by_essence.get(f"{rtype}/{rsub}")
            if essence is not None:
                found.append((essence, params, weight))
        return found


def absent_choice(offers: Sequence[ParsedOffer]) -> int:
    """The offer chosen when the header is absent (rules 12, 15 and 21): every
    offer but an explicit one is acceptable at q=1, so the highest qs above
    0, then the first; -1 if there is none."""
    return max(
        (i for i, offer in enumerate(offers) if offer.qs > 0 and not offer.explicit),
        key=lambda i: (offers[i].qs, -i),
        default=-1,
    )


def _params_match(params: tuple[tuple[str, str], ...], offer: ParsedOffer) -> bool:
    """Every range parameter present in the offer with an equal value (rule
    9), but a charset a JSON offer without one does not compare (rule 20)."""
    for name, value in params:
        wanted = offer.params.get(name)
        if wanted is None:
            if name == "charset" and charset_free(offer):
                continue
            return False
        if compared_value(name, value) != wanted:
            return False
    return True


def range_matches(rng: RangeTuple, offer: ParsedOffer) -> bool:
    """Type and subtype equal or ``*``, or a suffix range that reaches the
    offer (rule 22); every range parameter present and equal. For a media
    type a request names (``MediaRange.matches``, a Content-Type that
    ``Consumes`` reads), never an explicit offer (rule 21 is the matchers')."""
    rtype, rsub, params, _ = rng
    return (
        (rtype == "*" or rtype == offer.type)
        and (
            rsub == "*"
            or rsub == offer.subtype
            or (is_suffix_range(rsub) and suffix_reaches(rsub, offer))
        )
        and _params_match(params, offer)
    )


def _credit(
    matches: Sequence[Match], offers: OfferSet
) -> tuple[dict[int, int], dict[str, int], int]:
    """Each range credited to the offers it matches (rules 9 and 10): per
    offer, the decision of its most specific range, then the heaviest.

    Only the offers of a range's essence are read; of more than
    ``_FEW_OF_MANY``, where under a quarter as many offers have its
    parameters, only those, by their bits. A wildcard without parameters is
    kept aside instead, for the offers no more specific range decides: the
    highest weight of each type's ``type/*``, and of ``*/*`` (-1: none).
    """
    credited: dict[int, int] = {}
    typed: dict[str, int] = {}
    any_weight = -1
    by_param = offers.by_param
    for (rtype, rsub, found, hits), params, weight in matches:
        if rsub == "*" and not params:
            if rtype == "*":
                if weight > any_weight:
                    any_weight = weight
            elif weight > typed.get(rtype, -1):
                typed[rtype] = weight
            continue
        if not params:
            found |= weight
            for index in hits:
                if found > credited.get(index, -1):
                    credited[index] = found
            continue
        found |= len(params) << WEIGHT_BITS | weight
        matching = -1  # the offers with each of its parameters, as bits
        for name, value in params:
            if name == "charset":  # folded (rule 9), uncompared by some (rule 20)
                found_bits = by_param.get(f"charset={compared_value(name, value)}", 0)
                matching &= found_bits | offers.charset_free
            else:
                matching &= by_param.get(f"{name}={value}", 0)
        if not matching:  # no offer has its parameters
            continue
        if len(hits) > _FEW_OF_MANY and matching.bit_count() * 4 < len(hits):
            while matching:  # ``hits`` a set: the few with its parameters
                index = (matching & -matching).bit_length() - 1
                matching &= matching - 1
                if index in hits and found > credited.get(index, -1):
                    credited[index] = found
            continue
        for index in hits:
            if matching >> index & 1 and found > credited.get(index, -1):
                credited[index] = found
    return credited, typed, any_weight


def _decided(
    index: int,
    credited: dict[int, int],
    typed: dict[str, int],
    any_weight: int,
    offers: OfferSet,
) -> int:
    """The decision of offer ``index``: its most specific matching range, the
    wildcards kept aside among them; between equally specific ranges, the
    heaviest (rule 10)."""
    found = credited.get(index, -1)
    if offers.offers[index].explicit:  # no wildcard reaches it (rule 21)
        return found
    wild = typed.get(offers.offers[index].type, -1)
    if wild >= 0:
        found = max(found, _TYPE_ONLY << WEIGHT_BITS | wild)
    return max(found, any_weight)  # "*/*": specificity 0


def scores(matches: Sequence[Match], offers: OfferSet) -> tuple[list[int], list[int]]:
    """Per offer: the weight and specificity of its most specific matching
    range (``OfferSet.matches``). Between equally specific ranges the higher q
    wins (rule 10). An offer no range matches has weight 0 and specificity -1.
    """
    credit = _credit(matches, offers)
    decided = [_decided(i, *credit, offers) for i in range(len(offers.offers))]
    return (
        [found & _WEIGHT_MASK if found >= 0 else 0 for found in decided],
        [found >> WEIGHT_BITS for found in decided],
    )


def best_match(matches: Sequence[Match] | None, offers: OfferSet) -> int:
    """Index of the best acceptable offer, -1 if none (rules 11, 12 and 15):
    the highest score (q x qs), then the offer matched by the more specific
    range, then the earlier offer. ``matches``: the ranges that can match an
    offer (``OfferSet.matches``); None (header absent) accepts every offer at q=1.

    Only the offers a range was credited to are read one by one. Those only
    a wildcard decides tie but for qs, so the first of the wildcard's order
    stands for them all; a wildcard that cannot reach the best score so far
    is not looked at further.
    """
    if matches is None:
        return offers.absent_best
    credited, typed, any_weight = _credit(matches, offers)
    qs = offers.qs
    best, best_key = -1, _NO_SCORE
    for index, found in credited.items():
        if typed and found >> WEIGHT_BITS < _TYPE_ONLY:  # "*/*;p=v"
            found = _decided(index, credited, typed, any_weight, offers)
        key = ((found & _WEIGHT_MASK) * qs[index], found >> WEIGHT_BITS, -index)
        if key > best_key:
            best, best_key = index, key
    if not typed and any_weight < 0:
        return best
    # The wildcards kept aside: each type's, then "*/*" for the other types.
    for rtype, weight in typed.items():
        order = offers.by_type.get(rtype, ())
        if order and weight * qs[order[0]] >= best_key[0]:
            for index in order:
                if index not in credited:
                    key = (weight * qs[index], _TYPE_ONLY, -index)
                    if key > best_key:
                        best, best_key = index, key
                    break
    order = offers.order
    if any_weight >= 0 and order and any_weight * qs[order[0]] >= best_key[0]:
        for index in order:
            if index not in credited and offers.offers[index].type not in typed:
                key = (any_weight * qs[index], 0, -index)
                if key > best_key:
                    best = index
                break
    return best


def rank(
    matches: Sequence[Match] | None, offers: OfferSet, values: Sequence[str]
) -> list[tuple[str, float]]:
    """(media type, score: q x qs) of every acceptable offer, in the order of
    ``best_match``; ``matches``: the ranges that can match an offer
    (``OfferSet.matches``), None when the header is absent; ``values``: the
    media types to give, by offer index."""
    if matches is None:  # every offer but an explicit one at q=1
        weights = [0 if offer.explicit else 1000 for offer in offers.offers]
        specs = [0] * len(weights)
    else:
        weights, specs = scores(matches, offers)
    scored = [
        (weights[index] * offer.qs, specs[index], index)
        for index, offer in enumerate(offers.offers)
    ]
    ordered = sorted((-score, -spec, index) for score, spec, index in scored if score)
    return [(values[index], -score / 1_000_000) for score, _, index in ordered]


class OfferTables:
    """How the Cython engine lays an ``OfferSet`` out in its C arrays
    (``_scan.pyx``'s ``Offers``, whose comments say what each array is for),
    worked out here, where the Python objects it reads cost no compiled
    code; ``Negotiator.__cinit__`` copies it. Offers from the
    ``mask_bits - 1``-th on share a mask's last bit and are found by lists
    (late: all, then each type's, then each slot's); a chain of types (by
    first byte) or of a type's slots (by the low five bits of the subtype's
    first byte) longer than ``long_chain`` is split."""

    __slots__ = (
        "all",
        "charset_free",
        "group_counts",
        "group_masks",
        "group_order",
        "late",
        "n_posts",
        "param_counts",
        "params",
        "slot_groups",
        "slot_masks",
        "slot_parts_suffix",
        "spans",
        "splits",
        "subtypes",
        "table_sizes",
        "type_heads",
        "types",
        "with_params",
    )

    def __init__(self, layout: OfferSet, mask_bits: int, long_chain: int) -> None:
        offers, shared = layout.offers, mask_bits - 1
        bits = [1 << min(index, shared) for index in range(len(offers))]
        #: Each offer's parameters: name, value, name, value... and how many;
        #: whether a range's charset goes uncompared against it (rule 20).
        self.params: list[str] = []
        self.param_counts = [len(offer.params) for offer in offers]
        for offer in offers:
            for pair in offer.params.items():
                self.params.extend(pair)
        self.charset_free = [layout.charset_free >> i & 1 for i in range(len(offers))]
        takes = [bool(o.params) or self.charset_free[i] for i, o in enumerate(offers)]
        #: The offers a wildcard reaches; those a range's parameters may.
        self.all = _mask(bits, [i for i, o in enumerate(offers) if not o.explicit])
        own = range(min(len(offers), shared))  # the offers with a bit of their own
        self.with_params = _mask(bits, [i for i in own if takes[i]])
        #: Each type ("type/"), its offers in wildcard order and their mask.
        self.types = [type_ + "/" for type_ in layout.by_type]
        self.group_counts = [len(members) for members in layout.by_type.values()]
        self.group_order = [i for members in layout.by_type.values() for i in members]
        self.group_masks = [_mask(bits, members) for members in layout.by_type.values()]
        groups = {type_: k for k, type_ in enumerate(layout.by_type)}
        #: The heads of the types' chains, each type's first byte in both
        #: cases and its number, in the order to link them (the first type last).
        self.type_heads: list[int] = []
        for k in reversed(range(len(self.types))):
            initial = self.types[k][0]
            for byte in sorted({ord(initial), ord(initial.upper())}):
                self.type_heads += (byte, k)
        #: A slot for each subtype (or "*+suffix") of a type.
        essences = [e for e in layout.by_essence.values() if "*" not in (e[0], e[1])]
        self.subtypes = [e[1] for e in essences]
        self.slot_parts_suffix = [is_suffix_range(e[1]) for e in essences]
        self.slot_groups = [groups[e[0]] for e in essences]
        self.slot_masks = [_mask(bits, e[3]) for e in essences]
        #: Each chain longer than ``long_chain``: the group (-1 for the types'
        #: chains), the byte (its low five bits for slots; both cases of a
        #: type's first byte) and the size of its split, a power of two.
        chains: dict[tuple[int, int], int] = {}
        for type_ in layout.by_type:
            chain = (-1, ord(type_[0]))
            chains[chain] = chains.get(chain, 0) + 1
        for e in essences:
            chain = (groups[e[0]], ord(e[1][0]) & 31)
            chains[chain] = chains.get(chain, 0) + 1
        self.splits: list[int] = []
        for (group, byte), count in chains.items():
            if count > long_chain:
                upper = ord(chr(byte).upper()) if group < 0 else byte
                self.splits += (group, byte, upper, 1 << (count - 1).bit_length())
        #: The late offers of all, of each type, of each slot, each list's with
        #: parameters (or comparing no charset) first; per list its start, its
        #: length, how many have parameters (``spans``, three numbers a list)
        #: and its table's size, at most half full.
        self.late: list[int] = []
        self.spans: list[int] = []
        self.table_sizes: list[int] = []
        self.n_posts = 0
        lists: list[Iterable[int]] = [range(len(offers)), *layout.by_type.values()]
        lists += [e[3] for e in essences]
        for indices in lists:
            first, posts = len(self.late), 0
            for index in indices:
                if index >= shared and takes[index]:
                    self.late.append(index)
                    posts += len(offers[index].params)
            counted = len(self.late) - first
            self.n_posts += posts
            self.table_sizes.append(1 << (2 * posts).bit_length())
            self.late += [i for i in indices if i >= shared and not takes[i]]
            self.spans += (first, len(self.late) - first, counted)


def _mask(bits: Sequence[int], indices: Iterable[int]) -> int:
    """The mask of the offers ``indices``: each one's bit (``bits``) or'ed."""
    mask = 0
    for index in indices:
        mask |= bits[index]
    return mask
