"""Ingestion: read corpus files, chunk abstracts on sentence boundaries, embed, upsert by content hash."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rag.text import Sentence, split_sentences
from store.chroma import ChromaStore, Chunk, StoreError
from store.compressed import corpus_stem
from store.merge import merge_duplicates
from store.papers import IngestProblem, Paper, ReadResult, iter_corpus_files, mend_collection, read_path

if TYPE_CHECKING:  # the type only: importing rag.index.embed loads llama-index
    from rag.index.embed import Embedder

__all__ = [
    "FileReport",
    "IngestInterrupted",
    "IngestReport",
    "chunk_paper",
    "embed_by_length",
    "ingest_papers",
    "ingest_paths",
    "read_corpus",
    "token_counter",
    "write_corpus",
]

log = logging.getLogger(__name__)


def chunk_paper(
    paper: Paper, count_tokens: Callable[[str], int], max_tokens: int = 200, overlap: int = 1
) -> list[Chunk]:
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
    units = split_sentences(paper.abstract)
    return [c for c, _ in _chunks_with_tokens(paper, units, count_tokens, max_tokens, overlap)]


def _chunks_with_tokens(
    paper: Paper, sentences: Sequence[Sentence], count_tokens: Callable[[str], int], max_tokens: int, overlap: int
) -> list[tuple[Chunk, int]]:
    """:func:`chunk_paper` on pre-split sentences; each chunk with the sum of its units' tokens."""
    text = paper.abstract
    units: list[tuple[int, int, int]] = []  # (start, end, tokens)
    for s in sentences:
        n = count_tokens(s.text)
        if n <= max_tokens:
            units.append((s.start, s.end, n))
            continue
        # Over-long sentence: split at spaces into pieces that fit.
        pos = s.start
        words = s.text.split(" ")
        piece_start, acc = pos, list[str]()
        for w in words:
            if acc and count_tokens(" ".join([*acc, w])) > max_tokens:
                end = piece_start + len(" ".join(acc))
                units.append((piece_start, end, count_tokens(" ".join(acc))))
                piece_start, acc = end + 1, []
            acc.append(w)
        if acc:
            units.append((piece_start, s.end, count_tokens(" ".join(acc))))
    chunks: list[tuple[Chunk, int]] = []
    i = 0
    while i < len(units):
        j, total = i, 0
        while j < len(units) and (j == i or total + units[j][2] <= max_tokens):
            total += units[j][2]
            j += 1
        start, end = units[i][0], units[j - 1][1]
        chunks.append((Chunk(paper.id, len(chunks), text[start:end], start, end), total))
        if j >= len(units):
            break
        i = max(i + 1, j - overlap)
    return chunks


def token_counter(embedder: Embedder) -> Callable[[list[str]], list[int]]:
    """A function counting the tokens of many texts in one call, equal to ``embedder.count_tokens``.

    Uses the embedder's ``count_tokens_batch`` when it has one, else the fast (Rust) tokenizer
    of a sentence-transformers model in one batch call, else ``count_tokens`` per text.
    """
    many = getattr(embedder, "count_tokens_batch", None)
    if callable(many):
        return many
    tok = getattr(getattr(embedder, "_model", None), "tokenizer", None)
    if tok is not None and getattr(tok, "is_fast", False):

        def batch(texts: list[str]) -> list[int]:
            if not texts:
                return []
            ids = tok(
                list(texts),
                add_special_tokens=False,
                truncation=False,
                return_attention_mask=False,
                return_token_type_ids=False,
                verbose=False,
            )["input_ids"]
            return [len(x) for x in ids]

        return batch
    return lambda texts: [embedder.count_tokens(t) for t in texts]


