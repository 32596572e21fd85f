"""A RefereeGame answer's verdict written in place (oracle.service.referee_answer) gives the bytes of
verdict_to_proto's message, and its notation is format_action's, for every event, violation list and action."""

from __future__ import annotations

import re

import pytest

from oracle.api.v1 import oracle_pb2
from oracle.games.deal import deal
from oracle.games.match import deck_order
from oracle.games.notation import notation
from oracle.games.simulate import simulate_game
from oracle.model.actions import (
    AnswerPartner,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
    format_action,
)
from oracle.model.events import CanastaMade, CardsDrawn, Event, PileTaken, RedThreeLaid
from oracle.rules.candidates import candidates
from oracle.rules.referee import Verdict, check_action
from oracle.rules.violations import Code, Violation
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import verdict_to_proto
from oracle.service.referee_answer import fill_verdict

BOOK = default_rule_book()


def _in_place(verdict: Verdict, limit: int) -> bytes:
    response = oracle_pb2.RefereeGameResponse()
    fill_verdict(response.verdict, verdict.legal, verdict.violations, verdict.events, limit)
    return response.SerializeToString()


def _copied(verdict: Verdict, limit: int) -> bytes:
    response = oracle_pb2.RefereeGameResponse()
    response.verdict.CopyFrom(verdict_to_proto(Verdict(verdict.legal, verdict.violations, verdict.events, None), limit))
    return response.SerializeToString()


def _verdicts(rule_set: str, seed: int) -> list[Verdict]:
    """Every recorded action's verdict of a simulated game, and some candidates' (illegal ones among them)."""
    rules = BOOK.get(rule_set).rules
    record = simulate_game(rules, seed, max_hands=2).record
    out = []
    for hand in record.hands:
        state = deal(rules, deck_order(rules, hand.deck), dealer=0)
        for i, action in enumerate(hand.actions):
            if i % 7 == 0:
                out.extend(check_action(rules, state, c, validate=False) for c in candidates(rules, state)[:20])
            verdict = check_action(rules, state, action, validate=False)
            out.append(verdict)
            if verdict.next_state is None:
                break
            state = verdict.next_state
    return out


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p", "wild-melds-4p"])
def test_the_verdict_written_in_place_has_the_bytes_of_the_copied_message(rule_set: str) -> None:
    verdicts = _verdicts(rule_set, 11)
    kinds = {type(e) for v in verdicts for e in v.events}
    assert len(kinds) >= 4 and any(not v.legal for v in verdicts)
    for verdict in verdicts:
        for limit in (1, 2, 100):
            assert _in_place(verdict, limit) == _copied(verdict, limit)


def test_events_at_their_default_values_and_many_violations_are_written_alike() -> None:
    events: tuple[Event, ...] = (
        CardsDrawn(0, ()),
        RedThreeLaid(0, 0, False),
        PileTaken(0, 0, ()),
        CanastaMade(0, (), False),
        CardsDrawn(3, (1, 2, 53)),
        PileTaken(1, 7, (7, 8)),
    )
    violation = Violation(next(iter(Code)), "f", "why")
    many = (violation,) * 5 + (Violation(violation.code, "g", "other", (("SRC", "sec"),)),) * 3
    for verdict in (Verdict(True, (), events, None), Verdict(False, many, (), None), Verdict(True, (), (), None)):
        for limit in (1, 3, 100):
            assert _in_place(verdict, limit) == _copied(verdict, limit)


def test_the_notation_is_format_actions_for_every_kind_of_action() -> None:
    actions = [
        Draw(),
        AskPartner(),
        Finish(),
        PickUpPile(),
        AnswerPartner(True),
        AnswerPartner(False),
        Meld((MeldGroup((5, 6, 7)),)),
        Meld((MeldGroup((5, 6), onto_rank=1),)),
        TakePile((9, 10), (MeldGroup((1, 2, 3)),)),
        TakePile((), ()),
        TakePile((53,), ()),
        TakePile((), (MeldGroup((53, 52), onto_rank=12), MeldGroup((4, 8, 12)))),
        Meld((MeldGroup((1, 2, 3)), MeldGroup((53,), onto_rank=0), MeldGroup((), onto_rank=-1))),
        Meld(()),
    ]
    actions += [Discard(card) for card in range(1, 54)]
    for _ in range(2):  # the second time from what was remembered
        for action in actions:
            assert notation(action) == format_action(action)
        for bad in (
            *(Discard(card) for card in (0, 54, -1)),
            Meld((MeldGroup((1, 99)),)),
            Meld((MeldGroup((1,), onto_rank=13),)),
            TakePile((0,), ()),
            TakePile((), (MeldGroup((5, 60)),)),
        ):
            with pytest.raises((ValueError, IndexError)) as raised:
                format_action(bad)
            with pytest.raises(raised.type, match=re.escape(str(raised.value))):
                notation(bad)
