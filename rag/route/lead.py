"""The lead line of an extractive answer: one line, first, in the form the question asks.

An extractive answer quotes evidence sentences; the lead says the answer before them, built only
from (a) paper labels, (b) the count of papers found, (c) spans quoted from the evidence sentences
(exact substrings of the abstract, shown through :func:`store.papers.strip_markup` like every
quotation) and (d) the fixed connective words of this module. It never states a relation the
evidence does not quote: "improves" or "outperforms" appear only inside a quotation.

Forms, decided from the :class:`rag.question.reader.QuestionPlan`:

* **yes/no** (``plan.polar``): "Yes: **X** [1] — “…”" when one sentence of the paper's abstract
  states every asked term (compared as term keys, :func:`rag.lexicon.term_key`: lemma and stem),
  else "The abstract of **X** [1] does not state this: …"; a sentence that states them after a
  negation ("without labels") is quoted without "Yes", and so is one that sets them against the
  paper (:func:`contrasted`: "over autoregressive models", "... infeasible", prior work);
* **slot** (``plan.ask.slot``, a named paper): "**X** [1]: “…”" with the clauses of the sentence
  that state the measure, entity or detail asked (:mod:`rag.route.slot`);
* **amount** (``plan.quantity``): "**X** [1]: “…”" with the clauses of its best evidence sentences
  that state numbers, quoted with their context;
* **list** (several papers found): "N papers in the collection are clearly about this:" (N counts
  the papers whose calibrated membership reaches the answer's threshold, :mod:`rag.route.membership`)
  then "- **X** [n] — “…”", one line per paper with the key clause of the sentence that states the
  topic as the paper's own (:meth:`rag.evidence.selector.EvidenceSelector.own_statement`); papers
  that only mention the topic follow the answer, counted apart and not cited (:func:`mention_head`);
* **one paper**: "**X** [n] — “…”": what it does (the clause of its approach sentence) when the
  question did not name it, else the key clause of the sentence that best answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag.citations import format_marker
from rag.evidence.rows import states_own_limitation
from rag.evidence.senses import Senses
from rag.lexicon import joined_form, lemma, long_forms, open_compounds, same_keys, states_form, term_key
from rag.llm.claims import PRIOR_WORK
from rag.llm.prose import Source
from rag.question.plan import Ask, AskPlan
from rag.question.polar import BETTER, contrary_keys, prefixed_base, sense_keys, unqualified
from rag.question.slots import HARDWARE
from rag.text import STOPWORDS, Sentence, content_terms, fold_accents, numbers, states_figure
from rag.types import Evidence
from rag.vocabulary import beside
from store.labels import without_links
from store.papers import strip_markup

__all__ = [
    "MAX_LEAD_WORDS",
    "PolarVerdict",
    "about_head",
    "clause_spans",
    "key_clause",
    "lead_line",
    "list_head",
    "manner_line",
    "mention_head",
    "number_span",
    "one_paper_lead",
    "own_clause",
    "polar_verdict",
    "quoted",
]

MAX_LEAD_WORDS = 32
"""Most words of one quoted span in a lead line. Calibrated on the seed collection's approach
sentences: without its opening clause, the span ("we propose X, a ... that ...") of 32 of the 37
that have one fits in 32 words (median 22; 24 words would cut 15 of 37); a longer span is cut at its
last clause boundary (or word) and marked with an ellipsis outside the quotation."""
MIN_CLAUSE_WORDS = 6
"""A numeric clause shorter than this ("with 33.42% fewer tokens") is quoted with the clause before it
(a reading choice, not tuned: five words or fewer rarely say what the number measures)."""
MAX_OPENER_WORDS = 12
"""A leading clause of at most this many words that opens with a discourse word ("To address these
issues,", "In this work,") is left out of a quotation: it says where the sentence stands, not what
(not tuned: a longer opening clause usually carries content)."""
MAX_HEADING_WORDS = 3
"""A leading fragment of at most this many words that ends in a full stop inside the sentence is a
list heading ("(2) Suboptimal.", "(1) Overhead."): left out of a quotation."""
MAX_NUMBER_QUOTES = 2
"""Most evidence sentences an amount lead quotes numbers from (best first)."""
_VOCABULARY = beside(__file__, "lead")
_AMOUNT_PHRASE = beside(__file__, "slots")["amount_phrase"]
_COMPUTE_STATED = beside(__file__, "slots")["compute_stated"]
_JOINED_ONE = beside(__file__, "slots")["joined_count_number"].words
_JOINED_KIND = beside(__file__, "slots")["joined_count_kind"].words
_NAMED_NUMBER = re.compile(r"[A-Za-z]-?\d")
"""A number inside a name ("Flan-T5", "GPT-4"): no count of what follows it."""


def joined_count(word: str, keys: set[str], after: str = "") -> bool:
    """Whether ``word`` is a number joined by a hyphen to a unit whose term key is in ``keys``, a
    count written as an adjective ("one-step generation" counts steps, "a two-stage pipeline"
    stages, "4-layer" layers; not "Flan-T5", nor "multi-step"). ``keys``: the unit's term keys
    (:func:`rag.lexicon.term_key`, with its same words). ``after``: the word that follows; a word of
    one before a collection of data names the kind of its items ("a single-cell dataset" holds
    cells, not one cell: :data:`_JOINED_KIND`)."""
    head, dash, unit = word.rpartition("-")
    if not dash or not head or not unit:
        return False
    number = head.rpartition("-")[2]
    one = number.lower() in _JOINED_ONE
    if not (states_amount(number) or one) or _NAMED_NUMBER.search(word):
        return False
    if one and after.strip("(),;:.\"'“”").lower() in _JOINED_KIND:
        return False
    return bool(keys & {k for k, _, _ in _keys_at(unit)})


def counts_joined(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` counts the last of ``terms`` (a measure's head, last) by a number joined
    to it (:func:`joined_count`): "existing one-step" counts the steps of "how many steps"."""
    if not terms:
        return False
    keys = {term_key(terms[-1])} | same_keys(terms[-1])
    words = text.split()
    return any(
        joined_count(w.strip("(),;:.\"'“”"), keys, words[i + 1] if i + 1 < len(words) else "")
        for i, w in enumerate(words)
    )


def states_amount(text: str) -> bool:
    """Whether ``text`` states an amount: a figure or a number word (:func:`rag.text.states_figure`:
    "2.33%", "four levels") or an amount in words ("an order of magnitude", "one-eighth"). A list
    item's number states none ("to (1) train multiple models and (2) pick the best":
    :data:`_ENUMERATOR`)."""
    text = _ENUMERATOR.sub(" ", text)
    return states_figure(text) or bool(_AMOUNT_PHRASE.search(text))
"""The lead's word tables (``vocabulary/lead.toml``)."""
# Words and word pairs that open a sentence with where it stands, not what it states ("However,",
# "To address these issues,", "In this work,"). Openers that carry content are kept ("On hard
# reasoning problems,", "Across 8 TAG datasets,", "Unlike prior work,"): leaving them out would
# widen what the quotation claims.
_OPENERS = _VOCABULARY["opener"].words
_OPENER_PAIRS = frozenset(_VOCABULARY["opener_pair"].phrases)
_NEGATIONS = _VOCABULARY["negation"].words
_ADDITIVE = _VOCABULARY["additive_after_negation"].words
_SCOPE_END = _VOCABULARY["negation_scope_end"].words
_THROUGH = _VOCABULARY["negation_through"].words
_CONTRAST = _VOCABULARY["contrast"].words
"""Words that, up to :data:`STANCE_WINDOW` words before an asked term in its clause, make the
mention a contrast ("improved decoding efficiency over autoregressive models"), not a statement
that the paper has or does it."""
_OPTIONS = _VOCABULARY["compared_options"].pattern
"""Words that make an asked term after them in its clause one of options the paper compares
(:func:`compared_option`)."""
_DENIED = _VOCABULARY["denied"].words
_COPULA = _VOCABULARY["copula"].words
_SET_ASIDE = _VOCABULARY["set_aside"].words
_DIRECT = _VOCABULARY["negation_direct"].words
_JOINER = _VOCABULARY["negated_list_joiner"].words
_KEEPS = _VOCABULARY["negation_keeps"].words
_ITEM_BREAK = _VOCABULARY["list_item_break"].words
_VERB_OBJECT = _VOCABULARY["verb_object_opener"].words
_STAND_IN = _VOCABULARY["stand_in"].words
_OPPOSITE = {
    term_key(a): b.lower()
    for row in _VOCABULARY["comparative_opposite"].phrases
    for a, b in (row.split(), row.split()[::-1])
}
"""The opposite of a comparative (by its term key) as written: a sentence states it only in that
word ("slower"), not in a word of its stem ("costlier" is not stated by "training cost")."""
_LESS = frozenset(term_key(w) for w in _VOCABULARY["comparative_less"].words)
_STATES_LESS = _VOCABULARY["states_less"].words
_BETTER = frozenset(term_key(w) for w in _VOCABULARY["comparative_better"].words)
_STATES_BETTER = _VOCABULARY["states_better"].words
_FASTER = frozenset(term_key(w) for w in _VOCABULARY["comparative_faster"].words)
_STATES_SPEEDUP = _VOCABULARY["states_speedup"].words
_TIME_MEASURE = _VOCABULARY["time_measure"].words
SET_ASIDE_REACH = 3
"""Most words from a word of setting aside to the asked term it sets aside (:func:`sets_aside`):
"thereby avoiding costly bi-level optimization" (2), "eliminating per-task retraining" (1); not
"replace supervised fine-tuning with RL" (4), where RL is what replaces (not tuned: the longest
reach in the seed abstracts' "avoiding"/"eliminating"/"replaces" clauses is 2)."""
"""Words that, up to two words after an asked term, deny it ("rendering supervised fine-tuning
infeasible")."""
STANCE_WINDOW = 4
"""Words before a term searched for a contrast word: a clause's preposition phrase ("over
autoregressive diffusion language models") puts its head noun up to four words after it."""
_OWN = _VOCABULARY["own"].pattern
_MANNER = _VOCABULARY["manner_marker"].pattern
_NAMING = _VOCABULARY["kind_naming"].pattern
_KIND_ARTICLE = _VOCABULARY["kind_article"].words
_OBJECT_CUE = _VOCABULARY["comparison_object"].pattern
_BARE_DEGREE = _VOCABULARY["bare_degree"].words
_AVAILABILITY_CUE = _VOCABULARY["availability_cue"]
_AVAILABLE_NOUNS = {k: _VOCABULARY[f"available_{k}"] for k in ("code", "data", "models")}
_OPEN_SOURCE_CODE = re.compile(
    rf"\bopen[- ]?source[d]?\s+(?:[\w-]+\s+)?{_VOCABULARY['open_source_code'].source}", re.I
)
"""Software called open-source in so many words ("an efficient open-source algorithm"): code made available."""
_CODE_HOST = _VOCABULARY["code_host"]
_WORDS = re.compile(r"\S+")
_ENUMERATOR = re.compile(r"\(\d{1,2}\)|^\d{1,2}\)")
"""A list item's number ("(1) Overhead", "2) Suboptimal"): it counts items, it states no figure."""
_TERM_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'@][A-Za-z0-9]+)*|\d+(?:[.,]\d+)*%?")
"""A content token of a sentence: a word with its hyphenated, apostrophe'd and "@" parts (a measure at a
cut-off, "R@1", "TR@1", is one name, as the question reader reads it: :mod:`rag.question.slots`), or a figure."""

Sentences = Callable[[Evidence], list[Sentence]]
Move = Callable[[Evidence], str]
"""The move of an evidence sentence in its abstract (:func:`rag.evidence.roles.abstract_moves`)."""
Rank = Callable[[Ask, Source], list[Evidence]]
"""A source's evidence sentences scored against one part of the question, best first."""
Stating = Callable[[Ask, Source], tuple[Evidence, tuple[int, int, bool]] | None]
Beside = Callable[[Ask, Source, Evidence], list[tuple[Evidence, tuple[int, int, bool]]]]
"""The other sentences that state an ask's slot besides the one :data:`Stating` gave (a model's other sizes)."""
"""The sentence of a source's abstract that states the slot of an ask (the question or one of its
parts) and the clauses that state it (:func:`rag.route.slot.slot_span`), added to the source's
evidence; ``None`` when none states it."""


# --- spans of one sentence -------------------------------------------------------------------


_RESTATING = ("i.e.", "e.g.")
"""Abbreviations a comma follows without ending a clause ("output, i.e., embedding")."""


_WORD_LIST = re.compile(
    r"(?<![\w-])[a-z][\w-]*(?:,\s+[a-z][\w-]*)+,?\s+(?:and|or)\s+[a-z][\w-]*(?=\s+[\w(])"
)
"""A list of single lower-case words coordinated before the word they share ("13 <mathematical,
symbolic, and algorithmic> reasoning tasks", "<spatial, temporal and semantic> cues"): three items
at least, the last joined by "and" or "or"; its commas join words, they end no clause."""


def _joined_words(sentence: str) -> set[int]:
    """Offsets of the commas of ``sentence`` inside a list of single coordinated words
    (:data:`_WORD_LIST`), none of whose items opens a sentence ("however, training and inference
    are ...") or is a function word ("accuracy, robustness, and we show ...": a clause)."""
    commas: set[int] = set()
    for m in _WORD_LIST.finditer(sentence):
        items = [w for w in re.findall(r"[a-z][\w-]*", m.group(0)) if w not in ("and", "or")]
        if any(w in _OPENERS or w in STOPWORDS for w in items):  # "..., robustness, and we show ..."
            continue
        commas.update(m.start() + k for k, ch in enumerate(m.group(0)) if ch == ",")
    return commas


def coordinated_as_one(text: str) -> str:
    """``text`` with each list of single coordinated words (:func:`_joined_words`) written as its
    last item: they stand in one place before the word they share, so "13 mathematical, symbolic,
    and algorithmic reasoning tasks" counts its tasks as "13 algorithmic reasoning tasks" does
    (:func:`rag.route.slot.counts`). ``text`` unchanged when it holds no such list."""
    commas = _joined_words(text)
    if not commas:
        return text
    out, last = [], 0
    for m in _WORD_LIST.finditer(text):
        if m.start() + m.group(0).index(",") in commas:
            out.append(text[last : m.start()] + m.group(0).split()[-1])
            last = m.end()
    return "".join(out) + text[last:]


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """The top-level clauses of a sentence as ``(start, end)`` offsets into it.

    Split after ``,`` ``;`` ``:`` (not a comma after "i.e." or "e.g.", nor one inside a list of
    single coordinated words, :data:`_WORD_LIST`: "across 13 mathematical, symbolic, and algorithmic
    reasoning tasks" is one clause, which states both the count and what it counts), around a spaced dash or an
    em dash (an en dash between two words or figures is a range: "3B–72B") and after an inner full
    stop, never inside brackets or ``$...$``;
    each span has its surrounding spaces and closing punctuation trimmed; ``sentence[a:b]`` is
    always an exact substring.
    """
    cuts: list[tuple[int, int]] = []  # (end of a clause, start of the next)
    joined = _joined_words(sentence)
    depth, math = 0, False
    i, n = 0, len(sentence)
    while i < n:
        ch = sentence[i]
        if ch == "$":
            math = not math
        elif not math and ch in "([":  # LaTeX braces ("\textbf{...}") are markup, not brackets
            depth += 1
        elif not math and ch in ")]":
            depth = max(0, depth - 1)
        elif not math and depth == 0:
            comma = ch in ",;:" and i + 1 < n and sentence[i + 1] == " "
            # "model output, i.e., embedding signals ...": the clause goes on after "i.e.,"
            comma = comma and not (ch == "," and sentence[max(0, i - 4) : i].lower() in _RESTATING)
            comma = comma and i not in joined  # "mathematical, symbolic, and algorithmic reasoning tasks"
            # an en dash between two words or figures is a range ("3B–72B models"), not a break
            ranged = ch == "–" and 0 < i < n - 1 and sentence[i - 1].isalnum() and sentence[i + 1].isalnum()
            dash = (ch in "—–" and not ranged) or (
                ch == "-" and 0 < i < n - 1 and sentence[i - 1] == " " and sentence[i + 1] == " "
            )
            # A sentence the splitter merged ("(2) Suboptimal. To reduce ...") ends a clause too.
            after = i + 1 + (sentence[i + 1 : i + 2] == "}")  # "\textbf{(2) Suboptimal.} To ..."
            stop = ch == "." and after + 1 < n and sentence[after] == " " and sentence[after + 1].isupper()
            if comma or dash or stop:
                cuts.append((i, after if stop else i + 1))
        i += 1
    spans, start = [], 0
    for end, nxt in cuts:
        spans.append((start, end))
        start = nxt
    spans.append((start, n))
    return [t for t in (_trim(sentence, a, b) for a, b in spans) if t[1] > t[0]]


def _trim(sentence: str, a: int, b: int) -> tuple[int, int]:
    """``(a, b)`` without surrounding spaces and trailing sentence punctuation."""
    while a < b and sentence[a].isspace():
        a += 1
    while b > a and (sentence[b - 1].isspace() or sentence[b - 1] in ".,;:!?"):
        b -= 1
    return a, b


def _words(text: str) -> int:
    return len(_WORDS.findall(text))


def _without_opener(sentence: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The clauses without leading ones that only open the sentence ("To address this, we ...")."""
    out = list(spans)
    while len(out) > 1:
        a, b = out[0]
        words = [w.lower().strip("(") for w in sentence[a:b].split()[:2]]
        opener = bool(words) and (words[0] in _OPENERS or " ".join(words) in _OPENER_PAIRS)
        # A list heading the sentence splitter joined to its sentence: "(2) Suboptimal. To reduce ...".
        heading = b < len(sentence) and sentence[b] == "." and _words(sentence[a:b]) <= MAX_HEADING_WORDS
        if heading or (opener and _words(sentence[a:b]) <= MAX_OPENER_WORDS):
            out = out[1:]
        else:
            break
    return out


_NAME = r"[A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2}"
_NAME_LIST_REST = re.compile(rf"(?:,\s+{_NAME})*,?\s+(?:and|or)\s+{_NAME}")
"""The rest of a list of names after an item: ", Metaworld and Robosuite", ", ALFWorld, and Deep Search",
", and Places365"."""
_NAME_BEFORE = re.compile(rf"(?<![\w-]){_NAME}$")


def _list_end(sentence: str, e: int, b: int) -> int:
    """Where a list of names that a clause end ``e`` would cut ends ("including D4RL|, Metaworld and
    Robosuite"): the end of its last name, when a name ends at ``e`` and the list goes on within
    ``b``; else ``e``. A cut there would drop the items after the first, unmarked by any clause."""
    m = _NAME_LIST_REST.match(sentence, e, b)
    if m is None or not _NAME_BEFORE.search(sentence, 0, e):
        return e
    return m.end()


def _capped(sentence: str, a: int, b: int, spans: list[tuple[int, int]]) -> tuple[int, int, bool]:
    """``(a, b, cut)``: the span cut to :data:`MAX_LEAD_WORDS` at its last clause end (or word) inside;
    a cut inside a list of names goes on to the list's end (:func:`_list_end`), past the cap if need be."""
    if _words(sentence[a:b]) <= MAX_LEAD_WORDS:
        return a, b, False
    ends = [e for s, e in spans if a < e < b and s >= a and _words(sentence[a:e]) <= MAX_LEAD_WORDS]
    if ends and _words(sentence[a : ends[-1]]) >= MIN_CLAUSE_WORDS:
        end = _list_end(sentence, ends[-1], b)
        return a, end, end < b
    words = list(_WORDS.finditer(sentence, a, b))
    end = words[MAX_LEAD_WORDS - 1].end()
    return _trim(sentence, a, end) + (True,)


def own_clause(sentence: str) -> tuple[int, int, bool]:
    """:func:`key_clause`, from the first clause in which the authors speak of their own work
    (``own``: "we introduce ...") when the key clause opens with another: "Unlike widely used routing
    heuristics that ... offer limited control over latency–throughput trade-offs, we introduce a
    multi-objective optimization framework ..." is quoted from "we introduce"."""
    span = key_clause(sentence)
    spans = clause_spans(sentence)
    own = [a for a, b in spans if a >= span[0] and _OWN.search(sentence, a, b)]
    if not own or own[0] == span[0]:
        return span
    return _capped(sentence, own[0], spans[-1][1], spans)


def key_clause(sentence: str) -> tuple[int, int, bool]:
    """The part of a sentence that says what it states: without a leading discourse clause, at
    most :data:`MAX_LEAD_WORDS` words. Returns ``(start, end, cut)``, offsets into ``sentence``."""
    spans = clause_spans(sentence)
    if not spans:
        return 0, 0, False
    kept = _without_opener(sentence, spans)
    return _capped(sentence, kept[0][0], kept[-1][1], spans)


def number_span(sentence: str, near: Sequence[str] = ()) -> tuple[int, int, bool] | None:
    """The clauses of a sentence that state numbers, with context: from the first such clause (with
    the clause before it when it is shorter than :data:`MIN_CLAUSE_WORDS`) to the last one, cut to
    :data:`MAX_LEAD_WORDS` words; ``None`` when the sentence states no number.

    ``near``: words the question asks beside the amount ("KUKA" of "AdaptDiffuser KUKA gain?"). When
    the span is cut and one of them stands in a clause it leaves out, or right before a figure it
    leaves out, the span is the clauses from that word's to the first figure at or after it
    ("but also adapts better to new tasks, e.g., KUKA pick-and-place, by 27.9% ..."), so that a
    lead is never cut just before the figure asked."""
    spans = clause_spans(sentence)
    kept = _without_opener(sentence, spans) if spans else []  # a list heading's "(2)" is no number
    hits = [i for i, (a, b) in enumerate(kept) if numbers(_ENUMERATOR.sub(" ", sentence[a:b]))]
    if not hits:
        return None
    first, last = hits[0], hits[-1]
    if _words(sentence[kept[first][0] : kept[first][1]]) < MIN_CLAUSE_WORDS and first > 0:
        first -= 1
    span = _capped(sentence, kept[first][0], kept[last][1], spans)
    if span[2] and near:
        wanted = {term_key(t) for t in near}
        asked = [i for i, (a, b) in enumerate(kept) if wanted & {k for k, _, _ in _keys_at(sentence[a:b])}]
        # the asked word's clause whose figure (at or after it) the cut span leaves out
        dropped = [(i, j) for i in asked if (j := next((h for h in hits if h >= i), None)) is not None
                   and kept[j][1] > span[1]]
        if dropped:
            i, j = dropped[0]
            start = i  # with the clause before a short one ("e.g., KUKA pick-and-place,")
            while start > 0 and _words(sentence[kept[start][0] : kept[i][1]]) < MIN_CLAUSE_WORDS:
                start -= 1
            return _capped(sentence, kept[start][0], kept[j][1], spans)
    return span


_SIZED_NAME = re.compile(r"^([a-z][a-z0-9-]{2,}?)-?\d+(?:\.\d+)?[bmk]?$")
"""A name glued to a size or version ("flamingo80b", "seg-zero-7b", "resnet50"): its name part is a
term too, so "Is BLIP-2 better than Flamingo?" finds "outperforms Flamingo80B"."""


def _keys_at(sentence: str) -> list[tuple[str, int, int]]:
    """Term keys of the content tokens of a sentence with their offsets (hyphenated parts too, and
    the name of a name glued to its size: :data:`_SIZED_NAME`)."""
    out = []
    for m in _TERM_TOKEN.finditer(fold_accents(sentence)):
        tok = m.group(0).lower()
        pieces = tok.split("-")
        # the parts and the compounds that end it ("dense-attention-free" states "attention-free")
        parts = {tok, *(p for p in pieces if len(p) > 1), *("-".join(pieces[i:]) for i in range(1, len(pieces) - 1))}
        parts |= {p.split("@", 1)[0] for p in list(parts) if "@" in p}  # "tr@1" states the measure "tr" too
        if joined := joined_form(tok):  # "speed-up" states "speedup" too
            parts.add(joined)
        parts |= {g.group(1).rstrip("-") for p in list(parts) if (g := _SIZED_NAME.match(p))}
        for part in parts:
            if content_terms(part):
                out.append((term_key(part), m.start(), m.end()))
    return out


_SUBORDINATE = _VOCABULARY["subordinate"].pattern


def _stating(sentence: str, terms: Sequence[str]) -> list[tuple[str, int, int]]:
    """:func:`_keys_at` without the words that share an asked term's stem but not its sense
    (:func:`rag.lexicon.states_form`): "transformations" does not state "transformers",
    "optimization" does not state "optimizer"."""
    asked = {term_key(t): lemma(t.lower()) for t in terms}

    def states(key: str, start: int, end: int) -> bool:
        if key not in asked:
            return True
        tok = sentence[start:end].lower()
        same = [p for p in {tok, *tok.split("-")} if content_terms(p) and term_key(p) == key]
        return not same or any(states_form(asked[key], lemma(p)) for p in same)

    return [f for f in _keys_at(sentence) if states(*f)]


_PREFIX_SUFFIX = _VOCABULARY["prefix_form_suffix"].source


def spelled_out(sentence: str, term: str) -> list[tuple[int, int]]:
    """Where ``sentence`` writes an abbreviation ``term`` out (its glossary long forms,
    :func:`rag.lexicon.long_forms`), or ``[]``: the long form ("RL": "reinforcement learning"), or
    its leading words written as a compound (vocabulary ``prefix_form_suffix``:
    "reinforcement-based"). A term with an ending after its abbreviation ("RL-based") keeps it
    ("reinforcement-based", "reinforcement learning-based").

    Returns:
        ``(start, end)`` offsets into ``sentence`` of each place, in order.
    """
    head, _, rest = term.partition("-")
    forms = long_forms(term) or (long_forms(head) if rest else ())
    rest = "" if long_forms(term) else rest
    found: list[tuple[int, int]] = []
    for long in forms:
        words = [re.escape(w) for w in re.split(r"[\s-]+", long) if w]
        full = r"[\s-]+".join(words) + r"\w*"
        lead = r"[\s-]+".join(words[:-1])
        if rest:
            pattern = rf"(?<![\w-])(?:{full}[\s-]|{lead}-)" + re.escape(rest) + r"\b" if lead else ""
        else:
            pattern = rf"(?<![\w-]){full}(?![\w])" + (rf"|(?<![\w-]){lead}-(?:{_PREFIX_SUFFIX})\b" if lead else "")
        if pattern:
            found += [(m.start(), m.end()) for m in re.finditer(pattern, sentence, re.I)]
    return sorted(found)


def term_span(
    sentence: str, terms: Sequence[str], senses: Senses | None = None
) -> tuple[int, int, bool, bool] | None:
    """The clauses of ``sentence`` that state every term (as term keys), or ``None``.

    ``senses``: a term neither its key nor the glossary finds is stated by a word the senses say
    states it in other words (:mod:`rag.evidence.senses`: "change" by "modifying"), so "not
    modifying" negates an asked "change".

    Returns:
        ``(start, end, cut, negated)``: offsets into ``sentence``; ``negated`` when a negation
        ("without", "no", "not") stands within two words before a term.
    """
    # each term with the keys that state it: its own and the glossary's same words ("parameters" for "weights")
    # (and the words of its own class of the contrary vocabulary: "single" states "one")
    alternatives = {term_key(t): same_keys(t) | sense_keys(t) for t in terms}
    wanted = set(alternatives)
    found = _stating(sentence, terms)
    # an acronym asked is stated where the sentence writes it out ("RL": "reinforcement-based")
    found += [(term_key(t), a, b) for t in terms for a, b in spelled_out(sentence, t)]
    stated_by = {k: w for w, keys in alternatives.items() for k in keys}
    stated_by |= {w: w for w in alternatives}  # a term's own word states it, whatever other term it is a sense of
    present = {stated_by[k] for k, _, _ in found if k in stated_by}
    if senses is not None and not wanted <= present:  # a term stated in other words ("modifying" for "change")
        asked = [(stated_by[k], a, b) for k, a, b in found if k in stated_by]
        found += _in_other_words(sentence, terms, asked, present, senses)
        present = {stated_by[k] for k, _, _ in found if k in stated_by}
    if not wanted or not wanted <= present:
        return None
    spans = clause_spans(sentence)
    has = [{stated_by[k] for k, x, _ in found if k in stated_by and a <= x < b} for a, b in spans]
    # The shortest run of clauses that states every term (the earliest among equals).
    best: tuple[int, int] | None = None
    for i in range(len(spans)):
        got: set[str] = set()
        for j in range(i, len(spans)):
            got |= has[j]
            if got >= wanted:
                if best is None or j - i < best[1] - best[0]:
                    best = (i, j)
                break
    if best:  # a list item ("ALFWorld") grows to its clause; an opener ("To reduce ...") to the main clause
        i, j = best
        opener = bool(_SUBORDINATE.match(sentence, spans[i][0]))
        while _words(sentence[spans[i][0] : spans[j][1]]) < MIN_CLAUSE_WORDS and (i > 0 or j < len(spans) - 1):
            i, j = (i - 1, j) if i > 0 and not (opener and j < len(spans) - 1) else (i, j + 1)
        best = (i, j)
    lo, hi = (spans[best[0]][0], spans[best[1]][1]) if best else (0, len(sentence))
    words = [(w.start(), w.group(0).lower().strip("(),.;:")) for w in _WORDS.finditer(sentence)]
    negated = False
    for k, x, end in found:
        if k in stated_by and lo <= x < hi:
            i = max(j for j, (start, _) in enumerate(words) if start <= x)
            # "classifier-free" states the asked "classifier-free guidance" (or "free"); it negates
            # only the word before its hyphen ("labels" in "label-free")
            whole = {term_key(sentence[x:end].lower()), term_key("free")}
            at = _negation_at(sentence, words, i, prefix=k not in whole and not _free_form(k))
            if at is not None:
                negated = True
                # a negation before a list reaches its last items: the quotation starts at its clause
                lo = min(lo, max((a for a, _ in spans if a <= words[at][0]), default=lo))
    a, b, cut = _capped(sentence, lo, hi, spans)
    return a, b, cut, negated


SENSE_REACH = 4
"""Most words between a word that states an asked term in other words and another asked term it
must stand beside (:func:`_in_other_words`): a verb and the head of its object, "reduces average
matching delay", "not modifying mathematical correctness" (not tuned: the reach of
:data:`STANCE_WINDOW`)."""


def _in_other_words(
    sentence: str, terms: Sequence[str], found: list[tuple[str, int, int]], present: set[str], senses: Senses
) -> list[tuple[str, int, int]]:
    """The words of ``sentence`` that state a term not ``present`` in other words (``senses``), as
    ``(term key, start, end)``, each kept only within :data:`SENSE_REACH` words of another asked
    term stated as written (``found``: the asked terms' keys with their offsets), with no clause
    break between them: "not modifying mathematical correctness" states "change" of "change the
    correctness", while a "modifying" a dozen words from the only other term asked ("larger models
    ... while not modifying ...") states no "change the model". A question of one term takes
    none: a word near its one term in sense is no evidence of what it is asked of ("Does POET
    change the model architecture?" keeps only "change", its other words being generic, and "not
    modifying mathematical correctness" does not answer it)."""
    starts = [w.start() for w in _WORDS.finditer(sentence)]

    def index(x: int) -> int:
        return max((i for i, s in enumerate(starts) if s <= x), default=0)

    out = []
    for t in terms:
        key = term_key(t)
        if key in present:
            continue
        others = [x for k, x, _ in found if k != key]
        for a, b in senses(t, sentence):
            near = any(
                abs(index(a) - index(x)) <= SENSE_REACH
                and not _SCOPE_BREAK.search(sentence, min(a, x), max(a, x))
                for x in others
            )
            if near:
                out.append((key, a, b))
    return out


COMPOUND_REACH = SENSE_REACH
"""Most words between two words of a phrase a yes/no question asks (:func:`states_compound`:
"hard samples" is stated by "samples that are hard" and "hard negative samples", not by "NP-hard,
... sample-wise") and between a contrary word and the asked term it stands beside
(:func:`contrary_span`: "on a single 16GB GPU"). Not tuned: the reach of :data:`SENSE_REACH`."""


def _places(sentence: str, term: str, senses: Senses | None = None) -> list[int]:
    """Offsets in ``sentence`` where it states ``term``: its key, the glossary's same words and
    the words of its own contrary class (:func:`rag.question.polar.sense_keys`), its long form,
    and, with ``senses``, the words that state it in other words."""
    wanted = {term_key(t) for t in (term,)} | same_keys(term) | sense_keys(term)
    found = [x for k, x, _ in _stating(sentence, [term]) if k in wanted]
    found += [a for a, _ in spelled_out(sentence, term)]
    if senses is not None:
        found += [a for a, _ in senses(term, sentence)]
    found += [a for x in found if (a := _named_phrase(sentence, x)) is not None]
    return sorted(set(found))


def _named_phrase(sentence: str, x: int) -> int | None:
    """Where the noun phrase starts that a parenthesised short name at offset ``x`` of ``sentence``
    names ("pretraining with a strong visual pretext task (MAE)": the offset of "strong"), else
    ``None``: the name stands in that phrase's place, so "MAE pretraining" is stated there. The
    phrase is the run of content words before the parenthesis, at most :data:`COMPOUND_REACH` + 2."""
    if x == 0 or sentence[x - 1] != "(" or ")" not in sentence[x : x + 24]:
        return None
    before = list(_WORDS.finditer(sentence, 0, x - 1))
    start = None
    for w in reversed(before[-(COMPOUND_REACH + 2) :]):
        if w.group(0).lower().strip("(),.;:") in STOPWORDS or _SCOPE_BREAK.search(w.group(0)):
            break
        start = w.start()
    return start


def _near(sentence: str, starts: Sequence[int], x: int, y: int) -> bool:
    """Whether offsets ``x`` and ``y`` of ``sentence`` stand at most :data:`COMPOUND_REACH` words
    apart (``starts``: the offsets of its words) with no clause break between them."""
    i = max((k for k, a in enumerate(starts) if a <= x), default=0)
    j = max((k for k, a in enumerate(starts) if a <= y), default=0)
    return abs(i - j) <= COMPOUND_REACH and not _SCOPE_BREAK.search(sentence, min(x, y), max(x, y))


def states_compound(
    sentence: str, span: tuple[int, int, bool, bool], compound: Sequence[str], senses: Senses | None = None
) -> bool:
    """Whether ``sentence[span]`` states a phrase a yes/no question asks (its words side by side
    in the question, :attr:`rag.question.plan.AskPlan.polar_compounds`) with its words near each
    other in one clause (:data:`COMPOUND_REACH`): "hard samples" by "samples that are hard", not
    by "Although MWCP is NP-hard, its structure admits ... sample-wise marginal gains", whose
    words stand apart in other senses. A sentence that states the words only apart does not
    state the phrase (:func:`_polar` says so)."""
    starts = [w.start() for w in _WORDS.finditer(sentence)]
    lo, hi = span[0], span[1]
    places = [[x for x in _places(sentence, t, senses) if lo <= x < hi] for t in compound]
    if not all(places):
        return False
    return any(all(any(_near(sentence, starts, x, y) for y in other) for other in places[1:]) for x in places[0])


def contrary_span(
    sentence: str, terms: Sequence[str], compounds: Sequence[Sequence[str]] = (), senses: Senses | None = None
) -> tuple[tuple[int, int, bool, bool], str, str] | None:
    """The clauses of ``sentence`` that state the contrary of an asked term in its place, with the
    term and the word that states its contrary (``(span, term, word)``), or ``None``.

    A word states the contrary of a term when :func:`rag.question.polar.contrary_keys` says so
    ("single" of "multiple", "training-free" or "frozen" of "retraining", "model-free" of
    "model-based", "unlabeled" of "labeled"), or it is the word the term repeats with "re"
    (:func:`rag.question.polar.prefixed_base`) under a negation that denies it ("requires no
    additional training" of "retraining"). It must not itself be negated or set against the
    paper (:func:`contrasted_by_word`: "unlike white-box methods"), and, when the question asks
    other terms, the sentence states them (:func:`term_span`) and the word stands within
    :data:`COMPOUND_REACH` words of one of them, in its clause, and of each word of the phrase
    it belongs to ("Does FlexGen need multiple GPUs?": "on a single 16GB GPU"; a "single" far
    from any GPU answers nothing). Whether the sentence speaks of the paper itself is the caller's
    to judge (:func:`_polar`)."""
    words = [(w.start(), w.group(0).lower().strip("(),.;:")) for w in _WORDS.finditer(sentence)]
    if not words:
        return None
    starts = [a for a, _ in words]
    keys = _keys_at(sentence)

    def index(x: int) -> int:
        return max((i for i, a in enumerate(starts) if a <= x), default=0)

    spans = clause_spans(sentence) or [(0, len(sentence))]
    for t in terms:
        opposed = contrary_keys(t)
        # the contrary word as a whole ("model-free" of "model-based") is no negation of itself
        hits = [
            (x, end) for k, x, end in keys
            if k in opposed and _negation_at(sentence, words, index(x), prefix=False) is None
        ]
        base = prefixed_base(t)
        if base:
            hits += [
                (x, end) for k, x, end in keys
                if k == term_key(base) and _negation_at(sentence, words, index(x), prefix=True) is not None
                and denies_directly(sentence, (x, end, False, True), [base])
            ]
        others = [u for u in terms if u != t]
        mates = [u for c in compounds if t in c for u in c if u != t]
        if others and term_span(sentence, others, senses) is None:
            continue
        near = {u: _places(sentence, u, senses) for u in others}
        if any(not near[u] for u in others):
            continue
        for x, end in sorted(set(hits)):
            said = sentence[x:end]
            if others and not any(_near(sentence, starts, x, y) for u in others for y in near[u]):
                continue
            if any(not any(_near(sentence, starts, x, y) for y in near[u]) for u in mates):
                continue
            # the clause of the word, with the clauses of the other terms' places nearest it
            at = [x, *(min(near[u], key=lambda y: abs(index(y) - index(x))) for u in others)]
            inside = [k for k, (a, b) in enumerate(spans) if any(a <= y < b for y in at)] or [0]
            i, j = min(inside), max(inside)
            while _words(sentence[spans[i][0] : spans[j][1]]) < MIN_CLAUSE_WORDS and (i > 0 or j < len(spans) - 1):
                i, j = (i - 1, j) if i > 0 else (i, j + 1)
            lo, hi = spans[i][0], spans[j][1]
            if contrasted_by_word(sentence, (lo, hi, False, False), [said]):
                continue
            a, b, cut = _capped(sentence, lo, hi, spans)
            return (a, b, cut, False), t, said
    return None


NEGATION_REACH = 2
"""Most words between a negation and the term it negates besides the words it reaches through
(``negation_through``: "without the need for any") and articles: "no retraining", "without any task labels",
"without the need for any dataset specific fine-tuning"; not "not use any labels for the RL stage"."""
_SCOPE_BREAK = re.compile(r"[,;:()]")
_ARTICLES = frozenset({"a", "an", "the"})
"""Articles: not counted among the words between a negation and the term it reaches (:data:`NEGATION_REACH`)."""


def _free_form(key: str) -> bool:
    """Whether term ``key`` is itself an "X-free" word ("attention-free" asked, stated by the end of
    "dense-attention-free"): what it states, not a negation of it."""
    # "free" alone keys as "free", at the end of a compound as "-fre" ("attention-fre", "tuningfre")
    return key not in ("free", "fre") and key.endswith(("fre", "free"))


def _negation_at(sentence: str, words: Sequence[tuple[int, str]], i: int, *, prefix: bool = True) -> int | None:
    """The index in ``words`` of the negation that negates word ``i`` (offset, lower-cased word),
    ``None`` when none does: a negation
    (:func:`_negates`) followed by words it reaches through (``negation_through``: "the need for
    any") and at most :data:`NEGATION_REACH` others before it, with no clause break (a comma, a
    parenthesis) or a word that turns the clause (``negation_scope_end``: "but", "while",
    "instead") between them; or the word itself when it is "X-free" and the asked term is its
    ``prefix`` X ("label-free" negates "labels"). An "X-free" word negates nothing after it:
    "classifier-free guidance" uses guidance, and states "classifier-free" (``prefix`` False).

    A negation before a list reaches each of its items: a comma list closed by "or"
    (:func:`_in_or_list`), and items joined by a joiner (``negated_list_joiner``: "without
    retraining or architecture changes", "without any data augmentation or auxiliary losses",
    "without access to the language model API or parameters"), each item at most
    :data:`MAX_ITEM_WORDS` words besides those the negation reaches through (:func:`_joined_item`)."""
    m = i
    first = i  # the first word of the earliest item of a negated list crossed ("not require A, B, or C")
    listed = _in_or_list(sentence, words, i)
    comma = False  # a comma of a list closed by "or" was crossed
    joined = False  # a joiner of a list was crossed ("without retraining or architecture changes")
    while m >= 0:
        if m < i and words[m][1] in _SCOPE_END:
            return None
        if m < i and (brk := _SCOPE_BREAK.search(sentence, words[m][0], words[m + 1][0])):
            if not (listed and brk.group(0) == "," and _OWN.search(sentence, words[m][0], words[first][0]) is None):
                return None
            first, comma = m + 1, True
        if m < i and _joined_item(words, m, first, i):  # "A or B": the item before the joiner is reached whole
            first, joined = m, True
        if (m == i and prefix) if words[m][1].endswith("-free") else _negates(words, m):
            j = m + 1
            while j < i and words[j][1] in _THROUGH:
                j += 1
            # in a list, the negation reaches the first item, whose words run up to the next comma
            # or joiner; a verb with its object joined after it joins the verb before the list
            # ("does not require X and samples only one trajectory"), unless the list is of verbs
            # ("without the need to fine-tune or invert the model")
            if joined and not _verb_list(words, m, j, first) and _verb_item(sentence, words, j, i):
                return None
            # an article inside the object the negation reaches is no word of its own: "does not
            # require training a separate classifier" denies the classifier, as "no separate classifier";
            # with another function word between, the term is in a phrase of its own ("not use any
            # labels for the RL stage")
            between = [w for _, w in words[j:first]]
            plain = not any(w in STOPWORDS and w not in _ARTICLES for w in between)
            reached = sum(1 for w in between if not (plain and w in _ARTICLES))
            if m == i or reached <= NEGATION_REACH or (comma and first < i):
                return m
            if first < i and _item_words(words[j:first]) <= MAX_ITEM_WORDS:
                return m
        if first - m > 2 * NEGATION_REACH + len(_THROUGH):
            return None
        m -= 1
    return None


MAX_ITEM_WORDS = NEGATION_REACH + 1
"""Most words of one item of a list joined by "or"/"and"/"nor" that a negation before the list
reaches (:func:`_joined_item`), not counting the words it reaches through ("access to the",
"incurring any additional"): "data augmentation" of "without any data augmentation or auxiliary
losses", "language model API" of "without access to the language model API or parameters" (not
tuned: an item is as long as the words a negation reaches alone, :data:`NEGATION_REACH` and the term)."""


def _verb_item(sentence: str, words: Sequence[tuple[int, str]], j: int, i: int) -> bool:
    """Whether an item joined to a negated list whose first item opens at word ``j`` (up to the
    term, word ``i``) opens with a verb and its object (``verb_object_opener`` right after its
    first word, in its clause: "does not require X and samples only one trajectory", "without
    sample splitting and yields a predictor"): the verb joins the one before the list, and the
    negation does not reach it."""
    starts = [k + 1 for k in range(j, i) if words[k][1] in _JOINER]
    return any(
        k + 1 < len(words) and words[k + 1][1] in _VERB_OBJECT
        and not _SCOPE_BREAK.search(sentence, words[k][0], words[k + 1][0])
        for k in starts
    )


def _verb_list(words: Sequence[tuple[int, str]], m: int, j: int, first: int) -> bool:
    """Whether the negated list at word ``j`` (after the negation at ``m`` and the words it
    reaches through; its first item ends before word ``first``) is one of verbs, whose items take
    objects: after "to" ("without the need to fine-tune or invert the model", also as the abstract
    types it, "without theneed to fine-tune or invert"), of gerunds ("without storing or replaying
    any past tasks"), or right after "not"/"never" ("may not understand or trust the decision")."""
    if j >= len(words):
        return False
    to = any(w == "to" for _, w in words[m + 1 : first])
    return to or words[j][1].endswith("ing") or (j == m + 1 and words[m][1] in ("not", "never"))


def _item_words(words: Sequence[tuple[int, str]]) -> int:
    """How many of ``words`` are no word a negation reaches through (``negation_through``,
    ``negation_direct``): the length of a list item."""
    return sum(1 for _, w in words if w not in _THROUGH and w not in _DIRECT)


def _joined_item(words: Sequence[tuple[int, str]], k: int, first: int, i: int) -> bool:
    """Whether word ``k`` joins an item of a list to the one before it (``negated_list_joiner``:
    "or", "and", "nor") so that a negation before the list reaches word ``i`` in or after that
    item: the item after it opens with no word of a clause of its own (``list_item_break``:
    "and we fine-tune", "and with less compute") and is short, the words before ``i`` at most
    :data:`NEGATION_REACH` when it holds ``i``, else (``first``: where the next item starts) at
    most :data:`MAX_ITEM_WORDS`."""
    end = i if first == i else first
    if words[k][1] not in _JOINER or k + 1 > i or any(w in _ITEM_BREAK for _, w in words[k + 1 : end]):
        return False
    if first == i:
        return i - (k + 1) <= NEGATION_REACH
    return _item_words(words[k + 1 : first]) <= MAX_ITEM_WORDS


MAX_LIST_ITEMS = 6
"""Most items of a comma list ("does not require training a separate classifier, collecting a
dataset ..., or explicitly watermarking generated text") a negation before its first item reaches."""


def _in_or_list(sentence: str, words: Sequence[tuple[int, str]], i: int) -> bool:
    """Whether word ``i`` stands in an item of a comma list closed by "or"/"nor" ("A, B, or C":
    a list a negation before it negates whole), at most :data:`MAX_LIST_ITEMS` items long."""
    items = 0
    closed = False  # "or" within a later item: "A, B or C" with the term in A or B
    for k in range(i, len(words) - 1):  # a later item opens with "or" ("A, B, or C" with the term in B)
        brk = _SCOPE_BREAK.search(sentence, words[k][0], words[k + 1][0])
        if brk is None:
            closed = closed or words[k + 1][1] in ("or", "nor")
            continue
        if brk.group(0) != "," or items >= MAX_LIST_ITEMS:
            break
        items += 1
        if words[k + 1][1] in ("or", "nor"):
            return True
    if closed and items:
        return True
    for k in range(i, 0, -1):  # the term in the last item: "or"/"nor" in its item before it ("..., B or C")
        if _SCOPE_BREAK.search(sentence, words[k - 1][0], words[k][0]):
            said = any(w in ("or", "nor") for _, w in words[k:i])
            return "," in sentence[words[k - 1][0] : words[k][0]] and (said or closed)
    return False


def _negates(words: Sequence[tuple[int, str]], k: int) -> bool:
    """Whether word ``k`` of ``words`` (offset, lower-cased word) negates what follows: a negation
    ("without", "no", "not"; "label-free"), but not "not" before an additive word ("not only
    outperforms X but also ...")."""
    w = words[k][1]
    if w.endswith("-free"):
        return True
    return w in _NEGATIONS and not (k + 1 < len(words) and words[k + 1][1] in _ADDITIVE)


def contrasted(
    sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str], senses: Senses | None = None
) -> bool:
    """Whether the asked terms stand in ``sentence[span]`` as something set against the paper's
    own work: after a contrast word ("over", "than", "unlike", "instead of", "replacing", "avoids"),
    before a denying word ("infeasible", "prohibitive"), or in a sentence about prior work
    ("Previous methods ...", the pattern of :mod:`rag.llm.claims`) that says nothing of "we"/"our".
    Such a mention is no "Yes". ``senses``: as :func:`contrasted_by_word`."""
    if PRIOR_WORK.search(sentence) and not _OWN.search(sentence):
        return True
    return contrasted_by_word(sentence, span, terms, senses)


def own_work(sentence: str, label: str = "") -> bool:
    """Whether ``sentence`` speaks of the authors' own work: "we", "our", "this paper"
    (``own``), or the paper's ``label``."""
    return bool(_OWN.search(sentence)) or bool(label and label in sentence)


def contrasted_by_word(
    sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str], senses: Senses | None = None,
    cues: frozenset[str] = _CONTRAST, reach: int = STANCE_WINDOW,
) -> bool:
    """:func:`contrasted` by a contrast word before an asked term or a denying word after it only
    ("Unlike watermarking, we ...", "outperforms watermarking baselines"), not by a sentence about
    prior work. A contrast word that itself states an asked term in other words (``senses``: "Does
    L2M remove the need for per-task retraining?", "eliminating per-task retraining") is what
    was asked, not a contrast. ``cues``, ``reach``: the contrast words and how many words before the
    term they reach (:func:`sets_aside` takes the words of setting aside, :data:`SET_ASIDE_REACH`);
    denying words after the term count only with the whole contrast class."""
    lo, hi = span[0], span[1]
    wanted = {term_key(t) for t in terms}
    # the words that state a term the sentence does not write (term_span found them the same way)
    keys = {k for k, _, _ in _keys_at(sentence)}
    unwritten = [t for t in terms if term_key(t) not in keys] if senses is not None else []
    asked = {a for t in unwritten for a, _ in senses(t, sentence)} if senses is not None else set()
    words = [(w.start(), w.group(0).lower().strip("(),.;:")) for w in _WORDS.finditer(sentence)]
    words = [(start, w) for start, w in words if start not in asked]
    for k, x, _ in _keys_at(sentence):
        if k not in wanted or not lo <= x < hi:
            continue
        i = max(j for j, (start, _) in enumerate(words) if start <= x)
        # a clause break between the cue and the term ends its reach ("avoids X, and uses Y")
        before = [
            w for start, w in words[max(0, i - reach) : i]
            if start >= lo and not _SCOPE_BREAK.search(sentence, start, x)
        ]
        after = [w for start, w in words[i + 1 : i + 3] if start < hi] if cues is _CONTRAST else []
        if any(w in cues for w in before) or any(w in _DENIED for w in after):
            return True
        if cues is _CONTRAST and _denied_predicate(sentence, words, i, hi):
            return True
    return False


def _denied_predicate(sentence: str, words: Sequence[tuple[int, str]], i: int, hi: int) -> bool:
    """Whether the term at word ``i`` is the subject of a clause whose predicate denies it: a
    copula (``copula``) at most :data:`STANCE_WINDOW` words after it, with no clause break between,
    and a denying word (``denied``) within two words after the copula, before offset ``hi`` ("the
    gradients of PTMs are usually unavailable", "retraining becomes prohibitive")."""
    for c in range(i + 1, min(len(words), i + 1 + STANCE_WINDOW)):
        if words[c][0] >= hi or _SCOPE_BREAK.search(sentence, words[i][0], words[c][0]):
            return False
        if words[c][1] in _COPULA:
            return any(w in _DENIED for start, w in words[c + 1 : c + 3] if start < hi)
    return False


def sets_aside(
    sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str], senses: Senses | None = None,
    label: str = "",
) -> bool:
    """Whether ``sentence`` (of the paper's own work: "we", "our", its ``label``; not about prior
    work) says the paper does without the asked terms: a word of setting aside (``set_aside``:
    "avoiding", "eliminating", "replaces") at most :data:`SET_ASIDE_REACH` words before one in
    ``sentence[span]`` ("thereby avoiding costly bi-level optimization"). A yes/no question
    whether the paper has them is answered no; "replace supervised fine-tuning with RL" does not
    set aside RL (too far: RL is what replaces)."""
    if PRIOR_WORK.search(sentence) and not own_work(sentence, label):
        return False
    return contrasted_by_word(sentence, span, terms, senses, cues=_SET_ASIDE, reach=SET_ASIDE_REACH)


