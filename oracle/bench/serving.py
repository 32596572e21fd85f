"""The server rows: the oracle and its echo baseline in separate processes with the client in a third, taking turns
in rounds (the median of per-round ratios, server CPU per call from /proc); time to SERVING against a bare grpc.aio
server; `canasta-oracle verify` wall and CPU time; serve --workers 2 against 1 when the option exists."""

from __future__ import annotations

import json
import pickle
import resource
import select
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from oracle.bench.echo import STREAM, UNARY
from oracle.bench.procs import Server, clean_environment, module_command, oracle_command, stop, track, wait_serving
from oracle.bench.rows import Row, missing, over_rounds

CHECK_METHOD = "/oracle.api.v1.OracleService/CheckAction"
STREAM_METHOD = "/oracle.api.v1.OracleService/RefereeGame"
NO_WORKERS = "n/a: serve has no --workers option"
FASTEST_STREAM = 10_000  #: messages/s, more than a Python server answers here: bounds the games a turn can use
MESSAGES_PER_GAME = 400  #: about the fewest of a shipped game
Progress = Callable[[str], None]


@dataclass(frozen=True)
class ServerSizes:
    """How long the server rows run."""

    rounds: int = 6  #: turns per target (A B, then B A, ...)
    seconds: float = 1.5  #: timed seconds per target per round
    inflight: int = 16  #: unary calls in flight
    window: int = 32  #: stream messages sent ahead of the answers
    starts: int = 3  #: server starts timed per kind (time to SERVING)
    verify: bool = False  #: also time `canasta-oracle verify` (about 10 s)


