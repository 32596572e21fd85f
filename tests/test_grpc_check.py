"""CheckAction and ValidateState over gRPC: the seed texts' examples, and errors for bad states and actions."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import make_state
from server_harness import RPC_TIMEOUT, oracle_stub

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc
from oracle.model.actions import parse_action
from oracle.model.state import GameState
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto, state_from_proto, state_to_proto


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    with oracle_stub() as connected:
        yield connected


def check(
    stub: oracle_pb2_grpc.OracleServiceStub, rule_set: str, state: GameState, action: str
) -> oracle_pb2.CheckActionResponse:
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id=rule_set),
        state=state_to_proto(state),
        action=action_to_proto(parse_action(action)),
    )
    return stub.CheckAction(request, timeout=RPC_TIMEOUT)


def codes(response: oracle_pb2.CheckActionResponse) -> list[str]:
    return [v.code for v in response.violations]


def play_state(rule_set: str, hand: str, **kwargs: object) -> GameState:
    """Seat 0 to move after drawing, holding `hand`; the other seats hold a few cards."""
    seats = default_rule_book().get(rule_set).rules.seats
    hands = [hand] + ["4C 4D 5C 5D 6C"][:1] * (seats - 1)
    if seats == 4:
        hands = [hand, "4C 4D 5C", "5D 6C 6D", "7C 7D 8C"]
    return make_state(rule_set, hands=hands, phase="PHASE_PLAY", turn={"start": "TURN_START_DREW"}, **kwargs)


# Seed 001 "Melds and canastas": 9-9-Joker is a meld, 9-Joker-2 is not.
def test_nine_nine_joker_is_a_meld_nine_joker_two_is_not(stub) -> None:
    # hand: 9H 9D JK 2C AH AD AS QC QD; the side already has its initial meld (kings)
    state = play_state("classic-2p", "9H 9D JK 2C AH AD AS QC QD", melds=[["KH KD KS"], []])
    ok = check(stub, "classic-2p", state, "meld 9H 9D JK")
    assert ok.legal and not ok.violations
    bad = check(stub, "classic-2p", state, "meld 9H JK 2C")
    assert not bad.legal
    assert codes(bad) == ["MELD_TOO_FEW_NATURALS"]
    assert bad.violations[0].field == "melds.min_naturals"
    assert "9H JK 2C" in bad.violations[0].explanation
    assert {c.source for c in bad.violations[0].cite} == {"2P-RULES", "2P-GUIDE"}


# Seed 000 "The initial meld minimum": A-A-A (60) clears 50; 8-8-8 (30) does not; 8-8-8 + Q-Q-2 (70) does.
@pytest.mark.parametrize(
    ("action", "legal"), [("meld AH AD AS", True), ("meld 8H 8D 8S", False), ("meld 8H 8D 8S, QH QD 2C", True)]
)
def test_initial_meld_minimum_examples(stub, action: str, legal: bool) -> None:
    # hand: AH AD AS 8H 8D 8S QH QD 2C 5C 6C; no melds yet, running total 0 (minimum 50)
    state = play_state("classic-2p", "AH AD AS 8H 8D 8S QH QD 2C 5C 6C")
    response = check(stub, "classic-2p", state, action)
    assert response.legal is legal
    assert codes(response) == ([] if legal else ["INITIAL_MELD_BELOW_MINIMUM"])


def _frozen_by_wild(rule_set: str) -> GameState:
    # pile: 5D 2D 8H 9S (a discarded 2D freezes it), top 9S; hand 9H 9D JK KH 4S 6H; side has nines melded
    hands = (
        ["9H 9D JK KH 4S 6H", "QH QD QS 4H"]
        if rule_set == "classic-2p"
        else ["9H 9D JK KH 4S 6H", "QH QD QS 4H", "TC TD 7H", "JC JD 7S"]
    )
    return make_state(rule_set, hands=hands, melds=[["9C 9C 9S"], []], pile="5D 2D 8H 9S", phase="PHASE_DRAW")


# Seed 000/001/002 frozen pile: only a natural pair of the top card's rank takes it.
@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("take-pile with 9H 9D", []),
        ("take-pile with 9H JK", ["PILE_FROZEN_NEEDS_NATURAL_PAIR"]),
        ("take-pile", ["PILE_FROZEN_NEEDS_NATURAL_PAIR"]),  # the side's meld of nines does not help
    ],
)
def test_frozen_pile_needs_a_natural_pair(stub, rule_set: str, action: str, expected: list[str]) -> None:
    response = check(stub, rule_set, _frozen_by_wild(rule_set), action)
    assert codes(response) == expected
    if expected:
        assert response.violations[0].field == "discard_pile.frozen_by_wild"
    else:
        assert response.events[0].WhichOneof("kind") == "pile_taken"
        nxt = state_from_proto(response.next_state)
        assert validate_state(default_rule_book().get(rule_set).rules, nxt) == []


# Seed 002 "When the pile is frozen": frozen to a side without its initial meld, even with no wild in the pile.
def test_pile_frozen_to_a_side_without_initial_meld(stub) -> None:
    # hand: KH JK AH AD AS 5C; pile 4S 7D KD; no melds yet -> a natural and a wild will not do
    state = make_state(
        "classic-4p",
        hands=["KH JK AH AD AS 5C", "QH QD QS", "TC TD 7H", "JC JD 7S"],
        pile="4S 7D KD",
        phase="PHASE_DRAW",
    )
    response = check(stub, "classic-4p", state, "take-pile with KH JK meld AH AD AS")
    assert codes(response) == ["PILE_FROZEN_NEEDS_NATURAL_PAIR"]
    assert response.violations[0].field == "discard_pile.frozen_until_initial_meld"


# Seed 002 "The discard pile": a black three on top blocks; a wild on top blocks.
@pytest.mark.parametrize(("top", "code"), [("3S", "PILE_TOP_BLACK_THREE"), ("JK", "PILE_TOP_WILD")])
def test_black_three_or_wild_on_top_blocks(stub, top: str, code: str) -> None:
    state = make_state(
        "classic-4p",
        hands=["3C 3C JK 2C 5C", "QH QD QS", "TC TD 7H", "JC JD 7S"],
        melds=[["KH KD KS"], []],
        pile=f"4S {top}",
        phase="PHASE_DRAW",
    )
    response = check(stub, "classic-4p", state, "take-pile with 3C 3C" if top == "3S" else "take-pile with JK 2C")
    assert codes(response)[0] == code


# Going out: two canastas in classic-2p (seed 001 "Going out"), one in classic-4p (seed 002 "Going out").
def test_going_out_needs_two_canastas_in_2p_and_one_in_4p(stub) -> None:
    canasta = "KH KD KS KC KH KD KS"
    # 2p: one canasta, melding the last three cards (QH QD QS) would go out
    two = play_state("classic-2p", "QH QD QS", melds=[[canasta], []], melded_before=[True, False])
    response = check(stub, "classic-2p", two, "meld QH QD QS")
    assert "GO_OUT_WITHOUT_CANASTAS" in codes(response)
    # 4p: one canasta is enough; partner's hand counts against the side
    four = make_state(
        "classic-4p",
        hands=["QH QD QS", "4C 4D 5C", "5D 6C 6D", "7C 7D 8C"],
        melds=[[canasta], []],
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW"},
        melded_before=[True, False, False, False],
    )
    response = check(stub, "classic-4p", four, "meld QH QD QS")
    assert response.legal
    ended = response.events[-1].hand_ended
    assert ended.reason == game_pb2.HAND_END_WENT_OUT
    # side 0: 70 + 500 (canasta) + 30 (queens) + 100 (going out) - 15 (partner 5D 6C 6D)
    assert ended.scores[0].total == 70 + 500 + 30 + 100 - 15


def test_validate_state_reports_problems_over_grpc(stub) -> None:
    state = make_state("classic-2p", hands=["9H 9D JK", "QH QD QS"], pile="5C", phase="PHASE_DRAW")
    message = state_to_proto(state)
    message.seats[0].hand.append(47)  # a third KH
    response = stub.ValidateState(
        oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=message),
        timeout=RPC_TIMEOUT,
    )
    assert not response.valid
    assert any("3 copies of KH" in p.description for p in response.problems)


def test_check_on_an_inconsistent_state_is_failed_precondition(stub) -> None:
    state = make_state("classic-2p", hands=["9H 9D JK", "QH QD QS"], pile="5C", phase="PHASE_DRAW")
    message = state_to_proto(state)
    message.seats[1].hand.append(6)  # a red three held in hand, and a third 3D
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=message, action=action_to_proto(parse_action("draw"))
    )
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    detail = error_details_pb2.PreconditionFailure()
    rpc_status.from_call(info.value).details[0].Unpack(detail)
    subjects = {v.subject for v in detail.violations}
    assert "state.seats[1].hand[3]" in subjects


@pytest.mark.parametrize(
    ("action", "path"),
    [
        (game_pb2.Action(), "action.kind"),
        (
            game_pb2.Action(meld=game_pb2.MeldAction(groups=[game_pb2.MeldGroup(cards=[31, 47, 53])])),
            "action.meld.groups[0]",
        ),  # nines and a king
        (
            game_pb2.Action(meld=game_pb2.MeldAction(groups=[game_pb2.MeldGroup(cards=[31, 31, 7])])),
            "action.meld.groups[0]",
        ),  # a red three in a meld
        (game_pb2.Action(discard=game_pb2.DiscardAction(card=77)), "action.discard.card"),
    ],
)
def test_malformed_actions_are_invalid_argument(stub, action: game_pb2.Action, path: str) -> None:
    state = play_state("classic-2p", "9H 9D JK 2C AH AD AS")
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=state_to_proto(state), action=action
    )
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    detail = error_details_pb2.BadRequest()
    rpc_status.from_call(info.value).details[0].Unpack(detail)
    assert path in {v.field for v in detail.field_violations}


def test_card_not_in_hand_and_taking_the_pile_twice_are_violations(stub) -> None:
    state = play_state("classic-2p", "9H 9D JK 2C AH AD AS", pile="9S")
    assert codes(check(stub, "classic-2p", state, "meld KH KD KS")) == ["CARDS_NOT_IN_HAND"]
    # phase PLAY after taking or drawing: taking (again) is the wrong phase
    assert codes(check(stub, "classic-2p", state, "take-pile with 9H 9D"))[0] == "WRONG_PHASE"
