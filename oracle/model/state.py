"""The state of a hand in play as immutable values (seats, sides, stock, pile, turn)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from oracle.model.cards import is_black_three, is_wild, rank_of

Cards = tuple[int, ...]


class Phase(IntEnum):
    """Where in the turn the player to move is (numbers equal oracle.api.v1.Phase)."""

    DRAW = 1
    PLAY = 2
    AWAIT_ANSWER = 3
    FINAL_MELDS = 4
    HAND_OVER = 5
    MELD_PILE_TOP = 6  #: the first step of a two-step take is made: the top card must be melded next


class TurnStart(IntEnum):
    """How the turn began (numbers equal oracle.api.v1.TurnStart)."""

    NONE = 0
    DREW = 1
    TOOK_PILE = 2


class PartnerAnswer(IntEnum):
    """The "may I go out?" question this turn (numbers equal oracle.api.v1.PartnerAnswer)."""

    NONE = 0
    PENDING = 1
    YES = 2
    NO = 3


class HandEnd(IntEnum):
    """Why the hand ended (numbers equal oracle.api.v1.HandEnd)."""

    NONE = 0
    WENT_OUT = 1
    STOCK_EXHAUSTED = 2
    LAST_RED_THREE = 3


@dataclass(frozen=True, slots=True)
class TurnState:
    """What the player to move has done this turn."""

    start: TurnStart = TurnStart.NONE  #: drew, took the pile, or nothing yet
    melded: bool = False  #: made a meld action this turn (the melds laid to take the pile do not count)
    added_to_existing: bool = False  #: added to a meld that was on the table when the turn began
    made_canasta: bool = False  #: this turn's melds completed a canasta
    partner_answer: PartnerAnswer = PartnerAnswer.NONE  #: the question to the partner, if any
    melds_before_turn: int = 0  #: the side's meld count when the turn began


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's hand and history."""

    hand: Cards  #: cards in hand
    melded_before: bool = False  #: melded in an earlier turn of this hand


@dataclass(frozen=True, slots=True)
class SideState:
    """One side's melds, red threes and running total."""

    melds: tuple[Cards, ...] = ()  #: each meld's cards
    red_threes: Cards = ()  #: red threes laid
    running_total: int = 0  #: total at the start of the hand
    unable_after_yes: int = 0  #: times this hand a player of the side was told "yes" and could not go out


@dataclass(frozen=True, slots=True)
class GameState:
    """A hand in play: everything the rules need, nothing derivable."""

    seats: tuple[SeatState, ...]  #: one per seat
    sides: tuple[SideState, ...]  #: one per side
    stock: Cards  #: bottom to top (next draw is the last card)
    discard_pile: Cards  #: bottom to top (top card last)
    pile_upcards: int = 0  #: cards at the pile's bottom turned up at the deal (0 once taken)
    seat_to_move: int = 0  #: whose turn
    phase: Phase = Phase.DRAW  #: where in the turn
    turn: TurnState = field(default_factory=TurnState)  #: this turn so far
    hand_end: HandEnd = HandEnd.NONE  #: why the hand ended
    went_out_seat: int = 0  #: who went out (HandEnd.WENT_OUT)
    went_out_concealed: bool = False  #: concealed (HandEnd.WENT_OUT)


def meld_index_of_rank(side: SideState, rank: int) -> int | None:
    """Index of the side's meld of a natural rank, or None."""
    for i, meld in enumerate(side.melds):
        for card in meld:
            if not is_wild(card):
                if rank_of(card) == rank and not is_black_three(card):
                    return i
                break
    return None
