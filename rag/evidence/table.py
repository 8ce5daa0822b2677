"""Tables across papers: one row per paper, one column per thing asked, every cell a cited sentence.

A table's rows are every paper the calibrated membership model accepts for a topic (the count is
stated) or the papers a question names. Its columns are free phrases ("benchmark", "main result",
"code link"); without any, problem / approach / data / results / limitations. Each column phrase
is read once into a :class:`ColumnKind` by one vocabulary model (:func:`column_kind`): the kinds a
table knows give sharper evidence than a free phrase does:

* ``name``: the sentence that states the paper's name (:func:`store.labels.stated_name`), value the name;
* ``code``: the sentence that states the abstract's first URL (:func:`store.labels.find_code_url`),
  value the URL;
* ``size`` of a model: the clause that states the paper's own parameter count ("7B", "1.5 billion
  parameters"; not a baseline's "improving over Seg-Zero-7B"), as the one-paper question's slot
  is stated (the route's ``stating``), value it; of a dataset (:func:`_dataset_size_cell`): the
  items the dataset the paper introduces counts ("over 16000 real-world tasks");
* ``name`` of a dataset (:func:`_dataset_name_cell`): the sentence that introduces the paper's
  own dataset or benchmark, value its name;
* ``hardware``: the paper's own sentence that names the devices it runs on ("a single 16GB GPU",
  "a single node"), value them; the word "hardware" alone ("hardware efficiency") names none;
* ``metric``: the result sentence that states a number, value the numbers it states;
* ``data``: the sentence that says what the paper is evaluated on (:func:`_data_cell`);
* ``problem``, ``approach``, ``results``, ``limitations``: the rows of :data:`rag.evidence.rows.ROWS`
  (rhetorical cues + similarity), as a comparison fills them;
* ``free``: the sentence(s) closest to the phrase itself, when they reach the evidence settings' ``aspect_floor``;
* ``topic`` (no phrase asks for it): the first column of a topic's table, the sentence closest to
  the topic, which says why the paper is a row.

A cell is a tuple of :class:`rag.types.Evidence` (exact spans: ``abstract[start:end] == sentence``)
or empty, shown as :data:`rag.evidence.rows.NOT_STATED`. A cell's short ``value`` is kept only when every
word of it stands in the quoted sentences (:func:`value_supported`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rag.evidence.roles import FIRST_PERSON, affirmed
from rag.evidence.rows import COUNT_NOUN, DATA_ITEMS, DATASET_NOUN, ROWS, introduces_dataset, select_rows, states_data
from rag.protocols import EvidenceSource, evidence_settings
from rag.question.asks import read_ask
from rag.question.columns import KINDS, TOPIC, column_kind, free_ask, read_columns
from rag.question.plan import Ask, Column, ColumnKind
from rag.text import named_entities
from rag.types import Citation, Evidence
from rag.vocabulary import beside
from store.labels import find_code_url, stated_name, written_url
from store.papers import Paper, strip_markup

__all__ = [
    "DEFAULT_COLUMNS",
    "KINDS",
    "TOPIC",
    "Cell",
    "Column",
    "ColumnKind",
    "PaperTable",
    "column_kind",
    "default_columns",
    "fill_table",
    "parse_columns",
    "value_supported",
]

DEFAULT_COLUMNS = ("problem", "approach", "data", "results", "limitations")
"""The columns of a table for which none is asked (the rows of a comparison)."""
_ROW_TITLES = {r.key: r.title for r in ROWS}


def default_columns() -> tuple[Column, ...]:
    """The columns of a table for which none is asked (:data:`DEFAULT_COLUMNS`, titled as the
    comparison rows)."""
    return tuple(
        Column(_ROW_TITLES[k], kind, read_ask(_ROW_TITLES[k])) for k in DEFAULT_COLUMNS
        for kind in [next(c for c in KINDS if c.key == k)]
    )


def parse_columns(text: str | Sequence[str]) -> tuple[Column, ...]:
    """Columns from ``"benchmark, main result and code"`` or a list of phrases (read by
    :func:`rag.question.columns.read_columns`); the default columns for none."""
    return read_columns(text) or default_columns()


@dataclass(frozen=True)
class Cell:
    """One cell: the sentences of the paper's abstract that answer the column, and a short value.

    Attributes:
        evidence: Exact spans of the abstract (``()``: not stated in the abstract).
        value: A short value every word of which stands in ``evidence`` (the name, the URL, the
            numbers), or ``""``.
    """

    evidence: tuple[Evidence, ...] = ()
    value: str = ""

    @property
    def stated(self) -> bool:
        """Whether the abstract states what the column asks."""
        return bool(self.evidence)


@dataclass(frozen=True)
class PaperTable:
    """A table: rows are papers, columns are phrases, cells are cited sentences.

    Attributes:
        columns: The columns in display order.
        papers: One citation per row (conversation numbers), in row order; each holds every
            sentence its row quotes.
        cells: ``cells[i][j]``: the cell of paper ``i`` for column ``j``.
        topic: What the rows are about (``""`` for papers the user named).
        matched: How many papers the rows stand for (the count said).
        at_least: ``matched`` is a lower bound: members filled every candidate checked.
    """

    columns: tuple[Column, ...]
    papers: tuple[Citation, ...]
    cells: tuple[tuple[Cell, ...], ...]
    topic: str = ""
    matched: int = 0
    at_least: bool = False

    def cell(self, paper_id: str, column: str) -> Cell:
        """The cell of one paper (by id) for one column (by title, any letter case).

        Raises:
            KeyError: no such paper or column in the table.
        """
        i = next((k for k, c in enumerate(self.papers) if c.paper_id == paper_id), None)
        j = next((k for k, c in enumerate(self.columns) if c.title.lower() == column.lower()), None)
        if i is None or j is None:
            raise KeyError(f"no cell for paper {paper_id!r} and column {column!r}")
        return self.cells[i][j]


# --- cells of the known kinds ------------------------------------------------------------------

_VOCABULARY = beside(__file__, "table")
_NAME_LINK = _VOCABULARY["name_link"].bare
_SIZE = re.compile(
    r"(?<![\w.+])\d+(?:\.\d+)?\s?(?:[BMT]\b(?!\s+(?:[\w-]+\s+)?" + COUNT_NOUN + r"(?![\w-]))"
    r"|(?:[KBMT]|billion|million|thousand|trillion)[\s-]+(?:[a-z]+\s+)?param\w*|B-param\w*|M-param\w*)",
)
"""A model's size: a parameter count ("7B", "1.5 billion parameters", "12M-parameter", "1.2 trillion
parameters", "8 billion activated parameters"); a number that counts items ("100 M jets", "10K
dialogues") is a dataset's size, not a model's."""
_DEVICE = re.compile(
    rf"(?:\b(?:a|an|one|single|two|four|eight|sixteen|\d[\d,]*)\s+(?:[\w-]+\s+){{0,2}}?)?{_VOCABULARY['device'].source}",
    re.I,
)
"""The devices a sentence says a method runs on, with the count and kind before them (at most two
words: "a single 16GB GPU", "eight A100 GPUs", "a single node"); a sentence that counts them
states what it runs on before one that only names them ("from the GPU, CPU, and disk")."""
_COUNTED_DEVICE = re.compile(r"\b(?:a|an|one|single|two|four|eight|sixteen|\d[\d,]*)\s")
_NUMBER_STATED = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*\s?(?:\\?%|×|x\b|\$\\times\$|\\times|-fold\b|points?\b)")


