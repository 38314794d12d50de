"""Continental: contracts, deficiency, odds and play-outs (rules/continental.md).

notation (cards, packs, hands), rules (rounds, melds, deals), deficiency (the
reference search), arrange (best arrangement), search (hand analysis over the
compiled kernel), analysis (odds, batch entry point), play (whole games),
render (text), sample (random hands by seeded play).
"""
