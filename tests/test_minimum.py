"""The initial meld minimum by running total (seed 000 'The initial meld minimum', seed 001 'Your first meld')."""

from __future__ import annotations

import pytest

from oracle.ruleset.loader import default_rule_book


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize(
    ("total", "minimum", "from_score"),
    [
        (-5, 15, None),  # below 0: 15, below the table
        (0, 50, 0),
        (1495, 50, 0),
        (1500, 90, 1500),
        (2995, 90, 1500),
        (3000, 120, 3000),
    ],
)
def test_minimum_initial_meld(rule_set: str, total: int, minimum: int, from_score: int | None) -> None:
    rules = default_rule_book().get(rule_set).rules
    assert rules.minimum_initial_meld(total) == (minimum, from_score)


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p"])
def test_minimum_edges(rule_set: str) -> None:
    rules = default_rule_book().get(rule_set).rules
    assert rules.minimum_initial_meld(-1) == (15, None)
    assert rules.minimum_initial_meld(-100_000) == (15, None)
    assert rules.minimum_initial_meld(1499) == (50, 0)
    assert rules.minimum_initial_meld(2999) == (90, 1500)
    assert rules.minimum_initial_meld(1_000_000) == (120, 3000)
