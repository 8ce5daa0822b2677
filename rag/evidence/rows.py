"""The rows of comparisons and summaries: problem, approach, data, results, limitations.

Each row is filled with the sentence of an abstract that best plays it, scored by the row's
rhetorical cues and its place in the abstract's moves (:mod:`rag.evidence.roles`): approach, data and
results come from the paper's own sentences, the problem from the gap when one is stated, and a
limitation only from what the paper says of its own work.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rag.evidence.roles import (
    CONTINUES,
    FIRST_PERSON,
    RESULT_LEAD,
    affirmed,
    names_benchmark,
    names_data,
    names_data_used,
    proposes,
    states_how,
)
from rag.protocols import evidence_settings
from rag.question.asks import read_ask
from rag.question.plan import Ask
from rag.settings import RowSettings
from rag.text import Sentence
from rag.types import Evidence
from rag.vocabulary import beside
from store.labels import find_code_url
from store.papers import Paper, strip_markup

if TYPE_CHECKING:
    from rag.protocols import EvidenceSource

__all__ = [
    "COUNT_NOUN", "DATA_ITEMS", "DATASET_NOUN",
    "LIMITATIONS", "NOT_STATED", "ROWS", "Row", "contributes_items", "introduces_dataset", "own_clauses",
    "announced_items", "row_ask", "select_rows", "states_own_limitation",
    "states_data", "states_data_plainly",
]

NOT_STATED = "not stated in the abstract"
"""What a cell says when no sentence of the abstract fits its row."""

def row_ask(row: Row) -> Ask:
    """What a row asks of an abstract: its :attr:`Row.query`, read once (:func:`rag.question.asks.read_ask`)."""
    return read_ask(row.query)


@dataclass(frozen=True)
class Row:
    """One row of a comparison table (and one theme of a summary).

    A sentence's row score in [0, 1] is ``semantic_weight * semantic + cue_weight * cue`` (fields of
    :class:`rag.settings.RowSettings`, with how each was set): ``semantic`` is
    :meth:`rag.evidence.selector.EvidenceSelector.score` against :attr:`query`; ``cue`` counts the
    rhetorical cues of the row the sentence holds (``cue_hit`` each, a strong one ``strong_hits``
    times, at most 1), plus a position bonus of up to ``position_bonus`` (problems come early in
    abstracts, results late), minus ``against_penalty`` when the sentence holds a cue of
    :attr:`against`. Rhetorical cues are the usual features of argumentative zoning (Teufel and
    Moens, Computational Linguistics 2002): generic queries alone rank sentences poorly on
    150-word abstracts.

    Attributes:
        key: Stable identifier (``"problem"``).
        title: Row heading shown to users.
        query: What the row asks of the abstract, for the semantic score.
        cues: Words and phrases that mark a sentence of this row (one hit each).
        strong: Phrases that mark it unmistakably ("we propose", "on 8 datasets"; ``strong_hits`` hits each).
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


_VOCABULARY = beside(__file__, "rows")
"""The rows' cue words (``vocabulary/rows.toml``); the patterns below compose its classes."""
_V = {name: cls.source for name, cls in _VOCABULARY.items()}  # class name -> regex source, to compose

_PRIOR = re.compile(rf"{_V['prior_adjective']}\s+(?:\w+\s+)?{_V['prior_noun']}", re.I)
_REMEDY = re.compile(
    rf"{_V['remedy_verb']}\s+{_V['remedy_determiner']}\s+(?:\w+\s+)?{_V['remedy_noun']}",
    re.I,
)
_OWN = _VOCABULARY["own"].pattern
_OWN_EVALUATION = _VOCABULARY["own_evaluation"].pattern
DATASET_NOUN = _VOCABULARY["dataset_noun"].pattern
"""A noun that names a dataset or benchmark ("dataset", "benchmarks", "corpus", "testbed")."""
_GAP = rf"(?:(?!{_V['usage_gap']})[\w-]+,?\s+){{0,6}}?"
_INTRODUCES = re.compile(
    rf"{_V['introduce']}\s+{_GAP}{_V['dataset_noun']}|{_V['own_dataset']}\s+(?:[\w-]+\s+){{0,2}}?{_V['dataset_noun']}",
    re.I,
)


