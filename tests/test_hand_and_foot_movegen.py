"""Legal moves in Hand and Foot: seeded random hands of the four hand-and-foot rule sets never reach a position
without a legal action (a foot taken up by melding or by discarding, a side short of its books, a question
required), every state on the way is consistent, and the moves listed in the going-out positions are the ones the
referee accepts."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hand_and_foot_states import ASKED_YES, CLEAN, DIRTY, FOOT, OPEN, RULE_SET
from hand_and_foot_states import foot_state as hf

from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions
from oracle.games.notation import notation
from oracle.games.simulate import choose
from oracle.model.actions import Action, AnswerPartner, AskPartner, Meld, TakePile
from oracle.model.state import GameState, Phase
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book

BOOK = default_rule_book()
RULES = BOOK.get(RULE_SET).rules
HAND_AND_FOOT = [
    "hand-and-foot-4p",
    "hand-and-foot-13-4p",
    "hand-and-foot-red-threes-laid-4p",
    "hand-and-foot-one-each-4p",
]
Chooser = Callable[[GameState, Sequence[Action], random.Random], Action]


def greedy(state: GameState, listed: Sequence[Action], rng: random.Random) -> Action:
    """A player who says yes, melds the most cards, asks half the time and takes the pile when he can: the kind of
    play that empties hands and reaches the feet."""
    for action in listed:
        if isinstance(action, AnswerPartner) and action.yes:
            return action
    melds = [a for a in listed if isinstance(a, Meld)]
    if melds:
        return max(melds, key=lambda a: sum(len(g.cards) for g in a.groups))
    asks = [a for a in listed if isinstance(a, AskPartner)]
    if asks and rng.random() < 0.5:
        return asks[0]
    takes = [a for a in listed if isinstance(a, TakePile)]
    return takes[0] if takes else rng.choice(list(listed))


def _play(rule_set_id: str, seed: int, chooser: Chooser) -> tuple[GameState, int]:
    """Play one hand from a seeded deal; the end state and how many feet were taken up on the way."""
    rules = BOOK.get(rule_set_id).rules
    rng = random.Random(seed)
    state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=seed % 4, hand_number=1 + seed % 4)
    for _ in range(600):
        assert validate_state(rules, state) == [], (rule_set_id, seed)
        if state.phase == Phase.HAND_OVER:
            break
        listed = legal_actions(rules, state)
        assert listed, f"{rule_set_id} seed {seed}: no legal action in {state}"
        verdict = check_action(rules, state, chooser(state, listed, rng), validate=False)
        assert verdict.next_state is not None, verdict.violations
        state = verdict.next_state
    assert state.phase == Phase.HAND_OVER, "a hand of 600 actions did not end"
    return state, sum(1 for seat in state.seats if not seat.foot)


@pytest.mark.parametrize("rule_set_id", HAND_AND_FOOT)
@pytest.mark.parametrize("chooser", [choose, greedy], ids=["random", "greedy"])
def test_random_hands_never_reach_a_position_without_a_legal_action(rule_set_id: str, chooser: Chooser) -> None:
    taken = sum(_play(rule_set_id, seed, chooser)[1] for seed in range(3))
    assert taken > 0, "no foot was taken up: the hands did not reach the positions this test is for"


def test_told_yes_with_the_books_made_the_last_card_goes_out() -> None:
    state = hf("9S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES)
    listed = legal_actions(RULES, state)
    assert [notation(a) for a in listed] == ["discard 9S"]
    after = check_action(RULES, state, listed[0])
    assert after.next_state is not None and after.next_state.phase == Phase.HAND_OVER


def test_with_a_foot_waiting_the_whole_hand_may_be_melded() -> None:
    listed = [notation(a) for a in legal_actions(RULES, hf("9S 9S 2C", foot=FOOT))]
    assert "meld 9S 9S 2C" in listed
    assert "discard 2C" in listed


def test_not_yet_asked_in_the_foot_a_player_may_ask_but_not_meld_down_to_one_card() -> None:
    listed = [notation(a) for a in legal_actions(RULES, hf("5H 5D 5S 9C", (*CLEAN, *DIRTY, *OPEN)))]
    assert "ask" in listed
    assert "meld 5H 5D 5S" not in listed
