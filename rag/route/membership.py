"""Calibrated relevance: which papers answer a question that names none.

How many papers an answer cites follows from this model, not from the question's wording: a
question that describes one paper ("a method that compresses image-text datasets into a few
synthetic pairs") has one paper far ahead of the rest; a topic ("reinforcement learning") has
many papers close to it. Each candidate gets a probability of belonging to the answer from a
logistic model over five features (:func:`design`); the papers at or above
``retrieval.set_membership`` are the answer.

The coefficients are fit by ``benchmarks/calibrate_membership.py`` on the dev set's answerable
questions that name no paper (paraphrases, "which papers" questions, described papers); its
leave-one-question-out estimate is in the docstring of :data:`COEF`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from rag.acronyms import NamedForms, states_named
from rag.evidence.roles import FIRST_PERSON
from rag.evidence.rows import contributes_items
from rag.lexicon import (
    abbreviation_definitions,
    compound_parts,
    glossary_forms,
    joined_form,
    lemma,
    long_forms,
    states_form,
    states_phrase,
    stem,
    term_key,
)
from rag.llm.claims import PRIOR_WORK
from rag.question.parts import field_headed
from rag.question.stances import head_stances
from rag.route.lead import STANCE_WINDOW, own_work
from rag.text import STOPWORDS, Sentence, content_terms
from rag.types import Evidence, Paper, PaperHit
from rag.vocabulary import beside

if TYPE_CHECKING:
    from rag.protocols import EvidenceSource, Retriever

__all__ = [
    "BIAS", "COEF", "JOINERS", "Membership", "design", "more_may_match", "probability", "states_any_order",
    "states_as_kind",
]

COEF = (-0.674, 1.909, 3.006, 2.573, 2.113, 1.256, 0.13, 5.093, 0.256)
"""Weights of :func:`design`'s columns.

Fit by ``benchmarks/calibrate_membership.py`` (scikit-learn LogisticRegression, C=1) on the
answerable questions that name no paper of the seed collection's dev set and its rephrasings (16 +
64 "which papers", 22 + 91 paraphrases, 5 + 20 summaries and 6 facts of described papers, 2
adversarial; 38 papers) and of ``library_dev`` over the 3,098 ICML 2022-23 papers with the seed (10
"which papers", 24 described papers, 1 fact of a described one), each question's candidates being
the ``retrieval.candidates`` papers retrieval returns (as
:meth:`rag.route.answer.AnswerPipeline.found` checks them). Refit whenever the features change: the
model is fit on the features it is applied to. The refit was needed for the library: fit on the 38
seed papers alone, the weights let eight of 40 close ICML candidates through for a description of
one paper.

Leave one question out (a question and its rephrasings held out together), as the product forms
answers (``retrieval.set_membership`` = 0.35 for "which papers"; a description answered by its
most probable paper, others only at ``retrieval.description_membership`` = 0.7): "which papers"
precision / recall 0.885 / 0.898 on dev, 0.850 / 0.833 on rephrasings, 0.756 / 0.765 on
library_dev (0.98 of its gold papers are among the candidates: the misses are the model's);
described papers 1.000 / 1.000 on dev, 0.982 / 0.989 on rephrasings, 0.833 / 0.833 on
library_dev (0.785 precision with 0.5 for the others). On questions written over the library and
not fit on (``benchmarks/questions/library_lists.jsonl``, the model fit on all the rows above):
"which papers" 0.732 / 0.859, described papers 1.000 / 1.000. The harness, run again on the same
rows, gives these weights within 0.015 and the same leave-one-question-out figures (dev and
rephrasings pooled: "which papers" 0.857 / 0.846, described 0.985 / 0.991). The harness now
computes the features on what the product judges (the topic with its acronyms written out, its
readings: :meth:`rag.route.answer.AnswerPipeline.found`); on those inputs the same rows give, these
weights not refit, "which papers" 0.917 / 0.898 on dev, 0.871 / 0.860 on rephrasings, 0.765 / 0.843
on library_dev; described papers 1.000 / 1.000, 0.985 / 1.000 and 0.880 / 0.880.
A fifth feature, the share of the topic one sentence states (IDF-weighted, the index's word
forms), was tried (stop 60, h60a): leave one question out it moved these figures by at most 0.02
either way, and served it lost "which papers" recall on the rephrasings and library_own; not kept.
Peer evidence (pseudo-relevance feedback from the confidently listed papers, RM3: Lavrenko and Croft
2001, Abdul-Jaleel et al. 2004) was tried as a second pass (stop 61, h61a) and not kept. The library
misses it aimed at (a watermarking paper at 0.005 beside two at 0.75) sit below the threshold among
non-members that look the same to it. Of the candidates under 0.35 whose title writes a rare word
(at most 2% of abstracts) that two titles of papers at 0.7 or more share and the topic writes, 8
were gold and 53 not on library_dev and library_own: a word in another sense ("posterior collapse"
beside "neural collapse", "neural spike trains" beside "spiking neural networks"), the subject
without its asked part (data poisoning attacks beside certified defenses). A relevance model of the
confident papers' abstracts (IDF-weighted, 30 terms) ranks the candidates under 0.35 by the share of
the confident papers' own score they reach: AUC 0.89 on the library (the probability 0.86; 14 gold
of 663), 0.72 on the seed (the probability 0.93; 28 of 1,625), and no cut of it separates them.
Served, adding every title-word candidate moved "which papers" precision / recall on library_own
from 0.886 / 0.869 to 0.788 / 0.929 (library_dev 0.871 / 0.833 to 0.858 / 0.833; 25 topics of our
own over the library, ``benchmarks/questions/library_topics.jsonl``, a refused question counted as
precision 0, 0.565 / 0.490 to 0.554 / 0.497); reading the phrase those titles share as one more
reading of the topic (the model judging again) cost precision on three questions and found no gold
paper.

Two more ways to raise "which papers" recall were measured and not kept (stop 62, h62a). The
figures are the harness's rows (the model's list alone, before titles, the parts check and the
other passes the product adds), leave one question out on the files fit on, the model fit on them
all for the files it is not fit on (``library_own``; ``library_topics``, ``seed_topics``;
``library_subjects`` and ``seed_subjects``, 25 and 10 "which papers" questions of our own whose
gold papers were judged from titles and abstracts searched for the subject's words, so that their
precision is understated). The same columns refit on today's features give "which papers" precision
/ recall at 0.35 of 0.917 / 0.898 on dev, 0.871 / 0.860 on rephrasings, 0.771 / 0.843 on
library_dev, and 0.749 / 0.759 on library_own, 0.692 / 0.692 on library_topics, 0.588 / 0.838 and
0.708 / 0.854 on our subjects; these weights, not refit, 0.783 / 0.792 and 0.696 / 0.728 on
library_own and library_topics: they are kept. (1) The model's form for lists: the length-times-gap
column punishes every member of a list that is not the closest one, so it was given its own columns
for "which papers" frames (plural x length x gap, plural x length x coverage, plural x coverage,
plural x closest), applied only to the frames that ask for one paper, or fit apart for the two
kinds of frame. The fit leaves the plural columns near 0 (0.15, 0.04): within 0.02 of the figures
above everywhere; applied to one-paper frames only, library_own 0.741 / 0.813 and library_dev 0.754
/ 0.863 for dev 0.892 / 0.867 and seed_topics 0.754 / 0.883; fit apart, rephrasings 0.865 / 0.824.
(2) Evidence that a candidate states the whole topic: its title or a sentence of its own work (not
the preamble) states every part of an alternative of the topic
(:meth:`rag.route.refusal.RefusalPolicy.sentence_states`), anywhere or in one sentence. 16% of gold
candidates and 1.2% of the others do, but as a column the fit weighs it -0.5 (it adds nothing to
the cosine and coverage) and moves the figures by at most 0.02; as a second pass over the
candidates under 0.35 (probability at least 0.05, first 30) it would add 4 gold papers and 18
others (library_lists 2 / 1, library_own 2 / 6, library_topics 0 / 7, our subjects 0 / 4). A
threshold of 0.30 for lists, these weights, gives rephrasings 0.849 / 0.876 (0.867 / 0.871 at 0.35)
and library_own 0.740 / 0.806 (0.783 / 0.792): precision lost faster than recall is gained.

