"""Sentence-level evidence: which sentences of a paper's abstract answer the question."""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from rag.evidence.roles import (
    _PROPOSAL,
    _STRONG_PROPOSAL,
    _THIS_WORK,
    ANAPHORA,
    FIRST_PERSON,
    NAMING_VERB,
    RESULT_LEAD,
    abstract_moves,
    preamble,
    sentence_roles,
    states_how,
)
from rag.evidence.senses import WordSenses
from rag.index.embed import Embedder
from rag.lexicon import term_key
from rag.question.asks import text_about
from rag.settings import EvidenceSettings
from rag.text import (
    Sentence,
    content_terms,
    normalize,
    numbers,
    split_sentences,
)
from rag.types import Ask, Evidence, timed
from store.guard import is_instruction
from store.papers import Paper

__all__ = ["EvidenceSelector", "defines_name", "list_items", "list_opening"]

def defines_name(text: str, name: str) -> bool:
    """Whether ``text`` says what ``name`` is: the name with an apposition or a copula after it
    ("we introduce HyperTrack, a large-scale dataset", "DANCE is a new paradigm"), or right after a
    verb that gives it ("... and present ChiPFormer that enables learning a transferable placement
    policy", "which we call DetectGPT"; vocabulary ``naming_verb``)."""
    said = rf"(?<![\w-]){re.escape(name)}(?![\w-])\s*(?:,\s*(?:a|an|the)\s|is\s+(?:a|an|the)\s)"
    given = rf"{NAMING_VERB}\s+(?:it\s+)?{re.escape(name)}(?![\w-])"
    return bool(re.search(said, text, re.I) or re.search(given, text, re.I))


_AVAILABILITY = re.compile(
    r"\b(available|released?|open-?sourced?)\b.*(https?://|www\.|\.(com|org|io|cn)\b|github)", re.I
)


def _keys(text: str) -> set[str]:
    """The term keys of the content words of ``text``; a hyphenated compound also gives its parts'
    keys, so "two-stage training" states "stages" and "verifier-free" states "verifier"."""
    terms = content_terms(text)
    parts = [p for t in terms if "-" in t for p in content_terms(t.replace("-", " "))]
    return {term_key(t) for t in (*terms, *parts)}


def _data_sentences(abstract: str) -> list[Sentence]:
    """The abstract's sentences minus those addressed to an assistant (issue 17: abstracts are data):
    such a sentence is never scored, quoted, or used to check a claim (:func:`store.guard.is_instruction`)."""
    return [s for s in split_sentences(abstract) if not is_instruction(s.text)]


