"""The properties every rule set must have, one sentence each, and checking them all against a rule set's model.

Each property's proof is a function of property_melds (melds and canastas),
property_play (scoring, the minimum meld, the pile, going out),
property_formation (sides formed during the hand, the end of the stock),
property_family (the Modern American Canasta fields), property_runs (the Samba
fields) or property_foot (the Hand and Foot fields), built on proving (prove, exists, all_of); a failure's detail is the
counterexample in words, and a proof that runs out of its solver budget is
reported as not proved with the limit named. A property about a setting a
rule set does not have (sides formed during the hand under fixed sides) is
reported as not applicable, with the reason, never as proved. The properties of
the optional rules (the last of the table) are listed in properties_variants;
what a property is, in property_types.

Rule sets that agree on every field a proof reads share its outcome
(footprint.shared): each proof runs in a Z3 context of its own on a model of
its own, so its outcome, witness included, is a function of those fields.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence

from oracle.api.v1 import ruleset_pb2
from oracle.verify import property_foot, property_melds, property_play
from oracle.verify.footprint import shared
from oracle.verify.model import RuleModel
from oracle.verify.properties_variants import VARIANT_PROPERTIES
from oracle.verify.property_types import Property, PropertyResult
from oracle.verify.proving import Outcome

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
    *VARIANT_PROPERTIES,
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
