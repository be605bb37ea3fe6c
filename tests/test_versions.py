"""Versions in the media type (docs/web.md, "Versions"): ``Produces.versioned``
and ``Renderers.versioned`` offer ``base;version=v`` for each version, the
default first, so that rules 9 and 11 alone give a request naming no version
the default and refuse one naming only versions not offered; ``Decision.params``
tells the handler the version, in every integration through ``PRODUCED``
(Litestar: ``produced(request)``).
"""

from __future__ import annotations

import asyncio
import enum
import json
import pickle
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import Consumes, Decision, Produces, Renderers
from fastaccept._text import ascii_lower

from .strategies import ANY_VALUE, TOKENS

BASE = "application/vnd.acme+json"
ACME = Produces.versioned(BASE, ["3", "2", "1"], default="1")


def version(decision: Decision, param: str = "version") -> str | None:
    """The version a decision chose, from its parameters."""
    return dict(decision.params).get(param)


def test_the_offers_put_the_default_first() -> None:
    assert ACME.media_types == (
        f"{BASE};version=1",
        f"{BASE};version=3",
        f"{BASE};version=2",
    )
    assert Produces(ACME.media_types) == ACME  # nothing but offers
    assert pickle.loads(pickle.dumps(ACME)) == ACME
    assert ACME.default is None  # no fallback: an unknown version is 406


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        (None, "1"),  # absent: every offer at q=1, the first (rule 12)
        ("*/*", "1"),
        (BASE, "1"),  # the bare type matches every version: the first
        (f"{BASE}; charset=utf-8", "1"),  # rule 20: no charset for JSON
        ("application/*", "1"),
        (f"{BASE};version=2", "2"),
        (f"{BASE};version=3", "3"),
        (f"{BASE};version=1", "1"),
        (f'{BASE};version="2"', "2"),  # a quoted value is the same (rule 3)
        (f"{BASE};VERSION=2", "2"),  # names ignore case (rule 2)
        (f"{BASE} ; version=2 ; q=0.5", "2"),
        # q between versions (rule 10, 11)
        (f"{BASE};version=1;q=0.5, {BASE};version=2", "2"),
        (f"{BASE};version=3;q=0.2, {BASE};version=2;q=0.3", "2"),
        (f"{BASE};version=2, {BASE};version=1;q=0.9", "2"),
        # equal q: server order, the default, then the order given
        (f"{BASE};version=2, {BASE};version=3", "3"),
        (f"{BASE};version=2, {BASE};version=1", "1"),
        # a named version beats the same q from a wildcard (rule 11)
        (f"{BASE};version=2, */*", "2"),
        (f"*/*;q=0.1, {BASE};version=3;q=0.1", "3"),
        # DRF#2868: a wildcard's parameters are compared too (rule 9)
        ("*/*;version=2", "2"),
        ("*/*; version=3", "3"),
        ("application/*;version=2", "2"),
        # an unknown version beside a wildcard: the client takes anything
        (f"{BASE};version=9, */*;q=0.1", "1"),
        (f"{BASE};version=2;q=0, {BASE}", "1"),  # q=0 refuses version 2 alone
        (f"{BASE};version=1;q=0, {BASE}", "3"),  # the default refused: the next
    ],
)
def test_the_version_chosen(accept: str | None, chosen: str) -> None:
    decision = ACME.select(accept)
    assert decision.ok, decision.body
    assert version(decision) == chosen
    assert decision.media_type == f"{BASE};version={chosen}"
    assert decision.headers == {
        "Content-Type": decision.media_type,
        "Vary": "Accept",
    }


