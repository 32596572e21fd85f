"""Judges one action on one state (or one player's view) under several rule sets and names the rule-set fields
that decide it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oracle.model.actions import Action
from oracle.model.errors import InvalidInputError
from oracle.model.state import GameState
from oracle.model.view import PlayerView
from oracle.rules.referee import Verdict, check_action, validate_action_at
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.rules.view import ViewVerdict, complete, judge_view
from oracle.ruleset.loader import LoadedRuleSet
from oracle.ruleset.paths import format_field, leaf_paths


@dataclass(frozen=True, slots=True)
class RuleSetAnswer:
    """One rule set's answer: the verdict, or why the state does not fit the rule set."""

    rule_set_id: str
    verdict: Verdict | None  #: None when not applicable, or from a view that does not show the acting hand
    not_applicable: str = ""
    view: ViewVerdict | None = None  #: the answer from a player's view (with its unknowns)

    @property
    def applicable(self) -> bool:
        """Whether the state (or view) fits the rule set, so that it was judged."""
        return self.verdict is not None or self.view is not None


@dataclass(frozen=True, slots=True)
class DecidingField:
    """A field that a violation names and whose value differs among the rule sets."""

    field: str
    values: tuple[str, ...]  #: one per answer, in order


@dataclass(frozen=True, slots=True)
class Adjudication:
    """Every rule set's answer and what makes them differ."""

    answers: tuple[RuleSetAnswer, ...]
    deciding: tuple[DecidingField, ...]


def _from_view(loaded: LoadedRuleSet, view: PlayerView, action: Action, runs: bool) -> RuleSetAnswer:
    """One rule set's answer from a view: not applicable when the view does not fit it (counts, seats, rules)."""
    try:
        complete(loaded.rules, view)
    except (InvalidStateError, InvalidInputError) as exc:
        problems = exc.problems
        reason = "; ".join(str(p) for p in problems[:3]) + (" ..." if len(problems) > 3 else "")
        return RuleSetAnswer(loaded.spec.id, None, f"the view does not fit: {reason}")
    answer = judge_view(loaded.rules, view, action, runs=runs)  # a malformed action raises: it is malformed under all
    return RuleSetAnswer(loaded.spec.id, answer.verdict if answer.judged else None, view=answer)


def adjudicate(
    rule_sets: Sequence[LoadedRuleSet], state: GameState | Sequence[GameState] | PlayerView, action: Action
) -> Adjudication:
    """Judge under each rule set; a malformed action raises InvalidInputError (it is malformed under all).

    Every rule set may be asked, whatever its table: one the position does not
    fit (another number of seats or sides, e.g. a four-player state under the
    three-player cutthroat-3p, or a deck it cannot hold) is not applicable, its
    answer naming why, and nothing is judged under it. So the front ends ask
    every rule book by default, the three-player ones too.

    `state` is one state for all, or one per rule set (a notation state with
    fill_stock fills a different stock for a deck of another size), or a
    player's view (each answer then carries the view's verdict and unknowns).
    """
    first = state if isinstance(state, GameState | PlayerView) else state[0] if state else None
    runs = any(loaded.rules.runs.min_size for loaded in rule_sets)  # a run is then a meld to judge under each
    if first is not None:  # malformed whatever the rule set, even when no rule set can judge the position
        validate_action_at(first.phase, first.discard_pile, action, runs=runs)
    if isinstance(state, PlayerView):
        view_answers = [_from_view(loaded, state, action, runs) for loaded in rule_sets]
        return Adjudication(tuple(view_answers), _deciding_fields(rule_sets, view_answers))
    states = [state] * len(rule_sets) if isinstance(state, GameState) else list(state)
    answers: list[RuleSetAnswer] = []
    for loaded, state in zip(rule_sets, states, strict=True):
        problems = validate_state(loaded.rules, state)
        if problems:
            reason = "; ".join(str(p) for p in problems[:3]) + (" ..." if len(problems) > 3 else "")
            answers.append(RuleSetAnswer(loaded.spec.id, None, f"the state does not fit: {reason}"))
            continue
        verdict = check_action(loaded.rules, state, action, validate=False, runs=runs)
        answers.append(RuleSetAnswer(loaded.spec.id, verdict))
    return Adjudication(tuple(answers), _deciding_fields(rule_sets, answers))


def _deciding_fields(rule_sets: Sequence[LoadedRuleSet], answers: list[RuleSetAnswer]) -> tuple[DecidingField, ...]:
    """Fields named by a violation (or by its section) whose values differ among the applicable rule sets."""
    judged = [(loaded, answer) for loaded, answer in zip(rule_sets, answers, strict=True) if answer.verdict]
    if (
        len({a.verdict.legal for _, a in judged if a.verdict}) < 2
        and len({tuple(v.code for v in a.verdict.violations) for _, a in judged if a.verdict}) < 2
    ):
        return ()
    named: list[str] = []
    for _, answer in judged:
        assert answer.verdict is not None
        for v in answer.verdict.violations:
            candidates = [v.field] if "." in v.field else [p for p in leaf_paths() if p.startswith(v.field + ".")]
            named.extend(p for p in candidates if p not in named)
    deciding = []
    for path in named:
        values = tuple(
            format_field(loaded.spec, path) if answer.applicable else "-"
            for loaded, answer in zip(rule_sets, answers, strict=True)
        )
        if len({values[i] for i, a in enumerate(answers) if a.applicable}) > 1:
            deciding.append(DecidingField(path, values))
    return tuple(deciding)
