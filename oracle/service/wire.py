"""Protobuf wire-format primitives for the request path's fast conversions (varints, packed card lists).

The request path reads a message's canonical bytes (what upb's SerializeToString gives: every repeated card list
packed, each singular field once) and writes an answer's bytes for upb to parse; both are exact for the encodings
they accept and refuse everything else by raising WireError (ValueError), so the caller falls back to the
message-based conversion and nothing the caller sees changes.
"""

from __future__ import annotations

from collections.abc import Sequence

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
UINT32_MAX = (1 << 32) - 1
_SMALL = tuple(bytes((i,)) for i in range(128))  #: the one-byte varints


#: The bytes of the seats and sides read from one request's state or view (each field's length and body, without
#: its tag), by the id of the domain value read from them, with that value (kept alive, so the id stays its own):
#: writing the same value back copies its bytes.
Pieces = dict[int, tuple[object, bytes]]


class WireError(ValueError):
    """Bytes (or values) the fast path does not handle: the caller converts through the message API instead."""


def read_varint(data: bytes, pos: int, first: int) -> tuple[int, int]:
    """The rest of a varint whose first byte `first` (>= 0x80) was read just before `pos`: (value, next pos)."""
    value, shift = first & 0x7F, 7
    while True:
        byte = data[pos]  # IndexError on truncated bytes
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift >= 70:
            raise WireError("varint longer than 10 bytes")


def as_int32(value: int) -> int:
    """A varint read as int32 (the low 32 bits, signed), as the protobuf runtime reads an int32 or enum field."""
    value &= UINT32_MAX
    return value - (1 << 32) if value > INT32_MAX else value


def read_cards(data: bytes, start: int, stop: int) -> tuple[int, ...]:
    """The card numbers of a packed repeated Card payload (each read as int32, like the runtime's open enum)."""
    chunk = data[start:stop]
    if chunk.isascii():  # every card a one-byte varint: the bytes are the numbers
        return tuple(chunk)
    out = []
    pos = 0
    end = len(chunk)
    while pos < end:
        value = chunk[pos]
        pos += 1
        if value & 0x80:
            value, pos = read_varint(chunk, pos, value)
        out.append(as_int32(value))
    return tuple(out)


def varint(value: int) -> bytes:
    """A non-negative varint, or a negative int as the runtime writes an int32 (ten bytes, two's complement)."""
    if 0 <= value < 128:
        return _SMALL[value]
    if 0 < value < 0x4000:
        return bytes(((value & 0x7F) | 0x80, value >> 7))
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def int32(value: int) -> bytes:
    """An int32 or enum field's varint; WireError for a value the runtime would refuse."""
    if 0 <= value < 128:
        return _SMALL[value]
    if not INT32_MIN <= value <= INT32_MAX:
        raise WireError(f"{value} is out of int32 range")
    return varint(value)


def uint32(value: int) -> bytes:
    """A uint32 field's varint; WireError for a value the runtime would refuse."""
    if 0 <= value < 128:
        return _SMALL[value]
    if not 0 <= value <= UINT32_MAX:
        raise WireError(f"{value} is out of uint32 range")
    return varint(value)


def packed_cards(tag: bytes, cards: Sequence[int]) -> bytes:
    """A packed repeated Card field (tag, length, one byte per card); empty for no cards. WireError for a card
    number that is not one byte (the message API writes those)."""
    if not cards:
        return b""
    try:
        raw = bytes(cards)
    except (ValueError, TypeError):
        raise WireError("a card number outside 0..255") from None
    if not raw.isascii():
        raise WireError("a card number above 127")
    return tag + varint(len(raw)) + raw


def length_delimited(tag: bytes, body: bytes) -> bytes:
    """A message or string field: tag, length, body (written even when empty: a message that is set)."""
    return tag + varint(len(body)) + body


def text(tag: bytes, value: str) -> bytes:
    """A string field, omitted when empty (proto3); UnicodeEncodeError (a ValueError) for text the runtime
    refuses."""
    if not value:
        return b""
    body = value.encode("utf-8")
    return tag + varint(len(body)) + body


__all__ = [
    "Pieces",
    "WireError",
    "as_int32",
    "int32",
    "length_delimited",
    "packed_cards",
    "read_cards",
    "read_varint",
    "text",
    "uint32",
    "varint",
]
