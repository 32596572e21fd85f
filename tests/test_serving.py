"""Serving posture, in process: admission control, closing on shutdown, health Watch on shutdown, bearer tokens,
reflection under v1 and v1alpha, the request log, Prometheus metrics, and the checks on serving options."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import grpc
import pytest
from click.testing import CliRunner
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from prometheus_client.parser import text_string_to_metric_families
from server_harness import QUIET, RPC_TIMEOUT, ServerThread

import oracle.service.server
from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.cli import serve as cli_serve
from oracle.cli.main import main
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import TOKEN_ENV, ConfigError, ServeConfig, parse_limits
from oracle.service.servicer import OracleServicer

SERVICE = "oracle.api.v1.OracleService"
HEALTH = "grpc.health.v1.Health"
TOKEN = "s3cret-T0ken_for.tests"
MINIMUM = oracle_pb2.GetMinimumInitialMeldRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), running_total=1500)


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return default_rule_book()


class Gate:
    """Holds GetMinimumInitialMeld calls inside the servicer until released; counts those that entered."""

    def __init__(self) -> None:
        self.entered = 0
        self.lock = threading.Lock()
        self.release = threading.Event()

    def servicer(self) -> type[OracleServicer]:
        gate = self

        class Held(OracleServicer):
            async def GetMinimumInitialMeld(self, request: Any, context: Any) -> Any:
                with gate.lock:
                    gate.entered += 1
                deadline = time.monotonic() + RPC_TIMEOUT
                while not gate.release.is_set() and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
                return await super().GetMinimumInitialMeld(request, context)

        return Held

    def wait_entered(self, count: int) -> None:
        deadline = time.monotonic() + RPC_TIMEOUT
        while self.entered < count:
            assert time.monotonic() < deadline, f"only {self.entered} of {count} calls reached the servicer"
            time.sleep(0.01)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate()
    monkeypatch.setattr(oracle.service.server, "OracleServicer", held.servicer())
    try:
        yield held
    finally:
        held.release.set()


@pytest.fixture
def serve(book: RuleBook) -> Iterator[Callable[..., tuple[ServerThread, grpc.Channel]]]:
    """Start a server with QUIET's options changed by keyword; yields (server, channel); both closed afterwards."""
    opened: list[tuple[ServerThread, grpc.Channel]] = []

    def start(**changes: Any) -> tuple[ServerThread, grpc.Channel]:
        running = ServerThread(book, dataclasses.replace(QUIET, **changes))
        channel = grpc.insecure_channel(running.address)
        opened.append((running, channel))
        return running, channel

    try:
        yield start
    finally:
        for running, channel in opened:
            channel.close()
            running.close(grace=0)


