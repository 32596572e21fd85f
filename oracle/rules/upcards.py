"""The first upcard: which cards the deal covers with another card, and when covering stops (deal.upcard_cover_*)."""

from __future__ import annotations

from collections.abc import Sequence

from oracle.model.cards import is_black_three, is_red_three, is_wild
from oracle.ruleset.compiled import CompiledRules


def is_covered_kind(rules: CompiledRules, card: int) -> bool:
    """The rule set covers an upcard of this kind (wild, red three or black three) with another card."""
    d = rules.deal
    return (
        (is_wild(card) and d.upcard_cover_wild)
        or (is_red_three(card) and d.upcard_cover_red_three)
        or (is_black_three(card) and d.upcard_cover_black_three)
    )


def turn_upcard(rules: CompiledRules, stock: list[int]) -> list[int]:
    """The first upcard and any turned over it, taken from `stock` (bottom to top, changed in place): covered as
    deal.upcard_cover_* say, or, under deal.upcard_reject_to_stock, each card of a covered kind put back at the
    stock's middle (index len(stock) // 2, PAGAT-HF's middle) and the next card turned, until one may start the pile
    (at most once per stock card, so a stock of nothing else ends with the last one turned)."""
    pile = [stock.pop()]
    if rules.deal.upcard_reject_to_stock:
        for _ in range(len(stock)):
            if not is_covered_kind(rules, pile[-1]):
                break
            stock.insert(len(stock) // 2, pile.pop())
            pile.append(stock.pop())
        return pile
    while stock and must_cover(rules, pile):
        pile.append(stock.pop())
    return pile


def must_cover(rules: CompiledRules, upcards: Sequence[int]) -> bool:
    """The deal turns up another card on top of `upcards` (the cards turned up so far, the last on top)."""
    return is_covered_kind(rules, upcards[-1]) and (rules.deal.upcard_cover_repeats or len(upcards) == 1)
