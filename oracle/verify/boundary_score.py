"""Engine against model: the score cases, side tables the solver builds to sit on score boundaries (boundary).

The targets are score_targets' (found with the score extremes: hand_read.side_targets), then the lowest and
highest scoring tables (hand_read.score_extremes). Each table becomes cards, and the engine's score items
(oracle.rules.scoring.score_hand) must equal the model's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from oracle.model.errors import InvalidInputError
from oracle.model.score import ScoreItem
from oracle.model.table import HandTable, SideTable
from oracle.rules import scoring
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.cases import Case, table_doc
from oracle.verify.deck_cards import Cards
from oracle.verify.hand import ITEMS
from oracle.verify.hand_read import ConcreteSide, score_extremes, side_targets
from oracle.verify.model import RuleModel
from oracle.verify.model_formation import lone_hand
from oracle.verify.side_cards import side_cards

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
    """(slug, description, side) for each score boundary the solver can build (found with the score extremes,
    hand_read.side_targets), then the lowest and highest scoring tables."""
    yield from side_targets(rm)
    extremes = score_extremes(rm)
    if extremes is not None:
        yield "lowest", "a side table of the lowest score (proved lowest)", extremes.low
        yield "highest", "a side table of the highest score (proved highest)", extremes.high


def score_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    sides = rm.spec.players.seats // rm.spec.players.side_size
    empty = SideTable((), (), ((),) * rm.spec.players.side_size)
    cases = []
    for slug, what, side in _score_targets(rm):
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
