"""Run the Accept-Encoding / Accept-Language cases (issues 13, 21) through peers.

Prints two Markdown tables (one row per case, one column per library) of what
each library answers when actually run. A library that raises shows
``error: ...``; one that is not installed shows ``not installed``.

Peers: fastaccept, werkzeug, webob, Django, Starlette's GZipMiddleware (run as
ASGI middleware) and Node's ``negotiator`` (called through ``node`` when
installed under ``$NEGOTIATOR_DIR``, default ``/tmp/negot``).

    python tools/compare_peers_encoding_language.py
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import warnings
from collections.abc import Callable, Sequence
from typing import Any

# (label, header value or None for absent, offers)
Case = tuple[str, "str | None", list[str]]

GI = ["gzip", "identity"]
ENCODING_CASES: list[Case] = [
    ("`gzip;q=0`", "gzip;q=0", GI),
    ("`notgzip`", "notgzip", GI),
    ("`gzip;q=0, *`", "gzip;q=0, *", GI),
    ("`zstd;q=0.1, gzip` [zstd, gzip, identity]", "zstd;q=0.1, gzip",
     ["zstd", "gzip", "identity"]),
    ("`gzip, br` [br, gzip]", "gzip, br", ["br", "gzip"]),
    ("`identity;q=0`", "identity;q=0", GI),
    ("`x-gzip`", "x-gzip", GI),
    ("absent", None, GI),
]  # fmt: skip
LANGUAGE_CASES: list[Case] = [
    ("`fr-FR, en;q=0.3` [en, fr]", "fr-FR, en;q=0.3", ["en", "fr"]),
    ("`ca-ES, es;q=0.5` [es, ca]", "ca-ES, es;q=0.5", ["es", "ca"]),
    ("`sr-Latn-RS, sr;q=0.9` [sr-Cyrl, sr-Latn]", "sr-Latn-RS, sr;q=0.9",
     ["sr-Cyrl", "sr-Latn"]),
    ("`en-US, en;q=0.5, de;q=0.8` [en, de]", "en-US, en;q=0.5, de;q=0.8",
     ["en", "de"]),
    ("`de-CH` [de, en]", "de-CH", ["de", "en"]),
    ("`*;q=0.5, fr;q=0` [fr, en]", "*;q=0.5, fr;q=0", ["fr", "en"]),
    ("`EN-us` [en-US]", "EN-us", ["en-US"]),
    # rule 19 as revised (issue 21)
    ("`en-US` [en-GB, en]", "en-US", ["en-GB", "en"]),
    ("`en-US,en;q=0.9` [en-GB, en]", "en-US,en;q=0.9", ["en-GB", "en"]),
    ("`de-DE` [de-Deva, de]", "de-DE", ["de-Deva", "de"]),
    ("`en` [en-US, en]", "en", ["en-US", "en"]),
    ("`zh-Hans-CN, en` [en, zh-Hans]", "zh-Hans-CN, en", ["en", "zh-Hans"]),
    ("`es, de` [de, es]", "es, de", ["de", "es"]),
    ("`zh-Hant-TW` [zh, zh-Hant]", "zh-Hant-TW", ["zh", "zh-Hant"]),
    ("`en-US` [en-GB, fr]", "en-US", ["en-GB", "fr"]),
    ("`en-US, fr` [fr, en-GB]", "en-US, fr", ["fr", "en-GB"]),
    ("`x-klingon` [x-other]", "x-klingon", ["x-other"]),
    ("`en-US;q=0.1, *` [en, fr]", "en-US;q=0.1, *", ["en", "fr"]),
    # Safari's Chinese values (rule 19's same language)
    ("`zh-CN,zh-Hans;q=0.9` [zh-Hans, zh-Hant]", "zh-CN,zh-Hans;q=0.9",
     ["zh-Hans", "zh-Hant"]),
    ("`zh-Hant-TW,zh-Hant;q=0.9` [zh-Hans, zh-Hant]", "zh-Hant-TW,zh-Hant;q=0.9",
     ["zh-Hans", "zh-Hant"]),
]  # fmt: skip

NONE = "(none)"
Runner = Callable[["str | None", list[str]], str]


def show(answer: object) -> str:
    return NONE if answer is None else f"`{answer}`"


def guarded(runner: Runner, value: str | None, offers: list[str]) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return runner(value, offers)
    except Exception as exc:  # a peer raising is an answer too
        text = f"{type(exc).__name__}: {exc}".replace("|", "\\|").replace("\n", " ")
        return f"error: {text[:80]}"


# fastaccept ---------------------------------------------------------------


def fastaccept_encoding(value: str | None, offers: list[str]) -> str:
    import fastaccept

    return show(fastaccept.negotiate_encoding(value, offers))


def fastaccept_language(value: str | None, offers: list[str]) -> str:
    import fastaccept

    return show(fastaccept.negotiate_language(value, offers))


# werkzeug -----------------------------------------------------------------


def werkzeug_encoding(value: str | None, offers: list[str]) -> str:
    from werkzeug.http import parse_accept_header

    return show(parse_accept_header(value).best_match(offers))


def werkzeug_language(value: str | None, offers: list[str]) -> str:
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    return show(parse_accept_header(value, LanguageAccept).best_match(offers))


# webob --------------------------------------------------------------------


def webob_encoding_offers(value: str | None, offers: list[str]) -> str:
    from webob.acceptparse import create_accept_encoding_header

    ranked = create_accept_encoding_header(value).acceptable_offers(offers)
    return show(ranked[0][0] if ranked else None)


def webob_encoding_best(value: str | None, offers: list[str]) -> str:
    from webob.acceptparse import create_accept_encoding_header

    return show(create_accept_encoding_header(value).best_match(offers))


def webob_language_best(value: str | None, offers: list[str]) -> str:
    from webob.acceptparse import create_accept_language_header

    return show(create_accept_language_header(value).best_match(offers))


def webob_language_lookup(value: str | None, offers: list[str]) -> str:
    from webob.acceptparse import create_accept_language_header

    sentinel = object()
    answer = create_accept_language_header(value).lookup(offers, default=sentinel)
    return show(None if answer is sentinel else answer)


# Django -------------------------------------------------------------------

_django_ready = False


def django_language(value: str | None, offers: list[str]) -> str:
    """``get_language_from_request`` with LANGUAGES = the offers.

    Django's convention is lower-case codes in LANGUAGES (it compares the
    lower-cased header against them as given), so the offers are lowered there
    and the answer mapped back to the offer. LANGUAGE_CODE is a code no offer
    matches, so Django's fallback shows as "(none)".
    """
    global _django_ready
    import django
    from django.conf import settings

    if not _django_ready:
        settings.configure(
            USE_I18N=True,
            LANGUAGE_CODE="xx",
            LANGUAGES=[],
            ALLOWED_HOSTS=["*"],
            INSTALLED_APPS=[],
        )
        django.setup()
        _django_ready = True

    from django.test import RequestFactory
    from django.test.utils import override_settings
    from django.utils import translation

    by_code = {offer.lower(): offer for offer in offers}
    headers = {} if value is None else {"HTTP_ACCEPT_LANGUAGE": value}
    # override_settings sends setting_changed, which clears Django's
    # translation caches (get_languages, get_supported_language_variant, ...).
    with override_settings(LANGUAGES=[(code, code) for code in by_code]):
        request = RequestFactory().get("/", **headers)
        answer = translation.get_language_from_request(request)
    return show(by_code.get(answer))


# Starlette ----------------------------------------------------------------


def starlette_encoding(value: str | None, offers: list[str]) -> str:
    """Run a 1 KiB text/plain response through ``GZipMiddleware``.

    Starlette does not take offers: it only ever sends gzip or identity.
    """
    from starlette.middleware.gzip import GZipMiddleware

    async def app(scope: Any, receive: Any, send: Any) -> None:
        body = b"x" * 1024
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/plain")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    raw = [] if value is None else [(b"accept-encoding", value.encode("latin-1"))]
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": raw,
        "query_string": b"",
    }
    asyncio.run(GZipMiddleware(app)(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    coding = dict(start["headers"]).get(b"content-encoding", b"identity")
    return show(coding.decode("latin-1"))


# negotiator (Node) --------------------------------------------------------

NEGOTIATOR_DIR = os.environ.get("NEGOTIATOR_DIR", "/tmp/negot")
_NODE_SCRIPT = """
const path = require('path');
const dir = process.argv[1];
const N = require(path.join(dir, 'node_modules', 'negotiator'));
const cases = JSON.parse(process.argv[2]);
const out = cases.map(([kind, value, offers]) => {
  try {
    const headers = value === null ? {} : {[kind]: value};
    const n = new N({headers});
    const r = kind === 'accept-encoding' ? n.encodings(offers) : n.languages(offers);
    return r.length ? {ok: r[0]} : {ok: null};
  } catch (e) {
    return {error: String(e && e.message || e)};
  }
});
process.stdout.write(JSON.stringify(out));
"""


def negotiator_version() -> str | None:
    package = os.path.join(NEGOTIATOR_DIR, "node_modules", "negotiator")
    if shutil.which("node") is None or not os.path.isdir(package):
        return None
    with open(os.path.join(package, "package.json"), encoding="utf-8") as f:
        version = json.load(f).get("version")
    return str(version)


def negotiator_batch(kind: str, cases: Sequence[Case]) -> list[str]:
    if negotiator_version() is None:
        return ["not installed"] * len(cases)
    payload = json.dumps([[kind, value, offers] for _, value, offers in cases])
    try:
        done = subprocess.run(
            ["node", "-e", _NODE_SCRIPT, NEGOTIATOR_DIR, payload],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return [f"error: {type(exc).__name__}"] * len(cases)
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return [
        show(r["ok"]) if "error" not in r else f"error: {r['error'][:80]}"
        for r in results
    ]


# tables -------------------------------------------------------------------


def installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def table(
    cases: Sequence[Case],
    columns: Sequence[tuple[str, str, Runner]],
    node_kind: str,
) -> list[str]:
    heads = ["case", *(name for name, _, _ in columns), "negotiator"]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    node = negotiator_batch(node_kind, cases)
    for (label, value, offers), from_node in zip(cases, node, strict=True):
        cells = [
            guarded(run, value, offers) if installed(module) else "not installed"
            for _, module, run in columns
        ]
        lines.append("| " + " | ".join([label, *cells, from_node]) + " |")
    return lines


def versions() -> str:
    """The versions run: fastaccept's of the code imported (an editable
    install's metadata keeps the version it was installed at), the peers'
    of their installed distributions."""
    from importlib.metadata import PackageNotFoundError, version

    import fastaccept

    parts = [f"fastaccept {fastaccept.__version__} ({fastaccept.IMPLEMENTATION})"]
    for dist in ("werkzeug", "webob", "django", "starlette"):
        try:
            parts.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            parts.append(f"{dist} not installed")
    node = negotiator_version()
    parts.append(f"negotiator {node}" if node else "negotiator not installed")
    return ", ".join(parts)


def main() -> None:
    print(f"Versions: {versions()}.\n")
    print(
        "Accept-Encoding (offers `[gzip, identity]` unless stated; absent = no "
        "header). webob: `acceptable_offers(offers)[0]` and the deprecated "
        "`best_match`; Starlette: `GZipMiddleware` run on a 1 KiB text/plain "
        "body (`Content-Encoding` sent); negotiator: `encodings(offers)[0]`.\n"
    )
    encoding_columns: list[tuple[str, str, Runner]] = [
        ("fastaccept", "fastaccept", fastaccept_encoding),
        ("werkzeug", "werkzeug", werkzeug_encoding),
        ("webob acceptable_offers", "webob", webob_encoding_offers),
        ("webob best_match", "webob", webob_encoding_best),
        ("Starlette GZip", "starlette", starlette_encoding),
    ]
    print("\n".join(table(ENCODING_CASES, encoding_columns, "accept-encoding")))
    print(
        "\nAccept-Language. werkzeug: `LanguageAccept.best_match`; webob: the "
        "deprecated `best_match` and RFC 4647 `lookup(offers, default=...)`; "
        "Django: `get_language_from_request` with LANGUAGES = the offers "
        "(lower-cased, as Django expects) and a LANGUAGE_CODE matching none; "
        "negotiator: `languages(offers)[0]`.\n"
    )
    language_columns: list[tuple[str, str, Runner]] = [
        ("fastaccept", "fastaccept", fastaccept_language),
        ("werkzeug", "werkzeug", werkzeug_language),
        ("webob best_match", "webob", webob_language_best),
        ("webob lookup", "webob", webob_language_lookup),
        ("Django", "django", django_language),
    ]
    print("\n".join(table(LANGUAGE_CASES, language_columns, "accept-language")))


if __name__ == "__main__":
    main()
