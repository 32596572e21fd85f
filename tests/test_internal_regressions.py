"""Requests that used to get INTERNAL or UNKNOWN (or a wrong field path) from a real server, each with its answer now.

Issue 12, findings 5, 6 and 11: each malformed request gets INVALID_ARGUMENT or FAILED_PRECONDITION with the path of
the field that is wrong, and bytes that do not decode get INVALID_ARGUMENT naming the request type.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from server_harness import RPC_TIMEOUT, ServerThread

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc, ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_to_proto

SERVICE = "/oracle.api.v1.OracleService"


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    server = ServerThread(default_rule_book())
    channel = grpc.insecure_channel(server.address)
    try:
        yield channel
    finally:
        channel.close()
        server.close()


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> oracle_pb2_grpc.OracleServiceStub:
    return oracle_pb2_grpc.OracleServiceStub(channel)


def dealt(rule_set_id: str = "classic-4p", seed: int = 1) -> game_pb2.GameState:
    """A freshly dealt hand (a consistent state) as a message."""
    rules = default_rule_book().get(rule_set_id).rules
    return state_to_proto(deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=0))


def error_of(call: grpc.UnaryUnaryMultiCallable, request: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=RPC_TIMEOUT)
    return info.value


def fields_of(error: grpc.RpcError) -> list[str]:
    """The field paths of an INVALID_ARGUMENT (BadRequest) or FAILED_PRECONDITION (PreconditionFailure) error."""
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status in the trailers"
    fields: list[str] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [v.field for v in bad.field_violations]
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            fields += [v.subject for v in failure.violations]
    return fields


def check_request(state: game_pb2.GameState) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state, action=game_pb2.Action(draw=game_pb2.DrawAction())
    )


def inline(**sections: object) -> oracle_pb2.RuleSetRef:
    """An inline rule set extending classic-4p with `sections` overridden, each with its cited note."""
    spec = ruleset_pb2.RuleSet(extends="classic-4p", **sections)  # type: ignore[arg-type]
    for name in sections:
        spec.rules.add(field=name, text="A house rule.", cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="x")])
    return oracle_pb2.RuleSetRef(inline=spec)


# --------------------------------------------------------------------------- finding 5: the four INTERNAL bugs


def test_pile_upcards_below_minus_the_pile_length_is_failed_precondition(stub) -> None:
    state = dealt()
    state.pile_upcards = -len(state.discard_pile) - 5
    error = error_of(stub.CheckAction, check_request(state))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error.details()
    assert fields_of(error) == ["state.pile_upcards"]
    validated = stub.ValidateState(
        oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state),
        timeout=RPC_TIMEOUT,
    )
    assert [p.field for p in validated.problems] == ["state.pile_upcards"]


def test_an_invalid_card_among_the_upcards_is_reported_where_it_is(stub) -> None:
    state = dealt()
    state.discard_pile.insert(0, 99)  # type: ignore[arg-type]  # covered by the real upcard above it
    state.pile_upcards = 2
    error = error_of(stub.CheckAction, check_request(state))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error.details()
    assert "state.discard_pile[0]" in fields_of(error)
    assert "99 is not a card" in error.details()


def test_a_meld_holding_card_99_on_the_side_that_went_out_is_failed_precondition(stub) -> None:
    state = dealt()
    state.phase = game_pb2.PHASE_HAND_OVER
    state.hand_end = game_pb2.HAND_END_WENT_OUT
    state.went_out_seat = 0
    state.sides[0].melds.add(cards=[99, 99, 99])  # type: ignore[list-item]
    error = error_of(stub.CheckAction, check_request(state))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error.details()
    # The three bad card numbers are one problem repeated: listed once, with how many more there are.
    assert "state.sides[0].melds[0][0]" in fields_of(error)
    assert "99 is not a card (and 2 more like it in state.sides[0].melds[0])" in error.details()


def test_inline_side_size_zero_is_invalid_argument_at_its_path(stub) -> None:
    request = oracle_pb2.GetRuleSetRequest(rule_set=inline(players=ruleset_pb2.Players(side_size=0)))
    error = error_of(stub.GetRuleSet, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    # The range check names it, and the consistency checks (which divide by it) do not run.
    assert fields_of(error) == ["rule_set.inline.players.side_size"]
    assert "is 0; it must be at least 1" in error.details()


# --------------------------------------------------------------------------- finding 6: bytes that do not decode


@pytest.mark.parametrize(
    ("method", "request_type", "data"),
    [
        ("CheckAction", "oracle.api.v1.CheckActionRequest", b"\xff\xff\xff\xff"),
        ("GetRuleSet", "oracle.api.v1.GetRuleSetRequest", b"\x0a\x05\x0a\x03ab"),  # a length past the end
        ("ReplayGame", "oracle.api.v1.ReplayGameRequest", b"\x0a\x02\x1a\x80"),
    ],
)
def test_undecodable_request_bytes_are_invalid_argument(channel, method: str, request_type: str, data: bytes) -> None:
    call = channel.unary_unary(f"{SERVICE}/{method}", request_serializer=None, response_deserializer=None)
    error = error_of(call, data)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == f"request bytes do not decode as {request_type} ({len(data)} bytes)"
    assert rpc_status.from_call(error) is not None


def test_undecodable_message_on_a_stream_is_invalid_argument(channel) -> None:
    call = channel.stream_stream(f"{SERVICE}/RefereeGame", request_serializer=None, response_deserializer=None)
    with pytest.raises(grpc.RpcError) as info:
        list(call(iter([b"\x0a\x05\x0a"]), timeout=RPC_TIMEOUT))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "do not decode as oracle.api.v1.RefereeGameRequest" in info.value.details()


def test_decodable_raw_bytes_are_answered_as_usual(channel) -> None:
    call = channel.unary_unary(f"{SERVICE}/ListRuleSets", request_serializer=None, response_deserializer=None)
    answer = oracle_pb2.ListRuleSetsResponse.FromString(call(b"", timeout=RPC_TIMEOUT))
    assert "classic-4p" in [r.id for r in answer.rule_sets]


# --------------------------------------------------------------------------- finding 11: request paths


def test_a_problem_inherited_from_the_base_names_the_request_path(stub) -> None:
    # One pack leaves two black threes, fewer than the base's black_three_meld_max of 4 (set in classic-4p).
    request = oracle_pb2.GetRuleSetRequest(rule_set=inline(deck=ruleset_pb2.Deck(packs=1)))
    error = error_of(stub.GetRuleSet, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fields_of(error) == ["rule_set.inline.threes.black_three_meld_max"]
    assert "classic-4p.textproto" in error.details()  # where the inherited value comes from, in words


def test_a_problem_in_an_inline_note_names_its_own_index(stub) -> None:
    ref = inline(deck=ruleset_pb2.Deck(jokers=6))
    ref.inline.rules.add(field="no_such.field", text="x", cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="x")])
    error = error_of(stub.GetRuleSet, oracle_pb2.GetRuleSetRequest(rule_set=ref))
    assert fields_of(error) == ["rule_set.inline.rules[1].field"]


def test_a_duplicate_card_added_to_a_hand_is_reported_at_the_hand(stub) -> None:
    state = dealt()
    state.seats[2].hand.append(state.stock[0])
    error = error_of(stub.CheckAction, check_request(state))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
    duplicate = [f for f in fields_of(error) if f != "state.seats[2].hand[11]"]  # a red three held is its own
    assert duplicate == ["state.seats[2].hand"], error.details()


def test_referee_game_first_dealer_minus_one_is_invalid_argument(stub) -> None:
    start = oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), first_dealer=-1)
    with pytest.raises(grpc.RpcError) as info:
        list(stub.RefereeGame(iter([oracle_pb2.RefereeGameRequest(start=start)]), timeout=RPC_TIMEOUT))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fields_of(info.value) == ["start.first_dealer"]
    assert "-1 is not a seat (0..3)" in info.value.details()


def test_referee_game_with_a_seat_as_first_dealer_starts(stub) -> None:
    start = oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), first_dealer=3)
    [answer] = list(stub.RefereeGame(iter([oracle_pb2.RefereeGameRequest(start=start)]), timeout=RPC_TIMEOUT))
    assert answer.verdict.legal and not answer.error


@pytest.mark.parametrize(
    ("action", "path"),
    [
        (game_pb2.Action(discard=game_pb2.DiscardAction(card=0)), "action.discard.card"),  # type: ignore[arg-type]
        (
            game_pb2.Action(meld=game_pb2.MeldAction(groups=[game_pb2.MeldGroup(cards=[99, 10, 11])])),
            "action.meld.groups[0].cards[0]",
        ),  # type: ignore[list-item]
    ],
)
def test_a_card_that_is_none_in_an_action_a_view_does_not_judge_is_invalid_argument(stub, action, path) -> None:
    """An action of a seat the view does not show used to get INTERNAL (its notation failed on the card number): it
    is malformed whatever the hidden cards, so it gets INVALID_ARGUMENT at the card, as a judged action does."""
    from oracle.rules.view import view_of
    from oracle.service.convert_game import state_from_proto
    from oracle.service.convert_view import view_to_proto

    state = state_from_proto(dealt())
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"),
        view=view_to_proto(view_of(state, (state.seat_to_move + 1) % 4)),
        action=action,
    )
    error = error_of(stub.CheckAction, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert fields_of(error) == [path]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("state { phase: PHASE_DRAW } action { discard { } }", "action.discard.card"),
        ("state { phase: PHASE_PLAY } action { meld { groups { cards: 54 } } }", "action.meld.groups[0].cards[0]"),
    ],
)
def test_a_card_that_is_none_in_an_action_no_rule_set_judges_is_invalid_argument(stub, text, path) -> None:
    """Adjudicate on a position that fits no rule set used to answer INTERNAL for an action holding a card number
    that is no card (the long fuzz, seed 13): the action is malformed under every rule set, so INVALID_ARGUMENT."""
    from google.protobuf import text_format

    request = text_format.Parse(text, oracle_pb2.AdjudicateRequest())
    error = error_of(stub.Adjudicate, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert fields_of(error) == [path]
