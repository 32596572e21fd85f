"""Z3 verification of Hand and Foot: the foot, the book quotas, the minimum by hand, held red threes and its lint."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import text_format
from helpers import changed_spec as spec_of
from verify_harness import fresh_footprints as fresh_footprints  # autouse: each test proves afresh

from oracle.api.v1 import ruleset_pb2
from oracle.conformance.runner import InProcessTarget, RunOptions, load_cases, run_cases
from oracle.model.cards import parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules import scoring
from oracle.ruleset.compiled import compile_rules
from oracle.ruleset.loader import RuleBook, SpecError, default_rule_book
from oracle.verify import hand_split
from oracle.verify.boundary import check_engine
from oracle.verify.boundary_foot import foot_engine_cases
from oracle.verify.gate import contradictions
from oracle.verify.hand import side_hand
from oracle.verify.lint import ERROR, WARNING, lint
from oracle.verify.model import RuleModel
from oracle.verify.properties import PROPERTIES, PropertyResult, check_properties

FOOT_PROPERTIES = ("foot-pickup", "foot-go-out", "book-quotas", "minimum-by-hand", "held-red-three-score")


def results(spec: ruleset_pb2.RuleSet, ids: tuple[str, ...] = FOOT_PROPERTIES) -> dict[str, PropertyResult]:
    """The named properties checked against a spec's model."""
    return {r.property_id: r for r in check_properties(RuleModel(spec), [p for p in PROPERTIES if p.id in ids])}


# ----- the properties ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_set_id", ["hand-and-foot-4p", "hand-and-foot-red-threes-laid-4p"])
def test_the_hand_and_foot_properties_hold(rule_set_id: str) -> None:
    found = results(spec_of(rule_set_id))
    assert all(r.applicable and r.holds for r in found.values()), {k: r.detail for k, r in found.items()}
    assert "hand 4: e.g." in found["minimum-by-hand"].detail
    assert "possible from the foot" in found["foot-go-out"].detail


def test_the_hand_and_foot_properties_do_not_apply_to_the_classic_game() -> None:
    found = results(spec_of("classic-4p"))
    assert not any(r.applicable for r in found.values())
    assert found["foot-pickup"].detail == "not applicable: foot.size is 0: no player has a foot"
    assert "minimum_by_hand is empty" in found["minimum-by-hand"].detail


def test_running_total_minimum_and_laid_red_three_properties_say_why_they_do_not_apply() -> None:
    ids = ("red-three-monotone", "minimum-monotone", "threshold-rows-apply", "minimum-reachable")
    found = results(spec_of("hand-and-foot-4p"), ids)
    assert "threes.red_three_held" in found["red-three-monotone"].detail
    for rule in ids[1:]:
        assert not found[rule].applicable and "see minimum-by-hand" in found[rule].detail
    laid = results(spec_of("hand-and-foot-red-threes-laid-4p"), ("red-three-monotone",))
    assert laid["red-three-monotone"].applicable and laid["red-three-monotone"].holds


def test_foot_pickup_holds_when_the_foot_is_taken_up_only_by_the_discard() -> None:
    def walk(s: ruleset_pb2.RuleSet) -> None:
        s.foot.continue_after_melding_out = False

    found = results(spec_of("hand-and-foot-4p", walk), ("foot-pickup", "foot-go-out"))
    assert all(r.holds for r in found.values()), {k: r.detail for k, r in found.items()}


def test_quotas_that_miss_canastas_required_fail_book_quotas_and_are_a_lint_error() -> None:
    def off(s: ruleset_pb2.RuleSet) -> None:
        s.going_out.mixed_canastas_required = 1  # 2 + 1 = 3, canastas_required stays 4

    spec = spec_of("hand-and-foot-4p", off)
    found = results(spec, ("book-quotas",))["book-quotas"]
    assert not found.holds and "they sum to canastas_required: the quotas add up to 3, not 4" in found.detail
    errors = [(f.rule, f.field) for f in lint(spec) if f.severity == ERROR]
    assert errors == [("book-quotas-sum", "going_out.canastas_required")]
    with pytest.raises(SpecError, match="natural_canastas_required 2, mixed_canastas_required 1"):
        load(spec)  # and the loader refuses the same numbers before any lint


def load(spec: ruleset_pb2.RuleSet) -> None:
    """Load a spec through the loader's validation and lint gate (raises SpecError)."""
    RuleBook.from_texts(
        {f"{spec.id}.textproto": text_format.MessageToString(spec)},
        (resources.files("oracle.specs") / "sources.textproto").read_text(),
        checker=contradictions,
    )


