"""Tables as text: the Markdown of a table (the answer's text, the page, exports), its CSV and the
line that says how many papers it has. Pure functions of :class:`rag.evidence.table.PaperTable`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rag.citations import format_marker
from rag.evidence.rows import NOT_STATED
from rag.types import Citation
from store.papers import strip_markup

if TYPE_CHECKING:
    from rag.evidence.table import Cell, PaperTable

__all__ = ["TABLE_FOLD", "cell_text", "folded_rows", "table_csv", "table_head", "table_markdown", "table_text"]

TABLE_FOLD = 10
"""Rows the page shows before the rest of a table is folded; answers and exports show every row."""


def _plain(text: str) -> str:
    """Text safe inside a Markdown table cell (no pipes, no line breaks)."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def cell_text(cell: Cell, number: int | None = None) -> str:
    """A cell as text: ``value — “sentence”`` (the value only when it differs from the quote),
    the marker ``[n]`` when given, or :data:`rag.evidence.rows.NOT_STATED`."""
    if not cell.stated:
        return NOT_STATED
    quote = " ".join(f"“{strip_markup(e.sentence)}”" for e in cell.evidence)
    marker = f" {format_marker(number)}" if number is not None else ""
    return (f"{cell.value} — " if cell.value else "") + quote + marker


def table_head(table: PaperTable) -> str:
    """The line before a table: how many papers it has and why."""
    n, k = table.matched, len(table.papers)
    cols = ", ".join(c.title for c in table.columns)
    if table.topic:
        some = "At least " if table.at_least else ""
        shown = "" if k == n else f" (the {k} most relevant in the table)"
        verb = "matches" if n == 1 else "match"
        return f"{some}{n} paper{'s' if n != 1 else ''} in the collection {verb} “{table.topic}”{shown}; " \
               f"one row each, columns: {cols}."
    return f"{k} paper{'s' if k != 1 else ''}, one row each, columns: {cols}."


def table_markdown(
    table: PaperTable,
    marker: Callable[[Citation, Cell], str] | None = None,
    *,
    fold: int | None = None,
) -> str:
    """The table as Markdown: one row per paper (label and marker first), one column per phrase.

    Args:
        table: The table.
        marker: Renders a cell's citation marker (default ``[n]``); the page links it to the
            cell's sentence in the evidence panel.
        fold: Rows shown before the rest is folded into a ``<details>`` block; ``None``: all shown.
    """
    mark = marker or (lambda c, _cell: format_marker(c.number))
    head = "| Paper | " + " | ".join(_plain(c.title) for c in table.columns) + " |"
    rule = "|---|" + "---|" * len(table.columns)

    def line(c: Citation, row: Sequence[Cell]) -> str:
        cells = [
            _plain(cell_text(cell)) + " " + mark(c, cell) if cell.stated else f"_{NOT_STATED}_" for cell in row
        ]
        return f"| **{_plain(strip_markup(c.label))}** {format_marker(c.number)} | " + " | ".join(cells) + " |"

    lines = [line(c, row) for c, row in zip(table.papers, table.cells, strict=True)]
    return folded_rows(head, rule, lines, fold)


def folded_rows(head: str, rule: str, lines: list[str], fold: int | None) -> str:
    """A Markdown table of ``lines`` under ``head`` and ``rule``; past ``fold`` rows (``None``: never)
    the rest sit in a ``<details>`` block that repeats the head ("N more rows")."""
    if fold is None or len(lines) <= fold:
        return "\n".join([head, rule, *lines])
    shown, rest = lines[:fold], lines[fold:]
    return "\n".join(
        [head, rule, *shown, "", f"<details><summary>{len(rest)} more rows</summary>", "", head, rule, *rest,
         "", "</details>"]
    )  # fmt: skip


def table_text(table: PaperTable, fold: int | None = None) -> str:
    """The whole answer of a table: its head line and the Markdown table."""
    return table_head(table) + "\n\n" + table_markdown(table, fold=fold)


def table_csv(table: PaperTable) -> str:
    """The table as CSV (RFC 4180, ``\\r\\n`` line ends): ``number, paper, paper id`` and one column
    per phrase; a cell is its value and quoted sentences, or :data:`rag.evidence.rows.NOT_STATED`."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["number", "paper", "paper_id", *(c.title for c in table.columns)])
    for c, row in zip(table.papers, table.cells, strict=True):
        w.writerow([c.number, strip_markup(c.label), c.paper_id, *(cell_text(cell) for cell in row)])
    return out.getvalue()
