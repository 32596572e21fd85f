"""The model's answers at the meld and run boundaries the engine is checked on: given each point's numbers, they
are the answers of the model's terms built at those numbers, and the rule books' rules."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import boundary, boundary_runs, budget
from oracle.verify.model import MeldCounts, RuleModel
from oracle.verify.terms import simplifies_true

BOOK = default_rule_book()


@pytest.mark.parametrize("rule_set_id", ["classic-4p", "samba-4p", "american-4p", "wild-melds-4p"])
def test_the_meld_points_answers_are_the_model_built_at_each_point(rule_set_id: str) -> None:
    budget.fresh_z3_context()
    rm = RuleModel(BOOK.get(rule_set_id).rules)
    points = boundary._meld_points(rm)
    assert len(points) >= 10  # both sides of the size, naturals and canasta flips
    for naturals, wilds, expected in points:
        m = MeldCounts(z3.IntVal(naturals), z3.IntVal(wilds), z3.IntVal(0))
        built = {
            "legal": simplifies_true(rm.legal_meld(m)),
            "canasta": simplifies_true(rm.is_canasta(m)),
            "naturalCanasta": simplifies_true(rm.is_natural_canasta(m)),
        }
        assert expected == built, (naturals, wilds)
    # each flip has both sides: some legal meld and some illegal one are among the points
    assert {e["legal"] for _, _, e in points} == {True, False}


@pytest.mark.parametrize("rule_set_id", ["samba-4p", "samba-ocl-4p"])
def test_the_run_cases_model_answers_are_the_run_rules(rule_set_id: str) -> None:
    budget.fresh_z3_context()
    rules = BOOK.get(rule_set_id).rules
    r = rules.runs
    cases = boundary_runs._run_cases(RuleModel(rules), rules)
    sizes = {c.id.rsplit("-size", 1)[1]: c.expected for c in cases if "-run-size" in c.id}
    assert len(sizes) >= 4
    for size, expected in sizes.items():
        legal = r.min_size <= int(size) <= (r.max_size or 13)
        assert expected == {"legal": legal, "canasta": legal and int(size) >= r.canasta_size}, size
    others = {c.id.rsplit("-", 1)[1]: c.expected for c in cases if "-run-size" not in c.id}
    assert set(others) == {"gap", "suits", "wild"}  # a gap, two suits, a wild card: never a legal run
    assert all(e == {"legal": False, "canasta": False} for e in others.values())
    assert all(c.agrees for c in cases)  # and the engine says the same
