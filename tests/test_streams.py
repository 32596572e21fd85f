"""RefereeGame stream limits and endings over the wire: the idle limit, the message limit, and a client that keeps
writing after the server ended the stream always reads the intended status (never the INTERNAL of grpc issue 36066).

The server runs on its own asyncio loop in a thread; the clients are grpc's asyncio clients on the test's loop, as
the engines that stream actions use them.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from servicer_harness import TIMEOUT, ServicerServer

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc
from oracle.service.limits import Limits

RUNS = 40  #: repetitions of each racy ending (the client-library bug showed in about a quarter of runs)
START = oracle_pb2.RefereeGameRequest(
    start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), first_dealer=0)
)
DEAL = oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=1))
DRAW = oracle_pb2.RefereeGameRequest(action=game_pb2.Action(draw=game_pb2.DrawAction()))
EMPTY = oracle_pb2.RefereeGameRequest()  #: no kind: INVALID_ARGUMENT at `kind`


@pytest.fixture(scope="module")
def server() -> Iterator[ServicerServer]:
    running = ServicerServer(Limits(max_stream_messages=5, stream_idle_seconds=1))
    try:
        yield running
    finally:
        running.close()


class _Ended:
    """An ended aio call as grpc_status.rpc_status.from_call reads it (that function takes a synchronous call)."""

    def __init__(self, code: grpc.StatusCode, details: str, trailing: tuple[tuple[str, bytes | str], ...]) -> None:
        self._code, self._details, self._trailing = code, details, trailing

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[tuple[str, bytes | str], ...]:
        return self._trailing


async def ended(call: grpc.aio.StreamStreamCall) -> tuple[grpc.StatusCode, str, tuple]:
    """Read every answer of a stream, then its code, details and trailing metadata."""
    try:
        async for _ in call:
            pass
    except grpc.aio.AioRpcError:
        pass
    return await call.code(), await call.details(), tuple(await call.trailing_metadata() or ())


# --------------------------------------------------------------------------- limits


def test_a_silent_stream_ends_with_deadline_exceeded_naming_the_idle_limit(server) -> None:
    async def run() -> tuple[grpc.StatusCode, str, int]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = oracle_pb2_grpc.OracleServiceStub(channel).RefereeGame(timeout=TIMEOUT)
            await call.write(START)
            answers = 0
            try:
                while (await call.read()) is not grpc.aio.EOF:  # the start's answer, then silence until the limit
                    answers += 1
            except grpc.aio.AioRpcError:
                pass
            return await call.code(), await call.details(), answers

    code, details, answers = asyncio.run(run())
    assert answers == 1
    assert code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "no message for 1 s; the limit is 1 s" in details


def test_a_stream_that_keeps_talking_is_not_idle(server) -> None:
    async def run() -> tuple[grpc.StatusCode, int]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = oracle_pb2_grpc.OracleServiceStub(channel).RefereeGame(timeout=TIMEOUT)
            answers = 0
            for message in (START, DEAL, DRAW):  # 0.6 s apart: 1.8 s in all, more than the 1 s idle limit
                await call.write(message)
                await call.read()
                answers += 1
                await asyncio.sleep(0.6)
            await call.done_writing()
            return await call.code(), answers

    assert asyncio.run(run()) == (grpc.StatusCode.OK, 3)


def test_the_message_past_the_limit_ends_the_stream_with_invalid_argument(server) -> None:
    async def run() -> tuple[int, grpc.StatusCode, str]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = oracle_pb2_grpc.OracleServiceStub(channel).RefereeGame(
                iter([START, DEAL, DRAW, DRAW, DRAW, DRAW]), timeout=TIMEOUT
            )
            answers = 0
            try:
                async for _ in call:
                    answers += 1
            except grpc.aio.AioRpcError:
                pass
            return answers, await call.code(), await call.details()

    answers, code, details = asyncio.run(run())
    assert answers == 5
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert "message 6: the limit is 5 per stream" in details


# --------------------------------------------------------------------------- a client that keeps writing


async def _generator_client(address: str) -> collections.Counter[str]:
    """Each run: start, a malformed message, then 200 more messages from an async generator as fast as it can."""
    codes: collections.Counter[str] = collections.Counter()
    async with grpc.aio.insecure_channel(address) as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        for _ in range(RUNS):

            async def messages() -> AsyncIterator[oracle_pb2.RefereeGameRequest]:
                yield START
                yield EMPTY
                for _ in range(200):
                    yield DEAL

            code, details, _ = await ended(stub.RefereeGame(messages(), timeout=TIMEOUT))
            codes[code.name] += 1
            if code == grpc.StatusCode.INVALID_ARGUMENT:
                assert "kind: empty message" in details
    return codes


async def _writer_client(address: str) -> collections.Counter[str]:
    """Each run: write start, a malformed message and 200 more with call.write (answers read alongside), then
    half-close; writes that fail after the server's end are ignored, as a client would."""
    codes: collections.Counter[str] = collections.Counter()
    async with grpc.aio.insecure_channel(address) as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        for _ in range(RUNS):
            call = stub.RefereeGame(timeout=TIMEOUT)
            reader = asyncio.ensure_future(ended(call))
            try:
                for message in (START, EMPTY, *[DEAL] * 200):
                    await call.write(message)
                await call.done_writing()
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
                pass
            code, _, _ = await reader
            codes[code.name] += 1
    return codes


@pytest.mark.parametrize("client", [_generator_client, _writer_client], ids=["async-generator", "write-calls"])
def test_a_client_still_writing_always_reads_the_intended_code(server, client) -> None:
    codes = asyncio.run(client(server.address))
    assert codes == {"INVALID_ARGUMENT": RUNS}


def test_the_ended_stream_carries_the_field_path_in_its_details(server) -> None:
    async def run() -> tuple[grpc.StatusCode, str, tuple]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = oracle_pb2_grpc.OracleServiceStub(channel).RefereeGame(iter([START, EMPTY, DEAL]), timeout=TIMEOUT)
            return await ended(call)

    code, details, trailing = asyncio.run(run())
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(_Ended(code, details, trailing))
    assert status is not None, "the status carries no google.rpc details"
    paths = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            paths += [v.field for v in bad.field_violations]
    assert paths == ["kind"]


def test_undecodable_bytes_mid_stream_end_it_with_invalid_argument_for_a_client_still_writing(server) -> None:
    async def run() -> collections.Counter[str]:
        codes: collections.Counter[str] = collections.Counter()
        async with grpc.aio.insecure_channel(server.address) as channel:
            raw = channel.stream_stream("/oracle.api.v1.OracleService/RefereeGame")
            for _ in range(RUNS):

                async def messages() -> AsyncIterator[bytes]:
                    yield START.SerializeToString()
                    yield b"\x0a\x05\x0a"  # a start field whose length runs past the end
                    for _ in range(200):
                        yield DEAL.SerializeToString()

                code, details, _ = await ended(raw(messages(), timeout=TIMEOUT))
                codes[code.name] += 1
                if code == grpc.StatusCode.INVALID_ARGUMENT:
                    assert "do not decode as oracle.api.v1.RefereeGameRequest" in details
        return codes

    assert asyncio.run(run()) == {"INVALID_ARGUMENT": RUNS}
