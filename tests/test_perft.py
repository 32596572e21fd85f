"""Perft files: the shipped counts equal the computed ones, and regenerating reproduces the files byte for byte."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import json_format

from oracle.api.v1 import notation_pb2, record_pb2
from oracle.conformance.perft import (
    CASES,
    COUNT_FIELDS,
    PerftCase,
    compute_counts,
    load_perft_cases,
    mismatches,
    regenerate,
    rules_and_state,
)
from oracle.rules.state_check import validate_state

SHIPPED = load_perft_cases()


def test_the_shipped_files_are_the_defined_cases() -> None:
    assert sorted(c.id for c in SHIPPED) == sorted(c[0] for c in CASES)
    assert 8 <= len(SHIPPED) <= 12
    assert {c.rule_set_id for c in SHIPPED} == {"classic-2p", "classic-4p"}


@pytest.mark.parametrize("case", SHIPPED, ids=lambda c: c.id)
def test_shipped_counts_equal_computed_counts(case: PerftCase) -> None:
    assert list(case.counts) == list(COUNT_FIELDS)
    assert compute_counts(case) == case.counts
    assert case.counts["total"] == sum(v for k, v in case.counts.items() if k != "total") > 0


@pytest.mark.parametrize("case", SHIPPED, ids=lambda c: c.id)
def test_files_parse_as_the_api_messages(case: PerftCase) -> None:
    json_format.ParseDict(case.state, notation_pb2.GameStateNotation())
    counts = json_format.ParseDict(case.counts, record_pb2.ActionCounts())
    assert counts.total == case.counts["total"]
    rules, state = rules_and_state(case)
    assert validate_state(rules, state) == []


def test_regenerate_reproduces_the_shipped_files(tmp_path: Path) -> None:
    written = regenerate(tmp_path)
    shipped = resources.files("oracle.conformance.data") / "perft"
    names = sorted(p.name for p in written)
    assert names == sorted(e.name for e in shipped.iterdir() if e.name.endswith(".json"))
    for name in names:
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name


def test_a_wrong_count_is_reported() -> None:
    case = SHIPPED[0]
    wrong = PerftCase(
        case.id, case.description, case.rule_set_id, case.state, {**case.counts, "total": case.counts["total"] + 1}
    )
    assert mismatches([case, wrong]) == [(case.id, wrong.counts, case.counts)]
