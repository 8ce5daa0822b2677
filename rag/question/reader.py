"""The question model: a message is read once into a typed, frozen :class:`QuestionPlan`.

Every later stage (retrieval, refusal, evidence, comparison, summary, rendering) reads the
plan, never the raw string. The reading is built from word classes, not from one pattern per
phrasing, so that it holds however a researcher asks:

* **frame**: the words that only say "find me papers" ("which papers", "I'm looking for work
  on", "do we have anything on", "... papers?", "..., and which ones?") are peeled off both
  ends of the question by vocabulary (:data:`rag.question.phrasing.FRAME_WORDS`, set nouns matched within one typing
  error: "papres"), and the relating verb after them ("work on", "use", "deal with") goes too;
  what is left is the **topic**;
* **number**: what the frame says about how many papers are wanted: ``one`` ("which paper"),
  ``many`` ("which papers", "list", "how many papers") or ``open``; for ``open`` the calibrated
  relevance of each paper decides (:mod:`rag.route.membership`);
* **papers**: names the collection knows, in any letter case (:class:`rag.index.catalogue.NameIndex`),
  paper ids, ``[n]`` markers, ordinals ("the second one") and pronouns ("it", "both");
* **intent**: a comparison (a comparison word, or two named papers and "each"/"both"/"or" or a
  word that ranks them: "better", "outperforms"; ``asks_better`` when it asks which wins), a
  summary (a summary word and one paper, nothing else asked), a topic summary, or a question;
* **aspect**: what to quote from each paper (the question without frame, names and
  comparison/summary words) with its rhetorical roles and sub-questions;
* **form**: whether the question asks yes or no about papers it refers to ("Does DANCE use
  LLMs?": ``polar``, with the terms a sentence must state) or for an amount ("how many", "what
  accuracy": ``quantity``), so the answer's lead line takes that form (:mod:`rag.route.lead`).

The rules left are word tables with one job each; ``tests/test_question.py`` checks each class
with phrasings it was not written for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from rag.question.comparison import TWO, comparison_sides, explicit_two
from rag.question.details import asked_detail, detail_only
from rag.question.language import looks_non_english
from rag.question.parts import question_parts, without_paper_description
from rag.question.phrasing import (
    BETTER,
    Number,
    asks_better,
    asks_collection,
    asks_quantity,
    clean_input,
    facets,
    social,
    split_exclusion,
    split_frame,
    strip_injection,
    strip_social,
    trim,
    without_verdict,
)
from rag.question.polar import polar, polar_terms
from rag.question.roles import asks_own_limitations, is_summary, question_roles
from rag.question.table import asks_table, column_phrases, split_table
from rag.text import CODE_COMPOUND, content_terms

if TYPE_CHECKING:
    from rag.index.catalogue import Catalogue

__all__ = ["MAX_QUESTION_CHARS", "Intent", "Number", "PaperRef", "QuestionPlan", "read_question"]

Intent = Literal[
    "empty", "social", "instruction", "collection", "negated", "compare", "table", "summary", "topic_summary", "ask"
]
RefKind = Literal["name", "id", "number", "ordinal", "pronoun", "plural", "description"]

MAX_QUESTION_CHARS = 2000
"""Longest question read, in characters; a longer one is trimmed at a sentence end, with a notice."""


@dataclass(frozen=True)
class PaperRef:
    """A reference to a paper inside a question.

    Attributes:
        text: The reference as written ("DANCE", "[2]", "the second one", "it").
        kind: ``name`` (a name the collection knows), ``id``, ``number`` (``[2]``, "paper 2"),
            ``ordinal`` ("the second one", "the latter"), ``pronoun`` ("it", "this paper"),
            ``plural`` ("they", "both", "these papers") or ``description`` ("the ride-hailing paper").
        paper_ids: Papers a name or id points to (several when a name is ambiguous).
        index: The number of a ``number`` reference; the 0-based position of an ``ordinal``
            one (-1 for "last"/"latter").
    """

    text: str
    kind: RefKind
    paper_ids: tuple[str, ...] = ()
    index: int | None = None


@dataclass(frozen=True)
class QuestionPlan:
    """What a message asks, read once.

    Attributes:
        asked: The message after input normalisation (:func:`clean_input`).
        query: ``asked`` without instructions to the assistant, trimmed to :data:`MAX_QUESTION_CHARS`
            and without greetings or thanks around the question (:func:`rag.question.phrasing.strip_social`);
            what retrieval and evidence selection read.
        intent: ``empty``, ``social`` (a greeting, thanks or "ok": nothing asked of the papers,
            :func:`rag.question.phrasing.social`), ``instruction`` (only instructions to the assistant), ``collection``
            (the collection's papers, no topic: how many, ``number`` ``one``, or which, ``many``),
            ``negated`` (papers by what they are not about),
            ``compare``, ``table`` (papers by columns), ``summary`` (one paper), ``topic_summary`` or ``ask``.
        number: How many papers the frame asks for: ``one``, ``many`` or ``open``.
        refs: References to papers, in order of appearance.
        sides: For ``compare``: ways to split the question into two references, likeliest first.
        topic: What the papers must be about (frame, relating verb and exclusion removed).
        facets: Alternatives the topic lists ("speech or audio" -> ``("speech", "audio")``).
        exclusion: What the papers must not be about ("outside of agent settings" -> "agent settings").
        aspect: What to quote from each paper; ``""`` when nothing in particular (main points).
        parts: Sub-questions of ``aspect`` ("What X, and how Y?" -> two parts): what to quote.
        asked_parts: The same sub-questions as the question words them (names kept), for headings.
        roles: Rhetorical roles asked for: problem, method, result, data, theory.
        metadata: A detail abstracts do not state, when asked ("authors", "licence", ...).
        detail_only: The question asks for such a detail and has no topic of its own ("who are the
            authors?", "when was the paper published?", "what hardware was used?"): in a conversation
            it asks it of the papers of the previous answer (:meth:`rag.route.references.ReferenceResolver._referred`).
        artifact: For "papers that introduce/release a dataset (benchmark, ...)": the artifact words.
        wants_link: The question asks for code, a repository or a link.
        about_links: The question asks which papers link their code, and little else ("which
            papers have a GitHub repo link"): answered by the links papers state.
        summary: The question asks for a summary, gist or overview (quote more sentences).
        polar: A yes/no question about papers it refers to ("Does DANCE use LLM surrogates?",
            "Is it evaluated on Flickr30k?"); :func:`rag.question.polar.polar`.
        polar_terms: For ``polar``: the content terms a sentence must state for "yes" ("llm",
            "surrogates"); :func:`rag.question.polar.polar_terms`.
        quantity: The question asks for an amount ("how many datasets", "what accuracy gain"),
            not for papers; :func:`rag.question.phrasing.asks_quantity`.
        own_limits: The question asks for a paper's own limitations ("what are its limitations?"),
            not the limitation of earlier work it addresses (:func:`rag.question.roles.asks_own_limitations`).
        asks_better: For ``compare``: the question asks which paper is better, stronger, faster, more
            accurate ("Which is better, X or Y?", "is X stronger than Y?", "X vs Y: which one wins?");
            :func:`asks_better`. The comparison then says first whether the abstracts report a
            head-to-head result (:mod:`rag.route.head_to_head`).
        columns: For ``table``: the column phrases asked ("benchmark", "main result"), in order;
            empty for the default columns (:mod:`rag.evidence.table`).
        injected: Instructions to the assistant were dropped from ``query``.
        trimmed: ``query`` was cut to :data:`MAX_QUESTION_CHARS`.
        english: The question reads as English (else only names can be matched).
    """

    asked: str
    query: str
    intent: Intent = "ask"
    number: Number = "open"
    refs: tuple[PaperRef, ...] = ()
    sides: tuple[tuple[str, str], ...] = ()
    topic: str = ""
    facets: tuple[str, ...] = ()
    exclusion: str = ""
    aspect: str = ""
    parts: tuple[str, ...] = ()
    asked_parts: tuple[str, ...] = ()
    roles: frozenset[str] = field(default_factory=frozenset)
    metadata: str = ""
    detail_only: bool = False
    artifact: tuple[str, ...] = ()
    wants_link: bool = False
    about_links: bool = False
    summary: bool = False
    polar: bool = False
    polar_terms: tuple[str, ...] = ()
    quantity: bool = False
    asks_better: bool = False
    own_limits: bool = False
    columns: tuple[str, ...] = ()
    injected: bool = False
    trimmed: bool = False
    english: bool = True

    @property
    def named_ids(self) -> tuple[str, ...]:
        """Papers the question names or gives by id, in order, each once (ambiguous names included)."""
        return tuple(dict.fromkeys(pid for r in self.refs if r.kind in ("name", "id") for pid in r.paper_ids))

    @property
    def refers_back(self) -> bool:
        """The question refers to papers of earlier turns ([2], "the second one", "it", "both")."""
        return any(r.kind in ("number", "ordinal", "pronoun", "plural") for r in self.refs)


# --- input normalisation -----------------------------------------------------------------

# --- word classes --------------------------------------------------------------------------

_NEGATED = re.compile(r"^(?:not\s|(?:do|does|are|is)(?:\s+not\s|n[’']t\s)|without\s)", re.I)
_COMPARE_WORD = re.compile(
    r"\b(compar\w*|contrast\w*|versus|vs\.?|differ\w*|distinguish\w*|in common|similarit\w*|alike)\b", re.I
)
_MORE = re.compile(r"\b(more|less)\b", re.I)  # "which uses more memory": a comparison, not a verdict
_EACH = re.compile(r"\b(each|both|either|respectively|the two)\b", re.I)
_LINK = re.compile(
    r"\b(code|github|gitlab|repositor(y|ies)|repos?|links?|urls?|project pages?|websites?|demos?)\b", re.I
)
_ARTIFACT = re.compile(
    r"\b(datasets?|benchmarks?|corpus|corpora|metrics?|measures?|suites?|leaderboards?|simulators?|toolkits?|testbeds?)\b",
    re.I,
)
_CONTRIBUTES = re.compile(
    r"\b(propos|introduc|present|contribut|releas|construct|build|built|creat|collect|curat|provid|offer|new|novel)\w*",
    re.I,
)
_ID = re.compile(r"`?([\w.-]+#\d+)`?")
_NUMBER_REF = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]|\b(?:paper|source|reference|ref\.?|citation)\s+#?(\d+)\b", re.I)
_ORDINALS = {
    "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
    "fifth": 4, "5th": 4, "former": 0, "last": -1, "latter": -1,
}  # fmt: skip
_REF_NOUN = r"(?:one|paper|method|work|approach|model|framework|study|article|system|technique|source)"
_ORDINAL_REF = re.compile(
    rf"\bthe\s+(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)"
    rf"(?:\s+{_REF_NOUN}\b|(?=\s*[?.!,]*\s*$))|\bthe\s+(?P<fl>former|latter)\b",
    re.I,
)
_PRONOUN = re.compile(
    r"\b(?:it|its)\b|\b(?:this|that|the same|the above|the previous)\s+(?:paper|method|work|approach|model|framework|"
    r"study|article|system|technique|one)\b(?!s)",
    re.I,
)
_PLURAL = re.compile(
    r"\b(?:they|them|their)\b|\b(?:(?:these|those|the first|the top|the) (?:two|three|four|five|[2-5])|"
    r"these|those|both)(?:\s+(?:papers|methods|works|approaches|models|frameworks|studies))?\b",
    re.I,
)
# "these two papers", "the first three", "both papers": papers already cited, counted
_COUNTED = re.compile(r"\b(?:two|three|four|five|[2-5]|both)\b", re.I)
# "the ride-hailing paper", "the paper on quantum computing", "the work that studies LLM logic".
_DESCRIBED = re.compile(
    r"\bthe\s+(?P<d>(?:(?!(?:of|in|on|the|a|an|that|which|and|or|to|for|by|with|from)\b)[\w$\\{}/-]+\s+){1,8}?)"
    r"(?:paper|work|study|method|approach)\b(?!s)"
    r"|\bthe\s+(?:paper|work|study|method|approach|one)\s+(?:on|about|that|which|proposing|studying|introducing)\s+"
    r"(?P<e>[^,;:?]+?)(?=\s*(?:[,;:?]|$|\s+(?:and|with|versus|vs\.?|to|from)\s))",
    re.I,
)


_SIDE_DESCRIPTION = re.compile(r"^the\s+(?:paper|one|work|study|method|approach)\s+(?:on|about|that|which|for)\b", re.I)


def _refs(query: str, catalogue: Catalogue | None) -> list[tuple[int, PaperRef]]:
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
        for name, ids in catalogue.names.named(query).items():
            found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", query, re.I)
            pos = found.start() if found else len(query)
            add(pos, pos + len(name), PaperRef(name, "name", ids))
    for m in _NUMBER_REF.finditer(query):
        nums = (m.group(1) or m.group(2)).split(",")
        for n in nums:
            add(m.start(), m.end(), PaperRef(m.group(0), "number", index=int(n)))
            taken.pop()
        taken.append((m.start(), m.end()))
    for m in _ORDINAL_REF.finditer(query):
        word = (m.group("ord") or m.group("fl")).lower()
        add(m.start(), m.end(), PaperRef(m.group(0), "ordinal", index=_ORDINALS[word]))
    for m in _PLURAL.finditer(query):
        add(m.start(), m.end(), PaperRef(m.group(0), "plural"))
    for m in _PRONOUN.finditer(query):
        add(m.start(), m.end(), PaperRef(m.group(0), "pronoun"))
    for m in _DESCRIBED.finditer(query):
        if content_terms(m.group("d") or m.group("e") or ""):
            add(m.start(), m.end(), PaperRef(m.group(0), "description"))
    return sorted(out, key=lambda t: t[0])


_ASPECT_DROP = re.compile(
    r"\b(compar\w*|contrast\w*|versus|vs\.?|differ\w*|distinguish\w*|in common|similarit\w*|alike|"
    r"summari[sz]\w*|summary|overview|gist|tl;?\s?dr|recap|synopsis|explain|describe|briefly|"
    r"each|both|either|one|respectively|the two|give me|tell me|could you|can you|please|"
    r"better|worse|best|superior|preferable)\b",
    re.I,
)


SHORT_ASPECT_WORDS = 6
"""Most words of an aspect shown as the heading instead of the question part that names the papers
("DANCE vs APM on efficiency" -> "Efficiency"), when the names stood outside it; a longer aspect is
a question of its own and is shown as written."""
_SHORT_ASPECT_LEAD = re.compile(
    r"^(?:(?:how|what|do|does|did|is|are|and|or|on|in|of|about|regarding|concerning|for|with|when|it|"
    r"comes|terms|respect|to|their|the|its|as)\b\W*)+",
    re.I,
)


def _aspect(query: str, refs: list[PaperRef], names: list[str], verdict: bool = False) -> str:
    """What a question asks about its papers: without their names, descriptions and the words that
    only say "compare" or "summarize" (with ``verdict``, also the words that only ask which paper
    wins: "is more accurate", "which one wins"); ``""`` when nothing in particular is asked."""
    out = query
    said = set(names) | {r.text for r in refs if r.kind in ("id", "number", "ordinal", "plural", "description")}
    for name in sorted(said, key=len, reverse=True):
        out = re.sub(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?(?![\w-])", " ", out, flags=re.I)
    out = without_paper_description(out)
    out = _ASPECT_DROP.sub(" ", out)
    if verdict:
        out = without_verdict(out)
    out = re.sub(r"\s+", " ", out).strip(" ,;:-?.")
    rest = [t for t in content_terms(out) if t not in {"paper", "papers", "method", "methods", "work", "approach"}]
    return out if rest else ""


def _asks_link(text: str) -> bool:
    """Whether ``text`` mentions code links ("code generation" does not: :data:`rag.text.CODE_COMPOUND`)."""
    return bool(_LINK.search(CODE_COMPOUND.sub(" ", text)))


def _about_links(topic: str) -> bool:
    """A topic that is only about code links: at most one content word besides link words."""
    link_words = {"provide", "release", "available", "link"}
    return _asks_link(topic) and len([t for t in content_terms(_LINK.sub(" ", topic)) if t not in link_words]) <= 1


def _parts(
    query: str, refs: list[PaperRef], names: list[str], verdict: bool = False
) -> dict[str, tuple[str, ...]]:
    """The sub-questions of a question that ask something of its papers, as written and as the
    evidence query (names and "compare"/"each" words removed, and with ``verdict`` the words that
    only ask which wins); parts that only name papers go."""
    written, queries = [], []
    for part in question_parts(query):
        q = _aspect(part, refs, names, verdict)
        if not q:
            continue
        split = re.split(r":|\s+[-–—]+\s+", part, maxsplit=1)
        head, tail = (split[0], split[1]) if len(split) == 2 else (part, "")
        # "Compare DANCE and APM: what ...", "DANCE or APM - how does each ...": the heading is what follows
        if tail.strip() and not _aspect(head, refs, names, verdict):
            part = tail
        shown = re.sub(r"^\W*(?:and|or|but|also)\b\W*", "", part).strip(" ,;:?.-")
        # "DANCE vs APM on efficiency", "How do DANCE and APM differ in speed?": a short aspect
        # left once the names and the "compare" words go is the heading ("Efficiency").
        short = _SHORT_ASPECT_LEAD.sub("", q)
        said = [*names, *(r.text for r in refs)]
        named = any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", shown, re.I) for n in said if n)
        whole = short.lower() in shown.lower()  # no name was cut out of its middle
        if named and whole and short != shown and len(short.split()) <= SHORT_ASPECT_WORDS:
            shown = short
        written.append(shown)
        queries.append(q)
    return {"parts": tuple(queries), "asked_parts": tuple(written)}


def read_question(
    text: str | None, catalogue: Catalogue | None = None, *, max_chars: int = MAX_QUESTION_CHARS
) -> QuestionPlan:
    """Read a message into a :class:`QuestionPlan` (see the module docstring).

    Args:
        text: The message as typed (any text; ``None`` and empty give ``intent="empty"``).
        catalogue: The collection's papers and names; without it no name or id is recognised.
        max_chars: Longest question read (``input.max_question_chars``); a longer one is trimmed.

    Returns:
        The plan. Never raises for any input.
    """
    asked = clean_input(text)
    if not asked:
        return QuestionPlan(asked, "", "empty")
    query, injected = strip_injection(asked)
    query, trimmed = trim(query, max_chars)
    greeting = bool(query) and social(query)
    if not greeting:  # "hi, which papers ...", "thanks! and who wrote it?": what is asked
        query = strip_social(query)
    known = catalogue.known if catalogue is not None else None
    english = greeting or not looks_non_english(query or asked, known)
    base = {"asked": asked, "query": query, "injected": injected, "trimmed": trimmed, "english": english}
    refs = [r for _, r in _refs(query, catalogue)] if query else []
    if greeting and not any(r.kind in ("name", "id") for r in refs):  # "got it" refers to no paper
        return QuestionPlan(**base, intent="social")  # type: ignore[arg-type]
    held = asks_collection(query) if query and not refs else ""
    if held:  # "how many papers are there?" (number one), "list all papers" (many)
        return QuestionPlan(**base, intent="collection", number="one" if held == "count" else "many")  # type: ignore[arg-type]
    if not query or not (content_terms(query) or refs):
        if injected:
            return QuestionPlan(**base, intent="instruction")  # type: ignore[arg-type]
        return QuestionPlan(**base, intent="empty" if english else "ask")  # type: ignore[arg-type]
    names = [r.text for r in refs if r.kind == "name"]
    if catalogue is not None:
        names += [n for r in refs if r.kind in ("name", "id") for pid in r.paper_ids for n in (catalogue[pid].label,)]
    names_papers = any(r.kind in ("name", "id", "number", "ordinal", "pronoun") for r in refs)
    topic, number = split_frame(query, plural_heads=not names_papers)
    if number == "many":  # "their code", "these abstracts": in a set question they mean the papers asked for
        refs = [r for r in refs if r.kind != "pronoun" and (r.kind != "plural" or _COUNTED.search(r.text))]
    papers = [r for r in refs if r.kind in ("name", "id", "number", "ordinal")]
    distinct = {pid for r in papers for pid in r.paper_ids} | {f"#{r.index}" for r in papers if not r.paper_ids}
    metadata = asked_detail(query)
    summary = is_summary(query)
    aspect = _aspect(query, refs, names)
    roles = frozenset(question_roles(aspect or query))
    if summary:
        roles |= {"problem", "method", "result"}
    # Yes/no only about papers the question refers to: "Does any paper ..." asks for papers.
    is_polar = polar(query) and any(r.kind != "plural" or number != "many" for r in refs)
    asked_terms = polar_terms(aspect) if is_polar else ()
    if catalogue is not None:  # typing errors in the topic: "reinforcment learning papers"
        topic = re.sub(r"[A-Za-z]{5,}", lambda m: catalogue.correct(m.group(0)), topic)
    t_topic, t_excl = split_exclusion(topic)
    common = {
        **base,
        "topic": t_topic,
        "exclusion": t_excl,
        "facets": facets(t_topic),
        "refs": tuple(refs),
        "number": number,
        "metadata": metadata,
        "detail_only": detail_only(query, metadata),
        "aspect": aspect,
        **_parts(query, refs, names),
        "roles": roles,
        "summary": summary,
        "polar": is_polar and bool(asked_terms),
        "polar_terms": asked_terms,
        "quantity": asks_quantity(query, number),
        "own_limits": asks_own_limitations(query, names),
        "wants_link": _asks_link(query),
        "about_links": _asks_link(query) and _about_links(t_topic),
    }
    # --- comparisons: two papers and a comparison word or "each"/"both"/"or"; or "compare them"
    sides = tuple(comparison_sides(query))
    described = [r for r in refs if r.kind == "description"]
    pronoun = any(r.kind == "pronoun" for r in refs)  # "how does it differ from ...": the paper of the last turn
    two = len(distinct) + len(described) + int(pronoun) >= 2
    explicit = bool(_COMPARE_WORD.search(query))
    pair = TWO.search(query)  # "the two federated learning papers"
    ranks = bool(BETTER.search(query))  # "does X outperform Y?", "which performs best among X, Y and Z"
    better = asks_better(query)
    # --- tables: "a table of ...", or a comparison across a whole set ("compare all the papers on T by X")
    table = split_table(query)
    plural = any(r.kind == "plural" for r in refs)
    counted = any(r.kind == "plural" and _COUNTED.search(r.text) for r in refs)  # "the two", not "their"
    if table is not None and (asks_table(query) or not (pair or distinct or described or counted)):
        return _table_plan(common, table, distinct, catalogue)
    if (explicit and (pair or plural)) or number != "many" and (
        (two and (explicit or ranks or _MORE.search(query) or _EACH.search(query) or re.search(r"\bor\b", query, re.I)))
        or (explicit and number == "open" and sides and not distinct and all(content_terms(x) for x in sides[0]))
        or (explicit and len(distinct) == 1 and explicit_two(query))
    ):
        # A side that describes its paper ("the one on likelihood matching for diffusion") is no aspect.
        names = names + [x for x in (sides[0] if sides else ()) if _SIDE_DESCRIPTION.match(x)]
        if not better:
            wanted = {"aspect": _aspect(query, refs, names), **_parts(query, refs, names)}
            return QuestionPlan(**{**common, **wanted}, intent="compare", sides=sides)  # type: ignore[arg-type]
        verdict = {"aspect": _aspect(query, refs, names, True), **_parts(query, refs, names, True)}
        return QuestionPlan(**{**common, **verdict}, intent="compare", sides=sides, asks_better=True)  # type: ignore[arg-type]
    # --- summaries of one paper (nothing else asked), or of the papers on a topic
    one = len(distinct) + len(described) == 1 or (not distinct and any(r.kind == "pronoun" for r in refs))
    if summary and one and not aspect_beyond_summary(aspect):
        return QuestionPlan(**common, intent="summary")  # type: ignore[arg-type]
    if summary and not distinct and not described and number == "many" and t_topic:
        return QuestionPlan(**{**common, "number": "many"}, intent="topic_summary")  # type: ignore[arg-type]
    if _NEGATED.match(topic) and not distinct:
        return QuestionPlan(**common, intent="negated")  # type: ignore[arg-type]
    artifact: tuple[str, ...] = ()
    if number != "one" and not distinct and _CONTRIBUTES.search(query):
        artifact = tuple(dict.fromkeys(w.lower() for w in _ARTIFACT.findall(t_topic)))
    return QuestionPlan(**common, intent="ask", artifact=artifact)  # type: ignore[arg-type]


def _table_plan(common: dict, table: tuple[str, str], named: set[str], catalogue: Catalogue | None) -> QuestionPlan:
    """The plan of a table request: its rows are the papers it names or its topic's papers, its
    columns the phrases after the column word (:func:`rag.question.table.split_table`)."""
    rows, columns = table
    topic = ""
    if not named:
        topic = split_frame(rows)[0] if content_terms(rows) else ""
        if catalogue is not None:
            topic = re.sub(r"[A-Za-z]{5,}", lambda m: catalogue.correct(m.group(0)), topic)
    t_topic, t_excl = split_exclusion(topic)
    plan = {**common, "topic": t_topic, "exclusion": t_excl, "facets": facets(t_topic), "number": "many",
            "metadata": "", "detail_only": False, "polar": False, "polar_terms": (),
            "quantity": False}  # columns are asked per cell
    return QuestionPlan(**plan, intent="table", columns=column_phrases(columns))


def aspect_beyond_summary(aspect: str) -> bool:
    """Whether a summary request also asks something specific ("the gist of APM: what's the
    problem with prior work?"): two or more content terms left after the summary words."""
    return len(content_terms(aspect)) >= 2
