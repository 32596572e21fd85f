"""The AdjudicateResponse of an adjudication: one verdict per rule set, and the fields that decide between them."""

from __future__ import annotations

from oracle.api.v1 import oracle_pb2
from oracle.games.adjudicate import Adjudication
from oracle.service.convert_game import verdict_to_proto
from oracle.service.convert_view import view_verdict_to_proto
from oracle.service.limits import Limits


def adjudication_to_proto(result: Adjudication, notation: str, limits: Limits) -> oracle_pb2.AdjudicateResponse:
    """The AdjudicateResponse of an adjudication: each verdict with the action's notation (and from a view, its
    unknowns)."""
    response = oracle_pb2.AdjudicateResponse()
    for answer in result.answers:
        entry = response.verdicts.add(
            rule_set_id=answer.rule_set_id, applicable=answer.applicable, not_applicable=answer.not_applicable
        )
        if answer.view is not None:
            entry.verdict.CopyFrom(view_verdict_to_proto(answer.view, limits.max_violations))
        elif answer.verdict is not None:
            entry.verdict.CopyFrom(verdict_to_proto(answer.verdict, limits.max_violations))
        if answer.applicable:
            entry.verdict.notation = notation
    for deciding in result.deciding:
        response.deciding_fields.add(field=deciding.field, values=deciding.values)
    return response


__all__ = ["adjudication_to_proto"]
