"""Rhetorical roles of abstract sentences, and the rows of comparisons and summaries built on them.

A question asks for a role (the problem a paper addresses, its method, its results, its data,
its theory); a sentence of an abstract plays roles, recognised by cue words (after the
argumentative-zoning idea of Teufel and Moens, Computational Linguistics 2002) and by its move
in the abstract (background, gap, contribution: Swales, 1990, "Create a Research Space").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rag.types import Evidence
from store.papers import Paper, strip_markup

if TYPE_CHECKING:
    from rag.protocols import EvidenceSource

__all__ = [
    "ANAPHORA",
    "NOT_STATED",
    "ROWS",
    "SUMMARY_WORDS",
    "Row",
    "abstract_moves",
    "LIMITATIONS",
    "asks_own_limitations",
    "is_summary",
    "question_roles",
    "select_rows",
    "sentence_roles",
    "wants_more",
]

NOT_STATED = "not stated in the abstract"
"""What a cell says when no sentence of the abstract fits its row."""


# Rhetorical roles of abstract sentences, recognised by cue words (after the argumentative-zoning
# idea of Teufel & Moens, 2002, reduced to the roles questions about abstracts ask for).
_ROLE_CUES = {
    "problem": re.compile(
        r"\b(however|but|limit\w*|lack\w*|challeng\w*|suffer\w*|fail\w*|bottleneck\w*|ineffici\w*|costly|"
        r"expensive|difficult\w*|issue\w*|problem\w*|gap|neglect\w*|overlook\w*|rigid\w*|unstable|instabilit\w*|"
        r"hinder\w*|scarc\w*|overhead|prohibitive|vanish\w*|waste\w*|mismatch\w*|trade-off|degrad\w*|remain\w*|"
        r"existing|prior|previous|conventional|traditional|struggl\w*)\b",
        re.I,
    ),
    "method": re.compile(
        r"\b(we (propose|introduce|present|design|develop)|framework|approach|consists?|stages?|first|then|"
        r"specifically|key idea|leverag\w*|via|by (exploiting|using|introducing)|trains?|curriculum)\b",
        re.I,
    ),
    "result": re.compile(
        r"\b(achiev\w*|outperform\w*|improv\w*|reduc\w*|experiments?|results?|demonstrat\w*|speed-?ups?|faster|"
        r"state-of-the-art|gains?|surpass\w*|accuracy)\b|%|\\times",
        re.I,
    ),
    "data": re.compile(
        r"\b(datasets?|benchmarks?|evaluat\w*|corpus|annotations?|tasks|suite|"
        r"(?:experiments?|results|tested|trained)\s+(?:on|across|with|over))\b",
        re.I,
    ),
    "theory": re.compile(
        r"\b(prove\w*|proof|theor\w*|bounds?|guarantee\w*|convergence|consisten\w*|optimal\w*|approximation)\b",
        re.I,
    ),
}
# Words that say something is wrong or missing: a question using one asks for the problem a paper
# addresses ("what's wrong with ...", "what do earlier models get wrong / miss / overlook", "what's
# holding back ...", "what made it hard", "the catch"). One class of word forms.
_DEFICIENCY = (
    r"limitations?|challenges?|shortcomings?|bottlenecks?|obstacles?|weakness(?:es)?|inefficien\w*|gaps?|issues?|"
    r"drawbacks?|flaws?|pitfalls?|hurdles?|barriers?|catch|wrong|miss(?:es|ed|ing)?|overlook\w*|neglect\w*|"
    r"ignor(?:e|es|ed|ing)|lack\w*|fail\w*|struggl\w*|suffer\w*|difficult\w*|hard(?:er|est)?|worse|degrad\w*|"
    r"wast(?:e|es|ed|ing|eful)|blam(?:e|es|ed|ing)|criti(?:ci[sz]\w*|que)|hold(?:s|ing)? back|fall(?:s|ing)? short|"
    r"trade-offs?|caus(?:e|es|ed|ing)"
)
_INTENT_CUES = {
    "problem": re.compile(
        # "problem" as the thing a paper addresses, not the object of a method ("cast as a
        # combinatorial problem").
        rf"\b(?:{_DEFICIENCY}|address\w*|tackl\w*|motivat\w*|why)\b|"
        r"\bproblems?\b(?=\s+(with|of|in|that|does|do|did|they|it|addressed|solved|tackled)\b)",
        re.I,
    ),
    # Singular only: "existing RL methods" names other work, "what method" asks for this one's.
    "method": re.compile(
        r"\b(how|method|approach|stages?|training|idea|mechanism|fix|contribution|propose\w*)\b", re.I
    ),
    "result": re.compile(
        r"\b(how much|how many|gain|improv\w*|accuracy|results?|achiev\w*|reach|speed\w*|by how)\b", re.I
    ),
    "data": re.compile(r"\b(dataset|benchmark|evaluated|tasks|resources?)\w*\b", re.I),
    "theory": re.compile(r"\b(theor\w*|prove|proof|bound|guarantee|convergence)\w*\b", re.I),
}
SUMMARY_WORDS = re.compile(
    r"\b(summari[sz]\w*|summary|overview|gist|tl;?\s?dr|recap|synopsis|in a nutshell|in brief|contribution|"
    r"explain|describe|tell me about|what (?:is|does) .{0,40} (?:about|do))\b",
    re.I,
)
"""Words that ask for a summary, gist or overview of a paper: the one reading of "summary" (the
question model's :attr:`rag.question.QuestionPlan.summary` and evidence selection both use it)."""


def question_roles(question: str) -> set[str]:
    """Rhetorical roles a question asks for (problem, method, result, data, theory)."""
    roles = {r for r, pat in _INTENT_CUES.items() if pat.search(question)}
    if SUMMARY_WORDS.search(question):
        roles |= {"problem", "method", "result"}
    return roles


_FIRST_PERSON = re.compile(r"\b(we|our|us)\b", re.I)
_RESULT_LEAD = re.compile(
    r"^\W*(experiment\w*|empirical\w*|extensive|results?|evaluations?|across|comprehensive)\b", re.I
)
_CONTRAST = re.compile(
    r"\b(however|but|yet|although|though|despite|whereas|existing|prior|previous|conventional)\b", re.I
)


def sentence_roles(sentence: str, move: str = "unknown") -> set[str]:
    """Rhetorical roles a sentence plays, by its cue words and its move in the abstract.

    When the abstract's moves are known (:func:`abstract_moves`), a sentence states the
    problem exactly when it is in the gap move, and a background or gap sentence states no
    method, data or result of the paper unless it speaks in the first person (they describe the
    field and other work; Swales, 1990).
    Otherwise cue words decide, and a sentence
    that opens as a result ("Experiments show ... the best trade-off") does not state the
    problem unless it also contrasts with other work.
    """
    roles = {r for r, pat in _ROLE_CUES.items() if pat.search(sentence)}
    if move in ("background", "gap") and not _FIRST_PERSON.search(sentence):
        # The field and its gap are other work's: such a sentence states no method, data or
        # result of this paper ("LLMs are increasingly deployed ... for decision-making tasks"),
        # unless the authors speak of their own ("we introduce graph condensation ...").
        roles -= {"method", "data", "result"}
    if move == "gap":
        roles.add("problem")
    elif move != "unknown" or (_RESULT_LEAD.search(sentence) and not _CONTRAST.search(sentence)):
        roles.discard("problem")
    return roles


# Moves of an abstract (Swales, 1990, "Create a Research Space"): the territory, the niche (the gap
# or limitation the paper addresses) and its occupation (what the paper proposes and shows).
_PROPOSAL = re.compile(
    r"\b(we (propose|introduce|present|develop|design|study|investigate|make|formulate|build|consider)\w*|"
    r"here,? we)\b",
    re.I,
)
_STRONG_PROPOSAL = re.compile(
    r"\b(we propose|this (paper|work) proposes|"
    r"to (address|tackle|overcome|solve|bridge|fill|mitigate|remedy|this end)\b.{0,80}\bwe)\b",
    re.I,
)
_THIS_WORK = re.compile(r"\b(in this (paper|work)|this (paper|work) (introduce|present|develop|stud)\w*)\b", re.I)
_GAP_CUE = re.compile(
    r"\b(however|but|yet|although|though|despite|unfortunately|nevertheless|remains?|lack\w*|suffer\w*|"
    r"fail\w*|limit(ed|ation|ations|s)?|overlook\w*|neglect\w*|ignor\w*|struggl\w*|incur\w*|bottleneck\w*|"
    r"challeng\w*|costly|expensive|prohibitive|ineffici\w*|incoheren\w*|difficult\w*|waste\w*|vanish\w*|"
    r"insufficien\w*|less attention|under-?explored|unexplored|constrain\w*|hinder\w*|issues?|problems?|gap|"
    r"overhead|trade-offs?|unstable|instabilit\w*|rigid\w*|scarc\w*|mismatch\w*|degrad\w*|only)\b|^\W*while\b",
    re.I,
)
# "Recent methods address this limitation by ..." describes earlier work's remedy, not the gap.
_PRIOR_REMEDY = re.compile(
    r"\b(address|tackle|mitigat|alleviat|overcom|solv|resolv)\w* (this|these|the|such) "
    r"(limitation|issue|problem|challenge|bottleneck)s?\b(?!.*\b(however|but|yet)\b)",
    re.I,
)
ANAPHORA = re.compile(
    r"^\W*(?:(?:however|moreover|furthermore|yet|but|still|unfortunately|also|in addition|in practice),?\s+)?"
    r"(this|these|such|that|those|it|they|as a result|consequently|thus|hence|therefore)\b",
    re.I,
)


_CONTINUES = re.compile(
    rf"{ANAPHORA.pattern}|"
    r"^\W*(?:however|but|yet|nevertheless|nonetheless|still|while effective|despite (?:this|these|its|their))\b",
    re.I,
)
"""A sentence that reads against the one before it: an anaphor ("These approaches ...") or a contrast
("However, ...")."""


def abstract_moves(sentences: list[str]) -> list[str]:
    """The move each sentence of an abstract makes: ``background``, ``gap`` or ``contribution``.

    The contribution starts at the first sentence that says what the paper does ("we
    propose", "In this work", "To address this, we"), or at the first of the authors' own
    sentences ("we", "our") right before it. The gap is the run of sentences just
    before it that state a limitation, a contrast or a consequence of one (a sentence that
    starts with "This"/"These"/"As a result" continues the run; one that describes earlier
    work's remedy, "Recent methods address this limitation by ...", ends it). Everything
    earlier is background. An abstract with no recognisable contribution sentence, or none
    before which a gap is stated, gets ``unknown`` for every sentence (the cue words then
    decide; after Swales, 1990, moves of research introductions).

    Args:
        sentences: The abstract's sentences, in order.

    Returns:
        One move per sentence.
    """
    n = len(sentences)
    p = None
    for pat in (_STRONG_PROPOSAL, _THIS_WORK, _PROPOSAL):
        p = next((i for i, s in enumerate(sentences) if pat.search(s)), None)
        if p is not None:
            break
    if not p:
        return ["unknown"] * n
    # The authors' own sentences right before the proposal ("In this work, we revisit ...", "We
    # first establish ...") open the contribution; the gap is stated before them (one of theirs that
    # states a gap, "we show that this reliance introduces a trade-off", stays in it).
    while p > 0 and _FIRST_PERSON.search(sentences[p - 1]) and not _GAP_CUE.search(sentences[p - 1]):
        p -= 1
    if not p:
        return ["unknown"] * n
    moves = ["background"] * p + ["contribution"] * (n - p)
    i = p - 1
    while i >= 0:
        s = sentences[i]
        if _PRIOR_REMEDY.search(s):
            break
        if not (_GAP_CUE.search(s) or (i + 1 < p and moves[i + 1] == "gap" and ANAPHORA.search(sentences[i + 1]))):
            break
        moves[i] = "gap"
        i -= 1
    return moves if "gap" in moves else ["unknown"] * n


_LIMIT_WORD = r"(?:limitations?|drawbacks?|weakness(?:es)?|shortcomings?|downsides?|caveats?|failure modes?)"
_OWN_LIMITS = re.compile(
    rf"\b(?:its|their|[\w-]+['’]s)\s+(?:\w+\s+)?{_LIMIT_WORD}|"
    rf"\b(?:have|has|any|are there)\s+(?:any\s+)?(?:\w+\s+)?{_LIMIT_WORD}",
    re.I,
)
_LIMITS_OF = re.compile(rf"\b{_LIMIT_WORD}\s+of\s+(?:the\s+|this\s+)?(?P<of>[\w-]+)", re.I)
_ADDRESSED = re.compile(
    r"\b(address\w*|tackl\w*|overcom\w*|solv\w*|fix\w*|mitigat\w*|remed\w*|resolv\w*|motivat\w*|target\w*|"
    r"aim\w*|prior|previous|existing|earlier|other work)\b",
    re.I,
)


def asks_own_limitations(question: str, names: Sequence[str] = ()) -> bool:
    """Whether a question asks for a paper's own limitations ("what are its limitations?", "does APM
    have any drawbacks?", "limitations of HieRD"), not the limitation of earlier work it addresses
    ("what limitation does HieRD address?", "what weakness of text-to-image models does SoT
    target?"). ``names``: the papers the question names ("limitations of X" asks X's own)."""
    if _ADDRESSED.search(question):
        return False
    if _OWN_LIMITS.search(question):
        return True
    m = _LIMITS_OF.search(question)
    own = {n.lower() for n in names} | {"it", "paper", "method", "approach", "work", "model", "framework"}
    return m is not None and m.group("of").lower() in own


def wants_more(question: str) -> bool:
    """Whether the question asks for several aspects (a summary or two+ roles): quote more sentences."""
    return is_summary(question) or len(question_roles(question)) >= 2


def is_summary(question: str) -> bool:
    """Whether the question asks for a summary or overview of a paper."""
    return bool(SUMMARY_WORDS.search(question))


# --- rows of comparisons and summaries -----------------------------------------------------


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
_REMEDY = re.compile(
    r"\b(?:address|tackl|overcom|mitigat|alleviat|solv|resolv|remed|bridg|circumvent|avoid)\w*\s+"
    r"(?:this|these|those|the|such|above|its|their)\s+(?:\w+\s+)?"
    r"(?:limitations?|issues?|problems?|challenges?|gaps?|drawbacks?|shortcomings?|bottlenecks?)\b",
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
        against=re.compile(rf"{_PRIOR.pattern}|{_RESULT_LEAD.pattern}", re.I),
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
CONTEXT_SENTENCES = 2
"""Most sentences quoted before a problem sentence that reads against the one before it (a gap is
rarely stated over more than three sentences; see :data:`rag.evidence.GAP_UNIT`)."""
LIMITATIONS = next(r for r in ROWS if r.key == "limitations")
"""The row of the limitations a paper states of its own work."""
ROW_MIN_SCORE = 0.30
"""Least row score (see :class:`Row`) for a sentence to fill a cell; else :data:`NOT_STATED`."""


def _row_score(row: Row, ev: Evidence, index: int, count: int, label: str, move: str = "unknown") -> float:
    text = strip_markup(ev.sentence)
    if row.requires_own and not (_OWN.search(text) or (label and label.lower() in text.lower())):
        return 0.0
    if row.requires_own and (_REMEDY.search(text) or move in ("background", "gap")):
        return 0.0  # the gap it remedies ("To address this limitation, we propose ..."), not its own
    if row.key != "problem" and move in ("background", "gap") and not _FIRST_PERSON.search(text):
        return 0.25 * ev.score  # the field or other work: not this paper's approach, data or results
    if row.key == "problem" and move == "contribution":
        return 0.25 * ev.score  # the abstract states a gap: the problem is there, not in what the paper does
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
    evidence: EvidenceSource,
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
        evidence: The sentence scorer.
        paper: The paper whose abstract is read.
        rows: Rows to fill.
        topic: Optional topic prepended to each row's query (topic summaries).
        min_score: Least row score in [0, 1] for a cell.

    Returns:
        Row key -> the chosen evidence (empty tuple = not stated in the abstract).
    """
    order = {s.start: i for i, s in enumerate(evidence.sentences(paper)[0])}
    moves = evidence.moves(paper)
    count = max(1, len(order))
    priority = ["approach", "results", "data", "problem", "limitations"]
    todo = sorted(rows, key=lambda r: priority.index(r.key) if r.key in priority else len(priority))
    used: set[int] = set()
    out: dict[str, tuple[Evidence, ...]] = {}
    for row in todo:
        query = f"{topic}. {row.query}" if topic else row.query
        scored = evidence.score(query, paper)
        own = "" if paper.describes else paper.label  # a descriptive label is no name to look for
        ranked = sorted(
            ((_row_score(row, e, order.get(e.start, 0), count, own, moves.get(e.start, "unknown")), e) for e in scored),
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
        before: tuple[Evidence, ...] = ()
        first = pick
        # "However, establishing a compact boundary ... remains a challenge": a problem stated
        # against the sentence before it is quoted with that sentence ("One-class learning offers
        # inherent robustness ..."), which says what it is a problem of; at most CONTEXT_SENTENCES.
        while row.key == "problem" and len(before) < CONTEXT_SENTENCES and _CONTINUES.search(first.sentence):
            prev = max((e for e in scored if e.start < first.start), key=lambda e: e.start, default=None)
            if prev is None or prev.start in used:
                break
            first = replace(prev, score=pick.score)
            before = (first, *before)
            used.add(prev.start)
        # "three challenges: (1) Overhead." is quoted with the sentences holding items (2), (3).
        from rag.evidence import list_items

        more = list_items(pick, scored)
        used.update(e.start for e in more)
        out[row.key] = (*before, pick, *more)
    return {r.key: out[r.key] for r in rows}
