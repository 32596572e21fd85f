"""Z3 verification: properties proved for every shipped rule set, lint findings, and the engine against the model."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner
from verify_harness import fresh_footprints as fresh_footprints  # autouse: each test proves afresh

from oracle.api.v1 import ruleset_pb2
from oracle.cli.main import main
from oracle.conformance.runner import InProcessTarget, RunOptions, load_cases, run_cases
from oracle.rules import melds
from oracle.ruleset.compiled import CompiledRules, compile_rules
from oracle.ruleset.loader import RuleBook, SpecError, UnknownRuleSetError, default_rule_book
from oracle.verify import cache as verify_cache
from oracle.verify import footprint
from oracle.verify.boundary import check_engine
from oracle.verify.gate import contradictions
from oracle.verify.lint import ERROR, WARNING, LintFinding, lint
from oracle.verify.model import RuleModel, fixed_meld
from oracle.verify.properties import PROPERTIES, check_properties
from oracle.verify.report import RuleSetVerification, verify_command_lines, verify_rule_sets

SPECS = resources.files("oracle.specs")
CASE_FIELDS = {"id", "description", "ruleSetId", "kind", "input", "expected", "engine"}


def classic_4p_book(**replacements: str) -> RuleBook:
    """A rule book holding classic-4p, loaded through the real loader, with settings replaced in its text."""
    text = (SPECS / "classic-4p.textproto").read_text()
    for name, value in replacements.items():
        text, count = re.subn(rf"\b{name}: \w+", f"{name}: {value}", text, count=1)
        assert count == 1, name
    return RuleBook.from_texts(
        {"classic-4p.textproto": text}, (SPECS / "sources.textproto").read_text(), checker=contradictions
    )


def classic_4p_with(**replacements: str) -> CompiledRules:
    """classic-4p's compiled rules with settings replaced (see classic_4p_book)."""
    return classic_4p_book(**replacements).get("classic-4p").rules


def failed(rules: CompiledRules) -> dict[str, str]:
    """Property id -> detail for the properties that do not hold."""
    return {p.property_id: p.detail for p in check_properties(RuleModel(rules)) if not p.holds}


def applicable(rule_set_id: str) -> list[str]:
    """The ids of the properties that apply to a shipped rule set (the others are reported as not applicable)."""
    spec = default_rule_book().get(rule_set_id).spec
    return [p.id for p in PROPERTIES if not p.not_applicable(spec)]


#: The Hand and Foot rule sets: the foot, held red threes, priced ranks, the minimum by hand number and the book
#: quotas are modelled (oracle/verify/model_foot.py); they are verified like every other rule set.
HAND_AND_FOOT = frozenset(i for i in default_rule_book().ids() if i.startswith("hand-and-foot"))


@pytest.fixture(scope="module")
def shipped() -> dict[str, RuleSetVerification]:
    """One full verification of every shipped rule set (the expensive part, shared by the tests below)."""
    return {r.rule_set_id: r for r in verify_rule_sets()}


def test_the_model_covers_hand_and_foot(shipped: dict[str, RuleSetVerification]) -> None:
    assert len(HAND_AND_FOOT) == 4
    for rule_set_id in HAND_AND_FOOT:
        result = shipped[rule_set_id]
        assert all(p.holds for p in result.properties), rule_set_id
        assert result.engine is not None and not result.engine.disagreements, rule_set_id
        applied = {p.property_id for p in result.properties if p.applicable}
        assert {"foot-pickup", "foot-go-out", "minimum-by-hand", "score-bounds"} <= applied, rule_set_id
        assert {"foot", "quota", "minimum-by-hand"} <= set(result.engine.by_kind()), rule_set_id


# ----- the property table -------------------------------------------------------------------------------------


def test_property_table_has_at_least_20_one_sentence_properties() -> None:
    ids = [p.id for p in PROPERTIES]
    assert len(ids) >= 20
    assert len(set(ids)) == len(ids)
    for p in PROPERTIES:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", p.id), p.id
        assert p.sentence.endswith("."), p.id
        assert ". " not in p.sentence.rstrip("."), f"{p.id}: more than one sentence"


def test_every_property_is_proved_for_every_shipped_rule_set(shipped: dict[str, RuleSetVerification]) -> None:
    assert sorted(shipped) == sorted(default_rule_book().ids())
    for rule_set_id, result in shipped.items():
        assert [p.property_id for p in result.properties] == [p.id for p in PROPERTIES]
        unproved = {p.property_id: p.detail for p in result.properties if not p.holds}
        assert not unproved, f"{rule_set_id}: {unproved}"


