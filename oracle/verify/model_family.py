"""The Modern American Canasta rules as Z3 terms over counts: rank rules, wild-card canastas, threes by count, minus.

Each term reads only the RuleSet message and is the classic term when the
family's fields are unset (no rank rule, canastas.wild_bonus 0, no
threes.count_values, card_values.table_minus_below_canastas 0):

* a rank rule (melds.rank_rules) caps the wild cards of a meld of its rank at
  its max_wilds, except a meld laid in the side's initial meld when
  wilds_in_initial_meld (then melds.max_wilds, as for any meld); the general
  limits apply to every meld as well;
* a natural canasta of a rank whose rule sets canasta_bonus earns it instead
  of canastas.natural_bonus; a natural meld of such a rank short of a canasta
  costs unfinished_penalty; a player holding held_min or more of the rank at
  the end costs held_penalty;
* a canasta of wild cards alone earns canastas.wild_all_twos_bonus (no joker),
  wild_all_jokers_bonus (every joker of the deck) or wild_bonus where
  wild_bonus is set (else the mixed bonus); one short of a canasta costs
  wild_unfinished_penalty;
* with threes.count_values the threes score per colour: count_values[n - 1]
  for n threes (the last entry beyond its length), minus with fewer than
  minus_below_canastas canastas, nothing with fewer than plus_from_canastas,
  plus from there; black threes are laid like red ones under
  threes.black_three_role BONUS;
* a side with fewer canastas than card_values.table_minus_below_canastas
  counts its melded cards minus.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import rank_index
from oracle.verify.model_foot import priced_ranks
from oracle.verify.terms import RANK_CLASSES, Cond, Expr, MeldCounts


def rank_rule(spec: ruleset_pb2.RuleSet, rank: int) -> ruleset_pb2.RankRule | None:
    """melds.rank_rules' row for a rank index, or None."""
    for row in spec.melds.rank_rules:
        if rank_index(row.rank) == rank:
            return row
    return None


def ruled_ranks(spec: ruleset_pb2.RuleSet) -> tuple[int, ...]:
    """The rank indexes melds.rank_rules names, in order."""
    return tuple(rank_index(row.rank) for row in spec.melds.rank_rules)


def held_ranks(spec: ruleset_pb2.RuleSet) -> tuple[int, ...]:
    """The rank indexes whose rule sets a held penalty (held_min and held_penalty both set)."""
    return tuple(r for r in ruled_ranks(spec) if (row := rank_rule(spec, r)) and row.held_min and row.held_penalty)


def free_ranks(spec: ruleset_pb2.RuleSet, value_class: str) -> tuple[int, ...]:
    """The ranks of a value class no rank rule names and card_values.rank_values does not price (interchangeable in
    hand and on the table)."""
    ruled = set(ruled_ranks(spec)) | set(priced_ranks(spec))
    return tuple(r for r in RANK_CLASSES[value_class] if r not in ruled)


def representative_ranks(spec: ruleset_pb2.RuleSet) -> tuple[int, ...]:
    """One rank of each value class without a rank rule, and every ruled or priced rank: the ranks that can score
    apart."""
    out = [ranks[0] for c in RANK_CLASSES if (ranks := free_ranks(spec, c))]
    return tuple(sorted(set(out) | set(ruled_ranks(spec)) | set(priced_ranks(spec))))


def rank_wild_limit(spec: ruleset_pb2.RuleSet, rank: int, initial: bool) -> int:
    """Most wild cards a meld of `rank` may hold (in the side's initial meld when `initial`)."""
    general = spec.melds.max_wilds
    row = rank_rule(spec, rank)
    if row is None or (initial and row.wilds_in_initial_meld):
        return general
    return min(general, row.max_wilds)


def rank_wilds_ok(spec: ruleset_pb2.RuleSet, m: MeldCounts, rank: int | None, initial: Cond | bool) -> Cond:
    """The rank rule's wild limit for a meld of `rank` (None: no rank), laid in the initial meld when `initial`."""
    if rank is None or rank_rule(spec, rank) is None:
        return z3.BoolVal(True)
    later = m.wilds <= rank_wild_limit(spec, rank, False)
    return z3.Or(later, z3.And(initial, m.wilds <= rank_wild_limit(spec, rank, True)))


def natural_canasta_bonus(spec: ruleset_pb2.RuleSet, rank: int | None) -> int:
    """The bonus of a natural canasta of `rank` (None: any rank without a rule)."""
    row = None if rank is None else rank_rule(spec, rank)
    return row.canasta_bonus if row is not None and row.canasta_bonus else spec.canastas.natural_bonus


def wild_canasta_bonus(spec: ruleset_pb2.RuleSet, jokers: Expr, joker_copies: int) -> Expr:
    """The bonus of a canasta of wild cards alone holding `jokers` jokers."""
    c = spec.canastas
    if not c.wild_bonus:
        return z3.IntVal(c.mixed_bonus)
    result: Expr = z3.IntVal(c.wild_bonus)
    if c.wild_all_jokers_bonus:
        result = z3.If(jokers == joker_copies, c.wild_all_jokers_bonus, result)
    if c.wild_all_twos_bonus:
        result = z3.If(jokers == 0, c.wild_all_twos_bonus, result)
    return result


