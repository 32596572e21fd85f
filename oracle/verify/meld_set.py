"""A side's melds held at once as counts, one per natural rank (plus a wild-only meld if allowed), with points.

Used for the initial meld and for "enough canastas to go out". Which wild
sits in which meld does not matter, so twos and jokers are counted for all
melds together; ranks of one value class are ordered by naturals melded
(symmetry breaking). RuleModel.melds_at_once builds it once per process for
the values of the fields it reads and copies it into each asking context.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Protocol

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_foot
from oracle.verify.terms import NATURAL_RANKS, RANK_CLASSES, WILD_MELD, Cond, Expr, MeldCounts


class MeldRules(Protocol):
    """What a meld set is built from: the rule model's meld rules, copies and points (RuleModel has them)."""

    @property
    def spec(self) -> ruleset_pb2.RuleSet: ...

    @property
    def rank_copies(self) -> int: ...

    @property
    def two_copies(self) -> int: ...

    @property
    def joker_copies(self) -> int: ...

    def legal_natural_meld_at(self, m: MeldCounts, rank: int, initial: Cond | bool = False) -> Cond: ...

    def legal_wild_meld(self, m: MeldCounts) -> Cond: ...

    def rank_value(self, rank: int) -> int: ...

    def is_canasta(self, m: MeldCounts) -> Cond: ...


@dataclass(frozen=True)
class MeldSet:
    """Several melds of one side at once, as counts: see RuleModel.melds_at_once."""

    melds: tuple[tuple[int, MeldCounts], ...]  #: (rank or WILD_MELD, counts; counts.jokers is 0)
    twos: Expr  #: twos in all the melds
    jokers: Expr  #: jokers in all the melds
    points: Expr  #: card points of all the melds
    cards: Expr  #: cards in all the melds
    canastas: Expr  #: how many are canastas
    constraints: tuple[Cond, ...]


def build_meld_set(model: MeldRules, name: str) -> MeldSet:
    """The meld set called `name` under `model`'s rules, built afresh in the default context."""
    zero = z3.IntVal(0)
    melds: list[tuple[int, MeldCounts]] = []
    cons: list[Cond] = []
    per_rank = 1 if model.spec.melds.one_meld_per_rank else 2
    for rank in NATURAL_RANKS:
        for k in range(per_rank):
            m = MeldCounts(z3.Int(f"{name}[{rank}][{k}].naturals"), z3.Int(f"{name}[{rank}][{k}].wilds"), zero)
            legal = model.legal_natural_meld_at(m, rank, True)
            cons.append(z3.If(m.naturals >= 1, legal, z3.And(m.naturals == 0, m.wilds == 0)))
            melds.append((rank, m))
        cons.append(z3.Sum([m.naturals for r, m in melds if r == rank]) <= model.rank_copies)
    for ranks in RANK_CLASSES.values():
        ranks = tuple(r for r in ranks if r not in model_foot.priced_ranks(model.spec))
        firsts = [m.naturals for r, m in melds if r in ranks]
        cons += [a >= b for a, b in itertools.pairwise(firsts)] if per_rank == 1 else []
    if model.spec.melds.wild_only_melds:
        m = MeldCounts(zero, z3.Int(f"{name}.wild_only.wilds"), zero)
        cons.append(z3.If(m.wilds >= 1, model.legal_wild_meld(m), m.wilds == 0))
        melds.append((WILD_MELD, m))
    twos, jokers = z3.Int(f"{name}.twos"), z3.Int(f"{name}.jokers")
    cons += [
        twos >= 0,
        jokers >= 0,
        twos <= model.two_copies,
        jokers <= model.joker_copies,
        twos + jokers == z3.Sum([m.wilds for _, m in melds]),
    ]
    v = model.spec.card_values
    points = z3.Sum(
        [m.naturals * model.rank_value(r) for r, m in melds if r != WILD_MELD] + [twos * v.two, jokers * v.joker]
    )
    canastas = z3.Sum([z3.If(z3.And(m.size >= 1, model.is_canasta(m)), 1, 0) for _, m in melds])
    cards = z3.Sum([m.size for _, m in melds])
    return MeldSet(tuple(melds), twos, jokers, points, cards, canastas, tuple(cons))


__all__ = ["MeldRules", "MeldSet", "build_meld_set"]
