"""The server rows under native load (h2load): CheckAction and RefereeGame against the echo, serve --workers 2
against 1, each in turns over rounds, with the load generator a small share of the machine."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from oracle.bench import native_load
from oracle.bench.echo import GAME_KEY, STREAM, UNARY
from oracle.bench.procs import Server, cpu_seconds, module_command, process_tree, wait_serving
from oracle.bench.rows import Row, missing, over_rounds
from oracle.bench.serving import CHECK_METHOD, NO_WORKERS, STREAM_METHOD, Progress, ServerSizes, in_turns, oracle_serve

CONNECTIONS = 32  #: h2load's connections for unary calls, one call at a time on each
WARM_CALLS = 4 * CONNECTIONS  #: unary calls of a target's first, untimed run (which also sizes its turns)
WARM_STREAMS = 3  #: streams (whole games) of a stream target's first run
CHECK_KEYS = ("ratio", "oracle_rate", "echo_rate", "oracle_cpu", "echo_cpu", "client_cpu", "floor_ratio")
STREAM_KEYS = ("ratio", "oracle_rate", "echo_rate", "oracle_cpu", "echo_cpu")
WORKER_KEYS = ("ratio", "one_rate", "two_rate", "one_cores", "client_cpu")
CHECK_TITLE = f"CheckAction under native load (h2load, {CONNECTIONS} connections), vs echo"
STREAM_TITLE = "RefereeGame under native load, one stream at a time, vs echo stream"
WORKERS_TITLE = f"serve --workers 2 vs 1 under native load (h2load, {CONNECTIONS} connections)"


@dataclass(frozen=True)
class Target:
    """One server under load: where, which method, what body, and what each call must answer."""

    port: int
    pids: list[int]  #: the server's process tree (its CPU is read from /proc)
    method: str
    body: Path  #: the request body h2load sends (framed gRPC messages)
    answer_bytes: int  #: the framed answer bytes of one call
    connections: int = CONNECTIONS
    headers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn(native_load.Load):
    """One timed run against a target: h2load's run, and what it cost the server."""

    server_cpu: float  #: seconds of CPU of the server's processes


def _load(target: Target, calls: int) -> Turn:
    before = cpu_seconds(target.pids)
    done = native_load.run(
        target.port,
        target.method,
        target.body,
        calls,
        answer_bytes=target.answer_bytes,
        connections=target.connections,
        headers=target.headers,
    )
    server_cpu = cpu_seconds(target.pids) - before
    return Turn(done.calls, done.seconds, done.answer_bytes, done.client_cpu, server_cpu)


def _turns(targets: dict[str, Target], sizes: ServerSizes, progress: Progress, what: str) -> dict[str, list[Turn]]:
    """A warm-up run of each target sizes its turns (`seconds` each); then each in turn (A B, B A, ...)."""
    calls = {}
    for name, target in targets.items():
        progress(f"{what} under h2load: warming {name} up")
        warm = _load(target, WARM_CALLS if target.connections > 1 else WARM_STREAMS)
        calls[name] = max(target.connections, round(warm.rate * sizes.seconds))
    out: dict[str, list[Turn]] = {name: [] for name in targets}
    for r, name in in_turns(list(targets), sizes.rounds):
        progress(f"{what} under h2load: {name} (round {r + 1}/{sizes.rounds})")
        out[name].append(_load(targets[name], calls[name]))
    return out


def _per(turns: Sequence[Turn], field: str, each: int = 1) -> list[float]:
    """µs of server or client CPU per call (or per message: `each` messages a call), one figure per turn."""
    return [getattr(t, field) / max(1, t.calls * each) * 1e6 for t in turns]


def _ratios(ours: Sequence[Turn], theirs: Sequence[Turn]) -> list[float]:
    """Each round's rate over the other target's rate in the same round (rounds where it answered nothing left out)."""
    return [a.rate / b.rate for a, b in zip(ours, theirs, strict=True) if b.rate > 0]


def _absent(prefix: str, keys: Sequence[str], title: str, note: str) -> list[Row]:
    return [missing(f"{prefix}.{key}", title if key == "ratio" else f"  {key}", "", note) for key in keys]


def native_rows(
    sizes: ServerSizes, unary: Sequence[bytes], stream: Sequence[bytes], workers: bool, progress: Progress
) -> list[Row]:
    """CheckAction (one position, repeated) and RefereeGame (one recorded game a stream) against the echo, then
    serve --workers 2 against 1, all driven by h2load."""
    if not native_load.available():
        return [
            *_absent("native.check", CHECK_KEYS, CHECK_TITLE, native_load.INSTALL),
            *_absent("native.stream", STREAM_KEYS, STREAM_TITLE, native_load.INSTALL),
            *_absent("native.workers", WORKER_KEYS, WORKERS_TITLE, native_load.INSTALL),
        ]
    with tempfile.TemporaryDirectory(prefix="canasta-bench-native-") as tmp:
        folder = Path(tmp)
        unary_body, stream_body = folder / "unary.grpc", folder / "stream.grpc"
        unary_body.write_bytes(native_load.frame([unary[0]]))
        stream_body.write_bytes(native_load.frame(stream))
        rows = _against_echo(sizes, unary[0], stream, (unary_body, stream_body), folder, workers, progress)
        if not workers:
            return rows + _absent("native.workers", WORKER_KEYS, WORKERS_TITLE, NO_WORKERS)
        return rows + _workers(sizes, unary[0], unary_body, progress)


