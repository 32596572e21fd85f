"""Structure-aware mutation of protobuf requests, walking their descriptors, driven by one random.Random.

Every choice is a call on the Random given, so a run is repeated exactly by
its seed, and hypothesis can drive the same code (st.randoms()) and shrink
the choices. A mutation picks a field by descending from the request into
set sub-messages, then sets an odd value for its type (extreme, negative and
out-of-range numbers, unknown enum numbers, empty and over-long strings),
clears it, or, for a list, drops, repeats, grows or reorders its entries;
message fields also take another valid message of the same type from the
corpus (a 4-player state under a 2-player rule set, say) or a random one
generated from the descriptor.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

M = TypeVar("M", bound=Message)

INT32 = (0, 1, -1, 2, 3, 4, 5, 7, 11, 12, 13, 15, 48, 52, 53, 54, 99, 100, 108, 109, 672, 673, 1000, 5000, 10_001,
         100_000, 1 << 30, 2**31 - 1, -(2**31), -(2**31) + 1, -1000)  # fmt: skip
UINT32 = (0, 1, 2, 3, 10_000, 100_000, 100_001, 2**31, 2**32 - 1)
INT64 = (0, 1, -1, 2**31, 2**53 + 1, 2**63 - 1, -(2**63))
UINT64 = (0, 1, 2, 7, 2**32, 2**53 + 1, 2**63, 2**64 - 1)
FLOATS = (0.0, -1.0, 1e308, float("inf"), float("-inf"), float("nan"))
STRINGS = ("", "x", "classic-2p", "classic-4p", "CLASSIC-2P", "classic-2p ", "six-3x2", "deck.packs", "4P-CLASSIC",
           "rule_set", "a" * 128, "a" * 129, "é" * 65, "a" * 4096, "b" * 4097, "z" * 20_000, "\x00", "%25%00%",
           "line\nbreak", "☃" * 100, "../../etc/passwd", "{0} %s %d", "🂡" * 40)  # fmt: skip
BYTES = (b"", b"\x00", b"\xff" * 64)
MAX_REPEAT = 700  #: the longest run of entries a mutation adds (just over the largest deck any rule set may have)
MAX_DEPTH = 6  #: how deep a random message is generated
MAX_BYTES = 1024 * 1024  #: a mutation that makes a request larger is undone (gRPC refuses 4 MiB and more)
HOW_MANY = (1, 1, 1, 1, 2, 2, 3, 4)  #: how many mutations a request gets (fewer more likely)


class Mutator:
    """Mutates requests; `donors` are valid sub-messages by full type name to splice in (Corpus.donors()), `words`
    strings the server knows (rule-set ids) to set as well as the odd ones."""

    def __init__(self, donors: Mapping[str, Sequence[Message]] | None = None, words: Sequence[str] = ()) -> None:
        self.donors = donors or {}
        self.words = tuple(words)  #: strings that mean something to the server (rule-set ids, field paths)

    # ------------------------------------------------------------------ whole requests

    def mutate(self, message: M, rnd: random.Random, count: int | None = None) -> M:
        """A mutated copy of `message`: `count` mutations (by default 1 to 4, fewer more likely)."""
        out = type(message)()
        out.CopyFrom(message)
        if count is None:
            count = rnd.choice(HOW_MANY)
        for _ in range(count):
            before = out.SerializeToString()
            target, field = self._pick(out, rnd)
            if field is None or rnd.random() < 0.02:
                target.MergeFromString(_unknown_field(rnd))
            else:
                self._mutate_field(target, field, rnd)
            if out.ByteSize() > MAX_BYTES:  # past what gRPC receives: undone (the limit has its own tests)
                out = type(message).FromString(before)
        return out

    def mutate_stream(self, messages: Sequence[M], rnd: random.Random, count: int | None = None) -> list[M]:
        """A mutated copy of a stream of messages: messages mutated, dropped, repeated, swapped, added, cut."""
        out = list(messages)
        if count is None:
            count = rnd.choice(HOW_MANY)
        for _ in range(count):
            op = rnd.randrange(7)
            i = rnd.randrange(len(out)) if out else 0
            if not out or op == 0:
                out.insert(i, self.generate(messages[0].DESCRIPTOR, rnd) if messages else out[i])  # type: ignore[arg-type]
            elif op <= 2:
                out[i] = self.mutate(out[i], rnd, 1)
            elif op == 3:
                del out[i]
            elif op == 4:
                out.insert(i, out[i])
            elif op == 5:
                j = rnd.randrange(len(out))
                out[i], out[j] = out[j], out[i]
            else:
                del out[i + 1 :]
        return out

    def generate(self, descriptor: Descriptor, rnd: random.Random, depth: int = 0) -> Message:
        """A random message of a type: each field set or not, with odd or random values, oneofs one member."""
        msg = message_factory.GetMessageClass(descriptor)()
        chosen = {o.name: rnd.choice(o.fields) for o in descriptor.oneofs if rnd.random() < 0.8}
        for field in descriptor.fields:
            oneof = field.containing_oneof
            if oneof is not None and chosen.get(oneof.name) is not field:
                continue
            if oneof is None and rnd.random() < 0.5:
                continue
            if field.message_type is not None:
                if depth >= MAX_DEPTH:
                    continue
                if field.is_repeated:
                    for _ in range(rnd.randrange(4)):
                        getattr(msg, field.name).add().CopyFrom(self._message_value(field, rnd, depth + 1))
                else:
                    getattr(msg, field.name).CopyFrom(self._message_value(field, rnd, depth + 1))
            elif field.is_repeated:
                getattr(msg, field.name).extend(self._scalar(field, rnd) for _ in range(rnd.randrange(6)))
            else:
                setattr(msg, field.name, self._scalar(field, rnd))
        return msg

    # ------------------------------------------------------------------ choosing a field

    def _pick(self, msg: Message, rnd: random.Random) -> tuple[Message, FieldDescriptor | None]:
        """A field to mutate: descend into set sub-messages (one entry of a list) while a coin says so. None: the
        message has no fields (an unknown one is added)."""
        for _ in range(12):
            present: list[FieldDescriptor] = [f for f, _ in msg.ListFields()]
            every = cast("list[FieldDescriptor]", list(msg.DESCRIPTOR.fields))  # upb and python descriptors
            fields = present if present and rnd.random() < 0.85 else every
            if not fields:
                return msg, None
            field: FieldDescriptor = rnd.choice(fields)
            if field.message_type is None or not field.message_type.fields or rnd.random() < 0.3:
                return msg, field
            value = getattr(msg, field.name)
            if field.is_repeated:
                if not value:
                    return msg, field
                msg = value[rnd.randrange(len(value))]
            elif msg.HasField(field.name):
                msg = value
            else:
                return msg, field
        return msg, None

    # ------------------------------------------------------------------ values

    def _scalar(self, field: FieldDescriptor, rnd: random.Random) -> Any:
        kind = field.cpp_type
        if kind == FieldDescriptor.CPPTYPE_ENUM and field.enum_type is not None:
            numbers = [v.number for v in field.enum_type.values]
            if rnd.random() < 0.6:
                return rnd.choice(numbers)
            return rnd.choice((max(numbers) + 1, -1, 99, 1000, 2**31 - 1, -(2**31)))
        if kind == FieldDescriptor.CPPTYPE_INT32:
            return rnd.choice(INT32) if rnd.random() < 0.7 else rnd.randint(-10, 120)
        if kind == FieldDescriptor.CPPTYPE_UINT32:
            return rnd.choice(UINT32) if rnd.random() < 0.7 else rnd.randint(0, 200)
        if kind == FieldDescriptor.CPPTYPE_INT64:
            return rnd.choice(INT64)
        if kind == FieldDescriptor.CPPTYPE_UINT64:
            return rnd.choice(UINT64) if rnd.random() < 0.7 else rnd.getrandbits(64)
        if kind in (FieldDescriptor.CPPTYPE_DOUBLE, FieldDescriptor.CPPTYPE_FLOAT):
            return rnd.choice(FLOATS)
        if kind == FieldDescriptor.CPPTYPE_BOOL:
            return rnd.random() < 0.5
        if field.type == FieldDescriptor.TYPE_BYTES:
            return rnd.choice(BYTES)
        if self.words and rnd.random() < 0.4:
            return rnd.choice(self.words)
        return rnd.choice(STRINGS)

    def _message_value(self, field: FieldDescriptor, rnd: random.Random, depth: int) -> Message:
        """A valid message of the field's type from the corpus (most often), else a generated one."""
        kind = field.message_type
        if kind is None:
            raise TypeError(f"{field.full_name} is not a message field")
        donors = self.donors.get(kind.full_name)
        if donors and rnd.random() < 0.75:
            return rnd.choice(donors)
        return self.generate(kind, rnd, depth)

    def _entry(self, field: FieldDescriptor, values: Any, rnd: random.Random) -> Any:
        """One entry for a list: a copy of one already there, or a new value."""
        if values and rnd.random() < 0.5:
            return values[rnd.randrange(len(values))]
        if field.message_type is not None:
            return self._message_value(field, rnd, 1)
        return self._scalar(field, rnd)

    # ------------------------------------------------------------------ mutating one field

    def _mutate_field(self, msg: Message, field: FieldDescriptor, rnd: random.Random) -> None:
        if field.is_repeated:
            self._mutate_list(msg, field, rnd)
        elif rnd.random() < 0.15:
            msg.ClearField(field.name)
        elif field.message_type is not None:
            getattr(msg, field.name).CopyFrom(self._message_value(field, rnd, 1))
        else:
            setattr(msg, field.name, self._scalar(field, rnd))

    def _mutate_list(self, msg: Message, field: FieldDescriptor, rnd: random.Random) -> None:
        values = list(getattr(msg, field.name))
        op = rnd.randrange(9)
        if op == 0:
            values.clear()
        elif op == 1 and values:
            del values[rnd.randrange(len(values))]
        elif op == 2 and values:
            values[rnd.randrange(len(values))] = self._entry(field, [], rnd)
        elif op == 3 and values:
            rnd.shuffle(values)
        elif op == 4:
            values = values + values
        elif op == 5:
            n = rnd.choice((2, 3, 10, 53, 109, MAX_REPEAT)) if rnd.random() < 0.5 else rnd.randint(1, 20)
            entry = self._entry(field, values, rnd)
            values[rnd.randint(0, len(values)) : 0] = [entry] * n
        elif op == 6 and values:
            del values[rnd.randrange(len(values)) :]
        else:
            values.insert(rnd.randint(0, len(values)), self._entry(field, values, rnd))
        _set_list(msg, field, values)


