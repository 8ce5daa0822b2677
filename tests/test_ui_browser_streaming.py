"""A summary and a comparison written by the LLM, streamed into the page and stopped, in a real headless
Chromium (Playwright). The page is served over the real seed pipeline whose LLM is the Ollama adapter
pointed at the protocol-faithful stand-in (``tests/ollama_standin.py``), which writes slowly (one word
every :data:`WORD_DELAY` seconds) only what its sources state (``echo_sources``).

What the browser must show: the answer's text growing while it streams (several different partial texts
before the final one), then the checked prose with its "k of n LLM sentences match" line; and the page's
Stop button ending a reply that would never end on its own (the stand-in sees the client hang up, the
text stops growing, the status says it was stopped) with the page answering the next question.

Needs ``/usr/bin/chromium`` (``apt-get install -y chromium``); skipped with that reason otherwise.
One served page and one browser for the module.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from rag.llm.ollama import OllamaLLM
from rag.llm.prose import STOPPED_NOTE
from rag.pipeline import Components
from tests.conftest import served
from tests.ollama_standin import OllamaStandin, echo_sources
from tests.test_ui_browser import ARGS, BROWSER_MARKS, CHROMIUM, TIMEOUT_MS, submit

pytestmark = BROWSER_MARKS

MODEL = "llama3.2:3b"
WORD_DELAY = 0.04
"""Seconds the stand-in waits before each word: a reply of 40-80 words streams for 2-3 s, long enough
to see it grow at the page's update rate, short enough to keep the module under half a minute."""

QUESTIONS = {"summary": "Summarize DANCE", "compare": "Compare DANCE and APM"}

# Every text the last assistant message of the chat shows, in order (consecutive repeats once), recorded
# in the page as the DOM changes, so no partial text is missed between two polls.
RECORD_JS = """() => {
  window.__pcTexts = [];
  const chat = document.getElementById('pc-chat');
  const note = () => {
    const bots = chat.querySelectorAll('[data-testid="bot"]');
    const text = bots.length ? bots[bots.length - 1].innerText : '';
    const seen = window.__pcTexts;
    if (seen[seen.length - 1] !== text) seen.push(text);
  };
  if (window.__pcObserver) window.__pcObserver.disconnect();
  window.__pcObserver = new MutationObserver(note);
  window.__pcObserver.observe(chat, {childList: true, subtree: true, characterData: true});
}"""

STATUS = "#pc-status"
CURSOR = "▌"


@pytest.fixture(scope="module")
def standin() -> Iterator[OllamaStandin]:
    with OllamaStandin(models=[MODEL], reply=echo_sources, chunk_delay=WORD_DELAY, rates=(23.5, 9.5)) as server:
        yield server


@pytest.fixture(scope="module")
def url(extractive: Components, standin: OllamaStandin) -> Iterator[str]:
    """The page over the real seed pipeline, its default LLM the Ollama adapter at the stand-in."""
    s = extractive.settings
    settings = s.model_copy(update={"llm": s.llm.model_copy(update={"backend": "ollama", "ollama_host": standin.host})})
    llm = OllamaLLM(standin.host, MODEL, timeout=30.0, deadline=60.0)
    components = replace(extractive, settings=settings)
    components = replace(components, pipeline=components.answerer(llm, f"Ollama model {MODEL} (stand-in)"))
    with served(components) as u:
        yield u


