"""Exports of a conversation: Markdown of one answer or of the whole conversation (answer text,
quoted evidence, references) and BibTeX of the cited papers.

Pure functions of domain objects; nothing here imports Gradio (``tests/test_ui_format.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from rag.route.conversation import Turn
from rag.types import Citation
from store.papers import Paper, strip_markup
from ui.chat import turn_text
from ui.evidence_panel import full_url

__all__ = ["answer_markdown", "bibtex", "bibtex_key", "conversation_markdown", "references_markdown"]


def _reference_line(c: Citation, paper: Paper | None) -> str:
    bits = [f"[{c.number}] {strip_markup(c.label)}", f"paper id `{c.paper_id}`"]
    authors = c.authors or (paper.author_line if paper else "")
    year = c.year or (paper.year if paper else None)
    if authors:
        bits.append(authors)
    if year:
        bits.append(str(year))
    url = full_url(c.url)
    if url:
        bits.append(f"<{url}>")
    return ". ".join(b.rstrip(".") for b in bits) + "."


def references_markdown(citations: Iterable[Citation], papers: Mapping[str, Paper]) -> str:
    """A ``## References`` section: one line per cited paper, by number."""
    lines = ["## References", ""]
    for c in sorted({c.number: c for c in citations}.values(), key=lambda c: c.number):
        lines.append(f"- {_reference_line(c, papers.get(c.paper_id))}")
    return "\n".join(lines)


def _evidence_markdown(citations: Iterable[Citation]) -> str:
    lines = ["### Evidence", ""]
    for c in sorted(citations, key=lambda c: c.number):
        for e in c.evidence:
            lines.append(
                f"- [{c.number}] {strip_markup(c.label)}: “{strip_markup(e.sentence)}” (characters {e.start}–{e.end})"
            )
    return "\n".join(lines)


def _turn_section(turn: Turn, heading: str) -> list[str]:
    lines = [heading, ""]
    if turn.rewritten:
        lines += [f"_Interpreted as: {turn.interpreted}_", ""]
    lines += [turn_text(turn), ""]
    if turn.citations:
        lines += [_evidence_markdown(turn.citations), ""]
    return lines


def answer_markdown(turn: Turn, papers: Mapping[str, Paper], *, now: datetime | None = None) -> str:
    """Markdown of one answer: question, answer (markers ``[n]``), evidence, references."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# {turn.question.strip() or 'Question'}",
        "",
        f"_Exported from paperchat on {stamp}; backend: {turn.answer.backend}._",
        "",
    ]
    lines += _turn_section(turn, "## Answer")
    if turn.citations:
        lines.append(references_markdown(turn.citations, papers))
    return "\n".join(lines).rstrip() + "\n"


def conversation_markdown(
    turns: Sequence[Turn],
    references: Mapping[int, Citation],
    papers: Mapping[str, Paper],
    *,
    now: datetime | None = None,
) -> str:
    """Markdown of the whole conversation with one reference list (conversation numbers)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# paperchat conversation",
        "",
        f"_Exported on {stamp}; {len(turns)} question{'s' if len(turns) != 1 else ''}._",
        "",
    ]
    for i, t in enumerate(turns, start=1):
        lines += _turn_section(t, f"## {i}. {t.question.strip()}")
    if references:
        lines.append(references_markdown(references.values(), papers))
    return "\n".join(lines).rstrip() + "\n"


def bibtex_key(paper_id: str) -> str:
    """A BibTeX key from a paper id: runs of other characters become ``_``.

    >>> bibtex_key("000_6b930c46f6674b66#1")
    '000_6b930c46f6674b66_1'
    """
    key = re.sub(r"[^A-Za-z0-9:-]+", "_", paper_id).strip("_")
    return key or "paper"


_BIB_SPECIAL = re.compile(r"([&%$#_{}])")


def _bib_text(text: str) -> str:
    """Plain text safe in a braced BibTeX field (LaTeX specials escaped)."""
    text = strip_markup(text).replace("\\", "")
    text = _BIB_SPECIAL.sub(r"\\\1", text)
    return re.sub(r"\s+", " ", text).strip()


def bibtex(citations: Iterable[Citation], papers: Mapping[str, Paper]) -> str:
    """``@misc`` entries of the cited papers (one per paper, by citation number).

    Fields: ``title`` (title, else label), ``author``/``year`` when known,
    ``note = {Paper id: <id>}``, ``howpublished = {\\url{<url>}}`` when the paper has a URL.
    """
    entries = []
    seen: set[str] = set()
    for c in sorted(citations, key=lambda c: c.number):
        if c.paper_id in seen:
            continue
        seen.add(c.paper_id)
        p = papers.get(c.paper_id)
        title = (p.title if p and p.title else c.label).rstrip("…").strip()
        fields = [("title", "{" + _bib_text(title) + "}")]
        if p and p.authors:
            fields.append(("author", " and ".join(_bib_text(a) for a in p.authors)))
        year = c.year or (p.year if p else None)
        if year:
            fields.append(("year", str(year)))
        fields.append(("note", f"Paper id: {_bib_text(c.paper_id)}"))
        url = full_url(c.url or (p.url if p else ""))
        if url:
            fields.append(("howpublished", "\\url{" + url.replace("%", "\\%").replace("#", "\\#") + "}"))
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
        entries.append(f"@misc{{{bibtex_key(c.paper_id)},\n{body}\n}}")
    return "\n\n".join(entries) + ("\n" if entries else "")