COUNT_NOUN = _VOCABULARY["count_noun"].bare
"""Regex source of the nouns of the items a dataset counts ("tasks", "annotations", "hours")."""
DATA_ITEMS = re.compile(
    r"(?<![\w.+])(?:(?:over|more than|about|around|nearly|approximately|roughly|~)\s+)?"
    r"\d[\d,]*(?:\.\d+)?\s?(?:[KMB]\b|k\b|thousand\b|million\b|billion\b)?\+?"
    r"\s+(?:[\w-]+\s+){0,2}?" + COUNT_NOUN + r"(?![\w-])",
    re.I,
)
"""A dataset's size: a number and the items it counts ("over 16000 real-world tasks", "91,581
step-level annotations", "10K dialogues"), at most two words between them."""
_CONTRIBUTES_ITEMS = re.compile(
    rf"{_V['introduce']}\W+(?:(?!{_V['usage_gap']})[\w-]+\W+){{0,3}}?(?:{DATA_ITEMS.pattern})", re.I
)


def introduces_dataset(sentence: str) -> bool:
    """Whether a sentence introduces a dataset or benchmark of the paper's own: a contribution verb,
    then a dataset noun within six words none of which says it is used ("we introduce HyperTrack,
    a large-scale dataset", "We release a simulation benchmark"), or "our" / "new" / "novel" right
    before one ("our dataset features ..."); or a contribution verb whose object is a counted
    collection of data items, a dataset stated by its size ("We release 95K validator-verified CoT
    traces", "we curate 1,200 hours of speech"). "Experiments on three benchmarks" uses data; "the
    proposed method ... on benchmarks" neither; "we present results on 12 tasks" counts what is used;
    a negated mention (:func:`rag.evidence.roles.affirmed`: "does not require ... collecting a
    dataset") introduces none."""
    text = affirmed(sentence)
    return bool(_INTRODUCES.search(text)) or contributes_items(text)


def contributes_items(sentence: str) -> bool:
    """Whether the authors contribute a counted collection of data items, a dataset stated by its
    size, not its noun ("We release 95K validator-verified CoT traces", "we curate 1,200 hours of
    speech"): a contribution verb whose object, within three words none of which says it is used,
    is :data:`DATA_ITEMS`. Markup may stand between ("We release **95K ...**")."""
    return bool(_CONTRIBUTES_ITEMS.search(sentence))


_NUMERIC_RESULT = re.compile(r"\d(?:[\d.,]*)\s*(?:\\?%|×|x\b|\$\\times\$|times\b|-fold\b|points?\b)", re.I)

ROWS: tuple[Row, ...] = (
    Row(
        "problem",
        "Problem",
        "The problem or challenge this paper addresses: existing methods are limited, costly or fail.",
        _VOCABULARY["problem"].pattern,
        strong=_VOCABULARY["problem_strong"].pattern,
        against=_VOCABULARY["problem_against"].pattern,
        position="early",
    ),
    Row(
        "approach",
        "Approach",
        "We propose a new method or framework; how the proposed approach works.",
        _VOCABULARY["approach"].pattern,
        strong=_VOCABULARY["approach_strong"].pattern,
        # prior work, a result, or a contribution beside the main one ("Additionally, we propose
        # style balancing" after "We propose test-time style shifting")
        against=re.compile(rf"{_PRIOR.pattern}|{RESULT_LEAD.pattern}|{_V['side_contribution']}", re.I),
    ),
    Row(
        "data",
        "Data / benchmarks",
        "Experiments on datasets and benchmarks; the tasks and environments it is evaluated on.",
        _VOCABULARY["data"].pattern,
        strong=re.compile(
            rf"\b\d+\s+(?:[\w-]+\s+){{0,2}}{_V['data_plural']}"
            rf"|{_V['data_over']}\s+(?:[\w-]+\s+){{0,4}}{_V['data_plural_on']}"
            rf"|{_V['evaluation']}\s+{_V['evaluation_on']}",
            re.I,
        ),
    ),
    Row(
        "results",
        "Key results",
        "Results: the method outperforms baselines and improves accuracy by a stated amount.",
        _VOCABULARY["results"].pattern,
        strong=_VOCABULARY["results_strong"].pattern,
        against=_PRIOR,
        position="late",
    ),
    Row(
        "limitations",
        "Limitations",
        "Limitations of the proposed method: it fails, cannot, or is restricted; future work.",
        _VOCABULARY["limitations"].pattern,
        against=_PRIOR,
        requires_own=True,
    ),
)
LIMITATIONS = next(r for r in ROWS if r.key == "limitations")
_SET_AGAINST = re.compile(rf"{_VOCABULARY['set_against'].source}[^,;]*", re.I)


