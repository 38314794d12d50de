"""Drives the compiled searches: verdicts, limits, plans checked by the reference.

``min_turns``/``solve_seed`` find the solitaire's minimum turns with IDA*
(``solver.cext.spectrum``):
the lower bound is admissible, so when bound ``t`` yields a win after every
bound below ``t`` was searched to exhaustion, ``t`` is the proven minimum.
``reach`` answers a reachability question by breadth-first search; it says
``lost`` (unreachable) only when every reachable position was visited.  Both
answer a :class:`solver.game.Result` and honour :class:`solver.game.Limits`
(nodes, time, table memory); a limit hit gives ``unknown`` with the limit
named, never a guess.  Every plan is replayed
on the reference rules (rules.py) before it is reported.
"""
from __future__ import annotations

import re
import time
from typing import List, Optional, Sequence

from solver.cext import spectrum as fast
from solver.errors import InputError
from solver.game import Limits, Result
from solver.rng import check_seed
from solver.spectrum.notation import (
    Goal, format_direction, format_goals, format_stash, parse_direction, parse_goals,
    parse_stash, stash_value,
)
from solver.spectrum.rules import Game, Move, State

DEFAULT_LIMITS = Limits(node_limit=100_000_000, time_limit=60.0, table_mb=192.0)
"""min-turns: the 60 s limit binds first (~1.5M nodes/s); 192 MiB are the
2**20-entry tables (128 MiB at their peak) and the goal tree (a quarter)."""
REACH_LIMITS = Limits(node_limit=2_000_000, time_limit=60.0, table_mb=256.0)
"""reach: 2M stored positions (72 B each at most, 137 MiB), 60 s."""

TT_ENTRY_BYTES = 32       # sizeof(TTEntry) in cext/spectrum_ida.pxi
TREE_NODE_BYTES = 72      # sizeof(TNode) in cext/spectrum_goaltree.pxi
BFS_STATE_BYTES = 72      # a QItem (40 B) and up to 4 hash slots of 8 B per stored state
MAX_TREE_NODES = 1 << 20  # the goal tree's own cap (it never nears it in practice)
KERNEL_LIMITS = {"nodes": "nodes", "seconds": "time", "turns": "memory", "goal-tree": "memory",
                 "states": "nodes"}
"""The kernel's limit names as the contract's: a plan longer than the kernel's
fixed path arrays and a full goal tree are memory bounds."""


def table_bits(table_mb: float) -> Optional[int]:
    """log2 of the transposition table's entries for a budget of ``table_mb`` MiB,
    or None if even the smallest table (2**4 entries) does not fit.

    Three quarters of the budget go to the tables: the table (2**bits entries),
    the cache of static cuts (up to 2**(bits+1)) and the old cache while it
    doubles (2**bits), 32 bytes an entry: 128 B x 2**bits at the peak.  The
    other quarter bounds the goal tree (:func:`tree_limit`).

    >>> table_bits(192), table_bits(1), table_bits(0.001)
    (20, 12, None)
    """
    entries = table_mb * 0.75 * 2 ** 20 / (4 * TT_ENTRY_BYTES)
    if entries < 16:
        return None
    return min(28, int(entries).bit_length() - 1)


def tree_limit(table_mb: float) -> int:
    """Goal-tree nodes that fit in a quarter of ``table_mb`` MiB (with the
    doubling realloc's old copy), at most 2**20."""
    return max(16, min(MAX_TREE_NODES, int(table_mb * 0.25 * 2 ** 20 / (1.5 * TREE_NODE_BYTES))))


def tree_for(state: State, *, limit: int = MAX_TREE_NODES) -> "fast.GoalTree":
    """The compiled goal tree rooted at a state's goals, bags and generator
    (at most ``limit`` nodes)."""
    return fast.GoalTree(state.goals, state.bags, state.rng.state, limit)


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


def _limits(limits: Optional[Limits], defaults: Limits) -> Limits:
    return (limits or Limits()).or_defaults(**defaults.to_dict())


