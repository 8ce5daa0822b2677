"""An answer's footer: the seconds of each step of its wait, adding up to the total, and the step
that took the time (issue 34). Shared by the page's status line (:func:`ui.chat.status_line`) and
the command line's (:func:`ui.render.render_answer`); pure functions of :class:`rag.types.Timings`.
Nothing heavy is loaded on import (the command line imports this before it knows it answers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rag.types import Timings

__all__ = ["NAMED_FROM", "SHOWN_FROM", "timing_note", "timing_parts"]

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
