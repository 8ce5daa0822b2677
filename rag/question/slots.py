"""The slot of a question: the measure, entity or detail it asks of a paper (:class:`rag.types.Slot`).

A detail (:class:`rag.question.plan.Detail`) is its own slot: a model size is stated by the form of
a size ("12M-parameter"), a date by the form of a date, any other detail by its words ("learning
rate", "GPU hours", "licence"). A question that asks an amount ("how many out-of-distribution
images does it add", "how much does PrefixRL increase the final reward", "what BLEU score") asks
the noun phrase after the words that open the amount, or after the verb that moves it, or the
subject of the auxiliary that follows them ("by what factor does <the final reward> go up"). A guessed
model size ("is it 7B?") is a model-size slot with its value. The words are classes of
``vocabulary/slots.toml``; the answering stages check the slot against sentences
(:mod:`rag.route.slot`) and never read the question.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from rag.question.phrasing import SET_NOUNS, UNIT_ASIDE, UNIT_ASKED, UNIT_WORDS, own_noun, without_unit
from rag.question.plan import Detail
from rag.text import content_terms, normalize
from rag.types import Slot
from rag.vocabulary import beside

__all__ = [
    "BIT_WIDTH", "CONTENTS", "DATA", "ENTITY", "GUESSED_SIZE", "HARDWARE", "INSTANCE", "MODELS", "OBJECT", "SETTING",
    "SIZE", "YEAR", "age_slot", "bit_width_slot", "change_asked", "contents_slot", "data_slot", "detail_slot",
    "entity_slot", "measure_slot",
    "names_fused", "object_slot", "read_slot",
    "size_compared", "unit_asked", "with_unit",
]

_VOCABULARY = beside(__file__, "slots")
_OPENER = _VOCABULARY["opener"]
_COUNT_OPENER = _VOCABULARY["count_opener"]
_RATIO_ASKED = _VOCABULARY["ratio_asked"]
_DETERMINER = _VOCABULARY["determiner"].words
_STOP = _VOCABULARY["stop"].words
_AUXILIARY = _VOCABULARY["auxiliary"].words
_VERB = _VOCABULARY["measure_verb"].words
_GENERIC = _VOCABULARY["generic"].words
_LEARNING_RATE = _VOCABULARY["learning_rate_shorthand"]
_SPEED_COMPARATIVE = _VOCABULARY["speed_comparative"].words
_GAIN_ASKED = _VOCABULARY["gain_asked"].words
_CUT_ASKED = _VOCABULARY["cut_asked"].words
_DEGREE = _VOCABULARY["comparative_degree"].words
_DEGREE_NOUN = _VOCABULARY["degree_noun"].words
_DATA_NOUN = _VOCABULARY["data_noun"].words
_DATA_ITEM = beside(__file__, "columns")["data_item"].words
"""Nouns of data items in general ("examples", "samples", "instances"): counted beside a dataset
noun, they ask the dataset's size (the one row the table's columns read, ``columns.toml``)."""
_DATA_SIZE_WORD = _VOCABULARY["data_size_word"].words
_DATA_SIZE_OPENER = _VOCABULARY["data_size_opener"]
_SIZE_NOUN = _VOCABULARY["size_noun"].words
_MODEL_NOUN = _VOCABULARY["model_noun"].words
_SIZE_SUPERLATIVE = _VOCABULARY["size_superlative"].words
_SIZE_OPENER = _VOCABULARY["size_opener"]
_BIT_WIDTH = _VOCABULARY["bit_width"]
BIT_WIDTH = "bit width"
"""The form of a slot asking the bit width a paper quantizes or computes at ("what bit width does
SmoothQuant use?", "how many bits per weight?", a table's "bit width" column; vocabulary
``bit_width``): stated by a width as abstracts write it ("8-bit weight", "INT4", "W4A4", "FP16",
:data:`rag.route.slot.BIT_WIDTH_STATED`), not by the words that asked it."""
DATA_SIZE = "dataset size"
"""The slot of a question asking how large a dataset is: stated by a count of its items
(:data:`rag.route.slot.DATA_ITEMS`), whatever words the question used for the dataset."""
SIZE = "size"
"""The form of a slot asking how big a paper's model or data is, naming neither ("how big is
GLaM?", "which is larger, ViT-22B or Pythia?"): stated by a model size
(:data:`rag.route.slot.MODEL_SIZE`) or, failing that, by a count of a dataset's items
(:data:`rag.evidence.rows.DATA_ITEMS`)."""
_SIZE_COMPARATIVE = _VOCABULARY["size_comparative"].words
_SMALLER = _VOCABULARY["smaller"].words
_SIZE_CHOICE = re.compile(
    rf"\b(?:{_VOCABULARY['choice_word'].source})\b(?:\s+[\w-]+){{0,4}}?\s+(?:{_VOCABULARY['choice_verb'].source})\s+"
    rf"(?:the\s+)?(?P<comparative>[a-z]+)\b",
    re.I,
)
_AGE_CHOICE = re.compile(
    rf"\b(?:{_VOCABULARY['choice_word'].source})\b(?:\s+[\w-]+){{0,4}}?\s+(?:{_VOCABULARY['choice_verb'].source})\s+"
    rf"(?:the\s+)?(?P<comparative>{_VOCABULARY['age_comparative'].source})",
    re.I,
)
_OLDER = _VOCABULARY["older"].words
_PARAMETER_CHOICE = re.compile(
    rf"\b(?:{_VOCABULARY['choice_word'].source})\b(?:\s+[\w-]+){{0,4}}?\s+(?:{_VOCABULARY['choice_verb'].source})\s+"
    rf"(?P<quantity>{_VOCABULARY['parameter_quantity'].source})",
    re.I,
)
"""A choice by the number of parameters ("which one has the most parameters?"): a model's size."""
_FEWER_PARAMETERS = _VOCABULARY["fewer_parameters"]
DATA = "data"
"""The form of a slot asking the data a paper works on ("what benchmarks?", "which datasets does it
use?"): stated by a sentence that states data (:func:`rag.evidence.rows.states_data`: "experiments on
three benchmarks", "on ALFWorld", "we introduce HyperTrack, a dataset"), whatever its words."""
_DATA_ASKED = _VOCABULARY["data_asked"]
MODELS = "models"
"""The form of a slot asking the models a paper is shown on ("which models does SmoothQuant evaluate
on?"): stated by a sentence that names models (:data:`rag.route.slot.MODELS_NAMED`: "OPT, BLOOM,
GLM, MT-NLG, and LLaMA family", "OPT-175B"), whatever its words for them."""
OBJECT = "object"
"""The form of a slot asking what a paper's verb acts on ("what does Agent-Omit omit?" -> the
object of "omit"): stated by a clause where the verb stands as a word of its own with words after
it ("to adaptively omit redundant thoughts and observations"), not inside a name or a compound
("Agent-Omit", "omit-aware"). It only chooses the clause the lead quotes: an abstract may say
what a paper omits in other words, so no such clause is no reason to refuse."""
_OBJECT_OPENER = _VOCABULARY["object_opener"]
_BARE_VERB = _VOCABULARY["bare_verb"].words
_CONTENT_ASKED = _VOCABULARY["content_asked"].pattern
ENTITY = "entity"
"""The form of a slot asking a thing of a paper by its noun, with no amount ("what tokenizer does
ME-DLM use?", "which random seed?", "SoT-26K train/test split?"): stated, as a measure is, by a
clause that writes the noun phrase's head as a word of its own (:func:`rag.route.slot.slot_span`);
a paper none of whose sentences does is answered "does not state <phrase>". Nouns an abstract
names by their instances ("which optimizer": "Adam"; "what metric": "SSIM"; vocabulary
``named_by_instance``) ask a slot of form :data:`INSTANCE` instead, and nouns of an aspect answered
by a sentence's role ("what problem", vocabulary ``aspect_noun``) ask none: no missing word shows
they are not stated."""
INSTANCE = "instance"
"""The form of a slot asking a thing by a noun abstracts name by its instances ("what encoder does
RAST-MoE use?", "which languages does DGSA support?", "which activation functions?"; vocabulary
``named_by_instance``): stated, in the paper's own work, by the clause that writes the noun ("equips
RL agents with a self-attention Mixture-of-Experts encoder"), else by the own-work clause closest to
the question (an instance: "enables the first zero-shot voice cloning capability for Lao"), never by
its background or gap ("existing methods, which rely on shallow encoders"). Like :data:`OBJECT`, it
only chooses the clause the lead quotes and is never declared missing
(:func:`rag.route.slot.stating_sentence`)."""
SETTING = "setting"
"""The form of a slot asking the value of a setting or quantity by its noun (vocabulary
``setting_noun``: "what is the eigendecomposition frequency of FOAM?", "FOAM damping factor
value?", "what temperature does MACL use?"): stated, as a measure asked with its amount is, only by
a clause that writes its head noun with an amount ("at an 8% condensation ratio"); a clause that
only mentions it ("dynamically controlling both the damping factor and the eigendecomposition
frequency") states no value, so a paper none of whose sentences gives one is answered "does not
state <slot>; closest: ..." (:meth:`rag.route.refusal.RefusalPolicy.slot`), never quoted as if it
answered nor as a measure stated without a figure."""
_SETTING_NOUN = _VOCABULARY["setting_noun"].words
_ENTITY_OPENER = _VOCABULARY["entity_opener"]
_BY_INSTANCE = _VOCABULARY["named_by_instance"].words
_ASPECT_NOUN = _VOCABULARY["aspect_noun"].words
_NAMING_NOUN = _VOCABULARY["naming_noun"].words
_NUMBER_WORD = _VOCABULARY["number_word"].words
_COUNT_AFTER = _VOCABULARY["count_after"].words
_ENTITY_OPENER_AT = re.compile(rf"{_ENTITY_OPENER.source}\s+", re.I)
_ENTITY_COPULA_AT = re.compile(rf"{_VOCABULARY['entity_copula'].source}\s+", re.I)
_HEADED = re.compile(rf"[^:?\u2013\u2014]{{1,80}}?(?:\s*:|\s+(?:{_VOCABULARY['head_separator'].bare}))\s+")
"""A heading before the question asked of it ("Master-ASR: which languages does it cover?"):
vocabulary ``head_separator``."""
CONTENTS = "contents"
"""The form of a slot asking what a paper's dataset or artifact holds ("what does ProAct-75
contain?", vocabulary ``content_asked``): stated by a count of its items ("Spanning 75 tasks, our
dataset features 91,581 step-level annotations", :data:`rag.evidence.rows.DATA_ITEMS`), else by a
verb of containing with its object ("consists of 100 M jets"); like :data:`OBJECT`, it chooses the
clause to quote and is never declared missing."""
_OPENER_OF_OBJECT = re.compile(rf"\s*{_OBJECT_OPENER.source}\s+", re.I)
_WORD = re.compile(r"[\w@][\w@'’.-]*[\w%]|[\w%]")

