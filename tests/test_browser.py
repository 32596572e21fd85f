"""The dispute desk in a real browser: headless Chromium against a live server's HTTP port, as a player uses it."""

from __future__ import annotations

import base64
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from browser_harness import PHONE, Desk, ask, choose_books, serving_with_token
from browser_harness import checked_page as checked_page  # the `page` fixture
from browser_harness import module_desk as module_desk  # the `desk` fixture
from google.protobuf import json_format
from playwright.sync_api import Page

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.model.cards import RANK_NAMES, RANKS
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi

RECORD = resources.files("oracle.conformance.data") / "records" / "classic-2p" / "game-0.json"
API = OracleApi(default_rule_book())

HOUSE_RULE = """
id: "our-club"
extends: "classic-2p"
title: "Our club: at most two wild cards in a meld"
melds { max_wilds: 2 }
rules {
  field: "melds.max_wilds"
  text: "A meld holds at most two wild cards at our club."
  cite { source: "2P-RULES" section: "Melds" }
}
"""


def card_labels(page: Page, selector: str) -> list[str]:
    """The names of the cards drawn inside an element (what a screen reader says)."""
    return [c.get_attribute("aria-label") or "" for c in page.query_selector_all(f"{selector} .card")]


def card_name(token: str) -> str:
    """The name the page gives a card of the notation, e.g. 'king of hearts'."""
    if token == "JK":
        return "joker"
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[token[1]]
    return f"{RANK_NAMES[RANKS.index(token[0])]} of {suit}"


def lay_out_4p_melding_position(page: Page) -> None:
    """Seat 0 has drawn and holds two kings and three twos; its side has melded aces."""
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-0", "KH KD 2C 2D 2S 5C 6C 7C")
    page.fill("#melds-0", "AH AD AS")
    page.fill("#pile", "7D 8C")
    page.fill("#upcards", "1")


def test_a_typed_position_gets_a_ruling_with_its_explanation_and_citation(page: Page) -> None:
    page.fill("#hand-0", "9H 9D JK KS 5C")
    page.fill("#pile", "7C 4S 9S")
    page.fill("#upcards", "1")
    assert card_labels(page, "#hand-0-preview") == ["nine of hearts", "nine of diamonds", "joker", "king of spades",
                                                     "five of clubs"]  # fmt: skip
    page.fill("#action", "take-pile with 9H 9D")
    ask(page)
    column = page.locator("#answer .column[data-rule-set=classic-2p]")
    assert column.locator(".badge").inner_text() == "Illegal"
    assert "INITIAL_MELD_BELOW_MINIMUM" in column.inner_text()
    assert "initial_meld.thresholds" in column.inner_text()
    assert column.locator(".cites li").count() >= 1  # where the rule is written
    assert "needs 50" in column.locator(".explanation").inner_text()


def test_the_card_picker_adds_to_the_field_that_had_the_focus_and_removes_the_last_card(page: Page) -> None:
    page.focus("#red-1")
    page.click("#picker button[data-card='3H']")
    page.click("#picker button[data-card='3D']")
    assert page.input_value("#red-1") == "3H 3D"
    assert card_labels(page, "#red-1-preview") == ["three of hearts", "three of diamonds"]
    page.focus("#hand-0")
    for card in ("KH", "KD", "JK"):
        page.click(f"#picker button[data-card='{card}']")
    page.click("#picker-undo")
    assert page.input_value("#hand-0") == "KH KD"
    assert page.input_value("#red-1") == "3H 3D"
    assert "hearts" in (page.locator("#hand-0-preview .card.red").first.get_attribute("aria-label") or "")
    # from the keyboard: one picker button in the tab order, the arrow keys move, Enter adds
    assert page.locator("#picker button[tabindex='0']").count() == 1
    page.focus("#picker button[tabindex='0']")
    page.keyboard.press("ArrowDown")  # from 2C to 3C, a row of four suits below
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.input_value("#hand-0") == "KH KD 3D"