Evidence of the exact phrase was measured as columns and not kept (stop 63, h63a; the harness's
rows, fit on dev, rephrasings and library_dev, ``--test`` for the files not fit on). The columns
refit as they are give "which papers" 0.917 / 0.898 on dev, 0.871 / 0.844 on rephrasings, 0.775 /
0.843 on library_dev; not fit on, 0.749 / 0.759 library_own, 0.703 / 0.782 library_lists, 0.692 /
0.692 library_topics, 0.588 / 0.838 library_subjects, 0.715 / 0.933 seed_topics, 0.708 / 0.854
seed_subjects. (1) BM25 of every candidate, not only of BM25's first ``retrieval.candidates``
(outside them a candidate scores 0: libdev_pp_23's paper, retrieval rank 5, has 0 and p 0.001):
rephrasings 0.871 / 0.837, library_own 0.755 / 0.767, library_lists 0.745 / 0.782, the rest within
0.005. (2) The topic's phrase written: a contiguous run of the topic's content words (term keys, a
facet's too) that the candidate writes, weighed by the IDF of its words summed, relative to the
heaviest any candidate writes: in its title the fit weighs it -1.3 (library_dev recall 0.677,
library_topics 0.584); in its title or a sentence of its own work +0.33 (library_own 0.738 / 0.789,
the fit files within 0.004). (3) The collection's rarest phrase of the topic: the same with each
run of one to three words weighed by its own IDF as a phrase (the abstracts that write it
contiguously), written anywhere: +0.80, dev 0.917 / 0.911, rephrasings 0.869 / 0.840, library_dev
unchanged, library_own 0.749 / 0.762, library_lists 0.717 / 0.805, library_topics 0.687 / 0.727,
library_subjects 0.588 / 0.854, seed_topics 0.718 / 0.967; with library_own fit on too it weighs
1.5 and rephrasings fall to 0.811 recall. Why the fit cannot use it: among the candidates under
0.35, gold papers that write the rarest phrase are 1 of 7 on dev, 1 of 30 on the rephrasings and 0
of 4 on library_dev (against 17, 40 and 3 others), while on the library files not fit on they are
17 of 63 (lists 6 of 9, library_own 4 of 14: FaDIn and MULCH write "Hawkes processes") against 48
of 2,247 others. As a second pass (the rarest phrase written, probability 0.1 to 0.35) it would add
15 gold papers and 16 others on the library files and 2 and 21 on the seed's, where a phrase's
rarity among 38 abstracts says little. A phrase index of the collection would be needed served;
the figures do not pay for it.

The title as one more sentence of the closest-sentence cosine (a title says in a few words what a
paper is about) was measured and not kept (stop 67, h67d; the harness's rows at 0.35, refit, leave
one question out; the seed papers have no titles). Of the 14 gold papers library_dev and library_own
leave out, 12 are checked candidates under 0.35 whose abstract states the subject in other words (an
application, a mechanism), and the title of 9 of them names it ("Improving Language Models by
Retrieving from Trillions of Tokens", "On Collective Robustness of Bagging Against Data Poisoning",
"FaDIn: Fast Discretized Inference for Hawkes Processes ..."); the two others are probable and then
left out (a peer of an open frame, the parts check). But the titles of papers on a neighbouring
subject come as close: library_dev "which papers" 0.771 / 0.843 -> 0.761 / 0.777, described 0.880 /
0.880 -> 0.860 / 0.880; not fit on, library_own 0.742 / 0.776 -> 0.751 / 0.776 (described 0.607 /
0.714 -> 0.643 / 0.643), library_lists 0.730 / 0.784 -> 0.736 / 0.809, library_topics 0.690 / 0.692
-> 0.692 / 0.686, library_subjects 0.595 / 0.838 -> 0.621 / 0.877, library_evidence (14 lists of our
own) 0.675 / 0.863 -> 0.700 / 0.863; dev and rephrasings unchanged.
"""
BIAS = -5.029


def design(features: np.ndarray, many: bool = False, terms: int = 0) -> np.ndarray:
    """The ``(n, 9)`` design matrix of :func:`probability` from ``(n, 4)`` features.

    Columns: closest sentence cosine; that minus the best of the candidates (how far behind the
    clearest member); BM25 / best of the whole topic; coverage; BM25 / best of the best-matched
    facet; whether the frame asks for several papers ("which papers", "list"); that times the
    gap; ``ln(1 + terms)`` times the gap and times the coverage (a long, specific description
    singles out one paper: the runner-up's gap weighs more).

    Args:
        features: ``(n, 4)`` per-candidate features (see :func:`probability`).
        many: The question's frame asks for several papers (:attr:`QuestionPlan.number` ``many``).
        terms: Distinct content terms of the topic.
    """
    f = np.asarray(features, dtype=float).reshape(-1, 4)
    closest = f[:, 0]
    gap = closest - closest.max(initial=0.0)
    length = np.full_like(closest, np.log1p(terms))
    plural = np.full_like(closest, 1.0 if many else 0.0)
    return np.stack([closest, gap, f[:, 1], f[:, 2], f[:, 3], plural, plural * gap, length * gap, length * f[:, 2]], 1)


def probability(features: np.ndarray, many: bool = False, terms: int = 0) -> np.ndarray:
    """Probability that each candidate belongs to the answer.

    Args:
        features: ``(n, 4)`` float, one row per candidate (see :meth:`Membership.features`):
            best cosine between a sentence of the abstract and the topic or one of its facets
            in [-1, 1]; BM25 of the topic / best in [0, 1]; IDF-weighted term coverage of the
            topic or its best-covered facet in [0, 1]; BM25 / best of the best-matched facet in [0, 1].

        many: The frame asks for several papers.
        terms: Distinct content terms of the topic.

    Returns:
        ``(n,)`` float probabilities in (0, 1).
    """
    z = design(features, many, terms) @ np.array(COEF) + BIAS
    return 1.0 / (1.0 + np.exp(-z))


def more_may_match(members: int, checked: int, retrieved: int) -> bool:
    """Whether ``members`` found among the ``checked`` first of ``retrieved`` candidates are only a
    lower bound: at least half of those checked are members and retrieval found more candidates."""
    return members > 0 and 2 * members >= checked and retrieved > checked


_VOCABULARY = beside(__file__, "membership")
"""Artifacts and how a paper states one as its own (``vocabulary/membership.toml``)."""
_OWN_CONTRIBUTION = re.compile(
    rf"{_VOCABULARY['author'].source}[^.;]{{0,80}}?{_VOCABULARY['contribution_verb'].source}"
    rf"|{_VOCABULARY['our_artifact'].source}",
    re.I,
)
_ARTIFACTS = _VOCABULARY["artifact"].pattern
OBJECT_SPAN = 90
"""Characters after a contribution verb ("we introduce", "our") within which the artifact it
contributes stands: the seed's contributing sentences name it within 75 ("we introduce HyperTrack,
a large-scale dataset", "we propose **Mean Continuation Log-Probability (MCLP)** as both an
evaluation metric", "We present FedScale, a federated learning (FL) benchmarking suite"); a
method's sentence that mentions a dataset later ("We propose IncDSI, a method to add documents in
real time (about 20-50ms per document), without retraining the model on the entire dataset", 125)
does not contribute one. Set by reading, not fitted."""
_COUNTED_DATA = _VOCABULARY["counted_data_artifact"]
_SCORING = frozenset(stem(w) for w in _VOCABULARY["scoring_artifact"].words)
"""Stems of the artifacts that are one kind, a way to score ("metric", "measure"): one asked is
stated by any of them."""
_DATA_ARTIFACTS = frozenset(stem(w.lower()) for w in _VOCABULARY["data_artifact"].words)
"""Stems of the artifacts others train or evaluate on: a dataset, a benchmark, a toolkit."""
_BENCHMARK_ASKED = frozenset(stem(w.lower()) for w in _VOCABULARY["benchmark_asked"].words)
"""Stems of the artifacts to evaluate on a question may ask for: any of :data:`_DATA_ARTIFACTS`
contributed for evaluation (:data:`_EVALUATION_PURPOSE`) is one."""
_EVALUATION_PURPOSE = _VOCABULARY["evaluation_purpose"].pattern
_SET_AGAINST = _VOCABULARY["set_against"].words
"""Words that set a compound written after them against the paper's own work (:meth:`Membership._contrasted`)."""
_PEER_CONTEST = _VOCABULARY["peer_contest"].words
_PEER_MARKER = _VOCABULARY["peer_marker"].words
"""A peer_contest word with a peer_marker before the compound ("outperforms prior gradient inversion
attacks") measures the paper against its own kind (:meth:`Membership._contrasted`)."""
_PHRASE_BREAK = _VOCABULARY["phrase_break"].words
"""Words that end a noun phrase (``phrase_break``): a compound's words with one between are no
phrase (:func:`phrases`)."""
_DEFINED = re.compile(r"\s*\([A-Za-z][\w-]{0,15}\)")
"""An abbreviation in parentheses after the words it abbreviates ("Content-addressable memory (CAM)
networks", "neural tangent kernels (NTKs)"): inside the phrase, not a break of it."""
_PIECE = re.compile(r"[A-Za-z0-9$\\][\w'’$^*\\{}-]*|[,;:.!?()\[\]]")
"""A token of :func:`phrases`: a word (hyphens, apostrophes and formula marks inside) or a mark that ends a clause."""


COMPOUND_GAP = 2
"""Most words between two neighbouring words of a compound for a sentence to state it
(:meth:`Membership.states_compound`): "contextual combinatorial bandits", "contextual conservative
interleaving bandits", "masked diffusion language models" state "contextual bandits" and "diffusion
models"; the traps of the class put the shared word in another phrase ("induced matching",
"knowledge distillation", "Gaussian process"), not between the words. Set by reading the library
candidates of 21 "which papers" questions over compounds (stop 52, h52b)."""
LOOSE_PREFIX = 5
"""Letters of two words' beginnings that must agree for :meth:`Membership.parts_apart` to read
them as one word in another form: "differentially private" for "differential privacy" ("diffe",
"priva"), which the stems keep apart ("privat", "privaci"). Used only to keep a paper in a list,
never to put one in. Set by hand: the derivations of the library's compounds agree in their first
five letters ("optimal"/"optimization", "federated"/"federation")."""
COMMON_MODIFIER_SHARE = 0.1
"""Least share of the collection's abstracts that write a compound's leading word for the word to
be optional when a paper states the compound (:meth:`Membership._without_common_modifiers`): on the
library, "computational" 0.12, "large" 0.24, "neural" 0.25, "efficient" 0.22 qualify; "spiking"
0.002, "tabular" 0.02, "contextual" 0.02, "graph" 0.11 in a two-word compound (never dropped) do not
matter. Set by reading."""
TITLE_SENSE = 0.65
"""Least cosine (all-MiniLM-L6-v2, the retriever's query vectors) between a compound and a paper's
title for the title to name the subject in other words (:meth:`Membership.states_compound`). Read
off the 87 members of the dev, dev_variants, library_dev, library_own "which papers" rows and 21
questions of our own (stop 52, h52b) that share a word of a compound without writing
it side by side: the titles of papers about the subject sit at 0.66-0.82 ("GFlowNets" and
"generative flow networks" 0.70-0.75, "Retrieval-Augmented Multimodal Language Modeling" 0.77,
"Transformers Meet Directed Graphs" for "graph transformers" 0.82), those of another sense at 0.64
and below ("Pure Exploration in Linear Bandits" for "contextual bandits" 0.64, a graph-mixup title
for "graph matching" 0.60, "POUF: Prompt-Oriented Unsupervised Fine-tuning" for "prompt tuning"
0.59). Titles far from the compound are the common case and decide nothing (their sentences do).
Set by reading, not fitted."""


_CLAUSE_END = re.compile(r"[,;:()]")
"""A mark that ends the clause a contrast word reaches through ("..., and our graph transformer")."""


def phrases(text: str, phrase: str = "") -> list[str]:
    """The stretches of ``text`` that may hold one noun phrase: ``text`` cut at each mark that ends
    a clause (",", ";", ":", ".", parentheses, brackets) and at each word of ``phrase_break`` (a
    preposition, conjunction, article, pronoun or auxiliary) that ``phrase`` does not write itself;
    an abbreviation in parentheses after its words stays inside ("memory (CAM) networks").

    "we clarify the importance of learned flows to generalization and matching" ->
    ``["clarify", "importance", "learned flows", "generalization", "matching"]``; with ``phrase``
    "mixture of experts", "a sparse mixture of experts layer" stays whole.

    Args:
        text: A title or a sentence of an abstract.
        phrase: The compound looked for, whose own words are not breaks.

    Returns:
        The stretches in order, each a space-joined string; ``[]`` for a text without words.
    """
    own = {w.lower() for w in phrase.split()}
    out: list[str] = []
    cur: list[str] = []
    for tok, low in _pieces(text):
        if len(tok) == 1 and tok in ",;:.!?()[]" or (low in _PHRASE_BREAK and low not in own):
            if cur:
                out.append(" ".join(cur))
            cur = []
        else:
            cur.append(tok)
    if cur:
        out.append(" ".join(cur))
    return out


@functools.lru_cache(maxsize=65_536)
def _pieces(text: str) -> tuple[tuple[str, str], ...]:
    """The tokens of ``text`` that :func:`phrases` reads (:data:`_PIECE`, a defined abbreviation
    taken out), each with its lower case; cached per text, as every compound and candidate of a
    question reads the same sentences."""
    return tuple((m.group(0), m.group(0).lower()) for m in _PIECE.finditer(_DEFINED.sub("", text)))


def states_in_phrase(phrase: str, text: str, gap: int = 0) -> bool:
    """Whether ``text`` states the compound ``phrase`` within one noun phrase (:func:`phrases`):
    :func:`rag.lexicon.states_phrase` with at most ``gap`` content words between two of its words,
    none of them a clause mark or a word that ends a phrase. "contextual combinatorial bandits" and
    "Content-addressable memory (CAM) networks" state "contextual bandits" and "memory networks";
    "learned flows to generalization and matching" (GFlowNet training) and "minimum-cost 0-1 flow,
    based on reductions to bipartite matching" do not state "flow matching", nor "high memory
    requirements for neural network training" "memory networks": the words stand in two phrases,
    each in its own sense."""
    return any(states_phrase(phrase, piece, gap) for piece in phrases(text, phrase))


JOINERS = _VOCABULARY["phrase_joiner"].words
_JOINER = JOINERS
"""Prepositions that join a head to its modifier inside one noun phrase (``phrase_joiner``): "of",
"in", "for", "on" (:func:`states_any_order`)."""
_ARTICLES = frozenset({"a", "an", "the"})
_HYPHENED = re.compile(r"(?<![\w-])[A-Za-z]+-[A-Za-z]+(?![\w-])")


def _unhyphened(text: str) -> str:
    """``text`` with each word of two parts joined by one hyphen written as one word
    (:func:`rag.lexicon.joined_form`): "over-smoothing" -> "oversmoothing", "fine-tuning" ->
    "finetuning"; longer hyphenated words ("out-of-distribution") are kept."""
    return _HYPHENED.sub(lambda m: joined_form(m.group(0)) or m.group(0), text)


def _parts_of(text: str) -> list[str]:
    """The content words of ``text`` in order, a hyphenated word split into its parts."""
    return [p for t in content_terms(text) for p in (compound_parts(t) or [t]) if len(p) > 1]


def _head_first(head: str, modifier: str, piece: str, gap: int) -> bool:
    """Whether ``piece`` (one noun phrase, joiners kept: :func:`states_any_order`) writes the compound
    "``modifier`` ``head``" head first: the head ends a stretch and the modifier ends the next,
    joined by one of ``phrase_joiner`` ("robustness of deep neural networks", "over-smoothing in
    graph neural networks"; a noun may follow a hyphenated modifier: "detection of
    out-of-distribution inputs"), or the head is a verb's "-ing" form whose object the modifier is, within ``gap``
    words ("pruning large language models", "Generating 3D Molecules")."""
    tokens = re.findall(r"[\w'-]+", piece)
    heads, mods = _parts_of(head), _parts_of(modifier)

    def run(side: Sequence[str]) -> list[str]:
        # the words next to the joiner up to the first function word ("Privacy in Federated
        # Learning Using ...", "estimation on Gaussian mixture data with labels")
        out: list[str] = []
        for tok in side:
            if tok.lower() in _ARTICLES and not out:
                continue  # "exploration in the reinforcement learning setting"
            if tok.lower() in STOPWORDS:
                break
            out.append(tok)
        return out

    # the head ends the words before a joiner and the modifier the words after it; a noun may follow
    # a modifier written as one hyphenated adjective ("detection of out-of-distribution inputs"),
    # while a word of its own before a noun modifies that noun: "the generation of molecule graphs"
    # generates graphs, no molecule generation
    after = 1 if "-" in modifier.split()[-1] else 0
    for j, tok in enumerate(tokens):
        if tok.lower() not in _JOINER:
            continue
        first = _parts_of(" ".join(reversed(run(tokens[:j][::-1]))))
        second = _parts_of(" ".join(run(tokens[j + 1 :])))
        if (
            first and second
            and states_phrase(head, " ".join(first[-len(heads) :]))
            and states_phrase(modifier, " ".join(second[-(len(mods) + after) :]))
        ):
            return True
    if len(heads) != 1:
        return False
    for i, w in enumerate(tokens):
        gerund = w.lower().endswith("ing") and term_key(w) == term_key(heads[0])
        if not gerund or not states_form(lemma(heads[0].lower()), lemma(w.lower())):
            continue
        # its object follows it, content words before it ("pruning large language models"), not
        # a word that attaches another part ("learning with data splits") or an article ("learning
        # the split": the verb's object, a thing, not the compound's modifier)
        rest: list[str] = []
        for tok in tokens[i + 1 :]:
            if tok.lower() in STOPWORDS:
                break
            rest.append(tok)
        if rest and states_phrase(modifier, " ".join(rest[: len(mods) + gap + 1]), gap):
            return True
    return False


KIND_GAP = 3
"""Most words between "X is a" (or "X, a") and the head noun that names X's kind ("Mixup is a data
augmentation method", "SAM, a simple first-order optimization procedure"): a modifier or two and
a compound's first word. Set by reading."""
_KIND_TOKEN = re.compile(r"[A-Za-z][\w'-]*|[.,;:()!?]")


def states_as_kind(term: str, text: str) -> bool:
    """Whether ``text`` says the first word of the two-word compound ``term`` is a kind of its
    second: "Mixup is a data augmentation method" states "mixup augmentation", "SAM, a
    sharpness-aware optimization procedure" "SAM optimization", "augmentations such as mixup" (the
    head, then "such as" or "like", then the word). Words compare by index form
    (:func:`rag.lexicon.stem` of :func:`rag.lexicon.lemma`); at most :data:`KIND_GAP` words between
    the article and the head, none a clause mark."""
    words = term.split()
    if len(words) != 2:
        return False
    kind, head = (stem(lemma(w.lower())) for w in words)
    if kind[:4] not in text.lower():  # a stem's first letters stand in every word of it: most texts end here
        return False
    toks = _KIND_TOKEN.findall(text)
    keys = [stem(lemma(t.lower())) if t[0].isalpha() else t for t in toks]
    for i, k in enumerate(keys):
        if k == kind:  # "X is a ... H", "X, a ... H"
            j = i + 1
            if j < len(toks) and toks[j].lower() in ("is", "are", ","):
                j += 1
                if j < len(toks) and toks[j].lower() in ("a", "an"):
                    rest = keys[j + 1 : j + 2 + KIND_GAP]
                    stop = next((n for n, r in enumerate(rest) if not r[0].isalpha()), len(rest))
                    if head in rest[:stop]:
                        return True
        if k == head:  # "H such as X", "H like X"
            after = [t.lower() for t in toks[i + 1 : i + 3]]
            at = 3 if after[:2] == ["such", "as"] else 2 if after[:1] == ["like"] else 0
            if at and i + at < len(keys) and keys[i + at] == kind:
                return True
    return False


def states_any_order(term: str, text: str, gap: int = COMPOUND_GAP) -> bool:
    """Whether ``text`` states the compound ``term`` within one noun phrase, its words in either
    order: as :func:`states_in_phrase` does (in order, at most ``gap`` content words between two of
    them), or head first with its modifier joined by "of", "in", "for" or "on" (``phrase_joiner``)
    or as the object of the head's "-ing" form (:func:`_head_first`), for any cut of the compound
    into modifier and head: "over-smoothing in graph neural networks" states "graph neural network
    oversmoothing", "detection of out-of-distribution inputs" "out-of-distribution detection",
    "pruning large language models" "large language model pruning", "policy optimization for
    diffusion models" "diffusion model policy optimization". A word of two parts is read joined as
    well ("over-smoothing", "oversmoothing"). Words in two phrases do not state it ("split points
    chosen by learning" is no "split learning"). A text that says the first word is a kind of the
    second states it too (:func:`states_as_kind`: "Mixup is a data augmentation method"). Acronyms
    are the caller's to write out (:attr:`rag.question.plan.Topic.written`,
    :func:`rag.lexicon.glossary_forms`)."""
    if states_as_kind(term, text):
        return True
    for t, x in ((term, text), (_unhyphened(term), _unhyphened(text))):
        if states_in_phrase(t, x, gap):
            return True
        split = [i for i, w in enumerate(t.split()) if w.lower() in _JOINER]
        if split:
            # written head first already ("edge of stability"): the other order is the modifier
            # before the head, no joiner ("stability edge"), not the words turned round with it
            own = t.split()
            if states_in_phrase(" ".join(own[split[0] + 1 :] + own[: split[0]]), x, gap):
                return True
            continue
        words = [w for w in t.split() if content_terms(w)]
        if len(words) < 2:
            continue
        for piece in phrases(x, " ".join([t, *_JOINER, *_ARTICLES])):
            for k in range(1, len(words)):
                if _head_first(" ".join(words[k:]), " ".join(words[:k]), piece, gap):
                    return True
    return False


def _words(text: str) -> list[str]:
    """The content words of ``text`` as index forms (:func:`rag.lexicon.lemma`), a hyphenated word
    split into its parts."""
    return [lemma(p) for t in content_terms(text) for p in (compound_parts(t) or [t]) if len(p) > 1]


def sibling_title(term: str, title: str, abstract: str = "") -> bool:
    """Whether ``title`` names another kind of what the compound ``term`` names: it writes the
    term's head (its last content word, in a form that states it: :func:`rag.lexicon.states_form`),
    and another of the term's words stands neither in the title nor in the ``abstract``. "Plug &
    Play Attacks: Towards Robust and Flexible Model Inversion Attacks", whose abstract never writes
    "gradient", names model inversion attacks, not "gradient inversion attacks"; "Monotonic Location
    Attention for Length Generalization" a kind of attention other than "linear attention". The
    embedder puts such a title close to the term (the shared head and its field); it does not name
    the subject in other words (:data:`TITLE_SENSE`), as "Transformers Meet Directed Graphs" (every
    word of "graph transformers") or "GFlowNets" (no word of "generative flow networks") may, or
    "UPSCALE: Unconstrained Channel Pruning" for "network pruning", whose abstract prunes "neural
    networks". ``False`` for a term of one word."""
    want = _words(term)
    if len(want) < 2:
        return False
    have = _words(title)
    both = have + _words(abstract)

    def written(w: str, forms: Sequence[str]) -> bool:
        return any(stem(f) == stem(w) and states_form(w, f) for f in forms)

    return written(want[-1], have) and not all(written(w, both) for w in want[:-1])


def _in_compound(text: str, match: re.Match[str]) -> bool:
    """Whether ``match`` is one word of a hyphenated compound of ``text`` ("Learning-to-Measure")."""
    return text[match.start() - 1 : match.start()] == "-" or text[match.end() : match.end() + 1] == "-"


def _follows(seq: Sequence[str], want: Sequence[str], at: int) -> bool:
    """Whether ``want[1:]`` follow ``seq[at]`` in order, each within :data:`COMPOUND_GAP` words of the one before."""
    k, i = 1, at
    while k < len(want):
        nxt = next((j for j in range(i + 1, min(len(seq), i + 2 + COMPOUND_GAP)) if seq[j] == want[k]), None)
        if nxt is None:
            return False
        k, i = k + 1, nxt
    return True


_WORD = re.compile(r"[A-Za-z][\w-]*")


def _reordered(part: str, text: str) -> bool:
    """Whether ``text`` states a two-word ``part`` with its words in the other order, as a verb and
    its object or a noun made from the verb and what it acts on: "Generating 3D Molecules" and
    "generation of molecules" state "molecule generation"; "Molecule Generation" states "generate
    molecules". The word ``text`` puts first is the part's head in another derivation (its lemma
    differs, its first :data:`LOOSE_PREFIX` letters agree: "generating" for "generation") or is
    joined to the other by "of" alone, with at most :data:`COMPOUND_GAP` content words between, and
    the other word ends its phrase. The same words in the other order and the same forms name
    another thing, as does a word that modifies another ("optimization of Bayesian models" is no
    "Bayesian optimization"), and "music ... to generate stealthy AEs" keeps the
    order of "music generation" with the verb's own object between: neither states the part."""
    want = content_terms(part)
    if len(want) != 2:
        return False
    first, second = (w.lower() for w in want)
    tokens = [t.lower() for t in _WORD.findall(text)]
    for i, tok in enumerate(tokens):
        if tok[:LOOSE_PREFIX] != second[:LOOSE_PREFIX]:
            continue
        between: list[str] = []
        for j in range(i + 1, len(tokens)):
            nxt = tokens[j]
            if nxt[:LOOSE_PREFIX] == first[:LOOSE_PREFIX]:
                # the word ends its phrase: "Bayesian" of "optimization of Bayesian models" modifies another
                ends = j + 1 == len(tokens) or not content_terms(tokens[j + 1])
                converted = lemma(tok) != lemma(second) or lemma(nxt) != lemma(first) or between == ["of"]
                if ends and converted:
                    return True
                break
            between.append(nxt)
            if len([w for w in between if content_terms(w)]) > COMPOUND_GAP:
                break
    return False


class Membership:
    """Scores the candidates of a question that names no paper.

    Args:
        retriever: BM25, term coverage and the embedder.
        evidence: Sentence embeddings of abstracts (cached).
        depth: Candidates BM25 is normalised over (``retrieval.candidates``).
    """

    def __init__(self, retriever: Retriever, evidence: EvidenceSource, depth: int):
        self.retriever = retriever
        self.evidence = evidence
        self.depth = depth

    def features(
        self,
        topic: str,
        facets: Sequence[str],
        hits: Sequence[PaperHit],
        readings: Sequence[str] = (),
        depth: int | None = None,
    ) -> np.ndarray:
        """The ``(n, 4)`` features of :func:`probability` for each hit (see there).

        ``readings``: other readings of the topic its closest sentence may be close to, for the
        cosine only (:attr:`rag.question.plan.Topic.examples`: "speeds up max-flow by warm-starting
        it with learned predictions" of "speeds up graph algorithms (max-flow, ...) by ..."). The
        facets list an example alone ("max-flow"), as close to a sentence on max-flow as to one on
        speeding it up with predictions; read in place it keeps the rest of the topic. BM25 and
        coverage stay those of the topic and its facets, as the model was fit.

        ``depth``: papers BM25 scores (default the hits or :attr:`depth`, whichever more, as the model
        was fit: a candidate outside them scores 0); a paper gathered by the phrase it writes
        (:attr:`rag.types.Retrieval.written`) is given its BM25 among the whole collection."""
        if not hits:
            return np.zeros((0, 4))
        qvecs = self.retriever.query_vectors(list(dict.fromkeys([topic, *facets, *readings])))
        self.evidence.warm([h.paper for h in hits])
        n = depth or max(len(hits), self.depth)
        lexical = [self.retriever.lexical(t, n) for t in (topic, *facets)]
        ids = [h.paper.id for h in hits]
        coverage = np.max([self.retriever.coverages(t, ids) for t in (topic, *facets)], axis=0)
        rows = []
        for h, cov in zip(hits, coverage, strict=True):
            sents, vecs = self.evidence.sentences(h.paper)
            closest = float((vecs @ qvecs.T).max()) if sents else 0.0
            lex = [scores.get(h.paper.id, 0.0) for scores in lexical]
            rows.append((closest, lex[0], cov, max(lex)))
        return np.array(rows, dtype=float)

    def members(
        self,
        topic: str,
        facets: Sequence[str],
        hits: Sequence[PaperHit],
        floor: float,
        many: bool = False,
        readings: Sequence[str] = (),
        written: Sequence[PaperHit] = (),
    ) -> list[tuple[PaperHit, float]]:
        """The hits whose probability is at least ``floor`` in [0, 1], most probable first, with it
        (``many``: the frame asks for several papers; ``readings``: :meth:`features`).

        ``written``: papers beyond the hits that write the topic's phrase
        (:attr:`rag.types.Retrieval.written`), judged by the same model beside them: each hit keeps
        its gap to the clearest of the hits, each of them is placed against the hits and the others
        (the gap to the clearest of all). With them, every paper's BM25 is read in the
        whole collection: a topic that more papers write than BM25's first :attr:`depth` would
        otherwise score 0 for a paper that writes it as often as those ranked first (FedBR, FedDisco
        of "federated learning", which 87 papers write)."""
        whole = len(self.retriever.papers) if written else None
        feats = self.features(topic, facets, hits, readings, depth=whole)
        if not len(feats):
            return []
        terms = len(set(content_terms(topic)))
        prob = probability(feats, many, terms)
        pool = list(hits)
        if written:
            more = self.features(topic, facets, written, readings, depth=whole)
            prob = np.concatenate([prob, probability(np.vstack([feats, more]), many, terms)[len(hits):]])
            pool += written
        order = np.argsort(-prob, kind="stable")
        return [(pool[i], float(prob[i])) for i in order if prob[i] >= floor]

    @staticmethod
    def titled(named: Sequence[str], hits: Sequence[PaperHit]) -> list[PaperHit]:
        """The hits whose title names one of the topic's bare terms
        (:attr:`rag.question.plan.Topic.named`, word forms compared by sense:
        :func:`rag.lexicon.states_phrase`), in their order.

        A title says what a paper is about in a few words, so a paper titled "From Adaptive Query
        Release to Machine Unlearning" is about machine unlearning even when no sentence of its
        abstract comes close to the question's description of it (the embedder places a long
        description far from a sentence of formulas). On the library questions' candidates, 33 of
        the 35 titles that name such a term are gold papers (the two others a clause read as a
        term, now no term, and a GFlowNet paper the gold set lacks).
        """
        if not named:
            return []
        forms = [f for t in named for f in (t, *glossary_forms(t))]
        return [h for h in hits if h.paper.title and any(states_phrase(f, h.paper.title) for f in forms)]

    def states_compound(self, term: str, paper: Paper) -> bool:
        """Whether ``paper`` states the compound ``term`` ("score matching", "prompt tuning") as one
        phrase: its words in order in its title or a sentence, at most :data:`COMPOUND_GAP` words
        between two of them (:func:`rag.lexicon.states_phrase`, close inflections: "dataset
        distillation" by "datasets distilled", "contextual bandits" by "contextual combinatorial
        bandits"), one of the glossary's other names (:func:`rag.lexicon.glossary_forms`: "NAS"), an
        abbreviation the abstract defines for it ("neural architecture search (NAS)" lets "NAS" state
        it), any of these head first in one phrase (:func:`states_any_order`: "robustness of deep
        neural networks" for "neural network robustness"), or a title the embedder puts at least
        :data:`TITLE_SENSE` from it, unless the title names another kind of it (:func:`sibling_title`).
        Its head word alone ("matching" in "induced matching of persistence barcodes") does not state
        it, nor its words in two phrases (:func:`states_in_phrase`: "learned flows to generalization
        and matching"). The term without a common modifier states it even after another word in the
        modifier's place ("Ab initio antibody design", AbODE, is computational antibody design; the
        form tells it from "model inversion attacks" for "gradient inversion attacks" no better than
        the embedder, 0.66 and 0.80 from the full terms), unless the abstract defines an abbreviation
        for the term with that other
        word: Plug & Play's "Model inversion attacks (MIAs)" names its subject, another kind of attack."""
        defined = abbreviation_definitions(paper.abstract)
        reduced = self._without_common_modifiers(term)
        # a paper that defines an abbreviation for the shorter term with another word in the modifier's
        # place names its subject so: "Model inversion attacks (MIAs)" is no gradient inversion attack
        siblings = [long for _, long in defined if not states_phrase(term, long)]
        reduced = [r for r in reduced if not any(states_phrase(r, long) for long in siblings)]
        forms = [term, *reduced, *glossary_forms(term)]
        forms += [short for short, long in defined if states_phrase(term, long)]
        texts = [paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0])]
        # in either order within one phrase: "robustness of deep neural networks" states "neural
        # network robustness" (states_any_order)
        if any(states_any_order(f, t, COMPOUND_GAP) for f in forms for t in texts):
            return True
        if not paper.title or sibling_title(term, paper.title, paper.abstract):
            return False
        # a title may name the subject in other words ("Transformers Meet Directed Graphs" for
        # "graph transformers", "GFlowNets" for "generative flow networks"): the embedder judges
        vecs = self.retriever.query_vectors([term, paper.title])
        return float(vecs[0] @ vecs[1]) >= TITLE_SENSE

    def set_against(self, compounds: Sequence[str], paper: Paper) -> bool:
        """Whether ``paper`` states the compounds the topic consists of
        (:func:`rag.route.answer.compounds`: "graph transformers") only as what it sets its own work
        against: some sentence writes one after a contrast word (:meth:`_contrasted`), every
        sentence that writes one (:meth:`_statements`) states it as another's (:meth:`_others`: the
        field before the contribution, prior work, or after a contrast word), and its title writes
        none. DRew, a rewired message-passing network that "outperforms graph Transformers and
        multi-hop MPNNs", and Graph ViT/MLP-Mixer, "surpassing the related Graph Transformer",
        position themselves against graph transformers; "we propose GOAT, a scalable global graph
        transformer" and "we propose ... GRIT --- a new Graph Transformer" are about them. A paper
        that writes no compound (found by the embedder on words of its own) is not judged here.

        Args:
            compounds: Terms of two or more content words (``"graph transformers"``).
            paper: A member of the list.

        Returns:
            ``True`` when some sentence writes a compound against the paper's work and none as its own.
        """
        used = [c for c in compounds if not any(long_forms(w) for w in c.split())]
        if not used:
            return False
        forms = [f for c in used for f in self._forms(c, paper)]
        if paper.title and any(states_in_phrase(f, paper.title, COMPOUND_GAP) for f in forms):
            return False
        stating = self._statements(forms, paper)
        # a paper that writes them only in its field's background and its own work in words of its
        # own ("In the last few years, there have been notable developments in machine unlearning
        # ..." before "we explore unlearning for the regression problem") is about them: one sets
        # itself against them only where it contrasts its work with them
        return (
            any(self._contrasted(x.text, forms) for x in stating)
            and all(self._others(x.text, x.start, forms, paper) for x in stating)
        )

    def own_quote(self, compounds: Sequence[str], paper: Paper, ranked: Sequence[Evidence]) -> Evidence | None:
        """The best of ``ranked`` (``paper``'s sentences scored for the topic, best first) that
        writes one of the ``compounds`` as the paper's own (not :meth:`_others`): "In this paper,
        we study the inverse connection and show that MPNN with virtual node (VN) ... is powerful
        enough to arbitrarily approximate the self-attention layer of GT" rather than "MPNN + VN is
        a surprisingly strong baseline, outperforming GT". ``None`` when none does."""
        used = [c for c in compounds if not any(long_forms(w) for w in c.split())]
        forms = [f for c in used for f in self._forms(c, paper)]
        for e in ranked if forms else ():
            if any(states_in_phrase(f, e.sentence, COMPOUND_GAP) for f in forms) and not self._others(
                e.sentence, e.start, forms, paper
            ):
                return e
        return None

    def states_as_others(self, compounds: Sequence[str], paper: Paper, quote: Evidence) -> bool:
        """Whether ``quote`` (a sentence of ``paper``) writes one of the ``compounds`` only as
        another's work (:meth:`_others`)."""
        used = [c for c in compounds if not any(long_forms(w) for w in c.split())]
        forms = [f for c in used for f in self._forms(c, paper)]
        return any(states_in_phrase(f, quote.sentence, COMPOUND_GAP) for f in forms) and self._others(
            quote.sentence, quote.start, forms, paper
        )

    def _forms(self, term: str, paper: Paper) -> list[str]:
        """The forms that state ``term`` in ``paper`` (:meth:`states_compound`'s): the term, it
        without common modifiers, the glossary's other names, an abbreviation the abstract defines for it."""
        forms = [term, *self._without_common_modifiers(term), *glossary_forms(term)]
        return forms + [short for short, long in abbreviation_definitions(paper.abstract) if states_phrase(term, long)]

    def _statements(self, forms: Sequence[str], paper: Paper) -> list[Sentence]:
        """The sentences of ``paper`` that write one of ``forms`` (:func:`rag.lexicon.states_phrase`,
        at most :data:`COMPOUND_GAP` words between its words)."""
        sents = self.evidence.sentences(paper)[0]
        return [x for x in sents if any(states_in_phrase(f, x.text, COMPOUND_GAP) for f in forms)]

    def _others(self, text: str, start: int, forms: Sequence[str], paper: Paper) -> bool:
        """Whether the sentence ``text`` of ``paper`` (at offset ``start``) states ``forms`` as
        another's, not as the paper's own work: a sentence before the contribution that does not
        speak in the first person (:meth:`rag.evidence.selector.EvidenceSelector.preamble`: "Graph
        Transformer (GT) recently has emerged as a new paradigm"), one about prior work that says
        nothing of the paper's own (:data:`rag.llm.claims.PRIOR_WORK`: "Existing graph transformers
        ..."), or one that sets them against the paper's work (:meth:`_contrasted`)."""
        if start in self.evidence.preamble(paper):
            return True
        if PRIOR_WORK.search(text) and not own_work(text, paper.label) and not FIRST_PERSON.search(text):
            return True
        return self._contrasted(text, forms)

    @staticmethod
    def _contrasted(text: str, forms: Sequence[str]) -> bool:
        """Whether a word that sets what follows against the paper's work (``set_against``:
        "outperforms", "surpassing", "unlike", "than", "avoiding") stands within
        :data:`rag.route.lead.STANCE_WINDOW` words before each place ``text`` writes one of
        ``forms`` (:func:`rag.lexicon.states_phrase`), in the same clause: "show that it
        outperforms graph Transformers and multi-hop MPNNs"; not "our graph transformer outperforms
        GNNs". A peer marker between a word that measures against peers and the compound makes it
        the paper's own kind ("CPA significantly outperforms prior gradient inversion attacks": CPA is
        one), not what it sets itself against. ``False`` when ``text`` writes none."""
        words = [(m.group(0), m.group(0).lower().strip("()[],.;:\"'“”")) for m in re.finditer(r"\S+", text)]

        def writes(i: int) -> bool:
            return any(states_phrase(f, " ".join(w for w, _ in words[i : i + 8]), COMPOUND_GAP) for f in forms)

        # the word each place it writes a form starts at
        starts = [i for i in range(len(words)) if writes(i) and not writes(i + 1)]

        def contrasted(i: int) -> bool:
            peers = False  # a peer marker between: "outperforms prior gradient inversion attacks"
            for j in range(i - 1, max(-1, i - 1 - STANCE_WINDOW), -1):
                raw, w = words[j]
                if w in _SET_AGAINST:
                    return not (peers and w in _PEER_CONTEST)
                if _CLAUSE_END.search(raw):
                    return False
                peers = peers or w in _PEER_MARKER
            return False

        return bool(starts) and all(contrasted(i) for i in starts)

    def _writes(self, term: str, paper: Paper) -> bool:
        """Whether ``paper``'s title or a sentence writes ``term`` word for word, side by side
        (:func:`rag.lexicon.states_phrase`): the collection's own phrase, not the question's
        ("conduct causal discovery" is not written even where "conduct" stands near "causal discovery")."""
        texts = (paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0]))
        return any(states_phrase(term, t) for t in texts)

    def _without_common_modifiers(self, term: str) -> list[str]:
        """``term`` without the leading words the collection writes in at least
        :data:`COMMON_MODIFIER_SHARE` of its abstracts, two words or more left: "computational
        antibody design" -> ["antibody design"], "large vision-language models" ->
        ["vision-language models"]; ``[]`` when none is dropped ("dataset distillation" keeps both)."""
        words = term.split()
        n = max(1, len(self.retriever.papers))
        out = []
        while len(words) > 2 and content_terms(words[0]) and all(
            self.retriever.document_frequency(t) >= COMMON_MODIFIER_SHARE * n for t in content_terms(words[0])
        ):
            words = words[1:]
            out.append(" ".join(words))
        return out

    def other_sense(
        self, compounds: Sequence[str], hits: Sequence[PaperHit], checked: Sequence[PaperHit]
    ) -> list[PaperHit]:
        """The ``hits`` that share a word with a compound the topic names but state none of them
        (:meth:`states_compound`): "Topologically Faithful Image Segmentation via Induced Matching"
        for "score matching", a knowledge-distillation paper for "dataset distillation", an RL paper
        on "tabular MDPs" for "tabular deep learning", "Self-Attention Mechanisms" for "linear
        attention" (a word inside a hyphenated one is shared). The term's words put them close (BM25,
        the embedder); the phrase is what names the subject.

        A compound no candidate of ``checked`` writes side by side (:meth:`_writes`) is the
        question's wording, not the collection's ("detect machine-generated text"): nothing is
        left out for it. A hit that states no word of the compounds (it was found by the embedder
        on a description) is kept; the check is of a shared word in another sense, not of meaning.

        Args:
            compounds: Terms of two or more content words the topic consists of (:attr:`Topic.named`).
            hits: The members to check.
            checked: The candidates the members were chosen among (``retrieval.candidates``).
        """
        # a compound with an abbreviation of the glossary ("LLM agents", "GNN explainers") is written
        # in many arrangements ("agents based on Large Language Models (LLMs)", "LLMs are deployed
        # as autonomous agents"): its words apart are no other sense (CogRouter and EMPG were put
        # out of "papers on LLM agents", leaving one paper)
        used = [
            c for c in compounds
            if not any(long_forms(w) for w in c.split()) and any(self._writes(c, h.paper) for h in checked)
        ]
        if not used:
            return []
        keys = {term_key(w) for c in used for w in content_terms(c)}

        def shares_word(paper: Paper) -> bool:
            # a word inside a hyphenated one is shared too: "self-attention" writes "attention"
            terms = content_terms(f"{paper.title or ''} {paper.abstract}")
            return bool(keys & {term_key(p) for w in terms for p in (w, *compound_parts(w))})

        out = [h for h in hits if not any(self.states_compound(c, h.paper) for c in used) and shares_word(h.paper)]
        return out

    def parts_apart(
        self, alternatives: Sequence[Sequence[str]], hits: Sequence[PaperHit], checked: Sequence[PaperHit]
    ) -> list[PaperHit]:
        """The ``hits`` that state a part of a combined topic only by its words apart, in another sense.

        A part of two or more content words that some candidate of ``checked`` writes side by side
        (:meth:`_writes`: the collection's phrase, "Bayesian optimization") names a subject; a paper
        whose abstract holds every word of it (term keys) and states it nowhere as a phrase
        (:meth:`states_compound`) uses its words in other senses ("Personalized Federated Learning
        via Variational Bayesian Inference", whose "optimization" is of the clients' models, for
        "Bayesian optimization in the federated setting"). Term coverage counts such a paper as
        stating the part; what it states is another subject. A paper that lacks a word of the part
        states it in other words if at all ("differentially private" for "differential privacy") and
        is the parts check's to judge (:meth:`rag.route.refusal.RefusalPolicy.parts`), as is a part
        with an abbreviation of the glossary ("LLM agents", written in many arrangements).

        Args:
            alternatives: The parts of each alternative (:attr:`rag.route.refusal.PartsCoverage.parts`).
            hits: The papers that state every part of an alternative.
            checked: The candidates of the topic (``retrieval.candidates``).

        Returns:
            The hits that, in every alternative, state some such part only by its words apart.
        """
        compound = {
            p for alt in alternatives for p in alt
            if len(set(content_terms(p))) >= 2
            and not any(long_forms(w) for w in p.split())
            # "equivariant networks": a head that names the field is written after the model the
            # paper builds ("E(3) equivariant variational autoencoder"), not in another sense
            and not field_headed(p)
            and any(self._writes(p, h.paper) for h in checked)
        }
        if not compound:
            return []

        def loosely(part: str, paper: Paper) -> bool:
            # its words side by side in some form: "Differential Privacy" states "differentially private"
            want = [w.lower()[:LOOSE_PREFIX] for w in content_terms(part)]
            for text in (paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0])):
                seq = [w.lower()[:LOOSE_PREFIX] for w in content_terms(text)]
                for i in range(len(seq) - len(want) + 1):
                    if seq[i] == want[0] and _follows(seq, want, i):
                        return True
            return False

        def apart(part: str, paper: Paper, keys: set[str]) -> bool:
            words = {term_key(w) for w in content_terms(part)}
            texts = (paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0]))
            return (
                words <= keys and not self.states_compound(part, paper) and not loosely(part, paper)
                and not any(_reordered(part, t) for t in texts)
            )

        out = []
        for h in hits:
            keys = {term_key(w) for w in content_terms(f"{h.paper.title or ''} {h.paper.abstract}")}
            if all(any(p in compound and apart(p, h.paper, keys) for p in alt) for alt in alternatives):
                out.append(h)
        return out

    def stating(self, names: Sequence[NamedForms], paper: Paper) -> Sentence | str | None:
        """Where ``paper`` states every name of ``names`` in the sense asked (either form, a sized
        variant, :func:`rag.acronyms.states_named`, its own definitions of the acronyms deciding their
        sense): the first sentence that states them all, else ``"title"`` when the title and the
        sentences state each somewhere, else ``None``."""
        own = abbreviation_definitions(paper.abstract)
        sentences = self.evidence.sentences(paper)[0]
        for x in sentences:
            if all(states_named(x.text, n, own) for n in names):
                return x
        texts = [paper.title, *(x.text for x in sentences)]
        return "title" if all(any(states_named(t, n, own) for t in texts) for n in names) else None

    def states_names(self, names: Sequence[NamedForms], paper: Paper, text: str | None = None) -> bool:
        """Whether ``paper`` states every name of ``names`` (:meth:`stating`); with ``text``, whether
        that text of the paper (a sentence) does."""
        if text is None:
            return self.stating(names, paper) is not None
        own = abbreviation_definitions(paper.abstract)
        return all(states_named(text, n, own) for n in names)

    def clause_fit(self, clauses: Sequence[str], hits: Sequence[PaperHit]) -> np.ndarray:
        """How well each hit's abstract states every clause of a description of one paper.

        For each clause (:func:`rag.question.parts.description_clauses`), the best cosine between
        it and a sentence of the abstract; the mean over the clauses, each weighted by how specific
        its words are (the sum of their IDF, ``ln(N / (1 + df))``, over the collection's ``N``
        abstracts; equal weights when no word is specific), so that "so that it becomes more
        efficient" weighs less than "skip unnecessary reasoning". The paper a description means
        states each of its clauses somewhere ("recasting X as ranking" in one sentence, "with
        losses over pairs or lists" in another); a neighbour on the same subject states one.

        Returns:
            ``(len(hits),)`` float in [-1, 1]; 0 for an abstract without sentences.
        """
        if not hits or not clauses:
            return np.zeros(len(hits))
        n = max(1, len(self.retriever.papers))
        weights = np.array(
            [
                sum(max(0.0, math.log(n / (1 + self.retriever.document_frequency(t)))) for t in set(content_terms(c)))
                for c in clauses
            ]
        )
        weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(clauses), 1.0 / len(clauses))
        cvecs = self.retriever.query_vectors(list(clauses))
        self.evidence.warm([h.paper for h in hits])
        fit = []
        for h in hits:
            sents, vecs = self.evidence.sentences(h.paper)
            fit.append(float((vecs @ cvecs.T).max(axis=0) @ weights) if sents else 0.0)
        return np.array(fit)

    def sides(self, paper: Paper) -> frozenset[str]:
        """The sides of a contest ``paper`` takes as its own (:data:`rag.question.stances.STANCES`):
        its title's (:func:`rag.question.stances.head_stances`: "Graph Contrastive Backdoor Attacks"
        -> attack) and those of the words after each statement of its own contribution, within
        :data:`OBJECT_SPAN` characters ("we propose Anti-Backdoor Data-Free KD (ABD), the first
        plug-in defensive method" -> defense), the verb's object only ("a watermarking approach that is
        robust to stealing attacks" takes no side). A side another sentence mentions ("existing
        defenses fail") is not the paper's own. Empty when the paper states none."""
        own = set(head_stances(paper.title or ""))
        for x in self.evidence.sentences(paper)[0]:
            for m in _OWN_CONTRIBUTION.finditer(x.text):
                own |= head_stances(x.text[m.end() : m.end() + OBJECT_SPAN], object_only=True)
        return frozenset(own)

    def contributors(self, artifact: Sequence[str], members: list[PaperHit]) -> list[PaperHit]:
        """Members that state an artifact ("dataset", "benchmark", ...) as their own contribution
        (:meth:`contribution`). Most abstracts merely evaluate on benchmarks; those are not papers
        that introduce one."""
        return [h for h in members if self.contribution(artifact, h.paper) is not None]

    def contribution(self, artifact: Sequence[str], paper: Paper) -> Sentence | str | None:
        """Where ``paper`` states ``artifact`` as its own contribution: the first sentence such as
        "we introduce X, a benchmark" / "our dataset"; a dataset (``counted_data_artifact``) also
        by the authors contributing a counted collection of data items ("We release 95K
        validator-verified CoT traces"), and one kind of data ("corpus") by another ("dataset"), one
        way to score ("measure", ``scoring_artifact``) by another ("metric"); a
        dataset or toolkit of its own contributed for evaluation ("To facilitate rigorous
        evaluation, we introduce HyperTrack, a large-scale dataset") states a benchmark asked
        (:data:`_BENCHMARK_ASKED`), not the other way round (a benchmark of tasks is no new
        dataset); else ``"title"`` when the title names the artifact ("X: A Benchmark for ...");
        ``None`` when it states none. The sentence is the evidence a list quotes for the paper."""
        wanted = {stem(w.lower()) for w in artifact}
        counted = any(w.lower() in _COUNTED_DATA for w in artifact)
        if counted:  # "a new corpus" is answered by "we introduce X, a dataset"
            wanted |= {stem(w) for w in _COUNTED_DATA.words}
        if wanted & _SCORING:  # "a new evaluation measure" is answered by "as an evaluation metric"
            wanted |= _SCORING
        benchmark = bool(wanted & _BENCHMARK_ASKED)

        def states(text: str, sentence: str = "") -> bool:
            # an artifact noun inside a hyphenated name ("Learning-to-Measure (L2M)") is part of
            # the name, not the artifact the sentence contributes
            found = {stem(m.group(0).lower()) for m in _ARTIFACTS.finditer(text) if not _in_compound(text, m)}
            # a benchmark asked: a dataset or a toolkit the sentence says is for evaluation is one
            return bool(wanted & found) or (
                benchmark and bool(found & _DATA_ARTIFACTS) and bool(_EVALUATION_PURPOSE.search(sentence or text))
            )

        def contributed(text: str) -> bool:
            # the artifact is what the verb contributes, within OBJECT_SPAN characters after it
            # ("we introduce HyperTrack, a large-scale dataset"), not a word further on ("We propose
            # IncDSI, a method to add documents ... without retraining on the entire dataset")
            return any(states(text[m.start() : m.end() + OBJECT_SPAN], text) for m in _OWN_CONTRIBUTION.finditer(text))

        for x in self.evidence.sentences(paper)[0]:
            if contributed(x.text) or (counted and contributes_items(x.text)):
                return x
        return "title" if states(paper.title) else None