GUESSED_SIZE = re.compile(r"(?<![\w-])\d+(?:\.\d+)?\s?[BM]\b(?!-)")  # case-sensitive: "7B", "350M", not "Agent-Omit-8B"
"""A model size a question guesses as a value of its own ("is it 7B?", "a 350M model?"), not part of a name."""

# How a detail is named in an answer: a hyper-parameter by the words that ask it ("learning rate",
# "batch size"), any other by its kind ("affiliations", "hardware or compute").
_NAMED_BY_PHRASE = frozenset({"hyper-parameters"})
_FORMS = {"model size": "model size", "publication date": "date"}
HARDWARE = "hardware"
"""The form of a slot asking a paper's hardware in general ("On what hardware is Cramming trained?",
vocabulary ``generic_hardware``): stated by any hardware a sentence names ("on a single consumer
GPU", :data:`rag.route.slot.HARDWARE_STATED`). "which GPU model", "how many GPU hours" keep their own
words: "on GPUs" names no model."""
_GENERIC_HARDWARE = _VOCABULARY["generic_hardware"].words
_TOOK = re.compile(rf"how\s+long\b.*?\b(?P<verb>{_VOCABULARY['duration_verb'].source})\W*$", re.I)
"""A duration asked with a verb of training ("how long did it take to fine-tune"): the verb's time."""
_UNSTATED = frozenset({"authors", "contact details", "review outcomes"})
"""Details no sentence of an abstract states by the words that ask them ("rejection sampling" is no
review outcome, "contact" no author's email): the records answer authors, nothing answers a review
outcome or how to reach the authors."""