def value_supported(value: str, evidence: Sequence[Evidence]) -> bool:
    """Whether every word of ``value`` stands in the quoted sentences (markup dropped, any case).

    This is the test a short value must pass before a cell shows it, whoever proposed it (a
    reader of the abstract or an LLM); ``""`` is never supported.
    """
    quoted = " ".join(strip_markup(e.sentence) for e in evidence).lower()
    words = [w for w in re.split(r"[\s,;]+", strip_markup(value).lower()) if w]
    return bool(words) and all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", quoted) for w in words)


def _covering(paper: Paper, evidence: EvidenceSource, start: int, end: int) -> tuple[Evidence, ...]:
    """The sentence(s) of ``paper`` that hold the characters ``start:end``, as one exact span."""
    sents = [s for s in evidence.sentences(paper)[0] if s.start < end and s.end > start]
    if not sents:
        return ()
    a, b = sents[0].start, sents[-1].end
    return (Evidence(paper.id, paper.abstract[a:b], a, b, 1.0),)


def _name_cell(paper: Paper, evidence: EvidenceSource) -> Cell:
    found = stated_name(paper.abstract)
    if not found:
        return Cell()
    name = found[0]
    for s in evidence.sentences(paper)[0]:
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", strip_markup(s.text)):
            ev = (Evidence(paper.id, s.text, s.start, s.end, 1.0),)
            return Cell(ev, name if value_supported(name, ev) else "")
    return Cell()


