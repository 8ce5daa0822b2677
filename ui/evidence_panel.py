"""The evidence panel: HTML of the papers an answer cites, each abstract quoted exactly as stored
with its evidence sentences highlighted by their character spans (``abstract[start:end]``).

Pure functions of domain objects; nothing here imports Gradio (``tests/test_ui_format.py``).
Each source is the element ``#src-n`` that the chat's marker ``[n]`` links to (:mod:`ui.chat`).
Abstract text is shown as :func:`ui.display.display_html` shows it (LaTeX markup as text, URLs as
links); the spans stay offsets into the stored abstract.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

from rag.types import Citation
from store.papers import Paper
from ui.display import display_html, display_text, full_url

__all__ = ["EMPTY_PANEL", "display_text", "evidence_panel", "full_url", "highlight_abstract"]

EMPTY_PANEL = (
    '<div class="pc-evidence pc-empty"><p><b>Evidence</b></p>'
    "<p>Ask a question: the papers an answer cites appear here, with the sentences it "
    "relies on highlighted in each abstract.</p></div>"
)

def highlight_abstract(abstract: str, spans: Iterable[tuple[int, int]], *, tagged: bool = False) -> str:
    """The abstract as HTML with each span wrapped in ``<mark>``.

    Spans are character offsets ``(start, end)`` into ``abstract`` (end exclusive);
    overlapping or touching spans are merged, spans are clipped to the text, empty ones
    ignored. Each piece is shown with :func:`ui.display.display_html` (escaped, URLs as links). With ``tagged``,
    each mark sits in ``<span class="pc-span" data-span="start-end">`` (the merged offsets), so
    the page can find the sentence of a table cell by its span.
    """
    clipped = sorted((max(0, s), min(len(abstract), e)) for s, e in spans if min(len(abstract), e) > max(0, s))
    merged: list[list[int]] = []
    for s, e in clipped:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out, pos = [], 0
    for s, e in merged:
        out.append(display_html(abstract[pos:s]))
        mark = f"<mark>{display_html(abstract[s:e])}</mark>"
        out.append(f'<span class="pc-span" data-span="{s}-{e}">{mark}</span>' if tagged else mark)
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


def evidence_panel(
    citations: Sequence[Citation],
    papers: Mapping[str, Paper],
    *,
    earlier: Sequence[Citation] = (),
    note: str = "",
) -> str:
    """HTML of the evidence panel for the current answer.

    One ``<section id="src-n" data-paper-id=...>`` per cited paper (in the answer's order):
    number, label, id, link when the paper has a URL, authors/year when known, and the
    abstract with the evidence sentences highlighted. Papers cited earlier in the
    conversation but not now are listed briefly (``id="src-n"`` too), so every marker of
    the chat has a target.

    Args:
        citations: The current answer's citations (conversation numbers).
        papers: Paper records by id (for abstracts).
        earlier: Other citations of the conversation.
        note: A line shown above the sources (e.g. a refusal reason).
    """
    parts = ['<div class="pc-evidence">']
    if note:
        parts.append(f'<p class="pc-note">{html.escape(note)}</p>')
    if citations:
        n = len(citations)
        parts.append(f'<p class="pc-head"><b>Sources of this answer</b> ({n} paper{"s" if n != 1 else ""})</p>')
    elif not note:
        parts.append('<p class="pc-head">No sources: this answer cites no paper.</p>')
    for c in citations:
        paper = papers.get(c.paper_id)
        spans = [(e.start, e.end) for e in c.evidence]
        abstract = (
            highlight_abstract(paper.abstract, spans, tagged=True)
            if paper
            else html.escape(" ".join(display_text(e.sentence) for e in c.evidence))
        )
        parts.append(
            f'<section class="pc-src" id="src-{c.number}" data-paper-id="{html.escape(c.paper_id, quote=True)}" '
            f'data-number="{c.number}">'
            f'<h4><span class="pc-num">[{c.number}]</span> {html.escape(display_text(c.label))}</h4>'
            f'<div class="pc-meta">{_meta_line(c, paper)}</div>'
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
    parts.append("</div>")
    return "".join(parts)