def test_an_unreachable_minimum_by_hand_fails_minimum_by_hand() -> None:
    def high(s: ruleset_pb2.RuleSet) -> None:
        s.initial_meld.minimum_by_hand[1] = 5000

    found = results(spec_of("hand-and-foot-4p", high), ("minimum-by-hand",))["minimum-by-hand"]
    assert not found.holds
    assert re.search(r"hand 2: no example exists: .*reach 5000 points", found.detail), found.detail
    assert "hand 1" not in found.detail


def test_held_red_three_score_proves_one_held_red_three_costs_its_value() -> None:
    def cheap(s: ruleset_pb2.RuleSet) -> None:
        s.card_values.red_three = 300

    assert results(spec_of("hand-and-foot-4p", cheap), ("held-red-three-score",))["held-red-three-score"].holds
    # and the engine charges the same: one red three held in a hand costs card_values.red_three
    rules = compile_rules(spec_of("hand-and-foot-4p", cheap))
    kings = tuple(parse_cards("KC KD KH"))
    side = SideTable((kings,), (), (tuple(parse_cards("3D")), ()), WentOut.NO)
    other = SideTable((), (), ((), ()), WentOut.NO)
    score = scoring.score_hand(rules, HandTable((side, other), ()))[0]
    assert score.total == 30 - 300


# ----- the lint ------------------------------------------------------------------------------------------------


def test_lint_foot_fields_without_a_foot_are_dead() -> None:
    # the bases state foot.continue_after_melding_out and unplayed_counts true in every rule set; changing one
    # where foot.size is 0 changes nothing
    def no_foot(s: ruleset_pb2.RuleSet) -> None:
        s.foot.unplayed_counts = False

    findings = [(f.rule, f.field, f.severity) for f in lint(spec_of("classic-4p", no_foot))]
    assert findings == [("foot-dead", "foot.unplayed_counts", WARNING)]
    assert "foot.size is 0" in lint(spec_of("classic-4p", no_foot))[0].message
    assert not [f for f in lint(spec_of("classic-4p")) if f.rule == "foot-dead"]


def test_lint_a_minimum_table_beside_minimum_by_hand_is_dead() -> None:
    def by_hand(s: ruleset_pb2.RuleSet) -> None:
        s.initial_meld.minimum_by_hand.extend([50, 90])

    findings = [f for f in lint(spec_of("classic-4p", by_hand)) if f.rule == "minimum-table-dead"]
    assert [(f.field, f.severity) for f in findings] == [("initial_meld.thresholds", WARNING)]
    assert "minimum_by_hand [50, 90] decides" in findings[0].message


def test_lint_minimum_by_hand_past_the_games_hands_is_dead() -> None:
    def five(s: ruleset_pb2.RuleSet) -> None:
        s.initial_meld.minimum_by_hand.append(180)

    findings = [f for f in lint(spec_of("hand-and-foot-4p", five)) if f.rule == "minimum-by-hand-dead"]
    assert [(f.field, f.severity) for f in findings] == [("initial_meld.minimum_by_hand[4]", WARNING)]
    assert not [f for f in lint(spec_of("hand-and-foot-4p")) if f.rule == "minimum-by-hand-dead"]


def test_lint_a_red_three_value_where_red_threes_are_laid_is_dead() -> None:
    findings = [f for f in lint(spec_of("hand-and-foot-red-threes-laid-4p")) if f.rule == "red-three-value-dead"]
    assert [(f.field, f.severity) for f in findings] == [("card_values.red_three", WARNING)]
    assert not [f for f in lint(spec_of("hand-and-foot-4p")) if f.rule == "red-three-value-dead"]


def test_lint_does_not_call_never_melded_black_threes_or_held_red_threes_a_problem() -> None:
    rules = {f.rule for f in lint(spec_of("hand-and-foot-4p"))}
    assert not rules & {"black-three-meld-impossible", "red-three-bonus-falls"}


# ----- engine against model ------------------------------------------------------------------------------------


def test_engine_agrees_with_the_model_on_the_foot_the_quotas_and_the_minimum_by_hand() -> None:
    rules = default_rule_book().get("hand-and-foot-4p").rules
    cases = foot_engine_cases(RuleModel(rules.spec), rules)
    kinds = {c.kind for c in cases}
    assert kinds == {"minimum-by-hand", "foot", "quota"}
    assert not [c.id for c in cases if not c.agrees]
    by_id = {c.id: c for c in cases}
    assert by_id["hand-and-foot-4p-foot-meld-out"].engine["hand"] == 11
    assert by_id["hand-and-foot-4p-quota-n2-m2"].engine["wentOut"] is True
    assert by_id["hand-and-foot-4p-quota-n1-m2"].engine["booksMissing"] is True


