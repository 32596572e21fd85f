"""The rest of a turn: melding, discarding, asking the partner, and finishing after a last red three — the checks,
and the state changes of a legal action."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.actions import AnswerPartner, Discard, Meld
from oracle.model.events import Event
from oracle.model.fast_init import fast_init
from oracle.model.state import EMPTY_TURN, Cards, HandEnd, PartnerAnswer, Phase, SeatState, TurnStart, TurnState
from oracle.rules.bonus_cards import draw_bonus_cards, meld_owes_bonus_cards
from oracle.rules.context import (
    Applied,
    Ctx,
    canasta_events,
    check_in_hand,
    end_hand,
    make_ctx,
    remove_cards,
    with_seat,
    with_side,
    wrong_phase,
)
from oracle.rules.family_checks import (
    check_discard_restrictions,
    check_family_laid,
    check_initial_makeup,
    check_unfinished_going_out,
    unfinished_blockers,
)
from oracle.rules.foot import foot_waiting, take_up_foot
from oracle.rules.going_out import (
    after_melding,
    check_going_out,
    check_keep_cards,
    check_melding_out,
    is_concealed,
    may_meld_out,
)
from oracle.rules.going_out_search import going_out_melds
from oracle.rules.meld_play import Laid, check_laid, lay_groups
from oracle.rules.melds import count_canastas, meld_shape
from oracle.rules.minimum import check_initial_meld, is_minimum_waived, needs_initial_meld
from oracle.rules.violations import Code, Violation
from oracle.ruleset.sections import AfterLastCard, AskPartner

# --- melding -------------------------------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class _Melding:
    """What a meld action would do (computed alike by the check and by applying it)."""

    hand_after: Cards
    going_out: bool  #: no card left, or one left to discard (none after a last-card red three)
    laid: Laid
    turn: TurnState  #: the turn after it


def _meld(ctx: Ctx, action: Meld) -> _Melding:
    worked = ctx.worked
    if worked is not None and worked[0] is action and isinstance(worked[1], _Melding):
        return worked[1]
    melding = _work_out_meld(ctx, action)
    ctx.worked = (action, melding)
    return melding


def _work_out_meld(ctx: Ctx, action: Meld) -> _Melding:
    state = ctx.state
    hand_after = remove_cards(ctx.hand, [c for g in action.groups for c in g.cards])
    # Going out: no card left, or one left to discard - except after a last-card red three, when no discard follows.
    going_out = not hand_after or (len(hand_after) == 1 and state.phase != Phase.FINAL_MELDS)
    if going_out and hand_after and _bonus_follows(ctx, melding=True):
        going_out = False  # the last card's discard is followed by the bonus cards: not going out
    if going_out and foot_waiting(ctx):
        going_out = False  # an empty hand takes up the foot (foot.*): not going out
    groups = [(g, meld_shape(g.cards)) for g in action.groups]
    laid = lay_groups(ctx.rules, ctx.side, groups, melds_before_turn=state.turn.melds_before_turn)
    turn = state.turn.evolve(
        melded=True,
        added_to_existing=state.turn.added_to_existing or laid.added_to_existing,
        made_canasta=state.turn.made_canasta or bool(laid.canastas_made),
    )
    return _Melding(hand_after, going_out, laid, turn)


def check_meld(ctx: Ctx, action: Meld) -> list[Violation]:
    """Every rule laying these melds breaks: phase, the hand cards, the meld rules, the minimum, going out."""
    state, rules = ctx.state, ctx.rules
    out: list[Violation] = []
    if state.phase not in (Phase.PLAY, Phase.FINAL_MELDS):
        out.append(wrong_phase(ctx, "meld"))
    missing = check_in_hand(ctx, [c for g in action.groups for c in g.cards])
    if missing:
        return out + missing
    melding = _meld(ctx, action)
    hand_after = melding.hand_after
    out += check_laid(rules, melding.laid, going_out=melding.going_out, last_cards=not hand_after)
    canastas = count_canastas(rules, melding.laid.melds)
    final_discard = melding.going_out and bool(hand_after)
    waived = is_minimum_waived(
        ctx, melding.turn, going_out=melding.going_out, canastas=canastas, final_discard=final_discard
    )
    out += check_initial_meld(ctx, melding.laid.points, took_pile=False, waived=waived)
    if rules.family:
        out += check_family_laid(ctx, melding.laid, opening=state.turn.melds_before_turn == 0)
        if needs_initial_meld(ctx.side):
            out += check_initial_makeup(ctx, melding.laid)
        if melding.going_out:
            out += check_unfinished_going_out(ctx, melding.laid.melds)
    blockers = unfinished_blockers(rules, melding.laid.melds) if rules.family else []
    out += check_keep_cards(
        ctx,
        len(hand_after),
        canastas,
        bonus_owed=meld_owes_bonus_cards(ctx),
        blocker=blockers[0] if blockers else None,
        melds=melding.laid.melds,
    )
    if not hand_after:
        out += check_melding_out(ctx, canastas, took_pile=False, melds=melding.laid.melds)
    elif len(hand_after) == 1 and state.turn.partner_answer == PartnerAnswer.NO and not foot_waiting(ctx):
        out.append(ctx.fail(Code.GO_OUT_PARTNER_SAID_NO, variant="one_left"))
    return out


def apply_meld(ctx: Ctx, action: Meld) -> Applied:
    """Lay the melds (a legal meld action), going out if the hand empties."""
    state = ctx.state
    melding = _meld(ctx, action)
    laid = melding.laid
    events: list[Event] = list(canasta_events(ctx.side_index, laid.melds, laid.canastas_made))
    seat_state = SeatState(melding.hand_after, state.seats[ctx.seat].melded_before, state.seats[ctx.seat].foot)
    next_state = state.evolve(
        seats=with_seat(state, ctx.seat, seat_state),
        sides=with_side(state, ctx.side_index, ctx.side.evolve(melds=tuple(laid.melds))),
        turn=melding.turn,
    )
    return after_melding(ctx, next_state, melding.turn, events)


# --- discarding ----------------------------------------------------------------------------------------------------


def check_discard(ctx: Ctx, action: Discard) -> list[Violation]:
    """Every rule this discard breaks: phase, the card held, going out with the last card, the partner's yes."""
    state, rules = ctx.state, ctx.rules
    out: list[Violation] = []
    if state.phase == Phase.FINAL_MELDS:
        out.append(ctx.fail(Code.LAST_RED_THREE_NO_DISCARD))
    elif state.phase != Phase.PLAY:
        out.append(wrong_phase(ctx, "discard"))
    missing = check_in_hand(ctx, [action.card])
    if missing:
        return out + missing
    hand_after = remove_cards(ctx.hand, [action.card])
    # an empty hand that bonus cards refill, or a foot waiting to be taken up (foot.*), is not out
    going_out = not hand_after and not _bonus_follows(ctx) and not foot_waiting(ctx)
    if rules.family:
        out += check_discard_restrictions(ctx, action.card)
        if going_out:
            out += check_unfinished_going_out(ctx, ctx.side.melds)
    if going_out:
        out += check_going_out(ctx, count_canastas(rules, ctx.side.melds))
    elif state.turn.partner_answer == PartnerAnswer.YES and can_go_out(ctx):
        # told yes, the player must go out if they can; one who cannot discards, and the side pays
        # going_out.cannot_go_out_after_yes_penalty when the hand is scored
        out.append(ctx.fail(Code.MUST_GO_OUT_PARTNER_SAID_YES, left=len(hand_after)))
    return out


