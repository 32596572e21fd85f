"""The state of a hand in play as immutable values, and the facts the rules derive from it (frozen pile, canastas)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from oracle.cards import is_black_three, is_red_three, is_wild, rank_of
from oracle.melds import MalformedMeld, is_canasta, meld_shape
from oracle.ruleset import CompiledRules
from oracle.table import HandTable, SideTable, WentOut

Cards = tuple[int, ...]


class Phase(IntEnum):
    """Where in the turn the player to move is (numbers equal oracle.api.v1.Phase)."""

    DRAW = 1
    PLAY = 2
    AWAIT_ANSWER = 3
    FINAL_MELDS = 4
    HAND_OVER = 5


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


def side_of(rules: CompiledRules, seat: int) -> int:
    """The side a seat plays for."""
    return seat % rules.sides


def partner_seats(rules: CompiledRules, seat: int) -> list[int]:
    """The other seats of the same side."""
    return [s for s in rules.seats_of_side(side_of(rules, seat)) if s != seat]


def canasta_count(rules: CompiledRules, melds: tuple[Cards, ...] | list[Cards]) -> int:
    """How many of these melds are canastas."""
    count = 0
    for meld in melds:
        try:
            if is_canasta(meld_shape(meld), rules):
                count += 1
        except MalformedMeld:
            continue
    return count


def meld_index_of_rank(side: SideState, rank: int) -> int | None:
    """Index of the side's meld of a natural rank, or None."""
    for i, meld in enumerate(side.melds):
        for card in meld:
            if not is_wild(card):
                if rank_of(card) == rank and not is_black_three(card):
                    return i
                break
    return None


def pile_freezers(rules: CompiledRules, state: GameState) -> list[tuple[str, str]]:
    """Why the pile is frozen for everyone: (rule-set field, reason) pairs; empty when it is not."""
    spec = rules.spec.discard_pile
    reasons: list[tuple[str, str]] = []
    pile = state.discard_pile
    upcards = pile[: state.pile_upcards]
    if spec.frozen_by_upcard and any(is_wild(c) or is_red_three(c) for c in upcards):
        reasons.append(("discard_pile.frozen_by_upcard", "the pile started with a wild card or red three"))
    if spec.frozen_by_wild and any(is_wild(c) for c in pile[state.pile_upcards:]):
        reasons.append(("discard_pile.frozen_by_wild", "a wild card was discarded into it"))
    elif spec.frozen_by_wild and not spec.frozen_by_upcard and any(is_wild(c) for c in upcards):
        reasons.append(("discard_pile.frozen_by_wild", "it holds a wild card"))
    if spec.frozen_by_black_three and any(is_black_three(c) for c in pile[state.pile_upcards:]):
        reasons.append(("discard_pile.frozen_by_black_three", "a black three was discarded into it"))
    return reasons


def frozen_reasons_for_side(rules: CompiledRules, state: GameState, side: int) -> list[tuple[str, str]]:
    """Why the pile is frozen to one side (adds the no-initial-meld rule to pile_freezers)."""
    reasons = pile_freezers(rules, state)
    if rules.spec.discard_pile.frozen_until_initial_meld and not state.sides[side].melds:
        reasons.append(("discard_pile.frozen_until_initial_meld", "the side has not made its initial meld"))
    return reasons


def end_table(rules: CompiledRules, state: GameState) -> HandTable:
    """The table to score once the hand is over."""
    went_out_side = side_of(rules, state.went_out_seat) if state.hand_end == HandEnd.WENT_OUT else -1
    sides = []
    for index, side in enumerate(state.sides):
        went = WentOut.NO
        if index == went_out_side:
            went = WentOut.CONCEALED if state.went_out_concealed else WentOut.NORMAL
        hands = tuple(state.seats[s].hand for s in rules.seats_of_side(index))
        sides.append(SideTable(side.melds, side.red_threes, hands, went))
    return HandTable(tuple(sides))
