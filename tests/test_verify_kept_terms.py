"""Term structures built once per process and copied (kept_terms): the same terms as a build in the asking
context, kept by the fields read, and noted in a shared computation's footprint."""

from __future__ import annotations

import pytest
import z3

from oracle.ruleset.loader import default_rule_book
from oracle.verify import budget, footprint, kept_terms
from oracle.verify.meld_set import MeldSet, build_meld_set
from oracle.verify.model import RuleModel

BOOK = default_rule_book()


@pytest.fixture(autouse=True)
def nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_terms, "_built", {})


def _text(melds: MeldSet) -> list[str]:
    return [m.sexpr() for m in (melds.points, melds.cards, melds.canastas, melds.twos, *melds.constraints)]


@pytest.mark.parametrize("rule_set_id", ["classic-4p", "american-4p", "samba-4p", "hand-and-foot-4p"])
def test_a_kept_meld_set_is_the_meld_set_built_in_the_asking_context(rule_set_id: str) -> None:
    budget.fresh_z3_context()
    copied = RuleModel(BOOK.get(rule_set_id).rules).melds_at_once("initial")
    assert all(term.ctx is z3.main_ctx() for term in (copied.points, *copied.constraints))
    budget.fresh_z3_context()
    built = build_meld_set(RuleModel(BOOK.get(rule_set_id).rules), "initial")
    assert _text(copied) == _text(built)
    assert [rank for rank, _ in copied.melds] == [rank for rank, _ in built.melds]


def test_meld_sets_are_kept_by_the_fields_read_and_a_shared_computation_notes_them() -> None:
    budget.fresh_z3_context()
    RuleModel(BOOK.get("classic-4p").rules).melds_at_once("melds")
    [(kept_footprint, _)] = kept_terms._built["melds_at_once:melds"].items()
    paths = [path for path, _ in kept_footprint]
    assert "melds.min_size" in paths and "game.target_score" not in paths  # only what the build read
    RuleModel(BOOK.get("bicycle-4p").rules).melds_at_once("melds")  # meld rules as classic-4p's: a copy
    assert len(kept_terms._built["melds_at_once:melds"]) == 1
    RuleModel(BOOK.get("samba-4p").rules).melds_at_once("melds")  # other meld rules: built for them
    assert len(kept_terms._built["melds_at_once:melds"]) == 2
    reads: footprint.Reads = {}
    RuleModel(footprint.recording(BOOK.get("classic-4p").rules.spec, reads)).melds_at_once("melds")
    assert set(paths) <= set(reads)  # the asking computation is kept by the fields the meld set read
