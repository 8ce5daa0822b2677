"""The chat's Markdown: literal dollars kept apart from math, ``[n]`` markers linked, each sentence
quoted once, tables in their own blocks, the messages of a conversation and the status line.

Pure functions of domain objects (turns, answers); nothing here imports Gradio or touches state
(``tests/test_ui_format.py``, ``tests/test_ui_quoting.py``). Conventions:

* a citation marker ``[n]`` is linked to the evidence panel's element ``#src-n``
  (:mod:`ui.evidence_panel`); a table cell's marker to the spans of its sentences there
  (:func:`cell_href`);
* the chat shows the route's text (:func:`turn_text`, what exports and ``eval`` read) with each
  evidence sentence quoted once (:mod:`ui.quoting`), and abstract markup and URLs as
  :func:`ui.display.display_markdown` shows them;
* a table sits in a block of class :data:`TABLE_CLASS` that scrolls sideways on its own, followed
  by links that copy it as Markdown or CSV (:func:`copy_links`);
* the chat renders LaTeX between ``$$...$$``, ``\\(...\\)`` and ``$...$`` (see
  :data:`LATEX_DELIMITERS`); a ``$`` that does not open or close math (``$5 per token``)
  is replaced by :data:`DOLLAR` so it is shown as a dollar sign, never as math.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.citations import MARKER, format_marker
from rag.evidence.rows import NOT_STATED
from rag.evidence.table import Cell, PaperTable
from rag.route.compare import ComparisonTable
from rag.route.compare import table_markdown as comparison_table_markdown
from rag.route.conversation import Turn
from rag.route.table_text import TABLE_FOLD, folded_rows, table_head, table_text
from rag.types import Answer, Citation, Evidence
from store.guard import math_spans
from store.papers import strip_markup
from ui.display import display_markdown
from ui.evidence_panel import Marks
from ui.footer import timing_note, timing_parts
from ui.quoting import EvidenceKey, Quoted, drop_repeated_quotes, evidence_key, quote, repeat_note

__all__ = [
    "COMPARISON_LEGEND",
    "COPY_CLASS",
    "DOLLAR",
    "LATEX_DELIMITERS",
    "SEARCHING",
    "TABLE_CLASS",
    "TABLE_LEGEND",
    "answer_chat_markdown",
    "cell_href",
    "cell_link",
    "chat_markdown",
    "comparison_chat_markdown",
    "comparison_chat_table",
    "comparison_markdown",
    "copy_links",
    "escape_dollars",
    "history_messages",
    "link_markers",
    "panel_marks",
    "paper_chat_table",
    "preview",
    "status_line",
    "streaming_markdown",
    "table_chat_markdown",
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
        close = _closing_dollar(text, i)
        if close is None:
            out.append(DOLLAR)
            i += 1
        else:
            out.append(text[i : close + 1])
            i = close + 1
    return "".join(out)


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
    """Route text as the chat shows it: abstract markup and URLs (:func:`ui.display.display_markdown`),
    linked markers, literal dollars."""
    return escape_dollars(link_markers(display_markdown(text)))


# --- chat messages ---------------------------------------------------------------------

SEARCHING = "Searching the abstracts…"
"""The assistant's message while a question is answered and nothing is written yet (the page's
script waits for it to be replaced before it shows the answer's first line, :mod:`ui.page`)."""

TABLE_CLASS = "pc-table"
"""The class of the block around a table in the chat: it scrolls sideways on its own, so a wide
table never widens the page (the page's stylesheet, :mod:`ui.page`)."""

COPY_CLASS = "pc-copy"
"""The class of a table's copy links (``#pc-copy-md-k``, ``#pc-copy-csv-k``, see :func:`copy_links`)."""


def comparison_markdown(table: ComparisonTable) -> str:
    """The comparison's default rows as a Markdown table (see :func:`rag.route.compare.table_markdown`)."""
    return comparison_table_markdown(table)


def turn_text(turn: Turn) -> str:
    """The turn's answer as Markdown with plain ``[n]`` markers: exactly the text the route
    produced (a comparison's text holds its table), which exports and ``eval`` share; the chat
    shows it through :func:`chat_markdown`."""
    return turn.answer.text


def cell_href(number: int, evidence: Sequence[Evidence]) -> str:
    """The link of a table cell's marker: ``#src-3-s120-245-s300-410``, the evidence panel's source
    and the span of each sentence of the cell in its abstract (the page highlights exactly those);
    ``#src-3`` for a cell that quotes nothing."""
    return f"#src-{number}" + "".join(f"-s{e.start}-{e.end}" for e in evidence)


def cell_link(citation: Citation, cell: Cell) -> str:
    """A table cell's marker as a link to its sentences: ``[\\[3\\]](#src-3-s120-245)`` (:func:`cell_href`)."""
    return f"[\\[{citation.number}\\]]({cell_href(citation.number, cell.evidence)})"


