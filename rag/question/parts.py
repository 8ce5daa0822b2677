"""The sub-questions of a question and the words that only say which paper it is about.

"What X, and how does it Y?" asks two things (:func:`question_parts`); "In the unified graph-based
dataset pruning paper, what ...?" names its paper by a description that is not what to quote
(:func:`without_paper_description`). The words are classes of ``vocabulary/parts.toml``.
"""

from __future__ import annotations

import re

from rag.question.roles import is_summary, question_roles
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = ["question_parts", "without_paper_description"]

_VOCABULARY = beside(__file__, "parts")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

_PART = re.compile(
    rf"(?:,\s*|\s+){_V['part_joiner']}\s+(?={_V['part_opener']})|[;?]\s+(?=\S)|,\s*(?={_V['comma_opener']})", re.I
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
    rf"\b(?:{_V['description_prep']}\s+)?the {_V['paper_noun']}\s+{_V['description_link']}[^,?;:.]*[,:]?|"
    rf"\b(?:{_V['description_lead']}\s+)?the\s+(?:(?!{_V['not_description_word']})[\w$\\{{}}-]+\s+){{1,8}}?"
    rf"{_V['paper_noun']}\s*,?",
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
