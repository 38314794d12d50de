"""`solve boundary`: replay records, perft, the endgame solver, pictures, play-outs.

Every command takes ``--json`` and prints one object whose keys are present
whatever the answer, with the context keys ``game``, ``variant`` and ``seed``
(null: Boundary has no variants, and these commands take no seed).
"""
from __future__ import annotations

import click

from solver.boundary import render
from solver.boundary.notation import START, format_move, format_position, parse_move, parse_position
from solver.boundary.replay import replay_text
from solver.boundary.rules import PLAYER_NAMES
from solver.boundary.search import DEFAULT_DEPTH, DEFAULT_LIMITS, MAX_DEPTH, perft_position, solve as solve_endgame
from solver.cli import pictures
from solver.cli.common import JSON_OPTION, add_play_command, emit_json, game_group, read_text_file
from solver.errors import InputError
from solver.game import Limits

POSITION_HELP = "Position string (see docs/boundary.md); default: the start position."
CONTEXT = {"game": "boundary", "variant": None, "seed": None}


def _json(obj: dict) -> None:
    emit_json({**CONTEXT, **obj})


@game_group
def boundary():
    """Boundary: record replay, perft, an endgame solver, record analysis, an engine and play-outs."""


@boundary.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--show", is_flag=True, help="Draw every position.")
@JSON_OPTION
@click.pass_context
def replay(ctx, file, show, as_json):
    """Replay a numbered record; name the first illegal move (exit 1)."""
    result = replay_text(read_text_file(file))
    if as_json:
        _json(result.as_json())
    else:
        if show:
            for i, pos in enumerate(result.positions):
                label = "start" if i == 0 else f"after {result.halves[i - 1].label()}"
                click.echo(f"-- {label}\n{render.text(pos)}\n")
        if result.legal:
            click.echo(f"legal: {result.plies} half-moves replayed")
        else:
            click.echo(f"illegal: {result.error}")
        if result.resigned is not None:
            click.echo(f"{PLAYER_NAMES[result.resigned]} resigns")
        if result.winner is not None:
            click.echo(f"{PLAYER_NAMES[result.winner]} wins")
        click.echo(f"final: {format_position(result.final)}")
    if not result.legal:
        if not as_json:
            click.echo(f"solve: {result.error}", err=True)
        ctx.exit(1)


@boundary.command()
@click.option("--depth", type=click.IntRange(0, 12), required=True, help="Plies to count.")
@click.option("--position", default=START, help=POSITION_HELP)
@click.option("--divide", is_flag=True, help="Also print the leaves under each first move.")
@click.option("--reference", is_flag=True, help="Use the pure-Python reference engine.")
@JSON_OPTION
def perft(depth, position, divide, reference, as_json):
    """Leaf counts per depth, with nodes per second."""
    out = perft_position(position, depth=depth, divide=divide, reference=reference)
    if as_json:
        _json({**out, "divide": out.get("divide")})
        return
    for m, n in (out.get("divide") or {}).items():
        click.echo(f"{m}\t{n}")
    for d, n in enumerate(out["counts"], 1):
        click.echo(f"depth {d}: {n}")
    nps = out["nodes_per_second"]
    click.echo(f"{out['seconds']:.3f} s, {nps if nps is not None else '-'} nodes/s "
               f"({out['engine']}{', bulk leaf counts' if out['bulk_leaves'] else ''})")


@boundary.command()
@click.option("--position", required=True, help="Position string to solve.")
@click.option("--depth", type=click.IntRange(1, MAX_DEPTH), default=DEFAULT_DEPTH, show_default=True,
              help="Deepest iteration (plies); completing it without a proof is unknown (nodes).")
@click.option("--node-limit", type=int, default=None,
              help="Stop with 'unknown' after about this many nodes; default: none.")
@click.option("--time-limit", type=float, default=DEFAULT_LIMITS.time_limit, show_default=True,
              help="Stop with 'unknown' after this many seconds.")
@click.option("--table-mb", type=float, default=DEFAULT_LIMITS.table_mb, show_default=True,
              help="Transposition table size (MiB, at least 1).")
@click.option("--dfpn", is_flag=True, default=False,
              help="Ask each depth's question with proof-number search (wins and losses only: "
                   "a draw is answered unknown).")
@click.option("--holding", type=click.IntRange(min=0), default=0, show_default=True,
              help="Where the search answers unknown, try a draw proof by closed holding sets "
                   "of at most this many positions per side (0: no).")
@click.option("--projection", type=(click.Choice(["red", "green"]), str), multiple=True,
              metavar="SIDE REGION",
              help="Where the search answers unknown, prove SIDE never loses by a projection "
                   "onto REGION (squares, e.g. 'a6 a5 b5 b6'); a draw needs both sides, each by "
                   "a projection or by --holding.  May be given for each side.")