def names_fused(text: str, names: Collection[str]) -> tuple[str, tuple[str, ...]]:
    """``text`` with each name of several words written as one word, and the names with that form.

    A paper's name of several words is no phrase of what is asked ("What is Consistency Models
    evaluated on?" asks its data, not "models"; "What is the NFE of consistency models?" asks no
    slot "consistency models"): the readers of a slot drop a name word by word, so a name whose
    words stand apart is joined by hyphens ("Consistency-Models") and its joined form added to
    ``names``. Names of one word, and text without a name of several words, are returned as given.

    Args:
        text: The question as asked.
        names: The names of papers it states, as typed ("Consistency Models", "DANCE").

    Returns:
        ``(text, names)``: the text with the names joined, and ``names`` plus their joined forms.
    """
    joined = list(names)
    for name in sorted({n.strip() for n in names if len(n.split()) > 1}, key=len, reverse=True):
        at = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.I)
        if at.search(text):
            text = at.sub(lambda m: "-".join(m.group(0).split()), text)
            joined.append("-".join(name.split()))
    return text, tuple(joined)


def _names_paper(rest: Sequence[str]) -> bool:
    """Whether ``rest`` (the words after a slot's phrase) opens with "of" and a paper noun, after
    determiners ("of the paper that ...", "of this method", phrasing's ``own_noun``)."""
    if not rest or rest[0].lower() != "of":
        return False
    after = [w for w in rest[1:3] if w.lower() not in _DETERMINER]
    return bool(after) and own_noun(after[0])


def _phrase_after(words: list[str], i: int) -> list[str]:
    """The noun phrase from ``words[i]``: determiners skipped, up to a stop word or a verb of measure."""
    out: list[str] = []
    for w in words[i:]:
        low = w.lower()
        if not out and low in _DETERMINER:
            continue
        if low in _STOP or low in _VERB:
            break
        out.append(w)
    return out


