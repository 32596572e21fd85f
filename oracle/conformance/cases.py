"""Conformance case files: loading cases/*.json strictly (ids unique across files) and the expected-failures list."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from google.protobuf import json_format

from oracle.api.v1 import conformance_pb2

CASES_DIR = "cases"


@dataclass(frozen=True)
class Case:
    """One case with the file it came from."""

    suite: str  #: file name without .json
    case: conformance_pb2.ConformanceCase


class CaseFileError(ValueError):
    """A case file that does not parse (unknown field, wrong type) or repeats an id."""


def load_cases(directory: Traversable | None = None) -> list[Case]:
    """Every case of every cases/*.json file, parsed strictly, in file then case order."""
    directory = directory or resources.files("oracle.conformance.data") / CASES_DIR
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        suite = conformance_pb2.ConformanceSuite()
        try:
            json_format.Parse(entry.read_text(encoding="utf-8"), suite)
        except json_format.ParseError as exc:
            raise CaseFileError(f"{entry.name}: {exc}") from None
        name = entry.name.removesuffix(".json")
        for case in suite.cases:
            if case.id in seen:
                raise CaseFileError(f"{entry.name}: case id '{case.id}' repeats one in {seen[case.id]}.json")
            seen[case.id] = name
            cases.append(Case(name, case))
    return cases


def load_expected_failures(text: str) -> frozenset[str]:
    """Case ids, one per line; '#' starts a comment."""
    return frozenset(line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip())


__all__ = ["CASES_DIR", "Case", "CaseFileError", "load_cases", "load_expected_failures"]
