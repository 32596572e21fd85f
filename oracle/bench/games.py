"""Benchmark of whole games: actions judged per second in process, over one RefereeGame stream and as unary
CheckAction calls (each against an echo service with the same payloads, same run), and hands simulated per second."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import Any

import grpc

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.games.deal import deal
from oracle.games.match import dealer_of_hand, deck_order
from oracle.games.replay import GameRecord, replay
from oracle.games.simulate import simulate_game
from oracle.rules.referee import check_action
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import ServeConfig
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_record import record_to_proto
from oracle.service.server import start_server

ECHO_UNARY = "/bench.Echo/Unary"
ECHO_STREAM = "/bench.Echo/Stream"


def _identity(data: bytes) -> bytes:
    return data


async def _echo_unary(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
    return request


async def _echo_stream(requests: Any, context: grpc.aio.ServicerContext[bytes, bytes]) -> Any:
    async for request in requests:
        yield request


async def _start_echo() -> tuple[grpc.aio.Server, int]:
    """An echo service (unary and stream) answering each message with its own bytes."""
    echo = grpc.method_handlers_generic_handler(
        "bench.Echo",
        {
            "Unary": grpc.unary_unary_rpc_method_handler(_echo_unary, _identity, _identity),
            "Stream": grpc.stream_stream_rpc_method_handler(_echo_stream, _identity, _identity),
        },
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((echo,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


class _Servers:
    """The oracle and an echo service on one grpc.aio server, on a loop in a background thread."""

    def __init__(self, book: RuleBook) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.oracle = self._run(start_server(book, ServeConfig(port=0, request_log=False)))
        self.echo_server, self.echo_port = self._run(_start_echo())

    def _run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def close(self) -> None:
        self._run(self.oracle.stop(0))
        self._run(self.echo_server.stop(0))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def _stream_requests(record: GameRecord) -> list[oracle_pb2.RefereeGameRequest]:
    msg = record_to_proto(record)
    requests = [
        oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(
                rule_set=oracle_pb2.RuleSetRef(id=record.rule_set_id), first_dealer=record.first_dealer
            )
        )
    ]
    for hand in msg.hands:
        requests.append(oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=hand.seed)))
        requests.extend(oracle_pb2.RefereeGameRequest(action=a) for a in hand.actions)
    return requests


def _check_requests(book: RuleBook, record: GameRecord, limit: int) -> list[oracle_pb2.CheckActionRequest]:
    """CheckAction requests for the record's first `limit` actions (each with its full state)."""
    rules = book.get(record.rule_set_id).rules
    out: list[oracle_pb2.CheckActionRequest] = []
    for h, hand in enumerate(record.hands):
        state = deal(rules, deck_order(rules, hand.deck), dealer=dealer_of_hand(rules, record.first_dealer, h))
        for action in hand.actions:
            out.append(
                oracle_pb2.CheckActionRequest(
                    rule_set=oracle_pb2.RuleSetRef(id=record.rule_set_id),
                    state=state_to_proto(state),
                    action=action_to_proto(action),
                )
            )
            verdict = check_action(rules, state, action, validate=False)
            if verdict.next_state is None or len(out) >= limit:
                return out
            state = verdict.next_state
        break  # one hand: later hands start from other running totals
    return out


def run(rule_set_id: str = "classic-2p", games: int = 3, unary_calls: int = 300) -> list[str]:
    """Measure and describe: in-process replay, stream vs echo stream, unary CheckAction vs echo unary, simulation."""
    book = default_rule_book()
    rules = book.get(rule_set_id).rules
    lines = [f"rule set {rule_set_id}"]
    start = time.perf_counter()
    records = [simulate_game(rules, seed).record for seed in range(games)]
    elapsed = time.perf_counter() - start
    hands = sum(len(r.hands) for r in records)
    actions = sum(len(h.actions) for r in records for h in r.hands)
    lines.append(f"simulate: {hands} hands ({actions} actions) in {elapsed:.2f} s = {hands / elapsed:.1f} hands/s")
    start = time.perf_counter()
    for record in records:
        replay(rules, record, keep_actions=False)
    elapsed = time.perf_counter() - start
    lines.append(f"in process: {actions / elapsed:,.0f} actions judged/s ({elapsed / actions * 1e6:.1f} µs each)")
    servers = _Servers(book)
    try:
        with (
            grpc.insecure_channel(f"127.0.0.1:{servers.oracle.port}") as oracle_channel,
            grpc.insecure_channel(f"127.0.0.1:{servers.echo_port}") as echo_channel,
        ):
            stub = oracle_pb2_grpc.OracleServiceStub(oracle_channel)
            echo_stream = echo_channel.stream_stream(ECHO_STREAM, _identity, _identity)
            echo_unary = echo_channel.unary_unary(ECHO_UNARY, _identity, _identity)
            requests = [r for record in records for r in _stream_requests(record)]
            payloads = [r.SerializeToString() for r in requests]

            def timed_stream(call: Any, items: list[Any]) -> float:
                begin = time.perf_counter()
                count = sum(1 for _ in call(iter(items), timeout=600))
                assert count == len(items)
                return len(items) / (time.perf_counter() - begin)

            # one stream per game for the oracle (a stream holds one game)
            begin = time.perf_counter()
            for record in records:
                reqs = _stream_requests(record)
                assert sum(1 for _ in stub.RefereeGame(iter(reqs), timeout=600)) == len(reqs)
            oracle_rate = len(requests) / (time.perf_counter() - begin)
            echo_rate = timed_stream(echo_stream, payloads)
            lines.append(
                f"one stream: {oracle_rate:,.0f} messages/s; echo stream {echo_rate:,.0f}/s;"
                f" ratio {oracle_rate / echo_rate:.2f}"
            )
            checks = _check_requests(book, records[0], unary_calls)
            check_payloads = [c.SerializeToString() for c in checks]
            begin = time.perf_counter()
            for c in checks:
                stub.CheckAction(c, timeout=30)
            oracle_unary = len(checks) / (time.perf_counter() - begin)
            begin = time.perf_counter()
            for p in check_payloads:
                echo_unary(p, timeout=30)
            echo_unary_rate = len(check_payloads) / (time.perf_counter() - begin)
            mean_size = sum(map(len, check_payloads)) // len(check_payloads)
            lines.append(
                f"unary CheckAction: {oracle_unary:,.0f} calls/s; echo {echo_unary_rate:,.0f}/s;"
                f" ratio {oracle_unary / echo_unary_rate:.2f} (mean request {mean_size} bytes)"
            )
    finally:
        servers.close()
    return lines
