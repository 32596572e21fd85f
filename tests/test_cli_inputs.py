"""The CLI's input files: a DealHand answer (or a GameState) as `check --state`, and binary, truncated or non-UTF-8
files refused with one bounded line naming the file and what is wrong (never "internal error")."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import json_format, text_format

from oracle.api.v1 import oracle_pb2
from oracle.cli.main import main
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "conformance" / "records" / "classic-2p" / "game-0.json"
LONGEST_ERROR = 600  #: characters: an error is one bounded line, whatever the input's size


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def dealt() -> oracle_pb2.DealHandResponse:
    request = oracle_pb2.DealHandRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), seed=7)
    return OracleApi(default_rule_book()).DealHand(request)


@pytest.mark.parametrize("form", ["answer.json", "answer.textproto", "state.json"])
def test_check_accepts_a_deal_hand_answer(tmp_path: Path, dealt: oracle_pb2.DealHandResponse, form: str) -> None:
    message = dealt if form.startswith("answer") else dealt.state
    text = json_format.MessageToJson(message) if form.endswith(".json") else text_format.MessageToString(message)
    path = tmp_path / form
    path.write_text(text, encoding="utf-8")
    code, out, err = run("check", "--rules", "classic-2p", "--state", str(path), "--action", "draw")
    assert (code, err) == (0, "")
    assert out.startswith("legal: draw\n  seat 1 drew ")  # the dealer is seat 0: seat 1 opens


def test_a_deal_hand_answer_needs_rules(tmp_path: Path, dealt: oracle_pb2.DealHandResponse) -> None:
    path = tmp_path / "answer.json"
    path.write_text(json_format.MessageToJson(dealt), encoding="utf-8")
    code, _, err = run("check", "--state", str(path), "--action", "draw")
    assert code == 2
    assert err.strip() == f"canasta-oracle: {path}: a DealHand answer names no rule set: pass --rules ID"


def test_a_file_of_no_known_form_reports_the_notation_error(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"seats": 3}', encoding="utf-8")
    code, _, err = run("check", "--rules", "classic-2p", "--state", str(path), "--action", "draw")
    assert code == 2
    assert "repeated field seats" in err and "neither a GameStateNotation nor" in err


def _binary(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(random.Random(15).randbytes(450_000))
    return path


def _one_bounded_line(err: str, path: Path) -> None:
    assert err.startswith(f"canasta-oracle: {path}")
    assert "internal error" not in err
    assert len(err) < LONGEST_ERROR and err.count("\n") == 1


@pytest.mark.parametrize(
    "verb",
    [
        ["score"],
        ["check", "--rules", "classic-2p", "--action", "draw", "--state"],
        ["validate", "--rules", "classic-2p", "--state"],
    ],
)
def test_a_binary_file_is_one_bounded_line(tmp_path: Path, verb: list[str]) -> None:
    path = _binary(tmp_path, "noise.json")
    code, _, err = run(*verb, str(path))
    assert code == 2
    assert err.startswith(f"canasta-oracle: {path}: not UTF-8 text: byte 0x") and "at offset" in err
    _one_bounded_line(err, path)


@pytest.mark.parametrize("name", ["noise.json", "noise.json.gz"])
def test_a_binary_record_is_one_bounded_line(tmp_path: Path, name: str) -> None:
    path = _binary(tmp_path, name)
    code, _, err = run("replay", str(path))
    assert code == 2
    _one_bounded_line(err, path)


def test_a_truncated_gzip_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json.gz"
    path.write_bytes(gzip.compress(RECORD.read_bytes())[:700])
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "truncated" in err or "ended before the end-of-stream" in err
    _one_bounded_line(err, path)


def test_a_truncated_json_record_names_the_place(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(RECORD.read_text(encoding="utf-8")[:2000], encoding="utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "JSON" in err and ("2001" in err or "2000" in err)
    _one_bounded_line(err, path)


def test_a_truncated_state_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text('{"seats": [{"hand": "KH', encoding="utf-8")
    code, _, err = run("check", "--rules", "classic-2p", "--state", str(path), "--action", "draw")
    assert code == 2
    assert "Failed to load JSON: Unterminated string" in err
    _one_bounded_line(err, path)


def test_a_nul_byte_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "state.textproto"
    path.write_bytes(b'seats {\x00 hand: "KH"}')
    code, _, err = run("check", "--rules", "classic-2p", "--state", str(path), "--action", "draw")
    assert (code, err.strip()) == (
        2,
        f"canasta-oracle: {path}: not a text file: a NUL byte at offset 7",
    )


def test_a_huge_parse_error_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "state.textproto"
    path.write_text("x" * 450_000, encoding="utf-8")
    code, _, err = run("check", "--rules", "classic-2p", "--state", str(path), "--action", "draw")
    assert code == 2 and len(err) < LONGEST_ERROR
