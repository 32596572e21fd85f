"""The solver plumbing verify relies on: conditions asserted straight into a solver give the answers and models that
z3's own add gives, and anything that is not a Boolean term of the solver's context is converted or refused as add
would."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget
from oracle.verify.hand import side_hand
from oracle.verify.model import RuleModel

BOOK = default_rule_book()


def _model_values(solver: z3.Solver, terms: list[z3.ArithRef]) -> list[int]:
    model = solver.model()
    return [model.eval(t, model_completion=True).as_long() for t in terms]


def test_asserted_conditions_give_the_answers_and_models_of_add() -> None:
    budget.fresh_z3_context()
    hand = side_hand(RuleModel(BOOK.get("samba-4p").rules))
    shown = [hand.total, hand.canastas, hand.red_threes, hand.went_out, *hand.items.values()]
    answers = []
    for put in (lambda s, cs: s.add(*cs), budget.assert_all):
        solver = budget.PROOF_BUDGET.solver()
        put(solver, [*hand.constraints, hand.went_out == 1])
        assert [str(a) for a in solver.assertions()] == [str(c) for c in [*hand.constraints, hand.went_out == 1]]
        high = solver.check(hand.total >= 11160)  # samba-4p's highest side table (score-bounds)
        assert high == z3.sat
        values = _model_values(solver, shown)
        answers.append((high, values, solver.check(hand.total >= 11161)))
    assert answers[0] == answers[1] and answers[0][2] == z3.unsat


def test_a_python_bool_is_converted_and_a_foreign_or_non_boolean_term_refused_as_add_does() -> None:
    budget.fresh_z3_context()
    x = z3.Int("x")
    solver, reference = budget.PROOF_BUDGET.simple_solver(), budget.PROOF_BUDGET.simple_solver()
    budget.assert_all(solver, [x >= 2, True, x <= 3])
    reference.add(x >= 2, True, x <= 3)
    assert solver.assertions().sexpr() == reference.assertions().sexpr()
    assert solver.check() == z3.sat
    budget.assert_all(solver, [False])
    assert solver.check() == z3.unsat
    other = z3.Context()
    with pytest.raises(z3.Z3Exception):
        budget.assert_all(budget.PROOF_BUDGET.simple_solver(), [z3.Int("y", other) >= 1])
    with pytest.raises(z3.Z3Exception):
        budget.assert_all(budget.PROOF_BUDGET.simple_solver(), [x + 1])
