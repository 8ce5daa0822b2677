"""The refusal policy: when the collection does not answer a question, say so and cite nothing.

Three classes of question are refused, whatever their phrasing (the plan, not the wording,
decides):

1. **a slot the paper's abstract does not state**: the detail or measure a question asks of a
   named (or described) paper (:class:`rag.types.Slot`: a learning rate, GPU hours, a licence, a
   date, a model size, "the number of out-of-distribution images") when no sentence of its
   abstract states it (:func:`rag.route.slot.slot_span`): one check, whatever the detail and its
   wording; authors are answered from the records when they hold them;
2. **terms the papers never mention**: a coined term the question states that no abstract
   contains, or that the named paper's abstract does not contain ("What BLEU does ME-DLM reach
   on WMT14?");
3. **topics the collection is not about**: for a question that names no paper, no sentence of
   the candidates is close to the topic or to one of its alternatives (:meth:`RefusalPolicy.topic`),
   calibrated on the dev set (see the floors in :class:`rag.settings.RetrievalSettings`);
4. **combinations the collection holds only apart**: a topic of several parts ("diffusion models
   for weather forecasting") that no candidate states every part of (:meth:`RefusalPolicy.parts`;
   each part is also searched on its own, and a sentence states a part with its words or in others,
   not by its head alone: :meth:`RefusalPolicy.sentence_states`): the refusal names the closest
   papers with the part each states and the part it does not.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rag.evidence.senses import evidence_senses
from rag.lexicon import (
    english_word,
    glossary_forms,
    glossary_instances,
    long_forms,
    same_keys,
    states_phrase,
    term_key,
)
from rag.llm.prose import REFUSAL
from rag.protocols import EvidenceSource, Retriever
from rag.question.names import MIN_CASED
from rag.question.parts import bare_compound, coordinated_subjects, distinguishing, paper_description, ungraded
from rag.question.phrasing import alternatives, before_dash
from rag.question.plan import AskPlan, Detail, Plan, Topic
from rag.question.slots import CONTENTS, INSTANCE, OBJECT, SETTING, YEAR, detail_slot
from rag.route.lead import (
    _keys_at,
    clause_spans,
    denies_directly,
    key_clause,
    own_work,
    quoted,
    spelled_out,
    term_span,
)
from rag.route.membership import TITLE_SENSE, Membership, phrases, sibling_title, states_any_order
from rag.route.slot import (
    change_clause,
    coined_names,
    component_span,
    instances_known,
    measure_head,
    names_instance,
    narrowed_time,
    slot_span,
    states_amount,
    states_in_kind,
    unquantified_span,
    vaguely_named,
)
from rag.settings import RetrievalSettings
from rag.text import Sentence, content_terms, normalize, numbers, split_sentences
from rag.types import Ask, Evidence, PaperHit, Retrieval, SearchQuery, Slot
from store.papers import Paper, strip_markup

__all__ = [
    "NOT_ENGLISH",
    "NOTHING_CLOSE",
    "PartialPaper",
    "PartsCoverage",
    "RefusalPolicy",
    "TopicEvidence",
    "letters_digits",
    "writes_name",
]

NOTHING_CLOSE = f"{REFUSAL} Nothing in the collection is close to it"
NOT_ENGLISH = (
    "The question does not seem to be in English. The abstracts are English and the offline embedding "
    "model matches English text, so in other languages only names the abstracts state (a method's or a "
    "dataset's name) can be found: please ask in English, or name the method."
)
RARE_SHARE = 0.1
"""Largest share of the abstracts a term may appear in and still be rare (a name-like term)."""
NEAR_SENTENCES = 10
"""Candidates whose sentences are compared with the topic."""
NEAR_COVERAGE = 20
"""Candidates whose term coverage of a facet is checked."""

NEAR_SPECIFIC_SHARE = 0.5
"""Most share of the abstracts a word of the question may be in and still place a measure worded
otherwise (:meth:`RefusalPolicy.states_near`): "model", "learning" and "data" are in more than half;
"strongest" (by its stem, 12 of the 38 seed abstracts) and "herbarium" are not. Set by hand."""

UNUSED_MIN_PAPERS = 1000
"""Least papers for a word no abstract uses to say a topic is absent (:meth:`RefusalPolicy.unused_words`).
In a library of thousands of ML abstracts an ordinary word of the field is in some abstract; in a
few dozen it is not ("pooling", "neighbours" are in none of the 38 seed abstracts, whose paraphrase
questions use them). Set between the two collections we measure (38 and 3,136 papers); on the
library it refuses "earthquakes or aftershocks" and "lip reading ... the mouth" (see the closing
figures of issue 32 in the team notes)."""

ABSENT_SUBJECT_MAX_TERMS = 4
"""Most content words of a part of a combined topic that names a subject the collection does not
hold when one of its words is in no abstract (:meth:`RefusalPolicy._unused_subject`): "de novo
molecule generation" (4) and "drug discovery" (2) name subjects; longer parts are descriptions. Set
by reading the combined topics of the eval files (2-4 words a part)."""

UNHELD_WORD_MIN_LETTERS = 5
"""Fewest letters of a one-word part of a combined topic that no abstract uses for the library not to
hold the combination (:meth:`RefusalPolicy._unheld_subject`), as :meth:`RefusalPolicy.unused_words`
counts them: shorter words may be abbreviations an abstract writes otherwise."""

DISTINCT_SHARE = 0.035
"""Largest share of the abstracts holding the rarest term of a part that distinguishes a paper
(:meth:`RefusalPolicy.distinguishing`). On the 3,136-paper library (the 40 descriptions written for stop 57), the
parts that the best-covering candidate of a description of no paper lacked and another paper
stated have a rarest term in 1-103 abstracts ("speculative" 1, "autonomous" 29, "federated" 103);
the one such part of a description of a paper the library holds, "avoiding the cost" of "avoiding
the cost of matrix inversion in Shampoo" (FOAM), 123: 0.035 (110) lies between."""
NAMED_PARTIAL = 3
"""Most papers a refusal of a combined topic names as closest (one per set of parts stated)."""

SUBJECTS_APART_MIN_PAPERS = UNUSED_MIN_PAPERS
"""Least papers for :meth:`RefusalPolicy.subjects_apart` to read a long topic's subjects: in a few
dozen abstracts a subject is often written in other words by the one paper a long question describes
(on the seed, EMPG's "assign credit" and "outcome-based rewards" for "credit assignment for LLM
agents with only outcome rewards: any method that ...", refused once checked), while in a library
a phrase the collection writes is how its papers name a subject, as :meth:`RefusalPolicy.stacked`
reads it."""

SUBJECT_WORD_SHARE = 0.01
"""Most share of the abstracts that write a word for it alone to name a subject of a long topic
(:meth:`RefusalPolicy.long_subjects`): "GFlowNets" (9 of the 3,136 library abstracts), "watermarking",
"Hawkes"; "clients", "privacy", "agents" are in more. Set by reading, not fitted."""

PART_SEARCH = 5
"""Papers retrieved for each part of a combined topic on its own (:meth:`RefusalPolicy.parts`): the
first candidates of the whole topic are papers on its dominant part ("graph neural networks" for
"machine unlearning for graph neural networks"), so whether the collection holds the other part,
and a paper that states both, is looked for with that part's own words. Set by hand: the part's
papers are at the head of its own retrieval; five is the most a refusal names (three) and some."""

STACKED_MIN_TERMS = 2
"""Fewest content words of a bare compound read as subjects stacked when no abstract writes it side
by side (:meth:`RefusalPolicy.stacked`): two ("LLM pruning", "private bandits") stack when some abstract
writes them near one another (within :data:`WHOLE_GAP` words) and none side by side; a two-word
subject the collection names is written side by side ("federated learning", "music generation"), and
one whose words it holds apart only ("sign language") stays one subject."""

PHRASE_SEARCH = 30
"""Papers of the lexical retrieval of a phrase whose abstracts are read for it side by side
(:meth:`RefusalPolicy.written`): BM25 ranks the abstracts that hold all its words, and those that
repeat them, first. Set by hand: "optimal transport" (38 abstracts) and "differentially private"
(84) are written side by side in the first abstracts of their own retrieval."""

TOGETHER_MIN_PARTS = 3
"""Fewest parts of an alternative that :meth:`RefusalPolicy.parts` judges held together when each two
of them are stated together by some candidate. With two parts, a pair stated together is a complete
paper; three is the least for which pairs say something a complete paper does not. Not tuned."""

NEAR_WORD = 0.66
"""Least cosine (the embedder's, word against word) at which a word of a sentence says a word of a
part that is a term the collection writes whole (:meth:`RefusalPolicy.lacking`): "private" says
"privacy" (0.68), "distilling" "distillation" (0.83), "table" "tabular" (0.79); "privacy-preserving"
does not say the "differential" of "differential privacy" (0.08), nor "Product" the "mixture" of
"mixture-of-experts" (0.39), nor "reward" "reinforcement" (0.657). Set by reading such pairs of the
library's combined topics (federated learning with differential privacy, mixture-of-experts in
language models), not fitted."""

WHOLE_GAP = 2
"""Most content words between two neighbouring words of a stacked compound for an abstract to write
its subjects together (:func:`rag.lexicon.states_phrase`): "Differentially Private Episodic
Reinforcement Learning" writes "differentially private" with "reinforcement learning"; MetaDiffuser's
"diffusion planner for offline meta-RL" writes "diffusion" with "offline reinforcement learning". It
makes one-word pieces subjects (:meth:`RefusalPolicy.stacked`); only a compound written side by side
(no gap) is one subject."""


COMPOUND_SEARCH = 100
"""Papers of the lexical retrieval of a compound (and of each of its forms) read for it in any order
(:meth:`RefusalPolicy.unstated_compound`), besides the topic's candidates: BM25 ranks the abstracts
that hold all its words, and those that repeat them, first. Set by hand, wider than
:data:`PHRASE_SEARCH` because an abstract that writes the compound head first ("exploration in deep
reinforcement learning") holds words common in the library, which many abstracts repeat."""


def letters_digits(text: str) -> str:
    """Only the letters and digits of ``text``: "resnet-50" and "ResNet 50" meet as "resnet50"."""
    return re.sub(r"[\W_]+", "", text.lower())



@dataclass(frozen=True)
class TopicEvidence:
    """How close the candidates of a question that names no paper come to its topic.

    Attributes:
        best_sentence: Best cosine of any sentence of the first candidates with the topic or a facet.
        dense: Best chunk cosine of the first candidate.
        coverage: Term coverage of the first candidate.
        stated: Some candidate states the topic's (or a facet's) terms well enough.
        rare: The question states a rare name or compound term some abstract holds, or a figure
            with a unit or decimals ("65x", "40%", "2.33") a candidate's abstract states.
        complete: Some candidate states the topic's content words side by side, in order
            (:func:`rag.lexicon.states_phrase`: "clinical", "protein", "clinical abnormality grounding").
    """

    best_sentence: float
    dense: float
    coverage: float
    stated: bool
    rare: bool
    complete: bool = False


@dataclass(frozen=True)
class PartialPaper:
    """A candidate that states some parts of a topic of several and not the others.

    Attributes:
        hit: The paper.
        stated: The parts of its best-covered alternative it states, in the topic's order.
        missing: The parts of that alternative it does not state.
        sentence: Its sentence closest to the first stated part (quoted so the reader can judge).
        part: The part of the topic whose words it states apart, when ``stated`` and ``missing`` are
            the words of one part (its head and the rest: "3D point clouds" but not "completing
            partial" of "completing partial 3D point clouds"); ``""`` otherwise.
    """

    hit: PaperHit
    stated: tuple[str, ...]
    missing: tuple[str, ...]
    sentence: str = ""
    part: str = ""


@dataclass(frozen=True)
class PartsCoverage:
    """Which candidates state every part of a topic of several (:meth:`RefusalPolicy.parts`).

    Attributes:
        checked: The topic has an alternative of two or more parts that are not generic; when
            ``False`` the other fields are empty and the topic is judged as a whole.
        complete: Candidates that state every part of some alternative, members first.
        partial: Candidates that state some parts but no alternative whole, most parts first.
        parts: The parts checked, per alternative.
    """

    checked: bool
    complete: list[PaperHit]
    partial: list[PartialPaper]
    parts: tuple[tuple[str, ...], ...] = ()

    def refusal(self) -> str:
        """The refusal when no candidate states every part, naming the closest partial papers."""
        text = f"{REFUSAL} No abstract states {self.wanted()}"
        named = self.named()
        if not named:
            return text + "."
        text += "; closest: " + "; ".join(_partial_line(x, quote=True) for x in named)
        return text if text.endswith("”") else text + "."

    def wanted(self) -> str:
        """The parts checked, as a refusal names them: "“diffusion models” with “weather
        forecasting”", alternatives joined by ", or "; "every part" when none are known."""
        return ", or ".join(" with ".join(f"“{p}”" for p in alt) for alt in self.parts) or "every part"

    def named(self) -> list[PartialPaper]:
        """At most :data:`NAMED_PARTIAL` partial papers, one per set of parts stated."""
        out: list[PartialPaper] = []
        seen: set[tuple[str, ...]] = set()
        for x in self.partial:
            if x.stated in seen:
                continue
            seen.add(x.stated)
            out.append(x)
            if len(out) == NAMED_PARTIAL:
                break
        return out

    def apart(self, distinct: Callable[[str, Paper], bool], answered: str = "") -> tuple[str, ...]:
        """The distinguishing parts that the paper answered lacks and another candidate states: a
        description of one paper whose facts the collection holds only in different papers ("detects
        audio deepfakes" by CA-SOADD, "the probability curvature" of "a language model" by
        DetectGPT; "a graph neural network" by SpeqNets and "symbolic regression" by Controllable
        Neural Symbolic Regression) describes none of them.

        Args:
            distinct: Whether a part distinguishes a paper, and the paper does not state it
                (:meth:`RefusalPolicy.distinguishing`); a lone common word a reading cut off ("put",
                "decide where") does not.
            answered: The id of the paper the answer gives for the description; the candidate that
                states the most parts when it states none (the reader's words may all be its own).

        Returns:
            The parts in the topic's order; ``()`` when some candidate states every part of an
            alternative, when none states any, or when no other candidate states what it lacks.
        """
        if self.complete or not self.partial:
            return ()
        first = next((x for x in self.partial if x.hit.paper.id == answered), self.partial[0])
        others = [x for x in self.partial if x is not first]
        held = {p for x in others for p in x.stated}
        missing = first.missing
        if first.part:
            # it states the head of a part only ("private estimation" of "private Shapley value
            # estimation"): that part is missing, and so is every other part of its alternative
            alt = next((a for a in self.parts if first.part in a), (first.part,))
            missing = tuple(p for p in alt if p not in first.stated)
        return tuple(p for p in missing if p in held and distinct(p, first.hit.paper))

    def note(self) -> str:
        """One line naming the partial papers after an answer of the complete ones, or ``""``."""
        named = self.named()
        if not named:
            return ""
        return f"Partly about it ({len(named)}): " + "; ".join(_partial_line(x) for x in named) + "."


