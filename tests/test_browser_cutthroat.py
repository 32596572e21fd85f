"""Cutthroat Canasta on the dispute desk in headless Chromium: three seats, who plays alone, the SidesFormed event,
three score columns and a cutthroat game record, as a player uses them."""

from __future__ import annotations

from pathlib import Path

from browser_harness import ask, book_label, choose_books, offered_books, page_state, shared_valid_state
from browser_harness import checked_page as checked_page  # the `page` fixture
from browser_harness import module_desk as module_desk  # the `desk` fixture
from google.protobuf import json_format
from playwright.sync_api import Page

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "conformance" / "records" / "cutthroat-3p" / "game-0.json"
CUTTHROAT = ["cutthroat-3p", "cutthroat-one-canasta-3p", "cutthroat-play-on-3p"]
API = OracleApi(default_rule_book())


def lay_out_partners_formed(page: Page) -> None:
    """tests/data/cutthroat/partners-formed-3p.json: seat 1 took the pile first; seat 2 (a partner) has drawn."""
    choose_books(page, *CUTTHROAT)
    page.select_option("#lone", "1")
    page.select_option("#seat-to-move", "2")
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-2", "3C 3S 5C 6D 8S 9C 9H QD KD")
    page.check("#melded-before")
    page.fill("#melds-0", "4D 4S 4S 4C 4H, QC QD QH QH, AC AH AH JK JK AS AC")
    page.fill("#melds-1", "8S 8C 8D 8C 8H, 7C 7D 7S 2D, TD TH TH TS, JC JH 2C")
    page.fill("#red-2", "3D")
    page.fill("#pile", "5D 9S")


def test_the_picker_offers_the_cutthroat_rule_books_and_lays_out_three_seats(page: Page) -> None:
    listed = offered_books(page)
    assert set(CUTTHROAT) <= set(listed)
    assert "(3 seats; from classic-4p)" in book_label(page, "cutthroat-3p")
    choose_books(page, "cutthroat-3p")
    assert "3 seats in 3 sides" in page.inner_text("#table-of")
    assert "plays alone" in page.inner_text("#table-of")
    assert page.locator(".hands .cards-input").count() == 3
    assert page.locator("fieldset.side").count() == 3
    # before anyone takes the pile every seat plays alone: no partner, no partner's answer
    assert page.input_value("#lone") == ""
    assert [page.inner_text(f"label[for=hand-{s}]") for s in (1, 2)] == [
        "Seat 1 (opponent): hand",
        "Seat 2 (opponent): hand",
    ]
    page.select_option("#phase", "PHASE_PLAY")
    assert page.locator("#partner-answer").count() == 0
    # back to a four-player book: the formation goes with the table
    choose_books(page, "classic-4p")
    assert page.locator("#lone").count() == 0


def test_the_partners_are_shown_once_sides_formed_and_a_partner_adds_to_the_partnerships_meld(page: Page) -> None:
    lay_out_partners_formed(page)
    assert page.inner_text("label[for=hand-0]") == "Seat 0 (your partner): hand"
    assert page.inner_text("label[for=hand-1]") == "Seat 1 (opponent, playing alone): hand"
    legends = page.locator("fieldset.side legend").all_inner_texts()
    assert legends[0].startswith("Side 0: seats 0 and 2, partners (yours)")
    assert legends[1] == "Side 1: seat 1 alone (opponents)"
    assert legends[2].startswith("Side 2: seat 2's red threes and score (yours; the partners' melds are on side 0)")
    page.fill("#action", "meld QD")
    ask(page)
    for rule_set in CUTTHROAT:
        assert page.locator(f"#answer .column[data-rule-set={rule_set}] .badge").inner_text() == "Legal"
    state = shared_valid_state(page, "cutthroat-3p")
    assert state["sideOfSeat"] == [0, 1, 0]
    page.fill("#action", "ask")  # nobody has a partner to ask in the cutthroat rule books
    ask(page)
    assert "ASK_NOT_ALLOWED" in page.locator("#answer .column[data-rule-set=cutthroat-3p]").inner_text()


