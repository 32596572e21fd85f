"""The proofs of the meld and canasta properties (see properties.PROPERTIES for each one's sentence)."""

from __future__ import annotations

import z3

from oracle.verify.model import MeldCounts, RuleModel, fixed_meld, meld_counts
from oracle.verify.model_family import representative_ranks, ruled_ranks
from oracle.verify.proving import Outcome, all_of, exists, grown_by, meld_shown, prove

# ----- melds -------------------------------------------------------------------------------------------------


def meld_limits(rm: RuleModel) -> Outcome:
    m, s = meld_counts("meld"), rm.spec.melds
    return prove(
        z3.And(m.size >= s.min_size, m.naturals >= s.min_naturals, m.wilds <= s.max_wilds),
        [rm.legal_meld(m), m.naturals >= 1, rm.in_deck(m)],
        meld_shown(m),
    )


def natural_meld_exists(rm: RuleModel) -> Outcome:
    k = max(rm.spec.melds.min_size, rm.spec.melds.min_naturals)
    m = fixed_meld(k)
    return prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m)), show=[("naturals", m.naturals)])


def max_wilds_reachable(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    return exists(
        z3.And(rm.legal_natural_meld(m), rm.in_deck(m), m.wilds == rm.spec.melds.max_wilds),
        meld_shown(m),
        f"no legal meld holds {rm.spec.melds.max_wilds} wild cards",
    )


def natural_keeps_legal(rm: RuleModel) -> Outcome:
    m, cap = meld_counts("meld"), rm.spec.melds.max_size
    grown = grown_by(m, naturals=1)
    return prove(
        rm.legal_meld(grown),
        [rm.legal_natural_meld(m), rm.in_deck(grown), z3.BoolVal(True) if not cap else grown.size <= cap],
        meld_shown(m),
    )


def fewer_wilds_keep_legal(rm: RuleModel) -> Outcome:
    m = meld_counts("meld")
    smaller = MeldCounts(m.naturals, m.wilds - 1, z3.IntVal(0))
    return prove(
        rm.legal_meld(smaller),
        [rm.legal_natural_meld(m), m.wilds >= 1, smaller.size >= rm.spec.melds.min_size],
        meld_shown(m),
    )


# ----- canastas ----------------------------------------------------------------------------------------------


def canasta_naturals(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return prove(
        m.naturals >= rm.canasta_size - rm.spec.melds.max_wilds,
        [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)],
        meld_shown(m),
    )


def canasta_mostly_natural(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return prove(m.naturals > m.wilds, [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)], meld_shown(m))


def canasta_reachable(rm: RuleModel) -> Outcome:
    m = meld_counts("canasta")
    return exists(
        z3.And(rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)),
        meld_shown(m),
        f"no legal meld of one rank reaches {rm.canasta_size} cards within the deck",
    )


def natural_canasta_reachable(rm: RuleModel) -> Outcome:
    m = fixed_meld(rm.canasta_size)
    return prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m)), show=[("naturals", m.naturals)])


def natural_beats_mixed(rm: RuleModel) -> Outcome:
    natural, mixed = meld_counts("natural"), meld_counts("mixed")
    outcomes = []
    for rank in representative_ranks(rm.spec):
        given = [
            rm.legal_natural_meld_at(natural, rank, True),
            rm.is_natural_canasta(natural),
            rm.in_deck(natural),
            rm.legal_natural_meld_at(mixed, rank, True),
            rm.is_canasta(mixed),
            mixed.wilds >= 1,
            rm.in_deck(mixed),
            mixed.size == natural.size,
        ]
        claim = rm.meld_points(natural, rank) + rm.canasta_bonus(natural, rank) > rm.meld_points(
            mixed, rank
        ) + rm.canasta_bonus(mixed, rank)
        shown = [natural.naturals, mixed.naturals, mixed.wilds, mixed.jokers]
        outcomes.append((_rank_label(rm, rank), prove(claim, given, shown)))
    return all_of(outcomes)


def _rank_label(rm: RuleModel, rank: int) -> str:
    """'rank worth 5' for a rank without a rank rule, 'rank 7 (melds.rank_rules) worth 5' for a ruled one."""
    ruled = rank in ruled_ranks(rm.spec)
    return (
        f"rank {rank + 2} (melds.rank_rules) worth {rm.rank_value(rank)}"
        if ruled
        else f"rank worth {rm.rank_value(rank)}"
    )


def canasta_growth(rm: RuleModel) -> Outcome:
    m, cap = meld_counts("canasta"), rm.spec.melds.max_size
    grown = grown_by(m, naturals=1)
    outcomes = []
    for rank in representative_ranks(rm.spec):
        given = [
            rm.legal_natural_meld_at(m, rank, True),
            rm.is_canasta(m),
            rm.in_deck(m),
            rm.in_deck(grown),
            z3.BoolVal(True) if not cap else grown.size <= cap,
        ]
        claim = z3.And(
            rm.legal_natural_meld_at(grown, rank, True),
            rm.is_canasta(grown),
            rm.is_natural_canasta(grown) == rm.is_natural_canasta(m),
            rm.meld_points(grown, rank) + rm.canasta_bonus(grown, rank)
            >= rm.meld_points(m, rank) + rm.canasta_bonus(m, rank),
        )
        outcomes.append((_rank_label(rm, rank), prove(claim, given, meld_shown(m))))
    return all_of(outcomes)


def black_threes_not_canasta(rm: RuleModel) -> Outcome:
    m = meld_counts("black_meld")
    return prove(
        z3.Not(rm.is_canasta(m)),
        [rm.legal_black_meld(m, z3.BoolVal(True)), rm.in_deck(MeldCounts(z3.IntVal(0), m.wilds, m.jokers))],
        [m.naturals, m.wilds],
    )
