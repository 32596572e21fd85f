"""The rest of a turn: melding, discarding, going out, asking the partner, and finishing after a last red three."""

from __future__ import annotations

from dataclasses import replace

from oracle.api.v1 import ruleset_pb2
from oracle.model.actions import AnswerPartner, Discard, Meld
from oracle.model.events import Event
from oracle.model.state import HandEnd, PartnerAnswer, Phase, SeatState, TurnStart, TurnState
from oracle.rules.context import (
    Ctx,
    Outcome,
    canasta_events,
    check_in_hand,
    check_keep,
    end_hand,
    finish_melding,
    going_out_checks,
    is_concealed,
    remove_cards,
    with_seat,
    with_side,
)
from oracle.rules.facts import canasta_count
from oracle.rules.meld_play import lay_groups
from oracle.rules.melds import meld_shape
from oracle.rules.violations import Violation

_PLAY_WHY = {
    Phase.DRAW: "the player must draw or take the pile first",
    Phase.AWAIT_ANSWER: "the partner must answer 'may I go out?' first",
    Phase.FINAL_MELDS: "the last stock card was a red three: the player may only meld, then finish",
}


def _phase_error(ctx: Ctx, what: str) -> Violation:
    return ctx.fail("WRONG_PHASE", f"cannot {what}: {_PLAY_WHY.get(ctx.state.phase, 'not now')}")


def check_meld(ctx: Ctx, action: Meld) -> Outcome:
    """Judge laying melds and, when legal, lay them (going out if the hand empties)."""
    state, rules, spec = ctx.state, ctx.rules, ctx.rules.spec
    out: list[Violation] = []
    if state.phase not in (Phase.PLAY, Phase.FINAL_MELDS):
        out.append(_phase_error(ctx, "meld"))
    cards = [c for g in action.groups for c in g.cards]
    if not check_in_hand(ctx, cards, out):
        return Outcome(out)
    hand_after = remove_cards(ctx.hand, cards)
    groups = [(g, meld_shape(g.cards)) for g in action.groups]
    # Going out: no card left, or one left to discard - except after a last-card red three, when no discard follows.
    going_out = not hand_after or (len(hand_after) == 1 and state.phase != Phase.FINAL_MELDS)
    laid = lay_groups(rules, ctx.side, groups, going_out=going_out, melds_before_turn=state.turn.melds_before_turn)
    out.extend(laid.violations)
    canastas = canasta_count(rules, laid.melds)
    turn = replace(
        state.turn,
        melded=True,
        added_to_existing=state.turn.added_to_existing or laid.added_to_existing,
        made_canasta=state.turn.made_canasta or bool(laid.canastas_made),
    )
    if not ctx.side.melds:
        minimum, _ = rules.minimum_initial_meld(ctx.side.running_total)
        waived = (
            spec.initial_meld.waived_for_concealed_going_out
            and state.turn.start == TurnStart.DREW
            and going_out
            and canastas >= spec.going_out.canastas_required
            and is_concealed(ctx, turn)
        )
        if laid.points < minimum and not waived:
            out.append(
                ctx.fail(
                    "INITIAL_MELD_BELOW_MINIMUM",
                    f"the side's first melds count {laid.points}; a"
                    f" running total of {ctx.side.running_total} needs {minimum}",
                )
            )
    check_keep(ctx, len(hand_after), canastas, out)
    if not hand_after:
        going_out_checks(ctx, canastas, out)
        if not spec.going_out.discard_optional:
            out.append(ctx.fail("GO_OUT_NEEDS_DISCARD", "the last card must be discarded, not melded"))
    elif len(hand_after) == 1 and state.turn.partner_answer == PartnerAnswer.NO:
        out.append(
            ctx.fail(
                "GO_OUT_PARTNER_SAID_NO",
                "one card would be left, and discarding it would go out, which the partner's 'no' forbids this turn",
            )
        )
    if out:
        return Outcome(out)
    events: list[Event] = list(canasta_events(ctx.side_index, laid.melds, laid.canastas_made))
    seat_state = SeatState(hand_after, state.seats[ctx.seat].melded_before)
    next_state = replace(
        state,
        seats=with_seat(state, ctx.seat, seat_state),
        sides=with_side(state, ctx.side_index, replace(ctx.side, melds=tuple(laid.melds))),
        turn=turn,
    )
    return finish_melding(ctx, next_state, turn, events)


