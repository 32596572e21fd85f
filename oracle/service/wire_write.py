"""Writes a GameState's or PlayerView's wire bytes directly (the next state or view of every legal verdict).

WireError for a value only the message API writes, so convert_game.fill_state (convert_view.view_to_proto) writes
the message field by field instead.
"""

from __future__ import annotations

from collections.abc import Callable

from oracle.model.state import EMPTY_TURN, GameState, SideState, TurnState
from oracle.model.view import PlayerView
from oracle.service.wire import Pieces, WireError, int32, uint32, varint

_LONGEST = 120  #: card lists up to this long are written with one-byte lengths (the message header included)
#: A seat's length and body up to its hand's cards, by hand size (melded_before after the cards).
_SEAT = tuple(bytes((n + 2, 0x0A, n)) if n else b"\x00" for n in range(_LONGEST))
_SEAT_MELDED = tuple(bytes((n + 4, 0x0A, n)) if n else b"\x02" for n in range(_LONGEST))
#: A meld's header by size: the melds tag and length, then the CardList's cards tag and length.
_MELD = tuple(bytes((0x0A, n + 2, 0x0A, n)) if n else b"\x0a\x00" for n in range(_LONGEST))
_RED = tuple(bytes((0x12, n)) for n in range(_LONGEST))
_MAX_TURNS = 4096  #: TurnState bytes kept by value (a turn has few forms)
_TURNS: dict[tuple[int, ...], bytes] = {}
_NONE: Pieces = {}
Add = Callable[[bytes], None]


def _turn_body(turn: TurnState) -> bytes:
    """The turn's length and body (its tag is the caller's), kept by the turn's numbers."""
    if turn is EMPTY_TURN:
        return b"\x00"
    key: tuple[int, ...] = (turn.start, turn.melded, turn.added_to_existing, turn.made_canasta, turn.partner_answer)
    key += (turn.melds_before_turn,)
    data = _TURNS.get(key)
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
    data = varint(len(body)) + body
    if len(_TURNS) < _MAX_TURNS:
        _TURNS[key] = data
    return data


def _cards(add: Add, card: Add, tag: bytes, cards: tuple[int, ...]) -> None:
    """A packed card field (nothing for no cards); its bytes also go to `card` to be checked."""
    if cards:
        raw = bytes(cards)
        card(raw)
        add(tag)
        add(varint(len(raw)))
        add(raw)


def _sides(add: Add, card: Add, tag: bytes, sides: tuple[SideState, ...], known: Pieces) -> None:
    """Each side as a `tag` field: the bytes it was read from when it is in `known`, else written."""
    for side in sides:
        add(tag)
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
        if side.asks:
            put(b"\x28" + uint32(side.asks))
        joined = b"".join(body)
        add(varint(len(joined)))
        add(joined)


def _checked(parts: list[bytes], cards: list[bytes]) -> bytes:
    """The message's bytes, once every card written is known to be one byte (a number below 128)."""
    if not b"".join(cards).isascii():
        raise WireError("a card number above 127")
    return b"".join(parts)