def test_score_bounds_are_the_rule_books_extremes(shipped: dict[str, RuleSetVerification]) -> None:
    # Lowest: no meld, all 4 red threes negated (-800) and every other card in hand: 32 fours-to-sevens x 5,
    # 48 eights-to-kings x 10, 8 aces and 8 twos x 20, 4 jokers x 50, 4 black threes x 5 = 1180.
    # Highest: 11 natural canastas of 8 (5500 + 800 points), 4 black threes melded (20), 800 red threes,
    # 200 for going out concealed.
    detail = next(p.detail for p in shipped["classic-4p"].properties if p.property_id == "score-bounds")
    assert detail.startswith("lowest -1980 (") and "highest 7320 (" in detail
    cases = {c.id: c for c in shipped["classic-4p"].engine.cases}  # type: ignore[union-attr]
    assert cases["classic-4p-score-lowest"].engine["total"] == -1980
    assert cases["classic-4p-score-highest"].engine["total"] == 7320


def test_model_states_the_rule_books_numbers() -> None:
    rm = RuleModel(default_rule_book().get("classic-4p").rules)
    value = lambda term: z3.simplify(term).as_long()  # noqa: E731
    assert [value(rm.red_three_score(z3.IntVal(r), z3.BoolVal(True))) for r in range(5)] == [0, 100, 200, 300, 800]
    assert value(rm.red_three_score(z3.IntVal(4), z3.BoolVal(False))) == -800
    assert [value(rm.minimum(z3.IntVal(t))) for t in (-1, 0, 1499, 1500, 2999, 3000)] == [15, 50, 50, 90, 90, 120]
    assert z3.is_true(z3.simplify(rm.legal_meld(fixed_meld(2, 1, 1))))  # 9-9-joker
    assert z3.is_false(z3.simplify(rm.legal_meld(fixed_meld(1, 2, 1))))  # 9-joker-2
    assert value(rm.canasta_bonus(fixed_meld(7))) == 500 and value(rm.canasta_bonus(fixed_meld(4, 3))) == 300


# ----- a broken rule set: counterexample and lint ---------------------------------------------------------


def test_too_many_wilds_gives_a_counterexample_and_a_lint_error() -> None:
    # max_wilds 5 with canastas of 7 and min_naturals 2: the loader refuses it with the lint's sentence ...
    with pytest.raises(SpecError) as refused:
        classic_4p_book(max_wilds="5")
    (problem,) = refused.value.problems
    assert (problem.origin, problem.field) == ("classic-4p.textproto", "melds.max_wilds")
    assert "a canasta may hold 5 wild cards and only 2 naturals" in problem.message
    # ... and, compiled past the loader, the solver gives a counterexample
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-4p").spec)
    spec.melds.max_wilds = 5
    rules = compile_rules(spec)
    book = RuleBook(
        {"classic-4p": replace(default_rule_book().get("classic-4p"), spec=spec, rules=rules)},
        default_rule_book().sources,
    )
    problems = failed(rules)
    assert list(problems) == ["canasta-mostly-natural"]
    found = dict(re.findall(r"canasta\.(naturals|wilds)=(\d+)", problems["canasta-mostly-natural"]))
    assert int(found["naturals"]) <= int(found["wilds"])
    assert int(found["naturals"]) + int(found["wilds"]) >= 7
    findings = lint(rules)
    assert findings == [
        LintFinding(
            "melds.max_wilds",
            "a canasta may hold 5 wild cards and only 2 naturals (melds.max_wilds 5, canastas.min_size"
            " 7, melds.min_naturals 2); every rule book's canasta has more naturals than wild cards",
            ERROR,
            "canasta-mostly-wild",
        )
    ]
    lines, ok = verify_command_lines(["classic-4p"], False, book=book)
    assert not ok
    assert any(line.startswith("canasta-mostly-natural") and "FAILED: counterexample" in line for line in lines)
    assert lines[-1].startswith("FAILED:")


