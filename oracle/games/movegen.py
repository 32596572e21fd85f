"""Legal-move generation: every legal action of the player to move in the canonical action space, in a fixed order.

``legal_actions(rules, state)`` lists exactly the actions of the canonical
space (documented in ``oracle.rules.candidates``) that
``oracle.rules.referee.check_action`` judges legal; ``count_actions`` gives the
ActionCounts of a list. The space and the order below are a contract that
other implementations are tested against through the perft files
(``conformance/perft/*.json``, see ``oracle.conformance.perft``).

Order: by kind (draw, take-pile, meld, discard, ask, answer, finish, combine
as in ActionCounts), then ascending by the key: take-pile (with_cards, ((cards,
onto), ...)), meld ((cards, onto), ...) over the groups, with onto = -1 when
there is no onto_rank; discard the card; answer yes before no; combine
(first, second); a take or meld whose groups name their meld (onto, new) after
the same cards without.

Two generators give the same list. ``legal_actions`` produces the legal
actions directly from the position (``oracle.games.movegen_direct``: per phase,
only the forms that can be legal; the draw phase in ``movegen_draw``, the
commonest position of phase PLAY in one pass in ``movegen_fast``), the full list
built already in canonical order (``legal_list``), each action generated once.
``legal_actions_by_referee`` builds every
candidate of the space (``oracle.rules.candidates``) and asks the referee about
each: slower, and the reference the direct generator is tested against.

A bounded list (``legal_actions_upto``, what ListLegalActions serves) generates
legal actions in generation order and stops once it holds `limit` distinct legal
actions and has seen that there is at least one more. A truncated list is
therefore the first `limit` legal actions in the generator's (unspecified)
generation order, then sorted in the canonical order above: a subset of the
full list in the same relative order, not necessarily its first `limit`
entries. An untruncated list is the full list, exactly as `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oracle.games.movegen_direct import iter_legal, legal_list, meld_key, quick_list, take_key
from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Combine,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    TakePile,
)
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState
from oracle.rules.candidates import KINDS, iter_candidates
from oracle.rules.referee import is_legal
from oracle.rules.state_check import InvalidStateError
from oracle.rules.state_memo import state_problems
from oracle.ruleset.compiled import CompiledRules

__all__ = [
    "KINDS",
    "LegalActions",
    "count_actions",
    "legal_actions",
    "legal_actions_by_referee",
    "legal_actions_upto",
    "sort_key",
]


def _group_key(groups: tuple[MeldGroup, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple((g.cards, -1 if g.onto_rank is None else g.onto_rank) for g in groups)


_KIND_OF: dict[type, str] = {
    Draw: "draw",
    TakePile: "take_pile",
    Meld: "meld",
    Discard: "discard",
    AskPartner: "ask_partner",
    AnswerPartner: "answer_partner",
    Finish: "finish",
    Combine: "combine",
}


_KIND_INDEX: dict[type, int] = {t: KINDS.index(k) for t, k in _KIND_OF.items()}


def _discard_key(action: Action) -> tuple[object, ...]:
    assert isinstance(action, Discard)
    return (action.card,)


def _answer_key(action: Action) -> tuple[object, ...]:
    assert isinstance(action, AnswerPartner)
    return (not action.yes,)


def _no_key(action: Action) -> tuple[object, ...]:
    return ()


def _combine_key(action: Action) -> tuple[object, ...]:
    assert isinstance(action, Combine)
    return (action.first, action.second)


def _targets(action: Action) -> tuple[object, ...]:
    """The tie-breaker of two takes or melds with the same cards: the meld each group names (onto, new)."""
    if isinstance(action, TakePile):
        return (action.onto, action.new, tuple((g.onto, g.new) for g in action.melds))
    if isinstance(action, Meld):
        return tuple((g.onto, g.new) for g in action.groups)
    return ()


def _take_order(action: Action) -> tuple[object, ...]:
    return (*take_key(action), _targets(action))


def _meld_order(action: Action) -> tuple[object, ...]:
    return (*meld_key(action), _targets(action))


_DISCARDS = KINDS.index("discard")
#: Per kind (in KINDS order), the key that orders actions of that kind (sort_key without the kind).
_KEY_OF_KIND = tuple(
    {
        "take_pile": _take_order,
        "meld": _meld_order,
        "discard": _discard_key,
        "answer_partner": _answer_key,
        "combine": _combine_key,
    }.get(k, _no_key)
    for k in KINDS
)


def sort_key(action: Action) -> tuple[object, ...]:
    """The canonical order: kind, then the kind's key (see the module docstring)."""
    kind = KINDS.index(_KIND_OF[type(action)])
    match action:
        case TakePile(with_cards, melds):
            return (kind, with_cards, _group_key(melds), _targets(action))
        case Meld(groups):
            return (kind, _group_key(groups), _targets(action))
        case Combine(first, second):
            return (kind, first, second)
        case Discard(card):
            return (kind, card)
        case AnswerPartner(yes):
            return (kind, not yes)
    return (kind,)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """A possibly bounded list of legal actions (see the module docstring for what a truncated list holds)."""

    actions: list[Action]  #: distinct legal actions, in canonical order
    truncated: bool  #: there are more legal actions than `actions` holds