def embed_by_length(embedder: Embedder, texts: Sequence[str], tokens: Sequence[int], batch_size: int) -> np.ndarray:
    """Embed texts in batches of similar token length, so little compute goes to padding.

    A transformer pads every text of a batch to the batch's longest. Sorting by exact token
    count (not by characters, as sentence-transformers does) before cutting batches of
    ``batch_size`` cuts padding on chunks of mixed lengths: on 128 ICML abstracts (226 chunks),
    12% padded tokens instead of 23%.

    Args:
        embedder: The embedder.
        texts: ``n`` texts.
        tokens: Token count of each text (an estimate is enough: it only orders them).
        batch_size: Texts per forward pass.

    Returns:
        ``(n, d)`` float32 unit rows, in the order of ``texts``.
    """
    out = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda i: -tokens[i])
    for b in range(0, len(order), batch_size):
        idx = order[b : b + batch_size]
        out[idx] = embedder.embed([texts[i] for i in idx])
    return out


@dataclass
class FileReport:
    """What one ingest did with one file.

    ``found == added + updated + unchanged + merged + failed``: every record found ends in exactly
    one of those (a repeated paper id and a paper whose write failed count as failed; a file that
    cannot be read at all counts as one failed record, a table without an abstract column as
    many as it has rows (:attr:`IngestProblem.records`); ``merged`` counts records that were the
    same paper as another record, of this or another file or the store, and went into its
    paper). ``removed`` counts papers of this file
    that ``--sync`` took out of the index because the file no longer holds them.

    Attributes:
        file: File name.
        found: Records found.
        added: Papers new to the index.
        updated: Papers whose content changed.
        unchanged: Papers already indexed as they are.
        failed: Records (or the whole file) that could not be ingested; each is in ``problems``.
        removed: Papers removed by a sync.
        merged: Records merged into another record's paper (same DOI, arXiv id or title).
        encoding: How the file was decoded (``utf-8``, ``utf-8 (BOM)``, ``cp1252``, ...).
        problems: One per failure: file, line, reason.
        repairs: Records ingested after a repair (lone surrogates, another encoding, NULs).
        mended: Words of the file's titles and abstracts mended at a line break ("atmo- spheric"
            -> "atmospheric", "moreefficient" -> "more efficient"; :func:`store.papers.repair_line_breaks`).
        synced: The file was synced (``--sync``): the line reports ``removed``.
        kept: Papers a sync did not remove although the file no longer yields them (because
            some of its records failed, or the file could not be read).
        changed: Ids of the papers written (added or updated), in the order written: what saved
            questions are asked again over (:mod:`rag.route.watch`).
    """

    file: str
    found: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    removed: int = 0
    merged: int = 0
    encoding: str = ""
    problems: list[IngestProblem] = field(default_factory=list)
    repairs: list[IngestProblem] = field(default_factory=list)
    mended: int = 0
    synced: bool = False
    kept: int = 0
    changed: list[str] = field(default_factory=list)

    def fail(self, problem: IngestProblem) -> None:
        """Record a failure: its records (one, or every row of a table, see
        :attr:`IngestProblem.records`) are counted in ``found`` and ``failed``."""
        self.problems.append(problem)
        self.failed += problem.records
        self.found += problem.records

    def line(self) -> str:
        """One-line summary, e.g. ``a.jsonl: found 19, added 19, updated 0, unchanged 0, failed 0; utf-8``.

        A sync adds ``removed N`` before the encoding; an unreadable file has no encoding part.
        """
        out = (
            f"{self.file}: found {self.found}, added {self.added}, updated {self.updated}, "
            f"unchanged {self.unchanged}, failed {self.failed}"
        )
        if self.merged:
            out += f", merged {self.merged} (same paper as another record)"
        if self.synced:
            out += f", removed {self.removed}"
        if self.mended:
            out += f", mended {self.mended} word{'s' if self.mended != 1 else ''} a line break had cut or run together"
        out += f"; {self.encoding}" if self.encoding else ""
        if self.kept:
            out += (
                f" (kept {self.kept} paper{'s' if self.kept != 1 else ''} it no longer holds: fix its failures and "
                f"sync again, or run `paperchat remove --source {self.file}`)"
            )
        return out


