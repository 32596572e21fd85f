"""Each rule fact is decided in one place: the initial-meld minimum, going out with no final discard, the covered
upcard, the canasta count; and the rule checks stay separate from applying an action (is_legal, apply_action)."""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import make_state

from oracle.conformance.perft import load_perft_cases, rules_and_state
from oracle.games.deal import deal
from oracle.model.actions import parse_action
from oracle.model.cards import deck, parse_cards
from oracle.model.state import GameState, SideState, TurnStart, TurnState
from oracle.rules import minimum
from oracle.rules.candidates import candidates
from oracle.rules.context import make_ctx
from oracle.rules.going_out import check_keep_cards, check_melding_out
from oracle.rules.melds import canasta_count, meld_shape, shapes_of
from oracle.rules.minimum import check_initial_meld, is_minimum_waived, needs_initial_meld, side_minimum
from oracle.rules.referee import action_violations, apply_action, check_action, is_legal
from oracle.rules.state_check import validate_state
from oracle.rules.upcards import is_covered_kind, must_cover
from oracle.rules.violations import Code
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

ROOT = Path(__file__).resolve().parent.parent
K7 = "KC KC KD KD KH KH KS"  # a natural canasta of kings
PLAY = {"phase": "PHASE_PLAY", "turn": {"start": "TURN_START_DREW"}}


def rules_of(rule_set_id: str, **changes: dict[str, object]) -> CompiledRules:
    """A shipped rule set, with some sections' values changed (section -> {field: value})."""
    rules = default_rule_book().get(rule_set_id).rules
    for section, values in changes.items():
        rules = replace(rules, **{section: replace(getattr(rules, section), **values)})
    return rules


def four(hand: str, **kw: object) -> GameState:
    """A classic-4p state, seat 0 to move, every card not placed in the stock."""
    melds = kw.pop("melds", ((), ()))
    return make_state("classic-4p", hands=[hand, "6C 7D", "6D 7C", "6H 7H"], melds=[list(m) for m in melds], **kw)  # type: ignore[arg-type, union-attr]


def codes(rules: CompiledRules, state: GameState, action: str) -> list[str]:
    return [v.code for v in check_action(rules, state, parse_action(action)).violations]


# --- where each fact is read: one module of oracle/rules and oracle/games ---------------------------------------------

READERS = {
    # (section, attribute) read, or ("", attribute) read on anything -> the one module of oracle/rules and
    # oracle/games that reads it
    ("", "discard_optional"): "rules/going_out.py",
    ("canastas", "min_size"): "rules/melds.py",
    ("", "upcard_cover_wild"): "rules/upcards.py",
    ("", "upcard_cover_red_three"): "rules/upcards.py",
    ("", "upcard_cover_black_three"): "rules/upcards.py",
    ("", "upcard_cover_repeats"): "rules/upcards.py",
    ("", "waived_for_concealed_going_out"): "rules/minimum.py",
    ("", "minimum_for"): "rules/minimum.py",
}


