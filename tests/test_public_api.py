"""The public Python API at the package root (`import oracle`): cheap to import, every name real, used on real data."""

from __future__ import annotations

import gzip
import importlib
import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format

import oracle
from oracle.api.v1 import notation_pb2

ROOT = Path(__file__).resolve().parent.parent
FROZEN = ROOT / "examples" / "frozen-pile-2p.json"  # hand 9H 9D JK 2C ...; pile 5D 2D 8H 9S, frozen by the 2D
WORKED_HAND = ROOT / "examples" / "seed-001-worked-hand.json"
RECORD = ROOT / "conformance" / "records" / "classic-4p" / "game-0.json"
DEFINED_AT_ROOT = {"__version__", "rule_book", "load_rule_set", "load_state", "load_table", "load_record"}


def run_python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def modules_after(code: str) -> list[str]:
    """The modules loaded by a fresh interpreter after running `code`."""
    return json.loads(run_python(f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"))


# ---------------------------------------------------------------------------------------------------------------
# Importing


def test_import_oracle_loads_no_layer_no_protobuf_no_grpc_and_no_solver() -> None:
    loaded = modules_after("import oracle")
    assert [m for m in loaded if m.startswith("oracle")] == ["oracle", "oracle._version"]
    assert not [m for m in loaded if m.split(".")[0] in ("grpc", "z3", "google", "typing")]


def test_judging_scoring_and_replaying_in_process_need_neither_grpc_nor_the_solver() -> None:
    loaded = modules_after(
        "import oracle\n"
        f"rules = oracle.load_rule_set('classic-2p')\n"
        f"state = oracle.load_state({str(FROZEN)!r}, rules)\n"
        "oracle.check_action(rules, state, oracle.parse_action('draw'))\n"
        "oracle.legal_actions(rules, state)\n"
        f"oracle.score_hand(rules, oracle.load_table({str(WORKED_HAND)!r}))\n"
        f"record = oracle.load_record({str(RECORD)!r})\n"
        "oracle.replay(oracle.load_rule_set(record.rule_set_id), record)\n"
    )
    assert not [m for m in loaded if m.split(".")[0] in ("grpc", "z3")]


def test_every_public_name_is_the_object_its_layer_defines() -> None:
    homes: dict[str, str] = oracle._HOMES
    assert set(oracle.__all__) == set(homes) | DEFINED_AT_ROOT
    assert len(oracle.__all__) == len(set(oracle.__all__))
    for name, home in homes.items():
        assert getattr(oracle, name) is getattr(importlib.import_module(home), name), name
    assert set(oracle.__all__) <= set(dir(oracle))


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="no attribute 'check_actions'"):
        _ = oracle.check_actions  # type: ignore[attr-defined]


def test_the_version_is_the_installed_distribution_version() -> None:
    assert oracle.__version__ == importlib.metadata.version("canasta-oracle")


# ---------------------------------------------------------------------------------------------------------------
# Rule sets


def test_load_rule_set_gives_the_shipped_rule_set() -> None:
    four = oracle.load_rule_set("classic-4p")
    assert (four.id, four.seats, four.sides, four.side_size) == ("classic-4p", 4, 2, 2)
    assert four.minimum_initial_meld(1500)[0] == 90
    assert {"classic-2p", "classic-4p", "bicycle-4p"} <= set(oracle.rule_book().ids())


def test_an_unknown_rule_set_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(oracle.UnknownRuleSetError) as info:
        oracle.load_rule_set("classic-5p")
    assert "unknown rule set 'classic-5p'" in str(info.value)
    assert "classic-4p" in str(info.value)


# ---------------------------------------------------------------------------------------------------------------
# Scoring a finished hand


def test_the_seed_worked_hand_scores_1250_and_5() -> None:
    rules = oracle.load_rule_set("classic-2p")
    you, computer = oracle.score_hand(rules, oracle.load_table(WORKED_HAND))
    assert (you.total, computer.total) == (1250, 5)
    bonuses = [(line.item, line.points) for line in you.lines if line.field.startswith("canastas.")]
    assert bonuses == [(oracle.ScoreItem.NATURAL_CANASTA, 500), (oracle.ScoreItem.MIXED_CANASTA, 300)]
    assert [line.points for line in computer.lines if line.item == oracle.ScoreItem.CARDS_IN_HAND] == [-70]


# ---------------------------------------------------------------------------------------------------------------
# Judging actions on a state from a file


def test_a_state_file_loads_as_a_consistent_state() -> None:
    rules = oracle.load_rule_set("classic-2p")
    state = oracle.load_state(FROZEN, rules)
    assert oracle.validate_state(rules, state) == []
    assert state.phase == oracle.Phase.DRAW
    assert oracle.format_cards(state.discard_pile) == "5D 2D 8H 9S"
    assert oracle.format_cards(state.seats[0].hand[:3]) == "9H 9D JK"
    assert (state.sides[0].running_total, state.sides[1].running_total) == (1200, 900)


def test_a_frozen_pile_needs_a_natural_pair_and_the_violation_cites_its_rule() -> None:
    rules = oracle.load_rule_set("classic-2p")
    state = oracle.load_state(FROZEN, rules)
    verdict = oracle.check_action(rules, state, oracle.parse_action("take-pile with 9H JK"))
    assert not verdict.legal and verdict.next_state is None
    (violation,) = verdict.violations
    assert (violation.code, violation.field) == ("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_by_wild")
    assert ("2P-GUIDE", "Taking the discard pile (and freezing it)") in violation.cite

    verdict = oracle.check_action(rules, state, oracle.parse_action("take-pile with 9H 9D"))
    assert verdict.legal and verdict.next_state is not None
    assert verdict.next_state.phase == oracle.Phase.PLAY
    (taken,) = [e for e in verdict.events if isinstance(e, oracle.PileTaken)]
    assert oracle.format_card(taken.top) == "9S"
    assert oracle.format_cards(taken.to_hand) == "5D 2D 8H"
    assert state == oracle.load_state(FROZEN, rules), "judging changed the state"


def test_every_listed_legal_action_is_judged_legal() -> None:
    rules = oracle.load_rule_set("classic-2p")
    state = oracle.load_state(FROZEN, rules)
    actions = oracle.legal_actions(rules, state)
    notations = [oracle.format_action(a) for a in actions]
    assert "draw" in notations and "take-pile with 9D 9H" in notations  # canonical: cards in deck order
    assert "take-pile with 9H JK" not in notations
    for action in actions:
        assert oracle.check_action(rules, state, action).legal, oracle.format_action(action)


def test_a_state_in_text_format_loads_like_the_same_state_in_json(tmp_path: Path) -> None:
    rules = oracle.load_rule_set("classic-2p")
    message = json_format.Parse(FROZEN.read_text(), notation_pb2.GameStateNotation())
    textproto = tmp_path / "frozen.textproto"
    textproto.write_text(text_format.MessageToString(message))
    assert oracle.load_state(textproto, rules) == oracle.load_state(FROZEN, rules)


def test_a_state_file_that_does_not_parse_is_refused_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(FROZEN.read_text().replace('"seatToMove"', '"seatsToMove"'))
    with pytest.raises(oracle.InvalidInputError) as info:
        oracle.load_state(bad, oracle.load_rule_set("classic-2p"))
    (problem,) = info.value.problems
    assert problem.field == str(bad)
    assert "seatsToMove" in problem.description


def test_a_bad_card_in_a_state_file_is_refused_naming_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(FROZEN.read_text().replace('"discardPile": "5D 2D', '"discardPile": "5D 2X'))
    with pytest.raises(oracle.InvalidInputError) as info:
        oracle.load_state(bad, oracle.load_rule_set("classic-2p"))
    (problem,) = info.value.problems
    assert problem.field == "state.discard_pile"
    assert "'2X' is not a card" in problem.description


# ---------------------------------------------------------------------------------------------------------------
# Replaying a shipped record


def test_a_shipped_record_replays_legal_to_its_claimed_winner_and_totals() -> None:
    record = oracle.load_record(RECORD)
    claimed = json.loads(RECORD.read_text())
    report = oracle.replay(oracle.load_rule_set(record.rule_set_id), record)
    assert report.ok, (report.first_illegal, report.mismatches, report.problems)
    assert report.judged == sum(len(hand["actions"]) for hand in claimed["hands"])
    assert report.standing is not None and report.standing.over
    assert report.standing.winner == claimed["claimedWinner"]
    assert list(report.standing.totals) == claimed["hands"][-1]["claimedTotals"]


def test_a_gzip_compressed_record_loads_like_the_plain_one(tmp_path: Path) -> None:
    packed = tmp_path / "game-0.json.gz"
    packed.write_bytes(gzip.compress(RECORD.read_bytes()))
    assert oracle.load_record(packed) == oracle.load_record(RECORD)


def test_a_record_without_a_rule_set_is_refused_naming_the_field(tmp_path: Path) -> None:
    claimed = json.loads(RECORD.read_text())
    del claimed["ruleSetId"]
    bad = tmp_path / "no-rules.json"
    bad.write_text(json.dumps(claimed))
    with pytest.raises(oracle.InvalidInputError) as info:
        oracle.load_record(bad)
    assert [p.field for p in info.value.problems] == ["record.rule_set_id"]


# ---------------------------------------------------------------------------------------------------------------
# The README's example


def readme_example() -> tuple[str, str]:
    """The code block of the README's "Python API" section and the output block after it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^#+ Python API\n(.*?)(?=^#+ )", readme, re.M | re.S)
    assert section is not None, "README.md has no 'Python API' section"
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", section.group(1), re.M | re.S)
    code = [body for lang, body in blocks if lang == "python"]
    output = [body for lang, body in blocks if lang == "text"]
    assert len(code) == 1 and len(output) == 1, "the section has one python block and one text block (its output)"
    return code[0], output[0]


def test_the_readme_example_runs_and_prints_what_the_readme_shows() -> None:
    code, output = readme_example()
    assert run_python(code) == output
