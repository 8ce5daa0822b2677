"""Which language a question is in: English, or another one the English embedder cannot judge."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.text import STOPWORDS
from rag.vocabulary import beside

__all__ = ["looks_non_english"]

_ENGLISH_FUNCTION_WORDS = beside(__file__, "language")["english_function_word"].words
_ENGLISH_ONLY = beside(__file__, "language")["english_only_function_word"].words

_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl")
"""Languages ``simplemma``'s detector weighs a Latin-script question against (English first wins ties)."""


ENGLISH_SHARE = 0.6
"""Least share of a question's words English's dictionary knows for an English-only function word
("which", "papers", "the") to make it English: "Which papers tackle recommender systems?" is 0.75
English and scored German 1.0 on loanwords; German, French and Spanish questions of the tests hold
no such word. Set by hand."""

KEYWORD_WORDS = 2
"""Longest keyword query (words) that is English when the abstracts use one of its words: two
words carry too little for the dictionaries ("timeseries forecasting" scored Spanish, "AFA" Italian)."""


def looks_non_english(text: str, known: Callable[[str], bool] | None = None) -> bool:
    """Whether ``text`` is probably not English.

    Mostly non-Latin letters: not English. Otherwise ``simplemma``'s dictionary-based language
    detector decides among :data:`_LANGUAGES` (another language must score higher than English),
    so English shorthand ("DANCE accuracy gain?", "autonomous driving LiDAR perception") stays
    English; a question whose words English mostly knows (``ENGLISH_SHARE``) and that holds a
    function word no other of these languages has ("which", "the", "papers") is English. When
    the detector knows none of the words, the old rule applies: three or more words, none an
    English function word, and (when ``known`` says which words the abstracts use) fewer than
    half of them known.
    """
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    if sum(1 for c in letters if not c.isascii()) >= 0.5 * len(letters):
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    if known is not None and len(words) <= KEYWORD_WORDS and any(known(w) for w in words):
        return False  # keywords the abstracts use ("timeseries forecasting", "AFA") are no language of their own
    import simplemma

    # English alone first: each language's share of known words is computed on its own, so when
    # English knows every word no language can score higher and the answer is already English;
    # the other six dictionaries (about 3 s to load on two cores) are read only when it does not.
    english = dict(simplemma.langdetect(text, lang=("en",))).get("en", 0.0)
    if english >= 1.0:
        return False
    if english >= ENGLISH_SHARE and any(w in _ENGLISH_ONLY for w in words):
        return False  # "Which papers tackle recommender systems?": German's loanwords know "recommender"
    scores = dict(simplemma.langdetect(text, lang=_LANGUAGES))
    scores.pop("unk", None)  # the share no dictionary knows ("vlm", "sft") is no language
    best = max(scores.values(), default=0.0)
    if best > 0:
        return scores.get("en", 0.0) < best
    if len(words) < 3 or any(w in _ENGLISH_FUNCTION_WORDS or w in STOPWORDS for w in words):
        return False
    return known is None or 2 * sum(1 for w in words if known(w)) < len(words)