def test_a_canasta_that_cannot_be_completed_is_a_lint_error_explained_by_its_fields() -> None:
    text = (SPECS / "classic-4p.textproto").read_text().replace("canastas { min_size: 7", "canastas { min_size: 12")
    # the loader refuses it, naming the file, the line and the field, with the lint's sentence
    with pytest.raises(SpecError) as refused:
        RuleBook.from_texts(
            {"classic-4p.textproto": text}, (SPECS / "sources.textproto").read_text(), checker=contradictions
        )
    (problem,) = refused.value.problems
    assert (problem.origin, problem.field) == ("classic-4p.textproto", "canastas.min_size")
    assert problem.line == text[: text.index("canastas { min_size: 12")].count("\n") + 1
    assert "no canasta can ever be completed" in problem.message
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-4p").spec)
    spec.canastas.min_size = 12
    rules = compile_rules(spec)
    assert {"canasta-reachable", "natural-canasta-reachable", "go-out-reachable"} <= set(failed(rules))
    errors = [f for f in lint(rules) if f.severity == ERROR]
    assert [(f.rule, f.field) for f in errors] == [("no-canasta", "canastas.min_size")]
    message = errors[0].message
    assert message.startswith("no canasta can ever be completed: ")
    for words in (
        "a canasta needs at least 12 cards (canastas.min_size)",
        "at most 3 wild cards (melds.max_wilds)",
        "8 cards of each natural rank (deck.packs)",
    ):
        assert words in message


def test_lint_reads_a_message_the_loader_would_refuse() -> None:
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-2p").spec)
    spec.going_out.min_hand_after_meld_without_canastas = 1
    spec.initial_meld.thresholds[2].minimum = 5000
    findings = {(f.rule, f.field, f.severity) for f in lint(spec)}
    assert ("keep-strands-player", "going_out.min_hand_after_meld_without_canastas", ERROR) in findings
    assert ("minimum-unreachable", "initial_meld.thresholds[2].minimum", ERROR) in findings
    assert lint(compile_rules(spec)) == lint(spec)


@pytest.mark.parametrize(
    ("replacements", "rule", "field"),
    [
        ({"max_size": "7"}, "wild-join-dead", "canastas.wild_may_join_natural"),
        ({"target_score": "2000"}, "threshold-row-dead", "initial_meld.thresholds[2].from_score"),
        ({"all_red_threes_bonus": "300"}, "red-three-bonus-falls", "threes.all_red_threes_bonus"),
        ({"wild_ratio": "WILD_RATIO_AT_MOST_NATURALS", "max_wilds": "2"}, "wild-ratio-dead", "melds.wild_ratio"),
        (
            {"wild_ratio": "WILD_RATIO_FEWER_THAN_NATURALS", "max_size": "7", "max_wilds": "4"},
            "max-wilds-unreachable",
            "melds.max_wilds",
        ),
        ({"max_size": "30"}, "max-size-dead", "melds.max_size"),
    ],
)
def test_lint_finds_dead_settings(replacements: dict[str, str], rule: str, field: str) -> None:
    findings = [f for f in lint(classic_4p_with(**replacements)) if f.rule != "wild-join-dead" or rule == f.rule]
    assert [(f.rule, f.field, f.severity) for f in findings] == [(rule, field, WARNING)]
    assert field in findings[0].message


def test_no_shipped_rule_set_has_a_lint_error(shipped: dict[str, RuleSetVerification]) -> None:
    for rule_set_id, result in shipped.items():
        assert not [f for f in result.findings if f.severity == ERROR], rule_set_id
        for f in result.findings:
            assert f.field and f.field in f.message and f.severity == WARNING


# ----- engine against model ------------------------------------------------------------------------------


def test_engine_agrees_with_the_model_on_every_boundary_of_every_shipped_rule_set(
    shipped: dict[str, RuleSetVerification],
) -> None:
    for rule_set_id, result in shipped.items():
        report = result.engine
        assert report is not None
        formed = {"formation", "formed-score"} if "formation-merge" in applicable(rule_set_id) else set()
        # the meld rules of Modern American Canasta add play cases (tests/test_verify_american.py), Samba's runs
        # run cases and, with combining, play cases (tests/test_verify_samba.py)
        play = (
            {"play"}
            if {"rank-rule-wilds", "rule-of-five", "dead-rank-reachable", "pile-top-run", "combine"}
            & set(applicable(rule_set_id))
            else set()
        )
        runs = {"run"} if "run-limits" in applicable(rule_set_id) else set()
        # Hand and Foot (tests/test_verify_hand_and_foot.py): the minimum by hand number in place of the running
        # total's, the foot and the book quotas; black threes never melded (black_three_meld_max 0) have no flip
        spec = default_rule_book().get(rule_set_id).spec
        minimum = {"minimum-by-hand"} if spec.initial_meld.minimum_by_hand else {"minimum"}
        foot = {"foot"} if spec.foot.size else set()
        quota = {"quota"} if "book-quotas" in applicable(rule_set_id) else set()
        black = {"black-three-meld"} if spec.threes.black_three_meld_max else set()
        kinds = {"meld", *black, *minimum, "score", "stock-end", *formed, *play, *runs, *foot, *quota}
        assert set(report.by_kind()) == kinds, rule_set_id
        assert not report.disagreements, [c.to_json() for c in report.disagreements]


