"""Hand and Foot (hand-and-foot-4p and its variants) over a real server: melding the hand out into the foot and
walking into it with the last discard, the going-out codes, the legal moves, a foot never taken up and a held red
three scored, a refereed hand, the player's view hiding every foot, an inline rule set extending hand-and-foot-4p,
Adjudicate of the four rule sets on one position, and the sizes the service accepts.

Positions are written in card notation for one rule each, or come from a simulated hand-and-foot-4p hand (a fixed
seed). The server runs in-process (tests/server_harness.py) with its HTTP port open: gRPC and Connect JSON.
"""

from __future__ import annotations

import json

import grpc
import pytest
from google.protobuf import json_format
from hand_and_foot_states import ASKED_YES, CLEAN, DIRTY, FOOT, OPEN
from hand_and_foot_states import foot_state as hf
from helpers import card_list, next_state, simulated_hand
from server_harness import (
    RPC_TIMEOUT,
    CheckRequests,
    HouseRules,
    ServerThread,
    error_details,
    post_json,
    refereed_hand,
    violation_codes,
)
from server_harness import module_server as module_server  # the `server` fixture
from server_harness import module_stub as module_stub  # the `stub` fixture

from oracle.api.v1 import notation_pb2, oracle_pb2, oracle_pb2_grpc, ruleset_pb2, scoring_pb2
from oracle.games.movegen import legal_actions
from oracle.model.actions import parse_action
from oracle.model.state import GameState
from oracle.rules.facts import end_table
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_table import table_from_notation, table_to_proto
from oracle.service.convert_view import view_to_proto

RULE_SET = "hand-and-foot-4p"
SEED = 2  #: the simulated hand-and-foot-4p game whose first hand gives states
REF = oracle_pb2.RuleSetRef(id=RULE_SET)
BOOKS = ("hand-and-foot-4p", "hand-and-foot-13-4p", "hand-and-foot-red-threes-laid-4p", "hand-and-foot-one-each-4p")
_check = CheckRequests(REF)


# --------------------------------------------------------------------------- CheckAction: into the foot


def test_melding_the_hand_out_takes_up_the_foot_and_plays_on(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub
) -> None:
    state = hf("9S 9S 2C", foot=FOOT)
    request = _check(state, "meld 9S 9S 2C")
    response = stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    seat = response.next_state.seats[0]
    assert sorted(seat.hand) == sorted(card_list(FOOT)) and not seat.foot  # the foot is now the hand
    assert response.next_state.seat_to_move == 0 and response.next_state.phase == state_to_proto(state).phase
    assert response.next_state == state_to_proto(next_state(RULE_SET, state, "meld 9S 9S 2C"))
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(request).encode())
    assert status == 200 and answer == json.loads(json_format.MessageToJson(response))


