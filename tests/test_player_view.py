"""A player's view (PlayerView): judged where the view decides, unknown where hidden cards would, checked against
the deck; from the states of the shipped records, the view's answers equal the full state's whenever given."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import make_state, rules
from record_states import VIEW_RECORDS, record_states

from oracle.api.v1 import oracle_pb2
from oracle.games.movegen import legal_actions
from oracle.model.actions import Discard, Draw, parse_action
from oracle.model.cards import parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.events import HandEnded
from oracle.model.score import ScoreItem
from oracle.model.state import GameState, Phase
from oracle.model.view import SeatView
from oracle.rules.candidates import candidates
from oracle.rules.facts import end_table
from oracle.rules.referee import check_action
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import InvalidStateError
from oracle.rules.view import complete, judge_view, score_view, view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_to_proto
from oracle.service.convert_view import view_from_proto, view_to_proto

API = OracleApi(default_rule_book())


def _sampled_states() -> list[tuple[str, GameState]]:
    out = []
    for path in VIEW_RECORDS[::5]:
        rule_set, states = record_states(path)
        out += [(rule_set, s) for s in states[::6]]
    return out


SAMPLED = _sampled_states()


# --- the view's answers equal the full state's ---------------------------------------------------------------------


def test_the_movers_view_judges_as_the_full_state_does() -> None:
    judged = unknown_events = 0
    for rule_set, state in SAMPLED:
        if state.phase == Phase.HAND_OVER:
            continue
        r = rules(rule_set)
        view = view_of(state, state.seat_to_move)
        for action in [*candidates(r, state)[:6], Discard(state.seats[state.seat_to_move].hand[0]), Draw()]:
            full = check_action(r, state, action, validate=False)
            answer = judge_view(r, view, action)
            assert answer.judged
            judged += 1
            assert answer.legal == full.legal
            assert answer.verdict is not None and answer.verdict.violations == full.violations
            if answer.events_known:
                assert answer.verdict.events == full.events
                if full.legal:
                    assert full.next_state is not None and answer.next_view == view_of(full.next_state, view.seat)
            else:
                unknown_events += 1
                assert {u.field for u in answer.unknowns} == {"events", "next_state"}
    assert judged > 300 and unknown_events > 30


def test_legal_moves_from_the_movers_view_are_the_full_states() -> None:
    for rule_set, state in SAMPLED[::4]:
        if state.phase == Phase.HAND_OVER:
            continue
        r = rules(rule_set)
        assert legal_actions(r, complete(r, view_of(state, state.seat_to_move))) == legal_actions(r, state)


def test_scores_from_a_view_are_the_full_scores_but_for_hidden_hands() -> None:
    ends = [(rs, s) for rs, states in map(record_states, VIEW_RECORDS) for s in states if s.phase == Phase.HAND_OVER]
    assert len(ends) > 40
    for rule_set, state in ends[::2]:
        r = rules(rule_set)
        full = score_hand(r, end_table(r, state))
        for seat in range(r.seats):
            scores, unknowns = score_view(r, view_of(state, seat))
            unknown_sides = {u.field for u in unknowns}
            for index, (mine, theirs) in enumerate(zip(scores, full, strict=True)):
                hidden = [line for line in theirs.lines if line not in mine.lines]
                assert all(line.item in (ScoreItem.CARDS_IN_HAND, ScoreItem.HELD_RANK) for line in hidden)
                assert (f"sides[{index}].total" in unknown_sides) == bool(hidden)
                if not hidden:
                    assert mine.total == theirs.total


# --- what a view cannot decide -------------------------------------------------------------------------------------

STATE = make_state("classic-2p", hands=["9H 9D KS QS", "6C 7D 8S"], melds=[["KC KD KH"], []], pile="5C 9S")


def test_a_draw_is_judged_but_what_it_brings_is_unknown() -> None:
    answer = judge_view(rules("classic-2p"), view_of(STATE, 0), Draw())
    assert answer.judged and answer.legal
    assert not answer.events_known and answer.next_view is None
    assert [u.field for u in answer.unknowns] == ["events", "next_state"]
    assert "drawn from the stock are hidden" in answer.unknowns[0].reason


def test_a_take_is_judged_and_its_events_known() -> None:
    answer = judge_view(rules("classic-2p"), view_of(STATE, 0), parse_action("take-pile with 9H 9D"))
    assert answer.judged and answer.legal and answer.events_known
    assert answer.next_view is not None and answer.next_view.seats[0].hand_count == 3  # KS QS and the 5C


def test_another_seats_move_is_unknown() -> None:
    answer = judge_view(rules("classic-2p"), view_of(STATE, 1), parse_action("discard 6C"))
    assert not answer.judged and not answer.legal and answer.verdict is None
    assert [u.field for u in answer.unknowns] == ["legal", "events", "next_state"]
    assert "seat 0's" in answer.unknowns[0].reason


def test_going_out_is_judged_but_the_hands_end_is_unknown() -> None:
    state = make_state(
        "classic-2p",
        hands=["9H 9D 9C 5D", "6C 7D 8S"],
        melds=[["KC KD KH KS JK 2C 2D", "QC QD QH QS QC QD QH"], []],
        pile="5C",
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW", "meldsBeforeTurn": 2},
        melded_before=[True, False],
    )
    state = check_action(rules("classic-2p"), state, parse_action("meld 9H 9D 9C")).next_state
    assert state is not None
    full = check_action(rules("classic-2p"), state, parse_action("discard 5D"))
    assert full.legal and any(isinstance(e, HandEnded) for e in full.events)
    answer = judge_view(rules("classic-2p"), view_of(state, 0), parse_action("discard 5D"))
    assert answer.legal and not answer.events_known
    assert "cards left in the other hands" in answer.unknowns[0].reason


# --- validation ----------------------------------------------------------------------------------------------------


def _problems(view: object) -> list[tuple[str, str]]:
    with pytest.raises(InvalidInputError) as info:
        complete(rules("classic-2p"), view)  # type: ignore[arg-type]
    return [(p.field, p.description) for p in info.value.problems]


def test_counts_must_add_up_to_the_deck() -> None:
    view = view_of(STATE, 0)
    [(field, why)] = _problems(dataclasses.replace(view, stock_count=view.stock_count + 1))
    assert field == "view"
    assert f"= {rules('classic-2p').deck_size + 1}, not {rules('classic-2p').deck_size}" in why


def test_the_viewers_count_must_be_its_hand() -> None:
    view = view_of(STATE, 0)
    seats = (SeatView(5), *view.seats[1:])
    [(field, why)] = _problems(dataclasses.replace(view, seats=seats, stock_count=view.stock_count - 1))
    assert field == "view.seats[0].hand_count" and "holds 4 cards" in why


def test_more_copies_than_the_deck_holds() -> None:
    view = view_of(STATE, 0)
    nine = parse_cards("9H")[0]
    seats = (SeatView(6), *view.seats[1:])
    problems = _problems(
        dataclasses.replace(view, hand=(*view.hand, nine, nine), seats=seats, stock_count=view.stock_count - 2)
    )
    assert ("view", "3 9H in view; the deck holds 2") in problems


def test_a_wrong_number_of_seats() -> None:
    view = view_of(STATE, 0)
    assert ("view.seats", "has 1 entries; rule set 'classic-2p' has 2 seats") in _problems(
        dataclasses.replace(view, seats=view.seats[:1])
    )


def test_an_inconsistent_view_is_a_failed_precondition_with_view_paths() -> None:
    view = view_of(STATE, 0)
    empty = dataclasses.replace(view, seats=(view.seats[0], SeatView(0)), stock_count=view.stock_count + 3)
    with pytest.raises(InvalidStateError) as info:
        complete(rules("classic-2p"), empty)
    assert "view.seats[1].hand_count" in [p.field for p in info.value.problems]


# --- the API -------------------------------------------------------------------------------------------------------


def _request(view_seat: int, **kw: object) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"),
        view=view_to_proto(view_of(STATE, view_seat)),
        **kw,  # type: ignore[arg-type]
    )


def test_view_round_trips_through_the_wire() -> None:
    view = view_of(STATE, 0)
    assert view_from_proto(view_to_proto(view)) == view


def test_check_action_from_a_view() -> None:
    drew = API.CheckAction(_request(0, action_text="draw"))
    assert drew.legal and not drew.events and not drew.HasField("next_state")
    assert [u.field for u in drew.unknowns] == ["events", "next_state"]
    took = API.CheckAction(_request(0, action_text="take-pile with 9H 9D"))
    assert took.legal and took.events and took.HasField("next_view") and took.notation == "take-pile with 9H 9D"
    hidden = API.CheckAction(_request(1, action_text="draw"))
    assert not hidden.legal and not hidden.violations and hidden.unknowns[0].field == "legal"
    illegal = API.CheckAction(_request(0, action_text="discard KS"))
    assert not illegal.legal and [v.code for v in illegal.violations] == ["WRONG_PHASE"] and not illegal.unknowns


def test_state_and_view_together_are_refused() -> None:
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(_request(0, action_text="draw", state=state_to_proto(STATE)))
    assert [p.field for p in info.value.problems] == ["view"]


def test_list_legal_actions_from_a_view() -> None:
    request = oracle_pb2.ListLegalActionsRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), view=view_to_proto(view_of(STATE, 0))
    )
    full = API.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=state_to_proto(STATE))
    )
    assert API.ListLegalActions(request) == full
    request.view.seat = 1
    request.view.hand[:] = list(STATE.seats[1].hand)
    hidden = API.ListLegalActions(request)
    assert not hidden.actions and [u.field for u in hidden.unknowns] == ["actions"]


def test_score_hand_from_a_view() -> None:
    rule_set, states = record_states(next(p for p in VIEW_RECORDS if p.parent.name == "classic-2p"))
    over = next(s for s in states if s.phase == Phase.HAND_OVER)
    r = rules(rule_set)
    request = oracle_pb2.ScoreHandRequest(
        rule_set=oracle_pb2.RuleSetRef(id=rule_set), view=view_to_proto(view_of(over, 0))
    )
    response = API.ScoreHand(request)
    full = score_hand(r, end_table(r, over))
    assert response.sides[0].total == full[0].total
    hidden_other = len(over.seats[1].hand) > 0
    assert [u.field for u in response.unknowns] == (["sides[1].total"] if hidden_other else [])
    mid_hand = oracle_pb2.ScoreHandRequest(
        rule_set=oracle_pb2.RuleSetRef(id=rule_set), view=view_to_proto(view_of(states[0], 0))
    )
    with pytest.raises(InvalidInputError) as info:
        API.ScoreHand(mid_hand)
    assert [p.field for p in info.value.problems] == ["view.phase"]


def test_a_view_past_the_size_limits_names_its_fields() -> None:
    message = view_to_proto(view_of(STATE, 0))
    message.hand.extend([5] * 200)
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(oracle_pb2.CheckActionRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), view=message))
    assert "view.hand" in [p.field for p in info.value.problems]
    message = view_to_proto(view_of(STATE, 0))
    message.seats.extend([message.seats[0]] * 100)
    with pytest.raises(InvalidInputError) as info:
        API.CheckAction(oracle_pb2.CheckActionRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), view=message))
    assert [p.field for p in info.value.problems] == ["view.seats"]
