"""Starting a turn: drawing from the stock, and taking the discard pile (with its freezing rules) — the checks,
and the state changes of a legal draw or take."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.actions import MeldGroup, TakePile
from oracle.model.cards import describe_rank, format_cards, is_black_three, is_natural, is_red_three, is_wild, rank_of
from oracle.model.events import Event, PileTaken, RedThreeLaid
from oracle.model.fast_init import fast_init
from oracle.model.state import (
    Cards,
    HandEnd,
    Phase,
    SeatState,
    TurnStart,
    TurnState,
    is_run,
    meld_index_of_rank,
)
from oracle.rules.bonus_cards import take_owes_bonus_cards
from oracle.rules.candidates import take_pile_candidates
from oracle.rules.context import (
    Applied,
    Ctx,
    canasta_events,
    check_in_hand,
    draw_from_stock,
    end_hand,
    remove_cards,
    with_seat,
    with_side,
    wrong_phase,
)
from oracle.rules.facts import frozen_reasons_for_side
from oracle.rules.family_checks import (
    check_family_laid,
    check_initial_makeup,
    check_unfinished_going_out,
    dead_ranks,
    initial_points,
    unfinished_blockers,
)
from oracle.rules.foot import foot_waiting
from oracle.rules.formation import form_sides, sides_form_now
from oracle.rules.going_out import after_melding, check_keep_cards, check_melding_out
from oracle.rules.meld_play import Laid, check_laid, default_target, lay_groups
from oracle.rules.melds import MalformedMeld, MeldShape, count_canastas, is_canasta, meld_shape
from oracle.rules.minimum import check_initial_meld, needs_initial_meld, side_minimum
from oracle.rules.violations import Code, Violation
from oracle.ruleset.sections import LastRedThree, MustTakePile

# --- drawing -------------------------------------------------------------------------------------------------------


def check_draw(ctx: Ctx) -> list[Violation]:
    """Drawing (with the stock empty: declining the pile) is possible now and no duty to take the pile forbids it."""
    if ctx.state.phase != Phase.DRAW:
        return [wrong_phase(ctx, "draw")]
    if not ctx.state.stock:
        return check_must_take(ctx)
    return []


def apply_draw(ctx: Ctx) -> Applied:
    """Draw from the stock; with the stock empty (or too short to draw), the hand ends."""
    state, rules = ctx.state, ctx.rules
    count = rules.turn.draw_count
    if not state.stock or (len(state.stock) < count and not rules.turn.short_stock_draws_remaining):
        over, ended = end_hand(rules, state, HandEnd.STOCK_EXHAUSTED)
        return Applied(over, ended)
    drawn = draw_from_stock(rules, ctx.seat, ctx.hand, state.stock, count)
    side = ctx.side
    sides = state.sides
    if drawn.red_threes:
        own = state.sides[ctx.own_index]
        sides = with_side(state, ctx.own_index, own.evolve(red_threes=own.red_threes + drawn.red_threes))
    next_state = state.evolve(
        seats=with_seat(
            state, ctx.seat, SeatState(drawn.hand, state.seats[ctx.seat].melded_before, state.seats[ctx.seat].foot)
        ),
        sides=sides,
        stock=drawn.stock,
        phase=Phase.PLAY,
        turn=TurnState(TurnStart.DREW, melds_before_turn=len(side.melds)),
    )
    if drawn.last_card_red_three:
        if rules.stock_exhaustion.last_red_three == LastRedThree.ENDS_HAND:
            over, ended = end_hand(rules, next_state, HandEnd.LAST_RED_THREE)
            return Applied(over, (*drawn.events, *ended))
        next_state = next_state.evolve(phase=Phase.FINAL_MELDS)
    return Applied(next_state, tuple(drawn.events))


def check_must_take(ctx: Ctx) -> list[Violation]:
    """MUST_TAKE_PILE: the stock is empty and the rule set makes taking the pile a duty here."""
    duty = ctx.rules.stock_exhaustion.must_take_pile
    if duty == MustTakePile.NEVER or not ctx.state.discard_pile:
        return []
    if duty == MustTakePile.WHEN_TOP_FITS_MELD:
        top = ctx.state.discard_pile[-1]
        if not is_natural(top) or frozen_reasons_for_side(ctx.rules, ctx.state, ctx.side_index):
            return []
        if meld_index_of_rank(ctx.side, rank_of(top)) is None:
            return []
        if check_take_pile(ctx, TakePile()):
            return []
        return [ctx.fail(Code.MUST_TAKE_PILE, variant="top_fits", top=format_cards([top]))]
    for candidate in take_pile_candidates(ctx.rules, ctx.state):
        if not check_take_pile(ctx, candidate):
            return [ctx.fail(Code.MUST_TAKE_PILE, how=candidate_text(candidate))]
    return []


def candidate_text(action: TakePile) -> str:
    """A short description of a take-pile candidate."""
    return f"with {format_cards(action.with_cards)}" if action.with_cards else "onto the side's meld"


# --- taking the pile -----------------------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class _Take:
    """What taking the pile would do (computed alike by the check and by applying it)."""

    top: int
    remaining_pile: Cards  #: the pile after (all of it taken unless discard_pile.take_limit)
    red_threes: Cards  #: red threes taken with the pile (laid at once)
    to_hand: Cards  #: the other cards taken, but the top card
    hand_after: Cards  #: the hand after melding and taking
    laid: Laid  #: the top card's group and the other melds laid


def _take(ctx: Ctx, action: TakePile, shape: MeldShape) -> _Take:
    """Meld the top card group (of `shape`) and the action's other melds, and take the rest of the pile (what the
    check of the same action worked out, when it was judged on this context)."""
    worked = ctx.worked
    if worked is not None and worked[0] is action and isinstance(worked[1], _Take):
        return worked[1]
    take = _work_out_take(ctx, action, shape)
    ctx.worked = (action, take)
    return take


def _work_out_take(ctx: Ctx, action: TakePile, shape: MeldShape) -> _Take:
    pile, limit = ctx.state.discard_pile, ctx.rules.discard_pile.take_limit
    top = pile[-1]
    taken = pile[-limit:] if limit else pile
    rest = taken[:-1]
    bonus = ctx.rules.bonus_threes
    to_hand = tuple(c for c in rest if c not in bonus)
    hand_after = remove_cards(ctx.hand, [*action.with_cards, *(c for g in action.melds for c in g.cards)]) + to_hand
    groups = [(MeldGroup((top, *action.with_cards), None, action.onto, action.new), shape)]
    groups += [(g, meld_shape(g.cards)) for g in action.melds]
    laid = lay_groups(ctx.rules, ctx.side, groups, melds_before_turn=len(ctx.side.melds))
    reds = tuple(c for c in rest if c in bonus)
    return _Take(top, pile[: len(pile) - len(taken)], reds, to_hand, hand_after, laid)


def _top_group_shape(ctx: Ctx, top: int, action: TakePile) -> tuple[MeldShape | None, list[Violation]]:
    """Shape of the top card with the hand cards used with it; PILE_TOP_NOT_MELDED when they do not match, and the
    rules of the top card and runs (runs.pile_top_alone) when the take starts or joins one."""
    with_cards = action.with_cards
    run = _target_run(ctx, action)
    if run is not None:
        return _onto_run(ctx, top, action, run)
    others = [c for c in with_cards if not is_wild(c) and (not is_natural(c) or rank_of(c) != rank_of(top))]
    if others and ctx.rules.runs.min_size and all(is_natural(c) for c in others):
        offered = format_cards(with_cards)
        return None, [ctx.fail(Code.PILE_TOP_CANNOT_START_RUN, top=format_cards([top]), offered=offered)]
    if others:
        return None, [
            ctx.fail(
                Code.PILE_TOP_NOT_MELDED, variant="other_ranks", others=format_cards(others), top=format_cards([top])
            )
        ]
    try:
        return meld_shape((top, *with_cards)), []
    except MalformedMeld:
        return None, []


def _target_run(ctx: Ctx, action: TakePile) -> int | None:
    """The 1-based number of the side's run the take names for the top card (onto), or None."""
    melds = ctx.side.melds
    if action.onto and action.onto <= len(melds) and is_run(melds[action.onto - 1]):
        return action.onto
    return None