def legal_actions(rules: CompiledRules, state: GameState, *, validate: bool = True) -> list[Action]:
    """Every legal action of the canonical space, in canonical order; InvalidStateError for a bad state (unless
    validate=False, for callers whose state came out of the oracle's own transitions, as check_action's)."""
    if validate:
        problems = state_problems(rules, state)
        if problems:
            raise InvalidStateError(problems)
    listed = legal_list(rules, state)  # the direct generator's actions, each once, in the canonical order
    return _judged_upto(rules, state, None, None).actions if listed is None else listed


def legal_actions_upto(
    rules: CompiledRules,
    state: GameState,
    limit: int | None = None,
    checkpoint: Checkpoint | None = None,
    *,
    validate: bool = True,
) -> LegalActions:
    """At most `limit` legal actions (None: all), canonical order; InvalidStateError for a bad state.

    Generates no more legal actions than `limit` + 1 (the direct generator; the referee's candidates for a phase
    it does not know); `checkpoint` is called before each action is taken and as the generator searches (what it
    raises ends the work).
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be at least 0, not {limit}")
    if validate:
        problems = state_problems(rules, state)
        if problems:
            raise InvalidStateError(problems)
    if limit is None and checkpoint is None:
        listed = legal_list(rules, state)  # the same actions, each once, already in the canonical order
        if listed is not None:
            return LegalActions(listed, truncated=False)
    else:
        listed = quick_list(rules, state, limit)  # a position listed in one pass, never more than `limit` actions
        if listed is not None:
            if checkpoint is not None:
                for _ in listed:
                    checkpoint()
            return LegalActions(listed, truncated=False)
    generated = iter_legal(rules, state, checkpoint)
    if generated is None:
        return _judged_upto(rules, state, limit, checkpoint)
    found: dict[Action, None] = {}
    for action in generated:
        if checkpoint is not None:
            checkpoint()
        size = len(found)
        found[action] = None  # one hash per action: a repeat leaves the size as it was
        if len(found) == size:
            continue
        if limit is not None and size >= limit:  # a legal action past the limit: the list is cut
            del found[action]
            return LegalActions(_in_order(found), truncated=True)
    return LegalActions(_in_order(found), truncated=False)


def _in_order(actions: Iterable[Action]) -> list[Action]:
    """The direct generator's distinct actions in the canonical order (as sorted by sort_key), sorting only the kinds
    that need it."""
    by_kind: list[list[Action]] = [[] for _ in KINDS]
    for action in actions:
        by_kind[_KIND_INDEX[type(action)]].append(action)
    out: list[Action] = []
    for kind, listed in enumerate(by_kind):
        if len(listed) > 1 and kind != _DISCARDS:  # the direct generator lists the discards ascending already
            listed.sort(key=_KEY_OF_KIND[kind])
        out += listed
    return out


def legal_actions_by_referee(rules: CompiledRules, state: GameState) -> list[Action]:
    """The same list as `legal_actions`, by judging every candidate of the space with the referee (the reference
    the direct generator is tested against); InvalidStateError for a bad state."""
    problems = state_problems(rules, state)
    if problems:
        raise InvalidStateError(problems)
    return _judged_upto(rules, state, None, None).actions


def _judged_upto(
    rules: CompiledRules, state: GameState, limit: int | None, checkpoint: Checkpoint | None
) -> LegalActions:
    """Judge the space's candidates in generation order until `limit` + 1 legal ones (the state is valid)."""
    found: dict[Action, None] = {}
    for action in iter_candidates(rules, state, checkpoint):
        if checkpoint is not None:
            checkpoint()
        if action in found or not is_legal(rules, state, action, validate=False):
            continue
        if limit is not None and len(found) >= limit:
            return LegalActions(sorted(found, key=sort_key), truncated=True)
        found[action] = None
    return LegalActions(sorted(found, key=sort_key), truncated=False)


def count_actions(actions: Iterable[Action]) -> dict[str, int]:
    """ActionCounts of a list of actions: one entry per kind plus `total`."""
    counts = dict.fromkeys(KINDS, 0)
    for action in actions:
        counts[_KIND_OF[type(action)]] += 1
    counts["total"] = sum(counts.values())
    return counts
