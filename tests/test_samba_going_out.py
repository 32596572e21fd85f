"""A Samba player told "yes" must go out when his cards can: through a run he makes or extends, or onto a canasta
named by number (the going-out search behind MUST_GO_OUT_PARTNER_SAID_YES)."""

from __future__ import annotations

import pytest
from helpers import codes, judge
from samba_states import OTHERS

from oracle.api.v1 import game_pb2, notation_pb2
from oracle.model.state import GameState
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation

CANASTAS = ("QH QD QS QC QH QD QS", "JH JD JS JC JH JD JS", "9H TH JH")


def _told_yes(rule_set: str, hand: str, melds: tuple[str, ...] = CANASTAS) -> GameState:
    msg = notation_pb2.GameStateNotation(
        stock="4C 5C 6C 8C", discard_pile="9D", phase=game_pb2.PHASE_PLAY, seat_to_move=0, fill_stock=True
    )
    msg.seats.add(hand=hand, melded_before=True)
    for other in OTHERS:
        msg.seats.add(hand=other, melded_before=True)
    msg.sides.add(melds=melds)
    msg.sides.add(melds=("KH KD KS",))
    msg.turn.start = game_pb2.TURN_START_DREW
    msg.turn.melds_before_turn = len(melds)
    msg.turn.partner_answer = game_pb2.PARTNER_ANSWER_YES
    return state_from_notation(msg, default_rule_book().get(rule_set).rules)


@pytest.mark.parametrize(
    ("hand", "going_out"),
    [
        ("5H 6H 7H 9C", ("meld 5H 6H 7H", "discard 9C")),  # a new run
        ("8H QC 9C", ("meld 8H to 3, QC to 1", "discard 9C")),  # a run extended, a canasta named
    ],
)
def test_a_player_told_yes_who_can_go_out_through_runs_must(hand: str, going_out: tuple[str, str]) -> None:
    state = _told_yes("samba-4p", hand)
    assert codes(judge("samba-4p", state, "discard 9C")) == ["MUST_GO_OUT_PARTNER_SAID_YES"]
    melded = judge("samba-4p", state, going_out[0])
    assert melded.legal and melded.next_state is not None
    out = judge("samba-4p", melded.next_state, going_out[1])
    assert out.legal and out.next_state is not None and out.next_state.hand_end.name == "WENT_OUT"


def test_a_wild_card_kept_off_a_canasta_under_the_official_laws_is_no_way_out() -> None:
    state = _told_yes("samba-ocl-4p", "2D 9C")  # the two could only go onto a canasta, which the variant forbids
    assert codes(judge("samba-ocl-4p", state, "discard 9C")) == []
    assert codes(judge("samba-4p", _told_yes("samba-4p", "2D 9C"), "discard 9C")) == ["MUST_GO_OUT_PARTNER_SAID_YES"]
