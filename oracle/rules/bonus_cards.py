"""Bonus cards at the initial meld (bonus_cards.*): who is owed them, how many, and drawing them after the discard
that ends the turn in which the side made its initial meld."""

from __future__ import annotations

from oracle.model.events import Event
from oracle.model.state import GameState, SeatState, TurnStart, TurnState
from oracle.rules.context import Ctx, draw_from_stock, with_seat, with_side
from oracle.rules.facts import playing_side
from oracle.ruleset.compiled import CompiledRules


def bonus_count(rules: CompiledRules, state: GameState, side_index: int) -> int:
    """The cards owed to the side at `side_index` for its initial meld: bonus_cards.first_side while no other side
    has melded, bonus_cards.later_side after."""
    others_melded = any(side.melds for i, side in enumerate(state.sides) if i != side_index)
    return rules.bonus_cards.later_side if others_melded else rules.bonus_cards.first_side


def owes_bonus_cards(rules: CompiledRules, state: GameState, side_index: int, turn: TurnState) -> bool:
    """Whether the side makes (or has made) its initial meld in this turn in a way that earns bonus cards: it had
    no meld when the turn began, not by taking the pile where bonus_cards.not_with_pile_take, and the stock holds
    more than bonus_cards.none_when_stock_at_most cards."""
    b = rules.bonus_cards
    if not (b.first_side or b.later_side) or turn.melds_before_turn:
        return False
    if turn.start == TurnStart.TOOK_PILE and b.not_with_pile_take:
        return False
    return len(state.stock) > b.none_when_stock_at_most and bonus_count(rules, state, side_index) > 0


def take_owes_bonus_cards(ctx: Ctx) -> bool:
    """owes_bonus_cards for a pile take now (the turn has not started: the take makes it a TOOK_PILE turn)."""
    if ctx.side.melds:
        return False
    return owes_bonus_cards(ctx.rules, ctx.state, ctx.side_index, TurnState(TurnStart.TOOK_PILE))


def meld_owes_bonus_cards(ctx: Ctx) -> bool:
    """owes_bonus_cards for a meld in the turn under way."""
    return owes_bonus_cards(ctx.rules, ctx.state, ctx.side_index, ctx.state.turn)


def draw_bonus_cards(
    rules: CompiledRules, state: GameState, seat: int, turn: TurnState
) -> tuple[GameState, list[Event]]:
    """After the discard that ends `seat`'s turn (`state`: the turn passed, `turn`: the turn that ended): the bonus
    cards owed, drawn from the stock into the hand (threes among them laid and replaced as any draw's are)."""
    side_index = playing_side(rules, state, seat)
    if not state.sides[side_index].melds or not owes_bonus_cards(rules, state, side_index, turn):
        return state, []
    count = bonus_count(rules, state, side_index)
    drawn = draw_from_stock(rules, seat, state.seats[seat].hand, state.stock, count)
    own = seat % rules.sides
    sides = state.sides
    if drawn.red_threes:
        laid = state.sides[own]
        sides = with_side(state, own, laid.evolve(red_threes=laid.red_threes + drawn.red_threes))
    seats = with_seat(state, seat, SeatState(drawn.hand, state.seats[seat].melded_before, state.seats[seat].foot))
    return state.evolve(seats=seats, sides=sides, stock=drawn.stock), list(drawn.events)
