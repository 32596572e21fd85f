"""Writes a GameState's wire bytes directly (the next state of every legal verdict).

WireError for a value only the message API writes, so convert_game.fill_state writes the message field by field
instead.
"""

from __future__ import annotations

from oracle.model.state import GameState, TurnState
from oracle.service.wire import Pieces, WireError, int32, uint32, varint

_LONGEST = 120  #: card lists up to this long are written with one-byte lengths (the message header included)
#: A seat's header by hand size: SeatState tag and length, then the hand's tag and length (melded_before after).
_SEAT = tuple(bytes((0x0A, n + 2, 0x0A, n)) if n else b"\x0a\x00" for n in range(_LONGEST))
_SEAT_MELDED = tuple(bytes((0x0A, n + 4, 0x0A, n)) if n else b"\x0a\x02" for n in range(_LONGEST))
#: A meld's header by size: the melds tag and length, then the CardList's cards tag and length.
_MELD = _SEAT
_RED = tuple(bytes((0x12, n)) for n in range(_LONGEST))
_STOCK = tuple(bytes((0x1A, n)) for n in range(_LONGEST))
_PILE = tuple(bytes((0x22, n)) for n in range(_LONGEST))
_MAX_TURNS = 4096  #: TurnState bytes kept by value (a turn has few forms)
_TURNS: dict[TurnState, bytes] = {}
_NONE: Pieces = {}


def _turn_bytes(turn: TurnState) -> bytes:
    data = _TURNS.get(turn)
    if data is not None:
        return data
    parts = []
    if turn.start:
        parts.append(b"\x08" + int32(turn.start))
    if turn.melded:
        parts.append(b"\x10\x01")
    if turn.added_to_existing:
        parts.append(b"\x18\x01")
    if turn.made_canasta:
        parts.append(b"\x20\x01")
    if turn.partner_answer:
        parts.append(b"\x28" + int32(turn.partner_answer))
    if turn.melds_before_turn:
        parts.append(b"\x30" + int32(turn.melds_before_turn))
    body = b"".join(parts)
    data = b"\x42" + varint(len(body)) + body
    if len(_TURNS) < _MAX_TURNS:
        _TURNS[turn] = data
    return data


def encode_state(state: GameState, pieces: Pieces | None = None) -> bytes:
    """The bytes of the GameState message fill_state writes for `state` (parsed, the same message).

    A seat or side that is a value recorded in `pieces` (read from the request by wire_state.decode_state) is
    written as the bytes it was read from. WireError for a value the fast path does not write (a card number
    above 127, a card list longer than _LONGEST, a number out of its field's range): the message API then writes
    it, raising as it always did.
    """
    known = pieces or _NONE
    try:
        parts: list[bytes] = []
        cards: list[bytes] = []  # every card list, checked at once: each card one byte
        add, card = parts.append, cards.append
        for seat in state.seats:
            piece = known.get(id(seat))
            if piece is not None and piece[0] is seat:
                add(piece[1])
                continue
            raw = bytes(seat.hand)
            card(raw)
            if seat.melded_before:
                add(_SEAT_MELDED[len(raw)])
                add(raw)
                add(b"\x10\x01")
            else:
                add(_SEAT[len(raw)])
                add(raw)
        for side in state.sides:
            piece = known.get(id(side))
            if piece is not None and piece[0] is side:
                add(piece[1])
                continue
            body: list[bytes] = []
            put = body.append
            for meld in side.melds:
                raw = bytes(meld)
                card(raw)
                put(_MELD[len(raw)])
                put(raw)
            if side.red_threes:
                raw = bytes(side.red_threes)
                card(raw)
                put(_RED[len(raw)])
                put(raw)
            if side.running_total:
                put(b"\x18" + int32(side.running_total))
            if side.unable_after_yes:
                put(b"\x20" + uint32(side.unable_after_yes))
            joined = b"".join(body)
            add(b"\x12" + varint(len(joined)))
            add(joined)
        if state.stock:
            raw = bytes(state.stock)
            card(raw)
            add(_STOCK[len(raw)])
            add(raw)
        if state.discard_pile:
            raw = bytes(state.discard_pile)
            card(raw)
            add(_PILE[len(raw)])
            add(raw)
    except (IndexError, ValueError, TypeError):
        raise WireError("a card list the fast path does not write") from None
    if not b"".join(cards).isascii():
        raise WireError("a card number above 127")
    if state.pile_upcards:
        add(b"\x28" + int32(state.pile_upcards))
    if state.seat_to_move:
        add(b"\x30" + int32(state.seat_to_move))
    if state.phase:
        add(b"\x38" + int32(state.phase))
    add(_turn_bytes(state.turn))
    if state.hand_end:
        add(b"\x48" + int32(state.hand_end))
    if state.went_out_seat:
        add(b"\x50" + int32(state.went_out_seat))
    if state.went_out_concealed:
        add(b"\x58\x01")
    return b"".join(parts)


__all__ = ["encode_state"]
