"""The bench command at tiny sizes: every row of issue 13's table comes out with a number or a reason, the plain
table parses, and no server or client process is left running. No time is asserted."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from oracle.bench.inproc import InProcessSizes
from oracle.bench.procs import process_tree
from oracle.bench.rows import Row, table
from oracle.bench.serving import NO_WORKERS, ServerSizes
from oracle.cli.main import main

TINY = ["--states", "6", "--games", "1", "--rounds", "1", "--seconds", "0.1", "--starts", "1", "--inflight", "2"]
MEASURED = {  # today's code has every one of these
    "reference.python",
    "check.validated",
    "check.made",
    "check.validation",
    "check.bare",
    "bytes.full",
    "bytes.repeat",
    "bytes.verdict",
    "bytes.floor",
    "legal.all",
    "legal.made",
    "legal.candidate",
    "replay.rate",
    "simulate.classic-2p",
    "simulate.classic-4p",
    "grpc.check.ratio",
    "grpc.check.cpu_ratio",
    "grpc.check.oracle_rate",
    "grpc.check.echo_rate",
    "grpc.check.oracle_cpu",
    "grpc.check.echo_cpu",
    "grpc.check.floor_ratio",
    "grpc.check.floor_cpu",
    "grpc.stream.ratio",
    "grpc.stream.cpu_ratio",
    "grpc.stream.oracle_rate",
    "grpc.stream.echo_rate",
    "grpc.stream.oracle_cpu",
    "grpc.stream.echo_cpu",
    "serving.oracle",
    "serving.bare",
    "http.check.ratio",
    "http.check.http_rate",
    "http.check.grpc_rate",
    "http.check.http_cpu",
    "http.check.grpc_cpu",
    "native.check.ratio",
    "native.check.oracle_rate",
    "native.check.echo_rate",
    "native.check.oracle_cpu",
    "native.check.echo_cpu",
    "native.check.client_cpu",
    "native.check.floor_ratio",
    "native.stream.ratio",
    "native.stream.oracle_rate",
    "native.stream.echo_rate",
    "native.stream.oracle_cpu",
    "native.stream.echo_cpu",
    "native.workers.ratio",
    "native.workers.one_rate",
    "native.workers.two_rate",
    "native.workers.one_cores",
    "native.workers.client_cpu",
}
# Server CPU is read from /proc in clock ticks (10 ms): a tiny run on a busy machine can read 0 ticks, so these
# rows may be 0 (or a ratio may be missing, with a note) without anything being wrong.
TICK_BOUND = {
    "grpc.check.cpu_ratio",
    "grpc.check.oracle_cpu",
    "grpc.check.echo_cpu",
    "grpc.check.floor_cpu",
    "grpc.stream.cpu_ratio",
    "grpc.stream.oracle_cpu",
    "grpc.stream.echo_cpu",
    "http.check.http_cpu",
    "http.check.grpc_cpu",
    "native.check.oracle_cpu",
    "native.check.echo_cpu",
    "native.check.client_cpu",
    "native.stream.oracle_cpu",
    "native.stream.echo_cpu",
    "native.workers.one_cores",
    "native.workers.client_cpu",
}
pytestmark = pytest.mark.slow  # servers and a dozen measuring processes: about half a minute
OPTIONAL = {"legal.draw", "legal.play", "verify.wall", "workers.ratio"}  # too few states of a phase; not asked for


@pytest.fixture(scope="module")
def bench_json() -> dict[str, Any]:
    before = set(process_tree(os.getpid()))
    result = CliRunner().invoke(main, ["bench", *TINY, "--json"], prog_name="canasta-oracle")
    assert result.exit_code == 0, (result.output, result.exception)
    assert set(process_tree(os.getpid())) <= before  # every server, client and measuring process stopped
    assert "bench: " in result.stderr  # progress on stderr, the JSON alone on stdout
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_every_row_of_the_table_is_there_with_a_number_or_a_reason(bench_json: dict[str, Any]) -> None:
    rows = {row["key"]: row for row in bench_json["rows"]}
    assert len(rows) == len(bench_json["rows"])  # keys are unique
    assert MEASURED | OPTIONAL <= set(rows)
    for key, row in rows.items():
        assert row["title"] and isinstance(row["unit"], str), row
        if row["value"] is None:
            assert row["note"], f"{key}: no figure and no reason"
        else:
            assert isinstance(row["value"], float | int) and math.isfinite(row["value"]) and row["value"] >= 0, row
    for key in MEASURED - TICK_BOUND:
        assert rows[key]["value"] is not None and rows[key]["value"] > 0, rows[key]
    assert rows["verify.wall"]["value"] is None and "--verify" in rows["verify.wall"]["note"]
    assert rows["workers.ratio"]["value"] is not None or rows["workers.ratio"]["note"] == NO_WORKERS


def test_spreads_come_from_the_samples(bench_json: dict[str, Any]) -> None:
    rows = {row["key"]: row for row in bench_json["rows"]}
    for key in ("check.validated", "bytes.full", "legal.all"):
        detail = rows[key]["detail"]
        assert detail["p10"] <= detail["median"] <= detail["p90"]
        assert detail["n"] == 6
    ratio = rows["grpc.check.ratio"]["detail"]
    assert ratio["min"] <= ratio["median"] <= ratio["max"] and ratio["rounds"] == 1
    assert bench_json["context"]["sizes"]["servers"]["inflight"] == 2


def test_the_plain_table_has_one_parsable_line_per_row(bench_json: dict[str, Any]) -> None:
    rows = [Row(**row) for row in bench_json["rows"]]
    lines = table(rows)
    assert lines[0].split() == ["row", "figure", "unit", "spread"]
    assert len(lines) == len(rows) + 1
    for row, line in zip(rows, lines[1:], strict=True):
        title, figure, *rest = re.split(r"\s{2,}", line.strip())
        assert title == row.title.strip()
        if row.value is None:
            assert figure == "n/a"
        else:
            assert float(figure.replace(",", "")) == pytest.approx(row.value, rel=0.01, abs=0.01)
            assert rest and rest[0] == row.unit


def test_the_verb_defaults_are_the_suite_defaults() -> None:
    from oracle.cli.benchmark import bench

    defaults = {p.name: p.default for p in bench.params}
    inproc, servers = InProcessSizes(), ServerSizes()
    assert (defaults["states"], defaults["games"]) == (inproc.states, inproc.games)
    assert (defaults["rounds"], defaults["seconds"], defaults["inflight"], defaults["starts"]) == (
        servers.rounds,
        servers.seconds,
        servers.inflight,
        servers.starts,
    )


def test_the_verb_offers_exactly_the_suite_parts() -> None:
    from oracle.bench.suite import PARTS
    from oracle.cli.benchmark import bench

    (only,) = [p for p in bench.params if p.name == "only"]
    assert isinstance(only.type, click.Choice) and tuple(only.type.choices) == PARTS


def test_the_run_says_whether_started_processes_find_compiled_bytecode(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib.util
    import sys
    from types import SimpleNamespace

    from oracle.bench import suite

    cached = tmp_path / "main.cpython-311.pyc"
    monkeypatch.setattr(importlib.util, "cache_from_source", lambda _: str(cached))
    cached.write_bytes(b"")
    assert suite.bytecode() == "cached"
    cached.unlink()
    monkeypatch.setattr(sys, "flags", SimpleNamespace(dont_write_bytecode=True))
    assert "PYTHONDONTWRITEBYTECODE" in suite.bytecode()  # each start compiles: start-up rows are slower
    monkeypatch.setattr(sys, "flags", SimpleNamespace(dont_write_bytecode=False))
    assert suite.bytecode().startswith("not cached yet")


def test_the_json_context_names_the_core_and_the_bytecode(bench_json: dict[str, Any]) -> None:
    assert bench_json["context"]["core"] in ("pure Python", "compiled (mypyc)")
    assert bench_json["context"]["bytecode"].startswith(("cached", "not cached"))
