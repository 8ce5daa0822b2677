"""Multi-turn conversation over the answer pipeline: stable citation numbers, follow-ups,
comparisons and summaries.

A :class:`Conversation` holds the turns of one user's session. It

* keeps one citation numbering for the whole conversation: a paper keeps the number it
  first got, and every later answer's ``[n]`` markers are renumbered to it;
* rewrites follow-ups into standalone questions before retrieval, by rules (no LLM):
  ``it`` / ``this paper`` / ``the second one`` / ``[2]`` / ``what about X?`` become the
  label of the paper they refer to in earlier turns;
* routes by intent (regular expressions): *compare A and B* builds a comparison table from
  abstract sentences, *summarize X* / *summarize the papers on T* build extractive
  summaries, anything else goes to :meth:`rag.answer.AnswerPipeline.ask`;
* applies year / venue / author filters (:class:`rag.filters.Filters`) to pipeline answers
  and topic summaries; papers named explicitly are still found, and flagged when outside.

Comparisons and summaries are extractive: every cell and every sentence is a sentence of
an abstract (with its character span) and cites its paper, so they are equally grounded
with the embedded 135M model, with Ollama or with no LLM at all.

No Gradio here: the UI only renders :class:`Turn` objects.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz import fuzz

from rag.answer import REFUSAL, AnswerPipeline
from rag.citations import MARKER, format_marker
from rag.evidence import list_items
from rag.filters import FilterPlan, Filters
from rag.retrieve import Retrieval
from rag.text import content_terms, named_entities, normalize
from rag.types import Answer, Citation, Evidence, PaperHit, Timings
from store.papers import Paper, strip_markup

__all__ = [
    "NOT_STATED",
    "ROWS",
    "ComparisonTable",
    "Conversation",
    "Intent",
    "Resolution",
    "Rewrite",
    "Row",
    "Turn",
    "detect_intent",
    "display_name",
    "renumber_markers",
    "select_rows",
]

log = logging.getLogger(__name__)

NOT_STATED = "not stated in the abstract"
"""What a comparison cell says when no sentence of the abstract fits its row."""

TurnKind = Literal["answer", "compare", "summary", "clarify", "refusal"]


# --- comparison rows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of a comparison table (and one theme of a summary).

    A sentence's row score in [0, 1] is ``0.5 * semantic + 0.5 * cue``: ``semantic`` is
    :meth:`rag.evidence.EvidenceSelector.score` against :attr:`query`; ``cue`` counts the
    rhetorical cues of the row the sentence holds (0.4 each, at most 1), plus a position
    bonus of up to 0.1 (problems come early in abstracts, results late), minus 0.3 when the
    sentence holds a cue of :attr:`against`. Rhetorical cues are the usual features of
    argumentative zoning (Teufel and Moens, Computational Linguistics 2002): generic
    queries alone rank sentences poorly on 150-word abstracts.

    Attributes:
        key: Stable identifier (``"problem"``).
        title: Row heading shown to users.
        query: What the row asks of the abstract, for the semantic score.
        cues: Words and phrases that mark a sentence of this row (one hit each).
        strong: Phrases that mark it unmistakably ("we propose", "on 8 datasets"; two hits each).
        against: Cues of other rows that argue against this one (may be ``None``).
        position: ``"early"``, ``"late"`` or ``""``: where such sentences usually stand.
        requires_own: Only sentences about the paper's own work count (limitations).
    """

    key: str
    title: str
    query: str
    cues: re.Pattern[str]
    strong: re.Pattern[str] | None = None
    against: re.Pattern[str] | None = None
    position: str = ""
    requires_own: bool = False


_PRIOR = re.compile(
    r"\b(existing|current|prior|previous|conventional|standard|traditional|classical|most|many|some|recent)\s+"
    r"(\w+\s+)?(methods?|approaches|works?|models|techniques|systems|paradigms?|algorithms?|studies)\b",
    re.I,
)
_OWN = re.compile(r"\b(we|our|ours|this (paper|work|study)|the proposed)\b", re.I)
_NUMERIC_RESULT = re.compile(r"\d(?:[\d.,]*)\s*(?:\\?%|×|x\b|\$\\times\$|times\b|-fold\b|points?\b)", re.I)

ROWS: tuple[Row, ...] = (
    Row(
        "problem",
        "Problem",
        "The problem or challenge this paper addresses: existing methods are limited, costly or fail.",
        re.compile(
            r"\b(however|challeng\w*|problems?|suffer\w*|struggl\w*|limit(?:ed|ation|ations|s)?|bottlenecks?|lacks?|"
            r"lacking|costly|expensive|overhead|remains?|difficult\w*|fail\w*|issues?|gaps?|hinder\w*|constrain\w*|"
            r"inefficien\w*|unclear|open question|neglect\w*|overlook\w*|insufficient|unexplored|vulnerable)\b",
            re.I,
        ),
        strong=re.compile(
            r"\b(we (study|consider|investigate|address|tackle|focus on|revisit|examine)|"
            r"this (paper|work) (studies|addresses|investigates)|remains? (an open|challenging|unclear|difficult))\b",
            re.I,
        ),
        against=re.compile(r"\bwe (propose|introduce|present)\b|\bexperiments?\b|\boutperform", re.I),
        position="early",
    ),
    Row(
        "approach",
        "Approach",
        "We propose a new method or framework; how the proposed approach works.",
        re.compile(
            r"\b(we (formulate|derive|build|leverage|adopt|employ|use|train)|named|"
            r"(a|an) (novel|new|simple|unified|general|principled|efficient|lightweight|training-free)|"
            r"(our|the proposed) (method|approach|framework|model|algorithm))\b",
            re.I,
        ),
        strong=re.compile(
            r"\b(we (propose|introduce|present|develop|design|devise)|"
            r"(this|our) (paper|work) (proposes|introduces|presents)|called|dubbed|termed)\b",
            re.I,
        ),
        against=_PRIOR,
    ),
    Row(
        "data",
        "Data / benchmarks",
        "Experiments on datasets and benchmarks; the tasks and environments it is evaluated on.",
        re.compile(
            r"\b(datasets?|benchmarks?|corpus|corpora|experiments?|evaluat\w*|tested on|tasks?|suites?|"
            r"environments?|simulat\w*|real-world|empirical\w*|user study|participants)\b",
            re.I,
        ),
        strong=re.compile(
            r"\b\d+\s+(?:[\w-]+\s+){0,2}(?:datasets|benchmarks|tasks|environments|languages|domains)\b"
            r"|\b(?:on|across|over)\s+(?:[\w-]+\s+){0,3}(?:datasets|benchmarks|tasks)\b"
            r"|\b(?:experiments|evaluations?)\s+(?:on|across|with)\b",
            re.I,
        ),
    ),
    Row(
        "results",
        "Key results",
        "Results: the method outperforms baselines and improves accuracy by a stated amount.",
        re.compile(
            r"\b(improv\w*|achiev\w*|gains?|reduc\w*|faster|speed-?ups?|superior|better|significant\w*|"
            r"consistently|demonstrat\w*|shows? that|boost\w*|up to|matches|competitive|effective\w*|optimal)\b",
            re.I,
        ),
        strong=re.compile(r"\b(outperform\w*|surpass\w*|state-of-the-art|sota)\b", re.I),
        against=_PRIOR,
        position="late",
    ),
    Row(
        "limitations",
        "Limitations",
        "Limitations of the proposed method: it fails, cannot, or is restricted; future work.",
        re.compile(
            r"\b(limitations?|limited to|fails? to|cannot|can not|drawbacks?|trade-?offs?|at the cost of|"
            r"restricted to|only applies|future work|does not (scale|generalize|hold))\b",
            re.I,
        ),
        against=_PRIOR,
        requires_own=True,
    ),
)
ROW_MIN_SCORE = 0.30
"""Least row score (see :class:`Row`) for a sentence to fill a cell; else :data:`NOT_STATED`."""