def _size_of(words: list[str], i: int, names: Collection[str]) -> tuple[str, ...]:
    """The terms of the noun phrase after "of" when the phrase from ``words[i]`` is a noun of size
    alone ("size of the retrieval database", "scale of the corpus"; vocabulary ``size_noun``): the
    thing whose size is asked; ``()`` when no "of" follows the size noun."""
    phrase = _phrase_after(words, i)
    j = i + next((k for k, w in enumerate(words[i:]) if w == phrase[-1]), 0) + 1 if phrase else i
    if j >= len(words) or words[j].lower() != "of":
        return ()
    return _terms(_phrase_after(words, j + 1), names)


def _terms(phrase: list[str], names: Collection[str]) -> tuple[str, ...]:
    """The content terms of a phrase without generic measure words and names, in order."""
    named = {normalize(n).lower() for n in names}
    out = []
    for w in phrase:
        low = w.lower().strip("'’").removesuffix("'s").removesuffix("’s")
        if low in _GENERIC or low in named or not content_terms(low):
            continue
        out.append(low)
    return tuple(out)


def change_asked(words: Sequence[str]) -> str:
    """The direction of change an amount question asks (:attr:`rag.types.Slot.change`): ``"gain"``
    when a word asks a gain ("improve", "gain", "better"), else ``"cut"`` when one asks a cut
    ("reduce", "savings", "lower"), else ``""``."""
    low = {w.lower() for w in words}
    return "gain" if low & _GAIN_ASKED else "cut" if low & _CUT_ASKED else ""


def measure_slot(text: str, names: Collection[str] = (), *, shorthand: bool = False) -> Slot | None:
    """The measure an amount question asks, or ``None`` when no phrase names one.

    Args:
        text: The question (or the part of it that asks the amount).
        names: Names it states (paper labels, coined terms): never part of the slot.
        shorthand: The question is a name and the measure, with no question frame ("RAST-MoE
            train time", :func:`rag.question.phrasing.asks_in_shorthand`): with no opener, its
            words besides the names (a unit in brackets left out) are the measure.

    Returns:
        A :class:`Slot` with ``amount`` set and its terms (head noun last), e.g. "How much does
        PrefixRL increase the final reward?" -> terms ``("final", "reward")``.
    """
    # "wall-clock, in days", "measured in tokens": the unit is no word of the measure; nor, in
    # shorthand, one in brackets ("latency (ms)")
    text = without_unit(text) if shorthand else UNIT_ASKED.sub("", text)
    if (width := bit_width_slot(text)) is not None:  # "how many bits per weight?": a width as written
        return width
    words = _WORD.findall(text)
    if quantities := [m.group("quantity") for m in _PARAMETER_CHOICE.finditer(text)]:
        # "which one has the most parameters?", "... the fewest params?": the model's size
        smaller = any(_FEWER_PARAMETERS.search(q) for q in quantities)
        return Slot("model size", form="model size", amount=True, smaller=smaller)
    if size_compared(text):  # "which is larger, ViT-22B or Pythia?"
        smaller = any(m.group("comparative").lower() in _SMALLER for m in _SIZE_CHOICE.finditer(text))
        return replace(_compared_size(words), smaller=smaller)
    named = {normalize(n).lower() for n in names}
    starts = [m.end() for m in _OPENER.finditer(text)] or ([0] if shorthand else [])
    for end in starts:
        i = len(_WORD.findall(text[:end]))
        terms = _terms(_phrase_after(words, i), names)
        degree = i + 1 < len(words) and words[i].lower() in _DEGREE
        if not terms and degree and words[i + 1].lower() not in _STOP | _AUXILIARY | _VERB:
            # "how much more diverse are the antibody sequences?": the adjective is the measure
            # ("a two-fold increase of diversity"), not the subject after the auxiliary
            terms = _terms(words[i + 1 : i + 2], names)
        if not terms:  # "how much does X increase <the final reward>": the verb's object
            verb = next((j for j in range(i, len(words)) if words[j].lower() in _VERB), None)
            terms = _terms(_phrase_after(words, verb + 1), names) if verb is not None else ()
        aux = next((j for j in range(i, min(i + 3, len(words))) if words[j].lower() in _AUXILIARY), None)
        if not terms and aux is not None:  # "by what factor does <the final reward> go up"
            terms = _terms(_phrase_after(words, aux + 1), names)
        if not terms and i < len(words) and words[i].lower() in _SPEED_COMPARATIVE:
            # "how much faster does it run?" (no measure named after it): a speed-up, however the
            # abstract words it
            return Slot("speed-up", ("speedup",), amount=True, ratio=_RATIO_ASKED.search(text) is not None)
        bare = not [w for w in words[i:] if content_terms(w.lower()) and normalize(w).lower() not in named]
        if not terms and bare and any(m.end() == end for m in _SIZE_OPENER.finditer(text)):
            # "how big is GLaM?": a size, naming neither a model nor data
            return Slot("size", form=SIZE, amount=True)
        largest = bool(set(terms) & _SIZE_SUPERLATIVE)
        if largest and any(w.lower() in _MODEL_NOUN for w in words[i:]):
            # "how big is the largest X model?": the greatest of the sizes the abstract states
            return Slot("size of the largest model", form="model size", amount=True, largest=True)
        if terms and set(terms) <= _SIZE_NOUN and end != starts[-1]:
            continue  # "what is the size of the training set": the size of what follows
        if terms and set(terms) <= _SIZE_NOUN and any(w.lower() in _MODEL_NOUN for w in words[i:]):
            return Slot("model size", form="model size", amount=True)  # "What size is the X model?"
        of = _size_of(words, i, names) if terms and set(terms) <= _SIZE_NOUN else ()
        if of:  # "RETRO: size of the retrieval database?": the size of what follows, asked as its amount
            terms = of
        if terms:
            counted = any(m.end() == end for m in _COUNT_OPENER.finditer(text))
            phrase = _phrase_after(words, i) if not of else list(of)
            if len(phrase) > 1 and phrase[-1].lower() in _COUNT_AFTER:
                # "Cramming GPU count": a number of the word before it, a name or an acronym as it may be
                terms, counted = (phrase[-2].lower().removesuffix("'s"),), True
            sized = any(m.end() == end for m in _DATA_SIZE_OPENER.finditer(text))
            if counted and set(terms) <= _DATA_ITEM and any(w.lower() in _DATA_NOUN for w in words[i:]):
                # "How many examples does DocVAL's released dataset have?": its items in general
                # are the dataset's size ("95K validator-verified CoT traces"), as a table's
                # "how many examples" column asks it; "how many tasks" keeps counting tasks
                return Slot(DATA_SIZE, form=DATA_SIZE, amount=True)
            if _asks_data_size(terms, sized=sized, counted=counted):
                return Slot(DATA_SIZE, form=DATA_SIZE, amount=True)
            if _asks_model_size(terms, sized=sized, counted=counted):
                return Slot("model size", form="model size", amount=True)
            # "what sparsity level": how much sparsity, stated by its figure ("over 99% sparsity");
            # the degree noun names no measure of its own ("how many levels" keeps it)
            named_as = terms
            if not counted and len(terms) > 1 and terms[-1] in _DEGREE_NOUN:
                terms = terms[:-1]
            # an acronym keeps its capitals in the answer ("does not state FID")
            cased = {w.lower(): w for w in words if sum(c.isupper() for c in w) > 1}
            # "FOAM damping factor value?", "what temperature?": a setting's value, stated only
            # with an amount (SETTING); a count keeps its own check
            setting = not counted and bool(phrase) and phrase[-1].lower() in _SETTING_NOUN
            # a setting is named with its noun, a generic one too ("condensation ratio", not "condensation")
            shown = [w.lower() for w in phrase if w.lower() in {*terms, *_SETTING_NOUN}] if setting else named_as
            # "by what factor", "how many times": a ratio of the measure, not a count of "times"
            ratio = not setting and _RATIO_ASKED.search(text) is not None
            return Slot(" ".join(cased.get(t, t) for t in shown), terms, amount=True, count=counted and not ratio,
                        # a count asked with a verb of change ("how many tensor products does QHNet
                        # cut?") keeps its direction: a share of the cut states it ("by 92%")
                        form=SETTING if setting else "", change="" if setting else change_asked(words),
                        ratio=ratio)
    return None


