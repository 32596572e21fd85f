"""Modern American Canasta (american-4p) positions for the service tests: simulated hands (fixed seeds) and
positions written in card notation for one rule each (sevens, an empty pile, bonus cards, the ask limit)."""

from __future__ import annotations

import functools

from helpers import Hand, simulated_hand

from oracle.api.v1 import game_pb2, notation_pb2
from oracle.model.state import GameState
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation

RULE_SET = "american-4p"
SEEDS = (1, 2, 3, 4)  #: one simulated hand per seed
#: The other three seats' hands in the written positions: any cards, none a three (every three is laid at once).
OTHERS = ("4D 5H 6S", "8D 9H TS", "JD QS KC")


@functools.cache
def american_hands() -> tuple[Hand, ...]:
    """The first hand of a simulated american-4p game per seed of SEEDS."""
    return tuple(simulated_hand(RULE_SET, seed) for seed in SEEDS)


def american_states(every: int = 1) -> list[tuple[str, GameState]]:
    """Every `every`-th state of the simulated hands, with the rule-set id."""
    return [(RULE_SET, state) for hand in american_hands() for state in hand.states[::every]]


def position(
    hand: str,
    melds: tuple[str, ...] = (),
    *,
    melded_before: bool | None = None,
    stock: str = "4C 5C 6C 8C",
    pile: str = "9D",
    asks: tuple[int, int] = (0, 0),
    opponents: tuple[str, ...] = (),
) -> GameState:
    """Seat 0 to move in the play phase of a turn begun by drawing, holding `hand`; side 0 has `melds` (all there when
    the turn began) and side 1 `opponents`; `stock` lies on top of the cards the position does not place (its last
    card is drawn first); `asks` are the sides' questions this hand."""
    msg = notation_pb2.GameStateNotation(
        stock=stock, discard_pile=pile, phase=game_pb2.PHASE_PLAY, seat_to_move=0, fill_stock=True
    )
    msg.seats.add(hand=hand, melded_before=bool(melds) if melded_before is None else melded_before)
    for seat, other in enumerate(OTHERS, start=1):
        msg.seats.add(hand=other, melded_before=seat % 2 == 1 and bool(opponents))  # seats 1 and 3: side 1
    msg.sides.add(melds=melds, asks=asks[0])
    msg.sides.add(melds=opponents, asks=asks[1])
    msg.turn.start = game_pb2.TURN_START_DREW
    msg.turn.melds_before_turn = len(melds)
    return state_from_notation(msg, default_rule_book().get(RULE_SET).rules)


__all__ = ["OTHERS", "RULE_SET", "SEEDS", "american_hands", "american_states", "position"]
