"""`check --view` and `adjudicate --view`: judging from one player's view on the command line, with what the view
cannot decide printed as unknown, and the same answers as the API's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import json_format, text_format

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.cli.main import main
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

ROOT = Path(__file__).resolve().parent.parent
FROZEN = str(ROOT / "examples" / "frozen-pile-2p.json")
VIEW = ROOT / "examples" / "frozen-pile-2p-view.json"  # seat 0's view of FROZEN
API = OracleApi(default_rule_book())


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="canasta-oracle")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _view() -> game_pb2.PlayerView:
    return json_format.Parse(VIEW.read_text(), game_pb2.PlayerView())


@pytest.mark.parametrize("action", ["take-pile with 9H 9D", "take-pile with 9H JK", "meld 9H JK 2C", "draw"])
def test_the_view_is_judged_as_the_state_it_shows(action: str) -> None:
    by_state = run("check", "--state", FROZEN, "--action", action, "--json")
    by_view = run("check", "--rules", "classic-2p", "--view", str(VIEW), "--action", action, "--json")
    assert by_view[0] == by_state[0]
    seen, full = json.loads(by_view[1]), json.loads(by_state[1])
    assert (seen["legal"], seen["violations"], seen["notation"]) == (full["legal"], full["violations"], action)


def test_check_view_json_is_the_apis_answer() -> None:
    code, out, _ = run("check", "--rules", "classic-2p", "--view", str(VIEW), "--action", "draw", "--json")
    assert code == 0
    printed = json_format.Parse(out, oracle_pb2.CheckActionResponse())
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), view=_view(), action_text="draw"
    )
    assert printed == API.CheckAction(request)
    assert [u.field for u in printed.unknowns] == ["events", "next_state"]


def test_check_view_prints_the_verdict_the_next_view_and_the_unknowns() -> None:
    code, out, _ = run("check", "--rules", "classic-2p", "--view", str(VIEW), "--action", "take-pile with 9H 9D")
    assert code == 0
    assert out.splitlines() == [
        "legal: take-pile with 9H 9D",
        "  seat 0 took the pile: top 9S melded, 3 card(s) to hand",
        "  next (seat 0's view): seat 0 to move, phase PLAY, stock 75, pile 0",
        "  unknown next_state: a view answers with the viewer's next view (next_view), not the full state",
    ]
    code, out, _ = run("check", "--rules", "classic-2p", "--view", str(VIEW), "--action", "draw")
    assert code == 0
    assert out.splitlines() == [
        "legal: draw",
        "  unknown events: the cards drawn from the stock are hidden",
        "  unknown next_state: the cards drawn from the stock are hidden",
    ]


def test_another_seats_move_is_unknown_and_exits_1(tmp_path: Path) -> None:
    view = _view()
    view.seat_to_move = 1  # seat 0 watches seat 1's turn (text format this time)
    path = tmp_path / "watching.textproto"
    path.write_text(text_format.MessageToString(view))
    code, out, _ = run("check", "--rules", "classic-2p", "--view", str(path), "--action", "draw")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "unknown: draw"
    assert lines[1].startswith("  unknown legal: the action is seat 1's and this view (seat 0) does not show")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--view", str(VIEW)], f"{VIEW}: a PlayerView names no rule set: pass --rules ID"),
        (
            ["--rules", "classic-2p", "--view", str(VIEW), "--state", FROZEN],
            "pass --state FILE or --view FILE, not both",
        ),
        (["--rules", "classic-2p"], "pass --state FILE or --view FILE"),
    ],
)
def test_check_needs_exactly_one_of_state_and_view(args: list[str], says: str) -> None:
    code, _, err = run("check", *args, "--action", "draw")
    assert code == 2
    assert err == f"canasta-oracle: {says}\n"


def test_a_view_that_does_not_add_up_names_its_field(tmp_path: Path) -> None:
    view = _view()
    view.stock_count += 1
    path = tmp_path / "view.json"
    path.write_text(json_format.MessageToJson(view))
    code, _, err = run("check", "--rules", "classic-2p", "--view", str(path), "--action", "draw")
    assert code == 2
    assert err.startswith("canasta-oracle: invalid input:\n  view: the cards do not add up to the deck")


def test_adjudicate_view_json_is_the_apis_answer() -> None:
    args = ["adjudicate", "--view", str(VIEW), "--action", "take-pile with 9H JK", "--json"]
    code, out, _ = run(*args, "--rules", "classic-2p,classic-4p")
    assert code == 0
    printed = json_format.Parse(out, oracle_pb2.AdjudicateResponse())
    refs = [oracle_pb2.RuleSetRef(id=i) for i in ("classic-2p", "classic-4p")]
    request = oracle_pb2.AdjudicateRequest(view=_view(), action_text="take-pile with 9H JK", rule_sets=refs)
    assert printed == API.Adjudicate(request)
    classic, four = printed.verdicts
    assert [v.code for v in classic.verdict.violations] == ["PILE_FROZEN_NEEDS_NATURAL_PAIR"]
    assert not four.applicable


def test_adjudicate_view_prints_the_unknowns_per_rule_set() -> None:
    code, out, _ = run("adjudicate", "--view", str(VIEW), "--action", "draw", "--rules", "classic-2p,top-seven-2p")
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split() == ["classic-2p", "legal"]
    assert lines[3].strip() == "unknown events: the cards drawn from the stock are hidden"
    assert sum("unknown events" in line for line in lines) == 2
