"""Reads a PlayerView straight from its wire bytes, and counts its sizes on the domain view it gives.

The hot path of every request with a player's view; anything unusual is WireError and convert_view.view_from_proto
reads the message instead (and convert_view.check_view_sizes names the sizes over a limit).
"""

from __future__ import annotations

from oracle.model.state import EMPTY_TURN, HandEnd, Phase, SideState, TurnState
from oracle.model.view import PlayerView, SeatView
from oracle.service.wire import Pieces, WireError, as_int32, read_varint
from oracle.service.wire_state import packed_run, read_one_side_of_seat, read_side, read_side_of_seat, read_turn

_PHASES = {int(p): p for p in Phase if p}  #: PHASE_UNSPECIFIED is refused
_HAND_ENDS = {int(h): h for h in HandEnd}
_EMPTY: tuple[int, ...] = ()
#: PlayerView's varint fields by tag: seat 1, stock_count 5 (uint32), pile_upcards 7, seat_to_move 8, phase 9,
#: hand_end 11, went_out_seat 12, went_out_concealed 13.
_SCALAR_TAGS = frozenset((0x08, 0x28, 0x38, 0x40, 0x48, 0x58, 0x60, 0x68))


def _seat_view(data: bytes, pos: int, end: int) -> SeatView:
    count, melded, foot = 0, 0, 0
    while pos < end:
        tag = data[pos]
        if tag == 0x90 and data[pos + 1] == 0x03:  # foot_count (field 50: a two-byte tag), uint32
            value = data[pos + 2]
            pos += 3
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            foot = value & 0xFFFFFFFF
            continue
        if tag != 0x08 and tag != 0x10:
            raise WireError(f"SeatView tag {tag}")
        value = data[pos + 1]
        pos += 2
        if value & 0x80:
            value, pos = read_varint(data, pos, value)
        if tag == 0x08:
            count = value & 0xFFFFFFFF
        else:
            melded = value
    if pos != end:
        raise WireError("a field past the end of SeatView")
    return SeatView(count, melded != 0, foot)


def decode_view(data: bytes, pieces: Pieces | None = None) -> PlayerView:
    """The domain view of a PlayerView's canonical bytes, equal to what view_from_proto makes of the message.

    WireError (or IndexError for truncated bytes) for anything else: an unknown field, an enum value the domain
    does not have, PHASE_UNSPECIFIED, a repeated singular message. With `pieces`, each side read is recorded with
    its bytes (as decode_state does).
    """
    hand = pile = side_of_seat = _EMPTY
    seats: list[SeatView] = []
    sides: list[SideState] = []
    scalars = [0] * 14  # by field number
    turn: TurnState | None = None
    hand_number = 0
    pos, end = 0, len(data)
    while pos < end:
        tag = data[pos]
        if tag == 0x90 and data[pos + 1] == 0x03:  # hand_number (field 50: a two-byte tag), int32
            value = data[pos + 2]
            pos += 3
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            hand_number = as_int32(value)
        elif tag & 7 == 2:
            field = pos
            size = data[pos + 1]
            pos += 2
            if size & 0x80:
                size, pos = read_varint(data, pos, size)
            stop = pos + size
            if stop > end:
                raise WireError("a length past the end of PlayerView")
            if tag == 0x12:
                hand += packed_run(data[pos:stop])
            elif tag == 0x1A:
                seats.append(_seat_view(data, pos, stop))
            elif tag == 0x22:
                side = read_side(data, pos, stop)
                sides.append(side)
                if pieces is not None:
                    pieces[id(side)] = (side, data[field + 1 : stop])
            elif tag == 0x32:
                pile += packed_run(data[pos:stop])
            elif tag == 0x52 and turn is None:
                turn = read_turn(data, pos, stop)
            elif tag == 0x72:  # side_of_seat, packed
                side_of_seat = read_side_of_seat(data, pos, stop, side_of_seat)
            else:
                raise WireError(f"PlayerView tag {tag}")
            pos = stop
        elif tag in _SCALAR_TAGS:
            value = data[pos + 1]
            pos += 2
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            scalars[tag >> 3] = value
        elif tag == 0x70:  # side_of_seat, one entry unpacked (the runtime reads both encodings)
            side_of_seat, pos = read_one_side_of_seat(data, pos + 1, side_of_seat)
        else:
            raise WireError(f"PlayerView tag {tag}")
    if pos != end:
        raise WireError("a field past the end of PlayerView")
    phase = _PHASES.get(as_int32(scalars[9]))
    hand_end = _HAND_ENDS.get(as_int32(scalars[11]))
    if phase is None or hand_end is None:
        raise WireError("a PlayerView enum value the domain does not have (or PHASE_UNSPECIFIED)")
    return PlayerView(
        as_int32(scalars[1]),
        hand,
        tuple(seats),
        tuple(sides),
        scalars[5] & 0xFFFFFFFF,
        pile,
        as_int32(scalars[7]),
        as_int32(scalars[8]),
        phase,
        EMPTY_TURN if turn is None else turn,
        hand_end,
        as_int32(scalars[12]),
        scalars[13] != 0,
        side_of_seat,
        hand_number or 1,  # 0 (absent) reads as the first hand
    )


def view_within(view: PlayerView, deck: int, max_seats: int) -> bool:
    """Whether a view passes every size check of convert_view.check_view_sizes (the same counts: the view as the
    state of its seats with only its own hand, on the domain view)."""
    seats = len(view.seats)
    if seats > max_seats or seats + (seats <= view.seat) > max_seats or len(view.sides) > max_seats:
        return False
    if len(view.side_of_seat) > max_seats:
        return False
    hand = len(view.hand) if view.seat >= 0 else 0  # check_view_sizes places the hand at seat `seat`, if any
    longest, total = max(hand, len(view.discard_pile)), hand + len(view.discard_pile)
    for side in view.sides:
        if len(side.melds) > deck:
            return False
        size = len(side.red_threes)
        total += size
        if size > longest:
            longest = size
        for meld in side.melds:
            size = len(meld)
            total += size
            if size > longest:
                longest = size
    return longest <= deck and total <= 2 * deck


__all__ = ["decode_view", "view_within"]
