"""A hand's score as values: score items, lines and a side's total."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class ScoreItem(IntEnum):
    """What a score line counts (numbers equal oracle.api.v1.ScoreItem)."""

    MELDED_CARDS = 1
    NATURAL_CANASTA = 2
    MIXED_CANASTA = 3
    RED_THREES = 4
    ALL_RED_THREES = 5
    RED_THREES_WITHOUT_MELD = 6
    ALL_RED_THREES_WITHOUT_MELD = 7
    GOING_OUT = 8
    GOING_OUT_CONCEALED = 9
    CARDS_IN_HAND = 10
    CANNOT_GO_OUT_AFTER_YES = 11
    WILD_CANASTA = 12
    UNFINISHED_MELD = 13
    HELD_RANK = 14
    THREES_BY_COUNT = 15
    RUN_CANASTA = 16


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One item of a side's score."""

    item: ScoreItem  #: what is counted
    points: int  #: signed points
    detail: str  #: the cards or the reason
    field: str  #: the rule-set field the points come from


@dataclass(frozen=True, slots=True)
class SideScore:
    """A side's score for the hand: the lines and their sum."""

    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        """The sum of the lines."""
        return sum(line.points for line in self.lines)