class ClientProcess:
    """oracle.bench.client in its own process, one JSON command and answer per line."""

    def __init__(self, payloads: Path) -> None:
        self._log: IO[bytes] = tempfile.TemporaryFile()
        self.process = track(
            subprocess.Popen(
                module_command("oracle.bench.client", str(payloads)),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
            )
        )

    def send(self, cmd: dict[str, Any]) -> None:
        """Send one command."""
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(cmd) + "\n").encode())
        self.process.stdin.flush()

    def receive(self, timeout: float) -> dict[str, Any]:
        """The answer to the last command; RuntimeError on a timeout, an error or an exit."""
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else b""
        if not line:
            self._log.seek(0)
            tail = self._log.read().decode("utf-8", "replace")[-1500:]
            raise RuntimeError(f"the client gave no answer within {timeout:.0f} s: {tail}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"client: {answer['error']}")
        return answer

    def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a command and wait for its answer."""
        self.send(cmd)
        return self.receive(timeout)

    def close(self) -> None:
        """Ask it to quit; kill it if it does not."""
        try:
            self.send({"op": "quit"})
            self.process.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        stop(self.process)
        self._log.close()


def stream_games(seconds: float) -> int:
    """How many recorded games a stream turn of `seconds` can get through at most (answers are recorded for them)."""
    return int(seconds * FASTEST_STREAM / MESSAGES_PER_GAME) + 2


def serve_has_workers() -> bool:
    """Whether `canasta-oracle serve` has a --workers option (multi-process serving)."""
    try:
        done = subprocess.run(oracle_command("serve", "--help"), capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return b"--workers" in done.stdout


def oracle_serve(workers: int | None = None) -> list[str]:
    """`canasta-oracle serve` on 127.0.0.1 port 0 (with --workers N when given)."""
    extra = ["--workers", str(workers)] if workers else []
    return oracle_command("serve", "--host", "127.0.0.1", "--port", "0", *extra)


def startup_rows(sizes: ServerSizes, progress: Progress) -> list[Row]:
    """Seconds from starting the process to a SERVING health answer: the oracle and a bare server, in turns."""
    kinds = {"oracle": oracle_serve(), "bare": module_command("oracle.bench.echo")}
    times: dict[str, list[float]] = {k: [] for k in kinds}
    for i in range(sizes.starts):
        for name in kinds if i % 2 == 0 else reversed(kinds):
            progress(f"time to SERVING: {name} ({i + 1}/{sizes.starts})")
            with Server(kinds[name]) as server:
                wait_serving(server.port)
                times[name].append(time.perf_counter() - server.started)
    return [
        over_rounds("serving.oracle", "time to SERVING: canasta-oracle serve", times["oracle"], "s"),
        over_rounds("serving.bare", "  a bare grpc.aio server with health, same run", times["bare"], "s"),
    ]


def in_turns(names: Sequence[str], rounds: int) -> Iterator[tuple[int, str]]:
    """(round, name): each name in turn for `rounds` rounds, the order reversed every other round (A B, B A, ...)."""
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            yield r, name


def _turns(
    client: ClientProcess, targets: dict[str, dict[str, Any]], sizes: ServerSizes, progress: Progress, what: str
) -> dict[str, list[dict[str, Any]]]:
    """Each target in turn (A B, B A, ...) for `rounds` rounds; every answer kept."""
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
    for r, name in in_turns(list(targets), sizes.rounds):
        progress(f"{what}: {name} (round {r + 1}/{sizes.rounds})")
        results[name].append(client.ask(targets[name], timeout=sizes.seconds * 4 + 120))
    return results


def _rate(answer: dict[str, Any]) -> float:
    return float(answer["count"]) / float(answer["wall"]) if answer["wall"] > 0 else 0.0


def _cpu_us(answer: dict[str, Any]) -> float:
    return float(answer["server_cpu"]) / max(1, int(answer["count"])) * 1e6


def _client_us(answer: dict[str, Any]) -> float:
    return float(answer["client_cpu"]) / max(1, int(answer["count"])) * 1e6


def _compare(key: str, title: str, per: str, results: dict[str, list[dict[str, Any]]]) -> list[Row]:
    ours, echo = results["oracle"], results["echo"]
    errors = sum(int(a["errors"]) for a in ours + echo)
    note = f"{errors} failed {per}s" if errors else ""
    ratios = [_rate(o) / _rate(e) for o, e in zip(ours, echo, strict=True) if _rate(e) > 0]
    cpu_ratios = [_cpu_us(e) / _cpu_us(o) for o, e in zip(ours, echo, strict=True) if _cpu_us(o) > 0]
    unit = f"{per}s/s"
    return [
        over_rounds(f"{key}.ratio", title, ratios, "x echo", note),
        over_rounds(f"{key}.cpu_ratio", f"  echo's server CPU per {per} over the oracle's", cpu_ratios, "x"),
        over_rounds(f"{key}.oracle_rate", "  oracle", [_rate(a) for a in ours], unit),
        over_rounds(f"{key}.echo_rate", "  echo", [_rate(a) for a in echo], unit),
        over_rounds(f"{key}.oracle_cpu", f"  oracle server CPU per {per}", [_cpu_us(a) for a in ours], "µs"),
        over_rounds(f"{key}.echo_cpu", f"  echo server CPU per {per}", [_cpu_us(a) for a in echo], "µs"),
        over_rounds(f"{key}.client_cpu", f"  client CPU per {per} (echo turns)", [_client_us(a) for a in echo], "µs"),
    ]


def _floor_rows(results: dict[str, list[dict[str, Any]]]) -> list[Row]:
    """The floor server (the echo plus parse, read every card, serialize) against the echo, in the same turns: the
    best ratio any CheckAction on this transport could reach."""
    floor, echo = results["floor"], results["echo"]
    ratios = [_rate(f) / _rate(e) for f, e in zip(floor, echo, strict=True) if _rate(e) > 0]
    title = "  floor: an echo that parses, reads every card and serializes, vs echo"
    return [
        over_rounds("grpc.check.floor_ratio", title, ratios, "x echo"),
        over_rounds("grpc.check.floor_cpu", "  floor server CPU per call", [_cpu_us(a) for a in floor], "µs"),
    ]


def grpc_rows(
    sizes: ServerSizes, unary: list[bytes], streams: list[list[bytes]], workers: bool, progress: Progress
) -> list[Row]:
    """CheckAction with `inflight` calls in flight and RefereeGame streams, each against the echo, in turns."""
    with tempfile.TemporaryDirectory(prefix="canasta-bench-") as tmp:
        payloads, answers = Path(tmp) / "payloads.pickle", Path(tmp) / "answers.pickle"
        payloads.write_bytes(pickle.dumps({"unary": unary, "streams": streams}))
        progress("starting the oracle server (one process), the client and the echo server")
        with Server(oracle_serve(1 if workers else None)) as oracle:
            wait_serving(oracle.port)
            client = ClientProcess(payloads)
            try:
                recorded = client.ask(
                    {
                        "op": "record",
                        "port": oracle.port,
                        "unary_method": CHECK_METHOD,
                        "stream_method": STREAM_METHOD,
                        "out": str(answers),
                    },
                    timeout=600,
                )
                with (
                    Server(module_command("oracle.bench.echo", "--answers", str(answers))) as echo,
                    Server(module_command("oracle.bench.echo", "--answers", str(answers), "--floor")) as floor,
                ):
                    common = {"inflight": sizes.inflight, "seconds": sizes.seconds, "window": sizes.window}
                    unary_targets = {
                        "oracle": {"op": "unary", "port": oracle.port, "method": CHECK_METHOD, "pids": [oracle.pid]},
                        "echo": {"op": "unary", "port": echo.port, "method": UNARY, "pids": [echo.pid]},
                        "floor": {"op": "unary", "port": floor.port, "method": UNARY, "pids": [floor.pid]},
                    }
                    stream_targets = {
                        "oracle": {"op": "stream", "port": oracle.port, "method": STREAM_METHOD, "pids": [oracle.pid]},
                        "echo": {"op": "stream", "port": echo.port, "method": STREAM, "pids": [echo.pid]},
                    }
                    for target in (*unary_targets.values(), *stream_targets.values()):
                        target.update(common)
                    unary_results = _turns(client, unary_targets, sizes, progress, "CheckAction")
                    stream_results = _turns(client, stream_targets, sizes, progress, "RefereeGame")
            finally:
                client.close()
    title = f"CheckAction over gRPC, {sizes.inflight} in flight, vs echo"
    rows = _compare("grpc.check", title, "call", unary_results)
    rows += _floor_rows(unary_results)
    rows += _compare("grpc.stream", "RefereeGame, one stream per game, vs echo stream", "message", stream_results)
    if recorded["errors"]:
        rows.append(missing("grpc.record", "  oracle errors while recording answers", "", f"{recorded['errors']}"))
    return rows


def workers_rows(sizes: ServerSizes, unary: list[bytes], workers: bool, progress: Progress) -> list[Row]:
    """Calls/s of serve --workers 2 over --workers 1, loaded by two client processes, in turns."""
    title = "serve --workers 2 vs 1, 2 client processes"
    if not workers:
        return [missing("workers.ratio", title, "x", NO_WORKERS)]
    with tempfile.TemporaryDirectory(prefix="canasta-bench-") as tmp:
        payloads = Path(tmp) / "payloads.pickle"
        payloads.write_bytes(pickle.dumps({"unary": unary, "streams": []}))
        with Server(oracle_serve(1)) as one, Server(oracle_serve(2)) as two:
            wait_serving(one.port)
            wait_serving(two.port)
            clients = [ClientProcess(payloads), ClientProcess(payloads)]
            rates: dict[str, list[float]] = {"1": [], "2": []}
            cpu: dict[str, list[float]] = {"1": [], "2": []}
            try:
                for r in range(sizes.rounds):
                    for name, server in [("1", one), ("2", two)][:: 1 if r % 2 == 0 else -1]:
                        progress(f"serve --workers {name} (round {r + 1}/{sizes.rounds})")
                        cmd = {
                            "op": "unary",
                            "port": server.port,
                            "method": CHECK_METHOD,
                            "pids": [server.pid],
                            "inflight": sizes.inflight,
                            "seconds": sizes.seconds,
                            "channels": 4,
                            "start_at": time.time() + 1.0,
                        }
                        for c in clients:
                            c.send(cmd)
                        answers = [c.receive(sizes.seconds * 4 + 120) for c in clients]
                        count = sum(int(a["count"]) for a in answers)
                        rates[name].append(count / max(float(a["wall"]) for a in answers))
                        cpu[name].append(float(answers[0]["server_cpu"]) / max(1, count) * 1e6)
            finally:
                for c in clients:
                    c.close()
    ratios = [b / a for a, b in zip(rates["1"], rates["2"], strict=True) if a > 0]
    return [
        over_rounds("workers.ratio", title, ratios, "x"),
        over_rounds("workers.one_rate", "  --workers 1", rates["1"], "calls/s"),
        over_rounds("workers.two_rate", "  --workers 2", rates["2"], "calls/s"),
        over_rounds("workers.two_cpu", "  --workers 2 server CPU per call", cpu["2"], "µs"),
    ]


def verify_rows(progress: Progress) -> list[Row]:
    """`canasta-oracle verify` over every shipped rule set: proving everything (--no-cache: wall and CPU seconds,
    with its child processes), and again once the results are cached (a run that fills a fresh cache directory,
    then the run timed, which finds every rule set unchanged)."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="canasta-bench-cache-") as cache:
        env = {**clean_environment(), "CANASTA_ORACLE_CACHE": cache}
        for label, args in (("proving everything (--no-cache)", ["--no-cache"]), ("", []), ("cached", [])):
            progress(f"canasta-oracle verify {' '.join(args)}".rstrip())
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                oracle_command("verify", *args), capture_output=True, timeout=1800, check=False, env=env
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            note = "" if done.returncode == 0 else f"exit {done.returncode}"
            if args:
                title = f"canasta-oracle verify, all rule sets, {label}: wall"
                rows.append(Row("verify.wall", title, wall, "s", note=note))
                rows.append(Row("verify.cpu", "  CPU (with its child processes)", cpu, "s", note=note))
            elif label == "cached":
                title = "  the same once cached (every rule set unchanged): wall"
                rows.append(Row("verify.cached", title, wall, "s", note=note))
    return rows