def _dataset_names(text: str) -> list[str]:
    """The names a sentence gives the datasets it introduces: a coined name set beside a dataset
    noun ("X, a large-scale dataset", "the X benchmark", "a benchmark called X", "X (a corpus")."""
    names = sorted(named_entities(text), key=len, reverse=True)
    noun = DATASET_NOUN.pattern
    out: list[tuple[int, str]] = []
    for n in names:
        at = re.escape(n)
        near = (
            rf"(?<![\w-]){at},?\s+(?:which\s+is\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){{0,5}}?{noun}"  # X, a ... dataset
            rf"|(?<![\w-]){at}\s+{noun}"  # the X benchmark
            rf"|{noun},?\s+(?:{_NAME_LINK}\s+)?{at}(?![\w-])"  # a benchmark called X / dataset, X
        )
        m = re.search(near, text, re.I)
        if m and all(n not in o for _, o in out):
            out.append((m.start(), n))
    return [n for _, n in sorted(out)]


def _dataset_name_cell(paper: Paper, evidence: EvidenceSource) -> Cell:
    """The sentence that introduces the paper's own dataset or benchmark, first in the abstract,
    valued with the names it gives it ("HyperTrack"; "SoT-26K, T2S-CompBench"); a dataset
    introduced without a name ("We release a simulation benchmark") is quoted without a value; a
    paper that introduces none: not stated (the datasets it uses are a ``data`` column)."""
    quoted = None
    for s in evidence.sentences(paper)[0]:
        text = strip_markup(s.text)
        if not introduces_dataset(text):
            continue
        ev = (Evidence(paper.id, s.text, s.start, s.end, 1.0),)
        names = _dataset_names(text)
        if names:
            value = ", ".join(names)
            return Cell(ev, value if value_supported(value, ev) else "")
        quoted = quoted or Cell(ev)
    return quoted or Cell()


def _dataset_size_cell(paper: Paper, evidence: EvidenceSource) -> Cell:
    """How large the dataset the paper introduces is: from the sentence that introduces it
    (:func:`rag.evidence.rows.introduces_dataset`) on, the first sentence that counts items ("over 16000 real-world
    tasks", "91,581 step-level annotations") and is that sentence, the next one, or names a
    dataset noun; valued with its counts. A parameter count is never a dataset's size; a paper
    that introduces no dataset: not stated."""
    sents = evidence.sentences(paper)[0]
    texts = [strip_markup(s.text) for s in sents]
    first = next((i for i, t in enumerate(texts) if introduces_dataset(t)), None)
    if first is None:
        return Cell()
    for i in range(first, len(sents)):
        found = list(dict.fromkeys(m.group(0).strip() for m in DATA_ITEMS.finditer(texts[i])))
        if found and (i <= first + 1 or DATASET_NOUN.search(texts[i])):
            ev = (Evidence(paper.id, sents[i].text, sents[i].start, sents[i].end, 1.0),)
            value = "; ".join(found)
            return Cell(ev, value if value_supported(value, ev) else "")
    return Cell()


def _code_cell(paper: Paper, evidence: EvidenceSource, said: Evidence | None = None) -> Cell:
    """The code link and its sentence; else ``said``, the sentence that makes the code available
    without a link ("Our software and data are publicly available"), with no value; else not stated."""
    url = find_code_url(paper.abstract)
    written = written_url(paper.abstract, url)  # a link a line break cut, as the abstract writes it
    at = paper.abstract.find(written) if url else -1
    if at < 0:
        return Cell((said,)) if said is not None else Cell()
    ev = _covering(paper, evidence, at, at + len(written))
    return Cell(ev, url) if ev else Cell()


