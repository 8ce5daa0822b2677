"""Rhetorical roles of abstract sentences and the moves of an abstract (the rows of comparisons and
summaries built on them are in :mod:`rag.evidence.rows`).

A question asks for a role (the problem a paper addresses, its method, its results, its data,
its theory: :mod:`rag.question.roles`); a sentence of an abstract plays roles, recognised by cue words (after the
argumentative-zoning idea of Teufel and Moens, Computational Linguistics 2002) and by its move
in the abstract (background, gap, contribution: Swales, 1990, "Create a Research Space").
"""

from __future__ import annotations

import functools
import re

from rag.vocabulary import beside
from store.labels import find_code_url

__all__ = [
    "ANAPHORA",
    "CONTINUES",
    "FIRST_PERSON",
    "NEGATED_SHARE",
    "NAMING_VERB",
    "RESULT_LEAD",
    "abstract_moves",
    "affirmed",
    "contribution_start",
    "names_benchmark",
    "names_data",
    "names_data_used",
    "negated_mainly",
    "preamble",
    "proposes",
    "sentence_roles",
    "states_formal_result",
    "states_how",
]


_VOCABULARY = beside(__file__, "roles")
"""The cue words of roles and moves (``vocabulary/roles.toml``); the patterns below compose its classes."""
_V = {name: cls.source for name, cls in _VOCABULARY.items()}  # class name -> regex source, to compose
NAMING_VERB = _V["naming_verb"]
"""Regex source of the verbs right before a name the paper gives its work ("present ChiPFormer")."""

# What it costs to run or train a method, and saving it, as sentences state it ("9.6x faster
# distillation", "33.42% fewer tokens", "reducing memory consumption").
_EFFICIENCY_STATED = re.compile(
    rf"{_V['efficiency']}|{_V['saving']}\s+(?:[\w-]+\s+){{0,2}}{_V['resource']}|{_V['resource']}\s+{_V['resource_saving']}",
    re.I,
)

# Rhetorical roles of abstract sentences, recognised by cue words (after the argumentative-zoning
# idea of Teufel & Moens, 2002, reduced to the roles questions about abstracts ask for).
_COINED = rf"(?-i:[A-Z][\w-]*(?:\d|[a-z]-?[A-Z])[\w-]*)(?!\s+{_V['software_noun']})"
"""A coined name with a digit or inner capital ("ImageNet-1k", "Flickr30k", "Mini-Imagenet"), not
one of software ("the LibAUC library")."""
_DATA_USED = re.compile(
    rf"{_V['validated']}\s+(?:{_V['validated_object']}\s+)?(?:\w+\s+)?{_V['validated_on']}|"
    rf"(?:{_V['used_on_verb']}\s+on|{_V['data_noun_before_name']})\s+(?:the\s+)?{_COINED}|"
    rf"{_V['validated']}[^.;]{{0,60}}?\b(?:in|on|across)\s+(?:[\w-]+,?\s+){{0,6}}{_V['evaluated_setting']}|"
    rf"{_V['before_data_name']}\s+the\s+(?-i:[A-Z][\w-]*)\s+(?-i:[a-z][\w-]*\s+)?{_V['data_noun_after_name']}|"
    rf"{_V['measure_on']}\)?\s+(?:(?:of|by)\s+[\d.,]+%?\s+)?on\s+(?:the\s+)?(?:zero-shot\s+)?{_COINED}",
    re.I,
)
"""Data said by what is done on it: "validated on", "evaluate our method across", a coined name
after a verb of training or testing on it ("Trained on AudioCaps") or a data noun ("the
benchmark HumanEval"), the settings a verb of showing names ("Our empirical evaluation
confirms these findings in simulated robotic locomotion, navigation, and manipulation settings"),
a capitalised name between "on the" and a data noun, with at most one lower-case word between
("On the HELM benchmark", "on the OC20 dataset", "in the Crafter game environment"), or a coined
name after a measure and "on" ("+12% accuracy on Mini-Imagenet")."""
_DATA_NAMED = re.compile(rf"{_DATA_USED.pattern}|{_V['before_data_name']}\s+(?:the\s+)?{_COINED}", re.I)
"""Data said as :data:`_DATA_USED` does, or by a coined name after a bare "on"/"in"/"across" ("on
ImageNet-1k", "in Flickr30k"): weaker, a method's name stands there too ("focuses on ReLU nets")."""


