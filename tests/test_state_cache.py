"""Request states remembered by their bytes: a position asked about again is read from memory, and every answer and
error is the one a fresh read gives (the size limits are still checked against each request's rule set)."""

from __future__ import annotations

import pytest
from helpers import rules

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_to_proto
from oracle.service.state_cache import DecodedStates
from oracle.service.wire_state import decode_state


def dealt(rule_set_id: str, seed: int) -> GameState:
    r = rules(rule_set_id)
    return deal(r, deck_order(r, DeckSource(seed=seed)), dealer=0)


def check_request(rule_set_id: str, state: game_pb2.GameState, action: str) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id=rule_set_id), state=state, action_text=action
    )


def test_the_same_bytes_give_the_same_state_object_and_its_pieces() -> None:
    cache = DecodedStates()
    data = state_to_proto(dealt("classic-4p", 1)).SerializeToString()
    pieces: dict[int, tuple[object, bytes]] = {}
    state = decode_state(data, pieces)
    cache.put(data, state, pieces)
    again: dict[int, tuple[object, bytes]] = {}
    assert cache.get(data, again) is state and again == pieces and cache.hits == 1
    assert cache.get(data, None) is state
    assert cache.get(data + b"\x28\x00", {}) is None  # other bytes, even for an equal state: not this entry


def test_an_entry_kept_without_pieces_is_not_used_where_pieces_are_wanted() -> None:
    cache = DecodedStates()
    data = state_to_proto(dealt("classic-2p", 2)).SerializeToString()
    cache.put(data, decode_state(data, None), None)
    assert cache.get(data, {}) is None and cache.get(data, None) is not None


def test_the_cache_is_bounded_least_recently_used_first() -> None:
    cache = DecodedStates(capacity=2)
    datas = [state_to_proto(dealt("classic-2p", seed)).SerializeToString() for seed in (1, 2, 3)]
    for data in datas[:2]:
        cache.put(data, decode_state(data, None), None)
    assert cache.get(datas[0], None) is not None  # the first is now the most recent
    cache.put(datas[2], decode_state(datas[2], None), None)
    assert len(cache) == 2 and cache.get(datas[1], None) is None and cache.get(datas[0], None) is not None
    with pytest.raises(ValueError, match="at least 1"):
        DecodedStates(capacity=0)


def test_answers_for_a_position_asked_again_are_the_fresh_answers() -> None:
    book = default_rule_book()
    remembered, fresh = OracleApi(book), OracleApi(book)
    state = dealt("classic-4p", 5)
    message = state_to_proto(state)
    hand = state.seats[state.seat_to_move].hand
    for action in ["draw", f"discard {hand and 'KH'}", "take-pile", "meld 9H 9S 9D"]:
        request = check_request("classic-4p", message, action)
        first = remembered.CheckAction(request).SerializeToString()
        fresh.states = DecodedStates()  # never remembers across these requests
        assert remembered.CheckAction(request).SerializeToString() == first
        assert fresh.CheckAction(request).SerializeToString() == first
    assert remembered.states.hits >= 4


def test_the_size_limits_are_checked_against_each_requests_rule_set() -> None:
    """A state within a three-pack deck's limits is remembered; the same bytes under a two-pack rule set are still
    refused at the stock's path."""
    api = OracleApi(default_rule_book())
    big = state_to_proto(dealt("six-2x3", 1))
    for seat in big.seats:  # every hand's cards into the stock: a stock longer than a two-pack deck
        big.stock.extend(seat.hand)
        del seat.hand[:]
    assert rules("classic-2p").deck_size < len(big.stock) <= rules("six-2x3").deck_size
    api.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="six-2x3"), state=big))
    with pytest.raises(InvalidInputError) as refused:
        api.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=big))
    assert "state.stock" in [p.field for p in refused.value.problems]


def test_a_listing_then_a_check_of_the_same_position_reads_it_once() -> None:
    """A bot's loop: ListLegalActions on a position, then CheckAction of the action it chose."""
    book = default_rule_book()
    api, fresh = OracleApi(book), OracleApi(book)
    message = state_to_proto(dealt("classic-2p", 7))
    ref = oracle_pb2.RuleSetRef(id="classic-2p")
    listed = api.ListLegalActions(oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=message))
    chosen = listed.actions[0]
    request = oracle_pb2.CheckActionRequest(rule_set=ref, state=message, action=chosen)
    hits = api.states.hits
    answer = api.CheckAction(request)
    assert api.states.hits == hits + 1
    assert answer.SerializeToString() == fresh.CheckAction(request).SerializeToString() and answer.legal
