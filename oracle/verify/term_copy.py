"""Copying a structure of Z3 terms (dataclasses, tuples, lists and dicts of them) into another context at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TypeVar, cast

import z3

T = TypeVar("T")


def translated(value: T, ctx: z3.Context) -> T:
    """`value` (terms, or dataclasses, tuples, lists and dicts of them) with every term copied into `ctx`.

    The terms go over in one vector (one z3 translation, their shared subterms copied once), and each copy is
    wrapped in the class of its original: z3's own wrapping asks the solver each term's kind and sort, which was
    most of the cost of a copy.
    """
    terms: list[z3.ExprRef] = []
    _leaves(value, terms)
    if not terms:
        return value
    vector = z3.AstVector(ctx=terms[0].ctx)
    for term in terms:
        vector.push(term)
    copied = vector.translate(ctx)
    copies = iter([type(t)(z3.z3core.Z3_ast_vector_get(ctx.ref(), copied.vector, i), ctx) for i, t in enumerate(terms)])
    return cast(T, _rebuilt(value, copies))


def _leaves(value: object, terms: list[z3.ExprRef]) -> None:
    """Append the terms of `value` to `terms`, in the order _rebuilt takes them back."""
    if isinstance(value, z3.ExprRef):
        terms.append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _leaves(getattr(value, f.name), terms)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _leaves(v, terms)
    elif isinstance(value, dict):
        for v in value.values():
            _leaves(v, terms)


def _rebuilt(value: object, copies: Iterator[z3.ExprRef]) -> object:
    """`value` with each term replaced by the next of `copies` (in _leaves' order)."""
    if isinstance(value, z3.ExprRef):
        return next(copies)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value, **{f.name: _rebuilt(getattr(value, f.name), copies) for f in dataclasses.fields(value)}
        )
    if isinstance(value, tuple):
        return tuple(_rebuilt(v, copies) for v in value)
    if isinstance(value, list):
        return [_rebuilt(v, copies) for v in value]
    if isinstance(value, dict):
        return {k: _rebuilt(v, copies) for k, v in value.items()}
    return value


__all__ = ["translated"]
