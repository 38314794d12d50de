"""`solve continental`: contracts, deficiency, odds and play-outs of Continental.

Thin over ``solver.continental``: `hand` and `deal` answer exact questions as a
Result (verdict won/lost/unknown), `show` and `verify` work on the contract's
seven-round game state, `play` is the shared play-out command.
"""
from __future__ import annotations

import json

import click

from solver.cli import pictures
from solver.cli.common import (JSON_OPTION, SEED, add_play_command, emit_json, progress_bar, read_text_file,
                               refuse_group_options)
from solver.continental.analysis import odds as run_odds
from solver.continental.contract import run_deal
from solver.continental.game import Continental
from solver.continental.notation import Pack, format_card, hand_cards, hand_from_cards, parse_hand
from solver.continental.render import LIMIT_WORDS, hand_text, odds_text, state_text
from solver.continental.rules import deal_hand, get_round
from solver.continental.search import DEFAULT_LIMITS, DEFAULT_NODE_LIMIT, analyse_hand, check_round_hand
from solver.errors import InputError
from solver.game import Limits, check_moves

ROUND = click.IntRange(1, 7)
JSON = JSON_OPTION
CONTEXT = {"game": "continental", "variant": None}


def pack_options(f):
    """--decks, --jokers-per-deck and --joker-limit/--no-joker-limit."""
    f = click.option("--joker-limit/--no-joker-limit", default=True, show_default=True,
                     help="At most as many jokers as natural cards in a combination.")(f)
    f = click.option("--jokers-per-deck", type=int, default=2, show_default=True,
                     help="Jokers in each deck.")(f)
    f = click.option("--decks", type=int, default=2, show_default=True,
                     help="52-card decks in the pack.")(f)
    return f


def limit_options(node_help: str):
    """--node-limit, --time-limit, --table-mb (None: the analysis's default)."""
    def wrap(f):
        f = click.option("--table-mb", type=float, default=None,
                         help="Table memory in MiB (the searches here keep no table; checked, then unused).")(f)
        f = click.option("--time-limit", type=float, default=None,
                         help="Stop with 'unknown' after this many seconds (default: none).")(f)
        f = click.option("--node-limit", type=int, default=None, help=node_help)(f)
        return f
    return wrap


def answer(result, seed) -> dict:
    """An exact answer's JSON object: the context keys, then the Result's."""
    out = dict(CONTEXT, seed=seed)
    out.update(result.to_dict())
    return out


@click.group(name="continental", invoke_without_command=True)
@JSON
@click.pass_context
def continental(ctx, as_json):
    """Continental rummy: contracts, deficiency, odds and play-outs."""
    refuse_group_options(ctx, json=as_json)
    if ctx.invoked_subcommand is not None:
        return
    if as_json:
        from solver.games import analyses, policy_names
        emit_json(dict(CONTEXT, seed=None, commands=list(ctx.command.commands),
                       analyses=[a.name for a in analyses("continental")],
                       policies=policy_names("continental")))
    else:
        click.echo(ctx.get_help())


@continental.command()
@click.argument("cards", nargs=-1)
@click.option("--seed", type=SEED, default=None, help="Analyse the hand of deal SEED instead of CARDS.")
@click.option("--round", "round_number", type=ROUND, required=True, help="Round 1-7.")
@limit_options(f"Nodes each search may visit (default {DEFAULT_NODE_LIMIT:,}); past it: unknown.")
@pack_options
@JSON
def hand(cards, seed, round_number, node_limit, time_limit, table_mb, decks, jokers_per_deck,
         joker_limit, as_json):
    """Does a hand meet round R's contract?  Arrangement, points left, deficiency, outs.

    CARDS is one quoted string or several words: "As 2s 3s 4s Kh Kd X"; or give
    --seed N for the hand of deal N (as `deal` and `odds` deal it).  The verdict
    is won (meets, with the fewest-points arrangement), lost (does not, with the
    exact deficiency) or unknown (a limit stopped a search).
    """
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    if bool(cards) == (seed is not None):
        raise InputError("give the hand's CARDS or --seed N, one of the two")
    limits = Limits(node_limit, time_limit, table_mb).or_defaults(**DEFAULT_LIMITS.to_dict())
    if seed is not None:
        h = hand_from_cards(deal_hand(seed, get_round(round_number).cards, pack=pack))
    else:
        h = parse_hand(" ".join(cards), pack=pack)
    result = analyse_hand(h, round_number, pack=pack, joker_limit=joker_limit, limits=limits)
    if as_json:
        emit_json(answer(result, seed))
    else:
        click.echo(hand_text(result))


