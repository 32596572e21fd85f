"""Bounded answers (issue 12, finding 4): every error status fits a default client's trailers, lists at most 50
problems (identical ones grouped) and says how many it left out; callers' ids are cut in messages; verdicts and
ValidateState answers are bounded too."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status
from server_harness import RPC_TIMEOUT, ServerThread

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2, ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.model.errors import FieldProblem
from oracle.rules.violations import Violation
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi, bad_request_status
from oracle.service.bounded import bounded_violations, group_problems, listed_problems, shorten, trailer_bytes
from oracle.service.convert_game import state_to_proto
from oracle.service.limits import DEFAULT_LIMITS

DEFAULT_CLIENT_TRAILERS = 8 * 1024  # half of a default client's 16 KiB of metadata


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    server = ServerThread(default_rule_book())
    channel = grpc.insecure_channel(server.address)
    try:
        yield oracle_pb2_grpc.OracleServiceStub(channel)
    finally:
        channel.close()
        server.close()


def error_of(call: grpc.UnaryUnaryMultiCallable, request: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=RPC_TIMEOUT)
    return info.value


def status_of_error(error: grpc.RpcError) -> status_pb2.Status:
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status in the trailers"
    return status


def violations_of(status: status_pb2.Status) -> list[error_details_pb2.BadRequest.FieldViolation]:
    bad = error_details_pb2.BadRequest()
    [detail] = [d for d in status.details if d.Is(error_details_pb2.BadRequest.DESCRIPTOR)]
    detail.Unpack(bad)
    return list(bad.field_violations)


# --------------------------------------------------------------------------- over the wire


def test_thousands_of_problems_fit_the_trailers_and_say_how_many_are_left_out(stub) -> None:
    record = record_pb2.GameRecord(rule_set_id="classic-2p")
    for _ in range(4):  # 4 x 5,000 actions with no kind: 20,000 problems, each at its own path
        record.hands.add(seed=1, actions=[game_pb2.Action()] * DEFAULT_LIMITS.max_hand_actions)
    error = error_of(stub.ReplayGame, oracle_pb2.ReplayGameRequest(record=record))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT  # not RESOURCE_EXHAUSTED: the client read the trailers
    status = status_of_error(error)
    assert trailer_bytes(status) <= DEFAULT_LIMITS.max_status_bytes < DEFAULT_CLIENT_TRAILERS
    listed = violations_of(status)
    assert 1 <= len(listed) <= DEFAULT_LIMITS.max_problems
    assert listed[0].field == "record.hands[0].actions[0].kind"
    assert error.details().endswith(f"(and {20_000 - len(listed)} more problems not listed)")


def test_an_inline_rule_set_without_extends_is_readable_invalid_argument(stub) -> None:
    request = oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(inline=ruleset_pb2.RuleSet(id="mine")))
    error = error_of(stub.GetRuleSet, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = status_of_error(error)
    assert trailer_bytes(status) <= DEFAULT_LIMITS.max_status_bytes
    assert violations_of(status)[0].field == "rule_set.inline.title"
    assert "more problems not listed" in error.details()


def test_not_found_cuts_a_long_id(stub) -> None:
    long_id = "a" * 100 + "z" * 28  # 128 characters: within the id limit, so it is looked up
    request = oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id=long_id))
    error = error_of(stub.GetRuleSet, request)
    assert error.code() == grpc.StatusCode.NOT_FOUND
    cut = "a" * (DEFAULT_LIMITS.max_value_chars - 3) + "..."
    assert f"unknown rule set '{cut}'" in error.details()
    assert "z" not in error.details().split(";")[0]
    info = error_details_pb2.ResourceInfo()
    [detail] = status_of_error(error).details
    detail.Unpack(info)
    assert info.resource_name == cut


def test_four_million_red_threes_get_a_small_invalid_argument(stub) -> None:
    rules = default_rule_book().get("classic-4p").rules
    state = state_to_proto(deal(rules, deck_order(rules, DeckSource(seed=1)), dealer=0))
    state.seats[0].hand.extend([6] * 4_000_000)
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state, action=game_pb2.Action(draw=game_pb2.DrawAction())
    )
    error = error_of(stub.CheckAction, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    [violation] = violations_of(status_of_error(error))
    assert violation.field == "state.seats[0].hand"
    assert violation.description.startswith("has 4000011 cards; the limit is 108")
    assert trailer_bytes(status_of_error(error)) < 1024


# --------------------------------------------------------------------------- grouping and capping


def test_identical_problems_are_grouped_with_their_count() -> None:
    problems = [FieldProblem(f"state.seats[0].hand[{k}]", "3D is a red three") for k in range(4000)]
    problems += [FieldProblem("state.stock", "too long")] * 3
    groups = group_problems(problems)
    assert [(g.first.field, g.count) for g in groups] == [("state.seats[0].hand[0]", 4000), ("state.stock", 3)]
    assert groups[0].problem().description == "3D is a red three (and 3999 more like it in state.seats[0].hand)"
    assert groups[1].problem().description == "too long (3 times)"


def test_a_status_lists_at_most_the_limit_and_counts_the_rest() -> None:
    problems = [FieldProblem(f"a{k}", "x") for k in range(300)]
    status = bad_request_status(problems)
    listed = violations_of(status)
    assert len(listed) <= DEFAULT_LIMITS.max_problems
    assert [v.field for v in listed] == [f"a{k}" for k in range(len(listed))]
    assert status.message.endswith(f"(and {300 - len(listed)} more problems not listed)")
    few = bad_request_status(problems[:3])
    assert [v.field for v in violations_of(few)] == ["a0", "a1", "a2"]
    assert few.message == "a0: x; a1: x; a2: x"


def test_long_descriptions_and_non_ascii_text_still_fit() -> None:
    problems = [FieldProblem(f"rule_set.inline.rules[{k}].text", "é" * 3000) for k in range(60)]
    status = bad_request_status(problems)
    assert trailer_bytes(status) <= DEFAULT_LIMITS.max_status_bytes
    assert len(violations_of(status)) >= 1


def test_validate_state_answers_are_bounded() -> None:
    rules = default_rule_book().get("classic-4p").rules
    state = state_to_proto(deal(rules, deck_order(rules, DeckSource(seed=2)), dealer=0))
    for k in range(len(state.stock)):  # a different bad number for each card: no two problems alike
        state.stock[k] = 100 + k  # type: ignore[call-overload]
    response = OracleApi(default_rule_book()).ValidateState(
        oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state)
    )
    assert not response.valid
    assert len(response.problems) == DEFAULT_LIMITS.max_problems
    last = response.problems[-1]
    assert (last.field, last.description.startswith("and ")) == ("state", True)
    assert last.description.endswith("more problems not listed")


def test_listed_problems_below_the_limit_are_unchanged() -> None:
    problems = [FieldProblem("state.stock", "a"), FieldProblem("state.turn", "b")]
    assert listed_problems(problems, 50) == problems


def test_a_verdict_lists_at_most_the_limit() -> None:
    many = [Violation("MELD_TOO_SMALL", "melds.min_size", f"meld {k} is too small") for k in range(120)]  # type: ignore[arg-type]
    many += [Violation(f"CODE_{k}", "turn", "other") for k in range(60)]  # type: ignore[arg-type]
    bounded = bounded_violations(many, 50)
    assert len(bounded) == 50
    assert bounded[0].explanation == "meld 0 is too small (and 119 more like it)"
    assert bounded[-1].explanation == "other (and 11 more not listed)"
    assert bounded_violations(many[:50], 50) == many[:50]


def test_shorten_keeps_short_text_and_cuts_long_text() -> None:
    assert shorten("classic-4p") == "classic-4p"
    assert shorten("x" * 200) == "x" * 61 + "..."
    assert len(shorten("x" * 200, 10)) == 10