def test_the_first_take_of_the_pile_shows_the_sides_it_forms(page: Page) -> None:
    # tests/data/cutthroat/before-first-take-3p.json: seat 2 has melded; seat 1 takes the pile with a pair of eights
    choose_books(page, "cutthroat-3p")
    page.select_option("#seat-to-move", "1")
    page.fill("#hand-1", "2D 3S 6C 7C 7D 7S 8C 8D 9S TD TH TS AS")
    page.fill("#melds-2", "4D 4S 4S, QC QD QH QH")
    page.fill("#red-2", "3D")
    page.fill("#pile", "JC TH 8S")
    page.fill("#upcards", "1")
    page.fill("#action", "take-pile with 8C 8D meld 7C 7D 7S 2D")
    ask(page)
    column = page.locator("#answer .column[data-rule-set=cutthroat-3p]")
    assert column.locator(".badge").inner_text() == "Legal"
    events = column.locator(".events li").all_inner_texts()
    formed = [e for e in events if e.startswith("Sides formed")]
    assert len(formed) == 1
    assert formed[0].startswith("Sides formed: seat 1 plays alone; seats 0 and 2 are partners; their melds together:")
    assert events.index(formed[0]) == 1 + next(i for i, e in enumerate(events) if e.startswith("Seat 1 took the pile"))


