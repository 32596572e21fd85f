"""`canasta-oracle serve --workers N`: every worker answers on the one port, health and shutdown are shared, a busy
port still fails in one line, a worker that dies stops the rest; which process answered is read from /proc."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.service.config import ConfigError, ServeConfig
from oracle.service.multiproc import available_processors, reserve_port, worker_configs, worker_count

SERVE = [sys.executable, "-m", "oracle.cli.main", "serve"]
READY = re.compile(r"^canasta-oracle: serving \d+ rule sets on 127\.0\.0\.1:(\d+)$")
TIMEOUT = 30.0
RPC_TIMEOUT = 5.0
CONNECTIONS = 16  #: client connections: all on one of two workers by chance with probability 2**-15


class Served:
    """A `serve` process; stdout and stderr go to files that the test reads."""

    def __init__(self, args: list[str], directory: Path) -> None:
        self.out, self.err = directory / "stdout.txt", directory / "stderr.txt"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.proc = subprocess.Popen([*SERVE, *args], stdout=out, stderr=err, stdin=subprocess.DEVNULL)

    def stdout(self) -> list[str]:
        return self.out.read_text(encoding="utf-8").splitlines()

    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8")

    def ready_port(self) -> int:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            for line in self.stdout():
                if match := READY.match(line):
                    return int(match.group(1))
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        pytest.fail(f"no ready line; stdout {self.stdout()}; stderr {self.stderr()}")

    def exit_code(self, timeout: float = TIMEOUT) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"serve did not exit within {timeout} s; stdout {self.stdout()}; stderr {self.stderr()}")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(*args: str) -> Served:
        directory = tmp_path / f"serve-{len(started)}"
        directory.mkdir()
        started.append(Served(list(args), directory))
        return started[-1]

    yield start
    for served in started:
        if served.proc.poll() is None:
            served.proc.kill()
            served.proc.wait(TIMEOUT)


# --------------------------------------------------------------------------- reading /proc


def children(pid: int) -> list[int]:
    """The process ids whose parent is `pid`."""
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return sorted(int(child) for child in text.split())


def gone(pid: int) -> bool:
    """Whether the process has ended (no longer listed, or a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def wait_gone(pids: list[int], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not all(gone(pid) for pid in pids):
        assert time.monotonic() < deadline, f"still running: {[p for p in pids if not gone(p)]}"
        time.sleep(0.05)


def connections_held(pids: list[int], port: int) -> dict[int, int]:
    """For each process: how many established TCP connections to local `port` it holds (its accepted calls)."""
    established: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # ESTABLISHED
                established.add(fields[9])  # the socket's inode
    held: dict[int, int] = {}
    for pid in pids:
        inodes = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
        held[pid] = len(inodes & established)
    return held


def own_channel(port: int) -> grpc.Channel:
    """A channel with a connection of its own (not shared with the test's other channels)."""
    return grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])


def health(channel: grpc.Channel) -> int:
    request = health_pb2.HealthCheckRequest(service="oracle.api.v1.OracleService")
    return health_pb2_grpc.HealthStub(channel).Check(request, timeout=RPC_TIMEOUT).status


# --------------------------------------------------------------------------- the server processes


def test_two_workers_share_the_port_and_stop_together_on_sigterm(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "2", "--drain-seconds", "1", "--no-request-log")
    port = served.ready_port()
    workers = children(served.proc.pid)
    assert len(workers) == 2, workers
    assert any(f"pids {workers[0]}, {workers[1]}" in line for line in served.stdout()), served.stdout()

    channels = [own_channel(port) for _ in range(CONNECTIONS)]
    try:
        for channel in channels:
            stub = oracle_pb2_grpc.OracleServiceStub(channel)
            assert stub.ListRuleSets(oracle_pb2.ListRuleSetsRequest(), timeout=RPC_TIMEOUT).rule_sets
            assert health(channel) == health_pb2.HealthCheckResponse.SERVING
        held = connections_held(workers, port)
        assert sum(held.values()) == CONNECTIONS and all(held.values()), held  # both workers answered calls

        served.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)  # within the drain: every worker still answers, and says NOT_SERVING
        assert {health(channel) for channel in channels} == {health_pb2.HealthCheckResponse.NOT_SERVING}
    finally:
        for channel in channels:
            channel.close()
    assert served.exit_code() == 0, served.stderr()
    wait_gone(workers)
    lines = served.stdout()
    assert lines[-1] == "canasta-oracle: stopped", lines
    assert sum(line.startswith("canasta-oracle: stopping") for line in lines) == 1, lines
    assert "Traceback" not in served.stderr(), served.stderr()


