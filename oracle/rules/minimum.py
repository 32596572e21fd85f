"""The initial meld: the minimum a side's first melds must reach (by its running total), whether they reach it,
and when the rule set waives it (going out concealed after drawing)."""

from __future__ import annotations

from oracle.model.state import SideState, TurnStart, TurnState
from oracle.rules.context import Ctx
from oracle.rules.going_out import is_concealed
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules


def needs_initial_meld(side: SideState) -> bool:
    """The side has no meld yet, so its next melds are its initial meld (and the minimum applies)."""
    return not side.melds


def side_minimum(rules: CompiledRules, side: SideState, hand_number: int = 1) -> int:
    """The points an initial meld must reach this hand for the running total of `side` (the row of
    initial_meld.thresholds); pass the mover's own entry, which under players.side_formation LONE_HAND holds the
    player's own total. Under initial_meld.minimum_by_hand the hand's number decides instead."""
    return rules.minimum_for(side.running_total, hand_number)[0]


def is_minimum_waived(
    ctx: Ctx, turn: TurnState, *, going_out: bool, canastas: int, final_discard: bool = False
) -> bool:
    """initial_meld.waived_for_concealed_going_out: after drawing, a meld that goes out concealed (with the
    canastas going out needs) owes no minimum; `final_discard`: one card is left to discard (the going out is
    concealed then only with going_out.concealed_with_final_discard)."""
    return (
        minimum_waivable(ctx.rules)
        and ctx.state.turn.start == TurnStart.DREW
        and going_out
        and canastas >= ctx.rules.going_out.canastas_required
        and is_concealed(ctx, turn, final_discard=final_discard)
    )


def minimum_waivable(rules: CompiledRules) -> bool:
    """The rule set waives the minimum for a meld that goes out concealed after drawing
    (initial_meld.waived_for_concealed_going_out; is_minimum_waived says when in a position)."""
    return rules.initial_meld.waived_for_concealed_going_out


def check_initial_meld(ctx: Ctx, points: int, *, took_pile: bool, waived: bool = False) -> list[Violation]:
    """INITIAL_MELD_BELOW_MINIMUM when these are the side's first melds and their `points` fall short.

    Taking the pile, `points` count the top card and the melds laid with it, not the rest of the pile.
    """
    if not needs_initial_meld(ctx.side):
        return []
    own = ctx.state.sides[ctx.own_index]  # the minimum follows the mover's own total (the side's, unless formed)
    minimum = side_minimum(ctx.rules, own, ctx.state.hand_number)
    if points >= minimum or waived:
        return []
    if ctx.rules.initial_meld.minimum_by_hand:
        hand, field = ctx.state.hand_number, "initial_meld.minimum_by_hand"
        variant = "by_hand_pile" if took_pile else "by_hand"
        return [
            ctx.fail(
                Code.INITIAL_MELD_BELOW_MINIMUM, variant=variant, field=field, points=points, hand=hand, minimum=minimum
            )
        ]
    variant = ("pile" if ctx.rules.initial_meld.pile_top_counts else "pile_hand_only") if took_pile else ""
    total = own.running_total
    return [ctx.fail(Code.INITIAL_MELD_BELOW_MINIMUM, variant=variant, points=points, total=total, minimum=minimum)]
