"""Samba's action fields on the fast paths: decode_action (CheckAction's bytes) and the record JSON reader read
MeldGroup.onto / new_meld, TakePileAction.onto / new_meld and the combine action exactly as the message path does
(action_from_proto, json_format.ParseDict), and read them themselves rather than falling back."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any
from unittest import mock

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st
from samba_states import samba_states

from oracle.api.v1 import game_pb2, record_pb2
from oracle.model.actions import Action, Combine, Meld, MeldGroup, TakePile, parse_action
from oracle.model.cards import parse_cards
from oracle.model.errors import InvalidInputError
from oracle.rules.candidates import candidates
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_from_proto, action_to_proto
from oracle.service.record_json import record_from_json
from oracle.service.wire import WireError
from oracle.service.wire_action import decode_action

UINT32 = st.one_of(st.integers(0, 130), st.integers(0, 2**32 - 1))
CARD = st.one_of(st.integers(1, 53), st.integers(0, 300))
CARDS = st.lists(CARD, max_size=8)


def _group(draw: st.DrawFn, groups: Any) -> None:
    groups.add(
        cards=draw(CARDS),
        onto_rank=draw(st.one_of(st.just(0), CARD)),
        onto=draw(st.one_of(st.just(0), UINT32)),
        new_meld=draw(st.booleans()),
    )


@st.composite
def samba_actions(draw: st.DrawFn) -> game_pb2.Action:
    """Meld, take-pile and combine messages with any onto, new_meld, first and second (set or not)."""
    kind = draw(st.sampled_from(["meld", "take_pile", "combine"]))
    msg = game_pb2.Action()
    if kind == "combine":
        msg.combine.SetInParent()
        msg.combine.first = draw(st.one_of(st.just(0), UINT32))
        msg.combine.second = draw(st.one_of(st.just(0), UINT32))
        return msg
    if kind == "take_pile":
        take = msg.take_pile
        take.SetInParent()
        getattr(take, "with").extend(draw(CARDS))
        take.onto = draw(st.one_of(st.just(0), UINT32))
        take.new_meld = draw(st.booleans())
        groups = take.melds
    else:
        msg.meld.SetInParent()
        groups = msg.meld.groups
    for _ in range(draw(st.integers(0, 3))):
        _group(draw, groups)
    return msg


def _usual(msg: game_pb2.Action) -> bool:
    """No onto_rank naming the joker or no card: the fast path reads every such message itself."""
    groups = msg.take_pile.melds if msg.HasField("take_pile") else msg.meld.groups
    return all(g.onto_rank == 0 or 1 <= g.onto_rank <= 52 for g in groups)


@settings(max_examples=400, deadline=None)
@given(samba_actions())
def test_onto_new_meld_and_combine_are_read_from_bytes_as_the_message_path_reads_them(msg: game_pb2.Action) -> None:
    expected: Action | None
    try:
        expected = action_from_proto(msg)
    except InvalidInputError:
        expected = None
    try:
        action, groups, named = decode_action(msg.SerializeToString())
    except (WireError, IndexError):
        assert not _usual(msg), msg  # refused only for an onto_rank the message path names as wrong
        return
    assert action == expected
    if isinstance(action, Combine):
        assert (groups, named) == (0, 0)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("meld 8H to 2", Meld((MeldGroup(tuple(parse_cards("8H")), None, 2),))),
        ("meld new KH KD KS", Meld((MeldGroup(tuple(parse_cards("KH KD KS")), None, 0, True),))),
        ("take-pile to 3", TakePile((), (), 3)),
        ("take-pile with new QD QS", TakePile(tuple(parse_cards("QD QS")), (), 0, True)),
        ("combine 2 5", Combine(2, 5)),
    ],
)
def test_the_notations_samba_fields_come_back_from_bytes(text: str, action: Action) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert decode_action(action_to_proto(parsed).SerializeToString())[0] == parsed


def test_the_candidates_of_simulated_samba_positions_are_read_from_bytes() -> None:
    rules = default_rule_book().get("samba-4p").rules
    seen = {"onto": 0, "new": 0, "combine": 0}
    for _, state in samba_states(every=4):
        for action in candidates(rules, state):
            assert decode_action(action_to_proto(action).SerializeToString())[0] == action
            groups = action.groups if isinstance(action, Meld) else action.melds if isinstance(action, TakePile) else ()
            seen["onto"] += any(g.onto for g in groups) or (isinstance(action, TakePile) and action.onto > 0)
            seen["new"] += any(g.new for g in groups) or (isinstance(action, TakePile) and action.new)
            seen["combine"] += isinstance(action, Combine)
    assert all(seen.values()), seen


# --------------------------------------------------------------------------- the record JSON reader


SAMBA = resources.files("oracle.conformance.data") / "records" / "samba-4p"


def _no_fallback(data: Any, message: Any) -> Any:
    raise AssertionError("the fast reader fell back to ParseDict")


def test_the_samba_records_are_read_without_falling_back(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [(SAMBA / f"game-{n}.json").read_text(encoding="utf-8") for n in range(10)]
    expected = [json_format.Parse(text, record_pb2.GameRecord()) for text in texts]
    assert sum(text.count('"onto"') for text in texts) and sum(text.count('"newMeld"') for text in texts)
    monkeypatch.setattr(json_format, "ParseDict", _no_fallback)
    assert [record_from_json(json.loads(text)) for text in texts] == expected


def _record(action: game_pb2.Action) -> dict[str, Any]:
    return {"ruleSetId": "samba-4p", "hands": [{"seed": "1", "actions": [json_format.MessageToDict(action)]}]}


@settings(max_examples=300, deadline=None)
@given(samba_actions().filter(lambda m: all(1 <= c <= 53 for c in _cards(m))))
def test_records_with_onto_new_meld_and_combine_read_as_parse_dict_reads_them(msg: game_pb2.Action) -> None:
    data = _record(msg)
    expected = json_format.ParseDict(data, record_pb2.GameRecord())
    with mock.patch.object(json_format, "ParseDict", _no_fallback):
        assert record_from_json(data) == expected


@pytest.mark.parametrize(
    ("field", "value"),
    [("onto", -1), ("onto", 2**32), ("onto", "3"), ("onto", 1.0), ("newMeld", 1), ("newMeld", "true"), ("first", True)],
)
def test_unusual_values_of_the_new_fields_go_to_parse_dict(field: str, value: Any) -> None:
    if field == "first":
        action: dict[str, Any] = {"combine": {"first": value, "second": 2}}
    else:
        action = {"takePile": {"with": ["CARD_QD", "CARD_QS"], field: value}}
    data = {"ruleSetId": "samba-4p", "hands": [{"actions": [action]}]}
    try:
        expected: Any = json_format.ParseDict(data, record_pb2.GameRecord())
    except json_format.ParseError as error:
        expected = str(error)
    try:
        got: Any = record_from_json(data)
    except json_format.ParseError as error:
        got = str(error)
    assert got == expected


def _cards(msg: game_pb2.Action) -> list[int]:
    groups = list(msg.take_pile.melds) + list(msg.meld.groups)
    return [*getattr(msg.take_pile, "with"), *(c for g in groups for c in [*g.cards, g.onto_rank] if c)]