@pytest.mark.parametrize(
    "accept",
    [
        f"{BASE};version=9",
        f"{BASE};version=9, {BASE};version=10",
        f"{BASE};version=V2",  # values are case-sensitive (rule 9)
        f"{BASE};version=2.0",
        f"{BASE};version=",  # malformed: skipped, nothing left
        f"{BASE};version=1;q=0",
        "*/*;version=4",
        "application/json",
        "text/html",
        "",
    ],
)
def test_no_version_offered_is_406_listing_the_offers(accept: str) -> None:
    refused = ACME.select(accept)
    assert (refused.status, refused.media_type, refused.params) == (406, "", ())
    assert refused.headers["Vary"] == "Accept"
    if refused.headers["Content-Type"] == "application/problem+json":  # rule 16
        assert json.loads(refused.body)["acceptable"] == list(ACME.media_types)
    else:
        listed = "Available:\n" + "".join(f"{t}\n" for t in ACME.media_types)
        assert refused.body.endswith(listed)


def test_another_parameter_name() -> None:
    dated = Produces.versioned(
        "application/vnd.github+json",
        ["2022-11-28", "2026-03-10"],
        default="2022-11-28",
        param="api-version",
    )
    chosen = dated.select("application/vnd.github+json; API-Version=2026-03-10")
    assert chosen.params == (("api-version", "2026-03-10"),)
    assert dated.select("application/vnd.github+json;version=2026-03-10").status == 406


class _Version(str, enum.Enum):  # not StrEnum: format() gives "_Version.V2"
    V1 = "1"
    V2 = "2"


class _Name(str, enum.Enum):
    BASE = BASE
    PARAM = "v"


def test_str_enum_arguments_are_written_as_their_text() -> None:
    # On Python 3.11+ a (str, Enum) member formats as its name: the offers
    # were "...;version=_Version.V2", and "version=2" got a 406.
    produces = Produces.versioned(_Name.BASE, list(_Version), default=_Version.V1)
    assert produces.media_types == (f"{BASE};version=1", f"{BASE};version=2")
    assert version(produces.select(f"{BASE};version=2")) == "2"
    named = Produces.versioned(BASE, ["1"], default="1", param=_Name.PARAM)
    assert named.media_types == (f"{BASE};v=1",)
    renderers = Renderers.versioned(BASE, [(_Version.V1, str)], default=_Version.V1)
    assert renderers.respond(None, "x").headers["Content-Type"] == f"{BASE};version=1"


def test_a_base_with_parameters_keeps_them() -> None:
    text = Produces.versioned(
        "text/vnd.acme; charset=UTF-8", ["b", "a"], default="a", param="v"
    )
    assert text.media_types == (
        "text/vnd.acme; charset=UTF-8;v=a",
        "text/vnd.acme; charset=UTF-8;v=b",
    )
    # names lower-case, a charset lower-case, values otherwise as given
    assert text.select("text/vnd.acme;v=b").params == (("charset", "utf-8"), ("v", "b"))


def test_params_on_every_produces_decision() -> None:
    produces = Produces(
        ["text/html; Charset=UTF-8; level=1", "application/json", 'a/b;p="x y"'],
        formats=True,
        max_length=64,
    )
    html = produces.select("text/html")
    assert html.params == (("charset", "utf-8"), ("level", "1"))
    assert produces.select("application/json").params == ()
    assert produces.select("a/b").params == (("p", "x y"),)  # unquoted
    assert produces.select(None, format="html").params == html.params
    for refused in (
        produces.select("image/png"),
        produces.select("a/b, " * 40),  # 431
        produces.select(None, format="pdf"),
    ):
        assert (refused.ok, refused.params) == (False, ())
    assert Consumes(["text/html"]).check("text/html;level=1").params == ()


def test_params_are_not_compared() -> None:
    """The media type holds them: a decision made by hand, without them,
    equals the one chosen (and hashes alike, as a refusal's key)."""
    chosen = ACME.select(f"{BASE};version=2")
    by_hand = Decision(200, chosen.media_type, chosen.header_items)
    assert by_hand.params == ()
    assert by_hand == chosen and hash(by_hand) == hash(chosen)
    assert pickle.loads(pickle.dumps(chosen)).params == (("version", "2"),)
    assert "params=(('version', '2'),)" in repr(chosen)