def _set_list(msg: Message, field: FieldDescriptor, values: list[Any]) -> None:
    container = getattr(msg, field.name)
    if field.message_type is not None:
        copies = []
        for value in values:
            copy = type(value)()
            copy.CopyFrom(value)
            copies.append(copy)
        del container[:]
        container.extend(copies)
    else:
        del container[:]
        container.extend(values)


def mutate_bytes(data: bytes, rnd: random.Random, count: int | None = None) -> bytes:
    """`data` with 1 to 8 byte edits: a bit flipped, a byte set to an odd value, bytes inserted or deleted, a run
    repeated, or the end cut off (what a broken client or a bad proxy might send)."""
    out = bytearray(data)
    if count is None:
        count = rnd.choice(HOW_MANY) * rnd.choice((1, 1, 2))
    for _ in range(count):
        op = rnd.randrange(6)
        at = rnd.randrange(len(out) + 1)
        if op == 0 and at < len(out):
            out[at] ^= 1 << rnd.randrange(8)
        elif op == 1 and at < len(out):
            out[at] = rnd.choice((0x00, 0x01, 0x7F, 0x80, 0xFF, 0x08, 0x0A, 0x12, rnd.randrange(256)))
        elif op == 2:
            out[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 4)))
        elif op == 3 and at < len(out):
            del out[at : at + rnd.randint(1, 4)]
        elif op == 4 and at < len(out):
            run = out[at : at + rnd.randint(1, 16)]
            out[at:at] = run * rnd.randint(1, 8)
        else:
            del out[at:]
    return bytes(out)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _unknown_field(rnd: random.Random) -> bytes:
    """The wire bytes of one field a receiver does not know: a varint or a short length-delimited value."""
    number = rnd.choice((999, 1000, 5000, 2**29 - 1)) if rnd.random() < 0.5 else rnd.randint(30, 20_000)
    if rnd.random() < 0.5:
        return _varint(number << 3) + _varint(rnd.getrandbits(64))
    payload = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(16)))
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


__all__ = ["Mutator", "mutate_bytes"]
