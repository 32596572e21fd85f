"""Samba (samba-4p) positions for the service tests: simulated hands (fixed seeds) and positions written in card
notation for one rule each (runs, named meld targets, the pile onto a run, combining)."""

from __future__ import annotations

import functools

from helpers import Hand, four_seat_position, simulated_hand

from oracle.model.state import GameState

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
    return four_seat_position(rule_set, hand, melds, others=OTHERS, opponents=opponents, pile=pile, draw=draw)


__all__ = ["OTHERS", "RULE_SET", "SEEDS", "position", "samba_hands", "samba_states"]
