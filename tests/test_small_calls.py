"""Small unary calls are answered on the event loop while they stay fast; large ones, inline rule sets and calls
before the engine loads go to a worker thread; after a slow one, small calls use the pool for a pause. The call
layers count sizes from the bytes on the wire and write the request log line json.dumps would write."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from servicer_harness import TIMEOUT, ServicerServer

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.model.interrupt import StopSignal
from oracle.service.api import OracleApi
from oracle.service.calls import Call, LayeredInterceptor
from oracle.service.observability import Metrics, RequestLog
from oracle.service.workers import INLINE_REQUEST_BYTES, InlineFirst, WorkerPool

RULE_SET = "classic-4p"
LOOP_THREAD = "servicer-test-server"  #: the name of ServicerServer's loop thread


@pytest.fixture
def threads_of_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ServicerServer, list[str]]]:
    """A served OracleServicer whose engine has loaded, and the thread of each CheckAction's work from then on."""
    seen: list[str] = []
    check = OracleApi.CheckAction

    def recorded(api: OracleApi, request: oracle_pb2.CheckActionRequest) -> oracle_pb2.CheckActionResponse:
        seen.append(threading.current_thread().name)
        return check(api, request)

    monkeypatch.setattr(OracleApi, "CheckAction", recorded)
    server = ServicerServer()
    try:
        yield server, seen
    finally:
        server.close()


def _check(server: ServicerServer, request: oracle_pb2.CheckActionRequest) -> grpc.StatusCode:
    with grpc.insecure_channel(server.address) as channel:
        try:
            oracle_pb2_grpc.OracleServiceStub(channel).CheckAction(request, timeout=TIMEOUT)
        except grpc.RpcError as error:
            return error.code()
    return grpc.StatusCode.OK


def _draw(**ref: Any) -> oracle_pb2.CheckActionRequest:
    request = oracle_pb2.CheckActionRequest(rule_set=oracle_pb2.RuleSetRef(**ref), action_text="draw")
    request.state.seats.add()  # not a consistent state: the verdict does not matter here, where it is reached does
    return request


def test_a_small_check_runs_on_the_loop_once_the_engine_is_loaded(threads_of_checks) -> None:
    server, seen = threads_of_checks
    first = _check(server, _draw(id=RULE_SET))  # the engine loads in a worker thread: the loop never waits for it
    second = _check(server, _draw(id=RULE_SET))
    assert first == second != grpc.StatusCode.OK  # the same answer wherever it is made
    assert seen[0].startswith("oracle-worker") and seen[1] == LOOP_THREAD


def test_a_large_check_and_an_inline_rule_set_go_to_a_worker_thread(threads_of_checks) -> None:
    server, seen = threads_of_checks
    _check(server, _draw(id=RULE_SET))  # loads the engine
    large = _draw(id=RULE_SET)
    large.action_text = "draw " + "x" * INLINE_REQUEST_BYTES
    inline = oracle_pb2.RuleSetRef()
    inline.inline.extends = RULE_SET
    codes = [_check(server, large), _check(server, _draw(inline=inline.inline)), _check(server, _draw(id=RULE_SET))]
    assert grpc.StatusCode.OK not in codes
    assert [name.startswith("oracle-worker") for name in seen[1:]] == [True, True, False], seen


def test_after_a_slow_small_call_small_calls_use_the_pool_for_the_pause_then_the_loop() -> None:
    pool = WorkerPool(1)
    slow = threading.Event()

    def work() -> str:
        if slow.is_set():
            busy_until = time.thread_time() + 0.05  # more CPU than the runner allows on the loop
            while time.thread_time() < busy_until:
                pass
        return threading.current_thread().name

    async def one(runner: InlineFirst) -> str:
        if runner.on_loop(True):
            return runner.run_here(work)
        return await pool.run(lambda stop: work(), StopSignal())

    async def scenario() -> list[str]:
        runner = InlineFirst(pool, slow_seconds=0.01, pause_seconds=0.3)
        seen = [await one(runner)]
        slow.set()
        seen.append(await one(runner))  # slow, on the loop: it ends there
        slow.clear()
        seen.append(await one(runner))  # within the pause: the pool
        await asyncio.sleep(0.4)
        seen.append(await one(runner))  # the pause is over: the loop again
        return seen

    try:
        loop_thread = threading.current_thread().name
        seen = asyncio.run(scenario())
    finally:
        pool.close()
    assert seen[0] == seen[1] == seen[3] == loop_thread
    assert seen[2].startswith("oracle-worker")