def bit_width_slot(text: str) -> Slot | None:
    """The slot of a question or column that asks a bit width (vocabulary ``bit_width``: "what bit
    width", "bits", "numerical precision"), of form :data:`BIT_WIDTH`; ``None`` for any other."""
    if _BIT_WIDTH.search(text) is None:
        return None
    return Slot("bit width", form=BIT_WIDTH, amount=True)


def size_compared(text: str) -> bool:
    """Whether a question chooses between papers by size ("which is bigger, GLaM or PaLM-E?",
    "which of the two models is smaller?"): a word of choice (vocabulary ``choice_word``), a verb
    of being or having, then a comparative of size (``size_comparative``) or a quantity of
    parameters (``parameter_quantity``: "which one has the most parameters?")."""
    if _PARAMETER_CHOICE.search(text):  # "which one has the most parameters?"
        return True
    return any(m.group("comparative").lower() in _SIZE_COMPARATIVE for m in _SIZE_CHOICE.finditer(text))


YEAR = "year"
"""The form of a slot a choice by age asks ("which of the two is older?"): the year the records
give (:attr:`store.papers.Paper.year`), which abstracts do not state."""


def age_slot(text: str) -> Slot | None:
    """The slot of a question that chooses between papers by age ("which of the two is older?",
    "which is more recent, GLaM or PaLM-E?": a word of choice, a verb of being, a comparative of
    age, vocabulary ``age_comparative``), of form :data:`YEAR`, ``smaller`` for the older; else ``None``."""
    found = [m for m in _AGE_CHOICE.finditer(text)]
    if not found:
        return None
    older = any(m.group("comparative").lower() in _OLDER for m in found)
    return Slot("publication year", form=YEAR, smaller=older)