def _partial_line(x: PartialPaper, *, quote: bool = False) -> str:
    """ "ClimaX (id) states “weather forecasting” but not “diffusion models”: “<sentence>”"."""
    p = x.hit.paper
    stated = " and ".join(f"“{s}”" for s in x.stated)
    missing = " or ".join(f"“{s}”" for s in x.missing)
    line = f"{p.label} ({p.id}) states {stated} but not {missing}"
    if quote and x.sentence:
        line += f": “{x.sentence}”"
    return line


def writes_name(text: str, name: str) -> bool:
    """Whether ``text`` writes ``name`` as a word or a run of up to three words, in any case and
    with or without its hyphens, dots and spaces ("resnet152", "ResNet-152", "ResNet 152" alike); a
    version is written whole: "ResNet-50" writes no "ResNet-152", "GPT-2" no "GPT-4"."""
    key = letters_digits(name)
    if not key:
        return True
    opening = re.match(r"[a-z]+", key)
    lead = opening.group(0) if opening else key  # the letters the name opens with
    lower = text.lower()
    if lead not in letters_digits(lower):
        return False
    words = [letters_digits(w) for w in re.findall(r"[\w.-]+", lower)]
    return any("".join(words[i : i + n]) == key for n in (1, 2, 3) for i in range(len(words) - n + 1))


def _key_stated(term: str, keys: set[str] | frozenset[str]) -> bool:
    """Whether the term keys of a sentence (``keys``) state ``term``: its key or the glossary's
    (:func:`rag.lexicon.same_keys`), or, for a hyphenated term ("mixture-of-experts"), each of its
    words ("a mixture of experts")."""
    if same_keys(term) & keys:
        return True
    pieces = content_terms(term.replace("-", " ")) if "-" in term else []
    return bool(pieces) and all(same_keys(p) & keys for p in pieces)


TEXT_KEYS_KEPT = 65_536
"""Sentences whose term keys :func:`_text_keys` keeps (the 3,136-paper library has about 22,000)."""


@functools.lru_cache(maxsize=TEXT_KEYS_KEPT)
def _text_keys(text: str) -> frozenset[str]:
    """The term keys of ``text`` (:func:`rag.route.lead._keys_at`), kept: an abstract's sentences are
    read again for every description whose candidates they are among."""
    return frozenset(key for key, _, _ in _keys_at(text))


def _capitalised_compound(name: str) -> bool:
    """Whether ``name`` is a hyphenated compound of capitalised words ("Kolmogorov-Arnold",
    "Prefix-Omit"): a coined name whose parts an abstract may hold apart but never together."""
    parts = name.split("-")
    return len(parts) >= 2 and all(p[:1].isupper() and p.isalpha() for p in parts)


