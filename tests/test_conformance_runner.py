"""The conformance runner refuses what it cannot run (exit 2), fails stale expected failures (exit 1), and --specs adds
rule sets to the shipped book (--specs-only replaces it)."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from server_harness import ServerThread

from oracle.api.v1 import oracle_pb2
from oracle.cli.main import main
from oracle.conformance.cases import load_cases
from oracle.conformance.selection import (
    RunRefused,
    check_expected_failures,
    check_rule_set_ids,
    parse_expected_failures,
    rule_book,
)
from oracle.conformance.targets import GrpcTarget, TargetUnreachable
from oracle.ruleset.loader import default_rule_book

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
CASES = load_cases()
SMALL = "2p-one-canasta"  #: a rule set with few cases, so a run is quick
SMALL_IDS = [c.case.id for c in CASES if c.case.rule_set_id == SMALL]

HOUSE = """id: "house-2p"
extends: "classic-2p"
title: "A house rule set"
description: "classic-2p with a 600-point natural canasta."
canastas { natural_bonus: 600 }
rules {
  field: "canastas.natural_bonus"
  text: "A natural canasta earns 600 in this house."
  cite { source: "2P-GUIDE" section: "Scoring" }
}
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["conformance", *args])


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A port on the loopback where nothing listens: bound (so no other process takes it) and never listening."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        yield port


def test_a_small_rule_set_passes() -> None:
    assert len(SMALL_IDS) >= 3
    result = run("--rules", SMALL)
    assert result.exit_code == 0, result.output
    assert f"{len(SMALL_IDS)} passed, 0 failed, {len(CASES) - len(SMALL_IDS)} skipped" in result.output


def test_an_unknown_rule_set_id_is_refused() -> None:
    result = run("--rules", f"{SMALL},nope")
    assert result.exit_code == 2
    assert "no conformance case uses the rule set 'nope'" in result.output
    assert "classic-2p" in result.output  # the ids the cases use are listed
    assert "passed" not in result.output  # nothing ran


def test_an_unknown_expected_failure_is_refused(tmp_path: Path) -> None:
    listed = tmp_path / "xfail.txt"
    listed.write_text(f"# known\n{SMALL_IDS[0]}  # why\n\nmeld.no-such-case\n")
    result = run("--rules", SMALL, "--expected-failures", str(listed))
    assert result.exit_code == 2
    assert f"{listed}:4: no conformance case has the id 'meld.no-such-case'" in result.output
    assert "passed" not in result.output


def test_every_reason_to_refuse_is_named_at_once(tmp_path: Path) -> None:
    listed = tmp_path / "xfail.txt"
    listed.write_text("meld.no-such-case\n")
    result = run("--rules", "nope", "--expected-failures", str(listed), "--specs-only")
    assert result.exit_code == 2
    assert "no conformance case uses the rule set 'nope'" in result.output
    assert f"{listed}:1: no conformance case has the id 'meld.no-such-case'" in result.output
    assert "--specs-only needs --specs DIR" in result.output


def test_a_repeated_expected_failure_is_refused(tmp_path: Path) -> None:
    listed = tmp_path / "xfail.txt"
    listed.write_text(f"{SMALL_IDS[0]}\n{SMALL_IDS[0]}\n")
    result = run("--rules", SMALL, "--expected-failures", str(listed))
    assert result.exit_code == 2
    assert f"{listed}:2: '{SMALL_IDS[0]}' is listed already on line 1" in result.output


def test_a_stale_expected_failure_fails_the_run(tmp_path: Path) -> None:
    listed = tmp_path / "xfail.txt"
    listed.write_text(f"{SMALL_IDS[0]}\n")
    result = run("--rules", SMALL, "--expected-failures", str(listed))
    assert result.exit_code == 1
    assert f"XPASS: {SMALL_IDS[0]}" in result.output
    assert f"listed in {listed} but now pass; remove them from the list:\n  {SMALL_IDS[0]}" in result.output


def test_an_expected_failure_that_fails_passes_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An engine that finds every action legal fails the small rule set's cases that expect a rule broken; listed,
    # they are xfail and the run exits 0.
    from oracle.service.api import OracleApi

    def everything_legal(self: OracleApi, request: oracle_pb2.CheckActionRequest) -> object:
        return oracle_pb2.CheckActionResponse(legal=True)

    monkeypatch.setattr(OracleApi, "CheckAction", everything_legal)
    unlisted = run("--rules", SMALL, "--json")
    assert unlisted.exit_code == 1
    wrong = [r["id"] for r in json.loads(unlisted.stdout) if r["status"] == "fail"]
    expecting_illegal = [c.case.id for c in CASES if c.case.id in SMALL_IDS and c.case.expect.HasField("illegal")]
    assert expecting_illegal and set(expecting_illegal) <= set(wrong)
    listed = tmp_path / "xfail.txt"
    listed.write_text("\n".join(wrong) + "\n")
    result = run("--rules", SMALL, "--expected-failures", str(listed), "--json")
    assert result.exit_code == 0, result.output
    statuses = {r["id"]: r["status"] for r in json.loads(result.stdout)}
    assert {case_id: statuses[case_id] for case_id in wrong} == dict.fromkeys(wrong, "xfail")
    assert "fail" not in statuses.values() and "xpass" not in statuses.values()