def _compared_size(words: list[str]) -> Slot:
    """The size a choice by size compares: a dataset's when it names data ("which dataset is
    larger?"), a model's when it names a model, else either (:data:`SIZE`)."""
    low = {w.lower() for w in words}
    if low & _DATA_NOUN:
        return Slot(DATA_SIZE, form=DATA_SIZE, amount=True)
    if low & _MODEL_NOUN:
        return Slot("model size", form="model size", amount=True)
    return Slot("size", form=SIZE, amount=True)


def _asks_data_size(terms: tuple[str, ...], *, sized: bool, counted: bool) -> bool:
    """Whether a measure's terms ask the size of a dataset: only words of a dataset and of its size
    ("dataset size", "training set", "data" after "how much"), one of them a dataset's noun, and a
    size asked (a size word, or an opener of a size: "how much data", not "how many datasets")."""
    words = {t.lower() for t in terms}
    if counted or not words & _DATA_NOUN or not words <= _DATA_NOUN | _DATA_SIZE_WORD | _SIZE_NOUN:
        return False
    return sized or bool(words & _SIZE_NOUN)


def _asks_model_size(terms: tuple[str, ...], *, sized: bool, counted: bool) -> bool:
    """Whether a measure's terms ask the size of a model: only nouns of a model and of a size
    ("model", "network size", "backbone"), one of them a model's, and a size asked ("how big is
    the X model", "what model size"), not counted ("how many models")."""
    words = {t.lower() for t in terms}
    if counted or not words & _MODEL_NOUN or not words <= _MODEL_NOUN | _SIZE_NOUN:
        return False
    return sized or bool(words & _SIZE_NOUN)


def data_slot(text: str, names: Collection[str] = ()) -> Slot:
    """The slot of a question that asks a paper's data and nothing else ("PrefixRL: what
    benchmarks?", "which datasets does it evaluate on?"): named by the noun of data it asks
    ("the benchmarks it uses"; "the data it is evaluated on" when it names none), stated by any
    sentence that states data (:data:`DATA`). A noun of a paper's name (``names``, as typed) is
    none asked: "What is Consistency Models evaluated on?" asks its data, not models; nor is one
    right after a name, which it only heads ("On what is the GLaM model evaluated?")."""
    text, names = names_fused(text, names)
    named = {normalize(n).lower() for n in names}
    m = _DATA_ASKED.search(text)
    words = _WORD.findall(text)
    asked = [w for k, w in enumerate(words) if not (k and _bare(words[k - 1]) in named)]
    if m is None and any(w.lower() in _MODEL_NOUN for w in asked):
        # "which models does SmoothQuant evaluate on?": the models it is shown on, not its data
        return Slot("the models it is evaluated on", form=MODELS)
    name = f"the {m.group(0).lower()} it uses" if m else "the data it is evaluated on"
    return Slot(name, form=DATA)


def object_slot(text: str, names: Collection[str] = ()) -> Slot | None:
    """The slot of "what does <paper> <verb>?" ("what does Agent-Omit omit?", "what did DocVAL
    distill?"): the verb, whose object a sentence states (:data:`OBJECT`); ``None`` for any other
    question, a verb that says nothing of its own ("what does X do?", "what does it mean?"), or a
    last word that is a name.

    Args:
        text: The question as asked.
        names: The names it states (normalised or not): the verb is none of them.
    """
    contents = contents_slot(text)  # "so what does ProAct-75 include?"
    if contents is not None:
        return contents
    m = _OPENER_OF_OBJECT.match(text)
    if m is None:
        return None
    words = _WORD.findall(text[m.end() :])
    if len(words) < 2:  # a subject and the verb
        return None
    verb = words[-1]
    named = {normalize(n).lower() for n in names}
    low = verb.lower()
    if low in _BARE_VERB or low in named or normalize(verb).lower() in named or not content_terms(low):
        return None
    return Slot(low, (low,), form=OBJECT)


