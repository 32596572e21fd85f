"""Checks that the turn fields of a state in play agree with each other and with the table: what a turn that
began this way could have left behind, and the answers to the partner it records (the part of the state check
about this turn's history)."""

from __future__ import annotations

from collections.abc import Callable

from oracle.model.state import GameState, PartnerAnswer, Phase, TurnStart
from oracle.rules.facts import playing_side, seats_playing_for
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import AskPartner

Add = Callable[[str, str], None]  # (path under the state, what is wrong)

_IN_TURN = frozenset({Phase.PLAY, Phase.AWAIT_ANSWER, Phase.FINAL_MELDS})


def report_turn_history(rules: CompiledRules, state: GameState, add: Add) -> None:
    """Every turn field that contradicts another or the table (a seat_to_move already known to be a seat).

    The referee reads these fields to judge going out concealed and asking the partner: a state whose
    melds_before_turn says the side's older melds are new would score a concealed going out that is not one.
    """
    limit = rules.going_out.ask_partner_max_per_hand
    for i, side in enumerate(state.sides):
        if not side.asks:
            continue
        if rules.going_out.ask_partner == AskPartner.NONE:
            add(f"sides[{i}].asks", f"is {side.asks}, but rule set '{rules.id}' has no partner to ask")
        elif limit and side.asks > limit:
            add(
                f"sides[{i}].asks",
                f"is {side.asks}; a side asks at most {limit} time(s) a hand (going_out.ask_partner_max_per_hand)",
            )
    if rules.going_out.ask_partner == AskPartner.NONE:
        for i, side in enumerate(state.sides):
            if side.unable_after_yes:
                add(f"sides[{i}].unable_after_yes", f"rule set '{rules.id}' has no partner to ask")
    if state.phase not in _IN_TURN:
        return
    turn = state.turn
    side_index = playing_side(rules, state, state.seat_to_move)
    melds = len(state.sides[side_index].melds)
    before = turn.melds_before_turn
    laid = turn.melded or turn.start == TurnStart.TOOK_PILE
    if not 0 <= before <= melds:
        return  # reported by the state check's bounds
    if not laid and before != melds:
        add(
            "turn.melds_before_turn",
            f"is {before}, but nothing was laid this turn (turn.melded is false and the turn did not begin by"
            f" taking the pile), so all {melds} of the side's melds were there when it began",
        )
    if turn.start == TurnStart.TOOK_PILE and not turn.melded and before and melds - before > 1:
        add(
            "turn.melds_before_turn",
            f"is {before}, but the side has {melds} melds: after its initial meld a side taking the pile lays at"
            " most the top card's new meld unless turn.melded (other groups laid with the pile count as melding)",
        )
    seats_before = (
        [] if before else [s for s in seats_playing_for(rules, state, side_index) if state.seats[s].melded_before]
    )
    if seats_before:
        add(
            "turn.melds_before_turn",
            f"is 0, but seat {seats_before[0]} of the side melded in an earlier turn, so the side had melds when"
            " this turn began",
        )
    if turn.added_to_existing and not before:
        add("turn.added_to_existing", "no meld was on the table when the turn began (turn.melds_before_turn is 0)")
    if (turn.added_to_existing or turn.made_canasta) and not laid:
        what = "turn.added_to_existing" if turn.added_to_existing else "turn.made_canasta"
        add(what, "nothing was laid this turn (turn.melded is false and the turn did not begin by taking the pile)")
    if turn.partner_answer == PartnerAnswer.PENDING and turn.melded:
        add("turn.partner_answer", "is PENDING after melding: the partner is asked before anything is melded")
    one_card = len(state.seats[state.seat_to_move].hand) == 1
    if (
        turn.partner_answer == PartnerAnswer.PENDING
        and one_card
        and rules.going_out.ask_partner != AskPartner.REQUIRED_BINDING
    ):
        add(
            "turn.partner_answer", "is PENDING, but the mover holds one card, and a player holding one card may not ask"
        )
    if state.phase == Phase.FINAL_MELDS:
        if turn.start != TurnStart.DREW:
            add("turn.start", f"is {turn.start.name}, but FINAL_MELDS follows drawing a last-card red three")
        if turn.partner_answer != PartnerAnswer.NONE:
            add("turn.partner_answer", "the partner is not asked after a last-card red three (phase FINAL_MELDS)")
