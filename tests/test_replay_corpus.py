"""Whole corpora: a real local Dask cluster (2 worker processes) gives the same results as the in-process run, the
reports (table, JSON, JUnit XML) agree, and the corpus benchmark's code runs on a small corpus."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.bench.corpus import generate, measure, table
from oracle.cli.main import main
from oracle.service.corpus import Options, expand, run_in_process

ROOT = Path(__file__).resolve().parent.parent
CONVERTER = f"{ROOT / 'examples' / 'canlog' / 'converter.py'}:CanlogConverter"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 simulated records, two canlog logs (one with three planted breaks) and a JSON Lines file of three games."""
    directory = tmp_path_factory.mktemp("corpus")
    generate(directory / "simulated", 12)
    for name in ("game-7.canlog", "game-21.canlog"):
        (directory / name).write_text((ROOT / "examples" / "canlog" / name).read_text())
    (directory / "three.jsonl").write_text((ROOT / "examples" / "records" / "three-games.jsonl").read_text())
    return directory


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    return result.exit_code, result.output


def test_paths_directories_and_globs_expand_to_the_record_files(corpus: Path) -> None:
    everything = expand([str(corpus)], (".canlog",))
    assert len(everything) == 15
    assert expand([str(corpus / "simulated" / "game-1*.json")]) == [
        str(corpus / "simulated" / f"game-{n}.json") for n in (1, 10, 11)
    ]
    assert len(expand([str(corpus / "**" / "*.json"), str(corpus / "simulated")])) == 12
    with pytest.raises(ValueError, match="no such file"):
        expand([str(corpus / "nothing-*.json")])


def test_a_local_cluster_finds_what_the_in_process_run_finds(corpus: Path, tmp_path: Path) -> None:
    here_json, there_json = tmp_path / "here.json", tmp_path / "there.json"
    junit = tmp_path / "there.xml"
    args = ["replay", "--all", "--converter", CONVERTER, str(corpus)]
    code_here, out_here = run(*args, "--in-process", "--json-report", str(here_json))
    code_there, out_there = run(*args, "--workers", "2", "--json-report", str(there_json), "--junit", str(junit))
    assert code_here == code_there == 1
    here, there = json.loads(here_json.read_text()), json.loads(there_json.read_text())
    assert here == there
    summary = here["summary"]
    assert summary["files"] == 15 and summary["games"] == 17 and summary["unreadable_files"] == 0
    assert summary["by_code"] == {"WRONG_PHASE": 3} and summary["failed_games"] == 1
    assert summary["actions"] == sum(g["actions"] for f in here["files"] for g in f["games"]) > 5000
    assert "in this process (asked)" in out_here and "local Dask cluster of 2 worker processes" in out_there
    totals = [[line for line in out.splitlines() if line.startswith("files ")] for out in (out_here, out_there)]
    assert totals[0] == totals[1] and len(totals[0]) == 1
    suites = ET.parse(junit).getroot()
    assert suites.get("tests") == "17" and suites.get("failures") == "1" and suites.get("errors") == "0"
    failure = suites.find(".//testcase/failure")
    assert failure is not None and "WRONG_PHASE" in (failure.text or "")


def test_the_default_stops_each_game_at_its_first_disagreement(corpus: Path) -> None:
    results = run_in_process(expand([str(corpus)], (".canlog",)), Options(converters=(CONVERTER,)))
    found = [len(g.disagreements) for r in results for g in r.games if g.disagreements]
    assert found == [1]


def test_the_corpus_benchmark_runs_on_a_small_corpus(corpus: Path) -> None:
    files = sorted(str(p) for p in (corpus / "simulated").glob("*.json"))
    rows = measure(files, [2])
    assert [row.where for row in rows] == ["in process", "local cluster, 2 worker(s)"]
    assert rows[0].summary == rows[1].summary and rows[0].summary.games == 12
    assert all(row.actions_per_second > 0 and row.actions_per_cpu_second > 0 for row in rows)
    sys.stdout.write("\n".join(table(rows)) + "\n")
