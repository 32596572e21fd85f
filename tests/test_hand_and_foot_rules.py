"""Hand and Foot (hand-and-foot-4p and its variants): each new violation code and rule-set field judged directly
through check_action, the deal, the state check and score_hand.

Each field test shows the shipped value's outcome and the outcome with the field changed (the rule set's spec
copied, changed and compiled), so a field the engine stopped reading fails here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hand_and_foot_states import ASKED_YES, CLEAN, DIRTY, FOOT, OPEN
from hand_and_foot_states import foot_state as hf
from helpers import changed_rules, judge_valid
from helpers import code_fields as codes

from oracle.api.v1 import ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, after_hand, deck_order, start_standing
from oracle.model.cards import JOKER, format_cards, is_red_three, is_wild, parse_cards
from oracle.model.events import HandEnded
from oracle.model.score import ScoreItem
from oracle.model.state import GameState, HandEnd, Phase
from oracle.rules.facts import end_table
from oracle.rules.referee import Verdict
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import validate_state
from oracle.rules.upcards import turn_upcard
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.validate import check_rule_set

BOOK = default_rule_book()
RULES = BOOK.get("hand-and-foot-4p").rules


def judge(state: GameState, action: str, rules: CompiledRules = RULES) -> Verdict:
    return judge_valid(rules, state, action)


def changed(edit: Callable[[ruleset_pb2.RuleSet], None], rule_set: str = "hand-and-foot-4p") -> CompiledRules:
    """A shipped Hand and Foot rule set with one field changed by `edit`."""
    return changed_rules(rule_set, edit)


# --- the deal --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rule_set", "size"), [("hand-and-foot-4p", 11), ("hand-and-foot-13-4p", 13)])
def test_the_deal_gives_each_player_a_hand_and_a_foot(rule_set: str, size: int) -> None:
    rules = BOOK.get(rule_set).rules
    state = deal(rules, deck_order(rules, DeckSource(seed=5)), dealer=3)
    assert rules.deck_size == 270
    assert [len(s.hand) for s in state.seats] == [size] * 4
    assert [len(s.foot) for s in state.seats] == [size] * 4
    assert len(state.stock) == 270 - 8 * size - 1
    assert len(state.discard_pile) == 1 and state.pile_upcards == 1
    assert not is_wild(state.discard_pile[0]) and not is_red_three(state.discard_pile[0])
    assert state.hand_number == 1
    assert validate_state(rules, state) == []


def test_red_threes_dealt_stay_in_the_hand_where_they_are_held() -> None:
    order = deck_order(RULES, DeckSource(seed=11))
    state = deal(RULES, order, dealer=0)
    held = [c for s in state.seats for c in s.hand if is_red_three(c)]
    laid_rules = BOOK.get("hand-and-foot-red-threes-laid-4p").rules
    laid = deal(laid_rules, order, dealer=0)
    assert held, "seed 11 deals a red three into a hand"
    assert all(not side.red_threes for side in state.sides)
    assert sorted(c for side in laid.sides for c in side.red_threes)[: len(held)] == sorted(held)
    assert not any(is_red_three(c) for s in laid.seats for c in s.hand)


def test_a_wild_or_red_three_upcard_goes_back_into_the_middle_of_the_stock() -> None:
    stock = parse_cards("4C 5C 6C 7C 8C 9C TC 3H JK")  # bottom to top: the joker is turned first, then 3H
    taken = list(stock)
    pile = turn_upcard(RULES, taken)
    assert format_cards(pile) == "TC"
    # JK went to index 4 of the eight cards left, then 3H (turned next) to index 4 of the eight left again
    assert format_cards(taken) == "4C 5C 6C 7C 3H JK 8C 9C"
    covered = changed(lambda s: setattr(s.deal, "upcard_reject_to_stock", False))
    covering = list(stock)
    assert format_cards(turn_upcard(covered, covering)) == "JK 3H TC"


def test_a_state_with_more_than_one_upcard_is_refused_where_upcards_are_rejected() -> None:
    state = hf("KH KD", foot=FOOT)
    state = state.evolve(discard_pile=(JOKER, *state.discard_pile), stock=state.stock[1:], pile_upcards=2)
    wrong = [p for p in validate_state(RULES, state) if p.field == "state.pile_upcards"]
    assert wrong and "upcard_reject_to_stock" in wrong[0].description


# --- the foot --------------------------------------------------------------------------------------------------------


def test_melding_the_whole_hand_takes_up_the_foot_and_play_goes_on() -> None:
    verdict = judge(hf("9S 9S 2C", foot=FOOT), "meld 9S 9S 2C")
    assert verdict.legal, verdict.violations
    after = verdict.next_state
    assert after is not None and after.phase == Phase.PLAY and after.seat_to_move == 0
    assert format_cards(after.seats[0].hand) == format_cards(parse_cards(FOOT))
    assert after.seats[0].foot == ()


def test_discarding_the_last_hand_card_takes_up_the_foot_for_the_next_turn() -> None:
    verdict = judge(hf("KS", foot=FOOT), "discard KS")
    assert verdict.legal, verdict.violations
    after = verdict.next_state
    assert after is not None and after.seat_to_move == 1 and after.phase == Phase.DRAW
    assert len(after.seats[0].hand) == 11 and after.seats[0].foot == ()
    assert not any(isinstance(e, HandEnded) for e in verdict.events)


def test_a_player_with_a_foot_waiting_keeps_no_card_for_going_out() -> None:
    # the side has no canasta; a player still in the hand melds down to nothing all the same
    assert judge(hf("9S 9S 2C", foot=FOOT), "meld 9S 9S 2C").legal
    # once in the foot, the same meld leaving no card is refused
    refused = judge(hf("9S 9S 2C"), "meld 9S 9S 2C")
    assert ("MUST_KEEP_CARDS", "going_out.min_hand_after_meld_without_canastas") in codes(refused)


def test_foot_not_yet_where_the_foot_is_taken_up_only_by_discarding() -> None:
    walking = changed(lambda s: setattr(s.foot, "continue_after_melding_out", False))
    state = hf("9S 9S 2C", foot=FOOT, rules=walking)
    assert codes(judge(state, "meld 9S 9S 2C", walking)) == [("FOOT_NOT_YET", "foot.continue_after_melding_out")]
    assert judge(state, "meld 9S 9S", walking).legal  # keeping 2C to discard
    assert judge(hf("9S 9S 2C", foot=FOOT), "meld 9S 9S 2C").legal


def test_a_foot_of_the_wrong_size_or_behind_an_empty_hand_is_an_inconsistent_state() -> None:
    state = hf("KH", foot=FOOT)
    short = state.evolve(
        seats=(state.seats[0].__class__(state.seats[0].hand, True, state.seats[0].foot[1:]), *state.seats[1:]),
        stock=(*state.stock, state.seats[0].foot[0]),
    )
    assert any(p.field == "state.seats[0].foot" and "11" in p.description for p in validate_state(RULES, short))
    classic = BOOK.get("classic-4p").rules
    assert any("deals no foot" in p.description for p in validate_state(classic, hf("KH", foot=FOOT)))


# --- going out -------------------------------------------------------------------------------------------------------


def test_going_out_needs_two_clean_and_two_dirty_books() -> None:
    short = hf("9S", (*CLEAN, DIRTY[0], *OPEN), turn=ASKED_YES)
    verdict = judge(short, "discard 9S")
    assert ("GO_OUT_BOOKS_MISSING", "going_out") in codes(verdict)
    assert "2 natural and 2 mixed" in verdict.violations[0].explanation
    full = judge(hf("9S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES), "discard 9S")
    assert full.legal, full.violations
    assert full.next_state is not None and full.next_state.hand_end == HandEnd.WENT_OUT


def test_one_of_each_is_enough_in_the_one_each_variant() -> None:
    one_each = BOOK.get("hand-and-foot-one-each-4p").rules
    state = hf("9S", (CLEAN[0], DIRTY[0], *OPEN), turn=ASKED_YES, rules=one_each)
    assert judge(state, "discard 9S", one_each).legal
    assert ("GO_OUT_BOOKS_MISSING", "going_out") in codes(judge(state, "discard 9S"))


def test_going_out_without_asking_is_refused_where_asking_is_required() -> None:
    state = hf("9S", (*CLEAN, *DIRTY, *OPEN))
    assert codes(judge(state, "discard 9S")) == [("GO_OUT_WITHOUT_ASKING", "going_out.ask_partner")]
    optional = changed(lambda s: setattr(s.going_out, "ask_partner", ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING))
    assert judge(hf("9S", (*CLEAN, *DIRTY, *OPEN), rules=optional), "discard 9S", optional).legal


def test_a_player_with_one_card_may_ask_where_asking_is_required() -> None:
    assert judge(hf("9S", (*CLEAN, *DIRTY, *OPEN)), "ask").legal
    optional = changed(lambda s: setattr(s.going_out, "ask_partner", ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING))
    refused = judge(hf("9S", (*CLEAN, *DIRTY, *OPEN), rules=optional), "ask", optional)
    assert [v.code for v in refused.violations] == ["ASK_NOT_ALLOWED"]


def test_a_player_who_has_not_asked_keeps_two_cards() -> None:
    state = hf("5H 5D 5S 9C", (*CLEAN, *DIRTY, *OPEN))
    verdict = judge(state, "meld 5H 5D 5S")
    assert codes(verdict) == [("MUST_KEEP_CARDS", "going_out.ask_partner")]
    assert "did not ask" in verdict.violations[0].explanation
    assert judge(hf("5H 5D 5S 9C", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES), "meld 5H 5D 5S").legal


def test_partner_foot_required_stops_a_side_whose_partner_is_still_in_the_hand() -> None:
    both = changed(lambda s: setattr(s.going_out, "partner_foot_required", True))
    state = hf("9S", (*CLEAN, *DIRTY, *OPEN), partner_foot=FOOT, turn=ASKED_YES, rules=both)
    found = codes(judge(state, "discard 9S", both))
    assert found == [("GO_OUT_PARTNER_FOOT_NOT_TAKEN", "going_out.partner_foot_required")]
    assert judge(state, "discard 9S").legal


def test_going_out_needs_a_final_discard() -> None:
    state = hf("5H 5D 5S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES)
    assert ("GO_OUT_NEEDS_DISCARD", "going_out.discard_optional") in codes(judge(state, "meld 5H 5D 5S"))


# --- the initial meld by hand ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand_number", "action", "legal"),
    [
        (1, "meld KH KD KS, 9H 9D 9S", False),  # 30 + 15 = 45 of 50
        (1, "meld KH KD KS, AH AD AS", True),  # 30 + 60 = 90
        (4, "meld KH KD KS, AH AD AS, QH QD QS", False),  # 120 of 150
        (4, "meld KH KD KS, AH AD AS, QH QD QS 2C, 9H 9D 9S", True),  # 140 + 15 = 155
    ],
)
def test_the_initial_meld_minimum_goes_by_the_hand_number(hand_number: int, action: str, legal: bool) -> None:
    state = hf("KH KD KS 9H 9D 9S AH AD AS QH QD QS 2C 4S", (), foot=FOOT, hand_number=hand_number)
    verdict = judge(state, action)
    assert verdict.legal == legal, verdict.violations
    if not legal:
        assert codes(verdict) == [("INITIAL_MELD_BELOW_MINIMUM", "initial_meld.minimum_by_hand")]
        assert f"hand {hand_number} of the game" in verdict.violations[0].explanation


def test_minimum_by_hand_replaces_the_running_total_table() -> None:
    by_total = changed(lambda s: s.initial_meld.ClearField("minimum_by_hand"))
    state = hf("KH KD KS AH AD AS QH QD QS 4S", (), foot=FOOT, hand_number=4, rules=by_total)
    assert judge(state, "meld KH KD KS, AH AD AS", by_total).legal  # 90: the table's 50 at a running total of 0
    assert not judge(hf("KH KD KS AH AD AS QH QD QS 4S", (), foot=FOOT, hand_number=4), "meld KH KD KS, AH AD AS").legal
    assert by_total.minimum_for_hand(4) is None and RULES.minimum_for_hand(9) == 150


# --- scoring and the game --------------------------------------------------------------------------------------------


def _lines(rules: CompiledRules, state: GameState, side: int) -> dict[ScoreItem, int]:
    out: dict[ScoreItem, int] = {}
    for line in score_hand(rules, end_table(rules, state))[side].lines:
        out[line.item] = out.get(line.item, 0) + line.points
    return out


def test_an_untaken_foot_and_a_held_red_three_count_against_the_side() -> None:
    state = hf("3H 9S", OPEN, partner_foot=FOOT).evolve(phase=Phase.HAND_OVER, hand_end=HandEnd.STOCK_EXHAUSTED)
    # seat 0: 3H 500 + 9S 5; seat 2: 6D 8C 10 + the foot 4C 4D 5C 5D 6C 6D 8C 8D TC TD JC 70
    assert _lines(RULES, state, 0)[ScoreItem.CARDS_IN_HAND] == -(500 + 5 + 10 + 70)
    uncounted = changed(lambda s: setattr(s.foot, "unplayed_counts", False))
    assert _lines(uncounted, state, 0)[ScoreItem.CARDS_IN_HAND] == -(500 + 5 + 10)


def test_nines_and_eights_count_five_and_a_red_three_its_held_value() -> None:
    assert RULES.card_points[parse_cards("9H")[0]] == 5
    assert RULES.card_points[parse_cards("8S")[0]] == 5
    assert RULES.card_points[parse_cards("TH")[0]] == 10
    assert RULES.card_points[parse_cards("3D")[0]] == 500
    plain = changed(lambda s: s.card_values.ClearField("rank_values"))
    assert plain.card_points[parse_cards("9H")[0]] == 10
    assert BOOK.get("hand-and-foot-red-threes-laid-4p").rules.card_points[parse_cards("3D")[0]] == 0


def test_the_worked_example_scores_1480() -> None:
    # docs/family.md §4.2: clean kings and fives, dirty nines and jacks, an open meld of aces; partner holds 3H and
    # an untouched foot worth 85
    melds = (
        "KC KC KD KD KH KH KS",
        "5C 5C 5D 5D 5H 5H 5S",
        "9C 9D 9H 9S 2C 2D JK",
        "JC JD JH JS JC 2H 2S",
        "AC AD AH",
    )
    foot = "QC QD QH QS KC KD 4C 4D 4H 5H 6C"  # 60 + 25 = 85
    state = hf("", melds, partner_hand="3H", partner_foot=foot, turn=ASKED_YES)
    state = state.evolve(phase=Phase.HAND_OVER, hand_end=HandEnd.WENT_OUT, went_out_seat=0)
    total = sum(line.points for line in score_hand(RULES, end_table(RULES, state))[0].lines)
    assert total == 1480


def test_a_game_is_four_hands_whatever_the_totals() -> None:
    standing = start_standing(RULES)
    for _ in range(3):
        standing = after_hand(RULES, standing, [9000, 100])
        assert not standing.over
    standing = after_hand(RULES, standing, [-50, 100])
    assert standing.over and standing.winner == 0 and standing.hands_played == 4
    to_target = changed(lambda s: setattr(s.game, "hands", 0))
    assert after_hand(to_target, start_standing(to_target), [9000, 100]).over


# --- validation ------------------------------------------------------------------------------------------------------


def _problems(edit: Callable[[ruleset_pb2.RuleSet], None]) -> list[tuple[str, str]]:
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(BOOK.get("hand-and-foot-4p").spec)
    edit(spec)
    return check_rule_set(spec, [s.id for s in BOOK.sources.sources])


def test_validation_refuses_quotas_that_do_not_add_up_and_feet_the_deck_cannot_hold() -> None:
    assert _problems(lambda s: None) == []
    assert [p for p, _ in _problems(lambda s: setattr(s.going_out, "canastas_required", 3))] == [
        "going_out.canastas_required"
    ]

    def big(spec: ruleset_pb2.RuleSet) -> None:
        spec.deal.hand_size, spec.foot.size = 40, 30

    assert "feet" in dict(_problems(big))["foot.size"]
    rows = _problems(lambda s: s.card_values.rank_values.add(rank=ruleset_pb2.NATURAL_RANK_NINE, points=10))
    assert [p for p, _ in rows] == ["card_values.rank_values[2].rank"]


# --- several books of one rank (docs/family.md §4.1 rule 11) ---------------------------------------------------------


def test_a_second_book_of_a_rank_starts_once_the_first_is_closed() -> None:
    verdict = judge(hf("KH KD KS 4S", (CLEAN[0], *OPEN), foot=FOOT), "meld KH KD KS")
    assert verdict.legal, verdict.violations
    assert verdict.next_state is not None
    kings = [m for m in verdict.next_state.sides[0].melds if format_cards(m).startswith("K")]
    assert len(kings) == 2


def test_a_pair_takes_the_pile_onto_a_new_book_when_the_rank_is_closed() -> None:
    state = hf("KH KD 4S 5D", (CLEAN[0], *OPEN), foot=FOOT, phase="PHASE_DRAW", pile="7D KS")
    verdict = judge(state, "take-pile with KH KD")
    assert verdict.legal, verdict.violations
    assert verdict.next_state is not None
    melds = [sorted(m) for m in verdict.next_state.sides[0].melds]
    assert melds == [sorted(parse_cards(m)) for m in (CLEAN[0], *OPEN, "KS KH KD")]  # the closed book untouched


def test_a_new_book_of_a_rank_is_refused_while_one_is_open() -> None:
    state = hf("KH KD KS 4S", (*OPEN, "KC KC KD"), foot=FOOT)
    verdict = judge(state, "meld new KH KD KS")
    assert codes(verdict) == [("MELD_OPEN_OF_RANK_EXISTS", "melds.one_open_meld_per_rank")]
    assert "meld 2 of kings is not yet a canasta" in verdict.violations[0].explanation
    assert judge(state, "meld KH KD KS").legal  # the default target: the open book (six kings)
    several = changed(lambda s: setattr(s.melds, "one_open_meld_per_rank", False))
    assert judge(hf("KH KD KS 4S", (*OPEN, "KC KC KD"), foot=FOOT, rules=several), "meld new KH KD KS", several).legal


def test_a_closed_book_passes_its_cards_to_a_new_book_in_one_action() -> None:
    state = hf("KH KD KS KC KH 4S", (*OPEN, "KC KC KD KD KS"), foot=FOOT)
    verdict = judge(state, "meld KH KD to 2, new KS KC KH")
    assert verdict.legal, verdict.violations
    assert verdict.next_state is not None and len(verdict.next_state.sides[0].melds) == 3


def test_black_threes_are_never_melded_not_even_going_out() -> None:
    state = hf("3S 3S 3C 9S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES)
    verdict = judge(state, "meld 3S 3S 3C")
    assert codes(verdict) == [("BLACK_THREE_MELD_SIZE", "threes.black_three_meld_max")]
    assert "never melded" in verdict.violations[0].explanation
    classic = changed(lambda s: setattr(s.threes, "black_three_meld_max", 4))
    assert judge(
        hf("3S 3S 3C 9S", (*CLEAN, *DIRTY, *OPEN), turn=ASKED_YES, rules=classic), "meld 3S 3S 3C", classic
    ).legal
