"""Hand and Foot on the dispute desk in headless Chromium: the four hand-and-foot rule books offered, each seat's
foot shown by its count only (face down, or taken up), the hand number and the game's fixed number of hands, a
player melding out his hand and going on from the foot, one discarding his last hand card (the foot from the next
turn), the minimum by hand number, going out from the foot, and the position the page builds accepted by the
oracle."""

from __future__ import annotations

import functools
from pathlib import Path

import browser_harness
from browser_harness import ask, book_label, choose_books, offered_books, shared_valid_state
from browser_harness import checked_page as checked_page  # the `page` fixture
from browser_harness import module_desk as module_desk  # the `desk` fixture
from playwright.sync_api import Page

from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

ROOT = Path(__file__).resolve().parent.parent
API = OracleApi(default_rule_book())
BOOKS = ("hand-and-foot-4p", "hand-and-foot-13-4p", "hand-and-foot-red-threes-laid-4p", "hand-and-foot-one-each-4p")
BOOKS_MELDED = "KC KC KD KD KH KH KS, JC JC JD JD JH JH JS, QC QC QD QD QH 2C 2D, TC TC TD TD TH JK 2H, 9C 9D 9H"


def position(
    page: Page, hand: str, melds: str, *, phase: str = "PHASE_PLAY", books: tuple[str, ...] = BOOKS[:1]
) -> None:
    """Seat 0 to move under `books`, holding `hand`; side 0 has `melds` (melded before when there are any)."""
    choose_books(page, *books)
    page.select_option("#phase", phase)
    if melds:
        page.check("#melded-before")
    page.fill("#hand-0", hand)
    page.fill("#melds-0", melds)
    page.fill("#pile", "5S")


#: Ask about an action; the book's badge and its column's text (hand-and-foot-4p's unless `book` is given).
verdict = functools.partial(browser_harness.verdict, book="hand-and-foot-4p")


def test_the_four_hand_and_foot_books_are_offered_like_any_other(page: Page) -> None:
    listed = offered_books(page)
    assert set(BOOKS) <= set(listed)
    assert "(4 seats; from hand-and-foot-4p)" in book_label(page, "hand-and-foot-one-each-4p")
    choose_books(page, "hand-and-foot-4p")
    table = page.inner_text("#table-of")
    assert "a foot of 11 cards, face down until taken up" in table and "A game is 4 hands." in table
    assert page.locator(".hands .cards-input").count() == 4


def test_each_foot_is_shown_by_its_count_face_down_and_the_hand_number_of_the_game(page: Page) -> None:
    choose_books(page, "hand-and-foot-4p")
    for seat in range(4):
        assert page.input_value(f"#foot-{seat}") == "down"
        shown = page.locator(f"#foot-{seat}-state")
        assert shown.locator(".foot-count").inner_text() == "11" and "face down" in shown.inner_text()
        assert shown.locator(".card.back").count() == 3 and shown.locator(".card:not(.back)").count() == 0
    assert page.inner_text("#hand-of").startswith("Hand 1 of 4")
    page.fill("#hand-number", "3")
    assert page.inner_text("#hand-of").startswith("Hand 3 of 4")
    page.select_option("#foot-2", "up")
    assert "In the foot" in page.inner_text("#foot-2-state")
    page.fill("#hand-0", "9S 9S 2C")
    state = shared_valid_state(page, "hand-and-foot-4p")
    assert [len(seat.get("foot", [])) for seat in state["seats"]] == [11, 11, 0, 11]  # type: ignore[attr-defined]
    assert state["handNumber"] == 3
    choose_books(page, "hand-and-foot-13-4p")
    assert page.locator("#foot-0-state .foot-count").inner_text() == "13"
    choose_books(page, "classic-4p")
    assert page.locator("#foot-0").count() == 0 and page.locator("#hand-number").count() == 0


def test_melding_out_the_hand_goes_on_from_the_foot(page: Page) -> None:
    position(page, "9S 9S 2C", "9C 9D 9H")
    badge, text = verdict(page, "meld 9S 9S 2C")
    assert badge == "Legal"
    assert "Seat 0 took up the foot (11 cards): plays on from it this turn" in text
    shared_valid_state(page, "hand-and-foot-4p")