def _error(call: Callable[..., Any], *args: Any, timeout: float = RPC_TIMEOUT, **kwargs: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(*args, timeout=timeout, **kwargs)
    return info.value


def _health(channel: grpc.Channel, service: str = SERVICE) -> int:
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


# --------------------------------------------------------------------------- admission control


def test_unary_calls_past_the_limit_are_refused_at_once_and_health_still_answers(serve, gate: Gate) -> None:
    running, channel = serve(max_calls=2)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    held = [stub.GetMinimumInitialMeld.future(MINIMUM, timeout=RPC_TIMEOUT) for _ in range(2)]
    gate.wait_entered(2)
    metrics = running.server.metrics.registry
    labels = {"service": SERVICE, "method": "GetMinimumInitialMeld"}
    assert metrics.get_sample_value("canasta_oracle_calls_in_flight", labels) == 2

    started = time.monotonic()
    for call, request in ((stub.GetMinimumInitialMeld, MINIMUM), (stub.ListRuleSets, oracle_pb2.ListRuleSetsRequest())):
        error = _error(call, request)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
        assert "--max-calls 2" in error.details() and "2 calls in progress" in error.details(), error.details()
    assert time.monotonic() - started < 2.0, "refusals must not wait for a slot"
    assert _health(channel) == health_pb2.HealthCheckResponse.SERVING
    assert gate.entered == 2  # the refused call never reached the servicer

    gate.release.set()
    assert [f.result(timeout=RPC_TIMEOUT).minimum for f in held] == [90, 90]
    assert stub.GetMinimumInitialMeld(MINIMUM, timeout=RPC_TIMEOUT).minimum == 90  # the slots are free again
    assert running.server.admission.calls == 0
    refused = {**labels, "code": "RESOURCE_EXHAUSTED"}
    assert metrics.get_sample_value("canasta_oracle_calls_total", refused) == 1


def test_calls_past_max_pending_are_cancelled_at_once_instead_of_queueing(serve) -> None:
    running, channel = serve(max_pending=2)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets
    blocked = 2.0
    started = time.monotonic()
    running.loop.call_soon_threadsafe(time.sleep, blocked)  # the server takes up no call for a while
    futures = [stub.ListRuleSets.future(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT) for _ in range(20)]
    times = [0.0] * len(futures)
    for i, future in enumerate(futures):  # when each call ended, not when this thread looked
        future.add_done_callback(lambda _, i=i: times.__setitem__(i, time.monotonic() - started))
    ended: dict[str, list[float]] = {}
    for i, future in enumerate(futures):
        error = future.exception()
        code = "OK" if error is None else error.code().name  # type: ignore[union-attr]
        ended.setdefault(code, []).append(times[i])
    assert set(ended) == {"OK", "CANCELLED"}, ended
    assert len(ended["OK"]) <= 4, ended  # the pending few (and one the loop had already asked for)
    assert max(ended["CANCELLED"]) < blocked, "calls past the pending limit must end at once, not wait"
    assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets  # and it serves on


def test_worker_thread_counts_are_serving_options(serve) -> None:
    running, _ = serve(threads=3, long_threads=1)
    assert running.server.servicer is not None
    assert (running.server.servicer.workers.size, running.server.servicer.long_workers.size) == (3, 1)


class OpenStream:
    """A RefereeGame stream kept open by the client: sends start, then waits until `end()`."""

    def __init__(self, stub: oracle_pb2_grpc.OracleServiceStub, metadata: tuple[tuple[str, str], ...] = ()) -> None:
        self._done = threading.Event()
        self.responses = stub.RefereeGame(self._requests(), timeout=RPC_TIMEOUT, metadata=metadata)

    def _requests(self) -> Iterator[oracle_pb2.RefereeGameRequest]:
        yield oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), first_dealer=0)
        )
        self._done.wait(RPC_TIMEOUT)

    def first(self) -> oracle_pb2.RefereeGameResponse:
        return next(self.responses)

    def end(self) -> None:
        """Cancel the stream (the request generator is let go a little later, so that it does not half-close first)."""
        self.responses.cancel()
        release = threading.Timer(0.5, self._done.set)
        release.daemon = True
        release.start()

    def finish(self) -> list[oracle_pb2.RefereeGameResponse]:
        """Close the sending side; the rest of the responses (the server then ends the stream with OK)."""
        self._done.set()
        return list(self.responses)


def test_streams_past_the_limit_are_refused_and_health_watch_is_exempt(serve) -> None:
    _, channel = serve(max_streams=1)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    first = OpenStream(stub)
    assert first.first().verdict.legal
    second = OpenStream(stub)
    with pytest.raises(grpc.RpcError) as info:
        second.first()
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "--max-streams 1" in info.value.details()
    second.end()

    watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=SERVICE), timeout=5)
    assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
    watch.cancel()
    assert stub.GetMinimumInitialMeld(MINIMUM, timeout=RPC_TIMEOUT).minimum == 90  # unary calls have their own limit

    first.end()
    deadline = time.monotonic() + RPC_TIMEOUT
    while True:  # the server sees the cancelled stream end a moment later
        third = OpenStream(stub)
        try:
            assert third.first().verdict.legal
            break
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and time.monotonic() < deadline, exc
            time.sleep(0.05)
        finally:
            third.end()


# --------------------------------------------------------------------------- shutdown


def test_shutdown_answers_during_the_drain_then_refuses_new_calls_and_finishes_those_in_flight(serve, gate) -> None:
    running, channel = serve()
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    in_flight = stub.GetMinimumInitialMeld.future(MINIMUM, timeout=RPC_TIMEOUT)
    gate.wait_entered(1)
    running.stop_started = True
    stopping = running.submit(running.server.shutdown(drain=1.0, grace=RPC_TIMEOUT))

    assert _health(channel) == health_pb2.HealthCheckResponse.NOT_SERVING
    assert _health(channel, "") == health_pb2.HealthCheckResponse.NOT_SERVING
    assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets  # the drain answers

    deadline = time.monotonic() + RPC_TIMEOUT
    while True:  # after the drain: new calls are refused with UNAVAILABLE, which clients retry elsewhere
        try:
            stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT)
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc
            assert "shutting down" in exc.details()
            break
        assert time.monotonic() < deadline, "new calls were still answered long after the drain"
        time.sleep(0.05)
    assert not in_flight.done() and not stopping.done()

    gate.release.set()
    assert in_flight.result(timeout=RPC_TIMEOUT).minimum == 90  # not cancelled
    stopping.result(timeout=RPC_TIMEOUT)


