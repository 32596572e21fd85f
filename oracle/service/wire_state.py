"""Reads a GameState straight from its wire bytes, and counts its sizes on the domain state it gives.

The hot path of every request with a state; anything unusual is WireError and the message-based conversion in
convert_game (state_from_message) reads it instead.
"""

from __future__ import annotations

from oracle.model.state import (
    EMPTY_TURN,
    GameState,
    HandEnd,
    PartnerAnswer,
    Phase,
    SeatState,
    SideState,
    TurnStart,
    TurnState,
)
from oracle.service.wire import (
    Pieces,
    WireError,
    as_int32,
    read_cards,
    read_varint,
)

_PHASES = {int(p): p for p in Phase}
_STARTS = {int(s): s for s in TurnStart}
_ANSWERS = {int(a): a for a in PartnerAnswer}
_HAND_ENDS = {int(h): h for h in HandEnd}
_EMPTY: tuple[int, ...] = ()
#: The most side_of_seat entries (and bytes of one packed run of them) read here; a real state has 3 (one per seat),
#: so longer ones are WireError and the message path's size check (sizes.check_state) names them.
MAX_SIDE_OF_SEAT = 64
_MAX_TURNS = 4096  #: TurnState values kept by their bytes (immutable values: sharing one is sharing a number)
_TURNS: dict[bytes, TurnState] = {b"": EMPTY_TURN}


def packed_run(chunk: bytes) -> tuple[int, ...]:
    """A packed card payload: its bytes are the card numbers when each is one byte (the usual case)."""
    return tuple(chunk) if chunk.isascii() else read_cards(chunk, 0, len(chunk))


def read_side_of_seat(data: bytes, start: int, stop: int, tail: tuple[int, ...]) -> tuple[int, ...]:
    """`tail` followed by the int32 values of the packed side_of_seat payload data[start:stop] (WireError past
    MAX_SIDE_OF_SEAT entries, or a payload longer than that: nothing that long is decoded)."""
    if stop - start > MAX_SIDE_OF_SEAT:
        raise WireError("a side_of_seat longer than the fast path reads")
    values = tail + packed_run(data[start:stop])
    if len(values) > MAX_SIDE_OF_SEAT:
        raise WireError("a side_of_seat longer than the fast path reads")
    return values


