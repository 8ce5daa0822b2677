"""Requests for a table, read from a chat message: what its rows are and what its columns are.

"table of the papers on RL with columns benchmark, result", "compare all the papers on T by
dataset and result", "..., as a table": :func:`split_table` splits the request;
:func:`column_phrases` splits the column list. :mod:`rag.question.reader` makes the plan of a table
from them (intent ``table``).
"""

from __future__ import annotations

import re

from rag.text import content_terms, tokenize

__all__ = ["asks_table", "column_phrases", "split_table"]

# A request for a table: "a table of", "table of the papers", "as a comparison table", "tabulate",
# "in a spreadsheet", "side by side"; the noun "table" inside a topic ("table question answering")
# is not one, so it must stand as the object of the request or open it.
_TABLE_ASK = re.compile(
    r"^\W*(?:(?:please|can you|could you|would you|let's|i want|i'd like|i need)\s+)*"
    r"(?:(?:make|build|create|give|show|produce|generate|draw up|put together|prepare|get)\s+(?:me\s+|us\s+)?)?"
    r"(?:(?:a|an|the|one)\s+)?(?:[\w-]+\s+)?(?:table|spreadsheet|grid|matrix|csv)\s+"
    r"(?:of|for|on|about|with|comparing|covering|across|over|listing|summari[sz]ing|showing)?\s*"
    r"|^\W*(?:please\s+)?tabulate\s+|\s*,?\s*\b(?:as|in|into)\s+(?:a|one)\s+(?:[\w-]+\s+)?(?:table|spreadsheet|grid)\b\W*"
    r"|\s*,?\s*side[- ]by[- ]side\W*$",
    re.I,
)
# "compare all the papers on T by ...", "compare every paper about T": a comparison across a set.
_COMPARE_SET = re.compile(
    r"^\W*(?:(?:please|can you|could you)\s+)*(?:compare|contrast)\s+(?=(?:all|every|each|the|these|those)\b)",
    re.I,
)
# Where the columns start: "with (the) columns", "columns:", "with their/its", "by (their)",
# "in terms of", "showing/listing/giving/reporting (their)", "on their".
_COLUMNS_AT = re.compile(
    r"\s*[,;:]?\s*(?:\b(?:with|using|and)\s+(?:the\s+)?(?:following\s+)?columns?\b|\bcolumns?\b|"
    r"\b(?:with|showing|listing|giving|reporting|including|stating)\s+(?:for\s+each\s+)?(?:their|its|each(?:'s)?|the)\b|"
    r"\bby\s+(?:their\s+|its\s+)?|\bin\s+terms\s+of\b(?:\s+their)?|\bon\s+(?:their|its)\b|\bcolumns?\s*:|:(?=\s))\s*:?\s*",
    re.I,
)
# What a request for a table may open with before naming its rows ("can you put ...", "please list ...").
_REQUEST = re.compile(
    r"^\W*(?:(?:please|can you|could you|would you|kindly)\s+)*(?:put|lay out|arrange|list|show|compare|contrast)\s+",
    re.I,
)
_TABLE_WORD = re.compile(r"\b(?:tables?|tabulate|spreadsheets?|side[- ]by[- ]side|grid|matrix|csv)\b", re.I)
_ARTICLES = frozenset("a an the their its each and or".split())
_COLUMN_SPLIT = re.compile(r"\s*(?:[,;/&]|\band\b|\bplus\b|\bas well as\b)\s*", re.I)


def _has_words(text: str) -> bool:
    """Whether ``text`` holds a word besides articles and possessives ("method" does; "the" does not)."""
    return any(t not in _ARTICLES for t in tokenize(text))


def column_phrases(text: str) -> tuple[str, ...]:
    """The column phrases of a list ("benchmark, main result and code link" -> three), each without
    a leading article or possessive and kept once (any letter case)."""
    out: dict[str, str] = {}
    for p in _COLUMN_SPLIT.split(text):
        p = re.sub(r"^(?:the|their|its|each(?:'s)?|a|an)\s+", "", p.strip(" .?:!\"'"), flags=re.I).strip()
        if _has_words(p):
            out.setdefault(p.lower(), p)
    return tuple(out.values())


def asks_table(query: str) -> bool:
    """Whether the message says "table" (or "tabulate", "spreadsheet", "side by side"), not only "compare"."""
    return bool(_TABLE_WORD.search(query))


def split_table(query: str) -> tuple[str, str] | None:
    """A request for a table, split into what its rows are and what its columns are.

    The request is a table word that opens it or that it asks for ("make a table of ...",
    "table of the papers on ...", "..., as a table", "tabulate ...") or a comparison of a whole set
    ("compare all the papers on T by ..."); the columns follow the last column word
    (:data:`_COLUMNS_AT`: "with columns", "with their", "by", "in terms of", ...).

    Examples:
        "table of the papers on RL with columns A, B, C" -> ("the papers on RL", "A, B, C");
        "compare all the papers on RL by dataset and result" -> ("all the papers on RL", "dataset and result");
        "make a table of DANCE, APM and SENDAI" -> ("DANCE, APM and SENDAI", "").

    Returns:
        ``(rows, columns)`` (``columns`` ``""`` when none are asked), or ``None`` when the message
        asks for no table.
    """
    text = query.strip()
    start = _TABLE_ASK.search(text) or _COMPARE_SET.search(text)
    if start is None:
        return None
    body = (text[: start.start()] + " " + text[start.end() :]).strip() if start.start() else text[start.end() :]
    cut = list(_COLUMNS_AT.finditer(body))
    cut = [m for m in cut if content_terms(body[: m.start()]) and _has_words(body[m.end() :])]
    if not cut:
        return _REQUEST.sub("", body).strip(" ?.!"), ""
    m = cut[-1] if len(cut) == 1 or not cut[0].group(0).strip().lower().startswith("by") else cut[0]
    return _REQUEST.sub("", body[: m.start()]).strip(" ,;:?.!"), body[m.end() :].strip(" ?.!")