FAR_NEGATION_REACH = 10
"""Most words between a negation and an asked term in one clause that :func:`negated_far` looks
back ("domains that do not have the opportunity to rely on labels": nine words); beyond
:data:`NEGATION_REACH` the negation may deny another verb, so the clause is no plain "yes" either
(not tuned: about the length of a clause of abstract prose before its next comma)."""


def _asked_at(
    sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str]
) -> tuple[list[tuple[int, str]], list[tuple[int, str, int, int]]]:
    """The words of ``sentence`` (offset, lower-cased word) and each place in ``sentence[span]``
    where an asked term stands, as ``(word index, term key, start, end)``: what
    :func:`negated_far` and :func:`denies_directly` read around."""
    wanted = {term_key(t) for t in terms}
    words = [(w.start(), w.group(0).lower().strip("(),.;:")) for w in _WORDS.finditer(sentence)]
    places = [
        (max(j for j, (start, _) in enumerate(words) if start <= x), k, x, end)
        for k, x, end in _keys_at(sentence)
        if k in wanted and span[0] <= x < span[1]
    ]
    return words, places


def negated_far(sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str]) -> bool:
    """Whether an asked term in ``sentence[span]`` stands after a negation in its own clause (no
    clause break, no word that turns the clause, :func:`_negation_at`'s limits) at most
    :data:`FAR_NEGATION_REACH` words back, though beyond the reach of a plain negation: "towards
    domains that do not have the opportunity to rely on labels" neither states that the paper
    relies on labels nor denies it, so a yes/no question quotes it as stated with a negation, after
    a sentence that denies the term directly ("without requiring any labels")."""
    if span[3]:
        return False
    words, places = _asked_at(sentence, span, terms)
    for i, _, _, _ in places:
        for m in range(i - 1, max(-1, i - 1 - FAR_NEGATION_REACH), -1):
            if words[m][1] in _SCOPE_END or _SCOPE_BREAK.search(sentence, words[m][0], words[m + 1][0]):
                break
            # an "X-free" word negates its own first part only ("classifier-free guidance" uses guidance)
            if _negates(words, m) and not words[m][1].endswith("-free"):
                return True
    return False


