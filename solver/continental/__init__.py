"""Continental: contracts, deficiency, odds and play-outs (rules/continental.md).

notation (cards, packs, hands), rules (rounds, melds, deals), deficiency (the
reference search), arrange (best arrangement), search (hand analysis over the
compiled kernel, under Limits), analysis and exact (odds), round (one round in
play), layoff (laying off), game (the seven-round Game and State of the
contract), policies (greedy), contract (the registry entry: analyses ``deal``
and ``hand``), render (text), sample (random hands by seeded play).
"""
