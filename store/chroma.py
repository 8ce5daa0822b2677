"""The only code that talks to Chroma: chunk vectors and paper records.

Two collections per index name (the name is derived from the embedder and chunking
settings, so vectors of different models never mix):

* ``<name>``: one entry per chunk: embedding, chunk text, ``paper_id``, ``chunk_index``,
  ``start``/``end`` (character span in the abstract) and the paper's ``content_hash``;
* ``<name>_papers``: one entry per paper: the abstract as document, the record's fields
  as metadata and the normalised mean of its chunk embeddings.

Writes are ordered so that an interrupted ingest leaves the store consistent: a paper's
old chunks are deleted, its new chunks added, and its paper record written last. A paper
whose record is missing or has another hash is simply ingested again on the next run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from filelock import FileLock, Timeout

from store.guard import neutralize_markers
from store.labels import choose_label, whole_url
from store.papers import Paper
from store.textin import TextEdit

if TYPE_CHECKING:  # chromadb is imported when a store is opened, not with this module
    from chromadb.base_types import InclusionExclusionOperator, LiteralValue, Metadata, Where

__all__ = ["Chunk", "ChromaStore", "DimensionMismatch", "StoreAudit", "StoreDamaged", "StoreError"]

log = logging.getLogger(__name__)
_BATCH = 2000  # below Chroma's max batch size (5,461 on SQLite builds)
OPEN_LOCK_TIMEOUT = 60.0
"""Seconds a process waits for another to finish opening the same local store (an open takes
well under a second; a wait this long means a stuck process, and the open then fails)."""
_T = TypeVar("_T")


class StoreError(RuntimeError):
    """The store cannot be opened or used; the message says how to fix it."""


class DimensionMismatch(StoreError):
    """Vectors of another dimension than the collection's were offered."""


class StoreDamaged(StoreError):
    """Chroma failed to open or read the store; the message says how to rebuild it."""


def _remedy(location: str, url: bool) -> str:
    if url:
        return f"check that the Chroma server at {location} runs (`chroma run --path DIR --port N`) and is healthy"
    return (
        f"the index may be damaged (for example by two processes writing it at once). Rebuild it: delete the "
        f"folder {location} and index your papers again with `paperchat ingest PATH...` "
        "(`paperchat ingest` alone indexes the bundled papers)"
    )


