"""Words of a sentence that state a question's term in other words.

A question and an abstract often say one thing in two words: "Does POET change the correctness of
backpropagation?" against "while not modifying mathematical correctness of backpropagation", "what
cost reduction" against "reduces rollout overhead". The checks that decide whether a sentence
states what is asked (the yes/no lead, :func:`rag.route.lead.term_span`, and the slot check,
:func:`rag.route.slot.slot_span`) compare term keys and the glossary's same words
(:func:`rag.lexicon.same_keys`) first; a term none of them finds may still be stated by a word
that

* derives from it or it from the word (:func:`rag.lexicon.derives`, both :func:`rag.lexicon.lemma`
  forms, guarded by :func:`rag.lexicon.states_form`): "reduction" by "reducing", which Snowball
  stems apart ("reduct", "reduc"); or
* the embedder places close to it, word against word (cosine of the two lemmas' embeddings at least
  :data:`SENSE_SIMILARITY`): "change" by "modifying" (0.77), "alter" by "changes" (0.71),
  "remove" by "eliminating" (0.69).

Only a word standing for a missing term is looked for: what a sentence states in the asked words is
never replaced, and the other asked terms must still be stated beside it (the callers check every
term of the question in one sentence), so a word near one term does not answer the question alone.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence

import numpy as np

from rag.lexicon import derives, lemma, states_form, term_key
from rag.text import STOPWORDS

__all__ = ["MAX_OTHER_SHARE", "SENSE_SIMILARITY", "Senses", "WordSenses", "calibration", "evidence_senses"]

SENSE_SIMILARITY = 0.68
"""Least cosine (all-MiniLM-L6-v2, 384-d, unit vectors) between the embeddings of an asked term's
lemma and a sentence word's lemma for the word to state the term in other words. Calibrated on 63
hand-labelled word pairs (29 of one sense, 34 of related but other senses, antonyms among them:
``benchmarks/senses_pairs.tsv``, ``benchmarks/senses.py``, :func:`calibration`): the lowest
threshold that lets at most :data:`MAX_OTHER_SHARE` of the other pairs pass is 0.681. There 9 of 29
same-sense pairs pass and 1 of 34 others ("lower"/"higher", a comparative, which a yes/no question
never asks as a term: :func:`rag.question.polar.polar_terms`); the next other pairs sit at 0.677
("energy"/"power") and 0.608 ("increase"/"decrease"). 42 of 63 pairs are judged right at the fit,
41 of 63 leave-one-pair-out. The 20 same-sense pairs it refuses ("cut"/"reduces" 0.49,
"usage"/"consumption" 0.43) are the embedder's limit, not the threshold's: below it, antonyms and
co-hyponyms mix with synonyms, so such pairs are the glossary's ``sense`` rows
(:func:`rag.lexicon.same_keys`), and a false "not stated" stays the cheaper error."""

Senses = Callable[[str, str], list[tuple[int, int]]]
"""``senses(term, sentence)``: offsets ``(start, end)`` into ``sentence`` of the words that state
``term`` in other words, in order (``[]`` when none does)."""

_WORD = re.compile(r"[A-Za-z]+")
MIN_WORD = 3
"""Shortest word (letters) compared: shorter ones are function words or parts of names ("RL")."""


def _related_form(term: str, word: str) -> bool:
    """Whether lemma ``word`` derives from lemma ``term`` or ``term`` from it, in a sense that
    states it (:func:`rag.lexicon.states_form` both ways): "reduction" and "reducing"; not
    "optimizer" by "optimization"."""
    if derives(word, term) or derives(term, word):
        return states_form(term, word) and states_form(word, term)
    return False


class WordSenses:
    """:data:`Senses` over an embedder: word vectors are computed once per lemma and kept.

    Args:
        embed: Texts to unit vectors ``(n, d)`` float32 (:meth:`rag.index.embed.Embedder.embed`).
        threshold: Least cosine in [-1, 1] for a word to state a term (:data:`SENSE_SIMILARITY`).
    """

    def __init__(self, embed: Callable[[list[str]], np.ndarray], threshold: float = SENSE_SIMILARITY):
        self._embed = embed
        self.threshold = threshold
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def _vectors_of(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors ``(len(words), d)`` of lemmas, embedding only those not seen before."""
        with self._lock:
            missing = list(dict.fromkeys(w for w in words if w not in self._vectors))
            if missing:
                for w, v in zip(missing, self._embed(missing), strict=True):
                    self._vectors[w] = np.asarray(v, dtype=np.float32)
            return np.stack([self._vectors[w] for w in words])

    def similarity(self, a: str, b: str) -> float:
        """Cosine in [-1, 1] between the embeddings of the lemmas of words ``a`` and ``b``."""
        va, vb = self._vectors_of([lemma(a.lower()), lemma(b.lower())])
        return float(va @ vb)

    def __call__(self, term: str, sentence: str) -> list[tuple[int, int]]:
        """The words of ``sentence`` that state the one-word ``term`` in other words (see the
        module docstring): offsets, in order; ``[]`` for a term of several words or a stop word."""
        low = term.lower()
        if not low.isalpha() or len(low) < MIN_WORD or low in STOPWORDS:
            return []
        asked = lemma(low)
        key = term_key(low)
        words = [
            (m.start(), m.end(), lemma(w))
            for m in _WORD.finditer(sentence)
            if len(w := m.group(0).lower()) >= MIN_WORD and w not in STOPWORDS and term_key(w) != key
        ]
        if not words:
            return []
        found = [(a, b) for a, b, w in words if _related_form(asked, w)]
        rest = [(a, b, w) for a, b, w in words if (a, b) not in found]
        if rest:
            vectors = self._vectors_of([asked, *(w for _, _, w in rest)])
            sims = vectors[1:] @ vectors[0]
            found += [(a, b) for (a, b, _), s in zip(rest, sims, strict=True) if s >= self.threshold]
        return sorted(found)


