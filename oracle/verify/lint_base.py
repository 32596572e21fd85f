"""What every lint rule shares: findings, the rule ids and their fields, and one budgeted solver with unsat cores."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import z3

from oracle.verify.budget import LINT_BUDGET, Budget, SolverBudgetExceeded
from oracle.verify.model import Clause, Cond, MeldCounts, MeldSet, RuleModel
from oracle.verify.solver_io import assert_all

ERROR = "error"
WARNING = "warning"

#: Every lint rule's id and the rule-set field it is about (a finding may name a more precise one).
RULES: dict[str, str] = {
    "no-legal-meld": "melds.min_size",
    "no-canasta": "canastas.min_size",
    "natural-canasta-impossible": "canastas.natural_bonus",
    "mixed-canasta-impossible": "canastas.mixed_bonus",
    "max-wilds-unreachable": "melds.max_wilds",
    "wild-ratio-dead": "melds.wild_ratio",
    "max-size-dead": "melds.max_size",
    "wild-only-dead": "melds.wild_only_melds",
    "canasta-mostly-wild": "melds.max_wilds",
    "natural-canasta-not-better": "canastas.natural_bonus",
    "frozen-pile-untakeable": "discard_pile",
    "natural-and-wild-dead": "discard_pile.unfrozen_natural_and_wild",
    "wild-join-dead": "canastas.wild_may_join_natural",
    "red-three-bonus-falls": "threes.all_red_threes_bonus",
    "black-three-meld-impossible": "threes.black_three_meld_min",
    "black-three-meld-canasta-size": "threes.black_three_meld_max",
    "cannot-go-out": "going_out.canastas_required",
    "keep-strands-player": "going_out.min_hand_after_meld_without_canastas",
    "concealed-bonus-below-plain": "going_out.concealed_bonus",
    "threshold-row-dead": "initial_meld.thresholds",
    "minimum-unreachable": "initial_meld.thresholds",
    "minimum-unreachable-first-turn": "initial_meld.thresholds",
    "merged-meld-over-max-size": "melds.max_size",
    "must-take-dead": "stock_exhaustion.must_take_pile",
    "count-values-bands": "threes.plus_from_canastas",
    "count-values-fall": "threes.count_values",
    "count-values-dead": "threes.count_values",
    "rank-rule-wilds-dead": "melds.rank_rules",
    "rank-rule-held-dead": "melds.rank_rules",
    "rule-of-five-dead": "melds.wilds_after_opening_min_naturals",
    "natural-meld-impossible": "initial_meld.natural_meld_required",
    "bonus-cards-stock": "bonus_cards.none_when_stock_at_most",
    "runs-dead": "runs.min_size",
    "run-range-empty": "runs.lowest_rank",
    "run-canasta-over-cap": "runs.canasta_size",
    "run-canasta-cannot-fit": "runs.canasta_size",
    "combine-dead": "melds.combine_same_rank",
    "foot-dead": "foot.size",
    "minimum-table-dead": "initial_meld.thresholds",
    "minimum-by-hand-dead": "initial_meld.minimum_by_hand",
    "book-quotas-sum": "going_out.canastas_required",
    "red-three-value-dead": "card_values.red_three",
    "red-threes-canastas-unreachable": "threes.canastas_for_red_threes",
}


@dataclass(frozen=True)
class LintFinding:
    """A contradictory or dead setting: the rule-set field, a plain sentence, and how bad it is."""

    field: str  #: dotted rule-set field path, e.g. 'melds.max_wilds'
    message: str  #: what is wrong and why, in words
    severity: str  #: ERROR (contradictory) or WARNING (dead or unusual)
    rule: str = ""  #: the lint rule's id, e.g. 'no-canasta'


class LintBudgetExceeded(SolverBudgetExceeded):
    """A lint rule's solver query ran out of its budget: the rule set could not be checked, so it is not passed."""

    def __init__(self, rule: str, limit: str) -> None:
        super().__init__(f"lint rule '{rule}' ({RULES[rule]})", limit)
        self.rule = rule  #: the lint rule's id
        self.field = RULES[rule]  #: the rule-set field the rule is about


