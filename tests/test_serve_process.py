"""`canasta-oracle serve` as a process: the ready line, health, clean exit on signals, spec errors."""

from __future__ import annotations

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

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
SERVE = [sys.executable, "-m", "oracle.cli.main", "serve"]
READY = re.compile(r"^canasta-oracle: serving (\d+) rule sets on 127\.0\.0\.1:(\d+)$")
START_TIMEOUT = 30.0
EXIT_TIMEOUT = 10.0
RPC_TIMEOUT = 5.0


class Served:
    """A running `serve` process; stdout lines are read by a thread into a queue (None at EOF)."""

    def __init__(self, args: list[str], stderr_path: Path, cwd: Path) -> None:
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

    def start(*extra: str) -> Served:
        served = Served([*SERVE, *extra], tmp_path / f"stderr-{len(started)}.txt", cwd=tmp_path)
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