def denies_directly(sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str]) -> bool:
    """Whether a negation in ``sentence[span]`` denies an asked term itself: only words it reaches
    through (``negation_through``, ``negation_direct``) or words of the asked terms stand between
    them ("without any retraining", "does not require training a separate classifier",
    "without external engines"), not another verb whose object the term is ("without sacrificing
    accuracy" does not deny accuracy); in a negated list, the earlier items and joiners too
    ("without any data augmentation or auxiliary losses"), unless a verb that keeps its object
    (``negation_keeps``: "without sacrificing accuracy or speed") opens the list. :func:`term_span`
    finds negations within :data:`NEGATION_REACH` words; this is the stricter reading a "No" needs."""
    wanted = {term_key(t) for t in terms}
    words, places = _asked_at(sentence, span, terms)
    for i, k, x, end in places:
        whole = {term_key(sentence[x:end].lower()), term_key("free")}
        m = _negation_at(sentence, words, i, prefix=k not in whole and not _free_form(k))
        if m is None:
            continue
        # in a negated list ("without any data augmentation or auxiliary losses") the earlier items
        # stand between: only the words of the term's own item must be ones the negation reaches
        # through, and no verb before the list keeps what it names ("without sacrificing accuracy or speed")
        item = max((k + 1 for k in range(m + 1, i) if words[k][1] in _JOINER or
                    _SCOPE_BREAK.search(sentence, words[k][0], words[k + 1][0])), default=m + 1)
        if item > m + 1 and any(w in _KEEPS for _, w in words[m + 1 : item]):
            continue
        between = [w for _, w in words[item:i]]
        if all(w in _THROUGH or w in _DIRECT or (content_terms(w) and term_key(w) in wanted) for w in between):
            return True
    return False


