"""Conformance results and their reports: the summary table, JSON, JUnit XML, and the coverage table."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from oracle.api.v1 import ruleset_pb2
from oracle.conformance.cases import Case
from oracle.rules.violations import RULES, find_rule


@dataclass
class Result:
    """The outcome of one case."""

    case: Case
    status: str  #: "pass", "fail", "skip", "xfail" (expected failure that failed), "xpass" (expected failure passed)
    detail: str = ""


@dataclass(frozen=True)
class Sensitivity:
    """What changing one rule-set field did (oracle.conformance.sensitivity): the first change that moved a case."""

    field: str
    rule_set: str  #: the rule set changed; "" when no change moved any case
    change: str  #: the change, e.g. "true -> false"; or how many changes were tried
    cases: tuple[str, ...]  #: the first cases whose outcome changed
    changed: int  #: how many cases changed

    @property
    def matters(self) -> bool:
        """Some case's outcome depends on the field."""
        return bool(self.cases)


def succeeded(results: list[Result]) -> bool:
    """No unexpected failure and no unexpected pass."""
    return not any(r.status in ("fail", "xpass") for r in results)


def summary_lines(results: list[Result]) -> list[str]:
    """A table by suite: pass, fail, skip, xfail, xpass; then each failure."""
    suites: dict[str, dict[str, int]] = {}
    for r in results:
        counts = suites.setdefault(r.case.suite, dict.fromkeys(("pass", "fail", "skip", "xfail", "xpass"), 0))
        counts[r.status] += 1
    lines = [f"{'suite':<34} {'pass':>5} {'fail':>5} {'skip':>5} {'xfail':>6} {'xpass':>6}"]
    for suite, c in suites.items():
        lines.append(f"{suite:<34} {c['pass']:>5} {c['fail']:>5} {c['skip']:>5} {c['xfail']:>6} {c['xpass']:>6}")
    totals = {k: sum(c[k] for c in suites.values()) for k in ("pass", "fail", "skip", "xfail", "xpass")}
    lines.append(
        f"{'total':<34} {totals['pass']:>5} {totals['fail']:>5} {totals['skip']:>5} {totals['xfail']:>6}"
        f" {totals['xpass']:>6}"
    )
    for r in results:
        if r.status in ("fail", "xpass"):
            lines.append(f"{r.status.upper()}: {r.case.case.id}: {r.detail}")
    lines.append(
        f"{totals['pass'] + totals['xfail']} passed, {totals['fail'] + totals['xpass']} failed"
        + (f", {totals['skip']} skipped" if totals["skip"] else "")
    )
    return lines


def results_json(results: list[Result]) -> str:
    """Every result as JSON."""
    return json.dumps(
        [
            {
                "id": r.case.case.id,
                "suite": r.case.suite,
                "ruleSetId": r.case.case.rule_set_id,
                "status": r.status,
                "detail": r.detail,
            }
            for r in results
        ],
        indent=2,
    )


def junit_xml(results: list[Result]) -> str:
    """The results as JUnit XML (one testsuite per case file)."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites")
    by_suite: dict[str, list[Result]] = {}
    for r in results:
        by_suite.setdefault(r.case.suite, []).append(r)
    for suite, items in by_suite.items():
        node = ET.SubElement(
            root,
            "testsuite",
            name=suite,
            tests=str(len(items)),
            failures=str(sum(r.status in ("fail", "xpass") for r in items)),
            skipped=str(sum(r.status in ("skip", "xfail") for r in items)),
        )
        for r in items:
            case = ET.SubElement(node, "testcase", classname=suite, name=r.case.case.id)
            if r.status in ("fail", "xpass"):
                ET.SubElement(case, "failure", message=r.detail)
            elif r.status in ("skip", "xfail"):
                ET.SubElement(case, "skipped", message=r.detail or r.status)
    return ET.tostring(root, encoding="unicode")


def coverage(cases: Iterable[Case]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(violation code -> case ids expecting it, rule-set field -> case ids exercising it)."""
    from oracle.ruleset.paths import leaf_paths

    by_code: dict[str, list[str]] = {code.value: [] for code in RULES}
    by_field: dict[str, list[str]] = {path: [] for path in leaf_paths()}
    for item in cases:
        case = item.case
        fields = list(case.fields)
        if case.expect.WhichOneof("outcome") == "illegal":
            for code in case.expect.illegal.codes:
                by_code.setdefault(code, []).append(case.id)
                rule = find_rule(code)
                if rule is not None:
                    fields += [rule.field] if "." in rule.field else []
        for path in dict.fromkeys(fields):
            by_field.setdefault(path, []).append(case.id)
    return by_code, by_field


