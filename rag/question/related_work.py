"""Requests for a related-work draft, read from a chat message: the topic the draft is on.

"draft a related-work section on T", "write a related work paragraph about T", "related work for
T", "can you give me a literature review of T": :func:`related_work_topic` returns ``T``. The words
are classes of ``vocabulary/related_work.toml``; :mod:`rag.question.reader` makes the plan of a
draft from the topic (:class:`rag.question.plan.RelatedWorkPlan`).
"""

from __future__ import annotations

import re

from rag.text import content_terms
from rag.vocabulary import beside

__all__ = ["related_work_topic"]

_VOCABULARY = beside(__file__, "related_work")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

# The request opens the message: polite words, a verb ("draft", "write me"), an article or size,
# the section's name and the part of a paper it is, then the preposition (or a colon) that
# introduces the topic; the topic is the rest. "What related work does DANCE cite?" is none.
_REQUEST = re.compile(
    rf"^\W*(?:{_V['draft_lead']}\W+)*(?:{_V['draft_verb']}\s+(?:{_V['to_us']}\s+)?)?"
    rf"(?:{_V['draft_article']}\s+)*{_V['related_work_noun']}(?:\s+{_V['section_noun']})?"
    rf"(?:\s*:\s*|\s+{_V['topic_preposition']}\s+)(?P<topic>.+?)\W*$",
    re.I | re.S,
)


def related_work_topic(query: str) -> str | None:
    """The topic a request for a related-work draft is on, or ``None`` when the message asks for none.

    Examples:
        "draft a related-work section on dataset distillation" -> "dataset distillation";
        "write a related work paragraph about speech" -> "speech";
        "related work for LLM agents?" -> "LLM agents";
        "which papers are related to RL?" -> ``None`` (no related-work request).

    Returns:
        The topic as written (without the request, the trailing punctuation kept out), or ``None``
        when the message does not open with such a request or names no topic with a content word.
    """
    m = _REQUEST.match(query.strip())
    if m is None:
        return None
    topic = m.group("topic").strip()
    return topic if content_terms(topic) else None
