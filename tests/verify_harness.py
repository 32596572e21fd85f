"""The fixture the Z3 verification tests share: each test proves afresh, with nothing kept from another test."""

from __future__ import annotations

import pytest

from oracle.verify import footprint, hand


@pytest.fixture(autouse=True)
def fresh_footprints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test proves afresh: a model a test seeds with a bug is never answered by a proof or a side table kept
    from the honest model for a rule set that reads alike (footprint.shared, hand.side_hand). Import it into a test
    module to apply it to every test there."""
    monkeypatch.setattr(footprint, "_kept", {})
    monkeypatch.setattr(hand, "_built", {})