@click.option("--projection-states", type=click.IntRange(min=1), default=200_000,
              show_default=True, help="Abstract states a projection proof may explore.")
@JSON_OPTION
def solve(position, depth, node_limit, time_limit, table_mb, dfpn, holding, projection,
          projection_states, as_json):
    """Prove won, lost or draw for the side to move, or say unknown (exit 0 for any answer)."""
    from solver.boundary.projection import parse_region
    pos = parse_position(position)
    sides = [side for side, _ in projection]
    if len(set(sides)) < len(sides):
        raise InputError("--projection may be given once for each side, not twice for one")
    regions = {("red", "green").index(side): parse_region(region) for side, region in projection}
    result = solve_endgame(pos, limits=Limits(node_limit, time_limit, table_mb), max_depth=depth,
                           dfpn=dfpn, holding=holding, projection=regions,
                           projection_states=projection_states)
    if as_json:
        _json(result.to_dict())
        return
    side = PLAYER_NAMES[pos.side]
    f = result.fields
    if result.verdict == "won":
        click.echo(f"won: {side} wins in {f['plies']} plies; best {result.line[0]}")
    elif result.verdict == "lost":
        tail = f"; longest defence {result.line[0]}" if result.line else ""
        click.echo(f"lost: {side} loses in {f['plies']} plies{tail}")
    elif result.verdict == "draw":
        how = (f" (Red by {f['draw_by'][0]}, {f['holding'][0]}; Green by {f['draw_by'][1]}, "
               f"{f['holding'][1]})" if f.get("draw_by") else "")
        click.echo(f"draw: neither side can force a win; {result.line[0]} holds it{how}")
    else:
        if f['depth'] >= f['max_depth']:        # the depth ran out, not a limit (JSON: limit "nodes")
            click.echo(f"unknown: no proof within {f['max_depth']} plies (the --depth asked; "
                       f"all {f['depth']} completed)")
        else:
            click.echo(f"unknown: no proof within the {result.limit} limit "
                       f"(depth {f['depth']} of {f['max_depth']} completed)")
    if result.verdict in ("won", "lost") and len(result.line) > 1:
        click.echo("line: " + " ".join(result.line))
    click.echo(f"{result.nodes} nodes in {result.seconds:.3f} s")


@boundary.command()
@click.option("--position", default=None, help=POSITION_HELP)
@click.option("--record", "record_file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="A numbered game record (as `replay` reads): draw its position after --ply half-moves.")
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="With --record: the half-moves to play first (default: all that are legal).")
@pictures.svg_option
@pictures.html_option("the record")
@JSON_OPTION
def show(position, record_file, ply, svg_path, html_path, as_json):
    """Draw a position (or a record's, with its last move) in the terminal, as SVG, or a record as a replay.

    The picture has the ranks and files, the continuum, the stacks, bases,
    stones, the side to move, the last move and a legend.
    """
    pictures.check_outputs(as_json=as_json, svg_path=svg_path, html_path=html_path)
    if record_file is not None and position is not None:
        raise InputError("give --position or --record, not both")
    if record_file is None and (ply is not None or html_path is not None):
        raise InputError("--ply and --html need --record (a game to step through)")
    last, moves, positions = None, [], None
    if record_file is not None:
        text = click.get_text_stream("stdin").read() if record_file == "-" else read_text_file(record_file)
        result = replay_text(text, start=parse_position(position) if position else None)
        positions = result.positions
        moves = [h.label() for h in result.halves[:result.plies]]
        if ply is None:
            ply = result.plies
        if ply > result.plies:
            raise InputError(f"--ply {ply}: the record has {result.plies} legal half-moves")
        pos = positions[ply]
        last = parse_move(result.halves[ply - 1].text) if ply else None
    else:
        pos = parse_position(position or START)
    pictures.write(svg_path, render.svg(pos, last_move=last))
    if positions is not None:
        def frame(i):
            return render.svg(positions[i], last_move=parse_move(result.halves[i - 1].text) if i else None)
        pictures.write_replay(html_path, f"Boundary record ({result.plies} half-moves)", frame, moves)
    if as_json:
        _json({"position": format_position(pos), "side": PLAYER_NAMES[pos.side].lower(),
               "board": render.text(pos, last_move=last), "picture": render.text(pos, last_move=last),
               "ply": ply, "last_move": None if last is None else format_move(last),
               "svg": svg_path, "html": html_path})
    elif not pictures.to_stdout(svg_path, html_path):
        click.echo(render.text(pos, last_move=last, colour=pictures.colour()))
        pictures.wrote(svg_path, "SVG")
        pictures.wrote(html_path, "replay")


@boundary.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--time-limit", type=float, default=10.0, show_default=True,
              help="Seconds of proof search per position.")
@click.option("--engine-time", type=float, default=1.0, show_default=True,
              help="Seconds of engine search for a position left unknown (0: none).")