def test_two_rule_books_side_by_side_name_the_field_that_decides(page: Page) -> None:
    choose_books(page, "classic-4p", "quickref-4p")
    lay_out_4p_melding_position(page)
    page.fill("#action", "meld KH KD 2C 2D 2S")
    ask(page)
    classic = page.locator("#answer .column[data-rule-set=classic-4p]")
    quickref = page.locator("#answer .column[data-rule-set=quickref-4p]")
    assert classic.locator(".badge").inner_text() == "Legal"
    assert quickref.locator(".badge").inner_text() == "Illegal"
    assert "MELD_WILDS_OUTNUMBER_NATURALS" in quickref.inner_text()
    row = page.locator(".deciding tbody tr")
    assert row.count() == 1
    assert row.locator("th").inner_text() == "melds.wild_ratio"
    assert row.locator("td").all_inner_texts() == ["WILD_RATIO_ANY", "WILD_RATIO_AT_MOST_NATURALS"]


def test_what_the_player_did_this_turn_changes_the_ruling(page: Page) -> None:
    choose_books(page, "classic-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-0", "KH KD 2C 5C 6C 7C")
    page.fill("#melds-0", "AH AD AS, QH QD QS")
    page.fill("#action", "ask")
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Legal"
    page.fill("#new-melds", "1")  # the queens were laid this turn
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Illegal"
    assert "ASK_AFTER_MELDING" in page.locator("#answer .column").inner_text()
    page.fill("#new-melds", "3")
    ask(page)
    assert "your side has 2 melds, so you cannot have laid 3" in page.locator("#answer .msg.error").inner_text()
    assert page.get_attribute("#new-melds", "aria-invalid") == "true"


