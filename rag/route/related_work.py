"""A related-work draft on a topic: the papers that "Which papers are about <topic>?" lists,
grouped by what they do, each group a paragraph of cited statements.

1. **Papers.** The draft's papers are exactly those the route lists for "Which papers are about
   <topic>?" (:meth:`rag.route.answer.AnswerPipeline.answer` on the plan the reader made of that
   question, without prose): the same reading, refusal and calibrated membership. A topic the
   collection does not answer is refused with that answer's reason.
2. **Statements.** Each paper's statement is its best evidence sentence for the topic (the
   sentence the list quotes for it), verbatim: an exact span of its abstract.
3. **Groups.** Papers are grouped by the key phrases of what they do (:func:`group_papers`): the
   noun phrases of their title and of the sentences that state their own work (not the background
   or the gap), the topic's own words and abbreviations left out; a phrase that most of the papers
   share says the topic, not a group. Each group is named by its phrase; each paper is in one
   group, papers that share no phrase in the last ("Other work on <topic>").
4. **Prose.** With an LLM, each group's paragraph is prose whose every sentence is checked against
   the abstracts it cites as answers are (:func:`rag.llm.claims.check_claims`); a sentence that
   fails is replaced by the quoted statements of the papers it cited, and a paper no kept sentence
   cites gets its quoted statement.

The draft (:class:`RelatedWork`) carries paper ids; the citation keys, LaTeX / Markdown and the
``.bib`` are the exports' (:mod:`ui.related_work`).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from prompts import load_prompt
from rag.citations import format_marker, validate_markers
from rag.lexicon import stem
from rag.llm.claims import check_claims, is_degenerate
from rag.llm.clients import ChatLLM, LLMError, Message, strip_reasoning
from rag.llm.prose import REFUSAL, checked_note
from rag.question.plan import RelatedWorkPlan
from rag.text import STOPWORDS
from rag.types import Answer, Citation, ClaimCheck, Evidence, PaperHit, Timings
from rag.vocabulary import beside
from store.guard import echoes_injection
from store.papers import Paper, strip_markup

__all__ = [
    "GROUP_SHARE",
    "LONE_WORD_IDF",
    "MAX_GROUPS",
    "DraftError",
    "Group",
    "RelatedWork",
    "Statement",
    "draft_related_work",
    "group_papers",
]

log = logging.getLogger(__name__)

MAX_GROUPS = 5
"""Most groups named by a shared phrase; the papers left over make the last group, "Other work on
<topic>". Five paragraphs of two to four papers each hold the twelve papers a list holds at most."""

GROUP_SHARE = 0.6
"""A phrase held by more than this share of the draft's papers names no group: it says the topic
("language models" in every paper on LLM agents). Set on the seed collection and the 3,098-paper
ICML library: at 0.5 a group of half the papers on a two-sided topic ("speech or audio") lost its
phrase; at 0.75 "large language models" named a group of most papers on LLM topics."""

LONE_WORD_IDF = 2.0
"""Least idf (``ln(1 + N / (1 + df))``) of a lower-case word that names a group alone: one in
fewer than about 15% of a collection's abstracts ("guidance", "classification" at 2.3 in the 3,098
ICML papers), never "model" (1.0) or "optimization" (1.4) there. Set on the 3,098 papers and the
20 of ``tests/fixtures/imports/diffusion.bib``, where "guidance" (2.0: two abstracts) names the
group of GLIDE and Guided-TTS."""

PHRASE_WORDS = 3
"""Longest phrase (in words) a group may be named by."""

_VOCABULARY = beside(__file__, "related_work")
# words that open a sentence with where it stands ("Finally,", "Empirically,"), from the lead's table
_GENERIC = _VOCABULARY["generic"].words | _VOCABULARY["idiom_noun"].words | beside(__file__, "lead")["opener"].words
_OPENERS = _VOCABULARY["phrase_opener"].words
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
_ACRONYM = re.compile(r"^[A-Z][A-Za-z0-9-]*[A-Z0-9]$")
_OWN_MOVES = frozenset({"contribution", "unknown"})

