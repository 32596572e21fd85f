"""fast_init: the faster __init__ of frozen slotted dataclasses keeps the dataclass's behaviour exactly."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from oracle.model import actions, events, state
from oracle.model.fast_init import fast_init
from oracle.rules import context, melds, referee


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: tuple[int, ...]
    c: int = 3
    d: list[int] = field(default_factory=list)


@fast_init
@dataclass(frozen=True, slots=True)
class Fast:
    a: int
    b: tuple[int, ...]
    c: int = 3
    d: list[int] = field(default_factory=list)


def _parameters(cls: type) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls.__init__).parameters.values()]


def test_the_same_parameters_defaults_and_factories_as_the_dataclass() -> None:
    plain, fast = _parameters(Plain), _parameters(Fast)
    assert [(n, k) for n, k, _ in plain] == [(n, k) for n, k, _ in fast]
    assert plain[3][2] == fast[3][2] == 3  # c's default
    assert Fast(1, (2,)) == Fast(1, (2,), 3, [])
    assert Fast(1, (2,)).d is not Fast(1, (2,)).d  # a fresh list from the factory each time
    assert Fast(a=1, b=(2,), d=[5]).d == [5]
    assert repr(Fast(1, (2,))) == "Fast(a=1, b=(2,), c=3, d=[])"


def test_errors_and_immutability_are_the_dataclass_ones() -> None:
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'b'"):
        Fast(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'e'"):
        Fast(1, (2,), e=4)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fast(1, (2,)).a = 2  # type: ignore[misc]
    assert hash(Fast(1, (2,), d=())) == hash(Fast(1, (2,), d=()))  # type: ignore[arg-type]


def test_refuses_classes_it_does_not_fit() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(frozen=True, slots=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (Mutable, NoSlots, Post):
        with pytest.raises(TypeError):
            fast_init(cls)


@pytest.mark.parametrize(
    "cls",
    [
        state.GameState,
        state.SeatState,
        state.SideState,
        state.TurnState,
        actions.Meld,
        actions.MeldGroup,
        actions.TakePile,
        actions.Discard,
        events.HandEnded,
        events.CardsDrawn,
        melds.MeldShape,
        referee.Verdict,
        context.Applied,
    ],
)
def test_the_engine_types_keep_their_dataclass_signature(cls: type) -> None:
    """Every field is a parameter in field order; a default is the field's default; a factory field, when left
    out, gets what the factory makes."""
    fields = dataclasses.fields(cls)
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields]
    for f, p in zip(fields, parameters, strict=True):
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default
        elif f.default_factory is dataclasses.MISSING:
            assert p.default is inspect.Parameter.empty
    if cls is state.GameState:
        built = state.GameState((), (), (), ())
        assert built.turn == state.TurnState() and built.turn is not state.GameState((), (), (), ()).turn
