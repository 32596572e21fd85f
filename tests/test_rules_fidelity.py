"""Rules the audit of issue 14 found wrong, each pinned by what a player relies on: taking the pile with one
natural under the natural-pair rule, asking the partner after laying other groups with the pile, and the other
fixes of that list."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from google.protobuf import text_format
from helpers import make_state, rules

from oracle.api.v1 import ruleset_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.model.actions import AnswerPartner, AskPartner, parse_action
from oracle.model.cards import is_red_three
from oracle.model.score import ScoreItem
from oracle.model.state import PartnerAnswer, Phase, TurnStart, TurnState
from oracle.rules.candidates import iter_candidates
from oracle.rules.context import make_ctx
from oracle.rules.facts import end_table
from oracle.rules.play import can_go_out
from oracle.rules.referee import check_action, is_legal
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.validate import check_rule_set

FOUR_HANDS = ["9H QS QD", "6C 7D", "6D 7C", "6H 7H"]


def _codes(rule_set: str, state: object, action: str) -> list[str]:
    verdict = check_action(rules(rule_set), state, parse_action(action))  # type: ignore[arg-type]
    return [v.code for v in verdict.violations]


def test_one_natural_onto_the_sides_meld_takes_the_pile_only_where_the_meld_may_take_it() -> None:
    """natural-pair-only-4p: one natural and the top card joining the side's nines is no natural pair."""
    melds = [["KC KD KH", "9C 9D 9H"], []]
    for rule_set, expected in (("classic-4p", []), ("natural-pair-only-4p", ["PILE_ONTO_MELD_NOT_ALLOWED"])):
        state = make_state(
            rule_set, hands=FOUR_HANDS, melds=melds, pile="5C 9S", melded_before=[True, False, False, False]
        )
        assert _codes(rule_set, state, "take-pile with 9H") == expected, rule_set
        # a natural pair still takes it in both
        pair = make_state(
            rule_set,
            hands=["9H 9D QS QD", *FOUR_HANDS[1:]],
            melds=[["KC KD KH", "9C 9S 9H"], []],
            pile="5C 9C",
            melded_before=[True, False, False, False],
        )
        assert _codes(rule_set, pair, "take-pile with 9H 9D") == [], rule_set


def _after_take(rule_set: str, melds: list[list[str]], take: str) -> object:
    state = make_state(
        rule_set,
        hands=["9C 9D AH AD AS KC KD KH 5C 6C", "6C 7D", "6D 7C", "6H 7H"],
        melds=melds,
        pile="5D 9S",
        melded_before=[bool(melds[0]), False, False, False],
    )
    verdict = check_action(rules(rule_set), state, parse_action(take))
    assert verdict.legal, verdict.violations
    return verdict.next_state


def test_asking_after_laying_groups_the_pile_did_not_need_is_refused() -> None:
    """4P-CLASSIC "Going out": ask right after taking the pile, before putting anything else down."""
    with_melds = [["QC QD QH"], []]
    plain = _after_take("classic-4p", with_melds, "take-pile with 9C 9D")
    assert _codes("classic-4p", plain, "ask") == []
    extra = _after_take("classic-4p", with_melds, "take-pile with 9C 9D meld AH AD AS")
    assert _codes("classic-4p", extra, "ask") == ["ASK_AFTER_MELDING"]


def test_groups_the_initial_meld_needed_to_take_the_pile_still_allow_asking() -> None:
    """The nines (30) fall short of 50: the aces are part of taking the pile; the kings are not needed."""
    needed = _after_take("classic-4p", [[], []], "take-pile with 9C 9D meld AH AD AS")
    assert _codes("classic-4p", needed, "ask") == []
    more = _after_take("classic-4p", [[], []], "take-pile with 9C 9D meld AH AD AS, KC KD KH")
    assert _codes("classic-4p", more, "ask") == ["ASK_AFTER_MELDING"]


K7, Q7 = "KC KC KD KD KH KH KS", "QC QC QD QD QH QH QS"


def _turn_problems(rule_set: str, turn: dict[str, object], **kw: object) -> list[tuple[str, str]]:
    hands = ["9H 9D 9S 5C", "6C 7D"] if rule_set == "classic-2p" else ["9H 9D 9S 5C", "6C 7D", "6D 7C", "6H 7H"]
    state = make_state(rule_set, hands=hands, pile="4C", phase=kw.pop("phase", "PHASE_PLAY"), turn=turn, **kw)  # type: ignore[arg-type]
    return [(p.field, p.description) for p in validate_state(rules(rule_set), state)]


