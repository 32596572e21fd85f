"""The highest side score proved rank by rank, for rule sets whose many books a rank defeat the direct search.

hand_read's search for the highest table asks one solver about every meld at
once; with several books of a rank (Hand and Foot: five packs, books closed at
seven) its last "nothing beyond" check runs out of budget. The score is a sum
over ranks that share only the wild cards, so this proof splits it:

1. for each natural rank r and each number w of wild cards in its books, the
   most its books can score (card points of its naturals and canasta
   bonuses), U_r(w): a small solver maximum, proved by an unsatisfiable
   "one point more" check (one solver per rank, each w in a scope of its own);
2. the most every rank together can score with W wild cards: an exact
   knapsack over the ranks of the proved U_r; plus the wild cards' points
   (jokers first, being worth no less than twos), the most the threes and
   going out can add, and no card left in hand: an upper bound of the whole;
3. the full side table model (hand.side_hand), with each rank's books fixed
   to those that reach its part, is asked for a table that reaches that bound
   (and none beyond it, a check that the bound is one): satisfiable means the
   bound is the highest score, and the model is its witness.

It applies only where the score has no other item (no rank rules, no wild-only
melds, no black-three meld, no threes by count, no table minus); elsewhere it
answers None, as when step 3 finds no table at the bound.
"""

from __future__ import annotations

import functools
import itertools

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_family as fam
from oracle.verify import model_foot as mf
from oracle.verify.budget import PROOF_BUDGET
from oracle.verify.footprint import shared
from oracle.verify.hand import SideHand, slots_per_rank
from oracle.verify.model import NATURAL_RANKS, RANK_CLASSES, MeldCounts, RuleModel
from oracle.verify.proving import proved_maximum
from oracle.verify.solver_io import assert_all, int_values


def splits(spec: ruleset_pb2.RuleSet) -> bool:
    """Whether the score is only per-rank books, wild cards, threes, going out and cards in hand."""
    m, t, c = spec.melds, spec.threes, spec.canastas
    return not (
        m.rank_rules
        or m.wild_only_melds
        or t.black_three_meld_max
        or t.count_values
        or spec.card_values.table_minus_below_canastas
        or c.wild_unfinished_penalty
    )


Books = tuple[tuple[int, int], ...]  #: a rank's books as (naturals, wilds), in side_hand's slot order


def _rank_table(model: RuleModel, rank: int, limit: int) -> list[tuple[int, Books] | None]:
    """For each number w of wild cards from 0 to `limit`, the most a rank's books with exactly w wild cards score
    (card points + bonuses), proved, and books that score it; None where no books hold them, or the solver gives
    up. One solver holds the books' rules; each w is asked in a scope of its own (push, pop)."""
    per_rank, _ = slots_per_rank(model)
    zero = z3.IntVal(0)
    books = [
        MeldCounts(z3.Int(f"split[{rank}][{k}].naturals"), z3.Int(f"split[{rank}][{k}].wilds"), zero)
        for k in range(per_rank)
    ]
    cons: list[z3.BoolRef] = [
        z3.If(m.naturals >= 1, model.legal_natural_meld_at(m, rank, True), z3.And(m.naturals == 0, m.wilds == 0))
        for m in books
    ]
    order = model.wild_copies + 1
    cons += [a.naturals * order + a.wilds >= b.naturals * order + b.wilds for a, b in itertools.pairwise(books)]
    cons += mf.open_books(model.spec, [(m.naturals >= 1, m) for m in books])
    cons += [z3.Sum([m.naturals for m in books]) <= model.rank_copies]
    score = z3.Sum([m.naturals * model.rank_value(rank) + model.canasta_bonus(m, rank) for m in books])
    solver = PROOF_BUDGET.solver()
    assert_all(solver, cons)
    table: list[tuple[int, Books] | None] = []
    for wilds in range(limit + 1):
        solver.push()
        solver.add(z3.Sum([m.wilds for m in books]) == wilds)
        found = proved_maximum(solver, score)
        solver.pop()
        if found is None:
            table.append(None)
            continue
        counts = int_values(found, [term for m in books for term in (m.naturals, m.wilds)])
        shown = tuple(zip(counts[::2], counts[1::2], strict=True))
        table.append((int_values(found, [score])[0], shown))
    return table


