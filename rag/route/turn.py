"""A turn of a conversation (:class:`Turn`: the question, the answer and what it showed) and the
conversation-wide citation numbering (:func:`renumber_markers`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from rag.citations import MARKER, format_marker
from rag.evidence.table import PaperTable
from rag.question.reader import QuestionPlan
from rag.route.compare import ComparisonTable
from rag.types import Answer, Citation
from store.papers import Paper

__all__ = ["CitationNumbering", "Turn", "TurnKind", "renumber_markers"]

TurnKind = Literal["answer", "compare", "table", "summary", "clarify", "refusal"]


@dataclass
class Turn:
    """One question and what the conversation answered.

    Attributes:
        question: The text the user typed.
        standalone: The question with its references to earlier turns spelled out (equal to
            ``question`` when it has none; for comparisons and summaries, what was done).
        answer: The answer, with markers and citations in conversation numbering; its ``text``
            is what the page shows.
        kind: ``answer``, ``compare``, ``table``, ``summary``, ``clarify`` or ``refusal``.
        table: The comparison table of a ``compare`` turn.
        paper_table: The table of a ``table`` turn (rows papers, columns phrases).
        candidates: Papers to choose from, for a ``clarify`` turn.
        plan: How the message was read.
    """

    question: str
    standalone: str
    answer: Answer
    kind: TurnKind = "answer"
    table: ComparisonTable | None = None
    paper_table: PaperTable | None = None
    candidates: tuple[Paper, ...] = ()
    plan: QuestionPlan | None = None

    @property
    def citations(self) -> list[Citation]:
        """Citations of this turn (conversation numbers)."""
        return self.answer.citations

    @property
    def interpreted(self) -> str:
        """The spelled-out question as shown after "Interpreted as:", in quotation marks (once: a
        question that is only a quoted description is not quoted again)."""
        text = self.standalone.strip()
        return text if text.startswith("“") and text.endswith("”") else f"“{text}”"

    @property
    def rewritten(self) -> bool:
        """True when references to earlier turns were spelled out."""
        return self.kind == "answer" and self.standalone.strip() != self.question.strip()


def renumber_markers(text: str, mapping: dict[int, int]) -> str:
    """Rewrite ``[n]`` / ``[n, m]`` markers by ``mapping`` (numbers not in it are kept).

    >>> renumber_markers("A [1]. B [2, 1].", {1: 3, 2: 1})
    'A [3]. B [1, 3].'
    """

    def sub(m: re.Match[str]) -> str:
        nums = [mapping.get(int(p), int(p)) for p in m.group(1).split(",")]
        return format_marker(nums[0]) if len(nums) == 1 else "[" + ", ".join(str(n) for n in nums) + "]"

    return MARKER.sub(sub, text)


@dataclass
class CitationNumbering:
    """Conversation-wide citation numbers (a paper keeps its first number)."""

    by_paper: dict[str, int] = field(default_factory=dict)
    references: dict[int, Citation] = field(default_factory=dict)

    def number(self, paper_id: str) -> int:
        if paper_id not in self.by_paper:
            self.by_paper[paper_id] = len(self.by_paper) + 1
        return self.by_paper[paper_id]
