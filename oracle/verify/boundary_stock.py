"""Engine against model at the end of the stock: does a discard or a draw end the hand, as the model says.

A player discards (not going out) with 0 or 1 card left in the stock, or
draws from a stock of 1 .. turn.draw_count cards; the model (model_formation
.stock_turn) says whether the hand ends (stock_exhaustion.after_last_card,
turn.short_stock_draws_remaining) and the engine's check_action says what the
next state is. Every rule set has these cases.
"""

from __future__ import annotations

import z3

from oracle.model.actions import Discard, Draw
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState, Phase, TurnStart, TurnState
from oracle.rules import referee
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.budget import PROOF_BUDGET, check_within
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards, seat_hands, whole_state
from oracle.verify.footprint import shared
from oracle.verify.model import RuleModel
from oracle.verify.model_formation import StockTurn, stock_turn
from oracle.verify.solver_io import assert_all


def _verdict_end(rules: CompiledRules, state: GameState, action: Discard | Draw) -> dict[str, object]:
    try:
        verdict = referee.check_action(rules, state, action)
    except (InvalidInputError, ValueError) as exc:
        return {"error": str(exc)}
    if not verdict.legal or verdict.next_state is None:
        return {"legal": False, "codes": [v.code.name for v in verdict.violations]}
    after = verdict.next_state
    return {"legal": True, "handOver": after.phase == Phase.HAND_OVER, "stockAfter": len(after.stock)}


def _steps(draw: int) -> list[tuple[str, int]]:
    """The cases' (action, stock): discards with 0 and 1 stock cards left, draws from stocks of 1 .. `draw`."""
    return [("discard", 0), ("discard", 1), *[("draw", k) for k in range(1, draw + 1)]]


def _hand_ends(rm: RuleModel) -> list[bool]:
    """Whether the model ends the hand at each of _steps' cases (a plain turn: no red three, take or going out)."""
    turn = stock_turn(rm, "case")
    draw = rm.spec.turn.draw_count
    ends = []
    for action_kind, stock in _steps(draw):
        fixed = [turn.before == (stock if action_kind == "draw" else stock + draw)]
        if action_kind == "discard":
            ends.append(_decided(turn.over, [*turn.constraints, *fixed, turn.after == stock, *_plain_turn(turn)]))
        else:
            ends.append(_decided(turn.over_at_draw, [*turn.constraints, *fixed, *_plain_turn(turn)]))
    return ends


def stock_end_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Discards with 0 and 1 stock cards left, draws from stocks of 1 .. turn.draw_count cards."""
    # the model's answers, shared by the rule sets that agree on every field they read (footprint)
    ends = shared("stock-end", rm.spec, lambda spec: _hand_ends(RuleModel(spec)))
    cases = []
    draw = rm.spec.turn.draw_count
    for (action_kind, stock), over in zip(_steps(draw), ends, strict=True):
        cards = Cards(rules)
        hands = seat_hands(rules, cards, 0, ())
        mover = hands[0]
        state = whole_state(cards, hands, [[] for _ in range(rules.sides)], stock)
        if action_kind == "discard":
            state = state.evolve(phase=Phase.PLAY, turn=TurnState(TurnStart.DREW))
            action: Discard | Draw = Discard(mover[0])
            expected: dict[str, object] = {"legal": True, "handOver": over, "stockAfter": stock}
        else:
            action = Draw()
            expected = {"legal": True, "handOver": over}
            if not over:
                expected["stockAfter"] = max(0, stock - draw)
        cases.append(
            Case(
                f"{rm.id}-stock-end-{action_kind}-s{stock}",
                f"a player {'discards' if action_kind == 'discard' else 'draws'} with {stock} card(s) in the stock:"
                " does the hand end",
                rm.id,
                "stock-end",
                {"action": action_kind, "stock": stock},
                expected,
                _verdict_end(rules, state, action),
            )
        )
    return cases


def _plain_turn(turn: StockTurn) -> list[z3.BoolRef]:
    """A turn with no red three drawn, no take and no going out."""
    return [turn.reds == 0, z3.Not(turn.took_pile), z3.Not(turn.went_out), z3.Not(turn.last_red)]


def _decided(term: z3.BoolRef, given: list[z3.BoolRef]) -> bool:
    """The value `given` forces on `term` (a ValueError if it forces none)."""
    solver = PROOF_BUDGET.solver()
    assert_all(solver, given)
    can_true = check_within(solver, PROOF_BUDGET, "a stock-end case", term)
    can_false = check_within(solver, PROOF_BUDGET, "a stock-end case", z3.Not(term))
    if can_true == can_false:
        raise ValueError(f"the model does not decide {term} here")
    return can_true