def comparison_verdict(sentence: str, span: tuple[int, int, bool, bool], comparative: str) -> str:
    """``"yes"`` when ``sentence[span]`` (the clauses stating the asked terms) states the asked
    ``comparative`` ("2x faster than the strongest baseline" for "faster"; "outperforms" for
    "outperform"; a smaller amount, "fewer", also by a part of the whole or a reduction,
    ``states_less``: "using one-eighth of the total diffusion steps"; a better result also by a
    verb of outdoing, ``states_better``: "outperforms Diffuser"; a greater speed also by a speed-up,
    ``states_speedup``, or a smaller time, ``states_less`` with ``time_measure``: "reduces
    wall-clock time compared to standard Shampoo"), ``"no"`` when it states only
    its opposite (``comparative_opposite``: "slower" for "faster"), else ``""`` (a figure of
    another kind is for the reader to judge)."""
    if not comparative:
        return ""
    written = [w.group(0).lower().strip("(),.;:") for w in _WORDS.finditer(sentence[span[0] : span[1]])]
    said = {term_key(w) for w in written}
    asked = term_key(comparative)
    if asked in said or (asked in _LESS and any(w in _STATES_LESS for w in written)):
        return "yes"
    if asked in _BETTER and any(w in _STATES_BETTER for w in written):
        return "yes"  # "better than Diffuser": "outperforms the previous art Diffuser by 20.8%"
    if asked in _FASTER and (
        any(w in _STATES_SPEEDUP for w in written)
        or (any(w in _STATES_LESS for w in written) and any(w in _TIME_MEASURE for w in written))
    ):
        return "yes"  # "faster than Shampoo": "reduces wall-clock time compared to standard Shampoo"
    return "no" if _OPPOSITE.get(asked) in written else ""


def names_object(sentence: str, terms: Sequence[str], senses: Senses | None = None) -> bool:
    """Whether ``sentence`` names the asked terms as what it compares against: after a word of
    comparison (``comparison_object``: "reduces wall-clock time compared to standard Shampoo",
    "a 36% improvement over recent high-frequency-based methods"), not only before one ("an
    extremely simple hierarchical vision transformer that is ... faster than previous models"
    compares with previous models, not with ViT)."""
    return any(
        term_span(sentence[m.end() :], [t], senses) is not None for m in _OBJECT_CUE.finditer(sentence) for t in terms
    )


