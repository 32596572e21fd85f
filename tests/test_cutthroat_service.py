"""Cutthroat Canasta over a real server: side_of_seat and SidesFormed on every path in and out (gRPC and Connect).

The positions come from simulated cutthroat-3p hands (tests/cutthroat_states.py, fixed seeds). The server runs
in-process (tests/server_harness.py) with its HTTP port open; the tests call it with the synchronous gRPC stubs
and with plain HTTP/JSON posts, as a client would.
"""

from __future__ import annotations

import base64
import json
from typing import Any, TypeVar

import grpc
import pytest
from cutthroat_states import Hand, cutthroat_hands
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from server_harness import RPC_TIMEOUT, ServerThread, error_details, post_json, refereed_hand
from server_harness import module_server as module_server  # the `server` fixture
from server_harness import module_stub as module_stub  # the `stub` fixture

from oracle.api.v1 import cards_pb2, game_pb2, notation_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2, scoring_pb2
from oracle.games.movegen import legal_actions
from oracle.model.actions import Meld
from oracle.model.cards import format_cards
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState
from oracle.rules.referee import check_action
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_from_proto, action_to_proto, state_from_notation, state_to_proto
from oracle.service.convert_table import table_from_notation
from oracle.service.convert_view import view_to_proto
from oracle.service.limits import DEFAULT_LIMITS
from oracle.service.record_json import record_from_json

RULE_SET = "cutthroat-3p"
REF = oracle_pb2.RuleSetRef(id=RULE_SET)
M = TypeVar("M", bound=Message)


def _hand(lone: tuple[int, ...]) -> Hand:
    """The first simulated cutthroat-3p hand whose sides formed as `lone` (its side_of_seat at the end)."""
    return next(h for h in cutthroat_hands() if h.rule_set_id == RULE_SET and h.states[-1].side_of_seat == lone)


def _forming() -> tuple[GameState, game_pb2.Action]:
    """Seat 0 takes the pile and so plays alone: seats 1 and 2 become partners, their melds on entry 1."""
    hand = _hand((0, 1, 1))
    return hand.states[hand.formed_at], action_to_proto(hand.actions[hand.formed_at])


def _partner_meld() -> tuple[GameState, game_pb2.Action]:
    """After sides formed as [0, 1, 1]: seat 2 (who plays for entry 1, the partnership's) lays a new meld of three
    cards: no minimum, the partnership having melded; without side_of_seat the same cards would be its own entry's
    first meld."""
    hand = _hand((0, 1, 1))
    for state, action in zip(hand.states, hand.actions, strict=False):
        if state.side_of_seat and state.seat_to_move == 2 and type(action) is Meld and len(action.groups[0].cards) == 3:
            return state, action_to_proto(action)
    raise AssertionError("no meld of three cards by seat 2 after sides formed")


def _check(state: GameState, action: game_pb2.Action) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(rule_set=REF, state=state_to_proto(state), action=action)


def _refused(
    call: Any, request: Any, code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT
) -> list[tuple[str, str]]:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=RPC_TIMEOUT)
    found = error_details(info.value, code)
    assert found, info.value
    return found


INCONSISTENT = grpc.StatusCode.FAILED_PRECONDITION


# --------------------------------------------------------------------------- gRPC


