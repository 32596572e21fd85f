"""Legal-move generation agrees with the referee on Cutthroat Canasta positions: random reachable states of the
three cutthroat rule sets (before and after sides form), and a partnership meld put together over the wild-card
limit, which takes naturals and refuses wild cards."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions, legal_actions_by_referee
from oracle.games.simulate import choose
from oracle.model.actions import Meld, MeldGroup
from oracle.model.cards import parse_cards, rank_of
from oracle.model.state import GameState, Phase, SeatState, SideState, TurnStart, TurnState
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book

BOOK = default_rule_book()
CUTTHROAT = ["cutthroat-3p", "cutthroat-one-canasta-3p", "cutthroat-play-on-3p"]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


@settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_set_id=st.sampled_from(CUTTHROAT), seed=st.integers(0, 2**32 - 1), total=st.sampled_from([0, 1500, 3000]))
def test_every_state_of_a_random_cutthroat_hand_lists_what_the_referee_accepts(
    rule_set_id: str, seed: int, total: int
) -> None:
    rules = BOOK.get(rule_set_id).rules
    rng = random.Random(seed)
    state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=seed % 3, running_totals=(total, 0, -100))
    for _ in range(400):
        assert validate_state(rules, state) == []
        if state.phase == Phase.HAND_OVER:
            break
        listed = legal_actions(rules, state)
        assert listed == legal_actions_by_referee(rules, state), (rule_set_id, seed, state)
        verdict = check_action(rules, state, choose(state, listed, rng), validate=False)
        assert verdict.next_state is not None
        state = verdict.next_state
    assert state.phase == Phase.HAND_OVER, "a random hand of 400 actions did not end"


def test_random_cutthroat_hands_mostly_form_sides() -> None:
    """The hands the property above plays are the kind it is meant for: in most of them a take forms the sides."""
    rules = BOOK.get("cutthroat-3p").rules
    formed = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=seed % 3)
        while state.phase != Phase.HAND_OVER:
            verdict = check_action(rules, state, choose(state, legal_actions(rules, state), rng), validate=False)
            assert verdict.next_state is not None
            state = verdict.next_state
        formed += bool(state.side_of_seat)
    assert formed > 10, formed


def _formed_state(hand: str) -> GameState:
    """Seat 2 took the pile first; seats 0 and 1 are partners, their eights put together into one meld with four
    wild cards (8 8 8 2 2 and 8 8 8 JK 2); seat 1 is to play."""
    partners_melds = (cards("8C 8D 8H 2C 2D 8S 8C 8D JK 2H"), cards("KC KD KH"))
    sides = (
        SideState(melds=partners_melds, running_total=0),
        SideState(running_total=500),
        SideState(melds=(cards("QC QD QH"),), running_total=1000),
    )
    seats = (SeatState(cards("5C 6D 7H")), SeatState(cards(hand), melded_before=True), SeatState(cards("4C 4D 9S")))
    placed = [*partners_melds[0], *partners_melds[1], *sides[2].melds[0]]
    for seat in seats:
        placed += seat.hand
    rules = BOOK.get("cutthroat-3p").rules
    stock = list(rules.sorted_deck)
    for card in placed:
        stock.remove(card)
    pile = (stock.pop(stock.index(cards("6S")[0])),)
    return GameState(
        seats,
        sides,
        tuple(stock),
        pile,
        seat_to_move=1,
        phase=Phase.PLAY,
        turn=TurnState(TurnStart.DREW, melds_before_turn=2),
        side_of_seat=(0, 0, 2),
    )


def test_a_partnership_meld_over_the_wild_limit_takes_naturals_and_refuses_wild_cards() -> None:
    rules = BOOK.get("cutthroat-3p").rules
    state = _formed_state("8H 2S 9C 9D 4H")
    assert validate_state(rules, state) == []
    natural = check_action(rules, state, Meld((MeldGroup(cards("8H")),)))
    assert natural.legal, natural.violations
    wild = check_action(rules, state, Meld((MeldGroup(cards("2S"), onto_rank=rank_of(cards("8H")[0])),)))
    assert not wild.legal
    assert [v.field for v in wild.violations] == ["melds.max_wilds"]
    listed = legal_actions(rules, state)
    assert listed == legal_actions_by_referee(rules, state)
    assert Meld((MeldGroup(cards("8H")),)) in listed