def test_the_partners_yes_obliges_a_player_who_can_go_out_and_the_link_carries_it(desk: Desk, page: Page) -> None:
    # conformance case out.partner-said-yes-must-go-out-4p: the nines can go down and the 5C be discarded last
    choose_books(page, "classic-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.check("#melded-before")
    page.fill("#hand-0", "9H 9D 9S 5C")
    page.fill("#melds-0", "KC KC KD KD KH KH KS")
    page.fill("#action", "discard 5C")
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Legal"  # not asked: keeping cards is allowed
    page.select_option("#partner-answer", "PARTNER_ANSWER_YES")
    ask(page)
    column = page.locator("#answer .column[data-rule-set=classic-4p]")
    assert column.locator(".badge").inner_text() == "Illegal"
    assert "MUST_GO_OUT_PARTNER_SAID_YES" in column.inner_text()
    page.click("#share")
    link = page.input_value("#share-url")
    assert shared_position(link)["answer"] == "PARTNER_ANSWER_YES"
    other = desk.page(fragment=link[link.index("#") :])
    try:
        other.wait_for_selector("#answer .column")
        assert other.input_value("#partner-answer") == "PARTNER_ANSWER_YES"
        assert other.is_checked("#melded-before")
        assert "MUST_GO_OUT_PARTNER_SAID_YES" in other.locator("#answer .column").inner_text()
    finally:
        other.close()
    page.select_option("#partner-answer", "PARTNER_ANSWER_NO")
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Legal"  # told no: keeping cards is right
    page.select_option("#phase", "PHASE_AWAIT_ANSWER")  # asked, the answer awaited: no answer to choose
    assert page.locator("#partner-answer").count() == 0
    assert "Awaited" in page.inner_text("#partner-answer-awaited")
    page.fill("#action", "answer yes")
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Legal"


def test_a_canasta_made_this_turn_or_an_addition_to_an_older_meld_decides_a_concealed_going_out(
    desk: Desk, page: Page
) -> None:
    choose_books(page, "classic-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-0", "5C")
    page.fill("#melds-0", "AH AD AS, KH KD KS KC KH KD 2C")  # the partner's aces; the kings laid this turn
    page.fill("#new-melds", "1")
    page.fill("#action", "discard 5C")
    ask(page)
    normal = page.locator("#answer .column .events").inner_text()
    assert "The hand ended (went out):" in normal
    page.check("#made-canasta")
    ask(page)
    concealed = page.locator("#answer .column .events").inner_text()
    assert "The hand ended (went out concealed):" in concealed
    going_out = default_rule_book().get("classic-4p").rules.going_out
    assert side_total(concealed, 0) - side_total(normal, 0) == going_out.concealed_bonus - going_out.bonus
    page.check("#added-existing")  # the player also added to the partner's aces: not concealed
    ask(page)
    assert "The hand ended (went out):" in page.locator("#answer .column .events").inner_text()
    page.click("#share")
    link = page.input_value("#share-url")
    shared = shared_position(link)
    assert (shared["madeCanasta"], shared["addedToExisting"], shared["newMelds"]) == (True, True, "1")
    other = desk.page(fragment=link[link.index("#") :])
    try:
        other.wait_for_selector("#answer .column")
        assert other.is_checked("#made-canasta") and other.is_checked("#added-existing")
        assert "(went out):" in other.locator("#answer .column .events").inner_text()
    finally:
        other.close()
    page.fill("#new-melds", "2")  # nothing was on the table before the turn: nothing to add to
    ask(page)
    assert "This position is impossible" in page.locator("#answer .msg.error").inner_text()
    assert page.get_attribute("#added-existing", "aria-invalid") == "true"
    assert "melds_before_turn is 0" in page.locator("#added-existing ~ .field-problem").inner_text()


def side_total(events: str, side: int) -> int:
    """A side's score in the text of a "hand ended" event."""
    match = re.search(rf"side {side}: (-?\d+)", events)
    assert match, events
    return int(match.group(1))


def shared_position(link: str) -> dict[str, Any]:
    """The position a shared link carries (base64url JSON after '#s=')."""
    encoded = link[link.index("#s=") + 3 :]
    shared: dict[str, Any] = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    return shared["pos"]


def test_the_legal_moves_are_those_the_service_lists_and_one_can_be_checked(page: Page) -> None:
    choose_books(page, "classic-4p")
    lay_out_4p_melding_position(page)
    page.check("input[name=kind][value=moves]")
    page.fill("#max-actions", "100")
    ask(page)
    shown = page.locator("#answer ol.moves li").all_inner_texts()
    request = oracle_pb2.ListLegalActionsRequest(max_actions=100)
    request.rule_set.id = "classic-4p"
    json_format.ParseDict(page_state(page, "classic-4p"), request.state)
    expected = API.ListLegalActions(request)
    assert len(shown) == len(expected.actions) > 0
    assert f"{expected.counts.total} legal moves" in page.locator("#answer").inner_text()
    page.locator("#answer ol.moves li button").first.click()
    assert page.is_checked("input[name=kind][value=check]")
    ask(page)
    assert page.locator("#answer .column .badge").inner_text() == "Legal"


def page_state(page: Page, rule_set_id: str) -> dict[str, object]:
    """The GameState the page sends for its position (built by the page's own module)."""
    resolved = json_format.MessageToDict(
        API.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id=rule_set_id))).rule_set
    )
    state: dict[str, object] = page.evaluate(
        """async (ruleSet) => {
            const { buildState } = await import('./position.js');
            const link = new URLSearchParams(location.hash.slice(1)).get('s');
            return buildState(JSON.parse(atob(link.replace(/-/g, '+').replace(/_/g, '/'))).pos, ruleSet);
        }""",
        resolved,
    )
    return state


