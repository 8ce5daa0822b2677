"""Evaluation over a gold question set (the ``dev.jsonl`` schema).

Metrics (as defined by the gold set's README): recall@k (k = 1, 3, 5, 10) and MRR of the
retriever's ranked paper ids; citation precision ``|C∩G|/|C|`` over answers that cite
(a citation on a question with empty gold counts as precision 0); citation recall for
``multi``/``compare``; invented citation markers (markers in the final answer that resolve
to no cited paper) and removed markers (markers the LLM invented that validation removed);
answer-fact coverage (case-insensitive after normalising whitespace, dashes and markup) and
the fully-correct rate; the share of answers not refused that open with a lead line in the form
the question asks (:mod:`rag.route.lead`); refusal accuracy on questions with empty gold; false-refusal rate on
the others; instruction leaks (answers that repeat six or more consecutive words of the instructions in ``prompts/``).
"""

from __future__ import annotations

import functools
import json
import re
import statistics
import string
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from prompts import load_prompt
from rag.citations import cited_numbers
from rag.pipeline import Components
from rag.text import normalize
from rag.types import Answer

__all__ = [
    "GoldQuestion",
    "consistency",
    "evaluate",
    "fact_present",
    "instruction_ngrams",
    "leaks_instructions",
    "load_gold",
    "score_answer",
    "score_table",
    "table_for",
]


@dataclass(frozen=True)
class GoldQuestion:
    """One gold record: ``qid``, ``kind``, ``question``, ``gold_ids``, ``answer_facts``, and for a
    rephrasing the ``orig_qid`` of the question it rephrases (``""`` otherwise)."""

    qid: str
    kind: str
    question: str
    gold_ids: tuple[str, ...]
    answer_facts: tuple[str, ...]
    orig_qid: str = ""


def load_gold(path: Path) -> list[GoldQuestion]:
    """Read a gold JSONL file.

    Raises:
        ValueError: a line is not valid JSON or lacks a field (message names file and line).
    """
    out = []
    with Path(path).open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                out.append(
                    GoldQuestion(
                        r["qid"],
                        r["kind"],
                        r["question"],
                        tuple(r["gold_ids"]),
                        tuple(r["answer_facts"]),
                        str(r.get("orig_qid") or ""),
                    )
                )
            except (json.JSONDecodeError, KeyError) as exc:
                raise ValueError(f"{path}:{lineno}: bad gold record ({exc})") from exc
    return out


def fact_present(fact: str, text: str) -> bool:
    """Whether ``fact`` occurs in ``text`` after normalisation (case, whitespace, dashes, markup)."""
    return normalize(fact) in normalize(text)


