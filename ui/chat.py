"""The chat's Markdown: literal dollars kept apart from math, ``[n]`` markers linked, the messages
of a conversation and the status line.

Pure functions of domain objects (turns, answers); nothing here imports Gradio or touches state
(``tests/test_ui_format.py``). Conventions:

* a citation marker ``[n]`` is linked to the evidence panel's element ``#src-n``
  (:mod:`ui.evidence_panel`);
* the chat renders LaTeX between ``$$...$$``, ``\\(...\\)`` and ``$...$`` (see
  :data:`LATEX_DELIMITERS`); a ``$`` that does not open or close math (``$5 per token``)
  is replaced by :data:`DOLLAR` so it is shown as a dollar sign, never as math.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.citations import MARKER
from rag.evidence.table import Cell, PaperTable
from rag.route.compare import ComparisonTable
from rag.route.compare import table_markdown as comparison_table_markdown
from rag.route.conversation import Turn
from rag.route.table_text import TABLE_FOLD, table_head, table_markdown, table_text
from rag.types import Answer, Citation
from store.guard import math_spans
from ui.display import display_markdown

__all__ = [
    "DOLLAR",
    "LATEX_DELIMITERS",
    "cell_link",
    "chat_markdown",
    "comparison_markdown",
    "escape_dollars",
    "history_messages",
    "link_markers",
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


def comparison_markdown(table: ComparisonTable) -> str:
    """The comparison's default rows as a Markdown table (see :func:`rag.route.compare.table_markdown`)."""
    return comparison_table_markdown(table)


def turn_text(turn: Turn) -> str:
    """The turn's answer as Markdown with plain ``[n]`` markers: exactly the text the route
    produced (a comparison's text holds its table), which chat, exports and ``eval`` share."""
    return turn.answer.text


def cell_link(citation: Citation, cell: Cell) -> str:
    """A table cell's marker as a link to its sentence: ``[\\[3\\]](#src-3-s120-245)``, the span of the
    cell's sentences in the abstract (the page highlights it in the evidence panel)."""
    n = citation.number
    if not cell.evidence:
        return f"[\\[{n}\\]](#src-{n})"
    return f"[\\[{n}\\]](#src-{n}-s{cell.evidence[0].start}-{cell.evidence[-1].end})"


def table_chat_markdown(table: PaperTable, text: str) -> str:
    """A table turn in the chat: the head line, the table with each cell's marker linked to its
    sentence and rows after the first :data:`rag.route.table_text.TABLE_FOLD` folded, then what the
    answer ``text`` says after its table (papers left out)."""
    whole = table_text(table)
    rest = text[len(whole) :] if text.startswith(whole) else ""
    body = table_head(table) + "\n\n" + table_markdown(table, cell_link, fold=TABLE_FOLD)
    return _chat_text(body + rest)


def chat_markdown(turn: Turn) -> str:
    """The assistant message of a turn: linked markers, literal dollars, the rewrite shown."""
    if turn.paper_table is not None:
        return table_chat_markdown(turn.paper_table, turn.answer.text)
    body = _chat_text(turn_text(turn))
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
    for t in turns:
        msgs.append({"role": "user", "content": escape_dollars(preview(t.question, preview_chars))})
        msgs.append({"role": "assistant", "content": chat_markdown(t)})
    if pending is not None:
        msgs.append({"role": "user", "content": escape_dollars(preview(pending, preview_chars))})
        msgs.append(
            {"role": "assistant", "content": streaming_markdown(partial) if partial else "_Searching the abstracts…_"}
        )
    return msgs


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
