"""Comparisons of two or more papers: the aspect the question asks first, then the default rows.

"How does each make X cheaper?" is answered first, with each paper's quoted answer or "not
stated in the abstract"; the rows problem / approach / data / results / limitations follow
(:data:`rag.evidence.rows.ROWS`). Every cell is a sentence of that paper's abstract with its span, so a
comparison is equally grounded with or without an LLM. With an LLM, a checked paragraph on the
asked aspect (else on what the papers address, propose and report), written from those cells
(:func:`prose_sources`), takes the place of the lead line; the rest is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag.citations import format_marker
from rag.evidence.rows import NOT_STATED, ROWS, Row, select_rows
from rag.evidence.senses import evidence_senses
from rag.llm.prose import Source, interleave
from rag.protocols import EvidenceSource, evidence_settings
from rag.question.plan import Ask
from rag.question.polar import polar_terms
from rag.question.slots import SIZE, YEAR
from rag.route.lead import key_clause, quoted, term_span
from rag.route.slot import MODEL_SIZE, greatest_size, slot_span, stating_sentence
from rag.text import content_terms, named_entities, normalize
from rag.types import Citation, Evidence, PaperHit, Slot
from store.labels import without_links
from store.papers import Paper, strip_markup

__all__ = [
    "ASPECT_SENTENCES", "OVERALL", "SIZE_FORMS", "UNSTATED_ASPECT", "ComparisonTable", "build_table", "compare_lead",
    "comparison_text", "prose_sources", "size_verdict", "table_markdown", "year_lead",
]

ASPECT_SENTENCES = 2
"""Most sentences an asked aspect quotes per paper; the second only when it scores within the
selector's cutoff of the first (:meth:`rag.evidence.selector.EvidenceSelector.select`). An answer to "how does
each cut cost?" often spans two sentences ("APM offers two key advantages: ... single forward pass"
after its proposal). On the dev set's 12 comparisons and their 48 rephrasings, aspect facts rose
from 0.917 / 0.854 (one sentence) to 0.958 / 0.896 (dev / rephrasings)."""


@dataclass(frozen=True)
class ComparisonTable:
    """A comparison of papers row by row, each cell an abstract sentence (or nothing).

    Attributes:
        rows: The default rows, in display order.
        papers: One citation per compared paper (conversation numbers), in column order.
        cells: ``cells[i][j]``: evidence of paper ``j`` for row ``i`` (empty = not stated).
        aspects: The sub-questions the question asked, as it words them, in order (may be empty).
        aspect_cells: ``aspect_cells[i][j]``: evidence of paper ``j`` for aspect ``i``.
        titles: The aspects as headings ("What does each distill?", :attr:`rag.question.plan.Ask.title`).
    """

    rows: tuple[Row, ...]
    papers: tuple[Citation, ...]
    cells: tuple[tuple[tuple[Evidence, ...], ...], ...]
    aspects: tuple[str, ...] = ()
    aspect_cells: tuple[tuple[tuple[Evidence, ...], ...], ...] = ()
    titles: tuple[str, ...] = ()

    def cell(self, row_key: str, paper_id: str) -> tuple[Evidence, ...]:
        """Evidence of one paper for one row (by row key and paper id)."""
        i = next(k for k, r in enumerate(self.rows) if r.key == row_key)
        j = next(k for k, c in enumerate(self.papers) if c.paper_id == paper_id)
        return self.cells[i][j]


MIN_STATED_TERMS = 2
"""Fewest terms an aspect of a comparison must ask for a sentence that states them all to answer
it below the score floor (:func:`_aspect_cell`): one word ("which one is faster?") is met by too
many sentences to say more than the score does (not tuned: the least that makes a predicate, a
verb's object and what it is of)."""


def _aspect_cell(evidence: EvidenceSource, part: Ask, paper: Paper) -> tuple[Evidence, ...]:
    """The sentences of ``paper`` that answer ``part``, or ``()`` when none reaches the evidence settings'
    ``aspect_floor`` (:class:`rag.settings.EvidenceSettings`).

    A background sentence may answer an aspect ("what does each distill?": "Multi-modal dataset
    distillation condenses ..." names the paper's own subject), so none is left out here, but one
    of the field or prior work the paper starts from (:meth:`rag.protocols.EvidenceSource.preamble`)
    stands after the paper's own sentences; an aspect
    that names a row ("the data they use") is answered by that row instead (:func:`build_table`)."""
    if part.slot is not None and part.slot.form == YEAR:
        return ()  # "which of the two is older?": the records give the year (year_lead), no sentence
    if part.slot is not None and part.amount:
        # "which is bigger, GLaM or PaLM-E?": the sentence that states the size, not the one
        # closest in words ("7x larger than GPT-3" beside no size, a sparsity of 60%)
        found = stating_sentence(evidence, part, paper)
        if found is not None:
            return (found[0],)
        if part.slot.form in SIZE_FORMS:
            return ()
    best = evidence.score(part, paper)
    if best and best[0].score < evidence_settings(evidence).aspect_floor and part.slot is None:
        # evidence decides over the score: a sentence that states every term the aspect asks of
        # the paper answers it, however few of the aspect's other words it shares ("which one
        # needs access to the model?": "... detected ... without access to the language model API")
        terms = polar_terms(part.text)
        senses = evidence_senses(evidence)
        stating = next((e for e in best if len(terms) >= MIN_STATED_TERMS
                        and term_span(e.sentence, terms, senses) is not None), None)
        return (stating,) if stating is not None else ()
    if not best or best[0].score < evidence_settings(evidence).aspect_floor:
        return ()
    # the paper's own sentence for the aspect first, the field's or prior work's after it: "what do
    # HieRD and DocVAL distill?" led HieRD's cell with "Existing distillation methods typically align
    # static global representations", its gap, before "we propose HieRD, ... Distillation framework"
    preamble = evidence.preamble(paper)
    return tuple(sorted(evidence.select(part, paper, k=ASPECT_SENTENCES), key=lambda e: e.start in preamble))


def build_table(
    evidence: EvidenceSource,
    papers: Sequence[Paper],
    cite: Callable[[Paper, Sequence[Evidence]], Citation],
    aspects: Sequence[Ask] = (),
    rows: Sequence[Row] = ROWS,
    extra: Sequence[Sequence[Evidence]] = (),
) -> ComparisonTable:
    """Fill the aspect cells and the default rows for ``papers``.

    Args:
        evidence: The sentence scorer.
        papers: The compared papers, in column order.
        cite: Makes a paper's citation (conversation numbering) from its evidence.
        aspects: Sub-questions the question asked (each with its heading as the question words it:
            "what does each distill?"), first in the answer.
        rows: The default rows.
        extra: Per paper (column order), more sentences the answer quotes, added to its citation
            (the head-to-head sentences of :mod:`rag.route.head_to_head`).
    """
    chosen = [select_rows(evidence, p, rows) for p in papers]
    keys = {r.key for r in rows}
    asked = [
        [tuple(sel[key]) for sel in chosen]
        if (key := a.row) in keys
        else [_aspect_cell(evidence, a, p) for p in papers]
        for a in aspects
    ]
    more = list(extra) + [()] * (len(papers) - len(extra))
    cites = tuple(
        cite(p, [*(e for evs in sel.values() for e in evs), *(e for row in asked for e in row[j]), *more[j]])
        for j, (p, sel) in enumerate(zip(papers, chosen, strict=True))
    )
    cells = tuple(tuple(sel[r.key] for sel in chosen) for r in rows)
    shown = tuple(a.heading or a.text for a in aspects)
    titles = tuple(a.title for a in aspects)
    return ComparisonTable(tuple(rows), cites, cells, shown, tuple(tuple(row) for row in asked), titles)


def _quote(evs: Sequence[Evidence]) -> str:
    return " ".join(f"“{strip_markup(e.sentence)}”" for e in evs)


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (no pipes, no line breaks)."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def table_markdown(table: ComparisonTable) -> str:
    """The default rows as a Markdown table: one row per aspect, one column per paper."""
    head = "| | " + " | ".join(_cell(f"{c.label} {format_marker(c.number)}") for c in table.papers) + " |"
    lines = [head, "|---|" + "---|" * len(table.papers)]
    for row, cells in zip(table.rows, table.cells, strict=True):
        parts = [
            _cell(_quote(evs) + f" {format_marker(c.number)}") if evs else f"_{NOT_STATED}_"
            for c, evs in zip(table.papers, cells, strict=True)
        ]
        lines.append(f"| **{_cell(row.title)}** | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def _key_terms(paper: Paper, idf: Callable[[str], float], k: int = 3) -> list[str]:
    """The ``k`` terms of the abstract with the highest tf-idf (its name, numbers and the words of
    its links excluded: "IST-DASLab" of a GitHub link is no term of the paper)."""
    own = {normalize(n) for n in (paper.label, *paper.aliases)}
    tf: dict[str, int] = {}
    for t in content_terms(without_links(paper.abstract)):
        if len(t) > 3 and not any(ch.isdigit() for ch in t) and t not in own:
            tf[t] = tf.get(t, 0) + 1
    return sorted(tf, key=lambda t: (-tf[t] * idf(t), t))[:k]


def _shared_terms(a: Paper, b: Paper, k: int = 4) -> list[str]:
    """Up to ``k`` coined terms and acronyms both abstracts state (``LLMs``, ``GSM8K``), sorted."""
    ea = {normalize(t): t for t in named_entities(a.abstract)}
    eb = {normalize(t) for t in named_entities(b.abstract)}
    return sorted(ea[t] for t in ea.keys() & eb)[:k]


def _names(cits: Sequence[Citation]) -> str:
    """``"A [1] and B [2]"``, ``"A [1], B [2] and C [3]"``."""
    named = [f"{c.label} {format_marker(c.number)}" for c in cits]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def comparison_text(table: ComparisonTable, papers: Sequence[Paper], idf: Callable[[str], float]) -> str:
    """The comparison as the page shows it: what was asked (per paper, quoted), a short paragraph
    (key terms, shared names, what only one abstract states), then the rows as a table.

    Two or more papers (columns in the order of ``table.papers``); the shared names are those of
    a pair only."""
    cits = table.papers
    markers = "".join(format_marker(c.number) for c in cits)
    lines = []
    if table.aspects:
        lines.append(f"{_names(cits)} on what the question asks:")
        titles = table.titles or table.aspects
        for title, cells in zip(titles, table.aspect_cells, strict=True):
            lines += ["", f"**{title}**"]
            for c, evs in zip(table.papers, cells, strict=True):
                lines.append(f"- {c.label} {format_marker(c.number)}: {_quote(evs) if evs else NOT_STATED}")
        lines.append("")
    sents = [f"{_names(cits)} compared row by row on sentences of their abstracts."]
    terms = [(c, _key_terms(p, idf)) for c, p in zip(table.papers, papers, strict=True)]
    if all(t for _, t in terms):
        sents.append(
            "Their key terms: "
            + "; ".join(f"{c.label} — {', '.join(t)} {format_marker(c.number)}" for c, t in terms)
            + "."
        )
    shared = _shared_terms(papers[0], papers[1]) if len(papers) == 2 else []
    if shared:
        sents.append(f"Both abstracts mention {', '.join(shared)} {markers}.")
    n = len(cits)
    stated = [[r.title.lower() for r, row in zip(table.rows, table.cells, strict=True) if row[j]] for j in range(n)]
    for j, c in enumerate(cits):
        only = [t for t in stated[j] if not any(t in stated[i] for i in range(n) if i != j)]
        if only:
            sents.append(f"Only {c.label} {format_marker(c.number)} states its {' and '.join(only)}.")
    missing = [r.title.lower() for r, row in zip(table.rows, table.cells, strict=True) if not any(row)]
    if missing:
        sents.append(f"{'Neither' if n == 2 else 'No'} abstract states {' or '.join(missing)} {markers}.")
    lines += [" ".join(sents), "", table_markdown(table)]
    return "\n".join(lines)


OVERALL = "the problem each addresses, what each proposes, and what each reports"
"""What a comparison's prose compares when the question asks no aspect (``Compare A and B``)."""

_OVERALL_ROWS = ("problem", "approach", "results")


def prose_sources(table: ComparisonTable, hits: Sequence[PaperHit]) -> tuple[list[Source], str]:
    """What the LLM writes a comparison's paragraph from: per paper (column order, numbered as
    cited), the sentences of its cells for the aspects asked, the first of each aspect first
    (:func:`rag.llm.prose.interleave`); when no abstract states an asked aspect (or for a paper
    that states none), the cells of its problem, approach and results rows, one of each first.
    And what the paragraph compares: the first aspect as the question words it, else :data:`OVERALL`.

    Args:
        table: The comparison (:func:`build_table`).
        hits: The compared papers, in column order.

    Returns:
        ``(sources, subject)``.
    """
    n = len(table.papers)
    rows = [i for i, r in enumerate(table.rows) if r.key in _OVERALL_ROWS]
    overall = [interleave([table.cells[i][j] for i in rows]) for j in range(n)]
    asked = [cells for cells in table.aspect_cells if any(cells)]
    if asked:  # a paper that states none of it is shown by what it does
        per = [interleave([cells[j] for cells in asked]) or overall[j] for j in range(n)]
        subject = table.aspects[0]
    else:
        per, subject = overall, OVERALL
    sources = [Source(c.number, h, evs) for c, h, evs in zip(table.papers, hits, per, strict=True)]
    return sources, subject


UNSTATED_ASPECT = "its abstract does not state it"
"""What a comparison's lead says of a paper whose abstract states nothing for the aspect asked."""


def compare_lead(
    labels: Sequence[tuple[str, int]],
    cells: Sequence[Sequence[Evidence]],
    *,
    aspect: bool = False,
    slot: Slot | None = None,
) -> str:
    """``**A** [1] and **B** [2] compared: A — “…”; B — “…”`` with the key clause of each paper's
    cell (the first sentence of the first asked aspect, else of the approach row).

    Args:
        labels: ``(label, marker number)`` per paper, in column order.
        cells: Per paper, the sentences of its cell (``()``: its abstract states nothing for it).
        aspect: The cells answer an aspect the question asked ("the data they use"): a paper whose
            cell is empty is said not to state it (:data:`UNSTATED_ASPECT`); else (approach cells)
            only the names are given when a paper's cell is empty.
        slot: The slot the asked aspect asks (:attr:`rag.types.Ask.slot`): each cell is quoted at
            the clause that states it (:func:`rag.route.slot.slot_span`); for a size, a last
            sentence says which paper states the larger (:func:`size_verdict`).
    """
    named = [f"**{label}** {format_marker(n)}" for label, n in labels]
    names = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]

    def clause(sentence: str) -> tuple[int, int, bool]:
        return (slot_span(slot, sentence) if slot is not None else None) or key_clause(sentence)

    parts = [
        f"{label} — {quoted(evs[0].sentence, clause(evs[0].sentence))}" if evs
        else f"{label} — {UNSTATED_ASPECT}" if aspect else ""
        for (label, _), evs in zip(labels, cells, strict=True)
    ]
    lead = f"{names} compared" + (": " + "; ".join(parts) if all(parts) else ".")
    sized = aspect and slot is not None and slot.form in SIZE_FORMS
    verdict = size_verdict(labels, cells, smaller=slot.smaller) if sized and slot is not None else ""
    return f"{lead}\n\n{verdict}" if verdict else lead


SIZE_FORMS = frozenset({SIZE, "model size"})
"""Slot forms whose cells a comparison can rank by the sizes they state (:func:`size_verdict`)."""


def size_verdict(
    labels: Sequence[tuple[str, int]], cells: Sequence[Sequence[Evidence]], *, smaller: bool = False
) -> str:
    """Which compared paper states the larger model, by the greatest model size each cell's
    sentence states (:func:`rag.route.slot.greatest_size`, in parameters), naming the papers whose
    cell states none: "By the sizes their abstracts state, GLaM [1] is the larger (1.2 trillion
    parameters against 562B)."; over three or more, "the largest", and "; FlexRound [3] states no
    model size" after it; with one size stated, that the abstracts cannot rank them ("Only GLaM [1]
    states a model size (1.2 trillion parameters); PaLM-E [2] states none, so the abstracts do not
    say which is the larger."); with none stated, that none is ("None of the two abstracts states a
    model size."). ``""`` when the two greatest sizes are equal.

    Args:
        labels: ``(label, marker number)`` per paper, in column order.
        cells: Per paper, the sentences of its cell for the size asked.
        smaller: The question asks for the smaller: "..., PaLM-E [2] is the smaller (562B against
            1.2 trillion parameters)."
    """
    sized, unsized = [], []
    for (label, n), evs in zip(labels, cells, strict=True):
        size = max((greatest_size(e.sentence) for e in evs), default=0.0)
        if size <= 0:
            unsized.append(f"{label} {format_marker(n)}")
            continue
        stated = [m.group(0) for e in evs for m in MODEL_SIZE.finditer(strip_markup(e.sentence))]
        said = max(stated, key=greatest_size) if stated else ""
        sized.append((size, f"{label} {format_marker(n)}", said.strip()))
    if not sized:
        return f"None of {'the two' if len(labels) == 2 else f'the {len(labels)}'} abstracts states a model size."
    which = ("smaller" if smaller else "larger") if len(labels) <= 2 else ("smallest" if smaller else "largest")
    none = " and ".join(unsized) if len(unsized) <= 2 else ", ".join(unsized[:-1]) + " and " + unsized[-1]
    if len(sized) == 1:
        _, name, said = sized[0]
        verb = "states" if len(unsized) == 1 else "state"
        return (f"Only {name} states a model size ({said}); {none} {verb} none, so the abstracts do not say "
                f"which is the {which}.")
    ranked = sorted(sized, key=lambda t: t[0] if smaller else -t[0])
    if ranked[0][0] == ranked[1][0]:
        return ""
    rest = f"; {none} state{'s' if len(unsized) == 1 else ''} no model size" if unsized else ""
    head = f"By the sizes their abstracts state, {ranked[0][1]} is the {which}"
    if len(sized) == 2:
        return f"{head} ({ranked[0][2]} against {ranked[1][2]}){rest}."
    # three or more sizes, each with its paper, in rank order
    others = ", ".join(f"{name} ({said})" for _, name, said in ranked[1:])
    return f"{head} ({ranked[0][2]}), followed by {others}{rest}."


def year_lead(labels: Sequence[tuple[str, int]], papers: Sequence[Paper], *, older: bool = True) -> str:
    """The lead of a choice by age ("which of the two is older?"), from the years the records give
    (abstracts state no dates): "**A** [1] and **B** [2] compared by the years their records give:
    B [2] (2022) is the older; A [1]: 2023."; when they share a year, that the records give no
    finer date. ``""`` when a paper's record has no year.

    Args:
        labels: ``(label, marker number)`` per paper, in column order.
        papers: The compared papers, in the same order.
        older: The question asks for the older (else the more recent).
    """
    if not papers or any(not p.year for p in papers):
        return ""
    named = [f"**{label}** {format_marker(n)}" for label, n in labels]
    names = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    head = f"{names} compared by the years their records give"
    dated = sorted(zip(papers, labels, strict=True), key=lambda t: (t[0].year or 0) * (1 if older else -1))
    (first, (label, n)), rest = dated[0], dated[1:]
    tied = [(p, lb) for p, lb in dated if p.year == first.year]
    if len(tied) > 1 and len(tied) < len(dated):
        # "which one is the newest?" over a list: the papers of the extreme year, which the records
        # cannot tell apart, then the others
        which = ("oldest" if older else "most recent") if len(dated) > 2 else ("older" if older else "more recent")
        top = " and ".join(f"{lb} {format_marker(k)}" for _, (lb, k) in tied)
        others = "; ".join(f"{lb} {format_marker(k)}: {p.year}" for p, (lb, k) in dated[len(tied):])
        return (f"{head}: {top} ({first.year}) are the {which}, and the records give no finer date to tell "
                f"them apart; {others}. The abstracts state no dates.")
    if len(tied) > 1:
        years = "; ".join(f"{lb} {format_marker(k)}: {p.year}" for p, (lb, k) in dated)
        return f"{head} ({years}); the records give no finer date, and the abstracts state none."
    others = "; ".join(f"{lb} {format_marker(k)}: {p.year}" for p, (lb, k) in rest)
    which = ("older" if older else "more recent") if len(dated) <= 2 else ("oldest" if older else "most recent")
    return f"{head}: {label} {format_marker(n)} ({first.year}) is the {which}; {others}. The abstracts state no dates."