def phrase(clauses: Sequence[Clause]) -> str:
    """'a (f1), b (f2) and c (f3)', without repeats."""
    parts: list[str] = []
    for c in clauses:
        text = f"{c.text} ({c.field})" if c.field else c.text
        if text not in parts:
            parts.append(text)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def field_of(core: Sequence[Clause], prefer: str) -> str:
    """The field a finding names: `prefer` when the core has it, else the core's first field outside deck.*."""
    fields = [c.field for c in core if c.field]
    if prefer in fields:
        return prefer
    return next((f for f in fields if not f.startswith("deck.")), fields[0] if fields else prefer)


class Linter:
    """One rule set's lint run: a model, a shared budgeted solver, and the findings so far."""

    def __init__(self, rm: RuleModel, budget: Budget = LINT_BUDGET) -> None:
        self.rm = rm
        self.budget = budget
        self.solver = budget.solver()
        self.solver.set("core.minimize", True)
        self.findings: list[LintFinding] = []
        self._melds: MeldSet | None = None

    @property
    def melds(self) -> MeldSet:
        """A side's melds at once (built on first use, shared by the checks that need it)."""
        if self._melds is None:
            self._melds = self.rm.melds_at_once("melds")
        return self._melds

    def add(self, rule: str, severity: str, field: str, message: str) -> None:
        """Record a finding of `rule`."""
        assert rule in RULES, rule
        self.findings.append(LintFinding(field, message, severity, rule))

    def _check(self, rule: str, *assumptions: Cond) -> bool:
        """sat (True) or unsat (False); LintBudgetExceeded naming `rule` and the limit when the budget runs out."""
        result = self.solver.check(*assumptions)
        if result == z3.unknown:
            raise LintBudgetExceeded(rule, self.budget.exceeded(self.solver))
        return bool(result == z3.sat)

    def core(self, rule: str, clauses: Sequence[Clause], context: Sequence[Cond] = ()) -> list[Clause] | None:
        """None when the clauses can all hold (with `context`); otherwise a minimal set of them that cannot."""
        s = self.solver
        s.push()
        try:
            assert_all(s, context)
            labels = [z3.Bool(f"lint!{i}") for i in range(len(clauses))]
            for label, clause in zip(labels, clauses, strict=True):
                s.add(z3.Implies(label, clause.expr))
            if self._check(rule, *labels):
                return None
            names = {str(c) for c in s.unsat_core()}
            return [clause for label, clause in zip(labels, clauses, strict=True) if str(label) in names]
        finally:
            s.pop()

    @contextlib.contextmanager
    def given(self, conditions: Sequence[Cond]) -> Iterator[None]:
        """Within the block, the solver also asserts `conditions` (asserted once, for every check of the block)."""
        self.solver.push()
        try:
            assert_all(self.solver, conditions)
            yield
        finally:
            self.solver.pop()

    def holds_with(self, rule: str, *assumptions: Cond) -> bool:
        """Whether the solver's assertions and `assumptions` can all hold (sat), asked under the assumptions."""
        return self._check(rule, *assumptions)

    def witness(self, rule: str, conditions: Sequence[Cond]) -> z3.ModelRef | None:
        """A model of the conditions, or None."""
        s = self.solver
        s.push()
        try:
            assert_all(s, conditions)
            return s.model() if self._check(rule) else None
        finally:
            s.pop()


def meld_rules(lt: Linter, m: MeldCounts, skip: str = "") -> list[Clause]:
    """The natural-meld rules (all but the field `skip`) and the deck's bounds for one meld."""
    rm = lt.rm
    return [c for c in rm.natural_meld_clauses(m) if c.field != skip] + rm.deck_clauses(m)


__all__ = [
    "ERROR",
    "RULES",
    "WARNING",
    "LintBudgetExceeded",
    "LintFinding",
    "Linter",
    "field_of",
    "meld_rules",
    "phrase",
]
