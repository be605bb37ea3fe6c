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
from ._member import scan_weight
from ._text import as_header_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeAlias

#: A member as the engines build it: (range, weight), the range lower-case,
#: the weight in thousandths. ``LanguageRange`` is a named tuple of this shape.
RangeTuple: TypeAlias = tuple[str, int]
#: A parsed member: (error code, position, range, weight). On success the
#: code is 0 and the position is where the member ends (a comma, or the end).
LanguageResult: TypeAlias = tuple[int, int, str, int]
#: How a range relates to a tag, closest last (docs/rules.md rule 19): only
#: ``*`` reaches it; the same first subtag; the tag is a truncation of the
#: range (RFC 4647 §3.4 lookup); the range is a prefix of the tag (§3.3.1
#: filtering); the range is the tag.
STAR: Final = 0
SAME_LANGUAGE: Final = 1
LOOKUP: Final = 2
FILTERING: Final = 3
EXACT: Final = 4

_PRIMARY_SUBTAG: Final = pattern(PRIMARY_SUBTAG, globals())
_SUBTAG: Final = pattern(SUBTAG, globals())
_TAG: Final = pattern(LANGUAGE_TAG, globals())


def scan_language(text: str, start: int) -> LanguageResult:
    """Parse the member that starts at ``start`` (not OWS, not a comma).

    ``language-range [ OWS ";" OWS "q=" qvalue ] OWS``: ``*``, or a first
    subtag of 1-8 letters, then ``-`` and 1-8 letters or digits, again and
    again (RFC 4647 §2.1, basic ranges). The first violation ends the member,
    and its code and position are returned at once.
    """
    n = len(text)
    if text[start] == "*":
        p = start + 1
    else:
        m = _PRIMARY_SUBTAG.match(text, start)
        if m is None:
            return E.EXPECTED_LANGUAGE, start, "", 0
        p = m.end()
        if p - start > 8:
            return E.LONG_SUBTAG, p - 1, "", 0
        while p < n and text[p] == "-":
            m = _SUBTAG.match(text, p + 1)
            if m is None:
                return E.EXPECTED_SUBTAG, p + 1, "", 0
            if m.end() - p > 9:
                return E.LONG_SUBTAG, m.end() - 1, "", 0
            p = m.end()
    code, pos, weight = scan_weight(text, p, E.EXPECTED_RANGE_END)
    if code:
        return code, pos, "", 0
    return 0, pos, text[start:p].lower(), weight


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
            f"invalid language tag {item!r}: a tag is subtags of 1 to 8 letters "
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
    """

    __slots__ = ("absent_best", "by_primary", "subtags", "values")

    def __init__(self, tags: Iterable[str]) -> None:
        self.values: tuple[str, ...] = tuple(tags)
        self.subtags = tuple(parse_tag(tag) for tag in self.values)
        by_primary: dict[str, list[int]] = {}
        for index, subtags in enumerate(self.subtags):
            by_primary.setdefault(subtags[0], []).append(index)
        self.by_primary = {key: tuple(hits) for key, hits in by_primary.items()}
        #: Header absent: the first tag (RFC 9110 §12.5.4: any language).
        self.absent_best = 0 if self.values else -1

    def __len__(self) -> int:
        return len(self.subtags)


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


#: A tag's deciding range, as (leading subtags shared, relation, weight,
#: -position among the members): the greatest decides. None: no range relates.
Decision: TypeAlias = "tuple[int, int, int, int] | None"


def decisions(items: Sequence[RangeTuple], tags: TagSet) -> list[Decision]:
    """Per tag, its deciding range (docs/rules.md rule 19).

    Among the ranges related to the tag, the one sharing the most leading
    subtags with it, then the closer relation, then the higher q, then the
    first listed; ``*`` relates to every tag, sharing none. Its q is the
    tag's weight; q=0 refuses the tag (RFC 9110 §12.5.4).
    """
    best: list[Decision] = [None] * len(tags)
    every = range(len(tags))
    by_primary, subtags_of = tags.by_primary, tags.subtags
    for position, (rng, weight) in enumerate(items):
        if rng == "*":
            found = (0, STAR, weight, -position)
            for index in every:
                key = best[index]
                if key is None or found > key:
                    best[index] = found
            continue
        subtags = rng.split("-")
        for index in by_primary.get(subtags[0], ()):
            related = relation(subtags, weight, subtags_of[index])
            if related is not None:
                found = (related[0], related[1], weight, -position)
                key = best[index]
                if key is None or found > key:
                    best[index] = found
    return best


def _preference(decision: tuple[int, int, int, int]) -> tuple[int, bool, int, int, int]:
    """How an acceptable tag ranks, the greatest first: the highest weight,
    then a language range over ``*``, then the deciding range listed first
    (RFC 9110 §12.5.4: at equal weights the order is a priority), then the
    closer relation, then more shared subtags (RFC 4647 §3.4 tries the
    longest truncation first); server order breaks what is left."""
    shared, related, weight, before = decision
    return (weight, related != STAR, before, related, shared)


def rank_languages(
    items: Sequence[RangeTuple] | None, tags: TagSet
) -> list[tuple[int, int]]:
    """(index, weight in thousandths) of every acceptable tag, best first.
    ``None`` (header absent): every tag at 1, in server order."""
    if items is None:
        return [(index, 1000) for index in range(len(tags))]
    ranked = sorted(
        ((_preference(d), -index) for index, d in enumerate(decisions(items, tags))
         if d is not None and d[2]),
        reverse=True,
    )  # fmt: skip
    return [(-index, preference[0]) for preference, index in ranked]


def best_language(items: Sequence[RangeTuple] | None, tags: TagSet) -> int:
    """Index of the best acceptable tag, -1 if none (RFC 9110 §12.5.4).

    The order of ``rank_languages``. ``None`` (header absent): the first tag.
    A present value with no valid member accepts none.
    """
    if items is None:
        return tags.absent_best
    best, best_preference = -1, (0, False, 0, 0, 0)
    for index, decision in enumerate(decisions(items, tags)):
        if decision is not None and decision[2]:
            preference = _preference(decision)
            if preference > best_preference:  # on a tie the earlier tag stays
                best, best_preference = index, preference
    return best


def language_weight(items: Sequence[RangeTuple], tags: TagSet) -> int:
    """The weight in thousandths the members give the first tag: its
    deciding range's q, 0 when no range relates to it."""
    decision = decisions(items, tags)[0]
    return 0 if decision is None else decision[2]
