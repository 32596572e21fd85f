"""The public predicate: judge one action on one state (shape layer, then the rule checks) and, when it breaks no
rule, apply it — with no side effects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Combine,
    Discard,
    Draw,
    Finish,
    Meld,
    PickUpPile,
    TakePile,
    top_group_index,
)
from oracle.model.cards import is_valid
from oracle.model.errors import Problems
from oracle.model.events import Event
from oracle.model.fast_init import fast_init
from oracle.model.state import GameState, Phase
from oracle.rules.combine import apply_combine, check_combine
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
from oracle.rules.state_check import InvalidStateError
from oracle.rules.state_memo import state_problems, vouch
from oracle.rules.two_step import apply_pick_up, check_pick_up, second_step
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules


@fast_init
@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "may the player to move do this?"."""

    legal: bool  #: no rule broken
    violations: tuple[Violation, ...]  #: every rule broken (empty when legal)
    events: tuple[Event, ...]  #: what happened (legal actions only)
    next_state: GameState | None  #: the state after the action (legal actions only)

    def alone(self) -> Verdict:
        """The verdict without the next state (for a caller that holds it already: CheckAction's verdict_only)."""
        return self if self.next_state is None else Verdict(self.legal, self.violations, self.events, None)


_NOTHING_TO_SHAPE = frozenset({Draw, AskPartner, AnswerPartner, Finish, PickUpPile})  #: actions that carry no cards


def validate_action_shape(
    action: Action, prefix: str = "action", *, top_group: int | None = None, runs: bool = False
) -> None:
    """The shape layer: raise InvalidInputError for an action that is malformed whatever the state.

    `top_group`: the index of a meld's group that holds the pile's top card in the second step of a two-step take
    (its cards are checked, not its shape: it is judged as the take's top-card group, see oracle.rules.two_step).
    `runs`: natural cards of several ranks in a group are a run to judge (a rule set with runs judges the action),
    not a malformed group.
    """
    if isinstance(action, Discard):  # the common cases first, with nothing to report
        if is_valid(action.card):
            return
    elif type(action) in _NOTHING_TO_SHAPE:
        return
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
            if top_group is None:
                validate_group_shapes(groups, f"{prefix}.meld.groups", problems, runs=runs)
            else:  # the other groups are the take's other melds: shaped among themselves, paths kept
                others = [i for i in range(len(groups)) if i != top_group]
                found = Problems()
                validate_group_shapes([groups[i] for i in others], "", found, runs=runs)
                for item in found.items:
                    index = int(item.field[1 : item.field.index("]")])
                    problems.add(f"{prefix}.meld.groups[{others[index]}]", item.description)
        case TakePile(with_cards, melds, onto, new):
            cards_ok(f"{prefix}.take_pile.with", with_cards)
            for i, group in enumerate(melds):
                cards_ok(f"{prefix}.take_pile.melds[{i}].cards", group.cards)
            if new and onto:
                problems.add(f"{prefix}.take_pile.onto", "the top card's group either starts a new meld or joins one")
            problems.raise_if_any()
            validate_group_shapes(melds, f"{prefix}.take_pile.melds", problems, runs=runs)
        case Combine(first, second):
            if first < 1 or second < 1:
                problems.add(f"{prefix}.combine", f"meld numbers start at 1, not {min(first, second)}")
            elif first == second:
                problems.add(f"{prefix}.combine.second", f"names meld {first} twice: combine two different melds")
        case _:
            pass
    problems.raise_if_any()


def action_violations(ctx: Ctx, action: Action) -> list[Violation]:
    """Every rule `action` breaks in ctx's state (a well-shaped action); empty when it is legal."""
    if ctx.state.phase == _HAND_OVER:
        return [ctx.fail(Code.HAND_IS_OVER, hand_end=ctx.state.hand_end.name.lower())]
    check = _CHECKS.get(type(action))
    if check is None:
        raise TypeError(f"not an action: {action!r}")
    return check(ctx, action)


def apply_action(ctx: Ctx, action: Action) -> Applied:
    """The next state and events of a legal action (one action_violations found nothing in)."""
    apply = _APPLIES.get(type(action))
    if apply is None:
        raise TypeError(f"not an action: {action!r}")
    return apply(ctx, action)


