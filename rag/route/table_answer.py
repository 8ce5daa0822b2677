"""A table as an answer: its rows found (the papers named, or every member of a topic), its cells
filled (:mod:`rag.evidence.table`), its text written (:mod:`rag.route.table_text`); and the plan of a table asked
by its parts (``paperchat table``, the MCP tool).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rag.evidence.table import PaperTable, fill_table
from rag.llm.prose import REFUSAL
from rag.question.columns import TOPIC, Column
from rag.route.table_text import table_head, table_text
from rag.types import Answer, Citation, Evidence, PaperHit, Timings
from store.papers import Paper

if TYPE_CHECKING:
    from rag.question.reader import QuestionPlan
    from rag.route.answer import AnswerPipeline

__all__ = ["answer_table", "table_plan"]


def answer_table(
    pipeline: AnswerPipeline,
    plan: QuestionPlan,
    columns: Sequence[Column],
    cite: Callable[[Paper, Sequence[Evidence]], Citation],
    *,
    ids: Sequence[str] = (),
    allowed: set[str] | None = None,
) -> tuple[Answer, PaperTable | None]:
    """The table a plan asks for, as an answer.

    The rows are the papers ``ids`` (named, in that order) or, when none are given, every paper
    the membership model accepts for the plan's topic among the ``retrieval.candidates`` checked
    (:meth:`rag.route.answer.AnswerPipeline.find`), most probable first; the refusal policy applies to
    the topic as it does to a "which papers" question.

    Args:
        pipeline: The answer pipeline (retriever, membership, refusal policy, evidence).
        plan: The question's plan (its topic, facets, exclusion).
        columns: The columns (:func:`parse_columns`).
        cite: Makes a row's citation (conversation numbering).
        ids: Papers named by the user; empty: find them by the topic.
        allowed: Restrict found papers to these ids (filters); ``None``: all.

    Returns:
        ``(answer, table)``; the table is ``None`` when the answer is a refusal.
    """
    t0 = time.perf_counter()
    timings = Timings()
    matched, at_least, topic = len(ids), False, ""
    left_out: list[PaperHit] = []
    if ids:
        papers = [pipeline.catalogue[p] for p in ids]
        hits = [PaperHit(p, 1.0) for p in papers]
    else:
        topic = plan.topic or plan.query
        retrieval = pipeline.retriever.search(topic, allowed=allowed)
        timings.retrieval = time.perf_counter() - t0
        apart = (plan.artifact or plan.about_links) and retrieval.hits
        refusal = "" if apart else pipeline.refusals.topic(plan, retrieval)
        found, matched, at_least, left_out = (
            ([], 0, False, []) if refusal else pipeline.find(plan, retrieval, pipeline.settings.retrieval.candidates)
        )
        hits = [h for h in found if pipeline.evidence.sentences(h.paper)[0]]
        timings.retrieval = time.perf_counter() - t0  # finding the rows: search, refusal policy, membership
        if refusal or not hits:
            return pipeline.refusal(plan.asked, refusal or REFUSAL, timings, t0, hits=retrieval.hits[:5]), None
        papers = [h.paper for h in hits]
    t = time.perf_counter()
    if topic:  # why each paper is a row: its sentence closest to the topic, first
        columns = (Column(topic[:1].upper() + topic[1:], TOPIC), *columns)
    table = fill_table(pipeline.evidence, papers, columns, cite, topic=topic, matched=matched, at_least=at_least)
    timings.evidence = time.perf_counter() - t
    text = table_text(table)
    if left_out:
        text += f"\n\nLeft out as about {plan.exclusion} ({len(left_out)}): " + ", ".join(
            h.paper.label for h in left_out
        ) + "."
    timings.total = time.perf_counter() - t0
    answer = Answer(
        question=plan.asked,
        text=text,
        citations=list(table.papers),
        hits=hits,
        backend="none",
        note=f"table of abstract sentences (extractive): {len(papers)} rows x {len(columns)} columns",
        matched=table.matched,
        matched_at_least=at_least,
        timings=timings,
        kind="table",
        lead=table_head(table),
    )
    return answer, table


def table_plan(
    read: Callable[[str], QuestionPlan], topic: str, columns: Sequence[str] = ()
) -> tuple[str, QuestionPlan]:
    """The message and plan of a table asked by its parts (``paperchat table``, the MCP tool).

    Args:
        read: Reads a message into a plan (:meth:`rag.route.answer.AnswerPipeline.read`).
        topic: What the rows are about, as a topic or a question ("speech synthesis", "Which
            papers work on speech?"); ``""`` when the rows are papers the caller names (given to
            the plan's ``refs`` by the caller).
        columns: The column phrases (empty: the default columns).

    Returns:
        ``(message, plan)``: the message as a user would type it, and a plan of intent ``table``
        whose topic is read from ``topic`` alone (a name in it is searched for, not a row).
    """
    cols = tuple(c.strip() for c in columns if c.strip())
    rows = f"the papers on {topic.strip()}" if topic.strip() else "the papers named"
    message = f"Make a table of {rows}" + (f" with columns {', '.join(cols)}" if cols else "")
    base = read(topic) if topic.strip() else read(message)
    plan = replace(base, asked=message, intent="table", number="many", refs=(), columns=cols, metadata="",
                   detail_only=False, polar=False, polar_terms=(), quantity=False)
    return message, plan if topic.strip() else replace(plan, topic="", facets=(), exclusion="")
