"""The benchmark's processes: start servers on 127.0.0.1 port 0 and read the bound port, wait for SERVING, read a
process tree's CPU time from /proc, run one measuring job in a fresh process, and always stop what was started."""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

STOP_SECONDS = 10.0  #: a process asked to stop is killed after this
PORT_LINE = re.compile(r"127\.0\.0\.1:(\d+)")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ORACLE_MAIN = "from oracle.cli.main import main; main()"  #: what the `canasta-oracle` script runs
ENV_PREFIX = "CANASTA_ORACLE_"  #: the serve options' environment variables (not passed to the servers measured)

_live: set[subprocess.Popen[bytes]] = set()


def track(process: subprocess.Popen[bytes]) -> subprocess.Popen[bytes]:
    """Have stop_all() stop this process if it still runs at exit."""
    _live.add(process)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM; after a second a second SIGTERM; SIGKILL after STOP_SECONDS more."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(1.0)
        except subprocess.TimeoutExpired:
            process.terminate()  # a second signal: a server that drains calls on the first exits now
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_SECONDS)
    _live.discard(process)


def clean_environment() -> dict[str, str]:
    """This environment without CANASTA_ORACLE_* settings: the servers measured run their defaults."""
    return {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX)}


@atexit.register
def stop_all() -> None:
    """Stop every process this module started that is still running (also run at exit)."""
    for process in list(_live):
        stop(process)


def oracle_command(*args: str) -> list[str]:
    """The `canasta-oracle` command line, run by this interpreter."""
    return [sys.executable, "-c", ORACLE_MAIN, *args]


def module_command(module: str, *args: str) -> list[str]:
    """`python -m module args` with this interpreter."""
    return [sys.executable, "-m", module, *args]


class Server:
    """A server process started on 127.0.0.1 port 0; `port` is read from its output; stop() always ends it."""

    def __init__(self, command: Sequence[str], timeout: float = 60.0) -> None:
        self.started = time.perf_counter()
        self._log: IO[bytes] = tempfile.TemporaryFile()  # a file, not a pipe: a chatty server never blocks
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT, env=clean_environment()
        )
        _live.add(self.process)
        self.port = self._wait_for_port(timeout)

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    def output(self) -> str:
        """What the server printed so far."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def _wait_for_port(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = PORT_LINE.search(self.output())
            if found and int(found.group(1)) > 0:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.002)
        text = self.output()[-2000:]
        self.stop()
        raise RuntimeError(f"the server did not say its port within {timeout:.0f} s: {text}")

    def stop(self) -> None:
        """Stop the process (see stop()) and drop its output."""
        stop(self.process)
        self._log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_serving(port: int, timeout: float = 60.0) -> None:
    """Poll the standard health service on 127.0.0.1:port until it answers SERVING."""
    import grpc
    from grpc_health.v1 import health_pb2

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        check = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        while time.monotonic() < deadline:
            try:
                answer = check(health_pb2.HealthCheckRequest(), timeout=max(0.05, deadline - time.monotonic()))
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.002)
    raise RuntimeError(f"127.0.0.1:{port} did not answer SERVING within {timeout:.0f} s")


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd (state) on; the name may hold spaces


def process_tree(pid: int) -> list[int]:
    """`pid` and every process descended from it (a server with worker processes)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children.get(current, []))
    return out


def cpu_seconds(pids: Sequence[int]) -> float:
    """utime + stime of the processes (all their threads), from /proc/PID/stat, in seconds."""
    ticks = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])  # stat fields 14 and 15
    return ticks / CLOCK_TICKS


def run_job(job: Any, timeout: float) -> Any:
    """Run oracle.bench.measure on `job` in a fresh process; its samples, or RuntimeError with its error."""
    process = subprocess.Popen(
        module_command("oracle.bench.measure"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _live.add(process)
    try:
        out, err = process.communicate(pickle.dumps(job), timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"took more than {timeout:.0f} s (stopped)") from None
    finally:
        stop(process)
    if not out:
        lines = err.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit {process.returncode}")
    status, value = pickle.loads(out)
    if status != "ok":
        raise RuntimeError(value)
    return value


@contextlib.contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within: SIGTERM raises SystemExit, so that the `finally` blocks stop the servers (the old handler after)."""

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