def test_the_score_and_the_minimum_meld_are_the_services_answers(page: Page) -> None:
    choose_books(page, "classic-4p")
    lay_out_4p_melding_position(page)
    page.fill("#melds-1", "QH QD QS QC JK 2H QH")
    page.fill("#red-1", "3H")
    page.select_option("#went-out", "1:WENT_OUT_NORMAL")
    page.check("input[name=kind][value=score]")
    ask(page)
    totals = page.locator("#answer table.score td.total").all_inner_texts()
    # side 0: aces 60 and the cards left -95; side 1: the mixed canasta, its cards, a red three, going out
    assert totals == ["-35", str(300 + 5 * 10 + 50 + 20 + 100 + 100)]
    assert "Mixed canastas" in page.locator("#answer").inner_text()
    page.fill("#melds-1", "QH QD QS")  # no canasta: side 1 may not have gone out
    ask(page)
    refused = page.locator("#answer .msg.error").inner_text()
    assert "who went out (side 1)" in refused and "going_out.canastas_required" in refused
    assert page.get_attribute("#went-out", "aria-invalid") == "true"
    page.check("input[name=kind][value=minimum]")
    page.fill("#total-0", "1600")
    ask(page)
    request = oracle_pb2.GetMinimumInitialMeldRequest(running_total=1600)
    request.rule_set.id = "classic-4p"
    expected = API.GetMinimumInitialMeld(request)
    assert page.locator("#answer .big").inner_text() == f"{expected.minimum} points"
    assert "the row from 1500" in page.locator("#answer").inner_text()


def test_an_impossible_position_names_what_is_impossible_and_where(page: Page) -> None:
    page.fill("#hand-0", "KH KH KH 5C")
    page.fill("#action", "draw")
    ask(page)
    answer = page.locator("#answer .msg.error")
    assert "This position is impossible" in answer.inner_text()
    assert "seat 0's hand" in answer.inner_text()
    assert "3 copies of" in answer.inner_text()
    assert page.get_attribute("#hand-0", "aria-invalid") == "true"
    assert "3 copies of" in page.locator("#hand-0 ~ .field-problem").inner_text()


def test_bad_notation_is_explained_before_anything_is_asked(page: Page) -> None:
    page.fill("#hand-0", "10H KH")
    assert "ten is T" in page.locator("#hand-0-preview .field-error").inner_text()
    assert page.get_attribute("#hand-0", "aria-invalid") == "true"
    page.fill("#hand-0", "TH KH")
    page.fill("#action", "take the pile")
    page.press("#action", "Enter")  # Enter submits the question
    page.wait_for_selector("#answer .msg.error")
    assert "unknown action 'take'" in page.locator("#answer").inner_text()


def test_a_pasted_house_rule_is_judged_beside_the_rule_book_and_a_broken_one_is_refused(page: Page) -> None:
    page.click("#house-box summary")
    page.fill("#house", HOUSE_RULE)
    page.check("#use-house")
    page.select_option("#phase", "PHASE_PLAY")
    page.fill("#hand-0", "KH KD 2C 2D 2S 5C 6C")  # two cards stay in hand: no canasta yet
    page.fill("#melds-0", "AH AD AS")
    page.fill("#action", "meld KH KD 2C 2D 2S")
    ask(page)
    assert page.locator("#answer .column[data-rule-set=classic-2p] .badge").inner_text() == "Legal"
    house = page.locator("#answer .column[data-rule-set=our-club]")
    assert house.locator(".badge").inner_text() == "Illegal"
    assert "MELD_TOO_MANY_WILDS" in house.inner_text()
    assert "2P-RULES" in house.locator(".cites").inner_text()
    assert page.locator(".deciding tbody th").all_inner_texts() == ["melds.max_wilds"]
    page.fill("#house", HOUSE_RULE.replace("max_wilds: 2", "max_wilds: 2 min_naturals: 9"))
    ask(page)
    assert "rule_set.inline.melds.min_naturals" in page.locator("#house-result").inner_text()
    page.fill("#house", 'id: "x" melds {')
    ask(page)
    assert "'}' is missing" in page.locator("#answer .msg.error").inner_text()


def test_a_shared_link_restores_the_position_and_the_question_and_asks_it(desk: Desk, page: Page) -> None:
    choose_books(page, "classic-4p", "quickref-4p")
    lay_out_4p_melding_position(page)
    page.fill("#action", "meld KH KD 2C 2D 2S")
    ask(page)
    page.click("#share")
    link = page.input_value("#share-url")
    assert "#s=" in link
    other = desk.page(PHONE, fragment=link[link.index("#") :])
    try:
        other.wait_for_selector("#answer .column")
        assert other.input_value("#hand-0") == "KH KD 2C 2D 2S 5C 6C 7C"
        assert other.input_value("#action") == "meld KH KD 2C 2D 2S"
        assert other.is_checked("#book-quickref-4p") and not other.is_checked("#book-classic-2p")
        assert other.locator("#answer .column .badge").all_inner_texts() == ["Legal", "Illegal"]
    finally:
        other.close()


