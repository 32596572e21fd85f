"""Writes a CheckActionResponse's wire bytes directly from a verdict (violations, events, next state, notation).

convert_game.verdict_to_proto parses them once; ValueError or TypeError for a value only the message API writes
(or refuses), and verdict_to_proto then writes the message field by field.
"""

from __future__ import annotations

from typing import cast

from oracle.api.v1 import game_pb2
from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, PileTaken, RedThreeLaid, SidesFormed
from oracle.rules.referee import Verdict
from oracle.rules.view import ViewVerdict
from oracle.rules.violations import Violation
from oracle.service.bounded import bounded_violations
from oracle.service.convert_table import scores_to_proto, table_to_proto
from oracle.service.limits import DEFAULT_LIMITS
from oracle.service.wire import Pieces, int32, length_delimited, packed_cards, text
from oracle.service.wire_write import encode_state, encode_view

_MAX_RULES = 4096  #: the bytes around a violation's explanation kept by (code, field, citations)
_RULES: dict[tuple[str, str, tuple[tuple[str, str], ...]], tuple[bytes, bytes]] = {}


def _number(tag: bytes, value: int) -> bytes:
    """An int32 or enum field, omitted when 0 (proto3)."""
    return tag + int32(value) if value else b""


def _flag(tag: bytes, value: bool) -> bytes:
    """A bool field, omitted when false (proto3)."""
    return tag + b"\x01" if value else b""


def _event_bytes(event: Event) -> bytes:
    """An Event message's bytes: its one field (the kind) and that message's fields."""
    kind = type(event)
    if kind is CardsDrawn:
        drawn = cast(CardsDrawn, event)
        return length_delimited(b"\x0a", _number(b"\x08", drawn.seat) + packed_cards(b"\x12", drawn.cards))
    if kind is RedThreeLaid:
        laid = cast(RedThreeLaid, event)
        body = _number(b"\x08", laid.seat) + _number(b"\x10", laid.card) + _flag(b"\x18", laid.replaced)
        return length_delimited(b"\x12", body)
    if kind is PileTaken:
        taken = cast(PileTaken, event)
        body = _number(b"\x08", taken.seat) + _number(b"\x10", taken.top) + packed_cards(b"\x1a", taken.to_hand)
        return length_delimited(b"\x1a", body)
    if kind is CanastaMade:
        made = cast(CanastaMade, event)
        body = _number(b"\x08", made.side) + packed_cards(b"\x12", made.cards) + _flag(b"\x18", made.natural)
        return length_delimited(b"\x22", body)
    if kind is SidesFormed:
        formed = cast(SidesFormed, event)
        partners = b"".join(int32(seat) for seat in formed.partners)
        body = _number(b"\x08", formed.lone_seat) + (length_delimited(b"\x12", partners) if partners else b"")
        body += b"".join(length_delimited(b"\x1a", packed_cards(b"\x0a", meld)) for meld in formed.melds)
        return length_delimited(b"\x32", body)
    if kind is HandEnded:
        ended = cast(HandEnded, event)
        message = game_pb2.HandEnded(
            reason=cast(game_pb2.HandEnd, int(ended.reason)),
            table=table_to_proto(ended.table),
            scores=scores_to_proto(ended.scores).sides,
        )
        return length_delimited(b"\x2a", message.SerializeToString())
    raise TypeError(f"not an event: {event!r}")


def _rule_bytes(code: str, field: str, cite: tuple[tuple[str, str], ...]) -> tuple[bytes, bytes]:
    """What a violation of one rule writes around its explanation: the code and field before it, the citations
    after it (kept for each rule, up to _MAX_RULES of them: a rule book has few)."""
    key = (code, field, cite)
    found = _RULES.get(key)
    if found is None:
        citations = b"".join(
            length_delimited(b"\x22", text(b"\x0a", source) + text(b"\x12", section)) for source, section in cite
        )
        found = (text(b"\x0a", code) + text(b"\x12", field), citations)
        if len(_RULES) < _MAX_RULES:
            _RULES[key] = found
    return found


def _violation_bytes(violation: Violation) -> bytes:
    """A Violation field's bytes (tag, length, message)."""
    before, after = _rule_bytes(violation.code, violation.field, violation.cite)
    return length_delimited(b"\x12", before + text(b"\x1a", violation.explanation) + after)


def _answer_bytes(legal: bool, verdict: Verdict | None, events: bool, max_violations: int) -> list[bytes]:
    """The legal flag, violations (at most `max_violations`: see bounded_violations) and, when `events`, the
    events of a verdict."""
    parts = [b"\x08\x01" if legal else b""]
    if verdict is not None:
        if verdict.violations:
            for violation in bounded_violations(verdict.violations, max_violations):
                parts.append(_violation_bytes(violation))
        if events:
            for event in verdict.events:
                parts.append(length_delimited(b"\x1a", _event_bytes(event)))
    return parts


def verdict_bytes(
    verdict: Verdict,
    max_violations: int = DEFAULT_LIMITS.max_violations,
    notation: str = "",
    pieces: Pieces | None = None,
) -> bytes:
    """The bytes of the CheckActionResponse verdict_fields writes (with `notation`; `pieces`: the seats and sides
    read from the request, see encode_state); ValueError or TypeError for a value only the message API writes (or
    refuses)."""
    parts = _answer_bytes(verdict.legal, verdict, True, max_violations)
    if verdict.next_state is not None:
        parts.append(length_delimited(b"\x22", encode_state(verdict.next_state, pieces)))
    parts.append(text(b"\x2a", notation))
    return b"".join(parts)


def view_verdict_bytes(
    answer: ViewVerdict, max_violations: int, notation: str = "", pieces: Pieces | None = None
) -> bytes:
    """The bytes of the CheckActionResponse convert_view.view_verdict_fields writes for a verdict from a view (with
    `notation`; `pieces`: the sides read from the request's view, see encode_view); ValueError or TypeError as
    verdict_bytes."""
    parts = _answer_bytes(answer.legal, answer.verdict, answer.events_known, max_violations)
    for unknown in answer.unknowns:
        parts.append(length_delimited(b"\x32", text(b"\x0a", unknown.field) + text(b"\x12", unknown.reason)))
    if answer.next_view is not None:
        parts.append(length_delimited(b"\x3a", encode_view(answer.next_view, pieces)))
    parts.append(text(b"\x2a", notation))
    return b"".join(parts)


__all__ = ["verdict_bytes", "view_verdict_bytes"]
