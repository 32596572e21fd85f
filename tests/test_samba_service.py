"""Samba (samba-4p) over a real server: runs, named meld targets, the pile onto a run and combining judged over gRPC
and Connect, the legal moves with their combine count, a samba and red threes scored, a refereed hand, inline rule
sets that extend samba-4p, and Adjudicate against classic-4p.

The positions are written in card notation for one rule each, or come from simulated samba-4p hands (fixed seeds;
tests/samba_states.py). The server runs in-process (tests/server_harness.py) with its HTTP port open.
"""

from __future__ import annotations

import json

import grpc
import pytest
from google.protobuf import json_format
from helpers import card_list, next_state
from samba_states import RULE_SET, position, samba_hands
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

from oracle.api.v1 import notation_pb2, oracle_pb2, oracle_pb2_grpc, scoring_pb2
from oracle.games.movegen import legal_actions
from oracle.model.actions import Combine, parse_action
from oracle.model.state import is_run
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto, state_from_proto, state_to_proto
from oracle.service.convert_table import table_from_notation, table_to_proto
from oracle.service.convert_view import view_to_proto

REF = oracle_pb2.RuleSetRef(id=RULE_SET)
CLASSIC = oracle_pb2.RuleSetRef(id="classic-4p")


_check = CheckRequests(REF)


#: Seat 0 holds a run of hearts from five up; side 0 has a meld of jacks.
RUN_HAND = ("5H 6H 7H 8H QD QS KH KD KS 9C", ("JH JD JS",))
#: Side 0 has jacks (meld 1), the run 9H TH JH (meld 2) and a canasta of queens (meld 3); seat 0 is to draw.
PILE_MELDS = ("JH JD JS", "9H TH JH", "QH QC QD QS 2C QH QC")
PILE_HAND = "5H 6H 7H QD QS 9C 9S 4D"
#: Two melds of queens (1 and 2, together a canasta), a run (3) and kings (4).
COMBINE = ("5H 6H 7H 9C", ("QH QD QS", "QC QD QS 2C", "9H TH JH", "KH KD KS"))


# --------------------------------------------------------------------------- CheckAction: runs, targets, combining


