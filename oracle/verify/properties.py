"""The properties every rule set must have, one sentence each, and checking them all against a rule set's model.

Each property's proof is a function of property_melds (melds and canastas),
property_play (scoring, the minimum meld, the pile, going out),
property_formation (sides formed during the hand, the end of the stock),
property_family (the Modern American Canasta fields), property_runs (the Samba
fields) or property_foot (the Hand and Foot fields), built on proving (prove, exists, all_of); a failure's detail is the
counterexample in words, and a proof that runs out of its solver budget is
reported as not proved with the limit named. A property about a setting a
rule set does not have (sides formed during the hand under fixed sides) is
reported as not applicable, with the reason, never as proved.

Rule sets that agree on every field a proof reads share its outcome
(footprint.shared): each proof runs in a Z3 context of its own on a model of
its own, so its outcome, witness included, is a function of those fields.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.verify import (
    property_family,
    property_foot,
    property_formation,
    property_melds,
    property_play,
    property_runs,
)
from oracle.verify.footprint import shared
from oracle.verify.model import RuleModel
from oracle.verify.proving import Outcome


@dataclass(frozen=True)
class Property:
    """A property: a stable id, one sentence, and the check that proves it for a rule set's model."""

    id: str
    sentence: str
    check: Callable[[RuleModel], Outcome]
    #: why the property does not apply to a rule set ("" when it does)
    not_applicable: Callable[[ruleset_pb2.RuleSet], str] = property_formation.always_applies


@dataclass(frozen=True)
class PropertyResult:
    """One property checked against one rule set."""

    property_id: str
    rule_set_id: str
    holds: bool
    detail: str
    ms: float
    applicable: bool = True  #: False: not checked, `detail` says why (holds is then True: nothing fails)