def compares_other(sentence: str, terms: Sequence[str], senses: Senses | None = None) -> bool:
    """Whether ``sentence`` compares against something, but not the asked terms (a word of
    comparison, none followed by them: :func:`names_object`). A sentence with no word of comparison
    ("It consumes only 1/3 of the energy used to train GPT-3") leaves its object to its words."""
    return _OBJECT_CUE.search(sentence) is not None and not names_object(sentence, terms, senses)


def comparing_clause(sentence: str, comparative: str) -> tuple[int, int, bool, bool] | None:
    """The clauses of ``sentence`` that state ``comparative`` or what answers it
    (:func:`comparison_verdict`: "9.6× faster distillation", "reducing training time by over
    40%"), with the clause before one shorter than :data:`MIN_CLAUSE_WORDS`; ``None`` when none does."""
    spans = clause_spans(sentence)
    kept = _without_opener(sentence, spans) if spans else []
    for i, (a, b) in enumerate(kept):
        if comparison_verdict(sentence, (a, b, False, False), comparative):
            first = i - 1 if i > 0 and _words(sentence[a:b]) < MIN_CLAUSE_WORDS else i
            return _capped(sentence, kept[first][0], b, spans) + (False,)
    return None


def _as_written(term: str, sentences: Sequence[str]) -> str:
    """``term`` as an abstract writes it ("ViT" for the asked "vit"), else as asked."""
    low = term.lower()
    for text in sentences:
        for w in _TERM_TOKEN.finditer(fold_accents(text)):
            if w.group(0).lower() == low:
                return text[w.start():w.end()]
    return term


def states_together(sentence: str, terms: Sequence[str]) -> bool:
    """Whether ``sentence`` states the asked terms side by side in their order, as the question's
    phrase ("CLIP guidance"), not apart ("classifier-free guidance ... CLIP reranking"); a single
    term is always together."""
    if len(terms) < 2:
        return True
    tokens: dict[int, set[str]] = {}
    for k, x, _ in _keys_at(sentence):
        tokens.setdefault(x, set()).add(k)
    keyed = [tokens[x] for x in sorted(tokens)]
    wanted = [same_keys(t) | {term_key(t)} for t in terms]
    n = len(wanted)
    return any(all(keyed[i + j] & wanted[j] for j in range(n)) for i in range(len(keyed) - n + 1))


def compared_option(sentence: str, span: tuple[int, int, bool, bool], terms: Sequence[str]) -> bool:
    """Whether an asked term stands in ``sentence[span]`` after a word that compares options
    (``compared_options``: "compare two different guidance strategies: CLIP guidance and
    classifier-free guidance"): the sentence says the paper compares it, not that the paper uses it."""
    lo, hi = span[0], span[1]
    cue = _OPTIONS.search(sentence, lo, hi)
    if cue is None:
        return False
    wanted = {term_key(t) for t in terms}
    return any(k in wanted and cue.end() <= x < hi for k, x, _ in _keys_at(sentence))


def spells_out(sentence: str, acronym: str) -> bool:
    """Whether ``sentence`` spells out ``acronym`` (2 to 6 letters, any case) as capitalised words
    whose initials are its letters: "Open Graph Benchmark" for "ogb", "Large Language Models" for
    "llms" (a plural "s" aside)."""
    letters = acronym.lower().removesuffix("s") if len(acronym) > 2 else acronym.lower()
    if not (2 <= len(letters) <= 6 and letters.isalpha()):
        return False
    words = r"\s+".join(rf"{c.upper()}[a-z]+(?:-[A-Za-z]+)?" for c in letters)
    return re.search(rf"\b{words}\b", sentence) is not None


def states_terms(sentence: str, terms: Sequence[str]) -> tuple[int, int, bool, bool] | None:
    """:func:`term_span` with acronyms spelled out: a term the sentence writes as the words its
    letters stand for (:func:`spells_out`: "OGB" as "Open Graph Benchmark") is stated."""
    spelled = [t for t in terms if spells_out(sentence, t)]
    rest = [t for t in terms if t not in spelled]
    if not rest:
        return (0, len(sentence), False, False) if spelled else None
    return term_span(sentence, rest)


def availability_span(sentence: str, artifact: str) -> tuple[int, int, bool, bool] | None:
    """Whether ``sentence`` makes ``artifact`` (``"code"``, ``"data"`` or ``"models"``,
    :attr:`rag.question.plan.AskPlan.polar_available`) available, as :func:`term_span` gives it:
    ``(0, len(sentence), False, negated)``, or ``None``.

    It does when it holds a word of availability (``availability_cue``: "available", "release",
    "open-sourced", a link) and a noun of the artifact ("Our software and data are publicly
    available" makes code and data available), or, for code, a link to a code host ("Project:
    https://github.com/...") or software called open-source ("an efficient open-source algorithm").
    ``negated`` when a negation stands within two words before the cue
    ("the code is not available").
    """
    cue = _AVAILABILITY_CUE.search(sentence)
    if cue is None:
        return None
    software = artifact == "code" and (_CODE_HOST.search(sentence) or _OPEN_SOURCE_CODE.search(sentence))
    if not _AVAILABLE_NOUNS[artifact].search(sentence) and not software:
        return None
    before = [w.lower().strip("(),.;:") for w in sentence[: cue.start()].split()[-2:]]
    return 0, len(sentence), False, any(w in _NEGATIONS for w in before)


def quoted(sentence: str, span: tuple[int, int, bool] | tuple[int, int, bool, bool]) -> str:
    """``“span”`` as every quotation is shown (:func:`strip_markup`), an ellipsis after a cut one."""
    a, b, cut = span[0], span[1], span[2]
    return f"“{strip_markup(sentence[a:b])}”" + ("…" if cut else "")


# --- lines ---------------------------------------------------------------------------------


def _name(s: Source) -> str:
    return f"**{s.hit.paper.label}** {format_marker(s.number)}"


def _best(s: Source) -> Evidence:
    """The evidence sentence that best answers (highest score; the first on ties)."""
    return max(s.evidence, key=lambda e: e.score)


def _what_it_does(s: Source, gist: Evidence | None) -> Evidence:
    """The paper's approach sentence among its evidence, else its best evidence sentence."""
    if gist is not None and any(e.start == gist.start for e in s.evidence):
        return gist
    return _best(s)


_ROLE_ROWS = {"data": "data", "problem": "problem", "method": "approach"}
"""The row of a comparison table (:data:`rag.evidence.rows.ROWS` keys) that answers a question
asking one role (:mod:`rag.question.roles`) of a named paper."""
_PART_ROWS = (("data", "data"), ("result", "results"), ("problem", "problem"), ("method", "approach"))
"""The row that answers a part of a question asking a role in generic words, by the first role it
asks in this order: "how is it evaluated" asks data (and method), "what does it propose" the approach."""
_ROW_UNSTATED = {"data": "what it is evaluated on", "results": "its results", "problem": "the problem it addresses"}
"""How a lead says that no sentence states a part's row ("its abstract does not state what it is evaluated on")."""


def _role_part(part: Ask) -> str:
    """The row key (:data:`_PART_ROWS`) of a part of a question that asks a role with no word of its
    own ("what does propose", "how is it evaluated", the paper's name removed); ``""`` for a part
    with a content word ("which benchmarks does use") or a slot, which its words answer."""
    if part.slot is None and part.row in (*_ROW_UNSTATED, "approach"):
        return part.row  # "what results does it report", "what do they find": words that only name the row
    if part.slot is not None or content_terms(part.text):
        return ""
    return next((key for role, key in _PART_ROWS if role in part.roles), "")


def one_paper_lead(s: Source, gist: Evidence | None = None, *, named: bool = True) -> str:
    """``**X** [n] — “…”``: what the paper does (its approach clause) when the question did not name
    it, else the key clause of its best evidence sentence."""
    ev = _best(s) if named else _what_it_does(s, gist)
    return f"{_name(s)} — {quoted(ev.sentence, key_clause(ev.sentence))}"


def _number_quotes(s: Source, near: Sequence[str] = ()) -> str:
    """The numeric clauses of a source's best evidence sentences, ``“…”; “…”``; ``""`` when none
    states a number. ``near``: words the question asks beside the amount (:func:`number_span`)."""
    with_numbers = [e for e in sorted(s.evidence, key=lambda e: -e.score) if number_span(e.sentence)]
    parts = []
    for e in with_numbers[:MAX_NUMBER_QUOTES]:
        span = number_span(e.sentence, near)
        if span is not None:
            parts.append(quoted(e.sentence, span))
    return "; ".join(parts)


def _amount(s: Source, ask: Ask | None = None) -> str:
    """``**X** [n]: “…”; “…”`` with the numeric clauses of its best evidence sentences, around the
    words ``ask`` asks besides the paper's name when a clause must be cut (:func:`_asked_near`)."""
    found = _number_quotes(s, _asked_near(s, ask))
    if found:
        return f"{_name(s)}: {found}"
    ev = _best(s)
    closest = quoted(ev.sentence, key_clause(ev.sentence))
    if not states_figure(s.hit.paper.abstract):
        return f"The abstract of {_name(s)} states no figures; closest: {closest}"
    return f"{_name(s)} — no number in its quoted sentences; closest: {closest}"


def _asked_near(s: Source, ask: Ask | None) -> tuple[str, ...]:
    """The content words of ``ask`` (without a phrase that only describes the paper) that are no
    word of the paper's label or title ("kuka" of "AdaptDiffuser KUKA gain?"); ``()`` for none."""
    if ask is None:
        return ()
    own = set(content_terms(f"{s.hit.paper.label} {s.hit.paper.title or ''}"))
    return tuple(t for t in content_terms(ask.matching) if t not in own)


def _with_rest(s: Source, first: Sequence[Evidence], sentences: Sentences) -> list[Evidence]:
    """``first`` (``s``'s evidence, in the order to try it), then the other sentences of its
    paper's abstract as evidence of score 0, in the abstract's order."""
    if not first:
        return []
    seen = {e.start for e in first}
    rest = [Evidence(s.hit.paper.id, x.text, x.start, x.end, 0.0) for x in sentences(first[0]) if x.start not in seen]
    return [*first, *rest]


def _availability_part(s: Source, available: str, sentences: Sentences) -> tuple[str, int | None]:
    """The answer to a part of a question that asks whether ``s``'s paper makes ``available``
    (``"code"``, ``"data"``, ``"models"``) available: the sentence of its abstract that does (added to
    its evidence), quoted, with its start offset; else that its abstract does not say so, ``None``."""
    unsaid = f"its abstract does not say its {available} is available"
    if not s.evidence:
        return unsaid, None
    seen = {e.start for e in s.evidence}
    for e in _with_rest(s, s.evidence, sentences):
        span = availability_span(e.sentence, available)
        if span is not None and not span[3]:
            if e.start not in seen:
                s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
            return quoted(e.sentence, span), e.start
    return unsaid, None


def _per_part(
    s: Source, plan: AskPlan, rank: Rank, stating: Stating | None = None,
    role_row: Callable[[Source, str], Evidence | None] | None = None, move: Move = lambda e: "unknown",
    sentences: Sentences = lambda e: [],
) -> str:
    """``**X** [n]: “…”; “…”``: for each part of a question asked in several ("What does PrefixRL
    reuse, and how much compute does it save?"), the clause of the evidence sentence that best
    answers that part (its numeric clause when the part asks an amount); a sentence already
    quoted for an earlier part is not quoted again. A part that asks a slot ("how many cognitive
    levels") is answered by the clauses that state it (``stating``), when a sentence does; a part
    that asks the problem ("what problem was ProAct-75 created to solve") by the sentence the
    comparison table's problem row quotes (``role_row``), as the table would answer it. Any other
    part is answered by a sentence of the paper's own work before one of its background or gap
    (``move``): "Which paper builds a foundation model for weather and climate" by ClimaX's "We
    develop and demonstrate ClimaX, ...", not by "these networks are trained using curated and
    homogeneous climate datasets", which is about other networks."""
    quotes: list[str] = []
    used: set[int] = set()
    # "Is there a paper that reduces arm selection to MIPS, and does it release code?": a part asking
    # an artifact's availability is answered by the sentence that makes it available, or that none
    # does; the other parts are answered by other sentences ("What does DDL ground, and is its code
    # available?" does not quote the code sentence for what it grounds)
    available = {
        i: _availability_part(s, part.available, sentences)
        for i, part in enumerate(plan.aspects) if part.available and len(plan.aspects) > 1
    }
    used.update(start for _, start in available.values() if start is not None)
    claimed = {start for _, start in available.values()}
    for i, part in enumerate(plan.aspects):
        if i in available:
            quotes.append(available[i][0])
            continue
        found = stating(part, s) if stating is not None and part.slot is not None else None
        if found is not None and found[0].start not in used:
            used.add(found[0].start)
            quotes.append(quoted(found[0].sentence, found[1]))
            continue
        key = _role_part(part)
        if key and role_row is not None:
            # a part that asks a role in generic words ("what does it propose", "how is it
            # evaluated"): the sentence the comparison table's row quotes (for its evaluation, the
            # data row, else the results row: "demonstrate substantial improvements over standard
            # baselines"), or that none states it; what a paper proposes is never said unstated,
            # the sentence closest to the part answers it when the approach row is empty
            row = role_row(s, key) or (role_row(s, "results") if key == "data" else None)
            if row is None and key != "approach":
                quotes.append(f"its abstract does not state {_ROW_UNSTATED[key]}")
                continue
            if row is not None and row.start not in used:
                used.add(row.start)
                if all(e.start != row.start for e in s.evidence):
                    s.evidence = sorted([*s.evidence, row], key=lambda x: x.start)
                clause = own_clause(row.sentence) if key == "approach" else key_clause(row.sentence)
                quotes.append(quoted(row.sentence, clause))
            if row is not None:
                continue
        row = role_row(s, "problem") if role_row is not None and "problem" in part.roles else None
        if row is not None and row.start not in used:
            used.add(row.start)
            if all(e.start != row.start for e in s.evidence):
                s.evidence = sorted([*s.evidence, row], key=lambda e: e.start)
            quotes.append(quoted(row.sentence, key_clause(row.sentence)))
            continue
        # the artifact's sentence answers its own part
        ranked = [e for e in rank(part, s) if e.start not in claimed]
        ranked = [e for e in ranked if move(e) not in ("background", "gap")] or ranked
        amount = part.amount
        if amount:
            ranked = [e for e in ranked if number_span(e.sentence)] or ranked
        if not ranked or ranked[0].start in used:
            continue
        ev = ranked[0]
        used.add(ev.start)
        quotes.append(quoted(ev.sentence, (amount and number_span(ev.sentence)) or key_clause(ev.sentence)))
    return f"{_name(s)}: " + "; ".join(quotes) if quotes else _amount(s)