def _row_score(row: Row, ev: Evidence, index: int, count: int, label: str) -> float:
    text = strip_markup(ev.sentence)
    if row.requires_own and not (_OWN.search(text) or (label and label.lower() in text.lower())):
        return 0.0
    hits = len({m.group(0).lower() for m in row.cues.finditer(text)})
    if row.strong is not None:
        hits += 2 * len({m.group(0).lower() for m in row.strong.finditer(text)})
    if row.key == "results" and _NUMERIC_RESULT.search(ev.sentence):
        hits += 2
    if row.key == "approach" and label and not label.endswith("…") and label.lower() in text.lower():
        hits += 1
    if not hits:
        return 0.25 * ev.score  # the semantic part alone, halved: never enough on its own
    cue = min(1.0, 0.4 * hits)
    pos = index / max(1, count - 1)
    if row.position == "early":
        cue += 0.1 * (1.0 - pos)
    elif row.position == "late":
        cue += 0.1 * pos
    if row.against is not None and row.against.search(text):
        cue -= 0.3
    return max(0.0, min(1.0, 0.5 * ev.score + 0.5 * min(1.0, cue)))


def select_rows(
    pipeline: AnswerPipeline,
    paper: Paper,
    rows: Sequence[Row] = ROWS,
    *,
    topic: str = "",
    min_score: float = ROW_MIN_SCORE,
) -> dict[str, tuple[Evidence, ...]]:
    """The best sentence of ``paper``'s abstract for each row, or none when nothing fits.

    Rows are filled in order of how specific their cues are (approach, results, data,
    problem, limitations); a sentence already used by another row is taken again only
    when it scores at least ``min_score + 0.1`` for this row and no unused one qualifies.

    Args:
        pipeline: Supplies the sentence scorer (``pipeline.evidence.score``).
        paper: The paper whose abstract is read.
        rows: Rows to fill.
        topic: Optional topic prepended to each row's query (topic summaries).
        min_score: Least row score in [0, 1] for a cell.

    Returns:
        Row key -> the chosen evidence (empty tuple = not stated in the abstract).
    """
    order = {s.start: i for i, s in enumerate(pipeline.evidence.sentences(paper)[0])}
    count = max(1, len(order))
    priority = ["approach", "results", "data", "problem", "limitations"]
    todo = sorted(rows, key=lambda r: priority.index(r.key) if r.key in priority else len(priority))
    used: set[int] = set()
    out: dict[str, tuple[Evidence, ...]] = {}
    for row in todo:
        query = f"{topic}. {row.query}" if topic else row.query
        scored = pipeline.evidence.score(query, paper)
        ranked = sorted(
            ((_row_score(row, e, order.get(e.start, 0), count, paper.label), e) for e in scored),
            key=lambda t: t[0],
            reverse=True,
        )
        pick: Evidence | None = None
        for sc, e in ranked:
            if sc < min_score:
                break
            if e.start not in used:
                pick = replace(e, score=round(sc, 4))
                break
        if pick is None:
            for sc, e in ranked:
                if sc >= min_score + 0.1:
                    pick = replace(e, score=round(sc, 4))
                    break
        if pick is None:
            out[row.key] = ()
            continue
        used.add(pick.start)
        # "three challenges: (1) Overhead." is quoted with the sentences holding items (2), (3).
        more = list_items(pick, scored)
        used.update(e.start for e in more)
        out[row.key] = (pick, *more)
    return {r.key: out[r.key] for r in rows}


@dataclass(frozen=True)
class ComparisonTable:
    """A comparison of papers row by row, each cell an abstract sentence (or nothing).

    Attributes:
        rows: The rows, in display order.
        papers: One citation per compared paper (conversation numbers), in column order.
        cells: ``cells[i][j]``: evidence of paper ``j`` for row ``i`` (empty = not stated).
    """

    rows: tuple[Row, ...]
    papers: tuple[Citation, ...]
    cells: tuple[tuple[tuple[Evidence, ...], ...], ...]

    def cell(self, row_key: str, paper_id: str) -> tuple[Evidence, ...]:
        """Evidence of one paper for one row (by row key and paper id)."""
        i = next(k for k, r in enumerate(self.rows) if r.key == row_key)
        j = next(k for k, c in enumerate(self.papers) if c.paper_id == paper_id)
        return self.cells[i][j]


# --- turns and intents -------------------------------------------------------------------


@dataclass
class Turn:
    """One question and what the conversation answered.

    Attributes:
        question: The text the user typed.
        standalone: The question after follow-up rewriting (equal to ``question`` when
            nothing was rewritten; for comparisons and summaries, what was done).
        answer: The answer, with markers and citations in conversation numbering.
        kind: ``answer``, ``compare``, ``summary``, ``clarify`` or ``refusal``.
        table: The comparison table of a ``compare`` turn.
        candidates: Papers to choose from, for a ``clarify`` turn.
    """

    question: str
    standalone: str
    answer: Answer
    kind: TurnKind = "answer"
    table: ComparisonTable | None = None
    candidates: tuple[Paper, ...] = ()

    @property
    def citations(self) -> list[Citation]:
        """Citations of this turn (conversation numbers)."""
        return self.answer.citations

    @property
    def rewritten(self) -> bool:
        """True when the question was rewritten before retrieval."""
        return self.kind == "answer" and self.standalone.strip() != self.question.strip()