def test_formats_name_versions() -> None:
    named = Produces.versioned(
        BASE,
        ["2", "1"],
        default="1",
        formats={"v1": f"{BASE};version=1", "v2": f"{BASE};version=2"},
    )
    assert version(named.select(f"{BASE};version=1", format="V2")) == "2"
    assert named.select(None, format="v3").status == 406
    assert version(named.select(f"{BASE};version=2", format="")) == "2"
    # formats=True: json names the first +json offer, the default
    standard = Produces.versioned(BASE, ["2", "1"], default="1", formats=True)
    assert standard.formats == {"json": f"{BASE};version=1"}
    assert version(standard.select(f"{BASE};version=2", format="json")) == "1"


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ((b"a/b", ["1"], "1", "version"), TypeError, "base must be a str"),
        ((BASE, ["1"], 1, "version"), TypeError, "default must be a str, not int"),
        ((BASE, ["1"], None, "version"), TypeError, "default must be a str"),
        ((BASE, ["1"], "1", None), TypeError, "param must be a str"),
        ((BASE, "12", "1", "version"), TypeError, "versions must be an iterable"),
        ((BASE, [1, 2], "1", "version"), TypeError, "versions must be a str, not int"),
        (
            (BASE, 3, "1", "version"),
            TypeError,
            r"versions must be an iterable of str \(such as a list\), not int",
        ),
        ((BASE, {"1", "2"}, "1", "version"), TypeError, "not a set: versions are"),
        ((BASE, [], "1", "version"), ValueError, "at least one version"),
        ((BASE, ["1", "1"], "1", "version"), ValueError, "'1' is given twice"),
        # a charset ignores case (rule 9): one version, not a repeated offer
        (("text/x", ["a", "A"], "a", "charset"), ValueError, "'A' is given twice"),
        ((BASE, ["1", ""], "1", "version"), ValueError, "invalid version ''"),
        ((BASE, ["1 beta"], "1 beta", "version"), ValueError, "a token"),
        ((BASE, ['"1"'], '"1"', "version"), ValueError, "a token"),
        ((BASE, ["1", "2"], "3", "version"), ValueError, "not one of the versions"),
        ((BASE, ["1"], "1", ""), ValueError, "invalid param ''"),
        ((BASE, ["1"], "1", "q"), ValueError, "'q' is the weight"),
        ((BASE, ["1"], "1", "Q"), ValueError, "'q' is the weight"),
        ((BASE, ["1"], "1", "a b"), ValueError, "invalid param"),
        ((f"{BASE};Version=1", ["1"], "1", "version"), ValueError, "already"),
        (("application/*", ["1"], "1", "version"), ValueError, "base: invalid"),
        (("json", ["1"], "1", "version"), ValueError, "base: invalid"),
        ((f"{BASE};q=1", ["1"], "1", "version"), ValueError, "base: invalid"),
    ],
)
def test_bad_arguments_are_refused_when_made(
    arguments: tuple[Any, Any, Any, Any], error: type[Exception], message: str
) -> None:
    base, versions, default, param = arguments
    with pytest.raises(error, match=message):
        Produces.versioned(base, versions, default=default, param=param)
    if isinstance(versions, list):
        with pytest.raises(error, match=message):
            renderers = [(v, str) for v in versions]
            Renderers.versioned(base, renderers, default=default, param=param)


def test_a_charset_default_is_the_version_it_names_whatever_its_case() -> None:
    # rule 9: a charset compares ignoring case, so "UTF-8" names "utf-8".
    versions = ["utf-8", "latin1"]
    made = Produces.versioned("text/plain", versions, default="UTF-8", param="charset")
    assert made.media_types == ("text/plain;charset=utf-8", "text/plain;charset=latin1")
    renderers = Renderers.versioned(
        "text/plain", [(v, str) for v in versions], default="UTF-8", param="charset"
    )
    assert renderers.produces.media_types == made.media_types


