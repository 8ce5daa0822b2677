"""Domain types that carry citations end to end: retrieval hits, evidence, citations, answers.

CLI and UI only render these objects; nobody re-parses free text downstream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from typing import Literal

from store.papers import Paper

__all__ = [
    "STEPS", "STEP_NAMES", "Answer", "Ask", "ClaimCheck", "Citation", "Evidence", "LLMUsage", "PaperHit",
    "Retrieval", "SearchQuery", "Slot", "Timings", "timed",
]


@dataclass(frozen=True)
class PaperHit:
    """A retrieved paper with its scores.

    Attributes:
        paper: The paper record.
        score: Fused relevance in [0, 1] used for ranking and the relevance floor.
        dense: Best cosine similarity of a chunk of this paper to the question, in [-1, 1].
        lexical: BM25 score of the paper normalised by the best BM25 score of the query, in [0, 1].
        name_match: Similarity in [0, 100] of a name stated in the question to this paper's
            label or aliases (0 when the question names no paper).
        coverage: Share of the question's content terms, weighted by inverse document
            frequency, that the paper's title and abstract contain, in [0, 1].
    """

    paper: Paper
    score: float
    dense: float = 0.0
    lexical: float = 0.0
    name_match: float = 0.0
    coverage: float = 0.0



@dataclass(frozen=True)
class SearchQuery:
    """What retrieval searches for: a text and the names the question reader found in it.

    Made by the question reader (:meth:`rag.question.names.NameReader.search_query`), so retrieval
    never reads question text for names.

    Attributes:
        text: The text embedded and searched by BM25 (a topic, a question, a description).
        names: Stated name -> paper id -> weight in (0, 1]: 1.0 a label in any case, 0.9 one edit
            away, 0.6 a coined term at most ``TERM_SHARE`` of the abstracts hold
            (:mod:`rag.index.catalogue`).
        unmatched: Coined terms the text states that no paper holds, as written.
        forms: Other forms of names the text states, each searched by BM25 on its own and fused
            as one more ranking: a rare name of a thing whose other form the lexicon does not
            index (an acronym of several senses: "Open Pretrained Transformer" and "OPT"), which
            the text's other words would outweigh (:attr:`rag.acronyms.NamedForms.searched`).
    """

    text: str
    names: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    unmatched: tuple[str, ...] = ()
    forms: tuple[str, ...] = ()


@dataclass
class Retrieval:
    """Ranked paper hits for one query plus what the name matcher found.

    Attributes:
        hits: Papers ranked by fused relevance, best first.
        names: Stated name -> the paper ids it matched as a label (weight >= 0.9).
        unmatched_entities: Coined terms the query states that no paper contains.
        written: Papers beyond the first ``retrieval.candidates`` hits whose title or abstract writes
            the topic's phrase ("federated learning"), gathered whole from the lexical index for a
            "which papers" topic (:meth:`rag.route.answer.AnswerPipeline.gathered`); the membership
            model judges them with the candidates.
    """

    hits: list[PaperHit]
    names: dict[str, list[str]]
    unmatched_entities: list[str]
    written: list[PaperHit] = field(default_factory=list)


@dataclass(frozen=True)
class Slot:
    """The measure, entity or detail a question asks of a paper ("the final reward", "model size",
    "learning rate", "publication date"): what a sentence must state to answer it.

    Read by the question reader (:func:`rag.question.slots.read_slot`); the answering stages check
    it against the sentences of an abstract (:func:`rag.route.slot.slot_span`) and never read the
    question's text: the lead quotes the clause that states it, and a paper none of whose sentences
    states it is answered "The abstract of X does not state <name>" (a refusal).

    Attributes:
        name: The slot as an answer names it ("final reward", "model size", "learning rate").
        terms: Content words a stating sentence holds, head noun last (``("final", "reward")``);
            ``()`` when only a ``form`` states it.
        amount: A number must stand with the terms ("how much", "how many", "what BLEU score").
        form: A shape of text that states the slot whatever its words: ``"model size"`` ("12M-parameter",
            "Agent-Omit-8B", "1.3 billion parameters"), ``"date"`` ("March 2024"); ``""`` for none.
        value: A value the question guesses ("is it 7B?" -> ``"7B"``), ``""`` for none.
        detail: The question asks a detail abstracts seldom state (:class:`rag.question.plan.Detail`):
            no sentence that states it means the abstract does not, whatever else it says.
        count: A count of its head noun ("how many images", "number of tasks"): a number of
            something else ("16000 tasks" for "how many images") does not state it, however near
            the question's other words it stands.
        largest: A model size asked of the largest of several ("how big is the largest Muse
            model?"): the sentence stating the greatest size answers.
        smaller: A choice by size asks for the smaller ("which of the two is smaller?"): a
            comparison names the paper stating the smaller size first.
        change: The amount is asked as a change of the measure, in which direction: ``"gain"``
            ("how much does X improve Y", "what gain does X bring"), ``"cut"`` ("by how much does X
            reduce Y"), ``""`` for none. A paper that states the measure without a figure and
            states a change of that direction with one elsewhere in its own work ("thereby
            improving optimization performance" ... "improves accuracy by 7.7%") answers with that
            figure (:func:`rag.route.slot.change_clause`), not "states no figure".
        ratio: The amount is asked as a ratio ("by what factor does APM reduce storage?", "how
            many-fold faster"): a clause stating one ("65× storage reduction", "a more than 72 times
            speedup", "an order of magnitude") answers before one stating another number of the
            measure ("only two cached matrices"); with none, any amount answers as before.
        unit: The unit the amount is asked in ("how big is the corpus, in tokens?", "training
            time, in days?", "latency (ms)"), lower case, ``""`` for none: only a figure in that
            unit states the slot ("29 NLP tasks" gives no size in tokens), or, for a unit of
            duration or memory, a figure in any such unit (:func:`rag.route.slot.states_unit`).
    """

    name: str
    terms: tuple[str, ...] = ()
    amount: bool = False
    form: str = ""
    value: str = ""
    detail: bool = False
    count: bool = False
    largest: bool = False
    smaller: bool = False
    change: str = ""
    ratio: bool = False
    unit: str = ""


@dataclass(frozen=True)
class Ask:
    """One thing asked of a paper's abstract: the text to match sentences against and how to read it.

    Made by the question reader (:func:`rag.question.asks.read_ask`) from a (sub-)question, a topic,
    a column phrase or a fixed query; the evidence stage (:class:`rag.evidence.selector.EvidenceSelector`) scores
    sentences against it and never reads its text for cues.

    Attributes:
        text: The text as asked (what is embedded and matched by terms).
        heading: The same as the question words it, for headings ("what does each distill?").
        matching: ``text`` without a phrase that only describes which paper it is about ("In the
            unified graph-based dataset pruning paper, ...").
        roles: Rhetorical roles asked for: ``problem``, ``method``, ``result``, ``data``,
            ``theory``, ``efficiency``.
        summary: It asks for a summary, gist or overview (quote more sentences).
        amount: It asks for an amount ("how many datasets", "what accuracy gain"): the lead quotes
            numbers.
        numbers: Sentences that state numbers answer it better ("how much", "improve", "%").
        link: It asks for code, a repository or a link.
        available: Whether an artifact is made available, asked yes/no ("does it release code?",
            "is its data public?"): ``"code"``, ``"data"`` or ``"models"``; ``""`` when not asked
            (:func:`rag.question.polar.polar_available`).
        definition: It asks what a name stands for ("what does DGSA stand for").
        figures: Figures it quotes ("65x", "40%", "2.33"), as :func:`rag.text.numbers` writes them.
        entities: Names and coined terms it states (normalised, :func:`rag.text.normalize`).
        conditions: Numbers it states besides those of its names, as :func:`rag.text.numbers` writes
            them: the setting of what it asks ("how much faster at sequence length 64k?" -> ``{"64"}``);
            the clause that writes one states the amount at that setting (:func:`rag.route.slot.stating_sentence`).
        parts: Its sub-questions when it asks several things ("What X, and how Y?"); ``()`` for one.
        row: The comparison row it only names ("on data" -> ``"data"``); ``""`` otherwise.
        title: The heading as a title: capitalised, with a question mark when it is a question
            ("what does each distill" -> "What does each distill?").
        slot: The measure, entity or detail it asks (:class:`Slot`), ``None`` when it asks none
            (a summary, a method, papers on a topic).
    """

    text: str
    heading: str = ""
    matching: str = ""
    roles: frozenset[str] = frozenset()
    summary: bool = False
    amount: bool = False
    numbers: bool = False
    link: bool = False
    available: str = ""
    definition: bool = False
    figures: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()
    conditions: frozenset[str] = frozenset()
    parts: tuple[Ask, ...] = ()
    row: str = ""
    title: str = ""
    slot: Slot | None = None


    @property
    def data_only(self) -> bool:
        """It asks for a paper's data and nothing else (one part, no problem asked)."""
        return "data" in self.roles and "problem" not in self.roles and not self.parts



@dataclass(frozen=True)
class Evidence:
    """One sentence of a paper's abstract that supports an answer.

    Attributes:
        paper_id: Id of the paper the sentence comes from.
        sentence: The sentence exactly as it stands in the abstract.
        start: Character offset of the sentence in the abstract (0-based, inclusive).
        end: Character offset where the sentence ends (exclusive); ``abstract[start:end] == sentence``.
        score: Relevance of the sentence to the question, in [0, 1].
    """

    paper_id: str
    sentence: str
    start: int
    end: int
    score: float


@dataclass(frozen=True)
class Citation:
    """A numbered source of an answer: marker ``[n]`` -> paper -> evidence sentences."""

    number: int
    paper_id: str
    label: str
    evidence: tuple[Evidence, ...]
    url: str = ""
    authors: str = ""
    year: int | None = None

    @property
    def sentence(self) -> str:
        """The best evidence sentence (the first one)."""
        return self.evidence[0].sentence if self.evidence else ""

    @property
    def span(self) -> tuple[int, int]:
        """Character span ``(start, end)`` of the best evidence sentence in the abstract."""
        return (self.evidence[0].start, self.evidence[0].end) if self.evidence else (0, 0)


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on one answer sentence.

    Attributes:
        sentence: The answer sentence (markers included).
        cited: Source numbers the sentence cites after validation.
        supported: True when the cited evidence backs it (numbers and names present,
            semantic similarity above the floor).
        reason: Why a claim was not supported, ``""`` otherwise.
    """

    sentence: str
    cited: tuple[int, ...]
    supported: bool
    reason: str = ""


STEPS = ("loading", "reading", "retrieval", "membership", "evidence", "generation", "rendering")
"""The steps of one question, in the order they run; they never overlap, so their seconds add up to
:attr:`Timings.total` but for :attr:`Timings.other` (work between them: the conversation's bookkeeping)."""

STEP_NAMES = {
    "loading": "loading",
    "reading": "reading the question",
    "retrieval": "retrieval",
    "membership": "choosing the papers",
    "evidence": "evidence",
    "generation": "generation",
    "rendering": "rendering",
    "other": "other",
}
"""What each step is called where the footer names the one that took the time."""


@dataclass
class Timings:
    """Wall-clock seconds of one question, per step (:data:`STEPS`), and what took them.

    The route fills ``retrieval``, ``membership``, ``evidence`` and ``generation``; the step that
    reads the question and the evidence selector add ``reading`` and ``embedding`` to the Timings
    being measured in their thread (:meth:`measuring`); the page, the command line and the servers
    fill ``loading`` (rebuilding the components after a write, choosing the LLM, a cold command's
    start), ``rendering`` and ``total`` (from the message received to its output made).

    Attributes:
        retrieval: Dense and lexical search, seconds.
        evidence: Choosing each answered paper's evidence sentences, seconds.
        generation: The LLM writing and the checks of its prose, seconds (0 without an LLM).
        total: Seconds from the message received to the answer made (rendered, where the caller
            renders it); the steps' sum when nothing else was measured.
        loading: Seconds before the question could be read: a cold command loading the components,
            the page or a server rebuilding them after a write or checking which LLM answers.
        reading: Reading the question into its plan (spelling, language, names, filters), seconds.
        membership: Deciding which papers answer and whether to refuse, seconds.
        rendering: Turning the answer into what is shown (chat, panel, exports, terminal text), seconds.
        embedding: Seconds, within ``membership`` and ``evidence``, spent embedding the sentences of
            abstracts no question had used yet (a part of those steps, not a step of its own).
        embedded: How many abstracts' sentences were embedded for this question.
    """

    retrieval: float = 0.0
    evidence: float = 0.0
    generation: float = 0.0
    total: float = 0.0
    loading: float = 0.0
    reading: float = 0.0
    membership: float = 0.0
    rendering: float = 0.0
    embedding: float = 0.0
    embedded: int = 0

    @property
    def other(self) -> float:
        """Seconds of ``total`` no step accounts for (>= 0)."""
        return max(0.0, self.total - sum(getattr(self, s) for s in STEPS))

    def parts(self) -> list[tuple[str, float]]:
        """``(step, seconds)`` for every step of :data:`STEPS` that took time, then ``("other", s)``."""
        return [(s, getattr(self, s)) for s in STEPS if getattr(self, s) > 0.0] + [("other", self.other)]

    def slowest(self) -> str:
        """The step (or ``"other"``) that took the most seconds."""
        return max(self.parts(), key=lambda part: part[1])[0]

    def include(self, clock: Timings) -> Timings:
        """Add what ``clock`` measured around the route (``loading``, ``reading``, ``rendering``,
        ``embedding``, ``embedded``) to these Timings of the route's answer; returns ``self``."""
        for name in ("loading", "reading", "rendering", "embedding", "embedded"):
            setattr(self, name, getattr(self, name) + getattr(clock, name))
        return self

    def to_dict(self) -> dict[str, float | int]:
        """Every field, and ``other`` (seconds; ``embedded`` a count)."""
        return {**asdict(self), "other": self.other}

    @contextmanager
    def measuring(self) -> Iterator[Timings]:
        """While the block runs, :func:`timed` steps of this thread add to these Timings."""
        token = _MEASURED.set(self)
        try:
            yield self
        finally:
            _MEASURED.reset(token)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Add the block's wall-clock seconds to the field ``name``."""
        t = time.perf_counter()
        try:
            yield
        finally:
            setattr(self, name, getattr(self, name) + time.perf_counter() - t)


_MEASURED: ContextVar[Timings | None] = ContextVar("paperchat_measured_timings", default=None)
"""The Timings of the question being answered in this thread (:meth:`Timings.measuring`): a context
variable, so concurrent questions (threads of the page or a server) each add to their own."""


@contextmanager
def timed(name: str, *, tally: str = "") -> Iterator[None]:
    """Add the block's wall-clock seconds to field ``name`` of the Timings being measured in this
    thread (:meth:`Timings.measuring`), and 1 to its field ``tally`` when given; nothing when no
    Timings is being measured (a background thread, a caller that does not time)."""
    clock = _MEASURED.get()
    if clock is None:
        yield
        return
    if tally:
        setattr(clock, tally, getattr(clock, tally) + 1)
    with clock.step(name):
        yield


@dataclass
class LLMUsage:
    """What one LLM reply cost: the prompt as paperchat counted it against its budget, and the
    server's own counts and durations when it reports them (Ollama's final message of a reply:
    ``prompt_eval_count``, ``prompt_eval_duration``, ``eval_count``, ``eval_duration``,
    ``load_duration``, ``total_duration``; durations arrive in nanoseconds and are kept in seconds).

    Attributes:
        prompt_tokens: Tokens of the prompt sent, by the backend's count (an estimate for Ollama:
            :data:`rag.llm.ollama.CHARS_PER_TOKEN`), >= 0.
        budget: The prompt budget the prompt was fitted to (``llm.prompt_tokens``), in tokens.
        prompt_eval_count: Prompt tokens the server evaluated (Ollama leaves out a prefix it had
            cached, such as the system prompt of the previous reply); ``None``: not reported.
        prompt_eval_seconds: Seconds the server spent reading the prompt (before the first word).
        eval_count: Tokens the server generated; ``None``: not reported.
        eval_seconds: Seconds the server spent generating them.
        load_seconds: Seconds the server spent loading the model for this reply.
        total_seconds: Seconds the server spent on the whole reply.
        replies: How many replies these figures add up (table cell values take several prompts,
            each within ``budget``).
    """

    prompt_tokens: int = 0
    budget: int = 0
    prompt_eval_count: int | None = None
    prompt_eval_seconds: float | None = None
    eval_count: int | None = None
    eval_seconds: float | None = None
    load_seconds: float | None = None
    total_seconds: float | None = None
    replies: int = 1

    @staticmethod
    def _rate(count: int | None, seconds: float | None) -> float | None:
        return count / seconds if count is not None and seconds else None

    @property
    def prompt_rate(self) -> float | None:
        """Prompt tokens read per second by the server (``None`` when not reported)."""
        return self._rate(self.prompt_eval_count, self.prompt_eval_seconds)

    @property
    def output_rate(self) -> float | None:
        """Tokens generated per second by the server (``None`` when not reported)."""
        return self._rate(self.eval_count, self.eval_seconds)

    def add(self, one: LLMUsage) -> None:
        """Add the cost of ``one`` more reply (or several) to these figures, in place: tokens, replies
        and seconds add up; a server figure stays ``None`` until a reply reports it; the budget is
        kept (``one``'s when this has none)."""
        self.prompt_tokens += one.prompt_tokens
        self.replies += one.replies
        self.budget = self.budget or one.budget
        for name in ("prompt_eval_count", "eval_count"):
            got = getattr(one, name)
            if got is not None:
                setattr(self, name, (getattr(self, name) or 0) + got)
        for name in ("prompt_eval_seconds", "eval_seconds", "load_seconds", "total_seconds"):
            got = getattr(one, name)
            if got is not None:
                setattr(self, name, (getattr(self, name) or 0.0) + got)

    def describe(self) -> str:
        """One line for the status line: ``prompt 431 of 512 tokens (server read 402 in 17.1 s,
        23.5 tokens/s) · output 64 tokens in 6.9 s (9.3 tokens/s)``; the server's part only when reported."""
        line = f"prompt {self.prompt_tokens}" + (f" of {self.budget}" if self.budget else "") + " tokens"
        if self.replies != 1:
            line = f"{self.replies} prompts, {self.prompt_tokens} tokens" + (
                f" (each at most {self.budget})" if self.budget else ""
            )
        if self.prompt_eval_count is not None and self.prompt_eval_seconds is not None:
            rate = self.prompt_rate
            line += f" (server read {self.prompt_eval_count} in {self.prompt_eval_seconds:.1f} s" + (
                f", {rate:.1f} tokens/s)" if rate is not None else ")"
            )
        if self.eval_count is not None and self.eval_seconds is not None:
            rate = self.output_rate
            line += f" · output {self.eval_count} tokens in {self.eval_seconds:.1f} s" + (
                f" ({rate:.1f} tokens/s)" if rate is not None else ""
            )
        return line

    def to_dict(self) -> dict:
        """JSON-ready dict: the fields, and ``prompt_tokens_per_second`` / ``output_tokens_per_second``."""
        return {
            **asdict(self),
            "prompt_tokens_per_second": None if self.prompt_rate is None else round(self.prompt_rate, 2),
            "output_tokens_per_second": None if self.output_rate is None else round(self.output_rate, 2),
        }


@dataclass
class Answer:
    """A grounded answer.

    Attributes:
        question: The question as asked.
        text: The answer with ``[n]`` markers that all resolve to ``citations``.
        citations: Sources actually cited in ``text``, numbered from 1 in order of first use.
        hits: Papers the retriever returned (ranked), cited or not.
        refused: True when the collection does not answer the question (nothing is cited).
        backend: LLM backend that wrote the prose: ``"ollama:<model>"``, ``"embedded:<model>"``,
            ``"none"`` (extractive) or ``"<backend> -> extractive"`` when its text was rejected.
        note: One human-readable line on how the answer was made (fallbacks, matches).
        invented_markers: Citation markers the LLM wrote that pointed to no source (removed).
        claims: Per-sentence claim checks.
        prompt_tokens: Tokens in the LLM prompt (0 when no LLM ran).
        matched: How many papers passed the relevance floor (set questions: how many are members,
            which may be more than are cited).
        matched_at_least: ``matched`` is a lower bound: members filled every candidate checked.
        timings: Seconds per stage.
        lead: The answer's first line(s), in the form the question asks (:mod:`rag.route.lead`): for a
            list, the count line and one line per paper; ``""`` when the answer has none (a
            refusal, LLM prose). ``text`` starts with it.
        incomplete: Why the LLM's reply did not finish (cut stream, cut connection, deadline);
            ``""`` when it finished or no LLM ran. Its text was then not used: the answer is
            the extractive one, and the page offers to ask again.
        usage: What the LLM reply cost (prompt and output tokens, the server's timings); ``None``
            when no LLM was asked.
    """

    question: str
    text: str
    citations: list[Citation] = field(default_factory=list)
    hits: list[PaperHit] = field(default_factory=list)
    refused: bool = False
    backend: str = "none"
    note: str = ""
    invented_markers: int = 0
    claims: list[ClaimCheck] = field(default_factory=list)
    prompt_tokens: int = 0
    matched: int = 0
    matched_at_least: bool = False
    timings: Timings = field(default_factory=Timings)
    kind: Literal["answer", "refusal", "list", "compare", "summary", "table", "related_work", "similar"] = "answer"
    incomplete: str = ""
    lead: str = ""
    usage: LLMUsage | None = None

    @property
    def cited_ids(self) -> list[str]:
        """Paper ids cited, in citation-number order."""
        return [c.paper_id for c in self.citations]

    @property
    def supported_claims(self) -> tuple[int, int]:
        """``(k, n)``: k of the n checked claims are supported by their cited evidence."""
        return sum(1 for c in self.claims if c.supported), len(self.claims)

    def to_dict(self) -> dict:
        """JSON-ready dict of the whole answer (papers reduced to ids and labels)."""
        return {
            "question": self.question,
            "text": self.text,
            "refused": self.refused,
            "kind": self.kind,
            "backend": self.backend,
            "note": self.note,
            "matched": self.matched,
            "matched_at_least": self.matched_at_least,
            "invented_markers": self.invented_markers,
            "claims_supported": list(self.supported_claims),
            "prompt_tokens": self.prompt_tokens,
            "citations": [
                {
                    "number": c.number,
                    "paper_id": c.paper_id,
                    "label": c.label,
                    "url": c.url,
                    "authors": c.authors,
                    "year": c.year,
                    "evidence": [asdict(e) for e in c.evidence],
                }
                for c in self.citations
            ],
            "retrieved": [
                {"paper_id": h.paper.id, "label": h.paper.label, "score": round(h.score, 4)} for h in self.hits
            ],
            "timings": self.timings.to_dict(),
            "incomplete": self.incomplete,
            "lead": self.lead,
            "llm_usage": self.usage.to_dict() if self.usage is not None else None,
        }
