"""The gRPC servicer: converts requests, calls the pure core, converts answers and maps errors to status codes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.convert import scores_to_proto, table_from_proto
from oracle.convert_game import action_from_proto, state_from_proto, verdict_to_proto
from oracle.errors import FieldProblem, InvalidInputError
from oracle.referee import check_action
from oracle.ruleset_loader import LoadedRuleSet, RuleBook, UnknownRuleSetError
from oracle.scoring import score_hand
from oracle.state_check import InvalidStateError, validate_state

log = logging.getLogger(__name__)
Response = TypeVar("Response", bound=Message)


def bad_request_status(problems: list[FieldProblem]) -> status_pb2.Status:
    """INVALID_ARGUMENT with a google.rpc.BadRequest naming each field."""
    detail = error_details_pb2.BadRequest()
    for problem in problems:
        detail.field_violations.add(field=problem.field, description=problem.description)
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT,
                               message="; ".join(str(p) for p in problems)[:1000])
    status.details.add().Pack(detail)
    return status


def failed_precondition_status(problems: list[FieldProblem]) -> status_pb2.Status:
    """FAILED_PRECONDITION for a state that cannot be judged, with a google.rpc.PreconditionFailure."""
    detail = error_details_pb2.PreconditionFailure()
    for problem in problems:
        detail.violations.add(type="STATE", subject=problem.field, description=problem.description)
    status = status_pb2.Status(code=code_pb2.FAILED_PRECONDITION,
                               message=("the state is inconsistent: " + "; ".join(str(p) for p in problems))[:1000])
    status.details.add().Pack(detail)
    return status


def not_found_status(exc: UnknownRuleSetError) -> status_pb2.Status:
    """NOT_FOUND for an unknown rule set, with a ResourceInfo detail."""
    status = status_pb2.Status(code=code_pb2.NOT_FOUND, message=str(exc))
    status.details.add().Pack(error_details_pb2.ResourceInfo(
        resource_type="oracle.api.v1.RuleSet", resource_name=exc.rule_set_id, description=str(exc)))
    return status


async def _answer(context: grpc.aio.ServicerContext, work: Callable[[], Response]) -> Response:
    """Run the core; turn malformed input and unknown rule sets into status codes, anything else into INTERNAL."""
    try:
        return work()
    except InvalidInputError as exc:
        status = bad_request_status(exc.problems)
    except UnknownRuleSetError as exc:
        status = not_found_status(exc)
    except InvalidStateError as exc:
        status = failed_precondition_status(exc.problems)
    except Exception:
        log.exception("internal error")
        status = status_pb2.Status(code=code_pb2.INTERNAL, message="internal error in the oracle (a bug; logged)")
    await context.abort_with_status(rpc_status.to_status(status))
    raise AssertionError("abort_with_status returned")  # pragma: no cover


class OracleServicer(oracle_pb2_grpc.OracleServiceServicer):
    """Implements oracle.api.v1.OracleService over a RuleBook."""

    def __init__(self, book: RuleBook) -> None:
        self._book = book

    def _rule_set(self, ref: oracle_pb2.RuleSetRef, path: str = "rule_set") -> LoadedRuleSet:
        if not ref.id:
            raise InvalidInputError([FieldProblem(f"{path}.id", "is empty: name a rule set, e.g. 'classic-4p'")])
        return self._book.get(ref.id)

    async def ListRuleSets(self, request: oracle_pb2.ListRuleSetsRequest,
                           context: grpc.aio.ServicerContext) -> oracle_pb2.ListRuleSetsResponse:
        """Every rule set, by id."""
        def work() -> oracle_pb2.ListRuleSetsResponse:
            response = oracle_pb2.ListRuleSetsResponse()
            for loaded in self._book:
                spec = loaded.spec
                response.rule_sets.add(id=spec.id, title=spec.title,
                                       extends=loaded.lineage[1] if len(loaded.lineage) > 1 else "",
                                       seats=spec.players.seats, side_size=spec.players.side_size)
            return response
        return await _answer(context, work)

    async def GetRuleSet(self, request: oracle_pb2.GetRuleSetRequest,
                         context: grpc.aio.ServicerContext) -> oracle_pb2.GetRuleSetResponse:
        """The resolved rule set."""
        def work() -> oracle_pb2.GetRuleSetResponse:
            loaded = self._rule_set(request.rule_set)
            return oracle_pb2.GetRuleSetResponse(rule_set=loaded.spec, lineage=loaded.lineage)
        return await _answer(context, work)

    async def ScoreHand(self, request: oracle_pb2.ScoreHandRequest,
                        context: grpc.aio.ServicerContext) -> oracle_pb2.ScoreHandResponse:
        """Itemised score per side."""
        def work() -> oracle_pb2.ScoreHandResponse:
            loaded = self._rule_set(request.rule_set)
            return scores_to_proto(score_hand(loaded.rules, table_from_proto(request.table)))
        return await _answer(context, work)

    async def GetMinimumInitialMeld(self, request: oracle_pb2.GetMinimumInitialMeldRequest,
                                    context: grpc.aio.ServicerContext) -> oracle_pb2.GetMinimumInitialMeldResponse:
        """The minimum for a running total."""
        def work() -> oracle_pb2.GetMinimumInitialMeldResponse:
            loaded = self._rule_set(request.rule_set)
            minimum, row = loaded.rules.minimum_initial_meld(request.running_total)
            response = oracle_pb2.GetMinimumInitialMeldResponse(minimum=minimum)
            if row is not None:
                response.from_score = row
            return response
        return await _answer(context, work)

    async def ValidateState(self, request: oracle_pb2.ValidateStateRequest,
                            context: grpc.aio.ServicerContext) -> oracle_pb2.ValidateStateResponse:
        """Every inconsistency of a state."""
        def work() -> oracle_pb2.ValidateStateResponse:
            loaded = self._rule_set(request.rule_set)
            problems = validate_state(loaded.rules, state_from_proto(request.state))
            response = oracle_pb2.ValidateStateResponse(valid=not problems)
            for problem in problems:
                response.problems.add(field=problem.field, description=problem.description)
            return response
        return await _answer(context, work)

    async def CheckAction(self, request: oracle_pb2.CheckActionRequest,
                          context: grpc.aio.ServicerContext) -> oracle_pb2.CheckActionResponse:
        """The verdict on one action."""
        def work() -> oracle_pb2.CheckActionResponse:
            loaded = self._rule_set(request.rule_set)
            state = state_from_proto(request.state)
            action = action_from_proto(request.action)
            return verdict_to_proto(check_action(loaded.rules, state, action))
        return await _answer(context, work)


__all__ = ["OracleServicer", "bad_request_status"]
