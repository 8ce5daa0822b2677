"""Answers that list every paper a filter lets through ("papers by Tri Dao", "which papers did X
publish in 2023") or the whole collection ("what papers are in the collection?", "list all
papers"): the records decide which papers, not their text.

The answer says how many papers pass (the count said is the count found), lists them newest
first (then by title) with the sentence of each abstract that says what the paper does, and
cites them all, up to :data:`LIST_MAX`.
"""

from __future__ import annotations

import time
from collections.abc import Collection

from rag.llm.prose import Source
from rag.route.answer import AnswerPipeline, citation, main_points, render
from rag.types import Answer, PaperHit, Timings

__all__ = ["LIST_MAX", "list_papers"]

LIST_MAX = 100
"""Most papers one listing cites; more are counted, and the header says how many are listed.
The most prolific author of the 3,098 ICML 2022-23 papers has 18."""


def list_papers(
    pipeline: AnswerPipeline, question: str, ids: Collection[str], description: str, scope: str = ""
) -> Answer:
    """Every paper of ``ids`` (those passing the filter ``description``, e.g. ``"author=Tri Dao"``;
    ``""``: the whole collection), as a cited list; ``scope`` names the set ``ids`` were taken
    from when it is not the collection ("the 12 papers of the previous answer").

    Returns:
        An answer of kind ``list``, ``matched`` = ``len(ids)``; refused when ``ids`` is empty.
    """
    t0 = time.perf_counter()
    papers = sorted((pipeline.catalogue[p] for p in ids), key=lambda p: (-(p.year or 0), p.title or p.label, p.id))
    if not papers:
        return pipeline.refusal(question, "No paper in the collection matches the filter.", Timings(), t0)
    sources = []
    for i, p in enumerate(papers[:LIST_MAX]):
        gist = pipeline.evidence.gist(p)
        evidence = [gist] if gist else pipeline.evidence.select(main_points(), p, k=1)
        sources.append(Source(i + 1, PaperHit(p, 1.0), evidence))
    text = render(sources, "", listing=True, matched=len(papers), scope=scope)
    elapsed = time.perf_counter() - t0
    return Answer(
        question=question,
        text=text,
        citations=[citation(s) for s in sources],
        hits=[s.hit for s in sources],
        backend="none",
        note=f"every paper the filter ({description}) lets through, from the paper records" if description
        else "every paper of the collection, from the paper records",
        matched=len(papers),
        timings=Timings(evidence=elapsed, total=elapsed),
        kind="list",
    )