def _own_first(paper: Paper, evidence: EvidenceSource, ask: Ask) -> list[Evidence]:
    """``paper``'s sentences scored against ``ask``, those of its own work first (not its
    background or the gap it addresses, :meth:`rag.protocols.EvidenceSource.moves`), each group best first."""
    moves = evidence.moves(paper)
    scored = evidence.score(ask, paper)
    return sorted(scored, key=lambda e: moves.get(e.start) in ("background", "gap"))  # stable: best first within


def _pattern_cell(
    paper: Paper, evidence: EvidenceSource, ask: Ask, pattern: re.Pattern[str], rank: Sequence[Evidence] = ()
) -> Cell:
    """The best-ranked sentence (by ``rank``, else by ``ask``) that matches ``pattern``; the value
    is what it matches there (distinct, in order)."""
    for e in rank or evidence.score(ask, paper):
        found = list(dict.fromkeys(m.group(0).strip() for m in pattern.finditer(e.sentence)))
        if found:
            ev = (e,)
            value = ", ".join(strip_markup(f) for f in found)
            return Cell(ev, value if value_supported(value, ev) else "")
    return Cell()


FREE_SECOND = 0.75
"""A free column also quotes the second-best sentence when it scores at least this share of the
best one's score: a question's part is often answered across two sentences ("which aspect does
each improve": the method sentence and the one naming what it estimates). Chosen on the dev
set's 12 comparisons and their 48 rephrasings turned into tables (answer facts in cells, dev /
rephrasings): best sentence alone 0.875 / 0.802; 0.9: 0.917 / 0.823; 0.8: 0.917 / 0.833; 0.75 and
0.7: 0.917 / 0.844 (0.75 quotes fewer second sentences for the same facts)."""


def _own(paper: Paper, evidence: EvidenceSource, scored: Sequence[Evidence]) -> list[Evidence]:
    """The sentences of ``scored`` (in order) that state ``paper``'s own work: not one of its
    abstract's background or gap that does not speak in the first person
    (:meth:`rag.protocols.EvidenceSource.moves`)."""
    moves = evidence.moves(paper)
    return [
        e for e in scored
        if moves.get(e.start, "unknown") not in ("background", "gap") or FIRST_PERSON.search(strip_markup(e.sentence))
    ]


def _hardware_cell(paper: Paper, evidence: EvidenceSource, col: Column) -> Cell:
    """The paper's own sentence that names the devices it runs on (:data:`_DEVICE`), valued with
    them: one that counts them ("a single 16GB GPU") before one that only names them ("from the GPU,
    CPU, and disk"), each group by similarity to the column. A background sentence ("large models
    need many GPUs") or a negated mention ("without GPUs", :func:`rag.evidence.roles.affirmed`)
    states no hardware of the paper's; "hardware efficiency" names no device."""
    ran = read_ask(f"{col.title}: GPUs, devices and nodes it runs on")
    own = _own(paper, evidence, evidence.score(ran, paper))
    said = [(e, _DEVICE.search(affirmed(strip_markup(e.sentence)))) for e in own]
    named = [(e, m) for e, m in said if m is not None]
    ranked = [e for e, m in sorted(named, key=lambda t: _COUNTED_DEVICE.match(t[1].group(0)) is None)]
    return _pattern_cell(paper, evidence, col.ask, _DEVICE, ranked) if ranked else Cell()


def _free_cell(paper: Paper, evidence: EvidenceSource, ask: Ask) -> Cell:
    """The sentence closest to what a free column asks (and a close second), in abstract order,
    when the best reaches the evidence settings' ``aspect_floor`` (:class:`rag.settings.EvidenceSettings`).
    Only the paper's own sentences are quoted: one of the abstract's background or gap that does
    not speak of the paper's own work ("existing methods cannot maintain accuracy and hardware
    efficiency") holds the column's word, but states the field's, not the paper's."""
    scored = _own(paper, evidence, evidence.score(ask, paper))
    if not scored or scored[0].score < evidence_settings(evidence).aspect_floor:
        return Cell()
    chosen = [e for e in scored[:2] if e.score >= FREE_SECOND * scored[0].score]
    return Cell(tuple(sorted(chosen, key=lambda e: e.start)))
