"""Head to head: whether the compared abstracts report a direct comparison, for "which is better?".

A researcher who asks "Which is better, DANCE or APM?" (:attr:`rag.question.reader.QuestionPlan.asks_better`)
needs to know first whether the abstracts say so at all. This module answers that from the
abstracts alone, never with a verdict of its own:

* **mentions**: a paper's abstract mentions another compared paper when one of its sentences states
  that paper's label (unless the label is a description of the abstract, :attr:`store.papers.Paper.describes`)
  or one of its aliases, as written (case kept, whole words), and that name is not also one of
  its own. The sentence is taken from :meth:`rag.evidence.selector.EvidenceSelector.score`, so its span is
  exact (``abstract[start:end] == sentence``);
* **key results**: each paper's "results" row (:data:`rag.evidence.rows.ROWS`), chosen on its own so that
  no other row of the comparison table takes its sentence first;
* **shared data**: the coined names (:func:`rag.text.named_entities`) the data and results rows
  state, plus the well-known benchmarks of ``rag/glossary.tsv`` (``isa`` lines) the abstract names,
  without the compared papers' own names; the names every compared abstract states are shared.

:func:`head_to_head_text` then says plainly either that no abstract compares the papers directly
(and what each reports), or quotes the sentences that do; and either names the datasets they share
or says that their numbers are on different tasks or datasets and are not comparable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rag.citations import format_marker
from rag.evidence.rows import NOT_STATED, ROWS, select_rows
from rag.lexicon import load_glossary
from rag.protocols import EvidenceSource
from rag.question.asks import read_ask
from rag.text import named_entities, normalize
from rag.types import Citation, Evidence
from store.papers import Paper, strip_markup

__all__ = ["HeadToHead", "Mention", "find_mentions", "head_to_head", "head_to_head_text", "paper_names"]


@dataclass(frozen=True)
class Mention:
    """A sentence of one compared paper's abstract that names another compared paper.

    Attributes:
        by: Index (column) of the paper whose abstract holds the sentence.
        of: Index of the paper it names.
        name: The name as the sentence states it.
        evidence: The sentence, an exact span of ``papers[by].abstract``.
    """

    by: int
    of: int
    name: str
    evidence: Evidence


@dataclass(frozen=True)
class HeadToHead:
    """What the abstracts report about the compared papers against each other.

    Attributes:
        mentions: Sentences of one abstract naming another compared paper, in column order.
        results: Per paper (column order), its key result sentences (the "results" row; may be empty).
        data: Per paper, the dataset and benchmark names its abstract states (see the module docstring).
        shared: The names every compared abstract states, sorted.
    """

    mentions: tuple[Mention, ...]
    results: tuple[tuple[Evidence, ...], ...]
    data: tuple[tuple[str, ...], ...]
    shared: tuple[str, ...]

    def quoted(self, column: int) -> tuple[Evidence, ...]:
        """The sentences of the paper in ``column`` that :func:`head_to_head_text` quotes."""
        return (*(m.evidence for m in self.mentions if m.by == column), *self.results[column][:1])


def paper_names(paper: Paper) -> tuple[str, ...]:
    """The names another abstract could mention ``paper`` by: its label (unless a description) and
    its aliases, longest first, each at least two characters."""
    names = ([] if paper.describes else [paper.label]) + list(paper.aliases)
    return tuple(sorted({n.strip() for n in names if len(n.strip()) >= 2}, key=lambda n: (-len(n), n)))


def _states(name: str, text: str) -> bool:
    """``name`` as a whole word of ``text`` (case kept; hyphens and word characters bound it)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def find_mentions(evidence: EvidenceSource, papers: Sequence[Paper]) -> tuple[Mention, ...]:
    """The first sentence of each abstract that names each other compared paper (see the module docstring).

    Args:
        evidence: The sentence scorer; its sentences (and spans) are those quoted.
        papers: The compared papers, in column order.
    """
    out = []
    for i, paper in enumerate(papers):
        own = {normalize(n) for n in paper_names(paper)}
        for j, other in enumerate(papers):
            names = [n for n in paper_names(other) if normalize(n) not in own] if j != i else []
            if not names:
                continue
            scored = sorted(evidence.score(read_ask(f"compared with {names[0]}"), paper), key=lambda e: e.start)
            for e in scored:
                text = strip_markup(e.sentence)
                said = next((n for n in names if _states(n, text) or _states(n, e.sentence)), None)
                if said:
                    out.append(Mention(i, j, said, e))
                    break
    return tuple(out)


