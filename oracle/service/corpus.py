"""Replays whole corpora of record files: finds the files, replays each (in this process or on a Dask cluster) and
returns plain, picklable results."""

from __future__ import annotations

import functools
import glob
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.games.replay import Disagreement, ReplayReport, replay
from oracle.model.errors import InvalidInputError
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.problems import UnknownRuleSetError
from oracle.service.record_files import JSON_SUFFIXES, JSONL_SUFFIXES, RecordConverter, RecordFileError, read_games
from oracle.service.record_files import to_domain as record_of

#: Below this many files a corpus is replayed in this process: starting a local cluster takes seconds.
IN_PROCESS_BELOW = 32


@dataclass(frozen=True)
class Options:
    """How every file of a run is read and replayed (sent to the workers, so plain values only)."""

    judge_all: bool = False
    converters: tuple[str, ...] = ()  #: MODULE:NAME or FILE.py:NAME, besides the installed ones
    specs: str | None = None  #: a rule-set directory instead of the shipped book


@dataclass
class GameResult:
    """One game's replay, as plain values."""

    label: str  #: file:line
    rule_set_id: str = ""
    hands: int = 0
    actions: int = 0
    uncertain: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    error: str = ""  #: the game could not be replayed at all (malformed, unknown rule set)

    @property
    def ok(self) -> bool:
        """Replayed without any disagreement, problem or error."""
        return not (self.disagreements or self.problems or self.error)


@dataclass
class FileResult:
    """One file's games, or why the file could not be read."""

    file: str
    games: list[GameResult] = field(default_factory=list)
    error: str = ""


def disagreement_dict(d: Disagreement) -> dict[str, Any]:
    """A disagreement as JSON-ready values (violations with their codes, fields and citations)."""
    return {
        "hand": d.hand,
        "index": d.index,
        "seat": d.seat,
        "kind": d.kind,
        "field": d.field,
        "claimed": d.claimed,
        "computed": d.computed,
        "uncertain": d.uncertain,
        "violations": [
            {
                "code": str(v.code),
                "field": v.field,
                "explanation": v.explanation,
                "cite": [{"source": s, "section": sec} for s, sec in v.cite],
            }
            for v in d.violations
        ],
    }


def expand(paths: Sequence[str], suffixes: Sequence[str] = ()) -> list[str]:
    """Files, directories (every record file below) and globs, as a sorted list without repeats.

    ValueError names a path that matches nothing.
    """
    known = (*JSON_SUFFIXES, *JSONL_SUFFIXES, *suffixes)
    found: set[str] = set()
    for given in paths:
        matches = sorted(glob.glob(given, recursive=True)) if glob.has_magic(given) else [given]
        if not matches or not any(os.path.exists(m) for m in matches):
            raise ValueError(f"{given}: no such file or directory")
        for match in matches:
            if os.path.isdir(match):
                for root, _, names in os.walk(match):
                    found.update(os.path.join(root, n) for n in names if n.endswith(known))
            else:
                found.add(match)
    return sorted(found)


@functools.lru_cache(maxsize=8)
def converters_of(targets: tuple[str, ...]) -> tuple[RecordConverter, ...]:
    """The converters named MODULE:NAME or FILE.py:NAME, then the installed ones (ValueError names a bad one)."""
    from oracle.service.converters import installed_converters, load_converter

    return (*[load_converter(t) for t in targets], *installed_converters())


@functools.lru_cache(maxsize=64)
def _rules(specs: str | None, rule_set_id: str) -> CompiledRules:
    if specs is None:
        from oracle.ruleset.loader import shipped_rule_set

        return shipped_rule_set(rule_set_id).rules
    from oracle.ruleset.cache import cached_rule_book
    from oracle.verify.gate import contradictions

    return cached_rule_book(Path(specs), checker=contradictions).get(rule_set_id).rules


def _game_result(label: str, rule_set_id: str, hands: int, report: ReplayReport) -> GameResult:
    return GameResult(
        label,
        rule_set_id,
        hands,
        report.judged,
        report.uncertain,
        [disagreement_dict(d) for d in report.disagreements],
        list(report.problems),
    )


def replay_file(path: str, options: Options) -> FileResult:
    """Read and replay every game of one file; what goes wrong is in the result, never raised."""
    result = FileResult(path)
    try:
        games = read_games(Path(path), converters_of(options.converters))
    except RecordFileError as exc:
        result.error = str(exc)
        return result
    except OSError as exc:
        result.error = f"{path}: {exc.strerror or exc}"
        return result
    for game in games:
        rule_set_id = game.message.rule_set_id
        try:
            rules = _rules(options.specs, rule_set_id)
            record = record_of(game, rules)
            report = replay(rules, record, judge_all=options.judge_all, keep_actions=False)
        except (RecordFileError, InvalidInputError) as exc:
            result.games.append(GameResult(game.label, rule_set_id, error=str(exc)))
            continue
        except UnknownRuleSetError as exc:
            result.games.append(GameResult(game.label, rule_set_id, error=f"{game.label}: {exc}"))
            continue
        result.games.append(_game_result(game.label, rule_set_id, len(record.hands), report))
    return result


def replay_files(paths: Sequence[str], options: Options) -> list[FileResult]:
    """Replay a batch of files in order (one task of a cluster run)."""
    return [replay_file(p, options) for p in paths]


def run_in_process(
    files: Sequence[str], options: Options, progress: Callable[[int], None] | None = None
) -> list[FileResult]:
    """Replay every file here, one after the other."""
    results = []
    for path in files:
        results.append(replay_file(path, options))
        if progress is not None:
            progress(1)
    return results


def _batches(files: Sequence[str], workers: int) -> Iterator[list[str]]:
    size = max(1, min(64, len(files) // max(1, workers * 8)))
    for start in range(0, len(files), size):
        yield list(files[start : start + size])


def run_on_cluster(
    files: Sequence[str],
    options: Options,
    *,
    address: str | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[FileResult]:
    """Replay the files on a Dask cluster: the scheduler at `address`, or a local cluster of `workers` processes
    (default: one per processor) started for the run. Results come back in the order of `files`."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if address is None:
        n = workers or os.cpu_count() or 1
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
    client = Client(address if address is not None else cluster)
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        batches = list(_batches(files, n_workers))
        futures = client.map(replay_files, batches, options=options, pure=False)
        order = {f.key: k for k, f in enumerate(futures)}
        done: dict[int, list[FileResult]] = {}
        for future in as_completed(futures):
            batch = future.result()
            done[order[future.key]] = batch
            if progress is not None:
                progress(len(batch))
        return [r for k in range(len(batches)) for r in done[k]]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
