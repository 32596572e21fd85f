"""The proofs of the scoring, minimum-meld, pile and going-out properties (see properties.PROPERTIES)."""

from __future__ import annotations

import z3

from oracle.verify.budget import PROOF_BUDGET
from oracle.verify.hand_read import ConcreteSide, score_extremes, side_proof
from oracle.verify.hand_split import splits
from oracle.verify.model import RuleModel, meld_counts
from oracle.verify.model_foot import priced_ranks
from oracle.verify.model_formation import lone_hand
from oracle.verify.property_family import initial_makeup
from oracle.verify.proving import Outcome, all_of, exists, point_values, prove
from oracle.verify.solver_io import assert_all

# ----- card points and a hand's score ------------------------------------------------------------------------


def wilds_worth_most(rm: RuleModel) -> Outcome:
    value, v = z3.Int("natural_value"), rm.spec.card_values
    return prove(z3.And(value <= v.two, v.two <= v.joker, value > 0), [rm.natural_value_choice(value)], [value])


def meld_points_positive(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    return all_of(
        [
            (
                f"rank worth {v}",
                prove(
                    rm.meld_points(m, z3.IntVal(v)) > 0,
                    [rm.legal_meld(m), rm.in_deck(m)],
                    [m.naturals, m.wilds, m.jokers],
                ),
            )
            for v in point_values(rm)
        ]
    )


def red_three_score(rm: RuleModel) -> Outcome:
    # proved with the score extremes, on their solver of the side table's constraints (hand_read.side_proof)
    return side_proof(rm, "red-three-score")


def red_three_monotone(rm: RuleModel) -> Outcome:
    r = z3.Int("red_threes")
    up = rm.red_three_score(r + 1, z3.BoolVal(True)) > rm.red_three_score(r, z3.BoolVal(True))
    down = rm.red_three_score(r + 1, z3.BoolVal(False)) < rm.red_three_score(r, z3.BoolVal(False))
    claim = z3.And(up, down) if rm.red_threes_can_be_negative() else up
    return prove(claim, [r >= 0, r + 1 <= rm.red_three_copies], [r])


def score_is_sum(rm: RuleModel) -> Outcome:
    # proved with the score extremes, on their solver of the side table's constraints (hand_read.side_proof)
    return side_proof(rm, "score-is-sum")


def going_out_pays(rm: RuleModel) -> Outcome:
    a, b = z3.Ints("went_out_a went_out_b")
    return prove(rm.going_out_bonus(a) <= rm.going_out_bonus(b), [a >= 0, a <= b, b <= 2], [a, b])


def _side_text(side: ConcreteSide, priced: tuple[int, ...] = ()) -> str:
    parts = [f"{len(side.melds) + (1 if side.black_meld else 0)} meld(s)", f"{side.red_threes} red three(s)"]
    held = sum(side.hand.values()) + side.hand_twos + side.hand_jokers
    held += side.hand_black_threes + side.hand_red_threes
    held += sum(n for r, n in side.hand_ranked.items() if r in priced)  # card_values.rank_values' ranks
    parts.append(
        f"{held} card(s) in hand" + (f" ({side.hand_red_threes} red three(s) held)" if side.hand_red_threes else "")
    )
    parts.append(["did not go out", "went out", "went out concealed"][side.went_out])
    return ", ".join(parts)


def score_bounds(rm: RuleModel) -> Outcome:
    extremes = score_extremes(rm)
    if extremes is None:
        return Outcome(False, f"the solver gave up before proving the lowest and highest scores, within {PROOF_BUDGET}")
    low, high = extremes.low.total, extremes.high.total
    priced = priced_ranks(rm.spec)
    text = f"lowest {low} ({_side_text(extremes.low, priced)}), highest {high} ({_side_text(extremes.high, priced)})"
    if rm.spec.melds.one_open_meld_per_rank and splits(rm.spec):
        text += "; the highest proved rank by rank (hand_split)"
    if rm.spec.runs.min_size:  # the side hand has no run slots yet: say so rather than claim more
        text += "; tables of groups only: runs (runs.canasta_bonus and run cards) are not in these bounds"
    if not lone_hand(rm.spec):
        return Outcome(True, text)
    # sides formed during the hand: a partner scores the partnership's table with his own red threes
    pair = score_extremes(rm, partnership=True)
    if pair is None:
        return Outcome(
            False, f"the solver gave up before proving a partner's lowest and highest, within {PROOF_BUDGET}"
        )
    return Outcome(
        True,
        f"{text}; a partner: lowest {pair.low.total} ({_side_text(pair.low)}),"
        f" highest {pair.high.total} ({_side_text(pair.high)})",
    )


# ----- the minimum initial meld ------------------------------------------------------------------------------


def minimum_monotone(rm: RuleModel) -> Outcome:
    a, b = z3.Ints("running_total_a running_total_b")
    return prove(
        rm.minimum(a) <= rm.minimum(b), [a <= b], [a, b, ("minimum_a", rm.minimum(a)), ("minimum_b", rm.minimum(b))]
    )


def rows_apply(rm: RuleModel) -> Outcome:
    total, target = z3.Int("running_total"), rm.spec.game.target_score
    return all_of(
        [
            (
                f"thresholds[{i}]",
                exists(
                    z3.And(total < target, rm.row_of(total) == i),
                    [total],
                    f"a running total below game.target_score {target} never reaches from_score {from_score}",
                ),
            )
            for i, (from_score, _) in enumerate(rm.thresholds)
        ]
    )


def minimum_reachable(rm: RuleModel) -> Outcome:
    rows = [("minimum_below_table", rm.spec.initial_meld.minimum_below_table)]
    rows += [(f"thresholds[{i}]", minimum) for i, (_, minimum) in enumerate(rm.thresholds)]
    melds = rm.melds_at_once("initial")
    solver = PROOF_BUDGET.solver()
    assert_all(solver, [*melds.constraints, rm.first_turn_meld_ok(melds), *initial_makeup(rm, melds)])
    outcomes = []
    for label, minimum in rows:
        solver.push()
        solver.add(melds.points >= minimum)
        result = solver.check()
        why = f"solver gave up at {PROOF_BUDGET.exceeded(solver)}" if result == z3.unknown else str(result)
        solver.pop()
        outcomes.append(
            (
                label,
                Outcome(True)
                if result == z3.sat
                else Outcome(
                    False,
                    f"no legal initial meld from {rm.spec.deal.hand_size} + {rm.spec.turn.draw_count} cards reaches"
                    f" {minimum} points ({why})",
                ),
            )
        )
    return all_of(outcomes)


# ----- the pile and going out --------------------------------------------------------------------------------


def frozen_pair_takes(rm: RuleModel) -> Outcome:
    pair = z3.IntVal(2), z3.IntVal(0), z3.BoolVal(False)
    closed = rm.spec.discard_pile.closed_rank_dead
    claim = z3.And(
        rm.take_pile(z3.BoolVal(True), *pair),
        z3.Not(rm.take_pile(z3.BoolVal(True), *pair, dead=True)) if closed else z3.BoolVal(True),
    )
    return prove(claim, show=[("naturals_with_top_card", z3.IntVal(3))])


def frozen_needs_pair(rm: RuleModel) -> Outcome:
    k, w, onto = z3.Int("naturals_from_hand"), z3.Int("wilds_from_hand"), z3.Bool("onto_meld")
    return prove(z3.And(k >= 2, k + 1 >= 3), [rm.take_pile(z3.BoolVal(True), k, w, onto)], [k, w, onto])


def natural_and_wild(rm: RuleModel) -> Outcome:
    w = z3.Int("wilds_from_hand")
    flag = rm.spec.discard_pile.unfrozen_natural_and_wild
    one_natural = rm.take_pile(z3.BoolVal(False), z3.IntVal(1), w, z3.BoolVal(False))
    claim = one_natural if flag else z3.Not(one_natural)
    return prove(claim, [w == 1] if flag else [w >= 1], [w])


def go_out_needs_canastas(rm: RuleModel) -> Outcome:
    after, canastas, discards = z3.Int("cards_after_melding"), z3.Int("canastas"), z3.Bool("discards")
    final = after - z3.If(discards, 1, 0)
    given = [
        canastas >= 0,
        rm.turn_end_ok(after, canastas),
        z3.Implies(discards, rm.discard_ok(after, canastas)),
        final == 0,
    ]
    return prove(canastas >= rm.required, given, [after, canastas, discards])


def go_out_reachable(rm: RuleModel) -> Outcome:
    melds = rm.melds_at_once("side")
    return exists(
        z3.And(*melds.constraints, melds.canastas >= rm.required),
        [("canastas", melds.canastas), ("cards_melded", melds.cards)],
        f"the deck cannot hold {rm.required} legal canastas at once",
    )


def keep_allows_discard(rm: RuleModel) -> Outcome:
    after, canastas = z3.Int("cards_after_melding"), z3.Int("canastas")
    given = [canastas >= 0, canastas < rm.required, rm.turn_end_ok(after, canastas)]
    return prove(z3.And(rm.discard_ok(after, canastas), after - 1 >= 1), given, [after, canastas])
