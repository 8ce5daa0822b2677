"""Phrase-level reading of questions: word classes and the parts of a request for papers.

Used by the question model (:mod:`rag.question.reader`): the frame that only asks for papers and the
topic left when it is peeled off (:func:`split_frame`), alternatives (:func:`facets`),
exclusions (:func:`split_exclusion`), instructions to the assistant (:func:`strip_injection`),
input normalisation (:func:`clean_input`) and
messages that ask nothing (:func:`social`: "hello!", "thanks", "ok") and questions that ask which
paper wins (:func:`asks_better`: "Which is better, X or Y?"). Yes/no questions: :mod:`rag.question.polar`.
Every rule here is a pattern with one job composed of word classes (``vocabulary/phrasing.toml``,
each class with its job and examples); ``tests/test_question.py`` checks each with phrasings it was
not written for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from rapidfuzz.distance import Levenshtein

from rag.lexicon import english_word, lemma
from rag.text import CODE_COMPOUND, content_terms
from rag.vocabulary import beside
from store.textin import clean_text

__all__ = [
    "BETTER",
    "alternatives",
    "before_dash",
    "framed_reference",
    "CLAUSE_OPENER",
    "CODE_HOST",
    "LINK_NOUN",
    "LINK_WORD",
    "WORD",
    "FRAME_WORDS",
    "RESTATING_DASH",
    "Number",
    "asks_better",
    "asks",
    "asks_for_paper",
    "asks_collection",
    "asks_in_shorthand",
    "shorthand_words",
    "UNIT_ASKED",
    "UNIT_WORDS",
    "without_unit",
    "asks_quantity",
    "clean_input",
    "conjoined",
    "excluded_terms",
    "without_generic",
    "definite_words",
    "own_noun",
    "facets",
    "keep_asking",
    "named_terms",
    "social",
    "exclusion_span",
    "split_exclusion",
    "strip_social",
    "split_frame",
    "strip_injection",
    "topic_terms",
    "trim",
    "verdict_criterion",
    "without_verdict",
]

Number = Literal["one", "many", "open"]

_VOCABULARY = beside(__file__, "phrasing")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}


def clean_input(text: str | None) -> str:
    """Text as typed -> text safe to read: :func:`store.textin.clean_text`, the one normalisation
    every input path shares (lone surrogates -> U+FFFD, NFC, control characters dropped, spaces
    folded), keeping line breaks (an instruction on a line of its own is dropped by line).
    ``None`` gives ``""``."""
    return clean_text(text or "", multiline=True)


SET_NOUNS = _VOCABULARY["set_noun"].words
ONE_NOUNS = _VOCABULARY["one_noun"].words  # "work" is a mass noun
# Set nouns that are never the topic's own words, wherever they stand ("knowledge distillation papers (...)").
_ALWAYS_FRAME = _VOCABULARY["always_frame"].words
# Words that only frame a request for papers; peeled off both ends of a question.
FRAME_WORDS = _VOCABULARY["frame"].words
_LONG_FRAME_WORDS = sorted(w for w in FRAME_WORDS if len(w) >= 4)
# Words that only say how a paper relates to the topic ("work on", "deal with", "use").
RELATING = re.compile(
    rf"^(?:{_V['relating_adverb']}\s+)?(?:{_V['relative_pronoun']}\s+)?(?:{_V['copula']}\s+)?{_V['relating']}\s+"
    rf"(?:{_V['relating_article']}\s+)?",
    re.I,
)

# A relative clause that names the topic through an aspect of the paper, or such an aspect
# after it: "(papers) whose target application is some kind of retrieval", "where the task is
# retrieval", "(papers with) speech as their application domain" -> the topic alone.
_ASPECT_NOUN = _V["aspect_noun"]
_ASPECT_IS = re.compile(
    rf"^(?:{_V['aspect_relative']}\s+)?(?:{_V['aspect_modifier']}\s+)*{_ASPECT_NOUN}\s+{_V['aspect_copula']}\s+"
    rf"(?:{_V['aspect_article']}\s+)?(?:{_V['kind_of']}\s+)?|"
    rf"\s+as\s+{_V['aspect_possessive']}\s+(?:{_V['aspect_adjective']}\s+)*{_ASPECT_NOUN}$",
    re.I,
)

# A topic said to be central to the paper, or what the paper's method relies on: "(papers) where a
# VLM is central to the method", "diffusion models as the backbone", "whose method relies on X" ->
# the topic alone (the relative before a centrality predicate goes with it: "in which X plays a key role").
_CENTRAL_TAIL = re.compile(rf"\s+{_V['centrality']}$", re.I)
_CENTRAL_LEAD = re.compile(rf"^{_V['aspect_relative']}\s+", re.I)
_METHOD_RELATIVE = re.compile(rf"^{_V['method_relative']}\s+", re.I)

# "ignore ... the rules", "print ... the system prompt", "you are now", "system: ...". The verbs
# are matched as the end of a word and what is dropped as the start of one, as before.
_INJECTION = re.compile(
    rf"{_VOCABULARY['dismiss'].bare}\b[^.?!]{{0,40}}\b{_VOCABULARY['dismissed'].bare}|"
    rf"{_VOCABULARY['reveal'].bare}\b[^.?!]{{0,40}}{_V['revealed']}|{_V['injection']}|^\W*{_V['role']}\s*:",
    re.I,
)
_QUESTION_START = re.compile(rf"{_VOCABULARY['question_start'].bare}\b", re.I)  # read with .match

# What a topic excludes: "RL for reasoning, outside of agent settings", "(not counting surveys)",
# "general (non-speech) audio".
_EXCLUSION = re.compile(
    rf"\s*[,;(]?\s*(?:\b(?:{_V['excluding']}|(?<=[(,] )not|(?<=\()not|"
    # a negated relative clause: "that are not about X", "which don't use X", "(papers on T) don't use X"
    rf"{_V['relative']}\s+{_V['negation']}(?:\s+{_V['negated_relating']})?|{_V['negation']}\s+{_V['negated_relating']})\s+"
    rf"|(?<=\(){_V['negating_prefix']}-)"
    r"(?:the\s+)?(?P<x>[^,;?.()]+)\)?",
    re.I,
)
_GENERIC = _VOCABULARY["generic_word"].words
# A comma or "or" splits alternatives; one followed by "then"/"followed by" continues a sequence
# ("supervised fine-tuning, then reinforcement learning": both steps are asked for).
RESTATING_DASH = re.compile(rf"\s+(?={_V['restating_dash']})(?!-+\s+{_V['head_determiner']})-+", re.I)
"""A spaced dash that opens the term before it restated in other words ("machine unlearning -
algorithms that remove the influence of training examples"): the two are alternatives. One
followed by a frame word asks for the papers instead ("... inconsistent tokens - any method that
corrects the draft")."""
_FACET_SPLIT = re.compile(
    rf",(?!\s*(?:and\s+)?{_V['sequence_word']})|;|\s/\s|/(?=\s*[a-z])|{_V['facet_word']}|:(?=\s)"
    rf"|{RESTATING_DASH.pattern}",
    re.I,
)
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_DETERMINER = re.compile(_V["determiner"], re.I)
_OWN_NOUN = re.compile(_V["own_noun"], re.I)
_DEFINITE_WORD = re.compile(_V["definite_article"], re.I)
_DESCRIBING = re.compile(rf"{_V['relative_pronoun']}|{_V['describing_word']}", re.I)
_DEFINITE = re.compile(rf"(?:{_V['definite_article']}|{_V['demonstrative']})\s+([\w-]+)", re.I)
_ALTERNATIVE = re.compile(rf"(?:^|\s+){_V['alternative_word']}(?:\s+|$)", re.I)


def _is_set_noun(word: str) -> str:
    """``"many"`` for a plural set noun, ``"one"`` for a singular one, ``""`` otherwise; within one
    typing error for words of five or more letters ("papres" -> papers)."""
    w = word.lower()
    if w in SET_NOUNS:
        return "many"
    if w in ONE_NOUNS:
        return "one"
    return "many" if _typo_of(w, ("papers", "studies", "articles", "abstracts")) else ""


def _typo_of(w: str, words: Iterable[str]) -> str:
    """The word of ``words`` that ``w`` (lower case, no English word) mistypes: the same letters
    swapped ("papres", "whcih", "lsit"), one letter dropped ("wich", "papr"), or for five letters
    or more one edit away ("recommned"); ``""`` when none."""
    if len(w) < 4 or not w.isalpha() or english_word(w):
        return ""

    def mistyped(x: str) -> bool:
        dropped = len(x) == len(w) + 1 and Levenshtein.distance(w, x) == 1
        return sorted(w) == sorted(x) or dropped or (len(w) >= 5 and Levenshtein.distance(w, x) <= 1)

    return next((x for x in words if len(x) >= 4 and mistyped(x)), "")


# Words after which a plural noun is the head of the request: "which methods ...", "I'm looking for
# approaches that ...", "any LLMs that ..." ask for several papers as "which papers" does.
_HEAD_DETERMINERS = _VOCABULARY["head_determiner"].words
_TRAILING_REFERENCE = _VOCABULARY["trailing_reference"]
_IN_COLLECTION = _VOCABULARY["in_collection"]
_VERB_NOUNS = _VOCABULARY["verb_noun"].words
_VERB_SUBJECTS = _VOCABULARY["verb_subject"].words
_WH_AMOUNT = _VOCABULARY["wh_amount"].words
_MASS_SET_NOUNS = _VOCABULARY["mass_set_noun"].words
CLAUSE_OPENER = _VOCABULARY["clause_opener"]
_PICKING_WH = _VOCABULARY["picking_wh"].words
CODE_HOST = _VOCABULARY["code_host"]
LINK_NOUN = _VOCABULARY["link_noun"]
LINK_WORD = _VOCABULARY["link_word"]

_QUANTIFIERS = ("any", "all", "some")
"""Quantifiers before a mass noun of the frame that ask for the set ("any work on X", "any X work?")."""
BARE_TOPIC_TERMS = 4
"""At most this many terms (content terms; a known name of several words, "graph neural networks",
counts once: :func:`topic_terms`), in one clause, make what follows "work on" a bare topic that asks
for the set ("I'm looking for work on speech generation / voice synthesis": 4) rather than a
description of one paper ("work on recovering expressive intonation in speech synthesis for
under-resourced languages such as Lao": 9). Calibrated by reading the 29 "looking for" questions of
dev.jsonl and dev_variants.jsonl and 12 of our own: the descriptions of one paper there have 6 or
more content terms or a clause of their own."""


_CONJOINING = re.compile(
    rf"^(?:{_V['relative_pronoun']}\s+)?(?:{_V['copula']}\s+)?(?:{_V['relating']}\s+)?{_V['conjoining']}\s+", re.I
)
_CONJOINED_LINK = _VOCABULARY["conjoined_link"]
_COMBINATION_MARK = re.compile(rf"\s+{_V['combination_mark']}\s+")


def conjoined(topic: str, *, words: bool = True) -> str:
    """``topic`` read as two parts done together when a conjoining word opens it (``conjoining``:
    "combine X with Y", "both X and Y", "integrating X into Y") or a mark joins them
    (``combination_mark``: "fl + dp" -> "fl with dp"): the word goes and the first word
    that joins the conjuncts (``conjoined_link``) reads "with", a preposition that relates two parts a
    paper must each state (:func:`rag.question.parts.topic_parts`): "combine federated learning with
    differential privacy" and "both federated learning and differential privacy" -> "federated
    learning with differential privacy", as "federated learning with differential privacy" itself
    reads. Without a conjoining word (or with ``words`` false, a mark only), or without two
    conjuncts, ``topic`` is returned unchanged."""
    pieces = _COMBINATION_MARK.split(topic)
    if len(pieces) > 1 and all(content_terms(p) for p in pieces):
        return " with ".join(p.strip() for p in pieces)  # "fl + dp": "fl with dp"
    m = _CONJOINING.match(topic) if words else None
    if not m:
        return topic
    rest = topic[m.end() :]
    link = _CONJOINED_LINK.search(rest)
    if not link or not content_terms(rest[: link.start()]) or not content_terms(rest[link.end() :]):
        return topic
    return f"{rest[: link.start()].rstrip()} with {rest[link.end() :].lstrip()}"


_HOST_PRODUCT = re.compile(
    rf"\b(?i:{CODE_HOST.source})\s+(?!(?i:{LINK_NOUN.source}|{LINK_WORD.source}))[A-Z][a-z]\w*"
)
"""A code host's name before a capitalised word names a product ("GitHub Copilot", "GitHub
Actions"), not a link to a paper's code ("a GitHub link", "GitHub Repo")."""


def without_code_topics(text: str) -> str:
    """``text`` without "code" as a modifier (:data:`rag.text.CODE_COMPOUND`: "code generation") and
    without a code host's products (:data:`_HOST_PRODUCT`: "GitHub Copilot"): topics, not links."""
    return _HOST_PRODUCT.sub(" ", CODE_COMPOUND.sub(" ", text))


def _bare_topic(body: str, names: Callable[[str], Iterable[str]] | None = None) -> bool:
    """Whether ``body`` is a topic and no description of one paper: one clause (no ``,;:()`` and no
    :data:`CLAUSE_OPENER` word) of at most :data:`BARE_TOPIC_TERMS` terms.

    A term is a content term, or a name of several words the collection knows in two forms, which
    ``names`` gives for ``body`` (the long forms it states, :meth:`rag.acronyms.Senses.names_in`):
    "graph neural networks" counts once, as "GNNs" does, so "work on the oversmoothing problem of
    graph neural networks" is the bare topic "work on oversmoothing in GNNs" is (3 terms, not 5),
    and "work on diffusion models as planners for offline reinforcement learning" asks for the set
    its shorthand "diffusion planning for offline RL" asks for."""
    if any(c in body for c in ",;:()") or CLAUSE_OPENER.search(body):
        return False
    return 0 < topic_terms(body, names) <= BARE_TOPIC_TERMS


def topic_terms(body: str, names: Callable[[str], Iterable[str]] | None = None) -> int:
    """How many terms ``body`` states (:func:`_bare_topic`): its distinct content terms (by lemma), a long form
    of a known name (``names(body)``, each stated in ``body``) counted as one term, >= 0."""
    terms = {lemma(t) for t in content_terms(body)}
    count = len(terms)
    for long in dict.fromkeys(names(body) if names is not None else ()):
        words = {lemma(t) for t in content_terms(long)}
        if len(words) > 1 and words <= terms:
            count -= len(words) - 1
            terms -= words
    return count


def _plural_noun(token: str) -> bool:
    """Whether ``token`` is a plural noun form: its dictionary form plus "s"/"es" ("methods",
    "approaches", "LLMs"); the noun stays in the topic (it may be the topic's own word)."""
    w = token.lower()
    base = lemma(w)
    return w.endswith("s") and w != base and w in (base + "s", base + "es")


def _frame_form(word: str) -> str:
    """The frame word ``word`` (lower case) is, typed right or mistyped ("whcih" -> "which"); ``""`` if none."""
    return word if word in FRAME_WORDS else _typo_of(word, _LONG_FRAME_WORDS)


_TOKEN = re.compile(r"[\w'’;-]+|[^\w\s]")


def framed_reference(ref: str) -> bool:
    """Whether a reference asks for a paper by a frame around what it describes ("the AlphaFold
    paper", "the paper on magnitude pruning", "the ride-hailing one"), not for the thing itself ("the
    Gaussian mechanism", "magnitude pruning", "Adam"): :func:`split_frame` peels words other than
    an article."""
    peeled = split_frame(ref)[0]
    kept = [t for t in _TOKEN.findall(ref) if t.lower() not in ("the", "a", "an")]
    return len(_TOKEN.findall(peeled)) < len(kept)


def split_frame(
    query: str, plural_heads: bool = True, names: Callable[[str], Iterable[str]] | None = None
) -> tuple[str, Number]:
    """The topic of a question and the number of papers its frame asks for.

    The frame is peeled off by vocabulary: the longest run of :data:`FRAME_WORDS` at the start
    (then one relating verb or preposition, :data:`RELATING`), the longest run at the end, and
    set nouns right after the topic ("knowledge distillation papers (big model -> small student)").

    Examples:
        "Which papers work on speech or audio?" -> ("speech or audio", "many");
        "I'm looking for work on dataset distillation", "work that uses RL" -> (..., "many");
        "I'm looking for work that proves a lower bound on how many samples RL needs" -> (..., "open");
        "do we have anything on speech synthesis", "any work on X" -> (..., "many");
        "alphafold protein folding papers" -> ("alphafold protein folding", "many");
        "Which paper distills image-text data?" -> ("distills image-text data", "one").

    A plural noun right after "which", "for", "any", "all" or "some" is the head of the request and
    asks for several papers ("Which methods fine-tune ...", "I'm looking for approaches that ...")
    unless ``plural_heads`` is off (a question naming or referring to papers: "which performs best
    among X, Y and Z?" has a verb there, "which datasets does this paper use?" asks of one paper).

    ``names``: the long forms of the known names a text states, each counted as one term when a
    mass noun's topic is judged bare (:func:`_bare_topic`); without it every word is a term.

    Returns:
        ``(topic, number)``; the topic is the query itself when nothing would be left.
    """
    # "What work in the library models ...": where the papers are is never the topic
    text = re.sub(r"\s+(?=[,;:.?!])", "", " ".join(_IN_COLLECTION.sub(" ", query).split()))
    toks = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    number: Number = "open"
    saw_which = False
    mass = False  # "work" as research in general ("looking for work on X"), not a verb ("papers work on")

    def frame_word(tok: str) -> bool:
        t = tok.lower().replace("’", "'")
        return bool(_frame_form(t) or _is_set_noun(t)) or (not t[0].isalnum() and t not in "(\"'“")

    i = 0
    while i < len(toks) and frame_word(toks[i][0]):
        t = toks[i][0].lower()
        t = _frame_form(t) or t
        kind = _is_set_noun(t)
        if t in _VERB_NOUNS and i and (_is_set_noun(toks[i - 1][0]) or toks[i - 1][0].lower() in _PAPER_HEAD):
            break  # "which paper studies ride-hailing": the verb, not a set of papers
        if (kind or t in _MASS_SET_NOUNS) and i and toks[i - 1][0].lower() in _VERB_SUBJECTS:
            break  # "does it work with quantization?": the verb of the paper discussed, not a set of papers
        how_many = t == "many" and i and toks[i - 1][0].lower() == "how"
        # a quantifier over a mass noun asks for the set: "any work on X", "anything on X"
        quantified = t == "anything" or (t == "work" and i and toks[i - 1][0].lower() in _QUANTIFIERS)
        if kind == "many" or t in ("list", "everything", "all", "every") or how_many or quantified:
            number = "many"
        elif kind == "one" and saw_which and number != "many":
            number = "one"
        saw_which = saw_which or t in _PICKING_WH
        # "work" as research in general: not the verb after a paper noun ("papers work on"), nor
        # one work picked by "which" / "what" ("Which work in my library studies X?")
        prev = toks[i - 1][0].lower() if i else ""
        picked = _is_set_noun(prev) or prev in _PAPER_HEAD or prev in _PICKING_WH
        mass = mass or (t in _MASS_SET_NOUNS and not picked)
        i += 1
    head = toks[i][0] if plural_heads and 0 < i < len(toks) else ""
    if head and number == "open" and _frame_form(toks[i - 1][0].lower()) in _HEAD_DETERMINERS and _plural_noun(head):
        number = "many"
    # "how many papers ..." stays many; "how many tokens does X save" is about a quantity, not papers.
    if number == "many" and any(tok[0].lower() == "many" for tok in toks[:i]) and not any(
        _is_set_noun(tok[0]) == "many" for tok in toks[:i]
    ):
        number = "open"
    start = toks[i][1] if i < len(toks) else len(text)
    j = len(toks)
    tail_mass = False
    while j > i:
        if j - 2 >= i and _TRAILING_REFERENCE.fullmatch(f"{toks[j - 2][0]} {toks[j - 1][0]}"):
            j -= 2  # "... - is there a paper on it?": "on it" points back at the topic
            continue
        if not frame_word(toks[j - 1][0]):
            break
        if toks[j - 1][0].lower() in _NOT_FINAL and j - 2 >= i and not frame_word(toks[j - 2][0]):
            break  # "... neural architecture search?": after a word of the topic, its noun, not a request
        if _is_set_noun(toks[j - 1][0]) == "many":
            number = "many"
        # "any sim2real work?", "GNN oversmoothing work": the mass noun after the topic, with no
        # frame before it but a quantifier, asks what "any work on X" does (not "the grokking work")
        tail_mass = tail_mass or (
            toks[j - 1][0].lower() in _MASS_SET_NOUNS
            and all(t.lower() in _QUANTIFIERS or not t[0].isalnum() for t, _, _ in toks[:i])
        )
        j -= 1
    end = toks[j - 1][2] if j > i else start
    if j > i and text[start:end].count("(") > text[start:end].count(")"):
        end = text.find(")", end) + 1 or end  # "papers on X (A, B)": the parenthesis closes the topic
    body = text[start:end]
    if number != "one":
        # "which papers combine X with Y", "papers on both X and Y", "X + Y papers": X with Y, two
        # parts of one topic (a conjoining word only after a frame, as a relating verb)
        body = conjoined(body, words=i > 0)
    if i > 0:  # a relating verb only after a frame: "Which papers use RL" -> "RL"; "Attack speech" stays
        rest = _ASPECT_IS.sub("", RELATING.sub("", _METHOD_RELATIVE.sub("", body, count=1), count=1), count=1)
        body = rest if content_terms(rest) else body
    central = _CENTRAL_TAIL.sub("", body.rstrip(" ?.!"), count=1)
    if central != body.rstrip(" ?.!"):
        central = _CENTRAL_LEAD.sub("", central, count=1)
        body = central if content_terms(central) else body
    words = body.split()

    def interior(w: str) -> bool:
        w = w.strip("?.,;:!()").lower()
        return w in _ALWAYS_FRAME or (len(w) >= 5 and _is_set_noun(w) == "many" and w not in SET_NOUNS)

    kept: list[str] = []
    for w in words:
        if not interior(w):
            kept.append(w)
        elif kept and w.endswith(":"):
            # "audio security papers: adversarial attacks on ASR, spoofing": the frame word goes,
            # the colon that opens the list of what the papers are on stays
            kept[-1] = kept[-1].rstrip(":") + ":"
    if len(kept) < len(words):
        number = "many"
    body = " ".join(kept).strip(" ,;:-–—")
    if number == "open" and (mass or tail_mass) and _bare_topic(body, names):
        number = "many"  # "I'm looking for work on dataset distillation" asks what "any work on" does
    return (body if content_terms(body) else query.strip(" ?.!")), number


_PAPER_HEAD = _VOCABULARY["paper_head"].words
_PREDICATE_SUBJECT = _VOCABULARY["predicate_subject"].words
_NOT_FINAL = _VOCABULARY["frame_not_final"].words


def _trailing_frame_names_paper(tokens: list[str]) -> bool:
    """Whether lower-cased ``tokens`` end in a frame naming the paper asked for, set off from the
    topic before it by punctuation: "crop yield prediction - is there a paper on it?"."""
    j = len(tokens)
    while j and not tokens[j - 1][0].isalnum():
        j -= 1  # "?"
    if j > 2 and _TRAILING_REFERENCE.fullmatch(f"{tokens[j - 2]} {tokens[j - 1]}"):
        j -= 2
    frame = []
    while j and tokens[j - 1][0].isalnum() and (_frame_form(tokens[j - 1]) or _is_set_noun(tokens[j - 1])):
        frame.append(tokens[j - 1])
        j -= 1
    set_off = 0 < j < len(tokens) and not tokens[j - 1][0].isalnum() and any(t[0].isalnum() for t in tokens[: j - 1])
    return set_off and any(t in _PAPER_HEAD for t in frame)


_USING = _VOCABULARY["using_relation"]


def uses_as_topic(query: str, name: str) -> bool:
    """Whether ``query`` asks for several papers (:func:`split_frame`) whose whole topic is
    ``name``, related by a verb that says the papers use or build on it (vocabulary
    ``using_relation``): "Which papers use data2vec?", "papers building on CLIP". Such a question
    asks for every paper that states the name, its own paper among them; "Which papers propose
    data2vec?" and "Summarize data2vec" ask for that paper."""
    topic, number = split_frame(query)
    if number != "many":
        return False
    key = name.casefold()
    for m in _USING.finditer(query):
        rest = query[m.end() :].strip(" ?.!").casefold()
        # the name right after the verb, and all the topic is (the verb with it when the frame
        # keeps it: "compare against ProAct-75")
        if rest == key and topic.strip(" ?.!").casefold() in (key, query[m.start() :].strip(" ?.!").casefold()):
            return True
    return False


def asks_for_paper(query: str) -> bool:
    """Whether the frame at the start of ``query`` names the paper asked for ("which paper ...",
    "is there work on ...", "any study that ..."; :data:`FRAME_WORDS` then a ``paper_head`` noun):
    the rest describes that paper, so a pronoun in it may be the paper's own ("which paper detects
    audio deepfakes and tests its robustness?"). False for "what dataset does it use?" and for a
    definite description of a paper already discussed ("does the method quantize the cache?")
    unless a relative clause or preposition describes it ("the paper that ...", "the method for ...").
    A frame after the topic, set off by a colon, dash or comma, names it as well ("GNN inference over
    encrypted graphs: is there a paper on that?", which :func:`split_frame` peels off the end); "what
    does it add over the previous paper?" has no such frame."""
    tokens = [m.group(0).lower().replace("’", "'") for m in _TOKEN.finditer(query.strip())]
    if _trailing_frame_names_paper(tokens):
        return True
    for i, t in enumerate(tokens):
        if t in _PAPER_HEAD and i and tokens[i - 1] in _VERB_SUBJECTS:
            return False  # "does it work with quantization?": the verb of the paper discussed
        if t in _PAPER_HEAD:
            # "does the method quantize the cache?" refers to a paper already discussed; "which is
            # the method that ...", "the paper on X" describe the one asked for
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            definite = i > 0 and bool(_DEFINITE_WORD.fullmatch(tokens[i - 1]))
            return not definite or bool(_DESCRIBING.fullmatch(after)) or not content_terms(after)
        if not (_frame_form(t) or _is_set_noun(t)):
            return False
    return False


def split_exclusion(topic: str) -> tuple[str, str]:
    """A topic and what it excludes: "RL for reasoning, outside of agent settings" ->
    ("RL for reasoning", "agent settings"); ``(topic, "")`` when nothing is excluded."""
    m = _EXCLUSION.search(topic)
    if not m or not [t for t in content_terms(m.group("x")) if t not in _GENERIC]:
        return topic, ""
    kept = re.sub(r"\s+", " ", topic[: m.start()] + " " + topic[m.end() :]).strip(" ,;(")
    kept = re.sub(r"\s*,?\s*\bi\.e\.?\s*$", "", kept).strip(" ,;")
    kept = re.sub(rf"\s+{_V['exclusion_joiner']}$", "", kept)  # "reinforcement learning but [not ...]"
    # "not in agent settings": what is excluded is "agent settings" (vocabulary excluded_lead)
    excluded = re.sub(rf"^{_V['excluded_lead']}\s+", "", m.group("x").strip(), flags=re.I)
    return (kept, excluded) if content_terms(kept) else (topic, "")


def exclusion_span(text: str) -> tuple[int, int] | None:
    """Offsets ``(start, end)`` into ``text`` of what it excludes, the excluding words with it
    ("Which papers detect machine-generated text, other than DetectGPT?" -> the span of ", other than
    DetectGPT"), as :func:`split_exclusion` reads it; ``None`` when nothing is excluded. A paper named
    there is left out of the answer, not asked about."""
    m = _EXCLUSION.search(text)
    if not m or not [t for t in content_terms(m.group("x")) if t not in _GENERIC]:
        return None
    return m.start(), m.end()


def excluded_terms(excluded: str) -> str:
    """The words of an excluded phrase that say what is excluded: "agent settings" -> "agent"."""
    return " ".join(t for t in content_terms(excluded) if t not in _GENERIC)


def without_generic(term: str) -> str:
    """A term without the generic nouns that end it (:data:`_GENERIC`): "edge-of-stability regime"
    -> "edge-of-stability", "the bandit setting" -> "the bandit"; the term unchanged when nothing
    else is left ("settings") or it ends otherwise."""
    words = term.split()
    while len(words) > 1 and words[-1].lower() in _GENERIC:
        words.pop()
    kept = " ".join(words)
    return kept if content_terms(kept) else term


NAMED_TERM_WORDS = 3
"""Most words of a bare term (:func:`named_terms`): the subjects the library questions name run to
three ("sharpness-aware minimization", "generative flow networks", "computational antibody
design"); a longer phrase describes rather than names. Set by reading."""


def predicate(topic: str, query: str) -> str:
    """The verb ``topic`` begins with when it is the predicate of the papers asked for: the word
    before the topic in ``query`` names them or is a relative pronoun (vocabulary
    ``predicate_subject``): "Which papers detect out-of-distribution inputs?" -> "detect",
    "work that proves a lower bound" -> "proves"; "" for a topic after a relating word ("papers on
    OOD detection", "which papers use RL"), before its set noun ("OOD detection papers"), or not
    found in ``query`` as written (a typing error corrected)."""
    at = query.lower().find(topic.lower()) if topic else -1
    before = re.findall(r"[\w'-]+", query[:at]) if at > 0 else []
    words = topic.split()
    return words[0] if before and before[-1].lower() in _PREDICATE_SUBJECT and len(words) > 1 else ""


def named_terms(phrases: Iterable[str], verb: str = "") -> tuple[str, ...]:
    """The phrases that are bare terms: 1 to :data:`NAMED_TERM_WORDS` words, every one a content
    word, a generic noun at the end dropped (:func:`without_generic`): ("symbolic regression",
    "the text they generate", "edge-of-stability regime") -> ("symbolic regression",
    "edge-of-stability"). A term names a subject; a paper whose title states it is about it.

    A phrase that begins with ``verb``, the topic's predicate (:func:`predicate`: "detect
    out-of-distribution inputs", "quantize neural networks"), says what the papers do, in the
    question's words: no term. The papers state it in words of their own ("out-of-distribution
    detection", "post-training quantization"), and held to the phrase they were put out of the
    list as mentioning another sense of its words (:meth:`rag.route.membership.Membership.other_sense`)."""
    out: list[str] = []
    for phrase in phrases:
        term = without_generic(phrase.strip(" .,;:"))
        words = term.split()
        if verb and words and words[0].lower() == verb.lower():
            continue
        if 0 < len(words) <= NAMED_TERM_WORDS and all(content_terms(w) for w in words):
            out.append(term)
    return tuple(dict.fromkeys(out))


def facets(topic: str) -> tuple[str, ...]:
    """The alternatives a topic lists: "speech or audio" -> ``("speech", "audio")``.

    Split at commas, semicolons, slashes, "or", "such as", "e.g.", "for example", "including",
    a colon that introduces a list and a dash that opens a restatement (:data:`RESTATING_DASH`);
    parts without a content term are dropped; ``()`` when there is one part. A parenthesis lists
    examples or short forms of the phrase before it: "foundation models (LVLMs, MLLMs) as the
    backbone" -> the phrase without it, "LVLMs", "MLLMs". A one-word alternative beside a longer
    one shares the longer one's words (coordination ellipsis: "estimate or quantify uncertainty"
    -> "estimate uncertainty", "quantify uncertainty"); a hyphenated word is a term of its own.
    """
    # "image-and-text models (LVLMs, MLLMs) as the backbone": a parenthesis lists examples or short
    # forms of the phrase before it; the phrase (without it) and each item are alternatives.
    inner = [m.group(1) for m in _PARENTHESIS.finditer(topic)]
    if inner:
        head = re.sub(r"\s+", " ", _PARENTHESIS.sub(" ", topic)).strip()
        lists = [re.sub(r"\betc\b\.?", " ", i) for i in inner]  # "(A, B, etc.)"
        items = [x.strip(" .-") for i in lists for x in (facets(i) or _FACET_SPLIT.split(i)) if x and content_terms(x)]
        found = tuple(dict.fromkeys([*(facets(head) or (head,) if content_terms(head) else ()), *items]))
        return found if len(found) > 1 else ()
    # a piece after a bare comma or semicolon is an item of a list ("A, B, C or D")
    cuts = [(m.start(), m.end(), m.group(0).strip() in ",;") for m in _FACET_SPLIT.finditer(topic)]
    starts = [(0, False)] + [(end, comma) for _, end, comma in cuts]
    stops = [start for start, _, _ in cuts] + [len(topic)]
    bounds = [(a, b, listed) for (a, listed), b in zip(starts, stops, strict=True)]
    parts = [c for a, b, listed in bounds for c in _coordinated(topic[a:b], listed)]
    return tuple(parts) if len(parts) > 1 else ()


def alternatives(text: str) -> list[str]:
    """``text`` cut at each word of ``alternative_word`` ("or"): "design molecules or biological
    sequences" -> ``["design molecules", "biological sequences"]``; one piece when it has none."""
    return [p.strip() for p in _ALTERNATIVE.split(text) if p.strip()]


def before_dash(text: str) -> str:
    """``text`` up to its first spaced dash, which sets off a restatement or a gloss as a clause mark
    does: "federated learning - keeping each device's data local" -> "federated learning"."""
    return _SPACED_DASH.split(text, maxsplit=1)[0]


_SPACED_DASH = re.compile(r"\s[-–—]+\s")


def _coordinated(piece: str, listed: bool = False) -> list[str]:
    """The alternatives of one piece of a topic joined by "or", each with the words they share.

    Two alternatives share the words around them (coordination): "crop yield prediction from
    weather or satellite data" -> "crop yield prediction from weather data", "crop yield
    prediction from satellite data". The coordinated words are the run of content words before
    "or" (after the last function word) and the run after it (before the first function word);
    the words before the first run and after the second belong to both. A one-word alternative
    beside a longer run shares that run's other words: "estimate or quantify uncertainty" ->
    "estimate uncertainty", "an uncertainty or confidence estimate" -> "an uncertainty estimate"
    (only as the first word of a phrase, or after a ``determiner``: "agents from overthinking or
    carrying redundant context" keeps "overthinking"); "cutting unnecessary thinking or context" ->
    "cutting unnecessary context". A hyphenated word is a term of its own ("text-to-speech or speech synthesis"), and a
    plural one a whole noun phrase ("GANs or diffusion models"). Parts without a content term are
    dropped; three or more alternatives are split as they stand, and so are the last two items of
    a list ("proofs, formal bounds, convergence analyses or guarantees": ``listed``).
    """
    parts = [p.strip(" .()-") for p in _ALTERNATIVE.split(piece)]
    parts = [p for p in parts if p and content_terms(p)]
    if len(parts) != 2:
        return parts
    left, right = parts[0].split(), parts[1].split()
    start = max((i + 1 for i, w in enumerate(left) if not content_terms(w)), default=0)
    end = next((i for i, w in enumerate(right) if not content_terms(w)), len(right))
    before, x, y, after = left[:start], left[start:], right[:end], right[end:]
    if not x or not y or listed:
        return parts
    opens = not before or bool(_DETERMINER.fullmatch(before[-1]))
    if len(x) == 1 and opens and len(y) >= 2 and "-" not in x[0] and not _plural(x[0]):
        x = [*x, *y[1:]]
    elif len(y) == 1 and len(x) >= 2 and "-" not in y[0]:
        y = [*x[:-1], *y]
    return [" ".join([*before, *x, *after]), " ".join([*before, *y, *after])]


def own_noun(word: str) -> bool:
    """Whether a definite description's word names the paper just discussed or its contribution
    ("the model", "the method"; ``own_noun``), whatever the abstract calls it."""
    return bool(_OWN_NOUN.fullmatch(word))


def definite_words(text: str) -> list[str]:
    """The first content word of each definite description of a message (after "the",
    ``definite_article``): "is the adversary itself strong at Go?" -> ``["adversary"]``; "how does
    the curvature criterion work?" -> ``["curvature"]``; "what is the best model for X?" ->
    ``["best"]``; ``[]`` when none."""
    out = []
    for m in _DEFINITE.finditer(text):
        w = m.group(1).split()[0]
        if content_terms(w) or own_noun(w):
            out.append(w)
    return out


def _plural(word: str) -> bool:
    """A plural noun ("GANs", "transformers"): it names a whole thing, not a modifier."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def strip_injection(text: str) -> tuple[str, bool]:
    """Drop sentences addressed to the assistant; "ignore the rules: which paper ...?" keeps its question."""
    parts = re.split(r"(?<=[.!?\n])\s+", text.strip())
    kept, had = [], False
    for p in parts:
        if not _INJECTION.search(p):
            kept.append(p)
            continue
        had = True
        tail = p.rsplit(":", 1)[1].strip() if ":" in p else ""
        if tail and not _INJECTION.search(tail) and _QUESTION_START.match(tail):
            kept.append(tail)
    return " ".join(kept).strip(), had


# What people say to a chat assistant that asks nothing of the papers: greetings, thanks,
# acknowledgements, farewells, asking what the assistant is, and the fillers around them.
_SOCIAL_PHRASE = rf"(?:{_V['social']}|\bhmm+\b)"
_SOCIAL = re.compile(rf"(?:[\W_]*{_SOCIAL_PHRASE})+[\W_]*", re.I)


_SOCIAL_LEAD = re.compile(rf"^(?:[\W_]*{_SOCIAL_PHRASE})+\s*[,.!;:—–]+\s*(?=\w)", re.I)
_SOCIAL_TAIL = re.compile(rf"(?<=[?.!,;])(?:[\W_]*{_SOCIAL_PHRASE})+[\W_]*$", re.I)


def strip_social(text: str) -> str:
    """``text`` without greetings, thanks or acknowledgements before or after what it asks, set
    off by punctuation ("hi, which papers use RL?", "thanks! now summarize DANCE", "ok, who wrote
    it?", "who wrote it? thanks"); words run into the question ("fine-tuning", "help me find") stay."""
    lead = _SOCIAL_LEAD.match(text[:200])
    out = text[lead.end() :] if lead else text
    cut = len(out) - 200 if len(out) > 200 else 0
    tail = _SOCIAL_TAIL.search(out[cut:])
    if tail and out[: cut + tail.start()].strip():
        out = out[: cut + tail.start()]
    return out.strip() if out.strip() else text


def social(text: str) -> bool:
    """Whether a message asks nothing of the papers: only greetings, thanks, acknowledgements,
    farewells or "what can you do" ("hello!", "hi there", "thanks a lot :)", "ok", "cool, got
    it", "good morning, paperchat"). A message with any other word ("hi, which papers use RL?",
    "thanks, now summarize DANCE") is a question."""
    short = len(text) <= 200  # a greeting is short; the pattern is not run on long text
    return short and bool(re.search(r"[^\W\d_]", text)) and bool(_SOCIAL.fullmatch(text.strip()))


def trim(text: str, limit: int) -> tuple[str, bool]:
    """At most ``limit`` characters, cut at the last sentence end (or space) before it."""
    if len(text) <= limit:
        return text, False
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("? "), cut.rfind("! "))
    if end < limit // 2:
        end = cut.rfind(" ")
    return cut[: end + 1 if end > 0 else limit].strip(), True


_MESSAGE_SENTENCE = re.compile(r"[^.?!\n]+(?:[.?!]+|\n|$)")


def opens_question(text: str) -> bool:
    """Whether ``text`` opens with a word that opens a question or request (``question_start``:
    "which", "how", "exactly how many", "compare"): a message that does is no bare topic."""
    return bool(_QUESTION_START.match(text.strip()))


def asks(sentence: str) -> bool:
    """Whether a sentence of a message asks something: it ends with "?" or opens with a word that
    opens a question or request (``question_start``: "which", "how", "compare", "list", ...)."""
    s = sentence.strip()
    return s.endswith("?") or bool(_QUESTION_START.match(s))


def keep_asking(text: str, limit: int) -> tuple[str, str]:
    """A message of at most ``limit`` characters that keeps the sentences that ask (:func:`asks`).

    A question pasted after a long context ("Here is our setup: ... Which paper ...?") keeps its
    question: the sentences that ask, from the last back while they fit, in the message's order;
    the context is dropped (read with it, "Which paper ..." would no longer open the question). A
    message with no sentence that asks keeps its first part (:func:`trim`).

    Args:
        text: The message (normalised).
        limit: Most characters kept (> 0).

    Returns:
        ``(kept, notice)``: the text itself and ``""`` when it fits; else what is kept and a
        sentence saying what was dropped (how many sentences and characters, and how the dropped
        part starts).
    """
    if len(text) <= limit:
        return text, ""
    parts = [m.group(0).strip() for m in _MESSAGE_SENTENCE.finditer(text)]
    parts = [p for p in parts if p]
    asking = [i for i, p in enumerate(parts) if asks(p)]
    size = f"The message is {len(text):,} characters long (the limit is {limit:,})"
    if not asking:
        cut, _ = trim(text, limit)
        return cut, f"{size}: no sentence of it asks, so only its first {len(cut):,} characters were read."
    kept: set[int] = set()
    room = limit
    for i in reversed(asking):
        if len(parts[i]) + 1 <= room:
            kept.add(i)
            room -= len(parts[i]) + 1
    if not kept:  # one question longer than the limit: its first part
        cut, _ = trim(parts[asking[-1]], limit)
        return cut, f"{size}: its last question alone is longer; only its first {len(cut):,} characters were read."
    dropped = [parts[i] for i in range(len(parts)) if i not in kept]
    if not dropped:  # every sentence asks and fits once white space is collapsed
        return " ".join(parts), ""
    chars = sum(len(p) for p in dropped)
    asked = len(kept)
    start = dropped[0][:60].rstrip() + ("…" if len(dropped[0]) > 60 else "")
    notice = (
        f"{size}: kept the {asked} sentence{'s that ask' if asked != 1 else ' that asks'}; dropped {len(dropped)} "
        f"sentence{'s' if len(dropped) != 1 else ''} ({chars:,} characters), from “{start}”."
    )
    return " ".join(parts[i] for i in sorted(kept)), notice


# --- the form of the answer asked for ------------------------------------------------------

# "How <word>" asks for an amount: "how many datasets", "how much faster", "how large a gain".
_HOW_AMOUNT = _VOCABULARY["how_amount"].words
# ... unless a verb reporting a finding opens it: "a study showing how many labelled examples are
# needed" describes the paper by its finding, and asks no amount of it
_FINDING_VERB = _VOCABULARY["finding_verb"].words
# Nouns that name a measured amount: "what accuracy", "which speedup", "what is the reduction".
MEASURE_NOUNS = _VOCABULARY["measure_noun"].words
# Words between "what"/"which" and the noun it asks about ("what is the", "what final").
_WH_FILLER = _VOCABULARY["wh_filler"].words
WORD = re.compile(r"[\w@'’-]+")
"""A word of a question, with "@", apostrophes and hyphens ("ir@1", "what's", "multi-modal")."""


def asks_quantity(query: str, number: Number) -> bool:
    """Whether a question asks for an amount, not for papers: "how many/much/large ..." not
    followed by a set noun ("how many TAG datasets", "by how much"), or "what"/"which" whose noun
    names a measure ("what accuracy gain", "what is the storage reduction", "which speedup").
    A question asking for papers (``number == "many"``) asks for a list, not an amount, and "how
    much" before an infinitive ("How does CogRouter decide how much to think at each step?") asks
    how a paper decides an amount, not for one. Nor does a "how many/much" that a verb reporting a
    finding opens (vocabulary ``finding_verb``, also before "by how much"): "I remember a study
    showing how many labelled examples are needed", "the paper that found how much
    over-parametrization suffices" describe a paper by what it found (:func:`reported_amount`).
    """
    if number == "many":
        return False
    words = [w.lower() for w in WORD.findall(query)]
    for i, w in enumerate(words):
        nxt = words[i + 1 : i + 3]
        papers = nxt[:1] == ["many"] and len(nxt) > 1 and _is_set_noun(nxt[1]) == "many"  # "how many papers"
        if w == "how" and nxt and nxt[0] in _HOW_AMOUNT and not papers and nxt[1:] != ["to"]:
            if reported_amount(words, i):
                continue
            return True
        if w in _WH_AMOUNT:
            j = i + 1
            while j < len(words) and words[j] in _WH_FILLER:
                j += 1
            # the last measure noun of the phrase ("what top-1 validation <accuracy>") unless it only
            # modifies the thing asked ("what <reward> function")
            at = max((k for k in range(j, min(j + 3, len(words))) if words[k] in MEASURE_NOUNS), default=None)
            if at is not None and not any(_is_set_noun(x) for x in words[j : j + 1]) \
                    and not _modifies_thing(query, words, at):
                return True
    return False


_MEASURE_TAIL = _VOCABULARY["measure_tail"].words


def _modifies_thing(query: str, words: Sequence[str], at: int) -> bool:
    """Whether the measure noun ``words[at]`` (``words``: :data:`WORD` of ``query``, lower-cased)
    modifies the noun right after it, the head of the phrase asked: "what reward function does
    ReAugment use?" asks a function (answered by "a model zoo-guided reward function"), not an
    amount of reward. A measure noun after it ("what accuracy gain", "what error rate"), a word that
    keeps its amount (vocabulary ``measure_tail``: "what sparsity level"), a word that is no content
    noun ("what reward does ..."), a name ("the top-1 accuracy FOAM gets"), or one past anything
    but a space ("the speed-up $\\frac...") does not."""
    if at + 1 >= len(words):
        return False
    spans = [m.span() for m in WORD.finditer(query)]
    nxt = words[at + 1]
    return (
        query[spans[at][1] : spans[at + 1][0]] == " " and query[spans[at + 1][0]].islower()
        and nxt.isalpha() and nxt not in MEASURE_NOUNS and nxt not in _MEASURE_TAIL
        and bool(content_terms(nxt)) and english_word(nxt)
    )


def reported_amount(words: Sequence[str], i: int) -> bool:
    """Whether the "how" at ``words[i]`` (lower-case words of a question) opens an amount a study
    reports, not one asked: a verb of ``finding_verb`` ("showing", "found", "measures") stands
    right before it, or before "by" ("quantifies by how much")."""
    before = words[i - 2] if i >= 2 and words[i - 1] == "by" else words[i - 1] if i >= 1 else ""
    return before in _FINDING_VERB


_FRAME = _VOCABULARY["question_frame"].words
_COUNT_MARK = _VOCABULARY["count_mark"]
_SETTING_PREP = _VOCABULARY["setting_prep"].words
UNIT_ASIDE = re.compile(r"\s*\([^()]{1,12}\)")
"""A unit written in brackets after a measure ("latency (ms)", "accuracy (%)"): no word of the measure."""
UNIT_ASKED = _VOCABULARY["unit_asked"]
"""A unit an amount is asked in ("in tokens", "in hours of speech", "measured in GB"): no word of
the measure either (:func:`rag.question.slots.unit_asked`)."""
UNIT_WORDS = _VOCABULARY["unit_word"].words
"""The units of :data:`UNIT_ASKED` (lower case)."""


def without_unit(text: str) -> str:
    """``text`` without the unit it asks an amount in (:data:`UNIT_ASIDE`, :data:`UNIT_ASKED`)."""
    return UNIT_ASKED.sub("", UNIT_ASIDE.sub("", text))
SHORTHAND_MAX_WORDS = 5
"""Most words besides the names in a measure asked in shorthand ("DexMachina real robot success
rate?" has four): set by reading, not fitted; a longer phrase without a question frame is a topic."""


def shorthand_words(query: str, names: Iterable[str]) -> list[str]:
    """The words of a question asked in shorthand besides its names: a name (or a paper's
    description) and a short phrase with no question frame ("DDL Dice?", "SoT-26K train/test
    split?", "ME-DLM tokenizer", "the green tokens watermark paper: false positive rate?"), lower case;
    ``[]`` for a question with a frame (vocabulary ``question_frame``: a question word, an
    auxiliary, a verb of a request), with no name, or with more than :data:`SHORTHAND_MAX_WORDS`
    other words (a topic). A unit in brackets ("latency (ms)") is no word of it."""
    named = {w.lower() for n in names for w in WORD.findall(n)}
    if not named:
        return []
    text = without_unit(query).strip(" ?.!,")
    words = [w.lower() for w in WORD.findall(text)]
    rest = [w for w in words if w not in named]
    # a frame word of the name's own ("paper" of "the green tokens watermark paper: FPR?") frames nothing
    if not words or set(rest) & _FRAME:
        return []
    return rest if len(rest) <= SHORTHAND_MAX_WORDS else []


def asks_in_shorthand(query: str, names: Iterable[str]) -> bool:
    """Whether a question asks a measure of a named thing in shorthand (:func:`shorthand_words`):
    a name and a noun phrase whose head names a measure ("DDL Dice?", "RAST-MoE train time",
    "SENDAI latency (ms)?"), alone or before the setting it is asked on (vocabulary
    ``setting_prep``: "STEP accuracy on CIFAR?"), or a count mark before a unit ("L2M num GPUs",
    "ProAct-75 # annotators").

    Read as "what is <name>'s <phrase>?": the slot is the phrase (:func:`rag.question.slots.measure_slot`),
    and an abstract that does not state it is said not to. A phrase whose last word names no
    measure ("DANCE federated graph learning", "ME-DLM tokenizer") asks no amount: it may ask a
    thing of the paper (:func:`rag.question.slots.entity_slot`).
    """
    rest = shorthand_words(query, names)
    if not rest:
        return False
    text = without_unit(query).strip(" ?.!,")
    # a mark of its own ("# annotators"), not the end of a name ("C#")
    marked = any(m.start() == 0 or text[m.start() - 1].isspace() for m in _COUNT_MARK.finditer(text))
    # "STEP accuracy on CIFAR?": the measure before the setting it is asked on
    head = next((rest[k - 1] for k, w in enumerate(rest) if k and w in _SETTING_PREP), rest[-1])
    return marked or rest[-1] in MEASURE_NOUNS or head in MEASURE_NOUNS


# Nouns that name the whole collection, and words that only say it holds papers or show them.
_COLLECTION_NOUNS = _VOCABULARY["collection_noun"].words
_HOLDING = _VOCABULARY["holding"].words
_OTHER_WH = _VOCABULARY["other_wh"].words

def asks_collection(query: str, filtered: bool = False) -> Literal["", "count", "list"]:
    """Whether a question asks for the collection's papers themselves, with no topic: ``count`` for
    "how many papers are there?", ``list`` for "what papers are in the collection?", "list all
    papers", "show me everything", "which papers were published?" (a year filter read off: "in
    2026"); ``""`` when any other content word is left ("which papers have code?", "how many papers
    use RL?"). The question must name papers or the collection (a plural set noun, "corpus",
    "library") and ask what or how many (not when, who, where or why: a detail of the papers).

    ``filtered``: the question states a filter (read off ``query``): a singular set noun then names
    the filter's papers too ("which paper was published in 2024?" asks for the papers of 2024, and
    none is an answer, not a question without content)."""
    words = [w.lower() for w in WORD.findall(query)]
    kinds = ("many", "one") if filtered else ("many",)
    if not any(_is_set_noun(w) in kinds or w in _COLLECTION_NOUNS for w in words) or _OTHER_WH & set(words):
        return ""  # "when was the paper published?" asks a detail of one paper
    if set(content_terms(query)) - _COLLECTION_NOUNS - _HOLDING - SET_NOUNS - ONE_NOUNS:
        return ""
    return "count" if "how" in words and "many" in words else "list"


# --- "which is better?" ---------------------------------------------------------------------

BETTER = re.compile(rf"{_V['ranking']}|\b{_V['degree']}\s+(?:[\w-]+\s+)?{_V['quality']}", re.I)
"""Words that rank papers against each other: comparatives and superlatives of quality or speed
("better", "more accurate", "higher accuracy", "fastest") and the verbs of winning ("outperforms",
"beats", "wins", "comes out ahead"). With a choice frame they ask for a verdict (:func:`asks_better`);
with two papers named the question model reads them as a comparison word."""
_WINS = re.compile(rf"^{_VOCABULARY['winning'].bare}", re.I)
_CHOICE = re.compile(
    rf"{_V['choice_wh']}|\bthan\b(?!\s+(?:the\s+)?{_VOCABULARY['not_rival'].bare})|^\W*{_V['choice_aux']}|\bor\b[^.?!]*\?",
    re.I,
)
"""A choice between the papers: "which"/"who", "than" (not "than prior work"), a yes/no question
("is X stronger than Y?") or an alternative question ("X or Y, better?")."""
_VERDICT_LIGHT = _VOCABULARY["verdict_light"].pattern

def asks_better(query: str) -> bool:
    """Whether a question asks which paper wins: a word that ranks papers (:data:`BETTER`: "better",
    "more accurate", "outperforms", "wins") in a choice between them (:data:`_CHOICE`: "which",
    "than", a yes/no or an alternative question), or a verb of winning alone ("X beats Y?").
    "How do X and Y make training faster?" asks how, not which."""
    found = list(BETTER.finditer(query))
    return bool(found) and (bool(_CHOICE.search(query)) or any(_WINS.match(m.group(0)) for m in found))


def verdict_criterion(query: str) -> str:
    """What a verdict question ranks the papers by, as it words it: "faster", "more accurate",
    "higher accuracy"; "better" for a verb of winning ("which one wins?") or none."""
    m = BETTER.search(query)
    return m.group(0).lower() if m and not _WINS.match(m.group(0)) else "better"


def verdict_only(query: str) -> bool:
    """Whether a question asks only which paper wins, naming nothing to compare ("which is better?",
    "which one wins?", "so which is more accurate?"): in a conversation it asks it of the papers of
    the previous answer."""
    return asks_better(query) and not [t for t in content_terms(without_verdict(query)) if t not in FRAME_WORDS]


def without_verdict(text: str) -> str:
    """``text`` without the words that only ask which paper wins ("is more accurate", "which one
    wins", "gets higher accuracy"): what is left is what to quote from each paper."""
    return _VERDICT_LIGHT.sub(" ", BETTER.sub(" ", text))