@cache
def _benchmarks() -> tuple[str, ...]:
    """Names of well-known benchmarks and datasets (``isa`` lines of the glossary)."""
    return tuple(t for rel, t, what in load_glossary() if rel == "isa" and re.search(r"benchmark|dataset", what))


def _data_names(paper: Paper, cells: Sequence[Evidence], exclude: set[str]) -> tuple[str, ...]:
    """The dataset and benchmark names ``paper``'s abstract states (see the module docstring)."""
    found: dict[str, str] = {}
    for e in cells:
        for n in named_entities(strip_markup(e.sentence)):
            found.setdefault(normalize(n), n)
    for n in _benchmarks():
        if _states(n, paper.abstract):
            found.setdefault(normalize(n), n)
    keep = {k: v for k, v in found.items() if not any(re.search(rf"(?<!\w){re.escape(x)}(?!\w)", k) for x in exclude)}
    return tuple(sorted(keep.values(), key=str.lower))


def head_to_head(evidence: EvidenceSource, papers: Sequence[Paper]) -> HeadToHead:
    """What the abstracts of ``papers`` report against each other (see the module docstring).

    Args:
        evidence: The sentence scorer; every quoted sentence is one of its exact spans.
        papers: The compared papers, in column order.
    """
    rows = [r for r in ROWS if r.key in ("data", "results")]
    exclude = {normalize(n) for p in papers for n in paper_names(p)}
    results, data = [], []
    for p in papers:
        chosen = select_rows(evidence, p, rows)
        results.append(chosen["results"])
        data.append(_data_names(p, [*chosen["data"], *chosen["results"]], exclude))
    common = set.intersection(*({normalize(n) for n in d} for d in data)) if data else set()
    shared = tuple(n for n in data[0] if normalize(n) in common) if data else ()
    return HeadToHead(find_mentions(evidence, papers), tuple(results), tuple(data), shared)


def _named(c: Citation) -> str:
    return f"{c.label} {format_marker(c.number)}"


def _quote(evs: Sequence[Evidence], c: Citation) -> str:
    return " ".join(f"“{strip_markup(e.sentence)}”" for e in evs) + f" {format_marker(c.number)}"


def head_to_head_text(h2h: HeadToHead, cits: Sequence[Citation], criterion: str = "better") -> str:
    """The head-to-head paragraph, shown right after a comparison's lead.

    Without a mention: "Neither abstract compares A [1] with B [2] directly, so the abstracts do not
    say which is better; here is what each reports:" ("faster", "more accurate": as asked) and each
    paper's key result, quoted. With
    mentions: each quoted as the head-to-head evidence, then the key results. Last, the datasets the
    abstracts share, or that their numbers are on different tasks or datasets and not comparable.

    Args:
        h2h: What :func:`head_to_head` found.
        cits: The compared papers' citations, in column order.
        criterion: What the question ranks them by, as it words it ("faster", "more accurate").
    """
    markers = "".join(format_marker(c.number) for c in cits)
    if len(cits) == 2:
        names = f"{_named(cits[0])} with {_named(cits[1])}"
        none = f"Neither abstract compares {names} directly"
    else:
        names = ", ".join(_named(c) for c in cits[:-1]) + f" or {_named(cits[-1])}"
        none = f"No abstract compares {names} with one another directly"
    lines = []
    if not h2h.mentions:
        verb = "has" if criterion.startswith(("higher", "lower", "highest", "lowest")) else "is"
        lines.append(f"{none}, so the abstracts do not say which {verb} {criterion}; here is what each reports:")
    else:
        lines.append("The abstracts compare them directly only where one names the other:")
        for m in h2h.mentions:
            lines.append(f"- {_named(cits[m.by])} on {_named(cits[m.of])}: {_quote([m.evidence], cits[m.by])}")
        lines += ["", "Here is what each reports:"]
    for c, res in zip(cits, h2h.results, strict=True):
        lines.append(f"- {_named(c)}: {_quote(res[:1], c) if res else NOT_STATED}")
    if h2h.shared:
        lines += ["", f"Both abstracts name {', '.join(h2h.shared)} {markers}." if len(cits) == 2
                  else f"All these abstracts name {', '.join(h2h.shared)} {markers}."]
    else:
        lines += ["", f"The abstracts name no dataset or benchmark in common {markers}: their reported numbers "
                      "are on different tasks or datasets and are not comparable."]
    return "\n".join(lines)
