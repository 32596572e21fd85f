"""The side claims proved with the score extremes (hand_read.side_proof): the same outcomes a proof of their own
gives, kept by the side table's fields and handed on by a worker with the extremes."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget, footprint, hand_read, score_targets, workers
from oracle.verify.hand import SIDE_FIELDS, side_hand
from oracle.verify.model import RuleModel
from oracle.verify.proving import Outcome, prove, prove_on
from oracle.verify.report import verify_one
from oracle.verify.side_claims import SIDE_CLAIMS

BOOK = default_rule_book()


@pytest.fixture
def alone(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[footprint.Footprint, object]]:
    """No extremes and no shared answers known in this process for the test (restored after)."""
    kept: dict[str, dict[footprint.Footprint, object]] = {}
    monkeypatch.setattr(hand_read, "_extremes_cache", {})
    monkeypatch.setattr(footprint, "_kept", kept)
    return kept


def model(rule_set_id: str) -> RuleModel:
    return RuleModel(BOOK.get(rule_set_id).rules)


@pytest.mark.parametrize("rule_set_id", ["classic-4p", "american-4p", "samba-4p", "hand-and-foot-13-4p"])
def test_a_side_claim_proved_with_the_extremes_is_the_proof_of_its_own(
    rule_set_id: str, alone: dict[str, dict[footprint.Footprint, object]]
) -> None:
    for prop, claim in SIDE_CLAIMS.items():
        budget.fresh_z3_context()
        rm = model(rule_set_id)
        hand = side_hand(rm, "side")
        condition, shown = claim(rm, hand)
        own = prove(condition, hand.constraints, shown)
        assert own == Outcome(True)  # every shipped rule set meets both claims
        assert hand_read.side_proof(model(rule_set_id), prop) == own


def test_prove_on_asks_under_an_assumption_and_shows_a_counterexample() -> None:
    budget.fresh_z3_context()
    x = z3.Int("x")
    solver = budget.PROOF_BUDGET.solver()
    solver.add(x >= 0, x <= 5)
    assert prove_on(solver, x <= 5) == Outcome(True)
    refuted = prove_on(solver, x <= 4, [x])
    assert not refuted.holds and refuted.detail == "counterexample: x=5"
    assert [str(a) for a in solver.assertions()] == ["x >= 0", "x <= 5"]  # the assertions as they were
    assert prove_on(solver, x >= 0) == Outcome(True)


def test_the_side_proofs_are_kept_by_the_side_fields_and_shared_by_rule_sets_that_agree_on_them(
    alone: dict[str, dict[footprint.Footprint, object]],
) -> None:
    hand_read.extreme_side(model("classic-4p"))
    [(footprint_kept, outcomes)] = alone[hand_read.SIDE_PROOFS].items()
    assert [path for path, _ in footprint_kept] == list(SIDE_FIELDS)
    assert set(outcomes) == set(SIDE_CLAIMS)  # type: ignore[call-overload]
    # bicycle-4p scores as classic-4p does: the kept outcome, not a second proof
    assert hand_read.side_proof(model("bicycle-4p"), "score-is-sum") is outcomes["score-is-sum"]  # type: ignore[index]
    assert footprint.kept_answer(hand_read.SIDE_PROOFS, BOOK.get("american-4p").rules.spec) is None
    alone.clear()  # forgotten (as by footprint.forget): proved again, with the extremes
    assert hand_read.side_proof(model("classic-4p"), "red-three-score") == Outcome(True)
    assert hand_read.SIDE_PROOFS in alone


def test_a_worker_hands_the_side_proofs_on_with_the_extremes(
    monkeypatch: pytest.MonkeyPatch, alone: dict[str, dict[footprint.Footprint, object]]
) -> None:
    monkeypatch.setattr(workers, "_WORKER", [workers._Worker(BOOK, None, verify_one)])
    _, answers = workers._extreme_task("samba-4p", False, [])
    [(_, _, outcomes)] = [a for a in answers if a[0] == hand_read.SIDE_PROOFS]
    assert outcomes == {prop: Outcome(True) for prop in SIDE_CLAIMS}
    # a partnership's tables (a side formed during the hand) prove no side claims: those are of a side's table
    _, partners = workers._extreme_task("cutthroat-3p", True, [])
    assert hand_read.SIDE_PROOFS not in {name for name, _, _ in partners}


@pytest.mark.parametrize("rule_set_id", ["classic-4p", "samba-4p", "hand-and-foot-4p"])
def test_the_score_targets_found_with_the_extremes_are_those_a_solver_of_their_own_finds(
    rule_set_id: str, alone: dict[str, dict[footprint.Footprint, object]]
) -> None:
    budget.fresh_z3_context()
    rm = model(rule_set_id)
    hand = side_hand(rm, "side")
    solver = budget.PROOF_BUDGET.simple_solver()
    solver.add(*hand.constraints, *score_targets.small(rm, hand))
    reachable = [
        slug for slug, _, conditions in score_targets.score_targets(rm, hand) if solver.check(*conditions) == z3.sat
    ]
    found = hand_read.side_targets(model(rule_set_id))
    assert [slug for slug, _, _ in found] == reachable
    for slug, _, side in found:
        assert len(side.melds) + (side.black_meld is not None) <= rm.required + 2  # a small table
        if slug.startswith("red") and "-canastas" not in slug:  # red{count}-meld / red{count}-nomeld
            count, melded = slug[3:].split("-")
            assert side.red_threes == int(count) and bool(side.melds) == (melded == "meld") and side.went_out == 0
        if slug.startswith("out"):
            assert side.went_out == int(slug[3:])
    assert footprint.kept_answer(hand_read.SIDE_TARGETS, BOOK.get(rule_set_id).rules.spec) is found