def _reads() -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = {key: set() for key in READERS}
    for path in sorted([*(ROOT / "oracle" / "rules").glob("*.py"), *(ROOT / "oracle" / "games").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute):
                continue
            section = node.value.attr if isinstance(node.value, ast.Attribute) else ""
            for key in ((section, node.attr), ("", node.attr)):
                if key in found:
                    found[key].add(str(path.relative_to(ROOT / "oracle")))
    return found


def test_each_rule_fact_is_read_in_one_module() -> None:
    assert _reads() == {key: {module} for key, module in READERS.items()}


def test_rules_and_games_read_rule_set_values_only_through_the_typed_view() -> None:
    for path in sorted([*(ROOT / "oracle" / "rules").glob("*.py"), *(ROOT / "oracle" / "games").glob("*.py")]):
        text = path.read_text()
        assert "rules.spec" not in text, f"{path.name} reads the proto message: read CompiledRules' view"
        assert "ruleset_pb2" not in text, f"{path.name} imports the schema: use oracle.ruleset.sections"
        assert ".limits" not in text, path.name


# --- the initial-meld minimum ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "expected"), [(-5, 15), (0, 50), (1499, 50), (1500, 90), (3000, 120)])
def test_side_minimum_is_the_row_for_the_running_total(total: int, expected: int) -> None:
    rules = rules_of("classic-4p")
    assert side_minimum(rules, SideState(running_total=total)) == expected == rules.minimum_initial_meld(total)[0]


def test_the_minimum_applies_only_to_a_side_without_melds() -> None:
    rules = rules_of("classic-4p")
    without = four("9H 9D 9S 5C", **PLAY)
    with_melds = four("9H 9D 9S 5C", melds=((K7,), ()), **PLAY)
    assert needs_initial_meld(without.sides[0]) and not needs_initial_meld(with_melds.sides[0])
    assert check_initial_meld(make_ctx(rules, with_melds), 0, took_pile=False) == []
    short = check_initial_meld(make_ctx(rules, without), 49, took_pile=False)
    assert [(v.code, v.field, v.explanation) for v in short] == [
        (
            Code.INITIAL_MELD_BELOW_MINIMUM,
            "initial_meld.thresholds",
            "the side's first melds count 49; a running total of 0 needs 50",
        )
    ]
    assert check_initial_meld(make_ctx(rules, without), 50, took_pile=False) == []  # reaching it is enough
    taking = check_initial_meld(make_ctx(rules, without), 20, took_pile=True)
    assert "(the top card counts, the rest of the pile does not)" in taking[0].explanation
    assert check_initial_meld(make_ctx(rules, without), 20, took_pile=False, waived=True) == []


def test_melding_and_taking_the_pile_both_ask_the_one_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rules_of("classic-4p")
    meld = (four("9H 9D 9S 5C 8C", **PLAY), "meld 9H 9D 9S")  # 30 points: below 50
    take = (four("9H 9D 5C 8C", pile="4C 9S"), "take-pile with 9H 9D")  # the top card and two nines: 30
    for state, action in (meld, take):
        assert codes(rules, state, action) == [Code.INITIAL_MELD_BELOW_MINIMUM]
    monkeypatch.setattr(minimum, "side_minimum", lambda rules, side, hand_number=1: 30)
    for state, action in (meld, take):
        assert codes(rules, state, action) == []


def test_the_waiver_needs_a_concealed_going_out_after_drawing() -> None:
    rules = rules_of("classic-4p")
    state = four("9H", **PLAY)
    ctx = make_ctx(rules, state)
    concealed = TurnState(start=TurnStart.DREW, made_canasta=True)
    assert is_minimum_waived(ctx, concealed, going_out=True, canastas=1)
    assert not is_minimum_waived(ctx, concealed, going_out=False, canastas=1)
    assert not is_minimum_waived(ctx, concealed, going_out=True, canastas=0)  # classic-4p needs one canasta
    assert not is_minimum_waived(ctx, replace(concealed, made_canasta=False), going_out=True, canastas=1)
    off = make_ctx(rules_of("classic-4p", initial_meld={"waived_for_concealed_going_out": False}), state)
    assert not is_minimum_waived(off, concealed, going_out=True, canastas=1)
    took = make_ctx(rules, replace(state, turn=TurnState(start=TurnStart.TOOK_PILE)))
    assert not is_minimum_waived(took, concealed, going_out=True, canastas=1)


# --- going out with no final discard ----------------------------------------------------------------------------------


def test_going_out_without_a_discard_is_one_rule_for_melding_and_for_taking_the_pile() -> None:
    strict = rules_of("classic-4p", going_out={"discard_optional": False})
    meld = (four("9H 9D 9S", melds=((K7,), ()), **PLAY), "meld 9H 9D 9S")
    take = (four("9H 9D", melds=((K7,), ()), pile="9S"), "take-pile with 9H 9D")
    for state, action in (meld, take):
        assert codes(strict, state, action) == [Code.GO_OUT_NEEDS_DISCARD]
        assert codes(rules_of("classic-4p"), state, action) == []
    ctx = make_ctx(strict, meld[0])
    assert [v.explanation for v in check_melding_out(ctx, 1, took_pile=False)] == [
        "the last card must be discarded, not melded"
    ]
    assert [v.explanation for v in check_melding_out(ctx, 1, took_pile=True)] == [
        "taking the pile would leave no card to discard"
    ]
    assert [v.code for v in check_melding_out(ctx, 0, took_pile=True)] == [
        Code.GO_OUT_WITHOUT_CANASTAS,
        Code.GO_OUT_NEEDS_DISCARD,
    ]
    assert check_melding_out(make_ctx(rules_of("classic-4p"), meld[0]), 1, took_pile=False) == []


def test_a_player_keeps_cards_until_the_side_has_its_canastas() -> None:
    ctx = make_ctx(rules_of("classic-2p"), make_state("classic-2p", hands=["9H 9D 9S", "6C 7D"], **PLAY))
    assert check_keep_cards(ctx, 2, 1) == []  # two cards kept: one to discard, one to hold
    [kept] = check_keep_cards(ctx, 1, 1)
    assert (kept.code, kept.field) == (Code.MUST_KEEP_CARDS, "going_out.min_hand_after_meld_without_canastas")
    assert check_keep_cards(ctx, 0, 2) == []  # with both canastas the hand may empty


# --- the covered upcard ---------------------------------------------------------------------------------------------


def test_which_upcards_are_covered() -> None:
    classic, cover_2p, bicycle = rules_of("classic-4p"), rules_of("2p-cover-upcard"), rules_of("bicycle-4p")
    joker, two, red, black, five = parse_cards("JK 2C 3H 3S 5H")
    assert [is_covered_kind(classic, c) for c in (joker, two, red, black, five)] == [True, True, True, False, False]
    assert is_covered_kind(bicycle, black) and not is_covered_kind(rules_of("classic-2p"), joker)
    assert must_cover(classic, [joker]) and must_cover(classic, [joker, two])  # classic-4p keeps covering
    assert must_cover(cover_2p, [joker]) and not must_cover(cover_2p, [joker, two])  # once only
    assert not must_cover(classic, [joker, five])


@pytest.mark.parametrize(
    ("rule_set_id", "expected"),
    [("classic-4p", "JK 2C 3H 5H"), ("2p-cover-upcard", "JK 2C"), ("classic-2p", "JK"), ("bicycle-4p", "JK 2C 3H 5H")],
)
def test_the_deal_and_the_state_check_agree_on_the_upcards(rule_set_id: str, expected: str) -> None:
    rules = rules_of(rule_set_id)
    turned = parse_cards("JK 2C 3H 5H 6H")
    rest = Counter(deck(rules.deck.packs, rules.deck.jokers))
    rest.subtract(turned)
    others = sorted(rest.elements())
    dealt = rules.seats * rules.deal.hand_size
    state = deal(rules, [*others[:dealt], *turned, *others[dealt:]])
    assert state.discard_pile == tuple(parse_cards(expected)) and state.pile_upcards == len(state.discard_pile)
    assert validate_state(rules, state) == []
    if state.pile_upcards > 1:
        fewer = replace(state, pile_upcards=state.pile_upcards - 1)
        assert [p.field for p in validate_state(rules, fewer)] == ["state.pile_upcards"]


# --- the canasta count ----------------------------------------------------------------------------------------------


def test_the_canasta_count() -> None:
    rules = rules_of("classic-4p")
    melds = [
        tuple(parse_cards(K7)),  # natural canasta
        tuple(parse_cards("QC QD QH QS QS 2C JK")),  # mixed canasta
        tuple(parse_cards("AC AD AH AS AS 2D")),  # six cards: not yet
        tuple(parse_cards("3C 3C 3S 3S")),  # black threes: never a canasta
        tuple(parse_cards("9H 3H 9D")),  # malformed (a red three): skipped
    ]
    assert [meld_shape(m).size for m in melds[:4]] == [7, 7, 6, 4]
    assert len(shapes_of(melds)) == 4
    assert canasta_count(rules, shapes_of(melds)) == 2
    assert canasta_count(rules_of("classic-4p", canastas={"min_size": 6}), shapes_of(melds)) == 3
    wild = rules_of("wild-melds-4p")
    assert canasta_count(wild, shapes_of([tuple(parse_cards("JK JK 2C 2C 2D 2D 2H"))])) == 1


def test_going_out_counts_canastas_the_same_way_in_the_move_and_in_the_state_check() -> None:
    rules = rules_of("classic-4p", canastas={"min_size": 8})  # the king meld is no longer a canasta
    state = four("9H 9D 9S 5C", melds=((K7,), ()), **PLAY)
    assert codes(rules, state, "meld 9H 9D 9S") == [Code.MUST_KEEP_CARDS]
    assert codes(rules_of("classic-4p"), state, "meld 9H 9D 9S") == []
    after = check_action(rules_of("classic-4p"), state, parse_action("meld 9H 9D 9S")).next_state
    assert after is not None
    out = check_action(rules_of("classic-4p"), after, parse_action("discard 5C")).next_state
    assert out is not None and validate_state(rules_of("classic-4p"), out) == []
    assert [p.field for p in validate_state(rules, out)] == ["state.went_out_seat"]


# --- checking is separate from applying -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", load_perft_cases(), ids=lambda c: c.id)
def test_is_legal_and_apply_action_agree_with_check_action(case: object) -> None:
    rules, state = rules_and_state(case)  # type: ignore[arg-type]
    ctx = make_ctx(rules, state)
    for action in candidates(rules, state):
        verdict = check_action(rules, state, action, validate=False)
        assert is_legal(rules, state, action) == verdict.legal == (not action_violations(ctx, action))
        if verdict.legal:
            applied = apply_action(ctx, action)
            assert (applied.next_state, applied.events) == (verdict.next_state, verdict.events)
