"""The wire paths of Hand and Foot's state fields (SeatState.foot, GameState.hand_number, SeatView.foot_count,
PlayerView.hand_number): the fast readers and writer give exactly what the message API gives, the writer drops
none of them, and a foot stays hidden in every view."""

from __future__ import annotations

import random

import pytest

from oracle.api.v1 import game_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions
from oracle.games.simulate import choose
from oracle.model.state import GameState, Phase
from oracle.rules.referee import check_action
from oracle.rules.view import complete, view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import fill_state_fields, state_from_message, state_from_proto, state_to_proto
from oracle.service.convert_view import view_from_message, view_from_proto, view_to_proto, view_to_proto_fields
from oracle.service.wire_state import decode_state
from oracle.service.wire_view import decode_view
from oracle.service.wire_write import encode_state, encode_view

RULES = default_rule_book().get("hand-and-foot-4p").rules


def _states() -> list[GameState]:
    """Every 10th state of a seeded hand (the third of the game), feet dealt, some taken up on the way."""
    rng = random.Random(7)
    state = deal(RULES, deck_order(RULES, DeckSource(seed=7)), dealer=1, hand_number=3)
    states = [state]
    while state.phase != Phase.HAND_OVER:
        verdict = check_action(RULES, state, choose(state, legal_actions(RULES, state), rng), validate=False)
        assert verdict.next_state is not None
        state = verdict.next_state
        states.append(state)
    return [*states[::10], states[-1]]


STATES = _states()


def _by_message_api(state: GameState) -> game_pb2.GameState:
    msg = game_pb2.GameState()
    fill_state_fields(msg, state)
    return msg


def test_the_hands_played_reach_feet_taken_up_and_feet_waiting() -> None:
    assert any(seat.foot for state in STATES for seat in state.seats)
    assert any(not seat.foot for seat in STATES[-1].seats)
    assert all(state.hand_number == 3 for state in STATES)


@pytest.mark.parametrize("index", range(len(STATES)))
def test_a_state_written_fast_is_the_message_api_state_and_reads_back_whole(index: int) -> None:
    state = STATES[index]
    msg = _by_message_api(state)
    assert msg.hand_number == 3 and [len(s.foot) for s in msg.seats] == [len(s.foot) for s in state.seats]
    data = encode_state(state)
    assert game_pb2.GameState.FromString(data) == msg
    assert decode_state(data) == state  # the fast reader
    assert state_from_message(msg) == state  # the message path
    assert state_from_proto(state_to_proto(state)) == state


@pytest.mark.parametrize("index", range(0, len(STATES), 3))
def test_a_view_hides_every_foot_and_round_trips(index: int) -> None:
    state = STATES[index]
    for seat in range(RULES.seats):
        view = view_of(state, seat)
        assert [s.foot_count for s in view.seats] == [len(s.foot) for s in state.seats]
        assert view.hand == state.seats[seat].hand and view.hand_number == 3
        msg = view_to_proto_fields(view)
        assert game_pb2.PlayerView.FromString(encode_view(view)) == msg
        assert decode_view(encode_view(view)) == view
        assert view_from_message(msg) == view
        assert view_from_proto(view_to_proto(view)) == view
        assert [len(s.foot) for s in complete(RULES, view).seats] == [len(s.foot) for s in state.seats]


def test_the_first_hand_is_written_as_no_hand_number_and_read_as_one() -> None:
    first = STATES[0]  # hand 3
    assert b"\x90\x03\x03" in encode_state(first)
    one = deal(RULES, deck_order(RULES, DeckSource(seed=7)), dealer=1)
    assert one.hand_number == 1 and b"\x90\x03" not in encode_state(one)
    assert _by_message_api(one).hand_number == 0 and decode_state(encode_state(one)).hand_number == 1
