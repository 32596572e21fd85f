"""The table at the end of a hand as values: melds, red threes, hands, who went out."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class WentOut(IntEnum):
    """How a side finished the hand (numbers equal oracle.api.v1.WentOut)."""

    NO = 0
    NORMAL = 1
    CONCEALED = 2


@dataclass(frozen=True, slots=True)
class SideTable:
    """One side's cards when the hand ends."""

    melds: tuple[tuple[int, ...], ...]  #: each meld's cards
    red_threes: tuple[int, ...]  #: red threes laid
    hands: tuple[tuple[int, ...], ...]  #: cards left, one tuple per player of the side
    went_out: WentOut = WentOut.NO  #: whether and how a player of the side went out
    unable_after_yes: int = 0  #: times a player of the side was told "yes" by the partner and could not go out


@dataclass(frozen=True, slots=True)
class HandTable:
    """Every side's cards when the hand ends, side 0 first."""

    sides: tuple[SideTable, ...]
    #: players.side_formation LONE_HAND, once sides formed: per seat (entry), the entry holding its side's melds, as
    #: GameState.side_of_seat; empty otherwise
    side_of_seat: tuple[int, ...] = ()
