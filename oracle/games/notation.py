"""An action's notation as format_action writes it, faster: remembered for card-less actions and discards, melds
and takes written from each card's text."""

from __future__ import annotations

from oracle.model.actions import (
    Action,
    AskPartner,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
    format_action,
)
from oracle.model.cards import RANKS, format_cards, is_valid

_SIMPLE = frozenset({Draw, AskPartner, Finish, PickUpPile})
_NOTATION: dict[object, str] = {}
"""The notation of the actions that have few values (draw, ask, ..., and a discard of each card), by action."""
_ONTO_TEXT = tuple(f"{rank}: " for rank in RANKS)


def _groups_text(groups: tuple[MeldGroup, ...]) -> str:
    """format_action's text of meld groups (a ValueError for a card that is none, and for a group that names its
    meld: format_action writes those)."""
    if any(g.onto or g.new for g in groups):
        raise ValueError("a named target")
    return ", ".join(
        (_ONTO_TEXT[g.onto_rank] if g.onto_rank is not None else "") + format_cards(g.cards) for g in groups
    )


def notation(action: Action) -> str:
    """format_action(action): remembered for the actions that have few values (a bounded set: each card's discard
    and the actions without cards), melds and takes written from each card's text."""
    if isinstance(action, Meld):
        try:
            return "meld " + _groups_text(action.groups)
        except (ValueError, IndexError, TypeError):
            return format_action(action)  # what format_action says of a card or rank that is none
    if isinstance(action, TakePile):
        try:
            if action.onto or action.new:
                return format_action(action)
            take = "take-pile"
            if action.with_cards:
                take += " with " + format_cards(action.with_cards)
            if action.melds:
                take += " meld " + _groups_text(action.melds)
            return take
        except (ValueError, IndexError, TypeError):
            return format_action(action)
    kind = type(action)
    if kind is Discard or kind in _SIMPLE:
        text = _NOTATION.get(action)
        if text is None:
            text = format_action(action)
            if not isinstance(action, Discard) or is_valid(action.card):
                _NOTATION[action] = text
        return text
    return format_action(action)


__all__ = ["notation"]