def read_one_side_of_seat(data: bytes, pos: int, tail: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """`tail` and one unpacked side_of_seat entry (its varint at data[pos]), and the position after it (WireError
    past MAX_SIDE_OF_SEAT entries)."""
    if len(tail) >= MAX_SIDE_OF_SEAT:
        raise WireError("a side_of_seat longer than the fast path reads")
    value = data[pos]
    pos += 1
    if value & 0x80:
        value, pos = read_varint(data, pos, value)
    return (*tail, as_int32(value)), pos


def _seat(data: bytes, pos: int, end: int) -> SeatState:
    """A SeatState's bytes: the canonical layouts (no field; the hand; the hand then melded_before) read whole,
    anything else field by field."""
    size = end - pos
    if not size:
        return SeatState(_EMPTY, False)
    if data[pos] == 0x0A and size < 0x80:
        count = data[pos + 1]
        if count + 2 == size:
            chunk = data[pos + 2 : end]
            return SeatState(tuple(chunk) if chunk.isascii() else read_cards(chunk, 0, count), False)
        if count + 4 == size and data[end - 2] == 0x10 and data[end - 1] == 0x01:
            chunk = data[pos + 2 : end - 2]
            return SeatState(tuple(chunk) if chunk.isascii() else read_cards(chunk, 0, count), True)
    hand = foot = _EMPTY
    melded = False
    while pos < end:
        tag = data[pos]
        if tag == 0x92 and data[pos + 1] == 0x03:  # foot (field 50: a two-byte tag)
            size = data[pos + 2]
            pos += 3
            if size & 0x80:
                size, pos = read_varint(data, pos, size)
            foot += packed_run(data[pos : pos + size])
            pos += size
        elif tag == 0x0A:  # hand
            size = data[pos + 1]
            pos += 2
            if size & 0x80:
                size, pos = read_varint(data, pos, size)
            hand += packed_run(data[pos : pos + size])
            pos += size
        elif tag == 0x10:  # melded_before
            value = data[pos + 1]
            pos += 2
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            melded = value != 0
        else:
            raise WireError(f"SeatState tag {tag}")
    if pos != end:
        raise WireError("a field past the end of SeatState")
    return SeatState(hand, melded, foot)


def _card_list(data: bytes, pos: int, end: int) -> tuple[int, ...]:
    cards = _EMPTY
    while pos < end:
        if data[pos] != 0x0A:
            raise WireError(f"CardList tag {data[pos]}")
        size = data[pos + 1]
        pos += 2
        if size & 0x80:
            size, pos = read_varint(data, pos, size)
        cards += packed_run(data[pos : pos + size])
        pos += size
    if pos != end:
        raise WireError("a field past the end of CardList")
    return cards


def read_side(data: bytes, pos: int, end: int) -> SideState:
    """The SideState whose bytes are data[pos:end] (the melds most often each one packed run, read whole)."""
    melds: list[tuple[int, ...]] = []
    red = _EMPTY
    total = unable = asks = 0
    while pos < end:
        tag = data[pos]
        if tag == 0x0A:  # melds: a CardList, most often one packed field of one-byte cards (0a L 0a L-2 cards)
            size = data[pos + 1]
            if 2 <= size < 0x80 and data[pos + 2] == 0x0A and data[pos + 3] == size - 2:
                chunk = data[pos + 4 : pos + 2 + size]
                melds.append(tuple(chunk) if chunk.isascii() else read_cards(chunk, 0, len(chunk)))
                pos += 2 + size
                continue
            pos += 2
            if size & 0x80:
                size, pos = read_varint(data, pos, size)
            melds.append(_card_list(data, pos, pos + size))
            pos += size
        elif tag == 0x12:  # red_threes
            size = data[pos + 1]
            pos += 2
            if size & 0x80:
                size, pos = read_varint(data, pos, size)
            red += packed_run(data[pos : pos + size])
            pos += size
        elif tag == 0x18 or tag == 0x20 or tag == 0x28:  # running_total (int32), unable_after_yes, asks (uint32)
            value = data[pos + 1]
            pos += 2
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            if tag == 0x18:
                total = as_int32(value)
            elif tag == 0x20:
                unable = value & 0xFFFFFFFF
            else:
                asks = value & 0xFFFFFFFF
        else:
            raise WireError(f"SideState tag {tag}")
    if pos != end:
        raise WireError("a field past the end of SideState")
    return SideState(tuple(melds), red, total, unable, asks)


def read_turn(data: bytes, pos: int, end: int) -> TurnState:
    """A TurnState's bytes, the same value for the same bytes (a turn has few forms: they are kept, up to
    _MAX_TURNS of them)."""
    key = data[pos:end]
    turn = _TURNS.get(key)
    if turn is None:
        turn = _read_turn(data, pos, end)
        if len(_TURNS) < _MAX_TURNS:
            _TURNS[key] = turn
    return turn


def _read_turn(data: bytes, pos: int, end: int) -> TurnState:
    fields = [0, 0, 0, 0, 0, 0]  # start, melded, added_to_existing, made_canasta, partner_answer, melds_before_turn
    while pos < end:
        tag = data[pos]
        if tag & 7 or not 0x08 <= tag <= 0x30:
            raise WireError(f"TurnState tag {tag}")
        value = data[pos + 1]
        pos += 2
        if value & 0x80:
            value, pos = read_varint(data, pos, value)
        fields[(tag >> 3) - 1] = value
    if pos != end:
        raise WireError("a field past the end of TurnState")
    start = _STARTS.get(as_int32(fields[0]))
    answer = _ANSWERS.get(as_int32(fields[4]))
    if start is None or answer is None:
        raise WireError("a TurnState enum value the domain does not have")
    return TurnState(start, fields[1] != 0, fields[2] != 0, fields[3] != 0, answer, as_int32(fields[5]))


def decode_state(data: bytes, pieces: Pieces | None = None) -> GameState:
    """The domain state of a GameState's canonical bytes, equal to what state_from_proto makes of the message.

    WireError (or IndexError for truncated bytes) for anything else: an unknown field, an enum value the domain
    does not have, PHASE_UNSPECIFIED, a repeated singular message. The message path reports those.

    With `pieces`, each seat and side read is recorded with its field's bytes, for wire_write.encode_state to
    copy when the same value is written back (a next state shares the seats and sides an action leaves alone).
    """
    seats: list[SeatState] = []
    sides: list[SideState] = []
    stock = pile = side_of_seat = _EMPTY
    scalars = [0] * 12  # by field number: pile_upcards 5, seat_to_move 6, phase 7, hand_end 9, 10, 11
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
                raise WireError("a length past the end of GameState")
            if tag == 0x0A:
                seat = _seat(data, pos, stop)
                seats.append(seat)
                if pieces is not None:
                    pieces[id(seat)] = (seat, data[field + 1 : stop])
            elif tag == 0x12:
                side = read_side(data, pos, stop)
                sides.append(side)
                if pieces is not None:
                    pieces[id(side)] = (side, data[field + 1 : stop])
            elif tag == 0x1A:
                stock += packed_run(data[pos:stop])
            elif tag == 0x22:
                pile += packed_run(data[pos:stop])
            elif tag == 0x42 and turn is None:
                turn = read_turn(data, pos, stop)
            elif tag == 0x62:  # side_of_seat, packed
                side_of_seat = read_side_of_seat(data, pos, stop, side_of_seat)
            else:
                raise WireError(f"GameState tag {tag}")
            pos = stop
        elif tag & 7 == 0 and 0x28 <= tag <= 0x58 and tag != 0x40:
            value = data[pos + 1]
            pos += 2
            if value & 0x80:
                value, pos = read_varint(data, pos, value)
            scalars[tag >> 3] = value
        elif tag == 0x60:  # side_of_seat, one entry unpacked (the runtime reads both encodings)
            side_of_seat, pos = read_one_side_of_seat(data, pos + 1, side_of_seat)
        else:
            raise WireError(f"GameState tag {tag}")
    if pos != end:
        raise WireError("a field past the end of GameState")
    phase = _PHASES.get(as_int32(scalars[7]))
    hand_end = _HAND_ENDS.get(as_int32(scalars[9]))
    if phase is None or hand_end is None:
        raise WireError("a GameState enum value the domain does not have (or PHASE_UNSPECIFIED)")
    return GameState(
        tuple(seats),
        tuple(sides),
        stock,
        pile,
        as_int32(scalars[5]),
        as_int32(scalars[6]),
        phase,
        EMPTY_TURN if turn is None else turn,
        hand_end,
        as_int32(scalars[10]),
        scalars[11] != 0,
        side_of_seat,
        hand_number or 1,  # 0 (absent) reads as the first hand
    )


def state_within(state: GameState, deck: int, max_seats: int) -> bool:
    """Whether a state passes every size check of sizes.check_state (the same counts, on the domain state)."""
    seats, sides = state.seats, state.sides
    if len(seats) > max_seats or len(sides) > max_seats or len(state.side_of_seat) > max_seats:
        return False
    longest, total = max(len(state.stock), len(state.discard_pile)), len(state.stock) + len(state.discard_pile)
    for seat in seats:
        size = len(seat.hand)
        total += size + len(seat.foot)
        if size > longest:
            longest = size
        if len(seat.foot) > longest:
            longest = len(seat.foot)
    for side in sides:
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


__all__ = [
    "MAX_SIDE_OF_SEAT",
    "decode_state",
    "packed_run",
    "read_one_side_of_seat",
    "read_side",
    "read_side_of_seat",
    "read_turn",
    "state_within",
]