def own_clauses(sentence: str) -> str:
    """``sentence`` without its clauses about other work set against the paper's own (a clause
    opened by ``set_against``, "Unlike ...", "In contrast to ...", up to the next comma or
    semicolon), each replaced by a space: "Unlike heuristics that offer limited control over
    trade-offs, we introduce X" -> " , we introduce X"."""
    return _SET_AGAINST.sub(" ", sentence)


def states_own_limitation(sentence: str) -> bool:
    """Whether ``sentence`` holds a cue of a limitation (:data:`LIMITATIONS`) outside a clause about
    other work it is set against (:func:`own_clauses`): "Our method cannot handle X" does; "Unlike
    heuristics that offer limited control over trade-offs, we introduce X" does not."""
    return LIMITATIONS.cues.search(own_clauses(strip_markup(sentence))) is not None
_DATA_ROW = next(r for r in ROWS if r.key == "data")


def states_data(sentence: str) -> bool:
    """Whether a sentence states the data a paper works on, not only a word for data ("This method
    initializes the dataset as a single GB" does not): its strong forms ("on 8 datasets",
    "experiments on", "across three benchmarks"), a construction or benchmark name that says what
    the work is shown on (:func:`rag.evidence.roles.names_data`: "evaluated on", "on ALFWorld"), a
    user study, or a dataset of its own (:func:`introduces_dataset`); only in what it affirms
    (:func:`rag.evidence.roles.affirmed`: "does not require ... collecting a dataset" states none)."""
    text = affirmed(strip_markup(sentence))
    strong = _DATA_ROW.strong
    return bool(
        (strong is not None and strong.search(text)) or names_data(text) or introduces_dataset(text)
        or _VOCABULARY["data_study"].search(text)
    )


def states_data_plainly(sentence: str) -> bool:
    """Whether a sentence states the data as :func:`states_data` does, by a construction that leaves
    no doubt: all but a coined name after a bare "on"/"in" ("implemented in the LibAUC library",
    "focuses on ReLU nets" name no data; "Trained on AudioCaps" does,
    :func:`rag.evidence.roles.names_data_used`)."""
    text = affirmed(strip_markup(sentence))
    strong = _DATA_ROW.strong
    return bool(
        (strong is not None and strong.search(text)) or names_data_used(text) or introduces_dataset(text)
        or _VOCABULARY["data_study"].search(text)
    )
"""The row of the limitations a paper states of its own work."""


_ANNOUNCES = re.compile(rf"{_V['announced_count']}\s+(?:[\w-]+\s+){{0,3}}?[\w-]+s\W*$", re.I)
_NUMBERS = {"two": 2, "three": 3, "four": 4}
_DEFINES_NAME = re.compile(r"\((?-i:[A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*)\)|^\W*(?-i:[A-Z][\w-]*[A-Z][\w-]*)\b")


def announced_items(opening: Evidence, sentences: Sequence[Evidence]) -> list[Evidence]:
    """The sentences that name the parts a proposal announces at its end ("To bridge this gap, we
    propose two self-alignment frameworks." then "Disentanglement-Guided Self-Alignment (DGSA)
    recovers ..." and "For regimes where ..., Temperature-Driven Self-Critique (TDSC) stabilizes
    ..."): the next ``n`` sentences (n = 2-4, ``announced_count``), when each defines a name (an
    acronym in parentheses, or opens with a coined one); else none."""
    m = _ANNOUNCES.search(strip_markup(opening.sentence))
    if m is None:
        return []
    n = _NUMBERS[m.group(0).split()[0].lower()]
    after = sorted((x for x in sentences if x.start > opening.start), key=lambda x: x.start)[:n]
    if len(after) < n or not all(_DEFINES_NAME.search(strip_markup(x.sentence)) for x in after):
        return []
    return after


def _first_proposal(texts: Sequence[str], starts: Sequence[int]) -> int | None:
    """The start offset of the first of an abstract's sentences (``texts``, at ``starts``) that says
    what the paper proposes (:func:`rag.evidence.roles.proposes`) with a strong cue of the approach
    row ("we introduce", "this paper presents") and sets no problem ("we study the problem of"), or
    ``None``."""
    approach = next(r for r in ROWS if r.key == "approach").strong
    problem = next(r for r in ROWS if r.key == "problem").strong
    for text, start in zip(texts, starts, strict=True):
        if proposes(text) and approach is not None and approach.search(text) and not (
            problem is not None and problem.search(text)
        ):
            return start
    return None


