"""Making the index match its sources: ``ingest --sync`` and ``remove``.

Both only change the store; the BM25 and name indexes, the evidence cache and the paper list
of a retriever are built from the store when a command or the page starts, so a consistent
store is all that is needed (a page already running serves what it read at its start).
Paper records go before their chunks (:meth:`store.chroma.ChromaStore.delete_papers`), so
an interrupted removal never leaves a paper without its chunks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rag.index.ingest import IngestReport, read_corpus, write_corpus
from store.chroma import ChromaStore
from store.papers import Paper

if TYPE_CHECKING:  # the type only: importing rag.index.embed loads llama-index
    from rag.index.embed import Embedder

__all__ = ["RemoveReport", "known_sources", "remove_papers", "remove_source", "sync_paths"]


def _reconcile(report: IngestReport, papers: Sequence[Sequence[Paper]], store: ChromaStore) -> None:
    """Remove the stored papers of each synced file that it no longer holds; record moves."""
    read = {p.id: fr.file for fr, ps in zip(report.files, papers, strict=True) for p in ps}
    sources = store.paper_sources()
    moved = {pid: src for pid, src in read.items() if pid in sources and sources[pid] != src}
    if moved:
        store.set_sources(moved)
    for fr in report.files:
        fr.synced = True
        gone = sorted(pid for pid, src in sources.items() if src == fr.file and pid not in read)
        if not gone:
            continue
        if fr.failed:
            # A record that failed may be one of them: nothing of this file is removed until it reads cleanly.
            fr.kept = len(gone)
            continue
        store.delete_papers(gone)
        fr.removed = len(gone)


def sync_paths(
    paths: Iterable[Path],
    store: ChromaStore,
    embedder: Embedder,
    *,
    max_tokens: int = 200,
    overlap: int = 1,
    field_map: dict[str, str] | None = None,
    batch_papers: int = 128,
    on_progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
    collection: str | None = None,
) -> IngestReport:
    """Make the index match the files under ``paths``: add, update, and remove what they no longer hold.

    Each file is ingested as by :func:`rag.index.ingest.ingest_paths`; then every stored paper whose
    source is one of these files (by file name) and that no file read now holds is removed
    (``removed`` in the file's report). A paper that moved to another of the files keeps its
    vectors and gets its new source. A file with any failure (a record that could not be read,
    or the file itself) removes nothing: its papers the sync would have removed are counted in
    ``kept``, to be removed once it reads cleanly (or with :func:`remove_source`). Papers of
    files not named (or not found under a named folder) are untouched.

    Returns:
        The report, with ``removed``/``kept`` per file and the store's totals after the sync.

    Raises:
        IngestInterrupted: on Ctrl-C while writing; nothing was removed yet, and running the
            same sync again completes it.
    """
    t0 = time.perf_counter()
    report, papers = read_corpus(paths, field_map, known=store.all_papers(), collection=collection)
    write_corpus(
        report, papers, store, embedder, max_tokens=max_tokens, overlap=overlap, batch_papers=batch_papers,
        on_progress=on_progress, on_total=on_total,
    )
    _reconcile(report, papers, store)
    report.papers_in_store, report.chunks_in_store = store.counts()
    report.seconds = time.perf_counter() - t0
    return report


@dataclass
class RemoveReport:
    """What a removal did.

    Attributes:
        removed: Ids of the papers removed (with all their chunks).
        missing: Ids asked for that the index does not hold.
        papers_in_store: Papers left.
        chunks_in_store: Chunks left.
    """

    removed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    papers_in_store: int = 0
    chunks_in_store: int = 0


def remove_papers(store: ChromaStore, ids: Iterable[str]) -> RemoveReport:
    """Remove papers, and their chunks, by id.

    Args:
        store: The store.
        ids: Paper ids as the Sources list shows them (``000_6b930c46f6674b66#1``).

    Returns:
        Which ids were removed and which the index does not hold.
    """
    wanted = list(dict.fromkeys(ids))
    held = store.paper_hashes(wanted)
    report = RemoveReport(removed=[i for i in wanted if i in held], missing=[i for i in wanted if i not in held])
    store.delete_papers(report.removed)
    report.papers_in_store, report.chunks_in_store = store.counts()
    return report


def remove_source(store: ChromaStore, source: str | Path) -> RemoveReport:
    """Remove every paper that came from one source file (matched by file name).

    Args:
        store: The store.
        source: The file name (``papers.jsonl``) or a path to it (its name is used; the file
            need not exist any more).

    Returns:
        The papers removed; ``missing`` holds the name when no stored paper came from it.
    """
    name = Path(source).name
    ids = sorted(pid for pid, src in store.paper_sources().items() if src == name)
    report = RemoveReport(removed=ids, missing=[] if ids else [name])
    store.delete_papers(ids)
    report.papers_in_store, report.chunks_in_store = store.counts()
    return report


def known_sources(store: ChromaStore) -> dict[str, int]:
    """Papers per source file name, for messages that list what could be removed."""
    out: dict[str, int] = {}
    for src in store.paper_sources().values():
        out[src] = out.get(src, 0) + 1
    return dict(sorted(out.items()))

