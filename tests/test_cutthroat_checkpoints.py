"""A Cutthroat record's checkpoints may claim the sides formed during the hand (Checkpoint.sides): a claim that
agrees passes, one that differs is reported at `side_of_seat` with both values, and an unclaimed checkpoint says
nothing of the sides."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

import oracle
from oracle.api.v1 import record_pb2
from oracle.games.deal import deal
from oracle.games.match import deck_order
from oracle.games.replay import replay
from oracle.service.convert_record import record_from_proto

RECORD = Path(__file__).resolve().parents[1] / "conformance" / "records" / "cutthroat-3p" / "game-0.json"


def _record_with_checkpoint(side_of_seat: list[int] | None) -> tuple[record_pb2.GameRecord, list[int], int]:
    """The shipped record's first hand with a checkpoint after the take that formed its sides (and the formation
    the engine reaches there); `side_of_seat` None: the checkpoint claims no sides."""
    msg = json_format.Parse(RECORD.read_text(encoding="utf-8"), record_pb2.GameRecord())
    record = record_from_proto(msg)
    rules = oracle.load_rule_set(record.rule_set_id)
    state = deal(rules, deck_order(rules, record.hands[0].deck), dealer=record.first_dealer)
    after = 0
    for action in record.hands[0].actions:
        verdict = oracle.check_action(rules, state, action)
        assert verdict.next_state is not None
        state, after = verdict.next_state, after + 1
        if state.side_of_seat:
            break
    else:
        raise AssertionError("the first hand of the record never formed sides")
    del msg.hands[1:]
    msg.ClearField("claimed_winner")  # one hand of the game: no winner yet
    checkpoint = msg.hands[0].checkpoints.add(after=after)
    if side_of_seat is not None:
        checkpoint.sides.side_of_seat.extend(side_of_seat)
    return msg, list(state.side_of_seat), after


def test_a_checkpoint_claiming_the_sides_the_hand_formed_agrees() -> None:
    unclaimed, formed, _ = _record_with_checkpoint(None)
    assert replay(oracle.load_rule_set("cutthroat-3p"), record_from_proto(unclaimed), keep_actions=False).ok
    msg, _, _ = _record_with_checkpoint(formed)
    report = replay(oracle.load_rule_set("cutthroat-3p"), record_from_proto(msg), keep_actions=False)
    assert report.ok, report


def test_a_checkpoint_claiming_other_sides_is_reported_at_side_of_seat() -> None:
    _, formed, after = _record_with_checkpoint(None)
    lone = next(seat for seat, entry in enumerate(formed) if entry == seat and formed.count(seat) == 1)
    other = [seat for seat in range(3) if seat != (lone + 1) % 3]
    wrong = [(lone + 1) % 3 if seat == (lone + 1) % 3 else min(other) for seat in range(3)]
    assert wrong != formed
    msg, _, _ = _record_with_checkpoint(wrong)
    report = replay(oracle.load_rule_set("cutthroat-3p"), record_from_proto(msg), keep_actions=False)
    assert not report.ok
    found = [d for d in report.disagreements if d.kind == "checkpoint"]
    assert [(d.field, d.index) for d in found] == [("side_of_seat", after)]
    assert found[0].claimed == f"[{', '.join(map(str, wrong))}]"
    assert found[0].computed == f"[{', '.join(map(str, formed))}]"


def test_a_checkpoint_claiming_no_formation_before_the_first_take_agrees() -> None:
    msg = json_format.Parse(RECORD.read_text(encoding="utf-8"), record_pb2.GameRecord())
    del msg.hands[1:]
    msg.ClearField("claimed_winner")
    msg.hands[0].checkpoints.add(after=0, sides=record_pb2.ClaimedSides())
    report = replay(oracle.load_rule_set("cutthroat-3p"), record_from_proto(msg), keep_actions=False)
    assert report.ok, report
    late, formed, after = _record_with_checkpoint(None)  # the same claim once the first take has formed the sides
    late.hands[0].checkpoints[0].sides.SetInParent()
    report = replay(oracle.load_rule_set("cutthroat-3p"), record_from_proto(late), keep_actions=False)
    found = [(d.field, d.index, d.claimed, d.computed) for d in report.disagreements if d.kind == "checkpoint"]
    assert found == [("side_of_seat", after, "not formed", f"[{', '.join(map(str, formed))}]")]
