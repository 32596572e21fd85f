"""A real OracleServer on its own loop in a thread for tests calling it with synchronous stubs, and their fixtures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Coroutine, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, cast

import grpc
import pytest

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc, ruleset_pb2
from oracle.model.actions import Action
from oracle.model.state import GameState
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import ServeConfig
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.server import OracleServer, start_server

RPC_TIMEOUT = 10.0
QUIET = ServeConfig(host="127.0.0.1", port=0, request_log=False)  #: a free port, no request log in test output


class ServerThread:
    """An OracleServer running on its own asyncio loop in a daemon thread."""

    def __init__(self, book: RuleBook, config: ServeConfig = QUIET) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="oracle-test-server", daemon=True)
        self.thread.start()
        self.stop_started = False
        try:
            self.server: OracleServer = self.run(start_server(book, config))
        except BaseException:
            self._stop_loop()
            raise
        self.address = f"{config.host}:{self.server.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Schedule a coroutine on the server loop; returns a concurrent.futures.Future."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = RPC_TIMEOUT) -> Any:
        """Run a coroutine on the server loop and wait for its result."""
        return self.submit(coro).result(timeout)

    def _stop_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        if not self.thread.is_alive():
            self.loop.close()

    def begin_stop(self, grace: float) -> Any:
        """Start OracleServer.stop(grace) on the server loop; returns its concurrent.futures.Future."""
        self.stop_started = True
        return self.submit(self.server.stop(grace))

    def close(self, grace: float = 1.0) -> None:
        """Stop the server (unless a stop was already started) and end the loop."""
        try:
            if not self.stop_started:
                self.begin_stop(grace).result(grace + 10)
        finally:
            if self.thread.is_alive():
                self._stop_loop()


@contextlib.contextmanager
def oracle_stub(book: RuleBook | None = None) -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    """A stub connected to a fresh server of `book` (the shipped rule sets by default), closed afterwards."""
    server = ServerThread(book or default_rule_book())
    channel = grpc.insecure_channel(server.address)
    try:
        yield oracle_pb2_grpc.OracleServiceStub(channel)
    finally:
        channel.close()
        server.close()


@contextlib.contextmanager
def grpc_and_http_server(book: RuleBook | None = None) -> Iterator[ServerThread]:
    """A fresh server of `book` (the shipped rule sets by default) with its HTTP/JSON port open, closed afterwards."""
    running = ServerThread(book or default_rule_book(), replace(QUIET, http_port=0))
    try:
        yield running
    finally:
        running.close(grace=0)


@contextlib.contextmanager
def stub_for(server: ServerThread) -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    """A stub on a channel to a running server, ready before it is yielded, closed afterwards."""
    channel = grpc.insecure_channel(server.address)
    grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
    try:
        yield oracle_pb2_grpc.OracleServiceStub(channel)
    finally:
        channel.close()


@pytest.fixture(scope="module", name="server")
def module_server() -> Iterator[ServerThread]:
    """A test module's `server` fixture: grpc_and_http_server of the shipped rule sets (import it into the module)."""
    with grpc_and_http_server() as running:
        yield running


@pytest.fixture(scope="module", name="stub")
def module_stub(server: ServerThread) -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    """A test module's `stub` fixture: stub_for the module's `server` (import it into the module with module_server)."""
    with stub_for(server) as connected:
        yield connected


@dataclass(frozen=True)
class CheckRequests:
    """Builds CheckAction requests of a state and an action in notation, under `ref` unless another is given."""

    ref: oracle_pb2.RuleSetRef

    def __call__(
        self, state: GameState, text: str, ref: oracle_pb2.RuleSetRef | None = None
    ) -> oracle_pb2.CheckActionRequest:
        rule_set = self.ref if ref is None else ref
        return oracle_pb2.CheckActionRequest(rule_set=rule_set, state=state_to_proto(state), action_text=text)


@dataclass(frozen=True)
class HouseRules:
    """Inline rule sets extending `base` with one field changed, named `house_id` and `title`, each with the rule
    note "A house rule." citing `cite` (source id, section)."""

    base: str
    house_id: str
    title: str
    cite: tuple[str, str]

    def __call__(self, section: str, field: str, value: int | bool) -> oracle_pb2.RuleSetRef:
        spec = ruleset_pb2.RuleSet(id=self.house_id, extends=self.base, title=self.title)
        setattr(getattr(spec, section), field, value)
        spec.rules.add(
            field=f"{section}.{field}",
            text="A house rule.",
            cite=[ruleset_pb2.Citation(source=self.cite[0], section=self.cite[1])],
        )
        return oracle_pb2.RuleSetRef(inline=spec)


def refereed_hand(
    stub: oracle_pb2_grpc.OracleServiceStub,
    rule_set: oracle_pb2.RuleSetRef,
    first_dealer: int,
    seed: int,
    actions: Iterable[Action],
) -> list[oracle_pb2.RefereeGameResponse]:
    """The answers of a RefereeGame stream of one hand: the start (full states), the deal by `seed`, `actions`."""
    start = oracle_pb2.RefereeStart(rule_set=rule_set, first_dealer=first_dealer, full_state=True)
    messages = [
        oracle_pb2.RefereeGameRequest(start=start),
        oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=seed)),
        *(oracle_pb2.RefereeGameRequest(action=action_to_proto(a)) for a in actions),
    ]
    return list(stub.RefereeGame(iter(messages), timeout=RPC_TIMEOUT))


def violation_codes(response: oracle_pb2.CheckActionResponse) -> list[tuple[str, str]]:
    """(code, field) of each violation of a CheckAction answer, in order."""
    return [(v.code, v.field) for v in response.violations]


def post_json(server: ServerThread, method: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """POST a Connect JSON request to the server's HTTP port: the status and the decoded answer (errors too)."""
    assert server.server.http is not None
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.server.http.port}/oracle.api.v1.OracleService/{method}",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=RPC_TIMEOUT) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def error_details(error: grpc.RpcError, code: grpc.StatusCode) -> list[tuple[str, str]]:
    """(field, description) of each BadRequest field violation (INVALID_ARGUMENT: the request is malformed or over a
    limit) or PreconditionFailure violation (FAILED_PRECONDITION: the state contradicts the rules or itself)."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    assert error.code() == code, (error.code(), error.details())
    status = rpc_status.from_call(cast(grpc.Call, error))
    assert status is not None
    found = []
    for detail in status.details:
        bad, failed = error_details_pb2.BadRequest(), error_details_pb2.PreconditionFailure()
        if code == grpc.StatusCode.INVALID_ARGUMENT and detail.Unpack(bad):
            found.extend((v.field, v.description) for v in bad.field_violations)
        if code == grpc.StatusCode.FAILED_PRECONDITION and detail.Unpack(failed):
            found.extend((v.subject, v.description) for v in failed.violations)
    return found
