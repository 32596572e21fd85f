"""Z3 properties, lint and engine-against-model cases for sides formed during the hand and the end of the stock."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
import z3
from cutthroat_states import cutthroat_hands
from verify_harness import fresh_footprints as fresh_footprints  # autouse: each test proves afresh

from oracle.api.v1 import ruleset_pb2
from oracle.model.cards import is_wild, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.events import SidesFormed
from oracle.model.score import SideScore
from oracle.model.state import GameState, Phase
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules import formation, scoring
from oracle.ruleset.compiled import CompiledRules, compile_rules
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.sections import AfterLastCard
from oracle.verify import model_formation as mf
from oracle.verify.boundary import check_engine
from oracle.verify.lint import ERROR, WARNING, lint
from oracle.verify.model import MeldCounts, RuleModel
from oracle.verify.properties import PROPERTIES, check_properties
from oracle.verify.report import verify_rule_sets

CUTTHROAT = ("cutthroat-3p", "cutthroat-one-canasta-3p", "cutthroat-play-on-3p")
NEW = ("stock-end", "formation-merge", "partner-score", "lone-hand-score", "all-red-threes-one-owner")
FORMATION = NEW[1:]


def rules_of(rule_set_id: str) -> CompiledRules:
    return default_rule_book().get(rule_set_id).rules


def results(rule_set_id: str, only: tuple[str, ...] = NEW) -> dict[str, tuple[bool, bool, str]]:
    """Property id -> (applicable, holds, detail) for the properties `only` under a shipped rule set's model."""
    chosen = [p for p in PROPERTIES if p.id in only]
    return {
        r.property_id: (r.applicable, r.holds, r.detail)
        for r in check_properties(RuleModel(rules_of(rule_set_id)), chosen)
    }


def failing(rule_set_id: str, property_id: str) -> str:
    """The detail of a property that must fail (under a model or engine a test has broken)."""
    applicable, holds, detail = results(rule_set_id, (property_id,))[property_id]
    assert applicable and not holds, (property_id, detail)
    return detail


# ----- the properties hold where they apply, and say so where they do not ------------------------------------


@pytest.mark.parametrize("rule_set_id", CUTTHROAT)
def test_every_new_property_is_proved_for_each_cutthroat_rule_set(rule_set_id: str) -> None:
    found = results(rule_set_id)
    assert set(found) == set(NEW)
    assert all(applicable and holds for applicable, holds, _ in found.values()), found


def test_formation_properties_are_not_applicable_under_fixed_sides_and_the_stock_end_is() -> None:
    found = results("classic-4p")
    for property_id in FORMATION:
        applicable, holds, detail = found[property_id]
        assert not applicable and holds
        assert (
            detail
            == "not applicable: players.side_formation fixes the sides at the deal, so no sides form during the hand"
        )
    assert found["stock-end"][:2] == (True, True)


def test_verify_reports_not_applicable_rows_apart_from_proved_ones() -> None:
    (fixed,) = verify_rule_sets(["classic-2p"])
    by_id = {p.property_id: p for p in fixed.properties}
    # the Modern American Canasta properties (tests/test_verify_american.py) are about fields classic-2p leaves unset
    family = {
        "threes-by-count",
        "rank-rule-wilds",
        "rule-of-five",
        "natural-meld-required",
        "dead-rank-reachable",
        "bonus-cards-fit",
    }
    # and so are the Samba ones (tests/test_verify_samba.py)
    family |= {"run-limits", "run-canasta", "run-canasta-reachable", "pile-top-run", "red-threes-need-canastas"}
    family.add("combine")
    # and so are the Hand and Foot ones (tests/test_verify_hand_and_foot.py)
    family |= {"foot-pickup", "foot-go-out", "book-quotas", "minimum-by-hand", "held-red-three-score"}
    assert {i for i, p in by_id.items() if not p.applicable} == set(FORMATION) | family
    assert fixed.ok and len(fixed.properties) == len(PROPERTIES)


# ----- each property fails on a deliberately wrong model ------------------------------------------------------


def test_formation_merge_fails_when_merged_melds_keep_the_single_wild_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mf, "merged_wild_limit", lambda rm: rm.spec.melds.max_wilds)
    detail = failing("cutthroat-3p", "formation-merge")
    wilds = [int(w) for w in re.findall(r"partner_meld\.wilds=(\d+)", detail)]
    assert len(wilds) == 2 and sum(wilds) > 3, detail