def test_a_take_that_forms_sides_answers_sides_formed_and_a_next_state_with_side_of_seat(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state, action = _forming()
    assert not state.side_of_seat and state.seat_to_move == 0
    response = stub.CheckAction(_check(state, action), timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    kinds = [event.WhichOneof("kind") for event in response.events]
    assert kinds.index("pile_taken") + 1 == kinds.index("sides_formed")
    formed = response.events[kinds.index("sides_formed")].sides_formed
    assert formed.lone_seat == 0 and list(formed.partners) == [1, 2]
    assert list(response.next_state.side_of_seat) == [0, 1, 1]
    # the partnership's melds, put together on entry 1; entry 2's emptied; each seat's red threes where they were
    assert list(formed.melds) == list(response.next_state.sides[1].melds)
    assert not response.next_state.sides[2].melds
    for seat in (1, 2):
        assert list(response.next_state.sides[seat].red_threes) == list(state.sides[seat].red_threes)


def test_a_formed_state_is_judged_with_its_sides(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state, action = _partner_meld()
    request = _check(state, action)
    response = stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    assert list(response.next_state.side_of_seat) == [0, 1, 1]
    melds = [list(m.cards) for m in response.next_state.sides[1].melds]
    assert len(melds) == len(state.sides[1].melds) + 1 and sorted(action.meld.groups[0].cards) in map(sorted, melds)
    assert not response.next_state.sides[2].melds  # seat 2's own entry holds no melds
    judged = check_action(default_rule_book().get(RULE_SET).rules, state, action_from_proto(action)).next_state
    assert judged is not None and response.next_state == state_to_proto(judged)  # the engine's own next state
    assert stub.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=REF, state=request.state)).valid
    # The same position read without side_of_seat: seat 2's own entry has no melds, though it melded this turn
    del request.state.side_of_seat[:]
    fields = [field for field, _ in _refused(stub.CheckAction, request, INCONSISTENT)]
    assert "state.seats[2].melded_before" in fields


def test_legal_actions_of_a_formed_state_are_the_partnerships(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state, action = _partner_meld()
    rules = default_rule_book().get(RULE_SET).rules
    request = oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(state))
    response = stub.ListLegalActions(request, timeout=RPC_TIMEOUT)
    assert not response.truncated
    assert list(response.actions) == [action_to_proto(a) for a in legal_actions(rules, state)]
    assert action in response.actions  # three cards of a new rank: no minimum once the partnership has melded
    from_view = oracle_pb2.ListLegalActionsRequest(rule_set=REF, view=view_to_proto(view_of(state, 2)))
    assert stub.ListLegalActions(from_view, timeout=RPC_TIMEOUT).actions == response.actions


def test_a_players_view_with_side_of_seat_is_judged_and_answered_with_it(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state, action = _partner_meld()
    view = view_to_proto(view_of(state, 2))
    assert list(view.side_of_seat) == [0, 1, 1]
    response = stub.CheckAction(oracle_pb2.CheckActionRequest(rule_set=REF, view=view, action=action))
    assert response.legal, response.violations
    assert list(response.next_view.side_of_seat) == [0, 1, 1]
    assert len(response.next_view.sides[1].melds) == len(state.sides[1].melds) + 1
    assert not response.next_view.sides[2].melds


def _side(melds: list[str], red_threes: str, hand: str, went_out: int = 0) -> scoring_pb2.SideTable:
    def cards(text: str) -> list[Any]:
        return [cards_pb2.Card.Value(f"CARD_{token}") for token in text.split()]

    side = scoring_pb2.SideTable(red_threes=cards(red_threes), went_out=went_out)  # type: ignore[arg-type]
    for meld in melds:
        side.melds.add(cards=cards(meld))
    side.hands.add(cards=cards(hand))
    return side


def test_a_formed_table_scores_three_columns_partners_apart_by_their_red_threes(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    """Seat 0 alone; seats 1 and 2 partners (melds on entry 1), seat 1 went out. Partnership: 35 + 110 in melds,
    500 natural and 300 mixed canasta, 100 for going out, -15 in seat 2's hand = 1,030; seat 1 adds its one red
    three (100), seat 2 its two (200). Seat 0: 30 melded + 100 red three - 10 in hand = 120 (classic values:
    4P-CLASSIC card values, bonuses and red threes, which cutthroat-3p keeps)."""
    table = scoring_pb2.HandTable(
        sides=[
            _side(["KH KD KS"], "3D", "4C 6C"),
            _side(["7H 7D 7S 7C 7H 7D 7S", "8H 8D 8S 8C 8H 8D JK"], "3H", "", scoring_pb2.WENT_OUT_NORMAL),
            _side([], "3D 3H", "5C 9D"),
        ],
        side_of_seat=[0, 1, 1],
    )
    response = stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=REF, table=table), timeout=RPC_TIMEOUT)
    assert [side.total for side in response.sides] == [120, 1130, 1230]
    red = [
        [line.points for line in side.lines if line.item == scoring_pb2.SCORE_ITEM_RED_THREES]
        for side in response.sides
    ]
    assert red == [[100], [100], [200]]
    # the same cards as three lone hands (the pile never taken, the stock run out, nobody out): seat 2 has red
    # threes and no meld; with a player gone out and no sides formed the table is refused (a goer plays alone)
    del table.side_of_seat[:]
    refused = _refused(stub.ScoreHand, oracle_pb2.ScoreHandRequest(rule_set=REF, table=table))
    assert [field for field, _ in refused] == ["table.side_of_seat"]
    table.sides[1].went_out = scoring_pb2.WENT_OUT_UNSPECIFIED
    alone = stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=REF, table=table), timeout=RPC_TIMEOUT)
    assert [side.total for side in alone.sides][2] == -200 - 15


