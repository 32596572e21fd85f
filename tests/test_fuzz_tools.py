"""The long fuzz's tools do what docs/robustness.md says: a bug planted in a real server is found, minimised, saved
and replayed by `python -m oracle.bench.fuzz`, and the minimiser keeps a failure while it shrinks the request."""

from __future__ import annotations

import json
import random
from pathlib import Path

import grpc
import pytest
from fuzz_strategies import corpus
from server_harness import ServerThread

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.bench import fuzz
from oracle.bench.fuzz_calls import judge
from oracle.bench.fuzz_minimise import Budget, minimise_bytes, minimise_list, minimise_message, signature
from oracle.bench.fuzz_mutate import MAX_BYTES, Mutator
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.limits import DEFAULT_LIMITS


def test_a_failing_request_shrinks_to_what_makes_it_fail() -> None:
    state = game_pb2.GameState(pile_upcards=-7, seat_to_move=3, stock=[1, 2, 3, 4])
    state.seats.add(hand=[5, 6, 7])
    request = oracle_pb2.CheckActionRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state)

    def fails(candidate: oracle_pb2.CheckActionRequest) -> bool:
        return candidate.state.pile_upcards < 0

    smallest = minimise_message(request, fails, Budget(500, 60))
    assert smallest == oracle_pb2.CheckActionRequest(state=game_pb2.GameState(pile_upcards=-7))
    assert minimise_bytes(b"abcXdef", lambda b: b"X" in b, Budget(100, 60)) == b"X"
    assert minimise_list(list(range(40)), lambda items: 30 in items, Budget(100, 60)) == [30]


def test_a_failing_entry_deep_in_a_list_is_kept_alone() -> None:
    record = oracle_pb2.ReplayGameRequest()
    hand = record.record.hands.add(seed=1)
    for _ in range(30):
        hand.actions.add(draw=game_pb2.DrawAction())
    hand.actions.add().meld.groups.add(cards=[53], onto_rank=53)  # type: ignore[list-item, arg-type]
    hand.actions.add(draw=game_pb2.DrawAction())

    def fails(candidate: oracle_pb2.ReplayGameRequest) -> bool:
        # Like a replay: the meld fails where a replay reaches it, which it does when it is the first action or when
        # all 30 actions before it are there (dropping any one of them alone stops the failure).
        kinds = [a.WhichOneof("kind") for h in candidate.record.hands for a in h.actions]
        return "meld" in kinds and kinds.index("meld") in (0, 30)

    smallest = minimise_message(record, fails, Budget(400, 60))
    [action] = [a for h in smallest.record.hands for a in h.actions]
    assert action.WhichOneof("kind") == "meld"


def test_a_budget_bounds_the_calls_a_minimisation_makes() -> None:
    calls = []

    def fails(candidate: bytes) -> bool:
        calls.append(candidate)
        return False  # nothing smaller fails: without a budget, every cut would be tried

    assert minimise_bytes(bytes(range(200)), fails, Budget(10, 60)) == bytes(range(200))
    assert len(calls) == 10


def test_the_report_shows_the_first_traceback_of_a_log_whole() -> None:
    log = "serving\nTraceback (most recent call last):\n  File a\n    x\nIndexError: bad\nmore\nTraceback (most"
    assert fuzz.first_traceback(log) == "Traceback (most recent call last):\n  File a\n    x\nIndexError: bad"


def test_a_request_too_big_for_grpc_is_expected_to_be_refused_and_a_small_one_is_not() -> None:
    refused = grpc.StatusCode.RESOURCE_EXHAUSTED
    faults, _ = judge(
        refused, "Received message larger than max", (), request_bytes=DEFAULT_LIMITS.max_message_bytes + 1
    )
    assert faults == ()
    faults, _ = judge(refused, "server busy", (), request_bytes=100)
    assert faults == ("code RESOURCE_EXHAUSTED: server busy",)


def test_mutations_keep_requests_small_enough_to_send() -> None:
    rnd = random.Random(0)
    mutator = Mutator(corpus().donors(), corpus().words)
    biggest = max((m for ms in corpus().unary.values() for m in ms), key=lambda m: m.ByteSize())
    for _ in range(200):
        biggest = mutator.mutate(biggest, rnd, 4)
        assert biggest.ByteSize() <= MAX_BYTES


def test_signature_leaves_out_numbers() -> None:
    assert (
        signature(("trailers of 9001 bytes (a default client reads 8192)",))
        == "trailers of N bytes (a default client reads N)"
    )
    assert signature(("code INTERNAL: internal error",)) == "code INTERNAL"


@pytest.mark.slow
def test_the_fuzz_finds_minimises_saves_and_replays_a_planted_bug(monkeypatch, tmp_path: Path, capsys) -> None:
    def broken(self: OracleApi, request: oracle_pb2.ScoreHandRequest) -> oracle_pb2.ScoreHandResponse:
        raise ZeroDivisionError("a planted bug")

    monkeypatch.setattr(OracleApi, "ScoreHand", broken)
    server = ServerThread(default_rule_book())
    try:
        argv = ["--requests", "80", "--seed", "3", "--workers", "1", "--records", "1", "--target", server.address]
        numbers = tmp_path / "report.json"
        status = fuzz.main([*argv, "--save-dir", str(tmp_path), "--progress", "600", "--json", str(numbers)])
        report = capsys.readouterr().out
        assert status == 1, report
        assert "ScoreHand: code INTERNAL" in report
        assert "80 requests" in report
        [saved, *_] = sorted((tmp_path / "findings").glob("ScoreHand-*.json"))
        finding = json.loads(saved.read_text())
        assert finding["code"] == "INTERNAL"
        assert finding["messages_hex"] == [""]  # the empty request fails too: minimised to nothing
        assert len(list((tmp_path / "slowest").glob("*.json"))) == 10
        [worker] = json.loads(numbers.read_text())["workers"]
        assert worker["requests"] == 80
        assert worker["codes"]["ScoreHand"]["INTERNAL"] == worker["finding_counts"]["ScoreHand: code INTERNAL"]
        assert fuzz.main(["--target", server.address, "--replay", str(saved)]) == 1
        assert "ScoreHand: INTERNAL" in capsys.readouterr().out
    finally:
        server.close()
