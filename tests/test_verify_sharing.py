"""Work verify shares between rule sets and worker processes: a shared or handed-over score extreme is the one a
fresh proof gives, and the results do not depend on the number of processes or the order of the rule sets."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget, hand_read
from oracle.verify.hand import side_hand
from oracle.verify.hand_read import extreme_key, extreme_side, score_extremes
from oracle.verify.model import RuleModel
from oracle.verify.report import RuleSetVerification, verify_one
from oracle.verify.workers import verify_in_workers, weight

BOOK = default_rule_book()


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> dict[str, hand_read.ConcreteSide | None]:
    """The extremes cache of this process, emptied for the test (restored after)."""
    cache: dict[str, hand_read.ConcreteSide | None] = {}
    monkeypatch.setattr(hand_read, "_extremes_cache", cache)
    return cache


def model(rule_set_id: str) -> RuleModel:
    return RuleModel(BOOK.get(rule_set_id).rules)


def outcome(result: RuleSetVerification) -> tuple[object, ...]:
    """What a verification found, without its timings: properties, lint findings and every engine case."""
    assert result.engine is not None
    return (
        result.rule_set_id,
        [(p.property_id, p.holds, p.applicable, p.detail) for p in result.properties],
        result.findings,
        [c.to_json() for c in result.engine.cases],
    )


def test_an_extreme_is_the_same_proof_whatever_z3_was_asked_before(
    empty_cache: dict[str, hand_read.ConcreteSide | None],
) -> None:
    budget.fresh_z3_context()
    first = extreme_side(model("classic-4p"), sign=1)
    assert first is not None and first.total == 7320  # the highest side table score-bounds reports for classic-4p
    empty_cache.clear()
    budget.fresh_z3_context()
    other = side_hand(model("american-4p"))  # unrelated terms and a check in the caller's context
    solver = budget.PROOF_BUDGET.solver()
    solver.add(*other.constraints, other.total >= 100)
    assert solver.check() == z3.sat
    again = extreme_side(model("classic-4p"), sign=1)
    assert again == first
    # the caller's context is left as it was: its terms still combine with new ones
    assert solver.check(other.total >= 200) == z3.sat


def test_rule_sets_that_score_alike_share_an_extreme_equal_to_their_own_fresh_proof(
    empty_cache: dict[str, hand_read.ConcreteSide | None],
) -> None:
    # bicycle-4p differs from classic-4p, but not in a scoring field (hand_read._SCORING_FIELDS)
    key = extreme_key(BOOK.get("classic-4p").rules.spec, partnership=False, sign=-1)
    assert extreme_key(BOOK.get("bicycle-4p").rules.spec, partnership=False, sign=-1) == key
    assert extreme_key(BOOK.get("american-4p").rules.spec, partnership=False, sign=-1) != key
    shared = extreme_side(model("classic-4p"), sign=-1)
    assert list(empty_cache) == [key]
    assert extreme_side(model("bicycle-4p"), sign=-1) is shared  # a cache hit: no second proof
    empty_cache.clear()
    assert extreme_side(model("bicycle-4p"), sign=-1) == shared  # bicycle-4p's own proof: the same table
    found = score_extremes(model("bicycle-4p"))
    assert found is not None and found.low == shared and found.low.total == -1980


def test_workers_give_the_serial_results_in_the_order_asked_whatever_the_order() -> None:
    # two rule sets sharing every extreme, one side formed during the hand (a partnership's extremes too)
    ids = ["bicycle-4p", "cutthroat-3p", "classic-4p"]
    serial = {i: outcome(verify_one(i, BOOK.get(i).rules)) for i in ids}
    for order in (ids, ids[::-1]):
        parallel = verify_in_workers(order, BOOK, None, None, 2, verify_one)
        assert [r.rule_set_id for r in parallel] == order
        assert [outcome(r) for r in parallel] == [serial[i] for i in order]


def test_the_costliest_rule_sets_are_weighed_heaviest() -> None:
    weights = {i: weight(BOOK.get(i).rules.spec) for i in BOOK.ids()}
    light = max(weights[i] for i in ("classic-4p", "classic-2p", "wild-melds-4p"))
    assert all(weights[i] > light for i in ("samba-4p", "hand-and-foot-4p", "cutthroat-3p"))
