"""Cutthroat Canasta states from simulated hands (fixed seeds), before and after sides form, for the service tests."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from helpers import simulated_hand

from oracle.model.actions import Action
from oracle.model.state import GameState

RULE_SETS = ("cutthroat-3p", "cutthroat-play-on-3p")
SEEDS = (1, 2, 3, 5, 7, 9)  #: one simulated hand per seed and rule set


@dataclass(frozen=True)
class Hand:
    """The states of one simulated hand (before each action, then its end) and the actions between them."""

    rule_set_id: str
    first_dealer: int  #: the game's first dealer (the hand's dealer)
    seed: int  #: the hand's deck seed (DeckSource.seed)
    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    formed_at: int  #: index of the action whose events hold SidesFormed (-1: sides never formed)


@functools.cache
def cutthroat_hands() -> tuple[Hand, ...]:
    """The first hand of a simulated game per rule set of RULE_SETS and seed of SEEDS (helpers.simulated_hand)."""
    out = []
    for rule_set_id in RULE_SETS:
        for seed in SEEDS:
            hand = simulated_hand(rule_set_id, seed)
            # the sides form once a hand, with the action that first sets side_of_seat (its events hold SidesFormed)
            formed_at = next(
                (
                    i
                    for i, state in enumerate(hand.states[1:])
                    if state.side_of_seat and not hand.states[i].side_of_seat
                ),
                -1,
            )
            out.append(Hand(rule_set_id, hand.first_dealer, hand.seed, hand.states, hand.actions, formed_at))
    return tuple(out)


def cutthroat_states(every: int = 1) -> list[tuple[str, GameState]]:
    """Every `every`-th state of the simulated hands, with the rule-set id."""
    return [(hand.rule_set_id, state) for hand in cutthroat_hands() for state in hand.states[::every]]


def formed_states(every: int = 1) -> list[tuple[str, GameState]]:
    """The states of cutthroat_states whose sides have formed (side_of_seat set)."""
    return [(rule_set_id, state) for rule_set_id, state in cutthroat_states(every) if state.side_of_seat]


__all__ = ["Hand", "cutthroat_hands", "cutthroat_states", "formed_states"]