def unfinished_penalty(spec: ruleset_pb2.RuleSet, m: MeldCounts, rank: int | None, canasta: Cond) -> Expr:
    """The points (<= 0) a meld short of a canasta costs: a wild-card meld (rank None), a natural meld of a rank."""
    if rank is None:
        cost = spec.canastas.wild_unfinished_penalty
        return z3.If(z3.And(m.wilds >= 1, z3.Not(canasta)), -cost, 0) if cost else z3.IntVal(0)
    row = rank_rule(spec, rank)
    if row is None or not row.unfinished_penalty:
        return z3.IntVal(0)
    return z3.If(z3.And(m.naturals >= 1, m.wilds == 0, z3.Not(canasta)), -row.unfinished_penalty, 0)


def blocks_going_out(spec: ruleset_pb2.RuleSet, m: MeldCounts, rank: int | None, canasta: Cond) -> Cond:
    """going_out.unfinished_special_meld_blocks: this meld short of a canasta stops the side going out."""
    if not spec.going_out.unfinished_special_meld_blocks:
        return z3.BoolVal(False)
    return z3.Not(unfinished_penalty(spec, m, rank, canasta) == 0)


def initial_count(spec: ruleset_pb2.RuleSet, hand_points: Expr, top_points: Expr) -> Expr:
    """The points an initial meld taking the pile counts toward the minimum: the top card's only where
    initial_meld.pile_top_counts."""
    return hand_points + top_points if spec.initial_meld.pile_top_counts else hand_points


def rank_dead(spec: ruleset_pb2.RuleSet, canasta_on_a_side: Cond) -> Cond:
    """discard_pile.closed_rank_dead: a rank with a canasta on either side is closed to both sides (no meld of it
    laid or added to, the pile not taken with one on top)."""
    return z3.And(z3.BoolVal(spec.discard_pile.closed_rank_dead), canasta_on_a_side)


def count_value(spec: ruleset_pb2.RuleSet, count: Expr) -> Expr:
    """threes.count_values' value of `count` threes of one colour (0 for none)."""
    values = list(spec.threes.count_values)
    result: Expr = z3.IntVal(values[-1])
    for n in range(len(values) - 1, 0, -1):
        result = z3.If(count == n, values[n - 1], result)
    return z3.If(count <= 0, 0, result)


def count_sign(spec: ruleset_pb2.RuleSet, canastas: Expr) -> Expr:
    """-1, 0 or 1: how the side's canastas sign its threes by count."""
    t = spec.threes
    return z3.If(canastas < t.minus_below_canastas, -1, z3.If(canastas < t.plus_from_canastas, 0, 1))


def threes_by_count(spec: ruleset_pb2.RuleSet, red: Expr, black: Expr, canastas: Expr) -> Expr:
    """The threes' score by count: both colours' values, signed by the canastas."""
    return count_sign(spec, canastas) * (count_value(spec, red) + count_value(spec, black))


def black_threes_bonus(spec: ruleset_pb2.RuleSet) -> bool:
    """Black threes are laid as bonus cards (threes.black_three_role BONUS)."""
    return spec.threes.black_three_role == ruleset_pb2.BLACK_THREE_ROLE_BONUS


def melds_minus(spec: ruleset_pb2.RuleSet, canastas: Expr) -> Cond:
    """card_values.table_minus_below_canastas: the melded cards count minus."""
    below = spec.card_values.table_minus_below_canastas
    return canastas < below if below else z3.BoolVal(False)


def held_penalty(
    spec: ruleset_pb2.RuleSet, rank: int, count: Expr, players: Expr, holders: Expr
) -> tuple[Expr, list[Cond]]:
    """The held-rank penalty (<= 0) of `holders` of `players` players holding `count` cards of `rank` between them,
    and the conditions that make `holders` exact (each holds at least held_min, the others fewer)."""
    row = rank_rule(spec, rank)
    assert row is not None and row.held_min and row.held_penalty, rank
    most = 4 * spec.deck.packs
    cons = [
        holders >= 0,
        holders <= players,
        count >= holders * row.held_min,
        count <= holders * most + (players - holders) * (row.held_min - 1),
    ]
    return -row.held_penalty * holders, cons


def sum_or_zero(terms: Sequence[Expr]) -> Expr:
    """z3.Sum of the terms, or 0 for none."""
    return z3.Sum(list(terms)) if terms else z3.IntVal(0)


__all__ = [
    "black_threes_bonus",
    "blocks_going_out",
    "count_sign",
    "count_value",
    "free_ranks",
    "held_penalty",
    "held_ranks",
    "initial_count",
    "melds_minus",
    "natural_canasta_bonus",
    "rank_dead",
    "rank_rule",
    "rank_wild_limit",
    "rank_wilds_ok",
    "representative_ranks",
    "ruled_ranks",
    "sum_or_zero",
    "threes_by_count",
    "unfinished_penalty",
    "wild_canasta_bonus",
]
