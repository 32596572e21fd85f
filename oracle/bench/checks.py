"""Benchmark: microseconds per CheckAction on a fixed set of mid-game states (prints numbers, asserts nothing)."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf import json_format

from oracle.api.v1 import notation_pb2, oracle_pb2
from oracle.model.actions import parse_action
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.convert_game import (
    action_from_proto,
    action_to_proto,
    state_from_notation,
    state_from_proto,
    state_to_proto,
    verdict_to_proto,
)


@dataclass(frozen=True)
class BenchCase:
    """One fixed state and action."""

    name: str
    rule_set: str
    state: dict[str, object]
    action: str


_MID_2P = {
    "seats": [
        {"hand": "9H 9D JK 2C AH AD 5C 6C 7C KH QS QD 8C 8D 4S 4H TC", "meldedBefore": True},
        {"hand": "QH 4D 8S TD TS JC JD JS 5H 5S 6S 7S 7D 9C"},
    ],
    "sides": [
        {"melds": ["KC KD KS", "AS AC AC 2S"], "redThrees": "3H", "runningTotal": 1200},
        {"melds": ["6H 6D 6D 2H", "TH TH TC"], "runningTotal": 900},
    ],
    "discardPile": "5D 2D 8H 9S",
    "seatToMove": 0,
    "phase": "PHASE_DRAW",
    "fillStock": True,
}
_MID_4P = {
    "seats": [
        {"hand": "9H 9D JK AH 5C 6C 7C KH QS 8C 8D", "meldedBefore": True},
        {"hand": "QH 4D 8S TD TS JC JD JS 5H 5S 6S"},
        {"hand": "9C 2C 4C 4H 7H 7D KD QC QD JH AD"},
        {"hand": "6H 6D 7S 8H TH TC 5D 3C AC KS 2D"},
    ],
    "sides": [{"melds": ["KC KC KH 2S", "AS AS AH"], "runningTotal": 2000}, {"melds": []}],
    "discardPile": "5S 4S 9S",
    "seatToMove": 0,
    "phase": "PHASE_DRAW",
    "fillStock": True,
}
_PLAY_2P = {**_MID_2P, "phase": "PHASE_PLAY", "turn": {"start": "TURN_START_DREW"}}

CASES = (
    BenchCase("2p draw", "classic-2p", _MID_2P, "draw"),
    BenchCase("2p take frozen pile (legal)", "classic-2p", _MID_2P, "take-pile with 9H 9D"),
    BenchCase("2p take frozen pile with a wild (illegal)", "classic-2p", _MID_2P, "take-pile with 9H JK"),
    BenchCase("2p meld two groups (legal)", "classic-2p", _PLAY_2P, "meld QS QD JK, 8C 8D 2C"),
    BenchCase("2p meld 9-JK-2 (illegal)", "classic-2p", _PLAY_2P, "meld 9H JK 2C"),
    BenchCase("2p discard", "classic-2p", _PLAY_2P, "discard 5C"),
    BenchCase("4p take pile onto nothing, initial meld (legal)", "classic-4p", _MID_4P, "take-pile with 9H 9D"),
    BenchCase("4p draw", "classic-4p", _MID_4P, "draw"),
)


def _median_us(work: Callable[[], object], number: int, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(number):
            work()
        samples.append((time.perf_counter_ns() - start) / number / 1000)
    return statistics.median(samples)


def run(number: int = 300, repeats: int = 7, book: RuleBook | None = None) -> list[tuple[str, float, float, float]]:
    """(case, µs core check with validation, µs core without validation, µs request bytes -> response bytes)."""
    book = book or default_rule_book()
    rows = []
    for case in CASES:
        rules = book.get(case.rule_set).rules
        msg = json_format.ParseDict(case.state, notation_pb2.GameStateNotation())
        state = state_from_notation(msg, rules)
        assert not validate_state(rules, state), f"bench state '{case.name}' is inconsistent"
        action = parse_action(case.action)
        request = oracle_pb2.CheckActionRequest(
            rule_set=oracle_pb2.RuleSetRef(id=case.rule_set),
            state=state_to_proto(state),
            action=action_to_proto(action),
        )
        wire = request.SerializeToString()

        def full(wire: bytes = wire) -> bytes:
            req = oracle_pb2.CheckActionRequest.FromString(wire)
            loaded = book.get(req.rule_set.id)
            verdict = check_action(loaded.rules, state_from_proto(req.state), action_from_proto(req.action))
            return verdict_to_proto(verdict).SerializeToString()

        rows.append(
            (
                case.name,
                _median_us(functools.partial(check_action, rules, state, action), number, repeats),
                _median_us(functools.partial(check_action, rules, state, action, validate=False), number, repeats),
                _median_us(full, number, repeats),
            )
        )
    return rows


def report(rows: list[tuple[str, float, float, float]]) -> list[str]:
    """The table the bench command prints."""
    lines = [f"{'case':<50} {'check µs':>9} {'no-validate µs':>15} {'bytes->bytes µs':>16}"]
    for name, full_check, bare, wire in rows:
        lines.append(f"{name:<50} {full_check:>9.1f} {bare:>15.1f} {wire:>16.1f}")
    lines.append(
        f"{'median':<50} {statistics.median(r[1] for r in rows):>9.1f}"
        f" {statistics.median(r[2] for r in rows):>15.1f} {statistics.median(r[3] for r in rows):>16.1f}"
    )
    return lines