def test_the_solver_finds_the_classic_boundaries(shipped: dict[str, RuleSetVerification]) -> None:
    cases = {c.id: c for c in shipped["classic-4p"].engine.cases}  # type: ignore[union-attr]
    flips = [
        ("n1-w2", "n2-w2", "legal"),  # one natural fewer than melds.min_naturals
        ("n2-w3", "n2-w4", "legal"),  # melds.max_wilds, then one more
        ("n2-w0", "n3-w0", "legal"),  # melds.min_size
        ("n6-w0", "n7-w0", "canasta"),  # canastas.min_size - 1, then the size
        ("n7-w0", "n7-w1", "naturalCanasta"),
    ]
    for before, after, key in flips:
        a, b = cases[f"classic-4p-meld-{before}"], cases[f"classic-4p-meld-{after}"]
        assert a.expected[key] != b.expected[key], (before, after)
    for low, high in ((-1, 0), (1499, 1500), (2999, 3000)):
        a, b = cases[f"classic-4p-minimum-t{low}"], cases[f"classic-4p-minimum-t{high}"]
        assert a.expected["minimum"] < b.expected["minimum"]
    assert cases["classic-4p-score-red4-nomeld"].expected["redThrees"] == -800


def test_a_seeded_one_wild_too_many_bug_is_caught_and_written_as_a_case(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    honest = melds.meld_rule_breaks

    def buggy(
        shape: melds.MeldShape, rules: CompiledRules, *, going_out: bool, last_cards: bool = True
    ) -> list[melds.MeldBreak]:
        breaks = honest(shape, rules, going_out=going_out, last_cards=last_cards)
        if shape.wilds == rules.melds.max_wilds + 1:
            breaks = [b for b in breaks if b.field != "melds.max_wilds"]
        return breaks

    monkeypatch.setattr(melds, "meld_rule_breaks", buggy)
    report = check_engine(default_rule_book().get("classic-4p").rules, tmp_path)
    assert report.disagreements
    assert {c.kind for c in report.disagreements} == {"meld"}
    assert all(
        c.id.endswith("-w4") and c.expected["legal"] is False and c.engine["legal"] is True
        for c in report.disagreements
    )
    assert sorted(report.written) == sorted(tmp_path / f"{c.id}.json" for c in report.disagreements)
    saved = json.loads((tmp_path / "classic-4p-meld-n2-w4.json").read_text())
    assert set(saved) == CASE_FIELDS
    assert saved["ruleSetId"] == "classic-4p" and saved["kind"] == "meld"
    assert saved["input"] == {"cards": "JC JD 2C 2D JK JK", "goingOut": False}
    assert saved["expected"] == {"legal": False, "canasta": False, "naturalCanasta": False}
    assert saved["engine"]["legal"] is True
    # the same disagreements as conformance cases: the buggy engine fails them, the honest one passes them
    cases = load_cases(tmp_path / "conformance")
    assert {c.case.id for c in cases} == {f"verify.{c.id}" for c in report.disagreements}
    monkeypatch.setattr("oracle.rules.meld_play.meld_rule_breaks", buggy)  # the engine's own reference to it
    first = run_cases(cases, InProcessTarget(), RunOptions())
    assert {r.status for r in first} == {"fail"}, [r.detail for r in first]
    monkeypatch.setattr("oracle.rules.meld_play.meld_rule_breaks", honest)
    second = run_cases(cases, InProcessTarget(), RunOptions())
    assert {r.status for r in second} == {"pass"}, [r.detail for r in second]


def test_a_compiled_limit_one_wild_too_loose_is_caught() -> None:
    rules = default_rule_book().get("classic-2p").rules
    loose = replace(rules, melds=replace(rules.melds, max_wilds=rules.melds.max_wilds + 1))
    report = check_engine(loose)
    assert report.disagreements and not report.written
    assert all(c.engine["legal"] and not c.expected["legal"] for c in report.disagreements)


def test_a_seeded_minimum_boundary_bug_is_caught(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def off_by_one(self: CompiledRules, running_total: int) -> tuple[int, int | None]:
        minimum, row = self.initial_meld.minimum_below_table, None
        for from_score, row_minimum in self.initial_meld.thresholds:
            if running_total <= from_score:  # the bug: a total equal to from_score stays in the row below
                break
            minimum, row = row_minimum, from_score
        return minimum, row

    monkeypatch.setattr(CompiledRules, "minimum_initial_meld", off_by_one)
    report = check_engine(default_rule_book().get("classic-4p").rules, tmp_path)
    assert sorted(c.id for c in report.disagreements) == [
        "classic-4p-minimum-t0",
        "classic-4p-minimum-t1500",
        "classic-4p-minimum-t3000",
    ]
    saved = json.loads((tmp_path / "classic-4p-minimum-t1500.json").read_text())
    assert saved["expected"] == {"minimum": 90, "rowFromScore": 1500}
    assert saved["engine"] == {"minimum": 50, "rowFromScore": 0}


# ----- the command ---------------------------------------------------------------------------------------


def test_verify_command_text_and_json(tmp_path: Path) -> None:
    lines, ok = verify_command_lines(["classic-2p"], False, case_dir=tmp_path)
    assert ok
    assert lines[0] == f"Properties ({len(PROPERTIES)} per rule set)"
    rows = [line for line in lines if re.match(r"\S+\s+classic-2p\s+\d+\.\d\s+proved", line)]
    assert len(rows) == len(applicable("classic-2p"))
    assert "classic-2p: no findings" in "\n".join(lines)
    assert any(re.match(r"classic-2p: \d+ cases \(meld \d+, .*\), 0 disagreement", line) for line in lines)
    assert re.fullmatch(
        r"OK: 1 rule set\(s\), \d+/\d+ properties proved, 0 lint error\(s\), 0 warning\(s\),"
        r" 0 disagreement\(s\); total \d+\.\d s",
        lines[-1],
    )
    assert not list(tmp_path.iterdir())
    json_lines, json_ok = verify_command_lines(["classic-2p"], True)
    doc = json.loads("\n".join(json_lines))
    assert json_ok and doc["ok"] and doc["ruleSets"] == ["classic-2p"]
    assert len(doc["properties"]) == len(PROPERTIES)
    assert [p["property"] for p in doc["properties"] if p["proved"]] == applicable("classic-2p")
    assert [p["id"] for p in doc["propertyTable"]] == [p.id for p in PROPERTIES]
    assert doc["engine"][0]["disagreements"] == [] and doc["totalMs"] > 0


def test_verify_command_unknown_rule_set() -> None:
    with pytest.raises(UnknownRuleSetError):
        verify_command_lines(["no-such-rules"], False)


# ----- parallel runs and the cache ----------------------------------------------------------------------------


def outcome(result: RuleSetVerification) -> tuple[object, ...]:
    """What a verification found, without its timings: properties, lint findings and every engine case."""
    cases = None if result.engine is None else [c.to_json() for c in result.engine.cases]
    return (
        result.rule_set_id,
        [(p.property_id, p.holds, p.detail) for p in result.properties],
        result.findings,
        cases,
    )


def timeless(output: str) -> list[str]:
    """verify's text output without timings and without what says a rule set came from the cache."""
    output = re.sub(r"(?m)^(\S+\s+\S+\s+)(\d+\.\d|cached)(\s+(proved|FAILED))", r"\1\3", output)
    output = re.sub(
        r" \((\d+(\.\d)? ms|cached)\)$| \(\d+ cached: no solver work\)|; total \d+\.\d s$", "", output, flags=re.M
    )
    return [" ".join(line.split()) for line in output.splitlines()]


def cache_files(root: Path) -> list[Path]:
    return sorted((root / "verify").glob("*.json")) if (root / "verify").is_dir() else []


@pytest.fixture
def solver_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every z3 Solver and Optimize check made in this process (one entry per check)."""
    calls: list[int] = []
    for kind in (z3.Solver, z3.Optimize):
        monkeypatch.setattr(kind, "check", counting(kind.check, calls))
    return calls


def counting(honest: Callable[..., z3.CheckSatResult], calls: list[int]) -> Callable[..., z3.CheckSatResult]:
    """`honest`, also noting each call in `calls`."""

    def counted(*args: object) -> z3.CheckSatResult:
        calls.append(1)
        return honest(*args)

    return counted


def test_parallel_verification_equals_the_serial_run_in_the_order_asked(
    shipped: dict[str, RuleSetVerification],
) -> None:
    ids = ["wild-melds-4p", "classic-2p", "six-2x3", "quickref-strict-4p"]
    parallel = verify_rule_sets(ids, jobs=2)
    assert [r.rule_set_id for r in parallel] == ids
    assert [outcome(r) for r in parallel] == [outcome(shipped[i]) for i in ids]
    assert not any(r.cached for r in parallel)


def test_a_second_verify_reads_the_cache_without_solver_work_and_no_cache_proves_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solver_checks: list[int]
) -> None:
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(tmp_path))
    runner = CliRunner()
    first = runner.invoke(main, ["verify", "--rules", "classic-2p"])
    assert first.exit_code == 0, first.output
    assert "cached" not in first.output and len(cache_files(tmp_path)) == 1
    assert solver_checks

    solver_checks.clear()
    second = runner.invoke(main, ["verify", "--rules", "classic-2p"])
    assert second.exit_code == 0, second.output
    assert not solver_checks  # a cache hit asks the solver nothing
    rows = [line for line in second.output.splitlines() if re.match(r"\S+\s+classic-2p\s+cached\s+proved", line)]
    assert len(rows) == len(applicable("classic-2p"))
    assert "classic-2p: no findings (cached)" in second.output
    assert re.search(r"classic-2p: \d+ cases \(.*\), 0 disagreement\(s\) \(cached\)", second.output)
    assert second.output.splitlines()[-1].startswith("OK: 1 rule set(s) (1 cached: no solver work), ")
    assert timeless(second.output) == timeless(first.output)

    doc = json.loads(runner.invoke(main, ["verify", "--rules", "classic-2p", "--json"]).output)
    assert doc["ok"] and doc["cached"] == ["classic-2p"] and not solver_checks

    footprint.forget()  # as in a new process: no answer kept in memory from the runs above (footprint.shared)
    again = runner.invoke(main, ["verify", "--rules", "classic-2p", "--no-cache"])
    assert again.exit_code == 0 and "cached" not in again.output
    assert solver_checks


def test_the_cached_result_is_the_fresh_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(tmp_path))
    (fresh,) = verify_rule_sets(["six-3x2"], use_cache=True)
    (cached,) = verify_rule_sets(["six-3x2"], use_cache=True)
    assert not fresh.cached and cached.cached
    assert outcome(cached) == outcome(fresh)


def test_a_changed_rule_set_or_changed_verify_code_misses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(tmp_path))
    original, changed = classic_4p_book(), classic_4p_book(bonus="150")  # going_out.bonus
    (first,) = verify_rule_sets(book=original, use_cache=True)
    (other,) = verify_rule_sets(book=changed, use_cache=True)
    assert first.ok and other.ok and not first.cached and not other.cached
    assert len(cache_files(tmp_path)) == 2
    (hit,) = verify_rule_sets(book=original, use_cache=True)
    assert hit.cached
    monkeypatch.setattr(verify_cache, "code_hash", lambda: "a property was edited")
    (after_edit,) = verify_rule_sets(book=original, use_cache=True)
    assert not after_edit.cached and len(cache_files(tmp_path)) == 3


def test_a_failing_property_is_never_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANASTA_ORACLE_CACHE", str(tmp_path))
    spec = ruleset_pb2.RuleSet()
    spec.CopyFrom(default_rule_book().get("classic-4p").spec)
    spec.melds.max_wilds = 5  # canasta-mostly-natural fails (see above)
    rules = compile_rules(spec)
    book = RuleBook(
        {"classic-4p": replace(default_rule_book().get("classic-4p"), spec=spec, rules=rules)},
        default_rule_book().sources,
    )
    (first,) = verify_rule_sets(book=book, use_cache=True)
    assert not first.ok and not cache_files(tmp_path)
    # even a document of that failure put in the cache by hand is not read as a result
    verify_cache.write(rules, first.to_document())
    (second,) = verify_rule_sets(book=book, use_cache=True)
    assert not second.ok and not second.cached
    assert outcome(second) == outcome(first)
    lines, ok = verify_command_lines(None, False, book=book, use_cache=True)
    assert not ok and lines[-1].startswith("FAILED: 1 rule set(s), ")
