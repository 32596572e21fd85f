"""Cutthroat Canasta states from simulated hands (fixed seeds), before and after sides form, for the service tests."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order, start_standing
from oracle.games.simulate import simulate_game
from oracle.model.actions import Action
from oracle.model.events import SidesFormed
from oracle.model.state import GameState
from oracle.rules.referee import check_action
from oracle.ruleset.loader import default_rule_book

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
    """The first hand of a simulated game per rule set of RULE_SETS and seed of SEEDS."""
    book = default_rule_book()
    out = []
    for rule_set_id in RULE_SETS:
        rules = book.get(rule_set_id).rules
        for seed in SEEDS:
            game = simulate_game(rules, seed, max_hands=1)
            hand = game.record.hands[0]
            dealer = dealer_of_hand(rules, game.record.first_dealer, 0)
            state = deal(
                rules, deck_order(rules, hand.deck), dealer=dealer, running_totals=start_standing(rules).totals
            )
            states, formed_at = [state], -1
            for i, action in enumerate(hand.actions):
                verdict = check_action(rules, state, action)
                assert verdict.next_state is not None, (rule_set_id, seed, i, verdict.violations)
                if any(isinstance(event, SidesFormed) for event in verdict.events):
                    formed_at = i
                state = verdict.next_state
                states.append(state)
            assert hand.deck.seed is not None
            out.append(
                Hand(rule_set_id, game.record.first_dealer, hand.deck.seed, tuple(states), hand.actions, formed_at)
            )
    return tuple(out)


def cutthroat_states(every: int = 1) -> list[tuple[str, GameState]]:
    """Every `every`-th state of the simulated hands, with the rule-set id."""
    return [(hand.rule_set_id, state) for hand in cutthroat_hands() for state in hand.states[::every]]


def formed_states(every: int = 1) -> list[tuple[str, GameState]]:
    """The states of cutthroat_states whose sides have formed (side_of_seat set)."""
    return [(rule_set_id, state) for rule_set_id, state in cutthroat_states(every) if state.side_of_seat]


__all__ = ["Hand", "cutthroat_hands", "cutthroat_states", "formed_states"]
