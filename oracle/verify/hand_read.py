"""Reading a side's end-of-hand table back out of a solver model, and the proved lowest and highest scoring tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import footprint, hand_split, score_targets
from oracle.verify.budget import PROOF_BUDGET, check_within, own_z3_context
from oracle.verify.footprint import read_within
from oracle.verify.hand import SIDE_FIELDS, SideHand, side_hand
from oracle.verify.model import WILD_MELD, Cond, Expr, RuleModel, field_value
from oracle.verify.proving import Outcome, Shown, prove_on, proved_maximum
from oracle.verify.side_claims import SIDE_CLAIMS
from oracle.verify.solver_io import assert_all, int_values, true_in


@dataclass(frozen=True)
class ConcreteSide:
    """A side's end-of-hand table read from a solver model: plain counts and the model's score items."""

    melds: tuple[tuple[int, int, int, int], ...]  #: (rank or WILD_MELD, naturals, twos, jokers)
    black_meld: tuple[int, int, int] | None  #: (black threes, twos, jokers)
    hand: dict[str, int]  #: value class -> natural cards of its ranks without a rank rule left in hand
    hand_twos: int
    hand_jokers: int
    hand_black_threes: int
    red_threes: int
    went_out: int
    items: dict[str, int]
    hand_ranked: dict[int, int] = field(default_factory=dict)  #: rank with a rank rule -> cards of it in hand
    black_laid: int = 0  #: black threes laid as bonus cards
    holders: dict[int, int] = field(default_factory=dict)  #: rank -> players holding its held_min or more
    hand_red_threes: int = 0  #: red threes held in hand (threes.red_three_held)

    @property
    def total(self) -> int:
        """The model's score."""
        return sum(self.items.values())


def read_side(hand: SideHand, model: z3.ModelRef) -> ConcreteSide:
    """The concrete side a satisfying model describes (the melded jokers go to the first melds with wilds)."""

    def num(e: Expr) -> int:
        return int_values(model, [e])[0]

    wild_jokers = [num(j) for j in hand.wild_jokers]
    jokers_left = num(hand.melded_jokers) - sum(wild_jokers)

    def split(wilds: int) -> tuple[int, int]:
        nonlocal jokers_left
        jokers = min(wilds, jokers_left)
        jokers_left -= jokers
        return wilds - jokers, jokers

    melds = []
    for slot in hand.slots:
        if slot.rank == WILD_MELD:
            jokers = wild_jokers.pop(0)
            if wilds := num(slot.counts.wilds):
                melds.append((slot.rank, 0, wilds - jokers, jokers))
        elif true_in(model, slot.present):
            melds.append((slot.rank, num(slot.counts.naturals), *split(num(slot.counts.wilds))))
    threes = num(hand.black.naturals)
    black_meld = (threes, *split(num(hand.black.wilds))) if threes else None
    return ConcreteSide(
        melds=tuple(melds),
        black_meld=black_meld,
        hand={c: n for c, e in hand.hand_naturals.items() if (n := num(e))},
        hand_twos=num(hand.hand_twos),
        hand_jokers=num(hand.hand_jokers),
        hand_black_threes=num(hand.hand_black_threes),
        red_threes=num(hand.red_threes),
        went_out=num(hand.went_out),
        items={k: num(e) for k, e in hand.items.items()},
        hand_ranked={r: n for r, e in hand.hand_ranked.items() if (n := num(e))},
        black_laid=num(hand.black_laid),
        holders={r: num(e) for r, e in hand.holders.items()},
        hand_red_threes=num(hand.hand_red_threes),
    )


@dataclass(frozen=True)
class Extremes:
    """The lowest and highest scoring side tables under a rule set (score_extremes)."""

    low: ConcreteSide
    high: ConcreteSide


_extremes_cache: dict[str, ConcreteSide | None] = {}


