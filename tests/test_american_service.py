"""Modern American Canasta (american-4p) over a real server: its rules, scores, deal and SideState.asks on every
path in and out (gRPC and Connect), inline rule sets that extend it, and the limits on their new tables.

The positions are written in card notation for one rule each, or come from simulated american-4p hands (fixed
seeds; tests/american_states.py). The server runs in-process (tests/server_harness.py) with its HTTP port open.
"""

from __future__ import annotations

import json

import grpc
import pytest
from american_states import RULE_SET, american_hands, position
from google.protobuf import json_format
from server_harness import (
    RPC_TIMEOUT,
    CheckRequests,
    ServerThread,
    error_details,
    post_json,
    refereed_hand,
    violation_codes,
)
from server_harness import module_server as module_server  # the `server` fixture
from server_harness import module_stub as module_stub  # the `stub` fixture

from oracle.api.v1 import game_pb2, notation_pb2, oracle_pb2, oracle_pb2_grpc, ruleset_pb2, scoring_pb2
from oracle.bench.fuzz_seeds import build_corpus
from oracle.games.deal import deal
from oracle.games.match import DeckSource, dealer_of_hand, deck_order
from oracle.games.movegen import legal_actions
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, parse_action
from oracle.model.cards import parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState
from oracle.rules.referee import check_action
from oracle.rules.view import view_of
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.validate import MAX_RULE_ROWS
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_from_notation, state_from_proto, state_to_proto
from oracle.service.convert_table import table_from_notation, table_to_proto
from oracle.service.convert_view import view_to_proto
from oracle.service.record_json import record_from_json

REF = oracle_pb2.RuleSetRef(id=RULE_SET)


_check = CheckRequests(REF)


#: Seat 0's side has five natural sevens; seat 0 holds a two.
SEVENS = ("2C 5D 6H 9S KH", ("7C 7D 7H 7S 7C",))
#: Nothing melded yet; seat 0 holds 150 points with natural triples (american-4p's first minimum is 125).
OPENING = "AC AD AH AS KC KD KH KS QC QD QH 9C 9D JH"
OPENING_MELD = "meld AC AD AH AS, KC KD KH KS, QC QD QH"


# --------------------------------------------------------------------------- CheckAction: the new rules


