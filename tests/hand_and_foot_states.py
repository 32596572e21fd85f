"""Hand and Foot positions for the rules, service and front-end tests: the feet and books they are written with, and
a position in card notation judged as a state."""

from __future__ import annotations

from helpers import foot_position, state_from_json

from oracle.model.state import GameState
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

RULE_SET = "hand-and-foot-4p"  #: the rule set a position is read under unless another is given
FOOT = "4C 4D 5C 5D 6C 6D 8C 8D TC TD JC"  #: an 11-card foot not yet taken up (70 points)
CLEAN = ("KC KC KD KD KH KH KS", "JC JC JD JD JH JH JS")  #: two natural books
DIRTY = ("QC QC QD QD QH 2C 2D", "TC TC TD TD TH JK 2H")  #: two mixed books
OPEN = ("9C 9D 9H",)  #: an open book: the side's initial meld made
ASKED_YES = {"start": "TURN_START_DREW", "partnerAnswer": "PARTNER_ANSWER_YES"}


def foot_state(
    hand: str,
    melds: tuple[str, ...] = OPEN,
    *,
    rules: CompiledRules | None = None,
    foot: str = "",
    partner_foot: str = "",
    partner_hand: str = "6D 8C",
    turn: dict[str, str] | None = None,
    phase: str = "PHASE_PLAY",
    hand_number: int = 0,
    pile: str = "5S",
) -> GameState:
    """Seat 0 to move (seat 2 its partner) holding `hand`, with `foot` not yet taken up; side 0 has `melds`, all there
    when the turn began (a turn begun by drawing unless `turn` says otherwise; none in the draw phase); every card not
    placed is in the stock (helpers.foot_position), read under `rules` (hand-and-foot-4p's unless given)."""
    doc = foot_position(
        hand,
        melds,
        foot=foot,
        partner_foot=partner_foot,
        partner_hand=partner_hand,
        turn=turn,
        phase=phase,
        hand_number=hand_number,
        pile=pile,
    )
    return state_from_json(doc, default_rule_book().get(RULE_SET).rules if rules is None else rules)


__all__ = ["ASKED_YES", "CLEAN", "DIRTY", "FOOT", "OPEN", "RULE_SET", "foot_state"]
