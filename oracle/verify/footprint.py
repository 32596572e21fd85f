"""Sharing a solver computation between rule sets that agree on every rule-set field it reads (its footprint).

`shared(name, spec, compute)` runs `compute` on a recording view of the
RuleSet message, in a Z3 context of its own (budget.own_z3_context), and keeps
the answer with the fields it read and their values. A later call of the same
name, for a rule set whose fields hold those values, gets the kept answer
without asking the solver anything.

This is sound because `compute` is deterministic: its every step depends only
on the values it has read so far (it sees the rule set only through the
recording view, and Z3 answers the same terms the same way in a fresh
context), so a rule set that agrees on every value read would take the same
steps and read the same fields to the same answer. For the same reason the
answer is the same whichever rule set computed it first, or whether it was
computed in this process at all: a witness (a model Z3 picked) included.

The view notes a scalar field's value, a repeated field as the tuple of its
elements (messages serialised deterministically), and a whole message whose
method is called (HasField, ListFields, ...) as its serialisation. The answer
must be plain data (no Z3 term: those belong to the context that is dropped).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from google.protobuf.message import Message

from oracle.api.v1 import ruleset_pb2
from oracle.verify.budget import own_z3_context

T = TypeVar("T")

Reads = dict[str, object]  #: dotted field path ("" for the whole message) -> the value read
Footprint = tuple[tuple[str, object], ...]

_kept: dict[str, dict[Footprint, object]] = {}  #: name -> footprint -> answer

Kept = list[tuple[str, Footprint, object]]  #: kept answers as (name, footprint, answer), to hand to another process


def _noted(value: object) -> object:
    """A repeated field's value as a comparable tuple (messages serialised), a scalar as itself."""
    if isinstance(value, Message):
        return value.SerializeToString(deterministic=True)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return tuple(_noted(v) for v in value)
    return value


class Recording:
    """A read-only view of a protobuf message that notes each field read, by dotted path, with its value.

    A field is noted on its first read, and its value (a sub-message's view) kept on the view as a plain
    attribute, so the model's many reads of the same numbers cost an attribute lookup after the first.
    """

    def __init__(self, message: Message, path: str, reads: Reads) -> None:
        object.__setattr__(self, "_message", message)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name: str) -> object:  # only for a name not read before (then kept: see below)
        message: Message = object.__getattribute__(self, "_message")
        path: str = object.__getattribute__(self, "_path")
        reads: Reads = object.__getattribute__(self, "_reads")
        value = getattr(message, name)
        here = sys.intern(f"{path}.{name}" if path else name)  # one object per path: pickled once per hand-over
        result: object
        if isinstance(value, Message):
            result = Recording(value, here, reads)
        elif callable(value):  # a method of the message: whatever it reads, the whole message is read
            reads.setdefault(path, _noted(message))
            result = value
        else:
            reads.setdefault(here, _noted(value))
            result = value
        object.__setattr__(self, name, result)  # noted once: a later read finds it without coming here
        return result

    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError(f"a recording view is read-only (setting {name})")

    def __eq__(self, other: object) -> bool:
        raise TypeError("a recording view cannot be compared: read its fields")

    __hash__ = None  # type: ignore[assignment]


def read_path(spec: Message, path: str) -> object:
    """The value a Recording notes for `path` in `spec`."""
    value: object = spec
    for part in path.split(".") if path else ():
        value = getattr(value, part)
    return _noted(value)


def recording(spec: ruleset_pb2.RuleSet, reads: Reads) -> ruleset_pb2.RuleSet:
    """A recording view of `spec`, typed as the message it stands for (it answers every field read)."""
    return cast(ruleset_pb2.RuleSet, Recording(spec, "", reads))


def read_within(spec: ruleset_pb2.RuleSet, fields: Sequence[str], compute: Callable[[ruleset_pb2.RuleSet], T]) -> T:
    """compute(a recording view of spec), refused if it reads a field outside `fields`.

    For an answer kept by the values of `fields` alone (hand.side_hand's tables): a field read beyond them could
    give two rule sets an answer that only one of them has, so it is an error, not a silent share. Inside a
    shared computation the reads are noted here only: the caller reads `fields` through its own view.
    """
    reads: Reads = {}
    message = object.__getattribute__(spec, "_message") if isinstance(spec, Recording) else spec
    answer = compute(recording(message, reads))
    if beyond := sorted(set(reads) - set(fields)):
        raise RuntimeError(f"a computation kept by {len(fields)} fields read others too: {beyond}")
    return answer


def shared(name: str, spec: ruleset_pb2.RuleSet, compute: Callable[[ruleset_pb2.RuleSet], T]) -> T:
    """compute(spec) (plain data), or the answer kept for a rule set that agrees on every field it read."""
    if isinstance(spec, Recording):  # inside another shared computation, which notes what this one reads
        return compute(spec)
    for footprint, answer in _kept.get(name, {}).items():
        if all(read_path(spec, path) == value for path, value in footprint):
            return cast(T, answer)
    reads: Reads = {}
    with own_z3_context():
        answer = compute(recording(spec, reads))
    _kept.setdefault(name, {})[tuple(reads.items())] = answer
    return answer


def keep(name: str, spec: ruleset_pb2.RuleSet, fields: Sequence[str], answer: object) -> None:
    """Keep `answer` under `name` for the rule sets agreeing with `spec` on every one of `fields`: for an answer
    computed outside shared that is a function of those fields' values alone (hand_read's side proofs)."""
    message = object.__getattribute__(spec, "_message") if isinstance(spec, Recording) else spec
    _kept.setdefault(name, {})[tuple((sys.intern(path), read_path(message, path)) for path in fields)] = answer


def kept_answer(name: str, spec: ruleset_pb2.RuleSet) -> object | None:
    """The answer kept under `name` for a rule set agreeing with `spec` on its footprint, or None. Through a
    recording view, the fields compared are noted as read."""
    for footprint, answer in _kept.get(name, {}).items():
        if all(read_path(spec, path) == value for path, value in footprint):
            return answer
    return None


def kept() -> Kept:
    """Every answer this process keeps, to hand to another (adopt): each is a function of its footprint alone."""
    return [(name, footprint, answer) for name, answers in _kept.items() for footprint, answer in answers.items()]


def kept_keys() -> set[tuple[str, Footprint]]:
    """The (name, footprint) of every answer this process keeps: what kept_after leaves out."""
    return {(name, footprint) for name, answers in _kept.items() for footprint in answers}


def kept_after(before: set[tuple[str, Footprint]]) -> Kept:
    """The answers kept since kept_keys gave `before`: what this process computed or was handed since."""
    return [(name, footprint, answer) for name, footprint, answer in kept() if (name, footprint) not in before]


def adopt(answers: Kept) -> None:
    """Keep answers another process computed (kept): the same this process would compute for those footprints."""
    for name, footprint, answer in answers:
        _kept.setdefault(name, {})[footprint] = answer


def forget() -> None:
    """Drop every kept answer (tests)."""
    _kept.clear()


__all__ = [
    "Footprint",
    "Kept",
    "Recording",
    "adopt",
    "forget",
    "keep",
    "kept",
    "kept_after",
    "kept_answer",
    "kept_keys",
    "read_path",
    "read_within",
    "recording",
    "shared",
]
