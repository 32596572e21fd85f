"""The behaviour digest (oracle.bench.digest): the same run after run, and changed by a changed answer."""

from __future__ import annotations

import dataclasses
import functools

import pytest

import oracle.rules.referee
from oracle.bench.digest import digests
from oracle.rules.context import Ctx
from oracle.rules.state_memo import MEMO
from oracle.rules.violations import Violation
from oracle.ruleset.loader import default_rule_book


@functools.cache
def _first_digests() -> list[tuple[str, str]]:
    """The digests of one run (both tests compare against it: each run costs seconds per rule set)."""
    return list(digests(default_rule_book(), 1))


def test_the_digest_is_the_same_run_after_run_and_has_a_line_per_rule_set() -> None:
    book = default_rule_book()
    first = _first_digests()
    assert first == list(digests(default_rule_book(), 1))
    assert [k for k, _ in first] == [*book.ids(), "ALL"]


def test_a_reworded_explanation_changes_the_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _first_digests()
    real = oracle.rules.referee.check_take_pile

    def reworded(ctx: Ctx, action: object) -> list[Violation]:
        return [dataclasses.replace(v, explanation=v.explanation + "!") for v in real(ctx, action)]  # type: ignore[arg-type]

    monkeypatch.setattr(oracle.rules.referee, "check_take_pile", reworded)
    MEMO.clear()
    try:
        after = digests(default_rule_book(), 1)
    finally:
        MEMO.clear()
    assert after[-1] != before[-1]
    # every rule set whose candidates take the pile wrongly
    assert sum(a != b for a, b in zip(after, before, strict=True)) > 1
