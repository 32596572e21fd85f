"""Runs (Samba's sequences of one suit) as Z3 terms: which ranks a run holds, its suits and wild cards, its score.

A run is counted rank by rank: `cards[r]` natural cards of rank index r (four
.. ace), `suits` distinct suits among them, `wilds` wild cards. The run rules
(runs.*) are stated as clauses over those counts, each naming its field:

* runs.min_size 0 means no run is legal at all;
* no wild card (the Runs message: no source allows one);
* one suit, each rank at most once and no gap between the lowest and highest
  rank held (consecutive);
* no rank below runs.lowest_rank or above runs.highest_rank;
* at least runs.min_size cards when laid, at most runs.max_size (0: no cap);
* a run of runs.canasta_size cards or more is a canasta worth runs.canasta_bonus.

A take of the pile's top card onto a run (runs.pile_top_alone) is stated over
the run before and after, the hand cards it uses and the pile's state.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import rank_index
from oracle.verify.terms import NATURAL_RANKS, Clause, Cond, Expr


@dataclass(frozen=True)
class RunCounts:
    """A run as counts: natural cards per rank index, distinct suits among them, wild cards."""

    cards: dict[int, Expr]
    suits: Expr
    wilds: Expr

    @property
    def size(self) -> Expr:
        """Cards in the run."""
        return z3.Sum([*self.cards.values(), self.wilds])

    def domain(self) -> Cond:
        """Counts a run's cards can have at all (the suits of at least one natural, at most four)."""
        return z3.And(*[n >= 0 for n in self.cards.values()], self.wilds >= 0, self.suits >= 1, self.suits <= 4)

    def holds(self, rank: int) -> Cond:
        """The run holds a card of `rank`."""
        return self.cards[rank] >= 1


def run_counts(name: str) -> RunCounts:
    """Fresh run counts named `name`."""
    return RunCounts(
        {r: z3.Int(f"{name}.cards[{r}]") for r in NATURAL_RANKS}, z3.Int(f"{name}.suits"), z3.Int(f"{name}.wilds")
    )


def with_card(run: RunCounts, rank: int) -> RunCounts:
    """The run with one more natural card of `rank` in its suit."""
    return RunCounts({r: n + (1 if r == rank else 0) for r, n in run.cards.items()}, run.suits, run.wilds)


def run_clauses(spec: ruleset_pb2.RuleSet, run: RunCounts, *, new: bool = True) -> list[Clause]:
    """The run rules a run must follow (`new`: laid now, so runs.min_size applies)."""
    r = spec.runs
    low, high = rank_index(r.lowest_rank), rank_index(r.highest_rank)
    ranks = list(NATURAL_RANKS)
    # consecutive: the ranks held start a block at most once (a rank held whose lower neighbour is not)
    starts = z3.Sum(
        [
            z3.If(z3.And(run.holds(b), *([] if i == 0 else [z3.Not(run.holds(ranks[i - 1]))])), 1, 0)
            for i, b in enumerate(ranks)
        ]
    )
    clauses = [
        Clause("runs.min_size", "runs are allowed" if r.min_size else "no run is allowed", z3.BoolVal(r.min_size > 0)),
        Clause("runs", "a run holds no wild card", run.wilds == 0),
        Clause("runs", "a run is of one suit", run.suits == 1),
        Clause("runs", "a run holds each rank once", z3.And([n <= 1 for n in run.cards.values()])),
        Clause("runs", "a run's ranks are consecutive", starts <= 1),
        Clause(
            "runs.lowest_rank",
            f"a run holds no rank below rank index {low}",
            z3.And([run.cards[k] == 0 for k in ranks if k < low] or [z3.BoolVal(True)]),
        ),
        Clause(
            "runs.highest_rank",
            f"a run holds no rank above rank index {high}",
            z3.And([run.cards[k] == 0 for k in ranks if k > high] or [z3.BoolVal(True)]),
        ),
    ]
    if new:
        clauses.append(Clause("runs.min_size", f"a new run holds at least {r.min_size} cards", run.size >= r.min_size))
    if r.max_size:
        clauses.append(Clause("runs.max_size", f"a run holds at most {r.max_size} cards", run.size <= r.max_size))
    return clauses


def legal_run(spec: ruleset_pb2.RuleSet, run: RunCounts, *, new: bool = True) -> Cond:
    """The run follows every run rule."""
    return z3.And(run.domain(), *[c.expr for c in run_clauses(spec, run, new=new)])


def is_run_canasta(spec: ruleset_pb2.RuleSet, run: RunCounts) -> Cond:
    """A run of runs.canasta_size cards or more (where runs are allowed)."""
    return z3.And(z3.BoolVal(spec.runs.min_size > 0), run.size >= spec.runs.canasta_size)


def run_bonus(spec: ruleset_pb2.RuleSet, run: RunCounts) -> Expr:
    """The canasta bonus a run earns: runs.canasta_bonus for a run canasta, else 0."""
    return z3.If(is_run_canasta(spec, run), spec.runs.canasta_bonus, 0)


def take_onto_run(spec: ruleset_pb2.RuleSet, before: RunCounts, top: int, hand_cards: Expr, frozen: Cond) -> Cond:
    """The pile's top card (rank index `top`) joins the side's run `before` with `hand_cards` cards from the hand:
    runs.pile_top_alone (the top card alone, the pile not frozen), the run not yet a canasta where
    discard_pile.onto_meld_below_canasta_only, and the run after it legal."""
    alone = z3.And(z3.BoolVal(spec.runs.pile_top_alone), hand_cards == 0, z3.Not(frozen))
    below = z3.Not(is_run_canasta(spec, before)) if spec.discard_pile.onto_meld_below_canasta_only else z3.BoolVal(True)
    return z3.And(legal_run(spec, before, new=False), alone, below, legal_run(spec, with_card(before, top), new=False))


__all__ = [
    "RunCounts",
    "is_run_canasta",
    "legal_run",
    "run_bonus",
    "run_clauses",
    "run_counts",
    "take_onto_run",
    "with_card",
]
