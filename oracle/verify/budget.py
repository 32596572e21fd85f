"""Solver budgets: the resource and time limits every Z3 query of the lint, the proofs and the boundary search obeys.

z3 counts the work of a check in resource units (its ``rlimit``): the same
query costs the same count on any machine, so a resource limit fails the same
way everywhere. A wall-clock timeout backs it up on a slow or loaded machine.
Both limits are per check. A check that runs out answers ``unknown``; the
callers never read that as a pass: the lint raises LintBudgetExceeded, a
property is reported as not proved with the limit named, and the boundary
search raises SolverBudgetExceeded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import z3

#: Every query of the lint, the proofs and the boundary search is over booleans and integers with linear arithmetic
#: (counts times rule-set constants). A solver told so (z3.SolverFor) skips z3's generic strategy selection and
#: answers the score-extremes searches two to four times faster; the answers (sat or unsat) are the same, and a
#: term outside the logic is an error or "unknown", which the callers never read as a pass.
SOLVER_LOGIC = "QF_LIA"


#: Whether a SOLVER_LOGIC solver (Budget.solver) compacts a model before handing it over (z3's model.compact; z3's
#: SMT core alone, Budget.simple_solver, takes no such parameter). Every query here is over integer and Boolean
#: constants, whose values compacting leaves as they are: it simplifies function interpretations, of which these
#: models have none, and was about half of the cost of fetching a model of a side table (the score searches fetch
#: hundreds). Off, the same values come quicker (the score extremes' searches about 2 % less CPU).
MODEL_COMPACT = False


@dataclass(frozen=True)
class Budget:
    """Per-check limits for a Z3 solver: resource units (deterministic) and milliseconds (a backstop)."""

    rlimit: int  #: z3 resource units one check may use
    timeout_ms: int  #: wall-clock milliseconds one check may take

    def __post_init__(self) -> None:
        if self.rlimit < 1 or self.timeout_ms < 1:
            raise ValueError(f"a solver budget needs rlimit >= 1 and timeout_ms >= 1, got {self}")

    def solver(self) -> z3.Solver:
        """A new solver under this budget, for quantifier-free linear integer arithmetic (SOLVER_LOGIC)."""
        solver = z3.SolverFor(SOLVER_LOGIC)
        self.apply(solver)
        solver.set("model.compact", MODEL_COMPACT)
        return solver

    def simple_solver(self) -> z3.Solver:
        """A new solver under this budget that goes straight to z3's SMT core (z3.SimpleSolver), for the many small
        queries of the properties and the boundary search: it skips the strategy of SOLVER_LOGIC, whose set-up is
        most of a small query's cost (1.2 ms of 1.7 on a fresh context); verify --no-cache takes 0.4 s less CPU."""
        solver = z3.SimpleSolver()
        self.apply(solver)
        return solver

    def apply(self, solver: z3.Solver | z3.Optimize) -> None:
        """Set this budget's limits on a solver or optimiser."""
        solver.set("rlimit", self.rlimit)
        solver.set("timeout", self.timeout_ms)

    def __str__(self) -> str:
        return f"rlimit {self.rlimit:,} resource units and {self.timeout_ms:,} ms per solver check"

    def exceeded(self, solver: z3.Solver | z3.Optimize) -> str:
        """Which limit stopped the solver's last check (it answered unknown), in words naming the limit."""
        reason = str(solver.reason_unknown())
        if reason == "timeout":
            return f"the time limit of {self.timeout_ms:,} ms per solver check"
        if reason == "canceled" or "resource" in reason:
            return f"the resource limit of {self.rlimit:,} z3 resource units (rlimit) per solver check"
        return f"z3 gave up ({reason}) within {self}"


#: The lint of one rule set (run whenever a rule set is loaded). The costliest lint query of the shipped rule sets
#: uses about 15,000 resource units (tens of milliseconds); the limit is over 300 times that, a second or two.
LINT_BUDGET = Budget(rlimit=5_000_000, timeout_ms=60_000)

#: One property proof, boundary search or score-extremes search step of `canasta-oracle verify`. The costliest of the
#: shipped rule sets (a step of the search for the score extremes, hand.score_extremes) uses about 220,000
#: resource units.
PROOF_BUDGET = Budget(rlimit=200_000_000, timeout_ms=30_000)


class SolverBudgetExceeded(RuntimeError):
    """A solver check ran out of its budget: what was being asked and which limit stopped it."""

    def __init__(self, what: str, limit: str) -> None:
        super().__init__(f"{what}: the solver stopped at {limit} before it could answer")
        self.what = what
        self.limit = limit


def check_within(solver: z3.Solver, budget: Budget, what: str, *assumptions: z3.BoolRef) -> bool:
    """True (sat) or False (unsat) for the solver's check; SolverBudgetExceeded when the budget runs out."""
    result = solver.check(*assumptions)
    if result == z3.unknown:
        raise SolverBudgetExceeded(what, budget.exceeded(solver))
    return bool(result == z3.sat)


def fresh_z3_context() -> None:
    """Make the next Z3 terms of this process start a new default context.

    Which model (a witness, a counterexample, a boundary table) Z3 shows
    depends on every term made before in its context, so each rule set is
    verified, and each engine-against-model run made, in a context of its own
    and gets the same answers alone, after others or in any worker process.
    z3 has no public call for this: main_ctx() makes a new context when
    z3.z3._main_ctx is None; terms made before keep their own context.
    """
    z3.z3._main_ctx = None


@contextlib.contextmanager
def own_z3_context() -> Iterator[None]:
    """Make the terms of the block start a new default context (fresh_z3_context), and give the caller its own
    context back afterwards, as if the block had asked Z3 nothing."""
    with in_z3_context(None):
        yield


@contextlib.contextmanager
def in_z3_context(ctx: z3.Context | None) -> Iterator[None]:
    """Make the terms of the block go to `ctx` as the default context (None: a new one, made when the block first
    asks for it, as fresh_z3_context), and give the caller its own context back afterwards."""
    saved = z3.z3._main_ctx
    z3.z3._main_ctx = ctx
    try:
        yield
    finally:
        z3.z3._main_ctx = saved


__all__ = [
    "LINT_BUDGET",
    "MODEL_COMPACT",
    "PROOF_BUDGET",
    "SOLVER_LOGIC",
    "Budget",
    "SolverBudgetExceeded",
    "check_within",
    "fresh_z3_context",
    "in_z3_context",
    "own_z3_context",
]
