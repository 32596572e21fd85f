"""Cutthroat Canasta through the front ends: explain, check, validate, score, minimum, adjudicate, simulate and replay
on the command line, and the live referee and replay over gRPC."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import run
from click.testing import CliRunner
from google.protobuf import json_format
from server_harness import RPC_TIMEOUT, oracle_stub

from oracle.api.v1 import notation_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2
from oracle.cli.main import main
from oracle.model.actions import parse_action
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "cutthroat"
BEFORE_TAKE = DATA / "before-first-take-3p.json"  #: seat 1 to draw; seat 2 has melded, nobody has taken the pile
PARTNERS = DATA / "partners-formed-3p.json"  #: seat 1 alone, seats 0 and 2 partners (melds on entry 0); seat 2 plays
ONE_CANASTA = DATA / "lone-hand-one-canasta-3p.json"  #: the lone seat 1, one canasta, one card left
STOCK_EMPTY = DATA / "stock-empty-3p.json"  #: as ONE_CANASTA with two cards left and the stock empty
TABLE = DATA / "partners-went-out-3p-table.json"  #: a finished hand: seat 2 went out for the partnership
RECORD = ROOT / "conformance" / "records" / "cutthroat-3p" / "game-0.json"
CUTTHROAT = ["cutthroat-3p", "cutthroat-one-canasta-3p", "cutthroat-play-on-3p"]


# explain


def test_explain_side_formation_names_the_lone_hand_rule_sets_and_their_sources() -> None:
    code, out = run("explain", "players.side_formation")
    assert code == 0
    values = next(line for line in out.splitlines() if "SIDE_FORMATION_LONE_HAND (" in line)
    assert values.split("SIDE_FORMATION_LONE_HAND (")[1].rstrip(")") == ", ".join(CUTTHROAT)
    assert "[cutthroat-3p] players.side_formation: The first player to take the discard pile plays alone" in out
    assert 'cite: BICYCLE-CUTTHROAT, "Lone Hand"' in out


def test_explain_after_last_card_shows_both_values_and_the_rule_set_that_plays_on() -> None:
    code, out = run("explain", "stock_exhaustion.after_last_card")
    assert code == 0
    ending = out.split("AFTER_LAST_CARD_ENDS_AFTER_DISCARD (")[1].split(")")[0].split(", ")
    assert {"cutthroat-3p", "cutthroat-one-canasta-3p"} <= set(ending) and "cutthroat-play-on-3p" not in ending
    assert "changed by: cutthroat-3p, cutthroat-play-on-3p" in out  # and hand-and-foot-4p after them
    assert "[cutthroat-play-on-3p] stock_exhaustion.after_last_card:" in out


def test_explain_a_cutthroat_rule_set_lists_its_choices_with_the_variant_that_takes_the_other_way() -> None:
    code, out = run("explain", "cutthroat-3p")
    assert code == 0
    block = out.split("cutthroat-stock-exhausted:")[1].split("\n\n")[0]
    assert "field: stock_exhaustion.after_last_card = AFTER_LAST_CARD_ENDS_AFTER_DISCARD" in block
    assert "played by: cutthroat-play-on-3p" in block
    assert "played by: cutthroat-one-canasta-3p" in out.split("cutthroat-canastas-to-go-out:")[1].split("\n\n")[0]


# check, validate, minimum, score


def test_check_prints_the_sides_formed_by_the_first_take_of_the_pile() -> None:
    code, out = run("check", "--state", str(BEFORE_TAKE), "--action", "take-pile with 8C 8D meld 7C 7D 7S 2D")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "legal: take-pile with 8C 8D meld 7C 7D 7S 2D"
    taken = lines.index("  seat 1 took the pile: top 8S melded, 2 card(s) to hand")
    # right after the take: seat 1 alone, seat 2's melds now the partnership's
    assert lines[taken + 1] == "  sides formed: seat 1 alone; seats 0 and 2 partners; melds 4D 4S 4S, QC QD QH QH"


def test_check_json_carries_the_sides_formed_event_and_the_next_states_side_of_seat() -> None:
    code, out = run("check", "--json", "--state", str(BEFORE_TAKE), "--action", "take-pile with 8C 8D meld 7C 7D 7S 2D")
    answer = json.loads(out)
    assert code == 0, out
    formed = [e["sidesFormed"] for e in answer["events"] if "sidesFormed" in e]
    assert [(f["loneSeat"], f["partners"]) for f in formed] == [(1, [0, 2])]
    assert answer["nextState"]["sideOfSeat"] == [0, 1, 0]


def test_a_partner_adds_to_the_partnerships_meld_and_nobody_may_ask() -> None:
    assert run("check", "--state", str(PARTNERS), "--action", "meld QD")[0] == 0
    code, out = run("check", "--state", str(PARTNERS), "--action", "ask")
    assert code == 1
    assert "ASK_NOT_ALLOWED (going_out.ask_partner)" in out


def test_validate_accepts_formed_sides_and_names_a_side_of_seat_of_the_wrong_length(tmp_path: Path) -> None:
    assert run("validate", "--state", str(PARTNERS)) == (0, "valid\n")
    bad = json.loads(PARTNERS.read_text())
    bad["sideOfSeat"] = [0, 1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    code, out = run("validate", "--state", str(path))
    assert code == 1
    assert "state.side_of_seat: has 2 entries; rule set 'cutthroat-3p' has 3 seats" in out


def test_the_discard_after_the_last_stock_card_ends_the_hand_only_where_the_rule_set_says_so() -> None:
    code, out = run("check", "--state", str(STOCK_EMPTY), "--action", "discard 6C")
    assert code == 0
    # three score columns: the partners' (seats 0 and 2: partnership items and their own red threes) and the lone hand's
    assert (
        "  hand over (stock_exhausted): side 0 (seat 0, partner of seat 2) 655, side 1 (seat 1 alone) 780,"
        " side 2 (seat 2, partner of seat 0) 555"
    ) in out.splitlines()
    code, out = run("check", "--rules", "cutthroat-play-on-3p", "--state", str(STOCK_EMPTY), "--action", "discard 6C")
    assert code == 0
    assert "hand over" not in out
    assert "  next: seat 2 to move, phase DRAW, stock 0, pile 55" in out.splitlines()


def test_minimum_follows_a_players_own_running_total() -> None:
    assert run("minimum", "--rules", "cutthroat-3p", "1600") == (0, "90\n")
    assert run("minimum", "--rules", "cutthroat-3p", "--", "-10") == (0, "15\n")


def test_score_prints_three_columns_naming_the_lone_hand_and_the_partners() -> None:
    code, out = run("score", str(TABLE))
    assert code == 0
    lines = out.splitlines()
    headers = [line for line in lines if line.startswith("side ")]
    assert headers[:3] == [
        "side 0 (seat 0, partner of seat 2)",
        "side 1 (seat 1 alone)",
        "side 2 (seat 2, partner of seat 0)",
    ]
    assert lines[-1] == "side 0: 1500  side 1: 145  side 2: 1600"
    # the red three is seat 2's own; the partners' hands are both counted in each partner's column
    red = [line for line in lines if "red threes" in line]
    assert len(red) == 1 and red[0].split()[0] == "100"
    assert sum("seat 0: 7S TD" in line for line in lines) == 2


def test_score_of_a_cutthroat_table_under_a_four_player_rule_set_names_what_does_not_fit() -> None:
    result = CliRunner().invoke(main, ["score", "--rules", "classic-4p", str(TABLE)])
    assert result.exit_code == 2
    assert "table.sides: has 3 sides; rule set 'classic-4p' has 2" in result.stderr


# adjudicate


def test_adjudicate_names_the_canastas_needed_to_go_out_as_the_deciding_field() -> None:
    code, out = run("adjudicate", "--state", str(ONE_CANASTA), "--action", "discard 5C")
    assert code == 0
    verdicts = {
        line.split()[0]: line.split()[1] for line in out.splitlines() if line.split()[:1] in ([c] for c in CUTTHROAT)
    }
    assert verdicts == {
        "cutthroat-3p": "ILLEGAL",
        "cutthroat-one-canasta-3p": "legal",
        "cutthroat-play-on-3p": "ILLEGAL",
    }
    assert "  going_out.canastas_required: cutthroat-3p=2, cutthroat-one-canasta-3p=1, cutthroat-play-on-3p=2" in out


def test_adjudicate_by_default_asks_every_rule_set_and_lists_those_of_another_seat_count_as_not_applicable() -> None:
    code, out = run(
        "adjudicate", "--state", str(ROOT / "examples" / "black-three-under-top-4p.json"), "--action", "draw"
    )
    assert code == 0
    skipped = next(line for line in out.splitlines() if line.startswith("not applicable"))
    assert all(rule_set in skipped.split(": ")[1].split(", ") for rule_set in CUTTHROAT)
    assert not any(line.startswith("cutthroat") for line in out.splitlines())


def test_adjudicate_of_a_three_seat_state_under_four_player_rule_sets_says_which_rule_sets_fit() -> None:
    code, out = run("adjudicate", "--state", str(PARTNERS), "--action", "meld QD", "--rules", "classic-4p,classic-2p")
    assert code == 1
    assert "  classic-4p: the state does not fit: state.seats: has 3 seats; rule set 'classic-4p' has 4" in out
    three = [loaded.spec.id for loaded in default_rule_book() if loaded.spec.players.seats == 3]
    assert set(CUTTHROAT) <= set(three)
    assert out.splitlines()[-1] == (
        "no rule set judged it: the state has 3 seat(s) and fits none of those asked (rule sets of 3 seats: "
        + ", ".join(three)
        + ")"
    )


# simulate and replay


@pytest.mark.parametrize("rule_set_id", CUTTHROAT)
def test_simulate_then_replay_a_cutthroat_game_prints_who_played_alone(rule_set_id: str, tmp_path: Path) -> None:
    code, out = run(
        "simulate", "--rules", rule_set_id, "--games", "1", "--seed", "3", "--max-hands", "2", "--out", str(tmp_path)
    )
    assert code == 0, out
    record = tmp_path / "game-3.json"
    code, out = run("replay", str(record))
    assert code == 0, out
    hands = [line for line in out.splitlines() if line.startswith("hand ")]
    assert hands and all(line.count("side ") == 3 for line in hands)  # one score per seat
    formed = [line for line in out.splitlines() if ": sides formed: seat " in line]
    taken = sum(1 for h in json.loads(record.read_text())["hands"] if any("takePile" in a for a in h["actions"]))
    assert 1 <= len(formed) <= taken  # sides form at most once a hand, and only when someone took the pile
    assert out.splitlines()[-1].endswith("; OK")


# the live referee and replay over gRPC


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    with oracle_stub() as connected:
        yield connected


def test_the_live_referee_follows_a_cutthroat_game_through_side_formation_to_its_end(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    record = json_format.Parse(RECORD.read_text(), record_pb2.GameRecord())

    def requests() -> Iterator[oracle_pb2.RefereeGameRequest]:
        yield oracle_pb2.RefereeGameRequest(
            start=oracle_pb2.RefereeStart(
                rule_set=oracle_pb2.RuleSetRef(id="cutthroat-3p"), first_dealer=record.first_dealer, full_state=True
            )
        )
        for hand in record.hands:
            yield oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=hand.seed))
            yield from (oracle_pb2.RefereeGameRequest(action=action) for action in hand.actions)

    responses = list(stub.RefereeGame(requests(), timeout=60))
    assert not [r.error for r in responses if r.error]
    dealt = [r for r, q in zip(responses, requests(), strict=True) if q.WhichOneof("kind") == "deal"]
    assert all(len(r.state.seats) == 3 and len(r.state.sides) == 3 and not r.state.side_of_seat for r in dealt)
    formed = 0
    for response in responses:
        for event in response.verdict.events:
            if event.WhichOneof("kind") != "sides_formed":
                continue
            formed += 1
            lone, partners = event.sides_formed.lone_seat, list(event.sides_formed.partners)
            assert sorted([lone, *partners]) == [0, 1, 2]
            # the state after the take: the lone seat is its own side, the partners play on the lower one's entry
            assert response.state.side_of_seat[lone] == lone
            assert [response.state.side_of_seat[p] for p in partners] == [partners[0], partners[0]]
            assert list(event.sides_formed.melds) == list(response.state.sides[partners[0]].melds)
    assert formed == 4  # hands 0 to 3 saw the pile taken; in hand 4 nobody took it (each scored alone)
    assert list(responses[-1].totals) == list(record.hands[-1].claimed_totals)
    assert responses[-1].game_over and responses[-1].winner == record.claimed_winner


def test_replay_over_grpc_reports_three_scores_a_hand_and_the_sides_formed(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    record = json_format.Parse(RECORD.read_text(), record_pb2.GameRecord())
    report = stub.ReplayGame(oracle_pb2.ReplayGameRequest(record=record), timeout=RPC_TIMEOUT).report
    assert report.ok
    assert [len(hand.scores) for hand in report.hands] == [3] * len(record.hands)
    assert [list(hand.totals) for hand in report.hands] == [list(hand.claimed_totals) for hand in record.hands]
    formed = [e.sides_formed for a in report.actions for e in a.events if e.WhichOneof("kind") == "sides_formed"]
    assert [(f.lone_seat, list(f.partners)) for f in formed] == [(1, [0, 2]), (1, [0, 2]), (1, [0, 2]), (0, [1, 2])]


def test_rules_list_says_the_cutthroat_sides_of_one_last_until_the_pile_is_taken() -> None:
    code, out = run("rules", "list")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    for rule_set in CUTTHROAT:
        assert " 3 players, sides of 1 until one takes the pile  " in lines[rule_set]
    assert " 2 players, sides of 1  " in lines["classic-2p"]


def test_adjudicate_over_grpc_answers_a_four_player_state_under_a_cutthroat_rule_set_as_not_applicable(
    stub: oracle_pb2_grpc.OracleServiceStub,
) -> None:
    notation = json_format.Parse(
        (ROOT / "examples" / "black-three-under-top-4p.json").read_text(), notation_pb2.GameStateNotation()
    )
    state = state_to_proto(state_from_notation(notation, default_rule_book().get("classic-4p").rules))
    request = oracle_pb2.AdjudicateRequest(
        state=state,
        action=action_to_proto(parse_action("draw")),
        rule_sets=[oracle_pb2.RuleSetRef(id=i) for i in ("classic-4p", "cutthroat-3p")],
    )
    answer = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    classic, cutthroat = answer.verdicts
    assert classic.applicable and classic.verdict.legal
    assert not cutthroat.applicable
    assert "state.seats: has 4 seats; rule set 'cutthroat-3p' has 3" in cutthroat.not_applicable


def test_check_from_the_takers_view_shows_the_sides_formed_and_adjudicate_skips_four_player_books() -> None:
    view = str(DATA / "before-first-take-3p-view.json")  # seat 1's view of BEFORE_TAKE
    action = "take-pile with 8C 8D meld 7C 7D 7S 2D"
    code, out = run("check", "--rules", "cutthroat-3p", "--view", view, "--action", action)
    assert code == 0
    assert "  sides formed: seat 1 alone; seats 0 and 2 partners; melds 4D 4S 4S, QC QD QH QH" in out.splitlines()
    code, out = run("adjudicate", "--view", view, "--action", action, "--rules", "cutthroat-3p,classic-4p")
    assert code == 0
    assert "  classic-4p: the view does not fit: view.seats: has 3 entries; rule set 'classic-4p' has 4 seats" in out


def test_going_out_before_anyone_took_the_pile_makes_the_goer_the_lone_hand_before_the_hand_ends() -> None:
    # seat 1 goes out; seats 0 and 2 each hold queens: their melds go together, the queens into one mixed canasta
    code, out = run("check", "--state", str(DATA / "going-out-before-any-take-3p.json"), "--action", "discard 5C")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == (
        "  sides formed: seat 1 alone; seats 0 and 2 partners;"
        " melds 4D 4S 4S 4C 4H, QC QD QH QD QH QS JK, AC AH AH JK JK AS AC"
    )
    # partners: 335 melded, two mixed canastas 600, less both hands (55 and 45); seat 2 adds its red three
    assert lines[2] == (
        "  hand over (went_out): side 0 (seat 0, partner of seat 2) 835, side 1 (seat 1 alone) 1100,"
        " side 2 (seat 2, partner of seat 0) 935"
    )


def test_replay_all_of_a_record_missing_the_take_that_formed_the_sides_reports_each_illegal_action(
    tmp_path: Path,
) -> None:
    record = json.loads(RECORD.read_text())
    taken = record["hands"][0]["actions"].pop(5)  # seat 1's first take of the pile, which made it the lone hand
    assert "takePile" in taken
    path = tmp_path / "no-take.json"
    path.write_text(json.dumps(record))
    code, out = run("replay", "--all", str(path))
    assert code == 1
    lines = out.splitlines()
    assert "ILLEGAL: hand 0, action 5 (seat 1): meld TD TH TH TS" in lines
    assert any(
        line.startswith("ILLEGAL: hand 0, action 6 (seat 1): ") and line.endswith("[uncertain]") for line in lines
    )
    assert lines[-1].endswith("; FAILED")
