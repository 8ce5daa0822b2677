"""The columns a table request asks for, each read into the kind of thing it asks (a name, a code
link, a model size, a metric, the data, a row of a comparison, or a free phrase).

Read once here (:func:`read_columns`); :mod:`rag.evidence.table` fills each kind's cells. The words
that ask for each kind are classes of ``vocabulary/columns.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from rag.lexicon import term_key
from rag.question.asks import read_ask
from rag.question.plan import Ask, Column, ColumnKind, Topic
from rag.question.slots import SETTING, bit_width_slot, measure_slot
from rag.text import tokenize
from rag.types import Slot
from rag.vocabulary import beside

__all__ = ["KINDS", "TOPIC", "column", "column_kind", "column_slot", "free_ask", "read_columns", "topic_column"]


_VOCABULARY = beside(__file__, "columns")


def _keys(words: Iterable[str]) -> frozenset[str]:
    return frozenset(term_key(w) for w in words)


# Each kind's words are a class of vocabulary/columns.toml; the second name is the row whose cues score its sentences.
_KIND_ROWS = (
    ("name", ""), ("code", ""), ("size", ""), ("hardware", ""), ("metric", "results"), ("data", "data"),
    ("limitations", "limitations"), ("problem", "problem"), ("results", "results"), ("approach", "approach"),
)
KINDS: tuple[ColumnKind, ...] = tuple(ColumnKind(k, _keys(_VOCABULARY[k].phrases), row) for k, row in _KIND_ROWS)
"""The column kinds, most specific first (ties between kinds of equal weight go to the earlier)."""
_FREE = ColumnKind("free", frozenset())
_SIZE_KIND = next(k for k in KINDS if k.key == "size")
_NAME_KIND = next(k for k in KINDS if k.key == "name")
TOPIC = ColumnKind("topic", frozenset())
"""The first column of a table of a topic's papers: the sentence closest to the topic, which says
why the paper is a row (no phrase asks for it; it is added by :func:`answer_table`)."""
_HEAD_END = _VOCABULARY["head_end"].pattern


_FUNCTION_WORDS = _VOCABULARY["function_word"].words
LONG_PHRASE = 5
"""Words (besides function words) from which a column phrase is a description, not a column name:
its head decides its kind alone."""
_QUESTION = re.compile(rf"^\W*{_VOCABULARY['question_opener'].source}", re.I)
_LIGHT_HEADS = _VOCABULARY["light_head"].words  # "number of parameters": parameters
_LEADING_ARTICLE = re.compile(rf"^{_VOCABULARY['leading_article'].source}\s+", re.I)
_DATASET_WORDS = _keys(_VOCABULARY["dataset_subject"].words)
_MODEL_WORDS = _keys(_VOCABULARY["model_subject"].words)
_ABOUT_KINDS = frozenset({"name", "size"})
_AMOUNT_QUESTION = re.compile(rf"^\W*{_VOCABULARY['amount_question'].source}\s+", re.I)  # "how many examples"
_MAGNITUDE_QUESTION = re.compile(rf"^\W*{_VOCABULARY['magnitude_question'].source}\s+", re.I)  # "how big is ..."
_COUNT_SIGNS = _VOCABULARY["count_sign"].words  # "# of samples"
_DATA_ITEMS = _keys(_VOCABULARY["data_item"].words)
_INTRODUCED = _keys(_VOCABULARY["introduced_subject"].words)


def _as_noun_phrase(phrase: str) -> str:
    """A column asking an amount, written as the noun phrase it asks: "how many examples" ->
    "number of examples", "# of samples" -> "number of samples", "how big is the dataset" ->
    "size of is the dataset" (the function words drop out); any other phrase as it is."""
    first, _, rest = phrase.strip().partition(" ")
    if first.lower() in _COUNT_SIGNS:
        return "number " + (rest if rest.lower().startswith("of ") else f"of {rest}")
    phrase = _AMOUNT_QUESTION.sub("number of ", phrase)
    return _MAGNITUDE_QUESTION.sub("size of ", phrase)


def _counted_head(phrase: str) -> str:
    """The noun a column counts through a light head ("number of *examples*", "amount of *data*"),
    or ``""``."""
    parts = _HEAD_END.split(_QUESTION.sub("", _as_noun_phrase(phrase)), maxsplit=1)
    heads = [term_key(t) for t in tokenize(parts[0]) if t not in _FUNCTION_WORDS]
    if not (heads and heads[-1] in _LIGHT_HEADS and len(parts) > 1):
        return ""
    rest = [term_key(t) for t in tokenize(parts[1]) if t not in _FUNCTION_WORDS]
    return rest[0] if rest else ""


def column_kind(phrase: str) -> ColumnKind:
    """The kind of a column phrase: the kind whose words it uses most, its head word counting extra.

    The head is the last word before a preposition or relative ("model *size*", "*name* of the
    method", "*benchmark*s used"), or the first word after it when that word is a light noun
    ("number of *parameters*"); it weighs 1.5, other words 1. A phrase that asks an amount is read
    as its noun phrase first ("how many tasks": "number of tasks"; "# of samples": "number of
    samples"; "how big is the dataset": "size of ... dataset"), and a count of data items in
    general (vocabulary ``data_item``: "number of examples", "how much data") is a ``size``. No
    word of any kind, or a question or long phrase whose head is no kind's word ("which *aspect*
    of diffusion models does each improve?", "as *resources* for building and evaluating
    agents"): ``free``.

    Args:
        phrase: The column as written ("benchmark", "main result", "what is it called?").

    Returns:
        One of :data:`KINDS`, or the ``free`` kind.
    """

    def words(text: str) -> list[str]:
        return [term_key(t) for t in tokenize(text) if t not in _FUNCTION_WORDS]

    if _counted_head(phrase) in _DATA_ITEMS:
        return _SIZE_KIND  # "number of examples", "how much data": the size of the data, in its items
    phrase = _as_noun_phrase(phrase)
    parts = _HEAD_END.split(_QUESTION.sub("", phrase), maxsplit=1)
    heads = words(parts[0])
    if heads and heads[-1] in _LIGHT_HEADS and len(parts) > 1 and words(parts[1]):
        heads = words(parts[1])[:1]
    every = words(phrase)
    head = heads[-1] if heads else (every[-1] if every else "")
    if (_QUESTION.match(phrase) or len(every) >= LONG_PHRASE) and not any(head in k.words for k in KINDS):
        return _FREE  # "which aspect of diffusion models does each improve?" asks what its words ask
    best, best_score = _FREE, 0.0
    for kind in KINDS:
        score = sum(1.5 if w == head else 1.0 for w in set(every) if w in kind.words)
        if score > best_score:
            best, best_score = kind, score
    return best


def _about(title: str, kind: ColumnKind) -> str:
    """What a ``name`` or ``size`` column is about by its own words: ``"dataset"`` ("dataset name",
    "benchmark size"), ``"model"`` ("model size", "number of parameters"), else ``""``."""
    if kind.key not in _ABOUT_KINDS:
        return ""
    words = {term_key(t) for t in tokenize(title)}
    if kind.key == "size" and _counted_head(title) in _DATA_ITEMS:
        return "dataset"  # "number of examples": the dataset's items
    if words & _DATASET_WORDS and not (kind.key == "size" and words & _MODEL_WORDS):
        return "dataset"
    return "model" if kind.key == "size" and words & _MODEL_WORDS else ""


MODEL_SIZE_SLOT: Slot = measure_slot("model size", shorthand=True) or Slot("model size", form="model size", amount=True)
"""The slot of a model's size (form "model size": a parameter count the paper states of its own model)."""
_ANY_NUMBER = _keys(_VOCABULARY["any_number"].words)
_RATIO_MEASURE = _keys(_VOCABULARY["ratio_measure"].words)
_RATIO_WORD = _keys(_VOCABULARY["ratio_word"].words)


def column_slot(title: str, kind: ColumnKind) -> Slot | None:
    """The slot a column asks of each paper, read as a one-paper question's is
    (:mod:`rag.question.slots`), or ``None``.

    A bit width, in any column ("bit width", "bits", "numerical precision": form
    :data:`rag.question.slots.BIT_WIDTH`, stated by "INT4", "W8A8", "8-bit"); a measure, in a
    metric column that names one ("speedup", "top-1 accuracy", "word error rate", "memory
    savings"): its terms, stated with an amount. A metric column that names no measure of its own
    (vocabulary ``any_number``: "headline number", "key metric") asks any figure: no slot. A measure
    abstracts state as a ratio (``ratio_measure``: "speedup", "compression", "compression ratio")
    asks one: "117× compression" before "three compression techniques"."""
    if (width := bit_width_slot(title)) is not None:
        return width
    if kind.key != "metric":
        return None
    slot = measure_slot(title, shorthand=True)
    if slot is None or not slot.terms or {term_key(t) for t in slot.terms} <= _ANY_NUMBER:
        return None
    if {term_key(t) for t in slot.terms} & _RATIO_MEASURE:
        # "compression ratio", "compression rate" ask compression's amount, not a setting named "ratio"
        terms = tuple(t for t in slot.terms if term_key(t) not in _RATIO_WORD) or slot.terms
        return replace(slot, terms=terms, form="" if slot.form == SETTING else slot.form, ratio=True)
    return slot


def column(phrase: str) -> Column:
    """A column from a phrase: its title, its kind (:func:`column_kind`; a dataset noun the paper
    makes its own, "released dataset", "new benchmark", is a ``name`` of it), what it is about
    (:func:`_about`), what it asks of an abstract (:func:`rag.question.asks.read_ask` of the title)
    and the slot it asks of each paper (:func:`column_slot`)."""
    title = re.sub(r"\s+", " ", phrase).strip(" ,;:.?")
    kind = column_kind(title)
    if kind.key in ("data", "free") and _introduced(title):
        kind = _NAME_KIND  # "released dataset", "the new benchmark": the one the paper introduces, by its name
    title = title[:1].upper() + title[1:]
    slot = column_slot(title, kind)
    ask = read_ask(title)
    return Column(title, kind, replace(ask, slot=slot, amount=True) if slot else ask, _about(title, kind), slot)


def _introduced(title: str) -> bool:
    """Whether a column asks the dataset a paper introduces: a dataset noun with a word that makes
    it the paper's own ("released dataset", "new benchmark", "dataset introduced"; vocabulary
    ``introduced_subject``); "benchmarks used", "evaluation data" ask the data it is evaluated on."""
    words = {term_key(t) for t in tokenize(title)}
    return bool(words & _DATASET_WORDS and words & _INTRODUCED)


def _only_dataset_words(title: str) -> bool:
    """Whether a column says nothing but a dataset noun ("dataset", "benchmark", "the corpus")."""
    words = {term_key(t) for t in tokenize(title) if t not in _FUNCTION_WORDS}
    return bool(words) and words <= _DATASET_WORDS


def topic_column(topic: str) -> Column:
    """The first column of a table of a topic's papers (:data:`TOPIC`): the topic as its title."""
    title = topic[:1].upper() + topic[1:]
    return Column(title, TOPIC, read_ask(title))


def free_ask(col: Column, names: Sequence[str] = ()) -> Ask:
    """What a free column asks of each row, without the rows' names ("Compare A and B as resources
    for agents" asks each row "as resources for agents"): the names say which paper, not what to quote."""
    phrase = col.title
    for name in sorted(names, key=len, reverse=True):
        phrase = re.sub(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?(?![\w-])", " ", phrase, flags=re.I)
    phrase = re.sub(r"\s+", " ", phrase).strip()
    return read_ask(phrase) if phrase else col.ask


def read_columns(text: str | Sequence[str], topic: Topic | None = None) -> tuple[Column, ...]:
    """Columns from ``"benchmark, main result and code"`` or a list of phrases, each read into its
    kind (:func:`column_kind`); ``()`` for none. A phrase given twice is kept once.

    A size column that does not say what it measures ("size", "scale", "how big") is about what the
    table is about: the datasets when another column is about a dataset ("dataset name, size") or
    the rows are papers that introduce a dataset or benchmark (``topic.artifact``); a model's
    parameters otherwise. A bare "size" never means both: "10K dialogues" is not a model size. A
    model's size asks the slot a one-paper question asks (:data:`MODEL_SIZE_SLOT`). In a table of
    papers that introduce a dataset, a column that is only a dataset noun ("benchmark", "the
    corpus") asks the one each introduces, as "released dataset" or "new benchmark" does anywhere.

    Args:
        text: The column phrases (a string split at commas, ``;``, ``/``, ``&`` and "and", or a list).
        topic: The topic whose papers are the rows (``None``: papers named).
    """
    phrases = re.split(r"\s*(?:[,;/&]|\band\b)\s*", text) if isinstance(text, str) else list(text)
    phrases = [p.strip(" .?:") for p in phrases]
    phrases = [_LEADING_ARTICLE.sub("", p) for p in phrases if p.strip(" .?:")]
    seen: dict[str, Column] = {}
    for p in phrases:
        seen.setdefault(p.lower(), column(p))
    cols = tuple(seen.values())
    artifact = bool(topic is not None and {term_key(w) for w in topic.artifact} & _DATASET_WORDS)
    datasets = artifact or any(c.about == "dataset" for c in cols)
    cols = tuple(
        replace(c, about="dataset" if datasets else "model") if c.kind.key == "size" and not c.about
        # "benchmark" in a table of the papers that release one: the benchmark each releases
        else replace(c, kind=_NAME_KIND, about="dataset")
        if artifact and c.kind.key == "data" and _only_dataset_words(c.title)
        else c
        for c in cols
    )
    return tuple(_model_size(c) if c.kind.key == "size" and c.about == "model" and c.slot is None else c for c in cols)


def _model_size(col: Column) -> Column:
    """A model-size column asks each paper the slot "what is its model size?" asks
    (:data:`MODEL_SIZE_SLOT`): the clause that states the paper's own parameter count, not a
    baseline's ("improving over Seg-Zero-7B") nor a dataset's ("20M image-text pairs")."""
    return replace(col, ask=replace(col.ask, slot=MODEL_SIZE_SLOT, amount=True), slot=MODEL_SIZE_SLOT)
