"""What every rule check and state change shares: the judging context, the applied result, the hand check, the
wrong-phase violation, and the state changes they reuse (drawing, ending the hand)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oracle.model.cards import format_cards
from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, RedThreeLaid
from oracle.model.fast_init import fast_init
from oracle.model.state import EMPTY_TURN, Cards, GameState, HandEnd, Phase, SeatState, SideState, TurnStart
from oracle.rules.facts import end_table, playing_side, side_of
from oracle.rules.formation import form_sides, sides_form_now
from oracle.rules.melds import meld_shape
from oracle.rules.scoring import score_hand
from oracle.rules.violations import Code, Violation, violation
from oracle.ruleset.compiled import CompiledRules


@fast_init
@dataclass(frozen=True, slots=True)
class Applied:
    """The result of applying a legal action: the next state and what happened."""

    next_state: GameState
    events: tuple[Event, ...] = ()


@dataclass(slots=True)
class Ctx:
    """The rules, the state and the facts about the player to move that every check needs."""

    rules: CompiledRules
    state: GameState
    seat: int
    side_index: int  #: the entry of state.sides holding the melds of the side the mover plays for
    own_index: int  #: the mover's own entry (red threes, running total); side_index under fixed sides
    #: (action, what judging it computed) for the action judged last: applying a legal action reuses what its
    #: check worked out (where its melds go) instead of working it out again; held by identity, so the action
    #: stays alive and its id cannot be reused by another while it is here
    worked: tuple[object, object] | None = None

    @property
    def side(self) -> SideState:
        """The mover's side."""
        return self.state.sides[self.side_index]

    @property
    def hand(self) -> Cards:
        """The mover's hand."""
        return self.state.seats[self.seat].hand

    def fail(self, code: Code, /, *, variant: str = "", field: str | None = None, **params: object) -> Violation:
        """A violation of `code` under these rules, explained by the registry's template (see violations)."""
        return violation(self.rules, code, variant=variant, field=field, **params)


def make_ctx(rules: CompiledRules, state: GameState) -> Ctx:
    """The context for judging an action of the player to move."""
    seat = state.seat_to_move
    return Ctx(rules, state, seat, playing_side(rules, state, seat), side_of(rules, seat))


_PHASE_WHY = {
    Phase.DRAW: "the player must draw or take the pile first",
    Phase.AWAIT_ANSWER: "the partner must answer 'may I go out?' first",
    Phase.FINAL_MELDS: "the last stock card was a red three: the player may only meld, then finish",
}


def wrong_phase(ctx: Ctx, action: str) -> Violation:
    """WRONG_PHASE: `action` ('draw', 'meld', ...) is not possible in the current phase, and why."""
    if ctx.state.phase == Phase.PLAY:
        took = ctx.state.turn.start == TurnStart.TOOK_PILE
        why = "the player already took the pile this turn" if took else "the player already drew this turn"
    else:
        why = _PHASE_WHY.get(ctx.state.phase, "not now")
    return ctx.fail(Code.WRONG_PHASE, action=action, reason=why)


def missing_from_hand(hand: Cards, cards: Iterable[int]) -> list[int]:
    """The cards (with multiplicity) that the hand does not hold."""
    remaining = list(hand)
    missing = []
    for card in cards:
        try:
            remaining.remove(card)
        except ValueError:
            missing.append(card)
    return missing


def check_in_hand(ctx: Ctx, cards: Iterable[int]) -> list[Violation]:
    """CARDS_NOT_IN_HAND if the mover lacks any of `cards`."""
    missing = missing_from_hand(ctx.hand, cards)
    if not missing:
        return []
    hand = format_cards(sorted(ctx.hand)) or "empty"
    return [ctx.fail(Code.CARDS_NOT_IN_HAND, seat=ctx.seat, missing=format_cards(missing), hand=hand)]


def remove_cards(hand: Cards, cards: Iterable[int]) -> Cards:
    """The hand without `cards` (each removed once; the caller has checked they are held)."""
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    return tuple(remaining)


def with_seat(state: GameState, seat: int, seat_state: SeatState) -> tuple[SeatState, ...]:
    """The seats with one replaced."""
    return (*state.seats[:seat], seat_state, *state.seats[seat + 1 :])


def with_side(state: GameState, index: int, side: SideState) -> tuple[SideState, ...]:
    """The sides with one replaced."""
    return (*state.sides[:index], side, *state.sides[index + 1 :])


@dataclass
class Drawn:
    """The result of drawing from the stock with red threes laid and replaced."""

    hand: Cards
    stock: Cards
    red_threes: Cards
    events: list[Event]
    last_card_red_three: bool  #: the card that emptied the stock was a red three


def draw_from_stock(rules: CompiledRules, seat: int, hand: Cards, stock: Cards, count: int) -> Drawn:
    """Draw `count` cards (top first); each red three is laid and, per the rule set, replaced from the stock."""
    bonus = rules.bonus_threes
    if 0 < count <= len(stock):
        top = stock[len(stock) - count :]
        if bonus.isdisjoint(top):  # the common case: the cards go to the hand as they are
            drawn_cards = top[::-1]
            return Drawn(hand + drawn_cards, stock[: len(stock) - count], (), [CardsDrawn(seat, drawn_cards)], False)
    stock_list = list(stock)
    new_hand = list(hand)
    reds: list[int] = []
    events: list[Event] = []
    drawn: list[int] = []
    last_red = False
    pending = count
    while pending and stock_list:
        card = stock_list.pop()
        pending -= 1
        emptied = not stock_list
        if card in bonus:  # a red three (or a black one as a bonus card): laid, replaced as the rule set says
            replaced = rules.threes.red_three_replaced and bool(stock_list)
            reds.append(card)
            events.append(RedThreeLaid(seat, card, replaced))
            if replaced:
                pending += 1
            last_red = emptied
        else:
            drawn.append(card)
            new_hand.append(card)
            last_red = False
    if drawn:
        events.insert(0, CardsDrawn(seat, tuple(drawn)))
    return Drawn(tuple(new_hand), tuple(stock_list), tuple(reds), events, last_red)


def canasta_events(side_index: int, melds: list[Cards], indexes: list[int]) -> list[Event]:
    """CanastaMade events for the melds at `indexes`."""
    return [CanastaMade(side_index, melds[i], meld_shape(melds[i]).wilds == 0) for i in indexes]


def end_hand(
    rules: CompiledRules, state: GameState, reason: HandEnd, *, went_out_seat: int = 0, concealed: bool = False
) -> tuple[GameState, tuple[Event, ...]]:
    """The state with the hand over, and the events: the HandEnded event with the scores, after SidesFormed when a
    player goes out before sides have formed under players.side_formation LONE_HAND (the goer plays alone)."""
    events: tuple[Event, ...] = ()
    if reason == HandEnd.WENT_OUT and sides_form_now(rules, state):
        state, formed = form_sides(rules, state, went_out_seat)
        events = (formed,)
    over = state.evolve(
        phase=Phase.HAND_OVER,
        turn=EMPTY_TURN,
        hand_end=reason,
        went_out_seat=went_out_seat if reason == HandEnd.WENT_OUT else 0,
        went_out_concealed=concealed and reason == HandEnd.WENT_OUT,
    )
    table = end_table(rules, over)
    return over, (*events, HandEnded(reason, table, tuple(score_hand(rules, table))))
