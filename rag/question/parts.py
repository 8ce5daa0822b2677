"""The sub-questions of a question and the words that only say which paper it is about.

"What X, and how does it Y?" asks two things (:func:`question_parts`); "In the unified graph-based
dataset pruning paper, what ...?" names its paper by a description that is not what to quote
(:func:`without_paper_description`).
"""

from __future__ import annotations

import re

from rag.question.roles import is_summary, question_roles
from rag.text import content_terms

__all__ = ["question_parts", "without_paper_description"]

_PART = re.compile(
    r"(?:,\s*|\s+)(?:and|while|also|then)\s+(?=(?:what|which|how|why|where|when|who|whom|does|do|did|is|are|was|were|"
    r"on which|in which|for which|by how)\b)|[;?]\s+(?=\S)|,\s*(?=(?:what|which|how|why|on which|in which|by how)\b)",
    re.I,
)



def question_parts(question: str) -> list[str]:
    """The sub-questions of a question: "What X, and how does it Y?" -> ["What X", "how does it Y?"].

    Parts without a content term are dropped; a one-part question gives ``[question]``.
    """
    parts = [p.strip() for p in _PART.split(without_paper_description(question)) if p and p.strip()]
    parts = [p for p in parts if content_terms(p)]
    return parts or [question]


# "In the unified graph-based dataset pruning paper, what ..." / "the paper on quantum estimation
# of nested expectations, including ...": words that say which paper, not what to quote from it.
_DESCRIPTION = re.compile(
    r"\b(?:(?:in|for|from|of|by|to|according to)\s+)?the (?:paper|work|study)\s+"
    r"(?:on|about|that|which|proposing|studying|introducing)\b[^,?;:.]*[,:]?|"
    r"\b(?:(?:in|for|from|of|by|does)\s+)?the\s+"
    r"(?:(?!(?:of|in|on|the|a|an|that|which|and|or|to|for|by|with|from|contribution|identified)\b)[\w$\\{}-]+\s+){1,8}?"
    r"(?:paper|work|study)\b\s*,?",
    re.I,
)


def without_paper_description(question: str) -> str:
    """The question without a phrase that describes which paper it is about.

    "In the unified graph-based dataset pruning paper, what combinatorial problem is pruning
    cast as?" -> "what combinatorial problem is pruning cast as?". The question is returned
    unchanged when removing the description would leave fewer than two content terms, unless
    it asks for one role ("What does the ride-hailing paper propose?" asks for its method; a
    summary asks for every role and keeps its words).
    """
    out = _DESCRIPTION.sub(" ", question)
    asks_role = bool(question_roles(question)) and not is_summary(question)
    return out if len(content_terms(out)) >= 2 or asks_role else question