def _guarded(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn any failure of Chroma inside a read into :class:`StoreDamaged` with the remedy."""

    @functools.wraps(method)
    def wrapper(self: ChromaStore, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            log.debug("Chroma failed in %s", method.__name__, exc_info=True)
            raise StoreDamaged(
                f"Chroma could not read the index at {self.location} ({type(exc).__name__}: {exc}); "
                + _remedy(self.location, self.is_remote)
                + "."
            ) from exc

    return wrapper


@dataclass(frozen=True)
class Chunk:
    """A contiguous run of sentences of one abstract.

    Attributes:
        paper_id: Id of the paper.
        index: 0-based position of the chunk in the paper.
        text: ``abstract[start:end]``.
        start: Character offset of the chunk in the abstract (inclusive).
        end: Character offset where it ends (exclusive).
    """

    paper_id: str
    index: int
    text: str
    start: int
    end: int

    @property
    def id(self) -> str:
        """Chroma id of the chunk: ``<paper id>::<index>``."""
        return f"{self.paper_id}::{self.index}"


@dataclass(frozen=True)
class StoreAudit:
    """What :meth:`ChromaStore.audit` found.

    Attributes:
        papers: Paper records held.
        chunks: Chunk entries held.
        incomplete: Ids of papers whose record exists but whose chunks are missing, extra
            or of another content hash (must be empty: writes are ordered to prevent it).
        orphans: Chunk ids whose paper has no record: left by an interrupted write, harmless
            (retrieval ignores them) and replaced when the paper is ingested again.
    """

    papers: int
    chunks: int
    incomplete: tuple[str, ...] = ()
    orphans: tuple[str, ...] = ()

    @property
    def consistent(self) -> bool:
        """Every stored paper has exactly its chunks (orphan chunks are allowed)."""
        return not self.incomplete


def _of_papers(ids: Sequence[str]) -> Where:
    """Chroma filter on chunk metadata: the chunks of the papers ``ids``."""
    members: dict[InclusionExclusionOperator, list[LiteralValue]] = {"$in": list(ids)}
    return {"paper_id": members}


def _as_int(value: object) -> int:
    """A whole-number metadata value as ``int`` (Chroma types each value as any of its scalars).

    Raises:
        TypeError: ``value`` is no number or text (as ``int(value)`` would).
    """
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"int() argument must be a string or a number, not {type(value).__name__!r}")


def _paper_meta(paper: Paper, n_chunks: int) -> dict:
    return {
        "title": paper.title,
        "label": paper.label,
        "authors": json.dumps(list(paper.authors), ensure_ascii=False),
        "aliases": json.dumps(list(paper.aliases), ensure_ascii=False),
        "year": paper.year if paper.year is not None else -1,
        "venue": paper.venue,
        "url": paper.url,
        "source": paper.source,
        "doi": paper.doi,
        "label_kind": paper.label_kind,
        "cite_key": paper.cite_key,
        "content_hash": paper.content_hash,
        "n_chunks": n_chunks,
        "edits": json.dumps([[f, e.start, e.before, e.after, e.kind] for f, e in paper.edits], ensure_ascii=False),
    }


def _paper_from(pid: str, abstract: str, meta: dict) -> Paper:
    """A stored paper. One stored before labels had kinds (no ``label_kind``) is labelled again
    from its record (:func:`store.labels.choose_label`): its stored label may be a cut sentence."""
    year = meta.get("year", -1)
    label, kind = meta.get("label", ""), meta.get("label_kind", "")
    aliases = tuple(json.loads(meta.get("aliases", "[]")))
    if not kind:
        fresh, fresh_aliases, kind = choose_label(abstract, meta.get("title", ""))
        label, aliases = neutralize_markers(fresh) or label, fresh_aliases or aliases
    return Paper(
        id=pid,
        abstract=abstract,
        title=meta.get("title", ""),
        label=label,
        authors=tuple(json.loads(meta.get("authors", "[]"))),
        year=None if year in (-1, None) else int(year),
        venue=meta.get("venue", ""),
        url=whole_url(abstract, meta.get("url", "")),  # an index written before URLs were joined
        source=meta.get("source", ""),
        aliases=aliases,
        doi=meta.get("doi", ""),
        label_kind=kind,
        cite_key=meta.get("cite_key", ""),
        edits=tuple((f, TextEdit(int(at), was, now, k)) for f, at, was, now, k in json.loads(meta.get("edits", "[]"))),
    )


class ChromaStore:
    """Paper and chunk storage in Chroma, local on disk or on a Chroma server.

    Args:
        name: Index name (``Settings.index_name()``), at least 3 characters.
        path: Directory of the persistent local store (ignored when ``url`` is given).
        url: ``http://host:port`` of a Chroma server (``chroma run``); empty for local.
        fresh: A local store opened anew, seeing what other processes wrote since this process
            first opened it (a reader after an ingest); the default shares the open one.

    Raises:
        StoreError: the server cannot be reached or the directory cannot be opened.
    """

    def __init__(self, name: str, *, path: Path | None = None, url: str = "", fresh: bool = False):
        import chromadb
        from chromadb.config import Settings as ChromaSettings

        if fresh and path is not None and not url:
            # Chroma keeps one system per directory and process, whose vector index does not see
            # what another process added since it was loaded: start a new one (clients already
            # open look their system up by directory, so they move to the new one too).
            from chromadb.api.shared_system_client import SharedSystemClient

            SharedSystemClient._identifier_to_system.pop(str(path), None)
            SharedSystemClient._identifier_to_refcount.pop(str(path), None)

        settings = ChromaSettings(anonymized_telemetry=False)
        self.name = name
        self.location = url or str(path)
        self.is_remote = bool(url)
        try:
            if url:
                from urllib.parse import urlparse

                u = urlparse(url)
                self.client = chromadb.HttpClient(
                    host=u.hostname or "127.0.0.1",
                    port=u.port or 8000,
                    ssl=u.scheme == "https",
                    settings=settings,
                )
                self.client.heartbeat()
            else:
                if path is None:
                    raise StoreError("ChromaStore needs a path or a url")
                path.mkdir(parents=True, exist_ok=True)
                # Chroma's first open of a folder creates its SQLite tables; two processes doing it at
                # once fail with "table collections already exists". Opening is serialized across
                # processes by a lock file beside the folder (held for the open only, not for reads).
                with FileLock(str(path.with_name(path.name + ".open.lock")), timeout=OPEN_LOCK_TIMEOUT):
                    self.client = chromadb.PersistentClient(path=str(path), settings=settings)
        except StoreError:
            raise
        except Timeout as exc:
            raise StoreError(
                f"Another process has been opening the local store at {path} for over {OPEN_LOCK_TIMEOUT:.0f} s; "
                f"stop it, or if none runs, delete the lock file {exc.lock_file}"
            ) from exc
        except Exception as exc:
            where = f"the Chroma server at {url}" if url else f"the local store at {path}"
            if url:
                hint = "start it with `chroma run --path DIR --port N`"
                raise StoreError(f"Cannot open {where}: {exc} — {hint}") from exc
            raise StoreDamaged(f"Cannot open {where}: {exc}; {_remedy(self.location, False)}.") from exc
        try:
            self._batch = max(1, min(_BATCH, int(self.client.get_max_batch_size())))
        except Exception:  # noqa: BLE001 - older servers do not report it; our default is below every limit
            self._batch = _BATCH
        self._open_collections()

    @_guarded
    def _open_collections(self) -> None:
        space = {"hnsw:space": "cosine"}
        self.chunks = self.client.get_or_create_collection(self.name, metadata=space, embedding_function=None)
        self.papers = self.client.get_or_create_collection(
            f"{self.name}_papers", metadata=space, embedding_function=None
        )

    # --- reads -------------------------------------------------------------------

    @_guarded
    def counts(self) -> tuple[int, int]:
        """``(papers, chunks)`` held by the store."""
        return self.papers.count(), self.chunks.count()

    @_guarded
    def paper_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        """Content hash of each stored paper among ``ids`` (missing ids are absent)."""
        out: dict[str, str] = {}
        for i in range(0, len(ids), self._batch):
            got = self.papers.get(ids=list(ids[i : i + self._batch]), include=["metadatas"])
            for pid, meta in zip(got["ids"], got["metadatas"] or [], strict=False):
                out[pid] = str((meta or {}).get("content_hash", ""))
        return out

    @_guarded
    def fingerprint(self) -> str:
        """A key of the collection's content (40 hex digits): the SHA-1 of every paper record's id and
        metadata (its content hash covers the abstract) and of the chunk count. Any write changes it;
        reading it costs one metadata scan of the paper records, not the documents."""
        digest = hashlib.sha1(f"{self.name}|{self.chunks.count()}".encode())
        for pid, meta in sorted(self._all_metadata(self.papers), key=lambda x: x[0]):
            digest.update(json.dumps([pid, meta], sort_keys=True, default=str).encode())
        return digest.hexdigest()

    @_guarded
    def all_papers(self) -> list[Paper]:
        """Every stored paper, in id order."""
        out: list[Paper] = []
        total = self.papers.count()
        for offset in range(0, total, self._batch):
            got = self.papers.get(include=["documents", "metadatas"], limit=self._batch, offset=offset)
            for pid, doc, meta in zip(got["ids"], got["documents"] or [], got["metadatas"] or [], strict=False):
                out.append(_paper_from(pid, doc or "", dict(meta or {})))
        out.sort(key=lambda p: p.id)
        return out

    @_guarded
    def query_chunks(self, vector: np.ndarray, n: int, where: dict | None = None) -> list[tuple[str, int, float]]:
        """Nearest chunks to a query vector.

        Args:
            vector: ``(d,)`` float32 query embedding (normalised).
            n: How many chunks to return (capped at the collection size).
            where: Optional Chroma metadata filter on chunks.

        Returns:
            ``(paper_id, chunk_index, cosine similarity)`` best first; similarity in [-1, 1].
        """
        total = self.chunks.count()
        if total == 0:
            return []
        res = self.chunks.query(
            query_embeddings=[np.asarray(vector, dtype=np.float32).tolist()],
            n_results=min(n, total),
            where=where,
            include=["metadatas", "distances"],
        )
        out = []
        # both were asked for in ``include``; Chroma types every field of a result as optional
        metas, dists = (res["metadatas"] or [[]])[0], (res["distances"] or [[]])[0]
        for meta, dist in zip(metas, dists, strict=False):
            out.append((str(meta["paper_id"]), _as_int(meta["chunk_index"]), 1.0 - float(dist)))
        return out

    @_guarded
    def audit(self) -> StoreAudit:
        """Check that every paper record has exactly its chunks (same content hash, indices 0..n-1).

        Reads every record's metadata (no vectors): about 0.1 s per 10,000 chunks locally.
        """
        papers: dict[str, tuple[str, int]] = {}
        for meta_id, meta in self._all_metadata(self.papers):
            papers[meta_id] = (str(meta.get("content_hash", "")), int(meta.get("n_chunks", -1)))
        have: dict[str, list[tuple[int, str]]] = {}
        orphans: list[str] = []
        n_chunks = 0
        for cid, meta in self._all_metadata(self.chunks):
            n_chunks += 1
            pid = str(meta.get("paper_id", ""))
            if pid not in papers:
                orphans.append(cid)
                continue
            have.setdefault(pid, []).append((int(meta.get("chunk_index", -1)), str(meta.get("content_hash", ""))))
        incomplete = []
        for pid, (chash, n) in papers.items():
            got = sorted(have.get(pid, []))
            if [i for i, _ in got] != list(range(n)) or any(h != chash for _, h in got):
                incomplete.append(pid)
        return StoreAudit(len(papers), n_chunks, tuple(sorted(incomplete)), tuple(sorted(orphans)))

    def _all_metadata(self, collection) -> Iterable[tuple[str, dict]]:
        total = collection.count()
        for offset in range(0, total, self._batch):
            got = collection.get(include=["metadatas"], limit=self._batch, offset=offset)
            for cid, meta in zip(got["ids"], got["metadatas"] or [], strict=False):
                yield cid, dict(meta or {})

    def vector_store(self):
        """The chunk collection as a llama-index ``ChromaVectorStore`` (for llama-index retrievers).

        Its ``query`` raises :class:`StoreDamaged` (with the remedy) when Chroma fails.
        """
        from llama_index.vector_stores.chroma import ChromaVectorStore

        store = self

        class GuardedChromaVectorStore(ChromaVectorStore):
            def query(self, query, **kwargs):
                return _guarded(lambda _store: ChromaVectorStore.query(self, query, **kwargs))(store)

        # the pydantic plugin does not see ChromaVectorStore's own __init__ through a local subclass
        return GuardedChromaVectorStore(chroma_collection=self.chunks)  # type: ignore[call-arg]

    @_guarded
    def dimension(self) -> int | None:
        """Dimension of the stored vectors, or ``None`` when the store is empty."""
        got = self.chunks.get(limit=1, include=["embeddings"])
        emb = got.get("embeddings")
        if emb is None or len(emb) == 0:
            return None
        return len(emb[0])

    # --- writes ------------------------------------------------------------------

    def write_papers(self, items: Iterable[tuple[Paper, Sequence[Chunk], np.ndarray]]) -> int:
        """Insert or replace papers with their chunks and chunk vectors.

        Args:
            items: ``(paper, chunks, vectors)`` with ``vectors`` of shape ``(len(chunks), d)`` float32.

        Returns:
            Number of papers written.

        Raises:
            DimensionMismatch: ``d`` differs from the vectors already stored.
        """
        items = list(items)
        if not items:
            return 0
        dim = self.dimension()
        for _, _, vecs in items:
            if dim is not None and vecs.shape[1] != dim:
                raise DimensionMismatch(
                    f"This index holds {dim}-d vectors but the embedder gives {vecs.shape[1]}-d; "
                    "the index name must change with the embedding model (see `paperchat config`)."
                )
        ids = [p.id for p, _, _ in items]
        self.chunks.delete(where=_of_papers(ids))
        c_ids, c_vecs, c_docs = [], [], []
        c_meta: list[Metadata] = []
        for paper, chunks, vecs in items:
            for chunk, vec in zip(chunks, vecs, strict=True):
                c_ids.append(chunk.id)
                c_vecs.append(vec)
                c_docs.append(chunk.text)
                c_meta.append(
                    {
                        "paper_id": paper.id,
                        "chunk_index": chunk.index,
                        "start": chunk.start,
                        "end": chunk.end,
                        "content_hash": paper.content_hash,
                    }
                )
        for i in range(0, len(c_ids), self._batch):
            self.chunks.upsert(
                ids=c_ids[i : i + self._batch],
                embeddings=np.asarray(c_vecs[i : i + self._batch], dtype=np.float32),
                documents=c_docs[i : i + self._batch],
                metadatas=c_meta[i : i + self._batch],
            )
        p_vecs = []
        for _, _, vecs in items:
            mean = vecs.mean(axis=0)
            p_vecs.append(mean / (np.linalg.norm(mean) or 1.0))
        for i in range(0, len(items), self._batch):
            part = items[i : i + self._batch]
            self.papers.upsert(
                ids=[p.id for p, _, _ in part],
                embeddings=np.asarray(p_vecs[i : i + self._batch], dtype=np.float32),
                documents=[p.abstract for p, _, _ in part],
                metadatas=[_paper_meta(p, len(c)) for p, c, _ in part],
            )
        return len(items)

    def delete_papers(self, ids: Sequence[str]) -> None:
        """Remove papers and their chunks.

        The paper records go first, then the chunks: an interruption between the two leaves
        orphan chunks (ignored by retrieval, see :class:`StoreAudit`), never a paper without
        its chunks.
        """
        ids = list(ids)
        for i in range(0, len(ids), self._batch):
            self.papers.delete(ids=ids[i : i + self._batch])
        for i in range(0, len(ids), self._batch):
            self.chunks.delete(where=_of_papers(ids[i : i + self._batch]))

    @_guarded
    def paper_sources(self) -> dict[str, str]:
        """Source file name of every stored paper: ``{paper id: "papers.jsonl"}``."""
        return {pid: str(meta.get("source", "")) for pid, meta in self._all_metadata(self.papers)}

    def set_sources(self, sources: Mapping[str, str]) -> None:
        """Change the recorded source file of stored papers (a paper moved to another file)."""
        ids = list(sources)
        for i in range(0, len(ids), self._batch):
            part = ids[i : i + self._batch]
            self.papers.update(ids=part, metadatas=[{"source": sources[pid]} for pid in part])
