"""The violation registry: one Rule per code, append-only codes, fields that exist in the RuleSet schema, templates
that format with exactly their parameters, every code and wording produced by a conformance case, and the rules
layer building every violation from it (no bare code strings, one contract for the rule checks)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

from oracle.api.v1 import oracle_pb2
from oracle.cli.disputes import explain_lines
from oracle.conformance.runner import InProcessTarget, Reply, RunOptions, coverage, load_cases, run_cases
from oracle.model.actions import parse_action
from oracle.model.state import GameState
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.rules.violations import MELD_SUFFIX, RULES, Code, Rule, find_rule, template_params, violation
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.paths import all_paths

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "oracle" / "rules"

#: Every code shipped so far and the rule-set field it names. Codes are append-only: a code may be added to the
#: registry (and here), never renamed or removed, and its field never changes.
SHIPPED = {
    "WRONG_PHASE": "turn",
    "HAND_IS_OVER": "game",
    "CARDS_NOT_IN_HAND": "turn",
    "MUST_TAKE_PILE": "stock_exhaustion.must_take_pile",
    "PILE_EMPTY": "discard_pile",
    "PILE_TOP_WILD": "discard_pile.wild_top_blocks",
    "PILE_TOP_BLACK_THREE": "discard_pile.black_three_top_blocks",
    "PILE_TOP_RED_THREE": "threes",
    "PILE_FROZEN_NEEDS_NATURAL_PAIR": "discard_pile",
    "PILE_TOP_NOT_MELDED": "discard_pile",
    "PILE_NATURAL_AND_WILD_NOT_ALLOWED": "discard_pile.unfrozen_natural_and_wild",
    "PILE_ONTO_MELD_NOT_ALLOWED": "discard_pile.unfrozen_onto_existing_meld",
    "PILE_ONE_CARD_WITH_ONE_CARD": "discard_pile.one_card_hand_no_one_card_pile",
    "MELD_TOO_SMALL": "melds.min_size",
    "MELD_TOO_FEW_NATURALS": "melds.min_naturals",
    "MELD_TOO_MANY_WILDS": "melds.max_wilds",
    "MELD_WILDS_OUTNUMBER_NATURALS": "melds.wild_ratio",
    "MELD_TOO_LARGE": "melds.max_size",
    "MELD_ALL_WILD": "melds.wild_only_melds",
    "MELD_NO_SUCH_MELD": "melds.one_meld_per_rank",
    "BLACK_THREES_NOT_GOING_OUT": "threes.black_three_meld_going_out_only",
    "BLACK_THREE_MELD_SIZE": "threes.black_three_meld_min",
    "BLACK_THREE_MELD_WILDS": "threes.black_three_meld_wilds",
    "WILD_ON_NATURAL_CANASTA": "canastas.wild_may_join_natural",
    "INITIAL_MELD_BELOW_MINIMUM": "initial_meld.thresholds",
    "MUST_KEEP_CARDS": "going_out.min_hand_after_meld_without_canastas",
    "GO_OUT_WITHOUT_CANASTAS": "going_out.canastas_required",
    "GO_OUT_NEEDS_DISCARD": "going_out.discard_optional",
    "GO_OUT_PARTNER_SAID_NO": "going_out.ask_partner",
    "MUST_GO_OUT_PARTNER_SAID_YES": "going_out.ask_partner",
    "ASK_NOT_ALLOWED": "going_out.ask_partner",
    "ASK_AFTER_MELDING": "going_out.ask_partner",
    "ASK_ALREADY_ANSWERED": "going_out.ask_partner",
    "LAST_RED_THREE_NO_DISCARD": "stock_exhaustion.last_red_three",
    "RUNS_NOT_ALLOWED": "runs.min_size",
    "RUN_WILD_CARD": "runs",
    "RUN_MIXED_SUITS": "runs.min_size",
    "RUN_NOT_CONSECUTIVE": "runs.min_size",
    "RUN_RANK_OUT_OF_RANGE": "runs.lowest_rank",
    "RUN_TOO_SMALL": "runs.min_size",
    "RUN_TOO_LARGE": "runs.max_size",
    "MELD_TARGET_OTHER_RANK": "melds.one_meld_per_rank",
    "MELD_SECOND_OF_RANK": "melds.one_meld_per_rank",
    "PILE_TOP_CANNOT_START_RUN": "runs.pile_top_alone",
    "PILE_TOP_RUN_WITH_HAND_CARDS": "runs.pile_top_alone",
    "PILE_TOP_ONTO_RUN_NOT_ALLOWED": "runs.pile_top_alone",
    "PILE_ONTO_CANASTA_NOT_ALLOWED": "discard_pile.onto_meld_below_canasta_only",
    "COMBINE_NOT_ALLOWED": "melds.combine_same_rank",
    "COMBINE_DIFFERENT_RANKS": "melds.combine_same_rank",
    "COMBINE_BREAKS_MELD": "melds.combine_same_rank",
    "WILD_ON_CANASTA": "canastas.wild_may_join_canasta",
}

WORDINGS = [(rule.code, variant) for rule in RULES.values() for variant in ("", *rule.variants)]
CASES = load_cases()


#: Rules with a melds.* or runs.* field that judge where a group goes, a combination of melds or the pile's top
#: card, not a meld's make-up.
_PLACEMENT_RULES = {
    Code.PILE_TOP_CANNOT_START_RUN,
    Code.PILE_TOP_RUN_WITH_HAND_CARDS,
    Code.PILE_TOP_ONTO_RUN_NOT_ALLOWED,
    Code.MELD_NO_SUCH_MELD,
    Code.MELD_TARGET_OTHER_RANK,
    Code.MELD_SECOND_OF_RANK,
    Code.MELD_OPEN_OF_RANK_EXISTS,
    Code.COMBINE_NOT_ALLOWED,
    Code.COMBINE_DIFFERENT_RANKS,
    Code.COMBINE_BREAKS_MELD,
}


def _is_meld_rule(rule: Rule) -> bool:
    """A rule meld_rule_breaks reports (about one meld's make-up: groups and runs)."""
    fields = ("melds.", "threes.black_three_meld", "runs.")
    return (rule.field.startswith(fields) or rule.field == "runs") and rule.code not in _PLACEMENT_RULES


# --- the table -----------------------------------------------------------------------------------------------------


def test_codes_are_append_only() -> None:
    assert set(SHIPPED) <= {code.value for code in Code}, "a shipped code was removed or renamed"
    for code, field in SHIPPED.items():
        assert RULES[Code(code)].field == field, f"{code} changed its rule-set field"


def test_every_code_has_exactly_one_rule_and_its_name_is_its_value() -> None:
    assert list(RULES) == list(Code)
    for code, rule in RULES.items():
        assert rule.code is code
        assert code.name == code.value
        assert re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*", code.value)
        assert find_rule(code.value) is rule
    assert find_rule("NO_SUCH_CODE") is None


@pytest.mark.parametrize("code", list(Code), ids=str)
def test_the_rule_names_a_field_of_the_rule_set_schema(code: Code) -> None:
    rule = RULES[code]
    assert rule.field in all_paths(), f"{code}: {rule.field} is not a RuleSet section or field"
    assert rule.summary.endswith(".") and rule.summary[0].isupper()


@pytest.mark.parametrize(("code", "variant"), WORDINGS, ids=lambda v: str(v) or "main")
def test_the_template_formats_with_exactly_its_named_parameters(code: Code, variant: str) -> None:
    rule = RULES[code]
    text = rule.text(variant)
    params = template_params(text)
    assert all(p.isidentifier() and p not in ("variant", "field") for p in params), params
    values = {p: f"<{p}>" for p in params}
    explained = rule.format(variant, **values)
    assert "{" not in explained and "}" not in explained
    assert all(f"<{p}>" in explained for p in params)
    assert explained[0].islower() or explained[0] == "<" or explained[0].isdigit()
    if params:
        missing = dict(values)
        missing.pop(sorted(params)[0])
        with pytest.raises(TypeError, match=str(code)):
            rule.format(variant, **missing)
    with pytest.raises(TypeError, match="got"):
        rule.format(variant, **values, unexpected=1)
    if _is_meld_rule(rule):  # the state and table checks print the reason without the meld
        assert text.endswith(MELD_SUFFIX)
        values.pop("meld")
        assert rule.reason(variant, **values) + ": <meld>" == explained
    else:
        with pytest.raises(ValueError, match="not a meld rule"):
            rule.reason(variant, **values)


def test_a_violation_cites_the_note_of_its_field() -> None:
    rules = default_rule_book().get("classic-4p").rules
    made = violation(rules, Code.MELD_TOO_SMALL, min_size=3, size=2, meld="new meld 9H 9S")
    assert made.code == "MELD_TOO_SMALL" and made.field == "melds.min_size"
    assert made.explanation == "a meld needs at least 3 cards, not 2: new meld 9H 9S"
    assert made.cite == rules.cites["melds.min_size"] != ()
    params = {"max": 4, "count": 5, "meld": "new meld 3C 3C 3S 3S 3S"}
    specific = violation(
        rules, Code.BLACK_THREE_MELD_SIZE, variant="too_many", field="threes.black_three_meld_max", **params
    )
    assert specific.field == "threes.black_three_meld_max"
    assert specific.cite == rules.cites["threes.black_three_meld_max"]
    with pytest.raises(KeyError):
        violation(rules, Code.PILE_EMPTY, variant="no_such_variant")


# --- the conformance suite produces every code and every wording -------------------------------------------------


def test_every_code_appears_in_a_conformance_case() -> None:
    expected = {code for item in CASES for code in item.case.expect.illegal.codes}
    assert {code.value for code in Code} <= expected
    assert expected <= {code.value for code in Code}, "a case expects a code the registry does not have"


class _Recording(InProcessTarget):
    """The in-process target, keeping every violation it answers."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str, str]] = []

    def call(self, rpc: str, request: object) -> Reply:
        reply = super().call(rpc, request)  # type: ignore[arg-type]
        if isinstance(reply, oracle_pb2.CheckActionResponse):
            self.seen += [(v.code, v.field, v.explanation) for v in reply.violations]
        return reply


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile(".+?".join(re.escape(part) for part in parts), re.DOTALL)


#: The wordings no conformance case produces, each with a unit case: (rule set, changed values, state, action,
#: the whole explanation expected first). Empty: conformance/cases/fidelity.json reaches the last five.
WORDING_CASES: dict[tuple[Code, str], tuple[CompiledRules, GameState, str, str]] = {}


@pytest.mark.parametrize("wording", list(WORDING_CASES), ids=lambda w: f"{w[0]}/{w[1]}")
def test_a_wording_no_conformance_case_produces(wording: tuple[Code, str]) -> None:
    rules, state, action, explanation = WORDING_CASES[wording]
    assert validate_state(rules, state) == []
    verdict = check_action(rules, state, parse_action(action))
    first = verdict.violations[0]
    assert (first.code, first.field, first.explanation) == (wording[0], RULES[wording[0]].field, explanation)
    assert _pattern(RULES[wording[0]].text(wording[1])).fullmatch(first.explanation)


def test_every_wording_is_produced_by_a_conformance_case_or_a_unit_case() -> None:
    target = _Recording()
    run_cases(CASES, target, RunOptions())
    assert target.seen
    missing = []
    for code, variant in WORDINGS:
        pattern = _pattern(RULES[code].text(variant))
        if not any(seen == code and pattern.fullmatch(text) for seen, _, text in target.seen):
            missing.append((code, variant))
    assert missing == list(WORDING_CASES), "every wording needs a conformance case, else a unit case here"
    for code, field, text in target.seen:  # and nothing is explained outside the registry's wordings
        rule = RULES[Code(code)]
        assert any(_pattern(rule.text(v)).fullmatch(text) for v in ("", *rule.variants)), (code, text)
        assert field in all_paths() and field.partition(".")[0] == rule.field.partition(".")[0], (code, field)


# --- the readers of the registry -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [Code.MELD_TOO_MANY_WILDS, Code.PILE_EMPTY, Code.GO_OUT_NEEDS_DISCARD], ids=str)
def test_explain_reads_the_registry(code: Code) -> None:
    lines = explain_lines(default_rule_book(), code.value)
    assert lines[:2] == [f"{code.value}: {RULES[code].summary}", f"rule-set field: {RULES[code].field}"]


def test_the_coverage_table_lists_every_registered_code() -> None:
    by_code, _ = coverage([])
    assert list(by_code) == sorted(by_code, key=[c.value for c in Code].index)
    assert set(by_code) == {code.value for code in Code}


# --- the rules layer builds every violation from the registry -----------------------------------------------------


def _sources() -> list[Path]:
    return sorted(p for p in RULES_DIR.glob("*.py") if p.name not in ("violations.py", "violation_types.py"))


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
def test_no_bare_code_string_in_the_rules_layer(path: Path) -> None:
    codes = {code.value for code in Code}
    bare = [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in codes
    ]
    assert not bare, f"{path.name} names codes as strings (use Code.<NAME>): {bare}"


def test_every_rule_check_returns_violations_and_every_predicate_a_bool() -> None:
    checked = 0
    for path in sorted(RULES_DIR.glob("*.py")):
        module = importlib.import_module(f"oracle.rules.{path.stem}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ != module.__name__:
                continue
            returns = inspect.signature(function).return_annotation
            if name.startswith("check_") and name != "check_action":  # check_action: the referee's Verdict
                assert returns == "list[Violation]", f"{module.__name__}.{name} returns {returns}"
                checked += 1
            elif name.startswith(("is_", "has_", "can_")):
                assert returns == "bool", f"{module.__name__}.{name} returns {returns}"
    assert checked >= 14
