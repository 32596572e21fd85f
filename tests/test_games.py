"""Whole games: simulated games replay cleanly, corrupted records are caught exactly, the stream agrees with replay."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import grpc
import pytest
from server_harness import RPC_TIMEOUT, oracle_stub

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2
from oracle.games.replay import GameRecord, replay
from oracle.games.simulate import simulate_game
from oracle.model.actions import Discard, Draw
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto
from oracle.service.convert_record import record_to_proto

HANDS_PER_RULE_SET = 1000


def simulated_games(rule_set_id: str, hands: int) -> list[GameRecord]:
    rules = default_rule_book().get(rule_set_id).rules
    records: list[GameRecord] = []
    seed = 0
    while sum(len(r.hands) for r in records) < hands:
        records.append(simulate_game(rules, seed).record)
        seed += 1
    return records


@pytest.fixture(scope="module", params=["classic-2p", "classic-4p"])
def games(request: pytest.FixtureRequest) -> tuple[str, list[GameRecord]]:
    return request.param, simulated_games(request.param, HANDS_PER_RULE_SET)


@pytest.mark.slow
def test_a_thousand_simulated_hands_replay_cleanly(games: tuple[str, list[GameRecord]]) -> None:
    rule_set_id, records = games
    rules = default_rule_book().get(rule_set_id).rules
    hands = 0
    for record in records:
        # validate=True checks every state on the way: all 108 cards conserved, melds and turn fields consistent
        report = replay(rules, record, keep_actions=False, validate=True)
        assert report.ok, (report.first_illegal, report.mismatches, report.problems)
        assert report.standing is not None and report.standing.over
        assert report.standing.winner == record.claimed_winner
        totals = report.standing.totals
        assert max(totals) >= rules.spec.game.target_score
        assert totals[report.standing.winner] == max(totals) and totals.count(max(totals)) == 1
        # the game ended exactly when it should: no earlier hand had a unique leader at or past the target
        for hand in report.hands[:-1]:
            best = max(hand.totals)
            assert best < rules.spec.game.target_score or hand.totals.count(best) > 1
        hands += len(report.hands)
    assert hands >= HANDS_PER_RULE_SET


def _first_discard(record: GameRecord) -> tuple[int, int]:
    for h, hand in enumerate(record.hands):
        for i, action in enumerate(hand.actions):
            if isinstance(action, Discard) and i > 10:
                return h, i
    raise AssertionError("no discard")


def test_a_corrupted_action_is_reported_at_exactly_that_action() -> None:
    rules = default_rule_book().get("classic-2p").rules
    record = simulate_game(rules, 7).record
    h, i = _first_discard(record)
    hand = record.hands[h]
    # where the player discarded (phase PLAY), the record now says "draw": drawing twice in a turn
    actions = (*hand.actions[:i], Draw(), *hand.actions[i + 1 :])
    corrupted = replace(record, hands=(*record.hands[:h], replace(hand, actions=actions), *record.hands[h + 1 :]))
    report = replay(rules, corrupted)
    assert not report.ok
    assert report.first_illegal is not None
    assert (report.first_illegal.hand, report.first_illegal.index) == (h, i)
    assert report.first_illegal.notation == "draw"
    assert [v.code for v in report.first_illegal.violations] == ["WRONG_PHASE"]
    assert report.judged == sum(len(x.actions) for x in record.hands[:h]) + i + 1


def test_claimed_scores_that_differ_are_reported_per_side() -> None:
    rules = default_rule_book().get("classic-4p").rules
    record = simulate_game(rules, 3).record
    hand = record.hands[0]
    claimed = (hand.claimed_scores[0] + 5, hand.claimed_scores[1])
    altered = replace(record, hands=(replace(hand, claimed_scores=claimed), *record.hands[1:]))
    report = replay(rules, altered)
    assert not report.ok
    assert [(m.hand, m.side, m.what, m.claimed, m.computed) for m in report.mismatches] == [
        (0, 0, "hand score", hand.claimed_scores[0] + 5, hand.claimed_scores[0])
    ]


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    with oracle_stub() as connected:
        yield connected


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "classic-4p"])
def test_the_stream_gives_the_same_verdicts_as_replay(stub, rule_set_id: str) -> None:
    rules = default_rule_book().get(rule_set_id).rules
    record = simulate_game(rules, 11, max_hands=2).record
    record_msg = record_to_proto(record)
    unary = stub.ReplayGame(oracle_pb2.ReplayGameRequest(record=record_msg), timeout=RPC_TIMEOUT).report
    assert unary.ok

    def requests() -> Iterator[oracle_pb2.RefereeGameRequest]:
        yield oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(
                rule_set=oracle_pb2.RuleSetRef(id=rule_set_id), first_dealer=record.first_dealer
            )
        )
        for hand in record_msg.hands:
            yield oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=hand.seed))
            for action in hand.actions:
                yield oracle_pb2.RefereeGameRequest(action=action)

    responses = list(stub.RefereeGame(requests(), timeout=60))
    action_responses = [r for r, q in zip(responses, requests(), strict=True) if q.WhichOneof("kind") == "action"]
    assert len(action_responses) == len(unary.actions)
    for got, want in zip(action_responses, unary.actions, strict=True):
        assert got.verdict.legal == want.legal
        assert list(got.verdict.violations) == list(want.violations)
        assert list(got.verdict.events) == list(want.events)
        assert not got.error
    assert list(responses[-1].totals) == list(unary.hands[-1].totals)


def test_the_stream_reports_an_illegal_action_and_keeps_the_game(stub) -> None:
    start = oracle_pb2.RefereeGameRequest(
        start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), first_dealer=0, full_state=True)
    )
    deal = oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=5))
    bad = oracle_pb2.RefereeGameRequest(action=action_to_proto(Discard(47)))  # discard before drawing
    early = oracle_pb2.RefereeGameRequest(action=action_to_proto(Discard(47)))
    responses = list(stub.RefereeGame(iter([early, start, deal, bad]), timeout=RPC_TIMEOUT))
    assert responses[0].error == "the first message must be start"
    assert responses[1].verdict.legal and not responses[1].error
    dealt = responses[2].state
    assert responses[3].verdict.legal is False
    assert "WRONG_PHASE" in [v.code for v in responses[3].verdict.violations]
    assert responses[3].state == dealt  # an illegal action changes nothing


def test_the_stream_answers_actions_with_events_and_sends_the_state_only_with_a_deal_by_default(stub) -> None:
    messages = [
        oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), first_dealer=0)
        ),
        oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=5)),
        oracle_pb2.RefereeGameRequest(action=action_to_proto(Draw())),
    ]
    lean = list(stub.RefereeGame(iter(messages), timeout=RPC_TIMEOUT))
    messages[0].start.full_state = True
    full = list(stub.RefereeGame(iter(messages), timeout=RPC_TIMEOUT))
    assert lean[1].HasField("state") and lean[1].state == full[1].state  # the new hand, whole
    drew = lean[2]
    assert drew.verdict.legal and not drew.HasField("state") and not drew.verdict.HasField("next_state")
    assert [e.WhichOneof("kind") for e in drew.verdict.events] == ["cards_drawn"]  # what changed
    assert list(drew.verdict.events) == list(full[2].verdict.events)
    assert full[2].state.phase == game_pb2.PHASE_PLAY and full[2].verdict.next_state == full[2].state
    assert drew.ByteSize() < full[2].ByteSize() // 4


def test_replay_of_a_record_with_a_malformed_action_is_invalid_argument(stub) -> None:
    record = record_pb2.GameRecord(rule_set_id="classic-2p")
    hand = record.hands.add(seed=1)
    hand.actions.add()  # an action with nothing set
    with pytest.raises(grpc.RpcError) as info:
        stub.ReplayGame(oracle_pb2.ReplayGameRequest(record=record), timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "record.hands[0].actions[0].kind" in info.value.details()
