"""Details abstracts do not state: what a question asks for when it asks for one.

Authors, how to contact them, affiliations, licences, dates, hardware, funding, ablations,
hyper-parameters, model sizes and review outcomes are read from the question by the patterns of
:data:`DETAIL_PATTERNS` (one class each, whatever the phrasing; their words are classes of ``vocabulary/details.toml``);
:class:`rag.route.refusal.RefusalPolicy` refuses them unless the records or the abstract state
them after all.
"""

from __future__ import annotations

import re

from rag.question.phrasing import FRAME_WORDS
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = ["DETAIL_PATTERNS", "MODEL_SIZE", "asked_detail", "asks_year", "detail_only"]

_VOCABULARY = beside(__file__, "details")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

MODEL_SIZE = re.compile(rf"\d+(?:\.\d+)?\s?[BM]\b|{_V['size_unit']}\s+parameters\b")  # case-sensitive
"""A model size a sentence states: "Agent-Omit-8B", "3B–72B models", "1.3 billion parameters"."""
_VENUE = _V["venue"]
"""A venue a paper is submitted to, as questions about its review name it."""

# Each detail: its phrases (a class of vocabulary/details.toml) and the few structures around them.
_DETAILS = {
    # where the authors work before who they are: "which universities are the authors of X
    # affiliated with?" asks the affiliations, which no record holds
    "affiliations": rf"{_V['affiliation']}|"
    # where the authors are: "which country are the CA-SOADD authors based in?", "FlexGen authors' country?"
    rf"\bauthors?\W*\s+(?:\w+\s+){{0,3}}?{_V['author_place']}|{_V['author_place']}\s+(?:\w+\s+){{0,3}}?(?:the\s+)?authors?\b|"
    # ... or which company or university they are from: "papers by Google authors"
    rf"{_V['organisation']}\s+(?:\w+\s+){{0,2}}?authors?\b|\bauthors?\s+(?:\w+\s+){{0,3}}?{_V['organisation']}",
    # how to reach the authors before who they are: "email of Hyena's first author", "how do I contact
    # the authors of X?", "the authors' homepage" (no record holds it; the refusal names what it holds)
    "contact details": rf"{_V['contact']}\s+(?:\S+\s+){{0,4}}?authors?\b|"
    rf"\bauthors?(?:['’]s?)?\s+(?:\S+\s+){{0,3}}?{_V['contact']}",
    # "authors" as what is asked, not as the subject of a finding ("what do its authors discover").
    "authors": rf"{_V['author_phrase']}|{_V['who_is_the']}\s+authors?|\bauthors? of\b(?!.*{_V['finding_verb']})|"
    r"\bauthor(s|ship)?\W*$",
    "licence": _V["licence"],
    "publication date": rf"{_V['date_phrase']}|\b{_V['which']} year is\b.*\bfrom\b|"
    rf"\b{_V['which']} {_V['month_year']}.*{_V['appeared']}",
    "hardware or compute": rf"{_V['hardware_phrase']}|"
    rf"\bhow long {_V['duration_aux']} \S+ (?:take )?(?:to )?{_V['train_verb']}",
    "funding": _V["funding"],
    # "RIN ablation without self-conditioning?", "did they ablate the teacher?": stated only by a
    # sentence that writes an ablation ("validated through extensive ablation studies")
    "ablations": _V["ablation"],
    "hyper-parameters": _V["hyperparameter"],
    "model size": rf"{_V['model_size_phrase']}|{_V['big']} is (?:{_V['this_det']} )?(?:[\w-]+ )?model\b",
    # Peer review: acceptance or rejection at a venue, presentation tier, reviewers' scores, awards.
    # "acceptance region", "rejection sampling", "MH rejects proposals" are methods, not outcomes.
    "review outcomes": rf"{_V['decision']}(?:\W+\w+){{0,4}}?\W+{_V['venue_prep']}\s+(?:the\s+)?{_VENUE}|"
    rf"{_VOCABULARY['venue'].bare}\b\W+(?:\w+\W+){{0,3}}{_V['verdict']}|"
    rf"{_V['submission_subject']}\s+{_V['was_got']}\s+(?:\w+\s+)?{_V['accepted']}|"
    rf"{_V['status_aux']}\s+(?:{_V['status_pronoun']}|{_V['status_det']}\s+(?:\w+\s+)?{_V['status_noun']}|"
    rf"(?-i:[A-Z][\w-]*[A-Z0-9][\w-]*))\s+(?:{_V['status_adverb']}\s+)?{_V['accepted']}|"
    rf"{_V['peer_copula']}\s+(?:\w+\s+)?peer[- ]reviewed\b|"
    rf"{_V['win']}\s+(?:{_V['award_article']}\s+)?(?:\w+\s+)?awards?\b|"
    rf"{_V['review_phrase']}",
}
DETAIL_PATTERNS = {k: re.compile(v, re.I) for k, v in _DETAILS.items()}
# Words a question about a detail uses besides the detail and the frame ("when was the paper
# published", "what hardware was used for training", "any funding information"): no topic.
_DETAIL_FILLER = _VOCABULARY["detail_filler"].words


def detail_only(query: str, metadata: str) -> bool:
    """A question that asks for a detail abstracts do not state and nothing else: no content word
    left once every detail phrase, frame word and filler word is gone."""
    if not metadata:
        return False
    rest = query
    for pat in DETAIL_PATTERNS.values():
        rest = pat.sub(" ", rest)
    return not [t for t in content_terms(rest) if t not in FRAME_WORDS and t not in _DETAIL_FILLER]


_VARIABLE_BEFORE = re.compile(
    rf"(?:{_V['change_verb']}\s+(?:[\w-]+\s+){{0,3}}?(?:with|against)|{_V['variable_link']})\s+"
    r"(?:(?:the|its|their|a|an)\s+)?$",
    re.I,
)
"""What stands before a detail that is the variable of a relation, not what is asked: "How does
translation quality grow with <parameter count>?", "accuracy as a function of <model size>"."""


def asked_detail(query: str) -> str:
    """The detail ``query`` asks for (a key of :data:`DETAIL_PATTERNS`, e.g. ``"funding"``), or ``""``.
    A detail named as the variable something changes with (:data:`_VARIABLE_BEFORE`: "how does
    quality grow with parameter count?") is not asked: the question asks how it changes."""
    for kind, pat in DETAIL_PATTERNS.items():
        if any(not _VARIABLE_BEFORE.search(query[: m.start()]) for m in pat.finditer(query)):
            return kind
    return ""


_YEAR_ASKED = _VOCABULARY["year_asked"].words
_FINER_DATE = _VOCABULARY["finer_date"].words


def asks_year(phrase: str) -> bool:
    """Whether the words that ask a publication date ask only its year ("what year is it from",
    "publication year"; vocabulary ``year_asked``), not a finer date ("which month and year",
    ``finer_date``): the records hold a paper's year (:attr:`store.papers.Paper.year`)."""
    words = set(re.findall(r"[a-z]+", phrase.lower()))
    return bool(words & _YEAR_ASKED) and not words & _FINER_DATE
