"""SVG primitives every game's picture is drawn with (standard library only).

Each function returns one element as a string; :func:`document` wraps them
into a standalone picture.  Attribute names are written in Python style
(``font_size``) and come out in SVG style (``font-size``); a trailing
underscore is dropped (``class_``).  Text and attribute values are escaped,
so a picture always parses as XML.

>>> print(document(60, 20, [rect(0, 0, 60, 20, fill="#fff"), text(4, 14, "a<b", class_="caption")],
...                title="t"))
<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20" viewBox="0 0 60 20" font-family="sans-serif">
<title>t</title>
<rect x="0" y="0" width="60" height="20" fill="#fff"/>
<text x="4" y="14" class="caption">a&lt;b</text>
</svg>
<BLANKLINE>
"""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple


def escape(data: str) -> str:
    """``&``, ``<`` and ``>`` as entities (:func:`xml.sax.saxutils.escape`,
    imported when first drawn: it costs every ``solve`` process 80 ms of
    start-up, urllib.request with it, a batch draws nothing)."""
    from xml.sax.saxutils import escape as sax_escape
    return sax_escape(data)


def quoteattr(data: str) -> str:
    """An attribute value escaped and quoted (:func:`xml.sax.saxutils.quoteattr`)."""
    from xml.sax.saxutils import quoteattr as sax_quoteattr
    return sax_quoteattr(data)

FONT = "sans-serif"
INK = "#222"
MUTED = "#666"


def _num(v) -> str:
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))
    return str(v)


def attrs(**kw) -> str:
    """`` name="value"`` pairs; None values are left out."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f" {name}={quoteattr(_num(v))}")
    return "".join(out)


def element(tag: str, body: Optional[str] = None, **kw) -> str:
    """``<tag .../>`` or ``<tag ...>body</tag>`` (``body`` is markup, not escaped)."""
    head = f"<{tag}{attrs(**kw)}"
    return head + "/>" if body is None else f"{head}>{body}</{tag}>"


def rect(x, y, w, h, *, tip: Optional[str] = None, **kw) -> str:
    """A rectangle; ``tip`` becomes its ``<title>`` (a tooltip in a browser)."""
    return element("rect", _tip(tip), x=x, y=y, width=w, height=h, **kw)


def circle(cx, cy, r, *, tip: Optional[str] = None, **kw) -> str:
    return element("circle", _tip(tip), cx=cx, cy=cy, r=r, **kw)


def line(x1, y1, x2, y2, **kw) -> str:
    return element("line", x1=x1, y1=y1, x2=x2, y2=y2, **kw)


def polygon(points: Sequence[Tuple[float, float]], *, tip: Optional[str] = None, **kw) -> str:
    pts = " ".join(f"{_num(round(x, 1))},{_num(round(y, 1))}" for x, y in points)
    return element("polygon", _tip(tip), points=pts, **kw)


def path(d: str, **kw) -> str:
    return element("path", d=d, **kw)


def text(x, y, s: str, **kw) -> str:
    """A text element; ``s`` is escaped."""
    return element("text", escape(str(s)), x=x, y=y, **kw)


def group(children: Iterable[str], **kw) -> str:
    return element("g", "".join(children), **kw)


def _tip(tip: Optional[str]) -> Optional[str]:
    return None if tip is None else f"<title>{escape(tip)}</title>"


def arrow_marker(marker_id: str, colour: str) -> str:
    """A ``<defs>`` arrow head for lines drawn with ``marker_end="url(#id)"``."""
    head = path("M0,0 L10,5 L0,10 z", fill=colour)
    return element("defs", element("marker", head, id=marker_id, viewBox="0 0 10 10", refX=9, refY=5,
                                    markerWidth=6, markerHeight=6, orient="auto-start-reverse"))


def legend(x, y, items: Sequence[Tuple[str, str]], *, size: int = 12, gap: int = 16) -> List[str]:
    """Legend rows at (x, y) going down: ``(swatch markup at 0,0, label)``; the
    swatch is placed with a translate so callers draw it in a 12x12 box."""
    out = []
    for i, (swatch, label) in enumerate(items):
        yy = y + i * gap
        out.append(group([swatch], transform=f"translate({_num(x)},{_num(yy)})"))
        out.append(text(x + size + 6, yy + size - 2, label, font_size=size - 1, fill=INK))
    return out


def swatch(fill: str, *, stroke: str = "#999", dash: Optional[str] = None, width: float = 1) -> str:
    """A 12x12 square for :func:`legend`."""
    return rect(0, 0, 12, 12, rx=2, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash)


def document(width, height, body: Iterable[str], *, title: Optional[str] = None,
             background: Optional[str] = None, css_class: Optional[str] = None,
             style: Optional[str] = None) -> str:
    """A standalone SVG picture: ``<svg>``, an optional ``<title>``, style
    sheet (``style``: CSS for the classes of many alike elements, which keeps
    a picture of many tiles small) and background, then ``body``."""
    parts = [element("svg", None, xmlns="http://www.w3.org/2000/svg", width=width, height=height,
                     viewBox=f"0 0 {_num(width)} {_num(height)}", font_family=FONT,
                     class_=css_class)[:-2] + ">"]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    if style:
        parts.append(f"<style>{escape(style)}</style>")
    if background:
        parts.append(rect(0, 0, width, height, fill=background))
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
