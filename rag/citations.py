"""The one citation format, its parser and validation (claim checks: :mod:`rag.llm.claims`).

``[n]`` (and ``[n, m]``) is defined once here; the prompt's example, the parser and the
renderers all use :data:`MARKER` / :func:`format_marker`.
"""

from __future__ import annotations

import re

__all__ = [
    "MARKER",
    "cited_numbers",
    "format_marker",
    "validate_markers",
]

MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
"""A citation marker: ``[3]`` or ``[1, 4]``."""

_LOOSE_MARKER = re.compile(r"\[(?:source|paper|ref)?\s*(\d+)\]|【(\d+)】|\(\s*(?:source|paper)\s*(\d+)\s*\)", re.I)


def format_marker(number: int) -> str:
    """The marker for source ``number``: ``[number]``."""
    return f"[{number}]"


def cited_numbers(text: str) -> list[int]:
    """Source numbers cited in ``text``, in order of first appearance, without repeats."""
    out: list[int] = []
    for m in MARKER.finditer(text):
        for part in m.group(1).split(","):
            n = int(part)
            if n not in out:
                out.append(n)
    return out


def validate_markers(text: str, n_sources: int) -> tuple[str, int]:
    """Remove citation markers that point to no source.

    Variants such as ``[Source 2]`` or ``(paper 2)`` are first rewritten to ``[2]``.
    A marker ``[k]`` with ``k`` outside ``1..n_sources`` is removed and counted; in a
    group ``[1, 7]`` only the invalid number goes.

    Returns:
        ``(clean_text, invented)`` where ``invented`` counts removed numbers.
    """
    text = _LOOSE_MARKER.sub(lambda m: f"[{next(g for g in m.groups() if g)}]", text)
    invented = 0

    def fix(m: re.Match) -> str:
        nonlocal invented
        keep = []
        for part in m.group(1).split(","):
            n = int(part)
            if 1 <= n <= n_sources:
                if n not in keep:
                    keep.append(n)
            else:
                invented += 1
        return "".join(format_marker(n) for n in keep)

    clean = MARKER.sub(fix, text)
    clean = re.sub(r"[ \t]+([.,;:])", r"\1", clean)
    clean = re.sub(r"[ \t]{2,}", " ", clean)
    return clean.strip(), invented
