"""Build the documentation site and check that every page reads at 1280 px.

    python tools/check_docs_width.py OUT [--width 1280] [--site DIR] [--no-screenshots]

Builds the site with warnings as errors (``sphinx-build -W``) into
``OUT/html`` (or checks an already built ``--site DIR``), loads every page in
headless Chromium with a viewport ``--width`` CSS pixels wide, and reports
every element that does not fit:

* the page itself, when it scrolls sideways (``scrollWidth > clientWidth``);
* each ``pre``, ``table`` and ``img``, and each element that scrolls sideways
  (a code block's or a table's scroll box), when its content is wider than
  its box or it sticks out of the viewport;
* prose (any other element of the article) that sticks out of the article's
  column.

It writes a full-page screenshot of each page to ``OUT/<page>.png`` (a page
over 4,000 px tall in slices, ``<page>-1.png``...; look at them: an overflow
is not the only way to be unreadable) and lists each image with the scale it
is shown at. Exit status 0 when nothing overflows, 1 when
something does, 2 when the site cannot be built or the browser not run.

Chromium is driven over its DevTools protocol on a pipe
(``--remote-debugging-pipe``), so only the standard library is needed:
``CHROMIUM`` names the browser (default: ``chromium``, then
``chromium-browser``, ``google-chrome`` on PATH).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: How long the browser may take over one answer (a page's load), in seconds.
TIMEOUT = 60.0
#: A page taller than this (CSS pixels) is captured in slices of this height.
SHOT_HEIGHT = 4000

#: Run in the page once it has loaded: what does not fit, and the images.
MEASURE = r"""
(() => {
  const root = document.documentElement;
  const found = [];
  const where = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    const classes = [...el.classList].slice(0, 2);
    if (classes.length) name += "." + classes.join(".");
    let section = el.closest("section[id]");
    const text = (el.innerText || el.alt || "").trim().replace(/\s+/g, " ");
    return {
      element: name,
      section: section ? section.id : "",
      text: text.slice(0, 70),
    };
  };
  const add = (what, el, wide, room) =>
    found.push({what, ...where(el), wide: Math.round(wide), room: Math.round(room)});
  if (root.scrollWidth > root.clientWidth) {
    add("the page scrolls sideways", root, root.scrollWidth, root.clientWidth);
  }
  const article = document.querySelector("article") || document.body;
  // The column: furo's .content, the article and its gutters (headings and
  // table boxes reach into the gutters by design).
  const column = (article.closest(".content") || article).getBoundingClientRect();
  const scrolls = (el) => {
    const x = getComputedStyle(el).overflowX;
    return x === "auto" || x === "scroll" || x === "hidden";
  };
  const boxes = new Set([...article.querySelectorAll("pre, table, img")]);
  for (const el of article.querySelectorAll("*")) {
    if (scrolls(el)) boxes.add(el);
  }
  for (const el of boxes) {
    if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== "IMG") {
      add("content wider than its box", el, el.scrollWidth, el.clientWidth);
    }
    const right = el.getBoundingClientRect().right;
    if (right > root.clientWidth + 1) {
      add("past the viewport's edge", el, right, root.clientWidth);
    }
  }
  // Prose: elements outside any scroll box that stick out of the column.
  for (const el of article.querySelectorAll("*")) {
    let up = el.parentElement, inside = false;
    while (up && up !== article) {
      if (scrolls(up)) { inside = true; break; }
      up = up.parentElement;
    }
    if (inside) continue;
    const right = el.getBoundingClientRect().right;
    const parentRight = el.parentElement.getBoundingClientRect().right;
    // Report the outermost one only: its parent fits.
    if (right > column.right + 1 && parentRight <= column.right + 1) {
      add("past the article's column", el, right - column.left, column.width);
    }
  }
  const images = [...article.querySelectorAll("img")].map((img) => ({
    src: img.getAttribute("src"),
    shown: Math.round(img.getBoundingClientRect().width),
    natural: img.naturalWidth,
  }));
  return {
    viewport: root.clientWidth,
    column: Math.round(column.width),
    height: Math.ceil(root.scrollHeight),
    found,
    images,
  };
})()
"""


class Browser:
    """Headless Chromium driven over ``--remote-debugging-pipe``: commands
    are JSON texts ended by a NUL byte, written to its fd 3 and read from its
    fd 4."""

    def __init__(self, executable: str, width: int) -> None:
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # The browser's ends, numbered 10 or more, so that moving them to 3
        # and 4 in the child clobbers neither.
        high = [
            fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w)
        ]
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)
        self.profile = tempfile.mkdtemp(prefix="check-docs-width-")
        self.log = Path(self.profile) / "stderr.txt"
        # Chromium refuses to run as root with its sandbox (as in a container).
        unsandboxed = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = [
            executable,
            "--headless",
            *unsandboxed,
            "--remote-debugging-pipe",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},900",
            "about:blank",
        ]
        # A Python trampoline moves them to 3 and 4 and becomes the browser
        # (no preexec_fn: safe in a process with threads).
        trampoline = (
            "import os, sys; r, w = map(int, sys.argv[1:3]); "
            "os.dup2(r, 3); os.dup2(w, 4); os.close(r); os.close(w); "
            "os.execv(sys.argv[3], sys.argv[3:])"
        )
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", trampoline, *map(str, high), *browser],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                pass_fds=high,
            )
        for fd in high:
            os.close(fd)
        self.send_fd, self.receive_fd = to_browser_w, from_browser_r
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        try:
            self._open_page(width)
        except RuntimeError:
            self.close()
            raise

    def _open_page(self, width: int) -> None:
        """A tab, ``width`` CSS pixels wide, whose page events are sent."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call(
            "Target.attachToTarget", targetId=target, flatten=True
        )["sessionId"]
        self.call("Page.enable", session=True)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )

    def _closed(self) -> str:
        """Why the browser is gone: the last lines it wrote to stderr."""
        said = self.log.read_text(errors="replace").strip().splitlines()
        return "the browser closed its DevTools pipe: " + " / ".join(said[-3:])

    def _message(self) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.receive_fd], [], [], left)[0]:
                raise RuntimeError(f"the browser did not answer in {TIMEOUT:g} s")
            chunk = os.read(self.receive_fd, 1 << 16)
            if not chunk:
                raise RuntimeError(self._closed())
            self.buffer += chunk
        text, _, self.buffer = self.buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(text)
        return message

    def call(self, method: str, *, session: bool = False, **params: Any) -> Any:
        """Send one command and wait for its answer (events are kept)."""
        self.next_id += 1
        command: dict[str, Any] = {"id": self.next_id, "method": method}
        command["params"] = params
        if session:
            command["sessionId"] = self.session
        data = json.dumps(command).encode() + b"\0"
        while data:
            try:
                data = data[os.write(self.send_fd, data) :]
            except BrokenPipeError:
                raise RuntimeError(self._closed()) from None
        while True:
            message = self._message()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def load(self, url: str) -> None:
        """Navigate and wait for the load event."""
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._message())

    def evaluate(self, expression: str) -> Any:
        answer = self.call(
            "Runtime.evaluate",
            session=True,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(
                f"the check's script failed: {answer['exceptionDetails']}"
            )
        return answer["result"]["value"]

    def screenshots(self, stem: Path, width: int, height: int) -> list[Path]:
        """The page from top to bottom: ``stem.png``, or for a page taller
        than ``SHOT_HEIGHT`` one file per slice, ``stem-1.png``..."""
        count = -(-height // SHOT_HEIGHT)
        paths = []
        for i in range(count):
            top = i * SHOT_HEIGHT
            clip = {"x": 0, "y": top, "width": width, "scale": 1}
            clip["height"] = min(SHOT_HEIGHT, height - top)
            shot = self.call(
                "Page.captureScreenshot",
                session=True,
                format="png",
                captureBeyondViewport=True,
                clip=clip,
            )
            name = f"{stem.name}-{i + 1}" if count > 1 else stem.name
            path = stem.with_name(name + ".png")
            path.write_bytes(base64.b64decode(shot["data"]))
            paths.append(path)
        return paths

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.send_fd)
        os.close(self.receive_fd)
        shutil.rmtree(self.profile, ignore_errors=True)


def chromium() -> str | None:
    """The browser to run: ``$CHROMIUM``, or the first one found on PATH."""
    named = os.environ.get("CHROMIUM")
    if named:
        return shutil.which(named)
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def build(site: Path) -> bool:
    """Build the site with warnings as errors; whether it built."""
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "docs", str(site)],
        cwd=ROOT,
        check=False,
    )
    return done.returncode == 0


