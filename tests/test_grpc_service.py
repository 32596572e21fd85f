"""The gRPC server over the wire: health, reflection, every RPC, errors with BadRequest paths, graceful stop.

The real server (oracle.service.server.start_server) runs in-process on 127.0.0.1, port 0, in a background thread with
its own asyncio loop; the tests talk to it with the synchronous grpc client stubs.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status
from server_harness import RPC_TIMEOUT, ServerThread

import oracle.service.server
from oracle.api.v1 import cards_pb2, oracle_pb2, oracle_pb2_grpc, scoring_pb2
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import ServeConfig
from oracle.service.server import start_server
from oracle.service.servicer import OracleServicer

SERVICE = "oracle.api.v1.OracleService"
HEALTH = "grpc.health.v1.Health"
Item = scoring_pb2.ScoreItem


# --------------------------------------------------------------------------- server harness


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return default_rule_book()


@pytest.fixture(scope="module")
def server(book: RuleBook) -> Iterator[ServerThread]:
    running = ServerThread(book)
    try:
        yield running
    finally:
        running.close()


def _channel(address: str) -> grpc.Channel:
    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
    return channel


@pytest.fixture(scope="module")
def channel(server: ServerThread) -> Iterator[grpc.Channel]:
    channel = _channel(server.address)
    try:
        yield channel
    finally:
        channel.close()


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> oracle_pb2_grpc.OracleServiceStub:
    return oracle_pb2_grpc.OracleServiceStub(channel)


@pytest.fixture(scope="module")
def health(channel: grpc.Channel) -> health_pb2_grpc.HealthStub:
    return health_pb2_grpc.HealthStub(channel)


# --------------------------------------------------------------------------- request helpers


def cards(text: str) -> list[int]:
    """Card numbers of a notation card list, looked up in the proto enum (CARD_<token>)."""
    return [cards_pb2.Card.Value(f"CARD_{token}") for token in text.split()]


def side(
    melds: list[list[int]] | None = None,
    hands: list[list[int]] | None = None,
    red_threes: list[int] | None = None,
    went_out: int = scoring_pb2.WENT_OUT_UNSPECIFIED,
) -> scoring_pb2.SideTable:
    message = scoring_pb2.SideTable(red_threes=red_threes or [], went_out=went_out)
    for meld in melds or []:
        message.melds.add(cards=meld)
    for hand in hands if hands is not None else [[]]:
        message.hands.add(cards=hand)
    return message


def score_request(rule_set_id: str, *sides: scoring_pb2.SideTable) -> oracle_pb2.ScoreHandRequest:
    return oracle_pb2.ScoreHandRequest(
        rule_set=oracle_pb2.RuleSetRef(id=rule_set_id), table=scoring_pb2.HandTable(sides=list(sides))
    )


def seed_001_request() -> oracle_pb2.ScoreHandRequest:
    """The worked hand of seed 001 (examples/seed-001-worked-hand.json), classic-2p."""
    you = side(
        melds=[cards("KH KD KS KC KH KD KS"), cards("8H 8D 8S 8C 8H 2C JK"), cards("AH AD AS")],
        red_threes=cards("3H"),
        hands=[[]],
        went_out=scoring_pb2.WENT_OUT_NORMAL,
    )
    computer = side(melds=[cards("9H 9D 9S 9C 2D"), cards("5H 5D 5S")], hands=[cards("JK QS 7C 4D")])
    return score_request("classic-2p", you, computer)


def two_player(
    side0: scoring_pb2.SideTable | None = None, side1: scoring_pb2.SideTable | None = None
) -> oracle_pb2.ScoreHandRequest:
    """A classic-2p table; sides default to a lone card in hand and nothing melded."""
    return score_request("classic-2p", side0 or side(hands=[cards("4C")]), side1 or side(hands=[cards("4D")]))


def call_error(call: Any, request: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=RPC_TIMEOUT)
    return info.value


def field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    """The google.rpc.BadRequest field violations carried by an INVALID_ARGUMENT error."""
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (error.code(), error.details())
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status in the trailing metadata"
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert status.message == error.details()
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            assert detail.Unpack(bad)
            found.append(bad)
    assert len(found) == 1, f"expected one BadRequest detail, got {status.details}"
    violations = [(v.field, v.description) for v in found[0].field_violations]
    assert violations, "BadRequest without field violations"
    assert all(description for _, description in violations), violations
    return violations


def violation_fields(error: grpc.RpcError) -> list[str]:
    return [field for field, _ in field_violations(error)]


# --------------------------------------------------------------------------- health and reflection


@pytest.mark.parametrize("service", ["", SERVICE])
def test_health_serving(health: health_pb2_grpc.HealthStub, service: str) -> None:
    response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=RPC_TIMEOUT)
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_health_unknown_service_is_not_found(health: health_pb2_grpc.HealthStub) -> None:
    error = call_error(health.Check, health_pb2.HealthCheckRequest(service="no.such.Service"))
    assert error.code() == grpc.StatusCode.NOT_FOUND


def _reflect(
    channel: grpc.Channel, *requests: reflection_pb2.ServerReflectionRequest
) -> list[reflection_pb2.ServerReflectionResponse]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    return list(stub.ServerReflectionInfo(iter(requests), timeout=RPC_TIMEOUT))


def test_reflection_lists_services(channel: grpc.Channel) -> None:
    [response] = _reflect(channel, reflection_pb2.ServerReflectionRequest(list_services=""))
    assert response.WhichOneof("message_response") == "list_services_response"
    names = {s.name for s in response.list_services_response.service}
    assert {SERVICE, HEALTH} <= names


def test_reflection_describes_oracle_service(channel: grpc.Channel) -> None:
    [response] = _reflect(channel, reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE))
    assert response.WhichOneof("message_response") == "file_descriptor_response"
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in response.file_descriptor_response.file_descriptor_proto
    ]
    oracle_file = next(f for f in files if f.name == "oracle/api/v1/oracle.proto")
    [service] = oracle_file.service
    assert service.name == "OracleService"
    assert {m.name for m in service.method} == {
        "ListRuleSets",
        "GetRuleSet",
        "ScoreHand",
        "GetMinimumInitialMeld",
        "ValidateState",
        "CheckAction",
        "DealHand",
        "ListLegalActions",
        "ReplayGame",
        "RefereeGame",
        "Adjudicate",
    }


# --------------------------------------------------------------------------- rule sets


def test_list_rule_sets(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    response = stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT)
    by_id = {r.id: r for r in response.rule_sets}
    ids = [r.id for r in response.rule_sets]
    assert ids == sorted(ids), "rule sets are ordered by id"
    assert {"classic-2p", "classic-4p"} <= set(by_id)
    assert (by_id["classic-2p"].seats, by_id["classic-2p"].side_size) == (2, 1)
    assert (by_id["classic-4p"].seats, by_id["classic-4p"].side_size) == (4, 2)
    for rule_set_id in ("classic-2p", "classic-4p"):
        assert by_id[rule_set_id].title
        assert by_id[rule_set_id].extends == ""


def _assert_every_optional_field_set(message: Any, path: str = "") -> None:
    for field in message.DESCRIPTOR.fields:
        here = f"{path}{field.name}"
        if field.message_type is not None and not field.is_repeated:
            assert message.HasField(field.name), f"{here} is not set"
            _assert_every_optional_field_set(getattr(message, field.name), here + ".")
        elif field.has_presence and not field.is_repeated:
            assert message.HasField(field.name), f"{here} is not set"


def test_get_rule_set_is_resolved(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"))
    response = stub.GetRuleSet(request, timeout=RPC_TIMEOUT)
    spec = response.rule_set
    assert list(response.lineage) == ["classic-4p"]
    assert spec.id == "classic-4p"
    assert spec.extends == ""
    assert spec.title and spec.description
    assert spec.going_out.canastas_required == 1
    assert (spec.players.seats, spec.players.side_size) == (4, 2)
    assert (spec.deck.packs, spec.deck.jokers) == (2, 4)
    assert [(row.from_score, row.minimum) for row in spec.initial_meld.thresholds] == [(0, 50), (1500, 90), (3000, 120)]
    for name in (
        "players",
        "deck",
        "deal",
        "turn",
        "card_values",
        "melds",
        "canastas",
        "initial_meld",
        "discard_pile",
        "threes",
        "going_out",
        "stock_exhaustion",
        "game",
    ):
        assert spec.HasField(name), name
    _assert_every_optional_field_set(spec)
    assert spec.rules, "a resolved rule set carries its rule notes"
    assert all(note.field and note.text and note.cite for note in spec.rules)


def test_get_rule_set_2p(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"))
    response = stub.GetRuleSet(request, timeout=RPC_TIMEOUT)
    assert response.rule_set.id == "classic-2p"
    assert response.lineage[0] == "classic-2p"
    assert response.rule_set.extends == ""
    assert response.rule_set.going_out.canastas_required == 2


# --------------------------------------------------------------------------- scoring


SEED_001_LINES = [
    [
        (Item.SCORE_ITEM_MELDED_CARDS, 70, "card_values", "KH KD KS KC KH KD KS"),
        (Item.SCORE_ITEM_MELDED_CARDS, 120, "card_values", "8H 8D 8S 8C 8H 2C JK"),
        (Item.SCORE_ITEM_MELDED_CARDS, 60, "card_values", "AH AD AS"),
        (Item.SCORE_ITEM_NATURAL_CANASTA, 500, "canastas.natural_bonus", "kings"),
        (Item.SCORE_ITEM_MIXED_CANASTA, 300, "canastas.mixed_bonus", "eights"),
        (Item.SCORE_ITEM_RED_THREES, 100, "threes.red_three_bonus", "3H"),
        (Item.SCORE_ITEM_GOING_OUT, 100, "going_out.bonus", ""),
        (Item.SCORE_ITEM_CARDS_IN_HAND, 0, "card_values", ""),
    ],
    [
        (Item.SCORE_ITEM_MELDED_CARDS, 60, "card_values", "9H 9D 9S 9C 2D"),
        (Item.SCORE_ITEM_MELDED_CARDS, 15, "card_values", "5H 5D 5S"),
        (Item.SCORE_ITEM_CARDS_IN_HAND, -70, "card_values", "JK QS 7C 4D"),
    ],
]


def test_score_seed_001_worked_hand(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    response = stub.ScoreHand(seed_001_request(), timeout=RPC_TIMEOUT)
    assert [s.total for s in response.sides] == [1250, 5]
    for score, expected in zip(response.sides, SEED_001_LINES, strict=True):
        got = [(line.item, line.points, line.field) for line in score.lines]
        assert got == [(item, points, field) for item, points, field, _ in expected]
        for line, (_, _, _, detail) in zip(score.lines, expected, strict=True):
            assert detail in line.detail, (line.detail, detail)
        assert sum(line.points for line in score.lines) == score.total


def test_score_four_player_concealed(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """classic-4p: two hands per side, all four red threes, going out concealed."""
    us = side(
        melds=[cards("KH KD KS KC KH KD KS")],
        red_threes=cards("3D 3D 3H 3H"),
        hands=[cards("4C"), []],
        went_out=scoring_pb2.WENT_OUT_CONCEALED,
    )
    them = side(hands=[cards("4D"), cards("4H")])
    response = stub.ScoreHand(score_request("classic-4p", us, them), timeout=RPC_TIMEOUT)
    items = [line.item for line in response.sides[0].lines]
    assert Item.SCORE_ITEM_NATURAL_CANASTA in items
    assert Item.SCORE_ITEM_GOING_OUT_CONCEALED in items
    assert Item.SCORE_ITEM_GOING_OUT not in items
    assert response.sides[1].total == -10
    assert [s.total for s in response.sides] == [sum(li.points for li in s.lines) for s in response.sides]


@pytest.mark.parametrize(
    ("running_total", "minimum", "from_score"),
    [
        (-5, 15, None),
        (0, 50, 0),
        (1495, 50, 0),
        (1500, 90, 1500),
        (2995, 90, 1500),
        (3000, 120, 3000),
    ],
)
def test_minimum_initial_meld_4p(
    stub: oracle_pb2_grpc.OracleServiceStub, running_total: int, minimum: int, from_score: int | None
) -> None:
    request = oracle_pb2.GetMinimumInitialMeldRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), running_total=running_total
    )
    response = stub.GetMinimumInitialMeld(request, timeout=RPC_TIMEOUT)
    assert response.minimum == minimum
    if from_score is None:
        assert not response.HasField("from_score")
    else:
        assert response.HasField("from_score")
        assert response.from_score == from_score


# --------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize("bad_card", [99, 0, 54, -1])
def test_unknown_card_number_in_meld(stub: oracle_pb2_grpc.OracleServiceStub, bad_card: int) -> None:
    request = two_player(side(melds=[[*cards("KH KD"), bad_card]], hands=[cards("4C")]))
    error = call_error(stub.ScoreHand, request)
    assert violation_fields(error) == ["table.sides[0].melds[0][2]"]
    assert str(bad_card) in field_violations(error)[0][1]


def test_unknown_card_number_in_hand(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = two_player(side1=side(hands=[[*cards("4D 4H"), 99]]))
    error = call_error(stub.ScoreHand, request)
    assert violation_fields(error) == ["table.sides[1].hands[0][2]"]


def test_third_king_of_hearts_in_two_deck_game(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    kh = cards_pb2.CARD_KH
    assert kh == 47
    request = two_player(
        side(melds=[cards("KH KH KS")], hands=[cards("4C")]), side(melds=[cards("KH KD KC")], hands=[cards("4D")])
    )
    error = call_error(stub.ScoreHand, request)
    violations = field_violations(error)
    assert len(violations) == 1, violations
    [(field, description)] = violations
    assert field in ("table.sides[0].melds[0]", "table.sides[1].melds[0]")
    assert "KH" in description


def test_third_king_of_hearts_in_a_hand(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = two_player(side(melds=[cards("KH KH KS")], hands=[cards("4C")]), side(hands=[cards("4D KH")]))
    [(field, description)] = field_violations(call_error(stub.ScoreHand, request))
    assert field in ("table.sides[0].melds[0]", "table.sides[1].hands[0]")
    assert "KH" in description


@pytest.mark.parametrize(("side_index", "meld_index"), [(0, 0), (1, 1)])
def test_meld_of_mixed_ranks(stub: oracle_pb2_grpc.OracleServiceStub, side_index: int, meld_index: int) -> None:
    melds = [cards("AH AD AS")] * meld_index + [cards("QH QD KC")]
    sides = [side(hands=[cards("4C")]), side(hands=[cards("4D")])]
    sides[side_index] = side(melds=melds, hands=[cards("4S")])
    error = call_error(stub.ScoreHand, two_player(*sides))
    assert violation_fields(error) == [f"table.sides[{side_index}].melds[{meld_index}]"]


@pytest.mark.parametrize("meld", ["AH AD 3H", "3D 3H 3D", "3D AH AS AD"])
def test_red_three_in_meld(stub: oracle_pb2_grpc.OracleServiceStub, meld: str) -> None:
    request = two_player(side(melds=[cards("KH KD KS"), cards(meld)], hands=[cards("4C")]))
    error = call_error(stub.ScoreHand, request)
    violations = field_violations(error)
    assert [f for f, _ in violations] == ["table.sides[0].melds[1]"]
    assert "red three" in violations[0][1]


def test_every_problem_is_reported(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = two_player(
        side(melds=[cards("AH AD 3H"), [*cards("KH KD"), 99]], hands=[cards("4C")]),
        side(melds=[cards("QH QD KC")], hands=[cards("4D")]),
    )
    fields = violation_fields(call_error(stub.ScoreHand, request))
    assert set(fields) == {"table.sides[0].melds[0]", "table.sides[0].melds[1][2]", "table.sides[1].melds[0]"}


@pytest.mark.parametrize(
    ("sides", "field"),
    [
        (0, "table.sides"),
        (3, "table.sides"),
    ],
)
def test_wrong_number_of_sides(stub: oracle_pb2_grpc.OracleServiceStub, sides: int, field: str) -> None:
    request = score_request("classic-2p", *[side(hands=[[card]]) for card in cards("4C 4D 4H")[:sides]])
    assert violation_fields(call_error(stub.ScoreHand, request)) == [field]


def test_unknown_went_out_value(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    request = two_player(side(hands=[cards("4C")], went_out=7))
    assert violation_fields(call_error(stub.ScoreHand, request)) == ["table.sides[0].went_out"]


def _requests(rule_set_id: str) -> dict[str, Any]:
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    return {
        "GetRuleSet": oracle_pb2.GetRuleSetRequest(rule_set=ref),
        "ScoreHand": oracle_pb2.ScoreHandRequest(rule_set=ref, table=seed_001_request().table),
        "GetMinimumInitialMeld": oracle_pb2.GetMinimumInitialMeldRequest(rule_set=ref, running_total=100),
    }


METHODS = ["GetRuleSet", "ScoreHand", "GetMinimumInitialMeld"]


@pytest.mark.parametrize("method", METHODS)
def test_empty_rule_set_id(stub: oracle_pb2_grpc.OracleServiceStub, method: str) -> None:
    error = call_error(getattr(stub, method), _requests("")[method])
    assert violation_fields(error) == ["rule_set.id"]


@pytest.mark.parametrize("method", METHODS)
def test_missing_rule_set_ref(stub: oracle_pb2_grpc.OracleServiceStub, method: str) -> None:
    request = _requests("x")[method]
    request.ClearField("rule_set")
    assert violation_fields(call_error(getattr(stub, method), request)) == ["rule_set.id"]


@pytest.mark.parametrize("method", METHODS)
def test_unknown_rule_set_is_not_found(stub: oracle_pb2_grpc.OracleServiceStub, method: str) -> None:
    error = call_error(getattr(stub, method), _requests("no-such-rules")[method])
    assert error.code() == grpc.StatusCode.NOT_FOUND, (error.code(), error.details())
    assert "no-such-rules" in error.details()
    status = rpc_status.from_call(error)
    assert status is not None
    assert status.code == grpc.StatusCode.NOT_FOUND.value[0]
    info = error_details_pb2.ResourceInfo()
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ResourceInfo.DESCRIPTOR))
    assert info.resource_name == "no-such-rules"


def test_server_survives_errors(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """After a burst of malformed calls the server still answers correctly."""
    for bad in (0, 99, -7):
        call_error(stub.ScoreHand, two_player(side(melds=[[bad]], hands=[[]])))
    response = stub.ScoreHand(seed_001_request(), timeout=RPC_TIMEOUT)
    assert [s.total for s in response.sides] == [1250, 5]


# --------------------------------------------------------------------------- graceful stop


def test_stop_reports_not_serving_and_drains(book: RuleBook, monkeypatch: pytest.MonkeyPatch) -> None:
    entered = threading.Event()
    release = threading.Event()

    class Held(OracleServicer):
        """Holds GetMinimumInitialMeld until the test releases it, so that it is in flight at stop."""

        async def GetMinimumInitialMeld(self, request: Any, context: Any) -> Any:
            entered.set()
            deadline = time.monotonic() + RPC_TIMEOUT
            while not release.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            return await super().GetMinimumInitialMeld(request, context)

    monkeypatch.setattr(oracle.service.server, "OracleServicer", Held)
    running = ServerThread(book)
    channel = _channel(running.address)
    try:
        health = health_pb2_grpc.HealthStub(channel)
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        for name in ("", SERVICE):
            assert (
                health.Check(health_pb2.HealthCheckRequest(service=name), timeout=RPC_TIMEOUT).status
                == health_pb2.HealthCheckResponse.SERVING
            )
        watch = health.Watch(health_pb2.HealthCheckRequest(service=SERVICE), timeout=RPC_TIMEOUT)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING

        request = oracle_pb2.GetMinimumInitialMeldRequest(
            rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), running_total=1500
        )
        in_flight = stub.GetMinimumInitialMeld.future(request, timeout=RPC_TIMEOUT)
        assert entered.wait(RPC_TIMEOUT), "the call never reached the servicer"

        stopping = running.begin_stop(grace=RPC_TIMEOUT)
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        watch.cancel()
        assert not in_flight.done(), "the held call finished before it was released"

        release.set()
        response = in_flight.result(timeout=RPC_TIMEOUT)
        assert response.minimum == 90
        assert response.from_score == 1500
        stopping.result(timeout=RPC_TIMEOUT + 5)

        try:
            after = health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=2)
        except grpc.RpcError as exc:
            assert exc.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED), exc
        else:
            assert after.status == health_pb2.HealthCheckResponse.NOT_SERVING
    finally:
        release.set()
        channel.close()
        running.close(grace=0)


def test_stop_rejects_new_calls(book: RuleBook) -> None:
    running = ServerThread(book)
    channel = _channel(running.address)
    try:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets
        running.close(grace=1.0)
        health = health_pb2_grpc.HealthStub(channel)
        try:
            after = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc
        else:
            assert after.status == health_pb2.HealthCheckResponse.NOT_SERVING
        with pytest.raises(grpc.RpcError) as info:
            stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=2)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        channel.close()
        running.close(grace=0)


def test_start_server_on_port_in_use_raises_oserror(book: RuleBook) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        loop = asyncio.new_event_loop()
        try:
            with pytest.raises(OSError, match="cannot listen on"):
                config = ServeConfig(port=port, request_log=False)
                loop.run_until_complete(asyncio.wait_for(start_server(book, config), RPC_TIMEOUT))
        finally:
            loop.close()
