"""Verdicts and events written into an answer in place: the bytes verdict_to_proto and event_to_proto give."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from oracle.api.v1 import game_pb2, oracle_pb2
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
        fill_events(out.events, events)


def fill_events(added: Any, events: Sequence[Event]) -> None:
    """Append `events` to a repeated Event field as `added.extend(event_to_proto(e) for e in events)` would."""
    for event in events:
        fill = _FILL.get(type(event))
        if fill is None:
            added.append(event_to_proto(event))
        else:
            fill(added.add(), event)


__all__ = ["fill_events", "fill_verdict"]