def test_a_run_is_laid_and_its_breaks_are_named(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position(*RUN_HAND)
    response = stub.CheckAction(_check(state, "meld 5H 6H 7H 8H"), timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    melds = [sorted(m.cards) for m in response.next_state.sides[0].melds]
    assert melds == [sorted(card_list("JH JD JS")), sorted(card_list("5H 6H 7H 8H"))]
    assert is_run(state_from_proto(response.next_state).sides[0].melds[1])
    assert response.next_state == state_to_proto(next_state(RULE_SET, state, "meld 5H 6H 7H 8H"))
    broken = {
        "meld 5H 6H 8H": [("RUN_NOT_CONSECUTIVE", "runs.min_size")],
        "meld 5H 6H 7H 8H 9C": [("RUN_MIXED_SUITS", "runs.min_size")],
    }
    for text, codes in broken.items():
        answer = stub.CheckAction(_check(state, text), timeout=RPC_TIMEOUT)
        assert not answer.legal and not answer.HasField("next_state")
        assert violation_codes(answer) == codes, text
    wild = stub.CheckAction(_check(position("5H 6H 2C 9C KH", ("JH JD JS",)), "meld 5H 6H 2C"), timeout=RPC_TIMEOUT)
    assert violation_codes(wild) == [("RUN_WILD_CARD", "runs")]
    assert "1 wild card" in wild.violations[0].explanation


def test_cards_join_a_named_meld_or_start_a_new_one(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position("7H 8H JC QD QS KH KD KS 9C", ("JH JD JS", "9H TH JH"))
    onto_run = stub.CheckAction(_check(state, "meld 7H 8H to 2"), timeout=RPC_TIMEOUT)
    assert onto_run.legal, onto_run.violations
    assert sorted(onto_run.next_state.sides[0].melds[1].cards) == sorted(card_list("7H 8H 9H TH JH"))
    new = stub.CheckAction(_check(state, "meld new KH KD KS"), timeout=RPC_TIMEOUT)
    assert new.legal and len(new.next_state.sides[0].melds) == 3
    assert violation_codes(stub.CheckAction(_check(state, "meld JC to 2"), timeout=RPC_TIMEOUT)) == [
        ("RUN_MIXED_SUITS", "runs.min_size"),
        ("RUN_NOT_CONSECUTIVE", "runs.min_size"),
    ]
    missing = stub.CheckAction(_check(state, "meld JC to 5"), timeout=RPC_TIMEOUT)
    assert violation_codes(missing) == [("MELD_NO_SUCH_MELD", "melds.one_meld_per_rank")]
    assert "the side has 2 meld(s)" in missing.violations[0].explanation


def test_the_top_card_goes_alone_onto_a_run_and_never_onto_a_canasta(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position(PILE_HAND, PILE_MELDS, draw=True, pile="4C 8H")
    taken = stub.CheckAction(_check(state, "take-pile to 2"), timeout=RPC_TIMEOUT)
    assert taken.legal, taken.violations
    assert [e.WhichOneof("kind") for e in taken.events] == ["pile_taken"]
    assert sorted(taken.next_state.sides[0].melds[1].cards) == sorted(card_list("8H 9H TH JH"))
    assert card_list("4C")[0] in taken.next_state.seats[0].hand  # the rest of the pile goes to the hand
    assert taken.next_state == state_to_proto(next_state(RULE_SET, state, "take-pile to 2"))
    refused = {
        "take-pile with 7H to 2": [("PILE_TOP_RUN_WITH_HAND_CARDS", "runs.pile_top_alone")],
        "take-pile to 1": [("MELD_TARGET_OTHER_RANK", "melds.one_meld_per_rank")],
        "take-pile with 6H 7H": [
            ("PILE_TOP_CANNOT_START_RUN", "runs.pile_top_alone"),
            ("PILE_TOP_NOT_MELDED", "discard_pile"),
        ],
    }
    for text, codes in refused.items():
        assert violation_codes(stub.CheckAction(_check(state, text), timeout=RPC_TIMEOUT)) == codes, text
    queens = position(PILE_HAND, PILE_MELDS, draw=True, pile="4C QH")
    onto_canasta = stub.CheckAction(_check(queens, "take-pile to 3"), timeout=RPC_TIMEOUT)
    assert violation_codes(onto_canasta) == [
        ("PILE_ONTO_CANASTA_NOT_ALLOWED", "discard_pile.onto_meld_below_canasta_only")
    ]
    pair = stub.CheckAction(_check(queens, "take-pile with new QD QS"), timeout=RPC_TIMEOUT)
    assert pair.legal and sorted(pair.next_state.sides[0].melds[3].cards) == sorted(card_list("QH QD QS"))


def test_two_melds_of_a_rank_are_combined_into_a_canasta(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position(*COMBINE)
    combined = stub.CheckAction(_check(state, "combine 1 2"), timeout=RPC_TIMEOUT)
    assert combined.legal, combined.violations
    assert [e.WhichOneof("kind") for e in combined.events] == ["canasta_made"]
    melds = [sorted(m.cards) for m in combined.next_state.sides[0].melds]
    assert melds[0] == sorted(card_list("QH QD QS QC QD QS 2C")) and len(melds) == 3
    assert combined.next_state == state_to_proto(next_state(RULE_SET, state, "combine 1 2"))
    for text, explained in [("combine 1 3", "meld 3 is a run"), ("combine 1 4", "meld 4 is of kings")]:
        answer = stub.CheckAction(_check(state, text), timeout=RPC_TIMEOUT)
        assert violation_codes(answer) == [("COMBINE_DIFFERENT_RANKS", "melds.combine_same_rank")]
        assert explained in answer.violations[0].explanation
    no_such = stub.CheckAction(_check(state, "combine 1 7"), timeout=RPC_TIMEOUT)
    assert violation_codes(no_such) == [("MELD_NO_SUCH_MELD", "melds.one_meld_per_rank")]
    too_wild = position("5H 6H 7H 9C", ("QH QD 2C", "QC QD 2S JK"))
    assert violation_codes(stub.CheckAction(_check(too_wild, "combine 1 2"), timeout=RPC_TIMEOUT)) == [
        ("COMBINE_BREAKS_MELD", "melds.combine_same_rank")
    ]
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(_check(state, "combine 2 2"), timeout=RPC_TIMEOUT)
    assert error_details(info.value, grpc.StatusCode.INVALID_ARGUMENT) == [
        ("action.combine.second", "names meld 2 twice: combine two different melds")
    ]


@pytest.mark.parametrize(
    ("text", "ranks"), [("meld 5H 6H 8H", "fives, sixes, eights"), ("meld KH QD QS", "queens, kings")]
)
def test_a_mixed_rank_group_under_classic_4p_is_invalid_argument(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub, text: str, ranks: str
) -> None:
    """Natural cards of several ranks that are no run (a gap, two suits) are no meld in any rule set without runs:
    malformed input, with a BadRequest naming the group, over gRPC and Connect."""
    state = position(*RUN_HAND, rule_set="classic-4p")
    request = _check(state, text, CLASSIC)
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(request, timeout=RPC_TIMEOUT)
    cards = text.removeprefix("meld ")
    assert error_details(info.value, grpc.StatusCode.INVALID_ARGUMENT) == [
        ("action.meld.groups[0]", f"cards of different ranks ({ranks}) in one meld: {cards}")
    ]
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(request).encode())
    assert (status, answer["code"]) == (400, "invalid_argument")
    assert f"cards of different ranks ({ranks}) in one meld" in answer["message"]


# --------------------------------------------------------------------------- Connect (HTTP/JSON)


@pytest.mark.parametrize(
    ("hand", "melds", "draw", "pile", "text", "written"),
    [
        (*RUN_HAND, False, "9D", "meld 5H 6H 7H", {"meld": {"groups": [{"cards": ["CARD_5H", "CARD_6H", "CARD_7H"]}]}}),
        (PILE_HAND, PILE_MELDS, True, "4C 8H", "take-pile to 2", {"takePile": {"onto": 2}}),
        (PILE_HAND, PILE_MELDS, True, "4C QH", "take-pile to 3", {"takePile": {"onto": 3}}),
        (
            PILE_HAND,
            PILE_MELDS,
            True,
            "4C QH",
            "take-pile with new QD QS",
            {"takePile": {"with": ["CARD_QD", "CARD_QS"], "newMeld": True}},
        ),
        (*COMBINE, False, "9D", "combine 1 2", {"combine": {"first": 1, "second": 2}}),
    ],
)
def test_over_http_json_samba_actions_answer_as_over_grpc(
    server: ServerThread,
    stub: oracle_pb2_grpc.OracleServiceStub,
    hand: str,
    melds: tuple[str, ...],
    draw: bool,
    pile: str,
    text: str,
    written: dict[str, object],
) -> None:
    """An action written by a client in JSON (onto, newMeld, combine) is the notation's action."""
    state = position(hand, melds, draw=draw, pile=pile)
    structured = oracle_pb2.CheckActionRequest(
        rule_set=REF, state=state_to_proto(state), action=action_to_proto(parse_action(text))
    )
    expected = json.loads(json_format.MessageToJson(stub.CheckAction(structured, timeout=RPC_TIMEOUT)))
    body = json.loads(json_format.MessageToJson(structured))
    body["action"] = written
    status, answer = post_json(server, "CheckAction", json.dumps(body).encode())
    assert status == 200 and answer == expected
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(_check(state, text)).encode())
    assert status == 200 and answer == expected
    assert answer.get("legal", False) == (text != "take-pile to 3")


# --------------------------------------------------------------------------- ListLegalActions, ScoreHand


def test_legal_actions_of_samba_positions_are_the_engines_with_their_combine_count(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    rules = default_rule_book().get(RULE_SET).rules
    states = [*samba_hands()[0].states[1:60:8], position(*COMBINE), position(*RUN_HAND)]
    combines = 0
    for state in states:
        request = oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(state))
        response = stub.ListLegalActions(request, timeout=RPC_TIMEOUT)
        assert not response.truncated
        assert list(response.actions) == [action_to_proto(a) for a in legal_actions(rules, state)]
        kinds = [a.WhichOneof("kind") for a in response.actions]
        assert response.counts.combine == kinds.count("combine")
        assert response.counts.meld == kinds.count("meld") and response.counts.total == len(kinds)
        combines += response.counts.combine
        view = oracle_pb2.ListLegalActionsRequest(rule_set=REF, view=view_to_proto(view_of(state, state.seat_to_move)))
        assert stub.ListLegalActions(view, timeout=RPC_TIMEOUT).actions == response.actions  # the mover's view
    listed = stub.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(position(*COMBINE))), timeout=RPC_TIMEOUT
    )
    assert action_to_proto(Combine(1, 2)) in listed.actions and listed.counts.combine == 1  # 1+4 and 2+4 differ
    assert combines >= 1
    runs = stub.ListLegalActions(
        oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(position(*RUN_HAND))), timeout=RPC_TIMEOUT
    )
    assert action_to_proto(parse_action("meld 5H 6H 7H 8H")) in runs.actions


