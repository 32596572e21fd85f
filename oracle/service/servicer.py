"""The gRPC servicer: converts requests, calls the pure core, converts answers and maps errors to status codes."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.games.live import LiveGame, OutOfTurnError
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.loader import RuleBook
from oracle.service.api import OracleApi, status_of
from oracle.service.convert_game import state_to_proto, verdict_to_proto
from oracle.service.limits import DEFAULT_LIMITS, Limits

log = logging.getLogger(__name__)
Response = TypeVar("Response", bound=Message)


async def _answer(context: grpc.aio.ServicerContext, work: Callable[[], Response]) -> Response:
    """Run the core; turn malformed input and unknown rule sets into status codes, anything else into INTERNAL."""
    try:
        return work()
    except Exception as exc:
        status = status_of(exc)
        if status is None:
            log.exception("internal error")
            status = status_pb2.Status(code=code_pb2.INTERNAL, message="internal error in the oracle (a bug; logged)")
    await context.abort_with_status(rpc_status.to_status(status))
    raise AssertionError("abort_with_status returned")  # pragma: no cover


class OracleServicer(oracle_pb2_grpc.OracleServiceServicer):
    """Implements oracle.api.v1.OracleService: each unary RPC delegates to OracleApi."""

    def __init__(self, book: RuleBook, limits: Limits = DEFAULT_LIMITS) -> None:
        self._book = book
        self._api = OracleApi(book, limits)

    async def ListRuleSets(
        self, request: oracle_pb2.ListRuleSetsRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ListRuleSetsResponse:
        """Every rule set, by id."""
        return await _answer(context, lambda: self._api.ListRuleSets(request))

    async def GetRuleSet(
        self, request: oracle_pb2.GetRuleSetRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.GetRuleSetResponse:
        """The resolved rule set."""
        return await _answer(context, lambda: self._api.GetRuleSet(request))

    async def ScoreHand(
        self, request: oracle_pb2.ScoreHandRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ScoreHandResponse:
        """Itemised score per side."""
        return await _answer(context, lambda: self._api.ScoreHand(request))

    async def GetMinimumInitialMeld(
        self, request: oracle_pb2.GetMinimumInitialMeldRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.GetMinimumInitialMeldResponse:
        """The minimum for a running total."""
        return await _answer(context, lambda: self._api.GetMinimumInitialMeld(request))

    async def ValidateState(
        self, request: oracle_pb2.ValidateStateRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ValidateStateResponse:
        """Every inconsistency of a state."""
        return await _answer(context, lambda: self._api.ValidateState(request))

    async def CheckAction(
        self, request: oracle_pb2.CheckActionRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.CheckActionResponse:
        """The verdict on one action."""
        return await _answer(context, lambda: self._api.CheckAction(request))

    async def DealHand(
        self, request: oracle_pb2.DealHandRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.DealHandResponse:
        """A new hand from a seed or a deck order."""
        return await _answer(context, lambda: self._api.DealHand(request))

    async def ListLegalActions(
        self, request: oracle_pb2.ListLegalActionsRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ListLegalActionsResponse:
        """Every legal action of the player to move, canonical and grouped."""
        return await _answer(context, lambda: self._api.ListLegalActions(request))

    async def Adjudicate(
        self, request: oracle_pb2.AdjudicateRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.AdjudicateResponse:
        """One action under several rule sets."""
        return await _answer(context, lambda: self._api.Adjudicate(request))

    async def ReplayGame(
        self, request: oracle_pb2.ReplayGameRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ReplayGameResponse:
        """Replay a whole record."""
        return await _answer(context, lambda: self._api.ReplayGame(request))

    async def RefereeGame(
        self, request_iterator: AsyncIterator[oracle_pb2.RefereeGameRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[oracle_pb2.RefereeGameResponse]:
        """Referee a live game for as long as the stream is open."""
        game: LiveGame | None = None
        received = 0
        async for request in request_iterator:
            received += 1
            try:
                if received > self._api.limits.max_stream_messages:
                    limit = self._api.limits.max_stream_messages
                    raise InvalidInputError([FieldProblem("", f"message {received}: the limit is {limit} per stream")])
                response, game = self._referee_step(game, request)
            except Exception as exc:
                status = status_of(exc, self._api.limits)
                if status is None:
                    log.exception("internal error in RefereeGame")
                    status = status_pb2.Status(code=code_pb2.INTERNAL, message="internal error in the oracle (a bug)")
                await context.abort_with_status(rpc_status.to_status(status))
                return
            yield response

    def _referee_step(
        self, game: LiveGame | None, request: oracle_pb2.RefereeGameRequest
    ) -> tuple[oracle_pb2.RefereeGameResponse, LiveGame | None]:
        kind = request.WhichOneof("kind")
        response = oracle_pb2.RefereeGameResponse()
        try:
            if kind == "start":
                if game is not None:
                    raise OutOfTurnError("the game has already started")
                game = self._api.referee_start(request.start)
                response.verdict.legal = True
            elif game is None:
                raise OutOfTurnError("the first message must be start")
            elif kind == "deal":
                state = game.deal(self._api.referee_deck(request.deal, game.rules))
                response.verdict.legal = True
                response.state.CopyFrom(state_to_proto(state))
            elif kind == "action":
                verdict = game.act(self._api.action(request.action, game.rules))
                response.verdict.CopyFrom(verdict_to_proto(verdict, self._api.limits.max_violations))
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


__all__ = ["OracleServicer"]
