"""Samba (samba-4p) positions for the service tests: simulated hands (fixed seeds) and positions written in card
notation for one rule each (runs, named meld targets, the pile onto a run, combining)."""

from __future__ import annotations

import functools

from helpers import Hand, simulated_hand

from oracle.api.v1 import game_pb2, notation_pb2
from oracle.model.state import GameState
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation

RULE_SET = "samba-4p"
SEEDS = (1, 2, 3)  #: one simulated hand per seed
#: The other three seats' hands in the written positions: any cards, none a three.
OTHERS = ("4D 5D 6S", "8D 9D TS", "JD QS KC")


@functools.cache
def samba_hands() -> tuple[Hand, ...]:
    """The first hand of a simulated samba-4p game per seed of SEEDS."""
    return tuple(simulated_hand(RULE_SET, seed) for seed in SEEDS)


def samba_states(every: int = 1) -> list[tuple[str, GameState]]:
    """Every `every`-th state of the simulated hands, with the rule-set id."""
    return [(RULE_SET, state) for hand in samba_hands() for state in hand.states[::every]]


def position(
    hand: str,
    melds: tuple[str, ...] = (),
    *,
    rule_set: str = RULE_SET,
    draw: bool = False,
    pile: str = "9D",
    opponents: tuple[str, ...] = (),
) -> GameState:
    """Seat 0 to move holding `hand`, side 0 with `melds` (all there when the turn began), side 1 with `opponents`:
    in the play phase of a turn begun by drawing, or (`draw`) at the start of the turn, the pile's top card last."""
    phase = game_pb2.PHASE_DRAW if draw else game_pb2.PHASE_PLAY
    msg = notation_pb2.GameStateNotation(
        stock="4C 5C 6C 8C", discard_pile=pile, phase=phase, seat_to_move=0, fill_stock=True
    )
    msg.seats.add(hand=hand, melded_before=bool(melds))
    for seat, other in enumerate(OTHERS, start=1):
        msg.seats.add(hand=other, melded_before=seat % 2 == 1 and bool(opponents))  # seats 1 and 3: side 1
    msg.sides.add(melds=melds)
    msg.sides.add(melds=opponents)
    if not draw:
        msg.turn.start = game_pb2.TURN_START_DREW
        msg.turn.melds_before_turn = len(melds)
    return state_from_notation(msg, default_rule_book().get(rule_set).rules)


__all__ = ["OTHERS", "RULE_SET", "SEEDS", "position", "samba_hands", "samba_states"]
