"""Requests for a comparison, read from a chat message: the two sides it names and whether a
second side is stated explicitly.

"Compare A and B: what ...", "A vs B", "A differs from B", "A or B - how does each ...": the
words that name the sides are cut from the request (:func:`comparison_sides`);
:mod:`rag.question.reader` makes the plan of a comparison from them (intent ``compare``).
The words of each part are classes of ``vocabulary/comparison.toml``; the code holds the structure.
"""

from __future__ import annotations

import re

from rag.question.phrasing import asks
from rag.text import split_sentences
from rag.vocabulary import beside

__all__ = ["TWO", "compare_frame", "comparison_sides", "explicit_two"]

_VOCABULARY = beside(__file__, "comparison")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

# "the two federated learning papers", "both distillation methods": two papers by a shared topic.
TWO = re.compile(
    rf"\b{_V['two_of']}\s+(?P<topic>(?:(?!{_V['two_stop']})[\w-]+\s+){{1,6}}?){_V['two_head']}",
    re.I,
)
# A word that links the two sides (group 1), or punctuation between them.
_CONNECTOR = re.compile(rf"\s+({_V['connector']})\s+|\s*(?:[,:;?]|\s-\s)\s*(?=\S)", re.I)
_STRONG = _VOCABULARY["strong_connector"].words


def _sides(text: str) -> list[tuple[str, str]]:
    """Ways to split "A and B" / "A vs B" / "A with B" into two references, likeliest first."""
    found = []
    for m in _CONNECTOR.finditer(text):
        word = (m.group(1) or "").lower()
        a, b = text[: m.start()].strip(), text[m.end() :].strip()
        if a and b and word:
            found.append((word not in _STRONG, m.start(), (a, b)))
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


_COMPARE_STRIP = re.compile(rf"^\s*{_V['compare_opener']}\s+", re.I)
# "A differs from B", "A compared with B", "A is different from B": the words between the sides.
_COMPARE_LINK = re.compile(rf"\s+(?:{_V['copula']}\s+)?{_V['compare_link']}\s+", re.I)
_COMPARE_TAIL = re.compile(
    rf"\s+{_V['tail_word']}.*$|\s*[:?].*$|\s+[-–—]+\s+.*$|\s+{_V['by_their']}.*$|,?\s+in terms of\b.*$", re.I
)


def compare_frame(query: str, word: re.Pattern[str]) -> tuple[str, str]:
    """The sentence of a message that holds its request to compare, and the message from it on.

    The first sentence that asks and holds a word of ``word`` (the reader's ``compare_word``:
    "compare", "vs", "differ"; else the first that holds one) names the sides; what is asked of
    them is in it or after it. Context before it names no side and asks nothing: "Our lab trains
    generative models for synthetic EHR data. We tried CTGAN but it suffers from mode collapse ...
    Is there a diffusion approach for mixed-type tabular data, and what does it compare against?"
    -> its last sentence, twice (was split at "suffers from" into two "papers" to compare).
    ``(query, query)`` when the message is one sentence or holds no such word."""
    sentences = split_sentences(query)
    holding = [s for s in sentences if word.search(s.text)] if len(sentences) > 1 else []
    # a sentence that asks (:func:`rag.question.phrasing.asks`) before one that tells: "We benchmark
    # detectors and they differ from run to run. Is there a paper ..., and what does it compare against?"
    frame = next((s for s in holding if asks(s.text)), holding[0] if holding else None)
    if frame is None:
        return query, query
    return frame.text, query[frame.start :]


def comparison_sides(query: str) -> list[tuple[str, str]]:
    """Ways to split a comparison request into its two sides, likeliest first:
    "Compare DANCE and APM: what does each distill?" -> ``[("DANCE", "APM")]``. A split at the words
    that ask to compare ("How does A with B compare with C?", "A compared to B") comes first: the
    question links its sides there, whatever "with" or "and" its sides hold."""
    sides = _sides(_compare_body(query))
    link = _COMPARE_LINK.search(_COMPARE_STRIP.sub("", query))
    if link is None:
        return sides
    first = _COMPARE_STRIP.sub("", query)[: link.start()].strip(" ?.!")
    return sorted(sides, key=lambda s: s[0] != first)


def _compare_body(query: str) -> str:
    """The part of a comparison that names the two sides: "Compare A and B: what ..." -> "A and B"."""
    body = _COMPARE_LINK.sub(" versus ", _COMPARE_STRIP.sub("", query))
    return _COMPARE_TAIL.sub("", body).strip(" ?.!")


def against_baseline(query: str) -> bool:
    """Whether the second side of a comparison names what a paper is measured against, not a paper
    ("what acceleration does it report compared with conditional computation approaches?",
    "vs. prior work": classes ``baseline_side`` and ``baseline_head``)."""
    sides = comparison_sides(query)
    if not sides:
        return False
    other = sides[0][1].strip(" ,?.!")
    m = _VOCABULARY["baseline_side"].pattern.match(other)
    if m and (m.end() == len(other) or other[m.end()] == " "):
        return True
    return bool(other.split()) and other.split()[-1].lower() in _VOCABULARY["baseline_head"].words


def explicit_two(query: str) -> bool:
    """An explicit second side: "X vs Y", "compare X with Y", "differ from Y"; not when that side
    names what a paper is measured against ("compared with the strongest baseline": class
    ``baseline_side``), which asks a measure of one paper, not a comparison of two, or opens
    another question ("..., and what is it compared against?": class ``question_side``)."""
    body = _compare_body(query)
    second = _VOCABULARY["second_side"].search(body)
    if second is None:
        return False
    sides = comparison_sides(query)
    other = (sides[0][1] if sides else body[second.end() :]).strip(" ,?.!")
    m = _VOCABULARY["baseline_side"].pattern.match(other)
    if m and (m.end() == len(other) or other[m.end()] == " "):  # "prior work" / "prior work on storage"
        return False
    if other.split() and other.split()[-1].lower() in _VOCABULARY["baseline_head"].words:  # "high-frequency methods"
        return False
    return not _VOCABULARY["question_side"].pattern.match(other)  # "..., and what is it compared against"