def _named_proposal(sentences: Sequence[Sentence], label: str, opening: int) -> int:
    """The start of the sentence that announces a paper's approach: ``opening`` (the start of its
    contribution move) when that sentence names ``label`` (the paper's own name) or no later one
    does; else the first sentence after it that says, with a strong cue of the approach row, that
    the paper proposes something (:func:`rag.evidence.roles.proposes`) and names ``label``."""
    approach = next(r for r in ROWS if r.key == "approach").strong
    low = label.lower()
    texts = {x.start: strip_markup(x.text) for x in sentences}
    if low in texts.get(opening, "").lower() or approach is None:
        return opening
    return next(
        (start for start, text in sorted(texts.items())
         if start > opening and low in text.lower() and proposes(text) and approach.search(text)),
        opening,
    )


def asks_question(sentence: str) -> bool:
    """Whether an abstract's sentence ends by asking a question ("How do these patterns change as
    models scale?", "... the following question: Can deep-learning-based methods solve noise-free
    inverse problems to near-perfect accuracy?"): the research question a paper sets itself."""
    return strip_markup(sentence).rstrip().endswith("?")


def _row_score(
    row: Row, ev: Evidence, index: int, count: int, label: str, move: str, cfg: RowSettings, *, opening: bool = False,
    opening_at: int | None = None,
) -> float:
    """A sentence's score in [0, 1] for ``row``: its evidence score and the row's cues in it (``index``
    of ``count`` sentences, its ``move`` in the abstract; ``opening``: it opens the contribution, which
    starts at offset ``opening_at``, ``None`` when no sentence says what the paper does)."""
    text = strip_markup(ev.sentence)
    if row.key == "approach" and not states_how(text):
        # what the method does not need ("does not require ..."), or a resource ("... and release
        # the code and weights at <link>"): not how it works
        return cfg.uncued_weight * ev.score
    if row.key == "problem" and find_code_url(text):
        return cfg.uncued_weight * ev.score
    if row.key == "problem" and FIRST_PERSON.search(text) and _REMEDY.search(text):
        # "We aim to address these limitations by learning a Koopman latent representation": the
        # authors' remedy of the problem, which is their approach, whatever problem words it holds
        return cfg.uncued_weight * ev.score
    if row.key == "approach" and _OWN_EVALUATION.search(text) and not proposes(text):
        # "Moreover, we empirically evaluate our method on several benchmark ... tasks": the
        # authors testing their method state its data and results, not how it works
        return cfg.uncued_weight * ev.score
    if row.requires_own and not (_OWN.search(text) or (label and label.lower() in text.lower())):
        return 0.0
    if row.requires_own and (_REMEDY.search(text) or move in ("background", "gap")):
        return 0.0  # the gap it remedies ("To address this limitation, we propose ..."), not its own
    if row.key != "problem" and move in ("background", "gap") and not FIRST_PERSON.search(text):
        return cfg.uncued_weight * ev.score  # the field or other work: not this paper's approach, data or results
    if row.key in ("data", "results") and move == "gap":
        # the authors' own sentence in the gap states the problem they address ("In this work, we show
        # that this reliance introduces a fundamental trade-off ..."), not their results (an approach
        # may still be there: "We attempt to fill this gap by providing a unified framework ...")
        return cfg.uncued_weight * ev.score
    if row.key == "problem" and asks_question(text) and not (opening_at is not None and ev.start > opening_at):
        # "How do large language models develop and evolve over the course of training?" before
        # "To answer these questions, we introduce Pythia": the research question the paper
        # answers is its problem, in whatever words, though it opens the contribution ("This work is
        # concerned with the following question: Can deep-learning-based methods ...?")
        cue = min(1.0, cfg.cue_hit * cfg.strong_hits)  # as strong as a gap sentence
        return max(0.0, min(1.0, cfg.semantic_weight * ev.score + cfg.cue_weight * cue))
    if row.key == "problem" and move == "contribution":
        return cfg.uncued_weight * ev.score  # the abstract states a gap: the problem is there, not in what it does
    cued = own_clauses(text) if row.requires_own else text  # "Unlike X that cannot ...": X's limit
    if row.key == "data":
        cued = affirmed(text)  # "does not require ... collecting a dataset" names no data
    hits = len({m.group(0).lower() for m in row.cues.finditer(cued)})
    if row.strong is not None:
        hits += cfg.strong_hits * len({m.group(0).lower() for m in row.strong.finditer(text)})
    if row.key == "results" and _NUMERIC_RESULT.search(ev.sentence):
        hits += cfg.strong_hits
    if row.key == "problem" and move == "gap":
        # the abstract's moves place it in the gap the contribution answers (Swales's "establishing a
        # niche"): it states the problem whatever its words ("Diffusion models ... depend on an
        # iterative sampling process that causes slow generation." before "To overcome this
        # limitation, we propose consistency models")
        hits += cfg.strong_hits
    if row.key == "data" and not states_data(text):
        return cfg.uncued_weight * ev.score  # a word for data in a method sentence is no data row
    if row.key == "data" and names_benchmark(text):
        hits += cfg.strong_hits  # "gains ... on HumanEval and GSM8K" states the data without saying "benchmark"
    if row.key == "data" and states_data_plainly(text):
        # it plainly states the data, which is what the row asks: as strong as "on 8 datasets"
        # ("Trained on AudioCaps ...", "fake news articles generated by GPT-NeoX" have no cue word)
        hits = max(hits, cfg.strong_hits)
    if row.key == "approach" and label and not label.endswith("…") and label.lower() in text.lower():
        hits += 1
    if row.key == "approach" and opening:
        # the sentence that opens the contribution announces the approach ("To resolve these
        # challenges, we cast chip placement as offline RL and present ChiPFormer"; Swales's move
        # "announcing present research"), before what it offers or shows ("First, ChiPFormer can ...")
        hits += cfg.strong_hits
    if not hits:
        return cfg.uncued_weight * ev.score  # the semantic part alone, halved: never enough on its own
    cue = min(1.0, cfg.cue_hit * hits)
    pos = index / max(1, count - 1)
    if row.position == "early":
        cue += cfg.position_bonus * (1.0 - pos)
    elif row.position == "late":
        cue += cfg.position_bonus * pos
    if row.against is not None and row.against.search(text):
        cue -= cfg.against_penalty
    return max(0.0, min(1.0, cfg.semantic_weight * ev.score + cfg.cue_weight * min(1.0, cue)))


