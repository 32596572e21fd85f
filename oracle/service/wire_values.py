"""Builds the state's frozen values for the wire decoder by setting their slots directly (half the cost of __init__).

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


_SEAT = slot_setters(SeatState, ("hand", "melded_before"))
_SIDE = slot_setters(SideState, ("melds", "red_threes", "running_total", "unable_after_yes"))
_STATE = slot_setters(
    GameState,
    (
        "seats",
        "sides",
        "stock",
        "discard_pile",
        "pile_upcards",
        "seat_to_move",
        "phase",
        "turn",
        "hand_end",
        "went_out_seat",
        "went_out_concealed",
    ),
)
FAST = _SEAT is not None and _SIDE is not None and _STATE is not None  #: the model is as expected (a test checks)

seat_state: Callable[[tuple[int, ...], bool], SeatState] = SeatState
side_state: Callable[[tuple[tuple[int, ...], ...], tuple[int, ...], int, int], SideState] = SideState
game_state: Callable[..., GameState] = GameState

if _SEAT is not None:
    _hand, _melded = _SEAT

    def _seat_state(hand: tuple[int, ...], melded_before: bool) -> SeatState:
        seat: SeatState = _NEW(SeatState)
        _hand(seat, hand)
        _melded(seat, melded_before)
        return seat

    seat_state = _seat_state

if _SIDE is not None:
    _melds, _red, _total, _unable = _SIDE

    def _side_state(melds: tuple[tuple[int, ...], ...], red: tuple[int, ...], total: int, unable: int) -> SideState:
        side: SideState = _NEW(SideState)
        _melds(side, melds)
        _red(side, red)
        _total(side, total)
        _unable(side, unable)
        return side

    side_state = _side_state

if _STATE is not None:
    _s0, _s1, _s2, _s3, _s4, _s5, _s6, _s7, _s8, _s9, _s10 = _STATE

    def _game_state(
        seats: Any, sides: Any, stock: Any, pile: Any, upcards: Any, to_move: Any, phase: Any, turn: Any, end: Any,
        out_seat: Any, concealed: Any,
    ) -> GameState:  # fmt: skip
        state: GameState = _NEW(GameState)
        _s0(state, seats)
        _s1(state, sides)
        _s2(state, stock)
        _s3(state, pile)
        _s4(state, upcards)
        _s5(state, to_move)
        _s6(state, phase)
        _s7(state, turn)
        _s8(state, end)
        _s9(state, out_seat)
        _s10(state, concealed)
        return state

    game_state = _game_state


__all__ = ["FAST", "game_state", "seat_state", "side_state", "slot_setters"]
