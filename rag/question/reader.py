"""The question reader: a message is read once into a typed plan (:mod:`rag.question.plan`).

Every later stage (retrieval, refusal, evidence, comparison, summary, rendering) reads the
plan, never the raw string. The reading is built from word classes, not from one pattern per
phrasing, so that it holds however a researcher asks:

* **stated filters**: a year, a venue the records state and authors the records hold are taken
  out first (:func:`rag.question.filters.read_filters`), when the entry reads them (all do by default);
* **frame**: the words that only say "find me papers" ("which papers", "I'm looking for work
  on", "do we have anything on", "... papers?", "..., and which ones?") are peeled off both
  ends of the question by vocabulary (:data:`rag.question.phrasing.FRAME_WORDS`, set nouns matched
  within one typing error: "papres"), and the relating verb after them ("work on", "use", "deal
  with") goes too; what is left is the **topic** (:class:`rag.question.plan.Topic`);
* **number**: what the frame says about how many papers are wanted: ``one`` ("which paper"),
  ``many`` ("which papers", "list", "how many papers") or ``open``; for ``open`` the calibrated
  relevance of each paper decides (:mod:`rag.route.membership`);
* **papers**: names the collection knows, in any letter case (:class:`rag.question.names.NameReader`),
  paper ids, ``[n]`` markers, ordinals ("the second one"), pronouns ("it", "both") and descriptions
  ("the ride-hailing paper");
* **intent**: a comparison (a comparison word, or two named papers and "each"/"both"/"or" or a
  word that ranks them: "better", "outperforms"; its ``verdict`` when it asks which wins), a
  table, a summary (a summary word and one paper, nothing else asked), a topic summary, a
  related-work draft (:mod:`rag.question.related_work`), the collection itself, a reply that
  asks nothing, or a question (:class:`rag.question.plan.AskPlan`);
* **asks**: what to quote from each paper (the question without frame, names and
  comparison/summary words) with its rhetorical roles and sub-questions (:class:`rag.question.plan.Ask`);
* **form**: whether the question asks yes or no about papers it refers to ("Does DANCE use
  LLMs?": ``polar``, with the terms a sentence must state) or for an amount ("how many", "what
  accuracy": :attr:`rag.question.plan.Ask.amount`), so the answer's lead line takes that form;
* **follow-ups**: "what about X?", "and the first one?", "which is better?" continue the previous
  question (:class:`rag.question.plan.FollowUp`); the conversation resolves them into a plan.

The rules left are word tables with one job each (``vocabulary/reader.toml`` and the tables of the
modules above); ``tests/test_question.py`` checks each class with phrasings it was not written for.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict

from rag.acronyms import NamedForms, Senses, proper_name, same_sense
from rag.index.catalogue import Catalogue
from rag.lexicon import directions, english_word, glossary_forms, states_phrase, term_key
from rag.question.asks import read_ask, row_named, text_about
from rag.question.columns import read_columns
from rag.question.comparison import TWO, against_baseline, compare_frame, comparison_sides, explicit_two
from rag.question.details import DETAIL_PATTERNS, asked_detail, asks_year, detail_only
from rag.question.filters import FILTER_KINDS, read_filters, topic_left
from rag.question.language import looks_non_english
from rag.question.manner import manner_terms
from rag.question.names import (
    NameReader,
    bare_name,
    heading_word,
    restated_names,
    restatement_alone,
    spelled_out,
    versioned_names,
    word_names,
)
from rag.question.nominal import nominal_forms
from rag.question.parts import (
    asked_parts,
    compound_topic,
    described_head,
    examples_in_place,
    question_parts,
    topic_parts,
    topic_stages,
    without_paper_description,
)
from rag.question.phrasing import (
    BETTER,
    CLAUSE_OPENER,
    CODE_HOST,
    FRAME_WORDS,
    LINK_NOUN,
    LINK_WORD,
    asks,
    asks_better,
    asks_collection,
    asks_for_paper,
    clean_input,
    excluded_terms,
    exclusion_span,
    facets,
    keep_asking,
    named_terms,
    opens_question,
    predicate,
    social,
    split_exclusion,
    split_frame,
    strip_injection,
    strip_social,
    uses_as_topic,
    verdict_criterion,
    verdict_only,
    without_code_topics,
    without_generic,
    without_verdict,
)
from rag.question.plan import (
    Ask,
    AskPlan,
    CollectionPlan,
    Column,
    ComparePlan,
    Detail,
    FollowUp,
    Number,
    PaperRef,
    Plan,
    RelatedWorkPlan,
    Reply,
    Restated,
    SimilarPlan,
    StatedFilters,
    SummaryPlan,
    TablePlan,
    Topic,
)
from rag.question.polar import (
    AUXILIARIES,
    available_in_shorthand,
    choice_other,
    names_code,
    polar,
    polar_absent,
    polar_against,
    polar_available,
    polar_comparative,
    polar_compares,
    polar_compounds,
    polar_relating,
    polar_terms,
    predicate_start,
    premise_terms,
)
from rag.question.related import asks_similar
from rag.question.related_work import related_work_topic
from rag.question.roles import (
    SUMMARY_WORDS,
    asks_own_limitations,
    is_summary,
    limited_subject,
    question_roles,
    required_role,
    role_alone,
    role_search,
)
from rag.question.slots import ENTITY, GUESSED_SIZE, HARDWARE, INSTANCE, age_slot, read_slot, size_compared
from rag.question.stances import asked_stances
from rag.question.table import asks_table, column_phrases, split_table
from rag.text import (
    coined_lowercase,
    content_terms,
    counted_phrases,
    named_entities,
    normalize,
    quoted_figures,
)
from rag.types import SearchQuery
from rag.vocabulary import beside
from store.papers import Paper

__all__ = ["MAX_QUESTION_CHARS", "Reader", "Reference", "names_link", "read_question"]

MAX_QUESTION_CHARS = 2000
"""Longest question read, in characters; a longer one is trimmed at a sentence end, with a notice."""


# --- word classes --------------------------------------------------------------------------

_VOCABULARY = beside(__file__, "reader")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

_NEGATED = re.compile(rf"^{_V['negated_start']}\s", re.I)
# A word boundary after every row, as before: "vs." counts only before a word character.
_COMPARE_WORD = re.compile(rf"{_V['compare_word']}\b", re.I)
# "DANCE or APM", "which uses more memory" (a comparison, not a verdict), "what does each ...".
_ALTERNATIVE = _VOCABULARY["alternative"].pattern
# links: phrasing's classes of code hosts, link nouns ("a GitHub link": the link itself) and link words
_LINK_NAMED = re.compile(rf"{CODE_HOST.source}|{LINK_NOUN.source}", re.I)
_LINK = re.compile(rf"{_LINK_NAMED.pattern}|{LINK_WORD.source}", re.I)
_ARTIFACT = _VOCABULARY["artifact"].pattern
_CONTRIBUTES = _VOCABULARY["contribution"].pattern
_NAME_KIND = _VOCABULARY["name_kind_word"].words
_TERM_WORDS = 3
"""Most content words of the term a description restates (:func:`rag.question.parts.described_head`)
that is searched as the abstracts name it (without a generic noun: "edge-of-stability regime" ->
"edge-of-stability"); a longer head is a clause ("telling apart graphs ... from real ones"), kept
as written. The heads of the library questions have 1-3 ("grokking", "symbolic regression",
"edge-of-stability regime"); set by reading."""
_ID = re.compile(r"`?([\w.-]+#\d+)`?")
_NUMBER_REF = re.compile(rf"\[(\d+(?:\s*,\s*\d+)*)\]|{_V['numbered_noun']}\s+#?(\d+)\b", re.I)
# The place in the last answer's list each class of ordinals refers to.
_ORDINAL_INDEX = {
    "first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5, "seventh": 6, "eighth": 7, "ninth": 8,
    "tenth": 9, "eleventh": 10, "twelfth": 11, "last": -1, "former": 0, "latter": -1,
    # past any list (a list holds up to twelve): said to be beyond it, whichever place it names
    "past_twelfth": 12,
}
_ORDINALS = {word: i for name, i in _ORDINAL_INDEX.items() for word in _VOCABULARY[name].words}
_ORDINAL_REF = re.compile(
    rf"\bthe\s+(?P<ord>{_V['ordinal']})"
    rf"(?:\s+{_V['ordinal_noun']}|(?=\s*[?.!,]*\s*$))|\bthe\s+(?P<fl>{_V['pair_ordinal']})",
    re.I,
)
_ORDINAL_PAIR = re.compile(
    rf"\bthe\s+(?P<a>{_V['ordinal']})(?P<mid>(?:\s*,\s*(?:the\s+)?{_V['ordinal']})*),?"
    rf"\s+{_V['ordinal_joint']}\s+(?P<the>(?:the\s+)?)(?P<b>{_V['ordinal']})"
    rf"(?:\s+(?:{_V['ordinal_nouns']}|{_V['ordinal_noun']}))?\b",
    re.I,
)
_ORDINAL_WORD = re.compile(rf"(?:the\s+)?(?P<o>{_V['ordinal']})", re.I)
_AMOUNT_ONLY = re.compile(rf"(?:and\s+)?{_V['amount_only']}", re.I)
_PRONOUN = re.compile(rf"{_V['pronoun']}|{_V['this_that']}\s+{_V['paper_noun']}(?!s)", re.I)
_EXPLETIVE_IT = re.compile(_V["expletive_it"], re.I)
_CORRELATIVE_BOTH = re.compile(_V["correlative_both"], re.I)
_WORD_BEFORE = re.compile(r"([\w'’-]+)\W*$")


def _correlative(query: str, start: int) -> bool:
    """Whether the "both" at ``start`` opens "both ... and" after a word that is no auxiliary nor a
    pronoun (``correlative_both``: "papers about both X and Y", "do they use both RL and SFT?"),
    so it refers to no paper; "do both use RL and SFT?" and "Both use RL and ..." refer to two."""
    before = _WORD_BEFORE.search(query[:start])
    if not before or not _CORRELATIVE_BOTH.match(query, start):
        return False
    word = before.group(1).lower()
    return word not in AUXILIARIES and not _PRONOUN.fullmatch(word) and not _COMPARE_WORD.fullmatch(word)
"""An "it" that refers to nothing ("Is it true that ...", "What makes it hard to ..."): no pronoun."""
_PLURAL = re.compile(
    rf"{_V['plural_pronoun']}|\b(?:{_V['counted_lead']} {_V['count']}|"
    rf"{_V['plural_determiner']})(?:\s+{_V['plural_noun']})?\b",
    re.I,
)
# "these two papers", "the first three", "both papers": papers already cited, counted
_COUNTED = _VOCABULARY["counted"].pattern
_FIRST_N = re.compile(rf"{_V['first_top']}\s+({_V['count']})", re.I)
_LAST_N = re.compile(rf"{_V['last_bottom']}\s+({_V['count']})", re.I)
# How many papers each class of counting words counts.
_COUNT_OF = {"two": 2, "three": 3, "four": 4, "five": 5}
_NUMBER_WORDS = {word: n for name, n in _COUNT_OF.items() for word in _VOCABULARY[name].words}
_BOTH = _VOCABULARY["both"].words
# "its", "their": may stand for a noun of the message itself ("tests its robustness")
_POSSESSIVE = _VOCABULARY["possessive"].words
# "the ride-hailing paper", "the paper on quantum computing", "the work that studies LLM logic".
_DESCRIBED = re.compile(
    rf"\b{_V['described_determiner']}\s+(?P<d>(?:(?!{_V['not_description_word']})[\w$\\{{}}/-]+\s+){{1,8}}?){_V['described_noun']}(?!s)"
    rf"|\bthe\s+{_V['described_one']}\s+{_V['description_link']}\s+"
    rf"(?P<e>[^,;:?]+?)(?=\s*(?:[,;:?]|$|\s+{_V['description_end']}\s))"
    # "I mean the ride hailing one", "the text-to-image one with shape assembly"
    rf"|\b{_V['described_determiner']}\s+(?P<o>(?:(?!{_V['not_description_word']}|{_V['not_one_description']})[\w$\\{{}}/-]+\s+){{1,6}}?)"
    rf"{_V['one_description']}\b(?:\s+with\s+[^,;:?.]+)?",
    re.I,
)


_DESCRIBING = _VOCABULARY["describing_frame"].pattern
_DESCRIPTION_TAIL = re.compile(rf"\s+{_V['description_tail']}\s+", re.I)
_ONE_DESCRIBED = _VOCABULARY["one_described"].pattern
# "the one on likelihood matching", "the verifier-free RL paper that conditions on reference answers":
# the noun of a paper, after at most a few words that qualify it, then a word that links a description
# ... unless what follows the link asks ("the SAT GNN paper on what their hypergraphs represent")
_ONE_NAME = re.compile(r"[A-Z][\w-]*")
"""A comparison side of one capitalised word ("Compare Cramming and ..."): the name of a paper."""
_SIDE_DESCRIPTION = re.compile(
    rf"^the\s+(?:[\w-]+\s+){{0,4}}?{_V['described_one']}\s+{_V['side_link']}(?!\s+{_V['side_aspect_opener']})", re.I
)


def _count(text: str) -> tuple[int, bool, bool]:
    """How many papers a plural reference counts ("these two" 2, "both" 2, "the first three" 3;
    "they" 0), whether it takes the first of a list ("the first three", "the top two") and
    whether it takes the last ("the last three", "the final two")."""
    for edge, at_start in ((_FIRST_N, True), (_LAST_N, False)):
        got = edge.search(text)
        if got:
            word = got.group(1).lower()
            return (int(word) if word.isdigit() else _NUMBER_WORDS[word]), at_start, not at_start
    counted = _COUNTED.search(text)
    if not counted:
        return 0, False, False
    word = counted.group(0).lower()
    return (2 if word in _BOTH else int(word) if word.isdigit() else _NUMBER_WORDS[word]), False, False


def _compared_in_clause(text: str) -> bool:
    """Whether the first comparison word of ``text`` (``compare_word``) stands after a word that opens
    a describing clause (phrasing ``clause_opener``: "a paper that explains the difference between ...")."""
    compared = _COMPARE_WORD.search(text)
    opener = CLAUSE_OPENER.search(text)
    return compared is not None and opener is not None and opener.start() < compared.start()


def _word_not_name(query: str, ref: PaperRef) -> bool:
    """Whether ``ref`` is a name the query writes in lower case that is also an English word
    (:func:`rag.lexicon.english_word`: "dance" for DANCE, "swarm" for SWARM Parallelism)."""
    if ref.kind != "name" or not ref.text.isalpha() or not english_word(ref.text):
        return False
    found = re.search(rf"(?<![\w-]){re.escape(ref.text)}(?![\w-])", query, re.I)
    return found is not None and found.group(0).islower()


def _within(pos: int, span: tuple[int, int]) -> bool:
    """Whether offset ``pos`` (``-1``: not found) falls in ``span`` ``(start, end)``."""
    return span[0] <= pos < span[1]


def _refs(query: str, catalogue: Catalogue | None, names: NameReader | None) -> list[tuple[int, PaperRef]]:
    """Paper references of a query with their positions (names, ids, numbers, ordinals, pronouns)."""
    out: list[tuple[int, PaperRef]] = []
    taken: list[tuple[int, int]] = []

    def add(pos: int, end: int, ref: PaperRef) -> None:
        if any(a <= pos < b or pos <= a < end for a, b in taken):
            return
        taken.append((pos, end))
        out.append((pos, ref))

    if catalogue is not None:
        for m in _ID.finditer(query):
            if m.group(1) in catalogue:
                add(m.start(), m.end(), PaperRef(m.group(1), "id", (m.group(1),)))
        named = names.named(query) if names is not None else {}
        # "What is the code URL of ClimaX?": with another paper named, a link word is the link asked
        # for, not a paper labelled "URL" ("Summarize URL" still names it)
        linked = _asks_link(query) and any(not _LINK.fullmatch(n) for n in named)
        for name, ids in named.items():
            if linked and _LINK.fullmatch(name):
                continue
            found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", query, re.I)
            pos = found.start() if found else len(query)
            add(pos, pos + len(name), PaperRef(name, "name", ids))
    for m in _NUMBER_REF.finditer(query):
        nums = (m.group(1) or m.group(2)).split(",")
        for n in nums:
            add(m.start(), m.end(), PaperRef(m.group(0), "number", index=int(n)))
            taken.pop()
        taken.append((m.start(), m.end()))
    for m in _ORDINAL_PAIR.finditer(query):
        # "compare the first and third", "the 2nd and the 4th ones", "the first, second and
        # sixth": places in one list
        places = [(m.start(), m.end("a"), m["a"])]
        mid = m.start("mid")
        places += [(mid + o.start(), mid + o.end(), o["o"]) for o in _ORDINAL_WORD.finditer(m["mid"])]
        places.append((m.start("the"), m.end(), m["b"]))
        for start, end, word in places:
            add(start, end, PaperRef(query[start:end], "ordinal", index=_ORDINALS[word.lower()]))
    for m in _ORDINAL_REF.finditer(query):
        word = (m.group("ord") or m.group("fl")).lower()
        add(m.start(), m.end(), PaperRef(m.group(0), "ordinal", index=_ORDINALS[word]))
    for m in _PLURAL.finditer(query):
        if m.group(0).lower() in _BOTH and _correlative(query, m.start()):
            continue  # "papers about both federated learning and differential privacy": no paper
        count, first, last = _count(m.group(0))
        add(m.start(), m.end(), PaperRef(m.group(0), "plural", count=count, first=first, last=last))
    expletive = [(m.start(), m.end()) for m in _EXPLETIVE_IT.finditer(query)]
    for m in _PRONOUN.finditer(query):
        if any(a <= m.start() < b for a, b in expletive):
            continue  # "Is it possible to detect deepfakes?": an "it" of no paper
        add(m.start(), m.end(), PaperRef(m.group(0), "pronoun"))
    for m in _DESCRIBED.finditer(query):
        if content_terms(m.group("d") or m.group("e") or m.group("o") or ""):
            # "Does the paper on ride-hailing use RL?": the description ends where the yes/no
            # question's predicate begins ("use RL" is asked of the paper, not a word describing it)
            cut = predicate_start(query, m.start("e")) if m.group("e") else None
            end = cut if cut is not None and content_terms(query[m.start("e"):cut]) and cut < m.end() else m.end()
            tail = _DESCRIPTION_TAIL.match(query, end) if m.group("d") else None
            if tail is not None and (cut := predicate_start(query, tail.end())) is not None:
                # "Does the watermark paper for large language models need access ...?": the words
                # after its link up to the predicate's verb describe the paper too, none is asked
                end = cut if content_terms(query[tail.end():cut]) else end
            add(m.start(), end, PaperRef(query[m.start():end].rstrip(), "description"))
    return sorted(out, key=lambda t: t[0])


# A word boundary after every row, as before: "vs." is cut only before a word character.
_ASPECT_DROP = re.compile(rf"{_V['aspect_drop']}\b", re.I)
_GENERIC = _VOCABULARY["aspect_generic"].words
_CLARIFICATION = re.compile(rf"{_V['clarification']}\b[^.?!;,]*", re.I)
"""A clarification inside a question, up to the next punctuation ("I mean the proactive one"):
it says which paper is meant (its description is a reference), nothing asked of it."""


_HEADING_PRONOUN = _VOCABULARY["heading_pronoun"].words

SHORT_ASPECT_WORDS = 6
"""Most words of an aspect shown as the heading instead of the question part that names the papers
("DANCE vs APM on efficiency" -> "Efficiency"), when the names stood outside it; a longer aspect is
a question of its own and is shown as written."""
_SHORT_ASPECT_LEAD = re.compile(rf"^(?:{_V['short_aspect_lead']}\W*)+", re.I)
_PART_LEAD = re.compile(rf"^\W*{_V['part_lead']}\W*")  # case-sensitive, as before: "And ..." stays


def _aspect(query: str, refs: list[PaperRef], names: list[str], verdict: bool = False, roles: bool = False) -> str:
    """What a question asks about its papers: without their names, descriptions and the words that
    only say "compare" or "summarize" (with ``verdict``, also the words that only ask which paper
    wins: "is more accurate", "which one wins"); ``""`` when nothing in particular is asked.
    ``roles``: a part that asks a role of the paper in generic words ("what does X propose", "how is
    it evaluated": :func:`rag.question.roles.question_roles`) asks that role."""
    out = query
    said = set(names) | {r.text for r in refs if r.kind in ("id", "number", "ordinal", "plural", "description")}
    for name in sorted(said, key=len, reverse=True):
        out = re.sub(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?(?![\w-])", " ", out, flags=re.I)
    out = without_paper_description(_CLARIFICATION.sub(" ", out))
    out = _ASPECT_DROP.sub(" ", out)
    if verdict:
        out = without_verdict(out)
    out = re.sub(r"\s+", " ", out).strip(" ,;:-?.")
    rest = [t for t in content_terms(out) if t not in _GENERIC]
    # "in how they evaluate": words that only name a row of a comparison ask that row
    return out if rest or row_named(out) or (roles and out and question_roles(out)) else ""


def _artifact_kin(topic: str, artifact: Sequence[str]) -> str:
    """``topic`` with the other nouns of its data artifact's kind ("publish a new corpus" ->
    "publish a new corpus dataset datasets corpora"): an abstract may call its own collection of
    data any of them. ``topic`` unchanged when it asks for no data artifact."""
    if not any(w in _DATA_ARTIFACT for w in artifact):
        return topic
    have = {w.lower() for w in re.findall(r"[\w-]+", topic)}
    return " ".join([topic, *sorted(w for w in _DATA_ARTIFACT if w not in have)])


def names_link(text: str) -> bool:
    """Whether ``text`` asks for the link itself ("a GitHub link", "code link", "GitHub repo":
    phrasing's ``code_host`` and ``link_noun``), not only for code made available ("code"); "code generation" and
    "GitHub Copilot" name none (:func:`rag.question.phrasing.without_code_topics`)."""
    return bool(_LINK_NAMED.search(without_code_topics(text)))


def _asks_link(text: str) -> bool:
    """Whether ``text`` mentions code links ("code generation", "GitHub Copilot" do not)."""
    return bool(_LINK.search(without_code_topics(text)))


_LINK_TOPIC = _VOCABULARY["link_topic_word"].words


def _about_links(topic: str) -> bool:
    """A topic that is only about code links: no content word besides link words
    (``link_topic_word``); "Which NeRF papers release code?" asks the NeRF papers that do."""
    return _asks_link(topic) and not _link_rest_terms(topic)


def _link_rest_terms(topic: str) -> list[str]:
    """The content words of ``topic`` besides link words and the words that make code available
    (class ``link_topic_word``)."""
    return [t for t in content_terms(_LINK.sub(" ", without_code_topics(topic))) if t not in _LINK_TOPIC]


def link_rest(query: str, topic: str) -> str:
    """For a list of the papers on a topic that make their code available, the topic without the
    condition ("Which papers on federated learning release code?" -> ``"federated learning"``);
    ``""`` when the question asks no availability of code ("papers using GitHub Copilot"), or
    asks only about links (:func:`_about_links`). The condition must ask the code made available
    (:func:`rag.question.polar.polar_available`) or name the link ("with a GitHub link")."""
    if not topic or not _asks_link(query) or _about_links(topic):
        return ""
    if polar_available(topic) != "code" and not (names_link(query) and names_code(topic)):
        return ""  # "a neural approach ... that links clauses and their literals": no code asked
    return " ".join(_link_rest_terms(topic))


def without_link(topic: str) -> str:
    """``topic`` without the condition that its papers make their code available: its link words
    (:data:`_LINK`: "code", "GitHub", "repo"), its availability words (``link_topic_word``:
    "release", "open-source") and the function words the condition leaves at the ends ("that",
    "their"): "conformal prediction for reinforcement learning release code" -> "conformal
    prediction for reinforcement learning". The parts a paper on it must state are this text's
    (:func:`rag.question.parts.topic_parts`), as for the same topic asked without the condition;
    ``topic`` unchanged when it writes "code" as a topic ("code generation")."""
    if without_code_topics(topic) != topic:
        return topic
    kept = [w for w in topic.split() if not _LINK.fullmatch(w.strip(",;:.?!()")) and w.lower() not in _LINK_TOPIC]
    while kept and not content_terms(kept[-1]):
        kept.pop()
    while kept and not content_terms(kept[0]):
        kept.pop(0)
    return " ".join(kept) if content_terms(" ".join(kept)) else topic


def _parts(
    query: str, refs: list[PaperRef], names: list[str], verdict: bool = False, roles: bool = False
) -> dict[str, tuple[str, ...]]:
    """The sub-questions of a question that ask something of its papers, as written and as the
    evidence query (names and "compare"/"each" words removed, and with ``verdict`` the words that
    only ask which wins); parts that only name papers go. ``roles``: in a question of several
    parts, one that asks a role in generic words ("What does X propose and how is it evaluated?":
    :func:`rag.question.parts.asked_parts`) is a part too, so that an answer states each half."""
    written, queries = [], []
    # a side that describes its paper ("the verifier-free RL paper that conditions on reference
    # answers") goes whole before the question is split into parts, which would keep its clause
    for side in (n for n in names if _SIDE_DESCRIPTION.match(n)):
        query = re.sub(rf"(?<![\w-]){re.escape(side)}(?![\w-])", " ", query, flags=re.I)
    asked = asked_parts(query) if roles else question_parts(query)
    for part in asked:
        q = _aspect(part, refs, names, verdict, roles=roles and len(asked) > 1)
        if not q and roles and len(asked) > 1 and _IDENTITY.match(part):
            q = part.strip(" ,;:?.!")  # "What is HieRD, and ...?": what the named paper is, a part of its own
        if not q:
            continue
        split = re.split(r":|\s+[-–—]+\s+", part, maxsplit=1)
        head, tail = (split[0], split[1]) if len(split) == 2 else (part, "")
        # "Compare DANCE and APM: what ...", "DANCE or APM - how does each ...": the heading is what follows
        if tail.strip() and not _aspect(head, refs, names, verdict):
            part = tail
        shown = _PART_LEAD.sub("", part).strip(" ,;:?.-")
        # "DANCE vs APM on efficiency", "How do DANCE and APM differ in speed?": a short aspect
        # left once the names and the "compare" words go is the heading ("Efficiency").
        # the heading keeps the words that refer back to the papers ("the data they use"); the
        # evidence query does not need them
        kept = _aspect(part, [r for r in refs if r.kind not in ("pronoun", "plural")], names, verdict) or q
        lead = _SHORT_ASPECT_LEAD.match(kept)
        short = kept[lead.end() :] if lead else kept
        if lead and short.split()[:1] and short.split()[0].lower() in _HEADING_PRONOUN:
            # "in how they evaluate" -> "how they evaluate", not "they evaluate"
            asked_by = re.search(rf"{_V['heading_wh']}\W*$", kept[: lead.end()], re.I)
            short = kept[asked_by.start() :] if asked_by else short
        said = [*names, *(r.text for r in refs)]
        named = any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", shown, re.I) for n in said if n)
        whole = short.lower() in shown.lower()  # no name was cut out of its middle
        if named and whole and short != shown and len(short.split()) <= SHORT_ASPECT_WORDS:
            shown = short
        written.append(shown)
        queries.append(q)
    return {"parts": tuple(queries), "asked_parts": tuple(written)}




# --- follow-ups: messages that continue the previous question --------------------------------

_OWN_QUESTION = _VOCABULARY["own_question"].words
_AND = re.compile(rf"^\s*{_V['and_lead']}\s+(?:{_V['and_prep']}\s+)?(?P<x>.+?)\s*[?.!]*\s*$", re.I)
_WHAT_ABOUT = re.compile(rf"^\s*(?:{_V['what_about_lead']}[\s,]+)?{_V['what_about']}\s+(?P<x>.+?)\s*\??\s*$", re.I)
# A question that chooses among papers already discussed ("which one needs less memory?",
# "which of them uses ALFWorld?"): one class with "which is better?".
_IDENTITY = re.compile(rf"^\W*(?:{_V['choice_lead']}\W+)?{_V['identity_question']}\b", re.I)
_WHICH_OF_THEM = re.compile(rf"^\W*(?:{_V['choice_lead']}\W+)?{_V['which_of_them']}", re.I)


# A question asked within the papers the previous answer listed ("which of them use RL?", "which
# ones are from 2023?", "of those, which use CIFAR-10?", "do any of these release code?").
_NARROW_LEAD = rf"^\W*(?:{_V['choice_lead']}\W+)?"
_NARROW_OF = re.compile(rf"{_NARROW_LEAD}(?P<aux>\w+\s+)?(?P<wh>{_V['narrowing_wh']})\s+of\s+{_V['narrowed']}", re.I)
_NARROW_ONES = re.compile(rf"{_NARROW_LEAD}(?P<wh>{_V['narrowing_ones']})", re.I)
_NARROW_ONE = re.compile(rf"{_NARROW_LEAD}{_V['narrowing_one']}\b(?!\s+of\b)", re.I)
_SUPERLATIVE = _VOCABULARY["superlative"].pattern
_SUPERLATIVE_REFERENCE = _VOCABULARY["superlative_reference"].pattern
_NARROW_PREP = re.compile(
    rf"{_NARROW_LEAD}{_V['narrowing_prep']}\s+{_V['narrowed']}\W+(?P<wh>{_V['narrowing_wh']})\b", re.I
)


def narrowed_question(query: str) -> str | None:
    """The question a message asks within the papers the previous answer listed, as a question of
    its own: the words that refer to the list become "papers" ("which of them use RL?" -> "which
    papers use RL?", "of those, how many are from 2022?" -> "how many papers are from 2022?", "do
    any of these release code?" -> "do any papers release code?", "which ones ..." -> "which
    papers ..."); ``None`` when the message does not open so, or when it ranks the papers ("which
    of them is faster?", "which of the two is larger?", "... older?": a choice among them,
    :class:`FollowUp` ``choose``)."""
    if asks_better(query) or size_compared(query) or age_slot(query) is not None:
        return None
    one = _NARROW_ONE.match(query)
    if one is not None:
        # "which one uses San Francisco data?": the listed paper that states it; "which one needs
        # less memory?", "which one has the most parameters?" rank them (a choice, compared)
        if polar_compares(query) or _SUPERLATIVE.search(query):
            return None
        return f"which paper{query[one.end():]}"
    for pattern in (_NARROW_OF, _NARROW_PREP, _NARROW_ONES):
        m = pattern.match(query)
        if m is None:
            continue
        wh = m.group("wh").lower()
        wh = "which" if wh == "which ones" else wh
        aux = m.groupdict().get("aux") or ""
        return f"{aux}{wh} papers{query[m.end():]}"
    return None


def narrowed_count(query: str) -> int:
    """How many papers the words of a question asked within the papers discussed count ("which of
    the two runs on a single GPU?" 2, "which of them use RL?" 0, :func:`_count`): ``0`` when it is
    no such question or counts none."""
    for pattern in (_NARROW_OF, _NARROW_PREP):
        m = pattern.match(query)
        if m is not None:
            return _count(m.group(0))[0]
    return 0


# A paper described before the question that takes it up with a pronoun ("and the TTS one, does it
# release code?", "that ride-hailing paper: how big is its model?"): "the/that/this" and at most
# DISLOCATED_MAX_WORDS words before a comma, colon or dash, perhaps opened as a turn to another
# paper ("what about the deepfake one, what data does it use?", "I mean the TTS one: ..."). A name
# put first ("DANCE: what does it propose?") needs no rewriting: the name is a reference of the
# message the pronoun takes up.
DISLOCATED_MAX_WORDS = 6
_DISLOCATED = re.compile(
    rf"^\W*(?:{_V['choice_lead']}\W+)?(?:(?:{_V['what_about_lead']}[\s,]+)?{_V['what_about']}\s+)?(?P<paper>{_V['dislocated_lead']}(?:\s+[^\s,:;?!]+){{1,{DISLOCATED_MAX_WORDS}}})"
    rf"\s*(?:[,:;]|\s[-–—])\s*(?P<question>{_V['dislocated_question']}\b.*)$",
    re.I | re.S,
)
_TAKEN_UP = re.compile(_V["dislocated_pronoun"], re.I)


INTRODUCED_MAX_WORDS = 10
"""Most words of a paper described after a frame that says so ("there's a paper on graph
condensation for text-attributed graphs, does it ...?"), before its question."""
_INTRODUCED_QUESTION = re.compile(
    rf"^(?P<paper>the\s+[^\s,:;?!.]+(?:\s+[^\s,:;?!.]+){{0,{INTRODUCED_MAX_WORDS}}})"
    rf"\s*(?:[,:;.]|\s[-–—])\s*(?P<question>{_V['dislocated_question']}\b.*)$",
    re.I | re.S,
)
_INTRODUCED = re.compile(rf"^\W*(?P<frame>{_V['describing_frame']})\s+(?:(?:a|an)\s+)?(?P<rest>\S.*)$", re.I | re.S)
_INTRODUCED_NOUN = re.compile(rf"{_V['described_one']}\b", re.I)


def _introduced(query: str) -> str:
    """A message that opens by saying it describes a paper (vocabulary ``describing_frame``),
    with the paper as a definite description: "There's a paper on detecting audio deepfakes - does
    it ...?" -> "the paper on detecting audio deepfakes - does it ...?", "I also remember a paper
    about ride-hailing: ..." -> "the paper about ride-hailing: ..."; other messages unchanged."""
    m = _INTRODUCED.match(query)
    if m is None:
        return query
    frame, rest = m.group("frame"), m.group("rest")
    said = _INTRODUCED_NOUN.search(frame)  # "there's a paper", "there was one about": the frame names it
    if said is not None:
        return f"the {frame[said.start():]} {rest}"
    return f"the {rest}"  # "I remember a paper on ...", "there was this graph pruning paper"


_DESCRIBED_AFTER_CONTEXT = re.compile(
    rf"(?:[.!?;]\s+|,?\s+but\s+|,\s+and\s+)(?P<d>(?:{_V['describing_hedge']}\s+)?{_V['describing_frame']})\b",
    re.I,
)


_HEDGED_OPENING = re.compile(rf"^\W*{_V['describing_hedge']}\s+(?={_V['describing_frame']})", re.I)


def described_after_context(query: str) -> str:
    """A message that describes one paper after sentences of context, from its description on:
    "We're running RL on math problems and most compute goes to hard problems. I think I read a
    paper that reuses old traces as prefixes. What speedup did it report?" -> "I think I read a
    paper that reuses ...", "I'm serving LLMs on consumer hardware. I've heard of quantization,
    but there's a paper that stores tensors across GPU, CPU and disk ..." -> "there's a paper that
    ..."; the context is the reader's situation, not a fact of the paper described (vocabulary
    ``describing_frame``, after a sentence end, "but" or ", and", with an optional
    ``describing_hedge``: "I think"). A message that opens with a hedge before its description
    loses the hedge ("I think there was a paper about ..." -> "there was a paper about ..."). Other
    messages, one that opens with its description, and one that asks a question before it ("which
    papers use RL? I recall one on Atari"), unchanged."""
    opening = _HEDGED_OPENING.match(query)
    if opening is not None:  # "I think there was a paper about ...": the hedge is no word of it
        return query[opening.end() :]
    m = _DESCRIBED_AFTER_CONTEXT.search(query)
    if m is None or _DESCRIBING.match(query.strip()) or "?" in query[: m.start("d")]:
        return query  # context asks nothing; a question before it is the message's own
    rest = query[m.start("d") :].strip()
    hedge = re.match(rf"{_V['describing_hedge']}\s+", rest, re.I)
    return rest[hedge.end() :] if hedge else rest


def dislocated_question(query: str) -> str | None:
    """The question of a message that puts its paper first and takes it up with a pronoun, with
    the paper in the pronoun's place: "and the TTS one, does it release code?" -> "does the TTS one
    release code?", "the ride-hailing paper: how big is its model?" -> "how big is the ride-hailing
    paper's model?"; ``None``
    when the message is not so built (the first pronoun of the question is replaced, a possessive by
    the paper's possessive)."""
    m = _DISLOCATED.match(query)
    if m is None and (introduced := _introduced(query)) != query:
        # "There's a paper on detecting audio deepfakes - does it use one-class learning?": asked
        # yes or no of the paper described (a question of another kind is read with the frame)
        m = _INTRODUCED_QUESTION.match(introduced)
        m = m if m is not None and polar(m.group("question")) else None
    if m is None:
        return None
    paper, question = m.group("paper").strip(), m.group("question")
    if _TAKEN_UP.search(paper):
        return None
    p = _TAKEN_UP.search(question)
    if p is None:
        return None
    word = p.group(0).lower()
    put = f"{paper}'s" if word in ("its", "their") else paper
    return question[: p.start()] + put + question[p.end() :]


def _narrowing(plan: Plan) -> FollowUp:
    """The :class:`FollowUp` of a question asked within the last list: what each listed paper must
    state to be kept (the terms of each alternative of its topic, or the artifact it must make
    available)."""
    if not isinstance(plan, AskPlan) or not plan.topic.text or plan.detail is not None:
        return FollowUp("narrow")
    text = plan.topic.text
    available = polar_available(plan.query)  # "which of these release code?": the topic is "code"
    alternatives = tuple(t for f in (plan.topic.facets or (text,)) if (t := polar_terms(f)))
    return FollowUp("narrow", stated=() if available else alternatives, available=available)


_TITLE_FUNCTION = _VOCABULARY["title_function_word"].words
_QUOTED = re.compile(r"[“\"]([^”\"]{8,})[”\"]")
_SENTENCE_INSIDE = re.compile(r"[.!?]\s+[A-Z]")
TITLE_MAX_WORDS = 30
"""Most words of a quoted phrase read as a paper's title; a longer one is a passage quoted as
context. The 3,098 ICML 2022-23 titles of the library have at most 23 words."""
_TITLE_WORD = re.compile(r"[\w'’:-]+")


def asked_title(query: str, *, summary: bool = False) -> str:
    """A paper's title the question asks about, as written; ``""`` when it states none.

    A title is a quoted phrase of four or more words, two or more of them capitalised ("What
    datasets does \u201cDeep Residual Learning for Image Recognition\u201d use?"), or a run of three or
    more capitalised words two of which, past the first, are function words a title capitalises
    ("Summarize Attention Is All You Need"; class ``title_function_word``). A capitalised topic
    ("Graph Neural Networks", "Reinforcement Learning For LLM Agents") and a quoted term ("chain
    of thought") are no titles. A ``summary`` asked ("Summarize Deep Residual Learning for Image
    Recognition", "Can you summarise Language Models are Few-Shot Learners?") is asked of a title
    also when the run writes its function words in lower case, as titles do: at least
    :data:`SUMMARY_TITLE_WORDS` words, three of them capitalised, one a function word inside.
    """
    for m in _QUOTED.finditer(query):
        words = m.group(1).split()
        if _SENTENCE_INSIDE.search(m.group(1)) or len(words) > TITLE_MAX_WORDS:
            continue  # a passage quoted as context ("Large language models are expensive. Post-training ...")
        if len(words) >= 4 and sum(w[:1].isupper() for w in words) >= 2:
            return m.group(1).strip()
    run: list[str] = []
    for w in [*_TITLE_WORD.findall(query), ""]:
        if w[:1].isupper() or w[:1].isdigit():
            run.append(w)
            continue
        while run and run[0].lower() in FRAME_WORDS:  # "Summarize ...", "What Is ...": the question's own words
            run = run[1:]
        if len(run) >= 3 and sum(x.lower() in _TITLE_FUNCTION for x in run[1:]) >= 2:
            return " ".join(run)
        run = []
    if summary:
        return _lower_case_title(query)
    return ""


def title_or_topic(query: str, title: str) -> bool:
    """Whether ``title``, read from ``query`` by :func:`asked_title`, may as well be a capitalised
    topic: it is not quoted and no function word after its first word is capitalised ("Graph Neural
    Networks for Molecules" may be either; "Attention Is All You Need" and a quoted title are
    titles)."""
    if any(title in m.group(1) for m in _QUOTED.finditer(query)):
        return False
    return not any(w[:1].isupper() and w.lower() in _TITLE_FUNCTION for w in title.split()[1:])


def title_cased(query: str, proper: Callable[[str], bool] | None = None) -> set[str]:
    """The words of ``query`` capitalised only because they stand in a title-cased run: two or more
    capitalised words in a row, joined at most by lower-case title function words (class
    ``title_function_word``), each an English dictionary word written with one capital
    ("Summarize Knitting Patterns for Wool Sweaters": Knitting, Patterns, Wool, Sweaters).

    Case marks a name in running text ("methods like Hyena"); in a title-cased run it marks the run,
    so these words are not read as rare names (:meth:`QuestionReader._rare`): "Summarize Medieval
    Poetry Translation" is judged as "medieval poetry translation" is, and refused when no abstract
    writes "medieval". Acronyms, coined names ("ALFWorld", "Graph-R1") and words no dictionary knows
    ("Kolmogorov") keep their case's meaning, and a word the collection's paper names use is a rare
    name whatever its case (the catalogue's name terms). So is a pair of neighbouring words of the
    run that the collection writes as a proper name (``proper``:
    :meth:`rag.index.catalogue.Catalogue.proper_name`; "Which paper uses San Francisco data?": the
    abstracts write "San Francisco" and never "san francisco")."""
    words = [*_TITLE_WORD.finditer(query), None]
    cased: set[str] = set()
    run: list[re.Match[str]] = []
    for m in words:
        w = m.group(0) if m else ""
        plain = w[:1].isupper() and w[1:].islower() and w.isalpha()
        if m and plain:
            run.append(m)
            continue
        if m and run and w.lower() in _TITLE_FUNCTION:
            continue  # "Knitting Patterns for Wool Sweaters": the run goes on past "for"
        if len(run) >= 2:
            named = set()
            for a, b in itertools.pairwise(run):
                pair = query[a.start():b.end()]
                if proper is not None and pair == f"{a.group(0)} {b.group(0)}" and proper(pair):
                    named |= {a.group(0), b.group(0)}
            cased |= {x.group(0) for x in run if english_word(x.group(0).lower())} - named
        run = []
    return cased


SUMMARY_TITLE_WORDS = 4
"""Fewest words of a title written with lower-case function words that a summary request is read
as asking of ("Deep Residual Learning for Image Recognition": 6; "Language Models are Few-Shot
Learners": 5); "Summarize Graph Neural Networks" (3, no function word) stays a topic."""


_SUMMARY_AT_END = re.compile(rf"(?:{SUMMARY_WORDS.pattern})\W*$", re.I)
"""The words of a summary request ending the text before a title ("Summarize", "a summary of")."""


def _lower_case_title(query: str) -> str:
    """The run of capitalised words joined by lower-case title function words ("for", "are",
    "via") right after the summary's words ("Summarize X", "a summary of X"; not "the papers on
    X", a topic) that :func:`asked_title` reads as a title in a summary request, else ``""``."""
    words = list(_TITLE_WORD.finditer(query))
    for k, m in enumerate(words):
        if not (m.group(0)[:1].isupper() or m.group(0)[:1].isdigit()):
            continue
        before = query[: m.start()].rstrip().lower()
        before = before[:-3].rstrip() if before.endswith(" of") else before
        if not before or _SUMMARY_AT_END.search(before) is None:
            continue
        run = [w.group(0) for w in words[k:]]
        while run and not (run[-1][:1].isupper() or run[-1][:1].isdigit()):  # "... Learners please" -> "... Learners"
            run.pop()
        if any(not (x[:1].isupper() or x[:1].isdigit()) and x not in _TITLE_FUNCTION for x in run):
            return ""  # a lower-case content word: a topic or a sentence, not a title
        capitalised = sum(x[:1].isupper() for x in run if x.lower() not in _TITLE_FUNCTION)
        inner = any(x in _TITLE_FUNCTION for x in run[1:-1])
        ok = len(run) >= SUMMARY_TITLE_WORDS and capitalised >= 3 and inner
        return " ".join(run) if ok else ""
    return ""


SHORT_TITLE_WORDS = 2
"""Fewest capitalised words of a run a question may name a paper by the head of its title before
the colon ("Summarize Forget Unlearning", "What does Change is Hard find?"); one capitalised word
is a name (:class:`rag.index.catalogue.NameIndex`)."""


def cased_runs(query: str) -> list[str]:
    """Runs of capitalised words, joined at most by lower-case title function words ("Change is
    Hard"), with at least :data:`SHORT_TITLE_WORDS` capitalised words and the question's own
    leading words ("Summarize", "What") taken off: what a paper's title or the head of its title
    may be written as. In the order written."""
    runs: list[str] = []
    run: list[str] = []
    for w in [*_TITLE_WORD.findall(query), ""]:
        if w[:1].isupper() or (run and w.lower() in _TITLE_FUNCTION and w.islower()):
            run.append(w)
            continue
        while run and run[0].lower() in FRAME_WORDS:
            run = run[1:]
        while run and not run[-1][:1].isupper():  # "Change is Hard for": ends at a capitalised word
            run.pop()
        if sum(x[:1].isupper() for x in run) >= SHORT_TITLE_WORDS:
            runs.append(" ".join(run).strip(":"))
        run = []
    return runs


def summary_object(query: str) -> str:
    """The run of capitalised words a summary request asks of, right after its summary words
    ("Summarize Linear Recurrent Unit", "a summary of Gated Linear Attention"), with at least
    :data:`SHORT_TITLE_WORDS` capitalised words and no lower-case content word; else ``""``. It
    names a paper by its title, or something no title of the collection is."""
    for run in cased_runs(query):
        at = query.find(run)
        before = query[:at].rstrip().lower()
        before = before[:-3].rstrip() if before.endswith(" of") else before
        rest = query[at + len(run) :].strip(" ?.!")
        if before and _SUMMARY_AT_END.search(before) is not None and not content_terms(rest):
            return run
    return ""


def _what_about(query: str, refs: Sequence[PaperRef]) -> str | None:
    """``X`` of "what about X?", of "and <reference>?" (a message that is only "and" and a reference
    to a paper: "and the first one?", "and [3]?"), or of "and <noun phrase>?" ("and memory?", "or
    diffusion models?": no frame word of a question of its own); ``None`` for any other message
    ("and which use RL?", "and I need papers on X")."""
    m = _WHAT_ABOUT.match(query)
    if m:
        return m.group("x")
    m = _AND.match(query)
    if not m:
        return None
    x = m.group("x")
    if not refs:
        peeled, _ = split_frame(x)
        return x if content_terms(x) and normalize(peeled) == normalize(x) else None
    rest = x
    for r in refs:
        rest = rest.replace(r.text, " ")
    first = rest.split()[:1]
    if first and first[0].lower() in _OWN_QUESTION:
        return None  # "and how much does it improve?": a question of its own about "it"
    return None if content_terms(rest) else x


def _without(text: str, phrases: Sequence[str], instead: str = "") -> str:
    """``text`` with each of ``phrases`` taken out as whole words (``instead`` in its place: "it"
    keeps the frame of "Was DANCE accepted?"), the words around it one space apart."""
    for p in phrases:
        text = re.sub(rf"(?<![\w-]){re.escape(p)}(?![\w-])", f" {instead} ", text, flags=re.I)
    # one space between words, as typed: "How long does it take to train?", not "does  it  take"
    return re.sub(r"(?<=\S)\s{2,}(?=\S)", " ", text)


def _only_topic(plan: AskPlan, query: str) -> bool:
    """Whether a message is its topic and nothing else ("federated learning for audio deepfake
    detection?", "differentially private neural radiance fields"): no frame was peeled off, it
    refers to no paper and asks no detail and no yes/no. It asks for the papers on the topic as
    "is there work on ..." does (:attr:`AskPlan.seeks`), so every part of it must be stated."""
    if plan.refs or plan.polar or plan.detail is not None or plan.topic.number != "open":
        return False
    slot = plan.ask.slot
    if (slot is not None and (slot.count or slot.amount)) or opens_question(query):
        # "exactly how many users took part in the GUI navigation dataset ...?" asks a count of the
        # paper it describes, not for the papers on a topic ("distillation of multimodal datasets"
        # names a kind of thing, and is one)
        return False
    return normalize(plan.topic.text) == normalize(query.strip().rstrip("?.!").strip())


def _without_described(text: str, described: Sequence[str]) -> str:
    """``text`` with each description of a paper (:class:`PaperRef` of kind ``description``: "the
    ride-hailing paper") as the pronoun it stands for, its possessive as "its": "how big is the
    ride-hailing paper's model?" -> "how big is its model?", "the model of the TTS one" -> "the
    model of it"."""
    for d in described:
        text = re.sub(rf"(?<![\w-]){re.escape(d)}(['’]s)?(?![\w-])",
                      lambda m: " its " if m.group(1) else " it ", text, flags=re.I)
    return re.sub(r"(?<=\S)\s{2,}(?=\S)", " ", text)


def _without_placed(text: str, placed: Sequence[str]) -> str:
    """``text`` without the references that place a paper in a list ("the fourth one", "[2]"),
    each with or without its article and with its possessive ("fourth one's size" -> " size"): a
    frame peeled off before them may have taken the article."""
    for p in placed:
        bare = re.sub(r"^the\s+", "", p.strip(), flags=re.I)
        text = re.sub(rf"(?<![\w-])(?:the\s+)?{re.escape(bare)}(?:['’]s)?(?![\w-])", " ", text, flags=re.I)
    return re.sub(r"\s+", " ", text)


def _of_reference(refs: Sequence[PaperRef], x: str) -> bool:
    """Whether "what about X?" asks something of a paper referred to by a pronoun ("its
    limitations", "their data"), rather than naming what to ask the previous question about."""
    said = [r.text for r in refs if r.kind in ("pronoun", "plural") and r.text.lower() in x.lower()]
    rest = x
    for r in said:
        rest = re.sub(rf"\b{re.escape(r)}\b", " ", rest, flags=re.I)
    return bool(said) and bool(content_terms(rest))


# --- what the refusal policy reads of a query -----------------------------------------------

_COMPOUND_TERM = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+){2,}\b")
_PROPER = re.compile(r"(?<![.!?:]\s)(?<!^)(?<=\s)[A-Z][A-Za-z0-9-]+\b")
ACRONYM_LETTERS = 5
"""Longest lower-case word read as a typed acronym when no dictionary knows it ("rlhf", "grpo")."""
# Words of "a new large-scale dataset" that say what kind of artifact, not what it is about.
_ARTIFACT_WORDS = _VOCABULARY["artifact_word"].words
_DATA_ARTIFACT = _VOCABULARY["data_artifact"].words
_NEGATION = re.compile(rf"{_V['negation']}\s+", re.I)
_NEGATED_BE = re.compile(rf"\b({_VOCABULARY['negated_be'].bare})n[’']t\s+", re.I)
_NUMBER_ONLY = re.compile(rf"\[?\s*(\d+)\s*\]?|{_VOCABULARY['number_prefix'].bare}\s*#?(\d+)", re.I)


def _directions(topic: str, alternatives: Sequence[str]) -> tuple[str, ...]:
    """The directional compounds ``topic`` writes ("text-to-image"; :func:`rag.lexicon.directions`)
    that each of its ``alternatives`` writes too, as written, each once: "any work on text-to-image
    generation?" -> ``("text-to-image",)``; "text-to-image or image editing" -> ``()`` (an image
    editing paper may write "image-to-image")."""
    words = [w.strip(",.;:?!()[]\"'") for w in topic.split()]
    out = []
    for w in words:
        keys = directions(w)
        if keys and all(keys[0] in directions(a) for a in alternatives):
            out.append(w)
    return tuple(dict.fromkeys(out))


def _spelled_out(text: str, names: Iterable[NamedForms], typed_lower: Iterable[str] = ()) -> str:
    """``text`` with the acronym of each of ``names`` written as its long form, bare or plural
    ("GNNs" -> "graph neural networks"); one typed in lower case is one of ``typed_lower``
    (:attr:`Topic.acronyms`: "ntk")."""
    lower = set(typed_lower)
    for name in names:
        long = name.long if proper_name(name.long) else name.long.lower()
        for plural in ("s", ""):
            typed = name.short + plural
            flags = re.I if typed.lower() in lower else 0
            form = long + plural if not long.endswith("s") else long
            text = re.sub(rf"(?<![\w-]){re.escape(typed)}(?![\w-])", form, text, flags=flags)
    return text


def _typed_acronym(term: str) -> bool:
    """Whether a lower-case ``term`` is an acronym typed in lower case: letters only, at most
    :data:`ACRONYM_LETTERS`, no English word."""
    return term.isalpha() and term.islower() and len(term) <= ACRONYM_LETTERS and not english_word(term)




@dataclass(frozen=True)
class Reference:
    """A reference given on its own ("DANCE", "[2]", "the second one", "the ride-hailing paper"), as
    the commands and the comparison sides give them.

    Attributes:
        text: The reference as given (quotes stripped).
        named: Papers it names or gives by id (several when ambiguous).
        by_id: It is a paper id.
        number: The ``n`` of "[n]", "paper n", "#n"; ``None`` otherwise.
        back: An earlier-turn reference it is little more than ("it", "the second one").
        fuzzy: Papers whose name is close to it (rapidfuzz ratio at least the floor asked), best first.
        described: Whether it has words of a description (content terms).
        search: What retrieval searches to find a described paper (its frame removed).
    """

    text: str
    named: tuple[str, ...] = ()
    by_id: bool = False
    number: int | None = None
    back: PaperRef | None = None
    fuzzy: tuple[str, ...] = ()
    described: bool = False
    search: SearchQuery = field(default_factory=lambda: SearchQuery(""))


class _Header(TypedDict, total=False):
    """The fields of the :class:`Plan` header, gathered while a message is read."""

    asked: str
    query: str
    refs: tuple[PaperRef, ...]
    filters: StatedFilters
    search: SearchQuery
    injected: bool
    trimmed: bool
    dropped: str
    english: bool
    coined: tuple[str, ...]
    rare: tuple[str, ...]
    asked_name: str
    figures: frozenset[str]
    counts: tuple[tuple[str, str], ...]
    missing_title: str
    closest_title: str
    title_or_topic: bool


class Reader:
    """Reads messages against one collection (see the module docstring).

    Args:
        catalogue: The collection's papers, names, venues and authors; without it no name, id,
            venue or author is recognised.
        max_chars: Longest question read (``input.max_question_chars``); a longer one is trimmed.
        senses: The senses of the collection's acronyms (:class:`rag.acronyms.Senses`); without
            them a topic states no known name (:attr:`Topic.known_names`).
    """

    def __init__(
        self, catalogue: Catalogue | None = None, *, max_chars: int = MAX_QUESTION_CHARS, senses: Senses | None = None
    ):
        self.catalogue = catalogue
        self.senses = senses
        self.names = NameReader(catalogue) if catalogue is not None else None
        self.max_chars = max_chars
        self._venues = frozenset(p.venue for p in catalogue.papers.values() if p.venue) if catalogue else frozenset()

    # --- small readings -------------------------------------------------------------------

    def search_query(self, text: str) -> SearchQuery:
        """What retrieval searches for ``text`` (the names it states, :class:`NameReader`)."""
        return self.names.search_query(text) if self.names is not None else SearchQuery(text)

    def stated(self, text: str, filters: Collection[str] = FILTER_KINDS) -> tuple[StatedFilters, str]:
        """The restrictions ``text`` states and the text without them (:func:`rag.question.filters.read_filters`)."""
        cat = self.catalogue
        if cat is None or not filters:
            return StatedFilters(), text
        return read_filters(text, self._venues, cat.authors, cat.authors.vocabulary, filters)

    def ask(self, text: str) -> Ask:
        """``text`` read as what to quote from a paper (:func:`rag.question.asks.read_ask`)."""
        return read_ask(text)

    def resolved_aspects(self, plan: ComparePlan, sides: Sequence[str]) -> tuple[Ask, ...]:
        """The aspects of the comparison ``plan`` read again once its sides resolved to papers
        (``sides``: the text of each side that resolved, as the route resolved it): the words of a
        side that names or describes its paper whole are no aspect ("Compare Koopman Q-learning and
        ODT": "Koopman Q-learning" names a paper no name of the catalogue is; "the constrained
        decision transformer for safe offline RL"). A side that refers back to the papers ("ODT in
        the data they use") or goes on past a name the question holds without being a description
        ("ODT on efficiency") keeps its words after the name as the aspect. ``plan.aspects`` when no
        side adds a name."""
        held = [r.text for r in plan.refs if r.kind in ("name", "id")]
        back = [r.text for r in plan.refs if r.kind in ("pronoun", "plural")]

        def written(name: str, side: str) -> bool:
            return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", side, re.I) is not None

        def whole(side: str) -> bool:
            if any(written(b, side) for b in back):
                return False
            return not any(written(n, side) for n in held) or bool(_DEFINITE.match(side))

        added = [x for x in sides if x.strip() and whole(x) and x not in held]
        if not added:
            return plan.aspects
        cat = self.catalogue
        names = [*held, *(n for r in plan.refs if r.kind in ("name", "id") and cat is not None
                         for pid in r.paper_ids if pid in cat.papers for n in _own_names(cat[pid])), *added]
        return self._aspects(plan.query, list(plan.refs), names, asks_better(plan.query))

    def aspects(self, text: str, names: Sequence[str] = ()) -> tuple[Ask, ...]:
        """What a comparison asks of each paper, as given ("which datasets does each use?"): its
        parts without the papers' ``names`` and the words that only say "compare"; the text as
        written when nothing else is left; ``()`` for no text."""
        if not text.strip():
            return ()
        return self._aspects(text, [], list(names), False) or (read_ask(text),)

    def table(
        self, topic: str = "", columns: Sequence[str] = (), *, filters: Collection[str] = FILTER_KINDS
    ) -> TablePlan:
        """The plan of a table asked by its parts (``paperchat table``, the MCP tool): the papers on
        ``topic`` (read as a question's topic: "speech synthesis", "Which papers work on speech?"),
        or, without one, the papers the caller names (given to the plan's ``refs``)."""
        phrases = tuple(p for c in columns for p in column_phrases(c))
        rows = topic.strip()
        message = f"Make a table of {'the papers on ' + rows if rows else 'the papers named'}" + (
            f" with columns {', '.join(phrases)}" if phrases else ""
        )
        stated, rest = self.stated(rows, filters) if rows else (StatedFilters(), "")
        header = _Header(asked=message, query=message, filters=stated)
        return self.table_plan(header, rest, phrases, named=not rows)

    def related_work(self, topic: str, *, filters: Collection[str] = FILTER_KINDS) -> RelatedWorkPlan:
        """The plan of a related-work draft asked by its topic (``paperchat related-work``, the MCP
        tool, the API): ``topic`` as a chat request's topic is read, the filters it states taken out."""
        stated, rest = self.stated(clean_input(topic), filters)
        rest = rest.strip()
        message = f"Draft a related-work section on {rest}"
        return self._related_work(_Header(asked=message, query=message, filters=stated), rest)

    def _related_work(self, header: _Header, topic: str) -> RelatedWorkPlan:
        """A related-work draft on ``topic``: its papers are those of "Which papers are about
        <topic>?", read as that question is (the same reading, membership and refusal)."""
        subject = topic.strip(" ?.!,;:")
        papers = self.read(f"Which papers are about {subject}?", filters=()) if content_terms(subject) else None
        return RelatedWorkPlan(**header, subject=subject, papers=papers if isinstance(papers, AskPlan) else None)

    def columns(self, text: str | Sequence[str]) -> tuple[Column, ...]:
        """The columns a list of phrases asks for (:func:`rag.question.columns.read_columns`)."""
        return read_columns(text)

    def _corrected(self, text: str, refs: Sequence[PaperRef]) -> str:
        """``text`` with its typing errors corrected to the collection's words
        (:meth:`rag.question.names.NameReader.correct`, as :meth:`topic` corrects a topic), except
        inside the names and ids it refers to by (their matching allows for errors of its own)."""
        names = self.names
        if names is None:
            return text
        kept = [
            (m.start(), m.end()) for r in refs if r.kind in ("name", "id") for m in re.finditer(re.escape(r.text), text)
        ]

        def fix(m: re.Match[str]) -> str:
            inside = any(a <= m.start() < b for a, b in kept)
            return m.group(0) if inside else names.correct(m.group(0))

        return re.sub(r"[A-Za-z]{5,}", fix, text)

    def topic(self, text: str, *, number: Number = "many", query: str = "", distinct: bool = False) -> Topic:
        """A topic, read: corrected, split from its exclusion and into its facets, with what the
        answering stages need of it (see :class:`Topic`).

        Args:
            text: The topic as the question states it (frame already removed).
            number: How many papers the frame asks for.
            query: The whole question (its words decide an artifact or link question); ``text`` if empty.
            distinct: The question names papers (no artifact question then).
        """
        query = query or text
        names = self.names
        if names is not None:  # typing errors in the topic: "reinforcment learning papers"
            text = self._corrected(text, ())
            # a digit for a preposition: "sim2real" as the abstracts write it, "sim-to-real"
            text = re.sub(r"[A-Za-z]{2,}[0-9][A-Za-z]{2,}", lambda m: names.written_form(m.group(0)), text)
        t_topic, t_excl = split_exclusion(text)
        artifact: tuple[str, ...] = ()
        if number != "one" and not distinct and _CONTRIBUTES.search(query):
            # The artifact is the head of what the papers contribute, not a noun of a clause
            # about it: "models that fetch passages from an external corpus" asks for models.
            opener = CLAUSE_OPENER.search(t_topic)
            head_phrase = t_topic[: opener.start()] if opener else t_topic
            artifact = tuple(dict.fromkeys(w.lower() for w in _ARTIFACT.findall(head_phrase)))
        terms = content_terms(t_topic or query)
        head = described_head(t_topic)
        alternatives = facets(t_topic)
        known = self._known_names(t_topic, alternatives)
        searched = _artifact_kin(t_topic, artifact) if t_topic else query
        role = required_role(alternatives or ((t_topic,) if t_topic else ()))
        alone = role_alone(alternatives or ((t_topic,) if t_topic else ()), role)
        if alone:  # "prove something": the papers that write a proof or a bound in any words are found
            searched = role_search(searched, role)
        linked = "" if artifact or number == "one" or distinct else link_rest(query, t_topic)
        if linked:  # "papers on federated learning that release code": the papers on it with a link
            searched = f"{linked} code github"
        # an acronym of several senses is indexed under its long form only where an abstract defines
        # it: the other form of a thing's name is searched too ("Open Pretrained Transformer" finds
        # "OPT-175B")
        also = [n.short if states_phrase(n.long, t_topic) else n.long for n in known if n.searched]
        if also:
            searched = f"{searched} ({', '.join(also)})"
        # in a list, a field's acronym the lexicon indexes in both forms ("LLM", "GNN") is searched
        # written out: BM25 finds either form already, the embedder places the long form nearer the
        # abstracts' sentences ("LLM pruning" missed SparseGPT, "pruning ... massive GPT-family
        # models"). A description of one paper keeps its words: written out, "an LLM agent that
        # learns to skip unnecessary reasoning ..." came nearest to the sentence every LLM paper
        # opens with ("Large language models (LLMs) are increasingly deployed as ...")
        spelled = [n for n in known if not n.thing] if number == "many" else []
        written = _spelled_out(t_topic, spelled, [t for t in terms if _typed_acronym(t)])
        if written != t_topic and searched == t_topic:
            searched = written
        if head and alternatives and len(content_terms(head)) <= _TERM_WORDS:
            # the term a description restates, as the abstracts name it: "edge-of-stability
            # regime, where ..." is stated by "on the Edge of Stability" (no "regime")
            bare = without_generic(head)
            alternatives = tuple(dict.fromkeys(bare if a == head else a for a in alternatives))
        return Topic(
            text=t_topic,
            facets=alternatives,
            # a list of the papers on a topic that release code: the topic's parts, not the condition's
            parts=topic_parts(without_link(t_topic) if linked else t_topic, several=number == "many"),
            examples=examples_in_place(t_topic),
            written=written,
            compound=compound_topic(t_topic),
            restated=self._restated(t_topic),
            versions=versioned_names(t_topic),
            stages=topic_stages(t_topic),
            role=role,
            role_alone=alone,
            head=head,
            exclusion=t_excl,
            excluded=excluded_terms(t_excl),
            number=number,
            artifact=artifact,
            # what the artifact is about: neither its kind nor the verb that contributes it
            artifact_rest=" ".join(
                t for t in content_terms(_CONTRIBUTES.sub(" ", t_topic)) if t not in _ARTIFACT_WORDS
            ),
            about_links=_asks_link(query) and _about_links(t_topic),
            link_rest=linked,
            link_named=names_link(query),
            terms=tuple(terms),
            named=named_terms((t_topic, *alternatives), predicate(t_topic, query)),
            nominal=self._nominal(t_topic, query),
            acronyms=tuple(t for t in terms if _typed_acronym(t)),
            known_names=known,
            directions=_directions(t_topic, alternatives),
            stances=asked_stances(t_topic),
            ask=read_ask(t_topic) if t_topic else read_ask(query),
            search=replace(self.search_query(searched), forms=tuple(also)),
        )

    def _nominal(self, topic: str, query: str) -> tuple[str, ...]:
        """The noun phrases a topic that begins with its predicate names, in the words the
        collection writes (:func:`rag.question.nominal.nominal_forms`; ``()`` without a catalogue)."""
        if self.catalogue is None:
            return ()
        return nominal_forms(topic, predicate(topic, query), self.catalogue.vocabulary)

    def _name_alone(self, topic: str) -> str:
        """The name of a topic that is one name with its restatement and nothing else
        (:func:`rag.question.names.restatement_alone`: "CLIP (Contrastive Language-Image
        Pre-training)" -> "CLIP"), when some abstract writes the name, or no abstract states the
        restatement: the thing is asked for, and the name finds it ("CLIP (...)" listed 5 papers,
        3 of which never write CLIP, where "CLIP" lists 22; "Llama (Large Language Model Meta AI)"
        was refused though SmoothQuant writes LLaMA). A restatement some abstract states where none
        writes the name ("Direct Preference Optimization" without "DPO"), or a name the abstracts
        define in another sense ("CRF, i.e. Causal Reward Flow"), keeps the topic whole."""
        alone = restatement_alone(topic) if self.catalogue is not None else None
        if alone is None or self.catalogue is None:
            return topic
        name, said = alone
        if any(r.others for r in self._restated(topic)):
            return topic  # "CRF, i.e. Causal Reward Flow" where the abstracts define CRF otherwise
        if self.catalogue.names.holds(normalize(name)):
            return name
        if any(states_phrase(said, p.text_for_index) for p in self.catalogue.papers.values()):
            return topic
        return name

    def _restated(self, topic: str) -> tuple[Restated, ...]:
        """The names ``topic`` states with a restatement of each (:func:`rag.question.names.restated_names`),
        with the long forms the collection's abstracts define a spelled-out name as otherwise
        (:meth:`rag.acronyms.Senses.defined`: "SAM (Segment Anything)" where the abstracts define
        SAM as Sharpness Aware Minimization)."""
        out = []
        for name, said in restated_names(topic):
            spelled = spelled_out(name, said)
            defined = self.senses.defined(name) if spelled and self.senses is not None else ()
            others = tuple(x for x in defined if not same_sense(x, said))
            out.append(Restated(name, said, spelled, others if len(others) == len(defined) else ()))
        return tuple(out)

    def _long_forms(self, text: str) -> list[str]:
        """The long forms of the names ``text`` states that the collection knows in two forms
        (:meth:`rag.acronyms.Senses.names_in`; ``[]`` without senses): a name of several words is one
        term of a topic (:func:`rag.question.phrasing.topic_terms`)."""
        return [n.long for n in self.senses.names_in(text)] if self.senses is not None else []

    def _known_names(self, topic: str, alternatives: Sequence[str] = ()) -> tuple[NamedForms, ...]:
        """The names ``topic`` states that the collection knows in two forms
        (:meth:`rag.acronyms.Senses.names_in`), those every one of its ``alternatives`` states when
        it lists some ("tensor networks or tensor decompositions" asks no name of every paper); a
        single one is ``whole`` when the topic holds nothing else but words saying what kind of
        thing it names ("the Open Pretrained Transformer models", "OPT", "GNN architectures")."""
        if self.senses is None or not topic:
            return ()
        found = self.senses.names_in(topic)
        for alternative in alternatives:
            shared = {n.short for n in self.senses.names_in(alternative)}
            found = tuple(n for n in found if n.short in shared)
        if len(found) != 1:
            return found
        name = found[0]
        forms = {name.short.lower(), name.short.lower() + "s"}
        rest = [
            t for t in content_terms(topic)
            if t not in forms and t not in _NAME_KIND and not states_phrase(t, name.long)
            and t.split("-", 1)[0] not in forms  # "opt-175b"
        ]  # fmt: skip
        return (replace(name, whole=not rest),)

    def _written_out(self, text: str, plan: Plan) -> str:
        """``text`` with the acronyms its topic types written out in the sense the topic asks
        (:attr:`Topic.known_names`, chosen by :meth:`rag.acronyms.Senses.sense_in` from what the
        abstracts state beside the topic's other words): "graph CL papers" is read as "graph
        contrastive learning papers", "SSL pseudo-labeling papers" as "semi-supervised learning
        pseudo-labeling papers", so a topic in shorthand lists what its written-out form lists.
        A question naming papers, a name of a thing searched in both forms already ("OPT-175B",
        :attr:`rag.acronyms.NamedForms.thing`), and an acronym of one sense the lexicon indexes
        every abstract under in both forms (:attr:`rag.acronyms.NamedForms.indexed`: "RL", "LLM",
        read alike either way; writing them out moved 9 seed rephrasing rows, 5 of them down) are
        left as typed; ``text`` unchanged when nothing is written out. A topic that is a name with
        its restatement alone is read as the name (:meth:`_name_alone`), as if typed alone."""
        if not isinstance(plan, AskPlan) or plan.refs or not plan.topic.text:
            return text
        name_alone = self._name_alone(plan.topic.text)
        if name_alone != plan.topic.text and plan.topic.text in text:
            text = text.replace(plan.topic.text, name_alone, 1)  # "CLIP (Contrastive ...)": "CLIP"
        names = [n for n in plan.topic.known_names if not n.thing and not (n.indexed and not n.others)]
        return _spelled_out(text, names, plan.topic.acronyms)

    def reference(self, text: str, *, fuzzy_floor: float = 100.0) -> Reference:
        """A reference given on its own (see :class:`Reference`); ``fuzzy_floor``: the least
        rapidfuzz ratio (0-100) of a near name."""
        ref = text.strip().strip("“”\"'").strip()
        if not ref:
            return Reference(ref)
        plan = self.read(ref, filters=())
        if plan.named_ids:
            return Reference(ref, plan.named_ids, by_id=bool(plan.refs) and plan.refs[0].kind == "id")
        m = _NUMBER_ONLY.fullmatch(ref)
        if m:
            return Reference(ref, number=int(m.group(1) or m.group(2)))
        back = next((r for r in plan.refs if r.kind in ("pronoun", "ordinal")), None)
        described = bool(content_terms(ref))
        if back is not None and len(content_terms(ref)) <= 1:
            return Reference(ref, back=back, described=described)
        near = tuple(self.names.fuzzy(ref, fuzzy_floor)) if self.names is not None else ()
        return Reference(ref, fuzzy=near, described=described, search=self.search_query(split_frame(ref)[0]))

    def retarget(self, plan: AskPlan, names: Sequence[str], refs: Sequence[PaperRef]) -> AskPlan:
        """The question of ``plan`` asked of other papers ("what about APM?", "and the first one?"
        after "What datasets does DANCE use?"): the same reading, its papers' ``names`` left out
        of what it asks and states, and ``refs`` as its papers."""
        own = {normalize(n) for n in names if n}
        text = text_about(plan.ask, names)
        return replace(
            plan,
            refs=tuple(refs),
            ask=read_ask(text, number=plan.number, roles=plan.ask.roles, summary=plan.ask.summary),
            search=self.search_query(text),
            coined=tuple(c for c in plan.coined if normalize(c) not in own),
            rare=tuple(w for w in plan.rare if normalize(w) not in own),
            follow=None,
        )

    def retopic(self, plan: AskPlan, text: str) -> AskPlan:
        """The question of ``plan`` asked of another topic ("what about diffusion?" after "Which
        papers use RL?"): its frame and number, ``text`` as its topic, no papers named. A question
        asked within the last list ("which of them use transformers?") is asked within it again,
        of what the new topic states ("what about ones on graphs?": "graphs", the frame words peeled
        as from a question)."""
        peeled, _ = split_frame(text)
        text = peeled if content_terms(peeled) else text
        out = replace(
            plan,
            refs=(),
            topic=self.topic(text, number=plan.number),
            coined=self._coined(text),
            rare=self._rare(text),
            figures=frozenset(quoted_figures(text)),
            counts=tuple(counted_phrases(text)),
            follow=None,
        )
        narrowed = plan.follow is not None and plan.follow.kind == "narrow"
        return replace(out, follow=_narrowing(out)) if narrowed else out

    def _set_topic(self, text: str) -> Topic:
        """"the two federated learning papers": the topic whose likeliest two papers are meant."""
        return Topic(text, number="many", ask=read_ask(text), search=self.search_query(text))

    # --- the whole message -----------------------------------------------------------------

    def read(self, text: str | None, *, filters: Collection[str] = FILTER_KINDS) -> Plan:
        """Read a message into its plan (see the module docstring). Never raises for any input.

        Args:
            text: The message as typed (any text; ``None`` and empty give an empty :class:`Reply`).
            filters: Which restrictions the question may state (``year``, ``venue``, ``author``;
                :meth:`rag.route.filters.Filters.reads`); their phrases are taken out of what is read.
        """
        asked = clean_input(text)
        if not asked:
            return Reply(asked, "", kind="empty")
        query, injected = strip_injection(asked)
        query, dropped = keep_asking(query, self.max_chars)  # a question pasted after context is kept
        trimmed = bool(dropped)
        greeting = bool(query) and social(query)
        if not greeting:  # "hi, which papers ...", "thanks! and who wrote it?": what is asked
            query = strip_social(query)
        if query and not greeting:  # "<context>. I think I read a paper that ...": the description on
            query = described_after_context(query)
        resumed = dislocated_question(query) if query and not greeting else None
        if resumed is not None:  # "the TTS one, does it release code?": "does the TTS one release code?"
            return replace(self.read(resumed, filters=filters), asked=asked)
        narrowed = narrowed_question(query) if query and not greeting else None
        if narrowed is not None:  # "which of them use RL?": "which papers use RL?" within the last list
            plan = self.read(narrowed, filters=filters)
            within = plan.follow or replace(_narrowing(plan), count=narrowed_count(query))
            return replace(plan, asked=asked, follow=within)
        cat = self.catalogue
        stated = StatedFilters()
        if query and not greeting:
            stated, query = self.stated(query, filters)
        known = cat.known if cat is not None else None
        english = greeting or not looks_non_english(query or asked, known)
        header = _Header(
            asked=asked, query=query, injected=injected, trimmed=trimmed, dropped=dropped, english=english,
            filters=stated,
        )
        drafted = related_work_topic(query) if query and not greeting else None
        if drafted is not None:  # "draft a related-work section on T"
            return self._related_work(header, drafted)
        located = _refs(query, cat, self.names) if query else []
        if query and asks_for_paper(query):
            # "which papers are about dance?", "which paper generates soundtracks for dance videos?":
            # the paper sought is described, and an English word in lower case there is the word,
            # not the paper so named (DANCE, FOAM, SWARM); "what does dance shrink?" names it
            located = [(i, r) for i, r in located if not _word_not_name(query, r)]
        if query and _DESCRIBING.match(query.strip()):
            # "I remember a paper that detects ... What is it?": the message describes the paper
            # its pronoun means; "it" is that paper, not the one answered before
            located = [(i, r) for i, r in located if r.kind != "pronoun" and (r.kind != "plural" or r.count)]
        excluding = exclusion_span(query) if query else None
        excluded_ids: tuple[str, ...] = ()
        if excluding is not None:
            # "Which papers detect machine-generated text, other than DetectGPT?": a paper named in
            # what the topic excludes is left out of the list (Topic.excluded_ids), not the paper asked about
            named_there = [r for i, r in located if r.kind in ("name", "id") and _within(i, excluding)]
            excluded_ids = tuple(dict.fromkeys(p for r in named_there for p in r.paper_ids))
            located = [(i, r) for i, r in located if not any(r is x for x in named_there)]
        only = located[0][1] if len(located) == 1 else None
        if query and only is not None and uses_as_topic(query, only.text) and self._used_by_others(only):
            # "Which papers use data2vec?": the name is the topic, stated by its own paper and by
            # those that use it (data2vec 2.0), not the one paper it names
            located = []
        refs = [r for _, r in located]
        by_name = any(r.kind in ("name", "id") for r in refs)
        title = asked_title(query, summary=is_summary(query)) if cat is not None and not by_name else ""
        if not title and cat is not None and not by_name:
            title = self._short_title(query)
        if title and excluding is not None and _within(query.find(title), excluding):
            if cat is not None and (pid := cat.titled(title)[0]) is not None:
                excluded_ids = (*excluded_ids, pid)
            title = ""
        if title and cat is not None:  # "Summarize Attention Is All You Need": a paper asked by its title
            pid, header["closest_title"] = cat.titled(title)
            if pid is not None:
                located = sorted([*located, (query.find(title), PaperRef(title, "name", (pid,)))], key=lambda t: t[0])
                refs = [r for _, r in located]
            else:
                header["missing_title"] = title
                header["title_or_topic"] = title_or_topic(query, title)
        if not title and not by_name and query and self.names is not None and split_frame(query)[1] != "many":
            # "dormant neuron phenomenon: which environments?": the words of one paper's title no
            # other paper writes name it in a question of one paper, as its head does (not in a
            # question for several: "which papers study reward model overoptimization?" asks a topic)
            for phrase, ids in self.names.title_runs(query).items():
                at = normalize(query).find(phrase)
                located = sorted([*located, (max(at, 0), PaperRef(phrase, "name", ids))], key=lambda t: t[0])
            refs = [r for _, r in located]
        if greeting and not any(r.kind in ("name", "id") for r in refs):  # "got it" refers to no paper
            return Reply(**header, kind="social")
        if query and not refs and _AMOUNT_ONLY.fullmatch(query.strip(" ?.!")):
            # "how many?", "how many papers did you find?": the previous question, for its amount
            return Reply(**header, kind="empty", follow=FollowUp("amount"))
        held = asks_collection(query, stated.stated) if query and not refs else ""
        if held:  # "how many papers are there?" (count), "list all papers"
            return CollectionPlan(**header, count=held == "count")
        if not query or not (content_terms(query) or refs):
            if injected:
                return Reply(**header, kind="instruction")
            if stated.authors or stated.person:  # "Which papers did X publish?": the author's papers
                return CollectionPlan(**header)
            if english:
                # "by how much?", "how many?": the previous question, asked for its amount
                amount = FollowUp("amount") if _AMOUNT_ONLY.fullmatch(query.strip(" ?.!")) else None
                return Reply(**header, kind="empty", follow=amount)
            return AskPlan(**header, topic=Topic(""), ask=read_ask(query))
        header["search"] = self.search_query(query)
        header["coined"] = self._coined(query)
        header["rare"] = self._rare(query)
        header["asked_name"] = self.word_name(query, header["rare"])
        header["figures"] = frozenset(quoted_figures(query))
        header["counts"] = tuple(counted_phrases(query))
        plan = self._question(query, refs, header)
        written = self._written_out(asked, plan)
        if written != asked:  # "graph CL papers": "graph contrastive learning papers"
            return replace(self.read(written, filters=filters), asked=asked)
        follow = self._follow(plan, query)
        if isinstance(follow, Plan):
            return replace(follow, asked=asked)
        plan = replace(plan, follow=follow) if follow is not None else plan
        if follow is None and isinstance(plan, AskPlan):
            plan = self._alone(plan, query, located, header)
            # a message that seeks a paper or asks nothing describes the paper it is after ("I remember
            # a paper that ...", "instance-dependent regret bounds for ..."); one that asks something
            # of a thing it names ("is the validator trained with RL?") does not (Topic.describing)
            plan = replace(plan, topic=replace(plan.topic, describing=plan.seeks or not asks(query)))
        if isinstance(plan, AskPlan):
            plan = replace(plan, asked_name=self.name_asked(plan))
        if excluded_ids and isinstance(plan, AskPlan) and plan.topic.exclusion:
            plan = replace(plan, topic=replace(plan.topic, excluded_ids=excluded_ids))
        # "papers by X" and nothing else asked: the author's papers, listed from the records
        # ("Which papers did Albert Gu co-author?": the authorship asked is the filter's, and the
        # topic left is its word)
        rest = plan.topic.text if isinstance(plan, AskPlan) else ""
        if isinstance(plan, AskPlan) and plan.detail is not None and plan.detail.kind == "authors":
            rest = re.sub(rf"[\w-]*{re.escape(plan.detail.phrase.strip(' ?'))}[\w-]*", " ", rest)
        by_author = isinstance(plan, AskPlan) and (plan.detail is None or plan.detail.kind == "authors")
        if (stated.authors or stated.person) and isinstance(plan, AskPlan) and not plan.refs and by_author \
                and not _asks_link(query) and not topic_left(rest):
            return CollectionPlan(**header)
        return plan

    def _used_by_others(self, ref: PaperRef) -> bool:
        """Whether an abstract besides those of the papers ``ref`` names writes its name as a whole
        word: "data2vec" in data2vec 2.0's. A name that is an English word counts only as typed
        ("DANCE" is written by no abstract but its own; "dance" is the word)."""
        if ref.kind != "name" or self.catalogue is None:
            return False
        flags = 0 if english_word(ref.text.lower()) else re.I
        written = re.compile(rf"(?<![\w-]){re.escape(ref.text)}(?![\w-])", flags)
        return any(
            pid not in ref.paper_ids and written.search(p.abstract) for pid, p in self.catalogue.papers.items()
        )

    def _short_title(self, query: str) -> str:
        """A short title or the head of a title the question asks of, as written: a run of
        capitalised words (:func:`cased_runs`) that is a title or a title's head in the collection
        ("What does Forget Unlearning propose?"; not in a question for several papers: "Which
        papers study Inductive Matrix Completion?" asks a topic), or the object of a summary request
        (:func:`summary_object`: "Summarize Linear Recurrent Unit"), which the collection may lack.
        ``""`` when neither."""
        cat = self.catalogue
        if cat is None:
            return ""
        if split_frame(query)[1] != "many":
            for run in cased_runs(query):
                if cat.titled(run)[0] is not None:
                    return run
        return summary_object(query)

    def _coined(self, query: str) -> tuple[str, ...]:
        return tuple(sorted(named_entities(query) | coined_lowercase(query)))

    def word_name(self, query: str, rare: Sequence[str]) -> str:
        """The one name ``query`` asks about that is written as an English word with a capital
        (:attr:`rag.question.plan.Plan.asked_name`): among its ``rare`` words (:meth:`_rare`) and
        the word it opens with before a colon or dash (:func:`rag.question.names.heading_word`:
        "Chinchilla: ..."), those no abstract of the collection writes in lower case
        (:func:`rag.question.names.word_names`; "Chinchilla", "Flamingo", not "Transformers"); a
        rare word inside the question only when no abstract writes it at all ("Gopher" of "What
        model size does Gopher have?", not "Atari" of "What does the dormant neuron paper report on
        Atari?", where a paper is asked about the benchmark);
        ``""`` when none or several (the question then names things, and the other checks of
        names read them), or without a catalogue."""
        if self.catalogue is None:
            return ""
        head = heading_word(query)
        names = self.catalogue.names
        # inside the question, a name some abstract writes may be what a paper is asked about ("What
        # does the dormant neuron paper report on Atari?"), not the thing asked: only one no abstract
        # writes is checked there; the name heading the question is the thing asked
        inside = {w for w in rare if w.lower() not in names.runs}
        found = word_names({*inside, head} - {""} - title_cased(query), names.plain)
        return found[0] if len(found) == 1 else ""

    def name_asked(self, plan: AskPlan) -> str:
        """The one name ``plan`` asks about, for the route to check that a paper of the collection
        is it (:attr:`rag.question.plan.Plan.asked_name`), or ``""``. A question that names a
        paper, asks for a list ("which papers ..."), states an author or is not in English asks
        about no name, nor does one whose frame asks for a paper ("is there work on ...");
        otherwise the name asked is, in this order:

        1. a name written as an English word (:meth:`word_name`: "Flamingo: which few-shot
           benchmarks does it report?", "What model size does Gopher have?");
        2. a name typed inside the slot, right before the measure
           (:meth:`rag.question.names.NameReader.name_in_slot`: "Imagen FID on COCO?");
        3. a name asked alone: the topic is one capitalised word the collection holds as a rare
           name, not a paper's ("What does Imagen do?").

        Args:
            plan: The question read, its frame's :attr:`~rag.question.plan.AskPlan.seeks` known;
                its :attr:`~rag.question.plan.Plan.asked_name` holds the name of case 1 or 2.
        """
        if plan.named_ids or plan.topic.number == "many" or plan.seeks or not plan.english:
            return ""
        if plan.filters.authors or plan.filters.person:
            return ""
        text = plan.topic.text.strip()
        if plan.asked_name:
            return plan.asked_name
        if len(text.split()) == 1 and text[:1].isupper() and plan.topic.named == (text,) \
                and not plan.search.names and text in plan.rare:
            return text
        return ""

    def _rare(self, query: str) -> tuple[str, ...]:
        cased = title_cased(query, self.catalogue.proper_name if self.catalogue is not None else None)
        words = {m.group(0) for m in _PROPER.finditer(query) if m.group(0) not in cased} | named_entities(query)
        words |= set(_COMPOUND_TERM.findall(query))
        if self.catalogue is not None:  # a coined term some abstract states, however it is typed ("alfworld")
            terms = self.catalogue.names.terms
            words |= {w for w in re.findall(r"[\w-]+", query.lower()) if w in terms and len(w) >= 4}
        return tuple(sorted(words))

    def _follow(self, plan: Plan, query: str) -> Plan | FollowUp | None:
        """How the message continues the previous question, if it does (see :class:`FollowUp`); a
        plan when the continuation is a question of its own ("and what about its limitations?")."""
        if not isinstance(plan, AskPlan):
            return None
        x = _what_about(query, plan.refs)
        if x is not None and _of_reference(plan.refs, x):
            return self.read(f"What are {x}?", filters=())
        # "what about APM?", "I mean APM": a name alone asks the previous question of it
        only_names = x is not None and plan.named_ids and not content_terms(_without(x, [r.text for r in plan.refs]))
        if x is not None and (not plan.named_ids or only_names) and not (plan.detail and plan.detail.only):
            inner = [r for r in plan.refs if r.text.lower() in x.lower()]
            return FollowUp("what_about", target=x, target_refs=tuple(inner))
        if plan.named_ids:
            return None
        if verdict_only(query) and not plan.refs and not plan.detail:
            # (not "what is the best paper of ICML 2023?": an award, a detail no abstract states)
            return FollowUp("verdict", plan=self._choice(query))
        if _WHICH_OF_THEM.match(query) or _SUPERLATIVE_REFERENCE.search(query):
            # "which one is faster?", "how many parameters does the largest one have?": a choice
            # among the papers discussed, compared on what is asked
            return FollowUp("choose", plan=self._choice(query))
        if not plan.refs and plan.topic.number != "many" and (size_compared(query) or age_slot(query) is not None):
            # "which is more recent?", "which is bigger?" naming no paper: a choice by what the
            # records or abstracts give among the papers discussed, as "which one is newer?" is
            # (it was a search for the word "recent": 12 papers, then compared)
            return FollowUp("choose", plan=self._choice(query))
        return None

    def _alone(self, plan: AskPlan, query: str, located: Sequence[tuple[int, PaperRef]], header: _Header) -> AskPlan:
        """``plan`` with :attr:`AskPlan.seeks` and, when its pronouns could be the message's own,
        :attr:`AskPlan.alone`: the message read with them referring to no earlier paper.

        It could stand alone when every reference is a pronoun ("it", "its", "their"; no name,
        number, ordinal, description or counted "both"), it states two or more words besides them
        (one, in a first part whose frame names the paper asked for),
        asks more than a detail of the last paper, and either its frame names the paper asked for
        ("which paper detects audio deepfakes and tests its robustness?") or every pronoun is a
        possessive after two or more content words it can stand for ("is work on training models
        across many clients without pooling their data ..."). "What dataset does it use?" and "what
        are its limitations?" can only refer back."""
        seeks = asks_for_paper(query) or _only_topic(plan, query)
        plan = replace(plan, seeks=seeks)
        back = [(pos, r) for pos, r in located if r in plan.refs]
        parts = question_parts(query)
        later = len(parts) > 1 and (second := query.find(parts[1])) > 0 and all(pos >= second for pos, _ in back)
        # a first clause that seeks a paper describes it in as little as one word ("which paper
        # studies ride-hailing, and what does it improve?")
        first = min((pos for pos, _ in back), default=0)
        clause = re.search(r"[,;]|\band\b", query[:first])
        described = plan.content_beyond_pronouns or (
            seeks and clause is not None and bool(content_terms(query[: clause.start()]))
        )
        if not back or len(back) != len(plan.refs) or not described:
            return plan
        if any(r.kind not in ("pronoun", "plural") or r.count for _, r in back):
            return plan
        if plan.detail is not None and plan.detail.only:
            return plan
        own = all(
            r.text.lower() in _POSSESSIVE and len(content_terms(query[:pos])) >= 2 for pos, r in back
        )
        # "What does mimetic initialization do, and how much does it help ViTs?": a pronoun in a
        # later part may be the subject the first part names (two content words or more)
        subject = later and len([t for t in content_terms(parts[0]) if t.lower() not in FRAME_WORDS]) >= 2
        if not (seeks or own or subject):
            return plan
        kept = [r for _, r in located if r not in plan.refs]
        alone = self._question(query, kept, _Header(**header))
        if not isinstance(alone, AskPlan) or alone.refs:
            return plan
        return replace(plan, alone=replace(alone, seeks=seeks))

    def _choice(self, query: str) -> ComparePlan:
        """The comparison a question choosing among the papers discussed asks ("which one is faster?",
        "which one needs less memory?"), its papers to be given (:class:`FollowUp`)."""
        better = asks_better(query)
        aspects = self._aspects(query, [], [], better)
        return ComparePlan(query, query, aspects=aspects, verdict=verdict_criterion(query) if better else "")

    def _aspects(self, query: str, refs: Sequence[PaperRef], names: Sequence[str], verdict: bool,
                 number: Number = "open", roles: bool = False) -> tuple[Ask, ...]:
        got = _parts(query, list(refs), list(names), verdict, roles)
        asks = tuple(
            read_ask(q, number=number, heading=h) for q, h in zip(got["parts"], got["asked_parts"], strict=True)
        )
        if len(asks) < 2:
            return asks
        # "What is HieRD and what tasks is it evaluated on?": a part that asks only what a named
        # paper is asks its approach row (the sentence that says what it proposes), as the whole
        # question "What is HieRD?" does
        said = {n.lower() for n in [*names, *(r.text for r in refs if r.kind in ("name", "id"))] if n}
        return tuple(
            replace(a, row="approach", roles=a.roles | {"method"})
            if (m := _IDENTITY.match(a.text)) and a.text[m.end():].strip(" ?.!").lower() in said else a
            for a in asks
        )

    def _written(self, description: str) -> bool:
        """Whether some abstract or title of the collection writes every content word of
        ``description`` (as term keys: "deepfake" by "deepfakes"); ``True`` without a catalogue."""
        if self.catalogue is None:
            return True
        keys = self.catalogue.index_keys
        # a hyphenated term by its parts, as the vocabulary holds words ("ride-hailing")
        return all(term_key(w) in keys for t in content_terms(description) for w in t.split("-") if w.isalpha())

    def _question(self, query: str, refs: list[PaperRef], header: _Header) -> Plan:
        """The plan of a message that asks something (see the module docstring)."""
        cat = self.catalogue
        names = [r.text for r in refs if r.kind == "name"]
        if cat is not None:
            # a named paper's title, and its title's tail after the name ("GOAT: A Global Transformer
            # on Large-scale Graphs"), name it too: none of their words is asked of it
            names += [n for r in refs if r.kind in ("name", "id") for pid in r.paper_ids for n in _own_names(cat[pid])]
        names_papers = any(r.kind in ("name", "id", "number", "ordinal", "pronoun") for r in refs)
        # "which datasets did they use?", "which benchmarks do they evaluate on?": "they" are the
        # papers discussed and "which" asks what they use, not for papers (as "which papers release
        # their code?" does, whose "their" is the papers asked for)
        # so does a description of one paper: "which languages does the low-resource speech
        # synthesis paper support?" asks the languages of that paper, not for papers
        names_papers = names_papers or (
            any((r.kind == "plural" and not r.count) or r.kind == "description" for r in refs)
            and not asks_for_paper(query)
        )
        # "which paper studies ride-hailing, and how many parameters does its model have?": the
        # first part asks for the paper, the others ask of it ("its": the paper asked for); the
        # topic is the first part's
        asked = asked_parts(query)
        names_some = any(r.kind in ("name", "id", "number", "ordinal") for r in refs)
        seeks_first = asks_for_paper(asked[0]) or bool(_DESCRIBING.match(asked[0].strip()))
        framed = asked[0] if len(asked) > 1 and not names_some and seeks_first else query
        # "I remember a paper making an optimizer provably convergent": the opening only says a
        # paper is described (vocabulary describing_frame); "remember" is no word of the topic
        opening = _DESCRIBING.match(framed.strip())
        framed = _DESCRIBING.sub("", framed.strip(), count=1) if opening else framed
        topic_text, number = split_frame(framed, plural_heads=not names_papers, names=self._long_forms)
        if number == "many" and framed != query and any(r.kind == "pronoun" for r in refs):
            # "Is there work on ride-hailing dispatch? What model does it use?": a later part asks
            # of "it", so the first seeks one paper, whatever its frame's noun ("work") says
            number = "open"
        if opening and (_ONE_DESCRIBED.search(opening.group(0)) or _ONE_DESCRIBED.match(framed.strip())):
            # "I remember a paper showing that a random teacher still works", "there was one about
            # ...": one paper is described, whatever plural its words hold ("works", "they")
            number = "one"
        placed = [r.text for r in refs if r.kind in ("ordinal", "number")]
        if placed and content_terms(rest := _without_placed(topic_text, placed)):
            # "what's the fourth one's size?": the frame took "what's the", and "fourth one's" is
            # no word of the topic (its slot is the size, not a "fourth size")
            topic_text = rest.strip()
        if number == "many":  # "their code", "these abstracts": in a set question they mean the papers asked for
            refs = [r for r in refs if r.kind != "pronoun" and (r.kind != "plural" or r.count)]
        header["refs"] = tuple(refs)
        papers = [r for r in refs if r.kind in ("name", "id", "number", "ordinal")]
        distinct = {pid for r in papers for pid in r.paper_ids} | {f"#{r.index}" for r in papers if not r.paper_ids}
        # a detail in a paper's name is none asked ("What speedup does Gating Dropout report?")
        unnamed = _without(query, [r.text for r in refs if r.kind in ("name", "id")], "it")
        unnamed = _without_placed(unnamed, placed) if placed else unnamed
        # ... and so is one in the paper's description, which the detail may follow as its
        # possessive ("how big is the ride-hailing paper's model?" asks the model size of "its
        # model"); the description stays for what else is read of the detail (the paper it finds)
        kind = asked_detail(unnamed) or asked_detail(
            _without_described(unnamed, [r.text for r in refs if r.kind == "description"])
        )
        if kind and len(asked) == 1 and _DESCRIBING.match(query.strip()):
            kind = ""  # "I remember a paper showing that picking hyperparameters online is a pitfall"
        summary = is_summary(query)
        aspect = _aspect(query, refs, names)
        roles = frozenset(question_roles(aspect or query))
        if summary:
            roles |= {"problem", "method", "result"}
        # Yes/no only about papers the question refers to: "Does any paper ..." asks for papers.
        # "CogRouter github?": a name and words of a link ask whether its code is available
        shorthand_link = available_in_shorthand(query, [r.text for r in refs if r.kind in ("name", "id")])
        # a question in another language asks no yes/no the English frame reads ("Was schlägt DANCE
        # vor?" is German "what", not "was ...?"): it is answered with the paper's main points; a
        # name with words of a link ("ME-DLM github") asks its code in any language
        is_polar = ((header["english"] and polar(query)) or bool(shorthand_link)) and any(
            r.kind != "plural" or number != "many" for r in refs
        )
        # "Which is faster, Hyena or attention?": the yes/no comparison of the one paper named
        # against the other option ("Is Hyena faster than attention?"), its verdict naming the one
        named_texts = [r.text for r in refs if r.kind == "name"]
        chosen, other = choice_other(query, named_texts) if header["english"] and not is_polar else ("", "")
        is_polar = is_polar or bool(other)
        available = (shorthand_link or polar_available(aspect)) if is_polar else ""
        # "does it release code?", "is FlexGen open source?": the artifact's availability, in any words
        asked_terms = (available,) if available else polar_terms(other or aspect) if is_polar else ()
        described = [r for r in refs if r.kind == "description"]
        if kind and described and not distinct:
            # a detail of the paper a description names ("how big is the model of the ride-hailing
            # paper?", "... I mean the ride-hailing one"): the description finds the paper, not
            # the words of the detail ("big is the model of")
            topic_text, number = split_frame(described[0].text)[0], "one"
        detail = None
        if kind:
            phrase = DETAIL_PATTERNS[kind].search(unnamed)
            words = normalize(phrase.group(0)) if phrase else ""
            year = kind == "publication date" and asks_year(words)
            detail = Detail(kind, words, detail_only(unnamed, kind), year=year)
        # A model size guessed of the papers named ("is APM a 7B model?"): asked, not a term to find.
        referred = distinct or any(r.kind == "pronoun" for r in refs)
        guess = GUESSED_SIZE.search(query) if referred and is_polar and not kind else None
        if guess:
            detail, is_polar = Detail("model size", guess.group(0)), False
        # "what's the fourth one's size?" asks the size: the place in the list is no word of the ask;
        # a typing error in what is asked is corrected as in the topic ("how much does DANCE improve
        # acuracy?" asks its accuracy, which a sentence states)
        ask = read_ask(self._corrected(_without_placed(query, placed).strip() if placed else query, refs),
                       number=number, roles=roles,
                       summary=summary,
                       # a paper's description names it as its name does: none of its words is the
                       # slot, and after it a short phrase asks in shorthand ("the green tokens
                       # watermark paper: false positive rate?" asks that rate of the paper found)
                       names=tuple(r.text for r in refs if r.kind in ("name", "id", "description")))
        if (described and not distinct and not kind and ask.slot is not None and not is_polar and number != "many"
                and self._written(split_frame(described[0].text)[0])):
            # so does a slot asked of it ("what dataset does the deepfake paper use?"): its words
            # ("dataset", "use") would draw the papers that write them (D4RL's "Datasets") ahead
            # of the one described (how many papers it finds stays the frame's: "the watermark
            # paper" of a library may be any of several, each listed); a description with a word
            # no abstract writes ("the weather forecasting paper" of papers on time series) is no
            # paper's, and the whole question stays the topic its refusal measures
            topic_text = split_frame(described[0].text)[0]
        topic = self.topic(topic_text, number=number, query=query, distinct=bool(distinct))
        if described and not distinct and number != "many":
            # "What languages does the low-resource speech synthesis paper support?": the paper
            # answered should state the description's every part (speech synthesis, not recognition)
            label = split_frame(described[0].text)[0]
            topic = replace(topic, described=label, described_name=bare_name(label))
        if available and ask.slot is not None and ask.slot.form in (ENTITY, INSTANCE):
            ask = replace(ask, slot=None)  # "DANCE repo?": whether its code is available, not a word to find
        if detail is None and ask.slot is not None and ask.slot.form == HARDWARE and ask.slot.detail:
            # "APM hardware?", "which machines does X run on?" (rag.question.slots.entity_slot): the
            # detail "what hardware" asks, refused as it is when no sentence names hardware
            detail = Detail(ask.slot.name, ask.slot.name)
        if not aspect and names and _IDENTITY.match(query):
            # "What is HyperTrack?": the sentence that says what it is ("we introduce HyperTrack, a
            # large-scale dataset ..."), as "what does DGSA stand for?" asks the one that spells it out
            ask = replace(ask, definition=True, roles=ask.roles | {"method"})
        if detail is not None:
            # "the fourth one's size": the place in the list is no word of the measure asked
            slotted = _without_placed(query, placed) if placed else query
            ask = replace(ask, slot=read_slot(self._corrected(slotted, refs), amount=ask.amount, detail=detail,
                                              guess=guess.group(0) if guess else ""))
        base = AskPlan(
            **header,
            topic=topic,
            ask=ask,
            aspects=self._aspects(query, refs, names, False, number, roles=True),
            detail=detail,
            polar=is_polar and bool(asked_terms),
            polar_terms=asked_terms,
            # "Is BLIP-2 better than Flamingo?", "does X outperform Y?": the sentence that sets the
            # paper against Y answers it, for the reader to judge (not "mentioned in contrast")
            polar_compared=is_polar and bool(asked_terms)
            and (polar_compares(aspect) or asks_better(query) or bool(other)) and not available,
            polar_comparative=(chosen or polar_comparative(aspect) or ("better" if asks_better(query) else ""))
            if is_polar and not available else "",
            polar_choice=other if asked_terms else "",
            polar_available=available if is_polar else "",
            polar_absent=is_polar and bool(asked_terms) and not available and polar_absent(aspect),
            polar_compounds=polar_compounds(aspect) if is_polar and asked_terms and not available else (),
            polar_against=tuple(t for t in polar_against(unnamed) if t in asked_terms)
            if is_polar and not available else (),
            polar_relating=polar_relating(aspect) if is_polar and asked_terms and not available else (),
            # "how does CogRouter use diffusion models?": takes as stated that CogRouter uses them
            premise=premise_terms(unnamed) if not is_polar and len(distinct) == 1 and not kind else (),
            # "How are SGB-IB's pseudo-labels derived?": the sentence that states the process answers
            # (of the one paper a description finds too: "how does the LLM watermark choose green tokens?")
            manner=manner_terms(self._corrected(_without_described(unnamed, [r.text for r in described]), refs))
            if not is_polar and len(distinct) + len(described) == 1 and not kind else (),
            own_limits=asks_own_limitations(query, names),
            limits_of=limited_subject(query),
            bare=not refs and number == "open" and not kind and not is_polar
            and topic_text.strip(" ?.!") == query.strip(" ?.!"),
        )
        # "Imagen FID on COCO?": the name typed before the measure is the paper asked
        slot_name = self.names.name_in_slot(query, ask.slot.terms) \
            if self.names is not None and not refs and number != "many" and not is_polar \
            and ask.slot is not None and not ask.slot.form else ""
        base = replace(base, asked_name=base.asked_name or slot_name)  # checked in read (name_asked)
        # --- the papers like one paper: "papers like DANCE", "more like [2]", "anything similar to it?"
        pronoun_only = not distinct and not described and any(r.kind == "pronoun" for r in refs)
        if (len(distinct) + len(described) == 1 or pronoun_only) and asks_similar(query, [r.text for r in refs]):
            desc = described[0] if described and not distinct else None
            return SimilarPlan(**header, described=desc.text if desc else "")
        # --- comparisons: two papers and a comparison word or "each"/"both"/"or"; or "compare them"
        frame, framed = compare_frame(query, _COMPARE_WORD)  # the sentence that asks to compare names its sides
        sides = tuple(comparison_sides(frame))
        # "how does it differ from APM?": "it" is the paper of the last turn; after a name it is
        # that paper ("What does DocVAL gain, and what is it compared against?": one paper)
        first = next((r for r in refs if r.kind in ("name", "id", "number", "ordinal", "pronoun")), None)
        # a pronoun after a description is the described paper's own ("the paper that samples from a
        # large model faster ... and checks its tokens"), no second paper; before one ("How does it
        # differ from the paper about robot hands?") it is the earlier turn's paper
        pronoun = first is not None and first.kind == "pronoun" and not any(
            r.kind == "description" for r in refs[: refs.index(first)]
        )
        two = len(distinct) + len(described) + int(pronoun) >= 2
        explicit = bool(_COMPARE_WORD.search(query))
        pair = TWO.search(query)  # "the two federated learning papers"
        ranks = bool(BETTER.search(query))  # "does X outperform Y?", "which performs best among X, Y and Z"
        better = asks_better(query)
        # --- tables: "a table of ...", or a comparison across a whole set ("compare all the papers on T by X")
        table = split_table(query)
        counted = any(r.kind == "plural" and r.count for r in refs)  # "the two", not "their"
        if table is not None and (asks_table(query) or not (pair or distinct or described or counted)):
            return self._table(header, table, distinct)
        alternative = bool(_ALTERNATIVE.search(query))
        # "they" in context before the request ("... and they differ from run to run. Is there a
        # paper ..., and what does it compare against?") is no set of papers to compare
        plural_asked = any(
            r.kind == "plural" and re.search(rf"\b{re.escape(r.text)}\b", framed, re.I) for r in refs
        )
        if (explicit and (pair or plural_asked)) or number != "many" and (
            (two and (explicit or ranks or alternative))
            or (explicit and number == "open" and sides and not distinct and all(content_terms(x) for x in sides[0])
                and not (pronoun and against_baseline(frame))
                # a comparison word in a clause that describes the one thing the message is about
                # ("I remember a paper that explains the difference between SGD and Adam", "a
                # clustering method that places anchors so that similarities between clusters and
                # outliers become visible") describes it; it asks to compare nothing
                and not (not refs and _compared_in_clause(frame))
                # a first "side" that asks for a paper is the question of the paper sought ("Which paper
                # is that, and how much energy does it use compared with GPT-3?"), no paper beside another
                and not asks_for_paper(sides[0][0]))
            or (explicit and len(distinct) == 1 and explicit_two(frame) and not self._within(papers, sides))
        ):
            # A side that describes its paper ("the one on likelihood matching for diffusion"), is one
            # coined name ("ProAct-Helper", named in an abstract but not a paper's name) or one
            # capitalised word ("Cramming", the opening of a title) is no aspect.
            names = names + [
                x for x in (sides[0] if sides else ())
                if _SIDE_DESCRIPTION.match(x) or x.strip() in named_entities(x) or _ONE_NAME.fullmatch(x.strip())
                or self._titled_side(x, refs)
            ]
            return ComparePlan(
                **header,
                sides=sides,
                set_topic=self._set_topic(pair.group("topic").strip()) if pair else None,
                aspects=self._aspects(framed, refs, names, better),
                verdict=verdict_criterion(query) if better else "",
                otherwise=base,
            )
        # --- summaries of one paper (nothing else asked), or of the papers on a topic
        one = len(distinct) + len(described) == 1 or (not distinct and any(r.kind == "pronoun" for r in refs))
        desc = described[0] if summary and one and described and not distinct else None
        # "Summarize the paper that applies a decision transformer to chip placement": the
        # description runs to the end of its part, all of it the paper's, none of it an aspect
        whole = _described_to_end(query, desc.text) if desc is not None else ""
        if summary and one and not aspect_beyond_summary(_aspect(query, refs, [*names, whole]) if whole else aspect):
            return SummaryPlan(**header, described=whole, otherwise=base,
                               described_topic=self.topic(split_frame(whole)[0]) if whole else None)
        if summary and not distinct and not described and number == "many" and topic.text:
            return SummaryPlan(**header, topic=topic, otherwise=base)
        if _NEGATED.match(topic_text) and not distinct:
            instead = _NEGATED_BE.sub(r"\1 ", _NEGATION.sub("", query, count=1), count=1).strip()
            return Reply(**header, kind="negated", instead=instead)
        return base

    def _titled_side(self, side: str, refs: Sequence[PaperRef]) -> bool:
        """Whether a comparison side is a name read whole: it holds a paper's name the question
        states and, all of it, stands in that paper's title ("Hyena Hierarchy" of "Hyena Hierarchy:
        Towards Larger Convolutional Language Models", where "Hyena" is the name found): its other
        words belong to the name, no aspect asked ("Compare Hyena Hierarchy and Consistency Models"
        asked nothing of "Hierarchy")."""
        text = side.strip(" ,;:?.!")
        if self.catalogue is None or not content_terms(text):
            return False
        for r in refs:
            if r.kind != "name" or not re.search(rf"(?<![\w-]){re.escape(r.text)}(?![\w-])", text, re.I):
                continue
            for pid in r.paper_ids:
                if pid in self.catalogue.papers and states_phrase(text, self.catalogue[pid].title or ""):
                    return True
        return False

    def _within(self, named: Sequence[PaperRef], sides: Sequence[tuple[str, str]]) -> bool:
        """Whether the second side of a comparison with one named paper is something that paper's
        own abstract states ("How much energy does GLaM use compared with GPT-3?": GLaM's abstract
        compares itself with GPT-3): a measure of that paper, answered from its abstract, not a
        second paper to ask for. A side no abstract of the named paper states ("compare DANCE
        with DANSE") stays a side."""
        ids = {pid for r in named for pid in r.paper_ids}
        if self.catalogue is None or len(ids) != 1 or not sides:
            return False
        pid = next(iter(ids))
        if pid not in self.catalogue.papers:
            return False
        # the side that does not hold the paper's name ("music-carrier ASR attack paper vs CA-SOADD")
        said = [r.text.lower() for r in named]
        others = [x.strip(" ?.!,") for x in sides[0] if not any(n in x.lower() for n in said)]
        if len(others) != 1 or not content_terms(others[0]):
            return False
        # in its glossary forms too, hyphen or not: "RL vs SFT" of HyperTrack, which writes
        # "reinforcement-based finetuning consistently outperforms supervised finetuning"
        forms = [others[0], *glossary_forms(others[0])]
        forms += [f.replace("-", "") for f in forms if "-" in f]
        text = self.catalogue[pid].text_for_index
        return any(states_phrase(f, text) for f in forms)

    def _table(self, header: _Header, table: tuple[str, str], named: set[str]) -> TablePlan:
        """The plan of a table request read from a message: its rows and columns split
        (:func:`rag.question.table.split_table`), then planned as :meth:`table_plan` plans them."""
        rows, columns = table
        return self.table_plan(header, rows, column_phrases(columns), named=bool(named))

    def table_plan(self, header: _Header, rows: str, phrases: Sequence[str], *, named: bool) -> TablePlan:
        """The one plan of a table, however it was asked (a chat message, ``paperchat table``, the
        MCP tool): the rows are the papers named (``named``) or the papers on the topic ``rows``
        states ("the papers that release a new dataset", read from ``rows`` alone, its frame
        peeled), and one column per phrase, each read into its kind knowing what the others and
        the topic are about (:func:`rag.question.columns.read_columns`).

        Args:
            header: The plan header (what was asked, the filters stated).
            rows: What the rows are, as asked ("the papers on speech"); ignored when ``named``.
            phrases: The column phrases, in order (``()``: the default columns).
            named: The rows are papers the message names or refers to, not a topic's papers.
        """
        topic = None
        if not named:
            text = split_frame(rows)[0] if content_terms(rows) else ""
            topic = self.topic(text, number="many", query=rows) if text else None
        return TablePlan(**header, topic=topic, columns=read_columns(phrases, topic=topic))


def read_question(
    text: str | None, catalogue: Catalogue | None = None, *, max_chars: int = MAX_QUESTION_CHARS,
    filters: Collection[str] = (),
) -> Plan:
    """Read a message into its plan with a :class:`Reader` of ``catalogue`` (tests, one-off reads)."""
    return Reader(catalogue, max_chars=max_chars).read(text, filters=filters)


def _own_names(paper: Paper) -> list[str]:
    """What a question may write for ``paper`` besides a name it knows: its label, its title and
    the title's tail after the colon ("A Global Transformer on Large-scale Graphs")."""
    title = paper.title or ""
    tail = title.partition(":")[2].strip()
    return [n for n in dict.fromkeys((paper.label, title, tail)) if n]


_DEFINITE = re.compile(r"the\s", re.I)
"""A comparison side that opens as a definite description ("the prompt-based decision transformer
for few-shot policy generalization"): its words after a name it holds still describe the paper."""

_PART_END = re.compile(rf"[?;:!,+(]|\.(?:\s|$)|\s(?:{_V['summary_description_end']})\b", re.I)
"""Where a description of a paper ends in a summary request: at a punctuation mark or a word that
adds what else is asked ("..., including the technical obstacle", "+ what made it hard", "and the
shortcoming of previous approaches")."""


def _described_to_end(query: str, described: str) -> str:
    """The description ``described`` of ``query`` run on to the end of its part ("the paper that
    applies a decision transformer" -> "the paper that applies a decision transformer to chip
    placement" of "Summarize the paper that applies a decision transformer to chip placement"):
    what a summary request writes after the paper it describes, before a new part, describes it
    too. ``described`` unchanged when ``query`` does not write it."""
    at = query.lower().find(described.lower())
    if at < 0:
        return described
    end = _PART_END.search(query, at + len(described))
    return query[at : end.start() if end else len(query)].strip(" ,")


def aspect_beyond_summary(aspect: str) -> bool:
    """Whether a summary request also asks something specific ("the gist of APM: what's the
    problem with prior work?"): two or more content terms left after the summary words."""
    return len(content_terms(aspect)) >= 2