def test_a_garbage_collection_during_small_work_does_not_count_as_its_work() -> None:
    pool = WorkerPool(1)

    class Node:
        def __init__(self) -> None:
            self.me = self

    collected: list[int] = []

    async def scenario() -> bool:
        runner = InlineFirst(pool, slow_seconds=0.001, pause_seconds=60.0)
        garbage = [Node() for _ in range(300_000)]  # cycles only a collection frees (many milliseconds of it)
        del garbage
        runner.run_here(lambda: collected.append(gc.collect()))
        return runner.on_loop(True)

    try:
        assert asyncio.run(scenario())
    finally:
        pool.close()
    assert collected and collected[0] >= 300_000


class _Context:
    """What the call layers read of a gRPC context."""

    def __init__(self, peer: str = "ipv4:127.0.0.1:5555") -> None:
        self._peer = peer

    def peer(self) -> str:
        return self._peer

    def code(self) -> None:
        return None

    def cancelled(self) -> bool:
        return False

    def time_remaining(self) -> float:
        return 10.0

    def invocation_metadata(self) -> tuple[()]:
        return ()


def test_the_request_log_line_is_what_json_dumps_writes() -> None:
    stream = io.StringIO()
    log = RequestLog(stream)
    for peer in ("ipv4:127.0.0.1:5555", 'unix:/tmp/a "quoted" \\ path \u00e9'):
        call = Call("/oracle.api.v1.OracleService/CheckAction", False, _Context(peer))
        call.requests, call.request_bytes, call.responses, call.response_bytes = 1, 213, 1, 205
        log.finish(call, grpc.StatusCode.INVALID_ARGUMENT)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        assert line == json.dumps(record)
        assert list(record) == [
            "time",
            "method",
            "code",
            "duration_ms",
            "request_bytes",
            "response_bytes",
            "requests",
            "responses",
            "peer",
        ]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", record["time"]), record["time"]
        assert record["code"] == "INVALID_ARGUMENT" and record["request_bytes"] == 213
    assert json.loads(lines[1])["peer"] == 'unix:/tmp/a "quoted" \\ path \u00e9'


def test_the_interceptor_wraps_a_method_once_and_counts_the_bytes_on_the_wire() -> None:
    metrics = Metrics()
    finished: list[Call] = []

    class Keep:
        def admit(self, call: Call) -> None:
            return None

        def finish(self, call: Call, code: grpc.StatusCode) -> None:
            finished.append(call)

    interceptor = LayeredInterceptor([metrics, Keep()])
    answer = oracle_pb2.GetMinimumInitialMeldResponse(minimum=90)

    async def behaviour(request: oracle_pb2.GetMinimumInitialMeldRequest, context: Any) -> Any:
        assert request.running_total == 1600
        return answer

    raw = grpc.unary_unary_rpc_method_handler(
        behaviour,
        request_deserializer=oracle_pb2.GetMinimumInitialMeldRequest.FromString,
        response_serializer=oracle_pb2.GetMinimumInitialMeldResponse.SerializeToString,
    )

    class Details:
        method = "/oracle.api.v1.OracleService/GetMinimumInitialMeld"
        invocation_metadata = ()

    async def continuation(details: Any) -> Any:
        return raw

    async def scenario() -> list[Any]:
        handlers = [await interceptor.intercept_service(continuation, Details()) for _ in range(2)]
        data = oracle_pb2.GetMinimumInitialMeldRequest(running_total=1600).SerializeToString()
        # the wrapped handler decodes the request's bytes and gives the answer's bytes (gRPC passes both through)
        assert handlers[0].request_deserializer is None and handlers[0].response_serializer is None
        return [*handlers, data, await handlers[0].unary_unary(data, _Context())]

    first, second, data, sent = asyncio.run(scenario())
    assert first is second
    assert sent == answer.SerializeToString()
    (call,) = finished
    assert (call.requests, call.request_bytes, call.responses, call.response_bytes) == (1, len(data), 1, len(sent))
    assert (call.service, call.name) == ("oracle.api.v1.OracleService", "GetMinimumInitialMeld")
    assert metrics.families()[0].samples[0].labels["code"] == "OK"
