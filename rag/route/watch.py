"""Saved questions asked again after an ingest: which of the papers just added or updated now match.

Every entry that ingests (``paperchat ingest`` and ``ingest --sync``, the warm process the command
line and the API send ingests to, the page's *Add papers*) calls :func:`check_watches` with the ids
the ingest wrote (:attr:`rag.index.ingest.IngestReport.changed`) and a pipeline over the store as
it is after the ingest. Each saved question (:class:`store.watches.Watches`) is asked through the
one route (:meth:`rag.route.conversation.Conversation.ask`) restricted to those papers, less the
ones it already reported (:attr:`rag.route.filters.Filters.within`, the restriction a question
asked of a list uses), so a match is exactly what ``ask`` lists for the question among the new
papers. The papers it cites are reported with their evidence sentence and recorded, so no paper is
reported twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag.route.answer import AnswerPipeline
from rag.route.conversation import Conversation
from rag.route.filters import Filters
from rag.types import Answer, Citation, Evidence
from store.watches import Watches

__all__ = ["WatchMatch", "WatchReport", "check_watches"]

_QUOTE_CHARS = 160
"""Longest quote of an evidence sentence in a report line, in characters (the whole sentence is in
:attr:`WatchMatch.evidence`); a report names several papers on one line."""


@dataclass(frozen=True)
class WatchMatch:
    """A new paper that matches a saved question.

    Attributes:
        paper_id: The paper's id.
        label: Its display label.
        evidence: Its sentence that answers the question best (an exact span of its abstract).
    """

    paper_id: str
    label: str
    evidence: Evidence


@dataclass(frozen=True)
class WatchReport:
    """What one saved question found among the papers of one ingest.

    Attributes:
        question: The saved question.
        matches: The new papers it matches, in the answer's order (none already reported).
        asked: How many papers it was asked over (new or updated, not reported before).
        answer: The answer of the question restricted to those papers (``None`` when none was new).
    """

    question: str
    matches: tuple[WatchMatch, ...]
    asked: int = 0
    answer: Answer | None = None

    def line(self) -> str:
        """``watch "RL for LLM agents": 2 new papers match — X “quote”, Y “quote”``, or ``... no new
        paper matches``."""
        head = f"watch “{self.question}”"
        if not self.matches:
            return f"{head}: no new paper matches"
        n = len(self.matches)
        shown = ", ".join(f"{m.label} “{_short(m.evidence.sentence)}”" for m in self.matches)
        return f"{head}: {n} new paper{'s' if n != 1 else ''} match{'es' if n == 1 else ''} — {shown}"


def _short(sentence: str) -> str:
    """The sentence, cut at a word before :data:`_QUOTE_CHARS` characters with an ellipsis when longer."""
    if len(sentence) <= _QUOTE_CHARS:
        return sentence
    return sentence[:_QUOTE_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _best(c: Citation) -> Evidence:
    """A citation's evidence sentence that answers best (highest score; the first on a tie)."""
    return max(c.evidence, key=lambda e: e.score)


def check_watches(pipeline: AnswerPipeline, watches: Watches, changed: Sequence[str]) -> list[WatchReport]:
    """Ask every saved question again over the papers an ingest added or updated.

    Args:
        pipeline: A pipeline over the store as it is after the ingest (the changed papers in it).
        watches: The data directory's saved questions; the papers each matches are recorded there.
        changed: Ids of the papers the ingest added or updated; ids the collection does not hold
            (removed since) are ignored.

    Returns:
        One report per saved question, in the order saved (``[]`` when none is saved or nothing
        changed); their lines are kept in ``watches`` too (:meth:`store.watches.Watches.report`).
    """
    papers = pipeline.catalogue.papers
    new = [pid for pid in dict.fromkeys(changed) if pid in papers]
    saved = watches.load()
    if not new or not saved:
        return []
    out = []
    for w in saved:
        done = set(w.reported)
        ids = frozenset(pid for pid in new if pid not in done)
        if not ids:
            out.append(WatchReport(w.question, ()))
            continue
        n = len(ids)
        what = f"the {n} paper{'s' if n != 1 else ''} just added or updated"
        turn = Conversation(pipeline).ask(w.question, filters=Filters(within=ids, within_what=what))
        matches = tuple(
            WatchMatch(c.paper_id, c.label, _best(c))
            for c in turn.citations
            if c.paper_id in ids and c.evidence and not turn.answer.refused
        )
        watches.record(w.question, [m.paper_id for m in matches])
        out.append(WatchReport(w.question, matches, n, turn.answer))
    watches.report([r.line() for r in out])  # for a page open meanwhile (ui.handlers)
    return out
