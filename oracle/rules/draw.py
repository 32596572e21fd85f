"""Starting a turn: drawing from the stock, and taking the discard pile (with its freezing rules)."""

from __future__ import annotations

from dataclasses import replace

from oracle.api.v1 import ruleset_pb2
from oracle.model.actions import MeldGroup, TakePile
from oracle.model.cards import describe_rank, format_cards, is_black_three, is_natural, is_red_three, is_wild, rank_of
from oracle.model.events import Event, PileTaken, RedThreeLaid
from oracle.model.state import HandEnd, Phase, SeatState, TurnStart, TurnState, meld_index_of_rank
from oracle.rules.candidates import take_pile_candidates
from oracle.rules.context import (
    Ctx,
    Outcome,
    canasta_events,
    check_in_hand,
    check_keep,
    draw_from_stock,
    end_hand,
    finish_melding,
    going_out_checks,
    remove_cards,
    with_seat,
    with_side,
)
from oracle.rules.facts import canasta_count, frozen_reasons_for_side
from oracle.rules.meld_play import lay_groups
from oracle.rules.melds import MalformedMeld, MeldShape, meld_shape
from oracle.rules.violations import Violation


def _wrong_phase(ctx: Ctx, what: str) -> Violation:
    phase = ctx.state.phase
    if phase == Phase.PLAY:
        why = (
            "the player already took the pile this turn"
            if ctx.state.turn.start == TurnStart.TOOK_PILE
            else "the player already drew this turn"
        )
    elif phase == Phase.AWAIT_ANSWER:
        why = "the partner must answer 'may I go out?' first"
    else:
        why = "the last stock card was a red three: the player may only meld, then finish"
    return ctx.fail("WRONG_PHASE", f"cannot {what}: {why}")


def do_draw(ctx: Ctx) -> Outcome:
    """Draw from the stock; with the stock empty, decline the pile (ending the hand) unless taking it is a duty."""
    state, rules = ctx.state, ctx.rules
    if state.phase != Phase.DRAW:
        return Outcome([_wrong_phase(ctx, "draw")])
    if not state.stock:
        reason = must_take_reason(ctx)
        if reason:
            return Outcome(
                [ctx.fail("MUST_TAKE_PILE", f"the stock is empty and {reason}, so the player must take the pile")]
            )
        over, ended = end_hand(rules, state, HandEnd.STOCK_EXHAUSTED)
        return Outcome(events=[ended], next_state=over)
    count = rules.spec.turn.draw_count
    if len(state.stock) < count and not rules.spec.turn.short_stock_draws_remaining:
        over, ended = end_hand(rules, state, HandEnd.STOCK_EXHAUSTED)
        return Outcome(events=[ended], next_state=over)
    drawn = draw_from_stock(rules, ctx.seat, ctx.hand, state.stock, count)
    side = ctx.side
    next_state = replace(
        state,
        seats=with_seat(state, ctx.seat, replace(state.seats[ctx.seat], hand=drawn.hand)),
        sides=with_side(state, ctx.side_index, replace(side, red_threes=side.red_threes + drawn.red_threes)),
        stock=drawn.stock,
        phase=Phase.PLAY,
        turn=TurnState(start=TurnStart.DREW, melds_before_turn=len(side.melds)),
    )
    events: list[Event] = list(drawn.events)
    if drawn.last_card_red_three:
        last = rules.spec.stock_exhaustion.last_red_three
        if last == ruleset_pb2.LAST_RED_THREE_ENDS_HAND:
            over, ended = end_hand(rules, next_state, HandEnd.LAST_RED_THREE)
            return Outcome(events=[*events, ended], next_state=over)
        next_state = replace(next_state, phase=Phase.FINAL_MELDS)
    return Outcome(events=events, next_state=next_state)


def must_take_reason(ctx: Ctx) -> str:
    """Why the player to move must take the pile (stock empty), or '' when it is a choice."""
    duty = ctx.rules.spec.stock_exhaustion.must_take_pile
    if duty == ruleset_pb2.MUST_TAKE_PILE_NEVER or not ctx.state.discard_pile:
        return ""
    if duty == ruleset_pb2.MUST_TAKE_PILE_WHEN_TOP_FITS_MELD:
        top = ctx.state.discard_pile[-1]
        if not is_natural(top) or frozen_reasons_for_side(ctx.rules, ctx.state, ctx.side_index):
            return ""
        if meld_index_of_rank(ctx.side, rank_of(top)) is None:
            return ""
        if check_take_pile(ctx, TakePile()).violations:
            return ""
        return f"the pile is not frozen and its top card {format_cards([top])} goes on the side's meld"
    for candidate in take_pile_candidates(ctx.rules, ctx.state):
        if not check_take_pile(ctx, candidate).violations:
            return f"the pile can be taken ({candidate_text(candidate)})"
    return ""


