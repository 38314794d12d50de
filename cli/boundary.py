"""`solve boundary`: replay records, perft, the endgame solver, pictures, play-outs."""
from __future__ import annotations

import click

from solver.cli.common import SEED, emit_json, game_group, is_tty, read_text_file
from solver.boundary import render
from solver.boundary.analysis import analyse_seed
from solver.boundary.notation import START, format_position, parse_position
from solver.boundary.replay import replay_text
from solver.boundary.rules import PLAYER_NAMES
from solver.boundary.search import perft_position, solve_position
from solver.errors import InputError

POSITION_HELP = "Position string (see docs/boundary.md); default: the start position."


@game_group
def boundary():
    """Boundary: record replay, perft and an endgame solver."""


@boundary.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--show", is_flag=True, help="Draw every position.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def replay(ctx, file, show, as_json):
    """Replay a numbered record; name the first illegal move (exit 1)."""
    result = replay_text(read_text_file(file))
    if as_json:
        emit_json(result.as_json())
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def perft(depth, position, divide, reference, as_json):
    """Leaf counts per depth, with nodes per second."""
    out = perft_position(position, depth=depth, divide=divide, reference=reference)
    if as_json:
        emit_json(out)
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
@click.option("--depth", type=int, default=40, show_default=True, help="Deepest iteration (plies).")
@click.option("--time-limit", type=float, default=60.0, show_default=True, help="Seconds; 0 for none.")
@click.option("--nodes", type=click.IntRange(0), default=0, help="Node limit; 0 for none.")
@click.option("--tt-mb", type=int, default=64, show_default=True, help="Transposition table size (MB).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(position, depth, time_limit, nodes, tt_mb, as_json):
    """Prove a win, a loss or a draw for the side to move, or say unknown."""
    out = solve_position(position, max_depth=depth, time_limit=time_limit, node_limit=nodes,
                         tt_mb=tt_mb)
    out["position"] = format_position(parse_position(position))
    if as_json:
        emit_json(out)
        return
    side = PLAYER_NAMES[parse_position(position).side]
    if out["result"] == "win":
        click.echo(f"win: {side} wins in {out['plies']} plies; best {out['best']}")
    elif out["result"] == "loss":
        tail = f"; longest defence {out['best']}" if out["best"] else ""
        click.echo(f"loss: {side} loses in {out['plies']} plies{tail}")
    elif out["result"] == "draw":
        click.echo(f"draw: neither side can force a win; {out['best']} holds it")
    else:
        click.echo(f"unknown: no proof within the {out['limit']} limit (depth {out['depth']} searched)")
    click.echo(f"{out['nodes']} nodes in {out['seconds']:.3f} s")


@boundary.command()
@click.option("--position", default=START, help=POSITION_HELP)
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False), help="Write an SVG diagram here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def show(position, svg_file, as_json):
    """Draw a position in the terminal (and optionally as SVG)."""
    pos = parse_position(position)
    if svg_file:
        try:
            with open(svg_file, "w", encoding="utf-8") as fh:
                fh.write(render.svg(pos))
        except OSError as exc:
            raise InputError(f"cannot write {svg_file}: {exc.strerror}") from None
    if as_json:
        emit_json({"position": format_position(pos), "board": render.text(pos), "svg": svg_file})
    else:
        click.echo(render.text(pos))


@boundary.command()
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True, help="Seeds seed..seed+N-1.")
@click.option("--max-plies", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def playout(seed, games, max_plies, as_json):
    """Seeded random games: who wins, and how long they last."""
    from tqdm import tqdm

    results = [analyse_seed(s, max_plies=max_plies)
               for s in tqdm(range(seed, seed + games), disable=not is_tty(), unit="game")]
    tally = {}
    for r in results:
        tally[r["verdict"]] = tally.get(r["verdict"], 0) + 1
    if as_json:
        emit_json({"games": games, "tally": tally, "results": results})
        return
    for r in results:
        click.echo(f"seed {r['seed']}: {r['verdict']} after {r['plies']} plies")
    click.echo(" ".join(f"{k}={v}" for k, v in sorted(tally.items())))