def test_older_melds_cannot_be_new_this_turn() -> None:
    """The probe of issue 14: melds_before_turn 0 under two older canastas made adding to them look concealed."""
    melds = [[K7, Q7], []]
    turn = {"start": "TURN_START_DREW", "meldsBeforeTurn": 0}
    fields = {f for f, _ in _turn_problems("classic-2p", turn, melds=melds, melded_before=[True, False])}
    assert fields == {"state.turn.melds_before_turn"}
    assert _turn_problems("classic-2p", {**turn, "meldsBeforeTurn": 2}, melds=melds, melded_before=[True, False]) == []
    # a player whose side's first melds went down this turn (melded) may have melds_before_turn 0
    assert _turn_problems("classic-2p", {**turn, "melded": True}, melds=melds) == []


@pytest.mark.parametrize(
    ("turn", "phase", "field"),
    [
        ({"start": "TURN_START_DREW", "madeCanasta": True, "meldsBeforeTurn": 3}, "PHASE_PLAY", "turn.made_canasta"),
        (
            {"start": "TURN_START_DREW", "melded": True, "addedToExisting": True, "meldsBeforeTurn": 0},
            "PHASE_PLAY",
            "turn.added_to_existing",
        ),
        (
            {
                "start": "TURN_START_DREW",
                "melded": True,
                "partnerAnswer": "PARTNER_ANSWER_PENDING",
                "meldsBeforeTurn": 1,
            },
            "PHASE_AWAIT_ANSWER",
            "turn.partner_answer",
        ),
        ({"start": "TURN_START_TOOK_PILE", "meldsBeforeTurn": 1}, "PHASE_PLAY", "turn.melds_before_turn"),
    ],
)
def test_turn_fields_that_cannot_hold_together_are_refused(turn: dict[str, object], phase: str, field: str) -> None:
    melds = [[K7, "9C 9D 9H", "AH AD AS"], []]
    problems = _turn_problems("classic-4p", turn, phase=phase, melds=melds)
    assert [f for f, _ in problems] == [f"state.{field}"], problems


def test_final_melds_follow_a_draw_and_no_question() -> None:
    """FINAL_MELDS follows drawing a last-card red three (classic-2p: 2P-GUIDE "Going out")."""
    r = rules("classic-2p")
    state = make_state(
        "classic-2p", hands=["9H 9D 9S 5C", "6C 7D"], melds=[["KC KD KH"], []], pile="4C", melded_before=[True, False]
    )
    reds = tuple(c for c in state.stock if is_red_three(c))
    others = tuple(c for c in state.stock if not is_red_three(c))
    emptied = replace(
        state,
        seats=(state.seats[0], replace(state.seats[1], hand=state.seats[1].hand + others)),
        sides=(state.sides[0], replace(state.sides[1], red_threes=reds)),
        stock=(),
        phase=Phase.FINAL_MELDS,
        turn=TurnState(start=TurnStart.TOOK_PILE, melds_before_turn=1),
    )
    assert [p.field for p in validate_state(r, emptied)] == ["state.turn.start"]
    drew = replace(emptied, turn=TurnState(start=TurnStart.DREW, melds_before_turn=1))
    assert validate_state(r, drew) == []


def test_a_yes_the_player_cannot_use_lets_play_go_on_and_is_scored() -> None:
    """4P-CLASSIC lists a penalty for asking and then being unable to go out: ask-penalty-4p charges 100."""
    for rule_set, penalty in (("classic-4p", 0), ("ask-penalty-4p", 100)):
        state = make_state(
            rule_set,
            hands=["9H 9D 5C", "6C 7D", "6D 7C", "6H 7H"],
            melds=[["KC KD KH"], []],
            pile="4C",
            phase="PHASE_PLAY",
            turn={"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_YES"},
            melded_before=[True, False, False, False],
        )
        verdict = check_action(rules(rule_set), state, parse_action("discard 5C"))
        assert verdict.legal and verdict.next_state is not None, verdict.violations
        assert verdict.next_state.sides[0].unable_after_yes == 1
        assert verdict.next_state.seat_to_move == 1
        table = end_table(rules(rule_set), verdict.next_state)
        lines = [(line.item, line.points) for line in score_hand(rules(rule_set), table)[0].lines]
        assert (ScoreItem.CANNOT_GO_OUT_AFTER_YES, -penalty) in lines