@click.option("--table-mb", type=float, default=DEFAULT_LIMITS.table_mb, show_default=True,
              help="Transposition table size (MiB, at least 1).")
@click.option("--last", type=click.IntRange(min=1), default=None,
              help="Analyse only the last N positions (default: all).")
@click.option("--show", is_flag=True, help="Draw every position analysed.")
@JSON_OPTION
def analyse(record, time_limit, engine_time, table_mb, last, show, as_json):
    """Each ply's proven value (or the engine's estimate), and where the game was lost."""
    from solver.boundary.analyse import analyse_record
    if table_mb < 1:
        raise InputError(f"the Boundary table needs --table-mb >= 1, not {table_mb:g}")
    Limits(None, engine_time or None)          # the engine's seconds: finite and positive (0: none)
    Limits(None, time_limit)                   # the proof's seconds per position: likewise, not 0
    text = read_text_file(record)
    a = analyse_record(text, time_limit=time_limit, engine_time=engine_time, table_mb=table_mb,
                       last=last)
    if as_json:
        _json({"record": record, "time_limit": time_limit, "engine_time": engine_time,
               "positions": [p.to_dict() for p in a.plies], "turning_point": a.turning_point,
               "estimated_turning_point": a.estimated_turning_point, "proven_from": a.proven_from,
               "consistent": a.consistent, "resigned": a.resigned, "nodes": a.nodes,
               "seconds": round(a.seconds, 6)})
        return
    for p in a.plies:
        head = "start" if p.label is None else p.label
        best = ""
        if p.best and p.verdict != "unknown":
            best = {"won": "; best ", "lost": "; longest defence ", "draw": "; holds with "}[p.verdict] + p.best
        elif p.engine_move:
            best = f"; engine prefers {p.engine_move}"
        if last is not None and p.verdict == "unknown" and p.estimate is None:
            continue
        click.echo(f"{p.number:3d}  {head:28s} {p.side.capitalize():5s} to move: {p.value_text()}{best}")
        if show:
            click.echo(render.text(parse_position(p.position)) + "\n")
    if a.resigned:
        click.echo(f"{a.resigned.capitalize()} resigned.")
    tp = a.turning_point
    if tp is not None and tp["basis"] == "proof":
        click.echo(f"The proven value changed hands at ply {tp['ply']} ({tp['label']}): "
                   f"{tp['mover'].capitalize()} went from '{tp['before']}' to '{tp['after']}'; "
                   f"better was {tp['better_move']}.")
    elif tp is not None:
        click.echo(f"The proven loss begins at ply {tp['ply']} ({tp['label']}): before it "
                   f"{tp['mover'].capitalize()} was {tp['before']}; after it: {tp['after']}"
                   f"; {tp['better_move']} holds out longer.")
    if tp is None and a.proven_from is not None:
        first = a.plies[a.proven_from]
        click.echo(f"No proven change of hands: proofs reach back to ply {a.proven_from} "
                   f"({first.value_text()}).")
    et = a.estimated_turning_point
    if tp is None and et is not None:
        click.echo(f"Largest drop in the engine's estimate: ply {et['ply']} ({et['label']}), "
                   f"{et['mover'].capitalize()} {et['before']} -> {et['after']}; "
                   f"the engine prefers {et['better_move']}.")
    click.echo(f"answers consistent along the record: {'yes' if a.consistent else 'NO'}; "
               f"{a.nodes} nodes in {a.seconds:.1f} s")


@boundary.command()
@click.option("--position", default=START, help=POSITION_HELP)
@click.option("--time-limit", type=float, default=5.0, show_default=True,
              help="Seconds to think (depth 1 always completes).")
@click.option("--node-limit", type=click.IntRange(min=1), default=None, help="Stop after about this many nodes.")
@click.option("--depth", type=click.IntRange(1, 60), default=60, show_default=True, help="Deepest iteration.")
@click.option("--table-mb", type=click.IntRange(1, 1024), default=16, show_default=True,
              help="Transposition table size (MiB).")
@JSON_OPTION
def bestmove(position, time_limit, node_limit, depth, table_mb, as_json):
    """The engine's move: one line per completed depth (depth, score, nodes, time, PV)."""
    from solver.boundary.engine import bestmove as think
    Limits(node_limit, time_limit or None)     # finite, positive, within the counters (else exit 2)
    pos = parse_position(position)
    show = None if as_json else (lambda line: click.echo(line.text()))
    out = think(pos, time_limit=time_limit, node_limit=node_limit or 0, max_depth=depth,
                table_mb=table_mb, on_depth=show)
    if as_json:
        _json({"position": format_position(pos), "move": out.move, "score": out.score,
               "score_text": out.score_text, "depth": out.depth, "nodes": out.nodes,
               "seconds": round(out.seconds, 6), "lines": [l.to_dict() for l in out.lines]})
        return
    click.echo(f"bestmove {out.move if out.move else '(none)'}")


add_play_command(boundary, "boundary")
