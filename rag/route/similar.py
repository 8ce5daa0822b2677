"""Related papers: the papers of the collection nearest to one paper by its abstract.

One function, :func:`similar_papers`, serves every entry (``paperchat similar``, the chat's "papers
like DANCE", the page's *More like this*, the MCP tool ``similar_papers`` and the API route). The
seed paper's title and abstract are the query of the retriever's own search
(:meth:`rag.index.retrieve.HybridRetriever.search`: dense chunks and BM25, reciprocal rank fusion),
with the seed itself left out of the allowed papers, so the paper is never listed as its own
neighbour; the candidates are then ordered as :data:`ORDER` says (measured). Each neighbour comes
with what makes it similar:

* the **sentence pair**: the sentence of the seed's abstract and the sentence of the neighbour's
  abstract whose embeddings are closest (cosine of the evidence selector's cached sentence vectors),
  both exact spans of their abstracts;
* the **shared key terms**: content words both abstracts state (compared by term key, so
  "condensation" meets "condensed"), rarest in the collection first.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from rag.lexicon import english_word, term_key
from rag.route.answer import AnswerPipeline
from rag.text import content_terms
from rag.types import Evidence, PaperHit, SearchQuery
from store.papers import Paper

__all__ = ["DEFAULT_K", "MAX_K", "ORDER", "SHARED_TERMS", "Neighbour", "Related", "similar_papers"]

DEFAULT_K = 5
"""Neighbours listed when the caller does not say how many (the figure of issue 35 is hit@5)."""

MAX_K = 50
"""Most neighbours one call lists (as ``search_papers``)."""

SHARED_TERMS = 5
"""Shared key terms shown per neighbour: the rarest five name what the two abstracts share
(more repeat generic words such as "training" and "performance", read on the seed papers)."""

ORDER: Literal["dense", "fused", "reranked"] = "dense"
"""How the candidates are ordered. They are always the retriever's fused candidates (the papers of
the dense list and of the BM25 list of the seed's title and abstract); then ``fused`` keeps the
reciprocal-rank-fusion order of questions, ``reranked`` adds the coverage rerank of the head, and
``dense`` orders them by their best chunk cosine to the seed's abstract. Measured with
``benchmarks/similar.py`` on the 3,136-paper library (21 seed papers with a hand-judged obvious
ICML neighbour, ``tests/fixtures/similar_pairs.jsonl``): hit@5 is 17/21 (0.81) for ``dense``,
13/21 (0.62) for ``fused`` and for ``reranked``: a whole abstract as a BM25 query weighs its many
generic words, and the fusion lets papers that share them outrank the close ones. The lexical
side still finds candidates and names the shared terms (:attr:`Neighbour.terms`)."""

_LINK = re.compile(r"(?:https?://|www\.)\S+", re.I)
"""A link in an abstract: its parts are no key terms."""

_MIN_TERM_CHARS = 3
"""Shortest shared term shown, in characters ("rl" and "ml" say little on their own)."""


@dataclass(frozen=True)
class Neighbour:
    """One paper near the seed.

    Attributes:
        hit: The retrieval hit (the paper; ``score`` its fused relevance to the seed's abstract in
            [0, 1], ``dense`` the best chunk cosine in [-1, 1], ``lexical`` BM25 over the best, in [0, 1]).
        seed_sentence: The sentence of the seed's abstract closest to this paper's sentences.
        sentence: The sentence of this paper's abstract closest to the seed's sentences; both exact
            spans (``abstract[start:end] == sentence``), ``score`` their cosine in [-1, 1].
        terms: Key terms both abstracts state, rarest in the collection first (as the seed writes them).
    """

    hit: PaperHit
    seed_sentence: Evidence
    sentence: Evidence
    terms: tuple[str, ...]

    @property
    def paper(self) -> Paper:
        """The neighbouring paper."""
        return self.hit.paper


@dataclass(frozen=True)
class Related:
    """The neighbours of one paper, nearest first.

    Attributes:
        seed: The paper asked about.
        neighbours: Its nearest papers (never the seed), nearest first.
        seconds: Wall-clock time of the search and the pairs, in seconds.
    """

    seed: Paper
    neighbours: tuple[Neighbour, ...]
    seconds: float = 0.0


def _query(paper: Paper) -> str:
    """The text a paper is searched by: its title (when the record has one) and its abstract."""
    return f"{paper.title}. {paper.abstract}" if paper.title and paper.title not in paper.abstract else paper.abstract


def _pair(pipeline: AnswerPipeline, seed: Paper, other: Paper) -> tuple[Evidence, Evidence]:
    """The closest sentences of the two abstracts: ``(seed's, other's)``, each scored by their cosine."""
    evidence = pipeline.evidence
    a_sents, a_vecs = evidence.sentences(seed)
    b_sents, b_vecs = evidence.sentences(other)
    if not a_sents or not b_sents:  # an abstract of instructions only: its whole text, unscored
        a = Evidence(seed.id, seed.abstract, 0, len(seed.abstract), 0.0)
        return a, Evidence(other.id, other.abstract, 0, len(other.abstract), 0.0)
    sims = np.asarray(a_vecs) @ np.asarray(b_vecs).T
    i, j = np.unravel_index(int(np.argmax(sims)), sims.shape)
    cos = float(sims[i, j])
    sa, sb = a_sents[int(i)], b_sents[int(j)]
    return Evidence(seed.id, sa.text, sa.start, sa.end, cos), Evidence(other.id, sb.text, sb.start, sb.end, cos)


def _terms(paper: Paper) -> dict[str, tuple[str, int]]:
    """The paper's key-term candidates: term key (a word's, or two adjacent content words' joined by
    a space) -> (the first form the title or abstract writes it in, how often it is written)."""
    out: dict[str, tuple[str, int]] = {}
    text = _LINK.sub(" ", f"{paper.title} {paper.abstract}")  # "github com" is no term the papers share
    words = [t for t in content_terms(text) if not any(c.isdigit() for c in t)]
    keys = [term_key(t) for t in words]
    grams: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
        ((k,), (w,)) for k, w in zip(keys, words, strict=True) if len(w) >= _MIN_TERM_CHARS
    ]
    grams += [((a, b), (v, w)) for a, b, v, w in zip(keys, keys[1:], words, words[1:], strict=False) if a != b]
    for ks, ws in grams:
        key = " ".join(ks)
        form, n = out.get(key, (" ".join(ws), 0))
        out[key] = (form, n + 1)
    return out


def _shared(pipeline: AnswerPipeline, seed_terms: dict[str, tuple[str, int]], other: Paper) -> tuple[str, ...]:
    """The :data:`SHARED_TERMS` key terms both papers state, as the seed writes them, best first.

    A term weighs its rarity in the collection (the sum of its words' IDF) times the geometric mean
    of how often each abstract writes it: a term both abstracts repeat ("condensation", "federated
    learning") names what they share better than a rare word each writes once ("but", "face"). A
    term is kept only when one of its words is repeated by either abstract or is no dictionary word
    (a coined term, an acronym): a dictionary word each abstract writes once ("lack", "face
    challenges") is a coincidence of wording, read on the seed papers' neighbours. A word is left
    out when a shared pair of words that holds it is shown.
    """
    theirs = _terms(other)
    idf = pipeline.evidence.idf

    def salient(key: str, form: str) -> bool:
        """A word of the term is repeated by one abstract, or is no dictionary word ("llms", "fgl")."""
        return any(
            seed_terms.get(k, ("", 0))[1] >= 2 or theirs.get(k, ("", 0))[1] >= 2 or not english_word(w)
            for k, w in zip(key.split(), form.split(), strict=False)
        )

    scored = []
    for key, (form, n) in seed_terms.items():
        if key in theirs and salient(key, form):
            weight = sum(idf(w) for w in form.split()) * math.sqrt(n * theirs[key][1])
            scored.append((weight, form, key))
    scored.sort(key=lambda x: (-x[0], x[1]))
    out: list[tuple[str, str]] = []
    for _, form, key in scored:
        if any(key in k.split() or set(key.split()) >= set(k.split()) for _, k in out):
            continue
        out.append((form, key))
        if len(out) == SHARED_TERMS:
            break
    return tuple(f for f, _ in out)


def similar_papers(
    pipeline: AnswerPipeline, paper_id: str, *, k: int = DEFAULT_K, allowed: set[str] | None = None
) -> Related:
    """The ``k`` papers nearest to one paper by abstract, each with its sentence pair and shared terms.

    Args:
        pipeline: The loaded pipeline (its retriever, catalogue and evidence selector are used).
        paper_id: The seed paper's id (a paper of the collection).
        k: Most neighbours, 1-:data:`MAX_K`.
        allowed: Paper ids the neighbours may be (filters); ``None``: the whole collection. The
            seed is never among them.

    Returns:
        A :class:`Related`; fewer than ``k`` neighbours when fewer papers are allowed.

    Raises:
        KeyError: ``paper_id`` is not in the collection.
        ValueError: ``k`` outside 1-:data:`MAX_K`.
    """
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K} (got {k})")
    t0 = time.perf_counter()
    papers = pipeline.catalogue.papers
    seed = papers[paper_id]
    others = set(papers) if allowed is None else set(allowed) & papers.keys()
    others.discard(paper_id)
    if not others:
        return Related(seed, (), time.perf_counter() - t0)
    hits = pipeline.retriever.search(SearchQuery(_query(seed)), allowed=others, rerank=ORDER == "reranked").hits
    if ORDER == "dense":  # papers only the BM25 list found have no cosine (0.0): they come last
        hits.sort(key=lambda h: h.dense, reverse=True)
    seed_terms = _terms(seed)
    out = []
    for h in hits:
        if h.paper.id == paper_id or h.paper.id not in others:
            continue
        mine, theirs = _pair(pipeline, seed, h.paper)
        out.append(Neighbour(h, mine, theirs, _shared(pipeline, seed_terms, h.paper)))
        if len(out) == k:
            break
    return Related(seed, tuple(out), time.perf_counter() - t0)
