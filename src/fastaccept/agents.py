"""Markdown for agents: ``markdown_for_agents``, a page as Markdown to a
client that names ``text/markdown`` and as HTML to every other
(docs/agents.md, docs/rules.md rule 21).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ._member import Offer
from ._render import Rendered, Renderer, Renderers, checked_method
from ._responses import Produces
from ._text import HeaderValue

__all__ = ["markdown_for_agents"]

#: The offers, as sent in ``Content-Type``.
MARKDOWN = "text/markdown; charset=utf-8"
HTML = "text/html; charset=utf-8"
#: What an HTML answer carries: the Markdown of this same resource.
ALTERNATE = ("Link", '<>; rel="alternate"; type="text/markdown"')


class _AgentProduces(Produces):
    """The negotiation of ``markdown_for_agents``' offers: the HTML answer
    carries the ``Link`` to the Markdown."""

    __slots__ = ()
    _offer_headers: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {
        HTML: (ALTERNATE,)
    }


class _AgentRenderers(Renderers):
    """The ``Renderers`` that ``markdown_for_agents`` gives: equal, hashed,
    pickled and copied by its ``html`` and ``markdown`` renderers."""

    __slots__ = ()
    _negotiation = _AgentProduces

    def __init__(self, *, html: Renderer, markdown: Renderer) -> None:
        for name, render in (("html", html), ("markdown", markdown)):
            if not callable(render):
                raise TypeError(
                    f"{name} must be callable (data -> str or bytes), not "
                    f"{type(render).__name__}"
                )
        super().__init__(
            [(Offer(MARKDOWN, explicit=True), markdown), (HTML, html)], default=HTML
        )

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        (_, markdown), (_, html) = self._renderers
        return (), {"html": html, "markdown": markdown}

    def __repr__(self) -> str:
        """The call that makes an equal one, the public function's."""
        return "markdown_for_agents(" + super().__repr__().partition("(")[2]

    def respond(
        self, accept: HeaderValue, data: Any, *, method: str = "GET", **options: Any
    ) -> Rendered:
        """``Renderers.respond`` for GET and HEAD (``method`` compared
        case-sensitively, RFC 9110 §9.1); for any other method, the HTML."""
        if checked_method(method) not in {"GET", "HEAD"}:  # the page itself
            accept = None  # as if absent: the explicit Markdown is not chosen
        return super().respond(accept, data, method=method, **options)


def markdown_for_agents(*, html: Renderer, markdown: Renderer) -> Renderers:
    """The ``Renderers`` of a page: Markdown (``markdown(data)``) to a
    request whose Accept names ``text/markdown`` and weighs it no lower than
    HTML (a tie goes to the one its more specific range names, then to
    Markdown: docs/rules.md rule 11), HTML (``html(data)``) to every other,
    both in UTF-8 (docs/agents.md).

    The Markdown offer is explicit (docs/rules.md rule 21): ``*/*``,
    ``text/*`` and an absent Accept get HTML, and ``q`` counts; a request
    that accepts neither gets HTML too, never a 406. Both answers carry
    ``Vary: Accept``, an HTML one ``Link: <>; rel="alternate";
    type="text/markdown"`` (RFC 8288). ``respond`` negotiates GET and HEAD
    only. ``html`` and ``markdown`` turn the handler's data into str (or
    bytes); anything not callable is a ``TypeError`` naming the argument.
    """
    return _AgentRenderers(html=html, markdown=markdown)