def test_calls_refused_while_closing_do_not_hold_the_server_for_the_whole_grace(serve) -> None:
    running, channel = serve()
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    codes: set[str] = set()
    stop_calling = threading.Event()

    def keep_calling() -> None:  # a client that does not stop calling while the server shuts down
        while not stop_calling.is_set():
            try:
                stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT)
                codes.add("OK")
            except grpc.RpcError as exc:
                codes.add(exc.code().name)

    callers = [threading.Thread(target=keep_calling, daemon=True) for _ in range(4)]
    for caller in callers:
        caller.start()
    time.sleep(0.3)
    grace = 4 * RPC_TIMEOUT
    running.stop_started = True
    started = time.monotonic()
    running.submit(running.server.shutdown(drain=0.2, grace=grace)).result(timeout=grace + RPC_TIMEOUT)
    took = time.monotonic() - started
    stop_calling.set()
    for caller in callers:
        caller.join(timeout=RPC_TIMEOUT)
    assert "UNAVAILABLE" in codes and "OK" in codes, codes
    # Nothing was in flight: the stop takes the drain and a moment, not the grace (it took 13.7 s before the fix).
    assert took < RPC_TIMEOUT / 2, f"the stop waited {took:.1f} s of a {grace:g} s grace with nothing in flight"


def test_health_watch_streams_hear_not_serving_then_end_without_holding_the_drain(serve) -> None:
    running, channel = serve()
    health = health_pb2_grpc.HealthStub(channel)
    watches = [health.Watch(health_pb2.HealthCheckRequest(service=name), timeout=RPC_TIMEOUT) for name in ("", SERVICE)]
    assert [next(w).status for w in watches] == [health_pb2.HealthCheckResponse.SERVING] * 2
    running.stop_started = True
    started = time.monotonic()
    stopping = running.submit(running.server.shutdown(drain=3.0, grace=1.0))
    for watch in watches:
        assert [r.status for r in watch] == [health_pb2.HealthCheckResponse.NOT_SERVING]  # then the stream ends
        assert watch.code() == grpc.StatusCode.OK
    assert time.monotonic() - started < 2.0, "the Watch streams were held for the drain"
    stopping.result(timeout=10)


# --------------------------------------------------------------------------- bearer token


def test_token_missing_or_wrong_is_unauthenticated_right_is_ok_and_health_needs_none(serve) -> None:
    _, channel = serve(token=TOKEN)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    request = oracle_pb2.ListRuleSetsRequest()
    cases = {
        "missing bearer token": (),
        "wrong bearer token": (("authorization", "Bearer not-" + TOKEN),),
        "must be one 'Bearer <token>'": (("authorization", "Basic " + TOKEN),),
    }
    for says, metadata in cases.items():
        error = _error(stub.ListRuleSets, request, metadata=metadata)
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED, (metadata, error)
        assert says in error.details(), error.details()
    assert TOKEN not in error.details()
    right = (("authorization", f"Bearer {TOKEN}"),)
    assert stub.ListRuleSets(request, timeout=RPC_TIMEOUT, metadata=right).rule_sets
    assert _health(channel) == health_pb2.HealthCheckResponse.SERVING  # health is exempt

    stream = OpenStream(stub)
    with pytest.raises(grpc.RpcError) as info:
        stream.first()
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
    stream.end()
    stream = OpenStream(stub, metadata=right)
    assert stream.first().verdict.legal
    stream.end()
    reflect = _error(_list_services_v1alpha, channel)
    assert reflect.code() == grpc.StatusCode.UNAUTHENTICATED


# --------------------------------------------------------------------------- reflection


