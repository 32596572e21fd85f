"""Proving a claim about one rule set with Z3 under a budget: a proof, a witness, or the counterexample in words.

A universal claim is proved when its negation is unsatisfiable under the
model's constraints; a claim that something is possible ("a canasta can be
completed") is proved by a witness. Either way a failure reports the solver's
counterexample (or that no witness exists) in words, and a solver that runs
out of its budget (budget.PROOF_BUDGET) is reported as not proved, naming the
limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from oracle.verify.budget import PROOF_BUDGET, Budget
from oracle.verify.model import NATURAL_RANKS, Cond, Expr, MeldCounts, RuleModel
from oracle.verify.solver_io import assert_all, int_values


@dataclass(frozen=True)
class Outcome:
    """Whether a property holds for one rule set, and the counterexample, witness or numbers in words."""

    holds: bool
    detail: str = ""


Shown = Sequence[Expr | Cond | tuple[str, Expr | Cond]]  # terms to report, optionally with a label


def _describe(model: z3.ModelRef, show: Shown) -> str:
    parts: list[str] = []
    for item in show:
        label, term = item if isinstance(item, tuple) else (str(item), item)
        parts.append(f"{label}={model.eval(term, model_completion=True)}")
    return ", ".join(parts)


def prove(claim: Cond, given: Sequence[Cond] = (), show: Shown = (), budget: Budget = PROOF_BUDGET) -> Outcome:
    """Proved when `given` and not `claim` is unsatisfiable; otherwise the counterexample, in `show`'s terms."""
    solver = budget.simple_solver()
    assert_all(solver, given)
    solver.add(z3.Not(claim))
    result = solver.check()
    if result == z3.unsat:
        return Outcome(True)
    if result == z3.sat:
        return Outcome(False, "counterexample: " + (_describe(solver.model(), show) or "(no free counts)"))
    return Outcome(False, f"solver gave up at {budget.exceeded(solver)}")


def prove_on(solver: z3.Solver, claim: Cond, show: Shown = (), budget: Budget = PROOF_BUDGET) -> Outcome:
    """prove(claim, given) on a solver that asserts `given` already: not `claim` is asked as an assumption, so the
    solver's assertions stay as they were (another check may follow on it)."""
    result = solver.check(z3.Not(claim))
    if result == z3.unsat:
        return Outcome(True)
    if result == z3.sat:
        return Outcome(False, "counterexample: " + (_describe(solver.model(), show) or "(no free counts)"))
    return Outcome(False, f"solver gave up at {budget.exceeded(solver)}")


def exists(claim: Cond, show: Shown, why_not: str, budget: Budget = PROOF_BUDGET) -> Outcome:
    """Proved by a witness of `claim`; otherwise `why_not`."""
    solver = budget.simple_solver()
    solver.add(claim)
    result = solver.check()
    if result == z3.sat:
        return Outcome(True, "e.g. " + _describe(solver.model(), show) if show else "")
    if result == z3.unsat:
        return Outcome(False, f"no example exists: {why_not}")
    return Outcome(False, f"solver gave up at {budget.exceeded(solver)}")


#: Within this many points of the least objective known unreachable, proved_maximum stops bisecting and asks for
#: one more than its best model: near the maximum an unsat check costs ten to twenty times a sat one (samba-4p's
#: highest table: 0.2 s against 0.015 s), and "one more than the maximum" is the one unsat check the proof needs.
#: 250 was the quickest of 1, 100, 250, 500, 1000 and no limit on the shipped rule sets' score extremes.
CLIMB_WITHIN = 250


def proved_maximum(solver: z3.Solver, objective: Expr) -> z3.ModelRef | None:
    """A model of `solver` where `objective` is greatest, proved so; None when there is none or a check gives up.

    Galloping, then bisection, then climbing on the one incremental solver:
    `reached` is the objective of the last model shown, `beyond` the least
    objective no model reaches (its check was unsat). Within CLIMB_WITHIN of
    `beyond` each check asks for more than `reached`. The search ends when
    they are neighbours, so "objective > reached" is unsatisfiable: the
    maximum is proved, not estimated, and the last model is its witness.
    Every check is under an assumption, so the solver's assertions are left
    as they were (another search may follow on the same solver).
    """
    if solver.check() != z3.sat:
        return None
    witness = solver.model()
    reached = int_values(witness, [objective])[0]
    beyond: int | None = None
    step = 1
    while beyond is None or beyond - reached > 1:
        if beyond is None:
            target = reached + step
        elif beyond - reached > CLIMB_WITHIN:
            target = (reached + beyond) // 2
        else:
            target = reached + 1
        result = solver.check(objective >= target)
        if result == z3.unknown:
            return None
        if result == z3.sat:
            witness = solver.model()
            reached = int_values(witness, [objective])[0]
            step *= 4
        else:
            beyond = target
    return witness


def all_of(outcomes: Sequence[tuple[str, Outcome]]) -> Outcome:
    """Holds when every labelled outcome holds; the failures are listed with their labels."""
    failed = [f"{label}: {o.detail}" for label, o in outcomes if not o.holds]
    if failed:
        return Outcome(False, "; ".join(failed))
    return Outcome(True, "; ".join(f"{label}: {o.detail}" for label, o in outcomes if o.detail))


def meld_shown(m: MeldCounts) -> list[Expr]:
    """A meld's counts to show in a counterexample."""
    return [m.naturals, m.wilds]


def point_values(rm: RuleModel) -> list[int]:
    """The distinct point values of the natural ranks."""
    return sorted({rm.rank_value(r) for r in NATURAL_RANKS})


def grown_by(m: MeldCounts, naturals: int = 0, wilds: int = 0) -> MeldCounts:
    """The meld with more naturals or wilds."""
    return MeldCounts(m.naturals + naturals, m.wilds + wilds, m.jokers)


__all__ = [
    "CLIMB_WITHIN",
    "Outcome",
    "Shown",
    "all_of",
    "exists",
    "grown_by",
    "meld_shown",
    "point_values",
    "prove",
    "prove_on",
    "proved_maximum",
]
