"""The whole benchmark: one row per line of issue 13's table, in-process rows first, then the server rows."""

from __future__ import annotations

import importlib.util
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib import metadata
from itertools import zip_longest
from pathlib import Path

from oracle.bench.http_rows import http_rows
from oracle.bench.inproc import InProcessSizes, check_rows, legal_rows, throughput_rows
from oracle.bench.native_rows import native_rows
from oracle.bench.procs import stop_all
from oracle.bench.rows import Row, missing
from oracle.bench.serving import (
    ServerSizes,
    grpc_rows,
    serve_has_workers,
    startup_rows,
    stream_games,
    verify_rows,
    workers_rows,
)
from oracle.bench.states import bench_records, positions, request_bytes, sample, stream_bytes
from oracle.build import core_build
from oracle.ruleset.loader import default_rule_book

PARTS = ("inproc", "grpc", "http", "serving", "workers", "native", "verify")  #: what `Sizes.only` may name
UNARY_PAYLOADS = 200  #: CheckAction requests the client cycles through (the first of the sampled states)
NOT_VERIFIED = missing("verify.wall", "canasta-oracle verify, all rule sets: wall", "s", "not run (pass --verify)")


@dataclass(frozen=True)
class Sizes:
    """Everything the suite measures and for how long."""

    in_process: InProcessSizes = field(default_factory=InProcessSizes)
    servers: ServerSizes = field(default_factory=ServerSizes)
    with_servers: bool = True  #: False: in-process rows only
    only: tuple[str, ...] = ()  #: the PARTS to measure (empty: all of them)


def bytecode() -> str:
    """Whether the processes the benchmark starts find the package's modules compiled to bytecode (pip's install
    compiles them); when they do not, each start compiles the source, which the start-up rows (time to SERVING,
    verify) then include."""
    from oracle.ruleset import loader as probe  # a module every started process imports (each loads the book)

    if Path(importlib.util.cache_from_source(probe.__file__)).exists():
        return "cached"
    if sys.flags.dont_write_bytecode:
        return "not cached (PYTHONDONTWRITEBYTECODE is set): each process start compiles the source"
    return "not cached yet (the first start writes it)"


def context(sizes: Sizes) -> dict[str, object]:
    """The run's options and machine, printed with --json."""
    versions = {}
    for name in ("canasta-oracle", "grpcio", "protobuf"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "?"
    return {
        "sizes": asdict(sizes),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "versions": versions,
        "core": core_build(),
        "bytecode": bytecode(),
    }


def run(sizes: Sizes, progress: Callable[[str], None] = lambda _: None) -> list[Row]:
    """Measure every row (servers are always stopped, whatever happens)."""
    unknown = sorted(set(sizes.only) - set(PARTS))
    if unknown:
        raise ValueError(f"no such part of the benchmark: {', '.join(unknown)} (the parts: {', '.join(PARTS)})")

    def wanted(part: str) -> bool:
        return not sizes.only or part in sizes.only

    book = default_rule_book()
    records = bench_records()
    found = positions(book, records)
    rows: list[Row] = []
    if wanted("inproc"):
        rows += check_rows(found, sizes.in_process, progress)
        rows += legal_rows(found, sizes.in_process, progress)
        rows += throughput_rows(sizes.in_process, progress)
    measured, _ = sample(found, min(UNARY_PAYLOADS, max(1, sizes.in_process.states)))
    unary = [request_bytes(p) for p in measured]
    by_rule_set = [[r for r in records if r.rule_set_id == i] for i in sorted({r.rule_set_id for r in records})]
    games = [r for group in zip_longest(*by_rule_set) for r in group if r is not None]  # 2p, 4p, 2p, ...
    streams = [stream_bytes(r) for r in games[: stream_games(sizes.servers.seconds)]]
    parts: list[tuple[str, Callable[[], list[Row]]]] = []
    if sizes.with_servers:
        workers = serve_has_workers()
        parts += [
            ("grpc", lambda: grpc_rows(sizes.servers, unary, streams, workers, progress)),
            ("http", lambda: http_rows(sizes.servers, unary, progress)),
            ("serving", lambda: startup_rows(sizes.servers, progress)),
            ("workers", lambda: workers_rows(sizes.servers, unary, workers, progress)),
            ("native", lambda: native_rows(sizes.servers, unary, streams[0], workers, progress)),
        ]
    parts.append(("verify", lambda: verify_rows(progress) if sizes.servers.verify else [NOT_VERIFIED]))
    parts = [(name, measure) for name, measure in parts if wanted(name)]
    try:
        for name, measure in parts:
            try:
                rows += measure()
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                rows.append(missing(name, f"{name} rows", "", f"n/a: {exc}"))
    finally:
        stop_all()
    return rows