def test_discarding_the_last_hand_card_walks_into_the_foot_for_the_next_turn(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state = hf("KS", foot=FOOT)
    response = stub.CheckAction(_check(state, "discard KS"), timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    nxt = response.next_state
    assert nxt.seat_to_move == 1 and sorted(nxt.seats[0].hand) == sorted(card_list(FOOT)) and not nxt.seats[0].foot
    assert not any(e.HasField("hand_ended") for e in response.events)
    assert nxt == state_to_proto(next_state(RULE_SET, state, "discard KS"))


def test_melding_out_is_foot_not_yet_where_the_foot_comes_only_by_the_discard(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    walking = _house("foot", "continue_after_melding_out", False)
    state = hf("9S 9S 2C", foot=FOOT)
    refused = stub.CheckAction(_check(state, "meld 9S 9S 2C", walking), timeout=RPC_TIMEOUT)
    assert violation_codes(refused) == [("FOOT_NOT_YET", "foot.continue_after_melding_out")]
    assert stub.CheckAction(_check(state, "meld 9S 9S", walking), timeout=RPC_TIMEOUT).legal  # 2C kept to discard


# --------------------------------------------------------------------------- CheckAction: going out


@pytest.mark.parametrize(
    ("name", "state", "codes"),
    [
        (
            "books missing",
            hf("9S", (CLEAN[0], DIRTY[0], *OPEN), turn=ASKED_YES),
            [
                ("GO_OUT_BOOKS_MISSING", "going_out"),
                ("GO_OUT_WITHOUT_CANASTAS", "going_out.canastas_required"),
            ],
        ),
        ("without asking", hf("9S", (*CLEAN, *DIRTY, *OPEN)), [("GO_OUT_WITHOUT_ASKING", "going_out.ask_partner")]),
        ("asked and told yes", hf("9S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES), []),
    ],
)
def test_the_going_out_codes(
    stub: oracle_pb2_grpc.OracleServiceStub, name: str, state: GameState, codes: list[tuple[str, str]]
) -> None:
    response = stub.CheckAction(_check(state, "discard 9S"), timeout=RPC_TIMEOUT)
    assert violation_codes(response) == codes, name
    if not codes:
        ended = [e.hand_ended for e in response.events if e.HasField("hand_ended")]
        assert len(ended) == 1 and ended[0].table.sides[0].went_out == scoring_pb2.WENT_OUT_NORMAL


def test_going_out_before_the_partner_took_up_the_foot_under_a_house_rule(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    both = _house("going_out", "partner_foot_required", True)
    state = hf("9S", (*CLEAN, *DIRTY, *OPEN), partner_foot=FOOT, turn=ASKED_YES)
    refused = stub.CheckAction(_check(state, "discard 9S", both), timeout=RPC_TIMEOUT)
    assert violation_codes(refused) == [("GO_OUT_PARTNER_FOOT_NOT_TAKEN", "going_out.partner_foot_required")]
    assert stub.CheckAction(_check(state, "discard 9S"), timeout=RPC_TIMEOUT).legal  # the rule book lets him out


# --------------------------------------------------------------------------- ListLegalActions, ScoreHand


def test_legal_actions_are_the_engines_from_the_state_and_the_movers_view(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    rules = default_rule_book().get(RULE_SET).rules
    states = [
        *simulated_hand(RULE_SET, SEED).states[1:200:25],
        hf("9S 9S 2C", foot=FOOT),
        hf("9S", (*CLEAN, *DIRTY, *OPEN)),
    ]
    for state in states:
        request = oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(state))
        response = stub.ListLegalActions(request, timeout=RPC_TIMEOUT)
        assert not response.truncated
        assert list(response.actions) == [action_to_proto(a) for a in legal_actions(rules, state)]
        assert response.counts.total == len(response.actions)
        view = oracle_pb2.ListLegalActionsRequest(rule_set=REF, view=view_to_proto(view_of(state, state.seat_to_move)))
        assert stub.ListLegalActions(view, timeout=RPC_TIMEOUT).actions == response.actions
    into_foot = stub.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(hf("9S 9S 2C", foot=FOOT))),
        timeout=RPC_TIMEOUT,
    )
    assert action_to_proto(parse_action("meld 9S 9S 2C")) in into_foot.actions  # melding the whole hand out
    asking = stub.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(hf("9S", (*CLEAN, *DIRTY, *OPEN)))),
        timeout=RPC_TIMEOUT,
    )
    assert asking.counts.ask_partner == 1 and action_to_proto(parse_action("discard 9S")) not in asking.actions


def test_a_foot_never_taken_up_and_a_held_red_three_count_against_the_side(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    """Scored from the state (its end table: a foot not taken up counts as cards held) and from a HandTable."""
    rules = default_rule_book().get(RULE_SET).rules
    state = hf("3H 9S", partner_foot=FOOT)
    table = table_to_proto(end_table(rules, state))
    response = stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=REF, table=table), timeout=RPC_TIMEOUT)
    held = [
        (line.points, line.field)
        for line in response.sides[0].lines
        if line.item == scoring_pb2.SCORE_ITEM_CARDS_IN_HAND
    ]
    assert sum(p for p, _ in held) == -(500 + 5 + 10 + 70)  # 3H held, 9S at 5; 6D 8C and the foot's 70
    written = notation_pb2.HandTableNotation()
    written.sides.add(melds=list(OPEN), hands=["3H 9S", f"6D 8C {FOOT}"])
    written.sides.add(hands=["6C 8D", "6H 8H"])
    by_table = stub.ScoreHand(
        oracle_pb2.ScoreHandRequest(rule_set=REF, table=table_to_proto(table_from_notation(written))),
        timeout=RPC_TIMEOUT,
    )
    assert [s.total for s in by_table.sides] == [s.total for s in response.sides] == [15 - 585, -20]
    laid = oracle_pb2.RuleSetRef(id="hand-and-foot-red-threes-laid-4p")
    with pytest.raises(grpc.RpcError) as info:  # where red threes are laid, none is left in a hand to count
        stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=laid, table=table), timeout=RPC_TIMEOUT)
    assert error_details(info.value, grpc.StatusCode.INVALID_ARGUMENT) == [
        ("table.sides[0].hands[0][0]", "a red three is never kept in hand: it is laid at once")
    ]


# --------------------------------------------------------------------------- RefereeGame, the player's view