@dataclass(frozen=True)
class PolarVerdict:
    """The answer a yes/no lead gives one paper (:func:`polar_verdict`).

    Attributes:
        text: The lead line ("Yes: **X** [1] — “…”", "The abstract of **X** [1] does not state this: …").
        stated: Whether the abstract bears on what is asked: a sentence states it, denies it, sets
            it against the paper or links a page that may hold an asked artifact, or every asked
            word is written, if not together ("no one sentence mentions ... together"); ``False``
            when an asked word is written nowhere in it, no sentence makes an asked artifact
            available, or a comparison asked is stated only against other objects ("Is StyleGAN-T
            better than Stable Diffusion?": "outperforms distilled diffusion models").
        unstated: When not ``stated``, what the abstract lacks, without the paper's name ("no
            sentence mentions tpus", "no sentence makes its code available"); else ``""``.
    """

    text: str
    stated: bool = True
    unstated: str = ""


def _polar(
    s: Source, terms: Sequence[str], sentences: Sentences, move: Move = lambda e: "unknown", compared: bool = False,
    available: str = "", absent: bool = False, senses: Senses | None = None, comparative: str = "",
    compounds: Sequence[Sequence[str]] = (),
    choice: str = "",
    against: Sequence[str] = (),
    relating: Sequence[str] = (),
) -> str:
    """The lead line of :func:`polar_verdict`."""
    return polar_verdict(
        s, terms, sentences, move, compared, available, absent, senses, comparative, compounds, choice,
        against, relating,
    ).text


def polar_verdict(
    s: Source, terms: Sequence[str], sentences: Sentences, move: Move = lambda e: "unknown", compared: bool = False,
    available: str = "", absent: bool = False, senses: Senses | None = None, comparative: str = "",
    compounds: Sequence[Sequence[str]] = (),
    choice: str = "",
    against: Sequence[str] = (),
    relating: Sequence[str] = (),
) -> PolarVerdict:
    """Yes with the stating clause, No with the clause that denies or sets aside what is asked, the
    clause with its negation, or "does not state this".

    ``choice``: the other option of a question that chooses between the paper and it ("Which is
    faster, Hyena or attention?", :attr:`rag.question.plan.AskPlan.polar_choice`): the verdict of
    the comparison names the option the sentence says ("Hyena, by its abstract: ..."), not yes or no.

    A clause that denies an asked term itself (:func:`denies_directly`: "does not require
    training a separate classifier", "without any retraining") or, in the paper's own work, sets
    it aside (:func:`sets_aside`: "eliminating per-task retraining") answers no: the quotation
    states the asked thing, so the verdict follows it, never "not stated".

    ``senses``: a term is also stated by a word that states it in other words
    (:func:`term_span`: "Does POET change ...?" by "not modifying ...").

    ``compared``: the question asks a comparison ("fewer diffusion steps?"); its comparative is no
    term a sentence must hold, and the sentence that states the other terms (one with the asked
    ``comparative`` first, then one with a figure: "one-eighth of the total diffusion steps") is
    quoted: yes when it states the comparative asked ("2x faster than the strongest baseline"),
    no when it states its opposite, else as stated, its direction for the reader to judge
    (:func:`comparison_verdict`). ``available``: the question asks whether an artifact is
    made available ("does ClimaX release code?"); a sentence that makes it available in any words
    states it (:func:`availability_span`), not one that holds the question's words.

    A sentence of the abstract that states the terms but is not among the source's evidence is
    added to it (so the quotation below the lead holds it too). A sentence of the abstract's
    background or gap move that does not speak of the authors' own work ("their effectiveness in
    low-resource languages remains limited") states the setting or the problem the paper
    addresses, not what it does, and the lead says so.

    ``absent``: the question asks for the absence of its terms ("does L2M work without per-task
    retraining?"): a sentence that negates them or sets them aside ("eliminating per-task
    retraining") answers yes; one that states them plainly says the abstract states them, not
    their absence ("learning ... from human hand-object demonstrations").

    ``compounds``: the phrases the question asks (:attr:`rag.question.plan.AskPlan.polar_compounds`):
    a sentence states one only with its words near each other (:func:`states_compound`); one that
    states them only apart ("NP-hard, ... sample-wise" for "hard samples") states nothing asked,
    and when no other does, the abstract is said not to state the phrase.

    A sentence of the paper's own work that states the contrary of an asked term in its place
    (:func:`contrary_span`: "on a single 16GB GPU" for "multiple GPUs", "a training-free ...
    solution" for "retraining") answers no (yes to a question that asks the absence), naming the
    two words, unless a sentence of its own work states the asked terms themselves (that one
    answers) or the question asks a comparison or an artifact's availability.

    ``against``: the terms the question itself sets the paper against
    (:attr:`rag.question.plan.AskPlan.polar_against`: "Shampoo" of "Does FOAM reduce wall-clock
    time compared to Shampoo?"): a sentence that names them after its own word of contrast states
    the comparison asked, so only the other terms make a mention one "in contrast". ``relating``:
    the question's verbs relating paper and thing (:attr:`rag.question.plan.AskPlan.polar_relating`):
    a negation that reaches one denies what is asked ("does not require training a separate
    classifier" for "does it need to train a classifier?")."""
    # the terms a word of contrast before them sets against the paper (not what the question compares with)
    contrastable = [t for t in terms if t not in against] or list(terms)
    # the asked terms with the question's relating verbs, which a negation denies as it denies a term
    deniable = [*terms, *(v for v in relating if v not in terms)]
    candidates = _with_rest(s, sorted(s.evidence, key=lambda e: -e.score), sentences)
    seen = {e.start for e in s.evidence}
    if available:
        stating = [(e, span) for e in candidates if (span := availability_span(e.sentence, available)) is not None]
    else:
        stating = [(e, span) for e in candidates if (span := term_span(e.sentence, terms, senses)) is not None]
        plain = unqualified(terms)
        if compared and not stating and comparative.lower() in _BARE_DEGREE and plain != tuple(terms):
            # "is HieRD more accurate than its baselines?" where no sentence writes "accurate": a
            # better result, which its own "consistently outperforms strong baselines" states
            terms, comparative = plain, BETTER
            stating = [(e, span) for e in candidates if (span := term_span(e.sentence, terms, senses)) is not None]
    # a phrase asked is stated only with its words together ("hard samples", not "NP-hard, ... sample-wise")
    apart = [
        g for g in compounds if stating and not any(states_compound(e.sentence, sp, g, senses) for e, sp in stating)
    ]
    if compounds and not available:
        stating = [(e, sp) for e, sp in stating if all(states_compound(e.sentence, sp, g, senses) for g in compounds)]
    if compared:  # the asked comparative first, then a figure ("one-eighth of the total diffusion steps")
        stating = sorted(
            stating, key=lambda es: (not comparison_verdict(es[0].sentence, es[1], comparative),
                                     not states_amount(es[0].sentence)),
        )
    # A sentence that states the terms side by side as asked ("CLIP guidance") first; then one that
    # affirms them; else one that states them as one of options compared; else one that sets them
    # against the paper; else one that negates them; else one that stands after a negation
    # in its clause beyond its reach (:func:`negated_far`). Among equals, a sentence about the paper's own
    # work ("we", "our", its label) before background.
    label = s.hit.paper.label
    first_own = min((x.start for x in sentences(candidates[0]) if own_work(x.text, label)), default=-1)

    def framing(e: Evidence) -> str:
        """"gap"/"background" for a sentence about the field, not the authors' own work; else ""."""
        m = move(e)
        return m if m in ("gap", "background") and not (_OWN.search(e.sentence) or label in e.sentence) else ""

    def rank(es: tuple[Evidence, tuple[int, int, bool, bool]]) -> tuple[int, int, int, int, int, int]:
        e, span = es
        # a comparison asked ("faster than Shampoo?") is answered by the sentence that sets the
        # paper against it ("reduces wall-clock time compared to standard Shampoo")
        # an artifact made available is stated by the release, not by its noun: "We release 95K
        # traces ... than scaling unfiltered data" releases data, whatever "data" is set against
        plain = not compared and not available
        stance = 3 if span[3] else 2 if plain and contrasted(e.sentence, span, contrastable, senses) else \
            4 if plain and negated_far(e.sentence, span, terms) else \
            int(plain and compared_option(e.sentence, span, terms))
        own = 0 if _OWN.search(e.sentence) or label in e.sentence else 1
        # a comparison asked is answered first by a sentence that states its comparative ("Hyena
        # operators are 2x faster than highly optimized attention"), not by the proposal's "we"
        verdict = int(compared and not comparison_verdict(e.sentence, span, comparative))
        # where the abstract's moves are unknown (no gap before its proposal), a sentence before the
        # authors' first own one that says nothing of their work is set behind theirs, as its setting
        # would be: "Graph Transformers that use message-passing inherit known issues" does not answer
        # "Does GRIT use message passing?", GRIT's "without using message passing" does (nu59); a
        # result after it without "we" is theirs ("Samples from a 3.5 billion parameter ... model")
        unplaced = int(bool(own) and move(e) == "unknown" and e.start < first_own)
        # the paper's own sentence that denies an asked term itself ("allows one to assess ...
        # without requiring any labels") says what the paper does without: it answers before a
        # sentence that only mentions the term ("the current selection method that involve a
        # dataset's labels", "domains that do not have the opportunity to rely on labels")
        denial = int(not (plain and span[3] and not own and denies_directly(e.sentence, span, deniable)))
        together = int(not states_together(e.sentence, terms))
        return verdict, together, int(bool(framing(e))) or unplaced, denial, stance, own

    if absent:  # a sentence that negates or sets aside what is asked absent first
        stating = sorted(
            stating, key=lambda es: not (es[1][3] or contrasted(es[0].sentence, es[1], contrastable, senses))
        )
    ranked = sorted(stating, key=rank) if not absent else stating
    if compared and comparative:
        # a comparison is answered by the paper's own comparison: a sentence of its own work that
        # states the comparative and names the asked object after a word of comparison; else the
        # own sentence that states the comparative, said to name another object (or none), rather
        # than a background sentence about the object ("Existing methods employ a dual-trajectory
        # matching framework") or the paper's claim against other models quoted as a yes
        named = [(e, span) for e, span in ranked if not framing(e) and comparison_verdict(e.sentence, span, comparative)
                 and not compares_other(e.sentence, terms, senses)]
        # a quantity asked in a common word ("less memory than Shampoo") must be what the sentence
        # compares: "reduces wall-clock time compared to standard Shampoo" says nothing of memory;
        # the object, a name ("Shampoo") or common words ("prior methods"), may go unnamed, so one
        # of the common words asked is enough ("significantly reducing memory consumption")
        texts = [x.sentence for x in candidates]
        measured = [t for t in terms if _as_written(t, texts).islower()]
        if not named and comparative.lower() not in _BARE_DEGREE:
            own = next(((e, c) for e in candidates if not framing(e) and own_work(e.sentence, label)
                        and (c := comparing_clause(e.sentence, comparative)) is not None
                        and (not measured or any(term_span(e.sentence, [t], senses) for t in measured))), None)
            if own is not None:
                e, span = own
                if e.start not in seen:
                    s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
                verdict = comparison_verdict(e.sentence, span, comparative)
                # the object not named: the asked words the sentence does not state ("memory" it does)
                unsaid = [t for t in terms if t not in measured or not term_span(e.sentence, [t], senses)]
                shown = " ".join(_as_written(t, texts) for t in unsaid or terms)
                said = quoted(e.sentence, span)
                # ... which does not answer the comparison asked: the paper is not set against the
                # object by name, so the question is refused with this comparison as the closest
                return PolarVerdict(f"{verdict.capitalize()}, though not against {shown} by name: {_name(s)} — {said}",
                                    stated=False, unstated=f"no sentence sets it against {shown}; its own "
                                    f"comparison: {said}")
        if named and ranked[0][0] is not named[0][0]:
            ranked = [named[0], *ranked]
    if not compared and not available:
        contrary = _contrary_line(s, ranked, candidates, terms, compounds, senses, absent, framing, seen, contrastable)
        if contrary:
            return PolarVerdict(contrary)
    for e, span in ranked[:1]:
        if e.start not in seen:
            s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
        if absent:
            if span[3] or contrasted(e.sentence, span, contrastable, senses):
                return PolarVerdict(f"Yes: {_name(s)} — {quoted(e.sentence, span)}")
            return PolarVerdict(f"The abstract of {_name(s)} states it, not its absence: {quoted(e.sentence, span)}")
        if span[3]:
            if not compared and not available and denies_directly(e.sentence, span, deniable):
                return PolarVerdict(f"No: {_name(s)} — {quoted(e.sentence, span)}")
            return PolarVerdict(f"Stated with a negation in {_name(s)}: {quoted(e.sentence, span)}")
        if not compared and not available and contrasted(e.sentence, span, contrastable, senses):
            said = quoted(e.sentence, span)
            if sets_aside(e.sentence, span, terms, senses, label):
                return PolarVerdict(f"No: {_name(s)} — {said}")
            return PolarVerdict(f"Not stated as what {_name(s)} does; its abstract mentions it in contrast: {said}")
        if not compared and not available and compared_option(e.sentence, span, terms):
            return PolarVerdict(f"{_name(s)} compares it with other options: {quoted(e.sentence, span)}")
        if not compared and not available and negated_far(e.sentence, span, terms):
            return PolarVerdict(f"Stated with a negation in {_name(s)}: {quoted(e.sentence, span)}")
        if framing(e) == "gap":
            return PolarVerdict(f"Stated as the problem {_name(s)} addresses: {quoted(e.sentence, span)}")
        if framing(e) == "background":
            return PolarVerdict(f"Stated as the setting of {_name(s)}: {quoted(e.sentence, span)}")
        if compared:
            verdict = comparison_verdict(e.sentence, span, comparative)
            if verdict and choice:  # "which is faster, Hyena or attention?": the one the sentence says
                chosen = _name(s) if verdict == "yes" else f"{choice} (not {_name(s)})"
                return PolarVerdict(f"{chosen} is {comparative}, by the abstract: {quoted(e.sentence, span)}")
            if verdict:
                return PolarVerdict(f"{verdict.capitalize()}: {_name(s)} — {quoted(e.sentence, span)}")
            # a figure without the comparative: the direction is the reader's to judge
            return PolarVerdict(f"Stated in {_name(s)} (judge the comparison from it): {quoted(e.sentence, span)}")
        return PolarVerdict(f"Yes: {_name(s)} — {quoted(e.sentence, span)}")
    if available:
        linked = next((e for e in candidates if without_links(e.sentence) != e.sentence), None)
        if linked is not None:
            # "The deliverables are released at https://sites.google.com/...": a project page the
            # abstract links, which the reader can open, is said, not hidden behind "no sentence"
            if linked.start not in seen:
                s.evidence = sorted([*s.evidence, linked], key=lambda x: x.start)
            return PolarVerdict(
                f"The abstract of {_name(s)} does not say its {available} is available; it links a page: "
                f"“{strip_markup(linked.sentence)}”"
            )
        return _unstated(s, f"no sentence makes its {available} available")
    if apart and not available:  # its words are written, only apart: the reader judges
        phrase = " ".join(_as_written(t, [e.sentence for e in candidates]) for t in apart[0])
        return PolarVerdict(
            f"The abstract of {_name(s)} does not state this: no sentence states “{phrase}” with its words together."
        )
    if not compared and not available and not absent and (apart_line := _stated_of_named(s, candidates, terms, senses,
                                                                                       framing, seen)):
        return PolarVerdict(apart_line)
    if not compared and not available and not absent and (denied := denied_of_stand_in(
            s, candidates, terms, compounds, deniable, senses, framing, seen)):
        return PolarVerdict(denied)
    keys = {k for e in candidates for k, _, _ in _keys_at(e.sentence)}
    # an acronym written out ("reinforcement learning" for "rl") is mentioned, though not with the rest
    missing = [t for t in terms if term_key(t) not in keys and not any(spelled_out(e.sentence, t) for e in candidates)]
    if not missing:  # every term is written, only not together: the reader judges from the sentences
        return PolarVerdict(f"The abstract of {_name(s)} does not state this: no one sentence mentions "
                            f"{' and '.join(terms)} together.")
    return _unstated(s, f"no sentence mentions {' or '.join(missing)}")