@dataclass
class IngestReport:
    """Per-file reports plus the store's totals after the ingest."""

    files: list[FileReport] = field(default_factory=list)
    papers_in_store: int = 0
    chunks_in_store: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    unmended: dict[str, int] = field(default_factory=dict)
    """Stored papers not read by this ingest whose text holds words a line break cut or ran
    together (stored before ingest mended them), by source file: ingesting it again mends them."""

    def unmended_line(self) -> str:
        """A sentence naming the files to ingest again when :attr:`unmended` is not empty, else ``""``."""
        if not self.unmended:
            return ""
        n = sum(self.unmended.values())
        papers, holds = ("paper", "holds") if n == 1 else ("papers", "hold")
        files = ", ".join(sorted(self.unmended))
        which = "that file" if len(self.unmended) == 1 else "those files"
        return (
            f"{n} stored {papers} (from {files}) {holds} words a line break cut or ran together, stored before "
            f"ingest mended them: ingest {which} again to mend them (only those papers are written again)."
        )

    @property
    def failed(self) -> int:
        """Records that could not be ingested, over all files."""
        return sum(f.failed for f in self.files)

    @property
    def added(self) -> int:
        """Papers added, over all files."""
        return sum(f.added for f in self.files)

    @property
    def changed(self) -> list[str]:
        """Ids of the papers added or updated, over all files, each once."""
        return list(dict.fromkeys(pid for f in self.files for pid in f.changed))


def ingest_papers(
    papers: Sequence[Paper],
    store: ChromaStore,
    embedder: Embedder,
    *,
    max_tokens: int = 200,
    overlap: int = 1,
    batch_papers: int = 128,
    on_progress: Callable[[int], None] | None = None,
    into: FileReport | None = None,
) -> tuple[int, int, int]:
    """Upsert papers whose content hash is new or changed.

    Chunks of ``batch_papers`` papers are embedded together, in batches of similar token
    length (``embedder.batch_size`` texts, default 64), and written before the next papers
    are embedded: an interrupted run keeps every batch it finished, and the next run reports
    those papers as unchanged. Within a batch, a paper's record is written after its chunks
    (see :mod:`store.chroma`), so a paper is never stored without its chunks.

    Args:
        papers: Papers to ingest (ids unique).
        store: The store.
        embedder: The embedder.
        max_tokens: Largest chunk, in tokens.
        overlap: Sentences shared by consecutive chunks.
        batch_papers: Papers embedded and written together (the most work an interruption loses).
        on_progress: Called with the number of papers finished (unchanged ones at once).
        into: A report whose ``added``/``updated``/``unchanged`` are updated as batches are written.

    Returns:
        ``(added, updated, unchanged)`` paper counts.
    """
    into = into if into is not None else FileReport(file="")
    base = (into.added, into.updated, into.unchanged)
    stored = store.paper_hashes([p.id for p in papers])
    todo = [p for p in papers if stored.get(p.id) != p.content_hash]
    into.unchanged += len(papers) - len(todo)
    if on_progress and len(papers) > len(todo):
        on_progress(len(papers) - len(todo))
    if not todo:  # nothing to embed: the embedder is not touched (a lazily loaded one stays unloaded)
        return into.added - base[0], into.updated - base[1], into.unchanged - base[2]
    count_many = token_counter(embedder)
    batch_size = int(getattr(embedder, "batch_size", 64) or 64)

    def write(batch: list[Paper]) -> None:
        sentences = [split_sentences(p.abstract) for p in batch]
        flat_sentences = [s.text for ss in sentences for s in ss]
        known = dict(zip(flat_sentences, count_many(flat_sentences), strict=True))

        def count(text: str, known: dict[str, int] = known) -> int:
            n = known.get(text)
            return embedder.count_tokens(text) if n is None else n

        chunked = [
            _chunks_with_tokens(p, ss, count, max_tokens, overlap) for p, ss in zip(batch, sentences, strict=True)
        ]
        flat = [c for cs in chunked for c in cs]
        vecs = embed_by_length(embedder, [c.text for c, _ in flat], [n for _, n in flat], batch_size)
        items, k = [], 0
        for p, cs in zip(batch, chunked, strict=True):
            items.append((p, [c for c, _ in cs], vecs[k : k + len(cs)]))
            k += len(cs)
        counted = False
        try:
            store.write_papers(items)
            n_updated = sum(p.id in stored for p in batch)
            into.added, into.updated = into.added + len(batch) - n_updated, into.updated + n_updated
            into.changed += [p.id for p in batch]
            counted = True
        except KeyboardInterrupt:
            if not counted:  # count what the interrupted write stored, so the report equals the store
                now = store.paper_hashes([p.id for p in batch])
                done = [p for p in batch if now.get(p.id) == p.content_hash]
                n_updated = sum(p.id in stored for p in done)
                into.added, into.updated = into.added + len(done) - n_updated, into.updated + n_updated
                into.changed += [p.id for p in done]
            raise

    for b in range(0, len(todo), batch_papers):
        batch = todo[b : b + batch_papers]
        try:
            write(batch)
        except (KeyboardInterrupt, StoreError):
            raise  # Ctrl-C, or the store itself is unusable (another model's vectors, a lost server)
        except Exception:  # noqa: BLE001 - one bad paper must not cost the others: write them one by one
            log.warning("a batch of %d papers failed; writing them one by one", len(batch), exc_info=True)
            for paper in batch:
                try:
                    write([paper])
                except (KeyboardInterrupt, StoreError):
                    raise
                except Exception as exc:  # noqa: BLE001 - reported with the paper's id, the rest goes on
                    into.problems.append(
                        IngestProblem(into.file, None, f"paper {paper.id!r} could not be indexed: {exc}")
                    )
                    into.failed += 1
        if on_progress:
            on_progress(len(batch))
    return into.added - base[0], into.updated - base[1], into.unchanged - base[2]