def _onto_run(ctx: Ctx, top: int, action: TakePile, number: int) -> tuple[MeldShape | None, list[Violation]]:
    """The top card sent to one of the side's runs: alone, where runs.pile_top_alone lets it, and then its shape."""
    shown = format_cards([top])
    if not ctx.rules.runs.pile_top_alone:
        return None, [ctx.fail(Code.PILE_TOP_ONTO_RUN_NOT_ALLOWED, top=shown, number=number)]
    if action.with_cards:
        offered = format_cards(action.with_cards)
        return None, [ctx.fail(Code.PILE_TOP_RUN_WITH_HAND_CARDS, top=shown, number=number, offered=offered)]
    return meld_shape((top,)), []


def _check_top(ctx: Ctx, top: int) -> list[Violation]:
    """The top card blocks taking the pile (a wild or black three where the rule set says so, a red three)."""
    pile_rules = ctx.rules.discard_pile
    if is_wild(top) and pile_rules.wild_top_blocks:
        return [ctx.fail(Code.PILE_TOP_WILD, top=format_cards([top]))]
    if is_black_three(top) and pile_rules.black_three_top_blocks:
        return [ctx.fail(Code.PILE_TOP_BLACK_THREE, top=format_cards([top]))]
    if is_red_three(top):
        return [ctx.fail(Code.PILE_TOP_RED_THREE, top=format_cards([top]))]
    if not is_natural(top):
        return [ctx.fail(Code.PILE_TOP_NOT_MELDED, variant="cannot_start", top=format_cards([top]))]
    dead = dead_ranks(ctx.rules, ctx.state)
    if rank_of(top) in dead:
        rank = rank_of(top)
        return [ctx.fail(Code.PILE_TOP_DEAD, top=format_cards([top]), side=dead[rank], rank=describe_rank(rank))]
    return []