def _walk(rule_set: str, seed: int, rng: random.Random, steps: int) -> int:
    """A random hand from the deal, asking and answering yes whenever allowed; every state must offer a legal
    candidate (the candidate space of oracle.rules.candidates, each judged by the referee). Returns the states
    seen after a yes."""
    r = rules(rule_set)
    state = deal(r, deck_order(r, DeckSource(seed=seed)), dealer=seed % r.seats)
    after_yes = 0
    for _ in range(steps):
        if state.phase == Phase.HAND_OVER:
            break
        assert validate_state(r, state) == []
        legal = [a for a in iter_candidates(r, state) if is_legal(r, state, a, validate=False)]
        assert legal, f"no legal action (seed {seed}, seat {state.seat_to_move}, phase {state.phase.name})"
        preferred = [a for a in legal if isinstance(a, AskPartner) or a == AnswerPartner(True)]
        after_yes += state.turn.partner_answer == PartnerAnswer.YES
        action = preferred[0] if preferred else rng.choice(legal)
        verdict = check_action(r, state, action, validate=False)
        assert verdict.next_state is not None
        state = verdict.next_state
    return after_yes


def test_every_state_of_random_hands_with_binding_yeses_has_a_legal_action() -> None:
    """Bounded: a few hands of classic-4p and ask-penalty-4p, fixed seeds, at most 150 actions each."""
    rng = random.Random(14)
    seen_yes = sum(_walk(rule_set, seed, rng, 150) for rule_set in ("classic-4p", "ask-penalty-4p") for seed in (1, 2))
    assert seen_yes > 0  # the walks did reach states after a binding yes


@pytest.mark.parametrize(
    ("hand", "melds", "able"),
    [
        ("JK 2C 5C", ["KC KD KH KS KC"], True),  # both wilds on the kings make the canasta; 5C is discarded
        ("JK 2C 5C 6C", ["KC KD KH KS KC"], False),  # two odd cards: one can be discarded, the other cannot go
        ("9H 9D 2C JK 5C", ["KC KD KH KS KC KD"], True),  # one wild completes the kings, the other joins the nines
        ("9H 9D JK 5C", ["KC KD KH KS KC KD"], False),  # the joker cannot both complete the kings and be needed
        ("3C 3S 3C 5C", [K7], True),  # black threes go down as the last meld, 5C is discarded
        ("3C 3S 5C", [K7], False),  # two black threes are no meld
        ("5C", [K7], True),  # the last card is discarded
        ("5C", ["KC KD KH"], False),  # no canasta
    ],
)
def test_whether_the_player_can_still_go_out(hand: str, melds: list[str], able: bool) -> None:
    """The search behind a binding yes (oracle.rules.going_out_search), each answer judged by the referee."""
    state = make_state(
        "classic-4p",
        hands=[hand, "6C 7D", "6D 7C", "6H 7H"],
        melds=[melds, []],
        pile="4C",
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_YES"},
        melded_before=[True, False, False, False],
    )
    assert can_go_out(make_ctx(rules("classic-4p"), state)) is able


def test_a_player_holding_one_card_may_not_ask() -> None:
    """Every way on from one card goes out; a 'no' would leave no legal play (the project's rule)."""
    state = make_state(
        "classic-4p",
        hands=["5C", "6C 7D", "6D 7C", "6H 7H"],
        melds=[[K7, "9S 9H 9D"], []],
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_TOOK_PILE", "meldsBeforeTurn": 1},
        melded_before=[True, False, False, False],
    )
    verdict = check_action(rules("classic-4p"), state, parse_action("ask"))
    assert [(v.code, v.explanation) for v in verdict.violations] == [
        (
            "ASK_NOT_ALLOWED",
            "with one card in hand every way to end the turn goes out, so there is nothing to ask the partner"
            " (a 'no' would leave no legal play)",
        )
    ]


@pytest.mark.parametrize(
    ("override", "field"),
    [
        # a penalty for a yes needs a partner to say it
        (
            "going_out { cannot_go_out_after_yes_penalty: 100 ask_partner: ASK_PARTNER_NONE }",
            "going_out.cannot_go_out_after_yes_penalty",
        ),
        # the set's bonus turned against an unmelded side, while red threes never count against one
        (
            "threes { red_threes_negative_without_meld: false }",
            "threes.all_red_threes_negative_without_meld",
        ),
    ],
)
def test_rule_set_fields_that_cannot_hold_together_are_refused_with_their_path(override: str, field: str) -> None:
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-4p").rules.spec)
    text_format.Merge(override, spec)
    sources = [s.id for s in default_rule_book().sources.sources]
    assert [path for path, _ in check_rule_set(spec, sources)] == [field]
