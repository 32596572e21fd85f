"""What a conformance run is asked to run, checked before it starts: rule-set ids, expected failures, the rule book.

A run that cannot do what it was asked refuses with a RunRefused naming every
problem (the CLI exits 2), instead of running nothing, or everything, silently.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from oracle.conformance.cases import Case
from oracle.ruleset.loader import SOURCES_FILE, SPEC_SUFFIX, RuleBook, default_rule_book


class RunRefused(ValueError):
    """The run cannot do what it was asked: one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class ExpectedFailure:
    """One id of an expected-failures file, with where it was written."""

    case_id: str
    line: int  #: 1-based


def parse_expected_failures(text: str, origin: str) -> list[ExpectedFailure]:
    """Case ids, one per line ('#' starts a comment); a repeated id is refused naming both lines."""
    entries: list[ExpectedFailure] = []
    first: dict[str, int] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        case_id = line.split("#", 1)[0].strip()
        if not case_id:
            continue
        if case_id in first:
            problems.append(f"{origin}:{number}: '{case_id}' is listed already on line {first[case_id]}")
            continue
        first[case_id] = number
        entries.append(ExpectedFailure(case_id, number))
    if problems:
        raise RunRefused(problems)
    return entries


def check_expected_failures(entries: Iterable[ExpectedFailure], cases: Iterable[Case], origin: str) -> frozenset[str]:
    """The listed ids; every one must be a case of the suite (a misspelt id would never be checked)."""
    known = {item.case.id for item in cases}
    entries = list(entries)
    unknown = [e for e in entries if e.case_id not in known]
    if unknown:
        raise RunRefused([f"{origin}:{e.line}: no conformance case has the id '{e.case_id}'" for e in unknown])
    return frozenset(e.case_id for e in entries)


def check_rule_set_ids(ids: Iterable[str], cases: Iterable[Case]) -> tuple[str, ...]:
    """The --rules ids; every one must be a rule set that some case uses (else the run would skip everything)."""
    used = sorted({item.case.rule_set_id for item in cases if item.case.rule_set_id})
    chosen = tuple(dict.fromkeys(ids))
    unknown = [i for i in chosen if i not in used]
    if unknown:
        raise RunRefused(
            [f"--rules: no conformance case uses the rule set '{i}'" for i in unknown]
            + [f"  the cases use: {', '.join(used)}"]
        )
    return chosen


def _spec_files(directory: Path) -> dict[str, bytes]:
    """The spec files and source catalogue of a directory by name."""
    return {
        entry.name: entry.read_bytes()
        for entry in sorted(directory.iterdir())
        if entry.name.endswith(SPEC_SUFFIX) and entry.is_file()
    }


def rule_book(specs: Path | None, replace: bool) -> RuleBook:
    """The shipped rule book, with the rule sets of `specs` added to it (or, with `replace`, only those).

    Added rule sets may extend shipped ones. A file of `specs` with a shipped
    rule set's name is refused unless `replace` (it would silently change the
    shipped rule set); so is a source id its sources.textproto repeats.
    `specs` always passes the solver lint, as every verb's --specs does.
    """
    if specs is None:
        if replace:
            raise RunRefused(["--specs-only needs --specs DIR"])
        return default_rule_book()
    from oracle.ruleset.cache import cached_rule_book
    from oracle.ruleset.loader import parse_sources
    from oracle.ruleset.problems import SpecError
    from oracle.verify.gate import contradictions

    if replace:
        return cached_rule_book(specs, checker=contradictions)
    shipped_dir = resources.files("oracle.specs")
    shipped = {
        entry.name: entry.read_bytes()
        for entry in shipped_dir.iterdir()
        if entry.name.endswith(SPEC_SUFFIX) and entry.is_file()
    }
    added = _spec_files(specs)
    if not any(name != SOURCES_FILE for name in added):
        raise RunRefused([f"--specs {specs}: no rule-set files (<id>{SPEC_SUFFIX}) in the directory"])
    problems = [
        f"{specs / name}: the shipped rule book has {name} already (--specs-only replaces the shipped book)"
        for name in added
        if name != SOURCES_FILE and name in shipped
    ]
    merged = {**shipped, **{name: data for name, data in added.items() if name != SOURCES_FILE}}
    if SOURCES_FILE in added:
        try:
            catalogue = parse_sources(shipped[SOURCES_FILE].decode("utf-8"), SOURCES_FILE)
            extra = parse_sources(added[SOURCES_FILE].decode("utf-8"), str(specs / SOURCES_FILE))
        except SpecError as exc:
            raise RunRefused([str(p) for p in exc.problems]) from None
        known = {s.id for s in catalogue.sources}
        problems += [
            f"{specs / SOURCES_FILE}: source '{s.id}' is a shipped source already"
            for s in extra.sources
            if s.id in known
        ]
        catalogue.sources.extend(s for s in extra.sources if s.id not in known)
        from google.protobuf import text_format

        merged[SOURCES_FILE] = text_format.MessageToString(catalogue).encode("utf-8")
    if problems:
        raise RunRefused(problems)
    with tempfile.TemporaryDirectory(prefix="canasta-oracle-specs-") as folder:
        for name, data in merged.items():
            (Path(folder) / name).write_bytes(data)
        return cached_rule_book(Path(folder), checker=contradictions)


__all__ = [
    "ExpectedFailure",
    "RunRefused",
    "check_expected_failures",
    "check_rule_set_ids",
    "parse_expected_failures",
    "rule_book",
]
