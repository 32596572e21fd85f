"""The corpus benchmark: simulated games written once as records, then replayed in process and on local Dask
clusters; prints actions per second of wall clock (what a user of `replay PATH...` sees) and per second of the
replaying threads' CPU time (which other load on the machine does not change).

    python -m oracle.bench.corpus --games 10000 --workers 1,2 [--rules classic-2p] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import json_format

from oracle.service.corpus import FileResult, Options, replay_files
from oracle.service.corpus_report import Summary, summarise


def _simulate(args: tuple[str, int, str]) -> int:
    """Simulate one game and write its record (a task of the generation); its number of actions."""
    from oracle.games.simulate import simulate_game
    from oracle.ruleset.loader import shipped_rule_set
    from oracle.service.convert_record import record_to_proto

    rule_set_id, seed, directory = args
    game = simulate_game(shipped_rule_set(rule_set_id).rules, seed)
    text = json_format.MessageToJson(record_to_proto(game.record), indent=None) + "\n"
    Path(directory, f"game-{seed}.json").write_text(text, encoding="utf-8")
    return game.actions


def generate(directory: Path, games: int, rule_set_id: str = "classic-2p", workers: int = 1) -> list[str]:
    """Write `games` simulated records (seeds 0..games-1) into `directory` unless already there; their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    wanted = [(rule_set_id, seed, str(directory)) for seed in range(games)]
    missing = [w for w in wanted if not Path(w[2], f"game-{w[1]}.json").exists()]
    if missing and workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_simulate, missing, chunksize=32))
    else:
        for task in missing:
            _simulate(task)
    return [str(Path(directory, f"game-{seed}.json")) for seed in range(games)]


@dataclass(frozen=True)
class Row:
    """One measured run."""

    where: str
    seconds: float  #: wall clock
    cpu_seconds: float  #: thread CPU time of the replays, summed over the workers
    summary: Summary

    @property
    def actions_per_second(self) -> float:
        """Actions replayed per second of wall clock."""
        return self.summary.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_cpu_second(self) -> float:
        """Actions replayed per second of the replaying threads' CPU time."""
        return self.summary.actions / self.cpu_seconds if self.cpu_seconds else 0.0


def timed_batch(paths: Sequence[str], options: Options) -> tuple[list[FileResult], float]:
    """Replay a batch of files; the results and the thread CPU time they took."""
    start = time.thread_time()
    results = replay_files(paths, options)
    return results, time.thread_time() - start


def measure(files: Sequence[str], workers: Sequence[int], *, in_process: bool = True) -> list[Row]:
    """Replay `files` in this process (if asked) and on a local cluster of each size in `workers`.

    A cluster's start is not timed (it is started, the run timed, then it is closed).
    """
    options = Options()
    rows = []
    if in_process:
        start = time.perf_counter()
        results, cpu = timed_batch(files, options)
        rows.append(Row("in process", time.perf_counter() - start, cpu, summarise(results)))
    for n in workers:
        rows.append(_on_cluster(files, options, n))
    return rows


def _on_cluster(files: Sequence[str], options: Options, workers: int) -> Row:
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(_warm)  # each worker loads the rule book before the clock starts
        size = max(1, min(64, len(files) // (workers * 8)))
        batches = [list(files[k : k + size]) for k in range(0, len(files), size)]
        start = time.perf_counter()
        done = client.gather(client.map(timed_batch, batches, options=options, pure=False))
        seconds = time.perf_counter() - start
        results = [r for batch, _ in done for r in batch]
        cpu = sum(c for _, c in done)
        return Row(f"local cluster, {workers} worker(s)", seconds, cpu, summarise(results))


def _warm() -> None:
    from oracle.ruleset.loader import shipped_rule_set

    shipped_rule_set("classic-2p")


def table(rows: Sequence[Row]) -> list[str]:
    """The rows as text."""
    lines = [
        f"{'run':<28} {'games':>7} {'actions':>10} {'wall s':>8} {'actions/s':>10} {'CPU s':>8} {'actions/CPU s':>14}"
    ]
    for row in rows:
        s = row.summary
        lines.append(
            f"{row.where:<28} {s.games:>7} {s.actions:>10} {row.seconds:>8.1f} {row.actions_per_second:>10.0f}"
            f" {row.cpu_seconds:>8.1f} {row.actions_per_cpu_second:>14.0f}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Generate (once) and replay a simulated corpus; print the table."""
    parser = argparse.ArgumentParser(prog="python -m oracle.bench.corpus", description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", default="1,2", help="local cluster sizes, comma-separated")
    parser.add_argument("--rules", default="classic-2p")
    parser.add_argument("--dir", type=Path, default=None, help="where the records go (default: a temporary dir)")
    parser.add_argument("--no-in-process", action="store_true", help="skip the in-process run")
    args = parser.parse_args(argv)
    sizes = [int(w) for w in args.workers.split(",") if w]
    directory = args.dir or Path(tempfile.mkdtemp(prefix="canasta-corpus-"))
    start = time.perf_counter()
    files = generate(directory, args.games, args.rules, workers=os.cpu_count() or 1)
    print(f"{len(files)} records in {directory} ({time.perf_counter() - start:.0f} s to generate)", flush=True)
    rows = measure(files, sizes, in_process=not args.no_in_process)
    print("\n".join(table(rows)))
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} processor(s), load average {load:.1f}; cluster start excluded from the times")
    return 0


if __name__ == "__main__":
    sys.exit(main())
