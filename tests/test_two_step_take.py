"""The two-step take of the pile (pick-up-pile, then a meld with the top card): judged exactly as the combined
take-pile action, with TWO_STEP_TAKE_INCOMPLETE when the second step does not follow."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from helpers import make_state, rules
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from record_states import RECORDS, record_states

import oracle
from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.games.deal import deal
from oracle.games.live import LiveGame
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions
from oracle.games.record import GameRecord, HandRecord
from oracle.games.replay import replay
from oracle.model.actions import (
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
    parse_action,
    second_step_meld,
    take_of_second_step,
)
from oracle.model.cards import is_red_three, is_wild, make_card, rank_of
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState, Phase, TurnStart, TurnState
from oracle.rules.candidates import take_pile_candidates
from oracle.rules.referee import Verdict, check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_from_proto, action_to_proto, state_from_proto, state_to_proto
from oracle.service.convert_record import record_to_proto

PICK_UP = PickUpPile()


def _two(hand: str, *, melds: tuple[str, ...] = ("KC KD KH",), pile: str = "5C 9S") -> GameState:
    """classic-2p, seat 0 to move in the draw phase, side 0 with the given melds."""
    return make_state("classic-2p", hands=[hand, "6C 7D"], melds=[list(melds), []], pile=pile)


def _picked(state: GameState, rule_set: str = "classic-2p") -> GameState:
    verdict = check_action(rules(rule_set), state, PICK_UP)
    assert verdict.legal, verdict.violations
    assert verdict.next_state == dataclasses.replace(state, phase=Phase.MELD_PILE_TOP)
    assert verdict.events == ()
    return verdict.next_state


def _codes(verdict: Verdict) -> list[str]:
    return [v.code for v in verdict.violations]


# --- the two forms agree -----------------------------------------------------------------------------------------


def test_the_two_steps_lead_where_the_combined_take_leads() -> None:
    state = _two("9H 9D KS QS")
    combined = check_action(rules("classic-2p"), state, parse_action("take-pile with 9H 9D"))
    second = check_action(rules("classic-2p"), _picked(state), parse_action("meld 9S 9H 9D"))
    assert combined.legal and second.legal
    assert second.next_state == combined.next_state
    assert second.events == combined.events
    assert second.next_state is not None and second.next_state.turn.start == TurnStart.TOOK_PILE


def test_the_top_card_may_stand_anywhere_in_any_group() -> None:
    # Taking the 9S with the natural pair while laying the initial queens: the top card's group comes second.
    state = make_state("classic-2p", hands=["9H 9D QH QD QS KS", "6C 7D"], pile="5C 9S")
    combined = check_action(rules("classic-2p"), state, parse_action("take-pile with 9H 9D meld QH QD QS"))
    second = check_action(rules("classic-2p"), _picked(state), parse_action("meld QH QD QS, 9H 9S 9D"))
    assert combined.legal and second.legal
    assert second.next_state == combined.next_state


def test_an_illegal_second_step_breaks_what_the_combined_take_breaks() -> None:
    # Frozen to a side with no melds: a natural and a wild will not take it, in one step or in two.
    state = make_state("classic-2p", hands=["9H JK QH QD QS KS", "6C 7D"], pile="5C 2D 9S")
    combined = check_action(rules("classic-2p"), state, parse_action("take-pile with 9H JK meld QH QD QS"))
    second = check_action(
        rules("classic-2p"),
        dataclasses.replace(state, phase=Phase.MELD_PILE_TOP),
        parse_action("meld 9S 9H JK, QH QD QS"),
    )
    assert not combined.legal and not second.legal
    assert second.violations == combined.violations


def test_a_mixed_top_group_is_illegal_not_malformed() -> None:
    # As the combined take "take-pile with 9H KD" is judged (PILE_TOP_NOT_MELDED), not refused as malformed.
    state = _two("9H KD KS QS")
    combined = check_action(rules("classic-2p"), state, parse_action("take-pile with 9H KD"))
    second = check_action(rules("classic-2p"), _picked(_two("9H 9D KD KS QS")), parse_action("meld 9S 9H KD"))
    assert "PILE_TOP_NOT_MELDED" in _codes(combined)
    assert "PILE_TOP_NOT_MELDED" in _codes(second)


def test_the_other_groups_are_still_shape_checked_with_their_own_paths() -> None:
    state = _picked(_two("9H 9D KS QS JH JD"))
    with pytest.raises(InvalidInputError) as info:
        check_action(rules("classic-2p"), state, parse_action("meld 9S 9H 9D, KS QS JH"))
    assert [p.field for p in info.value.problems] == ["action.meld.groups[1]"]


def test_conversions_are_inverse() -> None:
    take = TakePile((26, 27), (MeldGroup((41, 42, 43)),))
    assert take_of_second_step(28, second_step_meld(28, take)) == take
    assert take_of_second_step(28, Meld((MeldGroup((41, 42, 43)),))) is None


# --- the violation ---------------------------------------------------------------------------------------------


def test_anything_but_a_meld_after_the_first_step() -> None:
    pending = _picked(_two("9H 9D KS QS"))
    for text in ("draw", "discard KS", "take-pile with 9H 9D", "pick-up-pile", "ask"):
        verdict = check_action(rules("classic-2p"), pending, parse_action(text))
        assert _codes(verdict) == ["TWO_STEP_TAKE_INCOMPLETE"], text
        assert verdict.violations[0].field == "discard_pile"
        assert f"the top card 9S, not '{text}'" in verdict.violations[0].explanation
        assert verdict.violations[0].cite, "the rule note on discard_pile is cited"


def test_a_meld_without_the_top_card() -> None:
    pending = _picked(_two("9H 9D QH QD QS"))
    verdict = check_action(rules("classic-2p"), pending, parse_action("meld QH QD QS"))
    assert _codes(verdict) == ["TWO_STEP_TAKE_INCOMPLETE"]
    assert "must include the top card 9S: 'meld QH QD QS' does not" in verdict.violations[0].explanation


def test_the_first_step_needs_a_way_to_take_the_pile() -> None:
    verdict = check_action(rules("classic-2p"), _two("QH QD KS QS", melds=()), PICK_UP)
    assert _codes(verdict) == ["TWO_STEP_TAKE_INCOMPLETE"]
    assert "no way of melding the top card 9S from seat 0's hand is legal" in verdict.violations[0].explanation


@pytest.mark.parametrize(
    ("pile", "code"),
    [("5C 2D", "PILE_TOP_WILD"), ("5C 3C", "PILE_TOP_BLACK_THREE"), ("", "PILE_EMPTY")],
)
def test_the_first_step_reports_what_no_cards_can_avoid(pile: str, code: str) -> None:
    verdict = check_action(rules("classic-2p"), _two("9H 9D KS QS", pile=pile), PICK_UP)
    assert _codes(verdict) == [code]


def test_the_first_step_only_starts_a_turn() -> None:
    drew = check_action(rules("classic-2p"), _two("9H 9D KS QS"), parse_action("draw")).next_state
    assert drew is not None
    assert _codes(check_action(rules("classic-2p"), drew, PICK_UP)) == ["WRONG_PHASE"]


def test_state_check_of_the_pending_phase() -> None:
    pending = _picked(_two("9H 9D KS QS"))
    assert validate_state(rules("classic-2p"), pending) == []
    busy = dataclasses.replace(pending, turn=TurnState(start=TurnStart.DREW))
    assert [p.field for p in validate_state(rules("classic-2p"), busy)] == ["state.turn"]


# --- legal moves, the wire, the live referee, replay -------------------------------------------------------------


def test_legal_moves_in_the_pending_phase_are_the_takes_as_second_steps() -> None:
    state = _two("9H 9D JK KS QS")
    takes = [a for a in legal_actions(rules("classic-2p"), state) if isinstance(a, TakePile)]
    seconds = legal_actions(rules("classic-2p"), _picked(state))
    assert takes and seconds == [second_step_meld(state.discard_pile[-1], t) for t in takes]


def test_wire_round_trip() -> None:
    message = action_to_proto(PICK_UP)
    assert message.WhichOneof("kind") == "pick_up_pile"
    assert action_from_proto(message) == PICK_UP
    pending = _picked(_two("9H 9D KS QS"))
    wire = state_to_proto(pending)
    assert wire.phase == game_pb2.PHASE_MELD_PILE_TOP
    assert state_from_proto(wire) == pending


def test_live_referee_accepts_both_forms() -> None:
    game = LiveGame.start(rules("classic-2p"), 0)
    game.deal(_deck_where_the_pile_can_be_taken())
    assert game.state is not None
    before = game.state
    take = next(a for a in legal_actions(game.rules, before) if isinstance(a, TakePile))
    assert game.act(PICK_UP).legal
    refused = game.act(parse_action("draw"))
    assert _codes(refused) == ["TWO_STEP_TAKE_INCOMPLETE"] and game.state.phase == Phase.MELD_PILE_TOP
    assert game.act(second_step_meld(before.discard_pile[-1], take)).legal
    assert game.state == check_action(game.rules, before, take).next_state


def _deck_where_the_pile_can_be_taken() -> DeckSource:
    """A seed whose first turn can take the pile (found by trying seeds in order)."""
    for candidate in range(200):
        source = DeckSource(seed=candidate)
        state = deal(rules("classic-2p"), deck_order(rules("classic-2p"), source), dealer=0)
        if any(isinstance(a, TakePile) for a in legal_actions(rules("classic-2p"), state)):
            return source
    raise AssertionError("no seed below 200 lets the first player take the pile")


def test_replay_accepts_the_two_step_form() -> None:
    # A shipped record with every take-pile written as pick-up-pile and the meld of the top card.
    path = RECORDS[0]
    record = oracle.load_record(path)
    _, states = record_states(path)
    hands, at = [], 0
    for hand in record.hands:
        actions = []
        for action in hand.actions:
            state = states[at]
            at += 1
            if isinstance(action, TakePile):
                actions += [PICK_UP, second_step_meld(state.discard_pile[-1], action)]
            else:
                actions.append(action)
        at += 1  # the state at the hand's end
        hands.append(dataclasses.replace(hand, actions=tuple(actions)))
    split = GameRecord(record.rule_set_id, record.first_dealer, tuple(hands), record.claimed_winner)
    assert sum(len(h.actions) for h in split.hands) > sum(len(h.actions) for h in record.hands)
    rule_set = rules(record.rule_set_id)
    original, two_step = replay(rule_set, record), replay(rule_set, split)
    assert original.ok and two_step.ok, two_step.disagreements[:1]
    assert two_step.standing == original.standing


def _first_turn() -> tuple[DeckSource, GameState, list[int]]:
    """A classic-2p deal whose first player can take the pile, and the indices of natural cards of that player's
    hand of distinct ranks other than the pile's top card."""
    source = _deck_where_the_pile_can_be_taken()
    state = deal(rules("classic-2p"), deck_order(rules("classic-2p"), source), dealer=0)
    hand, top = state.seats[state.seat_to_move].hand, state.discard_pile[-1]
    others: list[int] = []
    for card in hand:
        ranks = {rank_of(c) for c in others} | {rank_of(top)}
        if not is_wild(card) and not is_red_three(card) and rank_of(card) not in ranks:
            others.append(card)
    return source, state, others


