"""Resolves a request's inline rule set and reports each of its problems at a path in the request."""

from __future__ import annotations

import re

from oracle.api.v1 import ruleset_pb2
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.loader import LoadedRuleSet, RuleBook, SpecError, SpecProblem
from oracle.service.limits import Limits

_NOTE = re.compile(r"rules\[\d+\]")


def resolve_inline(book: RuleBook, spec: ruleset_pb2.RuleSet, where: str, limits: Limits) -> LoadedRuleSet:
    """The inline rule set at request path `where`, validated and compiled; its problems raise InvalidInputError
    at paths under `where`, also those of values it inherits from the rule set it extends."""
    try:
        return book.resolve_inline(spec, where, limits.rule_set_maximums())
    except SpecError as exc:
        raise InvalidInputError([_request_problem(p, spec, where) for p in exc.problems]) from None


def _request_problem(problem: SpecProblem, spec: ruleset_pb2.RuleSet, where: str) -> FieldProblem:
    """The problem at its path in the request: a value or note inherited from a spec file is named at the path
    where the inline rule set would override it, and the message says which file it comes from."""
    inherited = problem.origin != where
    message = problem.message.removesuffix(f" (in rule set '{spec.id or 'inline'}', which extends this file)")
    field = problem.field
    if inherited and _NOTE.match(field):  # a note of the base (its index is the base file's): the list
        message = f"the inherited note {field}: {message}"
        field = "rules"
    if inherited:
        place = problem.origin + (f":{problem.line}" if problem.line else "")
        message += f" (the value comes from {place}, which this rule set extends; set it here to override it)"
    return FieldProblem(f"{where}.{field}" if field else where, message)


__all__ = ["resolve_inline"]