def test_formation_merge_fails_under_a_meld_size_cap_and_the_lint_refuses_it() -> None:
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("cutthroat-3p").spec)
    spec.melds.max_size = 7
    rules = compile_rules(spec)
    found = {
        r.property_id: r
        for r in check_properties(RuleModel(rules), [p for p in PROPERTIES if p.id == "formation-merge"])
    }
    assert not found["formation-merge"].holds
    errors = [f for f in lint(rules) if f.severity == ERROR]
    assert [(f.rule, f.field) for f in errors] == [("merged-meld-over-max-size", "melds.max_size")]
    assert "more than melds.max_size 7 allows" in errors[0].message


def _pooled_scores(rm: RuleModel, table: mf.FormedTable) -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]:
    """A wrong model: the partners' red threes counted together, for each of them."""
    pooled = rm.red_three_score(table.partnership.red_threes + table.high_red, table.partnership.has_meld)
    shared = mf.shared_items(table)
    return table.lone.total, shared + pooled, shared + pooled


def test_partner_score_and_one_owner_fail_when_partners_pool_their_red_threes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mf, "seat_scores", _pooled_scores)
    detail = failing("cutthroat-3p", "partner-score")
    assert "low_red_threes=" in detail and "high_red_threes=" in detail
    detail = failing("cutthroat-3p", "all-red-threes-one-owner")
    assert detail.startswith("split between partners: counterexample: ")


def test_lone_hand_score_fails_when_the_lone_hand_is_charged_the_partners_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    honest = mf.seat_scores

    def charged(rm: RuleModel, table: mf.FormedTable) -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]:
        lone, low, high = honest(rm, table)
        return lone - mf.partner_hand_points(table), low, high

    monkeypatch.setattr(mf, "seat_scores", charged)
    detail = failing("cutthroat-3p", "lone-hand-score")
    points = int(re.search(r"partners_cards_points=(\d+)", detail).group(1))  # type: ignore[union-attr]
    assert points > 0


def test_stock_end_fails_when_the_model_plays_on_or_always_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mf, "ends_after_discard", lambda spec: False)
    detail = failing("cutthroat-3p", "stock-end")
    assert "a turn that does not end the hand leaves a stock: counterexample:" in detail
    assert "stock_after=0" in detail and "hand_over=False" in detail
    monkeypatch.setattr(mf, "ends_after_discard", lambda spec: True)
    detail = failing("cutthroat-play-on-3p", "stock-end")
    assert "a draw phase with an empty stock is reached: no example exists" in detail


# ----- the lint knows the new fields ---------------------------------------------------------------------------


def test_must_take_pile_is_dead_when_the_last_discard_ends_the_hand() -> None:
    for rule_set_id in ("cutthroat-3p", "cutthroat-one-canasta-3p"):
        findings = [(f.rule, f.field, f.severity) for f in lint(rules_of(rule_set_id))]
        assert findings == [("must-take-dead", "stock_exhaustion.must_take_pile", WARNING)], rule_set_id
    assert lint(rules_of("cutthroat-play-on-3p")) == []


# ----- engine against model -------------------------------------------------------------------------------------


def test_engine_agrees_on_every_formation_score_and_stock_end_case() -> None:
    report = check_engine(rules_of("cutthroat-3p"))
    kinds = report.by_kind()
    assert kinds["stock-end"] == 4 and kinds["formation"] == 5 and kinds["formed-score"] == 8
    assert not report.disagreements, [c.to_json() for c in report.disagreements]
    cases = {c.id: c for c in report.cases}
    merged = cases["cutthroat-3p-formation-w6"].expected["merged"]
    assert isinstance(merged, list) and merged[1] == 6  # twice melds.max_wilds
    assert cases["cutthroat-3p-formation-w6"].expected["wildJoins"] is False
    split = cases["cutthroat-3p-formed-score-split-meld"].engine
    assert (split["lowRedThrees"], split["highRedThrees"]) == (100, 300)  # no 800 for four split 1 + 3
    alone = cases["cutthroat-3p-formed-score-partner-all-meld"].engine
    assert 800 in (alone["lowRedThrees"], alone["highRedThrees"])
    assert cases["cutthroat-3p-stock-end-discard-s0"].engine["handOver"] is True


