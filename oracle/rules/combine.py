"""Putting two of a side's melds of one rank together (melds.combine_same_rank, Samba): the check and the change."""

from __future__ import annotations

from oracle.model.actions import Combine
from oracle.model.cards import describe_rank
from oracle.model.events import Event
from oracle.model.state import Cards, Phase, TurnState
from oracle.rules.context import Applied, Ctx, canasta_events, with_side, wrong_phase
from oracle.rules.melds import MeldShape, is_canasta, meld_rule_breaks, meld_shape
from oracle.rules.violations import Code, Violation

_MAY_COMBINE = (Phase.PLAY, Phase.FINAL_MELDS)


def _what(number: int, shape: MeldShape) -> str:
    if shape.run:
        return f"meld {number} is a run"
    if shape.black_threes:
        return f"meld {number} is of black threes"
    if shape.all_wild:
        return f"meld {number} is of wild cards"
    return f"meld {number} is of {describe_rank(shape.rank)}"


def check_combine(ctx: Ctx, action: Combine) -> list[Violation]:
    """Every rule putting the two melds together breaks: phase, the rule set's leave, the melds named, their
    ranks, and the meld rules the result would break."""
    out: list[Violation] = []
    if ctx.state.phase not in _MAY_COMBINE:
        out.append(wrong_phase(ctx, "combine melds"))
    first, second = action.first, action.second
    if not ctx.rules.melds.combine_same_rank:
        return [*out, ctx.fail(Code.COMBINE_NOT_ALLOWED, first=first, second=second)]
    melds = ctx.side.melds
    for number in (first, second):
        if number > len(melds):
            out.append(ctx.fail(Code.MELD_NO_SUCH_MELD, variant="combine", number=number, count=len(melds)))
    if out:
        return out
    a, b = meld_shape(melds[first - 1]), meld_shape(melds[second - 1])
    if a.run or b.run or a.black_threes or b.black_threes or a.all_wild != b.all_wild or a.rank != b.rank:
        what = f"{_what(first, a)}, {_what(second, b)}"
        return [ctx.fail(Code.COMBINE_DIFFERENT_RANKS, first=first, second=second, what=what)]
    combined = meld_shape(_combined(melds, first, second))
    for broken in meld_rule_breaks(combined, ctx.rules, going_out=False):
        out.append(ctx.fail(Code.COMBINE_BREAKS_MELD, first=first, second=second, why=broken.why))
    return out


def _combined(melds: tuple[Cards, ...], first: int, second: int) -> Cards:
    return melds[first - 1] + melds[second - 1]


def apply_combine(ctx: Ctx, action: Combine) -> Applied:
    """Put the melds together (a legal combine): the second joins the first and leaves the list; a canasta made so
    is a CanastaMade event and counts as this turn's canasta."""
    state, side = ctx.state, ctx.side
    first, second = action.first, action.second
    melds = list(side.melds)
    was_canasta = any(is_canasta(meld_shape(melds[n - 1]), ctx.rules) for n in (first, second))
    melds[first - 1] = _combined(side.melds, first, second)
    del melds[second - 1]
    index = first - 1 if first < second else first - 2
    made = not was_canasta and is_canasta(meld_shape(melds[index]), ctx.rules)
    events: list[Event] = list(canasta_events(ctx.side_index, melds, [index] if made else []))
    turn = state.turn
    before = turn.melds_before_turn - (1 if second - 1 < turn.melds_before_turn else 0)
    next_turn = TurnState(
        turn.start, True, turn.added_to_existing, turn.made_canasta or made, turn.partner_answer, before
    )
    next_state = state.evolve(sides=with_side(state, ctx.side_index, side.evolve(melds=tuple(melds))), turn=next_turn)
    return Applied(next_state, tuple(events))
