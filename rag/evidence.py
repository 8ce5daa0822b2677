"""Sentence-level evidence: which sentences of a paper's abstract answer the question."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from rag.embed import Embedder
from rag.text import Sentence, content_terms, numbers, split_sentences
from rag.types import Evidence
from store.papers import Paper

__all__ = ["EvidenceSelector"]

_QUANTITY = re.compile(
    r"\b(how (many|much|large|fast|big)|what (accuracy|gain|score|fraction|percentage|speed ?up|reduction|sparsity|cost)|"
    r"by how|speed-?up|improve|reduction|rate|ratio|percent|%)\b",
    re.I,
)


class EvidenceSelector:
    """Scores the sentences of retrieved abstracts against a question.

    Sentence score in [0, 1]: ``0.6 * cosine + 0.4 * idf-weighted term overlap``, plus
    0.1 when the question asks for a quantity and the sentence states a number (clipped
    to 1). Sentence embeddings are computed once per paper and cached.

    Args:
        embedder: The embedder (sentences and question use the same model).
        papers: All papers, for document frequencies of terms.
    """

    def __init__(self, embedder: Embedder, papers: list[Paper]):
        self.embedder = embedder
        self._cache: dict[str, tuple[list[Sentence], np.ndarray]] = {}
        df: Counter[str] = Counter()
        for p in papers:
            df.update(set(content_terms(p.abstract)))
        self._n = max(1, len(papers))
        self._df = df

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency ``ln(1 + N / (1 + df))``."""
        return math.log(1.0 + self._n / (1.0 + self._df.get(term, 0)))

    def sentences(self, paper: Paper) -> tuple[list[Sentence], np.ndarray]:
        """Sentences of the abstract and their ``(m, d)`` float32 unit embeddings (cached)."""
        got = self._cache.get(paper.id)
        if got is None:
            sents = split_sentences(paper.abstract)
            got = (sents, self.embedder.embed([s.text for s in sents]))
            self._cache[paper.id] = got
        return got

    def score(self, question: str, paper: Paper, qvec: np.ndarray | None = None) -> list[Evidence]:
        """All sentences of ``paper`` scored against ``question``, best first."""
        sents, vecs = self.sentences(paper)
        if not sents:
            return []
        if qvec is None:
            qvec = self.embedder.embed([question])[0]
        cos = vecs @ qvec
        qterms = set(content_terms(question))
        qweight = sum(self.idf(t) for t in qterms) or 1.0
        wants_number = bool(_QUANTITY.search(question))
        out = []
        for s, c in zip(sents, cos, strict=True):
            sterms = set(content_terms(s.text))
            overlap = sum(self.idf(t) for t in qterms & sterms) / qweight
            sc = 0.6 * max(float(c), 0.0) + 0.4 * overlap
            if wants_number and numbers(s.text):
                sc += 0.1
            out.append(Evidence(paper.id, s.text, s.start, s.end, min(1.0, sc)))
        out.sort(key=lambda e: e.score, reverse=True)
        return out

    def select(self, question: str, paper: Paper, k: int = 3, qvec: np.ndarray | None = None) -> list[Evidence]:
        """The ``k`` best sentences of ``paper`` for ``question``, in abstract order.

        Greedy: each step takes the sentence with the best score plus a bonus (0.3 x the
        idf-weighted share) for question terms no chosen sentence covers yet, so the quotes
        cover the question's different parts instead of repeating one. A sentence whose
        total falls below half of the best sentence's score is not taken (at least one is).
        """
        scored = self.score(question, paper, qvec)
        if not scored:
            return []
        qterms = set(content_terms(question))
        qweight = sum(self.idf(t) for t in qterms) or 1.0
        terms = {e.start: set(content_terms(e.sentence)) & qterms for e in scored}
        best = scored[0].score
        chosen: list[Evidence] = []
        covered: set[str] = set()
        pool = list(scored)
        while pool and len(chosen) < k:
            def gain(e: Evidence) -> float:
                return e.score + 0.3 * sum(self.idf(t) for t in terms[e.start] - covered) / qweight

            nxt = max(pool, key=gain)
            if chosen and gain(nxt) < 0.5 * best:
                break
            chosen.append(nxt)
            covered |= terms[nxt.start]
            pool.remove(nxt)
        return sorted(chosen, key=lambda e: e.start)

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        """Cosine matrix ``(len(a), len(b))`` between two lists of texts."""
        if not a or not b:
            return np.zeros((len(a), len(b)), dtype=np.float32)
        va = self.embedder.embed(a)
        vb = self.embedder.embed(b)
        return va @ vb.T
