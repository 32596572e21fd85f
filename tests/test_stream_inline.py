"""A stream's small messages are judged on the event loop until one proves slow; a start (which may lint an inline
rule set) and large messages always go to a worker thread; the answers are the same either way."""

from __future__ import annotations

import asyncio
import threading
import time
from importlib import resources

import grpc
from servicer_harness import ServicerServer

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.model.interrupt import StopSignal
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.service.workers import InlineFirst, WorkerPool

RULE_SET = "classic-4p"


def test_small_work_runs_on_the_loop_until_a_piece_is_slow_then_in_the_pool() -> None:
    pool = WorkerPool(1)
    slow = threading.Event()

    def work(stop: StopSignal) -> str:
        if slow.is_set():
            busy_until = time.thread_time() + 0.05  # more CPU than the runner allows on the loop
            while time.thread_time() < busy_until:
                pass
        return threading.current_thread().name

    async def scenario() -> list[str]:
        runner = InlineFirst(pool, slow_seconds=0.01)
        stop = StopSignal()
        seen = [await runner.run(work, stop, small=True), await runner.run(work, stop, small=False)]
        slow.set()
        seen.append(await runner.run(work, stop, small=True))  # slow, but already running on the loop
        slow.clear()
        seen.append(await runner.run(work, stop, small=True))  # after a slow piece: the pool
        return seen

    try:
        loop_thread = threading.current_thread().name
        on_loop, large, slow_one, after = asyncio.run(scenario())
    finally:
        pool.close()
    assert on_loop == loop_thread and slow_one == loop_thread
    assert large.startswith("oracle-worker") and after.startswith("oracle-worker")


def test_work_on_the_loop_raises_as_in_the_pool() -> None:
    pool = WorkerPool(1)

    def fails(stop: StopSignal) -> None:
        raise ValueError("no")

    async def scenario() -> list[str]:
        runner = InlineFirst(pool)
        errors = []
        for small in (True, False):
            try:
                await runner.run(fails, StopSignal(), small=small)
            except ValueError as exc:
                errors.append(str(exc))
        return errors

    try:
        assert asyncio.run(scenario()) == ["no", "no"]
    finally:
        pool.close()


def test_a_stream_start_lints_its_inline_rule_set_in_a_worker_thread_and_its_actions_are_judged() -> None:
    threads: list[str] = []

    def checker(rules: CompiledRules) -> list[tuple[str, str]]:
        threads.append(threading.current_thread().name)
        return []

    book = RuleBook.from_directory(resources.files("oracle.specs"), checker=checker)
    threads.clear()  # the shipped rule sets were checked while loading, on this thread
    server = ServicerServer(book=book)
    start = oracle_pb2.RefereeGameRequest()
    start.start.rule_set.inline.extends = RULE_SET
    deal = oracle_pb2.RefereeGameRequest()
    deal.deal.seed = 7
    draw = oracle_pb2.RefereeGameRequest(action_text="draw")
    try:
        with grpc.insecure_channel(server.address) as channel:
            answers = list(oracle_pb2_grpc.OracleServiceStub(channel).RefereeGame(iter([start, deal, draw, draw])))
    finally:
        server.close()
    assert threads and all(name.startswith("oracle-worker") for name in threads)
    assert [a.verdict.legal for a in answers[:3]] == [True, True, True]
    assert answers[1].HasField("state") and not answers[2].HasField("state")  # a deal has the state, an action not
    assert not answers[3].verdict.legal and answers[3].verdict.violations  # a second draw: judged, refused
