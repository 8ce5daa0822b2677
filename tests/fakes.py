"""Hand-computable fakes of the answering seams (:mod:`rag.protocols`), for fast unit tests.

:class:`FakeRetriever` stands in for :class:`rag.index.retrieve.HybridRetriever` (a
:class:`rag.protocols.Retriever`) and :class:`FakeEvidence` for
:class:`rag.evidence.selector.EvidenceSelector` (a :class:`rag.protocols.EvidenceSource`). Neither
loads a model, opens Chroma or calls an LLM; every number they return can be checked on paper:

* **terms** of a text are its distinct content words, :func:`rag.text.content_terms` (lower-cased,
  stop words and one-letter tokens dropped, *no stemming*: "metal" does not state "metals");
* the **share** of a query in a text is ``|terms(query) & terms(text)| / |terms(query)|``, in
  [0, 1] (0 for a query without terms): "quantum chemistry of metals" has the terms
  {quantum, chemistry, metals}, so an abstract that says "quantum" but neither other word holds
  1/3 of it;
* **vectors** come from :class:`rag.index.embed.HashingEmbedder` with :data:`DIMENSION` buckets:
  every ``\\w+`` word (stop words included) counts once per occurrence, so, as long as no two
  words of the texts compared share a bucket (rare at 65,536 buckets), the cosine of two texts
  whose words are all distinct is ``shared words / sqrt(words of a x words of b)``:
  "protein structure prediction" and "We predict protein structure." share two of 3 and 4 words,
  cosine 2 / sqrt(12) = 0.577.

The real components weigh terms by IDF, stem them, embed with a sentence model and add
rhetorical bonuses; a test written against these fakes checks the decision made *on top of*
the seam, not the real scores.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence

import numpy as np

from rag.evidence.roles import abstract_moves, preamble
from rag.index.embed import HashingEmbedder
from rag.lexicon import states_phrase
from rag.protocols import Embedder
from rag.text import Sentence, content_terms, split_sentences, tokenize
from rag.types import Ask, Evidence, PaperHit, Retrieval, SearchQuery
from store.papers import Paper

__all__ = ["DIMENSION", "FakeEvidence", "FakeRetriever", "share", "terms"]

DIMENSION = 2**16
"""Buckets of the hashing embedder both fakes use (large, so that words rarely share one)."""

_GIST = re.compile(r"\bwe\s+(?:propose|introduce|present)\b", re.I)


def terms(text: str) -> frozenset[str]:
    """The distinct content words of ``text`` (:func:`rag.text.content_terms`)."""
    return frozenset(content_terms(text))


def share(query: str, text: str) -> float:
    """``|terms(query) & terms(text)| / |terms(query)|`` in [0, 1]; 0.0 when ``query`` has no terms."""
    q = terms(query)
    return len(q & terms(text)) / len(q) if q else 0.0


class FakeRetriever:
    """A :class:`rag.protocols.Retriever` whose every score is a share of words (see the module).

    Ranking (:meth:`search`): every paper (of ``allowed`` when given) is a hit, as every paper has
    some cosine to a query in dense retrieval. Hits are ordered by the weight of a name the
    :class:`rag.types.SearchQuery` states for the paper (0 when none; a stated name outranks
    everything, as in the real fusion), then by the query's share in the paper's title and
    abstract, then by the order the papers were given.

    Args:
        papers: The collection, in order.
        embedder: Embeds query texts (default: a :class:`HashingEmbedder` of :data:`DIMENSION`
            buckets, the same as :class:`FakeEvidence`'s default, so their vectors compare).
    """

    def __init__(self, papers: Sequence[Paper], embedder: Embedder | None = None):
        self.papers: dict[str, Paper] = {p.id: p for p in papers}
        self.embedder: Embedder = embedder or HashingEmbedder(DIMENSION)
        self._terms = {p.id: terms(p.text_for_index) for p in papers}
        self._tokens = {p.id: frozenset(tokenize(p.text_for_index)) for p in papers}

    def _share(self, question: str, pid: str) -> float:
        q = terms(question)
        return len(q & self._terms[pid]) / len(q) if q else 0.0

    def search(self, query: SearchQuery, *, allowed: set[str] | None = None) -> Retrieval:
        """Every paper (of ``allowed``) as a :class:`PaperHit`, ordered as the class docstring says.

        Each hit: ``score`` = ``dense`` = ``coverage`` = the share of ``query.text`` in the paper;
        ``lexical`` = that share / the best share of the hits (0 when the best is 0);
        ``name_match`` = 100 x the weight of the name ``query.names`` states for the paper.
        :attr:`Retrieval.names` holds the names stated with a weight of at least 0.9 (a label,
        or one edit from one) and the papers they match at that weight, as the real retriever's;
        :attr:`Retrieval.unmatched_entities` is ``query.unmatched``.
        """
        ids = [pid for pid in self.papers if allowed is None or pid in allowed]
        shares = {pid: self._share(query.text, pid) for pid in ids}
        weight = {pid: max((w.get(pid, 0.0) for w in query.names.values()), default=0.0) for pid in ids}
        best = max(shares.values(), default=0.0)
        order = sorted(ids, key=lambda pid: (-weight[pid], -shares[pid]))  # stable: the papers' order breaks ties
        hits = [
            PaperHit(
                paper=self.papers[pid],
                score=shares[pid],
                dense=shares[pid],
                lexical=shares[pid] / best if best else 0.0,
                name_match=100.0 * weight[pid],
                coverage=shares[pid],
            )
            for pid in order
        ]
        names = {
            name: [pid for pid, w in found.items() if w >= 0.9]
            for name, found in query.names.items()
            if found and max(found.values()) >= 0.9
        }
        return Retrieval(hits=hits, names=names, unmatched_entities=list(query.unmatched))

    def lexical(self, question: str, n: int, allowed: set[str] | None = None) -> dict[str, float]:
        """For the ``n`` papers of highest share (positive only, of ``allowed``): share / best share."""
        shares = {pid: self._share(question, pid) for pid in self.papers if allowed is None or pid in allowed}
        top = sorted((pid for pid in shares if shares[pid] > 0), key=lambda pid: -shares[pid])[:n]
        return {pid: shares[pid] / shares[top[0]] for pid in top}

    def query_vectors(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), DIMENSION)`` hashed bags of words, unit rows (no abbreviation spelled out)."""
        return self.embedder.embed(list(texts))

    def coverages(self, question: str, pids: Sequence[str], *, senses: bool = False) -> list[float]:
        """The share of ``question`` in each paper of ``pids`` (unweighted: no IDF, no stemming, no
        glossary senses)."""
        return [self._share(question, pid) for pid in pids]

    def writing(self, phrase: str, most: int, allowed: Collection[str] | None = None) -> list[str] | None:
        """The papers (of ``allowed``) whose title or abstract writes ``phrase``
        (:func:`rag.lexicon.states_phrase`), in their order; ``None`` when more than ``most`` do."""
        out = [
            pid for pid, p in self.papers.items()
            if (allowed is None or pid in allowed) and states_phrase(phrase, f"{p.title or ''}. {p.abstract}")
        ]
        return None if len(out) > most else out

    def document_frequency(self, term: str) -> int:
        """How many papers' title + abstract hold every token of ``term`` (:func:`rag.text.tokenize`,
        lower-cased, stop words kept): "RLHF" and "rlhf" count the papers that write "rlhf" in any
        case; 0 for a term without tokens."""
        want = set(tokenize(term))
        return sum(1 for toks in self._tokens.values() if want and want <= toks)


class FakeEvidence:
    """A :class:`rag.protocols.EvidenceSource` whose sentence score is a share of words.

    * sentences: :func:`rag.text.split_sentences` of the abstract, embedded by the hashing
      embedder (cached per paper id; :attr:`embedded` lists the ids in the order they were embedded);
    * score: the share of ``ask.text`` in the sentence (see the module), nothing else: no
      cosine, roles, numbers or names;
    * moves: :func:`rag.evidence.roles.abstract_moves` (the real ones);
    * gist: the first sentence that says "we propose", "we introduce" or "we present", else the
      first sentence.

    Args:
        papers: The collection, for :meth:`idf` (may be empty).
        embedder: Embeds sentences and texts (default: a :class:`HashingEmbedder` of :data:`DIMENSION`).
    """

    def __init__(self, papers: Sequence[Paper] = (), embedder: Embedder | None = None):
        self.embedder: Embedder = embedder or HashingEmbedder(DIMENSION)
        self._n = len(papers)
        self._terms = [terms(p.text_for_index) for p in papers]
        self._cache: dict[str, tuple[list[Sentence], np.ndarray]] = {}
        self.embedded: list[str] = []

    def sentences(self, paper: Paper) -> tuple[list[Sentence], np.ndarray]:
        """The abstract's sentences (:func:`rag.text.split_sentences`) and their ``(m, DIMENSION)`` vectors."""
        got = self._cache.get(paper.id)
        if got is None:
            sents = split_sentences(paper.abstract)
            got = self._cache[paper.id] = (sents, self.embedder.embed([s.text for s in sents]))
            self.embedded.append(paper.id)
        return got

    def warm(self, papers: list[Paper]) -> None:
        """Embed the sentences of these papers now (each once)."""
        for p in papers:
            self.sentences(p)

    def score(self, ask: Ask, paper: Paper, qvec: np.ndarray | None = None) -> list[Evidence]:
        """Every sentence with score = the share of ``ask.text`` in it, best first (ties: abstract
        order). ``qvec`` is ignored."""
        found = [Evidence(paper.id, s.text, s.start, s.end, share(ask.text, s.text)) for s in self.sentences(paper)[0]]
        return sorted(found, key=lambda e: -e.score)

    def select(self, ask: Ask, paper: Paper, k: int = 3, qvec: np.ndarray | None = None) -> list[Evidence]:
        """The ``k`` best sentences of :meth:`score` with a positive score, in abstract order."""
        best = [e for e in self.score(ask, paper) if e.score > 0][:k]
        return sorted(best, key=lambda e: e.start)

    def moves(self, paper: Paper) -> dict[int, str]:
        """:func:`rag.evidence.roles.abstract_moves` of the sentences, by sentence start offset."""
        sents = self.sentences(paper)[0]
        return {s.start: m for s, m in zip(sents, abstract_moves([s.text for s in sents]), strict=True)}

    def preamble(self, paper: Paper) -> set[int]:
        """:func:`rag.evidence.roles.preamble` of the sentences, as start offsets."""
        sents = self.sentences(paper)[0]
        return {s.start for s, before in zip(sents, preamble([s.text for s in sents]), strict=True) if before}

    def gist(self, paper: Paper) -> Evidence | None:
        """The first sentence saying "we propose/introduce/present", else the first; score 0.0."""
        sents = self.sentences(paper)[0]
        found = next((s for s in sents if _GIST.search(s.text)), sents[0] if sents else None)
        return Evidence(paper.id, found.text, found.start, found.end, 0.0) if found else None

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        """Cosine matrix ``(len(a), len(b))`` of the hashed bags of words."""
        if not a or not b:
            return np.zeros((len(a), len(b)), dtype=np.float32)
        return self.embedder.embed(a) @ self.embedder.embed(b).T

    def idf(self, term: str) -> float:
        """``ln(1 + N / (1 + df))``: ``N`` papers given, ``df`` those whose terms hold ``term`` (lower-cased)."""
        df = sum(1 for t in self._terms if term.lower() in t)
        return math.log(1.0 + self._n / (1.0 + df))
