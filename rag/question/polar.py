"""Yes/no questions about a paper: whether a question asks yes or no (:func:`polar`) and the terms
a sentence must state for "yes" (:func:`polar_terms`). Read by the question model
(:mod:`rag.question.reader`); ``tests/test_question.py`` checks each with phrasings it was not written for.
"""

from __future__ import annotations

from rag.question.phrasing import WORD
from rag.text import content_terms

__all__ = ["polar", "polar_terms"]

# Auxiliaries that open a yes/no question ("Does DANCE use LLMs?", "Is APM evaluated on Flickr30k?").
_AUXILIARIES = frozenset("does do did is are was were can could has have had will would should may might".split())
# Words after the auxiliary that make it a request for papers or to the assistant, not a yes/no
# question about a paper ("Are there papers on ...", "Do you have ...", "Does any paper ...").
_NOT_POLAR_SUBJECTS = frozenset("there you u we i any anything some someone anyone".split())
# Leading words that only join the question to the conversation ("And does it ...", "So is ...").
_JOINERS = frozenset("and so also then but ok okay".split())
# Generic head nouns a term before them implies ("MODIS data", "a frozen LVLM model").
_GENERIC_HEADS = frozenset(
    "data dataset datasets model models method methods approach approaches framework frameworks".split()
)
# Verbs and nouns of a yes/no question that only relate the paper to what is asked ("does it
# *use* X", "is it *evaluated on* Y", "does the *abstract mention* Z"): not what a sentence must state.
_POLAR_GENERIC = frozenset(
    """use uses used using employ employs employed rely relies relied apply applies applied leverage leverages
    leveraged adopt adopts adopted evaluate evaluates evaluated evaluation test tests tested experiment experiments
    report reports reported mention mentions mentioned include includes included involve involves involved
    consider considers considered address addresses addressed have has had need needs needed require requires
    required make makes made get gets got abstract abstracts state states stated say says said talk talks
    discuss discusses discussed rely anything something any""".split()
)


def polar(query: str) -> bool:
    """Whether a question asks yes or no: it opens (after "and"/"so") with an auxiliary whose
    subject is not "there", "you" or "any" ("Does DANCE use LLMs?", "Is it evaluated on
    Flickr30k?"; not "Are there papers on ...", "Do you have ...", "Does any paper ...")."""
    words = [w.lower() for w in WORD.findall(query)]
    while words and words[0] in _JOINERS:
        words = words[1:]
    return len(words) >= 3 and words[0] in _AUXILIARIES and words[1] not in _NOT_POLAR_SUBJECTS


def polar_terms(aspect: str) -> tuple[str, ...]:
    """The content terms a yes/no question asks a paper to state: its aspect without the
    auxiliary and the words that only relate paper and thing ("use", "evaluated", "mention").

    "Does use LLM surrogates" -> ``("llm", "surrogates")``; order kept, each term once. A generic
    head noun after another term ("MODIS data", "a frozen LVLM model") is implied by it: an
    abstract says "reconstructing MODIS ... fields", not "MODIS data".
    """
    terms = [t for t in content_terms(aspect) if t not in _POLAR_GENERIC]
    kept = [t for i, t in enumerate(terms) if not (i and t in _GENERIC_HEADS)]
    return tuple(dict.fromkeys(kept))
