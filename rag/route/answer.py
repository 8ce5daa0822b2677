"""Answers to questions about papers: find the papers, quote the evidence, connect, check, render.

:meth:`AnswerPipeline.answer` answers a :class:`rag.question.reader.QuestionPlan` of intent ``ask``:

1. the papers are the ones the question names (resolved by the conversation) or, when it names
   none, every paper the calibrated relevance model accepts for its topic (:mod:`rag.route.membership`);
   the frame's number decides only when it is explicit ("which paper" -> the most relevant one);
2. the refusal policy (:mod:`rag.route.refusal`) refuses what the collection does not answer;
3. evidence sentences are chosen per paper (:class:`rag.evidence.selector.EvidenceSelector`);
4. the LLM, if any, writes connecting prose, validated and claim-checked (:mod:`rag.llm.prose`);
   without prose, a lead line answers in the form the question asks (:mod:`rag.route.lead`);
5. the text is the checked prose or the lead, followed by the quoted evidence of every source.

:meth:`AnswerPipeline.ask` is the one entry point for a single question: it answers through a
fresh :class:`rag.route.conversation.Conversation`, the route the chat page, the CLI and ``eval`` share.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from rag.acronyms import used_otherwise
from rag.citations import cited_numbers, format_marker
from rag.evidence.roles import CONTINUES, FIRST_PERSON, proposes, sentence_roles, states_formal_result
from rag.evidence.rows import LIMITATIONS, select_rows, states_own_limitation
from rag.evidence.selector import EvidenceSelector, defines_name
from rag.evidence.senses import evidence_senses
from rag.index.retrieve import HybridRetriever
from rag.lexicon import (
    directions,
    english_word,
    glossary_forms,
    long_forms,
    other_direction,
    reversed_direction,
    states_direction,
    states_phrase,
    term_key,
)
from rag.llm.clients import ChatLLM
from rag.llm.expand import expand_topic
from rag.llm.judge import BORDERLINE_BAND, judge_member
from rag.llm.prose import REFUSAL, ProseWriter, Source
from rag.protocols import EvidenceSource, evidence_settings
from rag.question.asks import read_ask
from rag.question.filters import FILTER_KINDS
from rag.question.names import MIN_CASED
from rag.question.parts import description_clauses
from rag.question.plan import Ask, AskPlan, Plan, Topic
from rag.question.reader import Reader
from rag.question.roles import REQUIRED_ROLES
from rag.question.slots import DATA, ENTITY, INSTANCE, SETTING
from rag.question.stances import opposed
from rag.route.lead import (
    availability_span,
    contrary_span,
    contrasted_by_word,
    denies_directly,
    key_clause,
    lead_line,
    list_head,
    mention_head,
    number_span,
    own_work,
    polar_verdict,
    quoted,
    sets_aside,
    states_terms,
    term_span,
)
from rag.route.membership import Membership, more_may_match
from rag.route.premise import contradicted_counts
from rag.route.refusal import NAMED_PARTIAL, NEAR_COVERAGE, RefusalPolicy, letters_digits, writes_name
from rag.route.slot import sizes_beside, slot_span, stating_sentence
from rag.route.stages import side_by_side
from rag.settings import Settings
from rag.text import Sentence, content_terms, split_sentences
from rag.types import Answer, Citation, Evidence, Paper, PaperHit, Retrieval, Timings, timed
from store.labels import without_links, written_url
from store.papers import has_opening_label, is_code_link, strip_markup

__all__ = ["EMPTY_QUESTION", "MAIN_POINTS", "REFUSAL", "AnswerPipeline", "Found", "list_lines", "main_points"]

EMPTY_QUESTION = "Please ask a question about the papers in the collection."
MAIN_POINTS = "What problem does it address, what does it propose, and what results does it report?"
"""What to quote from a paper when a question names it but asks for nothing in particular."""
ROLE_STATED = {"theory": "a theoretical result (a proof, a bound or a guarantee)"}
"""How a check within a list says what a paper must state when it asks a role
(:attr:`rag.question.plan.Topic.role`): "None of the 6 papers ... states a theoretical result ..."."""

WEAKEST_CLAUSE = 0.5
"""Share of the clause a paper states worst in how well it states a description of one paper
(:meth:`AnswerPipeline._clause_statement`; the rest is the mean over the clauses). Chosen with the
``retrieval.description_statement_*`` settings between the mean alone (0) and this: with the mean alone
another candidate leads a right answer by up to 0.077 and the paper meant leads a wrong one by 0.121
at least; with half the weakest clause 0.153 and 0.197 (``retrieval.description_statement_lead``)."""

DESCRIPTION_STATED = 0.999
"""IDF-weighted share of a described paper's description (:attr:`rag.question.plan.Topic.described`)
a paper's abstract must state to be the one answered before a more probable paper that does not:
every part of it ("speech synthesis" is not stated by a speech recognition paper's "speech"); set
below 1.0 only for the rounding of the weighted sum."""

ALSO_FITTING = 2
"""Most other papers named as also fitting a description of one paper
(:meth:`AnswerPipeline._also_fitting`); set by reading, not fitted: a description that more papers
fit is a topic, and its list of papers is asked with "which papers"."""

LABEL_MIN_TERMS = 2
"""Fewest content words of a short description of one paper that its title or own sentences are
checked for (:meth:`AnswerPipeline._labelled`): one word ("the diffusion paper") is in too many
titles to single a paper out."""
LABEL_MAX_TERMS = 3
"""Most content words of such a description ("finite-width NTK", "TTA benchmark"); a longer one
describes the paper in several clauses (:meth:`AnswerPipeline._described`)."""
LABEL_GAP = 1
"""Most words between two words of a short description where a title or sentence states it: "Test-Time
Adaptation Benchmark" states "TTA benchmark", "Fast Finite Width Neural Tangent Kernel" states
"finite-width NTK" (0 would do); one word lets "a frozen finite-width neural tangent kernel" and
"the finite width NTK" both count. Set by reading 28 questions of our own (stop 54, h54a)."""
GATHER_WORDS = 4
"""Most content words of a topic that is no named term ("bandits with knapsacks", the "federated
learning" of "... on federated learning release code?") for :meth:`AnswerPipeline.gathered` to read it
as a phrase the abstracts write; a longer topic is a description, written in other words. Set by
reading: the library's phrase topics have two to four ("multi-agent reinforcement learning")."""
SUBJECT_MENTIONS = 2
"""Times the one paper that writes a name no paper owns must write it for the name to be its subject
("the SAT paper": the seed's Boolean-satisfiability paper writes SAT three times; "the LoRA paper":
HyperTuning, the one library paper that writes LoRA, once in passing). Set by reading these and the
h54a questions of names no paper owns: every passing mention there is a single one."""

EXCLUSION_COVERAGE = 0.5
"""IDF-weighted share of an excluded word's forms ("agent settings" -> agent) that puts a paper out,
and of the rest of an artifact question's topic ("speech" of "a new speech dataset") that keeps one in."""


@dataclass
class Found:
    """The papers a question naming none is answered with.

    Attributes:
        chosen: The papers clearly about the topic (membership probability at least
            ``retrieval.set_membership``), most probable first, at most the limit asked.
        matched: How many papers are clearly about it (``len(chosen)`` or more).
        at_least: ``matched`` is a lower bound.
        left_out: Members put out by the question's exclusion.
        mentions: For a "which papers" question, the papers that mention the topic without being
            clearly about it (probability in [``retrieval.mention_membership``,
            ``retrieval.set_membership``)), most probable first; named, never cited; none when the
            question excludes something.
        judged: Borderline papers whose membership the LLM judged (``llm.judge_borderline``).
        without_code: For the papers on a topic that make their code available
            (:attr:`rag.question.plan.Topic.link_rest`): how many papers clearly about the topic
            state no code made available.
        on_topic: For such a topic, every paper clearly about it, with or without code, most
            probable first.
    """

    chosen: list[PaperHit]
    matched: int
    at_least: bool
    left_out: list[PaperHit] = field(default_factory=list)
    mentions: list[PaperHit] = field(default_factory=list)
    judged: int = 0
    without_code: int = 0
    on_topic: list[PaperHit] = field(default_factory=list)
    also: list[tuple[PaperHit, str]] = field(default_factory=list)
    """For a description of one paper, the other papers that state it about as well as the one
    answered, each with the sentence of its own that states the description's first clause
    (:meth:`AnswerPipeline._also_fitting`): named in one line after the answer, not cited."""


def _mentions(text: str, name: str) -> int:
    """How many times ``text`` writes ``name`` as a word (any case; "SAT" not in "dataset")."""
    return len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I))


def name_asked(plan: AskPlan, topic: Topic) -> str:
    """The name the question asks about (:attr:`AskPlan.asked_name`, read by
    :meth:`rag.question.reader.Reader.name_asked`: "What does Imagen do?", "Flamingo: which few-shot
    benchmarks does it report?", "Imagen FID on COCO?"), when the plan
    answered still names no paper and asks for no list (a follow-up may have retargeted it); ``""``
    otherwise. The answer checks it as a name (:meth:`AnswerPipeline._unowned`): when no paper of
    the collection is it, the question is refused saying so."""
    if not plan.asked_name or plan.named_ids or topic.number == "many":
        return ""
    return plan.asked_name


def _states_excluded(phrase: str, text: str) -> bool:
    """Whether ``text`` states an excluded ``phrase``: a compound written with hyphens as written
    ("text-to-speech", any case; not "speech-to-text" nor "text, and speech"), another phrase by its
    words side by side (:func:`rag.lexicon.states_phrase`)."""
    if "-" in phrase and " " not in phrase.strip():
        return re.search(rf"(?<![\w-]){re.escape(phrase)}s?(?![\w-])", text, re.I) is not None
    return states_phrase(phrase, text)