def test_an_engine_with_other_quotas_or_minimums_is_caught() -> None:
    # the model reads hand-and-foot-4p, the engine judges with one clean and one dirty book and other minimums
    model = RuleModel(default_rule_book().get("hand-and-foot-4p").spec)

    def other(s: ruleset_pb2.RuleSet) -> None:
        s.initial_meld.minimum_by_hand[0] = 60

    engine = compile_rules(spec_of("hand-and-foot-one-each-4p", other))
    wrong = {c.id for c in foot_engine_cases(model, engine) if not c.agrees}
    assert "hand-and-foot-4p-quota-n1-m1" in wrong and "hand-and-foot-4p-minimum-hand1" in wrong
    assert "hand-and-foot-4p-minimum-hand1-p50" in wrong  # 50 is below the engine's 60
    assert "hand-and-foot-4p-minimum-hand2" not in wrong and "hand-and-foot-4p-quota-n2-m2" not in wrong


def test_an_engine_that_does_not_take_up_the_foot_is_caught() -> None:
    model = RuleModel(default_rule_book().get("hand-and-foot-4p").spec)

    def walk(s: ruleset_pb2.RuleSet) -> None:
        s.foot.continue_after_melding_out = False  # melding out is then FOOT_NOT_YET

    engine = compile_rules(spec_of("hand-and-foot-4p", walk))
    wrong = {c.id: c for c in foot_engine_cases(model, engine) if not c.agrees}
    assert list(wrong) == ["hand-and-foot-4p-foot-meld-out"]
    assert wrong["hand-and-foot-4p-foot-meld-out"].engine["codes"] == ["FOOT_NOT_YET"]


# ----- conformance cases, and an engine bug found (oracle/rules belongs to the lead) ---------------------------------


def test_a_minimum_by_hand_disagreement_is_written_as_a_conformance_case(tmp_path: Path) -> None:
    # an engine whose compiled second hand asks 80 where the rule set says 90: the lookup case is written as a
    # GetMinimumInitialMeld case (the meld laid for 85 is a disagreement too, but not a conformance case)
    rules = default_rule_book().get("hand-and-foot-4p").rules
    lower = replace(rules, initial_meld=replace(rules.initial_meld, minimum_by_hand=(50, 80, 120, 150)))
    report = check_engine(lower, tmp_path)
    assert {c.id for c in report.disagreements} == {
        "hand-and-foot-4p-minimum-hand2",
        "hand-and-foot-4p-minimum-hand2-p85",
    }
    cases = load_cases(tmp_path / "conformance")
    assert {c.case.id for c in cases} == {"verify.hand-and-foot-4p-minimum-hand2"}
    # the case asks the shipped rule set (hand-and-foot-4p: 90 in hand 2), which passes it
    assert [r.status for r in run_cases(cases, InProcessTarget(), RunOptions())] == ["pass"]


def test_a_laid_red_three_under_held_red_threes_is_refused_with_a_clear_reason() -> None:
    # red threes are held under this rule set, never laid: the refusal says so (not "3D is not a three")
    rules = default_rule_book().get("hand-and-foot-4p").rules
    side = SideTable((tuple(parse_cards("KC KD KH")),), tuple(parse_cards("3D")), ((), ()), WentOut.NO)
    other = SideTable((), (), ((), ()), WentOut.NO)
    with pytest.raises(InvalidInputError) as refused:
        scoring.score_hand(rules, HandTable((side, other), ()))
    assert "red_three_held" in str(refused.value)


# ----- the highest score, proved rank by rank ------------------------------------------------------------------


def test_the_highest_hand_and_foot_score_is_proved_rank_by_rank_and_the_engine_scores_it() -> None:
    rules = default_rule_book().get("hand-and-foot-4p").rules
    model = RuleModel(rules.spec)
    split = hand_split.highest_split(model)
    assert split is not None
    bound, books = split
    # 11 ranks of 20 cards in books closed at seven, all 30 wild cards melded, going out concealed for 100
    assert bound == 17290
    assert all(sum(n for n, _ in b) <= 20 for b in books.values())
    assert hand_split.highest_table(model, side_hand(model)) is not None
    found = results(rules.spec, ("score-bounds",))["score-bounds"]
    assert found.holds and "highest 17290 (" in found.detail and "proved rank by rank" in found.detail
    assert "(10 red three(s) held)" in found.detail  # the lowest table holds every red three
    cases = {c.id: c for c in check_engine(rules).cases}
    assert cases["hand-and-foot-4p-score-highest"].engine["total"] == 17290
    assert cases["hand-and-foot-4p-score-held-red3-meld"].agrees


def test_a_bound_the_table_passes_is_never_reported_as_the_highest(monkeypatch: pytest.MonkeyPatch) -> None:
    model = RuleModel(default_rule_book().get("hand-and-foot-4p").spec)
    monkeypatch.setattr(hand_split, "_most_threes_and_out", lambda m: 0)  # forgets the 100 for going out
    split = hand_split.highest_split(model)
    assert split is not None and split[0] == 17190
    assert hand_split.highest_table(model, side_hand(model)) is None
