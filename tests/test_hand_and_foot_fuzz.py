"""A bounded fuzz of Hand and Foot's requests over a real server: the seeds (oracle.bench.fuzz_feet) are states and
views with feet from simulated hands of the rule sets with a foot, with actions that meld the hand out, discard its
last card or ask to go out, under those rule sets, inline rule sets extending them and a later hand's number; their
mutations are answered with a code a client can act on (never INTERNAL or UNKNOWN), as tests/test_fuzz_rpc.py asks
of every RPC. Deterministic: derandomised, a fixed number of examples per RPC."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import grpc
import pytest
from fuzz_strategies import assert_answered, assert_no_fault, check_requests, fuzz_channel, mutated_seeds

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_feet import LATER_HAND, add_feet_positions
from oracle.bench.fuzz_seeds import Corpus, build_corpus
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_from_proto

EXAMPLES = 100  #: per RPC
RPCS = ("CheckAction", "ListLegalActions", "Adjudicate", "ValidateState", "ScoreHand", "DealHand")
#: A valid seed is judged, or refused by an inline rule set's field
ACCEPTED = (grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION)


@functools.cache
def feet_corpus() -> Corpus:
    """Every 8th position of the simulated hands of the rule sets with a foot, and those where the hand is emptied
    or going out asked."""
    corpus = Corpus(words=sorted(default_rule_book().ids()))
    add_feet_positions(corpus, default_rule_book(), every=8)
    return corpus


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    yield from fuzz_channel()


def test_the_seeds_hold_states_and_views_with_feet_and_actions_into_the_foot() -> None:
    checks = check_requests(feet_corpus())
    states = [r.state for r in checks if r.HasField("state")]
    views = [r.view for r in checks if r.HasField("view")]
    assert any(len(seat.foot) == 11 for state in states for seat in state.seats)
    assert any(len(seat.foot) == 13 for state in states for seat in state.seats)  # hand-and-foot-13-4p
    assert any(not seat.foot for state in states for seat in state.seats)  # a foot taken up
    assert any(seat.foot_count for view in views for seat in view.seats)
    assert any(state.hand_number == LATER_HAND for state in states)
    api = OracleApi(default_rule_book())
    into_foot = []
    for request in checks:
        if request.rule_set.id and request.HasField("state"):
            answer = api.CheckAction(request)
            mover = request.state.seat_to_move
            if answer.legal and request.state.seats[mover].foot and not answer.next_state.seats[mover].foot:
                into_foot.append(request.action.WhichOneof("kind"))
    assert "meld" in into_foot and "discard" in into_foot  # melded out and walked into the foot
    houses = {r.rule_set.inline.extends for r in checks if r.rule_set.HasField("inline")}
    assert "hand-and-foot-4p" in houses
    codes: set[str] = set()
    for request in checks:
        if request.rule_set.id and request.HasField("state") and request.action_text:
            codes.update(v.code for v in api.CheckAction(request).violations)
    assert {"GO_OUT_WITHOUT_ASKING", "GO_OUT_BOOKS_MISSING", "MUST_KEEP_CARDS"} <= codes


def test_the_whole_fuzz_corpus_holds_the_feet_seeds() -> None:
    corpus = build_corpus(default_rule_book(), records=4, every=40)
    footed = [r for r in check_requests(corpus) if r.rule_set.id == "hand-and-foot-4p" and r.HasField("state")]
    assert footed and any(seat.foot for r in footed for seat in r.state.seats)
    dealt = {r.SerializeToString() for r in corpus.unary["DealHand"]}
    feet_deals = [r.SerializeToString() for r in feet_corpus().unary["DealHand"]]
    assert feet_deals and set(feet_deals) <= dealt  # each footed rule set's deal (FEET_SEED), beside the records'


def test_the_feet_seeds_are_consistent_states() -> None:
    book = default_rule_book()
    for request in feet_corpus().unary["ValidateState"][::5]:
        assert isinstance(request, oracle_pb2.ValidateStateRequest)
        state = state_from_proto(request.state)
        answer = OracleApi(book).ValidateState(request)
        assert answer.valid, (request.rule_set.id, state.hand_number, answer.problems)


@pytest.mark.parametrize("rpc", RPCS)
def test_the_feet_seeds_are_answered(channel: grpc.Channel, rpc: str) -> None:
    assert_answered(channel, rpc, feet_corpus().unary[rpc][::3], ACCEPTED)


@pytest.mark.parametrize("rpc", RPCS)
def test_mutated_feet_requests_get_no_internal_error(channel: grpc.Channel, rpc: str) -> None:
    assert_no_fault(channel, rpc, mutated_seeds(feet_corpus, rpc), EXAMPLES)