def evidence_senses(source: object) -> Senses | None:
    """The :data:`Senses` an evidence source carries (``senses``, as
    :class:`rag.evidence.selector.EvidenceSelector` does), else ``None`` (a test fake has none:
    terms are then compared by their keys and the glossary alone)."""
    senses = getattr(source, "senses", None)
    return senses if callable(senses) else None


MAX_OTHER_SHARE = 0.05
"""Largest share of other-sense pairs the fitted threshold lets pass (:func:`calibration`): a false
"stated" costs more than a false "not stated", so the fit bounds the first, not the sum of both."""


def calibration(
    pairs: Sequence[tuple[str, str, bool]], similarity: Callable[[str, str], float]
) -> tuple[float, int, int]:
    """Fit :data:`SENSE_SIMILARITY` on labelled word pairs and judge it leave-one-pair-out.

    Args:
        pairs: ``(asked word, sentence word, same sense)``, with pairs of both kinds.
        similarity: Cosine of two words (:meth:`WordSenses.similarity`).

    Returns:
        ``(threshold, right at the fit, right leave-one-out)``: the threshold is the lowest midpoint
        between neighbouring scores that lets at most :data:`MAX_OTHER_SHARE` of the other-sense
        pairs pass; each pair left out is judged by the threshold fitted on the others.
    """
    scored = [(similarity(a, b), same) for a, b, same in pairs]

    def fit(rows: Sequence[tuple[float, bool]]) -> float:
        values = sorted({s for s, _ in rows})
        cuts = [(x + y) / 2 for x, y in zip(values, values[1:], strict=False)] + [values[-1] + 1e-6]
        others = sum(not same for _, same in rows)
        return min(c for c in cuts if sum(s >= c and not same for s, same in rows) <= MAX_OTHER_SHARE * others)

    threshold = fit(scored)
    right = sum((s >= threshold) == same for s, same in scored)
    loo = sum((s >= fit(scored[:i] + scored[i + 1 :])) == same for i, (s, same) in enumerate(scored))
    return threshold, right, loo
