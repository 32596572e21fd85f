"""Modern American Canasta (american-4p) on the dispute desk in headless Chromium: the rule book offered, a position
with no upcard and an empty pile, black threes laid among a side's threes, the side's questions this hand sent with
the position, the new score items in words, and an american-4p game record."""

from __future__ import annotations

from pathlib import Path

from browser_harness import ask, book_label, choose_books, offered_books, page_state, shared_valid_state
from browser_harness import checked_page as checked_page  # the `page` fixture
from browser_harness import module_desk as module_desk  # the `desk` fixture
from google.protobuf import json_format
from playwright.sync_api import Page

from oracle.api.v1 import cards_pb2, oracle_pb2, record_pb2
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

ROOT = Path(__file__).resolve().parent.parent
API = OracleApi(default_rule_book())
BLACK_THREES = (cards_pb2.CARD_3C, cards_pb2.CARD_3S)


def test_the_picker_offers_american_4p_with_four_seats(page: Page) -> None:
    listed = offered_books(page)
    assert "american-4p" in listed
    assert "(4 seats; from classic-4p)" in book_label(page, "american-4p")
    choose_books(page, "american-4p")
    assert page.locator(".hands .cards-input").count() == 4
    assert page.locator("fieldset.side").count() == 2


def test_no_upcard_and_an_empty_pile_a_seven_may_not_go_onto_it(page: Page) -> None:
    # tests/data/american/empty-pile-4p.json: the first player has drawn; nothing was turned up at the deal
    choose_books(page, "american-4p", "classic-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-0", "7H 2S 8C 9D JD QS 4H 5C 5D TC TD KD 6C 4D")
    page.fill("#upcards", "0")
    assert "The pile is empty." in page.inner_text("#pile-status")
    page.fill("#action", "discard 7H")
    ask(page)
    american = page.locator("#answer .column[data-rule-set=american-4p]")
    assert american.locator(".badge").inner_text() == "Illegal"
    assert "DISCARD_RESTRICTED" in american.inner_text()
    assert page.locator("#answer .column[data-rule-set=classic-4p] .badge").inner_text() == "Legal"
    page.fill("#action", "discard 8C")
    ask(page)
    assert american.locator(".badge").inner_text() == "Legal"
    state = shared_valid_state(page, "american-4p")
    assert state["discardPile"] == [] and state["pileUpcards"] == 0
    # the hidden hands are dealt no three: under american-4p every three is laid at once
    hidden = [card for seat in state["seats"][1:] for card in seat["hand"]]  # type: ignore[index]
    assert len(hidden) == 39 and not {"CARD_3C", "CARD_3S", "CARD_3D", "CARD_3H"} & set(hidden)


def test_the_sides_questions_go_with_the_position_and_the_limit_binds(page: Page) -> None:
    # tests/data/american/play-4p.json: side 0 has asked once this hand
    choose_books(page, "american-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.check("#melded-before")
    page.fill("#hand-0", "7H 2S KS 5D 5H 5S 6D 8C TC")
    page.fill("#melds-0", "7C 7D 7S, KC KD KH, QC QD QH QS QC")
    page.fill("#melds-1", "5C 5D 5H 5S 2C JK 5C")
    page.fill("#red-0", "3H 3S")  # a black three laid among the side's threes
    page.fill("#red-1", "3D")
    page.fill("#pile", "4C 8S")
    page.fill("#asks-0", "1")
    page.fill("#action", "ask")
    ask(page)
    column = page.locator("#answer .column[data-rule-set=american-4p]")
    assert column.locator(".badge").inner_text() == "Illegal"
    assert "ASK_LIMIT_REACHED" in column.inner_text()
    page.click("#share")
    state = page_state(page, "american-4p")
    assert state["sides"][0]["asks"] == 1  # type: ignore[index]
    assert state["sides"][0]["redThrees"] == ["CARD_3H", "CARD_3S"]  # type: ignore[index]
    page.fill("#asks-0", "")
    ask(page)
    assert column.locator(".badge").inner_text() == "Legal"


def test_the_new_score_items_show_in_words(page: Page) -> None:
    # tests/data/american/went-out-4p-table.json: seat 0 went out with a wild-card canasta
    choose_books(page, "american-4p")
    page.fill("#melds-0", "KC KD KH KS KC KD KH, JK JK 2C 2D 2H 2S 2C")
    page.fill("#red-0", "3H 3D 3C")
    page.fill("#hand-2", "8C 8D")
    page.fill("#melds-1", "7C 7D 7S, QC QD QH QS")
    page.fill("#red-1", "3S")
    page.fill("#hand-1", "AH AH AD 9C")
    page.fill("#hand-3", "TC TD")
    page.select_option("#went-out", "0:WENT_OUT_NORMAL")
    page.check("input[name=kind][value=score]")
    ask(page)
    assert page.locator("#answer table.score td.total").all_inner_texts() == ["3250", "-4245"]
    rows = page.locator("#answer table.score th[scope=row]").all_inner_texts()
    for words in ("Wild-card canastas", "Unfinished melds", "Ranks held in hand", "Threes by count"):
        assert any(row.startswith(words) for row in rows), (words, rows)
    assert not any(row.startswith("SCORE_ITEM_") for row in rows)


def test_an_american_game_record_shows_the_items_and_the_black_threes_laid(page: Page) -> None:
    record = ROOT / "conformance" / "records" / "american-4p" / "game-0.json"
    report = API.ReplayGame(
        oracle_pb2.ReplayGameRequest(record=json_format.Parse(record.read_text(), record_pb2.GameRecord()))
    ).report
    first = [a for a in report.actions if a.hand == 0]
    black = next(
        i
        for i, a in enumerate(first)
        if any(e.WhichOneof("kind") == "red_three_laid" and e.red_three_laid.card in BLACK_THREES for e in a.events)
    )
    page.click("#tab-record")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#step-list li")
    assert "every claimed score matches" in page.locator("#record-result .msg.ok").inner_text()
    scores = page.inner_text("table.hand-scores")
    for words in ("Threes by count", "Unfinished melds", "Ranks held in hand"):
        assert words in scores, words
    assert "SCORE_ITEM_" not in scores
    page.locator("#step-list li").nth(black).click()
    assert "laid the black three" in page.inner_text("#step-detail")