LEAK_WORDS = 6
_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=4)
def instruction_ngrams(n: int = LEAK_WORDS, names: tuple[str, ...] = ("system", "answer")) -> frozenset[str]:
    """Every run of ``n`` consecutive words (normalised, punctuation dropped) of the named prompts' fixed text.

    Only the literal text counts: a ``{variable}`` (the refusal message, the sources, the
    question) breaks a run, since its content legitimately appears in answers.
    """
    grams: set[str] = set()
    for name in names:
        for literal, *_ in string.Formatter().parse(load_prompt(name).text):
            words = _WORD.findall(normalize(literal))
            grams.update(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
    return frozenset(grams)


def leaks_instructions(text: str, grams: frozenset[str], n: int = LEAK_WORDS) -> bool:
    """Whether ``text`` repeats any of ``grams`` (from :func:`instruction_ngrams`)."""
    words = _WORD.findall(normalize(text))
    return any(" ".join(words[i : i + n]) in grams for i in range(len(words) - n + 1))


def score_answer(q: GoldQuestion, ans: Answer) -> dict:
    """Per-question metrics of one answer (``None`` where a metric does not apply)."""
    ranked = [h.paper.id for h in ans.hits]
    gold = set(q.gold_ids)
    cited = set(ans.cited_ids)
    row: dict = {"qid": q.qid, "kind": q.kind, "refused": ans.refused, "cited": sorted(cited)}
    if q.orig_qid:
        row["orig_qid"] = q.orig_qid
    if gold:
        for k in (1, 3, 5, 10):
            row[f"recall_at_{k}"] = len(set(ranked[:k]) & gold) / len(gold)
        rank = next((i + 1 for i, pid in enumerate(ranked) if pid in gold), None)
        row["mrr"] = 1.0 / rank if rank else 0.0
        row["citation_recall"] = len(cited & gold) / len(gold)
        row["false_refusal"] = 1.0 if ans.refused else 0.0
    if cited:
        row["citation_precision"] = len(cited & gold) / len(cited) if gold else 0.0
    # Invented citations: markers in the final answer that resolve to no cited paper (0 by
    # construction). Removed markers: what the LLM invented and validation took out.
    numbers = {c.number for c in ans.citations}
    row["invented_citations"] = sum(1 for n in cited_numbers(ans.text) if n not in numbers)
    row["removed_markers"] = ans.invented_markers
    row["instruction_leaks"] = int(leaks_instructions(ans.text, instruction_ngrams()))
    if q.answer_facts:
        hits = [fact_present(f, ans.text) for f in q.answer_facts]
        row["fact_coverage"] = sum(hits) / len(hits)
        row["fully_correct"] = 1.0 if all(hits) else 0.0
        row["missing_facts"] = [f for f, h in zip(q.answer_facts, hits, strict=True) if not h]
    if not ans.refused:
        row["lead"] = 1.0 if ans.lead and ans.text.startswith(ans.lead) else 0.0
    if not gold:
        row["refusal_accuracy"] = 1.0 if ans.refused else 0.0
    row["seconds"] = ans.timings.total
    return row


_METRICS = (
    "recall_at_1",
    "recall_at_3",
    "recall_at_5",
    "recall_at_10",
    "mrr",
    "citation_precision",
    "citation_recall",
    "fact_coverage",
    "fully_correct",
    "lead",
    "refusal_accuracy",
    "false_refusal",
)


def _aggregate(rows: list[dict]) -> dict:
    out: dict = {"n": len(rows)}
    for m in _METRICS:
        vals = [r[m] for r in rows if r.get(m) is not None]
        out[m] = round(statistics.fmean(vals), 4) if vals else None
    out["invented_citations"] = sum(r["invented_citations"] for r in rows)
    out["removed_markers"] = sum(r.get("removed_markers", 0) for r in rows)
    out["instruction_leaks"] = sum(r.get("instruction_leaks", 0) for r in rows)
    out["errors"] = sum(1 for r in rows if r.get("error"))
    secs = [r["seconds"] for r in rows if "seconds" in r]
    out["median_seconds"] = round(statistics.median(secs), 3) if secs else None
    return out


def evaluate(
    ask: Callable[[str], Answer],
    questions: Iterable[GoldQuestion],
    *,
    on_progress: Callable[[int], None] | None = None,
) -> dict:
    """Ask every question through the one route and aggregate the metrics, overall and per kind.

    Args:
        ask: Answers one question in a fresh conversation, as the chat page does
            (:meth:`rag.pipeline.Components.ask`: filters the question states are read).
        questions: The gold questions.
        on_progress: Called with 1 after each question.

    Returns:
        ``{"n", "recall_at_5", "mrr", "citation_precision", "invented_citations", "instruction_leaks",
        "fact_coverage", "refusal_accuracy", ..., "by_kind": {kind: {...}}, "rows": [...]}``.
        An exception while answering counts as an error (and a wrong answer), it is not raised.
    """
    rows = []
    for q in questions:
        try:
            ans = ask(q.question)
            row = score_answer(q, ans)
        except Exception as exc:  # noqa: BLE001 - an error is a measured outcome here
            row = {"qid": q.qid, "kind": q.kind, "error": f"{type(exc).__name__}: {exc}", "invented_citations": 0}
            if q.orig_qid:
                row["orig_qid"] = q.orig_qid
        rows.append(row)
        if on_progress:
            on_progress(1)
    result = _aggregate(rows)
    by_kind = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    result["by_kind"] = {k: _aggregate(v) for k, v in sorted(by_kind.items())}
    result["rows"] = rows
    return result


def consistency(rows: Iterable[dict]) -> dict:
    """How alike the cited papers of rephrasings are to those of the question they rephrase.

    For each rephrasing (a row whose question has ``orig_qid``) the Jaccard similarity
    ``|A ∩ B| / |A ∪ B|`` of its cited ids with those of the original (1.0 when both cite
    nothing); averaged per original question, then over questions.

    Args:
        rows: Per-question rows of :func:`evaluate` (originals and rephrasings together).

    Returns:
        ``{"questions": n, "mean_jaccard": float | None, "by_kind": {kind: float}}``.
    """
    rows = list(rows)
    cited = {r["qid"]: set(r.get("cited", [])) for r in rows}
    per: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, str] = {}
    for r in rows:
        orig = r.get("orig_qid")
        if not orig or orig not in cited:
            continue
        a, b = cited[r["qid"]], cited[orig]
        per[orig].append(1.0 if not a and not b else len(a & b) / len(a | b))
        kinds[orig] = r["kind"]
    means = {q: statistics.fmean(v) for q, v in per.items()}
    by_kind: dict[str, list[float]] = defaultdict(list)
    for q, m in means.items():
        by_kind[kinds[q]].append(m)
    return {
        "questions": len(means),
        "mean_jaccard": round(statistics.fmean(means.values()), 4) if means else None,
        "by_kind": {k: round(statistics.fmean(v), 4) for k, v in sorted(by_kind.items())},
    }


