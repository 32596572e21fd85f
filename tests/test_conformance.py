"""The conformance suite: every case passes in process and over gRPC alike, the coverage table is complete and
current, and deliberately wrong engines fail exactly the cases they should."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import ServerThread

import oracle.rules.draw
import oracle.rules.melds
from oracle.conformance.runner import (
    Case,
    GrpcTarget,
    InProcessTarget,
    Result,
    RunOptions,
    coverage,
    coverage_markdown,
    load_cases,
    load_expected_failures,
    run_cases,
    succeeded,
)

ROOT = Path(__file__).resolve().parent.parent
CASES = load_cases()


def failing(results: list[Result]) -> set[str]:
    return {r.case.case.id for r in results if r.status == "fail"}


def test_at_least_150_cases_each_cited_and_unique() -> None:
    assert len(CASES) >= 150
    for item in CASES:
        case = item.case
        assert case.description and case.cite and case.rule_set_id and case.WhichOneof("input"), case.id
        assert case.expect.WhichOneof("outcome"), case.id


@pytest.fixture
def seeded_bug(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """A monkeypatch for a seeded engine bug, with the state-validation memo emptied before and after: a state
    judged by the real engine must not answer for the bugged one, nor the other way round."""
    from oracle.rules.state_memo import MEMO

    MEMO.clear()
    yield monkeypatch
    monkeypatch.undo()
    MEMO.clear()


@pytest.fixture(scope="module")
def in_process() -> list[Result]:
    return run_cases(CASES, InProcessTarget(), RunOptions())


def test_every_case_passes_in_process(in_process: list[Result]) -> None:
    assert failing(in_process) == set(), "\n".join(
        f"{r.case.case.id}: {r.detail}" for r in in_process if r.status == "fail"
    )
    assert succeeded(in_process)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from oracle.ruleset.loader import default_rule_book

    running = ServerThread(default_rule_book())
    try:
        yield running.address
    finally:
        running.close()


def test_over_grpc_gives_identical_results(server: str, in_process: list[Result]) -> None:
    target = GrpcTarget(server)
    try:
        over_grpc = run_cases(CASES, target, RunOptions())
    finally:
        target.close()
    assert [(r.case.case.id, r.status, r.detail) for r in over_grpc] == [
        (r.case.case.id, r.status, r.detail) for r in in_process
    ]


def test_coverage_has_no_code_or_field_without_a_case() -> None:
    by_code, by_field = coverage(CASES)
    assert [code for code, ids in by_code.items() if not ids] == []
    assert [path for path, ids in by_field.items() if not ids] == []


def test_coverage_table_is_current() -> None:
    # regenerate with: canasta-oracle conformance --coverage conformance/COVERAGE.md
    from oracle.conformance.sensitivity import shipped_sensitivity
    from oracle.ruleset.loader import default_rule_book

    specs = [loaded.spec for loaded in default_rule_book()]
    expected = coverage_markdown(CASES, shipped_sensitivity(), specs)
    assert (ROOT / "conformance" / "COVERAGE.md").read_text(encoding="utf-8") == expected


def _expecting(code: str, cases: list[Case]) -> set[str]:
    return {
        c.case.id
        for c in cases
        if c.case.expect.WhichOneof("outcome") == "illegal" and code in c.case.expect.illegal.codes
    }


def test_an_engine_that_allows_four_wilds_fails_exactly_the_four_wild_cases(seeded_bug: pytest.MonkeyPatch) -> None:
    monkeypatch = seeded_bug
    real = oracle.rules.melds.meld_rule_breaks

    def four_wilds_allowed(shape, rules, *, going_out, last_cards=True):  # a seeded bug: a fourth wild passes
        return [
            broken
            for broken in real(shape, rules, going_out=going_out, last_cards=last_cards)
            if not (broken.field == "melds.max_wilds" and shape.wilds == rules.melds.max_wilds + 1)
        ]

    for module in (
        "oracle.rules.melds",
        "oracle.rules.meld_play",
        "oracle.rules.table_check",
        "oracle.rules.state_check",
    ):
        monkeypatch.setattr(f"{module}.meld_rule_breaks", four_wilds_allowed, raising=False)
    results = run_cases(CASES, InProcessTarget(), RunOptions())
    expected = {c.case.id for c in CASES if _one_wild_too_many(c)}
    assert expected, "the suite has cases with one wild too many"
    assert failing(results) == expected


def _one_wild_too_many(item: Case) -> bool:
    """Cases whose answer depends on rejecting exactly one wild over the limit (marked by their code or field)."""
    case = item.case
    outcome = case.expect.WhichOneof("outcome")
    if outcome == "illegal":
        # not on a formed Cutthroat table (side_of_seat): a partnership's merged meld may already hold a wild over
        # the limit, so one more there is two over, which the seeded bug still refuses
        return "MELD_TOO_MANY_WILDS" in case.expect.illegal.codes and not case.check.state.side_of_seat
    return outcome == "error" and "melds.max_wilds" in case.fields


def test_an_engine_that_takes_a_frozen_pile_with_a_natural_and_a_wild_fails_exactly_those_cases(
    seeded_bug: pytest.MonkeyPatch,
) -> None:
    monkeypatch = seeded_bug
    real = oracle.rules.draw.frozen_reasons_for_side

    def lenient(rules, state, side):  # a seeded bug: ignore freezing when the player offers a natural and a wild
        return [] if _offering_natural_and_wild[0] else real(rules, state, side)

    _offering_natural_and_wild = [False]
    real_check = oracle.rules.draw.check_take_pile

    def check(ctx, action):
        from oracle.model.cards import is_natural, is_wild

        _offering_natural_and_wild[0] = (
            sum(map(is_natural, action.with_cards)) == 1 and sum(map(is_wild, action.with_cards)) >= 1
        )
        try:
            return real_check(ctx, action)
        finally:
            _offering_natural_and_wild[0] = False

    monkeypatch.setattr(oracle.rules.draw, "frozen_reasons_for_side", lenient)
    monkeypatch.setattr("oracle.rules.referee.check_take_pile", check)
    results = run_cases(CASES, InProcessTarget(), RunOptions())
    expected = {
        c.case.id
        for c in CASES
        if c.case.expect.WhichOneof("outcome") == "illegal"
        and "PILE_FROZEN_NEEDS_NATURAL_PAIR" in c.case.expect.illegal.codes
        and c.case.WhichOneof("input") == "check"
        and _natural_and_wild(c.case.check.action)
    }
    assert expected
    assert failing(results) == expected


def _natural_and_wild(action: str) -> bool:
    from oracle.model.actions import TakePile, parse_action
    from oracle.model.cards import is_natural, is_wild

    parsed = parse_action(action)
    return (
        isinstance(parsed, TakePile)
        and sum(map(is_natural, parsed.with_cards)) == 1
        and sum(map(is_wild, parsed.with_cards)) >= 1
    )


def test_expected_failures_and_unexpected_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    first = CASES[0].case.id
    results = run_cases(CASES[:3], InProcessTarget(), RunOptions(expected_failures=frozenset({first})))
    assert results[0].status == "xpass" and not succeeded(results)
    assert load_expected_failures("# known\nfoo.bar  # why\n\nbaz\n") == {"foo.bar", "baz"}


def test_rule_set_selection_skips_the_others() -> None:
    results = run_cases(CASES, InProcessTarget(), RunOptions(rule_sets=("classic-2p",)))
    assert {r.case.case.rule_set_id for r in results if r.status != "skip"} == {"classic-2p"}
    assert all(r.status == "skip" for r in results if r.case.case.rule_set_id != "classic-2p")