class RefusalPolicy:
    """Decides refusals (see the module docstring).

    Args:
        retriever: Document frequencies, coverage, the embedder and the papers.
        evidence: Sentence embeddings of abstracts (an :class:`rag.evidence.selector.EvidenceSelector`).
        settings: The floors.
    """

    def __init__(self, retriever: Retriever, evidence: EvidenceSource, settings: RetrievalSettings):
        self.retriever = retriever
        self.evidence = evidence
        self.settings = settings
        self.compounds = Membership(retriever, evidence, settings.candidates)
        """Reads whether a paper states a compound as one phrase (:meth:`Membership.states_compound`)."""
        self._terms: dict[str, bool] = {}  # part -> a term the collection writes whole (:meth:`_term`)

    # --- what abstracts do not state --------------------------------------------------

    @staticmethod
    def settings_asked(ask: Ask, paper: Paper) -> tuple[str, ...]:
        """The coined names a measure is asked on besides the measure and the paper ("LSUN" of
        "Consistency Models FID LSUN", "COCO" of "what FID does Muse reach on COCO?"), lower case:
        the question's entities less the slot's terms, the paper's own names and abbreviations the
        glossary spells out ("RL", "LLMs": words of a field, not a benchmark), and the names of the
        paper's description ("CUDA" of "according to the paper that introduces ... CUDA kernels, what
        sparsity level ...?": the paper asked, not where the measure is asked; :attr:`Ask.matching`).
        ``()`` when the question asks no measure with an amount (a detail, a form, a count's unit)."""
        slot = ask.slot
        if slot is None or not slot.amount or slot.form or slot.detail or slot.count:
            return ()
        own = {w.lower() for x in (paper.label, *paper.aliases) for w in re.findall(r"[\w.@-]+", normalize(x or ""))}
        own |= {normalize(x or "").lower() for x in (paper.label, *paper.aliases)}
        terms = {t.lower() for t in slot.terms}
        asked = normalize(ask.matching or ask.text).lower()
        return tuple(sorted(
            e for e in ask.entities
            if e.lower() not in terms | own and not glossary_forms(e) and not any(t in e.lower() for t in terms)
            and e.lower() in asked
        ))

    def _unset(self, ask: Ask, papers: Sequence[Paper]) -> str:
        """The refusal of a measure one paper states only on other benchmarks than the one asked
        (:meth:`settings_asked`): every clause that states the measure names other coined settings
        and none the asked one ("FID of 3.55 on CIFAR-10 and 6.20 on ImageNet 64x64" for "FID on
        LSUN"). "The abstract of X does not state <slot> on <benchmark>; closest: “…”", quoting the
        clause that states the measure. ``""`` when a stating clause writes every benchmark asked,
        or names none (a figure for the field, "1.56× speedup ... for LLMs", may hold for the one
        asked), or the question asks of several papers."""
        if len(papers) != 1 or ask.slot is None:
            return ""
        paper, slot = papers[0], ask.slot
        asked = self.settings_asked(ask, paper)
        if not asked:
            return ""
        senses = evidence_senses(self.evidence)
        stating = [
            (x.text, span) for x in self.evidence.sentences(paper)[0]
            if (span := slot_span(slot, x.text, senses)) is not None
        ]
        unset = [e for e in asked if not any(e in normalize(t).lower() for t, _ in stating)]
        # a sentence that writes the benchmark asked with an amount of the measure's kind states it
        # in other words ("pruning time on OPT-175B": "on ... OPT-175B ..., in under 4.5 hours")
        unset = [e for e in unset if not any(
            e in normalize(x.text).lower() and states_in_kind(slot, x.text) for x in self.evidence.sentences(paper)[0]
        )]
        terms = {t.lower() for t in slot.terms}
        own = {w.lower() for x in (paper.label, *paper.aliases) for w in re.findall(r"[\w.@-]+", normalize(x or ""))}

        def others(text: str, span: tuple[int, int, bool]) -> bool:
            """Whether the stating clause names a setting besides the measure and the paper."""
            return any(n.lower() not in terms | own for n in coined_names(text[span[0] : span[1]]))

        if not unset or not stating or not all(others(t, sp) for t, sp in stating):
            return ""
        best, span = stating[0]
        return (f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state {slot.name} on "
                f"{' or '.join(unset)}; closest: {quoted(best, span)}.")

    def states(self, slot: Slot, paper: Paper) -> bool:
        """Whether some sentence of ``paper``'s abstract states ``slot`` (:func:`rag.route.slot.slot_span`)
        of the paper: a sentence of its background or of the gap it addresses that does not speak of
        the authors' own work (:func:`rag.route.lead.own_work`) states the field's slot, not the
        paper's. "Shampoo is attracting considerable attention for its superior performance on
        large-scale optimization benchmarks" names no benchmark FOAM uses, and "LLMs have exhibited
        remarkable performance on complex reasoning tasks" no data of DoPR's: both are answered
        "does not state the benchmarks it uses; closest: ...", not led by that sentence."""
        senses = evidence_senses(self.evidence)  # a measure's words stated otherwise (rag.evidence.senses)
        moves = self.evidence.moves(paper)
        return any(
            slot_span(slot, x.text, senses) is not None
            and (moves.get(x.start) not in ("background", "gap") or own_work(x.text, paper.label))
            for x in self.evidence.sentences(paper)[0]
        )

    def names_component(self, slot: Slot, paper: Paper) -> bool:
        """Whether a sentence of ``paper``'s own work (not its background or gap) names ``slot``'s
        measure as a component of its method (:func:`rag.route.slot.component_span`: "a tailored
        omission reward" for "What is the reward in Agent-Omit?")."""
        moves = self.evidence.moves(paper)
        return any(
            moves.get(x.start) not in ("background", "gap") and component_span(slot, x.text) is not None
            for x in self.evidence.sentences(paper)[0]
        )

    def states_unquantified(self, slot: Slot, paper: Paper) -> bool:
        """Whether a sentence of ``paper``'s own work (not its background or the gap it addresses)
        states ``slot``'s measure without an amount (:func:`rag.route.slot.unquantified_span`): the
        lead quotes it and says no figure is given, instead of declaring the measure not stated."""
        moves = self.evidence.moves(paper)
        return any(
            moves.get(x.start) not in ("background", "gap") and unquantified_span(slot, x.text) is not None
            for x in self.evidence.sentences(paper)[0]
        )

    def metadata(
        self, detail: Detail | None, papers: Sequence[Paper], *, asked: bool = False, slot: Slot | None = None
    ) -> str:
        """The refusal for a detail the papers do not state, or ``""`` (none asked, or the papers
        state it: the records hold the authors, or a sentence of each abstract states the slot: a
        model size, "clips the adaptive learning rate", "released under an open-source license").
        ``asked``: ``papers`` are the ones the question names or refers to (the refusal names them),
        not the closest found. ``slot``: the detail's slot (default: read from ``detail``)."""
        if detail is None:
            return ""
        what = detail.kind
        if what == "authors" and papers and all(p.authors for p in papers):
            return ""
        if detail.year and asked and papers and all(p.year for p in papers):
            return ""  # "what year is ClimaX from?": the records hold the year
        slot = slot or detail_slot(detail)
        if papers and all(self.states(slot, p) for p in papers):
            return ""
        name = slot.name
        if asked and papers and what == "publication date" and all(p.year for p in papers):
            # the records hold a year (a seed file's header "ICML 2026 Papers"), not a date
            years = "; ".join(f"{p.label} ({p.id}): {' '.join(x for x in (p.venue, str(p.year)) if x)}" for p in papers)
            return f"{REFUSAL} The abstracts do not state {name}; the records give only venue and year: {years}."
        if asked and papers and what == "contact details" and all(p.authors for p in papers):
            # "email of Hyena's first author": the record holds who wrote it, which is said, not how to reach them
            held = "; ".join(f"{p.label} ({p.id}): {', '.join(p.authors)}" for p in papers)
            return f"{REFUSAL} The abstracts do not state {name}, nor do the records, which hold the authors: {held}."
        if asked and papers:
            about = " and ".join(f"{p.label} ({p.id})" for p in papers)
            return f"{REFUSAL} The abstracts do not state {name}, nor does the record of {about}."
        closest = f"; the closest paper is {papers[0].label} ({papers[0].id})." if papers else "."
        return f"{REFUSAL} The abstracts do not state {name}{closest}"

    def compared(self, detail: Detail | None, ask: Ask | None, papers: Sequence[Paper]) -> str:
        """The refusal for a comparison on a detail or measure that none of the compared papers
        states ("which used more GPUs, X or Y?", "compare the learning rates of X and Y", "which
        gets higher accuracy on GSM8K, X or Y?"), or ``""``: a comparison is answered when one paper
        states it (its lead says the other does not). ``detail`` and ``ask``: the comparison read
        as a question about the papers it names (:attr:`rag.question.plan.ComparePlan.otherwise`);
        its slot is checked against every sentence of each paper, as a question of one paper is
        (:meth:`metadata`, :meth:`slot`). A year asked ("which is older?") is the records'."""
        if len(papers) < 2 or ask is None:
            return ""
        if detail is not None:
            slot = ask.slot or detail_slot(detail)
            if detail.kind == "publication date" or any(self.states(slot, p) for p in papers):
                return ""
            return self.metadata(detail, papers, asked=True, slot=slot)
        return self.slot(ask, papers)

    def states_near(self, ask: Ask, paper: Paper) -> bool:
        """Whether a clause of ``paper``'s abstract states an amount beside a specific word of the
        question other than a name, a word of the paper's own title or of the measure asked ("What accuracy does X reach
        on herbarium records?" -> "91% of herbarium records"; "what speed-up over the strongest
        baseline?" -> "2x faster than the strongest baseline"): the measure is worded otherwise, so
        it is not declared missing. A time narrowed by other words ("training time") is checked by
        :func:`rag.route.slot.slot_span` alone: its head noun is no other wording of it.
        Specific: held by at most :data:`NEAR_SPECIFIC_SHARE` of the abstracts."""
        n = max(1, len(self.retriever.papers))
        named = {term_key(t) for e in ask.entities for t in content_terms(e)}
        # the words that name the paper itself ("Flan" of "The Flan Collection: how many tasks?")
        # say which paper, not which measure: "by 3-17%" beside "Flan-T5" states no task count
        named |= {term_key(t) for x in (paper.title, paper.label, *paper.aliases) for t in content_terms(x or "")}
        # the words that narrow the measure are no other wording of it: "annotation cost" is not
        # stated by "91,581 step-level annotations" (its head noun is missing: slot_span)
        terms = ask.slot.terms if ask.slot else ()
        head = measure_head(terms)
        named |= {term_key(t) for t in terms if t != head}
        # nor is a time's head noun alone, once other words narrow it: "time" of "training time" is
        # not stated by "for the first time" beside a throughput figure (slot_span checks them together)
        if narrowed_time(terms):
            named.add(term_key(head))
        wanted = {
            term_key(t) for t in content_terms(ask.matching or ask.text)
            if self.retriever.document_frequency(t) <= NEAR_SPECIFIC_SHARE * n
        } - named
        if not wanted:
            return False
        for x in self.evidence.sentences(paper)[0]:
            for a, b in clause_spans(x.text):
                clause = x.text[a:b]
                if states_amount(clause) and wanted & {k for k, _, _ in _keys_at(clause)}:
                    return True
        return False

    def slot(self, ask: Ask, papers: Sequence[Paper]) -> str:
        """The refusal for a measure asked of named papers none of which states it ("exactly how
        many out-of-distribution images does it add?"), or ``""``: "The abstract of X does not state
        <slot>; closest: “…”", quoting the clause of the sentence that answers the question best.
        A detail is refused by :meth:`metadata`; a paper that states the slot answers, and so does a
        question of several parts ("How many levels does X define, and on which benchmarks?")."""
        slot = ask.slot
        # a question that also asks something else ("..., and which benchmarks?") is answered part by part
        asks_more = any(p.slot is None and p.title.endswith("?") for p in ask.parts)
        if slot is None or asks_more or not papers:
            return ""
        if instances_known(slot):
            # a thing abstracts name from a known few ("which optimizer?": "AdamW", "Shampoo"): an
            # abstract that names none of them, nor writes the noun, does not state it
            if any(self.states(slot, p) or self.names_kind(slot, p) for p in papers):
                return ""
            return self._unstated(ask, papers)
        # an object asked ("what does X omit?") or another thing named by its instances ("what
        # encoder?") only chooses the clause to quote (rag.question.slots.OBJECT, INSTANCE); a year
        # is the records', not the abstract's ("which of the two is older?")
        if slot.form == INSTANCE and (vague := self.named_vaguely(slot, papers)):
            # "which environments does ReDo use?": its abstract writes them only as "a variety of
            # algorithms and environments"; no instance is named, so none is stated
            about = " and ".join(f"{p.label} ({p.id})" for p in papers)
            whose = "The abstracts of" if len(papers) > 1 else "The abstract of"
            return f"{REFUSAL} {whose} {about} name{'' if len(papers) > 1 else 's'} no {slot.name}; " \
                f"{'they write' if len(papers) > 1 else 'it writes'} only “{vague}”."
        if slot.detail or slot.form in (OBJECT, CONTENTS, YEAR, INSTANCE):
            return ""
        if any(self.states(slot, p) for p in papers):
            # ... stated, but asked on a benchmark no sentence stating it writes ("FID on LSUN": "FID
            # of 3.55 on CIFAR-10 and 6.20 on ImageNet 64x64"; LSUN only among "standard benchmarks")
            # or stated by no clause with a figure (what the lead would quote as "states no figure")
            unset = self._unset(ask, papers)
            if unset or len(papers) != 1 or not self._figureless(slot, papers[0]):
                return unset
            return self._without_figure(ask, papers[0])
        # a question of several parts, each asking its own measure: refused only when no part's
        # measure is stated (the whole question's phrase can straddle two parts)
        parts = [p.slot for p in ask.parts if p.slot is not None] if len(ask.parts) > 1 else []
        if any(self.states(s, p) for s in parts for p in papers):
            return ""
        # a count names its unit: "16000 tasks" beside "dataset" counts no images; a setting its
        # noun: "achieves ε-error with cost ..." beside "quantum" gives no horizon
        # ... and an amount asked in a unit ("in tokens") is stated only in it (rag.route.slot.states_unit)
        if slot.amount and not slot.count and slot.form != SETTING and not slot.unit \
                and any(self.states_near(ask, p) for p in papers):
            return ""
        if len(papers) == 1 and self.names_component(slot, papers[0]):
            # "What is the reward in MCLP?": no figure of it, but what it is ("we employ MCLP as a
            # reinforcement learning reward"), which the lead quotes
            return ""
        if not slot.unit and any(self.states_unquantified(slot, p) for p in papers):
            # "GNIMC recovers the underlying matrix substantially faster": a speedup, with no figure;
            # the figure asked is not stated, unless a change of the direction asked is, with one
            # (rag.route.slot.change_clause: "improves accuracy by 7.7%"), or several papers are asked
            return self._without_figure(ask, papers[0]) if len(papers) == 1 else ""
        return self._unstated(ask, papers)

    def _figureless(self, slot: Slot, paper: Paper) -> bool:
        """Whether ``slot`` asks a measure's figure (an amount of its terms, no count, detail or form)
        and no clause of ``paper``'s abstract that states the measure (:func:`rag.route.slot.slot_span`)
        states an amount: "a clear drop in accuracy" for "how big is FOCUS's accuracy drop?"."""
        if not slot.amount or not slot.terms or slot.count or slot.detail or slot.form:
            return False
        senses = evidence_senses(self.evidence)
        spans = [
            x.text[span[0] : span[1]] for x in self.evidence.sentences(paper)[0]
            if (span := slot_span(slot, x.text, senses)) is not None
        ]
        return bool(spans) and not any(states_amount(c) for c in spans)

    def _without_figure(self, ask: Ask, paper: Paper) -> str:
        """The refusal of an amount asked of one paper whose own work states the measure only without
        a figure (:meth:`states_unquantified`): "The abstract of X does not state a figure for <slot>;
        closest: “…”", quoting that clause ("a clear drop in accuracy"), as :meth:`_unstated` quotes
        its closest. ``""`` when the paper states a change of the direction asked with a figure
        (:func:`rag.route.slot.change_clause`: the lead answers with it, naming the measure it is of)."""
        slot = ask.slot
        assert slot is not None
        ranked = self.evidence.score(ask, paper)
        moves = self.evidence.moves(paper)
        if change_clause(ask, ranked, moves) is not None:
            return ""
        seen = {e.start for e in ranked}
        rest = [Evidence(paper.id, x.text, x.start, x.end, 0.0) for x in self.evidence.sentences(paper)[0]
                if x.start not in seen]
        said = next(
            ((e, span) for e in [*ranked, *rest]
             if moves.get(e.start) not in ("background", "gap") and (span := unquantified_span(slot, e.sentence))),
            None,
        )
        if said is None:  # the clause that states the measure without one
            senses = evidence_senses(self.evidence)
            said = next(
                ((e, span) for e in [*ranked, *rest] if (span := slot_span(slot, e.sentence, senses)) is not None), None
            )
        closest = f"; closest: {quoted(said[0].sentence, said[1])}" if said is not None else ""
        return f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state a figure for {slot.name}{closest}."

    def named_vaguely(self, slot: Slot, papers: Sequence[Paper]) -> str:
        """The phrase in which every paper of ``papers`` writes the thing ``slot`` asks (of form
        :data:`rag.question.slots.INSTANCE`) only as a group it names no instance of
        (:func:`rag.route.slot.vaguely_named`: "a variety of algorithms and environments"), read in
        its own work (not its background or gap), or ``""`` when one names an instance or writes
        the noun nowhere."""
        said = ""
        for paper in papers:
            moves = self.evidence.moves(paper)
            own = [x.text for x in self.evidence.sentences(paper)[0] if moves.get(x.start) not in ("background", "gap")]
            vague = vaguely_named(slot, own)
            if not vague:
                return ""
            said = said or vague
        return said

    def names_kind(self, slot: Slot, paper: Paper) -> bool:
        """Whether a sentence of ``paper``'s abstract names an instance of the kind ``slot`` asks
        (:func:`rag.route.slot.names_instance`: an optimizer, "trained with AdamW")."""
        return any(names_instance(slot, x.text) for x in self.evidence.sentences(paper)[0])

    def _unstated(self, ask: Ask, papers: Sequence[Paper]) -> str:
        """"The abstract of X does not state <slot>; closest: “…”", quoting the clause of the
        sentence of the first paper that answers the question best (:meth:`slot`)."""
        slot = ask.slot
        assert slot is not None
        paper = papers[0]
        about = " and ".join(f"{p.label} ({p.id})" for p in papers)
        ranked = self.evidence.score(ask, paper)
        closest = ""
        if ranked:
            best = ranked[0].sentence
            closest = f"; closest: {quoted(best, key_clause(best))}"
        what = f"the number of {slot.name}" if slot.count else slot.name
        whose = "The abstracts of" if len(papers) > 1 else "The abstract of"
        verb = "do" if len(papers) > 1 else "does"
        return f"{REFUSAL} {whose} {about} {verb} not state {what}{closest}."

    def absent_terms(self, plan: AskPlan, retrieval: Retrieval, papers: Sequence[Paper]) -> str:
        """The refusal for coined terms the named papers (or every abstract) never mention, or ``""``."""
        if retrieval.unmatched_entities:
            said = f"{REFUSAL} No abstract in the collection mentions {', '.join(retrieval.unmatched_entities[:3])}"
            # "Is Hyena faster than FlashAttention?": what the paper it names states closest, for
            # the reader to judge, though nothing can set it against a thing no abstract names
            ranked = self.evidence.score(plan.ask, papers[0]) if len(papers) == 1 else []
            if ranked:
                best = ranked[0].sentence
                return f"{said}; closest in {papers[0].label}: {quoted(best, key_clause(best))}."
            return f"{said}."
        if len(papers) != 1:
            return ""
        paper = papers[0]
        stated = {normalize(t) for t in retrieval.names}
        text = normalize(paper.text_for_index)
        names = {normalize(n) for n in (paper.label, *paper.aliases)}
        letters = letters_digits(text)
        for ent in plan.coined:
            key = normalize(ent)
            if key in stated or key in names or key in text or any(key in n or n in key for n in names):
                continue
            if ent.islower() and letters_digits(key) in letters:
                continue  # typed without its hyphen or space: "resnet50" for "ResNet-50"
            if self.retriever.coverages(ent, [paper.id])[0] >= 1.0:
                continue  # stated in another form the index knows ("T2I" for "text-to-image")
            return f"{REFUSAL} The abstract of {paper.label} does not mention {ent}."
        return ""

    def premise(self, plan: AskPlan, papers: Sequence[Paper]) -> str:
        """The refusal for a question of manner or reason whose premise the one paper it names does
        not state ("how does CogRouter use diffusion models?": no sentence of CogRouter's abstract
        mentions diffusion), or ``""``. Each term of :attr:`AskPlan.premise` must be written by
        some sentence of the title or abstract, as a yes/no question's terms are
        (:func:`rag.route.lead._keys_at`; an acronym written out counts,
        :func:`rag.route.lead.spelled_out`); one that none writes leaves the question's premise
        unsupported, and the answer says so instead of quoting a sentence about something else."""
        if not plan.premise or len(papers) != 1:
            return ""
        paper = papers[0]
        sentences = [paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0])]
        keys = {k for x in sentences for k, _, _ in _keys_at(x)}
        missing = [t for t in plan.premise if term_key(t) not in keys and not any(spelled_out(x, t) for x in sentences)]
        if not missing:
            return self._premise_denied(plan.premise, paper)
        asked = " ".join(plan.premise)
        unwritten = "" if len(missing) == len(plan.premise) else f" (no sentence writes {' or '.join(missing)})"
        return (f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not mention {asked}{unwritten}, "
                "which the question takes as given.")

    def manner(self, plan: AskPlan, papers: Sequence[Paper]) -> str:
        """The refusal for a question of manner whose process the one paper it names does not
        state, or ``""``: "How are HyperTrack's tasks annotated?" when no sentence of its title or
        abstract writes "annotated" in any form (:attr:`AskPlan.manner`; term keys as a yes/no
        question's terms are found, :func:`rag.route.lead._keys_at`, an acronym written out
        counts, :func:`rag.route.lead.spelled_out`). A sentence about other words of the paper
        ("analyze how interaction history ... influence task completion") does not say how it does
        what was asked; the closest sentence is the one that writes the most asked terms. A process
        whose every word is written, if apart, is left to the answer (its lead quotes the sentence,
        :func:`rag.route.lead.manner_line`), and so is one of whose words some are written (the others
        may be said in other words: "reduces wall-clock time" for "reduce the cost"); refused only when
        the abstract writes none of them; a question in several parts is not refused for one."""
        if not plan.manner or len(papers) != 1 or len(plan.aspects) > 1 or plan.premise:
            return ""
        paper = papers[0]
        sentences = [paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0])]
        written = [{k for k, _, _ in _keys_at(x)} for x in sentences]
        keys = set().union(*written)

        def writes(i: int, t: str) -> bool:
            return term_key(t) in written[i] or bool(spelled_out(sentences[i], t))

        missing = [t for t in plan.manner if term_key(t) not in keys and not any(spelled_out(x, t) for x in sentences)]
        if not missing:
            return ""
        if len(missing) < len(plan.manner):
            # a process some of whose words the abstract writes may be said in the others' other words
            # ("How does FOAM reduce the cost of Shampoo?": "FOAM reduces wall-clock time compared to
            # standard Shampoo", no "cost" anywhere): the answer's lead judges it
            return ""
        said = f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state how: no sentence mentions " \
            f"{' or '.join(missing)}"
        counts = [sum(writes(i, t) for t in plan.manner) for i in range(1, len(sentences))]
        if not counts or not max(counts):
            return f"{said}."
        closest = sentences[1 + counts.index(max(counts))]
        return f"{said}; closest: “{strip_markup(closest)}”."

    def _premise_denied(self, terms: Sequence[str], paper: Paper) -> str:
        """The refusal for a premise the abstract states only as what the paper does without ("why
        does AFR need group labels?": "... without group labels"), or ``""``: every sentence that
        states the premise's terms together (:func:`rag.route.lead.term_span`) denies them
        (:func:`rag.route.lead.denies_directly`, as a "No" to a yes/no question needs), so the
        question takes as given the contrary of what the abstract says."""
        spans = [(x, term_span(x.text, terms)) for x in self.evidence.sentences(paper)[0]]
        writing = [(x, s) for x, s in spans if s is not None]
        if not writing or not all(denies_directly(x.text, s, terms) for x, s in writing):
            return ""
        x, s = writing[0]
        return (f"{REFUSAL} The abstract of {paper.label} ({paper.id}) states the contrary of what the question "
                f"takes as given: {quoted(x.text, s)}.")

    # --- topics the collection is not about -------------------------------------------

    def topic_evidence(self, plan: Plan, topic: Topic, retrieval: Retrieval) -> TopicEvidence:
        """Measure how close the candidates come to the topic (see :class:`TopicEvidence`)."""
        rs = self.settings
        hits = retrieval.hits
        top = hits[0]
        texts = [topic.text or plan.query, *topic.facets]
        # a paper described by a few words ("What problem does the online routing paper
        # address?"): a sentence close to the description shows the collection holds it, however
        # far the whole question's words ("problem does ... address") put it
        described = paper_description(topic.text or plan.query) if topic.number != "many" else ""
        qvecs = self.retriever.query_vectors([*texts, described] if described else texts)
        near = hits[:NEAR_SENTENCES]
        self.evidence.warm([h.paper for h in near])
        sims = [self.evidence.sentences(h.paper)[1] @ qvecs.T for h in near]
        best = max((float(m.max()) for m in sims if m.size), default=0.0)
        ids = [h.paper.id for h in hits[:NEAR_COVERAGE]]
        # the topic or one of its alternatives ("music or robotics": "robotics"), side by side
        complete = any(states_phrase(t, h.paper.text_for_index) for t in texts for h in hits[:NEAR_COVERAGE])
        stated = (
            top.dense >= rs.relevance_floor
            or top.coverage >= rs.coverage_floor
            or any(max(self.retriever.coverages(t, ids), default=0.0) >= rs.set_facet_coverage for t in texts)
        )
        # a figure the question quotes ("65x storage reduction", "by over 40%") that a candidate's
        # abstract states: a measured result identifies its paper as a name does
        figures = plan.figures
        quoted = bool(figures) and any(figures & numbers(h.paper.abstract) for h in hits[:NEAR_COVERAGE])
        # a rare name or coined term some abstract holds, however it is typed ("ALFWorld", "alfworld")
        rare = quoted or any(self.rare(w) for w in plan.rare)
        return TopicEvidence(best, top.dense, top.coverage, stated, rare, complete)

    def topic(
        self,
        plan: Plan,
        topic: Topic,
        retrieval: Retrieval,
        detail: Detail | None = None,
        *,
        slot: Slot | None = None,
        described: Paper | None = None,
    ) -> str:
        """The refusal for a question that names no paper, or ``""`` when the collection answers it.

        Refused when no sentence of the first candidates is within ``set_refusal_floor`` of the
        topic or of one of its facets, unless the question states a rare name some abstract holds
        ("ALFWorld"), an abstract states the topic's words side by side ("clinical": the cosine of a
        word or two to a whole sentence stays low, 0.30 for "clinical" to the DDL sentence that opens
        "Clinical abnormality grounding"), or the topic's terms are stated (coverage) and a sentence
        is within ``set_lexical_floor``. Words stated apart ("music" ... "generate") do not count. In another
        language the English embedder cannot judge closeness: the English terms the question
        carries ("component numeracy") decide alone.

        A detail asked of a paper the question describes ("what's the parameter count of the
        ride-hailing matching model?", :meth:`described`) is asked of the paper found for the
        description: refused as not stated only when that paper's abstract does not state it.
        ``slot``: the detail's slot (default: read from ``detail``). ``described``: the paper the
        answer found for the description (default: the first candidate of retrieval).
        """
        if not retrieval.hits:
            return f"{REFUSAL} The collection is empty or holds nothing related; ingest papers first."
        if detail is not None and self.described(detail, topic):
            unfound = self._topic(plan, topic, retrieval)
            if unfound:  # no paper fits the description: say so (naming the closest), not "not stated"
                return unfound
            meant = described or retrieval.hits[0].paper
            if not self.describes(topic, detail, meant):  # "Chinchilla GPU hours?": not FlexGen's record
                return self.metadata(detail, [], slot=slot)
            return self.metadata(detail, [meant], asked=True, slot=slot)
        if detail is not None:
            top = retrieval.hits[0].paper
            stated = [top] if self.states(slot or detail_slot(detail), top) else []
            refusal = self.metadata(detail, stated, slot=slot)
            if refusal:
                return refusal
        return self._topic(plan, topic, retrieval)

    @staticmethod
    def described(detail: Detail | None, topic: Topic) -> bool:
        """Whether a detail is asked of one paper the question describes rather than names ("the
        parameter count of the ride-hailing matching model"): something besides the detail is asked
        (:attr:`Detail.only` is false), of one paper (not "which papers ...")."""
        return detail is not None and not detail.only and topic.number != "many" and bool(topic.text)

    @staticmethod
    def describes(topic: Topic, detail: Detail, paper: Paper) -> bool:
        """Whether ``paper``'s title or abstract states a content term of ``topic`` besides the words
        of the ``detail`` asked ("BEATs" of "BEATs GPU hours?"), or the topic has no other term: a
        paper found by the detail's own words ("GPU") is not the one the question describes."""
        rest = set(content_terms(topic.text)) - set(content_terms(detail.phrase))
        return not rest or bool(rest & set(content_terms(f"{paper.title or ''} {paper.abstract}")))

    def _topic(self, plan: Plan, topic: Topic, retrieval: Retrieval) -> str:
        """The refusal of :meth:`topic` for its topic alone (no detail), or ``""``."""
        # names the whole question types in capitals and no abstract writes so: the topic alone
        # ("CLIP") is read without the question's other words, which tell that the case was chosen
        cased = [t for t in plan.search.unmatched if t.isupper() and len(t) >= MIN_CASED]
        absent = self.absent_topic(topic, retrieval, cased) or self.absent_name(topic, retrieval)
        absent = absent or (self.unstated_compound(plan, topic, retrieval) if plan.english else "")
        if absent:
            # a question in another language holds words no English abstract writes ("welche",
            # "confidentialité"): that is its language, not a topic the collection lacks
            return absent if plan.english else f"{REFUSAL} {NOT_ENGLISH}"
        # a name of capitalised parts ("Kolmogorov-Arnold", not "LLaDA-style", "not-x" or "KD",
        # which abstracts may write in other forms)
        missing = [e for e in retrieval.unmatched_entities if _capitalised_compound(e)]
        alternatives = topic.facets or (topic.text,)
        if missing and not plan.english:
            return f"{REFUSAL} {NOT_ENGLISH}"
        if missing and all(any(e.lower() in a.lower() for e in missing) for a in alternatives):
            # "Which papers use Kolmogorov-Arnold networks?": a coined name no abstract writes,
            # however its parts stand apart in some ("Kolmogorov equations"), in every alternative
            closest = self._closest_beside(topic, missing, retrieval)
            return f"{REFUSAL} No abstract in the collection mentions {', '.join(missing[:3])}{closest}"
        ev = self.topic_evidence(plan, topic, retrieval)
        # a rare name identifies one paper ("ALFWorld"), not the papers on a topic beside a word no
        # abstract uses ("jailbreaking LLMs": "LLM" is in 3% of the library)
        named = ev.rare and topic.number != "many"
        unused = [] if named else self.unused_words(topic)
        if unused and ev.best_sentence >= self.settings.part_sentence:
            # a sentence that close states the topic in other words (a description in the reader's
            # words: "... the samples and their neighbours") unless it is close for the words the
            # abstracts use alone ("Large language models (LLMs) ..." to "jailbreaking LLMs": nearer
            # to "LLMs" without "jailbreaking", :meth:`sentence_states`)
            near, rests = retrieval.hits[:NEAR_SENTENCES], dict[str, np.ndarray]()
            if any(self._holds(t, near, rests) for t in topic.facets or (topic.text,)):
                unused = []
        if unused and not plan.english:
            return f"{REFUSAL} {NOT_ENGLISH}"
        if unused:
            # "Which papers forecast earthquakes or aftershocks with machine learning?": each
            # alternative holds a word no abstract uses; the rest ("forecast", "machine learning")
            # finds papers on other subjects. A rare name some abstract holds ("ALFWorld") still
            # identifies its paper, and a sentence within part_sentence states the topic in other
            # words (a description in the reader's words: "... the samples and their neighbours").
            closest = self._closest_beside(topic, unused, retrieval)
            return f"{REFUSAL} No abstract in the collection mentions {' or '.join(unused)}{closest}"
        rs = self.settings
        weak = ev.best_sentence < rs.set_refusal_floor and not (
            ev.rare
            or ev.complete
            or (ev.stated and (ev.best_sentence >= rs.set_lexical_floor or not plan.english))
        )
        if not weak:
            return ""
        if not plan.english:
            return f"{REFUSAL} {NOT_ENGLISH}"
        top = retrieval.hits[0]
        said = self.closest_sentence([topic.text or plan.query, *topic.facets], top.paper)
        quote = f": “{said}”" if said else "."
        return f"{NOTHING_CLOSE}; the closest paper is {top.paper.label} ({top.paper.id}){quote}"

    def _closest_beside(self, topic: Topic, absent: Sequence[str], retrieval: Retrieval) -> str:
        """The end of a refusal for words no abstract writes (``absent``): the closest paper with its
        closest sentence ("; the closest paper is X (id): “...”"), when the topic asks something
        besides them for that paper to be close to ("forecast earthquakes with machine learning");
        "." when it does not ("Which papers study grokking?": the nearest paper to a word no
        abstract writes is near to nothing asked, and naming it would look like an answer)."""
        gone = {t.lower() for word in absent for t in content_terms(word)}
        rest = [t for t in content_terms(topic.text) if t.lower() not in gone]
        if not rest or not retrieval.hits:
            return "."
        first = retrieval.hits[0].paper
        said = self.closest_sentence([topic.text, *topic.facets], first)
        return f"; the closest paper is {first.label} ({first.id})" + (f": “{said}”" if said else ".")

    def absent_name(self, topic: Topic, retrieval: Retrieval) -> str:
        """The refusal for a thing the topic names that no abstract states, or ``""``.

        A name said otherwise in the question (:attr:`Topic.restated`: "DPO (Direct Preference
        Optimization)", "the Mamba paper (selective state space models)") is one thing, not two
        alternatives: it is in the collection when some abstract writes the name, or, where the
        restatement spells the name out, writes that long form side by side (:func:`states_phrase`:
        "Adaptive Constraint Learning" finds ACOL however the question abbreviates it). A name the
        abstracts define only otherwise ("SAM (Segment Anything)" where they write SAM for
        Sharpness Aware Minimization) names another thing. A description ("selective state space
        models") says what the thing is about, and papers about that are not the thing: only its
        name finds it. A name of a version (:attr:`Topic.versions`: "ResNet-152", "GPT-4",
        "Mixtral 8x7B") is that model, not its family: some abstract must write it, in any spelling
        ("resnet152", "ResNet 152"). The refusal names the closest paper with its closest sentence.
        """
        hits = retrieval.hits
        if not hits:
            return ""
        near = hits[:NEAR_COVERAGE]
        missing = ""
        for r in topic.restated:
            long_form = r.spelled and any(states_phrase(r.said, h.paper.text_for_index) for h in near)
            if self.writes(r.name):
                if r.others and not long_form:
                    senses = " or ".join(r.others[:2])
                    missing = f"{r.name} as {r.said} (the abstracts write {r.name} for {senses})"
                    break
            elif not long_form:
                missing = f"{r.name} ({r.said})"
                break
        else:
            missing = next((v for v in topic.versions if not self.writes(v)), "")
        if not missing:
            return ""
        first = hits[0].paper
        said = self.closest_sentence([topic.text], first)
        closest = f"; the closest paper is {first.label} ({first.id})" + (f": “{said}”" if said else ".")
        return f"{REFUSAL} No abstract in the collection mentions {missing}{closest}"

    def unstated_compound(self, plan: Plan, topic: Topic, retrieval: Retrieval) -> str:
        """The refusal for a list on a bare compound no abstract states as one phrase, or ``""``.

        "Which papers use split learning?", "papers on the edge of stability": the topic, asked as a
        list (number ``many``), is one compound of two content words (:attr:`Topic.compound`,
        :data:`rag.question.parts.COMPOUND_MAX_TERMS`; a preposition of ``compound_joiner`` may join
        them: "edge of stability"), each word some abstract
        uses, and no abstract states it within one noun phrase in any order
        (:func:`rag.route.membership.states_any_order`: "over-smoothing in graph neural networks"
        states "GNN oversmoothing", "pruning large language models" "LLM pruning"), in any of its
        forms (its acronyms written out, :attr:`Topic.written`; the glossary's other names and
        instances), nor does a candidate's title name it in other words (:data:`TITLE_SENSE`,
        "GFlowNets"). The papers its words find use them in other senses (tree "split" rules and
        "learning"; the "stability" of training), so no list answers it: the refusal says which
        words no abstract writes together and names the closest paper with its closest sentence.
        A topic with parts, alternatives, a role, an artifact or a description is not one compound,
        and a word no abstract uses is :meth:`unused_words`' to judge. Only in a library
        (:data:`UNUSED_MIN_PAPERS` papers), as :meth:`stacked`: over the 38 seed papers, questions
        of the dev files name compounds no abstract writes that its papers answer ("math benchmarks",
        "math-benchmark results", stated by "GSM8K" and "mathematical reasoning").
        """
        # in a few dozen abstracts a compound none writes says little (UNUSED_MIN_PAPERS): over the
        # 38 seed papers "math benchmarks", "math-benchmark results" (GSM8K, MATH) are in none as a phrase
        if len(self.retriever.papers) < UNUSED_MIN_PAPERS:
            return ""
        if topic.number != "many" or topic.parts or topic.facets or topic.role or topic.artifact:
            return ""
        if topic.link_rest or topic.about_links or topic.stages or topic.head or topic.exclusion:
            return ""
        phrase = topic.compound
        terms = content_terms(phrase)
        if not phrase:
            return ""
        # English words and acronyms the glossary writes out: a name ("ALFWorld results") identifies
        # papers that may write it beside other words ("evaluated on ALFWorld")
        if not all(long_forms(t) or all(english_word(p) for p in t.split("-") if p) for t in terms):
            return ""
        if any(self.retriever.document_frequency(t) == 0 for t in terms):
            return ""
        words = phrase.split()
        forms = [phrase, *([topic.written] if topic.written and topic.written != topic.text else [])]
        for w in words:  # an acronym written out: "OOD detection" -> "out-of-distribution detection"
            forms += [phrase.replace(w, long) for long in long_forms(w)]
        forms += [*glossary_forms(phrase), *glossary_instances(phrase)]
        forms = list(dict.fromkeys(f for f in forms if f))
        catalogue = self.retriever.papers
        ids = dict.fromkeys(h.paper.id for h in retrieval.hits[: self.settings.candidates])
        for f in forms:
            ids.update(dict.fromkeys(self.retriever.lexical(f, COMPOUND_SEARCH)))
        for pid in ids:
            paper = catalogue.get(pid)
            if paper is None:
                continue
            texts = [paper.title or "", *(x.text for x in split_sentences(paper.abstract))]
            if any(states_any_order(f, t) for f in forms for t in texts):
                return ""
        near = [h.paper for h in retrieval.hits[:NEAR_COVERAGE] if h.paper.title]
        if near:
            # a title may name it in other words ("GFlowNets" for "generative flow networks")
            vecs = self.retriever.query_vectors([topic.written or phrase, *(p.title for p in near)])
            sims = vecs[1:] @ vecs[0]
            if any(
                float(c) >= TITLE_SENSE and not sibling_title(phrase, p.title, p.abstract)
                for p, c in zip(near, sims, strict=True)
            ):
                return ""
        shown = " and ".join(f"“{t}”" for t in dict.fromkeys(content_terms(phrase)))
        said = f"{REFUSAL} No abstract in the collection writes {shown} together as one phrase, in any order"
        if not retrieval.hits:
            return f"{said}."
        first = retrieval.hits[0].paper
        quote = self.closest_sentence([topic.text], first)
        return f"{said}; the closest paper is {first.label} ({first.id})" + (f": “{quote}”" if quote else ".")

    def writes(self, name: str) -> bool:
        """Whether some abstract of the collection (or its title) writes ``name``
        (:func:`writes_name`: any case, with or without its hyphens and spaces)."""
        if self.retriever.document_frequency(name) > 0:
            return True
        return any(writes_name(p.text_for_index, name) for p in self.retriever.papers.values())

    def unwritten_versions(self, topic: Topic, chosen: Sequence[PaperHit], retrieval: Retrieval) -> str:
        """The refusal for papers found for a topic that names a version (:attr:`Topic.versions`:
        "GPT-4") none of which writes it, or ``""``: "What does GPT-4 achieve on the bar exam?" found
        SparseGPT by "GPT"; a paper about the GPT family is no answer about GPT-4. The refusal names
        the papers that write it, with the sentence that does, for the reader to judge."""
        if not topic.versions or not chosen:
            return ""
        if any(all(writes_name(h.paper.text_for_index, v) for v in topic.versions) for h in chosen):
            return ""
        name = topic.versions[0]
        writing = [h.paper for h in retrieval.hits if writes_name(h.paper.text_for_index, name)][:NAMED_PARTIAL]
        if not writing:
            writing = [p for p in self.retriever.papers.values() if writes_name(p.text_for_index, name)][:NAMED_PARTIAL]
        said = f"{REFUSAL} No abstract that writes {name} states the rest of the question"
        lines = []
        for p in writing:
            sentence = next((x.text for x in self.evidence.sentences(p)[0] if writes_name(x.text, name)), "")
            lines.append(f"{p.label} ({p.id})" + (f": “{strip_markup(sentence)}”" if sentence else ""))
        return f"{said}; the abstracts that write it: " + "; ".join(lines) if lines else f"{said}."

    def closest_sentence(self, texts: Sequence[str], paper: Paper) -> str:
        """The sentence of ``paper``'s abstract closest (cosine) to any of ``texts``, markup stripped;
        ``""`` for an abstract without sentences. A refusal quotes it so the reader can judge."""
        sents, vecs = self.evidence.sentences(paper)
        if not sents or not texts:
            return ""
        sims = vecs @ self.retriever.query_vectors(list(texts)).T
        return strip_markup(sents[int(sims.max(axis=1).argmax())].text)

    def absent_topic(self, topic: Topic, retrieval: Retrieval, cased: Sequence[str] = ()) -> str:
        """The refusal for a topic made only of coined terms no abstract contains in any form the
        index knows ("RLHF", "rlhf", "Which papers use DPO?"), or ``""``. The embedder reads an unknown
        acronym by its letters and finds near sentences anyway ("RLHF" came within 0.55 of an RL
        sentence), so its closeness cannot refuse it; a term some abstract holds ("KD", "UQ") or an open
        topic with other words ("RLHF for LLM agents") is judged as any other, while papers asked on
        a topic with such an acronym ("federated ZKP papers") are refused by it. A topic whose head term
        is described after it ("grokking, where a network suddenly generalizes ...") is refused when
        that term (one or two words) is in no abstract.

        ``cased``: names the question types in capitals that no abstract writes in capitals
        (:meth:`rag.index.catalogue.NameIndex.holds`): "Which papers use CLIP?" where the seed
        writes only "Benign audio clips like music" is refused, though the index holds the common
        word under the same stem."""
        head = content_terms(topic.head)
        if 0 < len(head) <= 2 and not any(self.retriever.document_frequency(t) for t in head):
            # "grokking, where a network suddenly generalizes ...": the term asked about is in no
            # abstract; its description finds papers on its words (memorization), not on it
            return f"{REFUSAL} No abstract in the collection mentions {topic.head}."
        terms = topic.terms
        coined = [*retrieval.unmatched_entities, *cased, *topic.acronyms]
        once: dict[str, str] = {}
        for t in coined:  # "RLHF" once, as typed first
            once.setdefault(t.lower(), t)
        # a name typed in capitals that no abstract writes so ("CLIP" where the seed writes only
        # "audio clips") is missing, though the index holds the common word under the same stem
        absent = [t for t in once.values() if t in cased or self.retriever.document_frequency(t) == 0]
        if not terms or not absent:
            return ""
        if set(terms) - {t.lower() for t in absent}:
            # "federated ZKP papers", "Which papers use ZKPs in federated learning?": papers asked on
            # a topic with an acronym no abstract writes in any form; a listed paper would have to
            # state it, so the papers on the other words alone are no answer (31 federated-learning
            # papers were listed). An open question keeps being judged as any other.
            # as typed, in capitals ("ZKPs"): a word in lower case ("go") may be a word the
            # dictionary lacks, not an acronym
            written = {w.lower(): w for w in (x.strip("?.,;:!()\"'") for x in topic.text.split())}
            typed = [written.get(t.lower(), "") for t in absent if t.lower() in topic.acronyms]
            absent = [t for t in typed if sum(c.isupper() for c in t) >= 2]
            if topic.number != "many" or not absent:
                return ""
        return f"{REFUSAL} No abstract in the collection mentions {', '.join(absent[:3])}."

    def unused_words(self, topic: Topic) -> list[str]:
        """One word per alternative of a short topic that no abstract in the collection uses, or
        ``[]`` when some alternative uses only words the abstracts use.

        The subject of a topic of at most ``part_max_terms`` content terms is in its words: when
        each alternative ("earthquakes", "aftershocks"; "lip reading", "... silent video of the
        mouth") holds a word in no abstract under any form the index knows
        (:meth:`rag.protocols.Retriever.document_frequency`; typing errors are corrected by the
        reader before), no paper states that subject, whatever its other words find. Not counted:
        words with a hyphen or a digit ("max-flow", "time-to-event": abstracts may write them
        apart), words of fewer than five letters that are not English words, and acronyms (coined
        terms, :meth:`absent_topic`). Judged whole instead: a description of one paper ("which
        paper ...") or a longer topic, both in the reader's words ("earbuds", "jitter"), and any
        topic of a collection under :data:`UNUSED_MIN_PAPERS` papers.
        """
        if len(self.retriever.papers) < UNUSED_MIN_PAPERS:
            return []
        if not topic.text or topic.number == "one" or len(set(topic.terms)) > self.settings.part_max_terms:
            return []
        acronyms = {a.lower() for a in topic.acronyms}
        found: list[str] = []
        for alt in topic.facets or (topic.text,):
            unused = [
                w
                for w in content_terms(alt)
                if w.isalpha() and (len(w) >= 5 or (len(w) >= 3 and english_word(w))) and w.lower() not in acronyms
                and not self.retriever.document_frequency(w)
            ]
            if not unused:
                return []
            found.append(unused[0])
        return list(dict.fromkeys(found))

    def rare(self, term: str) -> bool:
        """Whether ``term`` is in at least one abstract and at most :data:`RARE_SHARE` of the collection."""
        df = self.retriever.document_frequency(term)
        return 0 < df <= RARE_SHARE * max(1, len(self.retriever.papers))

    # --- topics of several parts ------------------------------------------------------

    def _names_subject(self, part: str) -> bool:
        """Whether ``part`` of a topic is the name of a subject: a bare compound of 2 to
        ``subject_max_terms`` content words (:func:`rag.question.parts.bare_compound`: "sign
        language recognition", not "a smaller student model", a description that may say in other
        words what an abstract states). Every word is in some abstract: the
        check is for words the collection holds apart ("sign" of signSGD, "language", "recognition"),
        a word it never uses is another check's (:meth:`absent_terms`), and a phrase with one may be
        a description in other words ("careful protocol revisions")."""
        return bare_compound(part, self.settings.subject_max_terms) and all(
            self.retriever.document_frequency(t) > 0 for t in content_terms(part)
        )

    def _unused_subject(self, part: str) -> bool:
        """Whether ``part`` names a subject (a bare compound of 2 to :data:`ABSENT_SUBJECT_MAX_TERMS`
        content words, :func:`rag.question.parts.bare_compound`) with a word no abstract of the
        collection uses: "drug discovery" over the seed. A description ("shrink a large model") or one
        word ("alternatives") may say in other words what an abstract states, and is not one."""
        return bare_compound(part, ABSENT_SUBJECT_MAX_TERMS) and any(
            self.retriever.document_frequency(t) == 0 for t in content_terms(part)
        )

    def _unheld_subject(self, part: str) -> bool:
        """Whether ``part`` of a combined topic names a subject the collection does not hold: one
        with a word no abstract uses (:meth:`_unused_subject`), or, in a library
        (:data:`UNUSED_MIN_PAPERS` papers, where a phrase no abstract writes says something), one word
        no abstract uses ("Tetris", "WebArena": a benchmark or an object, which an abstract names in
        its words or not at all), or a subject of 2 to :data:`ABSENT_SUBJECT_MAX_TERMS` content words
        no two neighbouring words of which any abstract writes side by side ("predict crop yield":
        "crop yield" and "predict crop" are in none). A noun compound is written with its words
        together ("music generation", "molecule generation"); one the collection never writes so is
        not its subject, whatever its words mean apart ("crop" of image crops, "yield" of bounds).
        A description keeps a pair the collection writes ("evaluate offline reinforcement learning",
        "train LLM agents") and is the sentences' to judge."""
        if self._unused_subject(part):
            return True
        if len(self.retriever.papers) < UNUSED_MIN_PAPERS:
            return False
        terms = content_terms(part)
        if len(terms) == 1:
            w = terms[0]
            return w.isalpha() and len(w) >= UNHELD_WORD_MIN_LETTERS and not self.retriever.document_frequency(w)
        if not bare_compound(part, ABSENT_SUBJECT_MAX_TERMS):
            return False
        words = [w for w in part.split() if content_terms(w)]
        return not any(self.written(f"{a} {b}") for a, b in itertools.pairwise(words))

    def sentence_states(
        self,
        part: str,
        sentences: Sequence[Sentence],
        vectors: np.ndarray,
        sims: np.ndarray | None,
        column: int = 0,
        rests: dict[str, np.ndarray] | None = None,
    ) -> bool:
        """Whether a sentence states ``part`` of a combined topic: it is within ``part_sentence`` of
        the part (cosine), and each specific word of the part (in at most ``part_generic_share`` of
        the abstracts) is in the sentence (term keys, glossary synonyms: :func:`rag.lexicon.same_keys`)
        or said there in other words: the part is no further from the sentence with the words the
        sentence lacks than without them (the embedder reads "select suitable tensor network
        structures" as stating "choose the structure of a tensor network": 0.70 with "choose", 0.68
        without). A sentence close to the part for its head alone is nearer the part without the
        rest ("3D point clouds serve as a crucial data representation ..." is 0.65 from "completing
        partial 3D point clouds" and 0.81 from "3D point clouds"; "Graph neural networks (GNNs) achieve
        remarkable performance ..." 0.65 from "deleting nodes from a trained GNN", 0.81 from "from a
        trained GNN"): it states the head, not the part. No threshold is added: the words must bring
        the part nearer, by any amount. A part that is a term the collection writes whole (:meth:`_term`:
        "differential privacy", "mixture-of-experts") is a name, not a description: a sentence that
        states one of its words at most states it in its words, the lexicon's, or a word the
        embedder puts next to each word it lacks
        (:data:`NEAR_WORD`: "differentially private" states "differential privacy"), never by the cosine
        alone (FedIIR's "violates the federated principles of privacy-preserving ..." is 0.60 from
        "differential privacy"; "Product of Experts ... expert units" 0.61 from "mixture-of-experts").

        Args:
            part: The part's text.
            sentences: The abstract's sentences.
            vectors: ``(len(sentences), d)`` their unit embeddings.
            sims: ``(len(sentences), k)`` their cosines with ``k`` texts; ``None`` for no sentences.
            column: The column of ``sims`` that is the part's.
            rests: Cache of the vectors of parts without some words, shared across calls.

        Returns:
            Whether one of the sentences states the part.
        """
        return self.lacking(part, sentences, vectors, sims, column, rests)[0] == ()

    def word_shares(self, parts: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        """How much of each of ``parts`` each of ``texts`` (an abstract's sentences, its title) writes:
        the share of the part's content words the text states, each word weighted by its IDF over
        the collection (``ln(N / (1 + df))``; a word in every abstract weighs nothing), in its term
        key or the glossary's (:func:`rag.lexicon.same_keys`), a hyphenated word also by its pieces,
        as :meth:`sentence_states` reads a sentence. ``(len(texts), len(parts))`` in [0, 1]; a part
        with no weighed word is 0 everywhere."""
        n = max(1, len(self.retriever.papers))
        keys = [_text_keys(text) for text in texts]
        out = np.zeros((len(texts), len(parts)))
        for j, part in enumerate(parts):
            terms = list(dict.fromkeys(t.lower() for t in content_terms(part)))
            weights = [max(0.0, math.log(n / (1 + self.retriever.document_frequency(t)))) for t in terms]
            total = sum(weights)
            if not total:
                continue
            for i, k in enumerate(keys):
                out[i, j] = sum(w for t, w in zip(terms, weights, strict=True) if _key_stated(t, k)) / total
        return out

    def lacking(
        self,
        part: str,
        sentences: Sequence[Sentence],
        vectors: np.ndarray,
        sims: np.ndarray | None,
        column: int = 0,
        rests: dict[str, np.ndarray] | None = None,
    ) -> tuple[tuple[str, ...] | None, int]:
        """:meth:`sentence_states` with what a sentence close to ``part`` lacks (same arguments).

        Returns:
            ``((), k)`` when sentence ``k`` states the part; ``(words, k)`` when none does and ``k`` is
            the closest within ``part_sentence``, ``words`` the part's specific words it lacks (in the
            part's order: it states the rest, the part's head); ``(None, -1)`` when no sentence is
            within ``part_sentence``.
        """
        if sims is None or not len(sentences):
            return None, -1
        sims = sims[:, column]
        rs = self.settings
        n = max(1, len(self.retriever.papers))
        specific = [
            t.lower() for t in content_terms(part)
            if self.retriever.document_frequency(t) <= rs.part_generic_share * n
        ]
        cache = rests if rests is not None else {}
        close = np.flatnonzero(sims >= rs.part_sentence)
        first: tuple[tuple[str, ...] | None, int] = (None, -1)
        term = self._term(part) if len(close) else False
        for k in close[np.argsort(-sims[close])]:
            keys = {key for key, _, _ in _keys_at(sentences[k].text)}
            lacking = tuple(dict.fromkeys(t for t in specific if not _key_stated(t, keys)))
            if not lacking:
                return (), int(k)
            rest = " ".join(w for w in part.split() if w.strip(",;:.()").lower() not in lacking)
            if term and len(content_terms(rest)) <= 1:
                # a term the collection writes whole, of which the sentence states one word at most
                # (the "privacy" of "differential privacy", the "experts" of "Product of Experts"),
                # is stated in its words or words the embedder puts next to each of them, not by a
                # sentence that is only about as close; one that keeps a term of its own ("quantum
                # circuits" of "parameterized quantum circuits", QAS-Bench's "arbitrary quantum
                # circuit") may say the rest in other words, as a description does
                if self._near_words(lacking, sentences[k].text, cache):
                    return (), int(k)
                if first[0] is None:
                    first = (lacking, int(k))
                continue
            if not content_terms(rest):
                return (), int(k)  # said wholly in other words: the cosine alone decides
            if rest not in cache:
                cache[rest] = self.retriever.query_vectors([rest])[0]
            if float(sims[k]) >= float(vectors[k] @ cache[rest]):
                return (), int(k)
            if first[0] is None:
                first = (lacking, int(k))
        return first

    def distinguishing(self, part: str, paper: Paper | None = None) -> bool:
        """Whether ``part`` of a description tells its paper from others, and ``paper`` (the paper
        answered, which no sentence of states the part) does not state it: it has two or more
        content terms or is written as a name or a figure (:func:`rag.question.parts.distinguishing`),
        and either its rarest term is in at most ``DISTINCT_SHARE`` of the abstracts ("deepfakes",
        "crystal", "federated"), not a clause of common words ("avoiding the cost": "avoiding" is in
        123 of the 3,136 library abstracts), or it names a subject the collection writes whole
        (:meth:`_names_subject`, :meth:`_term`: "graph neural network", "machine translation",
        however common its words) that ``paper`` writes neither side by side nor in a form of the
        glossary (:meth:`_states_term`): evidence, not the words' shares, says the subject is missing.
        Only in a library (``UNUSED_MIN_PAPERS`` abstracts or more)."""
        terms = content_terms(part)
        n = max(1, len(self.retriever.papers))
        if n < UNUSED_MIN_PAPERS or not distinguishing(part) or not terms:
            # in a few dozen abstracts a word in one of them is no sign that it is specific: on
            # the 38 seed papers, "exploration" of "get better exploration when an LLM is rewarded
            # by the probability it assigns" is EMPG's only, and the description is CoVRL's
            return False
        if paper is not None and self._states_term(part, paper):
            return False
        rare = [t for t in terms if self.retriever.document_frequency(t) <= DISTINCT_SHARE * n]
        if rare:
            # what tells the part apart is its rare words: a paper that writes each of them does not
            # lack it for the reader's other words around them ("scales Gromov-Wasserstein" of a
            # paper on "Linear-Time Gromov Wasserstein Distances": "scales" is the reader's verb)
            return paper is None or not all(self._states_term(t, paper) for t in rare)
        return paper is not None and self._names_subject(part) and self._term(part)

    def _term(self, part: str) -> bool:
        """Whether ``part`` is a term the collection writes whole: at most ``subject_max_terms`` words,
        written side by side by some abstract (:meth:`written`: "differential privacy",
        "mixture-of-experts", "continual learning"); a description ("choose the structure of a tensor
        network") is none. Cached per part."""
        known = self._terms
        if part not in known:
            short = 0 < len(part.split()) <= self.settings.subject_max_terms
            known[part] = short and self.written(part)
        return known[part]

    def _near_words(self, lacking: Sequence[str], text: str, cache: dict[str, np.ndarray]) -> bool:
        """Whether every word of ``lacking`` has a word of ``text`` within :data:`NEAR_WORD` of it (the
        embedder's cosine, word against word).

        Args:
            lacking: The part's specific words a sentence lacks (:meth:`lacking`).
            text: The sentence.
            cache: Word -> its unit vector, shared across calls (as the parts' vectors are).
        """
        words = list(dict.fromkeys(w for t in content_terms(text) for w in (t, *t.split("-")) if content_terms(w)))
        if not words:
            return False
        missing = [w for w in (*lacking, *words) if w not in cache]
        if missing:
            cache.update(zip(missing, self.retriever.query_vectors(missing), strict=True))
        mat = np.stack([cache[w] for w in words])
        return all(float((mat @ cache[t]).max()) >= NEAR_WORD for t in lacking)

    def _heads_apart(
        self,
        texts: Sequence[str],
        held: set[str],
        heads: dict[str, tuple[int, tuple[str, ...], str]],
        pool: Sequence[PaperHit],
        partial: Sequence[tuple[int, int, PartialPaper]],
        rests: dict[str, np.ndarray],
        allowed: set[str] | None,
    ) -> list[tuple[int, int, PartialPaper]]:
        """The candidates that state only the head of a part no candidate states, when the
        collection holds the rest of its words apart: PointDP's "3D point clouds serve as a crucial
        data representation ..." is close to "completing partial 3D point clouds" for "3D point
        clouds" alone (:meth:`lacking`), and the papers found for "completing partial" on its own
        (:data:`PART_SEARCH`) state it (term coverage ``part_coverage`` or a sentence). Such a part is
        two subjects held apart, as two parts are; a rest no paper states leaves it a description.

        Returns:
            ``(-1, pool index, PartialPaper)`` rows (:meth:`parts` sorts them with the others), one per
            such part, for a candidate not already partial.
        """
        out: list[tuple[int, int, PartialPaper]] = []
        named = {x.hit.paper.id for _, _, x in partial}
        for t in texts:
            if t in held or t not in heads:
                continue
            i, lacks, sentence = heads[t]
            hit = pool[i]
            head = " ".join(w for w in t.split() if w.strip(",;:.()").lower() not in lacks)
            rest = " ".join(lacks)
            if hit.paper.id in named or not content_terms(head):
                continue
            found = self.retriever.search(SearchQuery(rest), allowed=allowed).hits[:PART_SEARCH]
            if self._holds(rest, found, rests):
                out.append((-1, i, PartialPaper(hit, (head,), (rest,), sentence, part=t)))
                named.add(hit.paper.id)
        return out

    def written(self, phrase: str, gap: int = 0) -> bool:
        """Whether some abstract of the collection writes ``phrase`` side by side (at most ``gap``
        content words between two of its words, :func:`rag.lexicon.states_phrase`), read in the first
        :data:`PHRASE_SEARCH` papers of its lexical retrieval."""
        return self.writers(phrase, gap, first=True) > 0

    def writers(self, phrase: str, gap: int = 0, *, first: bool = False) -> int:
        """How many of the first :data:`PHRASE_SEARCH` papers of the lexical retrieval of ``phrase``
        write it side by side (:meth:`written`), in [0, PHRASE_SEARCH]; ``first``: stop at the first."""
        if not content_terms(phrase) or any(self.retriever.document_frequency(t) == 0 for t in content_terms(phrase)):
            return 0
        catalogue = self.retriever.papers
        n = 0
        for pid in self.retriever.lexical(phrase, PHRASE_SEARCH):
            if pid in catalogue and states_phrase(phrase, catalogue[pid].text_for_index, gap):
                n += 1
                if first:
                    break
        return n

    def stacked(self, topic: Topic) -> tuple[tuple[str, ...], ...]:
        """The parts of a topic whose alternatives are subjects stacked in one bare compound, or ``()``.

        "differentially private optimal transport", "forecasting solar power generation": a bare
        compound (:func:`rag.question.parts.bare_compound`) of :data:`STACKED_MIN_TERMS` to
        ``subject_max_terms`` + 2 content words that no abstract of the collection writes side by
        side (:meth:`written`) names several things, each of which a paper on it states: the fewest
        pieces of its words, in order, each written side by side by some abstract ("differentially
        private" | "optimal transport"; "diffusion" | "offline reinforcement learning", which
        MetaDiffuser writes with words between); pieces of one word each only when some abstract
        writes the compound with at most :data:`WHOLE_GAP` words between ("LLM" | "pruning"). A
        compound some abstract writes side by side is one subject ("spiking neural networks",
        "music generation"); one with a word no abstract writes is :meth:`unused_words`' to judge.
        Evidence decides where it splits, not a list of modifiers.
        Subjects joined by "and" (:func:`rag.question.parts.coordinated_subjects`: "differential
        privacy and federated learning"), each written side by side by some abstract and the whole
        by none, are stacked the same way: the papers listed state both, and a combination no paper
        states is refused naming the closest paper for each.

        Returns:
            One tuple of pieces per alternative, as :attr:`rag.question.plan.Topic.parts`; ``()`` when
            the topic has parts already, or no alternative splits in two or more.
        """
        # a topic of a rhetorical role ("formal theoretical results") describes; in a few dozen
        # abstracts a phrase none writes says nothing (UNUSED_MIN_PAPERS)
        if topic.parts or not topic.text or topic.role:
            return ()
        # subjects joined by "and" are read in any collection (each must be written side by side by
        # some abstract); a compound split into pieces only in a library, where a phrase no abstract
        # writes says something (UNUSED_MIN_PAPERS)
        library = len(self.retriever.papers) >= UNUSED_MIN_PAPERS
        most = self.settings.subject_max_terms + 2
        out: list[tuple[str, ...]] = []
        for alt in topic.facets or (topic.text,):
            # "differential privacy and federated learning": subjects joined by "and", each written
            # side by side by some abstract and the whole by none, are each a part, as the pieces
            # of a stacked compound are (on the library, "any work on differential privacy and
            # protein structure prediction?" listed 12 papers on one or the other, none on both)
            joined = coordinated_subjects(alt, self.settings.subject_max_terms)
            if joined and all(self._names_subject(p) and self.written(p) for p in joined) and not self.written(alt):
                out.append(joined)
                continue
            if not library:
                out.append((alt,))
                continue
            words = alt.split()
            # the compound's words, function words at its ends left out ("the", "a")
            while words and not content_terms(words[0]):
                words.pop(0)
            while words and not content_terms(words[-1]):
                words.pop()
            phrase = " ".join(words)
            if any(n.whole and states_phrase(n.long, phrase) for n in topic.known_names):
                # a name written out as the whole topic ("Open Pretrained Transformer models") is one
                # subject, however few abstracts write its long form (most write "OPT-175B"); beside
                # another subject ("Open Pretrained Transformer pruning") it is one of the pieces
                out.append((alt,))
                continue
            plain = all(w.isalpha() or (w.replace("-", "").isalpha() and "-" not in (w[0], w[-1])) for w in words)
            if not plain or not bare_compound(phrase, most) or len(content_terms(phrase)) < STACKED_MIN_TERMS:
                out.append((alt,))
                continue
            # written side by side, it is one subject ("music generation", "spiking neural networks");
            # written only with words between ("diffusion planner for offline RL" for "diffusion
            # offline reinforcement learning"), the collection holds its subjects together, each a
            # condition a paper on it states
            if self.written(phrase):
                out.append((alt,))
                continue
            together = self.written(phrase, WHOLE_GAP)
            pieces = self._fewest_pieces(words)
            # pieces of one word each ("sign" | "language" | "translation") are one subject whose
            # words the collection holds apart (the subjects check of parts), nothing stacked
            # unless some abstract writes them near one another ("LLM" | "pruning" of "LLM pruning"):
            # then the collection holds them together, as subjects
            stacks = bool(pieces) and len(pieces or ()) > 1 and (
                together or any(len(content_terms(p)) > 1 for p in pieces or ())
            )
            out.append(tuple(pieces or ()) if stacks else (alt,))
        return tuple(out) if any(len(a) > 1 for a in out) else ()

    def _fewest_pieces(self, words: Sequence[str]) -> list[str] | None:
        """The fewest runs of ``words``, in order, each written side by side by some abstract
        (:meth:`written`), or ``None`` when no such cut exists. Among cuts of as few pieces, the one
        whose least written piece the most abstracts write (:meth:`writers`): "differential privacy"
        | "federated learning", not "differential" | "privacy federated learning" (two sentences of
        one abstract: "... privacy. Federated learning ..."), which named the pieces of the compound
        wrongly ("states “differential” and “privacy federated learning”"); "prunes" | "large
        language models", not "prunes large" | "language models". A compound has a few words
        (``subject_max_terms`` + 2), so every cut is read."""
        count = {
            (j, i): self.writers(" ".join(words[j:i])) if content_terms(" ".join(words[j:i])) else 0
            for i in range(1, len(words) + 1)
            for j in range(i)
        }
        ok = {span: n > 0 for span, n in count.items()}
        best: list[str] | None = None
        spans: dict[str, tuple[int, int]] = {}

        def key(pieces: Sequence[str]) -> tuple[int, int]:
            return len(pieces), -min(count[spans[p]] for p in pieces)

        def cuts(start: int, before: list[str]) -> None:
            nonlocal best
            if start == len(words):
                if best is None or key(before) < key(best):
                    best = list(before)
                return
            for end in range(start + 1, len(words) + 1):
                if ok[(start, end)]:
                    piece = " ".join(words[start:end])
                    spans.setdefault(piece, (start, end))
                    cuts(end, [*before, piece])

        cuts(0, [])
        return best

    def _plain_subjects(self, alts: Sequence[tuple[str, ...]]) -> bool:
        """Whether a topic of one part per alternative is checked as subjects (:meth:`parts`): in a
        library (:data:`UNUSED_MIN_PAPERS` papers or more, where words held apart are common) and
        when every word is an English word ("sign language translation"), not a name ("ALFWorld
        benchmark": the name alone identifies its papers) or shorthand the abstracts may write
        otherwise. In the 38 seed abstracts "math reasoning evals" is in none side by side while
        CoVRL evaluates on "mathematical ... reasoning benchmarks": measured, the check refused it."""
        if len(self.retriever.papers) < UNUSED_MIN_PAPERS:
            return False
        return all(english_word(w) for a in alts for p in a for w in content_terms(p))

    @staticmethod
    def _states_term(term: str, paper: Paper) -> bool:
        """Whether ``paper`` states ``term`` side by side (:func:`rag.lexicon.states_phrase`), or one of
        the glossary's other names or instances of it ("brain-imaging" states "medical imaging")."""
        text = paper.text_for_index
        return any(states_phrase(f, text) for f in (term, *glossary_forms(term), *glossary_instances(term)))

    def _holds(self, text: str, hits: Sequence[PaperHit], rests: dict[str, np.ndarray]) -> bool:
        """Whether one of ``hits`` states ``text`` (term coverage ``part_coverage`` or a sentence,
        :meth:`sentence_states`)."""
        if not hits:
            return False
        covered = self.retriever.coverages(text, [h.paper.id for h in hits])
        qvec = self.retriever.query_vectors([text])
        self.evidence.warm([h.paper for h in hits])
        for h, c in zip(hits, covered, strict=True):
            if c >= self.settings.part_coverage:
                return True
            sents, vecs = self.evidence.sentences(h.paper)
            if len(sents) and self.sentence_states(text, sents, vecs, vecs @ qvec.T, 0, rests):
                return True
        return False

    def _candidate_pool(
        self, members: Sequence[PaperHit], retrieval: Retrieval, parts: Sequence[str], allowed: set[str] | None
    ) -> tuple[list[PaperHit], set[str]]:
        """The candidates a topic's parts are checked against (:meth:`parts`, :meth:`subjects_apart`):
        the members, then the first ``NEAR_COVERAGE`` of the topic's retrieval, then the first
        :data:`PART_SEARCH` of each part's own search, each paper once.

        Returns:
            ``(pool, searched)``: the candidates in that order, and the ids found only by a part's search.
        """
        pool: list[PaperHit] = []
        seen: set[str] = set()
        for h in [*members, *retrieval.hits[:NEAR_COVERAGE]]:
            if h.paper.id not in seen:
                seen.add(h.paper.id)
                pool.append(h)
        searched: set[str] = set()
        for t in parts:
            for h in self.retriever.search(SearchQuery(t), allowed=allowed).hits[:PART_SEARCH]:
                if h.paper.id not in seen:
                    seen.add(h.paper.id)
                    searched.add(h.paper.id)
                    pool.append(h)
        return pool, searched

    def long_subjects(self, topic: Topic) -> tuple[tuple[str, ...], ...]:
        """The subjects each alternative of a topic too long for the parts check names
        (:meth:`subjects_apart`), in order.

        Of each part, its head phrase: the first stretch up to a function word, a clause mark
        (:func:`rag.route.membership.phrases`) or a spaced dash; in it, the longest run of 2 to
        ``subject_max_terms`` content words that some abstract writes side by side (:meth:`written`)
        and that has a specific word (in at most ``part_generic_share`` of the abstracts), of equal
        length the one most abstracts write (:meth:`writers`: the collection's subject, not a verb
        before it): "trained knowledge graph embeddings" -> "knowledge graph embeddings", "federated
        learning - keeping each device's data local" -> "federated learning". A part of one word
        names a subject when it is rare (:data:`SUBJECT_WORD_SHARE`: "GFlowNets"). What follows the
        head phrase ("clients that cannot share their raw data") describes it; a part of alternatives
        ("design molecules or biological sequences") names no one subject. A run inside another
        subject is not one more ("neural networks" of "spiking neural networks").

        Returns:
            One tuple of subjects per alternative (:attr:`rag.question.plan.Topic.parts`, else the
            topic's text), ``()`` for a topic without text.
        """
        rs = self.settings
        n = max(1, len(self.retriever.papers))

        def df(t: str) -> int:
            return self.retriever.document_frequency(t)

        def head(part: str) -> str:
            if len(alternatives(part)) > 1:
                return ""
            pieces = phrases(before_dash(part))
            words = [w.strip("'’") for w in pieces[0].split()] if pieces else []
            if len(words) == 1:
                terms = content_terms(words[0])
                rare = len(terms) == 1 and 0 < df(terms[0]) <= SUBJECT_WORD_SHARE * n
                return words[0] if rare and len(pieces) == 1 and words[0].isalpha() else ""
            for k in range(min(len(words), rs.subject_max_terms), 1, -1):
                runs = [" ".join(words[i : i + k]) for i in range(len(words) - k + 1)]
                specific = [
                    r for r in runs
                    if len(content_terms(r)) == k
                    and any(0 < df(t) <= rs.part_generic_share * n for t in content_terms(r))
                ]
                count = {r: self.writers(r) for r in specific}
                best = max((r for r in specific if count[r]), key=lambda r: count[r], default="")
                if best:
                    return best
            return ""

        out: list[tuple[str, ...]] = []
        for alt in topic.parts or ((topic.text,) if topic.text else ()):
            found = [s for s in dict.fromkeys(head(p) for p in alt) if s]
            out.append(tuple(s for s in found if not any(s != o and states_phrase(s, o) for o in found)))
        return tuple(out)

    def subjects_apart(
        self,
        topic: Topic,
        retrieval: Retrieval,
        members: Sequence[PaperHit] = (),
        *,
        allowed: set[str] | None = None,
    ) -> PartsCoverage:
        """A long topic's subjects (:meth:`long_subjects`) that the collection holds only apart.

        A topic of more than ``part_max_terms`` content terms is judged whole by the membership
        model: it may describe one paper in other words. The subjects it names are phrases the
        collection writes, though, and when in every alternative two of them are each stated by some
        candidate while no candidate states both, no paper is about the topic, however close each
        is to its words ("spiking neural networks trained with federated learning - keeping each
        device's data local while training brain-inspired models": six papers on one or the other
        were listed). The candidates are the members, the first ``NEAR_COVERAGE`` of the topic's
        retrieval and the first :data:`PART_SEARCH` of each subject's own; a subject is stated as
        in :meth:`parts` (:meth:`Membership.states_compound` with term coverage ``part_coverage``,
        or a sentence, :meth:`lacking`). Refusal only, in a library
        (:data:`SUBJECTS_APART_MIN_PAPERS`): when an alternative has fewer than two subjects (a
        relative clause or gloss that may say in other words what one paper states: "I remember a
        paper bringing back VAEs whose latent prior is ..., reimplemented for accelerators" was
        refused for "bringing back" with "message passing" while its second alternative was left
        unjudged), when some candidate states every subject of one, when in one no two are held
        apart, or when the most probable member states neither of the first pair (a description in
        other words), the membership model's answer stands (``checked`` is ``False``).

        Returns:
            ``checked`` with no complete paper, the candidates that state one subject of the pair
            as partial (most subjects first) and the pair held apart of the first alternative as
            the parts; unchecked otherwise.
        """
        if len(self.retriever.papers) < SUBJECTS_APART_MIN_PAPERS:
            return PartsCoverage(False, [], [])
        # an alternative of fewer than two subjects ("where spike trains are read as self-exciting
        # point processes over time") may be the one the paper states, in other words: not judged
        alts = self.long_subjects(topic)
        if not alts or any(len(a) < 2 for a in alts):
            return PartsCoverage(False, [], [])
        rs = self.settings
        subjects = list(dict.fromkeys(s for a in alts for s in a))
        pool, _ = self._candidate_pool(members, retrieval, subjects, allowed)
        ids = [h.paper.id for h in pool]
        coverage = {t: self.retriever.coverages(t, ids, senses=True) for t in subjects}
        qvecs = self.retriever.query_vectors(subjects)
        self.evidence.warm([h.paper for h in pool])
        rests: dict[str, np.ndarray] = {}
        stated: list[set[str]] = []
        sentences: list[dict[str, str]] = []
        for i, h in enumerate(pool):
            sents, vecs = self.evidence.sentences(h.paper)
            sims = vecs @ qvecs.T if len(sents) else None
            says: set[str] = set()
            where: dict[str, str] = {}
            for j, t in enumerate(subjects):
                lexical = coverage[t][i] >= rs.part_coverage and (
                    len(content_terms(t)) < 2 or self.compounds.states_compound(t, h.paper)
                )
                if lexical or self.lacking(t, sents, vecs, sims, j, rests)[0] == ():
                    says.add(t)
                    if sims is not None:
                        where[t] = strip_markup(sents[int(sims[:, j].argmax())].text)
            stated.append(says)
            sentences.append(where)

        def held_apart(alt: tuple[str, ...]) -> tuple[str, str] | None:
            if any(set(alt) <= s for s in stated):
                return None
            return next(
                (
                    (a, b) for a, b in itertools.combinations(alt, 2)
                    if any(a in s for s in stated) and any(b in s for s in stated)
                    and not any({a, b} <= s for s in stated)
                ),
                None,
            )

        pairs = [held_apart(a) for a in alts]
        pair = pairs[0]
        if pair is None or any(p is None for p in pairs) or (members and not set(pair) & stated[0]):
            # ... and the most probable paper states neither subject of the pair as the collection
            # writes it: the topic may describe it in other words, the membership model's to judge
            return PartsCoverage(False, [], [])
        partial: list[tuple[int, int, PartialPaper]] = []
        for i, (h, s) in enumerate(zip(pool, stated, strict=True)):
            said = tuple(p for p in pair if p in s)
            if said:
                miss = tuple(p for p in pair if p not in s)
                partial.append((-len(s), i, PartialPaper(h, said, miss, sentences[i].get(said[0], ""))))
        partial.sort(key=lambda x: (x[0], x[1]))
        return PartsCoverage(True, [], [x for _, _, x in partial], (pair,))

    def parts(
        self,
        topic: Topic,
        retrieval: Retrieval,
        members: Sequence[PaperHit] = (),
        *,
        seeks: bool = False,
        allowed: set[str] | None = None,
    ) -> PartsCoverage:
        """Which candidates state every part of a topic of several parts.

        A part is stated by an abstract that covers its terms (IDF-weighted coverage at least
        ``part_coverage``, word forms compared by sense) or has a sentence that states it
        (:meth:`sentence_states`: within ``part_sentence`` of it, and stating its specific words, in
        the sentence's words or others); an alternative that is one bare term
        (:attr:`rag.question.plan.Topic.named`:
        "dataset distillation" of "dataset distillation, i.e. compressing ...") by an abstract that
        states the term side by side (:func:`rag.lexicon.states_phrase`), not its words apart. Parts
        whose every term is in more than ``part_generic_share`` of the abstracts ("neural network
        training") are not checked for the ``members`` (the membership model weighed them with the
        topic whole); a candidate it did not accept answers only by stating every part of an
        alternative, those too. The check applies to topics of at most ``part_max_terms`` content
        terms: a longer one describes one paper in other words, and the membership model judges it
        whole. Off unless ``part_check`` (see its description). A topic whose every alternative is one
        short subject (at most ``subject_max_terms`` terms: "sign language recognition, or lip reading")
        is checked for refusal only: ``checked`` when no candidate states any of them, and the
        membership model's papers answer otherwise. Any topic whose every alternative names such
        subjects and no candidate states any of them is refused (``checked``, no complete paper), even
        when its parts are not held apart.

        The candidates are the members, the first ``NEAR_COVERAGE`` of the topic's retrieval and the
        first :data:`PART_SEARCH` of the own retrieval of each part of an alternative of several, so
        that a part the topic's first candidates do not state ("machine unlearning" among graph
        neural networks) is looked for in the collection; a paper found only so answers only such an
        alternative. A part no candidate states, whose head alone a candidate's sentence is close to
        while the collection states the rest of its words apart ("3D point clouds" and "completing
        partial"), is held apart too (:meth:`_heads_apart`, for topics that ask for several papers).

        A topic without parts that stacks subjects in one compound no abstract writes whole
        ("differentially private optimal transport", :meth:`stacked`) is checked by those subjects,
        in a library: they narrow the membership model's papers (a paper it did not accept is never
        complete by them) and, stated by no one paper, refuse the topic.

        A topic of open number whose frame seeks papers ("is there work on ...", ``seeks``) may
        describe one paper in other words: it is never narrowed to the complete papers (``checked``
        is ``False`` when some candidate is complete) and is refused only when the parts of an
        alternative are subjects held apart, or when in every alternative a candidate states a part
        and none states a subject beside it.

        Args:
            topic: The topic; its :attr:`~rag.question.plan.Topic.parts` are checked.
            retrieval: Its retrieval; the first ``NEAR_COVERAGE`` candidates are checked.
            members: The papers the membership model accepted (checked first, kept first).
            seeks: The question's frame asks for papers on it ("is there work on ...",
                :attr:`rag.question.plan.AskPlan.seeks`): a topic of open number is checked too.
            allowed: The ids the papers found for a part must be among (filters); ``None`` = all.

        Returns:
            The coverage (``checked`` is ``False`` when the topic has fewer than two parts to check).
        """
        rs = self.settings
        n = max(1, len(self.retriever.papers))
        asks_papers = topic.number == "many" or (seeks and topic.number == "open")
        # a topic of one part per alternative ("sign language translation"; "sign language recognition
        # or translation") is checked as subjects only: refused when it names subjects no candidate states
        if rs.part_check and asks_papers and len(set(topic.terms)) > rs.part_max_terms:
            # a long topic describes in its own words, judged whole; the subjects it names are still
            # a combination the collection may hold only apart (:meth:`long_subjects`)
            return self.subjects_apart(topic, retrieval, members, allowed=allowed)
        stacked = self.stacked(topic) if rs.part_check and asks_papers else ()
        given = topic.parts or stacked or tuple((a,) for a in topic.facets or (topic.text,) if a)
        if not rs.part_check or not asks_papers or not given or len(set(topic.terms)) > rs.part_max_terms:
            return PartsCoverage(False, [], [])

        def specific(part: str) -> bool:
            terms = content_terms(part)
            return bool(terms) and any(self.retriever.document_frequency(t) <= rs.part_generic_share * n for t in terms)

        def subjects_only(alt: tuple[str, ...]) -> bool:
            # in a few dozen abstracts a word's share says what the collection is about, not that
            # it says nothing: an alternative whose every part is a subject some abstract names
            # side by side ("federated learning with reinforcement learning", "reinforcement" in a
            # third of the 38 seed abstracts) keeps each part (it listed DANCE, federated graph
            # learning with LLMs); a description's parts ("RL post-training of language models for
            # math") are still weighed by their words' shares, and so is a subject whose every word
            # is in more than half the abstracts (NEAR_SPECIFIC_SHARE: "general reasoning tasks")
            return n < UNUSED_MIN_PAPERS and len(alt) > 1 and all(
                self._names_subject(p) and self.written(p)
                and any(self.retriever.document_frequency(t) <= NEAR_SPECIFIC_SHARE * n for t in content_terms(p))
                for p in alt
            )

        alts = [alt if subjects_only(alt) else tuple(p for p in alt if specific(p)) for alt in given]
        # "ALFWorld for evaluation": with the generic part left out, a one-word part is still
        # required (the membership model weighs the topic whole, and "evaluation" alone brought 5
        # papers in); a longer part left alone describes the paper in other words and is judged whole
        one_word_left = any(
            0 < len(a) < len(alt) and all(len(content_terms(p)) == 1 for p in a)
            for a, alt in zip(alts, given, strict=True)
        )
        # A generic part is left out for the papers the membership model accepted (it weighed the
        # topic whole, generic words included; an alternative of generic parts only, "or general
        # reasoning tasks", asks nothing more of them); a paper it did not accept answers only by
        # stating every part of an alternative, generic ones too: "RL methods to improve LLM
        # reasoning on general reasoning tasks" left "RL methods" alone once "improve LLM
        # reasoning" and "general reasoning tasks" were found generic, and listed every RL paper
        # of the seed (ride-hailing dispatch, speech synthesis, federated offline RL).
        # ... and a size word before a term the glossary names is no requirement for them either:
        # "Understanding Int4 Quantization for Language Models" states "quantization of large
        # language models" (rag.question.parts.ungraded); a paper the model did not accept states
        # the whole part ("large language models"), or a paper on quantized speech that writes
        # "language models" would answer
        lenient, whole = [tuple(dict.fromkeys(ungraded(p) for p in a)) for a in alts], list(given)
        alts = [a for a in alts if a]
        # "sign language recognition, or translating signing videos": every alternative one short
        # subject; checked for refusal only (members stay the membership model's)
        subjects = bool(alts) and all(len(a) == 1 and self._names_subject(a[0]) for a in alts)
        if not any(len(a) > 1 for a in alts) and not one_word_left and not subjects:
            return PartsCoverage(False, [], [])
        if not (topic.parts or stacked) and not (subjects and self._plain_subjects(alts)):
            return PartsCoverage(False, [], [])
        texts = list(dict.fromkeys(p for a in alts for p in a))
        # the parts of a combination searched one by one; a paper found so answers only a
        # combination (an alternative of one part, "chess" of "board games like Go, chess or Hex",
        # is the topic's retrieval's to find)
        combined = [a for a in alts if len(a) > 1]
        pool, searched = self._candidate_pool(
            members, retrieval, list(dict.fromkeys(p for a in combined for p in a)), allowed
        )
        if not pool:
            return PartsCoverage(True, [], [], tuple(alts))
        texts = list(dict.fromkeys(p for a in (*lenient, *whole) for p in a))
        accepted = {h.paper.id for h in members}
        # an alternative that is one bare term ("dataset distillation, i.e. compressing ..." ->
        # "dataset distillation") is stated as the term, side by side, not by its words anywhere
        # in the abstract ("distillation" of a model, trained on three "datasets")
        terms = {a[0] for a in alts if len(a) == 1 and a[0] in topic.named}
        # a part that is a subject the collection writes side by side ("dataset distillation",
        # "neural collapse") is stated as that phrase (Membership.states_compound: in either order,
        # another form, an abbreviation, a title close to it), or by a sentence: its words apart
        # are other subjects ("distill experience" into policies from "a dataset of past
        # experiences"; a GNN search's "consistency collapse")
        # (a part with an abbreviation, "LLM reasoning", is stated by its written-out forms in other
        # words, "language model reasoning": its coverage decides, as before)
        phrased = {
            t for t in texts
            if t not in terms and self._names_subject(t) and all(english_word(w) for w in content_terms(t))
            and self.written(t)
        }
        ids = [h.paper.id for h in pool]
        # a part said with the glossary's other word for one of its words ("learning embeddings" by
        # "hyperbolic representation learning") is stated, as a sentence checked against it is
        coverage = {t: self.retriever.coverages(t, ids, senses=True) for t in texts}
        qvecs = self.retriever.query_vectors(texts)
        self.evidence.warm([h.paper for h in pool])
        rests: dict[str, np.ndarray] = {}  # a part without some of its words -> its vector
        complete: list[PaperHit] = []
        partial: list[tuple[int, int, PartialPaper]] = []
        held: set[str] = set()  # parts some candidate states
        heads: dict[str, tuple[int, tuple[str, ...], str]] = {}  # part -> first candidate close to its head only
        together: list[set[str]] = []  # the parts each candidate states
        for i, h in enumerate(pool):
            sents, vecs = self.evidence.sentences(h.paper)
            sims = vecs @ qvecs.T if len(sents) else None
            stated = {}
            for j, t in enumerate(texts):
                lexical = self._states_term(t, h.paper) if t in terms else coverage[t][i] >= rs.part_coverage
                if lexical and t in phrased:
                    lexical = self.compounds.states_compound(t, h.paper)
                lacks, k = (None, -1) if lexical else self.lacking(t, sents, vecs, sims, j, rests)
                stated[t] = lexical or lacks == ()
                if lacks and t not in heads:
                    heads[t] = (i, lacks, strip_markup(sents[k].text))
            held |= {t for t in texts if stated[t]}
            together.append({t for t in texts if stated[t]})
            # a paper found only by a part's own search answers only a combination; one the
            # membership model accepted is held to the specific parts, another to every part; the
            # parts of a stacked compound are the collection's reading of the topic, not the
            # question's: they narrow the model's papers and add none
            answerable = combined if h.paper.id in searched else (lenient if h.paper.id in accepted else whole)
            adds = not stacked or h.paper.id in accepted
            if adds and any(all(stated[p] for p in a) for a in answerable):
                complete.append(h)
                continue
            best = max(answerable, key=lambda a: sum(stated[p] for p in a))
            said = tuple(p for p in best if stated[p])
            miss = tuple(p for p in best if not stated[p])
            if not said or not miss:
                # a paper that states every piece of a stacked compound the membership model did
                # not accept is not partly about it: nothing is missing to name ("states
                # “differential privacy” and “federated learning” but not ;")
                continue
            sentence = ""
            if sims is not None:
                j = texts.index(said[0])
                sentence = strip_markup(sents[int(sims[:, j].argmax())].text)
            partial.append((-len(said), i, PartialPaper(h, said, miss, sentence)))
        if topic.number == "many":
            partial += self._heads_apart(texts, held, heads, pool, partial, rests, allowed)
        partial.sort(key=lambda x: (x[0], x[1]))
        anywhere = {p for _, _, x in partial for p in x.stated}
        # a part held apart by its words: a candidate states its head, another paper the rest
        anywhere |= {x.part for _, _, x in partial if x.part}
        # every alternative names subjects (parts of 2 to subject_max_terms terms) and no candidate
        # states any of them: the collection does not hold them, whatever their words match one by
        # one; a subject stated ("knowledge distillation") lets the rest be a description
        # the pieces of a stacked compound are phrases the collection writes: subjects it holds,
        # one word ("federated" of "federated symbolic regression") as much as two
        subjects_of = [[p for p in a if stacked or self._names_subject(p)] for a in alts]
        absent = not complete and all(named and not set(named) & anywhere for named in subjects_of)
        if topic.number != "many" and subjects and absent:
            # "is there a paper on sign language translation?": subjects no candidate states are
            # not held, however the frame asks (as "any work on sign language translation?" is refused)
            return PartsCoverage(True, [], [x for _, _, x in partial], tuple(alts))
        if topic.number != "many":
            # an open frame ("is there work on ...", "there was a paper where ...") may describe one
            # paper in other words: refused only when the parts of an alternative are subjects the
            # collection holds apart and no candidate states them together, or when in every
            # alternative candidates state a part and none states a subject beside it ("graph neural
            # network inference" over "encrypted graphs"); a description none of whose parts a
            # candidate states ("save tokens", "skip thinking and drop old observations") is
            # membership's to judge whole
            pairs = list(zip(alts, subjects_of, strict=True))
            apart = any(len(a) > 1 and all(p in named and p in anywhere for p in a) for a, named in pairs)
            unheld = all(
                any(p not in anywhere for p in named) and any(p in anywhere for p in a) for a, named in pairs
            )
            if complete or not (apart or unheld):
                return PartsCoverage(False, [], [])
            return PartsCoverage(True, [], [x for _, _, x in partial], tuple(alts))
        if subjects:
            return PartsCoverage(absent, [], [x for _, _, x in partial], tuple(alts))
        if absent and len(self.retriever.papers) >= UNUSED_MIN_PAPERS:
            # a subject no candidate states, in a library, is missing from the collection when the
            # collection does not write it (:meth:`_unheld_subject`: "predict crop yield"); one whose
            # words it writes side by side ("Byzantine workers" of "malicious Byzantine workers") is
            # held in other words than the reader's, which the candidates' words missed: the parts
            # are a description, as when some part is stated by no candidate (below)
            absent = all(any(self._unheld_subject(p) for p in named) for named in subjects_of)
        several = [a for a in alts if len(a) > 1]
        if not complete and several and all(
            any(p in held for p in a) and any(p not in held and self._unheld_subject(p) for p in a) for a in several
        ):
            # in every combination a candidate states a part, and another part is a subject no
            # candidate states and a word of which no abstract uses ("GNNs for de novo molecule
            # generation or drug discovery" over the seed: graph papers, no "drug" or "molecule"
            # anywhere): the collection does not hold the combination, whatever its words match
            return PartsCoverage(True, [], [x for _, _, x in partial], tuple(alts))
        if not complete and any(
            len(a) >= TOGETHER_MIN_PARTS
            and all(any({p, q} <= t for t in together) for p, q in itertools.combinations(a, 2))
            for a in alts
        ):
            # an alternative of three parts or more each two of which some candidate states together
            # ("adapt a trained model" | "distribution shift at test time" | "the unlabeled test data":
            # EATA states the first two, DIA the last two, another test-time adaptation paper the
            # first and the last): the collection holds its parts together, in the same papers, and
            # only words keep each from stating all of them; no subjects held apart, so the topic is
            # judged whole by the membership model (a combination of two subjects held apart has no
            # such pair)
            return PartsCoverage(False, [], [])
        if not complete and not absent and not any(all(p in anywhere for p in a) for a in alts):
            # no alternative whose every part some candidate states on its own: the parts are not
            # subjects the collection holds separately (a description in other words), so the
            # topic is judged whole by the membership model
            return PartsCoverage(False, [], [])
        return PartsCoverage(True, complete, [x for _, _, x in partial], tuple(alts))