@continental.command()
@click.option("--round", "round_number", type=ROUND, required=True, help="Round 1-7.")
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Monte Carlo deals (deal numbers SEED .. SEED+N-1).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First deal number.")
@click.option("--method", type=click.Choice(["auto", "exact", "monte-carlo"]), default="auto",
              show_default=True, help="auto: exact where the pack is supported, else Monte Carlo.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Threads for Monte Carlo.")
@click.option("--max-deficiency", type=click.IntRange(min=0), default=None,
              help="Exact: count only hands of deficiency <= D, the rest lumped "
                   "(default: all; round 6: 0-4 one bound at a time, 6 and more from the top, "
                   "5 by difference).")
@click.option("--count-above", type=click.IntRange(min=0), default=None,
              help="Exact, with a deficiency bound: also count one by one every hand of deficiency "
                   "above K (one pass from the top), lumping only the deficiencies between "
                   "(default: round 6 above 5, the others none; K = D + 1 counts the one "
                   "deficiency between as the total less the others).")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr for the exact count (default: when stderr is a terminal).")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Draw the deficiency distribution to this image (.png, .svg, ...).")
@click.option("--with", "others", type=click.Path(exists=True, dir_okay=False), multiple=True,
              help="Also draw the rounds of these `odds --json` outputs (repeatable).")
@pack_options
@JSON
def odds(round_number, deals, seed, method, workers, max_deficiency, count_above, progress, plot_file, others,
         decks, jokers_per_deck, joker_limit, as_json):
    """P(a dealt hand meets round R's contract) and the deficiency distribution.

    Exact (every hand of the pack counted, P as a fraction) for every round at
    the default pack; rounds 5 and 6 only at 2 decks of at most 2 jokers
    (--method exact refuses other packs there; auto falls back to Monte Carlo).
    Round 6 counts the hands of deficiency 0 to 4 one bound at a time and, from
    the top, those of 6 and more; 5 is the total less the others, so every
    deficiency is exact (--max-deficiency D counts 0..D and lumps the rest).
    """
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    with progress_bar(progress, desc=f"round {round_number}", unit="step") as tick:
        result = run_odds(round_number, deals=deals, seed=seed, pack=pack, joker_limit=joker_limit,
                          method=method, workers=workers, max_deficiency=max_deficiency,
                          count_above=count_above, progress=tick)
    if plot_file is not None:
        from solver.plot import deficiency_by_round
        drawn = [result]
        for name in others:
            try:
                drawn.append(json.loads(read_text_file(name)))
                drawn[-1]["counts"].items()
            except (ValueError, KeyError, TypeError, AttributeError):
                raise InputError(f"{name}: not the output of `solve continental odds --json`") from None
        deficiency_by_round(drawn, plot_file)
    elif others:
        raise InputError("--with needs --plot FILE")
    if as_json:
        emit_json(result)
    else:
        click.echo(odds_text(result))
        if result["p_fraction"] is not None:
            click.echo(f"P(meets) exactly: {result['p_fraction']} ({result['counts'].get('0', 0)} of "
                       f"{result['deals']} hands)")


@continental.command()
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@click.option("--round", "round_number", type=ROUND, default=7, show_default=True, help="Round 1-7.")
@limit_options("Nodes the deficiency search may visit (default: no limit); past it: unknown.")
@pack_options
@JSON
def deal(seed, round_number, node_limit, time_limit, table_mb, decks, jokers_per_deck, joker_limit, as_json):
    """The hand of deal SEED for round R (as odds deals it) and its deficiency
    (the `deal` analysis: won if it meets the contract, lost if not)."""
    limits = Limits(node_limit, time_limit, table_mb)
    result = run_deal(seed, game=None, limits=limits, round=round_number, decks=decks,
                      jokers_per_deck=jokers_per_deck, joker_limit=joker_limit)
    if as_json:
        emit_json(answer(result, seed))
        return
    d = result.fields["deficiency"]
    tail = f"unknown ({LIMIT_WORDS[result.limit]})" if d is None else str(d)
    click.echo(f"{' '.join(result.fields['hand'])}\ndeficiency: {tail}")


def _moves_text(moves, moves_file):
    """Moves in notation from --moves and/or a file: words separated by blanks;
    move numbers such as ``12.`` are skipped; a JSON object's ``line`` is read
    (the output of `play --json`)."""
    text = " ".join(m for m in (moves or "",) if m)
    if moves_file is not None:
        raw = read_text_file(moves_file) if moves_file != "-" else click.get_text_stream("stdin").read()
        stripped = raw.strip()
        if stripped.startswith("{"):
            try:
                line = json.loads(stripped).get("line")
            except (ValueError, AttributeError):
                raise InputError(f"{moves_file}: not a JSON object with a 'line'") from None
            if not isinstance(line, list) or not all(isinstance(m, str) for m in line):
                raise InputError(f"{moves_file}: 'line' must be a list of moves")
            raw = " ".join(line)
        text = f"{text} {raw}"
    return [w for w in text.split() if not (w.endswith(".") and w[:-1].isdigit())]