Cite = Callable[[Paper, Sequence[Evidence]], Citation]


class DraftError(ValueError):
    """A draft that breaks what it promises (a paper twice, a quote that is no span of its abstract)."""


@dataclass(frozen=True)
class Statement:
    """One sentence of a draft's paragraph.

    Attributes:
        text: The sentence: a quoted statement's sentence exactly as its abstract has it, or an
            LLM's checked sentence without its markers.
        paper_ids: The papers it cites (one for a quoted statement), in the order cited.
        evidence: For a quoted statement, its sentence (``abstract[start:end] == text``); for a
            prose sentence, the best sentence of each cited paper for the topic.
        quoted: ``text`` is a paper's own sentence, quoted (else checked prose).
    """

    text: str
    paper_ids: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    quoted: bool = True


@dataclass(frozen=True)
class Group:
    """A paragraph of the draft: papers that share what they do.

    Attributes:
        name: The key phrase the group is named by ("Graph neural networks"), or "Other work on <topic>".
        paper_ids: Its papers, most relevant first; each paper of a draft is in exactly one group.
        statements: Its sentences, in order.
    """

    name: str
    paper_ids: tuple[str, ...]
    statements: tuple[Statement, ...] = ()


@dataclass(frozen=True)
class RelatedWork:
    """A related-work draft (see the module docstring).

    Attributes:
        subject: The topic as asked.
        groups: The paragraphs, largest group first ("Other work" last).
        matched: How many papers match the topic (the list's count; the draft holds at most
            ``retrieval.max_set_size`` of them).
        at_least: ``matched`` is a lower bound.
        backend: ``"none"`` (every statement quoted) or the LLM's name.
        claims: The claim checks of the LLM's sentences (``()`` without one).
        note: What was done, for the status line.
    """

    subject: str
    groups: tuple[Group, ...]
    matched: int = 0
    at_least: bool = False
    backend: str = "none"
    claims: tuple[ClaimCheck, ...] = ()
    note: str = ""

    @property
    def paper_ids(self) -> tuple[str, ...]:
        """Every paper of the draft, in group order."""
        return tuple(pid for g in self.groups for pid in g.paper_ids)

    def check(self, papers: Mapping[str, Paper]) -> None:
        """Check what the draft promises.

        Raises:
            DraftError: a paper is in two groups or none of the statements cites it, a statement
                cites a paper of another group, or a quoted statement is not the exact span of its
                paper's abstract that its evidence says.
        """
        ids = self.paper_ids
        twice = sorted(pid for pid, n in Counter(ids).items() if n > 1)
        if twice:
            raise DraftError(f"papers in more than one group: {', '.join(twice)}")
        for g in self.groups:
            cited = {pid for s in g.statements for pid in s.paper_ids}
            if cited != set(g.paper_ids):
                raise DraftError(f"group “{g.name}” cites {sorted(cited)}, holds {sorted(g.paper_ids)}")
            for s in g.statements:
                if not s.quoted:
                    continue
                (e,) = s.evidence
                abstract = papers[e.paper_id].abstract
                if s.text != e.sentence or abstract[e.start : e.end] != s.text:
                    raise DraftError(f"quoted statement of {e.paper_id} is not its abstract's span {e.start}-{e.end}")