PROPERTIES: list[Property] = [
    Property(
        "meld-limits",
        "Every legal meld of a natural rank holds at least melds.min_size cards, at least"
        " melds.min_naturals naturals and at most melds.max_wilds wild cards.",
        property_melds.meld_limits,
    ),
    Property(
        "natural-meld-exists",
        "A meld of max(melds.min_size, melds.min_naturals) naturals of one rank and no"
        " wild card is legal and fits in the deck.",
        property_melds.natural_meld_exists,
    ),
    Property(
        "max-wilds-reachable",
        "Some legal meld holds exactly melds.max_wilds wild cards, so the limit is"
        " reachable under melds.wild_ratio, melds.max_size and the deck.",
        property_melds.max_wilds_reachable,
    ),
    Property(
        "natural-keeps-legal",
        "Adding a natural card to a legal meld keeps it legal unless it would pass melds.max_size.",
        property_melds.natural_keeps_legal,
    ),
    Property(
        "fewer-wilds-keep-legal",
        "Taking a wild card out of a legal meld keeps it legal while it still has melds.min_size cards.",
        property_melds.fewer_wilds_keep_legal,
    ),
    Property(
        "canasta-naturals",
        "Every canasta holds at least canastas.min_size - melds.max_wilds natural cards.",
        property_melds.canasta_naturals,
    ),
    Property(
        "canasta-mostly-natural",
        "In every canasta the natural cards outnumber the wild cards (the rule books'"
        " 'at least four naturals' under the classic limits).",
        property_melds.canasta_mostly_natural,
    ),
    Property(
        "canasta-reachable",
        "A legal meld of one rank can reach canastas.min_size cards within the deck's copies.",
        property_melds.canasta_reachable,
    ),
    Property(
        "natural-canasta-reachable",
        "canastas.min_size naturals of one rank, with no wild card, are a legal"
        " meld that the deck's copies of one rank can make.",
        property_melds.natural_canasta_reachable,
    ),
    Property(
        "natural-beats-mixed",
        "A natural canasta always scores more (bonus plus card points) than a mixed canasta of the same rank and size,"
        " a rank rule's canasta_bonus (melds.rank_rules) in place of canastas.natural_bonus for its rank.",
        property_melds.natural_beats_mixed,
    ),
    Property(
        "canasta-growth",
        "Adding a natural card to a canasta keeps it a legal canasta of the same kind and"
        " never lowers its bonus plus card points, unless it would pass melds.max_size.",
        property_melds.canasta_growth,
    ),
    Property(
        "black-threes-not-canasta",
        "A legal black-three meld never reaches canastas.min_size cards.",
        property_melds.black_threes_not_canasta,
    ),
    Property(
        "wilds-worth-most",
        "Every natural card is worth more than 0 and no more than a two, and a two no more than a joker.",
        property_play.wilds_worth_most,
    ),
    Property(
        "meld-points-positive", "Every legal meld is worth more than 0 card points.", property_play.meld_points_positive
    ),
    Property(
        "red-three-score",
        "A side's (under players.side_formation LONE_HAND a player's own) r red threes score"
        " r x threes.red_three_bonus, or"
        " threes.all_red_threes_bonus when r is every red three of the deck, negated for a side without a meld"
        " when threes.red_threes_negative_without_meld is set (for every red three, only"
        " r x threes.red_three_bonus unless threes.all_red_threes_negative_without_meld); with threes.count_values"
        " instead, the threes (black ones too as threes.black_three_role BONUS) score per colour the value of their"
        " count, plus from threes.plus_from_canastas canastas, nothing from threes.minus_below_canastas, minus below.",
        property_play.red_three_score,
    ),
    Property(
        "red-three-monotone",
        "Each further red three raises the score of a side that has melded, and lowers"
        " it for a side that has not when red threes are then negative.",
        property_play.red_three_monotone,
        lambda spec: (
            "threes score by count (threes.count_values): see threes-by-count"
            if spec.threes.count_values
            else property_foot.held_red_threes(spec)
        ),
    ),
    Property(
        "score-is-sum",
        "A side's hand score is the sum of its items: melded card points (never negative, but never positive for a"
        " side with fewer canastas than card_values.table_minus_below_canastas), canasta bonuses and the going-out"
        " bonus (never negative), the threes' score, minus the points left in hand, and the penalties for unfinished"
        " melds and ranks held (melds.rank_rules, canastas.wild_unfinished_penalty; never positive).",
        property_play.score_is_sum,
    ),
    Property(
        "going-out-pays",
        "Going out concealed earns at least as much as going out, which earns at least as much as not going out.",
        property_play.going_out_pays,
    ),
    Property(
        "score-bounds",
        "Every side's (under players.side_formation LONE_HAND every player's) hand score lies between the lowest"
        " and highest totals that its tables within the deck's counts reach (the rank rules', wild-card canastas',"
        " unfinished melds', ranks held and threes by count included; not the penalty for a 'yes' that could not"
        " be kept, going_out.cannot_go_out_after_yes_penalty, which the model does not count; red threes held and a"
        " foot never taken up count as cards in hand), each bound proved by an unsatisfiable 'beyond it' check"
        " (reported).",
        property_play.score_bounds,
    ),
    Property(
        "minimum-monotone",
        "The minimum-meld table gives one minimum for every running total, and it never"
        " decreases as the running total rises.",
        property_play.minimum_monotone,
        property_foot.by_hand,
    ),
    Property(
        "threshold-rows-apply",
        "Every row of initial_meld.thresholds is the row in force for some running total below game.target_score.",
        property_play.rows_apply,
        property_foot.by_hand,
    ),
    Property(
        "minimum-reachable",
        "At every threshold the minimum can be met by a legal initial meld from one"
        " turn's cards (deal.hand_size + turn.draw_count) within the deck, ending the turn legally, with the"
        " natural meld of initial_meld.natural_meld_required and no mixed canasta where initial_meld asks.",
        property_play.minimum_reachable,
        property_foot.by_hand,
    ),
    Property(
        "frozen-pair-takes",
        "A frozen pile whose top card is a natural can always be taken with a natural"
        " pair of its rank: the three naturals form a legal meld; unless discard_pile.closed_rank_dead closes its"
        " rank (a canasta of it on either side), which no pair overcomes.",
        property_play.frozen_pair_takes,
    ),
    Property(
        "frozen-needs-pair",
        "Every legal take of a frozen pile melds its top card with at least two natural"
        " cards of its rank from the hand.",
        property_play.frozen_needs_pair,
    ),
    Property(
        "natural-and-wild",
        "One natural and one wild from the hand take an unfrozen pile exactly when"
        " discard_pile.unfrozen_natural_and_wild is set.",
        property_play.natural_and_wild,
    ),
    Property(
        "go-out-needs-canastas",
        "No legal meld-and-discard leaves a player without cards while the side has"
        " fewer than going_out.canastas_required canastas.",
        property_play.go_out_needs_canastas,
    ),
    Property(
        "go-out-reachable",
        "A side can hold going_out.canastas_required legal canastas at once within the deck, so going out is possible.",
        property_play.go_out_reachable,
    ),
    Property(
        "keep-allows-discard",
        "A player without the side's canastas who melds as far as"
        " going_out.min_hand_after_meld_without_canastas allows can still discard without going out.",
        property_play.keep_allows_discard,
    ),
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


def _check(check: Callable[[RuleModel], Outcome], spec: ruleset_pb2.RuleSet) -> Outcome:
    return check(RuleModel(spec))


def check_properties(rm: RuleModel, properties: Sequence[Property] = PROPERTIES) -> list[PropertyResult]:
    """Check every property against one rule set's model, timing each."""
    results = []
    for prop in properties:
        reason = prop.not_applicable(rm.spec)
        if reason:
            results.append(PropertyResult(prop.id, rm.id, True, f"not applicable: {reason}", 0.0, applicable=False))
            continue
        start = time.perf_counter()
        # shared by the rule sets that agree on every field the proof reads (footprint), each proved in a Z3
        # context of its own: the same outcome, witness included, whichever rule set asked first
        outcome = shared(f"property:{prop.id}", rm.spec, functools.partial(_check, prop.check))
        results.append(
            PropertyResult(prop.id, rm.id, outcome.holds, outcome.detail, (time.perf_counter() - start) * 1000)
        )
    return results


__all__ = ["PROPERTIES", "Outcome", "Property", "PropertyResult", "check_properties"]
