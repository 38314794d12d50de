"""The goal tree, pure Python (twin of ``cext/spectrum_goaltree.pxi``).

A node stands for one conversion history: its three goals, its bags and its
generator state, so the future draws are exact.
"""
from __future__ import annotations

from typing import Dict, List

from solver.rng import SplitMix64


class GoalTreeRef:
    """Goals along every conversion history (node 0 = the given goals)."""

    def __init__(self, goals, bags, rng_state: int) -> None:
        self.goals: List[list] = [list(tuple(g) for g in goals)]
        self.bags: List[list] = [[list(b) for b in bags]]
        self.rng: List[int] = [rng_state]
        self.children: List[Dict[int, int]] = [{}]

    def child(self, node: int, slot: int) -> int:
        if slot not in self.children[node]:
            goals = list(self.goals[node])
            bags = [list(b) for b in self.bags[node]]
            for s in range(3):
                bags[s].append(goals[slot][s])
            rng = SplitMix64(0)
            rng.state = self.rng[node]
            goals[slot] = tuple(bags[s].pop(rng.below(len(bags[s]))) for s in range(3))
            self.goals.append(goals)
            self.bags.append(bags)
            self.rng.append(rng.state)
            self.children.append({})
            self.children[node][slot] = len(self.goals) - 1
        return self.children[node][slot]