def _phrases(text: str) -> list[tuple[str, str]]:
    """``(key, surface)`` of the noun phrases of ``text`` that may name a group, the key their words'
    Snowball stems.

    A run of content words (no stop word, no number) that opens a clause or follows an article, a
    preposition or a possessive (:data:`_OPENERS`) is taken as a noun phrase; its head is its
    last word. Generic words ("novel", "method") are cut from it, and of the words after the last
    one, every ending of one to :data:`PHRASE_WORDS` words is a phrase ("large language models"
    gives it, "language models" and "models"; never "large language").
    """
    out = []
    pieces = re.split(r"([.,;:!?()\[\]\"“”]|\s[-–—]\s)", text)
    for k in range(0, len(pieces), 2):
        # a clause opened by a comma ("..., but we find") is no noun phrase's start; the text's
        # start, a subtitle (after a colon) and a parenthesis are
        opens = k == 0 or pieces[k - 1].strip() in (":", "(", "—", "–", "-")
        words = _WORD.findall(pieces[k])
        before: str | None = None
        run: list[str] = []
        for w in [*words, ""]:
            low = w.lower()
            if w and low not in STOPWORDS and (len(w) >= 3 or _ACRONYM.match(w)):
                run.append(w)
                continue
            if run and ((before is None and opens) or (before is not None and before in _OPENERS)):
                while run and run[-1].lower() in _GENERIC:  # "graph neural network framework"
                    run = run[:-1]
                cut = max((i for i, x in enumerate(run) if x.lower() in _GENERIC), default=-1)
                head = run[cut + 1 :]
                for n in range(1, min(PHRASE_WORDS, len(head)) + 1):
                    gram = head[-n:]
                    out.append((" ".join(stem(x.lower()) for x in gram), " ".join(gram)))
            before = low if w else None
            run = []
    return out


def _name(surfaces: Counter[str]) -> str:
    """A group's name from the spellings of its phrase: the commonest (lower case before
    capitalised on a tie) in sentence case: a title's capitals dropped ("Adversarial Examples" ->
    "Adversarial examples"), acronyms and coined names kept ("CIFAR-10", "LoRA", "WL test")."""
    best = max(surfaces.items(), key=lambda kv: (kv[1], kv[0].islower(), -len(kv[0])))[0]
    words = [w if re.search(r"[A-Z0-9]", w[1:]) else w.lower() for w in best.split()]
    return " ".join([words[0][0].upper() + words[0][1:], *words[1:]])


