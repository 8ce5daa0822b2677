"""One loaded pipeline serving many callers: the MCP tools and the HTTP API.

:class:`Library` holds the components of one process (embedder, store, retriever, answer
pipeline), rebuilds them over the store as it is now when another process wrote to the data
directory (``paperchat ingest`` / ``remove``, as the chat page does), and bounds how many
questions are answered at once (``api.workers``). Every answer goes through
:class:`rag.route.conversation.Conversation`, the route of the page and of ``paperchat ask``.
"""

from __future__ import annotations

import difflib
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rag.pipeline import Components, refreshed
from rag.question.phrasing import keep_asking
from rag.route.answer import AnswerPipeline
from rag.route.conversation import Conversation, Turn
from rag.route.filters import Filters
from rag.route.search import Found, search_papers
from rag.types import Citation, Timings
from store.papers import Paper
from store.textin import clean_text
from store.watches import Watches
from ui.exports import bibtex

__all__ = ["Library", "UnknownPaper", "timed_ask"]


def timed_ask(conversation: Conversation, text: str, *, started: float, loading: float = 0.0, **kw: Any) -> Turn:
    """``conversation.ask(text, **kw)`` with the answer's timings as its footer shows them: the
    reading of the question and the first embeddings measured around the route
    (:meth:`rag.types.Timings.measuring`), ``loading`` seconds spent before (a cold command's start,
    a rebuild after a write), and a total from ``started`` (``time.perf_counter()`` when the
    message arrived) to now."""
    clock = Timings(loading=loading)
    with clock.measuring():
        turn = conversation.ask(text, **kw)
    turn.answer.timings.include(clock).total = time.perf_counter() - started
    return turn


