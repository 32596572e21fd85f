"""A Node.js client (@grpc/grpc-js, clients/node/check.mjs) calls CheckAction and RefereeGame on a live server."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from server_harness import ServerThread

from oracle.cli.main import main
from oracle.ruleset.loader import default_rule_book

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "node"
NODE = shutil.which("node")


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    thread = ServerThread(default_rule_book())
    try:
        yield thread
    finally:
        thread.close()


@pytest.fixture(scope="module")
def proto_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .proto files as a user gets them: `canasta-oracle proto --out DIR`."""
    out = tmp_path_factory.mktemp("proto")
    result = CliRunner().invoke(main, ["proto", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _node(*args: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None, "node is not installed (.ci/run installs nodejs)"
    assert (CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir(), "run `npm ci` in clients/node (.ci/run does)"
    return subprocess.run([NODE, "check.mjs", *args], cwd=CLIENT, capture_output=True, text=True, timeout=60)


def test_node_client_gets_the_verdicts(server: ServerThread, proto_dir: Path) -> None:
    result = _node("--address", server.address, "--proto", str(proto_dir), "--rules", "classic-2p", "--seed", "7")
    assert result.returncode == 0, result.stderr
    lines: list[dict[str, Any]] = [json.loads(line) for line in result.stdout.splitlines()]
    deal, draw, early, written, *stream = lines

    # DealHand (seed 7, dealer 0): the player after the dealer draws first, with 15 cards.
    assert deal == {"call": "DealHand", "seat_to_move": 1, "phase": "PHASE_DRAW", "hand": 15}
    # CheckAction: drawing is legal; discarding before drawing is not.
    assert draw == {"call": "CheckAction", "action": "draw", "legal": True, "codes": []}
    assert early["action"].startswith("discard CARD_")
    assert (early["legal"], early["codes"]) == (False, ["WRONG_PHASE"])
    # The same action as notation text (action_text): the same verdict, and the answer's notation is the text.
    card = early["action"].removeprefix("discard CARD_")
    assert written == {
        "call": "CheckAction",
        "action": f"discard {card}",
        "legal": False,
        "codes": ["WRONG_PHASE"],
        "notation": f"discard {card}",
    }

    # RefereeGame: start and deal are accepted; the early discard is refused and changes nothing; the draw is legal
    # and the discard after it passes the turn to seat 0.
    assert [(a["action"], a["legal"], a["codes"], a["error"]) for a in stream] == [
        ("start", True, [], ""),
        ("deal", True, [], ""),
        (early["action"], False, ["WRONG_PHASE"], ""),
        ("draw", True, [], ""),
        (early["action"], True, [], ""),
    ]
    assert [(a["seat_to_move"], a["phase"]) for a in stream[1:]] == [
        (1, "PHASE_DRAW"),
        (1, "PHASE_DRAW"),
        (1, "PHASE_PLAY"),
        (0, "PHASE_DRAW"),
    ]


def test_node_client_reports_an_unreachable_server(proto_dir: Path) -> None:
    result = _node("--address", "127.0.0.1:1", "--proto", str(proto_dir))
    assert result.returncode == 2
    assert "gRPC status 14" in result.stderr  # UNAVAILABLE
    assert result.stdout == ""