def check(site: Path, out: Path | None, width: int, browser: Browser) -> int:
    """Check every page of ``site`` (screenshots into ``out`` unless None);
    print what does not fit; the count."""
    overflows = 0
    pages = sorted(site.glob("*.html"))
    for page in pages:
        browser.load(page.resolve().as_uri())
        measured = browser.evaluate(MEASURE)
        if measured["viewport"] > width:
            raise RuntimeError(f"viewport {measured['viewport']} px, not {width}")
        shots = (
            []
            if out is None
            else browser.screenshots(out / page.stem, width, measured["height"])
        )
        found = measured["found"]
        overflows += len(found)
        print(
            f"{page.name}: {len(found) or 'no'} overflow{'s' * (len(found) != 1)}"
            f" (column {measured['column']} px, page {measured['height']} px tall"
            + "".join(f"; {shot}" for shot in shots)
            + ")"
        )
        for item in found:
            where = f" in #{item['section']}" if item["section"] else ""
            print(
                f"  {item['what']}: {item['element']}{where}:"
                f" {item['wide']} px in {item['room']} px: {item['text']!r}"
            )
        for image in measured["images"]:
            scale = image["shown"] / image["natural"] if image["natural"] else 0
            print(
                f"  image {image['src']}: {image['shown']} px wide,"
                f" {scale:.0%} of its own {image['natural']} px"
            )
    total = overflows or "none"
    print(f"{len(pages)} pages checked at {width} px; overflows found: {total}")
    return overflows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the site and screenshots")
    parser.add_argument("--width", type=int, default=1280, help="viewport, CSS px")
    parser.add_argument("--site", type=Path, help="check this built site, no build")
    parser.add_argument(
        "--no-screenshots", action="store_true", help="measure only (faster)"
    )
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    site: Path = args.site or out / "html"
    if args.site is None and not build(site):
        print("error: the site does not build with -W", file=sys.stderr)
        return 2
    executable = chromium()
    if executable is None:
        print("error: no Chromium found: set CHROMIUM", file=sys.stderr)
        return 2
    try:
        browser = Browser(executable, args.width)
    except RuntimeError as error:
        print(f"error: {executable}: {error}", file=sys.stderr)
        return 2
    try:
        shots = None if args.no_screenshots else out
        overflows = check(site, shots, args.width, browser)
    finally:
        browser.close()
    return 1 if overflows else 0


if __name__ == "__main__":
    sys.exit(main())
