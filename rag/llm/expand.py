"""A topic no abstract's words state, put by the LLM into the words abstracts use.

With ``llm.expand_topics`` (off by default: its effect is not measured with a real model), a
"which papers" topic none of whose content words any abstract of the collection uses ("voice
cloning" in a collection that says "speech synthesis") is rewritten by the LLM in at most
:data:`EXPANSION_WORDS` words (one short reply, cached per topic by the caller) before retrieval;
the answer says so. A rewrite whose words the abstracts do not use either is not used.
"""

from __future__ import annotations

import logging

from prompts import load_prompt
from rag.llm.clients import ChatLLM, LLMError, Message, strip_reasoning
from rag.types import LLMUsage

__all__ = ["EXPANSION_WORDS", "expand_topic"]

log = logging.getLogger(__name__)

EXPANSION_WORDS = 8
"""Most words of a rewritten topic (the prompt asks for no more; longer replies are cut): a topic
of the dev set has two to six."""


def expand_topic(llm: ChatLLM, topic: str, *, temperature: float = 0.0) -> tuple[str, LLMUsage]:
    """``topic`` in the words abstracts use, as the LLM writes it (first line, at most
    :data:`EXPANSION_WORDS` words), and what the reply cost; ``""`` when the LLM fails."""
    messages: list[Message] = [{"role": "user", "content": load_prompt("expand").format(topic=topic)}]
    usage = LLMUsage(prompt_tokens=llm.count_tokens(messages[0]["content"]))
    try:
        reply = "".join(llm.stream(messages, max_tokens=4 * EXPANSION_WORDS, temperature=temperature, usage=usage))
    except LLMError as exc:
        log.warning("expanding the topic %r failed: %s", topic, exc)
        return "", usage
    lines = [line.strip() for line in strip_reasoning(reply).splitlines() if line.strip()]
    words = lines[0].removeprefix("Words:").strip(" .\"'“”").split() if lines else []
    return " ".join(words[:EXPANSION_WORDS]), usage