def test_a_damaged_link_or_one_naming_an_unknown_rule_book_says_so(desk: Desk) -> None:
    page = desk.page(fragment="#s=not-base64-json")
    try:
        assert "This link is damaged" in page.locator("#status .msg.error").inner_text()
    finally:
        page.close()
    link = {"v": 1, "books": ["our-secret-rules"], "q": {"kind": "minimum"}}
    encoded = base64.urlsafe_b64encode(json.dumps(link).encode()).decode().rstrip("=")
    page = desk.page(fragment=f"#s={encoded}")
    try:
        assert "does not know: our-secret-rules" in page.locator("#status .msg.error").inner_text()
        page.wait_for_selector("#answer .msg.error")
        assert "Choose at least one rule book" in page.inner_text("#answer")
    finally:
        page.close()


def test_a_game_record_steps_hand_by_hand_with_a_chart_and_each_hands_score(page: Page) -> None:
    record = json_format.Parse(RECORD.read_text(), record_pb2.GameRecord())
    report = API.ReplayGame(oracle_pb2.ReplayGameRequest(record=record)).report
    page.click("#tab-record")
    with resources.as_file(RECORD) as path:
        page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#step-list li")
    assert "every claimed score matches" in page.locator("#record-result .msg.ok").inner_text()
    assert page.locator("svg.chart polyline").count() == len(report.hands[0].totals)
    assert page.locator("table.hand-scores tbody tr").count() == len(report.hands)
    finals = [f"Side {s}: {t}" for s, t in enumerate(report.hands[-1].totals)]
    assert page.locator(".legend .key").all_inner_texts() == finals
    first_hand = [a for a in report.actions if a.hand == 0]
    assert page.locator("#step-list li").count() == len(first_hand)
    page.click("#step-next")
    assert page.inner_text("#step-position") == f"Action 2 of {len(first_hand)}"
    verb, *tokens = first_hand[1].notation.replace(",", " ").split()
    assert page.locator("#step-detail .notation").inner_text().startswith(verb)
    assert card_labels(page, "#step-detail .notation") == [card_name(t) for t in tokens]
    page.focus("#step-list")
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#step-position") == f"Action 3 of {len(first_hand)}"
    page.select_option("#step-hand", "1")
    assert page.inner_text("#step-position").startswith("Action 1 of ")


def test_a_game_record_replayed_under_another_rule_book_lists_each_disagreement(page: Page) -> None:
    request = oracle_pb2.ReplayGameRequest(record=json_format.Parse(RECORD.read_text(), record_pb2.GameRecord()))
    request.rule_set.id = "top-seven-2p"  # only the top seven cards of the pile are taken
    request.judge_all = True
    report = API.ReplayGame(request).report
    assert report.disagreements  # the record was played under classic-2p
    page.click("#tab-record")
    page.check("#record-judge-all")
    page.select_option("#record-rules", "top-seven-2p")
    with resources.as_file(RECORD) as path:
        page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#disagreements-title")
    title = page.inner_text("#disagreements-title")
    assert title == f"Where the record and the referee disagree ({len(report.disagreements)})"
    first = report.first_illegal
    assert f"hand {first.hand + 1}, action {first.index + 1} (seat {first.seat})" in page.inner_text("#record-result")
    assert report.disagreements[0].violations[0].code in page.locator(".disagreements li").first.inner_text()


