"""The validation memo: a state judged once per rule set, the same answer from memory, bounded, and the referee's
errors unchanged when the answer comes from memory."""

from __future__ import annotations

import gc
from dataclasses import replace

import pytest
from helpers import rules

from oracle.games.deal import deal
from oracle.model.actions import Draw
from oracle.model.cards import deck
from oracle.model.state import GameState
from oracle.rules.referee import check_action
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.rules.state_memo import MEMO, StateMemo, Vouched


def dealt(rule_set_id: str, shift: int = 0) -> GameState:
    r = rules(rule_set_id)
    cards = sorted(deck(r.deck.packs, r.deck.jokers))
    return deal(r, cards[shift:] + cards[:shift])


def missing_card(state: GameState) -> GameState:
    """The state with the stock's top card gone (a card of the deck nowhere)."""
    return replace(state, stock=state.stock[1:])


def test_a_state_seen_again_is_answered_from_memory_with_the_same_problems() -> None:
    memo = StateMemo()
    r = rules("classic-4p")
    good, bad = dealt("classic-4p"), missing_card(dealt("classic-4p"))
    assert memo.problems(r, good) == [] and (memo.hits, memo.misses) == (0, 1)
    found = memo.problems(r, bad)
    assert found == validate_state(r, bad) and found, "an inconsistent state must keep its problems"
    rebuilt = replace(bad)  # an equal state built anew, as each request builds its own
    assert rebuilt is not bad
    again = memo.problems(r, rebuilt)
    assert again == found and (memo.hits, memo.misses) == (1, 2)
    again.clear()  # the caller's list is its own
    assert memo.problems(r, bad) == found


def test_the_memo_keys_by_rule_set_as_well_as_state() -> None:
    memo = StateMemo()
    two = dealt("classic-2p")
    assert memo.problems(rules("classic-2p"), two) == []
    under_four = memo.problems(rules("classic-4p"), two)
    assert under_four == validate_state(rules("classic-4p"), two) and under_four  # two seats are not four
    assert memo.misses == 2


def test_the_memo_is_bounded_least_recently_used_first() -> None:
    memo = StateMemo(capacity=2)
    r = rules("classic-2p")
    a, b, c = (dealt("classic-2p", shift) for shift in (0, 1, 2))
    memo.problems(r, a)
    memo.problems(r, b)
    memo.problems(r, a)  # a is now the most recent
    memo.problems(r, c)  # b goes
    assert len(memo) == 2
    misses = memo.misses
    memo.problems(r, a)
    assert memo.misses == misses
    memo.problems(r, b)
    assert memo.misses == misses + 1
    with pytest.raises(ValueError, match="at least 1"):
        StateMemo(capacity=0)


def test_the_referee_raises_the_same_error_for_a_remembered_inconsistent_state() -> None:
    r = rules("classic-4p")
    bad = missing_card(dealt("classic-4p", 3))
    MEMO.clear()
    messages = []
    for _ in range(2):
        with pytest.raises(InvalidStateError) as info:
            check_action(r, bad, Draw())
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "missing" in messages[0]
    assert MEMO.hits >= 1


def test_a_state_the_referee_made_from_a_valid_state_is_vouched_for_by_identity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r = rules("classic-4p")
    MEMO.clear()
    made = check_action(r, dealt("classic-4p", 5), Draw()).next_state
    assert made is not None and validate_state(r, made) == []
    import oracle.rules.state_memo as state_memo

    def not_again(*_: object) -> list[object]:
        raise AssertionError("a vouched state was validated again")

    monkeypatch.setattr(state_memo, "validate_state", not_again)
    hits = MEMO.hits
    assert MEMO.problems(r, made) == [] and MEMO.hits == hits + 1
    # an equal state built anew is not the state the referee made: it is hashed and validated as any other
    with pytest.raises(AssertionError, match="validated again"):
        MEMO.problems(r, replace(made))
    # nor is the state vouched for under another rule set
    with pytest.raises(AssertionError, match="validated again"):
        MEMO.problems(rules("bicycle-4p"), made)


def test_only_a_validated_state_passes_its_vouch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    r = rules("classic-4p")
    MEMO.clear()
    made = check_action(r, dealt("classic-4p", 6), Draw(), validate=False).next_state
    assert made is not None
    seen: list[GameState] = []
    import oracle.rules.state_memo as state_memo

    def validate(_: object, state: GameState, *__: object) -> list[object]:
        seen.append(state)
        return []

    monkeypatch.setattr(state_memo, "validate_state", validate)
    MEMO.problems(r, made)
    assert len(seen) == 1  # validate=False: the caller vouched for the state it gave, the oracle for nothing


def test_a_state_is_vouched_for_while_it_lives_however_many_were_made_since() -> None:
    memo = StateMemo()
    r = rules("classic-2p")
    first = dealt("classic-2p", 0)
    memo.vouch(r, first)
    # a search holding thousands of positions it made: the first is still vouched for (no count bounds it)
    held = [replace(first, seat_to_move=1) for _ in range(3000)]
    for state in held:
        memo.vouch(r, state)
    misses = memo.misses
    assert memo.problems(r, first) == [] and memo.problems(r, held[0]) == []
    assert memo.misses == misses
    # what the memo keeps of a vouched state lives no longer than the state: the entries go as the states do
    vouched = Vouched()
    for state in held:
        vouched.add(r, state)
    assert len(vouched) == len(held)
    kept = held[7]
    del state
    held.clear()
    gc.collect()
    assert len(vouched) == 1 and vouched.valid_under(r, kept)
    assert not vouched.valid_under(rules("classic-4p"), kept)  # under its own rule set only
    assert not vouched.valid_under(r, replace(kept))  # that object only, not an equal one
    memo.clear()
    memo.problems(r, first)
    assert memo.misses == misses + 1  # clearing forgets the vouched states too
