"""The chat page with hostile input and unfinished replies: a lone surrogate, a 30 KB message,
and an LLM reply that never finished (the page answers from the evidence and offers Retry)."""

from __future__ import annotations

import json

import httpx
import pytest
from conftest import served
from gradio_client import Client

from rag.llm.clients import LLMIncomplete, QueuedLLM
from rag.pipeline import build_pipeline

pytestmark = pytest.mark.slow  # the real embedder and Chroma store

CHAT, PANEL, STATUS, DETAILS = range(4)
DANCE = "000_6b930c46f6674b66#1"


def text_of(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


@pytest.fixture(scope="module")
def page(seed_settings, embedder, seed_store):
    """The page over the seed store; its LLM first cuts a reply short, then finishes the next."""
    cut = LLMIncomplete("the stream ended without Ollama's final message", "DANCE improves accuracy by 2.33% [1]")
    llm = QueuedLLM([cut, "DANCE improves accuracy by 2.33% at an 8% condensation ratio [1]."])
    comp = build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=llm)
    with served(comp) as url:
        yield url, llm


def raw_ask(url: str, message: str) -> tuple[str, list]:
    """POST /ask as a browser does (JSON with ``\\ud800`` escapes, which gradio_client cannot send);
    ``(last event name, its data)``."""
    body = json.dumps({"data": [message, "auto", "llama3.2:3b", 5, "", "", "", True]})  # ASCII, escaped
    posted = httpx.post(f"{url}gradio_api/call/ask", content=body, headers={"Content-Type": "application/json"})
    event, data = "", []
    with httpx.stream("GET", f"{url}gradio_api/call/ask/{posted.json()['event_id']}", timeout=120) as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event in ("complete", "error"):
                data = json.loads(line[5:].strip() or "null")
    return event, data


def test_a_lone_surrogate_and_control_characters_are_answered_not_failed(page):
    url, _ = page
    event, result = raw_ask(url, "What accuracy gain does \ud800DANCE\x00 report?\u202e")
    assert event == "complete", result
    assert result[DETAILS]["question"] == "What accuracy gain does \ufffdDANCE report?"
    assert result[DETAILS]["citations"][0]["paper_id"] == DANCE


def test_a_huge_message_is_trimmed_with_a_notice_and_only_a_preview_is_echoed(page, seed_settings):
    url, _ = page
    c = Client(url, verbose=False, download_files=False)
    huge = "What accuracy gain does DANCE report? " + "padding words " * 2200  # about 30 KB
    result = c.predict(huge, api_name="/ask")
    limit = seed_settings.input.max_question_chars
    assert len(result[DETAILS]["question"]) <= limit
    note = result[DETAILS]["note"]
    # the question is kept, the padding after it dropped (rag.question.phrasing.keep_asking)
    assert result[DETAILS]["question"].startswith("What accuracy gain does DANCE report?")
    assert "kept the 1 sentence that asks" in note and f"{len(huge.strip()):,} characters" in note
    assert result[STATUS].count("kept the 1 sentence that asks") == 1  # the warning once, not again in the note
    echoed = text_of(result[CHAT][-2])  # the user's message as the chat shows it
    # the question kept is echoed (a kept message longer than the preview ends "… (N characters)")
    assert len(echoed) < seed_settings.input.preview_chars + 40 and echoed.startswith("What accuracy gain")


def test_an_incomplete_reply_answers_from_the_evidence_and_retry_asks_again(page):
    url, llm = page
    c = Client(url, verbose=False, download_files=False)
    llm.replies[:] = [
        LLMIncomplete("the stream ended without Ollama's final message", "DANCE improves accuracy by 2.33% [1]"),
        "DANCE improves accuracy by 2.33% at an 8% condensation ratio [1].",
    ]
    first = c.predict("What accuracy gain does DANCE report?", api_name="/ask")
    assert first[DETAILS]["incomplete"] and first[DETAILS]["backend"].endswith("-> extractive")
    assert first[STATUS].count("The LLM's reply was incomplete") == 1 and "Retry" in first[STATUS]
    assert first[DETAILS]["citations"][0]["paper_id"] == DANCE
    again = c.predict(api_name="/retry")
    assert again[DETAILS]["incomplete"] == "" and again[DETAILS]["backend"] == "fake:queued"
    assert again[DETAILS]["question"] == "What accuracy gain does DANCE report?"
    nothing = c.predict(api_name="/retry")
    assert "Nothing to retry" in nothing[STATUS]
