"""The google.rpc.Status of each expected error of a call (malformed input, unknown rule set, inconsistent state).

Every status fits limits.max_status_bytes of trailers, so a default client always reads it; oracle.service.api
re-exports these for the servicer and the conformance target.
"""

from __future__ import annotations

from google.rpc import code_pb2, error_details_pb2, status_pb2

from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.rules.state_check import InvalidStateError
from oracle.ruleset.loader import SpecError, UnknownRuleSetError
from oracle.service.bounded import bad_request, bounded_status, fit_status, precondition_failure, shorten
from oracle.service.limits import DEFAULT_LIMITS, Limits


def bad_request_status(problems: list[FieldProblem], limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status:
    """INVALID_ARGUMENT with a google.rpc.BadRequest naming each field (grouped, capped, within the trailer size)."""
    return bounded_status(code_pb2.INVALID_ARGUMENT, "", problems, bad_request, limits)


def failed_precondition_status(problems: list[FieldProblem], limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status:
    """FAILED_PRECONDITION for a state that cannot be judged, with a google.rpc.PreconditionFailure."""
    return bounded_status(
        code_pb2.FAILED_PRECONDITION, "the state is inconsistent: ", problems, precondition_failure, limits
    )


def not_found_status(exc: UnknownRuleSetError, limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status:
    """NOT_FOUND for an unknown rule set, with a ResourceInfo detail (the id cut to limits.max_value_chars)."""
    name = shorten(exc.rule_set_id, limits.max_value_chars)
    message = f"unknown rule set '{name}'; known: {', '.join(exc.known)}"
    status = status_pb2.Status(code=code_pb2.NOT_FOUND, message=message)
    status.details.add().Pack(
        error_details_pb2.ResourceInfo(resource_type="oracle.api.v1.RuleSet", resource_name=name, description=message)
    )
    return fit_status(status, limits)


def status_of(exc: Exception, limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status | None:
    """The google.rpc.Status for an expected error (malformed input, unknown rule set, bad state); None for a bug.

    Every status fits limits.max_status_bytes of trailers, so a default client always reads it.
    """
    if isinstance(exc, InvalidInputError):
        return bad_request_status(exc.problems, limits)
    if isinstance(exc, UnknownRuleSetError):
        return not_found_status(exc, limits)
    if isinstance(exc, InvalidStateError):
        return failed_precondition_status(exc.problems, limits)
    if isinstance(exc, SpecError):
        return bad_request_status(
            [FieldProblem(f"{p.origin}.{p.field}" if p.field else p.origin, p.message) for p in exc.problems], limits
        )
    return None


__all__ = ["bad_request_status", "failed_precondition_status", "not_found_status", "status_of"]
