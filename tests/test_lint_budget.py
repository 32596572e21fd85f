"""The solver lint's cost and budget: long threshold tables lint in a few queries with the same findings, every
dead-row verdict agrees with the model's row in force, and a lint that runs out of its budget refuses loudly."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from importlib import resources

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.loader import RuleBook, SpecError, default_rule_book
from oracle.verify.budget import Budget, fresh_z3_context
from oracle.verify.gate import contradictions
from oracle.verify.lint import ERROR, WARNING, LintBudgetExceeded, lint
from oracle.verify.lint_base import Linter
from oracle.verify.lint_minimum import dead_rows
from oracle.verify.model import RuleModel

SPECS = resources.files("oracle.specs")


def classic_4p(rows: list[tuple[int, int]], target: int) -> ruleset_pb2.RuleSet:
    """classic-4p's resolved message with its threshold table and target score replaced."""
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-4p").spec)
    spec.game.target_score = target
    del spec.initial_meld.thresholds[:]
    for from_score, minimum in rows:
        spec.initial_meld.thresholds.add(from_score=from_score, minimum=minimum)
    return spec


@pytest.fixture
def solver_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every z3 solver check made while the test runs (one-element list)."""
    count = [0]
    check = z3.Solver.check

    def counting(self: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        count[0] += 1
        return check(self, *assumptions)

    monkeypatch.setattr(z3.Solver, "check", counting)
    yield count


def test_a_2000_row_table_lints_with_every_finding_in_a_few_queries(solver_checks: list[int]) -> None:
    # Rows every 10 points from 0; the game ends at 15,000, so rows 1500.. never apply. Minimums rise: rows
    # 1000..1399 ask 400 (more than one turn's cards can meld in classic-4p), rows 1400..1499 ask 5,000 (more
    # than the whole deck is worth).
    rows = [(10 * i, 50 + 70 * i // 1000 if i < 1000 else 400 if i < 1400 else 5000) for i in range(2000)]
    lint(classic_4p([(0, 50), (1500, 90), (3000, 120)], 5000))
    three_rows = solver_checks[0]
    solver_checks[0] = 0

    findings = lint(classic_4p(rows, 15_000))

    expected = (
        [("minimum-unreachable", f"initial_meld.thresholds[{i}].minimum", ERROR) for i in range(1400, 1500)]
        + [("threshold-row-dead", f"initial_meld.thresholds[{i}].from_score", WARNING) for i in range(1500, 2000)]
        + [
            ("minimum-unreachable-first-turn", f"initial_meld.thresholds[{i}].minimum", WARNING)
            for i in range(1000, 1400)
        ]
    )
    assert [(f.rule, f.field, f.severity) for f in findings] == expected
    assert "a minimum initial meld of 5000 points can never be met" in findings[0].message
    assert "from_score 15000 never applies" in findings[100].message
    # The solver is asked about distinct minimums by bisection, never once per row.
    assert solver_checks[0] <= three_rows + 2 * math.ceil(math.log2(len(rows) + 1))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-30, 30), st.integers(0, 200)), max_size=6),
    st.integers(-20, 40),
)
def test_dead_rows_agree_with_the_models_row_in_force(rows: list[tuple[int, int]], target: int) -> None:
    """Rows in any order (as an unvalidated message may hold them): dead exactly when no running total below the
    target has the row in force under RuleModel.row_of."""
    rm = RuleModel(classic_4p(rows, target))
    total = z3.Int("running_total")
    for i, dead in enumerate(dead_rows(rm.thresholds, target)):
        solver = z3.Solver()
        solver.add(total < target, rm.row_of(total) == i)
        assert dead == (solver.check() == z3.unsat), (rows, target, i)


TINY = Budget(rlimit=1, timeout_ms=60_000)


def test_a_lint_out_of_budget_raises_naming_the_rule_and_the_limit() -> None:
    with pytest.raises(LintBudgetExceeded) as raised:
        lint(default_rule_book().get("classic-4p").rules, TINY)
    assert raised.value.rule == "no-legal-meld"
    assert raised.value.field == "melds.min_size"
    assert "resource limit of 1 z3 resource units (rlimit)" in str(raised.value)
    assert "no-legal-meld" in str(raised.value)


def test_the_gate_refuses_a_rule_set_whose_lint_runs_out_of_budget() -> None:
    refusal = contradictions(default_rule_book().get("classic-4p").rules, TINY)
    assert len(refusal) == 1
    field, message = refusal[0]
    assert field == "melds.min_size"
    assert "rlimit" in message and "refused rather than loaded unchecked" in message
    # The same rule set under the normal budget passes: the refusal was the budget's.
    assert contradictions(default_rule_book().get("classic-4p").rules) == []


def test_the_loader_reports_a_lint_out_of_budget_as_a_problem_of_the_rule_set() -> None:
    text = (SPECS / "classic-4p.textproto").read_text()
    with pytest.raises(SpecError) as raised:
        RuleBook.from_texts(
            {"classic-4p.textproto": text},
            (SPECS / "sources.textproto").read_text(),
            checker=functools.partial(contradictions, budget=TINY),
        )
    assert re.search(r"melds\.min_size.*resource limit of 1 z3 resource units", str(raised.value))


def test_a_budget_needs_positive_limits() -> None:
    with pytest.raises(ValueError, match="rlimit >= 1"):
        Budget(rlimit=0, timeout_ms=1000)


def test_conditions_given_to_a_block_hold_for_its_questions_and_go_with_it() -> None:
    fresh_z3_context()
    lt = Linter(RuleModel(default_rule_book().get("classic-4p").rules))
    x = z3.Int("x")
    before = [str(a) for a in lt.solver.assertions()]
    with lt.given([x >= 0, x <= 5]):
        assert lt.holds_with("minimum-unreachable", x >= 5)
        assert not lt.holds_with("minimum-unreachable", x >= 6)
        assert lt.holds_with("minimum-unreachable", x <= 0)  # an assumption is not kept for the next question
    assert [str(a) for a in lt.solver.assertions()] == before
    assert lt.holds_with("minimum-unreachable", x >= 6)  # the block's conditions went with it