def test_a_refereed_hand_and_foot_hand_answers_as_the_engine_does(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    hand = simulated_hand(RULE_SET, SEED)
    answers = refereed_hand(stub, REF, hand.first_dealer, hand.seed, hand.actions)
    assert all(answer.verdict.legal and not answer.error for answer in answers), answers[-1]
    dealt = answers[1].state
    assert [len(seat.hand) for seat in dealt.seats] == [11] * 4 and [len(seat.foot) for seat in dealt.seats] == [11] * 4
    for answer, state in zip(answers[2:], hand.states[1:], strict=True):
        assert answer.state == state_to_proto(state)
    assert any(not seat.foot for seat in hand.states[-1].seats)  # a foot was taken up on the way
    ended = [e for e in answers[-1].verdict.events if e.HasField("hand_ended")]
    assert len(ended) == 1 and len(ended[0].hand_ended.scores) == 2
    assert not answers[-1].game_over  # one hand of the four a game has


def test_the_players_view_hides_every_foot_and_is_judged_as_the_state(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub
) -> None:
    state = hf("9S 9S 2C", foot=FOOT, partner_foot=FOOT.replace("JC", "JD"))
    view = view_to_proto(view_of(state, 0))
    assert [seat.foot_count for seat in view.seats] == [11, 0, 11, 0]
    assert sorted(view.hand) == sorted(card_list("9S 9S 2C"))  # the own foot's cards are hidden from its owner too
    written = json.loads(json_format.MessageToJson(view))
    assert all(set(seat) <= {"handCount", "meldedBefore", "footCount"} for seat in written["seats"])  # counts only
    # melding out is legal, but the foot taken up is cards the view does not show: what follows is unknown
    request = oracle_pb2.CheckActionRequest(rule_set=REF, view=view, action_text="meld 9S 9S 2C")
    response = stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert response.legal and not response.HasField("next_state") and not response.HasField("next_view")
    assert [(u.field, u.reason) for u in response.unknowns] == [
        ("events", "the foot taken up is hidden"),
        ("next_state", "the foot taken up is hidden"),
    ]
    # keeping a card, the next view still shows both feet by their count
    keep = oracle_pb2.CheckActionRequest(rule_set=REF, view=view, action_text="meld 9S 9S")
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(keep).encode())
    assert status == 200 and answer["legal"]
    assert [seat.get("footCount", 0) for seat in answer["nextView"]["seats"]] == [11, 0, 11, 0]
    assert answer["nextView"]["hand"] == ["CARD_2C"]
    by_state = stub.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(state)), timeout=RPC_TIMEOUT
    )
    by_view = stub.ListLegalActions(oracle_pb2.ListLegalActionsRequest(rule_set=REF, view=view), timeout=RPC_TIMEOUT)
    assert by_view.actions == by_state.actions


# --------------------------------------------------------------------------- inline rule sets, Adjudicate


_house = HouseRules(
    RULE_SET, "hf-house", "Hand and Foot, a house rule", ("THERMOPIR-HF", "Going out")
)  #: one field changed