def _cued(row: Row, text: str) -> bool:
    """Whether ``text`` holds a cue of ``row`` (:attr:`Row.cues` or :attr:`Row.strong`)."""
    return bool(row.cues.search(text) or (row.strong is not None and row.strong.search(text)))


def select_rows(
    evidence: EvidenceSource,
    paper: Paper,
    rows: Sequence[Row] = ROWS,
    *,
    asks: Mapping[str, Ask] | None = None,
    min_score: float | None = None,
) -> dict[str, tuple[Evidence, ...]]:
    """The best sentence of ``paper``'s abstract for each row, or none when nothing fits.

    Rows are filled in order of how specific their cues are (approach, results, data,
    problem, limitations); a sentence already used by another row is taken again only
    when it scores at least ``min_score + reuse_margin`` for this row and no unused one qualifies.
    The weights and floors are ``evidence``'s row settings (:class:`rag.settings.RowSettings`,
    ``evidence.settings.rows``; the defaults for a source without settings).

    Args:
        evidence: The sentence scorer.
        paper: The paper whose abstract is read.
        rows: Rows to fill.
        asks: What to score each row's sentences against, by row key, when not the row's own
            query (a topic summary asks each row of its topic); default :func:`row_ask`.
        min_score: Least row score in [0, 1] for a cell (default: the settings' ``min_score``).

    Returns:
        Row key -> the chosen evidence (empty tuple = not stated in the abstract).
    """
    cfg = evidence_settings(evidence).rows
    floor = cfg.min_score if min_score is None else min_score
    order = {s.start: i for i, s in enumerate(evidence.sentences(paper)[0])}
    moves = evidence.moves(paper)
    opening = min((start for start, m in moves.items() if m == "contribution"), default=None)
    proposal = opening
    if proposal is None:
        # no gap told apart from the background (every move "unknown"): the paper's proposal is
        # still the first sentence in which it says, with a strong cue, what it proposes ("We
        # introduce Tranception, ..." before "To enable more rigorous model testing ..., we develop
        # ProteinGym"; "In this study, we present HETAL" before "We propose an efficient encrypted
        # matrix multiplication algorithm"); it earns no bonus of an opening, and a sentence that
        # sets the problem ("This work studies the combinatorial optimization problem of ...",
        # "We study the problem of ...") is none
        proposal = _first_proposal([strip_markup(x.text) for x in evidence.sentences(paper)[0]],
                                   [x.start for x in evidence.sentences(paper)[0]])
    own = "" if paper.describes else paper.label  # a descriptive label is no name to look for
    # the sentence that announces the approach: the contribution's opening, unless the opening names
    # no method of the paper's and a later sentence proposes it by name ("To this end, we first
    # conduct quantitative investigations into ..." then "Based on our findings, we propose
    # Agent-Omit, a unified training framework ...": the study leads to the proposal)
    announce = opening
    if opening is not None and own and not own.endswith("…"):
        announce = _named_proposal(evidence.sentences(paper)[0], own, opening)
    count = max(1, len(order))
    priority = ["approach", "results", "data", "problem", "limitations"]
    todo = sorted(rows, key=lambda r: priority.index(r.key) if r.key in priority else len(priority))
    used: set[int] = set()
    out: dict[str, tuple[Evidence, ...]] = {}
    for row in todo:
        scored = evidence.score((asks or {}).get(row.key) or row_ask(row), paper)
        ranked = sorted(
            (
                (_row_score(row, e, order.get(e.start, 0), count, own, moves.get(e.start, "unknown"), cfg,
                            opening=e.start == (announce if row.key == "approach" else opening),
                            opening_at=proposal), e)
                for e in scored
            ),
            key=lambda t: t[0],
            reverse=True,
        )
        if row.key == "problem" and (approach := out.get("approach")):
            # the gap a paper fills is stated before what it does (the moves of an abstract,
            # Swales's CARS model): a sentence after its approach sentence that holds a word of a
            # problem ("... even when the latter uses expensive CLIP reranking") states a result
            ranked = [(sc, e) for sc, e in ranked if e.start < approach[0].start]
        if row.key == "approach" and (strong := row.strong) is not None:
            # the sentence that opens the contribution with "we propose ..." announces the approach;
            # a later one scoring as high is what it enables or adds ("Our algorithm and benchmark
            # enable a functional comparison for hardware designs" after "We propose DexMachina, a
            # novel curriculum-based algorithm")
            announced = announce if announce != opening else proposal
            ranked.sort(key=lambda t: not (t[1].start == announced and t[0] >= floor
                                           and strong.search(strip_markup(t[1].sentence))))
        pick: Evidence | None = None
        for sc, e in ranked:
            if sc < floor:
                break
            if e.start not in used:
                pick = replace(e, score=round(sc, 4))
                break
        if pick is None:
            for sc, e in ranked:
                # a sentence that states the data fills the data row even when another row quotes it
                # ("Trained on AudioCaps ..., AudioLDM achieves state-of-the-art ..." is also its result)
                margin = 0.0 if row.key == "data" and states_data_plainly(e.sentence) else cfg.reuse_margin
                if sc >= floor + margin:
                    pick = replace(e, score=round(sc, 4))
                    break
        if pick is None and row.key == "approach" and min_score is None:
            # every paper does something: a study's "We investigate the downstream performance
            # achievable with ..." shares few words with the row's query; its own sentence with a
            # cue of the approach is the row, however low its score (a floor the caller sets holds)
            pick = next(
                (replace(e, score=round(sc, 4)) for sc, e in ranked
                 if sc > 0 and e.start not in used and moves.get(e.start, "unknown") not in ("background", "gap")
                 and _cued(row, strip_markup(e.sentence))),
                None,
            )
        if pick is None:
            out[row.key] = ()
            continue
        used.add(pick.start)
        before: tuple[Evidence, ...] = ()
        first = pick
        # "However, establishing a compact boundary ... remains a challenge": a problem stated
        # against the sentence before it is quoted with that sentence ("One-class learning offers
        # inherent robustness ..."), which says what it is a problem of; at most cfg.context_sentences.
        while row.key == "problem" and len(before) < cfg.context_sentences and CONTINUES.search(first.sentence):
            prev = max((e for e in scored if e.start < first.start), key=lambda e: e.start, default=None)
            if prev is None or prev.start in used:
                break
            first = replace(prev, score=pick.score)
            before = (first, *before)
            used.add(prev.start)
        # "three challenges: (1) Overhead." is quoted with the sentences holding items (2), (3).
        from rag.evidence.selector import list_items

        more = list_items(pick, scored) or (announced_items(pick, scored) if row.key == "approach" else [])
        used.update(e.start for e in more)
        out[row.key] = (*before, pick, *more)
    return {r.key: out[r.key] for r in rows}