def test_the_score_has_a_column_per_seat_naming_the_lone_hand_and_the_partners(page: Page) -> None:
    # tests/data/cutthroat/partners-went-out-3p-table.json: seat 2 went out for the partnership
    choose_books(page, "cutthroat-3p")
    page.select_option("#lone", "1")
    page.fill(
        "#melds-0",
        "4D 4S 4S 4C 4H 4H 4D, QC QD QH QH QD, AC AH AH JK JK AS AC AD AD, JD JS 2S JS JD JC, KC KS 2D 2H KD,"
        " 5C 5H JK 5D 5D, 6C 6C 6D 6H 6S, 9C 9H 9S 9S, 3C 3S 3S",
    )
    page.fill("#melds-1", "8S 8C 8D 8C 8H 8D, 7C 7D 7S 2D 7C, TD TH TH TS, JC JH 2C")
    page.fill("#red-2", "3D")
    page.fill("#hand-0", "7S TD")
    page.fill("#hand-1", "5S 9C 9D KH")
    page.select_option("#went-out", "2:WENT_OUT_NORMAL")
    page.check("input[name=kind][value=score]")
    ask(page)
    captions = page.locator("#answer table.score caption").all_inner_texts()
    assert captions == [
        "Side 0 (seat 0, partner of seat 2)",
        "Side 1 (seat 1 alone)",
        "Side 2 (seat 2, partner of seat 0)",
    ]
    assert page.locator("#answer table.score td.total").all_inner_texts() == ["1500", "145", "1600"]
    # the three tables stand side by side on a desk screen
    tops = page.locator("#answer table.score").evaluate_all(
        "(ts) => ts.map((t) => Math.round(t.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops


def test_a_cutthroat_game_record_shows_three_sides_and_who_played_each_hand_alone(page: Page) -> None:
    record = json_format.Parse(RECORD.read_text(), record_pb2.GameRecord())
    report = API.ReplayGame(oracle_pb2.ReplayGameRequest(record=record)).report
    alone = {
        a.hand: e.sides_formed.lone_seat
        for a in report.actions
        for e in a.events
        if e.WhichOneof("kind") == "sides_formed"
    }
    page.click("#tab-record")
    page.set_input_files("#record-file", str(RECORD))
    page.wait_for_selector("#step-list li")
    assert "every claimed score matches" in page.locator("#record-result .msg.ok").inner_text()
    assert page.locator("svg.chart polyline").count() == 3
    assert page.locator("table.hand-scores thead th").all_inner_texts() == ["Hand", "Side 0", "Side 1", "Side 2"]
    rows = page.locator("table.hand-scores tbody tr th").all_inner_texts()
    shown = [row.splitlines()[-1] if "alone" in row else None for row in rows]
    assert shown == [f"seat {alone[h]} alone" if h in alone else None for h in range(len(rows))]
    assert None in shown and len(alone) > 1  # the record has hands with and without sides formed
    first = [a for a in report.actions if a.hand == 0]
    at = next(i for i, a in enumerate(first) if any(e.WhichOneof("kind") == "sides_formed" for e in a.events))
    page.locator("#step-list li").nth(at).click()
    assert "Sides formed: seat 1 plays alone; seats 0 and 2 are partners" in page.inner_text("#step-detail")


def test_a_partners_legal_moves_are_the_services_and_his_minimum_follows_his_own_score(page: Page) -> None:
    lay_out_partners_formed(page)
    choose_books(page, "cutthroat-3p")
    page.check("input[name=kind][value=moves]")
    page.fill("#max-actions", "200")
    ask(page)
    page.click("#share")
    request = oracle_pb2.ListLegalActionsRequest(max_actions=200, rule_set=oracle_pb2.RuleSetRef(id="cutthroat-3p"))
    json_format.ParseDict(page_state(page, "cutthroat-3p"), request.state)
    expected = API.ListLegalActions(request)
    shown = page.locator("#answer ol.moves li").all_inner_texts()
    assert len(shown) == len(expected.actions) > 0
    assert "meld Q\u2666" in shown  # onto the partnership's queens, on side 0 (drawn as rank and suit symbol)
    page.check("input[name=kind][value=minimum]")
    page.fill("#total-0", "-200")  # the partner's score is his own: it does not set seat 2's minimum
    page.fill("#total-2", "1600")
    ask(page)
    minimum = oracle_pb2.GetMinimumInitialMeldRequest(running_total=1600, rule_set=request.rule_set)
    assert page.locator("#answer .big").inner_text() == f"{API.GetMinimumInitialMeld(minimum).minimum} points"


def test_the_discard_after_the_last_stock_card_ends_the_hand_only_under_the_book_that_says_so(page: Page) -> None:
    # tests/data/cutthroat/stock-empty-3p.json: the lone seat 1 discards with the stock empty
    choose_books(page, "cutthroat-3p", "cutthroat-play-on-3p")
    page.select_option("#lone", "1")
    page.select_option("#seat-to-move", "1")
    page.select_option("#phase", "PHASE_PLAY")
    page.check("#melded-before")
    page.fill("#hand-0", "5D 6S 7C 9S TD JD JS")
    page.fill("#hand-1", "5C 6C")
    page.fill("#hand-2", "3C 3S 6D 9C 9H QD KD")
    page.fill("#melds-0", "4D 4S 4S 4C 4H, QC QD QH QH, AC AH AH JK JK AS AC")
    page.fill("#melds-1", "8S 8C 8D 8C 8H 8D 8H, 7C 7D 7S 2D, TD TH TH TS, JC JH 2C")
    page.fill("#red-0", "3H 3H")
    page.fill("#red-1", "3D")
    page.fill("#red-2", "3D")
    page.fill(
        "#pile",
        "4C 2C 2D 2H 2H 2S 2S 3C 3S 4D 4H 5C 5H 5H 5S 5S 6C 6D 6H 6H 6S 7D 7H 7H 7S 8S 9C 9D 9D 9H TC TC TS JC JD JH"
        " JS QC QS QS KC KC KD KH KH KS KS AD AD AS JK JK 5D 9S",
    )
    page.fill("#upcards", "1")
    page.fill("#stock-size", "0")
    page.fill("#action", "discard 6C")
    ask(page)
    ends = page.locator("#answer .column[data-rule-set=cutthroat-3p] .events li").all_inner_texts()
    assert ends == [
        "The hand ended (stock exhausted): side 0 (seat 0, partner of seat 2): 655, side 1 (seat 1 alone): 780,"
        " side 2 (seat 2, partner of seat 0): 555"
    ]
    playing_on = page.locator("#answer .column[data-rule-set=cutthroat-play-on-3p]")
    assert playing_on.locator(".badge").inner_text() == "Legal"
    assert "The hand ended" not in playing_on.inner_text()
