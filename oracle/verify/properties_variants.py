"""The properties of the rule sets' optional rules, each not applicable where its rule is not set (see properties).

The Modern American Canasta fields (property_family), sides formed during the hand and the end of the stock
(property_formation), the Samba fields (property_runs) and the Hand and Foot fields (property_foot); they
follow the general properties in properties.PROPERTIES, in this order.
"""

from __future__ import annotations

from oracle.verify import property_family, property_foot, property_formation, property_runs
from oracle.verify.property_types import Property

VARIANT_PROPERTIES: list[Property] = [
    Property(
        "threes-by-count",
        "The value threes.count_values gives a count of threes of one colour never falls as the count rises, and"
        " the threes' score is positive from threes.plus_from_canastas canastas, 0 from"
        " threes.minus_below_canastas, negative below.",
        property_family.threes_by_count,
        property_family.no_count_values,
    ),
    Property(
        "rank-rule-wilds",
        "A legal meld of a rank with a rank rule holds at most its max_wilds wild cards, or melds.max_wilds in the"
        " side's initial meld where wilds_in_initial_meld, and some legal meld reaches each limit.",
        property_family.rank_rule_wilds,
        property_family.no_rank_rules,
    ),
    Property(
        "rule-of-five",
        "melds.wilds_after_opening_min_naturals naturals and one wild card make a legal meld, and a meld a wild card"
        " may join after the opening can still become a canasta within melds.max_size.",
        property_family.rule_of_five,
        property_family.no_rule_of_five,
    ),
    Property(
        "natural-meld-required",
        "initial_meld.natural_meld_required naturals with no wild card make a legal meld that one turn's hand cards"
        " can lay alone, ending the turn legally.",
        property_family.natural_meld_required,
        property_family.no_natural_meld_required,
    ),
    Property(
        "dead-rank-reachable",
        "Under discard_pile.closed_rank_dead one side's canasta of a rank can leave enough naturals of it in the"
        " deck for another side to meld them or take the pile with them, so closing the rank to both sides (the"
        " engine cases) changes play.",
        property_family.dead_rank_reachable,
        property_family.no_dead_ranks,
    ),
    Property(
        "bonus-cards-fit",
        "Whenever bonus cards are owed the stock holds them all (more than bonus_cards.none_when_stock_at_most"
        " cards is at least the larger of first_side and later_side), and the deal leaves more than that.",
        property_family.bonus_cards_fit,
        property_family.no_bonus_cards,
    ),
    Property(
        "stock-end",
        "A draw phase with an empty stock is reached by play exactly when stock_exhaustion.after_last_card is"
        " PLAY_ON: the deal leaves a stock, and under ENDS_AFTER_DISCARD a turn that leaves the stock empty ends"
        " the hand.",
        property_formation.stock_end,
    ),
    Property(
        "formation-merge",
        "When sides form, two legal melds of one rank, one from each partner, become one meld holding every card"
        " of both that meets each meld rule except that it may hold up to twice melds.max_wilds wild cards, and"
        " a natural card joining it keeps it so unless it would pass melds.max_size.",
        property_formation.formation_merge,
        property_formation.not_lone_hand,
    ),
    Property(
        "partner-score",
        "Each partner's hand score is the partnership's items (its melds, canastas, going out and both partners'"
        " cards in hand) plus his own red-three score, so two partners' scores differ exactly by their red-three"
        " scores.",
        property_formation.partner_score,
        property_formation.not_lone_hand,
    ),
    Property(
        "lone-hand-score",
        "The lone hand's score is the score of his own melds, red threes, cards in hand and going out as a side of"
        " one, whatever the partners hold.",
        property_formation.lone_hand_score,
        property_formation.not_lone_hand,
    ),
    Property(
        "all-red-threes-one-owner",
        "threes.all_red_threes_bonus is earned by a player who laid every red three himself and never by partners"
        " who split them, whose red threes score threes.red_three_bonus each (negated as the partnership's meld"
        " decides).",
        property_formation.all_red_threes_one_owner,
        property_formation.not_lone_hand,
    ),
    Property(
        "run-limits",
        "Every legal run is one card each of consecutive ranks of one suit within runs.lowest_rank..highest_rank,"
        " between runs.min_size and runs.max_size cards, with no wild card.",
        property_runs.run_limits,
        property_runs.no_runs,
    ),
    Property(
        "run-canasta",
        "A run of runs.canasta_size cards scores runs.canasta_bonus and counts as a canasta, a shorter run earns no"
        " bonus, and no run grows past runs.max_size.",
        property_runs.run_canasta,
        property_runs.no_runs,
    ),
    Property(
        "run-canasta-reachable",
        "Some legal run of runs.canasta_size cards fits between runs.lowest_rank and runs.highest_rank.",
        property_runs.run_canasta_reachable,
        property_runs.no_runs,
    ),
    Property(
        "pile-top-run",
        "Under runs.pile_top_alone a take that puts the pile's top card onto a run uses no hand card in that run"
        " and needs a pile that is not frozen.",
        property_runs.pile_top_run,
        property_runs.no_pile_top_run,
    ),
    Property(
        "red-threes-need-canastas",
        "Under threes.canastas_for_red_threes a side's red-three items are negative exactly when it has red threes"
        " and fewer canastas than that field asks.",
        property_runs.red_threes_need_canastas,
        property_runs.no_red_three_canastas,
    ),
    Property(
        "combine",
        "Two legal melds of a rank combine into a legal meld exactly when their wild cards together stay within"
        " melds.max_wilds (and the cards within melds.max_size), and combining never lowers the canasta count"
        " unless both were canastas.",
        property_runs.combine,
        property_runs.no_combine,
    ),
    Property(
        "foot-pickup",
        "A player whose hand is emptied while the foot is untaken has the foot taken up before the next decision"
        " (at once under foot.continue_after_melding_out, else after the discard that empties the hand), and hand,"
        " foot, table, stock and pile together keep every card of the deck.",
        property_foot.foot_pickup,
        property_foot.no_foot,
    ),
    Property(
        "foot-go-out",
        "No hand ends by going out while the going-out player's foot is untaken, and going out from the foot stays"
        " possible.",
        property_foot.foot_go_out,
        property_foot.no_foot,
    ),
    Property(
        "book-quotas",
        "Going out needs going_out.natural_canastas_required natural and mixed_canastas_required mixed canastas,"
        " the two sum to going_out.canastas_required, and the deck can hold them at once.",
        property_foot.book_quotas,
        property_foot.no_quotas,
    ),
    Property(
        "minimum-by-hand",
        "Every value of initial_meld.minimum_by_hand can be reached by legal melds from a hand of deal.hand_size"
        " cards.",
        property_foot.minimum_by_hand,
        property_foot.no_minimum_by_hand,
    ),
    Property(
        "held-red-three-score",
        "Under threes.red_three_held no red three is laid and each one held costs card_values.red_three, and where"
        " red threes are laid none is held and they score as red-three-score says.",
        property_foot.held_red_three_score,
        property_foot.no_held_red_threes,
    ),
]


__all__ = ["VARIANT_PROPERTIES"]