def mostly(
    usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]
) -> st.SearchStrategy[Any]:
    """``usual`` four times in five, else ``other``: most arguments drawn are
    good, so that most objects are made and then answer requests."""
    return st.integers(0, 4).flatmap(lambda n: usual if n else other)


ARGUMENTS = st.one_of(st.text(max_size=8), TOKENS, st.integers(), st.none())
BASES = mostly(
    st.sampled_from([BASE, "text/plain;charset=utf-8", "a/b;version=1", "a/b"]),
    st.one_of(ARGUMENTS, st.just("a/*")),
)
VERSION_LISTS = mostly(
    st.lists(TOKENS, min_size=1, max_size=5, unique=True),
    st.one_of(
        st.lists(st.one_of(TOKENS, st.text(max_size=4), st.integers()), max_size=5),
        st.text(max_size=4),
    ),
)
PARAMS = mostly(
    st.sampled_from(["version", "V", "Api-Version", "charset"]),
    st.one_of(ARGUMENTS, st.just("q")),
)


@given(base=BASES, versions=VERSION_LISTS, param=PARAMS, data=st.data())
def test_any_arguments_are_refused_when_made_or_always_answer(
    base: Any, versions: Any, param: Any, data: st.DataObject
) -> None:
    """Made or refused at once, never later: every Accept value is then
    answered, a version offered or a 406 listing them."""
    listed = isinstance(versions, list) and versions
    default = data.draw(
        mostly(st.sampled_from(versions), ARGUMENTS) if listed else ARGUMENTS
    )
    try:
        produces = Produces.versioned(base, versions, default=default, param=param)
    except (TypeError, ValueError) as error:
        assert str(error)
        return
    # The default is one of the versions: a charset's case aside (its value
    # compares case-insensitively), and offered as that version is spelled.
    key = ascii_lower if ascii_lower(param) == "charset" else str
    first = next(v for v in versions if key(v) == key(default))
    ordered = [first, *(v for v in versions if v is not first)]
    offers = tuple(f"{base};{param}={v}" for v in ordered)
    assert produces.media_types == offers
    assert produces.select(base) is produces._chosen[0]  # the default
    for offer in offers:
        assert produces.select(offer).media_type == offer
    name = ascii_lower(param)
    for accept in data.draw(st.lists(ANY_VALUE | st.sampled_from(offers), max_size=4)):
        decision = produces.select(accept)
        if decision.ok:
            assert decision is produces._chosen[decision.index]
            chosen = ordered[decision.index]  # a charset is lower-case
            assert version(decision, name) in (chosen, ascii_lower(chosen))
        else:
            assert decision.status in (406, 431) and decision.params == ()


def _v1(user: tuple[str, str]) -> str:
    return json.dumps({"name": " ".join(user)})


def _v2(user: tuple[str, str]) -> str:
    return json.dumps({"given": user[0], "family": user[1]})


def test_renderers_render_each_version() -> None:
    users = Renderers.versioned(BASE, {"2": _v2, "1": _v1}, default="1")
    assert users.produces == Produces.versioned(BASE, ["2", "1"], default="1")
    ada = ("Ada", "Lovelace")
    assert users.respond(None, ada).body == b'{"name": "Ada Lovelace"}'
    v2 = users.respond(f"{BASE};version=2", ada)
    assert v2.body == b'{"given": "Ada", "family": "Lovelace"}'
    assert v2.headers["Content-Type"] == f"{BASE};version=2"
    refused = users.respond(f"{BASE};version=3", ada)
    assert (refused.status, refused.ok) == (406, False)
    # pairs too; the default first whatever the order given
    assert Renderers.versioned(BASE, [("1", _v1), ("2", _v2)], default="1") == users
    assert users == Renderers({f"{BASE};version=1": _v1, f"{BASE};version=2": _v2})


