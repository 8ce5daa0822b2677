"""A question in another language, translated into English by the LLM before it is read.

The abstracts are English and the bundled embedder matches English text, so without an LLM a
question in another language can only find the names it states (:data:`rag.route.refusal.NOT_ENGLISH`).
With one, the question is translated first (one short reply, :data:`TRANSLATION_TOKENS` at most)
and the English text is read and answered; the answer says it was translated and quotes the
abstracts as they are. A translation that fails, or that still does not read as English, leaves
the question as it was.
"""

from __future__ import annotations

import logging
import threading

from prompts import load_prompt
from rag.llm.clients import ChatLLM, LLMError, Message, strip_reasoning
from rag.types import LLMUsage

__all__ = ["TRANSLATION_TOKENS", "translate"]

log = logging.getLogger(__name__)

TRANSLATION_TOKENS = 96
"""Most tokens of a translation: a question of the longest kind asked of the dev set (about 40
words) in English, with room to spare; a reply cut there is not used when it does not read as
English."""


def translate(
    llm: ChatLLM, question: str, *, temperature: float = 0.0, stop: threading.Event | None = None
) -> tuple[str, LLMUsage]:
    """The English text of ``question`` as the LLM writes it (first line, quotes stripped), and
    what the reply cost; ``""`` when the LLM fails or writes nothing.

    Args:
        llm: The LLM.
        question: The question as typed (any language).
        temperature: Sampling temperature (``llm.temperature``).
        stop: When set, the reply ends.
    """
    messages: list[Message] = [{"role": "user", "content": load_prompt("translate").format(question=question)}]
    usage = LLMUsage(prompt_tokens=llm.count_tokens(messages[0]["content"]))
    try:
        reply = "".join(
            llm.stream(messages, max_tokens=TRANSLATION_TOKENS, temperature=temperature, stop=stop, usage=usage)
        )
    except LLMError as exc:
        log.warning("translating the question failed: %s", exc)
        return "", usage
    lines = [line.strip() for line in strip_reasoning(reply).splitlines() if line.strip()]
    text = lines[0].removeprefix("English:").strip().strip("\"“”'") if lines else ""
    return text, usage