class IngestInterrupted(KeyboardInterrupt):
    """Ctrl-C during an ingest; ``report`` counts what was finished (and stored) before it.

    Every batch written before the interruption is kept; running the same ingest again
    reports those papers as unchanged and adds the rest.
    """

    def __init__(self, report: IngestReport):
        super().__init__("ingest interrupted")
        self.report = report


def read_corpus(
    paths: Iterable[Path],
    field_map: dict[str, str] | None = None,
    *,
    known: Iterable[Paper] = (),
    collection: str | None = None,
) -> tuple[IngestReport, list[list[Paper]]]:
    """Read every corpus file under ``paths``; nothing is written.

    Each file is decoded whatever its encoding and read by the reader its format selects;
    a bad record, or a file that cannot be read (even by a failing reader), is a problem of
    that file only. Records of the same paper (DOI, arXiv id, title; see :mod:`store.merge`),
    across files and with the ``known`` (stored) papers, become one paper. A paper id seen twice
    otherwise is kept once (the first) and the repeat is a problem; so is a paper whose id a stored
    paper of another source file holds (ids are ``<file stem>#<n>``, and ``a.csv`` and ``a.json``
    share a stem): one file never replaces another's paper. ``collection`` selects a
    collection of a Zotero database. Words a line break cut or ran together are mended, on the
    evidence of the dictionary and of the whole collection, the ``known`` papers included
    (:func:`store.papers.mend_collection`); stored papers not read again that hold such words
    (stored before the repair existed) are counted in :attr:`IngestReport.unmended`.

    Returns:
        ``(report, papers)``: one :class:`FileReport` per file (``found`` and ``failed`` set)
        and, for each, the papers to write (duplicates left out).
    """
    report = IngestReport()
    results = []
    for f in iter_corpus_files([Path(p) for p in paths]):
        try:
            res = read_path(f, field_map, collection=collection)
        except Exception as exc:  # noqa: BLE001 - a reader bug costs this file only, never the others
            log.warning("reading %s failed", f, exc_info=True)
            res = ReadResult(file=f.name, problems=[IngestProblem(f.name, None, f"cannot read file: {exc!r}")])
        results.append(res)
    known = list(known)
    held_from = {p.id: p.source for p in known if p.source}
    merge = merge_duplicates(results, known=known)
    seen: set[str] = set()
    todo: list[list[Paper]] = []
    for res, n_merged in zip(merge.results, merge.merged, strict=True):
        fr = FileReport(file=res.file, encoding=res.encoding, repairs=list(res.repairs), merged=n_merged)
        fr.found += n_merged
        for problem in res.problems:
            fr.fail(problem)
        fresh = []
        for p in res.papers:
            if p.id in seen:
                fr.fail(IngestProblem(res.file, None, f"duplicate paper id {p.id!r} (kept the first)"))
                continue
            other = held_from.get(p.id, p.source)
            if other != p.source and p.id.startswith(f"{corpus_stem(p.source)}#"):  # an id made from the file name
                fr.fail(
                    IngestProblem(
                        res.file,
                        None,
                        f"paper id {p.id!r} is already held by a paper from {other} (kept); "
                        f"rename {p.source} or remove the other (`paperchat remove --source {other}`)",
                    )
                )
                continue
            seen.add(p.id)
            fr.found += 1
            fresh.append(p)
        todo.append(fresh)
        report.files.append(fr)
    read_ids = {p.id for t in todo for p in t}
    batch, stale = mend_collection([p for t in todo for p in t], [p for p in known if p.id not in read_ids])
    mended = iter(batch)
    todo = [[next(mended) for _ in t] for t in todo]
    report.unmended = dict(Counter(p.source or p.id for p in stale))
    for fr, t in zip(report.files, todo, strict=True):
        fr.mended = sum(len(p.edits) for p in t)
    return report, todo


