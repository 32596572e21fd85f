"""The score boundaries a side table can sit on, as conditions on its terms (the engine's score cases' tables).

The targets: 0, 1, all-but-one and all red threes, with and without a meld; a
meld one card short of a canasta; natural and mixed canastas of exactly
canastas.min_size; going out with exactly the canastas required; black-three
melds of the smallest and largest size; one red three with one canasta fewer
than threes.canastas_for_red_threes and with that many; the Modern American
Canasta targets (boundary_family) and red threes held (boundary_foot). Each is
asked of a small table (small: few melds, few cards in hand) so that the
engine's case stays readable. They read only the side table's fields
(hand.SIDE_FIELDS): hand_read finds them with the score extremes, on their
solver (hand_read.side_targets).
"""

from __future__ import annotations

import z3

from oracle.verify.boundary_family import Target, family_score_targets
from oracle.verify.boundary_foot import held_red_targets
from oracle.verify.hand import SideHand
from oracle.verify.model import WILD_MELD, Cond, RuleModel


def small(rm: RuleModel, hand: SideHand) -> list[Cond]:
    """The tables the targets are asked among: at most two melds beyond the canastas required, four cards held."""
    return [hand.meld_count <= rm.required + 2, hand.hand_cards <= 4]


def score_targets(rm: RuleModel, hand: SideHand) -> list[Target]:
    """(slug, description, conditions) for each score boundary, in the order the cases list them."""
    cs, t = rm.canasta_size, rm.spec.threes
    slots = [s for s in hand.slots if s.rank != WILD_MELD]
    targets: list[Target] = []
    for count in sorted({0, 1, rm.red_three_copies - 1, rm.red_three_copies}):
        for melded in (True, False):
            targets.append(
                (
                    f"red{count}-{'meld' if melded else 'nomeld'}",
                    f"{count} red three(s), {'with' if melded else 'without'} a meld",
                    [hand.red_threes == count, hand.has_meld == melded, hand.went_out == 0],
                )
            )
    for size, wilds, what in (
        (cs - 1, None, "a meld one card short of a canasta"),
        (cs, 0, "a natural canasta of exactly canastas.min_size cards"),
        (cs, 1, "a mixed canasta of exactly canastas.min_size cards with one wild"),
    ):
        shape = [
            z3.And(s.present, s.counts.size == size, *([] if wilds is None else [s.counts.wilds == wilds]))
            for s in slots
        ]
        targets.append((f"meld{size}-w{'any' if wilds is None else wilds}", what, [z3.Or(shape)]))
    for kind, what in ((1, "going out"), (2, "going out concealed")):
        targets.append(
            (
                f"out{kind}",
                f"{what} with exactly going_out.canastas_required canastas",
                [hand.went_out == kind, hand.canastas == rm.required],
            )
        )
    for threes in sorted({t.black_three_meld_min, t.black_three_meld_max}):
        targets.append(
            (
                f"black{threes}",
                f"going out with a meld of {threes} black threes",
                [hand.black.naturals == threes, hand.went_out == 1],
            )
        )
    if t.canastas_for_red_threes:  # Samba: red threes count against a side short of that many canastas
        for canastas in (t.canastas_for_red_threes - 1, t.canastas_for_red_threes):
            targets.append(
                (
                    f"red1-canastas{canastas}",
                    f"1 red three, a meld and {canastas} canasta(s) (threes.canastas_for_red_threes)",
                    [hand.red_threes == 1, hand.has_meld, hand.canastas == canastas, hand.went_out == 0],
                )
            )
    targets += family_score_targets(rm, hand)
    targets += held_red_targets(rm, hand)
    return targets


__all__ = ["Target", "score_targets", "small"]