@dataclass(frozen=True)
class Intent:
    """What a message asks for: ``ask`` (default), ``compare``, ``summary`` or ``topic``."""

    kind: Literal["ask", "compare", "summary", "topic"]
    a: str = ""
    b: str = ""
    alternatives: tuple[tuple[str, str], ...] = ()


_END = r"\s*[?.!]*\s*$"
_COMPARE_HEAD = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:compare|contrast)\s+(?P<rest>.+?)" + _END, re.I
)
_COMPARE_FORMS = [
    re.compile(r"^\s*(?:what(?:'s| is| are)\s+)?(?:the\s+)?differences?\s+between\s+(?P<rest>.+?)" + _END, re.I),
    re.compile(
        r"^\s*how\s+(?:does|do|is|are)\s+(?P<a>.+?)\s+(?:differ|compare|different)\s+(?:from|to|with|against)\s+(?P<b>.+?)"
        + _END,
        re.I,
    ),
    re.compile(r"^\s*how\s+do\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:differ|compare)\b.*$", re.I),
    re.compile(r"^\s*(?P<a>[^?]+?)\s+(?:vs\.?|versus)\s+(?P<b>[^?]+?)" + _END, re.I),
]
_COMPARE_THEM = re.compile(
    r"^\s*(?:please\s+)?(?:compare|contrast)\s+(?:them|both|these|those|the two|these two|those two)"
    r"(?:\s+(?:papers|methods|works|approaches))?" + _END,
    re.I,
)
_CONNECTOR = re.compile(r"\s+(with|versus|vs\.?|against|to|and)\s+", re.I)
_STRONG = {"with", "versus", "vs", "vs.", "against"}

_TOPIC_WORDS = r"(?:papers|works|studies|research|literature|abstracts|articles|methods)"  # plural: a topic
_SUMMARY_VERB = (
    r"(?:please\s+)?(?:summari[sz]e|give\s+(?:me\s+)?(?:a\s+|an\s+)?(?:short\s+|brief\s+)?(?:summary|overview)\s+of|"
    r"(?:a\s+)?(?:short\s+|brief\s+)?(?:summary|overview)\s+of|tl;?\s?dr(?:\s+of)?|what\s+is\s+the\s+gist\s+of)"
)
_SUMMARY_TOPIC = [
    re.compile(
        rf"^\s*{_SUMMARY_VERB}\s+(?:the\s+|all\s+(?:the\s+)?)?{_TOPIC_WORDS}\s+"
        r"(?:on|about|in|regarding|related to|for|dealing with|that use|using|concerning)\s+(?P<topic>.+?)" + _END,
        re.I,
    ),
    re.compile(rf"^\s*{_SUMMARY_VERB}\s+(?:the\s+|all\s+(?:the\s+)?)?(?P<topic>.+?)\s+{_TOPIC_WORDS}" + _END, re.I),
]
_SUMMARY_ONE = re.compile(rf"^\s*{_SUMMARY_VERB}\s+(?P<ref>.+?)" + _END, re.I)


def _splits(rest: str) -> list[tuple[str, str]]:
    """Ways to split ``"A and B"`` / ``"A with B"`` into two references, most likely first."""
    found = []
    for m in _CONNECTOR.finditer(rest):
        a, b = rest[: m.start()].strip(), rest[m.end() :].strip()
        if a and b:
            found.append((m.group(1).lower() not in _STRONG, m.start(), (a, b)))
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


def detect_intent(message: str) -> Intent:
    """Classify a message by regular expressions.

    Examples:
        >>> detect_intent("compare DANCE and APM").kind
        'compare'
        >>> detect_intent("Summarize the papers on federated learning").a
        'federated learning'
        >>> detect_intent("What accuracy gain does DANCE report?").kind
        'ask'

    Returns:
        An :class:`Intent`; for ``compare`` ``a``/``b`` are the two references (and
        ``alternatives`` other ways to split the text); for ``summary`` ``a`` is the
        reference; for ``topic`` ``a`` is the topic.
    """
    text = message.strip()
    if _COMPARE_THEM.match(text):
        return Intent("compare", "them", "them")
    m = _COMPARE_HEAD.match(text)
    rest = None
    if m:
        rest = m.group("rest")
    else:
        for pat in _COMPARE_FORMS:
            m = pat.match(text)
            if m:
                if "rest" in m.groupdict():
                    rest = m.group("rest")
                else:
                    return Intent("compare", m.group("a").strip(), m.group("b").strip())
                break
    if rest is not None:
        splits = _splits(rest)
        if splits:
            (a, b), *more = splits
            return Intent("compare", a, b, tuple(more))
    for pat in _SUMMARY_TOPIC:
        m = pat.match(text)
        if m:
            return Intent("topic", m.group("topic").strip())
    m = _SUMMARY_ONE.match(text)
    if m:
        return Intent("summary", m.group("ref").strip())
    return Intent("ask")


