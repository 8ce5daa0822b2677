"""Ingestion: read corpus files, chunk abstracts on sentence boundaries, embed, upsert by content hash."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rag.embed import Embedder
from rag.text import split_sentences
from store.chroma import ChromaStore, Chunk
from store.papers import IngestProblem, Paper, iter_corpus_files, read_path

__all__ = ["FileReport", "IngestReport", "chunk_paper", "ingest_paths", "ingest_papers"]

log = logging.getLogger(__name__)


def chunk_paper(paper: Paper, count_tokens: Callable[[str], int], max_tokens: int = 200, overlap: int = 1) -> list[Chunk]:
    """Cut an abstract into chunks of whole sentences, each at most ``max_tokens`` tokens.

    Consecutive chunks share ``overlap`` sentences so no statement loses its context at a
    boundary. A single sentence longer than ``max_tokens`` is cut at word boundaries into
    pieces that fit, so nothing is ever truncated by the embedder.

    Args:
        paper: The paper.
        count_tokens: Tokens of a text in the embedder's tokenizer.
        max_tokens: Largest chunk, in tokens (all-MiniLM-L6-v2 reads 256).
        overlap: Sentences repeated at the start of the next chunk (0..5).

    Returns:
        Chunks in order with exact spans: ``paper.abstract[c.start:c.end] == c.text``.
    """
    text = paper.abstract
    units: list[tuple[int, int, int]] = []  # (start, end, tokens)
    for s in split_sentences(text):
        n = count_tokens(s.text)
        if n <= max_tokens:
            units.append((s.start, s.end, n))
            continue
        # Over-long sentence: split at spaces into pieces that fit.
        pos = s.start
        words = s.text.split(" ")
        piece_start, acc = pos, []
        for w in words:
            if acc and count_tokens(" ".join([*acc, w])) > max_tokens:
                end = piece_start + len(" ".join(acc))
                units.append((piece_start, end, count_tokens(" ".join(acc))))
                piece_start, acc = end + 1, []
            acc.append(w)
        if acc:
            units.append((piece_start, s.end, count_tokens(" ".join(acc))))
    chunks: list[Chunk] = []
    i = 0
    while i < len(units):
        j, total = i, 0
        while j < len(units) and (j == i or total + units[j][2] <= max_tokens):
            total += units[j][2]
            j += 1
        start, end = units[i][0], units[j - 1][1]
        chunks.append(Chunk(paper.id, len(chunks), text[start:end], start, end))
        if j >= len(units):
            break
        i = max(i + 1, j - overlap)
    return chunks


@dataclass
class FileReport:
    """What one ingest did with one file. ``found == added + updated + unchanged + duplicates``."""

    file: str
    found: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    problems: list[IngestProblem] = field(default_factory=list)

    def line(self) -> str:
        """One-line summary: ``file: found 19, added 19, updated 0, unchanged 0, failed 0``."""
        return (
            f"{self.file}: found {self.found}, added {self.added}, updated {self.updated}, "
            f"unchanged {self.unchanged}, failed {self.failed}"
        )


@dataclass
class IngestReport:
    """Per-file reports plus the store's totals after the ingest."""

    files: list[FileReport] = field(default_factory=list)
    papers_in_store: int = 0
    chunks_in_store: int = 0
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        """Records that could not be ingested, over all files."""
        return sum(f.failed for f in self.files)

    @property
    def added(self) -> int:
        """Papers added, over all files."""
        return sum(f.added for f in self.files)


def ingest_papers(
    papers: Sequence[Paper],
    store: ChromaStore,
    embedder: Embedder,
    *,
    max_tokens: int = 200,
    overlap: int = 1,
    batch_papers: int = 64,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[int, int, int]:
    """Upsert papers whose content hash is new or changed.

    Chunks of many papers are embedded together (``batch_papers`` papers per batch) for
    throughput; each batch is written before the next is embedded, so an interrupted run
    keeps what it finished.

    Returns:
        ``(added, updated, unchanged)`` paper counts.
    """
    stored = store.paper_hashes([p.id for p in papers])
    todo = [p for p in papers if stored.get(p.id) != p.content_hash]
    unchanged = len(papers) - len(todo)
    if on_progress and unchanged:
        on_progress(unchanged)
    added = updated = 0
    for b in range(0, len(todo), batch_papers):
        batch = todo[b : b + batch_papers]
        chunked = [chunk_paper(p, embedder.count_tokens, max_tokens, overlap) for p in batch]
        flat = [c.text for cs in chunked for c in cs]
        vecs = embedder.embed(flat)
        items, k = [], 0
        for p, cs in zip(batch, chunked, strict=True):
            items.append((p, cs, vecs[k : k + len(cs)]))
            k += len(cs)
        store.write_papers(items)
        for p in batch:
            if p.id in stored:
                updated += 1
            else:
                added += 1
        if on_progress:
            on_progress(len(batch))
    return added, updated, unchanged


def ingest_paths(
    paths: Iterable[Path],
    store: ChromaStore,
    embedder: Embedder,
    *,
    max_tokens: int = 200,
    overlap: int = 1,
    field_map: dict[str, str] | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> IngestReport:
    """Read every corpus file under ``paths`` and ingest its papers.

    A bad record is reported (file, line, reason) and the rest is ingested; a paper id
    seen twice is kept once (the first) and the repeat reported as a problem.
    """
    import time

    t0 = time.perf_counter()
    report = IngestReport()
    results = []
    for f in iter_corpus_files([Path(p) for p in paths]):
        res = read_path(f, field_map) if field_map else read_path(f)
        results.append(res)
    if on_total:
        on_total(sum(len(r.papers) for r in results))
    seen: set[str] = set()
    for res in results:
        fr = FileReport(file=res.file, problems=list(res.problems))
        fr.failed = len(res.problems)
        fresh = []
        for p in res.papers:
            if p.id in seen:
                fr.problems.append(IngestProblem(res.file, None, f"duplicate paper id {p.id!r} (kept the first)"))
                fr.failed += 1
                continue
            seen.add(p.id)
            fresh.append(p)
        fr.found = len(res.papers)
        fr.added, fr.updated, fr.unchanged = ingest_papers(
            fresh, store, embedder, max_tokens=max_tokens, overlap=overlap, on_progress=on_progress
        )
        report.files.append(fr)
    report.papers_in_store, report.chunks_in_store = store.counts()
    report.seconds = time.perf_counter() - t0
    return report
