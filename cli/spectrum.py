"""`solve spectrum`: the solitaire's minimum turns, reachability, play-outs."""
from __future__ import annotations

import sys

import click
from tqdm import tqdm

from solver.cli.common import SEED, emit_json, is_tty
from solver.spectrum import play as playmod
from solver.spectrum.search import DEFAULT_MAX_NODES, reach as reach_query, solve_seed


def _print_plan(res):
    for t in res.get("turns_detail", []):
        click.echo(f"{t['turn']:3d}. {t['move']:<45} value {t['value']:2d}  {t['direction']:<3}  "
                   f"{t['stash']}")


@click.group(invoke_without_command=True)
@click.option("--seed", type=SEED, help="Solve the seeded 1-player solitaire.")
@click.option("--node-limit", "--max-nodes", "max_nodes", type=click.IntRange(1), default=DEFAULT_MAX_NODES, show_default=True)
@click.option("--time-limit", "--max-seconds", "max_seconds", type=click.FloatRange(0.0), default=60.0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def spectrum(ctx, seed, max_nodes, max_seconds, as_json):
    """Spectrum: minimum turns to win the seeded solitaire (IDA*, proven minimal)."""
    if ctx.invoked_subcommand is not None:
        return
    if seed is None:
        click.echo(ctx.get_help())
        return
    res = solve_seed(seed, max_nodes=max_nodes, max_seconds=max_seconds)
    if as_json:
        res.pop("turns_detail", None)
        emit_json(res)
    else:
        click.echo(f"seed {seed}: goals {res['goals']}")
        if res["verdict"] == "won":
            click.echo(f"minimum turns: {res['turns']} ({res['proof']}; {res['nodes']} nodes, "
                       f"{res['seconds']} s)")
            _print_plan(res)
        else:
            click.echo(f"unknown: {res['limit']} limit hit after {res['nodes']} nodes "
                       f"(at least {res.get('lower_bound')} turns)")
    if res["verdict"] == "unknown":
        ctx.exit(1)


@spectrum.command()
@click.option("--stash", required=True, help="e.g. 'red:SM orange:L' or 'M:red S:orange'.")
@click.option("--goals", required=True, help="Three small/medium/large goals, e.g. 'red/blue/teal ...'.")
@click.option("--direction", default="cw", show_default=True, help="cw or ccw.")
@click.option("--target", required=True, help="A stash, or a condition such as 'value<=6'.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Generator for future goals.")
@click.option("--max-states", type=click.IntRange(1), default=2_000_000, show_default=True)
@click.option("--max-turns", type=click.IntRange(0), default=60, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def reach(ctx, stash, goals, direction, target, seed, max_states, max_turns, as_json):
    """Can a target stash (or condition) be reached, in how many turns, and how?"""
    res = reach_query(stash, goals, direction, target, seed=seed, max_states=max_states,
                      max_turns=max_turns)
    if as_json:
        res.pop("turns_detail", None)
        emit_json(res)
    else:
        click.echo(f"{res['stash']} ({res['direction']}, goals {res['goals']}) -> {res['target']}")
        if res["verdict"] == "reachable":
            click.echo(f"reachable in {res['turns']} turns ({res['states']} positions)")
            _print_plan(res)
        elif res["verdict"] == "unreachable":
            click.echo(f"unreachable: {res['proof']}")
        else:
            click.echo(f"unknown: {res['limit']} limit hit ({res['states']} positions)")
    if res["verdict"] == "unknown":
        ctx.exit(1)


@spectrum.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--seed", type=SEED, default=1, show_default=True, help="First game's seed.")
@click.option("--policy", "policies", multiple=True,
              help="Policy per seat (random or solver); repeat, or give one for every seat.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="Play seeds seed..seed+games-1 and report win rates by seat.")
@click.option("--max-turns", type=click.IntRange(1), default=playmod.DEFAULT_MAX_TURNS, show_default=True)
@click.option("--solver-nodes", type=click.IntRange(1), default=50_000, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play(players, seed, policies, games, max_turns, solver_nodes, as_json):
    """Play multiplayer games between policies and print them."""
    policies = list(policies) or ["solver"] + ["random"] * (players - 1)
    if len(policies) == 1:
        policies *= players
    results = []
    bar = tqdm(range(games), file=sys.stderr, disable=not is_tty() or games == 1, desc="games")
    for i in bar:
        results.append(playmod.play_game(players=players, seed=(seed + i) & ((1 << 64) - 1),
                                         policies=policies, max_turns=max_turns,
                                         solver_nodes=solver_nodes))
    wins = [sum(1 for r in results if r["winner"] == s + 1) for s in range(players)]
    lengths = [r["length"] for r in results if r["winner"]]
    summary = {"players": players, "policies": policies, "games": games, "wins_by_seat": wins,
               "unfinished": sum(1 for r in results if not r["winner"]),
               "mean_length": round(sum(lengths) / len(lengths), 2) if lengths else None}
    if as_json:
        if games == 1:
            summary.update(results[0])
        else:
            summary["results"] = [{k: r[k] for k in ("seed", "winner", "length")} for r in results]
        emit_json(summary)
        return
    if games == 1:
        r = results[0]
        for line in r["moves"]:
            click.echo(line)
        click.echo(r["final"])
        click.echo(f"winner: P{r['winner']} ({r['winner_policy']}) after {r['length']} turns"
                   if r["winner"] else f"no winner after {r['length']} turns")
    else:
        for s in range(players):
            click.echo(f"P{s + 1} {policies[s]:<7} wins {wins[s]}/{games}")
        click.echo(f"unfinished {summary['unfinished']}, mean length {summary['mean_length']}")