def _score_table() -> scoring_pb2.HandTable:
    """Side 0: a samba of hearts, three queens, two red threes and one canasta (the samba). Side 1 went out with a
    natural and a mixed canasta, a run of three and one red three."""
    table = notation_pb2.HandTableNotation()
    table.sides.add(melds=["5H 6H 7H 8H 9H TH JH", "QC QD QH"], red_threes="3D 3H", hands=["9C", "5D KS"])
    table.sides.add(
        melds=["KC KD KH KS KC KD KH", "9C 9D 9H 9S 9C 9D 2H", "4S 5S 6S"],
        red_threes="3D",
        hands=["", "6C"],
        went_out=scoring_pb2.WENT_OUT_NORMAL,
    )
    return table_to_proto(table_from_notation(table))


def test_a_samba_scores_its_bonus_and_red_threes_count_against_one_canasta(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    response = stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=REF, table=_score_table()), timeout=RPC_TIMEOUT)
    item = scoring_pb2.ScoreItem.Name

    def lines(side: int) -> list[tuple[str, int, str]]:
        return [(item(line.item), line.points, line.field) for line in response.sides[side].lines]

    assert ("SCORE_ITEM_RUN_CANASTA", 1500, "runs.canasta_bonus") in lines(0)
    assert ("SCORE_ITEM_MELDED_CARDS", 55, "card_values") in lines(0)  # 5, 6, 7 at 5; 8 to jack at 10
    red = [(p, f) for name, p, f in lines(0) if name == "SCORE_ITEM_RED_THREES_WITHOUT_MELD"]
    assert red == [(-200, "threes.canastas_for_red_threes")]  # one canasta of the two needed
    assert ("SCORE_ITEM_RED_THREES", 100, "threes.red_three_bonus") in lines(1)  # two canastas: the three counts
    assert not [name for name, _, _ in lines(1) if name == "SCORE_ITEM_RUN_CANASTA"]  # a run of three is no samba
    # 55 + 30 melded, 1,500 samba, -200 red threes, -25 in hand; 70 + 80 + 15, 500, 300, 100, 200 out, -5
    assert [side.total for side in response.sides] == [1360, 1260]
    assert [side.total for side in response.sides] == [sum(line.points for line in s.lines) for s in response.sides]