def entity_slot(
    text: str, names: Collection[str] = (), *, shorthand: bool = False, headed: bool = False
) -> Slot | None:
    """The thing a question asks of a paper by its noun (:data:`ENTITY`), or ``None``.

    The noun phrase after a wh-opener (vocabulary ``entity_opener``: "what tokenizer does ME-DLM
    use?", "which random seed", "what kind of controllers", "what is the context window of X?"),
    or, in ``shorthand`` (a name and a short phrase with no question frame,
    :func:`rag.question.phrasing.shorthand_words`: "ME-DLM tokenizer?"), the words besides the
    names, up to a stop word ("MCLP listeners in user study?" -> "listeners").

    Args:
        text: The question as asked.
        names: The names it states (never words of the slot).
        shorthand: The question is asked in shorthand.
        headed: ``text`` follows a heading that names the paper ("Atari-5: which games?"): the
            thing asked may end the question, as it is asked of the heading's paper.

    Returns:
        A slot of form :data:`ENTITY` with its terms (head noun last); of form :data:`INSTANCE`
        when its head is a noun named by instances ("what encoder"); ``None`` when no phrase names
        a thing, or it names an aspect (see :data:`ENTITY`).
    """
    text = text.strip()
    head = _HEADED.match(text)
    if head is not None and head.end() < len(text) and _ENTITY_OPENER_AT.match(text, head.end()):
        # "Master-ASR: which languages does it cover?": the question after the heading that names
        # the paper asks the thing, as "which languages does Master-ASR cover?" does
        return entity_slot(text[head.end() :], names, headed=True)
    if (width := bit_width_slot(text)) is not None and (shorthand or _ENTITY_OPENER_AT.match(text)):
        return width  # "what bit width does SmoothQuant use?": "W8A8" states it
    words = _WORD.findall(text)
    named = {normalize(n).lower() for n in names}
    m = _ENTITY_OPENER_AT.match(text)
    framed = False  # the phrase follows a copula: "what is the <context window> of X?"
    if m is not None:
        i = len(_WORD.findall(text[: m.end()]))
        copula = _ENTITY_COPULA_AT.match(text, m.end())
        if copula is not None:  # "what is the context window of X?"
            i, framed = len(_WORD.findall(text[: copula.end()])), True
        elif i < len(words) and words[i].lower() in _AUXILIARY:
            i += 1  # "what is ME-DLM's context window?": the name's possessive, then the phrase
            if i >= len(words) or not _possessive(words[i], named):
                return None  # "which is better?", "what is DocVAL?"
            framed = True
        elif i < len(words) and _possessive(words[i], named):
            framed = True  # "what's HieRD's tokenizer?"
    elif shorthand and words and _bare(words[0]) in named:
        i = 0  # the name first, then the thing asked of it ("ME-DLM tokenizer?")
    else:
        return None
    while i < len(words) and _bare(words[i]) in named:
        i += 1  # "ME-DLM tokenizer?", "what is ME-DLM's context window?": the name, then the phrase
    phrase = _phrase_after(words, i)
    # a name ends the phrase: "what is the largest model <SmoothQuant> tests?" asks the model
    phrase = phrase[: next((k for k, w in enumerate(phrase) if _bare(w) in named), len(phrase))]
    while i < len(words) and words[i].lower() in _DETERMINER and phrase and words[i] != phrase[0]:
        i += 1
    end = i + len(phrase)
    framed = framed or (headed and end == len(words))  # "CLRS: which baselines?"
    if m is not None and not framed and not (end < len(words) and words[end].lower() in _AUXILIARY):
        return None  # "what happens when ...", "which model performs best": no thing asked of a paper
    if phrase and (phrase[0].isdigit() or phrase[0].lower() in _NUMBER_WORD):
        return None  # "which two quantities does FOAM control?": instances to name, whatever their noun
    terms = _terms(phrase, names)
    if terms and terms[-1] in _NAMING_NOUN and _names_paper(words[end:]):
        # "what is the name of the paper that uses virtual object controllers?": which paper,
        # answered by the paper found (its label), not a word its abstract must write
        return None
    if set(terms) & _SIZE_SUPERLATIVE and terms[-1] in _MODEL_NOUN:
        # "what is the largest model SmoothQuant tests?": the greatest of the sizes stated
        return Slot("size of the largest model", form="model size", amount=True, largest=True)
    if not terms or set(terms) & _ASPECT_NOUN or terms[-1] in SET_NOUNS:
        return None
    # the phrase as asked, names left out ("train/test split" of "SoT-26K train/test split?")
    spans = [(w.start(), w.end()) for w in _WORD.finditer(text)][i:end]
    kept = [k for k, w in enumerate(phrase) if _bare(w) not in named]
    shown = text[spans[kept[0]][0] : spans[kept[-1]][1]] if kept else " ".join(terms)
    # "what encoder": the abstract may name it by an instance ("a self-attention Mixture-of-Experts
    # encoder", "Lao"): a clause to quote, never a word whose absence says it is not stated
    if all(t in _GENERIC_HARDWARE for t in terms):
        # "APM hardware?", "which machines does X use?": the hardware or compute in general, as
        # "what hardware" asks it (detail_slot): stated by any hardware named, else not stated
        return Slot("hardware or compute", form=HARDWARE, detail=True)
    if set(terms) <= _SIZE_NOUN and (of := _size_of(words, i, names)):
        # "RETRO: size of the retrieval database?": the amount of what follows, as "how big is
        # RETRO's retrieval database?" asks it ("With a 2 trillion token database")
        if _asks_data_size(of, sized=True, counted=False):
            return Slot(DATA_SIZE, form=DATA_SIZE, amount=True)
        if _asks_model_size(of, sized=True, counted=False):
            return Slot("model size", form="model size", amount=True)
        return Slot(" ".join(of), of, amount=True)
    if _bare(phrase[-1]) in _SETTING_NOUN:  # "what is the eigendecomposition frequency": its value
        return Slot(shown, terms, amount=True, form=SETTING)
    return Slot(shown, terms, form=INSTANCE if terms[-1] in _BY_INSTANCE else ENTITY)


