"""Requests for a comparison, read from a chat message: the two sides it names and whether a
second side is stated explicitly.

"Compare A and B: what ...", "A vs B", "A differs from B", "A or B - how does each ...": the
words that name the sides are cut from the request (:func:`comparison_sides`);
:mod:`rag.question.reader` makes the plan of a comparison from them (intent ``compare``).
"""

from __future__ import annotations

import re

__all__ = ["TWO", "comparison_sides", "explicit_two"]

# "the two federated learning papers", "both distillation methods": two papers by a shared topic.
TWO = re.compile(
    r"\b(?:(?:the|these|those)\s+two|both(?:\s+the)?)\s+(?P<topic>(?:(?!papers?\b|and\b|with\b)[\w-]+\s+){1,6}?)"
    r"(?:papers|works|studies|methods)\b",
    re.I,
)
_CONNECTOR = re.compile(
    r"\s+(with|versus|vs\.?|against|to|and|or|from)\s+|\s*(?:,|:|;|\s-\s|\?)\s*(?=\S)", re.I
)


def _sides(text: str) -> list[tuple[str, str]]:
    """Ways to split "A and B" / "A vs B" / "A with B" into two references, likeliest first."""
    strong = {"with", "versus", "vs", "vs.", "against", "from"}
    found = []
    for m in _CONNECTOR.finditer(text):
        word = (m.group(1) or "").lower()
        a, b = text[: m.start()].strip(), text[m.end() :].strip()
        if a and b and word:
            found.append((word not in strong, m.start(), (a, b)))
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


_COMPARE_STRIP = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:compare|contrast)\s+|^\s*(?:what(?:'s| is| are)\s+)?(?:the\s+)?"
    r"differences?\s+between\s+|^\s*how\s+(?:does|do|is|are)\s+",
    re.I,
)
# "A differs from B", "A compared with B", "A is different from B": the words between the sides.
_COMPARE_LINK = re.compile(
    r"\s+(?:(?:is|are)\s+)?(?:differ(?:s|ent)?\s+from|compared?\s+(?:to|with|against)|"
    r"(?:is|are)\s+similar\s+to)\s+",
    re.I,
)
_COMPARE_TAIL = re.compile(
    r"\s+(?:differ|compare|different|similar)\b.*$|\s*[:?].*$|\s+[-–—]+\s+.*$|"
    r"\s+(?:on|in|by|regarding|with respect to)\s+their\b.*$|"
    r",?\s+in terms of\b.*$",
    re.I,
)


def comparison_sides(query: str) -> list[tuple[str, str]]:
    """Ways to split a comparison request into its two sides, likeliest first:
    "Compare DANCE and APM: what does each distill?" -> ``[("DANCE", "APM")]``."""
    return _sides(_compare_body(query))


def _compare_body(query: str) -> str:
    """The part of a comparison that names the two sides: "Compare A and B: what ..." -> "A and B"."""
    body = _COMPARE_LINK.sub(" versus ", _COMPARE_STRIP.sub("", query))
    return _COMPARE_TAIL.sub("", body).strip(" ?.!")


def explicit_two(query: str) -> bool:
    """An explicit second side: "X vs Y", "compare X with Y", "differ from Y"."""
    return bool(re.search(r"\b(vs\.?|versus|with|from|and|or|to)\b", _compare_body(query), re.I))
