"""CheckAction's verdict_only: the same verdict, events and notation as the full answer, and nothing of the state
after it (neither next_state nor, from a view, next_view or a word on the next state)."""

from __future__ import annotations

from helpers import make_state

from oracle.api.v1 import oracle_pb2
from oracle.model.view import PlayerView
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_to_proto
from oracle.service.convert_view import view_to_proto

API = OracleApi(default_rule_book())
STATE = make_state("classic-2p", hands=["9H 9D KS QS", "6C 7D 8S"], melds=[["KC KD KH"], []], pile="5C 9S")


def _ask(action: str, *, verdict_only: bool, view: PlayerView | None = None) -> oracle_pb2.CheckActionResponse:
    request = oracle_pb2.CheckActionRequest(action_text=action, verdict_only=verdict_only)
    request.rule_set.id = "classic-2p"
    if view is None:
        request.state.CopyFrom(state_to_proto(STATE))
    else:
        request.view.CopyFrom(view_to_proto(view))
    return API.CheckAction(request)


def _without(answer: oracle_pb2.CheckActionResponse, *fields: str) -> oracle_pb2.CheckActionResponse:
    trimmed = oracle_pb2.CheckActionResponse()
    trimmed.CopyFrom(answer)
    for name in fields:
        trimmed.ClearField(name)
    return trimmed


def test_a_legal_action_is_answered_without_the_state_after_it() -> None:
    full = _ask("take-pile with 9H 9D", verdict_only=False)
    alone = _ask("take-pile with 9H 9D", verdict_only=True)
    assert full.legal and full.HasField("next_state") and len(full.events) > 0
    assert alone.legal and not alone.HasField("next_state")
    assert alone == _without(full, "next_state")  # the verdict, events and notation unchanged
    assert alone.ByteSize() < full.ByteSize()


def test_an_illegal_action_gets_the_same_answer_either_way() -> None:
    full = _ask("discard 6C", verdict_only=False)  # seat 1's card: not in the mover's hand
    alone = _ask("discard 6C", verdict_only=True)
    assert not full.legal and full.violations and alone == full


def test_from_a_view_neither_the_next_view_nor_the_next_state_is_spoken_of() -> None:
    view = view_of(STATE, 0)
    full = _ask("take-pile with 9H 9D", verdict_only=False, view=view)
    alone = _ask("take-pile with 9H 9D", verdict_only=True, view=view)
    assert full.HasField("next_view") and "next_state" in [u.field for u in full.unknowns]
    assert not alone.HasField("next_view") and "next_state" not in [u.field for u in alone.unknowns]
    assert alone.legal == full.legal and alone.events == full.events and alone.notation == full.notation
    # what the view cannot decide about the verdict itself is still said: a draw's events are hidden
    drawn = _ask("draw", verdict_only=True, view=view)
    assert drawn.legal and [u.field for u in drawn.unknowns] == ["events"]