def test_discarding_the_last_hand_card_takes_up_the_foot_for_the_next_turn(page: Page) -> None:
    position(page, "KS", "9C 9D 9H")
    badge, text = verdict(page, "discard KS")
    assert badge == "Legal"
    assert "Seat 0 took up the foot (11 cards): plays it from the next turn" in text


def test_the_minimum_goes_by_the_hand_number(page: Page) -> None:
    position(page, "KH KD KS AH AD AS QH QD QS 4S", "")
    page.fill("#hand-number", "4")
    badge, text = verdict(page, "meld KH KD KS, AH AD AS, QH QD QS")
    assert badge == "Illegal" and "INITIAL_MELD_BELOW_MINIMUM" in text and "hand 4 of the game" in text
    page.fill("#hand-number", "1")
    assert verdict(page, "meld KH KD KS, AH AD AS, QH QD QS")[0] == "Legal"
    page.fill("#hand-number", "2")
    page.check("input[name=kind][value=minimum]")
    ask(page)
    column = page.locator("#answer .column[data-rule-set=hand-and-foot-4p]")
    assert column.locator(".big").inner_text() == "90 points"
    assert "in hand 2 of the game (initial_meld.minimum_by_hand: 50, 90, 120, 150)" in column.inner_text()


def every_foot_taken_up(page: Page) -> None:
    """Every seat in its foot: a position each of the four books holds (feet of 11 or 13 cards alike)."""
    for seat in range(4):
        page.select_option(f"#foot-{seat}", "up")


def test_going_out_from_the_foot_needs_the_partners_yes_and_the_books(page: Page) -> None:
    position(page, "9S", BOOKS_MELDED, books=BOOKS)
    every_foot_taken_up(page)
    badge, text = verdict(page, "discard 9S")
    assert badge == "Illegal" and "GO_OUT_WITHOUT_ASKING" in text
    page.select_option("#partner-answer", "PARTNER_ANSWER_YES")
    badge, text = verdict(page, "discard 9S")
    assert badge == "Legal" and "The hand ended (went out)" in text
    for book in BOOKS:
        assert page.locator(f"#answer .column[data-rule-set={book}] .badge").inner_text() == "Legal", book


def test_the_13_card_book_does_not_fit_feet_of_11(page: Page) -> None:
    position(page, "9S 9S 2C", "9C 9D 9H", books=("hand-and-foot-4p", "hand-and-foot-13-4p"))
    # the table is laid out for the first book ticked (hand-and-foot-13-4p): the page deals feet of 13 cards
    assert page.locator("#foot-0-state .foot-count").inner_text() == "13"
    badge, text = verdict(page, "meld 9S 9S 2C", book="hand-and-foot-13-4p")
    assert badge == "Legal" and "Seat 0 took up the foot (13 cards): plays on from it this turn" in text
    column = page.locator("#answer .column[data-rule-set=hand-and-foot-4p]").inner_text()
    assert "Not applicable" in column and "holds 13 cards; a foot not yet taken up holds the 11 dealt" in column


def test_one_book_of_each_kind_goes_out_only_under_the_one_each_book(page: Page) -> None:
    position(page, "9S", "KC KC KD KD KH KH KS, QC QC QD QD QH 2C 2D, 9C 9D 9H", books=BOOKS)
    every_foot_taken_up(page)
    page.select_option("#partner-answer", "PARTNER_ANSWER_YES")
    badge, text = verdict(page, "discard 9S")
    assert badge == "Illegal" and "GO_OUT_BOOKS_MISSING" in text
    assert page.locator("#answer .column[data-rule-set=hand-and-foot-one-each-4p] .badge").inner_text() == "Legal"
    assert "going_out.natural_canastas_required" in page.locator(".deciding tbody th").all_inner_texts()


def test_a_hand_and_foot_game_record_of_four_hands_replays_on_the_page(page: Page) -> None:
    record = ROOT / "conformance" / "records" / "hand-and-foot-4p" / "game-0.json"
    page.click("#tab-record")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#step-list li")
    assert "every claimed score matches" in page.locator("#record-result .msg.ok").inner_text()
    hands = page.locator("#step-hand option").all_inner_texts()
    assert [text.split(" (")[0] for text in hands] == ["Hand 1", "Hand 2", "Hand 3", "Hand 4"]  # game.hands
