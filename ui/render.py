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

if TYPE_CHECKING:  # loaded by the functions that need them, not on import
    from rag.route.turn import Turn
    from rag.types import Answer, Citation, Timings
    from store.papers import Paper

__all__ = [
    "NAMED_FROM", "SHOWN_FROM", "Qid", "print_answer", "print_answer_data", "render_answer", "render_comparison",
    "render_table", "sources_text", "timing_note", "timing_parts",
]

Qid = str | int | float | None
"""A batch question's id as its line gives it (a JSON string or number), echoed unchanged."""

SHOWN_FROM = 0.005
"""Seconds from which a step is shown in an answer's footer (it then rounds to at least 0.01 s);
shorter steps are counted in ``other``, so the numbers shown add up to the total."""

NAMED_FROM = 0.5
"""Seconds of an answer's total from which its footer names the step that took most of them: a
shorter wait surprises no one (the page answers a warm question in 0.1-0.3 s on 3,136 papers)."""


def timing_parts(t: Timings, *, generation: bool = True) -> list[str]:
    """An answer's seconds as its footer shows them: each step of :data:`rag.types.STEPS` that took
    at least :data:`SHOWN_FROM` seconds (``generation`` also when shorter, unless ``generation`` is
    False: no LLM ran), then ``other`` (the total less the steps shown, when at least
    :data:`SHOWN_FROM`) and ``total``; e.g. ``["retrieval 0.03 s", "membership 2.23 s", "other
    0.01 s", "total 2.27 s"]``. The numbers shown add up to the total, to rounding."""
    from rag.types import STEPS

    shown = [(s, getattr(t, s)) for s in STEPS if getattr(t, s) >= SHOWN_FROM or (s == "generation" and generation)]
    other = t.total - sum(v for _, v in shown)
    if other >= SHOWN_FROM:
        shown.append(("other", other))
    return [f"{s} {v:.2f} s" for s, v in shown] + [f"total {t.total:.2f} s"]


def timing_note(t: Timings) -> str:
    """What took the time, when the total is at least :data:`NAMED_FROM` seconds: ``"most in
    reading the question"``, with the seconds spent embedding abstracts used for the first time
    when there were any (``"; 2.94 s embedding the sentences of 49 abstracts used for the first
    time"``); ``""`` for a quick answer."""
    from rag.types import STEP_NAMES

    if t.total < NAMED_FROM:
        return ""
    note = f"most in {STEP_NAMES[t.slowest()]}"
    if t.embedded and t.embedding >= SHOWN_FROM:
        n, s = t.embedded, "s" if t.embedded != 1 else ""
        note += f"; {t.embedding:.2f} s embedding the sentences of {n} abstract{s} used for the first time"
    return note


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
        only when set, the steps of :func:`timing_parts` (seconds to two decimals) and, for a
        slow answer, :func:`timing_note`; no final newline.
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