def group_papers(
    papers: Sequence[Paper],
    subject: str,
    texts: Callable[[Paper], Sequence[str]],
    idf: Callable[[str], float],
) -> list[tuple[str, list[Paper]]]:
    """The papers grouped by the key phrases of what they do (see the module docstring).

    Greedy: while fewer than :data:`MAX_GROUPS` groups are named, the phrase held by two or more
    ungrouped papers (and by at most :data:`GROUP_SHARE` of all papers) with the best
    ``papers holding it x sum of the idf of its words`` names a group of those papers: phrases of
    two or more words and coined names ("GNN", "LoRA") first, a lower-case word alone
    ("distillation", idf at least :data:`LONE_WORD_IDF`) only when none is left. The papers left
    over, which share no phrase with another, make the last group, "Other work on <subject>"
    ("Work on <subject>" when no phrase names a group).

    Args:
        papers: The draft's papers, most relevant first.
        subject: The topic; phrases made only of its words (by stem) name no group.
        texts: A paper's texts that say what it does (its title and own sentences).
        idf: Inverse document frequency of a word in the collection (> 0).

    Returns:
        ``[(name, papers)]``: every paper in exactly one group, groups largest first and the
        other work last; ``[]`` for no paper.
    """
    if not papers:
        return []
    words = re.findall(r"[A-Za-z0-9]+", subject)  # a compound's parts too: "text-to-speech"
    topic = {stem(w.lower()) for w in [*_WORD.findall(subject), *words]}
    # the topic's abbreviations ("reinforcement learning" -> RL, "large language models" -> LLM,
    # LLMs, "text-to-speech" -> TTS)
    words = [w for w in words if w.lower() not in STOPWORDS or w.lower() == "to"]
    for i in range(len(words)):
        for j in range(i + 2, len(words) + 1):
            short = "".join(w[0] for w in words[i:j]).lower()
            topic |= {stem(short), stem(short + "s")}
    held: dict[str, set[str]] = defaultdict(set)
    spelled: dict[str, Counter[str]] = defaultdict(Counter)
    for p in papers:
        for text in texts(p):
            for key, surface in _phrases(strip_markup(text)):
                if set(key.split()) <= topic:
                    continue  # the topic's own words and abbreviations
                held[key].add(p.id)
                spelled[key][surface] += 1
    cap = max(2, int(GROUP_SHARE * len(papers)))
    weight = {k: float(sum(idf(w) for w in spelled[k].most_common(1)[0][0].split())) for k in held}
    left = [p.id for p in papers]
    named: list[tuple[str, list[str]]] = []
    # phrases of two or more words and coined names first; then a lower-case word alone
    # ("distillation"), which names a group less well ("updates")
    named_by = [{k for k, c in spelled.items() if " " in k or any(_ACRONYM.match(x) for x in c)}]
    named_by.append({k for k in set(held) - named_by[0] if weight[k] >= LONE_WORD_IDF})
    passes = iter(named_by)
    allowed = next(passes)
    while len(named) < MAX_GROUPS:
        free = set(left)
        best, score = None, 0.0
        for key in allowed:
            ids = held[key]
            n = len(ids & free)
            if n < 2 or len(ids) > cap:
                continue
            s = n * weight[key]
            if s > score or (s == score and best is not None and key < best):
                best, score = key, s
        if best is None:
            allowed = next(passes, set())
            if not allowed:
                break
            continue
        members = [pid for pid in left if pid in held[best]]
        named.append((_name(spelled[best]), members))
        left = [pid for pid in left if pid not in held[best]]
    by_id = {p.id: p for p in papers}
    others = left  # papers that share no phrase with another: grouped by nothing they say
    order = {p.id: i for i, p in enumerate(papers)}
    groups = sorted(((name, sorted(ids, key=order.__getitem__)) for name, ids in named), key=lambda g: -len(g[1]))
    if others:
        groups.append((f"Other work on {subject}" if groups else f"Work on {subject}", others))
    return [(name, [by_id[pid] for pid in ids]) for name, ids in groups]


# --- the draft -------------------------------------------------------------------------