def min_turns(state: State, *, limits: Optional[Limits] = None) -> Result:
    """Minimum turns for the player to move to win alone from ``state``: a
    Result whose ``line`` is the plan and whose fields are always
    ``turns``, ``lower_bound``, ``goals``, ``proof``, ``iterations`` (None or
    empty where they do not apply).

    ``verdict`` is ``won`` (``turns`` proven minimal), ``lost`` (no win at all:
    every line searched) or ``unknown`` with the limit that stopped it:
    ``nodes`` (``node_limit``), ``time`` (``time_limit``, CPU seconds) or
    ``memory`` (``table_mb`` bounds the tables and the goal tree, see
    :func:`table_bits`; a plan longer than the kernel's path arrays also
    counts as memory).  ``lower_bound`` is then the bound being searched:
    every smaller one was exhausted, so the minimum is at least that.

    >>> r = min_turns(Game(1, 10).new_state())
    >>> r.verdict, r.fields["turns"], len(r.line)
    ('won', 7, 7)
    >>> r = min_turns(Game(1, 27).new_state(), limits=Limits(node_limit=1000))
    >>> r.verdict, r.limit, r.fields["turns"], r.fields["lower_bound"] <= 11
    ('unknown', 'nodes', None, True)
    """
    lim = _limits(limits, DEFAULT_LIMITS)
    t0 = time.perf_counter()
    fields = {"turns": None, "lower_bound": None, "goals": format_goals(state.goals),
              "proof": None, "iterations": []}
    bits = table_bits(lim.table_mb)
    if bits is None:
        return Result("unknown", limit="memory", seconds=time.perf_counter() - t0, fields=fields)
    raw = fast.ida_min_turns(state.stashes[state.to_move], state.direction,
                             tree_for(state, limit=tree_limit(lim.table_mb)),
                             max_nodes=lim.node_limit, max_seconds=lim.time_limit,
                             max_turns=MAX_PLAN_TURNS, tt_bits=bits)
    first = dict(raw.get("first_pass", []))
    fields["iterations"] = [{"bound": b, "nodes": n, "nodes_without_upconversions": first.get(b)}
                            for b, n in raw.get("bounds", [])]
    line: List[str] = []
    if raw["status"] == "found":
        plan = replay(state, raw["plan"])
        if plan and plan[-1]["value"] > 6:
            raise AssertionError("the compiled plan does not win under the reference rules")
        line = [t["move"] for t in plan]
        fields.update(turns=raw["turns"], lower_bound=raw["turns"],
                      proof=(f"IDA* with an admissible lower bound: every bound below "
                             f"{raw['turns']} searched to exhaustion"))
        verdict, limit = "won", None
    elif raw["status"] == "exhausted":
        fields["proof"] = "every line searched: no win"
        verdict, limit = "lost", None
    else:
        fields["lower_bound"] = raw.get("lower_bound")
        verdict, limit = "unknown", KERNEL_LIMITS[raw["limit"]]
    return Result(verdict, limit=limit, nodes=raw["nodes"], seconds=time.perf_counter() - t0,
                  line=line, fields=fields)


MAX_PLAN_TURNS = 40
"""The longest plan IDA* looks for (minimum plans from a seeded start take 6-11
turns); a longer one would be reported ``unknown`` (memory)."""


def first_move_of_plan(state: State, *, node_limit: int, time_limit: float):
    """The first move of the mover's minimum-turn plan (or None if the search
    found none within its limits) and the nodes searched.

    For play-outs: the plan assumes the other players stand still, which a
    real multiplayer game does not honour, so only its first move is used
    (and the game's own rules still check that move).
    """
    raw = fast.ida_min_turns(state.stashes[state.to_move], state.direction, tree_for(state),
                             max_nodes=node_limit, max_seconds=time_limit,
                             max_turns=MAX_PLAN_TURNS, tt_bits=table_bits(DEFAULT_LIMITS.table_mb))
    if raw["status"] != "found" or not raw["plan"]:
        return None, raw["nodes"]
    return Move.from_code(raw["plan"][0]), raw["nodes"]


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


def solve_seed(seed: int, *, limits: Optional[Limits] = None) -> Result:
    """The solitaire from seed ``seed``: minimum turns, the plan, the proof
    (:func:`min_turns` on the seeded start)."""
    check_seed(seed)
    return min_turns(Game(1, seed).new_state(), limits=limits)


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


REACH_FIRST_ROUND = 20_000


