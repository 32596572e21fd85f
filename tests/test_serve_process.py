"""`canasta-oracle serve` as a process: the ready line, health, clean exit on signals, spec errors, draining calls in
flight on SIGTERM, a second signal, a busy port, options from environment variables."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.games.simulate import simulate_game
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_record import record_to_proto

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
SERVE = [sys.executable, "-m", "oracle.cli.main", "serve"]
READY = re.compile(r"^canasta-oracle: serving (\d+) rule sets on 127\.0\.0\.1:(\d+)$")
START_TIMEOUT = 30.0
EXIT_TIMEOUT = 10.0
RPC_TIMEOUT = 5.0


class Served:
    """A running `serve` process; stdout lines are read by a thread into a queue (None at EOF)."""

    def __init__(self, args: list[str], stderr_path: Path, cwd: Path, env: dict[str, str] | None = None) -> None:
        self.stderr_path = stderr_path
        self._stderr = stderr_path.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self, timeout: float) -> str | None:
        """The next stdout line, or None at EOF; fails the test after `timeout` seconds."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no output within {timeout}s; stderr: {self.stderr()}")
        if line is not None:
            self.seen.append(line)
        return line

    def rest_of_stdout(self, timeout: float) -> list[str]:
        """Every remaining stdout line (the process must have closed stdout within `timeout`)."""
        deadline = time.monotonic() + timeout
        while self.next_line(max(0.1, deadline - time.monotonic())) is not None:
            pass
        return self.seen

    def stderr(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=EXIT_TIMEOUT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(*extra: str, env: dict[str, str] | None = None) -> Served:
        served = Served([*SERVE, *extra], tmp_path / f"stderr-{len(started)}.txt", cwd=tmp_path, env=env)
        started.append(served)
        return served

    try:
        yield start
    finally:
        for served in started:
            served.close()


def _wait_ready(served: Served) -> tuple[int, int]:
    """Read stdout until the ready line; returns (rule-set count, port)."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        line = served.next_line(max(0.1, deadline - time.monotonic()))
        if line is None:
            pytest.fail(
                f"serve exited ({served.proc.wait(EXIT_TIMEOUT)}) before the ready line;"
                f" stdout {served.seen}; stderr: {served.stderr()}"
            )
        match = READY.match(line)
        if match:
            return int(match.group(1)), int(match.group(2))


def test_cli_is_installed() -> None:
    assert shutil.which("canasta-oracle", path=str(Path(sys.executable).parent)) is not None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_reports_port_serves_and_stops_on_signal(serve: Callable[..., Served], sig: signal.Signals) -> None:
    served = serve("--port", "0")
    count, port = _wait_ready(served)
    assert 0 < port < 65536
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
        health = health_pb2_grpc.HealthStub(channel)
        for name in ("", "oracle.api.v1.OracleService"):
            response = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=RPC_TIMEOUT)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        rule_sets = stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets
        assert count == len(rule_sets)
        assert {"classic-2p", "classic-4p"} <= {r.id for r in rule_sets}

    started = time.monotonic()
    served.proc.send_signal(sig)
    try:
        code = served.proc.wait(timeout=EXIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve did not exit within {EXIT_TIMEOUT}s of {sig.name}")
    assert code == 0, served.stderr()
    assert time.monotonic() - started < EXIT_TIMEOUT
    lines = served.rest_of_stdout(EXIT_TIMEOUT)
    assert any(line.startswith("canasta-oracle: stopping") for line in lines), lines
    assert "Traceback" not in served.stderr()


def _broken_line(text: str, old: str, new: str) -> tuple[str, int]:
    lines = text.splitlines(keepends=True)
    [index] = [i for i, line in enumerate(lines) if line.rstrip("\n") == old]
    lines[index] = new + "\n"
    return "".join(lines), index + 1


@pytest.mark.parametrize(
    ("new_line", "field", "says"),
    [
        ("  max_wildz: 3", "max_wildz", "has no field named"),
        ('  max_wilds: "three"', "melds.max_wilds", "three"),
        ("  max_wilds: -3", "melds.max_wilds", "-3"),
    ],
    ids=["unknown-field", "wrong-type", "out-of-range"],
)
def test_serve_refuses_broken_spec(
    serve: Callable[..., Served], tmp_path: Path, new_line: str, field: str, says: str
) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(SPECS / "sources.textproto", specs / "sources.textproto")
    broken, line_number = _broken_line(
        (SPECS / "classic-4p.textproto").read_text(encoding="utf-8"), "  max_wilds: 3", new_line
    )
    (specs / "classic-4p.textproto").write_text(broken, encoding="utf-8")

    started = time.monotonic()
    served = serve("--port", "0", "--specs", str(specs))
    try:
        code = served.proc.wait(timeout=START_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve did not refuse the broken spec within {START_TIMEOUT}s; stdout {served.seen}")
    assert code == 2
    assert time.monotonic() - started < START_TIMEOUT
    stdout = served.rest_of_stdout(EXIT_TIMEOUT)
    assert not any("serving" in line for line in stdout), stdout
    stderr = served.stderr()
    assert "Traceback" not in stderr, stderr
    assert re.search(rf"classic-4p\.textproto:{line_number}:\d+: ", stderr), stderr
    assert field in stderr and says in stderr, stderr
    assert stderr.startswith("canasta-oracle: cannot load rule sets"), stderr


def test_serve_port_in_use_is_a_clean_error(serve: Callable[..., Served]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        served = serve("--port", str(port))
        try:
            code = served.proc.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"serve started on a port that is in use; stdout {served.seen}")
    stderr = served.stderr()
    assert "Traceback" not in stderr, stderr
    assert code == 2, stderr
    assert str(port) in stderr, stderr


# --------------------------------------------------------------------------- shutdown, ports, environment


def _health(port: int) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        request = health_pb2.HealthCheckRequest(service="oracle.api.v1.OracleService")
        return health_pb2_grpc.HealthStub(channel).Check(request, timeout=RPC_TIMEOUT).status


def _exit_code(served: Served, timeout: float) -> int:
    try:
        return served.proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve did not exit within {timeout}s; stdout {served.seen}; stderr {served.stderr()}")


def test_sigterm_answers_during_the_drain_and_every_call_in_flight_completes(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    log_file = tmp_path / "requests.log"
    served = serve("--port", "0", "--drain-seconds", "8", "--grace-seconds", "20", "--log-file", str(log_file))
    _, port = _wait_ready(served)
    rules = default_rule_book().get("classic-2p").rules
    request = oracle_pb2.ReplayGameRequest(record=record_to_proto(simulate_game(rules, 5, max_hands=40).record))
    callers = 16
    start = threading.Barrier(callers + 1)
    finished: list[tuple[str, float]] = []

    def replay() -> None:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = oracle_pb2_grpc.OracleServiceStub(channel)
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            start.wait(RPC_TIMEOUT)
            try:
                response = stub.ReplayGame(request, timeout=60)
                finished.append(("OK" if response.report.ok else "report not ok", time.monotonic()))
            except grpc.RpcError as exc:
                finished.append((exc.code().name, time.monotonic()))

    threads = [threading.Thread(target=replay) for _ in range(callers)]
    for thread in threads:
        thread.start()
    start.wait(RPC_TIMEOUT)
    time.sleep(0.05)  # the calls are on their way
    signalled = time.monotonic()
    served.proc.send_signal(signal.SIGTERM)

    # the signal is handled asynchronously: health turns NOT_SERVING within the drain period (polled, bounded)
    status = _health(port)
    while status != health_pb2.HealthCheckResponse.NOT_SERVING and time.monotonic() - signalled < 6:
        time.sleep(0.05)
        status = _health(port)
    assert status == health_pb2.HealthCheckResponse.NOT_SERVING
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:  # a new call during the drain is still answered
        assert oracle_pb2_grpc.OracleServiceStub(channel).ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=5)
    for thread in threads:
        thread.join(60)
    assert [code for code, _ in finished] == ["OK"] * callers
    assert any(at > signalled for _, at in finished), "no call was still in flight at SIGTERM"

    assert _exit_code(served, 8 + 20 + EXIT_TIMEOUT) == 0, served.stderr()
    stdout = served.rest_of_stdout(EXIT_TIMEOUT)
    assert any(line.startswith("canasta-oracle: stopping") for line in stdout), stdout
    assert stdout[-1] == "canasta-oracle: stopped", stdout
    assert "Traceback" not in served.stderr(), served.stderr()
    logged = [json.loads(line) for line in log_file.read_text(encoding="utf-8").splitlines()]
    replays = [line["code"] for line in logged if line["method"].endswith("/ReplayGame")]
    assert replays == ["OK"] * callers, logged


def test_a_second_signal_exits_at_once_with_a_non_zero_status(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--drain-seconds", "60", "--no-request-log")
    _wait_ready(served)
    served.proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + EXIT_TIMEOUT
    while not any(line.startswith("canasta-oracle: stopping") for line in served.seen):
        assert served.next_line(max(0.1, deadline - time.monotonic())) is not None, served.stderr()
    started = time.monotonic()
    served.proc.send_signal(signal.SIGTERM)
    code = _exit_code(served, EXIT_TIMEOUT)
    assert time.monotonic() - started < 30  # far inside the 60 s drain it would otherwise wait
    assert code == 128 + signal.SIGTERM
    stderr = served.stderr()
    assert "canasta-oracle: second SIGTERM: exiting now" in stderr, stderr
    assert "Traceback" not in stderr, stderr


def test_a_second_serve_on_a_busy_port_fails_in_one_line_and_the_first_keeps_serving(
    serve: Callable[..., Served],
) -> None:
    first = serve("--port", "0", "--no-request-log")
    _, port = _wait_ready(first)
    second = serve("--port", str(port), "--no-request-log")
    assert _exit_code(second, START_TIMEOUT) == 2
    stderr = second.stderr()
    assert stderr.splitlines() == [
        f"canasta-oracle: cannot listen on 127.0.0.1:{port}: address already in use (another process is listening"
        " there)"
    ], stderr
    assert not any("serving" in line for line in second.rest_of_stdout(EXIT_TIMEOUT))
    assert _health(port) == health_pb2.HealthCheckResponse.SERVING

    shared = serve("--port", "0", "--reuse-port", "--no-request-log")  # asked for: two servers share a port
    _, shared_port = _wait_ready(shared)
    also = serve("--port", str(shared_port), "--reuse-port", env={"CANASTA_ORACLE_REQUEST_LOG": "false"})
    assert _wait_ready(also)[1] == shared_port


def test_serving_options_from_environment_variables(serve: Callable[..., Served], tmp_path: Path) -> None:
    token = "from-the-environment-42"
    log_file = tmp_path / "env.log"
    env = {
        "CANASTA_ORACLE_HOST": "127.0.0.1",
        "CANASTA_ORACLE_PORT": "0",
        "CANASTA_ORACLE_TOKEN": token,
        "CANASTA_ORACLE_REFLECTION": "false",
        "CANASTA_ORACLE_MAX_CALLS": "7",
        "CANASTA_ORACLE_LOG_FILE": str(log_file),
    }
    served = serve(env=env)
    _, port = _wait_ready(served)
    posture = next(line for line in served.seen if "bearer token" in line)
    assert "bearer token required; no reflection; at most 7 calls" in posture, posture
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        with pytest.raises(grpc.RpcError) as info:
            stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        metadata = (("authorization", f"Bearer {token}"),)
        assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT, metadata=metadata).rule_sets
    served.proc.send_signal(signal.SIGINT)
    assert _exit_code(served, EXIT_TIMEOUT) == 0
    codes = [json.loads(line)["code"] for line in log_file.read_text(encoding="utf-8").splitlines()]
    assert codes == ["UNAUTHENTICATED", "OK"]
    assert token not in log_file.read_text(encoding="utf-8")