def _list_services_v1alpha(channel: grpc.Channel, timeout: float = RPC_TIMEOUT) -> set[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    [response] = list(stub.ServerReflectionInfo(iter([request]), timeout=timeout))
    return {s.name for s in response.list_services_response.service}


def _reflect_v1(channel: grpc.Channel, request: bytes) -> reflection_pb2.ServerReflectionResponse:
    """One grpc.reflection.v1 exchange, the request given as wire bytes (v1's messages are v1alpha's, renamed)."""
    info = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=lambda raw: raw,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    [response] = list(info(iter([request]), timeout=RPC_TIMEOUT))
    return response


def _string_field(number: int, text: str) -> bytes:
    data = text.encode()
    assert len(data) < 128
    return bytes([number << 3 | 2, len(data)]) + data


def test_reflection_serves_v1_and_v1alpha(serve) -> None:
    _, channel = serve()
    everything = {SERVICE, HEALTH, "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"}
    assert _list_services_v1alpha(channel) == everything
    assert set(ProtoReflectionDescriptorDatabase(channel).get_services()) == everything  # grpcio's own client

    listed = _reflect_v1(channel, _string_field(7, ""))  # list_services = 7
    assert {s.name for s in listed.list_services_response.service} == everything
    described = _reflect_v1(channel, _string_field(4, SERVICE))  # file_containing_symbol = 4
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in described.file_descriptor_response.file_descriptor_proto
    ]
    assert any(f.package == "oracle.api.v1" and "OracleService" in [s.name for s in f.service] for f in files)
    itself = _reflect_v1(channel, _string_field(4, "grpc.reflection.v1.ServerReflection"))
    [v1_file] = [
        descriptor_pb2.FileDescriptorProto.FromString(b) for b in itself.file_descriptor_response.file_descriptor_proto
    ]
    assert (v1_file.name, v1_file.package) == ("grpc/reflection/v1/reflection.proto", "grpc.reflection.v1")
    [method] = v1_file.service[0].method
    assert method.input_type == ".grpc.reflection.v1.ServerReflectionRequest"


def test_no_reflection_switches_both_off(serve) -> None:
    _, channel = serve(reflection=False)
    assert _error(_list_services_v1alpha, channel).code() == grpc.StatusCode.UNIMPLEMENTED
    with pytest.raises(grpc.RpcError) as info:
        _reflect_v1(channel, _string_field(7, ""))
    assert info.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert _health(channel) == health_pb2.HealthCheckResponse.SERVING


# --------------------------------------------------------------------------- request log and metrics


def test_request_log_has_one_json_line_per_call_and_no_payload(serve, gate: Gate, tmp_path: Path) -> None:
    log_file = tmp_path / "requests.log"
    running, channel = serve(request_log=True, log_file=log_file)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    listed_request = oracle_pb2.ListRuleSetsRequest()
    listed = stub.ListRuleSets(listed_request, timeout=RPC_TIMEOUT)
    secret = oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id="zz-payload-never-logged"))
    error = _error(stub.GetRuleSet, secret)
    assert _health(channel) == health_pb2.HealthCheckResponse.SERVING
    stream = OpenStream(stub)
    stream.first()
    assert stream.finish() == []
    late = _error(stub.GetMinimumInitialMeld, MINIMUM, timeout=0.3)  # held by the gate past its deadline
    assert late.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    time.sleep(0.2)  # the server sees the deadline pass
    channel.close()
    running.close()

    text = log_file.read_text(encoding="utf-8")
    assert "zz-payload-never-logged" not in text and "classic-4p" not in text
    lines = [json.loads(line) for line in text.splitlines()]
    keys = {"time", "method", "code", "duration_ms", "request_bytes", "response_bytes", "requests", "responses", "peer"}
    assert all(set(line) == keys for line in lines), lines
    by_method = {line["method"].rpartition("/")[2]: line for line in lines}
    assert len(lines) == len(by_method) == 5, lines
    assert by_method["ListRuleSets"]["code"] == "OK"
    assert by_method["ListRuleSets"]["response_bytes"] == listed.ByteSize() > 0
    assert by_method["GetRuleSet"]["code"] == error.code().name
    assert by_method["GetRuleSet"]["request_bytes"] == secret.ByteSize()
    assert by_method["Check"]["method"] == f"/{HEALTH}/Check"
    stream = by_method["RefereeGame"]
    assert (stream["code"], stream["requests"], stream["responses"]) == ("OK", 1, 1)
    assert by_method["GetMinimumInitialMeld"]["code"] == "DEADLINE_EXCEEDED"
    assert by_method["GetMinimumInitialMeld"]["duration_ms"] >= 200
    assert all(line["peer"].startswith("ipv4:127.0.0.1:") for line in lines), [line["peer"] for line in lines]
    assert all(line["duration_ms"] >= 0 for line in lines), lines


