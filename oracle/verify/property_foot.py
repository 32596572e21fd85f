"""The proofs of the Hand and Foot properties (the foot, the book quotas, the minimum by hand, held red threes)."""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_foot as mf
from oracle.verify.hand import side_hand
from oracle.verify.model import RuleModel
from oracle.verify.proving import Outcome, all_of, exists, prove

# ----- when a property does not apply ------------------------------------------------------------------------


def no_foot(spec: ruleset_pb2.RuleSet) -> str:
    """Why the foot properties do not apply ("" when they do)."""
    return "" if spec.foot.size else "foot.size is 0: no player has a foot"


def no_quotas(spec: ruleset_pb2.RuleSet) -> str:
    """Why book-quotas does not apply."""
    if mf.has_quotas(spec):
        return ""
    return "going_out.natural_canastas_required and mixed_canastas_required are 0: any canastas count"


def no_minimum_by_hand(spec: ruleset_pb2.RuleSet) -> str:
    """Why minimum-by-hand does not apply."""
    return "" if spec.initial_meld.minimum_by_hand else "initial_meld.minimum_by_hand is empty: the thresholds decide"


def by_hand(spec: ruleset_pb2.RuleSet) -> str:
    """Why the running-total minimum properties do not apply: the hand's number decides (minimum-by-hand)."""
    if spec.initial_meld.minimum_by_hand:
        return "initial_meld.minimum_by_hand decides the minimum by the hand's number: see minimum-by-hand"
    return ""


def no_held_red_threes(spec: ruleset_pb2.RuleSet) -> str:
    """Why held-red-three-score does not apply."""
    if spec.threes.red_three_held or spec.card_values.red_three:
        return ""
    return "threes.red_three_held is false and card_values.red_three is 0: red threes are laid"


def held_red_threes(spec: ruleset_pb2.RuleSet) -> str:
    """Why red-three-monotone does not apply: no red three is ever laid."""
    if spec.threes.red_three_held:
        return "threes.red_three_held: no red three is laid, each one held costs points: see held-red-three-score"
    return ""


# ----- the proofs --------------------------------------------------------------------------------------------


def foot_pickup(rm: RuleModel) -> Outcome:
    t = mf.foot_turn(rm.spec, rm.required)
    claim = z3.And(
        z3.Not(z3.And(t.hand_after == 0, t.foot_after >= 1)), t.cards(True) == t.cards(False), t.hand_after >= 0
    )
    shown = [
        ("hand", t.hand),
        ("foot", t.foot),
        ("drawn", t.drawn),
        ("melded", t.melded),
        ("discards", t.discards),
        ("hand_after", t.hand_after),
        ("foot_after", t.foot_after),
    ]
    return prove(claim, t.constraints, shown)


def foot_go_out(rm: RuleModel) -> Outcome:
    t = mf.foot_turn(rm.spec, rm.required)
    shown = [("hand", t.hand), ("foot", t.foot), ("melded", t.melded), ("discards", t.discards)]
    ends = prove(z3.Implies(t.went_out, z3.And(t.foot == 0, t.foot_after == 0)), t.constraints, shown)
    # and going out stays possible once the foot is taken up (the proof above is not vacuous)
    reach = exists(
        z3.And(*t.constraints, t.went_out, t.canastas >= rm.required),
        shown,
        "no turn goes out once the foot is taken up",
    )
    return all_of([("never with the foot untaken", ends), ("possible from the foot", reach)])


def book_quotas(rm: RuleModel) -> Outcome:
    g = rm.spec.going_out
    natural, mixed = z3.Ints("natural_canastas mixed_canastas")
    going_out_ok = z3.And(natural + mixed >= rm.required, mf.books_ok(rm.spec, natural, mixed))
    needs = prove(
        z3.And(natural >= g.natural_canastas_required, mixed >= g.mixed_canastas_required),
        [natural >= 0, mixed >= 0, going_out_ok],
        [("natural", natural), ("mixed", mixed)],
    )
    total = g.natural_canastas_required + g.mixed_canastas_required
    sums = Outcome(
        total == g.canastas_required,
        "" if total == g.canastas_required else f"the quotas add up to {total}, not {g.canastas_required}",
    )
    melds = rm.melds_at_once("quotas")
    held = z3.Sum([z3.If(z3.And(m.size >= 1, rm.is_natural_canasta(m)), 1, 0) for _, m in melds.melds])
    reach = exists(
        z3.And(*melds.constraints, mf.books_ok(rm.spec, held, melds.canastas - held)),
        [("natural", held), ("canastas", melds.canastas)],
        "the deck cannot hold the natural and mixed canastas the quotas ask at once",
    )
    return all_of([("going out needs them", needs), ("they sum to canastas_required", sums), ("reachable", reach)])


def minimum_by_hand(rm: RuleModel) -> Outcome:
    hand_size = rm.spec.deal.hand_size
    melds = rm.melds_at_once("by_hand")
    outcomes = []
    for i, minimum in enumerate(rm.spec.initial_meld.minimum_by_hand):
        outcomes.append(
            (
                f"hand {i + 1}",
                exists(
                    z3.And(*melds.constraints, melds.cards <= hand_size, melds.points >= minimum),
                    [("points", melds.points), ("cards", melds.cards)],
                    f"no legal melds of at most deal.hand_size {hand_size} cards reach {minimum} points",
                ),
            )
        )
    return all_of(outcomes)


def held_red_three_score(rm: RuleModel) -> Outcome:
    hand, value = side_hand(rm, "side"), rm.spec.card_values.red_three
    shown = [("held", hand.hand_red_threes), ("laid", hand.red_threes), ("in_hand", hand.items["in_hand"])]
    if not mf.red_threes_held(rm.spec):  # laid: no red three is ever held, card_values.red_three never counts
        return prove(hand.hand_red_threes == 0, hand.constraints, shown)
    # the same table with one held red three less scores exactly card_values.red_three more
    claim = z3.And(
        hand.red_threes == 0,
        hand.items["red_threes"] == 0,
        z3.substitute(hand.items["in_hand"], (hand.hand_red_threes, hand.hand_red_threes - 1))
        == hand.items["in_hand"] + value,
    )
    return prove(claim, hand.constraints, shown)


__all__ = [
    "book_quotas",
    "by_hand",
    "foot_go_out",
    "foot_pickup",
    "held_red_three_score",
    "held_red_threes",
    "minimum_by_hand",
    "no_foot",
    "no_held_red_threes",
    "no_minimum_by_hand",
    "no_quotas",
]
