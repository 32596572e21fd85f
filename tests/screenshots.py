"""Saves screenshots of the dispute desk's main views into docs/screenshots/ (.venv/bin/python tests/screenshots.py).

Not a test: it starts a live server and headless Chromium (tests/browser_harness.py), lays out an example dispute,
asks each kind of question, opens a shipped game record, and writes one PNG per view.
"""

from __future__ import annotations

import sys
import tempfile
from importlib import resources
from pathlib import Path

from browser_harness import DESK, PHONE, Desk, ask, choose_books, running_desk, serving_with_token
from playwright.sync_api import Page

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
RECORD = resources.files("oracle.conformance.data") / "records" / "classic-4p" / "game-0.json"


def lay_out(page: Page) -> None:
    """The black three under the top card (examples/black-three-under-top-4p.json), seen by seat 0."""
    choose_books(page, "classic-4p", "bicycle-4p", "natural-pair-only-4p")
    page.fill("#hand-0", "9D JK 4C 5D 6H 7S 8C QH")
    page.check("#melded-before")
    page.fill("#melds-0", "KH KH KD")
    page.fill("#total-0", "1200")
    page.fill("#melds-1", "AH AH AC")
    page.fill("#red-1", "3D")
    page.fill("#total-1", "900")
    page.fill("#pile", "6S 3S 9H")
    page.fill("#upcards", "1")
    page.fill("#action", "take-pile with 9D JK")


def shoot(page: Page, name: str, selector: str | None = None) -> None:
    path = OUT / f"{name}.png"
    page.evaluate("() => window.scrollTo(0, 0)")
    if selector:
        page.locator(selector).screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    print(path.relative_to(OUT.parent.parent))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with running_desk() as desk:
        desktop(desk)
        turn(desk)
        access(desk)
        phone(desk)


def desktop(desk: Desk) -> None:
    page = desk.page(DESK)
    lay_out(page)
    page.focus("#hand-0")
    page.add_style_tag(content=".picker-box { position: static; }")  # sticky follows the scroll of the capture
    shoot(page, "position", "section.panel:has(#position-title)")
    ask(page)
    shoot(page, "ruling", "section.panel:has(#answer-title)")
    page.check("input[name=kind][value=moves]")
    page.fill("#max-actions", "30")
    ask(page)
    shoot(page, "moves", "section.panel:has(#answer-title)")
    page.check("input[name=kind][value=score]")
    page.fill("#melds-1", "AH AH AC AD AS JK 2C")  # a mixed canasta: side 1 may go out
    page.fill("#hand-2", "4H 5H")
    page.select_option("#went-out", "1:WENT_OUT_NORMAL")
    ask(page)
    shoot(page, "score", "section.panel:has(#answer-title)")
    page.check("input[name=kind][value=check]")
    page.fill("#hand-0", "9D JK 4C 5D 6H 7S 8C QH KH")
    page.fill("#melds-1", "AH AH AC AD AS JK 2C 3H")
    ask(page)
    shoot(page, "impossible", "#view-dispute")
    page.close()
    page = desk.page(DESK)
    page.click("#tab-record")
    with resources.as_file(RECORD) as path:
        page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#step-list li")
    for _ in range(5):
        page.click("#step-next")
    shoot(page, "record")
    page.close()


def turn(desk: Desk) -> None:
    """The turn's fields in play: the partner said yes, and a discard that keeps cards is refused."""
    page = desk.page(DESK)
    choose_books(page, "classic-4p")
    page.select_option("#phase", "PHASE_PLAY")
    page.check("#melded-before")
    page.fill("#hand-0", "9H 9D 9S 5C")
    page.fill("#melds-0", "KC KC KD KD KH KH KS")
    page.select_option("#partner-answer", "PARTNER_ANSWER_YES")
    page.fill("#action", "discard 5C")
    ask(page)
    shoot(page, "turn", "fieldset.turn")
    shoot(page, "partner-yes", "section.panel:has(#answer-title)")
    page.close()


def access(desk: Desk) -> None:
    """A server started with a token: the page says where the token goes."""
    with tempfile.TemporaryDirectory() as folder, serving_with_token("example-token", Path(folder)) as url:
        page = Desk(url, desk.browser).page(DESK)
        page.fill("#token", "wrong-token")
        page.click("#token-use")
        page.wait_for_function("() => document.querySelector('#token-result').textContent.includes('wrong')")
        box = page.locator("#status").bounding_box()
        assert box is not None
        path = OUT / "access.png"
        page.screenshot(
            path=str(path), clip={"x": 0, "y": 0, "width": DESK["width"], "height": box["y"] + box["height"] + 8}
        )
        print(path.relative_to(OUT.parent.parent))
        page.close()


def phone(desk: Desk) -> None:
    page = desk.page(PHONE)
    lay_out(page)
    ask(page)
    page.locator("#answer").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "phone.png"))
    print((OUT / "phone.png").relative_to(OUT.parent.parent))
    page.close()


if __name__ == "__main__":
    sys.exit(main())
