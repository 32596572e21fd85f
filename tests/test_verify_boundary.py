"""The model's answers at the meld boundaries the engine is checked on: given each point's numbers, they are the
answers of the model's terms built at those numbers."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import boundary, budget
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
