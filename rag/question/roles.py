"""What a question asks of a paper's abstract: the rhetorical roles it asks for (problem, method,
result, data, theory, efficiency), whether it asks for a summary, and whether it asks for a paper's own
limitations. The sentences that *play* those roles are recognised in :mod:`rag.evidence.roles`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["SUMMARY_WORDS", "asks_own_limitations", "is_summary", "question_roles", "wants_more"]

# What it costs to run or train a method: asked as "which is more efficient", "compare them on speed",
# "how does each cut compute" (the sentences that state a saving: rag.evidence.roles).
_EFFICIENCY_ASKED = re.compile(
    r"\b(efficien\w*|speed\w*|fast(?:er|est)?|quick\w*|slow\w*|cheap\w*|costs?|costly|expensive|memory|latency|"
    r"compute|computational\w*|overhead|flops|throughput|wall-clock|runtime|resources?)\b",
    re.I,
)
# Words that say something is wrong or missing: a question using one asks for the problem a paper
# addresses ("what's wrong with ...", "what do earlier models get wrong / miss / overlook", "what's
# holding back ...", "what made it hard", "the catch"). One class of word forms.
_DEFICIENCY = (
    r"limitations?|challenges?|shortcomings?|bottlenecks?|obstacles?|weakness(?:es)?|inefficien\w*|gaps?|issues?|"
    r"drawbacks?|flaws?|pitfalls?|hurdles?|barriers?|catch|wrong|miss(?:es|ed|ing)?|overlook\w*|neglect\w*|"
    r"ignor(?:e|es|ed|ing)|lack\w*|fail\w*|struggl\w*|suffer\w*|difficult\w*|hard(?:er|est)?|worse|degrad\w*|"
    r"wast(?:e|es|ed|ing|eful)|blam(?:e|es|ed|ing)|criti(?:ci[sz]\w*|que)|hold(?:s|ing)? back|fall(?:s|ing)? short|"
    r"trade-offs?|caus(?:e|es|ed|ing)"
)
_INTENT_CUES = {
    "problem": re.compile(
        # "problem" as the thing a paper addresses, not the object of a method ("cast as a
        # combinatorial problem").
        rf"\b(?:{_DEFICIENCY}|address\w*|tackl\w*|motivat\w*|why)\b|"
        r"\bproblems?\b(?=\s+(with|of|in|that|does|do|did|they|it|addressed|solved|tackled)\b)",
        re.I,
    ),
    # Singular only: "existing RL methods" names other work, "what method" asks for this one's.
    "method": re.compile(
        r"\b(how|method|approach|stages?|training|idea|mechanism|fix|contribution|propose\w*)\b", re.I
    ),
    "result": re.compile(
        r"\b(how much|how many|gain|improv\w*|accuracy|results?|achiev\w*|reach|speed\w*|by how)\b", re.I
    ),
    # "what data does X use", "which data", "trained/evaluated on what": data as what is asked
    "data": re.compile(
        r"\b(dataset|benchmark|evaluated|tasks|resources?)\w*\b|\b(what|which)\s+(\w+\s+)?data\b|"
        r"\bdata\s+(do|does|did|is|are|was|were)\b|\b(train\w*|evaluat\w*|test\w*)\s+on\b",
        re.I,
    ),
    "theory": re.compile(r"\b(theor\w*|prove|proof|bound|guarantee|convergence)\w*\b", re.I),
    "efficiency": _EFFICIENCY_ASKED,
}
SUMMARY_WORDS = re.compile(
    r"\b(summari[sz]\w*|summary|overview|gist|tl;?\s?dr|recap|synopsis|in a nutshell|in brief|contribution|"
    r"explain|describe|tell me about|what (?:is|does) .{0,40} (?:about|do))\b",
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


_OWN_ACTION = re.compile(r"^\W*what\s+(?:does|do|did)\s+(?:it\s+|they\s+)?[a-z]+\w*\W*$", re.I)


_LIMIT_WORD = r"(?:limitations?|drawbacks?|weakness(?:es)?|shortcomings?|downsides?|caveats?|failure modes?)"
_OWN_LIMITS = re.compile(
    rf"\b(?:its|their|[\w-]+['’]s)\s+(?:\w+\s+)?{_LIMIT_WORD}|"
    rf"\b(?:have|has|any|are there)\s+(?:any\s+)?(?:\w+\s+)?{_LIMIT_WORD}|"
    # the limitation word first: "what limitations does APM have?", "which drawbacks might it face?"
    rf"\b{_LIMIT_WORD}\s+(?:does|do|did|might|may|could|would|can)\s+(?:[\w-]+\s+){{1,4}}?"
    r"(?:have|has|face|suffer|show)\b",
    re.I,
)
_LIMITS_OF = re.compile(rf"\b{_LIMIT_WORD}\s+of\s+(?:the\s+|this\s+)?(?P<of>[\w-]+)", re.I)
_ADDRESSED = re.compile(
    r"\b(address\w*|tackl\w*|overcom\w*|solv\w*|fix\w*|mitigat\w*|remed\w*|resolv\w*|motivat\w*|target\w*|"
    r"aim\w*|prior|previous|existing|earlier|other work)\b",
    re.I,
)


def asks_own_limitations(question: str, names: Sequence[str] = ()) -> bool:
    """Whether a question asks for a paper's own limitations ("what are its limitations?", "does APM
    have any drawbacks?", "limitations of HieRD"), not the limitation of earlier work it addresses
    ("what limitation does HieRD address?", "what weakness of text-to-image models does SoT
    target?"). ``names``: the papers the question names ("limitations of X" asks X's own)."""
    if _ADDRESSED.search(question):
        return False
    if _OWN_LIMITS.search(question):
        return True
    m = _LIMITS_OF.search(question)
    own = {n.lower() for n in names} | {"it", "paper", "method", "approach", "work", "model", "framework"}
    return m is not None and m.group("of").lower() in own


def wants_more(question: str) -> bool:
    """Whether the question asks for several aspects (a summary or two+ roles): quote more sentences."""
    return is_summary(question) or len(question_roles(question)) >= 2


def is_summary(question: str) -> bool:
    """Whether the question asks for a summary or overview of a paper."""
    return bool(SUMMARY_WORDS.search(question))
