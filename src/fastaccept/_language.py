"""Accept-Language: the grammar of one member, the offered tags, and the choice.

RFC 9110 §12.5.4 and RFC 4647 §2.1::

    Accept-Language = #( language-range [ weight ] )
    language-range  = ( 1*8ALPHA *( "-" 1*8alphanum ) ) / "*"
    weight          = OWS ";" OWS "q=" qvalue

Offers are tags of the same shape without ``*``. Every comparison is
case-insensitive: ranges and tags are kept lower-case. A tag's weight comes
from its deciding range: the closest range by exact match, filtering (RFC
4647 §3.3.1), lookup (§3.4) or the same language, docs/rules.md rule 19. The
pure-Python engine scans members with ``scan_language`` and
chooses with ``best_language``; the Cython engine is differential-tested
against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import _errors as E
from ._grammar import LANGUAGE_TAG, PRIMARY_SUBTAG, SUBTAG, pattern
from ._limits import LANGUAGE_PREFIX_KEPT, shared_key
from ._member import Item, ItemResult, scan_weight
from ._text import as_header_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeAlias

#: How a range relates to a tag, closest last (docs/rules.md rule 19): only
#: ``*`` reaches it; the same first subtag; the tag is a truncation of the
#: range (RFC 4647 §3.4 lookup); the range is a prefix of the tag (§3.3.1
#: filtering); the range is the tag.
STAR: Final = 0
SAME_LANGUAGE: Final = 1
LOOKUP: Final = 2
FILTERING: Final = 3
EXACT: Final = 4
#: A deciding key: (leading subtags shared, relation, weight) packed into one
#: int that orders as that tuple does, ``shared << SHARED_SHIFT | relation <<
#: RELATION_SHIFT | weight``; 0 when no range decides. The Cython engine packs
#: its keys with the same shifts and relation numbers.
RELATION_SHIFT: Final = 11  # a weight, 0 to 1000, fits below
SHARED_SHIFT: Final = 14  # a relation, 3 bits, fits below
_WEIGHT_MASK: Final = (1 << RELATION_SHIFT) - 1

_PRIMARY_SUBTAG: Final = pattern(PRIMARY_SUBTAG, globals())
_SUBTAG: Final = pattern(SUBTAG, globals())
_TAG: Final = pattern(LANGUAGE_TAG, globals())


def scan_language(text: str, start: int, strict: bool = False) -> ItemResult:
    """Parse the member that starts at ``start`` (not OWS, not a comma).

    ``language-range [ OWS ";" OWS "q=" qvalue ] OWS``: ``*``, or a first
    subtag of 1-8 letters, then ``-`` and 1-8 letters or digits, again and
    again (RFC 4647 §2.1, basic ranges). The first violation ends the member,
    and its code and position are returned at once. ``strict`` changes
    nothing: the grammar has no lenient-only form.
    """
    n = len(text)
    if text.startswith("*", start):
        p = start + 1
    else:
        m = _PRIMARY_SUBTAG.match(text, start)
        if m is None:
            return E.EXPECTED_LANGUAGE, start, None
        p = m.end()
        if p - start > 8:
            return E.LONG_SUBTAG, p - 1, None
        while p < n and text[p] == "-":
            m = _SUBTAG.match(text, p + 1)
            if m is None:
                return E.EXPECTED_SUBTAG, p + 1, None
            if m.end() - p > 9:
                return E.LONG_SUBTAG, m.end() - 1, None
            p = m.end()
    code, pos, weight = scan_weight(text, p, E.EXPECTED_RANGE_END)
    if code:
        return code, pos, None
    return 0, pos, (text[start:p].lower(), weight)


def parse_tag(item: object) -> tuple[str, ...]:
    """An offered language tag's subtags, lower-case; ``TypeError`` or
    ``ValueError`` otherwise.

    ``1*8ALPHA *( "-" 1*8alphanum )`` (RFC 4647 §2.1, as RFC 5646 tags are);
    ``*`` is a range of the request, not a language a server has.
    """
    if not isinstance(item, str):
        raise TypeError(f"each language tag must be a str, not {type(item).__name__}")
    text = as_header_text(item)[1]
    if _TAG.fullmatch(text) is None:
        raise ValueError(
            f"invalid language tag {E.shown(item)}: a tag is subtags of 1 to 8 letters "
            "or digits joined by '-', the first letters only, such as 'en' or "
            "'sr-Latn-RS' (RFC 4647 §2.1), without '*' or a weight"
        )
    return tuple(text.lower().split("-"))


class TagSet:
    """Offered language tags in server order, validated and parsed once.

    ``values`` are the tags as given (what a choice returns), ``subtags``
    their lower-case subtags, ``by_primary`` the indexes of the tags of each
    first subtag (only a range with the same first subtag, or ``*``, can
    match a tag), ``absent_best`` the choice when the header is absent.

    ``related`` gives, worked out by ``relation`` when first asked and kept
    in ``prefixes``, what a range relates to (``Hits``) for
    each prefix of a tag (``en`` and ``en-gb`` for ``en-GB``; in ``known``
    where short): for the prefix as a range with q > 0, with q = 0, and for any
    longer range with q > 0 whose longest prefix among them it is (``en-us``
    for ``en``: none of its subtags after the prefix leads to a tag, so it
    shares with each tag what the prefix shares). A range with no prefix
    there relates to no tag. ``known`` and ``prefixes`` keep prefixes of at
    most ``LANGUAGE_PREFIX_KEPT`` characters (``_limits``); a longer one is
    found, and worked out, by reading the tags of its first subtag. So
    set-up is linear in the tags' length, and a value costs its ranges
    times the tags they can reach (rule 8). The tables' keys are
    ``shared_key``s: threads read them per call.
    """

    __slots__ = (
        "absent_best",
        "by_primary",
        "depth",
        "known",
        "prefixes",
        "subtags",
        "texts",
        "values",
        "zeros",
    )

    def __init__(self, tags: Iterable[str]) -> None:
        self.values: tuple[str, ...] = tuple(tags)
        # List comprehensions, which CPython 3.12 runs inline, not generator
        # expressions: making one's function when an allocation fails frees
        # its code twice there (python/cpython#122752, docs/reliability.md).
        self.subtags = tuple([parse_tag(tag) for tag in self.values])
        #: The tags lower-case.
        self.texts = tuple(["-".join(subtags) for subtags in self.subtags])
        #: A 0 per tag: where ``decisions`` starts its keys and positions.
        self.zeros = (0,) * len(self.values)
        by_primary: dict[str, list[int]] = {}
        for index, subtags in enumerate(self.subtags):
            by_primary.setdefault(subtags[0], []).append(index)
        self.by_primary = {
            shared_key(key): tuple(hits) for key, hits in by_primary.items()
        }
        #: The most subtags a tag has: no key of ``prefixes`` has more.
        self.depth = max(map(len, self.subtags), default=1)
        self.known = {
            text[:end]
            for text in self.texts
            for end in range(1, min(len(text), LANGUAGE_PREFIX_KEPT) + 1)
            if end == len(text) or text[end] == "-"
        }
        self.prefixes: dict[str, tuple[Hits, Hits, Hits]] = {}
        #: Header absent: the first tag (RFC 9110 §12.4.1: no preference).
        self.absent_best = 0 if self.values else -1

    def related(self, prefix: str) -> tuple[Hits, Hits, Hits] | None:
        """``prefixes``' entry for ``prefix``, worked out the first time it is
        asked for (kept where it is short: ``LANGUAGE_PREFIX_KEPT``); None
        where it is no prefix of a tag."""
        found = self.prefixes.get(prefix)
        if found is not None:
            return found
        short = len(prefix) <= LANGUAGE_PREFIX_KEPT
        if not (prefix in self.known if short else self._leads(prefix)):
            return None
        subtags = prefix.split("-")
        found = (
            self._hits(subtags, 1),
            self._hits(subtags, 0),
            self._hits((*subtags, ""), 1),  # "": a subtag no tag has
        )
        if short:
            self.prefixes[shared_key(prefix)] = found
        return found

    def _leads(self, prefix: str) -> bool:
        """Whether ``prefix`` is a tag or a tag's prefix ending at a ``-``,
        by reading the tags of its first subtag."""
        end = len(prefix)
        for index in self.by_primary.get(prefix.partition("-")[0], ()):
            text = self.texts[index]
            if text.startswith(prefix) and (len(text) == end or text[end] == "-"):
                return True
        return False

    def _hits(self, range_subtags: Sequence[str], weight: int) -> Hits:
        """The tags a range (not ``*``) with q ``weight`` relates to."""
        found = []
        for index in self.by_primary.get(range_subtags[0], ()):
            related = relation(range_subtags, weight, self.subtags[index])
            if related is not None:
                shared, closeness = related
                found.append(
                    (index, shared << SHARED_SHIFT | closeness << RELATION_SHIFT)
                )
        return tuple(found)

    def extended(self, rng: str, primary: str, by_primary: Hits) -> Hits:
        """What a range with q > 0 that is no prefix of a tag, of three
        subtags or more with the first subtag ``primary`` of a tag, relates
        to: that of its longest prefix that a tag has (``by_primary``, that of
        ``primary``, where none is longer). Its prefixes of up to ``depth``
        subtags are halved to it (a prefix of a tag's prefix is one too), so
        the work is its length times the log of ``depth``, not times ``depth``."""
        cuts = []
        cut = len(primary)  # its first "-"
        for _ in range(self.depth - 1):
            cut = rng.find("-", cut + 1)
            if cut < 0:
                break
            cuts.append(cut)
        found, low, high = by_primary, 0, len(cuts)
        while low < high:  # cuts[:low] are prefixes of tags, cuts[high:] not
            middle = (low + high) // 2
            known = self.related(rng[: cuts[middle]])
            if known is None:
                high = middle
            else:
                found, low = known[2], middle + 1
        return found


def relation(
    range_subtags: Sequence[str], weight: int, tag: Sequence[str]
) -> tuple[int, int] | None:
    """How one range (not ``*``) relates to one tag: (leading subtags shared,
    ``EXACT``/``FILTERING``/``LOOKUP``/``SAME_LANGUAGE``), or None.

    Exact: the range is the tag. Filtering (RFC 4647 §3.3.1): the range is a
    prefix of the tag ending at a ``-``. Only for q > 0, lookup (§3.4): the
    tag is what remains of the range after removing subtags from its end,
    never leaving a single-character subtag last; else the same language:
    the same first subtag, unless that is a single character (``x-`` private
    use and ``i-`` tags name no language by it).
    """
    limit = min(len(range_subtags), len(tag))
    shared = 0
    while shared < limit and range_subtags[shared] == tag[shared]:
        shared += 1
    if shared == len(range_subtags):
        return shared, EXACT if shared == len(tag) else FILTERING
    if not weight or not shared:
        return None
    if shared == len(tag) and len(tag[-1]) > 1:
        return shared, LOOKUP
    return (shared, SAME_LANGUAGE) if len(tag[0]) > 1 else None


#: The tags one range relates to: (tag index, its key without the weight)
#: for each.
Hits: TypeAlias = "tuple[tuple[int, int], ...]"


def decisions(items: Sequence[Item], tags: TagSet) -> tuple[list[int], list[int]]:
    """Per tag, its deciding range (docs/rules.md rule 19): its key, and its
    position among the members.

    Among the ranges related to the tag, the one sharing the most leading
    subtags with it, then the closer relation, then the higher q, then the
    first listed; ``*`` relates to every tag, sharing none, so it decides
    only a tag no other range relates to: its highest q (the first listed of
    it) is given to those at the end, once. Its q is the tag's weight; q=0
    refuses the tag (RFC 9110 §12.5.4).
    """
    keys = [*tags.zeros]
    positions = [*tags.zeros]
    related = tags.related
    star = star_at = 0  # a "*" of q > 0 shares no subtag: its key is its q
    for position, (rng, weight) in enumerate(items):
        if rng == "*":
            if weight > star:
                star, star_at = weight, position
            continue
        known = related(rng)
        if known is not None:
            hits = known[0] if weight else known[1]
        elif weight:  # lookup or the same language, by its longest prefix
            primary, _, rest = rng.partition("-")
            known = related(primary)
            if known is None:
                continue  # no tag has its first subtag
            hits = tags.extended(rng, primary, known[2]) if "-" in rest else known[2]
        else:
            continue
        for index, base in hits:
            key = base | weight
            if key > keys[index]:  # on a tie the range listed first stays
                keys[index] = key
                positions[index] = position
    if star:
        for index, key in enumerate(keys):
            if not key:  # no other range relates to it
                keys[index], positions[index] = star, star_at
    return keys, positions


def language_weights(items: Sequence[Item], tags: TagSet) -> list[int]:
    """Per tag, its weight in thousandths: its deciding range's q (``decisions``)."""
    return [key & _WEIGHT_MASK for key in decisions(items, tags)[0]]


def _preference(key: int, position: int) -> tuple[int, bool, int, int, int]:
    """How an acceptable tag ranks, the greatest first: the highest weight,
    then a language range over ``*``, then the deciding range listed first
    (RFC 9110 §12.5.4: some recipients read the order as a priority), then the
    closer relation, then more shared subtags (RFC 4647 §3.4 tries the
    longest truncation first); server order breaks what is left."""
    related = key >> RELATION_SHIFT & 7
    return (
        key & _WEIGHT_MASK,
        related != STAR,
        -position,
        related,
        key >> SHARED_SHIFT,
    )


def rank_languages(items: Sequence[Item] | None, tags: TagSet) -> list[tuple[int, int]]:
    """(index, weight in thousandths) of every acceptable tag, best first.
    ``None`` (header absent): every tag at 1, in server order."""
    if items is None:
        return [(index, 1000) for index in range(len(tags.values))]
    keys, positions = decisions(items, tags)
    ranked = sorted(
        ((_preference(key, positions[index]), -index)
         for index, key in enumerate(keys) if key & _WEIGHT_MASK),
        reverse=True,
    )  # fmt: skip
    return [(-index, preference[0]) for preference, index in ranked]


def best_language(items: Sequence[Item] | None, tags: TagSet) -> int:
    """Index of the best acceptable tag, -1 if none (RFC 9110 §12.5.4).

    The order of ``rank_languages``. ``None`` (header absent): the first tag.
    A present value with no valid member accepts none.
    """
    if items is None:
        return tags.absent_best
    keys, positions = decisions(items, tags)
    best, best_weight = -1, 0
    for index, key in enumerate(keys):
        weight = key & _WEIGHT_MASK  # the preference's first part
        if weight > best_weight or (
            weight == best_weight
            and weight
            and _preference(key, positions[index])
            > _preference(keys[best], positions[best])
        ):  # on a tie the earlier tag stays
            best, best_weight = index, weight
    return best
