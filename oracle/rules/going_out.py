"""Going out: the canastas it needs, the cards a player keeps until then, the final discard, the partner's answer,
whether it is concealed, and ending the hand when a meld or a take empties the hand."""

from __future__ import annotations

from collections.abc import Sequence

from oracle.model.cards import format_cards
from oracle.model.events import Event
from oracle.model.state import Cards, GameState, HandEnd, PartnerAnswer, TurnState
from oracle.rules.context import Applied, Ctx, end_hand
from oracle.rules.foot import foot_going_out_problems, foot_waiting, has_going_out_extras, must_walk, take_up_foot
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules


def check_keep_cards(
    ctx: Ctx,
    hand_after: int,
    canastas: int,
    *,
    bonus_owed: bool = False,
    blocker: Cards | None = None,
    melds: Sequence[Cards] = (),
) -> list[Violation]:
    """MUST_KEEP_CARDS: until the side may go out (its canastas made, no `blocker`: a meld that stops it going out,
    going_out.unfinished_special_meld_blocks), a meld leaves enough cards to discard and keep one (only the discard
    when the player is owed bonus cards and bonus_cards.keep_only_discard). A player whose foot waits keeps nothing:
    an empty hand takes up the foot (foot.*). Hand and Foot's other conditions for going out (`melds`: the side's
    melds after the action) count as the canastas do."""
    if foot_waiting(ctx):
        return []
    keep = ctx.rules.going_out.min_hand_after_meld_without_canastas
    if bonus_owed and ctx.rules.bonus_cards.keep_only_discard:
        keep = min(keep, 1)
    if hand_after >= keep:
        return []
    required = ctx.rules.going_out.canastas_required
    if canastas < required:
        return [ctx.fail(Code.MUST_KEEP_CARDS, canastas=canastas, required=required, keep=keep, left=hand_after)]
    if has_going_out_extras(ctx.rules):
        problems = foot_going_out_problems(ctx, melds)
        if problems:
            why = problems[0].explanation
            return [
                ctx.fail(
                    Code.MUST_KEEP_CARDS, variant="foot", field=problems[0].field, why=why, keep=keep, left=hand_after
                )
            ]
    if blocker is not None and hand_after:
        meld = format_cards(blocker)
        return [
            ctx.fail(Code.MUST_KEEP_CARDS, variant="unfinished", field=_BLOCKS, meld=meld, keep=keep, left=hand_after)
        ]
    return []


_BLOCKS = "going_out.unfinished_special_meld_blocks"


def check_going_out(ctx: Ctx, canastas: int, melds: Sequence[Cards] | None = None) -> list[Violation]:
    """A player about to have no cards: the side's canastas, and the partner's answer; and Hand and Foot's book
    quotas, required question and partner's foot (`melds`: the side's melds then, default its melds now)."""
    out: list[Violation] = []
    if has_going_out_extras(ctx.rules):
        out += foot_going_out_problems(ctx, ctx.side.melds if melds is None else melds)
    required = ctx.rules.going_out.canastas_required
    if canastas < required:
        out.append(ctx.fail(Code.GO_OUT_WITHOUT_CANASTAS, required=required, canastas=canastas))
    if ctx.state.turn.partner_answer == PartnerAnswer.NO:
        out.append(ctx.fail(Code.GO_OUT_PARTNER_SAID_NO))
    return out


def may_meld_out(ctx: Ctx) -> bool:
    """Whether going out may end with a meld of the last card, no final discard (going_out.discard_optional)."""
    return melding_out_allowed(ctx.rules)


def melding_out_allowed(rules: CompiledRules) -> bool:
    """The rule set lets a player go out by melding the last card, with no final discard (going_out.discard_optional):
    may_meld_out for a rule set rather than a position (what the move generator precomputes)."""
    return rules.going_out.discard_optional


def check_melding_out(
    ctx: Ctx, canastas: int, *, took_pile: bool, melds: Sequence[Cards] | None = None
) -> list[Violation]:
    """A meld or a pile take that leaves no card: going out with no final discard (going_out.discard_optional); with
    a foot waiting, taking up the foot (FOOT_NOT_YET where it is taken up only by discarding)."""
    if foot_waiting(ctx):
        return must_walk(ctx)
    out = check_going_out(ctx, canastas, melds)
    if not may_meld_out(ctx):
        out.append(ctx.fail(Code.GO_OUT_NEEDS_DISCARD, variant="pile" if took_pile else ""))
    return out


def is_concealed(ctx: Ctx, turn: TurnState, *, final_discard: bool = False) -> bool:
    """Going out now is concealed: nothing melded before this turn, nothing added to older melds, a canasta made;
    and, when the last card is discarded, going_out.concealed_with_final_discard."""
    if final_discard and not ctx.rules.going_out.concealed_with_final_discard:
        return False
    return not ctx.state.seats[ctx.seat].melded_before and not turn.added_to_existing and turn.made_canasta


def after_melding(ctx: Ctx, next_state: GameState, turn: TurnState, events: list[Event]) -> Applied:
    """The result of a legal meld or pile take: the hand ends if the mover has no card left (went out); with a foot
    waiting, the mover takes it up and plays on (foot.continue_after_melding_out)."""
    if next_state.seats[ctx.seat].hand:
        return Applied(next_state, tuple(events))
    if next_state.seats[ctx.seat].foot:
        taken, laid = take_up_foot(ctx.rules, next_state, ctx.seat)
        return Applied(taken, (*events, *laid))
    over, ended = end_hand(
        ctx.rules, next_state, HandEnd.WENT_OUT, went_out_seat=ctx.seat, concealed=is_concealed(ctx, turn)
    )
    return Applied(over, (*events, *ended))