def _md_cell(text: str) -> str:
    """Text safe inside a Markdown table cell (no pipes, no line breaks)."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def _quoted_cell(evidence: Sequence[Evidence], quoted: Quoted, where: str) -> str:
    """A cell's quotations; those of sentences the message quoted before are replaced by where
    (:func:`ui.quoting.repeat_note`). The cell's own are recorded as quoted at ``where``."""
    places = quoted.repeated(evidence)
    fresh = [e for e in evidence if quoted.seen(e) is None]
    for e in fresh:
        quoted.show(e, where)
    said = " ".join(quote(e) for e in fresh)
    return f"{said} {repeat_note(places, partly=bool(fresh))}".strip() if places else said


def copy_links(key: int) -> str:
    """The links under a table that copy it as Markdown or CSV (the page's script copies the text
    the evidence panel holds for table ``key``, :func:`ui.evidence_panel.copy_sources`)."""
    return (
        f'<p class="{COPY_CLASS}"><a href="#pc-copy-md-{key}">Copy as Markdown</a> '
        f'<a href="#pc-copy-csv-{key}">Copy as CSV</a></p>'
    )


def _table_block(table_md: str, copy_key: int | None) -> str:
    """A Markdown table in its own sideways-scrolling block, then its copy links (when keyed)."""
    block = f'<div class="{TABLE_CLASS}">\n\n{table_md}\n\n</div>'
    return block + ("\n\n" + copy_links(copy_key) if copy_key is not None else "")