def _against_echo(
    sizes: ServerSizes,
    request: bytes,
    stream: Sequence[bytes],
    bodies: tuple[Path, Path],
    folder: Path,
    workers: bool,
    progress: Progress,
) -> list[Row]:
    unary_body, stream_body = bodies
    game = (f"{GAME_KEY}: 0",)  # the echo answers the stream with the oracle's answers to game 0
    with Server(oracle_serve(1 if workers else None)) as oracle:
        wait_serving(oracle.port)
        progress("recording the oracle's answers for h2load's check")
        answer = native_load.unary_answer(oracle.port, CHECK_METHOD, request)
        answers = native_load.stream_answers(oracle.port, STREAM_METHOD, stream, [(GAME_KEY, "0")])
        recorded = folder / "answers.pickle"
        recorded.write_bytes(pickle.dumps({"unary": {request: answer}, "streams": [answers]}))
        one, game_bytes = native_load.framed_size([answer]), native_load.framed_size(answers)
        with (
            Server(module_command("oracle.bench.echo", "--answers", str(recorded))) as echo,
            Server(module_command("oracle.bench.echo", "--answers", str(recorded), "--floor")) as floor,
        ):
            wait_serving(echo.port)
            wait_serving(floor.port)
            ours, theirs = process_tree(oracle.pid), process_tree(echo.pid)
            unary_targets = {
                "oracle": Target(oracle.port, ours, CHECK_METHOD, unary_body, one),
                "echo": Target(echo.port, theirs, UNARY, unary_body, one),
                "floor": Target(floor.port, process_tree(floor.pid), UNARY, unary_body, one),
            }
            stream_targets = {
                "oracle": Target(oracle.port, ours, STREAM_METHOD, stream_body, game_bytes, 1, game),
                "echo": Target(echo.port, theirs, STREAM, stream_body, game_bytes, 1, game),
            }
            checks = _turns(unary_targets, sizes, progress, "CheckAction")
            games = _turns(stream_targets, sizes, progress, "RefereeGame")
    n = len(stream)
    o, e = checks["oracle"], checks["echo"]
    rows = [
        over_rounds(
            "native.check.ratio",
            CHECK_TITLE,
            _ratios(o, e),
            "x echo",
            "one position asked again and again: the oracle's caches answer it",
        ),
        over_rounds("native.check.oracle_rate", "  oracle", [t.rate for t in o], "calls/s"),
        over_rounds("native.check.echo_rate", "  echo", [t.rate for t in e], "calls/s"),
        over_rounds("native.check.oracle_cpu", "  oracle server CPU per call", _per(o, "server_cpu"), "µs"),
        over_rounds("native.check.echo_cpu", "  echo server CPU per call", _per(e, "server_cpu"), "µs"),
        over_rounds("native.check.client_cpu", "  h2load CPU per call (echo turns)", _per(e, "client_cpu"), "µs"),
        over_rounds(
            "native.check.floor_ratio",
            "  floor: an echo that parses, reads every card and serializes, vs echo",
            _ratios(checks["floor"], e),
            "x echo",
        ),
    ]
    o, e = games["oracle"], games["echo"]
    return [
        *rows,
        over_rounds(
            "native.stream.ratio",
            STREAM_TITLE,
            _ratios(o, e),
            "x echo",
            f"a shipped game of {n} messages a stream",
        ),
        over_rounds("native.stream.oracle_rate", "  oracle", [t.rate * n for t in o], "messages/s"),
        over_rounds("native.stream.echo_rate", "  echo", [t.rate * n for t in e], "messages/s"),
        over_rounds("native.stream.oracle_cpu", "  oracle server CPU per message", _per(o, "server_cpu", n), "µs"),
        over_rounds("native.stream.echo_cpu", "  echo server CPU per message", _per(e, "server_cpu", n), "µs"),
    ]


def _workers(sizes: ServerSizes, request: bytes, body: Path, progress: Progress) -> list[Row]:
    """serve --workers 1 and 2 in turns; how many cores one process keeps busy says how far two can go."""
    with Server(oracle_serve(1)) as one, Server(oracle_serve(2)) as two:
        wait_serving(one.port)
        wait_serving(two.port)
        answer = native_load.framed_size([native_load.unary_answer(one.port, CHECK_METHOD, request)])
        targets = {
            "1": Target(one.port, process_tree(one.pid), CHECK_METHOD, body, answer),
            "2": Target(two.port, process_tree(two.pid), CHECK_METHOD, body, answer),
        }
        turns = _turns(targets, sizes, progress, "serve --workers")
    a, b = turns["1"], turns["2"]
    return [
        over_rounds("native.workers.ratio", WORKERS_TITLE, _ratios(b, a), "x"),
        over_rounds("native.workers.one_rate", "  --workers 1", [t.rate for t in a], "calls/s"),
        over_rounds("native.workers.two_rate", "  --workers 2", [t.rate for t in b], "calls/s"),
        over_rounds(
            "native.workers.one_cores",
            "  --workers 1: cores its process keeps busy (gRPC's own threads work beside Python's)",
            [t.server_cpu / t.seconds for t in a if t.seconds > 0],
            "cores",
        ),
        over_rounds("native.workers.client_cpu", "  h2load CPU per call", _per(a + b, "client_cpu"), "µs"),
    ]


__all__ = ["native_rows"]
