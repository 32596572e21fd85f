"""Hand and Foot beside its conformance cases: what a case cannot say (the words of an error), and engine defects the
cases found (each first shown by a strict xfail, then fixed)."""

from __future__ import annotations

import pytest
from hand_and_foot_states import FOOT
from hand_and_foot_states import foot_state as hf
from helpers import judge

from oracle.model.errors import InvalidInputError


def test_red_threes_held_in_hand_are_never_melded() -> None:
    # conformance case hand-and-foot.meld.red-threes-refused: the action is refused as malformed, naming the group
    with pytest.raises(InvalidInputError, match=r"action\.meld\.groups\[0\]: a red three \(3H\)"):
        judge("hand-and-foot-4p", hf("3H 3D 3H 4S", foot=FOOT), "meld 3H 3D 3H")


def test_the_refusal_does_not_call_a_held_red_three_a_bonus_card() -> None:
    with pytest.raises(InvalidInputError) as refused:
        judge("hand-and-foot-4p", hf("3H 3D 3H 4S", foot=FOOT), "meld 3H 3D 3H")
    assert "bonus card" not in str(refused.value)