def _rank_tables(model: RuleModel) -> dict[int, list[tuple[int, Books] | None]]:
    """_rank_table for one rank of each point value (ranks of one value under the general meld rules score alike),
    by value."""
    limit = min(model.wild_copies, slots_per_rank(model)[0] * model.spec.melds.max_wilds)
    tables: dict[int, list[tuple[int, Books] | None]] = {}
    for rank in NATURAL_RANKS:
        if model.rank_value(rank) not in tables:
            tables[model.rank_value(rank)] = _rank_table(model, rank, limit)
    return tables


def _most_wild_points(model: RuleModel, wilds: int) -> int:
    v = model.spec.card_values
    jokers = min(wilds, model.joker_copies)
    return int(jokers * v.joker + (wilds - jokers) * v.two)


def _most_threes_and_out(model: RuleModel) -> int:
    t, g = model.spec.threes, model.spec.going_out
    red = 0
    if not t.red_three_held:
        for count in range(model.red_three_copies + 1):
            for counted in (True, False):
                value = z3.simplify(model.red_three_score(z3.IntVal(count), z3.BoolVal(counted))).as_long()
                red = max(red, value)
    return int(red + max(0, g.bonus, g.concealed_bonus))


def highest_split(model: RuleModel) -> tuple[int, dict[int, Books]] | None:
    """An upper bound of every side's score, each rank's part proved, and the books of each rank that reach its
    part; None where the score does not split or a rank's part is not proved."""
    if not splits(model.spec):
        return None
    # shared by the rule sets that agree on every field the ranks' tables read (footprint: the Hand and Foot sets)
    tables = shared("hand-split-ranks", model.spec, lambda spec: _rank_tables(RuleModel(spec)))
    per_rank = [tables[model.rank_value(r)] for r in NATURAL_RANKS]

    @functools.cache
    def best(i: int, left: int) -> tuple[int, tuple[int, ...]] | None:  # ranks i.. with `left` wild cards exactly
        if i == len(per_rank):
            return (0, ()) if left == 0 else None
        options = []
        for w, part in enumerate(per_rank[i]):
            if part is not None and w <= left and (rest := best(i + 1, left - w)) is not None:
                options.append((part[0] + rest[0], (w, *rest[1])))
        return max(options) if options else None

    totals = []
    for w in range(model.wild_copies + 1):
        if (found := best(0, w)) is not None:
            totals.append((found[0] + _most_wild_points(model, w), found[1]))
    if not totals:
        return None
    top, allocation = max(totals)
    chosen: dict[int, Books] = {}
    for rank, table, w in zip(NATURAL_RANKS, per_rank, allocation, strict=True):
        part = table[w]
        assert part is not None
        chosen[rank] = part[1]
    return top + _most_threes_and_out(model), chosen


def highest_table(model: RuleModel, hand: SideHand, solver: z3.Solver | None = None) -> z3.ModelRef | None:
    """A side table scoring the proved upper bound (highest_split), or None.

    The table's books are the ranks' proved books, rearranged among the ranks of one value class that side_hand
    orders (an order that only removes symmetry); the solver completes the rest (which wild cards are jokers,
    the threes, going out) and must reach the bound. `solver` asserts the table's constraints (a new one when
    None); the books are asked as an assumption, so its assertions stay the table's (the lowest search follows
    on it: hand_read.extreme_side).
    """
    split = highest_split(model)
    if split is None:
        return None
    bound, chosen = split
    order = model.wild_copies + 1
    for value_class in RANK_CLASSES:
        free = fam.free_ranks(model.spec, value_class)
        parts = sorted((chosen[r] for r in free), key=lambda b: -sum(n * order + w for n, w in b))
        chosen |= dict(zip(free, parts, strict=True))
    fixed = []
    for rank in NATURAL_RANKS:
        slots = [s for s in hand.slots if s.rank == rank]
        for slot, (naturals, wilds) in zip(slots, chosen[rank], strict=True):
            fixed += [slot.counts.naturals == naturals, slot.counts.wilds == wilds]
    if solver is None:
        solver = PROOF_BUDGET.solver()
        assert_all(solver, hand.constraints)
    books = z3.And(fixed)
    if solver.check(hand.total >= bound, books) != z3.sat:
        return None
    found = solver.model()
    # a table of these books beyond the bound would mean the bound is wrong: never report it as the highest
    return found if solver.check(hand.total >= bound + 1, books) == z3.unsat else None


__all__ = ["highest_split", "highest_table", "splits"]
