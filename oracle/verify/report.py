"""The verify command: properties, lint and engine-against-model for rule sets, printed as text lines or JSON.

`verify_command_lines(rule_set_ids, as_json)` returns the lines to print and
whether everything passed: every property proved, no lint error (warnings are
listed but do not fail), and no engine-against-model disagreement. An unknown
rule-set id raises oracle.ruleset.loader.UnknownRuleSetError.

Rule sets are independent, so with `jobs` above 1 they are verified in that
many processes (workers: each score extreme once as a task of its own, then
the rule sets, heaviest first); the results are the serial run's, in the
order asked. With `use_cache` a rule set that verified
cleanly before, under the same code (cache.result_key), is read back from disk
with no solver work and shown as "cached"; only clean results are stored.
"""

from __future__ import annotations

import functools
import json
import os
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from oracle.ruleset.cache import cached_rule_book
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.verify import budget, cache
from oracle.verify.boundary import EngineReport, check_engine
from oracle.verify.cases import Case
from oracle.verify.footprint import shared
from oracle.verify.hand_read import score_extremes
from oracle.verify.lint import ERROR, LintFinding, lint
from oracle.verify.model import RuleModel
from oracle.verify.model_formation import lone_hand
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

    cached: bool = False  #: read back from the verify cache: no solver work in this run, no timings

    @property
    def ok(self) -> bool:
        """Every property proved, no lint error, no disagreement."""
        return (
            all(p.holds for p in self.properties)
            and not any(f.severity == ERROR for f in self.findings)
            and (self.engine is None or not self.engine.disagreements)
        )

    def to_document(self) -> dict[str, object]:
        """The result as JSON for the cache (no timings)."""
        return {
            "ruleSetId": self.rule_set_id,
            "properties": [
                {"property": p.property_id, "holds": p.holds, "detail": p.detail, "applicable": p.applicable}
                for p in self.properties
            ],
            "findings": [
                {"field": f.field, "message": f.message, "severity": f.severity, "rule": f.rule} for f in self.findings
            ],
            "cases": None if self.engine is None else [c.to_json() for c in self.engine.cases],
        }

    @classmethod
    def from_document(cls, rule_set_id: str, doc: dict[str, Any]) -> RuleSetVerification | None:
        """A cached result from to_document's JSON; None unless it is a clean result of the current property table."""
        try:
            result = cls(rule_set_id, cached=True)
            result.properties = [
                PropertyResult(
                    str(p["property"]), rule_set_id, p["holds"] is True, str(p["detail"]), 0.0, p["applicable"] is True
                )
                for p in doc["properties"]
            ]
            result.findings = [
                LintFinding(str(f["field"]), str(f["message"]), str(f["severity"]), str(f["rule"]))
                for f in doc["findings"]
            ]
            if doc["cases"] is not None:
                result.engine = EngineReport(rule_set_id, [_case(c) for c in doc["cases"]])
        except (KeyError, TypeError, AttributeError):
            return None
        expected = [p.id for p in PROPERTIES]
        if doc["ruleSetId"] != rule_set_id or [p.property_id for p in result.properties] != expected:
            return None
        return result if result.ok else None


def _case(doc: dict[str, Any]) -> Case:
    return Case(
        str(doc["id"]),
        str(doc["description"]),
        str(doc["ruleSetId"]),
        str(doc["kind"]),
        dict(doc["input"]),
        dict(doc["expected"]),
        dict(doc["engine"]),
    )