def check_discard(ctx: Ctx, action: Discard) -> Outcome:
    """Judge a discard and, when legal, pass the turn (or go out with the last card)."""
    state, rules = ctx.state, ctx.rules
    out: list[Violation] = []
    if state.phase == Phase.FINAL_MELDS:
        out.append(
            ctx.fail(
                "LAST_RED_THREE_NO_DISCARD",
                "the last stock card was a red three: the hand ends without a discard (use finish)",
            )
        )
    elif state.phase != Phase.PLAY:
        out.append(_phase_error(ctx, "discard"))
    if not check_in_hand(ctx, [action.card], out):
        return Outcome(out)
    hand_after = remove_cards(ctx.hand, [action.card])
    canastas = canasta_count(rules, ctx.side.melds)
    if not hand_after:
        going_out_checks(ctx, canastas, out)
    elif state.turn.partner_answer == PartnerAnswer.YES:
        out.append(
            ctx.fail(
                "MUST_GO_OUT_PARTNER_SAID_YES",
                f"the partner answered yes, so the player must go out"
                f" this turn; {len(hand_after)} card(s) would be left",
            )
        )
    if out:
        return Outcome(out)
    melded = state.turn.melded or state.turn.start == TurnStart.TOOK_PILE
    seat_state = SeatState(hand_after, state.seats[ctx.seat].melded_before or melded)
    moved = replace(
        state, seats=with_seat(state, ctx.seat, seat_state), discard_pile=(*state.discard_pile, action.card)
    )
    if not hand_after:
        over, ended = end_hand(
            rules, moved, HandEnd.WENT_OUT, went_out_seat=ctx.seat, concealed=is_concealed(ctx, state.turn)
        )
        return Outcome(events=[ended], next_state=over)
    next_state = replace(moved, seat_to_move=(ctx.seat + 1) % rules.seats, phase=Phase.DRAW, turn=TurnState())
    return Outcome(next_state=next_state)


def check_ask(ctx: Ctx) -> Outcome:
    """Judge asking the partner "may I go out?"."""
    state, spec = ctx.state, ctx.rules.spec
    out: list[Violation] = []
    if spec.going_out.ask_partner == ruleset_pb2.ASK_PARTNER_NONE:
        out.append(ctx.fail("ASK_NOT_ALLOWED", f"rule set '{ctx.rules.id}' has no partner to ask"))
    elif state.phase != Phase.PLAY:
        out.append(_phase_error(ctx, "ask the partner"))
    elif state.turn.partner_answer != PartnerAnswer.NONE:
        out.append(ctx.fail("ASK_ALREADY_ANSWERED", "the partner was already asked this turn"))
    elif state.turn.melded:
        out.append(ctx.fail("ASK_AFTER_MELDING", "the partner is asked right after drawing, before melding"))
    if out:
        return Outcome(out)
    return Outcome(
        next_state=replace(
            state, phase=Phase.AWAIT_ANSWER, turn=replace(state.turn, partner_answer=PartnerAnswer.PENDING)
        )
    )


def check_answer(ctx: Ctx, action: AnswerPartner) -> Outcome:
    """Judge the partner's answer."""
    state = ctx.state
    if state.phase != Phase.AWAIT_ANSWER:
        return Outcome([ctx.fail("WRONG_PHASE", "nobody asked 'may I go out?'")])
    answer = PartnerAnswer.YES if action.yes else PartnerAnswer.NO
    return Outcome(next_state=replace(state, phase=Phase.PLAY, turn=replace(state.turn, partner_answer=answer)))


def check_finish(ctx: Ctx) -> Outcome:
    """Judge finishing the hand after melding on a last-card red three."""
    if ctx.state.phase != Phase.FINAL_MELDS:
        return Outcome([ctx.fail("WRONG_PHASE", "finish ends the hand only after a last-card red three")])
    over, ended = end_hand(ctx.rules, ctx.state, HandEnd.LAST_RED_THREE)
    return Outcome(events=[ended], next_state=over)
