"""Step-through replays: one self-contained HTML page of SVG frames.

:func:`page` takes the pictures of the positions along a line (the start,
then one after each move) and the moves' labels, and returns one HTML file
with no network access and no external script: the frames, a slider,
previous/next buttons (and the arrow keys), and the move list beside the
board, the current move highlighted.  Frame ``i`` is the position after
``i`` moves, so a line of ``n`` moves has ``n + 1`` frames.

Each frame is a ``<template class="frame">`` holding its SVG; the script
shows one at a time.  The page opens on the frame named by its address's
``#N`` fragment, else the first.

>>> html = page("demo", ["<svg xmlns='http://www.w3.org/2000/svg'/>"] * 3, ["a", "b"])
>>> html.count('<template class="frame"'), html.count('<li class="move"')
(3, 2)
>>> page("bad", ["<svg/>"], ["a"])
Traceback (most recent call last):
...
ValueError: 2 frames expected (moves + 1), got 1
"""
from __future__ import annotations

from typing import Optional, Sequence

STYLE = """
body { font-family: sans-serif; margin: 16px; color: #222; background: #fff; }
h1 { font-size: 18px; margin: 0 0 8px 0; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
#side { min-width: 200px; max-height: 80vh; overflow-y: auto; border: 1px solid #ddd; padding: 4px 8px; }
#moves { margin: 0; padding-left: 2.5em; font-family: monospace; font-size: 13px; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.current { background: #ffe082; font-weight: bold; }
#moves li.start { list-style: none; margin-left: -2em; color: #666; }
#controls { margin: 8px 0; display: flex; gap: 8px; align-items: center; }
#slider { flex: 1; max-width: 480px; }
#status { font-family: monospace; }
"""

SCRIPT = """
(function () {
  var frames = document.querySelectorAll('template.frame');
  var items = document.querySelectorAll('#moves li');
  var board = document.getElementById('board');
  var slider = document.getElementById('slider');
  var status = document.getElementById('status');
  var current = -1;
  function show(i) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    board.innerHTML = '';
    board.appendChild(document.importNode(frames[i].content, true));
    for (var k = 0; k < items.length; k++) {
      items[k].classList.toggle('current', k === i);
    }
    if (items[i] && items[i].scrollIntoView) { items[i].scrollIntoView({block: 'nearest'}); }
    slider.value = i;
    current = i;
    document.body.setAttribute('data-frame', String(i));
    status.textContent = 'move ' + i + ' of ' + (frames.length - 1) +
      (i > 0 ? ': ' + items[i].getAttribute('data-move') : ' (start)');
  }
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('last').addEventListener('click', function () { show(frames.length - 1); });
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  for (var k = 0; k < items.length; k++) {
    (function (k) { items[k].addEventListener('click', function () { show(k); }); })(k);
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); }
    if (e.key === 'ArrowRight') { show(current + 1); }
  });
  var wanted = parseInt((location.hash || '#0').slice(1), 10);
  show(isNaN(wanted) ? 0 : wanted);
  window.replay = {show: show, count: frames.length, current: function () { return current; }};
})();
"""


def page(title: str, frames: Sequence[str], moves: Sequence[str], *, subtitle: Optional[str] = None) -> str:
    """The replay page: ``frames[i]`` (SVG markup) after ``i`` of ``moves``."""
    from xml.sax.saxutils import escape   # here, not at import: urllib with it is 80 ms of every start-up
    if len(frames) != len(moves) + 1:
        raise ValueError(f"{len(moves) + 1} frames expected (moves + 1), got {len(frames)}")
    items = ['<li class="start" value="0" data-move="start">start</li>']
    items += [f'<li class="move" value="{i}" data-move="{escape(m, {chr(34): "&quot;"})}">{escape(m)}</li>'
              for i, m in enumerate(moves, start=1)]
    templates = [f'<template class="frame" data-index="{i}">{svg}</template>' for i, svg in enumerate(frames)]
    last = len(frames) - 1
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(subtitle)}</p>" if subtitle else "",
        '<div id="controls">',
        '<button id="first" title="first position">first</button>',
        '<button id="prev" title="previous move (left arrow)">&#x25C0; prev</button>',
        f'<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="move">',
        '<button id="next" title="next move (right arrow)">next &#x25B6;</button>',
        '<button id="last" title="last position">last</button>',
        '<span id="status"></span>',
        "</div>",
        '<div id="main"><div id="board"></div>',
        f'<div id="side"><ol id="moves" start="0">{"".join(items)}</ol></div></div>',
        *templates,
        f"<script>{SCRIPT}</script>",
        "</body></html>",
        "",
    ])


def frame_count(html: str) -> int:
    """How many frames a replay page holds (for tests and checks)."""
    return html.count('<template class="frame"')