# --------------------------------------------------------------------------- RefereeGame


def test_a_refereed_samba_hand_answers_as_the_engine_does(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    hand = samba_hands()[0]
    answers = refereed_hand(stub, REF, hand.first_dealer, hand.seed, hand.actions)
    assert all(answer.verdict.legal and not answer.error for answer in answers), answers[-1]
    assert [len(seat.hand) for seat in answers[1].state.seats] == [15] * 4
    for answer, state in zip(answers[2:], hand.states[1:], strict=True):
        assert answer.state == state_to_proto(state)
    assert any(is_run(meld) for state in hand.states for side in state.sides for meld in side.melds)  # a run laid
    ended = [e for e in answers[-1].verdict.events if e.HasField("hand_ended")]
    assert len(ended) == 1 and len(ended[0].hand_ended.scores) == 2


# --------------------------------------------------------------------------- inline rule sets, Adjudicate


_house = HouseRules(
    RULE_SET, "samba-house", "Samba, a house rule", ("4P-CLASSIC", "Other versions, and where the rule books differ")
)


def test_inline_rule_sets_extending_samba_judge_by_their_field(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    four = position("5H 6H 7H 8H 9C KH KD KS", ("JH JD JS",))
    assert stub.CheckAction(_check(four, "meld 5H 6H 7H 8H"), timeout=RPC_TIMEOUT).legal
    short = stub.CheckAction(_check(four, "meld 5H 6H 7H 8H", _house("runs", "max_size", 3)), timeout=RPC_TIMEOUT)
    assert violation_codes(short) == [("RUN_TOO_LARGE", "runs.max_size")]
    assert "at most 3 cards, not 4" in short.violations[0].explanation
    samba = position("4H 9C KH KD KS 8C", ("JH JD JS", "5H 6H 7H 8H 9H TH JH"))
    over = stub.CheckAction(_check(samba, "meld 4H to 2"), timeout=RPC_TIMEOUT)
    assert violation_codes(over) == [("RUN_TOO_LARGE", "runs.max_size")]  # a samba takes no more cards
    unlimited = stub.CheckAction(_check(samba, "meld 4H to 2", _house("runs", "max_size", 0)), timeout=RPC_TIMEOUT)
    assert unlimited.legal and len(unlimited.next_state.sides[0].melds[1].cards) == 8
    no_combine = _house("melds", "combine_same_rank", False)
    refused = stub.CheckAction(_check(position(*COMBINE), "combine 1 2", no_combine), timeout=RPC_TIMEOUT)
    assert violation_codes(refused) == [("COMBINE_NOT_ALLOWED", "melds.combine_same_rank")]


def test_adjudicate_a_combine_between_samba_and_a_house_rule_names_the_field(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(position(*COMBINE)),
        action_text="combine 1 2",
        rule_sets=[REF, _house("melds", "combine_same_rank", False)],
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    by_id = {v.rule_set_id: v for v in response.verdicts}
    assert by_id[RULE_SET].applicable and by_id[RULE_SET].verdict.legal
    assert violation_codes(by_id["samba-house"].verdict) == [("COMBINE_NOT_ALLOWED", "melds.combine_same_rank")]
    assert [(f.field, list(f.values)) for f in response.deciding_fields] == [("melds.combine_same_rank", ["yes", "no"])]


def test_adjudicate_a_run_where_only_samba_4p_fits_the_deck(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """A samba-4p state (three packs) does not fit classic-4p's deck: classic-4p is not applicable and samba-4p
    judges the run legal; the run is not refused as malformed because one rule set asked has runs."""
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(position(*RUN_HAND)), action_text="meld 5H 6H 7H", rule_sets=[CLASSIC, REF]
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    by_id = {v.rule_set_id: v for v in response.verdicts}
    assert by_id[RULE_SET].applicable and by_id[RULE_SET].verdict.legal
    assert not by_id["classic-4p"].applicable
    assert by_id["classic-4p"].not_applicable.startswith("the state does not fit: ")


@pytest.mark.parametrize("other", ["classic-4p", "samba-no-runs"])
def test_adjudicate_a_run_under_a_rule_set_without_runs_answers_runs_not_allowed(
    stub: oracle_pb2_grpc.OracleServiceStub, other: str
) -> None:
    """Adjudicate shapes the action with runs when any rule set asked has runs, and each applicable rule set without
    them answers RUNS_NOT_ALLOWED: classic-4p against samba-4p (on a classic state, which samba-4p's deck does not
    fit), and samba-4p against itself with runs.min_size 0 (one deck: both apply, and the field decides)."""
    if other == "classic-4p":
        state, rule_sets = position(*RUN_HAND, rule_set="classic-4p"), [CLASSIC, REF]
    else:
        state, rule_sets = position(*RUN_HAND), [_house("runs", "min_size", 0), REF]
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(state), action_text="meld 5H 6H 7H", rule_sets=rule_sets
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    first, samba = response.verdicts
    assert first.applicable and violation_codes(first.verdict) == [("RUNS_NOT_ALLOWED", "runs.min_size")]
    assert "runs.min_size is 0" in first.verdict.violations[0].explanation
    if other == "classic-4p":
        assert not samba.applicable and samba.not_applicable.startswith("the state does not fit: ")
    else:
        assert samba.applicable and samba.verdict.legal
        assert [(f.field, list(f.values)) for f in response.deciding_fields] == [("runs.min_size", ["0", "3"])]
