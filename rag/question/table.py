"""Requests for a table, read from a chat message: what its rows are and what its columns are.

"table of the papers on RL with columns benchmark, result", "compare all the papers on T by
dataset and result", "..., as a table": :func:`split_table` splits the request;
:func:`column_phrases` splits the column list. :mod:`rag.question.reader` makes the plan of a table
from them (intent ``table``). The words are classes of ``vocabulary/table.toml``.
"""

from __future__ import annotations

import re

from rag.text import content_terms, tokenize
from rag.vocabulary import beside

__all__ = ["asks_table", "column_phrases", "split_table"]

_VOCABULARY = beside(__file__, "table")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

# A request for a table: "a table of", "table of the papers", "as a comparison table", "tabulate",
# "in a spreadsheet", "side by side"; the noun "table" inside a topic ("table question answering")
# is not one, so it must stand as the object of the request or open it.
_TABLE_ASK = re.compile(
    rf"^\W*(?:{_V['table_request_lead']}\s+)*(?:{_V['make_verb']}\s+(?:{_V['to_us']}\s+)?)?"
    rf"(?:{_V['table_article']}\s+)?(?:[\w-]+\s+)?{_V['table_noun']}\s+(?:{_VOCABULARY['table_of'].bare})?\s*"
    r"|^\W*(?:please\s+)?tabulate\s+"
    rf"|\s*,?\s*\b{_V['into']}\s+{_V['a_one']}\s+(?:[\w-]+\s+)?{_V['as_table_noun']}\W*"
    r"|\s*,?\s*side[- ]by[- ]side\W*$",
    re.I,
)
# "compare all the papers on T by ...", "compare every paper about T": a comparison across a set.
_COMPARE_SET = re.compile(
    rf"^\W*(?:{_V['compare_polite']}\s+)*{_V['compare_verb']}\s+(?={_V['set_determiner']})", re.I
)
# Where the columns start: "with (the) columns", "columns:", "with their/its", "by (their)",
# "in terms of", "showing/listing/giving/reporting (their)", "on their".
_COLUMNS_AT = re.compile(
    rf"\s*[,;:]?\s*(?:{_V['columns_named']}|{_V['column_cue']}|\bby\s+(?:{_V['possessive']}\s+)?|"
    r"\bin\s+terms\s+of\b(?:\s+their)?|\bcolumns?\s*:|:(?=\s))\s*:?\s*",
    re.I,
)
# What a request for a table may open with before naming its rows ("can you put ...", "please list ...").
_REQUEST = re.compile(rf"^\W*(?:{_V['request_lead']}\s+)*{_V['arrange_verb']}\s+", re.I)
_TABLE_WORD = _VOCABULARY["table_word"].pattern
_ARTICLES = _VOCABULARY["article"].words
_COLUMN_SPLIT = re.compile(rf"\s*(?:[,;/&]|{_V['column_joiner']})\s*", re.I)
_COLUMN_ARTICLE = re.compile(rf"^{_V['column_article']}\s+", re.I)


def _has_words(text: str) -> bool:
    """Whether ``text`` holds a word besides articles and possessives ("method" does; "the" does not)."""
    return any(t not in _ARTICLES for t in tokenize(text))


def column_phrases(text: str) -> tuple[str, ...]:
    """The column phrases of a list ("benchmark, main result and code link" -> three), each without
    a leading article or possessive and kept once (any letter case)."""
    out: dict[str, str] = {}
    for p in _COLUMN_SPLIT.split(text):
        p = _COLUMN_ARTICLE.sub("", p.strip(" .?:!\"'")).strip()
        if _has_words(p):
            out.setdefault(p.lower(), p)
    return tuple(out.values())


def asks_table(query: str) -> bool:
    """Whether the message says "table" (or "tabulate", "spreadsheet", "side by side"), not only "compare"."""
    return bool(_TABLE_WORD.search(query))


_ROWS_PRONOUN = _VOCABULARY["rows_pronoun"].words


def _names_rows(text: str) -> bool:
    """Whether ``text``, before a column word, says what the rows are: a content word ("the RL
    papers") or a pronoun for the papers of a list ("tabulate them by dataset, result")."""
    return bool(content_terms(text)) or any(w.lower() in _ROWS_PRONOUN for w in text.split())


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
    cut = [m for m in cut if _names_rows(body[: m.start()]) and _has_words(body[m.end() :])]
    if not cut:
        return _REQUEST.sub("", body).strip(" ?.!"), ""
    m = cut[-1] if len(cut) == 1 or not cut[0].group(0).strip().lower().startswith("by") else cut[0]
    return _REQUEST.sub("", body[: m.start()]).strip(" ,;:?.!"), body[m.end() :].strip(" ?.!")