class UnknownPaper(KeyError):
    """A paper id that is not in the collection; the message names close ids and how to find ids."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown paper"


class Library:
    """The collection as one process serves it (thread-safe).

    Args:
        components: Built by :func:`rag.pipeline.build_pipeline` (the LLM chosen there is kept).
        workers: Most questions answered at the same time, >= 1 (``api.workers``).
    """

    def __init__(self, components: Components, *, workers: int = 2):
        if workers < 1:
            raise ValueError(f"workers must be at least 1 (got {workers})")
        self._components = components
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(workers)

    # --- the components as they are now --------------------------------------------------

    def refresh(self) -> bool:
        """Rebuild over the store as it is now when another process wrote since; True when rebuilt."""
        with self._lock:
            fresh = refreshed(self._components)
            if fresh is None:
                return False
            self._components = fresh
            return True

    @property
    def components(self) -> Components:
        """The components over the store as it is now (:meth:`refresh` first)."""
        self.refresh()
        return self._components

    @property
    def pipeline(self) -> AnswerPipeline:
        """The answer pipeline over the store as it is now."""
        return self.components.pipeline

    @property
    def papers(self) -> dict[str, Paper]:
        """Every paper of the collection, by id."""
        return self.pipeline.catalogue.papers

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the ``workers`` answering slots (blocks while all are taken)."""
        with self._slots:
            yield

    def question(self, text: str) -> tuple[str, str]:
        """A question as received, normalised and trimmed to ``input.max_question_chars``:
        ``(question, notice)``, the notice ``""`` when it fits (as ``paperchat ask`` does)."""
        return keep_asking(clean_text(text), self.components.settings.input.max_question_chars)

    # --- answering ------------------------------------------------------------------------

    def conversation(self) -> Conversation:
        """A fresh conversation over the current pipeline."""
        return Conversation(self.pipeline)

    def ask(
        self,
        question: str,
        *,
        conversation: Conversation | None = None,
        filters: Filters | None = None,
        top_k: int | None = None,
        stop: threading.Event | None = None,
    ) -> Turn:
        """Answer one message (in ``conversation``, else in a fresh one) as ``paperchat ask`` does.

        A question longer than ``input.max_question_chars`` is trimmed and the answer's note says so.
        """
        started = time.perf_counter()
        text, trimmed = self.question(question)
        conv = conversation or self.conversation()
        with self.slot():
            conv.pipeline = self.pipeline  # a kept conversation answers from the store as it is now
            loading = time.perf_counter() - started  # a rebuild after a write, a wait for a free slot
            turn = timed_ask(conv, text, started=started, loading=loading, filters=filters, top_k=top_k, stop=stop)
        if trimmed:
            turn.answer.note = "; ".join(x for x in (trimmed, turn.answer.note) if x)
        return turn

    def search(self, query: str, *, k: int = 5, filters: Filters | None = None) -> tuple[list[Found], str]:
        """The ``k`` papers closest to ``query`` with their best evidence (:func:`rag.route.search.search_papers`).

        Raises:
            ValueError: ``k`` outside 1-50.
        """
        text, _ = self.question(query)
        with self.slot():
            return search_papers(self.pipeline, text, k=k, filters=filters)

    def compare(self, refs: Sequence[str], aspect: str = "", columns: Sequence[str] = ()) -> Turn:
        """Compare two or more papers (:meth:`rag.route.conversation.Conversation.compare_papers`).

        Raises:
            ValueError: fewer than two references.
        """
        refs = [self.question(r)[0] for r in refs if r.strip()]
        if len(refs) < 2:
            raise ValueError("name at least two papers to compare (names, ids or short descriptions)")
        with self.slot():
            return self.conversation().compare_papers(refs, self.question(aspect)[0], columns=columns)

    def table(self, *, topic: str = "", papers: Sequence[str] = (), columns: Sequence[str] = ()) -> Turn:
        """A table across papers (:meth:`rag.route.conversation.Conversation.table`): every paper the
        membership model accepts for ``topic``, or ``papers``, a column per phrase of ``columns``.

        Raises:
            ValueError: neither or both of ``topic`` and ``papers``.
        """
        refs = [self.question(r)[0] for r in papers if r.strip()]
        if bool(topic.strip()) == bool(refs):
            raise ValueError("give either a topic or the papers for the rows (names, ids or short descriptions)")
        with self.slot():
            return self.conversation().table(self.question(topic)[0], refs, [self.question(c)[0] for c in columns])

    def related_work(self, topic: str, *, fmt: str = "latex", bib: str | None = None) -> dict[str, Any]:
        """A related-work draft on ``topic`` as JSON (:func:`ui.related_work.related_work`, then
        :func:`ui.related_work.draft_json`): the draft's text and ``.bib``, every key checked.

        Raises:
            ValueError: an empty topic, an unknown format or a ``bib`` that is no BibTeX.
        """
        from ui.related_work import draft_json, related_work

        with self.slot():
            turn, files = related_work(self.conversation(), self.question(topic)[0], fmt=fmt, bib=bib)  # type: ignore[arg-type]
        return draft_json(turn, files)

    def similar(self, ref: str, *, k: int = 5, filters: Filters | None = None) -> Turn:
        """The ``k`` papers nearest to one paper (:meth:`rag.route.conversation.Conversation.similar`).

        Raises:
            ValueError: no reference given, or ``k`` outside 1-50.
        """
        text = self.question(ref)[0]
        if not text.strip():
            raise ValueError("name a paper (a name, an id or a short description)")
        with self.slot():
            return self.conversation().similar(text, k=k, filters=filters)

    @property
    def watches(self) -> Watches:
        """The saved questions of the data directory (:class:`store.watches.Watches`)."""
        return Watches(self._components.settings.home)

    # --- records ------------------------------------------------------------------------

    def paper(self, paper_id: str) -> Paper:
        """The record of one paper.

        Raises:
            UnknownPaper: no paper has this id (the message names close ids).
        """
        papers = self.papers
        pid = clean_text(paper_id).strip()
        if pid in papers:
            return papers[pid]
        close = difflib.get_close_matches(pid, list(papers), n=3, cutoff=0.6)
        hint = f" Close ids: {', '.join(close)}." if close else ""
        raise UnknownPaper(
            f"No paper has the id “{pid}”.{hint} Ids are what search_papers, ask and the Sources list give "
            "(such as 000_6b930c46f6674b66#1)."
        )

    def bibtex(self, paper_ids: Sequence[str]) -> str:
        """``@misc`` BibTeX entries of the papers, in the order given (:func:`ui.exports.bibtex`):
        the records' own fields, keys told apart over the whole collection (the same in every export).

        Raises:
            UnknownPaper: an id is not in the collection (the first unknown one is named).
            ValueError: no id given.
        """
        if not paper_ids:
            raise ValueError("give one or more paper ids")
        found = [self.paper(pid) for pid in paper_ids]
        cits = [
            Citation(number=i, paper_id=p.id, label=p.label, evidence=(), url=p.url, authors=p.author_line, year=p.year)
            for i, p in enumerate(found, start=1)
        ]
        return bibtex(cits, self.papers)