_NEGATION = _VOCABULARY["negation"].pattern
_NEGATION_ADDITIVE = _VOCABULARY["negation_additive"].pattern
_NEGATION_END = re.compile(
    rf"[;:()]|\.(?:\s|$)|,\s*(?={_V['negation_end']})|\s(?={_V['negation_setting']}\s+(?:the\s+)?{_COINED})", re.I
)


def affirmed(sentence: str) -> str:
    """``sentence`` with what it states negated blanked out (each character a space, so offsets
    hold): from a negation word (``negation``: "not", "without", "lacks"; not "not only") to the
    end of its clause, which runs through a comma list ("does not require training a separate
    classifier, collecting a dataset ..., or explicitly watermarking generated text") and stops
    at a semicolon, colon, parenthesis, the sentence's end, a comma before a word that turns
    back to what is stated (``negation_end``: "..., and we evaluate it on ImageNet"), or a
    preposition of the setting before a coined name (``negation_setting``: "without sacrificing
    accuracy on ImageNet-1k" is shown on ImageNet-1k; "without requiring explicit training on
    these tasks" is not shown on them).

    A role is stated by what a sentence affirms: "This approach ... does not require ...
    collecting a dataset" names no data, though it holds the word."""
    out = list(sentence)
    pos = 0
    while (m := _NEGATION.search(sentence, pos)) is not None:
        if _NEGATION_ADDITIVE.match(sentence, m.start()):
            pos = m.end()
            continue
        end = _NEGATION_END.search(sentence, m.end())
        stop = end.start() if end is not None else len(sentence)
        out[m.start() : stop] = " " * (stop - m.start())
        pos = max(stop, m.end())
    return "".join(out)


NEGATED_SHARE = 0.5
"""Least share of a sentence's characters in what it negates (:func:`rag.evidence.roles.affirmed`)
for it to state mainly what a method does not do ("This approach, which we call DetectGPT, does not
require training a separate classifier, collecting a dataset ..." is 0.8 negated): such a sentence
is no approach cell while another is cued. Set by hand on the 3,136 seed and library abstracts: 1,814
sentences negate something, 434 of them at least half; of 25 of those read, 24 state a problem, a
result or what a method needs not ("does not require", "comes with no additional memory costs"), one
how a method works ("These are not selected from sampled generations but are newly synthesized ...");
sentences between 0.4 and 0.5 ("we develop ... models that combine univariate split rules ... without
known multivariate structures") still state approaches."""


def negated_mainly(sentence: str) -> bool:
    """Whether most of ``sentence`` (:data:`NEGATED_SHARE` of its non-space characters) lies in
    what it negates (:func:`rag.evidence.roles.affirmed`)."""
    whole = len(sentence.replace(" ", ""))
    kept = len(affirmed(sentence).replace(" ", ""))
    return whole > 0 and (whole - kept) / whole >= NEGATED_SHARE


def states_how(sentence: str) -> bool:
    """Whether ``sentence`` can state how a paper's method works: not mainly what it does not do
    (:func:`negated_mainly`) and no link (a resource: "We train a smaller model on a filtered
    dataset and release the code and weights at https://github.com/..."). The approach row of a
    comparison (:mod:`rag.evidence.rows`) and a paper's gist
    (:meth:`rag.evidence.selector.EvidenceSelector.gist`) pass over such sentences."""
    return not negated_mainly(sentence) and not find_code_url(sentence)


def names_data_used(sentence: str) -> bool:
    """Whether ``sentence`` says what the work is trained or shown on by a construction that leaves
    no doubt ("we evaluate SENDAI on", "Trained on AudioCaps", "the benchmark HumanEval") or a
    well-known benchmark's name; not by a coined name after a bare "on" or "in" alone
    (:func:`names_data`), which a method's or a library's name also follows."""
    return bool(_DATA_USED.search(sentence)) or names_benchmark(sentence)


def names_data(sentence: str) -> bool:
    """Whether ``sentence`` says what the work is shown on by its construction ("we evaluate SENDAI
    on", "on ALFWorld") or a well-known benchmark's name, not merely by a word such as "dataset"."""
    return bool(_DATA_NAMED.search(sentence)) or names_benchmark(sentence)


