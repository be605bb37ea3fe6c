"""The decisions an integration takes before its handler runs, in one place.

Every integration (``fastaccept.asgi``, ``fastaccept.wsgi``) first checks the
request's ``Content-Type`` (when it consumes a body) and then its ``Accept``;
a refusal is answered at once, in the format the Accept value prefers
(README rule 16), with ``Vary`` merged (rule 17). Only then does the handler
run, and its data is rendered in the negotiated type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._render import Rendered, Renderers
from ._responses import Consumes, Decision
from ._text import HeaderValue

#: The key under which a handler finds the ``Consumes`` decision, in the ASGI
#: scope or the WSGI environ.
CONSUMED = "fastaccept.consumed"


@dataclass(frozen=True, slots=True)
class Proceed:
    """Run the handler: the representation ``decision`` chose, and the
    ``Consumes`` decision on the request's body type (None: not checked)."""

    decision: Decision
    consumed: Decision | None


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What a negotiated endpoint is built from (``asgi``/``wsgi.negotiated``)."""

    renderers: Renderers
    consumes: Consumes | None
    status: int
    vary: str | None

    def before(
        self, accept: HeaderValue, content_type: HeaderValue, method: str
    ) -> Rendered | Proceed:
        """Check ``content_type`` (with ``consumes``), then negotiate ``accept``:
        a refusal, answered without the handler, or what the handler needs."""
        consumed = None
        if self.consumes is not None:
            consumed = self.consumes.check(content_type, accept, method=method)
            if not consumed.ok:
                return self._render(consumed, None, method)
        decision = self.renderers.produces.select(accept)
        if not decision.ok:
            return self._render(decision, None, method)
        return Proceed(decision, consumed)

    def after(self, step: Proceed, data: Any, method: str) -> Rendered:
        """The handler's ``data`` in the representation ``step`` chose."""
        return self._render(step.decision, data, method)

    def _render(self, decision: Decision, data: Any, method: str) -> Rendered:
        return self.renderers.render(
            decision, data, method=method, vary=self.vary, status=self.status
        )