class EvidenceSelector:
    """Scores the sentences of retrieved abstracts against a question.

    Sentence score in [0, 1], in the fields of :class:`rag.settings.EvidenceSettings` (their
    defaults and how each was set are there):
    ``cosine_weight * cosine + overlap_weight * idf-weighted term overlap``, plus
    ``number_bonus`` when the question asks for a quantity and the sentence states a number,
    ``figure_bonus`` when it states a figure the question quotes, ``role_bonus`` when
    the sentence plays a rhetorical role the question asks for (problem, method, result,
    data, theory; the problem is the abstract's gap move, :func:`abstract_moves`), ``name_bonus``
    when it states a name the question asks about, and ``definition_bonus`` when it
    spells out a name the question asks the meaning of ("what does DGSA stand for"); clipped to 1.
    A short availability statement ("Code is available at <url>") keeps ``availability_factor``
    of its score unless the question asks for code or links. A sentence that opens with
    "This"/"These ..." also matches, at ``inherited_weight``, the terms of the sentence
    before it. Sentence embeddings are computed once per paper and cached.

    Args:
        embedder: The embedder (sentences and question use the same model).
        papers: All papers, for document frequencies of terms.
        settings: The weights, bonuses and floors, each with how it was set (``settings.evidence``).
    """

    def __init__(self, embedder: Embedder, papers: list[Paper], settings: EvidenceSettings | None = None):
        self.embedder = embedder
        self.senses = WordSenses(embedder.embed)
        """Words of a sentence that state an asked term in other words (:mod:`rag.evidence.senses`)."""
        self.settings = settings if settings is not None else EvidenceSettings()
        self._cache: dict[str, tuple[list[Sentence], np.ndarray]] = {}
        self._abstracts: dict[str, str] = {}  # the abstract each cache entry was computed from
        self._kept: dict[str, tuple[str, np.ndarray]] = {}  # read from disk, not used yet (rag.evidence.kept)
        self.kept_on_disk = 0
        """Papers whose sentence embeddings the data directory holds (:func:`rag.pipeline.keep_sentences`)."""
        self._moves: dict[str, list[str]] = {}
        df: Counter[str] = Counter()
        for p in papers:
            df.update(_keys(p.abstract))
        self._n = max(1, len(papers))
        self._df = df

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency ``ln(1 + N / (1 + df))`` of a word (compared by its
        term key, :func:`_keys`: "distill" and "distillation" are one term)."""
        return self._idf(term_key(term.lower()))

    def _idf(self, key: str) -> float:
        return math.log(1.0 + self._n / (1.0 + self._df.get(key, 0)))

    def adopt(self, previous: EvidenceSelector, papers: Iterable[Paper]) -> int:
        """Take over ``previous``'s cached sentences and embeddings of ``papers`` whose abstract is
        unchanged (a rebuild after an ingest keeps what was computed). Returns how many were taken."""
        taken = 0
        for p in papers:
            got = previous._cache.get(p.id)
            if got is not None and previous._abstracts.get(p.id) == p.abstract:
                self._cache[p.id] = got
                self._abstracts[p.id] = p.abstract
                taken += 1
        return taken

    def use_kept(self, kept: dict[str, tuple[str, np.ndarray]]) -> None:
        """Take sentence embeddings kept on disk (:func:`rag.evidence.kept.load`: paper id -> (its
        abstract, ``(m, d)`` float32)): a paper's first use reads them instead of embedding, when its
        abstract is the same and still splits into ``m`` sentences."""
        self._kept.update(kept)

    def embedded(self) -> dict[str, tuple[str, np.ndarray]]:
        """Paper id -> (abstract, ``(m, d)`` sentence embeddings) of every paper used or warmed so far,
        and of those kept on disk not used yet (what :func:`rag.evidence.kept.save` writes)."""
        out = dict(self._kept)
        for pid, (_, vecs) in list(self._cache.items()):  # another thread may be adding one meanwhile
            abstract = self._abstracts.get(pid)
            if abstract is not None:
                out[pid] = (abstract, vecs)
        return out

    def warm_all(self, papers: list[Paper], stop: threading.Event | None = None) -> None:
        """Embed the sentences of every paper of ``papers`` (one call per paper, as :meth:`warm`)
        until done or ``stop`` is set: a serving process runs this in the background so that no
        answer waits for the first embedding of a paper's sentences. ``stop`` is looked at before
        each paper, so a process that stops waits for one abstract's embedding at most (tens of
        milliseconds on two cores). Papers whose embeddings were kept on disk (:meth:`use_kept`) are
        left to their first use."""
        for p in papers:
            if stop is not None and stop.is_set():
                return
            if p.id not in self._kept:  # kept on disk: read when first used (splitting all would hold the GIL)
                self.sentences(p)

    def warm(self, papers: list[Paper]) -> None:
        """Embed the sentences of every paper not cached yet, one call per paper: a paper's vectors
        (and so every evidence score) never depend on which other papers shared the batch (padding
        to a batch's longest text moves the floats), so the page, the CLI and a warm server that
        embedded in other orders give the same scores."""
        for p in papers:
            self.sentences(p)

    def sentences(self, paper: Paper) -> tuple[list[Sentence], np.ndarray]:
        """Sentences of the abstract and their ``(m, d)`` float32 unit embeddings (cached; the seconds
        of a first embedding are the answer's ``timings.embedding``, :func:`rag.types.timed`)."""
        got = self._cache.get(paper.id)
        if got is None:
            sents = _data_sentences(paper.abstract)
            kept = self._kept.pop(paper.id, None)
            if kept is not None and kept[0] == paper.abstract and len(kept[1]) == len(sents):
                got = (sents, kept[1])
            else:
                with timed("embedding", tally="embedded"):
                    got = (sents, self.embedder.embed([s.text for s in sents]))
            self._cache[paper.id] = got
            self._abstracts[paper.id] = paper.abstract
        return got

    def moves(self, paper: Paper) -> dict[int, str]:
        """The move (:func:`abstract_moves`) of each sentence of the abstract, by sentence start offset."""
        got = self._moves.get(paper.id)
        if got is None:
            sents = self.sentences(paper)[0]
            got = self._moves[paper.id] = abstract_moves([x.text for x in sents])
        return {x.start: m for x, m in zip(self.sentences(paper)[0], got, strict=True)}

    def score(self, ask: Ask, paper: Paper, qvec: np.ndarray | None = None) -> list[Evidence]:
        """All sentences of ``paper`` scored against ``ask``, best first.

        Args:
            ask: What is asked (:func:`rag.question.asks.read_ask`): its text, roles, figures, names.
            paper: The paper whose abstract's sentences are scored.
            qvec: ``(d,)`` unit embedding of ``ask.text`` when the caller has it (a question whose
                abbreviations were spelled out); the text without the paper's own names is embedded
                here when it differs.

        Returns:
            Every sentence with a score in [0, 1], best first (``[]`` for an abstract of instructions only).
        """
        sents, vecs = self.sentences(paper)
        if not sents:
            return []
        # What the question asks *about this paper*: its own names say which paper, not which sentence.
        aspect = text_about(ask, (*(() if paper.describes else (paper.label,)), *paper.aliases))
        if aspect != ask.text or qvec is None:
            qvec = self.embedder.embed([aspect])[0]
        cos = vecs @ qvec
        # Term weights: corpus idf x within-abstract idf (a term in most sentences of this
        # abstract, like its topic, does not tell its sentences apart).
        sent_terms = [_keys(s.text) for s in sents]
        m = len(sents)
        # A sentence that opens with "These approaches" / "This design" is about what the sentence
        # before it names: it inherits those terms at half weight (a cheap coreference).
        inherited: list[set[str]] = [set()]
        for i in range(1, m):
            refers = ANAPHORA.search(sents[i].text)
            inherited.append((sent_terms[i - 1] | inherited[i - 1]) - sent_terms[i] if refers else set())
        cfg = self.settings

        def weight(t: str) -> float:
            sf = sum(1 for st in sent_terms if t in st)
            return self._idf(t) * math.log(1.0 + m / (1.0 + sf))

        qterms = _keys(aspect)
        qweight = sum(weight(t) for t in qterms) or 1.0
        wants_number = ask.numbers
        figures = ask.figures  # "65x", "40%", "2.33"
        wants_link = ask.link
        roles = set(ask.roles)
        own_role = ask.data_only
        own = {normalize(n) for n in (paper.label, *paper.aliases)}
        stated = set(ask.entities)
        asked = stated - own
        defines = stated if ask.definition else set()
        moves = self.moves(paper)
        out = []
        for s, c, sterms, inh in zip(sents, cos, sent_terms, inherited, strict=True):
            inherits = sum(weight(t) for t in qterms & inh)
            overlap = (sum(weight(t) for t in qterms & sterms) + cfg.inherited_weight * inherits) / qweight
            sc = cfg.cosine_weight * max(float(c), 0.0) + cfg.overlap_weight * overlap
            stated_numbers = numbers(s.text)
            if wants_number and stated_numbers:
                sc += cfg.number_bonus
            if figures & stated_numbers:
                sc += cfg.figure_bonus  # the sentence states the figure the question quotes, as a name
            if roles & sentence_roles(s.text, moves[s.start]):
                sc += cfg.role_bonus
            elif own_role and moves[s.start] in ("background", "gap") and not FIRST_PERSON.search(s.text):
                sc *= cfg.other_work_weight
            plain = normalize(s.text)
            if defines and any(f"({d})" in plain or defines_name(plain, d) for d in defines):
                sc += cfg.definition_bonus  # "what does DGSA stand for": the sentence that spells out "... (DGSA)"
            elif asked and any(a in plain for a in asked):
                sc += cfg.name_bonus  # the sentence states a name the question asks about (TDSC, ALFWorld)
            if not wants_link and _AVAILABILITY.search(s.text) and len(s.text.split()) <= cfg.availability_words:
                sc *= cfg.availability_factor  # "Audio samples are available at <url>." says nothing about the work
            out.append(Evidence(paper.id, s.text, s.start, s.end, min(1.0, sc)))
        out.sort(key=lambda e: e.score, reverse=True)
        return out

    def closest(self, paper: Paper, texts: Sequence[str]) -> list[Evidence]:
        """For each of ``texts`` (the clauses of a description of ``paper``), the sentence of its
        abstract that states it: the closest by cosine of their embeddings, where a sentence that
        does not speak of the paper's own work (:meth:`own_work`: "In this setting, the predictions
        of a model are used as cost coefficients ...") counts ``settings.field_clause_weight`` x its
        cosine, so a clause the paper's own claim states ("recasting X as getting the ordering of
        feasible solutions right") is quoted from that claim ("we observe that X can be seen as a
        learning-to-rank problem ..."), not from the field's sentence that shares its subject words.
        Each sentence once, in abstract order; scores are the (weighted) values in [-1, 1]. ``[]``
        for an abstract without sentences or no texts."""
        sents, vecs = self.sentences(paper)
        if not sents or not texts:
            return []
        own = self.own_work(paper)
        weight = np.array([1.0 if s.start in own else self.settings.field_clause_weight for s in sents])
        sims = (vecs @ self.embedder.embed(list(texts)).T) * weight[:, None]
        best: dict[int, float] = {}
        for j in range(len(texts)):
            i = int(sims[:, j].argmax())
            best[i] = max(best.get(i, -1.0), float(sims[i, j]))
        return [Evidence(paper.id, sents[i].text, sents[i].start, sents[i].end, c) for i, c in sorted(best.items())]

    def own_work(self, paper: Paper) -> set[int]:
        """Start offsets of the sentences of ``paper``'s abstract that speak of the paper's own work:
        in the first person ("we observe ...", "our method ..."), of its gap or contribution move
        (:func:`abstract_moves`: the problem it takes on, what it does), or opening as a result
        ("Experiments show ...") or as this work ("In this paper ..."). The others state the field
        or prior work. A sentence naming the paper's label is not thereby its own: a label cut from
        the title is often the field's name ("Decision-Focused Learning")."""
        sents, _ = self.sentences(paper)
        moves = self.moves(paper)
        return {
            s.start
            for s in sents
            if FIRST_PERSON.search(s.text)
            or moves.get(s.start) in ("gap", "contribution")
            or RESULT_LEAD.search(s.text)
            or _THIS_WORK.search(s.text)
        }

    def gist(self, paper: Paper) -> Evidence | None:
        """The sentence that says what the paper does, or ``None`` when none does.

        The first sentence of the abstract's contribution move (:func:`abstract_moves`) that
        proposes ("we propose", "To address this, we"), else its first sentence, else the first
        with a proposal cue ("we propose", "In this work", "we study"); sentences that state
        mainly what the method does not need or link to code (:func:`states_how`) only when no
        other is left. Its score is 0.0: it is chosen for its role in the abstract, not for a question.
        """
        every, _ = self.sentences(paper)
        moves = self.moves(paper)
        # what a paper does, not what it does not need nor where its code is (:func:`states_how`)
        sents = [s for s in every if states_how(s.text)] or every
        own = [s for s in sents if moves[s.start] == "contribution"]
        found = next((s for s in own if _STRONG_PROPOSAL.search(s.text)), None) or next(iter(own), None)
        for pat in (_STRONG_PROPOSAL, _THIS_WORK, _PROPOSAL):
            found = found or next((s for s in sents if pat.search(s.text)), None)
        return Evidence(paper.id, found.text, found.start, found.end, 0.0) if found else None

    def own_statement(self, ask: Ask, paper: Paper, qvec: np.ndarray | None = None) -> Evidence | None:
        """The sentence of ``paper`` that best states ``ask`` (a topic) as the paper's own work, or
        ``None`` for an abstract of instructions only.

        A sentence of the abstract's background or gap move that does not speak in the first person
        ("Large language models are increasingly deployed as autonomous agents ...") states the
        field the paper starts from, not that the paper is about the topic (Swales, 1990): it is
        passed over for the best of the others (contribution, or moves unknown). So is a sentence
        before the contribution that does not speak in the first person where no gap sets the
        background apart (:func:`rag.evidence.roles.preamble`: GRIT's "Graph inductive biases are
        crucial for Graph Transformers, and previous works incorporate them ..." before "we propose
        the Graph Inductive bias Transformer (GRIT) --- a new Graph Transformer"). Only when every
        sentence is such a one is the best of them returned. Scores are :meth:`score`'s.
        """
        scored = self.score(ask, paper, qvec)
        moves = self.moves(paper)
        before = self.preamble(paper)
        own = [e for e in scored if not _other_work(e, moves) and e.start not in before]
        best = own or scored
        return best[0] if best else None

    def preamble(self, paper: Paper) -> set[int]:
        """Start offsets of the sentences of ``paper``'s abstract that come before its contribution
        and do not speak in the first person (:func:`rag.evidence.roles.preamble`): the field or
        prior work the paper starts from."""
        sents = self.sentences(paper)[0]
        return {x.start for x, before in zip(sents, preamble([x.text for x in sents]), strict=True) if before}

    def elaboration(self, paper: Paper, gist: Evidence) -> list[Evidence]:
        """The sentences right after ``gist`` (the paper's proposal) that go on saying how the
        approach works: its stages, components, training ("Specifically, we first ...",
        "Furthermore, we introduce ...", "Our two-stage training approach ..."), in order, at most
        ``settings.elaboration_unit``. The run ends at a sentence that reports experiments or results
        ("Experiments on ...", "Empirically, ..."), at an availability statement, and at the end of
        the abstract. Scores are 0.0: chosen for their place in the abstract, not for a question.

        The contribution move of an abstract states the approach over several sentences
        (Swales, 1990); a question about the paper as a whole (a summary, or its problem and
        its method) quotes that unit, as a problem question quotes the whole gap."""
        sents, _ = self.sentences(paper)
        after = [x for x in sents if x.start > gist.start]
        out = []
        for x in after[: self.settings.elaboration_unit]:
            if RESULT_LEAD.search(x.text) or _AVAILABILITY.search(x.text):
                break
            out.append(Evidence(paper.id, x.text, x.start, x.end, 0.0))
        return out

    def select(self, ask: Ask, paper: Paper, k: int = 3, qvec: np.ndarray | None = None) -> list[Evidence]:
        """The ``k`` best sentences of ``paper`` for ``ask``, in abstract order.

        The roles asked and whether a summary is asked are the ask's (:class:`rag.question.plan.Ask`).

        The numbers are fields of :attr:`settings` (:class:`rag.settings.EvidenceSettings`). Greedy:
        each step takes the sentence with the best score plus a bonus (``coverage_bonus`` x the
        idf-weighted share) for question terms no chosen sentence covers yet, and ``role_bonus``
        when it plays a rhetorical role the question asks for that no chosen sentence plays yet
        ("the limitation ... and how it addresses it" gets one problem and one method sentence).
        A sentence whose total falls below ``cutoff`` x the best sentence's score is not taken (at
        least one is); for summaries, which ask for the whole abstract's gist, ``summary_cutoff``
        x the best (greedy coverage after Carbonell & Goldstein, 1998, maximal marginal relevance).

        Before the greedy steps, each sub-question (:attr:`Ask.parts`) gets its best
        sentence when that scores at least ``part_floor`` x the best or, at ``part_min`` or more,
        ``part_margin`` x its runner-up. After them, a problem question that quoted part of a gap
        of at most ``gap_unit`` sentences gets the whole gap, and a sentence that opens a numbered
        list or holds one of its items brings the opening and the sentences with the list's items
        (a list is one unit); so more than ``k`` may be returned.
        """
        asked = set(ask.roles)
        summary = ask.summary
        scored = self.score(ask, paper, qvec)
        if not scored:
            return []
        qterms = _keys(ask.text)
        qweight = sum(self._idf(t) for t in qterms) or 1.0
        terms = {e.start: _keys(e.sentence) & qterms for e in scored}
        moves = self.moves(paper)
        played = {e.start: sentence_roles(e.sentence, moves[e.start]) & asked for e in scored}
        cfg = self.settings
        cutoff = cfg.summary_cutoff if summary else cfg.cutoff
        best = scored[0].score
        chosen: list[Evidence] = []
        covered: set[str] = set()
        covered_roles: set[str] = set()
        pool = list(scored)
        # A question of several parts ("what problem ..., and what phenomenon do they discover?")
        # gets the best sentence of each part first, so no part goes unanswered.
        for part in ask.parts:
            if len(chosen) >= k:
                break
            taken = {e.start for e in chosen}
            ranked = self.score(part, paper)
            for i, e in enumerate(ranked):
                if e.start in taken:
                    continue
                runner_up = ranked[i + 1].score if i + 1 < len(ranked) else 0.0
                # Close to the question's best sentence, or the one sentence this part singles out.
                if e.score >= cfg.part_floor * best or (
                    e.score >= cfg.part_min and e.score >= cfg.part_margin * runner_up
                ):
                    nxt = next(x for x in pool if x.start == e.start)
                    chosen.append(nxt)
                    covered |= terms[nxt.start]
                    covered_roles |= played[nxt.start]
                    pool.remove(nxt)
                break
        while pool and len(chosen) < k:
            def gain(e: Evidence, covered: set[str] = covered, covered_roles: set[str] = covered_roles) -> float:
                new_role = cfg.role_bonus if chosen and played[e.start] - covered_roles else 0.0
                fresh = sum(self._idf(t) for t in terms[e.start] - covered)
                return e.score + cfg.coverage_bonus * fresh / qweight + new_role

            nxt = max(pool, key=gain)
            if chosen and gain(nxt) < cutoff * best:
                break
            chosen.append(nxt)
            covered |= terms[nxt.start]
            covered_roles |= played[nxt.start]
            pool.remove(nxt)
        # The gap a paper addresses is one statement, often split over two or three sentences
        # ("However, these approaches ..." + "This design ..., leading to ..."): a problem
        # question that quotes part of a short gap gets all of it.
        gap = [e for e in scored if moves[e.start] == "gap"]
        if "problem" in asked and len(gap) <= cfg.gap_unit and any(moves[e.start] == "gap" for e in chosen):
            chosen += [e for e in gap if e not in chosen]
        # A numbered list is one unit: a quoted sentence that opens it ("three challenges: (1)
        # Overhead.") or holds one of its items ("(2) Suboptimal. ...") brings the opening sentence
        # and the sentences holding the list's items.
        for e in list(chosen):
            opening = e if _items(e.sentence)[:1] == [1] else list_opening(e, scored)
            if opening is None:
                continue
            for item in [opening, *list_items(opening, scored)]:
                if item not in chosen:
                    chosen.append(item)
        return sorted(chosen, key=lambda e: e.start)

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        """Cosine matrix ``(len(a), len(b))`` between two lists of texts."""
        if not a or not b:
            return np.zeros((len(a), len(b)), dtype=np.float32)
        va = self.embedder.embed(a)
        vb = self.embedder.embed(b)
        return va @ vb.T


def _other_work(e: Evidence, moves: dict[int, str]) -> bool:
    """Whether ``e`` is a background or gap sentence that does not speak in the first person: it
    describes the field or other work, not the paper's own."""
    return moves.get(e.start) in ("background", "gap") and not FIRST_PERSON.search(e.sentence)


_ITEM = re.compile(r"(?<![\w(])\(?(\d{1,2})\)")


def _items(sentence: str) -> list[int]:
    """Numbers of the list items a sentence holds: "(1) a; and (2) b" -> [1, 2]."""
    return [int(m.group(1)) for m in _ITEM.finditer(normalize(sentence))]


def _heading_only(sentence: str) -> bool:
    """Whether the last list item of ``sentence`` is only a heading ("... challenges: (1) Overhead."):
    fewer than four words after its marker, the item's text being the next sentence."""
    marks = list(_ITEM.finditer(sentence))
    return bool(marks) and len(sentence[marks[-1].end() :].split()) < 4


def list_items(opening: Evidence, sentences: list[Evidence]) -> list[Evidence]:
    """The later sentences that continue a numbered list ``opening`` starts, in order.

    ``opening`` must hold item 1; the list continues while the next sentence holding an
    item holds the next number (at most 6 items, so a stray "(2)" later is not taken). An
    item that is only a heading ("(1) Overhead.") brings the sentence right after it, which
    holds the item's text ("LLMs for processing long texts incur high token ... costs.").
    """
    have = _items(opening.sentence)
    if not have or have[0] != 1:
        return []
    nxt = max(have) + 1
    out = []
    body = _heading_only(opening.sentence)
    for e in sorted((x for x in sentences if x.start > opening.start), key=lambda x: x.start):
        got = _items(e.sentence)
        if not got:
            if body:
                out.append(e)
            body = False
            continue
        if got[0] != nxt or nxt > 6:
            break
        out.append(e)
        nxt = max(got) + 1
        body = _heading_only(e.sentence)
    return out


def list_opening(item: Evidence, sentences: list[Evidence]) -> Evidence | None:
    """The sentence that opens the numbered list ``item`` continues (the closest earlier sentence
    holding item 1 whose :func:`list_items` include ``item``), or ``None``."""
    if not _items(item.sentence):
        return None
    for e in sorted((x for x in sentences if x.start < item.start), key=lambda x: -x.start):
        if _items(e.sentence)[:1] == [1]:
            return e if item in list_items(e, sentences) else None
    return None
