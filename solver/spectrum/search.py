"""Drives the compiled searches: verdicts, limits, plans checked by the reference.

``solve_seed`` finds the solitaire's minimum turns with IDA* (``solver.cext.spectrum``):
the lower bound is admissible, so when bound ``t`` yields a win after every
bound below ``t`` was searched to exhaustion, ``t`` is the proven minimum.
``reach`` answers a reachability question by breadth-first search; it says
``unreachable`` only when every reachable position was visited.  A limit hit
gives ``unknown`` with the limit named, never a guess.  Every plan is replayed
on the reference rules (rules.py) before it is reported.
"""
from __future__ import annotations

import re
import time
from typing import List, Optional, Sequence

from solver.cext import spectrum as fast
from solver.errors import InputError
from solver.rng import check_seed
from solver.spectrum.notation import (
    Goal, format_direction, format_goals, format_stash, parse_direction, parse_goals,
    parse_stash, stash_value,
)
from solver.spectrum.rules import Game, Move, State

DEFAULT_MAX_NODES = 100_000_000   # the 60 s time limit binds first (~1.5M nodes/s)
DEFAULT_MAX_SECONDS = 60.0
DEFAULT_TT_BITS = 20      # 2**20 entries of 24 bytes: 24 MB
DEFAULT_MAX_STATES = 2_000_000


def tree_for(state: State) -> "fast.GoalTree":
    """The compiled goal tree rooted at a state's goals, bags and generator."""
    return fast.GoalTree(state.goals, state.bags, state.rng.state)


def replay(state: State, codes: Sequence[int]) -> List[dict]:
    """Play move codes on a clone of ``state`` with the reference rules; one
    dict per turn (move text, stash after, value, direction, goals).

    The plan is the mover's alone (the search lets the other players stand
    still), so in a multiplayer state every move is played by that same seat.
    """
    st = state.clone()
    seat = st.to_move
    turns = []
    for code in codes:
        move = Move.from_code(code)
        st.to_move = seat
        st.apply(move)
        turns.append({"turn": st.turn, "move": str(move), "stash": format_stash(st.stashes[seat]),
                      "value": stash_value(st.stashes[seat]),
                      "direction": format_direction(st.direction), "goals": format_goals(st.goals)})
    return turns


def min_turns(state: State, *, max_nodes: int = DEFAULT_MAX_NODES,
              max_seconds: float = DEFAULT_MAX_SECONDS, max_turns: int = 40,
              tt_bits: int = DEFAULT_TT_BITS) -> dict:
    """Minimum turns for the player to move to win alone from ``state``."""
    t0 = time.perf_counter()
    raw = fast.ida_min_turns(state.stashes[state.to_move], state.direction, tree_for(state),
                             max_nodes=max_nodes, max_seconds=max_seconds,
                             max_turns=max_turns, tt_bits=tt_bits)
    first = dict(raw.get("first_pass", []))
    out = {"nodes": raw["nodes"], "seconds": round(time.perf_counter() - t0, 4),
           "iterations": [{"bound": b, "nodes": n, "nodes_without_upconversions": first.get(b)}
                          for b, n in raw.get("bounds", [])]}
    if raw["status"] == "found":
        plan = replay(state, raw["plan"])
        if plan and plan[-1]["value"] > 6:
            raise AssertionError("the compiled plan does not win under the reference rules")
        out.update(verdict="won", turns=raw["turns"], plan=[t["move"] for t in plan],
                   turns_detail=plan,
                   proof=(f"IDA* with an admissible lower bound: every bound below "
                          f"{raw['turns']} searched to exhaustion"))
    elif raw["status"] == "exhausted":
        out.update(verdict="lost", turns=None, plan=[], proof="every line searched: no win")
    else:
        out.update(verdict="unknown", turns=None, plan=[], limit=raw["limit"],
                   lower_bound=raw.get("lower_bound"))
    return out


def first_move_of_plan(state: State, *, max_nodes: int = DEFAULT_MAX_NODES,
                       max_seconds: float = DEFAULT_MAX_SECONDS) -> Optional[Move]:
    """The first move of the mover's minimum-turn plan, or None if the search
    found none within its limits.

    For play-outs: the plan assumes the other players stand still, which a
    real multiplayer game does not honour, so only its first move is used
    (and the game's own rules still check that move).
    """
    raw = fast.ida_min_turns(state.stashes[state.to_move], state.direction, tree_for(state),
                             max_nodes=max_nodes, max_seconds=max_seconds, max_turns=40,
                             tt_bits=DEFAULT_TT_BITS)
    if raw["status"] != "found" or not raw["plan"]:
        return None
    return Move.from_code(raw["plan"][0])


