"""The typed reading of a message: one plan type per intent over a shared header, and the typed
sub-questions (:class:`Ask`) that evidence selection, refusal, the lead and head-to-head take.

A message is read once (:func:`rag.question.reader.read`) into one of

* :class:`Reply`: it asks nothing of the papers (empty, a greeting or thanks, only instructions to
  the assistant, or a set asked for by what papers are *not* about);
* :class:`CollectionPlan`: the collection itself ("how many papers are there?", "list all papers");
* :class:`AskPlan`: a question about papers it names or about a topic ("which papers ...");
* :class:`ComparePlan`: papers side by side, with what to quote from each;
* :class:`TablePlan`: one row per paper, one column per phrase asked;
* :class:`SummaryPlan`: one paper's summary, or a synthesis of the papers on a topic;
* :class:`RelatedWorkPlan`: a related-work draft on a topic, over the papers a "which papers"
  question on it lists.

Every plan starts with the :class:`Plan` header: what was asked, the query read, the papers it
refers to and the filters it states. Later stages read these fields, never the text again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from rag.acronyms import NamedForms
from rag.text import content_terms
from rag.types import Ask, SearchQuery, Slot

__all__ = [
    "Ask",  # defined in rag.types (the evidence protocol takes it), re-exported here
    "AskPlan",
    "CollectionPlan",
    "Column",
    "ColumnKind",
    "ComparePlan",
    "Detail",
    "FollowUp",
    "Number",
    "PaperRef",
    "Plan",
    "RefKind",
    "RelatedWorkPlan",
    "Reply",
    "Restated",
    "StatedFilters",
    "SummaryPlan",
    "TablePlan",
    "Topic",
]

Number = Literal["one", "many", "open"]
"""How many papers a question's frame asks for: ``one`` ("which paper"), ``many`` ("which papers",
"list"), or ``open`` (the calibrated relevance of each paper decides, :mod:`rag.route.membership`)."""
RefKind = Literal["name", "id", "number", "ordinal", "pronoun", "plural", "description"]


@dataclass(frozen=True)
class Restated:
    """A name a question states together with the same name said otherwise: "DPO (Direct Preference
    Optimization)", "PPO, i.e. Proximal Policy Optimization", "Segment Anything (SAM)", "the Mamba
    paper (selective state space models)" (:func:`rag.question.names.restated_names`).

    The restatement is evidence for the same thing, never a second topic: the thing is in the
    collection when an abstract states the name (in the sense restated, where the restatement is
    its long form), or states the long form (:meth:`rag.route.refusal.RefusalPolicy.absent_name`).

    Attributes:
        name: The name as typed ("DPO", "Mamba", "FlashAttention-2").
        said: The restatement ("Direct Preference Optimization", "selective state space models").
        spelled: ``said`` spells the name out: its words' initials are the name's capitals, or
            begin them ("Segment Anything" for SAM); else it describes the thing.
        others: The long forms the collection's abstracts define the name as that are not ``said``
            ("Sharpness Aware Minimization" for SAM asked as "Segment Anything"; :class:`rag.acronyms.Senses`),
            when ``spelled``; ``()`` otherwise.
    """

    name: str
    said: str
    spelled: bool = False
    others: tuple[str, ...] = ()


@dataclass(frozen=True)
class PaperRef:
    """A reference to a paper inside a question.

    Attributes:
        text: The reference as written ("DANCE", "[2]", "the second one", "it").
        kind: ``name`` (a name the collection knows), ``id``, ``number`` (``[2]``, "paper 2"),
            ``ordinal`` ("the second one", "the latter"), ``pronoun`` ("it", "this paper"),
            ``plural`` ("they", "both", "these papers") or ``description`` ("the ride-hailing paper").
        paper_ids: Papers a name or id points to (several when a name is ambiguous).
        index: The number of a ``number`` reference; the 0-based position of an ``ordinal``
            one (-1 for "last"/"latter").
        count: For a ``plural`` reference that counts papers ("these two", "the first three",
            "both"): how many; 0 when it does not count ("they", "their").
        first: For a counted ``plural`` reference that takes the first of a list ("the first
            three", "the top two"): True.
        last: For a counted ``plural`` reference that takes the last of a list ("the last three",
            "the final two"): True.
    """

    text: str
    kind: RefKind
    paper_ids: tuple[str, ...] = ()
    index: int | None = None
    count: int = 0
    first: bool = False
    last: bool = False


@dataclass(frozen=True)
class StatedFilters:
    """The restrictions a question states ("papers from 2023", "ICML papers", "papers by Tri Dao").

    Read only when the entry asks for it (``auto`` filters, on by default everywhere); the route
    applies them (:class:`rag.route.filters.Filters`).

    Attributes:
        year: A publication year stated as a restriction.
        venue: A venue the records state, as they write it.
        authors: Author names the records hold, as they write them.
        author_papers: The papers of those authors (``None`` when no author is stated).
        person: A person's name the question asks the papers of that no record names
            ("papers by Sergey Levine"); ``""`` when none.
    """

    year: int | None = None
    venue: str = ""
    authors: tuple[str, ...] = ()
    author_papers: frozenset[str] | None = None
    person: str = ""

    @property
    def stated(self) -> bool:
        """Whether the question states any restriction."""
        return self.year is not None or bool(self.venue) or bool(self.authors) or bool(self.person)


@dataclass(frozen=True)
class ColumnKind:
    """What kind of thing a column asks for.

    Attributes:
        key: ``name``, ``code``, ``size``, ``metric``, ``data``, ``limitations``, ``problem``,
            ``results``, ``approach`` or ``free``.
        words: Term keys (:func:`rag.lexicon.term_key`) of the words that ask for this kind.
        row: The key of the :data:`rag.evidence.rows.ROWS` row whose cues score its sentences, if any.
    """

    key: str
    words: frozenset[str]
    row: str = ""


@dataclass(frozen=True)
class Column:
    """One column of a table: the phrase as asked (its heading), its kind, and what it asks of an
    abstract (made by :func:`rag.question.columns.column`).

    Attributes:
        title: The phrase, tidied and capitalised ("Main result").
        kind: What kind of thing it asks for.
        ask: The title read as what to quote (:func:`rag.question.asks.read_ask`).
        about: What a ``name`` or ``size`` column is about: ``"dataset"`` (the name of the dataset
            or benchmark a paper introduces; its size in items: tasks, annotations, hours),
            ``"model"`` (a size in parameters), or ``""`` (the paper's own name).
        slot: What a column that names a measure or setting asks of each paper, as a one-paper
            question asks it ("speedup", "top-1 accuracy", "bit width": :func:`rag.question.columns.column_slot`):
            its cell is only a clause that states it (:func:`rag.route.slot.stating_sentence`);
            ``None`` for a column of another kind or one that asks any figure ("headline number").
    """

    title: str
    kind: ColumnKind
    ask: Ask
    about: str = ""
    slot: Slot | None = None


@dataclass(frozen=True)
class Topic:
    """What the papers a question asks for must be about.

    Attributes:
        text: The topic (frame, relating verb, stated filters and exclusion removed;
            typing errors corrected to the collection's words).
        facets: Alternatives the topic lists ("speech or audio" -> ``("speech", "audio")``).
        parts: Each alternative as the parts a paper must all state ("diffusion models for weather
            forecasting" -> ``(("diffusion models", "weather forecasting"),)``); ``()`` when no
            alternative has two (:func:`rag.question.parts.topic_parts`).
        stages: The stages the topic puts in order ("supervised fine-tuning first and then a
            reinforcement-learning stage" -> ``("supervised fine-tuning", "reinforcement-learning")``),
            which a paper must state as a sequence; ``()`` when it names no order
            (:func:`rag.question.parts.topic_stages`).
        role: The rhetorical role every alternative of the topic asks for ("formal theoretical
            results such as proofs or guarantees" -> ``"theory"``), which a paper states in a
            sentence of that role; ``""`` otherwise (:func:`rag.question.roles.required_role`).
        role_alone: The topic asks for its :attr:`role` and nothing more ("formal theoretical
            results such as proofs or guarantees", "prove something", "theorems"): every paper
            with a sentence of its own that plays the role answers, however far its words are from
            the topic's (:func:`rag.question.roles.role_alone`,
            :meth:`rag.route.answer.AnswerPipeline.found`); ``False`` when a kind of result or a
            subject narrows it ("regret bounds", "convergence proofs for diffusion models").
        head: The term the topic is about when the rest describes it ("grokking, where a network
            suddenly generalizes ..." -> "grokking"); ``""`` otherwise (:func:`rag.question.parts.described_head`).
        exclusion: What the papers must not be about ("outside of agent settings" -> "agent settings").
        excluded: The words of :attr:`exclusion` that say what is excluded ("agent").
        excluded_ids: The papers the exclusion names ("other than DetectGPT" -> DetectGPT's id),
            left out of the list whatever else they state; ``()`` when it names none.
        number: How many papers the frame asks for.
        artifact: For "papers that introduce/release a dataset (benchmark, ...)": the artifact words.
        artifact_rest: For an artifact question, the topic's words besides the artifact words
            ("speech" of "a new speech dataset"); ``""`` when none.
        about_links: The question asks which papers link their code, and little else.
        link_rest: For a list of the papers on a topic that make their code available ("Which
            papers on federated learning release code?"), the topic's words besides the link and
            availability words ("federated learning"): the papers clearly about it that state
            their code available are the answer; ``""`` otherwise.
        link_named: The question asks for the link itself ("a GitHub link", "URLs"), not only for
            code made available ("which papers release code?").
        terms: The content terms of the topic (of the question when the topic is empty).
        named: The topic or its alternatives that are bare terms ("symbolic regression",
            "edge-of-stability", "GFlowNets"; a generic noun at the end dropped), which a paper's
            title names when the paper is about them (:func:`rag.question.phrasing.named_terms`).
        acronyms: Lower-case words of the topic typed as acronyms ("rlhf"), no English word.
        directions: The directional compounds the topic states in each of its alternatives
            ("text-to-image", "speech-to-speech"; :func:`rag.lexicon.directions`): a paper about
            another direction ("text-to-audio", "image-to-text") that never states it is not about
            the topic, however many of its words it states.
        stances: The sides of a contest the topic asks its papers to take ("defend against
            backdoor attacks" -> ``("defense",)``, "detect machine-generated text" -> ``("defense",
            "detection")``; :func:`rag.question.stances.asked_stances`): a paper whose own side
            (its title, its statement of its contribution) is only an opposite one is not listed;
            ``()`` when the topic asks none ("backdoor attacks").
        known_names: The names the topic states that the collection knows as an acronym and its
            long form, in the sense asked ("the Open Pretrained Transformer models" and "OPT" both
            -> OPT, Open Pretrained Transformer; :meth:`rag.acronyms.Senses.names_in`): the papers a
            list gives state each in either form (:func:`rag.acronyms.states_named`).
        ask: The topic read as what to quote from each paper found (:class:`Ask`).
        search: What retrieval searches for the topic.
        examples: The topic read once per example it lists, in its class's place ("speeds up graph
            algorithms (max-flow, ...) with predictions" -> "speeds up max-flow with predictions",
            :func:`rag.question.parts.examples_in_place`): a sentence close to one is close to the
            topic (:meth:`rag.route.membership.Membership.features`); ``()`` for none.
        written: For a topic asking for several papers, the topic with the acronyms of its
            :attr:`known_names` written out ("GNN oversmoothing" -> "graph neural network
            oversmoothing", "prune LLMs" -> "prune large language models"; the text itself when it
            types none, or asks for one paper): the papers are judged against it, the text as typed
            one more reading of it (:meth:`rag.route.membership.Membership.features`), so a topic typed in
            shorthand finds what its long form finds; the embedder places "LLM pruning" further from
            "pruning ... massive GPT-family models" than "large language model pruning".
        described: The description of the one paper a question asks something of, its frame
            removed ("What languages does the low-resource speech synthesis paper support?" ->
            "low-resource speech synthesis"): the paper answered states every part of it when a
            probable one does (:meth:`rag.route.answer.AnswerPipeline.found`); ``""`` for none.
        restated: The names the topic states with a restatement of each (:class:`Restated`): the
            thing is one, whose name or long form an abstract must state.
        versions: The names of a version or size the topic states ("GPT-4", "ResNet-152",
            "StyleGAN3", "Whisper-large-v3", "Mixtral 8x7B"; :func:`rag.question.names.versioned_names`):
            each names that model, not its family; an abstract must state it so.
        compound: The topic as one bare compound ("split learning", "edge of stability", "GNN
            oversmoothing"; :func:`rag.question.parts.compound_topic`), whose words a paper on it
            states within one noun phrase in some order; ``""`` for a description or several words
            joined otherwise.
        nominal: For a topic that begins with the verb saying what the papers do, the noun phrases
            that name it in the collection's words ("detect out-of-distribution inputs" ->
            "out-of-distribution input detection", "out-of-distribution detection"; "prune LLMs" ->
            "LLM pruning"; :func:`rag.question.nominal.nominal_forms`): a title that names one is
            about the topic, as a title naming a bare term is (:attr:`named`); ``()`` otherwise.
        described_name: The name ``described`` consists of ("the LoRA paper" -> "LoRA",
            :func:`rag.question.names.bare_name`): the paper meant is the one whose own name it is
            (its title, its label, or the name its abstract gives its work), not one that mentions it.
        describing: The message describes the paper it is after: its frame names the paper asked
            for (:attr:`AskPlan.seeks`) or it asks nothing ("I remember a paper that ...", a
            description typed as is), rather than asking something of a thing it names ("is the
            validator trained with reinforcement learning?"); the paper chosen for it may then be
            one further down retrieval that states its clauses clearly best
            (:meth:`rag.route.answer.AnswerPipeline._stated_most`).
    """

    text: str
    facets: tuple[str, ...] = ()
    parts: tuple[tuple[str, ...], ...] = ()
    stages: tuple[str, ...] = ()
    role: str = ""
    role_alone: bool = False
    head: str = ""
    exclusion: str = ""
    excluded: str = ""
    excluded_ids: tuple[str, ...] = ()
    number: Number = "open"
    artifact: tuple[str, ...] = ()
    artifact_rest: str = ""
    about_links: bool = False
    link_rest: str = ""
    link_named: bool = False
    terms: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    acronyms: tuple[str, ...] = ()
    known_names: tuple[NamedForms, ...] = ()
    directions: tuple[str, ...] = ()
    stances: tuple[str, ...] = ()
    ask: Ask = field(default_factory=lambda: Ask(""))
    search: SearchQuery = field(default_factory=lambda: SearchQuery(""))
    examples: tuple[str, ...] = ()
    written: str = ""
    described: str = ""
    restated: tuple[Restated, ...] = ()
    versions: tuple[str, ...] = ()
    described_name: str = ""
    compound: str = ""
    nominal: tuple[str, ...] = ()
    describing: bool = False


@dataclass(frozen=True)
class Detail:
    """A detail abstracts do not state, asked for ("who are the authors?", "what learning rate?").

    Attributes:
        kind: ``authors``, ``contact details``, ``affiliations``, ``licence``, ``publication date``, ``hardware or
            compute``, ``funding``, ``hyper-parameters``, ``model size`` or ``review outcomes``.
        phrase: The words that ask for it, normalised ("learning rate"); an abstract that states
            them states the detail after all.
        only: Nothing else is asked ("who are the authors?"): in a conversation it is asked of the
            papers of the previous answer.
        year: A publication date asked only by its year ("what year is ClimaX from?",
            :func:`rag.question.details.asks_year`): the records hold it, as they hold the authors.
    """

    kind: str
    phrase: str = ""
    only: bool = False
    year: bool = False


@dataclass(frozen=True)
class FollowUp:
    """A message that continues the conversation's previous question.

    Attributes:
        kind: ``what_about`` ("what about APM?", "and the first one?": the previous question of
            another paper or topic), ``of_reference`` ("and what about its limitations?": a new
            question of the paper referred to), ``verdict`` ("which is better?", "which one wins?":
            which of the papers discussed wins) or ``choose`` ("which one needs less memory?":
            a question choosing among the papers discussed) or ``narrow`` ("which of them use
            RL?", "which ones are from 2023?": the plan itself asked within the papers the previous
            answer listed) or ``amount`` ("by how much?": the previous question, asked for its
            figure).
        target: For ``what_about``: the other paper or topic as written ("APM", "the first one").
        stated: For ``narrow``: what a listed paper must state to be kept, as alternatives of terms
            (:func:`rag.question.polar.polar_terms` of each facet: "which of them study speech or
            audio?" -> ``(("speech",), ("audio",))``); empty when the question asks no topic
            ("which ones are from 2023?").
        available: For ``narrow``: the artifact a listed paper must make available ("which of them
            release code?", :func:`rag.question.polar.polar_available`), else ``""``.
        target_refs: The references inside ``target``.
        count: For ``narrow``: how many papers the words that refer to them count ("which of the
            two ...?" 2, "which of them ...?" 0): the papers discussed across turns when the last
            answer holds fewer.
        plan: For ``of_reference``: the plan of the new question as asked of the paper; for
            ``verdict``/``choose``: the comparison to make once the papers are known.
    """

    kind: Literal["what_about", "of_reference", "verdict", "choose", "narrow", "amount"]
    target: str = ""
    target_refs: tuple[PaperRef, ...] = ()
    plan: Plan | None = None
    stated: tuple[tuple[str, ...], ...] = ()
    available: str = ""
    count: int = 0


@dataclass(frozen=True)
class Plan:
    """The header every plan shares.

    Attributes:
        asked: The message after input normalisation.
        query: ``asked`` without instructions to the assistant, greetings around it and the
            filters it states, trimmed to the longest question read; what was read.
        refs: References to papers, in order of appearance.
        filters: The restrictions it states (when stated filters are read).
        search: What retrieval searches for the whole query (names stated, coined terms).
        injected: Instructions to the assistant were dropped from ``query``.
        trimmed: ``query`` was cut to the longest question read.
        dropped: When trimmed, what was dropped, as a sentence for the answer's note (the message
            keeps the sentences that ask, :func:`rag.question.phrasing.keep_asking`).
        english: The question reads as English (else only names can be matched).
        coined: Coined terms and names the query states, as written ("RLHF", "resnet50"): a
            term no abstract of the named paper holds is refused (:mod:`rag.route.refusal`).
        rare: Words of the query that may be rare names some abstract holds (capitalised words,
            named entities, hyphenated compounds, coined terms the collection indexes).
        asked_name: The one name the question asks about, for the route to check that a paper of
            the collection is it (:meth:`rag.question.reader.Reader.name_asked`): a name written as an
            English word ("Chinchilla: how many tokens was it trained on?", "What model size does
            Gopher have?"), a name typed inside the slot ("Imagen FID on COCO?") or asked alone
            ("What does Imagen do?"); ``""`` when there is none, or several, and for a question that
            names a paper or asks for a list. The route checks it as a name: when no paper of the
            collection is it, the question is refused saying so ("No paper in the collection is
            Imagen"), not answered by a paper found by its other words or one that mentions it.
        figures: Figures the query quotes ("65x", "40%"): a measured result identifies its paper.
        counts: Whole numbers the query states with what they count, ``(number, words)`` ("Why did
            DANCE use 16 TAG datasets?" -> ``(("16", "TAG datasets"),)``,
            :func:`rag.text.counted_phrases`): a premise the paper's abstract may contradict
            (:mod:`rag.route.premise`).
        follow: When the message continues the previous question (:class:`FollowUp`).
        missing_title: A paper's title the question asks about that no record of the collection
            has (:func:`rag.question.reader.asked_title`, :meth:`rag.index.catalogue.Catalogue.titled`):
            the question is refused, naming the closest title, not answered as a topic (unless
            ``title_or_topic``).
        closest_title: The collection's title closest to the one asked for (``""`` when none).
        title_or_topic: ``missing_title`` is written as a capitalised topic may be (unquoted, its
            function words in lower case: "Summarize Graph Neural Networks for Molecules",
            :func:`rag.question.reader.title_or_topic`): the papers decide which it is
            (:meth:`rag.route.conversation.Conversation`); "Summarize Attention Is All You Need"
            capitalises its function words, as only a title does.
    """

    asked: str
    query: str = ""
    refs: tuple[PaperRef, ...] = ()
    filters: StatedFilters = StatedFilters()
    search: SearchQuery = field(default_factory=lambda: SearchQuery(""))
    injected: bool = False
    trimmed: bool = False
    dropped: str = ""
    english: bool = True
    coined: tuple[str, ...] = ()
    rare: tuple[str, ...] = ()
    asked_name: str = ""
    figures: frozenset[str] = frozenset()
    counts: tuple[tuple[str, str], ...] = ()
    follow: FollowUp | None = None
    missing_title: str = ""
    closest_title: str = ""
    title_or_topic: bool = False

    @property
    def intent(self) -> str:
        """The plan's intent as one word (logs, tests, the API): ``ask``, ``compare``, ``table``,
        ``summary``, ``topic_summary``, ``collection``, or a :class:`Reply`'s kind."""
        return "ask"

    @property
    def named_ids(self) -> tuple[str, ...]:
        """Papers the question names or gives by id, in order, each once (ambiguous names included)."""
        return tuple(dict.fromkeys(pid for r in self.refs if r.kind in ("name", "id") for pid in r.paper_ids))

    @property
    def refers_back(self) -> bool:
        """The question refers to papers of earlier turns ([2], "the second one", "it", "both")."""
        return any(r.kind in ("number", "ordinal", "pronoun", "plural") for r in self.refs)

    @property
    def content_beyond_pronouns(self) -> bool:
        """The query has two or more content words besides "it" and "they" ("what is it about?" has
        not): with nothing cited before, it is a question of its own, not a dangling reference."""
        return len([t for t in content_terms(self.query) if t not in ("it", "they")]) >= 2

    def spelled_out(self, names: Mapping[PaperRef, str]) -> str:
        """The query with references replaced by the names given, in the order given, each at its
        first occurrence; a possessive pronoun ("its", "their") by the name's possessive. For
        showing how a follow-up was read ("what datasets does it use?" -> "... does DANCE use?")."""
        text = self.query
        for r, name in names.items():
            if r.kind in ("number", "ordinal"):
                text = text.replace(r.text, name, 1)
            else:
                sub = f"{name}'s" if r.text.lower() in ("its", "their") else name
                text = re.sub(rf"(?<!\w){re.escape(r.text)}(?!\w)", sub, text, count=1)
        return text


@dataclass(frozen=True)
class Reply(Plan):
    """A message that asks nothing of the papers.

    Attributes:
        kind: ``empty``, ``social`` (a greeting, thanks or "ok"), ``instruction`` (only
            instructions to the assistant) or ``negated`` (papers asked for by what they are not
            about: refused with the question to ask instead).
        instead: For ``negated``: the question to ask instead ("Which papers use RL?").
    """

    kind: Literal["empty", "social", "instruction", "negated"] = "empty"
    instead: str = ""

    @property
    def intent(self) -> str:
        """The reply's kind."""
        return self.kind


@dataclass(frozen=True)
class CollectionPlan(Plan):
    """The collection itself: how many papers it holds (``count``) or every one of them."""

    count: bool = False

    @property
    def intent(self) -> str:
        """``collection``."""
        return "collection"


@dataclass(frozen=True)
class AskPlan(Plan):
    """A question about the papers it names or refers to, or about the papers on a topic.

    Attributes:
        topic: What the papers must be about (when it names none).
        ask: The whole question as what to quote from each paper (roles of what it asks).
        aspects: Its sub-questions without the names of its papers, each with its heading as
            written; what the lead answers part by part.
        detail: A detail abstracts do not state, when asked.
        polar: A yes/no question about papers it refers to ("Does DANCE use LLM surrogates?").
        polar_terms: For ``polar``: the content terms a sentence must state for "yes".
        polar_compared: For ``polar``: it asks a comparison ("fewer diffusion steps?"), which a
            sentence states with a figure, its direction for the reader to judge.
        polar_comparative: For ``polar_compared``: the comparative asked, lower-cased ("fewer",
            "faster", "better"; :func:`rag.question.polar.polar_comparative`), ``""`` when none is
            written: a sentence stating it of the asked terms says yes, its opposite no.
        polar_choice: For ``polar_compared``: the other option of a question that chooses between
            the paper and it ("attention" of "Which is faster, Hyena or attention?",
            :func:`rag.question.polar.choice_other`), asked as "Is Hyena faster than attention?"
            and answered by naming the option the sentence says; ``""`` for a yes/no question.
        polar_available: For ``polar``: the artifact whose availability it asks (``"code"``,
            ``"data"``, ``"models"``: "does ClimaX release code?"), stated by a sentence in any
            words (:func:`rag.route.lead.availability_span`); ``""`` otherwise.
        polar_absent: For ``polar``: it asks for the absence of its terms ("does L2M work without
            per-task retraining?"): a sentence that negates them answers yes
            (:func:`rag.question.polar.polar_absent`).
        polar_compounds: For ``polar``: the runs of ``polar_terms`` that stand side by side in
            the question, each a phrase a sentence states only with its words near each other
            (:func:`rag.question.polar.polar_compounds`: ``(("hard", "samples"),)`` of "Does the
            graph pruning paper keep hard samples?"); ``()`` when it asks none.
        polar_against: For ``polar``: the ``polar_terms`` the question names after a word that
            sets the paper against them (:func:`rag.question.polar.polar_against`: ``("shampoo",)``
            of "Does FOAM reduce wall-clock time compared to Shampoo?"): a sentence that names them
            after its own word of contrast states the comparison asked, not a mention in contrast.
        polar_relating: For ``polar``: the verbs relating the paper to what is asked, which are no
            terms (:func:`rag.question.polar.polar_relating`: ``("need", "train")`` of "Does
            DetectGPT need to train a classifier?"): a negation reaching one ("does not require
            training a separate classifier") denies what is asked.
        premise: The terms a question of manner or reason takes as stated of the one paper it
            names ("how does CogRouter use diffusion models?" -> ``("diffusion",)``;
            :func:`rag.question.polar.premise_terms`): an abstract that mentions none of them
            does not support the question's premise; ``()`` when it takes none.
        manner: The terms of the process a question of manner asks about of the one paper it
            names ("How are SGB-IB's pseudo-labels derived?" -> ``("pseudo-labels", "derived")``;
            :func:`rag.question.manner.manner_terms`): the sentence that states them together
            answers, and an abstract that writes one of them nowhere does not state how; ``()``
            for any other question.
        own_limits: It asks for a paper's own limitations, not the limitation it addresses.
        limits_of: What it asks the limitations of, as typed ("model soups" of "What are the
            limitations of model soups?"; :func:`rag.question.roles.limited_subject`), ``""`` when
            it names nothing: a paper whose title states it is asked its own limitations, as if named.
        seeks: Its frame names the paper asked for ("which paper ...", "is there work on ...").
        bare: The message is its topic, as typed in a search box: no frame, no paper referred to,
            nothing asked of it ("differentially private federated learning", "alfworld results?");
            like an open frame, it may be answered by one paper or several.
        alone: The message read as a question of its own, its pronouns the described paper's own
            ("which paper detects deepfakes and tests its robustness?"), when it could also be
            read as asking about a paper of an earlier turn; the route lets the evidence choose
            (:meth:`rag.route.references.ReferenceResolver.arbitrate`). ``None`` when the pronouns
            can only refer back ("what dataset does it use?").
    """

    topic: Topic = field(default_factory=lambda: Topic(""))
    ask: Ask = field(default_factory=lambda: Ask(""))
    aspects: tuple[Ask, ...] = ()
    detail: Detail | None = None
    polar: bool = False
    polar_terms: tuple[str, ...] = ()
    polar_compared: bool = False
    polar_comparative: str = ""
    polar_choice: str = ""
    polar_available: str = ""
    polar_absent: bool = False
    polar_compounds: tuple[tuple[str, ...], ...] = ()
    polar_against: tuple[str, ...] = ()
    polar_relating: tuple[str, ...] = ()
    premise: tuple[str, ...] = ()
    manner: tuple[str, ...] = ()
    own_limits: bool = False
    limits_of: str = ""
    seeks: bool = False
    bare: bool = False
    alone: AskPlan | None = None

    @property
    def number(self) -> Number:
        """How many papers the frame asks for (:attr:`Topic.number`)."""
        return self.topic.number


@dataclass(frozen=True)
class ComparePlan(Plan):
    """Papers side by side.

    Attributes:
        sides: Ways to split the question into two references, likeliest first.
        set_topic: "the two federated learning papers": the topic whose two likeliest papers are meant.
        aspects: What to quote from each paper first (each with its heading as written); ``()``
            when nothing in particular is asked.
        verdict: It asks which paper wins: how it words the criterion ("faster", "more accurate",
            "better"); ``""`` otherwise.
        otherwise: The question as one about the papers it names, for when a side is no paper of
            the collection ("How does FOAM differ from standard Shampoo?").
    """

    sides: tuple[tuple[str, str], ...] = ()
    set_topic: Topic | None = None
    aspects: tuple[Ask, ...] = ()
    verdict: str = ""
    otherwise: AskPlan | None = None

    @property
    def intent(self) -> str:
        """``compare``."""
        return "compare"


@dataclass(frozen=True)
class TablePlan(Plan):
    """One row per paper, one column per phrase asked.

    Attributes:
        topic: The topic whose papers are the rows; ``None`` when the rows are the papers it
            names or refers to.
        columns: The columns asked, in order (:class:`Column`); ``()`` for the
            default ones.
        values: Ask the LLM, if any, for a short value per cell (``paperchat table --values``),
            shown only when every word of it stands in the cell's sentences.
    """

    topic: Topic | None = None
    columns: tuple[Column, ...] = ()
    values: bool = False

    @property
    def intent(self) -> str:
        """``table``."""
        return "table"


@dataclass(frozen=True)
class SummaryPlan(Plan):
    """A summary: of the one paper it names, refers to or describes, or of the papers on a topic.

    Attributes:
        topic: For a topic summary: the topic; ``None`` for one paper.
        described: The description of the paper when it names none ("the ride-hailing paper").
        described_topic: The description read as a topic: when several papers fit it, they are
            summarized as the papers on it.
        otherwise: The question as one about the paper, for when no single paper is meant.
    """

    topic: Topic | None = None
    described: str = ""
    described_topic: Topic | None = None
    otherwise: AskPlan | None = None

    @property
    def intent(self) -> str:
        """``topic_summary`` for the papers on a topic, else ``summary``."""
        return "topic_summary" if self.topic is not None else "summary"


@dataclass(frozen=True)
class RelatedWorkPlan(Plan):
    """A related-work draft on a topic ("draft a related-work section on T"): the papers that
    "Which papers are about T?" lists, grouped by what they do, each group a paragraph of cited
    statements (:mod:`rag.route.related_work`).

    Attributes:
        subject: The topic as asked ("reinforcement learning for LLM agents").
        papers: The plan of "Which papers are about <subject>?", read as that question is: its
            papers are the draft's (``None`` when the topic reads as no such question).
    """

    subject: str = ""
    papers: AskPlan | None = None

    @property
    def intent(self) -> str:
        """``related_work``."""
        return "related_work"


@dataclass(frozen=True)
class SimilarPlan(Plan):
    """The papers like one paper ("papers like DANCE", "more like [2]", "anything similar to the
    ride-hailing paper?"): its paper is in ``refs``, or described.

    Attributes:
        described: The description of the paper when it names none ("the ride-hailing paper").
    """

    described: str = ""

    @property
    def intent(self) -> str:
        """``similar``."""
        return "similar"