# --- references --------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """What a reference (``"DANCE"``, ``"[2]"``, ``"it"``, ``"the quantum paper"``) points to.

    Attributes:
        ref: The reference as written.
        paper_ids: One id = resolved; several = ambiguous (candidates, best first); none = not found.
        how: ``"id"``, ``"number"``, ``"earlier turn"``, ``"name"`` or ``"description"``.
        message: Why it failed, for the clarification (``""`` when resolved).
    """

    ref: str
    paper_ids: tuple[str, ...]
    how: str = ""
    message: str = ""

    @property
    def resolved(self) -> bool:
        """Exactly one paper."""
        return len(self.paper_ids) == 1


@dataclass(frozen=True)
class Rewrite:
    """A follow-up rewritten into a standalone question.

    Attributes:
        text: The standalone question.
        paper_ids: Papers the follow-up referred to (by pronoun, ordinal or number).
        names_other: The question also names papers of its own (so retrieval must not be
            restricted to ``paper_ids``).
    """

    text: str
    paper_ids: tuple[str, ...] = ()
    names_other: bool = False


_ORDINALS = {
    "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
    "fifth": 4, "5th": 4, "former": 0, "last": -1, "latter": -1,
}  # fmt: skip
_NOUN = r"(?:one|paper|method|work|approach|model|framework|study|article|system|technique|source)"
_ORDINAL_REF = re.compile(
    rf"\bthe\s+(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+{_NOUN}\b|\bthe\s+(?P<fl>former|latter)\b",
    re.I,
)
_NUMBER_REF = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]|\b(?:paper|source|reference|ref\.?|citation)\s+#?(\d+)\b", re.I)
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|the same|the above|the previous|the)\s+(?:paper|method|work|approach|model|framework|study|"
    r"article|system|technique)\b(?!s)",
    re.I,
)
_PLURAL = re.compile(
    r"\b(?:these|those|both|the two|the)\s+(?:papers|methods|works|approaches|models|frameworks|studies)\b|\bboth\b",
    re.I,
)
_IT = re.compile(r"\b(?:it|its)\b", re.I)
_THEY = re.compile(r"\b(?:they|them|their)\b", re.I)
_WHAT_ABOUT = re.compile(r"^\s*(?:and\s+|but\s+)?(?:what|how)\s+about\s+(?P<x>.+?)\s*\??\s*$", re.I)
_STRIP_GENERIC = re.compile(r"\b(the|a|an|paper|papers|method|approach|work|model|framework|on|about|one)\b", re.I)


def display_name(paper: Paper) -> str:
    """How a rewritten question names a paper: its label, quoted when it is a description."""
    label = paper.label or paper.id
    if label.endswith("…"):
        return f"“{label.rstrip('…').strip()}”"
    return label


def renumber_markers(text: str, mapping: dict[int, int]) -> str:
    """Rewrite ``[n]`` / ``[n, m]`` markers by ``mapping`` (numbers not in it are kept).

    >>> renumber_markers("A [1]. B [2, 1].", {1: 3, 2: 1})
    'A [3]. B [1, 3].'
    """

    def sub(m: re.Match[str]) -> str:
        nums = [mapping.get(int(p), int(p)) for p in m.group(1).split(",")]
        return format_marker(nums[0]) if len(nums) == 1 else "[" + ", ".join(str(n) for n in nums) + "]"

    return MARKER.sub(sub, text)


# --- the conversation --------------------------------------------------------------------


@dataclass
class _Numbering:
    """Conversation-wide citation numbers (a paper keeps its first number)."""

    by_paper: dict[str, int] = field(default_factory=dict)
    references: dict[int, Citation] = field(default_factory=dict)

    def number(self, paper_id: str) -> int:
        if paper_id not in self.by_paper:
            self.by_paper[paper_id] = len(self.by_paper) + 1
        return self.by_paper[paper_id]


class Conversation:
    """The turns of one conversation and its citation numbering.

    Not shared between users: the UI keeps one per session. Calls are serialised by a lock.

    Args:
        pipeline: The answer pipeline (its retriever and evidence selector are used too);
            may be replaced between turns (:attr:`pipeline`) when the user changes the LLM.
        max_summary_papers: Most papers a topic summary uses.
    """

    def __init__(self, pipeline: AnswerPipeline, *, max_summary_papers: int = 5):
        self.pipeline = pipeline
        self.max_summary_papers = max_summary_papers
        self.turns: list[Turn] = []
        self._numbers = _Numbering()
        self._lock = threading.Lock()

    # --- numbering ---------------------------------------------------------------------

    @property
    def references(self) -> dict[int, Citation]:
        """Every paper cited so far: conversation number -> its latest citation, by number."""
        return dict(sorted(self._numbers.references.items()))

    def number_of(self, paper_id: str) -> int | None:
        """The conversation number of a paper, or ``None`` if it was never cited."""
        return self._numbers.by_paper.get(paper_id)

    def paper_with_number(self, number: int) -> str | None:
        """The paper id cited as ``[number]`` in this conversation, or ``None``."""
        for pid, n in self._numbers.by_paper.items():
            if n == number:
                return pid
        return None

    def _cite(self, paper: Paper, evidence: Sequence[Evidence]) -> Citation:
        """A citation of ``paper`` with its conversation number (assigned on first use)."""
        unique = {e.start: e for e in reversed(list(evidence))}  # one per sentence (the first given wins)
        c = Citation(
            number=self._numbers.number(paper.id),
            paper_id=paper.id,
            label=paper.label,
            evidence=tuple(sorted(unique.values(), key=lambda e: e.start)),
            url=paper.url,
            authors=paper.author_line,
            year=paper.year,
        )
        self._numbers.references[c.number] = c
        return c

    def renumber(self, answer: Answer) -> Answer:
        """The answer with markers and citations in conversation numbering.

        Each citation's paper gets the number it first got in this conversation (new papers
        get the next free numbers, in the answer's order); markers are rewritten to match.
        """
        mapping: dict[int, int] = {}
        cits = []
        for c in answer.citations:
            mapping[c.number] = self._numbers.number(c.paper_id)
            nc = replace(c, number=mapping[c.number])
            self._numbers.references[nc.number] = nc
            cits.append(nc)
        return replace(answer, text=renumber_markers(answer.text, mapping), citations=cits)

    # --- public entry point ------------------------------------------------------------

    def ask(
        self,
        message: str,
        *,
        top_k: int | None = None,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
        filters: Filters | None = None,
    ) -> Turn:
        """Answer one message of the conversation and record the turn.

        Comparisons and summaries are detected first (:func:`detect_intent`); anything else
        is rewritten into a standalone question (:meth:`rewrite`) and answered by the
        pipeline, streaming LLM prose to ``on_token``.

        Filters restrict what *searches* the collection: pipeline answers and topic
        summaries ("Summarize the papers on T") only use papers that pass, and a filter that
        no paper passes gives the refusal ``... No paper in the collection matches the
        filter (year=2023).``. With ``filters.auto`` a year the message states ("papers from
        2023 about diffusion", "Summarize the papers from 2023 on diffusion") becomes a year
        filter. Papers the user *names* (compare DANCE and APM, Summarize DANCE, ``[2]``) are
        resolved across the whole collection, as a researcher who names a paper expects to
        get it; one outside the filter is still compared or summarized, and flagged in the
        text and the note (``outside the filter (year=2023): DANCE [1]``). A follow-up that
        refers to earlier papers (``it``, ``the second one``) all outside the filter is
        refused with that reason. Every active filter is in the answer's ``note``.

        Args:
            message: What the user typed.
            top_k: Most papers to cite for single-paper questions (default from settings).
            on_token: Receives LLM prose pieces as they stream (pipeline answers only).
            stop: When set, generation stops.
            filters: Year / venue / author restrictions, and whether a year stated in the
                message counts (``auto``); ``None`` restricts nothing.

        Returns:
            The recorded :class:`Turn`.
        """
        with self._lock:
            intent = detect_intent(message)
            plan = None
            if filters is not None and intent.kind != "ask":
                plan = filters.plan(message, self.pipeline.retriever.papers)
                if plan.question != message:  # an automatic year phrase was taken out: route without it
                    intent = detect_intent(plan.question)
            if intent.kind == "compare":
                turn = self._compare(message, intent, plan)
            elif intent.kind == "topic":
                turn = self._summarize_topic(message, intent.a, plan)
            elif intent.kind == "summary":
                turn = self._summarize(message, intent.a, plan)
            else:
                turn = self._ask(message, top_k=top_k, on_token=on_token, stop=stop, filters=filters)
            self.turns.append(turn)
            return turn

    def compare(self, a_ref: str, b_ref: str, *, filters: Filters | None = None) -> Turn:
        """Compare two papers given by name, ``[n]``, an earlier-turn reference or a description.

        Papers outside ``filters`` are compared anyway and flagged (see :meth:`ask`).
        """
        with self._lock:
            message = f"Compare {a_ref} and {b_ref}"
            turn = self._compare(message, Intent("compare", a_ref, b_ref), self._plan(filters, message))
            self.turns.append(turn)
            return turn

    def summarize(self, ref: str, *, filters: Filters | None = None) -> Turn:
        """Summarize one paper (by name, ``[n]``, earlier-turn reference or description).

        A paper outside ``filters`` is summarized anyway and flagged (see :meth:`ask`).
        """
        with self._lock:
            message = f"Summarize {ref}"
            turn = self._summarize(message, ref, self._plan(filters, message))
            self.turns.append(turn)
            return turn

    def summarize_topic(self, topic: str, *, filters: Filters | None = None) -> Turn:
        """Summarize the papers of the collection on a topic, grouped by theme.

        Only papers that pass ``filters`` are used.
        """
        with self._lock:
            message = f"Summarize the papers on {topic}"
            turn = self._summarize_topic(message, topic, self._plan(filters, topic))
            self.turns.append(turn)
            return turn

    # --- filters -----------------------------------------------------------------------

    def _plan(self, filters: Filters | None, text: str) -> FilterPlan | None:
        return filters.plan(text, self.pipeline.retriever.papers) if filters is not None else None

    @staticmethod
    def _no_match(plan: FilterPlan) -> str:
        """The refusal for a filter no paper passes (the pipeline's wording)."""
        return f"{REFUSAL} No paper in the collection matches the filter ({plan.description})."

    @staticmethod
    def _outside(plan: FilterPlan | None, citations: Sequence[Citation]) -> str:
        """``"outside the filter (year=2023): DANCE [1]"`` for cited papers the filter excludes, else ``""``."""
        if plan is None or plan.allowed is None:
            return ""
        out = [f"{c.label} {format_marker(c.number)}" for c in citations if c.paper_id not in plan.allowed]
        return f"outside the filter ({plan.description}): {', '.join(out)}" if out else ""

    @staticmethod
    def _with_filter_note(plan: FilterPlan | None, note: str, outside: str = "") -> str:
        return "; ".join(x for x in (plan.note if plan else "", outside, note) if x)

    # --- follow-ups ----------------------------------------------------------------------

    def _recent_citations(self) -> list[Citation]:
        """Citations of the latest turn that cited anything (order of the answer)."""
        for t in reversed(self.turns):
            if t.citations:
                return list(t.citations)
        return []

    def _label(self, pid: str) -> str:
        return display_name(self.pipeline.retriever.papers[pid])

    def rewrite(self, question: str) -> Rewrite:
        """Rewrite a follow-up into a standalone question, by rules.

        * ``[2]``, ``paper 2`` -> the label of the paper cited as [2] in this conversation;
        * ``the second one``, ``the former``/``the latter`` -> that paper of the previous answer;
        * ``it``, ``its``, ``this paper``, ``the method`` -> the first paper the previous
          answer cited (only when the question names no paper itself);
        * ``they``, ``both``, ``these papers`` -> the papers the previous answer cited (up to 3);
        * ``what about X?`` -> the previous question about X instead.

        Returns:
            The standalone question and the papers it referred to.
        """
        text = question
        ids: list[str] = []
        recent = self._recent_citations()
        names, _ = self.pipeline.retriever.names.match(question)
        names_other = bool(names)

        m = _WHAT_ABOUT.match(text)
        prev = next((t for t in reversed(self.turns) if t.kind == "answer" and not t.answer.refused), None)
        if m and prev is not None and prev.citations:
            x = m.group("x")
            focus = prev.citations[0]
            label = self._label(focus.paper_id)
            base = prev.standalone
            text = base.replace(label, x) if label in base else f"{base.rstrip('?. ')} — {x}?"
            return Rewrite(text, (), True)

        def number_sub(mm: re.Match[str]) -> str:
            nums = mm.group(1) or mm.group(2)
            labels = []
            for part in nums.split(","):
                pid = self.paper_with_number(int(part))
                if pid is None:
                    return mm.group(0)
                ids.append(pid)
                labels.append(self._label(pid))
            return " and ".join(labels)

        text = _NUMBER_REF.sub(number_sub, text)

        def ordinal_sub(mm: re.Match[str]) -> str:
            word = (mm.group("ord") or mm.group("fl")).lower()
            idx = _ORDINALS[word]
            if word == "latter" and len(recent) > 2:
                idx = 1
            if not recent or idx >= len(recent):
                return mm.group(0)
            pid = recent[idx].paper_id
            ids.append(pid)
            return self._label(pid)

        text = _ORDINAL_REF.sub(ordinal_sub, text)
        if recent and not names_other and not ids:
            focus_id = recent[0].paper_id
            label = self._label(focus_id)
            plural = [c.paper_id for c in recent[:3]]
            if len(plural) > 1 and (_PLURAL.search(text) or _THEY.search(text)):
                joined = " and ".join(self._label(p) for p in plural)
                text = _PLURAL.sub(joined, text)
                text = _THEY.sub(lambda mm: f"{joined}'s" if mm.group(0).lower() == "their" else joined, text)
                ids.extend(plural)
            elif _DEMONSTRATIVE.search(text) or _IT.search(text):
                text = _DEMONSTRATIVE.sub(label, text)
                text = _IT.sub(lambda mm: f"{label}'s" if mm.group(0).lower() == "its" else label, text)
                ids.append(focus_id)
        return Rewrite(text, tuple(dict.fromkeys(ids)), names_other)

    def resolve(self, ref: str) -> Resolution:
        """Which paper a reference means.

        In order: a paper id of the collection (``000_6b930c46f6674b66#1``, as the sources list
        shows it); a citation number of this conversation (``[2]``, ``2``, ``paper 2``); an
        earlier-turn reference (``it``, ``the second one``); a name (the retriever's name
        matcher, then rapidfuzz ratio over labels and aliases, at least
        ``settings.retrieval.name_match_min``); a description (retrieval: resolved when the
        best hit is relevant and clearly ahead, candidates when the next hits score at least
        90% of it).
        """
        ref = ref.strip().strip("“”\"'").strip()
        recent = self._recent_citations()
        if not ref:
            return Resolution(ref, (), "", "the reference is empty")
        pid = ref.strip("`")
        if pid in self.pipeline.retriever.papers:
            return Resolution(ref, (pid,), "id")
        m = re.fullmatch(r"\[?\s*(\d+)\s*\]?|(?:paper|source|reference|number|no\.?|#)\s*#?(\d+)", ref, re.I)
        if m:
            n = int(m.group(1) or m.group(2))
            pid = self.paper_with_number(n)
            if pid is None:
                known = ", ".join(format_marker(k) for k in sorted(self._numbers.references)) or "none yet"
                return Resolution(
                    ref,
                    (),
                    "number",
                    f"no paper is cited as {format_marker(n)} in this conversation (cited so far: {known})",
                )
            return Resolution(ref, (pid,), "number")
        if re.fullmatch(r"(it|this( one| paper| method)?|that( one| paper| method)?|the (paper|method))", ref, re.I):
            if recent:
                return Resolution(ref, (recent[0].paper_id,), "earlier turn")
            return Resolution(ref, (), "earlier turn", f"nothing was cited before, so “{ref}” refers to no paper")
        om = re.fullmatch(
            rf"the\s+(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|former|latter)(\s+{_NOUN})?", ref, re.I
        )
        if om:
            idx = _ORDINALS[om.group(1).lower()]
            if recent and idx < len(recent):
                return Resolution(ref, (recent[idx].paper_id,), "earlier turn")
            return Resolution(ref, (), "earlier turn", f"the previous answer has no {om.group(1)} paper")
        # names
        r = self.pipeline.retriever.search(ref)
        named = list(dict.fromkeys(pid for ids in r.names.values() for pid in ids))
        if len(named) == 1:
            return Resolution(ref, (named[0],), "name")
        if len(named) > 1:
            return Resolution(ref, tuple(named[:5]), "name", f"“{ref}” names {len(named)} papers")
        fuzzy = self._fuzzy_names(ref)
        if len(fuzzy) == 1:
            return Resolution(ref, (fuzzy[0],), "name")
        if len(fuzzy) > 1:
            return Resolution(ref, tuple(fuzzy[:5]), "name", f"“{ref}” is close to the names of {len(fuzzy)} papers")
        return self._by_description(ref, r)

    def _fuzzy_names(self, ref: str) -> list[str]:
        """Papers whose name (label or alias that no other abstract uses) is within
        ``name_match_min`` (rapidfuzz ratio, 0-100) of ``ref``; generic words are ignored."""
        key = re.sub(r"\s+", " ", _STRIP_GENERIC.sub(" ", normalize(ref).replace("-", " "))).strip()
        if not key:
            return []
        floor = self.pipeline.settings.retrieval.name_match_min
        index = self.pipeline.retriever.names  # names only: labels other abstracts also use are fields
        best: dict[str, float] = {}
        for name, pids in [*index.names.items(), *index.phrases.items()]:
            s = fuzz.ratio(key, name.replace("-", " "))
            for pid in pids:
                if s >= floor and s > best.get(pid, 0):
                    best[pid] = s
        top = max(best.values(), default=0)
        return [pid for pid, s in sorted(best.items(), key=lambda t: -t[1]) if s >= top - 3]

    def _by_description(self, ref: str, r: Retrieval) -> Resolution:
        rs = self.pipeline.settings.retrieval
        hits = r.hits
        if not hits or len(content_terms(ref)) == 0:
            return Resolution(ref, (), "description", f"nothing in the collection matches “{ref}”")
        top = hits[0]
        if top.dense < rs.relevance_floor and top.coverage < rs.coverage_floor:
            return Resolution(
                ref, (), "description", f"nothing in the collection is close to “{ref}” (best: {top.paper.label})"
            )
        close = [
            h.paper.id
            for h in hits[1:5]
            if h.score >= 0.9 * top.score
            or (h.score >= 0.65 * top.score and h.coverage >= rs.coverage_floor and h.dense >= rs.relevance_floor)
        ]
        if close:
            return Resolution(ref, (top.paper.id, *close), "description", f"“{ref}” fits several papers")
        return Resolution(ref, (top.paper.id,), "description")

    # --- answers -------------------------------------------------------------------------

    def _ask(self, message, *, top_k, on_token, stop, filters: Filters | None = None) -> Turn:
        rw = self.rewrite(message)
        allowed = set(rw.paper_ids) if rw.paper_ids and not rw.names_other else None
        if filters is not None and allowed:
            plan = filters.plan(rw.text, self.pipeline.retriever.papers)
            if plan.allowed is not None and plan.allowed.isdisjoint(allowed):
                t0 = time.perf_counter()
                names = " and ".join(self._label(pid) for pid in rw.paper_ids)
                verb, obj = ("is", "it") if len(rw.paper_ids) == 1 else ("are", "them")
                text = (
                    f"{REFUSAL} {names} {verb} outside the filter ({plan.description}); "
                    f"remove the filter to ask about {obj}."
                )
                return self._refusal_turn(message, text, t0, note=plan.note, standalone=rw.text)
        ans = self.pipeline.ask(rw.text, top_k=top_k, allowed=allowed, on_token=on_token, stop=stop, filters=filters)
        ans = replace(self.renumber(ans), question=message)
        return Turn(message, rw.text, ans, "refusal" if ans.refused else "answer")

    def _clarify(self, message: str, resolutions: Sequence[Resolution], t0: float, what: str) -> Turn:
        papers = self.pipeline.retriever.papers
        lines = []
        cands: list[Paper] = []
        for res in resolutions:
            if res.resolved:
                continue
            if res.paper_ids:
                lines.append(f"Which paper do you mean by “{res.ref}”? Candidates:")
                for pid in res.paper_ids:
                    p = papers[pid]
                    cands.append(p)
                    n = self.number_of(pid)
                    num = f" (cited as {format_marker(n)})" if n else ""
                    lines.append(f"- {p.label} — `{p.id}`{num}")
            else:
                lines.append(f"I could not find “{res.ref}”: {res.message}.")
        lines.append(f"Name the papers (or use their numbers, e.g. [1]) to {what}.")
        ans = Answer(
            question=message,
            text="\n".join(lines),
            refused=False,
            backend="none",
            note="clarification needed",
            timings=Timings(total=time.perf_counter() - t0),
        )
        return Turn(message, message, ans, "clarify", candidates=tuple(dict.fromkeys(cands)))

    def _compare(self, message: str, intent: Intent, plan: FilterPlan | None = None) -> Turn:
        t0 = time.perf_counter()
        if intent.a == "them" and intent.b == "them":
            recent = self._recent_citations()
            if len(recent) < 2:
                res = Resolution("them", (), "earlier turn", "the previous answer cites fewer than two papers")
                return self._clarify(message, [res], t0, "compare")
            ra = Resolution(recent[0].label, (recent[0].paper_id,), "earlier turn")
            rb = Resolution(recent[1].label, (recent[1].paper_id,), "earlier turn")
        else:
            ra, rb = self.resolve(intent.a), self.resolve(intent.b)
            if not (ra.resolved and rb.resolved):
                for a, b in intent.alternatives[:5]:
                    xa, xb = self.resolve(a), self.resolve(b)
                    if xa.resolved and xb.resolved and xa.paper_ids != xb.paper_ids:
                        ra, rb = xa, xb
                        break
        if not (ra.resolved and rb.resolved):
            return self._clarify(message, [ra, rb], t0, "compare")
        if ra.paper_ids == rb.paper_ids:
            p = self.pipeline.retriever.papers[ra.paper_ids[0]]
            res = Resolution(f"{ra.ref}” and “{rb.ref}", (), "", f"both refer to the same paper, {p.label}")
            return self._clarify(message, [res], t0, "compare")
        t_ev = time.perf_counter()
        table = self.comparison_table([ra.paper_ids[0], rb.paper_ids[0]])
        evidence_s = time.perf_counter() - t_ev
        text = self._comparison_paragraph(table)
        outside = self._outside(plan, table.papers)
        if outside:
            text += f" Note: {outside} (compared because named)."
        hits = [PaperHit(self.pipeline.retriever.papers[c.paper_id], 1.0) for c in table.papers]
        ans = Answer(
            question=message,
            text=text,
            citations=list(table.papers),
            hits=hits,
            backend="none",
            note=self._with_filter_note(plan, "comparison table of abstract sentences (extractive, no LLM)", outside),
            matched=len(table.papers),
            timings=Timings(retrieval=t_ev - t0, evidence=evidence_s, total=time.perf_counter() - t0),
            kind="compare",
        )
        standalone = f"Compare {table.papers[0].label} and {table.papers[1].label}"
        return Turn(message, standalone, ans, "compare", table=table)

    def comparison_table(self, paper_ids: Sequence[str], rows: Sequence[Row] = ROWS) -> ComparisonTable:
        """Fill the comparison rows for papers (citations get conversation numbers)."""
        papers = [self.pipeline.retriever.papers[p] for p in paper_ids]
        chosen = [select_rows(self.pipeline, p, rows) for p in papers]
        cites = tuple(
            self._cite(p, [e for evs in sel.values() for e in evs]) for p, sel in zip(papers, chosen, strict=True)
        )
        cells = tuple(tuple(sel[r.key] for sel in chosen) for r in rows)
        return ComparisonTable(tuple(rows), cites, cells)

    def _comparison_paragraph(self, table: ComparisonTable) -> str:
        """A short extractive paragraph: each abstract's key terms, shared names, what is (not) stated.

        The cells themselves (problem, approach, data, results) are in the table; the
        paragraph only adds what the table does not show at a glance.
        """
        a, b = table.papers
        ma, mb = format_marker(a.number), format_marker(b.number)
        papers = self.pipeline.retriever.papers
        sents = [f"{a.label} {ma} and {b.label} {mb} are compared row by row on sentences of their abstracts."]
        terms = [(c, self._key_terms(papers[c.paper_id])) for c in table.papers]
        if all(t for _, t in terms):
            sents.append(
                "Their key terms: "
                + "; ".join(f"{c.label} — {', '.join(t)} {format_marker(c.number)}" for c, t in terms)
                + "."
            )
        shared = self._shared_terms(papers[a.paper_id], papers[b.paper_id])
        if shared:
            sents.append(f"Both abstracts mention {', '.join(shared)} {ma}{mb}.")
        stated = {
            c.paper_id: [r.title.lower() for r, row in zip(table.rows, table.cells, strict=True) if row[j]]
            for j, c in enumerate(table.papers)
        }
        for j, c in enumerate(table.papers):
            other = table.papers[1 - j]
            only = [t for t in stated[c.paper_id] if t not in stated[other.paper_id]]
            if only:
                sents.append(f"Only {c.label} {format_marker(c.number)} states its {' and '.join(only)}.")
        missing = [r.title.lower() for r, row in zip(table.rows, table.cells, strict=True) if not any(row)]
        if missing:
            sents.append(f"Neither abstract states {' or '.join(missing)} {ma}{mb}.")
        return " ".join(sents)

    def _key_terms(self, paper: Paper, k: int = 3) -> list[str]:
        """The ``k`` terms of the abstract with the highest tf-idf (its name and numbers excluded)."""
        own = {normalize(n) for n in (paper.label, *paper.aliases)}
        tf: dict[str, int] = {}
        for t in content_terms(paper.abstract):
            if len(t) > 3 and not any(ch.isdigit() for ch in t) and t not in own:
                tf[t] = tf.get(t, 0) + 1
        return sorted(tf, key=lambda t: (-tf[t] * self.pipeline.evidence.idf(t), t))[:k]

    @staticmethod
    def _shared_terms(a: Paper, b: Paper, k: int = 4) -> list[str]:
        """Up to ``k`` coined terms and acronyms both abstracts state (``LLMs``, ``GSM8K``), sorted."""
        ea = {normalize(t): t for t in named_entities(a.abstract)}
        eb = {normalize(t) for t in named_entities(b.abstract)}
        return sorted(ea[t] for t in ea.keys() & eb)[:k]

    def _summarize(self, message: str, ref: str, plan: FilterPlan | None = None) -> Turn:
        t0 = time.perf_counter()
        res = self.resolve(ref)
        if not res.resolved:
            if res.how == "description" and len(res.paper_ids) > 1:
                return self._summarize_topic(message, ref, plan)
            return self._clarify(message, [res], t0, "summarize")
        paper = self.pipeline.retriever.papers[res.paper_ids[0]]
        t_ev = time.perf_counter()
        rows = [r for r in ROWS if r.key != "limitations"]
        sel = select_rows(self.pipeline, paper, ROWS)
        evs = [e for r in rows for e in sel[r.key]]
        if not evs:  # nothing fits a theme: the best sentences for a generic summary query
            evs = self.pipeline.evidence.select(f"What does {paper.label} propose and show?", paper, k=3)
        cite = self._cite(paper, evs)
        m = format_marker(cite.number)
        lines = [f"Summary of {paper.label} {m} (`{paper.id}`), from its abstract:"]
        themes: dict[int, tuple[list[str], Evidence]] = {}  # a sentence serving two themes is listed once
        for r in rows:
            for e in sel[r.key]:
                themes.setdefault(e.start, ([], e))[0].append(r.title)
        for titles, e in themes.values():
            heading = " and ".join([titles[0], *(t.lower() for t in titles[1:])])
            lines.append(f"- {heading}: “{strip_markup(e.sentence)}” {m}")
        if not any(sel[r.key] for r in rows):
            lines += [f"- “{strip_markup(e.sentence)}” {m}" for e in evs]
        if not sel["limitations"]:
            lines.append(f"- The abstract states no limitations {m}.")
        else:
            lines.append(f"- Limitations: “{strip_markup(sel['limitations'][0].sentence)}” {m}")
            cite = self._cite(paper, [*evs, sel["limitations"][0]])
        outside = self._outside(plan, [cite])
        if outside:
            lines.append(f"- Note: {outside} (summarized because named).")
        ans = Answer(
            question=message,
            text="\n".join(lines),
            citations=[cite],
            hits=[PaperHit(paper, 1.0)],
            backend="none",
            note=self._with_filter_note(
                plan, f"summary of abstract sentences (extractive, no LLM); {paper.label} found by {res.how}", outside
            ),
            matched=1,
            timings=Timings(retrieval=t_ev - t0, evidence=time.perf_counter() - t_ev, total=time.perf_counter() - t0),
            kind="summary",
        )
        return Turn(message, f"Summarize {paper.label}", ans, "summary")

    def _summarize_topic(self, message: str, topic: str, plan: FilterPlan | None = None) -> Turn:
        t0 = time.perf_counter()
        rs = self.pipeline.settings.retrieval
        allowed = plan.allowed if plan is not None else None
        note = plan.note if plan is not None else ""
        where = f"the collection (filter: {plan.description})" if allowed is not None else "the collection"
        if plan is not None and allowed is not None and not allowed:
            return self._refusal_turn(message, self._no_match(plan), t0, note=note)
        r = self.pipeline.retriever.search(topic, allowed=allowed)
        t_ret = time.perf_counter() - t0
        if not r.hits:
            empty = f"{REFUSAL} The collection is empty; ingest papers first."
            return self._refusal_turn(message, empty, t0, note=note)
        top = r.hits[0]
        if not r.names and top.dense < rs.relevance_floor and top.coverage < rs.coverage_floor:
            return self._refusal_turn(
                message,
                f"{REFUSAL} No paper in {where} is about “{topic}” "
                f"(best match {top.paper.label}: similarity {top.dense:.2f}).",
                t0,
                note=note,
            )
        # The papers a "which papers are about <topic>" question lists (the same membership model).
        named = {pid for ids in r.names.values() for pid in ids}
        checked = r.hits[: rs.candidates]
        members = self.pipeline.set_members(topic, checked)
        at_least = self.pipeline.more_may_match(len(members), len(checked), len(r.hits))
        everyone = [h for h in r.hits if h.paper.id in named and h not in members] + members
        matched = everyone[: rs.max_set_size] or [top]
        used = matched[: self.max_summary_papers]
        themes = [r_ for r_ in ROWS if r_.key in ("problem", "approach", "results")]
        per_paper = {h.paper.id: select_rows(self.pipeline, h.paper, themes, topic=topic) for h in used}
        cites = {
            h.paper.id: self._cite(h.paper, [e for evs in per_paper[h.paper.id].values() for e in evs]) for h in used
        }
        n, k = max(len(everyone), len(matched)), len(used)
        head = (
            f"{'At least ' if at_least else ''}{n} paper{'s' if n != 1 else ''} in {where} "
            f"match{'es' if n == 1 else ''} “{topic}”; "
            f"this summary uses {'all of them' if k == n else f'the {k} most relevant'}: "
            + ", ".join(f"{cites[h.paper.id].label} {format_marker(cites[h.paper.id].number)}" for h in used)
            + "."
        )
        lines = [head]
        for theme in themes:
            items = [
                f"- {cites[h.paper.id].label}: “{strip_markup(e.sentence)}” {format_marker(cites[h.paper.id].number)}"
                for h in used
                for e in per_paper[h.paper.id][theme.key]
            ]
            if items:
                lines += ["", f"**{_THEME_TITLES.get(theme.key, theme.title)}**", *items]
        ans = Answer(
            question=message,
            text="\n".join(lines),
            citations=[cites[h.paper.id] for h in used],
            hits=r.hits[: max(10, len(matched))],
            backend="none",
            note=self._with_filter_note(
                plan, f"topic summary of abstract sentences (extractive, no LLM); {n} matched, {k} used"
            ),
            matched=n,
            matched_at_least=at_least,
            timings=Timings(retrieval=t_ret, evidence=time.perf_counter() - t0 - t_ret, total=time.perf_counter() - t0),
            kind="summary",
        )
        return Turn(message, f"Summarize the papers on {topic}", ans, "summary")

    def _refusal_turn(self, message: str, text: str, t0: float, *, note: str = "", standalone: str = "") -> Turn:
        ans = Answer(
            question=message,
            text=text,
            refused=True,
            backend="none",
            note="; ".join(x for x in (note, "nothing cited") if x),
            timings=Timings(total=time.perf_counter() - t0),
            kind="refusal",
        )
        return Turn(message, standalone or message, ans, "refusal")


_THEME_TITLES = {"problem": "Problems addressed", "approach": "Approaches", "results": "Results"}
