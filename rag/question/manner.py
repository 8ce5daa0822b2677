"""Questions of manner about one paper ("How are SGB-IB's pseudo-labels derived?", "How does FOAM
stabilize training?"): the terms of the process whose manner is asked (:func:`manner_terms`).

A "how" question has no slot of its own: its answer is the sentence that states the process
itself, its content words in any of their forms, with the clause or modifier that says how
("K-means-derived pseudo-labels"). An abstract that writes one of those words nowhere does not
state how the paper does it (:meth:`rag.route.refusal.Refusals.manner`), whatever its other
sentences say. The words are classes of ``vocabulary/manner.toml``; read by the question reader
(:mod:`rag.question.reader`), checked by the answering stages.
"""

from __future__ import annotations

from rag.lexicon import lemma
from rag.text import STOPWORDS, tokenize
from rag.vocabulary import beside

__all__ = ["manner_terms"]

_VOCABULARY = beside(__file__, "manner")
_OPENER = _VOCABULARY["opener"]
_FRAME = _VOCABULARY["frame"].words
_POLAR = beside(__file__, "polar")
_NOT_ASKED = _FRAME | _POLAR["relating"].words | _POLAR["setting_aside"].words | _POLAR["modal"].words \
    | _POLAR["relation_word"].words | _POLAR["additive"].words
_GENERIC_HEADS = _POLAR["generic_head"].words
_COMPARING = beside(__file__, "comparison")["compare_verb"].words
"""Verbs that ask to compare (``comparison.toml compare_verb``): "how does SENDAI compare with
Kalman?" asks a comparison, the comparison reader's, not the manner of comparing."""
"""Words of the clause that are no terms of the process: verbs of choosing (``frame``), and the
words a yes/no question's terms leave out too (``polar.toml``: relating verbs "use", "built",
verbs of setting aside "avoid", "able", "after", "also"); a generic head after another term
("diffusion models", ``generic_head``) is implied by it. Unlike a yes/no question's terms, a noun
of what is reported ("the number of experts") is kept: the manner asked is of that number."""


def manner_terms(unnamed: str) -> tuple[str, ...]:
    """The content terms of the process a question of manner asks about, or ``()``.

    ``unnamed`` is the question with the names of the papers it names replaced by "it"
    ("How are it's pseudo-labels derived?" -> ``("pseudo-labels", "derived")``; "how does it pick
    its training sample?" -> ``("training", "sample")``, the verb of choosing framing what is
    chosen, vocabulary ``frame``; "how does it choose the number of experts?" -> ``("number",
    "experts")``). A verb that only relates paper and thing ("use", "built") is no term, as in a
    yes/no question (:data:`_NOT_ASKED`), and a verb of setting aside ("avoid") asks its object;
    each term once, in order, lower case. ``()`` when the question
    opens with no manner opener (vocabulary ``opener``: "how many GPUs ...", "what does it use"),
    or asks more after a comma or a second question mark (its parts are read apart), or asks to
    compare ("how does it compare with Kalman?": :data:`_COMPARING`).

    Args:
        unnamed: The question, its named papers replaced by "it".
    """
    text = unnamed.strip()
    m = _OPENER.pattern.match(text)
    if m is None or m.start() != 0:
        return ()
    clause = text[m.end():].strip().rstrip("?.! ")
    if not clause or any(c in clause for c in ",;?"):
        return ()
    # a possessive is its noun ("it's pseudo-labels" asks "pseudo-labels")
    words = [w.removesuffix("'s").removesuffix("’s") for w in tokenize(clause)]
    if any(lemma(w) in _COMPARING for w in words):
        return ()
    terms = [w for w in words if w not in STOPWORDS and len(w) > 1 and w not in _NOT_ASKED]
    # a generic head after another term is implied by it ("diffusion models": "diffusion")
    kept = [t for i, t in enumerate(terms) if not (i and t in _GENERIC_HEADS)]
    return tuple(dict.fromkeys(kept))
