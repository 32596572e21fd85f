"""Shrinks a failing fuzz request while it still fails the same way: fields cleared, list entries dropped, bytes cut.

Greedy and bounded: each candidate is one call to the server, and the search
stops after `budget` calls or `seconds`, keeping the smallest request that
still failed.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from google.protobuf.message import Message

M = TypeVar("M", bound=Message)
T = TypeVar("T")
Path = tuple[tuple[str, int | None], ...]  #: how to reach a sub-message: (field, index in a list or None) per step


def signature(faults: tuple[str, ...]) -> str:
    """What kind of failure an answer is, numbers left out ("code INTERNAL", "trailers of N bytes ..."), to tell
    whether a smaller request still fails the same way."""
    first = faults[0] if faults else ""
    return re.sub(r"\d+", "N", first.split(":", 1)[0])


class Budget:
    """A count of calls and a time limit shared by one minimisation."""

    def __init__(self, calls: int, seconds: float) -> None:
        self.calls = calls
        self.ends = time.monotonic() + seconds

    def spend(self) -> bool:
        """Take one call from the budget; False once it is spent."""
        self.calls -= 1
        return self.calls >= 0 and time.monotonic() < self.ends


def _nodes(msg: Message, path: Path = ()) -> Iterator[tuple[Path, Message]]:
    yield path, msg
    for field, value in msg.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated:
            for i, sub in enumerate(value):
                yield from _nodes(sub, (*path, (field.name, i)))
        else:
            yield from _nodes(value, (*path, (field.name, None)))


def _resolve(msg: Message, path: Path) -> Message:
    for name, index in path:
        msg = getattr(msg, name) if index is None else getattr(msg, name)[index]
    return msg


def _candidates(msg: M) -> Iterator[M]:
    """Smaller variants of `msg`, biggest cuts first: a field cleared, half a list, one entry of a list alone, a list
    without one entry."""
    for path, node in list(_nodes(msg)):
        for field, value in node.ListFields():
            cuts: list[Callable[[Message], None]] = [functools.partial(_clear, name=field.name)]
            if field.is_repeated and len(value) > 1:
                half = len(value) // 2
                cuts.append(functools.partial(_keep, name=field.name, part=slice(None, half)))
                cuts.append(functools.partial(_keep, name=field.name, part=slice(half, None)))
                # one entry alone: a record whose failing action needs none of the actions before it
                cuts.extend(
                    functools.partial(_keep, name=field.name, part=slice(i, i + 1)) for i in range(min(len(value), 64))
                )
                cuts.extend(functools.partial(_drop, name=field.name, index=i) for i in range(min(len(value), 64)))
            for cut in cuts:
                candidate = type(msg)()
                candidate.CopyFrom(msg)
                cut(_resolve(candidate, path))
                yield candidate


def _clear(node: Message, name: str) -> None:
    node.ClearField(name)


def _keep(node: Message, name: str, part: slice) -> None:
    values = list(getattr(node, name))[part]
    _replace(node, name, values)


def _drop(node: Message, name: str, index: int) -> None:
    values = list(getattr(node, name))
    del values[index]
    _replace(node, name, values)


def _replace(node: Message, name: str, values: list[Any]) -> None:
    container = getattr(node, name)
    copies: list[Any] = []
    for value in values:
        if isinstance(value, Message):
            copy = type(value)()
            copy.CopyFrom(value)
            copies.append(copy)
        else:
            copies.append(value)
    del container[:]
    container.extend(copies)


def minimise_message(msg: M, fails: Callable[[M], bool], budget: Budget) -> M:
    """The smallest variant of `msg` found for which `fails` still holds (greedy: the first smaller one that
    fails is kept and the search starts again from it)."""
    smallest = msg
    improved = True
    while improved:
        improved = False
        for candidate in _candidates(smallest):
            if candidate == smallest:
                continue
            if not budget.spend():
                return smallest
            if fails(candidate):
                smallest, improved = candidate, True
                break
    return smallest


def minimise_bytes(data: bytes, fails: Callable[[bytes], bool], budget: Budget) -> bytes:
    """The shortest variant of `data` found (runs of bytes removed, longest first) for which `fails` holds."""
    chunk = max(1, len(data) // 2)
    while chunk >= 1:
        at, cut = 0, False
        while at < len(data):
            candidate = data[:at] + data[at + chunk :]
            if not budget.spend():
                return data
            if fails(candidate):
                data, cut = candidate, True
            else:
                at += chunk
        if not cut:
            chunk //= 2
    return data


def minimise_list(items: list[T], fails: Callable[[list[T]], bool], budget: Budget) -> list[T]:
    """The shortest sub-list of `items` found (in order) for which `fails` holds: the shortest failing prefix, then
    entries dropped one by one."""
    low, high = 1, len(items)
    while low < high and budget.spend():
        middle = (low + high) // 2
        if fails(items[:middle]):
            high = middle
        else:
            low = middle + 1
    items = items[:high]
    i = 0
    while i < len(items) and len(items) > 1:
        candidate = items[:i] + items[i + 1 :]
        if not budget.spend():
            break
        if fails(candidate):
            items = candidate
        else:
            i += 1
    return items


__all__ = ["Budget", "minimise_bytes", "minimise_list", "minimise_message", "signature"]