def _second_step_record(source: DeckSource, *groups: tuple[int, ...]) -> GameRecord:
    """A classic-2p record: pick-up-pile, then a meld of `groups`."""
    meld = Meld(tuple(MeldGroup(group) for group in groups))
    return GameRecord("classic-2p", 0, (HandRecord(source, (PICK_UP, meld)),))


def test_replay_judges_a_mixed_top_group_as_the_take_not_as_malformed() -> None:
    # The second step "meld <top> X Y" with X and Y of other ranks: judged as "take-pile with X Y", as CheckAction
    # and RefereeGame judge it, never refused as a malformed record.
    source, state, (x, y, *_) = _first_turn()
    record = _second_step_record(source, (state.discard_pile[-1], x, y))
    report = replay(rules("classic-2p"), record)
    [disagreement] = report.disagreements
    assert (disagreement.hand, disagreement.index, disagreement.kind) == (0, 1, "illegal action")
    codes = [v.code for v in disagreement.violations]
    assert "PILE_TOP_NOT_MELDED" in codes
    api = OracleApi(default_rule_book())
    over_the_api = api.ReplayGame(oracle_pb2.ReplayGameRequest(record=record_to_proto(record)))
    assert [v.code for v in over_the_api.report.disagreements[0].violations] == codes


def test_a_second_step_no_top_card_could_shape_is_refused_before_replay() -> None:
    source, state, (a, b, c, d, *_) = _first_turn()
    record = _second_step_record(source, (state.discard_pile[-1], a, b), (c, d))  # (c, d) is no meld, whatever top
    with pytest.raises(InvalidInputError) as info:
        replay(rules("classic-2p"), record)
    fields = [p.field for p in info.value.problems]
    assert fields == ["record.hands[0].actions[1].meld.groups[0]", "record.hands[0].actions[1].meld.groups[1]"]