@pytest.fixture(scope="module")
def page(url: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            pg = browser.new_page(viewport={"width": 1280, "height": 900})
            pg.set_default_timeout(TIMEOUT_MS)
            pg.goto(url)
            pg.wait_for_selector("#pc-question textarea")
            yield pg
        finally:
            browser.close()


def bots(page) -> int:
    return page.locator('#pc-chat [data-testid="bot"]').count()


def ask_recording(page, question: str) -> int:
    """Start recording the last answer's texts, send ``question``; the number of answers before it."""
    before = bots(page)
    page.evaluate(RECORD_JS)
    submit(page, question)
    page.wait_for_function(f"document.querySelectorAll('#pc-chat [data-testid=\"bot\"]').length > {before}")
    return before


def wait_for_status(page, start: str = "", has: str = "") -> str:
    """Wait until the status line starts with ``start`` and holds ``has`` while no answer is being
    written (the last answer has no cursor, the status is not "Answering"/"Streaming"); its text."""
    page.wait_for_function(
        """([s, start, has, c]) => {
          const t = document.querySelector(s).innerText;
          const bots = document.querySelectorAll('#pc-chat [data-testid="bot"]');
          const last = bots.length ? bots[bots.length - 1].innerText : '';
          return t.startsWith(start) && t.includes(has) && !last.includes(c) && !last.includes('Searching')
            && !/^(Answering|Streaming|Retrieving)/.test(t);
        }""",
        arg=[STATUS, start, has, CURSOR],
    )
    return page.locator(STATUS).inner_text()


def partials(page) -> list[str]:
    """The streamed texts recorded so far (the ones ending with the cursor), in order."""
    return [t.strip() for t in page.evaluate("window.__pcTexts") if t.strip().endswith(CURSOR)]


def words(text: str) -> list[str]:
    return re.sub(r"\[\d+\]", " ", text.replace(CURSOR, "")).split()


@pytest.mark.parametrize("kind", list(QUESTIONS))
def test_a_summary_and_a_comparison_stream_into_the_page_then_show_the_checked_prose(page, standin, kind):
    question = QUESTIONS[kind]
    standin.mode = "normal"
    streams = len(standin.streams)
    before = ask_recording(page, question)
    status = wait_for_status(page, has="sentences match")

    grown = partials(page)
    assert len(set(grown)) >= 2, grown  # at least two different partial texts before the final one
    lengths = [len(words(t)) for t in grown]
    assert lengths == sorted(lengths) and lengths[0] < lengths[-1], lengths  # it grew, never shrank
    assert words(grown[-1])[: len(words(grown[0]))] == words(grown[0])  # by adding to what was shown

    assert bots(page) == before + 1
    final = page.locator('#pc-chat [data-testid="bot"]').last.inner_text()
    assert CURSOR not in final
    prose = words(grown[-1])
    assert " ".join(prose[:8]) in " ".join(words(final))  # the streamed prose is the answer's
    k, n = (int(x) for x in re.search(r"(\d+) of (\d+) LLM sentences match their cited evidence", status).groups())
    assert k == n > 0, status
    assert f"ollama:{MODEL}" in status and "-> extractive" not in status and "tokens/s" in status
    assert page.locator('#pc-chat [data-testid="bot"]').last.locator('a[href="#src-1"]').count() >= 1

    record = standin.streams[-1]
    assert len(standin.streams) == streams + 1 and record.completed and record.sent >= len(lengths)


@pytest.mark.parametrize("kind", list(QUESTIONS))
def test_stop_ends_a_streaming_summary_and_comparison_and_the_page_answers_the_next_question(page, standin, kind):
    question = QUESTIONS[kind]
    standin.mode = "trickle"  # this reply never ends on its own
    try:
        before = ask_recording(page, question)
        page.wait_for_function(
            "(c) => window.__pcTexts.filter((t) => t.trim().endsWith(c)).length >= 2", arg=CURSOR
        )  # streaming, and grown once
        record = standin.streams[-1]
        t0 = time.perf_counter()
        page.locator("#pc-stop").click()
        wait_for_status(page, start="Stopped.")
        took = time.perf_counter() - t0
        assert record.finished.wait(10) and record.client_disconnected and not record.completed
    finally:
        standin.mode = "normal"
    assert took < 10, took
    bot = page.locator('#pc-chat [data-testid="bot"]').last
    shown = bot.inner_text()
    time.sleep(5 * WORD_DELAY)
    assert bot.inner_text() == shown and CURSOR not in shown  # it stopped growing
    assert bots(page) == before + 1 and "DANCE [1]" in shown and "“" in shown  # the quotes it was writing from
    status = page.locator(STATUS).inner_text()
    # What had streamed was checked: its whole supported sentences are kept, else the note says it was
    # stopped (a stop is not the model's failure, and nothing is offered to retry).
    assert STOPPED_NOTE.rstrip(".") in status or re.search(r"(\d+) of \1 LLM sentences match", status), status
    assert "matched its cited evidence" not in status and not page.locator("#pc-retry").is_visible()

    # The page answers the next question (with the LLM's checked prose).
    ask_recording(page, "What accuracy gain does DANCE report?")
    wait_for_status(page, has="sentences match")
    assert "2.33%" in page.locator('#pc-chat [data-testid="bot"]').last.inner_text()
