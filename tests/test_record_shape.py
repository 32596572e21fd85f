"""The record's shape check (with its short cuts for actions the shape layer has nothing to check in) refuses and
accepts exactly what the referee's shape layer does, with the record's paths, and tells the replay which actions
are well shaped as a whole."""

from __future__ import annotations

import pytest

from oracle.games.match import DeckSource
from oracle.games.record import GameRecord, HandRecord, check_record_shape, shaped_actions
from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
)
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.rules.referee import validate_action_shape
from oracle.ruleset.loader import default_rule_book

RULES = default_rule_book().get("classic-2p").rules
ACTIONS: list[Action] = [
    Draw(),
    AskPartner(),
    AnswerPartner(True),
    Finish(),
    Discard(1),
    Discard(53),
    Discard(0),
    Discard(54),
    TakePile((5, 6), ()),
    TakePile((), ()),
    TakePile((0, 6), ()),
    TakePile((5, 99), ()),
    TakePile((5,), (MeldGroup((9, 10, 11)),)),
    TakePile((5,), (MeldGroup((9, 13, 0)),)),
    Meld((MeldGroup((9, 10, 11)),)),
    Meld((MeldGroup((9, 10, 11)), MeldGroup((12, 11, 10)))),
    Meld(()),
    Meld((MeldGroup((9, 10, 60)),)),
    Meld((MeldGroup((5, 9, 13)),)),
]


def _layer(action: Action, path: str) -> list[FieldProblem]:
    try:
        validate_action_shape(action, path)
    except InvalidInputError as exc:
        return exc.problems
    return []


def _record(actions: list[Action]) -> GameRecord:
    return GameRecord("classic-2p", 0, (HandRecord(DeckSource(seed=1), tuple(actions)),))


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_each_action_is_refused_or_accepted_as_the_shape_layer_does_with_the_records_path(action: Action) -> None:
    path = "record.hands[0].actions[1]"
    expected = _layer(action, path)
    record = _record([Draw(), action])
    if expected:
        with pytest.raises(InvalidInputError) as raised:
            check_record_shape(RULES, record)
        assert raised.value.problems == expected
    else:
        check_record_shape(RULES, record)
        assert shaped_actions(RULES, record) == [[True, True]]


def test_a_meld_shaped_only_as_the_second_step_of_a_two_step_take_is_not_shaped_as_a_whole() -> None:
    second_step = Meld((MeldGroup((5, 9)), MeldGroup((13, 14, 15))))  # its first group is no meld by itself
    assert _layer(second_step, "x")
    assert shaped_actions(RULES, _record([PickUpPile(), second_step])) == [[True, False]]
