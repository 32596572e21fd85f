"""What happens when a legal action is applied: drawn cards, red threes laid, pile taken, canastas, hand ended."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.fast_init import fast_init
from oracle.model.score import SideScore
from oracle.model.state import Cards, HandEnd
from oracle.model.table import HandTable


@fast_init
@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Cards drawn from the stock into a hand (red threes excluded)."""

    seat: int
    cards: Cards


@fast_init
@dataclass(frozen=True, slots=True)
class RedThreeLaid:
    """A red three laid in front of a side; `replaced` when a replacement was drawn."""

    seat: int
    card: int
    replaced: bool


@fast_init
@dataclass(frozen=True, slots=True)
class PileTaken:
    """The pile taken: its top card melded, the rest into the hand."""

    seat: int
    top: int
    to_hand: Cards


@fast_init
@dataclass(frozen=True, slots=True)
class CanastaMade:
    """A meld completed into a canasta, or a natural canasta turned mixed."""

    side: int
    cards: Cards
    natural: bool


@fast_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over: why, the table and its score."""

    reason: HandEnd
    table: HandTable
    scores: tuple[SideScore, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class SidesFormed:
    """Sides formed during the hand (players.side_formation LONE_HAND): one seat alone against the other two."""

    lone_seat: int  #: the seat that plays alone
    partners: tuple[int, int]  #: the two seats that became partners, lower first
    melds: tuple[tuple[int, ...], ...]  #: the partnership's melds now (on the lower partner's side entry)


Event = CardsDrawn | RedThreeLaid | PileTaken | CanastaMade | HandEnded | SidesFormed