def test_a_side_of_seat_that_is_no_formation_is_named_at_state_side_of_seat(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    """Within the size limit, a side_of_seat the rule set cannot have (entries that are no formation, one entry per
    seat not kept) makes the state inconsistent: FAILED_PRECONDITION for a judgement, a problem of ValidateState,
    at state.side_of_seat (README: a state that contradicts itself is FAILED_PRECONDITION over gRPC)."""
    state, action = _partner_meld()
    for bad, says in (
        ([0, 2, 1], "[0, 2, 1] is no formation"),
        ([0, 1, -1], "is no formation"),
        ([0, 1], "has 2 entries; rule set 'cutthroat-3p' has 3 seats"),
        ([0, 1, 1, 1], "has 4 entries"),
    ):
        request = _check(state, action)
        del request.state.side_of_seat[:]
        request.state.side_of_seat.extend(bad)
        found = dict(_refused(stub.CheckAction, request, INCONSISTENT))
        assert says in found["state.side_of_seat"], found
        validated = stub.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=REF, state=request.state))
        assert not validated.valid and "state.side_of_seat" in [p.field for p in validated.problems]
    view = oracle_pb2.CheckActionRequest(rule_set=REF, view=view_to_proto(view_of(state, 2)), action=action)
    view.view.side_of_seat[1] = 2
    assert "is no formation" in dict(_refused(stub.CheckAction, view, INCONSISTENT))["view.side_of_seat"]
    dealt = stub.DealHand(oracle_pb2.DealHandRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), seed=5)).state
    dealt.side_of_seat.extend([0, 1, 0, 1])  # classic-4p fixes sides by seat: side_of_seat stays empty
    validated = stub.ValidateState(
        oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=dealt)
    )
    assert [(p.field, "fixes sides by seat" in p.description) for p in validated.problems] == [
        ("state.side_of_seat", True)
    ]


def test_a_long_side_of_seat_is_refused_by_its_length_before_any_judging(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    limit = DEFAULT_LIMITS.max_seats
    state, action = _partner_meld()
    request = _check(state, action)
    request.state.side_of_seat.extend([1] * 1_000_000)
    assert _refused(stub.CheckAction, request) == [
        ("state.side_of_seat", f"has 1000003 entries; the limit is {limit} (one per seat at most)")
    ]
    for call, message in (
        (stub.ListLegalActions, oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=request.state)),
        (stub.ValidateState, oracle_pb2.ValidateStateRequest(rule_set=REF, state=request.state)),
        (stub.Adjudicate, oracle_pb2.AdjudicateRequest(state=request.state, action=action, rule_sets=[REF])),
    ):
        assert [field for field, _ in _refused(call, message)] == ["state.side_of_seat"]
    view = view_to_proto(view_of(state, 2))
    view.side_of_seat.extend([1] * (limit + 1 - 3))
    found = _refused(stub.CheckAction, oracle_pb2.CheckActionRequest(rule_set=REF, view=view, action=action))
    assert found == [("view.side_of_seat", f"has {limit + 1} entries; the limit is {limit} (one per seat at most)")]
    table = scoring_pb2.HandTable(sides=[_side([], "", "4C")] * 3, side_of_seat=[0] * (limit + 1))
    found = _refused(stub.ScoreHand, oracle_pb2.ScoreHandRequest(rule_set=REF, table=table))
    assert [field for field, _ in found] == ["table.side_of_seat"]