def write_corpus(
    report: IngestReport,
    papers: Sequence[Sequence[Paper]],
    store: ChromaStore,
    embedder: Embedder,
    *,
    max_tokens: int = 200,
    overlap: int = 1,
    batch_papers: int = 128,
    on_progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> None:
    """Write the papers :func:`read_corpus` read, counting into each file's report.

    Raises:
        IngestInterrupted: on Ctrl-C; its ``report`` counts what was written before it.
    """
    t0 = time.perf_counter()
    if on_total:
        on_total(sum(len(t) for t in papers))
    try:
        for fr, todo in zip(report.files, papers, strict=True):
            ingest_papers(
                todo, store, embedder, max_tokens=max_tokens, overlap=overlap, batch_papers=batch_papers,
                on_progress=on_progress, into=fr,
            )
    except KeyboardInterrupt as exc:
        report.interrupted = True
        report.seconds += time.perf_counter() - t0
        try:
            report.papers_in_store, report.chunks_in_store = store.counts()
        except Exception:  # noqa: BLE001 - the server went away meanwhile: the counts stay 0
            log.debug("no store counts after the interruption", exc_info=True)
        raise IngestInterrupted(report) from exc
    report.seconds += time.perf_counter() - t0


def ingest_paths(
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
    """Read every corpus file under ``paths`` and ingest its papers (:func:`read_corpus`, then
    :func:`write_corpus`). Papers no longer in a file stay indexed: see :func:`rag.index.sync.sync_paths`.

    A bad record is reported (file, line, reason) and the rest is ingested; a paper id
    seen twice is kept once (the first) and the repeat reported as a problem. All files are
    read (and their reports created) before anything is embedded.

    Raises:
        IngestInterrupted: on Ctrl-C; its ``report`` counts what was written before it.
    """
    t0 = time.perf_counter()
    report, todo = read_corpus(paths, field_map, known=store.all_papers(), collection=collection)
    write_corpus(
        report, todo, store, embedder, max_tokens=max_tokens, overlap=overlap, batch_papers=batch_papers,
        on_progress=on_progress, on_total=on_total,
    )
    report.papers_in_store, report.chunks_in_store = store.counts()
    report.seconds = time.perf_counter() - t0
    return report
