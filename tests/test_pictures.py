"""Pictures of every game: SVG that parses and counts right, golden terminal text, colour rules.

The golden files in tests/golden/ are the terminal pictures of one known state
per game; after an intended change of a picture, rewrite them with
``UPDATE_GOLDEN=1 pytest tests/test_pictures.py`` and read the diff.
"""
import json
import os
import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import solve
from solver.term import strip

GOLDEN = Path(__file__).parent / "golden"


# -- one known state per game ---------------------------------------------------------

def pyramid_state():
    from solver.pyramid.rules import Pyramid
    state = Pyramid().new_initial_state(42)
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    return state


def boundary_state():
    from solver.boundary.notation import parse_move
    from solver.boundary.rules import Position
    move = parse_move("(c3-a3)(a1-c3)")
    return Position.start().play(move), move


def spectrum_state():
    from solver.spectrum.rules import Game
    state = Game(players=1, seed=10).new_state()
    state.play("exchange M:green -> S:teal S:teal")
    return state, "exchange M:white -> S:black S:black"


def continental_state():
    from solver.continental.game import Continental
    state = Continental().new_initial_state(3)
    for text in ("pass", "pass", "5s"):
        state.apply(state.parse_move(text))
    return state


def continuum_state():
    from solver.continuum.game import Continuum
    state = Continuum().new_initial_state(3)
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    return state


def texts(colour=False):
    from solver.boundary import render as b
    from solver.continental import render as c
    from solver.continuum import render as u
    from solver.pyramid import render as p
    from solver.spectrum import render as s
    from solver.continental.notation import parse_hand
    pos, move = boundary_state()
    spec, nxt = spectrum_state()
    cont = continuum_state()
    return {
        "pyramid": p.text(pyramid_state(), verdict="won", colour=colour),
        "boundary": b.text(pos, last_move=move, colour=colour),
        "spectrum": s.text(spec, next_move=nxt, colour=colour),
        "continental": c.text(continental_state(), colour=colour),
        "continental-hand": c.hand_picture(parse_hand("As 2s 3s 4s Kh Kd X 9c"), 2, colour=colour),
        "continuum": u.text(cont.row, state=cont, last_move=cont.log[-1], moved=[6, 7], colour=colour),
    }


@pytest.fixture(scope="module")
def plain():
    return texts()


@pytest.mark.parametrize("name", ["pyramid", "boundary", "spectrum", "continental", "continental-hand",
                                  "continuum"])
def test_terminal_picture_matches_its_golden_file(plain, name):
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(plain[name] + "\n", encoding="utf-8")
    assert plain[name] + "\n" == path.read_text(encoding="utf-8")


def test_colour_is_only_added_on_top_of_the_plain_text(plain):
    coloured = texts(colour=True)
    for name, text in coloured.items():
        assert "\x1b[" in text, name
        assert strip(text) == plain[name], name
    assert not any("\x1b" in text for text in plain.values())


# -- SVG: parses, counts, coordinates, caption --------------------------------------------

def parse(svg_text):
    doc = xml.dom.minidom.parseString(svg_text)
    assert doc.documentElement.tagName == "svg"
    return doc


def by_class(doc, name):
    return [e for tag in ("g", "rect", "polygon", "circle", "text", "line")
            for e in doc.getElementsByTagName(tag) if name in e.getAttribute("class").split()]


def all_text(doc):
    return [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild is not None]


def test_pyramid_svg():
    from solver.pyramid import render
    state = pyramid_state()
    doc = parse(render.svg(state, verdict="won"))
    assert len(by_class(doc, "tile")) == state.placed == 10
    assert len(by_class(doc, "last")) == 1
    assert len(by_class(doc, "reserve")) == 9
    assert len(by_class(doc, "target")) == len({m.pos for m in state.legal_moves()}) > 0
    words = all_text(doc)
    assert set("abcdefghi") <= set(words) and {str(r) for r in range(1, 10)} <= set(words)
    assert [str(n) for n in range(1, 10)] == [t.firstChild.data for t in by_class(doc, "slot")]
    caption = by_class(doc, "caption")[0].firstChild.data
    assert caption == f"Continuous Pyramid · deal 42 · move 10 of 144 · won · last {state.history[-1]}"
    assert "Level 4  (0 of 1)" in words and "legal target" in words


def test_boundary_svg():
    from solver.boundary import render
    pos, move = boundary_state()
    doc = parse(render.svg(pos, last_move=move))
    assert len(doc.getElementsByTagName("polygon")) == 12          # one per pyramid
    assert len(doc.getElementsByTagName("circle")) == 4            # one per stone
    assert len(by_class(doc, "base")) == 4 and len(by_class(doc, "last-move")) == 2
    words = all_text(doc)
    assert [t.firstChild.data for t in by_class(doc, "file")] == list("abcdef")
    assert [t.firstChild.data for t in by_class(doc, "rank")] == [str(r) for r in range(1, 7)]
    assert by_class(doc, "caption")[0].firstChild.data == "Boundary · Green to move · last (c3-a3)(a1-c3)"
    assert "the continuum" in words and "last move" in words


def test_spectrum_svg_counts_every_stash_and_goal():
    from solver.spectrum import render
    from solver.spectrum.rules import Game
    state, nxt = spectrum_state()
    doc = parse(render.svg(state, next_move=nxt))
    assert len(by_class(doc, "piece")) == sum(state.stashes[0]) == 13
    assert len(by_class(doc, "goal-piece")) == 9 and len(by_class(doc, "colour")) == 12
    assert len(by_class(doc, "next-arrow")) == 1
    assert by_class(doc, "next-move")[0].firstChild.data == nxt
    assert by_class(doc, "caption")[0].firstChild.data.startswith("Spectrum seed 10 · turn 1 · direction")
    three = Game(players=3, seed=5).new_state()
    assert len(by_class(parse(render.svg(three)), "piece")) == 36


