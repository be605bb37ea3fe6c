"""The Accept values real clients send, by context (Fetch, browsers, tools)."""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from types import MappingProxyType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NoReturn

_NAVIGATE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


class _BrowserDefaults(Mapping[str, str]):
    """The read-only mapping ``BROWSER_DEFAULTS``, pickled by its name and
    copied as itself (a ``MappingProxyType`` can be neither)."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, str]) -> None:
        if hasattr(self, "_values"):  # made once: the module's values stay
            raise AttributeError("BROWSER_DEFAULTS is read-only: it is not made again")
        self._values = MappingProxyType(values)

    def __getitem__(self, context: str) -> str:
        return self._values[context]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return repr(dict(self._values))

    # What a ``MappingProxyType`` has beside ``Mapping``'s (0.1.0's was one);
    # the other operand of ``|`` gets a copy, never the values themselves.
    def copy(self) -> dict[str, str]:
        """A ``dict`` of the contexts and their values, to change."""
        return self._values.copy()

    def __or__(self, other: Mapping[str, str]) -> dict[str, str]:
        return self._values.copy() | other  # type: ignore[operator,no-any-return]

    def __ror__(self, other: Mapping[str, str]) -> dict[str, str]:
        return other | self._values.copy()  # type: ignore[operator,no-any-return]

    def __ior__(self, other: object) -> NoReturn:
        raise TypeError("'|=' is not supported by BROWSER_DEFAULTS; use '|' instead")

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._values)

    # A copy's views: a view's ``mapping`` is a proxy of its dict, whose
    # ``|`` would hand that dict to the other operand.
    def keys(self) -> KeysView[str]:
        return self._values.copy().keys()

    def values(self) -> ValuesView[str]:
        return self._values.copy().values()

    def items(self) -> ItemsView[str, str]:
        return self._values.copy().items()

    def __reduce__(self) -> str:
        """The module attribute's name: pickle and copy give the object itself."""
        return "BROWSER_DEFAULTS"


#: Read-only: client context -> the Accept value it sends.
BROWSER_DEFAULTS: Final[Mapping[str, str]] = _BrowserDefaults(
    {
        # WHATWG Fetch, "fetch" step 12 (default Accept by request destination).
        # Chromium 156 and Firefox ESR 153 send "style", "script" and "fetch"
        # exactly as written here (tests/test_browsers.py checks it).
        "navigate": _NAVIGATE,
        "image": "image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5",
        "style": "text/css,*/*;q=0.1",
        "script": "*/*",
        "fetch": "*/*",
        "json": "application/json,*/*;q=0.5",
        # What current browsers send (documents and iframes: "-navigate"),
        # recorded by tests/test_browsers.py (RECORDED_FROM says from which).
        "chrome-navigate": (
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,"
            "image/avif,image/webp,image/apng,*/*;q=0.8,"
            "application/signed-exchange;v=b3;q=0.7"
        ),
        "chrome-image": (
            "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        ),
        "firefox-navigate": _NAVIGATE,
        "firefox-image": (
            "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        ),
        # Not recorded here: Safari does not run on this Linux test machine.
        "safari-navigate": _NAVIGATE,
        "safari-image": (
            "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,"
            "video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        ),
        # Command-line and API clients.
        "cli": "*/*",
        "curl": "*/*",
        "httpie": "application/json, */*;q=0.5",
        "python-requests": "*/*",
        "jdk-legacy": "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2",
    }
)