def candidate_text(action: TakePile) -> str:
    """A short description of a take-pile candidate."""
    return f"with {format_cards(action.with_cards)}" if action.with_cards else "onto the side's meld"


def _top_group_shape(ctx: Ctx, top: int, with_cards: tuple[int, ...], out: list[Violation]) -> MeldShape | None:
    """Shape of the top card with the hand cards used with it; PILE_TOP_NOT_MELDED when they do not match."""
    others = [c for c in with_cards if not is_wild(c) and (not is_natural(c) or rank_of(c) != rank_of(top))]
    if others:
        out.append(
            ctx.fail(
                "PILE_TOP_NOT_MELDED",
                f"{format_cards(others)} cannot be melded with the top card"
                f" {format_cards([top])}: a meld is of one rank",
            )
        )
        return None
    try:
        return meld_shape((top, *with_cards))
    except MalformedMeld:
        return None


def check_take_pile(ctx: Ctx, action: TakePile) -> Outcome:
    """Judge taking the pile and, when legal, take it."""
    state, rules, spec = ctx.state, ctx.rules, ctx.rules.spec
    out: list[Violation] = []
    if state.phase != Phase.DRAW:
        out.append(_wrong_phase(ctx, "take the pile"))
    pile = state.discard_pile
    if not pile:
        out.append(ctx.fail("PILE_EMPTY", "the discard pile is empty"))
        return Outcome(out)
    top = pile[-1]
    blocked = False
    if is_wild(top) and spec.discard_pile.wild_top_blocks:
        out.append(ctx.fail("PILE_TOP_WILD", f"the top card {format_cards([top])} is wild"))
        blocked = True
    elif is_black_three(top) and spec.discard_pile.black_three_top_blocks:
        out.append(ctx.fail("PILE_TOP_BLACK_THREE", f"the top card {format_cards([top])} is a black three"))
        blocked = True
    elif is_red_three(top):
        out.append(ctx.fail("PILE_TOP_RED_THREE", f"the top card {format_cards([top])} is a red three"))
        blocked = True
    elif not is_natural(top):
        out.append(ctx.fail("PILE_TOP_NOT_MELDED", f"the top card {format_cards([top])} cannot start a meld"))
        blocked = True
    if spec.discard_pile.one_card_hand_no_one_card_pile and len(ctx.hand) == 1 and len(pile) == 1:
        out.append(ctx.fail("PILE_ONE_CARD_WITH_ONE_CARD", "the player holds one card and the pile is one card"))
    used = list(action.with_cards) + [c for g in action.melds for c in g.cards]
    held = check_in_hand(ctx, used, out)
    if blocked:
        return Outcome(out)
    rank = rank_of(top)
    shape = _top_group_shape(ctx, top, action.with_cards, out)
    naturals = sum(1 for c in action.with_cards if is_natural(c) and rank_of(c) == rank)
    wilds = sum(1 for c in action.with_cards if is_wild(c))
    has_meld = meld_index_of_rank(ctx.side, rank) is not None
    frozen = frozen_reasons_for_side(rules, state, ctx.side_index)
    if frozen:
        if naturals < 2:
            field_path, _why = frozen[0]
            out.append(
                ctx.fail(
                    "PILE_FROZEN_NEEDS_NATURAL_PAIR",
                    f"the pile is frozen to this side ({'; '.join(r for _, r in frozen)}): taking it"
                    f" needs two natural {describe_rank(rank)} from the hand with the top card"
                    f" {format_cards([top])}"
                    + (f"; {format_cards(action.with_cards)} will not do" if action.with_cards else ""),
                    field_path,
                )
            )
    elif not action.with_cards:
        if not has_meld:
            out.append(
                ctx.fail(
                    "PILE_TOP_NOT_MELDED",
                    f"the side has no meld of {describe_rank(rank)} for the top"
                    f" card {format_cards([top])}, and no hand cards were named to meld it with",
                )
            )
        elif not spec.discard_pile.unfrozen_onto_existing_meld:
            out.append(
                ctx.fail(
                    "PILE_ONTO_MELD_NOT_ALLOWED",
                    f"the top card {format_cards([top])} may not simply go onto the side's meld to take the pile",
                )
            )
    elif naturals < 2:
        if naturals == 1 and wilds >= 1 and not spec.discard_pile.unfrozen_natural_and_wild:
            out.append(
                ctx.fail(
                    "PILE_NATURAL_AND_WILD_NOT_ALLOWED",
                    f"{format_cards(action.with_cards)} is a natural and a wild; this rule set needs a natural pair",
                )
            )
        elif naturals == 0 and not (has_meld and spec.discard_pile.unfrozen_onto_existing_meld):
            # wild cards alone may go with the top card only onto the side's meld of its rank
            out.append(
                ctx.fail(
                    "PILE_TOP_NOT_MELDED",
                    f"{format_cards(action.with_cards)} holds no natural"
                    f" {describe_rank(rank, plural=False)} to meld with the top card",
                )
            )
    if shape is None or not held:
        return Outcome(out)
    return _lay_and_take(ctx, action, top, shape, out)


