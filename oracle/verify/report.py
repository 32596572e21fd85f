"""The verify command: properties, lint and engine-against-model for rule sets, printed as text lines or JSON.

`verify_command_lines(rule_set_ids, as_json)` returns the lines to print and
whether everything passed: every property proved, no lint error (warnings are
listed but do not fail), and no engine-against-model disagreement. An unknown
rule-set id raises oracle.ruleset.loader.UnknownRuleSetError.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.verify.boundary import EngineReport, check_engine
from oracle.verify.lint import ERROR, LintFinding, lint
from oracle.verify.model import RuleModel
from oracle.verify.properties import PROPERTIES, PropertyResult, check_properties

#: Properties whose detail (numbers) is shown even when proved.
REPORTED_DETAILS = frozenset({"score-bounds"})


@dataclass
class RuleSetVerification:
    """Everything verify found for one rule set."""

    rule_set_id: str
    properties: list[PropertyResult] = field(default_factory=list)
    findings: list[LintFinding] = field(default_factory=list)
    lint_ms: float = 0.0
    engine: EngineReport | None = None
    engine_ms: float = 0.0

    @property
    def ok(self) -> bool:
        """Every property proved, no lint error, no disagreement."""
        return (
            all(p.holds for p in self.properties)
            and not any(f.severity == ERROR for f in self.findings)
            and (self.engine is None or not self.engine.disagreements)
        )


def verify_rule_sets(
    rule_set_ids: list[str] | None = None, *, book: RuleBook | None = None, case_dir: Path | None = None
) -> list[RuleSetVerification]:
    """Prove the properties, lint, and check the engine against the model for each rule set (all when None)."""
    book = book or default_rule_book()
    ids = rule_set_ids or book.ids()
    results = []
    for rule_set_id in ids:
        rules = book.get(rule_set_id).rules
        result = RuleSetVerification(rule_set_id)
        result.properties = check_properties(RuleModel(rules))
        start = time.perf_counter()
        result.findings = lint(rules)
        result.lint_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        result.engine = check_engine(rules, case_dir)
        result.engine_ms = (time.perf_counter() - start) * 1000
        results.append(result)
    return results


def _result_text(p: PropertyResult) -> str:
    if not p.holds:
        return f"FAILED: {p.detail}"
    return f"proved: {p.detail}" if p.property_id in REPORTED_DETAILS and p.detail else "proved"


def _text_lines(results: list[RuleSetVerification], total_ms: float) -> list[str]:
    width = max(len(p.id) for p in PROPERTIES)
    id_width = max([len(r.rule_set_id) for r in results] + [8])
    lines = [f"Properties ({len(PROPERTIES)} per rule set)", ""]
    lines += [f"  {p.id:<{width}}  {p.sentence}" for p in PROPERTIES]
    lines += ["", f"{'property':<{width}}  {'rule set':<{id_width}}  {'ms':>7}  result"]
    for r in results:
        for p in r.properties:
            lines.append(f"{p.property_id:<{width}}  {p.rule_set_id:<{id_width}}  {p.ms:7.1f}  {_result_text(p)}")
    lines += ["", "Lint"]
    for r in results:
        if not r.findings:
            lines.append(f"{r.rule_set_id}: no findings ({r.lint_ms:.1f} ms)")
        for f in r.findings:
            lines.append(f"{r.rule_set_id}: {f.severity} {f.field} [{f.rule}]: {f.message}")
    lines += ["", "Engine against model"]
    for r in results:
        if r.engine is None:
            continue
        kinds = ", ".join(f"{k} {n}" for k, n in r.engine.by_kind().items())
        lines.append(
            f"{r.rule_set_id}: {len(r.engine.cases)} cases ({kinds}), {len(r.engine.disagreements)}"
            f" disagreement(s) ({r.engine_ms:.0f} ms)"
        )
        for case in r.engine.disagreements:
            lines.append(f"  DISAGREEMENT {json.dumps(case.to_json(), sort_keys=True)}")
        lines += [f"  case file written: {path}" for path in r.engine.written]
    proved = sum(p.holds for r in results for p in r.properties)
    checked = sum(len(r.properties) for r in results)
    errors = sum(f.severity == ERROR for r in results for f in r.findings)
    warnings = sum(f.severity != ERROR for r in results for f in r.findings)
    disagreements = sum(len(r.engine.disagreements) for r in results if r.engine)
    verdict = "OK" if all(r.ok for r in results) else "FAILED"
    lines += [
        "",
        f"{verdict}: {len(results)} rule set(s), {proved}/{checked} properties proved, {errors} lint"
        f" error(s), {warnings} warning(s), {disagreements} disagreement(s); total {total_ms / 1000:.1f} s",
    ]
    return lines


def _json_doc(results: list[RuleSetVerification], total_ms: float) -> dict[str, object]:
    return {
        "ok": all(r.ok for r in results),
        "totalMs": round(total_ms, 1),
        "ruleSets": [r.rule_set_id for r in results],
        "propertyTable": [{"id": p.id, "sentence": p.sentence} for p in PROPERTIES],
        "properties": [
            {
                "property": p.property_id,
                "ruleSet": p.rule_set_id,
                "proved": p.holds,
                "detail": p.detail,
                "ms": round(p.ms, 2),
            }
            for r in results
            for p in r.properties
        ],
        "lint": [
            {"ruleSet": r.rule_set_id, "field": f.field, "severity": f.severity, "rule": f.rule, "message": f.message}
            for r in results
            for f in r.findings
        ],
        "engine": [
            {
                "ruleSet": r.rule_set_id,
                "cases": len(r.engine.cases),
                "byKind": r.engine.by_kind(),
                "disagreements": [c.to_json() for c in r.engine.disagreements],
                "caseFiles": [str(p) for p in r.engine.written],
            }
            for r in results
            if r.engine
        ],
    }


def verify_command_lines(
    rule_set_ids: list[str] | None, as_json: bool, *, book: RuleBook | None = None, case_dir: Path | None = None
) -> tuple[list[str], bool]:
    """The lines `canasta-oracle verify` prints, and whether everything passed.

    `rule_set_ids` None (or empty) means every rule set of the book (the shipped
    ones by default). Disagreements are written as case files into `case_dir`
    when it is given.
    """
    start = time.perf_counter()
    results = verify_rule_sets(rule_set_ids, book=book, case_dir=case_dir)
    total_ms = (time.perf_counter() - start) * 1000
    ok = all(r.ok for r in results)
    if as_json:
        return json.dumps(_json_doc(results, total_ms), indent=2).splitlines(), ok
    return _text_lines(results, total_ms), ok
