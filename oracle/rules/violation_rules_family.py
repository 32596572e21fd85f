"""The violation rules of the family's other games (Modern American Canasta's ranks, dead cards, restricted
discards, wild-card melds and the partner's question), kept apart from the classic registry they extend."""

from __future__ import annotations

from oracle.rules.violation_types import Code, Rule

FAMILY_RULES = (
    Rule(
        Code.MELD_WILDS_NEED_BASE,
        "melds.wilds_after_opening_min_naturals",
        "After the side's initial meld, a wild card may join only a meld that holds enough natural cards.",
        "after the side's initial meld a wild card may join only a meld of at least {min} natural cards; this one"
        " would hold {naturals}: {meld}",
    ),
    Rule(
        Code.WILD_MELD_OPEN,
        "melds.open_wild_meld_blocks_wilds",
        "While the side's meld of wild cards is short of a canasta, no wild card may join its other melds.",
        "the side's meld of wild cards {wild_meld} is not yet a canasta, so no wild card may join another meld: {meld}",
    ),
    Rule(
        Code.MELD_RANK_DEAD,
        "discard_pile.closed_rank_dead",
        "A rank in which either side has a canasta is dead: no side may start or add to a meld of it.",
        "{meld} would be a meld of {rank}, which are dead (side {side} has a canasta of them): no meld of them may"
        " be started or added to",
    ),
    Rule(
        Code.PILE_TOP_DEAD,
        "discard_pile.closed_rank_dead",
        "The pile cannot be taken with a card of a dead rank on top.",
        "the top card {top} is dead (side {side} has a canasta of {rank}): the pile cannot be taken with it",
    ),
    Rule(
        Code.DISCARD_RESTRICTED,
        "discard_pile",
        "Some cards may be discarded only when the hand holds no other card that may be.",
        "{card} may not be discarded onto an empty pile ({why}) while the hand holds {others}",
        {"wild": "{card} may be discarded only when the hand holds nothing else that may be; it holds {others}"},
    ),
    Rule(
        Code.INITIAL_MELD_NEEDS_NATURAL_MELD,
        "initial_meld.natural_meld_required",
        "The side's initial meld must include a meld of natural cards alone.",
        "the side's initial meld must include a meld of at least {count} natural cards and no wild card; {melds}"
        " has none",
        {
            "pile": "the side's initial meld must include a meld of at least {count} natural cards and no wild card"
            " besides the pile's top card (initial_meld.pile_top_counts); {melds} has none",
        },
    ),
    Rule(
        Code.INITIAL_MELD_MIXED_CANASTA,
        "initial_meld.no_mixed_canasta",
        "The side's initial meld may not make a mixed canasta.",
        "the side's initial meld may not make a mixed canasta, as {meld} would",
    ),
    Rule(
        Code.GO_OUT_WITH_UNFINISHED_MELD,
        "going_out.unfinished_special_meld_blocks",
        "A side may not go out while it has a meld that costs points unfinished (sevens, aces, wild cards).",
        "the side may not go out while its meld {meld} is short of a canasta",
    ),
    Rule(
        Code.ASK_LIMIT_REACHED,
        "going_out.ask_partner_max_per_hand",
        "A side may ask the partner only so many times a hand.",
        "the side has asked {asks} time(s) this hand; the limit is {limit}",
    ),
)