def _lay_and_take(ctx: Ctx, action: TakePile, top: int, shape: MeldShape, out: list[Violation]) -> Outcome:
    """Meld the top card group and the other melds, check the meld and minimum rules, and take the pile."""
    state, rules, spec = ctx.state, ctx.rules, ctx.rules.spec
    limit = spec.discard_pile.take_limit
    taken = state.discard_pile[-limit:] if limit else state.discard_pile
    remaining_pile = state.discard_pile[: len(state.discard_pile) - len(taken)]
    rest = taken[:-1]
    reds = tuple(c for c in rest if is_red_three(c))
    to_hand = tuple(c for c in rest if not is_red_three(c))
    hand_after = remove_cards(ctx.hand, [*action.with_cards, *(c for g in action.melds for c in g.cards)]) + to_hand
    groups = [(MeldGroup((top, *action.with_cards)), shape)]
    groups += [(g, meld_shape(g.cards)) for g in action.melds]
    laid = lay_groups(rules, ctx.side, groups, going_out=len(hand_after) <= 1, melds_before_turn=len(ctx.side.melds))
    out.extend(laid.violations)
    if not ctx.side.melds:
        minimum, _ = rules.minimum_initial_meld(ctx.side.running_total)
        if laid.points < minimum:
            out.append(
                ctx.fail(
                    "INITIAL_MELD_BELOW_MINIMUM",
                    f"the side's first melds count {laid.points}"
                    f" (the top card counts, the rest of the pile does not); a running total of"
                    f" {ctx.side.running_total} needs {minimum}",
                )
            )
    canastas = canasta_count(rules, laid.melds)
    check_keep(ctx, len(hand_after), canastas, out)
    turn = TurnState(
        start=TurnStart.TOOK_PILE,
        added_to_existing=laid.added_to_existing,
        made_canasta=bool(laid.canastas_made),
        melds_before_turn=len(ctx.side.melds),
    )
    if not hand_after:  # melded everything, the top card included: going out
        going_out_checks(ctx, canastas, out)
        if not spec.going_out.discard_optional:
            out.append(ctx.fail("GO_OUT_NEEDS_DISCARD", "taking the pile would leave no card to discard"))
    if out:
        return Outcome(out)
    seat_state = state.seats[ctx.seat]
    replace_reds = spec.threes.red_three_from_pile_replaced
    events: list[Event] = [PileTaken(ctx.seat, top, to_hand)]
    stock = state.stock
    hand = hand_after
    extra_reds: tuple[int, ...] = ()
    for card in reds:
        events.append(RedThreeLaid(ctx.seat, card, replace_reds and bool(stock)))
        if replace_reds and stock:
            drawn = draw_from_stock(rules, ctx.seat, hand, stock, 1)
            hand, stock, extra_reds = drawn.hand, drawn.stock, extra_reds + drawn.red_threes
            events.extend(drawn.events)
    events.extend(canasta_events(ctx.side_index, laid.melds, laid.canastas_made))
    side = replace(ctx.side, melds=tuple(laid.melds), red_threes=ctx.side.red_threes + reds + extra_reds)
    next_state = replace(
        state,
        seats=with_seat(state, ctx.seat, SeatState(hand, seat_state.melded_before)),
        sides=with_side(state, ctx.side_index, side),
        stock=stock,
        discard_pile=remaining_pile,
        pile_upcards=min(state.pile_upcards, len(remaining_pile)),
        phase=Phase.PLAY,
        turn=turn,
    )
    return finish_melding(ctx, next_state, turn, events)
