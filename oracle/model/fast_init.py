"""A faster __init__ for frozen slotted dataclasses: each field set through its slot's own setter.

A frozen dataclass's generated __init__ sets every field with
``object.__setattr__(self, name, value)`` (its own __setattr__ refuses), about
100 ns a field; the rules build a state, a turn and a seat on most actions,
so that is a good part of judging one. ``fast_init`` swaps in an __init__ of
the same signature (same parameters, defaults and factories) that calls each
slot's member-descriptor setter directly, about half the cost. The instances
are the same in every other way: still frozen, same eq, hash and repr.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_NO_VALUE = object()  #: a parameter whose default comes from a factory was not given


def fast_init(cls: type[T]) -> type[T]:
    """Replace the __init__ of `cls` (a frozen dataclass with slots, no __post_init__, InitVar or init=False
    field) by one that sets the slots directly; returns `cls`. TypeError for a class it does not fit."""
    if not (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__ and cls.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__")
    namespace: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    args, body = [], []
    for f in dataclasses.fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is not an __init__ parameter")
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
            body.append(f"    _set_{f.name}(self, {f.name})")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_NO_VALUE")
            body.append(f"    _set_{f.name}(self, _factory_{f.name}() if {f.name} is _NO_VALUE else {f.name})")
        else:
            args.append(f.name)
            body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(args)}) -> None:\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, namespace)  # the same technique dataclasses uses to write __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - assigning a method: mypy refuses the attribute form
    return cls