def _bonus_follows(ctx: Ctx, *, melding: bool = False) -> bool:
    """The discard ending this turn is followed by bonus cards (bonus_cards.*): the side made its initial meld from
    the hand this turn (`melding`: makes it with the meld being judged), so a player who discards his last card then
    is not out; he takes the bonus cards."""
    b = ctx.rules.bonus_cards
    if not (b.first_side or b.later_side) or not (melding or ctx.side.melds):
        return False
    return meld_owes_bonus_cards(ctx)


def can_go_out(ctx: Ctx) -> bool:
    """The player to move (in phase PLAY) can still go out this turn: one legal meld action of all the hand but at
    most one card, then (if a card is left) its legal discard; a one-card hand, by discarding it."""
    rules, hand = ctx.rules, ctx.hand
    if foot_waiting(ctx):  # emptying the hand takes up the foot
        return False
    if len(hand) == 1:
        return not check_going_out(ctx, count_canastas(rules, ctx.side.melds))
    for action in going_out_melds(rules, ctx.side, hand, discard_optional=may_meld_out(ctx)):
        if check_meld(ctx, action):
            continue
        after = apply_meld(ctx, action).next_state
        if after.phase == Phase.HAND_OVER:
            return True
        left = after.seats[ctx.seat].hand
        if len(left) == 1 and not check_discard(make_ctx(rules, after), Discard(left[0])):
            return True
    return False


