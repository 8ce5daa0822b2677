"""A premise the abstract contradicts: a count the question states that the paper states otherwise.

"Why did DANCE use 16 TAG datasets?" asks about a number the abstract does not hold: DANCE's
abstract says "Across 8 TAG datasets". Quoting that sentence under the question reads as if it
confirmed the premise. :func:`contradicted_counts` compares the counts the question states
(:attr:`rag.question.plan.AskPlan.counts`, read by the question reader) with the counts of the
same things the abstract states, and the answer opens by saying what the abstract states instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.lexicon import term_key
from rag.text import counted_phrases, numbers

__all__ = ["contradicted_counts"]


def _keys(words: str) -> set[str]:
    return {term_key(w.lower()) for w in words.split()}


def contradicted_counts(counts: Sequence[tuple[str, str]], abstract: str, label: str) -> str:
    """The note that ``abstract`` states other counts than the question's, or ``""``.

    A count ``(n, things)`` of the question is contradicted when the abstract counts the same
    things (every word of ``things`` among the words it counts, compared by
    :func:`rag.lexicon.term_key`: "16 datasets" and "8 TAG datasets") with another number, and
    states the number ``n`` nowhere. A number the abstract states anywhere, or things it does not
    count, contradict nothing: the premise may hold or be about something the abstract is silent on.

    Returns:
        ``The abstract of X states “8 TAG datasets”, not 16.`` (several joined by ``; ``), the
        quoted words an exact span of ``abstract``; ``""`` when nothing is contradicted.
    """
    if not counts:
        return ""
    stated = counted_phrases(abstract)
    held = numbers(abstract)
    notes = []
    for n, things in counts:
        if n in held:
            continue
        want = _keys(things)
        other = next((f"{m} {w}" for m, w in stated if m != n and want <= _keys(w)), None)
        if other is None:
            continue
        shown = next((x for x in _written(abstract, other)), other)
        notes.append(f"“{shown}”, not {n}")
    if not notes:
        return ""
    return f"The abstract of {label} states " + "; ".join(notes) + "."


def _written(abstract: str, counted: str) -> list[str]:
    """``counted`` ("91581 step-level annotations") as the abstract writes it ("91,581 step-level
    annotations"), when it does."""
    number, _, words = counted.partition(" ")
    out = []
    for m, w in counted_phrases(abstract):
        if m == number and w == words:
            grouped = f"{int(number):,}"
            for form in (f"{number} {words}", f"{grouped} {words}"):
                if form in abstract:
                    out.append(form)
    return out
