"""Samba (samba-4p) on the dispute desk in headless Chromium: the rule book offered, a side's melds numbered with its
runs marked, a run, a run extension, a group named onto a meld (`to N`), a combine and a take of the pile onto a
run judged, the position the page builds accepted by the oracle, and a samba-4p game record stepped through."""

from __future__ import annotations

import functools
from pathlib import Path

import browser_harness
from browser_harness import ask, book_label, choose_books, offered_books, page_state, shared_valid_state
from browser_harness import checked_page as checked_page  # the `page` fixture
from browser_harness import module_desk as module_desk  # the `desk` fixture
from google.protobuf import json_format
from playwright.sync_api import Page

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.model.actions import format_action
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_from_proto

ROOT = Path(__file__).resolve().parent.parent
API = OracleApi(default_rule_book())
HAND = "5H 6H 7H 8H 4S 5S 3S JC 2C JK 9C KH KD KS"
#: side 0's melds: 1 jacks, 2 the run 9H TH JH, 3 queens with a two, 4 natural queens
MELDS = "JH JD JS, 9H TH JH, QC QD QS 2D, QH QD QS"


def samba_position(page: Page, phase: str, hand: str, pile: str) -> None:
    choose_books(page, "samba-4p")
    page.select_option("#phase", phase)
    page.check("#melded-before")
    page.fill("#hand-0", hand)
    page.fill("#melds-0", MELDS)
    page.fill("#melds-1", "5C 5D 5H")
    page.fill("#pile", pile)


#: Ask about an action; samba-4p's badge and the column's text.
verdict = functools.partial(browser_harness.verdict, book="samba-4p")


def test_the_picker_offers_samba_4p_with_four_seats(page: Page) -> None:
    listed = offered_books(page)
    assert "samba-4p" in listed
    assert "(4 seats; from classic-4p)" in book_label(page, "samba-4p")
    choose_books(page, "samba-4p")
    assert page.locator(".hands .cards-input").count() == 4
    assert page.locator("fieldset.side").count() == 2


def test_the_melds_are_numbered_and_a_run_is_marked(page: Page) -> None:
    samba_position(page, "PHASE_PLAY", HAND, "4C 8S")
    melds = page.locator("#melds-0-preview .meld")
    assert melds.count() == 4
    assert [melds.nth(i).locator(".meld-number").inner_text() for i in range(4)] == ["1", "2", "3", "4"]
    kinds = [melds.nth(i).locator(".meld-kind").count() for i in range(4)]
    assert kinds == [0, 1, 0, 0]  # only 9H TH JH is a run; QC QD QS 2D (a two among queens) is not
    assert melds.nth(1).locator(".meld-kind").inner_text() == "run"
    assert melds.nth(1).locator(".card").count() == 3
    assert "meld 8H to 2" in page.inner_text("#action-help")  # the action's help shows the numbered forms


def test_a_run_a_run_extension_a_named_meld_and_a_combine_are_judged(page: Page) -> None:
    samba_position(page, "PHASE_PLAY", HAND, "4C 8S")
    assert verdict(page, "meld 5H 6H 7H")[0] == "Legal"  # a run from the hand
    assert verdict(page, "meld 8H to 2")[0] == "Legal"  # the run 9H TH JH extended at its low end
    badge, text = verdict(page, "meld 4S 5H 6H")
    assert badge == "Illegal" and "RUN_MIXED_SUITS" in text
    assert verdict(page, "meld JC to 1")[0] == "Legal"
    badge, text = verdict(page, "meld KH to 1")
    assert badge == "Illegal" and "MELD_TARGET_OTHER_RANK" in text and "a meld of jacks" in text
    assert verdict(page, "meld new KH KD KS")[0] == "Legal"
    badge, text = verdict(page, "combine 3 4")
    assert badge == "Legal"
    assert "Side 0 has a mixed canasta:" in text  # QC QD QS 2D joined by QH QD QS: seven cards
    badge, text = verdict(page, "combine 1 2")
    assert badge == "Illegal" and "COMBINE_DIFFERENT_RANKS" in text
    state = shared_valid_state(page, "samba-4p")
    melds = [[card.removeprefix("CARD_") for card in meld["cards"]] for meld in state["sides"][0]["melds"]]  # type: ignore[index]
    assert melds[1] == ["9H", "TH", "JH"]


