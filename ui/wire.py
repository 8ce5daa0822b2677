"""What answers, papers, comparison tables and search results look like on the wire: the JSON of
``paperchat ask --json`` / ``compare --json``, the MCP tools and the HTTP API (the plain-text
source list the command line and the API append to an answer is :func:`ui.render.sources_text`).

Pure functions of domain objects: every caller (CLI, MCP, HTTP) returns the same fields.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rag.evidence.table import PaperTable
from rag.route.conversation import Turn
from rag.route.search import Found
from rag.route.table_text import cell_text
from store.papers import Paper
from store.watches import Watch

__all__ = [
    "answer_json",
    "found_json",
    "openai_usage",
    "paper_json",
    "paper_table_json",
    "related_json",
    "table_json",
    "watch_json",
]


def answer_json(turn: Turn) -> dict[str, Any]:
    """The answer of a turn as ``paperchat ask --json`` prints it (:meth:`rag.types.Answer.to_dict`:
    text with ``[n]`` markers, ``refused``, ``citations`` with evidence spans, ``retrieved``...),
    plus ``turn`` (``answer``, ``compare``, ``table``, ``summary``, ``similar``, ``clarify`` or ``refusal``),
    ``interpreted_as`` (the question with earlier-turn references spelled out), for a ``table``
    turn ``table`` (:func:`paper_table_json`), for a ``similar`` turn ``similar`` (:func:`related_json`)
    and, for a ``clarify`` turn, ``candidates`` (``[{"paper_id", "label"}]``)."""
    data = turn.answer.to_dict()
    data["turn"] = turn.kind
    data["interpreted_as"] = turn.standalone
    if turn.paper_table is not None:
        data["table"] = paper_table_json(turn.paper_table)
    if turn.candidates:
        data["candidates"] = [{"paper_id": p.id, "label": p.label} for p in turn.candidates]
    if turn.related is not None:
        data["similar"] = related_json(turn)
    return data


def openai_usage(turn: Turn) -> dict[str, int]:
    """The OpenAI ``usage`` of a chat completion for a turn: ``{"prompt_tokens", "completion_tokens",
    "total_tokens"}``, whole tokens >= 0, summed over the LLM replies the answer made (its prose, a
    translation of the question, table cell values: :class:`rag.types.LLMUsage`). Prompt tokens are
    the server's count (Ollama's ``prompt_eval_count``, which leaves out a prefix it had cached), else
    paperchat's own count of the prompt sent; completion tokens the server's ``eval_count``, else 0
    (a reply cut or stopped before the server's final message). All zeros when no LLM was asked (an
    extractive answer costs no tokens)."""
    usage = turn.answer.usage
    if usage is None:
        return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    prompt = usage.prompt_eval_count if usage.prompt_eval_count is not None else usage.prompt_tokens
    completion = usage.eval_count or 0
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def related_json(turn: Turn) -> dict[str, Any]:
    """The neighbours of a ``similar`` turn (``paperchat similar --json``, the MCP tool, the API).

    Shape: ``{"paper": {"paper_id", "label", "number"}, "neighbours": [{"paper_id", "label", "number",
    "score", "dense", "lexical", "terms", "pair": {"paper": evidence, "neighbour": evidence}}]}``,
    nearest first; ``score`` the fused relevance in [0, 1]; each evidence ``{"paper_id", "sentence",
    "start", "end", "score"}`` an exact span of its abstract (``score`` the pair's cosine);
    ``number`` the citation number in the answer's text.
    """
    related = turn.related
    if related is None:
        return {"paper": None, "neighbours": []}
    numbers = {c.paper_id: c.number for c in turn.citations}
    seed = related.seed
    return {
        "paper": {"paper_id": seed.id, "label": seed.label, "number": numbers.get(seed.id)},
        "neighbours": [
            {
                "paper_id": n.paper.id,
                "label": n.paper.label,
                "number": numbers.get(n.paper.id),
                "score": round(n.hit.score, 4),
                "dense": round(n.hit.dense, 4),
                "lexical": round(n.hit.lexical, 4),
                "terms": list(n.terms),
                "pair": {"paper": asdict(n.seed_sentence), "neighbour": asdict(n.sentence)},
            }
            for n in related.neighbours
        ],
    }


def paper_json(paper: Paper) -> dict[str, Any]:
    """Every field of a paper record, abstract included (evidence spans index into ``abstract``)."""
    return {
        "id": paper.id,
        "label": paper.label,
        "title": paper.title,
        "authors": list(paper.authors),
        "year": paper.year,
        "venue": paper.venue,
        "url": paper.url,
        "doi": paper.doi,
        "cite_key": paper.cite_key,
        "source": paper.source,
        "aliases": list(paper.aliases),
        "abstract": paper.abstract,
    }


def table_json(turn: Turn) -> dict[str, Any]:
    """A comparison turn's table as ``paperchat compare --json`` prints it.

    Shape: ``{"papers": [{"number", "id", "label"}], "rows": [{"row", "title", "cells": {paper id:
    [sentence, ...]}, "evidence": {paper id: [{"paper_id", "sentence", "start", "end", "score"}]}}],
    "aspects": [{"aspect", "cells", "evidence"}]}``; an empty cell means "not stated in the abstract".

    Raises:
        ValueError: the turn is not a comparison (it has no table).
    """
    t = turn.table
    if t is None:
        raise ValueError(f"a {turn.kind} turn has no comparison table")

    def cells(row) -> dict[str, Any]:
        return {
            "cells": {c.paper_id: [e.sentence for e in evs] for c, evs in zip(t.papers, row, strict=True)},
            "evidence": {c.paper_id: [asdict(e) for e in evs] for c, evs in zip(t.papers, row, strict=True)},
        }

    return {
        "papers": [{"number": c.number, "id": c.paper_id, "label": c.label} for c in t.papers],
        "rows": [{"row": r.key, "title": r.title, **cells(row)} for r, row in zip(t.rows, t.cells, strict=True)],
        "aspects": [{"aspect": a, **cells(row)} for a, row in zip(t.aspects, t.aspect_cells, strict=True)],
    }


def paper_table_json(table: PaperTable) -> dict[str, Any]:
    """A table across papers as ``paperchat table --json`` prints it.

    Shape: ``{"topic", "matched", "matched_at_least", "columns": [{"title", "kind"}], "rows":
    [{"number", "paper_id", "label", "cells": [{"column", "kind", "stated", "value", "text",
    "evidence": [{"paper_id", "sentence", "start", "end", "score"}]}]}]}``: one row per paper, one
    cell per column in column order; ``text`` is what the cell shows (the value and quoted
    sentences, or "not stated in the abstract"); every evidence is an exact span of its abstract.
    """
    rows = []
    for c, cells in zip(table.papers, table.cells, strict=True):
        rows.append({
            "number": c.number,
            "paper_id": c.paper_id,
            "label": c.label,
            "cells": [
                {
                    "column": col.title,
                    "kind": col.kind.key,
                    "stated": cell.stated,
                    "value": cell.value,
                    "text": cell_text(cell),
                    "evidence": [asdict(e) for e in cell.evidence],
                }
                for col, cell in zip(table.columns, cells, strict=True)
            ],
        })
    return {
        "topic": table.topic,
        "matched": table.matched,
        "matched_at_least": table.at_least,
        "columns": [{"title": col.title, "kind": col.kind.key} for col in table.columns],
        "rows": rows,
    }


def found_json(found: Found) -> dict[str, Any]:
    """One search result: the paper's id, label, title, authors, year, venue, url, its scores
    (``score``, ``dense``, ``lexical``, ``coverage``), ``relevant`` and its best evidence sentences
    with their spans."""
    p, h = found.hit.paper, found.hit
    return {
        "paper_id": p.id,
        "label": p.label,
        "title": p.title,
        "authors": list(p.authors),
        "year": p.year,
        "venue": p.venue,
        "url": p.url,
        "score": round(h.score, 4),
        "dense": round(h.dense, 4),
        "lexical": round(h.lexical, 4),
        "coverage": round(h.coverage, 4),
        "relevant": found.relevant,
        "evidence": [asdict(e) for e in found.evidence],
    }


def watch_json(watch: Watch) -> dict[str, Any]:
    """A saved question: ``{"question", "added", "reported": [paper id]}`` (the MCP tools and the API)."""
    return {"question": watch.question, "added": watch.added, "reported": list(watch.reported)}
