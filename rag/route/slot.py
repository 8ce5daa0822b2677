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
from dataclasses import replace

from rag.evidence.roles import names_benchmark
from rag.evidence.rows import DATA_ITEMS, states_data
from rag.evidence.senses import Senses, evidence_senses
from rag.lexicon import joined_form, same_keys, states_phrase, term_key
from rag.protocols import EvidenceSource
from rag.question.slots import CONTENTS, DATA, DATA_SIZE, HARDWARE, INSTANCE, MODELS, OBJECT, SIZE
from rag.route.lead import MIN_CLAUSE_WORDS, _capped, _keys_at, clause_spans, key_clause, states_amount, term_span
from rag.types import Ask, Evidence, Slot
from rag.vocabulary import beside
from store.papers import Paper

__all__ = [
    "DATE", "DURATION_AMOUNT", "HARDWARE_STATED", "MEMORY_AMOUNT", "MODEL_SIZE", "counts", "greatest_size",
    "measure_head", "narrowed_time", "slot_span", "slot_strength", "states_amount", "stating_sentence",
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

_MODEL_NAME = r"(?-i:[A-Z][A-Za-z]*(?:[A-Z]|\d)[\w.-]*|[A-Z]{2,}[\w.-]*)"
MODELS_NAMED = re.compile(
    rf"(?<![\w-]){_MODEL_NAME}(?:\s*,\s*(?:and\s+)?|\s+and\s+){_MODEL_NAME}(?![\w-])"
    rf"|(?<![\w-])[A-Z][\w.]*-\d+(?:\.\d+)?[BMT]\b"
)
"""Models a sentence names: two coined names in a list ("OPT, BLOOM, GLM, MT-NLG, and LLaMA
family"), or a name with its size ("OPT-175B"): states a slot of form
:data:`rag.question.slots.MODELS`."""

_BASELINE_NAME = re.compile(rf"{_VOCABULARY['baseline_lead'].source}\s+(?:the\s+)?(?:[\w.]+-)+$", re.I)
"""The start of a model's name a sentence compares with, right before a size inside the name
("improving over Seg-Zero-" of "Seg-Zero-7B")."""

HARDWARE_STATED = _VOCABULARY["hardware_stated"].pattern
"""Hardware a sentence names ("on a single consumer GPU", "8 A100s"): states a slot of form
:data:`rag.question.slots.HARDWARE`."""

_FORMS = {
    "model size": MODEL_SIZE, "date": DATE, DATA_SIZE: DATA_ITEMS, HARDWARE: HARDWARE_STATED, MODELS: MODELS_NAMED,
}
_MEMORY_MEASURE = _VOCABULARY["memory_measure"].pattern
_SPEED_MEASURE = _VOCABULARY["speed_measure"].pattern
_SPEED_ASKED = _VOCABULARY["speed_asked"].words
_RATIO = r"\d+(?:\.\d+)?\s?[x×X]"
_SPEED_AFTER_RATIO = re.compile(rf"{_RATIO}(?:\s?[-–]\s?{_RATIO})?\s+{_VOCABULARY['speed_after_ratio'].source}")
"""A speed-up stated as a ratio and a noun that alone names other things: "a 2X-3X acceleration"."""
MEMORY_AMOUNT = re.compile(rf"(?<![\w.])\d+(?:\.\d+)?\s?-?{_VOCABULARY['memory_unit'].bare}\b")
"""An amount of memory a sentence states: a figure in a memory unit ("a single 16GB GPU", "40 GiB")."""
_DURATION_MEASURE = _VOCABULARY["duration_measure"].pattern
DURATION_AMOUNT = re.compile(rf"(?<![\w.])\d+(?:\.\d+)?\s?{_VOCABULARY['duration_unit'].bare}\b(?!-)")
"""An amount of time a sentence states: a figure in a unit of duration ("in under 4.5 hours", "21
GPU-hours", "2.5h"); not an adjective of another noun ("a 4-hour window")."""


def _grown(sentence: str, spans: list[tuple[int, int]], i: int) -> tuple[int, int, bool]:
    """Clause ``i`` with the clause before it while it is shorter than :data:`MIN_CLAUSE_WORDS`."""
    j = i
    while j > 0 and len(sentence[spans[j][0] : spans[i][1]].split()) < MIN_CLAUSE_WORDS:
        j -= 1
    return _capped(sentence, spans[j][0], spans[i][1], spans)


def slot_span(slot: Slot, sentence: str, senses: Senses | None = None) -> tuple[int, int, bool] | None:
    """The clauses of ``sentence`` that state ``slot`` (see the module docstring), or ``None``.

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
        model = slot_span(replace(slot, form="model size"), sentence)
        return model or slot_span(replace(slot, form=DATA_SIZE), sentence)
    form = _FORMS.get(slot.form)
    if form is not None:
        found = form.finditer(sentence)
        if slot.form == MODELS:  # "on WebShop and ALFWorld" names benchmarks, no models
            found = (x for x in found if not names_benchmark(x.group(0)))
        elif form is MODEL_SIZE:  # "improving over Seg-Zero-7B": the baseline's size
            found = (x for x in found if not _BASELINE_NAME.search(sentence[: x.start()]))
        m = next(found, None)
        if m is None:
            return None
        spans = clause_spans(sentence)
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        return _grown(sentence, spans, i) if i is not None else (0, len(sentence), False)
    if not slot.terms:
        return None
    if slot.detail:  # a detail is stated by its words side by side ("learning rate", not "learning")
        if not states_phrase(" ".join(slot.terms), sentence):
            return None
        got = term_span(sentence, slot.terms)
        if got is None or (slot.amount and not states_amount(sentence)):
            return None
        return got[0], got[1], got[2]
    keys = {k for k, _, _ in _keys_at(sentence)}
    stated = [(t, f) for t in slot.terms if (f := _as_stated(t, keys, sentence, senses))]
    present = [f for _, f in stated]
    # a time narrowed by other words ("training time") is stated only with one of them: not by a
    # benchmark's "in 21 hours", nor by "for the first time"
    head = measure_head(slot.terms)
    unnarrowed = narrowed_time(slot.terms) and not any(t != head for t, _ in stated)
    if slot.amount and (
        (_MEMORY_MEASURE.fullmatch(slot.terms[-1]) and (m := MEMORY_AMOUNT.search(sentence)))
        or (_DURATION_MEASURE.fullmatch(slot.terms[-1]) and not unnarrowed and (m := DURATION_AMOUNT.search(sentence)))
    ):
        # "how much memory does the GPU need?": "on a single 16GB GPU" states it in its unit;
        # "SparseGPT runtime": "in under 4.5 hours"
        spans = clause_spans(sentence)
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        return _grown(sentence, spans, i) if i is not None else (0, len(sentence), False)
    # The measure's head noun must be stated ("train time" is not stated by "trains stably", nor
    # "annotation cost" by "91,581 step-level annotations"): the other terms only narrow it.
    at = next((k for k, (t, _) in enumerate(stated) if t == head), None)
    if not present or unnarrowed or (head and (at is None or not _own_word(head, stated[at][1], sentence))):
        return None
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
            counted = not slot.count or counts(sentence[got[0] : got[1]], present[i + n - 1])
            if counted and (not slot.amount or states_amount(sentence[got[0] : got[1]])):
                return span
            if slot.amount:
                # the terms stated again later with the amount ("a quantitative study of LLM sparsity,
                # demonstrating that ... can induce over 99% sparsity"; "strong map learning ...,
                # surpassing ... by 14.2 mAP"): that clause
                later = _clause_with_amount(sentence, present[i : i + n], count=slot.count)
                if later is not None:
                    return later
    return None


def _clause_with_amount(sentence: str, terms: list[str], *, count: bool) -> tuple[int, int, bool] | None:
    """The first clause of ``sentence`` that states every one of ``terms`` (:func:`_as_stated`) and
    an amount (with ``count``, a number of the last term: :func:`counts`), grown as :func:`_grown`;
    ``None`` when none does."""
    spans = clause_spans(sentence)
    for k, (a, b) in enumerate(spans):
        clause = sentence[a:b]
        keys = {key for key, _, _ in _keys_at(clause)}
        if not all(_as_stated(t, keys, clause) for t in terms) or not states_amount(clause):
            continue
        if count and not counts(clause, terms[-1]):
            continue
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
    return _capped(sentence, spans[first][0], spans[last][1], spans)


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


_PLAIN_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])")
"""A word standing on its own: not part of a name or compound ("Agent-Omit", "omit-aware")."""


_ADJECTIVE_BEFORE = _VOCABULARY["adjective_before"].words
_CHANGE_NOUN = _VOCABULARY["change_noun"].words


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


def _object_span(sentence: str, verb: str) -> tuple[int, int, bool] | None:
    """The clause where ``verb`` stands as a verb of its own (:func:`verb_form`, not after a
    determiner that makes a participle an adjective: "into a condensed core") with at least one
    word after it in that clause, or ``None``."""
    spans = clause_spans(sentence)
    for m in _PLAIN_WORD.finditer(sentence):
        if not verb_form(m.group(0), verb):
            continue
        before = sentence[: m.start()].split()[-1:]
        if before and before[0].lower() in _ADJECTIVE_BEFORE:
            continue
        i = next((k for k, (a, b) in enumerate(spans) if a <= m.start() < b), None)
        if i is not None and _PLAIN_WORD.search(sentence, m.end(), spans[i][1]):
            return _grown(sentence, spans, i)
    return None


def _own_word(term: str, form: str, sentence: str) -> bool:
    """Whether ``sentence`` states ``term`` (as :func:`_as_stated` found it, ``form``) as a word of
    its own, not only as a part of a hyphenated compound of other words: "real-time monitoring"
    states no training time, "wall-clock time" and "a 2x speed-up" do."""
    if form != term or "-" in term:
        return True  # stated in another form (a joined word, a full form, a word of speed)
    key = term_key(term)
    # the compound itself written with its hyphen ("speed-up" for "speedup") is the word
    return any(
        k == key and ("-" not in sentence[a:b] or term_key(sentence[a:b].replace("-", "")) == key)
        for k, a, b in _keys_at(sentence)
    )


def _as_stated(term: str, keys: set[str], sentence: str, senses: Senses | None = None) -> str:
    """How ``sentence`` (its term ``keys``, :func:`rag.route.lead._keys_at`) states an asked term:
    the term itself, written without its hyphen ("speed-up" by "speedup"; a hyphenated word of the
    sentence gives its joined key there), or, for a measure of speed, any word of that class
    (vocabulary ``speed_measure``: "speed-up" by "2x faster"), or a word ``senses`` say states it
    in other words (:mod:`rag.evidence.senses`); ``""`` when it does not."""
    if term_key(term) in keys:
        return term
    joined = joined_form(term)
    if joined and term_key(joined) in keys:
        return joined
    other = same_keys(term) & keys  # a clipped word's full form ("apps": "applications")
    if other:
        return next(sentence[a:b] for k, a, b in _keys_at(sentence) if k in other)
    speed = _SPEED_MEASURE.fullmatch(term) or term.lower() in _SPEED_ASKED
    if speed and (m := _SPEED_MEASURE.search(sentence) or _SPEED_AFTER_RATIO.search(sentence)):
        return m.group(0).split()[-1]  # the word of speed ("acceleration" of "2X-3X acceleration")
    if senses is not None and (other_words := senses(term, sentence)):
        a, b = other_words[0]
        return sentence[a:b]
    return ""


COUNT_WINDOW = 4
"""Most words between a number and the unit it counts ("over 16,000 diverse manipulation tasks")."""
_WORD = re.compile(r"\S+")
_NAMED_NUMBER = re.compile(r"[A-Za-z]-?\d")
"""A number inside a name ("T5", "GPT-3", "Flan-T5"): it counts nothing."""


def counts(text: str, unit: str) -> bool:
    """Whether ``text`` states a number of ``unit``: an amount (:func:`states_amount`: "16,000",
    "four"; not a number inside a name, "Flan-T5") followed within :data:`COUNT_WINDOW` words by
    the unit (as a term key: "tasks" by "task"). "ablation studies on the Flan Collection of tasks
    ... by 3-17%" counts no tasks."""
    keys = {term_key(unit)} | same_keys(unit)  # "apps" by "applications" (glossary: clipped words)
    words = [m.group(0) for m in _WORD.finditer(text)]
    for i, w in enumerate(words):
        w = w.strip("(),;:")
        # an amount in one word ("16,000") or ending with it ("a single consumer GPU")
        pair = i > 0 and not states_amount(words[i - 1]) and states_amount(f"{words[i - 1]} {w}")
        if (states_amount(w) or pair) and not _NAMED_NUMBER.search(w):
            after = words[i + 1 : i + 2 + COUNT_WINDOW]
            if any(keys & {k for k, _, _ in _keys_at(a)} for a in after):
                return True
    return False


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
        verb = slot.terms[0]
        finite = any(verb_form(w, verb) and not w.lower().endswith("ing") for w in _PLAIN_WORD.findall(sentence))
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


def stating_sentence(evidence: EvidenceSource, ask: Ask, paper: Paper) -> tuple[Evidence, tuple[int, int, bool]] | None:
    """The sentence of ``paper``'s abstract that states ``ask``'s slot best, with the clauses that
    state it (:func:`slot_span`), or ``None`` when no sentence states it.

    Best: one about the paper's own work before one of its background or gap, which states the
    field's or prior work's figures ("the largest large language models (LLMs) contain upwards of
    100B parameters" is no size of ViT-22B); then, for a measure asked with its amount, a clause
    with a figure; then the most of the slot (:func:`slot_strength`; for "the largest model", the
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
    best: tuple[tuple[bool, bool, float, float], Evidence, tuple[int, int, bool]] | None = None
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
        # "the largest model": the sentence stating the greatest size, whatever else it states
        strength = greatest_size(e.sentence) if slot.largest else slot_strength(slot, e.sentence)
        key = (moves.get(e.start) not in ("background", "gap"), figure, strength, e.score)
        if best is None or key > best[0]:
            best = (key, e, span)
    if best is not None:
        return best[1], _with_instances(best[1].sentence, best[2]) if instance else best[2]
    if instance:
        # no own-work clause writes the noun: the own-work sentence that answers the question best
        # names an instance of it ("which languages?": "... voice cloning capability for Lao")
        own = next((e for e in scored if moves.get(e.start) not in ("background", "gap")), None)
        return (own, key_clause(own.sentence)) if own is not None else None
    # a measure stated without an amount ("substantially faster", "substantial throughput ...
    # benefits"): its clause in the paper's own work, not another measure's figure
    for e in scored:
        if moves.get(e.start) in ("background", "gap") or states_amount(e.sentence):
            # a sentence with a figure elsewhere ("reaches the same reward 2x faster ..., even after
            # accounting for the compute") is quoted for that figure, as before
            continue
        got = unquantified_span(slot, e.sentence)
        if got is not None:
            return e, got
    return None
