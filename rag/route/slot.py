"""Which clause of a sentence states the slot a question asks (:class:`rag.types.Slot`).

One check serves the lead and the refusal: the lead quotes the clause that states the slot ("How
much does PrefixRL increase the final reward?" -> "and increases the final reward by 3x", not the
clause before it), and a paper none of whose sentences states the slot is answered "The abstract of
X does not state <slot>" (:meth:`rag.route.refusal.RefusalPolicy.slot`), whatever the words that
asked it: details abstracts seldom state (a learning rate, GPU hours, a licence, a date) and
measures they may or may not (a parameter count, the number of images added) alike.

A sentence states a slot when

* its form says so: data it works on (:func:`rag.evidence.rows.states_data`: "experiments on three
  benchmarks", "on ALFWorld", "we introduce HyperTrack, a dataset"), the object of a verb ("what
  does Agent-Omit omit?": "omit redundant thoughts and observations", the verb standing alone with
  words after it), a model size ("12M-parameter", "Agent-Omit-8B", "3B–72B models", "1.3 billion
  parameters"; "L2M" is a name, and "analytic parameters" are no size) or a date ("March 2024");
* else, for a detail, its words side by side (:func:`rag.lexicon.states_phrase`: "learning rate",
  not "federated learning");
* else, for a measure, a clause states one of its terms (compared as term keys,
  :func:`rag.lexicon.term_key`; the most of them it can), with an amount in the same clauses when
  one is asked (a figure, a number word, "an order of magnitude": :func:`states_amount`). Any one
  term is enough, so that "the storage reduction" is stated by "reduces storage by 65x": the check
  refuses only what no sentence comes near.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from rag.evidence.roles import names_benchmark
from rag.evidence.rows import COUNT_NOUN, DATA_ITEMS, states_data
from rag.evidence.senses import Senses, evidence_senses
from rag.lexicon import (
    english_word,
    glossary_forms,
    joined_form,
    lemma,
    open_compounds,
    same_keys,
    states_phrase,
    term_key,
)
from rag.protocols import EvidenceSource
from rag.question.slots import BIT_WIDTH, CONTENTS, DATA, DATA_SIZE, ENTITY, HARDWARE, INSTANCE, MODELS, OBJECT, SIZE
from rag.route.lead import (
    MAX_LEAD_WORDS,
    MIN_CLAUSE_WORDS,
    _capped,
    _keys_at,
    _list_end,
    clause_spans,
    comparison_verdict,
    coordinated_as_one,
    joined_count,
    key_clause,
    states_amount,
    term_span,
)
from rag.text import numbers
from rag.types import Ask, Evidence, Slot
from rag.vocabulary import beside
from store.papers import Paper

__all__ = [
    "BIT_WIDTH_STATED", "DATE", "DURATION_AMOUNT", "HARDWARE_STATED", "MEMORY_AMOUNT", "MODEL_SIZE", "change_clause",
    "coined_names", "component_span",
    "LIST_REACH", "RIGHT_REACH", "VALUE_REACH", "counts", "instances_known", "names_instance", "stated_value",
    "states_in_kind", "states_share", "states_unit",
    "instance_keys", "names_own_data", "reporting_verbs",
    "greatest_size",
    "measure_head", "narrowed_time", "sizes_beside", "slot_span", "slot_strength", "states_amount", "states_ratio",
    "stating_sentence",
    "unquantified_span",
]

_VOCABULARY = beside(__file__, "slots")

MODEL_SIZE = re.compile(
    r"(?<![A-Za-z0-9.])\d+(?:\.\d+)?\s?[BMT]\b"  # "7B", "Agent-Omit-8B", "12M-parameter"; not "L2M"
    r"|\b\d+(?:\.\d+)?\s*(?:million|billion|trillion|[MBT])?[\s-]*param(?:eter)?s?\b"  # "350M parameters"
    r"|\b(?:million|billion|trillion)\s+param(?:eter)?s?\b"  # "with 1.3 billion parameters"
    # one word between the unit and "parameters": "8 billion activated parameters", "1B shared parameters"
    r"|\b\d+(?:\.\d+)?\s*(?:million|billion|trillion|[MBT])[\s-]+[a-z]+\s+param(?:eter)?s?\b"
    # relative to another model: "3x fewer parameters", "reduce MoE model size by up to 3.7x"
    rf"|\d+(?:\.\d+)?\s?[x×]\s+{_VOCABULARY['size_relation'].source}"
    rf"|{_VOCABULARY['size_relation'].source}\s+\d+(?:\.\d+)?\s?[x×]",
)
"""A model size a sentence states (case-sensitive for the unit letters: "7b" is no size): "7B",
"1.2 trillion parameters", or relative to another model ("3× fewer parameters")."""
DATE = re.compile(
    rf"\b{_VOCABULARY['month'].bare}\.?\s+(?:\d{{1,2}},?\s+)?(?:19|20)\d\d\b|\b(?:19|20)\d\d-\d\d-\d\d\b", re.I
)
"""A date a sentence states: a month with its year ("March 2024", "Dec. 3, 2023") or an ISO date."""

BIT_WIDTH_STATED = re.compile(
    r"(?<![\w.])\d{1,2}[\s-]?bits?\b"  # "8-bit weight", "4 bits", "2-bits"
    r"|(?<![\w-])(?:INT|FP|BF|UINT)\d{1,2}\b"  # "INT4", "FP16", "BF16"
    r"|(?<![\w-])W\d{1,2}A\d{1,2}\b",  # "W4A4", "W8A8": weights and activations
)
"""A bit width a sentence states (case-sensitive for the formats: "int4" in a word is none): a
number of bits ("8-bit weight, 8-bit activation", "with only 8 bits"), a number format ("INT4",
"FP16") or widths of weights and activations ("W4A4"): states a slot of form
:data:`rag.question.slots.BIT_WIDTH` ("what bit width does the Int4 paper use?": "INT4 weight and
activation (W4A4) quantization")."""

_MODEL_NAME = r"(?-i:[A-Z][A-Za-z]*(?:[A-Z]|\d)[\w.-]*|[A-Z]{2,}[\w.-]*)"
MODELS_NAMED = re.compile(
    rf"(?<![\w-]){_MODEL_NAME}(?:\s*,\s*(?:and\s+)?|\s+and\s+){_MODEL_NAME}(?![\w-])"
    rf"|(?<![\w-])[A-Z][\w.]*-\d+(?:\.\d+)?[BMT]\b"
    # a size before the name: "generated by 20B parameter GPT-NeoX"
    rf"|(?<![\w.])\d+(?:\.\d+)?\s?[BMT][\s-]+(?:param(?:eter)?s?\s+)?{_MODEL_NAME}(?![\w-])"
    # a family of models: "a model from the Open Pretrained Transformer (OPT) family", "GPT-family models"
    rf"|(?<![\w-]){_MODEL_NAME}\)?[\s-]+famil(?:y|ies)\b"
)
"""Models a sentence names: two coined names in a list ("OPT, BLOOM, GLM, MT-NLG, and LLaMA
family"), a name with its size ("OPT-175B", "20B parameter GPT-NeoX"), or a family of models by
its name ("the Open Pretrained Transformer (OPT) family"): states a slot of form
:data:`rag.question.slots.MODELS`."""

_BASELINE_NAME = re.compile(rf"{_VOCABULARY['baseline_lead'].source}\s+(?:the\s+)?(?:[\w.]+-)+$", re.I)
"""The start of a model's name a sentence compares with, right before a size inside the name
("improving over Seg-Zero-" of "Seg-Zero-7B")."""

_COUNTS_ITEMS = re.compile(rf"\s*(?:(?![\w-]*(?:model|param))[A-Za-z][\w-]*\s+){{0,3}}?{COUNT_NOUN}(?![\w-])", re.I)
"""What follows a size that counts a dataset's items, not a model's parameters ("20M <publicly
available image-text pairs>", "1B <tokens>"): at most three words (none of a model or its
parameters) before a noun of items (:data:`rag.evidence.rows.COUNT_NOUN`)."""
_OPTIMIZER_NOUN = _VOCABULARY["optimizer_noun"].words
_OPTIMIZER_NAMED = _VOCABULARY["optimizer_named"]

HARDWARE_STATED = _VOCABULARY["hardware_stated"].pattern
"""Hardware a sentence names ("on a single consumer GPU", "8 A100s"): states a slot of form
:data:`rag.question.slots.HARDWARE`."""

_FORMS = {
    "model size": MODEL_SIZE, "date": DATE, BIT_WIDTH: BIT_WIDTH_STATED, DATA_SIZE: DATA_ITEMS,
    HARDWARE: HARDWARE_STATED, MODELS: MODELS_NAMED,
}
RATIO_STATED = re.compile(
    # "65×", "4.9x", "65$\times$" as abstracts write it in LaTeX; not "64x64"
    rf"(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×X](?!\w)|\$?\s?\\times\b)"
    rf"|(?<![\w.])(?:\d+(?:\.\d+)?|{_VOCABULARY['ratio_number'].bare})[\s-]?{_VOCABULARY['ratio_unit'].bare}\b"
    rf"|{_VOCABULARY['ratio_phrase'].source}",
    re.I,
)
"""A ratio a sentence states: a figure with a multiplication sign ("up to 65× storage reduction",
"12.1x on PG-19"), a number with a ratio unit (vocabulary ``ratio_unit``: "a more than 72 times
speedup", "a two-fold increase"), or a ratio in words (``ratio_phrase``: "an order of magnitude",
"halves"): answers an amount asked as a ratio (:attr:`rag.types.Slot.ratio`)."""


def states_ratio(text: str) -> bool:
    """Whether ``text`` states a ratio (:data:`RATIO_STATED`)."""
    return RATIO_STATED.search(text) is not None


_MEMORY_MEASURE = _VOCABULARY["memory_measure"].pattern
_SPEED_MEASURE = _VOCABULARY["speed_measure"].pattern
_SPEED_ASKED = _VOCABULARY["speed_asked"].words
_RATIO = r"\d+(?:\.\d+)?\s?[x×X]"
_SPEED_AFTER_RATIO = re.compile(rf"{_RATIO}(?:\s?[-–]\s?{_RATIO})?\s+{_VOCABULARY['speed_after_ratio'].source}")
"""A speed-up stated as a ratio and a noun that alone names other things: "a 2X-3X acceleration"."""
MEMORY_AMOUNT = re.compile(rf"(?<![\w.])\d+(?:\.\d+)?\s?-?{_VOCABULARY['memory_unit'].bare}\b")
"""An amount of memory a sentence states: a figure in a memory unit ("a single 16GB GPU", "40 GiB")."""
_DURATION_MEASURE = _VOCABULARY["duration_measure"].pattern
DURATION_AMOUNT = re.compile(
    rf"(?:(?<![\w.])\d+(?:\.\d+)?\s?|\b(?:{_VOCABULARY['duration_count'].bare})\s+)"
    rf"(?:(?:{_VOCABULARY['duration_device'].bare})[\s-])?{_VOCABULARY['duration_unit'].bare}\b(?!-)",
    re.I,
)
"""An amount of time a sentence states: a figure or a number word (vocabulary ``duration_count``)
in a unit of duration, perhaps counted on a device (``duration_device``): "in under 4.5 hours",
"21 GPU-hours", "2.5h", "after merely one GPU day"; not an adjective of another noun ("a 4-hour
window")."""


def _grown(sentence: str, spans: list[tuple[int, int]], i: int) -> tuple[int, int, bool]:
    """Clause ``i`` with the clause before it while it is shorter than :data:`MIN_CLAUSE_WORDS`."""
    j = i
    while j > 0 and len(sentence[spans[j][0] : spans[i][1]].split()) < MIN_CLAUSE_WORDS:
        j -= 1
    return _capped(sentence, spans[j][0], spans[i][1], spans)


_PERCENT = re.compile(r"\d\s?(?:%|\\%|percent\b)", re.I)


def states_share(text: str) -> bool:
    """Whether ``text`` states a share or a ratio ("by 92%", "50% less", "65×", "halves"): the amount
    of a change asked as a count (:attr:`rag.types.Slot.change`)."""
    return _PERCENT.search(text) is not None or states_ratio(text)


def states_unit(text: str, unit: str) -> bool:
    """Whether ``text`` states an amount in ``unit`` (:attr:`rag.types.Slot.unit`): a figure of
    duration in any unit of duration for a unit of duration ("in days" by "in under 4.5 hours"),
    likewise for memory ("in GB" by "a single 16GB GPU"), else a number of the unit itself
    (:func:`counts`: "in tokens" by "1.2 trillion tokens", not by "29 NLP tasks")."""
    if DURATION_AMOUNT.fullmatch(f"1 {unit}"):
        return DURATION_AMOUNT.search(text) is not None
    if MEMORY_AMOUNT.fullmatch(f"1 {unit}") or MEMORY_AMOUNT.fullmatch(f"1 {unit.upper()}"):
        return MEMORY_AMOUNT.search(text) is not None
    if unit in ("percent", "%"):
        return _PERCENT.search(text) is not None
    return counts(text, unit)


def states_in_kind(slot: Slot, text: str) -> bool:
    """Whether ``text`` states an amount of the kind of ``slot``'s measure, whatever its words: a
    figure of duration for a time ("pruning time": "in under 4.5 hours"), of memory for a memory
    (vocabulary ``duration_measure``, ``memory_measure``); ``False`` for any other measure, whose
    kind no unit shows ("FID": "LSUN 256x256" states a resolution, not an FID)."""
    head = measure_head(slot.terms)
    if not slot.amount or not head:
        return False
    if _DURATION_MEASURE.fullmatch(head):
        return DURATION_AMOUNT.search(text) is not None
    if _MEMORY_MEASURE.fullmatch(head):
        return MEMORY_AMOUNT.search(text) is not None
    return False


def instances_known(slot: Slot) -> bool:
    """Whether ``slot`` (of form :data:`rag.question.slots.INSTANCE`) asks a kind abstracts name
    from a known few (an optimizer, vocabulary ``optimizer_noun``), whose absence
    :func:`names_instance` can show; an encoder or a baseline may be named any way, so no."""
    return slot.form == INSTANCE and bool(slot.terms) and slot.terms[-1].lower() in _OPTIMIZER_NOUN


def names_instance(slot: Slot, sentence: str) -> bool:
    """Whether ``sentence`` names an instance of the kind ``slot`` asks, or writes its noun, when
    :func:`instances_known` (an optimizer: "trained with AdamW", "Shampoo", "a new optimizer";
    vocabulary ``optimizer_named``); ``False`` for any other slot."""
    return instances_known(slot) and _OPTIMIZER_NAMED.search(sentence) is not None


def slot_span(slot: Slot, sentence: str, senses: Senses | None = None) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that state ``slot`` (see the module docstring), or ``None``.

    A slot asked in a unit (:attr:`rag.types.Slot.unit`: "how big is the corpus, in tokens?") is
    stated only by clauses that state an amount in it (:func:`states_unit`): "29 NLP tasks" states
    no size in tokens, and "The abstract of X does not state ..." says so.
    """
    span = _slot_span(slot, sentence, senses)
    if span is None or not slot.unit:
        return span
    return span if states_unit(sentence[span[0] : span[1]], slot.unit) else None


def _slot_span(slot: Slot, sentence: str, senses: Senses | None = None) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that state ``slot`` whatever the unit asked (:func:`slot_span`), or ``None``.

    ``senses``: a measure's term is also stated by a word that states it in other words
    (:mod:`rag.evidence.senses`); a detail ("learning rate") and a form (a date, a model size) are
    stated only as they are written.

    Returns:
        ``(start, end, cut)``: offsets into ``sentence`` (``sentence[start:end]`` is an exact
        substring, at most :data:`rag.route.lead.MAX_LEAD_WORDS` words; ``cut`` when shortened).
    """
    if slot.form == DATA:  # the data a paper works on: the first clause that states it, else the sentence
        if not states_data(sentence):
            return None
        spans = clause_spans(sentence)
        i = next((k for k, (a, b) in enumerate(spans) if states_data(sentence[a:b])), None)
        # from that clause to the sentence's end: "Across 8 TAG datasets, DANCE improves ..." says
        # what it is shown on and what it shows
        start = spans[i][0] if i is not None else 0
        return _capped(sentence, start, len(sentence), spans)
    if slot.form == CONTENTS:  # "what does ProAct-75 contain?": what it holds
        return _contents_span(sentence)
    if slot.form == OBJECT:  # "what does X omit?": the verb as a word of its own, with words after it
        return _object_span(sentence, slot.terms[0]) if slot.terms else None
    if slot.form == SIZE:  # "how big is GLaM?": a model's size, else a dataset's
        model = _slot_span(replace(slot, form="model size"), sentence)
        return model or _slot_span(replace(slot, form=DATA_SIZE), sentence)
    form = _FORMS.get(slot.form)
    if form is not None:
        found = form.finditer(sentence)
        if slot.form == MODELS:  # "on WebShop and ALFWorld" names benchmarks, no models
            found = (x for x in found if not names_benchmark(x.group(0)))
        elif form is MODEL_SIZE:  # "improving over Seg-Zero-7B": the baseline's size
            found = (x for x in found if not _BASELINE_NAME.search(sentence[: x.start()])
                     # "pretrained on only 20M publicly available image-text pairs": the data's size
                     and not _COUNTS_ITEMS.match(sentence, x.end()))
        m = next(found, None)
        if m is None:
            return None
        spans = clause_spans(sentence)
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        return _grown(sentence, spans, i) if i is not None else (0, len(sentence), False)
    if not slot.terms:
        return None
    # a compound asked with its hyphen and written open ("trigger-detection mF1": "improving trigger
    # detection mF1 by 6.21%") is stated by its parts side by side
    slot = replace(slot, terms=open_compounds(slot.terms, sentence))
    if slot.detail:  # a detail is stated by its words side by side ("learning rate", not "learning")
        if slot.amount and len(slot.terms) == 1 and (joined := _joined_count_span(sentence, slot.terms[0])):
            return joined  # "how many steps": "fast one-step generation" counts them
        if not states_phrase(" ".join(slot.terms), sentence):
            return None
        got = term_span(sentence, slot.terms)
        if got is None or (slot.amount and not states_amount(sentence)):
            return None
        return got[0], got[1], got[2]
    keys = {k for k, _, _ in _keys_at(sentence)}
    stated = [(t, f) for t in slot.terms if (f := _as_stated(t, keys, sentence, senses, count=slot.count))]
    present = [f for _, f in stated]
    # a time narrowed by other words ("training time") is stated only with one of them: not by a
    # benchmark's "in 21 hours", nor by "for the first time"
    head = measure_head(slot.terms)
    unnarrowed = narrowed_time(slot.terms) and not any(t != head for t, _ in stated)
    # so is a head stated only in other words (a synonym or a sense, not a word of speed): "energy
    # consumption" is not stated by "limiting their practical usage", "memory consumption" is by
    # "memory usage"
    unnarrowed = unnarrowed or (
        len(slot.terms) > 1 and any(t == head for t, _ in stated) and not any(t != head for t, _ in stated)
        and not _written(head, keys) and not (_SPEED_MEASURE.fullmatch(head) or head.lower() in _SPEED_ASKED)
    )
    if slot.amount and (
        (_MEMORY_MEASURE.fullmatch(slot.terms[-1]) and (m := MEMORY_AMOUNT.search(sentence)))
        or (_DURATION_MEASURE.fullmatch(slot.terms[-1]) and not unnarrowed and (m := DURATION_AMOUNT.search(sentence)))
    ):
        # "how much memory does the GPU need?": "on a single 16GB GPU" states it in its unit;
        # "SparseGPT runtime": "in under 4.5 hours"
        spans = clause_spans(sentence)
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        return _grown(sentence, spans, i) if i is not None else (0, len(sentence), False)
    if slot.count and head and (joined := _joined_count_span(sentence, head)) is not None:
        return joined  # "how many sampling steps?": "fast one-step generation" counts them
    # The measure's head noun must be stated ("train time" is not stated by "trains stably", nor
    # "annotation cost" by "91,581 step-level annotations"): the other terms only narrow it.
    at = next((k for k, (t, _) in enumerate(stated) if t == head), None)
    others = [t for t, _ in stated if t != head]
    if not present or unnarrowed or (head and (at is None or not _own_word(head, stated[at][1], sentence, others))):
        # ... but a cut asked of it is stated by a cut of what narrows it: "how much does DANCE cut
        # token cost?" by "with 33.42% fewer tokens per condensed node"
        return _narrowing_cut(slot, sentence, head) if slot.amount and slot.change == "cut" else None
    # Among the terms it states, the run of clauses that states the most (the head noun last).
    for n in range(len(present), 0, -1):
        for i in range(len(present) - n + 1):
            if at is not None and not i <= at < i + n:
                continue
            got = term_span(sentence, present[i : i + n], senses)
            if got is None:
                continue
            span = (got[0], got[1], got[2])
            # a count is a number of the unit, as far as the sentence words it ("how many Chinese
            # mobile apps": "650 Chinese mobile applications" counts them by "mobile")
            # (the unit asked, so that "envs" is counted by "five ... benchmarks", not "benchmark datasets")
            counted = not slot.count or counts(sentence[got[0] : got[1]], stated[i + n - 1][0]) or (
                # a count asked as a change ("how many tensor products does QHNet cut?"): a share
                # of the change states it ("the reduction of number of tensor products by 92%")
                bool(slot.change) and states_share(sentence[got[0] : got[1]])
            )
            if counted and (not slot.amount or states_amount(sentence[got[0] : got[1]])):
                if slot.amount and not slot.count and not stated_value(slot, sentence[got[0] : got[1]]):
                    # its figure is another measure's ("reaches the same training reward 2x faster
                    # ..., and increases the final reward by 3x": 2x is the speed's, 3x the reward's):
                    # a later clause that gives the measure its own figure states it
                    own = _clause_with_value(sentence, slot, present[i : i + n])
                    if own is not None:
                        return own
                return span
            if slot.amount:
                # the terms stated again later with the amount ("a quantitative study of LLM sparsity,
                # demonstrating that ... can induce over 99% sparsity"; "strong map learning ...,
                # surpassing ... by 14.2 mAP"): that clause
                later = _clause_with_amount(sentence, present[i : i + n], count=slot.count, unit=stated[i + n - 1][0])
                if later is not None:
                    return later
    return None


def _clause_with_amount(
    sentence: str, terms: list[str], *, count: bool, unit: str = ""
) -> tuple[int, int, bool] | None:
    """The first clause of ``sentence`` that states every one of ``terms`` and an amount (with
    ``count``, a number of ``unit``, the unit asked, else of the last term: :func:`counts`), grown
    as :func:`_grown`; ``None`` when none does."""
    return _clause_stating(
        sentence, terms, lambda c: states_amount(c) and (not count or counts(c, unit or terms[-1]))
    )


def _clause_with_value(sentence: str, slot: Slot, terms: list[str]) -> tuple[int, int, bool] | None:
    """The first clause of ``sentence`` that states every one of ``terms`` with a figure of the
    measure itself (:func:`stated_value`, as a table's cell takes it), grown as :func:`_grown`;
    ``None`` when none does."""
    return _clause_stating(sentence, terms, lambda c: bool(stated_value(slot, c)))


def _clause_stating(
    sentence: str, terms: list[str], holds: Callable[[str], bool]
) -> tuple[int, int, bool] | None:
    """The first clause of ``sentence`` that states every one of ``terms`` (:func:`_as_stated`) and
    of which ``holds`` is true, grown as :func:`_grown`; ``None`` when none does."""
    spans = clause_spans(sentence)
    for k, (a, b) in enumerate(spans):
        clause = sentence[a:b]
        keys = {key for key, _, _ in _keys_at(clause)}
        if all(_as_stated(t, keys, clause) for t in terms) and holds(clause):
            return _grown(sentence, spans, k)
    return None


_CONTENT_STATED = _VOCABULARY["content_stated"].pattern


def _contents_span(sentence: str) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that state what a dataset or artifact holds: from the first to
    the last clause that counts its items (:data:`rag.evidence.rows.DATA_ITEMS`: "Spanning 75
    tasks, our dataset features 91,581 step-level annotations"), else the clause of a verb of
    containing with words after it (vocabulary ``content_stated``: "consists of 100 M jets"), or ``None``."""
    spans = clause_spans(sentence)

    def at(pos: int) -> int | None:
        return next((k for k, (a, b) in enumerate(spans) if a <= pos < b), None)

    items = [k for m in DATA_ITEMS.finditer(sentence) if (k := at(m.start())) is not None]
    if items:
        start, end, _ = _grown(sentence, spans, items[0])
        return _capped(sentence, start, spans[items[-1]][1], spans)
    for m in _CONTENT_STATED.finditer(sentence):
        i = at(m.start())
        if i is not None and _PLAIN_WORD.search(sentence, m.end(), spans[i][1]):
            return _grown(sentence, spans, i)
    return None


_INSTANCE_LEAD = _VOCABULARY["instance_lead"]
_APPOSITION_START = _VOCABULARY["apposition_start"]


def _opens(cls_match: re.Match[str] | None) -> bool:
    """Whether a word class matched at the start of the text searched."""
    return cls_match is not None and cls_match.start() == 0


def _with_instances(sentence: str, span: tuple[int, int, bool]) -> tuple[int, int, bool]:
    """The clauses of ``span`` that write a noun named by its instances, with the clause beside
    them that names the instances: the next one when it opens with a word of examples (vocabulary
    ``instance_lead``: "strong commercial systems, including ElevenLabs and Gemini Pro"), the one
    before when the noun's clause stands beside a name (``apposition_start``: "along with
    GUIEvalKit, an open-source toolkit ..."); capped as :func:`rag.route.lead.key_clause` is."""
    spans = clause_spans(sentence)
    first = next((k for k, (a, b) in enumerate(spans) if a <= span[0] < b), None)
    last = next((k for k, (a, b) in enumerate(spans) if a < span[1] <= b), None)
    if first is None or last is None:
        return span
    if last + 1 < len(spans) and _opens(_INSTANCE_LEAD.search(sentence[spans[last + 1][0] : spans[last + 1][1]])):
        last += 1
    if first > 0 and _opens(_APPOSITION_START.search(sentence[spans[first][0] : spans[first][1]])):
        first -= 1
    # the instances listed on past the clause ("including D4RL, Metaworld and Robosuite")
    end = _list_end(sentence, spans[last][1], len(sentence))
    start, stop, cut = _capped(sentence, spans[first][0], spans[last][1], spans)
    return (start, end, False) if stop == spans[last][1] and end > stop else (start, stop, cut)


def unquantified_span(slot: Slot, sentence: str) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that state an asked measure without an amount ("what speedups
    does it get?": "substantially faster than several competing methods", "translate into
    substantial throughput ... benefits"), or ``None``.

    Only a measure asked as an amount (not a count, whose unit alone says nothing: "how many images
    does it add?" is not stated by "adds images"; not a detail or a form) is stated so, and only by a
    clause that states its head noun (the last term: "accuracy" of "top-1 ImageNet accuracy"), as
    written or, for a speed, in any word of speed (vocabulary ``speed_measure``). The caller decides
    which sentences may state it (the paper's own work, not its background: FOAM's "the prohibitive
    computational overhead of matrix inversion" is Shampoo's overhead, not FOAM's).

    Returns:
        ``(start, end, cut)`` as :func:`slot_span`.
    """
    if not slot.amount or slot.count or slot.detail or slot.form or not slot.terms:
        return None
    span = slot_span(replace(slot, amount=False), sentence)
    if span is None:
        return None
    said = sentence[span[0] : span[1]]
    return span if _as_stated(slot.terms[-1], {k for k, _, _ in _keys_at(said)}, said) else None


_COMPONENT_NOUN = _VOCABULARY["component_noun"].words
_COMPONENT_NAMED = _VOCABULARY["component_named"]


def component_span(slot: Slot, sentence: str) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that name an asked measure as a component of the method, or
    ``None``: "What is the reward in MCLP?" asks a measure (vocabulary ``component_noun``: a
    reward, a score, a penalty) whose figure MCLP's abstract never gives, but "we employ MCLP as a
    reinforcement learning reward" says what its reward is (vocabulary ``component_named``: the
    noun after an indefinite article, up to four words on). Such a clause answers the question;
    "increases the final reward by 3x" states a figure (:func:`slot_span` finds it) and "sparse,
    outcome-based rewards" names no component.

    Only a measure asked as an amount (no count, detail or form) whose head (the last term) is a
    component noun is named so; the caller decides which sentences may (the paper's own work).

    Returns:
        ``(start, end, cut)`` as :func:`slot_span`.
    """
    if not slot.amount or slot.count or slot.detail or slot.form or not slot.terms:
        return None
    if slot.terms[-1].lower() not in _COMPONENT_NOUN:
        return None
    head = term_key(slot.terms[-1])
    named = [m for m in _COMPONENT_NAMED.finditer(sentence)
             if term_key(m.group(0).split()[-1].lower()) == head]
    if not named:
        return None
    span = slot_span(replace(slot, amount=False), sentence)
    return span if span is not None and span[0] <= named[0].start() < span[1] else None


_PLAIN_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])")
"""A word standing on its own: not part of a name or compound ("Agent-Omit", "omit-aware")."""


_ADJECTIVE_BEFORE = _VOCABULARY["adjective_before"].words
_CHANGE_NOUN = _VOCABULARY["change_noun"].words
_CHANGE_STATED = {"gain": _VOCABULARY["gain_stated"].pattern, "cut": _VOCABULARY["cut_stated"].pattern}


def narrowed_time(terms: tuple[str, ...]) -> bool:
    """Whether a measure's terms ask a time narrowed by other words ("training time", "inference
    runtime": vocabulary ``duration_measure`` as the head noun, with other terms): the head alone
    ("for the first time", "in 21 hours" of a benchmark) does not state it."""
    head = measure_head(terms)
    return bool(head) and bool(_DURATION_MEASURE.fullmatch(head)) and len(terms) > 1


def measure_head(terms: tuple[str, ...]) -> str:
    """The head noun of a measure's terms (head last): the last term that names what is measured,
    not its change (vocabulary ``change_noun``: "storage" of "storage reduction"); ``""`` when every
    term names a change."""
    return next((t for t in reversed(terms) if t.lower() not in _CHANGE_NOUN), "")


def verb_form(word: str, verb: str) -> bool:
    """Whether ``word`` is ``verb`` or one of its inflections ("omits", "omitted", "omitting";
    "reduces", "reduced"): not a noun made from it ("omission", "distillation", "reconstruction"),
    which names the act, not what it acts on."""
    w, v = word.lower(), verb.lower()
    stem_v = v[:-1] if v.endswith("e") else v
    forms = {v, v + "s", v + "es", stem_v + "ed", stem_v + "ing", v + v[-1:] + "ed", v + v[-1:] + "ing"}
    if v.endswith("y"):
        forms |= {v[:-1] + "ies", v[:-1] + "ied"}
    return w in forms


_FINDING_VERBS = _VOCABULARY["finding_verb"].words
_NAMED_OBJECT = re.compile(r"\s+[A-Z]")
"""An object that opens with a name ("demonstrate ClimaX", "demonstrate Heron"): another verb
reporting a finding (:func:`reporting_verbs`) names the paper's model there, not what it finds."""
_COMPLEMENTIZER = _VOCABULARY["complementizer"].words


def reporting_verbs(verb: str) -> tuple[str, ...]:
    """The verbs that state the object of ``verb``: ``verb`` itself, then, for a verb that reports
    a finding (vocabulary ``finding_verb``: "find", "show", "demonstrate"), the others of its class
    ("what does SFNO find?" is stated by "and demonstrate stable autoregressive rollouts")."""
    low = verb.lower()
    if low not in _FINDING_VERBS:
        return (verb,)
    return (verb, *sorted(v for v in _FINDING_VERBS if v != low))


def _object_span(sentence: str, verb: str) -> tuple[int, int, bool] | None:
    """The clause where ``verb`` (or a verb of its kind, :func:`reporting_verbs`) stands as a verb of
    its own (:func:`verb_form`, not after a determiner that makes a participle an adjective: "into a
    condensed core") with at least one word after it in that clause, or ``None``. An object opened as
    a clause (vocabulary ``complementizer``: "we find that after applying ..., language models are
    considerably more secure") runs to the sentence's end (capped as
    :func:`rag.route.lead.key_clause` is)."""
    spans = clause_spans(sentence)
    verbs = reporting_verbs(verb)
    for m in _PLAIN_WORD.finditer(sentence):
        if not any(verb_form(m.group(0), v) for v in verbs):
            continue
        if not verb_form(m.group(0), verb) and _NAMED_OBJECT.match(sentence, m.end()):
            continue  # "We develop and demonstrate ClimaX": the paper's model, no finding
        before = sentence[: m.start()].split()[-1:]
        if before and before[0].lower() in _ADJECTIVE_BEFORE:
            continue
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        if i is None or not (after := _PLAIN_WORD.search(sentence, m.end(), spans[i][1])):
            continue
        if after.group(0).lower() in _COMPLEMENTIZER and after.start() - m.end() <= 1:
            start = _grown(sentence, spans, i)[0]
            return _capped(sentence, start, spans[-1][1], spans)
        return _grown(sentence, spans, i)
    return None


def _own_word(term: str, form: str, sentence: str, others: Sequence[str] = ()) -> bool:
    """Whether ``sentence`` states ``term`` (as :func:`_as_stated` found it, ``form``) as a word of
    its own, not only as a part of a hyphenated compound of other words: "real-time monitoring"
    states no training time, "wall-clock time" and "a 2x speed-up" do.

    A compound that modifies a word stating one of ``others`` (the slot's other terms, by term key)
    states it too: the two nouns asked the other way round ("how many annotated steps?": "91,581
    step-level annotations"; "annotated" and "annotations" are one term key); so does a compound
    that ends with a participle asked ("what are the pseudo-labels derived from?": "K-means-derived
    pseudo-labels", derived from K-means), which is the compound's own head."""
    if form != term or "-" in term:
        return True  # stated in another form (a joined word, a full form, a word of speed)
    key = term_key(term)
    other_keys = {term_key(t) for t in others}
    for k, a, b in _keys_at(sentence):
        if k != key:
            continue
        # the compound itself written with its hyphen ("speed-up" for "speedup") is the word
        if "-" not in sentence[a:b] or term_key(sentence[a:b].replace("-", "")) == key:
            return True
        after = _NEXT_WORD.match(sentence, b)
        if after is not None and term_key(after.group(1).lower()) in other_keys:
            return True
        if _participle(term) and sentence[a:b].lower().endswith(f"-{term.lower()}"):
            return True
    return False


def _participle(word: str) -> bool:
    """Whether ``word`` is a past participle ("derived", "guided", "driven"): its dictionary form
    (:func:`rag.lexicon.lemma`) is another word, and it ends as participles do."""
    low = word.lower()
    return low.endswith(("ed", "en")) and lemma(low) != low




def _written(term: str, keys: set[str]) -> bool:
    """Whether a sentence of term ``keys`` writes ``term`` itself, with or without its hyphen, not
    in other words ("consumption", not its synonym "usage")."""
    joined = joined_form(term)
    return term_key(term) in keys or bool(joined and term_key(joined) in keys)


def _as_stated(term: str, keys: set[str], sentence: str, senses: Senses | None = None, *, count: bool = False) -> str:
    """How ``sentence`` (its term ``keys``, :func:`rag.route.lead._keys_at`) states an asked term:
    the term itself, written without its hyphen ("speed-up" by "speedup"; a hyphenated word of the
    sentence gives its joined key there), or, for a measure of speed, any word of that class
    (vocabulary ``speed_measure``: "speed-up" by "2x faster"), or a word ``senses`` say states it
    in other words (:mod:`rag.evidence.senses`); ``""`` when it does not. With ``count`` (the term
    is a counted unit), a noun that counts its instances in other words states it too
    (:func:`instance_keys`: "envs" by "benchmarks"); the caller checks that a number counts it."""
    if term_key(term) in keys:
        return term
    joined = joined_form(term)
    if joined and term_key(joined) in keys:
        return joined
    other = same_keys(term) & keys  # a clipped word's full form ("apps": "applications")
    if not other and count:
        other = instance_keys(term) & keys  # "num envs": "five MuJoCo control benchmarks"
    if other:
        return next(sentence[a:b] for k, a, b in _keys_at(sentence) if k in other)
    speed = _SPEED_MEASURE.fullmatch(term) or term.lower() in _SPEED_ASKED
    if speed and (m := _SPEED_MEASURE.search(sentence) or _SPEED_AFTER_RATIO.search(sentence)):
        return m.group(0).split()[-1]  # the word of speed ("acceleration" of "2X-3X acceleration")
    if senses is not None and (other_words := senses(term, sentence)):
        a, b = other_words[0]
        return sentence[a:b]
    return ""


_KINDS = (
    (_VOCABULARY["environment_asked"].words, _VOCABULARY["environment_instances"].words),
    (_VOCABULARY["dataset_asked"].words, _VOCABULARY["dataset_instances"].words),
)
"""Nouns a question counts by (``*_asked``) with the nouns that count their instances in other
words (``*_instances``): "how many environments?" is stated by "five MuJoCo control benchmarks",
"how many datasets?" by "on 10 benchmarks"; one way only ("how many tasks?" is not stated by "three
environments")."""


def instance_keys(unit: str) -> frozenset[str]:
    """The term keys of the nouns that count ``unit``'s instances in other words (:data:`_KINDS`:
    "envs" -> environment, benchmark, task, domain, game), ``unit``'s own keys among them; only its own
    keys (:func:`rag.lexicon.same_keys`) for a noun no kind names."""
    own = same_keys(unit)
    key = term_key(unit)
    for asked, instances in _KINDS:
        if unit.lower() in asked or key in {term_key(w) for w in asked}:
            return own | {term_key(w) for w in instances}
    return own


COUNT_WINDOW = 4
"""Most words between a number and the unit it counts ("over 16,000 diverse manipulation tasks")."""
_WORD = re.compile(r"\S+")
_NAMED_NUMBER = re.compile(r"[A-Za-z]-?\d|^\d+-?D$")
"""A number inside a name ("T5", "GPT-3", "Flan-T5") or a number of dimensions ("the rendered 2D
domain", "3-D scenes"): it counts nothing."""


def counts(text: str, unit: str) -> bool:
    """Whether ``text`` states a number of ``unit``: an amount (:func:`states_amount`: "16,000",
    "four"; not a number inside a name, "Flan-T5") followed within :data:`COUNT_WINDOW` words by
    the unit (as a term key: "tasks" by "task"; a list of coordinated words counts as one,
    :func:`rag.route.lead.coordinated_as_one`). "ablation studies on the Flan Collection of tasks
    ... by 3-17%" counts no tasks, nor does a share ("38% of the layers")."""
    keys = {term_key(unit)} | same_keys(unit)  # "apps" by "applications" (glossary: clipped words)
    # "envs" by "benchmarks" (_KINDS), a plural noun only: "four benchmark datasets" counts datasets,
    # "benchmark" there only says which
    others = instance_keys(unit) - keys
    # coordinated words before the unit stand in one place ("13 mathematical, symbolic, and
    # algorithmic reasoning tasks")
    words = [m.group(0) for m in _WORD.finditer(coordinated_as_one(text))]
    for i, w in enumerate(words):
        w = w.strip("(),;:")
        if joined_count(w, keys, words[i + 1] if i + 1 < len(words) else ""):
            return True
        # an amount in one word ("16,000") or ending with it ("a single consumer GPU")
        pair = i > 0 and not states_amount(words[i - 1]) and states_amount(f"{words[i - 1]} {w}")
        # a share is no number of the unit: "keeps 38% of the layers" counts no layers
        share = w.endswith("%") or words[i + 1 : i + 2] in (["%"], ["percent"])
        if (states_amount(w) or pair) and not share and not _NAMED_NUMBER.search(w):
            for a in words[i + 1 : i + 2 + COUNT_WINDOW]:
                found = {k for k, _, _ in _keys_at(a)}
                plural = lemma(a.strip(".,;:()").lower()) != a.strip(".,;:()").lower()
                if keys & found or (plural and others & found):
                    return True
    return False


def _narrowing_cut(slot: Slot, sentence: str, head: str) -> tuple[int, int, bool] | None:
    """The first clause of ``sentence`` that states a cut (:func:`rag.route.lead.comparison_verdict`
    of "fewer": "fewer", "reduces", "one-eighth of") with an amount of a term that narrows the
    measure's ``head`` ("33.42% fewer tokens" for "token cost"), grown as :func:`_grown`; ``None``
    when none does. A count of it alone states no cost ("91,581 step-level annotations")."""
    narrowing = [t for t in slot.terms if t != head]
    spans = clause_spans(sentence)
    for k, (a, b) in enumerate(spans):
        clause = sentence[a:b]
        keys = {key for key, _, _ in _keys_at(clause)}
        if any(_written(t, keys) for t in narrowing) and states_amount(clause) \
                and comparison_verdict(sentence, (a, b, False, False), "fewer") == "yes":
            return _grown(sentence, spans, k)
    return None


def _joined_count_span(sentence: str, unit: str) -> tuple[int, int, bool] | None:
    """The clause of ``sentence`` that counts ``unit`` by a number joined to it ("They support fast
    one-step generation by design" for "steps": :func:`rag.route.lead.joined_count`), grown as :func:`_grown`;
    ``None`` when no word of the sentence does."""
    keys = {term_key(unit)} | same_keys(unit)
    found = list(_WORD.finditer(sentence))
    m = next((
        w for i, w in enumerate(found)
        if joined_count(w.group(0).strip("(),;:"), keys, found[i + 1].group(0) if i + 1 < len(found) else "")
    ), None)
    if m is None:
        return None
    spans = clause_spans(sentence)
    i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
    return _grown(sentence, spans, i) if i is not None else (0, len(sentence), False)


_SIZE_VALUE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s?(?:([KMBT])\b|(thousand|million|billion|trillion)\b)")
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}


def greatest_size(sentence: str) -> float:
    """The greatest model size ``sentence`` states, in parameters ("The Muse 3B parameter model" ->
    3e9, "1.2 trillion parameters" -> 1.2e12, "from 70M to 12B parameters" -> 1.2e10); 0.0 when it
    states none (:data:`MODEL_SIZE`). A relative size ("3x fewer parameters") is no size."""
    if not MODEL_SIZE.search(sentence):
        return 0.0
    values = [
        float(m.group(1)) * _SCALE[(m.group(2) or m.group(3)).lower()]
        for m in _SIZE_VALUE.finditer(sentence)
        if m.group(3) or m.group(2) != "K"  # "4K tokens" is a length; "4 thousand" is written out
    ]
    return max(values, default=0.0)


_PARAMETERS = re.compile(r"[\s-]*param", re.I)
"""A model size stated with its unit: "22B-parameter", "350M parameters", "1.3 billion parameters"."""


def slot_strength(slot: Slot, sentence: str) -> int:
    """How much of ``slot`` a sentence states: the number of its terms in the stating clauses (1 for
    a form; 2 for a model size stated with its unit, "parameters", and for a verb's object stated
    by a finite verb, not a gerund), 0 when it does not state it (:func:`slot_span`)."""
    span = slot_span(slot, sentence)
    if span is None:
        return 0
    if slot.form == OBJECT:
        # "a framework that reconstructs full spatial states" states what the paper does; a
        # gerund ("We demonstrate ..., reconstructing MODIS ... fields") an instance of it
        # the verb asked before another that reports a finding ("what does X find?": "we find that
        # ..." before "we show that ...", :func:`reporting_verbs`)
        verb = slot.terms[0]
        words = _PLAIN_WORD.findall(sentence)
        if any(verb_form(w, verb) and not w.lower().endswith("ing") for w in words):
            return 3
        finite = any(
            verb_form(w, v) and not w.lower().endswith("ing") for w in words for v in reporting_verbs(verb)[1:]
        )
        return 2 if finite else 1
    if slot.form == CONTENTS:
        # "our dataset features 91,581 step-level annotations" states what it holds; "including
        # assistance, maintenance, and safety monitoring" only what it is about
        said = sentence[span[0] : span[1]]
        return 1 + bool(DATA_ITEMS.search(said)) + bool(_CONTENT_STATED.search(said) and states_amount(said))
    if slot.form == SIZE:  # a model size as such, else a count of a dataset's items
        model = replace(slot, form="model size")
        return slot_strength(model, sentence) if slot_span(model, sentence) is not None else 1
    if slot.form == "model size":
        # "a 22B-parameter ViT" states a size; "ViT-22B demonstrates ..." may only name the model
        sizes = MODEL_SIZE.finditer(sentence)
        return 2 if any("param" in m.group(0).lower() or _PARAMETERS.match(sentence, m.end()) for m in sizes) else 1
    if slot.form:
        return 1
    keys = {k for k, _, _ in _keys_at(sentence[span[0] : span[1]])}
    return sum(term_key(t) in keys for t in slot.terms)


_PARAMETERS_KEY = term_key("parameters")
"""The unit of a model size (:data:`MODEL_SIZE`) a count slot may ask ("how many parameters ...?")."""


def sizes_beside(
    evidence: EvidenceSource, ask: Ask, paper: Paper, chosen: Evidence
) -> list[tuple[Evidence, tuple[int, int, bool]]]:
    """The other sentences of ``paper``'s own work (not its background or gap) that state a model
    size, besides the ``chosen`` one :func:`stating_sentence` gave, in abstract order, each with its
    stating clauses: "How many parameters does Muse have?" is answered by "Our 900M parameter model
    ..." and "The Muse 3B parameter model ...", not silently by the first. ``[]`` when the slot is
    no model size (:data:`rag.question.slots.SIZE` or ``"model size"``) or asks the largest (one
    size, :func:`greatest_size`). A count of parameters ("how many parameters does Muse have?") asks
    a model size when the chosen sentence states one in its words ("Our 900M parameter model")."""
    slot = ask.slot
    if slot is None or slot.largest:
        return []
    if slot.form not in (SIZE, "model size"):
        wanted = {term_key(t) for t in slot.terms}
        counted = slot.count and MODEL_SIZE.search(chosen.sentence) is not None and bool(
            wanted & {term_key(w) for w in _PLAIN_WORD.findall(chosen.sentence)} & {_PARAMETERS_KEY}
        )
        if not counted:
            return []
    sized = replace(slot, form="model size")
    moves = evidence.moves(paper)
    said = _sizes(chosen.sentence)
    out = []
    for x in evidence.sentences(paper)[0]:
        if x.start == chosen.start or moves.get(x.start) in ("background", "gap"):
            continue
        span = slot_span(sized, x.text)
        # a sentence whose only sizes the chosen one states already names the model by them
        # ("ViT-22B demonstrates increasing performance with scale" after "a 22B-parameter ViT
        # (ViT-22B)"): it states no other size
        named = _sizes(x.text)
        if span is not None and greatest_size(x.text) > 0 and not (named and named <= said):
            out.append((Evidence(paper.id, x.text, x.start, x.end, 0.0), span))
    return out


_SIZE_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:-\s*)?(million|billion|trillion|[MBT])\b")
_SIZE_UNITS = {"million": "M", "billion": "B", "trillion": "T"}


def _sizes(sentence: str) -> set[str]:
    """The model sizes a sentence states, as figure and unit ("22B" for "22B-parameter", "ViT-22B"
    and "22 billion parameters"): two sentences stating the same sizes state one size."""
    out = set()
    for m in MODEL_SIZE.finditer(sentence):
        for f in _SIZE_FIGURE.finditer(m.group(0)):
            out.add(f.group(1) + _SIZE_UNITS.get(f.group(2).lower(), f.group(2)))
    return out


_COINED = re.compile(_MODEL_NAME)


def coined_names(clause: str) -> list[str]:
    """The coined names a clause writes ("FID", "CIFAR-10", "ImageNet" of "FID of 3.55 on CIFAR-10
    and 6.20 on ImageNet 64x64"), as written, less abbreviations the glossary spells out ("LLMs",
    "RL": words of a field, not a benchmark or model)."""
    out = []
    for m in _COINED.finditer(clause):
        name = m.group(0).rstrip(".-")
        if not (glossary_forms(name) or glossary_forms(name.removesuffix("s"))):
            out.append(name)
    return out


def names_own_data(clause: str, paper: Paper) -> bool:
    """Whether a clause that states data (:func:`rag.evidence.rows.states_data`) names it: a coined
    name ("CMIP6", "D4RL", "WebShop", "MODIS") other than the paper's own (its label and aliases:
    "ClimaX" names the model) or an abbreviation the glossary spells out ("RL", "LLMs"), or a count
    of its items (:data:`rag.evidence.rows.DATA_ITEMS`: "on 8 datasets")."""
    own = {w.lower() for x in (paper.label, *paper.aliases) for w in re.findall(r"[\w.-]+", x or "")}
    for m in _COINED.finditer(clause):
        name = m.group(0).rstrip(".-")
        if name.lower() in own or glossary_forms(name) or glossary_forms(name.removesuffix("s")):
            continue
        return True
    return bool(DATA_ITEMS.search(clause))


INSTANCE_REACH = 6
"""How many words at most stand between a word of the kind a question asks ("which satellite
sensor?") and a name that is an instance of it ("satellite remote sensing, reconstructing MODIS"):
the name is then taken as the instance asked. Set by hand: a kind and its instance stand within one
short phrase in the abstracts read (4 words for SENDAI's MODIS); farther apart they name other things."""


def instance_names(clause: str, paper: Paper) -> list[re.Match[str]]:
    """The coined names of ``clause`` (:func:`coined_names`) that may be an instance of what a
    question asks: not the paper's own name (its label and aliases), not an abbreviation the
    glossary spells out ("RL"), and not an English word written with a capital inside it, which
    spells out an acronym ("EfficieNt Data AssImilation" of SENDAI)."""
    own = {w.lower() for x in (paper.label, *paper.aliases) for w in re.findall(r"[\w.-]+", x or "")}
    out = []
    for m in _COINED.finditer(clause):
        name = m.group(0).rstrip(".-")
        if name.lower() in own or glossary_forms(name) or glossary_forms(name.removesuffix("s")):
            continue
        if re.search(r"[a-z][A-Z]", name) and english_word(name.lower()):
            continue
        out.append(m)
    return out


def _naming_clause(
    slot: Slot, scored: list[Evidence], moves: dict[int, str], paper: Paper
) -> tuple[Evidence, tuple[int, int, bool]] | None:
    """The clauses of the paper's own work that name an instance of the thing ``slot`` asks by
    its kind ("which satellite sensor does SENDAI use?": "satellite remote sensing, reconstructing
    MODIS ..."): a word of the slot within :data:`INSTANCE_REACH` words of a name
    (:func:`instance_names`), in the best-scored sentence that has one; ``None`` when none does."""
    for e in sorted(scored, key=lambda x: -x.score):
        if moves.get(e.start) in ("background", "gap"):
            continue
        names = instance_names(e.sentence, paper)
        if not names:
            continue
        starts = [w.start() for w in re.finditer(r"[\w-]+", e.sentence)]

        def place(x: int, starts: list[int] = starts) -> int:
            """The index of the word at offset ``x``."""
            return sum(1 for a in starts if a < x)

        asked = {term_key(t) for t in slot.terms}
        at = [(a, b) for k, a, b in _keys_at(e.sentence) if k in asked]
        near = [m for m in names if any(abs(place(m.start()) - place(a)) <= INSTANCE_REACH for a, _ in at)]
        if not near:
            continue
        spans = clause_spans(e.sentence)
        first = min(min(a for a, _ in at), near[0].start())
        last = max(max(b for _, b in at), near[0].end())
        i = next(k for k, (a, b) in enumerate(spans) if a <= first < b or first < a)
        j = max(k for k, (a, _) in enumerate(spans) if a < last)
        return e, _capped(e.sentence, spans[i][0], spans[j][1], spans)
    return None


VAGUE_REACH = 5
"""How many words before a noun its quantifier may stand ("several popular algorithmic reasoning
<baselines>": four): within one noun phrase. Set by hand on the abstracts read; a clause boundary
(a comma, a colon, a parenthesis) ends the phrase sooner."""
ENUMERATION_REACH = 6
"""How many words after a noun an enumeration cue ("such as", "including") may stand and still name
its instances ("environments with sparse rewards, such as ..."). Set by hand, as VAGUE_REACH."""
_VAGUE = _VOCABULARY["vague_quantifier"]
_ENUMERATION = _VOCABULARY["enumeration_cue"]
_CLAUSE_BREAK = re.compile(r"[,;:()\[\]]")


def _head_forms(slot: Slot) -> set[str]:
    """The written forms of the head noun ``slot`` asks: a plural asked ("which languages?") is
    written as that plural ("language similarity" modifies another noun); a singular ("which RL
    algorithm?") as itself or its plural."""
    head = slot.terms[-1].lower()
    return {head} if head.endswith("s") else {head, f"{head}s", f"{head}es"}


def vague_mention(slot: Slot, sentence: str) -> tuple[str, bool] | None:
    """How ``sentence`` writes the head noun of ``slot`` (a thing named by its instances):
    ``(phrase, vague)`` for its first mention, ``vague`` when every mention stands after a
    quantifier that names no instance (vocabulary ``vague_quantifier``, or a bare number: "a variety
    of algorithms and environments", "over 100 languages", "7 representative sub-scenarios"; not a
    size, "a 30B model") within
    :data:`VAGUE_REACH` words of its phrase and is not followed by an enumeration of them
    (``enumeration_cue``: "environments such as Atari"); ``None`` when it does not write the noun."""
    forms = _head_forms(slot)
    found: list[tuple[str, bool]] = []
    for m in re.finditer(r"[\w'’-]+", sentence):
        if m.group(0).lower() not in forms:
            continue
        before = _CLAUSE_BREAK.split(sentence[: m.start()])[-1]
        words = re.findall(r"[\w'’.-]+", before)[-VAGUE_REACH:]
        window = " ".join(words)
        quantified = _VAGUE.search(window) is not None or any(w.replace(",", "").isdigit() for w in words)
        after = " ".join(re.findall(r"\S+", sentence[m.end() :])[:ENUMERATION_REACH])
        enumerated = _ENUMERATION.search(after) is not None or sentence[m.end() :].lstrip().startswith("(")
        found.append((f"{window} {m.group(0)}".strip(), quantified and not enumerated))
    if not found:
        return None
    return found[0][0], all(v for _, v in found)


def vaguely_named(slot: Slot, sentences: Sequence[str]) -> str:
    """The phrase in which ``sentences`` (a paper's own work) write the thing ``slot`` asks when they
    write it only vaguely (:func:`vague_mention`: "a variety of algorithms and environments" for
    "which environments?"), or ``""``: when some sentence names an instance or none writes the noun,
    an instance may be named otherwise ("on ALFWorld"), and nothing is said missing."""
    if slot.form != INSTANCE or not slot.terms:
        return ""
    mentions = [x for s in sentences if (x := vague_mention(slot, s)) is not None]
    if not mentions or not all(vague for _, vague in mentions):
        return ""
    return mentions[0][0]


def stating_sentence(evidence: EvidenceSource, ask: Ask, paper: Paper) -> tuple[Evidence, tuple[int, int, bool]] | None:
    """The sentence of ``paper``'s abstract that states ``ask``'s slot best, with the clauses that
    state it (:func:`slot_span`), or ``None`` when no sentence states it.

    Best: one about the paper's own work before one of its background or gap, which states the
    field's or prior work's figures ("the largest large language models (LLMs) contain upwards of
    100B parameters" is no size of ViT-22B); then, for a measure asked with its amount, a clause
    with a figure; then, asked as a ratio (:attr:`rag.types.Slot.ratio`: "by what factor"), a clause
    stating one (:data:`RATIO_STATED`); then the most of the slot (:func:`slot_strength`; for "the largest model", the
    greatest size stated); the better scored among equals. A measure stated without an amount
    ("substantially faster") is taken, in the paper's own work, only when no sentence states it with one.
    A thing abstracts name by its instances (:data:`rag.question.slots.INSTANCE`: "what encoder",
    "which languages") is taken from the paper's own work only: the clause that writes its noun,
    else the key clause of the own-work sentence that answers the question best (an instance of it:
    "... voice cloning capability for Lao"); its background or gap ("existing methods, which rely on
    shallow encoders") never answers it.

    Args:
        evidence: The sentence scorer (its spans are exact: ``abstract[start:end] == sentence``).
        ask: What is asked; ``None`` is returned when it has no slot.
        paper: The paper whose abstract is read.

    Returns:
        ``(sentence, (start, end, cut))``, offsets into the sentence.
    """
    slot = ask.slot
    if slot is None:
        return None
    senses = evidence_senses(evidence)
    moves = evidence.moves(paper)
    scored = evidence.score(ask, paper)
    best: tuple[tuple[bool, bool, bool, bool, float, float], Evidence, tuple[int, int, bool]] | None = None
    instance = slot.form == INSTANCE
    for e in scored:
        if instance and moves.get(e.start) in ("background", "gap"):
            continue  # "existing methods, which rely on shallow encoders": not the paper's encoder
        span = slot_span(slot, e.sentence, senses)
        if span is None:
            continue
        # a measure asked with its amount: a clause that states a figure before one that does not
        figure = bool(ask.amount and not (slot.count or slot.detail or slot.form)) and states_amount(
            e.sentence[span[0] : span[1]]
        )
        # asked as a ratio ("by what factor"): a clause stating one ("65× storage reduction")
        # before one stating another number of the measure ("only two cached matrices")
        ratio = figure and slot.ratio and states_ratio(e.sentence[span[0] : span[1]])
        # "the largest model": the sentence stating the greatest size, whatever else it states
        strength = greatest_size(e.sentence) if slot.largest else slot_strength(slot, e.sentence)
        if slot.form == DATA:
            # data named ("on climate datasets derived from CMIP6") before data only worded
            # ("superior performance on benchmarks for weather forecasting")
            strength += names_own_data(e.sentence[span[0] : span[1]], paper)
        # the setting the question states ("at sequence length 64k"): a sentence writing it before
        # one stating the measure at another setting, and the clause writing it in the span
        valued = bool(ask.conditions & numbers(e.sentence))
        if valued:
            span = _at_condition(e.sentence, span, ask.conditions)
        key = (moves.get(e.start) not in ("background", "gap"), valued, figure, ratio, strength, e.score)
        if best is None or key > best[0]:
            best = (key, e, span)
    if best is not None:
        if ask.amount and not best[0][2] and not (slot.count or slot.detail or slot.form):
            # the measure stated without a figure ("thereby improving optimization performance"):
            # the figure of the change asked its own work states, when it states one
            changed = change_clause(ask, scored, moves)
            if changed is not None:
                return changed
        chosen = best[1].sentence[best[2][0] : best[2][1]]
        if slot.form in (ENTITY, INSTANCE) and not states_amount(chosen) and not instance_names(chosen, paper):
            # "which satellite sensor?": a clause that only writes the noun ("from hyper sparse
            # sensor observations") names none; one of the paper's own that names an instance
            # beside a word of it ("satellite remote sensing, reconstructing MODIS ...") answers
            named = _naming_clause(slot, scored, moves, paper)
            if named is not None:
                return named
        return best[1], _with_instances(best[1].sentence, best[2]) if instance else best[2]
    if instance:
        # no own-work clause writes the noun: the own-work sentence that answers the question best
        # names an instance of it ("which languages?": "... voice cloning capability for Lao")
        own = next((e for e in scored if moves.get(e.start) not in ("background", "gap")), None)
        return (own, key_clause(own.sentence)) if own is not None else None
    # a measure that names a component of the method ("What is the reward in MCLP?"), stated with
    # no figure: the own-work clause that names it ("as a reinforcement learning reward")
    component = next(((e, sp) for e in scored if moves.get(e.start) not in ("background", "gap")
                      and (sp := component_span(slot, e.sentence)) is not None), None)
    if component is not None:
        return component
    # a measure stated without an amount ("substantially faster", "substantial throughput ...
    # benefits"): its clause in the paper's own work, not another measure's figure, unless the
    # question asks a change the paper's own work states with a figure
    unquantified = None
    for e in scored:
        if moves.get(e.start) in ("background", "gap") or states_amount(e.sentence):
            # a sentence with a figure elsewhere ("reaches the same reward 2x faster ..., even after
            # accounting for the compute") is quoted for that figure, as before
            continue
        got = unquantified_span(slot, e.sentence)
        if got is not None:
            unquantified = e, got
            break
    if unquantified is not None:
        return change_clause(ask, scored, moves) or unquantified
    return None


def _at_condition(sentence: str, span: tuple[int, int, bool], conditions: frozenset[str]) -> tuple[int, int, bool]:
    """``span`` of ``sentence``, reaching to the clause that writes one of ``conditions`` (numbers
    the question states as its setting, :attr:`rag.types.Ask.conditions`) when it writes none:
    "Hyena operators are 2x faster than highly optimized attention at sequence length 8k, with
    speedups of 100x at 64k" for "how much faster at 64k?", not its first clause alone. Past
    :data:`rag.route.lead.MAX_LEAD_WORDS`, the clause writing the setting alone (grown as :func:`_grown`)."""
    a, b, cut = span
    if conditions & numbers(sentence[a:b]):
        return span
    spans = clause_spans(sentence)
    i = next((k for k, (x, y) in enumerate(spans) if conditions & numbers(sentence[x:y])), None)
    if i is None:
        return span
    lo, hi = min(a, spans[i][0]), max(b, spans[i][1])
    if len(sentence[lo:hi].split()) <= MAX_LEAD_WORDS:
        return lo, hi, cut and hi < len(sentence.rstrip(" ."))
    return _grown(sentence, spans, i)


def change_clause(
    ask: Ask, scored: list[Evidence], moves: dict[int, str]
) -> tuple[Evidence, tuple[int, int, bool]] | None:
    """The clause of the paper's own work that states a change of the direction the question asks
    (:attr:`rag.types.Slot.change`: "improves accuracy by 7.7%" for a gain, "reduces average matching
    delay by 10%" for a cut) with an amount, from the best-scored sentence that has one; ``None``
    when the question asks no change or no own-work clause states one with a figure.

    Asked of a paper whose abstract states the measure only without a figure ("thereby improving
    optimization performance"): the figure the abstract gives for its gain answers "how much does
    AdaDPS improve optimization performance?", where "states no figure" would read as false. A
    change of the other direction ("reduces the amount of noise" for a gain) or of the background
    and gap (prior work's figures) never answers it.

    Args:
        ask: What is asked (its slot's ``change`` and ``amount``).
        scored: The paper's sentences scored against the question, best first.
        moves: Each sentence's rhetorical move by its start offset ("background", "gap", ...).
    """
    slot = ask.slot
    stated = _CHANGE_STATED.get(slot.change) if slot is not None and ask.amount else None
    if stated is None:
        return None
    for e in scored:
        if moves.get(e.start) in ("background", "gap"):
            continue
        spans = clause_spans(e.sentence)
        for k, (a, b) in enumerate(spans):
            clause = e.sentence[a:b]
            if stated.search(clause) and states_amount(clause):
                return e, _grown(e.sentence, spans, k)
    return None


VALUE_REACH = 3
"""How many words at most stand between a figure and a word of the measure a table's column asks
("up to 1.56× speedup", "FID of 3.78", "improves the accuracy by 63%") for the figure to be the
cell's value. Set by hand on the abstracts of the table requests written for column slots: a
measure and its figure stand within one short phrase; farther ("1.56× speedup and 2× memory
reduction": 1.56× is four words from "memory") the figure is another measure's."""
LIST_REACH = 4
"""How many words at most stand between a figure taken as a cell's value and a figure after it that
continues its list, joined by a word of vocabulary ``list_joiner`` or a comma ("FID of 3.78 for
CIFAR-10 and 7.83 for ImageNet-64", "from 73.8% to 75.7%"): taken too; "by 2.33% at an 8%
condensation ratio" joins no list. Set by hand as :data:`VALUE_REACH`: "for <a benchmark> and" is
three words between."""
_LIST_JOINER = _VOCABULARY["list_joiner"]
_FIGURE = re.compile(r"(?<![\w.-])\d+(?:[.,]\d+)*(?:\s?(?:%|×|x\b|-fold\b|times\b|points?\b)|(?!\w))")
_WORD_AT = re.compile(r"\S+")


RIGHT_REACH = 6
"""How many words at most stand between a measure a table's column asks and the first figure after
it that gives its value ("boosts the top-1 accuracy of Mixer-S16 on ImageNet from 73.8%": five
words), when that figure is followed by no word of its own unit (vocabulary ``figure_follower``).
Set by hand as :data:`VALUE_REACH`: a measure's complements ("of <model> on <dataset>") stand
between it and its figure; farther, the figure is another clause's."""
_FIGURE_FOLLOWER = _VOCABULARY["figure_follower"]
_NEXT_WORD = re.compile(r"\s*([A-Za-z][\w-]*)")


def stated_value(slot: Slot, clause: str) -> str:
    """The short value a clause that states ``slot`` (:func:`slot_span`) gives it, for a table's
    cell, or ``""``: for a slot of a form, what states the form there ("INT4, W4A4", "530B"); for a
    measure, its figures: one written before a word of the measure (for a speed, any word of speed:
    "8.5× faster") within :data:`VALUE_REACH` words
    ("up to 1.56× speedup", "83.1% top-1 accuracy"), or the first after it within
    :data:`RIGHT_REACH` that no word of its own unit follows ("FID of 3.78 for CIFAR-10", not "2×
    memory"), and the figures that continue their list (:data:`LIST_REACH`); when the clause
    states the measure only in other words, every figure of the clause; none beside it: ``""``.

    Args:
        slot: What the column asks.
        clause: The clause(s) that state it, markup stripped (the value is checked against the
            cell's sentence by :func:`rag.evidence.table.value_supported`).
    """
    form = _FORMS.get(slot.form)
    if form is not None:
        return ", ".join(dict.fromkeys(m.group(0).strip() for m in form.finditer(clause)))
    words = [m.start() for m in _WORD_AT.finditer(clause)]

    def place(x: int) -> int:
        return sum(1 for a in words if a <= x) - 1

    wanted = {term_key(t) for t in slot.terms}
    at = [place(a) for k, a, _ in _keys_at(clause) if k in wanted]
    head = measure_head(slot.terms)
    if not at and (_SPEED_MEASURE.fullmatch(head) or head.lower() in _SPEED_ASKED):
        # a speed stated in another word of speed ("3.2x faster", "accelerates training by 3x")
        at = [place(m.start()) for m in _SPEED_MEASURE.finditer(clause)]
    if not at:
        return ", ".join(dict.fromkeys(m.group(0).strip() for m in _FIGURE.finditer(clause)))
    found = [(place(m.start()), m) for m in _FIGURE.finditer(clause)]

    def bare(m: re.Match[str]) -> bool:
        """No word of the figure's own unit follows it ("3.78 for", "73.8% to", the clause's end)."""
        nxt = _NEXT_WORD.match(clause, m.end())
        return nxt is None or _FIGURE_FOLLOWER.search(nxt.group(1)) is not None

    taken: list[tuple[int, re.Match[str]]] = []
    for i, m in found:  # in order: a list continues to the right of a figure taken
        before = any(0 < a - i <= VALUE_REACH for a in at)
        after = bare(m) and any(
            0 < i - a <= RIGHT_REACH and not any(a < j < i for j, _ in found) for a in at
        )
        joined = bool(taken) and bare(m) and 0 < i - taken[-1][0] <= LIST_REACH and (
            "," in clause[taken[-1][1].end() : m.start()]
            or _LIST_JOINER.search(clause[taken[-1][1].end() : m.start()]) is not None
        )
        if before or after or joined:
            taken.append((i, m))
    return ", ".join(dict.fromkeys(m.group(0).strip() for _, m in taken))
