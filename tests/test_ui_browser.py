"""The app in a real headless Chromium (Playwright): ask, read the answer and the evidence panel.

Needs ``/usr/bin/chromium`` (``apt-get install -y chromium``); skipped with that reason
otherwise. Screenshots go to the test's ``tmp_path`` and are copied to ``tests/output/``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import served

from rag.pipeline import Components

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is absent (apt-get install -y chromium)"
    ),
]

DANCE = "000_6b930c46f6674b66#1"
APM = "000_6b930c46f6674b66#2"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT_DIR = Path(__file__).parent / "output"
TIMEOUT_MS = 90_000


@pytest.fixture(scope="module")
def url(extractive: Components) -> Iterator[str]:
    """The app over the shared real pipeline (conftest, llm=None) on a free port."""
    with served(extractive) as u:
        yield u


@pytest.fixture(scope="module")
def browser(url: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, url: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.goto(url)
    pg.wait_for_selector("#pc-question textarea")
    yield pg
    context.close()


def submit(page, question: str) -> None:
    box = page.locator("#pc-question textarea")
    box.fill(question)
    box.press("Enter")


def save(page, tmp_path: Path, name: str) -> Path:
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    OUTPUT_DIR.mkdir(exist_ok=True)
    shutil.copy(shot, OUTPUT_DIR / name)
    return shot


def test_question_answer_and_evidence_panel(page, tmp_path: Path):
    submit(page, "What accuracy gain does DANCE report?")
    section = page.wait_for_selector(f'#pc-evidence section.pc-src[data-paper-id="{DANCE}"]')
    bot = page.locator('#pc-chat [data-testid="bot"]').last
    bot.wait_for()
    answer = bot.inner_text()
    assert "DANCE" in answer and "2.33%" in answer
    assert "Evidence:" not in answer  # the lead quotes the only evidence sentence: not quoted again
    assert page.locator('#pc-chat a[href="#src-1"]').count() >= 1  # the marker is a link
    marks = section.query_selector_all("mark")
    assert marks and any("2.33%" in m.inner_text() for m in marks)
    assert "000_6b930c46f6674b66#1" in section.inner_text()
    assert "LLM:" in page.locator("#pc-status").inner_text()
    shot = save(page, tmp_path, "paperchat-answer.png")
    assert shot.stat().st_size > 10_000


def test_compare_table_math_dollars_and_marker_click(page, tmp_path: Path):
    submit(page, "compare DANCE and APM")
    page.wait_for_selector(f'#pc-evidence section#src-2[data-paper-id="{APM}"]')
    page.wait_for_selector("#pc-chat table")
    assert page.locator("#pc-chat table tr").count() == 6  # header + 5 rows
    assert "65×" in page.locator("#pc-chat table").last.inner_text()  # 65$\times$ is quoted as 65×

    # Clicking [2] in the chat brings APM's source into view (and flashes it).
    page.locator('#pc-chat a[href="#src-2"]').first.click()
    page.wait_for_function("document.getElementById('src-2').classList.contains('pc-flash')")
    page.wait_for_function(
        "(() => { const r = document.getElementById('src-2').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight; })()"
    )
    save(page, tmp_path, "paperchat-compare.png")

    submit(page, "Does any paper cost $5 per token, or run in $O(n^2)$ time?")
    user = page.locator('#pc-chat [data-testid="user"]').last
    page.wait_for_function(
        "(() => { const u = [...document.querySelectorAll('#pc-chat [data-testid=\"user\"]')].pop();"
        " return u && u.innerText.includes('per token'); })()"
    )
    text = user.inner_text()
    assert "$5 per token" in text  # a price, shown as written
    assert user.locator(".katex").count() == 1  # only O(n^2) is math


def test_a_question_sent_while_one_is_answered_is_answered_next(page, tmp_path: Path):
    """Two questions sent back to back: neither is lost; both are answered, in order."""
    first, second = "What accuracy gain does DANCE report?", "What storage reduction does APM achieve?"
    submit(page, first)
    page.wait_for_selector('#pc-chat [data-testid="user"]')
    submit(page, second)  # sent while the first is being answered
    page.wait_for_function(
        "document.querySelectorAll('#pc-chat [data-testid=\"bot\"]').length >= 2 && "
        f"document.querySelector('#pc-evidence section.pc-src[data-paper-id=\"{APM}\"]') !== null"
    )
    users = page.locator('#pc-chat [data-testid="user"]').all_inner_texts()
    assert [u.strip() for u in users] == [first, second]
    save(page, tmp_path, "two-questions.png")


def test_a_table_cell_click_highlights_its_sentence_in_the_evidence_panel(page, tmp_path: Path, extractive):
    """Ask for a table in chat; click a cell: its sentence (by its span) is the one highlighted."""
    submit(page, "make a table of DANCE, APM and SENDAI with columns benchmark, main result and code")
    page.wait_for_selector(f'#pc-evidence section#src-2[data-paper-id="{APM}"]')
    page.wait_for_selector("#pc-chat table")
    assert page.locator("#pc-chat table tr").count() == 4  # header + DANCE, APM, SENDAI
    links = page.locator('#pc-chat td a[href^="#src-2-s"]')
    href = links.first.get_attribute("href")
    start, end = (int(x) for x in re.findall(r"-s(\d+)-(\d+)", href)[0])  # #src-2-sA-B[-sC-D...]
    sentence = extractive.retriever.papers[APM].abstract[start:end]
    cell = page.locator("#pc-chat td").filter(has=page.locator(f'a[href="{href}"]')).first
    cell.click(position={"x": 4, "y": 4})  # a click anywhere in the cell, not only on its marker
    page.wait_for_selector("#src-2 .pc-span.pc-cell-hit")
    hit = page.locator("#src-2 .pc-span.pc-cell-hit")
    spans = [tuple(int(x) for x in s.split("-")) for s in hit.evaluate_all("els => els.map(e => e.dataset.span)")]
    assert spans and all(a < end and b > start for a, b in spans)  # the highlighted span is the cell's
    assert page.locator("#pc-evidence .pc-cell-hit").count() == hit.count()  # and nothing else is
    shown = " ".join(hit.all_inner_texts())
    assert sentence.split()[2] in shown  # a word of the quoted sentence is in what is highlighted
    page.wait_for_function(
        "(() => { const r = document.querySelector('#src-2 .pc-cell-hit').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; })()"
    )
    assert page.locator("#pc-dl-csv").is_visible()  # the table's CSV and the rows' BibTeX can be downloaded
    save(page, tmp_path, "paperchat-table.png")

    # A long table shows its first rows and folds the rest.
    submit(page, "table of the papers on large language models with columns code")
    page.wait_for_selector("#pc-chat details summary")
    folded = page.locator("#pc-chat details").last
    assert "more rows" in folded.locator("summary").inner_text()
    assert page.locator("#pc-chat table").nth(-2).locator("tr").count() == 11  # header + the first ten
