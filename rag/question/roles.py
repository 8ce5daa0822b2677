"""What a question asks of a paper's abstract: the rhetorical roles it asks for (problem, method,
result, data, theory, efficiency), whether it asks for a summary, and whether it asks for a paper's own
limitations. The sentences that *play* those roles are recognised in :mod:`rag.evidence.roles`.
The words that ask for each are classes of ``vocabulary/roles.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.lexicon import compound_parts
from rag.question.phrasing import shorthand_words
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = [
    "REQUIRED_ROLES",
    "SUMMARY_WORDS",
    "asks_own_limitations",
    "is_summary",
    "question_roles",
    "required_role",
    "role_alone",
    "role_search",
    "wants_more",
]

_VOCABULARY = beside(__file__, "roles")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

# What it costs to run or train a method: asked as "which is more efficient", "compare them on speed",
# "how does each cut compute" (the sentences that state a saving: rag.evidence.roles).
_EFFICIENCY_ASKED = _VOCABULARY["efficiency"].pattern
_INTENT_CUES = {
    # A deficiency ("what's wrong with ...", "what do earlier models miss", "the catch"), or "problem" as
    # the thing a paper addresses, not the object of a method ("cast as a combinatorial problem").
    "problem": re.compile(rf"{_V['problem_cue']}|\bproblems?\b(?=\s+{_V['problem_follower']})", re.I),
    # Singular only: "existing RL methods" names other work, "what method" asks for this one's.
    "method": _VOCABULARY["method_cue"].pattern,
    "result": _VOCABULARY["result_cue"].pattern,
    # "what data does X use", "which data", "trained/evaluated on what": data as what is asked
    "data": re.compile(
        rf"{_V['data_cue']}|\b{_V['which']}\s+(?:\w+\s+)?data\b|\bdata\s+{_V['data_aux']}|{_V['tested_on']}\s+on\b",
        re.I,
    ),
    "theory": _VOCABULARY["theory"].pattern,
    "efficiency": _EFFICIENCY_ASKED,
}
# "explain"/"describe" ask for a summary unless papers are their subject ("which papers explain X"):
# one fixed-width look-behind per word of paper_subject (Python's look-behind takes no alternatives
# of different widths)
_NOT_AFTER_PAPERS = "".join(rf"(?<!\b{w} )" for w in sorted(_VOCABULARY["paper_subject"].words))
SUMMARY_WORDS = re.compile(
    rf"{_V['summary']}|{_NOT_AFTER_PAPERS}{_V['summary_verb']}|\bwhat {_V['what_is_aux']} .{{0,40}} {_V['about_do']}",
    re.I,
)
"""Words that ask for a summary, gist or overview of a paper: the one reading of "summary" (the
question model's :attr:`rag.question.QuestionPlan.summary` and evidence selection both use it)."""


def question_roles(question: str) -> set[str]:
    """Rhetorical roles a question asks for (problem, method, result, data, theory).

    A question that asks what the paper does and names no other role ("What does SENDAI
    reconstruct?", its name removed: "what does reconstruct") asks for its method: the sentence
    where the paper states its own action ("We present SENDAI, ... that reconstructs full spatial
    states"), not a later one that mentions the word ("the reconstructed fields are better suited")."""
    roles = {r for r, pat in _INTENT_CUES.items() if pat.search(question)}
    if SUMMARY_WORDS.search(question):
        roles |= {"problem", "method", "result"}
    if not roles and _OWN_ACTION.search(question):
        roles.add("method")
    return roles


REQUIRED_ROLES = ("theory",)
"""Roles a topic may ask of every paper it lists (:func:`required_role`): a proof, a bound or a
guarantee is stated by a sentence a paper's abstract tags with its role (``theory``,
:func:`rag.evidence.roles.sentence_roles`); a method or a result is stated by nearly every
abstract and says nothing about which papers answer."""


ROLE_TOPIC_TERMS = 5
"""Most content terms of an alternative that names the role it asks for ("formal theoretical
results", "sample complexity bounds": 2-3); a longer one describes papers in words that may use
the role's cues otherwise ("embed watermarks in deep neural network models so that the owner can
later prove a stolen model is theirs", 12: proving ownership, not a theorem). Set by reading the
questions of dev, rephrasings, library_dev and library_own whose every alternative asks theory:
the "which papers" topics have alternatives of 1-3 terms, the descriptions of papers 9-15."""


def required_role(alternatives: Sequence[str]) -> str:
    """The role every alternative of a topic asks for, among :data:`REQUIRED_ROLES`: "formal
    theoretical results such as proofs or guarantees" -> ``"theory"`` (each of "formal theoretical
    results", "proofs" and "guarantees" asks it); ``""`` when some alternative asks none ("proofs
    or empirical studies"), has more than :data:`ROLE_TOPIC_TERMS` content terms, or there is no
    alternative."""
    if not alternatives or any(len(set(content_terms(a))) > ROLE_TOPIC_TERMS for a in alternatives):
        return ""
    common = set.intersection(*(question_roles(a) for a in alternatives))
    return next((r for r in REQUIRED_ROLES if r in common), "")


_ALONE = {"theory": _VOCABULARY["theory_alone"]}
"""Per role a topic may require, the words that ask for the role and nothing more (``theory_alone``)."""


def role_alone(alternatives: Sequence[str], role: str) -> bool:
    """Whether a topic that requires ``role`` (:func:`required_role`) asks for the role and nothing
    more: some alternative is made only of words that ask for it (``theory_alone``: "formal
    theoretical results", "prove something", "state a theorem", "come with proofs"; a hyphenated
    word by its parts). The alternatives are joined by "or", so such an alternative takes in the
    others ("theorems - proofs, bounds, convergence or approximation guarantees"): every paper
    that states a result of the role of its own answers, however far its words are from the
    topic's. A kind of result or a subject beside it ("convergence proofs", "regret bounds",
    "prove regret bounds for bandits") narrows the papers: ``False``, as for a role of no table."""
    words = _ALONE.get(role)
    if words is None:
        return False
    for alternative in alternatives:
        terms = [p for t in content_terms(alternative) for p in (compound_parts(t) or [t])]
        if terms and all(t in words for t in terms):
            return True
    return False


_SEARCHED = {"theory": _VOCABULARY["theory_searched"]}


def role_search(topic: str, role: str) -> str:
    """``topic`` with the words abstracts state a result of ``role`` with (``theory_searched``:
    "prove", "bound", "guarantee", ...) that it does not write, for retrieval of a topic that
    asks for the role alone (:func:`role_alone`): "prove something" finds FOAM's "a theoretical
    study of staleness through the lenses of convergence" and a quantum algorithm's "Standard lower
    bounds show this scaling is essentially optimal", whose words are far from the topic's.
    ``topic`` unchanged for a role of no table."""
    words = _SEARCHED.get(role)
    if words is None:
        return topic
    have = {w.lower() for w in re.findall(r"[\w-]+", topic)}
    return " ".join([topic, *sorted(w for w in words.words if w not in have)])


_OWN_ACTION = re.compile(rf"^\W*what\s+{_V['do_aux']}\s+(?:{_V['pronoun']}\s+)?[a-z]+\w*\W*$", re.I)


_LIMIT = _VOCABULARY["limit_word"]
LIMITED_WORDS = 8
"""Most words naming what a question asks the limitations of, between "what limitations does" and
"have" ("the Watermark for Large Language Models paper": 7)."""
_OWN_LIMITS = re.compile(
    rf"\b(?:{_V['own_possessive']}|[\w-]+['’]s)\s+(?:\w+\s+)?{_LIMIT.bare}|"
    rf"\b{_V['have_any']}\s+(?:any\s+)?(?:\w+\s+)?{_LIMIT.bare}|"
    # the limitation word first: "what limitations does APM have?", "which drawbacks might it face?"
    rf"{_LIMIT.source}\s+{_V['limit_modal']}\s+(?:[\w-]+\s+){{1,{LIMITED_WORDS}}}?{_V['limit_verb']}",
    re.I,
)
_LIMITS_OF = re.compile(rf"{_LIMIT.source}\s+of\s+(?:{_V['the_this']}\s+)?(?P<of>[\w-]+)", re.I)
_ADDRESSED = _VOCABULARY["addressed"].pattern
_OWN_REFERENTS = _VOCABULARY["own_referent"].words


_LIMITED = re.compile(
    rf"{_LIMIT.source}\s+of\s+(?P<of>[\w-]+(?:\s+[\w-]+){{0,{LIMITED_WORDS - 1}}})\W*$|"
    rf"{_LIMIT.source}\s+{_V['limit_modal']}\s+(?P<subject>(?:[\w-]+\s+){{1,{LIMITED_WORDS}}}?){_V['limit_verb']}\W*$",
    re.I,
)
_NOT_OF_NAME = re.compile(rf"^(?:{_V['the_this']}\s+)+|\s+(?:paper|work|method|approach|model)$", re.I)


def limited_subject(question: str) -> str:
    """What a question that asks for own limitations names as their owner, as typed, without a
    leading "the"/"this" and a trailing "paper": "What are the limitations of model soups?" ->
    "model soups", "What limitations does the Watermark for Large Language Models paper have?" ->
    "Watermark for Large Language Models"; ``""`` when it names none ("what are its limitations?")
    or asks the limitation a paper addresses ("what limitation does HieRD address?"). The route
    asks it of the one paper found when that paper's title states it
    (:attr:`rag.question.plan.AskPlan.limits_of`)."""
    m = None if _ADDRESSED.search(question) else _LIMITED.search(question)
    if m is None:
        return ""
    named = _NOT_OF_NAME.sub("", (m.group("of") or m.group("subject") or "").strip()).strip()
    return "" if named.lower() in _OWN_REFERENTS else named


def asks_own_limitations(question: str, names: Sequence[str] = ()) -> bool:
    """Whether a question asks for a paper's own limitations ("what are its limitations?", "does APM
    have any drawbacks?", "limitations of HieRD"), not the limitation of earlier work it addresses
    ("what limitation does HieRD address?", "what weakness of text-to-image models does SoT
    target?"). ``names``: the papers the question names ("limitations of X" asks X's own)."""
    if _ADDRESSED.search(question):
        return False
    if _OWN_LIMITS.search(question):
        return True
    # a name and a limitation word in shorthand ("ViT-22B failure cases", "HieRD known caveats?")
    said = " ".join(shorthand_words(question, names))
    if said and any(m.end() == len(said) for m in _LIMIT.finditer(said)):
        return True
    m = _LIMITS_OF.search(question)
    own = {n.lower() for n in names} | _OWN_REFERENTS
    return m is not None and m.group("of").lower() in own


def wants_more(question: str) -> bool:
    """Whether the question asks for several aspects (a summary or two+ roles): quote more sentences."""
    return is_summary(question) or len(question_roles(question)) >= 2


def is_summary(question: str) -> bool:
    """Whether the question asks for a summary or overview of a paper."""
    return bool(SUMMARY_WORDS.search(question))