_ROLE_CUES = {
    "efficiency": _EFFICIENCY_STATED,
    "problem": _VOCABULARY["problem"].pattern,
    "method": _VOCABULARY["method"].pattern,
    "result": re.compile(rf"{_V['result']}|%|\\times", re.I),
    # ... "validated on", "demonstrate its effectiveness across"; or a name with a digit or inner
    # capital after "on"/"in"/"across" ("on ImageNet-1k", "in Flickr30k", "on ALFWorld"): data
    # named without a word that says so
    "data": re.compile(rf"{_V['data']}|{_DATA_NAMED.pattern}", re.I),
    "theory": _VOCABULARY["theory"].pattern,
}


@functools.lru_cache(maxsize=1)
def _benchmarks() -> re.Pattern[str]:
    """Whole-word, case-sensitive pattern of the benchmarks ``glossary.tsv`` lists (its ``isa`` lines)."""
    from rag.lexicon import glossary_benchmarks

    names = sorted(glossary_benchmarks(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def names_benchmark(sentence: str) -> bool:
    """Whether ``sentence`` names a well-known benchmark ("gains of 11.6 points on HumanEval and
    33.6 points on GSM8K"): it states the paper's data although no word says "dataset"."""
    return bool(_benchmarks().search(sentence))


_FORMAL_RESULT = _VOCABULARY["formal_result"].pattern


def states_formal_result(sentence: str) -> bool:
    """Whether ``sentence`` states a formal result: a proof, a theorem, a bound, a guarantee or a
    theoretical analysis (``formal_result``: "we prove that ...", "a theoretical lower bound on the
    sample complexity", "non-asymptotic convergence guarantees"), not merely a word of theory that
    a method or a result also writes ("Bayes-optimal responses", "consistent improvements",
    "grounded in ACT-R theory"), which the ``theory`` role's cues accept. A paper is listed for its
    theory by such a sentence of its own (:meth:`rag.route.answer.AnswerPipeline._playing`)."""
    return bool(_FORMAL_RESULT.search(sentence))


FIRST_PERSON = _VOCABULARY["first_person"].pattern
RESULT_LEAD = re.compile(rf"^\W*{_V['result_lead']}", re.I)
_CONTRAST = _VOCABULARY["contrast"].pattern


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
    if names_benchmark(sentence):
        roles.add("data")
    if move in ("background", "gap") and not FIRST_PERSON.search(sentence):
        # The field and its gap are other work's: such a sentence states no method, data or
        # result of this paper ("LLMs are increasingly deployed ... for decision-making tasks"),
        # unless the authors speak of their own ("we introduce graph condensation ...").
        roles -= {"method", "data", "result", "efficiency"}
    if move == "gap":
        roles.add("problem")
    elif move != "unknown" or (RESULT_LEAD.search(sentence) and not _CONTRAST.search(sentence)):
        roles.discard("problem")
    return roles


# Moves of an abstract (Swales, 1990, "Create a Research Space"): the territory, the niche (the gap
# or limitation the paper addresses) and its occupation (what the paper proposes and shows).
_PROPOSAL = _VOCABULARY["proposal"].pattern
_STRONG_PROPOSAL = re.compile(rf"{_V['strong_proposal']}|{_V['remedy_aim']}.{{0,80}}\bwe\b", re.I)
_THIS_WORK = _VOCABULARY["this_work"].pattern
_SELF_REFERENCE = _VOCABULARY["self_reference"].pattern
_GAP_CUE = re.compile(rf"{_V['gap']}|^\W*while\b", re.I)
# "Recent methods address this limitation by ..." describes earlier work's remedy, not the gap.
_PRIOR_REMEDY = re.compile(rf"{_V['prior_remedy']}(?!.*{_V['remedy_turn']})", re.I)
ANAPHORA = re.compile(rf"^\W*(?:{_V['connective']},?\s+)?{_V['anaphor']}", re.I)


CONTINUES = re.compile(rf"{ANAPHORA.pattern}|^\W*{_V['turn_opening']}", re.I)
"""A sentence that reads against the one before it: an anaphor ("These approaches ...") or a contrast
("However, ...")."""


def proposes(sentence: str) -> bool:
    """Whether ``sentence`` says what the paper does: "we" and a verb of proposing ("we present a
    large-scale benchmark, dubbed TTAB"), "this paper proposes", or "this work ..." (the cues
    :func:`abstract_moves` opens the contribution with). "On a benchmark our kernel is faster" is
    a result, not a proposal."""
    return any(p.search(sentence) for p in (_STRONG_PROPOSAL, _THIS_WORK, _PROPOSAL))


def contribution_start(sentences: list[str]) -> int | None:
    """Index of the sentence that opens the abstract's contribution move, or ``None`` when no
    sentence says what the paper does.

    The first sentence with a strong proposal cue ("we propose", "this paper proposes"), else the
    first that speaks of this work ("In this work", "this paper presents"), else the first with a
    proposal cue ("we study", "here we"); the authors' own sentences right before it ("In this
    work, we revisit ...", "We first establish ...") open the contribution with it, except one of
    theirs that states a gap ("we show that this reliance introduces a trade-off")."""
    p = None
    for pat in (_STRONG_PROPOSAL, _THIS_WORK, _PROPOSAL):
        p = next((i for i, s in enumerate(sentences) if pat.search(s)), None)
        if p is not None:
            break
    if p is None:
        return None
    while p > 0 and FIRST_PERSON.search(sentences[p - 1]) and not _GAP_CUE.search(sentences[p - 1]):
        p -= 1
    return p


def preamble(sentences: list[str]) -> list[bool]:
    """For each sentence, whether it comes before the abstract's contribution move
    (:func:`contribution_start`) and speaks neither in the first person nor of the paper itself
    (``self_reference``: "The main aim of this paper is ..."): a statement of the field
    or of prior work the paper starts from ("Transformers for graph data are increasingly widely
    studied", "Graph Transformer (GT) recently has emerged as a new paradigm"), whether or not a
    gap can be told apart from the background (:func:`abstract_moves` then says ``unknown`` of
    every sentence). Where no sentence has a cue of proposing, the authors' first sentence opens
    their work ("Inspired by the state transition of dendritic spines ..., we model different
    states of SNN weights" after "Spiking Neural Networks (SNNs) are considered a promising
    alternative to ..."). All ``False`` when neither is found."""
    p = contribution_start(sentences)
    if p is None:
        p = next((i for i, s in enumerate(sentences) if FIRST_PERSON.search(s)), None)
    if p is None:
        return [False] * len(sentences)
    return [i < p and not FIRST_PERSON.search(s) and not _SELF_REFERENCE.search(s) for i, s in enumerate(sentences)]


def abstract_moves(sentences: list[str]) -> list[str]:
    """The move each sentence of an abstract makes: ``background``, ``gap`` or ``contribution``.

    The contribution starts at the first sentence that says what the paper does ("we
    propose", "In this work", "To address this, we"), or at the first of the authors' own
    sentences ("we", "our") right before it. The gap is the run of sentences just
    before it that state a limitation, a contrast or a consequence of one (a sentence that
    starts with "This"/"These"/"As a result" continues the run, and one that opens so carries on a
    gap sentence right before it though it holds no cue itself; one that describes earlier
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
    p = contribution_start(sentences)
    if not p:
        return ["unknown"] * n
    moves = ["background"] * p + ["contribution"] * (n - p)
    i = p - 1
    while i >= 0:
        s = sentences[i]
        if _PRIOR_REMEDY.search(s):
            break
        continued = i + 1 < p and moves[i + 1] == "gap" and ANAPHORA.search(sentences[i + 1])
        # "They are often considered different tasks and tackled by specialized models." after "Yet
        # task specification in robotics comes in various forms ...": an anaphor carries on the gap
        # stated right before it, though it holds no cue of its own
        before = sentences[i - 1] if i > 0 else ""
        # ("This work investigates ..." is the paper's own, no anaphor of the gap)
        carries = (
            ANAPHORA.search(s) and not FIRST_PERSON.search(s) and not _SELF_REFERENCE.search(s)
            and _GAP_CUE.search(before) and not _PRIOR_REMEDY.search(before)
        )
        if not (_GAP_CUE.search(s) or continued or carries):
            break
        moves[i] = "gap"
        i -= 1
    return moves if "gap" in moves else ["unknown"] * n