def test_a_take_of_the_pile_onto_a_run(page: Page) -> None:
    samba_position(page, "PHASE_DRAW", "5H 6H 7H QD QS 9C 9S 4D", "4C 8H")
    badge, text = verdict(page, "take-pile to 2")
    assert badge == "Legal"
    assert "took the pile:" in text
    badge, text = verdict(page, "take-pile with 7H to 2")
    assert badge == "Illegal" and "PILE_TOP_RUN_WITH_HAND_CARDS" in text
    badge, text = verdict(page, "take-pile with 6H 7H")
    assert badge == "Illegal" and "PILE_TOP_CANNOT_START_RUN" in text


def test_a_samba_game_record_steps_through_takes_onto_named_melds(page: Page) -> None:
    record = ROOT / "conformance" / "records" / "samba-4p" / "game-1.json"
    report = API.ReplayGame(
        oracle_pb2.ReplayGameRequest(record=json_format.Parse(record.read_text(), record_pb2.GameRecord()))
    ).report
    first = [a for a in report.actions if a.hand == 0]
    named = next(i for i, a in enumerate(first) if a.notation.startswith("take-pile") and " to " in a.notation)
    page.click("#tab-record")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#step-list li")
    assert "every claimed score matches" in page.locator("#record-result .msg.ok").inner_text()
    page.locator("#step-list li").nth(named).click()
    detail = page.inner_text("#step-detail")
    assert first[named].notation in detail and "took the pile:" in detail


def test_the_legal_moves_list_the_combine_and_it_checks_legal(page: Page) -> None:
    samba_position(page, "PHASE_PLAY", HAND, "4C 8S")
    page.check("input[name=kind][value=moves]")
    page.fill("#max-actions", "100")
    ask(page)
    request = oracle_pb2.ListLegalActionsRequest(max_actions=100, rule_set=oracle_pb2.RuleSetRef(id="samba-4p"))
    json_format.ParseDict(page_state(page, "samba-4p"), request.state)
    expected = API.ListLegalActions(request)
    shown = page.locator("#answer ol.moves li").all_inner_texts()
    assert len(shown) == len(expected.actions) and expected.counts.combine == 1
    assert "1 combine" in page.locator("#answer").inner_text()
    listed = [format_action(action_from_proto(action)) for action in expected.actions]
    assert "meld 5H 6H 7H" in listed  # a run from the hand
    assert shown[listed.index("combine 3 4")] == "combine 3 4"  # the two melds of queens
    page.locator("#answer ol.moves li button").nth(listed.index("combine 3 4")).click()
    assert page.is_checked("input[name=kind][value=check]") and page.input_value("#action") == "combine 3 4"
    ask(page)
    assert page.locator("#answer .column[data-rule-set=samba-4p] .badge").inner_text() == "Legal"


#: a house rule on samba-4p: two melds of a rank may not be put together
NO_COMBINE = """id: "no-combine"
extends: "samba-4p"
melds { combine_same_rank: false }
rules {
  field: "melds.combine_same_rank"
  text: "Two melds of one rank stay apart."
  cite { source: "BICYCLE-SAMBA" section: "Canastas" }
}
"""


def test_a_house_rule_on_samba_refuses_the_combine_beside_the_rule_book(page: Page) -> None:
    samba_position(page, "PHASE_PLAY", HAND, "4C 8S")
    page.click("#house-box summary")
    page.fill("#house", NO_COMBINE)
    page.check("#use-house")
    badge, _ = verdict(page, "combine 3 4")
    assert badge == "Legal"
    house = page.locator("#answer .column[data-rule-set=no-combine]")
    assert house.locator(".badge").inner_text() == "Illegal"
    assert "COMBINE_NOT_ALLOWED" in house.inner_text()
    assert page.locator(".deciding tbody th").all_inner_texts() == ["melds.combine_same_rank"]