def extreme_key(spec: ruleset_pb2.RuleSet, *, partnership: bool, sign: int) -> str:
    """What one extreme (extreme_side) depends on: the scoring fields' values, the side's kind and the direction."""
    # the fields side_hand reads (hand.SIDE_FIELDS), which the rank-by-rank highest (hand_split) reads too
    return repr([field_value(spec, path) for path in SIDE_FIELDS] + [partnership, sign])


def seed_extremes(found: dict[str, ConcreteSide | None]) -> None:
    """Take extremes computed elsewhere (another worker process) by extreme_key: the same answers this process
    would compute, as each is a function of its key alone (see extreme_side)."""
    _extremes_cache.update(found)


def known_extremes() -> dict[str, ConcreteSide | None]:
    """The extremes this process has computed or been given, by extreme_key."""
    return dict(_extremes_cache)


def extreme_side(model: RuleModel, *, partnership: bool = False, sign: int = 1) -> ConcreteSide | None:
    """The highest (sign 1) or lowest (sign -1) scoring side table, proved so; None when a check gives up.

    Both are computed together, once per process for each pair of extreme_keys, in a Z3 context of their own
    (budget.own_z3_context) on a model of their own, the highest first: each answer, witness included, depends on
    the key's fields alone, not on what the caller or this process asked Z3 before, and the caller's context is
    left as it was.
    """
    key = extreme_key(model.spec, partnership=partnership, sign=sign)
    if key not in _extremes_cache:
        with own_z3_context():
            fresh = RuleModel(model.spec)
            hand = side_hand(fresh, "partnership" if partnership else "side", partnership=partnership)
            # one solver of the table's constraints for both searches, which ask only under assumptions (its
            # assertions stay the table's): the lowest search starts from what the highest learnt (samba-4p's
            # pair 1.04 s -> 0.80 s, hand-and-foot-red-threes-laid-4p's 0.85 s -> 0.44 s), and is still proved by
            # its own unsat check
            solver = PROOF_BUDGET.solver()
            assert_all(solver, hand.constraints)
            if fresh.spec.melds.one_open_meld_per_rank and hand_split.splits(fresh.spec):
                # several books of a rank closed at melds.max_size (one open at a time): the highest proved rank by
                # rank, which the direct search cannot finish within its budget (hand_split)
                witness = hand_split.highest_table(fresh, hand, solver)
                high = None if witness is None else read_side(hand, witness)
            else:
                high = _extreme(solver, hand, 1)
            low = _extreme(solver, hand, -1)
            if not partnership:  # the side claims and score targets, on the same solver (side_proof, side_targets)
                claims = read_within(fresh.spec, SIDE_FIELDS, lambda spec: _side_claims(RuleModel(spec), hand))
                footprint.keep(SIDE_PROOFS, model.spec, SIDE_FIELDS, {i: prove_on(solver, *c) for i, c in claims})
                footprint.keep(SIDE_TARGETS, model.spec, SIDE_FIELDS, _targets_found(fresh, hand, solver))
        _extremes_cache[extreme_key(model.spec, partnership=partnership, sign=-1)] = low
        _extremes_cache[extreme_key(model.spec, partnership=partnership, sign=1)] = high
    return _extremes_cache[key]


#: The footprint names of the side claims' outcomes (side_proof) and of the score targets' tables (side_targets),
#: kept by the values of hand.SIDE_FIELDS.
SIDE_PROOFS, SIDE_TARGETS = "side-proofs", "side-targets"

Found = list[tuple[str, str, ConcreteSide]]  #: (slug, description, side table) of each score target reached


def _asked(model: RuleModel, hand: SideHand) -> tuple[list[Cond], list[score_targets.Target]]:
    """The small tables' conditions and the score targets (score_targets) of `hand` under `model`."""
    return score_targets.small(model, hand), score_targets.score_targets(model, hand)


