"""Engine against model for sides formed during the hand: merged melds and each seat's score, case by case.

Two kinds of case under players.side_formation LONE_HAND, each with what the
model expects (model_formation) and what the engine answered (the third kind,
"stock-end", is boundary_stock's and every rule set has it):

* "formation" (players.side_formation LONE_HAND): two partners hold legal melds
  of one rank with 0, 1, max_wilds, max_wilds + 1 and 2 x max_wilds wild cards
  between them (the solver finds each pair); the engine forms the sides
  (rules.formation.form_sides, as a first take does) and must keep every
  card, make one meld of the summed counts, judge the formed state consistent,
  and accept a natural joining the merged meld and a wild card exactly when
  the model does;
* "formed-score" (LONE_HAND): formed tables the solver builds on the red-three
  boundaries (split between the partners, all with one partner, all with the
  lone hand, with and without the partnership's meld) and on going out by the
  lone hand or a partner; the engine's score per seat must be the model's,
  and the lone hand's the same as his cards scored as a side of one.

A state is built whole (every card of the deck somewhere) so that the engine's
own state check runs as it does in play.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import z3

from oracle.model.actions import Meld, MeldGroup
from oracle.model.cards import RANK_THREE, format_cards, rank_of
from oracle.model.errors import InvalidInputError
from oracle.model.score import ScoreItem
from oracle.model.state import GameState, Phase, TurnStart, TurnState
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules import formation, referee, scoring
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import SideFormation
from oracle.verify.boundary_stock import stock_end_cases
from oracle.verify.budget import PROOF_BUDGET, check_within
from oracle.verify.cases import Case, table_doc
from oracle.verify.deck_cards import Cards, whole_state
from oracle.verify.hand_read import read_side
from oracle.verify.model import NATURAL_RANKS, MeldCounts, RuleModel, meld_counts
from oracle.verify.model_formation import (
    FormedTable,
    formed_table,
    join_legal,
    legal_merged_meld,
    lone_hand,
    merged,
    merged_wild_limit,
    seat_scores,
)
from oracle.verify.side_cards import side_cards
from oracle.verify.solver_io import assert_all, int_values
from oracle.verify.terms import simplifies_true

_RED_ITEMS = {
    ScoreItem.RED_THREES,
    ScoreItem.ALL_RED_THREES,
    ScoreItem.RED_THREES_WITHOUT_MELD,
    ScoreItem.ALL_RED_THREES_WITHOUT_MELD,
}


# ----- merging the partners' melds ---------------------------------------------------------------------------


def _merge_pairs(rm: RuleModel) -> Iterator[tuple[int, MeldCounts, MeldCounts, z3.ModelRef]]:
    """(wild cards in all, the lower partner's meld, the higher partner's, a model giving the smallest such pair)."""
    low, high = meld_counts("low_partner_meld"), meld_counts("high_partner_meld")
    m = merged(low, high)
    mw = rm.spec.melds.max_wilds
    for wilds in sorted({w for w in (0, 1, mw, mw + 1, merged_wild_limit(rm)) if 0 <= w <= merged_wild_limit(rm)}):
        opt = z3.Optimize()
        PROOF_BUDGET.apply(opt)
        opt.add(rm.legal_natural_meld(low), rm.legal_natural_meld(high), m.wilds == wilds)
        # room in the deck for the natural and the two that try to join the merged meld
        opt.add(rm.in_deck(MeldCounts(m.naturals + 1, m.wilds + 1, m.jokers)), low.jokers >= 0, high.jokers >= 0)
        opt.add(low.jokers <= low.wilds, high.jokers <= high.wilds)
        opt.minimize(m.size)
        result = opt.check()
        if result == z3.unknown:
            raise ValueError(f"the solver gave up finding two partners' melds with {wilds} wild cards")
        if result == z3.sat:
            yield wilds, low, high, opt.model()


def _num(model: z3.ModelRef, term: z3.ArithRef) -> int:
    return int_values(model, [term])[0]


def formation_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Two partners' melds of one rank put together when sides form, then a natural and a wild card joining."""
    cases = []
    for i, (wilds, low, high, model) in enumerate(_merge_pairs(rm)):
        rank = NATURAL_RANKS[-1 - i % len(NATURAL_RANKS)]
        counts = [(_num(model, m.naturals), _num(model, m.wilds), _num(model, m.jokers)) for m in (low, high)]
        cards = Cards(rules)
        low_meld, high_meld = (cards.take(rank, n) + cards.wilds(w - j, j) for n, w, j in counts)
        natural, two = cards.take(rank, 1), cards.wilds(1, 0)
        hands = [cards.plain(3, {rank}), natural + two + cards.plain(3, {rank}), cards.plain(3, {rank})]
        state = whole_state(cards, hands, [[], [low_meld], [high_meld]], 10)
        fixed = MeldCounts(z3.IntVal(counts[0][0] + counts[1][0]), z3.IntVal(counts[0][1] + counts[1][1]), z3.IntVal(0))
        expected: dict[str, object] = {
            "consistentBefore": True,
            "cardsKept": True,
            "merged": [fixed.naturals.as_long(), fixed.wilds.as_long()],
            "meldsOfRank": 1,
            "legalMerged": simplifies_true(legal_merged_meld(rm, fixed)),
            "consistentAfter": True,
            "naturalJoins": simplifies_true(join_legal(rm, fixed, z3.IntVal(1), z3.IntVal(0))),
            "wildJoins": simplifies_true(join_legal(rm, fixed, z3.IntVal(0), z3.IntVal(1))),
        }
        cases.append(
            Case(
                f"{rm.id}-formation-w{wilds}",
                f"partners' melds of one rank ({counts[0][0]} + {counts[1][0]} naturals, {counts[0][1]} +"
                f" {counts[1][1]} wild cards) put together when sides form; a natural and a wild card join",
                rm.id,
                "formation",
                {"lowMeld": format_cards(low_meld), "highMeld": format_cards(high_meld), "rank": rank},
                expected,
                _formation_answer(rules, state, rank, low_meld + high_meld, natural[0], two[0]),
            )
        )
    return cases