DATA_FLOOR = 0.45
"""Least data score (see :func:`_data_cell`) for a data / benchmark cell. Calibration: on the 38
seed papers the best sentence of an abstract that names its evaluation data scores 0.51-1.46; in
the five abstracts that name none ("Extensive experiments demonstrate ..."), 0.16-0.39."""


def _data_cell(paper: Paper, evidence: EvidenceSource, title: str) -> Cell:
    """The sentence that says what the paper is evaluated on: similarity to the column plus the
    data row's cues (0.15 each, at most two), a construction that states the data
    (:func:`rag.evidence.rows.states_data`: "on 8 datasets", "experiments on", "fake news articles
    generated by GPT-NeoX"; 0.3) and coined names of benchmarks other than the paper's own (0.2: ALFWorld, Flickr30k). A
    sentence of the abstract's background or gap that does not speak of the paper's own work ("The
    rapid growth of modern training datasets ...") states the field's data, not the paper's: not quoted.
    Cues and names count only in what the sentence affirms (:func:`rag.evidence.roles.affirmed`):
    "does not require ... collecting a dataset" names no data."""
    row = next(r for r in ROWS if r.key == "data")
    own = {paper.label.lower(), *(a.lower() for a in paper.aliases)}
    moves = evidence.moves(paper)
    best: tuple[float, Evidence] | None = None
    for e in evidence.score(read_ask(f"{title}: {row.query}"), paper):
        text = strip_markup(e.sentence)
        if moves.get(e.start, "unknown") in ("background", "gap") and not FIRST_PERSON.search(text):
            continue
        text = affirmed(text)
        cues = len({m.group(0).lower() for m in row.cues.finditer(text)})
        names = {n for n in named_entities(text) if n.lower() not in own and not any(n.lower() in o for o in own)}
        sc = e.score + 0.15 * min(cues, 2) + (0.3 if states_data(text) else 0.0)
        sc += 0.2 if names and cues else 0.0
        if best is None or sc > best[0]:
            best = (sc, e)
    return Cell((best[1],)) if best and best[0] >= DATA_FLOOR else Cell()


Stating = Callable[[Ask, Paper], "tuple[Evidence, str] | None"]
"""Which sentence of a paper states what a column asks (its :attr:`rag.question.plan.Column.slot`),
with the value that clause gives it, or ``None``: the check a one-paper question gets
(:func:`rag.route.slot.stating_sentence`), given by the route that fills the table."""