def _handler_data(decision: Decision) -> dict[str, str | None]:
    return {"version": version(decision)}


USERS = Renderers.versioned(BASE, dict.fromkeys(["2", "1"], json.dumps), default="1")


def test_a_wsgi_handler_learns_the_version() -> None:
    from fastaccept.wsgi import PRODUCED, negotiated, produced

    def handler(environ: dict[str, Any]) -> dict[str, str | None]:
        decision = produced(environ)  # typed
        assert decision is environ[PRODUCED], decision
        return _handler_data(decision)

    app = negotiated(USERS)(handler)

    def get(accept: str | None) -> tuple[str, dict[str, str], bytes]:
        environ = {"REQUEST_METHOD": "GET", "QUERY_STRING": ""}
        if accept is not None:
            environ["HTTP_ACCEPT"] = accept
        started: list[tuple[str, list[tuple[str, str]]]] = []
        body = b"".join(app(environ, lambda s, h: started.append((s, h))))  # type: ignore[arg-type]
        return started[0][0], dict(started[0][1]), body

    status, headers, body = get(f"{BASE};version=2")
    assert (status, json.loads(body)) == ("200 OK", {"version": "2"})
    assert headers["Content-Type"] == f"{BASE};version=2"
    assert json.loads(get(None)[2]) == {"version": "1"}
    assert json.loads(get(BASE)[2]) == {"version": "1"}
    status, headers, body = get(f"{BASE};version=7")
    assert status == "406 Not Acceptable"
    assert body.decode().endswith(f"{BASE};version=1\n{BASE};version=2\n")


def test_an_asgi_handler_learns_the_version() -> None:
    from fastaccept.asgi import PRODUCED, negotiated, produced

    # Typed as the ASGI spec has it, a dict (mypy reads this file).
    @negotiated(USERS)
    async def app(
        scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]]
    ) -> dict[str, str | None]:
        decision = produced(scope)  # typed
        assert decision is scope[PRODUCED], decision
        return _handler_data(decision)

    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    accept = b"*/*;version=2"
    scope = {"type": "http", "method": "GET", "headers": [(b"accept", accept)]}
    asyncio.run(app(scope, receive, send))
    start, body = sent
    assert start["status"] == 200
    assert dict(start["headers"])[b"content-type"] == f"{BASE};version=2".encode()
    assert json.loads(body["body"]) == {"version": "2"}


def test_a_litestar_handler_learns_the_version() -> None:
    pytest.importorskip("litestar")
    from litestar import Litestar, Request, get
    from litestar.testing import TestClient

    from fastaccept.litestar import NegotiationPlugin, negotiated, produced

    @get("/users", sync_to_thread=False)
    @negotiated(USERS)
    def users(request: Request[Any, Any, Any]) -> dict[str, str | None]:
        decision = produced(request)
        assert decision is not None
        return _handler_data(decision)

    with TestClient(Litestar([users], plugins=[NegotiationPlugin()])) as client:
        r = client.get("/users", headers={"Accept": f"{BASE};version=2"})
        assert (r.status_code, r.json()) == (200, {"version": "2"})
        assert r.headers["content-type"] == f"{BASE};version=2"
        assert client.get("/users").json() == {"version": "1"}
        assert (
            client.get("/users", headers={"Accept": f"{BASE};version=7"}).status_code
            == 406
        )


def test_an_aiohttp_handler_learns_the_version() -> None:
    pytest.importorskip("aiohttp")
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from fastaccept.aiohttp import PRODUCED, negotiated

    @negotiated(USERS)
    async def handler(request: web.Request) -> dict[str, str | None]:
        return _handler_data(request[PRODUCED])

    request = make_mocked_request("GET", "/", headers={"Accept": f"{BASE};version=2"})
    response = asyncio.run(handler(request))
    assert response.status == 200
    assert response.headers["Content-Type"] == f"{BASE};version=2"
    assert json.loads(response.body) == {"version": "2"}
