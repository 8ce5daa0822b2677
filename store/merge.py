"""One paper per work: records of the same paper from several sources are merged.

Two records are the same paper when they share a DOI, an arXiv id (without version; an arXiv
DOI ``10.48550/arXiv.X`` counts as arXiv id ``X``) or a normalised title
(:func:`store.formats.common.title_key`); a title shared by records that state different DOIs
or different arXiv ids merges none of them (distinct papers with one title). The merged paper
takes every field of the record with the most fields (title, authors, year, venue, URL, DOI;
the earlier record on a tie) and fills its empty fields (its citation key too) from the others
in order, except that a preprint server as venue ("arXiv") gives way to another record's journal
or conference (and its year); its abstract and source are that record's, and it stands in that
record's file (the other records count as merged in theirs). Its id is the id of the stored paper
it matched, else its DOI, else its arXiv id, else the first record's id, so re-importing the same
files, in one command or in several, gives the same ids.

Papers already in the store take part: a record that is the same paper as a stored paper from
another source (or under another id) keeps the stored id, and the stored paper's fields fill the
record's empty ones (the record read now wins over what is stored; the paper is then updated, or
unchanged). A stored paper that a record of its own source file has again is that record's
earlier version and does not take part (its fields are replaced, not merged), except its citation
key: a record that states none keeps the stored one (the key a ``.bib`` or Zotero import gave the
paper survives re-importing the file that holds its abstract).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import replace as replace_fields

from store.formats.common import arxiv_id, is_arxiv_doi, normalize_doi, title_key
from store.papers import Paper, ReadResult, make_paper

__all__ = ["MergeOutcome", "merge_duplicates", "paper_keys"]

_DOI_ID = re.compile(r"^10\.\d{4,9}/\S+$")
_FIELDS = ("title", "authors", "year", "venue", "url", "doi")


def paper_keys(paper: Paper) -> tuple[str, str, str]:
    """``(doi, arxiv, title)`` identity keys of a paper, each ``""`` when unknown.

    The DOI (lower case, not an arXiv DOI) comes from the ``doi`` field, a DOI-shaped id or a
    ``doi.org`` URL; the arXiv id from the id (``2301.00001``), the DOI or an ``arxiv.org`` URL.
    """
    candidates = [paper.doi, paper.id if _DOI_ID.match(paper.id) else ""]
    if "doi.org/" in paper.url:
        candidates.append(paper.url)
    dois = [normalize_doi(c) for c in candidates]
    doi = next((d.lower() for d in dois if d and not is_arxiv_doi(d)), "")
    arxiv = arxiv_id(paper.id, *(d for d in dois if d), paper.url if "arxiv.org/" in paper.url else "")
    return doi, arxiv, title_key(paper.title)


@dataclass
class MergeOutcome:
    """Results after merging, aligned with the input.

    Attributes:
        results: The read results, each holding its papers minus the ones merged into another
            record's paper (a merged paper stands where its group's first record stood).
        merged: Per result, how many of its records were merged into another record's paper.
    """

    results: list[ReadResult]
    merged: list[int]


def _n_fields(p: Paper) -> int:
    return sum(bool(getattr(p, f)) for f in _FIELDS)


#: Venues that are preprint servers: a record's journal or conference venue wins over these.
_PREPRINT_VENUES = re.compile(
    r"^(?:arxiv(?:\.org)?|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprints?|research square)$", re.IGNORECASE
)


def _combine(best: Paper, others: Sequence[Paper], pid: str) -> Paper:
    """The merged paper of a group: ``best``'s fields, its empty ones filled from ``others`` in
    order; a preprint server as venue ("arXiv") gives way to another record's journal or
    conference, with that record's year."""

    def pick(field: str):
        return next((getattr(p, field) for p in (best, *others) if getattr(p, field)), getattr(best, field))

    venue, year = pick("venue"), pick("year")
    if not best.venue or _PREPRINT_VENUES.match(best.venue.strip()):
        published = next((p for p in others if p.venue and not _PREPRINT_VENUES.match(p.venue.strip())), None)
        if published is not None:
            venue, year = published.venue, published.year or year
    return make_paper(
        pid,
        best.abstract,
        title=pick("title"),
        authors=pick("authors"),
        year=year,
        venue=venue,
        url=pick("url"),
        source=best.source,
        doi=pick("doi"),
        cite_key=pick("cite_key"),
    )


