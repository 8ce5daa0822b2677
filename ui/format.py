"""Pure formatters: domain objects (turns, answers, citations, papers) in, Markdown/HTML/BibTeX out.

Nothing here imports Gradio or touches state, so every function is unit-tested on its own
(``tests/test_ui_format.py``). The Gradio shell (:mod:`ui.app`) only calls these.

Conventions:

* a citation marker ``[n]`` is linked to the evidence panel's element ``#src-n``;
* the evidence panel quotes the abstract exactly as stored and highlights the evidence
  sentences by their character spans (``abstract[start:end]``);
* the chat renders LaTeX between ``$$...$$``, ``\\(...\\)`` and ``$...$`` (see
  :data:`LATEX_DELIMITERS`); a ``$`` that does not open or close math (``$5 per token``)
  is replaced by :data:`DOLLAR` so it is shown as a dollar sign, never as math.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone

from rag.citations import MARKER
from rag.compare import ComparisonTable, table_markdown
from rag.conversation import Turn
from rag.types import Answer, Citation
from store.guard import math_spans
from store.papers import Paper, strip_markup

__all__ = [
    "DOLLAR",
    "EMPTY_PANEL",
    "LATEX_DELIMITERS",
    "answer_markdown",
    "bibtex",
    "bibtex_key",
    "chat_markdown",
    "comparison_markdown",
    "conversation_markdown",
    "display_text",
    "escape_dollars",
    "evidence_panel",
    "full_url",
    "highlight_abstract",
    "history_messages",
    "link_markers",
    "preview",
    "references_markdown",
    "status_line",
    "streaming_markdown",
    "turn_text",
]

LATEX_DELIMITERS: list[dict[str, str | bool]] = [
    {"left": "$$", "right": "$$", "display": True},
    {"left": "\\(", "right": "\\)", "display": False},
    {"left": "$", "right": "$", "display": False},
]
"""Math delimiters of the chat (``gr.Chatbot(latex_delimiters=...)``), display math first."""

DOLLAR = '<span class="pc-dollar">&#36;</span>'
"""A literal dollar sign in chat Markdown.

The chat's math renderer (KaTeX auto-render) pairs ``$`` characters of the raw message
and of each DOM text node; an entity inside its own element is neither, so it can never
open or close math."""

EMPTY_PANEL = (
    '<div class="pc-evidence pc-empty"><p><b>Evidence</b></p>'
    "<p>Ask a question: the papers an answer cites appear here, with the sentences it "
    "relies on highlighted in each abstract.</p></div>"
)

# --- dollars and math ------------------------------------------------------------------

_CURRENCY = re.compile(
    r"\$\d[\d,]*(?:\.\d+)?(?:\s?(?:[kKmMbB]n?|million|billion|thousand|trillion|USD))?(?![\w$^_{}\\])"
)


def _closing_dollar(text: str, i: int) -> int | None:
    """Index of the ``$`` that closes inline math opened at ``i``, or ``None``.

    Pandoc's rule: the opening ``$`` has a non-space character right after it, the closing
    one a non-space character right before it and no digit right after it; math does not
    cross a blank line.
    """
    if i + 1 >= len(text) or text[i + 1].isspace() or text[i + 1] == "$":
        return None
    limit = text.find("\n\n", i)
    limit = len(text) if limit < 0 else limit
    k = i + 1
    while k < limit:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "$":
            if text[k - 1].isspace() or (k + 1 < len(text) and text[k + 1].isdigit()):
                return None
            return k
        k += 1
    return None


def escape_dollars(text: str) -> str:
    """Keep ``$`` only where it delimits math; replace every other ``$`` by :data:`DOLLAR`.

    * ``$$...$$`` (display math) is kept;
    * ``$`` followed by an amount (``$5``, ``$0.5``, ``$2,000``, ``$5M``, ``$3 million``) is a
      currency sign;
    * ``$...$`` is kept when it is math by Pandoc's rule (see :func:`_closing_dollar`):
      ``$O(n^2)$``, ``65$\\times$``, ``$2n$``;
    * a TeX-escaped ``\\$`` and any unpaired ``$`` are literal dollars.

    Examples:
        >>> escape_dollars("$5 per token") == DOLLAR + "5 per token"
        True
        >>> escape_dollars("costs $O(n^2)$")
        'costs $O(n^2)$'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            out.append(DOLLAR if text[i + 1] == "$" else text[i : i + 2])
            i += 2
            continue
        if ch != "$":
            out.append(ch)
            i += 1
            continue
        if text.startswith("$$", i):
            j = text.find("$$", i + 2)
            if j > i + 2:
                out.append(text[i : j + 2])
                i = j + 2
            else:
                out.append(DOLLAR * 2)
                i += 2
            continue
        if _CURRENCY.match(text, i):
            out.append(DOLLAR)
            i += 1
            continue
        j = _closing_dollar(text, i)
        if j is None:
            out.append(DOLLAR)
            i += 1
        else:
            out.append(text[i : j + 1])
            i = j + 1
    return "".join(out)