def _formation_answer(
    rules: CompiledRules, state: GameState, rank: int, melded: tuple[int, ...], natural: int, two: int
) -> dict[str, object]:
    """What the engine does: form the sides with seat 0 alone, check the state, judge the joins by seat 1."""
    before = validate_state(rules, state)
    formed, _ = formation.form_sides(rules, state, 0)
    on_low = [m for m in formed.sides[1].melds if any(rank_of(c) == rank for c in m)]
    everything = sorted(c for side in formed.sides for m in side.melds for c in m)
    meld = on_low[0] if len(on_low) == 1 else ()
    after = validate_state(rules, formed)
    play = formed.evolve(
        seat_to_move=1, phase=Phase.PLAY, turn=TurnState(TurnStart.DREW, melds_before_turn=len(formed.sides[1].melds))
    )
    answer: dict[str, object] = {
        "consistentBefore": not before or [str(p) for p in before],
        "cardsKept": everything == sorted(melded),
        "merged": [sum(rank_of(c) == rank for c in meld), sum(rank_of(c) != rank for c in meld)],
        "meldsOfRank": len(on_low),
        "consistentAfter": not after or [str(p) for p in after],
    }
    for key, group in (("naturalJoins", MeldGroup((natural,))), ("wildJoins", MeldGroup((two,), onto_rank=rank))):
        try:
            answer[key] = referee.check_action(rules, play, Meld((group,))).legal
        except (InvalidInputError, ValueError) as exc:
            answer[key] = f"error: {exc}"
    answer["legalMerged"] = answer["consistentAfter"] is True
    return answer


# ----- scores of a formed table ------------------------------------------------------------------------------


def _formed_targets(rm: RuleModel, table: FormedTable) -> Iterator[tuple[str, str, z3.ModelRef]]:
    lone, pair, high = table.lone, table.partnership, table.high_red
    copies = rm.red_three_copies
    small = [s.meld_count <= rm.required + 2 for s in (lone, pair)] + [s.hand_cards <= 4 for s in (lone, pair)]
    targets = [
        (
            "split-meld",
            "red threes split between the partners, who have melded",
            [pair.red_threes == 1, high == copies - 1, pair.has_meld],
        ),
        (
            "split-nomeld",
            "red threes split between the partners, who have not melded",
            [pair.red_threes == 1, high == copies - 1, z3.Not(pair.has_meld)],
        ),
        (
            "partner-all-meld",
            "one partner laid every red three; the partnership has melded",
            [high == copies, pair.has_meld],
        ),
        (
            "partner-all-nomeld",
            "one partner laid every red three; no meld",
            [pair.red_threes == copies, z3.Not(pair.has_meld)],
        ),
        (
            "lone-all-meld",
            "the lone hand laid every red three and has melded",
            [lone.red_threes == copies, lone.has_meld],
        ),
        (
            "lone-all-nomeld",
            "the lone hand laid every red three and has not melded",
            [lone.red_threes == copies, z3.Not(lone.has_meld)],
        ),
        (
            "partner-out",
            "a partner went out; each partner laid one red three",
            [pair.went_out == 1, pair.red_threes == 1, high == 1, pair.hand_cards >= 1],
        ),
        ("lone-out-concealed", "the lone hand went out concealed", [lone.went_out == 2, pair.hand_cards >= 1]),
    ]
    solver = PROOF_BUDGET.solver()
    assert_all(solver, [*table.constraints, *small])
    for slug, what, conditions in targets:
        solver.push()
        solver.add(*conditions)
        if check_within(solver, PROOF_BUDGET, f"the formed-score boundary '{slug}' ({what})"):
            yield slug, what, solver.model()
        solver.pop()


