"""Legal-move generation: every legal action of the player to move in the canonical action space, in a fixed order.

``legal_actions(rules, state)`` lists exactly the actions of the canonical
space (documented in ``oracle.rules.candidates``) that
``oracle.rules.referee.check_action`` judges legal; ``count_actions`` gives the
ActionCounts of a list. The space and the order below are a contract that
other implementations are tested against through the perft files
(``conformance/perft/*.json``, see ``oracle.conformance.perft``).

Order: by kind (draw, take-pile, meld, discard, ask, answer, finish as in
ActionCounts), then ascending by the key: take-pile (with_cards, ((cards,
onto), ...)), meld ((cards, onto), ...) over the groups, with onto = -1 when
there is no onto_rank; discard the card; answer yes before no.
"
"""

from __future__ import annotations

from collections.abc import Iterable

from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, MeldGroup, TakePile
from oracle.model.state import GameState
from oracle.rules.candidates import KINDS, candidates
from oracle.rules.referee import check_action
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.ruleset.compiled import CompiledRules

__all__ = ["KINDS", "count_actions", "legal_actions", "sort_key"]


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
}


def sort_key(action: Action) -> tuple[object, ...]:
    """The canonical order: kind, then the kind's key (see the module docstring)."""
    kind = KINDS.index(_KIND_OF[type(action)])
    match action:
        case TakePile(with_cards, melds):
            return (kind, with_cards, _group_key(melds))
        case Meld(groups):
            return (kind, _group_key(groups))
        case Discard(card):
            return (kind, card)
        case AnswerPartner(yes):
            return (kind, not yes)
    return (kind,)


def legal_actions(rules: CompiledRules, state: GameState) -> list[Action]:
    """Every legal action of the canonical space, in canonical order; InvalidStateError for a bad state."""
    problems = validate_state(rules, state)
    if problems:
        raise InvalidStateError(problems)
    legal = [a for a in candidates(rules, state) if check_action(rules, state, a, validate=False).legal]
    return sorted(dict.fromkeys(legal), key=sort_key)


def count_actions(actions: Iterable[Action]) -> dict[str, int]:
    """ActionCounts of a list of actions: one entry per kind plus `total`."""
    counts = dict.fromkeys(KINDS, 0)
    for action in actions:
        counts[_KIND_OF[type(action)]] += 1
    counts["total"] = sum(counts.values())
    return counts
