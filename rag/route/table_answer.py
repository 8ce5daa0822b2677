"""A table as an answer: its rows found (the papers named, or every member of a topic), its cells
filled (:mod:`rag.evidence.table`), with ``--values`` each cell's short value proposed by the LLM
and kept when every word of it stands in the cell (:func:`with_values`), its text written
(:mod:`rag.route.table_text`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rag.evidence.senses import evidence_senses
from rag.evidence.table import Cell, PaperTable, fill_table, value_supported
from rag.llm.prose import REFUSAL
from rag.llm.values import VALUE_WORDS, propose_values
from rag.protocols import EvidenceSource
from rag.question.columns import topic_column
from rag.question.plan import Column, TablePlan
from rag.question.reader import names_link
from rag.route.slot import slot_span, stated_value, stating_sentence
from rag.route.table_text import table_head, table_text
from rag.types import Answer, Ask, Citation, Evidence, LLMUsage, PaperHit, Timings
from store.papers import Paper, strip_markup

if TYPE_CHECKING:
    from rag.route.answer import AnswerPipeline

__all__ = ["answer_table", "column_stating", "with_values"]


def answer_table(
    pipeline: AnswerPipeline,
    plan: TablePlan,
    columns: Sequence[Column],
    cite: Callable[[Paper, Sequence[Evidence]], Citation],
    *,
    ids: Sequence[str] = (),
    allowed: set[str] | None = None,
    stop: threading.Event | None = None,
) -> tuple[Answer, PaperTable | None]:
    """The table a plan asks for, as an answer.

    The rows are the papers ``ids`` (named, in that order) or, when none are given, every paper
    the membership model accepts for the plan's topic among the ``retrieval.candidates`` checked
    (:meth:`rag.route.answer.AnswerPipeline.find`), most probable first; the refusal policy applies to
    the topic as it does to a "which papers" question, and so does the check that a paper states
    every part of a topic of several parts (:meth:`rag.route.refusal.RefusalPolicy.parts`).

    Args:
        pipeline: The answer pipeline (retriever, membership, refusal policy, evidence).
        plan: The table's plan (its topic: facets, exclusion).
        columns: The columns (:func:`parse_columns`).
        cite: Makes a row's citation (conversation numbering).
        ids: Papers named by the user; empty: find them by the topic.
        allowed: Restrict found papers to these ids (filters); ``None``: all.
        stop: When set, no more cell values are asked of the LLM (``plan.values``).

    Returns:
        ``(answer, table)``; the table is ``None`` when the answer is a refusal.
    """
    t0 = time.perf_counter()
    timings = Timings()
    matched, at_least, topic = len(ids), False, ""
    left_out: list[PaperHit] = []
    subject = plan.topic
    if ids or subject is None:
        papers = [pipeline.catalogue[p] for p in ids]
        hits = [PaperHit(p, 1.0) for p in papers]
    else:
        topic = subject.text or plan.query
        retrieval = pipeline.retriever.search(subject.search, allowed=allowed)
        timings.retrieval = time.perf_counter() - t0
        apart = (subject.artifact or subject.about_links) and retrieval.hits
        refusal = "" if apart else pipeline.refusals.topic(plan, subject, retrieval)
        found, matched, at_least, left_out = (
            ([], 0, False, []) if refusal else pipeline.find(subject, retrieval, pipeline.settings.retrieval.candidates)
        )
        if not refusal and found and not apart:
            # a topic of several parts: the rows are the papers that state every part, as the same
            # topic asked in chat lists them (AnswerPipeline.answer); none -> refused alike
            covered = pipeline.refusals.parts(subject, retrieval, found, allowed=allowed)
            if covered.checked and not covered.complete:
                refusal = covered.refusal()
            elif covered.checked:
                found, matched, at_least = covered.complete, len(covered.complete), False
        hits = [h for h in found if pipeline.evidence.sentences(h.paper)[0]]
        timings.retrieval = time.perf_counter() - t0  # finding the rows: search, refusal policy, membership
        if refusal or not hits:
            return pipeline.refusal(plan.asked, refusal or REFUSAL, timings, t0, hits=retrieval.hits[:5]), None
        papers = [h.paper for h in hits]
    t = time.perf_counter()
    reasons: dict[str, Evidence] = {}
    if topic:  # why each paper is a row: its sentence closest to the topic, first
        columns = (topic_column(topic), *columns)
        if subject is not None and subject.artifact:
            # "papers that release a dataset": the sentence that made it a row, as a list quotes it
            for p in papers:
                x = pipeline.membership.contribution(subject.artifact, p)
                if x is not None and not isinstance(x, str):
                    reasons[p.id] = Evidence(p.id, x.text, x.start, x.end, 1.0)
    code: dict[str, Evidence] = {}
    if any(c.kind.key == "code" and not names_link(c.title) for c in columns):
        # code made available without a link answers the column as it answers "which papers release
        # code?"; a column that asks for the link ("code link", "GitHub repo") only a link
        for p in papers:
            x = pipeline.code_sentence(p)
            if x is not None:
                code[p.id] = Evidence(p.id, x.text, x.start, x.end, 1.0)
    table = fill_table(
        pipeline.evidence, papers, columns, cite, topic=topic, matched=matched, at_least=at_least, reasons=reasons,
        code=code, stating=lambda ask, paper: column_stating(pipeline.evidence, ask, paper),
    )
    timings.evidence = time.perf_counter() - t
    note = f"table of abstract sentences (extractive): {len(papers)} rows x {len(columns)} columns"
    backend, usage = "none", None
    if plan.values and pipeline.llm is not None:
        t = time.perf_counter()
        valued, said, usage = with_values(pipeline, table, stop)
        timings.generation = time.perf_counter() - t
        note = f"{note}; {said}"
        backend = pipeline.llm.name if valued.cells != table.cells else f"{pipeline.llm.name} -> extractive"
        table = valued
    elif plan.values:
        note += "; no cell values: no LLM (start Ollama, or choose one with --llm)"
    text = table_text(table)
    if left_out:
        text += f"\n\nLeft out as about {subject.exclusion if subject else ''} ({len(left_out)}): " + ", ".join(
            h.paper.label for h in left_out
        ) + "."
    timings.total = time.perf_counter() - t0
    answer = Answer(
        question=plan.asked,
        text=text,
        citations=list(table.papers),
        hits=hits,
        backend=backend,
        note=note,
        matched=table.matched,
        matched_at_least=at_least,
        timings=timings,
        kind="table",
        lead=table_head(table),
        usage=usage,
    )
    return answer, table


def column_stating(evidence: EvidenceSource, ask: Ask, paper: Paper) -> tuple[Evidence, str] | None:
    """The sentence of ``paper`` that states the slot a column asks (``ask.slot``: "speedup", "bit
    width"), by the check a one-paper question gets (:func:`rag.route.slot.stating_sentence`),
    with the value its clause gives (:func:`rag.route.slot.stated_value`); ``None`` when no
    sentence states it (the cell: not stated).

    A measure ("speedup", "accuracy") is stated only by a clause that writes it (or a word of its
    sense: "8.5× faster") with a figure beside it, as "how much faster is X?" is answered: a clause
    that only mentions it ("with negligible loss in accuracy", "a tailored omission reward"), or a
    change of another measure the one-paper route falls back to ("improves performance by 12.4%"
    for a reward), is no figure of it, and the one-paper question is refused "does not state a
    figure for ..." alike."""
    slot = ask.slot
    got = stating_sentence(evidence, ask, paper)
    if got is None or slot is None:
        return None
    e, (a, b, _) = got
    if slot.form:  # a bit width, a model size: the form stated there is the value
        return e, stated_value(slot, strip_markup(e.sentence[a:b]))
    span = slot_span(slot, e.sentence, evidence_senses(evidence))
    value = stated_value(slot, strip_markup(e.sentence[span[0] : span[1]])) if span is not None else ""
    return (e, value) if value else None


def with_values(
    pipeline: AnswerPipeline, table: PaperTable, stop: threading.Event | None = None
) -> tuple[PaperTable, str, LLMUsage]:
    """``table`` with a short value in each stated cell that has none, where the LLM proposes one
    every word of which stands in the cell's sentences (:func:`rag.evidence.table.value_supported`),
    of at most :data:`rag.llm.values.VALUE_WORDS` words and shorter than the quote; other cells
    keep the quote alone.

    Returns:
        ``(table, what happened in one line, what the replies cost)``: "cell values: kept 5 of 9
        the LLM proposed (every word in the cell's sentence), 12 cells asked in 2 prompts".
    """
    assert pipeline.llm is not None
    asked = [
        (i, j)
        for i, row in enumerate(table.cells)
        for j, cell in enumerate(row)
        if cell.stated and not cell.value
    ]
    quotes = {
        (i, j): " ".join(strip_markup(e.sentence) for e in table.cells[i][j].evidence) for i, j in asked
    }
    cells = [(table.columns[j].title, quotes[(i, j)]) for i, j in asked]
    proposed = propose_values(pipeline.llm, pipeline.settings, cells, stop=stop)
    rows = [list(row) for row in table.cells]
    offered = kept = 0
    for (i, j), value in zip(asked, proposed.values, strict=True):
        if not value:
            continue
        offered += 1
        cell = table.cells[i][j]
        short = len(value.split()) <= VALUE_WORDS and len(value) < len(quotes[(i, j)])
        if short and value_supported(value, cell.evidence):
            rows[i][j] = Cell(cell.evidence, value)
            kept += 1
    said = (
        f"cell values: kept {kept} of {offered} the LLM proposed (every word in the cell's sentence), "
        f"{len(asked)} cells asked in {proposed.prompts} prompt{'s' if proposed.prompts != 1 else ''}"
    )
    if proposed.failures:
        said += "; " + "; ".join(f"a prompt {f}" for f in proposed.failures)
    return replace(table, cells=tuple(tuple(row) for row in rows)), said, proposed.usage