def check_take_pile(ctx: Ctx, action: TakePile) -> list[Violation]:
    """Every rule taking the pile this way breaks: phase, the top card, freezing, the hand cards, the melds."""
    state, rules, pile_rules = ctx.state, ctx.rules, ctx.rules.discard_pile
    out: list[Violation] = []
    if state.phase != Phase.DRAW:
        out.append(wrong_phase(ctx, "take the pile"))
    pile = state.discard_pile
    if not pile:
        return [*out, ctx.fail(Code.PILE_EMPTY)]
    top = pile[-1]
    blocked = _check_top(ctx, top)
    out += blocked
    if pile_rules.one_card_hand_no_one_card_pile and len(ctx.hand) == 1 and len(pile) == 1:
        out.append(ctx.fail(Code.PILE_ONE_CARD_WITH_ONE_CARD))
    missing = check_in_hand(ctx, [*action.with_cards, *(c for g in action.melds for c in g.cards)])
    out += missing
    if blocked:
        return out
    shape, mismatched = _top_group_shape(ctx, top, action)
    out += mismatched
    target = _take_target(ctx, action, top)
    out += _check_freezing(ctx, action, top, target)
    if target is not None and pile_rules.onto_meld_below_canasta_only and not action.new:
        if is_canasta(meld_shape(ctx.side.melds[target]), rules):
            out.append(ctx.fail(Code.PILE_ONTO_CANASTA_NOT_ALLOWED, top=format_cards([top]), number=target + 1))
    if shape is None or missing:
        return out
    take = _take(ctx, action, shape)
    going_out = len(take.hand_after) <= 1 and not foot_waiting(ctx)  # an empty hand takes up a waiting foot
    out += check_laid(rules, take.laid, going_out=going_out, last_cards=not take.hand_after)
    out += check_initial_meld(ctx, initial_points(rules, take.laid.points, top), took_pile=True)
    if rules.family:
        opening = needs_initial_meld(ctx.side)
        out += check_family_laid(ctx, take.laid, opening=opening)
        if opening:
            out += check_initial_makeup(ctx, take.laid, top=top)
        if going_out:
            out += check_unfinished_going_out(ctx, take.laid.melds)
    canastas = count_canastas(rules, take.laid.melds)
    blockers = unfinished_blockers(rules, take.laid.melds) if rules.family else []
    out += check_keep_cards(
        ctx,
        len(take.hand_after),
        canastas,
        bonus_owed=take_owes_bonus_cards(ctx),
        blocker=blockers[0] if blockers else None,
        melds=take.laid.melds,
    )
    if not take.hand_after:  # melded everything, the top card included: going out (or taking up the foot)
        out += check_melding_out(ctx, canastas, took_pile=True, melds=take.laid.melds)
    return out