def test_an_engine_that_pools_partners_red_threes_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = scoring.score_hand

    def pooled(rules: CompiledRules, table: HandTable) -> list[SideScore]:
        formed = table.side_of_seat
        if not formed:
            return honest(rules, table)
        sides = list(table.sides)
        for seat, entry in enumerate(formed):
            if entry != seat:  # the higher partner's red threes moved to the lower one's entry
                sides[entry] = replace(sides[entry], red_threes=sides[entry].red_threes + sides[seat].red_threes)
                sides[seat] = replace(sides[seat], red_threes=())
        return honest(rules, HandTable(tuple(sides), formed))

    monkeypatch.setattr(scoring, "score_hand", pooled)
    report = check_engine(rules_of("cutthroat-3p"))
    wrong = {c.id for c in report.disagreements}
    assert {"cutthroat-3p-formed-score-split-meld", "cutthroat-3p-formed-score-split-nomeld"} <= wrong
    assert all(c.kind == "formed-score" for c in report.disagreements)


def test_an_engine_that_sets_merged_melds_side_by_side_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = formation.form_sides

    def side_by_side(rules: CompiledRules, state: GameState, lone_seat: int) -> tuple[GameState, SidesFormed]:
        low, high = (s for s in range(rules.seats) if s != lone_seat)
        sides = list(state.sides)
        sides[low] = sides[low].evolve(melds=sides[low].melds + sides[high].melds)
        sides[high] = sides[high].evolve(melds=())
        return honest(rules, state.evolve(sides=tuple(sides)), lone_seat)

    monkeypatch.setattr(formation, "form_sides", side_by_side)
    report = check_engine(rules_of("cutthroat-3p"))
    assert {c.kind for c in report.disagreements} == {"formation"}
    assert all(c.engine["meldsOfRank"] == 2 for c in report.disagreements)


def test_an_engine_that_plays_on_after_the_last_discard_disagrees() -> None:
    rules = rules_of("cutthroat-3p")
    wrong = replace(rules, stock_exhaustion=replace(rules.stock_exhaustion, after_last_card=AfterLastCard.PLAY_ON))
    report = check_engine(wrong)
    assert [c.id for c in report.disagreements] == ["cutthroat-3p-stock-end-discard-s0"]
    case = report.disagreements[0]
    assert case.expected["handOver"] is True and case.engine["handOver"] is False


# ----- played hands agree with the model ------------------------------------------------------------------------


def test_played_hands_reach_a_draw_from_an_empty_stock_only_when_play_goes_on() -> None:
    reached = {rule_set_id: 0 for rule_set_id in ("cutthroat-3p", "cutthroat-play-on-3p")}
    for hand in cutthroat_hands():
        reached[hand.rule_set_id] += sum(s.phase == Phase.DRAW and not s.stock for s in hand.states)
    assert reached["cutthroat-3p"] == 0
    assert reached["cutthroat-play-on-3p"] >= 1  # a hand whose stock runs out, where play goes on


def test_played_formations_keep_every_card_in_melds_the_model_calls_legal() -> None:
    seen = 0
    for hand in cutthroat_hands():
        if hand.formed_at < 0:
            continue
        rules = rules_of(hand.rule_set_id)
        rm = RuleModel(rules)
        before, after = hand.states[hand.formed_at], hand.states[hand.formed_at + 1]
        lone = next(s for s, e in enumerate(after.side_of_seat) if e == s and after.side_of_seat.count(s) == 1)
        low, high = (s for s in range(3) if s != lone)
        partners_before = sorted(c for s in (low, high) for m in before.sides[s].melds for c in m)
        partners_after = sorted(c for m in after.sides[low].melds for c in m)
        assert partners_after == partners_before and not after.sides[high].melds
        for meld in after.sides[low].melds:
            wilds = sum(is_wild(c) for c in meld)
            counts = MeldCounts(z3.IntVal(len(meld) - wilds), z3.IntVal(wilds), z3.IntVal(0))
            assert z3.is_true(z3.simplify(mf.legal_merged_meld(rm, counts))), meld
        seen += 1
    assert seen >= 8


# ----- an engine gap the model shows ------------------------------------------------------------------------------


def test_a_table_where_a_player_went_out_without_sides_formed_is_refused() -> None:
    rules = rules_of("cutthroat-3p")
    goer = SideTable(
        (tuple(parse_cards("KC KD KH KS KC KD KH")), tuple(parse_cards("QC QD QH QS QC QD QH"))),
        (),
        ((),),
        WentOut.NORMAL,
    )
    others = (SideTable((), (), ((parse_cards("5C")[0],),)), SideTable((), (), ((parse_cards("5D")[0],),)))
    # Play never leaves this table: going out first makes seat 0 the lone hand and seats 1 and 2 partners, who
    # would each score -10 (both hands), not -5 each as sides of one. The state check refuses the same position.
    with pytest.raises(InvalidInputError, match="side_of_seat"):
        scoring.score_hand(rules, HandTable((goer, *others)))
