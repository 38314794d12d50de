"""`solve pyramid`: Continuous Pyramid and Pyramid of Wild Dragons."""
from __future__ import annotations

import click

from cli.common import SEED, emit_json
from solver.pyramid import deal_from_seed


@click.group(invoke_without_command=True)
@click.pass_context
def pyramid(ctx):
    """Continuous Pyramid: exact winnability of seeded deals."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@pyramid.command()
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(seed, as_json):
    """Print the 144 tokens of a seeded deal, in deal order."""
    d = deal_from_seed(seed)
    if as_json:
        emit_json({"seed": seed, "deal": d.tokens()})
    else:
        click.echo(d.text())

from cli.pyramid_play import batch, play  # noqa: E402  (issue 3: blind play and batch)
pyramid.add_command(play)
pyramid.add_command(batch)