def comparison_chat_table(table: ComparisonTable, quoted: Quoted) -> str:
    """The comparison's rows as the chat shows them: each cell's sentences quoted unless the
    message quoted them before (then where, "quoted above" or "same as **Row**"), and its marker
    linked to its sentences (:func:`cell_href`).

    Args:
        table: The comparison.
        quoted: What the message quoted before the table; updated row by row.
    """
    head = "| | " + " | ".join(_md_cell(f"{strip_markup(c.label)} {format_marker(c.number)}") for c in table.papers)
    lines = [head + " |", "|---|" + "---|" * len(table.papers)]
    for row, cells in zip(table.rows, table.cells, strict=True):
        parts = [
            _md_cell(_quoted_cell(evs, quoted, row.title)) + f" [\\[{c.number}\\]]({cell_href(c.number, evs)})"
            if evs else f"_{NOT_STATED}_"
            for c, evs in zip(table.papers, cells, strict=True)
        ]  # fmt: skip
        lines.append(f"| **{_md_cell(row.title)}** | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def paper_chat_table(table: PaperTable, fold: int | None = TABLE_FOLD) -> str:
    """A table across papers as the chat shows it (as :func:`rag.route.table_text.table_markdown`):
    a row per paper, a cell quoting its sentences once in the row (a sentence another column of the
    row quoted says "same as **Column**"), its marker linked to its sentences; rows after ``fold``
    folded into a ``<details>`` block."""
    head = "| Paper | " + " | ".join(_md_cell(c.title) for c in table.columns) + " |"
    rule = "|---|" + "---|" * len(table.columns)

    def line(c: Citation, row: Sequence[Cell]) -> str:
        quoted = Quoted([c])
        cells = []
        for column, cell in zip(table.columns, row, strict=True):
            if not cell.stated:
                cells.append(f"_{NOT_STATED}_")
                continue
            value = f"{cell.value} — " if cell.value else ""
            cells.append(_md_cell(value + _quoted_cell(cell.evidence, quoted, column.title)) + " " + cell_link(c, cell))
        return f"| **{_md_cell(strip_markup(c.label))}** {format_marker(c.number)} | " + " | ".join(cells) + " |"

    lines = [line(c, row) for c, row in zip(table.papers, table.cells, strict=True)]
    return folded_rows(head, rule, lines, fold)


def table_chat_markdown(table: PaperTable, text: str, copy_key: int | None = None) -> str:
    """A table turn in the chat: the head line, the table (:func:`paper_chat_table`) in its own
    scrolling block with its copy links when ``copy_key`` is given, then what the answer ``text``
    says after its table (papers left out)."""
    whole = table_text(table)
    rest = text[len(whole) :] if text.startswith(whole) else ""
    return _chat_text(table_head(table) + "\n\n" + _table_block(paper_chat_table(table), copy_key) + rest)


def _join(*parts: str) -> str:
    return "\n\n".join(p.strip("\n") for p in parts if p.strip())


def _comparison_parts(turn: Turn) -> tuple[str, str, str, bool, Quoted]:
    """A comparison's text split for the chat: ``(lead, text before the table with each sentence
    quoted once, text after the table, whether the table was found, what was quoted before it)``."""
    table, ans = turn.table, turn.answer
    assert table is not None
    before, found, after = ans.text.partition(comparison_table_markdown(table))
    quoted = Quoted(table.papers)
    lead = ans.lead if ans.lead and before.startswith(ans.lead) else ""
    quoted.read_lead(lead)
    body = drop_repeated_quotes(before[len(lead) :], quoted)
    return lead, body, after, bool(found), quoted


def comparison_chat_markdown(turn: Turn, copy_key: int | None = None) -> str:
    """A comparison in the chat: its lead, its text with each sentence quoted once
    (:func:`ui.quoting.drop_repeated_quotes`), its table (:func:`comparison_chat_table`) in its own
    scrolling block with copy links when ``copy_key`` is given, then its note."""
    assert turn.table is not None
    lead, body, after, found, quoted = _comparison_parts(turn)
    grid = _table_block(comparison_chat_table(turn.table, quoted), copy_key) if found else ""
    return _chat_text(_join(lead, body, grid, after))


COMPARISON_LEGEND = (
    "Highlighted: the sentences the answer quotes above its table. A tag names the row of each "
    "sentence a cell quotes; click a cell to highlight its sentences."
)
"""The evidence panel's legend for a comparison (:func:`panel_marks`)."""

TABLE_LEGEND = "A tag names the column of each highlighted sentence; click a cell to pick out its sentences."
"""The evidence panel's legend for a table across papers (:func:`panel_marks`)."""


def panel_marks(turn: Turn) -> Marks | None:
    """How the evidence panel marks a table turn's sentences (:class:`ui.evidence_panel.Marks`).

    A comparison: every sentence a cell quotes is tagged with its rows; only those its text quotes
    above the table (the lead, the aspect asked, the head-to-head) are highlighted, the others are
    shown plain, so the highlight no longer covers half of every abstract. A table across papers:
    every sentence highlighted and tagged with its columns. Any other turn: ``None`` (every
    evidence sentence highlighted).
    """
    labels: dict[EvidenceKey, list[str]] = {}
    if turn.paper_table is not None:
        pt = turn.paper_table
        for row in pt.cells:
            for column, cell in zip(pt.columns, row, strict=True):
                for e in cell.evidence:
                    labels.setdefault(evidence_key(e), []).append(column.title)
        return Marks({k: " · ".join(dict.fromkeys(v)) for k, v in labels.items()}, legend=TABLE_LEGEND)
    if turn.table is None:
        return None
    *_, quoted = _comparison_parts(turn)
    for r, cells in zip(turn.table.rows, turn.table.cells, strict=True):
        for evs in cells:
            for e in evs:
                labels.setdefault(evidence_key(e), []).append(r.title)
    plain = frozenset(k for k in labels if k not in quoted.where)
    return Marks({k: " · ".join(dict.fromkeys(v)) for k, v in labels.items()}, plain, COMPARISON_LEGEND)


def answer_chat_markdown(turn: Turn) -> str:
    """An answer in the chat: the route's text with each sentence quoted once: a sentence its lead
    quotes (whole or in part) is not quoted again under ``Evidence:`` (the evidence panel shows it
    highlighted in its abstract); URLs and LaTeX as :func:`ui.display.display_markdown` shows them."""
    text, lead = turn_text(turn), turn.answer.lead
    if lead and text.startswith(lead):
        quoted = Quoted(turn.citations)
        quoted.read_lead(lead)
        text = _join(lead, drop_repeated_quotes(text[len(lead) :], quoted))
    return _chat_text(text)


def chat_markdown(turn: Turn, copy_key: int | None = None) -> str:
    """The assistant message of a turn: each sentence quoted once, linked markers, literal dollars,
    tables in their own scrolling blocks, the rewrite shown.

    Args:
        turn: A finished turn.
        copy_key: The turn's number in the conversation (from 1): a table then gets links that
            copy it as Markdown or CSV (:func:`copy_links`); ``None``: none.
    """
    if turn.paper_table is not None:
        return table_chat_markdown(turn.paper_table, turn.answer.text, copy_key)
    body = comparison_chat_markdown(turn, copy_key) if turn.table is not None else answer_chat_markdown(turn)
    if turn.rewritten:
        body = f"_Interpreted as: {escape_dollars(turn.interpreted)}_\n\n{body}"
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
    for k, t in enumerate(turns, start=1):
        msgs.append({"role": "user", "content": escape_dollars(preview(t.question, preview_chars))})
        msgs.append({"role": "assistant", "content": chat_markdown(t, copy_key=k)})
    if pending is not None:
        msgs.append({"role": "user", "content": escape_dollars(preview(pending, preview_chars))})
        msgs.append(
            {"role": "assistant", "content": streaming_markdown(partial) if partial else f"_{SEARCHING}_"}
        )
    return msgs


# --- status ----------------------------------------------------------------------------


def status_line(answer: Answer, *, stopped: bool = False) -> str:
    """One Markdown line: which LLM answered (and why), the seconds of each step that took time,
    adding up to the total (:func:`ui.footer.timing_parts`), for a slow answer what took the time
    (:func:`ui.footer.timing_note`), and what the LLM reply cost when one was asked (prompt and
    output tokens, the server's timings and tokens per second)."""
    parts = [f"**LLM:** {answer.backend}"]
    if answer.note:
        parts[0] += f" — {answer.note}"
    elif answer.backend == "none":
        parts[0] += " — extractive answer"
    parts += timing_parts(answer.timings, generation=answer.backend != "none")
    line = " · ".join(parts)
    if note := timing_note(answer.timings):
        line += f" ({note})"
    if answer.usage is not None:
        line += f" · {answer.usage.describe()}"
    if stopped:
        line = "**Stopped.** " + line
    return escape_dollars(line)
