"""What the Z3 verification tests share: a fixture so that each test proves afresh, and one property's outcome."""

from __future__ import annotations

import pytest

from oracle.api.v1 import ruleset_pb2
from oracle.verify import footprint, hand, kept_terms
from oracle.verify.model import RuleModel
from oracle.verify.properties import PROPERTIES, check_properties


@pytest.fixture(autouse=True)
def fresh_footprints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test proves afresh: a model a test seeds with a bug is never answered by a proof or a side table kept
    from the honest model for a rule set that reads alike (footprint.shared, hand.side_hand, kept_terms.built_once).
    Import it into a test module to apply it to every test there."""
    monkeypatch.setattr(footprint, "_kept", {})
    monkeypatch.setattr(hand, "_built", {})
    monkeypatch.setattr(kept_terms, "_built", {})


def outcome(spec: ruleset_pb2.RuleSet, property_id: str) -> tuple[bool, str]:
    """(holds, detail) of one property for a rule set, which must apply to it."""
    (result,) = check_properties(RuleModel(spec), [p for p in PROPERTIES if p.id == property_id])
    assert result.applicable, result.detail
    return result.holds, result.detail
