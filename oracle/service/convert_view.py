"""Converts a player's view (PlayerView) and the answers judged from one between API messages and domain values."""

from __future__ import annotations

from typing import cast

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.model.errors import FieldProblem, Problems
from oracle.model.state import GameState, HandEnd, Phase
from oracle.model.view import PlayerView, SeatView, Unknown
from oracle.rules.view import ViewVerdict
from oracle.service.bounded import bounded_violations
from oracle.service.convert_game import _enum, _turn, _wire, event_to_proto, side_from_message, state_to_proto
from oracle.service.sizes import SizeCheck, check_side_of_seat, check_state
from oracle.service.wire import Pieces
from oracle.service.wire_verdict import view_verdict_bytes
from oracle.service.wire_view import decode_view
from oracle.service.wire_write import encode_view


def check_view_sizes(check: SizeCheck, msg: game_pb2.PlayerView, path: str, deck: int, rule_set: str) -> None:
    """The same bounds as a state's: seats, sides and side_of_seat entries at most max_seats, no card list longer
    than the deck."""
    if not check.count(f"{path}.seats", msg.seats, check.limits.max_seats, "seats"):
        return
    check_side_of_seat(check, msg.side_of_seat, f"{path}.side_of_seat")  # counted where it is, never copied
    seats = [game_pb2.SeatState(hand=msg.hand if i == msg.seat else []) for i in range(len(msg.seats))]
    if len(seats) <= msg.seat:
        seats.append(game_pb2.SeatState(hand=msg.hand))
    shaped = game_pb2.GameState(seats=seats, sides=msg.sides, discard_pile=msg.discard_pile)
    before = len(check.problems)
    check_state(check, shaped, path, deck, rule_set)
    hand = f"{path}.seats[{msg.seat}].hand"
    check.problems[before:] = [
        FieldProblem(f"{path}.hand", p.description) if p.field == hand else p for p in check.problems[before:]
    ]


def view_from_proto(msg: game_pb2.PlayerView, prefix: str = "view") -> PlayerView:
    """The domain view of a PlayerView message (PHASE_UNSPECIFIED is refused): read from its bytes (decode_view),
    through the message when those are unusual or wrong."""
    try:
        return decode_view(msg.SerializeToString())
    except (ValueError, IndexError):
        return view_from_message(msg, prefix)


def view_from_message(msg: game_pb2.PlayerView, prefix: str = "view") -> PlayerView:
    """view_from_proto through the message API, field by field (every problem named with its path)."""
    problems = Problems()
    if msg.phase == 0:
        problems.add(f"{prefix}.phase", "is PHASE_UNSPECIFIED: say where in the turn the player to move is")
    view = PlayerView(
        seat=msg.seat,
        hand=tuple(msg.hand),
        seats=tuple(SeatView(s.hand_count, s.melded_before, s.foot_count) for s in msg.seats),
        sides=tuple(side_from_message(s) for s in msg.sides),
        stock_count=msg.stock_count,
        discard_pile=tuple(msg.discard_pile),
        pile_upcards=msg.pile_upcards,
        seat_to_move=msg.seat_to_move,
        phase=_enum(Phase, msg.phase, f"{prefix}.phase", problems) if msg.phase else Phase.DRAW,
        turn=_turn(msg.turn, f"{prefix}.turn", problems),
        hand_end=_enum(HandEnd, msg.hand_end, f"{prefix}.hand_end", problems),
        went_out_seat=msg.went_out_seat,
        went_out_concealed=msg.went_out_concealed,
        side_of_seat=tuple(msg.side_of_seat),
        hand_number=msg.hand_number or 1,
    )
    problems.raise_if_any()
    return view


def view_to_proto(view: PlayerView) -> game_pb2.PlayerView:
    """The PlayerView message of a domain view (written as bytes and parsed, or field by field for a value the
    bytes do not carry: view_to_proto_fields)."""
    try:
        return game_pb2.PlayerView.FromString(encode_view(view))
    except (ValueError, TypeError):
        return view_to_proto_fields(view)


def view_to_proto_fields(view: PlayerView) -> game_pb2.PlayerView:
    """view_to_proto through the message API, field by field."""
    state = state_to_proto_fields(view)
    return game_pb2.PlayerView(
        seat=view.seat,
        hand=_wire(view.hand),
        seats=[
            game_pb2.SeatView(hand_count=s.hand_count, melded_before=s.melded_before, foot_count=s.foot_count)
            for s in view.seats
        ],
        sides=state.sides,
        stock_count=view.stock_count,
        discard_pile=_wire(view.discard_pile),
        pile_upcards=view.pile_upcards,
        seat_to_move=view.seat_to_move,
        phase=cast(game_pb2.Phase, int(view.phase)),
        turn=state.turn,
        hand_end=cast(game_pb2.HandEnd, int(view.hand_end)),
        went_out_seat=view.went_out_seat,
        went_out_concealed=view.went_out_concealed,
        side_of_seat=view.side_of_seat,
        hand_number=0 if view.hand_number == 1 else view.hand_number,  # 0 (absent) reads as the first hand
    )


def state_to_proto_fields(view: PlayerView) -> game_pb2.GameState:
    """The sides and turn of a view as GameState fields (converted as a state's are)."""
    return state_to_proto(GameState((), view.sides, (), (), turn=view.turn))


def unknowns_to_proto(unknowns: tuple[Unknown, ...] | list[Unknown]) -> list[oracle_pb2.Unknown]:
    """Unknown messages."""
    return [oracle_pb2.Unknown(field=u.field, reason=u.reason) for u in unknowns]


def view_verdict_to_proto(
    answer: ViewVerdict, max_violations: int, notation: str = "", pieces: Pieces | None = None
) -> oracle_pb2.CheckActionResponse:
    """The CheckActionResponse of a verdict from a view: what is known, and the unknowns (with `notation` when
    given). Written as bytes and parsed once (view_verdict_bytes, copying the bytes of the sides in `pieces`, read
    from the request's view); through the message API field by field only for a value the bytes do not carry."""
    try:
        return oracle_pb2.CheckActionResponse.FromString(view_verdict_bytes(answer, max_violations, notation, pieces))
    except (ValueError, TypeError):
        response = view_verdict_fields(answer, max_violations)
        if notation:
            response.notation = notation
        return response


def view_verdict_fields(answer: ViewVerdict, max_violations: int) -> oracle_pb2.CheckActionResponse:
    """view_verdict_to_proto through the message API, field by field."""
    response = oracle_pb2.CheckActionResponse(legal=answer.legal, unknowns=unknowns_to_proto(answer.unknowns))
    if answer.verdict is not None:
        for v in bounded_violations(answer.verdict.violations, max_violations):
            entry = response.violations.add(code=v.code, field=v.field, explanation=v.explanation)
            for source, section in v.cite:
                entry.cite.add(source=source, section=section)
        if answer.events_known:
            response.events.extend(event_to_proto(e) for e in answer.verdict.events)
    if answer.next_view is not None:
        response.next_view.CopyFrom(view_to_proto_fields(answer.next_view))
    return response
