"""Score boundaries of the Modern American Canasta scoring for the engine-against-model cases (see boundary).

Each target is a side table the solver builds on a boundary of one new score
rule: canastas of wild cards with no joker, with every joker and with some;
a meld of a ruled rank or of wild cards one card short of a canasta; exactly
a rank rule's held_min cards held and one fewer; threes by count on each side
of threes.minus_below_canastas and threes.plus_from_canastas; and melds
counting minus on each side of card_values.table_minus_below_canastas. A rule
set that sets none of these fields has no such target.
"""

from __future__ import annotations

import z3

from oracle.verify import model_family as fam
from oracle.verify.hand import SideHand
from oracle.verify.model import WILD_MELD, Cond, RuleModel

Target = tuple[str, str, list[Cond]]  #: (slug, description, conditions on the side)


def family_score_targets(rm: RuleModel, hand: SideHand) -> list[Target]:
    """The side tables on the boundaries of the family's score rules (none when the rule set sets none)."""
    spec, cs = rm.spec, rm.canasta_size
    out: list[Target] = []
    wild = list(zip([s for s in hand.slots if s.rank == WILD_MELD], hand.wild_jokers, strict=False))
    c = spec.canastas
    if wild and (c.wild_bonus or c.wild_unfinished_penalty):
        slot, jokers = wild[0]
        done = [slot.present, rm.is_canasta(slot.counts)]
        for slug, what, cond in (
            ("twos", "no joker", jokers == 0),
            ("jokers", "every joker of the deck", jokers == rm.joker_copies),
            ("mixed", "some jokers but not all", z3.And(jokers >= 1, jokers < rm.joker_copies)),
        ):
            out.append((f"wild-canasta-{slug}", f"a canasta of wild cards with {what}", [*done, cond]))
        out.append(
            (
                "wild-short",
                "a meld of wild cards one card short of a canasta",
                [slot.present, slot.counts.size == cs - 1],
            )
        )
    for rank in fam.ruled_ranks(spec):
        row = fam.rank_rule(spec, rank)
        assert row is not None
        slots = [s for s in hand.slots if s.rank == rank]
        if row.unfinished_penalty or row.canasta_bonus:
            for size in (cs - 1, cs):
                out.append(
                    (
                        f"rank{row.rank}-natural{size}",
                        f"a natural meld of {size} cards of rank {row.rank} (melds.rank_rules)",
                        [z3.Or([z3.And(s.present, s.counts.size == size, s.counts.wilds == 0) for s in slots])],
                    )
                )
        if rank in hand.holders:
            for held, holders in ((row.held_min, 1), (row.held_min - 1, 0)):
                out.append(
                    (
                        f"rank{row.rank}-held{held}",
                        f"{held} cards of rank {row.rank} held by one player (melds.rank_rules held_min)",
                        [hand.hand_ranked[rank] == held, hand.holders[rank] == holders],
                    )
                )
    t = spec.threes
    if t.count_values:
        edges = (t.minus_below_canastas - 1, t.minus_below_canastas, t.plus_from_canastas - 1, t.plus_from_canastas)
        bands = sorted({b for b in edges if b >= 0})
        for canastas in bands:
            for red, black in ((1, 0), (len(t.count_values), 1)):
                cond = [hand.canastas == canastas, hand.red_threes == red, hand.black_laid == black]
                out.append(
                    (
                        f"threes-r{red}-b{black}-c{canastas}",
                        f"{red} red and {black} black three(s) by count with {canastas} canasta(s)",
                        cond,
                    )
                )
    below = spec.card_values.table_minus_below_canastas
    if below:
        for canastas in sorted({below - 1, below}):
            out.append(
                (
                    f"minus-c{canastas}",
                    f"melds with {canastas} canasta(s) (card_values.table_minus_below_canastas {below})",
                    [hand.canastas == canastas, hand.has_meld],
                )
            )
    return out


__all__ = ["Target", "family_score_targets"]
