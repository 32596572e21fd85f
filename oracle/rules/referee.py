"""The public predicate: judge one action on one state (shape layer, then rule checks), with no side effects."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, TakePile
from oracle.model.cards import is_valid
from oracle.model.errors import Problems
from oracle.model.events import Event
from oracle.model.state import GameState, Phase
from oracle.rules.context import Outcome, make_ctx
from oracle.rules.draw import check_take_pile, do_draw
from oracle.rules.meld_play import check_group_shapes
from oracle.rules.play import check_answer, check_ask, check_discard, check_finish, check_meld
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.rules.violations import Violation
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "may the player to move do this?"."""

    legal: bool  #: no rule broken
    violations: tuple[Violation, ...]  #: every rule broken (empty when legal)
    events: tuple[Event, ...]  #: what happened (legal actions only)
    next_state: GameState | None  #: the state after the action (legal actions only)


def check_action_shape(action: Action, prefix: str = "action") -> None:
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
            check_group_shapes(groups, f"{prefix}.meld.groups", problems)
        case TakePile(with_cards, melds):
            cards_ok(f"{prefix}.take_pile.with", with_cards)
            for i, group in enumerate(melds):
                cards_ok(f"{prefix}.take_pile.melds[{i}].cards", group.cards)
            problems.raise_if_any()
            check_group_shapes(melds, f"{prefix}.take_pile.melds", problems)
        case _:
            pass
    problems.raise_if_any()


def check_action(rules: CompiledRules, state: GameState, action: Action, *, validate: bool = True) -> Verdict:
    """Judge `action` by the player to move; InvalidStateError for an inconsistent state (unless validate=False,
    for callers that already validated it), InvalidInputError for a malformed action.
    """
    if validate:
        problems = validate_state(rules, state)
        if problems:
            raise InvalidStateError(problems)
    check_action_shape(action)
    ctx = make_ctx(rules, state)
    if state.phase == Phase.HAND_OVER:
        outcome = Outcome([ctx.fail("HAND_IS_OVER", f"the hand is over ({state.hand_end.name.lower()})")])
    else:
        match action:
            case Draw():
                outcome = do_draw(ctx)
            case TakePile():
                outcome = check_take_pile(ctx, action)
            case Meld():
                outcome = check_meld(ctx, action)
            case Discard():
                outcome = check_discard(ctx, action)
            case AskPartner():
                outcome = check_ask(ctx)
            case AnswerPartner():
                outcome = check_answer(ctx, action)
            case Finish():
                outcome = check_finish(ctx)
            case _:
                raise TypeError(f"not an action: {action!r}")
    if outcome.violations:
        return Verdict(False, tuple(outcome.violations), (), None)
    return Verdict(True, (), tuple(outcome.events), outcome.next_state)
