"""Yes/no questions about a paper: whether a question asks yes or no (:func:`polar`) and the terms
a sentence must state for "yes" (:func:`polar_terms`). Read by the question model
(:mod:`rag.question.reader`); ``tests/test_question.py`` checks each with phrasings it was not written for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence

from rag.lexicon import MIN_DERIVATION_BASE, english_word, joined_form, lemma, term_key
from rag.question.phrasing import CODE_HOST, WORD, without_code_topics
from rag.text import STOPWORDS, content_terms, tokenize
from rag.vocabulary import beside

__all__ = [
    "AUXILIARIES", "BETTER", "available_in_shorthand", "choice_other", "contrary_keys", "free_predicate", "names_code",
    "polar", "polar_absent", "polar_after_name", "polar_against", "polar_available", "polar_comparative",
    "polar_compares", "polar_compounds", "polar_relating", "polar_terms", "predicate_start", "prefixed_base",
    "premise_terms", "reported", "sense_keys", "unqualified",
]

_VOCABULARY = beside(__file__, "polar")
AUXILIARIES = _VOCABULARY["auxiliary"].words
_AUXILIARIES = AUXILIARIES
_NOT_POLAR_SUBJECTS = _VOCABULARY["not_polar_subject"].words
_JOINERS = _VOCABULARY["joiner"].words
_PARTICIPLE_AUXILIARIES = _VOCABULARY["participle_auxiliary"].words
_GENERIC_HEADS = _VOCABULARY["generic_head"].words
_POLAR_GENERIC = _VOCABULARY["relating"].words
_OUTCOME = _VOCABULARY["outcome"].words
_RELATION = _VOCABULARY["relation_word"].words
_COMPARATIVE = _VOCABULARY["comparative"].words
_QUALITY = _VOCABULARY["better_quality"].words
BETTER = "better"
"""How "more" before an adjective of a result's quality ("more accurate", vocabulary
``better_quality``) is read when no sentence writes the adjective: a better result (:func:`unqualified`)."""
_AGAINST = _VOCABULARY["compared_against"].words
_ADDITIVE = _VOCABULARY["additive"].pattern
_AVAILABILITY = _VOCABULARY["availability"]
_AVAILABILITY_FINAL = _VOCABULARY["availability_final"].words
_AVAILABLE_DATA = _VOCABULARY["available_data"].words
_AVAILABLE_MODELS = _VOCABULARY["available_models"].words
_AVAILABLE_CODE = _VOCABULARY["available_code"].words
_SHORTHAND_LINK = _VOCABULARY["shorthand_link"].words
_SHORTHAND_ARTIFACT = _VOCABULARY["shorthand_artifact"].words
_CODE_HOSTS = CODE_HOST.words
_MODAL = _VOCABULARY["modal"].words
_REPORTING_SUBJECT = _VOCABULARY["reporting_subject"].words
_ABSENCE = _VOCABULARY["absence"]
_ABSENCE_SUFFIX = _VOCABULARY["absence_suffix"].words
_FREE_PREDICATE = re.compile(
    rf"\b(?P<thing>[A-Za-z][\w]*)(?:-|\s+)(?:{'|'.join(sorted(_ABSENCE_SUFFIX))})\W*$", re.I
)
_SETTING_ASIDE = _VOCABULARY["setting_aside"]
_CHOICE = re.compile(
    rf"^\W*(?:{_VOCABULARY['choice_opener'].source})\s+(?P<comparative>[a-z]+)\b(?P<on>\s+on\s+[^,:;?]+)?\s*[,:;-]?\s*"
    r"(?P<a>[^,:;?]+?),?\s+or\s+(?P<b>[^,:;?]+?)\s*\??\s*$",
    re.I,
)
"""A choice by a comparative between two options, read by :func:`choice_other`."""
_CONTRARY = beside(__file__, "contrary")
_MORPHOLOGY = ("suffix_contrary", "negating_prefix")
_SENSES = {name: cls for name, cls in _CONTRARY.items() if name not in _MORPHOLOGY}
_SUFFIX_PAIRS = [tuple(p.split()) for p in _CONTRARY["suffix_contrary"].phrases]
_NEGATING_PREFIXES = sorted(_CONTRARY["negating_prefix"].words, key=len, reverse=True)
_COUNT_WORDS = frozenset(w for c in _SENSES.values() for w in c.words if w in STOPWORDS)
"""Count words of the contrary classes that are stop words ("one", "two", "many"): a yes/no
question keeps them as terms before a content word ("Does FlexGen run on one GPU?")."""


def polar(query: str) -> bool:
    """Whether a question asks yes or no: it opens (after "and"/"so") with an auxiliary whose
    subject is not "there", "you" or "any" ("Does DANCE use LLMs?", "Is it evaluated on
    Flickr30k?"; not "Are there papers on ...", "Do you have ...", "Does any paper ...")."""
    words = [w.lower() for w in WORD.findall(query)]
    while words and words[0] in _JOINERS:
        words = words[1:]
    return len(words) >= 3 and words[0] in _AUXILIARIES and words[1] not in _NOT_POLAR_SUBJECTS


def polar_after_name(query: str) -> bool:
    """Whether a question asks yes or no (:func:`polar`), also after a name or description put first
    and set off by a colon ("Cramming: does it train on a single GPU?")."""
    head, colon, rest = query.partition(":")
    return polar(query) or (bool(colon) and bool(head.strip()) and polar(rest))


def predicate_start(query: str, start: int) -> int | None:
    """Where the predicate of a yes/no question begins after its subject, a paper described from
    offset ``start`` on ("Does the paper that learns a multimodal policy as a generative model of
    optimal trajectories | release code?", "Is the paper on ride-hailing | evaluated on real
    data?"), or ``None`` (no yes/no question, or no predicate verb found).

    The predicate opens with a verb of the vocabulary rows ``relating`` or ``availability`` in the
    form its auxiliary takes: the base form after "does"/"can"/"will" (:func:`rag.lexicon.lemma` of
    the word is the word: "release", not the description's own "learns"), a participle after
    "is"/"has" (row ``participle_auxiliary``: "evaluated", "trained", "based"). A verb the rows do
    not hold ("outperform") leaves the description as matched."""
    if not polar(query):
        return None
    words = [(m.start(), m.group(0).lower()) for m in WORD.finditer(query)]
    lead = [w for _, w in words if w not in _JOINERS]
    participle = bool(lead) and lead[0] in _PARTICIPLE_AUXILIARIES
    for pos, w in words:
        if pos <= start:
            continue
        if _AVAILABILITY.pattern.match(query, pos):
            return pos
        if w in _POLAR_GENERIC and (lemma(w) != w if participle else lemma(w) == w):
            return pos
    return None


_PREMISE_END = _VOCABULARY["premise_end"]
_PREMISE = re.compile(
    rf"^\W*(?:{_VOCABULARY['premise_opener'].source})\s+(?:{_VOCABULARY['premise_subject'].source})\s+"
    rf"(?:{_VOCABULARY['premise_verb'].source})\b(?P<clause>[^,;:?]+)",
    re.I,
)


def premise_terms(unnamed: str) -> tuple[str, ...]:
    """The terms a question of manner or reason takes as stated of the paper it names, or ``()``.

    "how does it use diffusion models?" (the name taken out, "it" in its place) presupposes that
    the paper uses diffusion models: ``("diffusion",)``, read as :func:`polar_terms` reads "does it
    use diffusion models?" (up to the first comma: "..., and what does it gain?" asks apart).
    Only a verb of using a thing opens a premise (vocabulary ``premise_verb``: "use", "rely on",
    "need"); "how does it reduce memory?" asks how, in words an abstract need not share, and takes
    nothing as given.

    Args:
        unnamed: The question with the names of the papers it names replaced by "it".
    """
    m = _PREMISE.match(unnamed.strip())
    if not m:
        return ()
    # the verb only relates paper and thing; a count taken as given ("why did it use 16 datasets?")
    # is checked as a count (rag.route.premise), not as a word to find
    # the object ends where its purpose or occasion begins ("use LLMs to process text": LLMs)
    clause = m.group("clause")
    end = _PREMISE_END.search(clause)
    clause = clause[: end.start()] if end is not None and clause[: end.start()].strip() else clause
    return tuple(t for t in polar_terms(clause) if not any(c.isdigit() for c in t) and t not in _COUNT_WORDS)


def free_predicate(aspect: str) -> str:
    """``aspect`` with an "X-free" (vocabulary ``absence_suffix``) that ends it as what the paper is
    said to be ("Is MAE-DET training-free?", "is it label free") read as the absence of X ("without
    training"), which :func:`polar_absent` and :func:`polar_terms` read as any other absence: a
    sentence that does without X ("without training network parameters", "a training-free ...
    method") answers yes. An "X-free" before its noun ("does it use classifier-free guidance?")
    names a thing asked and is kept."""
    m = _FREE_PREDICATE.search(aspect)
    if m is None or m.group("thing").lower() in STOPWORDS:
        return aspect
    return f"{aspect[: m.start()]}without {m.group('thing')}"


def polar_terms(aspect: str) -> tuple[str, ...]:
    """The content terms a yes/no question asks a paper to state: its aspect without the
    auxiliary and the words that only relate paper and thing ("use", "evaluated", "mention").

    "Does use LLM surrogates" -> ``("llm", "surrogates")``; order kept, each term once. A generic
    head noun after another term ("MODIS data", "a frozen LVLM model") is implied by it: an
    abstract says "reconstructing MODIS ... fields", not "MODIS data". A comparative ("fewer",
    "faster") is left out (:func:`polar_compares`), and so is a generic noun of what is reported
    ("results", "numbers", "performance"): "Does ME-DLM report results on GSM8K" -> ``("gsm8k",)``,
    since "33.6 points on GSM8K" states results without the word. A preposition of time, order or
    place ("after", "before", "through") only relates the terms: "Does SparseGPT need retraining
    after pruning" -> ``("retraining", "pruning")``.
    """
    aspect = free_predicate(aspect)
    # a possessive is its noun: "the model's weights" asks "model" ("the language model API")
    # "too", "as well": the thing is asked in addition to what was asked before
    words = [t.removesuffix("'s").removesuffix("’s") for t in _asked_tokens(_ADDITIVE.sub(" ", reported(aspect)))]
    # a verb of setting aside ("does APM avoid bi-level optimization?") asks the absence of its
    # object (polar_absent), which "thereby avoiding costly bi-level optimization" states
    terms = [
        t for t in words
        if t not in _POLAR_GENERIC | _OUTCOME | _MODAL | _RELATION
        and t.lower() not in _COMPARATIVE | _SETTING_ASIDE.words
    ]
    # ... unless the word right before it is a word of a contrary class, which says how many or what
    # kind of the head there is: "a single model" asks a model ("multi-turn tool invocations" is no
    # answer), "fine-tune the model" does not
    toks = [t.removesuffix("'s").removesuffix("’s") for t in tokenize(_ADDITIVE.sub(" ", reported(aspect)))]
    modified = {b for a, b in zip(toks, toks[1:], strict=False) if b in _GENERIC_HEADS and _sensed(a)}
    kept = [t for i, t in enumerate(terms) if not (i and t in _GENERIC_HEADS and t not in modified)]
    return tuple(dict.fromkeys(kept))


def _sensed(term: str) -> bool:
    """Whether ``term`` is a word of a class of the contrary vocabulary ("single", "frozen", "two")."""
    return bool(contrary_keys(term)) and any(term_key(term) in _keys(w) for c in _SENSES.values() for w in c.words)


def _asked_tokens(text: str) -> list[str]:
    """:func:`rag.text.content_terms` of ``text``, with the count words of the contrary classes
    (:data:`_COUNT_WORDS`: "one", "two", "many") kept before a content word: "on one GPU" asks
    "one gpu", so "a single 16GB GPU" states it and "multiple GPUs" its contrary ("one of them" keeps none)."""
    toks = tokenize(text)
    return [
        t for i, t in enumerate(toks)
        if (t not in STOPWORDS and len(t) > 1)
        or (t in _COUNT_WORDS and i + 1 < len(toks) and toks[i + 1] not in STOPWORDS)
    ]


def polar_against(aspect: str) -> tuple[str, ...]:
    """The terms of a yes/no question (:func:`polar_terms`) that it names after a word that sets
    the paper against them (vocabulary ``compared_against``): ``("shampoo",)`` of "Does FOAM
    reduce wall-clock time compared to Shampoo?", ``()`` when it sets the paper against nothing.
    A sentence that names them after its own word of contrast ("reduces wall-clock time compared
    to standard Shampoo") states the comparison asked (:func:`rag.route.lead.polar_verdict`)."""
    found = [m for m in WORD.finditer(aspect) if m.group(0).lower() in _AGAINST]
    if not found:
        return ()
    after = set(polar_terms(aspect[found[0].end() :]))
    return tuple(t for t in polar_terms(aspect) if t in after)


def polar_relating(aspect: str) -> tuple[str, ...]:
    """The verbs by which a yes/no question relates the paper to what it asks (vocabulary
    ``relating``), lower-cased, each once: ``("need", "train")`` of "Does DetectGPT need to train a
    classifier?". They are no terms a sentence must state (:func:`polar_terms` leaves them out),
    but a negation that reaches one of them ("does not require training a separate classifier")
    denies what is asked (:func:`rag.route.lead.denies_directly`)."""
    words = [w.lower() for w in WORD.findall(reported(aspect))]
    return tuple(dict.fromkeys(w for w in words if w in _POLAR_GENERIC and w not in _AUXILIARIES))


def polar_compounds(aspect: str) -> tuple[tuple[str, ...], ...]:
    """The runs of a yes/no question's terms (:func:`polar_terms`) that stand side by side in it,
    a phrase of two or more words ("Does the graph pruning paper keep hard samples?" ->
    ``(("hard", "samples"),)``; "Does DDL fine-tune the LVLM?" -> ``()``): a sentence states
    such a phrase only with its words near each other in one clause, not "NP-hard, ... sample-wise"
    (:func:`rag.route.lead.states_compound`). A generic head a term implies ("labeled data") and
    a possessive stay inside the run; any other word (a stop word, a relating word) ends it."""
    aspect = free_predicate(aspect)
    terms = set(polar_terms(aspect))
    runs: list[list[str]] = [[]]
    for t in tokenize(_ADDITIVE.sub(" ", reported(aspect))):
        word = t.removesuffix("'s").removesuffix("’s")
        if word in terms and word not in runs[-1]:
            runs[-1].append(word)
        elif not (runs[-1] and word in _GENERIC_HEADS):
            runs.append([])  # a generic head a term implies ("labeled data") stays in the run
    return tuple(tuple(r) for r in runs if len(r) > 1)


def _keys(word: str) -> set[str]:
    """The term keys of ``word`` and of its form without its one hyphen ("fine-tune", "finetune")."""
    return {term_key(w) for w in (word, joined_form(word)) if w}


@functools.cache
def sense_keys(term: str) -> frozenset[str]:
    """The term keys of the words of the class of the contrary vocabulary that holds ``term``
    (its words name one thing): "one" is stated by "single", "several" by "multiple";
    ``frozenset()`` for a term no class holds, or one of a ``distinct`` class ("two" is no "three")."""
    key = term_key(term.lower())
    return frozenset(k for c in _SENSES.values() if not c.distinct and any(key in _keys(w) for w in c.words)
                     for w in c.words for k in _keys(w))


@functools.cache
def contrary_keys(term: str) -> frozenset[str]:
    """The term keys of words that state the contrary of ``term`` (vocabulary ``contrary``):

    * the words of the classes contrary to the class that holds it ("multiple" -> "single";
      "retraining" -> "frozen", "training-free");
    * its form with or without a negating prefix (``negating_prefix``: "labeled" <-> "unlabeled",
      "convex" <-> "non-convex"; the rest an English word of at least
      :data:`rag.lexicon.MIN_DERIVATION_BASE` letters and no stop word, so "unless" is no "less");
    * its last hyphenated part swapped for its contrary (``suffix_contrary``: "model-based" <->
      "model-free", "task-agnostic" <-> "task-specific").

    ``frozenset()`` when none is known."""
    low = term.lower()
    key = term_key(low)
    out: set[str] = set()
    for c in _SENSES.values():
        if any(key in _keys(w) for w in c.words):
            out |= {k for other in c.contrary for w in _CONTRARY[other].words for k in _keys(w)}
    for p in _NEGATING_PREFIXES:
        rest = low.removeprefix(p).removeprefix("-")
        if rest != low and len(rest) >= MIN_DERIVATION_BASE and english_word(rest):
            out |= _keys(rest)
        elif rest == low and len(low) >= MIN_DERIVATION_BASE and low not in STOPWORDS and english_word(low):
            out |= _keys(f"{p}{low}") | _keys(f"{p}-{low}")
    head, dash, last = low.rpartition("-")
    if dash and head:
        for a, b in _SUFFIX_PAIRS:
            if last == a:
                out |= _keys(f"{head}-{b}")
            elif last == b:
                out |= _keys(f"{head}-{a}")
    return frozenset(out - {key})


def prefixed_base(term: str) -> str:
    """The word a yes/no question's term repeats with "re" ("retraining" -> "training",
    "re-train" -> "train"; the rest an English word of at least
    :data:`rag.lexicon.MIN_DERIVATION_BASE` letters), else ``""``: a sentence that denies the base
    ("requires no additional training") denies the repetition, and no sentence that states the
    base states it ("we train a model" is no retraining)."""
    low = term.lower()
    rest = low.removeprefix("re").removeprefix("-")
    return rest if rest != low and len(rest) >= MIN_DERIVATION_BASE and english_word(rest) else ""


def reported(aspect: str) -> str:
    """A yes/no question's aspect without a verb that reports a finding before "that" ("Does find
    that RL finetuning beats SFT" -> "RL finetuning beats SFT"): the verb right after the auxiliary
    and words of its subject (vocabulary ``reporting_subject``: "does it claim that", "do the
    authors show that"), whatever the verb; ``aspect`` unchanged when it has none. "Does it use a
    method that ..." keeps its words: "that" there follows a noun after the verb."""
    found = list(WORD.finditer(aspect))
    for k, w in enumerate(found[:6]):
        if w.group(0).lower() == "that":
            before = [x.group(0).lower() for x in found[: k - 1]] if k >= 2 else None
            if before is not None and all(x in _REPORTING_SUBJECT or x in _AUXILIARIES for x in before):
                return aspect[w.end() :].strip()
            break
    return aspect


def polar_absent(aspect: str) -> bool:
    """Whether a yes/no question asks for the absence of what it names (vocabulary ``absence``:
    "does L2M work without per-task retraining?", "does it use no labels?"; or a verb of setting
    aside, vocabulary ``setting_aside``: "does APM avoid bi-level optimization?"): a sentence that
    negates it or sets it aside ("eliminating per-task retraining", "thereby avoiding costly
    bi-level optimization") answers yes."""
    said = reported(free_predicate(aspect))
    return bool(_ABSENCE.search(said) or _SETTING_ASIDE.search(said))


def polar_compares(aspect: str) -> bool:
    """Whether a yes/no question asks a comparison ("Does ME-DLM use fewer diffusion steps?"): its
    comparative is not a term a sentence must hold (:func:`polar_terms` leaves it out) but a
    direction a sentence states with a figure ("one-eighth of the total diffusion steps")."""
    return any(w.lower() in _COMPARATIVE for w in WORD.findall(aspect))  # "less", "more" are stop words


def unqualified(terms: Sequence[str]) -> tuple[str, ...]:
    """``terms`` without the adjectives of a result's quality (vocabulary ``better_quality``): what a
    sentence of outdoing must state when no sentence writes the adjective the comparative "more"
    goes with ("baselines" of "more accurate than its baselines": "consistently outperforms strong
    baselines", read as :data:`BETTER`, :func:`rag.route.lead.polar_verdict`)."""
    return tuple(t for t in terms if t.lower() not in _QUALITY)


def polar_comparative(aspect: str) -> str:
    """The comparative a yes/no question asks, lower-cased (vocabulary ``comparative``: "fewer" of
    "Does DANCE use fewer tokens than the baselines?", "outperforms" of "does GLaM outperform
    GPT-3?"), ``""`` when it asks none: a sentence that states the same comparative of the asked
    terms answers yes, its opposite no (:func:`rag.route.lead.comparison_verdict`)."""
    return next((w.lower() for w in WORD.findall(aspect) if w.lower() in _COMPARATIVE), "")


def choice_other(query: str, names: Collection[str]) -> tuple[str, str]:
    """The comparative and the other option of a question that chooses between the one paper it
    names and something else ("Which is faster, Hyena or attention?" -> ``("faster",
    "attention")``, vocabulary ``choice_opener`` and ``comparative``), ``("", "")`` when it is no
    such choice (no comparative, no two options, or not exactly one of them a name in ``names``).
    It is answered as the yes/no comparison "Is Hyena faster than attention?"."""
    m = _CHOICE.search(query)
    if m is None or m.group("comparative").lower() not in _COMPARATIVE:
        return "", ""
    named = {n.lower() for n in names}
    options = [m.group("a").strip(), m.group("b").strip()]
    is_name = [o.lower().removeprefix("the ") in named for o in options]
    if is_name.count(True) != 1:
        return "", ""
    other = options[is_name.index(False)]
    # "which is better on Maze2D, ...": where they are compared is asked of the other option too
    return m.group("comparative").lower(), f"{other}{m.group('on') or ''}"


def polar_available(aspect: str) -> str:
    """The artifact whose availability a yes/no question asks: ``"code"``, ``"data"`` or
    ``"models"``; ``""`` when it asks no availability.

    "Does ClimaX release code?", "is FlexGen open source?" -> ``"code"`` (an availability word with
    no artifact asks for code); "does it release its dataset?" -> ``"data"``; "are the model weights
    public?" -> ``"models"``. A sentence answers it by stating the artifact available in any words
    ("Our software and data are publicly available", a repository link): the words of the question
    are no terms a sentence must hold (:func:`rag.route.lead.availability_span`).
    """
    words = [w.lower() for w in WORD.findall(aspect)]
    final = bool(words) and words[-1] in _AVAILABILITY_FINAL and not _final_of_other(aspect)
    # "with code" asks code made available; "with code generation" names a topic
    if not (_AVAILABILITY.search(without_code_topics(aspect)) or final):
        return ""
    return _artifact(words)


_ARTIFACT_NOUNS = _AVAILABLE_DATA | _AVAILABLE_MODELS | _AVAILABLE_CODE


def _final_of_other(aspect: str) -> bool:
    """Whether a word of availability that closes ``aspect`` (``availability_final``: "online",
    "public") closes a predicate of other content words than artifacts and relating words: "does
    the routing paper handle requests online?" asks how it handles requests, not whether its code
    is online ("is the code online?", "are the model weights public?" ask that)."""
    return any(
        t not in _ARTIFACT_NOUNS and t not in _POLAR_GENERIC and t not in _AVAILABILITY_FINAL
        for t in content_terms(aspect)
    )


def names_code(text: str) -> bool:
    """Whether ``text`` names code or a host of code ("a GitHub link", "their code", "the
    repository"; classes ``available_code``, ``code_host``): "links clauses and literals" does not."""
    return any(w.lower() in _AVAILABLE_CODE or w.lower() in _CODE_HOSTS for w in WORD.findall(text))


def _artifact(words: list[str], code_first: bool = False) -> str:
    """The artifact ``words`` (lower case) ask for: ``"models"`` when they name models and no code,
    ``"data"`` when they name data (not beside code or its host, with ``code_first``: "DocVAL
    code/data?"), else ``"code"``."""
    code = any(w in _AVAILABLE_CODE or (code_first and w in _CODE_HOSTS) for w in words)
    if any(w in _AVAILABLE_MODELS for w in words) and not any(w in _AVAILABLE_CODE for w in words):
        return "models"
    if any(w in _AVAILABLE_DATA for w in words) and not (code_first and code):
        return "data"
    return "code"


def available_in_shorthand(query: str, names: list[str]) -> str:
    """The artifact a message of a name and words of a link asks for, with no question frame
    ("CogRouter github?", "CoVRL code?", "Hyena repo link", "DocVAL data available?"): ``"code"``,
    ``"data"`` or ``"models"``, asked as "is <name>'s <artifact> available?" (:func:`polar_available`);
    ``""`` for any other message (a question word, any other word, no name).

    Args:
        query: The message as typed.
        names: The names of papers it states (as typed).
    """
    named = {w.lower() for n in names for w in WORD.findall(n)}
    words = [w.lower() for w in WORD.findall(query) if w.lower() not in named]
    if not named or not words or any(w not in _SHORTHAND_LINK | _SHORTHAND_ARTIFACT for w in words):
        return ""
    if not any(w in _SHORTHAND_LINK for w in words):
        return ""  # "DANCE data?": the data it uses, not whether it is released
    return _artifact(words, code_first=True)
