"""The public predicate: judge one action on one state (shape layer, then the rule checks) and, when it breaks no
rule, apply it — with no side effects."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, TakePile
from oracle.model.cards import is_valid
from oracle.model.errors import Problems
from oracle.model.events import Event
from oracle.model.state import GameState, Phase
from oracle.rules.context import Applied, Ctx, make_ctx
from oracle.rules.draw import apply_draw, apply_take_pile, check_draw, check_take_pile
from oracle.rules.meld_play import validate_group_shapes
from oracle.rules.play import (
    apply_answer,
    apply_ask,
    apply_discard,
    apply_finish,
    apply_meld,
    check_answer,
    check_ask,
    check_discard,
    check_finish,
    check_meld,
)
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "may the player to move do this?"."""

    legal: bool  #: no rule broken
    violations: tuple[Violation, ...]  #: every rule broken (empty when legal)
    events: tuple[Event, ...]  #: what happened (legal actions only)
    next_state: GameState | None  #: the state after the action (legal actions only)


def validate_action_shape(action: Action, prefix: str = "action") -> None:
    """The shape layer: raise InvalidInputError for an action that is malformed whatever the state."""
    problems = Problems()

    def cards_ok(path: str, cards: tuple[int, ...]) -> None:
        for k, card in enumerate(cards):
            if not is_valid(card):
                problems.add(f"{path}[{k}]", f"{card} is not a card")

    match action:
        case Discard(card):
            if not is_valid(card):
                problems.add(f"{prefix}.discard.card", f"{card} is not a card")
        case Meld(groups):
            if not groups:
                problems.add(f"{prefix}.meld.groups", "a meld action needs at least one group")
            for i, group in enumerate(groups):
                cards_ok(f"{prefix}.meld.groups[{i}].cards", group.cards)
            problems.raise_if_any()
            validate_group_shapes(groups, f"{prefix}.meld.groups", problems)
        case TakePile(with_cards, melds):
            cards_ok(f"{prefix}.take_pile.with", with_cards)
            for i, group in enumerate(melds):
                cards_ok(f"{prefix}.take_pile.melds[{i}].cards", group.cards)
            problems.raise_if_any()
            validate_group_shapes(melds, f"{prefix}.take_pile.melds", problems)
        case _:
            pass
    problems.raise_if_any()


def action_violations(ctx: Ctx, action: Action) -> list[Violation]:
    """Every rule `action` breaks in ctx's state (a well-shaped action); empty when it is legal."""
    if ctx.state.phase == Phase.HAND_OVER:
        return [ctx.fail(Code.HAND_IS_OVER, hand_end=ctx.state.hand_end.name.lower())]
    match action:
        case Draw():
            return check_draw(ctx)
        case TakePile():
            return check_take_pile(ctx, action)
        case Meld():
            return check_meld(ctx, action)
        case Discard():
            return check_discard(ctx, action)
        case AskPartner():
            return check_ask(ctx)
        case AnswerPartner():
            return check_answer(ctx)
        case Finish():
            return check_finish(ctx)
    raise TypeError(f"not an action: {action!r}")


def apply_action(ctx: Ctx, action: Action) -> Applied:
    """The next state and events of a legal action (one action_violations found nothing in)."""
    match action:
        case Draw():
            return apply_draw(ctx)
        case TakePile():
            return apply_take_pile(ctx, action)
        case Meld():
            return apply_meld(ctx, action)
        case Discard():
            return apply_discard(ctx, action)
        case AskPartner():
            return apply_ask(ctx)
        case AnswerPartner():
            return apply_answer(ctx, action)
        case Finish():
            return apply_finish(ctx)
    raise TypeError(f"not an action: {action!r}")


def is_legal(rules: CompiledRules, state: GameState, action: Action, *, validate: bool = True) -> bool:
    """Whether the player to move may do `action` (check_action's `legal`, without computing the next state);
    the same errors as check_action for an inconsistent state or a malformed action.
    """
    if validate:
        problems = validate_state(rules, state)
        if problems:
            raise InvalidStateError(problems)
    validate_action_shape(action)
    return not action_violations(make_ctx(rules, state), action)


def check_action(rules: CompiledRules, state: GameState, action: Action, *, validate: bool = True) -> Verdict:
    """Judge `action` by the player to move and, when legal, apply it.

    InvalidStateError for an inconsistent state (unless validate=False, for callers
    that already validated it), InvalidInputError for a malformed action.
    """
    if validate:
        problems = validate_state(rules, state)
        if problems:
            raise InvalidStateError(problems)
    validate_action_shape(action)
    ctx = make_ctx(rules, state)
    violations = action_violations(ctx, action)
    if violations:
        return Verdict(False, tuple(violations), (), None)
    applied = apply_action(ctx, action)
    return Verdict(True, (), applied.events, applied.next_state)