def format_report(result: dict) -> str:
    """A fixed-width table: one row per kind plus ``overall``."""
    cols = [
        ("n", "n"),
        ("recall_at_5", "R@5"),
        ("mrr", "MRR"),
        ("citation_precision", "cite-P"),
        ("citation_recall", "cite-R"),
        ("invented_citations", "invented"),
        ("removed_markers", "removed"),
        ("instruction_leaks", "leaks"),
        ("fact_coverage", "facts"),
        ("lead", "lead"),
        ("refusal_accuracy", "refusal"),
        ("false_refusal", "false-ref"),
        ("errors", "errors"),
    ]
    head = f"{'kind':<13}" + "".join(f"{name:>10}" for _, name in cols)
    lines = [head, "-" * len(head)]

    def fmt(v):
        if v is None:
            return f"{'-':>10}"
        if isinstance(v, float):
            return f"{v:>10.3f}"
        return f"{v:>10}"

    for kind, agg in [*result["by_kind"].items(), ("overall", result)]:
        lines.append(f"{kind:<13}" + "".join(fmt(agg.get(key)) for key, _ in cols))
    return "\n".join(lines)


# --- gold questions as tables ----------------------------------------------------------------


def table_for(components: Components, q: GoldQuestion):
    """A gold ``multi`` or ``compare`` question turned into a table, in a fresh conversation.

    A "which papers" question becomes the table of its topic (:meth:`Conversation.table` with
    the question as the topic: every member a row); a comparison becomes the table of the papers
    the route compares, with the parts the question asks as columns before the default ones.

    Returns:
        The :class:`rag.route.conversation.Turn` (``table``, ``refusal`` or ``clarify``).
    """
    from rag.evidence.table import DEFAULT_COLUMNS
    from rag.question.plan import ComparePlan

    conv = components.conversation()
    if q.kind != "compare":
        return conv.table(q.question)
    turn = conv.ask(q.question)
    ids = [c.paper_id for c in turn.citations] if turn.kind == "compare" else []
    asked = tuple(a.heading for a in turn.plan.aspects) if isinstance(turn.plan, ComparePlan) else ()
    return components.conversation().table(papers=ids or [q.question], columns=[*asked, *DEFAULT_COLUMNS])


def score_table(q: GoldQuestion, turn) -> dict:
    """Rows against gold papers and answer facts in the table's text (labels, values, quotes).

    Returns:
        ``{"qid", "kind", "rows", "recall", "precision", "facts"}``: recall ``|R∩G|/|G|``,
        precision ``|R∩G|/|R|`` (0 for no row), facts the share of ``answer_facts`` present
        (:func:`fact_present`); ``None`` where undefined.
    """
    from rag.route.table_text import table_text

    table = turn.paper_table
    rows = [c.paper_id for c in table.papers] if table is not None else []
    gold = set(q.gold_ids)
    hit = len(gold & set(rows))
    text = table_text(table) if table is not None else ""
    return {
        "qid": q.qid,
        "kind": q.kind,
        "rows": len(rows),
        "recall": hit / len(gold) if gold else None,
        "precision": hit / len(rows) if rows else 0.0,
        "facts": sum(fact_present(f, text) for f in q.answer_facts) / len(q.answer_facts) if q.answer_facts else None,
    }