def _stated_of_named(
    s: Source, candidates: Sequence[Evidence], terms: Sequence[str], senses: Senses | None,
    framing: Callable[[Evidence], str], seen: set[int],
) -> str:
    """The "Yes" of a yes/no question whose proposition the abstract states of the paper by its
    name in two sentences, or ``""``: "Does SparseGPT prune OPT-175B?" by "a new pruning method
    called SparseGPT" (the asked "prune" in the clause that names the paper: what it is) and "We
    can execute SparseGPT on the largest available open-source models, OPT-175B ..." (the rest of
    the terms in a sentence that names it too).

    The first sentence states some of the asked terms in the phrase that says what the paper is
    (:func:`_kind_region`: before "called SparseGPT", after "FlexGen, a"), plainly: not negated,
    not set against the paper (:func:`contrasted`), not its setting or problem (``framing``);
    "SparseGPT is compatible with weight quantization approaches" says no quantizing of the
    paper's, it does not say what the paper is. The second states every other term, plainly, in a sentence that
    names the paper. Both are quoted, and added to the source's evidence (``seen``: the starts
    already in it)."""
    label = s.hit.paper.label
    if len(terms) < 2 or not label:
        return ""
    named = [e for e in candidates if label in e.sentence and not framing(e)]

    def plain(e: Evidence, asked: Sequence[str]) -> tuple[int, int, bool, bool] | None:
        span = term_span(e.sentence, asked, senses)
        if span is None or span[3] or contrasted(e.sentence, span, asked, senses):
            return None
        return span

    for e in named:
        region = _kind_region(e.sentence, label)
        if region is None:
            continue
        lo, hi = region
        kind = [t for t in terms if (sp := plain(e, [t])) is not None
                and any(lo <= x < hi for k, x, _ in _keys_at(e.sentence) if k in same_keys(t) | {term_key(t)})]
        rest = [t for t in terms if t not in kind]
        if not kind or not rest:
            continue
        own = plain(e, kind)
        found = next(((x, sp) for x in named if x.start != e.start and (sp := plain(x, rest)) is not None), None)
        if found is None or own is None:
            continue
        for x in sorted((e, found[0]), key=lambda x: x.start):
            if x.start not in seen:
                s.evidence = sorted([*s.evidence, x], key=lambda y: y.start)
        (a, sa), (b, sb) = sorted([(e, own), found], key=lambda x: x[0].start)
        return f"Yes: {_name(s)} — {quoted(a.sentence, sa)} … {quoted(b.sentence, sb)}"
    return ""


def denied_of_stand_in(
    s: Source, candidates: Sequence[Evidence], terms: Sequence[str], compounds: Sequence[Sequence[str]],
    deniable: Sequence[str], senses: Senses | None, framing: Callable[[Evidence], str], seen: set[int],
) -> str:
    """The "No" of a yes/no question whose proposition a sentence of the paper's own work denies
    with a pronoun in the place of one of the question's noun phrases, or ``""``: "Does CA-SOADD
    treat unseen attacks as an explicit negative class?" by "... without treating them as an
    explicit negative class", "Are its Bayes-optimal responses selected from sampled generations?"
    by "These are not selected from sampled generations".

    The phrase left out is one of the question's runs of terms (``compounds``), a part of one, or
    one term, the shortest first; the other terms (two at least) are stated in one clause
    (:func:`term_span`), negated so that the negation denies them directly (:func:`denies_directly`,
    with the question's relating verbs in ``deniable``), with a pronoun of vocabulary ``stand_in``
    in the quoted clauses; and the phrase
    left out is written in another sentence of the abstract (what the pronoun may stand for). The
    lead names the substitution, so the reader judges it: “No: **X** [n] — “…” (“them” where the
    question has “unseen attacks”)”. A sentence of the paper's background or gap (``framing``)
    answers nothing. The quoted sentence is added to the source's evidence (``seen``)."""
    # the shortest phrases first (the most of the proposition stated): a run's own parts too, as a
    # verb and its object form one run ("treat unseen attacks") and the pronoun stands for the object
    runs = sorted(
        {tuple(g[i:j]) for g in [*compounds, *((t,) for t in terms)] for i in range(len(g))
         for j in range(i + 1, len(g) + 1)},
        key=lambda r: (len(r), terms.index(r[0])),
    )
    texts = [e.sentence for e in candidates]
    for run in runs:
        rest = [t for t in terms if t not in run]
        if len(rest) < 2:
            continue
        for e in candidates:
            if framing(e):
                continue
            span = term_span(e.sentence, rest, senses)
            if span is None or not span[3] or not denies_directly(e.sentence, span, [*rest, *deniable]):
                continue
            pronoun = next((w for w in re.findall(r"[A-Za-z]+", e.sentence[span[0] : span[1]])
                            if w.lower() in _STAND_IN), "")
            if not pronoun or not any(x.start != e.start and term_span(x.sentence, run, senses) for x in candidates):
                continue
            if e.start not in seen:
                s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
            phrase = " ".join(_as_written(t, texts) for t in run)
            return f"No: {_name(s)} — {quoted(e.sentence, span)} (“{pronoun}” where the question has “{phrase}”)"
    return ""


def _kind_region(sentence: str, label: str) -> tuple[int, int] | None:
    """The offsets of the phrase of ``sentence`` that says what the paper ``label`` is, or ``None``:
    the clause before a naming word right before the label ("This is achieved via a new pruning
    method called `SparseGPT`": vocabulary ``kind_naming``), or the apposition after the label and
    a comma with an article ("We present FlexGen, a high-throughput generation engine ...":
    ``kind_article``) to the end of its clause (:func:`clause_spans`)."""
    at = sentence.find(label)
    if at < 0:
        return None
    spans = clause_spans(sentence)
    clause = next(((a, b) for a, b in spans if a <= at < b), (0, len(sentence)))
    before = sentence[clause[0] : at]
    naming = list(_NAMING.finditer(before))
    if naming and not before[naming[-1].end() :].strip(" `*\"'“"):
        return clause[0], clause[0] + naming[-1].start()
    end = at + len(label)
    rest = sentence[end:].lstrip(" `*\"'”")
    words = _WORDS.findall(rest[1:60]) if rest.startswith(",") else []
    if words and words[0].lower() in _KIND_ARTICLE:
        start = len(sentence) - len(rest) + 1
        return start, next((b for a, b in spans if a <= start < b or a >= start), len(sentence))
    return None


def _unstated(s: Source, what: str) -> PolarVerdict:
    """The verdict of a yes/no lead when no sentence of ``s``'s abstract bears on what is asked."""
    return PolarVerdict(f"The abstract of {_name(s)} does not state this: {what}.", stated=False, unstated=what)


def _contrary_line(
    s: Source, ranked: Sequence[tuple[Evidence, tuple[int, int, bool, bool]]], candidates: Sequence[Evidence],
    terms: Sequence[str], compounds: Sequence[Sequence[str]], senses: Senses | None, absent: bool,
    framing: Callable[[Evidence], str], seen: set[int], contrastable: Sequence[str] | None = None,
) -> str:
    """The verdict of :func:`_polar` from a sentence that states the contrary of an asked term
    (:func:`contrary_span`), ``""`` when none answers.

    The sentence that states the asked terms answers first when it is of the paper's own work and
    answers as asked (plainly, or with a negation or a setting aside when the question asks their
    absence). Otherwise the first candidate (by score) of the paper's own work, neither its
    background or gap (``framing``) nor a sentence about prior work, that states a contrary
    answers: "No: **X** [n] — “…” (“single”, not “multiple”)", or "Yes" when the question asks the
    absence of the term ("Does SmoothQuant work without retraining?": “training-free”). A sentence
    that states a contrary is added to the source's evidence (``seen``: the starts already in it).
    ``contrastable``: the terms a word of contrast sets against the paper (all ``terms`` when
    ``None``; :func:`polar_verdict`'s ``against`` left out)."""
    label = s.hit.paper.label
    contrastable = terms if contrastable is None else contrastable
    if ranked:
        e, span = ranked[0]
        answers = bool(span[3]) or contrasted(e.sentence, span, contrastable, senses) if absent else not (
            span[3] or contrasted(e.sentence, span, contrastable, senses) or compared_option(e.sentence, span, terms)
        )
        if answers and not framing(e):
            return ""
    about_prior = [e for e in candidates if PRIOR_WORK.search(e.sentence) and not own_work(e.sentence, label)]
    opposed = [
        (e, found) for e in candidates
        if not framing(e) and e not in about_prior and (found := contrary_span(e.sentence, terms, compounds, senses))
    ]
    if not opposed:
        return ""
    opposed.sort(key=lambda ef: not own_work(ef[0].sentence, label))
    e, (span, term, word) = opposed[0]
    if e.start not in seen:
        s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
    said = quoted(e.sentence, span)
    shown = _as_written(term, [x.sentence for x in candidates])
    return f"{'Yes' if absent else 'No'}: {_name(s)} — {said} (“{word}”, not “{shown}”)"


def manner_line(s: Source, terms: Sequence[str], sentences: Sentences, senses: Senses | None = None) -> str:
    """``**X** [n] — “…”``, the clauses of the sentence that states the process a question of
    manner asks (:attr:`rag.question.plan.AskPlan.manner`: "How are SGB-IB's pseudo-labels
    derived?" -> "... between sample features and K-means-derived pseudo-labels ..."), stating
    every term (:func:`term_span`, in any of their forms and, with ``senses``, in other words).

    Of the sentences that state them, one about the paper's own work (:func:`own_work`) answers
    before its setting; among those one with the terms side by side as asked
    (:func:`states_together`: "a single informative training sample", not "sample complexity
    ... training instances"), then one that says how from its quoted clauses on (vocabulary
    ``manner_marker``: "by", "via", "using", "-derived", "guided by"); then by the evidence
    score, then in the abstract's order. A sentence not yet among the source's evidence is added
    to it, so the quotation below the lead holds it too.

    When only the title states every term, the process is what the paper does, and the line is
    ``""`` (the paper's approach answers). When no sentence states every term (each is written
    somewhere, or the question would have been refused, :meth:`rag.route.refusal.Refusals.manner`),
    the line says the abstract does not state how: "The abstract of **X** [n] does not state how:
    no one sentence mentions tokens and edit together." (the evidence below it is the closest)."""
    candidates = _with_rest(s, sorted(s.evidence, key=lambda e: -e.score), sentences)
    label = s.hit.paper.label
    # a term written only inside the paper's name states no process ("omit" of "How does Agent-Omit
    # decide what to omit?" is not stated by "we propose Agent-Omit"): the name is blanked out
    stating = [(i, e, span) for i, e in enumerate(candidates)
               if (span := term_span(_unnamed(e.sentence, label), terms, senses)) is not None and not span[3]]
    if not stating and term_span(s.hit.paper.title or "", terms, senses) is not None:
        return ""  # the title states it ("Zero-Shot Machine-Generated Text Detection ..."): what the paper does answers
    if not stating:
        apart = " and ".join(terms)
        return f"The abstract of {_name(s)} does not state how: no one sentence mentions {apart} together."

    def rank(item: tuple[int, Evidence, tuple[int, int, bool, bool]]) -> tuple[int, int, int, int]:
        i, e, span = item
        return (int(not own_work(e.sentence, label)), int(not states_together(e.sentence, terms)),
                int(not _MANNER.search(e.sentence[span[0] :])), i)

    _, e, span = min(stating, key=rank)
    if all(x.start != e.start for x in s.evidence):
        s.evidence = sorted([*s.evidence, e], key=lambda x: x.start)
    return f"{_name(s)} — {quoted(e.sentence, _with_manner(e.sentence, span))}"


def _unnamed(sentence: str, label: str) -> str:
    """``sentence`` with each occurrence of the paper's ``label`` (three characters or more) blanked
    out by spaces, so offsets into it are offsets into ``sentence``: "we propose Agent-Omit, a
    unified training framework" states "omit" only where it is a word of its own."""
    if len(label) < 3:
        return sentence
    return re.sub(rf"(?<![\w-]){re.escape(label)}(?![\w-])", lambda m: " " * len(m.group(0)), sentence)


