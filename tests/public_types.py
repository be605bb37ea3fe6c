"""The public API's types as a user's type checker reads them.

Never run: mypy (which reads tests/) and pyright (``pyright``, as .ci/run's
lint runs it, configured in pyproject.toml) both check every ``assert_type``
below, so a type that one of them reads otherwise fails the lint. Each
line is a documented use.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Literal

import fastaccept
from fastaccept import (
    Decision,
    EncodingNegotiator,
    LanguageNegotiator,
    Negotiator,
    Offer,
    Produces,
)
from fastaccept.mcp import ReplyKind, select_get, select_post

if TYPE_CHECKING:
    from typing_extensions import assert_type


class Kind(str, enum.Enum):
    JSON = "application/json"
    HTML = "text/html"


class Mine(Negotiator):
    def own(self) -> str:
        return "mine"


class Coded(EncodingNegotiator):
    def own(self) -> str:
        return "coded"


class Spoken(LanguageNegotiator):
    def own(self) -> str:
        return "spoken"


class Regional(LanguageNegotiator):
    """docs/api.md: a subclass taking other arguments overrides ``__new__``
    too, passing the negotiator's on (each class's ``__new__`` reads as
    returning the class it is called for)."""

    def __new__(cls, tags: list[str], region: str) -> Regional:
        return super().__new__(cls, [f"{tag}-{region}" for tag in tags])

    def __init__(self, tags: list[str], region: str) -> None:
        self.region = region


def offers_and_negotiators(accept: str) -> None:
    """An ``Offer``'s attributes; a subclass's call is the subclass; the
    one-call forms give back the offers' own type."""
    offer = Offer("text/markdown", 0.5, explicit=True)
    assert_type(offer.media_type, str)
    assert_type(offer.qs, float)
    assert_type(offer.explicit, bool)
    assert_type(Mine(["text/html"]), Mine)
    assert_type(Coded(["gzip"]), Coded)
    assert_type(Spoken(["en"]), Spoken)
    assert_type(Regional(["en"], "GB"), Regional)
    assert_type(Negotiator.__new__(Mine, ["text/html"]), Mine)
    assert_type(EncodingNegotiator.__new__(Coded, ["gzip"]), Coded)
    assert_type(Negotiator(["text/html"]).choose(accept), "str | None")
    assert_type(fastaccept.negotiate(accept, ["text/html"]), "str | None")
    assert_type(fastaccept.negotiate(accept, ["text/html"], default="text/html"), str)
    assert_type(fastaccept.negotiate(accept, [Kind.JSON, Kind.HTML]), "Kind | None")
    assert_type(fastaccept.negotiate_encoding(accept, ["gzip"], default=0), "str | int")
    assert_type(fastaccept.quality(accept, "text/html"), float)


def web_answers(accept: str) -> None:
    """A ``Produces``' decision and a negotiated error."""
    decision = Produces(["application/json"]).select(accept)
    assert_type(decision, Decision)
    assert_type(decision.status, int)
    assert_type(decision.media_type, str)
    assert_type(fastaccept.problem(404, accept).body, bytes)


def mcp_checks(accept: str, json_only: bool) -> None:
    """A JSON-only server never streams."""
    assert_type(select_post(accept, json_only=True), Literal["json"] | Decision)
    assert_type(select_post(accept, json_only=json_only), ReplyKind | Decision)
    assert_type(select_get(accept), Literal["sse"] | Decision)
