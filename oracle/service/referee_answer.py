"""A RefereeGame answer's verdict written in place (the bytes verdict_to_proto's message would give), and notation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oracle.api.v1 import game_pb2, oracle_pb2
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
from oracle.model.cards import ALL_CARDS, RANKS, format_card, is_valid
from oracle.model.events import CanastaMade, CardsDrawn, Event, PileTaken, RedThreeLaid
from oracle.rules.violations import Violation
from oracle.service.bounded import bounded_violations
from oracle.service.convert_game import event_to_proto


def _cards_drawn(out: game_pb2.Event, event: CardsDrawn) -> None:
    msg = out.cards_drawn
    msg.SetInParent()
    msg.seat = event.seat
    msg.cards.extend(event.cards)  # type: ignore[arg-type]  # at run time a Card is its number


def _red_three_laid(out: game_pb2.Event, event: RedThreeLaid) -> None:
    msg = out.red_three_laid
    msg.SetInParent()
    msg.seat = event.seat
    msg.card = event.card  # type: ignore[assignment]
    msg.replaced = event.replaced


def _pile_taken(out: game_pb2.Event, event: PileTaken) -> None:
    msg = out.pile_taken
    msg.SetInParent()
    msg.seat = event.seat
    msg.top = event.top  # type: ignore[assignment]
    msg.to_hand.extend(event.to_hand)  # type: ignore[arg-type]


def _canasta_made(out: game_pb2.Event, event: CanastaMade) -> None:
    msg = out.canasta_made
    msg.SetInParent()
    msg.side = event.side
    msg.cards.extend(event.cards)  # type: ignore[arg-type]
    msg.natural = event.natural


_FILL: dict[type, Callable[[game_pb2.Event, object], None]] = {
    CardsDrawn: _cards_drawn,  # type: ignore[dict-item]
    RedThreeLaid: _red_three_laid,  # type: ignore[dict-item]
    PileTaken: _pile_taken,  # type: ignore[dict-item]
    CanastaMade: _canasta_made,  # type: ignore[dict-item]
}
"""The frequent events, written into the answer's own Event (event_to_proto's fields); others are converted by
event_to_proto and copied in."""


def fill_verdict(
    out: oracle_pb2.CheckActionResponse,
    legal: bool,
    violations: Sequence[Violation],
    events: Sequence[Event],
    max_violations: int,
) -> None:
    """Write a verdict into `out` (an empty CheckActionResponse inside the answer) as
    `out.CopyFrom(verdict_to_proto(Verdict(legal, violations, events, None), max_violations))` would, without
    building a message apart and copying it."""
    out.legal = legal
    if violations:
        for v in bounded_violations(violations, max_violations):
            entry = out.violations.add(code=v.code, field=v.field, explanation=v.explanation)
            for source, section in v.cite:
                entry.cite.add(source=source, section=section)
    if events:
        added = out.events
        for event in events:
            fill = _FILL.get(type(event))
            if fill is None:
                added.append(event_to_proto(event))
            else:
                fill(added.add(), event)


_SIMPLE = frozenset({Draw, AskPartner, Finish, PickUpPile})
_NOTATION: dict[object, str] = {}
"""The notation of the actions that have few values (draw, ask, ..., and a discard of each card), by action."""
_CARD_TEXT = {card: format_card(card) for card in ALL_CARDS}
_ONTO_TEXT = tuple(f"{rank}: " for rank in RANKS)


def _groups_text(groups: tuple[MeldGroup, ...]) -> str:
    """format_action's text of meld groups (a KeyError for a card that is none)."""
    return ", ".join(
        (_ONTO_TEXT[g.onto_rank] if g.onto_rank is not None else "") + " ".join([_CARD_TEXT[c] for c in g.cards])
        for g in groups
    )


def notation(action: Action) -> str:
    """format_action(action): remembered for the actions that have few values (a bounded set: each card's discard
    and the actions without cards), melds and takes written from each card's text."""
    if isinstance(action, Meld):
        try:
            return "meld " + _groups_text(action.groups)
        except (KeyError, IndexError, TypeError):
            return format_action(action)  # what format_action says of a card or rank that is none
    if isinstance(action, TakePile):
        try:
            take = "take-pile"
            if action.with_cards:
                take += " with " + " ".join([_CARD_TEXT[c] for c in action.with_cards])
            if action.melds:
                take += " meld " + _groups_text(action.melds)
            return take
        except (KeyError, IndexError, TypeError):
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


__all__ = ["fill_verdict", "notation"]