class AnswerPipeline:
    """Plan in, grounded :class:`~rag.types.Answer` out.

    Args:
        retriever: The hybrid retriever over the store (holds the catalogue of papers).
        evidence: Sentence selector (shares the retriever's embedder).
        llm: The LLM that writes connecting prose, or ``None`` for extractive answers.
        settings: All settings.
        llm_note: Why this LLM was chosen (shown in answers and the UI).
        reader: The question reader of this collection (default: one over the retriever's catalogue).
    """

    def __init__(
        self,
        retriever: HybridRetriever,
        evidence: EvidenceSelector,
        llm: ChatLLM | None,
        settings: Settings,
        llm_note: str = "",
        reader: Reader | None = None,
    ):
        self.retriever = retriever
        self.reader = reader or Reader(
            retriever.catalogue, max_chars=settings.input.max_question_chars, senses=getattr(retriever, "senses", None)
        )
        self.evidence = evidence
        self.llm = llm
        self.settings = settings
        self.llm_note = llm_note
        self.membership = Membership(retriever, evidence, settings.retrieval.candidates)
        self._verdicts: dict[tuple[str, str], bool] = {}  # (paper id, topic) -> the LLM's membership verdict
        self._expansions: dict[str, str] = {}  # topic -> the LLM's rewrite in the abstracts' words ("": none)
        self.refusals = RefusalPolicy(retriever, evidence, settings.retrieval)
        self.writer = ProseWriter(
            llm,
            settings,
            evidence.similarity,
            lambda hit: [x.text for x in evidence.sentences(hit.paper)[0]],
            llm_note,
        )

    @property
    def backend(self) -> str:
        """Name of the LLM backend, ``"none"`` when answers are extractive."""
        return self.llm.name if self.llm else "none"

    @property
    def catalogue(self):
        """The papers of the collection with their names (:class:`rag.index.catalogue.Catalogue`)."""
        return self.retriever.catalogue

    def read(self, text: str | None, *, filters: Collection[str] = FILTER_KINDS) -> Plan:
        """Read a message into its plan (:meth:`rag.question.reader.Reader.read`) against this collection
        (its seconds are the answer's ``timings.reading`` when measured: :meth:`rag.types.Timings.measuring`)."""
        with timed("reading"):
            return self.reader.read(text, filters=filters)

    # --- answering a plan ------------------------------------------------------------

    def answer(
        self,
        plan: AskPlan,
        *,
        papers: Sequence[str] = (),
        allowed: set[str] | None = None,
        top_k: int | None = None,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
        scope: str = "",
    ) -> Answer:
        """Answer a question (:class:`rag.question.plan.AskPlan`).

        Args:
            plan: The question's plan.
            papers: Ids of the papers the question is about (named or referred to); empty = find them.
            allowed: Restrict the papers found to these ids (filters); ``None`` = all.
            top_k: Most named papers answered about (default ``retrieval.top_k``).
            on_token: Receives LLM prose pieces as they stream.
            stop: When set, generation stops.
            scope: What ``allowed`` is when it is a set of papers rather than the collection under a
                filter ("the 12 papers of the previous answer"): a list's head counts in it.

        Returns:
            The answer (``refused`` with the refusal phrase when the collection does not answer).
        """
        t0 = time.perf_counter()
        timings = Timings()
        rs = self.settings.retrieval
        at_least = False
        left_out: list[PaperHit] = []
        mentions: list[PaperHit] = []
        partly = ""
        unstated = ""  # a detail no abstract states, asked beside other parts that are answered
        judged = 0  # borderline members the LLM judged
        expansion = ""  # the topic as the LLM put it in the abstracts' words
        described = False  # a detail asked of one paper the question describes
        also: list[tuple[PaperHit, str]] = []  # other papers a description of one fits (Found.also)
        follow = plan.follow
        if not papers and scope and allowed and follow is not None and (follow.stated or follow.available):
            return self._within_list(plan, allowed, scope, timings, t0)
        if papers:
            retrieval = self.retriever.search(plan.search)
            timings.retrieval = time.perf_counter() - t0
            chosen_papers = [self.catalogue[p] for p in papers[: top_k or rs.top_k]]
            missing = self.refusals.metadata(plan.detail, chosen_papers, asked=True, slot=plan.ask.slot)
            if missing and self._asks_beside(plan):
                unstated, missing = missing.removeprefix(f"{REFUSAL} "), ""
            refusal = (
                missing
                or self.refusals.absent_terms(plan, retrieval, chosen_papers)
                or self.refusals.premise(plan, chosen_papers)
                or self.refusals.manner(plan, chosen_papers)
                or ("" if unstated or self._states_contrary(plan, chosen_papers) else
                    self.refusals.slot(plan.ask, chosen_papers))
            )
            by_id = {h.paper.id: h for h in retrieval.hits}
            chosen = [by_id.get(p.id) or PaperHit(p, 1.0) for p in chosen_papers]
            matched = len(chosen)
        else:
            wider = self._expanded(plan.topic)
            if wider is not None:
                expansion = f"“{plan.topic.text}” is in no abstract: searched as the LLM put it, “{wider.text}”"
                plan = replace(plan, topic=wider)
            topic = plan.topic
            retrieval = self.retriever.search(topic.search, allowed=allowed)
            if topic.about_links:
                retrieval = self._with_code(retrieval, allowed)
            retrieval = self.gathered(topic, retrieval, allowed)
            timings.retrieval = time.perf_counter() - t0
            # Papers that introduce an artifact, or link their code, or state a result of the role a
            # topic asks alone ("formal theoretical results", Topic.role_alone), are judged by what
            # they state (below), not by how close a sentence comes to "a new large-scale dataset"
            # or to "prove a theoretical result"
            judged_apart = topic.artifact or topic.about_links or topic.role_alone
            refused = not (judged_apart and retrieval.hits)
            # A detail of a paper the question describes ("What model size was the LLM watermark
            # tested on?") is asked of the paper the description finds, not of retrieval's first.
            described = self.refusals.described(plan.detail, topic) and bool(retrieval.hits)
            first_found = self.found(topic, retrieval, peers=plan.seeks or plan.bare) if described and refused else None
            meant = (first_found.chosen or retrieval.hits)[0] if first_found is not None else None
            detail = plan.detail
            if meant is not None and detail is not None and not self.refusals.describes(topic, detail, meant.paper):
                # "Chinchilla GPU hours?": FlexGen was found by "GPU", a word of the detail asked,
                # and named as the paper whose record lacks it; the paper meant must state the rest
                meant, described = None, False
            refusal = (
                self.refusals.topic(
                    plan, topic, retrieval, plan.detail, slot=plan.ask.slot, described=meant.paper if meant else None
                )
                if refused
                else ""
            )
            if (name := name_asked(plan, topic)) and (
                unowned := self._unowned(replace(topic, described_name=name), retrieval, framed=False)
            ):
                # "Flamingo: which few-shot benchmarks does it report?", "What does Imagen do?",
                # "Imagen FID on COCO?": no paper of the collection is
                # the name asked, so no paper its other words find ("few-shot", "prune") answers it,
                # nor one that only mentions it (Muse, which compares itself with Imagen), and a
                # detail is not "not stated" by a paper that is not it
                refusal = unowned
            if (
                refusal
                and self._asks_beside(plan)
                and self.refusals.described(plan.detail, topic)
                and not self.refusals.topic(plan, topic, retrieval)
            ):
                # "On which benchmark does the X paper report its gains, and how many GPUs did it
                # use?": the paper found answers the other part; the detail is said to be missing
                unstated, refusal = refusal.removeprefix(f"{REFUSAL} "), ""
            if not refusal and topic.described_name and topic.number != "many":
                # "What does the LoRA paper report?": the paper whose own name it is, not one that
                # mentions it (HyperTuning "produces soft prefixes or LoRA parameters")
                refusal = self._unowned(topic, retrieval)
            if refusal:
                found = Found([], 0, False)
            else:
                peers = plan.seeks or plan.bare
                found = first_found if first_found is not None else self.found(topic, retrieval, peers=peers)
            chosen, matched, at_least, left_out, mentions = (
                found.chosen, found.matched, found.at_least, found.left_out, found.mentions
            )
            judged = found.judged
            # a list of the papers on a topic of several parts that release code: held to the parts of
            # the topic without the condition (rag.question.reader.without_link) as the same list
            # without it is ("information bottlenecks for sim-to-real"), below
            listed = bool(topic.link_rest and topic.parts) and not self._asks_one(plan)
            no_code = f"{REFUSAL} None of the {found.without_code} papers clearly about “{topic.link_rest}” " \
                "makes its code available in its abstract."
            also = found.also
            if topic.link_rest and found.on_topic and self._asks_one(plan):
                # "Does the paper that regularizes CNNs with an information bottleneck release
                # code?", "Is there a paper that ..., and does it release code?": the one paper asked
                # for is the most probable on its description, whose abstract says whether its code
                # is available (the lead's yes/no), not the first that links code
                chosen, matched = found.on_topic[:1], 1
            elif topic.link_rest and found.without_code:
                others = f"{found.without_code} other paper{'s' * (found.without_code != 1)}"
                partly = f"{others} clearly about “{topic.link_rest}” state no code made available in the abstract."
                if not chosen and not listed:
                    refusal = no_code
            if not refusal and described:
                # a detail of the paper the question describes, which states it (rag.route.refusal)
                chosen, matched, at_least, left_out, mentions = [meant or retrieval.hits[0]], 1, False, [], []
            if not refusal and topic.versions and chosen:
                # "What does GPT-4 achieve on the bar exam?": a version names that model, not its
                # family; the papers found must write it (SparseGPT, found by "GPT", does not)
                refusal = self.refusals.unwritten_versions(topic, chosen, retrieval)
                writing = [h for h in chosen if all(writes_name(h.paper.text_for_index, v) for v in topic.versions)]
                chosen, matched = writing, len(writing)
            # ... whose answer is those of the papers on it that state every part and release code;
            # none on it states every part -> refused for the parts, not for code; a topic of one part
            # is the membership model's
            linked = {h.paper.id for h in chosen} if listed else None
            on_topic = found.on_topic if linked is not None else chosen
            if not refusal and on_topic and not judged_apart and not (topic.link_rest and linked is None):
                # a topic of several parts: the papers that state every part answer; none -> refused,
                # naming the closest papers with the part each states (rag.route.refusal)
                covered = self.refusals.parts(topic, retrieval, on_topic, seeks=plan.seeks, allowed=allowed)
                if covered.checked and linked is not None:
                    stating = [h for h in covered.complete if h.paper.id in linked]
                    if covered.complete and not stating:
                        named = "; ".join(f"{h.paper.label} ({h.paper.id})" for h in covered.complete[:NAMED_PARTIAL])
                        refusal = f"{REFUSAL} No abstract that states {covered.wanted()} makes its code available; " \
                            f"the papers that state it: {named}."
                    covered = replace(covered, complete=stating)
                elif linked is not None and not chosen:
                    # parts not checked: no paper on it releases code (the membership model's answer)
                    refusal = no_code
                if not refusal and covered.checked and not covered.complete:
                    refusal = covered.refusal()
                elif not refusal and covered.checked:
                    # the parts check looks past the membership model's papers: the exclusion
                    # ("outside of agent settings") puts out those it adds as it put out members
                    out = self._excluded(topic, covered.complete)
                    left_out = left_out + [h for h in out if h not in left_out]
                    # and a paper that states a word of the topic only negated is no more about it
                    # than in the membership model's list ("does not require ... watermarking"),
                    # nor a paper about another direction than the topic's ("text-to-audio")
                    denied = self._denied(topic, covered.complete)
                    other = self._other_direction(topic, covered.complete) | self._other_side(topic, covered.complete)
                    other |= self._other_sense(topic, covered.complete)
                    # nor a paper that shares a word of the topic's compound without stating it
                    # ("layer-wise distillation" for "dataset distillation": Membership.other_sense)
                    candidates = retrieval.hits[: rs.candidates]
                    shared = self.membership.other_sense(compounds(topic), covered.complete, candidates)
                    # or writes it only as what it sets its own work against (Membership.set_against)
                    shared += [
                        h for h in covered.complete
                        if h not in shared and self.membership.set_against(against_terms(topic), h.paper)
                    ]
                    other |= set(shared)
                    # and a paper that holds the words of a part apart, in other senses ("Bayesian
                    # variational inference" and the clients' "optimization" for "Bayesian optimization")
                    other |= set(self.membership.parts_apart(covered.parts, covered.complete, candidates))
                    complete = [h for h in covered.complete if h not in out and h not in denied and h not in other]
                    complete = complete[:1] if topic.number == "one" else complete
                    chosen, matched, at_least = complete[: rs.max_set_size], len(complete), False
                    # nor is a paper named "partly about it" for a part it states only negated
                    # (DetectGPT, "does not require ... watermarking", for "watermarking for
                    # language model outputs")
                    denies = self._denied(topic, [x.hit for x in covered.partial])
                    covered = replace(covered, partial=[x for x in covered.partial if x.hit not in denies])
                    partly = covered.note()
                    # a paper named as partly about it (with the part it states) is not named
                    # again among those that mention it
                    named_partly = {x.hit.paper.id for x in covered.named()}
                    mentions = [h for h in mentions if h.paper.id not in named_partly]
                    # (one that writes the compound's words only in another sense mentions it no more)
                    unrelated = set(self.membership.other_sense(compounds(topic), [*shared, *mentions], candidates))
                    mentions = [h for h in [*shared, *(h for h in mentions if h not in shared)] if h not in unrelated]
                    mentions = mentions[: rs.max_mentions]
            if (
                not refusal
                and chosen
                and topic.number != "many"
                and topic.parts
                and not judged_apart
                and not topic.link_rest
                and not topic.described_name
            ):
                # "Which paper applies sharpness-aware minimization to federated learning?": of one
                # paper asked for by its subjects, the paper that states every one of them, as the
                # list of several would (FedSAM), before a more probable one that states one
                # (Differentially Private Sharpness-Aware Training)
                whole = self.refusals.parts(replace(topic, number="many"), retrieval, chosen, allowed=allowed)
                if whole.checked and whole.complete and chosen[0] not in whole.complete and topic.number == "one":
                    chosen = whole.complete[:1]
                elif whole.checked and whole.apart(self.refusals.distinguishing, chosen[0].paper.id):
                    # ... and a description whose facts no candidate states together, while the one
                    # that states the most lacks a fact another paper states, describes no paper:
                    # "detects audio deepfakes using the probability curvature of a language model"
                    # is CA-SOADD's subject and DetectGPT's method (PartsCoverage.apart); refused,
                    # naming the closest papers with the facts each states
                    refusal = whole.refusal()
                    chosen, matched, at_least, left_out, mentions = [], 0, False, [], []
            slot = plan.ask.slot
            counted = slot is not None and slot.count and not plan.seeks
            # "SoT-26K train/test split?": a thing asked of a name only one abstract writes (a
            # dataset, a model inside a paper) is asked of that paper, as a named one is; so is the
            # data it works on ("HDMI datasets?": said not stated when no sentence states data, not
            # answered with its method sentence)
            of_name = slot is not None and slot.form in (ENTITY, SETTING, DATA, INSTANCE) and len(chosen) == 1 and any(
                chosen[0].paper.id in ids for ids in plan.search.names.values()
            )
            # "What regret does the LLM routing paper prove?": a thing asked of the one paper a
            # description finds is asked of it as of a named one, not quoted from another sentence
            of_described = slot is not None and slot.form in (ENTITY, SETTING, INSTANCE) and bool(topic.described)
            of_name = of_name or of_described
            # "SFNO speedup?", "What speedup does the hindsight learning paper report?": a measure
            # asked of the one paper a name its abstract writes, or a description, finds is asked of
            # it as of a named one: said not stated when no sentence states it, not answered with a
            # figure of another measure ("stable rollouts ... (1,460 steps)")
            named_here = len(chosen) == 1 and (
                bool(topic.described) or any(chosen[0].paper.id in ids for ids in plan.search.names.values())
            )
            measured = slot is not None and slot.amount and not (slot.form or slot.detail or plan.seeks) and named_here
            of_name = of_name or measured
            if not refusal and len(chosen) == 1 and topic.number != "many" and (counted or of_name):
                # "The Flan Collection: exactly how many tasks does it contain?": the paper found
                # answers a count only with a number of its unit (rag.route.refusal.RefusalPolicy.slot).
                # A count inside a description of the paper sought ("work that proves a lower
                # bound on how many samples are needed") describes it, it is not asked.
                refusal = "" if self._states_contrary(plan, [chosen[0].paper]) else \
                    self.refusals.slot(plan.ask, [chosen[0].paper])
            if not refusal and not chosen:
                refusal = REFUSAL
                if left_out:
                    refusal += f" Every paper that matched is about {topic.exclusion}: " + ", ".join(
                        h.paper.label for h in left_out
                    ) + "."
                elif topic.artifact:  # "what dataset does X build?": no abstract presents one of its own
                    refusal += f" No abstract that matches presents a {' or '.join(topic.artifact)} of its own."
                elif topic.role_alone:  # "Which papers prove something?": no abstract states a proof of its own
                    refusal += f" No abstract states {ROLE_STATED.get(topic.role, f'a {topic.role}')} of its own."
                elif retrieval.hits:
                    top = retrieval.hits[0].paper
                    refusal += f" No paper is close enough to it; the closest is {top.label} ({top.id})."
        timings.membership = time.perf_counter() - t0 - timings.retrieval
        if refusal:
            return self.refusal(plan.asked, refusal, timings, t0, hits=retrieval.hits[: rs.top_k])
        chosen = [h for h in chosen if self.evidence.sentences(h.paper)[0]]  # an abstract of instructions only
        timings.membership = time.perf_counter() - t0 - timings.retrieval
        # a paper the parts check put in the answer is not also named as only mentioning the topic
        answered = {h.paper.id for h in chosen}
        mentions = [h for h in mentions if h.paper.id not in answered]
        also = [(h, x) for h, x in also if h.paper.id not in answered]
        if not chosen:
            return self.refusal(plan.asked, REFUSAL, timings, t0, hits=retrieval.hits[: rs.top_k])
        several = not papers and (len(chosen) > 1 or plan.number == "many")
        if not papers and not several and plan.limits_of and len(chosen) == 1 \
                and states_phrase(plan.limits_of, f"{chosen[0].paper.title} {chosen[0].paper.label}"):
            # "What are the limitations of model soups?": the paper titled so is asked, as if named
            plan, papers = replace(plan, own_limits=True), [chosen[0].paper.id]
        t = time.perf_counter()
        sources = self._sources(plan, chosen, listing=several, named=bool(papers))
        timings.evidence = time.perf_counter() - t
        # who wrote a paper the question names, or one it describes ("who wrote the paper that
        # proposed green tokens for watermarking?"): from the records
        by_record = bool(papers) or described
        if plan.detail and plan.detail.kind == "authors" and by_record and all(h.paper.authors for h in chosen):
            return self._authors(plan, sources, retrieval, timings, t0)
        # the year a paper is from ("what year is ClimaX from?"): from the records too
        if plan.detail and plan.detail.year and by_record and all(h.paper.year for h in chosen):
            return self._authors(plan, sources, retrieval, timings, t0, year=True)
        # a yes/no question of one paper, named or the one a description finds, that no sentence of
        # its abstract bears on ("does Muse use classifier-free guidance?", "DANCE repo?") is not
        # answered by the collection, as a term no abstract mentions is not ("does PrefixRL use PPO?")
        polar_named = bool(papers) or described or (plan.polar and bool(plan.topic.described) and len(chosen) == 1)
        if not several and polar_named and (unheld := self._polar_unstated(plan, sources)):
            return self.refusal(plan.asked, unheld, timings, t0, hits=retrieval.hits[: rs.top_k])
        # "limitations of ChiPFormer?", "ViT-22B failure cases": an abstract that states no
        # limitation of the paper's own work does not answer them (the gap it addresses is the closest)
        if not several and polar_named and plan.own_limits and (unlimited := self._limits_unstated(sources)):
            return self.refusal(plan.asked, unlimited, timings, t0, hits=retrieval.hits[: rs.top_k])
        # "What theoretical guarantee does the LLM serving routing paper prove?": an abstract with no
        # sentence of its own work that states a proof, bound or guarantee does not answer it
        # (asked of a paper the question names or describes; a topic that itself asks for theory, "theory
        # of classifiers that ...", finds its papers by it and is not refused for one)
        if not several and not plan.polar and (bool(papers) or bool(plan.topic.described)) \
                and (unproved := self._role_unstated(plan, sources)):
            return self.refusal(plan.asked, unproved, timings, t0, hits=retrieval.hits[: rs.top_k])
        t = time.perf_counter()
        if several and len(sources) > 1:
            # "which papers ...": one line per paper on why it belongs, one sentence on what they share
            subject = plan.topic.text or plan.query
            prose = self.writer.write_kind("list", plan.query, subject, sources, on_token, stop)
            prose = replace(prose, text=list_lines(prose.sentences) if prose.text else "")
        else:
            prose = self.writer.write(plan.query, len(chosen) > 1, sources, on_token, stop)
        timings.generation = time.perf_counter() - t
        language = "" if plan.english else "question not in English: quoting each paper's main points"
        said = f"membership of {judged} borderline paper{'s' * (judged != 1)} judged by the LLM" if judged else ""
        note = "; ".join(x for x in (language, expansion, said, prose.note) if x)
        lead = "" if prose.text else lead_line(
            plan,
            sources,
            listing=several,
            # a detail of the paper described is asked of it as if named, and so is a yes/no
            # question of the one paper a description finds ("Does the input perturbation paper
            # reduce training time?": its verdict, not a quotation with none)
            named=polar_named,
            matched=matched,
            at_least=at_least,
            gist=lambda s: self.evidence.gist(s.hit.paper),
            sentences=lambda e: self.evidence.sentences(self.catalogue[e.paper_id])[0],
            move=lambda e: self.evidence.moves(self.catalogue[e.paper_id]).get(e.start, "unknown"),
            rank=self._rank_evidence,
            stating=self._stating,
            beside=lambda ask, source, chosen: sizes_beside(self.evidence, ask, source.hit.paper, chosen),
            scope=scope,
            role_row=self._row,
            senses=evidence_senses(self.evidence),
        )
        premise = ""
        if not several and len(sources) == 1 and plan.counts:
            # "Why did DANCE use 16 TAG datasets?": the abstract states 8; said first (rag.route.premise)
            paper = sources[0].hit.paper
            premise = contradicted_counts(plan.counts, strip_markup(paper.abstract), paper.label)
            lead = f"{premise}\n\n{lead}" if premise and lead else lead
        text = render(
            sources, prose.text, listing=several, matched=matched, at_least=at_least, lead=lead, scope=scope
        )
        if premise and not lead:
            text = f"{premise}\n\n{text}"
        if mentions:
            text += "\n\n" + self._mentions(plan, mentions)
        if left_out:
            text += f"\n\nLeft out as about {plan.topic.exclusion} ({len(left_out)}): " + ", ".join(
                h.paper.label for h in left_out
            ) + "."
        if partly:
            text += f"\n\n{partly}"
        if also:
            text += "\n\n" + "\n".join(f"{h.paper.label} also fits the description: “{x}”" for h, x in also)
        if unstated:
            text += f"\n\n{unstated}"
        if plan.trimmed:
            note = "; ".join(x for x in (note, plan.dropped or "question trimmed to its first part (too long)") if x)
        timings.total = time.perf_counter() - t0
        chosen_ids = {h.paper.id for h in chosen}
        ranked = chosen + [h for h in retrieval.hits if h.paper.id not in chosen_ids]
        return Answer(
            question=plan.asked,
            text=text,
            citations=[citation(s) for s in sources],
            hits=ranked[: max(10, len(chosen))],
            backend=prose.backend,
            note=note,
            invented_markers=prose.invented,
            claims=prose.claims,
            prompt_tokens=prose.prompt_tokens,
            matched=matched,
            matched_at_least=at_least,
            timings=timings,
            kind="list" if several else "answer",
            incomplete=prose.incomplete,
            lead=lead,
            usage=prose.usage,
        )

    def find(
        self, topic: Topic, retrieval: Retrieval, limit: int | None = None
    ) -> tuple[list[PaperHit], int, bool, list[PaperHit]]:
        """The papers that answer a question naming none.

        Args:
            topic: What they must be about (its facets, number, exclusion, artifact).
            retrieval: The retrieval of the topic.
            limit: Most papers chosen (default ``retrieval.max_set_size``; a table takes every
                member among the ``retrieval.candidates`` checked).

        Returns:
            ``(chosen, how many match, the count is a lower bound, left out by the exclusion)``;
            at most ``limit`` are chosen (the text says how many match).
        """
        found = self.found(topic, retrieval, limit)
        return found.chosen, found.matched, found.at_least, found.left_out

    @staticmethod
    def _states_contrary(plan: AskPlan, papers: Sequence[Paper]) -> bool:
        """Whether a yes/no question is answered by a sentence of one of ``papers``: one that states
        the contrary of an asked term (:func:`rag.route.lead.contrary_span`: "Does the cramming paper
        train on multiple GPUs?", "on a single consumer GPU": no), or one that states every asked
        term (:func:`rag.route.lead.term_span`: "does Cramming train on a single GPU?": yes). The
        slot its words also read ("train on" asks the data) is then no reason to refuse, the yes/no
        lead answers."""
        if not plan.polar or plan.polar_available or plan.polar_compared:
            return False
        return any(
            contrary_span(x.text, plan.polar_terms, plan.polar_compounds) is not None
            or (bool(plan.polar_terms) and term_span(x.text, plan.polar_terms) is not None)
            for p in papers for x in split_sentences(p.abstract)
        )

    def _limits_unstated(self, sources: Sequence[Source]) -> str:
        """The refusal of a question that asks one paper's own limitations when no sentence of its
        evidence (its limitation rows, else the gap it addresses, :meth:`_sources`) states one of
        its own work (:func:`rag.evidence.rows.states_own_limitation`, outside the gap): "The
        abstract of X does not state a limitation of its own; closest, the limitation of earlier
        work it addresses: “…”"; ``""`` when it states one, or several papers are asked."""
        if len(sources) != 1 or not sources[0].evidence:
            return ""
        s = sources[0]
        paper = s.hit.paper
        moves = self.evidence.moves(paper)
        if any(moves.get(e.start) != "gap" and states_own_limitation(e.sentence) for e in s.evidence):
            return ""
        said = f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state a limitation of its own"
        gap = next((e for e in s.evidence if moves.get(e.start) == "gap"), None)
        if gap is None:
            return f"{said}."
        closest = quoted(gap.sentence, key_clause(gap.sentence))
        return f"{said}; closest, the limitation of earlier work it addresses: {closest}."

    def _role_unstated(self, plan: AskPlan, sources: Sequence[Source]) -> str:
        """The refusal of a question that asks one paper a role every answer must state
        (:data:`rag.question.roles.REQUIRED_ROLES`: ``theory``, "What theoretical guarantee does
        X prove?", "what convergence guarantee does BLIP-2 prove?") when no sentence of its abstract
        plays that role as the paper's own (:meth:`_plays`): "The abstract of X does not state a
        theoretical result (a proof, a bound or a guarantee); closest: “…”" (its best evidence
        sentence); ``""`` when one does, the question asks another role too, a detail, or of
        several papers. The caller asks it only of a paper the question names or describes ("the
        LLM serving routing paper"), not of one a topic found."""
        asked = plan.ask.roles & set(REQUIRED_ROLES)
        if len(sources) != 1 or not asked or plan.ask.roles - asked or plan.detail or not sources[0].evidence:
            return ""
        role = next(iter(asked))
        paper = sources[0].hit.paper
        if self._plays(role, paper):
            return ""
        closest = max(sources[0].evidence, key=lambda e: e.score)
        said = quoted(closest.sentence, key_clause(closest.sentence))
        return (f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state "
                f"{ROLE_STATED.get(role, f'a {role} of its own')}; closest: {said}.")

    def _polar_unstated(self, plan: AskPlan, sources: Sequence[Source]) -> str:
        """The refusal of a yes/no question of one paper whose abstract does not bear on what is
        asked: an asked word is written nowhere in it, or no sentence makes an asked artifact
        available (:attr:`rag.route.lead.PolarVerdict.stated`), naming the paper and what it lacks;
        ``""`` when it bears on it, when the question asks more than the yes/no (its other parts are
        answered) or a paper's own limitations, or asks of several papers."""
        if not plan.polar or not plan.polar_terms or plan.own_limits or len(sources) != 1 or len(plan.aspects) > 1:
            return ""  # "does APM have any limitations?" is answered by its limitations, whatever the words
        s = sources[0]
        if not s.evidence:
            return ""
        verdict = polar_verdict(
            s, plan.polar_terms,
            lambda e: self.evidence.sentences(self.catalogue[e.paper_id])[0],
            lambda e: self.evidence.moves(self.catalogue[e.paper_id]).get(e.start, "unknown"),
            plan.polar_compared, plan.polar_available, plan.polar_absent, evidence_senses(self.evidence),
            plan.polar_comparative, plan.polar_compounds, plan.polar_choice, plan.polar_against, plan.polar_relating,
        )
        if verdict.stated:
            return ""
        paper = s.hit.paper
        return f"{REFUSAL} The abstract of {paper.label} ({paper.id}) does not state this: {verdict.unstated}."

    @staticmethod
    def _asks_beside(plan: AskPlan) -> bool:
        """Whether the question asks a detail beside other parts ("On which benchmark ..., and how
        many GPUs did it train on?"): a detail no abstract states is then said to be missing below
        the answer to the other parts, not a refusal of the whole question."""
        return plan.detail is not None and not plan.detail.only and len(plan.aspects) > 1

    @staticmethod
    def _asks_one(plan: AskPlan) -> bool:
        """Whether the question asks for one paper: the topic is read as one paper ("Which paper
        ..."), the question describes one ("the paper that ..."), or it refers to what it asks for by
        a singular pronoun ("Is there a paper that ..., and does it release code?"); never a question
        asking for several ("Which papers ... release code?")."""
        if plan.topic.number == "many":
            return False
        return plan.topic.number == "one" or any(r.kind in ("description", "pronoun") for r in plan.refs)

    def found(self, topic: Topic, retrieval: Retrieval, limit: int | None = None, *, peers: bool = False) -> Found:
        """:meth:`find`, with the papers that only mention the topic (:attr:`Found.mentions`).

        ``peers``: the question's frame names the papers asked for ("What work models ...", "I'm
        looking for work on ...", :attr:`rag.question.plan.AskPlan.seeks`), so a number left open
        may be several papers (:meth:`_peers`); a question about something of one paper ("What is
        the main finding of Forget Unlearning regarding ...?") keeps its most probable paper."""
        rs = self.settings.retrieval
        limit = limit or rs.max_set_size
        hits = retrieval.hits
        checked = hits[: rs.candidates]
        mentions: list[PaperHit] = []
        judged = 0
        if topic.about_links:
            # every hit is judged by what it states (:meth:`_with_code` added the papers retrieval missed)
            chosen = [h for h in hits if self._releases_code(h.paper, linked=topic.link_named)]
            chosen = chosen or [h for h in checked if h.paper.url]
            return Found(chosen[:limit], len(chosen), False, [], [])
        if topic.link_rest:
            # "Which papers on federated learning release code?": the papers clearly about the
            # topic (the membership model, as for "which papers are about federated learning?")
            # whose abstract makes their code available; the others on it are named apart
            scored = self.membership.members(
                topic.link_rest, (), checked, rs.mention_membership, True, written=retrieval.written
            )
            on_topic = [h for h, p in scored if p >= rs.set_membership]
            if retrieval.written:
                # a title that writes the topic's phrase names it, as for the same list without the
                # condition (Membership.titled): "FedBR: Improving Federated Learning on ..."
                pool = [*hits, *(h for h in retrieval.written if h not in hits)]
                on_topic += [h for h in self.membership.titled((topic.link_rest,), pool) if h not in on_topic]
            chosen = [h for h in on_topic if self._releases_code(h.paper, linked=topic.link_named)]
            return Found(
                chosen[:limit], len(chosen), False, [], [], without_code=len(on_topic) - len(chosen), on_topic=on_topic
            )
        shared_word: list[PaperHit] = []
        unmentioned: set[PaperHit] = set()  # papers that share a word of the topic's compound, in another sense
        described_scores: list[tuple[PaperHit, float]] = []  # the candidates' membership, for _also_fitting
        denied_owner = False  # the paper is the one whose own name the description is: no other fits
        if topic.artifact:
            # "Which papers release a new speech dataset": papers stating the artifact as their own
            # contribution, among those that state the rest of the topic ("speech").
            rest = topic.artifact_rest
            cov = self.retriever.coverages(rest, [h.paper.id for h in checked]) if rest else [1.0] * len(checked)
            members = [h for h, c in zip(checked, cov, strict=True) if c >= EXCLUSION_COVERAGE]
            members = self.membership.contributors(topic.artifact, members)
        else:
            many = topic.number == "many"
            named = compounds(topic) if many else []
            contrasted = against_terms(topic) if many else []
            floor = rs.mention_membership if many else 0.0
            # the topic with its acronyms written out is what the papers are judged against, as typed
            # one more reading of it (Topic.written): "LLM pruning" lists what "large language model
            # pruning" lists
            judged_as = topic.written or topic.text
            # a topic that says what the papers do is read as the noun phrase that names it too
            # (Topic.nominal): "detect out-of-distribution inputs" as "out-of-distribution detection"
            readings = (*topic.examples, *([topic.text] if judged_as != topic.text else []), *topic.nominal)
            written = retrieval.written if many else []
            scored = self.membership.members(judged_as, topic.facets, checked, floor, many, readings, written)
            if many and self.llm is not None and self.settings.llm.judge_borderline:
                scored, judged = self._judged(topic, scored)
            members = [h for h, p in scored if p >= rs.set_membership]
            if many:
                # a paper whose title names the topic's term is about it, however far its
                # sentences are from the question's description (Membership.titled), and however
                # far down retrieval ranks it: the candidate cap bounds what the model weighs, not
                # what a title states (GFlowNet titles at ranks 45 and 54 of "generative flow networks")
                # a title that names the noun phrase a verb topic stands for is one too
                # ("Out-of-Distribution Detection with ..." for "papers that detect out-of-distribution inputs")
                titled = self.membership.titled(
                    (*topic.named, *topic.nominal), [*hits, *(h for h in written if h not in hits)]
                )
                members += [h for h in titled if h not in members]
                # a compound the topic consists of ("score matching", "dataset distillation") is
                # stated as one phrase by a paper about it, not by its head word in another sense
                # ("induced matching", "knowledge distillation"): such a paper only mentions a word
                other = self.membership.other_sense(named, members, checked)
                # ... and a paper that writes the compound only as what it sets its own work
                # against or starts from ("outperforms graph Transformers", "Graph Transformer (GT)
                # recently has emerged as a new paradigm") only mentions it (Membership.set_against)
                # (named first among the mentions: they write the topic itself)
                against = [h for h in members if h not in other and self.membership.set_against(contrasted, h.paper)]
                members = [h for h in members if h not in other and h not in against]
                shared_word = [*against, *other]
                # a paper that writes the compound's words only in other senses ("double oracle",
                # "double-loop" for "double descent") does not mention it either: named nowhere
                unmentioned = set(other)
            whole = bool(topic.known_names) and all(n.whole for n in topic.known_names)
            names = [n for n in topic.known_names if whole or (many and n.searched)]
            if names:
                # a name the collection knows as an acronym and its long form ("Open Pretrained
                # Transformer", "OPT-175B"): a paper listed states it, in the sense asked, when the
                # topic is the name alone or the name was searched in both forms (its acronym has
                # other senses), and a topic that is a thing's name alone is about every paper that
                # does (Membership.stating). A name beside other words is otherwise no requirement:
                # "compress a model into a student through knowledge distillation" lists a paper
                # that distills without the term, "apply ML to chip design" one that never writes
                # "machine learning" (rag.acronyms.NAMED_THING_SHARE).
                members = [h for h in members if self.membership.states_names(names, h.paper)]
                if whole and all(n.rare for n in names):
                    # every paper that states the name, except one that writes it in another sense
                    # or only set against its own work (shared_word: Membership.set_against), among
                    # all retrieval found, not only the candidates the model weighs: "Which papers
                    # use generative flow networks?" lost Multi-Objective GFlowNets and "Biological
                    # Sequence Design with GFlowNets" (ranks 45 and 54), which "GFlowNet papers" lists
                    added = [h for h in hits if h not in members and self.membership.states_names(names, h.paper)]
                    against = [
                        h for h in added if h not in shared_word and self.membership.set_against(contrasted, h.paper)
                    ]
                    shared_word = [*against, *shared_word]
                    members += [h for h in added if h not in shared_word]
                scored = [(h, p) for h, p in scored if h in members or self.membership.states_names(names, h.paper)]
            described = None if many else self._described(topic, scored)
            by_clauses, stated_close = described if described is not None else (None, None)
            # the one paper whose own name it is; a subject's acronym several titles spell out
            # ("the NTK paper": "Neural Tangent Kernel Beyond ...", "A Neural Tangent Kernel
            # Perspective ...") is answered as a topic
            owners = self._owners(topic, checked) if not many and topic.described_name else []
            labelled = (owners[0], 0) if len(owners) == 1 else self._labelled(topic, scored) if not many else None
            denied_owner = len(owners) == 1
            described_scores = [] if many else list(scored)
            if labelled is not None:
                # "the finite-width NTK paper": the paper whose title states the description (Fast
                # Finite Width Neural Tangent Kernel), else whose own sentences do, before a more
                # probable one that states it in passing (RCIG, "a frozen finite-width neural
                # tangent kernel" of its method) or not at all; answered alone
                members, scored, by_clauses = [labelled[0]], [(labelled[0], 1.0)], None
            elif by_clauses is not None:
                members = [by_clauses, *(h for h in members if h is not by_clauses)]
            elif not many and members and topic.described:
                # "What languages does the low-resource speech synthesis paper support?": the
                # probable paper that states every part of the description (DGSA), before a more
                # probable one that states only some (Master-ASR: low-resource speech recognition)
                stating = self._stating_description(topic.described, scored)
                if stating is not None:
                    members = [stating, *(h for h in members if h is not stating)]
            if not many and members:
                # A description of one paper is answered by its most probable paper alone; another
                # joins it only when it is as clearly described (retrieval.description_membership)
                # and, for a description of several clauses (retrieval.description_fit_clauses), states
                # them nearly as well as the paper that states them best (retrieval.description_fit_share).
                members = members[:1] + [h for h, p in scored if h is not members[0] and p >= rs.description_membership]
                clauses = description_clauses(topic.text)
                if by_clauses is not None and members[0] is by_clauses and stated_close is not None:
                    # the paper that states the clauses clearly best (AnswerPipeline._stated_most) is
                    # answered alone, unless a probable one states them within the same lead of it
                    members = members[:1] + [h for h in members[1:] if h in stated_close]
                elif by_clauses is not None and len(members) > 1 and len(clauses) >= rs.description_fit_clauses:
                    fit = self.membership.clause_fit(clauses, members)
                    least = rs.description_fit_share * fit[0]
                    members = members[:1] + [h for h, f in zip(members[1:], fit[1:], strict=True) if f >= least]
                elif (
                    peers
                    and topic.number == "open"
                    and topic.ask.slot is None
                    and len(clauses) < rs.description_fit_clauses
                ):
                    # a topic that may ask for one paper or several; a slot asked ("how many tasks
                    # does it contain?") is asked of one paper, and a description in several
                    # clauses singles one out (retrieval.description_fit_clauses)
                    members += self._peers(topic, scored, members)
            # Below the answer's probability but above the floor of a mention: named after the
            # answer, not cited (the gold sets count a paper that is about the topic, not one
            # that mentions it).
            mentions = [h for h, p in scored if p < rs.set_membership and h not in members] if many else []
            if many:
                unmentioned |= set(self.membership.other_sense(named, mentions, checked))
                mentions = [*shared_word, *(h for h in mentions if h not in shared_word)]
                mentions = [h for h in mentions if h not in unmentioned]
        if topic.role and members:
            # "formal theoretical results such as proofs or guarantees": a paper answers with a
            # sentence of its own that plays the role (rag.evidence.roles), not by words near it
            members = [h for h in members if self._plays(topic.role, h.paper)]
        if topic.role_alone:
            # "Which papers prove something?", "formal theoretical results such as proofs or
            # guarantees": the role itself is asked, so every candidate with a sentence of its own
            # that plays it answers ("We first establish a theoretical lower bound on the sample
            # complexity", DoPR), whatever the model makes of its words' distance from the topic's,
            # except a paper that writes the topic's compound in another sense or only set against
            # its own work
            playing = [
                h for h in checked if h not in members and h not in shared_word and self._plays(topic.role, h.paper)
            ]
            members += playing
            mentions = [h for h in mentions if h not in playing]
        if topic.role and mentions:
            # ... and one whose words are only near enough to mention the topic answers by such a
            # sentence too: "We prove that the PrefixRL objective is ... more sample efficient" and
            # "We first establish a theoretical lower bound" state "theoretical guarantees or proofs"
            # in words of their own, as the role's cues read them, not the embedder; one that writes
            # the topic's compound in another sense or only set against its own work does not
            playing = [h for h in mentions if h not in shared_word and self._plays(topic.role, h.paper)]
            members += [h for h in playing if h not in members]
            mentions = [h for h in mentions if h not in playing]
        if topic.stages:
            # "SFT first and then RL": a paper that states the stages only side by side or
            # compared ("RL finetuning outperforms supervised finetuning") does not chain them
            # is named among the papers that mention the topic, not cited
            lexicon = self.retriever.lexicon
            apart = [h for h in members if side_by_side(topic.stages, self.evidence.sentences(h.paper)[0], lexicon)]
            members = [h for h in members if h not in apart]
            mentions = [*mentions, *apart] if topic.number == "many" else mentions
        # "watermarking language model outputs": DetectGPT detects machine text and writes "does
        # not require ... explicitly watermarking generated text"; a paper that states a word of the
        # topic only as what it does not do is neither about it nor a mention of it
        denied = (
            self._denied(topic, [*members, *mentions])
            | self._other_direction(topic, [*members, *mentions])
            | self._other_side(topic, [*members, *mentions])
            | self._other_sense(topic, [*members, *mentions])
            | self._named_only(topic, [*members, *mentions])
            | self._other_case(topic, [*members, *mentions], checked)
        )
        members = [h for h in members if h not in denied]
        mentions = [h for h in mentions if h not in denied]
        left_out = self._excluded(topic, members)
        members = [h for h in members if h not in left_out]
        if not members and not topic.artifact and topic.number != "many" and checked:
            # The topic passed the refusal policy: a question that does not ask for a set gets the
            # most relevant paper even when no candidate is clearly a member. (Skipping the papers
            # set aside as a name in another case or word here, as h63c tried for "does FLASH beat
            # Performer?", cost a held-out question about a named paper its answer: measured, not kept.)
            members = checked[:1]
        if topic.number == "one":
            members = members[:1]
        at_least = topic.number != "one" and more_may_match(len(members), len(checked), len(hits))
        # A question that excludes something ("outside of agent settings") names no mentions: they
        # are not checked against the exclusion.
        mentions = [] if topic.exclusion else mentions[: rs.max_mentions]
        # a description of one paper that another paper states about as well ("the paper that
        # trains a diffusion model on a single image": SinFusion, and SinDDM "a framework for
        # training a DDM on a single image"): the other is named, not silently left out
        also = (
            self._also_fitting(topic, described_scores, members)
            if topic.number != "many" and members and not denied_owner
            else []
        )
        found = Found(members[:limit], len(members), at_least, left_out, mentions if members else [], judged)
        found.also = [(h, x) for h, x in also if h not in denied]
        return found

    def _denied(self, topic: Topic, hits: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` with a word of the topic that every sentence of their abstract stating it
        negates, one of them in the paper's own words ("This approach, which we call DetectGPT,
        does not require ... or explicitly watermarking generated text"). A problem stated as a
        lack ("hindered by the lack of specialized resources", "without spoof supervision remains
        challenging") is what the paper addresses, not what it does without, and denies nothing; a
        word the topic itself negates or sets against ("LLM agents without fine-tuning", "papers
        that outperform GPT-3") is not checked."""
        terms = [
            t for t in topic.terms
            if (span := term_span(topic.text, [t])) is not None and not span[3]
            and not contrasted_by_word(topic.text, span, [t])
        ]
        return {h for h in hits if terms and self.denies(h.paper, terms)}

    def denies(self, paper: Paper, terms: Sequence[str]) -> bool:
        """Whether ``paper``'s abstract negates one of ``terms`` in every sentence that states it,
        one of them in the paper's own words (:meth:`_denied`; "and the watermark paper?" after
        DetectGPT, which "does not require ... explicitly watermarking generated text", is another
        paper: :meth:`rag.route.references.ReferenceResolver._described`)."""
        sentences = self.evidence.sentences(paper)[0]
        for t in terms:
            spans = [(x.text, sp) for x in sentences if (sp := term_span(x.text, [t])) is not None]
            if spans and all(sp[3] for _, sp in spans) and any(own_work(x, paper.label) for x, _ in spans):
                return True
        return False

    def _other_direction(self, topic: Topic, hits: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` about another direction than a directional compound of the topic
        (:attr:`Topic.directions`, :func:`rag.lexicon.other_direction`): "Make-An-Audio: Text-To-Audio
        Generation" and BLIP-2's "image-to-text" for "text-to-image generation"; a paper on
        speech-to-text translation for "speech-to-speech translation". Their words are the topic's
        ("text", "image", "generation"), so term coverage and the embedder put them close to it.
        A title that writes a compound sharing a word with the topic's says which direction the
        paper works in (Make-An-Audio's abstract writes "text-to-image" of other work); else the
        title and every sentence of the abstract are read."""
        return {h for phrase in topic.directions for h in hits if self._directed_otherwise(phrase, h.paper)}

    def _directed_otherwise(self, phrase: str, paper: Paper) -> bool:
        """Whether ``paper`` is about another direction than the directional compound ``phrase``
        ("text-to-image") and never states it (:meth:`_other_direction`, for one paper)."""
        compound = directions(phrase)[0]
        title = paper.title or ""
        own = any({s, t} & set(compound) for s, t in directions(title))
        texts = [title] if own else [title, *(x.text for x in self.evidence.sentences(paper)[0])]
        return other_direction(compound, phrase, texts)

    def other_way(self, description: str, paper: Paper) -> bool:
        """Whether ``paper`` works in another direction than a directional compound the
        ``description`` writes ("the speech-to-text paper": MCLP, a text-to-speech paper, whose
        words and embedding are the description's), so it is no paper described by it; ``False``
        when the description writes no such compound (:func:`rag.lexicon.directions`)."""
        words = [w.strip(",.;:?!()[]\"'“”") for w in description.split()]
        for phrase in (w for w in words if directions(w)):
            if self._directed_otherwise(phrase, paper):
                return True
            # the way round by another name: "speech synthesis" (DGSA) or "TTS" is text-to-speech
            back = reversed_direction(phrase)
            texts = [paper.title or "", *(x.text for x in self.evidence.sentences(paper)[0])]
            asked, turned = directions(phrase)[0], directions(back)[0]
            if not any(states_direction(asked, phrase, t) for t in texts) and any(
                states_direction(turned, back, t) for t in texts
            ):
                return True
        return False

    def _other_side(self, topic: Topic, hits: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` that take only a side opposite the one the topic asks
        (:attr:`Topic.stances`, :func:`rag.question.stances.opposed`): "Poisoning Generative Replay
        in Continual Learning" (an attack) for "papers that defend against data poisoning",
        "Make-An-Audio: Text-To-Audio Generation" for "detect machine-generated content". Their
        words are the topic's ("poisoning", "defenders"; "audio", "generated"), so the embedder and
        term coverage put them close; their own side is read from the title and the sentences that
        state their contribution (:meth:`rag.route.membership.Membership.sides`)."""
        if not topic.stances:
            return set()
        return {h for h in hits if opposed(topic.stances, self.membership.sides(h.paper))}

    def _other_sense(self, topic: Topic, hits: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` that write an acronym the topic names in another sense than the one asked
        (:attr:`Topic.known_names`, :func:`rag.acronyms.used_otherwise`): "RDP", whose abstract
        defines "dynamic programming (DP)", for "papers that use DP to train models". The paper's
        own long form or definition decides the sense, not the letters."""
        return {
            h for h in hits
            if any(used_otherwise(n, h.paper.title or "", h.paper.abstract) for n in topic.known_names)
        }

    def _named_only(self, topic: Topic, hits: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` named by an English word of the topic in capitals (their label, an alias or
        their title writes it so) whose title and abstract never write the word in lower case:
        DANCE (federated graph learning) for "which papers are about dance?", SWARM Parallelism for
        "papers on swarm intelligence", FOAM for "fluid foam dynamics", BEATs for "does FLASH beat
        Performer?". The letters are the topic's,
        so term coverage and BM25 count them; the paper states a name, not the word (LORIS, which
        writes "from dances to multiple sports", does)."""
        words = {t for t in topic.terms if t.isalpha() and english_word(t)}
        out: set[PaperHit] = set()
        for h in hits:
            p = h.paper
            own = " ".join((p.label, *p.aliases, p.title or ""))
            for t in words:
                # its plural written with a lower-case "s" is the name too ("BEATs" for "beat")
                if not re.search(rf"(?<![\w-]){t.upper()}s?(?![\w-])", own):
                    continue
                # "dances", "swarming"; a link's letters are no word ("https://aka.ms/beats")
                if not re.search(rf"(?<![\w-]){t}", without_links(f"{p.title or ''} {p.abstract}")):
                    out.add(h)
        return out

    @staticmethod
    def _other_case(topic: Topic, hits: Sequence[PaperHit], checked: Sequence[PaperHit]) -> set[PaperHit]:
        """The ``hits`` that write a name the question types in capitals only in another case, when
        a candidate writes it as typed (the names the question states, read by their case,
        :attr:`rag.types.SearchQuery.names`): "does FLASH beat Performer?" is asked of the paper
        that writes "The resulting model, named FLASH", not of the federated optimizer "Flash",
        whose title the word matches in any case. A name typed in capitals of at least
        :data:`rag.question.names.MIN_CASED` letters tells its sense by its case; with no candidate
        that writes it so, nothing is set aside (the question may have typed it loosely)."""
        out: set[PaperHit] = set()
        for name, ids in topic.search.names.items():
            letters = [c for c in name if c.isalpha()]
            if not ids or len(letters) < MIN_CASED or not name.isupper():
                continue
            if not any(h.paper.id in ids for h in checked):
                continue
            word = rf"(?<![\w-]){re.escape(name)}s?(?![\w-])"
            for h in hits:
                text = f"{h.paper.title or ''} {h.paper.abstract}"
                if h.paper.id not in ids and re.search(word, text, re.I) and not re.search(word, text):
                    out.add(h)
        return out

    def _plays(self, role: str, paper: Paper) -> bool:
        """Whether a sentence of ``paper``'s abstract plays ``role`` (``"theory"``:
        :func:`rag.evidence.roles.sentence_roles`) as the paper's own: not a background or gap
        sentence about the field ("Standard analyses give no guarantee"), unless the authors speak
        in it ("In this work, we provide a theoretical study"). Theory is played by a sentence
        that states a formal result (:func:`rag.evidence.roles.states_formal_result`: a proof, a
        bound, a guarantee), not by a word of theory a method or a result writes ("we can compute
        Bayes-optimal responses", "DANCE preserves provenance", "Grounded in ACT-R theory")."""
        return self._playing(role, paper) is not None

    def _playing(self, role: str, paper: Paper) -> Sentence | None:
        """The first sentence of ``paper``'s abstract that plays ``role`` as the paper's own
        (:meth:`_plays`), or ``None``."""
        moves = self.evidence.moves(paper)
        for x in self.evidence.sentences(paper)[0]:
            move = moves.get(x.start, "unknown")
            if (
                role in sentence_roles(x.text, move)
                and (role != "theory" or states_formal_result(x.text))
                and (move not in ("background", "gap") or FIRST_PERSON.search(x.text))
            ):
                return x
        return None

    def _excluded(self, topic: Topic, hits: Sequence[PaperHit]) -> list[PaperHit]:
        """The ``hits`` the question's exclusion puts out ("outside of agent settings"), in their
        order; none when it excludes nothing. One excluded word puts out a paper that states it
        (term coverage at least :data:`EXCLUSION_COVERAGE`); an excluded phrase ("not dataset
        distillation") one that states the phrase, not its words apart; either is stated by its
        glossary names too ("not about language models": a paper on "LLMs",
        :func:`rag.lexicon.glossary_forms`)."""
        words = topic.excluded
        if not topic.exclusion or not words or not hits:
            return []
        if topic.excluded_ids:
            # "other than DetectGPT": the papers the exclusion names, and those stating its words
            named_out = [h for h in hits if h.paper.id in topic.excluded_ids]
            rest_hits = [h for h in hits if h not in named_out]
            by_words = self._excluded(replace(topic, excluded_ids=()), rest_hits)
            return [h for h in hits if h in named_out or h in by_words]
        # "agents, but not GUI agents", "RL excluding offline RL": the excluded phrase repeats the
        # topic's words; a sentence that states its other words ("GUI", "offline") with those
        # ("VLM agents in mobile GUI navigation") states it, whatever stands between them
        # ("offline GUI navigation" does not state "offline RL")
        # the glossary's names of the excluded phrase, and theirs ("speech synthesis" is written
        # "text-to-speech", which is written "TTS": "Role-Play TTS" is speech synthesis)
        named = tuple(dict.fromkeys(f for g in glossary_forms(words) for f in (g, *glossary_forms(g)) if f != words))
        own = {term_key(t) for t in content_terms(topic.text)}
        rest = [w for w in words.split() if term_key(w) not in own]
        shared = " ".join(w for w in words.split() if term_key(w) in own)
        if rest and shared and all(content_terms(w) for w in rest):
            forms = (shared, *glossary_forms(shared))
            return [
                h for h in hits
                if any(
                    all(states_phrase(w, x.text) for w in rest) and any(states_phrase(f, x.text) for f in forms)
                    for x in self.evidence.sentences(h.paper)[0]
                ) or any(_states_excluded(f, h.paper.text_for_index) for f in named)
            ]
        if len(words.split()) > 1 or "-" in words:
            return [h for h in hits if any(_states_excluded(w, h.paper.text_for_index) for w in (words, *named))]
        cov = self.retriever.coverages(words, [h.paper.id for h in hits])
        return [
            h for h, c in zip(hits, cov, strict=True)
            if c >= EXCLUSION_COVERAGE or any(_states_excluded(w, h.paper.text_for_index) for w in named)
        ]

    def gathered(self, topic: Topic, retrieval: Retrieval, allowed: Collection[str] | None) -> Retrieval:
        """``retrieval`` with :attr:`rag.types.Retrieval.written`: for a topic asked as several
        papers that is one phrase ("federated learning", "bandits with knapsacks", the topic of "...
        on federated learning release code?"), every paper (within ``allowed``) whose title or
        abstract writes it that is not among the ``retrieval.candidates`` the membership model
        judges, so that a large topic is judged whole, not only the papers retrieval ranks first
        (FedBR, ProgFed and FedDisco write "federated learning" and were not among them), and the
        filters and the condition (code released) apply to all of it. None when more than
        ``retrieval.gather_written`` papers write it (a field, not a topic), or the topic is no phrase
        (one word; a description with facets; an artifact or code links, judged by what papers state)."""
        rs = self.settings.retrieval
        if topic.number != "many" or not rs.gather_written or topic.artifact or topic.about_links:
            return retrieval
        phrases = compounds(topic)
        if not phrases and not topic.facets and not topic.role:
            whole = topic.link_rest or topic.written or topic.text
            phrases = [whole] if 2 <= len(content_terms(whole)) <= GATHER_WORDS else []
        checked = {h.paper.id for h in retrieval.hits[: rs.candidates]}
        ids: dict[str, None] = {}
        for phrase in phrases:
            got = self.retriever.writing(phrase, rs.gather_written, allowed)
            ids.update(dict.fromkeys(pid for pid in got or () if pid not in checked))
        if not ids:
            return retrieval
        by_id = {h.paper.id: h for h in retrieval.hits}
        written = [by_id.get(pid) or PaperHit(self.catalogue[pid], 0.0) for pid in ids]
        return replace(retrieval, written=written)

    def _with_code(self, retrieval: Retrieval, allowed: Collection[str] | None) -> Retrieval:
        """``retrieval`` with every other paper (within ``allowed``) whose abstract makes its code
        available appended after its hits: a question that asks which papers release code, and little
        else, is answered by what the abstracts state, not by how close a sentence comes to the
        question's few words ("Our software and data are publicly available" shares none with
        "which papers release their code?"). The hits keep their order, the others the collection's."""
        got = {h.paper.id for h in retrieval.hits}
        more = [
            PaperHit(p, 0.0)
            for pid, p in self.catalogue.papers.items()
            if pid not in got and (allowed is None or pid in allowed)
            # the whole abstract first (cheap): a sentence that makes code available makes it so
            and ((p.url and is_code_link(p.abstract, p.url)) or availability_span(p.abstract, "code") is not None)
            and self._releases_code(p)
        ]
        return replace(retrieval, hits=[*retrieval.hits, *more]) if more else retrieval

    def _releases_code(self, paper: Paper, *, linked: bool = False) -> bool:
        """Whether ``paper`` makes its code available: a link to it in the abstract
        (:func:`store.papers.is_code_link`), or, unless ``linked`` (the question asks for the link
        itself), a sentence that says so without a link (:meth:`code_sentence`)."""
        if paper.url and is_code_link(paper.abstract, paper.url):
            return True
        return not linked and self.code_sentence(paper) is not None

    def code_sentence(self, paper: Paper, *, linked: bool = False) -> Sentence | None:
        """The sentence of ``paper`` that holds its code link, or, unless ``linked``, makes its code
        available without one ("Our software and data are publicly available", "We will release
        all code", :func:`rag.route.lead.availability_span`, not negated); ``None`` when none does."""
        sentences = self.evidence.sentences(paper)[0]
        if paper.url and is_code_link(paper.abstract, paper.url):
            written = written_url(paper.abstract, paper.url)  # "https://github. com/..." as the abstract has it
            found = next((x for x in sentences if written in x.text), None)
            if found is not None or linked:
                return found
        if linked:
            return None
        spans = ((x, availability_span(x.text, "code")) for x in sentences)
        return next((x for x, span in spans if span is not None and not span[3]), None)

    def _peers(
        self, topic: Topic, scored: Sequence[tuple[PaperHit, float]], members: Sequence[PaperHit]
    ) -> list[PaperHit]:
        """Candidates listed beside the most probable paper of a question that may ask for one paper or
        several ("I'm looking for work on speech synthesis", "What work models event data with Hawkes
        processes?"): each at least ``retrieval.description_peer_membership`` probable and stating at
        least ``retrieval.description_peer_coverage`` of the topic's terms. A description of one paper
        is stated by that paper alone; when others state it as plainly, the evidence does not single
        one out and they are listed too. Order: ``scored``'s; ``members`` are not repeated."""
        rs = self.settings.retrieval
        pool = [h for h, p in scored if p >= rs.description_peer_membership and h not in members]
        if not pool:
            return []
        cov = self.retriever.coverages(topic.text, [h.paper.id for h in pool])
        return [h for h, c in zip(pool, cov, strict=True) if c >= rs.description_peer_coverage]

    def _expanded(self, topic: Topic) -> Topic | None:
        """With an LLM and ``llm.expand_topics``, ``topic`` rewritten by the LLM in the words the
        abstracts use (:func:`rag.llm.expand.expand_topic`, cached per topic) when none of its content
        words is in any abstract and some of the rewrite's are; else ``None``."""
        if self.llm is None or not self.settings.llm.expand_topics or not topic.text:
            return None
        terms = content_terms(topic.text)
        if not terms or any(self.retriever.document_frequency(t) for t in terms):
            return None
        if topic.text not in self._expansions:
            temperature = self.settings.llm.temperature
            self._expansions[topic.text] = expand_topic(self.llm, topic.text, temperature=temperature)[0]
        text = self._expansions[topic.text]
        if not text or not any(self.retriever.document_frequency(t) for t in content_terms(text)):
            return None
        return self.reader.topic(text, number=topic.number)

    def _judged(
        self, topic: Topic, scored: Sequence[tuple[PaperHit, float]]
    ) -> tuple[list[tuple[PaperHit, float]], int]:
        """``scored`` with the borderline papers (probability within
        :data:`rag.llm.judge.BORDERLINE_BAND` of ``retrieval.set_membership``), closest to it
        first and at most ``llm.judge_borderline``, moved across the threshold as the LLM judges
        them against their best sentence for the topic (:func:`rag.llm.judge.judge_member`;
        verdicts cached by paper and topic); most probable first again. Also how many were judged."""
        assert self.llm is not None
        line = self.settings.retrieval.set_membership
        near = sorted(
            (i for i, (_, p) in enumerate(scored) if abs(p - line) <= BORDERLINE_BAND),
            key=lambda i: abs(scored[i][1] - line),
        )[: self.settings.llm.judge_borderline]
        out = list(scored)
        for i in near:
            hit, p = scored[i]
            key = (hit.paper.id, topic.text)
            if key not in self._verdicts:
                best = self.evidence.score(topic.ask, hit.paper)
                if not best:
                    continue
                verdict, _ = judge_member(
                    self.llm, topic.text, hit.paper.label, strip_markup(best[0].sentence),
                    temperature=self.settings.llm.temperature,
                )  # fmt: skip
                if verdict is None:
                    continue
                self._verdicts[key] = verdict
            out[i] = (hit, max(p, line) if self._verdicts[key] else min(p, math.nextafter(line, 0.0)))
        out.sort(key=lambda hp: -hp[1])
        return out, len(near)

    def _described(
        self, topic: Topic, scored: Sequence[tuple[PaperHit, float]]
    ) -> tuple[PaperHit, list[PaperHit] | None] | None:
        """The paper a description of several clauses means, or ``None`` for a description of one;
        with it, when it was chosen for stating more of the clauses than the paper chosen otherwise
        (:meth:`_stated_most`), the other candidates that state them about as well (else ``None``).

        Among the candidates whose membership probability is at least
        ``retrieval.description_clause_floor`` x the best one's, the paper whose sentences state
        the clauses best (:meth:`rag.route.membership.Membership.clause_fit`): a long description
        ("a task becomes visible only once its prerequisites are done; what can untrusted advice
        buy? lower and upper bounds") is met by one abstract clause by clause, while a neighbour
        that shares its subject words may score higher as a whole. The words decide against the
        cosines where they can: that paper does not replace the most probable one when the most
        probable one writes every word of the description it writes, and more
        (:meth:`~rag.protocols.Retriever.coverages` of each word: its stem, the glossary's senses);
        where each writes a word the other does not ("validator" against "reinforcement"), or a
        description is in other words than either abstract's, the clauses decide. Then a candidate
        further down retrieval that states the clauses clearly better in sentences and words of its
        own replaces it (:meth:`_stated_most`).
        """
        clauses = description_clauses(topic.text)
        if len(clauses) < 2 or not scored:
            return None
        chosen = self._fitting(topic, clauses, scored)
        stated = self._stated_most(clauses, scored, chosen) if topic.describing else None
        return stated if stated is not None else (chosen, None)

    def _fitting(self, topic: Topic, clauses: Sequence[str], scored: Sequence[tuple[PaperHit, float]]) -> PaperHit:
        """The close candidate (``retrieval.description_clause_floor``) that states the clauses best
        as the embedder reads them, unless the words decide against it (:meth:`_described`)."""
        top = scored[0][1]
        near = [h for h, p in scored if p >= self.settings.retrieval.description_clause_floor * top]
        fit = self.membership.clause_fit(clauses, near)
        best = near[int(fit.argmax())]
        first = scored[0][0]
        if best is first:
            return best
        pair = [best.paper.id, first.paper.id]
        stated = [self.retriever.coverages(t, pair) for t in dict.fromkeys(content_terms(topic.text))]
        mine = {i for i, (m, _) in enumerate(stated) if m > 0}
        theirs = {i for i, (_, t) in enumerate(stated) if t > 0}
        if mine < theirs:
            # the words decide against the cosines: a neighbour whose sentences sit closer to the
            # clauses but never write a word of the description that the more probable paper
            # writes is not the paper described ("connects MPNNs with virtual nodes to graph
            # transformers": DRew writes no "virtual", On the Connection Between MPNN and Graph
            # Transformer writes "MPNN with virtual node"; nu59)
            return first
        return best

    def _stated_most(
        self, clauses: Sequence[str], scored: Sequence[tuple[PaperHit, float]], chosen: PaperHit
    ) -> tuple[PaperHit, list[PaperHit]] | None:
        """The candidate whose abstract states more of a description of one paper, clause by clause,
        than ``chosen`` does by at least ``retrieval.description_statement_lead``
        (:meth:`_clause_statement`), or ``None``. Looked for among the first
        ``retrieval.description_statement_pool`` candidates by retrieval whose membership probability
        is at least ``retrieval.description_statement_floor`` x the best one's: a paper ranked lower
        as a whole whose sentences state each clause (a new quantity the bounds depend on, lower
        bounds that match them) is the one described, not a more probable neighbour that states its
        subject (regret bounds of that kind) and little of the rest. Only for a message that
        describes the paper it is after (:attr:`rag.question.plan.Topic.describing`): "is the validator
        trained with reinforcement learning?" asks of a thing, and its words (DoPR "validate[s]" with
        "training instances") are no description of DoPR. With it, the others of the pool
        that state the description within the same lead of it (the answer names it alone unless
        one of them is also probable enough to join it, :meth:`found`)."""
        rs = self.settings.retrieval
        top = max(p for _, p in scored)
        pool = [h for h, p in sorted(scored, key=lambda hp: -hp[0].score)[: rs.description_statement_pool]
                if p >= rs.description_statement_floor * top]
        if chosen not in pool:
            pool.append(chosen)
        if len(pool) < 2:
            return None
        stated = self._clause_statement(clauses, pool)
        best = int(stated.argmax())
        lead = rs.description_statement_lead
        if pool[best] is chosen or stated[best] - stated[pool.index(chosen)] < lead:
            return None
        close = [h for h, x in zip(pool, stated, strict=True) if h is not pool[best] and x > stated[best] - lead]
        return pool[best], close

    def _clause_statement(self, clauses: Sequence[str], hits: Sequence[PaperHit]) -> np.ndarray:
        """How much of each clause of a description each hit's abstract states: per clause, the best
        sentence's cosine to it plus ``retrieval.description_statement_words`` x the IDF-weighted share
        of the clause's words the same sentence writes (:meth:`rag.route.refusal.RefusalPolicy.word_shares`;
        the title counts for its words alone); the mean over the clauses (each weighing the same: the
        words' IDF already weighs inside a clause) blended with the clause it states worst
        (:data:`WEAKEST_CLAUSE`). A paper that states every clause is ahead of one that states one
        clause very well and another not at all.

        Returns:
            ``(len(hits),)`` float; 0 for a hit whose abstract has no sentences.
        """
        if not hits or not clauses:
            return np.zeros(len(hits))
        words = self.settings.retrieval.description_statement_words
        cvecs = self.retriever.query_vectors(list(clauses))
        self.evidence.warm([h.paper for h in hits])
        out = []
        for h in hits:
            sents, vecs = self.evidence.sentences(h.paper)
            if not len(sents):
                out.append(0.0)
                continue
            shares = self.refusals.word_shares(clauses, [h.paper.title or "", *(x.text for x in sents)])
            per = np.maximum((vecs @ cvecs.T + words * shares[1:]).max(axis=0), words * shares[0])
            out.append(float((1 - WEAKEST_CLAUSE) * per.mean() + WEAKEST_CLAUSE * per.min()))
        return np.array(out)

    def _also_fitting(
        self, topic: Topic, scored: Sequence[tuple[PaperHit, float]], members: Sequence[PaperHit]
    ) -> list[tuple[PaperHit, str]]:
        """The other papers a description of one paper fits about as well as the answered ones
        ``members``, each with the sentence of its own that states the description's first clause.

        A candidate of ``scored`` (``(hit, membership probability)``, most probable first) fits
        when its probability is at least ``retrieval.description_clause_floor`` x the best one's
        (the share within which :meth:`_described` weighs a description clause by clause), its
        abstract states every word of the description (:data:`DESCRIPTION_STATED`) and a
        sentence of its abstract states each clause of it
        (:func:`rag.question.parts.description_clauses` of :attr:`Topic.described`, else of the
        topic; :meth:`rag.route.refusal.RefusalPolicy.sentence_states`: close to the clause and
        stating its specific words, in its words or others). "the paper that trains a diffusion
        model on a single image": SinFusion is answered (0.93), and SinDDM (0.71, "we introduce a
        framework for training a DDM on a single image") fits as well; a neighbour that states the
        subject but not every clause ("Identifiability of Label Noise Transition Matrix" for
        "estimates the transition matrix for tasks with lower-quality features") does not, and
        neither does one far less probable. At most :data:`ALSO_FITTING` papers, most probable first.
        """
        if not scored:
            return []
        text = topic.described or topic.text
        clauses = description_clauses(text)
        if not clauses:
            return []
        top = scored[0][1]
        floor = self.settings.retrieval.description_clause_floor * top
        near = [h for h, p in scored if p >= floor and h not in members]
        if not near:
            return []
        # every word of the description stated somewhere in the abstract, as the paper answered
        # first must (DESCRIPTION_STATED): "simple diffusion" states "diffusion" and "image" in a
        # sentence close to "trains a diffusion model on a single image", never "single"
        cov = self.retriever.coverages(text, [h.paper.id for h in near])
        near = [h for h, c in zip(near, cov, strict=True) if c >= DESCRIPTION_STATED]
        if not near:
            return []
        cvecs = self.retriever.query_vectors([*clauses, text])
        # each paper's sentences are embedded when first read below (one call per paper, as warm
        # does), so none past the last one looked at is embedded
        out: list[tuple[PaperHit, str]] = []
        for h in near:
            sents, vecs = self.evidence.sentences(h.paper)
            if not len(sents):
                continue
            sims = vecs @ cvecs.T
            if all(self.refusals.sentence_states(c, sents, vecs, sims, j, {}) for j, c in enumerate(clauses)):
                # quoted with the sentence the answer would quote for it on this topic, else its
                # sentence closest to the whole description
                best = self.evidence.score(topic.ask, h.paper)
                quote = best[0].sentence if best else sents[int(sims[:, -1].argmax())].text
                out.append((h, strip_markup(quote)))
            if len(out) == ALSO_FITTING:
                break
        return out

    def owns(self, paper: Paper, name: str, longs: Sequence[str] = ()) -> bool:
        """Whether ``name`` is ``paper``'s own: its label or an alias, a word of its title
        ("Machiavelli" of "... in the Machiavelli Benchmark", or one of ``longs``, the long forms
        of the acronym the collection knows: "Neural Tangent Kernel" for NTK), the name of its
        code's repository ("PhysLogic" of ".../ScienceOne-AI/PhysLogic"), or the name its abstract
        gives its work (:func:`rag.evidence.selector.defines_name`: "a Test-Time Adaptation
        Benchmark, dubbed TTAB"); a paper that only mentions it ("soft prefixes or LoRA
        parameters") does not own it."""
        key = letters_digits(name)
        if key in {letters_digits(x) for x in (paper.label, *paper.aliases) if x}:
            return True
        title = paper.title or ""
        if writes_name(title, name) or any(states_phrase(x, title) for x in longs):
            return True
        if paper.url and key in {letters_digits(x) for x in paper.url.split("/")}:
            return True  # the name of its own code: "https://github.com/ScienceOne-AI/PhysLogic"
        return writes_name(paper.abstract, name) and defines_name(strip_markup(paper.abstract), name)

    def name_papers(self, name: str, *, framed: bool = False) -> tuple[list[Paper], list[Paper]]:
        """``(owners, writers)`` of a name over the whole collection: the papers whose own name it is
        (:meth:`owns`), and those whose title or abstract writes it
        (:func:`rag.route.refusal.writes_name`), in collection order. A name no paper owns that one
        paper alone writes at least :data:`SUBJECT_MENTIONS` times is that paper's subject when a
        paper is asked for (``framed``: "the SAT paper"), and it is then its owner; a name asked
        bare ("compared with Shampoo") is owned only as :meth:`owns` says.

        Args:
            name: The name as the question writes it ("AlphaFold", "Adam", "GPT-4").
            framed: The question asks for "the <name> paper" rather than naming the thing.
        """
        low = name.lower()
        near = [p for p in self.retriever.papers.values() if low in p.text_for_index.lower()]
        owners = [p for p in near if self.owns(p, name)]
        writers = [p for p in self.retriever.papers.values() if writes_name(p.text_for_index, name)]
        subject = len(writers) == 1 and _mentions(writers[0].text_for_index, name) >= SUBJECT_MENTIONS
        if not owners and framed and subject:
            owners = writers
        return owners, writers

    def mention_lines(self, name: str, papers: Sequence[Paper], k: int = 3) -> str:
        """The first ``k`` of ``papers`` as ``Label (id): “the sentence that writes name”``, joined by
        ``"; "``: who mentions a name no paper owns, and how."""
        lines = []
        for p in papers[:k]:
            sentence = next((x.text for x in self.evidence.sentences(p)[0] if writes_name(x.text, name)), "")
            lines.append(f"{p.label} ({p.id})" + (f": “{strip_markup(sentence)}”" if sentence else ""))
        return "; ".join(lines)

    def _owners(self, topic: Topic, hits: Sequence[PaperHit]) -> list[PaperHit]:
        """The ``hits`` whose own name :attr:`Topic.described_name` is (:meth:`owns`)."""
        name = topic.described_name
        longs = [n.long for n in topic.known_names if letters_digits(n.short) == letters_digits(name).removesuffix("s")]
        return [h for h in hits if self.owns(h.paper, name, longs)]

    def _unowned(self, topic: Topic, retrieval: Retrieval, *, framed: bool = True) -> str:
        """The refusal for a paper described by a name alone ("the LoRA paper", "the GPT-4
        paper") when no paper of the collection owns that name (:meth:`owns`), or ``""``: the
        papers that mention it are named with the sentence that does, not answered as if they
        were the paper. A name no paper owns that one paper alone writes, as its subject (at least
        :data:`SUBJECT_MENTIONS` times: "the SAT paper" of the one paper on Boolean satisfiability,
        which writes SAT three times), is that paper's; one mention in passing is not ("the LoRA
        paper": HyperTuning "produces soft prefixes or LoRA parameters"). ``framed``: the question
        asks for "the <name> paper"; otherwise it asks the name alone ("What does Imagen do?",
        :func:`name_asked`), and is refused as "No paper in the collection is Imagen"."""
        name = topic.described_name
        if self._owners(topic, retrieval.hits):
            return ""
        every = [PaperHit(p, 0.0) for p in self.retriever.papers.values() if name.lower() in p.text_for_index.lower()]
        if self._owners(topic, every):
            return ""
        writers = [p for p in self.retriever.papers.values() if writes_name(p.text_for_index, name)]
        if len(writers) == 1 and _mentions(writers[0].text_for_index, name) >= SUBJECT_MENTIONS:
            return ""  # "the SAT paper": the one paper that writes SAT, its subject, is the paper on SAT
        mentioning = [h.paper for h in retrieval.hits[:NEAR_COVERAGE] if writes_name(h.paper.text_for_index, name)]
        what = f"the {name} paper" if framed else name
        said = f"{REFUSAL} No paper in the collection is {what}: no title or name of its own work is {name}"
        if not mentioning:
            return f"{said}, and no abstract mentions it."
        lines = []
        for p in mentioning[:3]:
            sentence = next((x.text for x in self.evidence.sentences(p)[0] if writes_name(x.text, name)), "")
            lines.append(f"{p.label} ({p.id})" + (f": “{strip_markup(sentence)}”" if sentence else ""))
        return f"{said}; abstracts that mention it: " + "; ".join(lines)

    def _labelled(self, topic: Topic, scored: Sequence[tuple[PaperHit, float]]) -> tuple[PaperHit, int] | None:
        """The paper a short description of one paper labels ("the finite-width NTK paper", "the
        TTA benchmark paper"), with how (0: its title states the description, 1: a sentence of its
        own work does), or ``None``: among the candidates ``scored`` (most probable first), the
        first whose title states it, else the first with a sentence saying what it proposes
        (:func:`rag.evidence.roles.proposes`: "we present a large-scale Test-Time Adaptation
        Benchmark") that states it; a result that states it in passing ("on a sparse attention
        benchmark our kernel is faster") does not. Stated as a phrase, at most
        :data:`LABEL_GAP` words between its words (:func:`rag.lexicon.states_phrase`), an acronym
        the collection knows also in its long form ("NTK": "Neural Tangent Kernel";
        :attr:`rag.question.plan.Topic.known_names`): "protein ... folds" states no "protein
        folding". Descriptions of at least :data:`LABEL_MIN_TERMS` and at most
        :data:`LABEL_MAX_TERMS` content words."""
        terms = content_terms(topic.described)
        if not LABEL_MIN_TERMS <= len(terms) <= LABEL_MAX_TERMS or not scored:
            return None
        known = {n.short.lower(): n.long for n in topic.known_names}
        # the description with each acronym the collection knows spelled out: "finite-width neural
        # tangent kernel" for "finite-width NTK"
        spelled = " ".join(known.get(w.lower()) or known.get(w.lower().removesuffix("s")) or w
                           for w in topic.described.split())

        def states(text: str) -> bool:
            return any(states_phrase(x, text, gap=LABEL_GAP) for x in {topic.described, spelled})

        for h, _ in scored:
            if states(f"{h.paper.title or ''}"):
                return h, 0
        for h, _ in scored:
            if any(proposes(x.text) and states(x.text) for x in self.evidence.sentences(h.paper)[0]):
                return h, 1
        return None

    def _stating_description(self, described: str, scored: Sequence[tuple[PaperHit, float]]) -> PaperHit | None:
        """The most probable paper among ``scored`` (``(hit, membership probability)``, most
        probable first) within ``retrieval.description_clause_floor`` of the best one's probability
        whose abstract states every part of ``described`` (:data:`DESCRIPTION_STATED`,
        :meth:`rag.index.retrieve.HybridRetriever.coverages`); ``None`` when none does."""
        if not scored:
            return None
        top = max(p for _, p in scored)
        near = [h for h, p in scored if p >= self.settings.retrieval.description_clause_floor * top]
        cov = self.retriever.coverages(described, [h.paper.id for h in near])
        return next((h for h, c in zip(near, cov, strict=True) if c >= DESCRIPTION_STATED), None)

    def _mentions(self, plan: AskPlan, mentions: Sequence[PaperHit]) -> str:
        """The papers that mention the topic without being clearly about it (:attr:`Found.mentions`),
        counted apart from the answer: one line each with the sentence that mentions it, no citation."""
        ask = plan.topic.ask if plan.topic.text and plan.english else main_points()
        lines = [mention_head(len(mentions))]
        for h in mentions:
            best = self.evidence.score(ask, h.paper)
            quote = f" — {quoted(best[0].sentence, key_clause(best[0].sentence))}" if best else ""
            lines.append(f"- **{h.paper.label}**{quote}")
        return "\n".join(lines)

    def _stating(self, ask: Ask, source: Source) -> tuple[Evidence, tuple[int, int, bool]] | None:
        """The sentence of ``source``'s abstract that states ``ask``'s slot best (one about the
        paper's own work before one of its background or gap, which states the field's or prior
        work's figures: "the largest large language models (LLMs) contain upwards of 100B
        parameters" is no size of ViT-22B; then the most of its terms; the better scored among
        equals) with the clauses that state it, added to the source's evidence; ``None`` when no
        sentence states it (:func:`rag.route.slot.slot_span`)."""
        found = stating_sentence(self.evidence, ask, source.hit.paper)
        if found is None:
            return None
        e, span = found
        if all(x.start != e.start for x in source.evidence):
            source.evidence = sorted([*source.evidence, e], key=lambda x: x.start)
        return e, span

    def _rank_evidence(self, ask: Ask, source: Source) -> list[Evidence]:
        """``source``'s evidence sentences scored against ``ask`` (one part of a question), best first."""
        quoted = {e.start for e in source.evidence}
        return [e for e in self.evidence.score(ask, source.hit.paper) if e.start in quoted]

    def _member_quote(self, plan: AskPlan, ask: Ask, paper: Paper, qvec: np.ndarray) -> Evidence | None:
        """The sentence a list quotes for ``paper``: for "papers that introduce a dataset", the
        sentence that made it a member (:meth:`rag.route.membership.Membership.contribution`); for
        a topic that asks a role alone ("formal theoretical results"), the sentence of its own that
        plays it (:meth:`_playing`); else the sentence that states the topic as the paper's own work."""
        if plan.topic.artifact:
            x = self.membership.contribution(plan.topic.artifact, paper)
            if x is not None and not isinstance(x, str):
                return Evidence(paper.id, x.text, x.start, x.end, 1.0)
        if plan.topic.role_alone:
            # "Which papers prove something?": the sentence of its own that states a formal result
            # (AnswerPipeline._playing), which made it a member, not one near the topic's words
            x = self._playing(plan.topic.role, paper)
            if x is not None:
                return Evidence(paper.id, x.text, x.start, x.end, 1.0)
        if plan.topic.about_links or plan.topic.link_rest:
            # "Which papers release code?": the sentence that holds its link or makes it available
            x = self.code_sentence(paper, linked=plan.topic.link_named)
            if x is not None:
                return Evidence(paper.id, x.text, x.start, x.end, 1.0)
        own = self.evidence.own_statement(ask, paper, qvec)
        named = against_terms(plan.topic) if plan.topic.number == "many" else []
        if own is not None and named and self.membership.states_as_others(named, paper, own):
            # "outperforming GT on ... LRGB" sets graph transformers against the paper's own work;
            # a sentence of its own that writes them ("we study the inverse connection and show
            # that MPNN with virtual node ... approximate the self-attention layer of GT") says
            # what it does with them (Membership.own_quote)
            own = self.membership.own_quote(named, paper, self.evidence.score(ask, paper, qvec)) or own
        names = [n for n in plan.topic.known_names if n.searched or n.whole]
        if names and (own is None or not self.membership.states_names(names, paper, own.sentence)):
            # "Which papers use the Open Pretrained Transformer models?": the sentence that states
            # the name ("the inference latency of OPT-175B"), not one near the words of its long form
            x = self.membership.stating(names, paper)
            if x is not None and not isinstance(x, str):
                # of the sentences that state it, one of the paper's own work before the field's
                # ("Symbolic regression (SR) is the problem of learning a symbolic expression ...")
                field = _field(self.evidence, paper)
                if x.start in field:
                    # ... and where only the field states it (HieRD: "Knowledge distillation is
                    # crucial for compressing large Vision–Language Models (VLMs)"), the paper's
                    # own statement of the topic
                    x = next(
                        (
                            y for y in self.evidence.sentences(paper)[0]
                            if y.start not in field and self.membership.states_names(names, paper, y.text)
                        ),
                        None if own is not None and own.start not in field else x,
                    )
                if x is None:
                    return own
                return Evidence(paper.id, x.text, x.start, x.end, 1.0)
        term = plan.topic.text.strip(" ?.!")
        if plan.topic.number == "many" and own is not None and term in plan.coined and not states_phrase(
            term, own.sentence
        ):
            # "Which papers use data2vec?": the sentence that writes the name the topic is ("we present
            # data2vec, a framework ..."), not the one nearest the question's embedding ("Experiments
            # on the major benchmarks of speech recognition, ...")
            x = self._writing(term, paper)
            if x is not None:
                return Evidence(paper.id, x.text, x.start, x.end, 1.0)
        return own

    def _writing(self, term: str, paper: Paper) -> Sentence | None:
        """The first sentence of ``paper``'s own work that writes ``term``
        (:func:`rag.lexicon.states_phrase`), not of the field it starts from (its background, gap
        or preamble, :meth:`rag.evidence.selector.EvidenceSelector.moves`); ``None`` when none does."""
        field = _field(self.evidence, paper)
        return next(
            (y for y in self.evidence.sentences(paper)[0] if y.start not in field and states_phrase(term, y.text)),
            None,
        )

    def _sources(
        self, plan: AskPlan, chosen: list[PaperHit], *, listing: bool, named: bool = True
    ) -> list[Source]:
        """Number the chosen papers and pick each one's evidence sentences.

        A paper the question did not name, and a paper asked about as a whole (a summary, or its
        problem and its method), also quotes the sentence that says what it does (its gist), so the
        reader knows which paper answers and what it proposes.
        """
        ask = (plan.topic.ask if plan.topic.text else main_points()) if listing else plan.ask
        if not plan.english or not ask.text:
            ask = main_points()
        if not listing and not plan.seeks and ask.matching != ask.text and content_terms(ask.matching):
            # "Which commercial systems does the Lao speech synthesis paper beat?": the phrase that
            # only says which paper it is would pick the sentence restating it; what is asked of
            # the paper picks the evidence ("outperforms strong commercial systems, including ...").
            # A message that only seeks the paper it describes ("the work that reframes ..., with
            # losses over pairs") asks nothing else: its leftover words are the description's.
            ask = replace(ask, text=ask.matching)
        qvec = self.retriever.query_vectors([ask.text])[0]
        per = 1 if listing else self.settings.answer.evidence_per_paper
        if not listing and (plan.ask.summary or ask.summary or len(ask.roles) >= 2):
            per += 2 if plan.ask.summary else 1
        if listing:
            # Each listed paper is quoted with the sentence that states the topic as its own work,
            # never one that describes the field it starts from (EvidenceSelector.own_statement).
            stating = [self._member_quote(plan, ask, h.paper, qvec) for h in chosen]
            sources = [Source(i + 1, h, [e] if e else []) for i, (h, e) in enumerate(zip(chosen, stating, strict=True))]
        else:
            clauses: list[str] = []
            if not named:
                # A paper described, not named ("that paper recasting X as Y, with losses over
                # pairs or lists"): each clause of the description (of each of its parts) may be
                # stated by another sentence, and the reader checks the paper by all of them.
                clauses = [c for part in ask.parts or (ask,) for c in description_clauses(part.text)]
                if len(clauses) > 1 and not ask.parts:
                    ask = replace(ask, parts=tuple(read_ask(c) for c in clauses))
                    per = max(per, min(len(clauses), self.settings.answer.description_clauses))
                elif len(clauses) <= 1:
                    clauses = []
            sources = [
                Source(i + 1, h, self.evidence.select(ask, h.paper, k=per, qvec=qvec)) for i, h in enumerate(chosen)
            ]
            for s in sources if clauses else []:
                # and the sentence closest to each clause, whatever the question as a whole scores it
                have = {e.start for e in s.evidence}
                near = [e for e in self.evidence.closest(s.hit.paper, clauses) if e.start not in have]
                s.evidence = sorted([*s.evidence, *near], key=lambda e: e.start)
            amounts = [a for a in plan.aspects if a.amount] if len(plan.aspects) > 1 else [plan.ask] * plan.ask.amount
            for part in amounts:
                # "what accuracy does model soups reach?", "What speed-up does it report, and on which
                # model?": an amount asked is answered by a sentence with a figure ("show a 2X-3X
                # acceleration"), the one of the abstract closest to what is asked, when the evidence
                # chosen for the whole question holds none
                for s in sources:
                    if any(number_span(e.sentence) for e in s.evidence):
                        continue
                    scored = self.evidence.score(part, s.hit.paper)
                    figured = next((e for e in scored if number_span(e.sentence)), None)
                    if figured is not None:
                        s.evidence = sorted([*s.evidence, figured], key=lambda e: e.start)
        if plan.own_limits and named and not listing:
            # "what are its limitations?": the limitation the abstract states of the paper's own
            # work, else the gap it addresses (the lead says which, :func:`rag.route.lead.lead_line`).
            for s in sources:
                paper = s.hit.paper
                own = select_rows(self.evidence, paper, [LIMITATIONS])["limitations"]
                moves = self.evidence.moves(paper)
                gap = [e for e in self.evidence.score(plan.ask, paper) if moves.get(e.start) == "gap"]
                gap = gap[: evidence_settings(self.evidence).gap_unit]  # a limitation not stated: the gap it addresses
                s.evidence = sorted(own or gap or s.evidence, key=lambda e: e.start)
            return sources
        if plan.detail and not listing:
            # "how big is the Agent-Omit model?", "what license will the kernels be released under?"
            # reach here only when the abstract states the detail (rag.route.refusal): the sentences
            # stating it answer, whatever their cosine to the question.
            for s in sources:
                stated = [e for e in self.evidence.score(plan.ask, s.hit.paper) if _states_detail(plan, e)]
                s.evidence = sorted(stated[:2], key=lambda e: e.start) or s.evidence
        # a question in another language is read for its names alone: the paper is answered whole
        whole = plan.ask.summary or {"problem", "method"} <= plan.ask.roles or not plan.english
        # A paper the question describes rather than names ("is there work on telling generated
        # graphs from real ones?") is answered with what it proposes, whole: the reader checks the
        # description against the paper's own statement of its work, which carries what a
        # description leaves out (its name, its setting, its scenarios).
        described = not named and not listing and plan.detail is None
        for s in sources:
            # A list entry whose label is only the abstract's opening words says what the paper does,
            # so the reader can tell the papers apart.
            wanted = has_opening_label(s.hit.paper) if listing else (not named or whole)
            gist = self.evidence.gist(s.hit.paper) if wanted else None
            if gist is None:
                continue
            # A paper asked about as a whole also quotes how its approach works (the sentences that
            # elaborate its proposal: stages, components, training).
            unit = [gist]
            if (whole or described) and not listing:
                unit += self.evidence.elaboration(s.hit.paper, gist)
            have = {e.start for e in s.evidence}
            s.evidence = sorted([*s.evidence, *(e for e in unit if e.start not in have)], key=lambda e: e.start)
        return sources

    def _authors(
        self, plan: AskPlan, sources: list[Source], retrieval: Retrieval, timings: Timings, t0: float,
        *, year: bool = False,
    ) -> Answer:
        """Who wrote the named papers, or (``year``) the year each is from, from their records
        (abstracts never say): one line each, then what the paper does, quoted."""
        lines = []
        for s in sources:
            paper = s.hit.paper
            if year:
                venue = f" ({paper.venue} {paper.year})" if paper.venue else ""
                lines.append(f"{paper.label} {format_marker(s.number)} is from {paper.year}{venue}, from its record.")
                continue
            names = ", ".join(paper.authors)
            when = f" ({paper.year})" if paper.year else ""
            lines.append(f"{paper.label} {format_marker(s.number)} is by {names}{when}, from its record.")
        text = render(sources, " ".join(lines), listing=False, matched=len(sources))
        lead = " ".join(lines)
        timings.total = time.perf_counter() - t0
        return Answer(
            question=plan.asked,
            text=text,
            citations=[citation(s) for s in sources],
            hits=[s.hit for s in sources] + [h for h in retrieval.hits if h not in [s.hit for s in sources]][:9],
            backend="none",
            note=f"{'years' if year else 'authors'} from the paper records (abstracts do not state them)",
            matched=len(sources),
            timings=timings,
            lead=lead,
        )

    def _row(self, s: Source, key: str) -> Evidence | None:
        """The sentence the row ``key`` ("problem", "data", ...) of a comparison table quotes for
        ``s``'s paper (:func:`rag.evidence.rows.select_rows`), or ``None`` when the row is empty."""
        got = select_rows(self.evidence, s.hit.paper).get(key, ())  # every row: each takes its own
        # a problem quoted with the sentence before it ("... proactive agents align with ..."
        # "However, developing proactive agents is hindered by ..."): the one that states it
        stated = [e for e in got if CONTINUES.search(e.sentence)] if key == "problem" else []
        return stated[-1] if stated else got[0] if got else None

    def _within_list(self, plan: AskPlan, listed: Collection[str], scope: str, timings: Timings, t0: float) -> Answer:
        """A question asked within the papers the previous answer listed ("which of them use
        transformers?", "which of these release code?"): each listed paper is kept when a sentence
        of its abstract states what is asked, without a negation before it (the terms of one
        alternative, :func:`rag.route.lead.states_terms`, an acronym spelled out too; or the artifact made available,
        :func:`rag.route.lead.availability_span`), and quoted with that sentence. The list was
        already about its topic, so the check is what each paper states, not how close it comes
        to the words (calibrated membership would judge the new words against the whole collection).
        The papers none of whose sentences states it are named, so the reader sees every listed
        paper was checked.

        Returns:
            A ``list`` answer of the papers that state it (in order of retrieval for the ask), or a
            refusal naming the papers checked when none does.
        """
        assert plan.follow is not None
        alternatives, available = plan.follow.stated, plan.follow.available
        retrieval = self.retriever.search(plan.topic.search, allowed=set(listed))
        timings.retrieval = time.perf_counter() - t0
        scores = {h.paper.id: h.score for h in retrieval.hits}
        order = sorted(listed, key=lambda p: (-scores.get(p, 0.0), p))

        role = "" if available else plan.topic.role

        def stating(paper_id: str) -> Evidence | None:
            if role:
                # "which of them have theoretical guarantees?": a sentence of the paper's own that
                # plays the role (a proof, a bound; rag.evidence.roles), not one with the words
                said = self._playing(role, self.catalogue[paper_id])
                return Evidence(paper_id, said.text, said.start, said.end, 1.0) if said is not None else None
            for s in self.evidence.sentences(self.catalogue[paper_id])[0]:
                spans = [availability_span(s.text, available)] if available else [
                    states_terms(s.text, terms) for terms in alternatives
                ]
                if any(span is not None and not span[3] for span in spans):
                    return Evidence(paper_id, s.text, s.start, s.end, 1.0)
            return None

        def denying(paper_id: str) -> tuple[Evidence, tuple[int, int, bool, bool]] | None:
            # "which one needs retraining?": SparseGPT's "pruned ... in one-shot, without any
            # retraining" states the asked thing to deny it; the paper is answered no, not
            # counted among those no sentence of which states it
            if role or available:
                return None
            paper = self.catalogue[paper_id]
            for s in self.evidence.sentences(paper)[0]:
                for terms in alternatives:
                    span = term_span(s.text, terms)
                    if span is None:
                        continue
                    if (span[3] and denies_directly(s.text, span, terms)) or sets_aside(
                        s.text, span, terms, label=paper.label
                    ):
                        return Evidence(paper_id, s.text, s.start, s.end, 1.0), span
            return None

        t = time.perf_counter()
        found = [(p, e) for p in order if (e := stating(p)) is not None]
        denials = [(p, d) for p in order if p not in dict(found) and (d := denying(p)) is not None]
        denied = [(p, e) for p, (e, _) in denials]
        timings.evidence = time.perf_counter() - t
        said_not = "; ".join(f"{self.catalogue[p].label} — {quoted(e.sentence, span)}" for p, (e, span) in denials)
        unstated = [self.catalogue[p].label for p in order if p not in dict(found) and p not in dict(denied)]
        asked = " or ".join(f"“{' '.join(t)}”" for t in alternatives)
        if role:
            asked = ROLE_STATED.get(role, f"a {role} of its own")
        one = len(found) == 1
        if available:
            verb = f"makes its {available} available" if one else f"make their {available} available"
        else:
            verb = f"state{'s' if one else ''} {asked}"
        alone = len(order) == 1  # "and the second one?" after "which of them release code?"
        if not found and not denied:
            what = f"makes its {available} available" if available else f"states {asked}"
            message = f"{REFUSAL} None of {scope} {what}; checked: {', '.join(unstated)}."
            if alone:
                message = f"{REFUSAL} No sentence of the abstract of {unstated[0]} {what}."
            return self.refusal(plan.asked, message, timings, t0)
        if not found:
            # every paper that speaks of it denies it: that is the answer, quoted, not a refusal
            cited = "; ".join(
                f"**{self.catalogue[p].label}** {format_marker(i + 1)} — {quoted(e.sentence, span)}"
                for i, (p, (e, span)) in enumerate(denials)
            )
            lead = f"No: none of {scope} states {asked} of its own work; stated not to: {cited}."
            if alone:
                lead = f"No: {cited}."
            if unstated:
                lead += f"\nNo sentence states it in: {', '.join(unstated)}."
            sources = [
                Source(i + 1, PaperHit(self.catalogue[p], scores.get(p, 0.0)), [e]) for i, (p, e) in enumerate(denied)
            ]
            text = render(sources, "", listing=True, matched=0, lead=lead)
            timings.total = time.perf_counter() - t0
            return Answer(
                question=plan.asked, text=text, citations=[citation(s) for s in sources],
                hits=[s.hit for s in sources], backend="none",
                note=f"each of {scope} checked for a sentence that states it", matched=0, timings=timings,
                kind="list", lead=lead,
            )
        sources = [
            Source(i + 1, PaperHit(self.catalogue[p], scores.get(p, 0.0)), [e]) for i, (p, e) in enumerate(found)
        ]
        n = len(found)
        lines = [] if alone else [f"{n} of {scope} {verb}:"]
        for s in sources:
            said = s.evidence[0].sentence
            head = "Yes: " if alone else "- "
            quote = quoted(said, (0, len(said), False))
            lines.append(f"{head}**{s.hit.paper.label}** {format_marker(s.number)} — {quote}")
        if denied:
            lines.append(f"\nStated not to: {said_not}.")
        if unstated:
            lines.append(f"\nNo sentence states it in: {', '.join(unstated)}.")
        lead = "\n".join(lines)
        text = render(sources, "", listing=True, matched=n, lead=lead)
        timings.total = time.perf_counter() - t0
        return Answer(
            question=plan.asked,
            text=text,
            citations=[citation(s) for s in sources],
            hits=[s.hit for s in sources],
            backend="none",
            note=f"{scope} checked for a sentence that states it" if alone
            else f"each of {scope} checked for a sentence that states it",
            matched=n,
            timings=timings,
            kind="list",
            lead=lead,
        )

    def refusal(
        self, question: str, message: str, timings: Timings, t0: float, hits: Sequence[PaperHit] = ()
    ) -> Answer:
        """A refusal answer: the message, nothing cited."""
        timings.total = time.perf_counter() - t0
        return Answer(
            question=question,
            text=message,
            refused=True,
            backend=self.backend,
            timings=timings,
            kind="refusal",
            note="nothing cited",
            hits=list(hits),
        )


def against_terms(topic: Topic) -> list[str]:
    """The terms a listed paper may set its work against (:meth:`rag.route.membership.Membership.set_against`):
    the topic's :func:`compounds`, or the glossary's long forms of the one abbreviation the topic
    consists of ("SFT" -> "supervised fine-tuning"), so that "which papers use SFT" and "which
    papers use supervised fine-tuning" put out the same papers (PrefixRL, 2x faster "than the
    strongest baseline (SFT on off-policy data then RL)")."""
    out = compounds(topic)
    alone = len(topic.named) == 1 and topic.named[0].strip().lower() == topic.text.strip().lower()
    if out or topic.facets or topic.role or not alone:
        return out
    return list(long_forms(topic.named[0]))


def compounds(topic: Topic) -> list[str]:
    """The terms of two or more content words the topic consists of: :attr:`Topic.named` terms
    that are the topic or one of its alternatives ("score matching", "dataset distillation" of
    "dataset distillation, i.e. compressing a whole training set ..."), not words inside a longer
    description ("ranks" of "... (ranks, core sizes)") and not a lone word."""
    def keys(text: str) -> set[str]:
        return {term_key(w) for w in content_terms(text)}

    # a topic of a rhetorical role ("theoretical results such as proofs") describes, it names nothing
    alternatives = [keys(a) for a in (topic.text, *topic.facets)] if not topic.role else []
    # the alternative may end in the generic noun the named term dropped ("neural radiance fields")
    out = [t for t in topic.named if len(k := keys(t)) >= 2 and any(k <= a and len(a - k) <= 1 for a in alternatives)]
    # the topic must be the one compound: alternatives ("retrieval-augmented generation or
    # cross-modal retrieval", "adversarial or deepfake audio") are read by the reader as several
    # terms a paper may state in words of its own ("image-text retrieval", "MLLMs"), and a word alone
    # or a description among them is stated by papers that write none of the compounds; a compound
    # the rest describes is the topic's head ("dataset distillation, i.e. compressing ...")
    if not topic.facets:
        return out
    return [t for t in out if topic.head and keys(t) == keys(topic.head)]


def _field(evidence: EvidenceSource, paper: Paper) -> set[int]:
    """Start offsets of ``paper``'s sentences about the field it starts from, not its own work: its
    preamble and its background and gap sentences (:meth:`rag.evidence.selector.EvidenceSelector.moves`)."""
    moves = evidence.moves(paper)
    return evidence.preamble(paper) | {start for start, move in moves.items() if move in ("background", "gap")}


def citation(s: Source) -> Citation:
    """The citation of a numbered source."""
    p = s.hit.paper
    return Citation(s.number, p.id, p.label, tuple(s.evidence), url=p.url, authors=p.author_line, year=p.year)


def list_lines(sentences: Sequence[str]) -> str:
    """A list answer's checked prose: a sentence that cites one paper (why it belongs) is a line of
    its own (``- ...``), and the sentences that cite several (what they share) follow as one paragraph."""
    own = [f"- {x}" for x in sentences if len(cited_numbers(x)) == 1]
    shared = " ".join(x for x in sentences if len(cited_numbers(x)) != 1)
    return "\n".join(own) + ("\n\n" + shared if own and shared else shared)


def render(
    sources: Sequence[Source], prose: str, *, listing: bool, matched: int, at_least: bool = False, lead: str = "",
    scope: str = "",
) -> str:
    """The answer text: the lead (:mod:`rag.route.lead`) or, for a list without one, how many papers
    match (in the collection, or in ``scope``: "the 12 papers of the previous answer"); the prose;
    every source's quoted evidence."""
    lines = []
    if lead:
        lines += [lead, ""]
    elif listing:
        lines.append(list_head(len(sources), matched, at_least, scope))
    if prose or lead:
        lines += [prose, "", "Evidence:"] if prose else ["Evidence:"]
    for s in sources:
        quotes = " ".join(f"“{strip_markup(e.sentence)}”" for e in s.evidence)
        bullet = "- " if listing or prose or lead else ""
        lines.append(f"{bullet}{s.hit.paper.label} {format_marker(s.number)}: {quotes}")
    return "\n".join(lines).strip()


def _states_detail(plan: AskPlan, e: Evidence) -> bool:
    """Whether evidence ``e`` states the detail asked for: its slot (a model size, "learning rate",
    "licence" in any spelling, :func:`rag.route.slot.slot_span`)."""
    slot = plan.ask.slot
    if slot is not None:
        return slot_span(slot, e.sentence) is not None
    detail = plan.detail
    return detail is not None and bool(detail.phrase) and states_phrase(detail.phrase, e.sentence)


@functools.cache
def main_points() -> Ask:
    """:data:`MAIN_POINTS`, read once: what to quote from a paper a question names but asks nothing
    in particular of (or asks in another language)."""
    return read_ask(MAIN_POINTS)
