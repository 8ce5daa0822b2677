"""The seams between answering and its collaborators, as small Protocols.

Beside :class:`rag.index.embed.Embedder` and :class:`rag.llm.clients.ChatLLM`: what the answering stages
(:mod:`rag.route.answer`, :mod:`rag.route.membership`, :mod:`rag.route.refusal`, :mod:`rag.route.compare`,
:mod:`rag.route.summary`) need from a paper store, a retriever and an evidence selector. The real
implementations are :class:`store.chroma.ChromaStore`, :class:`rag.index.retrieve.HybridRetriever` and
:class:`rag.evidence.selector.EvidenceSelector`; a fake that satisfies these can stand in for a unit test.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from rag.settings import EvidenceSettings
from rag.types import Ask, Evidence, Retrieval, SearchQuery
from store.papers import Paper

if TYPE_CHECKING:
    from rag.text import Sentence

__all__ = ["Embedder", "EvidenceSource", "PaperStore", "Retriever", "evidence_settings"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors.

    Attributes:
        name: Model name (part of the index name).
        dimension: Vector size ``d``.
    """

    name: str
    dimension: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed texts; returns ``(len(texts), d)`` float32 with unit rows."""
        ...

    def count_tokens(self, text: str) -> int:
        """Word-piece tokens ``text`` takes in the model (without special tokens)."""
        ...


class PaperStore(Protocol):
    """Where the paper records and chunk vectors live."""

    def all_papers(self) -> Iterable[Paper]:
        """Every paper record of the collection."""
        ...

    def counts(self) -> tuple[int, int]:
        """``(papers, chunks)`` stored."""
        ...


class Retriever(Protocol):
    """Ranks the papers of the collection for a text, and measures terms against them."""

    papers: dict[str, Paper]
    embedder: Embedder

    def search(self, query: SearchQuery, *, allowed: set[str] | None = None) -> Retrieval:
        """Papers ranked for ``query`` (only ``allowed`` ids when given), best first."""
        ...

    def lexical(self, question: str, n: int, allowed: set[str] | None = None) -> dict[str, float]:
        """BM25 score per paper divided by the best, in [0, 1], for the ``n`` best."""
        ...

    def query_vectors(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), d)`` unit embeddings of question texts, abbreviations spelled out."""
        ...

    def coverages(self, question: str, pids: Sequence[str], *, senses: bool = False) -> list[float]:
        """IDF-weighted share of the question's terms each paper contains, in [0, 1] (``senses``: a
        term is also stated by the glossary's other words for it)."""
        ...

    def document_frequency(self, term: str) -> int:
        """Number of papers that hold ``term``."""
        ...

    def writing(self, phrase: str, most: int, allowed: Collection[str] | None = None) -> list[str] | None:
        """Ids of the papers (of ``allowed``) whose title or abstract writes ``phrase``, its words
        side by side; ``None`` when more than ``most`` do."""
        ...


class EvidenceSource(Protocol):
    """Sentences of abstracts, scored against a question.

    An implementation may carry ``settings`` (:class:`rag.settings.EvidenceSettings`, as
    :class:`rag.evidence.selector.EvidenceSelector` does); the stages built on it read their weights and
    floors through :func:`evidence_settings`, which gives the defaults for one that does not.
    """

    def sentences(self, paper: Paper) -> tuple[list[Sentence], np.ndarray]:
        """The abstract's sentences and their ``(m, d)`` unit embeddings."""
        ...

    def warm(self, papers: list[Paper]) -> None:
        """Embed the sentences of these papers now, in one batch."""
        ...

    def score(self, ask: Ask, paper: Paper, qvec: np.ndarray | None = None) -> list[Evidence]:
        """Every sentence of ``paper`` scored against what ``ask`` asks (in [0, 1]), best first."""
        ...

    def select(self, ask: Ask, paper: Paper, k: int = 3, qvec: np.ndarray | None = None) -> list[Evidence]:
        """The sentences of ``paper`` that answer ``ask`` (about ``k``), in abstract order."""
        ...

    def moves(self, paper: Paper) -> dict[int, str]:
        """The move of each sentence of the abstract (background, gap, contribution or unknown), by
        sentence start offset."""
        ...

    def preamble(self, paper: Paper) -> set[int]:
        """Start offsets of the sentences before the abstract's contribution that do not speak in
        the first person: the field or prior work the paper starts from."""
        ...

    def gist(self, paper: Paper) -> Evidence | None:
        """The sentence that says what the paper does."""
        ...

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        """Cosine matrix ``(len(a), len(b))``."""
        ...

    def idf(self, term: str) -> float:
        """Inverse document frequency of ``term``."""
        ...


def evidence_settings(source: object) -> EvidenceSettings:
    """The evidence settings ``source`` (an :class:`EvidenceSource`) scores with: its ``settings`` when
    they are :class:`rag.settings.EvidenceSettings`, else the defaults (a test fake has none). Rows,
    comparisons and tables read their floors from it."""
    got = getattr(source, "settings", None)
    return got if isinstance(got, EvidenceSettings) else EvidenceSettings()