def test_an_inline_rule_set_extending_hand_and_foot_is_judged_by_its_field(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state = hf("9S", (*CLEAN, *DIRTY, *OPEN))
    unasked = _house("going_out", "ask_partner", ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING)
    assert violation_codes(stub.CheckAction(_check(state, "discard 9S"), timeout=RPC_TIMEOUT)) == [
        ("GO_OUT_WITHOUT_ASKING", "going_out.ask_partner")
    ]
    assert stub.CheckAction(_check(state, "discard 9S", unasked), timeout=RPC_TIMEOUT).legal
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(state), action_text="discard 9S", rule_sets=[REF, unasked]
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    assert [(v.rule_set_id, v.verdict.legal) for v in response.verdicts] == [(RULE_SET, False), ("hf-house", True)]
    assert [(f.field, list(f.values)) for f in response.deciding_fields] == [
        ("going_out.ask_partner", ["ASK_PARTNER_REQUIRED_BINDING", "ASK_PARTNER_OPTIONAL_BINDING"])
    ]


def test_an_inline_rule_set_whose_quotas_do_not_add_up_is_refused(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    bad = _house("going_out", "natural_canastas_required", 3)
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(_check(hf("9S"), "discard 9S", bad), timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "going_out" in (info.value.details() or "")


def test_adjudicate_the_four_hand_and_foot_books_on_one_position(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """One book of each kind, every foot taken up (so feet of 11 and of 13 alike fit): only the one-each book lets
    the side out, and the quotas are the deciding fields."""
    state = hf("9S", (CLEAN[0], DIRTY[0], *OPEN), turn=ASKED_YES)
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(state),
        action_text="discard 9S",
        rule_sets=[oracle_pb2.RuleSetRef(id=book) for book in BOOKS],
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    assert [(v.rule_set_id, v.applicable, v.verdict.legal) for v in response.verdicts] == [
        ("hand-and-foot-4p", True, False),
        ("hand-and-foot-13-4p", True, False),
        ("hand-and-foot-red-threes-laid-4p", True, False),
        ("hand-and-foot-one-each-4p", True, True),
    ]
    assert [f.field for f in response.deciding_fields] == [
        "going_out.canastas_required",
        "going_out.natural_canastas_required",
        "going_out.mixed_canastas_required",
    ]
    with_foot = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(hf("9S 9S 2C", foot=FOOT)),
        action_text="meld 9S 9S 2C",
        rule_sets=[oracle_pb2.RuleSetRef(id=book) for book in BOOKS],
    )
    verdicts = {v.rule_set_id: v for v in stub.Adjudicate(with_foot, timeout=RPC_TIMEOUT).verdicts}
    assert not verdicts["hand-and-foot-13-4p"].applicable  # a foot of 11 cards is not one of 13
    assert "foot.size" in verdicts["hand-and-foot-13-4p"].not_applicable
    assert all(verdicts[book].verdict.legal for book in BOOKS if book != "hand-and-foot-13-4p")


# --------------------------------------------------------------------------- sizes


def test_the_service_accepts_the_hand_and_foot_sizes(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """A 270-card deck, a player holding 22 cards (a hand of 11 and a foot of 11 together in hand), and a take of
    the pile that gives seven cards."""
    deal_answer = stub.DealHand(oracle_pb2.DealHandRequest(rule_set=REF, seed=5), timeout=RPC_TIMEOUT)
    dealt = deal_answer.state
    counted = sum(len(s.hand) + len(s.foot) for s in dealt.seats) + len(dealt.stock) + len(dealt.discard_pile)
    assert counted == 270 and [len(s.hand) + len(s.foot) for s in dealt.seats] == [22] * 4
    big = hf(f"{FOOT} 7C 7D 7H 7S 7C 7D 7H 7S AC AD AH")
    assert len(big.seats[0].hand) == 22
    valid = stub.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=REF, state=state_to_proto(big)))
    assert valid.valid, valid.problems
    take = hf("QH QD 4S", phase="PHASE_DRAW", pile="5H 6H 7H 8H 9H TH JH KS KD QS")
    taken = stub.CheckAction(_check(take, "take-pile with QH QD"), timeout=RPC_TIMEOUT)
    assert taken.legal, taken.violations
    pile_taken = next(e.pile_taken for e in taken.events if e.HasField("pile_taken"))
    assert len(pile_taken.to_hand) == 6  # the top card melded, the six under it to the hand: seven in all
    assert list(taken.next_state.discard_pile) == card_list("5H 6H 7H")  # the rest of the pile stays
    with pytest.raises(grpc.RpcError) as info:
        stub.DealHand(oracle_pb2.DealHandRequest(rule_set=_house("foot", "size", 31), seed=5), timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "foot.size" in (info.value.details() or "")


def test_get_minimum_initial_meld_of_a_rule_set_with_a_minimum_by_hand(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    answer = stub.GetMinimumInitialMeld(
        oracle_pb2.GetMinimumInitialMeldRequest(rule_set=REF, running_total=0), timeout=RPC_TIMEOUT
    )
    assert answer.minimum == 50  # the first hand's minimum (the running total plays no part)
    assert answer.by_hand == 1 and not answer.HasField("from_score")
    fourth = stub.GetMinimumInitialMeld(
        oracle_pb2.GetMinimumInitialMeldRequest(rule_set=REF, running_total=-300, hand_number=4), timeout=RPC_TIMEOUT
    )
    assert (fourth.minimum, fourth.by_hand) == (150, 4)
    later = stub.GetMinimumInitialMeld(
        oracle_pb2.GetMinimumInitialMeldRequest(rule_set=REF, hand_number=9), timeout=RPC_TIMEOUT
    )
    assert (later.minimum, later.by_hand) == (150, 4)  # the last entry holds for every later hand
    classic = stub.GetMinimumInitialMeld(
        oracle_pb2.GetMinimumInitialMeldRequest(
            rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), running_total=1500, hand_number=3
        ),
        timeout=RPC_TIMEOUT,
    )
    assert (classic.minimum, classic.from_score, classic.HasField("by_hand")) == (90, 1500, False)
