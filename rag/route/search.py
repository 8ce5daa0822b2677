"""Finding papers without answering: the ranked papers of a query, each with its best evidence
sentences (what the MCP ``search_papers`` tool returns).

Same retriever and evidence selector as the answers; no prose, no refusal: the hits are ranked,
and each says whether it passes the relevance floors an answer would apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from rag.route.answer import AnswerPipeline
from rag.route.filters import Filters
from rag.types import Evidence, PaperHit

__all__ = ["Found", "search_papers"]


@dataclass(frozen=True)
class Found:
    """One paper found for a query.

    Attributes:
        hit: The retrieval hit (paper and scores, see :class:`rag.types.PaperHit`).
        evidence: Its abstract sentences closest to the query, best first; each an exact span
            of the abstract (``abstract[start:end] == sentence``).
        relevant: Whether the paper passes the relevance floors an answer applies (best chunk
            cosine >= ``retrieval.relevance_floor`` or term coverage >= ``retrieval.coverage_floor``).
    """

    hit: PaperHit
    evidence: tuple[Evidence, ...]
    relevant: bool


def search_papers(
    pipeline: AnswerPipeline, query: str, *, k: int = 5, filters: Filters | None = None
) -> tuple[list[Found], str]:
    """The ``k`` papers that best match ``query`` within ``filters``, best first.

    Args:
        pipeline: The loaded pipeline (its retriever and evidence selector are used).
        query: What to look for (any text; an empty query finds nothing).
        k: Most papers returned, 1-50.
        filters: Year / venue / author restrictions (``None``: the whole collection).

    Returns:
        ``(found, note)``: the papers, and the filter note (``""`` when nothing restricts).

    Raises:
        ValueError: ``k`` outside 1-50.
    """
    if not 1 <= k <= 50:
        raise ValueError(f"k must be between 1 and 50 (got {k})")
    if not query.strip():
        return [], ""
    papers = pipeline.catalogue.papers
    filters = filters or Filters()
    stated, rest = pipeline.reader.stated(query, filters.reads)
    plan = filters.plan(stated, papers)
    rs = pipeline.settings.retrieval
    per_paper = pipeline.settings.answer.evidence_per_paper
    hits = pipeline.retriever.search(pipeline.reader.search_query(rest), allowed=plan.allowed).hits[:k]
    ask = pipeline.reader.ask(rest)
    found = [
        Found(
            hit=h,
            evidence=tuple(pipeline.evidence.select(ask, h.paper, k=per_paper)),
            relevant=h.dense >= rs.relevance_floor or h.coverage >= rs.coverage_floor,
        )
        for h in hits
    ]
    return found, plan.note
