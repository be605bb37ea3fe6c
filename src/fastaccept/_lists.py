"""A list header, described once: what each engine and the parsed values read.

Accept-Encoding and Accept-Language (RFC 9110 §12.5.3-4) are both lists of
``name [ weight ]`` members. Each is one ``ListHeader``: its grammar (a
module such as ``_coding``), its offer set, its scorer and its member type.
One parse, one negotiator and one one-call function per engine serve every
description; docs/development.md ("One place per rule") lists what a third
such header takes besides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ._member import Item, ItemResult, offers_tuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ListHeader:
    """One list header's rules.

    ``field`` names the header in errors; ``noun`` the offers in errors
    (``codings``). ``grammar`` numbers the member grammar for the Cython
    engine's scanner; for the pure engine, ``fast`` is a pattern source
    (``_grammar``) that validates a whole value of common members (name,
    then weight) in one match, and ``scan_member`` reads any member exactly.
    ``offer_set`` validates the offers once (``offers``); ``best``, ``rank``
    and ``weights`` (each offer's) score members against them (weights in
    thousandths);
    ``member`` is the named tuple a parsed member becomes.
    """

    __slots__ = (
        "best",
        "fast",
        "field",
        "grammar",
        "member",
        "noun",
        "offer_set",
        "rank",
        "scan_member",
        "weights",
    )

    def __init__(
        self,
        *,
        field: str,
        noun: str,
        grammar: int,
        fast: str,
        scan_member: Callable[[str, int, bool], ItemResult],
        offer_set: Callable[[tuple[str, ...]], Any],
        best: Callable[[Sequence[Item] | None, Any], int],
        rank: Callable[[Sequence[Item] | None, Any], list[tuple[int, int]]],
        weights: Callable[[Sequence[Item], Any], list[int]],
        member: type[Any],
    ) -> None:
        self.field = field
        self.noun = noun
        self.grammar = grammar
        self.fast = fast
        self.scan_member = scan_member
        self.offer_set = offer_set
        self.best = best
        self.rank = rank
        self.weights = weights
        self.member = member

    def offers(self, offers: Iterable[str]) -> Any:
        """``offers`` validated and parsed once by ``offer_set`` (its
        ``values``: the offers as given, in server order)."""
        return self.offer_set(offers_tuple(offers, self.noun))


#: The member grammars the Cython engine's scanner knows (``ListHeader.grammar``).
CODING_GRAMMAR = 0
LANGUAGE_GRAMMAR = 1
