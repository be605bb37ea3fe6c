"""Accept-Language: the grammar of one member, the offered tags, and the choice.

RFC 9110 §12.5.4 and RFC 4647 §2.1::

    Accept-Language = #( language-range [ weight ] )
    language-range  = ( 1*8ALPHA *( "-" 1*8alphanum ) ) / "*"
    weight          = OWS ";" OWS "q=" qvalue

Offers are tags of the same shape without ``*``. Every comparison is
case-insensitive: ranges and tags are kept lower-case. A tag's weight comes
from its deciding range, found by filtering (RFC 4647 §3.3.1) and lookup
(§3.4). The pure-Python engine scans members with ``scan_language`` and
chooses with ``best_language``; the Cython engine is differential-tested
against them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from . import _errors as E
from ._member import scan_weight
from ._text import as_header_text

#: A member as the engines build it: (range, weight), the range lower-case,
#: the weight in thousandths. ``LanguageRange`` is a named tuple of this shape.
RangeTuple: TypeAlias = tuple[str, int]
#: A parsed member: (error code, position, range, weight). On success the
#: code is 0 and the position is where the member ends (a comma, or the end).
LanguageResult: TypeAlias = tuple[int, int, str, int]
#: How a range decides a tag's weight: by lookup, or by filtering (which wins
#: a tie on shared subtags, in the deciding range and in the choice).
LOOKUP: Final = 0
FILTERING: Final = 1

#: At most 9 characters: a 9th is the violation (a subtag has at most 8).
_ALPHA: Final = re.compile("[A-Za-z]{1,9}")
_ALPHANUM: Final = re.compile("[A-Za-z0-9]{1,9}")
_TAG: Final = re.compile("[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


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
        m = _ALPHA.match(text, start)
        if m is None:
            return E.EXPECTED_LANGUAGE, start, "", 0
        p = m.end()
        if p - start > 8:
            return E.LONG_SUBTAG, p - 1, "", 0
        while p < n and text[p] == "-":
            m = _ALPHANUM.match(text, p + 1)
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


#: A deciding candidate: (shared subtags, FILTERING or LOOKUP, weight); the
#: greatest decides a tag's weight (RFC 9110 §12.5.4, RFC 4647 §3).
Key: TypeAlias = "tuple[int, int, int] | None"


def decision(range_subtags: Sequence[str], weight: int, tag: Sequence[str]) -> Key:
    """How one range (not ``*``) reaches one tag: (shared subtags, ``FILTERING``
    or ``LOOKUP``, weight), or None.

    Filtering (RFC 4647 §3.3.1): the range is the tag or a prefix of it
    ending at a ``-``; it shares all its subtags. Lookup (§3.4), for q > 0
    only: subtags removed from the range's end one at a time (a
    single-character subtag left last goes with the one after it) until what
    is left is such a prefix; it shares the subtags left.
    """
    limit = min(len(range_subtags), len(tag))
    shared = 0
    while shared < limit and range_subtags[shared] == tag[shared]:
        shared += 1
    if shared == len(range_subtags):
        return (shared, FILTERING, weight)
    if not weight:
        return None
    while shared and len(range_subtags[shared - 1]) == 1:
        shared -= 1  # a prefix never ends with a singleton
    return (shared, LOOKUP, weight) if shared else None


def language_scores(
    items: Sequence[RangeTuple], tags: TagSet
) -> list[tuple[int, int, int]]:
    """Per tag: (weight, ``FILTERING``/``LOOKUP``, shared subtags) of its
    deciding range; (0, 0, 0) when no range reaches it.

    Candidates are the ranges that match the tag by filtering (``*`` matches
    every tag, sharing none) and those with q > 0 that reach it by lookup.
    The deciding one shares the most leading subtags, then is a filtering
    one, then has the higher q. q=0 excludes the tag.
    """
    best: list[tuple[int, int, int]] = [(-1, 0, 0)] * len(tags)
    everything = range(len(tags))
    for rng, weight in items:
        if rng == "*":
            key = (0, FILTERING, weight)
            for index in everything:
                if key > best[index]:
                    best[index] = key
            continue
        subtags = rng.split("-")
        for index in tags.by_primary.get(subtags[0], ()):
            found = decision(subtags, weight, tags.subtags[index])
            if found is not None and found > best[index]:
                best[index] = found
    return [
        (weight, kind, shared) if shared >= 0 else (0, 0, 0)
        for shared, kind, weight in best
    ]


def rank_languages(
    items: Sequence[RangeTuple] | None, tags: TagSet
) -> list[tuple[int, int]]:
    """(index, weight in thousandths) of every acceptable tag, best first.

    The highest weight, then a filtering decision over a lookup one, then
    more shared subtags, then server order; a weight of 0 is left out.
    ``None`` (header absent): every tag at 1, in server order.
    """
    if items is None:
        return [(index, 1000) for index in range(len(tags))]
    ordered = sorted(
        (-weight, -kind, -shared, index)
        for index, (weight, kind, shared) in enumerate(language_scores(items, tags))
        if weight
    )
    return [(index, -weight) for weight, _, _, index in ordered]


def best_language(items: Sequence[RangeTuple] | None, tags: TagSet) -> int:
    """Index of the best acceptable tag, -1 if none (RFC 9110 §12.5.4).

    The order of ``rank_languages``. ``None`` (header absent): the first tag.
    A present value with no valid member accepts none.
    """
    if items is None:
        return tags.absent_best
    best, best_key = -1, (0, 0, 0)
    for index, key in enumerate(language_scores(items, tags)):
        if key[0] and key > best_key:
            best, best_key = index, key
    return best
