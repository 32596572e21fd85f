"""The state of a hand in play as immutable values (seats, sides, stock, pile, turn)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from oracle.model.cards import JOKER, RANK_THREE, is_black_three, rank_of
from oracle.model.fast_init import fast_init

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


@fast_init
@dataclass(frozen=True, slots=True)
class TurnState:
    """What the player to move has done this turn."""

    start: TurnStart = TurnStart.NONE  #: drew, took the pile, or nothing yet
    melded: bool = False  #: made a meld action this turn (the melds laid to take the pile do not count)
    added_to_existing: bool = False  #: added to a meld that was on the table when the turn began
    made_canasta: bool = False  #: this turn's melds completed a canasta
    partner_answer: PartnerAnswer = PartnerAnswer.NONE  #: the question to the partner, if any
    melds_before_turn: int = 0  #: the side's meld count when the turn began

    def evolve(
        self,
        *,
        melded: bool | None = None,
        added_to_existing: bool | None = None,
        made_canasta: bool | None = None,
        partner_answer: PartnerAnswer | None = None,
    ) -> TurnState:
        """This turn with some fields changed (dataclasses.replace, at a fraction of its cost)."""
        return TurnState(
            self.start,
            self.melded if melded is None else melded,
            self.added_to_existing if added_to_existing is None else added_to_existing,
            self.made_canasta if made_canasta is None else made_canasta,
            self.partner_answer if partner_answer is None else partner_answer,
            self.melds_before_turn,
        )


EMPTY_TURN = TurnState()  #: a turn in which nothing has happened yet (every draw phase has it)


@fast_init
@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's hand and history."""

    hand: Cards  #: cards in hand
    melded_before: bool = False  #: melded in an earlier turn of this hand
    foot: Cards = ()  #: the foot not yet taken up (foot.size; empty once taken up, and where there is none)


@fast_init
@dataclass(frozen=True, slots=True)
class SideState:
    """One side's melds, red threes and running total."""

    melds: tuple[Cards, ...] = ()  #: each meld's cards
    red_threes: Cards = ()  #: red threes laid
    running_total: int = 0  #: total at the start of the hand
    unable_after_yes: int = 0  #: times this hand a player of the side was told "yes" and could not go out
    asks: int = 0  #: times this hand a player of the side asked the partner (going_out.ask_partner_max_per_hand)

    def evolve(
        self,
        *,
        melds: tuple[Cards, ...] | None = None,
        red_threes: Cards | None = None,
        unable_after_yes: int | None = None,
        asks: int | None = None,
    ) -> SideState:
        """This side with some fields changed (dataclasses.replace, at a fraction of its cost)."""
        return SideState(
            self.melds if melds is None else melds,
            self.red_threes if red_threes is None else red_threes,
            self.running_total,
            self.unable_after_yes if unable_after_yes is None else unable_after_yes,
            self.asks if asks is None else asks,
        )


@fast_init
@dataclass(frozen=True, slots=True, weakref_slot=True)  # weakly referable: the rules vouch for states they made
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
    #: players.side_formation LONE_HAND, once sides formed: per seat, the entry of `sides` holding its side's melds
    #: (red threes and running totals stay on the seat's own entry); empty before, and under fixed sides
    side_of_seat: tuple[int, ...] = ()
    hand_number: int = 1  #: the hand's number in the game, 1-based (initial_meld.minimum_by_hand)

    def evolve(
        self,
        *,
        seats: tuple[SeatState, ...] | None = None,
        sides: tuple[SideState, ...] | None = None,
        stock: Cards | None = None,
        discard_pile: Cards | None = None,
        pile_upcards: int | None = None,
        seat_to_move: int | None = None,
        phase: Phase | None = None,
        turn: TurnState | None = None,
        hand_end: HandEnd | None = None,
        went_out_seat: int | None = None,
        went_out_concealed: bool | None = None,
        side_of_seat: tuple[int, ...] | None = None,
    ) -> GameState:
        """This state with some fields changed: dataclasses.replace at a fraction of its cost (the rules' state
        transitions make one or two per action)."""
        return GameState(
            self.seats if seats is None else seats,
            self.sides if sides is None else sides,
            self.stock if stock is None else stock,
            self.discard_pile if discard_pile is None else discard_pile,
            self.pile_upcards if pile_upcards is None else pile_upcards,
            self.seat_to_move if seat_to_move is None else seat_to_move,
            self.phase if phase is None else phase,
            self.turn if turn is None else turn,
            self.hand_end if hand_end is None else hand_end,
            self.went_out_seat if went_out_seat is None else went_out_seat,
            self.went_out_concealed if went_out_concealed is None else went_out_concealed,
            self.side_of_seat if side_of_seat is None else side_of_seat,
            self.hand_number,
        )


def meld_index_of_rank(side: SideState, rank: int) -> int | None:
    """Index of the side's meld of a natural rank, or None."""
    return index_of_rank(side.melds, rank)


def index_of_rank(melds: Sequence[Cards], rank: int) -> int | None:
    """Index of the meld of a natural rank among `melds` (the first whose first natural card has that rank and is
    not a black three, and which is no run), or None."""
    for i, meld in enumerate(melds):
        for card in meld:
            if card != JOKER and card > 4:  # the first natural card (cards.is_wild, inlined: this runs per meld)
                if rank_of(card) == rank and (rank != RANK_THREE or not is_black_three(card)) and not is_run(meld):
                    return i
                break
    return None


def is_run(meld: Cards) -> bool:
    """Whether a meld on the table is a run (runs.*): it holds natural cards of more than one rank."""
    first = -1
    for card in meld:
        if card != JOKER and card > 4:
            rank = rank_of(card)
            if first < 0:
                first = rank
            elif rank != first:
                return True
    return False