class _Groups:
    """Union-find over entries; each root keeps the DOIs and arXiv ids of its group."""

    def __init__(self, keys: list[tuple[str, str, str]]):
        self.parent = list(range(len(keys)))
        self.dois = [{k[0]} - {""} for k in keys]
        self.arxivs = [{k[1]} - {""} for k in keys]

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            lo, hi = min(ra, rb), max(ra, rb)  # the earlier entry stays the root
            self.parent[hi] = lo
            self.dois[lo] |= self.dois[hi]
            self.arxivs[lo] |= self.arxivs[hi]


def merge_duplicates(results: Sequence[ReadResult], known: Iterable[Paper] = ()) -> MergeOutcome:
    """Merge the records of the same paper across (and within) files, and with stored papers.

    Args:
        results: Read results in ingest order.
        known: Papers already stored (their fields, DOIs, titles and source files), e.g.
            ``store.all_papers()``.

    Returns:
        The results with one paper per group of duplicates and the per-result merge counts.
        Records that are no one's duplicate come back unchanged (same objects), unless they keep a
        stored citation key.
    """
    read_from = {(p.id, p.source) for r in results for p in r.papers}
    known = list(known)
    stored = [p for p in known if (p.id, p.source) not in read_from]  # else an earlier version, replaced
    kept_keys = {p.id: p.cite_key for p in known if (p.id, p.source) in read_from and p.cite_key}
    entries: list[tuple[int, int, Paper]] = [(-1, i, p) for i, p in enumerate(stored)]
    entries += [(ri, pi, p) for ri, r in enumerate(results) for pi, p in enumerate(r.papers)]
    keys = [paper_keys(p) for _, _, p in entries]
    groups = _Groups(keys)
    for kind in (0, 1):  # DOI, then arXiv id: the same identifier is the same paper
        first: dict[str, int] = {}
        for i, k in enumerate(keys):
            if k[kind]:
                groups.union(first.setdefault(k[kind], i), i)
    stored_at = {p.id: i for i, p in enumerate(stored)}  # entries of stored papers come first
    for i in range(len(stored), len(entries)):
        if entries[i][2].id in stored_at:  # a stored paper's id read from another source
            groups.union(stored_at[entries[i][2].id], i)
    by_title: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        if k[2]:
            by_title.setdefault(k[2], []).append(i)
    for same in by_title.values():
        roots = {groups.find(i) for i in same}
        dois = set().union(*(groups.dois[r] for r in roots))
        arxivs = set().union(*(groups.arxivs[r] for r in roots))
        if len(dois) <= 1 and len(arxivs) <= 1:  # else the title is shared by distinct papers: no guessing
            for i in same[1:]:
                groups.union(same[0], i)

    members: dict[int, list[int]] = {}
    for i in range(len(entries)):
        members.setdefault(groups.find(i), []).append(i)
    replace: dict[tuple[int, int], Paper | None] = {}
    merged = [0] * len(results)
    for group in members.values():
        read = [i for i in group if entries[i][0] >= 0]
        if not read or len(group) == 1:
            continue
        root = groups.find(group[0])
        doi, arxiv = min(groups.dois[root], default=""), min(groups.arxivs[root], default="")
        old = sorted((entries[i][2] for i in group if entries[i][0] < 0), key=lambda p: p.id)
        pid = old[0].id if old else doi or arxiv or entries[read[0]][2].id
        best = max(read, key=lambda i: _n_fields(entries[i][2]))  # max keeps the first of equals
        others = [entries[i][2] for i in read if i != best] + old
        replace[entries[best][:2]] = _combine(entries[best][2], others, pid)
        for i in read:
            if i != best:
                replace[entries[i][:2]] = None
                merged[entries[i][0]] += 1
    out = []
    for ri, r in enumerate(results):
        papers = []
        for pi, p in enumerate(r.papers):
            q = replace.get((ri, pi), p)
            if q is not None and not q.cite_key and q.id in kept_keys:
                q = replace_fields(q, cite_key=kept_keys[q.id])
            if q is not None:
                papers.append(q)
        out.append(replace_fields(r, papers=papers))
    return MergeOutcome(results=out, merged=merged)