def _kind_cells(
    paper: Paper,
    evidence: EvidenceSource,
    columns: Sequence[Column],
    names: Sequence[str] = (),
    reason: Evidence | None = None,
    code: Evidence | None = None,
    stating: Stating | None = None,
) -> list[Cell]:
    """The cells of one paper, in column order (``names``: the rows' names, left out of free phrases;
    ``reason``: the sentence that made the paper a row, quoted in the topic column; ``code``: the
    sentence that makes its code available without a link, for a code column; ``stating``: the
    sentence that states a column's slot, for a column that asks one)."""
    by_row = {r.key: r for r in ROWS}
    rows = [by_row[c.kind.row] for c in columns if c.kind.key in _ROW_KINDS and c.kind.row]
    chosen = select_rows(evidence, paper, list(dict.fromkeys(rows))) if rows else {}
    out = []
    for col in columns:
        key = col.kind.key
        if col.slot is not None and stating is not None:
            # a measure or setting ("speedup", "bit width"): only a clause that states it, as the
            # one-paper question "what speedup does X report?" is answered; else not stated
            got = stating(col.ask, paper)
            ev = (got[0],) if got is not None else ()
            value = got[1] if got is not None else ""
            out.append(Cell(ev, value if value and value_supported(value, ev) else ""))
        elif key == "name":
            out.append(_dataset_name_cell(paper, evidence) if col.about == "dataset" else _name_cell(paper, evidence))
        elif key == "code":
            out.append(_code_cell(paper, evidence, code))
        elif key == "size" and col.about == "dataset":
            out.append(_dataset_size_cell(paper, evidence))
        elif key == "size":
            # the paper's own model before the field's ("the largest LLMs contain upwards of 100B
            # parameters" is no size of ViT-22B)
            sized = read_ask(f"{col.title}: model parameters")
            out.append(_pattern_cell(paper, evidence, sized, _SIZE, _own_first(paper, evidence, sized)))
        elif key == "hardware":
            out.append(_hardware_cell(paper, evidence, col))
        elif key == "metric":
            row = select_rows(evidence, paper, [by_row["results"]], min_score=0.0)["results"]
            ranked = evidence.score(read_ask(f"{col.title} results"), paper)
            out.append(_pattern_cell(paper, evidence, col.ask, _NUMBER_STATED, _results_first(row, ranked)))
        elif key == "topic":
            out.append(Cell((reason,) if reason is not None else tuple(evidence.select(col.ask, paper, k=1))))
        elif key == "data":
            # a sentence the data row takes (it states the data: "fake news articles generated by
            # GPT-NeoX") fills the column when none is close to it: a comparison's row and a table's column agree
            cell = _data_cell(paper, evidence, col.title)
            out.append(cell if cell.stated else Cell(select_rows(evidence, paper, [by_row["data"]])["data"]))
        elif key in _ROW_KINDS:
            out.append(Cell(chosen.get(col.kind.row, ())))
        else:
            out.append(_free_cell(paper, evidence, free_ask(col, names)))
    return out


_ROW_KINDS = frozenset({"limitations", "problem", "results", "approach"})


def _results_first(row: Sequence[Evidence], ranked: Sequence[Evidence]) -> list[Evidence]:
    """The results row's sentence first, then the others by their score for the column."""
    first = list(row[:1])
    return first + [e for e in ranked if all(e.start != f.start for f in first)]


def fill_table(
    evidence: EvidenceSource,
    papers: Sequence[Paper],
    columns: Sequence[Column],
    cite: Callable[[Paper, Sequence[Evidence]], Citation],
    *,
    topic: str = "",
    matched: int = 0,
    at_least: bool = False,
    reasons: Mapping[str, Evidence] | None = None,
    code: Mapping[str, Evidence] | None = None,
    stating: Stating | None = None,
) -> PaperTable:
    """Fill every cell of a table.

    Args:
        evidence: The sentence scorer (its cache is warmed for all papers in one batch).
        papers: The rows, in order.
        columns: The columns, in order (:func:`parse_columns`).
        cite: Makes a row's citation (conversation numbering) from the sentences it quotes.
        topic: What the rows are about (``""`` for named papers).
        matched: How many papers match (default: the rows).
        at_least: ``matched`` is a lower bound.
        reasons: Paper id -> the sentence that made it a row ("we release 95K ... traces" for
            papers that release a dataset, :meth:`rag.route.membership.Membership.contribution`),
            quoted in the topic column instead of the sentence closest to the topic.
        code: Paper id -> the sentence that makes its code available without a link ("Our software
            and data are publicly available", :meth:`rag.route.answer.AnswerPipeline.code_sentence`),
            quoted in a code column when the abstract links no code: "which papers release code?"
            and a table's code column answer alike.
        stating: The sentence that states a column's slot and its value (:data:`Stating`), for
            the columns that ask one ("speedup", "bit width"); ``None``: those columns are filled
            as their kind is (any figure for a metric, the closest sentence for a free phrase).

    Returns:
        The table; ``abstract[start:end] == sentence`` for every evidence of every cell.
    """
    evidence.warm(list(papers))
    names = [n for p in papers if not p.describes for n in (p.label, *p.aliases) if n]
    why, said = reasons or {}, code or {}
    cells = [tuple(_kind_cells(p, evidence, columns, names, why.get(p.id), said.get(p.id), stating)) for p in papers]
    cites = tuple(cite(p, [e for c in row for e in c.evidence]) for p, row in zip(papers, cells, strict=True))
    return PaperTable(tuple(columns), cites, tuple(cells), topic, matched or len(papers), at_least)
