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
   calibrated on the dev set (see the floors in :class:`rag.settings.RetrievalSettings`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.lexicon import states_phrase
from rag.llm.prose import REFUSAL
from rag.protocols import EvidenceSource, Retriever
from rag.question.plan import Detail, Plan, Topic
from rag.question.slots import detail_slot
from rag.route.lead import key_clause, quoted
from rag.route.slot import slot_span
from rag.settings import RetrievalSettings
from rag.text import normalize, numbers
from rag.types import Ask, Retrieval, Slot
from store.papers import Paper

__all__ = ["NOT_ENGLISH", "NOTHING_CLOSE", "RefusalPolicy", "TopicEvidence"]

NOTHING_CLOSE = f"{REFUSAL} Nothing in the collection is close to it"
NOT_ENGLISH = (
    "The question does not seem to be in English. The abstracts are English and the offline embedding "
    "model matches English text, so in other languages only names the abstracts state (such as DANCE or "
    "APM) can be found: please ask in English, or name the method."
)
RARE_SHARE = 0.1
"""Largest share of the abstracts a term may appear in and still be rare (a name-like term)."""
NEAR_SENTENCES = 10
"""Candidates whose sentences are compared with the topic."""
NEAR_COVERAGE = 20
"""Candidates whose term coverage of a facet is checked."""



def _alnum(text: str) -> str:
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

    # --- what abstracts do not state --------------------------------------------------

    def states(self, slot: Slot, paper: Paper) -> bool:
        """Whether some sentence of ``paper``'s abstract states ``slot`` (:func:`rag.route.slot.slot_span`)."""
        return any(slot_span(slot, x.text) is not None for x in self.evidence.sentences(paper)[0])

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
        slot = slot or detail_slot(detail)
        if papers and all(self.states(slot, p) for p in papers):
            return ""
        name = slot.name
        if asked and papers and what == "publication date" and all(p.year for p in papers):
            # the records hold a year (a seed file's header "ICML 2026 Papers"), not a date
            years = "; ".join(f"{p.label} ({p.id}): {' '.join(x for x in (p.venue, str(p.year)) if x)}" for p in papers)
            return f"{REFUSAL} The abstracts do not state {name}; the records give only venue and year: {years}."
        if asked and papers:
            about = " and ".join(f"{p.label} ({p.id})" for p in papers)
            return f"{REFUSAL} The abstracts do not state {name}, nor does the record of {about}."
        closest = f"; the closest paper is {papers[0].label} ({papers[0].id})." if papers else "."
        return f"{REFUSAL} The abstracts do not state {name}{closest}"

    def slot(self, ask: Ask, papers: Sequence[Paper]) -> str:
        """The refusal for a measure asked of named papers none of which states it ("exactly how
        many out-of-distribution images does it add?"), or ``""``: "The abstract of X does not state
        <slot>; closest: “…”", quoting the clause of the sentence that answers the question best.
        A detail is refused by :meth:`metadata`; a paper that states the slot answers, and so does a
        question of several parts ("How many levels does X define, and on which benchmarks?")."""
        slot = ask.slot
        # a question that also asks something else ("..., and which benchmarks?") is answered part by part
        asks_more = any(p.slot is None and p.title.endswith("?") for p in ask.parts)
        if slot is None or slot.detail or asks_more or not papers or any(self.states(slot, p) for p in papers):
            return ""
        paper = papers[0]
        about = " and ".join(f"{p.label} ({p.id})" for p in papers)
        ranked = self.evidence.score(ask, paper)
        closest = ""
        if ranked:
            best = ranked[0].sentence
            closest = f"; closest: {quoted(best, key_clause(best))}"
        return f"{REFUSAL} The abstract of {about} does not state {slot.name}{closest}."

    def absent_terms(self, plan: Plan, retrieval: Retrieval, papers: Sequence[Paper]) -> str:
        """The refusal for coined terms the named papers (or every abstract) never mention, or ``""``."""
        if retrieval.unmatched_entities:
            return f"{REFUSAL} No abstract in the collection mentions {', '.join(retrieval.unmatched_entities[:3])}."
        if len(papers) != 1:
            return ""
        paper = papers[0]
        stated = {normalize(t) for t in retrieval.names}
        text = normalize(paper.text_for_index)
        names = {normalize(n) for n in (paper.label, *paper.aliases)}
        letters = _alnum(text)
        for ent in plan.coined:
            key = normalize(ent)
            if key in stated or key in names or key in text or any(key in n or n in key for n in names):
                continue
            if ent.islower() and _alnum(key) in letters:
                continue  # typed without its hyphen or space: "resnet50" for "ResNet-50"
            if self.retriever.coverages(ent, [paper.id])[0] >= 1.0:
                continue  # stated in another form the index knows ("T2I" for "text-to-image")
            return f"{REFUSAL} The abstract of {paper.label} does not mention {ent}."
        return ""

    # --- topics the collection is not about -------------------------------------------

    def topic_evidence(self, plan: Plan, topic: Topic, retrieval: Retrieval) -> TopicEvidence:
        """Measure how close the candidates come to the topic (see :class:`TopicEvidence`)."""
        rs = self.settings
        hits = retrieval.hits
        top = hits[0]
        texts = [topic.text or plan.query, *topic.facets]
        qvecs = self.retriever.query_vectors(texts)
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
        self, plan: Plan, topic: Topic, retrieval: Retrieval, detail: Detail | None = None, *, slot: Slot | None = None
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
        ``slot``: the detail's slot (default: read from ``detail``).
        """
        if not retrieval.hits:
            return f"{REFUSAL} The collection is empty or holds nothing related; ingest papers first."
        if detail is not None and self.described(detail, topic):
            if self._topic(plan, topic, retrieval):  # no paper fits the description
                return self.metadata(detail, [], slot=slot)
            return self.metadata(detail, [retrieval.hits[0].paper], asked=True, slot=slot)
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

    def _topic(self, plan: Plan, topic: Topic, retrieval: Retrieval) -> str:
        """The refusal of :meth:`topic` for its topic alone (no detail), or ``""``."""
        absent = self.absent_topic(topic, retrieval)
        if absent:
            return absent
        ev = self.topic_evidence(plan, topic, retrieval)
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
        return f"{NOTHING_CLOSE}; the closest paper is {top.paper.label} ({top.paper.id})."

    def absent_topic(self, topic: Topic, retrieval: Retrieval) -> str:
        """The refusal for a topic made only of coined terms no abstract contains in any form the
        index knows ("RLHF", "rlhf", "Which papers use DPO?"), or ``""``. The embedder reads an unknown
        acronym by its letters and finds near sentences anyway ("RLHF" came within 0.55 of an RL
        sentence), so its closeness cannot refuse it; a term some abstract holds ("KD", "UQ") or a
        topic with other words ("RLHF for LLM agents") is judged as any other."""
        terms = topic.terms
        coined = [*retrieval.unmatched_entities, *topic.acronyms]
        once: dict[str, str] = {}
        for t in coined:  # "RLHF" once, as typed first
            once.setdefault(t.lower(), t)
        absent = [t for t in once.values() if self.retriever.document_frequency(t) == 0]
        if not terms or not absent or set(terms) - {t.lower() for t in absent}:
            return ""
        return f"{REFUSAL} No abstract in the collection mentions {', '.join(absent[:3])}."

    def rare(self, term: str) -> bool:
        """Whether ``term`` is in at least one abstract and at most :data:`RARE_SHARE` of the collection."""
        df = self.retriever.document_frequency(term)
        return 0 < df <= RARE_SHARE * max(1, len(self.retriever.papers))