def encode_state(state: GameState, pieces: Pieces | None = None) -> bytes:
    """The bytes of the GameState message fill_state writes for `state` (parsed, the same message).

    A seat or side that is a value recorded in `pieces` (read from the request by wire_state.decode_state) is
    written as the bytes it was read from. WireError for a value the fast path does not write (a card number
    above 127, a card list longer than _LONGEST, a number out of its field's range): the message API then writes
    it, raising as it always did.
    """
    known = pieces or _NONE
    parts: list[bytes] = []
    cards: list[bytes] = []  # every card list, checked at once: each card one byte
    add, card = parts.append, cards.append
    try:
        for seat in state.seats:
            add(b"\x0a")
            piece = known.get(id(seat))
            if piece is not None and piece[0] is seat:
                add(piece[1])
                continue
            raw = bytes(seat.hand)
            card(raw)
            if seat.foot:  # a foot not yet taken up (field 50, after hand and melded_before)
                foot = bytes(seat.foot)
                card(foot)
                body = (b"\x0a" + varint(len(raw)) + raw if raw else b"") + (b"\x10\x01" if seat.melded_before else b"")
                body += b"\x92\x03" + varint(len(foot)) + foot
                add(varint(len(body)))
                add(body)
            elif seat.melded_before:
                add(_SEAT_MELDED[len(raw)])
                add(raw)
                add(b"\x10\x01")
            else:
                add(_SEAT[len(raw)])
                add(raw)
        _sides(add, card, b"\x12", state.sides, known)
        _cards(add, card, b"\x1a", state.stock)
        _cards(add, card, b"\x22", state.discard_pile)
    except (IndexError, ValueError, TypeError):
        raise WireError("a card list the fast path does not write") from None
    if state.pile_upcards:
        add(b"\x28" + int32(state.pile_upcards))
    if state.seat_to_move:
        add(b"\x30" + int32(state.seat_to_move))
    if state.phase:
        add(b"\x38" + int32(state.phase))
    add(b"\x42" + _turn_body(state.turn))
    if state.hand_end:
        add(b"\x48" + int32(state.hand_end))
    if state.went_out_seat:
        add(b"\x50" + int32(state.went_out_seat))
    if state.went_out_concealed:
        add(b"\x58\x01")
    if state.side_of_seat:
        add(b"\x62" + _packed_small(state.side_of_seat))
    if state.hand_number != 1:  # the first hand is written as 0 (absent), which reads as 1
        add(b"\x90\x03" + int32(state.hand_number))
    return _checked(parts, cards)


def encode_view(view: PlayerView, pieces: Pieces | None = None) -> bytes:
    """The bytes of the PlayerView message convert_view.view_to_proto makes of `view` (parsed, the same message);
    a side recorded in `pieces` is written as the bytes it was read from. WireError as encode_state."""
    parts: list[bytes] = []
    cards: list[bytes] = []
    add, card = parts.append, cards.append
    if view.seat:
        add(b"\x08" + int32(view.seat))
    try:
        _cards(add, card, b"\x12", view.hand)
        for seat in view.seats:
            body = (b"\x08" + uint32(seat.hand_count) if seat.hand_count else b"") + (
                b"\x10\x01" if seat.melded_before else b""
            )
            if seat.foot_count:
                body += b"\x90\x03" + uint32(seat.foot_count)
            add(b"\x1a" + varint(len(body)) + body)
        _sides(add, card, b"\x22", view.sides, pieces or _NONE)
        if view.stock_count:
            add(b"\x28" + uint32(view.stock_count))
        _cards(add, card, b"\x32", view.discard_pile)
    except (IndexError, ValueError, TypeError):
        raise WireError("a card list the fast path does not write") from None
    if view.pile_upcards:
        add(b"\x38" + int32(view.pile_upcards))
    if view.seat_to_move:
        add(b"\x40" + int32(view.seat_to_move))
    if view.phase:
        add(b"\x48" + int32(view.phase))
    add(b"\x52" + _turn_body(view.turn))
    if view.hand_end:
        add(b"\x58" + int32(view.hand_end))
    if view.went_out_seat:
        add(b"\x60" + int32(view.went_out_seat))
    if view.went_out_concealed:
        add(b"\x68\x01")
    if view.side_of_seat:
        add(b"\x72" + _packed_small(view.side_of_seat))
    if view.hand_number != 1:  # as encode_state
        add(b"\x90\x03" + int32(view.hand_number))
    return _checked(parts, cards)


def _packed_small(values: tuple[int, ...]) -> bytes:
    """A packed repeated int32 field's length and payload, for values 0..127 (one byte each); WireError else."""
    if len(values) > 127 or not all(0 <= value < 128 for value in values):
        raise WireError("a packed list the fast path does not write")
    return bytes((len(values), *values))


__all__ = ["encode_state", "encode_view"]