def apply_discard(ctx: Ctx, action: Discard) -> Applied:
    """Discard (a legal discard): pass the turn, or go out with the last card."""
    state, rules, turn = ctx.state, ctx.rules, ctx.state.turn
    hand_after = remove_cards(ctx.hand, (action.card,))
    melded = turn.melded or turn.start == TurnStart.TOOK_PILE
    own = state.seats[ctx.seat]
    seats = with_seat(state, ctx.seat, SeatState(hand_after, own.melded_before or melded, own.foot))
    pile = (*state.discard_pile, action.card)
    taken: list[Event] = []
    if not hand_after and own.foot:  # the last hand card discarded: the foot is taken up, played from next turn
        walked, taken = take_up_foot(rules, state.evolve(seats=seats), ctx.seat)
        seats, state = walked.seats, state.evolve(sides=walked.sides, stock=walked.stock)
    if not hand_after and not own.foot and not _bonus_follows(ctx):
        over, ended = end_hand(
            rules,
            state.evolve(seats=seats, discard_pile=pile),
            HandEnd.WENT_OUT,
            went_out_seat=ctx.seat,
            concealed=is_concealed(ctx, turn, final_discard=True),
        )
        return Applied(over, ended)
    sides = state.sides
    if turn.partner_answer == PartnerAnswer.YES:  # told yes and could not go out (check_discard)
        sides = with_side(state, ctx.side_index, ctx.side.evolve(unable_after_yes=ctx.side.unable_after_yes + 1))
    if not state.stock and rules.stock_exhaustion.after_last_card == AfterLastCard.ENDS_AFTER_DISCARD:
        over, ended = end_hand(
            rules, state.evolve(seats=seats, sides=sides, discard_pile=pile), HandEnd.STOCK_EXHAUSTED
        )
        return Applied(over, (*taken, *ended))
    passed = state.evolve(
        seats=seats,
        sides=sides,
        discard_pile=pile,
        seat_to_move=(ctx.seat + 1) % rules.seats,
        phase=Phase.DRAW,
        turn=EMPTY_TURN,
    )
    if rules.bonus_cards.first_side or rules.bonus_cards.later_side:  # bonus cards for the initial meld
        passed, drawn = draw_bonus_cards(rules, passed, ctx.seat, turn)
        return Applied(passed, (*taken, *drawn))
    return Applied(passed, tuple(taken))


# --- the partner's question, and finishing -------------------------------------------------------------------------


def check_ask(ctx: Ctx) -> list[Violation]:
    """Asking the partner "may I go out?" is allowed now."""
    state = ctx.state
    if ctx.rules.going_out.ask_partner == AskPartner.NONE:
        return [ctx.fail(Code.ASK_NOT_ALLOWED, rule_set=ctx.rules.id)]
    limit = ctx.rules.going_out.ask_partner_max_per_hand
    if limit and ctx.side.asks >= limit:
        return [ctx.fail(Code.ASK_LIMIT_REACHED, asks=ctx.side.asks, limit=limit)]
    if state.phase != Phase.PLAY:
        return [wrong_phase(ctx, "ask the partner")]
    if state.turn.partner_answer != PartnerAnswer.NONE:
        return [ctx.fail(Code.ASK_ALREADY_ANSWERED)]
    if state.turn.melded:
        return [ctx.fail(Code.ASK_AFTER_MELDING, variant="pile" if state.turn.start == TurnStart.TOOK_PILE else "")]
    if len(ctx.hand) == 1 and ctx.rules.going_out.ask_partner != AskPartner.REQUIRED_BINDING:
        # the project's rule: no text covers it (README, "Whole games"); where asking is required, one card may ask
        return [ctx.fail(Code.ASK_NOT_ALLOWED, variant="one_card")]
    return []


def apply_ask(ctx: Ctx) -> Applied:
    """Ask the partner: the partner answers next."""
    state = ctx.state
    turn = state.turn.evolve(partner_answer=PartnerAnswer.PENDING)
    sides = with_side(state, ctx.side_index, ctx.side.evolve(asks=ctx.side.asks + 1))
    return Applied(state.evolve(phase=Phase.AWAIT_ANSWER, turn=turn, sides=sides))


def check_answer(ctx: Ctx) -> list[Violation]:
    """Someone asked "may I go out?", so an answer is due."""
    if ctx.state.phase != Phase.AWAIT_ANSWER:
        return [ctx.fail(Code.WRONG_PHASE, variant="no_question")]
    return []


def apply_answer(ctx: Ctx, action: AnswerPartner) -> Applied:
    """Record the partner's answer (it binds the asker this turn)."""
    state = ctx.state
    answer = PartnerAnswer.YES if action.yes else PartnerAnswer.NO
    return Applied(state.evolve(phase=Phase.PLAY, turn=state.turn.evolve(partner_answer=answer)))


def check_finish(ctx: Ctx) -> list[Violation]:
    """Finishing ends the hand only after melding on a last-card red three."""
    if ctx.state.phase != Phase.FINAL_MELDS:
        return [ctx.fail(Code.WRONG_PHASE, variant="no_final_melds")]
    return []


def apply_finish(ctx: Ctx) -> Applied:
    """End the hand after a last-card red three."""
    over, ended = end_hand(ctx.rules, ctx.state, HandEnd.LAST_RED_THREE)
    return Applied(over, ended)
