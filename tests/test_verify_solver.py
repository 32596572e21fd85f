"""The solver plumbing verify relies on: conditions asserted straight into a solver give the answers and models that
z3's own add gives, and anything that is not a Boolean term of the solver's context is converted or refused as add
would."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget, hand_read, hand_split
from oracle.verify.hand import side_hand
from oracle.verify.model import RuleModel
from oracle.verify.solver_io import assert_all, int_values, true_in

BOOK = default_rule_book()


def _model_values(solver: z3.Solver, terms: list[z3.ArithRef]) -> list[int]:
    model = solver.model()
    return [model.eval(t, model_completion=True).as_long() for t in terms]


def test_asserted_conditions_give_the_answers_and_models_of_add() -> None:
    budget.fresh_z3_context()
    hand = side_hand(RuleModel(BOOK.get("samba-4p").rules))
    shown = [hand.total, hand.canastas, hand.red_threes, hand.went_out, *hand.items.values()]
    answers = []
    for put in (lambda s, cs: s.add(*cs), assert_all):
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
    assert_all(solver, [x >= 2, True, x <= 3])
    reference.add(x >= 2, True, x <= 3)
    assert solver.assertions().sexpr() == reference.assertions().sexpr()
    assert solver.check() == z3.sat
    assert_all(solver, [False])
    assert solver.check() == z3.unsat
    other = z3.Context()
    with pytest.raises(z3.Z3Exception):
        assert_all(budget.PROOF_BUDGET.simple_solver(), [z3.Int("y", other) >= 1])
    with pytest.raises(z3.Z3Exception):
        assert_all(budget.PROOF_BUDGET.simple_solver(), [x + 1])


def test_values_read_from_a_model_are_those_eval_gives_a_free_count_zero() -> None:
    budget.fresh_z3_context()
    hand = side_hand(RuleModel(BOOK.get("hand-and-foot-4p").rules))
    solver = budget.PROOF_BUDGET.solver()
    assert_all(solver, [*hand.constraints, hand.went_out == 2])
    assert solver.check() == z3.sat
    model = solver.model()
    terms = [hand.total, hand.canastas, *hand.items.values(), *(s.counts.naturals for s in hand.slots)]
    free = z3.Int("never-asserted")
    assert int_values(model, [*terms, free, z3.IntVal(-7)]) == [
        *(model.eval(t, model_completion=True).as_long() for t in terms),
        0,
        -7,
    ]
    presents = [s.present for s in hand.slots]
    assert [true_in(model, p) for p in presents] == [z3.is_true(model.eval(p, model_completion=True)) for p in presents]
    assert any(true_in(model, p) for p in presents) and not all(true_in(model, p) for p in presents)


def test_a_value_that_is_no_integer_or_of_another_context_is_refused() -> None:
    budget.fresh_z3_context()
    x, half = z3.Int("x"), z3.Real("half")
    solver = budget.PROOF_BUDGET.simple_solver()
    assert_all(solver, [x == 3, half * 2 == 1])
    assert solver.check() == z3.sat
    model = solver.model()
    with pytest.raises(ValueError, match=r"half is 1/2 in the model, not an integer"):
        int_values(model, [x, half])
    with pytest.raises(z3.Z3Exception, match="another Z3 context"):
        int_values(model, [z3.Int("x", z3.Context())])
    with pytest.raises(TypeError, match="from a BoolRef term"):
        true_in(model, x)


def test_the_lowest_search_after_the_highest_on_one_solver_proves_the_bound_of_a_fresh_solver() -> None:
    budget.fresh_z3_context()
    hand = side_hand(RuleModel(BOOK.get("american-4p").rules))
    solver = budget.PROOF_BUDGET.solver()
    assert_all(solver, hand.constraints)
    asserted = solver.assertions().sexpr()
    high, low = hand_read._extreme(solver, hand, 1), hand_read._extreme(solver, hand, -1)
    assert solver.assertions().sexpr() == asserted  # the searches ask under assumptions only
    fresh = budget.PROOF_BUDGET.solver()
    assert_all(fresh, hand.constraints)
    alone = hand_read._extreme(fresh, hand, -1)
    assert high is not None and low is not None and alone is not None
    assert (high.total, low.total, alone.total) == (15440, -13160, -13160)  # american-4p's score-bounds
    assert fresh.check(hand.total < -13160) == z3.unsat and fresh.check(hand.total > 15440) == z3.unsat


def test_the_rank_by_rank_highest_table_asks_its_books_as_an_assumption_and_the_lowest_follows() -> None:
    budget.fresh_z3_context()
    model = RuleModel(BOOK.get("hand-and-foot-red-threes-laid-4p").rules)
    hand = side_hand(model)
    solver = budget.PROOF_BUDGET.solver()
    assert_all(solver, hand.constraints)
    asserted = solver.assertions().sexpr()
    witness = hand_split.highest_table(model, hand, solver)
    assert witness is not None and witness.eval(hand.total).as_long() == 18290  # its score-bounds highest
    assert solver.assertions().sexpr() == asserted  # the books were an assumption
    low = hand_read._extreme(solver, hand, -1)
    assert low is not None and low.total == -3750
    assert solver.check(hand.total < -3750) == z3.unsat


def test_a_budget_solver_hands_over_uncompacted_models_with_the_values_a_compacting_one_gives() -> None:
    values = []
    for compact in (budget.MODEL_COMPACT, not budget.MODEL_COMPACT):
        budget.fresh_z3_context()  # each in a context of its own: the same terms, asked the same way
        hand = side_hand(RuleModel(BOOK.get("samba-4p").rules))
        terms = [hand.total, hand.red_threes, hand.canastas, *hand.items.values()]
        solver = budget.PROOF_BUDGET.solver()
        solver.set("model.compact", compact)
        assert_all(solver, hand.constraints)
        assert solver.check(hand.total >= 5000) == z3.sat
        values.append(int_values(solver.model(), terms))
    assert values[0] == values[1] and values[0][0] >= 5000