def _scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_metrics_endpoint_counts_calls_by_method_and_code(serve) -> None:
    running, channel = serve(metrics_port=0)
    url = running.server.metrics_url
    assert url is not None and url.startswith("http://127.0.0.1:") and url.endswith("/metrics")
    depth = [3]
    running.server.metrics.watch("canasta_oracle_test_queue_depth", "A gauge read at each scrape.", lambda: depth[0])
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    for _ in range(3):
        stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT)
    refusal = _error(stub.GetRuleSet, oracle_pb2.GetRuleSetRequest())  # no rule set named
    depth[0] = 7

    refused = (("code", refusal.code().name), ("method", "GetRuleSet"), ("service", SERVICE))
    deadline = time.monotonic() + RPC_TIMEOUT
    while (samples := _scrape(url)).get(("canasta_oracle_calls_total", refused)) is None:
        assert time.monotonic() < deadline, "the refused call was never counted"
        time.sleep(0.02)  # an abort sends the status before the server counts the call
    assert samples["canasta_oracle_calls_total", refused] == 1
    listed = (("method", "ListRuleSets"), ("service", SERVICE))
    assert samples["canasta_oracle_calls_total", tuple(sorted((*listed, ("code", "OK"))))] == 3
    assert samples["canasta_oracle_call_duration_seconds_count", listed] == 3
    assert samples["canasta_oracle_calls_in_flight", listed] == 0
    assert samples["canasta_oracle_test_queue_depth", ()] == 7
    assert samples["canasta_oracle_worker_queue", ()] == 0  # the worker pools' queue, wired by start_server

    running.close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"tls_cert": Path("server.crt")}, "--tls-cert and --tls-key go together"),
        ({"tls_client_ca": Path("ca.crt")}, "--tls-client-ca (mutual TLS) needs --tls-cert"),
        ({"max_calls": 0}, "--max-calls 0 must be at least 1"),
        ({"max_streams": -1}, "--max-streams -1 must be at least 1"),
        ({"max_pending": 0}, "--max-pending 0 must be at least 1"),
        ({"threads": 0}, "--threads 0 must be at least 1"),
        ({"long_threads": 0}, "--long-threads 0 must be at least 1"),
        ({"grace_seconds": float("nan")}, "--grace-seconds nan must be 0 or more"),
        ({"port": 70000}, "--port 70000 is not a port number"),
        ({"metrics_port": 50051}, "--metrics-port 50051 is the serving port"),
        ({"token": "two words"}, "printable ASCII without spaces"),
        ({"token": ""}, "the bearer token is empty"),
    ],
)
def test_serve_config_refuses_bad_options_naming_them(changes: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError) as info:
        ServeConfig(**changes)
    assert says in str(info.value)


def test_every_serving_option_has_its_environment_variable_and_the_config_default() -> None:
    options = {p.name: p for p in cli_serve.serve.params if isinstance(p, click.Option)}
    defaults = ServeConfig()
    parsed = cli_serve.serve.make_context("serve", []).params  # what the command gets with no option given
    for field in dataclasses.fields(ServeConfig):
        if field.name == "token":
            continue  # by --token-file or CANASTA_ORACLE_TOKEN, never on the command line
        option = options[field.name]
        assert option.envvar == "CANASTA_ORACLE_" + field.name.upper(), field.name
        assert option.show_envvar
        if field.name == "limits":  # NAME=VALUE settings over the default table
            assert parse_limits(parsed["limits"]) == defaults.limits
            continue
        assert parsed[field.name] == getattr(defaults, field.name), field.name
    assert cli_serve.TOKEN_ENV == TOKEN_ENV


def _serve_cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["serve", *args], env=env, prog_name="canasta-oracle")
    return result.exit_code, result.output


def test_serve_refuses_inconsistent_options_from_flags_or_environment(tmp_path: Path) -> None:
    key = tmp_path / "server.key"
    key.write_text("not used", encoding="utf-8")
    code, output = _serve_cli("--tls-key", str(key))
    assert code == 2 and "canasta-oracle: --tls-cert and --tls-key go together" in output, output
    code, output = _serve_cli(env={"CANASTA_ORACLE_TLS_KEY": str(key)})
    assert code == 2 and "--tls-cert and --tls-key go together" in output, output

    token_file = tmp_path / "token"
    token_file.write_text("\n", encoding="utf-8")
    code, output = _serve_cli("--token-file", str(token_file))
    assert code == 2 and f"--token-file {token_file} is empty" in output, output
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    code, output = _serve_cli("--token-file", str(token_file), env={"CANASTA_ORACLE_TOKEN": TOKEN})
    assert code == 2 and "not both" in output, output
    code, output = _serve_cli(env={"CANASTA_ORACLE_MAX_CALLS": "0"})
    assert code == 2 and "--max-calls" in output, output
    assert "Traceback" not in output