def _targets_found(model: RuleModel, hand: SideHand, solver: z3.Solver) -> Found:
    """A side table on each score boundary that has one (score_targets), among the small tables, asked of the
    extremes' solver under assumptions with score_targets.small asserted for them alone (pushed, then popped)."""
    small, targets = read_within(model.spec, SIDE_FIELDS, lambda spec: _asked(RuleModel(spec), hand))
    found: Found = []
    solver.push()
    try:
        assert_all(solver, small)
        for slug, what, conditions in targets:
            if check_within(solver, PROOF_BUDGET, f"the score boundary '{slug}' ({what})", z3.And(*conditions)):
                found.append((slug, what, read_side(hand, solver.model())))
    finally:
        solver.pop()
    return found


def _side_claims(model: RuleModel, hand: SideHand) -> list[tuple[str, tuple[Cond, Shown]]]:
    """Each side claim (side_claims.SIDE_CLAIMS) of `hand` under `model`, by property id."""
    return [(prop, claim(model, hand)) for prop, claim in SIDE_CLAIMS.items()]


def _with_extremes(model: RuleModel, name: str) -> object:
    """The answer kept under `name` by the proof of `model`'s side extremes (extreme_side), proving them if it is
    not known in this process (or was forgotten since: footprint.forget)."""
    found = footprint.kept_answer(name, model.spec)
    if found is None:
        _extremes_cache.pop(extreme_key(model.spec, partnership=False, sign=1), None)
        extreme_side(model)
        found = footprint.kept_answer(name, model.spec)
    return found


def side_targets(model: RuleModel) -> Found:
    """A side table ("side") on each score boundary of score_targets that has one, found with the extremes.

    They are asked of the solver of the table's score extremes (extreme_side) after its searches, which has
    learnt from them: the tables found are each a function of the values of hand.SIDE_FIELDS alone, kept by them
    (footprint.keep) and handed on by a worker with the extremes. SolverBudgetExceeded names a target whose check
    gives up.
    """
    return cast(Found, _with_extremes(model, SIDE_TARGETS))


def side_proof(model: RuleModel, prop: str) -> Outcome:
    """The outcome of the side claim `prop` (side_claims.SIDE_CLAIMS) for the side table ("side") of `model`.

    Each is proved by the unsat check of its negation, given the table's constraints, as proving.prove would,
    but on the solver of the table's score extremes (extreme_side), which holds those constraints and has learnt
    from its searches: a second of solver set-up and search less over the shipped rule sets. They are proved
    with the extremes, in their context, so each outcome (a counterexample included) is a function of the values
    of hand.SIDE_FIELDS alone, and kept by them (footprint.keep): a worker hands them on with the extremes.
    """
    return cast(dict[str, Outcome], _with_extremes(model, SIDE_PROOFS))[prop]


def score_extremes(model: RuleModel, *, partnership: bool = False) -> Extremes | None:
    """The lowest and highest scoring side tables, each proved extreme by satisfiability checks alone.

    For each direction a search (_extreme) finds a side table scoring T (sat:
    the witness) while "a total beyond T" is unsatisfiable: that unsat answer
    is the proof of the bound. None when a check gives up
    (budget.PROOF_BUDGET). Each direction is extreme_side's: rule sets that
    agree on every scoring field share it. `partnership`: the tables of a side
    of two formed during the hand (side_hand's `partnership`), scored with
    one partner's red threes.
    """
    low = extreme_side(model, partnership=partnership, sign=-1)
    high = extreme_side(model, partnership=partnership, sign=1)
    return None if low is None or high is None else Extremes(low, high)


def _extreme(solver: z3.Solver, hand: SideHand, sign: int) -> ConcreteSide | None:
    """A highest (sign 1) or lowest (sign -1) scoring side table, proved so (proving.proved_maximum) on `solver`,
    which asserts the table's constraints and nothing else; None when a check gives up."""
    objective = hand.total if sign > 0 else -hand.total
    witness = proved_maximum(solver, objective)
    return None if witness is None else read_side(hand, witness)