@pytest.mark.parametrize("given", ["state", "view"])
def test_ten_million_side_of_seat_entries_are_refused_in_process_by_their_length(given: str) -> None:
    state, action = _partner_meld()
    if given == "state":
        request = _check(state, action)
    else:
        request = oracle_pb2.CheckActionRequest(rule_set=REF, view=view_to_proto(view_of(state, 2)), action=action)
    getattr(request, given).side_of_seat.extend([1] * 10_000_000)
    with pytest.raises(InvalidInputError) as info:
        OracleApi(default_rule_book()).CheckAction(request)
    assert [(p.field, p.description) for p in info.value.problems] == [
        (
            f"{given}.side_of_seat",
            f"has 10000003 entries; the limit is {DEFAULT_LIMITS.max_seats} (one per seat at most)",
        )
    ]


def test_side_of_seat_in_notation_is_read_and_an_explicit_deals_is_bounded() -> None:
    """A state or table in notation (conformance cases, the CLI, a record's explicit deal) keeps its side_of_seat;
    in a record it counts against the seat limit before the record is read."""
    rules = default_rule_book().get(RULE_SET).rules
    state = state_from_notation(
        notation_pb2.GameStateNotation(phase=game_pb2.PHASE_DRAW, side_of_seat=[0, 0, 2]), rules
    )
    assert state.side_of_seat == (0, 0, 2)
    table = table_from_notation(notation_pb2.HandTableNotation(side_of_seat=[0, 1, 1]))
    assert table.side_of_seat == (0, 1, 1)
    read = record_from_json({"ruleSetId": RULE_SET, "hands": [{"start": {"sideOfSeat": [0, 1, 1], "seats": [{}]}}]})
    assert list(read.hands[0].start.side_of_seat) == [0, 1, 1]  # a record's JSON (an explicit deal: ParseDict)
    limit = DEFAULT_LIMITS.max_seats
    record = record_pb2.GameRecord(rule_set_id=RULE_SET)
    record.hands.add().start.side_of_seat.extend([1] * (limit + 1))
    with pytest.raises(InvalidInputError) as info:
        OracleApi(default_rule_book()).ReplayGame(oracle_pb2.ReplayGameRequest(record=record))
    assert [(p.field, p.description) for p in info.value.problems] == [
        ("record.hands[0].start.side_of_seat", f"has {limit + 1} entries; the limit is {limit} (one per seat at most)")
    ]


def test_a_formed_position_asked_about_again_is_read_from_memory() -> None:
    """ListLegalActions then CheckAction on one formed position: its bytes are read once (the wire reader takes
    side_of_seat, so the state is remembered like any other), and the answer is a fresh read's."""
    state, action = _partner_meld()
    api = OracleApi(default_rule_book())
    request = _check(state, action)
    api.ListLegalActions(oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=request.state))
    assert (len(api.states), api.states.hits) == (1, 0)
    answer = api.CheckAction(request)
    assert api.states.hits == 1
    assert answer == OracleApi(default_rule_book()).CheckAction(request)


def _notation(state: GameState) -> notation_pb2.GameStateNotation:
    """A state in card notation (a record's explicit deal), side_of_seat included."""
    written = state_to_proto(state)
    out = notation_pb2.GameStateNotation(
        stock=format_cards(state.stock),
        discard_pile=format_cards(state.discard_pile),
        pile_upcards=state.pile_upcards,
        seat_to_move=state.seat_to_move,
        phase=written.phase,
        turn=written.turn,
        side_of_seat=state.side_of_seat,
    )
    for seat in state.seats:
        out.seats.add(hand=format_cards(seat.hand), melded_before=seat.melded_before)
    for side in state.sides:
        out.sides.add(
            melds=[format_cards(m) for m in side.melds],
            red_threes=format_cards(side.red_threes),
            running_total=side.running_total,
        )
    return out


