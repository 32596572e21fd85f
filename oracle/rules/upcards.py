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


def must_cover(rules: CompiledRules, upcards: Sequence[int]) -> bool:
    """The deal turns up another card on top of `upcards` (the cards turned up so far, the last on top)."""
    return is_covered_kind(rules, upcards[-1]) and (rules.deal.upcard_cover_repeats or len(upcards) == 1)