def test_an_unreachable_target_is_one_error_within_the_connect_timeout() -> None:
    with closed_port() as port:
        address = f"127.0.0.1:{port}"
        started = time.monotonic()
        result = run("--target", address, "--connect-timeout", "1")
        elapsed = time.monotonic() - started
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"canasta-oracle: cannot reach the target {address}: no connection within 1 s"
        " (is a server of oracle.api.v1.OracleService listening there?)"
    )
    assert elapsed < 30  # one refused connection, not a timeout per case


def test_a_target_that_goes_away_stops_the_run() -> None:
    server = ServerThread(default_rule_book())
    target = GrpcTarget(server.address, timeout=10, connect_timeout=1)
    try:
        target.connect()
        request = oracle_pb2.GetMinimumInitialMeldRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"))
        assert isinstance(target.call("GetMinimumInitialMeld", request), oracle_pb2.GetMinimumInitialMeldResponse)
        server.close()
        with pytest.raises(TargetUnreachable, match="UNAVAILABLE"):
            target.call("GetMinimumInitialMeld", request)
    finally:
        target.close()
        server.close()


def test_a_live_target_runs() -> None:
    server = ServerThread(default_rule_book())
    try:
        result = run("--target", server.address, "--rules", SMALL)
    finally:
        server.close()
    assert result.exit_code == 0, result.output
    assert f"{len(SMALL_IDS)} passed, 0 failed" in result.output


def test_specs_adds_to_the_shipped_book(tmp_path: Path) -> None:
    (tmp_path / "house-2p.textproto").write_text(HOUSE)
    book = rule_book(tmp_path, replace=False)
    assert set(book.ids()) == {*default_rule_book().ids(), "house-2p"}
    assert book.get("house-2p").spec.canastas.natural_bonus == 600
    result = run("--specs", str(tmp_path), "--rules", SMALL)
    assert result.exit_code == 0, result.output
    assert f"{len(SMALL_IDS)} passed, 0 failed" in result.output


def test_specs_may_not_redefine_a_shipped_rule_set_without_specs_only(tmp_path: Path) -> None:
    (tmp_path / "classic-2p.textproto").write_text((SPECS / "classic-2p.textproto").read_text())
    result = run("--specs", str(tmp_path), "--rules", SMALL)
    assert result.exit_code == 2
    assert f"{tmp_path / 'classic-2p.textproto'}: the shipped rule book has classic-2p.textproto already" in (
        result.output
    )
    assert "--specs-only" in result.output


def test_specs_only_replaces_the_shipped_book(tmp_path: Path) -> None:
    for name in ("sources.textproto", "classic-2p.textproto", f"{SMALL}.textproto"):
        (tmp_path / name).write_text((SPECS / name).read_text())
    classic = tmp_path / "classic-2p.textproto"
    text = classic.read_text()
    assert "natural_bonus: 500" in text
    classic.write_text(text.replace("natural_bonus: 500", "natural_bonus: 450"))
    book = rule_book(tmp_path, replace=True)
    assert book.ids() == ["2p-one-canasta", "classic-2p"]
    assert book.get(SMALL).spec.canastas.natural_bonus == 450
    # The replaced classic-2p scores a natural canasta 450: the scoring case of the small rule set fails.
    result = run("--specs", str(tmp_path), "--specs-only", "--rules", SMALL)
    assert result.exit_code == 1, result.output
    assert "FAIL: one-canasta.table-went-out-with-one" in result.output


def test_specs_without_rule_sets_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a rule set")
    result = run("--specs", str(tmp_path), "--rules", SMALL)
    assert result.exit_code == 2
    assert f"--specs {tmp_path}: no rule-set files (<id>.textproto) in the directory" in result.output


def test_specs_only_needs_specs() -> None:
    result = run("--specs-only", "--rules", SMALL)
    assert result.exit_code == 2
    assert "--specs-only needs --specs DIR" in result.output


def test_a_source_repeated_in_added_sources_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sources.textproto").write_text((SPECS / "sources.textproto").read_text())
    (tmp_path / "house-2p.textproto").write_text(HOUSE)
    with pytest.raises(RunRefused, match="source '2P-GUIDE' is a shipped source already"):
        rule_book(tmp_path, replace=False)


def test_selection_checks_directly() -> None:
    assert check_rule_set_ids([SMALL, SMALL], CASES) == (SMALL,)
    entries = parse_expected_failures(f"{SMALL_IDS[0]}\n", "xf")
    assert check_expected_failures(entries, CASES, "xf") == frozenset({SMALL_IDS[0]})
    with pytest.raises(RunRefused, match=r"xf:1: no conformance case has the id 'x\.y'"):
        check_expected_failures(parse_expected_failures("x.y\n", "xf"), CASES, "xf")