_SIMPLE_MATH = {
    r"\times": "×", r"\sim": "∼", r"\approx": "≈", r"\leq": "≤", r"\le": "≤", r"\geq": "≥", r"\ge": "≥",
    r"\pm": "±", r"\rightarrow": "→", r"\to": "→", r"\cdot": "·", r"\infty": "∞", r"\alpha": "α",
    r"\beta": "β", r"\gamma": "γ", r"\delta": "δ", r"\epsilon": "ε", r"\varepsilon": "ε", r"\lambda": "λ",
    r"\mu": "μ", r"\sigma": "σ", r"\theta": "θ", r"\%": "%", r"\uparrow": "↑", r"\downarrow": "↓",
}  # fmt: skip
_MATH_SPAN = re.compile(r"\$([^$\n]{1,80})\$")


def display_text(text: str) -> str:
    """Plain text for the HTML panel: LaTeX/Markdown emphasis dropped, simple math as Unicode.

    ``65$\\times$`` -> ``65×``; ``\\textbf{DANCE}`` -> ``DANCE``; math that is not a single
    simple symbol (``$\\tilde O(\\varepsilon^{-1})$``) is kept as written.
    """

    def math(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        for cmd in sorted(_SIMPLE_MATH, key=len, reverse=True):
            inner = re.sub(re.escape(cmd) + r"(?![A-Za-z])", _SIMPLE_MATH[cmd], inner)
        inner = re.sub(r"\\(?:mathrm|text|mathbf)\{([^{}]*)\}", r"\1", inner)
        return inner if not re.search(r"[\\^_{}]", inner) else m.group(0)

    return _MATH_SPAN.sub(math, strip_markup(text))


# --- markers ---------------------------------------------------------------------------


def link_markers(text: str) -> str:
    """Turn each citation marker into a Markdown link to the evidence panel.

    ``[2]`` -> ``[\\[2\\]](#src-2)``; a group ``[1, 3]`` becomes two adjacent links. Brackets
    inside ``$...$`` math (``$x \\in [0,1]$``) are intervals, never linked.
    """

    def sub(m: re.Match[str]) -> str:
        return "".join(f"[\\[{int(p)}\\]](#src-{int(p)})" for p in m.group(1).split(","))

    out, pos = [], 0
    for start, end in math_spans(text):
        out += [MARKER.sub(sub, text[pos:start]), text[start:end]]
        pos = end
    out.append(MARKER.sub(sub, text[pos:]))
    return "".join(out)


def _chat_text(text: str) -> str:
    return escape_dollars(link_markers(text))


# --- chat messages ---------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (no pipes, no line breaks)."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def comparison_markdown(table: ComparisonTable) -> str:
    """The comparison's default rows as a Markdown table (see :func:`rag.compare.table_markdown`)."""
    return table_markdown(table)


def turn_text(turn: Turn) -> str:
    """The turn's answer as Markdown with plain ``[n]`` markers: exactly the text the route
    produced (a comparison's text holds its table), which chat, exports and ``eval`` share."""
    return turn.answer.text


def chat_markdown(turn: Turn) -> str:
    """The assistant message of a turn: linked markers, literal dollars, the rewrite shown."""
    body = _chat_text(turn_text(turn))
    if turn.rewritten:
        body = f"_Interpreted as: “{escape_dollars(turn.standalone)}”_\n\n{body}"
    return body


def streaming_markdown(partial: str) -> str:
    """LLM prose while it streams: markers dropped (they are renumbered and checked at the end)."""
    text = MARKER.sub("", partial)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return escape_dollars(text) + " ▌"


def preview(text: str, max_chars: int | None) -> str:
    """``text``, or its first ``max_chars`` characters (at a word when one is near) and how long it is.

    >>> preview("one two three four", 9)
    'one two … (18 characters)'
    """
    if max_chars is None or len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    space = cut.rfind(" ")
    cut = cut[:space] if space >= max_chars // 2 else cut
    return f"{cut.rstrip()} … ({len(text):,} characters)"


def history_messages(
    turns: Sequence[Turn],
    *,
    pending: str | None = None,
    partial: str | None = None,
    preview_chars: int | None = None,
) -> list[dict[str, str]]:
    """Chatbot messages (``{"role", "content"}``) for the turns, plus a question in progress.

    Args:
        turns: Finished turns.
        pending: A question being answered (shown as the last user message).
        partial: What the assistant has written so far for ``pending`` (``None``: nothing yet).
        preview_chars: Most characters of a user message shown (``input.preview_chars``); a
            longer one is cut (:func:`preview`). ``None``: shown whole.
    """
    msgs: list[dict[str, str]] = []
    for t in turns:
        msgs.append({"role": "user", "content": escape_dollars(preview(t.question, preview_chars))})
        msgs.append({"role": "assistant", "content": chat_markdown(t)})
    if pending is not None:
        msgs.append({"role": "user", "content": escape_dollars(preview(pending, preview_chars))})
        msgs.append(
            {"role": "assistant", "content": streaming_markdown(partial) if partial else "_Searching the abstracts…_"}
        )
    return msgs


# --- evidence panel --------------------------------------------------------------------


def full_url(url: str) -> str:
    """A URL with a scheme (``project-x.github.io`` -> ``https://project-x.github.io``)."""
    url = url.strip()
    if not url:
        return ""
    return url if re.match(r"^[a-z][a-z0-9+.-]*://", url, re.I) else f"https://{url}"


def highlight_abstract(abstract: str, spans: Iterable[tuple[int, int]]) -> str:
    """The abstract as HTML with each span wrapped in ``<mark>``.

    Spans are character offsets ``(start, end)`` into ``abstract`` (end exclusive);
    overlapping or touching spans are merged, spans are clipped to the text, empty ones
    ignored. Each piece is shown with :func:`display_text` and HTML-escaped.
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
        out.append(html.escape(display_text(abstract[pos:s])))
        out.append(f"<mark>{html.escape(display_text(abstract[s:e]))}</mark>")
        pos = e
    out.append(html.escape(display_text(abstract[pos:])))
    return "".join(out)


def _meta_line(c: Citation, paper: Paper | None) -> str:
    parts = [f"<code>{html.escape(c.paper_id)}</code>"]
    url = full_url(c.url or (paper.url if paper else ""))
    if url:
        shown = re.sub(r"^https?://", "", url)
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
            highlight_abstract(paper.abstract, spans)
            if paper
            else html.escape(" ".join(e.sentence for e in c.evidence))
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


# --- status ----------------------------------------------------------------------------


def status_line(answer: Answer, *, stopped: bool = False) -> str:
    """One Markdown line: which LLM answered (and why), and seconds per stage."""
    parts = [f"**LLM:** {answer.backend}"]
    if answer.note:
        parts[0] += f" — {answer.note}"
    elif answer.backend == "none":
        parts[0] += " — extractive answer"
    t = answer.timings
    parts.append(f"retrieval {t.retrieval:.2f} s")
    if answer.backend != "none":
        parts.append(f"generation {t.generation:.2f} s")
    parts.append(f"total {t.total:.2f} s")
    line = " · ".join(parts)
    if stopped:
        line = "**Stopped.** " + line
    return escape_dollars(line)


# --- exports ---------------------------------------------------------------------------


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
        lines += [f"_Interpreted as: “{turn.standalone}”_", ""]
    lines += [turn_text(turn), ""]
    if turn.citations:
        lines += [_evidence_markdown(turn.citations), ""]
    return lines


def answer_markdown(turn: Turn, papers: Mapping[str, Paper], *, now: datetime | None = None) -> str:
    """Markdown of one answer: question, answer (markers ``[n]``), evidence, references."""
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
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
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
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
