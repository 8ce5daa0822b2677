"""The app in a real headless Chromium (Playwright): ask, read the answer and the evidence panel.

Needs ``/usr/bin/chromium`` (``apt-get install -y chromium``); skipped with that reason
otherwise. Screenshots go to the test's ``tmp_path`` and are copied to ``tests/output/``.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import served

from rag.pipeline import Components
from ui.chat import SEARCHING

CHROMIUM = Path("/usr/bin/chromium")

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is absent (apt-get install -y chromium)"
    ),
]
"""The marks of every test that drives a real Chromium (the other browser test files reuse them)."""
pytestmark = BROWSER_MARKS

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


# --- a page that fits: both viewports, one page ------------------------------------------------

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
DEXMACHINA = "000_6b930c46f6674b66#19"

# The page's layout at this moment: horizontal overflow, boxes inside the chat that scroll, where the
# last answer's first line is, and the quotations of that answer.
LAYOUT_JS = """() => {
  const chat = document.getElementById('pc-chat');
  const bots = chat.querySelectorAll('[data-testid="bot"]');
  const bot = bots[bots.length - 1];
  const walk = document.createTreeWalker(bot.querySelector('.message-content') || bot, NodeFilter.SHOW_TEXT);
  let line = null;
  while (!line && walk.nextNode()) {  // the first line of text of the answer
    if (!walk.currentNode.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(walk.currentNode);
    line = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0) || null;
  }
  const inner = [...chat.querySelectorAll('*')].filter((e) => {
    const s = getComputedStyle(e);
    return ['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  });
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    innerHeight: window.innerHeight, innerScrollers: inner.length,
    line: line ? {top: line.top, bottom: line.bottom, left: line.left, right: line.right} : null,
    quotes: [...bot.innerText.matchAll(/“([^“”]+)”/g)].map((m) => m[1]),
  };
}"""

# The last answer's first line is in the viewport (the page scrolls to it when an answer arrives).
FIRST_LINE_IN_VIEW = f"""() => {{
  const bots = document.querySelectorAll('#pc-chat [data-testid="bot"]');
  const bot = bots[bots.length - 1];
  if (!bot || bot.innerText.includes({json.dumps(SEARCHING)})) return false;
  const r = bot.getBoundingClientRect();
  return r.top >= 0 && r.top + 30 <= window.innerHeight;
}}"""


def ask_and_wait(page, question: str) -> None:
    """Send ``question`` and wait until its answer is shown with its first line in view."""
    before = page.locator('#pc-chat [data-testid="user"]').count()
    submit(page, question)
    page.wait_for_function(f"document.querySelectorAll('#pc-chat [data-testid=\"user\"]').length > {before}")
    page.wait_for_function(FIRST_LINE_IN_VIEW)


def check_fits(page, tmp_path: Path, name: str) -> Path:
    """The checks of a page that fits, then its screenshot (viewport), inspected too.

    No horizontal overflow of the page; no box inside the chat scrolls; the last answer's first line
    is in the viewport, and the screenshot shows text there; no quotation is shown twice (nor one
    inside another: a lead's clause and its whole sentence).
    """
    from PIL import Image

    layout = page.evaluate(LAYOUT_JS)
    assert layout["scrollWidth"] <= layout["innerWidth"], layout  # the page never scrolls sideways
    assert layout["innerScrollers"] == 0, layout  # the chat grows: nothing to scroll inside it
    line = layout["line"]
    assert line and line["top"] >= 0 and line["bottom"] <= layout["innerHeight"], layout
    quotes = layout["quotes"]
    assert quotes and len(set(quotes)) == len(quotes), quotes
    assert not [(a, b) for a in quotes for b in quotes if a != b and a.strip("…") in b], quotes
    shot = tmp_path / name
    page.screenshot(path=str(shot))
    OUTPUT_DIR.mkdir(exist_ok=True)
    shutil.copy(shot, OUTPUT_DIR / name)
    with Image.open(shot) as im:
        assert im.size == (layout["innerWidth"], layout["innerHeight"])
        box = (int(line["left"]), int(line["top"]), int(line["right"]), int(line["bottom"]))
        dark = sum(1 for px in im.convert("L").crop(box).getdata() if px < 128)
    assert dark > 50, (box, dark)  # the first line's text is in the picture, not a blank area
    return shot


def test_the_page_fits_its_answers_on_a_desktop_and_a_phone(browser, url, tmp_path: Path, extractive, capsys):
    """A comparison, then a question about a paper whose abstract holds LaTeX, at 1280×800 and then
    390×844 on one page: the chat grows and the page scrolls to each answer's first line; a table
    scrolls sideways in its own block with readable columns; quotations are shown once; the panel
    highlights only what the text quotes above the table (a cell's click highlights its own
    sentences); "Copy as CSV / Markdown" copy the table; ``\\url{...}`` is a link in chat and panel."""
    from rag.route.conversation import Conversation
    from ui.exports import comparison_csv

    papers = extractive.retriever.papers
    context = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(url)
        page.wait_for_selector("#pc-question textarea")

        # -- 1280×800: a comparison --------------------------------------------------------
        ask_and_wait(page, "compare DANCE and APM")
        page.wait_for_selector(f'#pc-evidence section#src-2[data-paper-id="{APM}"]')
        desktop = check_fits(page, tmp_path, "paperchat-fits-1280x800.png")
        block = page.locator("#pc-chat .pc-table").last
        assert block.evaluate("e => getComputedStyle(e).overflowX") == "auto"  # scrolls in its own block
        cells = block.locator("td:not(:first-child)")
        widths = cells.evaluate_all("tds => tds.map(td => td.getBoundingClientRect().width)")
        assert min(widths) >= 200, widths  # readable columns, not a few characters wide
        bot = page.locator('#pc-chat [data-testid="bot"]').last
        assert "quoted above" in bot.inner_text()  # the approach row's sentences are the lead's

        # The panel highlights what the text quotes above the table; the other cells' sentences are
        # tagged with their rows, not highlighted.
        dance = page.locator("#src-1")
        marked = dance.locator("mark").all_inner_texts()
        plain = dance.locator(".pc-plain").count()
        assert len(marked) == 1 and "we propose DANCE" in marked[0] and plain >= 3, (marked, plain)
        labels = dance.locator(".pc-span[data-label]").evaluate_all("els => els.map(e => e.dataset.label)")
        assert "Problem" in labels and any("Key results" in x for x in labels), labels
        shown = sum(len(t) for t in marked) / len(papers[DANCE].abstract)
        assert shown < 0.15, shown  # the highlight picks out a sentence, not half the abstract

        # A click on a cell highlights exactly its sentences.
        cell = page.locator("#pc-chat tr").filter(has_text="Key results").locator("td").nth(2)
        href = cell.locator('a[href^="#src-2-s"]').get_attribute("href")
        spans = [(int(a), int(b)) for a, b in re.findall(r"-s(\d+)-(\d+)", href)]
        cell.click(position={"x": 4, "y": 4})
        page.wait_for_selector("#src-2 .pc-cell-hit")
        hit = page.locator("#src-2 .pc-cell-hit").evaluate_all("els => els.map(e => e.dataset.span)")
        assert sorted(tuple(int(x) for x in h.split("-")) for h in hit) == sorted(spans)

        # Copy as CSV / Markdown: the table's CSV (ui.exports.comparison_csv) and Markdown.
        turn = Conversation(extractive.pipeline).ask("compare DANCE and APM")
        page.locator('#pc-chat a[href="#pc-copy-csv-1"]').click()
        page.wait_for_function("window.__paperchatCopied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.replace("\r\n", "\n") == comparison_csv(turn.table, papers).replace("\r\n", "\n")
        page.locator('#pc-chat a[href="#pc-copy-md-1"]').click()
        page.wait_for_function("window.__paperchatCopied && window.__paperchatCopied.startsWith('| |')")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert "| **Problem** |" in copied and "## References" in copied and DANCE in copied

        # -- 390×844: the same page on a phone, a question about DexMachina ---------------------
        page.set_viewport_size(PHONE)
        ask_and_wait(page, "Where can I find DexMachina's videos?")
        page.wait_for_selector(f'#pc-evidence section.pc-src[data-paper-id="{DEXMACHINA}"]')
        link = "https://project-dexmachina.github.io"
        assert page.locator(f'#pc-chat [data-testid="bot"] a[href="{link}"]').count() >= 1  # a link, not \url{...}
        assert page.locator(f'#pc-evidence .pc-abstract a[href="{link}"]').count() == 1
        assert "\\url" not in page.locator("#pc-chat").inner_text() + page.locator("#pc-evidence").inner_text()
        table = page.locator("#pc-chat .pc-table").first  # the comparison, now wider than the chat
        assert table.evaluate("e => e.scrollWidth > e.clientWidth")  # it scrolls in its own block
        phone = check_fits(page, tmp_path, "paperchat-fits-390x844.png")
    finally:
        context.close()
    with capsys.disabled():  # pytest keeps its last three tmp dirs; tests/output/ (ignored by git) keeps a copy
        for size, shot in (("1280x800", desktop), ("390x844", phone)):
            print(f"\nscreenshot {size}: {shot} (copy: {OUTPUT_DIR / shot.name})", end="")
        print()
