"""The end-to-end benchmark (``python -m benchmarks --server``): the two
variants of each stack answer alike over a real socket, a server that cannot
start is an error that shows its output, and the quick run prints its table
(no timing is judged)."""

from __future__ import annotations

import re
import socket
import struct
import threading
import time

import pytest

from . import bench, bench_server
from .__main__ import main
from .bench_server import CHROME, DATA, Answer, ServerError, serving

#: A browser's navigation (HTML), a JSON client's, and an unacceptable value.
ACCEPTS = (CHROME, "application/json", "image/png")


def _need(stacks: list[str]) -> None:
    lacking = sorted({name for stack in stacks for name in bench_server.missing(stack)})
    if lacking:
        pytest.skip(f"not installed: {', '.join(lacking)} (pip install -e '.[test]')")


def _answers(stack: str, variant: str) -> list[Answer]:
    with serving(stack, variant) as server:
        return [server.ask(accept) for accept in ACCEPTS]


@pytest.mark.parametrize("stack", sorted(bench_server.STACKS))
def test_variants_answer_alike(stack: str) -> None:
    _need([stack])
    ours = _answers(stack, bench_server.FASTACCEPT)
    peers = _answers(stack, bench_server.PEER)
    html, json_, refused = ours
    assert html == Answer(
        200,
        "text/html; charset=utf-8",
        "Accept",
        bench_server.render_html(DATA).encode(),
    )
    assert json_ == Answer(
        200, "application/json", "Accept", bench_server.render_json(DATA).encode()
    )
    assert peers[:2] == [html, json_]
    # Each stack's own 406 page: only the status is the same.
    assert refused.status == peers[2].status == 406


def test_a_server_that_does_not_start_shows_its_output() -> None:
    with (
        pytest.raises(
            ServerError, match=r"(?s)exited \(2\).*invalid choice: 'nothing'"
        ),
        serving("flask", "nothing") as server,
    ):
        server.ask(CHROME)


def test_server_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    # Quick mode: the table's shape, not its figures (CI runs it so it cannot rot).
    stacks = sorted(bench_server.STACKS)
    _need(stacks)
    assert main(["--server", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "QUICK MODE" in out and "client (this process):" in out
    assert bench._measured_code() in out.splitlines()  # what it measured
    assert "| round 1 (req/s) | median (req/s) | fastaccept/peer |" in out
    table = [line for line in out.splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in table[2:]]
    assert [row[:2] for row in cells] == [
        [stack, variant] for stack in stacks for variant in bench_server.VARIANTS
    ]
    for row in cells:
        rate, median = (float(cell.replace(",", "")) for cell in row[2:4])
        assert rate > 0 and median == rate
    ratios = [row[4] for row in cells]
    assert all(re.fullmatch(r"\d+\.\d\dx", ratio) for ratio in ratios[::2])
    assert ratios[1::2] == [""] * len(stacks)


def test_server_without_any_stack_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing to time: exit 1 with what to install, not an empty report.
    monkeypatch.setattr(bench_server, "find_spec", lambda name: None)
    assert main(["--server", "--quick"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "error: no server stack is installed to run (fastapi: pip install "
        "fastapi uvicorn werkzeug; flask: pip install flask waitress)\n"
    )


def test_server_is_alone(capsys: pytest.CaptureFixture[str]) -> None:
    for other in (["--threads"], ["--plot", "charts"]):
        with pytest.raises(SystemExit) as exit_:
            main(["--server", *other])
        assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_load_waits_for_an_answer_when_the_window_closes_on_half_of_one() -> None:
    # A server that answers the first request at once, then stalls before
    # the next answer's head and again before its body: the window's end
    # passes while only a head has come. The rate is over the window that
    # closed with the second answer, not a division by no answers.
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(head + b"{}")
            conn.recv(1024)
            time.sleep(0.2)
            conn.sendall(head)
            time.sleep(0.2)
            conn.sendall(b"{}")
            conn.recv(1024)  # the third request, until the client closes

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        port = listener.getsockname()[1]
        measured = bench_server.load(port, b"GET / HTTP/1.1\r\n\r\n", 1, 0.0, 0.1)
    finally:
        server.join(10)
        listener.close()
    assert 0 < measured.rate <= 1 / 0.4  # one answer, in 0.4 s or more


def test_load_says_a_failed_connection_as_a_server_error() -> None:
    # A connection reset (or refused) while timing is the harness's one-line
    # error, not an OSError that its output handling would read as a failed
    # write to stdout ("cannot write").
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def reset() -> None:
        conn, _ = listener.accept()
        conn.recv(1024)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()  # linger 0: the client's next read is a reset

    server = threading.Thread(target=reset, daemon=True)
    server.start()
    try:
        with pytest.raises(ServerError, match="a connection to the server failed"):
            bench_server.load(port, b"GET / HTTP/1.1\r\n\r\n", 1, 0.0, 0.1)
    finally:
        server.join(10)
        listener.close()