_HAND_OVER, _PILE_TOP = Phase.HAND_OVER, Phase.MELD_PILE_TOP  #: read once (an Enum member lookup is slow)
#: Each kind of action's check and state change (by the action's class: the actions are final dataclasses); each
#: entry calls the module's function by name, so a test that replaces one (a seeded bug) replaces it here too.
_CHECKS: dict[type, Callable[[Ctx, Any], list[Violation]]] = {
    Draw: lambda ctx, _: check_draw(ctx),
    TakePile: lambda ctx, action: check_take_pile(ctx, action),
    PickUpPile: lambda ctx, _: check_pick_up(ctx),
    Meld: lambda ctx, action: check_meld(ctx, action),
    Discard: lambda ctx, action: check_discard(ctx, action),
    AskPartner: lambda ctx, _: check_ask(ctx),
    AnswerPartner: lambda ctx, _: check_answer(ctx),
    Finish: lambda ctx, _: check_finish(ctx),
    Combine: lambda ctx, action: check_combine(ctx, action),
}
_APPLIES: dict[type, Callable[[Ctx, Any], Applied]] = {
    Draw: lambda ctx, _: apply_draw(ctx),
    TakePile: lambda ctx, action: apply_take_pile(ctx, action),
    PickUpPile: lambda ctx, _: apply_pick_up(ctx),
    Meld: lambda ctx, action: apply_meld(ctx, action),
    Discard: lambda ctx, action: apply_discard(ctx, action),
    AskPartner: lambda ctx, _: apply_ask(ctx),
    AnswerPartner: lambda ctx, action: apply_answer(ctx, action),
    Finish: lambda ctx, _: apply_finish(ctx),
    Combine: lambda ctx, action: apply_combine(ctx, action),
}


def judge(
    rules: CompiledRules, state: GameState, action: Action, *, runs: bool | None = None
) -> tuple[Ctx, Action, list[Violation]]:
    """The shape layer, then every rule `action` breaks: the context and the action judged (the second step of a
    two-step take is judged as the take-pile it amounts to, on the state before the take) and the violations."""
    ctx = make_ctx(rules, state)
    validate_action_in(state, action, runs=rules.runs.min_size > 0 if runs is None else runs)
    if state.phase != Phase.MELD_PILE_TOP:
        return ctx, action, action_violations(ctx, action)
    step = second_step(ctx, action)
    if isinstance(step, Violation):
        return ctx, action, [step]
    ctx, take = step
    return ctx, take, action_violations(ctx, take)


def validate_action_in(state: GameState, action: Action, *, runs: bool = False) -> None:
    """The shape layer as judging applies it in `state`: InvalidInputError for a malformed action (in the second
    step of a two-step take, the group holding the pile's top card is shaped as the take's top-card group); `runs`
    as for validate_action_shape."""
    validate_action_at(state.phase, state.discard_pile, action, runs=runs)


def validate_action_at(phase: Phase, pile: tuple[int, ...], action: Action, *, runs: bool = False) -> None:
    """validate_action_in for a position given by its phase and discard pile (a state's or a player's view's)."""
    if phase != _PILE_TOP or not pile or not isinstance(action, Meld):
        validate_action_shape(action, runs=runs)  # a second step with no pile is refused by the state check
        return
    validate_action_shape(action, top_group=top_group_index(pile[-1], action), runs=runs)


def is_legal(rules: CompiledRules, state: GameState, action: Action, *, validate: bool = True) -> bool:
    """Whether the player to move may do `action` (check_action's `legal`, without computing the next state);
    the same errors as check_action for an inconsistent state or a malformed action.
    """
    if validate:
        problems = state_problems(rules, state)
        if problems:
            raise InvalidStateError(problems)
    return not judge(rules, state, action)[2]


def verdict_of_shaped_action(rules: CompiledRules, state: GameState, action: Action) -> Verdict:
    """check_action(rules, state, action, validate=False) for an action the caller has already found well shaped
    (validate_action_shape, as a record check does), in a state that is not the second step of a two-step take
    (phase MELD_PILE_TOP goes through check_action): the shape layer is not run again."""
    if state.phase == Phase.MELD_PILE_TOP:
        return check_action(rules, state, action, validate=False)
    ctx = make_ctx(rules, state)
    violations = action_violations(ctx, action)
    if violations:
        return Verdict(False, tuple(violations), (), None)
    applied = apply_action(ctx, action)
    return Verdict(True, (), applied.events, applied.next_state)


def check_action(
    rules: CompiledRules, state: GameState, action: Action, *, validate: bool = True, runs: bool | None = None
) -> Verdict:
    """Judge `action` by the player to move and, when legal, apply it.

    InvalidStateError for an inconsistent state (unless validate=False, for callers
    that already validated it), InvalidInputError for a malformed action. `runs`: the shape layer takes natural
    cards of several ranks as a run to judge (default: where the rule set has runs; True when the same action is
    judged under several rule sets, one with runs, so that a rule set without them answers RUNS_NOT_ALLOWED).
    """
    if validate:
        problems = state_problems(rules, state)
        if problems:
            raise InvalidStateError(problems)
    ctx, judged, violations = judge(rules, state, action, runs=runs)
    if violations:
        return Verdict(False, tuple(violations), (), None)
    applied = apply_action(ctx, judged)
    if validate:  # a legal action on a valid state leads to a valid state: judging it next needs no validation
        vouch(rules, applied.next_state)
    return Verdict(True, (), applied.events, applied.next_state)
