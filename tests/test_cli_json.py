"""Every CLI verb has --json, and what it prints with --json parses as JSON (proto3 JSON where the answer is a message).

Table-driven over the VERBS registry: a new verb without an invocation here (or a reason to be exempt) fails
test_every_verb_is_covered, and one without a --json option fails test_every_command_has_json. bench --json is run and
parsed by tests/test_bench_suite.py (ELSEWHERE).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from google.protobuf import json_format
from google.protobuf.message import Message
from server_harness import ServerThread

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.cli.main import VERBS, main
from oracle.ruleset.loader import default_rule_book

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
STATE = str(EXAMPLES / "frozen-pile-2p.json")
VIEW = str(EXAMPLES / "frozen-pile-2p-view.json")
RECORD = str(ROOT / "conformance" / "records" / "classic-2p" / "game-0.json")

#: Verbs without --json, each with the reason.
EXEMPT = {
    "serve": "a long-running server, not an answer: its request log is already one JSON object per line",
}

#: Verbs whose --json output another test runs and parses (test_every_command_has_json still checks the option).
ELSEWHERE = {
    "bench": "tests/test_bench_suite.py runs bench --json at tiny sizes and checks every row (a run takes tens of"
    " seconds on a busy machine: not worth doing twice)",
}


class Run:
    """One invocation: its arguments (with placeholders), the exit status it should end with, and the message its
    output is (None when the shape is the command's own JSON, documented in its --help)."""

    def __init__(self, args: list[str], status: int = 0, message: type[Message] | None = None) -> None:
        self.args = args
        self.status = status
        self.message = message


#: At least one quick invocation per verb; "{tmp}" is a fresh directory and "{server}" a live server's address.
INVOCATIONS: dict[str, list[Run]] = {
    "health": [Run(["health", "--host", "{host}", "--port", "{port}", "--json"])],
    "rules": [
        Run(["rules", "list", "--json"], message=oracle_pb2.ListRuleSetsResponse),
        Run(["rules", "show", "classic-2p", "--json"]),
        Run(["rules", "lint", "--rules", "classic-2p", "--json"]),
    ],
    "score": [Run(["score", str(EXAMPLES / "seed-001-worked-hand.json"), "--json"])],
    "minimum": [
        Run(["minimum", "--rules", "classic-4p", "1500", "--json"], message=oracle_pb2.GetMinimumInitialMeldResponse)
    ],
    "check": [
        Run(["check", "--state", STATE, "--action", "draw", "--json"], message=oracle_pb2.CheckActionResponse),
        Run(
            ["check", "--state", STATE, "--action", "take-pile with 9H JK", "--json"],
            status=1,
            message=oracle_pb2.CheckActionResponse,
        ),
        Run(
            ["check", "--rules", "classic-2p", "--view", VIEW, "--action", "draw", "--json"],
            message=oracle_pb2.CheckActionResponse,
        ),
    ],
    "validate": [Run(["validate", "--state", STATE, "--json"], message=oracle_pb2.ValidateStateResponse)],
    "replay": [Run(["replay", RECORD, "--json"])],
    "simulate": [Run(["simulate", "--rules", "classic-2p", "--games", "1", "--seed", "3", "--out", "{tmp}", "--json"])],
    "perft": [Run(["perft", "--json"])],
    "adjudicate": [
        Run(
            ["adjudicate", "--state", STATE, "--action", "take-pile with 9H JK", "--rules", "classic-2p", "--json"],
            message=oracle_pb2.AdjudicateResponse,
        ),
        Run(
            ["adjudicate", "--view", VIEW, "--action", "draw", "--rules", "classic-2p", "--json"],
            message=oracle_pb2.AdjudicateResponse,
        ),
    ],
    "explain": [
        Run(["explain", "MELD_TOO_FEW_NATURALS", "--json"]),
        Run(["explain", "canastas", "--json"]),
        Run(["explain", "classic-2p", "--json"]),
    ],
    "verify": [Run(["verify", "--rules", "classic-2p", "--jobs", "1", "--json"])],
    "conformance": [Run(["conformance", "--rules", "2p-one-canasta", "--json"])],
    "proto": [Run(["proto", "--json"]), Run(["proto", "--out", "{tmp}", "--json"])],
}


def _commands(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """A command, or every subcommand of a group, with its words."""
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, (*path, name))
    else:
        yield path, command


def test_every_verb_is_covered() -> None:
    assert set(VERBS) == set(INVOCATIONS) | set(EXEMPT) | set(ELSEWHERE), (
        "add the new verb to INVOCATIONS (with --json) or, if it cannot answer in JSON, to EXEMPT with the reason"
    )
    assert not set(INVOCATIONS) & set(EXEMPT) and not set(ELSEWHERE) & (set(INVOCATIONS) | set(EXEMPT))


def test_every_command_has_json() -> None:
    context = click.Context(main)
    lacking = []
    for verb in VERBS:
        if verb in EXEMPT:
            continue
        command = main.get_command(context, verb)
        assert command is not None
        for words, leaf in _commands(command, (verb,)):
            if not any("--json" in param.opts for param in leaf.params if isinstance(param, click.Option)):
                lacking.append(" ".join(words))
    assert lacking == []


def test_every_subcommand_is_invoked() -> None:
    invoked = {tuple(run.args[:2]) for runs in INVOCATIONS.values() for run in runs}
    context = click.Context(main)
    for verb in INVOCATIONS:  # (bench, run elsewhere, has no subcommands)
        command = main.get_command(context, verb)
        assert command is not None
        for words, _ in _commands(command, (verb,)):
            if len(words) > 1:
                assert words in invoked, f"{' '.join(words)} --json is never run"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    thread = ServerThread(default_rule_book())
    try:
        yield thread
    finally:
        thread.close()


CASES = [(verb, i) for verb, runs in INVOCATIONS.items() for i in range(len(runs))]


@pytest.mark.parametrize(("verb", "index"), CASES, ids=[f"{v}-{i}" for v, i in CASES])
def test_json_output_parses(verb: str, index: int, tmp_path: Path, server: ServerThread) -> None:
    run = INVOCATIONS[verb][index]
    host, _, port = server.address.rpartition(":")
    args = [a.format(tmp=tmp_path / "out", host=host, port=port) for a in run.args]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == run.status, result.output
    answer: Any = json.loads(result.stdout)  # stdout alone: progress bars and logs go to stderr
    assert answer, f"{' '.join(args)} printed an empty JSON value"
    if run.message is not None:
        json_format.Parse(result.stdout, run.message())  # strict: the protobuf JSON mapping of that message


def test_shapes_a_user_relies_on(tmp_path: Path) -> None:
    # validate --json of an inconsistent state: valid false, each problem with its field (exit 1).
    state = json.loads(Path(STATE).read_text())
    state["seats"][0]["hand"] += " JK JK JK JK JK"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(state))
    result = CliRunner().invoke(main, ["validate", "--state", str(broken), "--json"])
    assert result.exit_code == 1
    answer = json_format.Parse(result.stdout, oracle_pb2.ValidateStateResponse())
    assert not answer.valid and answer.problems and all(p.field for p in answer.problems)
    # replay --json is the ReplayReport of the record.
    replayed = CliRunner().invoke(main, ["replay", RECORD, "--json"])
    assert replayed.exit_code == 0
    report = json_format.Parse(replayed.stdout, record_pb2.ReplayReport(), ignore_unknown_fields=False)
    assert report.ok
    # simulate --json lists each record written, and the files are there.
    out = tmp_path / "games"
    simulated = CliRunner().invoke(
        main, ["simulate", "--rules", "classic-2p", "--games", "2", "--out", str(out), "--json"]
    )
    assert simulated.exit_code == 0
    summary = json.loads(simulated.stdout)
    assert summary["games"] == 2 and [Path(r["file"]).name for r in summary["records"]] == [
        "game-0.json",
        "game-1.json",
    ]
    assert all(Path(r["file"]).is_file() for r in summary["records"])
    assert summary["actions"] == sum(r["actions"] for r in summary["records"])
