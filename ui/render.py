"""How answers look on a terminal: an answer with its sources and status line, a comparison as one
block per row, a table across papers, and one answer printed as text or as JSON.

These are what ``paperchat ask``, ``compare``, ``table`` and ``chat`` print. The warm process
(:mod:`ui.warm`) returns the same text to the command line, so a command prints the same bytes
whether it was answered there or in-process. Pure functions of domain objects, except
:func:`print_answer` and :func:`print_answer_data`, which echo to stdout. Nothing heavy is loaded on
import: the command line imports this module before it knows whether it answers at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import click

from ui.footer import timing_note, timing_parts

if TYPE_CHECKING:  # loaded by the functions that need them, not on import
    from rag.route.turn import Turn
    from rag.types import Answer, Citation
    from store.papers import Paper

__all__ = [
    "Qid", "print_answer", "print_answer_data", "render_answer", "render_comparison", "render_table", "sources_text"
]

Qid = str | int | float | None
"""A batch question's id as its line gives it (a JSON string or number), echoed unchanged."""

def sources_text(citations: Iterable[Citation]) -> str:
    """The plain-text source list the command line and the HTTP API append to an answer.

    Args:
        citations: The answer's citations, in their numbering order.

    Returns:
        ``Sources:`` and one line per cited paper: ``  [n] label — id (authors, year, url)``, the
        parenthesis only with what the paper states; ``""`` when nothing is cited.
    """
    lines = []
    for c in citations:
        extra = ", ".join(x for x in (c.authors, str(c.year) if c.year else "", c.url) if x)
        lines.append(f"  [{c.number}] {c.label} — {c.paper_id}" + (f" ({extra})" if extra else ""))
    return "\n".join(["Sources:", *lines]) if lines else ""


def render_answer(ans: Answer) -> str:
    """An answer as ``paperchat ask`` prints it.

    Args:
        ans: The answer (its text with ``[n]`` markers, citations, backend, note and timings).

    Returns:
        The text, a blank line, :func:`sources_text` when something is cited, then a status line
        ``LLM: <backend> · <note> · <step> <s> s, ..., total <s> s (most in <step>...)``: the note
        only when set, the steps of :func:`ui.footer.timing_parts` (seconds to two decimals) and,
        for a slow answer, :func:`ui.footer.timing_note`; then what the LLM reply cost when one was
        asked (:meth:`rag.types.LLMUsage.describe`: prompt and output tokens, the server's timings
        and tokens per second); no final newline.
    """
    lines = [ans.text, ""]
    if ans.citations:
        lines.append(sources_text(ans.citations))
    status = f"LLM: {ans.backend}"
    if ans.note:
        status += f" · {ans.note}"
    status += " · " + ", ".join(timing_parts(ans.timings, generation=ans.backend != "none"))
    if note := timing_note(ans.timings):
        status += f" ({note})"
    if ans.usage is not None:
        status += f" · {ans.usage.describe()}"
    lines.append(status)
    return "\n".join(lines)


def render_comparison(turn: Turn) -> str:
    """A turn as ``paperchat compare`` prints it (and ``paperchat chat`` prints every turn).

    Args:
        turn: A turn of :class:`rag.route.conversation.Conversation`.

    Returns:
        For a comparison (``turn.table`` set): the route's text up to its Markdown table, then one
        block per row (the row's title, then ``  [n] label: “sentence”`` per paper, or "not stated in
        the abstract"), the route's ``Note:`` when it has one, and the sources with the status line
        of :func:`render_answer`. Any other turn: :func:`render_answer` of its answer. No final newline.
    """
    from rag.evidence.rows import NOT_STATED
    from store.papers import strip_markup

    if turn.table is None:
        return render_answer(turn.answer)
    text = turn.answer.text
    head = text.split("\n| |", 1)[0].rstrip()
    tail = text.split("\n\nNote: ", 1)[1] if "\n\nNote: " in text else ""
    lines = [head, ""]
    for row, cells in zip(turn.table.rows, turn.table.cells, strict=True):
        lines.append(row.title)
        for cit, evs in zip(turn.table.papers, cells, strict=True):
            said = " ".join(f"“{strip_markup(e.sentence)}”" for e in evs) or NOT_STATED
            lines.append(f"  [{cit.number}] {cit.label}: {said}")
        lines.append("")
    if tail:
        lines += [f"Note: {tail}", ""]
    body = render_answer(turn.answer).split("\n\nSources:", 1)
    lines.append("Sources:" + (body[1] if len(body) > 1 else ""))
    return "\n".join(lines)


def render_table(
    turn: Turn, *, as_json: bool = False, as_csv: bool = False, papers: Mapping[str, Paper] | None = None
) -> tuple[str, int]:
    """A table turn as ``paperchat table`` prints it.

    Args:
        turn: The turn of :meth:`rag.route.conversation.Conversation.table`.
        as_json: The JSON of :func:`ui.wire.answer_json` (indented), table included.
        as_csv: The table as CSV (:func:`ui.exports.table_csv`: number, paper, paper id, link and
            a column per phrase); when no table was made, the text below instead.
        papers: The collection by id, for the CSV's links of rows whose citation has no URL.

    Returns:
        ``(stdout without its last newline, exit code)``; the exit code is 1 when no table was made.
        The text form is the answer's text (the Markdown table), :func:`sources_text`, and a line
        ``<note> · <total seconds> s``.
    """
    from ui.exports import table_csv
    from ui.wire import answer_json

    code = 1 if turn.paper_table is None else 0
    if as_json:
        return json.dumps(answer_json(turn), ensure_ascii=False, indent=2), code
    if as_csv and turn.paper_table is not None:
        return table_csv(turn.paper_table, papers).removesuffix("\n"), code
    ans = turn.answer
    text = "\n\n".join(x for x in (ans.text, sources_text(ans.citations)) if x)
    return f"{text}\n{ans.note} · {ans.timings.total:.2f} s", code


def print_answer_data(data: dict[str, Any], text: str, as_json: bool, qid: Qid = None) -> None:
    """Print one answer as ``paperchat ask`` does, from what the answer was turned into.

    Args:
        data: The answer's JSON (:meth:`rag.types.Answer.to_dict`, or :func:`ui.wire.answer_json`).
        text: Its terminal rendering (:func:`render_answer`).
        as_json: Print ``data`` rather than ``text``.
        qid: In a batch, the question's id: the JSON is then one line with ``qid`` first (indented
            otherwise).
    """
    if as_json:
        if qid is not None:
            data = {"qid": qid, **data}
        click.echo(json.dumps(data, ensure_ascii=False, indent=None if qid is not None else 2))
    else:
        click.echo(text)


def print_answer(ans: Answer, as_json: bool, qid: Qid = None) -> None:
    """Print ``ans`` as ``paperchat ask`` does: :func:`render_answer`, or its JSON with ``as_json``
    (see :func:`print_answer_data` for ``qid``)."""
    print_answer_data(ans.to_dict() if as_json else {}, "" if as_json else render_answer(ans), as_json, qid)
