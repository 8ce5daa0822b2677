"""Labels unique within a collection.

Each paper's label is chosen from its own record (:func:`store.labels.choose_label`), so two
papers may get the same one ("COLA", "CPA"). :func:`distinct_labels` tells them apart for
display; ids, names and what questions match are unchanged.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from store.labels import title_label
from store.papers import Paper

__all__ = ["distinct_labels", "first_author_surname"]


def first_author_surname(paper: Paper) -> str:
    """The first author's family name: "Ada Lovelace" -> "Lovelace", "Lovelace, Ada" -> "Lovelace"."""
    if not paper.authors:
        return ""
    name = paper.authors[0].strip()
    if "," in name:
        return name.split(",", 1)[0].strip()
    parts = [p for p in re.split(r"\s+", name) if p]
    return parts[-1] if parts else ""


def _key(label: str) -> str:
    return " ".join(label.casefold().split())


def _clashes(papers: Iterable[Paper]) -> list[list[Paper]]:
    groups: dict[str, list[Paper]] = defaultdict(list)
    for p in papers:
        groups[_key(p.label)].append(p)
    return [g for g in groups.values() if len(g) > 1]


_SUFFIXES: tuple[Callable[[Paper], str], ...] = (
    first_author_surname,
    lambda p: str(p.year) if p.year else "",
    lambda p: " ".join(x for x in (first_author_surname(p), str(p.year) if p.year else "") if x),
)


def _with_suffix(group: Sequence[Paper]) -> dict[str, str]:
    """Labels for papers sharing one: ``"COLA (Smith)"``, else ``"(2022)"``, else
    ``"(Smith 2022)"``: the first that tells every member apart; else the paper id."""
    for suffix in _SUFFIXES:
        got = [suffix(p) for p in group]
        if all(got) and len({_key(s) for s in got}) == len(group):
            return {p.id: f"{p.label} ({s})" for p, s in zip(group, got, strict=True)}
    return {p.id: f"{p.label} ({p.id})" for p in group}


def distinct_labels(papers: Iterable[Paper]) -> list[Paper]:
    """``papers`` (in their order) with labels unique within them, compared without case.

    Papers sharing a label first take their record's title when they have one (a shared name
    says less than a title); those still sharing one get the first author's family name, the
    year, both, or else the id in parentheses. A name that gives way stays an alias, so
    questions naming it still find the paper. Papers whose label is unique are returned as they are.
    """
    out = {p.id: p for p in papers}
    for group in _clashes(out.values()):
        for p in group:
            titled = title_label(p.title) if p.title else ""
            if titled and _key(titled) != _key(p.label):
                aliases = p.aliases if p.describes else (p.label, *p.aliases)
                out[p.id] = replace(p, label=titled, label_kind="title", aliases=aliases)
    for group in _clashes(out.values()):
        for pid, label in _with_suffix(sorted(group, key=lambda p: p.id)).items():
            p = out[pid]
            aliases = p.aliases if p.describes or p.label in p.aliases else (p.label, *p.aliases)
            out[pid] = replace(p, label=label, aliases=aliases)
    return list(out.values())