def test_a_record_that_starts_after_sides_formed_replays_with_its_sides(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    hand = _hand((0, 1, 1))
    at = hand.formed_at + 1
    record = record_pb2.GameRecord(rule_set_id=RULE_SET)
    entry = record.hands.add(actions=[action_to_proto(a) for a in hand.actions[at:]])
    entry.start.CopyFrom(_notation(hand.states[at]))
    report = stub.ReplayGame(oracle_pb2.ReplayGameRequest(record=record), timeout=RPC_TIMEOUT).report
    assert report.ok and report.actions_judged == len(hand.actions) - at, report
    assert not [e for a in report.actions for e in a.events if e.HasField("sides_formed")]  # formed once, before
    entry.start.ClearField("side_of_seat")  # the same start as if sides had not formed: seat 2's melds are gone
    found = _refused(stub.ReplayGame, oracle_pb2.ReplayGameRequest(record=record))
    assert ("record.hands[0].start.seats[2].melded_before", "the player melded earlier but the side has no melds") in (
        found
    )


@pytest.mark.parametrize(
    ("rule_set_id", "went_out", "side_of_seat"),
    [
        ("classic-2p", [0], [0, 0]),
        ("cutthroat-3p", [1, 0], [0, 5, 1]),
        ("cutthroat-3p", [1, 0], [0, 1, 1]),
        ("classic-2p", [0, 0, 1], [0]),  # more sides than the rule set's, and fewer side_of_seat entries
    ],
)
def test_a_table_with_side_of_seat_and_the_wrong_number_of_sides_is_refused_naming_its_sides(
    rule_set_id: str, went_out: list[int], side_of_seat: list[int]
) -> None:
    """As the same table without side_of_seat is: INVALID_ARGUMENT at table.sides (one side per seat)."""
    table = scoring_pb2.HandTable(side_of_seat=side_of_seat)
    for out in went_out:
        table.sides.add().CopyFrom(_side([], "", "" if out else "4C", out))
    request = oracle_pb2.ScoreHandRequest(rule_set=oracle_pb2.RuleSetRef(id=rule_set_id), table=table)
    with pytest.raises(InvalidInputError) as info:
        OracleApi(default_rule_book()).ScoreHand(request)
    assert "table.sides" in [p.field for p in info.value.problems]


def test_a_refereed_cutthroat_game_reports_sides_forming_and_the_formed_state(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    hand = _hand((0, 1, 1))
    answers = refereed_hand(stub, REF, hand.first_dealer, hand.seed, hand.actions[: hand.formed_at + 2])
    assert all(answer.verdict.legal and not answer.error for answer in answers), answers[-1]
    forming = answers[2 + hand.formed_at]
    assert [e.sides_formed.lone_seat for e in forming.verdict.events if e.HasField("sides_formed")] == [0]
    assert list(forming.state.side_of_seat) == [0, 1, 1]
    assert answers[-1].state == state_to_proto(hand.states[hand.formed_at + 2])


# --------------------------------------------------------------------------- Connect (HTTP/JSON)


def test_over_http_json_a_forming_take_answers_as_over_grpc_and_a_bad_side_of_seat_names_its_field(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub
) -> None:
    state, action = _forming()
    request = _check(state, action)
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(request).encode())
    assert status == 200
    assert answer["nextState"]["sideOfSeat"] == [0, 1, 1]
    assert [e["sidesFormed"]["partners"] for e in answer["events"] if "sidesFormed" in e] == [[1, 2]]
    assert answer == json.loads(json_format.MessageToJson(stub.CheckAction(request, timeout=RPC_TIMEOUT)))
    body = json.loads(json_format.MessageToJson(_check(*_partner_meld())))
    body["state"]["sideOfSeat"] = [1] * (DEFAULT_LIMITS.max_seats + 1)
    status, answer = post_json(server, "CheckAction", json.dumps(body).encode())
    assert (status, answer["code"]) == (400, "invalid_argument")
    bad = _connect_detail(answer, "google.rpc.BadRequest", error_details_pb2.BadRequest)
    assert [v.field for v in bad.field_violations] == ["state.side_of_seat"]
    body["state"]["sideOfSeat"] = [0, 2, 1]
    status, answer = post_json(server, "CheckAction", json.dumps(body).encode())
    assert (status, answer["code"]) == (400, "failed_precondition")
    failed = _connect_detail(answer, "google.rpc.PreconditionFailure", error_details_pb2.PreconditionFailure)
    assert "state.side_of_seat" in [v.subject for v in failed.violations]


def _connect_detail(answer: dict[str, Any], name: str, kind: type[M]) -> M:
    """The one detail of type `name` of a Connect error (base64 without padding, as Connect sends it)."""
    (detail,) = [d for d in answer["details"] if d["type"] == name]
    value = detail["value"]
    return kind.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
