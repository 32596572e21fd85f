"""The gRPC servicer: converts requests, calls the pure core, converts answers and maps errors to status codes."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from oracle.adjudicate import adjudicate
from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc, record_pb2
from oracle.convert import scores_to_proto, table_from_proto
from oracle.convert_game import (
    action_from_proto,
    action_to_proto,
    state_from_proto,
    state_to_proto,
    verdict_to_proto,
)
from oracle.convert_record import deck_source, record_from_proto, report_to_proto
from oracle.deal import deal
from oracle.errors import FieldProblem, InvalidInputError
from oracle.game import deck_order
from oracle.live import LiveGame, OutOfTurnError
from oracle.movegen import count_actions, legal_actions
from oracle.referee import check_action
from oracle.replay import replay
from oracle.ruleset_loader import LoadedRuleSet, RuleBook, SpecError, UnknownRuleSetError
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
    except SpecError as exc:
        status = bad_request_status([FieldProblem(f"{p.origin}.{p.field}" if p.field else p.origin, p.message)
                                     for p in exc.problems])
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
        if ref.WhichOneof("ref") == "inline":
            return self._book.resolve_inline(ref.inline, f"{path}.inline")
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

    async def DealHand(self, request: oracle_pb2.DealHandRequest,
                       context: grpc.aio.ServicerContext) -> oracle_pb2.DealHandResponse:
        """A new hand from a seed or a deck order."""
        def work() -> oracle_pb2.DealHandResponse:
            loaded = self._rule_set(request.rule_set)
            rules = loaded.rules
            order = deck_order(rules, deck_source(request, "deal_hand"))
            totals = list(request.running_totals) or None
            state = deal(rules, order, dealer=request.dealer, running_totals=totals)
            return oracle_pb2.DealHandResponse(state=state_to_proto(state))
        return await _answer(context, work)

    async def ListLegalActions(self, request: oracle_pb2.ListLegalActionsRequest,
                               context: grpc.aio.ServicerContext) -> oracle_pb2.ListLegalActionsResponse:
        """Every legal action of the player to move, canonical and grouped."""
        def work() -> oracle_pb2.ListLegalActionsResponse:
            loaded = self._rule_set(request.rule_set)
            actions = legal_actions(loaded.rules, state_from_proto(request.state))
            return oracle_pb2.ListLegalActionsResponse(actions=[action_to_proto(a) for a in actions],
                                                       counts=record_pb2.ActionCounts(**count_actions(actions)))
        return await _answer(context, work)

    async def Adjudicate(self, request: oracle_pb2.AdjudicateRequest,
                         context: grpc.aio.ServicerContext) -> oracle_pb2.AdjudicateResponse:
        """One action under several rule sets."""
        def work() -> oracle_pb2.AdjudicateResponse:
            rule_sets = ([self._rule_set(ref, f"rule_sets[{i}]") for i, ref in enumerate(request.rule_sets)]
                         or list(self._book))
            result = adjudicate(rule_sets, state_from_proto(request.state), action_from_proto(request.action))
            response = oracle_pb2.AdjudicateResponse()
            for answer in result.answers:
                entry = response.verdicts.add(rule_set_id=answer.rule_set_id, applicable=answer.verdict is not None,
                                              not_applicable=answer.not_applicable)
                if answer.verdict is not None:
                    entry.verdict.CopyFrom(verdict_to_proto(answer.verdict))
            for deciding in result.deciding:
                response.deciding_fields.add(field=deciding.field, values=deciding.values)
            return response
        return await _answer(context, work)

    async def ReplayGame(self, request: oracle_pb2.ReplayGameRequest,
                         context: grpc.aio.ServicerContext) -> oracle_pb2.ReplayGameResponse:
        """Replay a whole record."""
        def work() -> oracle_pb2.ReplayGameResponse:
            record = record_from_proto(request.record)
            loaded = self._book.get(record.rule_set_id)
            report = replay(loaded.rules, record, keep_actions=not request.summary_only)
            return oracle_pb2.ReplayGameResponse(report=report_to_proto(report))
        return await _answer(context, work)

    async def RefereeGame(self, request_iterator: AsyncIterator[oracle_pb2.RefereeGameRequest],
                          context: grpc.aio.ServicerContext) -> AsyncIterator[oracle_pb2.RefereeGameResponse]:
        """Referee a live game for as long as the stream is open."""
        game: LiveGame | None = None
        async for request in request_iterator:
            try:
                response, game = self._referee_step(game, request)
            except (InvalidInputError, UnknownRuleSetError, InvalidStateError) as exc:
                await _answer(context, lambda exc=exc: _raise(exc))
                return
            except Exception:
                log.exception("internal error in RefereeGame")
                await context.abort(grpc.StatusCode.INTERNAL, "internal error in the oracle (a bug; logged)")
                return
            yield response

    def _referee_step(self, game: LiveGame | None, request: oracle_pb2.RefereeGameRequest
                      ) -> tuple[oracle_pb2.RefereeGameResponse, LiveGame | None]:
        kind = request.WhichOneof("kind")
        response = oracle_pb2.RefereeGameResponse()
        try:
            if kind == "start":
                if game is not None:
                    raise OutOfTurnError("the game has already started")
                game = LiveGame.start(self._rule_set(request.start.rule_set, "start.rule_set").rules,
                                      request.start.first_dealer)
                response.verdict.legal = True
            elif game is None:
                raise OutOfTurnError("the first message must be start")
            elif kind == "deal":
                state = game.deal(deck_source(request.deal, "deal"))
                response.verdict.legal = True
                response.state.CopyFrom(state_to_proto(state))
            elif kind == "action":
                verdict = game.act(action_from_proto(request.action))
                response.verdict.CopyFrom(verdict_to_proto(verdict))
                assert game.state is not None
                response.state.CopyFrom(state_to_proto(game.state))
            else:
                raise InvalidInputError([FieldProblem("kind", "empty message: set start, deal or action")])
        except OutOfTurnError as exc:
            response.error = str(exc)
        if game is not None:
            response.totals.extend(game.standing.totals)
            response.game_over = game.standing.over
            if game.standing.winner is not None:
                response.winner = game.standing.winner
        return response, game


def _raise(exc: Exception) -> oracle_pb2.RefereeGameResponse:
    raise exc


__all__ = ["OracleServicer", "bad_request_status"]