def closest_move(state: State) -> Optional[Move]:
    """The mover's move whose result has the least lower bound on the turns
    still needed (the first such in move order), or None if there is no move.

    The fallback of the ``solver`` play policy when its search runs over
    budget: a greedy step by the same admissible bound the search uses.
    """
    seat = state.to_move
    tree = tree_for(state)
    best = None
    for code, stash, direction, node, won in fast.successors(
            state.stashes[seat], state.direction, tree):
        h = 0 if won else fast.py_lower_bound(stash, direction, tree, node)
        if best is None or h < best[0]:
            best = (h, code)
    return None if best is None else Move.from_code(best[1])


def solve_seed(seed: int, **limits) -> dict:
    """The solitaire from seed ``seed``: minimum turns, the plan, the proof."""
    check_seed(seed)
    state = Game(1, seed).new_state()
    out = {"seed": seed, "goals": format_goals(state.goals)}
    out.update(min_turns(state, **limits))
    return out


_CONDITION = re.compile(r"^\s*value\s*(<=|<|==|=|>=|>)\s*(\d+)\s*$")


def parse_target(text: str):
    """``value<=6`` style conditions -> (value_min, value_max); else a stash."""
    m = _CONDITION.match(text) if isinstance(text, str) else None
    if not m:
        if isinstance(text, str) and text.strip().lower().startswith("value"):
            raise InputError(f"malformed condition {text!r} (expected e.g. value<=6)")
        return ("stash", parse_stash(text))
    op, n = m.group(1), int(m.group(2))
    lo, hi = {"<=": (-1, n), "<": (-1, n - 1), "==": (n, n), "=": (n, n),
              ">=": (n, -1), ">": (n + 1, -1)}[op]
    if hi == -1 and lo <= 0:
        lo = -1
    if op == "<" and n == 0:
        raise InputError("value<0 can never hold")
    return ("value", (lo, hi))


def reach(stash: str, goals: str, direction: str, target: str, *, seed: int = 0,
          max_states: int = DEFAULT_MAX_STATES, max_turns: int = 60) -> dict:
    """Can the solitaire player get from ``stash`` to ``target`` (a stash or a
    condition such as ``value<=6``), and in how few turns?

    Future goals come from bags holding every colour not on display, in
    index order, drawn by SplitMix64(``seed``).  The game ends at a win
    (value 6 or less), so a position past a win is not expanded.
    """
    check_seed(seed)
    state = State.custom(parse_stash(stash), parse_goals(goals), parse_direction(direction),
                         seed=seed)
    kind, what = parse_target(target)
    kw = {"target": list(what)} if kind == "stash" else {"value_min": what[0], "value_max": what[1]}
    t0 = time.perf_counter()
    raw = fast.bfs_reach(state.stashes[0], state.direction, tree_for(state),
                         max_states=max_states, max_turns=max_turns, **kw)
    out = {"stash": format_stash(state.stashes[0]), "goals": format_goals(state.goals),
           "direction": format_direction(state.direction),
           "target": format_stash(what) if kind == "stash" else target.replace(" ", ""),
           "states": raw["states"], "nodes": raw["states"],
           "seconds": round(time.perf_counter() - t0, 4)}
    if raw["status"] == "found":
        plan = replay(state, raw["plan"])
        out.update(verdict="reachable", turns=raw["turns"], plan=[t["move"] for t in plan],
                   turns_detail=plan, proof="breadth-first: no shorter line reaches it")
    elif raw["status"] == "exhausted":
        out.update(verdict="unreachable", turns=None, plan=[],
                   proof=f"exhaustion: all {raw['states']} reachable positions visited")
    else:
        out.update(verdict="unknown", turns=None, plan=[], limit=raw["limit"])
    return out


__all__ = ["solve_seed", "min_turns", "reach", "replay", "parse_target", "tree_for",
           "first_move_of_plan", "closest_move", "Goal"]