def default_jobs() -> int:
    """How many processes verify uses unless told: the processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def verify_one(rule_set_id: str, rules: CompiledRules, case_dir: Path | None = None) -> RuleSetVerification:
    """Prove the properties, lint, and check the engine against the model for one rule set (all solver work).

    The answers do not depend on what this process verified before (see
    budget.fresh_z3_context). hand_read.score_extremes is shared by the rule sets that
    score alike, so it is asked first (outside the properties' timings); each
    extreme is proved in a context of its own, where its answer depends on the
    scoring fields alone (hand_read.extreme_side); everything else then runs in
    a fresh context, the same whether the extremes were computed here, for an
    earlier rule set or in another worker.
    """
    score_extremes(RuleModel(rules))
    if lone_hand(rules.spec):  # a partner's table too, as score-bounds reports it
        score_extremes(RuleModel(rules), partnership=True)
    budget.fresh_z3_context()
    result = RuleSetVerification(rule_set_id)
    result.properties = check_properties(RuleModel(rules))
    start = time.perf_counter()
    result.findings = shared("lint", rules.spec, lint)  # shared like a property's proof (footprint)
    result.lint_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    result.engine = check_engine(rules, case_dir)
    result.engine_ms = (time.perf_counter() - start) * 1000
    return result


@functools.cache
def shipped_book() -> RuleBook:
    """The shipped rule sets, read from the compiled-book cache when their files are unchanged (oracle.ruleset.cache:
    parsing the text-format specs is most of a second, the proofs of one rule set a fraction of one)."""
    return cached_rule_book(resources.files("oracle.specs"))


def _verify_all(
    ids: list[str], book: RuleBook, given: RuleBook | None, case_dir: Path | None, jobs: int
) -> list[RuleSetVerification]:
    """verify_one for each id, in order; in up to `jobs` processes when there is more than one to do (workers)."""
    if jobs <= 1 or len(ids) <= 1:
        return [verify_one(i, book.get(i).rules, case_dir) for i in ids]
    from oracle.verify.workers import verify_in_workers  # only when there is work for a pool (a cached run has none)

    return verify_in_workers(ids, book, given, shipped_book, case_dir, min(jobs, len(ids)), verify_one)


def verify_rule_sets(
    rule_set_ids: list[str] | None = None,
    *,
    book: RuleBook | None = None,
    case_dir: Path | None = None,
    jobs: int = 1,
    use_cache: bool = False,
) -> list[RuleSetVerification]:
    """Prove the properties, lint, and check the engine against the model for each rule set (all when None).

    `jobs` above 1 verifies rule sets in that many processes; `use_cache`
    reads clean results back from the verify cache and stores new ones (see
    the module docstring). The results come in the order of `rule_set_ids`.
    """
    given = book
    book = book or shipped_book()
    ids = rule_set_ids or book.ids()
    rules = {i: book.get(i).rules for i in ids}  # an unknown id raises before any work
    found: dict[str, RuleSetVerification] = {}
    if use_cache:
        for i in rules:
            doc = cache.read(rules[i])
            hit = None if doc is None else RuleSetVerification.from_document(i, doc)
            if hit is not None:
                found[i] = hit
    todo = [i for i in rules if i not in found]
    for i, result in zip(todo, _verify_all(todo, book, given, case_dir, jobs), strict=True):
        found[i] = result
        if use_cache and result.ok:  # a failure is never stored
            cache.write(rules[i], result.to_document())
    return [found[i] for i in ids]


def _result_text(p: PropertyResult) -> str:
    if not p.applicable:
        return p.detail  # "not applicable: why"
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
            ms = f"{'-':>7}" if not p.applicable else f"{'cached':>7}" if r.cached else f"{p.ms:7.1f}"
            lines.append(f"{p.property_id:<{width}}  {p.rule_set_id:<{id_width}}  {ms}  {_result_text(p)}")
    lines += ["", "Lint"]
    for r in results:
        if not r.findings:
            lines.append(f"{r.rule_set_id}: no findings ({'cached' if r.cached else f'{r.lint_ms:.1f} ms'})")
        for f in r.findings:
            lines.append(f"{r.rule_set_id}: {f.severity} {f.field} [{f.rule}]: {f.message}")
    lines += ["", "Engine against model"]
    for r in results:
        if r.engine is None:
            continue
        kinds = ", ".join(f"{k} {n}" for k, n in r.engine.by_kind().items())
        lines.append(
            f"{r.rule_set_id}: {len(r.engine.cases)} cases ({kinds}), {len(r.engine.disagreements)}"
            f" disagreement(s) ({'cached' if r.cached else f'{r.engine_ms:.0f} ms'})"
        )
        for case in r.engine.disagreements:
            lines.append(f"  DISAGREEMENT {json.dumps(case.to_json(), sort_keys=True)}")
        lines += [f"  case file written: {path}" for path in r.engine.written]
    proved = sum(p.holds and p.applicable for r in results for p in r.properties)
    checked = sum(p.applicable for r in results for p in r.properties)
    not_applicable = sum(not p.applicable for r in results for p in r.properties)
    errors = sum(f.severity == ERROR for r in results for f in r.findings)
    warnings = sum(f.severity != ERROR for r in results for f in r.findings)
    disagreements = sum(len(r.engine.disagreements) for r in results if r.engine)
    verdict = "OK" if all(r.ok for r in results) else "FAILED"
    cached = sum(r.cached for r in results)
    from_cache = f" ({cached} cached: no solver work)" if cached else ""
    if not_applicable:
        lines += ["", f"{not_applicable} property result(s) not applicable: about a setting the rule set does not have"]
    lines += [
        "",
        f"{verdict}: {len(results)} rule set(s){from_cache}, {proved}/{checked} properties proved, {errors} lint"
        f" error(s), {warnings} warning(s), {disagreements} disagreement(s); total {total_ms / 1000:.1f} s",
    ]
    return lines


def _json_doc(results: list[RuleSetVerification], total_ms: float) -> dict[str, object]:
    return {
        "ok": all(r.ok for r in results),
        "totalMs": round(total_ms, 1),
        "ruleSets": [r.rule_set_id for r in results],
        "cached": [r.rule_set_id for r in results if r.cached],
        "propertyTable": [{"id": p.id, "sentence": p.sentence} for p in PROPERTIES],
        "properties": [
            {
                "property": p.property_id,
                "ruleSet": p.rule_set_id,
                "proved": p.holds and p.applicable,
                "applicable": p.applicable,
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
    rule_set_ids: list[str] | None,
    as_json: bool,
    *,
    book: RuleBook | None = None,
    case_dir: Path | None = None,
    jobs: int = 1,
    use_cache: bool = False,
) -> tuple[list[str], bool]:
    """The lines `canasta-oracle verify` prints, and whether everything passed.

    `rule_set_ids` None (or empty) means every rule set of the book (the shipped
    ones by default). Disagreements are written as case files into `case_dir`
    when it is given. `jobs` and `use_cache` are verify_rule_sets'.
    """
    start = time.perf_counter()
    results = verify_rule_sets(rule_set_ids, book=book, case_dir=case_dir, jobs=jobs, use_cache=use_cache)
    total_ms = (time.perf_counter() - start) * 1000
    ok = all(r.ok for r in results)
    if as_json:
        return json.dumps(_json_doc(results, total_ms), indent=2).splitlines(), ok
    return _text_lines(results, total_ms), ok