def formed_score_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Per-seat scores of formed tables on the red-three and going-out boundaries (see the module docstring)."""
    table = formed_table(rm)
    lone_score, low_score, high_score = seat_scores(rm, table)
    cases = []
    for i, (slug, what, model) in enumerate(_formed_targets(rm, table)):
        lone_seat = i % 3
        low_seat, high_seat = (s for s in range(3) if s != lone_seat)
        lone, pair = read_side(table.lone, model), read_side(table.partnership, model)
        cards = Cards(rules)
        lone_table, pair_table = side_cards(rm, cards, lone), side_cards(rm, cards, pair)
        lone_melds, lone_red, lone_hand_cards = lone_table.melds, lone_table.red_threes, lone_table.hands[0]
        pair_melds, low_red, pair_hand = pair_table.melds, pair_table.red_threes, pair_table.hands[0]
        high_red = cards.take(RANK_THREE, _num(model, table.high_red), suits=(1, 2))
        high_out = pair.went_out != 0
        high_hand = () if high_out else pair_hand[:1]
        low_hand = pair_hand if high_out else pair_hand[1:]
        entries: dict[int, SideTable] = {
            lone_seat: SideTable(lone_melds, lone_red, (lone_hand_cards,), WentOut(lone.went_out)),
            low_seat: SideTable(pair_melds, low_red, (low_hand,)),
            high_seat: SideTable((), high_red, (high_hand,), WentOut(pair.went_out)),
        }
        formed = tuple(lone_seat if s == lone_seat else low_seat for s in range(3))
        expected: dict[str, object] = {
            "lone": _num(model, lone_score),
            "low": _num(model, low_score),
            "high": _num(model, high_score),
            "loneRedThrees": _num(model, table.lone.items["red_threes"]),
            "lowRedThrees": _num(model, rm.red_three_score(table.partnership.red_threes, table.partnership.has_meld)),
            "highRedThrees": _num(model, rm.red_three_score(table.high_red, table.partnership.has_meld)),
            "loneAsSideOfOne": _num(model, table.lone.total),
        }
        hand_table = HandTable(tuple(entries[k] for k in range(3)), formed)
        alone = HandTable(
            tuple(
                entries[k] if k == lone_seat else SideTable(entries[k].melds, entries[k].red_threes, entries[k].hands)
                for k in range(3)
            )
        )
        cases.append(
            Case(
                f"{rm.id}-formed-score-{slug}",
                f"each seat's score once sides formed (seat {lone_seat} alone): {what}",
                rm.id,
                "formed-score",
                {"table": table_doc(hand_table)},
                expected,
                _formed_answer(rules, hand_table, alone, lone_seat, low_seat, high_seat),
            )
        )
    return cases


def _formed_answer(
    rules: CompiledRules, table: HandTable, alone: HandTable, lone: int, low: int, high: int
) -> dict[str, object]:
    try:
        scores = scoring.score_hand(rules, table)
        # as a side of one: the same cards where sides are fixed (under LONE_HAND no unformed table goes out)
        alone_score = scoring.score_hand(replace(rules, side_formation=SideFormation.FIXED), alone)[lone].total
    except InvalidInputError as exc:
        return {"error": str(exc)}

    def red(seat: int) -> int:
        return sum(line.points for line in scores[seat].lines if line.item in _RED_ITEMS)

    return {
        "lone": scores[lone].total,
        "low": scores[low].total,
        "high": scores[high].total,
        "loneRedThrees": red(lone),
        "lowRedThrees": red(low),
        "highRedThrees": red(high),
        "loneAsSideOfOne": alone_score,
    }


def formation_engine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """The cases of this module and boundary_stock for one rule set: the stock's end always, formation and scores
    under LONE_HAND."""
    cases = stock_end_cases(rm, rules)
    if lone_hand(rm.spec):
        cases += formation_cases(rm, rules) + formed_score_cases(rm, rules)
    return cases
