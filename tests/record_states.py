"""The states of the shipped game records (conformance/records), hand by hand, for tests that need real states."""

from __future__ import annotations

import functools
from pathlib import Path

import oracle
from oracle.games.deal import deal
from oracle.games.match import after_hand, dealer_of_hand, deck_order, start_standing
from oracle.model.events import HandEnded
from oracle.model.state import GameState
from oracle.rules.referee import check_action

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "conformance" / "records").glob("*/game-*.json"))
#: The records whose states a player's view can stand for: all of them (completing a view deals unseen threes that
#: are bonus cards to the stock, as play would have laid them)
VIEW_RECORDS = list(RECORDS)


@functools.cache
def record_states(path: Path) -> tuple[str, tuple[GameState, ...]]:
    """The rule-set id of a record and every state it passes through (before each action, and each hand's end), up
    to its first illegal action if the rules changed under it."""
    record = oracle.load_record(path)
    rules = oracle.load_rule_set(record.rule_set_id)
    standing = start_standing(rules)
    states: list[GameState] = []
    for h, hand in enumerate(record.hands):
        dealer = dealer_of_hand(rules, record.first_dealer, h)
        state = deal(rules, deck_order(rules, hand.deck), dealer=dealer, running_totals=standing.totals)
        for action in hand.actions:
            states.append(state)
            verdict = check_action(rules, state, action, validate=False)
            if verdict.next_state is None:  # the records are checked elsewhere (test_records_corpus): stop here
                return record.rule_set_id, tuple(states)
            state = verdict.next_state
            for event in verdict.events:
                if isinstance(event, HandEnded):
                    standing = after_hand(rules, standing, [s.total for s in event.scores])
        states.append(state)
    return record.rule_set_id, tuple(states)
