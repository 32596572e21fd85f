"""The proofs of the properties of sides formed during the hand and of the end of the stock (see properties.py)."""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_formation as mf
from oracle.verify.model import RuleModel, meld_counts
from oracle.verify.proving import Outcome, all_of, exists, grown_by, meld_shown, prove


def always_applies(spec: ruleset_pb2.RuleSet) -> str:
    """A property every rule set has ("": no reason it would not apply)."""
    return ""


def not_lone_hand(spec: ruleset_pb2.RuleSet) -> str:
    """Why a property of sides formed during the hand does not apply ("" when it does)."""
    if mf.lone_hand(spec):
        return ""
    return "players.side_formation fixes the sides at the deal, so no sides form during the hand"


# ----- merging the partners' melds ---------------------------------------------------------------------------


def formation_merge(rm: RuleModel) -> Outcome:
    low, high = meld_counts("low_partner_meld"), meld_counts("high_partner_meld")
    m = mf.merged(low, high)
    grown, cap = grown_by(m, naturals=1), rm.spec.melds.max_size
    room = z3.And(rm.in_deck(grown), z3.BoolVal(True) if not cap else grown.size <= cap)
    claim = z3.And(
        m.size == low.size + high.size,
        mf.legal_merged_meld(rm, m),
        z3.Implies(room, mf.join_legal(rm, m, z3.IntVal(1), z3.IntVal(0))),
    )
    given = [rm.legal_natural_meld(low), rm.legal_natural_meld(high), rm.in_deck(m)]
    return prove(claim, given, [*meld_shown(low), *meld_shown(high)])


# ----- each seat's score -------------------------------------------------------------------------------------


def partner_score(rm: RuleModel) -> Outcome:
    table = mf.formed_table(rm)
    pair = table.partnership
    _, low, high = mf.seat_scores(rm, table)
    own_low = rm.red_three_score(pair.red_threes, rm.red_threes_count(pair.has_meld, pair.canastas))
    own_high = rm.red_three_score(table.high_red, rm.red_threes_count(pair.has_meld, pair.canastas))
    claim = z3.And(
        low == pair.total,  # the partnership scored as a side, with the lower partner's red threes
        high == pair.total - pair.items["red_threes"] + own_high,
        low - high == own_low - own_high,
    )
    shown = [
        ("low_red_threes", pair.red_threes),
        ("high_red_threes", table.high_red),
        ("partnership_melds", pair.meld_count),
        ("low_score", low),
        ("high_score", high),
    ]
    return prove(claim, table.constraints, shown)


def lone_hand_score(rm: RuleModel) -> Outcome:
    table = mf.formed_table(rm)
    lone = table.lone
    score = mf.seat_scores(rm, table)[0]
    shown = [
        ("lone_score", score),
        ("lone_total", lone.total),
        ("partners_cards_points", mf.partner_hand_points(table)),
        ("partners_red_threes", table.partnership.red_threes + table.high_red),
    ]
    return prove(score == z3.Sum(list(lone.items.values())), table.constraints, shown)


def all_red_threes_one_owner(rm: RuleModel) -> Outcome:
    table = mf.formed_table(rm)
    pair, t = table.partnership, rm.spec.threes
    low, high = pair.red_threes, table.high_red
    sign = z3.If(z3.Or(pair.has_meld, z3.BoolVal(not t.red_threes_negative_without_meld)), 1, -1)
    _, low_score, high_score = mf.seat_scores(rm, table)
    shared = mf.shared_items(table)
    split = prove(
        z3.And(
            low_score - shared == sign * low * t.red_three_bonus, high_score - shared == sign * high * t.red_three_bonus
        ),
        [*table.constraints, low >= 1, high >= 1],
        [("low_red_threes", low), ("high_red_threes", high), ("low_red_score", low_score - shared)],
    )
    one_owner = exists(
        z3.And(
            *table.constraints, low == rm.red_three_copies, pair.has_meld, low_score - shared == t.all_red_threes_bonus
        ),
        [("low_red_threes", low)],
        "a partner who laid every red three does not earn threes.all_red_threes_bonus",
    )
    return all_of([("split between partners", split), ("one owner of all", one_owner)])


# ----- the end of the stock ----------------------------------------------------------------------------------


def stock_end(rm: RuleModel) -> Outcome:
    upcards = z3.Int("upcards")
    dealt = prove(mf.deal_stock(rm, upcards) >= 1, [mf.upcard_bounds(rm, upcards)], [upcards])
    turn = mf.stock_turn(rm)
    shown = [("stock_before", turn.before), ("stock_after", turn.after), ("hand_over", turn.over)]
    if rm.spec.stock_exhaustion.after_last_card == ruleset_pb2.AFTER_LAST_CARD_ENDS_AFTER_DISCARD:
        step = prove(z3.Or(turn.over, turn.after >= 1), turn.constraints, shown)
        return all_of([("the deal leaves a stock", dealt), ("a turn that does not end the hand leaves a stock", step)])
    reached = exists(
        z3.And(*turn.constraints, z3.Not(turn.over), turn.after == 0),
        shown,
        "no turn leaves the next player to draw from an empty stock",
    )
    return all_of([("the deal leaves a stock", dealt), ("a draw phase with an empty stock is reached", reached)])
