"""A type-checked tour of the public API (``mypy --strict`` checks this file).

Every ``assert_type`` states the type a user's checker infers from the
package's annotations (the typed pure-Python engine); running the file checks
the values too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import fastaccept
from fastaccept import (
    Accept,
    AcceptError,
    CorsReport,
    MediaRange,
    Negotiator,
    SkippedMember,
)

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: object, _: object) -> object:
        return value


API = Negotiator(["application/json", "text/html"])


def respond(accept_header: str | bytes | None) -> tuple[int, str | None]:
    """A handler's negotiation: the media type to send, or 406."""
    chosen = API.choose(accept_header)
    assert_type(chosen, str | None)
    return (406, None) if chosen is None else (200, chosen)


def main() -> None:
    accept = fastaccept.parse("text/html;q=0.5, */*;q=0.1, junk here")
    assert_type(accept, Accept)
    first = accept[0]
    assert_type(first, MediaRange)
    assert_type(first.q, float)
    assert_type(first.params, tuple[tuple[str, str], ...])
    assert_type(accept.skipped, tuple[SkippedMember, ...])
    assert first.essence == "text/html" and accept.skipped[0].position == 32

    fallback = fastaccept.negotiate(b"image/*", ["application/json"], default="406")
    assert_type(fallback, str)
    assert fallback == "406"

    weight = fastaccept.quality("text/*;q=0.3", "text/css")
    assert_type(weight, float)

    report = fastaccept.cors_unsafe_bytes('a/b;p="x"')
    assert_type(report, CorsReport)
    assert not report.safelisted

    try:
        fastaccept.parse("a/b c", strict=True)
    except AcceptError as error:
        assert_type(error.position, int)
        assert error.position == 4

    assert respond("text/html") == (200, "text/html")
    assert respond(None) == (200, "application/json")
    assert respond("image/png") == (406, None)
    print("typed usage ok:", fastaccept.IMPLEMENTATION)


if __name__ == "__main__":
    main()
