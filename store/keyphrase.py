"""A short descriptive label for an abstract that states no name: a noun phrase a researcher
would say ("Estimation of repeatedly nested expectations", "Music carrier selection algorithm"),
never the abstract's cut first sentence.

Candidates, first acceptable wins:

1. the object of the abstract's own contribution ("we propose/study/introduce ... X"), cut at the
   clause's end, with determiners and vague praise ("novel", "unified") dropped, a generic head
   ("framework", "problem") dropped when words remain, and abbreviations the abstract defines
   spelled out ("graph-based DP" -> "graph-based dataset pruning");
2. the long forms the abstract defines ("Federated Deep Reinforcement Learning (FDRL)");
3. YAKE key phrases (Campos et al., Information Sciences 2020; statistical, no model) of the
   abstract that occur where a noun phrase starts (after an article or a preposition);
4. failing all, the best such key phrase that is no field term, whatever its length.

A candidate is acceptable when it has :data:`MIN_WORDS` to :data:`MAX_WORDS` words, ends in no
function word and is not just a field term (:func:`store.fieldterms.is_field_term`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from store.fieldterms import is_field_term
from store.guard import is_instruction

__all__ = ["FUNCTION_WORDS", "MAX_WORDS", "MIN_WORDS", "defined_abbreviations", "key_phrase"]

#: Words of a descriptive label: two to six read like a topic ("Online routing problem",
#: "Polarity-aware representation learning over clause-literal hypergraphs").
MIN_WORDS, MAX_WORDS = 2, 6

#: YAKE settings: phrases of up to four words, near-duplicates (similarity above 0.7) folded,
#: the best 20 considered. Calibrated on the unnamed abstracts of the bundled collection.
YAKE_NGRAM, YAKE_DEDUP, YAKE_TOP = 4, 0.7, 20

_CONTRIB = re.compile(
    r"\b[Ww]e\s+(?:(?:first|then|further|also|now|here|instead)\s+)?"
    r"(?:propose|introduce|present|develop|design|study|investigate|address|tackle|consider|examine|"
    r"analy[sz]e|explore|make|provide|formulate|revisit|build|derive|establish)\s+"
)
_BY_GERUND = re.compile(r"\bby\s+(?=[a-z]+ing\b)")
_CLAUSE_END = re.compile(
    r"[,;:()\[\]]|\.(?:\s|$)|\s(?:that|which|where|who|whose|to|by|when|while|and|as|using|with|via|"
    r"based|such|than|so|because|whereas|if|is|are|can|could|will|would|how|why|what|whether|due|"
    r"showing|demonstrating|suggesting|indicating|allowing|enabling|yielding|achieving|leading|resulting|"
    r"requiring|making|giving|linking|combining|providing|including|relying|exploiting)\s",
)
#: Words that link or frame a phrase (articles, prepositions, pronouns, auxiliaries): no label ends on one,
#: and a coined name after one is not a name of its own (store.labels)
FUNCTION_WORDS = frozenset(
    "a an the of in on for to with by from at into over under within across between through and or "
    "but as is are be been was were this that these those it its their our we which where who whose "
    "than then via using based upon toward towards about such how why what whether due yet also not "
    "very more most less can could may might should must will would".split()
)
_DETERMINERS = frozenset(
    "a an the our its their two three four five several some many various multiple following both each".split()
)
_VAGUE = frozenset(
    "new novel first simple unified general generic effective efficient systematic principled "
    "comprehensive straightforward practical powerful flexible scalable lightweight detailed extensive "
    "theoretical empirical recent existing surprisingly yet promising wide broad typical".split()
)
#: Words that say "a piece of research" and nothing of its topic: a label needs two other words
#: ("Detailed analysis", "Following questions" are no labels).
_RESEARCH_WORDS = frozenset(
    "analysis study studies question questions metric metrics setting settings problem problems usage "
    "experiment experiments result results bound bounds formulation mechanism algorithm algorithms "
    "method methods approach approaches framework model models task tasks size way ways technique "
    "techniques scheme tool tools work works paper idea ideas insight insights understanding range "
    "direction context variety number set class family notion variant improvement proxy".split()
)
#: Endings of adjectives and adverbs: a phrase ending in one ("Conditions for natural") is cut short.
_ADJECTIVE_ENDINGS = ("al", "ive", "ous", "ful", "less", "ible", "able", "ent", "ant", "ary")
#: Nouns with those endings that may end a label.
_NOUNS_WITH_ADJECTIVE_ENDINGS = frozenset(
    "gradient gradients agent agents component components environment environments experiment "
    "experiments embedding variable variables table tables objective objectives alignment alignments "
    "improvement assessment treatment deployment management measurement adjustment movement "
    "constraint constraints variant variants library dictionary boundary boundaries summary signal "
    "interval retrieval proposal potential tutorial goal trial removal arrival survival journal terminal "
    "material manual individual principal total crystal fractal portal".split()
)
_DEMONSTRATIVE = frozenset("this these that those it them such".split())
#: Heads that say only "a thing of this kind": dropped when two or more words remain.
_GENERIC_HEADS = frozenset(
    "framework frameworks approach approaches method methods methodology paradigm scheme pipeline "
    "formulation problem setting".split()
)
#: Heads that stand for their object ("an investigation into X" -> X).
_STUDY_HEADS = frozenset("investigation study analysis examination exploration understanding".split())
_PREPOSITIONS = frozenset(
    "of in for over on into under within across from between at through beyond toward towards".split()
)
_MATH = re.compile(r"\$[^$]*\$")
_WORD = re.compile(r"[^\s]+")


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def defined_abbreviations(text: str) -> dict[str, str]:
    """``{ABBR: long form}`` the text defines as "long form (ABBR)": the long form is the words
    before the parenthesis whose initials (hyphenated parts count) spell the abbreviation,
    as in Schwartz and Hearst (PSB 2003), simplified to initials.

    "dataset pruning~(DP)" -> ``{"DP": "dataset pruning"}``.
    """
    out: dict[str, str] = {}
    for m in re.finditer(r"([\w\s'-]{3,120}?)[\s~]*\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)s?\)", text):
        abbr = m.group(2)
        letters = [c.lower() for c in abbr if c.isupper()]
        words = m.group(1).split()
        for k in range(len(letters), min(len(words), len(letters) + 2) + 1):
            cand = words[-k:]
            initials = [p[0].lower() for w in cand for p in w.split("-") if p]
            firsts = [w[0].lower() for w in cand]
            if firsts == letters or initials == letters:
                if cand[0].lower() not in FUNCTION_WORDS:
                    out.setdefault(abbr, " ".join(cand))
                break
    return out


def _clean(words: list[str], abbreviations: dict[str, str]) -> list[str]:
    """Determiners and vague praise off the front, determiners out of the middle, abbreviations
    spelled out when the phrase stays within :data:`MAX_WORDS`."""
    while words and (words[0].lower() in _DETERMINERS or words[0].lower() in _VAGUE):
        words = words[1:]
    words = [w for w in words if w.lower() not in _DETERMINERS]
    out: list[str] = []
    for w in words:
        long = abbreviations.get(w)
        out.extend(long.split() if long and len(words) + len(long.split()) - 1 <= MAX_WORDS else [w])
    return out


def _noun_phrase(tail: str, abbreviations: dict[str, str]) -> list[str]:
    """The noun phrase ``tail`` starts with, as words (empty when it is no usable phrase)."""
    clause = _CLAUSE_END.split(" " + tail + " ", maxsplit=1)[0]
    words = [w.strip(".,;:\"'“”’") for w in _WORD.findall(clause)]
    words = [w for w in words if w]
    for i, w in enumerate(words[2:], start=2):  # "LLM outputs directly in ...": an adverb ends it
        if w.endswith("ly") and len(w) > 4 and (i + 1 == len(words) or words[i + 1].lower() in FUNCTION_WORDS):
            words = words[:i]
            break
    if not words or words[0].lower() in _DEMONSTRATIVE:
        return []
    words = _clean(words, abbreviations)
    cut = next((i for i, w in enumerate(words) if w.lower() in _PREPOSITIONS), len(words))
    head, rest = words[:cut], words[cut:]
    if len(head) == 1 and head[0].lower() in _STUDY_HEADS and rest:
        return _clean(rest[1:], abbreviations)
    if head and head[-1].lower() in _GENERIC_HEADS and len(head) >= 3:
        shorter = head[:-1] + rest
        if len(shorter) <= MAX_WORDS:
            return shorter
    if len(words) > MAX_WORDS:  # cut before the last preposition that leaves it short enough
        cuts = [i for i, w in enumerate(words[: MAX_WORDS + 1]) if i >= MIN_WORDS and w.lower() in _PREPOSITIONS]
        return words[: cuts[-1]] if cuts else (head if len(head) <= MAX_WORDS else [])
    return words


def _acceptable(words: list[str]) -> bool:
    """2-6 words starting with a letter or digit, ending in no function word or adjective,
    with two words that say more than "a study" and not just a field term."""
    if not MIN_WORDS <= len(words) <= MAX_WORDS or not words[0][:1].isalnum():
        return False
    first, last = words[0].lower(), words[-1].lower()
    if last in FUNCTION_WORDS or first in FUNCTION_WORDS or last in _VAGUE:
        return False
    if last.endswith(_ADJECTIVE_ENDINGS) and last not in _NOUNS_WITH_ADJECTIVE_ENDINGS:
        return False
    topical = [w for w in words if w.lower() not in _RESEARCH_WORDS | _VAGUE | FUNCTION_WORDS | _DETERMINERS]
    return len(topical) >= 2 and not is_field_term(" ".join(words))


def _as_label(words: list[str]) -> str:
    """Words as a label: first letter capitalised unless the word is written as a name."""
    first = words[0]
    if first[:1].islower() and not any(c.isupper() or c.isdigit() for c in first[1:]):
        first = first[:1].upper() + first[1:]
    return " ".join([first, *words[1:]])


def _contribution_phrases(text: str, abbreviations: dict[str, str]) -> list[list[str]]:
    found = []
    for sentence in _sentences(text):
        if is_instruction(sentence):
            continue
        for m in _CONTRIB.finditer(sentence):
            tail = sentence[m.end() :]
            words = _noun_phrase(tail, abbreviations)
            if not words:  # "we tackle these costs by leveraging X": the gerund's phrase
                by = _BY_GERUND.search(tail)
                words = _noun_phrase(tail[by.end() :], abbreviations) if by else []
            if words:
                found.append(words)
    return found


@functools.lru_cache(maxsize=1)
def _yake() -> Any:
    import yake

    return yake.KeywordExtractor(lan="en", n=YAKE_NGRAM, dedupLim=YAKE_DEDUP, top=YAKE_TOP)


def _after_article(phrase: str, text: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` where a noun phrase starts: after an article, a
    preposition or at a sentence's start ("of proactive agents", not "requires proactive agents align")."""
    for m in re.finditer(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
        before = text[: m.start()].rstrip()
        prev = before.rsplit(None, 1)[-1].lower() if before else ""
        if not prev or prev[-1:] in ".!?:;(" or prev in _DETERMINERS or prev in _PREPOSITIONS or prev == "and":
            return True
    return False


def _yake_phrases(text: str) -> list[list[str]]:
    """YAKE key phrases (best first) without adverbs or function words, where a noun phrase starts."""
    try:
        scored = _yake().extract_keywords(text)
    except Exception:  # noqa: BLE001 - a statistic over odd text must never stop a label
        return []
    return [
        [w.strip("'’") for w in p.split()]
        for p, _ in scored
        if not any(w.endswith("ly") or w.lower() in FUNCTION_WORDS for w in p.split()) and _after_article(p, text)
    ]


def key_phrase(abstract: str) -> str:
    """A descriptive label of ``abstract`` (plain text, markup already stripped), or ``""``
    when no candidate is acceptable (see the module docstring for the order)."""
    text = _MATH.sub(" ", abstract).replace("~", " ")
    text = " ".join(s for s in _sentences(text) if not is_instruction(s))
    abbreviations = defined_abbreviations(text)
    for words in _contribution_phrases(text, abbreviations):
        if _acceptable(words):
            return _as_label(words)
    for long in abbreviations.values():
        if _acceptable(long.split()):
            return _as_label(long.split())
    phrases = _yake_phrases(text)
    for words in phrases:
        if _acceptable(words):
            return _as_label(words)
    # nothing reads like a topic: the best key phrase that is no field term, even a single word
    loose = [w for w in phrases if len(w) <= MAX_WORDS and not is_field_term(" ".join(w))]
    return _as_label(loose[0]) if loose else ""