def _take_target(ctx: Ctx, action: TakePile, top: int) -> int | None:
    """Index of the side's meld the top card's group joins (named by onto, or the default target of its rank), or
    None for a new meld (or a meld number the side does not have: lay_groups reports it)."""
    melds = ctx.side.melds
    if action.onto:
        return action.onto - 1 if action.onto <= len(melds) else None
    if action.new:
        return None
    return default_target(ctx.rules, melds, rank_of(top))


def _check_freezing(ctx: Ctx, action: TakePile, top: int, target: int | None) -> list[Violation]:
    """The hand cards that may take the pile: a natural pair when it is frozen, else as the rule set allows."""
    pile_rules, rank = ctx.rules.discard_pile, rank_of(top)
    naturals = sum(1 for c in action.with_cards if is_natural(c) and rank_of(c) == rank)
    wilds = sum(1 for c in action.with_cards if is_wild(c))
    has_meld = target is not None
    frozen = frozen_reasons_for_side(ctx.rules, ctx.state, ctx.side_index)
    if frozen:
        if naturals >= 2 and wilds and not pile_rules.frozen_take_wilds:
            reasons, offered = "; ".join(r for _, r in frozen), format_cards(action.with_cards)
            field = "discard_pile.frozen_take_wilds"
            return [
                ctx.fail(
                    Code.PILE_FROZEN_NEEDS_NATURAL_PAIR, variant="wilds", field=field, reasons=reasons, offered=offered
                )
            ]
        if naturals >= 2:
            return []
        params: dict[str, object] = {
            "reasons": "; ".join(r for _, r in frozen),
            "rank": describe_rank(rank),
            "top": format_cards([top]),
        }
        if action.with_cards:
            params["offered"] = format_cards(action.with_cards)
        variant = "offered" if action.with_cards else ""
        return [ctx.fail(Code.PILE_FROZEN_NEEDS_NATURAL_PAIR, variant=variant, field=frozen[0][0], **params)]
    if not action.with_cards:
        if not has_meld:
            return [ctx.fail(Code.PILE_TOP_NOT_MELDED, rank=describe_rank(rank), top=format_cards([top]))]
        if not pile_rules.unfrozen_onto_existing_meld:
            return [ctx.fail(Code.PILE_ONTO_MELD_NOT_ALLOWED, top=format_cards([top]))]
        return []
    if naturals >= 2:
        return []
    offered = format_cards(action.with_cards)
    if naturals == 1 and wilds >= 1 and not pile_rules.unfrozen_natural_and_wild:
        return [ctx.fail(Code.PILE_NATURAL_AND_WILD_NOT_ALLOWED, offered=offered)]
    if naturals == 1 and not wilds and has_meld and not pile_rules.unfrozen_onto_existing_meld:
        # one natural is no pair: with the top card it only joins the side's meld, which this rule set refuses
        return [ctx.fail(Code.PILE_ONTO_MELD_NOT_ALLOWED, top=format_cards([top]))]
    if naturals == 0 and not (has_meld and pile_rules.unfrozen_onto_existing_meld):
        # wild cards alone may go with the top card only onto the side's meld of its rank
        rank_name = describe_rank(rank, plural=False)
        return [ctx.fail(Code.PILE_TOP_NOT_MELDED, variant="no_natural", offered=offered, rank=rank_name)]
    return []


