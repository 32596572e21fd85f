"""Hand and Foot (hand-and-foot-4p and its variants) through the command line: rules show with its foot section and
the new fields in words, explain of the new fields and codes, check of states with feet and a hand number (melding
the hand out into the foot, walking into it with the last discard, the going-out codes, the minimum by hand), score
of a state with a foot not taken up and a held red three, and adjudicate of the four rule sets on one position."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_harness import check_refused, explained_code, explained_field, json_files, run
from click.testing import CliRunner
from google.protobuf import json_format
from hand_and_foot_states import ASKED_YES, CLEAN, DIRTY, FOOT, OPEN
from helpers import foot_position

from oracle.api.v1 import notation_pb2
from oracle.cli.main import main
from oracle.rules.view import view_of
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import state_from_notation
from oracle.service.convert_view import view_to_proto


def hf(
    hand: str,
    melds: Sequence[str],
    *,
    foot: str = "",
    partner_foot: str = "",
    turn: dict[str, str] | None = None,
    hand_number: int = 0,
    rule_set: str = "hand-and-foot-4p",
) -> dict[str, Any]:
    """Seat 0 to move in its play phase holding `hand` (seat 2 its partner), `foot` not yet taken up; side 0 has
    `melds`, all there when the turn began; the stock holds every card not placed (helpers.foot_position)."""
    position = foot_position(hand, melds, foot=foot, partner_foot=partner_foot, turn=turn, hand_number=hand_number)
    return {"ruleSetId": rule_set, **position}


STATES: dict[str, dict[str, Any]] = {
    "meld_out": hf("9S 9S 2C", OPEN, foot=FOOT),  # melding 9S 9S 2C empties the hand: the foot is played on
    "walk": hf("KS", OPEN, foot=FOOT),  # discarding KS empties the hand: the foot from the next turn
    "short": hf("9S", [CLEAN[0], DIRTY[0], *OPEN], partner_foot=FOOT, turn=ASKED_YES),  # one book of each kind
    "unasked": hf("9S", [*CLEAN, *DIRTY, *OPEN]),  # every book, but no "may I go out?"
    "partner": hf("9S", [*CLEAN, *DIRTY, *OPEN], partner_foot=FOOT, turn=ASKED_YES),  # the partner still in the hand
    "fourth": hf("KH KD KS AH AD AS QH QD QS 4S", [], foot=FOOT, hand_number=4),  # hand 4: the minimum is 150
    "held": hf("3H 9S", OPEN, partner_foot=FOOT),  # a red three held, the partner's foot not taken up
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """The positions above as GameStateNotation JSON files."""
    return json_files(tmp_path, STATES)


# rules show and explain


def _section(lines: list[str], title: str) -> list[str]:
    at = lines.index(title)
    end = lines.index("", at) if "" in lines[at:] else len(lines)
    return lines[at + 1 : end]


def test_rules_show_prints_the_foot_section_in_words() -> None:
    code, out = run("rules", "show", "hand-and-foot-4p")
    assert code == 0
    section = _section(out.splitlines(), "foot")
    values = [line for line in section if not line.startswith("      ") and not line.startswith("  [")]
    assert values == ["  size = 11", "  continue_after_melding_out = yes", "  unplayed_counts = yes"]
    assert any(line.startswith("      rule: Each player also gets a foot of 11 cards, face down") for line in section)
    assert any(line.startswith("      cite: ROGERDEM-HF, ") for line in section)


NEW_FIELDS = [
    ("card_values", "  rank_values = eight 5; nine 5"),
    ("card_values", "  red_three = 500"),
    ("initial_meld", "  minimum_by_hand = 50, 90, 120, 150"),
    ("threes", "  red_three_held = yes"),
    ("going_out", "  natural_canastas_required = 2"),
    ("going_out", "  mixed_canastas_required = 2"),
    ("going_out", "  partner_foot_required = no"),
    ("going_out", "  ask_partner = ASK_PARTNER_REQUIRED_BINDING"),
    ("game", "  hands = 4"),
    ("deal", "  upcard_reject_to_stock = yes"),
    ("melds", "  one_open_meld_per_rank = yes"),
]


@pytest.mark.parametrize(("section", "line"), NEW_FIELDS)
def test_rules_show_says_each_new_field_with_its_rule_and_source(section: str, line: str) -> None:
    code, out = run("rules", "show", "hand-and-foot-4p")
    assert code == 0
    lines = _section(out.splitlines(), section)
    assert line in lines, lines
    # said in words and cited, on its own or in a note on a group of the section's fields ("  [target_score, hands]")
    name = line.split(" = ")[0].strip()
    groups = [i for i, text in enumerate(lines) if text.startswith("  [") and name in text[3:-1].split(", ")]
    at = lines.index(line) if lines[lines.index(line) + 1].startswith("      rule: ") else groups[0]
    assert lines[at + 1].startswith("      rule: ") and lines[at + 2].startswith("      cite: ")


def test_rules_show_of_the_13_card_variant_and_of_a_classic_book() -> None:
    code, out = run("rules", "show", "hand-and-foot-13-4p")
    assert code == 0 and "  size = 13" in _section(out.splitlines(), "foot")
    code, out = run("rules", "show", "classic-4p")
    assert code == 0
    foot = _section(out.splitlines(), "foot")
    assert foot[0] == "  size = 0" and any("there is no foot" in line for line in foot)


FIELDS = {
    "foot.size": ("11", "hand-and-foot-4p"),
    "card_values.rank_values": ("eight 5; nine 5", "hand-and-foot-4p"),
    "card_values.red_three": ("500", "hand-and-foot-4p"),
    "initial_meld.minimum_by_hand": ("50, 90, 120, 150", "hand-and-foot-4p"),
    "threes.red_three_held": ("yes", "hand-and-foot-4p"),
    "going_out.natural_canastas_required": ("1", "hand-and-foot-one-each-4p"),
    "going_out.mixed_canastas_required": ("2", "hand-and-foot-4p"),
    "game.hands": ("4", "hand-and-foot-4p"),
    "deal.upcard_reject_to_stock": ("yes", "hand-and-foot-4p"),
}


@pytest.mark.parametrize(("path", "expected"), list(FIELDS.items()))
def test_explain_a_new_field_gives_its_comment_and_the_hand_and_foot_value(
    path: str, expected: tuple[str, str]
) -> None:
    value, book = expected
    _, lines, values = explained_field(path, comment_longer_than=30)
    assert f"; {value} (" in values
    assert book in values.split(f"; {value} (", 1)[1].split(")", 1)[0]
    assert book in lines[lines.index(values) + 1]  # changed by: ...


CODES = {
    "FOOT_NOT_YET": "foot.continue_after_melding_out",
    "GO_OUT_BOOKS_MISSING": "going_out",
    "GO_OUT_WITHOUT_ASKING": "going_out.ask_partner",
    "GO_OUT_PARTNER_FOOT_NOT_TAKEN": "going_out.partner_foot_required",
    "MELD_OPEN_OF_RANK_EXISTS": "melds.one_open_meld_per_rank",
}


@pytest.mark.parametrize(("code_name", "field"), list(CODES.items()))
def test_explain_a_new_code_says_the_rule_and_its_field(code_name: str, field: str) -> None:
    out = explained_code(code_name, field, sentence_longer_than=25)
    # a Hand and Foot book changes the field or words the rule itself (every rule set's id is in the values line)
    assert any(
        line.startswith("  [hand-and-foot") or (line.strip().startswith("changed by:") and "hand-and-foot" in line)
        for line in out.splitlines()
    ), out


# check: states with feet and a hand number


def test_check_melding_the_hand_out_takes_up_the_foot_and_plays_on(files: dict[str, str]) -> None:
    code, out = run("check", "--state", files["meld_out"], "--action", "meld 9S 9S 2C")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "legal: meld 9S 9S 2C"
    assert "  seat 0 took up the foot (11 cards): plays on from it this turn" in lines
    assert any(line.startswith("  next: seat 0 to move, phase PLAY") for line in lines)
    code, out = run("check", "--state", files["meld_out"], "--action", "meld 9S 9S 2C", "--json")
    seat = json.loads(out)["nextState"]["seats"][0]
    assert len(seat["hand"]) == 11 and seat["foot"] == []


def test_check_discarding_the_last_hand_card_takes_up_the_foot_for_the_next_turn(files: dict[str, str]) -> None:
    code, out = run("check", "--state", files["walk"], "--action", "discard KS")
    assert code == 0, out
    lines = out.splitlines()
    assert "  seat 0 took up the foot (11 cards): plays it from the next turn" in lines
    assert any(line.startswith("  next: seat 1 to move, phase DRAW") for line in lines)


def test_check_an_action_that_keeps_a_hand_card_takes_up_no_foot(files: dict[str, str]) -> None:
    code, out = run("check", "--state", files["meld_out"], "--action", "meld 9S 9S")
    assert code == 0, out
    assert not any("took up the foot" in line for line in out.splitlines())


CHECKS = [
    ("short", "discard 9S", "GO_OUT_BOOKS_MISSING (going_out): going out needs 2 natural and 2 mixed canasta(s)"),
    ("unasked", "discard 9S", "GO_OUT_WITHOUT_ASKING (going_out.ask_partner): "),
    ("fourth", "meld KH KD KS, AH AD AS, QH QD QS", "INITIAL_MELD_BELOW_MINIMUM (initial_meld.minimum_by_hand): "),
]


@pytest.mark.parametrize(("state", "action", "expected"), CHECKS)
def test_check_names_each_going_out_and_minimum_rule_it_breaks(
    files: dict[str, str], state: str, action: str, expected: str
) -> None:
    check_refused(files[state], action, expected)


def test_the_hand_number_in_the_notation_sets_the_minimum(files: dict[str, str], tmp_path: Path) -> None:
    code, out = run("check", "--state", files["fourth"], "--action", "meld KH KD KS, AH AD AS, QH QD QS")
    assert code == 1 and "hand 4 of the game" in out, out
    first = tmp_path / "first.json"
    first.write_text(json.dumps({**STATES["fourth"], "handNumber": 1}), encoding="utf-8")
    code, out = run("check", "--state", str(first), "--action", "meld KH KD KS, AH AD AS, QH QD QS")
    assert code == 0, out  # 120 is above the first hand's 50


def test_going_out_with_the_partner_in_the_hand_is_refused_where_the_house_rule_asks_both_feet(
    files: dict[str, str], tmp_path: Path
) -> None:
    specs = tmp_path / "specs"
    shutil.copytree(Path(__file__).parent.parent / "specs", specs)
    (specs / "hf-both-feet-4p.textproto").write_text(
        'id: "hf-both-feet-4p"\nextends: "hand-and-foot-4p"\ntitle: "Both partners in their feet"\n'
        'description: "hand-and-foot-4p where neither partner goes out until both have taken up their feet."\n'
        "going_out { partner_foot_required: true }\n"
        'rules { field: "going_out.partner_foot_required" text: "Both partners must be in their feet."'
        ' cite { source: "THERMOPIR-HF" section: "Going out" } }\n',
        encoding="utf-8",
    )
    action = ("--state", files["partner"], "--action", "discard 9S")
    code, out = run("check", *action, "--rules", "hf-both-feet-4p", "--specs", str(specs))
    assert code == 1, out
    assert any(
        line.startswith("  GO_OUT_PARTNER_FOOT_NOT_TAKEN (going_out.partner_foot_required): ")
        for line in out.splitlines()
    )
    code, out = run("check", *action)
    assert code == 0, out
    assert any(line.startswith("  hand over (went_out): ") for line in out.splitlines())


def test_validate_accepts_the_positions_and_refuses_a_foot_under_a_book_without_one(files: dict[str, str]) -> None:
    for name in STATES:
        assert run("validate", "--state", files[name]) == (0, "valid\n"), name
    code, out = run("validate", "--state", files["walk"], "--rules", "classic-4p")
    assert code == 1 and "deals no foot" in out, out


# score


def test_score_of_a_state_counts_the_foot_not_taken_up_and_the_held_red_three(files: dict[str, str]) -> None:
    code, out = run("score", files["held"])
    assert code == 0, out
    lines = out.splitlines()
    assert "    -505  cards in hand                player 1: 3H 9S" in lines  # 500 for the red three, 5 for the nine
    assert f"     -80  cards in hand                player 2: 6D 8C {FOOT}" in lines  # 10 + the foot's 70
    assert lines[-1] == "side 0: -570  side 1: -20"
    code, out = run("score", files["held"], "--json")
    assert [side["total"] for side in json.loads(out)["sides"]] == [-570, -20]


def test_score_of_an_inconsistent_state_names_its_problems(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(hf("KS", OPEN, foot=FOOT, rule_set="classic-4p")), encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 2
    assert "inconsistent state: state.seats[0].foot" in result.stderr and "deals no foot" in result.stderr


# adjudicate


def test_adjudicate_asks_the_hand_and_foot_books_and_one_each_alone_lets_the_side_out(files: dict[str, str]) -> None:
    code, out = run("adjudicate", "--state", files["short"], "--action", "discard 9S")
    assert code == 0, out
    lines = out.splitlines()
    verdicts = {line.split()[0]: line.split()[1] for line in lines[2:] if line and not line.startswith(" ")}
    assert verdicts["hand-and-foot-4p"] == "ILLEGAL" and verdicts["hand-and-foot-red-threes-laid-4p"] == "ILLEGAL"
    assert verdicts["hand-and-foot-one-each-4p"] == "legal"
    assert "  going_out.natural_canastas_required: hand-and-foot-4p=2, hand-and-foot-one-each-4p=1" in out
    not_applicable = next(line for line in lines if line.startswith("not applicable"))
    assert "classic-4p" in not_applicable and "hand-and-foot-13-4p" in not_applicable  # no foot; a foot of 13


def test_adjudicate_the_four_hand_and_foot_books_where_every_foot_is_taken_up(tmp_path: Path) -> None:
    # no foot left on the table, so the 13-card book fits too: going out with one book of each kind
    path = tmp_path / "all.json"
    path.write_text(json.dumps(hf("9S", [CLEAN[0], DIRTY[0], *OPEN], turn=ASKED_YES)), encoding="utf-8")
    books = "hand-and-foot-4p,hand-and-foot-13-4p,hand-and-foot-red-threes-laid-4p,hand-and-foot-one-each-4p"
    code, out = run("adjudicate", "--state", str(path), "--action", "discard 9S", "--rules", books)
    assert code == 0, out
    judged = {line.split()[0]: line.split()[1] for line in out.splitlines()[2:] if line and not line.startswith(" ")}
    assert judged.pop("deciding") == "fields:"
    assert judged == dict.fromkeys(books.split(","), "ILLEGAL") | {"hand-and-foot-one-each-4p": "legal"}


# minimum


@pytest.mark.parametrize(("hand", "expected"), [("1", "50"), ("2", "90"), ("4", "150"), ("7", "150")])
def test_minimum_goes_by_the_hand_number_where_the_rule_set_says_so(hand: str, expected: str) -> None:
    assert run("minimum", "--rules", "hand-and-foot-4p", "--hand", hand, "3000") == (0, f"{expected}\n")


def test_minimum_of_a_book_without_a_minimum_by_hand_goes_by_the_total_whatever_the_hand() -> None:
    assert run("minimum", "--rules", "classic-4p", "--hand", "4", "1500") == (0, "90\n")
    code, out = run("minimum", "--rules", "hand-and-foot-4p", "0", "--json")
    assert code == 0 and json.loads(out) == {"minimum": 50, "byHand": 1}  # hand 1 by default, no table row
    code, out = run("minimum", "--rules", "hand-and-foot-4p", "--hand", "9", "0", "--json")
    assert code == 0 and json.loads(out) == {"minimum": 150, "byHand": 4}  # the last entry holds for later hands


# check --view: the feet by their count only


def test_check_from_the_players_view_counts_the_feet_and_cannot_show_the_foot_taken_up(
    files: dict[str, str], tmp_path: Path
) -> None:
    message = json_format.Parse(Path(files["meld_out"]).read_text(), notation_pb2.GameStateNotation())
    full = state_from_notation(message, default_rule_book().get("hand-and-foot-4p").rules)
    view = view_to_proto(view_of(full, 0))
    assert [seat.foot_count for seat in view.seats] == [11, 0, 0, 0]
    path = tmp_path / "view.json"
    path.write_text(json_format.MessageToJson(view), encoding="utf-8")
    code, out = run("check", "--rules", "hand-and-foot-4p", "--view", str(path), "--action", "meld 9S 9S 2C")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "legal: meld 9S 9S 2C"
    assert "  unknown next_state: the foot taken up is hidden" in lines
    code, out = run("check", "--rules", "hand-and-foot-4p", "--view", str(path), "--action", "meld 9S 9S")
    assert code == 0 and any(
        line.startswith("  next (seat 0's view): seat 0 to move, phase PLAY") for line in out.splitlines()
    )


def test_a_foot_taken_up_by_the_discard_that_ends_the_hand_is_not_played_next_turn() -> None:
    from dataclasses import replace

    from oracle.cli.state_words import feet_taken_up
    from oracle.model.state import GameState, HandEnd, Phase, SeatState

    foot = (5,) * 11
    before = GameState((SeatState((9,), False, foot),), (), (), ())
    after = replace(before, seats=(SeatState(foot),), phase=Phase.HAND_OVER, hand_end=HandEnd.STOCK_EXHAUSTED)
    assert feet_taken_up(before, after) == [
        "  seat 0 took up the foot (11 cards): the hand ended with that discard, so it counts as cards held"
    ]
    walked = replace(after, phase=Phase.DRAW, hand_end=HandEnd.NONE, seat_to_move=1)
    assert feet_taken_up(before, walked) == ["  seat 0 took up the foot (11 cards): plays it from the next turn"]