def test_a_busy_port_fails_in_one_line_even_if_its_listener_allows_port_reuse(serve: Callable[..., Served]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # as a `serve --reuse-port` would
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        served = serve("--port", str(port), "--workers", "2")
        assert served.exit_code() == 2
    assert served.stderr().splitlines() == [
        f"canasta-oracle: cannot listen on 127.0.0.1:{port}: address already in use (another process is listening"
        " there)"
    ]
    assert not any("serving" in line for line in served.stdout())


def test_a_worker_that_dies_stops_the_others_and_the_exit_status_says_so(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "2", "--drain-seconds", "0", "--no-request-log")
    served.ready_port()
    killed, other = children(served.proc.pid)
    os.kill(killed, signal.SIGKILL)
    assert served.exit_code() == 1
    wait_gone([other])
    stderr = served.stderr()
    assert f"canasta-oracle: worker 1 (pid {killed}) was killed by SIGKILL; stopping the other workers" in stderr
    assert "Traceback" not in stderr, stderr


def test_workers_whose_parent_is_killed_stop_on_their_own(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "2", "--drain-seconds", "0", "--no-request-log")
    port = served.ready_port()
    workers = children(served.proc.pid)
    served.proc.kill()
    served.proc.wait(TIMEOUT)
    wait_gone(workers)
    with socket.socket() as probe:  # nobody listens any more
        assert probe.connect_ex(("127.0.0.1", port)) != 0


def test_a_second_signal_kills_the_workers_and_exits_at_once(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "2", "--drain-seconds", "60", "--no-request-log")
    served.ready_port()
    workers = children(served.proc.pid)
    served.proc.send_signal(signal.SIGINT)
    deadline = time.monotonic() + TIMEOUT
    while not any(line.startswith("canasta-oracle: stopping") for line in served.stdout()):
        assert time.monotonic() < deadline, served.stdout()
        time.sleep(0.02)
    served.proc.send_signal(signal.SIGINT)
    assert served.exit_code(5.0) == 128 + signal.SIGINT
    wait_gone(workers, 5.0)
    assert "canasta-oracle: second SIGINT: exiting now" in served.stderr(), served.stderr()


def test_each_worker_serves_its_metrics_on_a_port_of_its_own(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "2", "--metrics-port", "0", "--drain-seconds", "0")
    served.ready_port()
    urls = [line.rpartition(" on ")[2] for line in served.stdout() if line.startswith("canasta-oracle: metrics of")]
    assert len(urls) == len(set(urls)) == 2, served.stdout()
    for url in urls:
        with urllib.request.urlopen(url, timeout=RPC_TIMEOUT) as response:
            assert b"canasta_oracle_calls_in_flight" in response.read()
    served.proc.send_signal(signal.SIGTERM)
    assert served.exit_code() == 0, served.stderr()


def test_one_worker_is_the_single_process_server(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0", "--workers", "1", "--drain-seconds", "0", "--no-request-log")
    port = served.ready_port()
    with own_channel(port) as channel:
        assert health(channel) == health_pb2.HealthCheckResponse.SERVING
        assert connections_held([served.proc.pid], port) == {served.proc.pid: 1}
    assert not any("worker processes" in line for line in served.stdout())
    served.proc.send_signal(signal.SIGTERM)
    assert served.exit_code() == 0, served.stderr()


# --------------------------------------------------------------------------- options


def test_the_default_is_one_worker_per_available_processor() -> None:
    assert worker_count(ServeConfig()) == available_processors() == len(os.sched_getaffinity(0))
    assert worker_count(ServeConfig(workers=3)) == 3
    with pytest.raises(ConfigError, match="--workers 0 must be at least 1"):
        ServeConfig(workers=0)


def test_worker_configs_share_the_port_and_number_the_metrics_ports() -> None:
    configs = worker_configs(ServeConfig(port=0, metrics_port=9100), 50051, 3)
    assert [(c.port, c.reuse_port, c.workers, c.metrics_port) for c in configs] == [
        (50051, True, 1, 9100),
        (50051, True, 1, 9101),
        (50051, True, 1, 9102),
    ]
    assert [c.metrics_port for c in worker_configs(ServeConfig(metrics_port=0), 50051, 2)] == [0, 0]
    assert [c.metrics_port for c in worker_configs(ServeConfig(), 50051, 2)] == [None, None]
    with pytest.raises(ConfigError, match="includes the serving port 50051"):
        worker_configs(ServeConfig(metrics_port=50050), 50051, 2)
    with pytest.raises(ConfigError, match="needs ports up to 65536"):
        worker_configs(ServeConfig(metrics_port=65535), 50051, 2)


def test_reserving_a_port_refuses_a_listener_unless_sharing_is_asked_for() -> None:
    held, port = reserve_port("127.0.0.1", 0)
    try:
        assert port > 0
        with socket.socket() as server:  # what a worker does: bind with port reuse and listen
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            server.bind(("127.0.0.1", port))
            server.listen()
            with pytest.raises(OSError, match=rf"^cannot listen on 127\.0\.0\.1:{port}: address already in use"):
                reserve_port("127.0.0.1", port)
            shared, same = reserve_port("127.0.0.1", port, shared=True)  # --reuse-port: joining is asked for
            assert same == port
            for sock in shared:
                sock.close()
    finally:
        for sock in held:
            sock.close()
