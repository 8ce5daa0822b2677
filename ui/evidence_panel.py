"""The evidence panel: HTML of the papers an answer cites, each abstract quoted exactly as stored
with its evidence sentences highlighted by their character spans (``abstract[start:end]``).

Pure functions of domain objects; nothing here imports Gradio (``tests/test_ui_format.py``).
Each source is the element ``#src-n`` that the chat's marker ``[n]`` links to (:mod:`ui.chat`).
Abstract text is shown as :func:`ui.display.display_html` shows it (LaTeX markup as text, URLs as
links); the spans stay offsets into the stored abstract.

A table's sentences can be marked apart (:class:`Marks`): each labelled with the row or column
whose cell quotes it, and a comparison's sentences that only its table quotes shown without the
highlight, so that the highlight picks out what the answer's text quotes rather than half of
every abstract. Clicking a cell highlights its own sentences (the page's script, :mod:`ui.page`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rag.types import Citation
from store.papers import Paper
from ui.display import display_html, display_text, full_url

__all__ = [
    "EMPTY_PANEL",
    "MORE_LIKE",
    "Marks",
    "copy_sources",
    "display_text",
    "evidence_panel",
    "full_url",
    "highlight_abstract",
]

EMPTY_PANEL = (
    '<div class="pc-evidence pc-empty"><p><b>Evidence</b></p>'
    "<p>Ask a question: the papers an answer cites appear here, with the sentences it "
    "relies on highlighted in each abstract.</p></div>"
)

MORE_LIKE = "More papers like [{n}]"
"""The message a source's "More like this" asks in the chat (the page's script types it, :mod:`ui.page`):
read as a request for the papers like the paper cited ``[n]`` (:class:`rag.question.plan.SimilarPlan`)."""


def more_like(number: int) -> str:
    """A source's "More like this" link: ``<a class="pc-more" data-ask="More papers like [n]">``."""
    ask = html.escape(MORE_LIKE.format(n=number), quote=True)
    return f'<a class="pc-more" href="#pc-more-{number}" data-ask="{ask}" title="{ask}">More like this</a>'


@dataclass(frozen=True)
class Marks:
    """How the panel marks a table's sentences (a comparison's, or a table's across papers).

    Attributes:
        labels: Per sentence ``(paper id, start, end)``, the rows or columns whose cells quote it
            (``"Problem"``, ``"Data / benchmarks · Key results"``), shown before it.
        plain: Sentences shown without the highlight (only the table quotes them); still labelled,
            and highlighted when their cell is clicked.
        legend: One line above the sources saying what the marks mean.
    """

    labels: Mapping[tuple[str, int, int], str] = field(default_factory=dict)
    plain: frozenset[tuple[str, int, int]] = frozenset()
    legend: str = ""


def highlight_abstract(
    abstract: str,
    spans: Iterable[tuple[int, int]],
    *,
    tagged: bool = False,
    labels: Mapping[tuple[int, int], str] | None = None,
    plain: Iterable[tuple[int, int]] = (),
) -> str:
    """The abstract as HTML with each span wrapped in ``<mark>``.

    Spans are character offsets ``(start, end)`` into ``abstract`` (end exclusive);
    overlapping or touching spans are merged, spans are clipped to the text, empty ones
    ignored. Each piece is shown with :func:`ui.display.display_html` (escaped, URLs as links).
    With ``tagged``, each mark sits in ``<span class="pc-span" data-span="start-end">`` (the merged
    offsets), so the page can find the sentence of a table cell by its span.

    Args:
        abstract: The stored abstract.
        spans: Character spans to mark.
        tagged: Wrap each mark in its ``pc-span`` element (see above).
        labels: Per span (as given), what it is quoted as (a row or column title), shown before
            it as ``data-label`` (the page's stylesheet draws it; the text is unchanged); a run of
            spans with the same label shows it once. Implies ``tagged``.
        plain: Spans (as given) shown without the highlight: ``<span class="pc-plain">`` in place
            of ``<mark>``; a merged span is plain only when all its spans are. Implies ``tagged``.
    """
    labels = labels or {}
    quiet = set(plain)
    tagged = tagged or bool(labels) or bool(quiet)
    clipped = sorted(
        (max(0, s), min(len(abstract), e), (s, e)) for s, e in spans if min(len(abstract), e) > max(0, s)
    )
    merged: list[tuple[int, int, list[tuple[int, int]]]] = []
    for s, e, given in clipped:
        if merged and s <= merged[-1][1]:
            ms, me, members = merged[-1]
            merged[-1] = (ms, max(me, e), [*members, given])
        else:
            merged.append((s, e, [given]))
    out, pos, last_label = [], 0, ""
    for s, e, members in merged:
        gap = abstract[pos:s]
        out.append(display_html(gap))
        label = " · ".join(dict.fromkeys(x for m in members for x in labels.get(m, "").split(" · ") if x))
        shown = label if label and (label != last_label or gap.strip()) else ""
        last_label = label
        text = display_html(abstract[s:e])
        is_plain = all(m in quiet for m in members)
        mark = f'<span class="pc-plain">{text}</span>' if is_plain else f"<mark>{text}</mark>"
        if tagged:
            attr = f' data-label="{html.escape(shown, quote=True)}"' if shown else ""
            out.append(f'<span class="pc-span" data-span="{s}-{e}"{attr}>{mark}</span>')
        else:
            out.append(mark)
        pos = e
    out.append(display_html(abstract[pos:]))
    return "".join(out)


