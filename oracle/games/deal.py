"""Dealing a hand from an explicit deck order: hands, red threes laid and replaced, the first upcard per rule set."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.state import GameState, Phase, SeatState, SideState
from oracle.rules.context import draw_from_stock
from oracle.rules.facts import side_of
from oracle.rules.upcards import turn_upcard
from oracle.ruleset.compiled import CompiledRules


def deal(
    rules: CompiledRules,
    order: Sequence[int],
    *,
    dealer: int = 0,
    running_totals: Sequence[int] | None = None,
    hand_number: int = 1,
) -> GameState:
    """Deal from `order`, whose first card is the top of the face-down deck.

    Cards go one at a time to each player in turn, starting left of the dealer;
    then the feet (foot.size) the same way; the rest is the stock (its top is
    order[seats * (hand_size + foot.size)]). The top stock
    card is turned up to start the pile, covered by further cards as the rule
    set says; then every player, starting left of the dealer, lays each red
    three dealt and draws a replacement (repeating while a replacement is a
    red three). The player left of the dealer moves first (in a two-player game
    the non-dealer): a fixed rule, not a rule-set field (2P-GUIDE "The deal";
    4P-CLASSIC "How a deal starts"). `hand_number` is the hand's number in the
    game (1-based; initial_meld.minimum_by_hand).
    """
    if hand_number < 1:
        raise InvalidInputError([FieldProblem("hand_number", f"is {hand_number}; hands are numbered from 1")])
    if Counter(order) != rules.deck_counts:
        raise InvalidInputError(
            [FieldProblem("deck_order", f"is not exactly the {rules.deck_size}-card deck of rule set '{rules.id}'")]
        )
    if not 0 <= dealer < rules.seats:
        raise InvalidInputError([FieldProblem("dealer", f"{dealer} is not a seat (0..{rules.seats - 1})")])
    totals = list(running_totals) if running_totals is not None else [0] * rules.sides
    if len(totals) != rules.sides:
        raise InvalidInputError([FieldProblem("running_totals", f"needs {rules.sides} totals, got {len(totals)}")])
    first = (dealer + 1) % rules.seats
    seat_order = [(first + k) % rules.seats for k in range(rules.seats)]
    hands: list[list[int]] = [[] for _ in range(rules.seats)]
    position = 0
    for _ in range(rules.deal.hand_size):
        for seat in seat_order:
            hands[seat].append(order[position])
            position += 1
    feet: list[list[int]] = [[] for _ in range(rules.seats)]
    for _ in range(rules.foot.size):
        for seat in seat_order:
            feet[seat].append(order[position])
            position += 1
    stock = list(reversed(order[position:]))  # bottom to top: the next card dealt is the top
    pile = turn_upcard(rules, stock) if rules.deal.upcard else []  # deal.upcard false: the pile starts empty
    reds: list[list[int]] = [[] for _ in range(rules.sides)]
    bonus = rules.bonus_threes  # red threes, and black ones where threes.black_three_role is BONUS
    for seat in seat_order:
        dealt_reds = [c for c in hands[seat] if c in bonus]
        if not dealt_reds:
            continue
        kept = tuple(c for c in hands[seat] if c not in bonus)
        reds[side_of(rules, seat)].extend(dealt_reds)
        if rules.threes.red_three_replaced:  # replacements are drawn like any draw: a red three among them is laid too
            drawn = draw_from_stock(rules, seat, kept, tuple(stock), len(dealt_reds))
            kept, stock = drawn.hand, list(drawn.stock)
            reds[side_of(rules, seat)].extend(drawn.red_threes)
        hands[seat] = list(kept)
    return GameState(
        seats=tuple(SeatState(tuple(h), False, tuple(f)) for h, f in zip(hands, feet, strict=True)),
        sides=tuple(SideState((), tuple(r), t) for r, t in zip(reds, totals, strict=True)),
        stock=tuple(stock),
        discard_pile=tuple(pile),
        pile_upcards=len(pile),
        seat_to_move=first,
        phase=Phase.DRAW,
        hand_number=hand_number,
    )
