"""Action notation: the strict parser (positions in the text, no empty group) and notation on the wire (CheckAction
and RefereeGame take action_text; verdicts carry the action's notation)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import make_state, rules
from record_states import RECORDS, record_states
from server_harness import RPC_TIMEOUT, oracle_stub

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc
from oracle.games.movegen import legal_actions
from oracle.model.actions import format_action, parse_action
from oracle.model.cards import NotationError
from oracle.model.errors import InvalidInputError
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_to_proto

# --- the parser ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "says"),
    [
        ("meld KH KD KS meld", 15, "unexpected 'meld'"),
        ("take-pile with 9H 9D meld", 26, "take-pile meld group 1 needs at least one card, the text ends"),
        ("take-pile meld", 15, "needs at least one card"),
        ("meld KH KD KS,", 15, "meld group 2 needs at least one card"),
        ("meld KH KD KS, , 7S 7D 7C", 16, "meld group 2 needs at least one card, got ','"),
        ("meld", 5, "meld group 1 needs at least one card"),
        ("meld K:", 8, "meld group 1 needs at least one card"),
        ("take-pile with", 15, "'take-pile with' needs at least one card"),
        ("take-pile with meld AH AD AS", 16, "'take-pile with' needs at least one card, got 'meld'"),
        ("discard", 8, "'discard' needs a card"),
        ("discard 5C 6C", 12, "unexpected '6C'"),
        ("draw now", 6, "unexpected 'now'"),
        ("meld KH 10H", 9, "'10H' is not a card"),
        ("meld X: 2C", 6, "'X:' is not a rank"),
        ("answer maybe", 8, "'answer' takes 'yes' or 'no'"),
        ("  fly", 3, "unknown action 'fly'"),
        ("", 1, "empty action"),
        ("take-pile meld AH AD AS with 9H", 25, "got 'with'"),
    ],
)
def test_parse_errors_say_where(text: str, column: int, says: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.column == column
    assert str(info.value).startswith(f"at character {column}: ")
    assert says in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "pick-up-pile",
        "take-pile",
        "take-pile with 9H 9D",
        "take-pile with 9H 9D meld AH AD AS, K: JK",
        "take-pile meld AH AD AS",
        "meld KH KD KS, 7S 7D 2C",
        "meld K: 2C",
        "discard 5C",
        "ask",
        "answer yes",
        "answer no",
        "finish",
    ],
)
def test_every_form_round_trips(text: str) -> None:
    assert format_action(parse_action(text)) == text


def test_white_space_and_commas_are_free() -> None:
    assert parse_action("  meld KH  KD\tKS ,7S 7D 2C ") == parse_action("meld KH KD KS, 7S 7D 2C")
    assert parse_action("meld K:2C") == parse_action("meld K: 2C")


def test_every_legal_action_of_the_shipped_records_round_trips() -> None:
    seen = 0
    for path in RECORDS[::5]:
        rule_set, states = record_states(path)
        for state in states[::7]:
            for action in legal_actions(rules(rule_set), state):
                assert parse_action(format_action(action)) == action
                seen += 1
    assert seen > 1000


# --- CheckAction in process ----------------------------------------------------------------------------------------

API = OracleApi(default_rule_book())
STATE = make_state("classic-2p", hands=["9H 9D KS QS", "6C 7D"], melds=[["KC KD KH"], []], pile="5C 9S")


def _request(**kw: object) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"),
        state=state_to_proto(STATE),
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("text", ["take-pile with 9H 9D", "take-pile with 9H KS", "draw", "discard KS"])
def test_text_and_structured_actions_get_the_same_verdict(text: str) -> None:
    by_text = API.CheckAction(_request(action_text=text))
    structured = API.CheckAction(_request(action=action_to_proto(parse_action(text))))
    assert by_text == structured
    assert by_text.notation == text


def test_the_verdict_carries_the_canonical_notation() -> None:
    assert API.CheckAction(_request(action_text="  take-pile   with 9H 9D ")).notation == "take-pile with 9H 9D"


def test_a_parse_error_names_action_text_and_the_position() -> None:
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(_request(action_text="take-pile with 9H 9D meld"))
    [problem] = info.value.problems
    assert problem.field == "action_text"
    assert problem.description.startswith("at character 26: ")


def test_both_forms_at_once_are_refused() -> None:
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(_request(action_text="draw", action=action_to_proto(parse_action("draw"))))
    assert [p.field for p in info.value.problems] == ["action_text"]
    assert "not both" in info.value.problems[0].description


def test_neither_form_is_refused() -> None:
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(_request())
    assert [p.field for p in info.value.problems] == ["action.kind"]


# --- over gRPC ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    with oracle_stub() as connected:
        yield connected


def test_check_action_parse_error_over_grpc(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(_request(action_text="meld KH KD KS meld"), timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    detail = error_details_pb2.BadRequest()
    rpc_status.from_call(info.value).details[0].Unpack(detail)
    [violation] = detail.field_violations
    assert violation.field == "action_text"
    assert violation.description.startswith("at character 15: unexpected 'meld'")


def test_referee_game_takes_notation_and_answers_with_it(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    requests = [
        oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), full_state=True)
        ),
        oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=7)),
        oracle_pb2.RefereeGameRequest(action_text="draw"),
        oracle_pb2.RefereeGameRequest(action_text="draw"),
    ]
    answers = list(stub.RefereeGame(iter(requests), timeout=RPC_TIMEOUT))
    assert len(answers) == 4
    drew, again = answers[2], answers[3]
    assert drew.verdict.legal and drew.verdict.notation == "draw"
    assert drew.state.phase == game_pb2.PHASE_PLAY
    assert not again.verdict.legal and again.verdict.notation == "draw"
    assert [v.code for v in again.verdict.violations] == ["WRONG_PHASE"]


def test_referee_game_parse_error_ends_the_stream_naming_the_field(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    requests = [
        oracle_pb2.RefereeGameRequest(start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"))),
        oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=7)),
        oracle_pb2.RefereeGameRequest(action_text="discard"),
    ]
    call = stub.RefereeGame(iter(requests), timeout=RPC_TIMEOUT)
    with pytest.raises(grpc.RpcError) as info:
        list(call)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    detail = error_details_pb2.BadRequest()
    rpc_status.from_call(info.value).details[0].Unpack(detail)
    assert [v.field for v in detail.field_violations] == ["action_text"]
    assert "at character 8: 'discard' needs a card" in detail.field_violations[0].description


def test_the_cli_check_json_carries_the_notation() -> None:
    from click.testing import CliRunner

    from oracle.cli.main import main

    state = str(Path(__file__).resolve().parent.parent / "examples" / "frozen-pile-2p.json")
    args = ["check", "--json", "--state", state, "--action", "take-pile  with 9H 9D"]
    result = CliRunner().invoke(main, args, prog_name="canasta-oracle")
    assert json.loads(result.stdout)["notation"] == "take-pile with 9H 9D"
