"""Builds the state's and view's frozen values for the wire decoders by setting their slots directly (half the work).

A frozen dataclass's generated __init__ sets each field through object.__setattr__; a value with `slots=True` can
have its slots set through their descriptors instead, which is the same object for half the work. That is only
the same object when the class is exactly what this expects: a frozen dataclass with `slots=True`, whose fields
are the names given, all set by the generated __init__ and nothing else (no __post_init__, no other slot). When a
class is not (the model changed), the class itself is the constructor, so the decoder stays right, only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MemberDescriptorType
from typing import Any, TypeVar

from oracle.model.state import GameState, SeatState, SideState
from oracle.model.view import PlayerView, SeatView

T = TypeVar("T")
Setter = Callable[[object, Any], None]
_NEW = object.__new__


def slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Setter, ...] | None:
    """The slot setters of `cls`, in field order, if it is a plain frozen slotted dataclass with fields `names`."""
    fields = getattr(cls, "__dataclass_fields__", None)
    params = getattr(cls, "__dataclass_params__", None)
    init = cls.__dict__.get("__init__")
    if fields is None or params is None or not params.frozen or tuple(fields) != names:
        return None
    if getattr(cls, "__slots__", None) != names or hasattr(cls, "__post_init__") or cls.__mro__[1:] != (object,):
        return None
    if init is None or init.__code__.co_filename != "<string>":  # a hand-written __init__, not the generated one
        return None
    if any(not fields[name].init for name in names):
        return None
    setters = []
    for name in names:
        slot = cls.__dict__.get(name)
        if not isinstance(slot, MemberDescriptorType):
            return None
        setters.append(slot.__set__)
    return tuple(setters)


def slot_constructor(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """A function of the fields `names` (positional, all given) that builds an instance of `cls` by setting its
    slots, when slot_setters accepts the class; else `cls` itself."""
    setters = slot_setters(cls, names)
    if setters is None:
        return cls
    namespace: dict[str, Any] = {"_new": _NEW, "_cls": cls}
    namespace.update((f"_set{i}", setter) for i, setter in enumerate(setters))
    args = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    _set{i}(value, v{i})\n" for i in range(len(names)))
    exec(f"def make({args}):\n    value = _new(_cls)\n{body}    return value\n", namespace)  # as dataclasses does
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    return make


seat_state = slot_constructor(SeatState, ("hand", "melded_before"))
side_state = slot_constructor(SideState, ("melds", "red_threes", "running_total", "unable_after_yes"))
_TURN_AND_END = ("phase", "turn", "hand_end", "went_out_seat", "went_out_concealed")
game_state = slot_constructor(
    GameState, ("seats", "sides", "stock", "discard_pile", "pile_upcards", "seat_to_move", *_TURN_AND_END)
)
seat_view = slot_constructor(SeatView, ("hand_count", "melded_before"))
player_view = slot_constructor(
    PlayerView,
    ("seat", "hand", "seats", "sides", "stock_count", "discard_pile", "pile_upcards", "seat_to_move", *_TURN_AND_END),
)
#: Whether the model's values are as expected (each built slot by slot; a test checks).
FAST = all(make.__name__.startswith("make_") for make in (seat_state, side_state, game_state, seat_view, player_view))


__all__ = [
    "FAST",
    "game_state",
    "player_view",
    "seat_state",
    "seat_view",
    "side_state",
    "slot_constructor",
    "slot_setters",
]