def _with_manner(sentence: str, span: tuple[int, int, bool, bool]) -> tuple[int, int, bool, bool]:
    """``span`` (:func:`term_span`) grown to the clause that says how when its own clauses say
    nothing of how (vocabulary ``manner_marker``): the clause before it when it opens with such a
    word ("By solving a linear programming problem, it searches for efficient patterns to store
    and access tensors"), else the clause after it when it holds one: "dynamically selects a
    single informative training sample per batch for policy updates, guided by reward volatility
    ..." is quoted with its "guided by" clause (cut to :data:`MAX_LEAD_WORDS` as any quotation)."""
    a, b, _, negated = span
    if _MANNER.search(sentence[a:b]):
        return span
    spans = clause_spans(sentence)
    before = next(((x, y) for x, y in reversed(spans) if y <= a), None)
    if before is not None and _MANNER.match(sentence, before[0]):
        # an opening clause that says how: "By solving a linear programming problem, it searches ..."
        lo, hi, cut = _capped(sentence, before[0], b, spans)
        return lo, hi, cut, negated
    after = next(((x, y) for x, y in spans if x >= b), None)
    if after is None or not _MANNER.search(sentence[after[0] : after[1]]):
        return span
    lo, hi, cut = _capped(sentence, a, after[1], spans)
    return lo, hi, cut, negated


def _slot_line(s: Source, stating: Stating, ask: Ask, beside: Beside | None = None) -> str:
    """``**X** [n]: “…”``, the clauses that state the slot; ``""`` when no sentence states it.
    ``beside``: the other sentences stating it, quoted after it (a model's sizes: "Our 900M
    parameter model ..."; "The Muse 3B parameter model ..."), at most :data:`MAX_NUMBER_QUOTES` in all."""
    found = stating(ask, s)
    if found is None:
        return ""
    ev, span = found
    others = beside(ask, s, ev)[: MAX_NUMBER_QUOTES - 1] if beside is not None else []
    if others:
        for x, _ in others:
            if all(e.start != x.start for e in s.evidence):
                s.evidence = sorted([*s.evidence, x], key=lambda e: e.start)
        said = sorted([(ev, span), *others], key=lambda es: es[0].start)
        return f"{_name(s)}: " + "; ".join(quoted(e.sentence, sp) for e, sp in said)
    slot = ask.slot
    if ask.amount and slot is not None and slot.terms and not (slot.count or slot.detail or slot.form) \
            and not states_amount(ev.sentence[span[0] : span[1]]):
        # the measure stated without a figure ("substantially faster than several competing
        # methods"): that clause, saying so, not a figure of another measure in the sentence
        return f"The abstract of {_name(s)} states no figure for {slot.name}; it states: {quoted(ev.sentence, span)}"
    if ask.amount:
        # an amount in words states it too ("generalizes zero-shot to two additional cities"): only
        # a clause with none gives way to the sentence's clause of figures
        more = number_span(ev.sentence)
        clause = ev.sentence[span[0] : span[1]]
        # "existing one-step" counts the steps asked, as a figure would
        counted = slot is not None and (slot.count or slot.detail) and counts_joined(clause, slot.terms)
        span = span if states_amount(clause) or counted or more is None else more
    clause = ev.sentence[span[0] : span[1]]
    if PRIOR_WORK.search(ev.sentence) and not own_work(ev.sentence, s.hit.paper.label):
        # the only sentence that states it speaks of prior work ("existing NAS methods for object
        # detection require hundreds to thousands of GPU hours of searching"): its figure is not
        # the paper's, and the lead says whose it is rather than quote it as the answer
        return f"{_name(s)} states it only of prior work: {quoted(ev.sentence, span)}"
    if slot is not None and slot.change and slot.terms and not _names_measure(slot.terms, clause):
        # the figure of the change asked, stated for another measure (rag.route.slot.change_clause:
        # "improves accuracy by 7.7%" for "how much does AdaDPS improve optimization performance?"):
        # the figure first, and that it is not given for the measure by name
        return f"{_name(s)} gives its {slot.change} as: {quoted(ev.sentence, span)} (no figure for {slot.name} by name)"
    if slot is not None and slot.form == HARDWARE and not _COMPUTE_STATED.search(ev.sentence):
        # "DexMachina hardware?": "identifying desirable hardware capabilities" (of robot hands) is
        # hardware, but no compute: said so, not read as what it was trained or run on
        return f"{_name(s)}: {quoted(ev.sentence, span)} (hardware in general; no GPU, TPU or other compute is named)"
    return f"{_name(s)}: {quoted(ev.sentence, span)}"


def _names_measure(terms: tuple[str, ...], clause: str) -> bool:
    """Whether ``clause`` writes one of a measure's ``terms`` (term keys, the glossary's same words;
    a compound asked with its hyphen by its parts written open, :func:`rag.lexicon.open_compounds`)."""
    keys = {k for k, _, _ in _keys_at(clause)}
    return any(same_keys(t) & keys for t in open_compounds(terms, clause))


def _limits(s: Source, move: Move) -> str:
    """The lead of "what are its limitations?": the limitation the abstract states of the paper's own
    work, or that it states none and what it says instead (the gap of earlier work it addresses)."""
    gap = [e for e in s.evidence if move(e) == "gap"]
    # a sentence of the paper's own work with a cue of a limitation ("limited to", "at the cost
    # of"); the sentences kept when the abstract states neither (HyperTrack's "This paper presents
    # a systematic study ...") are no limitation, nor a cue in a clause about other work the paper
    # sets itself against ("Unlike routing heuristics that offer limited control over trade-offs")
    own = [e for e in s.evidence if move(e) != "gap" and states_own_limitation(e.sentence)]
    if own:
        e = own[0]
        return f"Limitation stated in {_name(s)}: {quoted(e.sentence, key_clause(e.sentence))}"
    if gap:
        e = gap[0]
        return (
            f"The abstract of {_name(s)} states no limitation of its own; the limitation of earlier work it "
            f"addresses: {quoted(e.sentence, key_clause(e.sentence))}"
        )
    return f"The abstract of {_name(s)} states no limitation of its own."


def _counted(n: int, scope: str) -> str:
    """``"N papers in the collection"``, or within a set of papers ``"N of the 12 papers of the
    previous answer"`` (``scope`` names the set)."""
    return f"{n} of {scope}" if scope else f"{n} paper{'s' if n != 1 else ''} in the collection"


def list_head(n_listed: int, matched: int, at_least: bool, scope: str = "") -> str:
    """``"N papers in the collection match"`` (N the papers found; the listed count when fewer);
    ``scope`` names the set searched when it is not the collection (:func:`_counted`)."""
    n = max(matched, n_listed)
    head = f"{'At least ' if at_least else ''}{_counted(n, scope)} "
    head += "matches" if n == 1 and not scope else "match"
    if n > n_listed:
        head += f"; the {n_listed} most relevant are listed"
    return head + ":"


def about_head(n_listed: int, matched: int, at_least: bool, scope: str = "") -> str:
    """The head of a list of papers found for a topic: ``"N papers in the collection are clearly
    about this:"``, N the papers whose calibrated membership probability reaches
    ``retrieval.set_membership`` (:mod:`rag.route.membership`; the listed count when fewer). The
    papers that only mention the topic are counted apart (:func:`mention_head`)."""
    n = max(matched, n_listed)
    verb = "is" if n == 1 else "are"
    verb = "are" if scope and n != 1 else verb
    head = f"{'At least ' if at_least else ''}{_counted(n, scope)} {verb} clearly about this"
    if n > n_listed:
        head += f"; the {n_listed} most relevant are listed"
    return head + ":"


def mention_head(n: int) -> str:
    """The head of the papers that mention a topic without being clearly about it (named after the
    answer, not cited): ``"Also mention it, without being clearly about it (N):"``."""
    return f"Also mention{'s' if n == 1 else ''} it, without being clearly about it ({n}):"


def lead_line(
    plan: AskPlan,
    sources: Sequence[Source],
    *,
    listing: bool,
    named: bool,
    matched: int,
    at_least: bool = False,
    gist: Callable[[Source], Evidence | None] = lambda s: None,
    sentences: Sentences = lambda e: [],
    move: Move = lambda e: "unknown",
    rank: Rank | None = None,
    stating: Stating | None = None,
    beside: Beside | None = None,
    scope: str = "",
    role_row: Callable[[Source, str], Evidence | None] | None = None,
    senses: Senses | None = None,
) -> str:
    """The lead of an extractive answer (see the module docstring); ``""`` without evidence.

    Args:
        plan: The question's plan (its form: ``polar``, an amount asked, ``number``).
        sources: The numbered sources, each with at least one evidence sentence; a yes/no lead
            may add the sentence that states the asked terms to a source's evidence.
        listing: The answer lists papers found for a topic.
        named: The question named (or referred to) its papers.
        matched: How many papers match (a list's count; at least the number listed).
        at_least: ``matched`` is a lower bound.
        gist: A source's approach sentence (:meth:`rag.evidence.selector.EvidenceSelector.gist`).
        sentences: All sentences of the abstract an evidence sentence comes from.
        move: The move of an evidence sentence in its abstract (a yes/no lead tells the paper's own
            statement from its setting or problem).
        rank: Scores a source's evidence against one part of the question; with it, a question
            about named papers asked in several parts has each part answered in the lead.
        stating: The sentence and clauses that state the question's slot (:attr:`Ask.slot`); with
            it, a question about named papers that asks a slot ("How much does PrefixRL increase
            the final reward?") is answered by the clause that states it ("and increases the final
            reward by 3x"), not by the clause before it.
        beside: The other sentences that state the slot, quoted after the one ``stating`` gives
            (a model's sizes in two sentences: :func:`rag.route.slot.sizes_beside`).
        scope: The set of papers a list was found in when not the collection (its head counts in it).
        role_row: The sentence a comparison table's row (by key: "problem", "approach", "data") quotes
            for a source (:func:`rag.evidence.rows.select_rows`); with it, a question about a named
            paper's data, problem or approach ("What data is ClimaX pretrained on?", "What is the
            approach of GLIDE?") is answered by that sentence, as the table would answer it, not by the
            sentence closest to its words; a list that asks what its papers propose quotes their
            "approach" row; a part of a question that asks the problem is answered by that sentence.
        senses: Words that state an asked term in other words (:mod:`rag.evidence.senses`); with
            them, a yes/no question is answered by a sentence that words a term otherwise.

    Returns:
        One line, or for a list the count line and one line per paper.
    """
    sources = [s for s in sources if s.evidence]
    if not sources:
        return ""
    if plan.own_limits and named:
        return "\n".join(_limits(s, move) for s in sources)
    if plan.polar and plan.polar_terms and named:
        return "\n".join(
            _polar(
                s, plan.polar_terms, sentences, move, plan.polar_compared, plan.polar_available, plan.polar_absent,
                senses, plan.polar_comparative, plan.polar_compounds, plan.polar_choice, plan.polar_against,
                plan.polar_relating,
            )
            for s in sources
        )
    if listing:
        lines = [about_head(len(sources), matched, at_least, scope)]
        # "which papers do time series forecasting, and what do they propose?": the part that finds
        # the papers asks no method, the question does; each paper is quoted with its approach row
        proposal = (
            role_row is not None and "method" in plan.ask.roles and bool(plan.aspects)
            and "method" not in plan.aspects[0].roles
        )
        for s in sources:
            ev = _best(s)
            if proposal and role_row is not None and (row := role_row(s, "approach")) is not None:
                ev = row
                if all(e.start != row.start for e in s.evidence):
                    s.evidence = sorted([*s.evidence, row], key=lambda e: e.start)
            body = _number_quotes(s) if plan.ask.amount else ""
            lines.append(f"- {_name(s)} — {body or quoted(ev.sentence, key_clause(ev.sentence))}")
        return "\n".join(lines)
    if plan.manner and (named or len(sources) == 1) and len(plan.aspects) <= 1:
        # "How are SGB-IB's pseudo-labels derived?": the sentence that states the process, with how
        lines = [manner_line(s, plan.manner, sentences, senses) for s in sources]
        if all(lines):
            return "\n".join(lines)
    if stating is not None and (named or len(sources) == 1) and plan.ask.slot is not None and len(plan.aspects) <= 1:
        # a named paper, or the one paper the question found ("What is the speedup of the quantum
        # algorithm for nested expectations?"): the clauses that state the slot, when some do
        lines = [_slot_line(s, stating, plan.ask, beside) for s in sources]
        if all(lines):
            return "\n".join(lines)
    if rank is not None and len(plan.aspects) > 1:
        # named papers, or the one paper a question found by its first part ("Which paper detects
        # audio deepfakes, and what dataset does it evaluate on?"): each part answered in turn
        return "\n".join(_per_part(s, plan, rank, stating, role_row, move, sentences) for s in sources)
    if plan.ask.amount:
        return "\n".join(_amount(s, plan.ask) for s in sources)
    # What a paper does (its approach sentence) answers a question that found it by what it does
    # ("which paper distills ...") or asks what it does ("what does the routing paper propose?");
    # a question asking for another part (its data, results, problem), a detail ("what license ..."), a
    # quoted figure ("reports 65x ...") or something particular of a named paper gets the sentence that states it.
    if named and plan.ask.definition:
        # "What is HyperTrack?": the sentence that says what the name is ("we introduce HyperTrack, a
        # large-scale dataset ..."), which the evidence ranks first (its definition bonus), not the
        # approach row, which may be the study the paper presents around it
        return "\n".join(one_paper_lead(s, gist(s), named=True) for s in sources)
    row_key = _ROLE_ROWS.get(next(iter(plan.ask.roles))) if len(plan.ask.roles) == 1 else None
    if named and role_row is not None and row_key and not (plan.detail or plan.figures or plan.ask.slot):
        # "what data does X use?", "what problem does X address?", "what is X's approach?": the
        # sentence the comparison table's row quotes, so chat, summary and table answer alike
        lines = []
        for s in sources:
            row = role_row(s, row_key)
            if row is None:
                lines.append(one_paper_lead(s, gist(s), named=True))
                continue
            if all(e.start != row.start for e in s.evidence):
                s.evidence = sorted([*s.evidence, row], key=lambda e: e.start)
            lines.append(f"{_name(s)} — {quoted(row.sentence, key_clause(row.sentence))}")
        return "\n".join(lines)
    if not plan.english:
        # a question in another language is read for its names and its amount alone (an amount is
        # answered above): what each paper does answers it
        return "\n".join(one_paper_lead(s, gist(s), named=False) for s in sources)
    # a paper the question describes and asks something of ("Which commercial systems does the
    # Lao speech synthesis paper beat?"): what is asked, without the describing phrase, picks it;
    # a message that only seeks the paper it describes asks nothing else
    asked_of = not plan.seeks and plan.ask.matching != plan.ask.text and bool(content_terms(plan.ask.matching))
    own = (named or asked_of) and "method" not in plan.ask.roles
    best = bool(plan.ask.roles - {"method"} or plan.detail or plan.figures) or own
    return "\n".join(one_paper_lead(s, gist(s), named=best) for s in sources)
