"""Samba (samba-4p) through the command line: rules show with its runs section in words, explain of the new fields
and codes, check of the new notation (runs, `to N`, `new`, `take-pile to N`, `combine`), score with a samba,
adjudicate asking samba-4p beside the other four-player books, check from a player's view, simulate and replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_harness import check_refused, explained_code, explained_field, json_files, run
from click.testing import CliRunner
from google.protobuf import json_format

from oracle.api.v1 import notation_pb2
from oracle.cli.main import main
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation
from oracle.service.convert_view import view_to_proto

FOUR_PLAYER = sorted(loaded.spec.id for loaded in default_rule_book() if loaded.spec.players.seats == 4)
OTHERS = (
    {"hand": "4D 6C 8S 9D JD TS 4H", "meldedBefore": True},
    {"hand": "4S 6H 8H 9H JH QH TD", "meldedBefore": True},
    {"hand": "4C 6S 8D 9C JC KH TH", "meldedBefore": True},
)

#: seat 0 plays; side 0 has 1 jacks, 2 the run 9H TH JH, 3 queens with a two, 4 natural queens
PLAY: dict[str, Any] = {
    "ruleSetId": "samba-4p",
    "seats": [{"hand": "5H 6H 7H 8H 4S 5S 3S JC 2C JK 9C KH KD KS", "meldedBefore": True}, *OTHERS],
    "sides": [{"melds": ["JH JD JS", "9H TH JH", "QC QD QS 2D", "QH QD QS"]}, {"melds": ["5C 5D 5H"]}],
    "discardPile": "4C 8S",
    "seatToMove": 0,
    "phase": "PHASE_PLAY",
    "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 4},
    "fillStock": True,
}
#: seat 0 to draw, the pile's top card 8H; side 0 has 1 jacks, 2 the run 9H TH JH, 3 a canasta of queens
PILE: dict[str, Any] = {
    "ruleSetId": "samba-4p",
    "seats": [{"hand": "5H 6H 7H QD QS 9C 9S 4D", "meldedBefore": True}, *OTHERS],
    "sides": [{"melds": ["JH JD JS", "9H TH JH", "QH QC QD QS 2C QH QC"]}, {"melds": ["5C 5D 5H"]}],
    "discardPile": "4C 8H",
    "seatToMove": 0,
    "phase": "PHASE_DRAW",
    "fillStock": True,
}
#: a position two packs hold as well (no run on the table), for classic-4p beside samba-4p
BOTH: dict[str, Any] = {
    "ruleSetId": "samba-4p",
    "seats": [
        {"hand": "5H 6H 7H 8H 9C KH KD KS 4S", "meldedBefore": True},
        {"hand": "4D 6C 8S 9D JD TS 4H", "meldedBefore": True},
        {"hand": "4S 6S 8H 9H QH QD TD", "meldedBefore": True},
        {"hand": "4C 6S 8D 9C JC KC TH", "meldedBefore": True},
    ],
    "sides": [{"melds": ["JH JD JS", "QC QD QS"]}, {"melds": ["5C 5D 5H"]}],
    "discardPile": "4C 8S",
    "seatToMove": 0,
    "phase": "PHASE_PLAY",
    "turn": {"start": "TURN_START_DREW", "meldsBeforeTurn": 2},
    "fillStock": True,
}
#: side 0 went out with a samba (a run of seven) and a natural canasta of kings; side 1 has a red three, no canasta
TABLE: dict[str, Any] = {
    "ruleSetId": "samba-4p",
    "sides": [
        {
            "melds": ["5H 6H 7H 8H 9H TH JH", "KC KD KH KS KC KD KH", "9C 9D 9S"],
            "redThrees": "3H 3D",
            "hands": ["", "8C 8D"],
            "wentOut": "WENT_OUT_NORMAL",
        },
        {"melds": ["7C 7D 7S", "QC QD QH QS 2C"], "redThrees": "3H", "hands": ["AH AD 9C", "TC TD"]},
    ],
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """The positions above as GameStateNotation / HandTableNotation JSON files."""
    return json_files(tmp_path, {"play": PLAY, "pile": PILE, "both": BOTH, "table": TABLE})


# rules show and explain


def test_rules_show_prints_the_runs_section_and_the_new_fields_in_words() -> None:
    code, out = run("rules", "show", "samba-4p")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("runs")
    section = lines[at + 1 : lines.index("", at)] if "" in lines[at:] else lines[at + 1 :]
    values = [line for line in section if not line.startswith("      ") and not line.startswith("  [")]
    assert values == [
        "  min_size = 3",
        "  max_size = 7",
        "  lowest_rank = four",
        "  highest_rank = ace",
        "  canasta_size = 7",
        "  canasta_bonus = 1500",
        "  pile_top_alone = yes",
    ]
    assert any(line.startswith("      rule: A run of seven cards is a samba") for line in section)
    for field in (
        "  one_meld_per_rank = no",
        "  combine_same_rank = yes",
        "  onto_meld_below_canasta_only = yes",
        "  canastas_for_red_threes = 2",
    ):
        assert field in lines
        assert lines[lines.index(field) + 1].startswith("      rule: "), field  # each said in words with its source


def test_rules_show_of_a_classic_book_says_it_has_no_runs() -> None:
    code, out = run("rules", "show", "classic-4p")
    assert code == 0
    lines = out.splitlines()
    assert lines[lines.index("runs") + 1] == "  min_size = 0 (no runs)"


FIELDS = {
    "runs.min_size": "3",
    "runs.max_size": "7",
    "runs.canasta_bonus": "1500",
    "runs.pile_top_alone": "yes",
    "melds.one_meld_per_rank": "no",
    "melds.combine_same_rank": "yes",
    "discard_pile.onto_meld_below_canasta_only": "yes",
    "threes.canastas_for_red_threes": "2",
}


@pytest.mark.parametrize(("path", "value"), list(FIELDS.items()))
def test_explain_a_new_field_gives_samba_4p_its_value_and_the_rule_as_it_words_it(path: str, value: str) -> None:
    out, lines, values = explained_field(path, comment_longer_than=30)
    assert f"; {value} (" in values and "samba-4p" in values.rsplit(";", 1)[1]
    assert "samba-4p" in lines[lines.index(values) + 1]  # changed by: samba-4p
    assert "  [samba-4p] " in out


CODES = {
    "RUNS_NOT_ALLOWED": "runs.min_size",
    "RUN_WILD_CARD": "runs",
    "RUN_MIXED_SUITS": "runs.min_size",
    "RUN_NOT_CONSECUTIVE": "runs.min_size",
    "RUN_RANK_OUT_OF_RANGE": "runs.lowest_rank",
    "RUN_TOO_SMALL": "runs.min_size",
    "RUN_TOO_LARGE": "runs.max_size",
    "MELD_TARGET_OTHER_RANK": "melds.one_meld_per_rank",
    "MELD_SECOND_OF_RANK": "melds.one_meld_per_rank",
    "PILE_TOP_CANNOT_START_RUN": "runs.pile_top_alone",
    "PILE_TOP_RUN_WITH_HAND_CARDS": "runs.pile_top_alone",
    "PILE_TOP_ONTO_RUN_NOT_ALLOWED": "runs.pile_top_alone",
    "PILE_ONTO_CANASTA_NOT_ALLOWED": "discard_pile.onto_meld_below_canasta_only",
    "COMBINE_NOT_ALLOWED": "melds.combine_same_rank",
    "COMBINE_DIFFERENT_RANKS": "melds.combine_same_rank",
    "COMBINE_BREAKS_MELD": "melds.combine_same_rank",
}


@pytest.mark.parametrize(("code_name", "field"), list(CODES.items()))
def test_explain_a_new_code_says_the_rule_and_its_field(code_name: str, field: str) -> None:
    out = explained_code(code_name, field, sentence_longer_than=25)
    # samba-4p's value is listed as one that changes the field, and its own wording of the rule (every rule set's id
    # is in the values line, whatever the field)
    assert any(line.strip().startswith("changed by:") and "samba-4p" in line for line in out.splitlines()), out
    assert "\n  [samba-4p] " in out


def test_explain_run_mixed_suits_lists_samba_4p_as_the_book_with_runs() -> None:
    code, out = run("explain", "RUN_MIXED_SUITS")
    assert code == 0
    assert out.splitlines()[0] == "RUN_MIXED_SUITS: A run's cards are all of one suit."
    values = next(line for line in out.splitlines() if line.startswith("  runs.min_size = "))
    assert values.startswith("  runs.min_size = 0 (no runs) (") and "classic-4p" in values
    assert "; 3 (samba-4p" in values


# check: the new notation, one position per rule


CHECKS = [
    ("play", "meld 4S 5H 6H", "RUN_MIXED_SUITS (runs.min_size): a run's cards must all be of one suit"),
    ("play", "meld 5H 6H 2C", "RUN_WILD_CARD (runs): a run holds natural cards only, not 1 wild card(s)"),
    ("play", "meld 5H 6H 8H", "RUN_NOT_CONSECUTIVE (runs.min_size): a run's cards must follow each other in rank"),
    ("play", "meld 3S 4S 5S", "RUN_RANK_OUT_OF_RANGE (runs.lowest_rank): a run may go no lower than a four"),
    ("play", "meld 5H 6H", "RUN_TOO_SMALL (runs.min_size): a new run needs at least 3 cards, not 2"),
    ("play", "meld KH to 1", "MELD_TARGET_OTHER_RANK (melds.one_meld_per_rank): KH cannot join meld 1, a meld of"),
    ("play", "meld JC to 7", "MELD_NO_SUCH_MELD (melds.one_meld_per_rank): JC cannot join meld 7: the side has 4"),
    ("play", "combine 1 2", "COMBINE_DIFFERENT_RANKS (melds.combine_same_rank): melds 1 and 2 are not two melds"),
    ("play", "combine 3 9", "MELD_NO_SUCH_MELD (melds.one_meld_per_rank): there is no meld 9 to combine"),
    ("pile", "take-pile with 7H to 2", "PILE_TOP_RUN_WITH_HAND_CARDS (runs.pile_top_alone): the top card 8H may"),
    ("pile", "take-pile with 6H 7H", "PILE_TOP_CANNOT_START_RUN (runs.pile_top_alone): the top card 8H cannot"),
    ("pile", "take-pile to 1", "MELD_TARGET_OTHER_RANK (melds.one_meld_per_rank): 8H cannot join meld 1"),
    ("pile", "take-pile to 3", "PILE_ONTO_CANASTA_NOT_ALLOWED (discard_pile.onto_meld_below_canasta_only): the top"),
]


@pytest.mark.parametrize(("state", "action", "expected"), CHECKS)
def test_check_names_each_run_and_target_rule_it_breaks(
    files: dict[str, str], state: str, action: str, expected: str
) -> None:
    check_refused(files[state], action, expected)


@pytest.mark.parametrize(
    ("state", "action"),
    [
        ("play", "meld 5H 6H 7H"),  # a run from the hand
        ("play", "meld 8H to 2"),  # extends the run 9H TH JH at its low end
        ("play", "meld new KH KD KS"),
        ("play", "meld JC to 1, new KH KD KS"),
        ("pile", "take-pile to 2"),  # the top card 8H alone onto the run
    ],
)
def test_check_accepts_runs_named_targets_and_a_take_onto_a_run(files: dict[str, str], state: str, action: str) -> None:
    code, out = run("check", "--state", files[state], "--action", action)
    assert code == 0, out
    assert out.splitlines()[0] == f"legal: {action}"


def test_check_a_combine_makes_a_canasta_of_two_melds_of_queens(files: dict[str, str]) -> None:
    code, out = run("check", "--state", files["play"], "--action", "combine 3 4")
    assert code == 0, out
    assert "  side 0 has a mixed canasta: QC QD QS 2D QH QD QS" in out.splitlines()
    code, out = run("check", "--state", files["play"], "--action", "combine 3 4", "--json")
    melds = json.loads(out)["nextState"]["sides"][0]["melds"]
    assert len(melds) == 3  # the fourth meld joined the third


def test_a_bad_meld_number_is_a_notation_error_naming_where(files: dict[str, str]) -> None:
    code, out = run("check", "--state", files["play"], "--action", "combine 3")
    assert code == 2 and out == ""
    result = CliRunner().invoke(main, ["check", "--state", files["play"], "--action", "meld 8H to 0"])
    assert result.exit_code == 2
    assert "action: at character 12: 'to' in meld group 1 needs a meld number (1, 2, ...), got '0'" in result.stderr


# validate, score


def test_validate_accepts_the_positions(files: dict[str, str]) -> None:
    for name in ("play", "pile", "both"):
        assert run("validate", "--state", files[name]) == (0, "valid\n"), name


def test_score_names_the_samba_and_the_red_threes_without_canastas(files: dict[str, str]) -> None:
    code, out = run("score", files["table"])
    assert code == 0
    lines = out.splitlines()
    assert "    1500  run canasta (samba)          run canasta 5H 6H 7H 8H 9H TH JH" in lines
    assert any(
        line.startswith("    -100  red threes without meld      3H: 1 red three(s) and 0 canasta(s)") for line in lines
    )
    assert lines[-1] == "side 0: 2535  side 1: -95"


# adjudicate


def test_adjudicate_asks_samba_4p_with_the_other_four_player_books(files: dict[str, str]) -> None:
    code, out = run("adjudicate", "--state", files["both"], "--action", "meld new KH KD KS")
    assert code == 0, out
    judged = [line.split()[0] for line in out.splitlines()[2:] if line.endswith(" legal")]
    assert "samba-4p" in judged and "classic-4p" in judged


def test_adjudicate_a_take_onto_a_run_where_only_the_samba_books_fit(files: dict[str, str]) -> None:
    code, out = run("adjudicate", "--state", files["pile"], "--action", "take-pile to 2")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[2].split() == ["samba-4p", "legal"]
    assert "classic-4p" in lines[-2] and lines[-2].startswith("not applicable (the state does not fit): ")


def test_adjudicate_a_wild_card_onto_a_new_meld_samba_4p_against_classic_4p(tmp_path: Path) -> None:
    seat = {**BOTH["seats"][0], "hand": "5H 6H 7H 8H 9C KH KD KS 2C"}  # BOTH with the two in seat 0's hand
    state = json_files(tmp_path, {"wild": {**BOTH, "seats": [seat, *BOTH["seats"][1:]]}})["wild"]
    code, out = run("adjudicate", "--state", state, "--action", "meld KH KD KS 2C", "--rules", "classic-4p,samba-4p")
    assert code == 0, out
    lines = out.splitlines()
    assert [line.split() for line in lines[2:4]] == [["classic-4p", "legal"], ["samba-4p", "legal"]]
    assert lines[4] == "all applicable rule sets agree"


def test_adjudicate_a_run_under_classic_4p_and_samba_4p_answers_runs_not_allowed(files: dict[str, str]) -> None:
    code, out = run(
        "adjudicate", "--state", files["both"], "--action", "meld 5H 6H 7H", "--rules", "classic-4p,samba-4p"
    )
    assert code == 0, out
    lines = out.splitlines()
    assert lines[2].startswith("classic-4p   ILLEGAL     RUNS_NOT_ALLOWED")
    assert lines[3].split() == ["samba-4p", "legal"]


# simulate and replay


def test_simulated_samba_games_replay_cleanly(tmp_path: Path) -> None:
    code, out = run(
        "simulate", "--rules", "samba-4p", "--games", "1", "--seed", "0", "--max-hands", "1", "--out", str(tmp_path)
    )
    assert code == 0 and out.startswith("1 game(s), 0 finished, 1 hands"), out
    code, out = run("replay", str(tmp_path / "game-0.json"))
    assert code == 0, out
    assert out.splitlines()[0].startswith("game-0.json: rule set samba-4p, 1 hand(s)")


# check --view: the same answers from the player's view


@pytest.mark.parametrize(
    ("state", "action"),
    [("play", "combine 3 4"), ("play", "meld 8H to 2"), ("play", "meld JC to 7"), ("pile", "take-pile to 2")],
)
def test_check_from_the_players_view_judges_the_new_notation_as_the_state(
    files: dict[str, str], tmp_path: Path, state: str, action: str
) -> None:
    message = json_format.Parse(Path(files[state]).read_text(), notation_pb2.GameStateNotation())
    full = state_from_notation(message, default_rule_book().get("samba-4p").rules)
    view = tmp_path / "view.json"
    view.write_text(json_format.MessageToJson(view_to_proto(view_of(full, 0))), encoding="utf-8")
    by_state = run("check", "--state", files[state], "--action", action, "--json")
    by_view = run("check", "--rules", "samba-4p", "--view", str(view), "--action", action, "--json")
    assert by_view[0] == by_state[0]
    seen, judged = json.loads(by_view[1]), json.loads(by_state[1])
    assert (seen.get("legal", False), seen.get("violations")) == (judged.get("legal", False), judged.get("violations"))
    assert seen["notation"] == action
