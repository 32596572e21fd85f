"""The claims every side table must meet (its score is the sum of its items; its red threes score as the rules say).

Each is a condition on a side table (hand.side_hand) with the terms a counterexample shows. They read only the
side table's fields (hand.SIDE_FIELDS), so hand_read proves them on the solver of the table's score extremes,
which already holds the table's constraints (see hand_read.side_proof).
"""

from __future__ import annotations

import z3

from oracle.verify.hand import ITEMS, SideHand
from oracle.verify.model import Cond, Expr, RuleModel
from oracle.verify.proving import Shown


def score_is_sum(rm: RuleModel, hand: SideHand) -> tuple[Cond, Shown]:
    """The total is the sum of the items, each of the sign its kind has."""
    i = hand.items
    below = rm.spec.card_values.table_minus_below_canastas
    claim = z3.And(
        hand.total == z3.Sum([i[k] for k in ITEMS]),
        i["melded"] >= 0 if not below else z3.If(hand.canastas < below, i["melded"] <= 0, i["melded"] >= 0),
        i["canastas"] >= 0,
        i["going_out"] >= 0,
        i["in_hand"] <= 0,
        i["unfinished"] <= 0,
        i["held"] <= 0,
    )
    return claim, list(i.items())


def red_three_score(rm: RuleModel, hand: SideHand) -> tuple[Cond, Shown]:
    """The red threes' item is their bonus, all-red-threes bonus or penalty as the threes fields say."""
    t = rm.spec.threes
    if t.count_values:
        return _threes_by_count_score(rm, hand)
    count, melded = hand.red_threes, hand.meld_count >= 1
    base = z3.If(count == rm.red_three_copies, t.all_red_threes_bonus, count * t.red_three_bonus)
    lost = base if t.all_red_threes_negative_without_meld else count * t.red_three_bonus
    # threes.canastas_for_red_threes, when set, replaces "has a meld" by "has that many canastas"
    counted = hand.canastas >= t.canastas_for_red_threes if t.canastas_for_red_threes else melded
    negative = t.red_threes_negative_without_meld or t.canastas_for_red_threes > 0
    expected = base if not negative else z3.If(counted, base, -lost)
    shown: Shown = [
        ("red_threes", count),
        ("melds", hand.meld_count),
        ("canastas", hand.canastas),
        ("score", hand.items["red_threes"]),
    ]
    return hand.items["red_threes"] == expected, shown


def _threes_by_count_score(rm: RuleModel, hand: SideHand) -> tuple[Cond, Shown]:
    """The threes' score of a side under threes.count_values, stated colour by colour and band by band."""
    t = rm.spec.threes
    values = list(t.count_values)
    copies = max(rm.red_three_copies, rm.black_three_copies)

    def value(count: Expr) -> Expr:
        return z3.Sum([z3.If(count == n, values[min(n, len(values)) - 1], 0) for n in range(1, copies + 1)])

    both = value(hand.red_threes) + value(hand.black_laid)
    expected = z3.If(
        hand.canastas >= t.plus_from_canastas, both, z3.If(hand.canastas >= t.minus_below_canastas, 0, -both)
    )
    shown: Shown = [
        ("red_threes", hand.red_threes),
        ("black_threes", hand.black_laid),
        ("canastas", hand.canastas),
        ("score", hand.items["red_threes"]),
    ]
    return hand.items["red_threes"] == expected, shown


#: The claims hand_read proves with the extremes, by the id of the property that reports each.
SIDE_CLAIMS = {"score-is-sum": score_is_sum, "red-three-score": red_three_score}

__all__ = ["SIDE_CLAIMS", "red_three_score", "score_is_sum"]