def test_a_file_that_is_not_a_record_gets_a_clear_message(page: Page, tmp_path: Path) -> None:
    page.click("#tab-record")
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}')
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#record-result .msg.error")
    assert "notes.json is not a game record" in page.locator("#record-result").inner_text()
    broken = tmp_path / "broken.json"
    broken.write_text('{"hands": [{"actions": [{"fly": {}}]}]}')
    page.set_input_files("#record-file", str(broken))
    page.wait_for_function("() => document.querySelector('#record-result').textContent.includes('cannot be replayed')")
    assert "fly" in page.locator("#record-result").inner_text()


UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'radio' && !(el.labels && el.labels.length))
    .map((el) => el.id || el.name)"""


def test_every_control_has_a_label_and_the_page_fits_a_phone(desk: Desk) -> None:
    page = desk.page(PHONE)
    try:
        assert page.evaluate(UNLABELLED) == []
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        page.focus("#hand-0")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.id") == "hand-1"
        choose_books(page, "classic-4p", "bicycle-4p", "natural-pair-only-4p")
        page.fill("#hand-0", "9D JK 4C 5D 6H 7S 8C QH")
        page.fill("#melds-0", "KH KH KD")
        page.fill("#pile", "6S 3S 9H")
        page.fill("#upcards", "1")
        page.fill("#action", "take-pile with 9D JK")
        ask(page)
        assert page.locator(".deciding tbody tr").count() >= 1  # a table of rule books side by side ...
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # ... within the screen
        page.select_option("#phase", "PHASE_PLAY")  # the turn's fields in play, also labelled and within the screen
        assert page.evaluate(UNLABELLED) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.close()


TOKEN = "club-table-7f3a9c"


def test_a_server_with_a_token_answers_the_page_only_with_it_and_no_link_carries_it(desk: Desk, tmp_path: Path) -> None:
    with serving_with_token(TOKEN, tmp_path) as url:  # serve --token-file
        guarded = Desk(url, desk.browser)
        page = guarded.page()
        try:
            refused = page.locator("#status .msg.error").inner_text()
            assert "only answers callers with its access token" in refused and "Server access" in refused
            assert page.get_attribute("#access-box", "open") is not None
            assert page.get_attribute("#token", "type") == "password"
            assert page.get_attribute("#token", "aria-invalid") == "true"
            page.fill("#token", "not-the-token")
            page.click("#token-use")
            page.wait_for_function("() => document.querySelector('#token-result').textContent.includes('wrong')")
            assert page.get_attribute("body", "data-books") is None  # still no rule book listed
            page.fill("#token", TOKEN)
            page.press("#token", "Enter")
            page.wait_for_selector("body[data-books=listed]")
            assert "accepts this token" in page.inner_text("#token-result")
            assert page.locator("#status .msg").count() == 0
            page.fill("#hand-0", "9H 9D JK KS 5C")
            page.fill("#action", "draw")
            ask(page)
            assert page.locator("#answer .column .badge").inner_text() == "Legal"
            page.click("#share")
            link = page.input_value("#share-url")
            encoded = link[link.index("#s=") + 3 :]
            assert TOKEN not in link and TOKEN not in page.url
            assert TOKEN not in base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
            assert page.evaluate("() => localStorage.length") == 0  # kept for the tab only (sessionStorage)
            page.reload()
            page.wait_for_selector("body[data-books=listed]")  # the tab still has it
            assert page.input_value("#token") == TOKEN
            assert "a token is set" in page.inner_text("#access-box summary")
            page.click("#access-box summary")
            page.click("#token-forget")
            ask(page)
            assert "only answers callers with its access token" in page.inner_text("#answer .msg.error")
            page.click("#answer .msg.error button")
            assert page.evaluate("() => document.activeElement.id") == "token"
        finally:
            page.close()
        other = guarded.page(fragment=link[link.index("#") :])  # the link, in a browser without the token
        try:
            assert "only answers callers with its access token" in other.inner_text("#status .msg.error")
            other.fill("#token", TOKEN)
            other.click("#token-use")
            other.wait_for_selector("#answer .column")
            assert other.input_value("#hand-0") == "9H 9D JK KS 5C"
            assert other.locator("#answer .column .badge").inner_text() == "Legal"
        finally:
            other.close()
