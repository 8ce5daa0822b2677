"""The page's "More like this" in a real headless Chromium: a click under a source asks for the papers
like it in the chat, and the evidence panel then shows them with the paper last. Needs
``/usr/bin/chromium`` (skipped with that reason otherwise), as tests/test_ui_browser.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rag.pipeline import Components
from rag.route.similar import similar_papers
from tests.conftest import served
from tests.test_ui_browser import ARGS, BROWSER_MARKS, CHROMIUM, TIMEOUT_MS, submit

pytestmark = BROWSER_MARKS

DANCE = "000_6b930c46f6674b66#1"


@pytest.fixture(scope="module")
def url(extractive: Components) -> Iterator[str]:
    with served(extractive) as u:
        yield u


def test_more_like_this_under_a_source_lists_the_papers_like_it(url: str, extractive: Components, tmp_path: Path):
    from playwright.sync_api import sync_playwright

    expected = [n.paper.id for n in similar_papers(extractive.pipeline, DANCE).neighbours]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(url)
            page.wait_for_selector("#pc-question textarea")
            submit(page, "What accuracy gain does DANCE report?")
            section = page.wait_for_selector(f'#pc-evidence section.pc-src[data-paper-id="{DANCE}"]')
            section.query_selector("a.pc-more").click()
            page.wait_for_function(
                "(() => { const u = [...document.querySelectorAll('#pc-chat [data-testid=\"user\"]')].pop();"
                " return u && u.innerText.includes('More papers like [1]'); })()"
            )
            page.wait_for_selector(f'#pc-evidence section.pc-src[data-paper-id="{expected[0]}"]')
            shown = page.eval_on_selector_all("#pc-evidence section.pc-src", "els => els.map(e => e.dataset.paperId)")
            assert shown == [*expected, DANCE]
            assert "5 papers like DANCE [1]" in page.locator('#pc-chat [data-testid="bot"]').last.inner_text()
        finally:
            browser.close()
