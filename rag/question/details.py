"""Details abstracts do not state: what a question asks for when it asks for one.

Authors, affiliations, licences, dates, hardware, funding, hyper-parameters, model sizes and
review outcomes are read from the question by the patterns of :data:`DETAIL_PATTERNS` (one
class each, whatever the phrasing); :class:`rag.route.refusal.RefusalPolicy` refuses them unless the
records or the abstract state them after all.
"""

from __future__ import annotations

import re

from rag.question.phrasing import FRAME_WORDS
from rag.text import content_terms

__all__ = ["DETAIL_PATTERNS", "MODEL_SIZE", "asked_detail", "detail_only"]

MODEL_SIZE = re.compile(r"\d+(?:\.\d+)?\s?[BM]\b|\b(?:million|billion)\s+parameters\b")
"""A model size a sentence states: "Agent-Omit-8B", "3B–72B models", "1.3 billion parameters"."""

_VENUE = (
    r"(neurips|nips|icml|iclr|cvpr|iccv|eccv|acl|emnlp|naacl|coling|aaai|ijcai|kdd|colt|aistats|uai|tmlr|jmlr|"
    r"sigir|icra|iros|corl|interspeech|icassp|miccai|(the\s+)?(conference|journal|workshop|venue|main track)s?)\b"
)
"""A venue a paper is submitted to, as questions about its review name it."""
_DETAILS = {
    # "authors" as what is asked, not as the subject of a finding ("what do its authors discover").
    "authors": r"\bwho (are|were|is) the authors?|"
    r"\bauthors? of\b(?!.*\b(discover|find|show|report|argue|observe|propose)\w*)|"
    r"\bauthor(s|ship)?\W*$|\bauthor list\b|\bwho wrote\b|"
    r"\b(written|authored) by\b|\bby whom\b|\b(researchers|people|team|group|names) behind\b|\bfirst author\b|"
    r"\bnames of the (authors|researchers)\b",
    "affiliations": r"\buniversit(y|ies)\b|\bcompan(y|ies)\b|\binstitution\w*|\baffiliat\w*|\blab(oratory)?\b|"
    r"\borgani[sz]ations?\b|\bin industry\b|\bwhich (group|team)\b|\bdeveloped at\b",
    "licence": r"\blicen[cs]\w*",
    "publication date": r"\bwhen (was|were)\b|\bwhat date\b|\b(what|which) year is\b.*\bfrom\b|"
    r"\bpublished (on|in what|in which)\b|\brelease date\b|"
    r"\b(which|what) (month|year)\b.*\b(published|released|appear\w*|come out)\b|\bpublication (date|year)\b",
    "hardware or compute": r"\b(which|what|how many) (kind of |type of )?"
    r"(gpus?|tpus?|hardware|machines?|accelerators?)\b|"
    r"\bgpu[- ]hours?\b|\b(trained|run|ran) on (which|what|how many)\b|"
    r"\bhow long (did|does|do|would|will) (it|they|\S+) (take )?(to )?(train|pre-?train|fine-?tune)\b",
    "funding": r"\bfund(ing|ed|s)?\b|\bgrants?\b|\bsponsor(s|ed|ship)?\b",
    "hyper-parameters": r"\blearning rate\b|\bbatch size\b|\bhyper-?parameters?\b|\bweight decay\b|"
    r"\bepochs?\b|\bwarm-?up steps\b|\b(how many|number of) (training |gradient )?(steps|iterations)\b|"
    r"\bdropout\b|\boptimi[sz]er settings\b",
    "model size": r"\bhow many parameters\b|\bparameter counts?\b|\bnumber of parameters\b|\bmodel sizes?\b|"
    r"\bhow (big|large) is (the |its |their |this |that )?([\w-]+ )?model\b",
    # Peer review: acceptance or rejection at a venue, presentation tier, reviewers' scores, awards.
    # "acceptance region", "rejection sampling", "MH rejects proposals" are methods, not outcomes.
    "review outcomes": rf"\b(accept\w*|reject\w*|turned down)\b(\W+\w+){{0,4}}?\W+(at|to|from|by|in|into|for|of)\s+"
    rf"(the\s+)?{_VENUE}|\b(get|gets|got|getting|make|made|makes|making)\s+(it\s+)?(in|into)\s+(the\s+)?{_VENUE}|"
    rf"{_VENUE}\W+(\w+\W+){{0,3}}(accept\w*|reject\w*|decisions?|reviews?)\b|"
    r"\b(papers?|ones?|submissions?|it|they|this|these|which|works?)\s+(was|were|got|get|gets|is|are|been|being)\s+"
    r"(\w+\s+)?(accepted|rejected)\b|\baccepted or (not|rejected)\b|\b(accepted|rejected)\s+(anywhere|somewhere|yet)\b|"
    r"\b(was|were|is|are|got|get|been|has|have)\s+(it|they|this|that|these|those|(the|this|that|these|those|its|"
    r"their|any|all)\s+(\w+\s+)?(papers?|ones?|submissions?|works?|stud(y|ies)|articles?)|"
    r"(?-i:[A-Z][\w-]*[A-Z0-9][\w-]*))\s+(ever\s+|also\s+|eventually\s+|finally\s+|been\s+)?(accepted|rejected)\b|"
    r"\b(acceptance|rejection)\s+(decisions?|status|outcomes?|notifications?|letters?|e-?mails?)\b|"
    r"\b(peer[- ])?review(er|ers|ers'|er's|ing)?\s+(scores?|ratings?|decisions?|outcomes?|comments?|feedback|"
    r"verdicts?|results?|reports?|process)\b|\b(the|its|their)\s+reviewers?\b|"
    r"\breviewers?\s+(say|said|think|thought|score|scored|rate|rated|give|gave|like|liked|want\w*|ask\w*|"
    r"complain\w*|critici[sz]\w*)\b|\b(was|were|is|are|been)\s+(\w+\s+)?peer[- ]reviewed\b|"
    r"\bopenreview\s+(scores?|ratings?|reviews?|decisions?|discussions?)\b|\bmeta-?reviews?\b|\brebuttals?\b|"
    r"\b(orals|spotlights)\b|\b(oral|spotlight)\s+(papers?|presentations?|talks?|slots?|sessions?)\b|"
    r"\bas\s+(an?\s+)?(oral|spotlight|poster)s?\b|\b(best|outstanding)\s+paper(\s+awards?)?\b|"
    r"\b(won|win|wins|winning|received|receive|got|get)\s+(an?\s+|the\s+|any\s+)?(\w+\s+)?awards?\b",
}
DETAIL_PATTERNS = {k: re.compile(v, re.I) for k, v in _DETAILS.items()}
# Words a question about a detail uses besides the detail and the frame ("when was the paper
# published", "what hardware was used for training", "any funding information"): no topic.
_DETAIL_FILLER = frozenset(
    """published publish released release appear appeared come came out used use uses using trained train
    training run ran receive received report reports reported state states stated mention mentions mentioned
    information info details detail exactly know say said wrote written behind first again also then now
    who's whos""".split()
)


def detail_only(query: str, metadata: str) -> bool:
    """A question that asks for a detail abstracts do not state and nothing else: no content word
    left once every detail phrase, frame word and filler word is gone."""
    if not metadata:
        return False
    rest = query
    for pat in DETAIL_PATTERNS.values():
        rest = pat.sub(" ", rest)
    return not [t for t in content_terms(rest) if t not in FRAME_WORDS and t not in _DETAIL_FILLER]


def asked_detail(query: str) -> str:
    """The detail ``query`` asks for (a key of :data:`DETAIL_PATTERNS`, e.g. ``"funding"``), or ``""``."""
    return next((k for k, pat in DETAIL_PATTERNS.items() if pat.search(query)), "")