def test_a_second_step_shaped_only_for_another_top_card_is_refused_during_replay_with_record_paths() -> None:
    # Well shaped if the top card were in the second group; it is in the first, so the second is a meld of its own.
    source, state, (c, d, *_) = _first_turn()
    top = state.discard_pile[-1]
    same = tuple(make_card(rank_of(top), suit) for suit in range(4) if make_card(rank_of(top), suit) != top)[:2]
    record = _second_step_record(source, (top, *same), (c, d))
    with pytest.raises(InvalidInputError) as info:
        replay(rules("classic-2p"), record)
    assert [p.field for p in info.value.problems] == ["record.hands[0].actions[1].meld.groups[1]"]


# --- the property --------------------------------------------------------------------------------------------------


def _draw_states() -> list[tuple[str, GameState]]:
    out = []
    for path in RECORDS[::4]:
        rule_set, states = record_states(path)
        out += [(rule_set, s) for s in states if s.phase == Phase.DRAW and s.discard_pile]
    return out


DRAW_STATES = _draw_states()


@st.composite
def _take_on_a_state(draw: st.DrawFn) -> tuple[str, GameState, TakePile]:
    rule_set, state = draw(st.sampled_from(DRAW_STATES))
    candidates = take_pile_candidates(rules(rule_set), state)
    hand = state.seats[state.seat_to_move].hand
    if candidates and draw(st.booleans()):
        return rule_set, state, draw(st.sampled_from(candidates))
    picked = draw(st.lists(st.sampled_from(range(len(hand))), max_size=3, unique=True))
    return rule_set, state, TakePile(tuple(hand[i] for i in picked))