def test_continental_svg_counts_cards_and_groups_melds():
    from solver.continental import render
    from solver.continental.notation import parse_hand
    state = continental_state()
    doc = parse(render.svg(state))
    hands = sum(sum(p.hand) for p in state.round.players)
    assert len(by_class(doc, "card")) == hands == 14 and len(by_class(doc, "discard")) == 1
    assert by_class(doc, "caption")[0].firstChild.data.startswith("game 3, round 1 of 7 (2 trios)")
    hand = parse(render.hand_svg(parse_hand("As 2s 3s 4s Kh Kd X 9c"), 2))
    assert len(by_class(hand, "card")) == 8 and len(by_class(hand, "meld")) == 2
    words = all_text(hand)
    assert "straight" in words and "trio" in words and "hand · meets the contract; points left 9" in words


def test_continuum_svg_counts_stacks_pyramids_and_cards():
    from solver.continuum import render
    from solver.continuum.rules import start_row
    state = continuum_state()
    row = state.row
    doc = parse(render.svg(row, state=state))
    assert len(by_class(doc, "pyramid")) == 12
    assert len(by_class(doc, "stack")) == len(row.west) + len(row.east)
    assert len(by_class(doc, "card")) == len(state.hands["A"]) + len(state.hands["B"])
    assert by_class(doc, "caption")[0].firstChild.data.startswith("Continuum · game 3 (turn balance)")
    start = parse(render.svg(start_row()))
    assert len(by_class(start, "stack")) == 4 and not by_class(start, "card")
    assert "West end" in all_text(start) and "East end" in all_text(start)


# -- the command line -------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(solve, list(args))


SHOWS = [
    ["pyramid", "show", "--seed", "42", "--moves", "10"],
    ["boundary", "show"],
    ["spectrum", "show", "--seed", "10"],
    ["continental", "show", "--seed", "3"],
    ["continental", "show", "--hand", "As 2s 3s 4s Kh Kd X 9c", "--round", "2"],
    ["continuum", "show", "--seed", "3"],
]


@pytest.mark.parametrize("args", SHOWS, ids=lambda a: " ".join(a[:2]) + (" hand" if "--hand" in a else ""))
def test_show_writes_svg_to_a_file_or_stdout_and_json_names_it(tmp_path, args):
    from jsonschema import validate
    from solver.schemas import load
    out = tmp_path / "p.svg"
    res = run(*args, "--svg", str(out))
    assert res.exit_code == 0, res.output
    assert "\x1b[" not in res.output                       # piped: no colour
    parse(out.read_text(encoding="utf-8"))
    res = run(*args, "--svg", "-")
    assert res.exit_code == 0 and res.output.startswith("<svg") and res.output.rstrip().endswith("</svg>")
    parse(res.output)
    data = json.loads(run(*args, "--json", "--svg", str(out)).output)
    validate(data, load("show"))
    assert data["svg"] == str(out) and data["picture"].splitlines()[0]
    bad = run(*args, "--json", "--svg", "-")
    assert bad.exit_code == 2 and "standard output" in bad.output


@pytest.mark.parametrize("args,moves", [
    (["pyramid", "show", "--seed", "42"], 144),
    (["boundary", "show", "--record", "RECORD"], None),
    (["spectrum", "show", "--seed", "10"], 7),
    (["continuum", "show", "--plan"], 13),
], ids=["pyramid", "boundary", "spectrum", "continuum"])
def test_html_replay_has_a_frame_per_move_plus_one(tmp_path, args, moves):
    from solver.replay_html import frame_count
    if "RECORD" in args:
        record = tmp_path / "record.txt"
        from solver.boundary.notation import format_move
        from solver.boundary.rules import Position
        pos, plies = Position.start(), []
        for _ in range(3):
            move = pos.legal_moves()[-1]
            plies.append(format_move(move))
            pos = pos.play(move)
        record.write_text(f"1. {plies[0]}\t{plies[1]}\n2. {plies[2]}\n")
        args = [str(record) if a == "RECORD" else a for a in args]
        moves = 3
    html = tmp_path / "replay.html"
    res = run(*args, "--html", str(html))
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    assert frame_count(page) == moves + 1 == page.count('<li class="')
    assert "<script src" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")


def test_html_needs_a_line():
    assert run("boundary", "show", "--html", "x.html").exit_code == 2
    assert run("spectrum", "show", "--players", "2", "--html", "x.html").exit_code == 2
    assert run("continuum", "show", "--html", "x.html").exit_code == 2


def _show_on_a_terminal(env_extra):
    """`solve boundary show` with its standard output on a pseudo-terminal."""
    import pty
    import subprocess
    import sys
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(env_extra)
    code = "import sys; from solver.cli.main import main; sys.argv = ['solve', 'boundary', 'show']; main()"
    proc = subprocess.run([sys.executable, "-P", "-c", code], stdout=slave, stderr=subprocess.PIPE, env=env, timeout=60)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.returncode == 0, proc.stderr
    return out.decode("utf-8").replace("\r\n", "\n")


def test_colour_on_a_terminal_unless_no_color():
    from solver.boundary import render
    from solver.boundary.rules import Position
    coloured = _show_on_a_terminal({})
    assert "\x1b[" in coloured and strip(coloured).rstrip("\n") == render.text(Position.start())
    assert "\x1b[" not in _show_on_a_terminal({"NO_COLOR": "1"})
