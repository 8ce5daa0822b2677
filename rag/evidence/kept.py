"""The evidence selector's sentence embeddings, kept on disk between processes.

Choosing a question's papers and evidence scores the sentences of every candidate abstract, and a
sentence is embedded the first time any question uses its paper: about 17 abstracts a second on two
cores, so on 3,136 papers a question about a new topic waited 1-10 s for tens of abstracts (issue
34), and a serving process took minutes to embed them all in the background
(:func:`rag.pipeline.prewarming`). That process now keeps what it embedded in
``<home>/cache/index/<collection>.sentences.npz`` (:func:`kept_path`), and every process that opens
the collection reads it (about 40 MB, well under a second, for 3,136 papers), so only papers added
since are embedded on first use.

An entry is used only for the same paper id, the same abstract (a digest of it) and the same number
of sentences; the file carries the embedder's name and dimension, and :data:`FORMAT` (raise it when
how abstracts are split into sentences changes), so vectors of another model or split are never read.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from store.papers import Paper

__all__ = ["FORMAT", "digest", "kept_path", "load", "save"]

log = logging.getLogger(__name__)

FORMAT = 1
"""Version of the kept file: raise it whenever how an abstract's sentences are split or filtered changes."""


def kept_path(cache_dir: Path, collection: str) -> Path:
    """Where the sentence embeddings of ``collection`` are kept: ``<cache_dir>/<collection>.sentences.npz``."""
    return Path(cache_dir) / f"{collection}.sentences.npz"


def digest(abstract: str) -> str:
    """16 hex digits of the abstract's SHA-1: an entry is used only for the abstract it was made from."""
    return hashlib.sha1(abstract.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def save(path: Path, entries: Mapping[str, tuple[str, np.ndarray]], model: str, dimension: int) -> int:
    """Write the kept file (replaced atomically; a failure is logged, never raised).

    Args:
        path: The file (:func:`kept_path`).
        entries: Paper id -> (abstract, ``(m, dimension)`` float32 sentence embeddings).
        model: The embedder's name.
        dimension: Its vector size.

    Returns:
        How many papers were written (0 when writing failed).
    """
    ids = sorted(entries)
    counts = np.array([len(entries[i][1]) for i in ids], dtype=np.int64)
    vectors = [entries[i][1] for i in ids if len(entries[i][1])]
    stacked = np.concatenate(vectors).astype(np.float32) if vectors else np.zeros((0, dimension), np.float32)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            np.savez(fh, format=np.array(FORMAT), model=np.array(model), ids=np.array(ids, dtype=str),
                     digests=np.array([digest(entries[i][0]) for i in ids], dtype=str), counts=counts,
                     vectors=stacked)  # fmt: skip
        os.replace(tmp, path)
    except OSError:
        log.warning("cannot keep the sentence embeddings in %s", path, exc_info=True)
        tmp.unlink(missing_ok=True)
        return 0
    return len(ids)


def load(path: Path, papers: Iterable[Paper], model: str, dimension: int) -> dict[str, tuple[str, np.ndarray]]:
    """The kept sentence embeddings of ``papers`` whose abstract is unchanged.

    Args:
        path: The file (:func:`kept_path`); a missing, unreadable or other-format file gives ``{}``.
        papers: The papers of the collection as it is now.
        model: The embedder's name (another model's file gives ``{}``).
        dimension: Its vector size.

    Returns:
        Paper id -> (its abstract, ``(m, dimension)`` float32 embeddings of its sentences, in order).
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT or str(data["model"]) != model or data["vectors"].shape[1] != dimension:
                return {}
            ids, digests, counts, vectors = data["ids"], data["digests"], data["counts"], data["vectors"]
    except FileNotFoundError:
        return {}
    except (OSError, KeyError, ValueError, IndexError):
        log.warning("ignoring the unreadable %s (the sentences are embedded again)", path, exc_info=True)
        return {}
    starts = np.concatenate([[0], np.cumsum(counts)])
    where = {str(pid): (k, str(d)) for k, (pid, d) in enumerate(zip(ids, digests, strict=True))}
    out: dict[str, tuple[str, np.ndarray]] = {}
    for p in papers:
        hit = where.get(p.id)
        if hit is not None and hit[1] == digest(p.abstract):
            k = hit[0]
            out[p.id] = (p.abstract, vectors[starts[k] : starts[k + 1]])
    return out
