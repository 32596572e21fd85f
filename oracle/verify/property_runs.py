"""The proofs of the Samba properties (see properties.PROPERTIES): runs, the pile's top card onto a run, red threes
that need canastas, and combining two melds of a rank."""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import rank_index
from oracle.verify import model_runs as mr
from oracle.verify.hand import side_hand
from oracle.verify.model import RuleModel, meld_counts
from oracle.verify.model_family import rank_rule, ruled_ranks
from oracle.verify.proving import Outcome, exists, prove
from oracle.verify.terms import NATURAL_RANKS, Cond, MeldCounts


def no_runs(spec: ruleset_pb2.RuleSet) -> str:
    """Why the run properties do not apply ("" when they do)."""
    return "" if spec.runs.min_size else "runs.min_size is 0: the rule set has no runs"


def no_pile_top_run(spec: ruleset_pb2.RuleSet) -> str:
    """Why pile-top-run does not apply."""
    if not spec.runs.min_size:
        return no_runs(spec)
    return "" if spec.runs.pile_top_alone else "runs.pile_top_alone is false: the top card never goes onto a run"


def no_red_three_canastas(spec: ruleset_pb2.RuleSet) -> str:
    """Why red-threes-need-canastas does not apply."""
    if spec.threes.count_values:
        return "threes score by count (threes.count_values): see threes-by-count"
    if not spec.threes.canastas_for_red_threes:
        return "threes.canastas_for_red_threes is 0: a meld decides whether red threes count"
    return ""


def no_combine(spec: ruleset_pb2.RuleSet) -> str:
    """Why combine does not apply."""
    if spec.melds.one_meld_per_rank:
        return "melds.one_meld_per_rank is true: a side never holds two melds of a rank"
    return "" if spec.melds.combine_same_rank else "melds.combine_same_rank is false: melds are never combined"


def _shown(run: mr.RunCounts) -> list[tuple[str, z3.ArithRef]]:
    return [(f"rank{r}", n) for r, n in run.cards.items()] + [("suits", run.suits), ("wilds", run.wilds)]


def _interval(spec: ruleset_pb2.RuleSet, run: mr.RunCounts) -> Cond:
    """The run is one card of each rank lo..hi for some lowest_rank <= lo <= hi <= highest_rank with
    runs.min_size <= hi - lo + 1 <= runs.max_size: the run rules as the list of the runs they allow."""
    r = spec.runs
    low, high = rank_index(r.lowest_rank), rank_index(r.highest_rank)
    shapes = []
    for lo in range(low, high + 1):
        for hi in range(lo, high + 1):
            size = hi - lo + 1
            if size < r.min_size or (r.max_size and size > r.max_size):
                continue
            shapes.append(z3.And([run.cards[k] == (1 if lo <= k <= hi else 0) for k in NATURAL_RANKS]))
    return z3.Or(shapes) if shapes else z3.BoolVal(False)


def run_limits(rm: RuleModel) -> Outcome:
    run = mr.run_counts("run")
    claim = z3.And(run.suits == 1, run.wilds == 0, _interval(rm.spec, run))
    return prove(claim, [mr.legal_run(rm.spec, run)], _shown(run))


def run_canasta(rm: RuleModel) -> Outcome:
    spec, run = rm.spec, mr.run_counts("run")
    size = spec.runs.canasta_size
    scores = z3.Implies(
        run.size == size, z3.And(mr.is_run_canasta(spec, run), mr.run_bonus(spec, run) == spec.runs.canasta_bonus)
    )
    capped = [run.size <= spec.runs.max_size] if spec.runs.max_size else []
    below = z3.Implies(run.size < size, mr.run_bonus(spec, run) == 0)
    return prove(z3.And(scores, below, *capped), [mr.legal_run(spec, run, new=False)], _shown(run))


def run_canasta_reachable(rm: RuleModel) -> Outcome:
    spec, run = rm.spec, mr.run_counts("run")
    return exists(
        z3.And(mr.legal_run(spec, run), run.size == spec.runs.canasta_size, mr.is_run_canasta(spec, run)),
        _shown(run),
        f"no legal run of runs.canasta_size {spec.runs.canasta_size} cards fits the run rules",
    )


def pile_top_run(rm: RuleModel) -> Outcome:
    spec, before = rm.spec, mr.run_counts("run")
    hand, frozen = z3.Int("hand_cards"), z3.Bool("frozen")
    top = z3.Int("top_rank")
    legal = z3.Or([z3.And(top == t, mr.take_onto_run(spec, before, t, hand, frozen)) for t in NATURAL_RANKS])
    return prove(z3.And(hand == 0, z3.Not(frozen)), [hand >= 0, legal], [("top", top), hand, frozen, *_shown(before)])


def red_threes_need_canastas(rm: RuleModel) -> Outcome:
    hand, needed = side_hand(rm, "side"), rm.spec.threes.canastas_for_red_threes
    score = hand.items["red_threes"]
    claim = (score < 0) == z3.And(hand.red_threes >= 1, hand.canastas < needed)
    shown = [("red_threes", hand.red_threes), ("canastas", hand.canastas), ("score", score)]
    return prove(claim, hand.constraints, shown)


def combine(rm: RuleModel) -> Outcome:
    spec = rm.spec
    a, b = meld_counts("first"), meld_counts("second")
    both = MeldCounts(a.naturals + b.naturals, a.wilds + b.wilds, a.jokers + b.jokers)
    cap = [both.size <= spec.melds.max_size] if spec.melds.max_size else []
    outcomes = []
    # ranks without a rank rule follow the same meld rules: one of them stands for all
    plain = [r for r in NATURAL_RANKS if rank_rule(spec, r) is None][:1]
    for rank in sorted({*plain, *ruled_ranks(spec)}):
        given = [
            rm.legal_natural_meld_at(a, rank),
            rm.legal_natural_meld_at(b, rank),
            a.naturals + b.naturals <= rm.rank_copies,
            a.wilds + b.wilds <= rm.wild_copies,
        ]
        fits = z3.And(both.wilds <= spec.melds.max_wilds, *cap)
        canastas = z3.If(rm.is_canasta(a), 1, 0) + z3.If(rm.is_canasta(b), 1, 0)
        claim = z3.And(
            rm.legal_natural_meld_at(both, rank) == fits,
            z3.Implies(canastas == 0, z3.If(rm.is_canasta(both), 1, 0) >= canastas),
            z3.Implies(z3.And(canastas == 1, rm.legal_natural_meld(both)), rm.is_canasta(both)),
        )
        outcomes.append(prove(claim, given, [a.naturals, a.wilds, b.naturals, b.wilds]))
    failed = [o.detail for o in outcomes if not o.holds]
    return Outcome(not failed, "; ".join(sorted(set(failed))))


__all__ = [
    "combine",
    "no_combine",
    "no_pile_top_run",
    "no_red_three_canastas",
    "no_runs",
    "pile_top_run",
    "red_threes_need_canastas",
    "run_canasta",
    "run_canasta_reachable",
    "run_limits",
]
