"""Engine against model: the score cases, side tables the solver builds to sit on score boundaries (boundary).

The targets: 0, 1, all-but-one and all red threes, with and without a meld; a
meld one card short of a canasta; natural and mixed canastas of exactly
canastas.min_size; going out with exactly the canastas required; black-three
melds of the smallest and largest size; one red three with one canasta fewer
than threes.canastas_for_red_threes and with that many; the Modern American
Canasta targets (boundary_family) and red threes held (boundary_foot); and
the lowest and highest scoring tables (hand_read.score_extremes). Each table
becomes cards, and the engine's score items (oracle.rules.scoring.score_hand)
must equal the model's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import z3

from oracle.model.errors import InvalidInputError
from oracle.model.score import ScoreItem
from oracle.model.table import HandTable, SideTable
from oracle.rules import scoring
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.boundary_family import family_score_targets
from oracle.verify.boundary_foot import held_red_targets
from oracle.verify.budget import PROOF_BUDGET, check_within
from oracle.verify.cases import Case, table_doc
from oracle.verify.deck_cards import Cards
from oracle.verify.footprint import shared
from oracle.verify.hand import ITEMS, side_hand
from oracle.verify.hand_read import ConcreteSide, read_side, score_extremes
from oracle.verify.model import WILD_MELD, Cond, RuleModel
from oracle.verify.model_formation import lone_hand
from oracle.verify.side_cards import side_cards
from oracle.verify.solver_io import assert_all

_ITEM_KEYS = dict(
    zip(ITEMS, ("melded", "canastas", "redThrees", "goingOut", "inHand", "unfinished", "heldRanks"), strict=True)
)
_ITEM_OF_LINE = {
    ScoreItem.MELDED_CARDS: "melded",
    ScoreItem.NATURAL_CANASTA: "canastas",
    ScoreItem.MIXED_CANASTA: "canastas",
    ScoreItem.RED_THREES: "red_threes",
    ScoreItem.ALL_RED_THREES: "red_threes",
    ScoreItem.RED_THREES_WITHOUT_MELD: "red_threes",
    ScoreItem.ALL_RED_THREES_WITHOUT_MELD: "red_threes",
    ScoreItem.GOING_OUT: "going_out",
    ScoreItem.GOING_OUT_CONCEALED: "going_out",
    ScoreItem.CARDS_IN_HAND: "in_hand",
    ScoreItem.WILD_CANASTA: "canastas",
    ScoreItem.UNFINISHED_MELD: "unfinished",
    ScoreItem.HELD_RANK: "held",
    ScoreItem.THREES_BY_COUNT: "red_threes",
}


def _score_targets(rm: RuleModel) -> Iterator[tuple[str, str, ConcreteSide]]:
    """(slug, description, side) for each score boundary the solver can build."""
    hand = side_hand(rm, "side")
    cs, t = rm.canasta_size, rm.spec.threes
    small = [hand.meld_count <= rm.required + 2, hand.hand_cards <= 4]
    slots = [s for s in hand.slots if s.rank != WILD_MELD]
    targets: list[tuple[str, str, list[Cond]]] = []
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
    # z3's SMT core without the QF_LIA strategy (Budget.simple_solver): these are sat checks under assumptions,
    # where the strategy's set-up on the whole side table was most of the cost (hand-and-foot-4p's 0.7 s -> 0.17 s)
    solver = PROOF_BUDGET.simple_solver()
    assert_all(solver, [*hand.constraints, *small])
    for slug, what, conditions in targets:
        if check_within(solver, PROOF_BUDGET, f"the score boundary '{slug}' ({what})", z3.And(*conditions)):
            yield slug, what, read_side(hand, solver.model())
    extremes = score_extremes(rm)
    if extremes is not None:
        yield "lowest", "a side table of the lowest score (proved lowest)", extremes.low
        yield "highest", "a side table of the highest score (proved highest)", extremes.high


def score_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    sides = rm.spec.players.seats // rm.spec.players.side_size
    empty = SideTable((), (), ((),) * rm.spec.players.side_size)
    cases = []
    # shared by the rule sets that agree on every field the targets read (footprint), the cases' own
    targets = shared("score-targets", rm.spec, lambda spec: list(_score_targets(RuleModel(spec))))
    for slug, what, side in targets:
        # under players.side_formation LONE_HAND a player who goes out plays alone: the sides have formed
        formed = (0, *([1] * (sides - 1))) if side.went_out and lone_hand(rm.spec) else ()
        table = HandTable((side_cards(rm, Cards(rules), side), *([empty] * (sides - 1))), formed)
        expected: dict[str, object] = {_ITEM_KEYS[k]: v for k, v in side.items.items()}
        expected["total"] = side.total
        engine: dict[str, object]
        try:
            score = scoring.score_hand(rules, table)[0]
        except InvalidInputError as exc:
            engine = {"error": str(exc)}
        else:
            points = Counter({key: 0 for key in _ITEM_KEYS.values()})
            for line in score.lines:
                points[_ITEM_KEYS[_ITEM_OF_LINE[line.item]]] += line.points
            engine = {**points, "total": score.total}
        cases.append(
            Case(
                f"{rm.id}-score-{slug}",
                f"side 0's score items: {what}",
                rm.id,
                "score",
                {"table": table_doc(table)},
                expected,
                engine,
            )
        )
    return cases


__all__ = ["score_cases"]