def state_json(state, seed, picture) -> dict:
    st = state.round
    terminal = state.is_terminal()
    return dict(CONTEXT, seed=seed, picture=picture, svg=None, players=state.game.players,
                round=st.number, phase=st.phase, to_move=None if terminal else st.current_player(),
                hands=[[format_card(c) for c in hand_cards(p.hand)] for p in st.players],
                down=[p.down for p in st.players], totals=list(state.totals),
                discard=format_card(st.discard[-1]) if st.discard else None, stock=len(st.stock),
                melds=[{"kind": m.kind, "cards": [format_card(c) for c in m.cards], "owner": m.owner}
                       for m in st.melds],
                legal=[state.format_move(m) for m in state.legal_moves()],
                terminal=terminal, winner=state.winner())


@continental.command()
@click.option("--seed", type=SEED, default=1, show_default=True, help="Game number.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True, help="Seats at the table.")
@click.option("--moves", default=None, metavar="MOVES", help="Moves to play first, e.g. 'pass claim 7h'.")
@click.option("--moves-file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="A file of moves (or the JSON of `play --json`); '-' reads stdin.")
@click.option("--hand", "hand_cards_text", default=None, metavar="CARDS",
              help="Draw this hand instead (with --round): sorted, its best arrangement grouped.")
@click.option("--round", "round_number", type=ROUND, default=None, help="With --hand: the round 1-7.")
@pictures.svg_option
@JSON
def show(seed, players, moves, moves_file, hand_cards_text, round_number, svg_path, as_json):
    """Game SEED after MOVES: each seat's hand sorted by suit and rank, its best
    arrangement's melds grouped, the points left or the deficiency beside it;
    the table, the moves there are.  Or one --hand for a --round."""
    from solver.continental import render
    pictures.check_outputs(as_json=as_json, svg_path=svg_path)
    if (hand_cards_text is None) != (round_number is None):
        raise InputError("--hand and --round go together")
    if hand_cards_text is not None:
        if moves or moves_file:
            raise InputError("--moves belong to a game, not to a --hand")
        h = parse_hand(hand_cards_text)
        check_round_hand(h, round_number, Pack())
        pictures.write(svg_path, render.hand_svg(h, round_number))
        picture = render.hand_picture(h, round_number)
        if as_json:
            result = render.hand_analysis(h, round_number, pack=Pack())
            emit_json(dict(CONTEXT, seed=None, picture=picture, svg=svg_path, round=round_number,
                           hand=[format_card(c) for c in hand_cards(h)], verdict=result.verdict,
                           melds=result.fields["melds"], points_left=result.fields["points_left"],
                           deficiency=result.fields["deficiency"]))
        elif not pictures.to_stdout(svg_path, None):
            click.echo(render.hand_picture(h, round_number, colour=pictures.colour()))
            pictures.wrote(svg_path, "SVG")
        return
    game = Continental(players=players)
    state = check_moves(game.new_initial_state(seed), _moves_text(moves, moves_file))
    pictures.write(svg_path, render.svg(state))
    if as_json:
        emit_json(dict(state_json(state, seed, render.text(state)), svg=svg_path))
    elif not pictures.to_stdout(svg_path, None):
        click.echo(render.text(state, colour=pictures.colour()))
        if not state.is_terminal():
            click.echo("moves: " + " ".join(state.format_move(m) for m in state.legal_moves()))
        pictures.wrote(svg_path, "SVG")


@continental.command()
@click.argument("moves_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--seed", type=SEED, required=True, help="Game number.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True, help="Seats at the table.")
@JSON
@click.pass_context
def verify(ctx, moves_file, seed, players, as_json):
    """Replay a game record (moves in notation, or `play --json` output): exit 0 if
    every move is legal, 1 at the first illegal one."""
    words = _moves_text(None, moves_file)
    state = Continental(players=players).new_initial_state(seed)
    error = None
    played = 0
    for text in words:
        try:
            state.apply(state.parse_move(text))
        except InputError as exc:
            error = f"move {played + 1} ({text[:40]}): {exc}"
            break
        played += 1
    out = dict(CONTEXT, seed=seed, valid=error is None, moves_played=played, error=error,
               finished=state.is_terminal(), totals=list(state.totals), winner=state.winner())
    if as_json:
        emit_json(out)
    elif error is None:
        status = "finished" if state.is_terminal() else "not finished"
        click.echo(f"valid: {played} moves, game {status}; totals {state.totals}")
    else:
        click.echo(f"invalid: {error}")
    ctx.exit(0 if error is None else 1)


add_play_command(continental, "continental")