def _meta_line(c: Citation, paper: Paper | None) -> str:
    parts = [f"<code>{html.escape(c.paper_id)}</code>"]
    url = full_url(c.url or (paper.url if paper else ""))
    if url:
        shown = url.split("://", 1)[-1] if url.startswith(("http://", "https://")) else url
        href = html.escape(url, quote=True)
        parts.append(f'<a href="{href}" target="_blank" rel="noopener noreferrer">{html.escape(shown)}</a>')
    authors = c.authors or (paper.author_line if paper else "")
    year = c.year or (paper.year if paper else None)
    if authors or year:
        parts.append(html.escape(" ".join(p for p in (authors, f"({year})" if year else "") if p)))
    return " · ".join(parts)


def copy_sources(tables: Iterable[tuple[int, str, str]]) -> str:
    """Hidden blocks holding the text the chat's copy links copy (:func:`ui.chat.copy_links`).

    Args:
        tables: ``(key, Markdown, CSV)`` per table of the conversation (the key is its turn's
            number, from 1).

    Returns:
        ``<div class="pc-copies" hidden>`` with one ``<pre data-copy="md-k">`` and one
        ``<pre data-copy="csv-k">`` per table (text escaped; the script reads ``textContent``);
        ``""`` for no table.
    """
    blocks = [
        f'<pre data-copy="{kind}-{key}">{html.escape(text)}</pre>'
        for key, md, csv_text in tables
        for kind, text in (("md", md), ("csv", csv_text))
    ]
    return f'<div class="pc-copies" hidden>{"".join(blocks)}</div>' if blocks else ""


def evidence_panel(
    citations: Sequence[Citation],
    papers: Mapping[str, Paper],
    *,
    earlier: Sequence[Citation] = (),
    note: str = "",
    marks: Marks | None = None,
    copies: Iterable[tuple[int, str, str]] = (),
) -> str:
    """HTML of the evidence panel for the current answer.

    One ``<section id="src-n" data-paper-id=...>`` per cited paper (in the answer's order):
    number, label, id, link when the paper has a URL, authors/year when known, a "More like
    this" link (:func:`more_like`), and the abstract with the evidence sentences highlighted.
    Papers cited earlier in the conversation but not now are listed briefly (``id="src-n"`` too), so every marker of
    the chat has a target.

    Args:
        citations: The current answer's citations (conversation numbers).
        papers: Paper records by id (for abstracts).
        earlier: Other citations of the conversation.
        note: A line shown above the sources (e.g. a refusal reason).
        marks: How a table's sentences are marked (labels, sentences shown without the
            highlight, a legend); ``None``: every evidence sentence highlighted.
        copies: The conversation's tables as text for the chat's copy links (:func:`copy_sources`).
    """
    parts = ['<div class="pc-evidence">']
    if note:
        parts.append(f'<p class="pc-note">{html.escape(note)}</p>')
    if citations:
        n = len(citations)
        parts.append(f'<p class="pc-head"><b>Sources of this answer</b> ({n} paper{"s" if n != 1 else ""})</p>')
    elif not note:
        parts.append('<p class="pc-head">No sources: this answer cites no paper.</p>')
    if citations and marks is not None and marks.legend:
        parts.append(f'<p class="pc-legend">{html.escape(marks.legend)}</p>')
    for c in citations:
        paper = papers.get(c.paper_id)
        spans = [(e.start, e.end) for e in c.evidence]
        labels: dict[tuple[int, int], str] = {}
        plain: list[tuple[int, int]] = []
        marked = marks or Marks()
        for e in c.evidence:
            key = (c.paper_id, e.start, e.end)
            if key in marked.labels:
                labels[(e.start, e.end)] = marked.labels[key]
            if key in marked.plain:
                plain.append((e.start, e.end))
        abstract = (
            highlight_abstract(paper.abstract, spans, tagged=True, labels=labels, plain=plain)
            if paper
            else html.escape(" ".join(display_text(e.sentence) for e in c.evidence))
        )
        parts.append(
            f'<section class="pc-src" id="src-{c.number}" data-paper-id="{html.escape(c.paper_id, quote=True)}" '
            f'data-number="{c.number}">'
            f'<h4><span class="pc-num">[{c.number}]</span> {html.escape(display_text(c.label))}</h4>'
            f'<div class="pc-meta">{_meta_line(c, paper)} · {more_like(c.number)}</div>'
            f'<p class="pc-abstract">{abstract}</p></section>'
        )
    shown = {c.number for c in citations}
    rest = [c for c in earlier if c.number not in shown]
    if rest:
        parts.append(
            f'<details class="pc-earlier"><summary>Earlier sources in this conversation ({len(rest)})</summary><ul>'
        )
        for c in sorted(rest, key=lambda c: c.number):
            parts.append(
                f'<li id="src-{c.number}" data-paper-id="{html.escape(c.paper_id, quote=True)}">'
                f"[{c.number}] {html.escape(display_text(c.label))} — <code>{html.escape(c.paper_id)}</code></li>"
            )
        parts.append("</ul></details>")
    parts.append(copy_sources(copies))
    parts.append("</div>")
    return "".join(parts)
