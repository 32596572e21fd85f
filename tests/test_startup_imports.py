"""What a server loads before it says SERVING: no metrics library without a metrics port, no multiprocessing for one
process, and the rules engine only afterwards (in the background), with the first calls answered all the same."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import grpc

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.ruleset.loader import default_rule_book
from oracle.service.config import ServeConfig
from oracle.service.server import start_server

TIMEOUT = 30.0
DEFERRED = ("prometheus_client", "multiprocessing", "oracle.service.api", "oracle.games.live", "oracle.rules.referee")


def test_the_server_module_imports_neither_metrics_nor_multiprocessing_nor_the_rules_engine() -> None:
    probe = "import json, sys\nimport oracle.service.server\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    loaded = set(json.loads(done.stdout))
    assert [m for m in DEFERRED if m in loaded] == []


def test_calls_right_after_serving_are_answered_while_the_engine_loads() -> None:
    async def scenario() -> tuple[int, list[bool]]:
        running = await start_server(default_rule_book(), ServeConfig(port=0, request_log=False))
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
                stub = oracle_pb2_grpc.OracleServiceStub(channel)
                start = oracle_pb2.RefereeGameRequest()
                start.start.rule_set.id = "classic-2p"
                deal = oracle_pb2.RefereeGameRequest()
                deal.deal.seed = 3
                draw = oracle_pb2.RefereeGameRequest(action_text="draw")
                stream = stub.RefereeGame(iter([start, deal, draw]), timeout=TIMEOUT)
                listed = await stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=TIMEOUT)
                return len(listed.rule_sets), [answer.verdict.legal async for answer in stream]
        finally:
            await running.stop(0)

    count, legal = asyncio.run(scenario())
    assert count > 0 and legal == [True, True, True]