def reach(stash: str, goals: str, direction: str, target: str, *, seed: int = 0,
          limits: Optional[Limits] = None) -> Result:
    """Can the solitaire player get from ``stash`` to ``target`` (a stash or a
    condition such as ``value<=6``), and in how few turns?

    ``verdict`` is ``won`` (reachable: ``turns`` is the fewest, ``line`` the
    plan), ``lost`` (unreachable, proven by visiting every reachable
    position) or ``unknown`` with the limit that stopped the search; the
    field ``reachable`` is True, False or None alike.  Future goals come from
    bags holding every colour not on display, in index order, drawn by
    SplitMix64(``seed``).  The game ends at a win (value 6 or less), so a
    position past a win is not expanded.

    Breadth-first search; its nodes are the positions it stores, summed over
    its rounds (the kernel itself has no clock, so time is checked between
    rounds).  The first round stores at most 20 000 positions; if that cap
    stops it, the next round gets the largest cap every limit allows: the
    nodes left of ``node_limit``, the positions that fit in three quarters
    of ``table_mb`` (72 B each; the goal tree has the last quarter) and those
    the last round's rate says should be stored within 80 % of the time
    left (CPU seconds, as the kernels' clocks).  When no larger cap fits, the answer is ``unknown`` naming the
    limit that allowed the least.

    >>> r = reach("red:M orange:SL", "orange/red/yellow lime/green/teal cyan/blue/purple",
    ...           "cw", "red:M orange:S yellow:SM")
    >>> r.verdict, r.line, r.fields["reachable"]
    ('won', ['exchange L:orange -> S:yellow M:yellow'], True)
    """
    check_seed(seed)
    lim = _limits(limits, REACH_LIMITS)
    state = State.custom(parse_stash(stash), parse_goals(goals), parse_direction(direction),
                         seed=seed)
    kind, what = parse_target(target)
    kw = {"target": list(what)} if kind == "stash" else {"value_min": what[0], "value_max": what[1]}
    fields = {"stash": format_stash(state.stashes[0]), "goals": format_goals(state.goals),
              "direction": format_direction(state.direction),
              "target": format_stash(what) if kind == "stash" else target.replace(" ", ""),
              "reachable": None, "turns": None, "states": 0, "proof": None}
    mem_cap = max(1, int(lim.table_mb * 0.75 * 2 ** 20 / BFS_STATE_BYTES))
    t0, c0 = time.perf_counter(), time.process_time()
    cap = min(REACH_FIRST_ROUND, mem_cap, lim.node_limit)
    done, stop = 0, None
    while True:
        r0 = time.process_time()
        tree = tree_for(state, limit=tree_limit(lim.table_mb))
        raw = fast.bfs_reach(state.stashes[0], state.direction, tree, max_states=cap,
                             max_turns=1 << 30, **kw)
        done += raw["states"]
        fields["states"] = raw["states"]
        if raw["status"] != "limit":
            break
        if raw["limit"] != "states":
            stop = KERNEL_LIMITS[raw["limit"]]
            break
        # the round stopped at its cap: run a larger one if every limit allows it
        remaining = lim.time_limit - (time.process_time() - c0)
        rate = raw["states"] / max(time.process_time() - r0, 1e-6)
        caps = {"nodes": lim.node_limit - done, "memory": mem_cap,
                "time": int(0.8 * rate * remaining)}
        binding = min(caps, key=caps.get)
        if caps[binding] <= cap:
            stop = binding
            break
        cap = caps[binding]
    seconds = time.perf_counter() - t0
    if raw["status"] == "found":
        plan = replay(state, raw["plan"])
        fields.update(reachable=True, turns=raw["turns"],
                      proof="breadth-first: no shorter line reaches it")
        return Result("won", nodes=done, seconds=seconds, line=[t["move"] for t in plan],
                      fields=fields)
    if raw["status"] == "exhausted":
        fields.update(reachable=False,
                      proof=f"exhaustion: all {raw['states']} reachable positions visited")
        return Result("lost", nodes=done, seconds=seconds, fields=fields)
    return Result("unknown", limit=stop, nodes=done, seconds=seconds, fields=fields)


__all__ = ["solve_seed", "min_turns", "reach", "replay", "parse_target", "tree_for",
           "first_move_of_plan", "closest_move", "table_bits", "tree_limit", "DEFAULT_LIMITS",
           "REACH_LIMITS", "Goal"]
