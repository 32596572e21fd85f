"""Modern American Canasta (american-4p) through the command line: explain, rules show, check, validate, score,
minimum, simulate, replay and adjudicate, with the rule set's new fields, codes and score items in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_harness import explained_code, explained_field, run
from record_states import RECORDS, record_states

from oracle.rules.state_check import InvalidStateError
from oracle.rules.view import complete, view_of
from oracle.ruleset.loader import default_rule_book

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "american"
PLAY = DATA / "play-4p.json"  #: seat 0 plays; sevens 7C 7D 7S and kings KC KD KH melded; side 1 has a canasta of fives
WILD_MELD = DATA / "wild-meld-open-4p.json"  #: side 0's meld of wild cards JK 2D 2H is short of a canasta
OPENING = DATA / "opening-4p.json"  #: seat 0's side has not melded; 14 cards in hand
EMPTY_PILE = DATA / "empty-pile-4p.json"  #: no upcard was turned: the pile is empty
DEAD_TOP = DATA / "dead-top-4p.json"  #: seat 1 to draw, the pile's top card a five (fives dead)
GOING_OUT = DATA / "going-out-4p.json"  #: seat 0 holds one card; side 0 has a natural and a wild-card canasta
BLOCKED = DATA / "going-out-blocked-4p.json"  #: as GOING_OUT, but side 0 also has sevens short of a canasta
TABLE = DATA / "went-out-4p-table.json"  #: the hand GOING_OUT ends by discarding 6C
FOUR_PLAYER = sorted(loaded.spec.id for loaded in default_rule_book() if loaded.spec.players.seats == 4)


# explain: the new fields and codes

FIELDS = {
    "deal.upcard": "no",
    "melds.wilds_after_opening_min_naturals": "5",
    "melds.open_wild_meld_blocks_wilds": "yes",
    "canastas.wild_bonus": "2000",
    "canastas.wild_all_twos_bonus": "3000",
    "canastas.wild_all_jokers_bonus": "2500",
    "canastas.wild_unfinished_penalty": "2000",
    "initial_meld.natural_meld_required": "3",
    "initial_meld.no_mixed_canasta": "yes",
    "initial_meld.pile_top_counts": "no",
    "discard_pile.closed_rank_dead": "yes",
    "discard_pile.no_wild_on_empty_pile": "yes",
    "discard_pile.wild_discard_last_resort": "yes",
    "threes.black_three_role": "BLACK_THREE_ROLE_BONUS",
    "threes.minus_below_canastas": "1",
    "threes.plus_from_canastas": "2",
    "going_out.ask_partner_max_per_hand": "1",
    "going_out.unfinished_special_meld_blocks": "yes",
    "card_values.table_minus_below_canastas": "1",
    "bonus_cards.first_side": "4",
    "bonus_cards.later_side": "3",
    "bonus_cards.not_with_pile_take": "yes",
    "bonus_cards.none_when_stock_at_most": "8",
    "bonus_cards.keep_only_discard": "yes",
}


@pytest.mark.parametrize(
    ("path", "value"),
    [pytest.param(path, value) for path, value in FIELDS.items()],
)
def test_explain_a_new_field_gives_american_4p_its_own_value_and_names_it_as_the_changer(path: str, value: str) -> None:
    out, lines, values = explained_field(path, comment_longer_than=40)
    assert values.endswith(f"; {value} (american-4p)")  # every other rule set keeps the classic value
    assert lines[lines.index(values) + 1] == "    changed by: american-4p"
    assert "  [american-4p] " in out  # the rule as american-4p words it, with its citations


def test_explain_a_section_and_a_field_say_what_they_are_from_the_proto() -> None:
    code, out = run("explain", "bonus_cards")
    assert code == 0
    assert out.splitlines()[0] == "bonus_cards: Extra cards a side gets when it makes its initial meld from the hand."
    _, out = run("explain", "deal.upcard")
    assert out.splitlines()[0].startswith("deal.upcard: Turn a first upcard to start the discard pile (true: 2P-RULES")


def test_explain_the_rank_rules_and_the_count_values_in_words() -> None:
    code, out = run("explain", "melds.rank_rules")
    assert code == 0
    values = next(line for line in out.splitlines() if line.startswith("  melds.rank_rules = "))
    assert values.startswith("  melds.rank_rules = none (")
    assert "; sevens: no wild card; natural canasta +2,500; a natural meld short of a canasta" in values
    assert "| aces: no wild card (a meld laid in the side's initial meld may take wild cards" in values
    code, out = run("explain", "threes.count_values")
    assert (
        "; per colour, by how many threes of it the side laid: one 100, two 300, three 500, four 1,000 (american-4p)"
        in out
    )


CODES = {
    "MELD_WILDS_NEED_BASE": "melds.wilds_after_opening_min_naturals",
    "WILD_MELD_OPEN": "melds.open_wild_meld_blocks_wilds",
    "MELD_RANK_DEAD": "discard_pile.closed_rank_dead",
    "PILE_TOP_DEAD": "discard_pile.closed_rank_dead",
    "DISCARD_RESTRICTED": "discard_pile",
    "INITIAL_MELD_NEEDS_NATURAL_MELD": "initial_meld.natural_meld_required",
    "INITIAL_MELD_MIXED_CANASTA": "initial_meld.no_mixed_canasta",
    "GO_OUT_WITH_UNFINISHED_MELD": "going_out.unfinished_special_meld_blocks",
    "ASK_LIMIT_REACHED": "going_out.ask_partner_max_per_hand",
}


@pytest.mark.parametrize(
    ("code_name", "field"),
    [pytest.param(code, field) for code, field in CODES.items()],
)
def test_explain_a_new_code_says_the_rule_and_its_field(code_name: str, field: str) -> None:
    out = explained_code(code_name, field, sentence_longer_than=30)
    assert "(american-4p)" in out and "  [american-4p] " in out


# rules show


def test_rules_show_prints_each_rank_rule_on_its_own_line_and_the_threes_by_count() -> None:
    code, out = run("rules", "show", "american-4p")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("  rank_rules =")
    assert lines[at + 1].startswith("      sevens: no wild card; natural canasta +2,500;")
    assert "3 or more in one hand at the hand's end -1,500" in lines[at + 1]
    assert lines[at + 2].startswith("      aces: no wild card (a meld laid in the side's initial meld may take")
    assert (
        "  count_values = per colour, by how many threes of it the side laid: one 100, two 300, three 500, four 1,000"
        in lines
    )
    assert "  upcard = no" in lines


# check: one position per new code


CHECKS = [
    (PLAY, "meld 7H 2S", "MELD_TOO_MANY_WILDS (melds.rank_rules): a meld may hold at most 0 wild cards; these sevens"),
    (PLAY, "meld KS 2S", "MELD_WILDS_NEED_BASE (melds.wilds_after_opening_min_naturals):"),
    (
        PLAY,
        "meld 5D 5H 5S",
        "MELD_RANK_DEAD (discard_pile.closed_rank_dead): new meld 5D 5H 5S would be a meld of fives, which are dead",
    ),
    (PLAY, "discard 2S", "DISCARD_RESTRICTED (discard_pile.wild_discard_last_resort): 2S may be discarded only"),
    (PLAY, "ask", "ASK_LIMIT_REACHED (going_out.ask_partner_max_per_hand): the side has asked 1 time(s)"),
    (WILD_MELD, "meld QD 2C", "WILD_MELD_OPEN (melds.open_wild_meld_blocks_wilds): the side's meld of wild cards"),
    (OPENING, "meld KC KD 2S, AH AD AS JK", "INITIAL_MELD_NEEDS_NATURAL_MELD (initial_meld.natural_meld_required):"),
    (OPENING, "meld KC KD KH KS KC KD 2S, AH AD AS", "INITIAL_MELD_MIXED_CANASTA (initial_meld.no_mixed_canasta):"),
    (EMPTY_PILE, "discard 7H", "DISCARD_RESTRICTED (discard_pile): 7H may not be discarded onto an empty pile"),
    (EMPTY_PILE, "discard 2S", "DISCARD_RESTRICTED (discard_pile.no_wild_on_empty_pile):"),
    (DEAD_TOP, "take-pile with 5D 5H", "PILE_TOP_DEAD (discard_pile.closed_rank_dead): the top card 5S is dead"),
    (BLOCKED, "discard 6C", "GO_OUT_WITH_UNFINISHED_MELD (going_out.unfinished_special_meld_blocks):"),
]


@pytest.mark.parametrize(("state", "action", "expected"), CHECKS)
def test_check_names_each_new_rule_it_breaks(state: Path, action: str, expected: str) -> None:
    code, out = run("check", "--state", str(state), "--action", action)
    assert code == 1
    assert out.splitlines()[0] == f"illegal: {action}"
    assert any(line.startswith(f"  {expected}") for line in out.splitlines()), out


def test_a_legal_discard_onto_the_empty_pile_and_a_legal_initial_meld() -> None:
    code, out = run("check", "--state", str(EMPTY_PILE), "--action", "discard 8C")
    assert code == 0 and "  next: seat 1 to move, phase DRAW" in out
    # a natural triple of aces (60) and kings with a wild (40) and jokers: 150, over the 125 a side needs at 0
    code, out = run("check", "--state", str(OPENING), "--action", "meld AH AD AS, KC KD 2S JK")
    assert code == 0, out


def test_the_bonus_cards_after_the_initial_meld_turn_are_named_and_a_black_three_among_them_is_laid() -> None:
    # tests/data/american/after-opening-4p.json: seat 0 made the side's initial meld this turn; the stock's top four
    # cards are 8H 3C 9C 4S from the top (3C a black three: laid and replaced by the joker under them)
    code, out = run("check", "--state", str(DATA / "after-opening-4p.json"), "--action", "discard 6C")
    assert code == 0
    assert out.splitlines()[1:3] == [
        "  seat 0 drew 8H 9C 4S JK (bonus cards for the side's initial meld: bonus_cards)",
        "  seat 0 laid black three 3C and drew a replacement",
    ]


def test_going_out_prints_the_hands_score_item_by_item_in_words() -> None:
    code, out = run("check", "--state", str(GOING_OUT), "--action", "discard 6C")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("  hand over (went_out): side 0 3250, side 1 -4245")
    assert lines[at + 1] == (
        "    side 0: melded cards 270, natural canasta 500, wild-card canasta 2000, threes by count 400,"
        " going out 100, cards in hand -20"
    )
    assert lines[at + 2] == (
        "    side 1: melded cards -55, unfinished meld -2500, threes by count -100, cards in hand -90,"
        " rank held in hand -1500"
    )


# validate, score, minimum


def test_validate_accepts_the_positions_and_refuses_a_black_three_held(tmp_path: Path) -> None:
    for state in (PLAY, WILD_MELD, OPENING, EMPTY_PILE, DEAD_TOP, GOING_OUT, BLOCKED):
        assert run("validate", "--state", str(state)) == (0, "valid\n"), state
    held = json.loads(PLAY.read_text())
    held["seats"][1]["hand"] += " 3C"
    path = tmp_path / "held.json"
    path.write_text(json.dumps(held))
    code, out = run("validate", "--state", str(path))
    assert code == 1
    assert "3C is a black three: it is laid at once, never held" in out


def test_score_names_the_new_items_in_words() -> None:
    code, out = run("score", str(TABLE))
    assert code == 0
    items = {
        line[10:39].strip(): int(line[:8]) for line in out.splitlines() if line.startswith("  ") and line[:8].strip()
    }
    assert items["wild-card canasta"] == 2000
    assert items["unfinished meld"] == -2500
    assert items["rank held in hand"] == -1500
    assert "   -1500  rank held in hand            player 1: 3 aces held" in out.splitlines()
    assert "     100  threes by count              3C: 1 black three(s), 100 (2 canastas)" in out.splitlines()
    assert out.splitlines()[-1] == "side 0: 3250  side 1: -4245"


@pytest.mark.parametrize(("total", "minimum"), [("3000", "155"), ("2999", "125"), ("5000", "180"), ("-10", "125")])
def test_minimum_follows_the_american_thresholds(total: str, minimum: str) -> None:
    assert run("minimum", "--rules", "american-4p", "--", total) == (0, f"{minimum}\n")


# simulate and replay


def test_simulated_american_games_replay_cleanly_and_name_the_items(tmp_path: Path) -> None:
    code, out = run(
        "simulate", "--rules", "american-4p", "--games", "2", "--seed", "5", "--max-hands", "2", "--out", str(tmp_path)
    )
    assert code == 0 and out.startswith("2 game(s), 0 finished, 4 hands")
    code, out = run("replay", str(tmp_path / "game-5.json"))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("game-5.json: rule set american-4p, 2 hand(s)")
    hand = next(i for i, line in enumerate(lines) if line.startswith("hand 0: "))
    assert lines[hand + 1].startswith("  side 0: ") and lines[hand + 2].startswith("  side 1: ")
    assert "threes by count" in lines[hand + 1] + lines[hand + 2]


# adjudicate


def test_adjudicate_asks_american_4p_with_the_other_four_player_books() -> None:
    code, out = run("adjudicate", "--state", str(EMPTY_PILE), "--action", "discard 8C")
    assert code == 0
    judged = [line.split()[0] for line in out.splitlines()[2:] if line.endswith(" legal")]
    assert "american-4p" in FOUR_PLAYER and judged == FOUR_PLAYER


def test_adjudicate_a_wild_card_onto_sevens_american_4p_against_classic_4p() -> None:
    code, out = run("adjudicate", "--state", str(PLAY), "--action", "meld 7H 2S", "--rules", "classic-4p,american-4p")
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split() == ["classic-4p", "legal"]
    assert lines[3].startswith("american-4p   ILLEGAL     MELD_TOO_MANY_WILDS (melds.rank_rules):")
    deciding = lines[lines.index("deciding fields:") + 1 :]
    assert deciding[0].startswith("  melds.rank_rules: classic-4p=none, american-4p=sevens: no wild card;")
    assert deciding[1] == "  melds.wilds_after_opening_min_naturals: classic-4p=0, american-4p=5"


# engine gaps found on the way (fix in the engine, then these pass and the markers come off)


def test_a_view_of_an_american_record_state_completes() -> None:
    # Under threes.black_three_role BONUS black threes are never held either; completing a view must put the unseen
    # ones into the stock as it does red threes. It deals them into hidden hands and the state check refuses them.
    rules = default_rule_book().get("american-4p").rules
    path = next(p for p in RECORDS if p.parent.name == "american-4p" and p.name == "game-5.json")
    _, states = record_states(path)
    state = states[94]  # seat 1 to move, seven cards in the stock, two black threes unseen by seat 1
    refused = []
    try:
        complete(rules, view_of(state, state.seat_to_move))
    except InvalidStateError as exc:
        refused.append(str(exc.problems[0]))
    assert refused == []


def test_rules_show_words_american_4ps_initial_meld_by_its_own_note() -> None:
    # american-4p notes its initial meld on the section (initial_meld); classic-4p's notes on the single fields
    # (natural_meld_required, no_mixed_canasta, pile_top_counts, minimum_below_table, thresholds, ...) still win,
    # so the rule shown (and the violations' citations) contradict the values: 3 natural cards required, yet
    # "needs no meld of natural cards alone".
    _, out = run("rules", "show", "american-4p")
    lines = out.splitlines()
    at = lines.index("  natural_meld_required = 3")
    assert "needs no meld of natural cards alone" not in lines[at + 1]