def test_a_wild_card_onto_sevens_is_too_many_wilds_under_the_rank_rules(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state = position(SEVENS[0], SEVENS[1])
    response = stub.CheckAction(_check(state, "meld 7: 2C"), timeout=RPC_TIMEOUT)
    assert not response.legal and not response.HasField("next_state")
    assert violation_codes(response) == [("MELD_TOO_MANY_WILDS", "melds.rank_rules")]
    assert "sevens" in response.violations[0].explanation
    # the same two onto jacks of five naturals is an ordinary wild card (the rule of five is met)
    jacks = position(SEVENS[0], ("JC JH JS JC JH",))
    assert stub.CheckAction(_check(jacks, "meld J: 2C"), timeout=RPC_TIMEOUT).legal


def test_a_seven_onto_an_empty_pile_is_a_restricted_discard(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position("7D 9S KH", ("QC QD QH",), pile="")
    assert not state.discard_pile
    response = stub.CheckAction(_check(state, "discard 7D"), timeout=RPC_TIMEOUT)
    assert [code for code, _ in violation_codes(response)] == ["DISCARD_RESTRICTED"]
    assert "empty pile" in response.violations[0].explanation
    legal = stub.CheckAction(_check(state, "discard KH"), timeout=RPC_TIMEOUT)
    assert legal.legal and list(legal.next_state.discard_pile) == list(parse_cards("KH"))
    # onto a pile that holds a card the seven goes like any other
    assert stub.CheckAction(_check(position("7D 9S KH", ("QC QD QH",)), "discard 7D"), timeout=RPC_TIMEOUT).legal


def test_the_discard_after_the_initial_meld_draws_four_bonus_cards(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    state = position(OPENING, stock="4C 5C 6C 8C")  # 8C on top: drawn first
    melded = stub.CheckAction(_check(state, OPENING_MELD), timeout=RPC_TIMEOUT)
    assert melded.legal, melded.violations
    assert not melded.events  # nothing is drawn until the turn's discard
    after = state_from_proto(melded.next_state)
    response = stub.CheckAction(_check(after, "discard JH"), timeout=RPC_TIMEOUT)
    assert response.legal, response.violations
    drawn = [list(e.cards_drawn.cards) for e in response.events if e.HasField("cards_drawn")]
    assert drawn == [list(parse_cards("8C 6C 5C 4C"))]
    assert [e.cards_drawn.seat for e in response.events] == [0]
    hand = list(response.next_state.seats[0].hand)
    assert hand == list(parse_cards("9C 9D 8C 6C 5C 4C"))  # kept for the next turn
    assert len(response.next_state.stock) == len(state.stock) - 4
    assert response.next_state.seat_to_move == 1
    engine = check_action(default_rule_book().get(RULE_SET).rules, after, parse_action("discard JH"))
    assert engine.next_state is not None and response.next_state == state_to_proto(engine.next_state)


def _opening_then_discard(stub: oracle_pb2_grpc.OracleServiceStub, state: GameState) -> oracle_pb2.CheckActionResponse:
    melded = stub.CheckAction(_check(state, OPENING_MELD), timeout=RPC_TIMEOUT)
    assert melded.legal, melded.violations
    response: oracle_pb2.CheckActionResponse = stub.CheckAction(
        _check(state_from_proto(melded.next_state), "discard JH"), timeout=RPC_TIMEOUT
    )
    return response


def test_the_second_side_to_meld_draws_three_and_a_black_three_among_them_is_laid(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    later = _opening_then_discard(stub, position(OPENING, stock="4C 5C 6C 8C", opponents=("TC TD TH",)))
    assert [list(e.cards_drawn.cards) for e in later.events] == [list(parse_cards("8C 6C 5C"))]
    three = _opening_then_discard(stub, position(OPENING, stock="4C 5C 3S 6C 8C"))  # 3S drawn third
    kinds = [e.WhichOneof("kind") for e in three.events]
    assert kinds == ["cards_drawn", "red_three_laid"]
    assert list(three.events[0].cards_drawn.cards) == list(parse_cards("8C 6C 5C 4C"))  # 4C replaces the three
    laid = three.events[1].red_three_laid
    assert (laid.seat, laid.card, laid.replaced) == (0, parse_cards("3S")[0], True)
    assert list(three.next_state.sides[0].red_threes) == list(parse_cards("3S"))  # black threes kept there too


def test_an_initial_meld_down_to_the_discard_with_unfinished_aces_is_not_going_out(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    """bonus_cards.keep_only_discard: a player owed bonus cards need keep only his discard, and that discard is not
    going out (the bonus cards refill the hand), so going_out.unfinished_special_meld_blocks does not apply. It
    does not with kings (second half, passes today); with four aces left short of a canasta the meld is refused."""
    kings = position("KC KD KH KS 2C QC QD QH QS JC JD JH 9S")
    melded = stub.CheckAction(_check(kings, "meld KC KD KH KS 2C, QC QD QH QS, JC JD JH"), timeout=RPC_TIMEOUT)
    assert melded.legal and list(melded.next_state.seats[0].hand) == list(parse_cards("9S"))
    discard = stub.CheckAction(_check(state_from_proto(melded.next_state), "discard 9S"), timeout=RPC_TIMEOUT)
    assert discard.legal and len(discard.next_state.seats[0].hand) == 4  # the bonus cards: not out
    aces = position("AC AD AH AS KC KD KH KS QC QD QH JH")
    response = stub.CheckAction(_check(aces, OPENING_MELD), timeout=RPC_TIMEOUT)
    assert response.legal, violation_codes(response)


def test_the_second_question_of_a_hand_is_over_the_ask_limit(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    first = position("9C 9D JH KD", ("QC QD QH",), pile="9H")
    asked = stub.CheckAction(_check(first, "ask"), timeout=RPC_TIMEOUT)
    assert asked.legal, asked.violations
    assert [side.asks for side in asked.next_state.sides] == [1, 0]
    assert asked.next_state.phase == game_pb2.PHASE_AWAIT_ANSWER
    again = position("9C 9D JH KD", ("QC QD QH",), pile="9H", asks=(1, 0))
    response = stub.CheckAction(_check(again, "ask"), timeout=RPC_TIMEOUT)
    assert violation_codes(response) == [("ASK_LIMIT_REACHED", "going_out.ask_partner_max_per_hand")]
    assert "asked 1 time(s) this hand; the limit is 1" in response.violations[0].explanation
    # the other side's question does not count against this side
    assert stub.CheckAction(_check(position("9C 9D JH KD", ("QC QD QH",), asks=(0, 1)), "ask")).legal


# --------------------------------------------------------------------------- SideState.asks on every path


def test_asks_round_trip_over_grpc_connect_and_a_players_view(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub
) -> None:
    state = position("9C 9D JH KD", ("QC QD QH",), asks=(1, 1))
    request = _check(state, "discard KD")
    assert [side.asks for side in request.state.sides] == [1, 1]
    assert stub.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=REF, state=request.state)).valid
    response = stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert response.legal and [side.asks for side in response.next_state.sides] == [1, 1]
    assert state_from_proto(response.next_state).sides[1].asks == 1
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(request).encode())
    assert status == 200 and [side.get("asks", 0) for side in answer["nextState"]["sides"]] == [1, 1]
    assert answer == json.loads(json_format.MessageToJson(response))
    body = json.loads(json_format.MessageToJson(request))
    body["state"]["sides"][0]["asks"] = 0  # written by a client in JSON: read as the field it is
    status, answer = post_json(server, "CheckAction", json.dumps(body).encode())
    assert status == 200 and [side.get("asks", 0) for side in answer["nextState"]["sides"]] == [0, 1]
    view = oracle_pb2.CheckActionRequest(rule_set=REF, view=view_to_proto(view_of(state, 0)), action_text="discard KD")
    assert [side.asks for side in view.view.sides] == [1, 1]
    seen = stub.CheckAction(view, timeout=RPC_TIMEOUT)
    assert seen.legal and [side.asks for side in seen.next_view.sides] == [1, 1]
    limited = stub.CheckAction(
        oracle_pb2.CheckActionRequest(rule_set=REF, view=view_to_proto(view_of(state, 0)), action_text="ask")
    )
    assert violation_codes(limited) == [
        ("ASK_LIMIT_REACHED", "going_out.ask_partner_max_per_hand")
    ]  # read from the view


def test_asks_in_notation_are_read() -> None:
    rules = default_rule_book().get(RULE_SET).rules
    msg = notation_pb2.GameStateNotation(phase=game_pb2.PHASE_DRAW)
    msg.sides.add(asks=1)
    msg.sides.add()
    assert [side.asks for side in state_from_notation(msg, rules).sides] == [1, 0]
    start = {"phase": "PHASE_DRAW", "sides": [{"asks": 1}, {}], "seats": [{}]}
    read = record_from_json({"ruleSetId": RULE_SET, "hands": [{"start": start}]})  # a record's explicit deal
    assert [side.asks for side in read.hands[0].start.sides] == [1, 0]
    assert [side.asks for side in state_from_notation(read.hands[0].start, rules).sides] == [1, 0]


# --------------------------------------------------------------------------- ListLegalActions, ScoreHand, DealHand


def test_legal_actions_of_american_positions_are_the_engines(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    rules = default_rule_book().get(RULE_SET).rules
    hand = american_hands()[0]
    states = [*hand.states[1:40:6], position("9C 9D JH KD", ("QC QD QH",)), position(SEVENS[0], SEVENS[1])]
    for state in states:
        request = oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(state))
        response = stub.ListLegalActions(request, timeout=RPC_TIMEOUT)
        assert not response.truncated
        assert list(response.actions) == [action_to_proto(a) for a in legal_actions(rules, state)]
        view = oracle_pb2.ListLegalActionsRequest(rule_set=REF, view=view_to_proto(view_of(state, state.seat_to_move)))
        assert stub.ListLegalActions(view, timeout=RPC_TIMEOUT).actions == response.actions  # the mover's view
    asking = oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(states[-2]))
    ask = action_to_proto(AskPartner())
    assert ask in stub.ListLegalActions(asking, timeout=RPC_TIMEOUT).actions
    asked = state_to_proto(position("9C 9D JH KD", ("QC QD QH",), asks=(1, 0)))
    listed = stub.ListLegalActions(oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=asked)).actions
    assert ask not in listed and listed  # the question is used up; the rest of the turn is not
    sevens = stub.ListLegalActions(oracle_pb2.ListLegalActionsRequest(rule_set=REF, state=state_to_proto(states[-1])))
    onto_sevens = [a for a in sevens.actions if a.HasField("meld") and a.meld.groups[0].onto_rank // 4 == 6]
    assert not onto_sevens  # the two never goes onto the sevens


def _score_table() -> scoring_pb2.HandTable:
    """Side 0: an unfinished wild-card meld, four sevens, a canasta of queens, two red threes and a black one; its
    first player holds three aces. Side 1 went out with a canasta of twos, two natural canastas and one black three."""
    table = notation_pb2.HandTableNotation()
    table.sides.add(
        melds=["JK JK JK", "7C 7D 7H 7S", "QC QD QH QS QC QD QH"], red_threes="3D 3H 3C", hands=["AC AD AH 9S", "5D"]
    )
    table.sides.add(
        melds=["2C 2D 2H 2S 2C 2D 2H", "KC KD KH KS KC KD KH", "9C 9D 9H 9S 9C 9D 9H"],
        red_threes="3S",
        hands=["", "6C"],
        went_out=scoring_pb2.WENT_OUT_NORMAL,
    )
    return table_to_proto(table_from_notation(table))


def test_an_american_table_scores_the_new_items_with_their_fields(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    response = stub.ScoreHand(oracle_pb2.ScoreHandRequest(rule_set=REF, table=_score_table()), timeout=RPC_TIMEOUT)
    item = scoring_pb2.ScoreItem.Name

    def lines(side: int) -> list[tuple[str, int, str]]:
        return [(item(line.item), line.points, line.field) for line in response.sides[side].lines]

    assert ("SCORE_ITEM_UNFINISHED_MELD", -2000, "canastas.wild_unfinished_penalty") in lines(0)
    assert ("SCORE_ITEM_UNFINISHED_MELD", -2500, "melds.rank_rules") in lines(0)
    assert ("SCORE_ITEM_HELD_RANK", -1500, "melds.rank_rules") in lines(0)
    # one canasta: threes count nothing (threes.minus_below_canastas 1, plus_from_canastas 2)
    assert [p for name, p, f in lines(0) if name == "SCORE_ITEM_THREES_BY_COUNT"] == [0, 0]
    assert ("SCORE_ITEM_WILD_CANASTA", 3000, "canastas.wild_all_twos_bonus") in lines(1)
    assert ("SCORE_ITEM_THREES_BY_COUNT", 100, "threes.count_values") in lines(1)
    held = [line.detail for line in response.sides[0].lines if line.item == scoring_pb2.SCORE_ITEM_HELD_RANK]
    assert held == ["player 1: 3 aces held"]
    # 150 + 20 + 70 melded, 500 canasta, -2,000 and -2,500 unfinished, -75 in hand, -1,500 aces held
    assert [side.total for side in response.sides] == [-5335, 4475]
    assert [side.total for side in response.sides] == [sum(line.points for line in s.lines) for s in response.sides]


def test_an_american_deal_has_no_upcard(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    for seed in (1, 2, 3):
        state = stub.DealHand(oracle_pb2.DealHandRequest(rule_set=REF, seed=seed), timeout=RPC_TIMEOUT).state
        assert not state.discard_pile and state.pile_upcards == 0
        threes = [list(side.red_threes) for side in state.sides]
        hands = [len(seat.hand) for seat in state.seats]
        assert hands == [13] * 4, (hands, threes)  # threes laid at the deal are replaced
        assert stub.ValidateState(oracle_pb2.ValidateStateRequest(rule_set=REF, state=state)).valid


# --------------------------------------------------------------------------- RefereeGame, Adjudicate


def test_a_refereed_american_hand_answers_as_the_engine_does(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    hand = american_hands()[1]
    answers = refereed_hand(stub, REF, hand.first_dealer, hand.seed, hand.actions)
    assert all(answer.verdict.legal and not answer.error for answer in answers), answers[-1]
    assert not answers[1].state.discard_pile  # the deal: no upcard
    assert answers[-1].state == state_to_proto(hand.states[-1])
    ended = [e for e in answers[-1].verdict.events if e.HasField("hand_ended")]
    assert len(ended) == 1 and len(ended[0].hand_ended.scores) == 2


def _questions(first_dealer: int, seed: int) -> list[Action]:
    """From the deal: each of the first three players draws, asks, is told no and discards (the first discard the
    engine lists); the third one's side has asked already."""
    rules = default_rule_book().get(RULE_SET).rules
    state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=dealer_of_hand(rules, first_dealer, 0))
    actions: list[Action] = []
    for _ in range(2):
        for action in (Draw(), AskPartner(), AnswerPartner(False)):
            actions.append(action)
            state = _next(rules, state, action)
        discard = next(a for a in legal_actions(rules, state) if isinstance(a, Discard))
        actions.append(discard)
        state = _next(rules, state, discard)
    return [*actions, Draw(), AskPartner()]


def _next(rules: CompiledRules, state: GameState, action: Action) -> GameState:
    verdict = check_action(rules, state, action)
    assert verdict.next_state is not None, verdict.violations
    return verdict.next_state


def test_a_refereed_hand_counts_each_sides_questions(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """RefereeGame keeps SideState.asks from turn to turn: each side asks once; the first side's second question,
    a turn later by the partner, is over going_out.ask_partner_max_per_hand."""
    actions = _questions(first_dealer=3, seed=11)
    answers = refereed_hand(stub, REF, 3, 11, actions)
    asks = [[side.asks for side in answer.state.sides] for answer in answers[2:]]
    assert asks[1] == [1, 0] and asks[5] == [1, 1] and asks[-2] == [1, 1]
    assert all(answer.verdict.legal for answer in answers[:-1])
    assert violation_codes(answers[-1].verdict) == [("ASK_LIMIT_REACHED", "going_out.ask_partner_max_per_hand")]


def test_adjudicate_names_the_rank_rules_that_part_american_from_classic(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state = position(SEVENS[0], SEVENS[1])
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(state),
        action_text="meld 7: 2C",
        rule_sets=[oracle_pb2.RuleSetRef(id="classic-4p"), REF],
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    by_id = {v.rule_set_id: v for v in response.verdicts}
    assert by_id["classic-4p"].applicable and by_id["classic-4p"].verdict.legal
    assert by_id[RULE_SET].applicable and not by_id[RULE_SET].verdict.legal
    assert violation_codes(by_id[RULE_SET].verdict) == [("MELD_TOO_MANY_WILDS", "melds.rank_rules")]
    assert "melds.rank_rules" in [f.field for f in response.deciding_fields]


# --------------------------------------------------------------------------- inline rule sets and their limits


def _inline_sevens(max_wilds: int) -> oracle_pb2.RuleSetRef:
    """american-4p with sevens taking up to `max_wilds` wild cards (the rank table replaced whole, aces kept)."""
    rows = default_rule_book().get(RULE_SET).spec.melds.rank_rules
    spec = ruleset_pb2.RuleSet(id="sevens-house", extends=RULE_SET, title="American, wild sevens")
    spec.melds.rank_rules.extend(rows)
    sevens = next(r for r in spec.melds.rank_rules if r.rank == ruleset_pb2.NATURAL_RANK_SEVEN)
    sevens.max_wilds = max_wilds
    spec.rules.add(
        field="melds.rank_rules",
        text="A house rule: sevens take wild cards like any rank.",
        cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="Other versions, and where the rule books differ")],
    )
    return oracle_pb2.RuleSetRef(inline=spec)


def test_an_inline_rule_set_that_lets_sevens_take_a_wild_card_judges_by_it(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    state = position(SEVENS[0], SEVENS[1])
    house = stub.CheckAction(_check(state, "meld 7: 2C", _inline_sevens(2)), timeout=RPC_TIMEOUT)
    assert house.legal, house.violations
    assert sorted(house.next_state.sides[0].melds[0].cards) == sorted(parse_cards("7C 7D 7H 7S 7C 2C"))
    assert not stub.CheckAction(_check(state, "meld 7: 2C", _inline_sevens(0)), timeout=RPC_TIMEOUT).legal
    refused = stub.CheckAction(_check(state, "meld 7: 2C"), timeout=RPC_TIMEOUT)  # the shipped rule set unchanged
    assert violation_codes(refused) == [("MELD_TOO_MANY_WILDS", "melds.rank_rules")]


def test_a_refereed_hand_under_an_inline_rule_set_extending_american(stub: oracle_pb2_grpc.OracleServiceStub) -> None:
    """The simulated hand refereed under american-4p with sevens taking up to two wild cards: every action the bot
    played under the shipped rules is still legal (the house rule only allows more), and the states are the
    engine's under the house rules."""
    hand = american_hands()[2]
    answers = refereed_hand(stub, _inline_sevens(2), hand.first_dealer, hand.seed, hand.actions)
    assert all(answer.verdict.legal and not answer.error for answer in answers), answers[-1]
    assert answers[-1].state == state_to_proto(hand.states[-1])


def _huge(field: str) -> oracle_pb2.RuleSetRef:
    spec = ruleset_pb2.RuleSet(id="huge", extends=RULE_SET, title="Too many rows")
    if field == "melds.rank_rules":  # a million rows { rank: NATURAL_RANK_SEVEN }, read from their bytes
        spec.melds.MergeFromString(b"\x5a\x02\x08\x07" * 1_000_000)
        assert spec.melds.rank_rules[-1].rank == ruleset_pb2.NATURAL_RANK_SEVEN
    else:
        spec.threes.count_values.extend([100] * 1_000_000)
    return oracle_pb2.RuleSetRef(inline=spec)


@pytest.mark.parametrize("field", ["melds.rank_rules", "threes.count_values"])
def test_a_million_rows_of_a_rule_table_are_refused_by_their_count_over_grpc(
    stub: oracle_pb2_grpc.OracleServiceStub, field: str
) -> None:
    request = _check(position(SEVENS[0], SEVENS[1]), "meld 7: 2C", _huge(field))
    assert request.ByteSize() < 4 * 1024 * 1024  # within the message limit: the size check must catch it
    with pytest.raises(grpc.RpcError) as info:
        stub.CheckAction(request, timeout=RPC_TIMEOUT)
    assert error_details(info.value, grpc.StatusCode.INVALID_ARGUMENT) == [
        (f"rule_set.inline.{field}", f"has 1000000 rows; the limit is {MAX_RULE_ROWS}")
    ]


@pytest.mark.parametrize("field", ["melds.rank_rules", "threes.count_values"])
def test_rule_table_rows_are_counted_before_the_rule_set_is_read(field: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the inline rule set is merged, validated or compiled: the book is never asked to resolve it."""
    api = OracleApi(default_rule_book())

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the inline rule set was resolved before its sizes were checked")

    monkeypatch.setattr(api.book, "resolve_inline", never)
    request = oracle_pb2.GetRuleSetRequest(rule_set=_huge(field))
    with pytest.raises(InvalidInputError) as info:
        api.GetRuleSet(request)
    assert [(p.field, p.description) for p in info.value.problems] == [
        (f"rule_set.inline.{field}", f"has 1000000 rows; the limit is {MAX_RULE_ROWS}")
    ]


def test_rows_within_the_limit_reach_the_rule_books_checks() -> None:
    ref = _inline_sevens(0)
    ref.inline.threes.count_values.extend([100] * MAX_RULE_ROWS)
    ref.inline.rules.add(
        field="threes.count_values",
        text="A house rule: every three counts 100.",
        cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="Other versions, and where the rule books differ")],
    )
    answer = OracleApi(default_rule_book()).GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref))
    assert len(answer.rule_set.threes.count_values) == MAX_RULE_ROWS
    ref.inline.melds.rank_rules.add(rank=ruleset_pb2.NATURAL_RANK_SEVEN)  # a repeated rank: the rule book's problem
    with pytest.raises(InvalidInputError) as info:
        OracleApi(default_rule_book()).GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref))
    assert any("repeats the rank" in p.description for p in info.value.problems), info.value.problems


def test_many_choices_in_an_inline_rule_set_are_refused_by_their_count() -> None:
    """Merging a variant's choices over its base's costs their number squared (8,000 took 11 s before this limit)."""
    api = OracleApi(default_rule_book())
    spec = ruleset_pb2.RuleSet(id="chatty", extends=RULE_SET, title="Many choices")
    for i in range(100_000):
        spec.choices.add(id=f"c{i}")
    with pytest.raises(InvalidInputError) as info:
        api.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(inline=spec)))
    limit = api.limits.max_choices
    assert [(p.field, p.description) for p in info.value.problems] == [
        ("rule_set.inline.choices", f"has 100000 choices; the limit is {limit}")
    ]
    del spec.choices[1:]
    spec.choices[0].others.add(cite=[ruleset_pb2.Citation(source="x" * 200)])
    spec.choices[0].fields.extend(["melds.max_wilds"] * (api.limits.max_choice_entries + 1))
    with pytest.raises(InvalidInputError) as info:
        api.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(inline=spec)))
    assert [p.field for p in info.value.problems] == [
        "rule_set.inline.choices[0].fields",
        "rule_set.inline.choices[0].others[0].cite[0].source",
    ]


# --------------------------------------------------------------------------- Connect (HTTP/JSON)


def test_over_http_json_the_bonus_cards_and_a_rank_rule_answer_as_over_grpc(
    server: ServerThread, stub: oracle_pb2_grpc.OracleServiceStub
) -> None:
    state = position(OPENING, stock="4C 5C 6C 8C")
    melded = stub.CheckAction(_check(state, OPENING_MELD), timeout=RPC_TIMEOUT)
    request = _check(state_from_proto(melded.next_state), "discard JH")
    status, answer = post_json(server, "CheckAction", json_format.MessageToJson(request).encode())
    assert status == 200
    assert [e["cardsDrawn"]["cards"] for e in answer["events"]] == [["CARD_8C", "CARD_6C", "CARD_5C", "CARD_4C"]]
    assert answer == json.loads(json_format.MessageToJson(stub.CheckAction(request, timeout=RPC_TIMEOUT)))
    status, answer = post_json(
        server, "CheckAction", json_format.MessageToJson(_check(position(*SEVENS), "meld 7: 2C")).encode()
    )
    assert status == 200 and "legal" not in answer
    assert [(v["code"], v["field"]) for v in answer["violations"]] == [("MELD_TOO_MANY_WILDS", "melds.rank_rules")]
    big = json.loads(json_format.MessageToJson(_check(position(*SEVENS), "meld 7: 2C")))
    big["ruleSet"] = {"inline": {"id": "huge", "extends": RULE_SET, "threes": {"countValues": [100] * 100_000}}}
    status, answer = post_json(server, "CheckAction", json.dumps(big).encode())
    assert (status, answer["code"]) == (400, "invalid_argument")
    assert "rule_set.inline.threes.count_values" in answer["message"]


# --------------------------------------------------------------------------- the fuzz's seeds


def test_the_fuzz_seeds_hold_american_positions_at_the_ask_limit_and_under_a_house_rank_table() -> None:
    book = default_rule_book()
    corpus = build_corpus(book, records=4, every=40)
    api = OracleApi(book)
    checks = [r for r in corpus.unary["CheckAction"] if isinstance(r, oracle_pb2.CheckActionRequest)]
    assert len(checks) == len(corpus.unary["CheckAction"])
    assert any(r.rule_set.id == RULE_SET for r in checks)
    asked = [r for r in checks if r.rule_set.id == RULE_SET and r.action.HasField("ask_partner")]
    asked = [r for r in asked if any(side.asks for side in (r.state.sides or r.view.sides))]
    assert asked and any(r.HasField("view") for r in asked)
    for request in asked:
        assert violation_codes(api.CheckAction(request))[0] == (
            "ASK_LIMIT_REACHED",
            "going_out.ask_partner_max_per_hand",
        )
    house = [r for r in checks if r.rule_set.inline.extends == RULE_SET and r.rule_set.inline.melds.rank_rules]
    assert house
    for request in house:
        api.CheckAction(request)  # the house rank table is a valid rule set: judged, not refused
