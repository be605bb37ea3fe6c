"""``fastaccept.problem``: an error for any status, as problem+json (RFC 9457)
or plain text as Accept prefers (docs/rules.md rule 16), ``Vary: Accept``;
a bad argument refused with a clear error, nothing in Accept a raise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastaccept import problem

PREFERS_PROBLEM = "application/problem+json, text/plain;q=0.5"


def test_problem_json_with_every_member() -> None:
    sent = problem(
        409,
        PREFERS_PROBLEM,
        title="Name taken",
        detail="a user named ann exists",
        type="https://example.org/problems/taken",
        extensions={"name": "ann", "instance": "/users/ann"},
    )
    assert (sent.status, sent.ok) == (409, False)
    assert sent.headers["Content-Type"] == "application/problem+json"
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    assert json.loads(sent.body) == {
        "type": "https://example.org/problems/taken",
        "title": "Name taken",
        "status": 409,
        "detail": "a user named ann exists",
        "name": "ann",
        "instance": "/users/ann",
    }


def test_defaults_follow_rfc_9457() -> None:
    # about:blank, and its title the status phrase (RFC 9457 §4.2.1).
    body = json.loads(problem(404, "application/json").body)
    assert body == {"type": "about:blank", "title": "Not Found", "status": 404}


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "404 Not Found: no user 7\n"),
        ("text/html", "404 Not Found: no user 7\n"),  # never a 406 for an error
        ("text/plain, application/problem+json;q=0.5", "404 Not Found: no user 7\n"),
        ("a/b, " * 5000, "404 Not Found: no user 7\n"),  # over the limit: not read
    ],
)
def test_plain_text_where_accept_does_not_prefer_problem_json(
    accept: str | None, expected: str
) -> None:
    sent = problem(404, accept, detail="no user 7")
    assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert sent.body.decode() == expected
    assert sent.headers["Vary"] == "Accept"


def test_a_status_without_a_phrase_takes_its_class() -> None:
    assert problem(499, None).body == b"499 Client Error\n"


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"status": "404"}, TypeError, "status must be an int, not str"),
        ({"status": True}, TypeError, "status must be an int, not bool"),
        ({"status": 200}, ValueError, "an error's, 400 to 599, not 200"),
        ({"status": 600}, ValueError, "400 to 599"),
        ({"title": 3}, TypeError, "title must be a str or None, not int"),
        ({"detail": b"x"}, TypeError, "detail must be a str or None, not bytes"),
        ({"type": ["x"]}, TypeError, "type must be a str or None, not list"),
        ({"extensions": [("a", 1)]}, TypeError, "extensions must be a mapping"),
        ({"extensions": {1: "a"}}, TypeError, "a member name must be a str"),
        ({"extensions": {"status": 500}}, ValueError, "pass it as status="),
        ({"extensions": {"at": object()}}, ValueError, "value of 'at' is not JSON"),
        ({"extensions": {"x": float("nan")}}, ValueError, "value of 'x' is not JSON"),
    ],
)
def test_bad_arguments_are_named(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    given_arguments = {"status": 404, **arguments}
    status = given_arguments.pop("status")
    with pytest.raises(error, match=message):
        problem(status, None, **given_arguments)


def test_accept_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        problem(404, 3)  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    status=st.integers(-10, 1000) | st.sampled_from([True, "404", None]),
    accept=st.none() | st.text(max_size=60) | st.binary(max_size=60),
    title=st.none() | st.text() | st.integers(),
    detail=st.none() | st.text(),
    type_=st.none() | st.text(),
    extensions=st.none()
    | st.dictionaries(st.text(max_size=8), JSON_VALUES | st.just(float("inf"))),
)
def test_any_arguments_give_a_clear_error_or_a_well_formed_answer(
    status: Any, accept: Any, title: Any, detail: Any, type_: Any, extensions: Any
) -> None:
    try:
        sent = problem(
            status,
            accept,
            title=title,
            detail=detail,
            type=type_,
            extensions=extensions,
        )
    except (TypeError, ValueError) as error:
        assert str(error)  # says what is wrong
        return
    assert sent.status == status and 400 <= status <= 599
    assert sent.headers["Vary"] == "Accept"
    assert sent.headers["Content-Length"] == str(len(sent.body))
    if sent.headers["Content-Type"] == "application/problem+json":
        body = json.loads(sent.body)
        assert body["status"] == status
        assert body.get("detail") == detail
        assert body["type"] == ("about:blank" if type_ is None else type_)
        assert {
            k: v
            for k, v in body.items()
            if k not in ("type", "title", "status", "detail")
        } == (extensions or {})
    else:
        assert sent.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert sent.body.decode().startswith(f"{status} ")
