"""A topic that says what papers do, read as the noun phrase that names it.

"Which papers detect out-of-distribution inputs?" and "OOD detection papers" ask for one list: the
first says what the papers do (a verb and its object), the second names the subject (the object
and the verb made a noun). Titles and abstracts name a subject the second way ("Out-of-Distribution
Detection with ...", "post-training quantization of neural networks"), so a topic read only as the
verb phrase misses the papers whose title names it. :func:`nominal_forms` gives the noun phrases a
verb topic stands for, built from the collection's own words (the noun of the verb that the
abstracts write: "detection", "pruning", "quantization", "discovery"); the answering stages treat
them as the topic's names (:attr:`rag.question.plan.Topic.nominal`).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection

from rag.lexicon import lemma
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = ["nominal_forms", "nominalizations", "verb_object"]

_VOCABULARY = beside(__file__, "nominal")
_NOUN_SUFFIXES = tuple(sorted(_VOCABULARY["process_noun_suffix"].words, key=len, reverse=True))
_OBJECT_END = _VOCABULARY["object_end"].words
_GENERIC_OBJECT = _VOCABULARY["generic_object"].words
_NOT_PROCESS = tuple(_VOCABULARY["not_process_ending"].words)
_VERB_TAILS = tuple(_VOCABULARY["verb_tail"].words)
_LIGHT_VERBS = _VOCABULARY["light_verb"].words

MIN_ROOT = 4
"""Fewest letters of the root a noun of the verb is read from ("prun" of "prune", "detect"): "use"
-> "usage" and "form" -> "formation" are not read as one word. As :data:`rag.lexicon.MIN_DERIVATION_BASE`."""
NOUN_ENDING = 7
"""Most letters a verb's noun adds to its root ("quant" + "ization", "sparsif" + "ication"): a
longer word that begins with the root is another word ("improvedclassification", a typing error of
the corpus). Set by reading."""
OBJECT_WORDS = 4
"""Most words of the object a noun phrase is made of ("large language models"): a longer object
describes rather than names what is acted on. Set by reading."""


def _shared(a: str, b: str) -> int:
    """Letters ``a`` and ``b`` begin with alike."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@functools.lru_cache(maxsize=4)
def _by_prefix(vocabulary: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The words of ``vocabulary`` of letters only, by their first :data:`MIN_ROOT` letters."""
    out: dict[str, list[str]] = defaultdict(list)
    for w in vocabulary:
        if w.isalpha() and len(w) > MIN_ROOT:
            out[w[:MIN_ROOT]].append(w)
    return {k: tuple(v) for k, v in out.items()}


def nominalizations(verb: str, vocabulary: Collection[str]) -> tuple[str, ...]:
    """The nouns of ``verb`` that the collection writes (``vocabulary``: its lower-case words): a
    word that ends in a suffix naming a process (``process_noun_suffix``) and begins with all of the
    verb but at most its last :data:`VERB_ENDING` letters, those beginning with the most of it
    ("detection", "quantization" before "quantification" and "quantisation", "discovery",
    "synthesis", "sparsification"; "optimal" is no noun of "optimize", "optimization" shares more;
    "planetary" none of "plant");
    else its gerund ("pruning", "forecasting", "unlearning"). ``()`` for a verb the collection
    writes no noun of, or a light verb (``light_verb``: "make", "improve", "use"), whose noun
    names no subject ("training cheaper making", "agent efficiency improvement")."""
    base = lemma(verb.lower())
    if base in _LIGHT_VERBS:
        return ()
    cut = [base[: len(base) - len(t)] for t in ("", *_VERB_TAILS) if base.endswith(t)]
    roots = [r for r in cut if len(r) >= MIN_ROOT]

    def noun(w: str) -> bool:
        # the root, then a short ending that names the process: "rescal" (a stray spelling of
        # "rescale") and "improvedclassification" are no nouns of theirs
        return (
            any(w.startswith(r) and 0 < len(w) - len(r) <= NOUN_ENDING for r in roots)
            and w.endswith(_NOUN_SUFFIXES) and not w.endswith(_NOT_PROCESS) and lemma(w) != base
        )

    derived = [w for w in _by_prefix(frozenset(vocabulary)).get(base[:MIN_ROOT], ()) if noun(w)]
    if derived:
        most = max(_shared(w, base) for w in derived)
        return tuple(sorted(w for w in derived if _shared(w, base) == most))
    stems = dict.fromkeys([base, base[:-1] if base.endswith("e") else base])
    return tuple(w for w in (r + "ing" for r in stems) if w in vocabulary and lemma(w) == base)[:1]


def verb_object(topic: str, verb: str) -> list[str]:
    """The words of the object ``topic`` gives its leading ``verb``: those after it up to a word
    that ends the object (``object_end``: a preposition, conjunction or relative word) or a mark;
    ``[]`` when ``topic`` does not begin with ``verb``. "detect out-of-distribution inputs" ->
    ["out-of-distribution", "inputs"]; "discover causal structure from data" -> ["causal", "structure"]."""
    words = topic.split()
    if not words or words[0].lower() != verb.lower():
        return []
    out: list[str] = []
    for w in words[1:]:
        bare = w.strip(",;:.?!()\"'")
        if bare.lower() in _OBJECT_END or not bare:
            break
        out.append(bare)
        if bare != w:  # a mark ends it
            break
    while out and not content_terms(out[0]):  # "the", "their"
        out.pop(0)
    return out


def _modifier(word: str) -> str:
    """``word`` as it stands before a noun: a plural made singular ("inputs" -> "input", "LLMs" ->
    "LLM", "networks" -> "network"); other words as written."""
    low = word.lower()
    if not low.endswith("s") or low.endswith("ss"):
        return word
    one = lemma(low)
    if one in (low[:-1], low[:-2]):  # "inputs", "LLMs", "classes"
        return word[: len(one)]
    if low.endswith("ies") and one == low[:-3] + "y":  # "anomalies"
        return word[:-3] + "y"
    return word


def nominal_forms(topic: str, verb: str, vocabulary: Collection[str]) -> tuple[str, ...]:
    """The noun phrases a topic that begins with its predicate ``verb`` names (:func:`rag.question.phrasing.predicate`):
    its object before the verb's noun (:func:`nominalizations`), the object's last word as a
    modifier ("prune large language models" -> "large language model pruning"), and, when the
    object ends in a generic noun of what is acted on (``generic_object``: "inputs", "data"), the
    rest before it too ("detect out-of-distribution inputs" -> "out-of-distribution input
    detection", "out-of-distribution detection"). ``()`` without a verb, an object of at most
    :data:`OBJECT_WORDS` words, or a noun of the verb the collection writes."""
    if not verb:
        return ()
    obj = verb_object(topic, verb)
    nouns = nominalizations(verb, vocabulary)
    if not obj or len(obj) > OBJECT_WORDS or not nouns or not all(content_terms(w) for w in obj):
        return ()
    objects = [" ".join([*obj[:-1], _modifier(obj[-1])])]
    if len(obj) > 1 and obj[-1].lower() in _GENERIC_OBJECT:
        objects.append(" ".join(obj[:-1]))
    return tuple(dict.fromkeys(f"{o} {n}" for o in objects for n in nouns))
