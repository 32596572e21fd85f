"""The gRPC servicer: runs each call's rule work in the worker pool and maps errors to status codes.

The asyncio loop only moves bytes: every call's work (converting, judging,
the inline rule-set lint) runs in a WorkerPool thread with a StopSignal
carrying the call's deadline, so replay and legal-move listing stop with
DEADLINE_EXCEEDED once it passes, and with CANCELLED when the caller leaves.
Small calls of bounded work (CheckAction, ValidateState, ScoreHand,
GetMinimumInitialMeld with a rule set named by id and a request of at most
INLINE_REQUEST_BYTES) are the exception: they run on the loop while they
stay fast (oracle.service.workers.InlineFirst with a pause), which saves the
thread hop that would cost more than their work.
RefereeGame streams have a message limit and an idle limit (Limits) and end
through oracle.service.streams, so a client still writing reads the status;
their messages after the start are small bounded work (one action), judged
on the loop itself unless one proves slow (oracle.service.workers.InlineFirst).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.interrupt import DeadlineExceeded, StopSignal, WorkCancelled
from oracle.ruleset.loader import RuleBook
from oracle.service.decoding import Undecodable
from oracle.service.limits import DEFAULT_LIMITS, Limits
from oracle.service.streams import IdleTimeout, end_stream, next_request
from oracle.service.workers import (
    DEFAULT_LONG_WORKERS,
    DEFAULT_WORKERS,
    INLINE_PAUSE_SECONDS,
    INLINE_REQUEST_BYTES,
    InlineFirst,
    WorkerPool,
)

if TYPE_CHECKING:  # the rules engine is imported when the first call needs it, or by warm_up (see OracleServicer)
    from oracle.games.live import LiveGame
    from oracle.service.api import OracleApi

log = logging.getLogger(__name__)
Response = TypeVar("Response", bound=Message)
_SmallRequest = (
    oracle_pb2.CheckActionRequest
    | oracle_pb2.ValidateStateRequest
    | oracle_pb2.ScoreHandRequest
    | oracle_pb2.GetMinimumInitialMeldRequest
)
Context = grpc.aio.ServicerContext[Any, Any]
INLINE_MESSAGE_BYTES = 1024
"""A RefereeGame message (after its start) up to this size is judged on the event loop (InlineFirst): an action
or a deal of a real game is tens of bytes; a larger one, whatever it holds, goes to the worker pool."""


def status_for(exc: Exception, limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status:
    """The status a call ends with after `exc`: work stopped by its deadline or by the caller, malformed input,
    an unknown rule set or a bad state as status_of says, anything else INTERNAL (a bug: logged)."""
    if isinstance(exc, DeadlineExceeded):
        return status_pb2.Status(
            code=code_pb2.DEADLINE_EXCEEDED, message="the call's deadline passed before the oracle finished the work"
        )
    if isinstance(exc, WorkCancelled):
        return status_pb2.Status(code=code_pb2.CANCELLED, message="the call was cancelled; the work was stopped")
    from oracle.service.api import status_of

    status = status_of(exc, limits)
    if status is None:
        log.error("internal error", exc_info=exc)
        status = status_pb2.Status(code=code_pb2.INTERNAL, message="internal error in the oracle (a bug; logged)")
    return status


class OracleServicer(oracle_pb2_grpc.OracleServiceServicer):
    """Implements oracle.api.v1.OracleService: each unary RPC delegates to OracleApi in a worker pool.

    Calls whose work grows with the request (ReplayGame, ListLegalActions) run in `long_workers` threads, every
    other call and each RefereeGame start in `workers` threads, so cheap calls never wait behind long ones (a
    stream's later messages are judged on the loop, see InlineFirst, or in `workers` threads once one was slow).
    `queued()` is the number of calls waiting for a thread (for metrics); `close()` stops both pools once the
    server has stopped.

    The rules engine (OracleApi and all it imports, a third of a server's start) is loaded by the first work that
    needs it, in a worker thread, or earlier by `warm_up`, which the server starts as soon as it is SERVING: health
    answers while it loads, and the first calls wait for it.
    """

    def __init__(
        self,
        book: RuleBook,
        limits: Limits = DEFAULT_LIMITS,
        workers: int = DEFAULT_WORKERS,
        long_workers: int = DEFAULT_LONG_WORKERS,
    ) -> None:
        self._book = book
        self._limits = limits
        self._engine: OracleApi | None = None
        self._loading = threading.Lock()
        self.workers = WorkerPool(workers)
        self.long_workers = WorkerPool(long_workers)
        self._small = InlineFirst(self.workers, pause_seconds=INLINE_PAUSE_SECONDS)  #: small calls, on the loop

    @property
    def _api(self) -> OracleApi:
        """The calls' implementation (made, importing the rules engine, on first use: call it off the loop)."""
        engine = self._engine
        if engine is None:
            with self._loading:
                if self._engine is None:
                    from oracle.service.api import OracleApi

                    self._engine = OracleApi(self._book, self._limits)
                engine = self._engine
        return engine

    def _load(self, stop: StopSignal | None = None) -> OracleApi:
        return self._api

    def warm_up(self) -> None:
        """Load the rules engine now, in a background thread (calls arriving meanwhile wait for it)."""
        if self._engine is None:
            threading.Thread(target=self._load, name="oracle-warm-up", daemon=True).start()

    def queued(self) -> int:
        """Calls (and stream messages) waiting for a worker thread, in both pools."""
        return self.workers.queued() + self.long_workers.queued()

    def close(self) -> None:
        """Start no more work (call after the server stopped)."""
        self.workers.close()
        self.long_workers.close()

    async def _answer(
        self, context: Context, work: Callable[[StopSignal], Response], *, long: bool = False
    ) -> Response:
        """Run `work` in a pool under the call's deadline; end the call with the status of what it raises."""
        pool = self.long_workers if long else self.workers
        try:
            return await pool.run(work, StopSignal.after(context.time_remaining()))
        except Exception as exc:
            status = status_for(exc, self._limits)
        await context.abort_with_status(rpc_status.to_status(status))
        raise AssertionError("abort_with_status returned")  # pragma: no cover

    async def _answer_small(self, context: Context, request: _SmallRequest, work: Callable[[], Response]) -> Response:
        """`work` on the loop if the request is small (its rule set named by id, at most INLINE_REQUEST_BYTES) and
        the engine is loaded, while such calls stay fast (InlineFirst); else in the pool, as `_answer`."""
        small = (
            self._engine is not None
            and request.rule_set.WhichOneof("ref") != "inline"
            and request.ByteSize() <= INLINE_REQUEST_BYTES
        )
        if not self._small.on_loop(small):
            return await self._answer(context, lambda stop: work())
        try:
            return self._small.run_here(work)  # (no StopSignal: the loop runs it to the end, as it runs everything)
        except Exception as exc:
            status = status_for(exc, self._limits)
        await context.abort_with_status(rpc_status.to_status(status))
        raise AssertionError("abort_with_status returned")  # pragma: no cover

    async def ListRuleSets(
        self, request: oracle_pb2.ListRuleSetsRequest, context: Context
    ) -> oracle_pb2.ListRuleSetsResponse:
        """Every rule set, by id."""
        return await self._answer(context, lambda stop: self._api.ListRuleSets(request))

    async def GetRuleSet(
        self, request: oracle_pb2.GetRuleSetRequest, context: Context
    ) -> oracle_pb2.GetRuleSetResponse:
        """The resolved rule set."""
        return await self._answer(context, lambda stop: self._api.GetRuleSet(request))

    async def ScoreHand(self, request: oracle_pb2.ScoreHandRequest, context: Context) -> oracle_pb2.ScoreHandResponse:
        """Itemised score per side."""
        return await self._answer_small(context, request, lambda: self._api.ScoreHand(request))

    async def GetMinimumInitialMeld(
        self, request: oracle_pb2.GetMinimumInitialMeldRequest, context: Context
    ) -> oracle_pb2.GetMinimumInitialMeldResponse:
        """The minimum for a running total."""
        return await self._answer_small(context, request, lambda: self._api.GetMinimumInitialMeld(request))

    async def ValidateState(
        self, request: oracle_pb2.ValidateStateRequest, context: Context
    ) -> oracle_pb2.ValidateStateResponse:
        """Every inconsistency of a state."""
        return await self._answer_small(context, request, lambda: self._api.ValidateState(request))

    async def CheckAction(
        self, request: oracle_pb2.CheckActionRequest, context: Context
    ) -> oracle_pb2.CheckActionResponse:
        """The verdict on one action."""
        return await self._answer_small(context, request, lambda: self._api.CheckAction(request))

    async def DealHand(self, request: oracle_pb2.DealHandRequest, context: Context) -> oracle_pb2.DealHandResponse:
        """A new hand from a seed or a deck order."""
        return await self._answer(context, lambda stop: self._api.DealHand(request))

    async def ListLegalActions(
        self, request: oracle_pb2.ListLegalActionsRequest, context: Context
    ) -> oracle_pb2.ListLegalActionsResponse:
        """Every legal action of the player to move, canonical and grouped."""
        return await self._answer(context, lambda stop: self._api.ListLegalActions(request, stop), long=True)

    async def Adjudicate(
        self, request: oracle_pb2.AdjudicateRequest, context: Context
    ) -> oracle_pb2.AdjudicateResponse:
        """One action under several rule sets."""
        return await self._answer(context, lambda stop: self._api.Adjudicate(request))

    async def ReplayGame(
        self, request: oracle_pb2.ReplayGameRequest, context: Context
    ) -> oracle_pb2.ReplayGameResponse:
        """Replay a whole record."""
        return await self._answer(context, lambda stop: self._api.ReplayGame(request, stop), long=True)

    async def RefereeGame(
        self, request_iterator: AsyncIterator[oracle_pb2.RefereeGameRequest], context: Context
    ) -> AsyncIterator[oracle_pb2.RefereeGameResponse]:
        """Referee a live game for as long as the stream is open (within the stream limits)."""
        limits = self._limits
        api = self._engine
        if api is None:  # the engine is still loading: wait for it in a worker thread, not on the loop
            api = await self.workers.run(self._load)
        from oracle.service.referee_steps import referee_step

        requests = aiter(request_iterator)
        game: LiveGame | None = None
        full_state = False  #: the start's full_state: every action answered with the whole state too
        received = 0
        runner = InlineFirst(self.workers)
        stop = StopSignal()  #: one for the stream (cancelled with it when a message's work is in the pool)
        while True:
            try:
                request = await next_request(requests, limits.stream_idle_seconds)
            except IdleTimeout as exc:
                message = f"RefereeGame: {exc}; the limit is {limits.stream_idle_seconds} s (start a new stream)"
                status = status_pb2.Status(code=code_pb2.DEADLINE_EXCEEDED, message=message)
                await end_stream(context, status, requests, client_may_write=False)
                return
            if request is None:
                return
            if isinstance(request, Undecodable):
                await end_stream(context, request.status(), requests)
                return
            received += 1
            try:
                if received > limits.max_stream_messages:
                    limit = limits.max_stream_messages
                    raise InvalidInputError([FieldProblem("", f"message {received}: the limit is {limit} per stream")])
                kind = request.WhichOneof("kind")
                if kind == "start" and game is None:
                    full_state = request.start.full_state
                step = functools.partial(referee_step, api, game, request, full_state=full_state)
                # A start may lint an inline rule set: the pool. An action or a deal is one bounded piece of work.
                small = kind != "start" and request.ByteSize() <= INLINE_MESSAGE_BYTES
                response, game = await runner.run(step, stop, small=small)
            except Exception as exc:
                await end_stream(context, status_for(exc, limits), requests)
                return
            yield response


__all__ = ["OracleServicer"]
