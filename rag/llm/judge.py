"""The LLM's verdict on a borderline member of a list: is this paper about the topic?

Calibrated membership (:mod:`rag.route.membership`) decides which papers answer a "which papers"
question; a paper whose probability is within :data:`BORDERLINE_BAND` of the threshold may, with
``llm.judge_borderline`` > 0, be judged by the LLM against its best sentence for the topic (one
short reply per paper, at most that many per answer, cached by paper and topic). The verdict only
moves a paper across the threshold; it never adds a paper membership did not score.
"""

from __future__ import annotations

import logging
import threading

from prompts import load_prompt
from rag.citations import format_marker
from rag.llm.clients import ChatLLM, LLMError, Message, strip_reasoning
from rag.llm.prose import REFUSAL
from rag.types import LLMUsage

__all__ = ["BORDERLINE_BAND", "VERDICT_TOKENS", "judge_member"]

log = logging.getLogger(__name__)

BORDERLINE_BAND = 0.1
"""How far (in membership probability) from ``retrieval.set_membership`` (0.35) a paper is
borderline: 0.25-0.45. Set by hand, not fitted, and its effect not measured with a real model;
``llm.judge_borderline`` is off by default until it is (the stand-in measures only the calls and
their cost, ``tests/test_llm_kinds.py``)."""

VERDICT_TOKENS = 4
"""Most tokens of a verdict ("yes", "no", with room for a stray period)."""


def judge_member(
    llm: ChatLLM,
    topic: str,
    label: str,
    sentence: str,
    *,
    temperature: float = 0.0,
    stop: threading.Event | None = None,
) -> tuple[bool | None, LLMUsage]:
    """Whether the paper ``label`` is about ``topic``, by the LLM, from ``sentence`` (its best for
    the topic); ``None`` when the LLM fails or answers neither yes nor no. Also what the reply cost."""
    system = load_prompt("system").format(refusal=REFUSAL)
    user = load_prompt("judge").format(sources=f"{format_marker(1)} {label}: {sentence}", topic=topic)
    messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    usage = LLMUsage(prompt_tokens=sum(llm.count_tokens(m["content"]) for m in messages))
    try:
        reply = "".join(
            llm.stream(messages, max_tokens=VERDICT_TOKENS, temperature=temperature, stop=stop, usage=usage)
        )
    except LLMError as exc:
        log.warning("judging %s failed: %s", label, exc)
        return None, usage
    word = strip_reasoning(reply).strip().lower().strip(".!\"' ")
    verdict = True if word.startswith("yes") else False if word.startswith("no") else None
    return verdict, usage