def draft_related_work(
    pipeline,
    plan: RelatedWorkPlan,
    cite: Cite,
    *,
    allowed: set[str] | None = None,
    stop: threading.Event | None = None,
) -> tuple[Answer, RelatedWork | None]:
    """The related-work draft a plan asks for (see the module docstring).

    Args:
        pipeline: The :class:`rag.route.answer.AnswerPipeline` (its LLM, if any, writes prose).
        plan: The draft's plan; its :attr:`RelatedWorkPlan.papers` finds the papers.
        cite: Makes a paper's citation from its evidence (conversation numbering).
        allowed: Only these paper ids (filters); ``None`` = all.
        stop: When set, generation stops (the quoted statements stand).

    Returns:
        ``(answer, draft)``: the answer's text is the draft in Markdown with ``[n]`` markers, a
        line per group; ``draft`` is ``None`` when the answer is a refusal.
    """
    t0 = time.perf_counter()
    ask = plan.papers
    if ask is None or not ask.topic.text:
        text = f"{REFUSAL} Say what the related work is on: “draft a related-work section on <topic>”."
        return _refused(plan.asked, text, t0), None
    extractive = pipeline if pipeline.llm is None else type(pipeline)(
        pipeline.retriever, pipeline.evidence, None, pipeline.settings, reader=pipeline.reader
    )
    found = extractive.answer(ask, allowed=allowed)
    if found.refused:
        return _refused(plan.asked, found.text, t0, found.hits), None
    evidence = pipeline.evidence
    catalogue = pipeline.catalogue
    papers = [catalogue[c.paper_id] for c in found.citations]
    best: dict[str, Evidence] = {}
    for c, p in zip(found.citations, papers, strict=True):
        evs = list(c.evidence) or evidence.select(ask.topic.ask, p, k=1)
        if evs:
            best[p.id] = max(evs, key=lambda e: e.score)
    papers = [p for p in papers if p.id in best]
    t_found = time.perf_counter()

    def texts(p: Paper) -> list[str]:
        sents = evidence.sentences(p)[0]
        moves = evidence.moves(p)
        return [p.title, *(s.text for s in sents if moves.get(s.start, "unknown") in _OWN_MOVES)]

    grouped = group_papers(papers, ask.topic.text, texts, evidence.idf)
    quoted = {p.id: Statement(best[p.id].sentence, (p.id,), (best[p.id],)) for p in papers}
    claims: list[ClaimCheck] = []
    backend, note = "none", "related-work draft of abstract sentences (extractive, no LLM)"
    groups: list[Group] = []
    writer = _GroupWriter(pipeline.llm, pipeline, plan.subject) if pipeline.llm is not None else None
    for name, members in grouped:
        statements = [quoted[p.id] for p in members]
        if writer is not None and not (stop is not None and stop.is_set()):
            statements, checks = writer.write(name, members, best, quoted, stop)
            claims += checks
        groups.append(Group(name, tuple(p.id for p in members), tuple(statements)))
    t_written = time.perf_counter()
    if writer is not None:
        kept = sum(c.supported for c in claims)
        backend = writer.llm.name if kept else f"{writer.llm.name} -> extractive"
        note = "; ".join(x for x in (pipeline.llm_note, checked_note(claims) if claims else writer.failure) if x)
        note += "; a sentence that failed its check is replaced by the quoted statements of the papers it cited"
    draft = RelatedWork(
        plan.subject, tuple(groups), found.matched, found.matched_at_least, backend, tuple(claims), note
    )
    draft.check(catalogue.papers)
    cites = {p.id: cite(p, [best[p.id]]) for g in groups for p in (catalogue[pid] for pid in g.paper_ids)}
    text = draft_markdown(draft, cites, len(papers))
    return (
        Answer(
            question=plan.asked,
            text=text,
            citations=[cites[pid] for pid in draft.paper_ids],
            hits=[PaperHit(p, 1.0) for p in papers],
            backend=backend,
            note=note,
            claims=list(claims),
            matched=found.matched,
            matched_at_least=found.matched_at_least,
            timings=Timings(
                retrieval=found.timings.retrieval,
                evidence=t_found - t0 - found.timings.retrieval,
                generation=t_written - t_found if writer is not None else 0.0,
                total=time.perf_counter() - t0,
            ),
            kind="related_work",
            lead=text.split("\n", 1)[0],
        ),
        draft,
    )


def draft_markdown(draft: RelatedWork, cites: Mapping[str, Citation], used: int) -> str:
    """The draft as the chat shows it: a head line, then one paragraph per group, its name in
    bold, each statement followed by its ``[n]`` markers (a quoted one after the paper's name,
    between quotation marks)."""
    n, k = draft.matched, len(draft.groups)
    more = "at least " if draft.at_least else ""
    head = (
        f"A related-work draft on “{draft.subject}”: {used} of the {more}{n} paper{'s' if n != 1 else ''} "
        f"that match it, in {k} group{'s' if k != 1 else ''} by what they do; "
        + (
            "each statement quotes its paper's abstract."
            if draft.backend == "none"
            else "each LLM sentence was checked against the abstracts it cites; a quoted statement "
            "stands for one that failed."
        )
        + " Export it as LaTeX and BibTeX with your own citation keys (`paperchat related-work`)."
    )
    lines = [head]
    for g in draft.groups:
        parts = []
        for s in g.statements:
            marks = " ".join(format_marker(cites[pid].number) for pid in s.paper_ids)
            if s.quoted:
                parts.append(f"{cites[s.paper_ids[0]].label} {marks}: “{strip_markup(s.text)}”")
            else:
                parts.append(_with_marks(s.text, marks))
        lines += ["", f"**{g.name}.** " + " ".join(parts)]
    return "\n".join(lines)


