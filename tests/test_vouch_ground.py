"""The ground for vouching (oracle.rules.state_memo): every state the referee makes by a legal action from a valid
state is valid, over every decision of every shipped record (all rule sets) and seeded random hands."""

from __future__ import annotations

import pytest
from helpers import rules

from oracle.bench.states import positions, shipped_records, simulated_hand
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book


def test_every_state_a_shipped_record_passes_through_is_valid() -> None:
    book = default_rule_book()
    found = positions(book, shipped_records())
    assert len({p.rule_set_id for p in found}) >= 8  # every game of the family has records
    for position in found:
        problems = validate_state(book.get(position.rule_set_id).rules, position.state)
        assert problems == [], (position.rule_set_id, position.before is None, problems)


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "cutthroat-3p", "american-4p", "samba-4p", "hand-and-foot-4p"])
def test_every_state_of_a_random_hand_is_valid(rule_set_id: str) -> None:
    r = rules(rule_set_id)
    for seed in (1, 2):
        for state, _, verdict in simulated_hand(r, seed):
            assert validate_state(r, state) == []
            if verdict.next_state is not None:
                assert validate_state(r, verdict.next_state) == []
