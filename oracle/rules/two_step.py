"""The two-step take of the pile: the first step (pick-up-pile) and the meld of the top card that must follow it,
judged exactly as the one take-pile action the two steps amount to.

Some engines model taking the pile as two actions: "take the pile", then "meld its top card" with the hand cards
the rules ask for. The oracle accepts that form:

* the first step, ``PickUpPile``, is legal when some take-pile action would be legal now; it changes nothing but
  the phase, which becomes ``Phase.MELD_PILE_TOP`` (the pile and the hand keep their cards: nothing is taken
  until the top card is melded);
* in that phase the only acceptable action is a ``Meld`` with the top card in one of its groups (the second
  step). It is judged as the ``TakePile`` it amounts to (``take_of_second_step``) on the state before the take,
  so it breaks exactly the rules the combined action breaks and, when legal, leads to the same state and events;
* any other action in that phase, or a meld without the top card, is TWO_STEP_TAKE_INCOMPLETE. An illegal second
  step changes nothing: the player is still to meld the top card.
"""

from __future__ import annotations

from oracle.model.actions import Action, Meld, PickUpPile, TakePile, format_action, take_of_second_step
from oracle.model.cards import format_cards
from oracle.model.state import GameState, Phase
from oracle.rules.candidates import take_pile_candidates
from oracle.rules.context import Applied, Ctx, make_ctx, wrong_phase
from oracle.rules.draw import check_take_pile
from oracle.rules.violations import Code, Violation

#: Codes of check_take_pile that no choice of hand cards can avoid: the first step reports them itself.
_WHATEVER_THE_CARDS = frozenset(
    {
        Code.PILE_EMPTY,
        Code.PILE_TOP_WILD,
        Code.PILE_TOP_BLACK_THREE,
        Code.PILE_TOP_RED_THREE,
        Code.PILE_ONE_CARD_WITH_ONE_CARD,
    }
)


def check_pick_up(ctx: Ctx) -> list[Violation]:
    """The first step: legal when some way of taking the pile is legal now.

    Otherwise the rules no choice of cards can avoid (an empty pile, a top card that blocks, ...), or, when it is
    the hand's cards that cannot take it, TWO_STEP_TAKE_INCOMPLETE (no_way).
    """
    if ctx.state.phase != Phase.DRAW:
        return [wrong_phase(ctx, "pick up the pile")]
    unavoidable = [v for v in check_take_pile(ctx, TakePile()) if v.code in _WHATEVER_THE_CARDS]
    if unavoidable:
        return unavoidable
    if any(not check_take_pile(ctx, take) for take in take_pile_candidates(ctx.rules, ctx.state)):
        return []
    top = format_cards([ctx.state.discard_pile[-1]])
    return [ctx.fail(Code.TWO_STEP_TAKE_INCOMPLETE, variant="no_way", top=top, seat=ctx.seat)]


def apply_pick_up(ctx: Ctx) -> Applied:
    """The first step made: only the phase changes (the top card is melded, and the pile taken, next)."""
    return Applied(ctx.state.evolve(phase=Phase.MELD_PILE_TOP))


def before_take(state: GameState) -> GameState:
    """The state the second step is judged on: the pending state as it was before the first step."""
    return state.evolve(phase=Phase.DRAW)


def second_step(ctx: Ctx, action: Action) -> tuple[Ctx, TakePile] | Violation:
    """In phase MELD_PILE_TOP: the context (the state before the take) and the take-pile action the second step
    amounts to, or the TWO_STEP_TAKE_INCOMPLETE violation when `action` is no meld of the top card."""
    top = ctx.state.discard_pile[-1]
    shown = format_cards([top])
    if not isinstance(action, Meld):
        return ctx.fail(Code.TWO_STEP_TAKE_INCOMPLETE, top=shown, action=format_action(action))
    take = take_of_second_step(top, action)
    if take is None:
        return ctx.fail(Code.TWO_STEP_TAKE_INCOMPLETE, variant="top_missing", top=shown, action=format_action(action))
    return make_ctx(ctx.rules, before_take(ctx.state)), take


__all__ = ["PickUpPile", "apply_pick_up", "before_take", "check_pick_up", "second_step"]