def _with_marks(sentence: str, marks: str) -> str:
    """A prose sentence with its markers before its closing punctuation."""
    body = sentence.rstrip()
    end = body[-1] if body and body[-1] in ".!?" else "."
    body = body[:-1].rstrip() if body and body[-1] in ".!?" else body
    return f"{body} {marks}{end}"


def _refused(question: str, text: str, t0: float, hits: Sequence[PaperHit] = ()) -> Answer:
    return Answer(
        question=question,
        text=text,
        refused=True,
        hits=list(hits),
        backend="none",
        note="nothing cited",
        timings=Timings(total=time.perf_counter() - t0),
        kind="refusal",
    )


@dataclass
class _GroupWriter:
    """Asks the LLM for one group's paragraph and checks each sentence (see the module docstring)."""

    llm: ChatLLM
    pipeline: object
    subject: str
    failure: str = ""
    _prompt: object = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._system = load_prompt("system").format(refusal=REFUSAL)
        self._prompt = load_prompt("related_work")

    def write(
        self,
        name: str,
        members: Sequence[Paper],
        best: Mapping[str, Evidence],
        quoted: Mapping[str, Statement],
        stop: threading.Event | None,
    ) -> tuple[list[Statement], list[ClaimCheck]]:
        """The group's statements: checked prose sentences, quoted statements for the rest."""
        pipeline = self.pipeline
        settings = pipeline.settings  # type: ignore[attr-defined]
        evidence = pipeline.evidence  # type: ignore[attr-defined]
        fallback = [quoted[p.id] for p in members]
        sources = "\n".join(
            f"{format_marker(i)} {p.label}: {strip_markup(best[p.id].sentence)}" for i, p in enumerate(members, start=1)
        )
        user = self._prompt.format(  # type: ignore[attr-defined]
            topic=self.subject,
            group=name,
            sources=sources,
            example=f"\"<what source 1 states> {format_marker(1)}.\" Use only the numbers "
            f"{format_marker(1)} to {format_marker(len(members))}.",
        )
        messages: list[Message] = [{"role": "system", "content": self._system}, {"role": "user", "content": user}]
        try:
            raw = "".join(
                self.llm.stream(
                    messages, max_tokens=settings.llm.max_answer_tokens, temperature=settings.llm.temperature, stop=stop
                )
            )
        except LLMError as exc:
            log.warning("LLM failed on a related-work group: %s", exc)
            self.failure = f"The LLM failed ({exc}); every statement is quoted."
            return fallback, []
        raw = strip_reasoning(raw)
        if echoes_injection(raw, [p.abstract for p in members]):
            self.failure = "The LLM's text was not used (it echoed instructions); every statement is quoted."
            return fallback, []
        clean, _ = validate_markers(raw, len(members))
        if is_degenerate(clean):
            self.failure = "The LLM's text was empty or repetitive; every statement is quoted."
            return fallback, []
        full = {i: [s.text for s in evidence.sentences(p)[0]] for i, p in enumerate(members, start=1)}
        names = {i: (p.label, *p.aliases) for i, p in enumerate(members, start=1)}
        checked = check_claims(
            clean, full, evidence.similarity, floor=settings.answer.claim_support_floor, names=names
        )
        out: list[Statement] = []
        stated: set[str] = set()
        for c in checked.claims:
            ids = tuple(dict.fromkeys(members[n - 1].id for n in c.cited if 1 <= n <= len(members)))
            if c.supported and ids:
                text = re.sub(r"\s*\[\d+(?:\s*,\s*\d+)*\]", "", c.sentence).strip()
                out.append(Statement(text, ids, tuple(best[pid] for pid in ids), quoted=False))
                stated |= set(ids)
            else:
                for pid in ids:
                    if pid not in stated:
                        out.append(quoted[pid])
                        stated.add(pid)
        out += [quoted[p.id] for p in members if p.id not in stated]
        return out, list(checked.claims)
