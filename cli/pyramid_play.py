"""`solve pyramid play` and `solve pyramid batch`: blind play and the batch form."""
from __future__ import annotations

import click

from solver.cli.batch import batch_options, run_and_report
from solver.cli.common import SEED, emit_json
from solver.pyramid.rules import VARIANTS

VARIANT = click.Choice(VARIANTS)


@click.command("play")
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@click.option("--policy", default="greedy", show_default=True, help="greedy or lookahead.")
@click.option("--variant", type=VARIANT, default="continuous", show_default=True)
@click.option("--samples", type=click.IntRange(min=1), default=None, help="lookahead: imagined stocks per move.")
@click.option("--width", type=click.IntRange(min=1), default=None, help="lookahead: candidate moves scored.")
@click.option("--depth", type=click.IntRange(min=0), default=None, help="lookahead: roll-out length.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play(seed, policy, variant, samples, width, depth, as_json):
    """Play one deal blind (seeing only the pyramid and the reserves) and show the game."""
    from solver.pyramid.blind import check_policy, face_moves, game_text, play as play_blind
    from solver.pyramid.deal import deal_from_seed
    check_policy(policy)
    options = {k: v for k, v in (("samples", samples), ("width", width), ("depth", depth)) if v is not None}
    if options and policy != "lookahead":
        raise click.UsageError("--samples/--width/--depth apply to the lookahead policy only")
    deal = deal_from_seed(seed)
    game = play_blind(deal, policy=policy, variant=variant, **options)
    if as_json:
        state = face_moves(deal, game, variant=variant)
        emit_json({"seed": seed, "variant": variant, "policy": policy, "verdict": game.verdict,
                   "placed": game.placed, "moves": [str(m) for m in state.history],
                   "nodes": game.nodes, "seconds": round(game.seconds, 6)})
    else:
        click.echo(game_text(deal, game, variant=variant))


@click.command("batch")
@click.option("--analysis", default="thoughtful", show_default=True,
              help="thoughtful (exact search) or blind:POLICY (blind:greedy, blind:lookahead).")
@click.option("--variant", type=VARIANT, default="continuous", show_default=True)
@batch_options
def batch(analysis, variant, **kw):
    """Winnability (or a blind policy's result) of every seed of a range, into the database."""
    run_and_report(game="pyramid", analysis=analysis, variant=variant, **kw)
