"""Conditions into a Z3 solver and integers out of its models, with fewer calls through z3's Python wrapper.

z3's add converts each condition to a Boolean term, asking the solver its
sort, and a model's eval wraps its answer in a new term object (asking its
kind and sort) before as_long reads the number: about 7 of the 17
microseconds of an assertion, and 13 of the 17 of a value read. verify
asserts tens of thousands of conditions and reads tens of thousands of values
over the shipped rule sets, so these go straight to z3's C API for the
common case, with the same calls in the same order (the same assertions, so
the same answers and models). A condition that is not a Boolean term of the
solver's context goes through add, which converts it or raises; a value is
read only from a term of the model's context (z3's eval would read a term of
another context as if it were its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import z3
from z3 import z3core


def assert_all(solver: z3.Solver, conditions: Iterable[object]) -> None:
    """solver.add(*conditions): the same assertions in the same order.

    A Boolean term of the solver's own context goes straight to the solver; anything else (a Python bool, a term
    of another context, a non-Boolean term) goes through add, which converts it or raises.
    """
    ctx = solver.ctx
    ref, handle = ctx.ref(), solver.solver
    for condition in conditions:
        if isinstance(condition, z3.BoolRef) and condition.ctx is ctx:
            z3core.Z3_solver_assert(ref, handle, condition.ast)
        else:
            solver.add(condition)


def _completed(model: z3.ModelRef, term: z3.ExprRef, out: z3core.Ast) -> None:
    """Evaluate `term` in `model`, completed, into out[0] (the model's context owns the result until its next call)."""
    if not z3core.Z3_model_eval(model.ctx.ref(), model.model, term.ast, True, out):
        raise z3.Z3Exception(f"the model cannot evaluate {term}")


def _own(model: z3.ModelRef, term: object, kind: type[z3.ExprRef], what: str) -> z3.ExprRef:
    """`term`, checked to be a `kind` term of the model's context (z3's eval would read any other as its own)."""
    if not isinstance(term, kind):
        raise TypeError(f"a model's {what} is read from a {kind.__name__} term, got {term!r}")
    if term.ctx is not model.ctx:
        raise z3.Z3Exception(f"{term} belongs to another Z3 context than the model")
    return term


def int_values(model: z3.ModelRef, terms: Sequence[z3.ArithRef]) -> list[int]:
    """Each integer term's value in `model`, completed (a count the model leaves free is 0, as eval gives it).

    A term that is not arithmetic, or of another context, is refused (TypeError, Z3Exception), and a value that is
    not an integer is a ValueError naming the term.
    """
    ref = model.ctx.ref()
    out = (z3core.Ast * 1)()
    values = []
    for term in terms:
        _completed(model, _own(model, term, z3.ArithRef, "integer"), out)
        text = z3core.Z3_get_numeral_string(ref, out[0])
        try:
            values.append(int(text))
        except ValueError:
            raise ValueError(f"{term} is {text} in the model, not an integer") from None
    return values


def true_in(model: z3.ModelRef, condition: z3.BoolRef) -> bool:
    """Whether `condition` is true in `model`, completed (z3.is_true of its completed eval); a condition that is
    not Boolean, or of another context, is refused."""
    out = (z3core.Ast * 1)()
    _completed(model, _own(model, condition, z3.BoolRef, "truth"), out)
    return bool(z3core.Z3_get_bool_value(model.ctx.ref(), out[0]) == z3.Z3_L_TRUE)


__all__ = ["assert_all", "int_values", "true_in"]
