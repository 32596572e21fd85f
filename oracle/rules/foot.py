"""The foot (foot.*): when a player takes it up, and what Hand and Foot adds to going out (the book quotas by kind,
the required question, both partners in their feet)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from oracle.model.events import Event, RedThreeLaid
from oracle.model.state import GameState, PartnerAnswer, SeatState
from oracle.rules.context import Ctx, draw_from_stock, with_seat, with_side
from oracle.rules.facts import side_of
from oracle.rules.melds import MalformedMeld, is_canasta, meld_shape
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import AskPartner


def foot_waiting(ctx: Ctx) -> bool:
    """The player to move still has a foot to take up: emptying the hand takes it up and is not going out."""
    return bool(ctx.state.seats[ctx.seat].foot)


def take_up_foot(rules: CompiledRules, state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """The state with the seat's foot taken up as its hand (its hand is empty), and the events: a red three in the
    foot, where red threes are laid (threes.red_three_held false), is laid at once and replaced from the stock as a
    dealt one is."""
    own = state.seats[seat]
    cards = (*own.hand, *own.foot)
    bonus = [c for c in cards if c in rules.bonus_threes]
    if not bonus:
        return state.evolve(seats=with_seat(state, seat, SeatState(cards, own.melded_before))), []
    kept = tuple(c for c in cards if c not in rules.bonus_threes)
    reds: list[int] = list(bonus)
    events: list[Event] = [RedThreeLaid(seat, c, rules.threes.red_three_replaced) for c in bonus]
    stock = state.stock
    if rules.threes.red_three_replaced:
        drawn = draw_from_stock(rules, seat, kept, stock, len(bonus))
        kept, stock = drawn.hand, drawn.stock
        reds += drawn.red_threes
        events += drawn.events
    index = side_of(rules, seat)  # red threes stay on the seat's own entry (players.side_formation)
    side = state.sides[index]
    return (
        state.evolve(
            seats=with_seat(state, seat, SeatState(kept, own.melded_before)),
            sides=with_side(state, index, side.evolve(red_threes=(*side.red_threes, *reds))),
            stock=stock,
        ),
        events,
    )


def canastas_by_kind(ctx: Ctx, melds: Iterable[Sequence[int]]) -> tuple[int, int]:
    """(natural, mixed) canastas among the melds (malformed ones skipped, as count_canastas does)."""
    natural = mixed = 0
    for meld in melds:
        try:
            shape = meld_shape(meld)
        except MalformedMeld:
            continue
        if is_canasta(shape, ctx.rules):
            if shape.wilds:
                mixed += 1
            else:
                natural += 1
    return natural, mixed


def has_going_out_extras(rules: CompiledRules) -> bool:
    """The rule set adds to going out what foot_going_out_problems judges (kind quotas, a required question, the
    partner's foot), so that the classic games never pay for the check."""
    g = rules.going_out
    return bool(
        g.natural_canastas_required
        or g.mixed_canastas_required
        or g.partner_foot_required
        or g.ask_partner == AskPartner.REQUIRED_BINDING
    )


def foot_going_out_problems(ctx: Ctx, melds: Iterable[Sequence[int]]) -> list[Violation]:
    """What Hand and Foot adds to going out with these melds on the side's table: the quotas of natural and mixed
    canastas (going_out.natural_canastas_required, mixed_canastas_required), the partner's yes asked for this turn
    (ASK_PARTNER_REQUIRED_BINDING), both partners' feet taken up (going_out.partner_foot_required)."""
    rules, g = ctx.rules, ctx.rules.going_out
    out: list[Violation] = []
    if g.natural_canastas_required or g.mixed_canastas_required:
        natural, mixed = canastas_by_kind(ctx, melds)
        if natural < g.natural_canastas_required or mixed < g.mixed_canastas_required:
            out.append(
                ctx.fail(
                    Code.GO_OUT_BOOKS_MISSING,
                    natural_required=g.natural_canastas_required,
                    mixed_required=g.mixed_canastas_required,
                    natural=natural,
                    mixed=mixed,
                )
            )
    answer = ctx.state.turn.partner_answer
    if g.ask_partner == AskPartner.REQUIRED_BINDING and answer != PartnerAnswer.YES:
        asked = "the partner said no" if answer == PartnerAnswer.NO else "the player did not ask"
        out.append(ctx.fail(Code.GO_OUT_WITHOUT_ASKING, asked=asked))
    if g.partner_foot_required:
        for seat in rules.seats_of_side(ctx.side_index):
            waiting = ctx.state.seats[seat].foot
            if seat != ctx.seat and waiting:
                out.append(ctx.fail(Code.GO_OUT_PARTNER_FOOT_NOT_TAKEN, partner=seat, count=len(waiting)))
    return out


def must_walk(ctx: Ctx) -> list[Violation]:
    """FOOT_NOT_YET: a meld or take that empties the hand while a foot waits, where the foot is taken up only with
    the discard of the hand's last card (foot.continue_after_melding_out false)."""
    if not foot_waiting(ctx) or ctx.rules.foot.continue_after_melding_out:
        return []
    return [ctx.fail(Code.FOOT_NOT_YET, left=0)]


def report_feet(rules: CompiledRules, state: GameState, add: Callable[[str, str], None]) -> None:
    """The feet and the hand number of a state: a foot only under foot.size and then of exactly that many cards (it
    is dealt whole and taken up whole), never waiting behind an empty hand (emptying the hand takes it up), and the
    hand number from 1."""
    for i, seat in enumerate(state.seats):
        if not seat.foot:
            continue
        if not rules.foot.size:
            add(f"seats[{i}].foot", f"holds {len(seat.foot)} cards, but rule set '{rules.id}' deals no foot")
        elif len(seat.foot) != rules.foot.size:
            add(
                f"seats[{i}].foot",
                f"holds {len(seat.foot)} cards; a foot not yet taken up holds the {rules.foot.size} dealt (foot.size)",
            )
        elif not seat.hand:
            add(f"seats[{i}].foot", "is not taken up, but the hand is empty: an empty hand takes up the foot")
    if state.hand_number < 1:
        add("hand_number", f"is {state.hand_number}; hands are numbered from 1")