def _cites(reading: ruleset_pb2.Reading) -> str:
    return "; ".join(f'{c.source} "{c.section}"' for c in reading.cite) or "no text"


def choices_markdown(rule_sets: Iterable[ruleset_pb2.RuleSet]) -> list[str]:
    """The table of choices: each point, the reading each rule set takes with its citations, and the others."""
    rows: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], ruleset_pb2.Choice] = {}
    for spec in rule_sets:
        for choice in spec.choices:
            key = (choice.id, choice.taken.text)
            rows.setdefault(key, []).append(spec.id)
            first.setdefault(key, choice)
    kinds = {
        ruleset_pb2.CHOICE_KIND_TEXTS_DISAGREE: "texts disagree",
        ruleset_pb2.CHOICE_KIND_READING: "two readings",
        ruleset_pb2.CHOICE_KIND_UNSTATED: "no text states it",
    }
    lines = [
        "",
        "## Choices between the texts",
        "",
        "Every point where the rule texts disagree, allow two readings or say nothing, and which way each rule set",
        "goes (`canasta-oracle explain RULESET` prints the same with the reasons).",
        "",
        "| choice | kind | fields | reading taken | cited | by | other readings |",
        "|---|---|---|---|---|---|---|",
    ]
    for key in sorted(rows):
        c = first[key]
        others = "<br>".join(
            f"{o.text} ({_cites(o)}{'; played by ' + o.rule_set if o.rule_set else ''})" for o in c.others
        )
        lines.append(
            f"| {c.id}: {c.point} | {kinds.get(c.kind, '?')} | {', '.join(c.fields) or '-'} | {c.taken.text}"
            f" | {_cites(c.taken)} | {', '.join(rows[key])} | {others or '-'} |"
        )
    return lines


def coverage_markdown(
    cases: list[Case], sensitivity: Mapping[str, Sensitivity], rule_sets: Iterable[ruleset_pb2.RuleSet] = ()
) -> str:
    """The generated coverage table (conformance/COVERAGE.md); `sensitivity` from oracle.conformance.sensitivity.

    A rule-set field counts as covered only when changing it changes a case (for a field with subfields, every
    subfield).
    """
    by_code, by_field = coverage(cases)
    lines = [
        "# Conformance coverage",
        "",
        "Generated by `canasta-oracle conformance --coverage`; a test fails if it is stale or if a violation",
        "code or a rule-set field has no case. A field is covered only when changing its value in a shipped",
        "rule set changes the outcome of at least one case (field sensitivity, `oracle/conformance/sensitivity.py`).",
        "",
        "## Violation codes",
        "",
        "| code | cases |",
        "|---|---|",
    ]
    lines += [f"| {code} | {', '.join(ids) or '**none**'} |" for code, ids in sorted(by_code.items())]
    lines += ["", "## Rule-set fields", "", "| field | covered | cases |", "|---|---|---|"]
    for path, ids in by_field.items():
        parts = [s for f, s in sensitivity.items() if f == path or f.startswith(path + ".")]
        covered = "yes" if ids and parts and all(s.matters for s in parts) else "**no**"
        lines.append(f"| {path} | {covered} | {', '.join(ids) or '**none**'} |")
    lines += [
        "",
        "## Field sensitivity",
        "",
        "Each field's value changed in one shipped rule set, and the cases of that rule set whose outcome changed",
        "(the first three, and how many in all).",
        "",
        "| field | rule set | change | cases that change |",
        "|---|---|---|---|",
    ]
    for path, s in sensitivity.items():
        moved = f"{', '.join(s.cases)} ({s.changed} in all)" if s.matters else "**none**"
        lines.append(f"| {path} | {s.rule_set or '-'} | {s.change} | {moved} |")
    lines += choices_markdown(rule_sets)
    return "\n".join(lines) + "\n"


__all__ = [
    "Result",
    "Sensitivity",
    "choices_markdown",
    "coverage",
    "coverage_markdown",
    "junit_xml",
    "results_json",
    "succeeded",
    "summary_lines",
]
