"""Z3 verification of Samba (samba-4p): the run, pile, red-three and combine properties, the lint of the Samba
fields, and the engine against the model; each check is shown to catch a deliberately wrong model or rule set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache

import pytest
import z3
from helpers import changed_spec as spec_of
from verify_harness import fresh_footprints as fresh_footprints  # autouse: each test proves afresh
from verify_harness import outcome

from oracle.api.v1 import ruleset_pb2
from oracle.rules import combine as engine_combine
from oracle.ruleset.loader import default_rule_book
from oracle.verify import boundary_runs, model_runs
from oracle.verify.boundary import EngineReport, check_engine
from oracle.verify.lint import ERROR, WARNING, lint
from oracle.verify.model import RuleModel
from oracle.verify.properties import PROPERTIES, check_properties
from oracle.verify.terms import Clause

NEW = ("run-limits", "run-canasta", "run-canasta-reachable", "pile-top-run", "red-threes-need-canastas", "combine")


def samba(change: Callable[[ruleset_pb2.RuleSet], None] | None = None) -> ruleset_pb2.RuleSet:
    return spec_of("samba-4p", change)


@cache
def engine_report() -> EngineReport:
    return check_engine(default_rule_book().get("samba-4p").rules)


@pytest.mark.parametrize("property_id", NEW)
def test_each_samba_property_is_proved_for_samba(property_id: str) -> None:
    holds, detail = outcome(samba(), property_id)
    assert holds, detail


@pytest.mark.parametrize(
    ("property_id", "reason"),
    [
        ("run-limits", "runs.min_size is 0"),
        ("pile-top-run", "runs.min_size is 0"),
        ("red-threes-need-canastas", "threes.canastas_for_red_threes is 0"),
        ("combine", "melds.one_meld_per_rank is true"),
    ],
)
def test_the_samba_properties_do_not_apply_to_the_classic_game(property_id: str, reason: str) -> None:
    (result,) = check_properties(RuleModel(spec_of("classic-4p")), [p for p in PROPERTIES if p.id == property_id])
    assert not result.applicable
    assert reason in result.detail


def test_run_canasta_reachable_fails_when_the_range_is_too_short() -> None:
    def nine_up(spec: ruleset_pb2.RuleSet) -> None:
        spec.runs.lowest_rank = ruleset_pb2.NATURAL_RANK_NINE  # nine .. ace: six ranks, a samba needs seven

    holds, detail = outcome(samba(nine_up), "run-canasta-reachable")
    assert not holds
    assert "runs.canasta_size 7" in detail


def test_run_limits_catches_a_model_that_forgets_the_suit(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = model_runs.run_clauses

    def any_suit(spec: ruleset_pb2.RuleSet, run: model_runs.RunCounts, *, new: bool = True) -> list[Clause]:
        return [c for c in honest(spec, run, new=new) if "one suit" not in c.text]

    monkeypatch.setattr(model_runs, "run_clauses", any_suit)
    holds, detail = outcome(samba(), "run-limits")
    assert not holds
    assert "suits=" in detail


def test_run_canasta_catches_a_bonus_that_starts_one_card_late(monkeypatch: pytest.MonkeyPatch) -> None:
    def late(spec: ruleset_pb2.RuleSet, run: model_runs.RunCounts) -> z3.ArithRef:
        return z3.If(run.size > spec.runs.canasta_size, spec.runs.canasta_bonus, 0)

    monkeypatch.setattr(model_runs, "run_bonus", late)
    holds, _ = outcome(samba(), "run-canasta")
    assert not holds


def test_pile_top_run_catches_a_take_with_hand_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    def with_hand(
        spec: ruleset_pb2.RuleSet, before: model_runs.RunCounts, top: int, hand: z3.ArithRef, frozen: z3.BoolRef
    ) -> z3.BoolRef:
        grown = model_runs.with_card(before, top)
        return z3.And(model_runs.legal_run(spec, before, new=False), model_runs.legal_run(spec, grown, new=False))

    monkeypatch.setattr(model_runs, "take_onto_run", with_hand)
    holds, detail = outcome(samba(), "pile-top-run")
    assert not holds
    assert "hand_cards=" in detail


def test_red_threes_need_canastas_catches_the_classic_meld_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RuleModel, "red_threes_count", lambda self, has_meld, canastas: has_meld)
    holds, detail = outcome(samba(), "red-threes-need-canastas")
    assert not holds
    assert "canastas=" in detail


def test_combine_catches_a_combined_meld_judged_by_another_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = RuleModel.legal_natural_meld_at

    def capped(self: RuleModel, m: object, rank: int, initial: object = False) -> z3.BoolRef:
        return z3.And(honest(self, m, rank, initial), m.size <= 9)  # type: ignore[arg-type, attr-defined]

    monkeypatch.setattr(RuleModel, "legal_natural_meld_at", capped)
    holds, _ = outcome(samba(), "combine")
    assert not holds


def _set(path: str, value: object) -> Callable[[ruleset_pb2.RuleSet], None]:
    section, name = path.split(".")

    def change(spec: ruleset_pb2.RuleSet) -> None:
        setattr(getattr(spec, section), name, value)

    return change


@pytest.mark.parametrize(
    ("base", "changes", "rule", "severity", "words"),
    [
        (
            "classic-4p",
            [("runs.max_size", 7), ("runs.pile_top_alone", True)],
            "runs-dead",
            WARNING,
            "runs.min_size is 0",
        ),
        ("samba-4p", [("runs.canasta_size", 8)], "run-canasta-over-cap", ERROR, "above runs.max_size 7"),
        (
            "samba-4p",
            [("runs.lowest_rank", ruleset_pb2.NATURAL_RANK_ACE), ("runs.highest_rank", ruleset_pb2.NATURAL_RANK_FOUR)],
            "run-range-empty",
            ERROR,
            "no run is legal",
        ),
        ("samba-4p", [("runs.lowest_rank", ruleset_pb2.NATURAL_RANK_NINE)], "run-canasta-cannot-fit", ERROR, "6 rank"),
        ("samba-4p", [("melds.one_meld_per_rank", True)], "combine-dead", WARNING, "never holds two melds"),
        (
            "samba-4p",
            [("threes.canastas_for_red_threes", 200)],
            "red-threes-canastas-unreachable",
            ERROR,
            "could never count",
        ),
    ],
)
def test_lint_finds_each_samba_setting_that_is_dead_or_contradictory(
    base: str, changes: list[tuple[str, object]], rule: str, severity: str, words: str
) -> None:
    def change(spec: ruleset_pb2.RuleSet) -> None:
        for path, value in changes:
            _set(path, value)(spec)

    findings = [f for f in lint(spec_of(base, change)) if f.rule == rule]
    assert findings, rule
    assert findings[0].severity == severity
    assert words in findings[0].message


def test_samba_and_the_classic_game_have_no_samba_lint_finding() -> None:
    samba_rules = {"runs-dead", "run-range-empty", "run-canasta-over-cap", "run-canasta-cannot-fit", "combine-dead"}
    samba_rules.add("red-threes-canastas-unreachable")
    for rule_set_id in ("samba-4p", "classic-4p"):
        assert not [f for f in lint(spec_of(rule_set_id)) if f.rule in samba_rules], rule_set_id


def test_the_engine_agrees_with_the_model_on_red_threes_that_need_two_canastas() -> None:
    report = engine_report()
    red = [c for c in report.cases if "-score-red" in c.id]
    assert red, "no red-three score cases"
    assert not report.disagreements, [c.id for c in report.disagreements]
    by_id = {c.id.removeprefix("samba-4p-score-"): c for c in red}
    assert by_id["red1-canastas1"].expected["redThrees"] == -100  # one canasta: threes.canastas_for_red_threes 2
    assert by_id["red1-canastas2"].expected["redThrees"] == 100


def test_the_engine_agrees_with_the_model_on_runs_and_the_pile_top_onto_a_run() -> None:
    cases = {c.id: c for c in engine_report().cases if c.kind == "run" or "-pile-run" in c.id}
    assert all(c.agrees for c in cases.values()), [c.id for c in cases.values() if not c.agrees]
    assert cases["samba-4p-run-size7"].expected == {"legal": True, "canasta": True}
    assert cases["samba-4p-run-size8"].expected["legal"] is False
    assert cases["samba-4p-play-pile-run3-hand1"].expected == {"refused": True}
    assert cases["samba-4p-play-pile-run3-hand0"].expected == {"refused": False}
    assert cases["samba-4p-play-pile-run7-hand0"].expected == {"refused": True}  # a samba takes no more cards
    assert cases["samba-4p-play-pile-run3-frozen"].expected == {"refused": True}
    assert cases["samba-4p-play-pile-run3-hand0"].engine["codes"] == []  # the whole take is legal, not just its run


def test_a_pile_case_catches_a_disagreement_on_hand_cards_with_the_top_card(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = model_runs.take_onto_run

    def hand_cards_too(
        spec: ruleset_pb2.RuleSet, before: model_runs.RunCounts, top: int, hand: z3.ArithRef, frozen: z3.BoolRef
    ) -> z3.BoolRef:
        return honest(spec, before, top, z3.IntVal(0), frozen)  # as if the hand cards did not count

    monkeypatch.setattr(model_runs, "take_onto_run", hand_cards_too)
    rules = default_rule_book().get("samba-4p").rules
    wrong = [c.id for c in boundary_runs.run_engine_cases(RuleModel(rules.spec), rules) if not c.agrees]
    assert wrong == [f"samba-4p-play-pile-run{n}-hand1" for n in (3, 4, 5, 6)]


def test_a_run_case_catches_an_engine_that_lets_a_run_grow_past_seven() -> None:
    rules = default_rule_book().get("samba-4p").rules
    loose = replace(rules, runs=replace(rules.runs, max_size=0))  # the engine's view only: the model reads the spec
    cases = boundary_runs.run_engine_cases(RuleModel(rules.spec), loose)
    assert "samba-4p-run-size8" in [c.id for c in cases if not c.agrees]


def test_combine_cases_agree_and_catch_an_engine_that_skips_the_meld_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = default_rule_book().get("samba-4p").rules
    honest = {c.id: c for c in boundary_runs.run_engine_cases(RuleModel(rules.spec), rules) if "-combine-" in c.id}
    assert all(c.agrees for c in honest.values())
    assert honest["samba-4p-play-combine-w1-w2"].expected == {"breaksMeld": True}  # three wild cards: max_wilds 2
    assert honest["samba-4p-play-combine-w0-w2"].expected == {"breaksMeld": False}
    monkeypatch.setattr(engine_combine, "meld_rule_breaks", lambda *args, **kwargs: [])
    lax = boundary_runs.run_engine_cases(RuleModel(rules.spec), rules)
    assert [c.id for c in lax if not c.agrees] == ["samba-4p-play-combine-w1-w2"]


def test_score_bounds_say_that_runs_are_outside_them_only_where_runs_exist() -> None:
    def bounds(spec: ruleset_pb2.RuleSet) -> str:
        (result,) = check_properties(RuleModel(spec), [p for p in PROPERTIES if p.id == "score-bounds"])
        return result.detail

    note = "runs (runs.canasta_bonus and run cards) are not in these bounds"
    assert note in bounds(samba())
    assert note not in bounds(spec_of("classic-4p"))
