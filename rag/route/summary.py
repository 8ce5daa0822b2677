"""Summaries: of one paper (its problem, approach, data, results, limitations) and of the papers on
a topic (grouped by theme). Every line of the extractive summary quotes a sentence of an abstract;
with an LLM, checked prose written from those sentences comes first and the quotes stay under it
(:func:`rag.route.written.with_prose`), and a summary whose prose fails is the extractive one, saying why.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from rag.citations import format_marker
from rag.evidence.rows import ROWS, select_rows
from rag.llm.prose import REFUSAL, Source, interleave
from rag.question.asks import read_ask
from rag.question.plan import Topic
from rag.route.lead import key_clause, quoted
from rag.route.membership import more_may_match
from rag.route.written import with_prose
from rag.types import Answer, Citation, Evidence, PaperHit, Timings
from store.papers import Paper, strip_markup

__all__ = ["MAX_SUMMARY_PAPERS", "summarize_paper", "summarize_topic"]

MAX_SUMMARY_PAPERS = 5
"""Most papers a topic summary quotes (the text says how many match)."""
_THEME_TITLES = {"problem": "Problems addressed", "approach": "Approaches", "results": "Results"}

Cite = Callable[[Paper, Sequence[Evidence]], Citation]


def summarize_paper(
    pipeline,
    paper: Paper,
    cite: Cite,
    *,
    how: str = "",
    outside: str = "",
    question: str = "",
    on_token: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> Answer:
    """One paper's summary from its abstract: a line per theme, and its limitations or that none are
    stated; with an LLM, its checked prose first (:func:`rag.route.written.with_prose`).

    Args:
        pipeline: The :class:`rag.route.answer.AnswerPipeline` (its evidence selector and prose writer).
        paper: The paper.
        cite: Makes the paper's citation from its evidence (conversation numbering).
        how: How the paper was found ("name", "description"), for the note.
        outside: ``"outside the filter (...): X [1]"`` when a filter excludes it (else ``""``).
        question: The request as asked (the LLM's prompt quotes it; default "Summarize <label>").
        on_token: Receives LLM prose pieces as they stream.
        stop: When set, generation stops.
    """
    t0 = time.perf_counter()
    evidence = pipeline.evidence
    rows = [r for r in ROWS if r.key != "limitations"]
    sel = select_rows(evidence, paper, ROWS)
    evs = [e for r in rows for e in sel[r.key]]
    if not evs:  # nothing fits a theme: the best sentences for a generic summary query
        evs = evidence.select(read_ask(f"What does {paper.label} propose and show?"), paper, k=3)
    limits = list(sel["limitations"][:1])
    c = cite(paper, [*evs, *limits])
    m = format_marker(c.number)
    does = (sel.get("approach") or evs)[0]  # what the paper does: its approach sentence
    lead = f"**{paper.label}** {m} — {quoted(does.sentence, key_clause(does.sentence))}"
    lines = [lead, "", f"Summary of {paper.label} {m} (`{paper.id}`), from its abstract:"]
    themes: dict[int, tuple[list[str], Evidence]] = {}  # a sentence serving two themes is listed once
    for r in rows:
        for e in sel[r.key]:
            themes.setdefault(e.start, ([], e))[0].append(r.title)
    # One line per theme: a theme quoted over two sentences ("One-class learning offers ..."
    # "However, ... remains a challenge.") is one line.
    merged: list[tuple[list[str], list[Evidence]]] = []
    for titles, e in themes.values():
        if merged and merged[-1][0] == titles:
            merged[-1][1].append(e)
        else:
            merged.append((titles, [e]))
    for titles, evs_ in merged:
        heading = " and ".join([titles[0], *(t.lower() for t in titles[1:])])
        lines.append(f"- {heading}: " + " ".join(f"“{strip_markup(e.sentence)}”" for e in evs_) + f" {m}")
    if not any(sel[r.key] for r in rows):
        lines += [f"- “{strip_markup(e.sentence)}” {m}" for e in evs]
    if limits:
        lines.append(f"- Limitations: “{strip_markup(limits[0].sentence)}” {m}")
    else:
        lines.append(f"- The abstract states no limitations {m}.")
    if outside:
        lines.append(f"- Note: {outside} (summarized because named).")
    note = "summary of abstract sentences (extractive, no LLM)" + (f"; {paper.label} found by {how}" if how else "")
    answer = Answer(
        question="",
        text="\n".join(lines),
        citations=[c],
        hits=[PaperHit(paper, 1.0)],
        backend="none",
        note=note,
        matched=1,
        timings=Timings(evidence=time.perf_counter() - t0, total=time.perf_counter() - t0),
        kind="summary",
        lead=lead,
    )
    if pipeline.llm is None:
        return answer
    t = time.perf_counter()
    groups: list[Sequence[Evidence]] = [sel[r.key] for r in rows if sel[r.key]] or [evs]
    source = Source(c.number, PaperHit(paper, 1.0), interleave([*groups, limits]))
    prose = pipeline.writer.write_kind(
        "summary", question or f"Summarize {paper.label}", paper.label, [source], on_token, stop
    )
    answer.timings.generation = time.perf_counter() - t
    answer.timings.total = time.perf_counter() - t0
    return with_prose(answer, prose, body="\n".join(lines[2:]))


def summarize_topic(
    pipeline,
    subject: Topic,
    cite: Cite,
    *,
    allowed: set[str] | None = None,
    where: str = "",
    question: str = "",
    on_token: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> Answer:
    """The papers on a topic, summarized by theme (problems, approaches, results); with an LLM, a
    short checked synthesis grouping the papers by what they do comes after the count line and
    before the quotes (:func:`rag.route.written.with_prose`).

    The papers are those the relevance model accepts (as for "which papers ..."), at most
    :data:`MAX_SUMMARY_PAPERS` quoted; the text says how many match.

    Args:
        pipeline: The :class:`rag.route.answer.AnswerPipeline`.
        subject: What the papers are about (its text and facets).
        cite: Makes a paper's citation (conversation numbering).
        allowed: Only these paper ids (filters); ``None`` = all.
        where: How to name the collection ("the collection (filter: year=2023)").
        question: The request as asked (the LLM's prompt quotes it; default "Summarize the papers on <topic>").
        on_token: Receives LLM prose pieces as they stream.
        stop: When set, generation stops.
    """
    t0 = time.perf_counter()
    rs = pipeline.settings.retrieval
    where = where or "the collection"
    topic = subject.text
    r = pipeline.retriever.search(subject.search, allowed=allowed)
    t_ret = time.perf_counter() - t0
    if not r.hits:
        return _refusal(f"{REFUSAL} The collection is empty; ingest papers first.", t0)
    top = r.hits[0]
    if not r.names and top.dense < rs.relevance_floor and top.coverage < rs.coverage_floor:
        return _refusal(
            f"{REFUSAL} No paper in {where} is about “{topic}”; the closest is {top.paper.label} ({top.paper.id}).",
            t0,
        )
    named = {pid for ids in r.names.values() for pid in ids}
    checked = r.hits[: rs.candidates]
    members = [h for h, _ in pipeline.membership.members(topic, subject.facets, checked, rs.set_membership, many=True)]
    at_least = more_may_match(len(members), len(checked), len(r.hits))
    everyone = [h for h in r.hits if h.paper.id in named and h not in members] + members
    matched = everyone[: rs.max_set_size] or [top]
    used = matched[:MAX_SUMMARY_PAPERS]
    themes = [r_ for r_ in ROWS if r_.key in ("problem", "approach", "results")]
    asks = {r_.key: read_ask(f"{topic}. {r_.query}") for r_ in themes}
    per_paper = {h.paper.id: select_rows(pipeline.evidence, h.paper, themes, asks=asks) for h in used}
    cites = {h.paper.id: cite(h.paper, [e for evs in per_paper[h.paper.id].values() for e in evs]) for h in used}
    n, k = max(len(everyone), len(matched)), len(used)
    head = (
        f"{'At least ' if at_least else ''}{n} paper{'s' if n != 1 else ''} in {where} "
        f"match{'es' if n == 1 else ''} “{topic}”; "
        f"this summary uses {'all of them' if k == n else f'the {k} most relevant'}: "
        + ", ".join(f"{cites[h.paper.id].label} {format_marker(cites[h.paper.id].number)}" for h in used)
        + "."
    )
    lines = [head]
    for theme in themes:
        items = [
            f"- {cites[h.paper.id].label}: “{strip_markup(e.sentence)}” {format_marker(cites[h.paper.id].number)}"
            for h in used
            for e in per_paper[h.paper.id][theme.key]
        ]
        if items:
            lines += ["", f"**{_THEME_TITLES.get(theme.key, theme.title)}**", *items]
    answer = Answer(
        question="",
        text="\n".join(lines),
        citations=[cites[h.paper.id] for h in used],
        hits=r.hits[: max(10, len(matched))],
        backend="none",
        note=f"topic summary of abstract sentences (extractive, no LLM); {n} matched, {k} used",
        matched=n,
        matched_at_least=at_least,
        lead=head,
        timings=Timings(retrieval=t_ret, evidence=time.perf_counter() - t0 - t_ret, total=time.perf_counter() - t0),
        kind="summary",
    )
    if pipeline.llm is None:
        return answer
    t = time.perf_counter()
    # each paper's sentences one per theme first (its problem, approach, results), most relevant paper first
    sources = [
        Source(cites[h.paper.id].number, h, interleave([per_paper[h.paper.id][t.key] for t in themes]))
        for h in used
    ]
    sources = [s for s in sources if s.evidence]
    if not sources:
        return answer
    ask = question or f"Summarize the papers on {topic}"
    prose = pipeline.writer.write_kind("topic", ask, topic, sources, on_token, stop)
    answer.timings.generation = time.perf_counter() - t
    answer.timings.total = time.perf_counter() - t0
    return with_prose(answer, prose, lead=head, body="\n".join(lines[1:]).strip())


def _refusal(text: str, t0: float) -> Answer:
    return Answer(
        question="",
        text=text,
        refused=True,
        backend="none",
        note="nothing cited",
        timings=Timings(total=time.perf_counter() - t0),
        kind="refusal",
    )
