"""The HTML replay in a real browser: headless Chromium steps to the last move.

The page is the one `solve GAME show --html` writes, with a few lines of test
script appended that press its buttons as a user would (``next`` past the end,
``prev``, ``next``) and record what the page then shows.  Chromium prints the
resulting DOM (``--dump-dom``) and takes a screenshot of the last frame,
whose pixels are checked: not blank, and the current move's highlight drawn.
The short Spectrum plan is stepped through with ``next`` and screenshot; the
145-frame Pyramid solution jumps with ``last`` and is checked in the DOM only
(about 30 ms a step in this browser: the whole walk would double the test's time).

Needs Debian's ``chromium`` (``apt-get install -y chromium``; `.ci/run`
installs it when it is missing); without a browser the tests are skipped
with that message.
"""
import html
import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import solve

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no headless browser: install Debian's chromium (apt-get install -y chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--hide-scrollbars", "--virtual-time-budget=10000"]

PRESS = """
<script>
window.addEventListener('load', function () {
  var seen = [];
  function record() {
    var current = document.querySelector('#moves li.current');
    var caption = document.querySelector('#board svg .caption');
    seen.push({frame: document.body.getAttribute('data-frame'),
               status: document.getElementById('status').textContent,
               move: current ? current.getAttribute('data-move') : null,
               caption: caption ? caption.textContent : null,
               svgs: document.querySelectorAll('#board svg').length,
               slider: document.getElementById('slider').value});
  }
  var next = document.getElementById('next'), prev = document.getElementById('prev');
  if (STEP_BY_STEP) {
    for (var i = 0; i < window.replay.count + 3; i++) { next.click(); }
  } else {
    document.getElementById('last').click();
  }
  record();
  prev.click(); record();
  next.click(); record();
  var out = document.createElement('pre');
  out.id = 'result';
  out.textContent = JSON.stringify({frames: window.replay.count, seen: seen});
  document.body.appendChild(out);
});
</script>
"""


def chromium(*args, cwd):
    profile = f"--user-data-dir={cwd / 'profile'}"      # a fresh, writable profile wherever HOME is
    return subprocess.run([BROWSER, *FLAGS, profile, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def replay_page(tmp_path, *args, step_by_step=True):
    html = tmp_path / "replay.html"
    res = CliRunner().invoke(solve, [*args, "--html", str(html)])
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    pressed = tmp_path / "pressed.html"
    script = PRESS.replace("STEP_BY_STEP", "true" if step_by_step else "false")
    pressed.write_text(page.replace("</body>", script + "</body>"), encoding="utf-8")
    return page, pressed


def png_pixels(path: Path):
    """(width, height, rows of RGB(A) bytes) of a PNG: the standard library's zlib and the five filters."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour_type = head[:4]
    assert depth == 8 and colour_type in (2, 6)
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


@pytest.mark.parametrize("args,last,screenshot", [
    (["spectrum", "show", "--seed", "10"], "exchange S:orange M:orange -> L:yellow", True),
    (["pyramid", "show", "--seed", "42"], None, False),
], ids=["spectrum", "pyramid"])
def test_browser_steps_to_the_last_move(tmp_path, args, last, screenshot):
    page, pressed = replay_page(tmp_path, *args, step_by_step=screenshot)
    moves = [html.unescape(m) for m in re.findall(r'<li class="move" value="\d+" data-move="([^"]*)"', page)]
    last = last or moves[-1]
    dom = chromium("--dump-dom", pressed.as_uri(), cwd=tmp_path)
    found = re.search(r'<pre id="result">(.*?)</pre>', dom.stdout, re.S)
    assert found, dom.stderr[-2000:]
    result = json.loads(html.unescape(found.group(1)))
    n = len(moves)
    assert result["frames"] == n + 1
    end, back, again = result["seen"]
    assert end["frame"] == str(n) and end["slider"] == str(n) and end["svgs"] == 1   # clamped at the end
    assert end["move"] == last and end["status"] == f"move {n} of {n}: {last}"
    assert back["frame"] == str(n - 1) and back["move"] == moves[-2]
    assert again == end
    if args[0] == "pyramid":
        assert end["caption"].startswith("Continuous Pyramid · deal 42 · move 144 of 144 · won")
    if not screenshot:
        return
    shot = tmp_path / "last.png"
    chromium(f"--screenshot={shot}", "--window-size=1100,700", pressed.as_uri(), cwd=tmp_path)
    width, height, bpp, rows = png_pixels(shot)
    assert (width, height) == (1100, 700)
    colours = {row[i:i + 3] for row in rows[::7] for i in range(0, len(row), bpp * 7)}
    assert len(colours) > 20                                   # a picture, not a blank page
    highlight = bytes((0xff, 0xe0, 0x82))                      # the current move's background
    assert any(highlight in {row[i:i + 3] for i in range(0, len(row), bpp)} for row in rows)
