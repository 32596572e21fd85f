"""A live server with its HTTP port and headless Chromium (Debian's package) for the web page's browser tests."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from server_harness import ServerThread

from oracle.ruleset.loader import default_rule_book
from oracle.service.config import ServeConfig

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60.0  #: seconds a `serve` process may take to listen
HTTP_LINE = re.compile(r"^canasta-oracle: HTTP .* on http://127\.0\.0\.1:(\d+)/$", re.MULTILINE)
WAIT_MS = 10_000  #: the longest any step of a browser test waits (an answer, a page load)
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
#: CI runs as root (Chromium's sandbox refuses root) in containers whose /dev/shm may be tiny
CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage"]


def chromium_path() -> str:
    """The Chromium binary: $CHROMIUM, else Debian's `chromium` on PATH (`.ci/run` installs it with apt-get)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("no Chromium: install Debian's package (apt-get install chromium) or set CHROMIUM")
    return path


@dataclass
class Desk:
    """The running server's page URL and a browser; `page()` opens a fresh page that has finished loading."""

    url: str
    browser: Browser
    errors: dict[int, list[str]] = field(default_factory=dict)  #: uncaught script errors, by id() of the page

    def page(self, viewport: dict[str, int] = DESK, fragment: str = "") -> Page:
        page = self.browser.new_page(viewport=viewport)  # type: ignore[arg-type]
        page.set_default_timeout(WAIT_MS)
        errors = self.errors.setdefault(id(page), [])
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(self.url + fragment)
        page.wait_for_selector("body[data-ready=true]")
        assert not errors, errors
        return page

    def script_errors(self, page: Page) -> list[str]:
        """The uncaught errors of the page's scripts so far (none is expected)."""
        return self.errors.get(id(page), [])


@contextlib.contextmanager
def serving_with_token(token: str, folder: Path) -> Iterator[str]:
    """`canasta-oracle serve --token-file F --http-port 0` as a process, F (in `folder`) holding `token`; yields the
    page's URL; the process is ended afterwards."""
    token_file = folder / "token"
    token_file.write_text(token + "\n", encoding="utf-8")
    log = folder / "serve.txt"
    args = [sys.executable, "-m", "oracle.cli.main", "serve", "--port", "0", "--http-port", "0", "--workers", "1"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_ORACLE_")}
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [*args, "--token-file", str(token_file)], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=ROOT, env=env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not (match := HTTP_LINE.search(log.read_text(encoding="utf-8"))):
            assert proc.poll() is None, f"serve exited with {proc.returncode}: {log.read_text(encoding='utf-8')}"
            assert time.monotonic() < deadline, f"serve did not start: {log.read_text(encoding='utf-8')}"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{match.group(1)}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextlib.contextmanager
def running_server() -> Iterator[str]:
    """A server of the shipped rule sets with its HTTP port, in this process; yields the page's URL; closed
    afterwards."""
    config = ServeConfig(host="127.0.0.1", port=0, request_log=False, http_port=0)
    server = ServerThread(default_rule_book(), config)
    try:
        assert server.server.http is not None
        yield server.server.http.url
    finally:
        server.close()


@contextlib.contextmanager
def running_desk() -> Iterator[Desk]:
    """A server of the shipped rule sets with its HTTP port, and one headless Chromium; both closed afterwards."""
    with running_server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield Desk(url, browser)
        finally:
            browser.close()


@pytest.fixture(scope="module", name="desk")
def module_desk() -> Iterator[Desk]:
    """A test module's `desk` fixture: running_desk (import it into the module)."""
    with running_desk() as running:
        yield running


@pytest.fixture(name="page")
def checked_page(desk: Desk) -> Iterator[Page]:
    """A test's `page` fixture: a fresh page of the module's desk whose scripts must not fail (import it into the
    module with module_desk)."""
    page = desk.page()
    yield page
    errors = desk.script_errors(page)
    page.close()
    assert not errors, f"the page's scripts failed: {errors}"


def offered_books(page: Page) -> list[str]:
    """The rule-set ids the page's book picker offers."""
    listed: list[str] = page.locator("#books input[type=checkbox]").evaluate_all("(boxes) => boxes.map((b) => b.value)")
    return listed


def book_label(page: Page, rule_set_id: str) -> str:
    """The text of the book picker's label of `rule_set_id`."""
    return page.locator(f"label[for=book-{rule_set_id}]").inner_text()


def ask(page: Page) -> None:
    """Ask the question on the page and wait for the answer (or an error) to replace the 'asking' message."""
    page.click("#ask")
    page.wait_for_function(
        "() => { const a = document.querySelector('#answer'); "
        "return a && !a.textContent.includes('Asking the referee') && a.textContent.trim() !== ''; }"
    )


def choose_books(page: Page, *ids: str) -> None:
    """Tick exactly these rule books."""
    for box in page.query_selector_all("#books input[type=checkbox]"):
        value = box.get_attribute("value")
        if (value in ids) != box.is_checked():
            box.click()
    page.wait_for_selector(f"body[data-table='{sorted(ids)[0]}']")


def page_state(page: Page, rule_set_id: str) -> dict[str, object]:
    """The GameState the page builds for its position under a rule set (by the page's own module)."""
    from google.protobuf import json_format

    from oracle.api.v1 import oracle_pb2
    from oracle.service.api import OracleApi

    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    resolved = json_format.MessageToDict(
        OracleApi(default_rule_book()).GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref)).rule_set
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


def verdict(page: Page, action: str, book: str) -> tuple[str, str]:
    """Ask about `action`; the badge and the text of `book`'s column of the answer."""
    page.fill("#action", action)
    ask(page)
    column = page.locator(f"#answer .column[data-rule-set={book}]")
    return column.locator(".badge").inner_text(), column.inner_text()


def shared_valid_state(page: Page, rule_set_id: str) -> dict[str, object]:
    """The state the page builds, after sharing its link, asserted consistent by the oracle under `rule_set_id`."""
    from google.protobuf import json_format

    from oracle.api.v1 import oracle_pb2
    from oracle.service.api import OracleApi

    page.click("#share")
    state = page_state(page, rule_set_id)
    request = oracle_pb2.ValidateStateRequest(rule_set=oracle_pb2.RuleSetRef(id=rule_set_id))
    json_format.ParseDict(state, request.state)
    answer = OracleApi(default_rule_book()).ValidateState(request)
    assert answer.valid, answer.problems
    return state
