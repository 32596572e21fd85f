"""Z3 term structures built once per process, in a context kept for them, and copied into each context that asks.

`built_once(name, spec, build)` runs `build` on a recording view of the rule set (footprint.recording) in the
kept context, and keeps what it built with the fields it read and their values; a later ask of the same name,
for a rule set agreeing on every one of those values, gets a copy of the kept terms (term_copy.translated: one
z3 translation) instead of building them again through z3's Python wrapper. Terms are made of their operator
and arguments alone and a copy follows the structure of the terms copied, so a copy is the same terms whoever
asked first and whatever else the kept context holds. Through a caller's recording view the fields compared
are noted as read, so a shared computation that asks is kept by them too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify.budget import in_z3_context
from oracle.verify.footprint import Footprint, Reads, Recording, read_path, recording
from oracle.verify.term_copy import translated

T = TypeVar("T")

_built: dict[str, dict[Footprint, object]] = {}  #: name -> footprint -> the terms built (in _context)
_context: list[z3.Context] = []  #: the one context the kept terms are built in (made on first use)


def _kept_context() -> z3.Context:
    if not _context:
        _context.append(z3.Context())
    return _context[0]


def _found(name: str, spec: ruleset_pb2.RuleSet) -> object | None:
    for footprint, terms in _built.get(name, {}).items():
        if all(read_path(spec, path) == value for path, value in footprint):
            return terms
    return None


def built_once(name: str, spec: ruleset_pb2.RuleSet, build: Callable[[ruleset_pb2.RuleSet], T]) -> T:
    """build(spec)'s terms (dataclasses, tuples, lists and dicts of terms), copied into the default context."""
    terms = _found(name, spec)
    if terms is None:
        reads: Reads = {}
        message = object.__getattribute__(spec, "_message") if isinstance(spec, Recording) else spec
        with in_z3_context(_kept_context()):
            terms = build(recording(message, reads))
        _built.setdefault(name, {})[tuple(reads.items())] = terms
        _found(name, spec)  # through a caller's recording view: its footprint notes the fields read
    return cast(T, translated(terms, z3.main_ctx()))


def forget() -> None:
    """Drop every kept structure (tests)."""
    _built.clear()


__all__ = ["built_once", "forget"]
