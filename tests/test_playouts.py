"""Random playouts: every legal action's next state validates and conserves the deck; checks have no side effects."""

from __future__ import annotations

import random

import pytest

from oracle.actions import Action, AnswerPartner, Discard, Draw, Finish, Meld, MeldGroup, TakePile
from oracle.cards import deck, is_natural, is_wild, rank_of
from oracle.deal import deal
from oracle.referee import check_action
from oracle.ruleset import CompiledRules
from oracle.ruleset_loader import default_rule_book
from oracle.state import GameState, HandEnd, Phase, meld_index_of_rank, side_of
from oracle.state_check import validate_state

MAX_ACTIONS = 600


def _groups(rules: CompiledRules, state: GameState, hand: tuple[int, ...]) -> list[MeldGroup]:
    side = state.sides[side_of(rules, state.seat_to_move)]
    by_rank: dict[int, list[int]] = {}
    for card in hand:
        if is_natural(card):
            by_rank.setdefault(rank_of(card), []).append(card)
    groups = []
    for rank, cards in sorted(by_rank.items()):
        if len(cards) >= 3 or (cards and meld_index_of_rank(side, rank) is not None):
            groups.append(MeldGroup(tuple(cards)))
    return groups


def _candidates(rules: CompiledRules, state: GameState, rng: random.Random) -> list[Action]:
    hand = state.seats[state.seat_to_move].hand
    if state.phase == Phase.AWAIT_ANSWER:
        return [AnswerPartner(rng.random() < 0.5)]
    if state.phase == Phase.FINAL_MELDS:
        groups = _groups(rules, state, hand)
        return ([Meld(tuple(groups))] if groups else []) + [Finish()]
    if state.phase == Phase.DRAW:
        options: list[Action] = []
        if state.discard_pile and is_natural(state.discard_pile[-1]):
            top_rank = rank_of(state.discard_pile[-1])
            pair = tuple(c for c in hand if is_natural(c) and rank_of(c) == top_rank)[:2]
            wild = tuple(c for c in hand if is_wild(c))[:1]
            extra = tuple(g for g in _groups(rules, state, hand) if rank_of(g.cards[0]) != top_rank)
            options += [TakePile(), TakePile(pair), TakePile(pair, extra), TakePile(pair[:1] + wild)]
        return [*options, Draw()]
    groups = _groups(rules, state, hand)
    options = []
    if groups:
        options.append(Meld(tuple(groups)))
        options += [Meld((g,)) for g in groups]
    discards = list(dict.fromkeys(hand))
    rng.shuffle(discards)
    return options + [Discard(c) for c in discards]


def play_hand(rules: CompiledRules, seed: int) -> tuple[GameState, int]:
    rng = random.Random(seed)
    order = deck(rules.spec.deck.packs, rules.spec.deck.jokers)
    rng.shuffle(order)
    state = deal(rules, order, dealer=seed % rules.seats)
    assert validate_state(rules, state) == []
    for step in range(MAX_ACTIONS):
        if state.phase == Phase.HAND_OVER:
            return state, step
        for action in _candidates(rules, state, rng):
            verdict = check_action(rules, state, action)
            if not verdict.legal:
                assert verdict.next_state is None and not verdict.events
                continue
            assert check_action(rules, state, action) == verdict, "the same check gave another answer"
            assert verdict.next_state is not None
            problems = validate_state(rules, verdict.next_state)
            assert problems == [], f"after {action} at step {step}: {problems}"
            state = verdict.next_state
            break
        else:
            pytest.fail(f"no candidate action was legal at step {step} in phase {state.phase.name}")
    pytest.fail(f"hand {seed} did not end in {MAX_ACTIONS} actions")


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize("seed", range(30))
def test_random_hands_stay_consistent_and_end(rule_set_id: str, seed: int) -> None:
    rules = default_rule_book().get(rule_set_id).rules
    final, steps = play_hand(rules, seed)
    assert final.hand_end in (HandEnd.WENT_OUT, HandEnd.STOCK_EXHAUSTED, HandEnd.LAST_RED_THREE)
    assert steps > rules.seats
