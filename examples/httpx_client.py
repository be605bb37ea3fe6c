"""The client side: choose what to send from a server's ``Accept`` response header.

A server that refuses a request's content answers 415 and may list what it
takes in an ``Accept`` response header (RFC 9110 §15.5.16). That header has
the grammar and the rules of the request header, so the client negotiates
with it: its encodings are the offers, in its own order of preference.

    USERS_API_TOKEN=s3cret python examples/httpx_client.py http://127.0.0.1:8000
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from collections.abc import Callable
from urllib.parse import urlencode

import httpx

from fastaccept import AcceptError, negotiate


def _csv(fields: dict[str, str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(fields.keys())
    writer.writerow(fields.values())
    return out.getvalue().encode()


#: What this client can send, best first.
ENCODERS: dict[str, Callable[[dict[str, str]], bytes]] = {
    "text/csv": _csv,
    "application/x-www-form-urlencoded": lambda fields: urlencode(fields).encode(),
    "application/json": lambda fields: json.dumps(fields).encode(),
}


def post(
    client: httpx.Client, url: str, fields: dict[str, str], media_type: str
) -> httpx.Response:
    content = ENCODERS[media_type](fields)
    return client.post(url, content=content, headers={"Content-Type": media_type})


def create(client: httpx.Client, url: str, fields: dict[str, str]) -> httpx.Response:
    """POST ``fields`` in the preferred encoding; after 415, in one the server takes."""
    first = next(iter(ENCODERS))
    response = post(client, url, fields, first)
    server_accepts = response.headers.get("accept")  # several lines come joined
    if response.status_code != 415 or server_accepts is None:
        return response
    try:
        chosen = negotiate(server_accepts, ENCODERS)
    except AcceptError:  # over max_length (docs/rules.md rule 8): not read
        return response
    if chosen is None or chosen == first:
        return response  # nothing in common: the 415 stands
    return post(client, url, fields, chosen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Create a user on users_api.py.")
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--name", default="Grace Hopper")
    parser.add_argument("--email", default="grace@example.org")
    args = parser.parse_args(argv)
    token = os.environ.get("USERS_API_TOKEN", "")
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    with httpx.Client(base_url=args.base_url, headers=headers) as client:
        response = create(client, "/users", {"name": args.name, "email": args.email})
    print(response.status_code, response.request.headers["content-type"])
    print(response.text)
    return 0 if response.status_code == 201 else 1


if __name__ == "__main__":
    sys.exit(main())
