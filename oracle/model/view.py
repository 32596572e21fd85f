"""One player's view of a hand in play as values: their own hand, the table, the pile and the other counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from oracle.model.fast_init import fast_init
from oracle.model.state import Cards, HandEnd, Phase, SideState, TurnState


@fast_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat as the others see it."""

    hand_count: int  #: how many cards it holds
    melded_before: bool = False  #: melded in an earlier turn of this hand
    foot_count: int = 0  #: cards in its foot not yet taken up (hidden, even from its owner)


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerView:
    """What seat `seat` sees: its hand, every seat's count, the sides, the pile, the stock's count, the turn."""

    seat: int  #: whose view
    hand: Cards  #: that seat's hand
    seats: tuple[SeatView, ...]  #: one per seat (the viewer's count equals len(hand))
    sides: tuple[SideState, ...]  #: one per side (all public)
    stock_count: int  #: cards in the stock
    discard_pile: Cards  #: bottom to top
    pile_upcards: int = 0
    seat_to_move: int = 0
    phase: Phase = Phase.DRAW
    turn: TurnState = field(default_factory=TurnState)
    hand_end: HandEnd = HandEnd.NONE
    went_out_seat: int = 0
    went_out_concealed: bool = False
    side_of_seat: tuple[int, ...] = ()  #: as GameState.side_of_seat
    hand_number: int = 1  #: as GameState.hand_number


@dataclass(frozen=True, slots=True)
class Unknown:
    """Something a view cannot decide: the answer's field and why."""

    field: str  #: e.g. "legal", "events", "sides[1].total"
    reason: str
