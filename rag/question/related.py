"""Requests for the papers like one paper ("papers like DANCE", "more like [2]", "anything similar
to APM?"), read from the words of ``vocabulary/related.toml``.

A message asks for related papers when it states a row of ``like_one`` and, once that row and the
references to its paper are taken out, no content word is left but the request's own fillers
(``related_filler``: "find me", "recommend", "other papers"). Whether it refers to exactly one
paper is the reader's to say (:meth:`rag.question.reader.Reader.read`): "Is DANCE like APM?" names
two and stays a comparison; "What does DANCE look like?" leaves "look" and stays a question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.text import content_terms
from rag.vocabulary import beside

__all__ = ["asks_similar"]

_VOCABULARY = beside(__file__, "related")
_LIKE = _VOCABULARY["like_one"]
_FILLER = _VOCABULARY["related_filler"].words


def asks_similar(query: str, refs: Sequence[str]) -> bool:
    """Whether ``query`` asks only for the papers like the paper it refers to.

    Args:
        query: The question (stated filters already taken out).
        refs: The texts of its references to papers, as written ("DANCE", "[2]", "the
            ride-hailing paper").

    Returns:
        True when a ``like_one`` row occurs in ``query`` and, without it and ``refs``, every
        content word left is a ``related_filler`` word.
    """
    if not _LIKE.search(query):
        return False
    rest = query
    for ref in sorted(refs, key=len, reverse=True):
        if ref:
            rest = re.sub(rf"(?<![\w-]){re.escape(ref)}(?![\w-])", " ", rest, flags=re.I)
    rest = _LIKE.pattern.sub(" ", rest)
    return all(t in _FILLER for t in content_terms(rest))