def _laid_beyond_the_take(ctx: Ctx, action: TakePile, points: int) -> bool:
    """The take laid groups the pile did not need: after the initial meld, any group besides the top card's; for
    the initial meld, a group whose points the minimum could do without. Such groups are "anything else put down"
    before asking the partner (4P-CLASSIC "Going out"), so they count as melding this turn."""
    if not action.melds:
        return False
    if not needs_initial_meld(ctx.side):
        return True
    minimum, card_points = (
        side_minimum(ctx.rules, ctx.state.sides[ctx.own_index], ctx.state.hand_number),
        ctx.rules.card_points,
    )
    return any(points - sum(card_points[c] for c in group.cards) >= minimum for group in action.melds)


def apply_take_pile(ctx: Ctx, action: TakePile) -> Applied:
    """Take the pile (a legal take): meld, lay the red threes taken (replaced as the rule set says), go out."""
    state, rules = ctx.state, ctx.rules
    top = state.discard_pile[-1]
    take = _take(ctx, action, meld_shape((top,) if _target_run(ctx, action) else (top, *action.with_cards)))
    laid = take.laid
    turn = TurnState(
        start=TurnStart.TOOK_PILE,
        melded=_laid_beyond_the_take(ctx, action, laid.points),
        added_to_existing=laid.added_to_existing,
        made_canasta=bool(laid.canastas_made),
        melds_before_turn=len(ctx.side.melds),
    )
    replace_reds = rules.threes.red_three_from_pile_replaced
    events: list[Event] = [PileTaken(ctx.seat, take.top, take.to_hand)]
    stock, hand = state.stock, take.hand_after
    extra_reds: tuple[int, ...] = ()
    for card in take.red_threes:
        events.append(RedThreeLaid(ctx.seat, card, replace_reds and bool(stock)))
        if replace_reds and stock:
            drawn = draw_from_stock(rules, ctx.seat, hand, stock, 1)
            hand, stock, extra_reds = drawn.hand, drawn.stock, extra_reds + drawn.red_threes
            events.extend(drawn.events)
    events.extend(canasta_events(ctx.side_index, laid.melds, laid.canastas_made))
    sides = with_side(state, ctx.side_index, ctx.side.evolve(melds=tuple(laid.melds)))
    reds = take.red_threes + extra_reds
    if reds:  # laid on the mover's own entry (the side's, under fixed sides)
        own = sides[ctx.own_index]
        sides = (*sides[: ctx.own_index], own.evolve(red_threes=own.red_threes + reds), *sides[ctx.own_index + 1 :])
    next_state = state.evolve(
        seats=with_seat(
            state, ctx.seat, SeatState(hand, state.seats[ctx.seat].melded_before, state.seats[ctx.seat].foot)
        ),
        sides=sides,
        stock=stock,
        discard_pile=take.remaining_pile,
        pile_upcards=min(state.pile_upcards, len(take.remaining_pile)),
        phase=Phase.PLAY,
        turn=turn,
    )
    if sides_form_now(rules, next_state):  # the first take: the taker plays alone (players.side_formation)
        next_state, formed = form_sides(rules, next_state, ctx.seat)
        events.insert(1, formed)
    return after_melding(ctx, next_state, turn, events)