def _bare(word: str) -> str:
    """A word without a possessive ending, normalised and lower case ("ME-DLM's" -> "me-dlm")."""
    return normalize(word).lower().removesuffix("'s").removesuffix("’s")


def _possessive(word: str, named: Collection[str]) -> bool:
    """Whether ``word`` is one of the ``named`` (normalised, lower case) with a possessive ending ("ME-DLM's")."""
    low = word.lower()
    return (low.endswith("'s") or low.endswith("’s")) and _bare(word) in named


def contents_slot(text: str) -> Slot | None:
    """The slot of "what does <paper or dataset> contain?" ("what does the JetClass dataset
    include?", "what does HyperTrack consist of?": vocabulary ``content_asked`` as the question's
    last words), of form :data:`CONTENTS`; ``None`` for any other question."""
    m = _OPENER_OF_OBJECT.search(text)  # "so what does the benchmark consist of?"
    if m is None:
        return None
    asked = next((a for a in _CONTENT_ASKED.finditer(text, m.end()) if not text[a.end() :].strip(" ?.!")), None)
    if asked is None:
        return None
    return Slot("its contents", (asked.group(0).split()[0].lower(),), form=CONTENTS)


def detail_slot(detail: Detail, *, amount: bool = False, guess: str = "") -> Slot:
    """The slot of a detail: its form (a model size, a date), else its words ("learning rate" also
    for "lr"), with a number when a value is asked (``amount``: "what learning rate", "how many GPU
    hours"); ``guess``: the value the question guesses ("7B")."""
    phrase = "learning rate" if _LEARNING_RATE.fullmatch(detail.phrase) else detail.phrase
    took = _TOOK.match(phrase)
    if took:
        # "how long did it take to train?": a duration of training, stated by a figure of time where
        # training is said ("reduces the training time ... to 5.35 hours"), not by the words asked
        verb = took.group("verb").lower()
        doing = (verb[:-1] if verb.endswith("e") else verb) + "ing"
        return Slot(f"{doing} time", (doing, "time"), amount=True)
    by_phrase = detail.kind in _NAMED_BY_PHRASE and phrase
    terms = tuple(content_terms(phrase)) if detail.kind not in _FORMS and detail.kind not in _UNSTATED else ()
    if terms and all(t.lower() in _GENERIC_HARDWARE for t in terms):
        return Slot(detail.kind, form=HARDWARE, detail=True)  # "what hardware": any hardware named
    return Slot(phrase if by_phrase else detail.kind, terms, amount=amount and bool(terms),
                form=_FORMS.get(detail.kind, ""), value=guess, detail=True)


def unit_asked(text: str) -> str:
    """The unit a question asks its amount in, lower case, or ``""``: after "in" and its kin
    (vocabulary ``unit_asked``: "how big is the corpus, in tokens?", "in hours of speech"), or in
    brackets ("latency (ms)"), one of the units of vocabulary ``unit_word``."""
    m = UNIT_ASKED.search(text)
    if m is not None:
        return m.group(0).split()[-1].lower()
    aside = next((a.group(0).strip(" ()").lower() for a in UNIT_ASIDE.finditer(text)), "")
    return aside if aside in UNIT_WORDS else ""


def with_unit(slot: Slot | None, text: str) -> Slot | None:
    """``slot`` with the unit ``text`` asks its amount in (:func:`unit_asked`, :attr:`rag.types.Slot.unit`),
    when it asks an amount; else ``slot`` as it is."""
    if slot is None or not slot.amount or slot.unit:
        return slot
    unit = unit_asked(text)
    return replace(slot, unit=unit) if unit else slot


def read_slot(text: str, *, amount: bool, detail: Detail | None = None, names: Collection[str] = (),
              guess: str = "") -> Slot | None:
    """The slot of a question (see the module docstring), or ``None``.

    Args:
        text: The question as asked (names and all).
        amount: It asks an amount (:attr:`rag.types.Ask.amount`).
        detail: The detail it asks, when it asks one.
        names: The names it states (never part of a measure's terms).
        guess: A model size it guesses ("7B"), read by :data:`GUESSED_SIZE`.
    """
    if detail is not None:
        return with_unit(detail_slot(detail, amount=amount, guess=guess), text)
    if guess:
        return Slot("model size", form="model size", value=guess, detail=True)
    return with_unit(measure_slot(text, names), text) if amount else None