@seed(15)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(_take_on_a_state())
def test_two_steps_are_legal_iff_the_combined_take_is(case: tuple[str, GameState, TakePile]) -> None:
    rule_set, state, take = case
    r = rules(rule_set)
    combined = check_action(r, state, take, validate=False)
    first = check_action(r, state, PICK_UP, validate=False)
    if not first.legal:
        assert not combined.legal
        assert not any(check_action(r, state, t, validate=False).legal for t in take_pile_candidates(r, state))
        return
    assert first.next_state is not None
    second = check_action(r, first.next_state, second_step_meld(state.discard_pile[-1], take), validate=False)
    assert second.legal == combined.legal
    assert second.violations == combined.violations
    assert second.next_state == combined.next_state
    assert second.events == combined.events


def test_the_property_sees_both_outcomes() -> None:
    # The sample of states holds pile takes that are legal and ones that are not (the property is not vacuous).
    outcomes = set()
    for rule_set, state in DRAW_STATES[:200]:
        outcomes.add(check_action(rules(rule_set), state, PICK_UP, validate=False).legal)
    assert outcomes == {True, False}


def test_record_states_cover_every_shipped_rule_set_family() -> None:
    assert {Path(p).parent.name for p in RECORDS} >= {"classic-2p", "classic-4p"}
