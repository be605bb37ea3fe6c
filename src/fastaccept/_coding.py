"""Accept-Encoding: the grammar of one member, the offers, and the choice.

RFC 9110 §12.5.3::

    Accept-Encoding = #( codings [ weight ] )
    codings         = content-coding / "identity" / "*"
    weight          = OWS ";" OWS "q=" qvalue

Codings are tokens compared case-insensitively; ``x-gzip`` is ``gzip`` and
``x-compress`` is ``compress`` (§8.4.1.3, §8.4.1.1), in values and in offers alike. The
pure-Python engine scans members with ``scan_coding`` and chooses with
``best_coding``; the Cython engine is differential-tested against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import _errors as E
from ._grammar import TOKEN, pattern
from ._limits import shared_key
from ._member import Item, ItemResult, scan_weight
from ._text import as_header_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: The coding of a representation that has none (RFC 9110 §12.5.3).
IDENTITY: Final = "identity"
#: Names that mean another coding (RFC 9110 §8.4.1.1, §8.4.1.3).
ALIASES: Final = {"x-gzip": "gzip", "x-compress": "compress"}

_TOKEN: Final = pattern(TOKEN, globals())

#: Where an offer's weight came from, the tie-break after the weight (§12.5.3):
#: its own entry, then the ``*`` entry, then the implicit weight of identity.
OWN: Final = 2
STAR: Final = 1
IMPLICIT: Final = 0


def scan_coding(text: str, start: int, strict: bool = False) -> ItemResult:
    """Parse the member that starts at ``start`` (not OWS, not a comma).

    ``coding [ OWS ";" OWS "q=" qvalue ] OWS``; the first violation ends the
    member, and its code and position are returned at once. ``strict``
    changes nothing: the grammar has no lenient-only form.
    """
    m = _TOKEN.match(text, start)
    if m is None:
        return E.EXPECTED_CODING, start, None
    code, pos, weight = scan_weight(text, m.end(), E.EXPECTED_CODING_END)
    if code:
        return code, pos, None
    return 0, pos, (text[start : m.end()].lower(), weight)


def parse_coding(item: object) -> str:
    """An offered coding, canonical; ``TypeError``/``ValueError`` otherwise.

    A content-coding token or ``identity`` (RFC 9110 §8.4.1); ``*`` is a range
    of the request, not a coding a server can apply.
    """
    if not isinstance(item, str):
        raise TypeError(f"each coding must be a str, not {type(item).__name__}")
    text = as_header_text(item)[1]
    if _TOKEN.fullmatch(text) is None:
        raise ValueError(
            f"invalid coding {E.shown(item)}: a coding is a token such as 'gzip' or "
            "'identity' (RFC 9110 §8.4.1), without a weight"
        )
    if text == "*":
        raise ValueError(
            "invalid coding '*': offers are codings the server can apply, not "
            "the wildcard of a request"
        )
    coding = text.lower()
    return ALIASES.get(coding, coding)  # canonical: x-gzip is gzip


class CodingSet:
    """Offered codings in server order, validated and parsed once.

    ``values`` are the offers as given (what a choice returns), ``names``
    their canonical codings, ``spellings`` the canonical coding each name
    in a value that can score an offer stands for (an offered coding, an
    alias of one such as ``x-gzip`` for ``gzip``, and ``*``), ``absent_best``
    the choice when the header is absent.
    """

    __slots__ = ("absent_best", "names", "spellings", "values")

    def __init__(self, offers: Iterable[str]) -> None:
        self.values: tuple[str, ...] = tuple(offers)
        self.names = tuple(parse_coding(offer) for offer in self.values)
        self.spellings = {shared_key(name): name for name in (*self.names, "*")}
        for alias, name in ALIASES.items():
            if name in self.names:
                self.spellings[shared_key(alias)] = name
        # Header absent: identity if offered, else the first (RFC 9110 §12.5.3
        # allows any coding, but clients that send nothing often decode none).
        names = self.names
        self.absent_best = (
            names.index(IDENTITY) if IDENTITY in names else 0 if names else -1
        )


def coding_scores(items: Sequence[Item], offers: CodingSet) -> list[tuple[int, int]]:
    """Per offer: its weight in thousandths, and where it came from (RFC 9110
    §12.5.3).

    Its own entry; else the ``*`` entry (an entry listed twice: its higher
    q); else, for ``identity`` only, the lowest non-zero weight among the
    members (q=1 if none is above 0); else 0. ``identity;q=0``, or ``*;q=0``
    without an ``identity`` entry, leaves identity at 0.
    """
    own: dict[str, int] = {}  # and "*"'s
    lowest = 1000
    offered = offers.spellings.get
    for coding, weight in items:
        if weight < lowest and weight:
            lowest = weight
        name = offered(coding)
        if name is not None and own.get(name, -1) < weight:
            own[name] = weight
    star = own.get("*", -1)
    return [
        (own[name], OWN) if name in own
        else (star, STAR) if star >= 0
        else (lowest if name == IDENTITY else 0, IMPLICIT)
        for name in offers.names
    ]  # fmt: skip


def coding_weights(items: Sequence[Item], offers: CodingSet) -> list[int]:
    """Per offer, its weight in thousandths (``coding_scores``)."""
    return [weight for weight, _ in coding_scores(items, offers)]


def rank_codings(
    items: Sequence[Item] | None, offers: CodingSet
) -> list[tuple[int, int]]:
    """(index, weight in thousandths) of every acceptable offer, best first.

    The highest weight, then its own entry over ``*`` over the implicit weight
    of identity, then server order; a weight of 0 is left out. ``None``
    (header absent): every offer at 1, ``identity`` first.
    """
    if items is None:
        scores = [(1000, int(name == IDENTITY)) for name in offers.names]
    else:
        scores = coding_scores(items, offers)
    ordered = sorted(
        (-weight, -source, index)
        for index, (weight, source) in enumerate(scores)
        if weight
    )
    return [(index, -weight) for weight, _, index in ordered]


def best_coding(items: Sequence[Item] | None, offers: CodingSet) -> int:
    """Index of the best acceptable offer, -1 if none (RFC 9110 §12.5.3).

    The order of ``rank_codings``. ``None`` (header absent): ``identity`` if
    offered, else the first offer. A present value with no valid member
    accepts ``identity`` only.
    """
    if items is None:
        return offers.absent_best
    best, best_score = -1, (0, OWN + 1)  # below any weight above 0
    for index, score in enumerate(coding_scores(items, offers)):
        if score > best_score:  # on a tie the earlier offer stays
            best, best_score = index, score
    return best
